//! Unit tests of the polyhedra domain: each operation on small cases with hand-computed answers.

use jresa_analyses::value::polyhedra::{limits, Constraint, LinearExpr, Polyhedron, Rational, Relation};
use num_bigint::BigInt;

/// The variable names of the tests: dimension `d` is `NAMES[d]`.
const NAMES: [&str; 6] = ["x", "y", "z", "w", "u", "v"];

fn name(dimension: usize) -> String {
    NAMES
        .get(dimension)
        .map_or_else(|| format!("d{dimension}"), |name| name.to_string())
}

/// Parses `3*x - y + 2` (terms `k*name`, `k name`, `name`, or constants) into an expression.
fn parse_expression(text: &str) -> LinearExpr {
    let mut terms = Vec::new();
    let mut constant = 0i64;
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut pieces = Vec::new();
    let mut current = String::new();
    for character in compact.chars() {
        if (character == '+' || character == '-') && !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
        current.push(character);
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    for piece in pieces {
        let (sign, body) = match piece.strip_prefix('-') {
            Some(body) => (-1, body),
            None => (1, piece.strip_prefix('+').unwrap_or(&piece)),
        };
        let body = body.replace('*', "");
        let split = body.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(body.len());
        let (number, variable) = body.split_at(split);
        let number: i64 = if number.is_empty() {
            1
        } else {
            number.parse().expect("a number")
        };
        if variable.is_empty() {
            constant += sign * number;
        } else {
            let dimension = NAMES
                .iter()
                .position(|candidate| *candidate == variable)
                .expect("a known variable name");
            terms.push((dimension, sign * number));
        }
    }
    LinearExpr::from_terms(&terms, constant).expect("small numbers")
}

/// Parses `left >= right`, `left <= right` or `left = right`.
fn parse_constraint(text: &str) -> Constraint {
    for (symbol, build) in [
        (
            ">=",
            Constraint::greater_or_equal as fn(&LinearExpr, &LinearExpr) -> Option<Constraint>,
        ),
        ("<=", Constraint::less_or_equal),
        ("=", Constraint::equal),
    ] {
        if let Some((left, right)) = text.split_once(symbol) {
            return build(&parse_expression(left), &parse_expression(right)).expect("small numbers");
        }
    }
    panic!("no relation in {text}");
}

/// The polyhedron of comma-separated constraints over `dimensions` dimensions.
fn polyhedron(dimensions: usize, text: &str) -> Polyhedron {
    Polyhedron::from_constraints(
        dimensions,
        text.split(',')
            .map(str::trim)
            .filter(|piece| !piece.is_empty())
            .map(parse_constraint),
    )
}

fn rational(numerator: i64, denominator: i64) -> Rational {
    Rational::new(BigInt::from(numerator), BigInt::from(denominator))
}

fn show(polyhedron: &Polyhedron) -> String {
    polyhedron.display_with(name).to_string()
}

/// Asserts that `actual` and `expected` contain the same rational points.
fn assert_equivalent(actual: &Polyhedron, expected: &Polyhedron) {
    assert!(
        actual.equivalent(expected),
        "expected {} but got {}",
        show(expected),
        show(actual)
    );
}

#[test]
fn display_names_dimensions_and_reads_naturally() {
    let shape = polyhedron(2, "x - y >= 1, x <= 5, 2*y + x = 3");
    assert_eq!(show(&shape), "{x - y >= 1, x <= 5, x + 2*y = 3}");
    assert_eq!(show(&Polyhedron::universe(2)), "true");
    assert_eq!(show(&Polyhedron::empty(2)), "false");
    assert_eq!(
        polyhedron(1, "x >= 2").to_string(),
        "{x0 >= 2}",
        "the plain Display names dimensions x0, x1, ..."
    );
}

#[test]
fn normalisation_divides_by_gcd_and_tightens_inequalities() {
    let shape = polyhedron(2, "2*x + 4*y >= 3");
    assert_eq!(show(&shape), "{x + 2*y >= 2}");
    assert!(polyhedron(1, "2*x = 1").is_empty(), "2x = 1 has no integer solution");
    assert!(polyhedron(1, "2*x >= 1, 2*x <= 1").is_empty());
    assert_eq!(show(&polyhedron(2, "x >= 0, x <= 0")), "{x = 0}");
    assert_eq!(show(&polyhedron(2, "x >= 1, x >= 3, x + 0 >= 2")), "{x >= 3}");
}

#[test]
fn emptiness_is_decided_exactly() {
    assert!(polyhedron(2, "x >= 0, y >= 0, x + y <= -1").is_empty());
    assert!(!polyhedron(2, "x >= 0, y >= 0, x + y <= 0").is_empty());
    assert!(polyhedron(3, "x - y >= 1, y - z >= 1, z - x >= -1").is_empty());
    assert!(!Polyhedron::universe(3).is_empty());
    assert!(Polyhedron::empty(3).is_empty());
    // Rationally non-empty (x = y = 1/2 lies in it) but with no integer point: still not empty.
    let no_integer_point = polyhedron(2, "x + y = 1, x - y = 0");
    assert!(!no_integer_point.is_empty());
    let point = no_integer_point.witness().expect("a rational point");
    assert_eq!(point, vec![rational(1, 2), rational(1, 2)]);
}

#[test]
fn witness_satisfies_every_constraint() {
    let shape = polyhedron(3, "x + y + z >= 3, x - y <= 2, 3*z - x = 1, y <= 10");
    let point = shape.witness().expect("not empty");
    assert!(shape.contains_point(&point));
    assert_eq!(polyhedron(1, "x >= 1, x <= 0").witness(), None);
}

#[test]
fn meet_intersects() {
    let left = polyhedron(2, "x >= 0, y >= 0");
    let right = polyhedron(2, "x + y <= 2");
    let meet = left.meet(&right);
    assert_equivalent(&meet, &polyhedron(2, "x >= 0, y >= 0, x + y <= 2"));
    assert!(left.meet(&polyhedron(2, "x <= -1")).is_empty());
}

#[test]
fn entailment_and_inclusion_are_exact() {
    let triangle = polyhedron(2, "x >= 0, y >= 0, x + y <= 2");
    assert!(triangle.entails(&parse_constraint("x <= 2")));
    assert!(triangle.entails(&parse_constraint("x - y <= 2")));
    assert!(!triangle.entails(&parse_constraint("x <= 1")));
    assert!(!triangle.entails(&parse_constraint("x = 0")));
    assert!(polyhedron(2, "x = 1, y = x").entails(&parse_constraint("y = 1")));
    assert!(Polyhedron::empty(2).entails(&parse_constraint("x >= 5")));
    assert!(triangle.includes(&polyhedron(2, "x = 1, y = 1")));
    assert!(!triangle.includes(&polyhedron(2, "x = 1, y = 2")));
    assert!(triangle.includes(&Polyhedron::empty(2)));
    assert!(Polyhedron::universe(2).includes(&triangle));
    assert!(!triangle.includes(&Polyhedron::universe(2)));
    // Entailment over the rationals: 2x + 2y >= 1 holds at every integer point of x + y >= 1 but
    // the stored constraints decide it.
    let half_plane = polyhedron(2, "x + y >= 1");
    assert!(half_plane.entails(&parse_constraint("2*x + 2*y >= 1")));
}

#[test]
fn bounds_are_exact_rationals() {
    let shape = polyhedron(2, "x >= 0, y >= 0, 2*x + y <= 4, x + 2*y <= 4");
    assert_eq!(
        shape.bounds(&parse_expression("x + y")),
        (Some(rational(0, 1)), Some(rational(8, 3)))
    );
    assert_eq!(
        shape.bounds(&parse_expression("x - y + 1")),
        (Some(rational(-1, 1)), Some(rational(3, 1)))
    );
    let ray = polyhedron(2, "x >= 0, y = x");
    assert_eq!(ray.bounds(&parse_expression("y")), (Some(rational(0, 1)), None));
    assert_eq!(
        ray.bounds(&parse_expression("x - y")),
        (Some(rational(0, 1)), Some(rational(0, 1)))
    );
    assert_eq!(
        ray.bounds(&parse_expression("z")),
        (None, None),
        "z is beyond the dimensions"
    );
    assert_eq!(Polyhedron::empty(2).bounds(&parse_expression("x")), (None, None));
}

#[test]
fn join_of_two_points_is_the_segment() {
    let first = polyhedron(2, "x = 0, y = 0");
    let second = polyhedron(2, "x = 2, y = 2");
    let hull = first.join(&second);
    assert_equivalent(&hull, &polyhedron(2, "x = y, x >= 0, x <= 2"));
    assert_eq!(hull.constraints().len(), 3, "minimised: {}", show(&hull));
}

#[test]
fn join_handles_rays_and_cheap_cases() {
    // The closure of the hull of a point and a ray.
    let point = polyhedron(2, "x = 0, y = 0");
    let ray = polyhedron(2, "x >= 1, y = 1");
    assert_equivalent(&point.join(&ray), &polyhedron(2, "y >= 0, y <= 1, x >= y"));
    // Empty sides and inclusion.
    let square = polyhedron(2, "x >= 0, x <= 3, y >= 0, y <= 3");
    assert_equivalent(&square.join(&Polyhedron::empty(2)), &square);
    assert_equivalent(&Polyhedron::empty(2).join(&square), &square);
    assert_equivalent(&square.join(&polyhedron(2, "x = 1, y = 2")), &square);
    assert_equivalent(&polyhedron(2, "x = 1, y = 2").join(&square), &square);
    // Two intervals of a loop counter.
    assert_equivalent(
        &polyhedron(1, "x >= 0, x <= 1").join(&polyhedron(1, "x >= 5, x <= 7")),
        &polyhedron(1, "x >= 0, x <= 7"),
    );
    // Two triangles whose hull is a square.
    let lower = polyhedron(2, "x >= 0, y >= 0, x + y <= 2");
    let upper = polyhedron(2, "x <= 2, y <= 2, x + y >= 2");
    assert_equivalent(&lower.join(&upper), &polyhedron(2, "x >= 0, y >= 0, x <= 2, y <= 2"));
}

#[test]
fn join_keeps_relations_between_variables() {
    // i = j at both points: the loop invariant relation survives the hull.
    let before = polyhedron(3, "x = 0, y = 0, z = 10");
    let after = polyhedron(3, "x = 1, y = 1, z = 10");
    let hull = before.join(&after);
    assert_equivalent(&hull, &polyhedron(3, "x = y, z = 10, x >= 0, x <= 1"));
    assert!(hull.entails(&parse_constraint("x - y = 0")));
}

#[test]
fn projection_of_a_chain_is_transitive() {
    let chain = polyhedron(3, "x <= y, y <= z");
    let projected = chain.project_out(&[1]);
    assert_eq!(projected.dimensions(), 3);
    assert_equivalent(&projected, &polyhedron(3, "x <= z"));
    assert_eq!(show(&projected), "{x - z <= 0}");
}

#[test]
fn projection_uses_equalities_and_removes_dimensions() {
    let shape = polyhedron(3, "y = 2*x + 1, z >= y, z <= 10, x >= 0");
    assert_equivalent(
        &shape.project_out(&[1]),
        &polyhedron(3, "z >= 2*x + 1, z <= 10, x >= 0"),
    );
    let removed = shape.remove_dims(&[1]);
    assert_eq!(removed.dimensions(), 2);
    assert_equivalent(&removed, &polyhedron(2, "y >= 2*x + 1, y <= 10, x >= 0"));
    let everything = shape.project_out(&[0, 1, 2]);
    assert!(everything.is_universe());
    assert!(polyhedron(2, "x >= 1, x <= 0, y >= 0").project_out(&[0]).is_empty());
}

#[test]
fn projection_gives_the_rational_shadow_and_meet_tightens_it() {
    // 2y = x, 0 <= x <= 3: y lies in [0, 3/2] over the rationals.
    let shape = polyhedron(2, "x = 2*y, x >= 0, x <= 3");
    let shadow = shape.project_out(&[0]);
    assert_eq!(show(&shadow), "{y >= 0, 2*y <= 3}");
    // Constraints entering through a meet are tightened for integers: 2y <= 3 becomes y <= 1.
    let tightened = shadow.meet(&Polyhedron::universe(2));
    assert_eq!(show(&tightened), "{y >= 0, y <= 1}");
}

#[test]
fn renaming_maps_callee_variables_to_caller_variables() {
    let callee = polyhedron(3, "y = x + 1, z >= y");
    let swapped = callee.permute(&[1, 0, 2]);
    assert_equivalent(&swapped, &polyhedron(3, "x = y + 1, z >= x"));
    // Callee x -> caller 3, callee y -> caller 0, callee z is local (projected out).
    let caller = callee.map_dims(&[Some(3), Some(0), None], 4);
    assert_eq!(caller.dimensions(), 4);
    assert_equivalent(&caller, &polyhedron(4, "x = w + 1"));
    // Two callee dimensions mapped onto one caller dimension are equated: y = x + 1 and y = x clash.
    assert!(callee.map_dims(&[Some(0), Some(0), Some(1)], 2).is_empty());
    let added = callee.add_dims(2);
    assert_eq!(added.dimensions(), 5);
    assert_equivalent(&added, &polyhedron(5, "y = x + 1, z >= y"));
}

#[test]
fn minimisation_removes_redundancy_and_finds_implicit_equalities() {
    let mut shape = polyhedron(2, "x >= 0, y >= 0, x + y <= 0, x <= 5, x - y <= 7");
    shape.minimize();
    assert_eq!(show(&shape), "{x = 0, y = 0}");
    let mut box_with_redundancy = polyhedron(2, "x >= 0, y >= 0, x <= 2, y <= 2, x + y <= 4, x + y >= -1");
    box_with_redundancy.minimize();
    assert_eq!(show(&box_with_redundancy), "{x >= 0, y >= 0, x <= 2, y <= 2}");
    let mut dependent = polyhedron(3, "x = y, y = z, x = z, x >= 1");
    dependent.minimize();
    assert_eq!(dependent.constraints().len(), 3, "{}", show(&dependent));
    let mut empty = polyhedron(2, "x >= y + 1, y >= x + 1");
    empty.minimize();
    assert_eq!(show(&empty), "false");
}

#[test]
fn widening_drops_unstable_bounds() {
    let old = polyhedron(1, "x >= 0, x <= 1");
    let newer = polyhedron(1, "x >= 0, x <= 2");
    assert_equivalent(&old.widen(&newer, &[]), &polyhedron(1, "x >= 0"));
    // A threshold both entail is kept.
    let thresholds = [parse_constraint("x <= 10"), parse_constraint("x <= 1")];
    assert_equivalent(&old.widen(&newer, &thresholds), &polyhedron(1, "x >= 0, x <= 10"));
    // Equalities are split: i = j survives while the bound on i goes.
    let old = polyhedron(2, "x >= 0, x <= 1, y = x");
    let newer = polyhedron(2, "x >= 0, x <= 2, y = x");
    assert_equivalent(&old.widen(&newer, &[]), &polyhedron(2, "x >= 0, y = x"));
    // An empty old side gives the newer one.
    assert_equivalent(
        &Polyhedron::empty(1).widen(&newer.remove_dims(&[1]), &[]),
        &polyhedron(1, "x >= 0, x <= 2"),
    );
}

#[test]
fn narrowing_restores_bounds_widening_removed() {
    let widened = polyhedron(1, "x >= 0");
    let newer = polyhedron(1, "x >= 0, x <= 10");
    assert_equivalent(&widened.narrow(&newer), &polyhedron(1, "x >= 0, x <= 10"));
    // Bounds in directions the old polyhedron has are not tightened.
    let old = polyhedron(1, "x >= 0, x <= 20");
    assert_equivalent(&old.narrow(&newer), &old);
}

#[test]
fn loop_counter_fixpoint_with_widening_and_narrowing() {
    // for (i = 0; i < 10; i++): the head is i = 0 ⊔ (head ∧ i <= 9)[i := i + 1].
    let increment = |head: &Polyhedron| -> Polyhedron {
        // Dimension 1 is i' = i + 1, then i is projected and i' renamed to i.
        let mut step = head.add_dims(1);
        step.add_constraint(parse_constraint("x <= 9"));
        step.add_constraint(parse_constraint("y = x + 1"));
        step.map_dims(&[None, Some(0)], 1)
    };
    let initial = polyhedron(1, "x = 0");
    let mut head = initial.clone();
    for _ in 0..10 {
        let next = head.widen(&head.join(&initial.join(&increment(&head))), &[]);
        if head.includes(&next) {
            break;
        }
        head = next;
    }
    assert_equivalent(&head, &polyhedron(1, "x >= 0"));
    let narrowed = head.narrow(&initial.join(&increment(&head)));
    assert_equivalent(&narrowed, &polyhedron(1, "x >= 0, x <= 10"));
}

#[test]
fn large_coefficients_stay_exact_or_degrade_soundly() {
    let large = i64::MAX / 3;
    let first = Polyhedron::from_constraints(
        2,
        [
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![large, -1], 0)),
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![-1, large - 1], 7)),
            Constraint::greater_or_equal_zero(LinearExpr::new(vec![1, 0], 0)),
        ],
    );
    // The lowest y is -7 / (large - 1) at x = 0: the simplex overflows 64-bit fractions on the
    // way, restarts over big rationals and stays exact.
    let (lower, _) = first.bounds(&LinearExpr::new(vec![0, 1], 0));
    assert_eq!(lower, Some(rational(-7, large - 1)));
    let second = polyhedron(2, "x = -5, y = 3");
    let hull = first.join(&second);
    for point in [first.witness(), second.witness()].into_iter().flatten() {
        assert!(hull.contains_point(&point), "the hull contains both sides");
    }
    assert!(hull.includes(&first) && hull.includes(&second));
    // A constraint containing i64::MIN cannot be stored; dropping it enlarges the polyhedron.
    let with_minimum = Polyhedron::from_constraints(
        1,
        [Constraint::new(
            LinearExpr::new(vec![1], i64::MIN),
            Relation::GreaterOrEqual,
        )],
    );
    assert!(with_minimum.is_universe());
}

