//! Golden tests of the VM: every method of `tests/data/vm/*.java` with an `// inputs:` comment is
//! packaged (with the JDK code it reaches) and run on those instances; the outcomes and counters
//! must equal `tests/data/vm/X.expected` (`UPDATE_EXPECT=1` rewrites them). The fidelity test
//! checks the same outcomes against the real JVM; this one pins the counters and the refusals.

use crate::analyze_support;
use crate::vm_support;
use jresa::report::vm::{ending_text, metrics_text, value_text};
use jresa_gpu_validate::{Backend, CpuBackend, Package, RunConfig};
use std::fmt::Write as _;
use std::path::Path;

/// Compares `actual` with the expected file, or rewrites it under `UPDATE_EXPECT=1`.
fn check(expected_path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected_path, actual).expect("write expected file");
        return;
    }
    let expected = std::fs::read_to_string(expected_path)
        .unwrap_or_else(|_| panic!("missing {}; run with UPDATE_EXPECT=1", expected_path.display()));
    if expected != actual {
        let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b);
        panic!(
            "{} differs (first difference at line {}):\nexpected: {}\nactual:   {}\nrun with UPDATE_EXPECT=1 to accept",
            expected_path.display(),
            first.map_or(0, |k| k + 1),
            first.and_then(|k| expected.lines().nth(k)).unwrap_or(""),
            first.and_then(|k| actual.lines().nth(k)).unwrap_or(""),
        );
    }
}

#[test]
fn fixture_outcomes_and_counters_match_the_expected_files() {
    let fixtures = vm_support::fixtures();
    assert!(fixtures.len() >= 5, "the VM fixtures are missing");
    let dir = analyze_support::scratch("vm-golden", "classes");
    let mut sources = fixtures.clone();
    sources.push(vm_support::resource_source());
    let classes = vm_support::compile(&sources, &dir);
    let source = vm_support::source(&classes);
    let per_fixture: Vec<(std::path::PathBuf, Vec<vm_support::Subject>)> = fixtures
        .iter()
        .map(|f| (f.clone(), vm_support::subjects(f, &classes)))
        .collect();
    let entries: Vec<(String, String, String)> = per_fixture
        .iter()
        .flat_map(|(_, subjects)| {
            subjects
                .iter()
                .map(|s| (s.class.clone(), s.name.clone(), s.descriptor.clone()))
        })
        .collect();
    let started = std::time::Instant::now();
    let package = Package::build(&source, &entries).expect("the fixtures package");
    eprintln!(
        "packaged in {:.1} s: {:?}",
        started.elapsed().as_secs_f64(),
        package.stats
    );
    let config = RunConfig {
        cct: true,
        limits: jresa_gpu_validate::Limits {
            max_bytecodes: 5_000_000,
            heap_words: 1 << 22,
            ..Default::default()
        },
    };
    let backend = CpuBackend::new(&package, config);
    for (fixture, subjects) in &per_fixture {
        let mut text = String::new();
        for subject in subjects {
            let outcomes = backend.run((&subject.class, &subject.name, &subject.descriptor), &subject.instances);
            for (instance, outcome) in subject.instances.iter().zip(&outcomes) {
                let args: Vec<String> = instance
                    .iter()
                    .zip(&subject.params)
                    .map(|(v, d)| value_text(v, d))
                    .collect();
                let _ = writeln!(
                    text,
                    "{}({}) => {}\n    {}\n    init: {}",
                    subject.name,
                    args.join(", "),
                    ending_text(&outcome.ending),
                    metrics_text(&outcome.metrics),
                    metrics_text(&outcome.initialization)
                );
                // The tree's counters add up to the totals.
                let cct = outcome.cct.as_ref().expect("a calling-context tree");
                let mut method = jresa_gpu_validate::Metrics::default();
                let mut init = jresa_gpu_validate::Metrics::default();
                for node in &cct.nodes {
                    if node.initialization {
                        init.add(&node.metrics);
                    } else {
                        method.add(&node.metrics);
                    }
                }
                assert_eq!(
                    method, outcome.metrics,
                    "{}.{} {args:?}: tree vs totals",
                    subject.class, subject.name
                );
                assert_eq!(
                    init, outcome.initialization,
                    "{}.{} {args:?}: tree vs totals",
                    subject.class, subject.name
                );
            }
        }
        check(&fixture.with_extension("expected"), &text);
    }
}
