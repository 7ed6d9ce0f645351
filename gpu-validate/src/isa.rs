//! The packaged instruction set and record layouts: everything the interpreter reads is a `u32`
//! word in a flat array, addressed by handles (indices), so that a GPU kernel can run the same
//! arrays.
//!
//! **Instructions** are an opcode word followed by a fixed number of operand words
//! ([`length`]). Instructions that can raise an exception end with two *throw-info* words: the JVM
//! bytecodes executed up to and including the statement (charged when an exception leaves the rule
//! there) and a handler index into [`crate::package::Package::handlers`] (or [`NONE`]). Values on
//! the operand stack are words; `long` and `double` take two (low word first), references are heap
//! word indices with 0 for `null`.
//!
//! A procedure's code is its rules in order, each a guard (instructions that jump to the next rule
//! when a conjunct fails) followed by the rule's stack code, ended by one terminator (`RETURN`,
//! `TAILCALL`, `THROW`); after the last rule comes `NO_RULE`, which no verified method reaches.

/// "No handle" in every table.
pub const NONE: u32 = u32::MAX;

/// Words of one class record in `Package::classes`.
pub const CLASS_WORDS: usize = 16;
/// Fields of a class record (offsets within it).
pub mod class {
    /// `FLAG_*` bits.
    pub const FLAGS: usize = 0;
    /// The superclass's handle or `NONE`.
    pub const SUPER: usize = 1;
    /// Words of the instance fields (an object is a header word and then its fields).
    pub const INSTANCE_WORDS: usize = 2;
    /// Where the class's static fields start in the statics area, and how many words they take.
    pub const STATIC_BASE: usize = 3;
    pub const STATIC_WORDS: usize = 4;
    /// The class and all its supertypes, as a range of `Package::supertypes`.
    pub const SUPERS_START: usize = 5;
    pub const SUPERS_COUNT: usize = 6;
    /// The classes to initialise, in order, before the class counts as initialised (superclasses
    /// first, then superinterfaces with default methods, the class itself last), as a range of
    /// `Package::init_lists`.
    pub const INIT_START: usize = 7;
    pub const INIT_COUNT: usize = 8;
    /// The `<clinit>` method handle or `NONE`.
    pub const CLINIT: usize = 9;
    /// For arrays and primitive types: the `ELEM_*` kind of the elements (or of the type).
    pub const ELEMENT: usize = 10;
    /// For arrays: the component type's class handle.
    pub const COMPONENT: usize = 11;
    /// For arrays: the number of dimensions.
    pub const DIMENSIONS: usize = 12;
    /// Constructors the VM runs when it raises an exception of this class: `()V`, `(String)V`,
    /// `(Throwable)V` method handles or `NONE`.
    pub const CTOR_VOID: usize = 13;
    pub const CTOR_STRING: usize = 14;
    pub const CTOR_THROWABLE: usize = 15;
}

pub const FLAG_INTERFACE: u32 = 1;
pub const FLAG_ABSTRACT: u32 = 2;
pub const FLAG_ARRAY: u32 = 4;
pub const FLAG_PRIMITIVE: u32 = 8;
/// The class could not be found: any instruction that needs it refuses.
pub const FLAG_MISSING: u32 = 16;
/// The class implements `java.lang.Cloneable`.
pub const FLAG_CLONEABLE: u32 = 32;

/// Element kinds of arrays (and primitive types), also the narrowing kind of field stores.
pub const ELEM_NONE: u32 = 0;
pub const ELEM_BOOLEAN: u32 = 1;
pub const ELEM_BYTE: u32 = 2;
pub const ELEM_CHAR: u32 = 3;
pub const ELEM_SHORT: u32 = 4;
pub const ELEM_INT: u32 = 5;
pub const ELEM_FLOAT: u32 = 6;
pub const ELEM_LONG: u32 = 7;
pub const ELEM_DOUBLE: u32 = 8;
pub const ELEM_REF: u32 = 9;
/// `void` (only as a primitive class).
pub const ELEM_VOID: u32 = 10;

/// Words an element of this kind takes.
pub fn element_words(kind: u32) -> u32 {
    if kind == ELEM_LONG || kind == ELEM_DOUBLE {
        2
    } else {
        1
    }
}

