//! Canonical abstraction of a symbolic state at a loop head into an assertion: the candidate
//! invariants of loops that have none (list traversal with a cursor, reversal, deletion with a
//! trailing cursor, insertion).
//!
//! The state is described in terms of its roots (the loop's reference variables, as `@var x`, and
//! the method's parameters, as `@arg x`): every complete list cell becomes a one-cell segment;
//! segments meeting at an object no root names and nothing else points to are merged (when the
//! merged segment's end is null or an object owned elsewhere, so the merge is sound); tree nodes
//! whose children are null or anonymous trees become trees; what no root reaches is dropped (it
//! can never be accessed again). Remaining anonymous objects become existential variables.
//! Equalities between roots and the disequalities the state proves between them become data
//! assertions. **The result is always entailed by the state it abstracts** (each step is a
//! separation-logic weakening), so using it as an invariant loses precision, never soundness;
//! the invariant is then checked like a written one.

use super::assertion::{
    Assertion, Assertions, ClassName, DataAssertion, DataOp, HeapAssertion, LinearExpr, Span, Term, TermKind, TypeName,
    TypedVar,
};
use super::program::{list_link, tree_link, ProgramView};
use super::resource::ResExpr;
use super::symbolic::{Atom, State, Value};
use crate::ir::Ty;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The abstraction of `state` over `roots` (terms and their values, loop variables first). Names
/// existentials `e<n>` from `next_existential` on.
pub fn abstract_state(
    state: &State,
    roots: &[(TermKind, Value)],
    view: &dyn ProgramView,
    next_existential: &mut usize,
) -> Assertions {
    let mut st = state.clone();
    if !st.normalize() {
        return Assertions {
            exists: Vec::new(),
            disjuncts: vec![Assertion {
                data: vec![DataAssertion {
                    lhs: term(TermKind::Null),
                    op: DataOp::Ne,
                    rhs: term(TermKind::Null),
                    span: Span::default(),
                }],
                heap: Vec::new(),
                resource: LinearExpr::constant(0),
                span: Span::default(),
            }],
            span: Span::default(),
        };
    }
    let mut named: BTreeMap<Value, Vec<TermKind>> = BTreeMap::new();
    for (kind, value) in roots {
        named.entry(st.find(*value)).or_default().push(kind.clone());
    }
    cells_to_segments(&mut st, view);
    fold_trees(&mut st, &named, view);
    merge_segments(&mut st, &named);
    collect_garbage(&mut st, &named);

    // Names for every value the atoms mention.
    let mut exists: Vec<TypedVar> = Vec::new();
    let mut names: BTreeMap<Value, TermKind> = BTreeMap::new();
    for (value, kinds) in &named {
        if let Some(first) = kinds.first() {
            names.insert(*value, first.clone());
        }
    }
    let mut name_of = |value: Value, exists: &mut Vec<TypedVar>| -> TermKind {
        if value == Value::Null {
            return TermKind::Null;
        }
        if let Some(kind) = names.get(&value) {
            return kind.clone();
        }
        *next_existential += 1;
        let name = format!("e{next_existential}");
        exists.push(TypedVar {
            name: name.clone(),
            ty: TypeName::Ref,
            class: None,
            span: Span::default(),
        });
        names.insert(value, TermKind::Exists(name.clone()));
        TermKind::Exists(name)
    };
    let mut heap = Vec::new();
    for atom in &st.atoms {
        match atom {
            Atom::PointsTo { addr, field, value } => {
                let ty = view
                    .layout(&field.class)
                    .and_then(|l| l.field(&field.name).map(|f| f.ty()))
                    .unwrap_or(Ty::Ref);
                let target = if ty == Ty::Ref {
                    Some(term(name_of(*value, &mut exists)))
                } else {
                    None
                };
                heap.push(HeapAssertion::Field {
                    object: term(name_of(*addr, &mut exists)),
                    field: field.name.clone(),
                    ty: type_name(ty),
                    target,
                    span: Span::default(),
                });
            }
            Atom::Lseg { from, to, .. } => heap.push(HeapAssertion::Lseg {
                resource: LinearExpr::constant(0),
                from: term(name_of(*from, &mut exists)),
                to: term(name_of(*to, &mut exists)),
                span: Span::default(),
            }),
            Atom::Tree { root, .. } => heap.push(HeapAssertion::Tree {
                resource: LinearExpr::constant(0),
                root: term(name_of(*root, &mut exists)),
                span: Span::default(),
            }),
        }
    }
    // An existential a segment or tree starts or ends at is declared with the structure's class,
    // so the invariant names its class whatever the fields holding it are declared as.
    for atom in &st.atoms {
        let (values, class) = match atom {
            Atom::Lseg { from, to, link, .. } => (vec![*from, *to], &link.class),
            Atom::Tree { root, link, .. } => (vec![*root], &link.class),
            Atom::PointsTo { .. } => continue,
        };
        for value in values {
            let Some(TermKind::Exists(name)) = names.get(&value) else {
                continue;
            };
            if let Some(var) = exists.iter_mut().find(|v| v.name == *name && v.class.is_none()) {
                var.class = Some(ClassName {
                    name: class.replace('/', "."),
                    span: Span::default(),
                });
            }
        }
    }
    Assertions {
        exists,
        disjuncts: vec![Assertion {
            data: facts(state, &named),
            heap,
            resource: LinearExpr::constant(0),
            span: Span::default(),
        }],
        span: Span::default(),
    }
}

fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: Span::default(),
    }
}

fn type_name(ty: Ty) -> TypeName {
    match ty {
        Ty::Int => TypeName::Int,
        Ty::Long => TypeName::Long,
        Ty::Float => TypeName::Float,
        Ty::Double => TypeName::Double,
        Ty::Ref => TypeName::Ref,
    }
}

/// The data assertions over the roots: equalities within a class of roots, and the
/// disequalities the (unabstracted) state proves between classes and with `null`, where a loop
/// variable is involved (facts about parameters alone never change).
fn facts(state: &State, named: &BTreeMap<Value, Vec<TermKind>>) -> Vec<DataAssertion> {
    let mut data = Vec::new();
    let fact = |lhs: &TermKind, op: DataOp, rhs: &TermKind| DataAssertion {
        lhs: term(lhs.clone()),
        op,
        rhs: term(rhs.clone()),
        span: Span::default(),
    };
    let is_var = |k: &TermKind| matches!(k, TermKind::Var(_));
    for (value, kinds) in named {
        let Some(first) = kinds.first() else { continue };
        for other in &kinds[1..] {
            if is_var(first) || is_var(other) {
                data.push(fact(first, DataOp::Eq, other));
            }
        }
        if *value == Value::Null {
            continue;
        }
        if is_var(first) && state.distinct(*value, Value::Null) {
            data.push(fact(first, DataOp::Ne, &TermKind::Null));
        }
    }
    let classes: Vec<(&Value, &TermKind)> = named
        .iter()
        .filter(|(v, _)| **v != Value::Null)
        .filter_map(|(v, k)| k.first().map(|k| (v, k)))
        .collect();
    for (i, (a, ka)) in classes.iter().enumerate() {
        for (b, kb) in &classes[i + 1..] {
            if (is_var(ka) || is_var(kb)) && state.distinct(**a, **b) {
                data.push(fact(ka, DataOp::Ne, kb));
            }
        }
    }
    // A root equal to null is named by the equality.
    if let Some(kinds) = named.get(&Value::Null) {
        for kind in kinds.iter().filter(|k| is_var(k)) {
            data.push(fact(kind, DataOp::Eq, &TermKind::Null));
        }
    }
    data
}

/// The objects some points-to atom holds a field of.
fn cell_addresses(st: &State) -> BTreeSet<Value> {
    st.atoms
        .iter()
        .filter_map(|a| match a {
            Atom::PointsTo { addr, .. } => Some(*addr),
            _ => None,
        })
        .collect()
}

/// The class of the object at `addr`: known, or else the class declaring one of its fields.
fn class_of(st: &State, addr: Value) -> Option<String> {
    if let Some((class, _)) = st.classes.get(&addr) {
        return Some(class.clone());
    }
    st.atoms.iter().find_map(|a| match a {
        Atom::PointsTo { addr: x, field, .. } if *x == addr => Some(field.class.clone()),
        _ => None,
    })
}

/// Every complete cell of a list class becomes a one-cell segment, except the last cell of a list
/// that a field of another kind of object (a container) points to: it stays a cell, so that a
/// container's pointer to its list's last cell (`LinkedList.last`) keeps saying that the cell is
/// there and ends the list.
fn cells_to_segments(st: &mut State, view: &dyn ProgramView) {
    for addr in cell_addresses(st) {
        let Some(class) = class_of(st, addr) else {
            continue;
        };
        let Some(link) = view.layout(&class).and_then(|l| list_link(&l)) else {
            continue;
        };
        if !st.has_cell(addr, &link.fields) {
            continue;
        }
        let last = st
            .points_to(addr, &link.next)
            .is_some_and(|i| matches!(&st.atoms[i], Atom::PointsTo { value, .. } if st.find(*value) == Value::Null));
        let held_by_container = st.atoms.iter().any(|a| match a {
            Atom::PointsTo {
                addr: holder, value, ..
            } => {
                st.find(*value) == addr
                    && st.find(*holder) != addr
                    && class_of(st, st.find(*holder)).is_some_and(|c| c != link.class)
            }
            _ => false,
        });
        if last && held_by_container {
            continue;
        }
        if let Some(next) = st.take_cell(addr, &link.fields, &link.next) {
            st.atoms.push(Atom::Lseg {
                potential: ResExpr::zero(),
                from: addr,
                to: st.find(next),
                link: Arc::new(link),
            });
        }
    }
}

