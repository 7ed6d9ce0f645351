//! Cost relations solved into closed forms, bottom-up over the strongly connected components of
//! the abstract program's call graph (COSTA-style).
//!
//! A procedure outside any cycle costs the maximum over its feasible rules of the rule's own cost
//! plus its calls' costs, each callee bound rewritten into the caller's inputs by maximisation
//! (projecting the rule's constraints onto the inputs and an upper bound). A cycle with a single
//! head (a loop header, or a recursive method's entry) is unfolded into paths from the head back to
//! it (iterations) or out of it (exits): a ranking function of the iteration transitions bounds the
//! number of iterations (`nat`, `log2`), the invariant relative to the head's entry values bounds
//! each path's cost in terms of them, and
//! `cost ≤ iterations · max(iteration cost) + max(exit cost)`; with `b ≥ 2` recursive calls on a
//! path the recursion tree has at most `2^(⌈log2 b⌉·(depth+1))` nodes.
//!
//! **Every bound is an upper bound of every concrete run that satisfies the value analysis'
//! assumptions; when a step cannot be proven (no ranking function, a cost that cannot be bounded
//! in terms of the inputs, a budget exceeded), the result is `Unknown` with the reason — never a
//! guess.** Parameters of bounds are named `%i` for the procedure's `i`-th input.

use super::cases;
use super::compare;
use super::divide;
use super::expr::{CostExpr, Linear};
use super::lexicographic;
use super::phases::Phase;
use super::ranking::{self, Affine, Ranking};
use super::refine;
use crate::cost_model::CostModel;
use crate::value::domain::{Constraint, Dimension, LinearExpr, NumericDomain, Relation};
use crate::value::fixpoint::{call_context, dead_dimensions, embed, restrict, Fixpoint};
use crate::value::overflow;
use crate::value::program::{AbsProcId, AbstractProc, AbstractProgram, AbstractRule, AuxOp, Item, Origin, Width};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use petgraph::graphmap::DiGraphMap;
use std::collections::{HashMap, HashSet};

/// Paths explored per cycle before giving up (the cost of a cycle is exponential in its branches).
pub const MAX_PATHS: usize = 512;
/// Widening delay and step budget of the invariant of a cycle relative to its entry values.
pub const INVARIANT_DELAY: usize = 2;
pub const INVARIANT_STEPS: usize = 30;

/// The words of every reason given when a cost exists but depends on values that the inputs do
/// not bound (callers look for them to decide whether more precise values could help).
pub const NOT_BOUNDED_BY_INPUTS: &str = "cannot be bounded in terms of the inputs";

/// How the reason starts when a loop's iterations are not bounded by the inputs: the loop's head
/// procedure follows.
pub const ITERATIONS_OF_LOOP: &str = "the iterations of the loop";

/// How the reason of a loop or recursion without a ranking function starts.
pub const NO_RANKING_FUNCTION: &str = "no ranking function found for";

/// How the reason of a procedure on a cycle whose head has no bound starts (the head and its
/// reason follow).
pub const INSIDE_A_CYCLE: &str = "inside a cycle";

/// The cost of a procedure in terms of its inputs (`%0`, `%1`, ...).
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Bounded(CostExpr),
    /// No bound could be proven; the reason says where.
    Unknown(String),
}

/// What the cost analysis found for a cycle head: its iteration bound and ranking function.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopInfo {
    pub head: AbsProcId,
    pub ranking: Option<Ranking>,
    /// The bound on iterations (or recursion depth) in terms of the head's inputs.
    pub iterations: Option<CostExpr>,
    /// Whether, once reached, the cycle provably never ends: every path goes round again and no
    /// statement on the way can throw or call out of the cycle.
    pub never_exits: bool,
    /// Where no ranking function was found: by how much one iteration may change each of the
    /// head's inputs (`ranking::changes`), for the reason; empty otherwise.
    pub changes: Vec<ranking::Change>,
}

/// Costs of every abstract procedure, and what was found for each cycle.
#[derive(Clone, Debug)]
pub struct Costs {
    pub bounds: Vec<Bound>,
    pub loops: Vec<LoopInfo>,
    /// Per procedure, whether every run of it from its precondition terminates (normally or with
    /// an exception), whether or not its cost is bounded by its inputs: it reaches no opaque item,
    /// every cycle on the way has a ranking function, and every callee terminates.
    pub terminates: Vec<bool>,
}

/// The name, inside a loop's solution, of the number of iterations run since the loop was
/// entered (see `Solver::counted_total`); it never appears in a bound outside it.
const ITERATIONS_SO_FAR: &str = "%iterations";

/// The name of input `i` in bounds.
pub fn input_name(i: usize) -> String {
    format!("%{i}")
}

/// Solves the costs of every procedure.
pub fn solve<D: NumericDomain>(program: &AbstractProgram, fixpoint: &Fixpoint<D>, model: CostModel) -> Costs {
    let n = program.procs.len();
    // Calls from procedures the value analysis never reached (code behind a branch it proved
    // dead, such as a disabled `assert`) join no cycle: their costs are never asked for.
    let mut graph: DiGraphMap<usize, ()> = DiGraphMap::new();
    for p in 0..n {
        graph.add_node(p);
        if fixpoint.pre[p].is_none() {
            continue;
        }
        for rule in &program.procs[p].rules {
            for item in &rule.items {
                if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                    if *callee < n {
                        graph.add_edge(p, *callee, ());
                    }
                }
            }
        }
    }
    let mut solver = Solver {
        program,
        model_counts_bytecodes: model.counts_bytecodes(),
        fixpoint,
        bounds: vec![Bound::Unknown("not analysed".into()); n],
        loops: Vec::new(),
        amortised: HashMap::new(),
        terminates: vec![false; n],
        size_reliant: vec![false; n],
        sized_heads: HashSet::new(),
        unfolding: std::cell::Cell::new(0),
        counted_exits: HashMap::new(),
    };
    // Tarjan's algorithm yields components callees first.
    for component in petgraph::algo::tarjan_scc(&graph) {
        let cyclic = component.len() > 1 || graph.contains_edge(component[0], component[0]);
        let loops_before = solver.loops.len();
        if cyclic {
            solver.cycle(&component);
        } else {
            let p = component[0];
            solver.bounds[p] = solver.acyclic(p);
        }
        let terminates = solver.component_terminates(&component, cyclic, loops_before);
        let size_reliant = solver.component_size_reliant(&component, loops_before);
        for &p in &component {
            solver.terminates[p] = terminates;
            solver.size_reliant[p] = size_reliant;
        }
    }
    Costs {
        bounds: solver.bounds,
        loops: solver.loops,
        terminates: solver.terminates,
    }
}

struct Solver<'a, D> {
    program: &'a AbstractProgram,
    /// Whether the cost model counts bytecodes (markers cost their `return` then).
    model_counts_bytecodes: bool,
    fixpoint: &'a Fixpoint<D>,
    bounds: Vec<Bound>,
    loops: Vec<LoopInfo>,
    /// Loops whose cost has an amortised form, by head.
    amortised: HashMap<AbsProcId, Amortised<D>>,
    /// Per procedure solved so far, whether all its runs terminate (`Costs::terminates`).
    terminates: Vec<bool>,
    /// Per procedure solved so far, whether its termination may rest on the acyclic heap it
    /// starts from: a ranking function of it or of a callee mentions a reference's size, or a
    /// library method's summary (which may) stands for a callee.
    size_reliant: Vec<bool>,
    /// The loop heads whose ranking functions all mention a reference's size.
    sized_heads: HashSet<AbsProcId>,
    /// How many calls deep `unfolded_cost` is.
    unfolding: std::cell::Cell<usize>,
    /// Loops whose returning runs are related to their iterations (see [`CountedExit`]), by head.
    counted_exits: HashMap<AbsProcId, CountedExit<D>>,
}

/// What every run of a loop that returns satisfies, with `c` the iterations it ran: a relation
/// over `(inputs, c, outputs)` and the bound on `c` over the inputs (`%i`). A caller that cannot
/// bound a value the loop returned in its own inputs bounds it through `c` (KoAT's size bounds:
/// `i` counted from 0 to `n` leaves as at most `nat(n)`, though the hull of its exits bounds it by
/// nothing when `n` may be negative).
struct CountedExit<D> {
    relation: D,
    iterations: CostExpr,
}

/// The prefix of the names of called loops' iterations (see [`loop_ghost_name`]).
const LOOP_GHOST_PREFIX: &str = "%loop";

/// How the iterations of the loop called at a rule's item `k` are named while the rule is costed.
fn loop_ghost_name(k: usize) -> String {
    format!("{LOOP_GHOST_PREFIX}{k}")
}

/// The most nested calls `Solver::unfolded_cost` unfolds.
const MAX_UNFOLDING: usize = 1;

/// A linear expression over dimensions with rational coefficients, scaled to integers:
/// `(integer expression, positive scale)` with `e = expression / scale`.
pub(super) fn scaled(terms: &[(Dimension, BigRational)], constant: &BigRational) -> Option<(LinearExpr, BigInt)> {
    let scale = terms
        .iter()
        .map(|(_, a)| a.denom().clone())
        .chain(std::iter::once(constant.denom().clone()))
        .fold(BigInt::one(), |acc, d| acc.lcm(&d));
    let to_i64 = |r: &BigRational| (r * BigRational::from_integer(scale.clone())).to_integer().to_i64();
    let integer_terms: Option<Vec<(Dimension, i64)>> = terms.iter().map(|(d, a)| Some((*d, to_i64(a)?))).collect();
    Some((LinearExpr::from_terms(&integer_terms?, to_i64(constant)?)?, scale))
}

/// An upper bound of `e` (over `state`'s dimensions) that mentions only `params` (named by
/// `names`), from the constraints of `state`; `None` when `e` is unbounded there.
pub(super) fn upper_bound<D: NumericDomain>(
    state: &D,
    e: &LinearExpr,
    params: &[Dimension],
    names: &[String],
) -> Option<Linear> {
    upper_bounds(state, e, params, names, false).map(|(best, _)| best)
}

/// [`upper_bound`], and with `alternatives`, another bound of `e` in the parameters that the
/// state also proves, over parameters the first does not all have (`k + 1 ≤ |a|` besides
/// `k + 1` itself): the least of the two is the bound, the first is tight where the second
/// names the size it is within. None that stands on the types' limits or on loops' iterations.
pub(super) fn upper_bounds<D: NumericDomain>(
    state: &D,
    e: &LinearExpr,
    params: &[Dimension],
    names: &[String],
    alternatives: bool,
) -> Option<(Linear, Option<Linear>)> {
    let rational = |x: i64| BigRational::from_integer(BigInt::from(x));
    let as_linear = |expr: &LinearExpr, divisor: &BigRational| -> Option<Linear> {
        let mut linear = Linear::constant(0);
        linear.constant = rational(expr.constant_term()) / divisor;
        for (d, a) in expr.terms() {
            let k = params.iter().position(|p| *p == d)?;
            let value = rational(a) / divisor;
            linear.terms.insert(names[k].clone(), value);
        }
        Some(linear)
    };
    let exact = e
        .terms()
        .all(|(d, _)| params.contains(&d))
        .then(|| as_linear(e, &BigRational::one()))
        .flatten();
    if exact.is_some() && !alternatives {
        return exact.map(|b| (b, None));
    }
    let dims = state.dimensions();
    let mut extended = state.add_dims(1);
    let t = dims;
    let defining = LinearExpr::from_terms(&[(t, -1)], 0)?.checked_add(e)?;
    extended.add_constraint(Constraint::equal_zero(defining));
    let drop: Vec<Dimension> = (0..dims).filter(|d| !params.contains(d)).collect();
    let projected = extended.project_out(&drop);
    // Each candidate: the bound, and `(rest, -a)` with `t ≤ rest / -a`.
    let candidates_in = |projected: &D| -> Option<Vec<(Linear, LinearExpr, i64)>> {
        let mut candidates = Vec::new();
        for c in projected.constraints() {
            let a_t = c.expression().coefficient(t);
            let forms: Vec<(LinearExpr, i64)> = match c.relation() {
                crate::value::polyhedra::Relation::GreaterOrEqual if a_t < 0 => {
                    vec![(c.expression().clone(), a_t)]
                }
                crate::value::polyhedra::Relation::Equal if a_t != 0 => {
                    let e = c.expression().clone();
                    if a_t < 0 {
                        vec![(e, a_t)]
                    } else {
                        vec![(e.checked_neg()?, -a_t)]
                    }
                }
                _ => continue,
            };
            for (expr, a) in forms {
                // a·t + rest ≥ 0 with a < 0: t ≤ rest / -a.
                let rest = expr.checked_sub(&LinearExpr::from_terms(&[(t, a)], 0)?)?;
                if let Some(bound) = as_linear(&rest, &rational(-a)) {
                    candidates.push((bound, rest, -a));
                }
            }
        }
        Some(candidates)
    };
    let best = match exact {
        Some(exact) => exact,
        None => {
            let candidates = candidates_in(&projected)?;
            let dominated = dominated_candidates(&projected, &candidates, preference);
            candidates
                .into_iter()
                .zip(dominated)
                .filter(|(_, dominated)| !dominated)
                .map(|((bound, _, _), _)| bound)
                .min_by_key(preference)?
        }
    };
    let plain = |b: &Linear| {
        let (ghost, not_so_far, sized, _, _) = preference(b);
        !ghost && not_so_far && !sized && !b.terms.is_empty()
    };
    if !alternatives || !plain(&best) {
        return Some((best, None));
    }
    // The bounds without each parameter of the first in turn (none where one fails: the first
    // stands alone).
    let mut others = Vec::new();
    for name in best.terms.keys() {
        let Some(k) = names.iter().position(|n| n == name) else {
            return Some((best, None));
        };
        match candidates_in(&projected.project_out(&[params[k]])) {
            Some(found) => others.extend(found),
            None => return Some((best, None)),
        }
    }
    let adds = |b: &Linear| b.terms.keys().any(|name| !best.terms.contains_key(name));
    let removes = |b: &Linear| best.terms.keys().any(|name| !b.terms.contains_key(name));
    let other = others
        .into_iter()
        .map(|(bound, _, _)| bound)
        .filter(|b| plain(b) && removes(b))
        .min_by_key(|b| (adds(b), preference(b)));
    Some((best, other))
}

/// Items a minimum in a callee's bound keeps once rewritten into a caller's parameters: each call
/// may add one (see [`upper_bounds`]), and the first are the tightest.
const MAX_MIN_ITEMS: usize = 3;

/// The order in which [`upper_bound`] prefers its candidates. Fewest parameters first, except
/// that a bound through the iterations so far (when they are a parameter) is preferred: the
/// caller compares the result with the bound found without them. A bound through a called
/// loop's iterations comes last: it serves where nothing else bounds the value. A constant as
/// large as the types' limits comes after any bound in the parameters (`|copy| ≤ 2147483646`,
/// true of every array, would hide that `|copy| ≤ |this| - 1`).
fn preference(b: &Linear) -> (bool, bool, bool, usize, BigRational) {
    (
        b.terms.keys().any(|name| name.starts_with(LOOP_GHOST_PREFIX)),
        !b.terms.contains_key(ITERATIONS_SO_FAR),
        ranking::is_type_range_sized(&b.constant),
        b.terms.len(),
        b.constant.clone(),
    )
}

/// Which of the candidate bounds `(bound, rest, scale)` (`t ≤ rest / scale`) another candidate
/// of the same kind (the second and third parts of `preference`) is at most everywhere in `state`,
/// without being equal to it there: `k ≤ hi - lo` over `k ≤ |tmp|` where the state says
/// `hi - lo ≤ |tmp|`. Fewer parameters alone would pick the looser one.
fn dominated_candidates<D: NumericDomain>(
    state: &D,
    candidates: &[(Linear, LinearExpr, i64)],
    preference: impl Fn(&Linear) -> (bool, bool, bool, usize, BigRational),
) -> Vec<bool> {
    // A bound through a called loop's iterations competes too: where the state says it is
    // the smaller, it is the one that says how the value was computed.
    let kind = |b: &Linear| {
        let (_, so_far, sized, _, _) = preference(b);
        (so_far, sized)
    };
    // Whether `lower ≤ upper` holds throughout `state`: `s_u·rest_l ≤ s_l·rest_u`.
    let at_most = |lower: &(Linear, LinearExpr, i64), upper: &(Linear, LinearExpr, i64)| -> bool {
        let difference = upper
            .1
            .checked_scale(lower.2)
            .zip(lower.1.checked_scale(upper.2))
            .and_then(|(u, l)| u.checked_sub(&l));
        difference.is_some_and(|d| state.entails(&Constraint::greater_or_equal_zero(d)))
    };
    let mut dominated = vec![false; candidates.len()];
    if candidates.len() < 2 {
        return dominated;
    }
    for (i, candidate) in candidates.iter().enumerate() {
        dominated[i] = candidates.iter().enumerate().any(|(j, other)| {
            j != i
                && kind(&other.0) == kind(&candidate.0)
                && other.0 != candidate.0
                && at_most(other, candidate)
                && !at_most(candidate, other)
        });
    }
    dominated
}

