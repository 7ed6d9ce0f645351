//! What the classes say about path lengths: the static class of each reference variable of a
//! method, which classes have sizes no write can change, and which classes an object may reach
//! through its fields.

use super::Writes;
use crate::hierarchy::{Hierarchy, ACC_FINAL};
use crate::ir::*;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// The most classes `Classes::reach` follows before it answers "any class".
const MAX_REACH: usize = 64;

/// Queries on the class hierarchy, memoised. Without a hierarchy (IR read from text), only arrays
/// have stable sizes and every object may reach every class.
pub struct Classes<'a> {
    hierarchy: Option<&'a Hierarchy>,
    stable: RefCell<HashMap<String, bool>>,
    reach: RefCell<HashMap<String, Option<BTreeSet<String>>>>,
}

/// The class an object descriptor (`Lx;`) names.
fn object_class(descriptor: &str) -> Option<&str> {
    descriptor.strip_prefix('L')?.strip_suffix(';')
}

impl<'a> Classes<'a> {
    pub fn new(hierarchy: Option<&'a Hierarchy>) -> Self {
        Classes {
            hierarchy,
            stable: RefCell::default(),
            reach: RefCell::default(),
        }
    }

    /// Whether every value of this field descriptor has a size that no write can change after its
    /// construction: an array (its length), or an object of a final class whose reference fields,
    /// its superclasses' included, are final and stable.
    pub fn stable(&self, descriptor: &str) -> bool {
        if descriptor.starts_with('[') {
            return true;
        }
        object_class(descriptor).is_some_and(|class| self.class_stable(class))
    }

    fn class_stable(&self, class: &str) -> bool {
        if let Some(&known) = self.stable.borrow().get(class) {
            return known;
        }
        // A class met again while deciding is taken as unstable (a recursive type).
        self.stable.borrow_mut().insert(class.to_owned(), false);
        let answer = self.decide_stable(class);
        self.stable.borrow_mut().insert(class.to_owned(), answer);
        answer
    }

    fn decide_stable(&self, class: &str) -> bool {
        let Some(hierarchy) = self.hierarchy else {
            return false;
        };
        let final_class = hierarchy.class(class).is_some_and(|c| c.access & ACC_FINAL != 0);
        final_class
            && self.instance_reference_fields(class).is_some_and(|fields| {
                fields
                    .iter()
                    .all(|(descriptor, access)| access & ACC_FINAL != 0 && self.stable(descriptor))
            })
    }

    /// The descriptors and access flags of the reference fields of `class`'s instances (its
    /// superclasses' included); `None` when a class of the chain is missing.
    fn instance_reference_fields(&self, class: &str) -> Option<Vec<(String, u16)>> {
        let fields = self.named_reference_fields(class)?;
        Some(fields.into_iter().map(|(_, d, a)| (d, a)).collect())
    }

    /// The names, descriptors and access flags of the reference fields of `class`'s instances.
    fn named_reference_fields(&self, class: &str) -> Option<Vec<(String, String, u16)>> {
        let hierarchy = self.hierarchy?;
        let mut out = Vec::new();
        let mut next = Some(class.to_owned());
        let mut steps = 0;
        while let Some(name) = next {
            steps += 1;
            if steps > MAX_REACH {
                return None;
            }
            let decl = hierarchy.class(&name)?;
            out.extend(
                decl.fields
                    .iter()
                    .filter(|f| f.is_instance_reference())
                    .map(|f| (f.name.clone(), f.descriptor.clone(), f.access)),
            );
            next = decl.super_name.clone();
        }
        Some(out)
    }

