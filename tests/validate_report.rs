//! Tests of `jresa validate`: golden text and JSON reports of the data-structure fixtures of
//! `tests/data/validate/` (Korat structures through `repOK`), the allocations-model regression
//! fixture, sequence exploration with both state matchings, both exploration strategies, the
//! backends, plots, SARIF and Markdown; and, through the library, a deliberately wrong bound that
//! must be caught as a violation and replayed from its instance number.

use crate::analyze_support;
use crate::report_support;
use jresa::analyze::analyze;
use jresa::classfile::ClassPath;
use jresa::validate::{validate_bounds, BoundToCheck, ValidateOptions, ValidationStatus};
use jresa_analyses::bounds::expr::CostExpr;
use jresa_analyses::cost_model::CostModel;
use jresa_gpu_validate::check::BoundForm;
use num_bigint::BigInt;
use num_rational::BigRational;
use report_support::{jresa, validate_sarif};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn data_dir() -> PathBuf {
    root().join("tests/data/validate")
}

/// Runs `jresa validate` from the repository root (so replay commands name relative paths).
fn validate_cli(args: &[&str]) -> report_support::Output {
    let mut all = vec!["validate", "--quiet"];
    all.extend_from_slice(args);
    jresa(root(), &all)
}

fn check_golden(name: &str, actual: &str) {
    if let Some(problem) = analyze_support::check(&data_dir().join(name), actual) {
        panic!("{problem}");
    }
}

