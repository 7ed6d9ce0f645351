//! Syntactic simplification, exact redundancy removal and Fourier–Motzkin elimination of
//! constraint systems: the machinery behind projection, the convex hull and minimisation.
//!
//! **Every function here returns a system implied by its input.** Elimination computes the exact
//! rational projection unless a derived coefficient overflows 64 bits or a budget of
//! [`limits`] runs out; then it drops constraints, reports `exact: false`, and the result is a
//! superset of the projection.

use super::limits;
use super::linear::{combine, Constraint, Dimension, Normalization, Normalized, Relation};
use super::memo::{coefficients, Memo};
use super::number::gcd_u128;
use super::simplex::{solve, Minimization, RedundancyRemoval};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::cmp::Ordering;

/// The fraction `numerator / denominator` with a positive denominator, compared exactly.
#[derive(Clone, Copy, Debug)]
struct Fraction {
    numerator: i128,
    denominator: i128,
}

impl Fraction {
    fn compare(self, other: Fraction) -> Ordering {
        // Numerators and denominators are below 2^64 in magnitude, so the products fit.
        (self.numerator * other.denominator).cmp(&(other.numerator * self.denominator))
    }
}

/// The bounds collected for one direction `d` (a primitive coefficient vector whose first nonzero
/// entry is positive): `d·x = value`, `d·x ≥ lower`, `d·x ≤ upper`, each with the constraint
/// that gives it.
#[derive(Default)]
struct DirectionBounds {
    equality: Option<(Fraction, usize)>,
    lower: Option<(Fraction, usize)>,
    upper: Option<(Fraction, usize)>,
}

/// Normalises every constraint and merges parallel ones: duplicates go, of two parallel
/// inequalities facing the same way the tighter stays, two facing each other with equal bounds
/// become an equality, and an inequality parallel to an equality goes. `None` when the system is
/// found empty (a false constraint, crossing bounds, different values of an equality).
///
/// Constraints containing `i64::MIN` after normalisation are dropped (an over-approximation).
/// The survivors keep the order of their first appearance.
pub(crate) fn simplify(constraints: &[Constraint], normalization: Normalization) -> Option<Vec<Constraint>> {
    let mut normalized = Vec::with_capacity(constraints.len());
    for constraint in constraints {
        match constraint.normalized(normalization) {
            Normalized::Constraint(constraint) => normalized.push(constraint),
            Normalized::AlwaysTrue | Normalized::Unrepresentable => {}
            Normalized::AlwaysFalse => return None,
        }
    }
    // Directions are short integer vectors: a fast hash matters here (simplification runs on
    // every polyhedron operation), and only lookups depend on it, never the output's order.
    let mut slot_of_direction: FxHashMap<Vec<i64>, usize> = FxHashMap::default();
    let mut directions: Vec<DirectionBounds> = Vec::new();
    for (index, constraint) in normalized.iter().enumerate() {
        let coefficients = constraint.expression().coefficients();
        let divisor = coefficients.iter().fold(0u128, |gcd, coefficient| {
            gcd_u128(gcd, u128::from(coefficient.unsigned_abs()))
        });
        let divisor = divisor as i128;
        let first_sign = coefficients
            .iter()
            .find(|coefficient| **coefficient != 0)
            .map_or(1, |coefficient| coefficient.signum());
        let direction: Vec<i64> = coefficients
            .iter()
            .map(|coefficient| (i128::from(*coefficient) * i128::from(first_sign) / divisor) as i64)
            .collect();
        let constant = i128::from(constraint.expression().constant_term());
        let slot = *slot_of_direction.entry(direction).or_insert_with(|| {
            directions.push(DirectionBounds::default());
            directions.len() - 1
        });
        let bounds = &mut directions[slot];
        // With a = sign·divisor·d the constraint reads sign·divisor·(d·x) + constant ⋈ 0.
        match (constraint.relation(), first_sign > 0) {
            (Relation::Equal, _) => {
                let value = Fraction {
                    numerator: -constant * i128::from(first_sign),
                    denominator: divisor,
                };
                match bounds.equality {
                    Some((existing, _)) if existing.compare(value) != Ordering::Equal => return None,
                    Some(_) => {}
                    None => bounds.equality = Some((value, index)),
                }
            }
            (Relation::GreaterOrEqual, true) => {
                let lower = Fraction {
                    numerator: -constant,
                    denominator: divisor,
                };
                if bounds
                    .lower
                    .is_none_or(|(existing, _)| lower.compare(existing) == Ordering::Greater)
                {
                    bounds.lower = Some((lower, index));
                }
            }
            (Relation::GreaterOrEqual, false) => {
                let upper = Fraction {
                    numerator: constant,
                    denominator: divisor,
                };
                if bounds
                    .upper
                    .is_none_or(|(existing, _)| upper.compare(existing) == Ordering::Less)
                {
                    bounds.upper = Some((upper, index));
                }
            }
        }
    }
    let mut survivors: Vec<(usize, Constraint)> = Vec::with_capacity(normalized.len());
    for bounds in &directions {
        if let Some((value, index)) = bounds.equality {
            if bounds
                .lower
                .is_some_and(|(lower, _)| lower.compare(value) == Ordering::Greater)
                || bounds
                    .upper
                    .is_some_and(|(upper, _)| upper.compare(value) == Ordering::Less)
            {
                return None;
            }
            survivors.push((index, normalized[index].clone()));
            continue;
        }
        match (bounds.lower, bounds.upper) {
            (Some((lower, lower_index)), Some((upper, upper_index))) => match lower.compare(upper) {
                Ordering::Greater => return None,
                Ordering::Equal => {
                    let index = lower_index.min(upper_index);
                    let lower_constraint = &normalized[lower_index];
                    survivors.push((index, Constraint::equal_zero(lower_constraint.expression().clone())));
                }
                Ordering::Less => {
                    survivors.push((lower_index, normalized[lower_index].clone()));
                    survivors.push((upper_index, normalized[upper_index].clone()));
                }
            },
            (Some((_, index)), None) | (None, Some((_, index))) => {
                survivors.push((index, normalized[index].clone()));
            }
            (None, None) => {}
        }
    }
    survivors.sort_by_key(|(index, _)| *index);
    Some(survivors.into_iter().map(|(_, constraint)| constraint).collect())
}

