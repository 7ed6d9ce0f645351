//! Korat (Boyapati et al.; the candidate vectors of Celik et al. 2017): heap structures of a class
//! up to a number of objects, enumerated as candidate vectors over finitized field domains and
//! filtered by a predicate, with accessed-field pruning and isomorphism breaking.
//!
//! The finitization has a pool of `max_size` objects per class reachable from the root class
//! through fields typed with a concrete program class; such fields range over `null` and the
//! pool's objects, `int`, `short` and `long` fields from the element minimum up to the larger of the
//! element maximum and the scope (so that counters can count the pool), other primitive fields
//! over the element range of [`Settings`], `String` and boxed
//! fields over a few small values, array fields over `null`, empty and one zero element, and other
//! references are `null`. The candidate vector holds the root (slot 0) and every field of every
//! pool object.
//!
//! The predicate is the class's `repOK()` run on the VM, whose accessed fields are the input
//! fields it read (`Machine::run_traced`); a class without one gets the built-in predicate "the
//! structure reachable from the root is acyclic", which reads every reachable field (so every
//! reachable value varies). After a candidate is checked, the last accessed field is incremented
//! (the ones after it were reset), so candidates that differ only in fields the predicate never
//! read are skipped; a reference field may only point to an object of its class at most one past
//! the largest index of that class among the fields accessed before it, which keeps one structure
//! per isomorphism class.
//!
//! **Structures come in search order, which depends only on the finitization and the predicate;
//! each is written as the value of a first argument (`Value::Ref` for sharing and cycles). Cyclic
//! structures a `repOK` accepts are dropped and counted (the cost analysis assumes acyclic heaps).**

use super::domain::{Domain, Settings};
use crate::backend::Backend;
use crate::cpu::CpuBackend;
use crate::source::ClassSource;
use crate::value::{Ending, Rendered, Value};
use crate::vm::{FieldRead, Limits, RunConfig};
use crate::Package;
use std::collections::HashMap;

/// JVM bytecodes one `repOK` run may execute.
pub const REPOK_MAX_BYTECODES: u64 = 2_000_000;

/// A predicate on structures: whether one is valid, and the input fields it read.
pub trait StructurePredicate {
    fn check(&mut self, structure: &Value) -> Result<(bool, Vec<FieldRead>), String>;
}

/// `repOK()` of the root class run on the VM, through the backend seam (so a fault of the
/// interpreter in user code ends the candidate as refused, as it would a measured instance).
pub struct RepOk<'p> {
    backend: CpuBackend<'p>,
    class: String,
    method: String,
}

/// A backend that runs predicates: at most `REPOK_MAX_BYTECODES` a run, no calling-context tree.
/// Candidates depend on the fields earlier ones read, so they run one at a time, on the CPU.
fn predicate_backend(package: &Package) -> CpuBackend<'_> {
    let config = RunConfig {
        limits: Limits {
            max_bytecodes: REPOK_MAX_BYTECODES,
            ..Limits::default()
        },
        cct: false,
    };
    CpuBackend::new(package, config)
}

impl<'p> RepOk<'p> {
    /// The predicate `class.repOK()Z` of a package that has it as an entry.
    pub fn new(package: &'p Package, class: &str) -> Option<RepOk<'p>> {
        package.entry(class, "repOK", "()Z")?;
        Some(RepOk {
            backend: predicate_backend(package),
            class: class.to_owned(),
            method: format!("{}.repOK()", class.replace('/', ".")),
        })
    }
}

impl StructurePredicate for RepOk<'_> {
    fn check(&mut self, structure: &Value) -> Result<(bool, Vec<FieldRead>), String> {
        let instance = [vec![structure.clone()]];
        let (outcome, reads) = self
            .backend
            .run_traced((&self.class, "repOK", "()Z"), &instance)
            .pop()
            .ok_or_else(|| format!("{} did not run", self.method))?;
        match outcome.ending {
            Ending::Returned {
                value: Rendered::Int { value, .. },
            } => Ok((value != 0, reads)),
            Ending::Refused { reason } => Err(format!("{} was refused: {reason}", self.method)),
            // An exception, a loop past the step limit or a stack overflow: not valid.
            _ => Ok((false, reads)),
        }
    }
}

/// The method under test as the predicate of its receiver's search, for classes whose fields are
/// too many to enumerate: every structure is valid, and the search varies only the fields the run
/// reads (Korat's pruning by field access), so structures that differ only in fields the method
/// never reads, with its other arguments at their defaults, are generated once. Fields it does not
/// read keep their first value; what it reads is enumerated within the scope.
pub struct MethodReads<'p> {
    backend: CpuBackend<'p>,
    key: (String, String, String),
    /// The arguments after the receiver.
    rest: Vec<Value>,
}

