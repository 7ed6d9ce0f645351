//! Validation of bounds by execution (`jresa validate`): every method with a bound is run on the VM
//! on bounded-exhaustive instances (`instances`: from its signature, with Korat structures for
//! objects; or `sequences`: states reached by call sequences), each instance's measured cost is
//! compared with the bound evaluated at the instance's sizes, and the results are gathered per
//! method (`tally`): instances, violations, tightness (measured / bound) overall and per size.
//!
//! **A violation is a measured cost above the bound on an instance inside the bound's assumptions;
//! every one is reported with its instance number, which replays it alone (`--instance`). The
//! bounds come from the analysis (`validate`) or from the caller (`validate_bounds`, which tests
//! use to inject wrong bounds); nothing else differs between the two.**

mod amortised;
mod clock;
mod instances;
mod requires;
mod sequences;
mod tally;

use crate::analyze::{cost_model_name, AnalysisReport, AnalysisStatus, MethodReport};
use crate::check::{CheckReport, CheckStatus, MethodCheck};
use crate::classfile::{ClassFile, ClassPath};
use crate::vm_source::JvmClassSource;
use jresa_analyses::cost_model::CostModel;
use jresa_gpu_validate::check::{BoundForm, MethodBound};
use jresa_gpu_validate::generate::Strategy;
use jresa_gpu_validate::requires::Precondition;
use jresa_gpu_validate::sequence::SequenceSettings;
use jresa_gpu_validate::{BackendKind, Backends, ClassSource, Package};
use num_rational::BigRational;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use clock::execution_totals;
pub use tally::{InstanceDetail, SizeRow};

/// Version of the JSON report of `jresa validate`.
pub const VALIDATION_VERSION: u32 = 1;

/// Violating instances listed per method, at most (all are counted).
pub const MAX_LISTED_VIOLATIONS: usize = 10;

/// Sequence exploration instead of instances from signatures.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceOptions {
    /// The data-structure class (internal name); `None` to take the one input class that declares
    /// every method named.
    pub class: Option<String>,
    /// The names of the methods called in sequences (every overload of each).
    pub methods: Vec<String>,
    pub settings: SequenceSettings,
}

/// How a validation runs.
#[derive(Clone)]
pub struct ValidateOptions<'a> {
    pub model: CostModel,
    /// The largest scope tried: ints up to it, arrays and strings up to this length, structures up
    /// to this many objects per class.
    pub max_size: u32,
    /// Instances per method at most: the scope is the largest size up to `max_size` whose
    /// instances fit.
    pub max_instances: usize,
    pub strategy: Strategy,
    /// Run only this instance (its number at `max_size`, or the call number in sequences).
    pub instance: Option<u128>,
    pub sequences: Option<SequenceOptions>,
    /// The command line a replay starts with (inputs and options that change instances), to which
    /// `--method`, `--max-size` and `--instance` are added.
    pub replay_prefix: String,
    /// Where instances run.
    pub backend: BackendKind,
    /// How a kernel backend maps instances to the device's threads.
    pub mapping: jresa_gpu_validate::kernel::Mapping,
    /// Called once per finished method.
    pub progress: Option<&'a (dyn Fn(usize) + Sync)>,
}

impl ValidateOptions<'_> {
    /// Options with the given model and scope, and no replay, sequences or progress.
    pub fn new(model: CostModel, max_size: u32, max_instances: usize) -> ValidateOptions<'static> {
        ValidateOptions {
            model,
            max_size,
            max_instances,
            strategy: Strategy::Worklist,
            instance: None,
            sequences: None,
            replay_prefix: "jresa validate".into(),
            backend: BackendKind::Cpu,
            mapping: jresa_gpu_validate::kernel::Mapping::Auto,
            progress: None,
        }
    }
}

/// What the analysis or the check that gives methods their bounds said about a method; it
/// serializes as the status's own name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProofStatus {
    Analysis(AnalysisStatus),
    Check(CheckStatus),
}

impl std::fmt::Display for ProofStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProofStatus::Analysis(status) => status.name(),
            ProofStatus::Check(status) => status.name(),
        })
    }
}

