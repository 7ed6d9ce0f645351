//! Convex polyhedra over integer-valued program variables, represented by constraints only: the
//! numeric domain of the value analysis and of ranking-function synthesis.
//!
//! A [`Polyhedron`] over `n` dimensions (`0..n`, one per program variable) is a conjunction of
//! linear [`Constraint`]s `Σ a_d·x_d + c ≥ 0` or `= 0` with 64-bit integer coefficients. It
//! denotes the set of *rational* points satisfying its stored constraints, and every question
//! about that set is answered exactly.
//!
//! # Invariants
//!
//! - **Constraints that enter from outside are tightened for integer variables:** `from_constraints`,
//!   `add_constraint(s)` and `meet` divide the coefficients of each constraint by their gcd `g`
//!   and round the constant of an inequality down (`2x - 1 ≥ 0` becomes `x - 1 ≥ 0`); an
//!   equality whose constant `g` does not divide makes the polyhedron empty. This keeps every
//!   integer point and may drop non-integer ones; it is the only place the domain uses
//!   integrality. **Every other operation is exact over the rationals** and only divides each
//!   constraint by the gcd of all its numbers, so its result contains its arguments' rational
//!   points exactly as the lattice laws say (a join includes both sides, a projection has a
//!   point exactly when its argument has, a minimised polyhedron has the same points).
//! - **No stored number is `i64::MIN`**, so negating a stored constraint never overflows; a
//!   constraint that would need it is dropped when added (an over-approximation).
//! - **No two stored constraints are parallel** (they are merged), **no stored constraint is
//!   constant, and every one mentions only dimensions below `dimensions()`** (constraints on
//!   other dimensions are dropped when added).
//! - **An empty polyhedron found empty syntactically stores exactly the constraint `-1 ≥ 0`.**
//!   One found empty only by the simplex becomes that form when minimised.
//! - **`is_empty`, `entails`, `includes` and `bounds` are exact over the rationals**: they use an
//!   exact simplex (64-bit fractions that become big rationals where they would overflow). A
//!   wrong "empty" or "included" would be unsound, so the only inexact answer is the
//!   conservative one given when the pivot budget of [`limits`] runs out (not empty, not
//!   entailed, unbounded).
//! - **`meet` (up to tightening), `add_dims`, `map_dims` with an injective map and `minimize` are
//!   exact. `join` is the exact closed convex hull and `project_out` the exact projection**,
//!   unless a derived coefficient overflows 64 bits or a budget of [`limits`] runs out: then
//!   constraints are dropped and the result is a superset (sound, less precise); the
//!   `*_reporting_exactness` variants say when. Only `join`, `project_out`, `remove_dims` and
//!   `map_dims` can drop constraints this way.
//! - **Nothing panics**, whatever the input.

mod fourier_motzkin;
mod hull;
pub mod limits;
mod linear;
mod memo;
mod number;
mod simplex;

pub use linear::{Constraint, Dimension, LinearExpr, Relation};
/// Exact rationals, as returned by [`Polyhedron::bounds`] and [`Polyhedron::witness`].
pub use num_rational::BigRational as Rational;

use fourier_motzkin::{eliminate, remove_redundant, simplify, Reduction};
use linear::{Normalization, Normalized};
use num_traits::ToPrimitive;
use simplex::{solve, Entailment, ExpressionBounds, FeasiblePoint, Minimums};
use std::collections::HashSet;
use std::fmt;

/// A rational solution of a raw constraint system over `dimensions` dimensions, exactly as given
/// (no integral normalisation: `2x = 1` has the solution `x = 1/2`). `Some(None)` when it has no
/// rational solution; `None` only when the pivot budget of [`limits`] ran out. This is the exact
/// linear-programming feasibility test for callers whose variables are rational (e.g. the
/// multipliers of ranking-function synthesis).
pub fn rational_solution(constraints: &[Constraint], dimensions: usize) -> Option<Option<Vec<Rational>>> {
    solve(&FeasiblePoint {
        constraints,
        dimensions,
    })
}

