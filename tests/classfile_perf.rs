//! Timing check for reading and decoding all of `java.base.jmod`.
//!
//! Run it in release mode to see the figure that matters:
//! `cargo test --release --test suite classfile_perf -- --nocapture`.
//! The two-second budget is only enforced in optimized builds, as the best of three runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jresa::classfile::read_inputs;

const JAVA_BASE_JMOD: &str = "/usr/lib/jvm/java-17-openjdk-amd64/jmods/java.base.jmod";

#[test]
fn reading_java_base_is_fast() {
    let inputs = [PathBuf::from(JAVA_BASE_JMOD)];
    let runs = if cfg!(debug_assertions) { 1 } else { 3 };
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let loaded = read_inputs(&inputs);
        let elapsed = start.elapsed();
        assert!(loaded.errors.is_empty());
        let methods: usize = loaded.classes.iter().map(|class| class.methods.len()).sum();
        println!(
            "read {} classes ({methods} methods) from java.base.jmod in {elapsed:.3?} on {} threads",
            loaded.classes.len(),
            rayon::current_num_threads()
        );
        best = best.min(elapsed);
    }
    if !cfg!(debug_assertions) {
        assert!(best < Duration::from_secs(2), "best of {runs} runs took {best:?}");
    }
}