/// `e` (over a callee's input names `%i`) as an expression over the caller's dimensions `args`.
fn substitute(e: &Linear, args: &[Dimension]) -> Option<(LinearExpr, BigInt)> {
    let mut terms = Vec::new();
    for (name, a) in &e.terms {
        let index: usize = name.strip_prefix('%')?.parse().ok()?;
        terms.push((*args.get(index)?, a.clone()));
    }
    scaled(&terms, &e.constant)
}

/// The largest value of `e` (over `proc`'s inputs, `%i`) with every input within the JVM range
/// of its type, as a constant; `None` when an input it names has no known range.
fn type_range_max(proc: &AbstractProc, e: &Linear) -> Option<Linear> {
    let mut max = e.constant.clone();
    for (name, a) in &e.terms {
        let index: usize = name.strip_prefix('%')?.parse().ok()?;
        let width = proc
            .rules
            .iter()
            .flat_map(|r| &r.ranges)
            .find(|(d, _)| *d == index)
            .map(|(_, w)| *w)?;
        let (low, high) = width.interval()?;
        let end = if a.is_positive() { high } else { low };
        max += a * BigRational::from_integer(end);
    }
    Some(Linear {
        constant: max,
        terms: Default::default(),
    })
}

/// A ranking function's affine function as a linear expression over input names.
pub(super) fn affine_to_linear(f: &Affine) -> Linear {
    let mut linear = Linear::constant(0);
    linear.constant = f.constant.clone();
    for (i, a) in f.coefficients.iter().enumerate() {
        if !a.is_zero() {
            linear.terms.insert(input_name(i), a.clone());
        }
    }
    linear
}

/// The iteration bound a ranking function gives (none for a lexicographic one: its caller bounds
/// those whose components never increase).
/// The calls of a recursion that branches into at most `2^e` calls, each path of at most
/// `log2(nat(f)+1)` nested calls (`bits(nat(f))`, a halving ranking function `f`, as in divide and
/// conquer): `(2^e)^(depth+1) = 2^e·(2^depth)^e`, and `2^bits(x) <= 2x + 1`, so at most
/// `2^e·(2·nat(f) + 1)^e`: linear in `f` for two calls per level, quadratic for up to four.
fn logarithmic_depth_nodes(f: &Linear, e: i64) -> CostExpr {
    let level = CostExpr::add([CostExpr::nat(f.times(2)), CostExpr::constant(1)]);
    let factors = (0..e).map(|_| level.clone());
    CostExpr::mul(std::iter::once(CostExpr::pow2(Linear::constant(e))).chain(factors))
}

/// The calls of a recursion of `branching` calls per node whose branches nest at most
/// `iterations` calls: at most `b^(depth+1)`. A depth `c + d` (a constant more than `d`, as when
/// the last call of a branch is left out of the ranking) has `b^c` times the nodes of depth `d`.
fn branching_nodes(iterations: &CostExpr, branching: usize) -> Option<CostExpr> {
    let exponent_factor = i64::from(usize::BITS - (branching - 1).leading_zeros());
    if let CostExpr::Add(parts) = iterations {
        let mut constant = BigRational::zero();
        let mut rest = Vec::new();
        for part in parts {
            match part {
                CostExpr::Const(c) => constant += c,
                other => rest.push(other),
            }
        }
        let ([depth], false) = (rest.as_slice(), constant.is_negative()) else {
            return None;
        };
        let extra = Linear {
            constant,
            terms: Default::default(),
        };
        return Some(CostExpr::mul([
            CostExpr::pow2(extra.times(exponent_factor)),
            branching_nodes(depth, branching)?,
        ]));
    }
    Some(match iterations {
        CostExpr::Nat(f) => CostExpr::pow2(f.plus(&Linear::constant(1)).times(exponent_factor)),
        CostExpr::Log2(f) => logarithmic_depth_nodes(f, exponent_factor),
        CostExpr::Const(c) => CostExpr::pow2(
            Linear {
                constant: c + BigRational::one(),
                terms: Default::default(),
            }
            .times(exponent_factor),
        ),
        _ => return None,
    })
}

/// A linear ranking function of the same transitions without one of `f`'s variables that is at
/// most `f` wherever the loop is entered (`pre`) and below it somewhere, hence bounds its iterations
/// better: the guard's `hi - j` rather than the `|a| - 1 - j` that an array access also implies.
fn tighter_ranking<D: NumericDomain>(
    inputs: usize,
    pre: &D,
    ranked: &Ranked<D>,
    f: &Affine,
    ghosts: &[Dimension],
) -> Option<Affine> {
    let support: Vec<Dimension> = (0..inputs).filter(|&d| !f.coefficients[d].is_zero()).collect();
    support.iter().find_map(|&d| {
        let avoided: Vec<Dimension> = ghosts.iter().copied().chain(std::iter::once(d)).collect();
        let Some(Ranking::Linear(g)) = ranking::find_without(inputs, &ranked.ranked, &avoided, ranked.last_iteration)
        else {
            return None;
        };
        strictly_below(inputs, pre, &g, f).then_some(g)
    })
}

/// Whether `g <= f` wherever `pre` holds, and not `g = f` (an equal one is no better).
fn strictly_below<D: NumericDomain>(inputs: usize, pre: &D, g: &Affine, f: &Affine) -> bool {
    let terms: Vec<(Dimension, BigRational)> = (0..inputs)
        .map(|i| (i, &f.coefficients[i] - &g.coefficients[i]))
        .collect();
    let Some((difference, _)) = scaled(&terms, &(&f.constant - &g.constant)) else {
        return false;
    };
    let below = pre.entails(&Constraint::greater_or_equal_zero(difference.clone()));
    below
        && difference
            .checked_neg()
            .is_some_and(|negated| !pre.entails(&Constraint::greater_or_equal_zero(negated)))
}

/// The head's states `(x0, x)` on entry to a loop (`2n` dims): `x = x0`, where `pre` holds.
fn entry_state<D: NumericDomain>(n: usize, pre: &D) -> D {
    let mut entry = pre.map_dims(&(0..n).map(Some).collect::<Vec<_>>(), 2 * n);
    for d in 0..n {
        if let Some(e) = LinearExpr::from_terms(&[(d, 1), (n + d, -1)], 0) {
            entry.add_constraint(Constraint::equal_zero(e));
        }
    }
    entry
}

/// The states `(x0, x)` reachable from `start` by `transitions`, with widening; `None` when the
/// iteration does not stabilise within `INVARIANT_STEPS`.
fn closure<D: NumericDomain>(n: usize, start: D, transitions: &[D]) -> Option<D> {
    let mut current = start;
    for step in 0..INVARIANT_STEPS {
        let mut next = current.clone();
        for t in transitions {
            next = next.join(&after(n, &current, t, None));
        }
        if current.includes(&next) {
            return Some(current);
        }
        current = if step >= INVARIANT_DELAY {
            current.widen(&next, &[])
        } else {
            next
        };
    }
    None
}

/// The cost of a loop from its [`Solver::counted_paths`]: `c`, at most `iterations`, eliminated
/// from `iterations · max(iteration) + max(exit)`. A value that grows by at most `k` per
/// iteration, and that no linear invariant bounds in the entry values, is thus bounded by its
/// entry value plus `k·iterations`.
fn counted_total<D>(paths: &[Path<D>], iterations: &CostExpr) -> Option<CostExpr> {
    let iteration_cost = CostExpr::max(paths.iter().filter(|p| p.back_calls > 0).map(|p| p.cost.clone()));
    let exit_cost = CostExpr::max(paths.iter().filter(|p| p.back_calls == 0).map(|p| p.cost.clone()));
    CostExpr::add([CostExpr::mul([iterations.clone(), iteration_cost]), exit_cost])
        .eliminate_bounded(ITERATIONS_SO_FAR, iterations)
}

/// The relation over `(inputs, c, outputs)` of every run of a loop (of `n` inputs) that returns,
/// from its [`Solver::counted_paths`]; `None` when a path that may return does not relate its
/// outputs.
fn counted_exit_relation<D: NumericDomain>(n: usize, paths: &[Path<D>]) -> Option<D> {
    let mut relation: Option<D> = None;
    for path in paths.iter().filter(|p| p.returns) {
        let exit = path.exit.as_ref()?;
        relation = Some(match relation {
            None => exit.clone(),
            Some(r) => r.join(exit),
        });
    }
    // (x0, 0, c, x, outputs) to (x0, c, outputs).
    let relation = relation?;
    let dims = relation.dimensions();
    let mapping: Vec<Option<Dimension>> = (0..dims)
        .map(|d| match d {
            d if d < n => Some(d),
            d if d == n + 1 => Some(n),
            d if d >= 2 * n + 2 => Some(d - n - 1),
            _ => None,
        })
        .collect();
    Some(relation.map_dims(&mapping, dims - n - 1))
}

/// The states `(x0, 0, c, x)` (`2n + 2` dims) a loop's head reaches from entry values `x0` after
/// `c` iterations of `transitions` (over `(x, x')`), with widening; `None` when they do not
/// stabilise within `INVARIANT_STEPS` or a transition carries more than the head's inputs.
fn counted_invariant<D: NumericDomain>(n: usize, pre: &D, transitions: &[D]) -> Option<D> {
    if transitions.iter().any(|t| t.dimensions() != 2 * n) {
        return None;
    }
    // The counter is one more input of the loop: 0 on entry, one more on every transition.
    let mut start = pre.add_dims(1);
    start.add_constraints(LinearExpr::from_terms(&[(n, 1)], 0).map(Constraint::equal_zero));
    let counted: Vec<D> = transitions
        .iter()
        .map(|t| {
            let mapping: Vec<Option<Dimension>> = (0..2 * n).map(|d| Some(if d < n { d } else { d + 1 })).collect();
            let mut t = ranking::without_type_range_rows(t).map_dims(&mapping, 2 * n + 2);
            t.add_constraints(LinearExpr::from_terms(&[(2 * n + 1, 1), (n, -1)], -1).map(Constraint::equal_zero));
            t
        })
        .collect();
    let reached = closure(n + 1, entry_state(n + 1, &start), &counted)?;
    // (x0, c0, x, c) to (x0, c0, c, x): the head's inputs last, where paths expect them.
    let mapping: Vec<Option<Dimension>> = (0..2 * n + 2)
        .map(|d| {
            Some(match d {
                d if d <= n => d,
                d if d == 2 * n + 1 => n + 1,
                d => d + 1,
            })
        })
        .collect();
    Some(reached.map_dims(&mapping, 2 * n + 2))
}

/// The steps `(x0, x, x')` of transition `t` from the states `(x0, x)` of `reached` (`3n` dims).
pub(super) fn after_step<D: NumericDomain>(n: usize, reached: &D, t: &D) -> D {
    let mapping: Vec<Option<Dimension>> = (0..2 * n).map(|d| Some(n + d)).collect();
    reached.add_dims(n).meet(&t.map_dims(&mapping, 3 * n))
}

/// The states `(x0, x')` after transition `t` from the states `(x0, x)` of `reached` (`2n` dims
/// each), with `x'` in `domain` (over `0..n`) when given.
fn after<D: NumericDomain>(n: usize, reached: &D, t: &D, domain: Option<&D>) -> D {
    // (x0, x) ∘ (x, x') over (x0, x, x'), then forget x.
    let mut composed = after_step(n, reached, t);
    if let Some(domain) = domain {
        let next: Vec<Dimension> = (2 * n..3 * n).collect();
        composed = composed.meet(&embed(domain, &next, 3 * n));
    }
    let mapping: Vec<Option<Dimension>> = (0..3 * n)
        .map(|d| match d {
            d if d < n => Some(d),
            d if d >= 2 * n => Some(d - n),
            _ => None,
        })
        .collect();
    composed.map_dims(&mapping, 2 * n)
}

/// Starts kept per phase; more are joined into one.
const MAX_PHASE_STARTS: usize = 8;

/// The states `(x0, x)` at which each phase of a loop may start, in the phases' order: on entry
/// (`entry`) in the domain of one of its transitions, or after a transition of an earlier phase
/// into the domain of one of its own, from the states that phase reaches from one of its starts.
/// `None` when a phase's reachable states do not stabilise.
fn phase_starts<D: NumericDomain>(n: usize, entry: &D, live: &[&D], phases: &[Phase]) -> Option<Vec<Vec<D>>> {
    let current: Vec<Dimension> = (0..n).collect();
    let next: Vec<Dimension> = (n..2 * n).collect();
    let domains: Vec<D> = live.iter().map(|t| restrict(*t, &current)).collect();
    let mut starts: Vec<Vec<D>> = Vec::new();
    for (k, phase) in phases.iter().enumerate() {
        let mut mine: Vec<D> = phase
            .transitions
            .iter()
            .map(|&u| entry.meet(&embed(&domains[u], &next, 2 * n)))
            .collect();
        for (earlier, from) in phases[..k].iter().zip(&starts) {
            let own: Vec<D> = earlier.transitions.iter().map(|&i| live[i].clone()).collect();
            for start in from {
                let reached = match earlier.ranking {
                    None => start.clone(),
                    Some(_) => closure(n, start.clone(), &own)?,
                };
                for &t in &earlier.transitions {
                    for &u in &phase.transitions {
                        mine.push(after(n, &reached, live[t], Some(&domains[u])));
                    }
                }
            }
        }
        mine.retain(|s| !s.is_empty());
        if mine.len() > MAX_PHASE_STARTS {
            let joined = mine.iter().skip(1).fold(mine[0].clone(), |acc, s| acc.join(s));
            mine = vec![joined];
        }
        starts.push(mine);
    }
    Some(starts)
}

/// `ranking` with each function that bounds its iterations replaced by an upper bound of it over
/// `invariant` (states, dimensions `n..2n`, relative to the loop's entry values `0..n`), for
/// the shapes whose iterations grow with those functions; `None` for the others.
fn bounded_over<D: NumericDomain>(invariant: &D, n: usize, ranking: &Ranking) -> Option<Ranking> {
    let names: Vec<String> = (0..n).map(input_name).collect();
    let params: Vec<Dimension> = (0..n).collect();
    let bound = |f: &Affine| -> Option<Affine> {
        let terms: Vec<(Dimension, BigRational)> = (0..n).map(|i| (n + i, f.coefficients[i].clone())).collect();
        let (expr, scale) = scaled(&terms, &f.constant)?;
        let upper = upper_bound(invariant, &expr, &params, &names)?;
        let scale = BigRational::from_integer(scale);
        let mut coefficients = vec![BigRational::zero(); n];
        for (name, a) in &upper.terms {
            let index: usize = name.strip_prefix('%')?.parse().ok()?;
            *coefficients.get_mut(index)? = a / &scale;
        }
        Some(Affine {
            coefficients,
            constant: &upper.constant / &scale,
        })
    };
    Some(match ranking {
        Ranking::Linear(f) => Ranking::Linear(bound(f)?),
        Ranking::Halving(f) => Ranking::Halving(bound(f)?),
        Ranking::Multiphase(components) => Ranking::Multiphase(components.iter().map(bound).collect::<Option<_>>()?),
        Ranking::Doubling { growing, bound: limit } => Ranking::Doubling {
            growing: growing.clone(),
            bound: bound(limit)?,
        },
        Ranking::Bounded(k) => Ranking::Bounded(*k),
        Ranking::Absolute(_) | Ranking::Lexicographic(_) | Ranking::Phases(_) => return None,
    })
}

/// The linear function a ranking function decreases, as a measure of a call tree's size.
fn ranking_measure(ranking: &Ranking) -> Option<Linear> {
    match ranking {
        Ranking::Linear(f) | Ranking::Halving(f) => Some(affine_to_linear(f)),
        _ => None,
    }
}

fn iterations_of(ranking: &Ranking) -> Option<CostExpr> {
    Some(match ranking {
        // Phases start from values the loop computes: `Solver::phase_iterations` bounds them.
        Ranking::Lexicographic(_) | Ranking::Phases(_) => return None,
        Ranking::Multiphase(components) => multiphase_iterations(components)?,
        Ranking::Linear(f) => CostExpr::nat(affine_to_linear(f)),
        Ranking::Bounded(k) => CostExpr::constant(i64::try_from(*k).ok()?),
        Ranking::Halving(f) => CostExpr::log2(affine_to_linear(f)),
        Ranking::Doubling { bound, .. } => CostExpr::log2(affine_to_linear(bound).minus(&Linear::constant(1))),
        Ranking::Absolute(f) => {
            // f(|x|) = L(x) + Σ c_i·|x_i| over the positive coefficients (a negative one only
            // stands on a variable that is never negative, where |x_i| = x_i), and
            // max(0, L + S) ≤ nat(L) + S with |x_i| = nat(x_i) + nat(-x_i).
            let mut rest = Linear::constant(0);
            rest.constant = f.constant.clone();
            let mut parts = Vec::new();
            for (i, c) in f.coefficients.iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                let mut term = Linear::constant(0);
                term.terms.insert(input_name(i), c.clone());
                if num_traits::Signed::is_positive(c) {
                    let mut negated = Linear::constant(0);
                    negated.terms.insert(input_name(i), -c.clone());
                    parts.push(CostExpr::nat(term));
                    parts.push(CostExpr::nat(negated));
                } else {
                    rest = rest.plus(&term);
                }
            }
            parts.push(CostExpr::nat(rest));
            CostExpr::add(parts)
        }
    })
}

