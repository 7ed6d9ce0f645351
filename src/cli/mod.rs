//! The `jresa` command line: argument parsing and one thin function per subcommand.
mod analyze;
mod check;
mod ci;
mod ir;
mod profile;
mod schedule;
mod sources;
mod specs;
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
    /// Verify the separation-logic resource specifications (@Requires, @Ensures, @Invariant) of
    /// annotated methods, or infer their resource variables by linear programming.
    Check(check::CheckArgs),
    /// Compare every method's bound with a committed baseline; exit 1 on regressions.
    Ci(ci::CiArgs),
    /// Print the rule-based IR of methods (or, with --stats, how lifting went).
    Ir(ir::IrArgs),
    /// Run a Java program under a JP2-style profiling agent and print its calling-context tree.
    Profile(profile::ProfileArgs),
    /// Lower every rule to stack code with the treegraph scheduler (or, with --stats, report how
    /// scheduling went).
    Schedule(schedule::ScheduleArgs),
    /// Write the Java annotations and markers (package jresa.spec) to compile programs against.
    Specs(specs::SpecsArgs),
    /// Run every method with a bound on bounded-exhaustive instances in the VM and check each
    /// measured cost against the bound; exit 1 on a violation.
    Validate(validate::ValidateArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Ci(args) => ci::run(&args),
        Command::Ir(args) => ir::run(&args),
        Command::Profile(args) => profile::run(&args),
        Command::Schedule(args) => schedule::run(&args),
        Command::Specs(args) => specs::run(&args),
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

/// The inputs of a subcommand that analyses a program: its classes (Java sources compiled first),
/// the input errors (already reported on stderr), and the class path to resolve library classes.
pub struct Inputs {
    pub loaded: crate::classfile::Loaded,
    pub classpath: Option<crate::classfile::ClassPath>,
    /// Keeps the classes compiled from `.java` inputs alive.
    _compiled: Option<sources::TempClasses>,
}

impl Inputs {
    /// Reads the inputs and the class path (`--classpath`, or the running JDK's `java.base`);
    /// `Err` with the exit code when the class path cannot be read.
    pub fn load(input: &InputArgs) -> Result<Inputs, u8> {
        let (paths, compiled, compile_errors) = sources::compile_java_inputs(&input.paths);
        let mut loaded = crate::classfile::read_inputs(&paths);
        loaded.errors.splice(0..0, compile_errors);
        for error in &loaded.errors {
            eprint!("{}", crate::report::input_error(error));
        }
        let classpath = match &input.classpath {
            Some(text) => {
                let roots: Vec<PathBuf> = std::env::split_paths(text).collect();
                match crate::classfile::ClassPath::from_paths(&roots) {
                    Ok(cp) => Some(cp),
                    Err(error) => {
                        eprint!("{}", crate::report::input_error(&error));
                        return Err(EXIT_INPUT_ERROR);
                    }
                }
            }
            None => crate::classfile::ClassPath::default_jdk().ok(),
        };
        Ok(Inputs {
            loaded,
            classpath,
            _compiled: compiled,
        })
    }

    /// Whether `method` of `class` is selected by the `--method` selectors (all when none).
    pub fn selector(input: &InputArgs) -> impl Fn(&str, &str, &str) -> bool {
        let selectors: Vec<MethodSelector> = input.methods.iter().map(|m| MethodSelector::parse(m)).collect();
        move |class: &str, name: &str, descriptor: &str| {
            selectors.is_empty() || selectors.iter().any(|s| s.matches(class, name, descriptor))
        }
    }
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
