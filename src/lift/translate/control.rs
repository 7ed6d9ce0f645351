//! The instructions that end a block: branches, switches, `goto` and returns.

use super::insns::misrouted;
use super::state::{RuleBuilder, State, Val};
use super::{Control, LiftError, Translator};
use crate::classfile::{self as cf, Insn};
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// The instructions that end a block: conditional branches (`lcmp` before `if<cond>` fused
    /// into a guard on the two longs), `goto`, switches and returns. `jsr`/`ret` are refused.
    pub(super) fn control(&self, rule: &mut RuleBuilder, state: &mut State, insn: &Insn) -> Result<Control, LiftError> {
        let pc = rule.pc;
        let branch = |cond: Cond, taken: u32| -> Result<Control, LiftError> {
            Ok(Control::If {
                cond,
                taken,
                fallthrough: self.next_pc(pc)?,
            })
        };
        match insn {
            Insn::IfZero(condition, target) => {
                let value = state.pop(pc)?;
                let op = cmp_op(*condition);
                let cond = self.fuse_long_compare(rule, state, &value, op).unwrap_or(Cond::Cmp {
                    op,
                    lhs: value.op,
                    rhs: Operand::Int(0),
                });
                branch(cond, *target)
            }
            Insn::IfICmp(condition, target) | Insn::IfACmp(condition, target) => {
                let rhs = state.pop(pc)?.op;
                let lhs = state.pop(pc)?.op;
                let cond = Cond::Cmp {
                    op: cmp_op(*condition),
                    lhs,
                    rhs,
                };
                branch(cond, *target)
            }
            Insn::IfNull(target) | Insn::IfNonNull(target) => {
                let value = state.pop(pc)?.op;
                let op = if matches!(insn, Insn::IfNull(_)) {
                    CmpOp::Eq
                } else {
                    CmpOp::Ne
                };
                let cond = Cond::Cmp {
                    op,
                    lhs: value,
                    rhs: Operand::Null,
                };
                branch(cond, *target)
            }
            Insn::Goto(target) => Ok(Control::Goto(*target)),
            Insn::Jsr(_) | Insn::Ret(_) => Err(LiftError::at(pc, "jsr/ret subroutines are not supported")),
            Insn::TableSwitch {
                default, low, targets, ..
            } => {
                let value = state.pop(pc)?.op;
                let cases = targets
                    .iter()
                    .enumerate()
                    .map(|(k, t)| Ok((low.checked_add(i32::try_from(k).map_err(|_| ())?).ok_or(())?, *t)))
                    .collect::<Result<Vec<_>, ()>>()
                    .map_err(|_| LiftError::at(pc, "tableswitch range overflows"))?;
                Ok(Control::Switch {
                    value,
                    cases,
                    default: *default,
                })
            }
            Insn::LookupSwitch { default, pairs } => {
                let value = state.pop(pc)?.op;
                Ok(Control::Switch {
                    value,
                    cases: pairs.clone(),
                    default: *default,
                })
            }
            Insn::Return(kind) => {
                let value = match kind {
                    Some(_) => Some(state.pop(pc)?.op),
                    None => None,
                };
                Ok(Control::Return(value))
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    /// Turns `lcmp; if<cond>` into the guard `a <cond> b` when the comparison result is used only there.
    pub(super) fn fuse_long_compare(
        &self,
        rule: &mut RuleBuilder,
        state: &State,
        value: &Val,
        op: CmpOp,
    ) -> Option<Cond> {
        let Operand::Var(result) = value.op else {
            return None;
        };
        let last = rule.body.last()?;
        let StmtKind::Binary {
            dst,
            op: BinOp::Cmp,
            ty: Ty::Long,
            lhs,
            rhs,
        } = &last.kind
        else {
            return None;
        };
        if *dst != result || state.mentions(result) {
            return None;
        }
        let cond = Cond::Cmp {
            op,
            lhs: lhs.clone(),
            rhs: rhs.clone(),
        };
        rule.body.pop();
        Some(cond)
    }
}

fn cmp_op(condition: cf::Condition) -> CmpOp {
    match condition {
        cf::Condition::Eq => CmpOp::Eq,
        cf::Condition::Ne => CmpOp::Ne,
        cf::Condition::Lt => CmpOp::Lt,
        cf::Condition::Ge => CmpOp::Ge,
        cf::Condition::Gt => CmpOp::Gt,
        cf::Condition::Le => CmpOp::Le,
    }
}