/// `iterations` (over the head's inputs on entry) with every term `a·x`, `a < 0`, dropped where
/// every transition starts with `x >= 0`: from an entry with `x < 0` no iteration runs, and from
/// one with `x >= 0` dropping the term only increases its expression, as every constructor of a
/// bound is monotone in its linear arguments. So `hi - lo` under a guard `lo >= 0` counts as `hi`
/// (a recursive binary search is `O(log(hi))`, not `O(log(hi) + log(lo))`).
fn without_guarded_negatives<D: NumericDomain>(inputs: usize, transitions: &[D], iterations: CostExpr) -> CostExpr {
    let guarded: Vec<String> = (0..inputs)
        .filter(|&d| {
            let nonnegative = Constraint::greater_or_equal_zero(LinearExpr::variable(d));
            transitions.iter().all(|t| t.entails(&nonnegative))
        })
        .map(input_name)
        .collect();
    if guarded.is_empty() || transitions.iter().all(NumericDomain::is_empty) {
        return iterations;
    }
    let dropped = iterations.map_linears(&mut |l: &Linear| {
        let mut l = l.clone();
        l.terms
            .retain(|name, a| !(num_traits::Signed::is_negative(a) && guarded.contains(name)));
        Some(l)
    });
    dropped.unwrap_or(iterations)
}

/// The iterations a nested multiphase ranking function allows, as `Σ weight_i·nat(f_i) + extra`:
/// `2·nat(f_1) + nat(f_2) + 2` for two phases, `3·nat(f_1) + 3·nat(f_2) + nat(f_3) + 6` for
/// three; `None` for more.
///
/// With `a, b, c` the functions' values at entry (only their `nat` matters: each enters the
/// bounds below with a non-negative factor), transition `t` starts with `f_1 ≤ p_1(t) = a - t`
/// and, as `f_i` falls by at least `1 - f_{i-1}(x)`, `f_i ≤ p_i(t) = f_i(x_0) - t + Σ_{s<t}
/// p_{i-1}(s)`; the last function is non-negative on every transition taken, so no run takes a
/// transition from a `t` with `p_k(t) < 0`.
/// - Two phases: `p_2(t) = b - t + t·a - t(t-1)/2`, negative at `t = 2a + b + 2` (as
///   `t(t-1)/2 ≥ t·a + t(b+1)/2 > t·a + b - t`).
/// - Three: `p_3(t) = c - t + t·b + (a - 1)·t(t-1)/2 - t(t-1)(t-2)/6`; at `t = 3a + 3b + c + 6`,
///   `(t-2)/3 = a + b + c/3 + 4/3`, so `t(t-1)(t-2)/6 - (a-1)·t(t-1)/2 = t(t-1)/2·(b + c/3 + 7/3)`,
///   which exceeds `t·b + c - t` since `(t-1)/2 ≥ 5/2` and `t ≥ 6`.
fn multiphase_iterations(components: &[Affine]) -> Option<CostExpr> {
    let (weights, extra): (&[i64], i64) = match components.len() {
        2 => (&[2, 1], 2),
        3 => (&[3, 3, 1], 6),
        _ => return None,
    };
    let mut parts: Vec<CostExpr> = components
        .iter()
        .zip(weights)
        .map(|(f, &w)| {
            let f = affine_to_linear(f);
            let scaled = Linear::constant(0).add_scaled(&f, &BigRational::from_integer(BigInt::from(w)));
            CostExpr::nat(scaled)
        })
        .collect();
    parts.push(CostExpr::constant(extra));
    Some(CostExpr::add(parts))
}

/// The state of a path: a polyhedron over the head's entry values (`0..base`, when tracked), the
/// iteration's head inputs, in amortising mode an accumulator (see [`PathMode`]), and the current
/// rule's dimensions after them.
struct PathState<D> {
    state: D,
    /// Offset of the current rule's dimensions.
    offset: usize,
    cost: Vec<CostExpr>,
    /// In amortising mode, the costs without the amortised parts of inner loops.
    cost_rest: Vec<CostExpr>,
    back_calls: usize,
    joint: Joint<D>,
    may_escape: bool,
    /// Whether the current rule's outputs are the head's outputs (every step so far was a tail
    /// call passing its outputs on).
    linked: bool,
}

/// The calls back to the head of a path, related (see [`Path::joint`]).
#[derive(Clone)]
enum Joint<D> {
    /// No call back yet.
    None,
    /// One rule made them all: over (head inputs, the arguments of each call in turn).
    Related(D),
    /// Several rules made them.
    Unrelated,
}

/// How paths are enumerated.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PathMode {
    /// Calls of procedures with an [`Amortised<D>`] summary charge their exit cost to the path and
    /// add `iteration cost · count(args, outs)` to an accumulator dimension placed right after
    /// the head's inputs, which every transition then carries as its last dimension.
    amortise: bool,
    /// Rules that call auxiliary operations (`%`, `/`, shifts, ...) are split by the operations'
    /// cases (see [`aux_variants`]), so that transitions keep disjunctions the operations'
    /// convex post-conditions lose (`|x % y| < |y|` over all signs).
    split_aux: bool,
    /// With `split_aux`, wrapping `int` sums and differences are split by their cases too (see
    /// [`cases::wrap_variants`]).
    split_wraps: bool,
    /// Only the transitions matter (for termination): a callee or an amount whose cost is not
    /// bounded in terms of the inputs costs nothing instead of failing the path.
    costless: bool,
    /// The last of the parameters is the number of iterations so far, named
    /// [`ITERATIONS_SO_FAR`].
    counted: bool,
}

/// Variants of a rule split per auxiliary operation it calls, at most this many; past it the
/// rule is not split.
const MAX_AUX_VARIANTS: usize = 64;

/// A loop's first pass: its ranking function, if any, and what it was found from.
struct Ranked<D> {
    ranking: Option<Ranking>,
    /// The paths of the mode that found it.
    first: Vec<Path<D>>,
    /// Their transitions.
    transitions: Vec<D>,
    /// The transitions the ranking function ranks.
    ranked: Vec<D>,
    /// The mode the later passes take.
    mode: PathMode,
    /// Whether `ranked` leaves out the last iteration (see [`cases::chained`]).
    last_iteration: bool,
    /// Whether every ranking function of the transitions mentions a reference's size (so that
    /// termination rests on the acyclic heap the method starts from).
    rests_on_sizes: bool,
}

impl<D> Ranked<D> {
    /// Whether, once reached, the loop never exits: every path goes round again and none may
    /// escape.
    fn never_exits(&self) -> bool {
        !self.first.is_empty() && self.first.iter().all(|p| p.back_calls > 0 && !p.may_escape)
    }
}

/// Variants of a rule split per wrapping `int` operation it runs, at most this many.
const MAX_WRAP_VARIANTS: usize = 27;

/// What `rule_cost` finds of one rule.
struct RuleOutcome<D> {
    cost: CostExpr,
    /// In amortising mode, the cost without the amortised parts (else the same as `cost`).
    cost_rest: CostExpr,
    /// Calls of cycle members: callee, argument and output dimensions, and the state at the call.
    cycle_calls: Vec<CycleCall<D>>,
    /// Whether control reaches the end of the rule normally.
    completes: bool,
}

/// A call of a member of the cycle being solved.
struct CycleCall<D> {
    callee: AbsProcId,
    args: Vec<Dimension>,
    outs: Vec<Dimension>,
    /// The state at the call.
    state: D,
}

/// One path through a cycle, from the head to the head (iteration) or out (exit).
struct Path<D> {
    /// The transition over (head inputs, next head inputs), for each call back to the head (and
    /// the accumulator, in amortising mode).
    transitions: Vec<D>,
    /// Whether the path may leave the cycle by an exception or runs code outside the cycle.
    may_escape: bool,
    cost: CostExpr,
    cost_rest: CostExpr,
    back_calls: usize,
    /// When one rule makes all its calls back to the head: their relation over (head inputs, the
    /// arguments of each call in turn), for the level sums of divide and conquer.
    joint: Option<D>,
    /// For an exit path that returns the head's outputs: the final state over the leading
    /// dimensions (entry values, head inputs) and the outputs.
    exit: Option<D>,
    /// Whether the path may return normally from the head.
    returns: bool,
}

/// The cost of a loop run that returns, in terms of its inputs and outputs:
/// `iteration · nat(count(inputs, outputs)) + exit(inputs)`. `count` bounds the iterations by
/// the drop of a linear ranking function from the entry to the last visit of the head, expressed
/// through the outputs, so that a caller running the loop repeatedly can add the counts up.
#[derive(Clone, Debug)]
struct Amortised<D> {
    iteration: BigRational,
    /// Over `%i` (inputs) and `%o<j>` (outputs).
    count: Linear,
    exit: CostExpr,
    /// Over (inputs, outputs): what every returning run satisfies, from the loop's own invariant
    /// (it may be stronger than the fixpoint's POST, which the widening of the call graph's
    /// fixpoint weakens); it holds for every call within the head's precondition.
    returns: D,
    /// Like `returns` and `count`, apart: for the runs that leave at once and for those that
    /// iterate (either may be missing where no run does), each relation with the count its runs
    /// satisfy; every returning run satisfies one relation. Empty when unknown.
    cases: Vec<(D, Linear)>,
}

/// The name of output `j` in an amortised count.
fn output_name(j: usize) -> String {
    format!("%o{j}")
}

impl<'a, D: NumericDomain> Solver<'a, D> {
    fn pre(&self, p: AbsProcId) -> Option<&D> {
        self.fixpoint.pre.get(p).and_then(Option::as_ref)
    }

    /// Whether every run of a component's procedures terminates: no reachable procedure of it
    /// has an opaque item or calls one that may not terminate, and, for a cycle, a ranking
    /// function was found from every head (each lies on every cycle of the component), among the
    /// cycles recorded from `loops_before` on. Unreachable procedures terminate vacuously.
    fn component_terminates(&self, component: &[AbsProcId], cyclic: bool, loops_before: usize) -> bool {
        let calls_out_terminate = self.calls_out_terminate(component);
        if !cyclic || !calls_out_terminate {
            return calls_out_terminate;
        }
        let recorded = &self.loops[loops_before..];
        !recorded.is_empty() && recorded.iter().all(|l| l.ranking.is_some())
    }

    /// Whether no reachable procedure of a component has an opaque item, calls a procedure
    /// outside it that may not terminate, or gives a structure that may be cyclic to a callee
    /// whose termination rests on acyclicity.
    fn calls_out_terminate(&self, component: &[AbsProcId]) -> bool {
        let outside = |item: &Item| called(item).filter(|callee| !component.contains(callee));
        let item_terminates = |item: &Item| match item {
            Item::Opaque { .. } => false,
            _ => outside(item).is_none_or(|callee| self.terminates.get(callee).copied().unwrap_or(false)),
        };
        let cycle_safe = |r: &AbstractRule| {
            r.cyclic_call.is_none()
                || !r
                    .items
                    .iter()
                    .filter_map(outside)
                    .any(|callee| self.size_reliant.get(callee).copied().unwrap_or(true))
        };
        component.iter().all(|&p| {
            self.pre(p).is_none()
                || self.program.procs[p]
                    .rules
                    .iter()
                    .all(|r| cycle_safe(r) && r.items.iter().all(item_terminates))
        })
    }

    /// Whether a solved component's termination may rest on acyclicity (see `size_reliant`).
    fn component_size_reliant(&self, component: &[AbsProcId], loops_before: usize) -> bool {
        let ranks_sizes = self.loops[loops_before..]
            .iter()
            .any(|l| self.sized_heads.contains(&l.head));
        ranks_sizes
            || component.iter().any(|&p| {
                let proc = &self.program.procs[p];
                proc.rules.iter().any(|r| {
                    let mut calls = r.items.iter().filter_map(called).peekable();
                    // A dispatch rule without a call stands for a library method's summary.
                    (matches!(proc.origin, Origin::Dispatch(_)) && calls.peek().is_none())
                        || calls.any(|c| !component.contains(&c) && self.size_reliant.get(c).copied().unwrap_or(true))
                })
            })
    }

    /// The cost of a procedure that is not on a cycle.
    fn acyclic(&self, p: AbsProcId) -> Bound {
        let proc = &self.program.procs[p];
        let Some(pre) = self.pre(p) else {
            return Bound::Bounded(CostExpr::zero());
        };
        let params: Vec<Dimension> = (0..proc.inputs).collect();
        let names: Vec<String> = (0..proc.inputs).map(input_name).collect();
        let costs: Result<Vec<Option<CostExpr>>, String> = proc
            .rules
            .iter()
            .map(|rule| {
                let state = pre.add_dims(rule.dims.saturating_sub(pre.dimensions()));
                let kept = proc.inputs + proc.outputs;
                self.guarded_rule_cost(rule, state, kept, &params, &names)
            })
            .collect();
        match costs {
            Ok(costs) => Bound::Bounded(CostExpr::max(costs.into_iter().flatten())),
            Err(reason) => Bound::Unknown(reason),
        }
    }

    /// The cost of a rule of a procedure off any cycle from `state` (its guard not yet added):
    /// `None` when the rule cannot be taken there.
    fn guarded_rule_cost(
        &self,
        rule: &AbstractRule,
        mut state: D,
        kept: usize,
        params: &[Dimension],
        names: &[String],
    ) -> Result<Option<CostExpr>, String> {
        state.add_constraints(rule.guard.iter().cloned());
        if state.is_empty() {
            return Ok(None);
        }
        let outcome = self.rule_cost(rule, &mut state, kept, params, names, None, None, false)?;
        Ok(outcome.map(|o| o.cost))
    }

