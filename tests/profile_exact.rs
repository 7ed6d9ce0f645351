//! Exactness tests of `jresa profile`: `tests/data/profile/Exact.java` is compiled with `javac -g` at
//! test time and run under the agent through the `jresa` binary, and the bytecode and invocation
//! counts of its methods must equal the numbers derived by hand from `javap -c` in the comments.
//! Also: callbacks from the JDK, a second thread, `--only`, exit status, JSON round trip, errors.

use jresa::profile::{Cct, CctNode};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn jresa() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jresa"));
    // The agent jar is cached per target directory, so it is built once for all test runs.
    command.env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"));
    command
}

/// A fresh directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("profile-exact-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// The fixture's classes, compiled once per test process.
fn classes() -> &'static Path {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let out = scratch("classes");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/profile/Exact.java");
        let status = crate::javac()
            .args(["-g", "-encoding", "UTF-8", "-d"])
            .arg(&out)
            .arg(&source)
            .status()
            .expect("javac runs (JDK 17 is required)");
        assert!(status.success(), "javac failed on {}", source.display());
        // Build the agent once before tests run in parallel (a build from several processes at once
        // is safe but slow); profiling `java -version` also checks a run with no user code.
        let warm = jresa()
            .args(["profile", "--format", "json", "--", "-version"])
            .output()
            .expect("run jresa");
        assert!(
            warm.status.success(),
            "profiling java -version failed: {}",
            String::from_utf8_lossy(&warm.stderr)
        );
        out
    })
}

/// Runs `jresa profile <options> --format json --out FILE -- -cp CLASSES Exact <program_args>`.
fn profile(name: &str, options: &[&str], program_args: &[&str]) -> (Cct, Output) {
    let classes = classes();
    let dir = scratch(name);
    let json = dir.join("profile.json");
    let output = jresa()
        .arg("profile")
        .args(options)
        .args(["--format", "json", "--out"])
        .arg(&json)
        .arg("--")
        .arg("-cp")
        .arg(classes)
        .arg("Exact")
        .args(program_args)
        .output()
        .expect("run jresa");
    let text = std::fs::read_to_string(&json)
        .unwrap_or_else(|e| panic!("no profile ({e}); stderr:\n{}", String::from_utf8_lossy(&output.stderr)));
    let cct: Cct = serde_json::from_str(&text).expect("the JSON profile parses");
    (cct, output)
}

/// The profile of `Exact` with no arguments, shared by the tests that only read it.
fn default_profile() -> &'static Cct {
    static PROFILE: OnceLock<Cct> = OnceLock::new();
    PROFILE.get_or_init(|| {
        let (cct, output) = profile("default", &[], &[]);
        assert!(output.status.success(), "exit status {}", output.status);
        assert!(String::from_utf8_lossy(&output.stdout).contains("sink "));
        cct
    })
}

fn is(node: &CctNode, class: &str, name: &str) -> bool {
    node.method.as_ref().is_some_and(|m| m.class == class && m.name == name)
}

fn describe(cct: &Cct, node: &CctNode) -> String {
    let mut path = vec![node];
    path.extend(cct.ancestors(node));
    path.iter()
        .map(|n| {
            let method = n.method.as_ref().map_or("<root>".into(), |m| m.to_string());
            format!("{method} @{:?}", n.call_site)
        })
        .collect::<Vec<_>>()
        .join(" <- ")
}

/// The one child of `parent` that is `Exact.name`.
fn child<'a>(cct: &'a Cct, parent: &'a CctNode, name: &str) -> &'a CctNode {
    let found: Vec<&CctNode> = cct.children(parent).filter(|n| is(n, "Exact", name)).collect();
    assert_eq!(
        found.len(),
        1,
        "expected one Exact.{name} below {}",
        describe(cct, parent)
    );
    found[0]
}

/// The one node of `Exact.name` in the tree.
fn single<'a>(cct: &'a Cct, name: &str) -> &'a CctNode {
    let found = cct.find("Exact", name);
    assert_eq!(found.len(), 1, "expected one context of Exact.{name}");
    found[0]
}

