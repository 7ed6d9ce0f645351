//! Scheduling of one DAG: treegraph, search for the cheapest order, emission, and the baseline.

use super::dag::Dag;
use super::emit::{emit_baseline, emit_treegraph, Code, EmitError};
use super::forest::{Treegraph, TreegraphError};
use super::limits::ScheduleLimits;
use super::search::{find_best_order, SearchResult};
use serde::Serialize;
use std::fmt;

/// A scheduled DAG: its treegraph, the search, the treegraph code and the baseline code.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schedule {
    pub treegraph: Treegraph,
    pub search: SearchResult,
    /// The code of `search.order` (Algorithm 2).
    pub code: Code,
    /// The store/load baseline in the original order.
    pub baseline: Code,
}

/// Which code a block runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// The treegraph schedule.
    Treegraph,
    /// The store/load baseline, because it is shorter than the treegraph schedule.
    Baseline,
}

impl Schedule {
    /// The code to run: the treegraph code unless the baseline is shorter, so never longer than
    /// the baseline.
    pub fn chosen(&self) -> (Choice, &Code) {
        if self.baseline.steps.len() < self.code.steps.len() {
            (Choice::Baseline, &self.baseline)
        } else {
            (Choice::Treegraph, &self.code)
        }
    }
}

/// Why a DAG could not be scheduled (a bug in the DAG's producer or in the scheduler).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    Treegraph(TreegraphError),
    Emit(EmitError),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Treegraph(e) => write!(f, "treegraph: {e}"),
            ScheduleError::Emit(e) => write!(f, "emission: {e}"),
        }
    }
}

impl std::error::Error for ScheduleError {}

/// Schedules a DAG within `limits`; the baseline's temporaries are numbered from `first_temp`.
pub fn schedule_dag<L>(dag: &Dag<L>, limits: &ScheduleLimits, first_temp: u32) -> Result<Schedule, ScheduleError> {
    schedule_dag_with_locals(dag, limits, first_temp, |_| None)
}

/// `schedule_dag` for DAGs with nodes that store their operand into a local, which the baseline
/// reuses as the value's local (see `emit_baseline`).
pub fn schedule_dag_with_locals<L>(
    dag: &Dag<L>,
    limits: &ScheduleLimits,
    first_temp: u32,
    local_store: impl Fn(&L) -> Option<u32>,
) -> Result<Schedule, ScheduleError> {
    let treegraph = Treegraph::build(dag).map_err(ScheduleError::Treegraph)?;
    let search = find_best_order(&treegraph, limits);
    let code = emit_treegraph(dag, &treegraph, &search.order).map_err(ScheduleError::Emit)?;
    let baseline = emit_baseline(dag, &treegraph, first_temp, local_store).map_err(ScheduleError::Emit)?;
    Ok(Schedule {
        treegraph,
        search,
        code,
        baseline,
    })
}
