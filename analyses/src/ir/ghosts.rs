//! Heap values a loop reads but never changes, or changes only itself, made loop variables
//! (COSTA's field-sensitive analysis by ghost variables, Albert et al., SAS 2009).
//!
//! A loop that reads a number from a static field, a field of an object it does not change, or an
//! array element at a fixed index (`while (i < limit)`, `for (j = 0; j < a[k]; j++)`) reads an unknown value
//! anew on every iteration, so no ranking function relates the iterations. When nothing the loop
//! runs can write that location (no store to a field of that name, no store into an array of that
//! element type, no method call), every read returns the same value, fixed but unknown. This pass
//! gives the loop's procedures one more input per such location, the *ghost*: every read keeps
//! its statement (and the exceptions it raises) into a fresh variable and the read variable
//! becomes a copy of the ghost; the calls that enter the loop pass a value of no known origin (a
//! read of [`GHOST_CLASS`], which no code has), the loop's own calls pass the ghost on.
//!
//! A field of an invariant object that the loop writes is a ghost too when every store of a
//! field of that name the header reaches is the loop's own, through that object (`int` and
//! `long` fields only, whose stores keep the value): the store keeps its statement and the
//! stored value becomes the ghost's from there on. An element at a constant index is spared by
//! stores at other constant indices, and is the loop's own like such a field when every store
//! at its index is the loop's own through that array and no store at an unknown index may write
//! it. A call into the loop from a rule that stored into the
//! ghost's location through the object it passes (with no call or possibly aliasing store since)
//! passes the stored value rather than one of no known origin; so does one that read it so, or
//! whose procedure received its value (`reloads::HeldFields`).
//!
//! A value the loop computes anew on every iteration from invariant inputs alone by an operation
//! the value analysis relates only loosely to its operands (`while (i < n * m)`: a product of two
//! variables, a division, remainder or shift by a variable, a bitwise operation of two variables)
//! is a ghost too, whatever the loop writes: each iteration computes the same fixed but unknown
//! value. Its statement stays (with the exception a division raises) and its result becomes a
//! copy of the ghost, as for a read.
//!
//! The rewritten method over-approximates the original: each run of the original is the run of
//! the rewrite whose entering value is the one every read returned. It is meant for the analyses
//! only, never for execution.
//!
//! Invariants: ghosts are appended to the inputs of every procedure of the loop's cycle (after
//! its own inputs) and listed in `MethodIr::ghosts`; calls into the cycle from outside it enter it
//! only at its header (a loop entered anywhere else is left alone); a location is ghosted only
//! when no statement of any procedure the header reaches may write it, or when every such
//! statement is a store of the cycle into exactly that location (a computed ghost reads no heap);
//! inside a rule, each store gives
//! the ghost a fresh variable (a variable is defined once per rule).

use super::reloads::{HeldField, HeldFields};
use super::{
    source_name, BinOp, ElemTy, FieldRef, HandlerEdge, MethodIr, Operand, ProcId, ProcKind, Stmt, StmtKind, Ty,
    VarDecl, VarId,
};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The owner class of the reads that give a loop's ghosts their entering value: no class of that
/// name exists, so the read stands for an unknown value of the field's type.
pub const GHOST_CLASS: &str = "<ghost>";

/// Whether a statement is the read that gives a ghost its entering value (it reads no heap and
/// raises nothing).
pub fn is_entering_value(kind: &StmtKind) -> bool {
    matches!(kind, StmtKind::GetStatic { field, .. } if field.class == GHOST_CLASS)
}

/// A heap location a loop reads, with the invariant inputs of its header it is addressed by.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Location {
    /// A static field, by name and descriptor (a subclass may name it).
    Static { name: String, descriptor: String },
    /// A field of the object in the header's input `object`.
    Field {
        object: usize,
        name: String,
        descriptor: String,
    },
    /// An element of the array in the header's input `array`, at a constant index or at the one
    /// in an input of the header.
    Element { array: usize, index: Index, elem: ElemKey },
    /// The result of `lhs op rhs` on values of type `wide` (`long` when set, else `int`), each
    /// operand an input of the header or a constant (no heap: no write changes it).
    Computed { op: OpKey, wide: bool, lhs: Arg, rhs: Arg },
}

/// An operand of a computed ghost: an invariant input of the header or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Arg {
    Input(usize),
    Constant(i64),
}

/// A binary operator, as a key (`BinOp` without ordering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct OpKey(u8);

/// The operators whose result the value analysis relates to variable operands only loosely,
/// with the word a ghost's name shows for each (names stay identifiers of the bound grammar).
const LOOSE_OPERATORS: [(BinOp, &str); 9] = [
    (BinOp::Mul, "times"),
    (BinOp::Div, "div"),
    (BinOp::Rem, "rem"),
    (BinOp::And, "and"),
    (BinOp::Or, "or"),
    (BinOp::Xor, "xor"),
    (BinOp::Shl, "shl"),
    (BinOp::Shr, "shr"),
    (BinOp::Ushr, "ushr"),
];

