//! The numeric fields of a method's parameters' objects at entry, made inputs of the method's
//! code for the analyses (`int drain() { while (this.left > 0) this.left--; }` is bounded by
//! `this.left`, the value the field holds when the method is called).
//!
//! The method's entry procedure `E` gets a wrapper `W` as the new entry, with the same inputs and
//! outputs: `W` reads every numeric field the method reads, from every reference parameter, then
//! calls `E`. `reloads.rs` then makes those reads available in `E` and in the procedures `E`
//! reaches before anything may write the field (a store of a field of that name, a call, a
//! monitor operation): there a read of the field through the parameter's object becomes a copy of
//! `E`'s added input, and a loop entered through that object starts its ghost (`ghosts.rs`) from
//! it. Last, each read of `W` that `E` receives becomes a read of no known origin (a read of
//! [`GHOST_CLASS`]: no exception, no cost) and the others are dropped; when `E` receives none, the
//! method is left as plain `reloads.rs` leaves it.
//!
//! Callers see `W`, whose fields are unknown: what `W` costs is what the method costs for every
//! value of the fields. `E`, recorded in `MethodIr::heap_entry`, costs what the method costs
//! when the fields hold its added inputs at entry, which the report states in their names
//! (`this.left`).
//!
//! Invariants: `W` has one rule, its reads first (no exception, nothing counted by any cost
//! model) and then the call of `E`, which passes `W`'s inputs unchanged and then the values `E`
//! receives; `heap_entry.fields` lists, per added input of `E`, the parameter and field it holds.

use super::ghosts::{new_var, GHOST_CLASS};
use super::reloads::{self, HeldFields};
use super::{FieldRef, HeapEntry, MethodIr, Operand, ProcId, ProcKind, Procedure, Rule, Stmt, StmtKind, Ty, VarId};
use std::collections::BTreeSet;

/// Runs `reloads.rs` on the method, with the fields of its parameters' objects at entry as inputs
/// of its code where some read or loop uses them (see the module's doc).
pub fn reuse_reads_with_entry_fields(ir: &mut MethodIr) -> HeldFields {
    if !may_rewrite(ir) {
        return reloads::reuse_repeated_reads(ir);
    }
    let plain = ir.clone();
    if wrap(ir).is_none() {
        return reloads::reuse_repeated_reads(ir);
    }
    let held = reloads::reuse_repeated_reads(ir);
    if unwrap_reads(ir).is_none() {
        *ir = plain;
        return reloads::reuse_repeated_reads(ir);
    }
    held
}

/// The numeric fields the method reads, by name and descriptor (with the first class naming
/// each).
fn numeric_fields_read(ir: &MethodIr) -> Vec<FieldRef> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for stmt in ir.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body) {
        if let StmtKind::GetField { field, .. } = &stmt.kind {
            let numeric = matches!(Ty::from_descriptor(&field.descriptor), Some(Ty::Int | Ty::Long));
            if numeric && seen.insert((field.name.clone(), field.descriptor.clone())) {
                out.push(field.clone());
            }
        }
    }
    out
}

/// Whether the passes for the analyses (this one, and `ghosts.rs`) may leave the method other
/// than `reloads.rs` alone does: it has a loop or allocates an array (a method with neither costs
/// the same for every value of the fields, and has no loop to ghost).
pub fn may_rewrite(ir: &MethodIr) -> bool {
    let allocates = |kind: &StmtKind| {
        matches!(
            kind,
            StmtKind::NewArray { .. } | StmtKind::NewRefArray { .. } | StmtKind::NewMultiArray { .. }
        )
    };
    ir.procs
        .iter()
        .any(|p| p.kind == ProcKind::Loop || p.rules.iter().flat_map(|r| &r.body).any(|s| allocates(&s.kind)))
}

/// Makes `W` the entry: it reads each field from each reference parameter and calls `E`. `None`
/// (the method unchanged) when there is nothing to read.
fn wrap(ir: &mut MethodIr) -> Option<()> {
    let fields = numeric_fields_read(ir);
    let entry = ir.entry;
    let inputs = ir.proc(entry).inputs.clone();
    let objects: Vec<VarId> = inputs.iter().copied().filter(|v| ir.var(*v).ty == Ty::Ref).collect();
    if fields.is_empty() || objects.is_empty() {
        return None;
    }
    let (pc, outputs) = (ir.proc(entry).pc, ir.proc(entry).outputs.clone());
    let mut body = Vec::new();
    for &object in &objects {
        for field in &fields {
            let ty = Ty::from_descriptor(&field.descriptor).unwrap_or(Ty::Int);
            let dst = new_var(ir, format!("{}.{}.entry", ir.var(object).name, field.name), ty);
            body.push(plain_stmt(
                pc,
                StmtKind::GetField {
                    dst,
                    object: Operand::Var(object),
                    field: field.clone(),
                },
            ));
        }
    }
    let outs = outputs.clone();
    let args = inputs.iter().map(|v| Operand::Var(*v)).collect();
    body.push(plain_stmt(
        pc,
        StmtKind::Call {
            proc: entry,
            args,
            outs,
        },
    ));
    ir.procs.push(Procedure {
        name: format!("{}.fields", ir.proc(entry).name),
        kind: ProcKind::Entry,
        pc,
        inputs,
        outputs,
        rules: vec![Rule {
            guard: Vec::new(),
            body,
            bytecodes: 0,
        }],
    });
    ir.entry = ProcId::from_index(ir.procs.len() - 1);
    Some(())
}

fn plain_stmt(pc: u32, kind: StmtKind) -> Stmt {
    Stmt {
        pc,
        bytecodes: 0,
        kind,
        handler: None,
    }
}

/// After `reloads.rs`: keeps the reads of `W` that its call of `E` passes, as reads of no known
/// origin, and records `E` as the method's heap entry. `None` when the call passes none.
fn unwrap_reads(ir: &mut MethodIr) -> Option<()> {
    let wrapper = ir.entry.index();
    let body = std::mem::take(&mut ir.procs[wrapper].rules[0].body);
    let (call, reads) = body.split_last()?;
    let StmtKind::Call { proc: inner, args, .. } = &call.kind else {
        return None;
    };
    let own = ir.procs[wrapper].inputs.len();
    let mut kept = Vec::new();
    let mut fields = Vec::new();
    for arg in &args[own..] {
        let read = reads
            .iter()
            .find(|s| matches!(&s.kind, StmtKind::GetField { dst, .. } if Operand::Var(*dst) == *arg))?;
        let StmtKind::GetField {
            dst,
            object: Operand::Var(object),
            field,
        } = &read.kind
        else {
            return None;
        };
        let parameter = ir.procs[wrapper].inputs.iter().position(|v| v == object)?;
        fields.push((parameter, field.name.clone()));
        let name = format!("{}.{}", super::source_name(&ir.var(*object).name), field.name);
        kept.push(plain_stmt(
            read.pc,
            StmtKind::GetStatic {
                dst: *dst,
                field: FieldRef {
                    class: GHOST_CLASS.to_owned(),
                    name,
                    descriptor: field.descriptor.clone(),
                },
            },
        ));
    }
    if fields.is_empty() {
        return None;
    }
    let inner = *inner;
    kept.push(call.clone());
    ir.procs[wrapper].rules[0].body = kept;
    ir.heap_entry = Some(HeapEntry { inner, fields });
    Some(())
}
