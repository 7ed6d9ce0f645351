//! Gathering per-instance verdicts into a method's validation: counts, tightness overall and per
//! instance size, and the violating instances with their replay commands.

use super::{MethodValidation, ReasonCount, ValidationStatus, MAX_LISTED_VIOLATIONS};
use crate::report::vm::{ending_text, value_text};
use jresa_gpu_validate::check::{Skip, Tightness, Verdict};
use jresa_gpu_validate::{Outcome, Value};
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Tightness of the instances of one size (the largest measure among an instance's parameters).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeRow {
    pub size: u64,
    pub instances: usize,
    pub max_ratio: f64,
    pub median_ratio: f64,
    pub max_measured: u64,
    /// The largest value of the bound among these instances.
    pub max_bound: f64,
}

/// One instance, as reports show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceDetail {
    /// The instance number (a string: it may exceed what JSON numbers hold exactly).
    pub number: String,
    /// The arguments, the receiver first, in the instance syntax.
    pub arguments: String,
    /// How the run ended.
    pub ending: String,
    pub measured: Option<u64>,
    /// The bound's value at the instance.
    pub bound: Option<String>,
    /// `within`, `violation`, `skipped: ...` or `inconclusive: ...`.
    pub verdict: String,
    /// The command that runs this instance alone.
    pub replay: String,
}

/// Verdicts of a method's instances as they come.
#[derive(Default)]
pub(crate) struct Tally {
    instances: usize,
    judged: Vec<(u64, u64, BigRational)>,
    violations: usize,
    listed: Vec<InstanceDetail>,
    skipped: BTreeMap<String, usize>,
    inconclusive: BTreeMap<String, usize>,
}

/// The text of a verdict.
fn verdict_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Within { .. } => "within".into(),
        Verdict::Violation { .. } => "violation".into(),
        Verdict::Skipped(Skip::Cyclic) => "skipped: cyclic structure".into(),
        Verdict::Skipped(Skip::OutsideRange { parameter }) => {
            format!("skipped: {parameter} outside the range the bound is proven for")
        }
        Verdict::Skipped(Skip::OutsideRequires) => "skipped: outside the precondition".into(),
        Verdict::Inconclusive { reason } => format!("inconclusive: {reason}"),
    }
}

/// The detail of one instance.
pub(crate) fn detail(
    number: u128,
    args: &[Value],
    descriptors: &[String],
    outcome: &Outcome,
    verdict: &Verdict,
    measured: u64,
    replay: String,
) -> InstanceDetail {
    let arguments: Vec<String> = args
        .iter()
        .zip(descriptors)
        .map(|(value, descriptor)| value_text(value, descriptor))
        .collect();
    let bound = match verdict {
        Verdict::Within { bound, .. } | Verdict::Violation { bound, .. } => Some(bound.to_string()),
        _ => None,
    };
    InstanceDetail {
        number: number.to_string(),
        arguments: arguments.join(", "),
        ending: ending_text(&outcome.ending),
        measured: Some(measured),
        bound,
        verdict: verdict_text(verdict),
        replay,
    }
}

impl Tally {
    /// Adds an instance's verdict; `size` groups it, `detail` describes it when it is listed.
    pub(crate) fn add(&mut self, verdict: &Verdict, size: u64, detail: impl FnOnce() -> InstanceDetail) {
        self.instances += 1;
        match verdict {
            Verdict::Within { measured, bound } => self.judged.push((size, *measured, bound.clone())),
            Verdict::Violation { measured, bound } => {
                self.judged.push((size, *measured, bound.clone()));
                self.violations += 1;
                if self.listed.len() < MAX_LISTED_VIOLATIONS {
                    self.listed.push(detail());
                }
            }
            Verdict::Skipped(skip) => {
                let key = match skip {
                    Skip::Cyclic => "cyclic structure".to_owned(),
                    Skip::OutsideRange { parameter } => format!("{parameter} outside its proven range"),
                    Skip::OutsideRequires => "outside the precondition".to_owned(),
                };
                *self.skipped.entry(key).or_default() += 1;
            }
            Verdict::Inconclusive { reason } => *self.inconclusive.entry(reason.clone()).or_default() += 1,
        }
    }

