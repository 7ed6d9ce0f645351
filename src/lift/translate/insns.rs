//! One instruction at a time: `step` hands each instruction to the function of its family (in
//! the sibling modules) and emits statements through `emit_throwing` and `emit_value`.

use super::state::{RuleBuilder, State, Val};
use super::{Control, LiftError, Translator};
use crate::classfile::Insn;
use crate::lift::frames::shuffle_stack;
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// Emits a statement that may throw, with its handler edge when a handler covers it.
    pub(super) fn emit_throwing(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &State,
        kind: StmtKind,
    ) -> Result<(), LiftError> {
        let handler = if kind.can_throw() {
            self.handler_edge(ctx, rule, state)?
        } else {
            None
        };
        rule.push(kind, handler);
        Ok(())
    }

    /// Emits `kind` whose result goes to a fresh temporary, and pushes it.
    pub(super) fn emit_value(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        ty: Ty,
        make: impl FnOnce(VarId) -> StmtKind,
    ) -> Result<(), LiftError> {
        let dst = self.temp(rule, ty);
        self.emit_throwing(ctx, rule, state, make(dst))?;
        state.stack.push(Val {
            op: Operand::Var(dst),
            ty,
        });
        Ok(())
    }

    /// Simulates one instruction: stack shuffles, loads and stores change only the simulated
    /// state; other instructions emit their statement (with a handler edge when one covers it);
    /// the last instruction of a block says how control leaves it.
    pub(super) fn step(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<Option<Control>, LiftError> {
        let pc = rule.pc;
        if shuffle_stack(insn, &mut state.stack, pc)? {
            return Ok(None);
        }
        match insn {
            Insn::Nop => {}
            Insn::AConstNull | Insn::IConst(_) | Insn::LConst(_) | Insn::FConst(_) | Insn::DConst(_) | Insn::Ldc(_) => {
                self.constant(ctx, rule, state, insn)?;
            }
            Insn::Load(..) | Insn::Store(..) | Insn::IInc(..) => self.local(rule, state, insn)?,
            Insn::Arith(..) | Insn::Neg(_) => self.arithmetic(ctx, rule, state, insn)?,
            Insn::Convert(..) | Insn::IntToByte | Insn::IntToChar | Insn::IntToShort => {
                self.conversion(ctx, rule, state, insn)?;
            }
            Insn::LCmp | Insn::FCmp { .. } | Insn::DCmp { .. } => self.comparison(ctx, rule, state, insn)?,
            Insn::IfZero(..)
            | Insn::IfICmp(..)
            | Insn::IfACmp(..)
            | Insn::IfNull(_)
            | Insn::IfNonNull(_)
            | Insn::Goto(_)
            | Insn::Jsr(_)
            | Insn::Ret(_)
            | Insn::TableSwitch { .. }
            | Insn::LookupSwitch { .. }
            | Insn::Return(_) => return self.control(rule, state, insn).map(Some),
            Insn::GetStatic(_) | Insn::PutStatic(_) | Insn::GetField(_) | Insn::PutField(_) => {
                self.field_access(ctx, rule, state, insn)?;
            }
            Insn::ArrayLoad(_) | Insn::ArrayStore(_) | Insn::ArrayLength => {
                self.array_access(ctx, rule, state, insn)?
            }
            Insn::Invoke(..) | Insn::InvokeDynamic { .. } => self.invocation(ctx, rule, state, insn)?,
            Insn::New(_) | Insn::NewArray(_) | Insn::ANewArray(_) | Insn::MultiANewArray(..) => {
                self.creation(ctx, rule, state, insn)?;
            }
            Insn::AThrow | Insn::CheckCast(_) | Insn::InstanceOf(_) | Insn::MonitorEnter | Insn::MonitorExit => {
                return self.object(ctx, rule, state, insn);
            }
            Insn::Pop
            | Insn::Pop2
            | Insn::Dup
            | Insn::DupX1
            | Insn::DupX2
            | Insn::Dup2
            | Insn::Dup2X1
            | Insn::Dup2X2
            | Insn::Swap => return Err(misrouted(pc, insn)),
        }
        Ok(None)
    }

    pub(super) fn next_pc(&self, pc: u32) -> Result<u32, LiftError> {
        let index = self.code.instructions.partition_point(|i| i.pc <= pc);
        self.code
            .instructions
            .get(index)
            .map(|i| i.pc)
            .ok_or_else(|| LiftError::at(pc, "branch falls off the end of the code"))
    }
}

/// The error of an instruction handed to a family it does not belong to (a bug in the dispatch of
/// `step`, reported rather than a panic).
pub(super) fn misrouted(pc: u32, insn: &Insn) -> LiftError {
    LiftError::at(pc, format!("internal error: {insn:?} reached the wrong translation"))
}
