//! Symbolic heaps: the states of the proof search. A state is a pure part (equalities and
//! disequalities between symbolic values), a spatial part (field points-to facts, list segments
//! and trees, all separate from each other) and the amount of resource held (the constant
//! potential, a linear expression over the resource variables).
//!
//! Invariants: **every value stored in an atom is its class representative after
//! [`State::normalize`]; an empty list segment (`from == to`) or a tree at `null` is never kept;
//! two atoms never own the same field of the same object** (a state where they would is
//! contradictory and is dropped).

use super::program::{FieldKey, ListLink, TreeLink};
use super::resource::ResExpr;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A symbolic value: `null`, an integer constant, or an unknown value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Null,
    Int(i64),
    Sym(u32),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Sym(k) => write!(f, "v{k}"),
        }
    }
}

impl Value {
    fn is_constant(self) -> bool {
        !matches!(self, Value::Sym(_))
    }
}

/// Equalities (union-find, constants as representatives) and disequalities between values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pure {
    parent: BTreeMap<u32, Value>,
    disequalities: Vec<(Value, Value)>,
    contradiction: bool,
}

impl Pure {
    /// The representative of a value's class.
    pub fn find(&self, value: Value) -> Value {
        let mut current = value;
        // Chains are short; the bound only guards against a corrupt table.
        for _ in 0..=self.parent.len() {
            match current {
                Value::Sym(k) => match self.parent.get(&k) {
                    Some(next) => current = *next,
                    None => return current,
                },
                _ => return current,
            }
        }
        current
    }

    /// Records `a == b`.
    pub fn union(&mut self, a: Value, b: Value) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        // A constant always stays the representative of its class.
        match (ra, rb) {
            (Value::Sym(k), _) => {
                self.parent.insert(k, rb);
            }
            (_, Value::Sym(k)) => {
                self.parent.insert(k, ra);
            }
            _ => {
                self.contradiction = true;
                return;
            }
        }
        if self.disequalities.iter().any(|(x, y)| self.find(*x) == self.find(*y)) {
            self.contradiction = true;
        }
    }

    /// Records `a != b`.
    pub fn add_disequality(&mut self, a: Value, b: Value) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            self.contradiction = true;
            return;
        }
        if ra.is_constant() && rb.is_constant() {
            return;
        }
        if !self.disequalities.contains(&(ra, rb)) && !self.disequalities.contains(&(rb, ra)) {
            self.disequalities.push((ra, rb));
        }
    }

    pub fn equal(&self, a: Value, b: Value) -> bool {
        self.find(a) == self.find(b)
    }

    /// Whether the pure part alone says `a != b`.
    pub fn distinct(&self, a: Value, b: Value) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if ra.is_constant() && rb.is_constant() {
            return true;
        }
        self.disequalities
            .iter()
            .any(|(x, y)| (self.find(*x) == ra && self.find(*y) == rb) || (self.find(*x) == rb && self.find(*y) == ra))
    }

    pub fn is_contradictory(&self) -> bool {
        self.contradiction
    }
}

/// A spatial fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// The field `field` of object `addr` holds `value`.
    PointsTo { addr: Value, field: FieldKey, value: Value },
    /// An acyclic list segment from `from` to `to` (excluded), `potential` units per cell.
    Lseg {
        potential: ResExpr,
        from: Value,
        to: Value,
        link: Arc<ListLink>,
    },
    /// A binary tree at `root` (`null` when empty), `potential` units per node.
    Tree {
        potential: ResExpr,
        root: Value,
        link: Arc<TreeLink>,
    },
}

/// A symbolic state.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub pure: Pure,
    pub atoms: Vec<Atom>,
    /// The constant potential held.
    pub pool: ResExpr,
    /// What is known of an object's class: the class and whether it is exact (allocated here).
    pub classes: BTreeMap<Value, (String, bool)>,
}

/// Makes fresh symbols.
#[derive(Clone, Debug, Default)]
pub struct Fresh {
    next: u32,
}

impl Fresh {
    pub fn value(&mut self) -> Value {
        self.next += 1;
        Value::Sym(self.next)
    }
}

impl State {
    pub fn find(&self, value: Value) -> Value {
        self.pure.find(value)
    }

    pub fn equal(&self, a: Value, b: Value) -> bool {
        self.pure.equal(a, b)
    }

    /// The object and the fields an atom certainly owns (a possibly empty segment or tree owns
    /// nothing for sure).
    pub fn footprint(&self, atom: &Atom) -> Option<(Value, Vec<FieldKey>)> {
        match atom {
            Atom::PointsTo { addr, field, .. } => Some((self.find(*addr), vec![field.clone()])),
            Atom::Lseg { from, to, link, .. } if self.pure.distinct(*from, *to) => {
                Some((self.find(*from), link.fields.clone()))
            }
            Atom::Tree { root, link, .. } if self.pure.distinct(*root, Value::Null) => {
                Some((self.find(*root), link.fields.clone()))
            }
            _ => None,
        }
    }

