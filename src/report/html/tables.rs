//! The tables of the pages: methods (with the columns the run has data for) and status counts per
//! package or class. Every table sorts by its headers (`sort.js`); numeric columns carry a
//! `data-key`.

use super::layout::{figure, method_label, percent, sort_key, status_class, status_word, termination_word};
use super::site::{ClassEntry, MethodRow};
use crate::report::summary::{MethodSummary, Status, Summary};
use crate::report::validate::ratio_text;
use maud::{html, Markup};

/// The optional columns of method tables: those the run has data for.
#[derive(Clone, Copy)]
pub struct Columns {
    pub terminates: bool,
    pub change: bool,
    pub measured: bool,
}

impl Columns {
    pub fn of(summary: &Summary) -> Columns {
        let any = |f: fn(&MethodSummary) -> bool| summary.methods.iter().any(f);
        Columns {
            terminates: any(|m| m.terminates.is_some()),
            change: any(|m| m.change.is_some()),
            measured: any(|m| m.measured.is_some()),
        }
    }
}

/// A method of a table: its class (for the link and, with `show_class`, a column) and row.
pub type Listed<'s, 'a> = (&'s ClassEntry<'a>, &'s MethodRow<'a>);

/// A sortable table of methods. `link` gives the href of a method's section.
pub fn methods_table(
    rows: &[Listed<'_, '_>],
    columns: Columns,
    show_class: bool,
    link: &dyn Fn(Listed<'_, '_>) -> String,
) -> Markup {
    html! {
        div.scroll {
            table.sortable.methods {
                thead {
                    tr {
                        @if show_class { th { "Class" } }
                        th { "Method" }
                        th { "Status" }
                        @if columns.change { th { "Change" } th { "Old bound" } }
                        th { "Bound" }
                        th { "Complexity" }
                        @if columns.terminates { th { "Terminates" } }
                        @if columns.measured { th.num { "Instances" } th.num { "Tightness" } }
                        th { @if columns.measured { "Note" } @else { "Reason" } }
                    }
                }
                tbody {
                    @for &(class, row) in rows {
                        (method_row(class, row, columns, show_class, &link((class, row))))
                    }
                }
            }
        }
    }
}

fn method_row(class: &ClassEntry<'_>, row: &MethodRow<'_>, columns: Columns, show_class: bool, href: &str) -> Markup {
    let m = row.summary;
    let growth_key = row
        .growth
        .map(|g| f64::from(g.exponential) * 1e6 + f64::from(g.polynomial) * 1e3 + f64::from(g.logarithmic));
    html! {
        tr class=(status_class(m.status)) {
            @if show_class { td { (class.name) } }
            td { a href=(href) { (method_label(&class.simple_name, &m.name, &m.descriptor)) } }
            td data-key=(status_rank(m.status)) { (status_word(m.status)) }
            @if columns.change {
                @let change = m.change.as_ref();
                td { (change.map_or("", |c| c.kind.name())) }
                td.bound { code { (shortened(change.and_then(|c| c.old_bound.as_deref()).unwrap_or(""))) } }
            }
            td.bound data-key=(sort_key(row.value)) title=(row.value.map(figure).map(|v| format!("{v} at the ranking size")).unwrap_or_default()) {
                code { (shortened(m.bound.as_deref().unwrap_or(""))) }
            }
            td.complexity data-key=(sort_key(growth_key)) { (shortened(m.complexity.as_deref().unwrap_or(""))) }
            @if columns.terminates { td { (termination_word(m.terminates)) } }
            @if columns.measured {
                @let measured = m.measured.as_ref();
                td.num data-key=(measured.map_or(String::new(), |x| x.checked.to_string())) {
                    (measured.map_or(String::new(), |x| x.checked.to_string()))
                }
                td.num data-key=(sort_key(measured.and_then(|x| x.max_ratio))) {
                    (measured.and_then(|x| x.max_ratio).map(ratio_text).unwrap_or_default())
                }
            }
            td.reason { (shortened(m.message.as_deref().unwrap_or(""))) }
        }
    }
}

/// Characters of a bound or reason a table shows at most (the method's section has it whole).
pub const TABLE_TEXT: usize = 160;

