//! The neutral per-method summary that the SARIF and Markdown renderers read: method identity,
//! source location, status, bound, message and change against a baseline. `analyze` and `ci` fill
//! it here; any subcommand that judges methods (specification checks, validation by execution)
//! fills the same fields, mapping its verdicts onto `Status`.
//!
//! **Renderers read only this summary, never a subcommand's own report, so every format means the
//! same for every subcommand; rows keep the producer's order.**

use crate::analyze::{AnalysisReport, AnalysisStatus, LoopReport, MethodReport, Witness};
use crate::baseline::compare::{ChangeKind, ComparisonReport};
use crate::check::CheckStatus;
use crate::validate::{InstanceDetail, MethodValidation, ProofStatus, SizeRow, ValidationReport, ValidationStatus};

/// Where a class's source file lies, relative to the repository or source root (for SARIF
/// `artifactLocation.uri`): from the class's binary name and its `SourceFile`.
pub type SourceLocator<'a> = dyn Fn(&str, Option<&str>) -> Option<String> + 'a;

/// What a subcommand says about a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A bound was proven (or a specification verified, or a bound confirmed by execution).
    Bounded,
    /// No bound: a loop or recursion without a ranking function.
    Unbounded,
    /// No bound for another reason (an unresolved call, a budget).
    Unknown,
    /// The method could not be analysed at all (not lifted).
    Error,
    /// A specification or a measurement contradicts the method's bound.
    Violated,
}

impl From<AnalysisStatus> for Status {
    fn from(status: AnalysisStatus) -> Status {
        match status {
            AnalysisStatus::Bounded => Status::Bounded,
            AnalysisStatus::Unbounded => Status::Unbounded,
            AnalysisStatus::Unknown => Status::Unknown,
            AnalysisStatus::Error => Status::Error,
        }
    }
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Bounded => "bounded",
            Status::Unbounded => "unbounded",
            Status::Unknown => "unknown",
            Status::Error => "not analysed",
            Status::Violated => "violated",
        }
    }
}

/// A method's change against a baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeSummary {
    pub kind: ChangeKind,
    pub old_bound: Option<String>,
    pub old_complexity: Option<String>,
    /// The status in the baseline.
    pub old_status: Option<AnalysisStatus>,
    pub detail: String,
    /// Whether the change fails the run.
    pub fails: bool,
}

/// One method.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodSummary {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    /// The source file, relative to the repository or source root.
    pub source_path: Option<String>,
    pub line: Option<u32>,
    pub status: Status,
    pub bound: Option<String>,
    pub complexity: Option<String>,
    /// Why there is no bound, or what is violated.
    pub message: Option<String>,
    pub change: Option<ChangeSummary>,
    /// The termination verdict, where the analysis gave one.
    pub terminates: Option<bool>,
    /// The method's loops, with their ranking functions or why they have none.
    pub loops: Vec<LoopReport>,
    /// What running the method on instances measured (`validate`).
    pub measured: Option<Measured>,
    /// An input on which the method does not terminate, where the analysis found one.
    pub witness: Option<Witness>,
}

/// What running a method on instances measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Instances judged against the bound.
    pub checked: usize,
    /// Per instance size, the largest measured cost and bound value.
    pub by_size: Vec<SizeRow>,
    /// Measured cost over bound: the largest and the median.
    pub max_ratio: Option<f64>,
    pub median_ratio: Option<f64>,
    /// Instances over the bound, and the first of them.
    pub violations: usize,
    pub violating_instances: Vec<InstanceDetail>,
}

impl Measured {
    fn of(m: &MethodValidation) -> Option<Measured> {
        (m.checked > 0 || m.violations > 0).then(|| Measured {
            checked: m.checked,
            by_size: m.by_size.clone(),
            max_ratio: m.max_ratio,
            median_ratio: m.median_ratio,
            violations: m.violations,
            violating_instances: m.violating_instances.clone(),
        })
    }
}

impl MethodSummary {
    /// `pkg.Class.name(descriptor)`.
    pub fn qualified_name(&self) -> String {
        format!("{}.{}{}", self.class, self.name, self.descriptor)
    }
}

/// What a run found, for SARIF and Markdown.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The subcommand: `analyze`, `ci`, ...
    pub command: String,
    pub cost_model: String,
    /// A line shown under the Markdown heading (e.g. what the run fails on).
    pub note: Option<String>,
    pub methods: Vec<MethodSummary>,
}

/// The summary of one method of an analysis report.
fn of_method(m: &MethodReport, locate: &SourceLocator<'_>) -> MethodSummary {
    MethodSummary {
        class: m.class.clone(),
        name: m.name.clone(),
        descriptor: m.descriptor.clone(),
        source_path: locate(&m.class.replace('.', "/"), m.source_file.as_deref()),
        line: m.line,
        status: m.status.into(),
        bound: m.upper_bound.clone(),
        complexity: m.complexity.clone(),
        message: m.reason_text().map(str::to_owned),
        change: None,
        terminates: m.terminates,
        loops: m.loops.clone(),
        measured: None,
        witness: m.witness.clone(),
    }
}

/// The summary of an `analyze` run.
pub fn of_analysis(report: &AnalysisReport, locate: &SourceLocator<'_>) -> Summary {
    Summary {
        command: "analyze".into(),
        cost_model: report.cost_model.name().to_owned(),
        note: None,
        methods: report.methods.iter().map(|m| of_method(m, locate)).collect(),
    }
}

