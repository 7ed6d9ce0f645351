//! Comparing a run with a baseline: per method improved, unchanged, regressed, changed, new or
//! removed, with the old and new bounds, and which `--fail-on` levels count it as a failure.
//!
//! Bounds are compared semantically (`jresa_analyses::bounds::compare`: class first, then exact
//! values at sampled points), after renaming the baseline's parameters to the run's by position.
//! A bound that no longer exists is a regression; a bound that appears is an improvement.
//!
//! `--fail-on` levels, each including the ones before it: `unbounded` fails when a method loses
//! its bound or a new method has none; `worse-class` also when a class grows or becomes
//! incomparable with the old one; `any-increase` also when a bound is larger at any sampled point.
//! **A failure is never missed by a stricter level: the levels are ordered, and each method's
//! failure is the weakest level that fails on it.**

use super::{Baseline, BaselineMethod};
use crate::analyze::{cost_model_name, AnalysisReport, AnalysisStatus, MethodReport};
use jresa_analyses::bounds::compare::{compare, rename_parameters, ClassOrder, Verdict};
use jresa_analyses::bounds::parse::parse_bound;
use jresa_analyses::cost_model::CostModel;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What `jresa ci` fails on; each level includes the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailOn {
    /// A method lost its bound, or a new method has none.
    Unbounded,
    /// Also: a larger or incomparable class.
    WorseClass,
    /// Also: a bound larger anywhere.
    AnyIncrease,
}

impl FailOn {
    pub const NAMES: [&'static str; 3] = ["unbounded", "worse-class", "any-increase"];

    pub fn name(self) -> &'static str {
        match self {
            FailOn::Unbounded => "unbounded",
            FailOn::WorseClass => "worse-class",
            FailOn::AnyIncrease => "any-increase",
        }
    }

    pub fn from_name(name: &str) -> Option<FailOn> {
        [FailOn::Unbounded, FailOn::WorseClass, FailOn::AnyIncrease]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

/// How a method changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Regressed,
    Changed,
    Improved,
    New,
    Removed,
    Unchanged,
}

impl ChangeKind {
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Regressed => "regressed",
            ChangeKind::Changed => "changed",
            ChangeKind::Improved => "improved",
            ChangeKind::New => "new",
            ChangeKind::Removed => "removed",
            ChangeKind::Unchanged => "unchanged",
        }
    }
}

/// A method's result on one side of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundState {
    pub status: AnalysisStatus,
    pub upper_bound: Option<String>,
    pub complexity: Option<String>,
}

/// One method of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodChange {
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub change: ChangeKind,
    /// What changed, in words (`class O(n) -> O(n^2)`, `lost its bound`, ...).
    pub detail: String,
    pub old: Option<BoundState>,
    pub new: Option<BoundState>,
    /// The weakest `--fail-on` level that fails on this change, if any.
    pub failure: Option<FailOn>,
    /// Whether it fails under the chosen level.
    pub fails: bool,
    /// The run's report of the method (absent for removed methods; not serialized).
    #[serde(skip)]
    pub report: Option<MethodReport>,
}

/// How many methods changed in each way.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChangeCounts {
    pub regressed: usize,
    pub changed: usize,
    pub improved: usize,
    pub new: usize,
    pub removed: usize,
    pub unchanged: usize,
    /// Methods that fail under the chosen level.
    pub failures: usize,
}

/// A baseline bound that does not parse: the method keeps a comparison by text.
#[derive(Clone, Debug, PartialEq)]
pub struct UnreadableBound {
    pub method: String,
    pub bound: String,
    pub column: usize,
    pub message: String,
}

/// The result of `jresa ci`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonReport {
    pub version: u32,
    #[serde(with = "cost_model_name")]
    pub cost_model: CostModel,
    pub fail_on: FailOn,
    /// Whether the run rewrites the baseline, accepting every change (it then does not fail).
    pub accepted: bool,
    pub counts: ChangeCounts,
    /// Regressed, changed, improved, new, removed, then unchanged methods; in run order within each.
    pub methods: Vec<MethodChange>,
    /// Baseline bounds that could not be read back (reported as diagnostics).
    #[serde(skip)]
    pub unreadable: Vec<UnreadableBound>,
}

