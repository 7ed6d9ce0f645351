//! The owned, resolved model of a classfile: what the rest of jresa sees instead of noak's types.
//!
//! Every constant-pool reference is resolved to strings and numbers; branch targets are absolute
//! bytecode offsets; nothing here borrows from the input bytes.

/// Where a class came from: a file path, or `archive!entry` for a member of a jar or jmod.
pub type Origin = String;

/// One parsed class.
#[derive(Clone, Debug)]
pub struct ClassFile {
    /// The internal (slash-separated) name, e.g. `java/lang/String`.
    pub name: String,
    /// The internal name of the superclass; `None` only for `java/lang/Object` and `module-info`.
    pub super_name: Option<String>,
    /// Internal names of the directly implemented interfaces.
    pub interfaces: Vec<String>,
    /// Access flags (`ACC_PUBLIC` = 0x0001, `ACC_INTERFACE` = 0x0200, `ACC_ABSTRACT` = 0x0400, ...).
    pub access: u16,
    /// Major classfile version (45 = Java 1.1 ... 61 = Java 17, 65 = Java 21).
    pub major_version: u16,
    /// Minor classfile version.
    pub minor_version: u16,
    /// The `SourceFile` attribute, when present.
    pub source_file: Option<String>,
    /// Declared fields.
    pub fields: Vec<Field>,
    /// Declared methods, in classfile order.
    pub methods: Vec<Method>,
    /// Runtime visible and invisible annotations on the class.
    pub annotations: Vec<Annotation>,
    /// The `BootstrapMethods` attribute (what `invokedynamic` sites link through), by index.
    pub bootstrap_methods: Vec<BootstrapMethod>,
    /// Where the class was read from.
    pub origin: Origin,
}

/// A bootstrap method: its method handle, rendered as a `Constant::MethodHandle` is
/// (`invokestatic java/lang/invoke/LambdaMetafactory.metafactory:(...)...`), and its static
/// arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct BootstrapMethod {
    pub handle: String,
    pub arguments: Vec<Constant>,
}

/// A field declaration.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub annotations: Vec<Annotation>,
    /// The `ConstantValue` attribute: the initial value of a `static final` field of primitive or
    /// `String` type (an `Int`, `Long`, `Float`, `Double` or `String` constant).
    pub constant_value: Option<Constant>,
}

/// A method declaration.
#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// The `Code` attribute: `None` for abstract and native methods, `Some(Err(..))` when the
    /// attribute is present but could not be decoded (the rest of the class is still usable).
    pub code: Option<Result<Code, CodeError>>,
    /// Runtime visible and invisible annotations on the method.
    pub annotations: Vec<Annotation>,
}

/// Why a method's code could not be decoded: the offset of the offending instruction when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError {
    pub offset: Option<u32>,
    pub message: String,
}

/// A decoded `Code` attribute.
#[derive(Clone, Debug)]
pub struct Code {
    pub max_stack: u16,
    pub max_locals: u16,
    /// Instructions in offset order; `instructions[k].pc` is strictly increasing.
    pub instructions: Vec<Instruction>,
    /// The exception table, in classfile order (which is the JVM's matching order).
    pub exception_table: Vec<ExceptionHandler>,
    /// `LineNumberTable` entries `(start_pc, line)`, sorted by `start_pc`.
    pub line_numbers: Vec<(u32, u32)>,
    /// `LocalVariableTable` entries (present when compiled with `-g`).
    pub local_variables: Vec<LocalVariable>,
    /// Total length of the bytecode array in bytes.
    pub code_length: u32,
}

/// One exception-table entry: `[start, end)` is protected, control goes to `handler`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExceptionHandler {
    pub start: u32,
    pub end: u32,
    pub handler: u32,
    /// Internal name of the caught class; `None` catches everything (`finally`).
    pub catch_type: Option<String>,
}

/// One `LocalVariableTable` entry: slot `index` holds `name` over `[start, start + length)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalVariable {
    pub start: u32,
    pub length: u32,
    pub name: String,
    pub descriptor: String,
    pub index: u16,
}

/// An annotation with its element values.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// The annotation type's field descriptor, e.g. `Ljresa/spec/Requires;`.
    pub type_descriptor: String,
    /// `true` for `RuntimeVisibleAnnotations`, `false` for `RuntimeInvisibleAnnotations`.
    pub visible: bool,
    pub elements: Vec<(String, ElementValue)>,
}

/// An annotation element value.
#[derive(Clone, Debug, PartialEq)]
pub enum ElementValue {
    /// `B`, `C`, `I`, `S`, `Z` values, with the tag character.
    Int(char, i32),
    Long(i64),
    Float(f32),
    Double(f64),
    String(String),
    Enum {
        type_descriptor: String,
        constant: String,
    },
    /// A class literal, as its return descriptor (e.g. `Ljava/lang/String;` or `V`).
    Class(String),
    Annotation(Box<Annotation>),
    Array(Vec<ElementValue>),
}

