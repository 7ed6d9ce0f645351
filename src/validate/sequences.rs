//! Sequence mode: the methods named by `--sequences` are called in every sequence up to a length on
//! an object of their class (`jresa_gpu_validate::sequence`), and every call is checked against
//! its method's bound with the receiver's state before the call as `this`; with the bounds of
//! `jresa check`, every sequence is also checked against their amortised claim (`amortised.rs`).

use super::amortised;
use super::instances::{parameter_types, OTHER_MODELS_MAX_BYTECODES};
use super::tally::{detail, Tally};
use super::{blank, BoundToCheck, MethodValidation, ProofStatus, SequenceOptions, SequenceSummary, ValidateOptions};
use crate::analyze::AnalysisStatus;
use crate::classfile::ClassFile;
use crate::vm_source::JvmClassSource;
use jresa_analyses::ir::split_method_descriptor;
use jresa_gpu_validate::check::metric;
use jresa_gpu_validate::sequence::{explore_sequences, sequence_domain, Matching, SequenceMethod};
use jresa_gpu_validate::{make_backend, CpuBackend, Limits, Package, RunConfig};

/// The class whose methods are explored: the one given (by binary, internal or simple name), or
/// the one input class that declares a non-static method of every name.
fn explored_class<'c>(classes: &'c [ClassFile], options: &SequenceOptions) -> Result<&'c ClassFile, String> {
    let declares_all = |class: &ClassFile| {
        options.methods.iter().all(|name| {
            class
                .methods
                .iter()
                .any(|m| m.name == *name && m.access & 0x0008 == 0 && m.code.is_some())
        })
    };
    match &options.class {
        Some(given) => {
            let wanted = given.replace('.', "/");
            classes
                .iter()
                .find(|c| c.name == wanted || c.name.rsplit('/').next() == Some(wanted.as_str()))
                .ok_or_else(|| format!("no input class {given}"))
        }
        None => {
            let matching: Vec<&ClassFile> = classes.iter().filter(|c| declares_all(c)).collect();
            match matching.as_slice() {
                [one] => Ok(one),
                [] => Err(format!(
                    "no input class declares instance methods named {}",
                    options.methods.join(", ")
                )),
                _ => Err(format!(
                    "several input classes declare {} ({}); choose one with --class",
                    options.methods.join(", "),
                    matching
                        .iter()
                        .map(|c| c.name.replace('/', "."))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
    }
}

/// Explores the sequences and checks every call.
pub(crate) fn validate_sequences(
    source: &JvmClassSource,
    classes: &[ClassFile],
    bounds: &[BoundToCheck],
    sequence_options: &SequenceOptions,
    options: &ValidateOptions<'_>,
) -> Result<(Vec<MethodValidation>, SequenceSummary), String> {
    let class = explored_class(classes, sequence_options)?;
    let mut keys: Vec<(String, String, String)> = Vec::new();
    for name in &sequence_options.methods {
        let found: Vec<_> = class
            .methods
            .iter()
            .filter(|m| m.name == *name && m.access & 0x0008 == 0 && m.code.is_some())
            .map(|m| (class.name.clone(), m.name.clone(), m.descriptor.clone()))
            .collect();
        if found.is_empty() {
            return Err(format!(
                "{} declares no instance method {name} with code",
                class.name.replace('/', ".")
            ));
        }
        keys.extend(found);
    }
    let has_constructor = class
        .methods
        .iter()
        .any(|m| m.name == "<init>" && m.descriptor == "()V" && m.code.is_some());
    if !has_constructor {
        return Err(format!(
            "{} has no constructor without arguments to start sequences from",
            class.name.replace('/', ".")
        ));
    }
    let mut entries = keys.clone();
    entries.push((class.name.clone(), "<init>".into(), "()V".into()));
    let package =
        Package::build(source, &entries).map_err(|e| format!("the methods cannot be packaged for the VM: {e}"))?;
    let methods: Vec<SequenceMethod> = keys
        .iter()
        .map(|key| {
            let params = split_method_descriptor(&key.2).map(|(p, _)| p).unwrap_or_default();
            SequenceMethod {
                key: key.clone(),
                domains: params
                    .iter()
                    .map(|d| sequence_domain(d, sequence_options.settings.values))
                    .collect(),
            }
        })
        .collect();
    let config = RunConfig {
        limits: Limits {
            max_bytecodes: OTHER_MODELS_MAX_BYTECODES,
            ..Limits::default()
        },
        cct: false,
    };
    let backend =
        make_backend(options.backend, &package, config).unwrap_or_else(|_| Box::new(CpuBackend::new(&package, config)));
    let exploration = explore_sequences(backend.as_ref(), &class.name, &methods, &sequence_options.settings)?;
    let method_bounds: Vec<BoundToCheck> = keys
        .iter()
        .map(|(c, n, d)| {
            bounds
                .iter()
                .find(|b| b.class == *c && b.name == *n && b.descriptor == *d)
                .cloned()
                .unwrap_or_else(|| BoundToCheck {
                    class: c.clone(),
                    name: n.clone(),
                    descriptor: d.clone(),
                    bound: None,
                    bound_text: None,
                    complexity: None,
                    reason: Some("not analysed".into()),
                    status: ProofStatus::Analysis(AnalysisStatus::Error),
                    source_file: None,
                    line: None,
                    resources: None,
                })
        })
        .collect();
    let types: Vec<Vec<String>> = method_bounds
        .iter()
        .map(|b| parameter_types(source, b).map(|(t, _)| t).unwrap_or_default())
        .collect();
    let mut tallies: Vec<Tally> = keys.iter().map(|_| Tally::default()).collect();
    let mut out: Vec<MethodValidation> = method_bounds.iter().map(blank).collect();
    for call in &exploration.calls {
        if options.instance.is_some_and(|wanted| wanted != u128::from(call.number)) {
            continue;
        }
        let Some(bound) = &method_bounds[call.method].bound else {
            continue;
        };
        let verdict = bound.check(options.model, &call.args, &call.outcome);
        let group = bound.prepare(&call.args).map_or(0, |(_, size)| size);
        let measured = metric(options.model, &call.outcome.metrics);
        let make_detail = || {
            detail(
                u128::from(call.number),
                &call.args,
                &types[call.method],
                &call.outcome,
                &verdict,
                measured,
                format!("{} --instance {}", options.replay_prefix, call.number),
            )
        };
        if options.instance.is_some() {
            out[call.method].replayed = Some(make_detail());
        }
        tallies[call.method].add(&verdict, group, make_detail);
    }
    let method_names: Vec<String> = keys.iter().map(|(_, name, _)| name.clone()).collect();
    let potentials: Vec<_> = method_bounds.iter().map(|b| b.bound.clone()).collect();
    // A replay (`--instance`) reports the sequence that ends with the call asked for.
    let mut amortised = amortised::judge_sequences(
        &exploration.calls,
        &potentials,
        &method_names,
        &types,
        options.model,
        &options.replay_prefix,
        options.instance.and_then(|n| u64::try_from(n).ok()),
    );
    if let Some(judged) = amortised.as_mut() {
        if sequence_options.settings.matching != Matching::None {
            let partial =
                "only the sequences that first reached each state were run (--matching none runs every sequence)";
            judged.note = Some(match judged.note.take() {
                Some(note) => format!("{partial}; {note}"),
                None => partial.to_owned(),
            });
        }
    }
    for ((validation, tally), bound) in out.iter_mut().zip(tallies).zip(&method_bounds) {
        if bound.bound.is_some() {
            tally.finish(validation);
        }
        if let Some(progress) = options.progress {
            progress(1);
        }
    }
    let summary = SequenceSummary {
        class: class.name.replace('/', "."),
        methods: sequence_options.methods.clone(),
        max_length: sequence_options.settings.max_length,
        values: sequence_options.settings.values,
        matching: sequence_options.settings.matching.name().to_owned(),
        calls: exploration.calls.len(),
        states: exploration.states,
        dropped_states: exploration.dropped,
        failed_calls: exploration.failed,
        truncated: exploration.truncated,
        amortised: amortised.map(Box::new),
    };
    Ok((out, summary))
}
