//! The calling-context tree: serde-serializable structs and the parser of the agent's output file.
//!
//! The agent writes tab-separated lines (see `agent/Dump.java`): a `jresa-cct 1` header, `meta`
//! counters, `uninstrumented` entries, `method` definitions, `node` lines in preorder (a parent before
//! its children, the root first) and a final `end`. [`parse_cct`] checks all of it, sums siblings
//! with the same method and call site (the agent writes each thread's tree on its own, below one
//! root), computes the inclusive counts and totals, and puts the nodes in a canonical order: depth
//! first, children heaviest first by inclusive bytecodes, so equal profiles give equal values.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The file format version this parser reads.
pub const FORMAT_VERSION: u32 = 1;

/// A method, by its class's internal name (with slashes), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MethodId {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

impl std::fmt::Display for MethodId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The class with dots, written piece by piece (a profile prints one per context).
        for (k, piece) in self.class.split('/').enumerate() {
            if k > 0 {
                f.write_str(".")?;
            }
            f.write_str(piece)?;
        }
        write!(f, ".{}{}", self.name, self.descriptor)
    }
}

/// One calling context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CctNode {
    /// The index of this node in [`Cct::nodes`].
    pub id: usize,
    /// The parent's index; `None` for the root.
    pub parent: Option<usize>,
    /// The method; `None` for the root, which stands for all threads' bottom frames. Shared by
    /// every context of the method.
    pub method: Option<Arc<MethodId>>,
    /// The bytecode index of the invoke in the parent's method that entered this context; `None` when
    /// the method was entered without one: by the JVM (class initialisation, class loading, thread
    /// start), from native code, or at the root of a thread or of a `--only` extent.
    pub call_site: Option<u32>,
    /// How many times this context was entered.
    pub invocations: u64,
    /// Bytecode instructions executed in this context, not counting callees.
    pub bytecodes: u64,
    /// Invocations of this context and every context below it.
    pub inclusive_invocations: u64,
    /// Bytecodes of this context and every context below it.
    pub inclusive_bytecodes: u64,
    /// Distance from the root (the root is 0).
    pub depth: u32,
    /// Child indices, heaviest first by inclusive bytecodes.
    pub children: Vec<usize>,
}

/// Totals over the whole tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Bytecode instructions executed in all profiled contexts.
    pub bytecodes: u64,
    /// Invocations of all profiled contexts.
    pub invocations: u64,
    /// Calling contexts (nodes other than the root).
    pub contexts: u64,
    /// Distinct methods that appear in the tree.
    pub methods: u64,
    /// The depth of the deepest context.
    pub max_depth: u32,
}

/// A class or method the agent left uninstrumented, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uninstrumented {
    pub what: String,
    pub reason: String,
}

/// A profile: the threads' merged calling-context tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cct {
    /// The agent file format version.
    pub version: u32,
    /// Threads that executed profiled code.
    pub threads: u64,
    /// Classes the agent instrumented.
    pub instrumented_classes: u64,
    /// Methods with bytecode the agent instrumented.
    pub instrumented_methods: u64,
    /// Instrumented methods that a `--only` selector matched.
    pub selected_methods: u64,
    /// Instrumented classes that were taken from the class cache of earlier runs instead of being
    /// instrumented again (the JDK's classes; see `agent/ClassCache.java`).
    #[serde(default)]
    pub cached_classes: u64,
    /// The `--only` selectors in force (empty: the whole execution was profiled).
    pub only: Vec<String>,
    /// What the agent could not instrument.
    pub uninstrumented: Vec<Uninstrumented>,
    /// The nodes; index 0 is the root.
    pub nodes: Vec<CctNode>,
    pub totals: Totals,
}

impl Cct {
    /// The root node.
    pub fn root(&self) -> Option<&CctNode> {
        self.nodes.first()
    }

    /// The children of a node, heaviest first.
    pub fn children<'a>(&'a self, node: &'a CctNode) -> impl Iterator<Item = &'a CctNode> + 'a {
        node.children.iter().filter_map(|&k| self.nodes.get(k))
    }

    /// The nodes of a method given by class (internal name) and method name, in tree order.
    pub fn find(&self, class: &str, name: &str) -> Vec<&CctNode> {
        self.nodes
            .iter()
            .filter(|n| n.method.as_ref().is_some_and(|m| m.class == class && m.name == name))
            .collect()
    }

    /// The ancestors of a node, nearest first, root last.
    pub fn ancestors<'a>(&'a self, node: &'a CctNode) -> impl Iterator<Item = &'a CctNode> {
        std::iter::successors(node.parent.and_then(|p| self.nodes.get(p)), move |n| {
            n.parent.and_then(|p| self.nodes.get(p))
        })
    }
}

