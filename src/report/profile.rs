//! Rendering of `jresa profile` results: the calling-context tree as indented text, and diagnostics.
use super::render;
use crate::profile::Cct;
use ariadne::ReportKind;
use std::io::Write;

/// Indentation stops growing at this depth; deeper lines say their depth instead.
const MAX_INDENT_DEPTH: u32 = 48;

/// The tree as text: a summary, then one line per context in depth-first order with the heaviest
/// (by inclusive bytecodes) first, giving inclusive and exclusive bytecodes, invocations, the
/// method and the call site (`@bci` in the parent's method; none when the JVM entered it).
pub fn profile_text(cct: &Cct) -> String {
    let mut out = Vec::new();
    write_profile_text(cct, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the text is UTF-8")
}

/// [`profile_text`], written as it is rendered (a deep tree's text runs to tens of megabytes).
pub fn write_profile_text(cct: &Cct, out: &mut impl Write) -> std::io::Result<()> {
    let totals = &cct.totals;
    writeln!(
        out,
        "jresa profile: {} bytecodes, {} invocations, {} contexts, {} methods, {} threads",
        totals.bytecodes, totals.invocations, totals.contexts, totals.methods, cct.threads
    )?;
    if !cct.only.is_empty() {
        writeln!(
            out,
            "only the dynamic extent of {} ({} methods matched)",
            cct.only.join(", "),
            cct.selected_methods
        )?;
    }
    if !cct.uninstrumented.is_empty() {
        writeln!(
            out,
            "not instrumented: {} classes or methods (listed by --format json)",
            cct.uninstrumented.len()
        )?;
    }
    let nodes = cct.nodes.get(1..).unwrap_or_default();
    let width = |value: fn(&crate::profile::CctNode) -> u64, title: &str| {
        let widest = nodes.iter().map(value).max().unwrap_or(0);
        widest.to_string().len().max(title.len())
    };
    let inclusive_width = width(|n| n.inclusive_bytecodes, "inclusive");
    let exclusive_width = width(|n| n.bytecodes, "exclusive");
    let calls_width = width(|n| n.invocations, "invocations");
    writeln!(
        out,
        "\n{:>inclusive_width$}  {:>exclusive_width$}  {:>calls_width$}  context",
        "inclusive", "exclusive", "invocations"
    )?;
    let indents = "  ".repeat(MAX_INDENT_DEPTH as usize);
    for node in nodes {
        let level = node.depth.saturating_sub(1);
        write!(
            out,
            "{:>inclusive_width$}  {:>exclusive_width$}  {:>calls_width$}  {}",
            node.inclusive_bytecodes,
            node.bytecodes,
            node.invocations,
            &indents[..2 * level.min(MAX_INDENT_DEPTH) as usize]
        )?;
        if level > MAX_INDENT_DEPTH {
            write!(out, "[depth {}] ", node.depth)?;
        }
        match &node.method {
            Some(method) => write!(out, "{method}")?,
            None => write!(out, "<root>")?,
        }
        match node.call_site {
            Some(bci) => writeln!(out, " @{bci}")?,
            None => writeln!(out)?,
        }
    }
    Ok(())
}

/// A `jresa profile` error as a diagnostic.
pub fn profile_error(message: &str) -> String {
    render(ReportKind::Error, message, &[])
}

/// A `jresa profile` warning as a diagnostic.
pub fn profile_warning(message: &str) -> String {
    render(ReportKind::Warning, message, &[])
}