impl OpKey {
    fn of(op: BinOp) -> Option<OpKey> {
        LOOSE_OPERATORS
            .iter()
            .position(|(o, _)| *o == op)
            .map(|k| OpKey(k as u8))
    }

    fn text(self) -> &'static str {
        LOOSE_OPERATORS[usize::from(self.0)].1
    }

    /// Whether the analysis relates the result to its operands only loosely when `rhs` (and, for
    /// the commutative ones, `lhs`) is the constant it is or is not: a constant divisor, shift
    /// count or factor gives exact linear cases.
    fn loose(self, lhs: Arg, rhs: Arg) -> bool {
        let variable = |a: Arg| matches!(a, Arg::Input(_));
        match LOOSE_OPERATORS[usize::from(self.0)].0 {
            BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::Ushr => variable(rhs),
            _ => variable(lhs) && variable(rhs),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Index {
    Constant(i32),
    Input(usize),
}

/// An array element type, as a key (`ElemTy` without ordering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ElemKey(u8);

impl ElemKey {
    fn of(elem: ElemTy) -> ElemKey {
        ElemKey(elem as u8)
    }

    /// The descriptor of the element type (of the numeric ones, which are the only ones ghosted).
    fn descriptor(self) -> &'static str {
        match self.0 {
            x if x == ElemTy::Long as u8 => "J",
            x if x == ElemTy::Byte as u8 => "B",
            x if x == ElemTy::Char as u8 => "C",
            x if x == ElemTy::Short as u8 => "S",
            _ => "I",
        }
    }
}

/// What the statements a loop reaches may write.
#[derive(Default)]
struct Writes {
    /// A method call: anything.
    any: bool,
    statics: BTreeSet<(String, String)>,
    fields: BTreeSet<(String, String)>,
    /// Element stores by element type and constant index (`None`: any other index).
    elements: BTreeSet<(ElemKey, Option<i32>)>,
    /// The fields by name and descriptor whose every store writes the same invariant input's
    /// object from inside the cycle (`Some(k)`: that location is the loop's own variable).
    own_fields: BTreeMap<(String, String), Option<usize>>,
    /// The same for `int` and `long` elements at a constant index, by element type and index.
    own_elements: BTreeMap<(ElemKey, i32), Option<usize>>,
}

impl Writes {
    /// Whether no store reached may change `location`'s value.
    fn spares(&self, location: &Location) -> bool {
        matches!(location, Location::Computed { .. })
            || !self.any
                && match location {
                    Location::Static { name, descriptor } => {
                        !self.statics.contains(&(name.clone(), descriptor.clone()))
                    }
                    Location::Field { name, descriptor, .. } => {
                        !self.fields.contains(&(name.clone(), descriptor.clone()))
                    }
                    Location::Element { elem, index, .. } => {
                        let at = |i| self.elements.contains(&(*elem, i));
                        match index {
                            // A store at another constant index writes another element.
                            Index::Constant(c) => !at(None) && !at(Some(*c)),
                            Index::Input(_) => !self.elements.iter().any(|(e, _)| e == elem),
                        }
                    }
                    Location::Computed { .. } => true,
                }
    }

    /// Whether `location` is a field of an invariant object that only the cycle's own stores
    /// through that object write: its ghost follows them.
    fn owns(&self, location: &Location) -> bool {
        match location {
            Location::Field {
                object,
                name,
                descriptor,
            } => !self.any && self.own_fields.get(&(name.clone(), descriptor.clone())) == Some(&Some(*object)),
            // Stores at other constant indices write other elements; one at an unknown index may
            // write this one.
            Location::Element {
                array,
                index: Index::Constant(c),
                elem,
            } => {
                !self.any
                    && !self.elements.contains(&(*elem, None))
                    && self.own_elements.get(&(*elem, *c)) == Some(&Some(*array))
            }
            _ => false,
        }
    }
}

/// Rewrites every loop of `ir` whose invariant heap reads can be ghosts (see the module's doc).
pub fn ghost_invariant_reads(ir: &mut MethodIr) {
    ghost_invariant_reads_holding(ir, &HeldFields::new());
}

/// [`ghost_invariant_reads`], where each procedure receives the values of the fields `held`
/// lists for it (`reloads.rs`): a loop it enters through such an object starts from that value.
pub fn ghost_invariant_reads_holding(ir: &mut MethodIr, held: &HeldFields) {
    let graph = CallGraph::of(ir);
    let components = petgraph::algo::tarjan_scc(&graph.graph);
    for component in &components {
        let members: BTreeSet<usize> = component.iter().map(|n| n.index()).collect();
        let heads: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&p| ir.procs[p].kind == ProcKind::Loop)
            .collect();
        let [head] = heads.as_slice() else {
            continue;
        };
        if members.len() < 2 && !graph.graph.contains_edge(component[0], component[0]) {
            continue;
        }
        if !graph.entered_only_at(&members, *head) {
            continue;
        }
        let invariant = invariant_inputs(ir, &members, *head);
        let writes = writes_reached(ir, &graph, *head, &members, &invariant);
        let locations = read_locations(ir, &members, &invariant, &writes);
        if !locations.is_empty() {
            rewrite(ir, &members, *head, &invariant, &locations, held);
        }
    }
}

