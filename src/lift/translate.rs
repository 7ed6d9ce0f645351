//! Translation of a method's blocks into procedures and guarded rules.
//!
//! Each reachable block becomes a procedure; a loop header's procedure is the loop, recursive
//! through its back edges, with the loop's outputs; blocks inside a loop call each other in tail
//! position with the loop's outputs; entering a loop is a non-tail call followed by the code after
//! the loop (directly, or through an exit-dispatch procedure when the loop has several exits).
//! The operand stack is simulated with operands, so loads, stores and stack shuffles emit nothing.

use super::cfg::{Cfg, Terminator};
use super::frames::{call_signature, constant_ty, field_ty, is_wide, shuffle_stack, ty_of_kind, Frame, StackValue};
use super::names::{sanitize_local_name, OutKey, TyKey, VarKey, VarTable};
use super::{array_elem, LiftError};
use crate::classfile::{self as cf, ArithOp, Code, Constant, Insn, InvokeKind};
use fixedbitset::FixedBitSet;
use jresa_analyses::ir::*;
use std::collections::{BTreeSet, HashMap};

/// A simulated value: an operand and its type.
#[derive(Clone, Debug, PartialEq)]
struct Val {
    op: Operand,
    ty: Ty,
}

impl StackValue for Val {
    fn wide(&self) -> bool {
        is_wide(self.ty)
    }
}

/// The simulated locals and operand stack at one point of a rule.
#[derive(Clone, Debug)]
struct State {
    locals: Vec<Option<Val>>,
    stack: Vec<Val>,
}

impl State {
    fn pop(&mut self, pc: u32) -> Result<Val, LiftError> {
        self.stack
            .pop()
            .ok_or_else(|| LiftError::at(pc, "operand stack underflow"))
    }

    fn pop_n(&mut self, n: usize, pc: u32) -> Result<Vec<Operand>, LiftError> {
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

    fn set_local(&mut self, slot: usize, value: Val) {
        if slot > 0 && self.locals[slot - 1].as_ref().is_some_and(|v| v.wide()) {
            self.locals[slot - 1] = None;
        }
        if value.wide() && slot + 1 < self.locals.len() {
            self.locals[slot + 1] = None;
        }
        self.locals[slot] = Some(value);
    }

    /// Whether any local or stack entry refers to `var`.
    fn mentions(&self, var: VarId) -> bool {
        let is_var = |v: &Val| v.op == Operand::Var(var);
        self.stack.iter().any(is_var) || self.locals.iter().flatten().any(is_var)
    }
}

/// A rule under construction.
#[derive(Clone)]
struct RuleBuilder {
    guard: Vec<Cond>,
    body: Vec<Stmt>,
    bytecodes: u32,
    pc: u32,
    versions: HashMap<VarId, u32>,
    temps: u32,
}

impl RuleBuilder {
    fn new(pc: u32) -> Self {
        RuleBuilder {
            guard: Vec::new(),
            body: Vec::new(),
            bytecodes: 0,
            pc,
            versions: HashMap::new(),
            temps: 0,
        }
    }

    fn push(&mut self, kind: StmtKind, handler: Option<HandlerEdge>) {
        self.body.push(Stmt {
            pc: self.pc,
            bytecodes: self.bytecodes,
            kind,
            handler,
        });
    }

    fn finish(self) -> Rule {
        Rule {
            guard: self.guard,
            body: self.body,
            bytecodes: self.bytecodes,
        }
    }
}

/// Where an edge leads: a block, or the method's return with its value.
#[derive(Clone, Debug)]
enum Target {
    Block(usize),
    Return(Option<Operand>),
}

/// A place a loop can be left for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExitTarget {
    Block(usize),
    Return,
}

/// What the translation needs to know about each loop.
struct LoopInfo {
    exits: Vec<ExitTarget>,
    outputs: Vec<(OutKey, VarId)>,
    dispatch: Option<ProcId>,
}

/// What a procedure input is filled from at a call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Slot(u16),
    Stack(usize),
}

/// How control leaves a block's last instruction.
enum Control {
    Goto(u32),
    If {
        cond: Cond,
        taken: u32,
        fallthrough: u32,
    },
    Switch {
        value: Operand,
        cases: Vec<(i32, u32)>,
        default: u32,
    },
    Return(Option<Operand>),
    Thrown,
}

