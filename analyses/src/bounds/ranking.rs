//! Ranking functions of loops by linear programming (Podelski–Rybalchenko, through Farkas' lemma),
//! linear and logarithmic, each checked exactly before it is used.
//!
//! A loop is given by its transitions, polyhedra over `2n` dimensions: the loop's variables before
//! (`0..n`) and after (`n..2n`) one iteration. Three shapes are searched, logarithmic ones first:
//! - **linear**: `f(x) ≥ 1` on every transition and `f(x) - f(x') ≥ 1`: at most `nat(f(x0))` iterations;
//! - **halving**: `f(x) ≥ 1` and `f(x) ≥ 2·f(x')`: at most `log2(nat(f(x0))+1)` (bits) iterations;
//! - **doubling**: `g(x) ≥ 1`, `g(x') ≥ 2·g(x)`, `h(x) - g(x) ≥ 1`, `h(x') ≤ h(x)`: at most
//!   `log2(nat(h(x0)-1)+1)` iterations (a growing variable that stays below a bound);
//! - **absolute**: a linear ranking function of the variables' absolute values, for loops whose
//!   variables change sign (Euclid's algorithm with `%` on any ints): each transition is split by
//!   the signs of the (at most [`MAX_SIGNED`]) variables that may be negative before or after it,
//!   each piece is mapped to the absolute values (exactly: a dimension negated), and a linear
//!   ranking function with non-negative coefficients on those variables is searched on the pieces:
//!   at most `nat(f(|x0|))` iterations;
//! - lexicographic and multiphase (nested, of two or three phases) ones, then the phases of [`phases`]: the
//!   components of the graph of which transition may follow which, each ranked on its own;
//! - **bounded**, where none of the above is found or only one of several functions: no run of
//!   `k + 1` transitions exists for a small `k` (the states after each sequence of transitions,
//!   computed as polyhedra, become empty), so at most `k` iterations whatever the inputs (a loop
//!   whose variables leave its guard within a few steps by growing at different rates).
//!
//! **The LP runs in floating point (good_lp/microlp); its answer is only a candidate: coefficients
//! are rounded to small rationals and every condition is re-proved by exact polyhedral entailment.
//! A candidate that fails the exact check is discarded.**

use super::phases::{self, Phase};
use crate::value::domain::{Constraint, LinearExpr, NumericDomain, Relation};
use good_lp::{microlp, variable, Expression, ProblemVariables, Solution, SolverModel, Variable};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Variables that may be negative an absolute ranking function splits on (each doubles the
/// pieces of a transition twice: before and after).
pub const MAX_SIGNED: usize = 3;

/// The largest number of a transition's constraint that enters the floating-point LP.
const LP_MAGNITUDE: u64 = 1 << 40;

/// An affine function `Σ coefficients[i]·x_i + constant` of the loop variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub coefficients: Vec<BigRational>,
    pub constant: BigRational,
}

/// A proven ranking function and the iteration bound it gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// At most `nat(f(x0))` iterations.
    Linear(Affine),
    /// At most `log2(nat(f(x0))+1)` iterations.
    Halving(Affine),
    /// At most `log2(nat(bound(x0)-1)+1)` iterations, where `growing` at least doubles each time.
    Doubling { growing: Affine, bound: Affine },
    /// At most `nat(f(|x0|))` iterations: `f` applies to the absolute values of the variables
    /// (its coefficients on variables that may be negative are non-negative).
    Absolute(Affine),
    /// A nested multiphase ranking function `(f_1, ..., f_k)`, `k` in `2..=MAX_PHASES` (Ben-Amram
    /// and Genaim's shape): on every transition `f_1` decreases by at least 1, each later `f_i`
    /// decreases by at least `1 - f_{i-1}(x)`, and `f_k` is non-negative. Once `f_1` is negative
    /// `f_2` decreases by at least 2, and so on down the chain, so the loop terminates, within
    /// `2·nat(f_1) + nat(f_2) + 2` iterations for two phases and `3·nat(f_1) + 3·nat(f_2) +
    /// nat(f_3) + 6` for three (`bounds::cost`).
    Multiphase(Vec<Affine>),
    /// A lexicographic ranking function `(f_1, ..., f_k)`: on every transition some `f_i`
    /// decreases by at least 1 from a non-negative value while every `f_j` before it does not
    /// increase. It proves termination; its iterations are bounded only where no component ever
    /// increases (`bounds::cost`).
    Lexicographic(Vec<Affine>),
    /// The phases a run goes through, each at most once, with a ranking function each
    /// ([`phases`]): the iterations are at most the sum of the phases' iterations, each bounded at
    /// the values the phase starts from.
    Phases(Vec<Phase>),
    /// At most this many iterations: no sequence of one more transitions can run.
    Bounded(usize),
}

/// The most iterations a [`Ranking::Bounded`] loop may be proven to run.
pub const MAX_BOUNDED_ITERATIONS: usize = 6;

/// The most sequences of transitions [`bounded`] follows (pruned where a prefix cannot run).
const MAX_BOUNDED_SEQUENCES: usize = 256;

/// An affine function of `2n` variables to be required non-negative on a transition, as the sum
/// of `(weight, function of x or of x')` parts plus a constant.
struct Obligation {
    /// `(factor, unknown function index, primed)` terms.
    parts: Vec<(f64, usize, bool)>,
    constant: f64,
    /// Factors of the unknowns' constants that enter the constant term: `(factor, function index)`.
    constant_parts: Vec<(f64, usize)>,
    /// Known coefficients of dimensions past the `2n` of the loop variables: `(dimension, factor)`.
    fixed: Vec<(usize, f64)>,
}

/// The smallest number only the types' limits produce (their multiples and offsets, `2^31`).
const TYPE_RANGE_SIZE: u64 = 1 << 24;

/// Whether a number is as large as only the types' limits produce ([`TYPE_RANGE_SIZE`] and beyond).
pub fn is_type_range_sized(a: &BigRational) -> bool {
    a.abs() >= BigRational::from_integer(BigInt::from(TYPE_RANGE_SIZE))
}

