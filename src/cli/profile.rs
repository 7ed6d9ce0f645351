//! `jresa profile`: run a Java program under the JP2-style profiling agent and print its
//! calling-context tree.
use super::{Format, EXIT_INPUT_ERROR};
use crate::profile::{run_profiled, ProfileRequest};
use crate::report;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ProfileArgs {
    /// Profile only the dynamic extent of these methods (everything they call included):
    /// `Class.method`, `pkg.Class.method` or `Class.method(descriptor)`. Repeatable.
    #[arg(long = "only", value_name = "CLASS.METHOD")]
    pub only: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write the profile to this file instead of standard output (after the program's own output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The `java` command line without `java`: options, then a main class or `-jar app.jar`, then
    /// the program's arguments. jresa adds flags that keep the JIT from skipping instrumented code,
    /// so the counts do not depend on it; for short runs, `-XX:TieredStopAtLevel=1` roughly halves
    /// the time, as C2 spends long compiling the instrumented code.
    #[arg(last = true, required = true, value_name = "JAVA_ARGS")]
    pub java_args: Vec<OsString>,
}

/// Runs the program and returns its exit code, or `EXIT_INPUT_ERROR` when profiling failed.
pub fn run(args: &ProfileArgs) -> u8 {
    let request = ProfileRequest {
        only: args.only.clone(),
        java_args: args.java_args.clone(),
    };
    let mut stderr = std::io::stderr().lock();
    let outcome = match run_profiled(&request) {
        Ok(outcome) => outcome,
        Err(error) => {
            let _ = stderr.write_all(report::profile_error(&error.to_string()).as_bytes());
            return EXIT_INPUT_ERROR;
        }
    };
    for warning in &outcome.warnings {
        let _ = stderr.write_all(report::profile_warning(warning).as_bytes());
    }
    let cct = match outcome.profile {
        Ok(cct) => cct,
        Err(error) => {
            let _ = stderr.write_all(report::profile_error(&error.to_string()).as_bytes());
            return if outcome.exit_code == 0 {
                EXIT_INPUT_ERROR
            } else {
                outcome.exit_code
            };
        }
    };
    if !args.only.is_empty() && cct.selected_methods == 0 {
        let message = format!("no method the program loaded matches --only {}", args.only.join(", "));
        let _ = stderr.write_all(report::profile_warning(&message).as_bytes());
    }
    let text = match args.format {
        Format::Text => report::profile_text(&cct),
        Format::Json => report::json(&cct),
    };
    match &args.out {
        Some(path) => {
            if let Err(error) = std::fs::write(path, text) {
                let message = format!("cannot write {}: {error}", path.display());
                let _ = stderr.write_all(report::profile_error(&message).as_bytes());
                return EXIT_INPUT_ERROR;
            }
        }
        None => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
    }
    outcome.exit_code
}
