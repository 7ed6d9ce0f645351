//! The control-flow graph of a method's bytecode: basic blocks, normal and exceptional edges,
//! reachability, dominators and natural loops.
//!
//! Invariants: block 0 starts at offset 0; blocks partition the instruction list in order; only
//! reachable blocks take part in dominators and loops; natural loops with different headers are
//! disjoint or nested, and `Loop::parent` is the innermost loop strictly containing a loop.

use super::LiftError;
use crate::classfile::{Code, Insn};
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::BTreeSet;
use std::ops::Range;

/// Where a basic block's last instruction sends control.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    /// Falls through or jumps unconditionally to the block starting at this offset.
    Goto(u32),
    /// A conditional branch or switch: all of these offsets are successors (duplicates removed).
    Branch(Vec<u32>),
    /// `*return` or `athrow`: no successor inside the method (handlers aside).
    Exit,
}

/// A basic block: a maximal run of instructions entered only at its first one.
#[derive(Clone, Debug)]
pub struct Block {
    pub start_pc: u32,
    /// Indices into `Code::instructions`.
    pub insns: Range<usize>,
    pub terminator: Terminator,
    /// Indices of successor blocks through normal control flow.
    pub succs: Vec<usize>,
    /// Indices of handler blocks reachable through exceptions raised inside the block.
    pub handler_succs: Vec<usize>,
    pub reachable: bool,
}

/// A natural loop: its header, its blocks and the loop that immediately contains it.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: usize,
    /// Blocks of the loop, header included, sorted.
    pub blocks: Vec<usize>,
    pub parent: Option<usize>,
}

/// The control-flow graph with its loop nesting.
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Block index of each instruction.
    pub block_of_insn: Vec<usize>,
    pub loops: Vec<Loop>,
    /// The innermost loop containing each block.
    pub loop_of_block: Vec<Option<usize>>,
    /// The loop whose header each block is.
    pub header_of: Vec<Option<usize>>,
}

/// Whether the instruction can raise an exception, exactly when the lifter gives its statement a
/// handler edge (the IR's `StmtKind::can_throw`).
pub fn insn_can_throw(insn: &Insn) -> bool {
    use crate::classfile::{ArithOp, Constant, Kind};
    matches!(
        insn,
        Insn::Arith(Kind::Int | Kind::Long, ArithOp::Div | ArithOp::Rem)
            | Insn::Ldc(Constant::MethodType(_) | Constant::MethodHandle(_) | Constant::Dynamic { .. })
            | Insn::ArrayLoad(_)
            | Insn::ArrayStore(_)
            | Insn::GetStatic(_)
            | Insn::PutStatic(_)
            | Insn::GetField(_)
            | Insn::PutField(_)
            | Insn::Invoke(..)
            | Insn::InvokeDynamic { .. }
            | Insn::New(_)
            | Insn::NewArray(_)
            | Insn::ANewArray(_)
            | Insn::ArrayLength
            | Insn::AThrow
            | Insn::CheckCast(_)
            | Insn::MonitorEnter
            | Insn::MonitorExit
            | Insn::MultiANewArray(..)
    )
}

/// Where control can go after an instruction (besides exceptions), or `None` when it falls through.
fn branch_targets(insn: &Insn) -> Option<Terminator> {
    Some(match insn {
        Insn::IfZero(_, t) | Insn::IfICmp(_, t) | Insn::IfACmp(_, t) | Insn::IfNull(t) | Insn::IfNonNull(t) => {
            Terminator::Branch(vec![*t])
        }
        Insn::Goto(t) => Terminator::Goto(*t),
        Insn::TableSwitch { default, targets, .. } => {
            let mut all = vec![*default];
            all.extend(targets);
            Terminator::Branch(all)
        }
        Insn::LookupSwitch { default, pairs } => {
            let mut all = vec![*default];
            all.extend(pairs.iter().map(|p| p.1));
            Terminator::Branch(all)
        }
        Insn::Return(_) | Insn::AThrow => Terminator::Exit,
        _ => return None,
    })
}

