//! The search for the cheapest topological order of a treegraph (Park et al., Sec. 4).
//!
//! Orders are enumerated as in Knuth and Szwarcfiter's algorithm: depth first, extending a prefix by
//! each tree whose dependences are all placed, and undoing the extension afterwards. The cost of a
//! prefix (see `cost`) never decreases, so the enumeration is a branch and bound: a prefix whose cost
//! plus the fetches its remaining trees cannot avoid reaches the best complete cost is not extended,
//! and neither is a prefix that reaches an already visited state (same trees placed, same simulated
//! stack) at no lower cost. Children are tried cheapest first, so the first complete order is a
//! greedy one. The original order is the first incumbent.
//!
//! **When the search finishes, the order found is optimal** among all topological orders under the
//! cost model; when a budget stops it, the order is the cheapest seen.

use super::cost::{simulate, Simulator, Undo};
use super::forest::{TreeId, Treegraph};
use super::limits::ScheduleLimits;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchOutcome {
    /// Every order was enumerated or proven no better: the order is optimal.
    Optimal,
    /// The time budget ran out.
    TimeBudget,
    /// The step budget ran out.
    StepBudget,
    /// The block has too many trees to search; the better of the original and a greedy order.
    TooLarge,
}

impl SearchOutcome {
    /// Whether the order is proven optimal.
    pub fn is_optimal(self) -> bool {
        self == SearchOutcome::Optimal
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchResult {
    pub order: Vec<TreeId>,
    /// Stack manipulations of `order`.
    pub cost: u32,
    /// Stack manipulations of the original order.
    pub original_cost: u32,
    pub outcome: SearchOutcome,
    /// Complete orders reached (not counting the original one).
    pub orders: u64,
    /// Prefixes extended by one tree.
    pub steps: u64,
}

/// Finds the cheapest topological order of `treegraph` within `limits`.
pub fn find_best_order(treegraph: &Treegraph, limits: &ScheduleLimits) -> SearchResult {
    let original = treegraph.original_order();
    let original_cost = simulate(treegraph, &original).0.cost().total();
    let n = treegraph.len();
    if n > limits.max_searched_trees {
        let greedy = greedy_order(treegraph);
        let greedy_cost = simulate(treegraph, &greedy).0.cost().total();
        let (order, cost) = if greedy_cost < original_cost {
            (greedy, greedy_cost)
        } else {
            (original, original_cost)
        };
        return SearchResult {
            order,
            cost,
            original_cost,
            outcome: SearchOutcome::TooLarge,
            orders: 1,
            steps: n as u64,
        };
    }
    let mut dependents: Vec<Vec<TreeId>> = vec![Vec::new(); n];
    let mut waiting: Vec<u32> = vec![0; n];
    for (k, tree) in treegraph.trees.iter().enumerate() {
        waiting[k] = tree.deps.len() as u32;
        for d in &tree.deps {
            dependents[d.index()].push(TreeId(k as u32));
        }
    }
    let ready: Vec<TreeId> = (0..n as u32).map(TreeId).filter(|t| waiting[t.index()] == 0).collect();
    let forced_left = treegraph.trees.iter().map(|t| t.forced_fetches()).sum();
    let mut search = Search {
        treegraph,
        simulator: Simulator::new(treegraph),
        dependents,
        waiting,
        ready,
        placed: vec![0; n.div_ceil(32)],
        order: Vec::with_capacity(n),
        forced_left,
        best_cost: original_cost,
        best_order: original,
        orders: 0,
        steps: 0,
        start: Instant::now(),
        limits: *limits,
        stopped: None,
        memo: HashMap::new(),
        key: Vec::new(),
        memo_enabled: treegraph.values.len() < (1 << 29),
    };
    search.extend();
    SearchResult {
        order: search.best_order,
        cost: search.best_cost,
        original_cost,
        outcome: search.stopped.unwrap_or(SearchOutcome::Optimal),
        orders: search.orders,
        steps: search.steps,
    }
}

/// One greedy order: always the ready tree with the cheapest step, ties to the smaller id.
pub fn greedy_order(treegraph: &Treegraph) -> Vec<TreeId> {
    let n = treegraph.len();
    let mut waiting: Vec<u32> = treegraph.trees.iter().map(|t| t.deps.len() as u32).collect();
    let mut dependents: Vec<Vec<TreeId>> = vec![Vec::new(); n];
    for (k, tree) in treegraph.trees.iter().enumerate() {
        for d in &tree.deps {
            dependents[d.index()].push(TreeId(k as u32));
        }
    }
    let mut ready: Vec<TreeId> = (0..n as u32).map(TreeId).filter(|t| waiting[t.index()] == 0).collect();
    let mut simulator = Simulator::new(treegraph);
    let mut undo = Undo::default();
    let mut order = Vec::with_capacity(n);
    while !ready.is_empty() {
        let before = simulator.cost().total();
        let mut best: Option<(u32, usize)> = None;
        for (k, &t) in ready.iter().enumerate() {
            simulator.step(t, &mut undo);
            let delta = simulator.cost().total() - before;
            simulator.undo(&undo);
            if best.is_none_or(|(d, j)| (delta, t) < (d, ready[j])) {
                best = Some((delta, k));
            }
        }
        let Some((_, k)) = best else { break };
        let t = ready.swap_remove(k);
        simulator.step(t, &mut undo);
        order.push(t);
        for &d in &dependents[t.index()] {
            waiting[d.index()] -= 1;
            if waiting[d.index()] == 0 {
                ready.push(d);
            }
        }
    }
    order
}

struct Search<'a> {
    treegraph: &'a Treegraph,
    simulator: Simulator<'a>,
    dependents: Vec<Vec<TreeId>>,
    waiting: Vec<u32>,
    ready: Vec<TreeId>,
    placed: Vec<u32>,
    order: Vec<TreeId>,
    forced_left: u32,
    best_cost: u32,
    best_order: Vec<TreeId>,
    orders: u64,
    steps: u64,
    start: Instant,
    limits: ScheduleLimits,
    stopped: Option<SearchOutcome>,
    memo: HashMap<Vec<u32>, u32>,
    key: Vec<u32>,
    memo_enabled: bool,
}

impl Search<'_> {
    fn extend(&mut self) {
        let cost = self.simulator.cost().total();
        if self.order.len() == self.treegraph.len() {
            self.orders += 1;
            if cost < self.best_cost {
                self.best_cost = cost;
                self.best_order = self.order.clone();
            }
            return;
        }
        if cost + self.forced_left >= self.best_cost {
            return;
        }
        if self.memo_enabled && self.seen_at_no_lower_cost(cost) {
            return;
        }
        // Try the children cheapest first (ties by tree id) so that good orders come early.
        let mut children: Vec<(u32, TreeId)> = Vec::with_capacity(self.ready.len());
        let mut undo = Undo::default();
        for k in 0..self.ready.len() {
            let t = self.ready[k];
            self.simulator.step(t, &mut undo);
            children.push((self.simulator.cost().total(), t));
            self.simulator.undo(&undo);
        }
        children.sort_unstable();
        for (_, t) in children {
            if self.stopped.is_some() {
                return;
            }
            self.steps += 1;
            if self.steps >= self.limits.step_budget {
                self.stopped = Some(SearchOutcome::StepBudget);
                return;
            }
            if self.steps.is_multiple_of(256) && self.start.elapsed() >= self.limits.time_budget {
                self.stopped = Some(SearchOutcome::TimeBudget);
                return;
            }
            self.place(t, &mut undo);
            self.extend();
            self.unplace(t, &undo);
        }
    }

