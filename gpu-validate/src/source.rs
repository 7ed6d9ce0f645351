//! Where the VM's classes come from: the small interface the packager needs from a class path,
//! implemented by the root crate on top of its classfile reader and lifter.
//!
//! The packager only needs layout facts (supertypes, fields, access flags, constant values of
//! static finals) and the lifted IR of each method it decides to package; it never sees a
//! classfile.

use jresa_analyses::hierarchy::{ClassDecl, FieldDecl, MethodDecl};
use jresa_analyses::ir::MethodIr;

pub use jresa_analyses::ir::lambdas::LambdaBootstrap;

/// `ACC_STATIC`.
pub const ACC_STATIC: u16 = 0x0008;
/// `ACC_NATIVE`.
pub const ACC_NATIVE: u16 = 0x0100;
/// `ACC_ABSTRACT`.
pub const ACC_ABSTRACT: u16 = 0x0400;
/// `ACC_INTERFACE`.
pub const ACC_INTERFACE: u16 = 0x0200;

/// The initial value of a `static final` field (its `ConstantValue` attribute).
#[derive(Clone, Debug, PartialEq)]
pub enum ConstantValue {
    Int(i32),
    Long(i64),
    /// IEEE bits.
    Float(u32),
    /// IEEE bits.
    Double(u64),
    String(String),
}

/// A declared field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub constant: Option<ConstantValue>,
}

impl FieldInfo {
    pub fn is_static(&self) -> bool {
        self.access & ACC_STATIC != 0
    }
}

/// A declared method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// Whether the method has bytecode (neither abstract nor native, and its code could be read).
    pub has_code: bool,
}

impl MethodInfo {
    pub fn is_static(&self) -> bool {
        self.access & ACC_STATIC != 0
    }

    pub fn is_native(&self) -> bool {
        self.access & ACC_NATIVE != 0
    }

    pub fn is_abstract(&self) -> bool {
        self.access & ACC_ABSTRACT != 0
    }
}

/// A class or interface, as the packager sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassInfo {
    /// Internal name (`java/lang/String`).
    pub name: String,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub access: u16,
    /// Fields in declaration order.
    pub fields: Vec<FieldInfo>,
    pub methods: Vec<MethodInfo>,
    /// Whether the class comes from the class path (the JDK) rather than the analysed program:
    /// library classes are initialised when a package is built, as in a JVM whose library is
    /// warm, program classes at their first active use in each instance.
    pub library: bool,
    /// Per bootstrap method index, the lambda it links (`None` for other bootstrap methods).
    pub lambdas: Vec<Option<LambdaBootstrap>>,
}

impl ClassInfo {
    pub fn is_interface(&self) -> bool {
        self.access & ACC_INTERFACE != 0
    }

    pub fn method(&self, name: &str, descriptor: &str) -> Option<&MethodInfo> {
        self.methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor)
    }

    /// The view of the class that `jresa_analyses::hierarchy` resolves calls on.
    pub fn decl(&self) -> ClassDecl {
        ClassDecl {
            name: self.name.clone(),
            super_name: self.super_name.clone(),
            interfaces: self.interfaces.clone(),
            access: self.access,
            methods: self
                .methods
                .iter()
                .map(|m| MethodDecl {
                    name: m.name.clone(),
                    descriptor: m.descriptor.clone(),
                    access: m.access,
                    has_code: m.has_code,
                })
                .collect(),
            fields: self
                .fields
                .iter()
                .map(|f| FieldDecl {
                    name: f.name.clone(),
                    descriptor: f.descriptor.clone(),
                    access: f.access,
                })
                .collect(),
        }
    }
}

/// A source of classes: the program's classes first, then the class path (usually the JDK's
/// `java.base`). Implementations must be deterministic: the same name gives the same answer.
pub trait ClassSource {
    /// The class with this internal name, or `None` when it cannot be found or read.
    fn class(&self, name: &str) -> Option<ClassInfo>;

    /// The lifted IR of a method with code, or why it cannot be lifted.
    fn method_ir(&self, class: &str, name: &str, descriptor: &str) -> Result<MethodIr, String>;
}
