//! `jresa schedule`: lift methods, lower every rule to stack code with the treegraph scheduler, and
//! print the code or, with `--stats`, how scheduling went.
use super::{Format, InputArgs, Inputs, EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK};
use crate::lift::lift_all;
use crate::report::{self, schedule as schedule_report};
use jresa_analyses::treegraph::{schedule_method, ScheduleLimits, ScheduleStats};
use rayon::prelude::*;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct ScheduleArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print statistics (blocks scheduled optimally, stack manipulations, code size against the
    /// store/load baseline) instead of the code.
    #[arg(long)]
    pub stats: bool,
    /// Also print each rule's store/load baseline.
    #[arg(long)]
    pub baseline: bool,
    /// Time budget of the search for one block, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub time_budget: Option<u64>,
    /// Step budget of the search for one block (prefixes extended).
    #[arg(long, value_name = "STEPS")]
    pub step_budget: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &ScheduleArgs) -> u8 {
    let start = Instant::now();
    // Lifting needs no library classes, so no class path is read.
    let inputs = match Inputs::load(&args.input, None) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let (loaded, selection) = (&inputs.loaded, &inputs.selection);
    let lifted = lift_all(&loaded.classes, |class, method| selection.selects(class, method));
    let mut stderr = std::io::stderr().lock();
    let mut limits = ScheduleLimits::default();
    if let Some(ms) = args.time_budget {
        limits.time_budget = Duration::from_millis(ms);
    }
    if let Some(steps) = args.step_budget {
        limits.step_budget = steps;
    }
    let mut run = schedule_report::ScheduleRun {
        classes: loaded.classes.len(),
        input_errors: loaded.errors.len(),
        ..Default::default()
    };
    let mut methods = Vec::new();
    for item in lifted {
        match item.result {
            Ok(ir) => methods.push(ir),
            Err(error) => {
                run.refused += 1;
                if !args.stats {
                    let display = format!(
                        "{}.{}{}",
                        item.class.name.replace('/', "."),
                        item.method.name,
                        item.method.descriptor
                    );
                    let text = report::refused_method(&item.class.origin, &display, error.pc, &error.message);
                    let _ = stderr.write_all(text.as_bytes());
                }
            }
        }
    }
    run.lifted = methods.len();
    // Nothing may hold the stderr lock while scheduling runs on other threads.
    drop(stderr);
    let scheduled: Vec<_> = methods
        .par_iter()
        .map(|method| schedule_method(method, &limits))
        .collect();
    let mut stderr = std::io::stderr().lock();
    let mut stats = ScheduleStats::default();
    for (method, schedule) in methods.iter().zip(&scheduled) {
        stats.add_method(schedule);
        for failure in &schedule.failures {
            let message = format!(
                "rule {} of {} not scheduled: {}",
                failure.rule,
                method.proc(failure.proc).name,
                failure.error
            );
            let _ = stderr.write_all(report::verifier_error(&method.display_name(), &message).as_bytes());
        }
    }
    if !selection.is_all() && run.lifted + run.refused == 0 {
        let _ = writeln!(stderr, "error: no method matches {}", selection.describe());
    }
    run.seconds = start.elapsed().as_secs_f64();
    run.stats = stats;
    let output = match (args.stats, args.format) {
        (true, Format::Text) => schedule_report::stats_text(&run),
        (true, Format::Json) => report::json(&run),
        (false, Format::Text) => {
            schedule_report::code_text(&methods, &scheduled, args.baseline) + &schedule_report::stats_text(&run)
        }
        (false, Format::Json) => schedule_report::code_json(&methods, &scheduled, &run),
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if run.stats.failures > 0 {
        EXIT_INTERNAL_ERROR
    } else if inputs.has_errors() || (!selection.is_all() && run.lifted + run.refused == 0) {
        EXIT_INPUT_ERROR
    } else {
        EXIT_OK
    }
}
