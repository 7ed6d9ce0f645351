//! What the proof search needs to know about the program, asked through [`ProgramView`] (the
//! driver answers from the classfiles): lifted code, specifications, class layouts and call
//! resolution. Also the layout-derived facts: which field links a list, which two link a tree.

use super::spec::MethodSpec;
use crate::ir::{CallKind, MethodIr, MethodRef, Ty};
use std::fmt;
use std::sync::Arc;

/// A method by class (internal name), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MethodKey {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

impl MethodKey {
    pub fn new(class: &str, name: &str, descriptor: &str) -> MethodKey {
        MethodKey {
            class: class.to_owned(),
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
        }
    }

    pub fn of(method: &MethodRef) -> MethodKey {
        MethodKey::new(&method.class, &method.name, &method.descriptor)
    }
}

impl fmt::Display for MethodKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}{}", self.class.replace('/', "."), self.name, self.descriptor)
    }
}

/// A field by the class that declares it and its name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldKey {
    pub class: String,
    pub name: String,
}

impl fmt::Display for FieldKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// An instance field of a class (declared there or inherited).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    pub key: FieldKey,
    pub descriptor: String,
}

impl FieldInfo {
    pub fn ty(&self) -> Ty {
        Ty::from_descriptor(&self.descriptor).unwrap_or(Ty::Ref)
    }
}

/// The instance fields of a class, its own first, then its superclasses' (nearest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassLayout {
    pub name: String,
    pub fields: Vec<FieldInfo>,
}

impl ClassLayout {
    /// The field `name` as seen from this class (JVM field resolution over superclasses).
    pub fn field(&self, name: &str) -> Option<&FieldInfo> {
        self.fields.iter().find(|f| f.key.name == name)
    }

    /// The fields whose type is this class itself: the links of a recursive structure.
    pub fn self_links(&self) -> Vec<&FieldInfo> {
        let own = format!("L{};", self.name);
        self.fields.iter().filter(|f| f.descriptor == own).collect()
    }
}

/// The cells of a list: objects of `class` linked through `next`. A cell owns every field of
/// `fields` (all instance fields of the class).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListLink {
    pub class: String,
    pub next: FieldKey,
    pub fields: Vec<FieldKey>,
}

/// The nodes of a binary tree: objects of `class` with children `left` and `right`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TreeLink {
    pub class: String,
    pub left: FieldKey,
    pub right: FieldKey,
    pub fields: Vec<FieldKey>,
}

/// The list structure of a class: exactly one instance field of the class's own type.
pub fn list_link(layout: &ClassLayout) -> Option<ListLink> {
    match layout.self_links().as_slice() {
        [next] => Some(ListLink {
            class: layout.name.clone(),
            next: next.key.clone(),
            fields: layout.fields.iter().map(|f| f.key.clone()).collect(),
        }),
        _ => None,
    }
}

/// The tree structure of a class: exactly two instance fields of the class's own type, the first
/// declared being the left child.
pub fn tree_link(layout: &ClassLayout) -> Option<TreeLink> {
    match layout.self_links().as_slice() {
        [left, right] => Some(TreeLink {
            class: layout.name.clone(),
            left: left.key.clone(),
            right: right.key.clone(),
            fields: layout.fields.iter().map(|f| f.key.clone()).collect(),
        }),
        _ => None,
    }
}

/// A method a call can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub key: MethodKey,
    /// Declared `native`: it has no bytecode.
    pub native: bool,
    /// Comes from the class path (the JDK), not from the analysed program.
    pub library: bool,
}

/// Where a call goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    Unique(Target),
    /// Virtual dispatch may reach these methods.
    Several(Vec<MethodKey>),
    /// No target is known, with the reason.
    Unresolved(String),
}

/// The specification of a method as the driver found it.
#[derive(Clone, Debug)]
pub enum SpecLookup {
    /// The method has no jresa annotation.
    None,
    Some(Arc<MethodSpec>),
    /// Its annotations are malformed (the driver reports why).
    Malformed,
}

/// The program, as the proof search sees it. Implementations may load and lift classes lazily;
/// the proof search itself does no I/O.
pub trait ProgramView {
    /// The lifted code of a method, or why there is none.
    fn code(&self, method: &MethodKey) -> Result<Arc<MethodIr>, String>;
    /// The annotations of a method.
    fn spec(&self, method: &MethodKey) -> SpecLookup;
    /// The instance fields of a class, when the class can be found.
    fn layout(&self, class: &str) -> Option<Arc<ClassLayout>>;
    /// The local variables of a method declared with a class (`LocalVariableTable` entries of
    /// class type), by name and class internal name; one entry per declaration, so a name may
    /// appear with several classes. Empty when unknown.
    fn local_classes(&self, method: &MethodKey) -> Vec<(String, String)> {
        let _ = method;
        Vec::new()
    }
    /// The target of a call; `exact_receiver` is the receiver's class when it is known exactly
    /// (an object allocated by the method).
    fn resolve(&self, kind: CallKind, method: &MethodRef, exact_receiver: Option<&str>) -> Resolution;
    /// Whether `sub` is `sup` or one of its subtypes (false when unknown).
    fn is_subtype(&self, sub: &str, sup: &str) -> bool;
    /// Whether `class` is a final class of the class path (not of the analysed program): its
    /// instances are library objects whatever the program does.
    fn is_closed_library_class(&self, class: &str) -> bool;
}
