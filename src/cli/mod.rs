//! The `jresa` command line: argument parsing and one thin function per subcommand.
mod analyze;
mod check;
mod ci;
mod inputs;
mod ir;
mod profile;
mod render;
mod run;
mod schedule;
mod sources;
mod specs;
mod validate;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

pub use inputs::{ClassPathArgs, InputArgs, Inputs, MethodSelection, MethodSelector};

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
    /// A browsable static site written to --out DIR (open DIR/index.html).
    Html,
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
    /// Render a saved JSON report of `analyze`, `validate` or `ci` in another format (for
    /// example as an HTML site, to publish from CI).
    Report(render::RenderArgs),
    /// Run a Java program under a JP2-style profiling agent and print its calling-context tree.
    Profile(profile::ProfileArgs),
    /// Run one method on given arguments in the validation VM and say how it ended (the replay
    /// command of a non-termination witness).
    Run(run::RunArgs),
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
        Command::Report(args) => render::run(&args),
        Command::Profile(args) => profile::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Schedule(args) => schedule::run(&args),
        Command::Specs(args) => specs::run(&args),
        Command::Validate(args) => validate::run(&args),
    };
    ExitCode::from(code)
}
