//! The source pages: a source file's lines, each method's bound beside its signature and each
//! loop's line marked with its ranking function or the reason it has none, coloured by status.

use super::layout::{method_label, page, status_class, Crumb};
use super::overview::display_package;
use super::site::{ClassEntry, Package, Site, SourceEntry};
use crate::report::summary::Status;
use maud::{html, Markup};
use std::collections::BTreeMap;

/// What is said about one line: its colour and its notes (class, text, link to the method).
#[derive(Default)]
struct LineNotes {
    status: Option<Status>,
    notes: Vec<(Status, String, Option<String>)>,
}

/// The page of a source file.
pub fn source_page(site: &Site<'_>, entry: &SourceEntry) -> String {
    let lines: Vec<&str> = entry.text.lines().collect();
    let mut notes: BTreeMap<usize, LineNotes> = BTreeMap::new();
    for &(p, c) in &entry.classes {
        annotate_class(&site.packages[p].classes[c], &lines, &mut notes);
    }
    let package: Option<&Package<'_>> = entry.classes.first().map(|&(p, _)| &site.packages[p]);
    let body = html! {
        p.muted { (entry.path) }
        div.scroll {
            div.source {
                @for (k, line) in lines.iter().enumerate() {
                    (source_line(k + 1, line, notes.get(&(k + 1))))
                }
            }
        }
    };
    let mut crumbs = vec![Crumb {
        text: "Overview".into(),
        href: "../index.html".into(),
    }];
    if let Some(p) = package {
        crumbs.push(Crumb {
            text: display_package(&p.name),
            href: "index.html".into(),
        });
    }
    let title = entry.path.rsplit('/').next().unwrap_or(&entry.path);
    page(title, "../", &crumbs, body)
}

fn source_line(number: usize, text: &str, notes: Option<&LineNotes>) -> Markup {
    let class = notes.and_then(|n| n.status).map_or("line", |s| match s {
        Status::Bounded => "line bounded",
        Status::Unbounded => "line unbounded",
        Status::Unknown => "line unknown",
        Status::Error => "line error",
        Status::Violated => "line violated",
    });
    html! {
        div class=(class) id={ "L" (number) } { span.no { (number) } code { (text) } }
        @if let Some(notes) = notes {
            @for (status, note, href) in &notes.notes {
                div class={ "note " (status_class(*status)) } {
                    @if let Some(href) = href { a href=(href) { (note) } } @else { (note) }
                }
            }
        }
    }
}

/// Notes for a class's methods (at their signatures) and loops (at their headers).
fn annotate_class(class: &ClassEntry<'_>, lines: &[&str], notes: &mut BTreeMap<usize, LineNotes>) {
    for row in &class.methods {
        let m = row.summary;
        let Some(first) = m.line.filter(|l| *l > 0) else {
            continue;
        };
        let label = method_label(&class.simple_name, &m.name, &m.descriptor);
        let at = signature_line(lines, first as usize, &m.name, &class.simple_name);
        let text = match (&m.bound, &m.message) {
            (Some(bound), _) => format!("{label}: {bound} ({})", m.complexity.as_deref().unwrap_or("")),
            (None, Some(reason)) => format!("{label}: {}: {reason}", m.status.name()),
            (None, None) => format!("{label}: {}", m.status.name()),
        };
        let entry = notes.entry(at).or_default();
        entry.status = Some(entry.status.map_or(m.status, |s| worse(s, m.status)));
        entry
            .notes
            .push((m.status, text, Some(format!("{}#{}", class.file, row.anchor))));
        for l in &m.loops {
            let Some(line) = l.line.filter(|l| *l > 0) else {
                continue;
            };
            let (status, text) = match (&l.ranking_function, &l.reason) {
                (Some(f), _) => (Status::Bounded, format!("loop: ranking function {f}")),
                (None, Some(reason)) => (Status::Unbounded, format!("loop: no ranking function: {reason}")),
                (None, None) => (Status::Unknown, "loop: not bounded".to_owned()),
            };
            let entry = notes.entry(line as usize).or_default();
            entry.status = Some(entry.status.map_or(status, |s| worse(s, status)));
            entry.notes.push((status, text, None));
        }
    }
}

/// The worse of two statuses for a line's colour.
fn worse(a: Status, b: Status) -> Status {
    let rank = |s: Status| match s {
        Status::Bounded => 0,
        Status::Unknown => 1,
        Status::Error => 2,
        Status::Unbounded => 3,
        Status::Violated => 4,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The line of a method's signature: the nearest line at or above its first line of code (within
/// a few lines) that names it followed by `(`; `static` for a class initializer; else the first
/// line of code.
fn signature_line(lines: &[&str], first: usize, name: &str, simple_class: &str) -> usize {
    let shown = match name {
        "<init>" => simple_class.rsplit('$').next().unwrap_or(simple_class),
        "<clinit>" => "static",
        other => other,
    };
    let lowest = first.saturating_sub(12).max(1);
    (lowest..=first.min(lines.len()))
        .rev()
        .find(|&k| {
            let line = lines[k - 1];
            line.match_indices(shown).any(|(at, _)| {
                let after = line[at + shown.len()..].trim_start();
                let before = line[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
                    && (after.starts_with('(') || (name == "<clinit>" && after.starts_with('{')))
            })
        })
        .unwrap_or(first)
}
