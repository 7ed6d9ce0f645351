//! Separation-logic preconditions (`@Requires`) on concrete inputs: whether an instance satisfies
//! one, and the potential it gives the instance (the amortised bound `jresa check` proves).
//!
//! The heap is the one the instance's arguments build (objects and arrays numbered as
//! [`Value::Ref`] counts them). A disjunct holds when its data facts hold and its heap assertions
//! hold on pairwise disjoint parts of the heap: `lseg(r, a, b)` is the chain of distinct cells from
//! `a` through the class's list link to `b` (empty exactly when `a == b`), `tree(r, t)` the distinct
//! nodes below `t` through the class's two tree links (`null` is the empty tree), each cell or node
//! owning every field of its object, and `[(o).f:ty -> t]` owns the one field. The links are the
//! ones the amortised analysis uses (`jresa_analyses::amortised::program::{list_link,
//! tree_link}`). The rest of the heap is unconstrained (it is framed).
//!
//! Existential variables are first bound by field assertions that read them, then range over the
//! values the instance holds (its objects and `null` for references, its numbers for numbers) and
//! one value it does not hold, which decides `==`/`!=` exactly on a finite heap.
//!
//! **`holds` is exact: a precondition with `@ret` or `@var` terms (meaningless in a precondition)
//! or with parameters it does not name is refused by [`Precondition::new`], never guessed. The
//! potential of an instance is the smallest over every disjunct and binding that holds, since the
//! proof covers each of them; `None` when none holds.**

use crate::generate::StructurePredicate;
use crate::source::ClassSource;
use crate::value::Value;
use crate::vm::FieldRead;
use jresa_analyses::amortised::assertion::{
    Assertion, Assertions, DataOp, HeapAssertion, LinearExpr, Term, TermKind, TypeName,
};
use jresa_analyses::amortised::program::{list_link, tree_link, ClassLayout, FieldInfo, FieldKey};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::{HashMap, HashSet};

/// Bindings of the existential variables tried per instance, at most; past it the precondition is
/// undecided on the instance.
const MAX_BINDINGS: usize = 200_000;

/// A value in the instance's heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cell {
    Null,
    /// An object or array, by its ordinal.
    Object(u32),
    /// An `int`, `short`, ..., or `long`.
    Number(i64),
    /// A `float` or `double`, by its bits.
    Bits(u64),
    /// A string (strings are values, never cells of a structure).
    Str(u32),
}

/// An object or array of the instance.
#[derive(Debug, Default)]
struct Object {
    /// `None` for an array.
    class: Option<String>,
    fields: HashMap<String, Cell>,
}

/// The heap an instance's arguments build.
#[derive(Debug, Default)]
struct Heap {
    objects: Vec<Object>,
    args: Vec<Cell>,
    strings: u32,
}

impl Heap {
    fn of(args: &[Value]) -> Heap {
        let mut heap = Heap::default();
        for arg in args {
            let cell = heap.add(arg);
            heap.args.push(cell);
        }
        heap
    }

    fn add(&mut self, value: &Value) -> Cell {
        match value {
            Value::Int(v) => Cell::Number(i64::from(*v)),
            Value::Long(v) => Cell::Number(*v),
            Value::Float(bits) => Cell::Bits(u64::from(*bits)),
            Value::Double(bits) => Cell::Bits(*bits),
            Value::Null => Cell::Null,
            Value::Str(_) => {
                self.strings += 1;
                Cell::Str(self.strings - 1)
            }
            Value::Ref(k) => Cell::Object(*k),
            Value::Array { elements, .. } => {
                let ordinal = self.objects.len() as u32;
                self.objects.push(Object::default());
                for element in elements {
                    self.add(element);
                }
                Cell::Object(ordinal)
            }
            Value::Object { class, fields } => {
                let ordinal = self.objects.len() as u32;
                self.objects.push(Object {
                    class: Some(class.clone()),
                    fields: HashMap::new(),
                });
                for (name, value) in fields {
                    let cell = self.add(value);
                    self.objects[ordinal as usize].fields.insert(name.clone(), cell);
                }
                Cell::Object(ordinal)
            }
        }
    }

