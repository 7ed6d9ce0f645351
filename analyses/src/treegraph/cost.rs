//! The cost of a topological order of a treegraph: a symbolic execution of the stack that counts
//! the `DUP`, `FETCH` and `POP` instructions the order needs (Park et al., Algorithm 3), and the
//! oracle of how many copies of each value to make.
//!
//! The simulated stack holds one entry per value that is still to be used (however many copies of
//! it there will be) and one per junk copy (a copy no use will consume). Trees run in the given order:
//!
//! - **In place.** Only a tree's leading external operands (those before its first node in depth-first
//!   order) can already be on the stack when it starts; afterwards a node's result is on top. The
//!   longest prefix of them found on top of the stack is used in place. When several entries match,
//!   every entry but the deepest must have no uses left after this tree (otherwise a copy of it would
//!   stay between the matched ones); a value that can have only one copy (a non-last result of a
//!   multi-result node) is used in place only by its last use.
//! - **Fetch.** Every other external operand costs one `FETCH`; a value whose last use is a fetch leaves
//!   one junk copy behind.
//! - **Dup.** A value gets one copy per in-place use, plus one more when a fetch comes after its last
//!   in-place use (the fetch needs a copy to read); two or more copies cost one `DUP k` right after the
//!   value is computed. This is exactly the oracle of Algorithm 2, computed in one forward pass.
//! - **Pop.** Junk on top of the stack when a tree starts (unused results, or junk uncovered by the
//!   previous tree's in-place operands) is popped, with one `POP k`, only when that lets the tree use
//!   operands in place. Junk that is never in the way stays: the block's terminator discards what is
//!   left under its operands, as the JVM's `return` does. (Popping junk eagerly instead makes the
//!   code of `java.base` about 0.4% larger.)
//!
//! The cost only grows as trees are added, so it bounds the cost of every completion of a prefix.

use super::forest::{Item, Tree, TreeId, Treegraph};
use serde::Serialize;

/// A junk entry of the simulated stack.
pub(crate) const JUNK: u32 = u32::MAX;
const NO_FETCH: u32 = u32::MAX;

/// Stack manipulation instructions: what Algorithm 3 counts, plus the pops of junk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Manipulations {
    pub dup: u32,
    pub fetch: u32,
    pub pop: u32,
}

impl Manipulations {
    /// All stack manipulation instructions.
    pub fn total(&self) -> u32 {
        self.dup + self.fetch + self.pop
    }
}

/// What one tree did in the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StepOutcome {
    /// How many leading external operands were in place.
    pub matched: usize,
    /// How many junk entries were popped before the tree.
    pub popped: u32,
}

/// Everything a step changed, to undo it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Undo {
    stack: Vec<u32>,
    values: Vec<(u32, ValueState)>,
    cost: Manipulations,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ValueState {
    remaining: u32,
    in_place: u32,
    last_fetch: u32,
    dup_paid: bool,
}

/// The simulated stack and the use counters of every value.
#[derive(Clone, Debug)]
pub(crate) struct Simulator<'a> {
    treegraph: &'a Treegraph,
    stack: Vec<u32>,
    values: Vec<ValueState>,
    cost: Manipulations,
    runs: Vec<(u32, u32)>,
}

impl<'a> Simulator<'a> {
    /// The state before the first tree: an empty stack, every use still to come.
    pub fn new(treegraph: &'a Treegraph) -> Self {
        Simulator {
            treegraph,
            stack: Vec::new(),
            values: treegraph
                .values
                .iter()
                .map(|v| ValueState {
                    remaining: v.uses,
                    in_place: 0,
                    last_fetch: NO_FETCH,
                    dup_paid: false,
                })
                .collect(),
            cost: Manipulations::default(),
            runs: Vec::new(),
        }
    }

    /// The manipulations counted so far.
    pub fn cost(&self) -> Manipulations {
        self.cost
    }

    /// How many copies of value `v` the oracle asks for (valid once all its uses have run).
    pub fn copies(&self, v: u32) -> u32 {
        let state = &self.values[v as usize];
        let for_fetch = if state.last_fetch == NO_FETCH {
            0
        } else {
            state.last_fetch + 1
        };
        state.in_place.max(for_fetch).max(1)
    }

    /// Appends a description of the state that decides all future costs: the stack, and for each
    /// live entry whether its `DUP` is paid or it has been used in place once. Together with the
    /// set of emitted trees (which fixes the remaining uses) this is a complete search state.
    pub fn key_into(&self, out: &mut Vec<u32>) {
        for &entry in &self.stack {
            if entry == JUNK {
                out.push(JUNK);
            } else {
                let state = &self.values[entry as usize];
                let flag = if state.dup_paid {
                    2
                } else {
                    u32::from(state.in_place > 0)
                };
                out.push(entry << 2 | flag);
            }
        }
    }

