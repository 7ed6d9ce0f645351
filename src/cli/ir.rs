//! `jresa ir`: lift methods and print their IR, or statistics about lifting.
use super::{Format, InputArgs, Inputs, EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK};
use crate::lift::lift_all;
use crate::report::{self, LiftStats};
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::ir::{verify_method, Program};
use jresa_analyses::value::compile::{compile, ExactResolver};
use jresa_analyses::value::print::print_abstract_program;
use std::collections::HashMap;
use std::io::Write;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct IrArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print statistics (classes, methods lifted and refused with reasons, time) instead of the IR.
    #[arg(long)]
    pub stats: bool,
    /// Print the abstract program (the output of abstract compilation, the value analysis's
    /// input) instead of the IR; calls resolve to the selected methods only.
    #[arg(long, conflicts_with = "stats")]
    pub r#abstract: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// Replaces digit runs by `N` so that refusal reasons group across methods.
fn reason_group(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_digits = false;
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// The abstract program of the lifted methods, under the instructions model.
fn abstract_text(program: &Program) -> String {
    let methods = &program.methods;
    let compiled = compile(methods, &ExactResolver(methods), CostModel::Instructions);
    print_abstract_program(&compiled)
}

pub fn run(args: &IrArgs) -> u8 {
    let start = Instant::now();
    // Lifting needs no library classes, so no class path is read.
    let inputs = match Inputs::load(&args.input, None) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let (loaded, selection) = (&inputs.loaded, &inputs.selection);
    let lifted = lift_all(&loaded.classes, |class, method| selection.selects(class, method));
    let mut stderr = std::io::stderr().lock();
    let check = args.stats || cfg!(debug_assertions);
    let mut stats = LiftStats {
        classes: loaded.classes.len(),
        input_errors: loaded.errors.len(),
        ..LiftStats::default()
    };
    let mut reasons: HashMap<String, usize> = HashMap::new();
    let mut program = Program::default();
    for item in lifted {
        stats.methods += 1;
        let display = format!(
            "{}.{}{}",
            item.class.name.replace('/', "."),
            item.method.name,
            item.method.descriptor
        );
        match item.result {
            Ok(ir) => {
                stats.lifted += 1;
                if check {
                    let errors = verify_method(&ir);
                    if !errors.is_empty() {
                        stats.verifier_errors += 1;
                        for error in errors.iter().take(3) {
                            let _ = stderr.write_all(report::verifier_error(&display, &error.to_string()).as_bytes());
                        }
                    }
                }
                if !args.stats {
                    program.methods.push(ir);
                }
            }
            Err(error) => {
                stats.refused += 1;
                *reasons.entry(reason_group(&error.message)).or_default() += 1;
                if !args.stats {
                    let text = report::refused_method(&item.class.origin, &display, error.pc, &error.message);
                    let _ = stderr.write_all(text.as_bytes());
                }
            }
        }
    }
    if !selection.is_all() && stats.methods == 0 {
        let _ = writeln!(stderr, "error: no method matches {}", selection.describe());
    }
    stats.seconds = start.elapsed().as_secs_f64();
    let mut refusals: Vec<(String, usize)> = reasons.into_iter().collect();
    refusals.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    stats.refusals = refusals;
    let output = match (args.stats, args.format) {
        (true, Format::Text) => report::lift_stats_text(&stats),
        (true, Format::Json) => report::json(&stats),
        (false, Format::Text) if args.r#abstract => abstract_text(&program),
        (false, Format::Text) => report::ir_text(&program),
        (false, Format::Json) if args.r#abstract => {
            let _ = writeln!(stderr, "error: --abstract prints text only");
            return EXIT_INPUT_ERROR;
        }
        (false, Format::Json) => report::json(&program),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if stats.verifier_errors > 0 {
        EXIT_INTERNAL_ERROR
    } else if inputs.has_errors() || (!selection.is_all() && stats.methods == 0) {
        EXIT_INPUT_ERROR
    } else {
        EXIT_OK
    }
}
