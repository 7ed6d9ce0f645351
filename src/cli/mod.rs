//! The `jresa` command line: argument parsing and one thin function per subcommand.
mod analyze;
mod ci;
mod ir;
mod profile;
mod schedule;
mod sources;
mod validate;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code when the analysis ran and found nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit code when a specification is violated or a regression is found.
pub const EXIT_VIOLATION: u8 = 1;
/// Exit code when some input could not be read (the rest is still processed).
pub const EXIT_INPUT_ERROR: u8 = 2;
/// Exit code when jresa found a bug in itself (for example lifted IR that fails verification).
pub const EXIT_INTERNAL_ERROR: u8 = 3;

#[derive(Parser)]
#[command(name = "jresa", version, about = "Static resource analysis for JVM bytecode")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Output formats of the subcommands that judge methods (`analyze`, `ci`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
    /// A summary table for pull-request comments.
    Markdown,
}

#[derive(Subcommand)]
enum Command {
    /// Bound the cost of methods: closed-form upper bounds, complexity classes, termination.
    Analyze(analyze::AnalyzeArgs),
    /// Compare every method's bound with a committed baseline; exit 1 on regressions.
    Ci(ci::CiArgs),
    /// Print the rule-based IR of methods (or, with --stats, how lifting went).
    Ir(ir::IrArgs),
    /// Run a Java program under a JP2-style profiling agent and print its calling-context tree.
    Profile(profile::ProfileArgs),
    /// Lower every rule to stack code with the treegraph scheduler (or, with --stats, report how
    /// scheduling went).
    Schedule(schedule::ScheduleArgs),
    /// Run every method with a bound on bounded-exhaustive instances in the VM and check each
    /// measured cost against the bound; exit 1 on a violation.
    Validate(validate::ValidateArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Ci(args) => ci::run(&args),
        Command::Ir(args) => ir::run(&args),
        Command::Profile(args) => profile::run(&args),
        Command::Schedule(args) => schedule::run(&args),
        Command::Validate(args) => validate::run(&args),
    };
    ExitCode::from(code)
}

/// Arguments every subcommand that reads classes shares.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// Class files, directories, jars, jmods, or Java sources (compiled with `javac -g` first).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Only these methods: `Class.name` or `Class.name(descriptor)`; the class may be given by its
    /// simple name or its binary name (with dots or slashes). Repeatable.
    #[arg(long = "method", short = 'm')]
    pub methods: Vec<String>,
    /// Where to resolve library classes (`:`-separated); defaults to the running JDK's java.base.
    #[arg(long)]
    pub classpath: Option<String>,
}

/// A `--method` selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSelector {
    /// The class as given, with slashes (`java/lang/String` or a simple name `String`); empty for any.
    pub class: String,
    pub name: String,
    pub descriptor: Option<String>,
}

impl MethodSelector {
    /// Parses `Class.name`, `Class.name(desc)`, `pkg.Class.name` or just `name`.
    pub fn parse(text: &str) -> MethodSelector {
        let (head, descriptor) = match text.find('(') {
            Some(k) => (&text[..k], Some(text[k..].to_owned())),
            None => (text, None),
        };
        let (class, name) = match head.rfind('.') {
            Some(k) => (head[..k].replace('.', "/"), head[k + 1..].to_owned()),
            None => (String::new(), head.to_owned()),
        };
        MethodSelector {
            class,
            name,
            descriptor,
        }
    }

    /// Whether the method `name` + `descriptor` of class `class` (internal name) is selected.
    pub fn matches(&self, class: &str, name: &str, descriptor: &str) -> bool {
        let class_ok = self.class.is_empty()
            || class == self.class
            || class.rsplit('/').next() == Some(self.class.as_str())
            || class.ends_with(&format!("/{}", self.class));
        class_ok && name == self.name && self.descriptor.as_deref().is_none_or(|d| d == descriptor)
    }
}