    /// What a write of `field` (of an object of `field.class` or a subtype) replaces: `None`
    /// when an object of some such class has another reference field of an unstable type, so its
    /// other fields may still reach what the object reached; `Some(true)` when `field` is the
    /// object's only reference field (its new size is exactly one more than the value's);
    /// `Some(false)` when its other reference fields are all stable (they reach no object whose
    /// fields a write can change).
    pub fn replaces_reach(&self, field: &FieldRef) -> Option<bool> {
        let mut sole = true;
        for name in self.with_subtypes(&field.class)? {
            let mut written = 0;
            for (fname, descriptor, _) in self.named_reference_fields(&name)? {
                if fname == field.name && descriptor == field.descriptor {
                    written += 1;
                } else if self.stable(&descriptor) {
                    sole = false;
                } else {
                    return None;
                }
            }
            if written != 1 {
                return None;
            }
        }
        Some(sole)
    }

    /// `class` and its subtypes, transitively; `None` past `MAX_REACH` classes or at `Object`.
    fn with_subtypes(&self, class: &str) -> Option<BTreeSet<String>> {
        self.closure(class, &mut |_, _| Some(()))
    }

    /// The classes from `class` through subtypes and the classes `more` adds for each class
    /// reached; `None` past `MAX_REACH` classes, at `Object`, or where `more` says `None`.
    fn closure(
        &self,
        class: &str,
        more: &mut dyn FnMut(&str, &mut Vec<String>) -> Option<()>,
    ) -> Option<BTreeSet<String>> {
        let hierarchy = self.hierarchy?;
        let mut seen = BTreeSet::new();
        let mut pending = vec![class.to_owned()];
        while let Some(name) = pending.pop() {
            if name == "java/lang/Object" || seen.len() > MAX_REACH {
                return None;
            }
            if seen.insert(name.clone()) {
                pending.extend(hierarchy.subtypes(&name).iter().cloned());
                more(&name, &mut pending)?;
            }
        }
        Some(seen)
    }

    /// The classes of the objects an object of static class `class` may reach through fields
    /// (itself and its subtypes included; arrays are leaves of path lengths and are not
    /// followed), or `None` for any class.
    fn reach(&self, class: &str) -> Option<BTreeSet<String>> {
        if let Some(known) = self.reach.borrow().get(class) {
            return known.clone();
        }
        let answer = self.compute_reach(class);
        self.reach.borrow_mut().insert(class.to_owned(), answer.clone());
        answer
    }

    fn compute_reach(&self, class: &str) -> Option<BTreeSet<String>> {
        self.closure(class, &mut |name, pending| {
            for (descriptor, _) in self.instance_reference_fields(name)? {
                pending.extend(object_class(&descriptor).map(str::to_owned));
            }
            Some(())
        })
    }

    /// Whether an object of static class `from` (a field descriptor) may reach, through fields, an
    /// object of static class `to` (`None`: unknown). Arrays are leaves of path lengths: they
    /// reach nothing.
    pub fn may_reach_class(&self, from: Option<&str>, to: Option<&str>) -> bool {
        let (Some(hierarchy), Some(from), Some(to)) = (self.hierarchy, from, to) else {
            return true;
        };
        if from.starts_with('[') {
            return false;
        }
        let (Some(from), Some(to)) = (object_class(from), object_class(to)) else {
            return true;
        };
        let Some(reached) = self.reach(from) else {
            return true;
        };
        reached
            .iter()
            .any(|x| x == to || hierarchy.is_subtype(x, to) || hierarchy.is_subtype(to, x))
    }

    /// Whether writes to the reference fields of `writes`' classes may change the size of a value
    /// of static class `descriptor` (`None`: unknown).
    pub fn affected(&self, descriptor: Option<&str>, writes: &Writes) -> bool {
        let owners = match writes {
            Writes::Classes(owners) if owners.is_empty() => return false,
            Writes::Classes(owners) => owners,
            Writes::Any => return true,
        };
        let (Some(hierarchy), Some(class)) = (self.hierarchy, descriptor.and_then(object_class)) else {
            return descriptor.is_none_or(|d| !d.starts_with('['));
        };
        let Some(reached) = self.reach(class) else {
            return true;
        };
        reached.iter().any(|x| {
            owners
                .iter()
                .any(|d| x == d || hierarchy.is_subtype(x, d) || hierarchy.is_subtype(d, x))
        })
    }
}

