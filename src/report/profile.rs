//! Rendering of `jresa profile` results: the calling-context tree as indented text, and diagnostics.
use super::render;
use crate::profile::Cct;
use ariadne::ReportKind;

/// Indentation stops growing at this depth; deeper lines say their depth instead.
const MAX_INDENT_DEPTH: u32 = 48;

/// The tree as text: a summary, then one line per context in depth-first order with the heaviest
/// (by inclusive bytecodes) first, giving inclusive and exclusive bytecodes, invocations, the
/// method and the call site (`@bci` in the parent's method; none when the JVM entered it).
pub fn profile_text(cct: &Cct) -> String {
    let totals = &cct.totals;
    let mut out = format!(
        "jresa profile: {} bytecodes, {} invocations, {} contexts, {} methods, {} threads\n",
        totals.bytecodes, totals.invocations, totals.contexts, totals.methods, cct.threads
    );
    if !cct.only.is_empty() {
        out.push_str(&format!(
            "only the dynamic extent of {} ({} methods matched)\n",
            cct.only.join(", "),
            cct.selected_methods
        ));
    }
    if !cct.uninstrumented.is_empty() {
        out.push_str(&format!(
            "not instrumented: {} classes or methods (listed by --format json)\n",
            cct.uninstrumented.len()
        ));
    }
    let nodes = cct.nodes.get(1..).unwrap_or_default();
    let width = |value: fn(&crate::profile::CctNode) -> u64, title: &str| {
        nodes
            .iter()
            .map(|n| value(n).to_string().len())
            .chain([title.len()])
            .max()
            .unwrap_or(0)
    };
    let inclusive_width = width(|n| n.inclusive_bytecodes, "inclusive");
    let exclusive_width = width(|n| n.bytecodes, "exclusive");
    let calls_width = width(|n| n.invocations, "invocations");
    out.push_str(&format!(
        "\n{:>inclusive_width$}  {:>exclusive_width$}  {:>calls_width$}  context\n",
        "inclusive", "exclusive", "invocations"
    ));
    for node in nodes {
        let level = node.depth.saturating_sub(1);
        let indent = "  ".repeat(level.min(MAX_INDENT_DEPTH) as usize);
        let deep = if level > MAX_INDENT_DEPTH {
            format!("[depth {}] ", node.depth)
        } else {
            String::new()
        };
        let method = node
            .method
            .as_ref()
            .map_or_else(|| "<root>".to_owned(), ToString::to_string);
        let site = node.call_site.map_or_else(String::new, |bci| format!(" @{bci}"));
        out.push_str(&format!(
            "{:>inclusive_width$}  {:>exclusive_width$}  {:>calls_width$}  {indent}{deep}{method}{site}\n",
            node.inclusive_bytecodes, node.bytecodes, node.invocations
        ));
    }
    out
}

/// A `jresa profile` error as a diagnostic.
pub fn profile_error(message: &str) -> String {
    render(ReportKind::Error, message, &[])
}

/// A `jresa profile` warning as a diagnostic.
pub fn profile_warning(message: &str) -> String {
    render(ReportKind::Warning, message, &[])
}