/// `t` without its rows whose constant is as large as only the types' limits produce: a relaxation
/// (it contains `t`) whose numbers stay small.
pub fn without_type_range_rows<D: NumericDomain>(t: &D) -> D {
    let small = |c: &&Constraint| c.expression().constant_term().unsigned_abs() < TYPE_RANGE_SIZE;
    D::from_constraints(t.dimensions(), t.constraints().iter().filter(small).cloned())
}

/// By how much one iteration may change a variable: the least and greatest `x' - x` over the
/// transitions that can run (`None`: unbounded that way).
pub type Change = (Option<BigRational>, Option<BigRational>);

/// Per variable (`0..n`), by how much one of `transitions` may change it: for a reason that says
/// which variable fails to decrease (`y' ≤ y + 1` after a `y + 1` that may wrap).
pub fn changes<D: NumericDomain>(n: usize, transitions: &[D]) -> Vec<Change> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    if live.is_empty() {
        return Vec::new();
    }
    (0..n)
        .map(|i| {
            let Some(delta) = LinearExpr::from_terms(&[(n + i, 1), (i, -1)], 0) else {
                return (None, None);
            };
            let mut change: Change = live[0].bounds(&delta);
            for t in &live[1..] {
                let (low, high) = t.bounds(&delta);
                change.0 = change.0.zip(low).map(|(a, b)| a.min(b));
                change.1 = change.1.zip(high).map(|(a, b)| a.max(b));
            }
            change
        })
        .collect()
}

/// Searches the shapes (halving, doubling, linear) and returns the first one proven exactly.
pub fn find<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    if live.is_empty() {
        // No iteration can happen at all: any function ranks it.
        return Some(Ranking::Linear(Affine {
            coefficients: vec![BigRational::zero(); n],
            constant: BigRational::zero(),
        }));
    }
    // Logarithmic shapes first: when one exists it is asymptotically tighter than a linear one.
    let found = halving(n, &live)
        .or_else(|| doubling(n, &live))
        .or_else(|| linear(n, &live))
        .or_else(|| absolute(n, &live))
        .or_else(|| lexicographic(n, &live))
        .or_else(|| multiphase(n, &live))
        .or_else(|| phases::find(n, &live, find));
    prefer_bounded(n, &live, found)
}

/// The fewest iterations `k` (up to [`MAX_BOUNDED_ITERATIONS`]) such that no sequence of `k + 1`
/// transitions can run: the states after each sequence are followed depth-first (the image of a
/// state under a transition is their meet with the variables before it projected out, an
/// over-approximation where projection is inexact, so an empty one is truly empty), and a sequence
/// that ends in the empty state is not extended.
fn bounded<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    let mut frontier: Vec<D> = vec![D::universe(n)];
    let mut followed = 0;
    for k in 0..=MAX_BOUNDED_ITERATIONS {
        let mut next = Vec::new();
        for state in &frontier {
            for t in transitions {
                followed += 1;
                if followed > MAX_BOUNDED_SEQUENCES {
                    return None;
                }
                let after = image(n, state, t);
                if !after.is_empty() {
                    next.push(after);
                }
            }
        }
        if next.is_empty() {
            return Some(Ranking::Bounded(k));
        }
        frontier = next;
    }
    None
}

/// The states (over `n` variables) a transition (over `2n` and its own extra dimensions) leads
/// to from `state`.
fn image<D: NumericDomain>(n: usize, state: &D, t: &D) -> D {
    let dims = t.dimensions();
    let widened: Vec<Option<usize>> = (0..n).map(Some).collect();
    let joined = state.map_dims(&widened, dims).meet(t);
    let after: Vec<Option<usize>> = (0..dims).map(|d| (n..2 * n).contains(&d).then(|| d - n)).collect();
    joined.map_dims(&after, n)
}

impl Ranking {
    /// Its affine functions.
    pub fn functions(&self) -> Vec<&Affine> {
        match self {
            Ranking::Linear(f) | Ranking::Halving(f) | Ranking::Absolute(f) => vec![f],
            Ranking::Doubling { growing, bound } => vec![growing, bound],
            Ranking::Multiphase(components) | Ranking::Lexicographic(components) => components.iter().collect(),
            Ranking::Phases(phases) => phases
                .iter()
                .filter_map(|p| p.ranking.as_deref())
                .flat_map(Ranking::functions)
                .collect(),
            Ranking::Bounded(_) => Vec::new(),
        }
    }

    /// Whether some function of it weighs a variable by a factor as large as only the types'
    /// limits produce (a ranking function that stands on a wrap rather than on the program).
    pub fn weighs_by_type_range(&self) -> bool {
        self.functions()
            .iter()
            .any(|f| f.coefficients.iter().any(is_type_range_sized))
    }

    /// The variables some function of it weighs by a type-range-sized factor.
    pub fn heavy_variables(&self) -> Vec<usize> {
        let mut heavy: Vec<usize> = self
            .functions()
            .iter()
            .flat_map(|f| {
                f.coefficients
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| is_type_range_sized(a))
            })
            .map(|(d, _)| d)
            .collect();
        heavy.sort_unstable();
        heavy.dedup();
        heavy
    }

    /// Whether some function of it depends on one of the variables `dims`.
    pub fn mentions(&self, dims: &[usize]) -> bool {
        self.functions().iter().any(|f| {
            dims.iter()
                .any(|&d| f.coefficients.get(d).is_some_and(|a| !a.is_zero()))
        })
    }
}

/// A ranking function of the transitions (over `2n` variables) that does not depend on the
/// variables `avoided`, which are forgotten first; `None` when there is none.
/// With `phased`, only the shapes of [`find_phased`].
pub fn find_without<D: NumericDomain>(n: usize, transitions: &[D], avoided: &[usize], phased: bool) -> Option<Ranking> {
    let mapping: Vec<Option<usize>> = (0..2 * n)
        .map(|d| (!avoided.contains(&(d % n.max(1)))).then_some(d))
        .collect();
    let forgotten: Vec<D> = transitions
        .iter()
        .map(|t| {
            let extra: Vec<Option<usize>> = (2 * n..t.dimensions()).map(Some).collect();
            let mapping: Vec<Option<usize>> = mapping.iter().copied().chain(extra).collect();
            t.map_dims(&mapping, t.dimensions())
        })
        .collect();
    let found = match phased {
        true => find_phased(n, &forgotten),
        false => find(n, &forgotten),
    };
    found.filter(|r| !r.mentions(avoided))
}

