//! Rendering: diagnostics (ariadne), text, JSON, SARIF and Markdown output, progress bars. The only
//! module that renders or serializes.
use crate::classfile::InputError;
use ariadne::{Config, Report, ReportKind};
use jresa_analyses::ir::{print_program, Program};
use serde::Serialize;
use std::io::IsTerminal;

/// Renders an ariadne diagnostic without source spans (for inputs that are not text).
fn render(kind: ReportKind, message: &str, notes: &[String]) -> String {
    let color = std::io::stderr().is_terminal();
    let builder = Report::<'_, (String, std::ops::Range<usize>)>::build(kind, (String::new(), 0..0))
        .with_config(Config::default().with_color(color))
        .with_message(message);
    let mut out = Vec::new();
    // With no labels the report reads no source, so the empty cache is never consulted.
    let cache = ariadne::sources(Vec::<(String, String)>::new());
    if builder.finish().write(cache, &mut out).is_err() {
        out = format!("{message}\n").into_bytes();
    }
    let mut text = String::from_utf8_lossy(&out).into_owned();
    // ariadne prints notes only under source snippets; inputs here are binary, so the location
    // follows the headline as an arrow line.
    for note in notes {
        text.push_str(&format!("   --> {note}\n"));
    }
    text
}

/// An input error (missing file, bad zip, corrupt classfile) as an error diagnostic.
pub fn input_error(error: &InputError) -> String {
    let mut location = format!("in {}", error.origin);
    if let Some(method) = &error.method {
        location.push_str(&format!(", method {method}"));
    }
    if let Some(offset) = error.offset {
        location.push_str(&format!(", at bytecode offset {offset}"));
    }
    render(ReportKind::Error, &error.message, &[location])
}

/// A method the lifter refused, as a warning diagnostic.
pub fn refused_method(origin: &str, method: &str, pc: Option<u32>, reason: &str) -> String {
    let mut location = format!("in {origin}, method {method}");
    if let Some(pc) = pc {
        location.push_str(&format!(", at bytecode offset {pc}"));
    }
    render(
        ReportKind::Warning,
        &format!("method not lifted: {reason}"),
        &[location],
    )
}

/// A baseline file that cannot be used (missing, malformed, another cost model).
pub fn baseline_error(path: &str, message: &str) -> String {
    render(ReportKind::Error, message, &[format!("in baseline {path}")])
}

/// A bound in a baseline that does not parse; the method is then compared by text.
pub fn unreadable_baseline_bound(path: &str, method: &str, bound: &str, column: usize, message: &str) -> String {
    render(
        ReportKind::Warning,
        &format!("baseline bound `{bound}` does not parse: {message}"),
        &[format!(
            "in baseline {path}, method {method}, at column {column} of the bound"
        )],
    )
}

/// An error in how a subcommand was asked to run, or in what it was asked to run on.
pub fn usage_error(message: &str) -> String {
    render(ReportKind::Error, message, &[])
}

/// A note on stderr (for example that a baseline was written).
pub fn note(message: &str) -> String {
    format!("note: {message}\n")
}

/// A verifier error in lifted IR: always a bug in jresa.
pub fn verifier_error(method: &str, error: &str) -> String {
    render(
        ReportKind::Error,
        &format!("lifted IR fails verification: {error}"),
        &[format!("in method {method}")],
    )
}

/// The textual IR of a program.
pub fn ir_text(program: &Program) -> String {
    print_program(program)
}

/// Any serializable value as pretty JSON with a trailing newline.
pub fn json<T: Serialize>(value: &T) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(mut text) => {
            text.push('\n');
            text
        }
        Err(error) => format!("{{\"error\": \"cannot serialize: {error}\"}}\n"),
    }
}

/// Statistics of an `ir` run.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct LiftStats {
    pub classes: usize,
    /// Methods with bytecode.
    pub methods: usize,
    pub lifted: usize,
    pub refused: usize,
    pub verifier_errors: usize,
    pub input_errors: usize,
    pub seconds: f64,
    /// Refusal reasons with their counts, most frequent first.
    pub refusals: Vec<(String, usize)>,
}

/// The `--stats` text report.
pub fn lift_stats_text(stats: &LiftStats) -> String {
    let share = if stats.methods == 0 {
        100.0
    } else {
        100.0 * stats.lifted as f64 / stats.methods as f64
    };
    let mut out = format!(
        "classes: {}\nmethods with bytecode: {}\nlifted: {} ({share:.2}%)\nrefused: {}\nverifier errors: {}\ninput errors: {}\ntime: {:.2} s\n",
        stats.classes, stats.methods, stats.lifted, stats.refused, stats.verifier_errors, stats.input_errors, stats.seconds
    );
    if !stats.refusals.is_empty() {
        out.push_str("refused, by reason:\n");
        for (reason, count) in &stats.refusals {
            out.push_str(&format!("  {count:>6}  {reason}\n"));
        }
    }
    out
}

mod profile;
pub use profile::{profile_error, profile_text, profile_warning, write_profile_text};

pub mod schedule;
pub mod vm;

pub mod ci;
pub mod html;
pub mod markdown;
pub mod plot;
pub mod progress;
pub mod sarif;
pub mod summary;
pub mod validate;

mod check;
pub use check::{check_diagnostics, check_text, spec_diagnostic};

/// The `analyze` text report: per method its bound, class, termination and loops.
pub fn analysis_text(report: &crate::analyze::AnalysisReport) -> String {
    let mut out = format!("cost model: {}\n", report.cost_model.name());
    for m in &report.methods {
        let location = match (&m.source_file, m.line) {
            (Some(file), Some(line)) => format!("  [{file}:{line}]"),
            _ => String::new(),
        };
        out.push_str(&format!("\n{}.{}{}{location}\n", m.class, m.name, m.descriptor));
        if !m.parameters.is_empty() {
            out.push_str(&format!("  parameters: {}\n", m.parameters.join(", ")));
        }
        match (&m.upper_bound, &m.complexity) {
            (Some(bound), Some(class)) => out.push_str(&format!("  bound: {bound}\n  class: {class}\n")),
            _ => out.push_str(&format!("  status: {}\n", m.status)),
        }
        let verdict = match m.terminates {
            Some(true) => "terminates",
            Some(false) => "does not terminate (for some inputs)",
            None => "unknown",
        };
        if let Some(precondition) = &m.precondition {
            out.push_str(&format!("  for inputs: {precondition}\n"));
        }
        out.push_str(&format!("  termination: {verdict}\n"));
        if let Some(reason) = &m.reason {
            out.push_str(&format!("  reason: {reason}\n"));
        }
        if let Some(w) = &m.witness {
            out.push_str(&format!(
                "  witness: ({}); recurrent set: {}; confirmed: {}\n",
                w.arguments.join(", "),
                w.recurrent_set,
                w.confirmed
            ));
            if !w.replay.is_empty() {
                out.push_str(&format!("  replay: {}\n", w.replay));
            }
        }
        for l in &m.loops {
            let at = l
                .line
                .map_or(format!("offset {}", l.offset), |line| format!("line {line}"));
            match (&l.ranking_function, &l.iterations) {
                (Some(f), Some(n)) => out.push_str(&format!("  loop at {at}: ranking function {f}, iterations {n}\n")),
                (Some(f), None) => out.push_str(&format!(
                    "  loop at {at}: ranking function {f} (it terminates; its iterations are not bounded)\n"
                )),
                _ => out.push_str(&format!(
                    "  loop at {at}: {}\n",
                    l.reason.as_deref().unwrap_or("not bounded")
                )),
            }
        }
    }
    out
}
