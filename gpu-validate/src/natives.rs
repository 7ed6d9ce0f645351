//! The methods the VM implements by hand: JDK natives that the common paths of programs reach, the
//! few JDK methods that HotSpot always runs as built-in code (so they execute no bytecode there
//! either), and methods whose result depends on the JVM's start-up state. Everything else without
//! bytecode is refused, naming the method.
//!
//! The registry only says *which* methods; their behaviour is in `vm::natives`.

/// A method implemented by the VM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Native {
    ObjectHashCode,
    ObjectGetClass,
    ObjectClone,
    SystemArraycopy,
    SystemIdentityHashCode,
    NoOp,
    FloatToRawIntBits,
    IntBitsToFloat,
    DoubleToRawLongBits,
    LongBitsToDouble,
    SqrtDouble,
    AbsDouble,
    FmaDouble,
    FmaFloat,
    ClassDesiredAssertionStatus,
    ClassGetPrimitiveClass,
    ClassIsArray,
    ClassIsPrimitive,
    ClassIsInterface,
    ClassIsInstance,
    ClassIsAssignableFrom,
    ClassGetSuperclass,
    ClassInitClassName,
    ClassIsHidden,
    ArrayNewArray,
    ArrayGetLength,
    StringIntern,
    ReturnFalse,
    ReturnNull,
    ReturnZeroLong,
    ThrowableFillInStackTrace,
    UnsafeArrayBaseOffset,
    UnsafeArrayIndexScale,
    ReturnTrue,
    UnsafeObjectFieldOffset,
    UnsafeGetInt,
    UnsafePutInt,
    UnsafeCompareAndSetInt,
    UnsafeGetLong,
    UnsafePutLong,
    UnsafeCompareAndSetLong,
}

/// Every native, in `repr` order.
const ALL: [Native; 41] = [
    Native::ObjectHashCode,
    Native::ObjectGetClass,
    Native::ObjectClone,
    Native::SystemArraycopy,
    Native::SystemIdentityHashCode,
    Native::NoOp,
    Native::FloatToRawIntBits,
    Native::IntBitsToFloat,
    Native::DoubleToRawLongBits,
    Native::LongBitsToDouble,
    Native::SqrtDouble,
    Native::AbsDouble,
    Native::FmaDouble,
    Native::FmaFloat,
    Native::ClassDesiredAssertionStatus,
    Native::ClassGetPrimitiveClass,
    Native::ClassIsArray,
    Native::ClassIsPrimitive,
    Native::ClassIsInterface,
    Native::ClassIsInstance,
    Native::ClassIsAssignableFrom,
    Native::ClassGetSuperclass,
    Native::ClassInitClassName,
    Native::ClassIsHidden,
    Native::ArrayNewArray,
    Native::ArrayGetLength,
    Native::StringIntern,
    Native::ReturnFalse,
    Native::ReturnNull,
    Native::ReturnZeroLong,
    Native::ThrowableFillInStackTrace,
    Native::UnsafeArrayBaseOffset,
    Native::UnsafeArrayIndexScale,
    Native::ReturnTrue,
    Native::UnsafeObjectFieldOffset,
    Native::UnsafeGetInt,
    Native::UnsafePutInt,
    Native::UnsafeCompareAndSetInt,
    Native::UnsafeGetLong,
    Native::UnsafePutLong,
    Native::UnsafeCompareAndSetLong,
];

impl Native {
    /// The native with this id.
    pub fn from_id(id: u32) -> Option<Native> {
        ALL.get(id as usize).copied()
    }

    pub fn id(self) -> u32 {
        self as u32
    }
}

/// What the VM does with a method that it implements or refuses by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Runs the native; a method with bytecode replaced this way executes no bytecode.
    Run(Native),
    /// Refuses the instance with this reason.
    Refuse(&'static str),
}

const NOT_REPRODUCIBLE: &str =
    "HotSpot computes it with built-in code whose last-place rounding the VM cannot reproduce";

