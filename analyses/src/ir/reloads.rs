//! Heap reads that repeat one the same run made before, with nothing in between that may write
//! the location, made copies of the first read's value.
//!
//! A procedure reads a number from the heap and tests it (`if (a[i] < 0) break;`), and the
//! procedure its test continues in reads it again to use it (`i += a[i];`): the second read is a
//! new, unknown value to the analyses, which then know nothing of its sign. The JVM returns the
//! same value (no store, call or monitor operation in between; one thread). This pass finds, for
//! every procedure, the heap locations every call of it has read before (an available-expressions
//! analysis over the method's procedures, a greatest fixpoint: a location is available at a
//! procedure when every call passes it), keeps those the procedure reads again, passes to a
//! callee that does, or whose object it passes into a loop it is not part of that reads the
//! field through the variable receiving the object (a least fixpoint; the loop's ghost,
//! `ghosts.rs`, then starts from the value: [`HeldFields`]), gives the procedure one more input
//! per kept location,
//! makes every call pass the value its caller holds, and turns each read of such a location into
//! a copy of that value (the read itself stays, into a fresh variable, with its exceptions).
//!
//! Locations: numeric static fields, numeric fields of an object in a variable, and numeric
//! elements of an array in a variable at an index in a variable or a constant. A store that may
//! write a location (same field name and descriptor; same element type), a method call, a call of
//! another procedure and a monitor operation end its availability. Loop headers, handlers and the
//! entry start with nothing available, so loops keep their inputs.
//!
//! Invariants: the rewrite is exact on single-threaded runs (each copied value is the one the
//! read returns); added inputs follow a procedure's own inputs and every call of it passes them;
//! inside a rule, variables stay defined once.

use super::ghosts::{new_var, read_then_copy};
use super::{ElemTy, FieldRef, MethodIr, Operand, ProcKind, Stmt, StmtKind, Ty, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// A location addressed by a rule's variables.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Location<V> {
    Static { field: Field },
    Field { object: V, field: Field },
    Element { array: V, index: Index<V>, elem: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Index<V> {
    Var(V),
    Constant(i32),
}

/// A field by class, name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Field {
    class: String,
    name: String,
    descriptor: String,
}

impl Field {
    fn of(field: &FieldRef) -> Field {
        Field {
            class: field.class.clone(),
            name: field.name.clone(),
            descriptor: field.descriptor.clone(),
        }
    }

    /// Whether a store of `field` may write this one (a subclass may name it: the class is not
    /// compared).
    fn aliased_by(&self, field: &FieldRef) -> bool {
        self.name == field.name && self.descriptor == field.descriptor
    }
}

/// The values a rule holds for available locations.
type Held = BTreeMap<Location<VarId>, VarId>;

fn numeric_descriptor(descriptor: &str) -> bool {
    matches!(
        descriptor.as_bytes().first(),
        Some(b'Z' | b'B' | b'C' | b'S' | b'I' | b'J')
    )
}

fn numeric_elem(elem: ElemTy) -> bool {
    !matches!(elem, ElemTy::Float | ElemTy::Double | ElemTy::Ref)
}

/// The location a statement reads, with the variable it defines.
fn read_of(kind: &StmtKind) -> Option<(VarId, Location<VarId>)> {
    match kind {
        StmtKind::GetStatic { dst, field } if numeric_descriptor(&field.descriptor) => Some((
            *dst,
            Location::Static {
                field: Field::of(field),
            },
        )),
        StmtKind::GetField {
            dst,
            object: Operand::Var(object),
            field,
        } if numeric_descriptor(&field.descriptor) => Some((
            *dst,
            Location::Field {
                object: *object,
                field: Field::of(field),
            },
        )),
        StmtKind::ArrayLoad {
            dst,
            elem,
            array: Operand::Var(array),
            index,
        } if numeric_elem(*elem) => {
            let index = match index {
                Operand::Var(v) => Index::Var(*v),
                Operand::Int(c) => Index::Constant(*c),
                _ => return None,
            };
            Some((
                *dst,
                Location::Element {
                    array: *array,
                    index,
                    elem: *elem as u8,
                },
            ))
        }
        _ => None,
    }
}

/// Drops what a statement (other than a read) may change.
fn kill<V>(held: &mut BTreeMap<Location<VarId>, V>, kind: &StmtKind) {
    match kind {
        StmtKind::Invoke { .. }
        | StmtKind::InvokeDynamic { .. }
        | StmtKind::Concat { .. }
        | StmtKind::Call { .. }
        | StmtKind::MonitorEnter { .. }
        | StmtKind::MonitorExit { .. } => held.clear(),
        StmtKind::PutStatic { field, .. } => {
            held.retain(|l, _| !matches!(l, Location::Static { field: f } if f.aliased_by(field)));
        }
        StmtKind::PutField { field, .. } => {
            held.retain(|l, _| !matches!(l, Location::Field { field: f, .. } if f.aliased_by(field)));
        }
        StmtKind::ArrayStore { elem, .. } => {
            let stored = *elem as u8;
            held.retain(|l, _| !matches!(l, Location::Element { elem, .. } if *elem == stored));
        }
        _ => {}
    }
}

/// Whether a procedure may receive available locations (loop headers, handlers and the entry
/// start with none; an `Entry` procedure that a wrapper calls is no longer the entry).
fn receives(kind: ProcKind) -> bool {
    matches!(
        kind,
        ProcKind::Block | ProcKind::Branch | ProcKind::Exit | ProcKind::Entry
    )
}

/// The locations (over `callee`'s input positions) a call with `args` passes, given what the
/// caller holds.
fn passed(held: &Held, args: &[Operand]) -> BTreeSet<Location<usize>> {
    let positions = |v: VarId| -> Vec<usize> {
        args.iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Operand::Var(x) if *x == v))
            .map(|(k, _)| k)
            .collect()
    };
    let mut out = BTreeSet::new();
    for location in held.keys() {
        match location {
            Location::Static { field } => {
                out.insert(Location::Static { field: field.clone() });
            }
            Location::Field { object, field } => {
                for p in positions(*object) {
                    out.insert(Location::Field {
                        object: p,
                        field: field.clone(),
                    });
                }
            }
            Location::Element { array, index, elem } => {
                let indices: Vec<Index<usize>> = match index {
                    Index::Var(v) => positions(*v).into_iter().map(Index::Var).collect(),
                    Index::Constant(c) => vec![Index::Constant(*c)],
                };
                for p in positions(*array) {
                    for &index in &indices {
                        out.insert(Location::Element {
                            array: p,
                            index,
                            elem: *elem,
                        });
                    }
                }
            }
        }
    }
    out
}

