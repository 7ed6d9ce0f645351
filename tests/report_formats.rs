//! Golden tests of the report formats, through the `jresa` binary: `analyze` as SARIF and
//! Markdown, the baseline `ci --update-baseline` writes, and `ci` against that baseline in every
//! format (`tests/data/report/`, see its README). Every SARIF log is validated against the SARIF
//! 2.1.0 schema. Also the exit codes and diagnostics of `ci`: passing and failing runs, each
//! `--fail-on` level, `--method`, and unusable baselines.

use crate::analyze_support as support;
use crate::report_support;
use report_support::{jresa, validate_sarif, Output};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report")
}

/// The classes of `before/` or `after/`, compiled once per test binary.
fn classes(version: &str) -> PathBuf {
    static BEFORE: OnceLock<PathBuf> = OnceLock::new();
    static AFTER: OnceLock<PathBuf> = OnceLock::new();
    let cell = if version == "before" { &BEFORE } else { &AFTER };
    cell.get_or_init(|| {
        let out = support::scratch("report-formats", version);
        support::javac(&[data_dir().join(version).join("Invoices.java")], &out);
        out
    })
    .clone()
}

#[test]
fn analyze_reports_match_their_golden_sarif_and_markdown() {
    let dir = data_dir();
    let mut failures = Vec::new();
    let sarif = jresa(&dir, &["analyze", "after/Invoices.java", "--format", "sarif"]);
    assert_eq!(sarif.code, 0, "{}", sarif.stderr);
    let results = validate_sarif(&sarif.stdout);
    // The two methods without a bound, located in their source file.
    let rules: Vec<(&str, &str)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or_default(),
                r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
                    .as_str()
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            ("jresa/unbounded", "billing.Invoices.sample(I)I"),
            ("jresa/unbounded", "billing.Invoices.settle(II)I")
        ]
    );
    for result in &results {
        let physical = &result["locations"][0]["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], "after/Invoices.java");
        assert!(physical["region"]["startLine"].as_u64().is_some_and(|line| line > 1));
    }
    failures.extend(support::check(&dir.join("analyze.sarif"), &sarif.stdout));
    let markdown = jresa(&dir, &["analyze", "after/Invoices.java", "--format", "markdown"]);
    assert_eq!(markdown.code, 0, "{}", markdown.stderr);
    failures.extend(support::check(&dir.join("analyze.md"), &markdown.stdout));
    // A whole run ends with the summary line on stderr: the counts, the time, the share bounded
    // and the throughput.
    assert!(
        markdown
            .stderr
            .starts_with("11 methods: 9 bounded, 2 unbounded, 0 unknown in ")
            && markdown.stderr.contains(" s (81.8% bounded, ")
            && markdown.stderr.trim_end().ends_with(" methods/s)"),
        "{}",
        markdown.stderr
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn update_baseline_writes_the_golden_baseline() {
    let scratch = support::scratch("report-formats", "update");
    let written = scratch.join("baseline.json");
    let run = jresa(
        &data_dir(),
        &[
            "ci",
            "before/Invoices.java",
            "--baseline",
            written.to_str().expect("UTF-8 path"),
            "--update-baseline",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("updated (10 methods)"), "{}", run.stderr);
    let text = std::fs::read_to_string(&written).expect("the baseline is written");
    if let Some(failure) = support::check(&data_dir().join("baseline.json"), &text) {
        panic!("{failure}");
    }
}

#[test]
fn ci_reports_match_their_golden_files_in_every_format() {
    let dir = data_dir();
    let mut failures = Vec::new();
    for (format, file) in [
        ("text", "ci.txt"),
        ("json", "ci.json"),
        ("sarif", "ci.sarif"),
        ("markdown", "ci.md"),
    ] {
        let run = jresa(
            &dir,
            &[
                "ci",
                "after/Invoices.java",
                "--baseline",
                "baseline.json",
                "--format",
                format,
            ],
        );
        assert_eq!(run.code, 1, "{format}: a regression exits 1\n{}", run.stderr);
        if format == "sarif" {
            let results = validate_sarif(&run.stdout);
            let rules: Vec<&str> = results.iter().filter_map(|r| r["ruleId"].as_str()).collect();
            assert_eq!(
                rules,
                [
                    "jresa/regressed",
                    "jresa/regressed",
                    "jresa/regressed",
                    "jresa/changed",
                    "jresa/unbounded"
                ]
            );
            // Failing changes are errors; a same-class increase does not fail `worse-class`.
            let levels: Vec<&str> = results.iter().filter_map(|r| r["level"].as_str()).collect();
            assert_eq!(levels, ["error", "warning", "error", "error", "error"]);
        }
        failures.extend(support::check(&dir.join(file), &run.stdout));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `ci` verdict lines of a text report: `kind: method` for every changed method.
fn verdicts(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with(' ') && l.contains(": billing."))
        .map(|l| l.split("  [").next().unwrap_or(l).to_owned())
        .collect()
}

/// `jresa ci` on compiled classes against the golden baseline under a `--fail-on` level.
fn ci_at_level(classes: &Path, level: &str) -> Output {
    let baseline = data_dir().join("baseline.json");
    jresa(
        &data_dir(),
        &[
            "ci",
            classes.to_str().expect("UTF-8"),
            "--baseline",
            baseline.to_str().expect("UTF-8"),
            "--fail-on",
            level,
        ],
    )
}

#[test]
fn ci_exit_codes_follow_the_fail_on_levels() {
    // The classes the baseline was made from pass under every level.
    for level in ["unbounded", "worse-class", "any-increase"] {
        let run = ci_at_level(&classes("before"), level);
        assert_eq!(run.code, 0, "{level}:\n{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("10 unchanged\npassed"), "{}", run.stdout);
    }
    // Each level fails on its own changes and those of the levels before it.
    let failing = |level: &str| -> Vec<String> {
        let run = ci_at_level(&classes("after"), level);
        assert_eq!(run.code, 1, "{level}:\n{}{}", run.stdout, run.stderr);
        verdicts(&run.stdout)
            .into_iter()
            .filter(|v| v.contains("(fails)"))
            .collect()
    };
    assert_eq!(
        failing("unbounded"),
        [
            "regressed (fails): billing.Invoices.sample(I)I",
            "new (fails): billing.Invoices.settle(II)I"
        ]
    );
    assert_eq!(
        failing("worse-class"),
        [
            "regressed (fails): billing.Invoices.duplicates([I)I",
            "regressed (fails): billing.Invoices.sample(I)I",
            "changed (fails): billing.Invoices.pages(II)I",
            "new (fails): billing.Invoices.settle(II)I"
        ]
    );
    assert_eq!(
        failing("any-increase"),
        [
            "regressed (fails): billing.Invoices.duplicates([I)I",
            "regressed (fails): billing.Invoices.weighted([I)I",
            "regressed (fails): billing.Invoices.sample(I)I",
            "changed (fails): billing.Invoices.pages(II)I",
            "new (fails): billing.Invoices.settle(II)I"
        ]
    );
}

#[test]
fn ci_with_method_selectors_compares_only_those_methods() {
    let after = classes("after");
    let baseline = data_dir().join("baseline.json");
    let run = jresa(
        &data_dir(),
        &[
            "ci",
            after.to_str().expect("UTF-8"),
            "--baseline",
            baseline.to_str().expect("UTF-8"),
            "--method",
            "Invoices.total",
            "--method",
            "Invoices.lines",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("0 regressed, 0 changed, 0 improved, 0 new, 0 removed, 2 unchanged"),
        "{}",
        run.stdout
    );
    // Not a whole run: no summary line.
    assert_eq!(run.stderr, "");
}

#[test]
fn update_baseline_accepts_the_changes_and_keeps_unselected_methods() {
    let after = classes("after");
    let scratch = support::scratch("report-formats", "accept");
    let copy = scratch.join("baseline.json");
    std::fs::copy(data_dir().join("baseline.json"), &copy).expect("copy the baseline");
    let copy = copy.to_str().expect("UTF-8");
    let after = after.to_str().expect("UTF-8");
    // Accepting one method leaves the others as they were.
    let run = jresa(
        &scratch,
        &[
            "ci",
            after,
            "--baseline",
            copy,
            "--method",
            "duplicates",
            "--update-baseline",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("accepted: 1 method would fail"), "{}", run.stdout);
    let run = jresa(&scratch, &["ci", after, "--baseline", copy]);
    assert_eq!(run.code, 1);
    assert!(!run.stdout.contains("duplicates([I)I  ["), "{}", run.stdout);
    assert!(
        run.stdout.contains("  billing.Invoices.duplicates([I)I: O(|ids|^2)"),
        "{}",
        run.stdout
    );
    // Accepting everything makes the next run pass with every method unchanged.
    let run = jresa(&scratch, &["ci", after, "--baseline", copy, "--update-baseline"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = jresa(
        &scratch,
        &["ci", after, "--baseline", copy, "--fail-on", "any-increase"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("0 removed, 11 unchanged\npassed"), "{}", run.stdout);
}

#[test]
fn unusable_baselines_are_input_errors() {
    let before = classes("before");
    let before = before.to_str().expect("UTF-8");
    let scratch = support::scratch("report-formats", "errors");
    // Missing.
    let run = jresa(&scratch, &["ci", before, "--baseline", "missing.json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("create it with --update-baseline"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("in baseline missing.json"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    // Not JSON.
    std::fs::write(
        scratch.join("broken.json"),
        "{\n  \"version\": 1,\n  \"methods\": [,]\n}\n",
    )
    .expect("write");
    let run = jresa(&scratch, &["ci", before, "--baseline", "broken.json"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("line 3 column"), "{}", run.stderr);
    assert!(run.stderr.contains("in baseline broken.json"), "{}", run.stderr);
    // Another version of the format.
    let baseline = std::fs::read_to_string(data_dir().join("baseline.json")).expect("the baseline");
    std::fs::write(
        scratch.join("v9.json"),
        baseline.replace("\"version\": 1", "\"version\": 9"),
    )
    .expect("write");
    let run = jresa(&scratch, &["ci", before, "--baseline", "v9.json"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("version 9 is not supported"), "{}", run.stderr);
    // Another cost model.
    let run = jresa(
        &scratch,
        &[
            "ci",
            before,
            "--baseline",
            data_dir().join("baseline.json").to_str().expect("UTF-8"),
            "--cost-model",
            "allocations",
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the baseline counts instructions, this run allocations"),
        "{}",
        run.stderr
    );
    // A bound that does not parse: a warning naming the method and the column; compared as text.
    let edited = baseline.replace("\"9 + 6*nat(n)\"", "\"9 + 6*nat(n\"");
    assert_ne!(edited, baseline);
    std::fs::write(scratch.join("edited.json"), edited).expect("write");
    let run = jresa(
        &scratch,
        &["ci", before, "--baseline", "edited.json", "--fail-on", "any-increase"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("baseline bound `9 + 6*nat(n` does not parse")
            && run
                .stderr
                .contains("method billing.Invoices.lines(I)I, at column 12 of the bound"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("changed (fails): billing.Invoices.lines(I)I")
            && run
                .stdout
                .contains("the baseline bound does not parse; compared as text"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_method_whose_class_runs_out_of_time_is_unknown() {
    let after = classes("after");
    // With no time at all, every class stops before its first fixpoint step.
    let run = jresa(
        &data_dir(),
        &[
            "analyze",
            after.to_str().expect("UTF-8"),
            "--method-budget",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    let methods = report["methods"].as_array().expect("methods");
    assert_eq!(methods.len(), 11);
    for m in methods {
        assert_eq!(m["status"], "unknown", "{m}");
        assert_eq!(
            m["reason"],
            "the analysis of billing.Invoices exceeded its time budget of 0.0 s (11 methods)"
        );
    }
    assert!(
        run.stderr
            .starts_with("11 methods: 0 bounded, 0 unbounded, 11 unknown in "),
        "{}",
        run.stderr
    );
    let run = jresa(
        &data_dir(),
        &["analyze", after.to_str().expect("UTF-8"), "--method-budget=-1"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a non-negative number of seconds"),
        "{}",
        run.stderr
    );
}

/// The renderers read only the neutral summary; a summary as a specification checker would fill
/// it (a violation, a method that was not analysed, paths that need escaping, no line) renders to
/// a valid SARIF log and a Markdown table.
#[test]
fn every_status_renders_as_valid_sarif_and_markdown() {
    use jresa::report::summary::{MethodSummary, Status, Summary};
    let method = |name: &str, status: Status, path: Option<&str>, line: Option<u32>| MethodSummary {
        class: "p.Q".into(),
        name: name.into(),
        descriptor: "(I)V".into(),
        source_path: path.map(str::to_owned),
        line,
        status,
        bound: (status == Status::Bounded).then(|| "9 + 9*nat(|a|)".to_owned()),
        complexity: (status == Status::Bounded).then(|| "O(|a|)".to_owned()),
        message: (status != Status::Bounded).then(|| format!("why {name} | is {}", status.name())),
        change: None,
        terminates: None,
        loops: Vec::new(),
        measured: None,
        witness: None,
    };
    let summary = Summary {
        command: "check".into(),
        cost_model: "instructions".into(),
        note: Some("2 specifications violated".into()),
        methods: vec![
            method("ok", Status::Bounded, Some("src/p/Q.java"), Some(3)),
            method("spec", Status::Violated, Some("src/my dir/Q.java"), Some(7)),
            method("lifted", Status::Error, Some("/abs/ü/Q.java"), None),
            method("loop", Status::Unbounded, None, None),
            method("call", Status::Unknown, Some("Q.java"), Some(1)),
            method("corrupt", Status::Unknown, Some("Q.java"), Some(0)),
        ],
    };
    let results = validate_sarif(&jresa::report::sarif::sarif(&summary));
    let found: Vec<(&str, &str, Option<&str>)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or_default(),
                r["level"].as_str().unwrap_or_default(),
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("jresa/violated", "error", Some("src/my%20dir/Q.java")),
            ("jresa/unknown", "note", Some("file:///abs/%C3%BC/Q.java")),
            ("jresa/unbounded", "warning", None),
            ("jresa/unknown", "note", Some("Q.java")),
            ("jresa/unknown", "note", Some("Q.java")),
        ]
    );
    // Line 0 (a corrupt line table) is no line.
    assert!(results[4]["locations"][0]["physicalLocation"].get("region").is_none());
    assert_eq!(
        results[0]["message"]["text"],
        "p.Q.spec(I)V violates its cost bound: why spec | is violated."
    );
    assert!(results[1]["locations"][0]["physicalLocation"].get("region").is_none());
    let markdown = jresa::report::markdown::markdown(&summary);
    assert!(
        markdown.starts_with("### jresa check: 1 of 6 methods bounded\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| `p.Q.spec(I)V` | violated |  | why spec \\| is violated |"),
        "{markdown}"
    );
    assert!(markdown.contains("1 not analysed, 1 violated"), "{markdown}");
}

/// Whole jars make long tables: Markdown keeps the first `MAX_ROWS` rows and counts the rest.
#[test]
fn long_markdown_tables_are_cut() {
    use jresa::report::markdown::{markdown, MAX_ROWS};
    use jresa::report::summary::{MethodSummary, Status, Summary};
    let methods = (0..MAX_ROWS + 7)
        .map(|k| MethodSummary {
            class: "p.Q".into(),
            name: format!("m{k}"),
            descriptor: "()V".into(),
            source_path: None,
            line: None,
            status: Status::Bounded,
            bound: Some("4".into()),
            complexity: Some("O(1)".into()),
            message: None,
            change: None,
            terminates: Some(true),
            loops: Vec::new(),
            measured: None,
            witness: None,
        })
        .collect();
    let summary = Summary {
        command: "analyze".into(),
        cost_model: "instructions".into(),
        note: None,
        methods,
    };
    let text = markdown(&summary);
    assert_eq!(text.lines().filter(|l| l.starts_with("| `p.Q.m")).count(), MAX_ROWS);
    assert!(
        text.ends_with("\n… and 7 more methods (see the JSON report).\n"),
        "{text}"
    );
}

/// Class inputs are located under `--source-root` by their package path.
#[test]
fn sarif_locates_class_inputs_under_the_source_root() {
    let run = jresa(
        &data_dir(),
        &[
            "analyze",
            classes("after").to_str().expect("UTF-8"),
            "--format",
            "sarif",
            "--source-root",
            "src/main/java",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let results = validate_sarif(&run.stdout);
    assert_eq!(results.len(), 2);
    for result in results {
        assert_eq!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "src/main/java/billing/Invoices.java"
        );
    }
}