    fn save(&self, undo: &mut Undo, v: u32) {
        undo.values.push((v, self.values[v as usize]));
    }

    fn charge_dup(&mut self, v: u32) {
        if !self.values[v as usize].dup_paid && self.copies(v) >= 2 {
            self.values[v as usize].dup_paid = true;
            self.cost.dup += 1;
        }
    }

    /// Whether the first `j` leading operands of `tree` can be used in place; leaves the runs of
    /// equal values in `self.runs`.
    fn fits(&mut self, tree: &Tree, j: usize) -> bool {
        self.runs.clear();
        for item in &tree.items[..j] {
            let Item::External(v) = *item else {
                return false;
            };
            match self.runs.last_mut() {
                Some((last, count)) if *last == v => *count += 1,
                _ => self.runs.push((v, 1)),
            }
        }
        let s = self.runs.len();
        if s > self.stack.len() {
            return false;
        }
        let base = self.stack.len() - s;
        for (k, &(v, r)) in self.runs.iter().enumerate() {
            if self.stack[base + k] != v {
                return false;
            }
            let remaining = self.values[v as usize].remaining;
            let ok = if k == 0 { remaining >= r } else { remaining == r };
            if !ok {
                return false;
            }
            if self.treegraph.values[v as usize].single_copy && !(r == 1 && remaining == 1) {
                return false;
            }
        }
        true
    }

    /// The longest prefix of `tree`'s leading operands that can be used in place now.
    fn best_match(&mut self, tree: &Tree) -> usize {
        (1..=tree.leading).rev().find(|&j| self.fits(tree, j)).unwrap_or(0)
    }

    /// Runs tree `t`, recording what it changes in `undo` (which is overwritten).
    pub fn step(&mut self, t: TreeId, undo: &mut Undo) -> StepOutcome {
        let treegraph = self.treegraph;
        let tree = &treegraph.trees[t.index()];
        undo.stack.clear();
        undo.stack.extend_from_slice(&self.stack);
        undo.values.clear();
        undo.cost = self.cost;
        // Junk on top is popped before the tree runs only when that lets the tree use operands in
        // place; otherwise it stays (the tree's results go on top of it).
        let junk = self.stack.iter().rev().take_while(|&&e| e == JUNK).count();
        let mut popped = 0;
        let matched;
        if junk > 0 {
            self.stack.truncate(self.stack.len() - junk);
            matched = self.best_match(tree);
            if matched == 0 {
                self.stack.extend(std::iter::repeat_n(JUNK, junk));
            } else {
                popped = junk as u32;
                self.cost.pop += 1;
            }
        } else {
            matched = self.best_match(tree);
        }
        // Recompute the runs of the chosen match (`best_match` may have tried shorter ones last).
        if matched > 0 && self.fits(tree, matched) {
            let runs = std::mem::take(&mut self.runs);
            let base = self.stack.len() - runs.len();
            for &(v, r) in &runs {
                self.save(undo, v);
                let state = &mut self.values[v as usize];
                state.remaining -= r;
                state.in_place += r;
                self.charge_dup(v);
            }
            let keep_deepest = self.values[runs[0].0 as usize].remaining > 0;
            self.stack.truncate(base + usize::from(keep_deepest));
            self.runs = runs;
        }
        for item in &tree.items[matched..] {
            if let Item::External(v) = *item {
                self.save(undo, v);
                self.cost.fetch += 1;
                let state = &mut self.values[v as usize];
                state.remaining -= 1;
                state.last_fetch = state.in_place;
                let now_junk = state.remaining == 0;
                self.charge_dup(v);
                if now_junk {
                    if let Some(slot) = self.stack.iter().rposition(|&e| e == v) {
                        self.stack[slot] = JUNK;
                    }
                }
            }
        }
        for &v in &tree.results {
            self.stack.push(if treegraph.values[v as usize].uses == 0 {
                JUNK
            } else {
                v
            });
        }
        StepOutcome { matched, popped }
    }

    /// Reverts the step recorded in `undo`.
    pub fn undo(&mut self, undo: &Undo) {
        self.stack.clear();
        self.stack.extend_from_slice(&undo.stack);
        for &(v, state) in undo.values.iter().rev() {
            self.values[v as usize] = state;
        }
        self.cost = undo.cost;
    }
}

/// The cost of a complete order and what each tree did.
pub(crate) fn simulate<'a>(treegraph: &'a Treegraph, order: &[TreeId]) -> (Simulator<'a>, Vec<StepOutcome>) {
    let mut simulator = Simulator::new(treegraph);
    let mut undo = Undo::default();
    let outcomes = order.iter().map(|&t| simulator.step(t, &mut undo)).collect();
    (simulator, outcomes)
}

/// The cost of a complete topological order (the sum of Algorithm 3, with pops).
pub fn order_cost(treegraph: &Treegraph, order: &[TreeId]) -> Manipulations {
    simulate(treegraph, order).0.cost()
}
