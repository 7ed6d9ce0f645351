//! `jresa analyze` against hand-written expectations: every method of `tests/data/analyze/*.java`
//! carries one `// expect: O(...)`, `// expect: unbounded` or `// expect: nonterminating` line, and
//! the analysis (instructions model, the JDK on the class path) must report that class, or no bound
//! (and `terminates: false` for `nonterminating`). Where the analysis disagrees today, the
//! disagreement is listed in `KNOWN` with what the analysis says, asserted exactly, so that the test
//! fails both when a new disagreement appears and when a known one changes (fixed or not).
//!
//! Also golden reports: the text and JSON reports of each fixture must equal
//! `tests/data/analyze/<File>.txt` and `<File>.json` (`UPDATE_EXPECT=1` rewrites them).

use crate::analyze_support as support;
use jresa::analyze::AnalysisReport;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::OnceLock;
use support::{contradiction, meets, verdict, Expectation, Expected};

/// Methods where the analysis disagrees with the fixture's expectation today, with what it says:
/// the complexity of its bound when it reports one, else `nonterminating` (no bound and
/// `terminates: false`) or its status (`unbounded`, `unknown`, `error`).
const KNOWN: &[(&str, &str)] = &[
    // Its two children are read in different blocks (`t.left` first, `t.right` only where the
    // left is null, then each again before its call), so no rule relates them: the node count
    // of the two calls is not known to add up, and the call tree is costed by its depth.
    ("Trees$Node.leaves", "O(2^|t|)"),
    // Its loop runs forever only on a DAG whose paths outnumber the `int`s, which no search of
    // small inputs builds: unknown, never `terminates`.
    ("Trees$Node.countThenSpin", "unknown"),
];

/// The compiled and analysed fixtures, shared by the tests of this file.
struct Analysed {
    source: PathBuf,
    expectations: Vec<Expectation>,
    report: AnalysisReport,
}

fn analysed() -> &'static [Analysed] {
    static ANALYSED: OnceLock<Vec<Analysed>> = OnceLock::new();
    ANALYSED.get_or_init(|| {
        support::fixtures()
            .into_iter()
            .map(|source| {
                let out = support::scratch("analyze-expectations", &support::stem(&source));
                let classes = support::compile_fixture(&source, &out);
                let _ = std::fs::remove_dir_all(&out);
                let report = support::analyze_all(&classes);
                Analysed {
                    expectations: support::expectations(&source),
                    source,
                    report,
                }
            })
            .collect()
    })
}

#[test]
fn every_method_meets_its_expectation_or_is_a_known_discrepancy() {
    let known: BTreeMap<&str, &str> = KNOWN.iter().copied().collect();
    assert_eq!(known.len(), KNOWN.len(), "a method is listed twice in KNOWN");
    let mut seen_known = BTreeSet::new();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut total = 0;
    let mut nonterminating = 0;
    for fixture in analysed() {
        let file = fixture.source.file_name().and_then(|s| s.to_str()).unwrap_or("?");
        // Every reported method has an expectation, except the constructors, lambda bodies and
        // static initialisers (of `$assertionsDisabled`) javac adds.
        for m in &fixture.report.methods {
            let declared = fixture
                .expectations
                .iter()
                .any(|e| e.class == m.class && e.method == m.name);
            let generated =
                m.name == "<init>" && m.descriptor == "()V" || m.name == "<clinit>" || m.name.starts_with("lambda$");
            if !(declared || generated) {
                failures.push(format!(
                    "{file}: {}.{}{} has no `// expect:` line",
                    m.class, m.name, m.descriptor
                ));
            }
        }
        for e in &fixture.expectations {
            total += 1;
            if matches!(
                e.expected,
                Expected::Unbounded | Expected::Nonterminating | Expected::Terminating
            ) {
                nonterminating += 1;
            }
            let key = format!("{}.{}", e.class, e.method);
            let Some(m) = support::find(&fixture.report, &e.class, &e.method) else {
                failures.push(format!("{file}:{}: {key} is not in the report", e.line));
                continue;
            };
            let says = verdict(m);
            table.push(format!(
                "{key:<40} expected {:<14} reported {says}",
                e.expected.to_string()
            ));
            // Whatever else holds, a bound always comes with a class, an expression and
            // `terminates: true` (when the bound holds within a precondition only, the inputs
            // outside it may not terminate: any verdict, `false` with its witness), and no bound
            // comes with `terminates: true` only when the cost is unknown (every loop ranked, its
            // cost not bounded by the inputs), never unbounded.
            if m.status == "bounded" {
                let termination_ok = if m.precondition.is_some() {
                    (m.terminates == Some(false)) == m.witness.is_some()
                } else {
                    m.terminates == Some(true)
                };
                if m.bound.is_none() || m.upper_bound.is_none() || m.complexity.is_none() || !termination_ok {
                    failures.push(format!("{key}: an incomplete bounded report: {m:?}"));
                }
            } else if (m.terminates == Some(true) && m.status != "unknown") || m.bound.is_some() || m.reason.is_none() {
                failures.push(format!("{key}: status {} with {m:?}", m.status));
            }
            match known.get(key.as_str()) {
                Some(recorded) => {
                    seen_known.insert(key.clone());
                    if meets(&e.expected, m) {
                        failures.push(format!(
                            "{file}:{}: {key} now meets its expectation {}: remove it from KNOWN",
                            e.line, e.expected
                        ));
                    } else if says != *recorded {
                        failures.push(format!(
                            "{file}:{}: {key}: KNOWN records `{recorded}` but the analysis now says `{says}` (expected {}; bound {:?}, reason {:?})",
                            e.line, e.expected, m.upper_bound, m.reason
                        ));
                    }
                }
                None => {
                    if !meets(&e.expected, m) {
                        let soundness =
                            contradiction(&e.expected, m).map_or(String::new(), |c| format!("SOUNDNESS: {c}; "));
                        failures.push(format!(
                            "{file}:{}: {soundness}{key}: expected {}, the analysis says `{says}` (bound {:?}, reason {:?})",
                            e.line, e.expected, m.upper_bound, m.reason
                        ));
                    }
                }
            }
        }
    }
    for (key, _) in KNOWN {
        if !seen_known.contains(*key) {
            failures.push(format!("KNOWN lists {key}, which no fixture declares"));
        }
    }
    println!("{}", table.join("\n"));
    assert!(total >= 50, "only {total} methods with expectations");
    assert!(
        nonterminating >= 5,
        "only {nonterminating} methods without a bound expected"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn reports_match_their_golden_text_and_json() {
    let mut failures = Vec::new();
    for fixture in analysed() {
        let text = jresa::report::analysis_text(&fixture.report);
        let json = jresa::report::json(&fixture.report);
        // The JSON report reads back as the same methods, in the same order, with the same fields.
        let value: serde_json::Value = serde_json::from_str(&json).expect("the JSON report parses");
        let methods = value["methods"].as_array().expect("a methods array");
        assert_eq!(methods.len(), fixture.report.methods.len());
        for (m, j) in fixture.report.methods.iter().zip(methods) {
            assert_eq!(j["name"], m.name.as_str());
            assert_eq!(j["status"], m.status.as_str());
            assert_eq!(j["upper_bound"].as_str(), m.upper_bound.as_deref());
            assert_eq!(j["complexity"].as_str(), m.complexity.as_deref());
            assert_eq!(j["terminates"].as_bool(), m.terminates);
        }
        assert_eq!(value["cost_model"], "instructions");
        failures.extend(support::check(&fixture.source.with_extension("txt"), &text));
        failures.extend(support::check(&fixture.source.with_extension("json"), &json));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