/// The exact smallest and largest values of `expression` over the rational solutions of a raw
/// constraint system (no integral normalisation). `Some(None)` when the system has no rational
/// solution, an inner `None` for an unbounded side, and `None` only when the pivot budget ran out.
pub fn rational_bounds(
    constraints: &[Constraint],
    dimensions: usize,
    expression: &LinearExpr,
) -> Option<Option<(Option<Rational>, Option<Rational>)>> {
    solve(&ExpressionBounds {
        constraints,
        dimensions,
        expression,
    })
}

/// The template hull of two non-empty polyhedra: for the expression `e` of each inequality of
/// either (equalities split), `e ≥ min(min_P e, min_Q e)` when both minima are finite. Every such
/// constraint holds on both, so on their hull: a sound approximation of the join that costs two
/// linear programs per constraint, used when the exact hull is over budget. It contains the
/// constraints of each side entailed by the other, with the others relaxed rather than dropped.
fn template_hull(first: &Polyhedron, second: &Polyhedron) -> Vec<Constraint> {
    let mut expressions: Vec<LinearExpr> = Vec::new();
    for constraint in first.split_constraints().into_iter().chain(second.split_constraints()) {
        let expression = LinearExpr::new(constraint.expression().coefficients().to_vec(), 0);
        if !expressions.contains(&expression) {
            expressions.push(expression);
        }
    }
    let minimums = |polyhedron: &Polyhedron| {
        solve(&Minimums {
            constraints: &polyhedron.constraints,
            dimensions: polyhedron.dimensions,
            expressions: &expressions,
        })
    };
    let (Some(Some(first_minimums)), Some(Some(second_minimums))) = (minimums(first), minimums(second)) else {
        return Vec::new();
    };
    let mut constraints = Vec::new();
    for ((expression, first_minimum), second_minimum) in expressions.iter().zip(first_minimums).zip(second_minimums) {
        let (Some(first_minimum), Some(second_minimum)) = (first_minimum, second_minimum) else {
            continue;
        };
        let minimum = first_minimum.min(second_minimum);
        // e ≥ p/q becomes q·e - p ≥ 0; numbers that do not fit drop the constraint (sound).
        let (Some(numerator), Some(denominator)) = (minimum.numer().to_i64(), minimum.denom().to_i64()) else {
            continue;
        };
        let Some(scaled) = expression.checked_scale(denominator) else {
            continue;
        };
        if let Some(shifted) = scaled.checked_sub(&LinearExpr::constant(numerator)) {
            constraints.push(Constraint::greater_or_equal_zero(shifted));
        }
    }
    constraints
}

/// A convex polyhedron over `dimensions` integer-valued variables, as a conjunction of constraints.
#[derive(Clone, Debug)]
pub struct Polyhedron {
    dimensions: usize,
    constraints: Vec<Constraint>,
}

impl Polyhedron {
    /// The whole space of `dimensions` dimensions.
    pub fn universe(dimensions: usize) -> Self {
        Polyhedron {
            dimensions,
            constraints: Vec::new(),
        }
    }

    /// The empty polyhedron of `dimensions` dimensions.
    pub fn empty(dimensions: usize) -> Self {
        Polyhedron {
            dimensions,
            constraints: vec![Constraint::greater_or_equal_zero(LinearExpr::constant(-1))],
        }
    }

    /// The polyhedron of `constraints` over `dimensions` dimensions. Constraints mentioning a
    /// dimension `≥ dimensions` or containing `i64::MIN` after normalisation are dropped.
    pub fn from_constraints(dimensions: usize, constraints: impl IntoIterator<Item = Constraint>) -> Self {
        let constraints: Vec<Constraint> = constraints
            .into_iter()
            .filter(|constraint| constraint.expression().dimension_bound() <= dimensions)
            .collect();
        Self::from_valid_constraints(dimensions, &constraints, Normalization::Integral)
    }

