//! Rendering of `jresa profile` results: the calling-context tree as indented text, and diagnostics.
use super::render;
use crate::profile::{Cct, MethodId};
use ariadne::ReportKind;
use std::io::Write;
use std::sync::Arc;

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
    // Each method's name is rendered once; a line is assembled in one buffer and written whole (a
    // profile has hundreds of thousands of lines).
    let mut names: rustc_hash::FxHashMap<*const MethodId, String> = rustc_hash::FxHashMap::default();
    let mut line: Vec<u8> = Vec::with_capacity(256);
    for node in nodes {
        line.clear();
        let level = node.depth.saturating_sub(1);
        push_right_aligned(&mut line, node.inclusive_bytecodes, inclusive_width);
        line.extend_from_slice(b"  ");
        push_right_aligned(&mut line, node.bytecodes, exclusive_width);
        line.extend_from_slice(b"  ");
        push_right_aligned(&mut line, node.invocations, calls_width);
        line.extend_from_slice(b"  ");
        line.extend_from_slice(&indents.as_bytes()[..2 * level.min(MAX_INDENT_DEPTH) as usize]);
        if level > MAX_INDENT_DEPTH {
            line.extend_from_slice(b"[depth ");
            push_right_aligned(&mut line, u64::from(node.depth), 0);
            line.extend_from_slice(b"] ");
        }
        match &node.method {
            Some(method) => {
                let name = names.entry(Arc::as_ptr(method)).or_insert_with(|| method.to_string());
                line.extend_from_slice(name.as_bytes());
            }
            None => line.extend_from_slice(b"<root>"),
        }
        if let Some(bci) = node.call_site {
            line.extend_from_slice(b" @");
            push_right_aligned(&mut line, u64::from(bci), 0);
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Appends `value` in decimal, padded on the left with spaces to `width` characters.
fn push_right_aligned(line: &mut Vec<u8>, value: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = value;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let written = digits.len() - start;
    line.resize(line.len() + width.saturating_sub(written), b' ');
    line.extend_from_slice(&digits[start..]);
}

/// A `jresa profile` error as a diagnostic.
pub fn profile_error(message: &str) -> String {
    render(ReportKind::Error, message, &[])
}

/// A `jresa profile` warning as a diagnostic.
pub fn profile_warning(message: &str) -> String {
    render(ReportKind::Warning, message, &[])
}