    /// The cost of one rule from `state` (already holding its guard): its own cost plus its calls'
    /// costs in terms of `params`. Calls to procedures in `cycle` are not costed; each is returned
    /// with the state at the call, and the items after it see the callee's post-condition (they run
    /// only once it returned; the state at the call itself assumes nothing about the call's
    /// outcome). `Ok(None)` when the rule
    /// cannot be reached from `state`; a rule that stops at a call that never returns normally
    /// still costs what it ran, with `completes: false`.
    #[allow(clippy::too_many_arguments)]
    fn rule_cost(
        &self,
        rule: &AbstractRule,
        state: &mut D,
        kept: usize,
        params: &[Dimension],
        names: &[String],
        cycle: Option<&[AbsProcId]>,
        accumulator: Option<Dimension>,
        costless: bool,
    ) -> Result<Option<RuleOutcome<D>>, String> {
        // The iterations of the loops the rule calls join the parameters as they are called.
        let mut params = params.to_vec();
        let mut names = names.to_vec();
        let mut ghosts: Vec<(String, CostExpr)> = Vec::new();
        let (params, names) = (&mut params, &mut names);
        let mut terms = vec![CostExpr::Const(BigRational::from_integer(BigInt::from(
            rule.cost.constant,
        )))];
        let mut rest_terms = terms.clone();
        let mut cycle_calls = Vec::new();
        let mut completes = true;
        let mut accumulating = accumulator.is_some();
        // The results of the rule's multiplications, with their operands: (result, lhs, rhs).
        let mut products: Vec<(Dimension, Dimension, Dimension)> = Vec::new();
        // Dimensions no later item (nor the rule's symbolic cost) mentions are projected out as
        // the rule goes; `kept` leading ones (entry values, the head's and the rule's inputs and
        // outputs) and `params` always stay.
        let symbolic: Vec<Dimension> = rule
            .cost
            .symbolic
            .iter()
            .flatten()
            .flat_map(|e| e.terms().map(|(d, _)| d).collect::<Vec<_>>())
            .chain(params.iter().copied())
            .chain(related_call_arguments(rule, cycle))
            .collect();
        let dead_after = dead_dimensions(rule, kept, &symbolic);
        *state = state.project_out(&dead_after[0]);
        // Emptiness (an unreachable rule) is decided only where it changes the answer: before an
        // error, after a call that may not return, and at the end.
        for (k, item) in rule.items.iter().enumerate() {
            match item {
                Item::Constrain(constraints) => state.add_constraints(constraints.iter().cloned()),
                Item::Opaque { reason } => {
                    return if state.is_empty() {
                        Ok(None)
                    } else {
                        Err(reason.clone())
                    };
                }
                Item::Wrap {
                    dim, width, factors, ..
                } => {
                    overflow::wrap(state, *dim, *width, *factors, &rule.ranges);
                }
                Item::Marker { bytecodes } => {
                    if self.model_counts_bytecodes {
                        let cost = CostExpr::Const(BigRational::from_integer(BigInt::from(*bytecodes)));
                        terms.push(cost.clone());
                        rest_terms.push(cost);
                    }
                }
                Item::Call { callee, args, .. } | Item::Charge { callee, args }
                    if cycle.is_some_and(|c| c.contains(callee)) =>
                {
                    let outs = match item {
                        Item::Call { outs, .. } => outs.clone(),
                        _ => Vec::new(),
                    };
                    // Transitions and continuations take the state at this call: what the rule
                    // accumulates after it would be missed, so it is charged in full instead.
                    accumulating = false;
                    let targets: Vec<Dimension> = args.iter().chain(&outs).copied().collect();
                    cycle_calls.push(CycleCall {
                        callee: *callee,
                        args: args.clone(),
                        outs,
                        state: state.clone(),
                    });
                    // What runs after the call runs only once it returned, so there the callee's
                    // post-condition holds (nested recursion: `f(f(n + 11))` passes the inner
                    // call's result on).
                    // A call that never returns ends the rule there (the call itself stays a
                    // transition). A rule's last call (a loop's back edge) is left as it is.
                    let calls_later = rule.items[k + 1..]
                        .iter()
                        .any(|i| matches!(i, Item::Call { .. } | Item::Charge { .. }));
                    if let (Item::Call { .. }, true) = (item, calls_later) {
                        if let Some(post) = self.fixpoint.post.get(*callee).and_then(Option::as_ref) {
                            let after = state.meet(&embed(post, &targets, state.dimensions()));
                            if after.is_empty() {
                                if state.is_empty() {
                                    return Ok(None);
                                }
                                completes = false;
                                break;
                            }
                            *state = after;
                        }
                    }
                }
                Item::Charge { callee, args } => match self.callee_cost(*callee, args, state, params, names, &products)
                {
                    Ok(cost) => {
                        terms.push(cost.clone());
                        rest_terms.push(cost);
                    }
                    Err(_) if state.is_empty() => return Ok(None),
                    Err(_) if costless => {}
                    Err(reason) => return Err(reason),
                },
                Item::Call { callee, args, outs } => {
                    if let ([x, y], [t], Origin::Aux(AuxOp::Mul)) =
                        (args.as_slice(), outs.as_slice(), &self.program.procs[*callee].origin)
                    {
                        products.push((*t, *x, *y));
                    }
                    let named = Names {
                        params,
                        names,
                        products: &products,
                    };
                    let cost = match self.callee_cost(*callee, args, state, params, names, &products) {
                        Ok(cost) => cost,
                        Err(_) if state.is_empty() => return Ok(None),
                        Err(_) if costless => CostExpr::zero(),
                        Err(reason) => return Err(reason),
                    };
                    // In amortising mode, a summarised loop charges only its exit cost here and
                    // its iterations to the accumulator (once its outputs are known).
                    let summary = accumulator
                        .filter(|_| accumulating)
                        .and_then(|_| self.amortised.get(callee));
                    let exit_cost = summary.and_then(|s| self.map_bound(&s.exit, *callee, args, state, named).ok());
                    // Else, in amortising mode, a callee outside the cycle whose cost is linear
                    // in its arguments here is paid from the accumulator too (`minus(x, y)`
                    // costing `y` in a loop that takes `y` from `x`).
                    let summary_of_callee = match (&self.bounds[*callee], accumulating) {
                        (Bound::Bounded(bound), true) if self.is_amortisable_call(*callee, cycle) => Some(bound),
                        _ => None,
                    };
                    let before = state.clone();
                    terms.push(cost.clone());
                    match self.fixpoint.post.get(*callee).and_then(Option::as_ref) {
                        Some(post) => {
                            let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
                            *state = state.meet(&embed(post, &targets, state.dimensions()));
                            if let Some(solved) = self.amortised.get(callee) {
                                *state = state.meet(&embed(&solved.returns, &targets, state.dimensions()));
                            }
                        }
                        None => *state = D::empty(state.dimensions()),
                    }
                    if let Some(exit) = self.counted_exits.get(callee) {
                        if let Ok(bound) = self.map_bound(&exit.iterations, *callee, args, state, named) {
                            let ghost = state.dimensions();
                            let targets: Vec<Dimension> = args
                                .iter()
                                .copied()
                                .chain([ghost])
                                .chain(outs.iter().copied())
                                .collect();
                            *state = state.add_dims(1).meet(&embed(&exit.relation, &targets, ghost + 1));
                            params.push(ghost);
                            names.push(loop_ghost_name(k));
                            ghosts.push((loop_ghost_name(k), bound));
                        }
                    }
                    let accumulated = match (summary, exit_cost, accumulator) {
                        (Some(summary), Some(exit_cost), Some(acc)) => {
                            let added = accumulate(state, acc, summary, args, outs);
                            if added {
                                rest_terms.push(exit_cost);
                            }
                            added
                        }
                        (None, _, Some(acc)) if accumulating && summary_of_callee.is_some() => {
                            let forms = summary_of_callee.map(|bound| linear_costs(bound, args, &before));
                            forms.is_some_and(|forms| add_to_accumulator_within(state, acc, forms))
                        }
                        _ => false,
                    };
                    if !accumulated {
                        rest_terms.push(cost);
                    }
                    // Operations always return; a method or block may not (it threw).
                    let may_not_return = !matches!(self.program.procs[*callee].origin, Origin::Aux(_));
                    if may_not_return && state.is_empty() {
                        // The callee never returns here: the rule ends with its exception (or
                        // was unreachable, when the state was empty before the call).
                        completes = false;
                        break;
                    }
                }
            }
            if !dead_after[k + 1].is_empty() {
                *state = state.project_out(&dead_after[k + 1]);
            }
        }
        if completes {
            if state.is_empty() {
                return Ok(None);
            }
            for factors in &rule.cost.symbolic {
                // Each factor is non-negative here, so the product of their bounds bounds it.
                let mut bounds = Vec::new();
                for e in factors {
                    match upper_bound(state, e, params, names) {
                        Some(upper) => bounds.push(CostExpr::nat(upper)),
                        None if costless => bounds.push(CostExpr::zero()),
                        None => return Err(format!("an allocated or consumed amount {NOT_BOUNDED_BY_INPUTS}")),
                    }
                }
                let amount = CostExpr::mul(bounds);
                terms.push(amount.clone());
                rest_terms.push(amount);
            }
        }
        // Each loop's iterations, at most its bound (over the earlier parameters), are eliminated,
        // the last called first.
        let eliminate = |cost: CostExpr| {
            ghosts
                .iter()
                .rev()
                .try_fold(cost, |c, (name, bound)| c.eliminate_bounded(name, bound))
                .ok_or_else(|| format!("a cost through a loop's iterations {NOT_BOUNDED_BY_INPUTS}"))
        };
        Ok(Some(RuleOutcome {
            cost: eliminate(CostExpr::add(terms))?,
            cost_rest: eliminate(CostExpr::add(rest_terms))?,
            cycle_calls,
            completes,
        }))
    }

    /// The bound of `callee` called with `args`, in terms of `params` under `state`.
    fn callee_cost(
        &self,
        callee: AbsProcId,
        args: &[Dimension],
        state: &D,
        params: &[Dimension],
        names: &[String],
        products: &[(Dimension, Dimension, Dimension)],
    ) -> Result<CostExpr, String> {
        match &self.bounds[callee] {
            // A loop of another method is named by that method (its offsets mean nothing here).
            Bound::Unknown(reason)
                if reason.starts_with(ITERATIONS_OF_LOOP)
                    && (self.program.procs[callee].is_method_entry
                        || matches!(self.program.procs[callee].origin, Origin::Dispatch(_))) =>
            {
                Err(format!(
                    "the cost of a call to {} {NOT_BOUNDED_BY_INPUTS}",
                    self.signature_of(callee)
                ))
            }
            Bound::Unknown(reason) => Err(reason.clone()),
            Bound::Bounded(bound) => {
                let named = Names {
                    params,
                    names,
                    products,
                };
                match self.map_bound(bound, callee, args, state, named) {
                    Ok(direct) => Ok(self.unfolded_if_smaller(direct, callee, args, state, params, names)),
                    Err(reason) => self.unfolded_cost(callee, args, state, params, names).ok_or(reason),
                }
            }
        }
    }

    /// `direct`, a block's bound mapped into the caller's parameters, or the block's rules costed
    /// afresh under the caller's state where that gives a smaller class: the state may bound a
    /// value both by the parameters it was computed from and by others (a count the loops before
    /// ran up to `n1 + n2`, also at most `|tmp|`), and the mapping keeps one of them only.
    fn unfolded_if_smaller(
        &self,
        direct: CostExpr,
        callee: AbsProcId,
        args: &[Dimension],
        state: &D,
        params: &[Dimension],
        names: &[String],
    ) -> CostExpr {
        if matches!(direct, CostExpr::Const(_)) {
            return direct;
        }
        match self.unfolded_cost(callee, args, state, params, names) {
            Some(unfolded) if compare::class_order(&direct, &unfolded) == compare::ClassOrder::Smaller => unfolded,
            _ => direct,
        }
    }

    /// The cost of a call of a block of the same method (not a loop head, nor a method's entry)
    /// whose bound, over its own inputs, has no bound in the caller's `params`: its rules costed
    /// afresh under the caller's state, so that what the caller knows of an argument it cannot
    /// name (a value read from the heap) bounds what the block does with it (the block's guard
    /// `k <= n` on a `k` read from an array bounds its loop by `n`). At most `MAX_UNFOLDING`
    /// calls deep; sound because a procedure costs at most the largest of its rules' costs.
    fn unfolded_cost(
        &self,
        callee: AbsProcId,
        args: &[Dimension],
        state: &D,
        params: &[Dimension],
        names: &[String],
    ) -> Option<CostExpr> {
        let proc = &self.program.procs[callee];
        let depth = self.unfolding.get();
        let eligible = matches!(proc.origin, Origin::Ir { .. })
            && !proc.is_method_entry
            && !self.loops.iter().any(|l| l.head == callee)
            && proc.rules.iter().all(|r| r.cyclic_call.is_none());
        if !eligible || depth >= MAX_UNFOLDING || args.len() < proc.inputs {
            return None;
        }
        let base = state.dimensions();
        let kept = base + proc.inputs + proc.outputs;
        self.unfolding.set(depth + 1);
        let costs: Option<Vec<Option<CostExpr>>> = proc
            .rules
            .iter()
            .map(|rule| {
                let mut context = state.add_dims(rule.dims);
                for (i, &a) in args.iter().take(proc.inputs).enumerate() {
                    let binding = LinearExpr::from_terms(&[(base + i, 1), (a, -1)], 0)?;
                    context.add_constraint(Constraint::equal_zero(binding));
                }
                self.guarded_rule_cost(&shift_rule(rule, base), context, kept, params, names)
                    .ok()
            })
            .collect();
        self.unfolding.set(depth);
        Some(CostExpr::max(costs?.into_iter().flatten()))
    }

    /// A bound over `callee`'s inputs (`%i`) rewritten in terms of `params` under `state`, each
    /// linear part by its maximum, else through the rule's `products` (see [`through_products`]).
    fn map_bound(
        &self,
        bound: &CostExpr,
        callee: AbsProcId,
        args: &[Dimension],
        state: &D,
        Names {
            params,
            names,
            products,
        }: Names<'_>,
    ) -> Result<CostExpr, String> {
        let mut failure = None;
        let mut map_with = |e: &Linear, alternatives: bool| {
            let (expr, scale) = substitute(e, args)?;
            let upper = upper_bounds(state, &expr, params, names, alternatives);
            if upper.is_none() {
                failure = Some(match self.loops.iter().any(|l| l.head == callee) {
                    true => format!(
                        "{ITERATIONS_OF_LOOP} {} {NOT_BOUNDED_BY_INPUTS}",
                        self.program.procs[callee].name
                    ),
                    false => format!(
                        "the cost of a call to {} {NOT_BOUNDED_BY_INPUTS}",
                        self.signature_of(callee)
                    ),
                });
            }
            let (best, other) = upper?;
            Some((best.scaled_down(&scale), other.map(|o| o.scaled_down(&scale))))
        };
        // A logarithm of a value no input bounds is at most that of the largest value the types
        // of the callee's inputs allow (`log2` of an `int` expression: about 32).
        let mapped = bound.map_leaves(&mut |leaf| match leaf {
            CostExpr::Nat(e) => {
                let (best, other) = map_with(e, true)?;
                Some(CostExpr::min(
                    [Some(best), other].into_iter().flatten().map(CostExpr::nat),
                ))
            }
            CostExpr::Log2(e) => Some(CostExpr::log2(
                map_with(e, false)
                    .map(|(best, _)| best)
                    .or_else(|| type_range_max(&self.program.procs[callee], e))?,
            )),
            CostExpr::Pow2(e) => Some(CostExpr::pow2(map_with(e, false)?.0)),
            other => Some(other.clone()),
        });
        mapped
            .map(|m| m.with_minima_cut(MAX_MIN_ITEMS))
            .or_else(|| through_products(bound, args, state, params, names, products))
            .ok_or_else(|| failure.unwrap_or_else(|| "a callee bound has a parameter out of range".into()))
    }

    /// Solves a cycle with a head: a procedure on every cycle of the component, preferably one
    /// entered from outside it. The heads are solved on their own, then the other procedures of
    /// the component, which no longer form a cycle, callees first. A component no single
    /// procedure cuts is unknown.
    fn cycle(&mut self, component: &[AbsProcId]) {
        // A head is entered from outside the cycle (or is an analysis entry) and lies on every cycle.
        let entered = |p: AbsProcId| -> bool {
            let mut callers = self.program.procs.iter().enumerate().filter(|(c, caller)| {
                self.fixpoint.pre[*c].is_some()
                    && caller.rules.iter().any(|r| {
                        r.items.iter().any(
                            |i| matches!(i, Item::Call { callee, .. } | Item::Charge { callee, .. } if *callee == p),
                        )
                    })
            });
            let mut any = false;
            let outside = callers.any(|(c, _)| {
                any = true;
                !component.contains(&c)
            });
            outside || !any || self.program.procs[p].is_method_entry
        };
        let mut heads: Vec<AbsProcId> = component
            .iter()
            .copied()
            .filter(|p| entered(*p) && self.is_head(*p, component))
            .collect();
        // A method's own procedure is a better head than the dispatch of a call to it.
        if heads.len() > 1 {
            heads.retain(|p| matches!(self.program.procs[*p].origin, Origin::Ir { .. }));
        }
        if heads.iter().any(|p| self.program.procs[*p].is_method_entry) {
            heads.retain(|p| self.program.procs[*p].is_method_entry);
        }
        let inner_head = heads.is_empty();
        if inner_head {
            // Entered at several procedures, none on every cycle: one that is, entered from
            // inside only, is the head (a method's own procedure first); the entries reach it
            // without a cycle.
            let is_ir = |p: &AbsProcId| matches!(self.program.procs[*p].origin, Origin::Ir { .. });
            let inner = component
                .iter()
                .copied()
                .filter(is_ir)
                .chain(component.iter().copied().filter(|p| !is_ir(p)))
                .find(|p| self.is_head(*p, component));
            heads.extend(inner);
        }
        if heads.is_empty() {
            let reason = format!("a cycle with no single entry (through {})", self.names(component));
            for &p in component {
                self.bounds[p] = Bound::Unknown(reason.clone());
            }
            return;
        }
        // Every head lies on every cycle, so each can be solved on its own (mutual recursion
        // between methods has one head per method).
        let mut solved = Vec::new();
        for &head in &heads {
            let bound = match self.single_head(head, component) {
                Ok(total) => Bound::Bounded(total),
                Err(reason) => Bound::Unknown(reason),
            };
            solved.push((head, bound));
        }
        // The other procedures of the cycle share the first unranked head's reason, which names
        // the head: a caller sees which recursion or loop has no ranking function.
        let unranked = solved.iter().find_map(|(_, bound)| match bound {
            Bound::Unknown(reason) if reason.starts_with(NO_RANKING_FUNCTION) => Some(reason.clone()),
            _ => None,
        });
        let reason = unranked.unwrap_or_else(|| self.inside_a_cycle(component, &solved));
        for &p in component {
            self.bounds[p] = Bound::Unknown(reason.clone());
        }
        for (head, bound) in solved {
            self.bounds[head] = bound;
        }
        self.around_heads(component, &heads, inner_head);
    }

    /// The reason of the procedures of a cycle whose heads are solved but that have no bound of
    /// their own: the first unbounded head's reason, with the head's name, or the cycle's methods.
    fn inside_a_cycle(&self, component: &[AbsProcId], solved: &[(AbsProcId, Bound)]) -> String {
        let failed = solved.iter().find_map(|(head, bound)| match bound {
            Bound::Unknown(why) => Some((*head, why)),
            Bound::Bounded(_) => None,
        });
        match failed {
            Some((head, why)) => format!(
                "{INSIDE_A_CYCLE} whose head, {}, has no bound: {why}",
                self.method_of(head)
            ),
            None => format!("{INSIDE_A_CYCLE} through {}", self.names(component)),
        }
    }

