//! Non-termination on `tests/data/nontermination/*.java`. Every method there carries
//! `// expect: no  witness: <args>` (it does not terminate on that input: the loop runs forever,
//! or the recursion never reaches its base case) or `// expect: yes` (a trap: it looks endless but
//! ends on every input, through wrapping, an exception or a rare exit). Both were checked on the
//! JVM when the fixtures were written.
//!
//! `jresa analyze` runs on each fixture as a user runs it, and:
//! - a trap never gets `terminates: false`, and a non-terminating method never gets `true`;
//! - at least two thirds of the non-terminating methods get `false` with a witness;
//! - the replay command of every witness shows the method's state repeating or still running;
//! - the verdicts equal `verdicts.txt` (`UPDATE_EXPECT=1` rewrites it).

use crate::analyze_support as support;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nontermination")
}

/// What a fixture says of a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    Endless,
    Ends,
}

/// The `// expect:` lines of a fixture and the method declared after each.
fn truths(source: &Path) -> Vec<(String, Truth)> {
    let text = std::fs::read_to_string(source).expect("read the fixture");
    let mut out = Vec::new();
    let mut pending = None;
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("// expect:") {
            let truth = match rest.split_whitespace().next() {
                Some("no") => Truth::Endless,
                Some("yes") => Truth::Ends,
                _ => panic!("{}:{}: malformed expectation", source.display(), k + 1),
            };
            pending = Some(truth);
            continue;
        }
        if line.is_empty() || line.starts_with("//") || line.starts_with('@') {
            continue;
        }
        if let Some(truth) = pending.take() {
            let open = line
                .find('(')
                .unwrap_or_else(|| panic!("{}:{}: expected a method", source.display(), k + 1));
            let name = line[..open]
                .split_whitespace()
                .last()
                .expect("a method name")
                .to_owned();
            out.push((name, truth));
        }
    }
    out
}

/// The fixture sources, sorted.
fn sources() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("the fixtures exist")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    sources
}

/// The JSON report of `jresa analyze` on the classes compiled from every fixture.
fn analysed() -> (PathBuf, serde_json::Value) {
    let out = support::scratch("nontermination", "classes");
    support::javac(&sources(), &out);
    let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
        .arg("analyze")
        .arg(&out)
        .args(["--format", "json", "-q"])
        .output()
        .expect("jresa runs");
    let report = serde_json::from_slice(&output.stdout).expect("a JSON report");
    (out, report)
}

#[test]
fn verdicts_are_sound_and_witnesses_replay() {
    let (classes, report) = analysed();
    let methods = report["methods"].as_array().expect("methods");
    let mut verdicts = BTreeMap::new();
    let mut problems = Vec::new();
    let (mut endless, mut proven) = (0, 0);
    for source in &sources() {
        let class = support::stem(source);
        for (name, truth) in truths(source) {
            let found: Vec<&serde_json::Value> = methods
                .iter()
                .filter(|m| m["class"] == class.as_str() && m["name"] == name.as_str())
                .collect();
            assert_eq!(
                found.len(),
                1,
                "{class}.{name}: one report expected (fixtures do not overload)"
            );
            let m = found[0];
            let says = m["terminates"].as_bool();
            let verdict = match says {
                Some(false) => {
                    let args: Vec<&str> = m["witness"]["arguments"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                        .unwrap_or_default();
                    format!("no ({})", args.join(", "))
                }
                Some(true) => "yes".to_owned(),
                None => "unknown".to_owned(),
            };
            match (truth, says) {
                (Truth::Ends, Some(false)) => problems.push(format!("{class}.{name} terminates, reported {verdict}")),
                (Truth::Endless, Some(true)) => problems.push(format!("{class}.{name} loops forever, reported yes")),
                _ => {}
            }
            if truth == Truth::Endless {
                endless += 1;
                if says == Some(false) {
                    proven += 1;
                    replay(m, &mut problems);
                }
            }
            verdicts.insert(format!("{class}.{name}"), format!("{truth:?}: {verdict}"));
        }
    }
    let _ = std::fs::remove_dir_all(&classes);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(endless >= 30, "only {endless} non-terminating fixtures");
    assert!(
        proven * 3 >= endless * 2,
        "{proven} of {endless} non-terminating fixtures proven, fewer than two thirds"
    );
    let mut text = format!("# {proven} of {endless} non-terminating methods proven\n");
    for (method, verdict) in &verdicts {
        text.push_str(&format!("{method}: {verdict}\n"));
    }
    if let Some(diff) = support::check(&data_dir().join("verdicts.txt"), &text) {
        panic!("{diff}");
    }
}

/// Runs a witness's replay command (with this build of `jresa`): it must show the method running.
fn replay(m: &serde_json::Value, problems: &mut Vec<String>) {
    let command = m["witness"]["replay"].as_str().unwrap_or_default();
    let Some(rest) = command.strip_prefix("jresa ") else {
        problems.push(format!("{}.{}: no replay command", m["class"], m["name"]));
        return;
    };
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' {rest}", env!("CARGO_BIN_EXE_jresa")))
        .output()
        .expect("sh runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let runs_on = ["its state repeated", "still running after", "call stack overflowed"];
    if !runs_on.iter().any(|shown| text.contains(shown)) {
        problems.push(format!(
            "{}.{}: the replay `{command}` printed `{}` {}",
            m["class"],
            m["name"],
            text.trim(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
}