/// Searches halving, linear and multiphase ranking functions only (one linear program per shape
/// and depth): for
/// transitions whose large constants (the cases of wrapping arithmetic) make the many linear
/// programs of the other shapes slow. Halving comes first, as in [`find`]: a midpoint whose sum
/// may wrap still halves the range in every case.
pub fn find_phased<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    let found = one_phase(n, &live).or_else(|| phases::find(n, &live, one_phase_without_limits));
    prefer_bounded(n, &live, found)
}

/// `found`, unless it is a ranking of several functions (or none) and the loop runs at most a few
/// iterations ([`bounded`]), a constant bound the others cannot give.
fn prefer_bounded<D: NumericDomain>(n: usize, live: &[&D], found: Option<Ranking>) -> Option<Ranking> {
    match found {
        Some(simple @ (Ranking::Linear(_) | Ranking::Halving(_) | Ranking::Doubling { .. } | Ranking::Absolute(_))) => {
            Some(simple)
        }
        other => bounded(n, live).or(other),
    }
}

/// A ranking function of [`one_phase`]'s shapes for a phase's transitions, searched on them
/// without the rows whose constants are type-range-sized (on which the floating-point search
/// may not end in time) and proven on the transitions themselves.
fn one_phase_without_limits<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    let relaxed: Vec<D> = transitions
        .iter()
        .filter(|t| !t.is_empty())
        .map(without_type_range_rows)
        .collect();
    let live: Vec<&D> = relaxed.iter().collect();
    let found = one_phase(n, &live)?;
    let all: Vec<&D> = transitions.iter().collect();
    verify(n, &all, &found).then_some(found)
}

/// The shapes of [`find_phased`] short of phases.
fn one_phase<D: NumericDomain>(n: usize, live: &[&D]) -> Option<Ranking> {
    halving(n, live)
        .or_else(|| halving_from_guards(n, live))
        .or_else(|| linear(n, live))
        .or_else(|| multiphase(n, live))
}

/// A halving ranking function among the loop's guards, proven exactly: each relation `e ≥ 0`
/// over the current variables alone that some transition states gives the candidate `e + 1`
/// (`hi - lo` from `lo < hi`). No linear program is solved, so the wrap cases' constants, which
/// the floating-point search handles badly, do not stop the midpoint of a sum that wraps from
/// being found to halve the range.
fn halving_from_guards<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    from_guards(n, transitions, transitions, 2, Ranking::Halving)
}

/// A linear ranking function among the loop's guards, proven exactly, as [`halving_from_guards`]
/// finds halving ones: the last shape tried, for loops that end because a counter reaches its
/// type's limit (`while (i > 0) i++;` stops when `i++` wraps: of the iterations another can
/// follow, each has `i ≤ 2^31 - 2`, so `2^31 - 1 - i` ranks them), whose constant the
/// floating-point search, bounded to small constants, cannot reach.
fn linear_from_guards<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    // The relations over the current variables that each transition implies, not only those it
    // states (`i + k ≤ 2^31 - 1` from `i' = i + k` and `i' ≤ 2^31 - 1`).
    let keep: Vec<Option<usize>> = (0..n).map(Some).collect();
    let implied: Vec<D> = transitions
        .iter()
        .map(|t| {
            let mut mapping = keep.clone();
            mapping.resize(t.dimensions(), None);
            t.map_dims(&mapping, n)
        })
        .collect();
    let guards: Vec<&D> = implied.iter().chain(transitions.iter().copied()).collect();
    from_guards(n, &guards, transitions, 1, Ranking::Linear)
}

/// [`linear_from_guards`] over owned transitions (the empty ones left out).
pub fn linear_among_guards<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    linear_from_guards(n, &live)
}

/// The last resort of a loop that may end because a counter reaches its type's limit: a linear
/// function among the relations the transitions imply ([`linear_from_guards`]), or phases each
/// ranked so or by the shapes of [`find_phased`] (`while (true) { x++; if (x == c) return; }`
/// climbs to `c`, or first to the limit and from its wrap to `c`).
pub fn find_at_type_limits<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    linear_from_guards(n, &live).or_else(|| phases::find(n, &live, phase_at_type_limits))
}

/// A phase of [`find_at_type_limits`].
fn phase_at_type_limits<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Ranking> {
    linear_among_guards(n, transitions).or_else(|| one_phase_without_limits(n, transitions))
}

/// The first candidate `e + 1`, for a relation `e ≥ 0` of at least `terms` variables, all current
/// ones, that one of `guards` states, whose `shape` the transitions verify; those whose constant
/// is as large as only the types' limits produce come last (`|a| - 1 - i` before `2^31 - 2 - i`).
fn from_guards<D: NumericDomain>(
    n: usize,
    guards: &[&D],
    transitions: &[&D],
    terms: usize,
    shape: impl Fn(Affine) -> Ranking,
) -> Option<Ranking> {
    let mut tried: Vec<Affine> = Vec::new();
    let relations = |large: bool| {
        guards
            .iter()
            .flat_map(|t| t.constraints())
            .filter(move |c| (c.expression().constant_term().unsigned_abs() >= TYPE_RANGE_SIZE) == large)
    };
    for c in relations(false).chain(relations(true)) {
        let e = c.expression();
        if c.relation() != Relation::GreaterOrEqual || e.terms().count() < terms || e.terms().any(|(d, _)| d >= n) {
            continue;
        }
        let f = Affine {
            coefficients: (0..n)
                .map(|d| BigRational::from_integer(e.coefficient(d).into()))
                .collect(),
            // `e ≥ 0` may be a `long`'s limit, `2^63 - 1 - i ≥ 0`: the `+ 1` is exact.
            constant: BigRational::from_integer(BigInt::from(e.constant_term()) + 1),
        };
        if tried.contains(&f) {
            continue;
        }
        let ranking = shape(f.clone());
        if verify(n, transitions, &ranking) {
            return Some(ranking);
        }
        tried.push(f);
    }
    None
}