impl<'p> MethodReads<'p> {
    /// The predicate for the receiver of `class.name descriptor`, with the other arguments
    /// `rest`; `None` when the package has no entry for the method.
    pub fn new(package: &'p Package, key: (&str, &str, &str), rest: Vec<Value>) -> Option<MethodReads<'p>> {
        package.entry(key.0, key.1, key.2)?;
        Some(MethodReads {
            backend: predicate_backend(package),
            key: (key.0.to_owned(), key.1.to_owned(), key.2.to_owned()),
            rest,
        })
    }
}

impl StructurePredicate for MethodReads<'_> {
    fn check(&mut self, structure: &Value) -> Result<(bool, Vec<FieldRead>), String> {
        let mut args = Vec::with_capacity(1 + self.rest.len());
        args.push(structure.clone());
        args.extend(self.rest.iter().cloned());
        let (key, instance) = (&self.key, [args]);
        let reads = self
            .backend
            .run_traced((&key.0, &key.1, &key.2), &instance)
            .pop()
            .map(|(_, reads)| reads)
            .unwrap_or_default();
        Ok((true, reads))
    }
}

/// What a field of a pool class ranges over.
#[derive(Clone, Debug, PartialEq)]
enum FieldDomain {
    /// These values (primitives, strings, boxes, small arrays).
    Values(Vec<Value>),
    /// `null` or an object of the pool of this class.
    Pool(usize),
}

#[derive(Clone, Debug)]
struct PoolClass {
    name: String,
    fields: Vec<(String, FieldDomain)>,
    /// The slot of field 0 of object 0.
    first_slot: usize,
}

/// The finitization of a root class: pools, fields and their domains, slots.
#[derive(Clone, Debug)]
pub struct Finitization {
    classes: Vec<PoolClass>,
    pool_size: u32,
    root_nullable: bool,
    slots: usize,
}

/// What the search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structures {
    /// Valid, acyclic structures in search order.
    pub structures: Vec<Value>,
    /// Candidate vectors the predicate was run on.
    pub candidates: usize,
    /// Valid structures dropped for being cyclic.
    pub cyclic: usize,
}

/// Why a search gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KoratError {
    /// More structures (or candidates) than the limits allow.
    TooMany,
    /// The predicate could not be run.
    Predicate(String),
}

/// A structure built from a candidate vector.
struct Built {
    value: Value,
    /// Field slots in the order the traversal read them (the root slot first).
    accessed: Vec<usize>,
    cyclic: bool,
    /// Per input ordinal: the pool object (class, index) it is, if any.
    objects: Vec<Option<(usize, u32)>>,
}

impl Finitization {
    /// The finitization of `root` (internal name) with pools of `settings.max_size` objects.
    /// `None` when the root is not a concrete program class.
    pub fn new(source: &dyn ClassSource, root: &str, settings: &Settings, root_nullable: bool) -> Option<Finitization> {
        let mut classes: Vec<PoolClass> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        if !is_pool_class(source, root) {
            return None;
        }
        index.insert(root.to_owned(), 0);
        classes.push(PoolClass {
            name: root.to_owned(),
            fields: Vec::new(),
            first_slot: 0,
        });
        let mut next = 0;
        while next < classes.len() {
            let name = classes[next].name.clone();
            let mut fields = Vec::new();
            for (field, descriptor) in instance_fields(source, &name) {
                let target = descriptor.strip_prefix('L').and_then(|d| d.strip_suffix(';'));
                let domain = match target {
                    Some(class) if is_pool_class(source, class) => {
                        let id = *index.entry(class.to_owned()).or_insert_with(|| {
                            classes.push(PoolClass {
                                name: class.to_owned(),
                                fields: Vec::new(),
                                first_slot: 0,
                            });
                            classes.len() - 1
                        });
                        FieldDomain::Pool(id)
                    }
                    _ => FieldDomain::Values(field_values(&descriptor, settings)),
                };
                fields.push((field, domain));
            }
            classes[next].fields = fields;
            next += 1;
        }
        let mut slot = 1;
        for class in &mut classes {
            class.first_slot = slot;
            slot += class.fields.len() * settings.max_size as usize;
        }
        Some(Finitization {
            classes,
            pool_size: settings.max_size,
            root_nullable,
            slots: slot,
        })
    }

    fn slot(&self, class: usize, object: u32, field: usize) -> usize {
        let c = &self.classes[class];
        c.first_slot + object as usize * c.fields.len() + field
    }

    /// Where a slot is: `None` for the root, else (class, object, field).
    fn locate(&self, slot: usize) -> Option<(usize, u32, usize)> {
        if slot == 0 {
            return None;
        }
        self.classes.iter().enumerate().find_map(|(k, c)| {
            let width = c.fields.len();
            let end = c.first_slot + width * self.pool_size as usize;
            (width > 0 && slot >= c.first_slot && slot < end).then(|| {
                let offset = slot - c.first_slot;
                (k, (offset / width) as u32, offset % width)
            })
        })
    }