fn state_of_report(m: &MethodReport) -> BoundState {
    BoundState {
        status: m.status,
        upper_bound: m.upper_bound.clone(),
        complexity: m.complexity.clone(),
    }
}

fn state_of_baseline(m: &BaselineMethod) -> BoundState {
    BoundState {
        status: m.status,
        upper_bound: m.upper_bound.clone(),
        complexity: m.complexity.clone(),
    }
}

/// Compares the run `report` with `baseline`; `covered` says which baseline methods the run was
/// asked about (the others are neither compared nor removed); `accepted` that the run rewrites
/// the baseline.
pub fn compare_with_baseline(
    baseline: &Baseline,
    report: &AnalysisReport,
    fail_on: FailOn,
    accepted: bool,
    covered: &dyn Fn(&BaselineMethod) -> bool,
) -> ComparisonReport {
    let old: HashMap<(&str, &str, &str), &BaselineMethod> = baseline.methods.iter().map(|m| (m.key(), m)).collect();
    let mut unreadable = Vec::new();
    let mut methods = Vec::new();
    for m in &report.methods {
        let key = (m.class.as_str(), m.name.as_str(), m.descriptor.as_str());
        let (change, detail, failure) = match old.get(&key) {
            None => classify_new(m),
            Some(before) => classify(before, m, &mut unreadable),
        };
        methods.push(MethodChange {
            class: m.class.clone(),
            name: m.name.clone(),
            descriptor: m.descriptor.clone(),
            change,
            detail,
            old: old.get(&key).map(|b| state_of_baseline(b)),
            new: Some(state_of_report(m)),
            failure,
            fails: failure.is_some_and(|f| f <= fail_on),
            report: Some(m.clone()),
        });
    }
    let seen: std::collections::HashSet<(&str, &str, &str)> = report
        .methods
        .iter()
        .map(|m| (m.class.as_str(), m.name.as_str(), m.descriptor.as_str()))
        .collect();
    for before in baseline
        .methods
        .iter()
        .filter(|b| covered(b) && !seen.contains(&b.key()))
    {
        methods.push(MethodChange {
            class: before.class.clone(),
            name: before.name.clone(),
            descriptor: before.descriptor.clone(),
            change: ChangeKind::Removed,
            detail: "no longer in the input".into(),
            old: Some(state_of_baseline(before)),
            new: None,
            failure: None,
            fails: false,
            report: None,
        });
    }
    // A stable sort keeps run order within each kind.
    methods.sort_by_key(|m| m.change);
    let mut counts = ChangeCounts::default();
    for m in &methods {
        *match m.change {
            ChangeKind::Regressed => &mut counts.regressed,
            ChangeKind::Changed => &mut counts.changed,
            ChangeKind::Improved => &mut counts.improved,
            ChangeKind::New => &mut counts.new,
            ChangeKind::Removed => &mut counts.removed,
            ChangeKind::Unchanged => &mut counts.unchanged,
        } += 1;
        counts.failures += usize::from(m.fails);
    }
    ComparisonReport {
        version: super::BASELINE_VERSION,
        cost_model: report.cost_model,
        fail_on,
        accepted,
        counts,
        methods,
        unreadable,
    }
}

type Classified = (ChangeKind, String, Option<FailOn>);

fn classify_new(m: &MethodReport) -> Classified {
    if m.status == AnalysisStatus::Bounded {
        let class = m.complexity.as_deref().unwrap_or("?");
        (ChangeKind::New, format!("new method, {class}"), None)
    } else {
        (
            ChangeKind::New,
            format!("new method without a bound ({})", m.status),
            Some(FailOn::Unbounded),
        )
    }
}

