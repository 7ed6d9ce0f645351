//! Lowering of IR rules to dependence DAGs of stack instructions, and scheduling of whole methods.
//!
//! A rule body is a straight-line block. Each statement becomes one node labelled with its stack
//! instruction; `x = y` makes no node (`x` names `y`'s value). Every use of an input or a constant
//! is a leaf of its own (`LoadInput`, `Push`): they are as cheap to load again as to copy, so only
//! values computed in the rule are shared. The rule ends in a terminator: the last statement when it
//! is a `throw` or a call whose outputs are exactly the procedure's outputs (a tail call), otherwise
//! a `Return` of the outputs.
//!
//! **Ordering edges keep every statement with an effect in its original order**: a statement that
//! may throw (every heap read, allocation, division, cast and call may) or writes (fields, statics,
//! arrays, calls, monitors, `throw`) follows the previous such statement. Because every heap read
//! of the IR can throw, this orders all heap reads after earlier writes too, which is the
//! conservative aliasing the VM needs; pure arithmetic floats freely. A value that an exception
//! handler receives is stored into a local (a `Store` node) before the first statement whose
//! handler needs it.

use super::dag::{Dag, DagError, NodeId, ValueRef};
use super::emit::{Code, Step, StepCounts};
use super::insn::{HandlerArg, StackHandler, StackInsn, StackOp};
use super::limits::ScheduleLimits;
use super::schedule::{schedule_dag_with_locals, Choice, Schedule};
use super::search::SearchOutcome;
use crate::ir::{MethodIr, Operand, ProcId, Procedure, RuleId, StmtKind, VarId};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// A rule's DAG and the locals its handler arguments use (slots `0..handler_locals`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleDag {
    pub dag: Dag<StackInsn>,
    pub handler_locals: u32,
}

/// A rule that could not be lowered or scheduled (IR that fails verification, or a scheduler bug).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LowerError {
    pub message: String,
}

impl LowerError {
    fn new(message: impl Into<String>) -> Self {
        LowerError {
            message: message.into(),
        }
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LowerError {}

impl From<DagError> for LowerError {
    fn from(error: DagError) -> Self {
        LowerError::new(error.to_string())
    }
}

/// Where a variable's value comes from.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    Input(u32),
    Const(Operand),
    Value(ValueRef),
}

/// Whether a statement must keep its place relative to the other statements with effects.
pub fn has_effect(kind: &StmtKind) -> bool {
    let writes = matches!(
        kind,
        StmtKind::PutField { .. }
            | StmtKind::PutStatic { .. }
            | StmtKind::ArrayStore { .. }
            | StmtKind::Invoke { .. }
            | StmtKind::InvokeDynamic { .. }
            | StmtKind::Call { .. }
            | StmtKind::MonitorEnter { .. }
            | StmtKind::MonitorExit { .. }
            | StmtKind::Throw { .. }
    );
    writes || kind.can_throw()
}

struct Lowering {
    dag: Dag<StackInsn>,
    vars: HashMap<VarId, Source>,
    last_effect: Option<NodeId>,
    /// The local and the `Store` node of each value a handler receives.
    handler_slots: HashMap<ValueRef, (u32, NodeId)>,
}

impl Lowering {
    fn resolve(&self, operand: &Operand) -> Result<Source, LowerError> {
        match operand {
            Operand::Var(v) => self
                .vars
                .get(v)
                .cloned()
                .ok_or_else(|| LowerError::new(format!("{v} is used before it is defined"))),
            constant => Ok(Source::Const(constant.clone())),
        }
    }

    /// The value of an operand, adding a leaf for an input or constant.
    fn operand(&mut self, operand: &Operand) -> Result<ValueRef, LowerError> {
        Ok(match self.resolve(operand)? {
            Source::Input(index) => ValueRef::first(self.dag.add(StackInsn::LoadInput { index }, Vec::new(), 1)?),
            Source::Const(value) => ValueRef::first(self.dag.add(StackInsn::Push { value }, Vec::new(), 1)?),
            Source::Value(value) => value,
        })
    }

    fn operands(&mut self, operands: &[&Operand]) -> Result<Vec<ValueRef>, LowerError> {
        operands.iter().map(|o| self.operand(o)).collect()
    }

