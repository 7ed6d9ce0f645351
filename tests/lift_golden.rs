//! Golden tests of lifting: each `tests/data/lift/X.java` is compiled with `javac -g` at test time,
//! every method of its classes is lifted and verified, and the printed IR must equal
//! `tests/data/lift/X.ir`. Run with `UPDATE_EXPECT=1` to rewrite the expected files.

use jresa::classfile::{read_inputs, ClassFile};
use jresa::lift::lift_method;
use jresa_analyses::ir::{parse_program, print_program, verify_method, Program};
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lift")
}

/// Compiles one Java source into a fresh directory and returns its classes, sorted by name.
fn compile(source: &Path) -> Vec<ClassFile> {
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("fixture");
    // A fresh directory per call: the tests of this file run in parallel, and an example and a
    // fixture may share a name.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!("jresa-lift-golden-{}-{call}-{stem}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("temp dir");
    let status = crate::javac()
        .args(["-g", "-encoding", "UTF-8", "-d"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("javac runs (JDK 17 is required)");
    assert!(status.success(), "javac failed on {}", source.display());
    let loaded = read_inputs(std::slice::from_ref(&out));
    assert!(
        loaded.errors.is_empty(),
        "reading compiled classes: {:?}",
        loaded.errors
    );
    let mut classes = loaded.classes;
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    let _ = std::fs::remove_dir_all(&out);
    classes
}

/// Lifts every method with code, asserting that lifting succeeds and the verifier accepts it.
fn lift_classes(classes: &[ClassFile]) -> Program {
    let mut program = Program::default();
    for class in classes {
        for method in class.methods.iter().filter(|m| m.code.is_some()) {
            let ir = lift_method(class, method)
                .unwrap_or_else(|e| panic!("{}.{}{} not lifted: {e}", class.name, method.name, method.descriptor));
            let errors = verify_method(&ir);
            assert!(
                errors.is_empty(),
                "{} fails verification: {errors:#?}",
                ir.display_name()
            );
            program.methods.push(ir);
        }
    }
    program
}

/// Compares `actual` with the expected file, or rewrites it under `UPDATE_EXPECT=1`.
fn check(expected_path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected_path, actual).expect("write expected file");
        return;
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_else(|_| {
        panic!(
            "missing {}; run with UPDATE_EXPECT=1 to create it",
            expected_path.display()
        )
    });
    if expected != actual {
        let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b);
        panic!(
            "{} differs from the lifted IR (first difference at line {}); run with UPDATE_EXPECT=1 to accept",
            expected_path.display(),
            first.map_or(expected.lines().count().min(actual.lines().count()) + 1, |k| k + 1)
        );
    }
}

#[test]
fn lifted_fixtures_match_their_golden_ir() {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data/lift exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 5, "the lift fixtures are missing");
    for source in sources {
        let program = lift_classes(&compile(&source));
        let text = print_program(&program);
        // The golden text must also read back as exactly the same program.
        let parsed =
            parse_program(&text).unwrap_or_else(|e| panic!("{}: printed IR does not parse: {e:?}", source.display()));
        assert_eq!(
            print_program(&parsed),
            text,
            "{}: print → parse → print is not the identity",
            source.display()
        );
        check(&source.with_extension("ir"), &text);
    }
}

#[test]
fn examples_lift_and_verify() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut count = 0;
    for entry in std::fs::read_dir(examples)
        .expect("examples exist")
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_some_and(|x| x == "java") {
            count += lift_classes(&compile(&entry.path())).methods.len();
        }
    }
    assert!(count >= 20, "only {count} example methods lifted");
}

/// The passes the analyses run on a method they report (`ir::entry_fields` with `ir::reloads`,
/// then `ir::ghosts`) on `tests/data/lift/ghosts/*.java`: the rewritten methods still verify, and
/// their IR equals the golden `.ir` beside each source, which lists the ghosts of each method and
/// the fields at entry its code receives.
#[test]
fn ghosted_fixtures_match_their_golden_ir() {
    let dir = data_dir().join("ghosts");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/lift/ghosts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "the ghost fixtures are missing");
    for source in sources {
        let mut program = lift_classes(&compile(&source));
        let mut text = String::new();
        for ir in &mut program.methods {
            let held = jresa_analyses::ir::entry_fields::reuse_reads_with_entry_fields(ir);
            jresa_analyses::ir::ghosts::ghost_invariant_reads_holding(ir, &held);
            let errors = verify_method(ir);
            assert!(
                errors.is_empty(),
                "{} fails verification after the repeated-read and ghost passes: {errors:#?}",
                ir.display_name()
            );
            let names: Vec<&str> = ir.ghosts.iter().map(|g| ir.var(*g).name.as_str()).collect();
            text.push_str(&format!("# {}: ghosts [{}]\n", ir.display_name(), names.join(", ")));
            if let Some(heap) = &ir.heap_entry {
                let fields: Vec<String> = heap.fields.iter().map(|(p, f)| format!("{p}.{f}")).collect();
                let inner = &ir.proc(heap.inner).name;
                text.push_str(&format!(
                    "#   {inner} receives fields at entry [{}]\n",
                    fields.join(", ")
                ));
            }
        }
        text.push_str(&print_program(&program));
        check(&source.with_extension("ir"), &text);
    }
}