    /// The largest domain index of a slot.
    fn domain_max(&self, slot: usize) -> u32 {
        match self.locate(slot) {
            None => u32::from(self.root_nullable),
            Some((class, _, field)) => match &self.classes[class].fields[field].1 {
                FieldDomain::Values(values) => values.len().saturating_sub(1) as u32,
                FieldDomain::Pool(_) => self.pool_size,
            },
        }
    }

    /// The root's pool object, if the candidate's root is not null.
    fn root_object(&self, candidate: &[u32]) -> Option<u32> {
        (!self.root_nullable || candidate[0] == 1).then_some(0)
    }

    /// The structure a candidate vector stands for, from the root.
    fn build(&self, candidate: &[u32]) -> Built {
        let mut built = Built {
            value: Value::Null,
            accessed: vec![0],
            cyclic: false,
            objects: Vec::new(),
        };
        let mut ordinals: HashMap<(usize, u32), u32> = HashMap::new();
        let mut on_path: Vec<(usize, u32)> = Vec::new();
        if self.pool_size > 0 {
            if let Some(object) = self.root_object(candidate) {
                built.value = self.visit(candidate, 0, object, &mut built, &mut ordinals, &mut on_path);
            }
        }
        built
    }

    fn visit(
        &self,
        candidate: &[u32],
        class: usize,
        object: u32,
        built: &mut Built,
        ordinals: &mut HashMap<(usize, u32), u32>,
        on_path: &mut Vec<(usize, u32)>,
    ) -> Value {
        if let Some(&ordinal) = ordinals.get(&(class, object)) {
            if on_path.contains(&(class, object)) {
                built.cyclic = true;
            }
            return Value::Ref(ordinal);
        }
        ordinals.insert((class, object), built.objects.len() as u32);
        built.objects.push(Some((class, object)));
        on_path.push((class, object));
        let mut fields = Vec::new();
        for (k, (name, domain)) in self.classes[class].fields.iter().enumerate() {
            let slot = self.slot(class, object, k);
            built.accessed.push(slot);
            let choice = candidate[slot];
            let value = match domain {
                FieldDomain::Values(values) => {
                    let value = values[choice as usize].clone();
                    // Literal objects and arrays take ordinals of their own.
                    for _ in 0..value.built_objects() {
                        built.objects.push(None);
                    }
                    value
                }
                FieldDomain::Pool(target) if choice > 0 => {
                    self.visit(candidate, *target, choice - 1, built, ordinals, on_path)
                }
                FieldDomain::Pool(_) => Value::Null,
            };
            fields.push((name.clone(), value));
        }
        on_path.pop();
        Value::Object {
            class: self.classes[class].name.clone(),
            fields,
        }
    }

    /// The largest domain index the slot at `position` of the accessed list may take: for a
    /// reference into a pool, one object past the largest of that pool among the root and the
    /// fields accessed before it (isomorphism breaking).
    fn allowed_max(&self, slot: usize, candidate: &[u32], before: &[usize]) -> u32 {
        let Some((class, _, field)) = self.locate(slot) else {
            return self.domain_max(slot);
        };
        let FieldDomain::Pool(target) = self.classes[class].fields[field].1 else {
            return self.domain_max(slot);
        };
        let mut largest: i64 = -1;
        if target == 0 {
            if let Some(root) = self.root_object(candidate) {
                largest = largest.max(i64::from(root));
            }
        }
        for &earlier in before {
            if let Some((c, _, f)) = self.locate(earlier) {
                if self.classes[c].fields[f].1 == FieldDomain::Pool(target) && candidate[earlier] > 0 {
                    largest = largest.max(i64::from(candidate[earlier]) - 1);
                }
            }
        }
        // Domain index = object index + 1; the next unused object is `largest + 1`.
        (largest + 2).min(i64::from(self.pool_size)) as u32
    }

