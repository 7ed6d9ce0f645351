//! Progress of whole runs: a progress bar (indicatif) on stderr when it is a terminal, nothing
//! otherwise (CI logs, `--quiet`), and the summary line every whole run ends with.

use crate::analyze::{AnalysisReport, AnalysisStatus};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress bar over the methods of a run, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` methods when stderr is a terminal and `quiet` is false.
    pub fn start(total: usize, quiet: bool) -> Progress {
        Progress::start_doing("analysing", total, quiet)
    }

    /// A bar over `total` methods, labelled with what is done to them (`analysing`, `validating`).
    pub fn start_doing(doing: &str, total: usize, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        let template =
            format!("{{spinner}} {doing} [{{bar:40}}] {{pos}}/{{len}} methods, {{per_sec}}, {{elapsed}}, {{eta}} left");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// Counts `methods` more as finished.
    pub fn advance(&self, methods: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(methods as u64);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `12 methods: 9 bounded, 2 unbounded, 1 unknown in 1.3 s (75.0% bounded, 9.2 methods/s)` (with
/// `not analysed` when some methods could not be lifted).
pub fn run_summary_line(report: &AnalysisReport, elapsed: Duration) -> String {
    let count = |status: AnalysisStatus| report.methods.iter().filter(|m| m.status == status).count();
    let errors = count(AnalysisStatus::Error);
    let not_analysed = if errors > 0 {
        format!(", {errors} not analysed")
    } else {
        String::new()
    };
    let methods = report.methods.len();
    let bounded = count(AnalysisStatus::Bounded);
    let share = if methods == 0 {
        0.0
    } else {
        100.0 * bounded as f64 / methods as f64
    };
    let rate = methods as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "{methods} method{}: {bounded} bounded, {} unbounded, {} unknown{not_analysed} in {:.1} s ({share:.1}% bounded, {rate:.1} methods/s)\n",
        if methods == 1 { "" } else { "s" },
        count(AnalysisStatus::Unbounded),
        count(AnalysisStatus::Unknown),
        elapsed.as_secs_f64()
    )
}
