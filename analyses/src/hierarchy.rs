//! The class hierarchy of the analysed program and its classpath, and call resolution on it:
//! JVM method resolution for static and special calls, class-hierarchy analysis (CHA) for virtual
//! and interface calls.
//!
//! Invariants: the hierarchy is closed-world over the classes it was given (a subclass that was not
//! given is not seen, and `resolve_virtual` says so with `complete: false` when a receiver class is
//! missing); resolution never loops on cyclic or malformed supertypes.

use crate::ir::{CallKind, MethodRef};
use std::collections::{HashMap, HashSet};
use std::sync::RwLock;

/// Access flags used by resolution.
pub const ACC_PRIVATE: u16 = 0x0002;
pub const ACC_STATIC: u16 = 0x0008;
pub const ACC_FINAL: u16 = 0x0010;
pub const ACC_NATIVE: u16 = 0x0100;
pub const ACC_INTERFACE: u16 = 0x0200;
pub const ACC_ABSTRACT: u16 = 0x0400;

/// A declared method as resolution sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodDecl {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// Whether the method has bytecode (neither abstract nor native).
    pub has_code: bool,
}

/// A declared field, as the heap analysis sees it (`value::heap`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDecl {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
}

impl FieldDecl {
    /// Whether the field belongs to each instance and holds a reference.
    pub fn is_instance_reference(&self) -> bool {
        self.access & ACC_STATIC == 0 && (self.descriptor.starts_with('L') || self.descriptor.starts_with('['))
    }
}

/// A class or interface as resolution sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassDecl {
    /// Internal name (`java/lang/String`).
    pub name: String,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub access: u16,
    pub methods: Vec<MethodDecl>,
    pub fields: Vec<FieldDecl>,
}

impl ClassDecl {
    pub fn is_interface(&self) -> bool {
        self.access & ACC_INTERFACE != 0
    }

    pub fn is_abstract(&self) -> bool {
        self.access & ACC_ABSTRACT != 0
    }

    fn method(&self, name: &str, descriptor: &str) -> Option<&MethodDecl> {
        self.methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor)
    }
}

/// A resolved call target: the declaring class and the method.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// The possible targets of a call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Targets {
    pub targets: Vec<Target>,
    /// `false` when some class needed to resolve the call is not in the hierarchy, so other targets
    /// may exist at run time.
    pub complete: bool,
}

/// Classes by name with their direct subtypes.
#[derive(Clone, Default, Debug)]
pub struct Hierarchy {
    classes: HashMap<String, ClassDecl>,
    subtypes: HashMap<String, Vec<String>>,
    /// The targets of the calls resolved so far (a function of the classes, so adding a class
    /// forgets them).
    resolved: ResolvedCalls,
}

/// The remembered results of [`Hierarchy::targets`], shared by the threads that resolve calls on
/// one hierarchy (a copy starts with none).
#[derive(Default, Debug)]
struct ResolvedCalls(RwLock<HashMap<(CallKind, MethodRef), Targets>>);

impl Clone for ResolvedCalls {
    fn clone(&self) -> Self {
        ResolvedCalls::default()
    }
}