/// The most phases of a nested multiphase ranking function searched for.
pub const MAX_PHASES: usize = 3;

/// The exact conditions of a nested multiphase ranking function (`Ranking::Multiphase`).
fn multiphase_conditions(n: usize, components: &[Affine]) -> Vec<Option<Constraint>> {
    let one = BigRational::one();
    let mut conditions = Vec::new();
    for (i, f) in components.iter().enumerate() {
        let mut parts = vec![(1, f, false), (-1, f, true)];
        if let Some(before) = i.checked_sub(1) {
            parts.push((1, &components[before], false));
        }
        conditions.push(exact_constraint(n, &parts, &-one.clone()));
    }
    match components.last() {
        Some(last) => conditions.push(exact_constraint(n, &[(1, last, false)], &BigRational::zero())),
        None => conditions.push(None),
    }
    conditions
}

/// A nested multiphase ranking function of the fewest phases (two to [`MAX_PHASES`]), by one LP
/// over all of its functions per depth.
fn multiphase<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    (2..=MAX_PHASES).find_map(|depth| {
        let components = solve(n, depth, transitions, &multiphase_obligations(depth))?;
        let ranking = Ranking::Multiphase(components);
        verify(n, transitions, &ranking).then_some(ranking)
    })
}

/// The obligations of a nested multiphase ranking function of `depth` functions:
/// `f_1(x) - f_1(x') - 1 ≥ 0`, `f_i(x) - f_i(x') + f_{i-1}(x) - 1 ≥ 0` and `f_depth(x) ≥ 0`.
fn multiphase_obligations(depth: usize) -> Vec<Obligation> {
    let mut obligations: Vec<Obligation> = (0..depth)
        .map(|i| {
            let mut parts = vec![(1.0, i, false), (-1.0, i, true)];
            let mut constant_parts = vec![];
            if let Some(before) = i.checked_sub(1) {
                parts.push((1.0, before, false));
                constant_parts.push((1.0, before));
            }
            Obligation {
                parts,
                constant: -1.0,
                constant_parts,
                fixed: vec![],
            }
        })
        .collect();
    obligations.push(Obligation {
        parts: vec![(1.0, depth - 1, false)],
        constant: 0.0,
        constant_parts: vec![(1.0, depth - 1)],
        fixed: vec![],
    });
    obligations
}

/// The most transitions a lexicographic ranking function is searched for (one LP per remaining
/// transition and component).
pub const MAX_LEXICOGRAPHIC_TRANSITIONS: usize = 12;

/// `f(x) - least ≥ 0` and `f(x) - f(x') - 1 ≥ 0`: `f` ranks the transition, staying at least
/// `least` where it is taken.
fn ranked_by(least: f64) -> Vec<Obligation> {
    vec![
        Obligation {
            parts: vec![(1.0, 0, false)],
            constant: -least,
            constant_parts: vec![(1.0, 0)],
            fixed: vec![],
        },
        Obligation {
            parts: vec![(1.0, 0, false), (-1.0, 0, true)],
            constant: -1.0,
            constant_parts: vec![],
            fixed: vec![],
        },
    ]
}

/// `f(x) - f(x') ≥ 0`: `f` does not increase on the transition.
fn weak_obligations() -> Vec<Obligation> {
    vec![Obligation {
        parts: vec![(1.0, 0, false), (-1.0, 0, true)],
        constant: 0.0,
        constant_parts: vec![],
        fixed: vec![],
    }]
}

/// The exact conditions of `ranked_by(0.0)` (`strict`) or `weak_obligations` on `f`.
pub fn lexicographic_conditions(n: usize, f: &Affine, strict: bool) -> Option<Vec<Constraint>> {
    let zero = BigRational::zero();
    let decrease = exact_constraint(
        n,
        &[(1, f, false), (-1, f, true)],
        &if strict { -BigRational::one() } else { zero.clone() },
    )?;
    if strict {
        Some(vec![exact_constraint(n, &[(1, f, false)], &zero)?, decrease])
    } else {
        Some(vec![decrease])
    }
}

/// Whether no component of a lexicographic ranking function increases on any of `transitions`
/// (checked exactly). Then each component ranks at most `nat(f_i(x0) + 1)` transitions, since it
/// only falls and ranks a transition only from a non-negative value, falling by at least 1: the
/// loop runs at most the sum of these times.
pub fn lexicographic_is_monotone<D: NumericDomain>(n: usize, transitions: &[D], components: &[Affine]) -> bool {
    components.iter().all(|f| {
        lexicographic_conditions(n, f, false).is_some_and(|conditions| {
            transitions
                .iter()
                .filter(|t| !t.is_empty())
                .all(|t| conditions.iter().all(|c| t.entails(c)))
        })
    })
}

/// The level of each transition under a lexicographic ranking function: the component that
/// ranks it (falls by at least 1 from a non-negative value) while none before it increases;
/// `None` when some transition has none (checked exactly).
pub fn lexicographic_levels<D: NumericDomain>(
    n: usize,
    transitions: &[&D],
    components: &[Affine],
) -> Option<Vec<usize>> {
    let levels: Vec<(Vec<Constraint>, Vec<Constraint>)> = components
        .iter()
        .map(|f| {
            Some((
                lexicographic_conditions(n, f, false)?,
                lexicographic_conditions(n, f, true)?,
            ))
        })
        .collect::<Option<_>>()?;
    let holds = |t: &D, cs: &[Constraint]| cs.iter().all(|c| t.entails(c));
    transitions
        .iter()
        .map(|t| {
            for (level, (weak, strict)) in levels.iter().enumerate() {
                if holds(t, strict) {
                    return Some(level);
                }
                if !holds(t, weak) {
                    return None;
                }
            }
            None
        })
        .collect()
}