    /// Field `name` of object `k` (a field the instance leaves out is zero: `null` for links).
    fn field(&self, k: u32, name: &str, ty: TypeName) -> Option<Cell> {
        let object = self.objects.get(k as usize)?;
        object.class.as_ref()?;
        Some(object.fields.get(name).copied().unwrap_or(match ty {
            TypeName::Ref => Cell::Null,
            TypeName::Int | TypeName::Long => Cell::Number(0),
            TypeName::Float | TypeName::Double => Cell::Bits(0),
        }))
    }

    /// The candidates of an existential of type `ty`: the values of that kind the instance
    /// holds, and one it does not.
    fn candidates(&self, ty: TypeName) -> Vec<Cell> {
        // Numbers by their bits (a bijection for longs), so both kinds share one search.
        let (bits, cell): NumberBits = match ty {
            TypeName::Ref => {
                let mut out = vec![Cell::Null];
                out.extend((0..self.objects.len() as u32).map(Cell::Object));
                return out;
            }
            TypeName::Int | TypeName::Long => (
                |c| if let Cell::Number(v) = c { Some(*v as u64) } else { None },
                |v| Cell::Number(v as i64),
            ),
            TypeName::Float | TypeName::Double => (|c| if let Cell::Bits(v) = c { Some(*v) } else { None }, Cell::Bits),
        };
        let held: HashSet<u64> = self
            .args
            .iter()
            .chain(self.objects.iter().flat_map(|o| o.fields.values()))
            .filter_map(bits)
            .collect();
        let fresh = (0u64..).find(|v| !held.contains(v)).unwrap_or(0);
        let mut out: Vec<u64> = held.into_iter().collect();
        out.sort_unstable();
        out.push(fresh);
        out.into_iter().map(cell).collect()
    }
}

/// How a kind of number is read from a cell as bits, and written back.
type NumberBits = (fn(&Cell) -> Option<u64>, fn(u64) -> Cell);

/// The links of a class: its list link, its two tree links.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Links {
    list: Option<String>,
    tree: Option<(String, String)>,
}

/// A precondition over a method's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Precondition {
    /// The annotation text.
    pub text: String,
    assertions: Assertions,
    /// The parameter names, by argument position (`this` first for an instance method).
    params: Vec<String>,
    links: HashMap<String, Links>,
    /// The values of the resource variables, for potentials.
    resources: HashMap<String, BigRational>,
}

/// The parts of the heap a disjunct's assertions claim.
#[derive(Default)]
struct Footprint {
    whole: HashSet<u32>,
    fields: HashSet<(u32, String)>,
}

impl Footprint {
    fn claim_object(&mut self, k: u32) -> bool {
        !self.fields.iter().any(|(o, _)| *o == k) && self.whole.insert(k)
    }

    fn claim_field(&mut self, k: u32, field: &str) -> bool {
        !self.whole.contains(&k) && self.fields.insert((k, field.to_owned()))
    }
}

