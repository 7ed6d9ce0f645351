//! cargo-fuzz target: `parse_class` must return Ok or Err for any bytes, never panic.
//!
//! Run with `cargo +nightly fuzz run parse_class` from the repository root; seed the corpus with
//! real classes (e.g. `unzip` a jar into `fuzz/corpus/parse_class`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(class) = jresa::classfile::parse_class(bytes, "fuzz.class") {
        // Touch the decoded code so that the whole model is built and inspected.
        let instructions: usize = class
            .methods
            .iter()
            .filter_map(|method| method.code.as_ref()?.as_ref().ok())
            .map(|code| code.instructions.len())
            .sum();
        std::hint::black_box(instructions);
    }
});
