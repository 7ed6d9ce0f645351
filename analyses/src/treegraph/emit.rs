//! Code emission: the treegraph scheduler (Park et al., Algorithm 2) for a chosen order, and the
//! store/load baseline (every value used more than once, or not on top when its single use comes,
//! goes through a local).
//!
//! Both emitters track the real stack, copy by copy, and check that every node finds exactly its
//! operands on top; a mismatch is an `EmitError` (a bug), never wrong code.

use super::cost::simulate;
use super::dag::{Dag, NodeId, ValueRef};
use super::forest::{Item, Tree, TreeId, Treegraph};
use serde::Serialize;
use std::fmt;

/// One instruction of scheduled code, before it is mapped to a concrete instruction set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "step", content = "arg", rename_all = "lowercase")]
pub enum Step {
    /// Executes a node: pops its operands (the first deepest) and pushes its results.
    Node(NodeId),
    /// Pushes `k` more copies of the top entry.
    Dup(u32),
    /// Pushes a copy of the entry at depth `k` (1 is the top).
    Fetch(u32),
    /// Discards the top `k` entries.
    Pop(u32),
    /// Pops the top entry into local `k`.
    Store(u32),
    /// Pushes local `k`.
    Load(u32),
}

/// Emitted code with the deepest stack it reaches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Code {
    pub steps: Vec<Step>,
    pub max_stack: u32,
    /// Locals the code stores into (the baseline's temporaries), numbered from the first free slot.
    pub temps: u32,
}

impl Code {
    /// The number of instructions of each kind: nodes, dups, fetches, pops, stores, loads.
    pub fn counts(&self) -> StepCounts {
        let mut counts = StepCounts::default();
        for step in &self.steps {
            match step {
                Step::Node(_) => counts.nodes += 1,
                Step::Dup(_) => counts.dup += 1,
                Step::Fetch(_) => counts.fetch += 1,
                Step::Pop(_) => counts.pop += 1,
                Step::Store(_) => counts.store += 1,
                Step::Load(_) => counts.load += 1,
            }
        }
        counts
    }
}

/// Instructions of scheduled code by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepCounts {
    pub nodes: u32,
    pub dup: u32,
    pub fetch: u32,
    pub pop: u32,
    pub store: u32,
    pub load: u32,
}

impl StepCounts {
    /// All instructions.
    pub fn total(&self) -> u32 {
        self.nodes + self.dup + self.fetch + self.pop + self.store + self.load
    }

    /// Instructions that only move values: everything but nodes.
    pub fn overhead(&self) -> u32 {
        self.total() - self.nodes
    }
}

/// Emission found the stack different from what the schedule promised: a bug in the scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError(pub String);

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EmitError {}

/// The real stack: one entry per copy.
struct Machine {
    stack: Vec<ValueRef>,
    steps: Vec<Step>,
    max_stack: usize,
}

impl Machine {
    fn new() -> Self {
        Machine {
            stack: Vec::new(),
            steps: Vec::new(),
            max_stack: 0,
        }
    }

    fn push(&mut self, value: ValueRef) {
        self.stack.push(value);
        self.max_stack = self.max_stack.max(self.stack.len());
    }

    fn node<L>(&mut self, dag: &Dag<L>, id: NodeId) -> Result<(), EmitError> {
        let node = dag.node(id);
        let arity = node.operands.len();
        if self.stack.len() < arity || self.stack[self.stack.len() - arity..] != node.operands[..] {
            return Err(EmitError(format!(
                "{id} expects {:?} on top of the stack, which holds {:?}",
                node.operands, self.stack
            )));
        }
        self.stack.truncate(self.stack.len() - arity);
        self.steps.push(Step::Node(id));
        for result in 0..node.results {
            self.push(ValueRef { node: id, result });
        }
        Ok(())
    }

    fn fetch(&mut self, value: ValueRef) -> Result<(), EmitError> {
        let slot = self
            .stack
            .iter()
            .rposition(|&v| v == value)
            .ok_or_else(|| EmitError(format!("{value} is not on the stack to fetch")))?;
        self.steps.push(Step::Fetch((self.stack.len() - slot) as u32));
        self.push(value);
        Ok(())
    }

    fn pop(&mut self, count: u32) {
        self.stack.truncate(self.stack.len().saturating_sub(count as usize));
        match self.steps.last_mut() {
            Some(Step::Pop(k)) => *k += count,
            _ => self.steps.push(Step::Pop(count)),
        }
    }

    fn finish(self, temps: u32) -> Code {
        Code {
            steps: self.steps,
            max_stack: self.max_stack as u32,
            temps,
        }
    }
}

