//! The amortised claim of `jresa check` bounds on call sequences (`--sequences` with `--bounds
//! check`): a sequence of calls from the constructor's state costs at most the potential its
//! first state holds plus the amortised cost of each call, the constant part of the call's
//! precondition at the state it runs on.
//!
//! Why this is the claim the verified specifications make: a call whose precondition gives its
//! state `Φ(s) + c` units (`Φ` what the lists and trees hold, `c` the constant) and whose
//! postcondition leaves `Φ'(s')` consumes at most `Φ(s) + c − Φ'(s')`. When every method's
//! postcondition leaves the structures the potential the next call's precondition asks of them
//! (`Φ' ≥ Φ`), the sum over a sequence telescopes to at most `Φ(s₀) + Σ c`: the textbook
//! amortised bound (the queue's 2 units per enqueue and 1 per dequeue). Specifications that do not
//! compose this way are caught as violations, with the sequence that shows it.
//!
//! **Every call ends one sequence (the calls form a tree; with `--matching none` no state is
//! dropped, so every sequence up to the length is one of them). A sequence is judged only when each
//! of its calls runs inside its precondition with a potential bound; one that leaves them is
//! skipped, with its extensions. A violation is a sequence whose complete runs consume more than
//! its bound, reported with its calls and a replay command (its last call's number).**

use super::{AmortisedSequences, LengthRow, SequenceViolation, MAX_LISTED_VIOLATIONS};
use crate::report::vm::value_text;
use jresa_analyses::cost_model::CostModel;
use jresa_gpu_validate::check::{metric, BoundForm, MethodBound, Tightness};
use jresa_gpu_validate::sequence::SequenceCall;
use jresa_gpu_validate::Ending;
use num_rational::BigRational;
use std::collections::{BTreeMap, HashMap};

/// What is known of the sequence that ends with a call.
#[derive(Clone)]
enum Running {
    /// Judged so far: the units consumed and the bound.
    Judged { cost: u64, bound: BigRational },
    /// Outside the claim's assumptions (or not judgeable), with why.
    Unjudged { skipped: bool, why: String },
}

/// Judges every sequence of `calls` (in exploration order, each after its parent) against the
/// amortised claim of the methods' bounds. `None` unless every explored method's bound is the
/// potential of a precondition (the bounds of `jresa check`); a method without a bound makes the
/// sequences that call it unjudged. With `only`, the sequence ending with that call is the one
/// reported (a replay).
pub(crate) fn judge_sequences(
    calls: &[SequenceCall],
    bounds: &[Option<MethodBound>],
    method_names: &[String],
    types: &[Vec<String>],
    model: CostModel,
    replay_prefix: &str,
    only: Option<u64>,
) -> Option<AmortisedSequences> {
    let potential = |m: usize| match bounds.get(m) {
        Some(Some(MethodBound {
            form: BoundForm::Potential(precondition),
            ..
        })) => Some(precondition.clone()),
        _ => None,
    };
    let any_closed = bounds.iter().flatten().any(|b| matches!(b.form, BoundForm::Closed(_)));
    if any_closed || !(0..bounds.len()).any(|m| potential(m).is_some()) {
        return None;
    }
    let mut result = AmortisedSequences::default();
    let mut running: HashMap<u64, Running> = HashMap::new();
    let mut judged_by_length: BTreeMap<u32, Vec<(u64, BigRational)>> = BTreeMap::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut inconclusive: BTreeMap<String, usize> = BTreeMap::new();
    let index: HashMap<u64, usize> = calls.iter().enumerate().map(|(k, c)| (c.number, k)).collect();
    for call in calls {
        let state = match call.parent {
            None => step(call, None, potential(call.method).as_deref(), model),
            Some(parent) => match running.get(&parent) {
                Some(Running::Judged { cost, bound }) => {
                    let before = Some((*cost, bound.clone()));
                    step(call, before, potential(call.method).as_deref(), model)
                }
                Some(unjudged) => unjudged.clone(),
                None => Running::Unjudged {
                    skipped: false,
                    why: "the call before it was not explored".to_owned(),
                },
            },
        };
        if only.is_some_and(|wanted| wanted != call.number) {
            running.insert(call.number, state);
            continue;
        }
        result.sequences += 1;
        match &state {
            Running::Judged { cost, bound } => {
                result.checked += 1;
                let cost_value = BigRational::from_integer((*cost).into());
                if cost_value > *bound {
                    result.violations += 1;
                    if result.violating.len() < MAX_LISTED_VIOLATIONS {
                        result.violating.push(SequenceViolation {
                            calls: sequence_text(call, calls, &index, method_names, types),
                            measured: *cost,
                            bound: bound.to_string(),
                            replay: format!("{replay_prefix} --instance {}", call.number),
                        });
                    }
                }
                judged_by_length
                    .entry(call.depth)
                    .or_default()
                    .push((*cost, bound.clone()));
            }
            Running::Unjudged { skipped: s, why } => {
                let counts = if *s { &mut skipped } else { &mut inconclusive };
                *counts.entry(why.clone()).or_default() += 1;
            }
        }
        running.insert(call.number, state);
    }
    result.skipped = skipped.values().sum();
    result.inconclusive = inconclusive.values().sum();
    let mut notes: Vec<String> = Vec::new();
    for (why, count) in &skipped {
        notes.push(format!("{count} skipped ({why})"));
    }
    for (why, count) in &inconclusive {
        notes.push(format!("{count} inconclusive ({why})"));
    }
    result.note = (!notes.is_empty()).then(|| notes.join("; "));
    let all: Vec<(u64, BigRational)> = judged_by_length.values().flatten().cloned().collect();
    if !all.is_empty() {
        result.max_ratio = Some(Tightness::of(&all).max_ratio);
    }
    result.by_length = judged_by_length
        .into_iter()
        .map(|(length, points)| {
            let t = Tightness::of(&points);
            let max_bound = points
                .iter()
                .map(|(_, b)| b.clone())
                .max()
                .map(|b| b.to_string())
                .unwrap_or_default();
            LengthRow {
                length,
                sequences: t.instances,
                max_ratio: t.max_ratio,
                median_ratio: t.median_ratio,
                max_measured: t.max_measured,
                max_bound,
            }
        })
        .collect();
    Some(result)
}