/// How many times each value occurs in the atoms.
fn occurrences(st: &State) -> BTreeMap<Value, usize> {
    let mut count: BTreeMap<Value, usize> = BTreeMap::new();
    for atom in &st.atoms {
        let values: Vec<Value> = match atom {
            Atom::PointsTo { addr, value, .. } => vec![*addr, *value],
            Atom::Lseg { from, to, .. } => vec![*from, *to],
            Atom::Tree { root, .. } => vec![*root],
        };
        for v in values {
            *count.entry(st.find(v)).or_default() += 1;
        }
    }
    count
}

/// Complete tree nodes whose children are null or anonymous trees become trees.
fn fold_trees(st: &mut State, named: &BTreeMap<Value, Vec<TermKind>>, view: &dyn ProgramView) {
    for _ in 0..st.atoms.len() + 1 {
        let count = occurrences(st);
        let mut folded = false;
        for addr in cell_addresses(st) {
            let Some(class) = class_of(st, addr) else {
                continue;
            };
            let Some(link) = view.layout(&class).and_then(|l| tree_link(&l)) else {
                continue;
            };
            if !st.has_cell(addr, &link.fields) {
                continue;
            }
            let child = |field| {
                st.points_to(addr, field).and_then(|i| match &st.atoms[i] {
                    Atom::PointsTo { value, .. } => Some(st.find(*value)),
                    _ => None,
                })
            };
            let (Some(left), Some(right)) = (child(&link.left), child(&link.right)) else {
                continue;
            };
            let subtree = |value: Value| {
                value == Value::Null
                    || (!named.contains_key(&value)
                        && count.get(&value) == Some(&2)
                        && st
                            .atoms
                            .iter()
                            .any(|a| matches!(a, Atom::Tree { root, .. } if st.find(*root) == value)))
            };
            if left == right && left != Value::Null || !subtree(left) || !subtree(right) {
                continue;
            }
            st.take_cell(addr, &link.fields, &link.left);
            st.atoms.retain(
                |a| !matches!(a, Atom::Tree { root, .. } if *root != Value::Null && (*root == left || *root == right)),
            );
            st.atoms.push(Atom::Tree {
                potential: ResExpr::zero(),
                root: addr,
                link: Arc::new(link),
            });
            folded = true;
            break;
        }
        if !folded {
            return;
        }
    }
}

/// Merges `lseg(x, y) * lseg(y, z)` into `lseg(x, z)` where `y` is anonymous and occurs nowhere
/// else, and `z` is null or an object owned by another atom.
fn merge_segments(st: &mut State, named: &BTreeMap<Value, Vec<TermKind>>) {
    for _ in 0..st.atoms.len() + 1 {
        let count = occurrences(st);
        let mut merged = None;
        'search: for (i, first) in st.atoms.iter().enumerate() {
            let Atom::Lseg {
                from: x,
                to: y,
                link: first_link,
                ..
            } = first
            else {
                continue;
            };
            if *y == Value::Null || named.contains_key(y) || count.get(y) != Some(&2) {
                continue;
            }
            for (j, second) in st.atoms.iter().enumerate() {
                let Atom::Lseg { from, to: z, link, .. } = second else {
                    continue;
                };
                if i == j || from != y || link != first_link || z == x {
                    continue;
                }
                let mut others = st.clone();
                others.atoms = st
                    .atoms
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != i && *k != j)
                    .map(|(_, a)| a.clone())
                    .collect();
                if others.null_or_allocated(*z) {
                    merged = Some((i, j, *x, *z, first_link.clone()));
                    break 'search;
                }
            }
        }
        let Some((i, j, x, z, link)) = merged else {
            return;
        };
        let (high, low) = if i > j { (i, j) } else { (j, i) };
        st.atoms.remove(high);
        st.atoms.remove(low);
        st.atoms.push(Atom::Lseg {
            potential: ResExpr::zero(),
            from: x,
            to: z,
            link,
        });
    }
}

/// Drops the atoms no root reaches.
fn collect_garbage(st: &mut State, named: &BTreeMap<Value, Vec<TermKind>>) {
    let mut reached: BTreeSet<Value> = named.keys().copied().collect();
    loop {
        let before = reached.len();
        for atom in &st.atoms {
            match atom {
                Atom::PointsTo { addr, value, .. } if reached.contains(addr) => {
                    reached.insert(*value);
                }
                Atom::Lseg { from, to, .. } if reached.contains(from) => {
                    reached.insert(*to);
                }
                _ => {}
            }
        }
        if reached.len() == before {
            break;
        }
    }
    st.atoms.retain(|atom| match atom {
        Atom::PointsTo { addr, .. } => reached.contains(addr),
        Atom::Lseg { from, .. } => reached.contains(from),
        Atom::Tree { root, .. } => reached.contains(root),
    });
}
