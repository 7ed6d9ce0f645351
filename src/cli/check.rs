//! `jresa check`: verifies the `@Requires`/`@Ensures`/`@Invariant` specifications of annotated
//! methods, or infers the values of their resource variables.
use super::{ClassPathArgs, Format, InputArgs, Inputs, EXIT_INPUT_ERROR};
use crate::check::check;
use crate::report;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &CheckArgs) -> u8 {
    let inputs = match Inputs::load(&args.input, Some(&args.classpath)) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let selection = &inputs.selection;
    let result = check(&inputs.loaded.classes, inputs.classpath.as_ref(), &|class, method| {
        selection.selects(class, method)
    });
    eprint!("{}", report::check_diagnostics(&result));
    let no_match = !selection.is_all() && result.methods.is_empty();
    if no_match {
        eprintln!("error: no annotated method matches {}", selection.describe());
    }
    let output = match args.format {
        Format::Text => report::check_text(&result),
        Format::Json => report::json(&result),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if inputs.has_errors() || no_match {
        EXIT_INPUT_ERROR
    } else {
        result.exit_code()
    }
}