/// (call site, invocations, exclusive bytecodes).
fn counts(node: &CctNode) -> (Option<u32>, u64, u64) {
    (node.call_site, node.invocations, node.bytecodes)
}

#[test]
fn straight_line_code_loop_and_recursion_are_counted_exactly() {
    let cct = default_profile();
    // main, from `javap -c` (no arguments, so `args.length > 0` is false):
    //   0 getstatic 3 iconst_3 4 iconst_4 5 invokestatic straight 8 iadd 9 putstatic        6
    //   12 getstatic 15 bipush 17 invokestatic loop 20 iadd 21 putstatic                     5
    //   24 getstatic 27 iconst_5 28 invokestatic fact 31 iadd 32 putstatic                   5
    //   35 getstatic 38 iconst_3 39 newarray 41 invokestatic catchMid 44 iadd 45 putstatic   6
    //   48 getstatic 51 iconst_3 52 newarray 54 invokestatic callsThrower 57 iadd 58 putstatic 6
    //   61 getstatic 64 iconst_1 65 iconst_0 66 invokestatic divide (throws)                 4
    //   (69 iadd 70 putstatic 73 goto are skipped by the exception)
    //   76 astore_1 77 getstatic 80 iconst_1 81 iadd 82 putstatic  (the handler)             5
    //   85 getstatic 88 iconst_1 89 invokestatic switches 92 iadd 93 putstatic               5
    //   96 invokestatic 99 invokestatic 102 invokestatic                                      3
    //   105 getstatic 108 getstatic 111 invokedynamic 116 invokevirtual 119 aload_0
    //   120 arraylength 121 ifle                                                              7
    //   133 return                                                                            1
    //   = 53
    let main = single(cct, "main");
    assert_eq!(main.parent, Some(0), "main sits at the root");
    assert_eq!(counts(main), (None, 1, 53));

    // straight: 0 iload_0 1 iload_1 2 iadd 3 istore_2 4 iload_2 5 iconst_2 6 imul 7 istore_3
    // 8 iload_3 9 iload_0 10 isub 11 ireturn = 12, called at main's bci 5.
    let straight = child(cct, main, "straight");
    assert_eq!(counts(straight), (Some(5), 1, 12));
    assert_eq!(straight.inclusive_bytecodes, 12);

    // loop(10): 0 iconst_0 1 istore_1 2 iconst_0 3 istore_2 (4), the test 4 iload_2 5 iload_0
    // 6 if_icmpge 11 times (33), the body 9 iload_1 10 iload_2 11 iadd 12 istore_1 13 iinc
    // 16 goto 10 times (60), 19 iload_1 20 ireturn (2): 4 + 33 + 60 + 2 = 99.
    let looped = child(cct, main, "loop");
    assert_eq!(counts(looped), (Some(17), 1, 99));

    // fact(5): n > 1 runs 0 iload_0 1 iconst_1 2 if_icmpgt 7 iload_0 8 iload_0 9 iconst_1
    // 10 isub 11 invokestatic 14 imul 15 ireturn = 10; n = 1 runs 0 1 2 5 iconst_1 6 ireturn = 5.
    // Each recursive call is its own context at bci 11, five deep.
    let mut node = child(cct, main, "fact");
    assert_eq!(counts(node), (Some(28), 1, 10));
    assert_eq!(node.inclusive_bytecodes, 4 * 10 + 5);
    for depth in 2..=5 {
        node = child(cct, node, "fact");
        let expected = if depth == 5 { 5 } else { 10 };
        assert_eq!(counts(node), (Some(11), 1, expected), "fact at depth {depth}");
    }
    assert_eq!(cct.children(node).count(), 0);
}

