//! Golden tests of treegraph scheduling on lifted code: each `tests/data/lift/X.java` is compiled
//! with `javac -g` at test time, lifted, every rule is scheduled, and the stack code (with the
//! store/load baseline) must equal `tests/data/treegraph/lift/X.sched`. Run with `UPDATE_EXPECT=1`
//! to rewrite the expected files.

use jresa::classfile::{read_inputs, ClassFile};
use jresa::lift::lift_method;
use jresa::report::schedule::code_text;
use jresa_analyses::ir::{verify_method, MethodIr};
use jresa_analyses::treegraph::{schedule_method, MethodSchedule, ScheduleLimits, ScheduleStats};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles one Java source into a fresh directory and returns its classes, sorted by name.
fn compile(source: &Path) -> Vec<ClassFile> {
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("fixture");
    let out = std::env::temp_dir().join(format!("jresa-treegraph-golden-{}-{stem}", std::process::id()));
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
    assert!(loaded.errors.is_empty(), "reading classes: {:?}", loaded.errors);
    let mut classes = loaded.classes;
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    let _ = std::fs::remove_dir_all(&out);
    classes
}

/// Lifts and schedules every method with code.
fn schedule_classes(classes: &[ClassFile]) -> (Vec<MethodIr>, Vec<MethodSchedule>) {
    let limits = ScheduleLimits::deterministic();
    let mut methods = Vec::new();
    let mut schedules = Vec::new();
    for class in classes {
        for method in class.methods.iter().filter(|m| m.code.is_some()) {
            let ir =
                lift_method(class, method).unwrap_or_else(|e| panic!("{}.{} not lifted: {e}", class.name, method.name));
            assert!(verify_method(&ir).is_empty(), "{}", ir.display_name());
            let schedule = schedule_method(&ir, &limits);
            assert!(
                schedule.failures.is_empty(),
                "{}: {:?}",
                ir.display_name(),
                schedule.failures
            );
            methods.push(ir);
            schedules.push(schedule);
        }
    }
    (methods, schedules)
}

fn check(expected_path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(expected_path.parent().expect("a directory")).expect("mkdir");
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
            "{} differs from the scheduled code (first difference at line {}); run with UPDATE_EXPECT=1 to accept",
            expected_path.display(),
            first.map_or(expected.lines().count().min(actual.lines().count()) + 1, |k| k + 1)
        );
    }
}

#[test]
fn lifted_fixtures_match_their_golden_stack_code() {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root().join("tests/data/lift"))
        .expect("tests/data/lift exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 5, "the lift fixtures are missing");
    let mut total = ScheduleStats::default();
    for source in sources {
        let (methods, schedules) = schedule_classes(&compile(&source));
        for schedule in &schedules {
            total.add_method(schedule);
            for rule in &schedule.rules {
                assert!(rule.code.len() <= rule.baseline.len());
            }
        }
        let name = source.file_stem().and_then(|s| s.to_str()).expect("a name");
        let expected = root().join("tests/data/treegraph/lift").join(format!("{name}.sched"));
        check(&expected, &code_text(&methods, &schedules, true));
    }
    // The fixtures exercise the scheduler: shared values, reordering is never worse, and all of
    // their blocks are small enough to be scheduled optimally.
    assert_eq!(total.optimal, total.blocks);
    assert!(total.dup > 0 && total.fetch > 0);
    assert!(total.treegraph_size < total.baseline_size);
}