impl Cfg {
    /// Builds the CFG of `code`; fails on `jsr`/`ret` and on branches into the middle of nowhere.
    pub fn build(code: &Code) -> Result<Cfg, LiftError> {
        let insns = &code.instructions;
        if insns.is_empty() {
            return Err(LiftError::at(0, "the method has no instructions"));
        }
        let index_of_pc = |pc: u32| insns.binary_search_by_key(&pc, |i| i.pc).ok();
        let mut leaders = BTreeSet::new();
        leaders.insert(0usize);
        for handler in &code.exception_table {
            let index = index_of_pc(handler.handler)
                .ok_or_else(|| LiftError::at(handler.handler, "exception handler does not start at an instruction"))?;
            leaders.insert(index);
        }
        for (k, instruction) in insns.iter().enumerate() {
            if let Insn::Jsr(_) | Insn::Ret(_) = instruction.insn {
                return Err(LiftError::at(instruction.pc, "jsr/ret subroutines are not supported"));
            }
            if let Some(terminator) = branch_targets(&instruction.insn) {
                let targets = match &terminator {
                    Terminator::Goto(t) => vec![*t],
                    Terminator::Branch(ts) => ts.clone(),
                    Terminator::Exit => Vec::new(),
                };
                for target in targets {
                    let index = index_of_pc(target).ok_or_else(|| {
                        LiftError::at(instruction.pc, format!("branch to {target}, which is no instruction"))
                    })?;
                    leaders.insert(index);
                }
                if k + 1 < insns.len() {
                    leaders.insert(k + 1);
                }
            }
        }
        let starts: Vec<usize> = leaders.into_iter().collect();
        let mut blocks = Vec::with_capacity(starts.len());
        let mut block_of_insn = vec![0; insns.len()];
        for (b, &start) in starts.iter().enumerate() {
            let end = starts.get(b + 1).copied().unwrap_or(insns.len());
            block_of_insn[start..end].fill(b);
            let last = &insns[end - 1];
            let terminator = match branch_targets(&last.insn) {
                Some(Terminator::Branch(mut targets)) => {
                    let fallthrough = matches!(
                        last.insn,
                        Insn::IfZero(..) | Insn::IfICmp(..) | Insn::IfACmp(..) | Insn::IfNull(_) | Insn::IfNonNull(_)
                    );
                    if fallthrough {
                        let next = insns.get(end).ok_or_else(|| {
                            LiftError::at(last.pc, "conditional branch falls off the end of the code")
                        })?;
                        targets.push(next.pc);
                    }
                    dedup_keep_order(&mut targets);
                    Terminator::Branch(targets)
                }
                Some(other) => other,
                None => match insns.get(end) {
                    Some(next) => Terminator::Goto(next.pc),
                    None => return Err(LiftError::at(last.pc, "execution falls off the end of the code")),
                },
            };
            blocks.push(Block {
                start_pc: insns[start].pc,
                insns: start..end,
                terminator,
                succs: Vec::new(),
                handler_succs: Vec::new(),
                reachable: false,
            });
        }
        let block_at = |pc: u32| index_of_pc(pc).map(|i| block_of_insn[i]);
        for block in &mut blocks {
            let targets = match &block.terminator {
                Terminator::Goto(t) => vec![*t],
                Terminator::Branch(ts) => ts.clone(),
                Terminator::Exit => Vec::new(),
            };
            // Every target is a leader, so it starts a block.
            block.succs = targets.into_iter().filter_map(block_at).collect();
            let mut handlers = Vec::new();
            for k in block.insns.clone() {
                if !insn_can_throw(&insns[k].insn) {
                    continue;
                }
                for handler in &code.exception_table {
                    if handler.start <= insns[k].pc && insns[k].pc < handler.end {
                        handlers.extend(block_at(handler.handler));
                    }
                }
            }
            dedup_keep_order(&mut handlers);
            block.handler_succs = handlers;
        }
        let mut cfg = Cfg {
            blocks,
            block_of_insn,
            loops: Vec::new(),
            loop_of_block: Vec::new(),
            header_of: Vec::new(),
        };
        cfg.mark_reachable();
        cfg.find_loops();
        Ok(cfg)
    }

