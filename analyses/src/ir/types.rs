//! The data types of the rule-based IR: methods, procedures, guarded rules, statements, operands.
//!
//! A method is a set of procedures `p(x̄; ȳ)`, each defined by guarded rules
//! `p(x̄; ȳ) ← guard, s1, …, sn` (COSTA's rule-based form). There is no operand stack, guards are the
//! only conditional and recursion is the only iteration. Each rule is in SSA form: a variable is
//! assigned at most once in a rule and inputs are never assigned. Variables are declared once per
//! method and scoped to a rule, so the same variable may be assigned in several rules.

use serde::Serialize;
use std::fmt;

macro_rules! index_newtype {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The position of the item in its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of the item at position `index`; panics only past `u32::MAX` items.
            pub fn from_index(index: usize) -> Self {
                Self(u32::try_from(index).expect("IR tables hold fewer than 2^32 items"))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

index_newtype!(
    /// A variable of a method, indexing `MethodIr::vars`.
    VarId,
    "v"
);
index_newtype!(
    /// A procedure of a method, indexing `MethodIr::procs`.
    ProcId,
    "p"
);
index_newtype!(
    /// A rule of a procedure, indexing `Procedure::rules`.
    RuleId,
    "r"
);

/// The type of a variable. `boolean`, `byte`, `char` and `short` values are `Int`, as on the JVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ty {
    Int,
    Long,
    Float,
    Double,
    Ref,
}

impl Ty {
    /// The type's keyword in the textual IR.
    pub fn keyword(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Long => "long",
            Ty::Float => "float",
            Ty::Double => "double",
            Ty::Ref => "ref",
        }
    }

    /// The type of a value described by a JVM field descriptor (`I`, `J`, `Ljava/lang/String;`, `[I`...).
    /// Returns `None` for `V` and malformed descriptors.
    pub fn from_descriptor(descriptor: &str) -> Option<Ty> {
        match descriptor.as_bytes().first()? {
            b'Z' | b'B' | b'C' | b'S' | b'I' => Some(Ty::Int),
            b'J' => Some(Ty::Long),
            b'F' => Some(Ty::Float),
            b'D' => Some(Ty::Double),
            b'L' | b'[' => Some(Ty::Ref),
            _ => None,
        }
    }
}

/// The source name of an IR variable: the IR makes names unique and keeps words of its grammar
/// free by a `#k` suffix (a parameter `rule` is `rule#2` there).
pub fn source_name(name: &str) -> &str {
    match name.rsplit_once('#') {
        Some((base, k)) if !base.is_empty() && !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()) => base,
        _ => name,
    }
}

/// A declared variable: a name unique within its method and a type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
}

/// A constant or a variable: the only things statements and guards operate on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Operand {
    Var(VarId),
    Int(i32),
    Long(i64),
    /// A float constant, stored as its IEEE bits so that every NaN payload survives.
    Float(u32),
    /// A double constant, stored as its IEEE bits.
    Double(u64),
    Null,
    /// A string literal (a `java/lang/String` reference).
    Str(String),
    /// A class literal (a `java/lang/Class` reference), by internal name or array descriptor.
    Class(String),
}

impl Operand {
    /// The variable, when the operand is one.
    pub fn as_var(&self) -> Option<VarId> {
        match self {
            Operand::Var(v) => Some(*v),
            _ => None,
        }
    }
}

/// A comparison operator of a guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The operator's symbol in the textual IR.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// The operator that holds exactly when this one does not.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// The operator with its operands swapped (`a < b` iff `b > a`).
    pub fn swap(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
        }
    }
}

/// One conjunct of a rule's guard. Guards mention only the procedure's inputs and constants.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Cond {
    /// `lhs op rhs` on two ints, two longs, or (only `==`/`!=`) two references.
    Cmp { op: CmpOp, lhs: Operand, rhs: Operand },
    /// `value instanceof class` (or its negation); `null` is an instance of nothing.
    InstanceOf {
        value: Operand,
        class: String,
        negated: bool,
    },
}

