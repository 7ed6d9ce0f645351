//! `jresa analyze`: closed-form cost bounds and termination verdicts per method.
use super::{Format, InputArgs, MethodSelector, EXIT_INPUT_ERROR, EXIT_OK};
use crate::analyze::analyze;
use crate::classfile::{read_inputs, ClassPath};
use crate::report;
use jresa_analyses::bounds::CostModel;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// What the bound counts: instructions (JVM bytecodes executed), invocations, allocations
    /// (objects and array elements), or consume (units passed to `Resource.consume`).
    #[arg(long, default_value = "instructions", value_parser = ["instructions", "invocations", "allocations", "consume"])]
    pub cost_model: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &AnalyzeArgs) -> u8 {
    let model = CostModel::from_name(&args.cost_model).unwrap_or(CostModel::Instructions);
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
    let result = analyze(&loaded.classes, classpath.as_ref(), model, &|class, method| {
        selectors.is_empty()
            || selectors
                .iter()
                .any(|s| s.matches(&class.name, &method.name, &method.descriptor))
    });
    let no_match = !selectors.is_empty() && result.methods.is_empty();
    if no_match {
        eprintln!("error: no method matches {}", args.input.methods.join(", "));
    }
    let output = match args.format {
        Format::Text => report::analysis_text(&result),
        Format::Json => report::json(&result),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if !loaded.errors.is_empty() || no_match {
        EXIT_INPUT_ERROR
    } else {
        EXIT_OK
    }
}