#[test]
fn exceptions_thrown_mid_block_stop_the_count_at_the_throwing_instruction() {
    let cct = default_profile();
    let main = single(cct, "main");

    // catchMid(new int[3]): 0 iconst_1 1 istore_1 (2), the try block up to the throwing load:
    // 2 iload_1 3 iconst_2 4 iadd 5 istore_1 6 iload_1 7 aload_0 8 iconst_5 9 iaload (8; the
    // iaload throws and counts), the handler 20 astore_2 21 iload_1 22 ineg 23 istore_1 (4),
    // 24 iload_1 25 ireturn (2): 16. The rest of the try block (10 iadd 11 istore_1 12 iload_1
    // 13 bipush 15 iadd 16 istore_1 17 goto: 7 instructions) must not count; counting whole basic
    // blocks at their entry would give 23.
    let catch_mid = child(cct, main, "catchMid");
    assert_eq!(counts(catch_mid), (Some(41), 1, 16));
    // The JVM constructs the exception itself: its constructor runs below catchMid with no call site.
    let constructor = cct
        .children(catch_mid)
        .find(|n| is(n, "java/lang/ArrayIndexOutOfBoundsException", "<init>"))
        .expect("the exception's constructor runs in catchMid's context");
    assert_eq!(constructor.call_site, None);

    // thrower(new int[3]): 0 bipush 2 istore_1 3 iload_1 4 aload_0 5 bipush 7 iaload (throws) = 6;
    // 8 imul 9 istore_1 10 iload_1 11 iconst_1 12 iadd 13 istore_1 14 iload_1 15 ireturn never run.
    // callsThrower: 0 aload_0 1 invokestatic (the exception leaves it here) then the handler
    // 5 astore_1 6 iconst_m1 7 ireturn = 5.
    let calls_thrower = child(cct, main, "callsThrower");
    assert_eq!(counts(calls_thrower), (Some(54), 1, 5));
    let thrower = child(cct, calls_thrower, "thrower");
    assert_eq!(counts(thrower), (Some(1), 1, 6));

    // divide(1, 0): 0 iload_0 1 iload_1 2 idiv (throws ArithmeticException) = 3.
    let divide = child(cct, main, "divide");
    assert_eq!(counts(divide), (Some(66), 1, 3));
}

#[test]
fn call_sites_after_switches_and_wide_instructions_have_their_true_offsets() {
    let cct = default_profile();
    // switches(1): 0 iload_0 1 tableswitch -> 34 bipush 36 istore_1 37 goto -> 48 iload_0
    // 49 sipush 52 imul 53 lookupswitch (1000: default) -> 92 iinc -> 95 iinc_w (wide)
    // 101 iload_1 102 iload_0 103 invokestatic 106 ireturn = 2 + 3 + 4 + 1 + 1 + 4 = 15.
    // The call at 103 comes after a padded tableswitch, a lookupswitch and a wide iinc.
    let switches = single(cct, "switches");
    assert_eq!(counts(switches), (Some(89), 1, 15));
    let straight = child(cct, switches, "straight");
    assert_eq!(counts(straight), (Some(103), 1, 12));
}

#[test]
fn callbacks_from_the_jdk_appear_below_the_jdk_methods_that_call_them() {
    let cct = default_profile();
    // The comparator `(p, q) -> Integer.compare(p, q)` compiles to a lambda method of 0 aload_0
    // 1 invokevirtual 4 aload_1 5 invokevirtual 8 invokestatic 11 ireturn = 6 instructions.
    // TimSort sorts {3, 1, 2} with four comparisons: two finding the first run, two in binarySort.
    let comparisons: Vec<&CctNode> = cct
        .nodes
        .iter()
        .filter(|n| {
            n.method
                .as_ref()
                .is_some_and(|m| m.class == "Exact" && m.name.starts_with("lambda$sortWithCallback$"))
        })
        .collect();
    assert!(!comparisons.is_empty(), "the comparator never ran");
    assert_eq!(comparisons.iter().map(|n| n.invocations).sum::<u64>(), 4);
    assert_eq!(comparisons.iter().map(|n| n.bytecodes).sum::<u64>(), 4 * 6);
    for node in &comparisons {
        let parent = cct.ancestors(node).next().expect("a parent");
        let parent_class = &parent.method.as_ref().expect("a method").class;
        assert!(
            parent_class.starts_with("java/util/"),
            "the comparator's caller is the JDK: {}",
            describe(cct, node)
        );
        assert!(node.call_site.is_some(), "{}", describe(cct, node));
        let mut chain = cct.ancestors(node);
        assert!(
            chain.any(|a| is(a, "java/util/Arrays", "sort")),
            "{}",
            describe(cct, node)
        );
    }

    // `v -> sink += v`: 0 getstatic 3 aload_0 4 invokevirtual 7 iadd 8 putstatic 11 return = 6,
    // called by ArrayList.forEach once per element (two).
    let consumer: Vec<&CctNode> = cct
        .nodes
        .iter()
        .filter(|n| {
            n.method
                .as_ref()
                .is_some_and(|m| m.class == "Exact" && m.name.starts_with("lambda$forEachCallback$"))
        })
        .collect();
    assert_eq!(consumer.len(), 1, "one context for the consumer");
    let parent = cct.ancestors(consumer[0]).next().expect("a parent");
    assert!(
        is(parent, "java/util/ArrayList", "forEach"),
        "{}",
        describe(cct, consumer[0])
    );
    assert_eq!((consumer[0].invocations, consumer[0].bytecodes), (2, 12));
}