/// Handler-dispatch procedures are shared per loop context and list of `(catch type, handler block)`.
type HandlerKey = (Option<usize>, Vec<(Option<String>, usize)>);

pub(super) struct Translator<'a> {
    class: &'a cf::ClassFile,
    code: &'a Code,
    cfg: &'a Cfg,
    frames: Vec<Option<Frame>>,
    live: Vec<FixedBitSet>,
    vars: VarTable,
    procs: Vec<Procedure>,
    proc_names: BTreeSet<String>,
    block_procs: Vec<Option<ProcId>>,
    block_inputs: Vec<Vec<(Source, VarId)>>,
    loops: Vec<LoopInfo>,
    handler_procs: HashMap<HandlerKey, (ProcId, Vec<(u16, Ty)>)>,
    pending: Vec<usize>,
    ret_var: Option<VarId>,
    ret_ty: Option<Ty>,
    param_slots: Vec<(u16, Ty)>,
}

impl<'a> Translator<'a> {
    pub(super) fn new(
        class: &'a cf::ClassFile,
        method: &'a cf::Method,
        code: &'a Code,
        cfg: &'a Cfg,
        frames: Vec<Option<Frame>>,
        live: Vec<FixedBitSet>,
    ) -> Result<Self, LiftError> {
        let is_static = method.access & 0x0008 != 0;
        let (params, ret_ty) = call_signature(&method.descriptor, !is_static, 0)?;
        let mut param_slots = Vec::new();
        let mut slot: u16 = 0;
        for ty in params {
            param_slots.push((slot, ty));
            slot = slot
                .checked_add(if is_wide(ty) { 2 } else { 1 })
                .ok_or_else(|| LiftError::at(0, "too many parameters"))?;
        }
        let mut vars = VarTable::default();
        let ret_var = ret_ty.map(|ty| vars.ret(ty));
        Ok(Translator {
            class,
            code,
            cfg,
            frames,
            live,
            vars,
            procs: Vec::new(),
            proc_names: BTreeSet::new(),
            block_procs: vec![None; cfg.blocks.len()],
            block_inputs: vec![Vec::new(); cfg.blocks.len()],
            loops: Vec::new(),
            handler_procs: HashMap::new(),
            pending: Vec::new(),
            ret_var,
            ret_ty,
            param_slots,
        })
    }

    /// Translates the whole method.
    pub(super) fn run(mut self, method: &cf::Method) -> Result<MethodIr, LiftError> {
        self.analyse_loops()?;
        let entry = if self.cfg.header_of[0].is_some() {
            // The first block is a loop header: a separate entry procedure takes the parameters.
            let inputs: Vec<VarId> = self
                .param_slots
                .clone()
                .iter()
                .map(|&(slot, ty)| self.local_var(slot, ty, 0))
                .collect();
            let outputs = self.ctx_outputs(None);
            let entry = self.alloc_proc("entry", ProcKind::Entry, 0, inputs.clone(), outputs);
            let mut state = State {
                locals: vec![None; usize::from(self.code.max_locals)],
                stack: Vec::new(),
            };
            for (&(slot, ty), var) in self.param_slots.iter().zip(&inputs) {
                state.set_local(
                    usize::from(slot),
                    Val {
                        op: Operand::Var(*var),
                        ty,
                    },
                );
            }
            let rule = self.emit_edge(None, RuleBuilder::new(0), &state, Target::Block(0))?;
            self.procs[entry.index()].rules.push(rule);
            entry
        } else {
            self.block_proc(0)?
        };
        while let Some(block) = self.pending.pop() {
            self.translate_block(block)?;
        }
        let mut ir = MethodIr {
            class: self.class.name.clone(),
            name: method.name.clone(),
            descriptor: method.descriptor.clone(),
            is_static: method.access & 0x0008 != 0,
            source_file: self.class.source_file.clone(),
            lines: self.code.line_numbers.clone(),
            vars: self.vars.into_decls(),
            procs: self.procs,
            entry,
        };
        sort_procedures(&mut ir);
        drop_unused_vars(&mut ir);
        Ok(ir)
    }