    /// The handler of a statement, with the `Store` nodes the statement must follow.
    fn handler(
        &mut self,
        edge: Option<&crate::ir::HandlerEdge>,
    ) -> Result<(Option<StackHandler>, Vec<NodeId>), LowerError> {
        let Some(edge) = edge else {
            return Ok((None, Vec::new()));
        };
        let mut args = Vec::with_capacity(edge.args.len());
        let mut stores = Vec::new();
        for arg in &edge.args {
            args.push(match self.resolve(arg)? {
                Source::Input(index) => HandlerArg::Input(index),
                Source::Const(value) => HandlerArg::Const(value),
                Source::Value(value) => {
                    let (slot, store) = match self.handler_slots.get(&value) {
                        Some(&known) => known,
                        None => {
                            let slot = self.handler_slots.len() as u32;
                            let store = self.dag.add(StackInsn::Store { slot }, vec![value], 0)?;
                            self.handler_slots.insert(value, (slot, store));
                            (slot, store)
                        }
                    };
                    stores.push(store);
                    HandlerArg::Local(slot)
                }
            });
        }
        Ok((Some(StackHandler { proc: edge.proc, args }), stores))
    }

    /// Adds a statement's node with its ordering edges.
    fn add_stmt(
        &mut self,
        label: StackInsn,
        operands: Vec<ValueRef>,
        results: u32,
        effect: bool,
        stores: &[NodeId],
    ) -> Result<NodeId, LowerError> {
        let node = self.dag.add(label, operands, results)?;
        for &store in stores {
            self.dag.add_after(node, store)?;
        }
        if effect {
            if let Some(previous) = self.last_effect {
                self.dag.add_after(node, previous)?;
            }
            self.last_effect = Some(node);
        }
        Ok(node)
    }
}

/// The operation of a statement that becomes an `Op` node.
fn stack_op(method: &MethodIr, kind: &StmtKind) -> Result<StackOp, LowerError> {
    Ok(match kind {
        StmtKind::Binary { op, ty, .. } => StackOp::Binary { op: *op, ty: *ty },
        StmtKind::Unary { dst, op, from, .. } => StackOp::Unary {
            op: *op,
            from: *from,
            to: method
                .vars
                .get(dst.index())
                .ok_or_else(|| LowerError::new(format!("{dst} is not declared")))?
                .ty,
        },
        StmtKind::GetField { field, .. } => StackOp::GetField { field: field.clone() },
        StmtKind::PutField { field, .. } => StackOp::PutField { field: field.clone() },
        StmtKind::GetStatic { field, .. } => StackOp::GetStatic { field: field.clone() },
        StmtKind::PutStatic { field, .. } => StackOp::PutStatic { field: field.clone() },
        StmtKind::ArrayLoad { elem, .. } => StackOp::ArrayLoad { elem: *elem },
        StmtKind::ArrayStore { elem, .. } => StackOp::ArrayStore { elem: *elem },
        StmtKind::ArrayLength { .. } => StackOp::ArrayLength,
        StmtKind::New { class, .. } => StackOp::New { class: class.clone() },
        StmtKind::NewArray { elem, .. } => StackOp::NewArray { elem: *elem },
        StmtKind::NewRefArray { class, .. } => StackOp::NewRefArray { class: class.clone() },
        StmtKind::NewMultiArray {
            descriptor, lengths, ..
        } => StackOp::NewMultiArray {
            descriptor: descriptor.clone(),
            dimensions: lengths.len() as u32,
        },
        StmtKind::Invoke {
            dst,
            kind,
            interface,
            method,
            args,
        } => StackOp::Invoke {
            kind: *kind,
            interface: *interface,
            method: method.clone(),
            args: args.len() as u32,
            results: u32::from(dst.is_some()),
        },
        StmtKind::InvokeDynamic {
            dst,
            name,
            descriptor,
            bootstrap,
            args,
        } => StackOp::InvokeDynamic {
            name: name.clone(),
            descriptor: descriptor.clone(),
            bootstrap: *bootstrap,
            args: args.len() as u32,
            results: u32::from(dst.is_some()),
        },
        StmtKind::Concat {
            recipe,
            descriptor,
            args,
            ..
        } => StackOp::Concat {
            recipe: recipe.clone(),
            descriptor: descriptor.clone(),
            args: args.len() as u32,
        },
        StmtKind::Call { proc, args, outs } => StackOp::Call {
            proc: *proc,
            args: args.len() as u32,
            results: outs.len() as u32,
        },
        StmtKind::CheckCast { class, .. } => StackOp::CheckCast { class: class.clone() },
        StmtKind::InstanceOf { class, .. } => StackOp::InstanceOf { class: class.clone() },
        StmtKind::MonitorEnter { .. } => StackOp::MonitorEnter,
        StmtKind::MonitorExit { .. } => StackOp::MonitorExit,
        StmtKind::LoadConst { value, .. } => StackOp::LoadConst { value: value.clone() },
        StmtKind::Assign { .. } | StmtKind::Throw { .. } => {
            return Err(LowerError::new("assignments and throws are not operations"))
        }
    })
}

/// Builds the DAG of rule `rule` of procedure `proc`.
pub fn rule_dag(method: &MethodIr, proc: ProcId, rule: RuleId) -> Result<RuleDag, LowerError> {
    let procedure: &Procedure = method
        .procs
        .get(proc.index())
        .ok_or_else(|| LowerError::new(format!("no procedure {proc}")))?;
    let body = &procedure
        .rules
        .get(rule.index())
        .ok_or_else(|| LowerError::new(format!("no rule {rule} in {}", procedure.name)))?
        .body;
    let mut lowering = Lowering {
        dag: Dag::new(),
        vars: procedure
            .inputs
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, Source::Input(k as u32)))
            .collect(),
        last_effect: None,
        handler_slots: HashMap::new(),
    };
    let mut terminated = false;
    for (k, stmt) in body.iter().enumerate() {
        let index = k as u32;
        let last = k + 1 == body.len();
        let effect = has_effect(&stmt.kind);
        match &stmt.kind {
            StmtKind::Assign { dst, src } => {
                let source = lowering.resolve(src)?;
                lowering.vars.insert(*dst, source);
            }
            StmtKind::Throw { value } => {
                if !last {
                    return Err(LowerError::new("throw is not the last statement"));
                }
                let operands = lowering.operands(&[value])?;
                let (handler, stores) = lowering.handler(stmt.handler.as_ref())?;
                let node =
                    lowering.add_stmt(StackInsn::Throw { stmt: index, handler }, operands, 0, effect, &stores)?;
                lowering.dag.set_terminator(node)?;
                terminated = true;
            }
            StmtKind::Call {
                proc: callee,
                args,
                outs,
            } if last && *outs == procedure.outputs => {
                let uses: Vec<&Operand> = args.iter().collect();
                let operands = lowering.operands(&uses)?;
                let (handler, stores) = lowering.handler(stmt.handler.as_ref())?;
                let node = lowering.add_stmt(
                    StackInsn::TailCall {
                        proc: *callee,
                        args: args.len() as u32,
                        stmt: index,
                        handler,
                    },
                    operands,
                    0,
                    effect,
                    &stores,
                )?;
                lowering.dag.set_terminator(node)?;
                terminated = true;
            }
            kind => {
                let op = stack_op(method, kind)?;
                let uses = kind.uses();
                let operands = lowering.operands(&uses)?;
                let (handler, stores) = lowering.handler(stmt.handler.as_ref())?;
                let defs = kind.defs();
                let node = lowering.add_stmt(
                    StackInsn::Op {
                        op,
                        stmt: index,
                        handler,
                    },
                    operands,
                    defs.len() as u32,
                    effect,
                    &stores,
                )?;
                for (result, def) in defs.into_iter().enumerate() {
                    lowering.vars.insert(
                        def,
                        Source::Value(ValueRef {
                            node,
                            result: result as u32,
                        }),
                    );
                }
            }
        }
    }
    if !terminated {
        let outputs: Vec<Operand> = procedure.outputs.iter().map(|&v| Operand::Var(v)).collect();
        let uses: Vec<&Operand> = outputs.iter().collect();
        let operands = lowering.operands(&uses)?;
        let node = lowering.dag.add(
            StackInsn::Return {
                values: outputs.len() as u32,
            },
            operands,
            0,
        )?;
        lowering.dag.set_terminator(node)?;
    }
    let handler_locals = lowering.handler_slots.len() as u32;
    Ok(RuleDag {
        dag: lowering.dag,
        handler_locals,
    })
}

