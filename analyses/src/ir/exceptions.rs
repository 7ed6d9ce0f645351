//! The exceptions the JVM raises itself: per instruction (JVMS §6.5) and per native method. This is
//! the one table the cost analysis charges (the construction of each exception a statement may
//! raise), the validation VM packages (the constructor HotSpot runs for each class) and the tests
//! check on the JVM: a case that is missing here is a missing row, never a silent zero.
//!
//! Errors of the JVM's resources (`OutOfMemoryError`, `StackOverflowError`), of linking and of
//! class initialisation are outside the table: the cost analysis assumes enough resources and
//! linked, initialised classes, as the validation VM and the JVM measurements do.

use super::{BinOp, CallKind, ElemTy, StmtKind, Ty};

pub const NULL_POINTER: &str = "java/lang/NullPointerException";
pub const ARRAY_INDEX: &str = "java/lang/ArrayIndexOutOfBoundsException";
pub const ARITHMETIC: &str = "java/lang/ArithmeticException";
pub const NEGATIVE_ARRAY_SIZE: &str = "java/lang/NegativeArraySizeException";
pub const CLASS_CAST: &str = "java/lang/ClassCastException";
pub const ARRAY_STORE: &str = "java/lang/ArrayStoreException";
pub const ILLEGAL_MONITOR_STATE: &str = "java/lang/IllegalMonitorStateException";
pub const ILLEGAL_ARGUMENT: &str = "java/lang/IllegalArgumentException";
pub const CLONE_NOT_SUPPORTED: &str = "java/lang/CloneNotSupportedException";
pub const INDEX_OUT_OF_BOUNDS: &str = "java/lang/IndexOutOfBoundsException";
pub const STRING_INDEX: &str = "java/lang/StringIndexOutOfBoundsException";
pub const ILLEGAL_STATE: &str = "java/lang/IllegalStateException";
pub const INITIALIZER_ERROR: &str = "java/lang/ExceptionInInitializerError";
pub const NO_CLASS_DEF: &str = "java/lang/NoClassDefFoundError";

/// Every class of the table with the constructor HotSpot runs when it raises it (a
/// `NullPointerException` gets no message, computing it lazily; the others get one;
/// `ExceptionInInitializerError` the exception the initialiser threw).
pub const CONSTRUCTORS: &[(&str, &str)] = &[
    (NULL_POINTER, "()V"),
    (ARRAY_INDEX, "(Ljava/lang/String;)V"),
    (ARITHMETIC, "(Ljava/lang/String;)V"),
    (NEGATIVE_ARRAY_SIZE, "(Ljava/lang/String;)V"),
    (CLASS_CAST, "(Ljava/lang/String;)V"),
    (ARRAY_STORE, "(Ljava/lang/String;)V"),
    (ILLEGAL_MONITOR_STATE, "(Ljava/lang/String;)V"),
    (ILLEGAL_ARGUMENT, "(Ljava/lang/String;)V"),
    (CLONE_NOT_SUPPORTED, "(Ljava/lang/String;)V"),
    (INDEX_OUT_OF_BOUNDS, "(Ljava/lang/String;)V"),
    (STRING_INDEX, "(Ljava/lang/String;)V"),
    (ILLEGAL_STATE, "(Ljava/lang/String;)V"),
    (INITIALIZER_ERROR, "(Ljava/lang/Throwable;)V"),
    (NO_CLASS_DEF, "(Ljava/lang/String;)V"),
];

/// The constructors the cost analysis charges for an exception of `class`: both of the shapes the
/// JVM uses (no argument, a message), so the charge covers whichever it runs.
pub const CHARGED_DESCRIPTORS: [&str; 2] = ["()V", "(Ljava/lang/String;)V"];

