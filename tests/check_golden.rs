//! `jresa check` on `tests/data/check/*.java`, compiled with `javac -g` against the `jresa.spec`
//! sources at test time: golden text and JSON reports and diagnostics (`X.txt`, `X.json`,
//! `X.diagnostics`; `UPDATE_EXPECT=1` rewrites them), the verdict every annotated method must
//! get, the paper's `IntList.concat` results, and the command line's exit codes.

use crate::analyze_support as support;
use crate::check_support;
use jresa::check::{check, CheckReport, MethodCheck};
use jresa::classfile::ClassPath;
use jresa::report;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn fixtures() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(check_support::data_dir())
        .expect("tests/data/check exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    sources
}

struct Checked {
    source: PathBuf,
    report: CheckReport,
}

fn checked() -> &'static [Checked] {
    static CHECKED: OnceLock<Vec<Checked>> = OnceLock::new();
    CHECKED.get_or_init(|| {
        let classpath = ClassPath::default_jdk().ok();
        fixtures()
            .into_iter()
            .map(|source| {
                let classes = check_support::compile_against_specs("check-golden", &source);
                let report = check(&classes, classpath.as_ref(), &|_, _| true);
                Checked { source, report }
            })
            .collect()
    })
}

fn method<'a>(class: &str, name: &str) -> &'a MethodCheck {
    checked()
        .iter()
        .flat_map(|c| &c.report.methods)
        .find(|m| m.class == class && m.name == name)
        .unwrap_or_else(|| panic!("{class}.{name} is not in any report"))
}