/// The outcome of an exact redundancy removal.
#[derive(Clone)]
pub(crate) enum Reduction {
    /// The system has no rational solution.
    Empty,
    /// An equivalent system without redundant constraints (or the input, simplified, when the
    /// simplex ran out of pivots).
    Constraints(Vec<Constraint>),
    /// More inequalities than the limit are irredundant.
    TooLarge,
}

/// Removes redundant constraints exactly: syntactic simplification, implicit equalities made
/// explicit, inequalities implied by the others removed by linear programming, and
/// equalities linearly dependent on the others removed by exact elimination. The result
/// describes the same rational set as the simplified input.
///
/// With `irredundant_limit`, the search stops with [`Reduction::TooLarge`] as soon as more
/// inequalities than that are known to be irredundant.
pub(crate) fn remove_redundant(
    constraints: &[Constraint],
    dimensions: usize,
    normalization: Normalization,
    irredundant_limit: Option<usize>,
) -> Reduction {
    let key = (constraints.to_vec(), dimensions, normalization, irredundant_limit);
    if let Some(known) = REDUCTIONS.with(|memo| memo.borrow().get(&key)) {
        return known;
    }
    let reduction = match simplify(constraints, normalization) {
        Some(simplified) => reduce(&simplified, dimensions, normalization, irredundant_limit),
        None => Reduction::Empty,
    };
    let weight = coefficients(&key.0)
        + match &reduction {
            Reduction::Constraints(system) => coefficients(system),
            Reduction::Empty | Reduction::TooLarge => 0,
        };
    REDUCTIONS.with(|memo| memo.borrow_mut().remember(key, &reduction, weight));
    reduction
}

/// Coefficients of the systems and results each thread remembers per function (`memo`).
const REMEMBERED_COEFFICIENTS: usize = 1 << 22;

/// A system, its dimensions, its normalisation and the limit of irredundant rows.
type ReductionKey = (Vec<Constraint>, usize, Normalization, Option<usize>);

/// A system, its dimensions, the dimensions to eliminate and whether to stop over budget.
type EliminationKey = (Vec<Constraint>, usize, Vec<Dimension>, bool);

thread_local! {
    static REDUCTIONS: RefCell<Memo<ReductionKey, Reduction>> = RefCell::new(Memo::new(REMEMBERED_COEFFICIENTS));
    static ELIMINATIONS: RefCell<Memo<EliminationKey, Option<Projection>>> =
        RefCell::new(Memo::new(REMEMBERED_COEFFICIENTS));
}

