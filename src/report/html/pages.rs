//! The package pages (their classes with status counts) and the class pages (their methods as a
//! table, then one section per method: bound, reason, loops, the change against the baseline,
//! and what running it measured, with the plot of measured cost against the bound).

use super::layout::{method_label, page, status_word, termination_word, Crumb};
use super::overview::display_package;
use super::site::{ClassEntry, MethodRow, Package, Site};
use super::tables::{counts_table, methods_table, status_bar, Columns, Listed, StatusCounts};
use crate::analyze::Witness;
use crate::report::plot::sizes_svg;
use crate::report::summary::{ChangeSummary, Measured};
use crate::report::validate::ratio_text;
use maud::{html, Markup, PreEscaped};

fn overview_crumb() -> Crumb {
    Crumb {
        text: "Overview".into(),
        href: "../index.html".into(),
    }
}

pub fn package_page(package: &Package<'_>) -> String {
    let rows: Vec<(String, String, StatusCounts)> = package
        .classes
        .iter()
        .map(|c| (c.simple_name.clone(), c.file.clone(), StatusCounts::of(&c.methods)))
        .collect();
    let counts = StatusCounts::of(package.classes.iter().flat_map(|c| c.methods.iter()));
    let body = html! {
        p { (counts.total) " methods, " (counts.bounded) " bounded." }
        (status_bar(&counts))
        h2 { "Classes" }
        (counts_table("Class", &rows, counts.violated > 0))
    };
    page(&display_package(&package.name), "../", &[overview_crumb()], body)
}

pub fn class_page(site: &Site<'_>, package: &Package<'_>, class: &ClassEntry<'_>) -> Result<String, String> {
    let columns = Columns::of(site.summary);
    let rows: Vec<Listed<'_, '_>> = class.methods.iter().map(|m| (class, m)).collect();
    let link = |(_, row): Listed<'_, '_>| format!("#{}", row.anchor);
    let source = class.source_path.as_deref().and_then(|p| site.source_of(p));
    let counts = StatusCounts::of(&class.methods);
    let mut sections = Vec::new();
    for row in &class.methods {
        sections.push(method_section(class, row, source.map(|s| s.file.as_str()))?);
    }
    let body = html! {
        p {
            (counts.total) " methods, " (counts.bounded) " bounded."
            @if let Some(source) = source { " " a href=(source.file) { "Source" } }
        }
        (status_bar(&counts))
        (methods_table(&rows, columns, false, &link))
        @for section in sections { (section) }
    };
    let crumbs = [
        overview_crumb(),
        Crumb {
            text: display_package(&package.name),
            href: "index.html".into(),
        },
    ];
    Ok(page(&class.name, "../", &crumbs, body))
}

fn method_section(class: &ClassEntry<'_>, row: &MethodRow<'_>, source_page: Option<&str>) -> Result<Markup, String> {
    let m = row.summary;
    let plot = m.measured.as_ref().map(plot_part).transpose()?;
    Ok(html! {
        section.method id=(row.anchor) {
            h3 { (method_label(&class.simple_name, &m.name, &m.descriptor)) }
            dl.facts {
                dt { "Method" } dd { code { (m.name) (m.descriptor) } }
                dt { "Status" } dd { (status_word(m.status)) }
                @if let Some(bound) = &m.bound { dt { "Bound" } dd { code { (bound) } } }
                @if let Some(complexity) = &m.complexity { dt { "Complexity" } dd { (complexity) } }
                @if m.terminates.is_some() { dt { "Terminates" } dd { (termination_word(m.terminates)) } }
                @if let Some(message) = &m.message { dt { "Reason" } dd { (message) } }
                @if let (Some(line), Some(page)) = (m.line.filter(|l| *l > 0), source_page) {
                    dt { "Source" } dd { a href={ (page) "#L" (line) } { "line " (line) } }
                }
                @if let Some(change) = &m.change { (change_part(change)) }
                @if let Some(measured) = &m.measured { (measured_facts(measured)) }
            }
            @if let Some(witness) = &m.witness { (witness_part(witness, source_page)) }
            @if !m.loops.is_empty() { (loops_part(row, source_page)) }
            @if let Some(plot) = plot { (plot) }
        }
    })
}

