//! The abstract program: the output of abstract compilation (`compile.rs`) and the input of the
//! fixpoint, overflow handling and the cost solver. Procedures of linear constraints over
//! dimensions, calls between them, and the costs their rules incur.
//!
//! Invariants: **in an abstract rule of a procedure with `k` inputs and `m` outputs, dimensions
//! `0..k` are the inputs and `k..k+m` the outputs**; abstract rules are conjunctions; every callee
//! named by an item is a procedure of the same program.

use super::polyhedra::{Constraint, Dimension, LinearExpr};
use crate::ir::{BinOp, MethodRef, ProcId, Ty};
use std::collections::HashMap;

/// An abstract procedure, by position in `AbstractProgram::procs`.
pub type AbsProcId = usize;

/// Where an abstract procedure comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A procedure of a lifted method (`method` indexes the program's methods).
    Ir { method: usize, proc: ProcId },
    /// An auxiliary procedure of a non-linear operation.
    Aux(AuxOp),
    /// The dispatch of a method call over its possible targets.
    Dispatch(MethodRef),
    /// The JVM's construction of an exception it raises itself (null pointer, bounds, ...).
    Implicit,
}

/// One item of an abstract rule's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Constrain(Vec<Constraint>),
    /// A call whose inputs are `args` and whose outputs are written to `outs`.
    Call {
        callee: AbsProcId,
        args: Vec<Dimension>,
        outs: Vec<Dimension>,
    },
    /// A call whose target is not in the program (or not known): its results are unconstrained
    /// and its cost cannot be bounded, for the reason given.
    Opaque {
        reason: String,
    },
    /// A call of a known marker method whose whole cost is this many bytecodes and nothing else.
    Marker {
        bytecodes: u64,
    },
    /// The cost of running `callee` on `args` without assuming that it returns (the callee
    /// threw, or this models the JVM constructing an exception): no post-condition follows.
    Charge {
        callee: AbsProcId,
        args: Vec<Dimension>,
    },
    /// `dim` holds the mathematical result of the integer operation at bytecode offset `pc`,
    /// which the JVM wraps into `width`'s range: see [`super::overflow::wrap`]. For a product of
    /// two variables, `factors` are their dimensions (ranges of the factors can prove it in range).
    /// `wraps` is `Some(m)` when the mathematical value lies within `m` multiples of `2^32` of
    /// the `int` range (`1` for a sum, difference or negation of `int`s, or twice one; `2` for three
    /// or four times one): the JVM's value is then it `- j·2^32` for some `j` in `-m..=m`.
    Wrap {
        dim: Dimension,
        width: Width,
        pc: u32,
        factors: Option<(Dimension, Dimension)>,
        wraps: Option<u8>,
    },
}

/// The cost a rule itself incurs under the cost model (its calls' costs aside):
/// `constant + Σ nat(e)` for the expressions `symbolic` over the rule's dimensions.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RuleCost {
    pub constant: u64,
    /// Amounts known only at run time (allocated lengths, consumed units): each entry is the
    /// product of its factors, each factor non-negative where the amount is incurred.
    pub symbolic: Vec<Vec<LinearExpr>>,
}

impl RuleCost {
    pub(crate) fn add(&mut self, other: &RuleCost) {
        self.constant = self.constant.saturating_add(other.constant);
        self.symbolic.extend(other.symbolic.iter().cloned());
    }
}

/// An abstract rule: a conjunction of constraints and calls over `dims` dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractRule {
    pub dims: usize,
    /// What running the rule costs besides its calls.
    pub cost: RuleCost,
    pub guard: Vec<Constraint>,
    pub items: Vec<Item>,
    /// Whether control leaves the rule normally (defining the outputs); `false` after a `throw`.
    pub returns: bool,
    /// Whether a statement of the rule (other than a call of a procedure of the same method) can
    /// raise an exception that leaves the method, so that the rule may end early.
    pub may_throw: bool,
    /// The IR rule it comes from, and the statement it stops before when it is a handler rule.
    pub source: Option<(usize, Option<usize>)>,
    /// The JVM range of the dimensions that hold program values (for `Wrap`).
    pub ranges: Vec<(Dimension, Width)>,
    /// Why a call of the rule may not terminate although its callee was shown to: it is given a
    /// structure that may be cyclic, which the callee's analysis assumed acyclic.
    pub cyclic_call: Option<String>,
}

