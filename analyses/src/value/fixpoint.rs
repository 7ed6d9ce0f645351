//! The top-down PRE/POST fixpoint of the value analysis (COSTA, Alonso et al. Alg. 1) over an
//! abstract program, with widening after a delay (thresholds from the procedure's guards).
//!
//! `PRE[q]` (over `q`'s inputs) holds whenever `q` is called from the entries; `POST[q]` (over its
//! inputs then outputs) holds whenever `q` returns. **Both over-approximate every concrete run
//! (under the assumptions of `compile`); `None` means unreachable (false).** A procedure whose
//! PRE or POST changes more than `MAX_UPDATES` times is set to the universe, which is sound.

use super::domain::{Constraint, Dimension, LinearExpr, NumericDomain, Polyhedron};
use super::limits::{MAX_EVALUATIONS, MAX_UPDATES, WIDENING_DELAY};
use super::overflow;
use super::program::{AbsProcId, AbstractProgram, AbstractRule, Item, Origin};
use std::collections::{BTreeSet, VecDeque};

/// The result of the fixpoint: pre- and post-conditions per abstract procedure.
#[derive(Clone, Debug)]
pub struct Fixpoint<D = Polyhedron> {
    pub pre: Vec<Option<D>>,
    pub post: Vec<Option<D>>,
    /// Rule evaluations performed.
    pub evaluations: usize,
    /// Whether the evaluation budget ran out: the conditions are then not a fixpoint, and no
    /// bound may be derived from them.
    pub exhausted: bool,
    /// The integer operations (procedure, bytecode offset) whose result could not be proven in
    /// range, so that the analysis forgot it.
    pub overflows: BTreeSet<(AbsProcId, u32)>,
    /// The reason of the opaque item some state reached, where [`solve_until_opaque`] stopped
    /// there (`exhausted` is then set too).
    pub reached_opaque: Option<String>,
}

/// Embeds `source` (over `source_dims`) into a rule of `rule_dims` dimensions, dimension `i` of
/// `source` becoming `targets[i]` (repeated targets equate their sources).
pub fn embed<D: NumericDomain>(source: &D, targets: &[Dimension], rule_dims: usize) -> D {
    let mapping: Vec<Option<Dimension>> = targets.iter().map(|t| Some(*t)).collect();
    source.map_dims(&mapping, rule_dims)
}

/// The restriction of `state` (over a rule's dimensions) to the dimensions `args`, as a polyhedron
/// whose dimension `i` is `args[i]` (an argument passed twice gives two equal dimensions).
pub fn restrict<D: NumericDomain>(state: &D, args: &[Dimension]) -> D {
    let base = state.dimensions();
    let mut extended = state.add_dims(args.len());
    for (i, &a) in args.iter().enumerate() {
        if let Some(c) = LinearExpr::from_terms(&[(base + i, 1), (a, -1)], 0) {
            extended.add_constraint(Constraint::equal_zero(c));
        }
    }
    let mapping: Vec<Option<Dimension>> = (0..base + args.len()).map(|d| d.checked_sub(base)).collect();
    extended.map_dims(&mapping, args.len())
}

/// The condition a call in `rule` passes `callee`: the calling `state` over the arguments `args`,
/// and, for a method call, the bounds that the JVM ranges of the rule's values imply
/// (`overflow::tighten_by_ranges`). A call between the procedures of one method needs none: they
/// pass the values a bound relates (the loop's `x` with its `y`), and `overflow::wrap` adds their
/// ranges where it checks an operation.
fn call_condition<D: NumericDomain>(
    program: &AbstractProgram,
    callee: AbsProcId,
    state: &D,
    args: &[Dimension],
    rule: &AbstractRule,
) -> D {
    let mut condition = restrict(state, args);
    if matches!(program.procs[callee].origin, Origin::Dispatch(_)) {
        overflow::tighten_by_ranges(&mut condition, state, args, &rule.ranges);
    }
    condition
}

