//! The text report of `jresa validate`: per method its verdict, bound, instance counts, tightness
//! overall and per size, violating instances with their replay commands; in sequence mode with the
//! bounds of `jresa check`, the amortised claim on every sequence (tightness by length, violating
//! sequences); then a closing summary of the run.

use crate::validate::{AmortisedSequences, InstanceDetail, MethodValidation, ValidationReport, ValidationStatus};
use std::fmt::Write as _;

/// A ratio with three decimals (`inf` for a cost over a zero bound).
pub fn ratio_text(ratio: f64) -> String {
    if ratio.is_finite() {
        format!("{ratio:.3}")
    } else {
        "inf".into()
    }
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

fn instance_text(out: &mut String, detail: &InstanceDetail) {
    let _ = writeln!(out, "    instance {}: ({})", detail.number, detail.arguments);
    let cost = match (&detail.measured, &detail.bound) {
        (Some(measured), Some(bound)) => format!("measured {measured}, bound {bound}"),
        (Some(measured), None) => format!("measured {measured}"),
        _ => String::new(),
    };
    let _ = writeln!(out, "      {} => {cost}: {}", detail.ending, detail.verdict);
    let _ = writeln!(out, "      replay: {}", detail.replay);
}

fn method_text(out: &mut String, m: &MethodValidation) {
    let _ = writeln!(out, "{}.{}{}  {}", m.class, m.name, m.descriptor, m.status.name());
    if let Some(bound) = &m.bound {
        let _ = writeln!(out, "  bound: {bound}");
    }
    if m.instances > 0 {
        let scope = m.max_size.map(|s| format!(" (scope {s})")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  instances: {}{scope}, checked {}, violations {}, skipped {}, inconclusive {}",
            m.instances, m.checked, m.violations, m.skipped, m.inconclusive
        );
    }
    if let Some(requires) = &m.requires {
        let dropped = match m.outside_requires {
            0 => String::new(),
            1 => " (1 instance of the signature outside it dropped)".to_owned(),
            n => format!(" ({n} instances of the signature outside it dropped)"),
        };
        let _ = writeln!(out, "  generated from @Requires {requires}{dropped}");
    }
    if let (Some(max), Some(median)) = (m.max_ratio, m.median_ratio) {
        let _ = writeln!(
            out,
            "  tightness (measured / bound): max {}, median {}",
            ratio_text(max),
            ratio_text(median)
        );
    }
    let rows = m.by_size.iter().map(|row| {
        let ratios = (row.max_ratio, row.median_ratio);
        (
            row.size,
            row.instances,
            ratios,
            row.max_measured,
            row.max_bound.to_string(),
        )
    });
    tightness_table(out, ("size", "instances"), rows);
    if let Some(reason) = &m.reason {
        let _ = writeln!(out, "  note: {reason}");
    }
    if !m.violating_instances.is_empty() {
        let _ = writeln!(
            out,
            "  violating instances ({} of {} listed):",
            m.violating_instances.len(),
            m.violations
        );
        for detail in &m.violating_instances {
            instance_text(out, detail);
        }
    }
    if let Some(detail) = &m.replayed {
        let _ = writeln!(out, "  replayed:");
        instance_text(out, detail);
    }
    out.push('\n');
}

/// Reasons for not validating methods that the text summary lists (the most frequent).
const NOT_VALIDATED_LISTED: usize = 12;

/// The closing summary: methods by verdict, instances, violations, the methods with a bound not
/// validated by reason, and the tightness figures.
pub fn summary_text(report: &ValidationReport) -> String {
    let count = |s: ValidationStatus| report.methods.iter().filter(|m| m.status == s).count();
    let instances: usize = report.methods.iter().map(|m| m.instances).sum();
    let checked: usize = report.methods.iter().map(|m| m.checked).sum();
    let method_violations: usize = report.methods.iter().map(|m| m.violations).sum();
    let mut text = format!(
        "{}: {} confirmed, {} violated, {} not validated; {} run, {} checked, {}",
        plural(report.methods.len(), "method"),
        count(ValidationStatus::Confirmed),
        count(ValidationStatus::Violated),
        count(ValidationStatus::NotValidated),
        plural(instances, "instance"),
        checked,
        plural(method_violations, "violation"),
    );
    if let Some(a) = report.sequences.as_ref().and_then(|s| s.amortised.as_ref()) {
        let _ = write!(
            text,
            "; amortised bound on {} checked: {}",
            plural(a.checked, "sequence"),
            plural(a.violations, "violation")
        );
    }
    text.push('\n');
    if !report.not_validated.is_empty() {
        let total: usize = report.not_validated.iter().map(|r| r.methods).sum();
        let _ = writeln!(
            text,
            "{} with a bound not validated, by reason:",
            plural(total, "method")
        );
        for group in report.not_validated.iter().take(NOT_VALIDATED_LISTED) {
            let _ = writeln!(text, "  {:5}  {}", group.methods, group.reason);
        }
        if report.not_validated.len() > NOT_VALIDATED_LISTED {
            let rest: usize = report.not_validated[NOT_VALIDATED_LISTED..]
                .iter()
                .map(|r| r.methods)
                .sum();
            let _ = writeln!(
                text,
                "  {rest:5}  for {} other reasons (the JSON report lists them all)",
                report.not_validated.len() - NOT_VALIDATED_LISTED
            );
        }
    }
    let mut maxima: Vec<f64> = report.methods.iter().filter_map(|m| m.max_ratio).collect();
    let mut medians: Vec<f64> = report.methods.iter().filter_map(|m| m.median_ratio).collect();
    if !maxima.is_empty() {
        maxima.sort_by(f64::total_cmp);
        medians.sort_by(f64::total_cmp);
        let middle = |v: &[f64]| v[v.len() / 2];
        let _ = writeln!(
            text,
            "tightness over {}: max ratio per method from {} to {} (median {}); median ratio per method from {} to {} (median {})",
            plural(maxima.len(), "method"),
            ratio_text(maxima[0]),
            ratio_text(maxima[maxima.len() - 1]),
            ratio_text(middle(&maxima)),
            ratio_text(medians[0]),
            ratio_text(medians[medians.len() - 1]),
            ratio_text(middle(&medians)),
        );
    }
    text
}

/// The text report.
pub fn validation_text(report: &ValidationReport) -> String {
    let mut out = format!(
        "cost model: {}, backend: {}, exploration: {}\n",
        report.cost_model.name(),
        report.backend,
        report.strategy
    );
    if let Some(s) = &report.sequences {
        let _ = writeln!(
            out,
            "sequences of {} on {} up to length {} with {} values, {} matching: {} calls, {} states kept, {} dropped as seen, {} calls left no state{}",
            s.methods.join(", "),
            s.class,
            s.max_length,
            s.values,
            s.matching,
            s.calls,
            s.states,
            s.dropped_states,
            s.failed_calls,
            if s.truncated { " (cut short by the call limit)" } else { "" }
        );
    }
    out.push('\n');
    for m in &report.methods {
        method_text(&mut out, m);
    }
    if let Some(amortised) = report.sequences.as_ref().and_then(|s| s.amortised.as_ref()) {
        amortised_text(&mut out, amortised);
    }
    out.push_str(&summary_text(report));
    out
}

/// The amortised claim on sequences: counts, tightness by length, violating sequences.
/// One row of a tightness table: size (or length), count, maximum and median ratio, largest cost
/// and largest bound.
type TightnessRow<K> = (K, usize, (f64, f64), u64, String);

/// The tightness table of a method's sizes or of the sequences' lengths, if it has rows.
fn tightness_table<K: std::fmt::Display>(
    out: &mut String,
    (key, count): (&str, &str),
    rows: impl Iterator<Item = TightnessRow<K>>,
) {
    let mut rows = rows.peekable();
    if rows.peek().is_none() {
        return;
    }
    let _ = writeln!(
        out,
        "  {key:>6} {count:>9} {:>9} {:>9} {:>12} {:>12}",
        "max", "median", "max cost", "max bound"
    );
    for (k, n, (max, median), cost, bound) in rows {
        let (max, median) = (ratio_text(max), ratio_text(median));
        let _ = writeln!(out, "  {k:>6} {n:>9} {max:>9} {median:>9} {cost:>12} {bound:>12}");
    }
}

fn amortised_text(out: &mut String, a: &AmortisedSequences) {
    let _ = writeln!(
        out,
        "amortised bound on sequences (potential of the first state plus the constant of each call's @Requires): {}",
        if a.violations > 0 {
            "violated"
        } else if a.checked > 0 {
            "confirmed"
        } else {
            "not validated"
        }
    );
    let _ = writeln!(
        out,
        "  sequences: {}, checked {}, violations {}, skipped {}, inconclusive {}",
        a.sequences, a.checked, a.violations, a.skipped, a.inconclusive
    );
    if let Some(max) = a.max_ratio {
        let _ = writeln!(out, "  tightness (measured / bound): max {}", ratio_text(max));
    }
    let rows = a.by_length.iter().map(|row| {
        let ratios = (row.max_ratio, row.median_ratio);
        (
            row.length,
            row.sequences,
            ratios,
            row.max_measured,
            row.max_bound.to_string(),
        )
    });
    tightness_table(out, ("length", "sequences"), rows);
    if let Some(note) = &a.note {
        let _ = writeln!(out, "  note: {note}");
    }
    if !a.violating.is_empty() {
        let _ = writeln!(
            out,
            "  violating sequences ({} of {} listed):",
            a.violating.len(),
            a.violations
        );
        for v in &a.violating {
            let _ = writeln!(out, "    {}", v.calls.join(", "));
            let _ = writeln!(out, "      measured {}, bound {}", v.measured, v.bound);
            let _ = writeln!(out, "      replay: {}", v.replay);
        }
    }
    out.push('\n');
}