/// A lexicographic ranking function, built greedily (as Alias et al.): each component does not
/// increase on the transitions not yet ranked and ranks at least one of them; the transitions it
/// ranks (checked exactly) are removed, until none is left.
fn lexicographic<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    if transitions.len() < 2 || transitions.len() > MAX_LEXICOGRAPHIC_TRANSITIONS {
        return None;
    }
    let entails_all = |t: &D, conditions: &Option<Vec<Constraint>>| {
        conditions.as_ref().is_some_and(|cs| cs.iter().all(|c| t.entails(c)))
    };
    let (strict, weak) = (ranked_by(0.0), weak_obligations());
    let mut remaining: Vec<&D> = transitions.to_vec();
    let mut components = Vec::new();
    while !remaining.is_empty() {
        let f = (0..remaining.len()).find_map(|chosen| {
            let problem: Vec<(&D, &[Obligation])> = remaining
                .iter()
                .enumerate()
                .map(|(k, t)| (*t, if k == chosen { &strict[..] } else { &weak[..] }))
                .collect();
            let f = solve_each(n, 1, &problem)?.pop()?;
            let weak_holds = remaining
                .iter()
                .all(|t| entails_all(t, &lexicographic_conditions(n, &f, false)));
            (weak_holds && entails_all(remaining[chosen], &lexicographic_conditions(n, &f, true))).then_some(f)
        })?;
        let ranked = lexicographic_conditions(n, &f, true);
        remaining.retain(|t| !entails_all(t, &ranked));
        components.push(f);
    }
    let ranking = Ranking::Lexicographic(components);
    verify(n, transitions, &ranking).then_some(ranking)
}

/// The variables that may be negative before or after some transition.
fn signed_variables<D: NumericDomain>(n: usize, transitions: &[&D]) -> Vec<usize> {
    (0..n)
        .filter(|&i| {
            transitions.iter().any(|t| {
                [i, n + i]
                    .iter()
                    .any(|&d| !t.entails(&Constraint::greater_or_equal_zero(LinearExpr::variable(d))))
            })
        })
        .collect()
}

/// The pieces of the transitions by the signs of `signed` variables, before and after, each
/// mapped to the absolute values (a variable negative in a piece has its dimension negated).
/// `None` when a constraint's coefficient cannot be negated in 64 bits.
fn absolute_pieces<D: NumericDomain>(n: usize, transitions: &[&D], signed: &[usize]) -> Option<Vec<D>> {
    let dims: Vec<usize> = signed.iter().flat_map(|&i| [i, n + i]).collect();
    let mut pieces = Vec::new();
    for transition in transitions {
        for signs in 0u32..(1 << dims.len()) {
            let negative = |d: usize| dims.iter().position(|&x| x == d).is_some_and(|k| signs & (1 << k) != 0);
            let mut piece = D::universe(transition.dimensions());
            for constraint in transition.constraints() {
                let expression = constraint.expression();
                let mut coefficients = expression.coefficients().to_vec();
                for (d, c) in coefficients.iter_mut().enumerate() {
                    if negative(d) {
                        *c = c.checked_neg()?;
                    }
                }
                piece.add_constraint(Constraint::new(
                    LinearExpr::new(coefficients, expression.constant_term()),
                    constraint.relation(),
                ));
            }
            // In the piece every split variable is its absolute value: non-negative.
            for &d in &dims {
                piece.add_constraint(Constraint::greater_or_equal_zero(LinearExpr::variable(d)));
            }
            if !piece.is_empty() {
                pieces.push(piece);
            }
        }
    }
    Some(pieces)
}

fn absolute<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    let signed = signed_variables(n, transitions);
    if signed.is_empty() || signed.len() > MAX_SIGNED {
        return None;
    }
    let pieces = absolute_pieces(n, transitions, &signed)?;
    let live: Vec<&D> = pieces.iter().collect();
    let Some(Ranking::Linear(f)) = linear(n, &live) else {
        return None;
    };
    let ranking = Ranking::Absolute(f);
    verify(n, transitions, &ranking).then_some(ranking)
}

fn linear<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    // f(x) - 1 ≥ 0 and f(x) - f(x') - 1 ≥ 0.
    let f = solve(n, 1, transitions, &ranked_by(1.0))?.pop()?;
    let ranking = Ranking::Linear(f);
    verify(n, transitions, &ranking).then_some(ranking)
}

fn halving<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    // f(x) - 1 ≥ 0 and f(x) - 2·f(x') ≥ 0 (the constants: c0 - 2·c0 = -c0).
    let obligations = vec![
        Obligation {
            parts: vec![(1.0, 0, false)],
            constant: -1.0,
            constant_parts: vec![(1.0, 0)],
            fixed: vec![],
        },
        Obligation {
            parts: vec![(1.0, 0, false), (-2.0, 0, true)],
            constant: 0.0,
            constant_parts: vec![(-1.0, 0)],
            fixed: vec![],
        },
    ];
    let f = solve(n, 1, transitions, &obligations)?.pop()?;
    let ranking = Ranking::Halving(f);
    verify(n, transitions, &ranking).then_some(ranking)
}

fn doubling<D: NumericDomain>(n: usize, transitions: &[&D]) -> Option<Ranking> {
    // g(x) - 1 ≥ 0; g(x') - 2·g(x) ≥ 0; h(x) - g(x) - 1 ≥ 0; h(x) - h(x') ≥ 0.
    let obligations = vec![
        Obligation {
            parts: vec![(1.0, 0, false)],
            constant: -1.0,
            constant_parts: vec![(1.0, 0)],
            fixed: vec![],
        },
        Obligation {
            parts: vec![(1.0, 0, true), (-2.0, 0, false)],
            constant: 0.0,
            constant_parts: vec![(-1.0, 0)],
            fixed: vec![],
        },
        Obligation {
            parts: vec![(1.0, 1, false), (-1.0, 0, false)],
            constant: -1.0,
            constant_parts: vec![(1.0, 1), (-1.0, 0)],
            fixed: vec![],
        },
        Obligation {
            parts: vec![(1.0, 1, false), (-1.0, 1, true)],
            constant: 0.0,
            constant_parts: vec![],
            fixed: vec![],
        },
    ];
    let mut functions = solve(n, 2, transitions, &obligations)?;
    let bound = functions.pop()?;
    let growing = functions.pop()?;
    let ranking = Ranking::Doubling { growing, bound };
    verify(n, transitions, &ranking).then_some(ranking)
}