/// Binary operators of the JVM's arithmetic instructions, with the operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Ushr,
    /// `lcmp`: -1, 0 or 1.
    Cmp,
    /// `fcmpl` / `dcmpl`: like `Cmp`, -1 when either operand is NaN.
    CmpL,
    /// `fcmpg` / `dcmpg`: like `Cmp`, 1 when either operand is NaN.
    CmpG,
}

/// Unary operators: negation and the JVM's conversions (the target type is the result variable's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnOp {
    Neg,
    /// `i2l`, `l2i`, `f2d`, ... : converts to the destination's type.
    Convert,
    /// `i2b`: truncates an int to a signed byte.
    IntToByte,
    /// `i2c`: truncates an int to an unsigned char.
    IntToChar,
    /// `i2s`: truncates an int to a signed short.
    IntToShort,
}

/// The element type of an array access; `Byte` covers `boolean[]` too, as `baload` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemTy {
    Int,
    Long,
    Float,
    Double,
    Ref,
    Byte,
    Char,
    Short,
}

impl ElemTy {
    /// The type of the value loaded from or stored into such an array.
    pub fn value_ty(self) -> Ty {
        match self {
            ElemTy::Int | ElemTy::Byte | ElemTy::Char | ElemTy::Short => Ty::Int,
            ElemTy::Long => Ty::Long,
            ElemTy::Float => Ty::Float,
            ElemTy::Double => Ty::Double,
            ElemTy::Ref => Ty::Ref,
        }
    }

    /// The JVM mnemonic prefix (`i`, `l`, `f`, `d`, `a`, `b`, `c`, `s`).
    pub fn prefix(self) -> &'static str {
        match self {
            ElemTy::Int => "i",
            ElemTy::Long => "l",
            ElemTy::Float => "f",
            ElemTy::Double => "d",
            ElemTy::Ref => "a",
            ElemTy::Byte => "b",
            ElemTy::Char => "c",
            ElemTy::Short => "s",
        }
    }
}

/// A primitive element type of `newarray`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PrimTy {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
}

impl PrimTy {
    /// The Java keyword of the type.
    pub fn keyword(self) -> &'static str {
        match self {
            PrimTy::Boolean => "boolean",
            PrimTy::Byte => "byte",
            PrimTy::Char => "char",
            PrimTy::Short => "short",
            PrimTy::Int => "int",
            PrimTy::Long => "long",
            PrimTy::Float => "float",
            PrimTy::Double => "double",
        }
    }
}

/// A field, by owner class (internal name), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FieldRef {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// A method, by owner class (internal name or array descriptor), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct MethodRef {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// How a method call is dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CallKind {
    Static,
    /// Constructors, private methods and `super` calls: no virtual dispatch.
    Special,
    /// Dispatch on the receiver's class (resolved by class-hierarchy analysis where needed).
    Virtual,
    Interface,
}

/// A loadable constant that is not an operand: produced by `ldc` into a reference variable.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum OpaqueConst {
    MethodType(String),
    MethodHandle(String),
    /// A dynamically computed constant: its name and field descriptor.
    Dynamic {
        name: String,
        descriptor: String,
    },
}

