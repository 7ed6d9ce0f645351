//! The VM's view of classes (`jresa_gpu_validate::ClassSource`) on top of the classfile reader and
//! the lifter: the program's classes first, then the class path (by default the JDK's `java.base`).

use crate::classfile::{ClassFile, ClassPath, Constant};
use crate::lift::lift_method;
use crate::program::lambda_bootstraps;
use jresa_analyses::ir::MethodIr;
use jresa_gpu_validate::source::{ClassInfo, ClassSource, ConstantValue, FieldInfo, MethodInfo};
use std::collections::HashMap;
use std::sync::Arc;

/// `ACC_ABSTRACT | ACC_NATIVE`: methods without bytecode.
const NO_CODE: u16 = 0x0400 | 0x0100;

/// The class path of a source: its own, or one it shares with its caller.
enum Libraries<'c> {
    Owned(Option<ClassPath>),
    Borrowed(Option<&'c ClassPath>),
}

/// Classes for the VM: program classes by name, then the class path.
pub struct JvmClassSource<'c> {
    program: HashMap<String, Arc<ClassFile>>,
    classpath: Libraries<'c>,
}

impl JvmClassSource<'static> {
    /// A source over `classes` (they take precedence) and `classpath`.
    pub fn new(classes: impl IntoIterator<Item = ClassFile>, classpath: Option<ClassPath>) -> JvmClassSource<'static> {
        JvmClassSource {
            program: classes.into_iter().map(|c| (c.name.clone(), Arc::new(c))).collect(),
            classpath: Libraries::Owned(classpath),
        }
    }
}

impl<'c> JvmClassSource<'c> {
    /// A source over `classes` and a class path the caller keeps.
    pub fn borrowing(
        classes: impl IntoIterator<Item = ClassFile>,
        classpath: Option<&'c ClassPath>,
    ) -> JvmClassSource<'c> {
        JvmClassSource {
            program: classes.into_iter().map(|c| (c.name.clone(), Arc::new(c))).collect(),
            classpath: Libraries::Borrowed(classpath),
        }
    }

    fn class_file(&self, name: &str) -> Option<Arc<ClassFile>> {
        let classpath = match &self.classpath {
            Libraries::Owned(cp) => cp.as_ref(),
            Libraries::Borrowed(cp) => *cp,
        };
        self.program
            .get(name)
            .cloned()
            .or_else(|| classpath.and_then(|cp| cp.get(name)))
    }
}

/// The VM's form of a `ConstantValue`.
fn constant_value(constant: &Constant) -> Option<ConstantValue> {
    Some(match constant {
        Constant::Int(v) => ConstantValue::Int(*v),
        Constant::Long(v) => ConstantValue::Long(*v),
        Constant::Float(v) => ConstantValue::Float(v.to_bits()),
        Constant::Double(v) => ConstantValue::Double(v.to_bits()),
        Constant::String(s) => ConstantValue::String(s.clone()),
        _ => return None,
    })
}

/// The packager's view of a parsed class (`library` when it comes from the class path).
pub fn class_info(class: &ClassFile, library: bool) -> ClassInfo {
    ClassInfo {
        library,
        name: class.name.clone(),
        super_name: class.super_name.clone(),
        interfaces: class.interfaces.clone(),
        access: class.access,
        fields: class
            .fields
            .iter()
            .map(|f| FieldInfo {
                name: f.name.clone(),
                descriptor: f.descriptor.clone(),
                access: f.access,
                constant: f.constant_value.as_ref().and_then(constant_value),
            })
            .collect(),
        methods: class
            .methods
            .iter()
            .map(|m| MethodInfo {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                access: m.access,
                has_code: m.access & NO_CODE == 0 && matches!(m.code, Some(Ok(_))),
            })
            .collect(),
        lambdas: lambda_bootstraps(class),
    }
}

impl ClassSource for JvmClassSource<'_> {
    fn class(&self, name: &str) -> Option<ClassInfo> {
        let library = !self.program.contains_key(name);
        self.class_file(name).map(|c| class_info(&c, library))
    }

    fn method_ir(&self, class: &str, name: &str, descriptor: &str) -> Result<MethodIr, String> {
        let file = self
            .class_file(class)
            .ok_or_else(|| format!("class {} not found", class.replace('/', ".")))?;
        let method = file
            .methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor)
            .ok_or_else(|| format!("no method {name}{descriptor}"))?;
        lift_method(&file, method).map_err(|e| e.to_string())
    }
}