/// Figures of one scheduled rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleStats {
    pub nodes: u32,
    pub trees: u32,
    pub outcome: SearchOutcome,
    /// Complete orders the search reached, and prefixes it extended.
    pub orders: u64,
    pub steps: u64,
    /// Manipulations of the original order and of the order chosen.
    pub original_cost: u32,
    pub cost: u32,
    pub treegraph: StepCounts,
    pub baseline: StepCounts,
    pub choice: Choice,
    pub max_stack: u32,
    pub baseline_max_stack: u32,
}

/// A rule's stack code.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScheduledRule {
    pub proc: ProcId,
    pub rule: RuleId,
    /// The code the VM runs: the treegraph schedule unless the baseline is shorter.
    pub code: Vec<StackInsn>,
    /// The treegraph schedule.
    pub treegraph: Vec<StackInsn>,
    /// The store/load baseline.
    pub baseline: Vec<StackInsn>,
    /// Locals `code` uses (handler arguments first, then the baseline's temporaries).
    pub locals: u32,
    pub stats: RuleStats,
}

/// Maps scheduled steps to instructions.
pub fn steps_to_insns(dag: &Dag<StackInsn>, code: &Code) -> Vec<StackInsn> {
    code.steps
        .iter()
        .map(|step| match *step {
            Step::Node(id) => dag.node(id).label.clone(),
            Step::Dup(count) => StackInsn::Dup { count },
            Step::Fetch(depth) => StackInsn::Fetch { depth },
            Step::Pop(count) => StackInsn::Pop { count },
            Step::Store(slot) => StackInsn::Store { slot },
            Step::Load(slot) => StackInsn::Load { slot },
        })
        .collect()
}