/// Per procedure, the index of its strongly connected component among the method's calls: two
/// procedures share one exactly when each reaches the other.
pub(super) fn component_ids(ir: &MethodIr) -> Vec<usize> {
    let graph = CallGraph::of(ir);
    let mut ids = vec![0; ir.procs.len()];
    for (k, component) in petgraph::algo::tarjan_scc(&graph.graph).iter().enumerate() {
        for node in component {
            ids[node.index()] = k;
        }
    }
    ids
}

/// The method's procedures and their calls (tail calls and handler edges included).
struct CallGraph {
    graph: DiGraph<(), ()>,
}

impl CallGraph {
    fn of(ir: &MethodIr) -> CallGraph {
        let mut graph = DiGraph::new();
        let nodes: Vec<NodeIndex> = ir.procs.iter().map(|_| graph.add_node(())).collect();
        for (p, proc) in ir.procs.iter().enumerate() {
            for stmt in proc.rules.iter().flat_map(|r| &r.body) {
                for callee in callees(stmt) {
                    if let Some(&to) = nodes.get(callee.index()) {
                        graph.update_edge(nodes[p], to, ());
                    }
                }
            }
        }
        CallGraph { graph }
    }

    /// Whether every call into `members` from outside them calls `head`.
    fn entered_only_at(&self, members: &BTreeSet<usize>, head: usize) -> bool {
        self.graph.edge_indices().all(|e| {
            let (from, to) = self.graph.edge_endpoints(e).expect("an edge of the graph");
            members.contains(&from.index()) || !members.contains(&to.index()) || to.index() == head
        })
    }

    fn reached_from(&self, head: usize) -> Vec<usize> {
        let mut dfs = petgraph::visit::Dfs::new(&self.graph, NodeIndex::new(head));
        let mut out = Vec::new();
        while let Some(n) = dfs.next(&self.graph) {
            out.push(n.index());
        }
        out
    }
}

/// The procedures a statement calls: its own call's and its handler's.
fn callees(stmt: &Stmt) -> impl Iterator<Item = ProcId> + '_ {
    let call = match &stmt.kind {
        StmtKind::Call { proc, .. } => Some(*proc),
        _ => None,
    };
    call.into_iter().chain(stmt.handler.as_ref().map(|h| h.proc))
}

/// What the procedures `head` reaches may write (the cycle `members`, with the invariant inputs
/// its procedures hold, tells which field stores write an invariant object's field).
fn writes_reached(
    ir: &MethodIr,
    graph: &CallGraph,
    head: usize,
    members: &BTreeSet<usize>,
    invariant: &Invariant,
) -> Writes {
    let mut writes = Writes::default();
    for p in graph.reached_from(head) {
        let inputs = invariant.get(&p).filter(|_| members.contains(&p));
        for rule in &ir.procs[p].rules {
            let copies = inputs.map(|inputs| rule_copies(&rule.body, inputs)).unwrap_or_default();
            for stmt in &rule.body {
                note_write(&mut writes, &stmt.kind, &copies);
            }
        }
    }
    writes
}

/// Adds what one statement may write (`copies`: the variables holding invariant inputs).
fn note_write(writes: &mut Writes, kind: &StmtKind, copies: &HashMap<VarId, usize>) {
    match kind {
        StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. } => writes.any = true,
        StmtKind::PutStatic { field, .. } => {
            writes.statics.insert((field.name.clone(), field.descriptor.clone()));
        }
        StmtKind::PutField { field, object, .. } => {
            let key = (field.name.clone(), field.descriptor.clone());
            writes.fields.insert(key.clone());
            // Stores of narrow types narrow their value: only `int` and `long` fields are followed.
            let through = match object {
                Operand::Var(v) if matches!(field.descriptor.as_str(), "I" | "J") => copies.get(v).copied(),
                _ => None,
            };
            let owner = writes.own_fields.entry(key).or_insert(through);
            if *owner != through {
                *owner = None;
            }
        }
        StmtKind::ArrayStore { elem, index, array, .. } => {
            let at = match index {
                Operand::Int(c) => Some(*c),
                _ => None,
            };
            let key = ElemKey::of(*elem);
            writes.elements.insert((key, at));
            if let Some(c) = at {
                // As for fields, only `int` and `long` elements, whose stores keep the value.
                let through = match array {
                    Operand::Var(v) if matches!(elem, ElemTy::Int | ElemTy::Long) => copies.get(v).copied(),
                    _ => None,
                };
                let owner = writes.own_elements.entry((key, c)).or_insert(through);
                if *owner != through {
                    *owner = None;
                }
            }
        }
        _ => {}
    }
}