/// Emits the code of `order` (a topological order of `treegraph`): for each tree, a `POP` of junk
/// in the way of its in-place operands, fetches of the operands not in place interleaved with its
/// depth-first code, then a `DUP` of its value when the oracle asks for copies.
pub fn emit_treegraph<L>(dag: &Dag<L>, treegraph: &Treegraph, order: &[TreeId]) -> Result<Code, EmitError> {
    if !treegraph.is_topological(order) {
        return Err(EmitError("the order is not topological".to_owned()));
    }
    let (simulator, outcomes) = simulate(treegraph, order);
    let mut left: Vec<u32> = treegraph.values.iter().map(|v| v.uses).collect();
    let mut machine = Machine::new();
    for (&t, outcome) in order.iter().zip(&outcomes) {
        let tree = treegraph.tree(t);
        if outcome.popped > 0 {
            let popped = outcome.popped as usize;
            let dead = machine.stack.len() >= popped
                && machine.stack[machine.stack.len() - popped..]
                    .iter()
                    .all(|copy| value_left(treegraph, &left, *copy) == Some(0));
            if !dead {
                return Err(EmitError(format!("{t}: popping copies still needed")));
            }
            machine.pop(outcome.popped);
        }
        let base = machine.stack.len().checked_sub(outcome.matched);
        let in_place_ok = base.is_some_and(|base| {
            tree.items[..outcome.matched]
                .iter()
                .zip(&machine.stack[base..])
                .all(|(item, &copy)| matches!(item, Item::External(v) if treegraph.values[*v as usize].value == copy))
        });
        if !in_place_ok {
            return Err(EmitError(format!(
                "{t}: the {} operands to use in place are not on top",
                outcome.matched
            )));
        }
        for (k, item) in tree.items.iter().enumerate() {
            match *item {
                Item::External(v) => {
                    left[v as usize] -= 1;
                    if k >= outcome.matched {
                        machine.fetch(treegraph.values[v as usize].value)?;
                    }
                }
                Item::Node(id) => machine.node(dag, id)?,
            }
        }
        for (k, &v) in tree.results.iter().enumerate() {
            let copies = simulator.copies(v);
            if copies >= 2 {
                if k + 1 != tree.results.len() {
                    return Err(EmitError(format!("{t}: a value below the top needs {copies} copies")));
                }
                machine.steps.push(Step::Dup(copies - 1));
                for _ in 1..copies {
                    machine.push(treegraph.values[v as usize].value);
                }
            }
        }
    }
    if let Some(v) = left.iter().position(|&l| l != 0) {
        return Err(EmitError(format!(
            "{} still has uses after the last tree",
            treegraph.values[v].value
        )));
    }
    Ok(machine.finish(0))
}

/// The uses left of the external value `copy`, or `None` when it is not an external value.
fn value_left(treegraph: &Treegraph, left: &[u32], copy: ValueRef) -> Option<u32> {
    let tree = treegraph.tree(treegraph.tree_of[copy.node.index()]);
    if tree.root != copy.node {
        return None;
    }
    tree.results.get(copy.result as usize).map(|&v| left[v as usize])
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Kept on the stack for its single use, which finds it in place.
    Stack,
    /// Stored in a local after it is computed and loaded at each use.
    Temp,
    /// Unused: popped (or left as junk when it is below a kept value).
    Dead,
}

/// The store/load baseline in the original order: a value stays on the stack only when it has a
/// single use that finds it on top; every other used value is stored into a fresh local right after
/// it is computed and loaded at each use. Locals are numbered from `first_temp`.
///
/// `local_store` recognises nodes that only store their operand into a local (`Some(slot)`), such as
/// the stores of values exception handlers receive. A value with such a use is stored there, by
/// that node, right after it is computed, and loaded from that local at its other uses, as javac
/// does with a local variable, instead of being stored twice.
pub fn emit_baseline<L>(
    dag: &Dag<L>,
    treegraph: &Treegraph,
    first_temp: u32,
    local_store: impl Fn(&L) -> Option<u32>,
) -> Result<Code, EmitError> {
    // The local-store tree of each value that has one: its slot, node and tree.
    let mut backing: Vec<Option<(u32, NodeId, usize)>> = vec![None; treegraph.values.len()];
    for (k, tree) in treegraph.trees.iter().enumerate() {
        if let ([Item::External(v), Item::Node(node)], Some(slot)) =
            (&tree.items[..], local_store(&dag.node(tree.root).label))
        {
            if *node == tree.root && backing[*v as usize].is_none() {
                backing[*v as usize] = Some((slot, *node, k));
            }
        }
    }
    let mut modes: Vec<Mode> = treegraph
        .values
        .iter()
        .zip(&backing)
        .map(|(v, backed)| match (v.uses, backed) {
            (0, _) => Mode::Dead,
            (_, Some(_)) => Mode::Temp,
            (1, None) => Mode::Stack,
            _ => Mode::Temp,
        })
        .collect();
    // Each failed attempt moves one more value to a local, so this ends.
    loop {
        match try_baseline(dag, treegraph, &modes, &backing, first_temp)? {
            Ok(code) => return Ok(code),
            Err(v) => {
                if modes[v as usize] != Mode::Stack {
                    return Err(EmitError(format!(
                        "baseline conflict on {} that is not kept on the stack",
                        treegraph.values[v as usize].value
                    )));
                }
                modes[v as usize] = Mode::Temp;
            }
        }
    }
}

