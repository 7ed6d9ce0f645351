//! `jresa ci`: analyses the inputs, compares every method's bound with a committed baseline, and
//! exits 1 when a change fails the chosen `--fail-on` level (or rewrites the baseline with
//! `--update-baseline`).
use super::analyze::{run_analysis, write_site, ReportArgs};
use super::sources::source_locator;
use super::{ClassPathArgs, InputArgs, MethodSelection, ReportFormat, EXIT_INPUT_ERROR, EXIT_OK, EXIT_VIOLATION};
use crate::baseline::compare::{compare_with_baseline, FailOn};
use crate::baseline::{Baseline, BaselineMethod};
use crate::report;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CiArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    /// The baseline JSON file to compare with (written by `--update-baseline`).
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// Rewrite the baseline with this run's results (the methods the run covers), after reporting
    /// the comparison; exits 0 unless an input could not be read.
    #[arg(long)]
    pub update_baseline: bool,
    /// What fails the run, each level including the ones before it: `unbounded` (a method lost
    /// its bound, or a new one has none), `worse-class` (also a larger or incomparable class),
    /// `any-increase` (also a bound larger for some input).
    #[arg(long, default_value = "worse-class", value_parser = FailOn::NAMES)]
    pub fail_on: String,
}

/// Reads the baseline: `Ok(None)` when it does not exist and `--update-baseline` will create it.
fn read_baseline(args: &CiArgs) -> Result<Option<Baseline>, String> {
    match std::fs::read_to_string(&args.baseline) {
        Ok(text) => Baseline::from_json(&text).map(Some),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound && args.update_baseline => Ok(None),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Err("the baseline does not exist; create it with --update-baseline".into())
        }
        Err(error) => Err(format!("cannot read the baseline: {error}")),
    }
}

pub fn run(args: &CiArgs) -> u8 {
    let fail_on = FailOn::from_name(&args.fail_on).unwrap_or(FailOn::WorseClass);
    let baseline_name = args.baseline.display().to_string();
    // A baseline that cannot be used is found before the analysis runs.
    let old = match read_baseline(args) {
        Ok(old) => old,
        Err(message) => {
            eprint!("{}", report::baseline_error(&baseline_name, &message));
            return EXIT_INPUT_ERROR;
        }
    };
    if let Some(old) = old.as_ref().filter(|old| old.cost_model != args.report.cost_model) {
        if !args.update_baseline {
            let message = format!(
                "the baseline counts {}, this run {}; pass --cost-model {} or update the baseline",
                old.cost_model.name(),
                args.report.cost_model.name(),
                old.cost_model.name()
            );
            eprint!("{}", report::baseline_error(&baseline_name, &message));
            return EXIT_INPUT_ERROR;
        }
    }
    let run = match run_analysis(&args.input, &args.classpath, &args.report) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let selection = MethodSelection::parse(&args.input.methods);
    let covered = |m: &BaselineMethod| selection.matches(&m.class.replace('.', "/"), &m.name, &m.descriptor);
    let empty = Baseline {
        version: crate::baseline::BASELINE_VERSION,
        cost_model: run.report.cost_model,
        methods: Vec::new(),
    };
    let against = old
        .as_ref()
        .filter(|old| old.cost_model == run.report.cost_model)
        .unwrap_or(&empty);
    let comparison = compare_with_baseline(against, &run.report, fail_on, args.update_baseline, &covered);
    for bad in &comparison.unreadable {
        eprint!(
            "{}",
            report::unreadable_baseline_bound(&baseline_name, &bad.method, &bad.bound, bad.column, &bad.message)
        );
    }
    let locate = source_locator(&args.input.paths, args.report.source_root.as_deref());
    let summary = || report::summary::of_comparison(&comparison, &locate);
    let output = match args.report.format {
        ReportFormat::Text => report::ci::comparison_text(&comparison),
        ReportFormat::Json => report::json(&comparison),
        ReportFormat::Sarif => report::sarif::sarif(&summary()),
        ReportFormat::Markdown => report::markdown::markdown(&summary()),
        ReportFormat::Html => match write_site(&summary(), &args.report.site, args.report.quiet) {
            Ok(()) => String::new(),
            Err(code) => return code,
        },
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    run.print_summary_line();
    if args.update_baseline {
        let updated = Baseline::updated(old.as_ref(), &run.report, &covered);
        if let Err(error) = std::fs::write(&args.baseline, report::json(&updated)) {
            eprint!(
                "{}",
                report::baseline_error(&baseline_name, &format!("cannot write the baseline: {error}"))
            );
            return EXIT_INPUT_ERROR;
        }
        eprint!(
            "{}",
            report::note(&format!(
                "baseline {baseline_name} updated ({} methods)",
                updated.methods.len()
            ))
        );
    }
    if run.input_errors {
        EXIT_INPUT_ERROR
    } else if comparison.counts.failures > 0 && !args.update_baseline {
        EXIT_VIOLATION
    } else {
        EXIT_OK
    }
}
