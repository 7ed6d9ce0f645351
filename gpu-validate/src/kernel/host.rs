//! The interpreter kernel compiled as C for the host (`kernel/host.c`, built by `build.rs`):
//! launches run as loops over their instances, several launches at once on rayon's threads.

use super::abi::{self, InstanceMemory, Layout};
use super::Device;
use rayon::prelude::*;

#[allow(unsafe_code)]
mod ffi {
    extern "C" {
        /// `jresa_run` of `kernel/interp.cu`: runs `cfg[CF_COUNT]` instances over the buffers.
        pub fn jresa_run(prog: *const u32, cfg: *const u32, inputs: *const u32, state: *mut u32, results: *mut u32);
    }

    /// Runs a launch. The buffers are as `kernel/abi.h` describes them: `state` holds the layout's
    /// words and `results` `RES_WORDS` per instance, which the caller checks.
    pub fn run(prog: &[u32], cfg: &[u32], inputs: &[u32], state: &mut [u32], results: &mut [u32]) {
        // SAFETY: every pointer comes from a live slice of the size the kernel indexes: the
        // program image and inputs as built by `abi`, `state` of `Layout::of(cfg).total` words and
        // `results` of `count * RES_WORDS` words (asserted by the caller). The kernel only reads
        // `prog`, `cfg` and `inputs` and writes within `state` and `results`.
        unsafe {
            jresa_run(
                prog.as_ptr(),
                cfg.as_ptr(),
                inputs.as_ptr(),
                state.as_mut_ptr(),
                results.as_mut_ptr(),
            )
        }
    }
}

/// Instances per launch on the host.
const HOST_BATCH: usize = 16;

/// The kernel on the host.
pub struct HostDevice {
    program: Vec<u32>,
}

impl HostDevice {
    pub fn new(program: Vec<u32>) -> HostDevice {
        HostDevice { program }
    }
}

impl Device for HostDevice {
    fn name(&self) -> String {
        "kernel on the host (C)".into()
    }

    fn batch(&self, _words: usize) -> usize {
        HOST_BATCH * rayon::current_num_threads()
    }

    fn launch(
        &self,
        cfg: &[u32],
        inputs: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<(Vec<u32>, Vec<Option<InstanceMemory>>), String> {
        // The launch is split into launches of HOST_BATCH instances, run in parallel.
        let count = cfg[abi::CF_COUNT] as usize;
        // Each thread keeps its state buffer between parts: the kernel initialises every word it
        // reads, so the buffer needs no clearing.
        let parts: Vec<(Vec<u32>, Vec<Option<InstanceMemory>>)> = (0..count)
            .step_by(HOST_BATCH)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map_init(Vec::new, |state: &mut Vec<u32>, first| {
                let part = HOST_BATCH.min(count - first);
                let mut part_cfg = cfg.to_vec();
                part_cfg[abi::CF_COUNT] = part as u32;
                let part_inputs = match cfg[abi::CF_DECODE] {
                    0 => sub_inputs(inputs, first, part),
                    _ => super::grid::shifted(inputs, first),
                };
                let layout = Layout::of(&part_cfg);
                if state.len() < layout.total {
                    state.resize(layout.total, 0);
                }
                let mut results = vec![0u32; part * abi::RES_WORDS];
                ffi::run(&self.program, &part_cfg, &part_inputs, state, &mut results);
                let memory = (0..part)
                    .map(|i| {
                        let record = &results[i * abi::RES_WORDS..(i + 1) * abi::RES_WORDS];
                        wanted(record).then(|| InstanceMemory::gather(state, &layout, &part_cfg, i, record))
                    })
                    .collect();
                (results, memory)
            })
            .collect();
        let mut results = Vec::with_capacity(count * abi::RES_WORDS);
        let mut memory = Vec::with_capacity(count);
        for (r, m) in parts {
            results.extend(r);
            memory.extend(m);
        }
        Ok((results, memory))
    }
}

/// The inputs buffer of instances `first..first + count` of `inputs`.
pub(super) fn sub_inputs(inputs: &[u32], first: usize, count: usize) -> Vec<u32> {
    let start = inputs[first] as usize;
    let end = inputs[first + count] as usize;
    let shift = start - (count + 1);
    let mut buffer: Vec<u32> = (0..=count).map(|k| inputs[first + k] - shift as u32).collect();
    buffer.extend_from_slice(&inputs[start..end]);
    buffer
}
