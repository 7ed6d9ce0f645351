//! The analysed program: its classes and the class hierarchy built from them and the classpath.
use crate::classfile::{ClassFile, ClassPath, Constant, Insn};
use jresa_analyses::hierarchy::{ClassDecl, FieldDecl, Hierarchy, MethodDecl, ACC_ABSTRACT};
use jresa_analyses::ir::lambdas::{self, LambdaBootstrap, LambdaClass};
use std::collections::{HashMap, HashSet};

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
        fields: class
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

/// The lambda each bootstrap method of `class` links, by index (`None` for bootstrap methods other
/// than `LambdaMetafactory.metafactory`).
pub fn lambda_bootstraps(class: &ClassFile) -> Vec<Option<LambdaBootstrap>> {
    class
        .bootstrap_methods
        .iter()
        .map(|b| {
            let text = |k: usize| match b.arguments.get(k) {
                Some(Constant::MethodType(t) | Constant::MethodHandle(t)) => Some(t.as_str()),
                _ => None,
            };
            LambdaBootstrap::from_metafactory(&b.handle, text(0), text(1))
        })
        .collect()
}

/// The lambda classes of the program's `invokedynamic` sites (see `jresa_analyses::ir::lambdas`),
/// by name.
pub fn spin_lambdas(classes: &[ClassFile]) -> HashMap<String, LambdaClass> {
    let mut spun = HashMap::new();
    for class in classes {
        let bootstraps = lambda_bootstraps(class);
        if bootstraps.iter().all(Option::is_none) {
            continue;
        }
        let code = class.methods.iter().filter_map(|m| m.code.as_ref()?.as_ref().ok());
        for instruction in code.flat_map(|c| &c.instructions) {
            if let Insn::InvokeDynamic {
                name,
                descriptor,
                bootstrap_index,
            } = &instruction.insn
            {
                lambdas::spin_site(
                    &class.name,
                    false,
                    name,
                    descriptor,
                    *bootstrap_index,
                    &bootstraps,
                    &mut spun,
                );
            }
        }
    }
    spun
}

/// Builds the hierarchy of the program's classes and their lambda classes (`spin_lambdas`).
pub fn build_hierarchy(classes: &[ClassFile], classpath: Option<&ClassPath>) -> Hierarchy {
    build_hierarchy_with(classes, classpath, &spin_lambdas(classes))
}

/// Builds the hierarchy of the program's classes and `lambdas` plus every classpath class reachable
/// from them through supertypes and through the owners of referenced methods (so that resolution
/// can walk up into library classes). Program classes take precedence over classpath classes.
pub fn build_hierarchy_with(
    classes: &[ClassFile],
    classpath: Option<&ClassPath>,
    lambdas: &HashMap<String, LambdaClass>,
) -> Hierarchy {
    let mut hierarchy = Hierarchy::new(classes.iter().map(class_decl));
    let mut spun: Vec<&LambdaClass> = lambdas.values().collect();
    spun.sort_by(|a, b| a.decl.name.cmp(&b.decl.name));
    for lambda in &spun {
        hierarchy.add(lambda.decl.clone());
    }
    let Some(classpath) = classpath else {
        return hierarchy;
    };
    let mut pending: Vec<String> = spun.iter().flat_map(|l| l.decl.interfaces.iter().cloned()).collect();
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
