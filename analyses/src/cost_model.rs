//! The cost models: what a bound counts, and what each IR statement costs under each model.
//!
//! This is the one place a cost model is defined. Abstract compilation (`value/compile.rs`) asks
//! [`CostModel::charge`] what a statement costs and turns the answer into rule costs; the cost
//! solver asks [`CostModel::counts_bytecodes`] how to price marker calls; the validation VM counts
//! every model at once and `gpu-validate`'s `check::metric` picks the counter of a model.
//!
//! Invariant: **every statement kind's cost is written out for every model**: `classify` sorts
//! every `StmtKind` variant into what the models can count, and each model's charge matches every
//! class, all without a wildcard, so adding a statement kind or a model does not compile until its
//! cost is decided; a forgotten case can never cost 0 silently.

use crate::ir::{MethodRef, Operand, StmtKind};

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

/// The internal name of the class whose `consume` calls the `consume` model counts.
pub const RESOURCE_CLASS: &str = "jresa/spec/Resource";

/// One factor of an amount known only at run time: a constant, or the value (for an `int`) or
/// length (for an array) of an operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Factor<'a> {
    Constant(i64),
    Size(&'a Operand),
}

/// What one execution of a statement counts under a model, besides the bytecodes (counted per
/// rule) and the costs of the methods it calls: `constant` plus the sum of `products`, each the
/// product of its factors (each factor non-negative where the amount is incurred).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Charge<'a> {
    pub constant: u64,
    pub products: Vec<Vec<Factor<'a>>>,
}

impl<'a> Charge<'a> {
    fn constant(constant: u64) -> Charge<'a> {
        Charge {
            constant,
            products: Vec::new(),
        }
    }

    /// `constant` plus the size of `operand` (a constant operand folds into the constant).
    fn plus_size(constant: u64, operand: &'a Operand) -> Charge<'a> {
        match operand {
            Operand::Int(n) => Charge::constant(constant.saturating_add(u64::try_from(*n).unwrap_or(0))),
            other => Charge {
                constant,
                products: vec![vec![Factor::Size(other)]],
            },
        }
    }
}

impl CostModel {
    /// Every model, in the order the command line lists them.
    pub const ALL: [CostModel; 4] = [
        CostModel::Instructions,
        CostModel::Invocations,
        CostModel::Allocations,
        CostModel::Consume,
    ];

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
        CostModel::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether the model counts bytecodes, which abstract compilation charges per rule (and per
    /// statement prefix when an exception leaves the rule early) rather than per statement.
    pub fn counts_bytecodes(self) -> bool {
        match self {
            CostModel::Instructions => true,
            CostModel::Invocations | CostModel::Allocations | CostModel::Consume => false,
        }
    }

    /// What one execution of a statement of `kind` counts under the model, besides bytecodes and
    /// its callees. `throws`: the statement raised an exception (it still made its call, but
    /// allocated nothing).
    pub fn charge(self, kind: &StmtKind, throws: bool) -> Charge<'_> {
        match self {
            CostModel::Instructions => Charge::default(),
            CostModel::Invocations => invocations(kind),
            CostModel::Allocations => allocations(kind, throws),
            CostModel::Consume => consume(kind),
        }
    }

    /// What the JVM's construction of an exception it raises itself counts, besides the
    /// exception's constructor: the exception object under the allocations model.
    pub fn exception_object(self) -> u64 {
        match self {
            CostModel::Allocations => 1,
            CostModel::Instructions | CostModel::Invocations | CostModel::Consume => 0,
        }
    }

    /// Whether a call of the native `method` may count under the model in a way its call
    /// statement's [`charge`](Self::charge) does not: natives execute no bytecodes, their
    /// invocation is counted at the call, and they consume nothing, but some allocate.
    pub fn native_may_count(self, method: &MethodRef) -> bool {
        match self {
            CostModel::Allocations => is_allocating_native(method) && !is_array_clone(method),
            CostModel::Instructions | CostModel::Invocations | CostModel::Consume => false,
        }
    }
}

/// What the cost models can count in a statement: its class. Every `StmtKind` variant is
/// classified here, without a wildcard, so a new statement kind does not compile until its class
/// (and so its cost under every model) is decided.
enum Counted<'a> {
    /// A method call (`invoke*`).
    Invoke { method: &'a MethodRef, args: &'a [Operand] },
    /// A dynamically linked call (`invokedynamic`).
    InvokeDynamic,
    /// A string concatenation: its `invokedynamic` is one invocation, and it allocates one object,
    /// the result string (whose characters no model counts). Its bytecode is the site's one
    /// `invokedynamic`; the JDK code that builds the string counts nothing under any model,
    /// except the `String.valueOf` calls lifting puts before it for reference arguments, which
    /// count as the calls they are (the profiler's agent runs a concatenation the same way).
    Concat,
    /// A new object.
    Object,
    /// A new array of `length` elements.
    Array { length: &'a Operand },
    /// A new multi-dimensional array.
    MultiArray { lengths: &'a [Operand] },
    /// Nothing any model counts (moves, arithmetic, field and array accesses, calls of the
    /// method's own procedures, checks, monitors, `throw`).
    Nothing,
}

fn classify(kind: &StmtKind) -> Counted<'_> {
    match kind {
        StmtKind::Invoke { method, args, .. } => Counted::Invoke { method, args },
        StmtKind::InvokeDynamic { .. } => Counted::InvokeDynamic,
        StmtKind::Concat { .. } => Counted::Concat,
        StmtKind::New { .. } => Counted::Object,
        StmtKind::NewArray { length, .. } | StmtKind::NewRefArray { length, .. } => Counted::Array { length },
        StmtKind::NewMultiArray { lengths, .. } => Counted::MultiArray { lengths },
        StmtKind::Assign { .. }
        | StmtKind::Binary { .. }
        | StmtKind::Unary { .. }
        | StmtKind::GetField { .. }
        | StmtKind::PutField { .. }
        | StmtKind::GetStatic { .. }
        | StmtKind::PutStatic { .. }
        | StmtKind::ArrayLoad { .. }
        | StmtKind::ArrayStore { .. }
        | StmtKind::ArrayLength { .. }
        | StmtKind::LoadConst { .. }
        | StmtKind::Call { .. }
        | StmtKind::CheckCast { .. }
        | StmtKind::InstanceOf { .. }
        | StmtKind::MonitorEnter { .. }
        | StmtKind::MonitorExit { .. }
        | StmtKind::Throw { .. } => Counted::Nothing,
    }
}

