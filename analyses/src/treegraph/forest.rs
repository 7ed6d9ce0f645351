//! Cut set, forest and treegraph of a dependence DAG (Park et al., Sec. 3.2).
//!
//! The paper cuts every edge into a node with more than one predecessor; what remains is a forest,
//! and the treegraph has one vertex per tree with an arc wherever a tree uses another tree's value.
//! Here a node is the root of its own tree when
//!
//! - its value is used by no operand or by more than one operand slot (the paper's cut set, counted
//!   per use so that `iadd t, t` cuts `t`), or it pushes other than exactly one value;
//! - it is the block's terminator;
//! - an ordering edge needs it: when `a` must follow `b` and `b` is not the root of its tree, then
//!   `b` becomes a root if `a` lies in another tree, or in the same tree but before `b` in the tree's
//!   depth-first order.
//!
//! **Edges only enter a tree at its root** (data edges by the cut, ordering edges by the last rule),
//! so a cycle of trees would be a cycle of the DAG: the treegraph is acyclic (Lemma 3.5). **Within a
//! tree, the depth-first postorder (Algorithm 1) respects every ordering edge.**

use super::dag::{Dag, NodeId, ValueRef};
use serde::Serialize;
use std::fmt;

/// A tree of the forest, by position (trees are numbered by root, so in original order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct TreeId(pub u32);

impl TreeId {
    /// The position of the tree.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TreeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{}", self.0)
    }
}

/// One step of a tree's depth-first code: a node of the tree, or a value of another tree that the
/// next node consumes (an index into `Treegraph::values`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "lowercase")]
pub enum Item {
    Node(NodeId),
    External(u32),
}

/// Why a node is the root of its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RootReason {
    /// No operand uses its values: a result node of the DAG.
    Unused,
    /// Several operand slots use its value (the paper's cut set).
    Shared,
    /// It pushes no value or several values.
    Results,
    /// An ordering edge could not be kept inside a tree otherwise.
    Ordering,
    /// It ends the block.
    Terminator,
}

/// A tree: its root, its code in depth-first postorder, and the trees that must come before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tree {
    pub root: NodeId,
    pub reason: RootReason,
    /// Nodes and external operands in depth-first postorder (Algorithm 1).
    pub items: Vec<Item>,
    /// How many items at the start are external operands. Only these can already be in place on the
    /// stack when the tree starts: once a node of the tree has run, its result is on top.
    pub leading: usize,
    /// Trees that must be emitted before this one: those whose values it uses, those its nodes must
    /// follow, and for the terminator every other tree. Sorted, without duplicates.
    pub deps: Vec<TreeId>,
    /// Indices into `Treegraph::values` of the values the root pushes, in push order.
    pub results: Vec<u32>,
}

impl Tree {
    /// The external operands that cannot be in place (they come after a node of the tree), which
    /// every schedule must fetch.
    pub fn forced_fetches(&self) -> u32 {
        self.items[self.leading..]
            .iter()
            .filter(|i| matches!(i, Item::External(_)))
            .count() as u32
    }
}

/// A value that crosses trees (a result of a root).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExternalValue {
    pub value: ValueRef,
    pub tree: TreeId,
    /// Operand slots that use it.
    pub uses: u32,
    /// Whether at most one copy may exist: true for every result of a multi-result node except the
    /// last one, which is the only one on top of the stack when the node has run (so `DUP` reaches
    /// only it).
    pub single_copy: bool,
}

/// The treegraph `H(F, A)` of a DAG.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Treegraph {
    pub trees: Vec<Tree>,
    pub values: Vec<ExternalValue>,
    /// The tree of every node, indexed by node id.
    pub tree_of: Vec<TreeId>,
}

/// A treegraph that could not be built (only for DAGs that violate their own invariants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreegraphError(pub String);

impl fmt::Display for TreegraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreegraphError {}