fn classify(before: &BaselineMethod, m: &MethodReport, unreadable: &mut Vec<UnreadableBound>) -> Classified {
    if m.terminates == Some(false) && !before.nonterminating {
        let input = m
            .witness
            .as_ref()
            .map(|w| format!(" on the input ({})", w.arguments.join(", ")))
            .unwrap_or_default();
        // A method that had a bound terminated on every input: not any more. Without a bound
        // before, the baseline does not say whether it terminated: the proof is news, not a
        // regression.
        return if before.status == AnalysisStatus::Bounded {
            let class = before.complexity.as_deref().unwrap_or("bounded");
            (
                ChangeKind::Regressed,
                format!("no longer terminates{input} (was {class})"),
                Some(FailOn::Unbounded),
            )
        } else {
            (
                ChangeKind::Changed,
                format!("shown not to terminate{input} (was {})", before.status),
                None,
            )
        };
    }
    let was_bounded = before.status == AnalysisStatus::Bounded && before.upper_bound.is_some();
    let (new_bound, new_class) = match (&m.bound, &m.complexity) {
        (Some(bound), Some(class)) if m.status == AnalysisStatus::Bounded => (bound, class.as_str()),
        _ => {
            return if was_bounded {
                (
                    ChangeKind::Regressed,
                    format!(
                        "lost its bound ({}, was {})",
                        m.status,
                        before.complexity.as_deref().unwrap_or("bounded")
                    ),
                    Some(FailOn::Unbounded),
                )
            } else if before.status == m.status {
                (ChangeKind::Unchanged, format!("still {}", m.status), None)
            } else {
                (
                    ChangeKind::Unchanged,
                    format!("still without a bound (was {}, now {})", before.status, m.status),
                    None,
                )
            };
        }
    };
    let Some(old_text) = before.upper_bound.as_deref().filter(|_| was_bounded) else {
        return (
            ChangeKind::Improved,
            format!("now bounded, {new_class} (was {})", before.status),
            None,
        );
    };
    let old_bound = match parse_bound(old_text) {
        Ok(bound) => rename_parameters(&bound, &before.parameters, &m.parameters),
        Err(error) => {
            unreadable.push(UnreadableBound {
                method: format!("{}.{}{}", m.class, m.name, m.descriptor),
                bound: old_text.to_owned(),
                column: error.column,
                message: error.message,
            });
            let new_text = m.upper_bound.as_deref().unwrap_or_default();
            return if old_text == new_text {
                (ChangeKind::Unchanged, "same bound (compared as text)".into(), None)
            } else {
                (
                    ChangeKind::Changed,
                    "the baseline bound does not parse; compared as text".into(),
                    Some(FailOn::AnyIncrease),
                )
            };
        }
    };
    let comparison = compare(&old_bound, new_bound);
    let old_class = old_bound.complexity();
    let class_change = format!("class {old_class} -> {new_class}");
    let (kind, detail) = match (comparison.class, comparison.verdict) {
        (ClassOrder::Larger, _) => (ChangeKind::Regressed, class_change),
        (ClassOrder::Smaller, _) => (ChangeKind::Improved, class_change),
        (ClassOrder::Incomparable, _) => (ChangeKind::Changed, format!("{class_change} (incomparable)")),
        (ClassOrder::Same, verdict) => {
            let crossing = comparison.larger_somewhere && comparison.smaller_somewhere;
            match verdict {
                Verdict::Unchanged if old_text == new_bound.to_string() => (ChangeKind::Unchanged, "same bound".into()),
                Verdict::Unchanged if old_bound == *new_bound => {
                    (ChangeKind::Unchanged, "same bound, parameters renamed".into())
                }
                Verdict::Unchanged => (ChangeKind::Unchanged, "same values, written differently".into()),
                Verdict::Regressed if crossing => (
                    ChangeKind::Regressed,
                    format!("same class {new_class}, larger for large inputs (smaller for some small ones)"),
                ),
                Verdict::Regressed => (ChangeKind::Regressed, format!("same class {new_class}, larger")),
                Verdict::Improved if crossing => (
                    ChangeKind::Improved,
                    format!("same class {new_class}, smaller for large inputs (larger for some small ones)"),
                ),
                Verdict::Improved => (ChangeKind::Improved, format!("same class {new_class}, smaller")),
                Verdict::Changed => (
                    ChangeKind::Changed,
                    format!("same class {new_class}, larger for some inputs and smaller for others"),
                ),
            }
        }
    };
    let failure = match comparison.class {
        ClassOrder::Larger | ClassOrder::Incomparable => Some(FailOn::WorseClass),
        _ if comparison.larger_somewhere => Some(FailOn::AnyIncrease),
        _ => None,
    };
    (kind, detail, failure)
}