    /// Normalises constraints that mention only dimensions below `dimensions`.
    fn from_valid_constraints(dimensions: usize, constraints: &[Constraint], normalization: Normalization) -> Self {
        match simplify(constraints, normalization) {
            Some(constraints) => Polyhedron {
                dimensions,
                constraints,
            },
            None => Polyhedron::empty(dimensions),
        }
    }

    /// The number of dimensions.
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// The stored (normalised) constraints.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Whether the polyhedron is syntactically the canonical empty one.
    fn is_known_empty(&self) -> bool {
        self.constraints
            .first()
            .is_some_and(|constraint| constraint.expression().is_constant())
    }

    /// Intersects with one more constraint (dropped if it mentions a dimension `≥ dimensions()`).
    pub fn add_constraint(&mut self, constraint: Constraint) {
        self.add_constraints(std::iter::once(constraint));
    }

    /// Intersects with more constraints (each dropped if it mentions a dimension `≥ dimensions()`).
    pub fn add_constraints(&mut self, constraints: impl IntoIterator<Item = Constraint>) {
        if self.is_known_empty() {
            return;
        }
        let dimensions = self.dimensions;
        let mut all = std::mem::take(&mut self.constraints);
        all.extend(
            constraints
                .into_iter()
                .filter(|constraint| constraint.expression().dimension_bound() <= dimensions),
        );
        *self = Self::from_valid_constraints(dimensions, &all, Normalization::Integral);
    }

    /// The intersection (exact). Polyhedra of different dimensions meet in the larger space.
    pub fn meet(&self, other: &Polyhedron) -> Polyhedron {
        let dimensions = self.dimensions.max(other.dimensions);
        if self.is_known_empty() || other.is_known_empty() {
            return Polyhedron::empty(dimensions);
        }
        let mut all = self.constraints.clone();
        all.extend(other.constraints.iter().cloned());
        Self::from_valid_constraints(dimensions, &all, Normalization::Integral)
    }

    /// Whether the polyhedron has no rational point (exact).
    pub fn is_empty(&self) -> bool {
        if self.is_known_empty() {
            return true;
        }
        if self.constraints.is_empty() {
            return false;
        }
        let query = FeasiblePoint {
            constraints: &self.constraints,
            dimensions: self.dimensions,
        };
        // Out of pivots: "not empty" is the sound answer.
        matches!(solve(&query), Some(None))
    }

    /// Whether the polyhedron is the whole space (it has no constraint once normalised).
    pub fn is_universe(&self) -> bool {
        self.constraints.is_empty()
    }

    /// A rational point of the polyhedron (a vertex or other point the simplex stops at), or `None`
    /// when it is empty (or, in pathological cases, when the pivot budget ran out).
    pub fn witness(&self) -> Option<Vec<Rational>> {
        if self.is_known_empty() {
            return None;
        }
        let query = FeasiblePoint {
            constraints: &self.constraints,
            dimensions: self.dimensions,
        };
        solve(&query).flatten()
    }

    /// Whether a rational point satisfies every constraint.
    pub fn contains_point(&self, point: &[Rational]) -> bool {
        self.constraints
            .iter()
            .all(|constraint| constraint.is_satisfied_by(point))
    }

    /// Whether an integer point satisfies every constraint.
    pub fn contains_integer_point(&self, point: &[i64]) -> bool {
        self.constraints
            .iter()
            .all(|constraint| constraint.is_satisfied_by_integers(point))
    }

    /// Whether every rational point satisfies `constraint` (exact; true when empty).
    pub fn entails(&self, constraint: &Constraint) -> bool {
        self.entails_each(std::slice::from_ref(constraint), true)
            .first()
            .copied()
            .unwrap_or(false)
    }

