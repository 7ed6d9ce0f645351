//! `jresa validate`: analyses the inputs (or, with `--bounds check`, checks their specifications),
//! then runs every method with a bound on bounded-exhaustive instances in the VM and checks each
//! measured cost against the bound; exits 1 on a violation.
use super::analyze::{run_analysis, write_site, ReportArgs};
use super::sources::source_locator;
use super::{ClassPathArgs, InputArgs, Inputs, ReportFormat, EXIT_INPUT_ERROR, EXIT_OK, EXIT_VIOLATION};
use crate::check::check;
use crate::classfile::{ClassFile, ClassPath};
use crate::report;
use crate::report::progress::Progress;
use crate::validate::{validate, validate_check, SequenceOptions, ValidateOptions, ValidationReport};
use clap::ValueEnum;
use jresa_analyses::cost_model::CostModel;
use jresa_gpu_validate::generate::Strategy;
use jresa_gpu_validate::kernel::Mapping;
use jresa_gpu_validate::sequence::{Matching, SequenceSettings};
use jresa_gpu_validate::BackendKind;
use std::io::Write;
use std::path::PathBuf;

/// Where instances run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The best available: a CUDA device where the driver, NVRTC and a device are present, else
    /// the CPU.
    Auto,
    /// The CPU backend (rayon over all cores).
    Cpu,
    /// The interpreter kernel on a CUDA device (NVRTC compiles it at run time).
    Cuda,
    /// The interpreter kernel compiled as C, on the CPU (what the tests compare with the CPU
    /// backend).
    HostKernel,
}

/// How the interpreter kernel maps instances to a GPU's threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MappingArg {
    /// One instance per thread, until a method's first launch finds its warps divergent
    /// (estimated efficiency below 25%); then one per warp.
    Auto,
    /// One instance per thread.
    Thread,
    /// One instance per warp of 32 threads (no divergence, one lane in 32 busy).
    Warp,
}

/// Exploration strategies of instance generation (they find the same instances).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Fork at every new choice, level by level (a worklist of choice prefixes).
    Worklist,
    /// Decode every instance from its number (re-execution by index).
    Index,
}

/// Which bounds are validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoundsArg {
    /// The closed-form bounds of `jresa analyze`.
    Analyze,
    /// The amortised bounds of `jresa check` (the potential of each verified or inferred
    /// method's `@Requires`), under the consume cost model.
    Check,
}

/// How sequence states are matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MatchingArg {
    /// Primitive values included.
    Complete,
    /// Objects and references only.
    Shape,
    /// No matching: every sequence up to --max-len is run (what the amortised check of
    /// `--bounds check` needs to cover every sequence).
    None,
}

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    /// The largest scope: ints from -2 up to it, arrays and strings up to this length, structures
    /// up to this many objects per class. Each method gets the largest scope up to it whose
    /// instances fit --max-instances.
    #[arg(long, default_value = "6", value_name = "N")]
    pub max_size: u32,
    /// Instances per method at most.
    #[arg(long, default_value = "20000", value_name = "COUNT")]
    pub max_instances: usize,
    /// Where instances run.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: Backend,
    /// How the kernel backends map instances to threads.
    #[arg(long, value_enum, default_value = "auto")]
    pub mapping: MappingArg,
    /// Which bounds are validated.
    #[arg(long, value_enum, default_value = "analyze")]
    pub bounds: BoundsArg,
    /// How instances are enumerated (both give the same instances and numbers).
    #[arg(long, value_enum, default_value = "worklist")]
    pub strategy: StrategyArg,
    /// Writes an SVG plot per method (measured cost and bound by size) into this directory.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// Runs only this instance (as numbered at --max-size, or a call number with --sequences).
    #[arg(long, value_name = "NUMBER")]
    pub instance: Option<u128>,
    /// Explores every sequence of calls of these methods on an object of their class instead of
    /// generating instances from signatures (comma-separated names).
    #[arg(long, value_delimiter = ',', value_name = "METHODS")]
    pub sequences: Vec<String>,
    /// With --sequences: the class (by default the one input class declaring every method named).
    #[arg(long, value_name = "CLASS", requires = "sequences")]
    pub class: Option<String>,
    /// With --sequences: the longest sequence.
    #[arg(long, default_value = "4", value_name = "M")]
    pub max_len: u32,
    /// With --sequences: arguments range over 0..N.
    #[arg(long, default_value = "3", value_name = "N")]
    pub values: u32,
    /// With --sequences: states already seen are dropped, compared completely or by shape.
    #[arg(long, value_enum, default_value = "complete")]
    pub matching: MatchingArg,
    /// With --sequences: calls executed at most.
    #[arg(long, default_value = "200000", value_name = "COUNT")]
    pub max_calls: usize,
}