/// The sequence ending with `call` after the one before it (`None`: the first call).
fn step(
    call: &SequenceCall,
    before: Option<(u64, BigRational)>,
    precondition: Option<&jresa_gpu_validate::requires::Precondition>,
    model: CostModel,
) -> Running {
    let Some(precondition) = precondition else {
        return Running::Unjudged {
            skipped: true,
            why: "a call of a method without a verified bound".into(),
        };
    };
    let (structures, constant) = match precondition.potential_parts(&call.args) {
        Ok(Some(parts)) => parts,
        Ok(None) => {
            return Running::Unjudged {
                skipped: true,
                why: "a call outside its precondition".into(),
            }
        }
        Err(reason) => {
            return Running::Unjudged {
                skipped: false,
                why: reason,
            }
        }
    };
    if let Some(failure) = &call.outcome.failed_initializer {
        return Running::Unjudged {
            skipped: false,
            why: format!("{failure} in the VM"),
        };
    }
    let complete = matches!(call.outcome.ending, Ending::Returned { .. } | Ending::Threw { .. });
    if !complete {
        return Running::Unjudged {
            skipped: false,
            why: "a call the VM did not run to its end".into(),
        };
    }
    let cost = metric(model, &call.outcome.metrics);
    match before {
        // The first call: the potential of the constructor's state, and the call's own.
        None => Running::Judged {
            cost,
            bound: structures + constant,
        },
        Some((cost_before, bound_before)) => Running::Judged {
            cost: cost_before.saturating_add(cost),
            bound: bound_before + constant,
        },
    }
}

/// The calls of the sequence ending with `last`, first to last, as `name(arguments)`.
fn sequence_text(
    last: &SequenceCall,
    calls: &[SequenceCall],
    index: &HashMap<u64, usize>,
    method_names: &[String],
    types: &[Vec<String>],
) -> Vec<String> {
    let mut chain: Vec<&SequenceCall> = vec![last];
    let mut current = last;
    while let Some(parent) = current.parent.and_then(|p| index.get(&p)).map(|k| &calls[*k]) {
        chain.push(parent);
        current = parent;
    }
    chain.reverse();
    chain
        .iter()
        .map(|call| {
            let descriptors = types.get(call.method).map(Vec::as_slice).unwrap_or(&[]);
            // The receiver (the state) comes first in the arguments and in the types.
            let arguments: Vec<String> = call
                .args
                .iter()
                .zip(descriptors)
                .skip(1)
                .map(|(value, descriptor)| value_text(value, descriptor))
                .collect();
            let name = method_names.get(call.method).map_or("?", String::as_str);
            format!("{name}({})", arguments.join(", "))
        })
        .collect()
}
