//! Procedures for blocks: their inputs, the translation of a block's instructions into a rule,
//! conditional branches and switches (guarded rules, or a branch procedure), and the edges that
//! end rules (calls of the next block, loop entries and exits, returns).

use super::state::{default_operand, RuleBuilder, State, Val};
use super::{Control, ExitTarget, LiftError, Source, Target, Translator};
use crate::lift::cfg::Terminator;
use crate::lift::names::{TyKey, VarKey};
use jresa_analyses::ir::*;
use std::collections::{BTreeSet, HashMap};

impl Translator<'_> {
    pub(super) fn block_proc(&mut self, block: usize) -> Result<ProcId, LiftError> {
        if let Some(id) = self.block_procs[block] {
            return Ok(id);
        }
        let pc = self.cfg.blocks[block].start_pc;
        let mut inputs: Vec<(Source, VarId)> = Vec::new();
        if block == 0 && self.cfg.header_of[0].is_none() {
            for (slot, ty) in self.param_slots.clone() {
                inputs.push((Source::Slot(slot), self.local_var(slot, ty, 0)));
            }
        } else {
            for (slot, ty) in self.live_slots(block)? {
                inputs.push((Source::Slot(slot), self.local_var(slot, ty, pc)));
            }
        }
        for (depth, ty) in self.frame(block)?.stack.clone().into_iter().enumerate() {
            inputs.push((Source::Stack(depth), self.vars.get(VarKey::Stack { depth, ty })));
        }
        let ctx = self.cfg.loop_of_block[block];
        let outputs = self.ctx_outputs(ctx);
        let (base, kind) = match self.cfg.header_of[block] {
            Some(_) => (format!("loop{pc}"), ProcKind::Loop),
            None => (format!("b{pc}"), ProcKind::Block),
        };
        let id = self.alloc_proc(&base, kind, pc, inputs.iter().map(|i| i.1).collect(), outputs);
        self.block_procs[block] = Some(id);
        self.block_inputs[block] = inputs;
        self.pending.push(block);
        Ok(id)
    }

    /// `base` with the live slots of `block` set from `typed` (values keyed by slot and type), for
    /// procedures whose inputs serve several successors that type a slot differently.
    pub(super) fn state_for_target(
        &self,
        block: usize,
        base: &State,
        typed: &HashMap<(u16, TyKey), Operand>,
    ) -> Result<State, LiftError> {
        let mut state = base.clone();
        for (slot, ty) in self.live_slots(block)? {
            if let Some(op) = typed.get(&(slot, TyKey::new(ty))) {
                state.set_local(usize::from(slot), Val { op: op.clone(), ty });
            }
        }
        Ok(state)
    }

    pub(super) fn args_for_block(&self, block: usize, state: &State) -> Result<Vec<Operand>, LiftError> {
        let pc = self.cfg.blocks[block].start_pc;
        self.block_inputs[block]
            .iter()
            .map(|(source, var)| {
                let value = match source {
                    Source::Slot(slot) => state.locals.get(usize::from(*slot)).cloned().flatten(),
                    Source::Stack(depth) => state.stack.get(*depth).cloned(),
                };
                match value {
                    Some(v) if v.ty == self.vars.ty(*var) => Ok(v.op),
                    other => Err(LiftError::at(
                        pc,
                        format!(
                            "no value of the right type for input {source:?} of the block at {pc} (found {other:?})"
                        ),
                    )),
                }
            })
            .collect()
    }

    pub(super) fn translate_block(&mut self, block: usize) -> Result<(), LiftError> {
        let id = self.block_procs[block].ok_or_else(|| LiftError::at(0, "block without procedure"))?;
        let ctx = self.cfg.loop_of_block[block];
        let mut state = State {
            locals: vec![None; usize::from(self.code.max_locals)],
            stack: Vec::new(),
        };
        for (source, var) in self.block_inputs[block].clone() {
            let value = Val {
                op: Operand::Var(var),
                ty: self.vars.ty(var),
            };
            match source {
                Source::Slot(slot) => state.set_local(usize::from(slot), value),
                Source::Stack(_) => state.stack.push(value),
            }
        }
        let range = self.cfg.blocks[block].insns.clone();
        let mut rule = RuleBuilder::new(self.cfg.blocks[block].start_pc);
        let mut control = None;
        for k in range.clone() {
            let instruction = &self.code.instructions[k];
            rule.pc = instruction.pc;
            rule.bytecodes += 1;
            control = self.step(ctx, &mut rule, &mut state, &instruction.insn)?;
            if control.is_some() && k + 1 != range.end {
                return Err(LiftError::at(
                    instruction.pc,
                    "control transfer in the middle of a block",
                ));
            }
        }
        let rules = match control {
            None => match self.cfg.blocks[block].terminator {
                Terminator::Goto(next) => vec![self.goto(ctx, rule, &state, next)?],
                _ => return Err(LiftError::at(rule.pc, "block ends without a successor")),
            },
            Some(Control::Goto(target)) => vec![self.goto(ctx, rule, &state, target)?],
            Some(Control::Return(value)) => {
                vec![self.emit_edge(ctx, rule, &state, Target::Return(value))?]
            }
            Some(Control::Thrown) => vec![rule.finish()],
            Some(Control::If {
                cond,
                taken,
                fallthrough,
            }) => {
                let negated = negate(&cond);
                self.branch(
                    ctx,
                    rule,
                    &state,
                    vec![(vec![cond], taken), (vec![negated], fallthrough)],
                )?
            }
            Some(Control::Switch { value, cases, default }) => {
                let outcomes = switch_outcomes(&value, &cases, default);
                self.branch(ctx, rule, &state, outcomes)?
            }
        };
        self.procs[id.index()].rules = rules;
        Ok(())
    }

    pub(super) fn block_at(&self, pc: u32) -> Result<usize, LiftError> {
        let index = self
            .code
            .instructions
            .binary_search_by_key(&pc, |i| i.pc)
            .map_err(|_| LiftError::at(pc, "jump to an offset that is no instruction"))?;
        Ok(self.cfg.block_of_insn[index])
    }

    pub(super) fn goto(
        &mut self,
        ctx: Option<usize>,
        rule: RuleBuilder,
        state: &State,
        pc: u32,
    ) -> Result<Rule, LiftError> {
        let target = self.block_at(pc)?;
        self.emit_edge(ctx, rule, state, Target::Block(target))
    }

    /// Ends a rule with a conditional branch: guarded rules of this procedure when the rule computed
    /// nothing yet, otherwise a tail call of a branch procedure whose guarded rules decide.
    pub(super) fn branch(
        &mut self,
        ctx: Option<usize>,
        rule: RuleBuilder,
        state: &State,
        outcomes: Vec<(Vec<Cond>, u32)>,
    ) -> Result<Vec<Rule>, LiftError> {
        if rule.body.is_empty() && rule.guard.is_empty() {
            let mut rules = Vec::new();
            for (guard, pc) in outcomes {
                let mut r = rule.clone();
                r.guard = guard;
                rules.push(self.goto(ctx, r, state, pc)?);
            }
            return Ok(rules);
        }
        // Inputs of the branch procedure: what the successors need, then the guards' other operands.
        let mut slots: BTreeSet<(u16, TyKey)> = BTreeSet::new();
        for (_, pc) in &outcomes {
            let target = self.block_at(*pc)?;
            for (slot, ty) in self.live_slots(target)? {
                slots.insert((slot, TyKey::new(ty)));
            }
        }
        let mut inputs = Vec::new();
        let mut args = Vec::new();
        let mut formal_state = State {
            locals: vec![None; state.locals.len()],
            stack: Vec::new(),
        };
        let mut renaming: HashMap<VarId, VarId> = HashMap::new();
        let mut typed: HashMap<(u16, TyKey), Operand> = HashMap::new();
        for (slot, ty) in slots {
            let formal = self.local_var(slot, ty.ty(), rule.pc);
            let actual = match state
                .locals
                .get(usize::from(slot))
                .cloned()
                .flatten()
                .filter(|v| v.ty == ty.ty())
            {
                Some(value) => {
                    if let Operand::Var(v) = value.op {
                        renaming.entry(v).or_insert(formal);
                    }
                    value.op
                }
                // Typed otherwise on this path: only successors that never read it as `ty` follow.
                None => default_operand(ty.ty()),
            };
            inputs.push(formal);
            args.push(actual);
            typed.insert((slot, ty), Operand::Var(formal));
        }
        for (depth, value) in state.stack.iter().enumerate() {
            let formal = self.vars.get(VarKey::Stack { depth, ty: value.ty });
            if let Operand::Var(v) = value.op {
                renaming.entry(v).or_insert(formal);
            }
            inputs.push(formal);
            args.push(value.op.clone());
            formal_state.stack.push(Val {
                op: Operand::Var(formal),
                ty: value.ty,
            });
        }
        let mut extra = 0;
        let mut rename = |operand: &Operand, this: &mut Self| -> Operand {
            match operand {
                Operand::Var(v) => {
                    let formal = *renaming.entry(*v).or_insert_with(|| {
                        let formal = this.vars.get(VarKey::CondOperand {
                            k: extra,
                            ty: this.vars.ty(*v),
                        });
                        extra += 1;
                        inputs.push(formal);
                        args.push(operand.clone());
                        formal
                    });
                    Operand::Var(formal)
                }
                other => other.clone(),
            }
        };
        let mut renamed_outcomes = Vec::new();
        for (guard, pc) in outcomes {
            let guard = guard
                .iter()
                .map(|cond| match cond {
                    Cond::Cmp { op, lhs, rhs } => Cond::Cmp {
                        op: *op,
                        lhs: rename(lhs, self),
                        rhs: rename(rhs, self),
                    },
                    Cond::InstanceOf { value, class, negated } => Cond::InstanceOf {
                        value: rename(value, self),
                        class: class.clone(),
                        negated: *negated,
                    },
                })
                .collect::<Vec<_>>();
            renamed_outcomes.push((guard, pc));
        }
        let outputs = self.ctx_outputs(ctx);
        let base = format!("{}.br", self.procs_name_for_pc(rule.pc));
        let branch = self.alloc_proc(&base, ProcKind::Branch, rule.pc, inputs, outputs.clone());
        let mut rules = Vec::new();
        for (guard, pc) in renamed_outcomes {
            let mut r = RuleBuilder::new(rule.pc);
            r.guard = guard;
            let target = self.block_at(pc)?;
            let target_state = self.state_for_target(target, &formal_state, &typed)?;
            rules.push(self.emit_edge(ctx, r, &target_state, Target::Block(target))?);
        }
        self.procs[branch.index()].rules = rules;
        let mut rule = rule;
        rule.push(
            StmtKind::Call {
                proc: branch,
                args,
                outs: outputs,
            },
            None,
        );
        Ok(vec![rule.finish()])
    }

    /// The name prefix of the block containing `pc` (`b12` or `loop12`).
    pub(super) fn procs_name_for_pc(&self, pc: u32) -> String {
        let block = self.block_at(pc).unwrap_or(0);
        let start = self.cfg.blocks[block].start_pc;
        if self.cfg.header_of[block].is_some() {
            format!("loop{start}")
        } else {
            format!("b{start}")
        }
    }

    /// Ends `rule` by transferring control to `target` from a procedure of context `ctx`.
    pub(super) fn emit_edge(
        &mut self,
        ctx: Option<usize>,
        mut rule: RuleBuilder,
        state: &State,
        target: Target,
    ) -> Result<Rule, LiftError> {
        match target {
            Target::Return(value) => match ctx {
                Some(l) if !self.loops[l].exits.is_empty() => self.exit(l, rule, state, ExitTarget::Return, value),
                Some(l) => Err(LiftError::at(
                    rule.pc,
                    format!("return from loop {l}, which has no exits"),
                )),
                None => {
                    match (self.ret_var, value) {
                        (Some(ret), Some(value)) => rule.push(StmtKind::Assign { dst: ret, src: value }, None),
                        (None, None) => {}
                        _ => return Err(LiftError::at(rule.pc, "return does not match the method's return type")),
                    }
                    Ok(rule.finish())
                }
            },
            Target::Block(t) => {
                if let Some(l) = ctx {
                    if !self.cfg.in_loop(t, l) {
                        return self.exit(l, rule, state, ExitTarget::Block(t), None);
                    }
                }
                let target_loop = self.cfg.loop_of_block[t];
                if target_loop == ctx {
                    let proc = self.block_proc(t)?;
                    let args = self.args_for_block(t, state)?;
                    let outs = self.ctx_outputs(ctx);
                    rule.push(StmtKind::Call { proc, args, outs }, None);
                    return Ok(rule.finish());
                }
                match target_loop {
                    Some(inner) if self.cfg.header_of[t] == Some(inner) && self.cfg.loops[inner].parent == ctx => {
                        self.enter_loop(ctx, rule, state, inner)
                    }
                    _ => Err(LiftError::at(
                        rule.pc,
                        "jump into the middle of a loop (irreducible control flow)",
                    )),
                }
            }
        }
    }
}