/// Words of one method record in `Package::methods`.
pub const METHOD_WORDS: usize = 8;
/// Fields of a method record.
pub mod method {
    pub const CLASS: usize = 0;
    /// `KIND_*`.
    pub const KIND: usize = 1;
    /// The entry procedure (`KIND_CODE`), native id (`KIND_NATIVE`) or reason (`KIND_REFUSED`).
    pub const TARGET: usize = 2;
    /// Words of the arguments (the receiver included) and of the result.
    pub const ARG_WORDS: usize = 3;
    pub const RESULT_WORDS: usize = 4;
    /// `MFLAG_*` bits.
    pub const FLAGS: usize = 5;
    /// The JVM bytecodes a native replacement of a method stands for (0 for real natives).
    pub const NATIVE_BYTECODES: usize = 6;
}

pub const KIND_CODE: u32 = 0;
pub const KIND_NATIVE: u32 = 1;
pub const KIND_REFUSED: u32 = 2;

pub const MFLAG_STATIC: u32 = 1;
/// `jresa.spec.Resource.consume(int)`: counts its argument.
pub const MFLAG_CONSUME_UNITS: u32 = 2;
/// `jresa.spec.Resource.consume()`: counts one.
pub const MFLAG_CONSUME_ONE: u32 = 4;

/// Words of one procedure record in `Package::procs`.
pub const PROC_WORDS: usize = 6;
/// Fields of a procedure record.
pub mod proc {
    pub const METHOD: usize = 0;
    /// Offset of its first rule in `Package::code`.
    pub const CODE: usize = 1;
    /// Words of its inputs, of its frame (inputs, then locals: two words per local slot), of its
    /// outputs, and the most operand-stack words a rule uses.
    pub const INPUT_WORDS: usize = 2;
    pub const FRAME_WORDS: usize = 3;
    pub const OUTPUT_WORDS: usize = 4;
    pub const MAX_STACK: usize = 5;
}

/// Handler entries in `Package::handlers`: `[proc, argument count, (kind, a, b) per argument]`;
/// the exception is the handler's first input and the arguments follow it.
pub const HARG_FRAME1: u32 = 0;
pub const HARG_FRAME2: u32 = 1;
pub const HARG_CONST1: u32 = 2;
pub const HARG_CONST2: u32 = 3;

/// Comparison codes of guards.
pub const CMP_EQ: u32 = 0;
pub const CMP_NE: u32 = 1;
pub const CMP_LT: u32 = 2;
pub const CMP_LE: u32 = 3;
pub const CMP_GT: u32 = 4;
pub const CMP_GE: u32 = 5;

/// Opcodes, with their operand words in brackets (`bc h` is the throw info).
pub mod op {
    /// `[cmp target]`: pops two ints; jumps to `target` unless `a cmp b`.
    pub const G_ICMP: u32 = 0;
    /// `[cmp target]`: pops two longs.
    pub const G_LCMP: u32 = 1;
    /// `[cmp target]`: pops two references (`EQ`/`NE` only).
    pub const G_ACMP: u32 = 2;
    /// `[class negated target]`: pops a reference; jumps unless (`value instanceof class`) != negated.
    pub const G_INSTANCEOF: u32 = 3;
    /// `[proc]`: no rule of the procedure applies (a bug in the IR): the instance is refused.
    pub const NO_RULE: u32 = 4;
    /// `[reason]`: the instance is refused with this reason (an index into `Package::reasons`).
    pub const REFUSE: u32 = 5;
    /// `[value]`, `[low high]`.
    pub const PUSH: u32 = 6;
    pub const PUSH2: u32 = 7;
    /// `[class]`: pushes the class's `java.lang.Class` mirror.
    pub const LDC_CLASS: u32 = 8;
    /// `[offset]`: frame word(s) at `offset` from the frame base.
    pub const LOAD: u32 = 9;
    pub const LOAD2: u32 = 10;
    pub const STORE: u32 = 11;
    pub const STORE2: u32 = 12;
    /// `[count]`: pushes `count` more copies of the top one- or two-word entry.
    pub const DUP: u32 = 13;
    pub const DUP2: u32 = 14;
    /// `[depth]`: pushes a copy of the entry whose first word is `depth` words below the top.
    pub const FETCH: u32 = 15;
    pub const FETCH2: u32 = 16;
    /// `[words]`.
    pub const POP: u32 = 17;