/// The dimensions (at or above `kept`, and not in `final_uses`) of a rule that no item mentions
/// after each point: index 0 is after the guard, index `k + 1` after item `k` (and a last, empty
/// index for the final uses).
pub fn dead_dimensions(rule: &AbstractRule, kept: usize, final_uses: &[Dimension]) -> Vec<Vec<Dimension>> {
    let mut last_use: Vec<Option<usize>> = vec![None; rule.dims];
    let mut mention = |d: Dimension, at: usize| {
        if let Some(slot) = last_use.get_mut(d) {
            *slot = Some(slot.map_or(at, |old| old.max(at)));
        }
    };
    for c in &rule.guard {
        for (d, _) in c.expression().terms() {
            mention(d, 0);
        }
    }
    for (k, item) in rule.items.iter().enumerate() {
        match item {
            Item::Constrain(constraints) => {
                for c in constraints {
                    for (d, _) in c.expression().terms() {
                        mention(d, k + 1);
                    }
                }
            }
            Item::Call { args, outs, .. } => {
                for d in args.iter().chain(outs) {
                    mention(*d, k + 1);
                }
            }
            Item::Charge { args, .. } => {
                for d in args {
                    mention(*d, k + 1);
                }
            }
            Item::Wrap { dim, factors, .. } => {
                mention(*dim, k + 1);
                if let Some((l, r)) = factors {
                    mention(*l, k + 1);
                    mention(*r, k + 1);
                }
            }
            Item::Opaque { .. } | Item::Marker { .. } => {}
        }
    }
    // Final uses are past the last item, so they are never projected out.
    for &d in final_uses {
        mention(d, rule.items.len() + 1);
    }
    let mut dead = vec![Vec::new(); rule.items.len() + 2];
    for (d, last) in last_use.iter().enumerate().skip(kept) {
        if let Some(at) = last {
            dead[*at].push(d);
        }
    }
    dead
}

/// Runs the fixpoint from the given entries (a procedure and its initial precondition).
pub fn solve<D: NumericDomain>(program: &AbstractProgram, entries: &[(AbsProcId, D)]) -> Fixpoint<D> {
    Solver::new(program).run(entries, MAX_EVALUATIONS, &|| false)
}

/// Like `solve`, but gives up (with `exhausted` set, as when the evaluation budget runs out) as
/// soon as `stop` returns true; it is asked before every procedure evaluation. Callers use it for
/// wall-clock budgets, which the analysis itself does not read.
pub fn solve_until<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    stop: &dyn Fn() -> bool,
) -> Fixpoint<D> {
    Solver::new(program).run(entries, MAX_EVALUATIONS, stop)
}

/// Like `solve_until`, with a budget of `max_evaluations` rule evaluations (at most
/// `MAX_EVALUATIONS`) instead of `MAX_EVALUATIONS`: a deterministic budget, unlike wall-clock time.
pub fn solve_within<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    max_evaluations: usize,
    stop: &dyn Fn() -> bool,
) -> Fixpoint<D> {
    solve_with(program, entries, max_evaluations, stop, false)
}

/// [`solve_within`], stopped (`reached_opaque`, `exhausted`) as soon as a state reaches an opaque
/// item: for a caller that has no use for a fixpoint in which one is reachable. States only grow
/// as the iteration goes on, so an opaque item reached once is reached in the fixpoint too.
pub fn solve_until_opaque<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    max_evaluations: usize,
    stop: &dyn Fn() -> bool,
) -> Fixpoint<D> {
    solve_with(program, entries, max_evaluations, stop, true)
}

fn solve_with<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    max_evaluations: usize,
    stop: &dyn Fn() -> bool,
    until_opaque: bool,
) -> Fixpoint<D> {
    let mut solver = Solver::new(program);
    solver.until_opaque = until_opaque;
    solver.run(entries, max_evaluations.min(MAX_EVALUATIONS), stop)
}

/// The fixpoint that assumes nothing: the entries get their given preconditions, and every
/// procedure reachable from them through calls and charges the universe as PRE and POST. It
/// over-approximates every concrete run (as a procedure set to the universe by `MAX_UPDATES`
/// does), so costs derived from it are sound; the cost solver still reads each rule's own guards
/// and operations. It stands in for a fixpoint that ran out of budget.
pub fn assume_nothing<D: NumericDomain>(program: &AbstractProgram, entries: &[(AbsProcId, D)]) -> Fixpoint<D> {
    let n = program.procs.len();
    let mut pre: Vec<Option<D>> = vec![None; n];
    let mut post: Vec<Option<D>> = vec![None; n];
    let mut stack: Vec<AbsProcId> = Vec::new();
    for (p, condition) in entries {
        if *p < n && pre[*p].is_none() {
            pre[*p] = Some(condition.clone());
            stack.push(*p);
        }
    }
    while let Some(p) = stack.pop() {
        let proc = &program.procs[p];
        post[p] = Some(D::universe(proc.inputs + proc.outputs));
        for item in proc.rules.iter().flat_map(|rule| &rule.items) {
            if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                if *callee < n && pre[*callee].is_none() {
                    pre[*callee] = Some(D::universe(program.procs[*callee].inputs));
                    stack.push(*callee);
                }
            }
        }
    }
    Fixpoint {
        reached_opaque: None,
        pre,
        post,
        evaluations: 0,
        exhausted: false,
        overflows: BTreeSet::new(),
    }
}