#[test]
fn a_second_thread_has_its_own_contexts_merged_at_the_root() {
    let cct = default_profile();
    assert!(cct.threads >= 2, "threads: {}", cct.threads);
    // The Runnable `() -> sink += loop(10)`: 0 getstatic 3 bipush 5 invokestatic 8 iadd
    // 9 putstatic 12 return = 6, entered from Thread.run on the worker thread.
    let runnable = cct
        .nodes
        .iter()
        .find(|n| {
            n.method
                .as_ref()
                .is_some_and(|m| m.class == "Exact" && m.name.starts_with("lambda$onAnotherThread$"))
        })
        .expect("the worker's Runnable ran");
    assert_eq!((runnable.invocations, runnable.bytecodes), (1, 6));
    assert!(
        cct.ancestors(runnable).any(|a| is(a, "java/lang/Thread", "run")),
        "{}",
        describe(cct, runnable)
    );
    assert!(
        !cct.ancestors(runnable).any(|a| is(a, "Exact", "main")),
        "the worker's contexts are not below main: {}",
        describe(cct, runnable)
    );
    let looped = child(cct, runnable, "loop");
    assert_eq!(counts(looped), (Some(5), 1, 99));
    // onAnotherThread itself: 0 new 3 dup 4 invokedynamic 9 invokespecial 12 astore_0 13 aload_0
    // 14 invokevirtual 17 aload_0 18 invokevirtual 21 return = 10.
    assert_eq!(counts(single(cct, "onAnotherThread")), (Some(102), 1, 10));
}

#[test]
fn totals_and_inclusive_counts_add_up() {
    let cct = default_profile();
    let root = cct.root().expect("a root");
    assert_eq!(root.method, None);
    assert_eq!(root.inclusive_bytecodes, cct.totals.bytecodes);
    assert_eq!(root.inclusive_invocations, cct.totals.invocations);
    assert_eq!(cct.totals.contexts as usize, cct.nodes.len() - 1);
    for node in &cct.nodes {
        let below: u64 = cct.children(node).map(|k| k.inclusive_bytecodes).sum();
        assert_eq!(node.inclusive_bytecodes, node.bytecodes + below);
        let weights: Vec<u64> = cct.children(node).map(|k| k.inclusive_bytecodes).collect();
        assert!(weights.windows(2).all(|w| w[0] >= w[1]), "heaviest first");
    }
    assert!(cct.instrumented_classes > 100 && cct.instrumented_methods > 1000);
}

#[test]
fn json_round_trips() {
    let cct = default_profile();
    let text = serde_json::to_string(cct).expect("serialize");
    let back: Cct = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(&back, cct);
}

#[test]
fn only_restricts_the_tree_to_the_dynamic_extent_of_the_selected_method() {
    let (cct, output) = profile("only-loop", &["--only", "Exact.loop"], &[]);
    assert!(output.status.success());
    assert_eq!(cct.selected_methods, 1);
    assert_eq!(cct.only, vec!["Exact.loop".to_owned()]);
    let root = cct.root().expect("a root");
    // loop(10) runs once from main and once from the worker's Runnable, and nothing else is counted.
    // Code outside the extent runs uninstrumented, so the extent's root has no call site, and the
    // two threads' roots merge into one context.
    let tops: Vec<(Option<u32>, u64, u64)> = cct.children(root).map(counts).collect();
    assert!(cct.children(root).all(|n| is(n, "Exact", "loop")));
    assert_eq!(tops, vec![(None, 2, 2 * 99)]);
    assert_eq!(cct.totals.bytecodes, 198);
    assert_eq!(cct.totals.contexts, 1);
}

