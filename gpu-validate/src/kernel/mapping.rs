//! How a launch maps instances to the device's threads: GVM's two schedules, one instance per
//! thread (the default, every lane busy while the instances follow the same path) or one per warp
//! (the first lane runs it and the other 31 idle, so a warp never diverges), chosen per method
//! from what earlier launches of the method measured.
//!
//! GVM decides on the warp execution efficiency the profiler reports. Without a profiler in the
//! loop, the efficiency is estimated from the result records of a launch run one instance per
//! thread: in each warp, a lane that has finished idles until the longest lane is done, so the
//! warp's efficiency is at most its lanes' bytecodes over 32 times its longest lane's
//! ([`warp_efficiency`]). Lanes that run different paths of the same length are not seen, so the
//! estimate is an upper bound of what the device would report, and a method it sends to warps is
//! divergent for certain.

use super::abi;
use super::decode;
use std::collections::HashMap;
use std::sync::Mutex;

/// Threads per warp on NVIDIA devices, and so per instance in the warp schedule.
pub const WARP: u32 = 32;

/// The warp execution efficiency below which a method's instances run one per warp (GVM's
/// threshold).
pub const WARP_EFFICIENCY_THRESHOLD: f64 = 0.25;

/// How instances map to threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mapping {
    /// One instance per thread.
    Thread,
    /// One instance per warp.
    Warp,
    /// Per method: one per thread, until a launch of the method estimates its warp efficiency
    /// below [`WARP_EFFICIENCY_THRESHOLD`]; then one per warp for its later launches.
    #[default]
    Auto,
}

/// The estimated warp execution efficiency of a launch run one instance per thread, from its
/// result records (`RES_WORDS` each): the bytecodes of all lanes over 32 times the longest lane's,
/// summed over the warps (groups of 32 consecutive instances; a last, partial warp has idle
/// lanes too). `None` when no instance ran a bytecode.
pub fn warp_efficiency(results: &[u32]) -> Option<f64> {
    let steps: Vec<u64> = results.chunks_exact(abi::RES_WORDS).map(decode::bytecodes).collect();
    let (mut busy, mut issued) = (0u128, 0u128);
    for warp in steps.chunks(WARP as usize) {
        busy += warp.iter().map(|&s| u128::from(s)).sum::<u128>();
        issued += u128::from(warp.iter().copied().max().unwrap_or(0)) * u128::from(WARP);
    }
    (issued > 0).then(|| busy as f64 / issued as f64)
}

/// The mapping of each method's launches, with what its launches measured.
pub struct Schedule {
    mapping: Mapping,
    /// Per launcher, whether a launch run one per thread found it divergent.
    divergent: Mutex<HashMap<u32, bool>>,
}

impl Schedule {
    pub fn new(mapping: Mapping) -> Schedule {
        Schedule {
            mapping,
            divergent: Mutex::new(HashMap::new()),
        }
    }

    /// Threads per instance (`CF_SPREAD`) for the next launch of `launcher`.
    pub fn spread(&self, launcher: u32) -> u32 {
        let warp = match self.mapping {
            Mapping::Thread => false,
            Mapping::Warp => true,
            Mapping::Auto => self.divergent.lock().is_ok_and(|d| d.get(&launcher) == Some(&true)),
        };
        if warp {
            WARP
        } else {
            1
        }
    }

    /// Records what a launch of `launcher` at `spread` threads per instance measured; only
    /// launches one per thread estimate the efficiency, and the first estimate decides.
    pub fn observe(&self, launcher: u32, spread: u32, results: &[u32]) {
        if self.mapping != Mapping::Auto || spread != 1 {
            return;
        }
        // A launch of fewer instances than a warp measures nothing about warps.
        if results.len() < abi::RES_WORDS * WARP as usize {
            return;
        }
        let Some(efficiency) = warp_efficiency(results) else {
            return;
        };
        if let Ok(mut divergent) = self.divergent.lock() {
            divergent
                .entry(launcher)
                .or_insert(efficiency < WARP_EFFICIENCY_THRESHOLD);
        }
    }

    /// The methods (launchers) found divergent so far.
    pub fn divergent_methods(&self) -> usize {
        self.divergent.lock().map_or(0, |d| d.values().filter(|&&v| v).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(bytecodes: u64) -> Vec<u32> {
        let mut r = vec![0u32; abi::RES_WORDS];
        r[abi::RES_STATUS] = abi::ST_RETURNED;
        r[abi::RES_METRICS] = bytecodes as u32;
        r[abi::RES_METRICS + 1] = (bytecodes >> 32) as u32;
        r
    }

    #[test]
    fn uniform_lanes_are_efficient_and_one_long_lane_is_not() {
        let uniform: Vec<u32> = (0..64).flat_map(|_| record(100)).collect();
        assert_eq!(warp_efficiency(&uniform), Some(1.0));
        // One lane of each warp runs 1000 bytecodes, the others 10: (1000 + 31 * 10) / 32000.
        let skewed: Vec<u32> = (0..64)
            .flat_map(|k| record(if k % 32 == 0 { 1000 } else { 10 }))
            .collect();
        let e = warp_efficiency(&skewed).unwrap();
        assert!((e - 1310.0 / 32000.0).abs() < 1e-12, "{e}");
        assert_eq!(warp_efficiency(&record(0)), None);
    }

    #[test]
    fn auto_sends_a_divergent_method_to_warps_after_its_first_launch() {
        let schedule = Schedule::new(Mapping::Auto);
        assert_eq!(schedule.spread(7), 1);
        let skewed: Vec<u32> = (0..32).flat_map(|k| record(if k == 0 { 1000 } else { 1 })).collect();
        schedule.observe(7, 1, &skewed);
        assert_eq!(schedule.spread(7), WARP);
        assert_eq!(schedule.spread(8), 1);
        let uniform: Vec<u32> = (0..32).flat_map(|_| record(5)).collect();
        schedule.observe(8, 1, &uniform);
        assert_eq!(schedule.spread(8), 1);
        assert_eq!(schedule.divergent_methods(), 1);
        assert_eq!(Schedule::new(Mapping::Warp).spread(8), WARP);
        assert_eq!(Schedule::new(Mapping::Thread).spread(7), 1);
    }
}