/// The static class (a field descriptor) of each reference variable of a method, where every
/// definition that reaches it agrees; `None` otherwise.
pub fn var_classes(method: &MethodIr) -> Vec<Option<String>> {
    #[derive(Clone, PartialEq)]
    enum Class {
        Unset,
        Known(String),
        Unknown,
    }
    fn join(into: &mut Class, from: &Class) -> bool {
        let joined = match (&*into, from) {
            (_, Class::Unset) => return false,
            (Class::Unset, other) => other.clone(),
            (Class::Known(a), Class::Known(b)) if a == b => return false,
            (Class::Unknown, _) => return false,
            _ => Class::Unknown,
        };
        *into = joined;
        true
    }
    let mut classes = vec![Class::Unset; method.vars.len()];
    let known = |d: &str| Class::Known(d.to_owned());
    // Definitions that are not copies.
    let entry = method.proc(method.entry);
    let mut params: Vec<String> = Vec::new();
    if !method.is_static {
        params.push(format!("L{};", method.class));
    }
    if let Some((list, _)) = split_method_descriptor(&method.descriptor) {
        params.extend(list.iter().map(|d| (*d).to_owned()));
    }
    for (input, descriptor) in entry.inputs.iter().zip(&params) {
        join(&mut classes[input.index()], &known(descriptor));
    }
    let mut copies: Vec<(VarId, Operand)> = Vec::new();
    for proc in &method.procs {
        for stmt in proc.rules.iter().flat_map(|r| &r.body) {
            if let Some(edge) = &stmt.handler {
                let target = method.proc(edge.proc);
                if let Some(first) = target.inputs.first() {
                    join(&mut classes[first.index()], &known("Ljava/lang/Throwable;"));
                }
                copies.extend(target.inputs.iter().skip(1).copied().zip(edge.args.iter().cloned()));
            }
            let defined = match &stmt.kind {
                StmtKind::GetField { dst, field, .. } | StmtKind::GetStatic { dst, field } => {
                    Some((*dst, known(&field.descriptor)))
                }
                StmtKind::Invoke {
                    dst: Some(dst),
                    method: m,
                    ..
                } => {
                    let ret = split_method_descriptor(&m.descriptor).map(|(_, r)| r.to_owned());
                    Some((*dst, ret.map_or(Class::Unknown, Class::Known)))
                }
                StmtKind::New { dst, class } => Some((*dst, Class::Known(format!("L{class};")))),
                StmtKind::NewArray { dst, .. }
                | StmtKind::NewRefArray { dst, .. }
                | StmtKind::NewMultiArray { dst, .. } => Some((*dst, known("["))),
                StmtKind::Concat { dst, .. } => Some((*dst, known("Ljava/lang/String;"))),
                StmtKind::Assign { dst, src } => {
                    copies.push((*dst, src.clone()));
                    None
                }
                StmtKind::Call {
                    proc: callee,
                    args,
                    outs,
                } => {
                    let target = method.proc(*callee);
                    copies.extend(target.inputs.iter().copied().zip(args.iter().cloned()));
                    copies.extend(
                        outs.iter()
                            .copied()
                            .zip(target.outputs.iter().map(|v| Operand::Var(*v))),
                    );
                    None
                }
                other => other.defs().first().map(|d| (*d, Class::Unknown)),
            };
            if let Some((dst, class)) = defined {
                join(&mut classes[dst.index()], &class);
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (dst, src) in &copies {
            let from = match src {
                Operand::Var(v) => classes[v.index()].clone(),
                Operand::Str(_) => known("Ljava/lang/String;"),
                Operand::Class(_) => known("Ljava/lang/Class;"),
                Operand::Null => Class::Unset,
                _ => Class::Unknown,
            };
            changed |= join(&mut classes[dst.index()], &from);
        }
    }
    classes
        .into_iter()
        .map(|c| match c {
            Class::Known(d) => Some(d),
            _ => None,
        })
        .collect()
}