/// What a method outside the program costs and returns, from an analysis of it on its own (for
/// every input within its parameters' types): a call of it is a rule of its dispatch procedure that
/// costs `cost` and constrains its inputs and outputs by `post`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Over dimensions `0..inputs` (the arguments, receiver first) and `inputs..inputs+outputs`;
    /// `None` when the method never returns normally (every run of it throws).
    pub post: Option<Vec<Constraint>>,
    /// The method's whole cost, over its inputs; the method terminates.
    pub cost: RuleCost,
    /// What it may do to the heap's path lengths.
    pub effects: super::heap::HeapEffects,
}

/// A target of a method call: a method of the program (by index) or a summarised one.
#[derive(Clone, Debug)]
pub enum Target {
    Analysed(usize),
    Summarised(std::sync::Arc<Summary>),
}

/// An abstract procedure with `inputs` and `outputs` dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractProc {
    pub name: String,
    /// Whether this is the entry procedure of a method (callable from outside the program).
    pub is_method_entry: bool,
    pub inputs: usize,
    pub outputs: usize,
    pub rules: Vec<AbstractRule>,
    pub origin: Origin,
}

/// The abstract program of a set of methods.
#[derive(Clone, Debug, Default)]
pub struct AbstractProgram {
    pub procs: Vec<AbstractProc>,
    /// The procedure that constructs one of a set of implicit exceptions, per set of classes.
    pub implicit_exceptions: HashMap<Vec<&'static str>, AbsProcId>,
    /// The abstract procedure of each IR procedure, per method.
    pub of_ir: Vec<Vec<AbsProcId>>,
    /// What each method may do to the heap's path lengths.
    pub heap_effects: Vec<super::heap::HeapEffects>,
    /// Per procedure of a loop with ghosts (`ir::ghosts`), the positions of its ghost inputs.
    pub ghost_inputs: HashMap<AbsProcId, Vec<usize>>,
}

/// The range of values a dimension holds on the JVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// A 32-bit `int` (and `boolean`, `byte`, `char`, `short`).
    Int,
    /// A 64-bit `long`.
    Long,
    /// The size of an array or a string (its length): `0..2^31`.
    Size,
    /// The size of another object, as a tree (`value::heap`): at least 0 and nothing more. A DAG
    /// that shares its nodes has a size as large as `2^k` with `2k` objects, so no `int` range
    /// bounds it.
    Nodes,
}

impl Width {
    /// The width of a reference of this static class (a field descriptor, where known).
    pub fn of_reference(descriptor: Option<&str>) -> Width {
        match descriptor {
            Some(d) if d.starts_with('[') || d == "Ljava/lang/String;" => Width::Size,
            _ => Width::Nodes,
        }
    }
}

/// A non-linear or bit operation on ints or longs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuxOp {
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    /// Shifts, with the operand width in bits (32 or 64).
    Shl(u32),
    Shr(u32),
    Ushr(u32),
}

impl AuxOp {
    /// The auxiliary operation of a binary operator on `ty`, when it has one.
    pub fn of(op: BinOp, ty: Ty) -> Option<AuxOp> {
        let width = match ty {
            Ty::Int => 32,
            Ty::Long => 64,
            _ => return None,
        };
        Some(match op {
            BinOp::Mul => AuxOp::Mul,
            BinOp::Div => AuxOp::Div,
            BinOp::Rem => AuxOp::Rem,
            BinOp::And => AuxOp::And,
            BinOp::Or => AuxOp::Or,
            BinOp::Xor => AuxOp::Xor,
            BinOp::Shl => AuxOp::Shl(width),
            BinOp::Shr => AuxOp::Shr(width),
            BinOp::Ushr => AuxOp::Ushr(width),
            BinOp::Add | BinOp::Sub | BinOp::Cmp | BinOp::CmpL | BinOp::CmpG => return None,
        })
    }

    /// The operation's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            AuxOp::Mul => "op_mul",
            AuxOp::Div => "op_div",
            AuxOp::Rem => "op_rem",
            AuxOp::And => "op_and",
            AuxOp::Or => "op_or",
            AuxOp::Xor => "op_xor",
            AuxOp::Shl(_) => "op_shl",
            AuxOp::Shr(_) => "op_shr",
            AuxOp::Ushr(_) => "op_ushr",
        }
    }
}