/// A problem in the agent's output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number; 0 for problems with the file as a whole.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// A context as read, before reordering: siblings with the same method and call site (one per
/// thread that entered the context) are already summed into one.
struct RawNode {
    /// The parent's index among the raw nodes; `NO_PARENT` for the root.
    parent: u32,
    /// The method's index in the method table; unused for the root.
    method: u32,
    call_site: Option<u32>,
    invocations: u64,
    bytecodes: u64,
}

/// The root's parent.
const NO_PARENT: u32 = u32::MAX;

/// Sums the threads' copies of a context as the nodes are read: a node whose parent several threads
/// entered may be a copy of one read before, found by (parent, method, call site). Only such parents'
/// children are kept in the map (a thread's own tree has no two siblings with one key), so a
/// profile with one large thread touches the map only near the root.
struct Siblings {
    /// The raw node of each (parent, method, call site), for the children of shared parents.
    by_key: rustc_hash::FxHashMap<(u32, u32, u32), u32>,
    /// Whether more than one `node` line went to the raw node (or it is the root).
    shared: Vec<bool>,
    /// The children of each raw node as a list: the first child and each child's next sibling.
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
}

/// The end of a list of siblings.
const NO_NODE: u32 = u32::MAX;

impl Siblings {
    fn with_capacity(nodes: usize) -> Self {
        Siblings {
            by_key: rustc_hash::FxHashMap::default(),
            shared: Vec::with_capacity(nodes),
            first_child: Vec::with_capacity(nodes),
            next_sibling: Vec::with_capacity(nodes),
        }
    }

    /// Adds the root (the first node) and returns its index, 0.
    fn root(&mut self, raw: &mut Vec<RawNode>, call_site: Option<u32>, invocations: u64, bytecodes: u64) -> u32 {
        self.push(
            raw,
            RawNode {
                parent: NO_PARENT,
                method: 0,
                call_site,
                invocations,
                bytecodes,
            },
        );
        self.shared[0] = true;
        0
    }

    /// Adds a node below an earlier one, or sums it into the sibling with its key; returns the
    /// index it went to.
    fn add(&mut self, raw: &mut Vec<RawNode>, node: RawNode) -> u32 {
        let parent = node.parent as usize;
        if !self.shared[parent] {
            return self.push(raw, node);
        }
        let key = (node.parent, node.method, node.call_site.unwrap_or(u32::MAX));
        let Some(&index) = self.by_key.get(&key) else {
            let index = self.push(raw, node);
            self.by_key.insert(key, index);
            return index;
        };
        let into = &mut raw[index as usize];
        into.invocations = into.invocations.saturating_add(node.invocations);
        into.bytecodes = into.bytecodes.saturating_add(node.bytecodes);
        if !self.shared[index as usize] {
            self.shared[index as usize] = true;
            let mut child = self.first_child[index as usize];
            while child != NO_NODE {
                let c = &raw[child as usize];
                self.by_key
                    .insert((index, c.method, c.call_site.unwrap_or(u32::MAX)), child);
                child = self.next_sibling[child as usize];
            }
        }
        index
    }

    fn push(&mut self, raw: &mut Vec<RawNode>, node: RawNode) -> u32 {
        let index = raw.len() as u32;
        self.next_sibling.push(NO_NODE);
        if node.parent != NO_PARENT {
            let first = &mut self.first_child[node.parent as usize];
            self.next_sibling[index as usize] = *first;
            *first = index;
        }
        self.first_child.push(NO_NODE);
        self.shared.push(false);
        raw.push(node);
        index
    }
}

fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Parses the agent's output. `only` is recorded in the result as given.
pub fn parse_cct(text: &str, only: &[String]) -> Result<Cct, ParseError> {
    // At most one node per line (counting lines is a vectorised byte count): sized once, a large
    // profile's nodes are never copied to grow their vectors.
    let node_lines = text.bytes().filter(|&b| b == b'\n').count();
    let mut reader = CctReader::with_capacity(node_lines);
    for (i, line) in text.lines().enumerate() {
        reader.line(i + 1, line)?;
    }
    reader.finish(only)
}