/// What a statement does. Results go to fresh variables (SSA within the rule).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "stmt", rename_all = "snake_case")]
pub enum StmtKind {
    /// `dst = src`.
    Assign {
        dst: VarId,
        src: Operand,
    },
    /// `dst = lhs op rhs` on operands of type `ty` (shift counts are always int).
    Binary {
        dst: VarId,
        op: BinOp,
        ty: Ty,
        lhs: Operand,
        rhs: Operand,
    },
    /// `dst = op src` where `src` has type `from` and `dst` has its own declared type.
    Unary {
        dst: VarId,
        op: UnOp,
        from: Ty,
        src: Operand,
    },
    GetField {
        dst: VarId,
        object: Operand,
        field: FieldRef,
    },
    PutField {
        object: Operand,
        field: FieldRef,
        value: Operand,
    },
    GetStatic {
        dst: VarId,
        field: FieldRef,
    },
    PutStatic {
        field: FieldRef,
        value: Operand,
    },
    ArrayLoad {
        dst: VarId,
        elem: ElemTy,
        array: Operand,
        index: Operand,
    },
    ArrayStore {
        elem: ElemTy,
        array: Operand,
        index: Operand,
        value: Operand,
    },
    ArrayLength {
        dst: VarId,
        array: Operand,
    },
    /// Allocates an object of `class` (its constructor is a separate `Special` call).
    New {
        dst: VarId,
        class: String,
    },
    NewArray {
        dst: VarId,
        elem: PrimTy,
        length: Operand,
    },
    /// `anewarray`: an array of references whose component is `class`.
    NewRefArray {
        dst: VarId,
        class: String,
        length: Operand,
    },
    /// `multianewarray` of the array type `descriptor` with one length per created dimension.
    NewMultiArray {
        dst: VarId,
        descriptor: String,
        lengths: Vec<Operand>,
    },
    /// A method call; `dst` is `None` exactly when the method returns `void`.
    Invoke {
        dst: Option<VarId>,
        kind: CallKind,
        interface: bool,
        method: MethodRef,
        args: Vec<Operand>,
    },
    /// `invokedynamic`: a call whose target is unknown statically.
    InvokeDynamic {
        dst: Option<VarId>,
        name: String,
        descriptor: String,
        bootstrap: u16,
        args: Vec<Operand>,
    },
    /// String concatenation: an `invokedynamic` that `StringConcatFactory.makeConcatWithConstants`
    /// links. `recipe` is the result's text with `\u{1}` where each argument goes, in order (the
    /// site's constants are written into it); `descriptor` is the site's method type, in which
    /// every reference argument is a `String`: lifting passes other references through
    /// `String.valueOf(Object)` first, as the JDK's concatenation calls their `toString`. What it
    /// costs under each model is written in `cost_model`.
    Concat {
        dst: VarId,
        recipe: String,
        descriptor: String,
        args: Vec<Operand>,
    },
    /// A call of a procedure of the same method: inputs by value, outputs into fresh variables.
    Call {
        proc: ProcId,
        args: Vec<Operand>,
        outs: Vec<VarId>,
    },
    /// Throws `ClassCastException` unless `value` is null or an instance of `class`.
    CheckCast {
        value: Operand,
        class: String,
    },
    /// `dst = 1` if `value` is a non-null instance of `class`, else `0`.
    InstanceOf {
        dst: VarId,
        value: Operand,
        class: String,
    },
    MonitorEnter {
        value: Operand,
    },
    MonitorExit {
        value: Operand,
    },
    /// Loads a method type, method handle or dynamic constant.
    LoadConst {
        dst: VarId,
        value: OpaqueConst,
    },
    /// Throws `value` (a `NullPointerException` if it is null); always the last statement of its rule.
    Throw {
        value: Operand,
    },
}

/// Where exceptions raised by a statement go: a call, in tail position, of a handler procedure whose
/// first input receives the exception and whose other inputs receive `args`. Exceptions from a
/// statement without a handler edge propagate out of the procedure (and out of its callers).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HandlerEdge {
    pub proc: ProcId,
    pub args: Vec<Operand>,
}

/// A statement with its origin: the offset of its JVM instruction and the number of JVM bytecodes
/// the rule has executed up to and including that instruction (what an exception here has cost).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    pub pc: u32,
    pub bytecodes: u32,
    pub kind: StmtKind,
    pub handler: Option<HandlerEdge>,
}

/// A guarded rule: when `guard` holds on the procedure's inputs, the body runs. `bytecodes` is the
/// number of JVM bytecodes executed when the rule runs to its end (calls' callees not included).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    pub guard: Vec<Cond>,
    pub body: Vec<Stmt>,
    pub bytecodes: u32,
}

