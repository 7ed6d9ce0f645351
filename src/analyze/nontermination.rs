//! Non-termination in method reports: the z3 search of `jresa_analyses::nontermination` for each
//! method whose termination is not proven, then the execution check of its candidates in the
//! validation VM.
//!
//! **A method is reported `terminates: false` only with a witness the VM ran: from that input the
//! method's whole state repeated (a proof, the VM being deterministic), or it was still running
//! after `CONFIRM_BYTECODES` bytecodes (a loop), or it overflowed the VM's stack (recursion), on
//! top of z3's proof that the loop's head keeps a closed recurrent set.** A
//! candidate the VM refuses, or on which the method returns or throws, is dropped; the method then
//! keeps its `unknown` termination.

use super::callees::ClassLookup;
use super::report::{AnalysisStatus, MethodReport, Reason, ReasonKind, Witness};
use super::summaries::Key;
use crate::classfile::{ClassFile, ClassPath};
use crate::lift::lift_method;
use crate::vm_source::JvmClassSource;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::{CallKind, MethodIr, MethodRef, ProcKind};
use jresa_analyses::nontermination::{self, Callees, Input, Proof};
use jresa_gpu_validate::{Ending, Limits, Machine, Package, RunConfig, Value};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Bytecodes a witness must run without the method returning before a loop counts as endless.
pub const CONFIRM_BYTECODES: u64 = 10_000_000;

/// Instructions a call target may have for the search to lift it (`nontermination::Callees`);
/// larger ones could not be inlined anyway.
const INLINED_INSTRUCTIONS: usize = 200;

/// The lifted code of the unique targets of calls, for the search of one class's methods: each
/// target is lifted once, as written (no ghosts, `invokedynamic` kept).
pub(super) struct CalleeCode<'a, 'l> {
    pub(super) hierarchy: &'a Hierarchy,
    pub(super) lookup: &'a ClassLookup<'l>,
    pub(super) lifted: RefCell<HashMap<Key, Option<Arc<MethodIr>>>>,
}

impl Callees for CalleeCode<'_, '_> {
    /// The code of the call's target, when the call has exactly one and it is small.
    fn target(&self, kind: CallKind, method: &MethodRef) -> Option<Arc<MethodIr>> {
        let targets = self.hierarchy.targets(kind, method);
        let key = match targets.targets.as_slice() {
            [t] if targets.complete => (t.class.clone(), t.name.clone(), t.descriptor.clone()),
            [] if matches!(kind, CallKind::Static | CallKind::Special) => {
                (method.class.clone(), method.name.clone(), method.descriptor.clone())
            }
            _ => return None,
        };
        self.lifted_once(key)
    }

    fn initialiser(&self, class: &str) -> Option<Option<Arc<MethodIr>>> {
        let file = (self.lookup)(class)?;
        if !file.methods.iter().any(|m| m.name == "<clinit>") {
            return Some(None);
        }
        let key = (class.to_owned(), "<clinit>".to_owned(), "()V".to_owned());
        self.lifted_once(key).map(Some)
    }
}

impl CalleeCode<'_, '_> {
    /// The method's code, lifted at its first request.
    fn lifted_once(&self, key: Key) -> Option<Arc<MethodIr>> {
        if let Some(known) = self.lifted.borrow().get(&key) {
            return known.clone();
        }
        let code = self.lift(&key);
        self.lifted.borrow_mut().insert(key, code.clone());
        code
    }

    fn lift(&self, (class, name, descriptor): &Key) -> Option<Arc<MethodIr>> {
        let class = (self.lookup)(class)?;
        let decl = class
            .methods
            .iter()
            .find(|m| &m.name == name && &m.descriptor == descriptor)?;
        let small = matches!(&decl.code, Some(Ok(code)) if code.instructions.len() <= INLINED_INSTRUCTIONS);
        if !small {
            return None;
        }
        lift_method(&class, decl).ok().map(Arc::new)
    }
}

