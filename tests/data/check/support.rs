//! Shared by `tests/check_golden.rs` and `tests/check_crosscheck.rs` (the module `check_support`
//! of `tests/suite.rs`, beside `analyze_support`): compiling a fixture of this directory
//! against the `jresa.spec` sources.

#![allow(dead_code)]

use crate::analyze_support as support;
use jresa::classfile::{read_inputs, ClassFile};
use std::path::{Path, PathBuf};

/// `tests/data/check`.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/check")
}

/// Compiles a fixture with `javac -g` against the spec sources (compiled into the same scratch
/// directory) and reads back its own classes, sorted by name.
pub fn compile_against_specs(test: &str, source: &Path) -> Vec<ClassFile> {
    let stem = support::stem(source);
    let out = support::scratch(test, &stem);
    let spec_sources = support::scratch(test, &format!("{stem}-spec-src"));
    jresa::spec::sources::compile(&spec_sources, &out).expect("the spec sources compile");
    support::javac(&[source.to_path_buf()], &out);
    let loaded = read_inputs(std::slice::from_ref(&out));
    assert!(
        loaded.errors.is_empty(),
        "reading {}: {:?}",
        out.display(),
        loaded.errors
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&spec_sources);
    let mut classes: Vec<ClassFile> = loaded
        .classes
        .into_iter()
        .filter(|c| !c.name.starts_with("jresa/spec/"))
        .collect();
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    classes
}
