//! The simulated state of a rule under translation: values (an operand and its type), the
//! locals and operand stack, and the rule being built.

use super::LiftError;
use crate::lift::frames::{is_wide, StackValue};
use jresa_analyses::ir::*;
use std::collections::HashMap;

/// A simulated value: an operand and its type.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Val {
    pub(super) op: Operand,
    pub(super) ty: Ty,
}

impl StackValue for Val {
    fn wide(&self) -> bool {
        is_wide(self.ty)
    }
}

/// The simulated locals and operand stack at one point of a rule.
#[derive(Clone, Debug)]
pub(super) struct State {
    pub(super) locals: Vec<Option<Val>>,
    pub(super) stack: Vec<Val>,
}

impl State {
    pub(super) fn pop(&mut self, pc: u32) -> Result<Val, LiftError> {
        self.stack
            .pop()
            .ok_or_else(|| LiftError::at(pc, "operand stack underflow"))
    }

    pub(super) fn pop_n(&mut self, n: usize, pc: u32) -> Result<Vec<Operand>, LiftError> {
        if self.stack.len() < n {
            return Err(LiftError::at(pc, "operand stack underflow"));
        }
        Ok(self
            .stack
            .split_off(self.stack.len() - n)
            .into_iter()
            .map(|v| v.op)
            .collect())
    }

    pub(super) fn set_local(&mut self, slot: usize, value: Val) {
        if slot > 0 && self.locals[slot - 1].as_ref().is_some_and(|v| v.wide()) {
            self.locals[slot - 1] = None;
        }
        if value.wide() && slot + 1 < self.locals.len() {
            self.locals[slot + 1] = None;
        }
        self.locals[slot] = Some(value);
    }

    /// Whether any local or stack entry refers to `var`.
    pub(super) fn mentions(&self, var: VarId) -> bool {
        let is_var = |v: &Val| v.op == Operand::Var(var);
        self.stack.iter().any(is_var) || self.locals.iter().flatten().any(is_var)
    }
}

/// A rule under construction.
#[derive(Clone)]
pub(super) struct RuleBuilder {
    pub(super) guard: Vec<Cond>,
    pub(super) body: Vec<Stmt>,
    pub(super) bytecodes: u32,
    pub(super) pc: u32,
    pub(super) versions: HashMap<VarId, u32>,
    pub(super) temps: u32,
}

impl RuleBuilder {
    pub(super) fn new(pc: u32) -> Self {
        RuleBuilder {
            guard: Vec::new(),
            body: Vec::new(),
            bytecodes: 0,
            pc,
            versions: HashMap::new(),
            temps: 0,
        }
    }

    pub(super) fn push(&mut self, kind: StmtKind, handler: Option<HandlerEdge>) {
        self.body.push(Stmt {
            pc: self.pc,
            bytecodes: self.bytecodes,
            kind,
            handler,
        });
    }

    pub(super) fn finish(self) -> Rule {
        Rule {
            guard: self.guard,
            body: self.body,
            bytecodes: self.bytecodes,
        }
    }
}

pub(super) fn default_operand(ty: Ty) -> Operand {
    match ty {
        Ty::Int => Operand::Int(0),
        Ty::Long => Operand::Long(0),
        Ty::Float => Operand::Float(0),
        Ty::Double => Operand::Double(0),
        Ty::Ref => Operand::Null,
    }
}