struct Solver<'a, D> {
    program: &'a AbstractProgram,
    pre: Vec<Option<D>>,
    post: Vec<Option<D>>,
    pre_updates: Vec<usize>,
    post_updates: Vec<usize>,
    callers: Vec<Vec<AbsProcId>>,
    thresholds: Vec<Vec<Constraint>>,
    queue: VecDeque<AbsProcId>,
    queued: Vec<bool>,
    overflows: BTreeSet<(AbsProcId, u32)>,
    /// Stop at the first opaque item a state reaches.
    until_opaque: bool,
    reached_opaque: Option<String>,
}

impl<'a, D: NumericDomain> Solver<'a, D> {
    fn new(program: &'a AbstractProgram) -> Self {
        let n = program.procs.len();
        let mut callers = vec![Vec::new(); n];
        let mut thresholds = vec![Vec::new(); n];
        for (p, proc) in program.procs.iter().enumerate() {
            for rule in &proc.rules {
                for item in &rule.items {
                    if let Item::Call { callee, .. } = item {
                        if *callee < n && !callers[*callee].contains(&p) {
                            callers[*callee].push(p);
                        }
                    }
                }
                for c in &rule.guard {
                    if c.expression().terms().all(|(d, _)| d < proc.inputs) && !thresholds[p].contains(c) {
                        thresholds[p].push(c.clone());
                    }
                }
            }
        }
        inherit_thresholds(program, &mut thresholds, (0..program.procs.len()).collect());
        Solver {
            program,
            pre: vec![None; n],
            post: vec![None; n],
            pre_updates: vec![0; n],
            post_updates: vec![0; n],
            callers,
            thresholds,
            queue: VecDeque::new(),
            queued: vec![false; n],
            overflows: BTreeSet::new(),
            until_opaque: false,
            reached_opaque: None,
        }
    }

    fn run(mut self, entries: &[(AbsProcId, D)], max_evaluations: usize, stop: &dyn Fn() -> bool) -> Fixpoint<D> {
        for (p, condition) in entries {
            self.add_pre(*p, condition.clone());
        }
        let mut evaluations = 0;
        let mut exhausted = false;
        while let Some(q) = self.queue.pop_front() {
            self.queued[q] = false;
            evaluations += self.program.procs[q].rules.len();
            if evaluations > max_evaluations || stop() {
                exhausted = true;
                break;
            }
            let Some(psi) = self.pre[q].clone() else {
                continue;
            };
            let proc = &self.program.procs[q];
            let mut delta: Option<D> = None;
            for rule in &proc.rules {
                if let Some(result) = self.evaluate(q, rule, &psi) {
                    delta = Some(match delta {
                        None => result,
                        Some(d) => d.join(&result),
                    });
                }
            }
            if let Some(delta) = delta {
                self.add_post(q, delta);
            }
            if self.reached_opaque.is_some() {
                exhausted = true;
                break;
            }
        }
        Fixpoint {
            reached_opaque: self.reached_opaque,
            pre: self.pre,
            post: self.post,
            evaluations,
            exhausted,
            overflows: self.overflows,
        }
    }

    fn enqueue(&mut self, q: AbsProcId) {
        if !self.queued[q] {
            self.queued[q] = true;
            self.queue.push_back(q);
        }
    }

    /// Evaluates one rule under precondition `psi` (see [`walk_rule`]), passing the calls' states
    /// on as preconditions and recording the operations that may overflow.
    fn evaluate(&mut self, q: AbsProcId, rule: &AbstractRule, psi: &D) -> Option<D> {
        let mut calls = Vec::new();
        let mut overflows = Vec::new();
        let mut opaque = None;
        let watch = self.until_opaque && self.reached_opaque.is_none();
        let result = walk_rule(self.program, &self.post, q, rule, psi, &mut |event| match event {
            Event::Call { callee, args, state } => {
                calls.push((callee, call_condition(self.program, callee, state, args, rule)))
            }
            Event::Overflow(pc) => overflows.push(pc),
            Event::Opaque(reason, state) => {
                if watch && opaque.is_none() && !state.is_empty() {
                    opaque = Some(reason.to_owned());
                }
            }
        });
        if opaque.is_some() {
            self.reached_opaque = opaque;
        }
        for (callee, condition) in calls {
            self.add_pre(callee, condition);
        }
        self.overflows.extend(overflows.into_iter().map(|pc| (q, pc)));
        result
    }