    /// Whether `value` is certainly an allocated object (some atom owns a field of it).
    pub fn allocated(&self, value: Value) -> bool {
        let value = self.find(value);
        self.atoms
            .iter()
            .any(|atom| self.footprint(atom).is_some_and(|(addr, _)| addr == value))
    }

    /// Whether `value` is certainly `null` or an allocated object: so it cannot be an inner cell
    /// of a list segment held separately. Also true at the start of a segment (or tree) that ends
    /// in such a value, since the segment is either empty (and its start is its end) or starts
    /// with a cell.
    pub fn null_or_allocated(&self, value: Value) -> bool {
        let mut current = self.find(value);
        for _ in 0..=self.atoms.len() {
            if current == Value::Null || self.allocated(current) {
                return true;
            }
            if self
                .atoms
                .iter()
                .any(|a| matches!(a, Atom::Tree { root, .. } if self.find(*root) == current))
            {
                return true;
            }
            let next = self.atoms.iter().find_map(|a| match a {
                Atom::Lseg { from, to, .. } if self.find(*from) == current => Some(self.find(*to)),
                _ => None,
            });
            match next {
                Some(next) => current = next,
                None => return false,
            }
        }
        false
    }

    /// Whether `a != b` follows from the state: from the pure part, from `null` against an
    /// allocated object, or from two atoms owning the same field of each.
    pub fn distinct(&self, a: Value, b: Value) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.pure.distinct(a, b) {
            return true;
        }
        if (a == Value::Null && self.allocated(b)) || (b == Value::Null && self.allocated(a)) {
            return true;
        }
        self.separated(a, b) || self.separated(b, a)
    }

    /// Whether `a`, owned by some atom, differs from `b` because every way `b` can be read off
    /// the state (null, an object another atom owns fields of that `a`'s atom owns too, or the
    /// end of a segment that starts at `b` when it is empty) is another object.
    fn separated(&self, a: Value, b: Value) -> bool {
        let prints: Vec<Option<(Value, Vec<FieldKey>)>> = self.atoms.iter().map(|x| self.footprint(x)).collect();
        let Some((owner, fields)) = prints
            .iter()
            .enumerate()
            .find_map(|(k, p)| p.as_ref().filter(|(x, _)| *x == a).map(|(_, f)| (k, f.clone())))
        else {
            return false;
        };
        let overlaps = |k: usize, own: &[FieldKey]| k != owner && own.iter().any(|f| fields.contains(f));
        let mut current = b;
        for _ in 0..=self.atoms.len() {
            if current == Value::Null {
                return true;
            }
            if current == a {
                return false;
            }
            let owned_elsewhere = prints
                .iter()
                .enumerate()
                .any(|(k, p)| p.as_ref().is_some_and(|(x, f)| *x == current && overlaps(k, f)));
            if owned_elsewhere {
                return true;
            }
            // A segment or tree from `current` whose cells would share fields with `a`'s: if
            // it has a cell, `current` is that cell; if it is empty, `current` is its end.
            let next = self.atoms.iter().enumerate().find_map(|(k, atom)| match atom {
                Atom::Lseg { from, to, link, .. } if self.find(*from) == current && overlaps(k, &link.fields) => {
                    Some(self.find(*to))
                }
                Atom::Tree { root, link, .. } if self.find(*root) == current && overlaps(k, &link.fields) => {
                    Some(Value::Null)
                }
                _ => None,
            });
            match next {
                Some(next) => current = next,
                None => return false,
            }
        }
        false
    }

    /// Rewrites every value to its representative, drops empty segments and trees, and checks
    /// for contradictions. Returns `false` when the state is contradictory (no heap satisfies it).
    pub fn normalize(&mut self) -> bool {
        if self.pure.is_contradictory() {
            return false;
        }
        let pure = self.pure.clone();
        let find = |v: Value| pure.find(v);
        let mut kept = Vec::with_capacity(self.atoms.len());
        let mut forced: Vec<Value> = Vec::new();
        for atom in std::mem::take(&mut self.atoms) {
            match atom {
                Atom::PointsTo { addr, field, value } => {
                    let addr = find(addr);
                    if addr.is_constant() {
                        return false;
                    }
                    kept.push(Atom::PointsTo {
                        addr,
                        field,
                        value: find(value),
                    });
                }
                Atom::Lseg {
                    potential,
                    from,
                    to,
                    link,
                } => {
                    let (from, to) = (find(from), find(to));
                    if from == to {
                        continue;
                    }
                    match from {
                        // A segment from null is empty, so it ends at null.
                        Value::Null => forced.push(to),
                        Value::Int(_) => return false,
                        Value::Sym(_) => kept.push(Atom::Lseg {
                            potential,
                            from,
                            to,
                            link,
                        }),
                    }
                }
                Atom::Tree { potential, root, link } => {
                    let root = find(root);
                    if root == Value::Null {
                        continue;
                    }
                    if root.is_constant() {
                        return false;
                    }
                    kept.push(Atom::Tree { potential, root, link });
                }
            }
        }
        self.atoms = kept;
        if !forced.is_empty() {
            for value in forced {
                self.pure.union(value, Value::Null);
            }
            return self.normalize();
        }
        self.classes = std::mem::take(&mut self.classes)
            .into_iter()
            .map(|(k, v)| (find(k), v))
            .collect();
        // No field is owned twice.
        let prints: Vec<(Value, Vec<FieldKey>)> = self.atoms.iter().filter_map(|a| self.footprint(a)).collect();
        for (i, (x, fx)) in prints.iter().enumerate() {
            for (y, fy) in &prints[i + 1..] {
                if x == y && fx.iter().any(|f| fy.contains(f)) {
                    return false;
                }
            }
        }
        // An object owned by an atom is not null.
        if prints.iter().any(|(x, _)| *x == Value::Null) {
            return false;
        }
        true
    }

    /// Adds `a == b` and normalises; `false` when contradictory.
    pub fn assume_equal(&mut self, a: Value, b: Value) -> bool {
        self.pure.union(a, b);
        self.normalize()
    }

    /// Adds `a != b` and normalises; `false` when contradictory.
    pub fn assume_distinct(&mut self, a: Value, b: Value) -> bool {
        if self.equal(a, b) {
            return false;
        }
        self.pure.add_disequality(a, b);
        self.normalize()
    }

    /// The index of the atom holding field `field` of `addr`.
    pub fn points_to(&self, addr: Value, field: &FieldKey) -> Option<usize> {
        let addr = self.find(addr);
        self.atoms.iter().position(
            |atom| matches!(atom, Atom::PointsTo { addr: a, field: f, .. } if self.find(*a) == addr && f == field),
        )
    }

    /// Whether every field of `fields` of `addr` is held by a points-to atom.
    pub fn has_cell(&self, addr: Value, fields: &[FieldKey]) -> bool {
        fields.iter().all(|f| self.points_to(addr, f).is_some())
    }

    /// Removes the points-to atoms of `fields` at `addr` and returns the value of `wanted`.
    pub fn take_cell(&mut self, addr: Value, fields: &[FieldKey], wanted: &FieldKey) -> Option<Value> {
        let mut result = None;
        for field in fields {
            let index = self.points_to(addr, field)?;
            if let Atom::PointsTo { value, .. } = self.atoms.remove(index) {
                if field == wanted {
                    result = Some(value);
                }
            }
        }
        result
    }

    /// Replaces the segment at `index` (which must start at a cell, `from != to`) by its first
    /// cell and the rest of the segment; the cell's potential joins the pool.
    pub fn unfold_lseg(&mut self, index: usize, fresh: &mut Fresh) {
        let Atom::Lseg {
            potential,
            from,
            to,
            link,
        } = self.atoms.remove(index)
        else {
            return;
        };
        let next = fresh.value();
        for field in &link.fields {
            let value = if *field == link.next { next } else { fresh.value() };
            self.atoms.push(Atom::PointsTo {
                addr: from,
                field: field.clone(),
                value,
            });
        }
        self.pool = self.pool.plus(&potential);
        self.classes.entry(from).or_insert_with(|| (link.class.clone(), false));
        self.atoms.push(Atom::Lseg {
            potential,
            from: next,
            to,
            link,
        });
    }

    /// Replaces the tree at `index` (whose root must not be null) by its root node and the two
    /// subtrees; the node's potential joins the pool.
    pub fn unfold_tree(&mut self, index: usize, fresh: &mut Fresh) {
        let Atom::Tree { potential, root, link } = self.atoms.remove(index) else {
            return;
        };
        let (left, right) = (fresh.value(), fresh.value());
        for field in &link.fields {
            let value = if *field == link.left {
                left
            } else if *field == link.right {
                right
            } else {
                fresh.value()
            };
            self.atoms.push(Atom::PointsTo {
                addr: root,
                field: field.clone(),
                value,
            });
        }
        self.pool = self.pool.plus(&potential);
        self.classes.entry(root).or_insert_with(|| (link.class.clone(), false));
        for child in [left, right] {
            self.atoms.push(Atom::Tree {
                potential: potential.clone(),
                root: child,
                link: link.clone(),
            });
        }
    }

    /// A short description of the spatial part, for failure messages.
    pub fn describe_heap(&self, name: &dyn Fn(Value) -> String) -> String {
        let mut parts: Vec<String> = Vec::new();
        for atom in &self.atoms {
            parts.push(match atom {
                Atom::PointsTo { addr, field, value } => format!("{}.{} -> {}", name(*addr), field.name, name(*value)),
                Atom::Lseg { from, to, .. } => format!("lseg({}, {})", name(*from), name(*to)),
                Atom::Tree { root, .. } => format!("tree({})", name(*root)),
            });
        }
        if parts.is_empty() {
            "emp".to_owned()
        } else {
            parts.join(" * ")
        }
    }
}