/// Runs the search for a method whose termination is not proven, over its loops (and
/// recursion) without a ranking function.
pub(super) fn search(report: &mut MethodReport, ir: &MethodIr, callees: &CalleeCode<'_, '_>) {
    if report.terminates == Some(true) {
        return;
    }
    // A bound with a precondition speaks of the inputs within it only: every loop is searched,
    // and so is the recursion, even those the bound's analysis found never entered.
    let conditional = report.precondition.is_some();
    let unranked: Vec<u32> = if conditional {
        ir.procs
            .iter()
            .filter(|p| p.kind == ProcKind::Loop)
            .map(|p| p.pc)
            .collect()
    } else {
        report
            .loops
            .iter()
            .filter(|l| l.ranking_function.is_none())
            .map(|l| l.offset)
            .collect()
    };
    if unranked.is_empty() && !conditional {
        return;
    }
    // A fault in the search (z3's bindings panic on a malformed term) costs this method its
    // search only, never the run.
    let Ok(search) = catch_unwind(AssertUnwindSafe(|| nontermination::search(ir, &unranked, callees))) else {
        super::debug_timing(|| {
            format!(
                "nontermination {}.{}{}: the search failed",
                ir.class, ir.name, ir.descriptor
            )
        });
        return;
    };
    super::debug_timing(|| {
        format!(
            "nontermination {}.{}{}: {} candidates in {:?}",
            ir.class,
            ir.name,
            ir.descriptor,
            search.proofs.len(),
            search.time
        )
    });
    report.search = Some(search);
}

/// Checks the candidates of every report by execution and records the first confirmed one.
pub(crate) fn confirm(classes: &[ClassFile], classpath: Option<&ClassPath>, reports: &mut [MethodReport]) {
    let pending: Vec<usize> = (0..reports.len())
        .filter(|&k| reports[k].search.as_ref().is_some_and(|s| !s.proofs.is_empty()))
        .collect();
    if pending.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    let source = JvmClassSource::borrowing(classes.iter().cloned(), classpath);
    let key = |r: &MethodReport| (r.class.replace('.', "/"), r.name.clone(), r.descriptor.clone());
    let entries: Vec<(String, String, String)> = pending.iter().map(|&k| key(&reports[k])).collect();
    let shared = Package::build(&source, &entries).ok();
    let found: Vec<(usize, Option<Witness>)> = pending
        .par_iter()
        .map(|&k| {
            let report = &reports[k];
            let alone;
            let package = match &shared {
                Some(package) => package,
                None => match Package::build(&source, &[key(report)]) {
                    Ok(package) => {
                        alone = package;
                        &alone
                    }
                    Err(_) => return (k, None),
                },
            };
            let proofs = report.search.as_ref().map(|s| s.proofs.as_slice()).unwrap_or_default();
            let witness = proofs.iter().find_map(|proof| run(package, report, proof));
            (k, witness)
        })
        .collect();
    super::debug_timing(|| {
        format!(
            "nontermination: {} methods' candidates run in {:?}",
            pending.len(),
            started.elapsed()
        )
    });
    for (k, witness) in found {
        if let Some(witness) = witness {
            let report = &mut reports[k];
            // A bound with a precondition stays: it holds for the inputs within it.
            if report.status != AnalysisStatus::Bounded {
                report.status = AnalysisStatus::Unbounded;
                report.reason = Some(Reason::new(ReasonKind::Nonterminating, reason_text(&witness)));
            }
            report.terminates = Some(false);
            report.witness = Some(witness);
        }
    }
}

/// The report's reason for a confirmed witness.
fn reason_text(witness: &Witness) -> String {
    let place = if witness.recursion {
        "the method calls itself without end".to_owned()
    } else {
        match witness.line {
            Some(line) => format!("the loop at line {line} never ends"),
            None => format!("the loop at offset {} never ends", witness.offset),
        }
    };
    format!("{place} for the input ({})", witness.arguments.join(", "))
}