impl Location<usize> {
    /// The location with each input position `k` replaced by the variable `var(k)`; `None` where
    /// some position has none.
    fn over(&self, var: &dyn Fn(usize) -> Option<VarId>) -> Option<Location<VarId>> {
        Some(match self {
            Location::Static { field } => Location::Static { field: field.clone() },
            Location::Field { object, field } => Location::Field {
                object: var(*object)?,
                field: field.clone(),
            },
            Location::Element { array, index, elem } => Location::Element {
                array: var(*array)?,
                index: match index {
                    Index::Var(k) => Index::Var(var(*k)?),
                    Index::Constant(c) => Index::Constant(*c),
                },
                elem: *elem,
            },
        })
    }
}

/// A procedure's available locations in its rule's terms, each held by the variable `value`
/// gives it.
fn in_rule(ir: &MethodIr, proc: usize, available: &[(Location<usize>, VarId)]) -> Held {
    let input = |k: usize| ir.procs[proc].inputs.get(k).copied();
    available
        .iter()
        .filter_map(|(location, value)| Some((location.over(&input)?, *value)))
        .collect()
}

/// The locations available at each procedure's entry (a greatest fixpoint over the calls).
fn available(ir: &MethodIr) -> Vec<BTreeSet<Location<usize>>> {
    let count = ir.procs.len();
    let mut at: Vec<Option<BTreeSet<Location<usize>>>> = vec![None; count];
    for (p, proc) in ir.procs.iter().enumerate() {
        if !receives(proc.kind) || p == ir.entry.index() {
            at[p] = Some(BTreeSet::new());
        }
    }
    let mut work: Vec<usize> = (0..count).rev().collect();
    while let Some(p) = work.pop() {
        let Some(entry) = at[p].clone() else {
            continue;
        };
        // Placeholders stand for the values; only the locations matter here.
        let placeholder = VarId::from_index(0);
        let listed: Vec<(Location<usize>, VarId)> = entry.into_iter().map(|l| (l, placeholder)).collect();
        for rule in &ir.procs[p].rules {
            let mut held = in_rule(ir, p, &listed);
            for stmt in &rule.body {
                if let StmtKind::Call { proc, args, .. } = &stmt.kind {
                    let q = proc.index();
                    if receives(ir.procs[q].kind) && q != ir.entry.index() {
                        let incoming = passed(&held, args);
                        let narrowed = match &at[q] {
                            None => incoming,
                            Some(known) => known.intersection(&incoming).cloned().collect(),
                        };
                        if at[q].as_ref() != Some(&narrowed) {
                            at[q] = Some(narrowed);
                            work.push(q);
                        }
                    }
                }
                step(&mut held, stmt);
            }
        }
    }
    at.into_iter().map(Option::unwrap_or_default).collect()
}