#[test]
fn only_includes_everything_the_selected_method_calls() {
    let (cct, _) = profile("only-sort", &["--only", "Exact.sortWithCallback"], &[]);
    let root = cct.root().expect("a root");
    let tops: Vec<&CctNode> = cct.children(root).collect();
    assert_eq!(tops.len(), 1);
    // sortWithCallback: 0 iconst_3 1 anewarray 4 dup 5 iconst_0 6 iconst_3 7 invokestatic
    // 10 aastore 11 dup 12 iconst_1 13 iconst_1 14 invokestatic 17 aastore 18 dup 19 iconst_2
    // 20 iconst_2 21 invokestatic 24 aastore 25 astore_0 26 aload_0 27 invokedynamic
    // 32 invokestatic 35 getstatic 38 aload_0 39 iconst_0 40 aaload 41 invokevirtual 44 iadd
    // 45 putstatic 48 return = 29.
    assert_eq!(counts(tops[0]), (None, 1, 29));
    assert!(!cct.find("java/util/Arrays", "sort").is_empty());
    let comparisons: u64 = cct
        .nodes
        .iter()
        .filter(|n| {
            n.method
                .as_ref()
                .is_some_and(|m| m.name.starts_with("lambda$sortWithCallback$"))
        })
        .map(|n| n.invocations)
        .sum();
    assert_eq!(comparisons, 4);
    assert!(cct.find("Exact", "main").is_empty());
    assert!(cct.find("Exact", "loop").is_empty());
}

#[test]
fn the_exit_status_and_output_are_passed_through_and_text_is_the_default() {
    let classes = classes();
    let dir = scratch("exit");
    let text_file = dir.join("profile.txt");
    let output = jresa()
        .args(["profile", "--out"])
        .arg(&text_file)
        .arg("--")
        .arg("-cp")
        .arg(classes)
        .args(["Exact", "3"])
        .output()
        .expect("run jresa");
    // main calls System.exit(3): 124 aload_0 125 iconst_0 126 aaload 127 invokestatic
    // 130 invokestatic replace 133 return, so main counts 53 - 1 + 5 = 57.
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stdout).contains("sink "));
    let text = std::fs::read_to_string(&text_file).expect("the text profile");
    assert!(text.starts_with("jresa profile: "), "{text}");
    let main_line = text
        .lines()
        .find(|l| l.ends_with("Exact.main([Ljava/lang/String;)V"))
        .expect("a line for main");
    let fields: Vec<&str> = main_line.split_whitespace().collect();
    assert_eq!(fields[1..3], ["57", "1"], "exclusive and invocations: {main_line}");
}

