//! The amortised bounds of `jresa check` confirmed by execution on call sequences (`jresa validate
//! --sequences ... --bounds check --matching none`): every sequence of calls up to a length, from
//! the constructor's state, must consume at most the potential of its first state plus the
//! constants of its calls' preconditions. Golden reports of the two-list queue (2 units per
//! enqueue, 1 per dequeue) and the stack with multipop (2 per push, nothing per pop), and a
//! specification verified call by call whose amortised claim fails, caught with its sequence and
//! replayed alone.

use crate::analyze_support as support;
use crate::report_support;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `jresa validate --bounds check --matching none --backend cpu` with `args` on a check
/// fixture.
fn validate(fixture: &str, args: &[&str]) -> report_support::Output {
    let mut all = vec![
        "validate",
        "--quiet",
        fixture,
        "--bounds",
        "check",
        "--matching",
        "none",
        "--backend",
        "cpu",
    ];
    all.extend_from_slice(args);
    report_support::jresa(root(), &all)
}

#[test]
fn the_queue_and_the_stack_keep_their_amortised_bounds_on_every_sequence() {
    for (fixture, methods, length, values, golden, sequences) in [
        // enqueue(0), enqueue(1), dequeue(): 3 + 9 + ... + 3^8 sequences.
        (
            "tests/data/check/Queue.java",
            "enqueue,dequeue",
            "8",
            "2",
            "Queue.sequences.txt",
            9840,
        ),
        // push(0), push(1), pop(), multipop(0), multipop(1): 5 + 25 + ... + 5^6 sequences.
        (
            "tests/data/check/Stack.java",
            "push,pop,multipop",
            "6",
            "2",
            "Stack.sequences.txt",
            19530,
        ),
    ] {
        let output = validate(
            fixture,
            &["--sequences", methods, "--max-len", length, "--values", values],
        );
        assert_eq!(output.code, 0, "{}", output.stderr);
        let expected = root().join("tests/data/validate").join(golden);
        if let Some(problem) = support::check(&expected, &output.stdout) {
            panic!("{problem}");
        }
        let line = format!("  sequences: {sequences}, checked {sequences}, violations 0, skipped 0, inconclusive 0");
        assert!(output.stdout.contains(&line), "{}", output.stdout);
        assert!(
            output.stdout.contains("amortised bound on sequences"),
            "{}",
            output.stdout
        );
    }
}

#[test]
fn a_claim_that_holds_call_by_call_but_not_over_sequences_is_caught_and_replays() {
    let fixture = "tests/data/check/Queue.java";
    let args = [
        "--sequences",
        "enqueueLeaky,dequeue",
        "--max-len",
        "3",
        "--values",
        "1",
        "--format",
        "json",
    ];
    let output = validate(fixture, &args);
    assert_eq!(output.code, 1, "a violating sequence fails the run: {}", output.stderr);
    let report: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON report");
    // Each call keeps within its own precondition's potential.
    for method in report["methods"].as_array().expect("methods") {
        assert_eq!(method["status"], "confirmed", "{method}");
        assert_eq!(method["violations"], 0, "{method}");
    }
    let amortised = &report["sequences"]["amortised"];
    assert_eq!(amortised["sequences"], 14, "{amortised}");
    assert_eq!(amortised["checked"], 14, "{amortised}");
    // enqueueLeaky then dequeue moves a cell that carries nothing: 3 units against 1 + 1.
    let first = &amortised["violating"][0];
    assert_eq!(
        first["calls"],
        serde_json::json!(["enqueueLeaky(0)", "dequeue()"]),
        "{amortised}"
    );
    assert_eq!(
        (first["measured"].as_u64(), first["bound"].as_str()),
        (Some(3), Some("2"))
    );
    // The replay command runs the exploration and reports that sequence alone.
    let replay = first["replay"].as_str().expect("a replay command");
    let number = replay.rsplit(' ').next().expect("the call number");
    assert!(
        replay.contains("--matching none") && replay.contains("--instance"),
        "{replay}"
    );
    let mut again: Vec<&str> = args[..6].to_vec();
    again.extend(["--instance", number]);
    let replayed = validate(fixture, &again);
    assert_eq!(replayed.code, 1, "{}", replayed.stderr);
    assert!(
        replayed
            .stdout
            .contains("sequences: 1, checked 1, violations 1, skipped 0, inconclusive 0"),
        "{}",
        replayed.stdout
    );
    assert!(replayed
        .stdout
        .contains("    enqueueLeaky(0), dequeue()\n      measured 3, bound 2"));
}
