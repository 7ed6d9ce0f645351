//! The values that go into and come out of the VM: instance inputs ([`Value`]), returned values
//! rendered structurally ([`Rendered`]), and the outcome of one instance ([`Outcome`]).

use crate::metrics::{CallingContextTree, Metrics};
use serde::Serialize;

/// An input value of a method parameter. `boolean`, `byte`, `char` and `short` parameters take
/// `Int` values (as the JVM stores them); references take `Null`, `Str`, `Array` or `Object`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Value {
    Int(i32),
    Long(i64),
    /// IEEE bits.
    Float(u32),
    /// IEEE bits.
    Double(u64),
    Null,
    /// A `java.lang.String` with these UTF-16 code units.
    Str(Vec<u16>),
    /// An array of the array type `descriptor` (`[I`, `[[J`, `[Ljava/lang/String;`) holding `elements`.
    Array {
        descriptor: String,
        elements: Vec<Value>,
    },
    /// An object of `class` allocated without running a constructor, its fields (found by name in
    /// the class and its superclasses) set to the given values and the others zero.
    Object {
        class: String,
        fields: Vec<(String, Value)>,
    },
    /// The same object or array as an earlier `Object` or `Array` value of the instance: the `k`-th
    /// one built, counting from 0 in the order the arguments are built (argument by argument,
    /// depth first, fields in the order given, each value numbered before its fields or
    /// elements). Sharing and cycles between inputs are written with it.
    Ref(u32),
}

impl Value {
    /// A string value from Rust text.
    pub fn string(text: &str) -> Value {
        Value::Str(text.encode_utf16().collect())
    }

    /// An `int[]`.
    pub fn int_array(values: &[i32]) -> Value {
        Value::Array {
            descriptor: "[I".into(),
            elements: values.iter().map(|&v| Value::Int(v)).collect(),
        }
    }

    /// How many objects and arrays building this value makes (the numbers `Value::Ref` counts).
    pub fn built_objects(&self) -> u32 {
        match self {
            Value::Array { elements, .. } => 1 + elements.iter().map(Value::built_objects).sum::<u32>(),
            Value::Object { fields, .. } => 1 + fields.iter().map(|(_, v)| v.built_objects()).sum::<u32>(),
            _ => 0,
        }
    }

    /// The value with every `Ref(k)` in it made `Ref(k + by)`: a value written as a first argument,
    /// placed after arguments that build `by` objects and arrays.
    pub fn with_refs_shifted(&self, by: u32) -> Value {
        match self {
            Value::Ref(k) => Value::Ref(k + by),
            Value::Array { descriptor, elements } => Value::Array {
                descriptor: descriptor.clone(),
                elements: elements.iter().map(|e| e.with_refs_shifted(by)).collect(),
            },
            Value::Object { class, fields } => Value::Object {
                class: class.clone(),
                fields: fields
                    .iter()
                    .map(|(name, v)| (name.clone(), v.with_refs_shifted(by)))
                    .collect(),
            },
            other => other.clone(),
        }
    }
}

/// A value the method returned, rendered structurally so that it can be compared with what the
/// real JVM returns: primitives by value (with their declared type), strings by content, arrays by
/// their elements, boxed primitives by their value, other objects by their class.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Rendered {
    Void,
    /// An `int`-like value with its descriptor type (`I`, `Z`, `B`, `C`, `S`).
    Int {
        ty: char,
        value: i32,
    },
    Long(i64),
    /// IEEE bits, NaN canonicalised (as `Float.floatToIntBits`).
    Float(u32),
    /// IEEE bits, NaN canonicalised (as `Double.doubleToLongBits`).
    Double(u64),
    Null,
    Str(Vec<u16>),
    Array {
        descriptor: String,
        elements: Vec<Rendered>,
    },
    /// A boxed primitive (`java/lang/Integer`, ...) with its value.
    Boxed {
        class: String,
        value: Box<Rendered>,
    },
    /// Any other object, by its class's internal name.
    Object {
        class: String,
    },
}

/// How one instance ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ending {
    /// The method returned this value.
    Returned { value: Rendered },
    /// An exception of this class (internal name) escaped the method.
    Threw { class: String },
    /// The instance reached something the VM does not implement (a native method, `invokedynamic`,
    /// reflection, ...); the reason names it. Nothing is claimed about the result.
    Refused { reason: String },
    /// The heap limit was reached (the JVM would throw `OutOfMemoryError` at a larger limit).
    OutOfMemory,
    /// The frame or operand stack limit was reached (the JVM would throw `StackOverflowError`).
    StackOverflow,
    /// The instance executed more JVM bytecodes than its budget allows.
    StepLimit,
}

/// The result of one instance: how it ended and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub ending: Ending,
    /// Costs outside class initialisation (what a bound of the method covers).
    pub metrics: Metrics,
    /// Costs of the static initialisers the instance ran.
    pub initialization: Metrics,
    /// The calling-context tree, when the run asked for it.
    pub cct: Option<CallingContextTree>,
    /// The first static initialiser that failed during the run, with what it threw: on the JVM
    /// initialisation happens before the measured call, so such a run is not faithful to it.
    pub failed_initializer: Option<String>,
}
