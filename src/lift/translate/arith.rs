//! Arithmetic, conversions and the comparisons that push a value.

use super::insns::misrouted;
use super::state::{RuleBuilder, State};
use super::{LiftError, Translator};
use crate::classfile::{ArithOp, Insn};
use crate::lift::frames::ty_of_kind;
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// Binary arithmetic and negation.
    pub(super) fn arithmetic(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::Arith(kind, op) => {
                let rhs = state.pop(pc)?.op;
                let lhs = state.pop(pc)?.op;
                let ty = ty_of_kind(*kind);
                let op = arith_op(*op);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::Binary { dst, op, ty, lhs, rhs })
            }
            Insn::Neg(kind) => {
                let src = state.pop(pc)?.op;
                let ty = ty_of_kind(*kind);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::Unary {
                    dst,
                    op: UnOp::Neg,
                    from: ty,
                    src,
                })
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    /// Conversions between primitive types, and the narrowing of ints to bytes, chars and shorts.
    pub(super) fn conversion(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        let (op, from, to) = match insn {
            Insn::Convert(from, to) => (UnOp::Convert, ty_of_kind(*from), ty_of_kind(*to)),
            Insn::IntToByte => (UnOp::IntToByte, Ty::Int, Ty::Int),
            Insn::IntToChar => (UnOp::IntToChar, Ty::Int, Ty::Int),
            Insn::IntToShort => (UnOp::IntToShort, Ty::Int, Ty::Int),
            _ => return Err(misrouted(pc, insn)),
        };
        let src = state.pop(pc)?.op;
        self.emit_value(ctx, rule, state, to, |dst| StmtKind::Unary { dst, op, from, src })
    }

    /// The comparisons that push -1, 0 or 1: `lcmp`, `fcmpl`/`fcmpg`, `dcmpl`/`dcmpg`.
    pub(super) fn comparison(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        let nan_op = |nan_is_greater: bool| if nan_is_greater { BinOp::CmpG } else { BinOp::CmpL };
        let (op, ty) = match insn {
            Insn::LCmp => (BinOp::Cmp, Ty::Long),
            Insn::FCmp { nan_is_greater } => (nan_op(*nan_is_greater), Ty::Float),
            Insn::DCmp { nan_is_greater } => (nan_op(*nan_is_greater), Ty::Double),
            _ => return Err(misrouted(pc, insn)),
        };
        let rhs = state.pop(pc)?.op;
        let lhs = state.pop(pc)?.op;
        self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::Binary {
            dst,
            op,
            ty,
            lhs,
            rhs,
        })
    }
}

fn arith_op(op: ArithOp) -> BinOp {
    match op {
        ArithOp::Add => BinOp::Add,
        ArithOp::Sub => BinOp::Sub,
        ArithOp::Mul => BinOp::Mul,
        ArithOp::Div => BinOp::Div,
        ArithOp::Rem => BinOp::Rem,
        ArithOp::And => BinOp::And,
        ArithOp::Or => BinOp::Or,
        ArithOp::Xor => BinOp::Xor,
        ArithOp::Shl => BinOp::Shl,
        ArithOp::Shr => BinOp::Shr,
        ArithOp::Ushr => BinOp::Ushr,
    }
}