/// A potential for amortisation: transitions are polyhedra over `2n + 1` dimensions, the loop's
/// variables before and after one iteration and what the iteration spends (its last dimension,
/// `a`). Finds an affine `Φ` with `Φ(x) - Φ(x') ≥ a` and `Φ(x') ≥ 0` on every transition, so that
/// the spending of all iterations together is at most `nat(Φ(x0))`: the sum telescopes to
/// `Φ(x0) - Φ(x_last) ≤ Φ(x0)`. **Checked exactly, like ranking functions.**
pub fn potential<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<Affine> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    if live.is_empty() {
        return Some(Affine {
            coefficients: vec![BigRational::zero(); n],
            constant: BigRational::zero(),
        });
    }
    let obligations = vec![
        // Φ(x) - Φ(x') - a ≥ 0.
        Obligation {
            parts: vec![(1.0, 0, false), (-1.0, 0, true)],
            constant: 0.0,
            constant_parts: vec![],
            fixed: vec![(2 * n, -1.0)],
        },
        // Φ(x') ≥ 0.
        Obligation {
            parts: vec![(1.0, 0, true)],
            constant: 0.0,
            constant_parts: vec![(1.0, 0)],
            fixed: vec![],
        },
    ];
    let phi = solve(n, 1, &live, &obligations)?.pop()?;
    let pays = exact_pays(n, &phi)?;
    let after = exact_constraint(n, &[(1, &phi, true)], &BigRational::zero())?;
    live.iter()
        .all(|t| t.entails(&pays) && t.entails(&after))
        .then_some(phi)
}

/// Forms `nat` terms of a potential may take, at most this many tried; a potential has one or
/// two of them (each splits every transition in up to four).
pub const MAX_NAT_FORMS: usize = 6;

/// Split transitions a potential with `nat` terms may be solved over.
const MAX_NAT_CASES: usize = 256;

/// A potential with `nat` terms, for a loop whose spending is paid by a value that may start
/// negative (`while (x > 0) { while (y > 0) y--; x--; }` spends `nat(y)` in all, but `y` stays
/// below zero when it starts there, so no affine `Φ` is non-negative after every iteration):
/// `Φ(x) = ψ(x) + Σ c_j·nat(ℓ_j(x))` with the `ℓ_j` the forms of the spending transitions'
/// guards on `x` (a strict guard `ℓ > 0` gives `ℓ`). Each transition is split by the signs of
/// every `ℓ_j` before and after it, where `nat(ℓ_j)` is `ℓ_j` or 0 (a new dimension `u_j`), and
/// [`potential`] is solved over `(x, u)`: the split transitions cover the transitions, so the
/// spending of all iterations together is at most `Φ(x0)`. Returns the potential over `n + k`
/// dimensions (the `u_j` last) and its forms; one form is tried at a time, then pairs.
pub fn nat_potential<D: NumericDomain>(n: usize, transitions: &[D]) -> Option<(Affine, Vec<LinearExpr>)> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    let forms = nat_forms(n, &live);
    let singles = (0..forms.len()).map(|i| vec![forms[i].clone()]);
    let pairs = (0..forms.len()).flat_map(|i| (i + 1..forms.len()).map(move |j| (i, j)));
    let pairs = pairs.map(|(i, j)| vec![forms[i].clone(), forms[j].clone()]);
    singles
        .chain(pairs)
        .find_map(|chosen| Some((potential_with(n, &live, &chosen)?, chosen)))
}

/// A potential over `(x, u)`, `u_j = nat(forms[j](x))`, of the transitions split by the forms'
/// signs (see [`nat_potential`]).
fn potential_with<D: NumericDomain>(n: usize, live: &[&D], forms: &[LinearExpr]) -> Option<Affine> {
    let k = forms.len();
    let width = 2 * (n + k) + 1;
    // (x, x', a) to (x, u, x', u', a).
    let mapping: Vec<Option<usize>> = (0..=2 * n)
        .map(|d| {
            Some(if d < n {
                d
            } else if d < 2 * n {
                d + k
            } else {
                width - 1
            })
        })
        .collect();
    let mut split: Vec<D> = Vec::new();
    for t in live {
        let mut cases = vec![t.map_dims(&mapping, width)];
        for (j, form) in forms.iter().enumerate() {
            for (offset, u) in [(0, n + j), (n + k, 2 * n + k + j)] {
                let shifted: Vec<(usize, i64)> = form.terms().map(|(d, c)| (d + offset, c)).collect();
                let at = |extra: Option<(usize, i64)>| -> Option<LinearExpr> {
                    let mut terms = shifted.clone();
                    terms.extend(extra);
                    LinearExpr::from_terms(&terms, form.constant_term())
                };
                let (value, minus_u) = (at(None)?, at(Some((u, -1)))?);
                let zero = LinearExpr::from_terms(&[(u, 1)], 0)?;
                cases = cases
                    .into_iter()
                    .flat_map(|case| {
                        let mut positive = case.clone();
                        positive.add_constraint(Constraint::greater_or_equal_zero(value.clone()));
                        positive.add_constraint(Constraint::equal_zero(minus_u.clone()));
                        let mut negative = case;
                        negative.add_constraint(Constraint::greater_or_equal_zero(value.checked_neg()?));
                        negative.add_constraint(Constraint::equal_zero(zero.clone()));
                        Some([positive, negative])
                    })
                    .flatten()
                    .filter(|case| !case.is_empty())
                    .collect();
            }
        }
        split.extend(cases);
        if split.len() > MAX_NAT_CASES {
            return None;
        }
    }
    potential(n + k, &split)
}