/// A deterministic pseudo-random polyhedron over 10 dimensions: `count` constraints with
/// coefficients in -3..=3 on three dimensions each, satisfied by the origin.
fn random_polyhedron(seed: u64, count: usize) -> Polyhedron {
    let mut state = seed;
    let mut next = move |modulus: u64| -> i64 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % modulus) as i64
    };
    let constraints: Vec<Constraint> = (0..count)
        .map(|_| {
            let terms: Vec<(usize, i64)> = (0..3).map(|_| (next(10) as usize, next(7) - 3)).collect();
            Constraint::greater_or_equal_zero(LinearExpr::from_terms(&terms, 5 + next(10)).expect("small numbers"))
        })
        .collect();
    Polyhedron::from_constraints(10, constraints)
}

#[test]
fn join_over_budget_falls_back_to_a_sound_template_hull() {
    // The lifted projection of these two needs a system of about 190 rows, beyond
    // MAX_ELIMINATION_ROWS: the join is the template hull instead, still an upper bound.
    for (first_seed, second_seed, count) in [(1, 2, 10), (3, 4, 12), (5, 6, 20)] {
        let first = random_polyhedron(first_seed, count);
        let second = random_polyhedron(second_seed, count);
        let join = first.join(&second);
        assert!(join.includes(&first), "{join} misses part of {first}");
        assert!(join.includes(&second), "{join} misses part of {second}");
    }
    // Bounded sides keep their bounding constraints, relaxed to hold on both.
    let mut first = random_polyhedron(1, 10);
    let mut second = random_polyhedron(2, 10);
    for dimension in 0..10 {
        let bound = |upper: i64| {
            Constraint::greater_or_equal_zero(LinearExpr::from_terms(&[(dimension, -1)], upper).expect("small"))
        };
        first.add_constraint(bound(4));
        second.add_constraint(bound(7));
    }
    let join = first.join(&second);
    assert!(join.includes(&first) && join.includes(&second));
    for dimension in 0..10 {
        let (_, upper) = join.bounds(&LinearExpr::variable(dimension));
        assert!(upper.is_some(), "x{dimension} stays bounded above in {join}");
    }
}

#[test]
fn constraints_on_missing_dimensions_are_dropped() {
    let shape = polyhedron(1, "y >= 1, x >= 0");
    assert_eq!(show(&shape), "{x >= 0}");
}

#[test]
fn limits_are_positive() {
    // The budgets are documented constants; a zero would disable an operation silently.
    const _: () = assert!(limits::MAX_SIMPLEX_PIVOTS > 0);
    const _: () = assert!(limits::MAX_COMBINATIONS_PER_ELIMINATION > 0);
    const _: () = assert!(limits::REDUNDANCY_REMOVAL_THRESHOLD > 0);
    const _: () = assert!(limits::MAX_ELIMINATION_ROWS > limits::REDUNDANCY_REMOVAL_THRESHOLD);
}
