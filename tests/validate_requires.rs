//! Preconditions in `jresa validate`: the meaning of `@Requires` on concrete heaps (lists, trees,
//! separation, existentials, disjunctions, potentials), instances generated from it (golden
//! reports of `tests/data/validate/Preconditions.java`), the bounds of `jresa check` confirmed by
//! execution on the check fixtures, and a scaled-down potential caught as a violation.

use crate::analyze_support as support;
use crate::check_support;
use crate::report_support;
use jresa::check::check;
use jresa::classfile::ClassPath;
use jresa::spec::parse_assertions;
use jresa::validate::{validate_bounds, validate_check, BoundToCheck, ValidateOptions, ValidationStatus};
use jresa::vm_source::JvmClassSource;
use jresa_analyses::cost_model::CostModel;
use jresa_gpu_validate::requires::Precondition;
use jresa_gpu_validate::Value;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const CELL: &str = "Preconditions$Cell";
const NODE: &str = "Preconditions$Node";

fn cell(value: i32, next: Value) -> Value {
    Value::Object {
        class: CELL.into(),
        fields: vec![("value".into(), Value::Int(value)), ("next".into(), next)],
    }
}

fn node(left: Value, right: Value) -> Value {
    Value::Object {
        class: NODE.into(),
        fields: vec![
            ("key".into(), Value::Int(0)),
            ("left".into(), left),
            ("right".into(), right),
        ],
    }
}

fn list(values: &[i32]) -> Value {
    values.iter().rev().fold(Value::Null, |next, &v| cell(v, next))
}

