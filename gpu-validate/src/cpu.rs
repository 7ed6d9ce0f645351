//! The CPU backend: many instances of one packaged method in parallel with rayon, one instance per
//! task, each on a machine reused within its worker thread. **Results do not depend on the number
//! of threads: instances share nothing but the read-only package.**

use crate::package::Package;
use crate::value::{Ending, Outcome, Value};
use crate::vm::{Machine, RunConfig};
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
        let Some(launcher) = self.package.entry(method.0, method.1, method.2) else {
            let reason = format!("{}.{}{} is not an entry of the package", method.0, method.1, method.2);
            return instances.iter().map(|_| refused(reason.clone())).collect();
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
                        match catch_unwind(AssertUnwindSafe(|| machine.run(launcher, args))) {
                            Ok(outcome) => outcome,
                            Err(_) => {
                                machine = Machine::new(self.package, self.config);
                                refused("internal error in the interpreter".into())
                            }
                        }
                    })
                    .collect::<Vec<Outcome>>()
            })
            .collect::<Vec<Vec<Outcome>>>()
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
    }
}
