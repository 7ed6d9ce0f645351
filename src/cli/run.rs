//! `jresa run`: runs one method on given arguments in the validation VM and says how it ended,
//! within a budget of bytecodes. It is the replay command of a non-termination witness.
use super::{ClassPathArgs, InputArgs, Inputs, EXIT_INPUT_ERROR, EXIT_OK};
use crate::analyze::nontermination::CONFIRM_BYTECODES;
use crate::report::vm::{ending_text, metrics_text, value_text};
use crate::vm_source::JvmClassSource;
use jresa_analyses::ir::split_method_descriptor;
use jresa_gpu_validate::{Ending, Limits, Machine, Package, RunConfig, Value};
use serde_json::Value as Json;

const ACC_STATIC: u16 = 0x0008;

/// The descriptor of a field by class (internal name) and name, where the inputs declare it.
type FieldTypes<'a> = dyn Fn(&str, &str) -> Option<String> + 'a;

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    /// The arguments as a JSON array, `this` first for an instance method: numbers, `true`/`false`,
    /// `null`, strings, arrays (`[1, 2]`, or `{"length": n, "elements": [...]}` for zeros after the
    /// elements given), objects as `{"field": value}`.
    #[arg(long, value_name = "JSON")]
    pub args: String,
    /// Bytecodes the run may execute before it is stopped.
    #[arg(long, value_name = "N", default_value_t = CONFIRM_BYTECODES)]
    pub max_bytecodes: u64,
}

/// Runs the method; exit 0 whatever the run did, 2 when the method or the arguments are wrong.
pub fn run(args: &RunArgs) -> u8 {
    match run_method(args) {
        Ok(line) => {
            println!("{line}");
            EXIT_OK
        }
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_INPUT_ERROR
        }
    }
}

fn run_method(args: &RunArgs) -> Result<String, String> {
    let inputs = Inputs::load(&args.input, Some(&args.classpath)).map_err(|_| "the class path cannot be read")?;
    if inputs.selection.is_all() {
        return Err("name the method to run with --method".into());
    }
    let mut matches = inputs.loaded.classes.iter().flat_map(|c| {
        c.methods
            .iter()
            .filter(|m| m.code.is_some() && inputs.selection.selects(c, m))
            .map(move |m| (c, m))
    });
    let (class, method) = matches
        .next()
        .ok_or_else(|| format!("no method with code matches {}", inputs.selection.describe()))?;
    if matches.next().is_some() {
        return Err(format!(
            "{} matches several methods: give the descriptor too",
            inputs.selection.describe()
        ));
    }
    let mut types: Vec<String> = Vec::new();
    if method.access & ACC_STATIC == 0 {
        types.push(format!("L{};", class.name));
    }
    let (params, _) = split_method_descriptor(&method.descriptor)
        .ok_or_else(|| format!("malformed descriptor {}", method.descriptor))?;
    types.extend(params.iter().map(|p| (*p).to_owned()));
    let classes = &inputs.loaded.classes;
    let field_type = |owner: &str, name: &str| -> Option<String> {
        let mut at = classes.iter().find(|c| c.name == owner);
        while let Some(c) = at {
            if let Some(f) = c.fields.iter().find(|f| f.name == name) {
                return Some(f.descriptor.clone());
            }
            at = c
                .super_name
                .as_deref()
                .and_then(|s| classes.iter().find(|c| c.name == s));
        }
        None
    };
    let values = parse_arguments(&args.args, &types, &field_type)?;
    let source = JvmClassSource::borrowing(inputs.loaded.classes.iter().cloned(), inputs.classpath.as_ref());
    let key = (class.name.clone(), method.name.clone(), method.descriptor.clone());
    let package = Package::build(&source, std::slice::from_ref(&key))
        .map_err(|e| format!("the method cannot be packaged for the VM: {e}"))?;
    let launcher = package
        .entry(&key.0, &key.1, &key.2)
        .ok_or("the method is not an entry of its package")?;
    let config = RunConfig {
        limits: Limits {
            max_bytecodes: args.max_bytecodes,
            ..Limits::default()
        },
        cct: false,
    };
    let (outcome, period) = Machine::new(&package, config).run_watching(launcher, &values);
    let shown: Vec<String> = values.iter().zip(&types).map(|(v, t)| value_text(v, t)).collect();
    let ended = match (&outcome.ending, period) {
        (Ending::StepLimit, Some(calls)) => {
            format!("its state repeated after {calls} calls of its procedures: it never ends (stopped)")
        }
        (Ending::StepLimit, None) => format!("still running after {} bytecodes (stopped)", args.max_bytecodes),
        (ending, _) => match ending {
            Ending::StackOverflow => "the VM's call stack overflowed".to_owned(),
            ending => ending_text(ending),
        },
    };

    Ok(format!(
        "{}.{}{}({}): {ended}; {}",
        class.name.replace('/', "."),
        method.name,
        method.descriptor,
        shown.join(", "),
        metrics_text(&outcome.metrics)
    ))
}