/// A method and the bound to check (or why it has none).
#[derive(Clone, Debug, PartialEq)]
pub struct BoundToCheck {
    /// Internal name (slashes).
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub bound: Option<MethodBound>,
    /// The bound's text and class, for the report.
    pub bound_text: Option<String>,
    pub complexity: Option<String>,
    /// Why there is no bound.
    pub reason: Option<String>,
    /// The status the bound's analysis or check gave the method.
    pub status: ProofStatus,
    pub source_file: Option<String>,
    pub line: Option<u32>,
    /// For a bound of `jresa check`: the values of the method's resource variables. The bound is
    /// the potential its `@Requires` gives each instance (`bound` is filled in from the classfile
    /// when the validation starts).
    pub resources: Option<Vec<(String, BigRational)>>,
}

impl BoundToCheck {
    /// The bound of an analysed method.
    pub fn of_report(report: &MethodReport) -> BoundToCheck {
        let bound = report.bound.as_ref().map(|expr| MethodBound {
            form: BoundForm::Closed(expr.clone()),
            parameters: report.parameters.clone(),
            ranges: report
                .parameter_ranges
                .iter()
                .map(|r| (r.parameter.clone(), r.min, r.max))
                .collect(),
        });
        let reason = bound.is_none().then(|| no_bound(report.status, report.reason_text()));
        BoundToCheck {
            class: report.class.replace('.', "/"),
            name: report.name.clone(),
            descriptor: report.descriptor.clone(),
            bound,
            bound_text: report.upper_bound.clone(),
            complexity: report.complexity.clone(),
            reason,
            status: ProofStatus::Analysis(report.status),
            source_file: report.source_file.clone(),
            line: report.line,
            resources: None,
        }
    }

    /// The bound `jresa check` proved for an annotated method (verified or inferred), checked
    /// under the consume model; a method whose specification failed has none.
    pub fn of_check(method: &MethodCheck) -> BoundToCheck {
        let resources = method
            .outcome
            .as_ref()
            .filter(|o| CheckStatus::from(o.status).holds())
            .map(|o| o.resource_variables.clone());
        let reason = resources
            .is_none()
            .then(|| no_bound(method.status, method.reason.as_deref()));
        BoundToCheck {
            class: method.class.replace('.', "/"),
            name: method.name.clone(),
            descriptor: method.descriptor.clone(),
            bound: None,
            bound_text: method.bound.clone(),
            complexity: None,
            reason,
            status: ProofStatus::Check(method.status),
            source_file: method.source_file.clone(),
            line: method.method_line,
            resources,
        }
    }
}

/// Why a method has no bound to check: its status and the reason the analysis gave.
fn no_bound(status: impl std::fmt::Display, reason: Option<&str>) -> String {
    match reason {
        Some(reason) => format!("no bound ({status}): {reason}"),
        None => format!("no bound ({status})"),
    }
}

/// Summary of a sequence exploration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequenceSummary {
    pub class: String,
    pub methods: Vec<String>,
    pub max_length: u32,
    pub values: u32,
    pub matching: String,
    pub calls: usize,
    pub states: usize,
    pub dropped_states: usize,
    pub failed_calls: usize,
    pub truncated: bool,
    /// The amortised claim checked on every sequence (bounds of `jresa check` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amortised: Option<Box<AmortisedSequences>>,
}

/// The amortised claim of the bounds of `jresa check` on the explored sequences: each sequence's
/// consume units against the potential of its first state plus the constant of each call's
/// precondition (`validate/amortised.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AmortisedSequences {
    /// Sequences explored (one per call: the sequence it ends).
    pub sequences: usize,
    /// Sequences judged against the claim.
    pub checked: usize,
    pub violations: usize,
    /// Sequences outside the claim's assumptions (a call outside its precondition, or of a
    /// method without a verified bound), with their extensions.
    pub skipped: usize,
    /// Sequences the VM could not judge.
    pub inconclusive: usize,
    /// Why sequences were skipped or inconclusive, with counts.
    pub note: Option<String>,
    /// The largest measured / bound over the judged sequences.
    pub max_ratio: Option<f64>,
    /// Tightness by sequence length.
    pub by_length: Vec<LengthRow>,
    /// The first violating sequences.
    pub violating: Vec<SequenceViolation>,
}

/// The tightness of the judged sequences of one length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthRow {
    pub length: u32,
    pub sequences: usize,
    pub max_ratio: f64,
    pub median_ratio: f64,
    pub max_measured: u64,
    /// The largest bound among them (exact).
    pub max_bound: String,
}

/// A sequence whose calls consume more than the amortised claim allows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequenceViolation {
    /// The calls, first to last, as `name(arguments)`.
    pub calls: Vec<String>,
    pub measured: u64,
    pub bound: String,
    /// The command that replays the sequence (the number of its last call).
    pub replay: String,
}