/// What a procedure stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProcKind {
    /// The method's entry when its first block is a loop header: takes every parameter.
    Entry,
    /// A basic block.
    Block,
    /// A loop header: the loop as a recursive procedure whose outputs are what the loop changes.
    Loop,
    /// The guarded continuation of a block whose branch condition it computed itself.
    Branch,
    /// Dispatch after a loop returns, on its exit selector.
    Exit,
    /// Exception dispatch to the handlers covering a statement, in exception-table order.
    Handler,
}

impl ProcKind {
    /// The kind's keyword in the textual IR.
    pub fn keyword(self) -> &'static str {
        match self {
            ProcKind::Entry => "entry",
            ProcKind::Block => "block",
            ProcKind::Loop => "loop",
            ProcKind::Branch => "branch",
            ProcKind::Exit => "exit",
            ProcKind::Handler => "handler",
        }
    }
}

/// A procedure `name(inputs; outputs)` defined by its rules, with the bytecode offset it stands for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Procedure {
    pub name: String,
    pub kind: ProcKind,
    pub pc: u32,
    pub inputs: Vec<VarId>,
    pub outputs: Vec<VarId>,
    pub rules: Vec<Rule>,
}

/// A lifted method: its variables, its procedures and the entry procedure, whose inputs are the
/// method's parameters (`this` first for instance methods) and whose outputs are its return value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodIr {
    /// The declaring class's internal name.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub is_static: bool,
    /// The `SourceFile` attribute of the declaring class.
    pub source_file: Option<String>,
    /// `(pc, line)` pairs from the `LineNumberTable`, sorted by pc.
    pub lines: Vec<(u32, u32)>,
    pub vars: Vec<VarDecl>,
    pub procs: Vec<Procedure>,
    pub entry: ProcId,
    /// Inputs the analyses added for heap locations a loop reads and never writes (`ghosts.rs`):
    /// they hold no value of the method's own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ghosts: Vec<VarId>,
    /// Where the analyses gave the method's code the numeric fields of its parameters' objects at
    /// entry as inputs (`entry_fields.rs`): `entry` is then a wrapper that passes them unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_entry: Option<HeapEntry>,
}

/// The procedure that runs the method's code with the entry values of numeric fields of its
/// parameters' objects as inputs after the parameters: per such input, the parameter's position
/// and the field's name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeapEntry {
    pub inner: ProcId,
    pub fields: Vec<(usize, String)>,
}

impl MethodIr {
    /// The declaration of a variable.
    pub fn var(&self, var: VarId) -> &VarDecl {
        &self.vars[var.index()]
    }

    /// A procedure.
    pub fn proc(&self, proc: ProcId) -> &Procedure {
        &self.procs[proc.index()]
    }

    /// The source line of a bytecode offset, when the `LineNumberTable` covers it.
    pub fn line_of(&self, pc: u32) -> Option<u32> {
        let after = self.lines.partition_point(|&(start, _)| start <= pc);
        after.checked_sub(1).map(|k| self.lines[k].1)
    }

    /// The type of an operand (`None` for a variable id outside the table).
    pub fn operand_ty(&self, operand: &Operand) -> Option<Ty> {
        Some(match operand {
            Operand::Var(v) => self.vars.get(v.index())?.ty,
            Operand::Int(_) => Ty::Int,
            Operand::Long(_) => Ty::Long,
            Operand::Float(_) => Ty::Float,
            Operand::Double(_) => Ty::Double,
            Operand::Null | Operand::Str(_) | Operand::Class(_) => Ty::Ref,
        })
    }

    /// `Class.name(descriptor)`, with dots in the class name, for messages.
    pub fn display_name(&self) -> String {
        format!("{}.{}{}", self.class.replace('/', "."), self.name, self.descriptor)
    }
}

/// A set of lifted methods: what the printer prints and the parser reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Program {
    pub methods: Vec<MethodIr>,
}

