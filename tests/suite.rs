//! The integration tests, built as one test binary: every `tests/<name>.rs` is a module here, so
//! the crate and its dependencies are linked once instead of once per file, and all the tests run
//! in one process, in parallel (`cargo test` runs test binaries one after another). A test's name
//! is its file's name and its own: `cargo test --test suite analyze_soundness::` runs one file's.
//!
//! `Cargo.toml` turns off the automatic discovery of `tests/*.rs` (`autotests = false`) and names
//! this file; [`every_test_file_is_a_module`] fails when a file of `tests/` is missing below.

// Helpers several files share (each used to include them with `#[path]`).
#[path = "data/analyze/support.rs"]
mod analyze_support;
#[path = "data/check/support.rs"]
mod check_support;
#[path = "data/classfile/support.rs"]
mod classfile_support;
#[path = "data/validate/lejit.rs"]
mod lejit;
#[path = "data/report/support.rs"]
mod report_support;
#[path = "data/vm/support.rs"]
mod vm_support;

// One module per file of `tests/`.
mod analyze_degraded;
mod analyze_expectations;
mod analyze_soundness;
mod check_crosscheck;
mod check_golden;
mod check_robustness;
mod check_soundness;
mod ci_walkthrough;
mod classfile_fuzz;
mod classfile_perf;
mod classfile_read;
mod hierarchy;
mod html_browser;
mod html_report;
mod kernel_differential;
mod lift_golden;
mod lift_java_base;
mod literature_suite;
mod nontermination_fixtures;
mod profile_exact;
mod profile_format;
mod report_formats;
mod spec_parse;
mod summary_cache;
mod treegraph_lift_golden;
mod validate_fuzz;
mod validate_real_jars;
mod validate_report;
mod validate_requires;
mod validate_sequences;
mod value_fixpoint;
mod vm_counts;
mod vm_fidelity;
mod vm_golden;

/// `javac`, with its JVM set up for a short run: the first JIT tier only and the serial collector.
/// The classes it writes are the same; compiling a small file takes about a third less CPU time.
pub fn javac() -> std::process::Command {
    let mut command = std::process::Command::new("javac");
    command.args(["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"]);
    command
}

/// The modules declared above after the helpers, which must be exactly the `.rs` files of `tests/`
/// but this one.
const MODULES: &str = include_str!("suite.rs");

#[test]
fn every_test_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<String> = std::fs::read_dir(&tests)
        .expect("tests/ exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .filter(|name| name != "suite")
        .collect();
    files.sort();
    let declared: Vec<String> = MODULES
        .lines()
        .skip_while(|line| !line.starts_with("// One module per file"))
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        declared, files,
        "tests/suite.rs must declare every tests/*.rs as a module, sorted"
    );
}