/// The verdict on a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValidationStatus {
    /// Every judged instance is within the bound.
    Confirmed,
    /// Some instance exceeds the bound.
    Violated,
    /// Nothing was judged (no bound, no instances, the VM could not run it).
    NotValidated,
}

impl ValidationStatus {
    pub fn name(self) -> &'static str {
        match self {
            ValidationStatus::Confirmed => "confirmed",
            ValidationStatus::Violated => "violated",
            ValidationStatus::NotValidated => "not validated",
        }
    }
}

/// The validation of one method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodValidation {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub status: ValidationStatus,
    /// The status the bound's analysis or check gave the method.
    pub analysis_status: ProofStatus,
    pub bound: Option<String>,
    pub complexity: Option<String>,
    pub parameters: Vec<String>,
    /// Why the method was not validated, or what limited it.
    pub reason: Option<String>,
    /// The scope the instances cover (signature mode).
    pub max_size: Option<u32>,
    /// The `@Requires` the instances satisfy (signature mode; instances from the signature that
    /// do not satisfy it are dropped, as Tempo's `_ignoreIf`).
    pub requires: Option<String>,
    /// Instances from the signature dropped for not satisfying `requires`.
    pub outside_requires: usize,
    /// Instances run.
    pub instances: usize,
    /// Instances judged against the bound.
    pub checked: usize,
    pub violations: usize,
    /// Instances outside the bound's assumptions (cyclic structures, parameters outside the
    /// ranges the bound is proven for).
    pub skipped: usize,
    /// Instances the VM could not judge (refused, or stopped by a limit within the bound).
    pub inconclusive: usize,
    pub max_ratio: Option<f64>,
    pub median_ratio: Option<f64>,
    pub by_size: Vec<SizeRow>,
    /// The first violating instances.
    pub violating_instances: Vec<InstanceDetail>,
    /// The instance `--instance` asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replayed: Option<InstanceDetail>,
    #[serde(skip)]
    pub source_file: Option<String>,
    #[serde(skip)]
    pub line: Option<u32>,
}

/// The result of a validation run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationReport {
    pub version: u32,
    #[serde(with = "cost_model_name")]
    pub cost_model: CostModel,
    pub backend: String,
    pub strategy: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequences: Option<SequenceSummary>,
    pub methods: Vec<MethodValidation>,
    /// The methods with a bound that were not validated, grouped by why, most first.
    pub not_validated: Vec<ReasonCount>,
    /// What a kernel backend ran and left to the CPU (printed, not part of the JSON report).
    #[serde(skip)]
    pub backend_statistics: Option<String>,
}

/// How many methods with a bound were not validated for one reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonCount {
    pub reason: String,
    pub methods: usize,
}

impl ValidationReport {
    /// Violations over all methods, and violating sequences of the amortised claim.
    pub fn violations(&self) -> usize {
        let sequences = self
            .sequences
            .as_ref()
            .and_then(|s| s.amortised.as_ref())
            .map_or(0, |a| a.violations);
        self.methods.iter().map(|m| m.violations).sum::<usize>() + sequences
    }
}

/// Validates the bounds `jresa check` proved (under the consume model, which `options` must
/// name): each verified or inferred method runs on instances of its `@Requires`, and its cost must
/// stay within the potential the precondition gives the instance.
pub fn validate_check(
    classes: &[ClassFile],
    classpath: Option<ClassPath>,
    report: &CheckReport,
    options: &ValidateOptions<'_>,
) -> Result<ValidationReport, String> {
    if options.model != CostModel::Consume {
        return Err("the bounds of `jresa check` count `Resource.consume` units: use --cost-model consume".into());
    }
    let bounds: Vec<BoundToCheck> = report.methods.iter().map(BoundToCheck::of_check).collect();
    validate_bounds(classes, classpath, &bounds, options)
}

/// Validates the bounds of an analysis report (methods without a bound are listed, not run).
pub fn validate(
    classes: &[ClassFile],
    classpath: Option<ClassPath>,
    report: &AnalysisReport,
    options: &ValidateOptions<'_>,
) -> Result<ValidationReport, String> {
    let bounds: Vec<BoundToCheck> = report.methods.iter().map(BoundToCheck::of_report).collect();
    validate_bounds(classes, classpath, &bounds, options)
}