impl Precondition {
    /// The precondition `assertions` (written as `text`) of a method whose parameters are called
    /// `params` and have the field descriptors `descriptors` (the receiver's first). Classes
    /// reachable from the parameters through fields get their list and tree links from `source`.
    pub fn new(
        text: &str,
        assertions: Assertions,
        params: Vec<String>,
        descriptors: &[String],
        source: &dyn ClassSource,
    ) -> Result<Precondition, String> {
        for disjunct in &assertions.disjuncts {
            for term in terms(disjunct) {
                match &term.kind {
                    TermKind::Ret => return Err("`@ret` cannot be known before the call".into()),
                    TermKind::Var(name) => return Err(format!("`@var {name}` names a local variable")),
                    TermKind::Arg(name) if !params.contains(name) => {
                        return Err(format!("`@arg {name}` is not a parameter"))
                    }
                    TermKind::Exists(name) if !assertions.exists.iter().any(|v| v.name == *name) => {
                        return Err(format!("`{name}` is not declared"))
                    }
                    _ => {}
                }
            }
        }
        // Where the analysis needs a reference, a parameter of primitive type cannot stand, and a
        // field assertion's type must be the field's.
        let descriptor_of = |name: &str| params.iter().position(|p| p == name).and_then(|k| descriptors.get(k));
        for disjunct in &assertions.disjuncts {
            for heap in &disjunct.heap {
                let references: Vec<&Term> = match heap {
                    HeapAssertion::Field { object, .. } => vec![object],
                    HeapAssertion::Lseg { from, to, .. } => vec![from, to],
                    HeapAssertion::Tree { root, .. } => vec![root],
                };
                for term in references {
                    if let TermKind::Arg(name) = &term.kind {
                        if descriptor_of(name).is_some_and(|d| !d.starts_with('L') && !d.starts_with('[')) {
                            return Err(format!("`@arg {name}` is not a reference"));
                        }
                    }
                }
                if let HeapAssertion::Field { object, field, ty, .. } = heap {
                    let TermKind::Arg(name) = &object.kind else { continue };
                    let Some(class) = descriptor_of(name).and_then(|d| class_of(d)) else {
                        continue;
                    };
                    let Some(found) = layout(source, &class).and_then(|l| l.field(field).cloned()) else {
                        return Err(format!("`@arg {name}` has no field `{field}`"));
                    };
                    if type_of(&found.descriptor) != *ty {
                        return Err(format!("the field `{field}` is not of type {}", ty.keyword()));
                    }
                }
            }
        }
        let mut links = HashMap::new();
        let mut pending: Vec<String> = descriptors.iter().filter_map(|d| class_of(d)).collect();
        while let Some(class) = pending.pop() {
            if links.contains_key(&class) {
                continue;
            }
            if source.class(&class).is_none_or(|info| info.library) {
                continue;
            }
            let Some(layout) = layout(source, &class) else { continue };
            pending.extend(layout.fields.iter().filter_map(|f| class_of(&f.descriptor)));
            links.insert(
                class,
                Links {
                    list: list_link(&layout).map(|l| l.next.name),
                    tree: tree_link(&layout).map(|t| (t.left.name, t.right.name)),
                },
            );
        }
        Ok(Precondition {
            text: text.to_owned(),
            assertions,
            params,
            links,
            resources: HashMap::new(),
        })
    }

    /// The parameter names, by argument position.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The same precondition with values for its resource variables (for [`Self::potential`]).
    pub fn with_resources(mut self, values: impl IntoIterator<Item = (String, BigRational)>) -> Precondition {
        self.resources = values.into_iter().collect();
        self
    }

    /// What the precondition requires of argument `k` alone, to check it on a structure passed
    /// as the only argument: every disjunct keeps the assertions that name no other parameter.
    /// `None` when that constrains nothing (some disjunct keeps no assertion on the argument).
    pub fn for_argument(&self, k: usize) -> Option<Precondition> {
        let name = self.params.get(k)?;
        let mentions_other = |t: &Term| matches!(&t.kind, TermKind::Arg(n) if n != name);
        let mut disjuncts = Vec::new();
        for disjunct in &self.assertions.disjuncts {
            let mut kept = disjunct.clone();
            kept.data.retain(|d| !mentions_other(&d.lhs) && !mentions_other(&d.rhs));
            kept.heap.retain(|h| !heap_terms(h).into_iter().any(mentions_other));
            let on_argument = terms(&kept).any(|t| matches!(&t.kind, TermKind::Arg(n) if n == name));
            if !on_argument {
                return None;
            }
            disjuncts.push(kept);
        }
        let assertions = Assertions {
            exists: self.assertions.exists.clone(),
            disjuncts,
            span: self.assertions.span,
        };
        Some(Precondition {
            text: self.text.clone(),
            assertions,
            params: vec![name.clone()],
            links: self.links.clone(),
            resources: self.resources.clone(),
        })
    }