/// Per procedure of the cycle, which of its variables hold which input of the header unchanged
/// (the header's inputs that every call back to it passes on as they came).
type Invariant = HashMap<usize, HashMap<VarId, usize>>;

/// The invariant inputs of the cycle `members` around `head`: a greatest fixpoint, starting from
/// every input of the header and dropping those some call changes.
fn invariant_inputs(ir: &MethodIr, members: &BTreeSet<usize>, head: usize) -> Invariant {
    let mut at_head: BTreeSet<usize> = (0..ir.procs[head].inputs.len()).collect();
    loop {
        let mut held: Invariant = HashMap::new();
        held.insert(head, at_head.iter().map(|&k| (ir.procs[head].inputs[k], k)).collect());
        let mut changed = true;
        let mut dropped = BTreeSet::new();
        while changed {
            changed = false;
            for &p in members {
                let Some(inputs) = held.get(&p).cloned() else {
                    continue;
                };
                for rule in &ir.procs[p].rules {
                    let copies = rule_copies(&rule.body, &inputs);
                    for stmt in &rule.body {
                        for (callee, args) in calls_with_args(ir, stmt) {
                            let q = callee.index();
                            if !members.contains(&q) {
                                continue;
                            }
                            let passed: HashMap<VarId, usize> = args
                                .iter()
                                .filter_map(|(input, arg)| match arg {
                                    Some(Operand::Var(v)) => copies.get(v).map(|&k| (*input, k)),
                                    _ => None,
                                })
                                .collect();
                            if q == head {
                                for &k in &at_head {
                                    if passed.get(&ir.procs[head].inputs[k]) != Some(&k) {
                                        dropped.insert(k);
                                    }
                                }
                                continue;
                            }
                            changed |= meet(&mut held, q, passed);
                        }
                    }
                }
            }
        }
        if dropped.is_empty() {
            return held;
        }
        at_head.retain(|k| !dropped.contains(k));
    }
}

/// Narrows what procedure `q` is known to hold to what one more call passes it; whether it changed.
fn meet(held: &mut Invariant, q: usize, passed: HashMap<VarId, usize>) -> bool {
    match held.get_mut(&q) {
        None => {
            held.insert(q, passed);
            true
        }
        Some(known) => {
            let before = known.len();
            known.retain(|v, k| passed.get(v) == Some(k));
            known.len() != before
        }
    }
}

/// The variables of a rule that hold an invariant input: the procedure's own and their copies.
fn rule_copies(body: &[Stmt], inputs: &HashMap<VarId, usize>) -> HashMap<VarId, usize> {
    let mut copies = inputs.clone();
    for stmt in body {
        if let StmtKind::Assign {
            dst,
            src: Operand::Var(src),
        } = &stmt.kind
        {
            if let Some(&k) = copies.get(src) {
                copies.insert(*dst, k);
            }
        }
    }
    copies
}

/// What a call passes: each input of the callee with the operand it receives (`None` where the JVM
/// supplies it).
type Passed<'a> = Vec<(VarId, Option<&'a Operand>)>;

/// The calls of a statement as (callee, (callee's input, the operand it receives or `None` when
/// the JVM supplies it)) lists: its own call and its handler edge.
fn calls_with_args<'a>(ir: &'a MethodIr, stmt: &'a Stmt) -> Vec<(ProcId, Passed<'a>)> {
    let mut out = Vec::new();
    if let StmtKind::Call { proc, args, .. } = &stmt.kind {
        let inputs = &ir.proc(*proc).inputs;
        out.push((*proc, inputs.iter().copied().zip(args.iter().map(Some)).collect()));
    }
    if let Some(HandlerEdge { proc, args }) = &stmt.handler {
        let inputs = &ir.proc(*proc).inputs;
        let passed = std::iter::once(None).chain(args.iter().map(Some));
        out.push((*proc, inputs.iter().copied().zip(passed).collect()));
    }
    out
}