impl Treegraph {
    /// Cuts the DAG into trees and builds the treegraph.
    pub fn build<L>(dag: &Dag<L>) -> Result<Treegraph, TreegraphError> {
        let n = dag.len();
        let uses = dag.use_counts();
        let mut reason: Vec<Option<RootReason>> = dag
            .nodes()
            .iter()
            .enumerate()
            .map(|(k, node)| {
                if dag.terminator() == Some(NodeId(k as u32)) {
                    Some(RootReason::Terminator)
                } else if node.results != 1 {
                    Some(RootReason::Results)
                } else if uses[k][0] == 0 {
                    Some(RootReason::Unused)
                } else if uses[k][0] > 1 {
                    Some(RootReason::Shared)
                } else {
                    None
                }
            })
            .collect();
        // The user of each node that has exactly one (the parent in its tree unless it is a root).
        let mut parent: Vec<Option<NodeId>> = vec![None; n];
        for id in dag.ids() {
            for operand in &dag.node(id).operands {
                parent[operand.node.index()] = Some(id);
            }
        }
        // Cut more nodes until every ordering edge is kept (each pass only adds roots).
        let tree_root = loop {
            let (tree_root, position) = forest_layout(dag, &reason, &parent)?;
            let mut changed = false;
            for a in dag.ids() {
                for &b in &dag.node(a).after {
                    let needs_cut = if tree_root[a.index()] == tree_root[b.index()] {
                        position[b.index()] > position[a.index()]
                    } else {
                        reason[b.index()].is_none()
                    };
                    if needs_cut && reason[b.index()].is_none() {
                        reason[b.index()] = Some(RootReason::Ordering);
                        changed = true;
                    }
                }
            }
            if !changed {
                break tree_root;
            }
        };
        // Number trees by root and values by root and result.
        let mut tree_of_root: Vec<Option<TreeId>> = vec![None; n];
        let mut first_value: Vec<u32> = vec![u32::MAX; n];
        let mut trees: Vec<Tree> = Vec::new();
        let mut values: Vec<ExternalValue> = Vec::new();
        for id in dag.ids() {
            if let Some(why) = reason[id.index()] {
                let tree = TreeId(trees.len() as u32);
                tree_of_root[id.index()] = Some(tree);
                let results = dag.node(id).results;
                first_value[id.index()] = values.len() as u32;
                let mut result_ids = Vec::new();
                for result in 0..results {
                    result_ids.push(values.len() as u32);
                    values.push(ExternalValue {
                        value: ValueRef { node: id, result },
                        tree,
                        uses: uses[id.index()][result as usize],
                        single_copy: result + 1 < results,
                    });
                }
                trees.push(Tree {
                    root: id,
                    reason: why,
                    items: Vec::new(),
                    leading: 0,
                    deps: Vec::new(),
                    results: result_ids,
                });
            }
        }
        let tree_of: Vec<TreeId> = tree_root
            .iter()
            .map(|root| tree_of_root[root.index()].expect("every tree root is numbered"))
            .collect();
        // Items in depth-first postorder, and the dependences of each tree.
        for tree in &mut trees {
            let this = tree_of[tree.root.index()];
            let mut deps: Vec<TreeId> = Vec::new();
            let mut stack: Vec<(NodeId, usize)> = vec![(tree.root, 0)];
            while let Some(top) = stack.last_mut() {
                let (node, next) = *top;
                let operands = &dag.node(node).operands;
                if next < operands.len() {
                    top.1 += 1;
                    let operand = operands[next];
                    if reason[operand.node.index()].is_some() {
                        tree.items
                            .push(Item::External(first_value[operand.node.index()] + operand.result));
                        deps.push(tree_of[operand.node.index()]);
                    } else {
                        stack.push((operand.node, 0));
                    }
                } else {
                    tree.items.push(Item::Node(node));
                    for &earlier in &dag.node(node).after {
                        let other = tree_of[earlier.index()];
                        if other != this {
                            deps.push(other);
                        }
                    }
                    stack.pop();
                }
            }
            tree.leading = tree.items.iter().take_while(|i| matches!(i, Item::External(_))).count();
            if dag.terminator() == Some(tree.root) {
                deps.extend((0..this.0).map(TreeId));
            }
            deps.sort();
            deps.dedup();
            tree.deps = deps;
        }
        let treegraph = Treegraph { trees, values, tree_of };
        if !treegraph.is_acyclic() {
            return Err(TreegraphError(
                "the treegraph has a cycle (the DAG's ordering edges contradict its data edges)".to_owned(),
            ));
        }
        Ok(treegraph)
    }

    /// The number of trees.
    pub fn len(&self) -> usize {
        self.trees.len()
    }

    /// Whether there are no trees (an empty DAG).
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// One tree.
    pub fn tree(&self, id: TreeId) -> &Tree {
        &self.trees[id.index()]
    }

    /// The original order: trees by root id, which is a topological order.
    pub fn original_order(&self) -> Vec<TreeId> {
        (0..self.trees.len() as u32).map(TreeId).collect()
    }

    /// Whether `order` lists every tree once with each tree after its dependences.
    pub fn is_topological(&self, order: &[TreeId]) -> bool {
        let mut placed = vec![false; self.trees.len()];
        if order.len() != self.trees.len() {
            return false;
        }
        for &t in order {
            if t.index() >= placed.len()
                || placed[t.index()]
                || self.trees[t.index()].deps.iter().any(|d| !placed[d.index()])
            {
                return false;
            }
            placed[t.index()] = true;
        }
        true
    }

    fn is_acyclic(&self) -> bool {
        // Every dependence of a tree has a smaller root, so the original order is topological
        // exactly when the graph is acyclic.
        self.is_topological(&self.original_order())
    }
}

/// The root of every node's tree and every node's position in its tree's postorder, for the
/// current set of roots.
fn forest_layout<L>(
    dag: &Dag<L>,
    reason: &[Option<RootReason>],
    parent: &[Option<NodeId>],
) -> Result<(Vec<NodeId>, Vec<usize>), TreegraphError> {
    let n = dag.len();
    let mut tree_root: Vec<NodeId> = vec![NodeId(0); n];
    for k in (0..n).rev() {
        tree_root[k] = if reason[k].is_some() {
            NodeId(k as u32)
        } else {
            match parent[k] {
                // The parent is a later node, so its tree is known already.
                Some(p) if p.index() > k => tree_root[p.index()],
                _ => return Err(TreegraphError(format!("n{k} has one use but no later user"))),
            }
        };
    }
    let mut position = vec![0usize; n];
    for k in 0..n {
        if reason[k].is_some() {
            let mut counter = 0usize;
            let mut stack: Vec<(NodeId, usize)> = vec![(NodeId(k as u32), 0)];
            while let Some(top) = stack.last_mut() {
                let (node, next) = *top;
                let operands = &dag.node(node).operands;
                if next < operands.len() {
                    top.1 += 1;
                    let operand = operands[next].node;
                    if reason[operand.index()].is_none() {
                        stack.push((operand, 0));
                    }
                } else {
                    position[node.index()] = counter;
                    counter += 1;
                    stack.pop();
                }
            }
        }
    }
    Ok((tree_root, position))
}
