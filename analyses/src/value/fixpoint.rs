//! The top-down PRE/POST fixpoint of the value analysis (COSTA, Alonso et al. Alg. 1) over an
//! abstract program, with widening after a delay (thresholds from the procedure's guards).
//!
//! `PRE[q]` (over `q`'s inputs) holds whenever `q` is called from the entries; `POST[q]` (over its
//! inputs then outputs) holds whenever `q` returns. **Both over-approximate every concrete run
//! (under the assumptions of `compile`); `None` means unreachable (false).** A procedure whose
//! PRE or POST changes more than `MAX_UPDATES` times is set to the universe, which is sound.
//!
//! With [`solve_with_cases`], `CASES[q]` also splits `POST[q]` by the constant values its outputs
//! take (a search's `-1` apart from the index it found, a loop's exits apart): each case
//! over-approximates the runs that return with its outputs' constants (the last case also takes
//! the runs past `MAX_CASES` kinds, and a case absorbs the cases of more constants it includes),
//! and the cases together cover every run that returns. A rule that calls a procedure with cases
//! is walked a second time, going on once per case from the call's state met with it (at most
//! `MAX_RULE_FORKS` ways per rule), for its own procedure's cases; its first, convex walk alone
//! gives PRE and POST, which are therefore the same with cases or without.

use super::domain::{Constraint, Dimension, LinearExpr, NumericDomain, Polyhedron, Rational};
use super::limits::{MAX_EVALUATIONS, MAX_UPDATES, WIDENING_DELAY};
use super::overflow;
use super::program::{AbsProcId, AbstractProgram, AbstractRule, Item, Origin};
use std::collections::{BTreeSet, VecDeque};

/// The result of the fixpoint: pre- and post-conditions per abstract procedure.
#[derive(Clone, Debug)]
pub struct Fixpoint<D = Polyhedron> {
    pub pre: Vec<Option<D>>,
    pub post: Vec<Option<D>>,
    /// The cases of each procedure's POST (over its inputs then outputs), where it has at least
    /// two; empty otherwise.
    pub cases: Vec<Vec<D>>,
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
    solve_with(program, entries, max_evaluations, stop, false, false)
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
    solve_with(program, entries, max_evaluations, stop, true, false)
}

/// [`solve_within`] (or [`solve_until_opaque`], with `until_opaque`) that also splits the POSTs
/// into their cases (`Fixpoint::cases`, empty otherwise): more precise where a caller tests
/// what a callee returns, and slower, so for the analyses of a few methods.
pub fn solve_with_cases<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    max_evaluations: usize,
    stop: &dyn Fn() -> bool,
    until_opaque: bool,
) -> Fixpoint<D> {
    solve_with(program, entries, max_evaluations, stop, until_opaque, true)
}

fn solve_with<D: NumericDomain>(
    program: &AbstractProgram,
    entries: &[(AbsProcId, D)],
    max_evaluations: usize,
    stop: &dyn Fn() -> bool,
    until_opaque: bool,
    cases: bool,
) -> Fixpoint<D> {
    let mut solver = Solver::new(program);
    solver.until_opaque = until_opaque;
    solver.track_cases = cases;
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
        cases: vec![Vec::new(); n],
        evaluations: 0,
        exhausted: false,
        overflows: BTreeSet::new(),
    }
}

/// What one evaluation of a rule gives: its convex result, and its results split by the cases of
/// the procedures it calls.
struct Evaluated<D> {
    result: Option<D>,
    /// `None` when the rule calls no procedure with cases: its convex result is its only one.
    cases: Option<Vec<D>>,
}

/// The most cases of a procedure's POST.
pub const MAX_CASES: usize = 4;

/// The most ways one rule's evaluation goes on past calls of procedures with cases.
pub const MAX_RULE_FORKS: usize = 8;

/// The constant values of some outputs (by output position), which every state of a case has.
type CaseKey = Vec<(usize, Rational)>;

/// One case of a procedure's POST: its key (`None` for the last case once the kinds ran out),
/// its condition and how often it changed.
struct Case<D> {
    key: Option<CaseKey>,
    condition: D,
    updates: usize,
}