/// The location a statement of a rule reads, when it is a numeric value addressed by invariant
/// inputs, with the variable it defines. References are left alone: one read from a field already
/// has a size the analysis relates to its object's (`|o.f| < |o|`), which a ghost would lose.
fn location_of(kind: &StmtKind, copies: &HashMap<VarId, usize>) -> Option<(VarId, Location)> {
    let wanted = |descriptor: &str| {
        matches!(
            descriptor.as_bytes().first(),
            Some(b'Z' | b'B' | b'C' | b'S' | b'I' | b'J')
        )
    };
    let input = |operand: &Operand| match operand {
        Operand::Var(v) => copies.get(v).copied(),
        _ => None,
    };
    match kind {
        // `$assertionsDisabled` is a constant the value analysis knows (assertions are off).
        StmtKind::GetStatic { dst, field }
            if field.class != GHOST_CLASS && field.name != "$assertionsDisabled" && wanted(&field.descriptor) =>
        {
            Some((
                *dst,
                Location::Static {
                    name: field.name.clone(),
                    descriptor: field.descriptor.clone(),
                },
            ))
        }
        StmtKind::GetField { dst, object, field } if wanted(&field.descriptor) => Some((
            *dst,
            Location::Field {
                object: input(object)?,
                name: field.name.clone(),
                descriptor: field.descriptor.clone(),
            },
        )),
        StmtKind::ArrayLoad {
            dst,
            elem,
            array,
            index,
        } if !matches!(elem, ElemTy::Float | ElemTy::Double | ElemTy::Ref) => {
            let index = match index {
                Operand::Int(c) => Index::Constant(*c),
                other => Index::Input(input(other)?),
            };
            Some((
                *dst,
                Location::Element {
                    array: input(array)?,
                    index,
                    elem: ElemKey::of(*elem),
                },
            ))
        }
        StmtKind::Binary {
            dst,
            op,
            ty: ty @ (Ty::Int | Ty::Long),
            lhs,
            rhs,
        } => {
            let arg = |operand: &Operand| match operand {
                Operand::Int(c) => Some(Arg::Constant(i64::from(*c))),
                Operand::Long(c) => Some(Arg::Constant(*c)),
                other => input(other).map(Arg::Input),
            };
            let (op, lhs, rhs) = (OpKey::of(*op)?, arg(lhs)?, arg(rhs)?);
            op.loose(lhs, rhs).then_some((
                *dst,
                Location::Computed {
                    op,
                    wide: *ty == Ty::Long,
                    lhs,
                    rhs,
                },
            ))
        }
        _ => None,
    }
}

/// The locations the cycle reads that no write reached from its header may change.
fn read_locations(
    ir: &MethodIr,
    members: &BTreeSet<usize>,
    invariant: &Invariant,
    writes: &Writes,
) -> BTreeMap<Location, Ty> {
    let mut found = BTreeMap::new();
    for &p in members {
        let Some(inputs) = invariant.get(&p) else {
            continue;
        };
        for rule in &ir.procs[p].rules {
            let copies = rule_copies(&rule.body, inputs);
            for stmt in &rule.body {
                if let Some((dst, location)) = location_of(&stmt.kind, &copies) {
                    if writes.spares(&location) || writes.owns(&location) {
                        found.insert(location, ir.var(dst).ty);
                    }
                }
            }
        }
    }
    found
}

/// A name for a ghost: the location as the source writes it.
fn ghost_name(ir: &MethodIr, head: usize, location: &Location) -> String {
    let input = |k: usize| source_name(&ir.var(ir.procs[head].inputs[k]).name).to_owned();
    match location {
        Location::Static { name, .. } => name.clone(),
        Location::Field { object, name, .. } => format!("{}.{name}", input(*object)),
        Location::Element { array, index, .. } => match index {
            Index::Constant(c) => format!("{}[{c}]", input(*array)),
            Index::Input(k) => format!("{}[{}]", input(*array), input(*k)),
        },
        Location::Computed { op, lhs, rhs, .. } => {
            // `n.times.m`; a constant operand as `k5` (`k_5` when negative).
            let arg = |a: &Arg| match a {
                Arg::Input(k) => input(*k),
                Arg::Constant(c) if *c < 0 => format!("k_{}", c.unsigned_abs()),
                Arg::Constant(c) => format!("k{c}"),
            };
            format!("{}.{}.{}", arg(lhs), op.text(), arg(rhs))
        }
    }
}

/// The descriptor of a location's value, for the read that gives its ghost the entering value.
fn descriptor_of(location: &Location) -> String {
    match location {
        Location::Static { descriptor, .. } | Location::Field { descriptor, .. } => descriptor.clone(),
        Location::Element { elem, .. } => elem.descriptor().to_owned(),
        Location::Computed { wide, .. } => (if *wide { "J" } else { "I" }).to_owned(),
    }
}