/// [`remove_redundant`] of a system `simplify` returned.
fn reduce(
    simplified: &[Constraint],
    dimensions: usize,
    normalization: Normalization,
    irredundant_limit: Option<usize>,
) -> Reduction {
    let query = RedundancyRemoval {
        constraints: simplified,
        dimensions,
        irredundant_limit,
    };
    let reduced = match solve(&query) {
        None => simplified.to_vec(),
        Some(Minimization::Empty) => return Reduction::Empty,
        Some(Minimization::TooLarge) => return Reduction::TooLarge,
        Some(Minimization::Reduced { keep, equality }) => {
            let mut reduced = Vec::with_capacity(simplified.len());
            for ((constraint, keep), equality) in simplified.iter().zip(keep).zip(equality) {
                if !keep {
                    continue;
                }
                if equality && !constraint.is_equality() {
                    reduced.push(Constraint::equal_zero(constraint.expression().clone()));
                } else {
                    reduced.push(constraint.clone());
                }
            }
            match simplify(&reduced, normalization) {
                Some(reduced) => reduced,
                None => return Reduction::Empty,
            }
        }
    };
    match remove_dependent_equalities(reduced) {
        Some(reduced) => Reduction::Constraints(reduced),
        None => Reduction::Empty,
    }
}

/// Drops each equality that is a linear combination of the equalities before it (with the
/// constant as one more column). `None` when the equalities are inconsistent. An overflow while
/// eliminating keeps the equality (keeping a redundant constraint is harmless).
pub(crate) fn remove_dependent_equalities(constraints: Vec<Constraint>) -> Option<Vec<Constraint>> {
    let width = constraints
        .iter()
        .map(|constraint| constraint.expression().dimension_bound())
        .max()
        .unwrap_or(0);
    // Each basis row is the augmented vector (coefficients, constant) with a pivot column that all
    // later basis rows have zero in.
    let mut basis: Vec<(usize, Vec<i128>)> = Vec::new();
    let mut kept = Vec::with_capacity(constraints.len());
    for constraint in constraints {
        if !constraint.is_equality() {
            kept.push(constraint);
            continue;
        }
        let expression = constraint.expression();
        let mut row: Vec<i128> = (0..width)
            .map(|dimension| i128::from(expression.coefficient(dimension)))
            .collect();
        row.push(i128::from(expression.constant_term()));
        let mut overflowed = false;
        for (pivot, basis_row) in &basis {
            let factor = row[*pivot];
            if factor == 0 {
                continue;
            }
            let scale = basis_row[*pivot];
            let mut next = Vec::with_capacity(row.len());
            for (value, basis_value) in row.iter().zip(basis_row) {
                let combined = scale.checked_mul(*value).and_then(|left| {
                    factor
                        .checked_mul(*basis_value)
                        .and_then(|right| left.checked_sub(right))
                });
                match combined {
                    Some(combined) => next.push(combined),
                    None => {
                        overflowed = true;
                        break;
                    }
                }
            }
            if overflowed {
                break;
            }
            let divisor = next
                .iter()
                .fold(0u128, |gcd, value| gcd_u128(gcd, value.unsigned_abs()));
            if divisor > 1 {
                let divisor = divisor as i128;
                for value in &mut next {
                    *value /= divisor;
                }
            }
            row = next;
        }
        if overflowed {
            kept.push(constraint);
            continue;
        }
        match row[..width].iter().position(|value| *value != 0) {
            Some(pivot) => {
                basis.push((pivot, row));
                kept.push(constraint);
            }
            None if row[width] != 0 => return None,
            None => {}
        }
    }
    Some(kept)
}

/// A projection: constraints that no longer mention the eliminated dimensions.
#[derive(Clone)]
pub(crate) struct Projection {
    pub(crate) constraints: Vec<Constraint>,
    /// Whether the result is the exact rational projection (no constraint was dropped for
    /// overflow or budget).
    pub(crate) exact: bool,
}

