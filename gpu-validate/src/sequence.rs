//! Sequence-based generation (GVM, Celik et al. Sec. 5 and Fig. 7): every sequence of calls of
//! chosen methods on an object of a data-structure class, explored breadth first from the state
//! its no-argument constructor leaves, with argument values from small domains. After each call
//! the receiver's state is read back from the heap (`Machine::run_capturing`); a state already
//! seen, by its shape (objects and references, primitive values ignored) or completely (values
//! included), is dropped, so each distinct state is extended once; without matching, no state is
//! dropped and every sequence of calls up to the length is run. Every call is an instance of its
//! method, with the state before it as the receiver, and knows the call that left that state, so
//! the calls form a tree whose paths from the root are the sequences explored.
//!
//! **Calls are numbered in exploration order (depth, then state in the order it was found, then
//! method, then argument instance), which depends only on the class, the methods and the
//! settings: re-running the exploration replays any call. A call that throws or is refused leaves
//! no state to extend.**

use crate::backend::Backend;
use crate::generate::{explore, instance, Choices, Domain, Strategy};
use crate::package::MethodKey;
use crate::value::{Ending, Outcome, Value};
use std::collections::HashSet;
use std::fmt::Write as _;

/// How states are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matching {
    /// Objects, their classes and the references between them; primitive values ignored.
    Shape,
    /// Everything, primitive values included.
    Complete,
    /// Not at all: no state is dropped, every sequence is explored.
    None,
}

impl Matching {
    pub fn name(self) -> &'static str {
        match self {
            Matching::Shape => "shape",
            Matching::Complete => "complete",
            Matching::None => "no",
        }
    }
}

/// Settings of an exploration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceSettings {
    /// The longest sequence of calls.
    pub max_length: u32,
    /// Arguments range over this many values (`0..values`).
    pub values: u32,
    pub matching: Matching,
    /// Calls executed at most; the exploration stops deeper levels past it.
    pub max_calls: usize,
}

/// A method called in sequences, with the domains of its parameters (the receiver excluded).
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceMethod {
    pub key: MethodKey,
    pub domains: Vec<Domain>,
}

/// One call of a sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceCall {
    pub number: u64,
    /// Its position in the sequence (1 for the first call after the constructor).
    pub depth: u32,
    /// The call that left the state this call runs on (`None` for the constructor's state): the
    /// sequence ending with this call is its parent's followed by it.
    pub parent: Option<u64>,
    /// Index into the explored methods.
    pub method: usize,
    /// The receiver's state before the call, then the arguments.
    pub args: Vec<Value>,
    pub outcome: Outcome,
}

/// What an exploration did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exploration {
    pub calls: Vec<SequenceCall>,
    /// Distinct states reached (the constructor's included).
    pub states: usize,
    /// States dropped because an equal one was seen before.
    pub dropped: usize,
    /// Calls that left no state (an exception, a refusal, a state that cannot be read back).
    pub failed: usize,
    /// Whether `max_calls` cut the exploration short.
    pub truncated: bool,
}

/// The domain of a parameter in sequences: ints in `0..values`, boxed integers for object
/// parameters (`Object`, `Comparable`, `Integer`, ...), short strings, `null` for other classes.
pub fn sequence_domain(descriptor: &str, values: u32) -> Domain {
    let top = i32::try_from(values).unwrap_or(i32::MAX).max(1) - 1;
    match descriptor {
        "I" | "S" | "B" => Domain::Int { min: 0, max: top },
        "J" => Domain::Long {
            min: 0,
            max: i64::from(top),
        },
        "Z" => Domain::Int { min: 0, max: 1 },
        "C" => Domain::Char((0..=top).map(|k| u16::from(b'a') + k as u16).collect()),
        "Ljava/lang/String;" => Domain::OneOf(
            (0..=top)
                .map(|k| Value::Str(vec![u16::from(b'a') + k as u16]))
                .collect(),
        ),
        "Ljava/lang/Object;" | "Ljava/lang/Comparable;" | "Ljava/lang/Integer;" | "Ljava/lang/Number;" => {
            Domain::OneOf(
                (0..=top)
                    .map(|k| Value::Object {
                        class: "java/lang/Integer".into(),
                        fields: vec![("value".into(), Value::Int(k))],
                    })
                    .collect(),
            )
        }
        _ => Domain::OneOf(vec![Value::Null]),
    }
}

/// The key a state is matched by.
pub fn state_key(state: &Value, matching: Matching) -> String {
    let mut key = String::new();
    write_key(state, matching, &mut key);
    key
}