#[test]
fn data_structure_reports_match_their_golden_files() {
    let fixture = "tests/data/validate/SortedList.java";
    let text = validate_cli(&[fixture, "--max-size", "3"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    check_golden("SortedList.txt", &text.stdout);
    let json = validate_cli(&[fixture, "--max-size", "3", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    check_golden("SortedList.json", &json.stdout);
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(parsed["version"], 1);
    for method in parsed["methods"].as_array().expect("methods") {
        for key in [
            "class",
            "name",
            "descriptor",
            "instances",
            "violations",
            "max_ratio",
            "median_ratio",
        ] {
            assert!(method.get(key).is_some(), "{key} missing in {method}");
        }
    }
    // Korat found the sorted lists of up to 3 cells through `repOK`: `add` ran on all of them.
    let add = parsed["methods"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == "add"))
        .expect("add");
    assert!(add["checked"].as_u64().unwrap_or(0) > 20, "{add}");
    assert_eq!(add["status"], "confirmed");
}

#[test]
fn implicit_exceptions_are_counted_as_allocations() {
    let output = validate_cli(&[
        "tests/data/validate/ImplicitAllocations.java",
        "--cost-model",
        "allocations",
        "--max-size",
        "3",
    ]);
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    check_golden("ImplicitAllocations.txt", &output.stdout);
    assert!(output.stdout.contains("0 violations"));
}

#[test]
fn sequences_check_every_call_and_shape_matching_keeps_fewer_states() {
    let run = |matching: &str| {
        let output = validate_cli(&[
            "tests/data/validate/SortedList.java",
            "--sequences",
            "add,remove,contains",
            "--max-len",
            "4",
            "--values",
            "3",
            "--matching",
            matching,
            "--format",
            "json",
        ]);
        assert_eq!(output.code, 0, "{}", output.stderr);
        serde_json::from_str::<serde_json::Value>(&output.stdout).expect("JSON")
    };
    let complete = run("complete");
    let shape = run("shape");
    let states = |v: &serde_json::Value| v["sequences"]["states"].as_u64().unwrap_or(0);
    let calls = |v: &serde_json::Value| v["sequences"]["calls"].as_u64().unwrap_or(0);
    assert!(states(&complete) > 10, "{}", complete["sequences"]);
    assert!(states(&shape) < states(&complete));
    assert!(calls(&shape) < calls(&complete));
    let methods = complete["methods"].as_array().expect("methods");
    assert_eq!(methods.len(), 3);
    let checked: u64 = methods.iter().map(|m| m["checked"].as_u64().unwrap_or(0)).sum();
    assert_eq!(checked, calls(&complete), "every call is checked");
    assert!(methods
        .iter()
        .all(|m| m["violations"] == 0 && m["status"] == "confirmed"));
    // A call replays alone from its number.
    let output = validate_cli(&[
        "tests/data/validate/SortedList.java",
        "--sequences",
        "add,remove,contains",
        "--max-len",
        "4",
        "--values",
        "3",
        "--instance",
        "7",
    ]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(output.stdout.matches("replayed:").count(), 1, "{}", output.stdout);
}

#[test]
fn both_strategies_number_the_same_instances() {
    let run = |strategy: &str| {
        let output = validate_cli(&[
            "tests/data/analyze/Chain.java",
            "--max-size",
            "3",
            "--strategy",
            strategy,
            "--format",
            "json",
        ]);
        assert_eq!(output.code, 0, "{}", output.stderr);
        let mut value: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
        value["strategy"] = serde_json::Value::Null;
        value
    };
    assert_eq!(run("index"), run("worklist"));
}

#[test]
fn every_backend_gives_the_same_report_and_cuda_without_a_device_is_an_input_error() {
    let validate = |backend: &str| {
        let args = [
            "validate",
            "tests/data/analyze/Chain.java",
            "--max-size",
            "3",
            "--format",
            "json",
            "--backend",
            backend,
        ];
        let output = jresa(root(), &args);
        assert_eq!(output.code, 0, "{backend}: {}", output.stderr);
        assert!(output.stderr.contains("instances ran on"), "{}", output.stderr);
        let mut value: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
        value["backend"] = serde_json::Value::Null;
        value
    };
    let cpu = validate("cpu");
    assert_eq!(
        cpu,
        validate("host-kernel"),
        "the host-compiled kernel's report differs"
    );
    match jresa_gpu_validate::kernel::cuda::available() {
        Ok(_) => assert_eq!(cpu, validate("cuda"), "the CUDA backend's report differs"),
        Err(_) => {
            let output = jresa(
                root(),
                &["validate", "tests/data/analyze/Chain.java", "--backend", "cuda"],
            );
            assert_eq!(output.code, 2);
            assert!(
                output.stderr.contains("the CUDA backend cannot run"),
                "{}",
                output.stderr
            );
            let output = jresa(
                root(),
                &[
                    "validate",
                    "tests/data/analyze/Chain.java",
                    "--max-size",
                    "2",
                    "--method",
                    "Chain.length",
                ],
            );
            assert_eq!(output.code, 0, "{}", output.stderr);
            assert!(output.stderr.contains("CPU backend"), "{}", output.stderr);
        }
    }
}

#[test]
fn plots_sarif_and_markdown_cover_every_validated_method() {
    let dir = analyze_support::scratch("validate-report", "plots");
    let plots = dir.display().to_string();
    let args = [
        "tests/data/analyze/Chain.java",
        "--max-size",
        "3",
        "--plot",
        plots.as_str(),
    ];
    let output = validate_cli(&args);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let svg = std::fs::read_to_string(dir.join("Chain.length__I.svg")).expect("a plot of Chain.length");
    assert!(
        svg.starts_with("<svg") && svg.contains("largest measured cost"),
        "{svg}"
    );
    let written = std::fs::read_dir(&dir).expect("the plot directory").count();
    assert_eq!(written, 20, "one plot per method of Chain");
    let sarif = validate_cli(&["tests/data/analyze/Chain.java", "--max-size", "3", "--format", "sarif"]);
    assert_eq!(sarif.code, 0);
    // Confirmed bounds are not findings; the methods that may close a cycle have no bound to
    // validate, which is a note.
    let findings = validate_sarif(&sarif.stdout);
    let unvalidated: Vec<&str> = findings
        .iter()
        .filter(|r| r["ruleId"] == "jresa/unknown" && r["level"] == "note")
        .filter_map(|r| r["message"]["text"].as_str())
        .collect();
    assert_eq!(unvalidated.len(), findings.len(), "{findings:?}");
    for method in ["appendAndCount", "reverseIntoCycle", "linkedThroughACall"] {
        assert!(unvalidated.iter().any(|t| t.contains(method)), "{findings:?}");
    }
    let markdown = validate_cli(&[
        "tests/data/analyze/Chain.java",
        "--max-size",
        "3",
        "--format",
        "markdown",
    ]);
    assert!(markdown.stdout.starts_with("### jresa validate"), "{}", markdown.stdout);
    assert!(markdown.stdout.contains("0 violations in"), "{}", markdown.stdout);
}

/// A wrong bound injected through the library: a quarter of `SortedList.sum`'s bound.
#[test]
fn a_scaled_down_bound_is_caught_and_its_violation_replays() {
    let dir = analyze_support::scratch("validate-report", "wrong-bound");
    let classes = analyze_support::compile_fixture(&data_dir().join("SortedList.java"), &dir);
    let classpath = ClassPath::default_jdk().ok();
    let report = analyze(&classes, classpath.as_ref(), CostModel::Instructions, &|c, m| {
        c.name == "SortedList" && m.name == "sum"
    });
    let method = &report.methods[0];
    let honest = BoundToCheck::of_report(method);
    let mut wrong = honest.clone();
    let mut bound = wrong.bound.clone().expect("sum has a bound");
    let quarter = CostExpr::Const(BigRational::new(BigInt::from(1), BigInt::from(4)));
    let BoundForm::Closed(expr) = bound.form else {
        panic!("the analysis gives closed forms")
    };
    bound.form = BoundForm::Closed(CostExpr::mul([quarter, expr]));
    wrong.bound_text = Some(bound.form.to_string());
    wrong.bound = Some(bound);
    let mut options = ValidateOptions::new(CostModel::Instructions, 4, 5000);
    options.replay_prefix = "jresa validate tests/data/validate/SortedList.java".into();
    let validation = validate_bounds(
        &classes,
        ClassPath::default_jdk().ok(),
        &[honest.clone(), wrong.clone()],
        &options,
    )
    .expect("validation runs");
    let (kept, caught) = (&validation.methods[0], &validation.methods[1]);
    assert_eq!(kept.status, ValidationStatus::Confirmed, "{kept:?}");
    assert_eq!(kept.violations, 0);
    assert_eq!(caught.status, ValidationStatus::Violated, "{caught:?}");
    assert!(caught.violations > 0 && caught.violations <= caught.checked);
    assert_eq!(caught.checked, kept.checked, "both bounds judged the same instances");
    let first = &caught.violating_instances[0];
    assert!(
        first.replay.ends_with(&format!(
            " --max-size {} --instance {}",
            caught.max_size.unwrap_or(0),
            first.number
        )),
        "{}",
        first.replay
    );
    // Replaying the instance alone reproduces it.
    options.max_size = caught.max_size.expect("a scope");
    options.instance = Some(first.number.parse().expect("a number"));
    let replayed = validate_bounds(&classes, ClassPath::default_jdk().ok(), &[wrong], &options).expect("replay runs");
    let again = replayed.methods[0].replayed.as_ref().expect("the replayed instance");
    assert_eq!(again.arguments, first.arguments);
    assert_eq!(again.measured, first.measured);
    assert_eq!(again.verdict, "violation");
    assert_eq!(replayed.methods[0].instances, 1);
    // As SARIF, the violation is an error of the `jresa/violated` rule.
    let summary = jresa::report::summary::of_validation(&validation, &|_, _| None);
    let results = validate_sarif(&jresa::report::sarif::sarif(&summary));
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "jresa/violated");
    assert!(jresa::report::markdown::markdown(&summary).contains("1 violated"));
}

/// Bounds in the fields of a parameter's object at entry (`this.left`, `c.left`) are evaluated on
/// each instance's objects, and every instance is judged: none is left inconclusive for want of a
/// value.
#[test]
fn bounds_in_fields_at_entry_are_confirmed_on_generated_objects() {
    let output = validate_cli(&[
        "tests/data/analyze/OwnFields.java",
        "--max-size",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let value: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    let methods = value["methods"].as_array().expect("methods");
    let in_fields = ["drain", "drainOther", "skipAll", "countLocal"];
    for name in in_fields {
        let method = methods
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name} is validated"));
        let bound = method["bound"].as_str().expect("a bound");
        assert!(bound.contains(".left") || bound.contains(".size"), "{name}: {bound}");
        assert_eq!(method["status"], "confirmed", "{name}: {method}");
        assert_eq!(method["checked"], method["instances"], "{name}: {method}");
        assert!(method["checked"].as_u64() > Some(1), "{name}: {method}");
    }
}

/// The recursive tree walks, bounded linearly in the tree's size (its nodes, counted once per
/// path), are confirmed on generated trees and DAGs: none of their instances exceeds its bound,
/// and the instances include trees with both children.
#[test]
fn tree_walks_linear_in_their_nodes_are_confirmed_on_generated_trees() {
    let output = validate_cli(&["tests/data/analyze/Trees.java", "--max-size", "4", "--format", "json"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let value: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    let methods = value["methods"].as_array().expect("methods");
    for name in ["size", "height", "mirror", "sumKeys"] {
        let method = methods
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name} is validated"));
        let bound = method["bound"].as_str().expect("a bound");
        assert!(bound.contains("*nat(|t|)") && !bound.contains('^'), "{name}: {bound}");
        assert_eq!(method["status"], "confirmed", "{name}: {method}");
        assert_eq!(method["violations"], 0, "{name}: {method}");
        assert!(method["checked"].as_u64() > Some(20), "{name}: {method}");
    }
}