/// Eliminates `to_eliminate` from a system by Fourier–Motzkin with rational normalisation:
/// equalities are substituted first, then each remaining dimension (the one with the fewest new
/// combinations first) is eliminated from the inequalities, and the system is simplified after
/// every step and cleaned by linear programming when it grows. `None` when the system is found
/// empty.
///
/// A step whose pairs exceed [`limits::MAX_COMBINATIONS_PER_ELIMINATION`], or whose result has
/// more than [`limits::MAX_ELIMINATION_ROWS`] irredundant constraints, either goes on with only
/// that many pairs or rows (the sparsest rows), or, with `stop_over_budget`, stops at once and
/// returns only the constraints that mention no eliminated dimension (marked inexact), for
/// callers that have a cheaper approximation of their own.
pub(crate) fn eliminate(
    constraints: &[Constraint],
    dimensions: usize,
    to_eliminate: &[Dimension],
    stop_over_budget: bool,
) -> Option<Projection> {
    let key = (
        constraints.to_vec(),
        dimensions,
        to_eliminate.to_vec(),
        stop_over_budget,
    );
    if let Some(known) = ELIMINATIONS.with(|memo| memo.borrow().get(&key)) {
        return known;
    }
    let projection = eliminate_afresh(constraints, dimensions, to_eliminate, stop_over_budget);
    let weight = coefficients(constraints) + projection.as_ref().map_or(0, |p| coefficients(&p.constraints));
    ELIMINATIONS.with(|memo| memo.borrow_mut().remember(key, &projection, weight));
    projection
}

/// [`eliminate`], computed.
fn eliminate_afresh(
    constraints: &[Constraint],
    dimensions: usize,
    to_eliminate: &[Dimension],
    stop_over_budget: bool,
) -> Option<Projection> {
    let mut exact = true;
    let mut system = simplify(constraints, Normalization::Rational)?;
    let mut pending: Vec<Dimension> = to_eliminate.to_vec();
    pending.sort_unstable();
    pending.dedup();
    loop {
        substitute_equalities(&mut system, &mut pending, &mut exact)?;
        pending.retain(|&dimension| {
            system
                .iter()
                .any(|constraint| constraint.expression().coefficient(dimension) != 0)
        });
        let Some(dimension) = cheapest_dimension(&system, &pending) else {
            break;
        };
        pending.retain(|&other| other != dimension);
        let mut next = Vec::with_capacity(system.len());
        let mut positive = Vec::new();
        let mut negative = Vec::new();
        for constraint in system {
            match constraint.expression().coefficient(dimension).cmp(&0) {
                Ordering::Equal => next.push(constraint),
                Ordering::Greater => positive.push(constraint),
                Ordering::Less => negative.push(constraint),
            }
        }
        if stop_over_budget && positive.len() * negative.len() > limits::MAX_COMBINATIONS_PER_ELIMINATION {
            next.retain(|constraint| {
                pending
                    .iter()
                    .all(|&other| constraint.expression().coefficient(other) == 0)
            });
            return Some(Projection {
                constraints: next,
                exact: false,
            });
        }
        let mut combinations = 0usize;
        'pairs: for upper in &positive {
            for lower in &negative {
                if combinations >= limits::MAX_COMBINATIONS_PER_ELIMINATION {
                    exact = false;
                    break 'pairs;
                }
                combinations += 1;
                let positive_coefficient = upper.expression().coefficient(dimension);
                let negative_coefficient = -lower.expression().coefficient(dimension);
                let common = gcd_u128(
                    positive_coefficient.unsigned_abs().into(),
                    negative_coefficient.unsigned_abs().into(),
                ) as i64;
                match combine(
                    upper.expression(),
                    negative_coefficient / common,
                    lower.expression(),
                    positive_coefficient / common,
                ) {
                    // A combination whose coefficients are huge (products of constants near
                    // the types' limits) makes every later linear program slow; dropping it only
                    // enlarges the projection.
                    Some(expression)
                        if expression
                            .terms()
                            .all(|(_, c)| c.unsigned_abs() <= limits::MAX_COMBINED_COEFFICIENT) =>
                    {
                        next.push(Constraint::greater_or_equal_zero(expression))
                    }
                    Some(_) | None => exact = false,
                }
            }
        }
        system = simplify(&next, Normalization::Rational)?;
        if system.len() > limits::REDUNDANCY_REMOVAL_THRESHOLD {
            let limit = Some(limits::MAX_ELIMINATION_ROWS);
            match remove_redundant(&system, dimensions, Normalization::Rational, limit) {
                Reduction::Empty => return None,
                Reduction::Constraints(reduced) => system = reduced,
                Reduction::TooLarge if stop_over_budget => {
                    system.retain(|constraint| {
                        pending
                            .iter()
                            .all(|&other| constraint.expression().coefficient(other) == 0)
                    });
                    return Some(Projection {
                        constraints: system,
                        exact: false,
                    });
                }
                Reduction::TooLarge => {
                    // Keep the sparsest rows (the ones most likely to be facets of the
                    // projection); dropping rows only enlarges the set.
                    system.sort_by_key(|constraint| {
                        let expression = constraint.expression();
                        let magnitude: u128 = expression
                            .terms()
                            .map(|(_, coefficient)| u128::from(coefficient.unsigned_abs()))
                            .sum();
                        (expression.terms().count(), magnitude)
                    });
                    system.truncate(limits::MAX_ELIMINATION_ROWS);
                    exact = false;
                    match remove_redundant(&system, dimensions, Normalization::Rational, None) {
                        Reduction::Empty => return None,
                        Reduction::Constraints(reduced) => system = reduced,
                        Reduction::TooLarge => {}
                    }
                }
            }
        }
    }
    Some(Projection {
        constraints: system,
        exact,
    })
}

