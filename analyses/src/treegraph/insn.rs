//! The stack code that IR rules are lowered to: a small, data-only instruction set for the VM of
//! `gpu-validate` (which executes it; nothing here does).
//!
//! A rule runs with its procedure's inputs in a frame (read with `LoadInput`, never written) and an
//! empty operand stack. Every instruction pops its operands from the top of the stack (the first
//! operand deepest) and pushes its results. Locals (`Load`/`Store`) hold the store/load baseline's
//! temporaries and the values that exception handlers receive. The rule ends with exactly one
//! terminator (`Return`, `TailCall` or `Throw`), which consumes its operands from the top; whatever
//! is left below them is discarded, as the JVM's return instructions discard the operand stack.
//! The guard is not part of the code: the VM evaluates it on the inputs to choose the rule.

use crate::ir::{BinOp, CallKind, ElemTy, FieldRef, MethodRef, OpaqueConst, Operand, PrimTy, ProcId, Ty, UnOp};
use serde::Serialize;

/// One instruction of the stack code of a rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "insn", rename_all = "snake_case")]
pub enum StackInsn {
    /// Pushes a constant (never `Operand::Var`).
    Push { value: Operand },
    /// Pushes input `index` of the procedure.
    LoadInput { index: u32 },
    /// Pushes local `slot`.
    Load { slot: u32 },
    /// Pops the top into local `slot`.
    Store { slot: u32 },
    /// Pushes `count` more copies of the top entry (the paper's `DUP k`).
    Dup { count: u32 },
    /// Pushes a copy of the entry at `depth` from the top, 1 being the top (the paper's `FETCH k`).
    Fetch { depth: u32 },
    /// Discards the top `count` entries (the paper's `POP k`).
    Pop { count: u32 },
    /// Runs statement `stmt` (its index in the rule's body): pops `op.arity()` operands and pushes
    /// `op.results()` values. When it raises an exception and `handler` is set, the handler is
    /// called in tail position with the exception and the handler's arguments.
    Op {
        op: StackOp,
        stmt: u32,
        handler: Option<StackHandler>,
    },
    /// Ends the rule: the top `values` entries are the procedure's outputs, in order.
    Return { values: u32 },
    /// Ends the rule by calling `proc` (statement `stmt`) with the top `args` entries; its outputs
    /// are the rule's outputs.
    TailCall {
        proc: ProcId,
        args: u32,
        stmt: u32,
        handler: Option<StackHandler>,
    },
    /// Ends the rule by throwing the top entry (statement `stmt`).
    Throw { stmt: u32, handler: Option<StackHandler> },
}

/// An operation of the IR without its operands (they are on the stack).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum StackOp {
    /// Two operands of type `ty` (a shift count is an int).
    Binary {
        op: BinOp,
        ty: Ty,
    },
    /// One operand of type `from`, result of type `to`.
    Unary {
        op: UnOp,
        from: Ty,
        to: Ty,
    },
    GetField {
        field: FieldRef,
    },
    PutField {
        field: FieldRef,
    },
    GetStatic {
        field: FieldRef,
    },
    PutStatic {
        field: FieldRef,
    },
    ArrayLoad {
        elem: ElemTy,
    },
    ArrayStore {
        elem: ElemTy,
    },
    ArrayLength,
    New {
        class: String,
    },
    NewArray {
        elem: PrimTy,
    },
    NewRefArray {
        class: String,
    },
    NewMultiArray {
        descriptor: String,
        dimensions: u32,
    },
    /// A method call with `args` arguments (the receiver first) and `results` (0 or 1) results.
    Invoke {
        kind: CallKind,
        interface: bool,
        method: MethodRef,
        args: u32,
        results: u32,
    },
    InvokeDynamic {
        name: String,
        descriptor: String,
        bootstrap: u16,
        args: u32,
        results: u32,
    },
    /// A string concatenation of `args` values (see `StmtKind::Concat`), pushing the string.
    Concat {
        recipe: String,
        descriptor: String,
        args: u32,
    },
    /// A call of a procedure of the method that returns: `results` outputs, the first deepest.
    Call {
        proc: ProcId,
        args: u32,
        results: u32,
    },
    /// Pops a reference and throws `ClassCastException` unless it is null or an instance of
    /// `class`. Unlike the JVM's `checkcast` it does not push the reference back: the IR's checked
    /// variable is used by later statements as an ordinary value.
    CheckCast {
        class: String,
    },
    InstanceOf {
        class: String,
    },
    MonitorEnter,
    MonitorExit,
    LoadConst {
        value: OpaqueConst,
    },
}

