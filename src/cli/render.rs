//! `jresa report`: renders a saved JSON report of `analyze`, `validate` or `ci` in another format,
//! for example as the HTML site that CI publishes.
use super::analyze::{write_site, SiteArgs};
use super::sources::source_locator;
use super::{ReportFormat, EXIT_INPUT_ERROR, EXIT_OK};
use crate::analyze::AnalysisReport;
use crate::baseline::compare::ComparisonReport;
use crate::report;
use crate::report::summary::{self, Summary};
use crate::validate::ValidationReport;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The JSON report (`--format json` of `jresa analyze`, `validate` or `ci`).
    #[arg(value_name = "REPORT")]
    pub report: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "html")]
    pub format: ReportFormat,
    #[command(flatten)]
    pub site: SiteArgs,
    /// Where the sources of the report's classes lie (`package/File.java` under it).
    #[arg(long, value_name = "DIR")]
    pub source_root: Option<PathBuf>,
    /// No note on where the site was written.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A saved report of one of the subcommands.
enum Saved {
    Analysis(AnalysisReport),
    Validation(ValidationReport),
    Comparison(ComparisonReport),
}

/// Reads a saved report, telling the subcommands' reports apart by their fields.
fn read(text: &str) -> Result<Saved, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let has = |field: &str| value.get(field).is_some();
    let typed = |e: serde_json::Error| format!("not a jresa report: {e}");
    if has("fail_on") {
        serde_json::from_value(value).map(Saved::Comparison).map_err(typed)
    } else if has("backend") {
        serde_json::from_value(value).map(Saved::Validation).map_err(typed)
    } else if has("methods") {
        serde_json::from_value(value).map(Saved::Analysis).map_err(typed)
    } else {
        Err("not a report of `jresa analyze`, `validate` or `ci` (it has no `methods`)".into())
    }
}

pub fn run(args: &RenderArgs) -> u8 {
    let name = args.report.display().to_string();
    let saved = std::fs::read_to_string(&args.report)
        .map_err(|e| format!("cannot read {name}: {e}"))
        .and_then(|text| read(&text).map_err(|e| format!("{name}: {e}")));
    let saved = match saved {
        Ok(saved) => saved,
        Err(message) => {
            eprint!("{}", report::usage_error(&message));
            return EXIT_INPUT_ERROR;
        }
    };
    let locate = source_locator(&[], args.source_root.as_deref());
    let neutral = || -> Summary {
        match &saved {
            Saved::Analysis(r) => summary::of_analysis(r, &locate),
            Saved::Validation(r) => summary::of_validation(r, &locate),
            Saved::Comparison(r) => summary::of_comparison(r, &locate),
        }
    };
    let output = match args.format {
        ReportFormat::Text => match &saved {
            Saved::Analysis(r) => report::analysis_text(r),
            Saved::Validation(r) => report::validate::validation_text(r),
            Saved::Comparison(r) => report::ci::comparison_text(r),
        },
        ReportFormat::Json => match &saved {
            Saved::Analysis(r) => report::json(r),
            Saved::Validation(r) => report::json(r),
            Saved::Comparison(r) => report::json(r),
        },
        ReportFormat::Sarif => report::sarif::sarif(&neutral()),
        ReportFormat::Markdown => report::markdown::markdown(&neutral()),
        ReportFormat::Html => match write_site(&neutral(), &args.site, args.quiet) {
            Ok(()) => String::new(),
            Err(code) => return code,
        },
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    EXIT_OK
}
