//! Timing shared by the benchmarks that compare the VM with `java` processes (`benches/vm.rs`,
//! `benches/validate.rs`, included with `#[path]`).

use std::time::{Duration, Instant};

/// The median of three timings of `f`.
pub fn median_of_three(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[1]
}