    /// The candidates the polyhedron entails, in their order (one tableau for all; none asked
    /// when there are none).
    fn entailed_of(&self, candidates: Vec<Constraint>) -> Vec<Constraint> {
        if candidates.is_empty() {
            return candidates;
        }
        let entailed = self.entails_each(&candidates, false);
        candidates
            .into_iter()
            .zip(entailed)
            .filter_map(|(c, yes)| yes.then_some(c))
            .collect()
    }

    /// For each query, whether the polyhedron entails it (one simplex tableau for all). With
    /// `stop_at_first_failure` the answer ends after the first `false`.
    fn entails_each(&self, queries: &[Constraint], stop_at_first_failure: bool) -> Vec<bool> {
        if self.is_known_empty() {
            return vec![true; queries.len()];
        }
        let query = Entailment {
            constraints: &self.constraints,
            dimensions: self.dimensions,
            queries,
            stop_at_first_failure,
        };
        // Out of pivots: "not entailed" is the sound answer.
        solve(&query).unwrap_or_else(|| vec![false])
    }

    /// Whether `other ⊆ self` (exact over the rationals).
    pub fn includes(&self, other: &Polyhedron) -> bool {
        if other.is_known_empty() || self.constraints.is_empty() {
            return true;
        }
        if self
            .constraints
            .iter()
            .all(|constraint| other.constraints.contains(constraint))
        {
            return true;
        }
        let answers = other.entails_each(&self.constraints, true);
        answers.len() == self.constraints.len() && answers.iter().all(|entailed| *entailed)
    }

    /// Whether both polyhedra contain the same rational points.
    pub fn equivalent(&self, other: &Polyhedron) -> bool {
        self.includes(other) && other.includes(self)
    }

    /// The smallest and largest values of `expression` over the polyhedron (exact rationals);
    /// `None` for an unbounded side. An empty polyhedron gives `(None, None)`: check
    /// [`Polyhedron::is_empty`] where the difference matters.
    pub fn bounds(&self, expression: &LinearExpr) -> (Option<Rational>, Option<Rational>) {
        if self.is_known_empty() {
            return (None, None);
        }
        let query = ExpressionBounds {
            constraints: &self.constraints,
            dimensions: self.dimensions,
            expression,
        };
        match solve(&query) {
            Some(Some(bounds)) => bounds,
            Some(None) | None => (None, None),
        }
    }

    /// Removes redundant constraints and makes implicit equalities explicit (exact: the set of
    /// points does not change). An empty polyhedron becomes the canonical empty one.
    pub fn minimize(&mut self) {
        if self.is_known_empty() || self.constraints.is_empty() {
            return;
        }
        match remove_redundant(&self.constraints, self.dimensions, Normalization::Rational, None) {
            Reduction::Empty => *self = Polyhedron::empty(self.dimensions),
            Reduction::Constraints(constraints) => self.constraints = constraints,
            Reduction::TooLarge => {}
        }
    }

    /// A minimised copy (see [`Polyhedron::minimize`]).
    pub fn minimized(&self) -> Polyhedron {
        let mut copy = self.clone();
        copy.minimize();
        copy
    }

    /// The polyhedron with the given dimensions existentially quantified: they become
    /// unconstrained, and the number of dimensions stays. Exact rational projection by
    /// Fourier–Motzkin (then minimisation), unless a budget or an overflow drops constraints (a
    /// superset). Dimensions out of range are ignored.
    pub fn project_out(&self, dimensions: &[Dimension]) -> Polyhedron {
        self.project_out_reporting_exactness(dimensions).0
    }