    /// The procedures of a component other than its solved heads, which form no cycle: each
    /// costs what its rules do, callees first. Where that is unknown, the reason is the cost's
    /// (naming what the head could not bound) when `explain`, else "inside a cycle".
    fn around_heads(&mut self, component: &[AbsProcId], heads: &[AbsProcId], explain: bool) {
        let mut graph: DiGraphMap<usize, ()> = DiGraphMap::new();
        for &p in component.iter().filter(|p| !heads.contains(p)) {
            graph.add_node(p);
            for rule in &self.program.procs[p].rules {
                for item in &rule.items {
                    if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                        if component.contains(callee) && !heads.contains(callee) {
                            graph.add_edge(p, *callee, ());
                        }
                    }
                }
            }
        }
        let Ok(order) = petgraph::algo::toposort(&graph, None) else {
            return;
        };
        for &p in order.iter().rev() {
            let bound = self.acyclic(p);
            if explain || matches!(bound, Bound::Bounded(_)) {
                self.bounds[p] = bound;
            }
        }
    }

    /// Whether `p` is a dispatch whose every rule only calls `head` with its own inputs, so that a
    /// call of `p` is a call of `head` (a recursive method call).
    fn passes_to(&self, p: AbsProcId, head: AbsProcId) -> bool {
        let proc = &self.program.procs[p];
        matches!(proc.origin, Origin::Dispatch(_))
            && proc.rules.iter().all(|rule| {
                let calls: Vec<&Item> = rule.items.iter().filter(|i| matches!(i, Item::Call { .. })).collect();
                matches!(calls.as_slice(), [Item::Call { callee, args, .. }] if *callee == head && args.iter().copied().eq(0..proc.inputs))
            })
    }

    /// The method a procedure belongs to (or a dispatch calls), as `Class.method`.
    fn method_of(&self, p: AbsProcId) -> String {
        let name = self.program.procs[p].name.as_str();
        let name = name.strip_prefix("dispatch ").unwrap_or(name);
        // Block procedures are `method/b<k>...`; the method is `class.name(descriptor)`.
        let method = match name.rsplit_once('/') {
            Some((method, block)) if block.starts_with('b') && block[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                method
            }
            _ => name,
        };
        let short = method.split('(').next().unwrap_or(method);
        short.rsplit('/').next().unwrap_or(short).to_owned()
    }

    /// `Class.method(int, String)`: [`Solver::method_of`] with its parameter types, which tell a
    /// method's overloads apart (a call of `indexOf(m, 0)` from `indexOf(m)`).
    fn signature_of(&self, p: AbsProcId) -> String {
        match crate::ir::java_parameters_of(&self.program.procs[p].name) {
            Some(parameters) => format!("{}({})", self.method_of(p), parameters.join(", ")),
            None => self.method_of(p),
        }
    }

    /// The methods a component runs through, as `Class.method` (at most four, then how many
    /// more).
    fn names(&self, component: &[AbsProcId]) -> String {
        let mut methods: Vec<String> = Vec::new();
        for p in component {
            let short = self.method_of(*p);
            if !methods.contains(&short) {
                methods.push(short);
            }
        }
        let more = methods.len().saturating_sub(4);
        methods.truncate(4);
        let mut text = methods.join(", ");
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    }

    /// Whether every cycle of the component passes through `head` (removing it leaves no cycle).
    fn is_head(&self, head: AbsProcId, component: &[AbsProcId]) -> bool {
        let rest: Vec<AbsProcId> = component.iter().copied().filter(|p| *p != head).collect();
        let mut graph: DiGraphMap<usize, ()> = DiGraphMap::new();
        for &p in &rest {
            graph.add_node(p);
            for rule in &self.program.procs[p].rules {
                for item in &rule.items {
                    if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                        if rest.contains(callee) {
                            graph.add_edge(p, *callee, ());
                        }
                    }
                }
            }
        }
        !petgraph::algo::is_cyclic_directed(&graph)
    }

    /// Enumerates the paths from `head` with the state starting from `initial` (over `base` extra
    /// leading dimensions followed by the head's inputs). Costs are expressed over `params`.
    fn paths(
        &self,
        head: AbsProcId,
        component: &[AbsProcId],
        initial: &D,
        base: usize,
        params: &[Dimension],
        mode: PathMode,
    ) -> Result<Vec<Path<D>>, String> {
        let mut names: Vec<String> = (0..params.len()).map(input_name).collect();
        if let (true, Some(last)) = (mode.counted, names.last_mut()) {
            *last = ITERATIONS_SO_FAR.to_owned();
        }
        let inputs = self.program.procs[head].inputs;
        // The accumulator of amortised costs sits right after the head's inputs.
        let accumulator = mode.amortise.then_some(base + inputs);
        let lead = base + inputs + usize::from(mode.amortise);
        let mut start = initial.add_dims(lead.saturating_sub(initial.dimensions()));
        if let Some(acc) = accumulator {
            start.add_constraints(LinearExpr::from_terms(&[(acc, 1)], 0).map(Constraint::equal_zero));
        }
        let mut done = Vec::new();
        // Each procedure's rules split by auxiliary cases, built once per enumeration.
        let mut split_rules: HashMap<AbsProcId, Vec<AbstractRule>> = HashMap::new();
        let mut pending = vec![(
            head,
            PathState {
                state: start,
                offset: base,
                cost: Vec::new(),
                cost_rest: Vec::new(),
                back_calls: 0,
                joint: Joint::None,
                may_escape: false,
                linked: true,
            },
            Vec::<D>::new(),
        )];
        while let Some((p, path, transitions)) = pending.pop() {
            let proc = &self.program.procs[p];
            // The head's rules start at `base` (their inputs are the head's inputs); rules of
            // procedures the path continues in start after the leading dimensions.
            let offset = path.offset;
            let skip = accumulator.filter(|_| offset == base);
            let rules: &[AbstractRule] = if mode.split_aux || mode.amortise {
                split_rules.entry(p).or_insert_with(|| {
                    let rules: Vec<AbstractRule> = match mode.split_aux {
                        true => {
                            let variants = proc.rules.iter().flat_map(|r| self.aux_variants(r, component));
                            match mode.split_wraps {
                                true => variants
                                    .flat_map(|v| cases::wrap_variants(&v, MAX_WRAP_VARIANTS))
                                    .collect(),
                                false => variants.collect(),
                            }
                        }
                        false => proc.rules.clone(),
                    };
                    match mode.amortise {
                        true => rules.iter().flat_map(|r| self.entry_variants(r)).collect(),
                        false => rules,
                    }
                })
            } else {
                &proc.rules
            };
            for rule in rules {
                if done.len() + pending.len() > MAX_PATHS {
                    return Err(format!(
                        "more than {MAX_PATHS} paths through the loop of {}",
                        self.program.procs[head].name
                    ));
                }
                let shifted_rule = shift_rule(rule, offset);
                // The head's rule dimensions after its inputs would overlap the accumulator: they
                // move past it.
                let shifted_rule = match skip {
                    Some(acc) => skip_dimension(&shifted_rule, acc),
                    None => shifted_rule,
                };
                let mut state = path
                    .state
                    .add_dims(shifted_rule.dims.saturating_sub(path.state.dimensions()));
                state.add_constraints(shifted_rule.guard.iter().cloned());
                if state.is_empty() {
                    continue;
                }
                let kept = (offset + proc.inputs + proc.outputs + usize::from(skip.is_some())).max(lead);
                let Some(outcome) = self.rule_cost(
                    &shifted_rule,
                    &mut state,
                    kept,
                    params,
                    &names,
                    Some(component),
                    accumulator,
                    mode.costless,
                )?
                else {
                    continue;
                };
                let mut cost_so_far = path.cost.clone();
                cost_so_far.push(outcome.cost);
                let mut rest_so_far = path.cost_rest.clone();
                rest_so_far.push(outcome.cost_rest);
                let mut transitions = transitions.clone();
                let mut back_calls = path.back_calls;
                let may_escape = path.may_escape
                    || !outcome.completes
                    || rule.may_throw
                    || rule.items.iter().any(|i| match i {
                        Item::Call { callee, .. } | Item::Charge { callee, .. } => !component.contains(callee),
                        Item::Opaque { .. } | Item::Marker { .. } => true,
                        Item::Constrain(_) | Item::Wrap { .. } => false,
                    });
                // This rule's outputs, in the shifted numbering.
                let own_outputs: Vec<Dimension> = (0..proc.outputs)
                    .map(|j| {
                        let d = offset + proc.inputs + j;
                        d + usize::from(skip.is_some_and(|acc| d >= acc))
                    })
                    .collect();
                let mut next: Option<(CycleCall<D>, bool)> = None;
                let mut related: Vec<Dimension> = (base..base + inputs).collect();
                let mut last_back: Option<D> = None;
                for call in outcome.cycle_calls {
                    if call.callee == head || self.passes_to(call.callee, head) {
                        back_calls += 1;
                        related.extend(call.args.iter().copied());
                        last_back = Some(call.state.clone());
                        // The transition: this iteration's head inputs and the next one's, from
                        // the state at the call (what follows the call need not happen).
                        let mut keep: Vec<Dimension> = (base..base + inputs).collect();
                        keep.extend(call.args.iter().copied());
                        keep.extend(accumulator);
                        transitions.push(restrict(&call.state, &keep));
                    } else {
                        if next.is_some() {
                            return Err("a loop body calls two inner procedures of the same cycle".into());
                        }
                        let passes_outputs = path.linked && call.outs == own_outputs;
                        next = Some((call, passes_outputs));
                    }
                }
                let joint = match (&path.joint, last_back) {
                    (joint, None) => joint.clone(),
                    (Joint::None, Some(state)) => Joint::Related(restrict(&state, &related)),
                    (_, Some(_)) => Joint::Unrelated,
                };
                match next {
                    None => {
                        let exit =
                            (back_calls == 0 && outcome.completes && path.linked && shifted_rule.returns).then(|| {
                                let mut keep: Vec<Dimension> = (0..base + inputs).collect();
                                keep.extend(own_outputs.iter().copied());
                                restrict(&state, &keep)
                            });
                        done.push(Path {
                            transitions,
                            may_escape,
                            cost: CostExpr::add(cost_so_far),
                            cost_rest: CostExpr::add(rest_so_far),
                            back_calls,
                            joint: match joint {
                                Joint::Related(j) => Some(j),
                                _ => None,
                            },
                            exit,
                            returns: back_calls == 0 && outcome.completes && shifted_rule.returns,
                        })
                    }
                    Some((call, linked)) => {
                        // Continue in the callee: keep the leading dimensions and bind its inputs.
                        let mut keep: Vec<Dimension> = (0..lead).collect();
                        keep.extend(call.args.iter().copied());
                        let next_state = restrict(&call.state, &keep);
                        pending.push((
                            call.callee,
                            PathState {
                                state: next_state,
                                offset: lead,
                                cost: cost_so_far,
                                cost_rest: rest_so_far,
                                back_calls,
                                joint,
                                may_escape,
                                linked,
                            },
                            transitions,
                        ));
                    }
                }
            }
        }
        Ok(done)
    }

    /// The bound of a cycle from one head (which lies on every cycle of the component).
    fn single_head(&mut self, head: AbsProcId, component: &[AbsProcId]) -> Result<CostExpr, String> {
        let inputs = self.program.procs[head].inputs;
        let Some(pre) = self.pre(head).cloned() else {
            return Ok(CostExpr::zero());
        };
        // Pass 1: transitions of the head's inputs, from its precondition.
        let params: Vec<Dimension> = (0..inputs).collect();
        let ranked = match self.rank(head, component, &pre, &params, false) {
            Ok(ranked) => ranked,
            Err(reason) => {
                // The cost is lost (a callee's or an amount's is not bounded by the inputs), but
                // the loop may still be shown to terminate, when all it calls does.
                let retry = self.calls_out_terminate(component);
                if let Some(Ok(ranked)) = retry.then(|| self.rank(head, component, &pre, &params, true)) {
                    if ranked.rests_on_sizes {
                        self.sized_heads.insert(head);
                    }
                    let iterations = ranked
                        .ranking
                        .as_ref()
                        .and_then(|r| Self::iterations(inputs, r, &ranked));
                    self.loops.push(LoopInfo {
                        head,
                        never_exits: ranked.never_exits(),
                        ranking: ranked.ranking,
                        iterations,
                        changes: Vec::new(),
                    });
                }
                return Err(reason);
            }
        };
        let never_exits = ranked.never_exits();
        if ranked.rests_on_sizes {
            self.sized_heads.insert(head);
        }
        let Some(ranking) = ranked.ranking.clone() else {
            self.loops.push(LoopInfo {
                head,
                ranking: None,
                iterations: None,
                never_exits,
                changes: ranking::changes(inputs, &ranked.transitions),
            });
            return Err(format!("{NO_RANKING_FUNCTION} {}", self.program.procs[head].name));
        };
        // The depth a divide-and-conquer recurrence is solved for is the ranking function's own.
        let depth = Self::iterations(inputs, &ranking, &ranked)
            .or_else(|| self.phase_iterations(inputs, &pre, &ranked, &ranking))
            .or_else(|| self.lexicographic_iterations(inputs, &pre, &ranked, &ranking));
        // Only a method's own recursion: an inner loop's count in terms of its range (`hi - j`)
        // is what the costs of a divide-and-conquer recurrence around it add up.
        let iterations = match self.program.procs[head].is_method_entry {
            true => depth
                .clone()
                .map(|i| without_guarded_negatives(inputs, &ranked.transitions, i)),
            false => depth.clone(),
        };
        let Ranked {
            transitions,
            mode: plain,
            first,
            ..
        } = ranked;
        let Some(iterations) = iterations else {
            // The loop terminates, but its iterations are not bounded.
            let why = match ranking.weighs_by_type_range() {
                true => "the only ranking function found weighs a variable by a factor as large as the types' limits, which would hide the parameters the iterations grow with",
                false => "only a lexicographic ranking function was found, and one of its components may increase",
            };
            self.loops.push(LoopInfo {
                head,
                ranking: Some(ranking),
                iterations: None,
                never_exits,
                changes: Vec::new(),
            });
            return Err(format!(
                "the iterations of {} are not bounded ({why})",
                self.method_of(head)
            ));
        };
        self.loops.push(LoopInfo {
            head,
            ranking: Some(ranking),
            iterations: Some(iterations.clone()),
            never_exits,
            changes: Vec::new(),
        });
        // Pass 2: costs in terms of the entry values, from the invariant relative to them.
        let invariant = self.invariant(inputs, &pre, &transitions);
        let entry_params: Vec<Dimension> = (0..inputs).collect();
        let paths = match self.paths(head, component, &invariant, inputs, &entry_params, plain) {
            Ok(paths) => paths,
            // A cost the entry values alone do not bound may be bounded through the iterations.
            Err(reason) => {
                return self
                    .counted_paths(head, component, &pre, &transitions, plain)
                    .and_then(|paths| counted_total(&paths, &iterations))
                    .ok_or(reason)
            }
        };
        let branching = paths.iter().map(|p| p.back_calls).max().unwrap_or(0);
        let iteration_cost = CostExpr::max(paths.iter().filter(|p| p.back_calls > 0).map(|p| p.cost.clone()));
        let exit_cost = CostExpr::max(paths.iter().filter(|p| p.back_calls == 0).map(|p| p.cost.clone()));
        let mut total = if branching <= 1 {
            CostExpr::add([
                CostExpr::mul([iterations.clone(), iteration_cost.clone()]),
                exit_cost.clone(),
            ])
        } else {
            let depth = depth.as_ref().unwrap_or(&iterations);
            let nodes = branching_nodes(depth, branching);
            let largest = nodes
                .clone()
                .map(|n| CostExpr::mul([n, CostExpr::max([iteration_cost.clone(), exit_cost.clone()])]));
            let ranking = self.loops.last().and_then(|l| l.ranking.as_ref());
            let divided = divide::recursion_cost(&divide::Recursion {
                inputs,
                paths: first
                    .iter()
                    .map(|p| divide::NodePath {
                        cost: &p.cost,
                        calls: p.back_calls,
                        joint: p.joint.as_ref(),
                    })
                    .collect(),
                depth,
                measures: ranking.and_then(ranking_measure).into_iter().collect(),
                nodes: nodes.filter(|n| n.growth().exponential == 0),
            });
            match (largest, divided) {
                (Some(l), Some(d)) if compare::class_order(&l, &d) == compare::ClassOrder::Smaller => d,
                (Some(l), _) => l,
                (None, Some(d)) => d,
                (None, None) => return Err("branching recursion depth of an unexpected shape".into()),
            }
        };
        if branching <= 1 {
            let varies = [&iteration_cost, &exit_cost]
                .iter()
                .any(|c| !matches!(c, CostExpr::Const(_)));
            let returns_values = self.returns_unbounded_value(head);
            let counted = (varies || returns_values)
                .then(|| self.counted_paths(head, component, &pre, &transitions, plain))
                .flatten();
            if let Some(counted) = &counted {
                if let Some(relation) = returns_values.then(|| counted_exit_relation(inputs, counted)).flatten() {
                    let iterations = iterations.clone();
                    self.counted_exits.insert(head, CountedExit { relation, iterations });
                }
                let counted_cost = varies.then(|| counted_total(counted, &iterations)).flatten();
                if let Some(counted_cost) = counted_cost {
                    if compare::class_order(&total, &counted_cost) == compare::ClassOrder::Smaller {
                        total = counted_cost;
                    }
                }
            }
            if let Some(Ranking::Linear(g)) = self.loops.last().and_then(|l| l.ranking.as_ref()) {
                let g = g.clone();
                let found = self.summary(head, &g, &paths, &iteration_cost, &exit_cost);
                if let Some(mut summary) = found {
                    summary.cases = self.entry_cases(head, &g, component, &pre, &transitions, plain);
                    self.amortised.insert(head, summary);
                }
            }
            if let Some(amortised) = self.amortised_total(head, component, &pre, &invariant, &transitions, &iterations)
            {
                if compare::grows_slower(&total, &amortised) {
                    return Ok(amortised);
                }
            }
        }
        Ok(total)
    }

    /// Whether the post-condition of `head` leaves one of its outputs without an upper bound in
    /// its inputs (only then may a caller need the loop's [`CountedExit`]).
    fn returns_unbounded_value(&self, head: AbsProcId) -> bool {
        let proc = &self.program.procs[head];
        let Some(post) = self.fixpoint.post.get(head).and_then(Option::as_ref) else {
            return false;
        };
        let params: Vec<Dimension> = (0..proc.inputs).collect();
        let names: Vec<String> = (0..proc.inputs).map(input_name).collect();
        (0..proc.outputs).any(|j| {
            LinearExpr::from_terms(&[(proc.inputs + j, 1)], 0)
                .is_some_and(|out| upper_bound(post, &out, &params, &names).is_none())
        })
    }

    /// The paths of a loop of one call back per iteration from the invariant over `(x0, 0, c, x)`
    /// (see [`counted_invariant`]), `c` the iterations so far (a ghost counter, `c' = c + 1` on
    /// every iteration), with costs over the entry values and `c` (named [`ITERATIONS_SO_FAR`]).
    fn counted_paths(
        &self,
        head: AbsProcId,
        component: &[AbsProcId],
        pre: &D,
        transitions: &[D],
        mode: PathMode,
    ) -> Option<Vec<Path<D>>> {
        let n = self.program.procs[head].inputs;
        let invariant = counted_invariant(n, pre, transitions)?;
        let params: Vec<Dimension> = (0..n).chain([n + 1]).collect();
        let mode = PathMode { counted: true, ..mode };
        let paths = self.paths(head, component, &invariant, n + 2, &params, mode).ok()?;
        paths.iter().all(|p| p.back_calls <= 1).then_some(paths)
    }

    /// The amortised form of a solved loop's cost (see [`Amortised<D>`]), when its iterations all
    /// cost the same constant and every exit that returns passes the head's values on to the
    /// outputs in a way the value analysis relates.
    fn summary(
        &self,
        head: AbsProcId,
        g: &Affine,
        paths: &[Path<D>],
        iteration_cost: &CostExpr,
        exit_cost: &CostExpr,
    ) -> Option<Amortised<D>> {
        let n = self.program.procs[head].inputs;
        let m = self.program.procs[head].outputs;
        let iteration = match iteration_cost {
            CostExpr::Const(c) => c.clone(),
            _ => return None,
        };
        if m == 0 {
            return None;
        }
        let relation = exit_relation(paths).ok()??;
        let count = drop_count(&relation, g, n, m)?;
        let returns = without_last_head_values(&relation, n, m);
        Some(Amortised {
            iteration,
            count,
            exit: exit_cost.clone(),
            returns,
            cases: Vec::new(),
        })
    }

    /// The relations over (inputs, outputs) of the runs of a loop that leave at once and of those
    /// that iterate at least once (from the states after one transition, closed under them),
    /// each from the exits of the paths from those states; empty when a returning exit does not
    /// relate its outputs or the closure does not stabilise.
    fn entry_cases(
        &self,
        head: AbsProcId,
        g: &ranking::Affine,
        component: &[AbsProcId],
        pre: &D,
        transitions: &[D],
        mode: PathMode,
    ) -> Vec<(D, Linear)> {
        let n = self.program.procs[head].inputs;
        let m = self.program.procs[head].outputs;
        let entry = entry_state(n, pre);
        let relaxed: Vec<D> = transitions.iter().map(ranking::without_type_range_rows).collect();
        let once = relaxed
            .iter()
            .fold(D::empty(2 * n), |reached, t| reached.join(&after(n, &entry, t, None)));
        let Some(iterated) = closure(n, once, &relaxed) else {
            return Vec::new();
        };
        let params: Vec<Dimension> = (0..n).collect();
        let mut cases = Vec::new();
        for start in [entry, iterated] {
            if start.is_empty() {
                continue;
            }
            let Ok(paths) = self.paths(head, component, &start, n, &params, mode) else {
                return Vec::new();
            };
            match exit_relation(&paths) {
                Ok(Some(relation)) => match drop_count(&relation, g, n, m) {
                    Some(count) => cases.push((without_last_head_values(&relation, n, m), count)),
                    None => return Vec::new(),
                },
                Ok(None) => {}
                Err(()) => return Vec::new(),
            }
        }
        cases
    }

    /// Whether a call of `callee` from `cycle` may pay its cost from the accumulator as a linear
    /// expression of its arguments: a procedure outside the cycle other than an operation or a
    /// loop with an amortised form of its own.
    fn is_amortisable_call(&self, callee: AbsProcId, cycle: Option<&[AbsProcId]>) -> bool {
        !matches!(self.program.procs[callee].origin, Origin::Aux(_))
            && !self.amortised.contains_key(&callee)
            && !cycle.is_some_and(|c| c.contains(&callee))
    }

    /// The cost of a loop whose iterations call loops with an amortised form, when a potential
    /// of the head's values pays for all their iterations together:
    /// `iterations · (iteration cost without them) + nat(Φ(x0)) + exit cost`.
    fn amortised_total(
        &self,
        head: AbsProcId,
        component: &[AbsProcId],
        pre: &D,
        invariant: &D,
        transitions: &[D],
        iterations: &CostExpr,
    ) -> Option<CostExpr> {
        let calls_summarised = component.iter().any(|p| {
            self.program.procs[*p].rules.iter().any(|r| {
                r.items.iter().any(|i| match i {
                    Item::Call { callee, .. } if !component.contains(callee) => {
                        self.amortised.contains_key(callee)
                            || (self.is_amortisable_call(*callee, Some(component))
                                && matches!(&self.bounds[*callee], Bound::Bounded(b) if !matches!(b, CostExpr::Const(_))))
                    }
                    _ => false,
                })
            })
        });
        if !calls_summarised || transitions.is_empty() {
            return None;
        }
        let n = self.program.procs[head].inputs;
        let params: Vec<Dimension> = (0..n).collect();
        let mode = PathMode {
            amortise: true,
            split_aux: false,
            split_wraps: false,
            costless: false,
            counted: false,
        };
        let first = self.paths(head, component, pre, 0, &params, mode).ok()?;
        let spending: Vec<D> = first.iter().flat_map(|p| p.transitions.iter().cloned()).collect();
        // A potential weighing a value by a number as large as the types' limits stands on the
        // types' range, not the program: it would hide the parameters the cost grows with.
        let sized = |phi: &ranking::Affine| {
            phi.coefficients
                .iter()
                .chain([&phi.constant])
                .any(ranking::is_type_range_sized)
        };
        let paid = match ranking::potential(n, &spending) {
            Some(phi) if sized(&phi) => return None,
            Some(phi) => CostExpr::nat(affine_to_linear(&phi)),
            None => {
                let (phi, forms) = ranking::nat_potential(n, &spending)?;
                if sized(&phi) {
                    return None;
                }
                nat_potential_bound(n, &phi, &forms)
            }
        };
        let paths = self.paths(head, component, invariant, n, &params, mode).ok()?;
        let iteration_rest = CostExpr::max(paths.iter().filter(|p| p.back_calls > 0).map(|p| p.cost_rest.clone()));
        let exit_cost = CostExpr::max(paths.iter().filter(|p| p.back_calls == 0).map(|p| p.cost.clone()));
        Some(CostExpr::add([
            CostExpr::mul([iterations.clone(), iteration_rest]),
            paid,
            exit_cost,
        ]))
    }

    /// The states reachable at the head from entry values `x0` (dims `0..n`), as a polyhedron over
    /// `(x0, x)` (`2n` dims): `x = x0` on entry, closed under the transitions, with widening.
    fn invariant(&self, n: usize, pre: &D, transitions: &[D]) -> D {
        let relaxed: Vec<D> = transitions.iter().map(ranking::without_type_range_rows).collect();
        closure(n, entry_state(n, pre), &relaxed)
            // Out of steps: only the entry values' precondition is known of them; nothing of x.
            .unwrap_or_else(|| pre.map_dims(&(0..n).map(Some).collect::<Vec<_>>(), 2 * n))
    }
}

