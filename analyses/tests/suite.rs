//! The integration tests of `jresa-analyses`, built as one test binary: every `tests/<name>.rs` is a
//! module here (the crate is linked once, and the tests run in one process, in parallel). A test's
//! name is its file's name and its own: `cargo test -p jresa-analyses --test suite polyhedra::`.
//!
//! `Cargo.toml` turns off the automatic discovery of `tests/*.rs` (`autotests = false`) and names
//! this file; [`every_test_file_is_a_module`] fails when a file of `tests/` is missing below.

mod amortised_solve;
mod bounds_compare;
mod bounds_expr;
mod bounds_parse;
mod bounds_ranking;
mod ir_constructors;
mod ir_parse;
mod ir_parse_props;
mod ir_scalars;
mod polyhedra;
mod polyhedra_properties;
mod treegraph_dags;
mod treegraph_ir;
mod value_auxiliary;
mod value_filetests;
mod value_overflow;

/// The modules declared above, which must be exactly the `.rs` files of `tests/` but this one.
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
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        declared, files,
        "tests/suite.rs must declare every tests/*.rs as a module, sorted"
    );
}