    /// Writes the counts, tightness and status into the method's validation.
    pub(crate) fn finish(self, into: &mut MethodValidation) {
        into.instances = self.instances;
        into.checked = self.judged.len();
        into.violations = self.violations;
        into.violating_instances = self.listed;
        into.skipped = self.skipped.values().sum();
        into.inconclusive = self.inconclusive.values().sum();
        let points: Vec<(u64, BigRational)> = self.judged.iter().map(|(_, m, b)| (*m, b.clone())).collect();
        if !points.is_empty() {
            let overall = Tightness::of(&points);
            into.max_ratio = Some(overall.max_ratio);
            into.median_ratio = Some(overall.median_ratio);
        }
        let mut by_size: BTreeMap<u64, Vec<(u64, BigRational)>> = BTreeMap::new();
        for (size, measured, bound) in self.judged {
            by_size.entry(size).or_default().push((measured, bound));
        }
        into.by_size = by_size
            .into_iter()
            .map(|(size, points)| {
                let t = Tightness::of(&points);
                SizeRow {
                    size,
                    instances: t.instances,
                    max_ratio: t.max_ratio,
                    median_ratio: t.median_ratio,
                    max_measured: t.max_measured,
                    max_bound: t.max_bound,
                }
            })
            .collect();
        let mut notes: Vec<String> = Vec::new();
        for (reason, count) in &self.skipped {
            notes.push(format!("{count} skipped ({reason})"));
        }
        for (reason, count) in &self.inconclusive {
            notes.push(format!("{count} inconclusive ({reason})"));
        }
        into.status = if self.violations > 0 {
            ValidationStatus::Violated
        } else if into.checked > 0 {
            ValidationStatus::Confirmed
        } else {
            ValidationStatus::NotValidated
        };
        if into.checked == 0 && notes.is_empty() && into.reason.is_none() {
            notes.push("no instance was judged".into());
        }
        if !notes.is_empty() {
            let joined = notes.join("; ");
            into.reason = Some(match into.reason.take() {
                Some(reason) => format!("{reason}; {joined}"),
                None => joined,
            });
        }
    }
}

/// The methods with a bound that were not validated, grouped by the first reason each gives (a
/// count of instances in front of it and the `inconclusive (...)` around it left out), most first,
/// then by reason.
pub(crate) fn not_validated_by_reason(methods: &[MethodValidation]) -> Vec<ReasonCount> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for m in methods {
        if m.status != ValidationStatus::NotValidated || m.bound.is_none() {
            continue;
        }
        let reason = m.reason.as_deref().unwrap_or("no reason given");
        *counts.entry(reason_group(reason)).or_default() += 1;
    }
    let mut out: Vec<ReasonCount> = counts
        .into_iter()
        .map(|(reason, methods)| ReasonCount { reason, methods })
        .collect();
    out.sort_by(|a, b| b.methods.cmp(&a.methods).then_with(|| a.reason.cmp(&b.reason)));
    out
}

/// The group of a not-validated method's reason: its first clause, without a leading count of
/// instances and the `skipped (...)`/`inconclusive (...)` around the cause.
fn reason_group(reason: &str) -> String {
    let first = reason.split("; ").next().unwrap_or(reason);
    let rest = first.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    for verdict in ["inconclusive (", "skipped ("] {
        if let Some(inner) = rest.strip_prefix(verdict).and_then(|r| r.strip_suffix(')')) {
            return inner.to_owned();
        }
    }
    first.to_owned()
}

#[cfg(test)]
mod tests {
    use super::reason_group;

    #[test]
    fn reasons_group_by_their_first_cause() {
        assert_eq!(
            reason_group("16 inconclusive (refused: java.util.regex.Pattern.<clinit>()V: regular expressions are not supported); 2 skipped (x)"),
            "refused: java.util.regex.Pattern.<clinit>()V: regular expressions are not supported"
        );
        assert_eq!(
            reason_group("3 skipped (outside the @Requires)"),
            "outside the @Requires"
        );
        assert_eq!(
            reason_group("no instances: no receivers can be generated"),
            "no instances: no receivers can be generated"
        );
    }
}
