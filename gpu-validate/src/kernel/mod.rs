//! The kernel backends: the interpreter of `kernel/interp.cu`, run on a CUDA device (`cuda`) or
//! compiled as C and run on the host (`host`, which the tests compare with the CPU backend).
//!
//! The host prepares each instance's inputs on a CPU machine (argument words and the heap words of
//! its input objects), the kernel runs the instances, and the host turns each result record into
//! an [`Outcome`]. Instances the kernel defers (what it does not implement, or state past its
//! capacities) run on the CPU backend, so a kernel backend's outcomes are the CPU backend's, bit
//! for bit; [`KernelBackend::deferred`] counts them.
//!
//! Tracing and capturing runs (Korat's accessed fields, sequence states) run on the CPU backend.

pub mod abi;
pub mod cuda;
mod decode;
pub mod host;

use crate::backend::{Backend, MethodRef};
use crate::cpu::CpuBackend;
use crate::package::Package;
use crate::value::{Outcome, Value};
use crate::vm::{FieldRead, Machine, RunConfig};
use abi::{Capacities, InstanceMemory};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Where a kernel runs: it holds the program and runs launches of instances.
pub trait Device: Send + Sync {
    /// The device, for reports.
    fn name(&self) -> String;

    /// Instances per launch.
    fn batch(&self) -> usize;

    /// Runs one launch (`cfg[CF_COUNT]` instances) and returns the result records, with the
    /// memory of every instance for which `wanted` of its record holds.
    fn launch(
        &self,
        cfg: &[u32],
        inputs: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<(Vec<u32>, Vec<Option<InstanceMemory>>), String>;
}

/// Instances a kernel backend ran and deferred, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelCounts {
    pub ran: u64,
    pub deferred: BTreeMap<String, u64>,
}

impl KernelCounts {
    pub fn deferred_total(&self) -> u64 {
        self.deferred.values().sum()
    }
}

/// A backend that runs instances on the interpreter kernel.
pub struct KernelBackend<'p> {
    package: &'p Package,
    config: RunConfig,
    caps: Capacities,
    device: std::sync::Arc<dyn Device + 'p>,
    cpu: CpuBackend<'p>,
    counts: Mutex<KernelCounts>,
}

impl<'p> KernelBackend<'p> {
    pub fn new(package: &'p Package, config: RunConfig, device: std::sync::Arc<dyn Device + 'p>) -> KernelBackend<'p> {
        KernelBackend {
            package,
            config,
            caps: Capacities::default(),
            device,
            cpu: CpuBackend::new(package, config),
            counts: Mutex::new(KernelCounts::default()),
        }
    }

    /// The same backend with other per-instance capacities.
    pub fn with_capacities(mut self, caps: Capacities) -> KernelBackend<'p> {
        self.caps = caps;
        self
    }

    /// What the kernel ran and deferred so far.
    pub fn counts(&self) -> KernelCounts {
        self.counts.lock().map(|c| c.clone()).unwrap_or_default()
    }

    /// Runs the instances on the kernel; `None` for each instance it deferred (or could not
    /// prepare), whose outcome the CPU backend gives.
    fn run_on_kernel(&self, launcher: u32, instances: &[Vec<Value>]) -> Result<Vec<Option<Outcome>>, String> {
        let prepared: Vec<Option<(Vec<u32>, Vec<u32>)>> = instances
            .par_iter()
            .map_init(
                || Machine::new(self.package, self.config),
                |machine, args| machine.prepare_inputs(launcher, args).ok(),
            )
            .collect();
        let mut outcomes: Vec<Option<Outcome>> = vec![None; instances.len()];
        let ready: Vec<usize> = (0..instances.len()).filter(|&k| prepared[k].is_some()).collect();
        let return_type = decode::return_type(self.package, launcher);
        let wanted = |record: &[u32]| decode::needs_memory(record, &return_type, self.config.cct);
        let mut counts = KernelCounts::default();
        for chunk in ready.chunks(self.device.batch().max(1)) {
            let records: Vec<&(Vec<u32>, Vec<u32>)> = chunk.iter().filter_map(|&k| prepared[k].as_ref()).collect();
            let cfg = abi::config_words(self.package, self.config, self.caps, launcher, chunk.len());
            let inputs = abi::inputs_buffer(&records);
            let (results, memory) = self.device.launch(&cfg, &inputs, &wanted)?;
            for (slot, &k) in chunk.iter().enumerate() {
                let record = &results[slot * abi::RES_WORDS..(slot + 1) * abi::RES_WORDS];
                match decode::outcome(self.package, self.config, &return_type, record, memory[slot].as_ref()) {
                    Ok(outcome) => {
                        counts.ran += 1;
                        outcomes[k] = Some(outcome);
                    }
                    Err(reason) => *counts.deferred.entry(reason).or_default() += 1,
                }
            }
        }
        let unprepared = prepared.iter().filter(|p| p.is_none()).count() as u64;
        if unprepared > 0 {
            *counts.deferred.entry("inputs the kernel cannot take".into()).or_default() += unprepared;
        }
        if let Ok(mut total) = self.counts.lock() {
            total.ran += counts.ran;
            for (reason, count) in counts.deferred {
                *total.deferred.entry(reason).or_default() += count;
            }
        }
        Ok(outcomes)
    }
}

impl Backend for KernelBackend<'_> {
    fn name(&self) -> String {
        self.device.name()
    }

    fn run(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<Outcome> {
        let Some(launcher) = self.package.entry(method.0, method.1, method.2) else {
            return self.cpu.run(method, instances);
        };
        let mut outcomes = match self.run_on_kernel(launcher, instances) {
            Ok(outcomes) => outcomes,
            Err(error) => {
                // A device that fails leaves every instance to the CPU backend.
                if let Ok(mut counts) = self.counts.lock() {
                    *counts.deferred.entry(format!("a device error: {error}")).or_default() += instances.len() as u64;
                }
                vec![None; instances.len()]
            }
        };
        let rest: Vec<usize> = (0..instances.len()).filter(|&k| outcomes[k].is_none()).collect();
        if !rest.is_empty() {
            let values: Vec<Vec<Value>> = rest.iter().map(|&k| instances[k].clone()).collect();
            for (k, outcome) in rest.into_iter().zip(self.cpu.run(method, &values)) {
                outcomes[k] = Some(outcome);
            }
        }
        outcomes.into_iter().flatten().collect()
    }

    fn run_traced(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<(Outcome, Vec<FieldRead>)> {
        self.cpu.run_traced(method, instances)
    }

    fn run_capturing(
        &self,
        method: MethodRef<'_>,
        instances: &[Vec<Value>],
    ) -> Vec<(Outcome, Result<Vec<Value>, String>)> {
        self.cpu.run_capturing(method, instances)
    }
}