    fn add_pre(&mut self, q: AbsProcId, condition: D) {
        let inputs = self.program.procs[q].inputs;
        let condition = if condition.dimensions() == inputs {
            condition
        } else {
            let mapping: Vec<Option<Dimension>> =
                (0..condition.dimensions()).map(|d| (d < inputs).then_some(d)).collect();
            condition.map_dims(&mapping, inputs)
        };
        if condition.is_empty() {
            return;
        }
        let updated = match &self.pre[q] {
            None => {
                // The first precondition's constraints are thresholds of later widenings: those
                // that every later call still satisfies survive (a loop's entry facts).
                let mut added = false;
                for c in condition
                    .minimized()
                    .constraints()
                    .iter()
                    .flat_map(Constraint::split_into_inequalities)
                {
                    if !self.thresholds[q].contains(&c) {
                        self.thresholds[q].push(c);
                        added = true;
                    }
                }
                // Handed down to the procedures the entry calls with these inputs unchanged: a
                // loop's body blocks widen first from their own first, narrower, states
                // (`p - k >= 2` with `k = 0`), and keep the loop's `p >= 0` only as a threshold.
                if added {
                    inherit_thresholds(self.program, &mut self.thresholds, vec![q]);
                }
                condition
            }
            Some(old) if old.includes(&condition) => return,
            Some(old) => {
                self.pre_updates[q] += 1;
                let joined = old.join(&condition);
                if self.pre_updates[q] > MAX_UPDATES {
                    D::universe(inputs)
                } else if self.pre_updates[q] > WIDENING_DELAY {
                    old.widen(&joined, &self.thresholds[q])
                } else {
                    joined
                }
            }
        };
        self.pre[q] = Some(updated);
        self.enqueue(q);
    }

    fn add_post(&mut self, q: AbsProcId, condition: D) {
        let dims = self.program.procs[q].inputs + self.program.procs[q].outputs;
        let updated = match &self.post[q] {
            None => condition,
            Some(old) if old.includes(&condition) => return,
            Some(old) => {
                self.post_updates[q] += 1;
                let joined = old.join(&condition);
                if self.post_updates[q] > MAX_UPDATES {
                    D::universe(dims)
                } else if self.post_updates[q] > WIDENING_DELAY {
                    old.widen(&joined, &[])
                } else {
                    joined
                }
            }
        };
        self.post[q] = Some(updated);
        for caller in self.callers[q].clone() {
            self.enqueue(caller);
        }
    }
}

/// Thresholds a procedure inherits from its callers, at most this many in all.
const MAX_THRESHOLDS: usize = 32;

/// Hands thresholds down calls: a caller's threshold, or a guard of the calling rule, over inputs
/// it passes on unchanged holds of the callee's inputs at that call, so the callee's widening
/// keeps it where all its calls satisfy it (a loop body block keeps the loop's `i < n`, which
/// its first call, with `i = 0`, shows only as `n >= 1`). Dimensions are single-assignment, so
/// an argument that is an input dimension of the caller is that input's value.
fn inherit_thresholds(program: &AbstractProgram, thresholds: &mut [Vec<Constraint>], mut pending: Vec<AbsProcId>) {
    while let Some(q) = pending.pop() {
        let proc = &program.procs[q];
        for rule in &proc.rules {
            let own: Vec<Constraint> = rule
                .guard
                .iter()
                .filter(|c| c.expression().terms().all(|(d, _)| d < proc.inputs))
                .chain(&thresholds[q])
                .cloned()
                .collect();
            for item in &rule.items {
                let (Item::Call { callee, args, .. } | Item::Charge { callee, args }) = item else {
                    continue;
                };
                let Some(target) = thresholds.get(*callee).map(Vec::len) else {
                    continue;
                };
                let mut added = Vec::new();
                for c in &own {
                    if target + added.len() >= MAX_THRESHOLDS {
                        break;
                    }
                    let terms: Option<Vec<(Dimension, i64)>> = c
                        .expression()
                        .terms()
                        .map(|(d, a)| Some((args.iter().position(|x| *x == d)?, a)))
                        .collect();
                    let Some(expr) = terms.and_then(|t| LinearExpr::from_terms(&t, c.expression().constant_term()))
                    else {
                        continue;
                    };
                    let mapped = Constraint::new(expr, c.relation());
                    if !thresholds[*callee].contains(&mapped) && !added.contains(&mapped) {
                        added.push(mapped);
                    }
                }
                if !added.is_empty() {
                    thresholds[*callee].extend(added);
                    pending.push(*callee);
                }
            }
        }
    }
}

