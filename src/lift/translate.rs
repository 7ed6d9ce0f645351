//! Translation of a method's blocks into procedures and guarded rules.
//!
//! Each reachable block becomes a procedure; a loop header's procedure is the loop, recursive
//! through its back edges, with the loop's outputs; blocks inside a loop call each other in tail
//! position with the loop's outputs; entering a loop is a non-tail call followed by the code after
//! the loop (directly, or through an exit-dispatch procedure when the loop has several exits).
//! The operand stack is simulated with operands, so loads, stores and stack shuffles emit nothing.

//!
//! The translation is split by concern: `state` (the simulated locals, stack and rule), `blocks`
//! (block procedures, branches, edges), `loops`, `handlers` (exception handlers), `insns` (`step`,
//! which hands each instruction to its family: `locals`, `arith`, `control`, `heap`, `calls`) and
//! `finish` (procedure order, unused variables).

mod arith;
mod blocks;
mod calls;
mod control;
mod finish;
mod handlers;
mod heap;
mod insns;
mod locals;
mod loops;
mod state;

use super::cfg::Cfg;
use super::frames::{call_signature, is_wide, Frame};
use super::names::{sanitize_local_name, OutKey, VarKey, VarTable};
use super::LiftError;
use crate::classfile::{self as cf, Code};
use finish::{drop_unused_vars, sort_procedures};
use fixedbitset::FixedBitSet;
use jresa_analyses::ir::*;
use state::{RuleBuilder, State, Val};
use std::collections::{BTreeSet, HashMap};

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
            ghosts: Vec::new(),
            heap_entry: None,
        };
        jresa_analyses::ir::monitors::drop_impossible_monitor_exits(&mut ir);
        sort_procedures(&mut ir);
        drop_unused_vars(&mut ir);
        Ok(ir)
    }

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
}