/// Parses the agent's output as it is read from `input` (a pipe the JVM is still writing, so the
/// reading overlaps the writing); `Ok(None)` when `input` ends before its first byte. On an error
/// the rest of `input` is still read, so that its writer is never left blocked.
pub fn read_cct(mut input: impl std::io::BufRead, only: &[String]) -> std::io::Result<Option<Result<Cct, ParseError>>> {
    let mut reader = CctReader::with_capacity(1 << 16);
    let mut buffer = Vec::with_capacity(256);
    let mut failed = None;
    let mut n = 0;
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            break;
        }
        n += 1;
        if failed.is_some() {
            continue;
        }
        let line = buffer.strip_suffix(b"\n").unwrap_or(&buffer);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let read = match std::str::from_utf8(line) {
            Ok(line) => reader.line(n, line),
            Err(_) => Err(ParseError {
                line: n,
                message: "the line is not UTF-8".into(),
            }),
        };
        failed = read.err();
    }
    if n == 0 {
        return Ok(None);
    }
    Ok(Some(match failed {
        Some(error) => Err(error),
        None => reader.finish(only),
    }))
}

/// The agent's output read line by line: the header, then the other lines until `end`.
struct CctReader {
    header_read: bool,
    ended: bool,
    meta: HashMap<String, u64>,
    uninstrumented: Vec<Uninstrumented>,
    method_index: rustc_hash::FxHashMap<i64, usize>,
    methods: Vec<Arc<MethodId>>,
    nodes: NodeReader,
}

impl CctReader {
    fn with_capacity(nodes: usize) -> Self {
        CctReader {
            header_read: false,
            ended: false,
            meta: HashMap::new(),
            uninstrumented: Vec::new(),
            method_index: rustc_hash::FxHashMap::default(),
            methods: Vec::new(),
            nodes: NodeReader::with_capacity(nodes),
        }
    }

    /// Reads line `n` (1-based, without its line break).
    fn line(&mut self, n: usize, line: &str) -> Result<(), ParseError> {
        let error = |message: String| ParseError { line: n, message };
        if !self.header_read {
            if line != format!("jresa-cct\t{FORMAT_VERSION}") {
                return Err(error(format!(
                    "expected the header `jresa-cct {FORMAT_VERSION}`, found `{line}`"
                )));
            }
            self.header_read = true;
            return Ok(());
        }
        if self.ended {
            return Err(error("text after `end`".into()));
        }
        // Nearly every line is a well-formed `node` line: read without splitting into strings.
        if let Some(values) = line.strip_prefix("node\t").and_then(node_values) {
            return self.nodes.add(n, values, &self.method_index);
        }
        let mut split = [""; MAX_FIELDS];
        let mut parts = line.split('\t');
        let mut len = 0;
        for part in parts.by_ref().take(MAX_FIELDS) {
            split[len] = part;
            len += 1;
        }
        if parts.next().is_some() {
            return Err(error(format!("unrecognised line `{line}`")));
        }
        let fields = &split[..len];
        let number = |k: usize| -> Result<i64, ParseError> {
            let field = fields.get(k).ok_or_else(|| error(format!("missing field {k}")))?;
            field
                .parse::<i64>()
                .map_err(|_| error(format!("field {k} is not a number: `{field}`")))
        };
        let count = |k: usize| -> Result<u64, ParseError> {
            u64::try_from(number(k)?).map_err(|_| error(format!("field {k} is negative")))
        };
        match fields.first().copied() {
            Some("meta") if fields.len() == 3 => {
                self.meta.insert(fields[1].to_owned(), count(2)?);
            }
            Some("uninstrumented") if fields.len() == 3 => self.uninstrumented.push(Uninstrumented {
                what: unescape(fields[1]),
                reason: unescape(fields[2]),
            }),
            Some("method") if fields.len() == 5 => {
                let id = number(1)?;
                let method = MethodId {
                    class: unescape(fields[2]),
                    name: unescape(fields[3]),
                    descriptor: unescape(fields[4]),
                };
                if self.method_index.insert(id, self.methods.len()).is_some() {
                    return Err(error(format!("method {id} defined twice")));
                }
                self.methods.push(Arc::new(method));
            }
            Some("node") if fields.len() == 7 => {
                // The counts are non-negative `i64`s (`count` checks both).
                let values = [
                    number(1)?,
                    number(2)?,
                    number(3)?,
                    number(4)?,
                    count(5)? as i64,
                    count(6)? as i64,
                ];
                self.nodes.add(n, values, &self.method_index)?;
            }
            Some("end") if fields.len() == 1 => self.ended = true,
            _ => return Err(error(format!("unrecognised line `{line}`"))),
        }
        Ok(())
    }