    /// Whether argument `k` may be an object of an earlier argument's structure: a segment
    /// runs from an earlier argument to it, or a data fact equates them.
    pub fn may_share(&self, k: usize) -> bool {
        let Some(name) = self.params.get(k) else {
            return false;
        };
        let earlier = |t: &Term| matches!(&t.kind, TermKind::Arg(n) if self.params[..k].contains(n));
        let this = |t: &Term| matches!(&t.kind, TermKind::Arg(n) if n == name);
        self.assertions.disjuncts.iter().any(|d| {
            d.heap
                .iter()
                .any(|h| matches!(h, HeapAssertion::Lseg { from, to, .. } if earlier(from) && this(to)))
                || d.data.iter().any(|f| {
                    f.op == DataOp::Eq && ((earlier(&f.lhs) && this(&f.rhs)) || (this(&f.lhs) && earlier(&f.rhs)))
                })
        })
    }

    /// Whether the arguments satisfy the precondition.
    pub fn holds(&self, args: &[Value]) -> bool {
        let heap = Heap::of(args);
        self.assertions
            .disjuncts
            .iter()
            .any(|d| self.bindings(d, &heap, &mut |_, _| true))
    }

    /// The smallest potential the precondition gives the arguments over the disjuncts and
    /// bindings that hold: `Ok(None)` when none holds, `Err` when a resource variable has no value.
    pub fn potential(&self, args: &[Value]) -> Result<Option<BigRational>, String> {
        Ok(self
            .potential_parts(args)?
            .map(|(structures, constant)| structures + constant))
    }

    /// The smallest potential as [`Precondition::potential`] finds it, split into the part its
    /// lists and trees hold (per-cell potential times their sizes) and its constant part (the
    /// resource of the disjunct): the potential the state holds, and the amortised cost a call
    /// is given on top of it.
    pub fn potential_parts(&self, args: &[Value]) -> Result<Option<(BigRational, BigRational)>, String> {
        let heap = Heap::of(args);
        let mut best: Option<(BigRational, BigRational)> = None;
        let mut error = None;
        for disjunct in &self.assertions.disjuncts {
            self.bindings(disjunct, &heap, &mut |sizes, _| {
                match self.disjunct_parts(disjunct, sizes) {
                    Ok((structures, constant)) => {
                        let total = &structures + &constant;
                        if best.as_ref().is_none_or(|(s, c)| total < s + c) {
                            best = Some((structures, constant));
                        }
                    }
                    Err(e) => error = Some(e),
                }
                false
            });
        }
        match error {
            Some(e) => Err(e),
            None => Ok(best),
        }
    }

    /// The units of a disjunct whose heap assertions have `sizes` cells each: those of its lists
    /// and trees, and its constant.
    fn disjunct_parts(&self, disjunct: &Assertion, sizes: &[u64]) -> Result<(BigRational, BigRational), String> {
        let constant = self.linear(&disjunct.resource)?;
        let mut structures = BigRational::from_integer(BigInt::from(0));
        for (heap, &size) in disjunct.heap.iter().zip(sizes) {
            if let HeapAssertion::Lseg { resource, .. } | HeapAssertion::Tree { resource, .. } = heap {
                structures += self.linear(resource)? * BigRational::from_integer(BigInt::from(size));
            }
        }
        Ok((structures, constant))
    }

    fn linear(&self, expr: &LinearExpr) -> Result<BigRational, String> {
        let mut total = BigRational::from_integer(BigInt::from(0));
        for term in &expr.terms {
            let coefficient = BigRational::from_integer(BigInt::from(term.coefficient));
            match &term.variable {
                None => total += coefficient,
                Some(name) => {
                    let value = self
                        .resources
                        .get(name)
                        .ok_or_else(|| format!("the resource variable {name} has no value"))?;
                    total += coefficient * value;
                }
            }
        }
        Ok(total)
    }

