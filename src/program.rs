//! The analysed program: its classes and the class hierarchy built from them and the classpath.
use crate::classfile::{ClassFile, ClassPath};
use jresa_analyses::hierarchy::{ClassDecl, Hierarchy, MethodDecl, ACC_ABSTRACT};
use std::collections::HashSet;

/// Native methods: declared, but without bytecode.
const ACC_NATIVE: u16 = 0x0100;

/// The hierarchy view of a parsed class.
pub fn class_decl(class: &ClassFile) -> ClassDecl {
    ClassDecl {
        name: class.name.clone(),
        super_name: class.super_name.clone(),
        interfaces: class.interfaces.clone(),
        access: class.access,
        methods: class
            .methods
            .iter()
            .map(|m| MethodDecl {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                access: m.access,
                has_code: m.access & (ACC_ABSTRACT | ACC_NATIVE) == 0 && m.code.is_some(),
            })
            .collect(),
    }
}

/// Builds the hierarchy of the program's classes plus every classpath class reachable from them
/// through supertypes and through the owners of referenced methods (so that resolution can walk
/// up into library classes). Program classes take precedence over classpath classes.
pub fn build_hierarchy(classes: &[ClassFile], classpath: Option<&ClassPath>) -> Hierarchy {
    let mut hierarchy = Hierarchy::new(classes.iter().map(class_decl));
    let Some(classpath) = classpath else {
        return hierarchy;
    };
    let mut pending: Vec<String> = Vec::new();
    for class in classes {
        pending.extend(class.super_name.iter().cloned());
        pending.extend(class.interfaces.iter().cloned());
        for method in &class.methods {
            if let Some(Ok(code)) = &method.code {
                for instruction in &code.instructions {
                    if let crate::classfile::Insn::Invoke(_, target) = &instruction.insn {
                        pending.push(target.class.clone());
                    }
                }
            }
        }
    }
    // The exceptions the JVM raises itself are constructed by it, so their classes are needed too.
    pending.extend(jresa_analyses::ir::exceptions::all_classes().map(String::from));
    let mut seen: HashSet<String> = classes.iter().map(|c| c.name.clone()).collect();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(class) = classpath.get(&name) {
            pending.extend(class.super_name.iter().cloned());
            pending.extend(class.interfaces.iter().cloned());
            hierarchy.add(class_decl(&class));
        }
    }
    hierarchy
}
