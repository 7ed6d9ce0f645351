//! The literature suites, each method with its true answer in an `// expect:` line, as in
//! `tests/data/analyze`:
//! - `tests/data/literature`: Java versions of the classic integer termination and cost-bound
//!   examples;
//! - `tests/data/termcomp`: whole programs in the style of the Java Bytecode category of the
//!   Termination Competition (a `main` reading its inputs through `Random.random()`, lists,
//!   trees, arrays and strings).
//!
//! The analysis is weaker than the truth on many of them; each suite's `scoreboard.txt` records
//! how often it reaches it and, method by method, what it says where it does not. A test fails
//! - whenever the analysis contradicts a truth (a bound or `terminates` for a method that does
//!   not always terminate, `does not terminate` for one that does);
//! - whenever the scoreboard of the methods that terminate changes, better or worse
//!   (`UPDATE_EXPECT=1` rewrites it; witnesses of non-termination, found within a deadline, are
//!   only counted);
//! - whenever a bound it reports is violated on the instances `jresa validate` runs.

use crate::analyze_support as support;
use jresa::analyze::MethodReport;
use jresa::classfile::ClassPath;
use jresa::validate::{validate, ValidateOptions};
use jresa_analyses::cost_model::CostModel;
use std::path::{Path, PathBuf};
use support::{contradiction, meets, verdict, Expectation, Expected};

fn data_dir(suite: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(suite)
}

/// Whether the truth is that the method terminates on every input (within limits, for a
/// conditional class).
fn terminates(expected: &Expected) -> bool {
    matches!(
        expected,
        Expected::Class(_) | Expected::Conditional(_) | Expected::Terminating
    )
}

/// Whether the report proves termination as far as the truth goes.
fn proves_termination(expected: &Expected, m: &MethodReport) -> bool {
    match expected {
        Expected::Conditional(_) => m.terminates == Some(true) || m.status == "bounded",
        _ => m.terminates == Some(true),
    }
}

/// The tallies and disagreements of the scoreboard.
#[derive(Default)]
struct Score {
    methods: usize,
    terminating: usize,
    proved: usize,
    nonterminating: usize,
    refuted: usize,
    classes: usize,
    met: usize,
    lines: Vec<String>,
    failures: Vec<String>,
}

impl Score {
    fn add(&mut self, file: &str, e: &Expectation, m: &MethodReport) {
        self.methods += 1;
        let key = format!("{}.{}", e.class, e.method);
        if let Some(c) = contradiction(&e.expected, m) {
            self.failures.push(format!(
                "{file}:{}: SOUNDNESS: {c}: {key} is expected {}, the analysis says `{}` (bound {:?}, reason {:?})",
                e.line,
                e.expected,
                verdict(m),
                m.upper_bound,
                m.reason
            ));
        }
        if terminates(&e.expected) {
            self.terminating += 1;
            self.proved += usize::from(proves_termination(&e.expected, m));
        } else {
            self.nonterminating += 1;
            self.refuted += usize::from(m.terminates == Some(false));
        }
        if matches!(e.expected, Expected::Class(_) | Expected::Conditional(_)) {
            self.classes += 1;
            self.met += usize::from(meets(&e.expected, m));
        }
        // Witnesses of non-termination come from a search with a deadline, which a loaded
        // machine may reach first: they are counted, but the scoreboard does not record them.
        // A method expected only to terminate falls short where termination is not proved.
        let reached = match e.expected {
            Expected::Terminating => proves_termination(&e.expected, m),
            _ => meets(&e.expected, m),
        };
        if !reached && terminates(&e.expected) {
            let reason: String = m.reason.as_ref().map_or("", |r| r.as_str()).chars().take(160).collect();
            self.lines.push(format!(
                "{key}\texpected {}\treported {}\t{reason}",
                e.expected,
                verdict(m)
            ));
        }
    }

    /// The scoreboard: the tallies and shortfalls on the methods that terminate.
    fn text(&self) -> String {
        let mut out = format!(
            "# methods {} ({} that terminate)\n# terminating: proved {} of {}\n# classes: met {} of {}\n# where the analysis falls short (method, truth, report, reason):\n",
            self.methods, self.terminating, self.proved, self.terminating, self.met, self.classes
        );
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

#[test]
fn literature_scoreboard_holds_and_no_truth_is_contradicted() {
    score_suite("literature", 120);
}

#[test]
fn termination_competition_scoreboard_holds_and_no_truth_is_contradicted() {
    score_suite("termcomp", 100);
}

/// Scores one suite: all its fixtures compiled together (their class names differ) and analysed
/// in one run, then validated.
fn score_suite(suite: &str, at_least: usize) {
    let dir = data_dir(suite);
    let sources = support::fixtures_in(&dir);
    let out = support::scratch("literature", suite);
    support::javac(&sources, &out);
    let loaded = jresa::classfile::read_inputs(std::slice::from_ref(&out));
    assert!(
        loaded.errors.is_empty(),
        "reading the fixtures' classes: {:?}",
        loaded.errors
    );
    let _ = std::fs::remove_dir_all(&out);
    let report = support::analyze_all(&loaded.classes);
    let mut score = Score::default();
    for source in &sources {
        let file = source.file_name().and_then(|s| s.to_str()).unwrap_or("?").to_owned();
        for e in &support::expectations(source) {
            match support::find(&report, &e.class, &e.method) {
                Some(m) => score.add(&file, e, m),
                None => score.failures.push(format!(
                    "{file}:{}: {}.{} is not in the report",
                    e.line, e.class, e.method
                )),
            }
        }
    }
    let options = ValidateOptions::new(CostModel::Instructions, 3, 2_000);
    let validation = validate(&loaded.classes, ClassPath::default_jdk().ok(), &report, &options)
        .unwrap_or_else(|e| panic!("validating the {suite} suite: {e}"));
    for m in validation.methods.iter().filter(|m| m.violations > 0) {
        score.failures.push(format!(
            "{}.{}: {} violations of its bound",
            m.class, m.name, m.violations
        ));
    }
    println!(
        "{}# nonterminating: witnessed {} of {}",
        score.text(),
        score.refuted,
        score.nonterminating
    );
    assert!(
        score.methods >= at_least,
        "only {} methods in the {suite} suite",
        score.methods
    );
    score
        .failures
        .extend(support::check(&dir.join("scoreboard.txt"), &score.text()));
    assert!(
        score.failures.is_empty(),
        "{} failures:\n{}",
        score.failures.len(),
        score.failures.join("\n")
    );
}