/// A command-line word, quoted for a POSIX shell when it needs to be.
pub(super) fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The start of every replay command: the inputs and the options that change instances.
fn replay_prefix(args: &ValidateArgs) -> String {
    let mut words: Vec<String> = vec!["jresa".into(), "validate".into()];
    words.extend(args.input.paths.iter().map(|p| shell_word(&p.display().to_string())));
    if let Some(cp) = &args.classpath.classpath {
        words.push(format!("--classpath {}", shell_word(cp)));
    }
    if args.bounds == BoundsArg::Check {
        words.push("--bounds check".into());
    } else if args.report.cost_model != CostModel::Instructions {
        words.push(format!("--cost-model {}", args.report.cost_model.name()));
    }
    if args.max_instances != 20000 {
        words.push(format!("--max-instances {}", args.max_instances));
    }
    if !args.sequences.is_empty() {
        words.push(format!("--sequences {}", shell_word(&args.sequences.join(","))));
        if let Some(class) = &args.class {
            words.push(format!("--class {}", shell_word(class)));
        }
        words.push(format!(
            "--max-len {} --values {} --matching {} --max-calls {}",
            args.max_len,
            args.values,
            match args.matching {
                MatchingArg::Complete => "complete",
                MatchingArg::Shape => "shape",
                MatchingArg::None => "none",
            },
            args.max_calls
        ));
    }
    words.join(" ")
}

/// What is validated: the bounds of an analysis, or those of a check.
enum Subject {
    Analysis(super::analyze::AnalysisRun),
    Check {
        classes: Vec<ClassFile>,
        classpath: Option<ClassPath>,
        report: crate::check::CheckReport,
        input_errors: bool,
    },
}

impl Subject {
    fn methods(&self) -> usize {
        match self {
            Subject::Analysis(run) => run.report.methods.len(),
            Subject::Check { report, .. } => report.methods.len(),
        }
    }

    fn input_errors(&self) -> bool {
        match self {
            Subject::Analysis(run) => run.input_errors,
            Subject::Check { input_errors, .. } => *input_errors,
        }
    }

    fn validate(&mut self, options: &ValidateOptions<'_>) -> Result<ValidationReport, String> {
        match self {
            Subject::Analysis(run) => validate(&run.classes, run.classpath.take(), &run.report, options),
            Subject::Check {
                classes,
                classpath,
                report,
                ..
            } => validate_check(classes, classpath.take(), report, options),
        }
    }
}

/// Reads the inputs and checks the specifications of the selected methods (diagnostics of
/// malformed ones go to stderr).
fn checked(input: &InputArgs, classpath: &ClassPathArgs) -> Result<Subject, u8> {
    // The classes compiled from `.java` inputs are read into memory, so their files may go.
    let inputs = Inputs::load(input, Some(classpath))?;
    let input_errors = inputs.has_errors();
    let Inputs {
        loaded,
        classpath,
        selection,
        ..
    } = inputs;
    let report = check(&loaded.classes, classpath.as_ref(), &|class, method| {
        selection.selects(class, method)
    });
    eprint!("{}", report::check_diagnostics(&report));
    let no_match = !selection.is_all() && report.methods.is_empty();
    if no_match {
        eprintln!("error: no annotated method matches {}", selection.describe());
    }
    Ok(Subject::Check {
        input_errors: input_errors || no_match,
        classes: loaded.classes,
        classpath,
        report,
    })
}

/// The backend the arguments ask for, resolved on this machine; `None` (after a usage error) when
/// `--backend cuda` cannot be had.
fn backend_kind(args: &ValidateArgs) -> Option<BackendKind> {
    use jresa_gpu_validate::kernel::cuda;
    match args.backend {
        Backend::Cpu => Some(BackendKind::Cpu),
        Backend::HostKernel => Some(BackendKind::HostKernel),
        Backend::Cuda => match cuda::available() {
            Ok(_) => Some(BackendKind::Cuda),
            Err(why) => {
                eprint!(
                    "{}",
                    report::usage_error(&format!(
                        "the CUDA backend cannot run: {why}; use --backend cpu (or auto)"
                    ))
                );
                None
            }
        },
        Backend::Auto => {
            let (kind, why) = BackendKind::Auto.resolve();
            if !args.report.quiet {
                let note = match (kind, why) {
                    (BackendKind::Cuda, _) => format!(
                        "backend auto: instances run on {}",
                        cuda::available().unwrap_or_default()
                    ),
                    (_, Some(why)) => format!("backend auto: instances run on the CPU backend ({why})"),
                    _ => "backend auto: instances run on the CPU backend".to_owned(),
                };
                eprint!("{}", report::note(&note));
            }
            Some(kind)
        }
    }
}

