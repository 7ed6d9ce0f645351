//! Statistics of scheduling over many rules: how many blocks were scheduled optimally, stack
//! manipulations, and code size against the store/load baseline.

use super::lower::{MethodSchedule, RuleStats};
use super::schedule::Choice;
use super::search::SearchOutcome;
use serde::Serialize;

/// Totals over scheduled rules (blocks).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ScheduleStats {
    pub methods: u64,
    /// Rules scheduled (each rule body is one block).
    pub blocks: u64,
    /// Rules that could not be lowered or scheduled.
    pub failures: u64,
    /// Blocks whose search finished: the order is optimal.
    pub optimal: u64,
    /// Blocks whose search stopped at the time budget, at the step budget, or was not run because
    /// the block is too large.
    pub stopped_time: u64,
    pub stopped_steps: u64,
    pub too_large: u64,
    /// Blocks with more than one tree (only these have orders to choose from).
    pub with_choice: u64,
    /// Blocks where the chosen order is cheaper than the original one.
    pub improved: u64,
    pub nodes: u64,
    pub trees: u64,
    /// Stack manipulations in the treegraph code.
    pub dup: u64,
    pub fetch: u64,
    pub pop: u64,
    /// Manipulations in the baseline.
    pub baseline_store: u64,
    pub baseline_load: u64,
    pub baseline_pop: u64,
    /// Instructions (terminators included) of the treegraph code, the baseline, and the code chosen.
    pub treegraph_size: u64,
    pub baseline_size: u64,
    pub chosen_size: u64,
    /// Blocks where the baseline is shorter than the treegraph code (and so is chosen).
    pub baseline_chosen: u64,
    /// Blocks where the treegraph code is strictly shorter than the baseline.
    pub treegraph_shorter: u64,
    pub max_stack: u32,
    pub search_steps: u64,
}

impl ScheduleStats {
    /// Adds one rule.
    pub fn add_rule(&mut self, rule: &RuleStats) {
        self.blocks += 1;
        match rule.outcome {
            SearchOutcome::Optimal => self.optimal += 1,
            SearchOutcome::TimeBudget => self.stopped_time += 1,
            SearchOutcome::StepBudget => self.stopped_steps += 1,
            SearchOutcome::TooLarge => self.too_large += 1,
        }
        if rule.trees > 1 {
            self.with_choice += 1;
        }
        if rule.cost < rule.original_cost {
            self.improved += 1;
        }
        self.nodes += u64::from(rule.nodes);
        self.trees += u64::from(rule.trees);
        self.dup += u64::from(rule.treegraph.dup);
        self.fetch += u64::from(rule.treegraph.fetch);
        self.pop += u64::from(rule.treegraph.pop);
        self.baseline_store += u64::from(rule.baseline.store);
        self.baseline_load += u64::from(rule.baseline.load);
        self.baseline_pop += u64::from(rule.baseline.pop);
        let treegraph = u64::from(rule.treegraph.total());
        let baseline = u64::from(rule.baseline.total());
        self.treegraph_size += treegraph;
        self.baseline_size += baseline;
        match rule.choice {
            Choice::Treegraph => self.chosen_size += treegraph,
            Choice::Baseline => {
                self.chosen_size += baseline;
                self.baseline_chosen += 1;
            }
        }
        if treegraph < baseline {
            self.treegraph_shorter += 1;
        }
        self.max_stack = self.max_stack.max(rule.max_stack);
        self.search_steps += rule.steps;
    }

    /// Adds every rule of a method.
    pub fn add_method(&mut self, method: &MethodSchedule) {
        self.methods += 1;
        self.failures += method.failures.len() as u64;
        for rule in &method.rules {
            self.add_rule(&rule.stats);
        }
    }

    /// Adds another total.
    pub fn merge(&mut self, other: &ScheduleStats) {
        self.methods += other.methods;
        self.blocks += other.blocks;
        self.failures += other.failures;
        self.optimal += other.optimal;
        self.stopped_time += other.stopped_time;
        self.stopped_steps += other.stopped_steps;
        self.too_large += other.too_large;
        self.with_choice += other.with_choice;
        self.improved += other.improved;
        self.nodes += other.nodes;
        self.trees += other.trees;
        self.dup += other.dup;
        self.fetch += other.fetch;
        self.pop += other.pop;
        self.baseline_store += other.baseline_store;
        self.baseline_load += other.baseline_load;
        self.baseline_pop += other.baseline_pop;
        self.treegraph_size += other.treegraph_size;
        self.baseline_size += other.baseline_size;
        self.chosen_size += other.chosen_size;
        self.baseline_chosen += other.baseline_chosen;
        self.treegraph_shorter += other.treegraph_shorter;
        self.max_stack = self.max_stack.max(other.max_stack);
        self.search_steps += other.search_steps;
    }

    /// The share of blocks scheduled optimally, in percent (100 with no blocks).
    pub fn optimal_percent(&self) -> f64 {
        percent(self.optimal, self.blocks)
    }

    /// Treegraph code size over baseline size (1 with no code).
    pub fn size_ratio(&self) -> f64 {
        ratio(self.treegraph_size, self.baseline_size)
    }

    /// Chosen code size over baseline size.
    pub fn chosen_ratio(&self) -> f64 {
        ratio(self.chosen_size, self.baseline_size)
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}