    /// [`Polyhedron::project_out`], also telling whether the result is the exact projection
    /// (`false` when a budget of [`limits`] or a 64-bit overflow dropped constraints).
    pub fn project_out_reporting_exactness(&self, dimensions: &[Dimension]) -> (Polyhedron, bool) {
        if self.is_known_empty() {
            return (self.clone(), true);
        }
        let eliminated: Vec<Dimension> = dimensions
            .iter()
            .copied()
            .filter(|dimension| *dimension < self.dimensions)
            .collect();
        match eliminate(&self.constraints, self.dimensions, &eliminated, false) {
            None => (Polyhedron::empty(self.dimensions), true),
            Some(projection) => {
                let mut result =
                    Self::from_valid_constraints(self.dimensions, &projection.constraints, Normalization::Rational);
                result.minimize();
                (result, projection.exact)
            }
        }
    }

    /// Same as [`Polyhedron::project_out`].
    pub fn eliminate(&self, dimensions: &[Dimension]) -> Polyhedron {
        self.project_out(dimensions)
    }

    /// Appends `count` unconstrained dimensions (numbered after the existing ones).
    pub fn add_dims(&self, count: usize) -> Polyhedron {
        let mut result = self.clone();
        result.dimensions = self.dimensions.saturating_add(count);
        result
    }

    /// Projects out the given dimensions and removes them, renumbering the others in order.
    pub fn remove_dims(&self, dimensions: &[Dimension]) -> Polyhedron {
        let removed: HashSet<Dimension> = dimensions.iter().copied().collect();
        let mut next = 0;
        let mapping: Vec<Option<Dimension>> = (0..self.dimensions)
            .map(|dimension| {
                if removed.contains(&dimension) {
                    None
                } else {
                    next += 1;
                    Some(next - 1)
                }
            })
            .collect();
        self.map_dims(&mapping, next)
    }

    /// Renames dimension `d` to `permutation[d]`. A `permutation` that is not a bijection of
    /// `0..dimensions()` is read as in [`Polyhedron::map_dims`].
    pub fn permute(&self, permutation: &[Dimension]) -> Polyhedron {
        let mapping: Vec<Option<Dimension>> = permutation.iter().map(|target| Some(*target)).collect();
        self.map_dims(&mapping, self.dimensions)
    }

    /// The image under a renaming of dimensions into a space of `new_dimensions` dimensions: the
    /// points `y` for which some point `x` of the polyhedron has `x_d = y_{mapping[d]}` for every
    /// `d` with `mapping[d] = Some(t)`, `t < new_dimensions`. Dimensions mapped to `None`, out of
    /// range, or beyond `mapping` are projected out; dimensions mapped to the same target are
    /// equated first; targets nothing maps to are unconstrained. This is how callee variables
    /// become caller variables.
    pub fn map_dims(&self, mapping: &[Option<Dimension>], new_dimensions: usize) -> Polyhedron {
        if self.is_known_empty() {
            return Polyhedron::empty(new_dimensions);
        }
        let target_of = |dimension: Dimension| -> Option<Dimension> {
            mapping
                .get(dimension)
                .copied()
                .flatten()
                .filter(|target| *target < new_dimensions)
        };
        let mut first_source: Vec<Option<Dimension>> = vec![None; new_dimensions];
        let mut equalities = Vec::new();
        let mut projected = Vec::new();
        for dimension in 0..self.dimensions {
            match target_of(dimension) {
                None => projected.push(dimension),
                Some(target) => match first_source[target] {
                    None => first_source[target] = Some(dimension),
                    Some(source) => {
                        let mut coefficients = vec![0; dimension.max(source) + 1];
                        coefficients[source] = 1;
                        coefficients[dimension] = -1;
                        equalities.push(Constraint::equal_zero(LinearExpr::new(coefficients, 0)));
                        projected.push(dimension);
                    }
                },
            }
        }
        let mut source = self.clone();
        if !equalities.is_empty() {
            equalities.extend(self.constraints.iter().cloned());
            source = Self::from_valid_constraints(self.dimensions, &equalities, Normalization::Rational);
        }
        let identity =
            projected.is_empty() && (0..self.dimensions).all(|dimension| target_of(dimension) == Some(dimension));
        if identity {
            let mut result = source;
            result.dimensions = new_dimensions.max(result.dimensions);
            return result;
        }
        let source = if projected.is_empty() {
            source
        } else {
            source.project_out(&projected)
        };
        if source.is_known_empty() {
            return Polyhedron::empty(new_dimensions);
        }
        let renamed: Vec<Constraint> = source
            .constraints
            .iter()
            .filter_map(|constraint| {
                constraint
                    .expression()
                    .renamed(target_of)
                    .map(|expression| constraint.with_expression(expression))
            })
            .collect();
        Self::from_valid_constraints(new_dimensions, &renamed, Normalization::Rational)
    }