/// Of each procedure's available locations, those it uses: it reads one again, or passes it to
/// a callee that uses it (a least fixpoint). The others would only be passed along unread.
fn used(ir: &MethodIr, available: &[BTreeSet<Location<usize>>]) -> Vec<BTreeSet<Location<usize>>> {
    let listed: Vec<Vec<Location<usize>>> = available.iter().map(|set| set.iter().cloned().collect()).collect();
    let mut used: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); listed.len()];
    let components = super::ghosts::component_ids(ir);
    let entering = Entering {
        fields: fields_read(ir, &components),
        components,
    };
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..listed.len() {
            for k in uses_of(ir, p, &listed, &used, &entering) {
                changed |= used[p].insert(k);
            }
        }
    }
    used.iter()
        .zip(&listed)
        .map(|(ks, locations)| ks.iter().map(|&k| locations[k].clone()).collect())
        .collect()
}

/// The numeric fields each strongly connected component of procedures (`components`) reads,
/// with the variable holding the object of each read.
fn fields_read(ir: &MethodIr, components: &[usize]) -> BTreeSet<(usize, VarId, Field)> {
    let mut out = BTreeSet::new();
    for (p, proc) in ir.procs.iter().enumerate() {
        for stmt in proc.rules.iter().flat_map(|r| &r.body) {
            if let Some((_, Location::Field { object, field })) = read_of(&stmt.kind) {
                out.insert((components[p], object, field));
            }
        }
    }
    out
}

/// What tells the calls that enter a loop from outside it, and the fields a loop may read.
struct Entering {
    /// The numeric fields each component reads, by the variable holding the object.
    fields: BTreeSet<(usize, VarId, Field)>,
    /// Per procedure, its strongly connected component.
    components: Vec<usize>,
}

/// The held fields of objects a call from procedure `p` into a loop it is not part of passes,
/// where the loop reads that field through the variable its header receives the object in: its
/// entering value is then the one held (`ghosts.rs`).
fn entering_loop<'h, V>(
    ir: &MethodIr,
    p: usize,
    stmt: &Stmt,
    held: &'h BTreeMap<Location<VarId>, V>,
    entering: &Entering,
) -> Vec<&'h V> {
    let StmtKind::Call { proc, args, .. } = &stmt.kind else {
        return Vec::new();
    };
    let q = proc.index();
    if ir.procs[q].kind != ProcKind::Loop || entering.components[q] == entering.components[p] {
        return Vec::new();
    }
    let inputs = &ir.procs[q].inputs;
    let read_in_loop = |o: &VarId, field: &Field| {
        let mut received = args
            .iter()
            .zip(inputs)
            .filter(|(a, _)| matches!(a, Operand::Var(v) if v == o));
        received.any(|(_, input)| {
            entering
                .fields
                .contains(&(entering.components[q], *input, field.clone()))
        })
    };
    held.iter()
        .filter(|(l, _)| matches!(l, Location::Field { object, field } if read_in_loop(object, field)))
        .map(|(_, v)| v)
        .collect()
}

/// The positions (in `listed[p]`) of the available locations procedure `p` uses, given what its
/// callees are known to use so far: it reads them again, passes them to a callee that uses them,
/// or passes their object into a loop that may read them.
fn uses_of(
    ir: &MethodIr,
    p: usize,
    listed: &[Vec<Location<usize>>],
    used: &[BTreeSet<usize>],
    entering: &Entering,
) -> BTreeSet<usize> {
    let input = |k: usize| ir.procs[p].inputs.get(k).copied();
    let mut out = BTreeSet::new();
    for rule in &ir.procs[p].rules {
        // Each held location with the position of the entry location it came from, if any.
        let mut held: BTreeMap<Location<VarId>, Option<usize>> = listed[p]
            .iter()
            .enumerate()
            .filter_map(|(k, l)| Some((l.over(&input)?, Some(k))))
            .collect();
        for stmt in &rule.body {
            out.extend(entering_loop(ir, p, stmt, &held, entering).into_iter().flatten());
            if let StmtKind::Call { proc, args, .. } = &stmt.kind {
                let q = proc.index();
                let wanted: Vec<(Location<usize>, VarId)> = used[q]
                    .iter()
                    .map(|&k| (listed[q][k].clone(), VarId::from_index(0)))
                    .collect();
                for location in in_rule_of_call(&wanted, args).unwrap_or_default() {
                    if let Some(Some(k)) = held.get(&location) {
                        out.insert(*k);
                    }
                }
            }
            match read_of(&stmt.kind) {
                Some((_, location)) => match held.get(&location) {
                    Some(Some(k)) => {
                        out.insert(*k);
                    }
                    Some(None) => {}
                    None => {
                        held.insert(location, None);
                    }
                },
                None => kill(&mut held, &stmt.kind),
            }
        }
    }
    out
}

