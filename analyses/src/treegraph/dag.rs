//! The dependence DAG of one block: operation nodes, the values they produce, and data and ordering
//! edges between them (Park et al., Sec. 3: the graph `G(V, E, L, a)`).
//!
//! A node stands for one stack instruction: it pops its operands (the first deepest) and pushes its
//! results. Leaves are nodes without operands (constants, loads). A data edge is an operand: a value,
//! that is a node and the index of one of its results. An ordering edge (`after`) says that a node
//! must execute after another one without using its value; it keeps side effects and exceptions in
//! their original order. **Operands and ordering edges always point to nodes added earlier**, so the
//! graph is acyclic by construction and node ids are a topological order.

use serde::Serialize;
use std::fmt;

/// A node of a DAG, by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The position of the node in the DAG.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

/// One value: result `result` of node `node`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ValueRef {
    pub node: NodeId,
    pub result: u32,
}

impl ValueRef {
    /// The first (for most nodes the only) result of `node`.
    pub fn first(node: NodeId) -> ValueRef {
        ValueRef { node, result: 0 }
    }
}

impl fmt::Display for ValueRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.result == 0 {
            write!(f, "{}", self.node)
        } else {
            write!(f, "{}.{}", self.node, self.result)
        }
    }
}

/// A node: its label (what the instruction is), its operands in stack order, how many values it
/// pushes, and the nodes it must follow.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node<L> {
    pub label: L,
    pub operands: Vec<ValueRef>,
    pub results: u32,
    pub after: Vec<NodeId>,
}

/// Why a node or edge was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DagError {
    /// An operand or ordering edge names a node that is not earlier than its user.
    ForwardReference { node: u32, target: u32 },
    /// An operand names a result the node does not have.
    NoSuchResult { value: ValueRef },
    /// Nodes were added after the terminator, or a second terminator was set.
    AfterTerminator,
    /// The terminator must be the last node and push nothing.
    BadTerminator { node: u32 },
    /// The DAG has more nodes than a `u32` counts.
    TooLarge,
}

impl fmt::Display for DagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DagError::ForwardReference { node, target } => {
                write!(f, "n{node} refers to n{target}, which is not earlier")
            }
            DagError::NoSuchResult { value } => write!(f, "no value {value}"),
            DagError::AfterTerminator => f.write_str("nodes added after the terminator"),
            DagError::BadTerminator { node } => write!(
                f,
                "n{node} cannot terminate the block (it must be last and push nothing)"
            ),
            DagError::TooLarge => f.write_str("too many nodes"),
        }
    }
}

impl std::error::Error for DagError {}

/// A dependence DAG whose nodes carry labels of type `L`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dag<L> {
    nodes: Vec<Node<L>>,
    terminator: Option<NodeId>,
}

impl<L> Default for Dag<L> {
    fn default() -> Self {
        Dag {
            nodes: Vec::new(),
            terminator: None,
        }
    }
}

impl<L> Dag<L> {
    /// An empty DAG.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a node whose operands are values of earlier nodes and returns its id.
    pub fn add(&mut self, label: L, operands: Vec<ValueRef>, results: u32) -> Result<NodeId, DagError> {
        if self.terminator.is_some() {
            return Err(DagError::AfterTerminator);
        }
        let id = u32::try_from(self.nodes.len()).map_err(|_| DagError::TooLarge)?;
        for operand in &operands {
            let target = self.nodes.get(operand.node.index()).ok_or(DagError::ForwardReference {
                node: id,
                target: operand.node.0,
            })?;
            if operand.result >= target.results {
                return Err(DagError::NoSuchResult { value: *operand });
            }
        }
        self.nodes.push(Node {
            label,
            operands,
            results,
            after: Vec::new(),
        });
        Ok(NodeId(id))
    }

    /// Adds an ordering edge: `node` must execute after `earlier`, which must be an earlier node.
    pub fn add_after(&mut self, node: NodeId, earlier: NodeId) -> Result<(), DagError> {
        if earlier >= node || node.index() >= self.nodes.len() {
            return Err(DagError::ForwardReference {
                node: node.0,
                target: earlier.0,
            });
        }
        let after = &mut self.nodes[node.index()].after;
        if !after.contains(&earlier) {
            after.push(earlier);
        }
        Ok(())
    }

    /// Makes `node` the block's terminator: it executes after every other node. It must be the last
    /// node and push nothing; no node can be added after it.
    pub fn set_terminator(&mut self, node: NodeId) -> Result<(), DagError> {
        let is_last = node.index() + 1 == self.nodes.len();
        if self.terminator.is_some() {
            return Err(DagError::AfterTerminator);
        }
        if !is_last || self.nodes[node.index()].results != 0 {
            return Err(DagError::BadTerminator { node: node.0 });
        }
        self.terminator = Some(node);
        Ok(())
    }

    /// The terminator, when one was set.
    pub fn terminator(&self) -> Option<NodeId> {
        self.terminator
    }

    /// All nodes, by id.
    pub fn nodes(&self) -> &[Node<L>] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> &Node<L> {
        &self.nodes[id.index()]
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the DAG has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Ids of all nodes in order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// How many operand slots use each value, indexed by node then result.
    pub fn use_counts(&self) -> Vec<Vec<u32>> {
        let mut uses: Vec<Vec<u32>> = self.nodes.iter().map(|n| vec![0; n.results as usize]).collect();
        for node in &self.nodes {
            for operand in &node.operands {
                uses[operand.node.index()][operand.result as usize] += 1;
            }
        }
        uses
    }

    /// The DAG with every label mapped.
    pub fn map_labels<M>(&self, mut f: impl FnMut(NodeId, &L) -> M) -> Dag<M> {
        Dag {
            nodes: self
                .nodes
                .iter()
                .enumerate()
                .map(|(k, n)| Node {
                    label: f(NodeId(k as u32), &n.label),
                    operands: n.operands.clone(),
                    results: n.results,
                    after: n.after.clone(),
                })
                .collect(),
            terminator: self.terminator,
        }
    }
}