/// The summary of a `ci` run: every compared method, removed ones with their baseline state.
pub fn of_comparison(report: &ComparisonReport, locate: &SourceLocator<'_>) -> Summary {
    let methods = report
        .methods
        .iter()
        .map(|m| {
            let change = ChangeSummary {
                kind: m.change,
                old_bound: m.old.as_ref().and_then(|o| o.upper_bound.clone()),
                old_complexity: m.old.as_ref().and_then(|o| o.complexity.clone()),
                old_status: m.old.as_ref().map(|o| o.status),
                detail: m.detail.clone(),
                fails: m.fails,
            };
            // Without the run's report (a removed method, or a report read back from JSON),
            // the method is shown as the comparison records it.
            let state = m.new.as_ref().or(m.old.as_ref());
            let mut summary = match &m.report {
                Some(r) => of_method(r, locate),
                None => MethodSummary {
                    class: m.class.clone(),
                    name: m.name.clone(),
                    descriptor: m.descriptor.clone(),
                    source_path: None,
                    line: None,
                    status: state.map_or(Status::Unknown, |s| s.status.into()),
                    bound: m.new.as_ref().and_then(|s| s.upper_bound.clone()),
                    complexity: m.new.as_ref().and_then(|s| s.complexity.clone()),
                    message: None,
                    change: None,
                    terminates: None,
                    loops: Vec::new(),
                    measured: None,
                    witness: None,
                },
            };
            summary.change = Some(change);
            summary
        })
        .collect();
    let counts = &report.counts;
    let methods_text = format!(
        "{} method{}",
        counts.failures,
        if counts.failures == 1 { "" } else { "s" }
    );
    let fail_on = report.fail_on.name();
    let note = match (counts.failures, report.accepted) {
        (0, _) => format!("Passes `--fail-on {fail_on}`"),
        (_, false) => format!("Fails `--fail-on {fail_on}` ({methods_text})"),
        (_, true) => format!("{methods_text} would fail `--fail-on {fail_on}`; accepted into the baseline"),
    };
    Summary {
        command: "ci".into(),
        cost_model: report.cost_model.name().to_owned(),
        note: Some(note),
        methods,
    }
}

/// The summary of a `validate` run: confirmed bounds as bounded, violated ones as violated (with
/// the first violating instance), methods without a bound with the analysis' status.
pub fn of_validation(report: &ValidationReport, locate: &SourceLocator<'_>) -> Summary {
    let methods = report
        .methods
        .iter()
        .map(|m| {
            let status = match m.status {
                ValidationStatus::Confirmed => Status::Bounded,
                ValidationStatus::Violated => Status::Violated,
                ValidationStatus::NotValidated => match m.analysis_status {
                    ProofStatus::Analysis(status) => status.into(),
                    ProofStatus::Check(CheckStatus::Error) => Status::Error,
                    ProofStatus::Check(_) => Status::Unknown,
                },
            };
            let tightness = match (m.max_ratio, m.median_ratio) {
                (Some(max), Some(median)) => format!(
                    "; tightness max {}, median {}",
                    super::validate::ratio_text(max),
                    super::validate::ratio_text(median)
                ),
                _ => String::new(),
            };
            let message = match m.status {
                ValidationStatus::Confirmed => Some(format!(
                    "confirmed on {} instances{}{tightness}",
                    m.checked,
                    m.max_size.map(|s| format!(" up to size {s}")).unwrap_or_default()
                )),
                ValidationStatus::Violated => {
                    let first = m.violating_instances.first().map(|d| {
                        format!(
                            "; instance {} ({}) measured {} against {}; replay: {}",
                            d.number,
                            d.arguments,
                            d.measured.unwrap_or(0),
                            d.bound.as_deref().unwrap_or("?"),
                            d.replay
                        )
                    });
                    Some(format!(
                        "{} of {} instances exceed the bound{}",
                        m.violations,
                        m.checked,
                        first.unwrap_or_default()
                    ))
                }
                ValidationStatus::NotValidated => m.reason.as_ref().map(|r| format!("not validated: {r}")),
            };
            MethodSummary {
                class: m.class.clone(),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                source_path: locate(&m.class.replace('.', "/"), m.source_file.as_deref()),
                line: m.line,
                status,
                bound: m.bound.clone(),
                complexity: m.complexity.clone(),
                message,
                change: None,
                terminates: None,
                loops: Vec::new(),
                measured: Measured::of(m),
                witness: None,
            }
        })
        .collect();
    let instances: usize = report.methods.iter().map(|m| m.checked).sum();
    let violations = report.violations();
    Summary {
        command: "validate".into(),
        cost_model: report.cost_model.name().to_owned(),
        note: Some(format!(
            "{violations} violation{} in {instances} checked instance{}.",
            if violations == 1 { "" } else { "s" },
            if instances == 1 { "" } else { "s" }
        )),
        methods,
    }
}

/// A summary with each method's loops, termination verdict and non-termination witness taken
/// from the analysis that gave its bound (the validation report does not carry them).
pub fn with_loops(mut summary: Summary, analysis: &AnalysisReport) -> Summary {
    let by_key: std::collections::HashMap<(&str, &str, &str), &MethodReport> = analysis
        .methods
        .iter()
        .map(|m| ((m.class.as_str(), m.name.as_str(), m.descriptor.as_str()), m))
        .collect();
    for m in &mut summary.methods {
        if let Some(report) = by_key.get(&(m.class.as_str(), m.name.as_str(), m.descriptor.as_str())) {
            m.loops = report.loops.clone();
            m.terminates = report.terminates;
            m.witness = report.witness.clone();
        }
    }
    summary
}
