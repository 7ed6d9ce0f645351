//! Text forms of the VM's values: instance inputs (the syntax instance files and fixture comments
//! use), returned values and outcomes in a canonical form that a Java driver prints the same way,
//! so that results compare as strings.
//!
//! Inputs: ints, longs and chars as decimal numbers, booleans as `true`/`false`, floats and doubles
//! as decimal literals or `NaN`/`Infinity`/`-Infinity`, strings quoted with `\"`, `\\` and `\uXXXX`
//! escapes, `null`, arrays as `{a, b}`, objects as `Class{field=value, ...}`, and `@k` for the same
//! object or array as the `k`-th one written before it (sharing).
//! Results: `5`, `true`, `(byte)5`, `(short)5`, `(char)65`, `5L`, `f:3fc00000` and
//! `d:3ff8000000000000` (IEEE bits, NaN canonical), strings quoted, arrays as `[I{1, 2}`, boxed
//! primitives as `java/lang/Integer(6)`, other objects as `<Class>`.

use jresa_gpu_validate::{Ending, Metrics, Rendered, Value};

/// A string literal with escapes.
pub fn quoted(units: &[u16]) -> String {
    let mut out = String::from("\"");
    for &unit in units {
        match unit {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x20..=0x7E => out.push(unit as u8 as char),
            _ => out.push_str(&format!("\\u{unit:04x}")),
        }
    }
    out.push('"');
    out
}

/// A float in a form both Rust and Java parse back to the same bits.
pub fn float_text(value: f64, is_float: bool) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if is_float {
        format!("{:?}", value as f32)
    } else {
        format!("{value:?}")
    }
}

/// An input value in the instance syntax, for a parameter of field type `descriptor` (booleans
/// need it to print as `true`/`false`).
pub fn value_text(value: &Value, descriptor: &str) -> String {
    match value {
        Value::Int(v) if descriptor == "Z" => (if *v != 0 { "true" } else { "false" }).to_owned(),
        Value::Int(v) => v.to_string(),
        Value::Long(v) => v.to_string(),
        Value::Float(bits) => float_text(f64::from(f32::from_bits(*bits)), true),
        Value::Double(bits) => float_text(f64::from_bits(*bits), false),
        Value::Null => "null".into(),
        Value::Str(units) => quoted(units),
        Value::Array { descriptor, elements } => {
            let component = &descriptor[1..];
            let items: Vec<String> = elements.iter().map(|e| value_text(e, component)).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Object { class, fields } => {
            let items: Vec<String> = fields
                .iter()
                .map(|(name, v)| format!("{name}={}", value_text(v, "")))
                .collect();
            format!("{class}{{{}}}", items.join(", "))
        }
        Value::Ref(k) => format!("@{k}"),
    }
}

/// A returned value in canonical form.
pub fn rendered_text(value: &Rendered) -> String {
    match value {
        Rendered::Void => "void".into(),
        Rendered::Int { ty: 'Z', value } => (if *value != 0 { "true" } else { "false" }).to_owned(),
        Rendered::Int { ty: 'B', value } => format!("(byte){value}"),
        Rendered::Int { ty: 'S', value } => format!("(short){value}"),
        Rendered::Int { ty: 'C', value } => format!("(char){value}"),
        Rendered::Int { value, .. } => value.to_string(),
        Rendered::Long(v) => format!("{v}L"),
        Rendered::Float(bits) => format!("f:{bits:08x}"),
        Rendered::Double(bits) => format!("d:{bits:016x}"),
        Rendered::Null => "null".into(),
        Rendered::Str(units) => quoted(units),
        Rendered::Array { descriptor, elements } => {
            let items: Vec<String> = elements.iter().map(rendered_text).collect();
            format!("{descriptor}{{{}}}", items.join(", "))
        }
        Rendered::Boxed { class, value } => format!("{class}({})", rendered_text(value)),
        Rendered::Object { class } => format!("<{class}>"),
    }
}

/// How an instance ended, in canonical form (`returns ...`, `throws Class`, ...).
pub fn ending_text(ending: &Ending) -> String {
    match ending {
        Ending::Returned { value } => format!("returns {}", rendered_text(value)),
        Ending::Threw { class } => format!("throws {class}"),
        Ending::Refused { reason } => format!("refused: {reason}"),
        Ending::OutOfMemory => "out of memory".into(),
        Ending::StackOverflow => "stack overflow".into(),
        Ending::StepLimit => "step limit".into(),
    }
}

/// Counters as `bytecodes=.. invocations=.. allocations=.. consume=..`.
pub fn metrics_text(metrics: &Metrics) -> String {
    format!(
        "bytecodes={} invocations={} allocations={} consume={}",
        metrics.bytecodes, metrics.invocations, metrics.allocations, metrics.consume
    )
}