struct Solver<'a, D> {
    program: &'a AbstractProgram,
    pre: Vec<Option<D>>,
    post: Vec<Option<D>>,
    cases: Vec<Vec<Case<D>>>,
    pre_updates: Vec<usize>,
    post_updates: Vec<usize>,
    callers: Vec<Vec<AbsProcId>>,
    thresholds: Vec<Vec<Constraint>>,
    queue: VecDeque<AbsProcId>,
    queued: Vec<bool>,
    overflows: BTreeSet<(AbsProcId, u32)>,
    /// Stop at the first opaque item a state reaches.
    until_opaque: bool,
    /// Split the POSTs into cases.
    track_cases: bool,
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
            cases: (0..n).map(|_| Vec::new()).collect(),
            pre_updates: vec![0; n],
            post_updates: vec![0; n],
            callers,
            thresholds,
            queue: VecDeque::new(),
            queued: vec![false; n],
            overflows: BTreeSet::new(),
            until_opaque: false,
            track_cases: false,
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
            let mut results = Vec::new();
            for rule in &proc.rules {
                let evaluated = self.evaluate(q, rule, &psi);
                if self.track_cases {
                    results.extend(
                        evaluated
                            .cases
                            .unwrap_or_else(|| evaluated.result.iter().cloned().collect()),
                    );
                }
                if let Some(result) = evaluated.result {
                    delta = Some(match delta {
                        None => result,
                        Some(d) => d.join(&result),
                    });
                }
            }
            if let Some(delta) = delta {
                let cases_changed = self.add_cases(q, results);
                if self.add_post(q, delta) || cases_changed {
                    for caller in self.callers[q].clone() {
                        self.enqueue(caller);
                    }
                }
            }
            if self.reached_opaque.is_some() {
                exhausted = true;
                break;
            }
        }
        let cases = self
            .cases
            .into_iter()
            .map(|cases| match cases.len() {
                0 | 1 => Vec::new(),
                _ => cases.into_iter().map(|c| c.condition).collect(),
            })
            .collect();
        Fixpoint {
            reached_opaque: self.reached_opaque,
            pre: self.pre,
            post: self.post,
            cases,
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
    fn evaluate(&mut self, q: AbsProcId, rule: &AbstractRule, psi: &D) -> Evaluated<D> {
        let mut calls = Vec::new();
        let mut overflows = Vec::new();
        let mut opaque = None;
        let watch = self.until_opaque && self.reached_opaque.is_none();
        let no_cases = |_: AbsProcId| Vec::new();
        let convex = Callees {
            post: &self.post,
            cases: &no_cases,
        };
        let result = walk_rule(self.program, &convex, q, rule, psi, &mut |event| match event {
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
        // The cases walk the rule again, split at the calls of procedures with cases; what it
        // meets on the way the convex walk has reported.
        let split = self.tracks_cases(q)
            && rule.items.iter().any(|item| match item {
                Item::Call { callee, .. } => self.cases.get(*callee).is_some_and(|c| !c.is_empty()),
                _ => false,
            });
        let cases = match split {
            true => {
                let cases = |p: AbsProcId| self.cases[p].iter().map(|c| &c.condition).collect::<Vec<&D>>();
                let split = Callees {
                    post: &self.post,
                    cases: &cases,
                };
                Some(walk_rule(self.program, &split, q, rule, psi, &mut |_| {}))
            }
            false => None,
        };
        if opaque.is_some() {
            self.reached_opaque = opaque;
        }
        for (callee, condition) in calls {
            self.add_pre(callee, condition);
        }
        self.overflows.extend(overflows.into_iter().map(|pc| (q, pc)));
        Evaluated {
            cases,
            result: result.into_iter().next(),
        }
    }

    /// Whether `q`'s POST is split into cases: a procedure with outputs, other than an auxiliary
    /// operation (whose cases are its rules, which the cost solver splits by itself).
    fn tracks_cases(&self, q: AbsProcId) -> bool {
        let proc = &self.program.procs[q];
        self.track_cases && proc.outputs > 0 && !matches!(proc.origin, Origin::Aux(_))
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

    /// Joins `condition` into `POST[q]`; whether it changed.
    fn add_post(&mut self, q: AbsProcId, condition: D) -> bool {
        let dims = self.program.procs[q].inputs + self.program.procs[q].outputs;
        let updated = match &self.post[q] {
            None => condition,
            Some(old) if old.includes(&condition) => return false,
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
        true
    }

    /// Adds each result of `q`'s rules to the case of its outputs' constants; whether a case
    /// changed.
    fn add_cases(&mut self, q: AbsProcId, results: Vec<D>) -> bool {
        let proc = &self.program.procs[q];
        if !self.tracks_cases(q) {
            return false;
        }
        // One update per case and evaluation, as for the POST.
        let mut joined: Vec<(CaseKey, D)> = Vec::new();
        for result in results {
            let key = case_key(&result, proc.inputs, proc.outputs);
            match joined.iter_mut().find(|(k, _)| *k == key) {
                Some((_, condition)) => *condition = condition.join(&result),
                None => joined.push((key, result)),
            }
        }
        let mut changed = false;
        for (key, condition) in joined {
            changed |= self.add_case(q, key, condition);
        }
        changed
    }

    /// Joins `condition` into the case of `key` (a new case while there are fewer than
    /// [`MAX_CASES`], else the last); whether it changed. A case absorbs the cases of more
    /// constants that it includes (a search's index found at `0` and at `1` in its first
    /// iterations, before the widening makes it any index at or after the start): they would
    /// only take the places of cases that matter, and it covers their runs.
    fn add_case(&mut self, q: AbsProcId, key: CaseKey, condition: D) -> bool {
        let dims = self.program.procs[q].inputs + self.program.procs[q].outputs;
        let cases = &mut self.cases[q];
        let covered = cases.iter().any(|c| {
            c.key.as_ref().is_some_and(|k| k != &key && is_subkey(k, &key)) && c.condition.includes(&condition)
        });
        if covered {
            return false;
        }
        let at = match cases.iter().position(|c| c.key.as_ref() == Some(&key)) {
            Some(at) => at,
            None if cases.len() < MAX_CASES => {
                cases.push(Case {
                    key: Some(key),
                    condition,
                    updates: 0,
                });
                return absorb(cases, cases.len() - 1);
            }
            None => {
                let last = cases.len() - 1;
                cases[last].key = None;
                last
            }
        };
        let case = &mut cases[at];
        if case.condition.includes(&condition) {
            return false;
        }
        case.updates += 1;
        let joined = case.condition.join(&condition);
        case.condition = if case.updates > MAX_UPDATES {
            D::universe(dims)
        } else if case.updates > WIDENING_DELAY {
            case.condition.widen(&joined, &[])
        } else {
            joined
        };
        absorb(cases, at)
    }
}

/// Whether every constant of key `sub` is one of `key`'s: a case of `sub` may cover `key`'s runs.
fn is_subkey(sub: &CaseKey, key: &CaseKey) -> bool {
    sub.iter().all(|fixed| key.contains(fixed))
}

/// After case `at` changed: drops the other cases of more constants than its own that it
/// includes (the last case, of no key, is kept). Always true (the cases changed).
fn absorb<D: NumericDomain>(cases: &mut Vec<Case<D>>, at: usize) -> bool {
    let Some(own) = cases[at].key.clone() else {
        return true;
    };
    let wider = cases[at].condition.clone();
    let mut index = 0;
    cases.retain(|c| {
        index += 1;
        let absorbed = index - 1 != at
            && c.key.as_ref().is_some_and(|k| k != &own && is_subkey(&own, k))
            && wider.includes(&c.condition);
        !absorbed
    });
    true
}

/// The outputs of `result` (over `inputs` then `outputs` dimensions) that it fixes to one value,
/// with it (exact bounds: a constant may be implied by constraints over several dimensions).
fn case_key<D: NumericDomain>(result: &D, inputs: usize, outputs: usize) -> CaseKey {
    (0..outputs)
        .filter_map(|j| {
            let expression = LinearExpr::from_terms(&[(inputs + j, 1)], 0)?;
            match result.bounds(&expression) {
                (Some(lo), Some(hi)) if lo == hi => Some((j, lo)),
                _ => None,
            }
        })
        .collect()
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

/// What a rule's walk knows of the procedures it calls: their POSTs and the cases of each.
struct Callees<'c, D> {
    post: &'c [Option<D>],
    cases: &'c dyn Fn(AbsProcId) -> Vec<&'c D>,
}

/// Where a walk through a rule stands: the rule's dimensions, the inputs and outputs it keeps,
/// the dimensions dead after each point, and how many ways the walk may still split.
struct Walk<'w> {
    rule: &'w AbstractRule,
    dims: usize,
    kept: usize,
    dead_after: Vec<Vec<Dimension>>,
    forks: usize,
}

/// Evaluates one rule of `q` under precondition `psi`, with the callees' post-conditions and
/// their cases: its results over the procedure's inputs and outputs (one per case of the calls
/// it went on past separately; none when the rule cannot complete normally). Every call reached
/// (including one whose callee never returns) and every possible overflow is reported to
/// `visit`, in order along each way.
fn walk_rule<D: NumericDomain>(
    program: &AbstractProgram,
    callees: &Callees<'_, D>,
    q: AbsProcId,
    rule: &AbstractRule,
    psi: &D,
    visit: &mut dyn FnMut(Event<'_, D>),
) -> Vec<D> {
    let proc = &program.procs[q];
    let dims = rule.dims.max(proc.inputs + proc.outputs);
    let kept = proc.inputs + proc.outputs;
    let mut state = psi.add_dims(dims.saturating_sub(psi.dimensions()));
    state.add_constraints(rule.guard.iter().cloned());
    if state.is_empty() {
        return Vec::new();
    }
    // Dimensions other than the inputs and outputs are projected out after their last use,
    // which keeps the state small in long rules (exact: nothing later mentions them).
    let dead_after = dead_dimensions(rule, kept, &[]);
    state = state.project_out(&dead_after[0]);
    let mut walk = Walk {
        rule,
        dims,
        kept,
        dead_after,
        forks: MAX_RULE_FORKS,
    };
    let mut results = Vec::new();
    walk_items(program, callees, &mut walk, 0, state, visit, &mut results);
    results
}

/// Walks the items of `walk.rule` from item `from` in `state`, adding each result to `results`.
fn walk_items<D: NumericDomain>(
    program: &AbstractProgram,
    callees: &Callees<'_, D>,
    walk: &mut Walk<'_>,
    from: usize,
    mut state: D,
    visit: &mut dyn FnMut(Event<'_, D>),
    results: &mut Vec<D>,
) {
    let rule = walk.rule;
    for (k, item) in rule.items.iter().enumerate().skip(from) {
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
                let Some(post) = &callees.post[callee] else {
                    return;
                };
                let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
                state = state.meet(&embed(post, &targets, walk.dims));
                // A callee that never returns here ends the rule.
                if state.is_empty() {
                    return;
                }
                // Only a call whose results the rule goes on to use is worth following per case.
                let used = outs.iter().any(|d| !walk.dead_after[k + 1].contains(d));
                let cases = if used { (callees.cases)(callee) } else { Vec::new() };
                if let [only] = cases.as_slice() {
                    state = state.meet(&embed(only, &targets, walk.dims));
                    if state.is_empty() {
                        return;
                    }
                } else if cases.len() > 1 && cases.len() <= walk.forks {
                    // Each case goes on its own way, sharing what is left of the forks.
                    walk.forks /= cases.len();
                    for case in cases {
                        let split = state.meet(&embed(case, &targets, walk.dims));
                        if !split.is_empty() {
                            let split = split.project_out(&walk.dead_after[k + 1]);
                            walk_items(program, callees, walk, k + 1, split, visit, results);
                        }
                    }
                    return;
                }
            }
        }
        if !walk.dead_after[k + 1].is_empty() {
            state = state.project_out(&walk.dead_after[k + 1]);
        }
    }
    if state.is_empty() || !rule.returns {
        return;
    }
    let mapping: Vec<Option<Dimension>> = (0..walk.dims).map(|d| (d < walk.kept).then_some(d)).collect();
    results.push(state.map_dims(&mapping, walk.kept));
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
    let cases = |p: AbsProcId| fixpoint.cases.get(p).map(|c| c.iter().collect()).unwrap_or_default();
    let callees = Callees {
        post: &fixpoint.post,
        cases: &cases,
    };
    for rule in &program.procs[caller].rules {
        walk_rule(program, &callees, caller, rule, psi, &mut |event| {
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
