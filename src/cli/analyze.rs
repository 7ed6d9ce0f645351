//! `jresa analyze`: closed-form cost bounds and termination verdicts per method.
use super::{Format, InputArgs, Inputs, EXIT_INPUT_ERROR, EXIT_OK};
use crate::analyze::analyze;
use crate::report;
use jresa_analyses::bounds::CostModel;
use std::io::Write;

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
    let inputs = match Inputs::load(&args.input) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let selected = Inputs::selector(&args.input);
    let result = analyze(
        &inputs.loaded.classes,
        inputs.classpath.as_ref(),
        model,
        &|class, method| selected(&class.name, &method.name, &method.descriptor),
    );
    let no_match = !args.input.methods.is_empty() && result.methods.is_empty();
    if no_match {
        eprintln!("error: no method matches {}", args.input.methods.join(", "));
    }
    let output = match args.format {
        Format::Text => report::analysis_text(&result),
        Format::Json => report::json(&result),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if !inputs.loaded.errors.is_empty() || no_match {
        EXIT_INPUT_ERROR
    } else {
        EXIT_OK
    }
}