pub fn run(args: &ValidateArgs) -> u8 {
    let Some(backend) = backend_kind(args) else {
        return EXIT_INPUT_ERROR;
    };
    // In sequence mode only the methods of the sequences are analysed.
    let mut input = args.input.clone();
    if !args.sequences.is_empty() {
        let class = args.class.clone().map(|c| format!("{c}.")).unwrap_or_default();
        input.methods = args.sequences.iter().map(|m| format!("{class}{m}")).collect();
    }
    let mut subject = match args.bounds {
        BoundsArg::Analyze => match run_analysis(&input, &args.classpath, &args.report) {
            Ok(run) => Subject::Analysis(run),
            Err(code) => return code,
        },
        BoundsArg::Check => match checked(&input, &args.classpath) {
            Ok(subject) => subject,
            Err(code) => return code,
        },
    };
    let model = match args.bounds {
        BoundsArg::Analyze => args.report.cost_model,
        BoundsArg::Check => CostModel::Consume,
    };
    let progress = Progress::start_doing("validating", subject.methods(), args.report.quiet);
    let advance = |methods: usize| progress.advance(methods);
    let options = ValidateOptions {
        model,
        max_size: args.max_size,
        max_instances: args.max_instances.max(1),
        strategy: match args.strategy {
            StrategyArg::Worklist => Strategy::Worklist,
            StrategyArg::Index => Strategy::ByIndex,
        },
        instance: args.instance,
        sequences: (!args.sequences.is_empty()).then(|| SequenceOptions {
            class: args.class.clone(),
            methods: args.sequences.clone(),
            settings: SequenceSettings {
                max_length: args.max_len,
                values: args.values.max(1),
                matching: match args.matching {
                    MatchingArg::Complete => Matching::Complete,
                    MatchingArg::Shape => Matching::Shape,
                    MatchingArg::None => Matching::None,
                },
                max_calls: args.max_calls,
            },
        }),
        replay_prefix: replay_prefix(args),
        backend,
        mapping: match args.mapping {
            MappingArg::Auto => Mapping::Auto,
            MappingArg::Thread => Mapping::Thread,
            MappingArg::Warp => Mapping::Warp,
        },
        progress: Some(&advance),
    };
    let result = subject.validate(&options);
    progress.finish();
    let validation = match result {
        Ok(validation) => validation,
        Err(message) => {
            eprint!("{}", report::usage_error(&message));
            return EXIT_INPUT_ERROR;
        }
    };
    let locate = source_locator(&args.input.paths, args.report.source_root.as_deref());
    let summary = || {
        let summary = report::summary::of_validation(&validation, &locate);
        match &subject {
            Subject::Analysis(run) => report::summary::with_loops(summary, &run.report),
            Subject::Check { .. } => summary,
        }
    };
    let output = match args.report.format {
        ReportFormat::Text => report::validate::validation_text(&validation),
        ReportFormat::Json => report::json(&validation),
        ReportFormat::Sarif => report::sarif::sarif(&summary()),
        ReportFormat::Markdown => report::markdown::markdown(&summary()),
        ReportFormat::Html => match write_site(&summary(), &args.report.site, args.report.quiet) {
            Ok(()) => String::new(),
            Err(code) => return code,
        },
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if let Some(dir) = &args.plot {
        match report::plot::write_plots(&validation, dir) {
            Ok(files) => {
                if !args.report.quiet {
                    eprint!(
                        "{}",
                        report::note(&format!("{} plots written to {}", files.len(), dir.display()))
                    );
                }
            }
            Err(message) => {
                eprint!("{}", report::usage_error(&message));
                return EXIT_INPUT_ERROR;
            }
        }
    }
    if let Subject::Analysis(run) = &subject {
        run.print_summary_line();
    }
    if !args.report.quiet {
        let (instances, time) = crate::validate::execution_totals();
        if instances > 0 {
            let seconds = time.as_secs_f64();
            eprint!(
                "{}",
                report::note(&format!(
                    "{instances} instances ran on {} in {seconds:.2} s ({:.0} instances/s)",
                    validation.backend,
                    instances as f64 / seconds.max(1e-9)
                ))
            );
        }
        if let Some(statistics) = &validation.backend_statistics {
            eprint!("{}", report::note(statistics));
        }
    }
    if subject.input_errors() {
        EXIT_INPUT_ERROR
    } else if validation.violations() > 0 {
        EXIT_VIOLATION
    } else {
        EXIT_OK
    }
}