/// The exceptions an IR statement raises itself (JVMS §6.5), besides whatever a callee throws.
/// `athrow` raises a `NullPointerException` when the thrown value is null.
pub fn of_stmt(kind: &StmtKind) -> &'static [&'static str] {
    match kind {
        StmtKind::Binary {
            op: BinOp::Div | BinOp::Rem,
            ty: Ty::Int | Ty::Long,
            ..
        } => &[ARITHMETIC],
        StmtKind::GetField { .. }
        | StmtKind::PutField { .. }
        | StmtKind::ArrayLength { .. }
        | StmtKind::MonitorEnter { .. }
        | StmtKind::Throw { .. } => &[NULL_POINTER],
        StmtKind::Invoke { kind, .. } if *kind != CallKind::Static => &[NULL_POINTER],
        StmtKind::MonitorExit { .. } => &[NULL_POINTER, ILLEGAL_MONITOR_STATE],
        StmtKind::ArrayLoad { .. } => &[NULL_POINTER, ARRAY_INDEX],
        StmtKind::ArrayStore { elem: ElemTy::Ref, .. } => &[NULL_POINTER, ARRAY_INDEX, ARRAY_STORE],
        StmtKind::ArrayStore { .. } => &[NULL_POINTER, ARRAY_INDEX],
        StmtKind::NewArray { .. } | StmtKind::NewRefArray { .. } | StmtKind::NewMultiArray { .. } => {
            &[NEGATIVE_ARRAY_SIZE]
        }
        StmtKind::CheckCast { .. } => &[CLASS_CAST],
        _ => &[],
    }
}

/// The natives whose exceptions are known, as (class, name, exceptions raised inside the native);
/// an empty class matches every class (`clone` of any class). A native not listed here may raise
/// any of [`UNLISTED_NATIVE`].
pub const NATIVES: &[(&str, &str, &[&str])] = &[
    (
        "java/lang/System",
        "arraycopy",
        &[NULL_POINTER, ARRAY_INDEX, ARRAY_STORE],
    ),
    ("", "clone", &[CLONE_NOT_SUPPORTED]),
    (
        "java/lang/reflect/Array",
        "newArray",
        &[NULL_POINTER, ILLEGAL_ARGUMENT, NEGATIVE_ARRAY_SIZE],
    ),
    (
        "java/lang/reflect/Array",
        "multiNewArray",
        &[NULL_POINTER, ILLEGAL_ARGUMENT, NEGATIVE_ARRAY_SIZE],
    ),
    (
        "java/lang/reflect/Array",
        "getLength",
        &[NULL_POINTER, ILLEGAL_ARGUMENT],
    ),
    ("java/lang/Class", "getPrimitiveClass", &[NULL_POINTER]),
    ("java/lang/Class", "isAssignableFrom", &[NULL_POINTER]),
    // Natives that raise nothing for any argument.
    ("java/lang/Object", "hashCode", &[]),
    ("java/lang/Object", "getClass", &[]),
    ("java/lang/System", "identityHashCode", &[]),
    ("java/lang/System", "nanoTime", &[]),
    ("java/lang/System", "currentTimeMillis", &[]),
    ("java/lang/System", "registerNatives", &[]),
    ("java/lang/Object", "notify", &[ILLEGAL_MONITOR_STATE]),
    ("java/lang/Object", "notifyAll", &[ILLEGAL_MONITOR_STATE]),
    ("java/lang/Float", "floatToRawIntBits", &[]),
    ("java/lang/Float", "intBitsToFloat", &[]),
    ("java/lang/Double", "doubleToRawLongBits", &[]),
    ("java/lang/Double", "longBitsToDouble", &[]),
    ("java/lang/StrictMath", "sqrt", &[]),
    ("java/lang/StrictMath", "cbrt", &[]),
    ("java/lang/StrictMath", "sin", &[]),
    ("java/lang/StrictMath", "cos", &[]),
    ("java/lang/StrictMath", "tan", &[]),
    ("java/lang/StrictMath", "asin", &[]),
    ("java/lang/StrictMath", "acos", &[]),
    ("java/lang/StrictMath", "atan", &[]),
    ("java/lang/StrictMath", "atan2", &[]),
    ("java/lang/StrictMath", "log", &[]),
    ("java/lang/StrictMath", "log10", &[]),
    ("java/lang/StrictMath", "exp", &[]),
    ("java/lang/StrictMath", "pow", &[]),
    ("java/lang/StrictMath", "IEEEremainder", &[]),
    ("java/lang/Class", "desiredAssertionStatus0", &[]),
    ("java/lang/Class", "isArray", &[]),
    ("java/lang/Class", "isPrimitive", &[]),
    ("java/lang/Class", "isInterface", &[]),
    ("java/lang/Class", "isInstance", &[]),
    ("java/lang/Class", "isHidden", &[]),
    ("java/lang/Class", "getSuperclass", &[]),
    ("java/lang/Class", "initClassName", &[]),
    ("java/lang/String", "intern", &[]),
    ("java/lang/Throwable", "fillInStackTrace", &[]),
    ("java/lang/NullPointerException", "getExtendedNPEMessage", &[]),
    ("java/lang/Throwable", "getStackTraceDepth", &[]),
    ("java/lang/Thread", "currentThread", &[]),
    ("jdk/internal/misc/Unsafe", "arrayBaseOffset0", &[]),
    ("jdk/internal/misc/Unsafe", "objectFieldOffset1", &[]),
    ("jdk/internal/misc/Unsafe", "getInt", &[]),
    ("jdk/internal/misc/Unsafe", "getLong", &[]),
    ("jdk/internal/misc/Unsafe", "getIntVolatile", &[]),
    ("jdk/internal/misc/Unsafe", "getLongVolatile", &[]),
    ("jdk/internal/misc/Unsafe", "putInt", &[]),
    ("jdk/internal/misc/Unsafe", "putLong", &[]),
    ("jdk/internal/misc/Unsafe", "putIntVolatile", &[]),
    ("jdk/internal/misc/Unsafe", "putLongVolatile", &[]),
    ("jdk/internal/misc/Unsafe", "compareAndSetInt", &[]),
    ("jdk/internal/misc/Unsafe", "compareAndSetLong", &[]),
    ("java/util/concurrent/atomic/AtomicLong", "VMSupportsCS8", &[]),
    ("jdk/internal/misc/Unsafe", "arrayIndexScale0", &[]),
];