/// Validates the given bounds: the entry point for bounds that do not come from the analysis.
/// `Err` when the methods cannot be packaged for the VM at all, or the sequence options name
/// nothing that can be explored.
pub fn validate_bounds(
    classes: &[ClassFile],
    classpath: Option<ClassPath>,
    bounds: &[BoundToCheck],
    options: &ValidateOptions<'_>,
) -> Result<ValidationReport, String> {
    let source = JvmClassSource::new(classes.iter().cloned(), classpath);
    let preconditions: Vec<Option<Result<Precondition, String>>> = bounds
        .iter()
        .map(|b| requires::precondition(classes, &source, b))
        .collect();
    let bounds: Vec<BoundToCheck> = bounds
        .iter()
        .zip(&preconditions)
        .map(|(b, p)| requires::with_potential(b, p.as_ref()))
        .collect();
    let bounds = &bounds[..];
    let mut report = ValidationReport {
        version: VALIDATION_VERSION,
        cost_model: options.model,
        backend: backend_name(options.backend),
        strategy: options.strategy.name().to_owned(),
        sequences: None,
        methods: Vec::new(),
        not_validated: Vec::new(),
        backend_statistics: None,
    };
    if let Some(sequence_options) = &options.sequences {
        let (methods, summary) = sequences::validate_sequences(&source, classes, bounds, sequence_options, options)?;
        report.methods = methods;
        report.sequences = Some(summary);
        report.not_validated = tally::not_validated_by_reason(&report.methods);
        return Ok(report);
    }
    let package = build_package(&source, classes, bounds)?;
    let backends = Backends::new(options.backend, &package)?.with_mapping(options.mapping);
    // Methods are validated in parallel (each one's instances too); the report keeps their order.
    report.methods = bounds
        .par_iter()
        .zip(&preconditions)
        .map(|(bound, precondition)| {
            let validated = instances::validate_method(&backends, &source, bound, precondition.as_ref(), options);
            if let Some(progress) = options.progress {
                progress(1);
            }
            validated
        })
        .collect();
    report.not_validated = tally::not_validated_by_reason(&report.methods);
    report.backend_statistics = backends.statistics();
    Ok(report)
}

/// The package of every method with a bound and every `repOK()` of the inputs.
fn build_package(source: &JvmClassSource, classes: &[ClassFile], bounds: &[BoundToCheck]) -> Result<Package, String> {
    let mut entries: Vec<(String, String, String)> = bounds
        .iter()
        .filter(|b| b.bound.is_some())
        .filter(|b| {
            source
                .class(&b.class)
                .and_then(|c| c.method(&b.name, &b.descriptor).map(|m| m.has_code))
                .unwrap_or(false)
        })
        .map(|b| (b.class.clone(), b.name.clone(), b.descriptor.clone()))
        .collect();
    for class in classes {
        if class
            .methods
            .iter()
            .any(|m| m.name == "repOK" && m.descriptor == "()Z" && m.code.is_some())
        {
            entries.push((class.name.clone(), "repOK".into(), "()Z".into()));
        }
    }
    entries.sort();
    entries.dedup();
    Package::build(source, &entries).map_err(|e| format!("the methods cannot be packaged for the VM: {e}"))
}

/// A method's validation before anything ran: its identity and bound.
fn blank(bound: &BoundToCheck) -> MethodValidation {
    MethodValidation {
        class: bound.class.replace('/', "."),
        name: bound.name.clone(),
        descriptor: bound.descriptor.clone(),
        status: ValidationStatus::NotValidated,
        analysis_status: bound.status,
        bound: bound
            .bound_text
            .clone()
            .or_else(|| bound.bound.as_ref().map(|b| b.form.to_string())),
        complexity: bound.complexity.clone(),
        parameters: bound.bound.as_ref().map(|b| b.parameters.clone()).unwrap_or_default(),
        reason: bound.reason.clone(),
        max_size: None,
        requires: None,
        outside_requires: 0,
        instances: 0,
        checked: 0,
        violations: 0,
        skipped: 0,
        inconclusive: 0,
        max_ratio: None,
        median_ratio: None,
        by_size: Vec::new(),
        violating_instances: Vec::new(),
        replayed: None,
        source_file: bound.source_file.clone(),
        line: bound.line,
    }
}

/// The name a report gives the backend.
fn backend_name(kind: BackendKind) -> String {
    match kind {
        BackendKind::Cpu | BackendKind::Auto => "cpu".into(),
        BackendKind::HostKernel => "kernel on the host (C)".into(),
        BackendKind::Cuda => jresa_gpu_validate::kernel::cuda::available().unwrap_or_else(|_| "cuda".into()),
    }
}