    /// The tree, once every line is read.
    fn finish(self, only: &[String]) -> Result<Cct, ParseError> {
        let error = |message: &str| ParseError {
            line: 0,
            message: message.to_owned(),
        };
        if !self.header_read {
            return Err(error("the profile file is empty"));
        }
        if !self.ended {
            return Err(error(
                "the profile file is truncated (no `end` line): the JVM stopped while writing it",
            ));
        }
        let raw = self.nodes.raw;
        if raw.is_empty() {
            return Err(error("the profile has no root node"));
        }
        let meta_value = |name: &str| self.meta.get(name).copied().unwrap_or(0);
        let methods_used = distinct_methods(&raw, &self.methods);
        let nodes = canonical_nodes(raw, &self.methods);
        let totals = totals(&nodes, methods_used);
        Ok(Cct {
            version: FORMAT_VERSION,
            threads: meta_value("threads"),
            instrumented_classes: meta_value("instrumented_classes"),
            instrumented_methods: meta_value("instrumented_methods"),
            selected_methods: meta_value("selected_methods"),
            cached_classes: meta_value("cached_classes"),
            only: only.to_vec(),
            uninstrumented: self.uninstrumented,
            nodes,
            totals,
        })
    }
}

/// The most tab-separated fields a line of the agent's output has (a `node` line).
const MAX_FIELDS: usize = 7;

/// The six numbers of a `node` line after `node\t` (id, parent, method, call site, calls,
/// bytecodes), or `None` when the line is not exactly six decimal numbers with non-negative counts
/// (the general reader then says what is wrong with it).
fn node_values(fields: &str) -> Option<[i64; 6]> {
    let mut values = [0i64; 6];
    let mut bytes = fields.as_bytes().split(|&b| b == b'\t');
    for value in &mut values {
        *value = decimal(bytes.next()?)?;
    }
    (bytes.next().is_none() && values[4] >= 0 && values[5] >= 0).then_some(values)
}

/// A decimal number with an optional minus sign, without overflow.
fn decimal(digits: &[u8]) -> Option<i64> {
    let (negative, digits) = match digits {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, digits),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(d - b'0');
    }
    Some(if negative { -value } else { value })
}

/// The nodes read so far: the raw nodes, the raw node each `node` line went to (by its id in the
/// file), and the siblings that sum the threads' copies of a context.
struct NodeReader {
    raw: Vec<RawNode>,
    merged_into: Vec<u32>,
    siblings: Siblings,
}

impl NodeReader {
    fn with_capacity(nodes: usize) -> Self {
        NodeReader {
            raw: Vec::with_capacity(nodes),
            merged_into: Vec::with_capacity(nodes),
            siblings: Siblings::with_capacity(nodes),
        }
    }

    /// Adds line `n`'s node: `[id, parent, method, call site, calls, bytecodes]`, the counts
    /// non-negative.
    fn add(
        &mut self,
        n: usize,
        [id, parent, method, site, invocations, bytecodes]: [i64; 6],
        method_index: &rustc_hash::FxHashMap<i64, usize>,
    ) -> Result<(), ParseError> {
        let error = |message: String| ParseError { line: n, message };
        let read = self.merged_into.len();
        if id != read as i64 {
            return Err(error(format!("node {id} out of order (expected {read})")));
        }
        let call_site = match site {
            -1 => None,
            s => Some(u32::try_from(s).map_err(|_| error(format!("bad call site {s}")))?),
        };
        let (invocations, bytecodes) = (invocations as u64, bytecodes as u64);
        if read == 0 {
            if parent != -1 || method != -1 {
                return Err(error("the first node must be the root".into()));
            }
            let root = self.siblings.root(&mut self.raw, call_site, invocations, bytecodes);
            self.merged_into.push(root);
            return Ok(());
        }
        let parent = usize::try_from(parent)
            .ok()
            .and_then(|p| self.merged_into.get(p).copied())
            .ok_or_else(|| error(format!("parent {parent} does not precede node {id}")))?;
        let method = *method_index
            .get(&method)
            .ok_or_else(|| error(format!("node {id} uses undefined method {method}")))?;
        let node = RawNode {
            parent,
            method: method as u32,
            call_site,
            invocations,
            bytecodes,
        };
        let index = self.siblings.add(&mut self.raw, node);
        self.merged_into.push(index);
        Ok(())
    }
}

