//! The CPU backend: many instances of one packaged method in parallel with rayon, one instance per
//! task, each on a machine reused within its worker thread. **Results do not depend on the number
//! of threads: instances share nothing but the read-only package.**

use crate::backend::{Backend, MethodRef};
use crate::package::Package;
use crate::value::{Ending, Outcome, Value};
use crate::vm::{FieldRead, Machine, RunConfig};
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// Runs packaged methods on the CPU.
pub struct CpuBackend<'p> {
    package: &'p Package,
    config: RunConfig,
    /// Machines made by earlier calls, reused (their stacks are large): a backend called once per
    /// Korat candidate makes a machine per thread, not per candidate.
    pool: Mutex<Vec<Machine<'p>>>,
}

impl<'p> CpuBackend<'p> {
    pub fn new(package: &'p Package, config: RunConfig) -> CpuBackend<'p> {
        CpuBackend {
            package,
            config,
            pool: Mutex::new(Vec::new()),
        }
    }
}

impl Backend for CpuBackend<'_> {
    fn name(&self) -> String {
        format!("cpu ({} threads)", rayon::current_num_threads())
    }

    fn run(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<Outcome> {
        self.run_with(
            method,
            instances,
            &|machine, launcher, args| machine.run(launcher, args),
            &|outcome| outcome,
        )
    }

    fn run_traced(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<(Outcome, Vec<FieldRead>)> {
        self.run_with(
            method,
            instances,
            &|machine, launcher, args| machine.run_traced(launcher, args),
            &|outcome| (outcome, Vec::new()),
        )
    }

    fn run_capturing(
        &self,
        method: MethodRef<'_>,
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
}

impl<'p> CpuBackend<'p> {
    /// A machine from the pool, or a new one.
    pub(crate) fn machine(&self) -> Machine<'p> {
        let pooled = self.pool.lock().map(|mut pool| pool.pop()).unwrap_or(None);
        pooled.unwrap_or_else(|| Machine::new(self.package, self.config))
    }

    /// Puts a machine back into the pool.
    pub(crate) fn give_back(&self, machine: Machine<'p>) {
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(machine);
        }
    }

    /// Runs `one` on every instance in parallel; `failed` makes the result of an instance that did
    /// not run from its refused outcome.
    fn run_with<T: Send>(
        &self,
        method: MethodRef<'_>,
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
                let mut machine = self.machine();
                let results = chunk
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
                    .collect::<Vec<T>>();
                self.give_back(machine);
                results
            })
            .collect::<Vec<Vec<T>>>()
            .into_iter()
            .flatten()
            .collect()
    }
}

pub(crate) fn refused(reason: String) -> Outcome {
    Outcome {
        ending: Ending::Refused { reason },
        metrics: Default::default(),
        initialization: Default::default(),
        cct: None,
        failed_initializer: None,
    }
}