impl StmtKind {
    /// The variables this statement defines, in order.
    pub fn defs(&self) -> Vec<VarId> {
        match self {
            StmtKind::Assign { dst, .. }
            | StmtKind::Binary { dst, .. }
            | StmtKind::Unary { dst, .. }
            | StmtKind::GetField { dst, .. }
            | StmtKind::GetStatic { dst, .. }
            | StmtKind::ArrayLoad { dst, .. }
            | StmtKind::ArrayLength { dst, .. }
            | StmtKind::New { dst, .. }
            | StmtKind::NewArray { dst, .. }
            | StmtKind::NewRefArray { dst, .. }
            | StmtKind::NewMultiArray { dst, .. }
            | StmtKind::InstanceOf { dst, .. }
            | StmtKind::Concat { dst, .. }
            | StmtKind::LoadConst { dst, .. } => vec![*dst],
            StmtKind::Invoke { dst, .. } | StmtKind::InvokeDynamic { dst, .. } => dst.iter().copied().collect(),
            StmtKind::Call { outs, .. } => outs.clone(),
            StmtKind::PutField { .. }
            | StmtKind::PutStatic { .. }
            | StmtKind::ArrayStore { .. }
            | StmtKind::CheckCast { .. }
            | StmtKind::MonitorEnter { .. }
            | StmtKind::MonitorExit { .. }
            | StmtKind::Throw { .. } => Vec::new(),
        }
    }

    /// The operands this statement reads, in order.
    pub fn uses(&self) -> Vec<&Operand> {
        match self {
            StmtKind::Assign { src, .. } | StmtKind::Unary { src, .. } => vec![src],
            StmtKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            StmtKind::GetField { object, .. } => vec![object],
            StmtKind::PutField { object, value, .. } => vec![object, value],
            StmtKind::GetStatic { .. } | StmtKind::New { .. } | StmtKind::LoadConst { .. } => Vec::new(),
            StmtKind::PutStatic { value, .. } => vec![value],
            StmtKind::ArrayLoad { array, index, .. } => vec![array, index],
            StmtKind::ArrayStore {
                array, index, value, ..
            } => vec![array, index, value],
            StmtKind::ArrayLength { array, .. } => vec![array],
            StmtKind::NewArray { length, .. } | StmtKind::NewRefArray { length, .. } => {
                vec![length]
            }
            StmtKind::NewMultiArray { lengths, .. } => lengths.iter().collect(),
            StmtKind::Invoke { args, .. }
            | StmtKind::InvokeDynamic { args, .. }
            | StmtKind::Concat { args, .. }
            | StmtKind::Call { args, .. } => args.iter().collect(),
            StmtKind::CheckCast { value, .. }
            | StmtKind::InstanceOf { value, .. }
            | StmtKind::MonitorEnter { value }
            | StmtKind::MonitorExit { value }
            | StmtKind::Throw { value } => vec![value],
        }
    }

    /// The operands this statement reads, in order, to rewrite.
    pub fn uses_mut(&mut self) -> Vec<&mut Operand> {
        match self {
            StmtKind::Assign { src, .. } | StmtKind::Unary { src, .. } => vec![src],
            StmtKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            StmtKind::GetField { object, .. } => vec![object],
            StmtKind::PutField { object, value, .. } => vec![object, value],
            StmtKind::GetStatic { .. } | StmtKind::New { .. } | StmtKind::LoadConst { .. } => Vec::new(),
            StmtKind::PutStatic { value, .. } => vec![value],
            StmtKind::ArrayLoad { array, index, .. } => vec![array, index],
            StmtKind::ArrayStore {
                array, index, value, ..
            } => vec![array, index, value],
            StmtKind::ArrayLength { array, .. } => vec![array],
            StmtKind::NewArray { length, .. } | StmtKind::NewRefArray { length, .. } => {
                vec![length]
            }
            StmtKind::NewMultiArray { lengths, .. } => lengths.iter_mut().collect(),
            StmtKind::Invoke { args, .. }
            | StmtKind::InvokeDynamic { args, .. }
            | StmtKind::Concat { args, .. }
            | StmtKind::Call { args, .. } => args.iter_mut().collect(),
            StmtKind::CheckCast { value, .. }
            | StmtKind::InstanceOf { value, .. }
            | StmtKind::MonitorEnter { value }
            | StmtKind::MonitorExit { value }
            | StmtKind::Throw { value } => vec![value],
        }
    }