/// Substitutes away every pending dimension that some equality mentions (the equality with the
/// smallest coefficient on it first, so that unit coefficients cause no growth), removing the
/// used equality and the dimension from `pending`.
fn substitute_equalities(system: &mut Vec<Constraint>, pending: &mut Vec<Dimension>, exact: &mut bool) -> Option<()> {
    loop {
        let mut best: Option<((u64, usize), usize, Dimension)> = None;
        for (index, constraint) in system.iter().enumerate() {
            if !constraint.is_equality() {
                continue;
            }
            let expression = constraint.expression();
            let term_count = expression.terms().count();
            for &dimension in pending.iter() {
                let coefficient = expression.coefficient(dimension);
                if coefficient == 0 {
                    continue;
                }
                let score = (coefficient.unsigned_abs(), term_count);
                if best.as_ref().is_none_or(|(best_score, _, _)| score < *best_score) {
                    best = Some((score, index, dimension));
                }
            }
        }
        let Some((_, index, dimension)) = best else {
            return Some(());
        };
        let equality = system.remove(index);
        let pivot = equality.expression().coefficient(dimension);
        let mut next = Vec::with_capacity(system.len());
        for constraint in system.drain(..) {
            let coefficient = constraint.expression().coefficient(dimension);
            if coefficient == 0 {
                next.push(constraint);
                continue;
            }
            let common = gcd_u128(pivot.unsigned_abs().into(), coefficient.unsigned_abs().into()) as i64;
            // |pivot|/common · constraint - sign(pivot)·coefficient/common · equality has no
            // term in `dimension`, and the constraint's multiplier is positive.
            match combine(
                constraint.expression(),
                pivot.abs() / common,
                equality.expression(),
                -pivot.signum() * (coefficient / common),
            ) {
                Some(expression) => next.push(constraint.with_expression(expression)),
                None => *exact = false,
            }
        }
        pending.retain(|&other| other != dimension);
        *system = simplify(&next, Normalization::Rational)?;
    }
}

/// The pending dimension whose elimination creates the fewest constraints (Fourier–Motzkin
/// replaces `p + n` constraints by `p · n`).
fn cheapest_dimension(system: &[Constraint], pending: &[Dimension]) -> Option<Dimension> {
    pending
        .iter()
        .map(|&dimension| {
            let (mut positive, mut negative) = (0i64, 0i64);
            for constraint in system {
                match constraint.expression().coefficient(dimension).cmp(&0) {
                    Ordering::Greater => positive += 1,
                    Ordering::Less => negative += 1,
                    Ordering::Equal => {}
                }
            }
            (positive * negative - positive - negative, dimension)
        })
        .min()
        .map(|(_, dimension)| dimension)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::polyhedra::linear::LinearExpr;

    fn variable(dimension: Dimension) -> LinearExpr {
        LinearExpr::variable(dimension)
    }

    #[test]
    fn parallel_constraints_merge() {
        let x = variable(0);
        let constraints = vec![
            Constraint::greater_or_equal_zero(x.clone()),
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![2], 2)),
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![-3], 0)),
        ];
        assert_eq!(
            simplify(&constraints, Normalization::Rational),
            Some(vec![Constraint::equal_zero(x)])
        );
    }

    #[test]
    fn chain_projects_to_transitive_constraint() {
        // x ≤ y, y ≤ z: eliminating y gives x ≤ z.
        let constraints = vec![
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![-1, 1, 0], 0)),
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![0, -1, 1], 0)),
        ];
        let projection = eliminate(&constraints, 3, &[1], false).expect("not empty");
        assert!(projection.exact);
        assert_eq!(
            projection.constraints,
            vec![Constraint::greater_or_equal_zero(LinearExpr::new(vec![-1, 0, 1], 0))]
        );
    }
}
