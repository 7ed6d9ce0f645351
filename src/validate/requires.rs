//! The `@Requires` of a method, for validation: read from its classfile (parameter names from the
//! lifted code, as `jresa check` resolves them), the filter of the instances generated from its
//! signature and, for the bounds of `jresa check`, the bound itself (the potential it gives).

use super::instances::parameter_types;
use super::BoundToCheck;
use crate::classfile::ClassFile;
use crate::lift::lift_method;
use crate::spec::method_spec;
use jresa_analyses::amortised::resolve::base_name;
use jresa_gpu_validate::check::{BoundForm, MethodBound};
use jresa_gpu_validate::requires::Precondition;
use jresa_gpu_validate::ClassSource;
use std::sync::Arc;

/// The precondition of a method of the inputs: `None` when it has no `@Requires`, `Err` when its
/// annotations are malformed or the precondition cannot be decided on instances.
pub(crate) fn precondition(
    classes: &[ClassFile],
    source: &dyn ClassSource,
    bound: &BoundToCheck,
) -> Option<Result<Precondition, String>> {
    let class = classes.iter().find(|c| c.name == bound.class)?;
    let method = class
        .methods
        .iter()
        .find(|m| m.name == bound.name && m.descriptor == bound.descriptor)?;
    let requires = match method_spec(method) {
        Ok(spec) => spec?.requires?,
        Err(errors) => {
            let first = errors
                .first()
                .map(|e| format!("{}: {}", e.role, e.error.message))
                .unwrap_or_default();
            return Some(Err(format!("malformed annotations ({first})")));
        }
    };
    Some((|| {
        let ir = lift_method(class, method).map_err(|e| format!("its code cannot be lifted ({e})"))?;
        let names: Vec<String> = ir
            .proc(ir.entry)
            .inputs
            .iter()
            .map(|v| base_name(&ir.var(*v).name).to_owned())
            .collect();
        let (types, _) = parameter_types(source, bound)?;
        Precondition::new(&requires.text, requires.assertions.clone(), names, &types, source)
    })())
}

/// The bound to check of a method: for a bound of `jresa check`, the potential of its
/// precondition at the proven resource values (or why there is none); other bounds unchanged.
pub(crate) fn with_potential(
    bound: &BoundToCheck,
    precondition: Option<&Result<Precondition, String>>,
) -> BoundToCheck {
    let mut out = bound.clone();
    let Some(resources) = &bound.resources else {
        return out;
    };
    match precondition {
        Some(Ok(precondition)) => {
            out.bound = Some(MethodBound {
                parameters: precondition.params().to_vec(),
                form: BoundForm::Potential(Arc::new(precondition.clone().with_resources(resources.clone()))),
                ranges: Vec::new(),
            });
        }
        Some(Err(reason)) => out.reason = Some(format!("the @Requires cannot be checked on instances: {reason}")),
        None => out.reason = Some("no @Requires to give the bound".into()),
    }
    out
}