    /// Calls `found` with the cell counts of the heap assertions for each binding of the
    /// existentials under which `disjunct` holds, until it returns true; whether it did.
    fn bindings(&self, disjunct: &Assertion, heap: &Heap, found: &mut dyn FnMut(&[u64], &[Cell]) -> bool) -> bool {
        let exists = &self.assertions.exists;
        let mut bound: Vec<Option<Cell>> = vec![None; exists.len()];
        // Field assertions whose object is known read their target's value.
        loop {
            let mut progress = false;
            for assertion in &disjunct.heap {
                let HeapAssertion::Field {
                    object,
                    field,
                    ty,
                    target: Some(target),
                    ..
                } = assertion
                else {
                    continue;
                };
                let TermKind::Exists(name) = &target.kind else { continue };
                let slot = exists.iter().position(|v| v.name == *name);
                let Some(slot) = slot.filter(|&s| bound[s].is_none()) else {
                    continue;
                };
                let Some(Cell::Object(k)) = self.eval(object, heap, &bound) else {
                    continue;
                };
                if let Some(value) = heap.field(k, field, *ty) {
                    bound[slot] = Some(value);
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        let free: Vec<usize> = (0..exists.len()).filter(|&s| bound[s].is_none()).collect();
        let choices: Vec<Vec<Cell>> = free.iter().map(|&s| heap.candidates(exists[s].ty)).collect();
        let total = choices.iter().try_fold(1usize, |acc, c| acc.checked_mul(c.len()));
        if total.is_none_or(|t| t > MAX_BINDINGS) {
            return false;
        }
        let mut index = vec![0usize; free.len()];
        loop {
            for (position, &slot) in free.iter().enumerate() {
                bound[slot] = Some(choices[position][index[position]]);
            }
            if let Some(sizes) = self.satisfied(disjunct, heap, &bound) {
                let cells: Vec<Cell> = bound.iter().map(|b| b.unwrap_or(Cell::Null)).collect();
                if found(&sizes, &cells) {
                    return true;
                }
            }
            // The next binding (odometer order).
            let mut position = 0;
            loop {
                if position == free.len() {
                    return false;
                }
                index[position] += 1;
                if index[position] < choices[position].len() {
                    break;
                }
                index[position] = 0;
                position += 1;
            }
        }
    }

    /// The value of a term under a binding.
    fn eval(&self, term: &Term, heap: &Heap, bound: &[Option<Cell>]) -> Option<Cell> {
        match &term.kind {
            TermKind::Null => Some(Cell::Null),
            TermKind::Arg(name) => {
                let k = self.params.iter().position(|p| p == name)?;
                heap.args.get(k).copied()
            }
            TermKind::Exists(name) => {
                let slot = self.assertions.exists.iter().position(|v| v.name == *name)?;
                bound[slot]
            }
            TermKind::Ret | TermKind::Var(_) => None,
        }
    }

    /// The cell counts of the heap assertions when the disjunct holds under a complete binding.
    fn satisfied(&self, disjunct: &Assertion, heap: &Heap, bound: &[Option<Cell>]) -> Option<Vec<u64>> {
        for data in &disjunct.data {
            let lhs = self.eval(&data.lhs, heap, bound)?;
            let rhs = self.eval(&data.rhs, heap, bound)?;
            if (lhs == rhs) != (data.op == DataOp::Eq) {
                return None;
            }
        }
        let mut footprint = Footprint::default();
        let mut sizes = Vec::with_capacity(disjunct.heap.len());
        for assertion in &disjunct.heap {
            let size = match assertion {
                HeapAssertion::Field {
                    object,
                    field,
                    ty,
                    target,
                    ..
                } => {
                    let Cell::Object(k) = self.eval(object, heap, bound)? else {
                        return None;
                    };
                    let value = heap.field(k, field, *ty)?;
                    if let Some(target) = target {
                        if self.eval(target, heap, bound)? != value {
                            return None;
                        }
                    }
                    if !footprint.claim_field(k, field) {
                        return None;
                    }
                    0
                }
                HeapAssertion::Lseg { from, to, .. } => {
                    let mut at = self.eval(from, heap, bound)?;
                    let end = self.eval(to, heap, bound)?;
                    let mut cells = 0u64;
                    while at != end {
                        let Cell::Object(k) = at else { return None };
                        let next = self.link(heap, k, |l| l.list.clone())?;
                        if !footprint.claim_object(k) {
                            return None;
                        }
                        cells += 1;
                        at = heap.field(k, &next, TypeName::Ref)?;
                    }
                    cells
                }
                HeapAssertion::Tree { root, .. } => {
                    let mut pending = vec![self.eval(root, heap, bound)?];
                    let mut nodes = 0u64;
                    while let Some(at) = pending.pop() {
                        let k = match at {
                            Cell::Null => continue,
                            Cell::Object(k) => k,
                            _ => return None,
                        };
                        let (left, right) = self.link(heap, k, |l| l.tree.clone())?;
                        if !footprint.claim_object(k) {
                            return None;
                        }
                        nodes += 1;
                        pending.push(heap.field(k, &right, TypeName::Ref)?);
                        pending.push(heap.field(k, &left, TypeName::Ref)?);
                    }
                    nodes
                }
            };
            sizes.push(size);
        }
        Some(sizes)
    }

    /// A link of object `k`'s class.
    fn link<T>(&self, heap: &Heap, k: u32, pick: impl Fn(&Links) -> Option<T>) -> Option<T> {
        let class = heap.objects.get(k as usize)?.class.as_ref()?;
        pick(self.links.get(class)?)
    }
}

/// A precondition on one argument (see [`Precondition::for_argument`]) as Korat's predicate: it
/// reads every field of the structure, so the search varies them all.
pub struct RequiresPredicate<'a>(pub &'a Precondition);

impl StructurePredicate for RequiresPredicate<'_> {
    fn check(&mut self, structure: &Value) -> Result<(bool, Vec<FieldRead>), String> {
        Ok((
            self.0.holds(std::slice::from_ref(structure)),
            every_field_read(structure),
        ))
    }
}

/// The reads of a predicate that looks at every field of a structure: each object's fields in
/// order, depth first, as Korat builds it (so that every reachable field varies).
pub fn every_field_read(structure: &Value) -> Vec<FieldRead> {
    fn walk(value: &Value, next: &mut u32, out: &mut Vec<FieldRead>) {
        match value {
            Value::Array { elements, .. } => {
                *next += 1;
                for element in elements {
                    walk(element, next, out);
                }
            }
            Value::Object { fields, .. } => {
                let ordinal = *next;
                *next += 1;
                for (name, value) in fields {
                    out.push(FieldRead {
                        object: ordinal,
                        field: name.clone(),
                    });
                    walk(value, next, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(structure, &mut 0, &mut out);
    out
}

/// The terms of a disjunct.
fn terms(disjunct: &Assertion) -> impl Iterator<Item = &Term> {
    disjunct
        .data
        .iter()
        .flat_map(|d| [&d.lhs, &d.rhs])
        .chain(disjunct.heap.iter().flat_map(heap_terms))
}

fn heap_terms(heap: &HeapAssertion) -> Vec<&Term> {
    match heap {
        HeapAssertion::Field { object, target, .. } => std::iter::once(object).chain(target.as_ref()).collect(),
        HeapAssertion::Lseg { from, to, .. } => vec![from, to],
        HeapAssertion::Tree { root, .. } => vec![root],
    }
}

/// The assertion type of a field descriptor (`int` for every int-like type).
fn type_of(descriptor: &str) -> TypeName {
    match descriptor.as_bytes().first() {
        Some(b'J') => TypeName::Long,
        Some(b'F') => TypeName::Float,
        Some(b'D') => TypeName::Double,
        Some(b'L' | b'[') => TypeName::Ref,
        _ => TypeName::Int,
    }
}

/// The class of an object descriptor.
fn class_of(descriptor: &str) -> Option<String> {
    descriptor
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .map(str::to_owned)
}

/// The layout of a class as the amortised analysis sees it: its own instance fields first, then
/// its superclasses' (nearest first).
fn layout(source: &dyn ClassSource, class: &str) -> Option<ClassLayout> {
    let mut fields = Vec::new();
    let mut current = Some(class.to_owned());
    let mut found = false;
    // Superclass chains are short; the bound only guards against cycles in corrupt input.
    for _ in 0..64 {
        let Some(name) = current.take() else { break };
        let Some(info) = source.class(&name) else { break };
        found = true;
        for field in info.fields.iter().filter(|f| !f.is_static()) {
            fields.push(FieldInfo {
                key: FieldKey {
                    class: info.name.clone(),
                    name: field.name.clone(),
                },
                descriptor: field.descriptor.clone(),
            });
        }
        current = info.super_name.clone();
    }
    found.then(|| ClassLayout {
        name: class.to_owned(),
        fields,
    })
}
