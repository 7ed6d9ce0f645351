//! Non-termination: closed recurrent sets found with z3 in bit-vector semantics.
//!
//! For each loop procedure of a method (and for a method that calls itself), `search` looks for an
//! input and a set of states at the loop's head that the input reaches, that no way out of the
//! loop leaves and that every iteration maps into itself (a closed recurrent set, as Chen et al.
//! define it). Candidates come from two places: cycles of states found directly (a state that
//! comes back after one, two or three iterations), and Houdini-style weakening of the conjunction
//! of simple facts (values, signs, parity, differences) that hold at a reachable state, dropping
//! those an iteration can break. **Arithmetic is on 32- and 64-bit vectors, so a loop that stops
//! only because a counter wraps has no recurrent set.** What the symbolic execution does not model
//! is a fresh value, which every iteration must then tolerate (`explore`).
//!
//! A proof here is a candidate: **the analysis reports non-termination only after the validation
//! VM ran the method on the witness input and saw it run on (see `src/analyze/nontermination.rs`).**

mod explore;
mod inline;
pub mod limits;
mod recurrent;
mod terms;

use crate::ir::MethodIr;
pub use inline::Callees;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// One argument of a witness input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Input {
    Int {
        value: i32,
    },
    Long {
        value: i64,
    },
    /// IEEE bits.
    Float {
        bits: u32,
    },
    /// IEEE bits.
    Double {
        bits: u64,
    },
    Null,
    /// A string of `length` letters `a` (the search models a string's length only).
    String {
        length: i32,
    },
    /// An array of the array type `descriptor` and `length` elements: `elements` first, zeros after.
    Array {
        descriptor: String,
        length: i32,
        elements: Vec<i64>,
    },
    /// An array of references of the array type `descriptor`: these elements, nulls after.
    References {
        descriptor: String,
        length: i32,
        elements: Vec<Input>,
    },
    /// An object of `class` built without a constructor: these fields set, the others zero.
    Object {
        class: String,
        fields: Vec<(String, Input)>,
    },
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::Int { value } => write!(f, "{value}"),
            Input::Long { value } => write!(f, "{value}L"),
            Input::Float { bits } => write!(f, "{}f", f32::from_bits(*bits)),
            Input::Double { bits } => write!(f, "{}", f64::from_bits(*bits)),
            Input::Null => write!(f, "null"),
            Input::String { length } if *length <= 16 => write!(f, "\"{}\"", "a".repeat(*length as usize)),
            Input::String { length } => write!(f, "\"a\".repeat({length})"),
            Input::References {
                descriptor,
                length,
                elements,
            } => {
                let (element, dims) = element_name(descriptor);
                let shown: Vec<String> = elements.iter().map(Input::to_string).collect();
                if shown.len() as i64 == i64::from(*length) {
                    write!(f, "new {element}[]{dims}{{{}}}", shown.join(", "))
                } else if shown.is_empty() {
                    write!(f, "new {element}[{length}]{dims}")
                } else {
                    write!(f, "new {element}[{length}]{dims} starting {}", shown.join(", "))
                }
            }
            Input::Array {
                descriptor,
                length,
                elements,
            } => {
                let shown: Vec<String> = elements.iter().map(i64::to_string).collect();
                let (element, dims) = element_name(descriptor);
                if elements.is_empty() || shown.len() as i64 != i64::from(*length) {
                    // Zeros past the elements given, as Java allocates them.
                    let given = shown.iter().rposition(|e| e != "0").map_or(0, |k| k + 1);
                    let shown = &shown[..given];
                    let first = if shown.is_empty() {
                        String::new()
                    } else {
                        format!(" starting {}", shown.join(", "))
                    };
                    write!(f, "new {element}[{length}]{dims}{first}")
                } else {
                    write!(f, "new {element}[]{dims}{{{}}}", shown.join(", "))
                }
            }
            Input::Object { class, fields } => {
                let shown: Vec<String> = fields.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                write!(
                    f,
                    "{}{{{}}}",
                    class.rsplit('/').next().unwrap_or(class),
                    shown.join(", ")
                )
            }
        }
    }
}

/// The Java element type of an array descriptor and the `[]`s of its component's own
/// dimensions (`[I` → (`int`, ``), `[[Ljava/lang/String;` → (`String`, `[]`)).
fn element_name(descriptor: &str) -> (String, String) {
    let component = descriptor.strip_prefix('[').unwrap_or(descriptor);
    let base = component.trim_start_matches('[');
    let dims = "[]".repeat(component.len() - base.len());
    let name = match base {
        "I" => "int",
        "J" => "long",
        "Z" => "boolean",
        "B" => "byte",
        "C" => "char",
        "S" => "short",
        "F" => "float",
        "D" => "double",
        _ => base
            .trim_start_matches('L')
            .trim_end_matches(';')
            .rsplit('/')
            .next()
            .unwrap_or(base),
    };
    (name.to_owned(), dims)
}

/// A candidate proof of non-termination: where, the witness input, and the recurrent set.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// The bytecode offset of the loop's head (of the method's start for recursion).
    pub offset: u32,
    /// Whether the method calls itself without end (rather than looping).
    pub recursion: bool,
    /// One value per parameter (`this` first for instance methods).
    pub inputs: Vec<Input>,
    /// The recurrent set at the loop's head, in the source's names.
    pub set: String,
}

/// What `search` found and the time z3 took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Search {
    pub proofs: Vec<Proof>,
    pub time: Duration,
}

/// Searches the loops of the method whose heads are at the bytecode offsets `heads` (those
/// without a ranking function), and its recursion, for a recurrent set, within the budgets of
/// `limits`. The calls `callees` resolves to small methods run their code (`inline`); the others
/// give fresh results.
pub fn search(ir: &MethodIr, heads: &[u32], callees: &dyn Callees) -> Search {
    let started = Instant::now();
    let config = z3::Config::new();
    let deadline = started + limits::METHOD_TIME;
    let inlined = inline::Inlined::collect(ir, callees);
    let proofs = z3::with_z3_config(&config, || recurrent::search(ir, heads, &inlined, deadline));
    Search {
        proofs,
        time: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::Input;

    #[test]
    fn inputs_print_as_java_values() {
        let array = |descriptor: &str, length: i32, elements: Vec<i64>| Input::Array {
            descriptor: descriptor.into(),
            length,
            elements,
        };
        assert_eq!(array("[I", 2, vec![-1, 0]).to_string(), "new int[]{-1, 0}");
        assert_eq!(array("[J", 3, vec![]).to_string(), "new long[3]");
        assert_eq!(array("[B", 4, vec![7]).to_string(), "new byte[4] starting 7");
        assert_eq!(array("[I", 9, vec![0, 0]).to_string(), "new int[9]");
        assert_eq!(array("[[Ljava/lang/String;", 1, vec![]).to_string(), "new String[1][]");
        assert_eq!(Input::Long { value: -5 }.to_string(), "-5L");
        let object = Input::Object {
            class: "p/Counter".into(),
            fields: vec![("count".into(), Input::Int { value: 0 })],
        };
        assert_eq!(object.to_string(), "Counter{count = 0}");
        let strings = Input::References {
            descriptor: "[Ljava/lang/String;".into(),
            length: 2,
            elements: vec![Input::String { length: 3 }, Input::Null],
        };
        assert_eq!(strings.to_string(), "new String[]{\"aaa\", null}");
        assert_eq!(Input::String { length: 40 }.to_string(), "\"a\".repeat(40)");
    }
}