    /// The convex hull (least upper bound): the exact closed convex hull of the rational points,
    /// minimised. Cheap cases first (an empty side, identical sides, one side including the
    /// other), then the projection of the lifted system (see `hull.rs`). If that runs over a
    /// budget of [`limits`] or overflows, the result is the template hull instead (each side's
    /// constraint directions with the bound relaxed to hold on both), together with whatever the
    /// projection had found: still a superset of both sides. Polyhedra of different dimensions
    /// join in the larger space.
    pub fn join(&self, other: &Polyhedron) -> Polyhedron {
        self.join_reporting_exactness(other).0
    }

    /// [`Polyhedron::join`], also telling whether the result is the exact hull (`false` when it
    /// fell back to the template hull).
    pub fn join_reporting_exactness(&self, other: &Polyhedron) -> (Polyhedron, bool) {
        let dimensions = self.dimensions.max(other.dimensions);
        let mut first = self.minimized();
        first.dimensions = dimensions;
        let mut second = other.minimized();
        second.dimensions = dimensions;
        if first.is_known_empty() {
            return (second, true);
        }
        if second.is_known_empty() || first.constraints == second.constraints {
            return (first, true);
        }
        if first.includes(&second) {
            return (first, true);
        }
        if second.includes(&first) {
            return (second, true);
        }
        let (mut constraints, exact) = match hull::convex_hull(&first.constraints, &second.constraints, dimensions) {
            Some(projection) => (projection.constraints, projection.exact),
            None => (Vec::new(), false),
        };
        if !exact {
            constraints.extend(template_hull(&first, &second));
        }
        let mut result = Self::from_valid_constraints(dimensions, &constraints, Normalization::Rational);
        result.minimize();
        (result, exact)
    }

    /// The bounds `x_d ≥ l` and `x_d ≤ u` of each single dimension that `self` entails, exact
    /// (rational bounds scaled to integer coefficients); bounds whose numbers do not fit 64 bits
    /// are left out.
    fn dimension_bounds(&self) -> Vec<Constraint> {
        let mut bounds = Vec::new();
        for d in 0..self.dimensions {
            if !self.constraints.iter().any(|c| c.expression().coefficient(d) != 0) {
                continue;
            }
            let (lower, upper) = self.bounds(&LinearExpr::variable(d));
            // x ≥ p/q as q·x - p ≥ 0; x ≤ p/q as -q·x + p ≥ 0.
            let mut push = |value: Option<Rational>, sign: i64| {
                let Some(value) = value else { return };
                let (Some(p), Some(q)) = (value.numer().to_i64(), value.denom().to_i64()) else {
                    return;
                };
                let (Some(a), Some(b)) = (q.checked_mul(sign), p.checked_mul(-sign)) else {
                    return;
                };
                if let Some(e) = LinearExpr::from_terms(&[(d, a)], b) {
                    bounds.push(Constraint::greater_or_equal_zero(e));
                }
            };
            push(lower, 1);
            push(upper, -1);
        }
        bounds
    }

