//! `jresa analyze`: closed-form cost bounds and termination verdicts per method; also the analysis
//! run that `jresa ci` shares (inputs, class path, progress, summary line).
use super::sources::source_locator;
use super::validate::shell_word;
use super::{ClassPathArgs, InputArgs, Inputs, ReportFormat, EXIT_INPUT_ERROR, EXIT_OK};
use crate::analyze::{analyze_with, AnalysisReport, AnalyzeOptions};
use crate::classfile::ClassPath;
use crate::report;
use crate::report::progress::Progress;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use jresa_analyses::cost_model::CostModel;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of the subcommands that analyse and report methods.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// What the bound counts: instructions (JVM bytecodes executed), invocations, allocations
    /// (objects and array elements), or consume (units passed to `Resource.consume`).
    #[arg(long, default_value = "instructions", value_parser = cost_model_parser())]
    pub cost_model: CostModel,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    #[command(flatten)]
    pub site: SiteArgs,
    /// Wall-clock seconds each method may take; the methods of a class share their budgets, and
    /// when they run out the class's methods are reported `unknown`.
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    pub method_budget: Duration,
    /// No progress bar (there is none anyway when stderr is not a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Where the sources of class, jar or jmod inputs lie, relative to the repository root, for
    /// SARIF locations (`.java` inputs are located by their own paths).
    #[arg(long, value_name = "DIR")]
    pub source_root: Option<PathBuf>,
    /// Where summaries of library methods are kept between runs [default: `jresa` in the user's
    /// cache directory].
    #[arg(long, value_name = "DIR", env = crate::cache::CACHE_DIR_VARIABLE)]
    pub cache_dir: Option<PathBuf>,
    /// Read and keep nothing between runs.
    #[arg(long)]
    pub no_cache: bool,
}

impl ReportArgs {
    /// The cache directory of the run, if it uses one.
    fn cache_dir(&self) -> Option<PathBuf> {
        match self.no_cache {
            true => None,
            false => self.cache_dir.clone().or_else(crate::cache::default_dir),
        }
    }
}

/// Where and how `--format html` writes its site.
#[derive(clap::Args, Debug)]
pub struct SiteArgs {
    /// The directory the HTML report is written to (with --format html).
    #[arg(long, value_name = "DIR", required_if_eq("format", "html"))]
    pub out: Option<PathBuf>,
    /// The HTML report ranks methods by their bound with every parameter at this size.
    #[arg(long, value_name = "N", default_value_t = report::html::DEFAULT_RANK_SIZE)]
    pub rank_size: u32,
}

/// Parses `--cost-model` once, by the models' names: another name is a usage error (exit code 2)
/// that lists them.
fn cost_model_parser() -> impl TypedValueParser<Value = CostModel> {
    PossibleValuesParser::new(CostModel::ALL.map(CostModel::name))
        .try_map(|name| CostModel::from_name(&name).ok_or_else(|| format!("unknown cost model `{name}`")))
}

/// A non-negative number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{text}` is not a non-negative number of seconds"))
}

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The result of an analysis run.
pub struct AnalysisRun {
    pub report: AnalysisReport,
    /// The classes read from the inputs.
    pub classes: Vec<crate::classfile::ClassFile>,
    /// The class path library classes were resolved on.
    pub classpath: Option<ClassPath>,
    /// Some input could not be read, or `--method` matched nothing (both already reported).
    pub input_errors: bool,
    /// The summary line of a whole run (no `--method`), for stderr after the report.
    pub summary_line: Option<String>,
}

impl AnalysisRun {
    /// Prints the summary line, if any, to stderr.
    pub fn print_summary_line(&self) {
        if let Some(line) = &self.summary_line {
            // The report reaches stdout first where both streams share one terminal or pipe.
            let _ = std::io::stdout().flush();
            eprint!("{line}");
        }
    }
}

