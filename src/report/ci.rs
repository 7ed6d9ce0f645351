//! The text report of `jresa ci`: each changed method with its old and new bounds, then the
//! unchanged ones on a line each, then the counts and the verdict.

use crate::baseline::compare::{BoundState, ChangeKind, ComparisonReport, MethodChange};

/// `O(n)  9 + 9*nat(n)`, or the status when there is no bound.
fn state_text(state: Option<&BoundState>) -> String {
    match state {
        None => "absent".into(),
        Some(s) => match (&s.upper_bound, &s.complexity) {
            (Some(bound), Some(class)) => format!("{class}  {bound}"),
            _ => s.status.name().to_owned(),
        },
    }
}

fn method_name(m: &MethodChange) -> String {
    format!("{}.{}{}", m.class, m.name, m.descriptor)
}

fn location(m: &MethodChange) -> String {
    match m.report.as_ref().map(|r| (&r.source_file, r.line)) {
        Some((Some(file), Some(line))) => format!("  [{file}:{line}]"),
        _ => String::new(),
    }
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

/// The text report of a comparison with a baseline.
pub fn comparison_text(report: &ComparisonReport) -> String {
    let mut out = format!(
        "cost model: {}, failing on: {}\n",
        report.cost_model.name(),
        report.fail_on.name()
    );
    let mut unchanged = Vec::new();
    for m in &report.methods {
        if m.change == ChangeKind::Unchanged {
            unchanged.push(m);
            continue;
        }
        let marker = if m.fails { " (fails)" } else { "" };
        out.push_str(&format!(
            "\n{}{marker}: {}{}\n  {}\n",
            m.change.name(),
            method_name(m),
            location(m),
            m.detail
        ));
        if m.change != ChangeKind::New {
            out.push_str(&format!("  was: {}\n", state_text(m.old.as_ref())));
        }
        if m.change != ChangeKind::Removed {
            out.push_str(&format!("  now: {}\n", state_text(m.new.as_ref())));
            if let Some(reason) = m.report.as_ref().and_then(|r| r.reason.as_ref()) {
                out.push_str(&format!("  reason: {reason}\n"));
            }
        }
    }
    if !unchanged.is_empty() {
        out.push_str("\nunchanged:\n");
        for m in unchanged {
            out.push_str(&format!("  {}: {}\n", method_name(m), state_text(m.new.as_ref())));
        }
    }
    let c = &report.counts;
    out.push_str(&format!(
        "\n{} regressed, {} changed, {} improved, {} new, {} removed, {} unchanged\n",
        c.regressed, c.changed, c.improved, c.new, c.removed, c.unchanged
    ));
    let fail_on = report.fail_on.name();
    let failing = plural(c.failures, "method");
    out.push_str(&match (c.failures, report.accepted) {
        (0, _) => format!("passed: nothing fails --fail-on {fail_on}\n"),
        (1, false) => format!("FAILED: {failing} fails --fail-on {fail_on}\n"),
        (_, false) => format!("FAILED: {failing} fail --fail-on {fail_on}\n"),
        (_, true) => {
            format!("accepted: {failing} would fail --fail-on {fail_on}; the baseline takes the new results\n")
        }
    });
    out
}
