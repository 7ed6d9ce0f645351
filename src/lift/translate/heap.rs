//! Fields, arrays, object and array creation, and what is done to objects as a whole (`athrow`,
//! `checkcast`, `instanceof`, monitors).

use super::insns::misrouted;
use super::state::{RuleBuilder, State};
use super::{Control, LiftError, Translator};
use crate::classfile::{self as cf, Insn};
use crate::lift::array_elem;
use crate::lift::frames::field_ty;
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// Static and instance field reads and writes.
    pub(super) fn field_access(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::GetStatic(field) => {
                let ty = field_ty(&field.descriptor, pc)?;
                let field = field_ref(field);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::GetStatic { dst, field })
            }
            Insn::PutStatic(field) => {
                let value = state.pop(pc)?.op;
                let kind = StmtKind::PutStatic {
                    field: field_ref(field),
                    value,
                };
                self.emit_throwing(ctx, rule, state, kind)
            }
            Insn::GetField(field) => {
                let object = state.pop(pc)?.op;
                let ty = field_ty(&field.descriptor, pc)?;
                let field = field_ref(field);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::GetField { dst, object, field })
            }
            Insn::PutField(field) => {
                let value = state.pop(pc)?.op;
                let object = state.pop(pc)?.op;
                let kind = StmtKind::PutField {
                    object,
                    field: field_ref(field),
                    value,
                };
                self.emit_throwing(ctx, rule, state, kind)
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    /// Array element reads and writes, and `arraylength`.
    pub(super) fn array_access(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::ArrayLoad(kind) => {
                let index = state.pop(pc)?.op;
                let array = state.pop(pc)?.op;
                let elem = array_elem(*kind);
                self.emit_value(ctx, rule, state, elem.value_ty(), |dst| StmtKind::ArrayLoad {
                    dst,
                    elem,
                    array,
                    index,
                })
            }
            Insn::ArrayStore(kind) => {
                let value = state.pop(pc)?.op;
                let index = state.pop(pc)?.op;
                let array = state.pop(pc)?.op;
                let kind = StmtKind::ArrayStore {
                    elem: array_elem(*kind),
                    array,
                    index,
                    value,
                };
                self.emit_throwing(ctx, rule, state, kind)
            }
            Insn::ArrayLength => {
                let array = state.pop(pc)?.op;
                self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::ArrayLength { dst, array })
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    /// Object and array creation: `new`, `newarray`, `anewarray`, `multianewarray`.
    pub(super) fn creation(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::New(class) => {
                let class = class.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::New { dst, class })
            }
            Insn::NewArray(prim) => {
                let length = state.pop(pc)?.op;
                let elem = prim_ty(*prim);
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewArray {
                    dst,
                    elem,
                    length,
                })
            }
            Insn::ANewArray(class) => {
                let length = state.pop(pc)?.op;
                let class = class.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewRefArray {
                    dst,
                    class,
                    length,
                })
            }
            Insn::MultiANewArray(descriptor, dims) => {
                let lengths = state.pop_n(usize::from(*dims), pc)?;
                let descriptor = descriptor.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewMultiArray {
                    dst,
                    descriptor,
                    lengths,
                })
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    /// What is done to an object as a whole: `athrow` (which ends the block), `checkcast`,
    /// `instanceof` and the monitors.
    pub(super) fn object(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<Option<Control>, LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::AThrow => {
                let value = state.pop(pc)?.op;
                self.emit_throwing(ctx, rule, state, StmtKind::Throw { value })?;
                return Ok(Some(Control::Thrown));
            }
            Insn::CheckCast(class) => {
                let value = state
                    .stack
                    .last()
                    .cloned()
                    .ok_or_else(|| LiftError::at(pc, "operand stack underflow"))?;
                let kind = StmtKind::CheckCast {
                    value: value.op,
                    class: class.clone(),
                };
                self.emit_throwing(ctx, rule, state, kind)?;
            }
            Insn::InstanceOf(class) => {
                let value = state.pop(pc)?.op;
                let class = class.clone();
                self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::InstanceOf {
                    dst,
                    value,
                    class,
                })?;
            }
            Insn::MonitorEnter | Insn::MonitorExit => {
                let value = state.pop(pc)?.op;
                let kind = if matches!(insn, Insn::MonitorEnter) {
                    StmtKind::MonitorEnter { value }
                } else {
                    StmtKind::MonitorExit { value }
                };
                self.emit_throwing(ctx, rule, state, kind)?;
            }
            _ => return Err(misrouted(pc, insn)),
        }
        Ok(None)
    }
}

fn prim_ty(prim: cf::PrimitiveType) -> PrimTy {
    match prim {
        cf::PrimitiveType::Boolean => PrimTy::Boolean,
        cf::PrimitiveType::Char => PrimTy::Char,
        cf::PrimitiveType::Float => PrimTy::Float,
        cf::PrimitiveType::Double => PrimTy::Double,
        cf::PrimitiveType::Byte => PrimTy::Byte,
        cf::PrimitiveType::Short => PrimTy::Short,
        cf::PrimitiveType::Int => PrimTy::Int,
        cf::PrimitiveType::Long => PrimTy::Long,
    }
}

fn field_ref(field: &cf::FieldRef) -> FieldRef {
    FieldRef {
        class: field.class.clone(),
        name: field.name.clone(),
        descriptor: field.descriptor.clone(),
    }
}