/// One per call instruction.
fn invocations(kind: &StmtKind) -> Charge<'_> {
    match classify(kind) {
        Counted::Invoke { .. } | Counted::InvokeDynamic | Counted::Concat => Charge::constant(1),
        Counted::Object | Counted::Array { .. } | Counted::MultiArray { .. } | Counted::Nothing => Charge::default(),
    }
}

/// One per object, one plus the length per array. A statement that throws allocated nothing,
/// except `multianewarray`, which may have allocated the levels above a negative length.
fn allocations(kind: &StmtKind, throws: bool) -> Charge<'_> {
    match classify(kind) {
        Counted::MultiArray { lengths } => multi_array(lengths),
        _ if throws => Charge::default(),
        Counted::Object | Counted::Concat => Charge::constant(1),
        Counted::Array { length } => Charge::plus_size(1, length),
        // A copy of the array: one array of the receiver's length.
        Counted::Invoke { method, args } if is_array_clone(method) => match args.first() {
            Some(receiver) => Charge::plus_size(1, receiver),
            None => Charge::constant(1),
        },
        Counted::Invoke { .. } | Counted::InvokeDynamic | Counted::Nothing => Charge::default(),
    }
}

/// `new T[l0]…[l(d-1)]` makes `1 + P0 + … + P(d-2)` arrays holding `P0 + … + P(d-1)` elements,
/// where `Pk = l0·…·lk`. When an inner length is negative, the JVM may have allocated the levels
/// above it before it throws; the same products (of `nat` bounds) cover that too.
fn multi_array(lengths: &[Operand]) -> Charge<'_> {
    let mut charge = Charge::constant(1);
    let mut factors: Vec<Factor> = Vec::new();
    for (k, length) in lengths.iter().enumerate() {
        factors.push(match length {
            Operand::Int(n) => Factor::Constant(i64::from(*n)),
            other => Factor::Size(other),
        });
        let times = if k + 1 < lengths.len() { 2 } else { 1 };
        for _ in 0..times {
            charge.products.push(factors.clone());
        }
    }
    charge
}

/// The units of each `Resource.consume` call.
fn consume(kind: &StmtKind) -> Charge<'_> {
    match classify(kind) {
        Counted::Invoke { method, args } if is_consume(method) => match args.first() {
            None if method.descriptor == "()V" => Charge::constant(1),
            Some(amount) => Charge::plus_size(0, amount),
            None => Charge::default(),
        },
        Counted::Invoke { .. }
        | Counted::InvokeDynamic
        | Counted::Concat
        | Counted::Object
        | Counted::Array { .. }
        | Counted::MultiArray { .. }
        | Counted::Nothing => Charge::default(),
    }
}

/// Whether a method is one of the specification markers (`Resource.consume`, `Loop.invariant`):
/// static methods that only return, whose classes programs need not ship.
pub fn is_spec_marker(class: &str, name: &str) -> bool {
    (class == RESOURCE_CLASS && name == "consume") || (class == "jresa/spec/Loop" && name == "invariant")
}

fn is_consume(method: &MethodRef) -> bool {
    method.class == RESOURCE_CLASS && method.name == "consume"
}

/// The natives that create objects or arrays the allocations model counts (`clone` of any
/// class or array, reflective array creation, `Unsafe` allocation), as (class, name); an empty
/// class matches every class. The model counts what bytecode allocates and what these return;
/// the JVM's own bookkeeping inside other natives (stack traces, messages) is outside it.
const ALLOCATING_NATIVES: &[(&str, &str)] = &[
    ("", "clone"),
    ("java/lang/reflect/Array", "newArray"),
    ("java/lang/reflect/Array", "multiNewArray"),
    ("jdk/internal/misc/Unsafe", "allocateInstance"),
    ("jdk/internal/misc/Unsafe", "allocateUninitializedArray0"),
];

fn is_allocating_native(method: &MethodRef) -> bool {
    ALLOCATING_NATIVES
        .iter()
        .any(|(class, name)| method.name == *name && (class.is_empty() || method.class == *class))
}

/// `clone` of an array (`[I.clone()`, `[Ljava/lang/String;.clone()`), whose copy
/// [`CostModel::charge`] counts at the call.
pub(crate) fn is_array_clone(method: &MethodRef) -> bool {
    method.class.starts_with('[') && method.name == "clone" && method.descriptor == "()Ljava/lang/Object;"
}
