//! The amortised analysis never panics and stays within its budgets on real code: every method
//! of the lifting and cost-analysis fixtures (exceptions, switches, arrays, recursion, nested
//! loops, library calls) is checked under a generic specification, and each must come out with
//! a verdict (most fail: the specification is not meant to hold).

use crate::analyze_support as support;
use jresa::check::check_with_default;
use jresa::classfile::{read_inputs, ClassPath};
use jresa::spec::parse_assertions;
use jresa_analyses::amortised::spec::{Annotated, MethodSpec, Role};
use std::path::Path;

#[test]
fn every_fixture_method_gets_a_verdict_under_a_generic_specification() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut sources = Vec::new();
    for stage in ["lift", "analyze"] {
        for entry in std::fs::read_dir(root.join(stage)).expect("fixtures").flatten() {
            if entry.path().extension().is_some_and(|x| x == "java") {
                sources.push(entry.path());
            }
        }
    }
    sources.sort();
    let annotated = |role: Role, text: &str| Annotated {
        role,
        text: text.to_owned(),
        assertions: parse_assertions(text).expect("the generic specification parses"),
    };
    let spec = MethodSpec {
        requires: Some(annotated(Role::Requires, "{ | | x }")),
        ensures: Some(annotated(Role::Ensures, "{ | | y }")),
        invariants: Vec::new(),
    };
    let classpath = ClassPath::default_jdk().ok();
    let mut verdicts = std::collections::BTreeMap::new();
    let started = std::time::Instant::now();
    for source in &sources {
        let out = support::scratch("check-robustness", &support::stem(source));
        support::javac(std::slice::from_ref(source), &out);
        let loaded = read_inputs(std::slice::from_ref(&out));
        let report = check_with_default(&loaded.classes, classpath.as_ref(), &|_, _| true, Some(&spec));
        for m in &report.methods {
            assert!(
                ["verified", "inferred", "failed", "error"].contains(&m.status.as_str()),
                "{}.{}: {}",
                m.class,
                m.name,
                m.status
            );
            assert!(
                m.status == "inferred" || m.status == "verified" || m.reason.is_some(),
                "{}.{}: no reason for {}",
                m.class,
                m.name,
                m.status
            );
            *verdicts.entry(m.status.to_string()).or_insert(0) += 1;
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    println!("{verdicts:?} in {:.1} s", started.elapsed().as_secs_f64());
    let total: usize = verdicts.values().sum();
    assert!(total >= 100, "only {total} methods checked");
    assert!(verdicts.get("inferred").copied().unwrap_or(0) >= 10, "{verdicts:?}");
}