/// What [`walk_rule`] meets on the way through a rule.
enum Event<'s, D> {
    /// A call or charge of `callee` with these arguments, in this state (over the rule's
    /// dimensions).
    Call {
        callee: AbsProcId,
        args: &'s [Dimension],
        state: &'s D,
    },
    /// An integer operation (at this bytecode offset) whose result could not be proven in range.
    Overflow(u32),
    /// An opaque item with this reason, in this state (over the rule's dimensions).
    Opaque(&'s str, &'s D),
}

/// Evaluates one rule of `q` under precondition `psi`, with the callees' post-conditions `post`:
/// its result over the procedure's inputs and outputs, or `None` when the rule cannot complete
/// normally. Every call reached (including one whose callee never returns) and every possible
/// overflow is reported to `visit`, in order.
fn walk_rule<D: NumericDomain>(
    program: &AbstractProgram,
    post: &[Option<D>],
    q: AbsProcId,
    rule: &AbstractRule,
    psi: &D,
    visit: &mut dyn FnMut(Event<'_, D>),
) -> Option<D> {
    let proc = &program.procs[q];
    let dims = rule.dims.max(proc.inputs + proc.outputs);
    let kept = proc.inputs + proc.outputs;
    let mut state = psi.add_dims(dims.saturating_sub(psi.dimensions()));
    state.add_constraints(rule.guard.iter().cloned());
    if state.is_empty() {
        return None;
    }
    // Dimensions other than the inputs and outputs are projected out after their last use,
    // which keeps the state small in long rules (exact: nothing later mentions them).
    let dead_after = dead_dimensions(rule, kept, &[]);
    state = state.project_out(&dead_after[0]);
    for (k, item) in rule.items.iter().enumerate() {
        match item {
            Item::Constrain(constraints) => state.add_constraints(constraints.iter().cloned()),
            Item::Opaque { reason } => visit(Event::Opaque(reason, &state)),
            Item::Marker { .. } => {}
            Item::Wrap {
                dim,
                width,
                pc,
                factors,
                ..
            } => {
                if !overflow::wrap(&mut state, *dim, *width, *factors, &rule.ranges) {
                    visit(Event::Overflow(*pc));
                }
            }
            Item::Charge { callee, args } => {
                if *callee < program.procs.len() {
                    visit(Event::Call {
                        callee: *callee,
                        args,
                        state: &state,
                    });
                }
            }
            Item::Call { callee, args, outs } => {
                let callee = *callee;
                if callee >= program.procs.len() {
                    continue;
                }
                visit(Event::Call {
                    callee,
                    args,
                    state: &state,
                });
                let post = post[callee].clone()?;
                let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
                state = state.meet(&embed(&post, &targets, dims));
                // A callee that never returns here ends the rule.
                if state.is_empty() {
                    return None;
                }
            }
        }
        if !dead_after[k + 1].is_empty() {
            state = state.project_out(&dead_after[k + 1]);
        }
    }
    if state.is_empty() || !rule.returns {
        return None;
    }
    let mapping: Vec<Option<Dimension>> = (0..dims).map(|d| (d < kept).then_some(d)).collect();
    Some(state.map_dims(&mapping, kept))
}

/// The states in which `caller`'s rules, run from its precondition, call or charge `callee`, over
/// the callee's inputs and joined; `None` when no such call is reachable. From a fixpoint of the
/// program, they are among the callee's precondition.
pub fn call_context<D: NumericDomain>(
    program: &AbstractProgram,
    fixpoint: &Fixpoint<D>,
    caller: AbsProcId,
    callee: AbsProcId,
) -> Option<D> {
    let psi = fixpoint.pre.get(caller)?.as_ref()?;
    let inputs = program.procs.get(callee)?.inputs;
    let mut joined: Option<D> = None;
    for rule in &program.procs[caller].rules {
        walk_rule(program, &fixpoint.post, caller, rule, psi, &mut |event| {
            if let Event::Call { callee: c, args, state } = event {
                if c == callee {
                    let mut context = call_condition(program, callee, state, args, rule);
                    if context.dimensions() != inputs {
                        let mapping: Vec<Option<Dimension>> =
                            (0..context.dimensions()).map(|d| (d < inputs).then_some(d)).collect();
                        context = context.map_dims(&mapping, inputs);
                    }
                    joined = Some(match joined.take() {
                        None => context,
                        Some(j) => j.join(&context),
                    });
                }
            }
        });
    }
    joined.filter(|j| !j.is_empty())
}
