//! The overview page (`index.html`): what failed first (regressions of `ci`, violations of
//! `validate`), then methods by status, the histogram of growth classes, termination verdicts,
//! the most expensive methods by growth class and by bound value, and the packages.

use super::chart::histogram_svg;
use super::layout::{page, termination_word};
use super::site::{ClassEntry, MethodRow, Package, Site};
use super::tables::{counts_table, methods_table, shortened, status_bar, Columns, Listed, StatusCounts};
use crate::report::summary::Status;
use jresa_analyses::bounds::expr::Growth;
use maud::{html, Markup, PreEscaped};
use std::collections::BTreeMap;

/// Rows of the overview's method lists at most.
pub const TOP: usize = 25;

/// Rows of the lists of failures and changes at most.
pub const MAX_LISTED: usize = 500;

pub fn overview_page(site: &Site<'_>) -> Result<String, String> {
    let summary = site.summary;
    let columns = Columns::of(summary);
    let all: Vec<Listed<'_, '_>> = site.methods().map(|(_, c, m)| (c, m)).collect();
    let counts = StatusCounts::of(all.iter().map(|(_, m)| *m));
    let link = |(class, row): Listed<'_, '_>| format!("{}/{}#{}", class.package_dir, class.file, row.anchor);
    let title = format!("jresa {}: {} methods", summary.command, counts.total);
    let body = html! {
        p.muted {
            "Cost model: " (summary.cost_model) ". "
            @if let Some(note) = &summary.note { (note) }
        }
        (failures(&all, columns, &link))
        h2 { "Methods by status" }
        (status_cards(&counts))
        @if columns.terminates { (termination(&all)) }
        h2 { "Growth classes of the bounds" }
        (histogram(&all)?)
        h2 { "Most expensive methods by growth class" }
        (methods_table(&by_growth(&all), columns, true, &link))
        h2 { "Most expensive methods at n = " (site.rank_size) }
        p.muted { "Every parameter (and every size of a reference parameter) set to " (site.rank_size) "." }
        (methods_table(&by_value(&all), columns, true, &link))
        h2 { "Why methods have no bound" }
        (reasons(&all))
        h2 { "Packages" }
        (counts_table("Package", &package_rows(&site.packages), counts.violated > 0))
    };
    Ok(page(&title, "", &[], body))
}

/// Regressions (`ci`) or violations (`validate`) first; with `ci`, the other changes next.
fn failures(all: &[Listed<'_, '_>], columns: Columns, link: &dyn Fn(Listed<'_, '_>) -> String) -> Markup {
    let failing: Vec<Listed<'_, '_>> = all
        .iter()
        .copied()
        .filter(|(_, m)| m.summary.status == Status::Violated || m.summary.change.as_ref().is_some_and(|c| c.fails))
        .collect();
    let changed: Vec<Listed<'_, '_>> = all
        .iter()
        .copied()
        .filter(|(_, m)| {
            m.summary
                .change
                .as_ref()
                .is_some_and(|c| !c.fails && c.kind != crate::baseline::compare::ChangeKind::Unchanged)
        })
        .collect();
    let heading = if columns.change { "Regressions" } else { "Violations" };
    html! {
        @if !failing.is_empty() || columns.change {
            h2 { (heading) " (" (failing.len()) ")" }
            @if failing.is_empty() { p { "None." } } @else { (listed(&failing, columns, link)) }
        }
        @if columns.change {
            h2 { "Other changes (" (changed.len()) ")" }
            @if changed.is_empty() { p { "None." } } @else { (listed(&changed, columns, link)) }
        }
    }
}

/// A methods table cut at `MAX_LISTED` rows.
fn listed(rows: &[Listed<'_, '_>], columns: Columns, link: &dyn Fn(Listed<'_, '_>) -> String) -> Markup {
    html! {
        (methods_table(&rows[..rows.len().min(MAX_LISTED)], columns, true, link))
        @if rows.len() > MAX_LISTED { p.muted { (rows.len() - MAX_LISTED) " more on the class pages." } }
    }
}

fn status_cards(counts: &StatusCounts) -> Markup {
    html! {
        div.cards {
            @for (status, count) in counts.by_status() {
                @if count > 0 || status != Status::Violated {
                    div.card {
                        div class={ "figure status " (super::layout::status_class(status)) } { (count) }
                        div { (status.name()) }
                    }
                }
            }
            div.card { div.figure { (counts.non_constant) } div { "non-constant bounds" } }
        }
        (status_bar(counts))
    }
}

