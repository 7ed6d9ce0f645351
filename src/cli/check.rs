//! `jresa check`: verifies the `@Requires`/`@Ensures`/`@Invariant` specifications of annotated
//! methods, or infers the values of their resource variables.
use super::{Format, InputArgs, MethodSelector, EXIT_INPUT_ERROR};
use crate::check::check;
use crate::classfile::{read_inputs, ClassPath};
use crate::report;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &CheckArgs) -> u8 {
    let (paths, _compiled, compile_errors) = super::sources::compile_java_inputs(&args.input.paths);
    let mut loaded = read_inputs(&paths);
    loaded.errors.splice(0..0, compile_errors);
    for error in &loaded.errors {
        eprint!("{}", report::input_error(error));
    }
    let classpath = match &args.input.classpath {
        Some(text) => {
            let roots: Vec<PathBuf> = std::env::split_paths(text).collect();
            match ClassPath::from_paths(&roots) {
                Ok(cp) => Some(cp),
                Err(error) => {
                    eprint!("{}", report::input_error(&error));
                    return EXIT_INPUT_ERROR;
                }
            }
        }
        None => ClassPath::default_jdk().ok(),
    };
    let selectors: Vec<MethodSelector> = args.input.methods.iter().map(|m| MethodSelector::parse(m)).collect();
    let result = check(&loaded.classes, classpath.as_ref(), &|class, method| {
        selectors.is_empty()
            || selectors
                .iter()
                .any(|s| s.matches(&class.name, &method.name, &method.descriptor))
    });
    eprint!("{}", report::check_diagnostics(&result));
    let no_match = !selectors.is_empty() && result.methods.is_empty();
    if no_match {
        eprintln!("error: no annotated method matches {}", args.input.methods.join(", "));
    }
    let output = match args.format {
        Format::Text => report::check_text(&result),
        Format::Json => report::json(&result),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if !loaded.errors.is_empty() || no_match {
        EXIT_INPUT_ERROR
    } else {
        result.exit_code()
    }
}
