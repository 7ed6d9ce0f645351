//! Property tests of the polyhedra domain against brute force: random small polyhedra in 2–4
//! dimensions, integer points enumerated in a box, and an independent rational Fourier–Motzkin
//! over big rationals as the reference for emptiness, bounds, entailment and inclusion.

use jresa_analyses::value::polyhedra::{rational_solution, Constraint, LinearExpr, Polyhedron, Rational, Relation};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use std::collections::HashSet;

// ---------------------------------------------------------------------------------------------
// The reference: rational Fourier–Motzkin over big rationals, no cleverness.
// ---------------------------------------------------------------------------------------------

/// `Σ coefficients·x + constant ⋈ 0` over rationals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Row {
    coefficients: Vec<Rational>,
    constant: Rational,
    equality: bool,
}

fn integer(value: i64) -> Rational {
    Rational::from_integer(BigInt::from(value))
}

fn row_of(constraint: &Constraint, width: usize) -> Row {
    let expression = constraint.expression();
    Row {
        coefficients: (0..width)
            .map(|dimension| integer(expression.coefficient(dimension)))
            .collect(),
        constant: integer(expression.constant_term()),
        equality: constraint.is_equality(),
    }
}

/// `first + factor · second`.
fn add_scaled(first: &Row, factor: &Rational, second: &Row) -> Row {
    Row {
        coefficients: first
            .coefficients
            .iter()
            .zip(&second.coefficients)
            .map(|(left, right)| left + factor * right)
            .collect(),
        constant: &first.constant + factor * &second.constant,
        equality: first.equality,
    }
}

fn scaled(row: &Row, factor: &Rational) -> Row {
    Row {
        coefficients: row.coefficients.iter().map(|value| value * factor).collect(),
        constant: &row.constant * factor,
        equality: row.equality,
    }
}

/// Divides by the magnitude of the first nonzero number so that duplicates are recognised.
fn canonical(row: Row) -> Row {
    let first = row
        .coefficients
        .iter()
        .chain(std::iter::once(&row.constant))
        .find(|value| !value.is_zero())
        .cloned();
    match first {
        Some(first) => scaled(&row, &(Rational::one() / first.abs())),
        None => row,
    }
}

/// Eliminates `variable` exactly (substitution by an equality when there is one).
fn reference_eliminate(rows: Vec<Row>, variable: usize) -> Vec<Row> {
    let mut result: Vec<Row> = Vec::new();
    if let Some(position) = rows
        .iter()
        .position(|row| row.equality && !row.coefficients[variable].is_zero())
    {
        let pivot = rows[position].clone();
        for (index, row) in rows.iter().enumerate() {
            if index == position {
                continue;
            }
            let factor = -(&row.coefficients[variable] / &pivot.coefficients[variable]);
            result.push(add_scaled(row, &factor, &pivot));
        }
    } else {
        let mut positive = Vec::new();
        let mut negative = Vec::new();
        for row in rows {
            if row.coefficients[variable].is_positive() {
                positive.push(row);
            } else if row.coefficients[variable].is_negative() {
                negative.push(row);
            } else {
                result.push(row);
            }
        }
        for upper in &positive {
            for lower in &negative {
                let combined = add_scaled(
                    &scaled(upper, &-&lower.coefficients[variable]),
                    &upper.coefficients[variable],
                    lower,
                );
                result.push(combined);
            }
        }
    }
    let mut seen = HashSet::new();
    result
        .into_iter()
        .map(canonical)
        .filter(|row| seen.insert(row.clone()))
        .collect()
}

/// Whether a constant row holds.
fn constant_row_holds(row: &Row) -> bool {
    if row.equality {
        row.constant.is_zero()
    } else {
        !row.constant.is_negative()
    }
}

/// Whether the system has no rational solution, by eliminating every variable.
fn reference_is_empty(constraints: &[Constraint], dimensions: usize) -> bool {
    let mut rows: Vec<Row> = constraints.iter().map(|c| row_of(c, dimensions)).collect();
    for variable in 0..dimensions {
        rows = reference_eliminate(rows, variable);
    }
    !rows.iter().all(constant_row_holds)
}

