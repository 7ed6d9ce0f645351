//! Constants, loads and stores of locals, and `iinc`.

use super::insns::misrouted;
use super::state::{RuleBuilder, State, Val};
use super::{LiftError, Translator};
use crate::classfile::{Constant, Insn};
use crate::lift::frames::{constant_ty, ty_of_kind};
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// Constants: `aconst_null`, `iconst`, `lconst`, `fconst`, `dconst` and `ldc` push operands;
    /// constants without an operand form (method types and handles, dynamic constants) are loaded
    /// by a statement.
    pub(super) fn constant(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        let (op, ty) = match insn {
            Insn::AConstNull => (Operand::Null, Ty::Ref),
            Insn::IConst(n) => (Operand::Int(*n), Ty::Int),
            Insn::LConst(n) => (Operand::Long(*n), Ty::Long),
            Insn::FConst(x) => (Operand::Float(x.to_bits()), Ty::Float),
            Insn::DConst(x) => (Operand::Double(x.to_bits()), Ty::Double),
            Insn::Ldc(constant) => {
                let ty = constant_ty(constant).ok_or_else(|| LiftError::at(pc, "malformed dynamic constant"))?;
                let operand = match constant {
                    Constant::Int(n) => Operand::Int(*n),
                    Constant::Float(x) => Operand::Float(x.to_bits()),
                    Constant::Long(n) => Operand::Long(*n),
                    Constant::Double(x) => Operand::Double(x.to_bits()),
                    Constant::String(s) => Operand::Str(s.clone()),
                    Constant::Class(c) => Operand::Class(c.clone()),
                    Constant::MethodType(d) => {
                        let value = OpaqueConst::MethodType(d.clone());
                        return self.emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value });
                    }
                    Constant::MethodHandle(h) => {
                        let value = OpaqueConst::MethodHandle(h.clone());
                        return self.emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value });
                    }
                    Constant::Dynamic { name, descriptor } => {
                        let value = OpaqueConst::Dynamic {
                            name: name.clone(),
                            descriptor: descriptor.clone(),
                        };
                        return self.emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value });
                    }
                };
                (operand, ty)
            }
            _ => return Err(misrouted(pc, insn)),
        };
        state.stack.push(Val { op, ty });
        Ok(())
    }

    /// Loads and stores of locals, and `iinc`: loads and stores move simulated values (a stored
    /// temporary is renamed after the local); `iinc` emits an addition into a new version.
    pub(super) fn local(&mut self, rule: &mut RuleBuilder, state: &mut State, insn: &Insn) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::Load(kind, slot) => {
                let ty = ty_of_kind(*kind);
                let value = state
                    .locals
                    .get(usize::from(*slot))
                    .cloned()
                    .flatten()
                    .filter(|v| v.ty == ty);
                let value = value.ok_or_else(|| {
                    LiftError::at(pc, format!("load of local {slot}, which holds no {}", ty.keyword()))
                })?;
                state.stack.push(value);
            }
            Insn::Store(kind, slot) => {
                let ty = ty_of_kind(*kind);
                let value = state.pop(pc)?;
                if value.ty != ty || usize::from(*slot) >= state.locals.len() {
                    return Err(LiftError::at(pc, format!("ill-typed store to local {slot}")));
                }
                let value = self.name_stored_value(rule, state, value, *slot);
                state.set_local(usize::from(*slot), value);
            }
            Insn::IInc(slot, delta) => {
                let current = state
                    .locals
                    .get(usize::from(*slot))
                    .cloned()
                    .flatten()
                    .filter(|v| v.ty == Ty::Int);
                let current =
                    current.ok_or_else(|| LiftError::at(pc, format!("iinc of local {slot}, which holds no int")))?;
                let dst = self.version(rule, *slot, Ty::Int);
                rule.push(
                    StmtKind::Binary {
                        dst,
                        op: BinOp::Add,
                        ty: Ty::Int,
                        lhs: current.op,
                        rhs: Operand::Int(*delta),
                    },
                    None,
                );
                state.set_local(
                    usize::from(*slot),
                    Val {
                        op: Operand::Var(dst),
                        ty: Ty::Int,
                    },
                );
            }
            _ => return Err(misrouted(pc, insn)),
        }
        Ok(())
    }

    /// When the value stored into `slot` is a temporary just defined by the rule's last statement and
    /// used nowhere else, renames that definition to a new version of the local, for readability.
    pub(super) fn name_stored_value(&mut self, rule: &mut RuleBuilder, state: &State, value: Val, slot: u16) -> Val {
        let Operand::Var(temp) = value.op else {
            return value;
        };
        let is_last_def = rule.body.last().is_some_and(|s| s.kind.defs() == [temp]);
        let is_temp = rule
            .body
            .last()
            .is_some_and(|s| !matches!(s.kind, StmtKind::Call { .. }));
        if !is_last_def
            || !is_temp
            || state.mentions(temp)
            || rule.body.len() > 1 && uses_var(&rule.body[..rule.body.len() - 1], temp)
        {
            return value;
        }
        let version = self.version(rule, slot, value.ty);
        if let Some(last) = rule.body.last_mut() {
            rename_def(&mut last.kind, temp, version);
        }
        Val {
            op: Operand::Var(version),
            ty: value.ty,
        }
    }
}

fn uses_var(stmts: &[Stmt], var: VarId) -> bool {
    stmts.iter().any(|s| {
        s.kind.uses().iter().any(|o| **o == Operand::Var(var))
            || s.handler.as_ref().is_some_and(|h| h.args.contains(&Operand::Var(var)))
    })
}

fn rename_def(kind: &mut StmtKind, from: VarId, to: VarId) {
    let slot = match kind {
        StmtKind::Assign { dst, .. }
        | StmtKind::Binary { dst, .. }
        | StmtKind::Unary { dst, .. }
        | StmtKind::GetField { dst, .. }
        | StmtKind::GetStatic { dst, .. }
        | StmtKind::ArrayLoad { dst, .. }
        | StmtKind::ArrayLength { dst, .. }
        | StmtKind::New { dst, .. }
        | StmtKind::NewArray { dst, .. }
        | StmtKind::NewRefArray { dst, .. }
        | StmtKind::NewMultiArray { dst, .. }
        | StmtKind::InstanceOf { dst, .. }
        | StmtKind::Concat { dst, .. }
        | StmtKind::LoadConst { dst, .. } => Some(dst),
        StmtKind::Invoke { dst, .. } | StmtKind::InvokeDynamic { dst, .. } => dst.as_mut(),
        StmtKind::PutField { .. }
        | StmtKind::PutStatic { .. }
        | StmtKind::ArrayStore { .. }
        | StmtKind::Call { .. }
        | StmtKind::CheckCast { .. }
        | StmtKind::MonitorEnter { .. }
        | StmtKind::MonitorExit { .. }
        | StmtKind::Throw { .. } => None,
    };
    if let Some(dst) = slot {
        if *dst == from {
            *dst = to;
        }
    }
}