fn change_part(change: &ChangeSummary) -> Markup {
    html! {
        dt { "Change" } dd { (change.kind.name()) @if change.fails { " (fails the run)" } ": " (change.detail) }
        dt { "Baseline" } dd {
            @if let Some(old) = &change.old_bound { code { (old) } } @else { (change.old_status.map_or("absent", |s| s.name())) }
        }
    }
}

/// The input on which the method does not terminate, and how to replay it.
fn witness_part(witness: &Witness, source_page: Option<&str>) -> Markup {
    html! {
        h4 { "Non-termination witness" }
        dl.facts.witness {
            dt { "Arguments" } dd { code { (witness.arguments.join(", ")) } }
            dt { @if witness.recursion { "Recursion" } @else { "Loop" } } dd { (place(witness.line, witness.offset, source_page)) }
            dt { "Recurrent set" } dd { code { (witness.recurrent_set) } }
            dt { "Confirmed" } dd { (witness.confirmed) }
            @if !witness.replay.is_empty() { dt { "Replay" } dd { code { (witness.replay) } } }
        }
    }
}

/// A loop's place: its source line (linked to the source page when there is one), else its offset.
fn place(line: Option<u32>, offset: u32, source_page: Option<&str>) -> Markup {
    html! {
        @match (line, source_page) {
            (Some(line), Some(page)) => a href={ (page) "#L" (line) } { "line " (line) },
            (Some(line), None) => { "line " (line) },
            (None, _) => { "offset " (offset) },
        }
    }
}

fn loops_part(row: &MethodRow<'_>, source_page: Option<&str>) -> Markup {
    html! {
        div.scroll {
            table.loops {
                thead { tr { th { "Loop" } th { "Ranking function" } th { "Iterations" } th { "Reason" } } }
                tbody {
                    @for l in &row.summary.loops {
                        tr {
                            td { (place(l.line, l.offset, source_page)) }
                            td { code { (l.ranking_function.as_deref().unwrap_or("")) } }
                            td { code { (l.iterations.as_deref().unwrap_or("")) } }
                            td.reason { (l.reason.as_deref().unwrap_or("")) }
                        }
                    }
                }
            }
        }
    }
}

fn measured_facts(measured: &Measured) -> Markup {
    html! {
        dt { "Instances judged" } dd { (measured.checked) }
        @if let (Some(max), Some(median)) = (measured.max_ratio, measured.median_ratio) {
            dt { "Tightness" } dd { "measured / bound: largest " (ratio_text(max)) ", median " (ratio_text(median)) }
        }
        dt { "Violations" } dd { (measured.violations) }
    }
}

/// The plot of measured cost against the bound by size, and the violating instances.
fn plot_part(measured: &Measured) -> Result<Markup, String> {
    let plot = if measured.by_size.is_empty() {
        None
    } else {
        Some(sizes_svg(None, &measured.by_size, (560, 320))?)
    };
    Ok(html! {
        @if let Some(svg) = plot {
            figure.chart {
                (PreEscaped(svg))
                figcaption { "Largest measured cost (red) and largest bound value (blue) per instance size." }
            }
        }
        @if !measured.violating_instances.is_empty() {
            div.scroll {
                table.violations {
                    thead { tr { th { "Instance" } th { "Arguments" } th.num { "Measured" } th { "Bound" } th { "Replay" } } }
                    tbody {
                        @for v in &measured.violating_instances {
                            tr {
                                td { (v.number) }
                                td { code { (v.arguments) } }
                                td.num { (v.measured.map(|x| x.to_string()).unwrap_or_default()) }
                                td { (v.bound.as_deref().unwrap_or("")) }
                                td { code { (v.replay) } }
                            }
                        }
                    }
                }
            }
        }
    })
}
