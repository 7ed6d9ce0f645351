//! The cache of library summaries (`src/analyze/summary_store.rs`, `src/cache.rs`) on
//! `tests/data/cache/Digits.java`, whose calls into the JDK go to summaries: a warm run computes no
//! summary and reports exactly what a cold run reports, a damaged store file is ignored with a
//! warning and replaced, `--no-cache` writes nothing, and no stored summary is of the program's
//! own code.

use crate::analyze_support as support;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The classes compiled from the fixture, in a scratch directory of their own.
fn classes(test: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache/Digits.java");
    let out = support::scratch(test, "classes");
    support::javac(&[source], &out);
    out
}

/// `jresa analyze --format json` on `classes` with `options`: the report, its stderr, and how
/// many summaries the run computed (the lines `JRESA_DEBUG_TIMING` prints for them).
fn analyze(classes: &Path, options: &[&str], env: Option<&Path>) -> (String, String, usize) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jresa"));
    command
        .arg("analyze")
        .arg(classes)
        .args(["--format", "json", "-q"])
        .args(options);
    command.env("JRESA_DEBUG_TIMING", "1").env_remove("JRESA_CACHE_DIR");
    if let Some(dir) = env {
        command.env("JRESA_CACHE_DIR", dir);
    }
    let output = command.output().expect("jresa runs");
    assert!(output.status.success(), "jresa analyze failed: {output:?}");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 diagnostics");
    let computed = stderr.lines().filter(|l| l.starts_with("summary of ")).count();
    (
        String::from_utf8(output.stdout).expect("a UTF-8 report"),
        stderr,
        computed,
    )
}

/// The store files under cache directory `dir`.
fn store_files(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir.join("summaries")) {
        Ok(listing) => listing.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn a_warm_run_computes_no_summary_and_reports_what_a_cold_run_does() {
    let classes = classes("cache-warm");
    let cache = support::scratch("cache-warm", "cache");
    let flag = ["--cache-dir", cache.to_str().expect("a UTF-8 path")];
    let (cold, _, cold_computed) = analyze(&classes, &flag, None);
    assert!(cold_computed > 0, "the fixture's calls need summaries");
    assert_eq!(store_files(&cache).len(), 1, "one store file for the program");
    let (warm, _, warm_computed) = analyze(&classes, &flag, None);
    assert_eq!(warm_computed, 0, "every summary the run needs was stored");
    assert_eq!(cold, warm, "a stored summary is what the run would compute");
    let (uncached, _, _) = analyze(&classes, &["--no-cache"], None);
    assert_eq!(cold, uncached);
}

#[test]
fn a_damaged_store_is_ignored_with_a_warning_and_replaced() {
    let classes = classes("cache-damage");
    let cache = support::scratch("cache-damage", "cache");
    let (cold, _, _) = analyze(&classes, &[], Some(&cache));
    let file = store_files(&cache).pop().expect("a store file");
    let mut bytes = std::fs::read(&file).expect("the store file reads");
    let last = bytes.len() - 2;
    bytes[last] ^= 0x20;
    std::fs::write(&file, &bytes).expect("the store file is writable");
    let (again, stderr, computed) = analyze(&classes, &[], Some(&cache));
    assert!(stderr.contains("is damaged; it is ignored"), "{stderr}");
    assert!(computed > 0, "the damaged store's summaries are computed again");
    assert_eq!(cold, again);
    let (_, stderr, computed) = analyze(&classes, &[], Some(&cache));
    assert!(!stderr.contains("damaged"), "the store was replaced: {stderr}");
    assert_eq!(computed, 0);
}

#[test]
fn no_cache_reads_and_writes_nothing() {
    let classes = classes("cache-none");
    let cache = support::scratch("cache-none", "cache");
    analyze(&classes, &["--no-cache"], Some(&cache));
    assert!(store_files(&cache).is_empty());
}

#[test]
fn no_stored_summary_is_of_the_programs_own_code() {
    let classes = classes("cache-own");
    let cache = support::scratch("cache-own", "cache");
    analyze(&classes, &[], Some(&cache));
    let file = store_files(&cache).pop().expect("a store file");
    let text = std::fs::read_to_string(file).expect("the store file reads");
    let (_, body) = text.split_once('\n').expect("a header line");
    let stored: serde_json::Value = serde_json::from_str(body).expect("a JSON list");
    let stored = stored.as_array().expect("a list of summaries");
    assert!(!stored.is_empty());
    for entry in stored {
        assert_ne!(entry["class"], "Digits", "{entry}");
        assert!(entry["class"]
            .as_str()
            .is_some_and(|c| c.starts_with("java/") || c.starts_with("jdk/")));
    }
}
