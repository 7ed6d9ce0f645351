//! The specification of one method as its annotations give it: precondition, postcondition and
//! loop invariants, each with its source text (for diagnostics) and syntax tree.

use super::assertion::Assertions;
use std::fmt;

/// Which annotation a piece of specification comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Requires,
    Ensures,
    /// `@Invariant(id = ...)`.
    Invariant(i32),
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Role::Requires => f.write_str("@Requires"),
            Role::Ensures => f.write_str("@Ensures"),
            Role::Invariant(id) => write!(f, "@Invariant(id = {id})"),
        }
    }
}

/// One annotation string and its parsed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotated {
    pub role: Role,
    pub text: String,
    pub assertions: Assertions,
}

/// The annotations of a method. A method is annotated when it has at least one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MethodSpec {
    pub requires: Option<Annotated>,
    pub ensures: Option<Annotated>,
    pub invariants: Vec<Annotated>,
}

impl MethodSpec {
    /// Whether the method carries any annotation.
    pub fn is_empty(&self) -> bool {
        self.requires.is_none() && self.ensures.is_none() && self.invariants.is_empty()
    }

    /// The invariant with the given loop identifier.
    pub fn invariant(&self, id: i32) -> Option<&Annotated> {
        self.invariants.iter().find(|a| a.role == Role::Invariant(id))
    }
}
