//! The CPU backend: many instances of one packaged method in parallel with rayon, one instance per
//! task, each on a machine reused within its worker thread. **Results do not depend on the number
//! of threads: instances share nothing but the read-only package.**

use crate::package::Package;
use crate::value::{Ending, Outcome, Value};
use crate::vm::{FieldRead, Machine, RunConfig};
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs packaged methods on the CPU.
pub struct CpuBackend<'p> {
    package: &'p Package,
    config: RunConfig,
}

impl<'p> CpuBackend<'p> {
    pub fn new(package: &'p Package, config: RunConfig) -> CpuBackend<'p> {
        CpuBackend { package, config }
    }

    /// Runs `method` (an entry of the package, by class, name and descriptor) on every instance;
    /// outcomes come in the order of `instances`. A method that is not an entry of the package gives
    /// every instance a `Refused` outcome.
    pub fn run(&self, method: (&str, &str, &str), instances: &[Vec<Value>]) -> Vec<Outcome> {
        self.run_with(
            method,
            instances,
            &|machine, launcher, args| machine.run(launcher, args),
            &|outcome| outcome,
        )
    }

    /// Like [`CpuBackend::run`], with the fields of input objects each instance read, in the order
    /// of their first read (see [`Machine::run_traced`]).
    pub fn run_traced(&self, method: (&str, &str, &str), instances: &[Vec<Value>]) -> Vec<(Outcome, Vec<FieldRead>)> {
        self.run_with(
            method,
            instances,
            &|machine, launcher, args| machine.run_traced(launcher, args),
            &|outcome| (outcome, Vec::new()),
        )
    }

    /// Like [`CpuBackend::run`], with the state of every argument after the instance (see
    /// [`Machine::run_capturing`]).
    pub fn run_capturing(
        &self,
        method: (&str, &str, &str),
        instances: &[Vec<Value>],
    ) -> Vec<(Outcome, Result<Vec<Value>, String>)> {
        self.run_with(
            method,
            instances,
            &|machine, launcher, args| machine.run_capturing(launcher, args),
            &|outcome| {
                let reason = match &outcome.ending {
                    Ending::Refused { reason } => reason.clone(),
                    _ => "no state".into(),
                };
                (outcome, Err(reason))
            },
        )
    }

    /// Runs `one` on every instance in parallel; `failed` makes the result of an instance that did
    /// not run from its refused outcome.
    fn run_with<T: Send>(
        &self,
        method: (&str, &str, &str),
        instances: &[Vec<Value>],
        one: &(dyn Fn(&mut Machine<'p>, u32, &[Value]) -> T + Sync),
        failed: &(dyn Fn(Outcome) -> T + Sync),
    ) -> Vec<T> {
        let Some(launcher) = self.package.entry(method.0, method.1, method.2) else {
            let reason = format!("{}.{}{} is not an entry of the package", method.0, method.1, method.2);
            return instances.iter().map(|_| failed(refused(reason.clone()))).collect();
        };
        // A few chunks per thread, each run by one machine: machines (and their stacks) are made
        // a bounded number of times per call, and outcomes keep the order of the instances.
        let chunk = (instances.len() / (rayon::current_num_threads() * 4)).max(1);
        instances
            .par_chunks(chunk)
            .map(|chunk| {
                let mut machine = Machine::new(self.package, self.config);
                chunk
                    .iter()
                    .map(|args| {
                        // The interpreter indexes its arrays directly; a bug that breaks an
                        // invariant it relies on ends the instance as refused instead of taking the
                        // whole run down.
                        match catch_unwind(AssertUnwindSafe(|| one(&mut machine, launcher, args))) {
                            Ok(result) => result,
                            Err(_) => {
                                machine = Machine::new(self.package, self.config);
                                failed(refused("internal error in the interpreter".into()))
                            }
                        }
                    })
                    .collect::<Vec<T>>()
            })
            .collect::<Vec<Vec<T>>>()
            .into_iter()
            .flatten()
            .collect()
    }
}

fn refused(reason: String) -> Outcome {
    Outcome {
        ending: Ending::Refused { reason },
        metrics: Default::default(),
        initialization: Default::default(),
        cct: None,
        failed_initializer: None,
    }
}