    // ----- variables and names -----

    /// The `LocalVariableTable` name of `slot` at `pc`, when it has one.
    fn local_name(&self, slot: u16, ty: Ty, pc: u32) -> String {
        let matches_ty = |descriptor: &str| Ty::from_descriptor(descriptor) == Some(ty);
        let table = &self.code.local_variables;
        let covering = table.iter().find(|v| {
            v.index == slot && v.start <= pc && pc < v.start.saturating_add(v.length) && matches_ty(&v.descriptor)
        });
        let chosen = covering.or_else(|| {
            let mut candidates = table.iter().filter(|v| v.index == slot && matches_ty(&v.descriptor));
            let first = candidates.next()?;
            candidates.all(|v| v.name == first.name).then_some(first)
        });
        match chosen {
            Some(v) => sanitize_local_name(&v.name, slot),
            None => format!("l{slot}"),
        }
    }

    fn local_var(&mut self, slot: u16, ty: Ty, pc: u32) -> VarId {
        let name = self.local_name(slot, ty, pc);
        self.vars.get(VarKey::Local { slot, ty, name })
    }

    /// A fresh variable for a new value of `slot` in this rule (named after the local).
    fn version(&mut self, rule: &mut RuleBuilder, slot: u16, ty: Ty) -> VarId {
        let base = self.local_var(slot, ty, rule.pc);
        let k = rule.versions.entry(base).or_insert(0);
        *k += 1;
        let k = *k;
        self.vars.get(VarKey::Version { base, k })
    }

    fn temp(&mut self, rule: &mut RuleBuilder, ty: Ty) -> VarId {
        rule.temps += 1;
        self.vars.get(VarKey::Temp { ty, k: rule.temps })
    }

    fn alloc_proc(&mut self, base: &str, kind: ProcKind, pc: u32, inputs: Vec<VarId>, outputs: Vec<VarId>) -> ProcId {
        let mut name = base.to_owned();
        let mut n = 2;
        while self.proc_names.contains(&name) {
            name = format!("{base}#{n}");
            n += 1;
        }
        self.proc_names.insert(name.clone());
        let id = ProcId::from_index(self.procs.len());
        self.procs.push(Procedure {
            name,
            kind,
            pc,
            inputs,
            outputs,
            rules: Vec::new(),
        });
        id
    }

    fn frame(&self, block: usize) -> Result<&Frame, LiftError> {
        self.frames[block]
            .as_ref()
            .ok_or_else(|| LiftError::at(self.cfg.blocks[block].start_pc, "block has no inferred frame"))
    }

    /// Live slots of a block entry with their types.
    fn live_slots(&self, block: usize) -> Result<Vec<(u16, Ty)>, LiftError> {
        let frame = self.frame(block)?;
        let pc = self.cfg.blocks[block].start_pc;
        self.live[block]
            .ones()
            .map(|slot| {
                let ty = frame.locals.get(slot).copied().flatten().ok_or_else(|| {
                    LiftError::at(pc, format!("local {slot} is read here but holds no value of one type"))
                })?;
                Ok((slot as u16, ty))
            })
            .collect()
    }

    // ----- loops -----

