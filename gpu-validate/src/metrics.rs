//! What the VM measures: per-instance totals and, optionally, a call-site-aware calling-context
//! tree (JP2, Sarimbekov et al.) whose nodes carry the same counters.
//!
//! The counters follow the cost models of `jresa_analyses::cost_model::CostModel`:
//!
//! - `bytecodes`: JVM bytecodes executed, from the IR's exact counts (a rule's `bytecodes` when it
//!   runs to its end, a statement's `bytecodes` when an exception leaves the rule there). Native
//!   methods execute none.
//! - `invocations`: `invoke*` instructions executed (natives included), as the invocations model
//!   counts them. The tree's `entries` count method entries per context as JP2 does (natives have
//!   no context; constructors of exceptions the VM raises and static initialisers are entered
//!   without an invoke).
//! - `allocations`: objects plus, for each array, one plus its length (every level of a
//!   `multianewarray`), by `new`/`newarray`/`anewarray`/`multianewarray`, by natives that allocate
//!   for the program (`clone`, `Array.newInstance`), and the exception objects the VM raises
//!   itself. Objects the VM makes for its own bookkeeping (class mirrors, exception messages) are
//!   not counted.
//! - `consume`: the argument of each `jresa.spec.Resource.consume(int)` call (negative counts as
//!   0) and 1 per `consume()`.

use serde::Serialize;

/// Counters of one instance or one calling context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    pub bytecodes: u64,
    pub invocations: u64,
    pub allocations: u64,
    pub consume: u64,
}

impl Metrics {
    /// Adds another set of counters.
    pub fn add(&mut self, other: &Metrics) {
        self.bytecodes += other.bytecodes;
        self.invocations += other.invocations;
        self.allocations += other.allocations;
        self.consume += other.consume;
    }
}

/// A method of the tree, by declaring class (internal name), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ContextMethod {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// One calling context: a method entered from a call site of its parent's method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContextNode {
    /// `None` for the root, which stands for the caller of the instance's method.
    pub parent: Option<u32>,
    /// `None` for the root.
    pub method: Option<ContextMethod>,
    /// The bytecode offset of the invoke in the parent's method; `None` when the VM entered the
    /// method itself (the instance's method, static initialisers, exception constructors).
    pub call_site: Option<u32>,
    /// How many times the context was entered.
    pub entries: u64,
    /// Counters of the context alone (callees excluded).
    pub metrics: Metrics,
    /// Whether the context is a static initialiser or runs below one.
    pub initialization: bool,
}

/// A calling-context tree; node 0 is the root, parents come before their children.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CallingContextTree {
    pub nodes: Vec<ContextNode>,
}

impl CallingContextTree {
    /// The children of a node, in the order they were first entered.
    pub fn children(&self, node: u32) -> impl Iterator<Item = (u32, &ContextNode)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, n)| n.parent == Some(node))
            .map(|(k, n)| (k as u32, n))
    }

    /// The counters of a node and everything below it.
    pub fn inclusive(&self, node: u32) -> Metrics {
        let mut total = Metrics::default();
        let mut below = vec![false; self.nodes.len()];
        for (k, n) in self.nodes.iter().enumerate() {
            let inside = k as u32 == node || n.parent.is_some_and(|p| below[p as usize]);
            if inside {
                below[k] = true;
                total.add(&n.metrics);
            }
        }
        total
    }
}

/// "No node" / "no call site" in the flat tree.
pub const NONE: u32 = u32::MAX;

/// The tree as the interpreter builds it: flat arrays indexed by node, children as linked lists.
#[derive(Clone, Debug, Default)]
pub struct FlatTree {
    pub parent: Vec<u32>,
    pub method: Vec<u32>,
    pub call_site: Vec<u32>,
    pub first_child: Vec<u32>,
    pub next_sibling: Vec<u32>,
    pub initialization: Vec<bool>,
    pub entries: Vec<u64>,
    pub counters: Vec<Metrics>,
}

impl FlatTree {
    /// Empties the tree and adds the root (node 0).
    pub fn reset(&mut self) {
        self.parent.clear();
        self.method.clear();
        self.call_site.clear();
        self.first_child.clear();
        self.next_sibling.clear();
        self.initialization.clear();
        self.entries.clear();
        self.counters.clear();
        self.push(NONE, NONE, NONE, false);
    }

    fn push(&mut self, parent: u32, method: u32, call_site: u32, initialization: bool) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(parent);
        self.method.push(method);
        self.call_site.push(call_site);
        self.first_child.push(NONE);
        self.next_sibling.push(NONE);
        self.initialization.push(initialization);
        self.entries.push(0);
        self.counters.push(Metrics::default());
        id
    }

    /// The child of `parent` for `method` entered at `call_site`, created on first use; its entry
    /// count is incremented.
    pub fn enter(&mut self, parent: u32, method: u32, call_site: u32, initialization: bool) -> u32 {
        let mut child = self.first_child[parent as usize];
        while child != NONE {
            if self.method[child as usize] == method && self.call_site[child as usize] == call_site {
                self.entries[child as usize] += 1;
                return child;
            }
            child = self.next_sibling[child as usize];
        }
        let id = self.push(parent, method, call_site, initialization);
        self.next_sibling[id as usize] = self.first_child[parent as usize];
        self.first_child[parent as usize] = id;
        self.entries[id as usize] = 1;
        id
    }

    /// The tree with method handles replaced by names.
    pub fn export(&self, name_of: impl Fn(u32) -> ContextMethod) -> CallingContextTree {
        let nodes = (0..self.parent.len())
            .map(|k| ContextNode {
                parent: (self.parent[k] != NONE).then_some(self.parent[k]),
                method: (self.method[k] != NONE).then(|| name_of(self.method[k])),
                call_site: (self.call_site[k] != NONE).then_some(self.call_site[k]),
                entries: self.entries[k],
                metrics: self.counters[k],
                initialization: self.initialization[k],
            })
            .collect();
        CallingContextTree { nodes }
    }
}