/// Lowers and schedules one rule.
pub fn schedule_rule(
    method: &MethodIr,
    proc: ProcId,
    rule: RuleId,
    limits: &ScheduleLimits,
) -> Result<ScheduledRule, LowerError> {
    let rule_dag = rule_dag(method, proc, rule)?;
    let local_store = |insn: &StackInsn| match insn {
        StackInsn::Store { slot } => Some(*slot),
        _ => None,
    };
    let schedule: Schedule = schedule_dag_with_locals(&rule_dag.dag, limits, rule_dag.handler_locals, local_store)
        .map_err(|e| LowerError::new(format!("scheduling failed: {e}")))?;
    let treegraph = steps_to_insns(&rule_dag.dag, &schedule.code);
    let baseline = steps_to_insns(&rule_dag.dag, &schedule.baseline);
    let (choice, _) = schedule.chosen();
    let (code, locals) = match choice {
        Choice::Treegraph => (treegraph.clone(), rule_dag.handler_locals),
        Choice::Baseline => (baseline.clone(), rule_dag.handler_locals + schedule.baseline.temps),
    };
    let stats = RuleStats {
        nodes: rule_dag.dag.len() as u32,
        trees: schedule.treegraph.len() as u32,
        outcome: schedule.search.outcome,
        orders: schedule.search.orders,
        steps: schedule.search.steps,
        original_cost: schedule.search.original_cost,
        cost: schedule.search.cost,
        treegraph: schedule.code.counts(),
        baseline: schedule.baseline.counts(),
        choice,
        max_stack: schedule.code.max_stack,
        baseline_max_stack: schedule.baseline.max_stack,
    };
    Ok(ScheduledRule {
        proc,
        rule,
        code,
        treegraph,
        baseline,
        locals,
        stats,
    })
}

/// A rule that failed, with why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleFailure {
    pub proc: ProcId,
    pub rule: RuleId,
    pub error: LowerError,
}

/// Every rule of a method, scheduled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodSchedule {
    pub rules: Vec<ScheduledRule>,
    pub failures: Vec<RuleFailure>,
}

/// Lowers and schedules every rule of every procedure of a method, in procedure and rule order.
pub fn schedule_method(method: &MethodIr, limits: &ScheduleLimits) -> MethodSchedule {
    let mut schedule = MethodSchedule {
        rules: Vec::new(),
        failures: Vec::new(),
    };
    for (p, procedure) in method.procs.iter().enumerate() {
        for r in 0..procedure.rules.len() {
            let (proc, rule) = (ProcId::from_index(p), RuleId::from_index(r));
            match schedule_rule(method, proc, rule, limits) {
                Ok(scheduled) => schedule.rules.push(scheduled),
                Err(error) => schedule.failures.push(RuleFailure { proc, rule, error }),
            }
        }
    }
    schedule
}
