//! The kernel backends: the interpreter of `kernel/interp.cu`, run on a CUDA device (`cuda`) or
//! compiled as C and run on the host (`host`, which the tests compare with the CPU backend).
//!
//! The host prepares each instance's inputs on a CPU machine (argument words and the heap words of
//! its input objects), the kernel runs the instances, and the host turns each result record into
//! an [`Outcome`]. Instances the kernel defers (what it does not implement, or state past its
//! capacities) run on the CPU backend, so a kernel backend's outcomes are the CPU backend's, bit
//! for bit; [`KernelBackend::counts`] counts them.
//!
//! Tracing and capturing runs (Korat's accessed fields, sequence states) run on the CPU backend.

pub mod abi;
pub mod cuda;
mod decode;
pub mod grid;
pub mod host;
mod mapping;

use crate::backend::{Backend, MethodRef};
use crate::cpu::CpuBackend;
use crate::package::Package;
use crate::value::{Outcome, Value};
use crate::vm::{FieldRead, Machine, RunConfig};
use abi::{Capacities, InstanceMemory};
pub use grid::InputGrid;
pub use mapping::{warp_efficiency, Mapping, Schedule, WARP, WARP_EFFICIENCY_THRESHOLD};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Where a kernel runs: it holds the program and runs launches of instances.
pub trait Device: Send + Sync {
    /// The device, for reports.
    fn name(&self) -> String;

    /// Instances per launch, for instances of `words` words of state each.
    fn batch(&self, words: usize) -> usize;

    /// Runs one launch (`cfg[CF_COUNT]` instances) and returns the result records, with the
    /// memory of every instance for which `wanted` of its record holds.
    fn launch(
        &self,
        cfg: &[u32],
        inputs: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<(Vec<u32>, Vec<Option<InstanceMemory>>), String>;
}

/// Instances a kernel backend ran and deferred, by reason, and where its time went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelCounts {
    pub ran: u64,
    /// Of `ran`, the instances launched one per warp ([`Mapping`]).
    pub ran_per_warp: u64,
    /// Of `ran`, the instances whose inputs the kernel decoded from their number ([`InputGrid`]).
    pub ran_decoded: u64,
    pub deferred: BTreeMap<String, u64>,
    /// Seconds preparing inputs on the host, in launches (copies, kernel, reading back), and
    /// making outcomes of the result records.
    pub prepare_seconds: f64,
    pub launch_seconds: f64,
    pub decode_seconds: f64,
}

impl KernelCounts {
    /// Adds another's counts and times to these.
    pub fn add(&mut self, other: KernelCounts) {
        self.ran += other.ran;
        self.ran_per_warp += other.ran_per_warp;
        self.ran_decoded += other.ran_decoded;
        for (reason, count) in other.deferred {
            *self.deferred.entry(reason).or_default() += count;
        }
        self.prepare_seconds += other.prepare_seconds;
        self.launch_seconds += other.launch_seconds;
        self.decode_seconds += other.decode_seconds;
    }

    pub fn deferred_total(&self) -> u64 {
        self.deferred.values().sum()
    }

    /// One line for reports: instances run and deferred, and where the time went.
    pub fn summary(&self) -> String {
        let deferred: Vec<String> = self.deferred.iter().map(|(why, n)| format!("{n} for {why}")).collect();
        let mut of_them = Vec::new();
        if self.ran_decoded > 0 {
            of_them.push(format!("{} with inputs decoded on the device", self.ran_decoded));
        }
        if self.ran_per_warp > 0 {
            of_them.push(format!("{} one per warp", self.ran_per_warp));
        }
        let detail = match of_them.is_empty() {
            true => String::new(),
            false => format!(" (of them {})", of_them.join(", ")),
        };
        format!(
            "the kernel ran {} instances{detail} and left {} to the CPU backend{}; {:.3} s preparing inputs, {:.3} s in launches, {:.3} s making outcomes",
            self.ran,
            self.deferred_total(),
            if deferred.is_empty() { String::new() } else { format!(" ({})", deferred.join(", ")) },
            self.prepare_seconds,
            self.launch_seconds,
            self.decode_seconds
        )
    }
}