fn values(m: &MethodCheck) -> Vec<(&str, &str)> {
    m.resource_variables
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

/// Compares `actual` with the expected file (absent when `actual` is empty), or rewrites it under
/// `UPDATE_EXPECT=1`.
fn compare(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        if actual.is_empty() {
            let _ = std::fs::remove_file(path);
        } else {
            std::fs::write(path, actual).expect("write the expected file");
        }
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        failures.push(format!(
            "{} differs (UPDATE_EXPECT=1 rewrites it):\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        ));
    }
}

#[test]
fn reports_and_diagnostics_match_the_golden_files() {
    let mut failures = Vec::new();
    for fixture in checked() {
        let base = fixture.source.with_extension("");
        compare(
            &base.with_extension("txt"),
            &report::check_text(&fixture.report),
            &mut failures,
        );
        compare(
            &base.with_extension("json"),
            &report::json(&fixture.report),
            &mut failures,
        );
        compare(
            &base.with_extension("diagnostics"),
            &report::check_diagnostics(&fixture.report),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The verdict of every annotated method, and a phrase its reason must contain.
const EXPECTED: &[(&str, &str, &str, &str)] = &[
    ("IntList", "concat", "verified", ""),
    (
        "IntList",
        "concatShort",
        "failed",
        "LP is infeasible: cannot provide the 1 unit Resource.consume() needs",
    ),
    ("IntList", "concatGeneric", "inferred", ""),
    ("IntList", "concatKeep", "inferred", ""),
    ("IntList", "concatInferred", "inferred", ""),
    ("IntList", "concatTight", "verified", ""),
    ("Lists", "length", "verified", ""),
    ("Lists", "sum", "inferred", ""),
    ("Lists", "reverse", "verified", ""),
    ("Lists", "reverseKeeping", "inferred", ""),
    ("Lists", "delete", "inferred", ""),
    ("Lists", "insert", "inferred", ""),
    ("Lists", "append", "inferred", ""),
    ("Lists", "lengthPlusOne", "inferred", ""),
    ("Lists", "equal", "inferred", ""),
    ("Lists", "merge", "inferred", ""),
    ("Lists", "walkTwice", "verified", ""),
    ("Trees", "size", "verified", ""),
    ("Trees", "sizeInferred", "inferred", ""),
    ("Trees", "insert", "inferred", ""),
    ("Trees", "mirror", "verified", ""),
    ("WrongSpecs", "tooLittle", "failed", "LP is infeasible"),
    (
        "WrongSpecs",
        "concatWithoutQ",
        "failed",
        "cannot show `lseg(0, @ret, null)`",
    ),
    (
        "WrongSpecs",
        "appendToEmpty",
        "failed",
        "cannot read field next of p: it may be null",
    ),
    ("WrongSpecs", "closeCycle", "failed", "runs into a cycle"),
    ("WrongSpecs", "reverseKeeping", "inferred", ""),
    (
        "WrongSpecs",
        "reverseTwice",
        "failed",
        "LP is infeasible: cannot provide the per-cell potential of `lseg(x, @arg list, null)` of the precondition",
    ),
    ("Queue", "enqueue", "verified", ""),
    ("Queue", "dequeue", "verified", ""),
    ("Queue", "enqueueInto", "verified", ""),
    (
        "Queue",
        "enqueueShort",
        "failed",
        "LP is infeasible: cannot provide the constant potential and the potential of the 1 cell folded into `lseg(1, b, null)` of the postcondition (short by 1)",
    ),
    (
        "Queue",
        "dequeueShort",
        "failed",
        "LP is infeasible: cannot provide the 1 unit Resource.consume() needs (short by 1)",
    ),
    ("Queue", "enqueueGeneric", "inferred", ""),
    ("Queue", "dequeueInferred", "verified", ""),
    ("Queue", "enqueueLeaky", "verified", ""),
    ("Stack", "push", "verified", ""),
    ("Stack", "pop", "verified", ""),
    ("Stack", "multipop", "verified", ""),
    (
        "Stack",
        "pushShort",
        "failed",
        "LP is infeasible: cannot provide the constant potential and the potential of the 1 cell folded into `lseg(1, t, null)` of the postcondition (short by 1)",
    ),
    (
        "Stack",
        "multipopShort",
        "failed",
        "LP is infeasible: cannot provide the 1 unit Resource.consume() needs (short by 1)",
    ),
    ("Stack", "multipopInferred", "verified", ""),
    ("CList", "clearInferred", "verified", ""),
    ("CList", "appendAll", "verified", ""),
    ("CList", "add", "verified", ""),
    ("CList", "clear", "verified", ""),
    ("CList", "addAll", "verified", ""),
    (
        "CList",
        "addShort",
        "failed",
        "LP is infeasible: cannot provide the constant potential and the potential of the 1 cell folded into `lseg(1, f, l)` of the postcondition (short by 1)",
    ),
    ("TreeBag", "insertAt", "verified", ""),
    ("TreeBag", "nodes", "verified", ""),
    ("TreeBag", "insert", "verified", ""),
    ("TreeBag", "size", "verified", ""),
    ("TreeBag", "insertInferred", "inferred", ""),
    (
        "TreeBag",
        "insertShort",
        "failed",
        "LP is infeasible: cannot provide the 1 unit Resource.consume() needs (short by 1)",
    ),
    ("TreeBag", "sizeWithPending", "verified", ""),
    ("Malformed", "missingBar", "error", "expected `|`"),
    ("Malformed", "unknownParameter", "error", "no parameter"),
    (
        "Malformed",
        "retInPrecondition",
        "error",
        "`@ret` is only meaningful in @Ensures",
    ),
    ("Malformed", "segmentOverInt", "error", "not a reference"),
    ("Malformed", "wrongFieldType", "error", "is an int, not a ref"),
    ("Malformed", "mismatchedMarker", "error", "no @Invariant(id = 2)"),
    (
        "Malformed$Box",
        "untypedExistential",
        "error",
        "`lseg`: no class of Malformed$Box.untypedExistential()V is a list",
    ),
    ("Malformed", "unknownClass", "error", "no class `Nowhere` is known"),
    ("Malformed", "classNotAList", "error", "`f` is a Malformed$Box, which is not a list"),
    ("Malformed", "badClassName", "error", "or a class name, found `3Cell`"),
    (
        "Malformed",
        "missingFieldOfExistential",
        "error",
        "`f` is a Malformed, which has no instance field `prev`",
    ),
];

#[test]
fn every_annotated_method_gets_its_verdict() {
    let mut failures = Vec::new();
    let mut seen = 0;
    for fixture in checked() {
        for m in &fixture.report.methods {
            seen += 1;
            let Some((_, _, status, phrase)) = EXPECTED.iter().find(|(c, n, _, _)| *c == m.class && *n == m.name)
            else {
                failures.push(format!("{}.{} has no expected verdict", m.class, m.name));
                continue;
            };
            if m.status != *status {
                failures.push(format!(
                    "{}.{}: expected {status}, got {} ({:?})",
                    m.class, m.name, m.status, m.reason
                ));
            }
            if !phrase.is_empty() && !m.reason.as_deref().unwrap_or("").contains(phrase) {
                failures.push(format!(
                    "{}.{}: the reason {:?} lacks `{phrase}`",
                    m.class, m.name, m.reason
                ));
            }
            if matches!(m.status.as_str(), "verified" | "inferred") && m.reason.is_some() {
                failures.push(format!("{}.{}: a reason for a success", m.class, m.name));
            }
        }
    }
    assert_eq!(seen, EXPECTED.len(), "every expected method is reported once");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_papers_concat_example_gives_the_papers_results() {
    assert_eq!(method("IntList", "concat").status, "verified");
    let short = method("IntList", "concatShort");
    assert!(short.reason.as_deref().unwrap_or("").starts_with("LP is infeasible"));
    // The second consume at offset 3 of the method is the first obligation that cannot be met.
    assert_eq!(short.offset, Some(3));
    let generic = method("IntList", "concatGeneric");
    assert_eq!(
        values(generic),
        [
            ("x1", "1"),
            ("x2", "0"),
            ("x3", "2"),
            ("y1", "0"),
            ("y2", "0"),
            ("z1", "0"),
            ("z2", "1"),
            ("z3", "0"),
            ("z4", "0")
        ]
    );
    let keep = method("IntList", "concatKeep");
    assert_eq!(values(keep)[..3], [("x1", "4"), ("x2", "3"), ("x3", "9")]);
    // Beyond RESA: the same values without a written invariant, which is inferred and reported.
    let inferred = method("IntList", "concatInferred");
    assert_eq!(values(inferred)[..5], values(generic)[..5]);
    assert_eq!(inferred.invariants_inferred.len(), 1);
    assert_eq!(inferred.invariants_inferred[0].kind, "invariant");
    // The written invariant needs the data fact `t != null`, which is inferred and reported.
    let facts = &method("IntList", "concat").invariants_inferred;
    assert_eq!(facts.len(), 1);
    assert_eq!(
        (facts[0].kind.as_str(), facts[0].text.as_str()),
        ("facts", "@var t != null")
    );
}

#[test]
fn malformed_annotations_are_diagnosed_in_the_annotation_string() {
    let fixture = checked()
        .iter()
        .find(|c| c.source.ends_with("Malformed.java"))
        .expect("the Malformed fixture");
    let with_spans: Vec<_> = fixture
        .report
        .diagnostics
        .iter()
        .filter(|d| d.text.is_some() && d.span.is_some())
        .collect();
    assert!(with_spans.len() >= 5, "{:#?}", fixture.report.diagnostics);
    for diagnostic in with_spans {
        let (text, span) = (
            diagnostic.text.as_deref().unwrap_or(""),
            diagnostic.span.unwrap_or_default(),
        );
        assert!(span.start <= span.end && span.end <= text.len(), "{diagnostic:?}");
        assert_eq!(diagnostic.source_file.as_deref(), Some("Malformed.java"));
        assert!(diagnostic.method_line.is_some(), "{diagnostic:?}");
    }
    assert_eq!(fixture.report.exit_code(), 2);
}

fn run_cli(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
        .args(args)
        .output()
        .expect("run jresa");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_command_line_compiles_sources_against_the_specs_and_sets_exit_codes() {
    let dir = check_support::data_dir();
    let path = |name: &str| dir.join(name).display().to_string();
    // All verified or inferred: 0.
    let (code, stdout, stderr) = run_cli(&["check", &path("Trees.java"), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON output");
    assert_eq!(json["version"], 1);
    assert_eq!(json["methods"].as_array().map(Vec::len), Some(4));
    // A failing specification: 1; selected with --method, only that one is reported.
    let (code, stdout, _) = run_cli(&["check", &path("IntList.java"), "--method", "IntList.concatShort"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("LP is infeasible"), "{stdout}");
    assert!(!stdout.contains("concatGeneric"), "{stdout}");
    // Malformed annotations: 2, with diagnostics on stderr.
    let (code, _, stderr) = run_cli(&["check", &path("Malformed.java")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("expected `|`"), "{stderr}");
    // A missing input: 2.
    let (code, _, _) = run_cli(&["check", &path("NoSuchFile.class")]);
    assert_eq!(code, 2);
}

#[test]
fn the_specs_subcommand_writes_sources_that_compile() {
    let out = support::scratch("check-golden", "specs-out");
    let (code, stdout, stderr) = run_cli(&["specs", "--out", &out.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Resource.java"), "{stdout}");
    for name in ["Requires", "Ensures", "Invariant", "Invariants", "Resource", "Loop"] {
        assert!(out.join(format!("src/jresa/spec/{name}.java")).is_file(), "{name}.java");
    }
    assert!(out.join("jresa-spec.jar").is_file(), "the jar ({stderr})");
    // A program compiles against the jar.
    let program = out.join("Use.java");
    std::fs::write(
        &program,
        "import jresa.spec.*;\nclass Use { @Requires(\"{ | | 1 }\") static void f() { Resource.consume(); } }\n",
    )
    .expect("write Use.java");
    let status = crate::javac()
        .arg("-cp")
        .arg(out.join("jresa-spec.jar"))
        .arg("-d")
        .arg(&out)
        .arg(&program)
        .status()
        .expect("javac runs");
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&out);
}