/// The rational bounds of `expression`, or `None` when the system is empty.
#[allow(clippy::type_complexity)]
fn reference_bounds(
    constraints: &[Constraint],
    dimensions: usize,
    expression: &LinearExpr,
) -> Option<(Option<Rational>, Option<Rational>)> {
    // One more variable t with t - expression = 0; eliminate everything else.
    let width = dimensions + 1;
    let mut rows: Vec<Row> = constraints.iter().map(|c| row_of(c, width)).collect();
    let mut definition = Row {
        coefficients: (0..width)
            .map(|dimension| integer(-expression.coefficient(dimension)))
            .collect(),
        constant: integer(-expression.constant_term()),
        equality: true,
    };
    definition.coefficients[dimensions] = integer(1);
    rows.push(definition);
    for variable in 0..dimensions {
        rows = reference_eliminate(rows, variable);
    }
    let mut lower: Option<Rational> = None;
    let mut upper: Option<Rational> = None;
    for row in rows {
        let coefficient = &row.coefficients[dimensions];
        if coefficient.is_zero() {
            if !constant_row_holds(&row) {
                return None;
            }
            continue;
        }
        let value = -(&row.constant / coefficient);
        let raises_lower = row.equality || coefficient.is_positive();
        let lowers_upper = row.equality || coefficient.is_negative();
        if raises_lower && lower.as_ref().is_none_or(|current| value > *current) {
            lower = Some(value.clone());
        }
        if lowers_upper && upper.as_ref().is_none_or(|current| value < *current) {
            upper = Some(value);
        }
    }
    if let (Some(lower), Some(upper)) = (&lower, &upper) {
        if lower > upper {
            return None;
        }
    }
    Some((lower, upper))
}