/// (class, name, descriptor, behaviour).
const REGISTRY: &[(&str, &str, &str, Behaviour)] = &[
    (
        "java/lang/Object",
        "hashCode",
        "()I",
        Behaviour::Run(Native::ObjectHashCode),
    ),
    (
        "java/lang/Object",
        "getClass",
        "()Ljava/lang/Class;",
        Behaviour::Run(Native::ObjectGetClass),
    ),
    (
        "java/lang/Object",
        "clone",
        "()Ljava/lang/Object;",
        Behaviour::Run(Native::ObjectClone),
    ),
    (
        "java/lang/System",
        "arraycopy",
        "(Ljava/lang/Object;ILjava/lang/Object;II)V",
        Behaviour::Run(Native::SystemArraycopy),
    ),
    (
        "java/lang/System",
        "identityHashCode",
        "(Ljava/lang/Object;)I",
        Behaviour::Run(Native::SystemIdentityHashCode),
    ),
    (
        "java/lang/System",
        "registerNatives",
        "()V",
        Behaviour::Run(Native::NoOp),
    ),
    (
        "java/lang/Class",
        "registerNatives",
        "()V",
        Behaviour::Run(Native::NoOp),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "registerNatives",
        "()V",
        Behaviour::Run(Native::NoOp),
    ),
    (
        "java/lang/Float",
        "floatToRawIntBits",
        "(F)I",
        Behaviour::Run(Native::FloatToRawIntBits),
    ),
    (
        "java/lang/Float",
        "intBitsToFloat",
        "(I)F",
        Behaviour::Run(Native::IntBitsToFloat),
    ),
    (
        "java/lang/Double",
        "doubleToRawLongBits",
        "(D)J",
        Behaviour::Run(Native::DoubleToRawLongBits),
    ),
    (
        "java/lang/Double",
        "longBitsToDouble",
        "(J)D",
        Behaviour::Run(Native::LongBitsToDouble),
    ),
    (
        "java/lang/StrictMath",
        "sqrt",
        "(D)D",
        Behaviour::Run(Native::SqrtDouble),
    ),
    // HotSpot runs these as built-in code even in the interpreter: no bytecode of theirs executes.
    ("java/lang/Math", "sqrt", "(D)D", Behaviour::Run(Native::SqrtDouble)),
    ("java/lang/Math", "abs", "(D)D", Behaviour::Run(Native::AbsDouble)),
    ("java/lang/Math", "fma", "(DDD)D", Behaviour::Run(Native::FmaDouble)),
    ("java/lang/Math", "fma", "(FFF)F", Behaviour::Run(Native::FmaFloat)),
    ("java/lang/Math", "sin", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "cos", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "tan", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "log", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "log10", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "exp", "(D)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    ("java/lang/Math", "pow", "(DD)D", Behaviour::Refuse(NOT_REPRODUCIBLE)),
    // The JVM's answer depends on the class loader and command line; assertions are off.
    (
        "java/lang/Class",
        "desiredAssertionStatus",
        "()Z",
        Behaviour::Run(Native::ClassDesiredAssertionStatus),
    ),
    (
        "java/lang/Class",
        "getPrimitiveClass",
        "(Ljava/lang/String;)Ljava/lang/Class;",
        Behaviour::Run(Native::ClassGetPrimitiveClass),
    ),
    (
        "java/lang/Class",
        "isArray",
        "()Z",
        Behaviour::Run(Native::ClassIsArray),
    ),
    (
        "java/lang/Class",
        "isPrimitive",
        "()Z",
        Behaviour::Run(Native::ClassIsPrimitive),
    ),
    (
        "java/lang/Class",
        "isInterface",
        "()Z",
        Behaviour::Run(Native::ClassIsInterface),
    ),
    (
        "java/lang/Class",
        "isHidden",
        "()Z",
        Behaviour::Run(Native::ClassIsHidden),
    ),
    (
        "java/lang/Class",
        "isInstance",
        "(Ljava/lang/Object;)Z",
        Behaviour::Run(Native::ClassIsInstance),
    ),
    (
        "java/lang/Class",
        "isAssignableFrom",
        "(Ljava/lang/Class;)Z",
        Behaviour::Run(Native::ClassIsAssignableFrom),
    ),
    (
        "java/lang/Class",
        "getSuperclass",
        "()Ljava/lang/Class;",
        Behaviour::Run(Native::ClassGetSuperclass),
    ),
    (
        "java/lang/Class",
        "initClassName",
        "()Ljava/lang/String;",
        Behaviour::Run(Native::ClassInitClassName),
    ),
    (
        "java/lang/reflect/Array",
        "newArray",
        "(Ljava/lang/Class;I)Ljava/lang/Object;",
        Behaviour::Run(Native::ArrayNewArray),
    ),
    (
        "java/lang/reflect/Array",
        "getLength",
        "(Ljava/lang/Object;)I",
        Behaviour::Run(Native::ArrayGetLength),
    ),
    (
        "java/lang/String",
        "intern",
        "()Ljava/lang/String;",
        Behaviour::Run(Native::StringIntern),
    ),
    (
        "java/lang/StringUTF16",
        "isBigEndian",
        "()Z",
        Behaviour::Run(Native::ReturnFalse),
    ),
    (
        "java/lang/Throwable",
        "fillInStackTrace",
        "(I)Ljava/lang/Throwable;",
        Behaviour::Run(Native::ThrowableFillInStackTrace),
    ),
    // Start-up state: no saved system properties are set and no class data is archived.
    (
        "jdk/internal/misc/VM",
        "getSavedProperty",
        "(Ljava/lang/String;)Ljava/lang/String;",
        Behaviour::Run(Native::ReturnNull),
    ),
    (
        "jdk/internal/misc/VM",
        "initialize",
        "()V",
        Behaviour::Run(Native::NoOp),
    ),
    (
        "jdk/internal/misc/CDS",
        "isDumpingClassList0",
        "()Z",
        Behaviour::Run(Native::ReturnFalse),
    ),
    (
        "jdk/internal/misc/CDS",
        "isDumpingArchive0",
        "()Z",
        Behaviour::Run(Native::ReturnFalse),
    ),
    (
        "jdk/internal/misc/CDS",
        "isSharingEnabled0",
        "()Z",
        Behaviour::Run(Native::ReturnFalse),
    ),
    (
        "jdk/internal/misc/CDS",
        "initializeFromArchive",
        "(Ljava/lang/Class;)V",
        Behaviour::Run(Native::NoOp),
    ),
    (
        "jdk/internal/misc/CDS",
        "getRandomSeedForDumping",
        "()J",
        Behaviour::Run(Native::ReturnZeroLong),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "arrayBaseOffset0",
        "(Ljava/lang/Class;)I",
        Behaviour::Run(Native::UnsafeArrayBaseOffset),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "arrayIndexScale0",
        "(Ljava/lang/Class;)I",
        Behaviour::Run(Native::UnsafeArrayIndexScale),
    ),
    // Field access through `Unsafe` (what `AtomicInteger` and `AtomicLong` run on): single-threaded,
    // so the volatile natives are plain accesses.
    (
        "jdk/internal/misc/Unsafe",
        "objectFieldOffset1",
        "(Ljava/lang/Class;Ljava/lang/String;)J",
        Behaviour::Run(Native::UnsafeObjectFieldOffset),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "getInt",
        "(Ljava/lang/Object;J)I",
        Behaviour::Run(Native::UnsafeGetInt),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "getLong",
        "(Ljava/lang/Object;J)J",
        Behaviour::Run(Native::UnsafeGetLong),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "getIntVolatile",
        "(Ljava/lang/Object;J)I",
        Behaviour::Run(Native::UnsafeGetInt),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "getLongVolatile",
        "(Ljava/lang/Object;J)J",
        Behaviour::Run(Native::UnsafeGetLong),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "putInt",
        "(Ljava/lang/Object;JI)V",
        Behaviour::Run(Native::UnsafePutInt),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "putLong",
        "(Ljava/lang/Object;JJ)V",
        Behaviour::Run(Native::UnsafePutLong),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "putIntVolatile",
        "(Ljava/lang/Object;JI)V",
        Behaviour::Run(Native::UnsafePutInt),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "putLongVolatile",
        "(Ljava/lang/Object;JJ)V",
        Behaviour::Run(Native::UnsafePutLong),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "compareAndSetInt",
        "(Ljava/lang/Object;JII)Z",
        Behaviour::Run(Native::UnsafeCompareAndSetInt),
    ),
    (
        "jdk/internal/misc/Unsafe",
        "compareAndSetLong",
        "(Ljava/lang/Object;JJJ)Z",
        Behaviour::Run(Native::UnsafeCompareAndSetLong),
    ),
    (
        "java/util/concurrent/atomic/AtomicLong",
        "VMSupportsCS8",
        "()Z",
        Behaviour::Run(Native::ReturnTrue),
    ),
];

/// What the VM does with a method it knows by name, if anything.
pub fn lookup(class: &str, name: &str, descriptor: &str) -> Option<Behaviour> {
    REGISTRY
        .iter()
        .find(|(c, n, d, _)| *c == class && *n == name && *d == descriptor)
        .map(|entry| entry.3)
}

/// Parts of the JDK the VM does not run (a package when the entry ends with `/`, else a class and
/// its nested classes), because they need JVM services it does not provide
/// (method handles, reflection, threads, class loading, I/O, security): their methods are not
/// packaged, and an instance that reaches one is refused with the reason. Without this cut, rapid
/// type analysis pulls them in through initialisers and rarely taken paths (a parallel sort's
/// `ForkJoinTask`, a `VarHandle` in a static initialiser) and a package grows to most of the JDK.
pub const UNSUPPORTED_PACKAGES: &[(&str, &str)] = &[
    ("java/lang/invoke/", "method handles are not supported"),
    ("java/lang/reflect/Proxy", "reflection is not supported"),
    ("java/lang/reflect/Method", "reflection is not supported"),
    ("java/lang/reflect/Constructor", "reflection is not supported"),
    ("java/lang/reflect/Field", "reflection is not supported"),
    ("java/lang/reflect/Executable", "reflection is not supported"),
    ("java/lang/reflect/AccessibleObject", "reflection is not supported"),
    ("jdk/internal/reflect/", "reflection is not supported"),
    ("java/lang/Thread", "threads are not supported"),
    ("java/util/concurrent/", "concurrency utilities are not supported"),
    ("java/lang/ClassLoader", "class loading is not supported"),
    ("jdk/internal/loader/", "class loading is not supported"),
    ("java/lang/module/", "the module system is not supported"),
    ("jdk/internal/module/", "the module system is not supported"),
    ("java/lang/Module", "the module system is not supported"),
    ("java/lang/ModuleLayer", "the module system is not supported"),
    ("java/lang/Runtime", "system services are not supported"),
    ("java/lang/ProcessBuilder", "system services are not supported"),
    ("java/lang/SecurityManager", "security is not supported"),
    ("java/security/", "security is not supported"),
    ("javax/security/", "security is not supported"),
    ("sun/security/", "security is not supported"),
    ("java/io/", "I/O is not supported"),
    ("java/nio/", "I/O is not supported"),
    ("sun/nio/", "I/O is not supported"),
    ("java/net/", "networking is not supported"),
    ("sun/net/", "networking is not supported"),
    ("jdk/internal/org/objectweb/", "bytecode generation is not supported"),
    ("jdk/internal/icu/", "Unicode normalisation data is not supported"),
    ("sun/util/locale/provider/", "locale data is not supported"),
    (
        "java/util/stream/",
        "streams need lambdas (invokedynamic), which are not supported",
    ),
    ("java/lang/ref/", "references and finalisation are not supported"),
    ("jdk/internal/ref/", "references and finalisation are not supported"),
    ("jdk/internal/access/", "internal access bridges are not supported"),
    ("jdk/internal/vm/", "JVM services are not supported"),
    ("jdk/internal/event/", "JFR events are not supported"),
    ("jdk/internal/logger/", "logging is not supported"),
    ("sun/util/logging/", "logging is not supported"),
    ("java/util/logging/", "logging is not supported"),
    ("java/util/Formatter", "formatting (String.format) is not supported"),
    ("java/util/regex/", "regular expressions are not supported"),
    ("java/time/", "date and time are not supported"),
    ("java/text/", "text formatting is not supported"),
    ("sun/util/", "locale and calendar data are not supported"),
    ("sun/reflect/", "reflection is not supported"),
];

/// Classes of the unsupported parts that the VM runs all the same: the atomic numbers (single-
/// threaded, their `Unsafe` field accesses are plain ones), and the parts of `java.io` that are
/// plain Java over memory (streams, readers and writers over arrays and other streams, the I/O
/// exceptions), which touch no file, descriptor or console, and `java.nio.file`'s option enums and
/// the visitor base class.
pub const SUPPORTED_INSIDE: &[&str] = &[
    "java/util/concurrent/atomic/AtomicInteger",
    "java/util/concurrent/atomic/AtomicLong",
    "java/io/InputStream",
    "java/io/OutputStream",
    "java/io/Reader",
    "java/io/Writer",
    "java/io/FilterInputStream",
    "java/io/FilterOutputStream",
    "java/io/FilterReader",
    "java/io/FilterWriter",
    "java/io/ByteArrayInputStream",
    "java/io/ByteArrayOutputStream",
    "java/io/CharArrayReader",
    "java/io/CharArrayWriter",
    "java/io/StringReader",
    "java/io/StringWriter",
    "java/io/BufferedReader",
    "java/io/BufferedWriter",
    "java/io/PushbackInputStream",
    "java/io/PushbackReader",
    "java/io/SequenceInputStream",
    "java/io/LineNumberReader",
    "java/io/DataInputStream",
    "java/io/DataOutputStream",
    "java/io/IOException",
    "java/io/UncheckedIOException",
    "java/io/EOFException",
    "java/io/FileNotFoundException",
    "java/io/InterruptedIOException",
    "java/io/UnsupportedEncodingException",
    "java/io/UTFDataFormatException",
    "java/io/CharConversionException",
    "java/nio/file/FileVisitResult",
    "java/nio/file/FileVisitOption",
    "java/nio/file/LinkOption",
    "java/nio/file/SimpleFileVisitor",
];

/// Why the VM does not run methods of this class, when it is in an unsupported part of the JDK.
pub fn unsupported(class: &str) -> Option<&'static str> {
    if SUPPORTED_INSIDE.contains(&class) {
        return None;
    }
    UNSUPPORTED_PACKAGES
        .iter()
        .find(|(prefix, _)| {
            if prefix.ends_with('/') {
                class.starts_with(prefix)
            } else {
                class == *prefix || class.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('$'))
            }
        })
        .map(|(_, reason)| *reason)
}