    pub const IADD: u32 = 20;
    pub const ISUB: u32 = 21;
    pub const IMUL: u32 = 22;
    pub const IAND: u32 = 23;
    pub const IOR: u32 = 24;
    pub const IXOR: u32 = 25;
    pub const ISHL: u32 = 26;
    pub const ISHR: u32 = 27;
    pub const IUSHR: u32 = 28;
    pub const INEG: u32 = 29;
    pub const LADD: u32 = 30;
    pub const LSUB: u32 = 31;
    pub const LMUL: u32 = 32;
    pub const LAND: u32 = 33;
    pub const LOR: u32 = 34;
    pub const LXOR: u32 = 35;
    pub const LSHL: u32 = 36;
    pub const LSHR: u32 = 37;
    pub const LUSHR: u32 = 38;
    pub const LNEG: u32 = 39;
    pub const LCMP: u32 = 40;
    pub const FADD: u32 = 41;
    pub const FSUB: u32 = 42;
    pub const FMUL: u32 = 43;
    pub const FDIV: u32 = 44;
    pub const FREM: u32 = 45;
    pub const FNEG: u32 = 46;
    pub const FCMPL: u32 = 47;
    pub const FCMPG: u32 = 48;
    pub const DADD: u32 = 49;
    pub const DSUB: u32 = 50;
    pub const DMUL: u32 = 51;
    pub const DDIV: u32 = 52;
    pub const DREM: u32 = 53;
    pub const DNEG: u32 = 54;
    pub const DCMPL: u32 = 55;
    pub const DCMPG: u32 = 56;
    pub const I2L: u32 = 57;
    pub const I2F: u32 = 58;
    pub const I2D: u32 = 59;
    pub const L2I: u32 = 60;
    pub const L2F: u32 = 61;
    pub const L2D: u32 = 62;
    pub const F2I: u32 = 63;
    pub const F2L: u32 = 64;
    pub const F2D: u32 = 65;
    pub const D2I: u32 = 66;
    pub const D2L: u32 = 67;
    pub const D2F: u32 = 68;
    pub const I2B: u32 = 69;
    pub const I2C: u32 = 70;
    pub const I2S: u32 = 71;
    /// `[bc h]`: division and remainder raise `ArithmeticException` on a zero divisor.
    pub const IDIV: u32 = 72;
    pub const IREM: u32 = 73;
    pub const LDIV: u32 = 74;
    pub const LREM: u32 = 75;

    /// `[offset bc h]`: pops the object, pushes the field (`offset` words after the header).
    pub const GETFIELD: u32 = 80;
    pub const GETFIELD2: u32 = 81;
    /// `[offset narrow bc h]`: pops the object and the value; `narrow` is the `ELEM_*` kind of a
    /// field narrower than `int`.
    pub const PUTFIELD: u32 = 82;
    /// `[offset bc h]`.
    pub const PUTFIELD2: u32 = 83;
    /// `[class offset bc h]`: initialises `class` first; `offset` is in the statics area.
    pub const GETSTATIC: u32 = 84;
    pub const GETSTATIC2: u32 = 85;
    /// `[class offset narrow bc h]`.
    pub const PUTSTATIC: u32 = 86;
    /// `[class offset bc h]`.
    pub const PUTSTATIC2: u32 = 87;
    /// `[kind bc h]`: pops array and index.
    pub const ALOAD: u32 = 88;
    /// `[kind bc h]`: pops array, index and value.
    pub const ASTORE: u32 = 89;
    /// `[bc h]`.
    pub const ARRAYLENGTH: u32 = 90;
    /// `[class bc h]`.
    pub const NEW: u32 = 91;
    /// `[array_class bc h]`: pops the length.
    pub const NEWARRAY: u32 = 92;
    /// `[array_class dimensions bc h]`: pops one length per dimension.
    pub const MULTIANEWARRAY: u32 = 93;
    /// `[method site bc h]`: `site` is the invoke's bytecode offset (the CCT's call site).
    pub const INVOKESTATIC: u32 = 94;
    pub const INVOKESPECIAL: u32 = 95;
    /// `[selector arg_words site bc h]`: virtual and interface calls.
    pub const INVOKEVIRTUAL: u32 = 96;
    /// `[proc arg_words bc h]`: a procedure of the same method that returns here.
    pub const CALL: u32 = 97;
    /// `[class bc h]`: pops the reference.
    pub const CHECKCAST: u32 = 98;
    /// `[class]`.
    pub const INSTANCEOF: u32 = 99;
    /// `[bc h]`: `monitorenter`/`monitorexit`: a null check (instances are single-threaded).
    pub const MONITOR: u32 = 100;
    /// `[words bc]`: the top `words` are the outputs; `bc` is the rule's bytecodes.
    pub const RETURN: u32 = 101;
    /// `[proc arg_words bc]`.
    pub const TAILCALL: u32 = 102;
    /// `[bc h]`: throws the top reference.
    pub const THROW: u32 = 103;
    /// `[class bc h]`: initialises `class` (the instance's method's class, before the call).
    pub const INIT_CLASS: u32 = 104;
    /// `[method bc h]`: the launcher's call of the instance's method (not counted as an invoke).
    pub const INVOKE_ENTRY: u32 = 105;
    /// `[recipe]`: string concatenation by `Package::concats[recipe]`; pops its arguments and
    /// pushes the new string (one invocation and one allocation, no bytecodes).
    pub const CONCAT: u32 = 106;
}