/// What a native that [`NATIVES`] does not list is assumed to raise: the exceptions JDK natives
/// raise on bad arguments and states.
pub const UNLISTED_NATIVE: &[&str] = &[
    NULL_POINTER,
    ILLEGAL_ARGUMENT,
    ILLEGAL_STATE,
    INDEX_OUT_OF_BOUNDS,
    ARRAY_INDEX,
    STRING_INDEX,
    ARRAY_STORE,
    NEGATIVE_ARRAY_SIZE,
    CLASS_CAST,
    ILLEGAL_MONITOR_STATE,
    CLONE_NOT_SUPPORTED,
];

/// The exceptions raised inside the native method `class.name` (the methods of an array class are
/// `Object`'s, and an array's `clone` raises nothing: every array is `Cloneable`).
pub fn of_native(class: &str, name: &str) -> &'static [&'static str] {
    if class.starts_with('[') && name == "clone" {
        return &[];
    }
    let class = if class.starts_with('[') {
        "java/lang/Object"
    } else {
        class
    };
    NATIVES
        .iter()
        .find(|(c, n, _)| *n == name && (c.is_empty() || *c == class))
        .map_or(UNLISTED_NATIVE, |row| row.2)
}

/// Every exception class the table names, each once.
pub fn all_classes() -> impl Iterator<Item = &'static str> {
    CONSTRUCTORS.iter().map(|(class, _)| *class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_raised_has_a_constructor_row() {
        let known: Vec<&str> = all_classes().collect();
        let raised = NATIVES.iter().flat_map(|row| row.2.iter()).chain(UNLISTED_NATIVE);
        for class in raised {
            assert!(known.contains(class), "{class} has no constructor row");
        }
    }

    #[test]
    fn throw_raises_a_null_pointer_exception() {
        let kind = StmtKind::Throw {
            value: super::super::Operand::Null,
        };
        assert_eq!(of_stmt(&kind), &[NULL_POINTER]);
    }

    #[test]
    fn unlisted_natives_raise_the_default_set_and_array_clone_raises_nothing() {
        assert_eq!(of_native("java/lang/Object", "wait"), UNLISTED_NATIVE);
        assert!(of_native("[I", "clone").is_empty());
        assert_eq!(of_native("java/lang/Object", "clone"), &[CLONE_NOT_SUPPORTED]);
        assert_eq!(of_native("[I", "wait"), UNLISTED_NATIVE);
        assert!(of_native("java/lang/Object", "hashCode").is_empty());
    }
}
