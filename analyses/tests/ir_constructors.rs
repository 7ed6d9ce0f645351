//! Constructors spliced into their callers (`ir::constructors`), on the IR of
//! `tests/data/constructors/Cells.ir`: `Build.make` builds a `Tagged` cell (whose constructor
//! stores the link through `super(...)`) inside a `try`, `Build.plain` an object whose constructor
//! stores only a number.

use jresa_analyses::ir::constructors::splice_constructors;
use jresa_analyses::ir::scalars::Callees;
use jresa_analyses::ir::{parse_program, verify_method, CallKind, MethodIr, MethodRef, Operand, StmtKind};
use std::path::Path;

/// The methods of the program by class, name and descriptor.
struct Program(Vec<MethodIr>);

impl Callees for Program {
    fn code(&self, _kind: CallKind, method: &MethodRef, _class: &str) -> Option<MethodIr> {
        self.0
            .iter()
            .find(|m| m.class == method.class && m.name == method.name && m.descriptor == method.descriptor)
            .cloned()
    }
}

fn program() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/constructors/Cells.ir");
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

#[test]
fn a_constructor_that_stores_a_link_runs_in_its_callers_rule() {
    let program = program();
    let mut make = method(&program, "Build", "make");
    assert!(splice_constructors(&mut make, &program));
    assert!(verify_method(&make).is_empty(), "{:?}", verify_method(&make));
    let rule = &make.procs[make.entry.index()].rules[0];
    // The caller's 7 bytecodes, `Tagged.<init>`'s 8 and `Cell.<init>`'s 9.
    assert_eq!(rule.bytecodes, 24);
    let constructors: Vec<&str> = rule
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Invoke { method, .. } => Some(method.class.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(constructors, ["java/lang/Object"], "both constructors are spliced");
    let object = rule.body.iter().find_map(|s| match &s.kind {
        StmtKind::New { dst, .. } => Some(Operand::Var(*dst)),
        _ => None,
    });
    let link = rule.body.iter().find(|s| {
        matches!(&s.kind, StmtKind::PutField { field, object: o, value }
            if field.name == "next" && Some(o) == object.as_ref() && *value == Operand::Var(make.procs[make.entry.index()].inputs[1]))
    });
    let link = link.expect("the new cell's link is the method's argument, stored in its own rule");
    // Bytecodes up to the store: the call's 6, `Tagged.<init>`'s 4 up to its call, `Cell.<init>`'s 8.
    assert_eq!(link.bytecodes, 18);
    assert!(
        link.handler.is_some(),
        "an exception the store raises still reaches the handler"
    );
    let tag = rule
        .body
        .iter()
        .find(|s| matches!(&s.kind, StmtKind::PutField { field, .. } if field.name == "tag"))
        .expect("the subclass's own store follows");
    assert_eq!(tag.bytecodes, 6 + 7 + 9);
}

#[test]
fn a_constructor_that_stores_only_numbers_stays_a_call() {
    let program = program();
    let mut plain = method(&program, "Build", "plain");
    let before = plain.clone();
    assert!(!splice_constructors(&mut plain, &program));
    assert_eq!(plain, before);
}