#[test]
fn methods_too_large_to_instrument_fully_degrade_without_losing_exactness() {
    // Generated at test time: `mid` and `huge` repeat `a[0] += 1;`, which is 0 aload_0 1 iconst_0
    // 2 dup2 3 iaload 4 iconst_1 5 iadd 6 iastore = 7 instructions in 8 bytes, in two segments (the
    // iaload may throw), each counted by 5 added bytes (aload, iconst, invokestatic). `mid` (2600
    // lines) is 20,801 bytes and grows to 46,801 + a few, which fits in 64 KiB but not together with
    // its 20,801-byte uninstrumented copy, so it keeps its counts but loses the copy: 2600 * 7 + 1
    // (return) = 18,201 bytecodes. `huge` (4000 lines) would grow to 72,001 bytes and stays
    // uninstrumented, listed as such.
    let dir = scratch("large");
    let body = |name: &str, lines: usize| {
        format!(
            "    static void {name}(int[] a) {{\n{}    }}\n",
            "        a[0] += 1;\n".repeat(lines)
        )
    };
    let source = format!(
        "public class Large {{\n{}{}    public static void main(String[] args) {{\n        int[] a = new int[1];\n        mid(a);\n        huge(a);\n        System.out.println(a[0]);\n    }}\n}}\n",
        body("mid", 2600),
        body("huge", 4000)
    );
    std::fs::write(dir.join("Large.java"), source).expect("write Large.java");
    let status = crate::javac()
        .arg("-d")
        .arg(&dir)
        .arg(dir.join("Large.java"))
        .status()
        .expect("javac runs");
    assert!(status.success());
    let _ = classes();
    let json = dir.join("profile.json");
    let output = jresa()
        .args(["profile", "--format", "json", "--out"])
        .arg(&json)
        .arg("--")
        .arg("-cp")
        .arg(&dir)
        .arg("Large")
        .output()
        .expect("run jresa");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "6600");
    let cct: Cct = serde_json::from_str(&std::fs::read_to_string(&json).expect("profile")).expect("parse profile");
    let mid = cct.find("Large", "mid");
    assert_eq!(mid.len(), 1);
    assert_eq!((mid[0].invocations, mid[0].bytecodes), (1, 18_201));
    assert!(cct.find("Large", "huge").is_empty());
    assert!(cct
        .uninstrumented
        .iter()
        .any(|u| u.what == "Large.huge([I)V" && u.reason.contains("too large")));
    assert!(!cct.uninstrumented.iter().any(|u| u.what.contains("mid")));
}

#[test]
fn counts_do_not_depend_on_the_jit() {
    // `Strings.measured` does 100,000 `HashMap.merge` calls, each finding its key through
    // `String.equals` on an equal but distinct string, so each runs `StringLatin1.equals` once.
    // With C2 alone (`-XX:-TieredCompilation`) the JIT replaces that call by its intrinsic, and without
    // the flags jresa adds, about 40% of the calls were missing from the profile; they must all be
    // there, and the whole extent must count the same with tiered compilation.
    let dir = scratch("strings");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/profile/Strings.java");
    let status = crate::javac()
        .args(["-g", "-d"])
        .arg(&dir)
        .arg(&source)
        .status()
        .expect("javac runs");
    assert!(status.success());
    let _ = classes();
    let run = |jit: &[&str]| -> Cct {
        let json = dir.join("profile.json");
        let output = jresa()
            .args(["profile", "--only", "Strings.measured", "--format", "json", "--out"])
            .arg(&json)
            .arg("--")
            .args(jit)
            .arg("-cp")
            .arg(&dir)
            .arg("Strings")
            .output()
            .expect("run jresa");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_str(&std::fs::read_to_string(&json).expect("profile")).expect("parse")
    };
    let c2_only = run(&["-XX:-TieredCompilation"]);
    let equals_calls = |cct: &Cct| -> u64 {
        cct.find("java/lang/StringLatin1", "equals")
            .iter()
            .filter(|n| cct.ancestors(n).any(|a| is(a, "java/util/HashMap", "merge")))
            .map(|n| n.invocations)
            .sum()
    };
    assert_eq!(equals_calls(&c2_only), 100_000);
    let tiered = run(&[]);
    assert_eq!(equals_calls(&tiered), 100_000);
    assert_eq!(c2_only.totals, tiered.totals);
}