/// Updates what a rule holds past a statement: a read of a location not held becomes its value.
fn step(held: &mut Held, stmt: &Stmt) {
    match read_of(&stmt.kind) {
        Some((dst, location)) => {
            held.entry(location).or_insert(dst);
        }
        None => kill(held, &stmt.kind),
    }
}

/// A numeric field of an object in an input of a procedure, whose value the procedure receives
/// as an added input: where `ghosts.rs` takes the entering value of a loop the procedure enters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldField {
    pub object: VarId,
    pub name: String,
    pub descriptor: String,
    pub value: VarId,
}

/// Per procedure, the fields whose values it receives (empty when the pass changed nothing).
pub type HeldFields = Vec<Vec<HeldField>>;

/// Rewrites the method's repeated reads (see the module's doc); leaves the method as it was
/// should a call not hold what its callee was found to receive (the two walks disagreeing).
pub fn reuse_repeated_reads(ir: &mut MethodIr) -> HeldFields {
    let available = available(ir);
    if available.iter().all(BTreeSet::is_empty) {
        return HeldFields::new();
    }
    let available = used(ir, &available);
    if available.iter().all(BTreeSet::is_empty) {
        return HeldFields::new();
    }
    let mut rewritten = ir.clone();
    match rewrite(&mut rewritten, &available) {
        Some(held) => {
            *ir = rewritten;
            held
        }
        None => HeldFields::new(),
    }
}

/// The fields among a procedure's added inputs, by the variables of its own inputs.
fn held_fields(inputs: &[VarId], added: &[(Location<usize>, VarId)]) -> Vec<HeldField> {
    added
        .iter()
        .filter_map(|(location, value)| match location {
            Location::Field { object, field } => Some(HeldField {
                object: *inputs.get(*object)?,
                name: field.name.clone(),
                descriptor: field.descriptor.clone(),
                value: *value,
            }),
            _ => None,
        })
        .collect()
}

/// Gives each procedure its available locations as inputs and rewrites the rules; `None` when a
/// call's caller does not hold a location its callee receives.
fn rewrite(ir: &mut MethodIr, available: &[BTreeSet<Location<usize>>]) -> Option<HeldFields> {
    // The added inputs, per procedure, in the order of its available locations.
    let mut added: Vec<Vec<(Location<usize>, VarId)>> = Vec::with_capacity(available.len());
    for (p, locations) in available.iter().enumerate() {
        let mut inputs = Vec::new();
        for location in locations {
            let ty = location_ty(location);
            let name = format!("{}.held", ir.procs[p].name);
            inputs.push((location.clone(), new_var(ir, name, ty)));
        }
        added.push(inputs);
    }
    let held = added
        .iter()
        .enumerate()
        .map(|(p, added)| held_fields(&ir.procs[p].inputs, added))
        .collect();
    for p in 0..ir.procs.len() {
        let mut rules = std::mem::take(&mut ir.procs[p].rules);
        for rule in &mut rules {
            let mut held = in_rule(ir, p, &added[p]);
            let body = std::mem::take(&mut rule.body);
            let mut out = Vec::with_capacity(body.len());
            for mut stmt in body {
                if let StmtKind::Call { proc, args, .. } = &mut stmt.kind {
                    let callee = in_rule_of_call(&added[proc.index()], args)?;
                    let values: Vec<Operand> = callee
                        .iter()
                        .map(|l| held.get(l).map(|v| Operand::Var(*v)))
                        .collect::<Option<_>>()?;
                    args.extend(values);
                }
                match read_of(&stmt.kind).and_then(|(dst, l)| Some((dst, *held.get(&l)?))) {
                    Some((dst, value)) => {
                        let name = format!("{}.reread", ir.var(dst).name);
                        read_then_copy(ir, stmt, dst, name, value, &mut out);
                    }
                    None => {
                        step(&mut held, &stmt);
                        out.push(stmt);
                    }
                }
            }
            rule.body = out;
        }
        ir.procs[p].rules = rules;
        let extra: Vec<VarId> = added[p].iter().map(|(_, v)| *v).collect();
        ir.procs[p].inputs.extend(extra);
    }
    Some(held)
}

/// The caller's locations a call passes for the callee's added inputs, in their order (the
/// callee's locations over the call's arguments).
fn in_rule_of_call(callee: &[(Location<usize>, VarId)], args: &[Operand]) -> Option<Vec<Location<VarId>>> {
    let var = |k: usize| match args.get(k) {
        Some(Operand::Var(v)) => Some(*v),
        _ => None,
    };
    callee.iter().map(|(location, _)| location.over(&var)).collect()
}

/// The type of a location's value.
fn location_ty(location: &Location<usize>) -> Ty {
    let wide = match location {
        Location::Static { field } | Location::Field { field, .. } => field.descriptor == "J",
        Location::Element { elem, .. } => *elem == ElemTy::Long as u8,
    };
    if wide {
        Ty::Long
    } else {
        Ty::Int
    }
}