/// Reads the inputs (compiling `.java` ones), analyses the selected methods with a progress bar,
/// and prints input errors to stderr.
/// `Err` carries the exit code when nothing could be analysed.
pub fn run_analysis(input: &InputArgs, classpath: &ClassPathArgs, options: &ReportArgs) -> Result<AnalysisRun, u8> {
    let started = Instant::now();
    let classpath_args = classpath;
    let model = options.cost_model;
    // The classes compiled from `.java` inputs are read into memory, so their files may go.
    let inputs = Inputs::load(input, Some(classpath))?;
    let input_errors = inputs.has_errors();
    let Inputs {
        loaded,
        classpath,
        selection,
        ..
    } = inputs;
    let select =
        |class: &crate::classfile::ClassFile, method: &crate::classfile::Method| selection.selects(class, method);
    let total = loaded
        .classes
        .iter()
        .flat_map(|c| c.methods.iter().filter(|m| m.code.is_some()).map(move |m| (c, m)))
        .filter(|(c, m)| select(c, m))
        .count();
    let progress = Progress::start(total, options.quiet);
    let advance = |methods: usize| progress.advance(methods);
    let cache_dir = options.cache_dir();
    let analysis_options = AnalyzeOptions {
        method_budget: Some(options.method_budget),
        progress: Some(&advance),
        cache_dir: cache_dir.as_deref(),
    };
    let mut result = analyze_with(&loaded.classes, classpath.as_ref(), model, &select, &analysis_options);
    progress.finish();
    add_replay_commands(&mut result, input, classpath_args);
    let no_match = !selection.is_all() && result.methods.is_empty();
    if no_match {
        eprintln!("error: no method matches {}", selection.describe());
    }
    let summary_line = selection
        .is_all()
        .then(|| report::progress::run_summary_line(&result, started.elapsed()));
    Ok(AnalysisRun {
        report: result,
        classes: loaded.classes,
        classpath,
        input_errors: input_errors || no_match,
        summary_line,
    })
}

/// Writes the HTML site of `summary` into `--out` (source files read relative to the current
/// directory, where the summary locates them) and says where it is on stderr.
/// `Err` carries the exit code when it could not be written.
pub fn write_site(summary: &report::summary::Summary, site: &SiteArgs, quiet: bool) -> Result<(), u8> {
    let Some(out) = &site.out else {
        eprint!("{}", report::usage_error("--format html needs --out DIR"));
        return Err(EXIT_INPUT_ERROR);
    };
    let read_source = |path: &str| std::fs::read_to_string(path).ok();
    let options = report::html::SiteOptions {
        out,
        rank_size: site.rank_size,
        read_source: &read_source,
    };
    match report::html::write_site(summary, &options) {
        Ok(index) => {
            if !quiet {
                eprint!(
                    "{}",
                    report::note(&format!("report written to {} (open it in a browser)", index.display()))
                );
            }
            Ok(())
        }
        Err(message) => {
            eprint!("{}", report::usage_error(&message));
            Err(EXIT_INPUT_ERROR)
        }
    }
}

pub fn run(args: &AnalyzeArgs) -> u8 {
    let run = match run_analysis(&args.input, &args.classpath, &args.report) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let locate = source_locator(&args.input.paths, args.report.source_root.as_deref());
    let summary = || report::summary::of_analysis(&run.report, &locate);
    let output = match args.report.format {
        ReportFormat::Text => report::analysis_text(&run.report),
        ReportFormat::Json => report::json(&run.report),
        ReportFormat::Sarif => report::sarif::sarif(&summary()),
        ReportFormat::Markdown => report::markdown::markdown(&summary()),
        ReportFormat::Html => match write_site(&summary(), &args.report.site, args.report.quiet) {
            Ok(()) => String::new(),
            Err(code) => return code,
        },
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    run.print_summary_line();
    if run.input_errors {
        EXIT_INPUT_ERROR
    } else {
        EXIT_OK
    }
}

/// The `jresa run` command of every witness, on the same inputs and class path.
fn add_replay_commands(report: &mut AnalysisReport, input: &InputArgs, classpath: &ClassPathArgs) {
    let mut prefix: Vec<String> = vec!["jresa".into(), "run".into()];
    prefix.extend(input.paths.iter().map(|p| shell_word(&p.display().to_string())));
    if let Some(cp) = &classpath.classpath {
        prefix.push(format!("--classpath {}", shell_word(cp)));
    }
    let prefix = prefix.join(" ");
    for m in &mut report.methods {
        if let Some(w) = &mut m.witness {
            let method = format!("{}.{}{}", m.class, m.name, m.descriptor);
            w.replay = format!(
                "{prefix} --method {} --args {}",
                shell_word(&method),
                shell_word(&w.args)
            );
        }
    }
}