impl StackOp {
    /// How many operands the operation pops.
    pub fn arity(&self) -> u32 {
        match self {
            StackOp::Binary { .. } | StackOp::PutField { .. } | StackOp::ArrayLoad { .. } => 2,
            StackOp::ArrayStore { .. } => 3,
            StackOp::Unary { .. }
            | StackOp::GetField { .. }
            | StackOp::PutStatic { .. }
            | StackOp::ArrayLength
            | StackOp::NewArray { .. }
            | StackOp::NewRefArray { .. }
            | StackOp::CheckCast { .. }
            | StackOp::InstanceOf { .. }
            | StackOp::MonitorEnter
            | StackOp::MonitorExit => 1,
            StackOp::GetStatic { .. } | StackOp::New { .. } | StackOp::LoadConst { .. } => 0,
            StackOp::NewMultiArray { dimensions, .. } => *dimensions,
            StackOp::Invoke { args, .. }
            | StackOp::InvokeDynamic { args, .. }
            | StackOp::Concat { args, .. }
            | StackOp::Call { args, .. } => *args,
        }
    }

    /// How many values the operation pushes.
    pub fn results(&self) -> u32 {
        match self {
            StackOp::PutField { .. }
            | StackOp::PutStatic { .. }
            | StackOp::ArrayStore { .. }
            | StackOp::CheckCast { .. }
            | StackOp::MonitorEnter
            | StackOp::MonitorExit => 0,
            StackOp::Invoke { results, .. }
            | StackOp::InvokeDynamic { results, .. }
            | StackOp::Call { results, .. } => *results,
            _ => 1,
        }
    }
}

/// Where exceptions of an instruction go: a call of `proc` with the exception first and then `args`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StackHandler {
    pub proc: ProcId,
    pub args: Vec<HandlerArg>,
}

/// Where a handler argument is read from when the exception happens.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "from", content = "value", rename_all = "lowercase")]
pub enum HandlerArg {
    /// An input of the procedure.
    Input(u32),
    /// A local, stored before the instruction runs.
    Local(u32),
    /// A constant.
    Const(Operand),
}

impl StackInsn {
    /// How many entries the instruction pops (for `Fetch` and `Dup`, none: they only push).
    pub fn pops(&self) -> u32 {
        match self {
            StackInsn::Push { .. }
            | StackInsn::LoadInput { .. }
            | StackInsn::Load { .. }
            | StackInsn::Dup { .. }
            | StackInsn::Fetch { .. } => 0,
            StackInsn::Store { .. } | StackInsn::Throw { .. } => 1,
            StackInsn::Pop { count } => *count,
            StackInsn::Op { op, .. } => op.arity(),
            StackInsn::Return { values } => *values,
            StackInsn::TailCall { args, .. } => *args,
        }
    }

    /// How many entries the instruction pushes.
    pub fn pushes(&self) -> u32 {
        match self {
            StackInsn::Push { .. } | StackInsn::LoadInput { .. } | StackInsn::Load { .. } | StackInsn::Fetch { .. } => {
                1
            }
            StackInsn::Dup { count } => *count,
            StackInsn::Op { op, .. } => op.results(),
            _ => 0,
        }
    }

    /// Whether the instruction only moves values (`DUP`, `FETCH`, `POP`, `STORE`, `LOAD`).
    pub fn is_manipulation(&self) -> bool {
        matches!(
            self,
            StackInsn::Dup { .. }
                | StackInsn::Fetch { .. }
                | StackInsn::Pop { .. }
                | StackInsn::Store { .. }
                | StackInsn::Load { .. }
        )
    }

    /// Whether the instruction ends the rule.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            StackInsn::Return { .. } | StackInsn::TailCall { .. } | StackInsn::Throw { .. }
        )
    }
}