fn reference_entails(constraints: &[Constraint], dimensions: usize, query: &Constraint) -> bool {
    match reference_bounds(constraints, dimensions, query.expression()) {
        None => true,
        Some((lower, upper)) => {
            let lower_ok = lower.is_some_and(|lower| !lower.is_negative());
            let upper_ok = upper.is_some_and(|upper| !upper.is_positive());
            match query.relation() {
                Relation::GreaterOrEqual => lower_ok,
                Relation::Equal => lower_ok && upper_ok,
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Brute force over integer points.
// ---------------------------------------------------------------------------------------------

/// The integer points of the box `[-radius, radius]^dimensions`.
fn box_points(dimensions: usize) -> Vec<Vec<i64>> {
    let radius: i64 = if dimensions >= 4 { 3 } else { 4 };
    let mut points = vec![Vec::new()];
    for _ in 0..dimensions {
        points = points
            .into_iter()
            .flat_map(|point| {
                (-radius..=radius).map(move |value| {
                    let mut extended = point.clone();
                    extended.push(value);
                    extended
                })
            })
            .collect();
    }
    points
}

/// Whether an integer point satisfies a constraint (in 128 bits: the coefficients fit in 64 and
/// the point's values are tiny).
fn holds(constraint: &Constraint, point: &[i64]) -> bool {
    let expression = constraint.expression();
    let mut value = i128::from(expression.constant_term());
    for (dimension, coefficient) in expression.terms() {
        value += i128::from(coefficient) * i128::from(point.get(dimension).copied().unwrap_or(0));
    }
    match constraint.relation() {
        Relation::Equal => value == 0,
        Relation::GreaterOrEqual => value >= 0,
    }
}

fn contains(polyhedron: &Polyhedron, point: &[i64]) -> bool {
    polyhedron
        .constraints()
        .iter()
        .all(|constraint| holds(constraint, point))
}

fn raw_contains(constraints: &[Constraint], point: &[i64]) -> bool {
    constraints.iter().all(|constraint| holds(constraint, point))
}

// ---------------------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------------------

fn constraint_strategy(dimensions: usize) -> impl Strategy<Value = Constraint> {
    (prop::collection::vec(-3i64..=3, dimensions), -8i64..=8, 0u8..10).prop_map(|(coefficients, constant, kind)| {
        let relation = if kind < 2 {
            Relation::Equal
        } else {
            Relation::GreaterOrEqual
        };
        Constraint::new(LinearExpr::new(coefficients, constant), relation)
    })
}

fn system_strategy(dimensions: usize) -> impl Strategy<Value = Vec<Constraint>> {
    prop::collection::vec(constraint_strategy(dimensions), 1..=5)
}

/// A dimension count and two constraint systems over it.
fn pair_strategy() -> impl Strategy<Value = (usize, Vec<Constraint>, Vec<Constraint>)> {
    (2usize..=4).prop_flat_map(|dimensions| {
        (
            Just(dimensions),
            system_strategy(dimensions),
            system_strategy(dimensions),
        )
    })
}

/// 96 cases per property unless `PROPTEST_CASES` asks for another number (for long runs).
/// Like [`pair_strategy`] in 2–3 dimensions, for the properties checked against the reference
/// Fourier–Motzkin, whose cost grows doubly exponentially with the dimension.
fn reference_pair_strategy() -> impl Strategy<Value = (usize, Vec<Constraint>, Vec<Constraint>)> {
    (2usize..=3).prop_flat_map(|dimensions| {
        (
            Just(dimensions),
            system_strategy(dimensions),
            system_strategy(dimensions),
        )
    })
}

fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 96;
    }
    config
}

/// Whether `point` (integers) lies in the closed convex hull of the rational points of `first`
/// and `second`: some `y`, `σ ∈ [0, 1]` with `A·y + a·σ ⋈ 0` and `B·(point - y) + b·(1 - σ) ⋈ 0`.
/// Decided over the rationals by the exact simplex on the raw lifted system.
fn in_closed_hull(first: &Polyhedron, second: &Polyhedron, point: &[i64]) -> bool {
    let dimensions = point.len();
    let sigma = dimensions;
    let mut lifted = Vec::new();
    for constraint in first.constraints() {
        let expression = constraint.expression();
        let mut terms: Vec<(usize, i64)> = expression.terms().collect();
        terms.push((sigma, expression.constant_term()));
        lifted.push(Constraint::new(
            LinearExpr::from_terms(&terms, 0).expect("small"),
            constraint.relation(),
        ));
    }
    for constraint in second.constraints() {
        let expression = constraint.expression();
        let mut terms: Vec<(usize, i64)> = expression
            .terms()
            .map(|(dimension, coefficient)| (dimension, -coefficient))
            .collect();
        terms.push((sigma, -expression.constant_term()));
        let constant = expression.evaluate_integers(point);
        let constant = i64::try_from(constant).expect("small");
        lifted.push(Constraint::new(
            LinearExpr::from_terms(&terms, constant).expect("small"),
            constraint.relation(),
        ));
    }
    lifted.push(Constraint::greater_or_equal_zero(LinearExpr::variable(sigma)));
    lifted.push(Constraint::greater_or_equal_zero(
        LinearExpr::from_terms(&[(sigma, -1)], 1).expect("small"),
    ));
    let solution = rational_solution(&lifted, dimensions + 1).expect("within the pivot budget");
    if let Some(solution) = &solution {
        assert!(lifted.iter().all(|constraint| constraint.is_satisfied_by(solution)));
    }
    solution.is_some()
}

/// Whether some rational point of `polyhedron` agrees with `point` on the dimensions not in
/// `eliminated`.
fn has_preimage(polyhedron: &Polyhedron, eliminated: &[usize], point: &[i64]) -> bool {
    let mut constraints = polyhedron.constraints().to_vec();
    for (dimension, value) in point.iter().enumerate() {
        if !eliminated.contains(&dimension) {
            constraints.push(Constraint::equal_zero(
                LinearExpr::from_terms(&[(dimension, 1)], -value).expect("small"),
            ));
        }
    }
    rational_solution(&constraints, point.len())
        .expect("within the pivot budget")
        .is_some()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn emptiness_matches_the_reference_and_witnesses_are_exact(
        (dimensions, constraints, _) in reference_pair_strategy()
    ) {
        let polyhedron = Polyhedron::from_constraints(dimensions, constraints.clone());
        let expected = reference_is_empty(polyhedron.constraints(), dimensions);
        prop_assert_eq!(polyhedron.is_empty(), expected);
        match polyhedron.witness() {
            Some(point) => {
                prop_assert!(!expected);
                prop_assert!(polyhedron.contains_point(&point));
            }
            None => prop_assert!(expected),
        }
        // The raw system's rational emptiness too (no integral tightening there).
        let raw = rational_solution(&constraints, dimensions).expect("within budget");
        prop_assert_eq!(raw.is_none(), reference_is_empty(&constraints, dimensions));
        if let Some(point) = raw {
            prop_assert!(constraints.iter().all(|constraint| constraint.is_satisfied_by(&point)));
        }
        // Normalisation keeps every integer point.
        for point in box_points(dimensions) {
            prop_assert_eq!(raw_contains(&constraints, &point), contains(&polyhedron, &point));
        }
    }

    #[test]
    fn meet_is_the_exact_intersection((dimensions, first, second) in pair_strategy()) {
        let first = Polyhedron::from_constraints(dimensions, first);
        let second = Polyhedron::from_constraints(dimensions, second);
        let meet = first.meet(&second);
        for point in box_points(dimensions) {
            prop_assert_eq!(
                contains(&meet, &point),
                contains(&first, &point) && contains(&second, &point)
            );
        }
        if meet.constraints().len() <= 6 {
            prop_assert_eq!(meet.is_empty(), reference_is_empty(meet.constraints(), dimensions));
        }
    }

    #[test]
    fn join_contains_both_sides_and_nothing_outside_the_hull(
        (dimensions, first, second) in pair_strategy()
    ) {
        let first = Polyhedron::from_constraints(dimensions, first);
        let second = Polyhedron::from_constraints(dimensions, second);
        let (join, exact) = first.join_reporting_exactness(&second);
        prop_assert!(join.includes(&first) && join.includes(&second));
        let both_empty = first.is_empty() && second.is_empty();
        prop_assert_eq!(join.is_empty(), both_empty);
        // Points of the join outside both sides must lie in their closed hull (checked by a
        // linear program each, so at most 200 of them, spread over the box).
        let mut outside_both = Vec::new();
        for point in box_points(dimensions) {
            let inside = contains(&join, &point);
            if contains(&first, &point) || contains(&second, &point) {
                prop_assert!(inside, "{:?} is lost by the join {}", point, join);
            } else if inside {
                outside_both.push(point);
            }
        }
        // A join over budget is only an upper bound; exact ones must be the hull.
        if exact && !both_empty {
            let first_points = if first.is_empty() { &second } else { &first };
            let second_points = if second.is_empty() { &first } else { &second };
            let stride = outside_both.len().div_ceil(200).max(1);
            for point in outside_both.iter().step_by(stride) {
                prop_assert!(
                    in_closed_hull(first_points, second_points, point),
                    "{:?} is in the join {} but not in the hull of {} and {}",
                    point, join, first, second
                );
            }
        }
    }

    #[test]
    fn projection_contains_the_shadow_and_is_exact(
        (dimensions, constraints, _) in pair_strategy(),
        mask in 1u8..15,
    ) {
        let polyhedron = Polyhedron::from_constraints(dimensions, constraints);
        let eliminated: Vec<usize> = (0..dimensions).filter(|d| mask & (1 << d) != 0).collect();
        let (projection, exact) = polyhedron.project_out_reporting_exactness(&eliminated);
        prop_assert_eq!(projection.dimensions(), dimensions);
        for constraint in projection.constraints() {
            for dimension in &eliminated {
                prop_assert_eq!(constraint.expression().coefficient(*dimension), 0);
            }
        }
        prop_assert_eq!(projection.is_empty(), polyhedron.is_empty());
        for point in box_points(dimensions) {
            let inside = contains(&projection, &point);
            if contains(&polyhedron, &point) {
                prop_assert!(inside, "{:?} lost by projecting {:?} out of {}", point, eliminated, polyhedron);
            }
            if inside && exact {
                prop_assert!(
                    has_preimage(&polyhedron, &eliminated, &point),
                    "{:?} in {} has no preimage in {}", point, projection, polyhedron
                );
            }
        }
    }

    #[test]
    fn inclusion_and_entailment_match_the_reference(
        (dimensions, first, second) in reference_pair_strategy(),
        query in (2usize..=4).prop_flat_map(constraint_strategy),
    ) {
        let first = Polyhedron::from_constraints(dimensions, first);
        let second = Polyhedron::from_constraints(dimensions, second);
        let query = Constraint::new(
            LinearExpr::new(
                (0..dimensions).map(|d| query.expression().coefficient(d)).collect(),
                query.expression().constant_term(),
            ),
            query.relation(),
        );
        let expected = reference_entails(first.constraints(), dimensions, &query);
        prop_assert_eq!(first.entails(&query), expected);
        let expected_inclusion = first
            .constraints()
            .iter()
            .all(|constraint| reference_entails(second.constraints(), dimensions, constraint));
        let included = first.includes(&second);
        prop_assert_eq!(included, expected_inclusion);
        if included {
            for point in box_points(dimensions) {
                if contains(&second, &point) {
                    prop_assert!(contains(&first, &point));
                }
            }
        }
    }

    #[test]
    fn bounds_match_the_reference(
        (dimensions, constraints, _) in reference_pair_strategy(),
        coefficients in prop::collection::vec(-3i64..=3, 4),
        constant in -5i64..=5,
    ) {
        let polyhedron = Polyhedron::from_constraints(dimensions, constraints);
        let expression = LinearExpr::new(coefficients[..dimensions].to_vec(), constant);
        let expected = reference_bounds(polyhedron.constraints(), dimensions, &expression)
            .unwrap_or((None, None));
        prop_assert_eq!(polyhedron.bounds(&expression), expected);
    }

    #[test]
    fn minimisation_keeps_the_points_and_leaves_no_redundancy(
        (dimensions, constraints, _) in reference_pair_strategy()
    ) {
        let polyhedron = Polyhedron::from_constraints(dimensions, constraints);
        let minimized = polyhedron.minimized();
        prop_assert!(minimized.equivalent(&polyhedron));
        prop_assert!(minimized.constraints().len() <= polyhedron.constraints().len());
        for point in box_points(dimensions) {
            prop_assert_eq!(contains(&minimized, &point), contains(&polyhedron, &point));
        }
        if !minimized.is_empty() {
            let all = minimized.constraints();
            for (index, constraint) in all.iter().enumerate() {
                let others: Vec<Constraint> = all
                    .iter()
                    .enumerate()
                    .filter(|(other, _)| *other != index)
                    .map(|(_, constraint)| constraint.clone())
                    .collect();
                prop_assert!(
                    !reference_entails(&others, dimensions, constraint),
                    "{} is redundant in {}", constraint, minimized
                );
                if !constraint.is_equality() {
                    // Not an implicit equality: some rational point satisfies it strictly.
                    let opposite = Constraint::equal_zero(constraint.expression().clone());
                    prop_assert!(!reference_entails(all, dimensions, &opposite));
                }
            }
        }
    }

    #[test]
    fn widening_is_an_upper_bound_and_chains_stabilise(
        (dimensions, first, second) in pair_strategy(),
        thresholds in prop::collection::vec((2usize..=4).prop_flat_map(constraint_strategy), 0..3),
        shift in prop::collection::vec(-2i64..=2, 4),
    ) {
        let first = Polyhedron::from_constraints(dimensions, first);
        let second = Polyhedron::from_constraints(dimensions, second);
        let thresholds: Vec<Constraint> = thresholds
            .into_iter()
            .map(|t| Constraint::new(
                LinearExpr::new(
                    (0..dimensions).map(|d| t.expression().coefficient(d)).collect(),
                    t.expression().constant_term(),
                ),
                Relation::GreaterOrEqual,
            ))
            .collect();
        let widened = first.widen(&second, &thresholds);
        prop_assert!(widened.includes(&first) && widened.includes(&second));
        for point in box_points(dimensions) {
            if contains(&first, &point) || contains(&second, &point) {
                prop_assert!(contains(&widened, &point));
            }
        }
        // An increasing chain: the k-th iterate adds `second` shifted by k·shift.
        let shifted = |k: i64| -> Polyhedron {
            let constraints: Vec<Constraint> = second
                .constraints()
                .iter()
                .map(|constraint| {
                    let expression = constraint.expression();
                    let moved: i64 = (0..dimensions)
                        .map(|d| expression.coefficient(d) * shift[d] * k)
                        .sum();
                    Constraint::new(
                        LinearExpr::new(
                            expression.coefficients().to_vec(),
                            expression.constant_term() - moved,
                        ),
                        constraint.relation(),
                    )
                })
                .collect();
            Polyhedron::from_constraints(dimensions, constraints)
        };
        let mut current = first.minimized();
        let budget = 2 * (2 * current.constraints().len() + thresholds.len()) + 3;
        let mut stable = false;
        for k in 0..budget as i64 {
            let next = current.widen(&current.join(&shifted(k)), &thresholds);
            prop_assert!(next.includes(&current));
            if current.includes(&next) {
                stable = true;
                break;
            }
            current = next;
        }
        prop_assert!(stable, "no fixpoint after {} widenings: {}", budget, current);
    }

    #[test]
    fn narrowing_lies_between_the_arguments((dimensions, first, second) in pair_strategy()) {
        let old = Polyhedron::from_constraints(dimensions, first);
        let newer = old.meet(&Polyhedron::from_constraints(dimensions, second));
        let narrowed = old.narrow(&newer);
        prop_assert!(old.includes(&narrowed));
        prop_assert!(narrowed.includes(&newer));
        for point in box_points(dimensions) {
            let inside = contains(&narrowed, &point);
            if contains(&newer, &point) {
                prop_assert!(inside);
            }
            if inside {
                prop_assert!(contains(&old, &point));
            }
        }
    }

    #[test]
    fn renaming_moves_points((dimensions, constraints, _) in pair_strategy(), seed in 0usize..24) {
        let polyhedron = Polyhedron::from_constraints(dimensions, constraints);
        // The seed-th permutation of 0..dimensions (Lehmer code).
        let mut remaining: Vec<usize> = (0..dimensions).collect();
        let mut permutation = Vec::new();
        let mut code = seed;
        for size in (1..=dimensions).rev() {
            permutation.push(remaining.remove(code % size));
            code /= size;
        }
        let renamed = polyhedron.permute(&permutation);
        for point in box_points(dimensions) {
            let mut moved = vec![0; dimensions];
            for (dimension, value) in point.iter().enumerate() {
                moved[permutation[dimension]] = *value;
            }
            prop_assert_eq!(contains(&polyhedron, &point), contains(&renamed, &moved));
        }
        // Dropping the last dimension equals projecting it out and forgetting it.
        let removed = polyhedron.remove_dims(&[dimensions - 1]);
        let projected = polyhedron.project_out(&[dimensions - 1]);
        for point in box_points(dimensions) {
            prop_assert_eq!(contains(&projected, &point), contains(&removed, &point[..dimensions - 1]));
        }
    }
}

/// Larger random polyhedra (6 dimensions, up to 14 constraints), where projections and hulls may
/// run into the budgets of `limits`: the results must still be upper bounds.
fn larger_pair_strategy() -> impl Strategy<Value = (Vec<Constraint>, Vec<Constraint>)> {
    (
        prop::collection::vec(constraint_strategy(6), 8..=14),
        prop::collection::vec(constraint_strategy(6), 8..=14),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..config() })]

    #[test]
    fn larger_joins_and_projections_stay_upper_bounds((first, second) in larger_pair_strategy()) {
        // Keep inequalities only, so that the polyhedra are rarely empty.
        let inequalities = |constraints: Vec<Constraint>| -> Polyhedron {
            Polyhedron::from_constraints(
                6,
                constraints.into_iter().map(|constraint| {
                    Constraint::greater_or_equal_zero(constraint.expression().clone())
                }),
            )
        };
        let first = inequalities(first);
        let second = inequalities(second);
        let join = first.join(&second);
        prop_assert!(join.includes(&first) && join.includes(&second));
        let projection = first.project_out(&[0, 2, 4]);
        prop_assert!(projection.includes(&first));
        if let Some(point) = first.witness() {
            prop_assert!(join.contains_point(&point) && projection.contains_point(&point));
        }
    }
}
