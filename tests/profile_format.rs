//! Tests of the agent's CCT file format as jresa reads it, and of the profile's text rendering:
//! `tests/data/profile/sample.cct` is a hand-written agent file whose parse and text rendering are
//! checked exactly (`sample.txt` is the expected text; `UPDATE_EXPECT=1` rewrites it), and malformed
//! files must be refused with the offending line.

use jresa::profile::{parse_cct, read_cct, Cct, MethodId};
use jresa::report::profile_text;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/profile")
        .join(name)
}

/// A node as (parent, method name, call site, invocations, bytecodes, inclusive bytecodes, depth).
type Row = (Option<usize>, Option<String>, Option<u32>, u64, u64, u64, u32);

fn sample() -> Cct {
    let text = std::fs::read_to_string(data("sample.cct")).expect("read sample.cct");
    parse_cct(&text, &[]).expect("sample.cct parses")
}

fn method(class: &str, name: &str, descriptor: &str) -> Option<std::sync::Arc<MethodId>> {
    Some(std::sync::Arc::new(MethodId {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
    }))
}

#[test]
fn the_sample_parses_into_a_canonical_tree() {
    let cct = sample();
    assert_eq!(cct.version, 1);
    assert_eq!(
        (cct.threads, cct.instrumented_classes, cct.instrumented_methods),
        (2, 3, 7)
    );
    assert_eq!(cct.uninstrumented.len(), 1);
    assert_eq!(cct.uninstrumented[0].what, "com/example/Big.huge()V");
    // Depth first, heaviest child first: main (20 + 8 + 30 + 12 = 70) before Thread.run (4 + 9),
    // and below main, heavy (42) before light (8) although the file lists light first.
    let summary: Vec<Row> = cct
        .nodes
        .iter()
        .map(|n| {
            (
                n.parent,
                n.method.as_ref().map(|m| m.name.clone()),
                n.call_site,
                n.invocations,
                n.bytecodes,
                n.inclusive_bytecodes,
                n.depth,
            )
        })
        .collect();
    let name = |s: &str| Some(s.to_owned());
    assert_eq!(
        summary,
        vec![
            (None, None, None, 0, 0, 83, 0),
            (Some(0), name("main"), None, 1, 20, 70, 1),
            (Some(1), name("heavy"), Some(9), 1, 30, 42, 2),
            (Some(2), name("heavy"), Some(5), 1, 12, 12, 3),
            (Some(1), name("light"), Some(3), 2, 8, 8, 2),
            (Some(0), name("run"), None, 1, 4, 13, 1),
            (Some(5), name("m"), Some(2), 3, 9, 9, 2),
        ]
    );
    assert_eq!(cct.nodes[0].children, vec![1, 5]);
    assert_eq!(cct.nodes[1].children, vec![2, 4]);
    assert_eq!(cct.nodes[1].inclusive_invocations, 1 + 1 + 1 + 2);
    // Escaped tab and backslash in a class name.
    assert_eq!(cct.nodes[6].method, method("weird\tname/With\\Escapes", "m", "()V"));
    assert_eq!(cct.nodes[2].method, method("Demo", "heavy", "(I)I"));
    let totals = &cct.totals;
    assert_eq!(
        (
            totals.bytecodes,
            totals.invocations,
            totals.contexts,
            totals.methods,
            totals.max_depth
        ),
        (83, 9, 6, 5, 3)
    );
}

/// A node as (parent, method name, call site, invocations, bytecodes, inclusive bytecodes).
type MergedRow = (Option<usize>, String, Option<u32>, u64, u64, u64);