/// A decoded instruction at its bytecode offset.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub pc: u32,
    pub insn: Insn,
}

/// The computational kind of a value on the operand stack or in a local slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Int,
    Long,
    Float,
    Double,
    Reference,
}

/// The element kind of an array access (`baload` serves both byte and boolean arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    Int,
    Long,
    Float,
    Double,
    Reference,
    ByteOrBoolean,
    Char,
    Short,
}

/// A primitive array type for `newarray`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveType {
    Boolean,
    Char,
    Float,
    Double,
    Byte,
    Short,
    Int,
    Long,
}

/// Binary arithmetic and bitwise operators (`iadd`, `lshl`, `drem`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
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
}

/// The condition of a conditional branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    Eq,
    Ne,
    Lt,
    Ge,
    Gt,
    Le,
}

/// Which `invoke*` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    Static,
    Special,
    Virtual,
    Interface,
}

/// A resolved field reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldRef {
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// A resolved method reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MethodRef {
    pub class: String,
    pub name: String,
    pub descriptor: String,
    /// Whether the constant was an `InterfaceMethodref`.
    pub interface: bool,
}

/// A loadable constant (`ldc`, `ldc_w`, `ldc2_w`).
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    Int(i32),
    Float(f32),
    Long(i64),
    Double(f64),
    String(String),
    /// A class literal, by internal name (or array descriptor).
    Class(String),
    MethodType(String),
    /// A method handle, rendered as `kind owner.name:descriptor` (e.g. `invokestatic Foo.bar:(I)V`).
    MethodHandle(String),
    /// A dynamically computed constant: its name and field descriptor.
    Dynamic {
        name: String,
        descriptor: String,
    },
}

/// An instruction with every operand resolved. Branch targets are absolute offsets.
/// `bipush`, `sipush`, `iconst_*` all become `IConst`; `*load_n` become `Load`; `wide` is folded in.
#[derive(Clone, Debug, PartialEq)]
pub enum Insn {
    Nop,
    AConstNull,
    IConst(i32),
    LConst(i64),
    FConst(f32),
    DConst(f64),
    Ldc(Constant),
    Load(Kind, u16),
    Store(Kind, u16),
    ArrayLoad(ArrayKind),
    ArrayStore(ArrayKind),
    Pop,
    Pop2,
    Dup,
    DupX1,
    DupX2,
    Dup2,
    Dup2X1,
    Dup2X2,
    Swap,
    /// Binary arithmetic on `Int`, `Long`, `Float` or `Double` operands.
    Arith(Kind, ArithOp),
    Neg(Kind),
    /// `iinc slot, delta` (also the `wide` form).
    IInc(u16, i32),
    /// `i2l`, `l2f`, ... : from one kind to another.
    Convert(Kind, Kind),
    /// `i2b`, `i2c`, `i2s`.
    IntToByte,
    IntToChar,
    IntToShort,
    LCmp,
    /// `fcmpl` (false) / `fcmpg` (true).
    FCmp {
        nan_is_greater: bool,
    },
    /// `dcmpl` (false) / `dcmpg` (true).
    DCmp {
        nan_is_greater: bool,
    },
    /// `ifeq` ... `ifle`: compares the int on top of the stack with zero.
    IfZero(Condition, u32),
    /// `if_icmpeq` ... `if_icmple`.
    IfICmp(Condition, u32),
    /// `if_acmpeq` (Eq) / `if_acmpne` (Ne).
    IfACmp(Condition, u32),
    IfNull(u32),
    IfNonNull(u32),
    Goto(u32),
    Jsr(u32),
    Ret(u16),
    TableSwitch {
        default: u32,
        low: i32,
        high: i32,
        targets: Vec<u32>,
    },
    LookupSwitch {
        default: u32,
        pairs: Vec<(i32, u32)>,
    },
    /// `ireturn` ... `areturn` (`Some`), `return` (`None`).
    Return(Option<Kind>),
    GetStatic(FieldRef),
    PutStatic(FieldRef),
    GetField(FieldRef),
    PutField(FieldRef),
    Invoke(InvokeKind, MethodRef),
    InvokeDynamic {
        name: String,
        descriptor: String,
        bootstrap_index: u16,
    },
    New(String),
    NewArray(PrimitiveType),
    /// `anewarray` with the component class's internal name (or array descriptor).
    ANewArray(String),
    ArrayLength,
    AThrow,
    CheckCast(String),
    InstanceOf(String),
    MonitorEnter,
    MonitorExit,
    /// `multianewarray` with the array type's descriptor and the number of dimensions.
    MultiANewArray(String, u8),
}
