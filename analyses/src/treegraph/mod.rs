//! Treegraph scheduling (Park et al., "Treegraph-based instruction scheduling for stack-based
//! virtual machines"): lowering IR rule bodies back into compact stack code for the VM.
//!
//! The pipeline for one rule (one straight-line block):
//!
//! 1. `lower`: the rule body → a dependence DAG (`dag`) whose nodes are stack instructions
//!    (`insn::StackInsn`), with data edges and ordering edges that keep effects in order;
//! 2. `forest`: cut set → forest → treegraph (trees of single-use values, arcs for shared values);
//! 3. `search`: enumeration of the treegraph's topological orders (Knuth–Szwarcfiter, with branch and
//!    bound and the budgets of `limits`), each costed by `cost` (Algorithm 3: `DUP`, `FETCH`, `POP`);
//! 4. `emit`: code of the cheapest order (Algorithms 1 and 2), and the store/load baseline;
//! 5. `stats`: totals over many blocks.
//!
//! The generic part (`Dag<L>` to `Schedule`) works on DAGs with any labels, such as the paper's
//! examples; `lower` specialises it to the IR. **Emission checks the stack copy by copy, so the code
//! returned always computes exactly the DAG's values with effects in DAG order; a rule the
//! scheduler cannot handle is a `LowerError`, never wrong code.** The code the VM runs is the treegraph
//! code unless the baseline is shorter, so it is never longer than the baseline.

pub mod cost;
pub mod dag;
pub mod emit;
pub mod forest;
pub mod insn;
pub mod limits;
pub mod lower;
pub mod print;
pub mod schedule;
pub mod search;
pub mod stats;

pub use cost::{order_cost, Manipulations};
pub use dag::{Dag, DagError, Node, NodeId, ValueRef};
pub use emit::{emit_baseline, emit_treegraph, Code, EmitError, Step, StepCounts};
pub use forest::{ExternalValue, Item, RootReason, Tree, TreeId, Treegraph, TreegraphError};
pub use insn::{HandlerArg, StackHandler, StackInsn, StackOp};
pub use limits::ScheduleLimits;
pub use lower::{
    has_effect, rule_dag, schedule_method, schedule_rule, steps_to_insns, LowerError, MethodSchedule, RuleDag,
    RuleFailure, RuleStats, ScheduledRule,
};
pub use print::{print_code, print_insn, print_treegraph, Names};
pub use schedule::{schedule_dag, schedule_dag_with_locals, Choice, Schedule, ScheduleError};
pub use search::{find_best_order, greedy_order, SearchOutcome, SearchResult};
pub use stats::ScheduleStats;