    /// The inequalities of `self` rewritten through its equalities: for an inequality and an
    /// equality that share a dimension, the inequality with that dimension eliminated by the
    /// equality (once, then once more by another). Each holds wherever `self` does, and within
    /// `self`'s affine hull each is the inequality it came from, in other words. At most
    /// [`MAX_WIDENING_VARIANTS`] of them, none already among `self`'s constraints.
    fn equality_variants(&self) -> Vec<Constraint> {
        let equalities: Vec<&LinearExpr> = self
            .constraints
            .iter()
            .filter(|c| c.is_equality())
            .map(Constraint::expression)
            .collect();
        if equalities.is_empty() {
            return Vec::new();
        }
        let mut variants: Vec<Constraint> = Vec::new();
        let mut frontier: Vec<LinearExpr> = self
            .constraints
            .iter()
            .filter(|c| !c.is_equality())
            .map(|c| c.expression().clone())
            .collect();
        for _ in 0..2 {
            let mut next = Vec::new();
            for inequality in &frontier {
                for equality in &equalities {
                    for (d, _) in inequality.terms() {
                        let Some(variant) = eliminate_by(inequality, equality, d) else {
                            continue;
                        };
                        let constraint = Constraint::greater_or_equal_zero(variant.clone());
                        let Normalized::Constraint(constraint) = constraint.normalized(Normalization::Rational) else {
                            continue;
                        };
                        if self.constraints.contains(&constraint) || variants.contains(&constraint) {
                            continue;
                        }
                        if variants.len() == MAX_WIDENING_VARIANTS {
                            return variants;
                        }
                        variants.push(constraint);
                        next.push(variant);
                    }
                }
            }
            frontier = next;
        }
        variants
    }

    /// The inequalities of `self` (equalities split in two) that `other` entails.
    fn weak_join_constraints(&self, other: &Polyhedron) -> Vec<Constraint> {
        let halves = self.split_constraints();
        let entailed = other.entails_each(&halves, false);
        halves
            .into_iter()
            .zip(entailed)
            .filter(|(_, entailed)| *entailed)
            .map(|(constraint, _)| constraint)
            .collect()
    }

    /// The stored constraints with each equality split into its two inequalities.
    fn split_constraints(&self) -> Vec<Constraint> {
        self.constraints
            .iter()
            .flat_map(Constraint::split_into_inequalities)
            .collect()
    }

    /// The standard widening of Cousot and Halbwachs, with thresholds: the constraints of the
    /// minimised `self` (equalities split into two inequalities) that `newer` entails, plus the
    /// thresholds that both `self` and `newer` entail, plus the bounds of single dimensions that
    /// both entail. The last part makes the result independent of how `self` happens to be
    /// represented: a bound such as `k ≥ 1` that minimisation left implied by two constraints
    /// that both move (`k + c - i ≥ 1`, `c ≤ i`) survives when it still holds in `newer`. The
    /// result includes both arguments. The chain `P_{k+1} = P_k.widen(Q_k, T)` keeps only
    /// constraints that held before, so callers still bound the number of steps (the fixpoint's
    /// update budget) to guarantee that it stabilises.
    pub fn widen(&self, newer: &Polyhedron, thresholds: &[Constraint]) -> Polyhedron {
        let dimensions = self.dimensions.max(newer.dimensions);
        let mut old = self.minimized();
        old.dimensions = dimensions;
        if old.is_known_empty() {
            let mut result = newer.clone();
            result.dimensions = dimensions;
            return result;
        }
        if newer.is_empty() {
            return old;
        }
        let mut kept = old.weak_join_constraints(newer);
        // Constraints that hold of `old` only through its equalities (`k ≥ p - 1` with
        // `k = k'` says `k' ≥ p - 1`) survive when `newer` keeps them, whichever of the
        // equivalent forms minimisation happened to store.
        kept.extend(newer.entailed_of(old.equality_variants()));
        kept.extend(newer.entailed_of(old.dimension_bounds()));
        let thresholds: Vec<Constraint> = thresholds
            .iter()
            .filter(|threshold| threshold.expression().dimension_bound() <= dimensions)
            .filter_map(|threshold| match threshold.normalized(Normalization::Integral) {
                Normalized::Constraint(normalized) => Some(normalized),
                _ => None,
            })
            .collect();
        if !thresholds.is_empty() {
            let by_old = old.entails_each(&thresholds, false);
            let by_newer = newer.entails_each(&thresholds, false);
            for ((threshold, by_old), by_newer) in thresholds.into_iter().zip(by_old).zip(by_newer) {
                if by_old && by_newer {
                    kept.push(threshold);
                }
            }
        }
        let mut result = Self::from_valid_constraints(dimensions, &kept, Normalization::Rational);
        result.minimize();
        result
    }