/// A new variable of the method, named `base` or, where that is taken, `base#k` (the IR's names
/// are unique).
pub(super) fn new_var(ir: &mut MethodIr, base: String, ty: Ty) -> VarId {
    let taken = |name: &str| ir.vars.iter().any(|v| v.name == name);
    let name = match taken(&base) {
        false => base,
        true => (2..)
            .map(|k| format!("{base}#{k}"))
            .find(|n| !taken(n))
            .expect("some suffix is free"),
    };
    ir.vars.push(VarDecl { name, ty });
    VarId::from_index(ir.vars.len() - 1)
}

/// Gives the cycle's procedures their ghosts and rewrites its reads and the calls into it.
fn rewrite(
    ir: &mut MethodIr,
    members: &BTreeSet<usize>,
    head: usize,
    invariant: &Invariant,
    locations: &BTreeMap<Location, Ty>,
    held: &HeldFields,
) {
    let ghosts: Vec<(Location, VarId, Ty)> = locations
        .iter()
        .map(|(location, &ty)| {
            let name = ghost_name(ir, head, location);
            (location.clone(), new_var(ir, name, ty), ty)
        })
        .collect();
    ir.ghosts.extend(ghosts.iter().map(|(_, v, _)| *v));
    for p in 0..ir.procs.len() {
        let inside = members.contains(&p);
        let inputs = invariant.get(&p).cloned().unwrap_or_default();
        let mut rules = std::mem::take(&mut ir.procs[p].rules);
        for rule in &mut rules {
            let copies = if inside {
                rule_copies(&rule.body, &inputs)
            } else {
                HashMap::new()
            };
            let body = std::mem::take(&mut rule.body);
            let mut state = RuleState {
                inside,
                current: ghosts.iter().map(|(_, v, _)| *v).collect(),
                stored: held_on_entry(held.get(p).map_or(&[], Vec::as_slice)),
            };
            let cycle = Cycle { head, members };
            rule.body = body
                .into_iter()
                .flat_map(|stmt| rewrite_stmt(ir, stmt, &cycle, &copies, &ghosts, &mut state))
                .collect();
        }
        ir.procs[p].rules = rules;
        if inside {
            ir.procs[p].inputs.extend(ghosts.iter().map(|(_, v, _)| *v));
        }
    }
}

/// What the rewrite of a rule knows at its current statement.
struct RuleState {
    /// Whether the rule's procedure is in the cycle.
    inside: bool,
    /// Each ghost's value so far in the rule (inside the cycle): its input, then what the stores
    /// put.
    current: Vec<VarId>,
    /// The values stored into fields so far (outside the cycle).
    stored: Stored,
}

/// The loop's cycle: its header and its procedures.
struct Cycle<'a> {
    head: usize,
    members: &'a BTreeSet<usize>,
}

/// A heap slot of an object: a field (name, descriptor) or an element at a constant index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Field(String, String),
    Element(ElemKey, i32),
}

impl Slot {
    /// The slot a ghost's location names in its object, where it has one.
    fn of(location: &Location) -> Option<(usize, Slot)> {
        match location {
            Location::Field {
                object,
                name,
                descriptor,
            } => Some((*object, Slot::Field(name.clone(), descriptor.clone()))),
            Location::Element {
                array,
                index: Index::Constant(c),
                elem,
            } => Some((*array, Slot::Element(*elem, *c))),
            _ => None,
        }
    }
}

/// The values a rule outside the cycle has stored into slots before its current statement, by
/// object variable: none survives a call, a store that may write the same slot through another
/// variable, or a new value of its variables.
type Stored = HashMap<(VarId, Slot), Operand>;

/// The fields whose values a procedure receives, as values a rule holds from its start.
fn held_on_entry(held: &[HeldField]) -> Stored {
    held.iter()
        .map(|h| {
            let slot = Slot::Field(h.name.clone(), h.descriptor.clone());
            ((h.object, slot), Operand::Var(h.value))
        })
        .collect()
}

/// The slot a read of a field or of an element at a constant index reads, with its object and
/// the variable it defines.
fn slot_read(kind: &StmtKind) -> Option<(VarId, Slot, VarId)> {
    match kind {
        StmtKind::GetField {
            dst,
            object: Operand::Var(o),
            field,
        } => Some((*o, Slot::Field(field.name.clone(), field.descriptor.clone()), *dst)),
        StmtKind::ArrayLoad {
            dst,
            elem,
            array: Operand::Var(a),
            index: Operand::Int(c),
        } => Some((*a, Slot::Element(ElemKey::of(*elem), *c), *dst)),
        _ => None,
    }
}