    /// Whether executing the statement can raise an exception (and so may carry a handler edge).
    pub fn can_throw(&self) -> bool {
        match self {
            // A concatenation only allocates (the JVM's resource limits aside).
            StmtKind::Assign { .. }
            | StmtKind::Unary { .. }
            | StmtKind::InstanceOf { .. }
            | StmtKind::Concat { .. } => false,
            StmtKind::Binary { op, ty, .. } => {
                matches!((op, ty), (BinOp::Div | BinOp::Rem, Ty::Int | Ty::Long))
            }
            _ => true,
        }
    }

    /// The JVM exception classes the statement itself raises (besides whatever a callee, a class
    /// initializer or the JVM's resource limits raise): its row of `ir::exceptions`.
    pub fn implicit_exceptions(&self) -> &'static [&'static str] {
        super::exceptions::of_stmt(self)
    }
}

/// The parameter descriptors and the return descriptor of a method descriptor
/// (`(I[JLjava/lang/String;)V` → `["I", "[J", "Ljava/lang/String;"]` and `"V"`); `None` when
/// malformed.
pub fn split_method_descriptor(descriptor: &str) -> Option<(Vec<&str>, &str)> {
    let rest = descriptor.strip_prefix('(')?;
    let (params, ret) = rest.split_once(')')?;
    let mut out = Vec::new();
    let bytes = params.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        let start = k;
        while bytes.get(k) == Some(&b'[') {
            k += 1;
        }
        match bytes.get(k)? {
            b'L' => k += params[k..].find(';')? + 1,
            b'Z' | b'B' | b'C' | b'S' | b'I' | b'J' | b'F' | b'D' => k += 1,
            _ => return None,
        }
        out.push(&params[start..k]);
    }
    Some((out, ret))
}

/// The Java names of the field types in a descriptor's parameter list (unreadable text as is).
/// The Java names of the parameter types of the method descriptor in `text` (the first
/// parenthesised list, so a procedure's name `C.m(I[J)V/b4` serves as well); `None` without one.
pub fn java_parameters_of(text: &str) -> Option<Vec<String>> {
    let (_, rest) = text.split_once('(')?;
    let (parameters, _) = rest.split_once(')')?;
    Some(java_parameter_types(parameters))
}

pub fn java_parameter_types(mut text: &str) -> Vec<String> {
    let mut types = Vec::new();
    while !text.is_empty() {
        let dimensions = text.len() - text.trim_start_matches('[').len();
        text = &text[dimensions..];
        let (base, rest) = match text.chars().next() {
            Some('L') => match text.split_once(';') {
                Some((class, rest)) => (class[1..].rsplit('/').next().unwrap_or(class).to_owned(), rest),
                None => (text.to_owned(), ""),
            },
            Some(c) => (
                java_primitive(c).unwrap_or(&text[..c.len_utf8()]).to_owned(),
                &text[c.len_utf8()..],
            ),
            None => (String::new(), ""),
        };
        types.push(format!("{base}{}", "[]".repeat(dimensions)));
        text = rest;
    }
    types
}

fn java_primitive(c: char) -> Option<&'static str> {
    Some(match c {
        'B' => "byte",
        'C' => "char",
        'D' => "double",
        'F' => "float",
        'I' => "int",
        'J' => "long",
        'S' => "short",
        'Z' => "boolean",
        'V' => "void",
        _ => return None,
    })
}

/// Parameter and return types of a method descriptor; `None` when malformed. `Some(None)` is `void`.
pub fn parse_method_descriptor(descriptor: &str) -> Option<(Vec<Ty>, Option<Ty>)> {
    let (params, ret) = split_method_descriptor(descriptor)?;
    let types = params
        .iter()
        .map(|p| Ty::from_descriptor(p))
        .collect::<Option<Vec<Ty>>>()?;
    let ret = if ret == "V" {
        None
    } else {
        Some(Ty::from_descriptor(ret)?)
    };
    Some((types, ret))
}

