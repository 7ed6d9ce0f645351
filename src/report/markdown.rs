//! Markdown output for pull-request comments: a heading with the counts, then a table of methods
//! with their bounds, classes and (for `ci`) changes; unchanged methods fold into a `<details>`
//! block.
//!
//! **Cells are escaped for GitHub-flavoured Markdown tables (`|` as `\|`, also inside code spans,
//! where the table parser removes the backslash); a table has at most `MAX_ROWS` rows, the rest
//! counted in a line under it, so a comment stays within size limits on whole jars.**

use super::summary::{MethodSummary, Status, Summary};
use crate::baseline::compare::ChangeKind;

/// Rows of one table, at most.
pub const MAX_ROWS: usize = 200;

/// Text in a table cell as inline code.
fn code(text: &str) -> String {
    format!("`{}`", cell(text))
}

/// Text in a table cell: pipes escaped, line breaks as spaces.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

fn bound_cell(bound: Option<&str>, status: &str) -> String {
    bound.map_or_else(|| status.to_owned(), code)
}

/// Appends a table with `header` and `rows`, at most `MAX_ROWS` of them.
fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for row in rows.iter().take(MAX_ROWS) {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    if rows.len() > MAX_ROWS {
        let rest = rows.len() - MAX_ROWS;
        let methods = if rest == 1 { "method" } else { "methods" };
        out.push_str(&format!("\n… and {rest} more {methods} (see the JSON report).\n"));
    }
}

fn status_counts(methods: &[MethodSummary]) -> String {
    let count = |s: Status| methods.iter().filter(|m| m.status == s).count();
    let mut parts = vec![
        format!("{} bounded", count(Status::Bounded)),
        format!("{} unbounded", count(Status::Unbounded)),
        format!("{} unknown", count(Status::Unknown)),
    ];
    for (status, name) in [(Status::Error, "not analysed"), (Status::Violated, "violated")] {
        if count(status) > 0 {
            parts.push(format!("{} {name}", count(status)));
        }
    }
    format!("{}: {}", plural(methods.len(), "method"), parts.join(", "))
}

/// The Markdown report of a run.
pub fn markdown(summary: &Summary) -> String {
    let has_changes = summary.methods.iter().any(|m| m.change.is_some());
    if has_changes || summary.command == "ci" {
        changes(summary)
    } else {
        bounds(summary)
    }
}

/// Per method: bound, class, status and reason.
fn bounds(summary: &Summary) -> String {
    let bounded = summary.methods.iter().filter(|m| m.status == Status::Bounded).count();
    let mut out = format!(
        "### jresa {}: {bounded} of {} bounded\n\n{}. Cost model: {}.\n",
        summary.command,
        plural(summary.methods.len(), "method"),
        status_counts(&summary.methods),
        summary.cost_model
    );
    if let Some(note) = &summary.note {
        out.push_str(&format!("{note}\n"));
    }
    out.push('\n');
    let rows: Vec<Vec<String>> = summary
        .methods
        .iter()
        .map(|m| {
            vec![
                code(&m.qualified_name()),
                bound_cell(m.bound.as_deref(), m.status.name()),
                m.complexity.as_deref().map_or_else(String::new, cell),
                m.message.as_deref().map_or_else(String::new, cell),
            ]
        })
        .collect();
    table(&mut out, &["Method", "Bound", "Class", "Note"], &rows);
    out
}

/// Per changed method: the change, old and new bounds; unchanged ones folded.
fn changes(summary: &Summary) -> String {
    let count = |kind: ChangeKind| {
        summary
            .methods
            .iter()
            .filter(|m| m.change.as_ref().is_some_and(|c| c.kind == kind))
            .count()
    };
    let kinds = [
        ChangeKind::Regressed,
        ChangeKind::Changed,
        ChangeKind::Improved,
        ChangeKind::New,
        ChangeKind::Removed,
        ChangeKind::Unchanged,
    ];
    let counts: Vec<String> = kinds.iter().map(|k| format!("{} {}", count(*k), k.name())).collect();
    let mut out = format!("### jresa {}: {}\n\n", summary.command, counts.join(", "));
    if let Some(note) = &summary.note {
        out.push_str(&format!("**{}**. ", note.trim_end_matches('.')));
    }
    out.push_str(&format!(
        "Cost model: {}; {}.\n\n",
        summary.cost_model,
        status_counts(&summary.methods)
    ));
    let row = |m: &MethodSummary| -> Vec<String> {
        let (kind, detail, fails, old_bound, old_status) = match &m.change {
            Some(c) => (
                c.kind.name(),
                c.detail.as_str(),
                c.fails,
                c.old_bound.as_deref(),
                c.old_status.map_or("", |s| s.name()),
            ),
            None => ("", "", false, None, ""),
        };
        let new_bound = if m.change.as_ref().is_some_and(|c| c.kind == ChangeKind::Removed) {
            String::new()
        } else {
            bound_cell(m.bound.as_deref(), m.status.name())
        };
        vec![
            if fails { format!("**{kind}**") } else { kind.to_owned() },
            code(&m.qualified_name()),
            if old_status.is_empty() {
                String::new()
            } else {
                bound_cell(old_bound, old_status)
            },
            new_bound,
            cell(detail),
        ]
    };
    let changed: Vec<Vec<String>> = summary
        .methods
        .iter()
        .filter(|m| m.change.as_ref().is_none_or(|c| c.kind != ChangeKind::Unchanged))
        .map(row)
        .collect();
    let header = ["Change", "Method", "Old bound", "New bound", "Detail"];
    if changed.is_empty() {
        out.push_str("No bound changed.\n");
    } else {
        table(&mut out, &header, &changed);
    }
    let unchanged: Vec<Vec<String>> = summary
        .methods
        .iter()
        .filter(|m| m.change.as_ref().is_some_and(|c| c.kind == ChangeKind::Unchanged))
        .map(|m| {
            vec![
                code(&m.qualified_name()),
                bound_cell(m.bound.as_deref(), m.status.name()),
                m.complexity.as_deref().map_or_else(String::new, cell),
            ]
        })
        .collect();
    if !unchanged.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>{}</summary>\n\n",
            plural(unchanged.len(), "unchanged method")
        ));
        table(&mut out, &["Method", "Bound", "Class"], &unchanged);
        out.push_str("\n</details>\n");
    }
    out
}