/// How many distinct methods (by class, name and descriptor) the contexts below the root run.
fn distinct_methods(raw: &[RawNode], methods: &[Arc<MethodId>]) -> u64 {
    let mut used = vec![false; methods.len()];
    for r in raw.iter().skip(1) {
        used[r.method as usize] = true;
    }
    let distinct: std::collections::HashSet<&MethodId> = methods
        .iter()
        .zip(used)
        .filter(|(_, used)| *used)
        .map(|(method, _)| &**method)
        .collect();
    distinct.len() as u64
}

/// Computes inclusive counts and renumbers the nodes depth first, heaviest child first.
fn canonical_nodes(raw: Vec<RawNode>, methods: &[Arc<MethodId>]) -> Vec<CctNode> {
    let parent_of = |r: &RawNode| (r.parent != NO_PARENT).then_some(r.parent as usize);
    // Preorder input: every child comes after its parent, so one backward pass sums subtrees.
    let mut inclusive: Vec<(u64, u64)> = raw.iter().map(|r| (r.bytecodes, r.invocations)).collect();
    for i in (1..raw.len()).rev() {
        if let Some(p) = parent_of(&raw[i]) {
            let (b, c) = inclusive[i];
            inclusive[p].0 = inclusive[p].0.saturating_add(b);
            inclusive[p].1 = inclusive[p].1.saturating_add(c);
        }
    }
    let (start, mut children) = children_by_parent(&raw);
    let method_of = |k: usize| (raw[k].parent != NO_PARENT).then(|| &methods[raw[k].method as usize]);
    for slot in start.windows(2) {
        children[slot[0]..slot[1]].sort_by(|&a, &b| {
            inclusive[b]
                .0
                .cmp(&inclusive[a].0)
                .then(inclusive[b].1.cmp(&inclusive[a].1))
                .then_with(|| method_of(a).cmp(&method_of(b)))
                .then(raw[a].call_site.cmp(&raw[b].call_site))
        });
    }
    let kids = |old: usize| &children[start[old]..start[old + 1]];
    let mut new_index = vec![0usize; raw.len()];
    let mut order = Vec::with_capacity(raw.len());
    let mut depth = vec![0u32; raw.len()];
    let mut stack = vec![0usize];
    while let Some(old) = stack.pop() {
        new_index[old] = order.len();
        order.push(old);
        for &kid in kids(old).iter().rev() {
            depth[kid] = depth[old] + 1;
            stack.push(kid);
        }
    }
    order
        .par_iter()
        .enumerate()
        .map(|(id, &old)| {
            let r = &raw[old];
            CctNode {
                id,
                parent: parent_of(r).map(|p| new_index[p]),
                method: method_of(old).cloned(),
                call_site: r.call_site,
                invocations: r.invocations,
                bytecodes: r.bytecodes,
                inclusive_invocations: inclusive[old].1,
                inclusive_bytecodes: inclusive[old].0,
                depth: depth[old],
                children: kids(old).iter().map(|&k| new_index[k]).collect(),
            }
        })
        .collect()
}

/// The children of every raw node in one vector, grouped by parent in raw order: node `p`'s are
/// `children[start[p]..start[p + 1]]`.
fn children_by_parent(raw: &[RawNode]) -> (Vec<usize>, Vec<usize>) {
    let mut start = vec![0usize; raw.len() + 1];
    for r in raw.iter().filter(|r| r.parent != NO_PARENT) {
        start[r.parent as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut children = vec![0usize; start[raw.len()]];
    for (k, r) in raw.iter().enumerate().filter(|(_, r)| r.parent != NO_PARENT) {
        let slot = &mut fill[r.parent as usize];
        children[*slot] = k;
        *slot += 1;
    }
    (start, children)
}

fn totals(nodes: &[CctNode], methods: u64) -> Totals {
    let mut totals = Totals {
        methods,
        ..Totals::default()
    };
    for node in nodes.iter().skip(1) {
        totals.bytecodes = totals.bytecodes.saturating_add(node.bytecodes);
        totals.invocations = totals.invocations.saturating_add(node.invocations);
        totals.contexts += 1;
        totals.max_depth = totals.max_depth.max(node.depth);
    }
    totals
}