fn write_key(value: &Value, matching: Matching, out: &mut String) {
    let complete = matching == Matching::Complete;
    match value {
        Value::Int(v) if complete => {
            let _ = write!(out, "i{v},");
        }
        Value::Long(v) if complete => {
            let _ = write!(out, "l{v},");
        }
        Value::Float(v) if complete => {
            let _ = write!(out, "f{v},");
        }
        Value::Double(v) if complete => {
            let _ = write!(out, "d{v},");
        }
        Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_) => out.push_str("_,"),
        Value::Null => out.push_str("n,"),
        Value::Ref(k) => {
            let _ = write!(out, "@{k},");
        }
        Value::Str(units) if complete => {
            let _ = write!(out, "s{units:?},");
        }
        Value::Str(_) => out.push_str("s,"),
        Value::Array { descriptor, elements } => {
            let _ = write!(out, "{descriptor}[{}:", elements.len());
            for element in elements {
                write_key(element, matching, out);
            }
            out.push_str("],");
        }
        Value::Object { class, fields } => {
            let _ = write!(out, "{class}{{");
            for (name, field) in fields {
                let _ = write!(out, "{name}=");
                write_key(field, matching, out);
            }
            out.push_str("},");
        }
    }
}

/// A call's outcome and the state of its arguments after it (or why the state could not be read).
type CapturedCall = (Outcome, Result<Vec<Value>, String>);

/// Explores the sequences of `methods` on objects of `class` (internal name), starting from the
/// state `<init>()V` leaves. `Err` when the constructor cannot run or its state cannot be read.
pub fn explore_sequences(
    backend: &dyn Backend,
    class: &str,
    methods: &[SequenceMethod],
    settings: &SequenceSettings,
) -> Result<Exploration, String> {
    let fresh = Value::Object {
        class: class.to_owned(),
        fields: Vec::new(),
    };
    let constructed = backend.run_capturing((class, "<init>", "()V"), &[vec![fresh]]);
    let (outcome, state) = constructed
        .into_iter()
        .next()
        .ok_or_else(|| "the constructor did not run".to_owned())?;
    if !matches!(outcome.ending, Ending::Returned { .. }) {
        return Err(format!(
            "{}.<init>()V did not return normally: {:?}",
            class.replace('/', "."),
            outcome.ending
        ));
    }
    let initial = state?
        .into_iter()
        .next()
        .ok_or_else(|| "the constructor left no receiver".to_owned())?;
    // The argument instances of every method, once.
    let arguments: Vec<Vec<Vec<Value>>> = methods
        .iter()
        .map(|m| {
            explore(
                &|c: &mut Choices| instance(&m.domains, c),
                Strategy::Worklist,
                settings.max_calls,
            )
            .map(|all| all.into_iter().map(|g| g.value).collect())
            .map_err(|_| {
                format!(
                    "{}.{}{} has more argument combinations than calls allowed",
                    m.key.0, m.key.1, m.key.2
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let mut exploration = Exploration {
        states: 1,
        ..Exploration::default()
    };
    let mut seen: HashSet<String> = HashSet::new();
    seen.insert(state_key(&initial, settings.matching));
    // Each state of the frontier with the call that left it.
    let mut frontier: Vec<(Value, Option<u64>)> = vec![(initial, None)];
    let mut number: u64 = 0;
    for depth in 1..=settings.max_length {
        if frontier.is_empty() {
            break;
        }
        let per_state: usize = arguments.iter().map(Vec::len).sum();
        if exploration.calls.len() + frontier.len() * per_state > settings.max_calls {
            exploration.truncated = true;
            break;
        }
        // Calls of each method on every state of the frontier, run as one batch per method.
        let mut results: Vec<Vec<CapturedCall>> = Vec::new();
        let mut batches: Vec<Vec<Vec<Value>>> = Vec::new();
        for (m, method) in methods.iter().enumerate() {
            let batch: Vec<Vec<Value>> = frontier
                .iter()
                .flat_map(|(state, _)| {
                    arguments[m].iter().map(move |args| {
                        let shift = state.built_objects();
                        let mut call = vec![state.clone()];
                        call.extend(args.iter().map(|a| a.with_refs_shifted(shift)));
                        call
                    })
                })
                .collect();
            let (class, name, descriptor) = &method.key;
            results.push(backend.run_capturing((class, name, descriptor), &batch));
            batches.push(batch);
        }
        let mut next = Vec::new();
        let mut taken: Vec<std::vec::IntoIter<CapturedCall>> = results.into_iter().map(Vec::into_iter).collect();
        let mut calls: Vec<std::vec::IntoIter<Vec<Value>>> = batches.into_iter().map(Vec::into_iter).collect();
        for (_, parent) in &frontier {
            for m in 0..methods.len() {
                for _ in 0..arguments[m].len() {
                    let (Some((outcome, after)), Some(args)) = (taken[m].next(), calls[m].next()) else {
                        continue;
                    };
                    let returned = matches!(outcome.ending, Ending::Returned { .. });
                    exploration.calls.push(SequenceCall {
                        number,
                        depth,
                        parent: *parent,
                        method: m,
                        args,
                        outcome,
                    });
                    let caller = number;
                    number += 1;
                    match after {
                        Ok(mut values) if returned && !values.is_empty() => {
                            let state = values.swap_remove(0);
                            let new = settings.matching == Matching::None
                                || seen.insert(state_key(&state, settings.matching));
                            if new {
                                exploration.states += 1;
                                next.push((state, Some(caller)));
                            } else {
                                exploration.dropped += 1;
                            }
                        }
                        _ => exploration.failed += 1,
                    }
                }
            }
        }
        frontier = next;
    }
    Ok(exploration)
}
