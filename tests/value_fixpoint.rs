//! The value analysis on the paper's running example (Fig. 1): for inputs small enough that `y * b`
//! cannot overflow (the last level of `overflow::MARGINS`), the fixpoint infers the loop's
//! precondition `y ≥ 1, b ≥ 2, z ≥ 0` and the multiplication's post-condition `y1 ≥ 2·y`.
use jresa::classfile::read_inputs;
use jresa::lift::lift_method;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::ir::{CallKind, MethodIr, MethodRef, ProcKind};
use jresa_analyses::value::compile::{compile, CallResolver};
use jresa_analyses::value::fixpoint::solve;
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::{Constraint, LinearExpr, Polyhedron};
use jresa_analyses::value::program::Origin;
use jresa_analyses::value::program::Width;
use std::path::Path;

struct NoCalls;

impl CallResolver for NoCalls {
    fn resolve(&self, _: CallKind, _: &MethodRef) -> Option<Vec<usize>> {
        None
    }
}

fn lift(method: &str) -> MethodIr {
    let out = std::env::temp_dir().join(format!("jresa-value-{}-{method}", std::process::id()));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/value/Paper.java");
    assert!(crate::javac()
        .args(["-g", "-d"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("javac")
        .success());
    let loaded = read_inputs(std::slice::from_ref(&out));
    let _ = std::fs::remove_dir_all(&out);
    let class = &loaded.classes[0];
    let m = class.methods.iter().find(|m| m.name == method).expect("method");
    lift_method(class, m).expect("lifts")
}

fn ge(terms: &[(usize, i64)], constant: i64) -> Constraint {
    Constraint::greater_or_equal_zero(LinearExpr::from_terms(terms, constant).expect("small"))
}

#[test]
fn the_log_loop_gets_the_papers_invariants() {
    let ir = lift("logLoop");
    let program = compile(std::slice::from_ref(&ir), &NoCalls, CostModel::Instructions);
    let entry = program.of_ir[0][ir.entry.index()];
    let widths = vec![Some(Width::Int); program.procs[entry].inputs];
    let small_inputs: Polyhedron = overflow::entry_condition(&widths, overflow::MARGINS.len() - 1);
    let result = solve(&program, &[(entry, small_inputs)]);
    // The loop procedure and the positions of its inputs.
    let (loop_index, loop_proc) = ir
        .procs
        .iter()
        .enumerate()
        .find(|(_, p)| p.kind == ProcKind::Loop)
        .expect("a loop");
    let position = |name: &str| {
        loop_proc
            .inputs
            .iter()
            .position(|v| ir.var(*v).name == name)
            .expect(name)
    };
    let (y, b, z) = (position("y"), position("b"), position("z"));
    let pre = result.pre[program.of_ir[0][loop_index]]
        .as_ref()
        .expect("the loop is reached");
    assert!(pre.entails(&ge(&[(y, 1)], -1)), "y >= 1 in {pre:?}");
    assert!(pre.entails(&ge(&[(b, 1)], -2)), "b >= 2 in {pre:?}");
    assert!(pre.entails(&ge(&[(z, 1)], 0)), "z >= 0 in {pre:?}");
    // Every multiplication instance called with y ≥ 1, b ≥ 2 returns z ≥ 2·y (its inputs are y, b).
    let mut found = false;
    for (p, proc) in program.procs.iter().enumerate() {
        if let Origin::Aux(_) = proc.origin {
            if let Some(post) = &result.post[p] {
                found = true;
                assert!(post.entails(&ge(&[(2, 1), (0, -2)], 0)), "z >= 2x in {post:?}");
            }
        }
    }
    assert!(found, "the multiplication is reached");
}

/// The closed-form bound and class of a method of `Paper.java` (instructions model), through the
/// whole analysis with the JDK on the classpath.
fn bound_of(method: &str) -> (String, String) {
    let out = std::env::temp_dir().join(format!("jresa-value-bound-{}-{method}", std::process::id()));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/value/Paper.java");
    assert!(crate::javac()
        .args(["-g", "-d"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("javac")
        .success());
    let loaded = read_inputs(std::slice::from_ref(&out));
    let _ = std::fs::remove_dir_all(&out);
    let classpath = jresa::classfile::ClassPath::default_jdk().ok();
    let report = jresa::analyze::analyze(&loaded.classes, classpath.as_ref(), CostModel::Instructions, &|_, m| {
        m.name == method
    });
    let m = &report.methods[0];
    match (&m.upper_bound, &m.complexity) {
        (Some(bound), Some(class)) => (bound.clone(), class.clone()),
        _ => panic!("{method}: no bound: {:?}", m.reason),
    }
}

#[test]
fn the_papers_examples_get_the_expected_bounds() {
    let cases = [
        ("logLoop", "O(log(x))"),
        ("ex1", "O(x)"),
        ("ex2", "O(b)"),
        ("ex3", "O(log(x))"),
        ("ex4", "O(log(x))"),
    ];
    for (method, class) in cases {
        let (bound, complexity) = bound_of(method);
        eprintln!("{method}: {bound}  {complexity}");
        assert_eq!(complexity, class, "{method}: {bound}");
    }
}