    /// A standard narrowing for decreasing iterations after widening: `self` intersected with the
    /// constraints of `newer` (equalities split) whose direction (coefficient vector) no constraint
    /// of `self` has, that is, the bounds widening removed. When `newer ⊆ self` the result lies
    /// between them, and each step that changes it adds a direction, so a decreasing sequence
    /// stabilises once the directions the analysis produces are exhausted.
    pub fn narrow(&self, newer: &Polyhedron) -> Polyhedron {
        let dimensions = self.dimensions.max(newer.dimensions);
        let newer = newer.minimized();
        if self.is_known_empty() || newer.is_known_empty() {
            let mut result = newer;
            result.dimensions = dimensions;
            return result;
        }
        let old_directions: HashSet<Vec<i64>> = self
            .split_constraints()
            .into_iter()
            .map(|constraint| constraint.expression().coefficients().to_vec())
            .collect();
        let added: Vec<Constraint> = newer
            .split_constraints()
            .into_iter()
            .filter(|constraint| !old_directions.contains(constraint.expression().coefficients()))
            .collect();
        let mut all = self.constraints.clone();
        all.extend(added);
        let mut result = Self::from_valid_constraints(dimensions, &all, Normalization::Rational);
        result.minimize();
        result
    }

    /// A printable form such as `{x >= 0, x - y <= 3}` (`true` for the universe, `false` when
    /// known empty) naming dimension `d` by `names(d)`.
    pub fn display_with<'a, F: Fn(Dimension) -> String + 'a>(&'a self, names: F) -> impl fmt::Display + 'a {
        DisplayPolyhedron {
            polyhedron: self,
            names,
        }
    }
}

struct DisplayPolyhedron<'a, F> {
    polyhedron: &'a Polyhedron,
    names: F,
}

impl<F: Fn(Dimension) -> String> fmt::Display for DisplayPolyhedron<'_, F> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.polyhedron.is_known_empty() {
            return write!(formatter, "false");
        }
        if self.polyhedron.constraints.is_empty() {
            return write!(formatter, "true");
        }
        write!(formatter, "{{")?;
        for (index, constraint) in self.polyhedron.constraints.iter().enumerate() {
            if index > 0 {
                write!(formatter, ", ")?;
            }
            write!(formatter, "{}", constraint.display_with(&self.names))?;
        }
        write!(formatter, "}}")
    }
}

impl fmt::Display for Polyhedron {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.display_with(|dimension| format!("x{dimension}")))
    }
}

/// The most rewritten inequalities a widening tries (`Polyhedron::equality_variants`).
const MAX_WIDENING_VARIANTS: usize = 48;

/// `inequality` (`≥ 0`) with dimension `d` eliminated by `equality` (`= 0`), when both mention it
/// and no number overflows.
fn eliminate_by(inequality: &LinearExpr, equality: &LinearExpr, d: Dimension) -> Option<LinearExpr> {
    let a = inequality.coefficient(d);
    let b = equality.coefficient(d);
    if a == 0 || b == 0 {
        return None;
    }
    // |b|·inequality - sign(b)·a·equality: the positive scale keeps the direction.
    let scaled = inequality.checked_scale(b.checked_abs()?)?;
    let by = a.checked_mul(b.signum())?;
    let variant = scaled.checked_sub(&equality.checked_scale(by)?)?;
    (!variant.is_constant()).then_some(variant)
}