fn negate(cond: &Cond) -> Cond {
    match cond {
        Cond::Cmp { op, lhs, rhs } => Cond::Cmp {
            op: op.negate(),
            lhs: lhs.clone(),
            rhs: rhs.clone(),
        },
        Cond::InstanceOf { value, class, negated } => Cond::InstanceOf {
            value: value.clone(),
            class: class.clone(),
            negated: !negated,
        },
    }
}

/// The guarded outcomes of a switch: one per key, and the default as convex gaps between keys.
fn switch_outcomes(value: &Operand, cases: &[(i32, u32)], default: u32) -> Vec<(Vec<Cond>, u32)> {
    let cmp = |op, n: i32| Cond::Cmp {
        op,
        lhs: value.clone(),
        rhs: Operand::Int(n),
    };
    let mut keys: Vec<(i32, u32)> = cases.to_vec();
    keys.sort_by_key(|k| k.0);
    keys.dedup_by_key(|k| k.0);
    let mut outcomes: Vec<(Vec<Cond>, u32)> = keys
        .iter()
        .map(|&(key, target)| (vec![cmp(CmpOp::Eq, key)], target))
        .collect();
    match (keys.first(), keys.last()) {
        (Some(&(lowest, _)), Some(&(highest, _))) => {
            outcomes.push((vec![cmp(CmpOp::Lt, lowest)], default));
            for pair in keys.windows(2) {
                let (a, b) = (pair[0].0, pair[1].0);
                if i64::from(b) - i64::from(a) > 1 {
                    outcomes.push((vec![cmp(CmpOp::Gt, a), cmp(CmpOp::Lt, b)], default));
                }
            }
            outcomes.push((vec![cmp(CmpOp::Gt, highest)], default));
        }
        _ => outcomes.push((Vec::new(), default)),
    }
    outcomes
}