    fn analyse_loops(&mut self) -> Result<(), LiftError> {
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
    fn ctx_outputs(&self, ctx: Option<usize>) -> Vec<VarId> {
        match ctx {
            None => self.ret_var.into_iter().collect(),
            Some(l) if self.loops[l].exits.is_empty() => self.ctx_outputs(self.cfg.loops[l].parent),
            Some(l) => self.loops[l].outputs.iter().map(|(_, v)| *v).collect(),
        }
    }

    // ----- procedures for blocks -----

    fn block_proc(&mut self, block: usize) -> Result<ProcId, LiftError> {
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
    fn state_for_target(
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

    fn args_for_block(&self, block: usize, state: &State) -> Result<Vec<Operand>, LiftError> {
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

    fn translate_block(&mut self, block: usize) -> Result<(), LiftError> {
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

    fn block_at(&self, pc: u32) -> Result<usize, LiftError> {
        let index = self
            .code
            .instructions
            .binary_search_by_key(&pc, |i| i.pc)
            .map_err(|_| LiftError::at(pc, "jump to an offset that is no instruction"))?;
        Ok(self.cfg.block_of_insn[index])
    }

    fn goto(&mut self, ctx: Option<usize>, rule: RuleBuilder, state: &State, pc: u32) -> Result<Rule, LiftError> {
        let target = self.block_at(pc)?;
        self.emit_edge(ctx, rule, state, Target::Block(target))
    }

    /// Ends a rule with a conditional branch: guarded rules of this procedure when the rule computed
    /// nothing yet, otherwise a tail call of a branch procedure whose guarded rules decide.
    fn branch(
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
    fn procs_name_for_pc(&self, pc: u32) -> String {
        let block = self.block_at(pc).unwrap_or(0);
        let start = self.cfg.blocks[block].start_pc;
        if self.cfg.header_of[block].is_some() {
            format!("loop{start}")
        } else {
            format!("b{start}")
        }
    }

    // ----- edges -----

    /// Ends `rule` by transferring control to `target` from a procedure of context `ctx`.
    fn emit_edge(
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

    /// Calls loop `inner` from context `ctx` and continues after it.
    fn enter_loop(
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
    fn exit(
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

    // ----- exceptions -----

    /// The handlers covering `pc` in exception-table order, up to the first catch-all.
    fn handler_list(&self, pc: u32) -> Result<Vec<(Option<String>, usize)>, LiftError> {
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
    fn handler_edge(
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

    fn build_handler_proc(
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

    /// Emits a statement that may throw, with its handler edge when a handler covers it.
    fn emit_throwing(
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
    fn emit_value(
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

    // ----- instructions -----

    fn step(
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
        let push = |state: &mut State, op: Operand, ty: Ty| state.stack.push(Val { op, ty });
        match insn {
            Insn::Nop => {}
            Insn::AConstNull => push(state, Operand::Null, Ty::Ref),
            Insn::IConst(n) => push(state, Operand::Int(*n), Ty::Int),
            Insn::LConst(n) => push(state, Operand::Long(*n), Ty::Long),
            Insn::FConst(x) => push(state, Operand::Float(x.to_bits()), Ty::Float),
            Insn::DConst(x) => push(state, Operand::Double(x.to_bits()), Ty::Double),
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
                        return self
                            .emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value })
                            .map(|_| None);
                    }
                    Constant::MethodHandle(h) => {
                        let value = OpaqueConst::MethodHandle(h.clone());
                        return self
                            .emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value })
                            .map(|_| None);
                    }
                    Constant::Dynamic { name, descriptor } => {
                        let value = OpaqueConst::Dynamic {
                            name: name.clone(),
                            descriptor: descriptor.clone(),
                        };
                        return self
                            .emit_value(ctx, rule, state, ty, |dst| StmtKind::LoadConst { dst, value })
                            .map(|_| None);
                    }
                };
                push(state, operand, ty);
            }
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
            Insn::ArrayLoad(kind) => {
                let index = state.pop(pc)?.op;
                let array = state.pop(pc)?.op;
                let elem = array_elem(*kind);
                self.emit_value(ctx, rule, state, elem.value_ty(), |dst| StmtKind::ArrayLoad {
                    dst,
                    elem,
                    array,
                    index,
                })?;
            }
            Insn::ArrayStore(kind) => {
                let value = state.pop(pc)?.op;
                let index = state.pop(pc)?.op;
                let array = state.pop(pc)?.op;
                let elem = array_elem(*kind);
                self.emit_throwing(
                    ctx,
                    rule,
                    state,
                    StmtKind::ArrayStore {
                        elem,
                        array,
                        index,
                        value,
                    },
                )?;
            }
            Insn::Arith(kind, op) => {
                let rhs = state.pop(pc)?.op;
                let lhs = state.pop(pc)?.op;
                let ty = ty_of_kind(*kind);
                let op = arith_op(*op);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::Binary { dst, op, ty, lhs, rhs })?;
            }
            Insn::Neg(kind) => {
                let src = state.pop(pc)?.op;
                let ty = ty_of_kind(*kind);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::Unary {
                    dst,
                    op: UnOp::Neg,
                    from: ty,
                    src,
                })?;
            }
            Insn::Convert(from, to) => {
                let src = state.pop(pc)?.op;
                let from = ty_of_kind(*from);
                self.emit_value(ctx, rule, state, ty_of_kind(*to), |dst| StmtKind::Unary {
                    dst,
                    op: UnOp::Convert,
                    from,
                    src,
                })?;
            }
            Insn::IntToByte | Insn::IntToChar | Insn::IntToShort => {
                let src = state.pop(pc)?.op;
                let op = match insn {
                    Insn::IntToByte => UnOp::IntToByte,
                    Insn::IntToChar => UnOp::IntToChar,
                    _ => UnOp::IntToShort,
                };
                self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::Unary {
                    dst,
                    op,
                    from: Ty::Int,
                    src,
                })?;
            }
            Insn::LCmp | Insn::FCmp { .. } | Insn::DCmp { .. } => {
                let rhs = state.pop(pc)?.op;
                let lhs = state.pop(pc)?.op;
                let (op, ty) = match insn {
                    Insn::LCmp => (BinOp::Cmp, Ty::Long),
                    Insn::FCmp { nan_is_greater } => {
                        (if *nan_is_greater { BinOp::CmpG } else { BinOp::CmpL }, Ty::Float)
                    }
                    Insn::DCmp { nan_is_greater } => {
                        (if *nan_is_greater { BinOp::CmpG } else { BinOp::CmpL }, Ty::Double)
                    }
                    _ => unreachable!("matched above"),
                };
                self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::Binary {
                    dst,
                    op,
                    ty,
                    lhs,
                    rhs,
                })?;
            }
            Insn::IfZero(condition, target) => {
                let value = state.pop(pc)?;
                let op = cmp_op(*condition);
                let cond = self.fuse_long_compare(rule, state, &value, op).unwrap_or(Cond::Cmp {
                    op,
                    lhs: value.op,
                    rhs: Operand::Int(0),
                });
                return Ok(Some(Control::If {
                    cond,
                    taken: *target,
                    fallthrough: self.next_pc(pc)?,
                }));
            }
            Insn::IfICmp(condition, target) | Insn::IfACmp(condition, target) => {
                let rhs = state.pop(pc)?.op;
                let lhs = state.pop(pc)?.op;
                let cond = Cond::Cmp {
                    op: cmp_op(*condition),
                    lhs,
                    rhs,
                };
                return Ok(Some(Control::If {
                    cond,
                    taken: *target,
                    fallthrough: self.next_pc(pc)?,
                }));
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
                return Ok(Some(Control::If {
                    cond,
                    taken: *target,
                    fallthrough: self.next_pc(pc)?,
                }));
            }
            Insn::Goto(target) => return Ok(Some(Control::Goto(*target))),
            Insn::Jsr(_) | Insn::Ret(_) => return Err(LiftError::at(pc, "jsr/ret subroutines are not supported")),
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
                return Ok(Some(Control::Switch {
                    value,
                    cases,
                    default: *default,
                }));
            }
            Insn::LookupSwitch { default, pairs } => {
                let value = state.pop(pc)?.op;
                return Ok(Some(Control::Switch {
                    value,
                    cases: pairs.clone(),
                    default: *default,
                }));
            }
            Insn::Return(kind) => {
                let value = match kind {
                    Some(_) => Some(state.pop(pc)?.op),
                    None => None,
                };
                return Ok(Some(Control::Return(value)));
            }
            Insn::GetStatic(field) => {
                let ty = field_ty(&field.descriptor, pc)?;
                let field = field_ref(field);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::GetStatic { dst, field })?;
            }
            Insn::PutStatic(field) => {
                let value = state.pop(pc)?.op;
                self.emit_throwing(
                    ctx,
                    rule,
                    state,
                    StmtKind::PutStatic {
                        field: field_ref(field),
                        value,
                    },
                )?;
            }
            Insn::GetField(field) => {
                let object = state.pop(pc)?.op;
                let ty = field_ty(&field.descriptor, pc)?;
                let field = field_ref(field);
                self.emit_value(ctx, rule, state, ty, |dst| StmtKind::GetField { dst, object, field })?;
            }
            Insn::PutField(field) => {
                let value = state.pop(pc)?.op;
                let object = state.pop(pc)?.op;
                self.emit_throwing(
                    ctx,
                    rule,
                    state,
                    StmtKind::PutField {
                        object,
                        field: field_ref(field),
                        value,
                    },
                )?;
            }
            Insn::Invoke(kind, method) => {
                let has_receiver = *kind != InvokeKind::Static;
                let (params, ret) = call_signature(&method.descriptor, has_receiver, pc)?;
                let args = state.pop_n(params.len(), pc)?;
                let call_kind = match kind {
                    InvokeKind::Static => CallKind::Static,
                    InvokeKind::Special => CallKind::Special,
                    InvokeKind::Virtual => CallKind::Virtual,
                    InvokeKind::Interface => CallKind::Interface,
                };
                let target = MethodRef {
                    class: method.class.clone(),
                    name: method.name.clone(),
                    descriptor: method.descriptor.clone(),
                };
                let interface = method.interface || call_kind == CallKind::Interface;
                self.emit_call(ctx, rule, state, ret, |dst| StmtKind::Invoke {
                    dst,
                    kind: call_kind,
                    interface,
                    method: target,
                    args,
                })?;
            }
            Insn::InvokeDynamic {
                name,
                descriptor,
                bootstrap_index,
            } => {
                let (params, ret) = call_signature(descriptor, false, pc)?;
                let args = state.pop_n(params.len(), pc)?;
                let (name, descriptor, bootstrap) = (name.clone(), descriptor.clone(), *bootstrap_index);
                self.emit_call(ctx, rule, state, ret, |dst| StmtKind::InvokeDynamic {
                    dst,
                    name,
                    descriptor,
                    bootstrap,
                    args,
                })?;
            }
            Insn::New(class) => {
                let class = class.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::New { dst, class })?;
            }
            Insn::NewArray(prim) => {
                let length = state.pop(pc)?.op;
                let elem = prim_ty(*prim);
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewArray {
                    dst,
                    elem,
                    length,
                })?;
            }
            Insn::ANewArray(class) => {
                let length = state.pop(pc)?.op;
                let class = class.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewRefArray {
                    dst,
                    class,
                    length,
                })?;
            }
            Insn::MultiANewArray(descriptor, dims) => {
                let lengths = state.pop_n(usize::from(*dims), pc)?;
                let descriptor = descriptor.clone();
                self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::NewMultiArray {
                    dst,
                    descriptor,
                    lengths,
                })?;
            }
            Insn::ArrayLength => {
                let array = state.pop(pc)?.op;
                self.emit_value(ctx, rule, state, Ty::Int, |dst| StmtKind::ArrayLength { dst, array })?;
            }
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
                self.emit_throwing(
                    ctx,
                    rule,
                    state,
                    StmtKind::CheckCast {
                        value: value.op,
                        class: class.clone(),
                    },
                )?;
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
            Insn::Pop
            | Insn::Pop2
            | Insn::Dup
            | Insn::DupX1
            | Insn::DupX2
            | Insn::Dup2
            | Insn::Dup2X1
            | Insn::Dup2X2
            | Insn::Swap => {
                unreachable!("handled by shuffle_stack")
            }
        }
        Ok(None)
    }

    fn emit_call(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        ret: Option<Ty>,
        make: impl FnOnce(Option<VarId>) -> StmtKind,
    ) -> Result<(), LiftError> {
        match ret {
            Some(ty) => self.emit_value(ctx, rule, state, ty, |dst| make(Some(dst))),
            None => self.emit_throwing(ctx, rule, state, make(None)),
        }
    }

    fn next_pc(&self, pc: u32) -> Result<u32, LiftError> {
        let index = self.code.instructions.partition_point(|i| i.pc <= pc);
        self.code
            .instructions
            .get(index)
            .map(|i| i.pc)
            .ok_or_else(|| LiftError::at(pc, "branch falls off the end of the code"))
    }

    /// When the value stored into `slot` is a temporary just defined by the rule's last statement and
    /// used nowhere else, renames that definition to a new version of the local, for readability.
    fn name_stored_value(&mut self, rule: &mut RuleBuilder, state: &State, value: Val, slot: u16) -> Val {
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

    /// Turns `lcmp; if<cond>` into the guard `a <cond> b` when the comparison result is used only there.
    fn fuse_long_compare(&self, rule: &mut RuleBuilder, state: &State, value: &Val, op: CmpOp) -> Option<Cond> {
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

/// Where a dispatch procedure's input comes from at its call site.
#[derive(Clone, Debug)]
enum DispatchSource {
    Slot(u16, Ty),
    Out(OutKey),
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
        | StmtKind::LoadConst { dst, .. } => Some(dst),
        StmtKind::Invoke { dst, .. } | StmtKind::InvokeDynamic { dst, .. } => dst.as_mut(),
        _ => None,
    };
    if let Some(dst) = slot {
        if *dst == from {
            *dst = to;
        }
    }
}

fn default_operand(ty: Ty) -> Operand {
    match ty {
        Ty::Int => Operand::Int(0),
        Ty::Long => Operand::Long(0),
        Ty::Float => Operand::Float(0),
        Ty::Double => Operand::Double(0),
        Ty::Ref => Operand::Null,
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

/// Orders procedures by bytecode offset (the entry first) and renumbers every reference.
fn sort_procedures(ir: &mut MethodIr) {
    let rank = |p: &Procedure| match p.kind {
        ProcKind::Entry => 0,
        ProcKind::Block | ProcKind::Loop => 1,
        ProcKind::Branch => 2,
        ProcKind::Exit => 3,
        ProcKind::Handler => 4,
    };
    let mut order: Vec<usize> = (0..ir.procs.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&ir.procs[a], &ir.procs[b]);
        let entry_a = ProcId::from_index(a) != ir.entry;
        let entry_b = ProcId::from_index(b) != ir.entry;
        (entry_a, pa.pc, rank(pa), &pa.name).cmp(&(entry_b, pb.pc, rank(pb), &pb.name))
    });
    let mut new_id = vec![ProcId(0); ir.procs.len()];
    for (new, &old) in order.iter().enumerate() {
        new_id[old] = ProcId::from_index(new);
    }
    let mut old_procs: Vec<Option<Procedure>> = std::mem::take(&mut ir.procs).into_iter().map(Some).collect();
    ir.procs = order.iter().filter_map(|&old| old_procs[old].take()).collect();
    ir.entry = new_id[ir.entry.index()];
    for proc in &mut ir.procs {
        for rule in &mut proc.rules {
            for stmt in &mut rule.body {
                if let StmtKind::Call { proc, .. } = &mut stmt.kind {
                    *proc = new_id[proc.index()];
                }
                if let Some(edge) = &mut stmt.handler {
                    edge.proc = new_id[edge.proc.index()];
                }
            }
        }
    }
}

/// Removes variables no procedure mentions (temporaries renamed away) and renumbers the rest.
fn drop_unused_vars(ir: &mut MethodIr) {
    let mut used = vec![false; ir.vars.len()];
    let mut mark = |operand: &Operand| {
        if let Operand::Var(v) = operand {
            used[v.index()] = true;
        }
    };
    for proc in &ir.procs {
        for v in proc.inputs.iter().chain(&proc.outputs) {
            mark(&Operand::Var(*v));
        }
        for rule in &proc.rules {
            for cond in &rule.guard {
                match cond {
                    Cond::Cmp { lhs, rhs, .. } => {
                        mark(lhs);
                        mark(rhs);
                    }
                    Cond::InstanceOf { value, .. } => mark(value),
                }
            }
            for stmt in &rule.body {
                stmt.kind.uses().into_iter().for_each(&mut mark);
                stmt.kind.defs().into_iter().for_each(|v| mark(&Operand::Var(v)));
                if let Some(edge) = &stmt.handler {
                    edge.args.iter().for_each(&mut mark);
                }
            }
        }
    }
    let mut new_id = vec![None; ir.vars.len()];
    let mut kept = Vec::new();
    for (old, decl) in std::mem::take(&mut ir.vars).into_iter().enumerate() {
        if used[old] {
            new_id[old] = Some(VarId::from_index(kept.len()));
            kept.push(decl);
        }
    }
    ir.vars = kept;
    let remap = |v: &mut VarId| {
        if let Some(new) = new_id[v.index()] {
            *v = new;
        }
    };
    visit_vars_mut(ir, remap);
}