/// A backend that runs instances on the interpreter kernel.
pub struct KernelBackend<'p> {
    package: &'p Package,
    config: RunConfig,
    caps: Capacities,
    device: std::sync::Arc<dyn Device + 'p>,
    cpu: CpuBackend<'p>,
    /// Shared by the backends of one [`crate::Backends`].
    counts: Arc<Mutex<KernelCounts>>,
    /// How launches map instances to threads, per method (shared like `counts`).
    schedule: Arc<Schedule>,
}

impl<'p> KernelBackend<'p> {
    pub fn new(package: &'p Package, config: RunConfig, device: std::sync::Arc<dyn Device + 'p>) -> KernelBackend<'p> {
        KernelBackend {
            package,
            config,
            caps: Capacities::default(),
            device,
            cpu: CpuBackend::new(package, config),
            counts: Arc::new(Mutex::new(KernelCounts::default())),
            schedule: Arc::new(Schedule::new(Mapping::default())),
        }
    }

    /// The same backend scheduling its launches with `schedule` (shared with other backends).
    pub fn sharing_schedule(mut self, schedule: Arc<Schedule>) -> KernelBackend<'p> {
        self.schedule = schedule;
        self
    }

    /// The same backend adding to `counts` (shared with other backends).
    pub fn sharing_counts(mut self, counts: Arc<Mutex<KernelCounts>>) -> KernelBackend<'p> {
        self.counts = counts;
        self
    }

    /// What the kernel ran and deferred so far.
    pub fn counts(&self) -> KernelCounts {
        self.counts.lock().map(|c| c.clone()).unwrap_or_default()
    }

    /// Runs the instances on the kernel; `None` for each instance it deferred (or could not
    /// prepare), whose outcome the CPU backend gives.
    fn run_on_kernel(&self, launcher: u32, instances: &[Vec<Value>]) -> Result<Vec<Option<Outcome>>, String> {
        let mut counts = KernelCounts::default();
        let clock = std::time::Instant::now();
        let inputs = self.prepare(launcher, instances);
        let mut outcomes: Vec<Option<Outcome>> = vec![None; instances.len()];
        let ready: Vec<usize> = match &inputs {
            Inputs::Grid(_) => (0..instances.len()).collect(),
            Inputs::Records(records) => (0..instances.len()).filter(|&k| records[k].is_some()).collect(),
        };
        let return_type = decode::return_type(self.package, launcher);
        let wanted = |record: &[u32]| decode::needs_memory(record, &return_type, self.config.cct);
        counts.prepare_seconds += clock.elapsed().as_secs_f64();
        let words = abi::Layout::of(&abi::config_words(self.package, self.config, self.caps, launcher, 1)).total;
        for chunk in ready.chunks(self.device.batch(words).max(1)) {
            let clock = std::time::Instant::now();
            let mut cfg = abi::config_words(self.package, self.config, self.caps, launcher, chunk.len());
            let spread = self.schedule.spread(launcher);
            cfg[abi::CF_SPREAD] = spread;
            let buffer = match &inputs {
                // Grid chunks are consecutive numbers: the chunk's first is its start.
                Inputs::Grid(grid) => {
                    cfg[abi::CF_DECODE] = 1;
                    grid.words(chunk[0] as u64)
                }
                Inputs::Records(records) => {
                    let records: Vec<&(Vec<u32>, Vec<u32>)> =
                        chunk.iter().filter_map(|&k| records[k].as_ref()).collect();
                    abi::inputs_buffer(&records)
                }
            };
            let (results, memory) = self.device.launch(&cfg, &buffer, &wanted)?;
            counts.launch_seconds += clock.elapsed().as_secs_f64();
            self.schedule.observe(launcher, spread, &results);
            let clock = std::time::Instant::now();
            let decoded: Vec<Result<Outcome, String>> = (0..chunk.len())
                .into_par_iter()
                .map_init(
                    || Machine::new_for_rendering(self.package),
                    |machine, slot| {
                        let record = &results[slot * abi::RES_WORDS..(slot + 1) * abi::RES_WORDS];
                        decode::outcome(machine, self.config, &return_type, record, memory[slot].as_ref())
                    },
                )
                .collect();
            for (&k, result) in chunk.iter().zip(decoded) {
                match result {
                    Ok(outcome) => {
                        counts.ran += 1;
                        counts.ran_per_warp += u64::from(spread == WARP);
                        counts.ran_decoded += u64::from(cfg[abi::CF_DECODE] == 1);
                        outcomes[k] = Some(outcome);
                    }
                    Err(reason) => *counts.deferred.entry(reason).or_default() += 1,
                }
            }
            counts.decode_seconds += clock.elapsed().as_secs_f64();
        }
        let unprepared = instances.len() - ready.len();
        if unprepared > 0 {
            *counts
                .deferred
                .entry("inputs the kernel cannot take".into())
                .or_default() += unprepared as u64;
        }
        if let Ok(mut total) = self.counts.lock() {
            total.add(counts);
        }
        Ok(outcomes)
    }

    /// The launches' inputs: a grid the kernel decodes when the instances are a product of
    /// primitive values numbered as `generate` numbers them, else a record per instance
    /// (`None` for an instance whose inputs could not be built).
    fn prepare(&self, launcher: u32, instances: &[Vec<Value>]) -> Inputs {
        let types = Machine::argument_types(self.package, launcher).unwrap_or_default();
        let input_words = self.package.proc_word(launcher, crate::isa::proc::INPUT_WORDS) as usize;
        let plain: Vec<Option<Vec<Vec<u32>>>> = instances
            .iter()
            .map(|args| plain_parameters(args, &types, input_words))
            .collect();
        let all_plain: Option<Vec<&Vec<Vec<u32>>>> = plain.iter().map(Option::as_ref).collect();
        if let Some(grid) = all_plain.as_deref().and_then(InputGrid::of) {
            return Inputs::Grid(grid);
        }
        // A few chunks per thread, each with at most one machine (taken on the chunk's first
        // object input from the CPU backend's pool): a new machine copies the whole image, which
        // costs more than many instances, while a pooled one restores only the pages it changed.
        let chunk = (instances.len() / (rayon::current_num_threads() * 4)).max(1);
        let records = instances
            .par_chunks(chunk)
            .zip(plain.par_chunks(chunk))
            .flat_map_iter(|(chunk, plain)| {
                let mut machine: Option<Machine<'p>> = None;
                let records = chunk
                    .iter()
                    .zip(plain)
                    .map(|(args, plain)| {
                        // Primitives and nulls are words as they are; objects are built on a machine.
                        if let Some(words) = plain {
                            return Some((words.concat(), Vec::new()));
                        }
                        let pooled = machine.get_or_insert_with(|| self.cpu.machine());
                        // A fault while building inputs leaves the instance to the CPU backend, and
                        // the machine is not used again.
                        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            pooled.prepare_inputs(launcher, args)
                        })) {
                            Ok(prepared) => prepared.ok(),
                            Err(_) => {
                                machine = None;
                                None
                            }
                        }
                    })
                    .collect::<Vec<_>>();
                if let Some(machine) = machine {
                    self.cpu.give_back(machine);
                }
                records
            })
            .collect();
        Inputs::Records(records)
    }
}

/// A launch's inputs (see [`KernelBackend::prepare`]).
enum Inputs {
    Grid(InputGrid),
    Records(Vec<Option<(Vec<u32>, Vec<u32>)>>),
}

/// The argument words of each parameter of an instance whose arguments are all primitives or
/// nulls of the entry's types, as `Machine::start` would lay them out; `None` otherwise.
fn plain_parameters(args: &[Value], types: &[String], input_words: usize) -> Option<Vec<Vec<u32>>> {
    if args.len() != types.len() {
        return None;
    }
    let words: Vec<Vec<u32>> = args
        .iter()
        .zip(types)
        .map(|(value, ty)| crate::vm::convert::plain_input(value, ty))
        .collect::<Option<_>>()?;
    (words.iter().map(Vec::len).sum::<usize>() == input_words).then_some(words)
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

    fn statistics(&self) -> Option<String> {
        Some(self.counts().summary())
    }

    fn run_capturing(
        &self,
        method: MethodRef<'_>,
        instances: &[Vec<Value>],
    ) -> Vec<(Outcome, Result<Vec<Value>, String>)> {
        self.cpu.run_capturing(method, instances)
    }
}