    /// All successors of a block, normal ones first.
    pub fn all_succs(&self, block: usize) -> impl Iterator<Item = usize> + '_ {
        self.blocks[block]
            .succs
            .iter()
            .chain(&self.blocks[block].handler_succs)
            .copied()
    }

    fn mark_reachable(&mut self) {
        let mut stack = vec![0];
        self.blocks[0].reachable = true;
        while let Some(b) = stack.pop() {
            let succs: Vec<usize> = self.all_succs(b).collect();
            for s in succs {
                if !self.blocks[s].reachable {
                    self.blocks[s].reachable = true;
                    stack.push(s);
                }
            }
        }
    }

    fn find_loops(&mut self) {
        let n = self.blocks.len();
        let mut graph = DiGraph::<(), ()>::with_capacity(n, n * 2);
        for _ in 0..n {
            graph.add_node(());
        }
        for b in 0..n {
            if !self.blocks[b].reachable {
                continue;
            }
            for s in self.all_succs(b).collect::<Vec<_>>() {
                graph.add_edge(NodeIndex::new(b), NodeIndex::new(s), ());
            }
        }
        let dominators = simple_fast(&graph, NodeIndex::new(0));
        let dominates = |a: usize, b: usize| {
            dominators
                .dominators(NodeIndex::new(b))
                .is_some_and(|mut it| it.any(|d| d.index() == a))
        };
        // Back edges grouped by header, headers in offset order.
        let mut back_edges: Vec<(usize, Vec<usize>)> = Vec::new();
        for b in 0..n {
            if !self.blocks[b].reachable {
                continue;
            }
            for s in self.all_succs(b).collect::<Vec<_>>() {
                if dominates(s, b) {
                    match back_edges.iter_mut().find(|(h, _)| *h == s) {
                        Some((_, sources)) => sources.push(b),
                        None => back_edges.push((s, vec![b])),
                    }
                }
            }
        }
        back_edges.sort_by_key(|(h, _)| *h);
        let mut preds = vec![Vec::new(); n];
        for b in 0..n {
            if self.blocks[b].reachable {
                for s in self.all_succs(b).collect::<Vec<_>>() {
                    preds[s].push(b);
                }
            }
        }
        let mut loops = Vec::new();
        for (header, sources) in back_edges {
            let mut member = vec![false; n];
            member[header] = true;
            let mut stack: Vec<usize> = Vec::new();
            for source in sources {
                if !member[source] {
                    member[source] = true;
                    stack.push(source);
                }
            }
            while let Some(b) = stack.pop() {
                for &p in &preds[b] {
                    if !member[p] {
                        member[p] = true;
                        stack.push(p);
                    }
                }
            }
            let blocks: Vec<usize> = (0..n).filter(|&b| member[b]).collect();
            loops.push(Loop {
                header,
                blocks,
                parent: None,
            });
        }
        // Innermost loop of each block: the smallest loop containing it.
        let mut order: Vec<usize> = (0..loops.len()).collect();
        order.sort_by_key(|&l| loops[l].blocks.len());
        let mut loop_of_block = vec![None; n];
        for &l in &order {
            for &b in &loops[l].blocks {
                if loop_of_block[b].is_none() {
                    loop_of_block[b] = Some(l);
                }
            }
        }
        for &l in &order {
            let header = loops[l].header;
            loops[l].parent = order
                .iter()
                .copied()
                .filter(|&other| other != l && loops[other].blocks.len() > loops[l].blocks.len())
                .find(|&other| loops[other].blocks.binary_search(&header).is_ok());
        }
        let mut header_of = vec![None; n];
        for (l, lp) in loops.iter().enumerate() {
            header_of[lp.header] = Some(l);
        }
        self.loops = loops;
        self.loop_of_block = loop_of_block;
        self.header_of = header_of;
    }

    /// Whether `block` belongs to loop `l` (directly or through a nested loop).
    pub fn in_loop(&self, block: usize, l: usize) -> bool {
        self.loops[l].blocks.binary_search(&block).is_ok()
    }
}

fn dedup_keep_order<T: PartialEq + Copy>(items: &mut Vec<T>) {
    let mut seen: Vec<T> = Vec::with_capacity(items.len());
    items.retain(|x| {
        if seen.contains(x) {
            false
        } else {
            seen.push(*x);
            true
        }
    });
}
