//! Straight-line constructors copied into the rules that call them, for the analyses only.
//!
//! `new C(x, next)` runs `C.<init>` on a fresh object. A constructor that stores a reference it
//! is given (`this.next = next`) makes the new object one longer than that reference: the value
//! analysis relates the two when the store is in the caller's rule (a write into a fresh object,
//! `value::heap`), but a call only tells it that the receiver changed. This pass splices the code
//! of such a constructor into the calling rule, and so a loop that builds a list of `n` cells
//! gives a list of length at most `n`, which a later walk of it is bounded by.
//!
//! Invariants: the rewrite runs the same statements at the same rule costs (only the invocation of
//! the constructor is no longer a call, so the pass is for cost models that count no calls); it
//! splices only constructors whose code is one unguarded rule without handlers that does not
//! throw, at most `CONSTRUCTOR_STATEMENTS` statements each and `SPLICES` per method, each storing a
//! reference it is given into its receiver's fields itself or through a constructor it calls on
//! it; the call's handler edge goes to every spliced statement that can throw; a method that does
//! not verify afterwards is left exactly as it was.

use super::scalars::{splice_rule, At, Callees};
use super::{verify_method, CallKind, MethodIr, MethodRef, Operand, Procedure, StmtKind, VarDecl};

/// Statements of a constructor the pass splices.
pub const CONSTRUCTOR_STATEMENTS: usize = 24;

/// Constructor calls spliced per method (a super constructor's call counts as one more).
const SPLICES: usize = 64;

/// How deep the chain of constructors (a class's, its superclass's, ...) is searched for a store
/// of a reference.
const DEPTH: usize = 4;

/// Splices into `ir` the constructors that store references into the object they build; whether
/// anything changed.
pub fn splice_constructors(ir: &mut MethodIr, callees: &dyn Callees) -> bool {
    if !ir.procs.iter().any(|p| {
        p.rules
            .iter()
            .flat_map(|r| &r.body)
            .any(|s| constructor(&s.kind).is_some())
    }) {
        return false;
    }
    let mut candidate = ir.clone();
    let mut spliced = 0;
    for p in 0..candidate.procs.len() {
        for r in 0..candidate.procs[p].rules.len() {
            let mut k = 0;
            while k < candidate.procs[p].rules[r].body.len() && spliced < SPLICES {
                // A spliced constructor's own `super(...)` call is looked at next.
                if splice_at(&mut candidate, (p, r, k), callees).is_some() {
                    spliced += 1;
                } else {
                    k += 1;
                }
            }
        }
    }
    if spliced == 0 || !verify_method(&candidate).is_empty() {
        return false;
    }
    *ir = candidate;
    true
}

/// The constructor and arguments of an `invokespecial <init>`.
fn constructor(kind: &StmtKind) -> Option<(&MethodRef, &[Operand])> {
    match kind {
        StmtKind::Invoke {
            kind: CallKind::Special,
            method,
            args,
            dst: None,
            ..
        } if method.name == "<init>" && !args.is_empty() => Some((method, args)),
        _ => None,
    }
}

/// Splices the constructor called at `at` when it qualifies; the statements the call became.
fn splice_at(ir: &mut MethodIr, at: At, callees: &dyn Callees) -> Option<usize> {
    let (p, r, k) = at;
    let (method, args) = constructor(&ir.procs[p].rules[r].body[k].kind)?;
    let (method, args) = (method.clone(), args.to_vec());
    let (body, decls) = straight_code(callees, &method)?;
    if !stores_reference(callees, &body, DEPTH) {
        return None;
    }
    splice_rule(ir, at, (body, &decls), &args, &[])
}

/// The entry procedure of the constructor `method` (run on an object of exactly its class) when
/// its code is one unguarded rule of at most `CONSTRUCTOR_STATEMENTS` statements, without
/// handlers, that does not throw; with the declarations of its variables.
fn straight_code(callees: &dyn Callees, method: &MethodRef) -> Option<(Procedure, Vec<VarDecl>)> {
    let code = callees.code(CallKind::Special, method, &method.class)?;
    if code.procs.len() != 1 || !code.ghosts.is_empty() || code.heap_entry.is_some() {
        return None;
    }
    let entry = code.procs.into_iter().next()?;
    let straight = match entry.rules.as_slice() {
        [rule] => {
            let throws = matches!(rule.body.last().map(|s| &s.kind), Some(StmtKind::Throw { .. }));
            let plain = rule.guard.is_empty() && rule.body.iter().all(|s| s.handler.is_none());
            plain && !throws && rule.body.len() <= CONSTRUCTOR_STATEMENTS
        }
        _ => false,
    };
    straight.then_some((entry, code.vars))
}

/// Whether the constructor whose entry is `body` stores a reference it is given into a field of
/// its receiver, itself or through a constructor it calls on it (within `depth` constructors).
fn stores_reference(callees: &dyn Callees, body: &Procedure, depth: usize) -> bool {
    let Some((&receiver, given)) = body.inputs.split_first() else {
        return false;
    };
    let on_receiver = |o: &Operand| o.as_var() == Some(receiver);
    body.rules[0].body.iter().any(|s| match &s.kind {
        StmtKind::PutField { object, field, value } => {
            let reference = field.descriptor.starts_with('L') || field.descriptor.starts_with('[');
            on_receiver(object) && reference && value.as_var().is_some_and(|v| given.contains(&v))
        }
        kind => constructor(kind).is_some_and(|(method, args)| {
            depth > 1
                && on_receiver(&args[0])
                && straight_code(callees, method).is_some_and(|(code, _)| stores_reference(callees, &code, depth - 1))
        }),
    })
}
