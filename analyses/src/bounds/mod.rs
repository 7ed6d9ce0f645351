//! Cost bounds: closed-form cost expressions, ranking functions, and the cost of procedures.
pub mod compare;
pub mod cost;
pub mod expr;
pub mod parse;
pub mod ranking;

use crate::ir::{MethodRef, StmtKind};

/// What a bound counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostModel {
    /// JVM bytecode instructions executed (the default).
    Instructions,
    /// Method invocations made (every `invoke*` executed, transitively).
    Invocations,
    /// Objects allocated plus array elements allocated.
    Allocations,
    /// The units passed to `jresa.spec.Resource.consume` (one for `consume()`).
    Consume,
}

impl CostModel {
    /// The model's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CostModel::Instructions => "instructions",
            CostModel::Invocations => "invocations",
            CostModel::Allocations => "allocations",
            CostModel::Consume => "consume",
        }
    }

    /// The model of a name, as the command line spells it.
    pub fn from_name(name: &str) -> Option<CostModel> {
        [
            CostModel::Instructions,
            CostModel::Invocations,
            CostModel::Allocations,
            CostModel::Consume,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// The internal name of the class whose `consume` calls the `consume` model counts.
pub const RESOURCE_CLASS: &str = "jresa/spec/Resource";

/// Whether a method is one of the specification markers (`Resource.consume`, `Loop.invariant`):
/// static methods that only return, whose classes programs need not ship.
pub fn is_spec_marker(class: &str, name: &str) -> bool {
    (class == RESOURCE_CLASS && name == "consume") || (class == "jresa/spec/Loop" && name == "invariant")
}

/// Whether a statement is a call of `Resource.consume()` or `Resource.consume(int)`.
pub fn is_consume_call(kind: &StmtKind) -> Option<&MethodRef> {
    match kind {
        StmtKind::Invoke { method, .. } if method.class == RESOURCE_CLASS && method.name == "consume" => Some(method),
        _ => None,
    }
}
