//! `jresa profile`: run a Java program under the JP2-style profiling agent and print its
//! calling-context tree.
use super::{Format, EXIT_INPUT_ERROR};
use crate::profile::{run_profiled, Cct, ProfileRequest};
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
    let written = write_profile(&cct, args);
    // The process ends now: freeing a tree of hundreds of thousands of nodes one by one would only
    // delay that.
    std::mem::forget(cct);
    if let Err(error) = written {
        let _ = stderr.write_all(report::profile_error(&error).as_bytes());
        return EXIT_INPUT_ERROR;
    }
    outcome.exit_code
}

/// Writes the tree in the requested format to `--out` or standard output, as it is rendered. Only
/// a failure to write the file is an error (a closed standard output, as under `| head`, is not).
fn write_profile(cct: &Cct, args: &ProfileArgs) -> Result<(), String> {
    let mut sink: Box<dyn Write> = match &args.out {
        Some(path) => {
            Box::new(std::fs::File::create(path).map_err(|error| format!("cannot write {}: {error}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut sink);
    let written = match args.format {
        Format::Text => report::write_profile_text(cct, &mut out),
        Format::Json => out.write_all(report::json(cct).as_bytes()),
    };
    match (written.and_then(|()| out.flush()), &args.out) {
        (Err(error), Some(path)) => Err(format!("cannot write {}: {error}", path.display())),
        _ => Ok(()),
    }
}