/// Applies `f` to every variable occurrence of a method: signatures, guards, statements, edges.
pub fn visit_vars_mut(method: &mut MethodIr, mut f: impl FnMut(&mut VarId)) {
    let operand = |o: &mut Operand, f: &mut dyn FnMut(&mut VarId)| {
        if let Operand::Var(v) = o {
            f(v);
        }
    };
    for proc in &mut method.procs {
        proc.inputs.iter_mut().chain(proc.outputs.iter_mut()).for_each(&mut f);
        for rule in &mut proc.rules {
            for cond in &mut rule.guard {
                match cond {
                    Cond::Cmp { lhs, rhs, .. } => {
                        operand(lhs, &mut f);
                        operand(rhs, &mut f);
                    }
                    Cond::InstanceOf { value, .. } => operand(value, &mut f),
                }
            }
            for stmt in &mut rule.body {
                if let Some(edge) = &mut stmt.handler {
                    edge.args.iter_mut().for_each(|a| operand(a, &mut f));
                }
                match &mut stmt.kind {
                    StmtKind::Assign { dst, src } | StmtKind::Unary { dst, src, .. } => {
                        f(dst);
                        operand(src, &mut f);
                    }
                    StmtKind::Binary { dst, lhs, rhs, .. } => {
                        f(dst);
                        operand(lhs, &mut f);
                        operand(rhs, &mut f);
                    }
                    StmtKind::GetField { dst, object, .. } => {
                        f(dst);
                        operand(object, &mut f);
                    }
                    StmtKind::PutField { object, value, .. } => {
                        operand(object, &mut f);
                        operand(value, &mut f);
                    }
                    StmtKind::GetStatic { dst, .. } | StmtKind::New { dst, .. } | StmtKind::LoadConst { dst, .. } => {
                        f(dst)
                    }
                    StmtKind::PutStatic { value, .. }
                    | StmtKind::CheckCast { value, .. }
                    | StmtKind::MonitorEnter { value }
                    | StmtKind::MonitorExit { value }
                    | StmtKind::Throw { value } => operand(value, &mut f),
                    StmtKind::ArrayLoad { dst, array, index, .. } => {
                        f(dst);
                        operand(array, &mut f);
                        operand(index, &mut f);
                    }
                    StmtKind::ArrayStore {
                        array, index, value, ..
                    } => {
                        operand(array, &mut f);
                        operand(index, &mut f);
                        operand(value, &mut f);
                    }
                    StmtKind::ArrayLength { dst, array } => {
                        f(dst);
                        operand(array, &mut f);
                    }
                    StmtKind::NewArray { dst, length, .. } | StmtKind::NewRefArray { dst, length, .. } => {
                        f(dst);
                        operand(length, &mut f);
                    }
                    StmtKind::NewMultiArray { dst, lengths, .. } => {
                        f(dst);
                        lengths.iter_mut().for_each(|l| operand(l, &mut f));
                    }
                    StmtKind::Invoke { dst, args, .. } | StmtKind::InvokeDynamic { dst, args, .. } => {
                        if let Some(dst) = dst {
                            f(dst);
                        }
                        args.iter_mut().for_each(|a| operand(a, &mut f));
                    }
                    StmtKind::Concat { dst, args, .. } => {
                        f(dst);
                        args.iter_mut().for_each(|a| operand(a, &mut f));
                    }
                    StmtKind::Call { args, outs, .. } => {
                        args.iter_mut().for_each(|a| operand(a, &mut f));
                        outs.iter_mut().for_each(&mut f);
                    }
                    StmtKind::InstanceOf { dst, value, .. } => {
                        f(dst);
                        operand(value, &mut f);
                    }
                }
            }
        }
    }
}