/// Updates `stored` past a statement of a rule outside the cycle: a store puts its value, a read
/// of a slot not held gives it the value read.
fn note_stored(stored: &mut Stored, kind: &StmtKind) {
    let defined = kind.defs();
    stored.retain(|(o, _), value| !defined.contains(o) && !matches!(value, Operand::Var(v) if defined.contains(v)));
    if let Some((object, slot, dst)) = slot_read(kind) {
        stored.entry((object, slot)).or_insert(Operand::Var(dst));
        return;
    }
    let (object, slot, value) = match kind {
        StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. } | StmtKind::Call { .. } => {
            stored.clear();
            return;
        }
        StmtKind::PutField { object, field, value } => {
            let slot = Slot::Field(field.name.clone(), field.descriptor.clone());
            stored.retain(|(_, s), _| *s != slot);
            (object, slot, value)
        }
        StmtKind::ArrayStore {
            elem,
            array,
            index,
            value,
        } => {
            let key = ElemKey::of(*elem);
            let Operand::Int(c) = index else {
                stored.retain(|(_, s), _| !matches!(s, Slot::Element(e, _) if *e == key));
                return;
            };
            let slot = Slot::Element(key, *c);
            stored.retain(|(_, s), _| *s != slot);
            (array, slot, value)
        }
        _ => return,
    };
    // A store into a narrower slot narrows its value: only `int` and `long` ones are kept.
    let wide = match &slot {
        Slot::Field(_, descriptor) => matches!(descriptor.as_str(), "I" | "J"),
        Slot::Element(elem, _) => *elem == ElemKey::of(ElemTy::Int) || *elem == ElemKey::of(ElemTy::Long),
    };
    if let (Operand::Var(o), true) = (object, wide) {
        stored.insert((*o, slot), value.clone());
    }
}

/// The values a call from outside the cycle passes its ghosts: what the rule stored into the
/// ghost's slot through the object the call passes, else a read of no known origin (added to `out`).
fn entering_values(
    ir: &mut MethodIr,
    stmt: &Stmt,
    ghosts: &[(Location, VarId, Ty)],
    stored: &Stored,
    out: &mut Vec<Stmt>,
) -> Vec<Operand> {
    let args = match &stmt.kind {
        StmtKind::Call { args, .. } => args.as_slice(),
        _ => &[],
    };
    ghosts
        .iter()
        .map(|(location, ghost, ty)| {
            if let Some((object, slot)) = Slot::of(location) {
                if let Some(Operand::Var(o)) = args.get(object) {
                    if let Some(value) = stored.get(&(*o, slot)) {
                        return value.clone();
                    }
                }
            }
            let entering = new_var(ir, format!("{}.in", source_name(&ir.var(*ghost).name)), *ty);
            if let Some(kind) = computed_entry(location, args, entering) {
                out.push(Stmt {
                    pc: stmt.pc,
                    bytecodes: stmt.bytecodes,
                    kind,
                    handler: None,
                });
                return Operand::Var(entering);
            }
            out.push(Stmt {
                pc: stmt.pc,
                bytecodes: stmt.bytecodes,
                kind: StmtKind::GetStatic {
                    dst: entering,
                    field: FieldRef {
                        class: GHOST_CLASS.to_owned(),
                        name: source_name(&ir.var(*ghost).name).to_owned(),
                        descriptor: descriptor_of(location),
                    },
                },
                handler: None,
            });
            Operand::Var(entering)
        })
        .collect()
}

/// For a product ghost, the product of the values the call passes its operands, into `dst`: what
/// every read in the loop computes, since its operands are the loop's invariant inputs (a
/// multiplication cannot throw, so computing it once more adds no exceptional path). Other
/// computed ghosts enter unknown.
fn computed_entry(location: &Location, args: &[Operand], dst: VarId) -> Option<StmtKind> {
    let Location::Computed { op, wide, lhs, rhs } = location else {
        return None;
    };
    if LOOSE_OPERATORS[usize::from(op.0)].0 != BinOp::Mul {
        return None;
    }
    let operand = |a: &Arg| match a {
        Arg::Input(k) => args.get(*k).cloned(),
        Arg::Constant(c) if *wide => Some(Operand::Long(*c)),
        Arg::Constant(c) => i32::try_from(*c).ok().map(Operand::Int),
    };
    Some(StmtKind::Binary {
        dst,
        op: BinOp::Mul,
        ty: if *wide { Ty::Long } else { Ty::Int },
        lhs: operand(lhs)?,
        rhs: operand(rhs)?,
    })
}