/// The arguments of `--args` for parameters of the field types `types`.
fn parse_arguments(text: &str, types: &[String], fields: &FieldTypes<'_>) -> Result<Vec<Value>, String> {
    let json: Json = serde_json::from_str(text).map_err(|e| format!("--args is not JSON: {e}"))?;
    let items = json.as_array().ok_or("--args must be a JSON array")?;
    if items.len() != types.len() {
        return Err(format!(
            "--args has {} values for {} parameters ({})",
            items.len(),
            types.len(),
            types.join(", ")
        ));
    }
    items
        .iter()
        .zip(types)
        .enumerate()
        .map(|(k, (item, ty))| argument(item, ty, fields).map_err(|e| format!("argument {}: {e}", k + 1)))
        .collect()
}

/// One value of the field type `ty`.
fn argument(item: &Json, ty: &str, fields: &FieldTypes<'_>) -> Result<Value, String> {
    let number = || {
        item.as_i64()
            .ok_or_else(|| format!("expected an integer for {ty}, got {item}"))
    };
    let real = || {
        item.as_f64()
            .ok_or_else(|| format!("expected a number for {ty}, got {item}"))
    };
    Ok(match ty.as_bytes().first() {
        Some(b'Z') if item.is_boolean() => Value::Int(i32::from(item.as_bool() == Some(true))),
        Some(b'I' | b'Z' | b'B' | b'C' | b'S') => {
            Value::Int(i32::try_from(number()?).map_err(|_| format!("{item} is out of range for {ty}"))?)
        }
        Some(b'J') => Value::Long(number()?),
        Some(b'F') => Value::Float((real()? as f32).to_bits()),
        Some(b'D') => Value::Double(real()?.to_bits()),
        _ if item.is_null() => Value::Null,
        Some(b'L') if ty == "Ljava/lang/String;" => {
            Value::Str(item.as_str().ok_or("expected a string")?.encode_utf16().collect())
        }
        Some(b'[') => array(item, ty, fields)?,
        Some(b'L') => {
            let values = item.as_object().ok_or_else(|| format!("expected an object for {ty}"))?;
            let class = ty[1..ty.len() - 1].to_owned();
            let values = values
                .iter()
                .map(|(name, v)| {
                    let descriptor = fields(&class, name).ok_or_else(|| format!("{class} has no field {name}"))?;
                    Ok((name.clone(), argument(v, &descriptor, fields)?))
                })
                .collect::<Result<_, String>>()?;
            Value::Object { class, fields: values }
        }
        _ => return Err(format!("unsupported parameter type {ty}")),
    })
}

/// An array argument: its elements, or a length with the first elements.
fn array(item: &Json, ty: &str, fields: &FieldTypes<'_>) -> Result<Value, String> {
    let component = &ty[1..];
    let (length, given) = match item {
        Json::Array(elements) => (elements.len(), elements.clone()),
        Json::Object(map) => {
            let length = map
                .get("length")
                .and_then(Json::as_u64)
                .ok_or("an array object needs a \"length\"")?;
            let given = map
                .get("elements")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default();
            (usize::try_from(length).map_err(|_| "length out of range")?, given)
        }
        _ => return Err(format!("expected an array for {ty}")),
    };
    if length > 1 << 24 {
        return Err(format!("an array of {length} elements is too large"));
    }
    let zero = match component.as_bytes().first() {
        Some(b'J' | b'F' | b'D' | b'I' | b'Z' | b'B' | b'C' | b'S') => Json::from(0),
        _ => Json::Null,
    };
    let elements = (0..length)
        .map(|j| argument(given.get(j).unwrap_or(&zero), component, fields))
        .collect::<Result<Vec<Value>, String>>()?;
    Ok(Value::Array {
        descriptor: ty.to_owned(),
        elements,
    })
}