    /// Runs the Korat search. `predicate` is the class's `repOK`, or `None` for "acyclic".
    /// `limit` bounds the valid structures, `max_candidates` the candidates tried.
    pub fn search(
        &self,
        mut predicate: Option<&mut dyn StructurePredicate>,
        limit: usize,
        max_candidates: usize,
    ) -> Result<Structures, KoratError> {
        let mut out = Structures::default();
        if self.pool_size == 0 {
            if self.root_nullable {
                out.structures.push(Value::Null);
            }
            return Ok(out);
        }
        let mut candidate = vec![0u32; self.slots];
        loop {
            out.candidates += 1;
            if out.candidates > max_candidates {
                return Err(KoratError::TooMany);
            }
            let built = self.build(&candidate);
            let (valid, accessed) = match predicate.as_deref_mut() {
                // A null root is always an input, whatever the predicate says of objects.
                _ if self.root_object(&candidate).is_none() => (true, vec![0]),
                None => (!built.cyclic, built.accessed),
                Some(predicate) => {
                    let (valid, reads) = predicate.check(&built.value).map_err(KoratError::Predicate)?;
                    let mut accessed = vec![0];
                    for read in reads {
                        let Some(Some((class, object))) = built.objects.get(read.object as usize).copied() else {
                            continue;
                        };
                        let Some(field) = self.classes[class].fields.iter().position(|(n, _)| *n == read.field) else {
                            continue;
                        };
                        let slot = self.slot(class, object, field);
                        if !accessed.contains(&slot) {
                            accessed.push(slot);
                        }
                    }
                    if valid && built.cyclic {
                        out.cyclic += 1;
                        (false, accessed)
                    } else {
                        (valid, accessed)
                    }
                }
            };
            if valid {
                out.structures.push(built.value);
                if out.structures.len() > limit {
                    return Err(KoratError::TooMany);
                }
            }
            let mut stack = accessed;
            loop {
                let Some(&slot) = stack.last() else {
                    return Ok(out);
                };
                let allowed = self.allowed_max(slot, &candidate, &stack[..stack.len() - 1]);
                if candidate[slot] < allowed {
                    candidate[slot] += 1;
                    break;
                }
                candidate[slot] = 0;
                stack.pop();
            }
        }
    }

    /// The domain of a parameter (or receiver) of the root class: its structures, `null` first
    /// when the root may be null.
    pub fn domain(structures: &Structures) -> Domain {
        Domain::OneOf(structures.structures.clone())
    }
}

/// Whether `class` gets a pool: a concrete program class.
fn is_pool_class(source: &dyn ClassSource, class: &str) -> bool {
    source.class(class).is_some_and(|info| {
        !info.library && info.access & (crate::source::ACC_ABSTRACT | crate::source::ACC_INTERFACE) == 0
    })
}

/// The instance fields of a class and its program superclasses, superclass fields first, as
/// (name, descriptor).
fn instance_fields(source: &dyn ClassSource, class: &str) -> Vec<(String, String)> {
    let mut chain = Vec::new();
    let mut current = Some(class.to_owned());
    while let Some(name) = current {
        let Some(info) = source.class(&name) else { break };
        if info.library || chain.len() > 64 {
            break;
        }
        current = info.super_name.clone();
        chain.push(info);
    }
    chain
        .iter()
        .rev()
        .flat_map(|info| {
            info.fields
                .iter()
                .filter(|f| !f.is_static())
                .map(|f| (f.name.clone(), f.descriptor.clone()))
        })
        .collect()
}

/// The values of a field that is not a reference into a pool.
fn field_values(descriptor: &str, settings: &Settings) -> Vec<Value> {
    match descriptor.as_bytes().first() {
        Some(b'[') => {
            let component = &descriptor[1..];
            let zero = match component.as_bytes().first() {
                Some(b'J') => Value::Long(0),
                Some(b'F') => Value::Float(0),
                Some(b'D') => Value::Double(0),
                Some(b'L' | b'[') => Value::Null,
                _ => Value::Int(0),
            };
            vec![
                Value::Null,
                Value::Array {
                    descriptor: descriptor.to_owned(),
                    elements: Vec::new(),
                },
                Value::Array {
                    descriptor: descriptor.to_owned(),
                    elements: vec![zero],
                },
            ]
        }
        Some(b'L') if descriptor == "Ljava/lang/String;" => {
            let first = settings.alphabet.first().copied().unwrap_or(u16::from(b'a'));
            vec![Value::Null, Value::Str(Vec::new()), Value::Str(vec![first])]
        }
        Some(b'L') => {
            let class = &descriptor[1..descriptor.len() - 1];
            match Domain::for_class(class, settings, &mut |_| None) {
                Domain::Nullable(inner) => match *inner {
                    Domain::OneOf(boxes) => std::iter::once(Value::Null).chain(boxes).collect(),
                    _ => vec![Value::Null],
                },
                _ => vec![Value::Null],
            }
        }
        // Counters (sizes, lengths) must reach the scope for structures of that many objects.
        Some(b'I' | b'J' | b'S') => {
            let top = settings
                .element_max
                .max(i32::try_from(settings.max_size).unwrap_or(i32::MAX));
            (settings.element_min..=top)
                .map(|v| {
                    if descriptor == "J" {
                        Value::Long(i64::from(v))
                    } else {
                        Value::Int(v)
                    }
                })
                .collect()
        }
        _ => Domain::element(descriptor, settings, &mut |_| None).values(),
    }
}
