//! Objects that never escape made variables (`ir::scalars`), on the IR of
//! `tests/data/scalars/Cursor.ir`: a cursor made and walked by `It.walk`, and the same cursor
//! stored in a static field by `Esc.walk`.

use jresa_analyses::ir::scalars::{replace_fresh_objects, Callees};
use jresa_analyses::ir::{parse_program, verify_method, CallKind, MethodIr, MethodRef, Operand, StmtKind};
use std::path::Path;

/// The methods of the program, found by class, name and descriptor as the JVM selects them for an
/// object of exactly the class asked about (`Object.<init>` does nothing).
struct Program(Vec<MethodIr>);

impl Callees for Program {
    fn code(&self, _kind: CallKind, method: &MethodRef, _class: &str) -> Option<MethodIr> {
        if method.class == "java/lang/Object" && method.name == "<init>" {
            let text = "method java/lang/Object.<init>:()V\n  vars this:ref\n  entry b0\n  proc b0(this; ) block @0\n    rule bc=1\n";
            return parse_program(text).ok()?.methods.pop();
        }
        self.0
            .iter()
            .find(|m| m.class == method.class && m.name == method.name && m.descriptor == method.descriptor)
            .cloned()
    }
}

fn program() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/scalars/Cursor.ir");
    let text = std::fs::read_to_string(&path).expect("read the fixture");
    Program(parse_program(&text).expect("the fixture parses").methods)
}

fn method(program: &Program, class: &str, name: &str) -> MethodIr {
    program
        .0
        .iter()
        .find(|m| m.class == class && m.name == name)
        .cloned()
        .expect("the fixture has the method")
}

/// Whether a statement of `ir` still reads, writes or calls an object's field or method.
fn touches_objects(ir: &MethodIr) -> bool {
    ir.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body).any(|s| {
        matches!(
            s.kind,
            StmtKind::GetField { .. } | StmtKind::PutField { .. } | StmtKind::Invoke { .. }
        )
    })
}

#[test]
fn a_cursor_the_method_keeps_becomes_its_fields() {
    let program = program();
    let mut walk = method(&program, "It", "walk");
    let loop_inputs = walk.procs.iter().find(|p| p.name == "loop11").map(|p| p.inputs.len());
    assert!(replace_fresh_objects(&mut walk, &program));
    assert!(verify_method(&walk).is_empty(), "{:?}", verify_method(&walk));
    // Live code no longer touches the object: every field access is a copy, every call a
    // procedure of the method (the copies of `hasNext` not called any more keep theirs).
    let header = walk.procs.iter().find(|p| p.name == "loop11").expect("the loop stays");
    assert_eq!(
        Some(header.inputs.len()),
        loop_inputs.map(|n| n + 2),
        "pos and size enter the loop"
    );
    let kinds = header.rules.iter().flat_map(|r| &r.body).map(|s| &s.kind);
    assert!(kinds
        .clone()
        .all(|k| !matches!(k, StmtKind::GetField { .. } | StmtKind::Invoke { .. })));
    // The test is split by its result: one rule per outcome of `hasNext()`, each calling the copy
    // that gives only that outcome.
    assert_eq!(header.rules.len(), 2);
    let calls = |rule: usize, suffix: &str| {
        header.rules[rule]
            .body
            .iter()
            .any(|s| matches!(&s.kind, StmtKind::Call { proc, .. } if walk.procs[proc.index()].name.contains(suffix)))
    };
    assert!(calls(0, ".is1") && calls(1, ".is0"));
    // The constructor's store of the size reaches the loop: the allocating rule passes the
    // fields' defaults (0, 0) to the copied constructor.
    let entry = &walk.procs[walk.entry.index()].rules[0].body;
    let passes_defaults = entry
        .iter()
        .any(|s| matches!(&s.kind, StmtKind::Call { args, .. } if args.ends_with(&[Operand::Int(0), Operand::Int(0)])))
        || entry.iter().any(|s| {
            matches!(
                &s.kind,
                StmtKind::Assign {
                    src: Operand::Int(0),
                    ..
                }
            )
        });
    assert!(passes_defaults);
}

#[test]
fn a_cursor_that_escapes_stays_an_object() {
    let program = program();
    let original = method(&program, "Esc", "walk");
    let mut walk = original.clone();
    assert!(!replace_fresh_objects(&mut walk, &program));
    assert_eq!(walk, original);
    assert!(touches_objects(&walk));
}

#[test]
fn a_call_without_code_to_copy_leaves_the_method_alone() {
    struct Nothing;
    impl Callees for Nothing {
        fn code(&self, _: CallKind, _: &MethodRef, _: &str) -> Option<MethodIr> {
            None
        }
    }
    let program = program();
    let original = method(&program, "It", "walk");
    let mut walk = original.clone();
    assert!(!replace_fresh_objects(&mut walk, &Nothing));
    assert_eq!(walk, original);
}