/// One attempt at the baseline: `Ok(Err(v))` when value `v` cannot stay on the stack.
fn try_baseline<L>(
    dag: &Dag<L>,
    treegraph: &Treegraph,
    modes: &[Mode],
    backing: &[Option<(u32, NodeId, usize)>],
    first_temp: u32,
) -> Result<Result<Code, u32>, EmitError> {
    let mut slot: Vec<Option<u32>> = vec![None; treegraph.values.len()];
    let mut temps = 0u32;
    let mut left: Vec<u32> = treegraph.values.iter().map(|v| v.uses).collect();
    let mut machine = Machine::new();
    let mut done = vec![false; treegraph.trees.len()];
    for (k, tree) in treegraph.trees.iter().enumerate() {
        if done[k] {
            // A local store that already ran when its value was computed.
            continue;
        }
        // Junk on top (unused values) is popped first when that puts operands in place, as in the
        // treegraph code.
        let junk = machine
            .stack
            .iter()
            .rev()
            .take_while(|copy| value_left(treegraph, &left, **copy) == Some(0))
            .count();
        let below = machine.stack.len() - junk;
        let matched = if junk > 0 {
            let matched = baseline_match(treegraph, modes, tree, &machine.stack[..below]);
            if matched > 0 {
                machine.pop(junk as u32);
            }
            matched * usize::from(machine.stack.len() == below)
        } else {
            baseline_match(treegraph, modes, tree, &machine.stack)
        };
        for (k, item) in tree.items.iter().enumerate() {
            match *item {
                Item::External(v) => {
                    left[v as usize] -= 1;
                    if k < matched {
                        continue;
                    }
                    match (modes[v as usize], slot[v as usize]) {
                        (Mode::Temp, Some(s)) => {
                            machine.steps.push(Step::Load(s));
                            machine.push(treegraph.values[v as usize].value);
                        }
                        (Mode::Stack, _) => return Ok(Err(v)),
                        _ => {
                            return Err(EmitError(format!(
                                "{} is used before it is stored",
                                treegraph.values[v as usize].value
                            )))
                        }
                    }
                }
                Item::Node(id) => machine.node(dag, id)?,
            }
        }
        // Store the results from the top down until one stays on the stack; unused ones above a
        // stored one are popped, the others stay as junk until they are in the way.
        let mut kept_above: Option<u32> = None;
        let mut unused_above = 0;
        for &v in tree.results.iter().rev() {
            match (modes[v as usize], kept_above) {
                (Mode::Stack, None) => kept_above = Some(v),
                (Mode::Temp, Some(above)) => return Ok(Err(above)),
                (_, Some(_)) => {}
                (Mode::Temp, None) => {
                    if unused_above > 0 {
                        machine.pop(unused_above);
                        unused_above = 0;
                    }
                    if let Some((s, store, store_tree)) = backing[v as usize] {
                        slot[v as usize] = Some(s);
                        machine.node(dag, store)?;
                        left[v as usize] -= 1;
                        done[store_tree] = true;
                    } else {
                        let s = first_temp + temps;
                        temps += 1;
                        slot[v as usize] = Some(s);
                        machine.steps.push(Step::Store(s));
                        machine.stack.pop();
                    }
                }
                (Mode::Dead, None) => unused_above += 1,
            }
        }
    }
    Ok(Ok(machine.finish(temps)))
}

/// The longest prefix of `tree`'s leading operands kept on the stack that `stack` has on top.
fn baseline_match(treegraph: &Treegraph, modes: &[Mode], tree: &Tree, stack: &[ValueRef]) -> usize {
    let kept = tree.items[..tree.leading]
        .iter()
        .take_while(|i| matches!(i, Item::External(v) if modes[*v as usize] == Mode::Stack))
        .count();
    (1..=kept)
        .rev()
        .find(|&j| {
            stack.len() >= j
                && tree.items[..j].iter().zip(&stack[stack.len() - j..]).all(
                    |(item, &copy)| matches!(item, Item::External(v) if treegraph.values[*v as usize].value == copy),
                )
        })
        .unwrap_or(0)
}