/// The relation between a loop's inputs and outputs of a relation over `(x0, x_last, outputs)`
/// (`n` inputs, `m` outputs): the last head values projected out.
fn without_last_head_values<D: NumericDomain>(relation: &D, n: usize, m: usize) -> D {
    let mapping: Vec<Option<Dimension>> = (0..2 * n + m)
        .map(|d| match d {
            d if d < n => Some(d),
            d if d < 2 * n => None,
            d => Some(d - n),
        })
        .collect();
    relation.map_dims(&mapping, n + m)
}

/// An upper bound, over the inputs (`%i`) and outputs (`%o<j>`), of the drop `g(x0) - g(x_last)`
/// of a ranking function from the entry to the last visit of the head, under `relation` over
/// `(x0, x_last, outputs)`: it bounds the iterations.
fn drop_count<D: NumericDomain>(relation: &D, g: &ranking::Affine, n: usize, m: usize) -> Option<Linear> {
    let mut terms: Vec<(Dimension, BigRational)> = Vec::new();
    for (i, a) in g.coefficients.iter().enumerate() {
        if !a.is_zero() {
            terms.push((i, a.clone()));
            terms.push((n + i, -a.clone()));
        }
    }
    let (expr, scale) = scaled(&terms, &BigRational::zero())?;
    let params: Vec<Dimension> = (0..n).chain(2 * n..2 * n + m).collect();
    let names: Vec<String> = (0..n).map(input_name).chain((0..m).map(output_name)).collect();
    Some(upper_bound(relation, &expr, &params, &names)?.scaled_down(&scale))
}

/// What a caller's rule names: the parameters costs are expressed in, their names, and the
/// results of its multiplications with their operands (`(t, x, y)` for `t = x·y`).
#[derive(Clone, Copy)]
struct Names<'a> {
    params: &'a [Dimension],
    names: &'a [String],
    products: &'a [(Dimension, Dimension, Dimension)],
}

/// A callee's bound over its inputs rewritten in terms of `params` under `state` where a linear
/// part is bounded only through the rule's products: a term `a·t` of `t = x·y` is at most
/// `|a|·|x|·|y|` (a product that wraps is at most `2^31`, resp. `2^63`, in size, which is at most
/// `|x·y|` then), so `nat(a·t + r) ≤ |a|·|x|·|y| + nat(r)`, `|x|` being `nat(x) + nat(-x)`
/// bounded in `params`.
fn through_products<D: NumericDomain>(
    bound: &CostExpr,
    args: &[Dimension],
    state: &D,
    params: &[Dimension],
    names: &[String],
    products: &[(Dimension, Dimension, Dimension)],
) -> Option<CostExpr> {
    if products.is_empty() {
        return None;
    }
    let upper = |e: &LinearExpr| upper_bound(state, e, params, names);
    let size = |d: Dimension| -> Option<CostExpr> {
        let up = LinearExpr::from_terms(&[(d, 1)], 0)?;
        let down = LinearExpr::from_terms(&[(d, -1)], 0)?;
        Some(CostExpr::add([
            CostExpr::nat(upper(&up)?),
            CostExpr::nat(upper(&down)?),
        ]))
    };
    bound.map_leaves(&mut |leaf| {
        let CostExpr::Nat(e) = leaf else {
            return match leaf {
                CostExpr::Log2(_) | CostExpr::Pow2(_) => leaf.map_linears(&mut |e| {
                    let (expr, scale) = substitute(e, args)?;
                    Some(upper(&expr)?.scaled_down(&scale))
                }),
                other => Some(other.clone()),
            };
        };
        let (expr, scale) = substitute(e, args)?;
        if let Some(u) = upper(&expr) {
            return Some(CostExpr::nat(u.scaled_down(&scale)));
        }
        let mut rest = expr;
        let mut sizes = Vec::new();
        for &(t, x, y) in products {
            let a = rest.coefficient(t);
            if a == 0 {
                continue;
            }
            rest = rest.checked_sub(&LinearExpr::from_terms(&[(t, a)], 0)?)?;
            let factor = BigRational::new(BigInt::from(a).abs(), scale.clone());
            sizes.push(CostExpr::mul([CostExpr::Const(factor), size(x)?, size(y)?]));
        }
        if sizes.is_empty() {
            return None;
        }
        let rest = CostExpr::nat(upper(&rest)?.scaled_down(&scale));
        Some(CostExpr::add(std::iter::once(rest).chain(sizes)))
    })
}

/// Over (x0, x_last, outputs): the join of the exits of the paths that leave the loop, `None`
/// when none does; an error when one returns without relating its outputs (the run would
/// escape the relation).
fn exit_relation<D: NumericDomain>(paths: &[Path<D>]) -> Result<Option<D>, ()> {
    let mut relation: Option<D> = None;
    for path in paths.iter().filter(|p| p.back_calls == 0) {
        match &path.exit {
            Some(exit) => {
                relation = Some(match relation {
                    None => exit.clone(),
                    Some(r) => r.join(exit),
                })
            }
            None if path.returns || !path.may_escape => return Err(()),
            None => {}
        }
    }
    Ok(relation)
}

/// An upper bound of a potential `ψ(x0) + Σ c_j·nat(forms[j](x0))` (over `n + k` dimensions,
/// see [`ranking::nat_potential`]) in the entry values: `nat(ψ) + Σ_{c_j > 0} c_j·nat(ℓ_j)`.
fn nat_potential_bound(n: usize, phi: &ranking::Affine, forms: &[LinearExpr]) -> CostExpr {
    let psi = ranking::Affine {
        coefficients: phi.coefficients[..n].to_vec(),
        constant: phi.constant.clone(),
    };
    let terms = forms
        .iter()
        .zip(&phi.coefficients[n..])
        .filter(|(_, c)| c.is_positive());
    let terms = terms.map(|(form, c)| {
        let mut linear = Linear::constant(form.constant_term());
        for (d, a) in form.terms() {
            linear.terms.insert(input_name(d), BigRational::from_integer(a.into()));
        }
        CostExpr::mul([CostExpr::Const(c.clone()), CostExpr::nat(linear)])
    });
    CostExpr::add(std::iter::once(CostExpr::nat(affine_to_linear(&psi))).chain(terms))
}

/// Adds `iteration · count(args, outs)` of a summarised loop call to the accumulator `acc` of
/// `state`; `false` (state unchanged) when the count does not fit the polyhedra's numbers.
/// The procedure an item calls or charges, if any.
fn called(item: &Item) -> Option<AbsProcId> {
    match item {
        Item::Call { callee, .. } | Item::Charge { callee, .. } => Some(*callee),
        _ => None,
    }
}

/// The arguments of a rule's calls of cycle members when it makes several: they stay to the
/// rule's end, so that the last call's state relates them all (see [`Path::joint`]).
fn related_call_arguments<'r>(rule: &'r AbstractRule, cycle: Option<&[AbsProcId]>) -> Vec<Dimension> {
    let calls: Vec<&'r [Dimension]> = rule
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Call { callee, args, .. } if cycle.is_some_and(|c| c.contains(callee)) => Some(args.as_slice()),
            _ => None,
        })
        .collect();
    match calls.len() {
        0 | 1 => Vec::new(),
        _ => calls.concat(),
    }
}

/// A linear cost over the caller's dimensions: terms and a constant.
type LinearCost = (Vec<(Dimension, BigRational)>, BigRational);

/// The most linear forms [`linear_costs`] gives for one bound.
const MAX_LINEAR_FORMS: usize = 4;

/// `bound` (over a callee's inputs `%i`) as linear expressions over the caller's dimensions
/// `args`, each at least it throughout `state`: each `nat(e)` whose argument `state` proves
/// non-negative is `e`, one it proves non-positive is 0; sums and non-negative multiples of such
/// stay linear; a minimum gives one form per item that is linear (at most [`MAX_LINEAR_FORMS`]).
/// Empty for any other shape.
fn linear_costs<D: NumericDomain>(bound: &CostExpr, args: &[Dimension], state: &D) -> Vec<LinearCost> {
    match bound {
        CostExpr::Const(c) => vec![(Vec::new(), c.clone())],
        CostExpr::Nat(e) => linear_nat(e, args, state).into_iter().collect(),
        CostExpr::Add(parts) => parts
            .iter()
            .fold(vec![(Vec::new(), BigRational::zero())], |sums, part| {
                let forms = linear_costs(part, args, state);
                sums.iter()
                    .flat_map(|(terms, constant)| {
                        forms.iter().map(move |(t, c)| {
                            let mut terms = terms.clone();
                            terms.extend(t.iter().cloned());
                            (terms, constant + c)
                        })
                    })
                    .take(MAX_LINEAR_FORMS)
                    .collect()
            }),
        CostExpr::Mul(factors) => {
            let mut scale = BigRational::one();
            let mut linear: Option<Vec<LinearCost>> = None;
            for factor in factors {
                match factor {
                    CostExpr::Const(c) if !c.is_negative() => scale *= c,
                    other if linear.is_none() => linear = Some(linear_costs(other, args, state)),
                    _ => return Vec::new(),
                }
            }
            let forms = linear.unwrap_or_else(|| vec![(Vec::new(), BigRational::one())]);
            forms
                .into_iter()
                .map(|(terms, constant)| {
                    let terms = terms.into_iter().map(|(d, a)| (d, a * &scale)).collect();
                    (terms, constant * &scale)
                })
                .collect()
        }
        // Any item bounds a minimum.
        CostExpr::Min(items) => items
            .iter()
            .flat_map(|i| linear_costs(i, args, state))
            .take(MAX_LINEAR_FORMS)
            .collect(),
        _ => Vec::new(),
    }
}

