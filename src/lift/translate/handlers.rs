//! Exception handlers: the handler edge of a statement that can throw inside a `try`, and the
//! handler procedures (shared per loop context and list of handlers) whose rules test
//! `instanceof` in exception-table order and rethrow when nothing matches.

use super::state::{default_operand, RuleBuilder, State, Val};
use super::{LiftError, Target, Translator};
use crate::lift::names::{TyKey, VarKey};
use jresa_analyses::ir::*;
use std::collections::{BTreeSet, HashMap};

impl Translator<'_> {
    /// The handlers covering `pc` in exception-table order, up to the first catch-all.
    pub(super) fn handler_list(&self, pc: u32) -> Result<Vec<(Option<String>, usize)>, LiftError> {
        let mut list = Vec::new();
        for handler in &self.code.exception_table {
            if handler.start <= pc && pc < handler.end {
                list.push((handler.catch_type.clone(), self.block_at(handler.handler)?));
                if handler.catch_type.is_none() {
                    break;
                }
            }
        }
        Ok(list)
    }

    /// The handler edge of a throwing statement at the rule's current pc, if a handler covers it.
    pub(super) fn handler_edge(
        &mut self,
        ctx: Option<usize>,
        rule: &RuleBuilder,
        state: &State,
    ) -> Result<Option<HandlerEdge>, LiftError> {
        let list = self.handler_list(rule.pc)?;
        if list.is_empty() {
            return Ok(None);
        }
        let key = (ctx, list);
        let (proc, slots): (ProcId, Vec<(u16, Ty)>) = match self.handler_procs.get(&key) {
            Some(found) => found.clone(),
            None => {
                let built = self.build_handler_proc(ctx, &key.1)?;
                self.handler_procs.insert(key, built.clone());
                built
            }
        };
        let args = slots
            .iter()
            .map(|&(slot, ty)| {
                state
                    .locals
                    .get(usize::from(slot))
                    .cloned()
                    .flatten()
                    .filter(|v| v.ty == ty)
                    .map(|v| v.op)
                    // Typed otherwise here: only handlers that never read it as `ty` use this input.
                    .unwrap_or_else(|| default_operand(ty))
            })
            .collect();
        Ok(Some(HandlerEdge { proc, args }))
    }

    pub(super) fn build_handler_proc(
        &mut self,
        ctx: Option<usize>,
        list: &[(Option<String>, usize)],
    ) -> Result<(ProcId, Vec<(u16, Ty)>), LiftError> {
        let mut slots: BTreeSet<(u16, TyKey)> = BTreeSet::new();
        for (_, h) in list {
            for (slot, ty) in self.live_slots(*h)? {
                slots.insert((slot, TyKey::new(ty)));
            }
        }
        let first_pc = self.cfg.blocks[list[0].1].start_pc;
        let exception = self.vars.get(VarKey::Exception);
        let mut inputs = vec![exception];
        let mut slot_list = Vec::new();
        let formal = State {
            locals: vec![None; usize::from(self.code.max_locals)],
            stack: Vec::new(),
        };
        let mut typed: HashMap<(u16, TyKey), Operand> = HashMap::new();
        for (slot, ty) in slots {
            let var = self.local_var(slot, ty.ty(), first_pc);
            inputs.push(var);
            slot_list.push((slot, ty.ty()));
            typed.insert((slot, ty), Operand::Var(var));
        }
        let outputs = self.ctx_outputs(ctx);
        let base = match ctx {
            None => format!("h{first_pc}"),
            Some(l) => format!("h{first_pc}.in{}", self.cfg.blocks[self.cfg.loops[l].header].start_pc),
        };
        let id = self.alloc_proc(&base, ProcKind::Handler, first_pc, inputs, outputs);
        let mut rules = Vec::new();
        let mut excluded: Vec<Cond> = Vec::new();
        let mut catches_all = false;
        for (catch_type, h) in list {
            let mut rule = RuleBuilder::new(first_pc);
            rule.guard = excluded.clone();
            match catch_type {
                Some(class) => {
                    rule.guard.push(Cond::InstanceOf {
                        value: Operand::Var(exception),
                        class: class.clone(),
                        negated: false,
                    });
                    excluded.push(Cond::InstanceOf {
                        value: Operand::Var(exception),
                        class: class.clone(),
                        negated: true,
                    });
                }
                None => catches_all = true,
            }
            let mut handler_state = self.state_for_target(*h, &formal, &typed)?;
            handler_state.stack = vec![Val {
                op: Operand::Var(exception),
                ty: Ty::Ref,
            }];
            rules.push(self.emit_edge(ctx, rule, &handler_state, Target::Block(*h))?);
        }
        if !catches_all {
            let mut rule = RuleBuilder::new(first_pc);
            rule.guard = excluded;
            rule.push(
                StmtKind::Throw {
                    value: Operand::Var(exception),
                },
                None,
            );
            rules.push(rule.finish());
        }
        self.procs[id.index()].rules = rules;
        Ok((id, slot_list))
    }
}
