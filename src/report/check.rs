//! Rendering of `jresa check`: the text report and the diagnostics of malformed annotations
//! (ariadne, with the span inside the annotation string).
use crate::check::{CheckReport, SpecDiagnostic};
use ariadne::{Config, Label, Report, ReportKind, Source};

/// The text report: per annotated method its verdict, values, bound and inferred invariants.
pub fn check_text(report: &CheckReport) -> String {
    let mut out = String::new();
    for m in &report.methods {
        let location = match (&m.source_file, m.method_line) {
            (Some(file), Some(line)) => format!("  [{file}:{line}]"),
            _ => String::new(),
        };
        out.push_str(&format!("{}.{}{}{location}\n", m.class, m.name, m.descriptor));
        let optimal = match m.optimal {
            Some(true) => " (optimal)",
            Some(false) => " (feasible, not proven optimal)",
            None => "",
        };
        out.push_str(&format!("  status: {}{optimal}\n", m.status));
        if !m.resource_variables.is_empty() {
            let values: Vec<String> = m
                .resource_variables
                .iter()
                .map(|(name, value)| format!("{name} = {value}"))
                .collect();
            out.push_str(&format!("  resource variables: {}\n", values.join(", ")));
        }
        if let Some(bound) = &m.bound {
            out.push_str(&format!("  bound: {bound}\n"));
        }
        if let Some(reason) = &m.reason {
            let at = match (m.line, m.offset) {
                (Some(line), Some(offset)) => format!(" [line {line}, offset {offset}]"),
                (None, Some(offset)) => format!(" [offset {offset}]"),
                _ => String::new(),
            };
            out.push_str(&format!("  reason: {reason}{at}\n"));
        }
        for invariant in &m.invariants_inferred {
            let at = invariant
                .line
                .map_or(format!("offset {}", invariant.offset), |line| format!("line {line}"));
            match (invariant.kind.as_str(), invariant.id) {
                ("facts", Some(id)) => out.push_str(&format!(
                    "  data facts inferred for @Invariant(id = {id}) (loop at {at}): {}\n",
                    invariant.text
                )),
                _ => out.push_str(&format!(
                    "  invariant inferred for the loop at {at}: {}\n",
                    invariant.text
                )),
            }
        }
    }
    out
}

/// Every diagnostic of the report, rendered.
pub fn check_diagnostics(report: &CheckReport) -> String {
    report.diagnostics.iter().map(spec_diagnostic).collect()
}

/// One malformed annotation or marker as an error diagnostic: the annotation string with the
/// offending span labelled, and where the annotation is.
pub fn spec_diagnostic(diagnostic: &SpecDiagnostic) -> String {
    let mut location = match &diagnostic.source_file {
        Some(file) => format!("in {file}, "),
        None => String::new(),
    };
    location.push_str(&format!("method {}", diagnostic.method));
    match (diagnostic.offset, diagnostic.line, diagnostic.method_line) {
        (Some(offset), Some(line), _) => location.push_str(&format!(", at line {line} (bytecode offset {offset})")),
        (Some(offset), None, _) => location.push_str(&format!(", at bytecode offset {offset}")),
        (None, _, Some(line)) => location.push_str(&format!(" (its code starts at line {line})")),
        (None, _, None) => {}
    }
    let (Some(text), Some(span)) = (&diagnostic.text, diagnostic.span) else {
        let headline = match diagnostic.role {
            Some(role) => format!("{role}: {}", diagnostic.message),
            None => diagnostic.message.clone(),
        };
        return super::render(ReportKind::Error, &headline, &[location]);
    };
    let name = match diagnostic.role {
        Some(role) => role.to_string(),
        None => "annotation".to_owned(),
    };
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    // ariadne counts characters, the spans count bytes.
    let to_chars = |byte: usize| text.get(..byte).map_or(byte, |s| s.chars().count());
    let range = to_chars(start)..to_chars(end).max(to_chars(start));
    let mut out = Vec::new();
    let result = Report::build(ReportKind::Error, (name.clone(), range.clone()))
        .with_config(Config::default().with_color(color))
        .with_message(&diagnostic.message)
        .with_label(Label::new((name.clone(), range)).with_message(&diagnostic.message))
        .with_note(location.clone())
        .finish()
        .write((name.clone(), Source::from(text.clone())), &mut out);
    if result.is_err() {
        return format!(
            "error: {}\n  in {name}: {text}\n   --> {location}\n",
            diagnostic.message
        );
    }
    String::from_utf8_lossy(&out).into_owned()
}