fn int(v: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

/// A precondition over parameters of the given names and descriptors, resolved on the fixture.
fn precondition(source: &JvmClassSource, text: &str, params: &[(&str, &str)]) -> Precondition {
    let assertions = parse_assertions(text).expect("the precondition parses");
    let names = params.iter().map(|(n, _)| n.to_string()).collect();
    let descriptors: Vec<String> = params.iter().map(|(_, d)| d.to_string()).collect();
    Precondition::new(text, assertions, names, &descriptors, source).expect("a decidable precondition")
}

#[test]
fn preconditions_mean_what_they_say_on_concrete_heaps() {
    let source_file = root().join("tests/data/validate/Preconditions.java");
    let classes = check_support::compile_against_specs("validate-requires-semantics", &source_file);
    let source = JvmClassSource::new(classes, None);
    let cell_d = "LPreconditions$Cell;";
    let node_d = "LPreconditions$Node;";

    // lseg to null: every acyclic list, null included; not a cycle.
    let lists = precondition(&source, "{ | lseg(x, @arg p, null) | c }", &[("p", cell_d)]);
    assert!(lists.holds(&[Value::Null]));
    assert!(lists.holds(&[list(&[1, 2, 3])]));
    let cyclic = cell(1, cell(2, Value::Ref(0)));
    assert!(!lists.holds(&[cyclic]));
    // Its potential: x per cell plus c.
    let priced = lists
        .clone()
        .with_resources([("x".to_string(), int(3)), ("c".to_string(), int(2))]);
    assert_eq!(priced.potential(&[list(&[0, 0, 0, 0])]), Ok(Some(int(14))));
    assert!(lists.potential(&[list(&[1])]).is_err(), "x and c have no values");

    // `!=` null excludes the empty list.
    let non_empty = precondition(
        &source,
        "{ @arg p != null | lseg(1, @arg p, null) | 0 }",
        &[("p", cell_d)],
    );
    assert!(!non_empty.holds(&[Value::Null]));
    assert!(non_empty.holds(&[list(&[5])]));

    // Separation: two lists may not share cells.
    let two = precondition(
        &source,
        "{ | lseg(1, @arg a, null) * lseg(1, @arg b, null) | 0 }",
        &[("a", cell_d), ("b", cell_d)],
    );
    assert!(two.holds(&[list(&[1, 2]), list(&[3])]));
    // b is the second cell of a.
    let shared = [list(&[1, 2]), Value::Ref(1)];
    assert!(!two.holds(&shared));
    // The same with b the whole of a: one list, not two.
    assert!(!two.holds(&[list(&[1]), Value::Ref(0)]));
    // But a segment from a to b followed by one from b to null is that list.
    let split = precondition(
        &source,
        "{ | lseg(1, @arg a, @arg b) * lseg(2, @arg b, null) | 0 }",
        &[("a", cell_d), ("b", cell_d)],
    )
    .with_resources([]);
    assert_eq!(split.potential(&shared), Ok(Some(int(1 + 2))));
    // A segment that never reaches b does not hold.
    assert!(!split.holds(&[list(&[1, 2]), list(&[3])]));

    // Trees: no sharing, null is the empty tree.
    let trees = precondition(&source, "{ | tree(1, @arg t) | 0 }", &[("t", node_d)]).with_resources([]);
    assert!(trees.holds(&[Value::Null]));
    let three = node(node(Value::Null, Value::Null), node(Value::Null, Value::Null));
    assert_eq!(trees.potential(std::slice::from_ref(&three)), Ok(Some(int(3))));
    let dag = node(node(Value::Null, Value::Null), Value::Ref(1));
    assert!(!trees.holds(&[dag]));
    // A list cell is no tree node.
    assert!(!precondition(&source, "{ | tree(1, @arg t) | 0 }", &[("t", cell_d)]).holds(&[list(&[1])]));

    // Existentials bound by a field, disjunctions: the smallest potential of the disjuncts that
    // hold.
    let tail = precondition(
        &source,
        "exists n:ref. { @arg p == null | | 0 } || { | [(@arg p).next:ref -> n] * [(@arg p).value:int -> ?] * lseg(1, n, null) | 1 }",
        &[("p", cell_d)],
    )
    .with_resources([]);
    assert_eq!(tail.potential(&[Value::Null]), Ok(Some(int(0))));
    assert_eq!(tail.potential(&[list(&[1, 2, 3])]), Ok(Some(int(3))));
    let either = precondition(
        &source,
        "{ | lseg(5, @arg p, null) | 0 } || { | lseg(1, @arg p, null) | 1 }",
        &[("p", cell_d)],
    )
    .with_resources([]);
    assert_eq!(either.potential(&[Value::Null]), Ok(Some(int(0))));
    assert_eq!(either.potential(&[list(&[1, 1])]), Ok(Some(int(3))));
    // A field assertion owns its field: the cell cannot also be a list cell.
    let overlapping = precondition(
        &source,
        "{ | [(@arg p).next:ref -> ?] * lseg(1, @arg p, null) | 0 }",
        &[("p", cell_d)],
    );
    assert!(!overlapping.holds(&[list(&[1])]));
    assert!(!overlapping.holds(&[Value::Null]), "null has no field");

    // What each argument must satisfy alone.
    assert!(two.for_argument(0).is_some_and(|p| !p.holds(&[cell(1, Value::Ref(0))])));
    assert!(lists.for_argument(1).is_none(), "there is no second parameter");
    let only_a = precondition(
        &source,
        "{ | lseg(1, @arg a, null) | 0 }",
        &[("a", cell_d), ("b", cell_d)],
    );
    assert!(only_a.for_argument(1).is_none(), "b is unconstrained");

    // Terms a precondition cannot know, and ill-typed ones, are refused.
    for text in [
        "{ @ret != null | | 1 }",
        "{ | lseg(1, @arg q, null) | 0 }",
        "{ | [(@arg p).value:ref -> null] | 0 }",
        "{ | [(@arg p).missing:int -> ?] | 0 }",
    ] {
        let assertions = parse_assertions(text).expect("parses");
        assert!(
            Precondition::new(text, assertions, vec!["p".into()], &[cell_d.into()], &source).is_err(),
            "{text}"
        );
    }
    let over_int = parse_assertions("{ | lseg(1, @arg n, null) | 0 }").expect("parses");
    assert!(Precondition::new("", over_int, vec!["n".into()], &["I".into()], &source).is_err());
}

#[test]
fn instances_come_from_the_preconditions() {
    let dir = root();
    let fixture = "tests/data/validate/Preconditions.java";
    for (golden, extra) in [
        ("Preconditions.txt", &[][..]),
        ("Preconditions.check.txt", &["--bounds", "check"][..]),
    ] {
        let mut args = vec![
            "validate",
            "--quiet",
            fixture,
            "--cost-model",
            "consume",
            "--max-size",
            "3",
        ];
        args.extend_from_slice(extra);
        let output = report_support::jresa(dir, &args);
        assert_eq!(output.code, 0, "{}", output.stderr);
        if let Some(problem) = support::check(&root().join("tests/data/validate").join(golden), &output.stdout) {
            panic!("{problem}");
        }
    }
}

#[test]
fn the_bounds_of_check_hold_on_every_instance_of_the_check_fixtures() {
    let mut classes = Vec::new();
    // The list and tree fixtures, and those whose structures a container object holds.
    for name in ["IntList", "Lists", "Trees", "Queue", "Stack", "CList", "TreeBag"] {
        let source = root().join(format!("tests/data/check/{name}.java"));
        classes.extend(check_support::compile_against_specs("validate-requires-check", &source));
    }
    let classpath = ClassPath::default_jdk().ok();
    let report = check(&classes, classpath.as_ref(), &|_, _| true);
    let options = ValidateOptions::new(CostModel::Consume, 3, 5000);
    let validation = validate_check(&classes, ClassPath::default_jdk().ok(), &report, &options).expect("runs");
    let mut confirmed = 0;
    for (method, checked) in validation.methods.iter().zip(&report.methods) {
        let proven = checked.status == "verified" || checked.status == "inferred";
        if proven {
            assert_eq!(method.status, ValidationStatus::Confirmed, "{method:?}");
            assert_eq!(method.checked, method.instances, "{method:?}");
            assert!(method.instances > 0 && method.requires.is_some(), "{method:?}");
            confirmed += 1;
        } else {
            assert_eq!(method.status, ValidationStatus::NotValidated, "{method:?}");
        }
    }
    assert!(confirmed >= 35, "{confirmed} methods confirmed");
    // The check bounds count consume units only.
    let wrong_model = ValidateOptions::new(CostModel::Instructions, 3, 5000);
    assert!(validate_check(&classes, None, &report, &wrong_model).is_err());
}

#[test]
fn a_scaled_down_potential_is_caught() {
    let source = root().join("tests/data/check/Lists.java");
    let classes = check_support::compile_against_specs("validate-requires-scaled", &source);
    let report = check(&classes, ClassPath::default_jdk().ok().as_ref(), &|_, m| {
        m.name == "sum"
    });
    let honest = BoundToCheck::of_check(&report.methods[0]);
    let mut wrong = honest.clone();
    // `sum` consumes one unit per cell; claim half of that.
    let resources = wrong.resources.as_mut().expect("sum is inferred");
    for (_, value) in resources.iter_mut() {
        *value = value.clone() / int(2);
    }
    let options = ValidateOptions::new(CostModel::Consume, 3, 5000);
    let validation =
        validate_bounds(&classes, ClassPath::default_jdk().ok(), &[honest, wrong], &options).expect("runs");
    let (kept, caught) = (&validation.methods[0], &validation.methods[1]);
    assert_eq!(kept.status, ValidationStatus::Confirmed, "{kept:?}");
    assert_eq!(caught.status, ValidationStatus::Violated, "{caught:?}");
    assert_eq!(caught.checked, kept.checked);
    // Lists of one cell or more: 1 > 1/2, ..., only the empty list is within.
    assert_eq!(caught.violations, caught.checked - 1);
    assert!(
        caught.violating_instances[0].bound.as_deref() == Some("1/2"),
        "{caught:?}"
    );
}