/// The number of words of the instruction with this opcode (the opcode included); 0 for an
/// unknown opcode.
pub fn length(opcode: u32) -> usize {
    use op::*;
    match opcode {
        G_ICMP | G_LCMP | G_ACMP | PUSH2 => 3,
        G_INSTANCEOF => 4,
        NO_RULE | REFUSE | PUSH | LDC_CLASS | LOAD | LOAD2 | STORE | STORE2 | DUP | DUP2 | FETCH | FETCH2 | POP
        | INSTANCEOF | CONCAT => 2,
        IADD..=I2S => 1,
        IDIV..=LREM | ARRAYLENGTH | MONITOR | THROW | RETURN => 3,
        GETFIELD | GETFIELD2 | PUTFIELD2 | ALOAD | ASTORE | NEW | NEWARRAY | CHECKCAST | TAILCALL | INIT_CLASS
        | INVOKE_ENTRY => 4,
        PUTFIELD | GETSTATIC | GETSTATIC2 | PUTSTATIC2 | MULTIANEWARRAY | INVOKESTATIC | INVOKESPECIAL | CALL => 5,
        PUTSTATIC | INVOKEVIRTUAL => 6,
        _ => 0,
    }
}

/// Whether the instruction ends with throw-info words.
pub fn has_throw_info(opcode: u32) -> bool {
    use op::*;
    matches!(
        opcode,
        IDIV..=LREM
            | GETFIELD..=MULTIANEWARRAY
            | INVOKESTATIC
            | INVOKESPECIAL
            | INVOKEVIRTUAL
            | CALL
            | CHECKCAST
            | MONITOR
            | THROW
            | INIT_CLASS
            | INVOKE_ENTRY
    )
}

/// Handler argument kind: a class mirror (`a` is the class handle).
pub const HARG_CLASS: u32 = 4;

/// Words before an object's fields: its class handle.
pub const OBJECT_HEADER_WORDS: u32 = 1;
/// Words before an array's elements: its class handle and its length.
pub const ARRAY_HEADER_WORDS: u32 = 2;

/// Words of one frame record on the frame stack.
pub const FRAME_WORDS: usize = 6;
/// Fields of a frame record.
pub mod frame {
    /// The procedure running in the frame.
    pub const PROC: usize = 0;
    /// The instruction of the frame below that created this one (a call, or the instruction that
    /// triggered a class initialisation or raised an exception), `NONE` for the bottom frame.
    pub const CALL_PC: usize = 1;
    /// Where the frame's inputs start on the value stack.
    pub const BASE: usize = 2;
    /// The calling context of the frame's method.
    pub const NODE: usize = 3;
    /// `FRAME_*`.
    pub const KIND: usize = 4;
    /// For `FRAME_CLINIT` the class; for `FRAME_EXCEPTION` the exception being constructed.
    pub const EXTRA: usize = 5;
}

/// A procedure called by another of the same method (`CALL`).
pub const FRAME_PROC: u32 = 0;
/// A method's entry (an invoke).
pub const FRAME_METHOD: u32 = 1;
/// A static initialiser; on return the triggering instruction runs again.
pub const FRAME_CLINIT: u32 = 2;
/// The constructor of an exception the VM raises; on return the exception is thrown at `CALL_PC`.
pub const FRAME_EXCEPTION: u32 = 3;
/// The launcher of the instance's method (the bottom frame).
pub const FRAME_LAUNCHER: u32 = 4;