#[test]
fn bad_selectors_are_rejected_with_exit_code_2() {
    for selector in ["Exact.", ".loop", "Exact.loop(I", "Exact.lo op"] {
        let output = jresa()
            .args(["profile", "--only", selector, "--", "-version"])
            .output()
            .expect("run jresa");
        assert_eq!(output.status.code(), Some(2), "selector {selector}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("bad --only selector"), "{stderr}");
    }
}

#[test]
fn a_missing_java_is_a_clear_error_with_exit_code_2() {
    let empty = scratch("no-java");
    let output = jresa()
        .env("PATH", &empty)
        .env_remove("JAVA_HOME")
        .args(["profile", "--", "-version"])
        .output()
        .expect("run jresa");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot find `java`"), "{stderr}");
}

#[test]
fn an_agent_that_cannot_be_built_is_a_clear_error_with_exit_code_2() {
    // A PATH with `java` but no `javac`, and an empty cache: the agent jar cannot be built.
    let java = std::env::split_paths(&std::env::var_os("PATH").expect("PATH"))
        .map(|dir| dir.join("java"))
        .find(|candidate| candidate.is_file())
        .expect("java on the PATH");
    let dir = scratch("no-javac");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("create bin");
    std::os::unix::fs::symlink(&java, bin.join("java")).expect("link java");
    let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
        .env("PATH", &bin)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env_remove("JAVA_HOME")
        .args(["profile", "--", "-version"])
        .output()
        .expect("run jresa");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot find `javac`"), "{stderr}");
}

#[test]
fn java_arguments_are_required() {
    let output = jresa().args(["profile"]).output().expect("run jresa");
    assert_eq!(output.status.code(), Some(2));
}

/// The contexts of the fixture's own methods below `node` as (path of methods and call sites,
/// invocations, bytecodes), in order. The JDK's contexts are left out: some of their counts differ
/// from run to run (a random iteration order of the JDK's immutable sets, what the collector frees).
fn subtree(cct: &Cct, node: &CctNode, path: &str, out: &mut Vec<(String, u64, u64)>) {
    let method = node.method.as_ref().map_or("<root>".into(), |m| m.to_string());
    let here = format!("{path}/{method}@{:?}", node.call_site);
    if node.method.as_ref().is_some_and(|m| m.class.starts_with("Exact")) {
        out.push((here.clone(), node.invocations, node.bytecodes));
    }
    let mut kids: Vec<&CctNode> = cct.children(node).collect();
    kids.sort_by_key(|k| (k.method.as_ref().map(|m| m.to_string()), k.call_site));
    for kid in kids {
        subtree(cct, kid, &here, out);
    }
}

#[test]
fn the_class_cache_gives_the_counts_of_a_fresh_instrumentation_and_a_damaged_one_is_ignored() {
    let classes = classes();
    let dir = scratch("class-cache");
    let run = |name: &str| -> (Cct, String) {
        let json = dir.join(format!("{name}.json"));
        let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .args(["profile", "--format", "json", "--out"])
            .arg(&json)
            .args(["--", "-cp"])
            .arg(classes)
            .arg("Exact")
            .output()
            .expect("run jresa");
        let text = std::fs::read_to_string(&json).expect("a profile");
        let cct = serde_json::from_str(&text).expect("the JSON profile parses");
        (cct, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let below_main = |cct: &Cct| {
        let mut out = Vec::new();
        subtree(cct, single(cct, "main"), "", &mut out);
        out
    };
    let (fresh, _) = run("fresh");
    let (cached, _) = run("cached");
    assert_eq!(fresh.cached_classes, 0, "the first run has no cache");
    assert!(
        cached.cached_classes > 100 && cached.cached_classes <= cached.instrumented_classes,
        "the second run takes the JDK's classes from the cache: {} of {}",
        cached.cached_classes,
        cached.instrumented_classes
    );
    assert!(below_main(&fresh).len() > 10, "the fixture's contexts are compared");
    assert_eq!(below_main(&fresh), below_main(&cached), "the cache changes no count");

    let caches: Vec<PathBuf> = std::fs::read_dir(dir.join("cache").join("jresa"))
        .expect("the cache directory")
        .flat_map(|agent| std::fs::read_dir(agent.expect("an entry").path()).expect("an agent directory"))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("classes-"))
        })
        .collect();
    assert_eq!(caches.len(), 1, "one class cache: {caches:?}");
    let bytes = std::fs::read(&caches[0]).expect("the class cache");
    std::fs::write(&caches[0], &bytes[..bytes.len() / 2]).expect("truncate the cache");
    let (damaged, stderr) = run("damaged");
    assert!(
        stderr.contains("ignoring the damaged class cache"),
        "a warning: {stderr}"
    );
    assert_eq!(damaged.cached_classes, 0, "nothing is taken from a damaged cache");
    assert_eq!(
        below_main(&fresh),
        below_main(&damaged),
        "the damaged cache changes no count"
    );
}
