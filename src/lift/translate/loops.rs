//! Loops: their exits and outputs, entering a loop (a call, then the code after it, through an
//! exit-dispatch procedure when the loop has several exits), and leaving one.

use super::state::{default_operand, RuleBuilder, State, Val};
use super::{ExitTarget, LiftError, LoopInfo, Target, Translator};
use crate::classfile::Insn;
use crate::lift::names::{OutKey, TyKey, VarKey};
use fixedbitset::FixedBitSet;
use jresa_analyses::ir::*;
use std::collections::{BTreeSet, HashMap};

impl Translator<'_> {
    pub(super) fn analyse_loops(&mut self) -> Result<(), LiftError> {
        for l in 0..self.cfg.loops.len() {
            let lp = &self.cfg.loops[l];
            let mut modified = FixedBitSet::with_capacity(usize::from(self.code.max_locals));
            let mut exits: Vec<ExitTarget> = Vec::new();
            for &b in &lp.blocks {
                for k in self.cfg.blocks[b].insns.clone() {
                    if let Insn::Store(_, slot) | Insn::IInc(slot, _) = self.code.instructions[k].insn {
                        if usize::from(slot) < modified.len() {
                            modified.insert(usize::from(slot));
                        }
                    }
                }
                for s in self.cfg.all_succs(b) {
                    if !self.cfg.in_loop(s, l) && !exits.contains(&ExitTarget::Block(s)) {
                        exits.push(ExitTarget::Block(s));
                    }
                }
                let last = &self.code.instructions[self.cfg.blocks[b].insns.end - 1];
                if matches!(last.insn, Insn::Return(_)) && !exits.contains(&ExitTarget::Return) {
                    exits.push(ExitTarget::Return);
                }
            }
            exits.sort_by_key(|e| match e {
                ExitTarget::Block(b) => *b,
                ExitTarget::Return => usize::MAX,
            });
            let mut keys: BTreeSet<OutKey> = BTreeSet::new();
            for exit in &exits {
                match exit {
                    ExitTarget::Block(t) => {
                        for (slot, ty) in self.live_slots(*t)? {
                            if modified.contains(usize::from(slot)) {
                                keys.insert(OutKey::Slot(slot, TyKey::new(ty)));
                            }
                        }
                        for (depth, ty) in self.frame(*t)?.stack.iter().enumerate() {
                            keys.insert(OutKey::Stack(depth, TyKey::new(*ty)));
                        }
                    }
                    ExitTarget::Return => {
                        if let Some(ty) = self.ret_ty {
                            keys.insert(OutKey::ReturnValue(TyKey::new(ty)));
                        }
                    }
                }
            }
            if exits.len() > 1 {
                keys.insert(OutKey::Selector);
            }
            let header_pc = self.cfg.blocks[lp.header].start_pc;
            let outputs = keys
                .into_iter()
                .map(|key| {
                    let hint = match &key {
                        OutKey::Slot(slot, ty) => Some(format!("{}.out", self.local_name(*slot, ty.ty(), header_pc))),
                        _ => None,
                    };
                    let var = self.vars.get_hinted(VarKey::Out(key.clone()), hint.as_deref());
                    (key, var)
                })
                .collect();
            self.loops.push(LoopInfo {
                exits,
                outputs,
                dispatch: None,
            });
        }
        Ok(())
    }

    /// The outputs of procedures translated in a context (`None` is the method's top level).
    pub(super) fn ctx_outputs(&self, ctx: Option<usize>) -> Vec<VarId> {
        match ctx {
            None => self.ret_var.into_iter().collect(),
            Some(l) if self.loops[l].exits.is_empty() => self.ctx_outputs(self.cfg.loops[l].parent),
            Some(l) => self.loops[l].outputs.iter().map(|(_, v)| *v).collect(),
        }
    }

    /// Calls loop `inner` from context `ctx` and continues after it.
    pub(super) fn enter_loop(
        &mut self,
        ctx: Option<usize>,
        mut rule: RuleBuilder,
        state: &State,
        inner: usize,
    ) -> Result<Rule, LiftError> {
        let header = self.cfg.loops[inner].header;
        let proc = self.block_proc(header)?;
        let args = self.args_for_block(header, state)?;
        if self.loops[inner].exits.is_empty() {
            let outs = self.ctx_outputs(ctx);
            rule.push(StmtKind::Call { proc, args, outs }, None);
            return Ok(rule.finish());
        }
        let after = state.clone();
        let mut typed: HashMap<(u16, TyKey), Operand> = HashMap::new();
        let mut extra: HashMap<OutKey, Operand> = HashMap::new();
        let mut outs = Vec::new();
        for (key, _) in self.loops[inner].outputs.clone() {
            let var = match &key {
                OutKey::Slot(slot, ty) => self.version(&mut rule, *slot, ty.ty()),
                OutKey::Stack(_, ty) | OutKey::ReturnValue(ty) => self.temp(&mut rule, ty.ty()),
                OutKey::Selector => self.temp(&mut rule, Ty::Int),
            };
            outs.push(var);
            match key {
                OutKey::Slot(slot, ty) => {
                    typed.insert((slot, ty), Operand::Var(var));
                }
                other => {
                    extra.insert(other, Operand::Var(var));
                }
            }
        }
        rule.push(StmtKind::Call { proc, args, outs }, None);
        let exits = self.loops[inner].exits.clone();
        if let [only] = exits.as_slice() {
            let (exit_state, target) = self.exit_state(*only, &after, &typed, &extra)?;
            return self.emit_edge(ctx, rule, &exit_state, target);
        }
        let (dispatch, sources) = self.dispatch_proc(inner)?;
        let args = sources
            .iter()
            .map(|source| match source {
                DispatchSource::Slot(slot, ty) => Ok(typed
                    .get(&(*slot, TyKey::new(*ty)))
                    .cloned()
                    .or_else(|| {
                        after
                            .locals
                            .get(usize::from(*slot))
                            .cloned()
                            .flatten()
                            .filter(|v| v.ty == *ty)
                            .map(|v| v.op)
                    })
                    // Typed otherwise here: only exits that never read it as `ty` use this input.
                    .unwrap_or_else(|| default_operand(*ty))),
                DispatchSource::Out(key) => extra
                    .get(key)
                    .cloned()
                    .ok_or_else(|| LiftError::at(rule.pc, "loop output missing")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let outs = self.ctx_outputs(ctx);
        rule.push(
            StmtKind::Call {
                proc: dispatch,
                args,
                outs,
            },
            None,
        );
        Ok(rule.finish())
    }

    /// The state in which control reaches an exit target after a loop returned.
    fn exit_state(
        &self,
        exit: ExitTarget,
        after: &State,
        typed: &HashMap<(u16, TyKey), Operand>,
        extra: &HashMap<OutKey, Operand>,
    ) -> Result<(State, Target), LiftError> {
        match exit {
            ExitTarget::Block(t) => {
                let mut state = self.state_for_target(t, after, typed)?;
                state.stack.clear();
                for (depth, ty) in self.frame(t)?.stack.iter().enumerate() {
                    let op = extra
                        .get(&OutKey::Stack(depth, TyKey::new(*ty)))
                        .cloned()
                        .ok_or_else(|| LiftError::at(self.cfg.blocks[t].start_pc, "loop exit stack value missing"))?;
                    state.stack.push(Val { op, ty: *ty });
                }
                Ok((state, Target::Block(t)))
            }
            ExitTarget::Return => {
                let value = self
                    .ret_ty
                    .map(|ty| extra.get(&OutKey::ReturnValue(TyKey::new(ty))).cloned());
                let value = match value {
                    Some(Some(v)) => Some(v),
                    Some(None) => return Err(LiftError::at(0, "loop return value missing")),
                    None => None,
                };
                Ok((
                    State {
                        locals: after.locals.clone(),
                        stack: Vec::new(),
                    },
                    Target::Return(value),
                ))
            }
        }
    }

    /// The exit-dispatch procedure of a loop with several exits (in the loop's parent context).
    fn dispatch_proc(&mut self, inner: usize) -> Result<(ProcId, Vec<DispatchSource>), LiftError> {
        let exits = self.loops[inner].exits.clone();
        let mut slots: BTreeSet<(u16, TyKey)> = BTreeSet::new();
        for exit in &exits {
            if let ExitTarget::Block(t) = exit {
                for (slot, ty) in self.live_slots(*t)? {
                    slots.insert((slot, TyKey::new(ty)));
                }
            }
        }
        let header_pc = self.cfg.blocks[self.cfg.loops[inner].header].start_pc;
        let mut sources = Vec::new();
        let mut inputs = Vec::new();
        let formal = State {
            locals: vec![None; usize::from(self.code.max_locals)],
            stack: Vec::new(),
        };
        let mut typed: HashMap<(u16, TyKey), Operand> = HashMap::new();
        for (slot, ty) in slots {
            let var = self.local_var(slot, ty.ty(), header_pc);
            sources.push(DispatchSource::Slot(slot, ty.ty()));
            inputs.push(var);
            typed.insert((slot, ty), Operand::Var(var));
        }
        let mut formal_extra = HashMap::new();
        for (key, _) in self.loops[inner].outputs.clone() {
            if let OutKey::Slot(..) = key {
                continue;
            }
            let var = self.vars.get(VarKey::DispatchIn(key.clone()));
            sources.push(DispatchSource::Out(key.clone()));
            inputs.push(var);
            formal_extra.insert(key, Operand::Var(var));
        }
        if let Some(id) = self.loops[inner].dispatch {
            return Ok((id, sources));
        }
        let parent = self.cfg.loops[inner].parent;
        let outputs = self.ctx_outputs(parent);
        let id = self.alloc_proc(
            &format!("loop{header_pc}.exit"),
            ProcKind::Exit,
            header_pc,
            inputs,
            outputs,
        );
        self.loops[inner].dispatch = Some(id);
        let selector = formal_extra
            .get(&OutKey::Selector)
            .cloned()
            .ok_or_else(|| LiftError::at(header_pc, "selector missing"))?;
        let mut rules = Vec::new();
        for (k, exit) in exits.iter().enumerate() {
            let mut rule = RuleBuilder::new(header_pc);
            rule.guard.push(Cond::Cmp {
                op: CmpOp::Eq,
                lhs: selector.clone(),
                rhs: Operand::Int(k as i32),
            });
            let (state, target) = self.exit_state(*exit, &formal, &typed, &formal_extra)?;
            rules.push(self.emit_edge(parent, rule, &state, target)?);
        }
        self.procs[id.index()].rules = rules;
        Ok((id, sources))
    }

    /// Leaves loop `l` for `exit`: assigns every output of the loop and ends the rule.
    pub(super) fn exit(
        &mut self,
        l: usize,
        mut rule: RuleBuilder,
        state: &State,
        exit: ExitTarget,
        value: Option<Operand>,
    ) -> Result<Rule, LiftError> {
        let index = self.loops[l]
            .exits
            .iter()
            .position(|e| *e == exit)
            .ok_or_else(|| LiftError::at(rule.pc, "edge leaves a loop by an exit the loop analysis did not see"))?;
        let needed: Vec<(u16, Ty)> = match exit {
            ExitTarget::Block(t) => self.live_slots(t)?,
            ExitTarget::Return => Vec::new(),
        };
        for (key, out) in self.loops[l].outputs.clone() {
            let value = match &key {
                OutKey::Slot(slot, ty) => {
                    match state
                        .locals
                        .get(usize::from(*slot))
                        .cloned()
                        .flatten()
                        .filter(|v| v.ty == ty.ty())
                    {
                        Some(v) => v.op,
                        None if needed.contains(&(*slot, ty.ty())) => {
                            return Err(LiftError::at(
                                rule.pc,
                                format!("local {slot} is needed after the loop but undefined"),
                            ))
                        }
                        None => default_operand(ty.ty()),
                    }
                }
                OutKey::Stack(depth, ty) => match exit {
                    ExitTarget::Block(_) => state
                        .stack
                        .get(*depth)
                        .filter(|v| v.ty == ty.ty())
                        .map(|v| v.op.clone())
                        .unwrap_or_else(|| default_operand(ty.ty())),
                    ExitTarget::Return => default_operand(ty.ty()),
                },
                OutKey::ReturnValue(ty) => match (&exit, &value) {
                    (ExitTarget::Return, Some(v)) => v.clone(),
                    _ => default_operand(ty.ty()),
                },
                OutKey::Selector => Operand::Int(index as i32),
            };
            rule.push(StmtKind::Assign { dst: out, src: value }, None);
        }
        Ok(rule.finish())
    }
}

/// Where a dispatch procedure's input comes from at its call site.
#[derive(Clone, Debug)]
enum DispatchSource {
    Slot(u16, Ty),
    Out(OutKey),
}