/// `nat(e)` as a linear form where `state` decides the sign of `e`.
fn linear_nat<D: NumericDomain>(e: &Linear, args: &[Dimension], state: &D) -> Option<LinearCost> {
    let (expr, _) = substitute(e, args)?;
    if state.entails(&Constraint::greater_or_equal_zero(expr.clone())) {
        let mut terms = Vec::new();
        for (name, a) in &e.terms {
            let index: usize = name.strip_prefix('%')?.parse().ok()?;
            terms.push((*args.get(index)?, a.clone()));
        }
        Some((terms, e.constant.clone()))
    } else if state.entails(&Constraint::greater_or_equal_zero(expr.checked_neg()?)) {
        Some((Vec::new(), BigRational::zero()))
    } else {
        None
    }
}

fn accumulate<D: NumericDomain>(
    state: &mut D,
    acc: Dimension,
    summary: &Amortised<D>,
    args: &[Dimension],
    outs: &[Dimension],
) -> bool {
    // The count of a case whose relation the state lies in (the rule's variant put it there),
    // else the count of every run.
    let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
    let count = summary
        .cases
        .iter()
        .find(|(case, _)| embed(case, &targets, state.dimensions()).includes(state))
        .map_or(&summary.count, |(_, count)| count);
    let mut terms: Vec<(Dimension, BigRational)> = Vec::new();
    for (name, a) in &count.terms {
        let dim = if let Some(j) = name.strip_prefix("%o") {
            j.parse::<usize>().ok().and_then(|j| outs.get(j))
        } else {
            name.strip_prefix('%')
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| args.get(i))
        };
        let Some(dim) = dim else {
            return false;
        };
        terms.push((*dim, a * &summary.iteration));
    }
    let constant = &count.constant * &summary.iteration;
    add_to_accumulator(state, acc, terms, &constant)
}

/// `acc` increased by at most each of `forms` in `state` (by exactly the one form where there is
/// one): a potential must pay the least of them, which is at least the cost. False where a number
/// does not fit or there is no form.
fn add_to_accumulator_within<D: NumericDomain>(state: &mut D, acc: Dimension, forms: Vec<LinearCost>) -> bool {
    let exact = forms.len() == 1;
    if forms.is_empty() {
        return false;
    }
    // new = acc + form (or new ≤ acc + form for every form), through a fresh dimension `t`.
    let t = state.dimensions();
    let mut next = state.add_dims(1);
    for (mut terms, constant) in forms {
        terms.push((acc, BigRational::one()));
        terms.push((t, -BigRational::one()));
        let Some((expr, _)) = scaled(&terms, &constant) else {
            return false;
        };
        next.add_constraint(match exact {
            true => Constraint::equal_zero(expr),
            false => Constraint::greater_or_equal_zero(expr),
        });
    }
    let mut next = next.project_out(&[acc]);
    let Some(link) = LinearExpr::from_terms(&[(acc, 1), (t, -1)], 0) else {
        return false;
    };
    next.add_constraint(Constraint::equal_zero(link));
    *state = next.remove_dims(&[t]);
    true
}

/// `acc` increased by `Σ terms + constant` in `state`; false where a number does not fit.
fn add_to_accumulator<D: NumericDomain>(
    state: &mut D,
    acc: Dimension,
    terms: Vec<(Dimension, BigRational)>,
    constant: &BigRational,
) -> bool {
    add_to_accumulator_within(state, acc, vec![(terms, constant.clone())])
}

/// A phased ranking function of `transitions` (wrap cases: large constants), else of their forms
/// boxed in the types' `ranges`, with the transitions it ranks.
fn phased_or_boxed<D: NumericDomain>(
    inputs: usize,
    transitions: Vec<D>,
    ranges: &[(Dimension, Width)],
) -> (Option<Ranking>, Vec<D>) {
    if let Some(found) = ranking::find_phased(inputs, &transitions) {
        return (Some(found), transitions);
    }
    let boxed: Vec<D> = transitions.iter().map(|t| cases::boxed(inputs, t, ranges)).collect();
    (ranking::find_phased(inputs, &boxed), boxed)
}

/// The dimensions a rule fixes to a constant, by its guard or a `Constrain` item (`a·d + c = 0`).
fn constant_dimensions(rule: &AbstractRule) -> HashMap<Dimension, BigRational> {
    let items = rule.items.iter().filter_map(|item| match item {
        Item::Constrain(constraints) => Some(constraints.iter()),
        _ => None,
    });
    rule.guard
        .iter()
        .chain(items.flatten())
        .filter(|c| c.relation() == Relation::Equal)
        .filter_map(|c| {
            let e = c.expression();
            let mut terms = e.terms();
            let (d, a) = terms.next()?;
            if terms.next().is_some() || a == 0 {
                return None;
            }
            Some((d, BigRational::new(BigInt::from(-e.constant_term()), BigInt::from(a))))
        })
        .collect()
}

/// Whether some constraint of an auxiliary operation's `case` over its inputs alone is false for
/// the constant values the call's arguments have.
fn refuted_by_constants(case: &AbstractRule, args: &[Dimension], constants: &HashMap<Dimension, BigRational>) -> bool {
    case.guard.iter().any(|c| {
        let e = c.expression();
        let mut value = BigRational::from_integer(BigInt::from(e.constant_term()));
        for (d, a) in e.terms() {
            let Some(v) = args.get(d).and_then(|arg| constants.get(arg)) else {
                return false;
            };
            value += v * BigRational::from_integer(BigInt::from(a));
        }
        match c.relation() {
            Relation::Equal => !value.is_zero(),
            Relation::GreaterOrEqual => value.is_negative(),
        }
    })
}

/// A rule whose dimensions at or above `at` move up by one, leaving `at` free.
fn skip_dimension(rule: &AbstractRule, at: Dimension) -> AbstractRule {
    renumber_rule(rule, rule.dims + 1, &|d| if d >= at { d + 1 } else { d })
}

