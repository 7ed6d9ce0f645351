//! Specifications read from classfiles: the `jresa.spec` annotations of a method (`@Requires`,
//! `@Ensures`, `@Invariant`, and the `@Invariants` container javac writes for repeated ones),
//! parsed with the assertion grammar, and the Java sources of the annotations themselves.
pub mod parse;
pub mod sources;

use crate::classfile::{Annotation, ElementValue, Method};
use jresa_analyses::amortised::assertion::{Span, SpecError};
use jresa_analyses::amortised::spec::{Annotated, MethodSpec, Role};

pub use parse::parse_assertions;

/// Type descriptors of the annotations.
pub const REQUIRES: &str = "Ljresa/spec/Requires;";
pub const ENSURES: &str = "Ljresa/spec/Ensures;";
pub const INVARIANT: &str = "Ljresa/spec/Invariant;";
pub const INVARIANTS: &str = "Ljresa/spec/Invariants;";

/// A malformed annotation: which one, its text (empty when it has none) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotationError {
    pub role: Role,
    pub text: String,
    pub error: SpecError,
}

/// The specification of a method: `Ok(None)` when it has no jresa annotation, the errors of every
/// malformed annotation otherwise (all of them, not just the first).
pub fn method_spec(method: &Method) -> Result<Option<MethodSpec>, Vec<AnnotationError>> {
    let mut spec = MethodSpec::default();
    let mut errors = Vec::new();
    let mut invariants: Vec<&Annotation> = Vec::new();
    for annotation in &method.annotations {
        match annotation.type_descriptor.as_str() {
            REQUIRES => store(annotation, Role::Requires, &mut spec.requires, &mut errors),
            ENSURES => store(annotation, Role::Ensures, &mut spec.ensures, &mut errors),
            INVARIANT => invariants.push(annotation),
            INVARIANTS => {
                for value in element(annotation, "value").into_iter() {
                    if let ElementValue::Array(items) = value {
                        invariants.extend(items.iter().filter_map(|item| match item {
                            ElementValue::Annotation(inner) if inner.type_descriptor == INVARIANT => Some(&**inner),
                            _ => None,
                        }));
                    }
                }
            }
            _ => {}
        }
    }
    for annotation in invariants {
        let id = match element(annotation, "id") {
            Some(ElementValue::Int(_, id)) => *id,
            _ => {
                errors.push(AnnotationError {
                    role: Role::Invariant(0),
                    text: String::new(),
                    error: SpecError::new("@Invariant without an integer `id`", Span::default()),
                });
                continue;
            }
        };
        let mut slot = None;
        store(annotation, Role::Invariant(id), &mut slot, &mut errors);
        if let Some(annotated) = slot {
            if spec.invariant(id).is_some() {
                errors.push(AnnotationError {
                    role: Role::Invariant(id),
                    text: annotated.text.clone(),
                    error: SpecError::new(
                        format!("two invariants have id {id}"),
                        Span::new(0, annotated.text.len()),
                    ),
                });
            } else {
                spec.invariants.push(annotated);
            }
        }
    }
    spec.invariants.sort_by_key(|a| match a.role {
        Role::Invariant(id) => id,
        _ => 0,
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(if spec.is_empty() { None } else { Some(spec) })
}

fn element<'a>(annotation: &'a Annotation, name: &str) -> Option<&'a ElementValue> {
    annotation.elements.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Parses the `value` string of an annotation into `slot`, or records why it cannot.
fn store(annotation: &Annotation, role: Role, slot: &mut Option<Annotated>, errors: &mut Vec<AnnotationError>) {
    let Some(ElementValue::String(text)) = element(annotation, "value") else {
        errors.push(AnnotationError {
            role,
            text: String::new(),
            error: SpecError::new(format!("{role} without a string value"), Span::default()),
        });
        return;
    };
    if slot.is_some() {
        errors.push(AnnotationError {
            role,
            text: text.clone(),
            error: SpecError::new(format!("{role} is given twice"), Span::new(0, text.len())),
        });
        return;
    }
    match parse_assertions(text) {
        Ok(assertions) => {
            *slot = Some(Annotated {
                role,
                text: text.clone(),
                assertions,
            })
        }
        Err(error) => errors.push(AnnotationError {
            role,
            text: text.clone(),
            error,
        }),
    }
}