    /// Whether this state was reached before at no higher cost; records it otherwise.
    fn seen_at_no_lower_cost(&mut self, cost: u32) -> bool {
        self.key.clear();
        self.key.extend_from_slice(&self.placed);
        self.key.push(u32::MAX);
        self.simulator.key_into(&mut self.key);
        match self.memo.get_mut(&self.key) {
            Some(seen) if *seen <= cost => true,
            Some(seen) => {
                *seen = cost;
                false
            }
            None => {
                if self.memo.len() < self.limits.memo_entries {
                    self.memo.insert(self.key.clone(), cost);
                }
                false
            }
        }
    }

    fn place(&mut self, t: TreeId, undo: &mut Undo) {
        self.simulator.step(t, undo);
        let k = self.ready.iter().position(|&r| r == t).expect("placed trees are ready");
        self.ready.remove(k);
        for &d in &self.dependents[t.index()] {
            self.waiting[d.index()] -= 1;
            if self.waiting[d.index()] == 0 {
                self.ready.push(d);
            }
        }
        self.placed[t.index() / 32] |= 1 << (t.index() % 32);
        self.forced_left -= self.treegraph.trees[t.index()].forced_fetches();
        self.order.push(t);
    }

    fn unplace(&mut self, t: TreeId, undo: &Undo) {
        self.order.pop();
        self.forced_left += self.treegraph.trees[t.index()].forced_fetches();
        self.placed[t.index() / 32] &= !(1 << (t.index() % 32));
        for &d in self.dependents[t.index()].iter().rev() {
            if self.waiting[d.index()] == 0 {
                let k = self
                    .ready
                    .iter()
                    .rposition(|&r| r == d)
                    .expect("a dependent with nothing left to wait for is ready");
                self.ready.remove(k);
            }
            self.waiting[d.index()] += 1;
        }
        // Put `t` back; the order of `ready` does not matter because children are sorted.
        self.ready.push(t);
        self.simulator.undo(undo);
    }
}