fn termination(all: &[Listed<'_, '_>]) -> Markup {
    let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, m) in all {
        *verdicts.entry(termination_word(m.summary.terminates)).or_default() += 1;
    }
    html! {
        h2 { "Termination" }
        div.cards {
            @for verdict in ["yes", "no", "unknown"] {
                div.card { div.figure { (verdicts.get(verdict).copied().unwrap_or(0)) } div { "terminates: " (verdict) } }
            }
        }
    }
}

fn histogram(all: &[Listed<'_, '_>]) -> Result<Markup, String> {
    let mut classes: BTreeMap<Growth, usize> = BTreeMap::new();
    for (_, m) in all.iter().filter(|(_, m)| m.summary.status == Status::Bounded) {
        if let Some(growth) = m.growth {
            *classes.entry(growth).or_default() += 1;
        }
    }
    let bars: Vec<(String, usize)> = classes.iter().map(|(g, count)| (g.to_string(), *count)).collect();
    let svg = histogram_svg(&bars)?;
    Ok(html! {
        figure.chart {
            (PreEscaped(svg))
            figcaption {
                @for (k, (label, count)) in bars.iter().enumerate() {
                    @if k > 0 { ", " }
                    (label) ": " (count)
                }
            }
        }
    })
}

/// The most common reasons, with how many methods give each.
fn reasons(all: &[Listed<'_, '_>]) -> Markup {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, m) in all.iter().filter(|(_, m)| m.summary.bound.is_none()) {
        if let Some(message) = &m.summary.message {
            *counts.entry(message).or_default() += 1;
        }
    }
    let mut common: Vec<(&str, usize)> = counts.into_iter().collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    common.truncate(TOP);
    html! {
        @if common.is_empty() { p { "Every method has a bound." } } @else {
            div.scroll {
                table.sortable.reasons {
                    thead { tr { th.num { "Methods" } th { "Reason" } } }
                    tbody {
                        @for (reason, count) in common {
                            tr { td.num data-key=(count) { (count) } td.reason { (shortened(reason)) } }
                        }
                    }
                }
            }
        }
    }
}

/// The bounded methods of the fastest growth classes, each class by value.
fn by_growth<'s, 'a>(all: &[Listed<'s, 'a>]) -> Vec<Listed<'s, 'a>> {
    let mut rows: Vec<Listed<'s, 'a>> = all.iter().copied().filter(|(_, m)| m.growth.is_some()).collect();
    rows.sort_by(|a, b| {
        b.1.growth
            .cmp(&a.1.growth)
            .then(value_order(b.1, a.1))
            .then_with(|| key(a).cmp(&key(b)))
    });
    rows.truncate(TOP);
    rows
}

/// The methods whose bound is largest at the ranking size.
fn by_value<'s, 'a>(all: &[Listed<'s, 'a>]) -> Vec<Listed<'s, 'a>> {
    let mut rows: Vec<Listed<'s, 'a>> = all.iter().copied().filter(|(_, m)| m.value.is_some()).collect();
    rows.sort_by(|a, b| value_order(b.1, a.1).then_with(|| key(a).cmp(&key(b))));
    rows.truncate(TOP);
    rows
}

fn value_order(a: &MethodRow<'_>, b: &MethodRow<'_>) -> std::cmp::Ordering {
    a.value.unwrap_or(-1.0).total_cmp(&b.value.unwrap_or(-1.0))
}

/// A stable tie-break: class, name, descriptor.
fn key<'s>((class, row): &Listed<'s, '_>) -> (&'s str, &'s str, &'s str) {
    (&class.name, &row.summary.name, &row.summary.descriptor)
}

fn package_rows(packages: &[Package<'_>]) -> Vec<(String, String, StatusCounts)> {
    packages
        .iter()
        .map(|p| {
            let counts = StatusCounts::of(p.classes.iter().flat_map(|c: &ClassEntry<'_>| c.methods.iter()));
            (display_package(&p.name), format!("{}/index.html", p.dir), counts)
        })
        .collect()
}

/// A package's name as shown (`(default package)` for the unnamed one).
pub fn display_package(name: &str) -> String {
    if name.is_empty() {
        "(default package)".to_owned()
    } else {
        name.to_owned()
    }
}
