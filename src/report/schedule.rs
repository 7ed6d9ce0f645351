//! Rendering of `jresa schedule`: the stack code of every rule and the scheduling statistics, as
//! text or JSON.
use jresa_analyses::ir::MethodIr;
use jresa_analyses::treegraph::{print_code, Choice, MethodSchedule, Names, ScheduleStats, ScheduledRule};
use serde::Serialize;
use std::fmt::Write;

/// A `schedule` run: what was read and lifted, and the statistics of scheduling.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ScheduleRun {
    pub classes: usize,
    pub input_errors: usize,
    /// Methods lifted (and scheduled) and refused by the lifter.
    pub lifted: usize,
    pub refused: usize,
    pub stats: ScheduleStats,
    pub seconds: f64,
}

/// The header line of one rule: its procedure, rule, and figures.
fn rule_header(method: &MethodIr, rule: &ScheduledRule) -> String {
    let s = &rule.stats;
    let mut out = format!(
        "  {} {}: {} tree{}, {}, {} instructions (dup {}, fetch {}, pop {}), baseline {}",
        method.proc(rule.proc).name,
        rule.rule,
        s.trees,
        if s.trees == 1 { "" } else { "s" },
        outcome_text(s.outcome),
        s.treegraph.total(),
        s.treegraph.dup,
        s.treegraph.fetch,
        s.treegraph.pop,
        s.baseline.total(),
    );
    if s.cost < s.original_cost {
        let _ = write!(out, ", original order {} more", s.original_cost - s.cost);
    }
    if s.choice == Choice::Baseline {
        out.push_str(", baseline chosen");
    }
    out.push('\n');
    out
}

fn outcome_text(outcome: jresa_analyses::treegraph::SearchOutcome) -> &'static str {
    use jresa_analyses::treegraph::SearchOutcome;
    match outcome {
        SearchOutcome::Optimal => "optimal",
        SearchOutcome::TimeBudget => "stopped at the time budget",
        SearchOutcome::StepBudget => "stopped at the step budget",
        SearchOutcome::TooLarge => "too large to search",
    }
}

/// The stack code of every rule of every method, with the baseline when asked for.
pub fn code_text(methods: &[MethodIr], schedules: &[MethodSchedule], baseline: bool) -> String {
    let mut out = String::new();
    for (method, schedule) in methods.iter().zip(schedules) {
        let _ = writeln!(out, "method {}", method.display_name());
        for rule in &schedule.rules {
            out.push_str(&rule_header(method, rule));
            let names = Names {
                method: Some(method),
                proc: Some(rule.proc),
            };
            out.push_str(&print_code(&names, &rule.code, "    "));
            if baseline {
                out.push_str("    baseline:\n");
                out.push_str(&print_code(&names, &rule.baseline, "      "));
            }
        }
        for failure in &schedule.failures {
            let _ = writeln!(
                out,
                "  {} {}: not scheduled: {}",
                method.proc(failure.proc).name,
                failure.rule,
                failure.error
            );
        }
    }
    out
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The statistics as text.
pub fn stats_text(run: &ScheduleRun) -> String {
    let s = &run.stats;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "classes: {}\nmethods: {} lifted, {} refused by the lifter",
        run.classes, run.lifted, run.refused
    );
    let _ = writeln!(
        out,
        "blocks (rules): {}, with more than one tree: {} ({:.2}%)",
        s.blocks,
        s.with_choice,
        percent(s.with_choice, s.blocks)
    );
    let _ = writeln!(
        out,
        "scheduled optimally: {} ({:.2}%); stopped at the time budget: {}, at the step budget: {}; too large to search: {}",
        s.optimal,
        s.optimal_percent(),
        s.stopped_time,
        s.stopped_steps,
        s.too_large
    );
    let _ = writeln!(
        out,
        "cheaper than the original order: {} blocks ({:.2}% of those with more than one tree)",
        s.improved,
        percent(s.improved, s.with_choice)
    );
    let _ = writeln!(
        out,
        "treegraph code: {} instructions; dup {}, fetch {} (dup+fetch {}), pop {}",
        s.treegraph_size,
        s.dup,
        s.fetch,
        s.dup + s.fetch,
        s.pop
    );
    let _ = writeln!(
        out,
        "store/load baseline: {} instructions; store {}, load {}, pop {}",
        s.baseline_size, s.baseline_store, s.baseline_load, s.baseline_pop
    );
    let _ = writeln!(
        out,
        "size treegraph/baseline: {:.4} ({:.2}% smaller); shorter in {} blocks, longer in {} (the baseline is used there); chosen/baseline: {:.4}",
        s.size_ratio(),
        100.0 * (1.0 - s.size_ratio()),
        s.treegraph_shorter,
        s.baseline_chosen,
        s.chosen_ratio()
    );
    let _ = writeln!(
        out,
        "deepest stack: {}; search steps: {}; rules not scheduled: {}; input errors: {}; time: {:.2} s",
        s.max_stack, s.search_steps, s.failures, run.input_errors, run.seconds
    );
    out
}

/// One method's rules for JSON output.
#[derive(Serialize)]
struct MethodJson<'a> {
    method: String,
    procs: Vec<&'a str>,
    rules: &'a [ScheduledRule],
    failures: &'a [jresa_analyses::treegraph::RuleFailure],
}

#[derive(Serialize)]
struct CodeJson<'a> {
    methods: Vec<MethodJson<'a>>,
    run: &'a ScheduleRun,
}

/// The code of every rule and the statistics as JSON.
pub fn code_json(methods: &[MethodIr], schedules: &[MethodSchedule], run: &ScheduleRun) -> String {
    let methods = methods
        .iter()
        .zip(schedules)
        .map(|(method, schedule)| MethodJson {
            method: method.display_name(),
            procs: method.procs.iter().map(|p| p.name.as_str()).collect(),
            rules: &schedule.rules,
            failures: &schedule.failures,
        })
        .collect();
    super::json(&CodeJson { methods, run })
}