/// Runs the method on a candidate's input; the witness when the run confirms it.
fn run(package: &Package, report: &MethodReport, proof: &Proof) -> Option<Witness> {
    let class = report.class.replace('.', "/");
    let launcher = package.entry(&class, &report.name, &report.descriptor)?;
    let args: Vec<Value> = proof.inputs.iter().map(value).collect();
    let config = RunConfig {
        limits: Limits {
            max_bytecodes: CONFIRM_BYTECODES,
            ..Limits::default()
        },
        cct: false,
    };
    let (outcome, period) = catch_unwind(AssertUnwindSafe(|| {
        let mut machine = Machine::new(package, config);
        machine.run_watching(launcher, &args)
    }))
    .ok()?;
    let confirmed = confirmation(&outcome.ending, period, proof.recursion);
    super::debug_timing(|| {
        let inputs: Vec<String> = proof.inputs.iter().map(Input::to_string).collect();
        format!(
            "nontermination {}.{}: ({}) in {} ran to {:?}",
            report.class,
            report.name,
            inputs.join(", "),
            proof.set,
            outcome.ending
        )
    });
    let confirmed = confirmed?;
    Some(Witness {
        arguments: proof.inputs.iter().map(Input::to_string).collect(),
        args: args_json(&proof.inputs),
        recursion: proof.recursion,
        line: if proof.recursion {
            report.line
        } else {
            report
                .loops
                .iter()
                .find(|l| l.offset == proof.offset)
                .and_then(|l| l.line)
        },
        offset: proof.offset,
        recurrent_set: proof.set.clone(),
        confirmed,
        replay: String::new(),
    })
}

/// What an ending shows: for a loop, that its state repeated (a proof, the VM being
/// deterministic) or that it ran past the budget; for recursion, that too or a stack overflow.
pub fn confirmation(ending: &Ending, period: Option<u64>, recursion: bool) -> Option<String> {
    match ending {
        Ending::StepLimit => Some(match period {
            Some(calls) => format!("the run's state repeated after {calls} calls of its procedures"),
            None => format!("still running after {CONFIRM_BYTECODES} bytecodes"),
        }),
        Ending::StackOverflow if recursion => Some("the VM's call stack overflowed".to_owned()),
        _ => None,
    }
}

/// The VM's value of a witness argument.
pub fn value(input: &Input) -> Value {
    match input {
        Input::Int { value } => Value::Int(*value),
        Input::Long { value } => Value::Long(*value),
        Input::Float { bits } => Value::Float(*bits),
        Input::Double { bits } => Value::Double(*bits),
        Input::Null => Value::Null,
        Input::String { length } => Value::Str(vec![u16::from(b'a'); *length as usize]),
        Input::References {
            descriptor,
            length,
            elements,
        } => Value::Array {
            descriptor: descriptor.clone(),
            elements: (0..*length as usize)
                .map(|j| elements.get(j).map_or(Value::Null, value))
                .collect(),
        },
        Input::Array {
            descriptor,
            length,
            elements,
        } => {
            let component = &descriptor[1..];
            let elements = (0..*length as usize)
                .map(|j| element(component, elements.get(j).copied().unwrap_or(0)))
                .collect();
            Value::Array {
                descriptor: descriptor.clone(),
                elements,
            }
        }
        Input::Object { class, fields } => Value::Object {
            class: class.clone(),
            fields: fields.iter().map(|(name, v)| (name.clone(), value(v))).collect(),
        },
    }
}

/// An array element of the component type `component` holding `v`.
fn element(component: &str, v: i64) -> Value {
    match component {
        "J" => Value::Long(v),
        "F" => Value::Float(v as u32),
        "D" => Value::Double(v as u64),
        "I" | "Z" | "B" | "C" | "S" => Value::Int(v as i32),
        _ => Value::Null,
    }
}

/// The arguments as a JSON array, as `jresa run --args` reads them.
pub fn args_json(inputs: &[Input]) -> String {
    let values: Vec<serde_json::Value> = inputs.iter().map(json).collect();
    serde_json::Value::Array(values).to_string()
}

fn json(input: &Input) -> serde_json::Value {
    use serde_json::{json, Value as J};
    match input {
        Input::Int { value } => json!(value),
        Input::Long { value } => json!(value),
        Input::Float { bits } => json!(f32::from_bits(*bits)),
        Input::Double { bits } => json!(f64::from_bits(*bits)),
        Input::Null => J::Null,
        Input::String { length } => json!("a".repeat(*length as usize)),
        Input::References { length, elements, .. } if elements.len() as i64 == i64::from(*length) => {
            J::Array(elements.iter().map(json).collect())
        }
        Input::References { length, elements, .. } => {
            json!({ "length": length, "elements": elements.iter().map(json).collect::<Vec<_>>() })
        }
        Input::Array { length, elements, .. } if elements.len() as i64 == i64::from(*length) => json!(elements),
        Input::Array { length, elements, .. } => json!({ "length": length, "elements": elements }),
        Input::Object { fields, .. } => J::Object(fields.iter().map(|(n, v)| (n.clone(), json(v))).collect()),
    }
}