#[test]
fn threads_copies_of_a_context_are_summed() {
    // A second thread's tree, written after the first one's below the same root: main, heavy @9 and
    // heavy @5 below it are contexts the first thread entered too, light @7 below heavy @9 is new.
    let second = "node\t7\t0\t40\t-1\t2\t5\nnode\t8\t7\t42\t9\t1\t3\nnode\t9\t8\t41\t7\t1\t2\n\
                  node\t10\t8\t42\t5\t1\t1\nend\n";
    let text = std::fs::read_to_string(data("sample.cct"))
        .expect("read sample.cct")
        .replace("end\n", second);
    let cct = parse_cct(&text, &[]).expect("the file parses");
    let rows: Vec<MergedRow> = cct
        .nodes
        .iter()
        .skip(1)
        .map(|n| {
            let name = n.method.as_ref().map_or(String::new(), |m| m.name.clone());
            (
                n.parent,
                name,
                n.call_site,
                n.invocations,
                n.bytecodes,
                n.inclusive_bytecodes,
            )
        })
        .collect();
    let row = |parent: usize, name: &str, site: Option<u32>, calls: u64, own: u64, all: u64| {
        (Some(parent), name.to_owned(), site, calls, own, all)
    };
    assert_eq!(
        rows,
        vec![
            row(0, "main", None, 3, 25, 81),
            row(1, "heavy", Some(9), 2, 33, 48),
            row(2, "heavy", Some(5), 2, 13, 13),
            row(2, "light", Some(7), 1, 2, 2),
            row(1, "light", Some(3), 2, 8, 8),
            row(0, "run", None, 1, 4, 13),
            row(6, "m", Some(2), 3, 9, 9),
        ]
    );
    assert_eq!(cct.totals.contexts, 7);
}

#[test]
fn the_sample_renders_as_the_expected_text() {
    let actual = profile_text(&sample());
    let expected_path = data("sample.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &actual).expect("write sample.txt");
        return;
    }
    let expected =
        std::fs::read_to_string(&expected_path).expect("missing sample.txt; run with UPDATE_EXPECT=1 to create it");
    assert_eq!(actual, expected);
}

#[test]
fn json_round_trips() {
    let cct = sample();
    let text = serde_json::to_string(&cct).expect("serialize");
    let back: Cct = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(back, cct);
}

#[test]
fn malformed_files_are_refused_with_the_line() {
    let good = std::fs::read_to_string(data("sample.cct")).expect("read sample.cct");
    let cases: Vec<(String, usize, &str)> = vec![
        (String::new(), 0, "empty"),
        (good.replacen("jresa-cct\t1", "jresa-cct\t2", 1), 1, "header"),
        (good.replace("end\n", ""), 0, "truncated"),
        (format!("{good}node\t7\t0\t40\t-1\t1\t1\n"), 21, "after `end`"),
        (good.replacen("node\t2\t1\t41", "node\t9\t1\t41", 1), 15, "out of order"),
        (
            good.replacen("node\t2\t1\t41", "node\t2\t5\t41", 1),
            15,
            "does not precede",
        ),
        (
            good.replacen("node\t2\t1\t41", "node\t2\t1\t99", 1),
            15,
            "undefined method",
        ),
        (good.replacen("\t2\t8\n", "\t-2\t8\n", 1), 15, "negative"),
        (good.replacen("\t3\t2\t8\n", "\tx\t2\t8\n", 1), 15, "not a number"),
        (
            good.replacen("method\t41\tDemo", "method\t40\tDemo", 1),
            9,
            "defined twice",
        ),
        (good.replacen("meta\tthreads\t2", "meta\tthreads", 1), 2, "unrecognised"),
        (
            good.replacen("node\t0\t-1\t-1", "node\t0\t-1\t40", 1),
            13,
            "must be the root",
        ),
    ];
    for (text, line, needle) in cases {
        let error = parse_cct(&text, &[]).expect_err(needle);
        assert_eq!(error.line, line, "{needle}: {error}");
        assert!(error.to_string().contains(needle), "{needle}: {error}");
        // Read as it comes through a pipe, in small pieces: the same error (an empty input is
        // no profile at all).
        let streamed = read_cct(std::io::BufReader::with_capacity(7, text.as_bytes()), &[]).expect("reads");
        match streamed {
            Some(result) => assert_eq!(result.expect_err(needle), error, "{needle}"),
            None => assert!(text.is_empty(), "{needle}: no profile read"),
        }
    }
}

#[test]
fn a_profile_read_as_it_comes_is_the_one_parsed_whole() {
    let text = std::fs::read_to_string(data("sample.cct")).expect("read sample.cct");
    let only = vec!["Demo.heavy".to_owned()];
    let whole = parse_cct(&text, &only).expect("sample.cct parses");
    for capacity in [1, 7, 1 << 16] {
        let streamed = read_cct(std::io::BufReader::with_capacity(capacity, text.as_bytes()), &only)
            .expect("reads")
            .expect("a profile")
            .expect("parses");
        assert_eq!(streamed, whole, "read {capacity} bytes at a time");
    }
    let crlf = text.replace('\n', "\r\n");
    let streamed = read_cct(crlf.as_bytes(), &only).expect("reads").expect("a profile");
    assert_eq!(streamed.expect("parses"), whole, "CRLF line ends");
}