/// A rule with every dimension moved up by `offset`.
impl<D: NumericDomain> Solver<'_, D> {
    /// Pass 1 of a loop: its transitions from `pre` and a ranking function for them. When the
    /// paths' convex transitions have none, they are tried again split by the cases of the
    /// auxiliary operations, then also by the cases of wrapping `int` arithmetic, the latter
    /// restricted to the transitions another iteration can follow.
    fn rank(
        &self,
        head: AbsProcId,
        component: &[AbsProcId],
        pre: &D,
        params: &[Dimension],
        costless: bool,
    ) -> Result<Ranked<D>, String> {
        let inputs = self.program.procs[head].inputs;
        let ranges = self.input_ranges(head);
        let modes = [(false, false), (true, false), (true, true)].map(|(split_aux, split_wraps)| PathMode {
            amortise: false,
            split_aux,
            split_wraps,
            costless,
            counted: false,
        });
        let first = self.paths(head, component, pre, 0, params, modes[0])?;
        let transitions: Vec<D> = first.iter().flat_map(|p| p.transitions.iter().cloned()).collect();
        // The loop's entry from its callers, for the refined transitions (computed once, lazily).
        let mut entry: Option<Option<D>> = None;
        let mut loop_entry = |solver: &Self| -> Option<D> {
            entry
                .get_or_insert_with(|| solver.entry_context(head, component))
                .clone()
        };
        let (ranking, ranked_transitions) = match ranking::find(inputs, &transitions) {
            Some(found) => (Some(found), transitions.clone()),
            None => match loop_entry(self).and_then(|e| refine::by_last_transition(inputs, &e, &transitions)) {
                Some(refined) => (ranking::find(inputs, &refined), refined),
                None => (None, transitions.clone()),
            },
        };
        let mut ranked = Ranked {
            ranking,
            first,
            ranked: ranked_transitions,
            transitions,
            mode: modes[0],
            last_iteration: false,
            rests_on_sizes: false,
        };
        // Without costs (for termination alone), the wrapping cases, the slowest, are not tried.
        let tried = if costless { &modes[1..2] } else { &modes[1..] };
        let halving = !costless && self.halves(component);
        for mode in tried {
            if ranked.ranking.is_some() && !self.wants_another(inputs, pre, &ranked, halving) {
                break;
            }
            let Ok(paths) = self.paths(head, component, pre, 0, params, *mode) else {
                continue;
            };
            let transitions: Vec<D> = paths.iter().flat_map(|p| p.transitions.iter().cloned()).collect();
            let at_limits = !self.program.procs[head].is_method_entry;
            let (mut found, mut candidates) = Self::attempt(inputs, *mode, &transitions, &ranges, at_limits);
            if found.is_none() {
                let refined = loop_entry(self).and_then(|e| refine::by_last_transition(inputs, &e, &transitions));
                // Refined transitions start where runs from the entry do: no chaining is needed.
                if let Some(refined) = refined {
                    found = ranking::find(inputs, &refined);
                    candidates = refined;
                }
            }
            if found.is_some() {
                let candidate = Ranked {
                    ranking: found,
                    first: paths,
                    last_iteration: mode.split_wraps,
                    ranked: candidates,
                    transitions,
                    // The later passes need no wrap cases: those only serve the ranking function.
                    mode: modes[1],
                    rests_on_sizes: false,
                };
                let better = match &ranked.ranking {
                    None => true,
                    // Not one that stands on a wrap where a lexicographic one needs none.
                    Some(_) => {
                        !candidate.ranking.as_ref().is_some_and(Ranking::weighs_by_type_range)
                            && !self.wants_another(inputs, pre, &candidate, halving)
                    }
                };
                if better {
                    ranked = candidate;
                }
            }
        }
        // One that weighs a variable by a type-range-sized factor stands on the type's limits (a
        // constant-valued variable standing in for a large constant): one without those
        // variables is preferred, whose class hides no parameter.
        if let Some(found) = ranked.ranking.as_ref().filter(|r| r.weighs_by_type_range()) {
            let heavy = found.heavy_variables();
            if let Some(better) = ranking::find_without(inputs, &ranked.ranked, &heavy, ranked.last_iteration) {
                ranked.ranking = Some(better);
            }
        }
        // A ranking function over ghosts (heap values, unknown to the caller) proves termination
        // but bounds no cost: one without them is preferred.
        if let (Some(ghosts), Some(found)) = (self.program.ghost_inputs.get(&head), &ranked.ranking) {
            if found.mentions(ghosts) {
                if let Some(better) = ranking::find_without(inputs, &ranked.ranked, ghosts, ranked.last_iteration) {
                    ranked.ranking = Some(better);
                }
            }
        }
        // Every function found ranks the loop, so each bounds it soundly; the callers' context
        // (where known) only decides which one is smaller.
        let context = match ranked.ranking {
            Some(_) => loop_entry(self).map_or_else(|| pre.clone(), |e| e.meet(pre)),
            None => pre.clone(),
        };
        if let Some(found) = &ranked.ranking {
            let sizes: Vec<Dimension> = ranges
                .iter()
                .filter(|(_, w)| matches!(w, Width::Size | Width::Nodes))
                .map(|(d, _)| *d)
                .collect();
            if found.mentions(&sizes) {
                // Nor one over heap values, which bounds no cost in the inputs.
                let ghosts = self.program.ghost_inputs.get(&head).map_or(&[][..], Vec::as_slice);
                let avoided: Vec<Dimension> = sizes.iter().chain(ghosts).copied().collect();
                match ranking::find_without(inputs, &ranked.ranked, &avoided, ranked.last_iteration) {
                    None => {
                        ranked.rests_on_sizes = ghosts.is_empty()
                            || ranking::find_without(inputs, &ranked.ranked, &sizes, ranked.last_iteration).is_none();
                    }
                    // The guard's `n - i` rather than the `|a| - i` an access implies, unless
                    // that one is known to be smaller.
                    Some(Ranking::Linear(g)) => {
                        if let Ranking::Linear(f) = found {
                            if !strictly_below(inputs, &context, f, &g) {
                                ranked.ranking = Some(Ranking::Linear(g));
                            }
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        if let Some(Ranking::Linear(f)) = &ranked.ranking {
            let ghosts = self.program.ghost_inputs.get(&head).map_or(&[][..], Vec::as_slice);
            if let Some(tighter) = tighter_ranking(inputs, &context, &ranked, f, ghosts) {
                ranked.ranking = Some(Ranking::Linear(tighter));
            }
        }
        Ok(ranked)
    }

    /// Whether a later path mode may do better than `ranked`'s ranking function: a
    /// lexicographic one whose iterations are not bounded (a mode that forgets a wrapped value
    /// leaves its raises unbounded; one that splits the wrap may bound them).
    /// Or, in a loop that halves (`halving`), one that is not logarithmic: the midpoint of a sum
    /// that may wrap halves the range only in the modes that split the wrap. Or one that weighs
    /// a variable by a type-range-sized factor.
    fn wants_another(&self, inputs: usize, pre: &D, ranked: &Ranked<D>, halving: bool) -> bool {
        match &ranked.ranking {
            Some(Ranking::Halving(_)) | None => false,
            Some(ranking @ Ranking::Lexicographic(_)) => {
                Self::iterations(inputs, ranking, ranked).is_none()
                    && self.lexicographic_iterations(inputs, pre, ranked, ranking).is_none()
            }
            // One that stands on the types' limits, where splitting the wrap may give the guard
            // its own.
            Some(ranking) => halving || ranking.weighs_by_type_range(),
        }
    }

    /// Whether a procedure of `component` shifts right without sign: a loop that may halve its
    /// range by the midpoint `(lo + hi) >>> 1`, whose sum may wrap (a signed shift or division of
    /// a wrapped sum halves nothing, so only this one gains from the modes that split wraps).
    fn halves(&self, component: &[AbsProcId]) -> bool {
        component.iter().any(|&p| {
            self.program.procs[p]
                .rules
                .iter()
                .flat_map(|r| &r.items)
                .filter_map(called)
                .any(|c| matches!(self.program.procs[c].origin, Origin::Aux(AuxOp::Ushr(_))))
        })
    }

    /// A ranking function of a pass's transitions, and the transitions it ranks: in a mode that
    /// splits wrapping arithmetic, of the transitions another iteration can follow (chained, or
    /// those possible within the types' ranges when there are too many pairs to chain), and, for
    /// a loop (`at_limits`), by the distance to a type's limit where nothing better ranks them.
    fn attempt(
        inputs: usize,
        mode: PathMode,
        transitions: &[D],
        ranges: &[(Dimension, Width)],
        at_limits: bool,
    ) -> (Option<Ranking>, Vec<D>) {
        if !mode.split_wraps {
            return (ranking::find(inputs, transitions), transitions.to_vec());
        }
        let (found, candidates) = Self::attempt_wraps(inputs, transitions, ranges);
        // A loop that a counter reaching its type's limit may stop: the distance to the limit,
        // as the transitions bound it, rather than nothing or a function that weighs a variable
        // by a type-range-sized factor. Not a recursion, which the stack stops first.
        if !at_limits || found.as_ref().is_some_and(|r| !r.weighs_by_type_range()) {
            return (found, candidates);
        }
        let plain = ranking::find_at_type_limits(inputs, &candidates).filter(|r| !r.weighs_by_type_range());
        (plain.or(found), candidates)
    }

    /// [`attempt`](Self::attempt) in a mode that splits wrapping arithmetic.
    fn attempt_wraps(inputs: usize, transitions: &[D], ranges: &[(Dimension, Width)]) -> (Option<Ranking>, Vec<D>) {
        match cases::chained(inputs, transitions, ranges) {
            Some(chained) => phased_or_boxed(inputs, chained, ranges),
            None => {
                let live: Vec<D> = transitions
                    .iter()
                    .filter(|t| !cases::boxed(inputs, *t, ranges).is_empty())
                    .cloned()
                    .collect();
                match phased_or_boxed(inputs, live.clone(), ranges) {
                    (None, _) => (ranking::find(inputs, &live), live),
                    found => found,
                }
            }
        }
    }

    /// The states in which a cycle's head is entered from outside its component: the join of the
    /// contexts of every reachable call from outside. `None` (the head's precondition then stands
    /// for its entry) when no call from outside is found, or when the component is entered
    /// elsewhere too: at a method's entry (an analysis entry, whose precondition is not a call's)
    /// or at another member, whose cost takes the head's bound at its own calls of the head.
    fn entry_context(&self, head: AbsProcId, component: &[AbsProcId]) -> Option<D> {
        let calls =
            |c: &AbstractProc, p: AbsProcId| c.rules.iter().any(|r| r.items.iter().any(|i| called(i) == Some(p)));
        let outside: Vec<AbsProcId> = (0..self.program.procs.len())
            .filter(|c| !component.contains(c))
            .collect();
        let entered_elsewhere = component.iter().any(|&p| {
            self.program.procs[p].is_method_entry
                || (p != head && outside.iter().any(|&c| calls(&self.program.procs[c], p)))
        });
        if entered_elsewhere {
            return None;
        }
        outside
            .iter()
            .filter(|&&c| calls(&self.program.procs[c], head))
            .filter_map(|&c| call_context(self.program, self.fixpoint, c, head))
            .reduce(|a, b| a.join(&b))
    }

    /// The iterations a ranking function bounds (`None` for a lexicographic one some component
    /// of which may increase, and for one that weighs a variable by a type-range-sized factor).
    fn iterations(inputs: usize, ranking: &Ranking, ranked: &Ranked<D>) -> Option<CostExpr> {
        // A function that stands on the types' limits proves termination, but the bound it gives
        // is a constant of their size whose class would hide the parameters.
        if ranking.weighs_by_type_range() {
            return None;
        }
        let iterations = iterations_of(ranking).or_else(|| match ranking {
            Ranking::Lexicographic(components)
                if ranking::lexicographic_is_monotone(inputs, &ranked.ranked, components) =>
            {
                Some(CostExpr::add(
                    components
                        .iter()
                        .map(|f| CostExpr::nat(affine_to_linear(f).plus(&Linear::constant(1)))),
                ))
            }
            _ => None,
        });
        // A ranking function of the transitions other iterations follow leaves out the last one.
        iterations.map(|i| match ranked.last_iteration {
            true => CostExpr::add([i, CostExpr::constant(1)]),
            false => i,
        })
    }

    /// The iterations of a loop that goes through phases (`Ranking::Phases`), summed over the
    /// phases: a phase that cannot repeat runs once, a ranked one at most what its ranking
    /// function allows from the largest of its starts (`phase_starts`); a phase no run enters
    /// adds nothing.
    fn phase_iterations(&self, inputs: usize, pre: &D, ranked: &Ranked<D>, ranking: &Ranking) -> Option<CostExpr> {
        let Ranking::Phases(phases) = ranking else {
            return None;
        };
        // The phases index the transitions the search kept (`ranking::find` drops empty ones).
        let live: Vec<&D> = ranked.ranked.iter().filter(|t| !t.is_empty()).collect();
        if !ranking::verify(inputs, &live, ranking) {
            return None;
        }
        let starts = phase_starts(inputs, &entry_state(inputs, pre), &live, phases)?;
        let mut parts = Vec::new();
        for (phase, starts) in phases.iter().zip(&starts).filter(|(_, s)| !s.is_empty()) {
            parts.push(match phase.ranking.as_deref() {
                None => CostExpr::constant(1),
                Some(r) => {
                    let bounds: Option<Vec<CostExpr>> = starts
                        .iter()
                        .map(|start| iterations_of(&bounded_over(start, inputs, r)?))
                        .collect();
                    CostExpr::max(bounds?)
                }
            });
        }
        let total = CostExpr::add(parts);
        Some(match ranked.last_iteration {
            true => CostExpr::add([total, CostExpr::constant(1)]),
            false => total,
        })
    }

    /// The iterations of a loop ranked lexicographically where some component may increase,
    /// each raise bounded over the loop's invariant ([`lexicographic`]).
    fn lexicographic_iterations(
        &self,
        inputs: usize,
        pre: &D,
        ranked: &Ranked<D>,
        ranking: &Ranking,
    ) -> Option<CostExpr> {
        let Ranking::Lexicographic(components) = ranking else {
            return None;
        };
        let invariant = self.invariant(inputs, pre, &ranked.transitions);
        let total = lexicographic::iterations(inputs, &invariant, &ranked.ranked, components)?;
        Some(match ranked.last_iteration {
            true => CostExpr::add([total, CostExpr::constant(1)]),
            false => total,
        })
    }

    /// The JVM range of the head's inputs that hold program values.
    fn input_ranges(&self, head: AbsProcId) -> Vec<(Dimension, Width)> {
        let proc = &self.program.procs[head];
        let mut ranges: Vec<(Dimension, Width)> = proc
            .rules
            .iter()
            .flat_map(|r| r.ranges.iter().copied())
            .filter(|(d, _)| *d < proc.inputs)
            .collect();
        ranges.sort_by_key(|(d, _)| *d);
        ranges.dedup_by_key(|(d, _)| *d);
        ranges
    }

    /// Variants of a rule per case of each loop with an [`Amortised<D>`] summary it calls (the
    /// runs that leave at once, those that iterate), each a constraint after the call: together
    /// they cover the rule, and each keeps what the join of the cases loses (a counter that
    /// stays where it was when the loop is skipped).
    fn entry_variants(&self, rule: &AbstractRule) -> Vec<AbstractRule> {
        let mut variants: Vec<Vec<Item>> = vec![Vec::new()];
        for item in &rule.items {
            let cases = match item {
                Item::Call { callee, args, outs } => self
                    .amortised
                    .get(callee)
                    .filter(|s| s.cases.len() > 1 && variants.len() * s.cases.len() <= MAX_AUX_VARIANTS)
                    .map(|summary| {
                        let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
                        let constrain = |case: &D| embed(case, &targets, rule.dims).constraints().to_vec();
                        summary
                            .cases
                            .iter()
                            .map(|(case, _)| Item::Constrain(constrain(case)))
                            .collect::<Vec<Item>>()
                    }),
                _ => None,
            };
            // The case's constraint comes first, so that the call's count is the case's.
            variants = match cases {
                Some(cases) => variants
                    .into_iter()
                    .flat_map(|items| {
                        cases.iter().map(move |case: &Item| {
                            let mut items = items.clone();
                            items.push(case.clone());
                            items
                        })
                    })
                    .collect(),
                None => variants,
            };
            for items in &mut variants {
                items.push(item.clone());
            }
        }
        variants
            .into_iter()
            .map(|items| AbstractRule { items, ..rule.clone() })
            .collect()
    }

    /// The variants of a rule with each call of an auxiliary operation followed by the
    /// constraints of one of the operation's cases (over the call's arguments and outputs, and a
    /// fresh dimension for the case's other result), at most [`MAX_AUX_VARIANTS`]; the rule
    /// itself when it calls none or would have more. Every run of the rule follows one variant:
    /// the cases cover every input on which the operation completes.
    /// A call of a procedure outside `component` whose POST has cases is split by them the same
    /// way (`post_case_variants`).
    fn aux_variants(&self, rule: &AbstractRule, component: &[AbsProcId]) -> Vec<AbstractRule> {
        let mut variants = vec![rule.clone()];
        let constants = constant_dimensions(rule);
        for (k, item) in rule.items.iter().enumerate() {
            let Item::Call { callee, args, outs } = item else {
                continue;
            };
            let aux = &self.program.procs[*callee];
            if !matches!(aux.origin, Origin::Aux(_)) {
                let outside = !component.contains(callee);
                if let Some(split) = outside
                    .then(|| self.post_case_variants(&variants, rule, k, *callee, args, outs))
                    .flatten()
                {
                    variants = split;
                }
                continue;
            }
            if aux.rules.len() < 2 {
                continue;
            }
            // The cases a constant argument (a shift's distance, a divisor) rules out are left out.
            let cases: Vec<&AbstractRule> = aux
                .rules
                .iter()
                .filter(|case| !refuted_by_constants(case, args, &constants))
                .collect();
            if variants.len() * cases.len() > MAX_AUX_VARIANTS || args.len() != aux.inputs || outs.len() != aux.outputs
            {
                return vec![rule.clone()];
            }
            let mut next = Vec::with_capacity(variants.len() * cases.len());
            for variant in &variants {
                for case in cases.iter().copied() {
                    // Case dimensions: inputs, outputs, then locals (fresh in the variant).
                    let fresh = variant.dims;
                    let map = |d: Dimension| -> Dimension {
                        if d < aux.inputs {
                            args[d]
                        } else if d < aux.inputs + aux.outputs {
                            outs[d - aux.inputs]
                        } else {
                            fresh + d - aux.inputs - aux.outputs
                        }
                    };
                    let extra = case.dims.saturating_sub(aux.inputs + aux.outputs);
                    let constraints: Option<Vec<Constraint>> = case
                        .guard
                        .iter()
                        .map(|c| {
                            let terms: Vec<(Dimension, i64)> =
                                c.expression().terms().map(|(d, a)| (map(d), a)).collect();
                            Some(Constraint::new(
                                LinearExpr::from_terms(&terms, c.expression().constant_term())?,
                                c.relation(),
                            ))
                        })
                        .collect();
                    let Some(constraints) = constraints else {
                        return vec![rule.clone()];
                    };
                    let mut with_case = variant.clone();
                    with_case.dims += extra;
                    // The item index is the same in every variant: constraints go right after
                    // the call, shifting later items by the ones inserted before.
                    let position = k + 1 + (with_case.items.len() - rule.items.len());
                    with_case.items.insert(position, Item::Constrain(constraints));
                    next.push(with_case);
                }
            }
            variants = next;
        }
        variants
    }

    /// The variants of `variants` (of `rule`) with the call at item `k` of `callee`, a procedure
    /// whose POST has cases (`Fixpoint::cases`), followed by the constraints of one case; `None`
    /// when it has none or there would be more than [`MAX_AUX_VARIANTS`]. The cases cover every
    /// run in which the callee returns.
    fn post_case_variants(
        &self,
        variants: &[AbstractRule],
        rule: &AbstractRule,
        k: usize,
        callee: AbsProcId,
        args: &[Dimension],
        outs: &[Dimension],
    ) -> Option<Vec<AbstractRule>> {
        let cases = self.fixpoint.cases.get(callee).filter(|c| c.len() > 1)?;
        if variants.len() * cases.len() > MAX_AUX_VARIANTS {
            return None;
        }
        let targets: Vec<Dimension> = args.iter().chain(outs).copied().collect();
        let mut next = Vec::with_capacity(variants.len() * cases.len());
        for variant in variants {
            let position = k + 1 + (variant.items.len() - rule.items.len());
            for case in cases {
                let mut with_case = variant.clone();
                let constraints = embed(case, &targets, variant.dims).constraints().to_vec();
                with_case.items.insert(position, Item::Constrain(constraints));
                next.push(with_case);
            }
        }
        Some(next)
    }
}

fn shift_rule(rule: &AbstractRule, offset: usize) -> AbstractRule {
    renumber_rule(rule, rule.dims + offset, &|d| d + offset)
}

/// A rule over `dims` dimensions with each dimension `d` renamed `map(d)` (`map` is injective).
/// A constraint or amount whose coefficients no longer fit is dropped, as when it is built.
fn renumber_rule(rule: &AbstractRule, dims: usize, map: &dyn Fn(Dimension) -> Dimension) -> AbstractRule {
    let expression = |e: &LinearExpr| -> Option<LinearExpr> {
        LinearExpr::from_terms(
            &e.terms().map(|(d, a)| (map(d), a)).collect::<Vec<_>>(),
            e.constant_term(),
        )
    };
    let constraint =
        |c: &Constraint| -> Option<Constraint> { Some(Constraint::new(expression(c.expression())?, c.relation())) };
    let items = rule.items.iter().map(|item| renumber_item(item, map)).collect();
    let mut cost = rule.cost.clone();
    cost.symbolic = cost
        .symbolic
        .iter()
        .filter_map(|factors| factors.iter().map(expression).collect::<Option<Vec<_>>>())
        .collect();
    AbstractRule {
        dims,
        cost,
        guard: rule.guard.iter().filter_map(constraint).collect(),
        items,
        returns: rule.returns,
        may_throw: rule.may_throw,
        source: rule.source,
        ranges: rule.ranges.iter().map(|(d, w)| (map(*d), *w)).collect(),
        cyclic_call: rule.cyclic_call.clone(),
    }
}

/// `item` with each dimension `d` renamed `map(d)`; a constraint whose coefficients no longer fit
/// is dropped.
pub(crate) fn renumber_item(item: &Item, map: &dyn Fn(Dimension) -> Dimension) -> Item {
    let constraint = |c: &Constraint| -> Option<Constraint> {
        let terms: Vec<(Dimension, i64)> = c.expression().terms().map(|(d, a)| (map(d), a)).collect();
        Some(Constraint::new(
            LinearExpr::from_terms(&terms, c.expression().constant_term())?,
            c.relation(),
        ))
    };
    match item {
        Item::Constrain(cs) => Item::Constrain(cs.iter().filter_map(constraint).collect()),
        Item::Opaque { reason } => Item::Opaque { reason: reason.clone() },
        Item::Charge { callee, args } => Item::Charge {
            callee: *callee,
            args: args.iter().map(|d| map(*d)).collect(),
        },
        Item::Marker { bytecodes } => Item::Marker { bytecodes: *bytecodes },
        Item::Wrap {
            dim,
            width,
            pc,
            factors,
            wraps,
        } => Item::Wrap {
            dim: map(*dim),
            width: *width,
            pc: *pc,
            factors: factors.map(|(l, r)| (map(l), map(r))),
            wraps: *wraps,
        },
        Item::Call { callee, args, outs } => Item::Call {
            callee: *callee,
            args: args.iter().map(|d| map(*d)).collect(),
            outs: outs.iter().map(|d| map(*d)).collect(),
        },
    }
}

impl Linear {
    /// `self / scale`.
    pub fn scaled_down(&self, scale: &BigInt) -> Linear {
        let divisor = BigRational::from_integer(scale.clone());
        Linear {
            constant: &self.constant / &divisor,
            terms: self.terms.iter().map(|(k, v)| (k.clone(), v / &divisor)).collect(),
        }
    }

    /// `k · self`.
    pub fn times(&self, k: i64) -> Linear {
        Linear::constant(0).add_scaled(self, &BigRational::from_integer(BigInt::from(k)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::polyhedra::Polyhedron;

    /// The iterations of the worst run a nested multiphase ranking function allows from entry
    /// values `values`: every function falls by exactly its least amount, until the last one is
    /// negative where a transition would start.
    fn worst_run(values: &[i64]) -> i64 {
        let mut f = values.to_vec();
        let mut steps = 0;
        while f[f.len() - 1] >= 0 {
            let before = f.clone();
            f[0] -= 1;
            for i in 1..f.len() {
                f[i] -= 1 - before[i - 1];
            }
            steps += 1;
        }
        steps
    }

    /// The bound of `multiphase_iterations` at entry values `values` (constant functions).
    fn bound_at(values: &[i64]) -> i64 {
        let components: Vec<Affine> = values
            .iter()
            .map(|&v| Affine {
                coefficients: vec![],
                constant: BigRational::from_integer(BigInt::from(v)),
            })
            .collect();
        let expr = multiphase_iterations(&components).expect("two or three phases");
        let value = expr.eval(&|_| None).expect("a constant bound");
        value.to_integer().to_i64().expect("small")
    }

    /// `forms` as `(coefficient of dimension 0, coefficient of dimension 1, constant)`.
    fn coefficients(forms: &[LinearCost]) -> Vec<(i64, i64, i64)> {
        let int = |r: &BigRational| r.to_integer().to_i64().expect("small");
        forms
            .iter()
            .map(|(terms, constant)| {
                let of = |d: Dimension| terms.iter().filter(|(t, _)| *t == d).map(|(_, a)| int(a)).sum();
                (of(0), of(1), int(constant))
            })
            .collect()
    }

    #[test]
    fn a_minimum_gives_one_linear_form_per_item() {
        let state = Polyhedron::from_constraints(
            2,
            vec![
                Constraint::greater_or_equal_zero(LinearExpr::variable(0)),
                Constraint::greater_or_equal_zero(LinearExpr::variable(1)),
            ],
        );
        let nat = |name: &str| CostExpr::nat(Linear::var(name));
        let bound = CostExpr::add([
            CostExpr::constant(7),
            CostExpr::mul([CostExpr::constant(6), CostExpr::min([nat("%0"), nat("%1")])]),
        ]);
        let forms = linear_costs(&bound, &[0, 1], &state);
        assert_eq!(coefficients(&forms), vec![(6, 0, 7), (0, 6, 7)]);
        // A part that is not linear leaves no form; a sign the state does not decide neither.
        let square = CostExpr::mul([nat("%0"), nat("%1")]);
        assert!(linear_costs(&CostExpr::add([CostExpr::constant(1), square]), &[0, 1], &state).is_empty());
        let unknown_sign = CostExpr::nat(Linear::var("%0").minus(&Linear::var("%1")));
        assert!(linear_costs(&unknown_sign, &[0, 1], &state).is_empty());
    }

    #[test]
    fn multiphase_bounds_cover_the_worst_runs() {
        for a in -3..25 {
            for b in -3..25 {
                let two = [a, b];
                assert!(worst_run(&two) <= bound_at(&two), "{two:?}");
                for c in -3..25 {
                    let three = [a, b, c];
                    assert!(worst_run(&three) <= bound_at(&three), "{three:?}");
                }
            }
        }
    }
}