impl Hierarchy {
    /// Builds the hierarchy of the given classes (later duplicates of a name are ignored).
    pub fn new(classes: impl IntoIterator<Item = ClassDecl>) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        for class in classes {
            hierarchy.add(class);
        }
        hierarchy
    }

    /// Adds a class unless one of that name is present.
    pub fn add(&mut self, class: ClassDecl) {
        if self.classes.contains_key(&class.name) {
            return;
        }
        if let Ok(resolved) = self.resolved.0.get_mut() {
            resolved.clear();
        }
        for parent in class.super_name.iter().chain(&class.interfaces) {
            self.subtypes
                .entry(parent.clone())
                .or_default()
                .push(class.name.clone());
        }
        self.classes.insert(class.name.clone(), class);
    }

    pub fn class(&self, name: &str) -> Option<&ClassDecl> {
        self.classes.get(name)
    }

    /// The direct subtypes of a class or interface among the classes given.
    pub fn subtypes(&self, name: &str) -> &[String] {
        self.subtypes.get(name).map_or(&[], Vec::as_slice)
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Whether `sub` is `sup` or one of its subtypes (unknown classes are subtypes of nothing else).
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        if sup == "java/lang/Object" {
            return true;
        }
        let mut seen = HashSet::new();
        let mut pending = vec![sub.to_owned()];
        while let Some(name) = pending.pop() {
            if name == sup {
                return true;
            }
            if !seen.insert(name.clone()) {
                continue;
            }
            if let Some(class) = self.classes.get(&name) {
                pending.extend(class.super_name.iter().cloned());
                pending.extend(class.interfaces.iter().cloned());
            }
        }
        false
    }

    /// JVM method resolution (JVMS 5.4.3.3): the class, then its superclasses, then the
    /// maximally-specific superinterface methods. Returns the declaring class and method.
    pub fn resolve(&self, class: &str, name: &str, descriptor: &str) -> Option<Target> {
        let mut seen = HashSet::new();
        let mut current = Some(class.to_owned());
        while let Some(name_of_class) = current {
            if !seen.insert(name_of_class.clone()) {
                break;
            }
            let decl = self.classes.get(&name_of_class)?;
            if let Some(method) = decl.method(name, descriptor) {
                return Some(Target {
                    class: decl.name.clone(),
                    name: method.name.clone(),
                    descriptor: method.descriptor.clone(),
                });
            }
            current = decl.super_name.clone();
        }
        self.resolve_in_interfaces(class, name, descriptor)
    }

    /// A non-abstract method among the superinterfaces (default methods), preferring the most specific.
    fn resolve_in_interfaces(&self, class: &str, name: &str, descriptor: &str) -> Option<Target> {
        let mut candidates: Vec<Target> = Vec::new();
        let mut seen = HashSet::new();
        let mut pending: Vec<String> = Vec::new();
        let mut walk = Some(class.to_owned());
        let mut guard = HashSet::new();
        while let Some(c) = walk {
            if !guard.insert(c.clone()) {
                break;
            }
            let Some(decl) = self.classes.get(&c) else {
                break;
            };
            pending.extend(decl.interfaces.iter().cloned());
            walk = decl.super_name.clone();
        }
        while let Some(interface) = pending.pop() {
            if !seen.insert(interface.clone()) {
                continue;
            }
            let Some(decl) = self.classes.get(&interface) else {
                continue;
            };
            if let Some(method) = decl.method(name, descriptor) {
                if method.access & (ACC_STATIC | ACC_PRIVATE) == 0 {
                    candidates.push(Target {
                        class: decl.name.clone(),
                        name: method.name.clone(),
                        descriptor: method.descriptor.clone(),
                    });
                }
            }
            pending.extend(decl.interfaces.iter().cloned());
        }
        // Keep the maximally specific ones, preferring a method with code.
        let specific: Vec<&Target> = candidates
            .iter()
            .filter(|t| {
                !candidates
                    .iter()
                    .any(|other| other.class != t.class && self.is_subtype(&other.class, &t.class))
            })
            .collect();
        specific
            .iter()
            .find(|t| self.method_decl(t).is_some_and(|m| m.has_code))
            .or_else(|| specific.first())
            .map(|t| (*t).clone())
    }

    fn method_decl(&self, target: &Target) -> Option<&MethodDecl> {
        self.classes
            .get(&target.class)?
            .method(&target.name, &target.descriptor)
    }

    /// The method a virtual call on a receiver of exactly class `receiver` runs (JVMS 5.4.6).
    pub fn select(&self, receiver: &str, method: &Target) -> Option<Target> {
        let mut seen = HashSet::new();
        let mut current = Some(receiver.to_owned());
        while let Some(c) = current {
            if !seen.insert(c.clone()) {
                break;
            }
            let decl = self.classes.get(&c)?;
            if let Some(m) = decl.method(&method.name, &method.descriptor) {
                // A native method is an implementation too (`Object.getClass`, `Object.clone`).
                if m.access & (ACC_STATIC | ACC_PRIVATE) == 0 && (m.has_code || m.access & ACC_NATIVE != 0) {
                    return Some(Target {
                        class: c,
                        name: m.name.clone(),
                        descriptor: m.descriptor.clone(),
                    });
                }
            }
            current = decl.super_name.clone();
        }
        self.resolve_in_interfaces(receiver, &method.name, &method.descriptor)
            .filter(|t| self.method_decl(t).is_some_and(|m| m.has_code))
    }

    /// All methods a call may run: the resolved method for static and special calls, and for
    /// virtual and interface calls the selected method of every non-abstract subtype of the static
    /// receiver class (CHA).
    pub fn targets(&self, kind: CallKind, method: &MethodRef) -> Targets {
        let key = (kind, method.clone());
        if let Some(found) = self.resolved.0.read().ok().and_then(|r| r.get(&key).cloned()) {
            return found;
        }
        let found = self.find_targets(kind, method);
        if let Ok(mut resolved) = self.resolved.0.write() {
            resolved.insert(key, found.clone());
        }
        found
    }

    /// [`targets`](Self::targets), computed.
    fn find_targets(&self, kind: CallKind, method: &MethodRef) -> Targets {
        let Some(resolved) = self.resolve(&method.class, &method.name, &method.descriptor) else {
            return Targets {
                targets: Vec::new(),
                complete: false,
            };
        };
        // A private method is not selected by dispatch, and a final one is selected from every
        // class that inherits it (none may override it): either way, the call runs the resolved
        // method, whichever subclasses the hierarchy knows.
        let fixed = self
            .method_decl(&resolved)
            .is_some_and(|m| m.access & (ACC_PRIVATE | ACC_FINAL) != 0 && m.access & ACC_ABSTRACT == 0);
        if matches!(kind, CallKind::Static | CallKind::Special) || fixed {
            return Targets {
                targets: vec![resolved],
                complete: true,
            };
        }
        let mut targets: HashSet<Target> = HashSet::new();
        let mut complete = true;
        let mut seen: HashSet<&str> = HashSet::new();
        let mut pending: Vec<&str> = vec![method.class.as_str()];
        while let Some(c) = pending.pop() {
            if !seen.insert(c) {
                continue;
            }
            match self.classes.get(c) {
                None => complete = false,
                Some(decl) => {
                    if !decl.is_interface() && !decl.is_abstract() {
                        match self.select(c, &resolved) {
                            Some(target) => {
                                targets.insert(target);
                            }
                            None => complete = false,
                        }
                    }
                }
            }
            if let Some(subs) = self.subtypes.get(c) {
                pending.extend(subs.iter().map(String::as_str));
            }
        }
        let mut targets: Vec<Target> = targets.into_iter().collect();
        targets.sort_by(|a, b| (&a.class, &a.name, &a.descriptor).cmp(&(&b.class, &b.name, &b.descriptor)));
        Targets { targets, complete }
    }
}