/// `text`, cut after `TABLE_TEXT` characters with an ellipsis.
pub fn shortened(text: &str) -> String {
    match text.char_indices().nth(TABLE_TEXT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The order statuses sort in: violations first, then bounded to not analysed.
fn status_rank(status: Status) -> u8 {
    match status {
        Status::Violated => 0,
        Status::Bounded => 1,
        Status::Unbounded => 2,
        Status::Unknown => 3,
        Status::Error => 4,
    }
}

/// How many methods of a group have each status.
#[derive(Clone, Copy, Default)]
pub struct StatusCounts {
    pub total: usize,
    pub bounded: usize,
    /// Bounded methods whose bound grows with the inputs.
    pub non_constant: usize,
    pub unbounded: usize,
    pub unknown: usize,
    pub error: usize,
    pub violated: usize,
}

impl StatusCounts {
    pub fn of<'r, 'a: 'r>(rows: impl IntoIterator<Item = &'r MethodRow<'a>>) -> StatusCounts {
        let mut counts = StatusCounts::default();
        for row in rows {
            counts.total += 1;
            match row.summary.status {
                Status::Bounded => counts.bounded += 1,
                Status::Unbounded => counts.unbounded += 1,
                Status::Unknown => counts.unknown += 1,
                Status::Error => counts.error += 1,
                Status::Violated => counts.violated += 1,
            }
            if row.summary.status == Status::Bounded && row.growth.is_some_and(|g| g != Default::default()) {
                counts.non_constant += 1;
            }
        }
        counts
    }

    /// `(status, count)` for every status, in display order.
    pub fn by_status(&self) -> [(Status, usize); 5] {
        [
            (Status::Bounded, self.bounded),
            (Status::Violated, self.violated),
            (Status::Unbounded, self.unbounded),
            (Status::Unknown, self.unknown),
            (Status::Error, self.error),
        ]
    }
}

/// A bar of the statuses' shares, as SVG (its widths are attributes, which the page's
/// Content-Security-Policy allows where it forbids inline styles).
pub fn status_bar(counts: &StatusCounts) -> Markup {
    let mut x = 0.0;
    let parts: Vec<(Status, usize, f64, f64)> = counts
        .by_status()
        .into_iter()
        .filter(|(_, count)| *count > 0)
        .map(|(status, count)| {
            let width = 1000.0 * count as f64 / counts.total.max(1) as f64;
            x += width;
            (status, count, x - width, width)
        })
        .collect();
    html! {
        svg.bar viewBox="0 0 1000 16" preserveAspectRatio="none" role="img" aria-label={ (percent(counts.bounded, counts.total)) " bounded" } {
            @for (status, count, x, width) in parts {
                rect class=(status_class(status)) x=(x) y="0" width=(width) height="16" {
                    title { (count) " " (status.name()) }
                }
            }
        }
    }
}

/// A sortable table of groups (packages or classes): a link and its status counts.
pub fn counts_table(first: &str, rows: &[(String, String, StatusCounts)], violations: bool) -> Markup {
    html! {
        div.scroll {
            table.sortable.counts {
                thead {
                    tr {
                        th { (first) }
                        th.num { "Methods" }
                        th.num { "Bounded" }
                        th.num { "Share" }
                        th.num { "Non-constant" }
                        @if violations { th.num { "Violated" } }
                        th.num { "Unbounded" }
                        th.num { "Unknown" }
                        th.num { "Not analysed" }
                    }
                }
                tbody {
                    @for (name, href, c) in rows {
                        tr {
                            td { a href=(href) { (name) } }
                            td.num data-key=(c.total) { (c.total) }
                            td.num data-key=(c.bounded) { (c.bounded) }
                            td.num data-key=(share(c)) { (percent(c.bounded, c.total)) }
                            td.num data-key=(c.non_constant) { (c.non_constant) }
                            @if violations { td.num data-key=(c.violated) { (c.violated) } }
                            td.num data-key=(c.unbounded) { (c.unbounded) }
                            td.num data-key=(c.unknown) { (c.unknown) }
                            td.num data-key=(c.error) { (c.error) }
                        }
                    }
                }
            }
        }
    }
}

fn share(c: &StatusCounts) -> f64 {
    if c.total == 0 {
        0.0
    } else {
        c.bounded as f64 / c.total as f64
    }
}