/// One statement of the rewrite: a ghosted read becomes the read into a fresh variable and a copy
/// of the ghost's current value; a store into a loop's own field is followed by a copy of the
/// stored value into a fresh variable, the ghost's value from there on (`current`); a call into
/// the cycle gets the ghosts (the caller's current values inside the cycle, from outside it the
/// values of [`entering_values`]).
fn rewrite_stmt(
    ir: &mut MethodIr,
    mut stmt: Stmt,
    cycle: &Cycle<'_>,
    copies: &HashMap<VarId, usize>,
    ghosts: &[(Location, VarId, Ty)],
    state: &mut RuleState,
) -> Vec<Stmt> {
    let mut out = Vec::new();
    let enters = |proc: ProcId| cycle.members.contains(&proc.index());
    let calls_in = matches!(&stmt.kind, StmtKind::Call { proc, .. } if enters(*proc))
        || stmt.handler.as_ref().is_some_and(|h| enters(h.proc));
    let inside = state.inside;
    if calls_in {
        let passed: Vec<Operand> = match inside {
            true => state.current.iter().map(|v| Operand::Var(*v)).collect(),
            false => {
                debug_assert!(
                    matches!(&stmt.kind, StmtKind::Call { proc, .. } if proc.index() == cycle.head)
                        || stmt.handler.as_ref().is_some_and(|h| h.proc.index() == cycle.head)
                );
                entering_values(ir, &stmt, ghosts, &state.stored, &mut out)
            }
        };
        if let StmtKind::Call { proc, args, .. } = &mut stmt.kind {
            if enters(*proc) {
                args.extend(passed.iter().cloned());
            }
        }
        if let Some(handler) = &mut stmt.handler {
            if enters(handler.proc) {
                handler.args.extend(passed);
            }
        }
    }
    let current = &mut state.current;
    if !inside {
        note_stored(&mut state.stored, &stmt.kind);
        out.push(stmt);
        return out;
    }
    if let Some((k, value)) = ghost_store(&stmt, copies, ghosts) {
        let (ghost, ty) = (ghosts[k].1, ghosts[k].2);
        let stored = new_var(ir, format!("{}.stored", source_name(&ir.var(ghost).name)), ty);
        let (pc, bytecodes) = (stmt.pc, stmt.bytecodes);
        out.push(stmt);
        out.push(Stmt {
            pc,
            bytecodes,
            kind: StmtKind::Assign {
                dst: stored,
                src: value,
            },
            handler: None,
        });
        current[k] = stored;
        return out;
    }
    let ghosted = location_of(&stmt.kind, copies).and_then(|(dst, location)| {
        let k = ghosts.iter().position(|(l, ..)| *l == location)?;
        Some((dst, current[k]))
    });
    let Some((dst, ghost)) = ghosted else {
        out.push(stmt);
        return out;
    };
    let name = format!("{}.read", source_name(&ir.var(dst).name));
    read_then_copy(ir, stmt, dst, name, ghost, &mut out);
    out
}

/// Pushes a read statement that now defines a fresh variable `name`, then `dst = value`: the
/// read keeps its exceptions, and its old result becomes a copy of `value`.
pub(super) fn read_then_copy(
    ir: &mut MethodIr,
    mut stmt: Stmt,
    dst: VarId,
    name: String,
    value: VarId,
    out: &mut Vec<Stmt>,
) {
    let fresh = new_var(ir, name, ir.var(dst).ty);
    let (pc, bytecodes) = (stmt.pc, stmt.bytecodes);
    redefine(&mut stmt.kind, fresh);
    out.push(stmt);
    out.push(Stmt {
        pc,
        bytecodes,
        kind: StmtKind::Assign {
            dst,
            src: Operand::Var(value),
        },
        handler: None,
    });
}

/// The ghost (its position) whose location a store writes (a loop's own field or element at a
/// constant index), with the value stored.
fn ghost_store(
    stmt: &Stmt,
    copies: &HashMap<VarId, usize>,
    ghosts: &[(Location, VarId, Ty)],
) -> Option<(usize, Operand)> {
    let (location, value) = match &stmt.kind {
        StmtKind::PutField {
            object: Operand::Var(object),
            field,
            value,
        } => (
            Location::Field {
                object: *copies.get(object)?,
                name: field.name.clone(),
                descriptor: field.descriptor.clone(),
            },
            value,
        ),
        StmtKind::ArrayStore {
            elem,
            array: Operand::Var(array),
            index: Operand::Int(c),
            value,
        } => (
            Location::Element {
                array: *copies.get(array)?,
                index: Index::Constant(*c),
                elem: ElemKey::of(*elem),
            },
            value,
        ),
        _ => return None,
    };
    let k = ghosts.iter().position(|(l, ..)| *l == location)?;
    Some((k, value.clone()))
}

/// Points a read's result at another variable.
fn redefine(kind: &mut StmtKind, to: VarId) {
    match kind {
        StmtKind::GetStatic { dst, .. }
        | StmtKind::GetField { dst, .. }
        | StmtKind::ArrayLoad { dst, .. }
        | StmtKind::Binary { dst, .. } => *dst = to,
        _ => {}
    }
}