/// The forms of the guards on `x` (dimensions `0..n`, with the rest projected out) of the transitions that may spend (whose
/// spending, the last dimension, may be positive), each as `ℓ` with the guard `ℓ ≥ 1` (a
/// constraint `e + c ≥ 0` gives `e + c + 1`), leaving out the guards on values no transition
/// changes; at most [`MAX_NAT_FORMS`].
fn nat_forms<D: NumericDomain>(n: usize, transitions: &[&D]) -> Vec<LinearExpr> {
    let spends = |t: &&&D| {
        LinearExpr::from_terms(&[(2 * n, -1)], 0)
            .is_some_and(|minus_a| !t.entails(&Constraint::greater_or_equal_zero(minus_a)))
    };
    let changes = |d: usize| {
        LinearExpr::from_terms(&[(d, 1), (n + d, -1)], 0).is_some_and(|e| {
            transitions
                .iter()
                .any(|t| !t.entails(&Constraint::equal_zero(e.clone())))
        })
    };
    let mut forms: Vec<LinearExpr> = Vec::new();
    let after: Vec<usize> = (n..=2 * n).collect();
    for t in transitions.iter().filter(spends) {
        // The guards the transition implies on `x` (`y < m` from `y < y' ≤ m`).
        let guards = t.project_out(&after);
        for c in guards.constraints() {
            let e = c.expression();
            let on_x = e.terms().all(|(d, _)| d < n);
            let moving = e.terms().any(|(d, _)| changes(d));
            if c.relation() != Relation::GreaterOrEqual || !on_x || !moving || e.is_constant() {
                continue;
            }
            let Some(form) = e.checked_add(&LinearExpr::constant(1)) else {
                continue;
            };
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
    }
    forms.truncate(MAX_NAT_FORMS);
    forms
}

/// `Φ(x) - Φ(x') - a ≥ 0` over `2n + 1` dimensions, scaled to integer coefficients.
fn exact_pays(n: usize, phi: &Affine) -> Option<Constraint> {
    let mut coefficients = vec![BigRational::zero(); 2 * n + 1];
    for (i, c) in phi.coefficients.iter().enumerate() {
        coefficients[i] += c;
        coefficients[n + i] -= c;
    }
    coefficients[2 * n] = -BigRational::one();
    let denominator = coefficients.iter().fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
    let integer: Option<Vec<i64>> = coefficients
        .iter()
        .map(|r| {
            (r * BigRational::from_integer(denominator.clone()))
                .to_integer()
                .to_i64()
        })
        .collect();
    Some(Constraint::greater_or_equal_zero(LinearExpr::new(integer?, 0)))
}

/// Solves for `count` affine functions meeting every obligation on every transition (Farkas), and
/// returns them with coefficients rounded to small rationals (not yet verified).
fn solve<D: NumericDomain>(
    n: usize,
    count: usize,
    transitions: &[&D],
    obligations: &[Obligation],
) -> Option<Vec<Affine>> {
    let problem: Vec<(&D, &[Obligation])> = transitions.iter().map(|t| (*t, obligations)).collect();
    solve_each(n, count, &problem)
}

/// The most Farkas multipliers (a transition's rows times its obligations, summed) of one linear
/// program: the cases of wrapping arithmetic can split a loop into thousands of transitions,
/// whose linear program of a hundred thousand variables takes minutes to solve, if it ends.
/// Larger ones are not solved (the shapes that need no linear program are still tried).
const MAX_LP_MULTIPLIERS: usize = 20_000;

/// Like `solve`, with each transition's own obligations.
fn solve_each<D: NumericDomain>(n: usize, count: usize, problem: &[(&D, &[Obligation])]) -> Option<Vec<Affine>> {
    let mut vars = ProblemVariables::new();
    let coefficients: Vec<Vec<Variable>> = (0..count)
        .map(|_| (0..n).map(|_| vars.add(variable())).collect())
        .collect();
    let constants: Vec<Variable> = (0..count).map(|_| vars.add(variable())).collect();
    let multipliers: usize = problem.iter().map(|(t, o)| t.constraints().len() * o.len()).sum();
    if multipliers > MAX_LP_MULTIPLIERS {
        return None;
    }
    let magnitudes: Vec<Variable> = (0..count * n).map(|_| vars.add(variable().min(0.0))).collect();
    let mut constraints = Vec::new();
    for &(transition, obligations) in problem {
        // Rows with huge numbers (the range of a `long`) make the floating-point LP unstable.
        // Leaving them out only enlarges the transition, so a function found without them still
        // ranks the loop (and the exact check below sees every row).
        let rows: Vec<&Constraint> = transition
            .constraints()
            .iter()
            .filter(|row| {
                row.expression().constant_term().unsigned_abs() <= LP_MAGNITUDE
                    && row.expression().terms().all(|(_, a)| a.unsigned_abs() <= LP_MAGNITUDE)
            })
            .collect();
        for obligation in obligations {
            // Multipliers: λ ≥ 0 for inequalities, free for equalities, and λ0 ≥ 0 for the slack.
            let multipliers: Vec<Variable> = rows
                .iter()
                .map(|row| match row.relation() {
                    Relation::Equal => vars.add(variable()),
                    Relation::GreaterOrEqual => vars.add(variable().min(0.0)),
                })
                .collect();
            // Coefficients: for each dimension, Σ λ_i a_i[d] = wanted[d].
            for d in 0..transition.dimensions().max(2 * n) {
                let mut lhs = Expression::from(0.0);
                for (row, lambda) in rows.iter().zip(&multipliers) {
                    let a = row.expression().coefficient(d);
                    if a != 0 {
                        lhs += (a as f64) * *lambda;
                    }
                }
                let mut wanted = Expression::from(0.0);
                for &(factor, function, primed) in &obligation.parts {
                    let (base, offset) = if primed { (n, n) } else { (0, 0) };
                    if d >= base && d < base + n {
                        wanted += factor * coefficients[function][d - offset];
                    }
                }
                for &(dimension, factor) in &obligation.fixed {
                    if dimension == d {
                        wanted += factor;
                    }
                }
                constraints.push((lhs - wanted).eq(0.0));
            }
            // Constant: w0 - Σ λ_i b_i ≥ 0.
            let mut w0 = Expression::from(obligation.constant);
            for &(factor, function) in &obligation.constant_parts {
                w0 += factor * constants[function];
            }
            let mut combination = Expression::from(0.0);
            for (row, lambda) in rows.iter().zip(&multipliers) {
                let b = row.expression().constant_term();
                if b != 0 {
                    combination += (b as f64) * *lambda;
                }
            }
            constraints.push((w0 - combination).geq(0.0));
        }
    }
    let mut objective = Expression::from(0.0);
    for (k, magnitude) in magnitudes.iter().enumerate() {
        let c = coefficients[k / n.max(1)][k % n.max(1)];
        constraints.push((Expression::from(*magnitude) - c).geq(0.0));
        constraints.push((Expression::from(*magnitude) + c).geq(0.0));
        objective += *magnitude;
    }
    // Prefer small constants too, bounded so that the LP stays bounded.
    for constant in &constants {
        constraints.push((Expression::from(*constant)).leq(1.0e6));
        constraints.push((Expression::from(*constant)).geq(-1.0e6));
        objective += 0.001 * *constant;
    }
    let mut model = vars.minimise(objective).using(microlp);
    for c in constraints {
        model = model.with(c);
    }
    let solution = model.solve().ok()?;
    Some(
        (0..count)
            .map(|k| Affine {
                coefficients: coefficients[k].iter().map(|v| round(solution.value(*v))).collect(),
                constant: round(solution.value(constants[k])),
            })
            .collect(),
    )
}

/// The rational with denominator at most 1000 nearest to `x` (continued fractions). Also used
/// to round the amortised analysis's LP solutions before their exact check.
pub(crate) fn round(x: f64) -> BigRational {
    if !x.is_finite() {
        return BigRational::zero();
    }
    let (mut p0, mut q0, mut p1, mut q1) = (BigInt::zero(), BigInt::one(), BigInt::one(), BigInt::zero());
    let mut value = x;
    for _ in 0..32 {
        let a = value.floor();
        let Some(a_int) = BigInt::from_f64_exact(a) else {
            break;
        };
        let p2 = &a_int * &p1 + &p0;
        let q2 = &a_int * &q1 + &q0;
        if q2 > BigInt::from(1000) {
            break;
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        let fraction = value - a;
        if fraction.abs() < 1e-9 {
            break;
        }
        value = 1.0 / fraction;
    }
    if q1.is_zero() {
        return BigRational::zero();
    }
    BigRational::new(p1, q1)
}

trait FromF64Exact: Sized {
    fn from_f64_exact(x: f64) -> Option<Self>;
}

impl FromF64Exact for BigInt {
    fn from_f64_exact(x: f64) -> Option<BigInt> {
        num_traits::FromPrimitive::from_f64(x)
    }
}

/// `Σ factor·function(x or x') + constant ≥ 0` as an exact constraint over `2n` dimensions,
/// scaled to integer coefficients; `None` when they do not fit 64 bits.
fn exact_constraint(n: usize, terms: &[(i64, &Affine, bool)], constant: &BigRational) -> Option<Constraint> {
    let mut coefficients = vec![BigRational::zero(); 2 * n];
    let mut total_constant = constant.clone();
    for (factor, function, primed) in terms {
        let factor = BigRational::from_integer(BigInt::from(*factor));
        let offset = if *primed { n } else { 0 };
        for (i, c) in function.coefficients.iter().enumerate() {
            coefficients[offset + i] += &factor * c;
        }
        total_constant += &factor * &function.constant;
    }
    let denominator = coefficients
        .iter()
        .chain(std::iter::once(&total_constant))
        .fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
    let scale = |r: &BigRational| -> Option<i64> {
        (r * BigRational::from_integer(denominator.clone()))
            .to_integer()
            .to_i64()
    };
    let integer: Option<Vec<i64>> = coefficients.iter().map(scale).collect();
    Some(Constraint::greater_or_equal_zero(LinearExpr::new(
        integer?,
        scale(&total_constant)?,
    )))
}

/// Re-proves every condition of a ranking function exactly on every transition.
pub fn verify<D: NumericDomain>(n: usize, transitions: &[&D], ranking: &Ranking) -> bool {
    let one = BigRational::one();
    let zero = BigRational::zero();
    let conditions: Vec<Option<Constraint>> = match ranking {
        Ranking::Linear(f) => vec![
            exact_constraint(n, &[(1, f, false)], &-one.clone()),
            exact_constraint(n, &[(1, f, false), (-1, f, true)], &-one.clone()),
        ],
        Ranking::Halving(f) => vec![
            exact_constraint(n, &[(1, f, false)], &-one.clone()),
            exact_constraint(n, &[(1, f, false), (-2, f, true)], &zero),
        ],
        Ranking::Absolute(f) => {
            let signed = signed_variables(n, transitions);
            if signed.iter().any(|&i| f.coefficients[i].is_negative()) {
                return false;
            }
            let Some(pieces) = absolute_pieces(n, transitions, &signed) else {
                return false;
            };
            let live: Vec<&D> = pieces.iter().collect();
            return verify(n, &live, &Ranking::Linear(f.clone()));
        }
        Ranking::Multiphase(components) => multiphase_conditions(n, components),
        Ranking::Phases(phases) => return phases::verify(n, transitions, phases),
        Ranking::Lexicographic(components) => return lexicographic_levels(n, transitions, components).is_some(),
        Ranking::Bounded(k) => return matches!(bounded(n, transitions), Some(Ranking::Bounded(j)) if j <= *k),
        Ranking::Doubling { growing, bound } => vec![
            exact_constraint(n, &[(1, growing, false)], &-one.clone()),
            exact_constraint(n, &[(1, growing, true), (-2, growing, false)], &zero),
            exact_constraint(n, &[(1, bound, false), (-1, growing, false)], &-one.clone()),
            exact_constraint(n, &[(1, bound, false), (-1, bound, true)], &zero),
        ],
    };
    if conditions.iter().any(Option::is_none) {
        return false;
    }
    transitions
        .iter()
        .all(|t| conditions.iter().flatten().all(|c| t.entails(c)))
}

impl Affine {
    /// Whether every coefficient is zero.
    pub fn is_constant(&self) -> bool {
        self.coefficients.iter().all(Zero::is_zero)
    }

    /// Whether the function has a negative coefficient somewhere (for messages).
    pub fn has_negative(&self) -> bool {
        self.coefficients.iter().any(Signed::is_negative)
    }
}
