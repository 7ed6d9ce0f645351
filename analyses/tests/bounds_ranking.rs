//! Ranking functions by LP with exact verification, on the loops of the COSTA paper.
use jresa_analyses::bounds::ranking::{find, linear_among_guards, nat_potential, potential, verify, Ranking};
use jresa_analyses::value::polyhedra::{Constraint, LinearExpr, Polyhedron};
use num_bigint::BigInt;
use num_rational::BigRational;

fn ge(terms: &[(usize, i64)], constant: i64) -> Constraint {
    Constraint::greater_or_equal_zero(LinearExpr::from_terms(terms, constant).expect("small"))
}

fn eq(terms: &[(usize, i64)], constant: i64) -> Constraint {
    Constraint::equal_zero(LinearExpr::from_terms(terms, constant).expect("small"))
}

fn r(x: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

#[test]
fn counting_loop_is_ranked_by_the_distance() {
    // Variables (i, n); i < n, i' = i + 1, n' = n.
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(1, 1), (0, -1)], -1),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    match find(2, &[t]) {
        Some(Ranking::Linear(f)) => {
            assert_eq!(f.coefficients, vec![r(-1), r(1)], "f = n - i, got {f:?}");
            assert_eq!(f.constant, r(0));
        }
        other => panic!("expected a linear ranking function, got {other:?}"),
    }
}

#[test]
fn halving_loop_is_logarithmic() {
    // EX3/EX4 shape: x ≥ 1, 2x' ≤ x, x' ≥ 0. x itself also decreases by 1, but halving is preferred.
    let t = Polyhedron::from_constraints(2, [ge(&[(0, 1)], -1), ge(&[(0, 1), (1, -2)], 0), ge(&[(1, 1)], 0)]);
    let found = find(1, std::slice::from_ref(&t)).expect("ranked");
    assert!(matches!(found, Ranking::Halving(_)), "{found:?}");
    let halving = Ranking::Halving(jresa_analyses::bounds::ranking::Affine {
        coefficients: vec![r(1)],
        constant: r(0),
    });
    assert!(verify(1, &[&t], &halving));
}

#[test]
fn doubling_loop_of_figure_one_is_logarithmic() {
    // Variables (x, b, y): y < x, y ≥ 1, b ≥ 2, y' ≥ 2y, x' = x, b' = b.
    let t = Polyhedron::from_constraints(
        6,
        [
            ge(&[(0, 1), (2, -1)], -1),
            ge(&[(2, 1)], -1),
            ge(&[(1, 1)], -2),
            ge(&[(5, 1), (2, -2)], 0),
            eq(&[(3, 1), (0, -1)], 0),
            eq(&[(4, 1), (1, -1)], 0),
        ],
    );
    match find(3, &[t]) {
        Some(Ranking::Doubling { growing, bound }) => {
            assert_eq!(growing.coefficients[2], r(1), "{growing:?}");
            assert_eq!(bound.coefficients[0], r(1), "{bound:?}");
        }
        other => panic!("expected a doubling ranking, got {other:?}"),
    }
}

#[test]
fn a_non_terminating_loop_has_no_ranking_function() {
    // i ≥ 0, i' = i + 1: no bound.
    let t = Polyhedron::from_constraints(2, [ge(&[(0, 1)], 0), eq(&[(1, 1), (0, -1)], -1)]);
    assert_eq!(find(1, &[t]), None);
}

#[test]
fn wrong_candidates_fail_the_exact_check() {
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(1, 1), (0, -1)], -1),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    let wrong = Ranking::Linear(jresa_analyses::bounds::ranking::Affine {
        coefficients: vec![r(1), r(-1)],
        constant: r(0),
    });
    assert!(!verify(2, &[&t], &wrong));
}

#[test]
fn loops_whose_variable_changes_sign_are_ranked_by_its_absolute_value() {
    // Variable x: x > 0 steps to -(x - 1); x < 0 steps to -(x + 1). No linear function decreases
    // on both; |x| does.
    let positive = Polyhedron::from_constraints(2, [ge(&[(0, 1)], -1), eq(&[(1, 1), (0, 1)], -1)]);
    let negative = Polyhedron::from_constraints(2, [ge(&[(0, -1)], -1), eq(&[(1, 1), (0, 1)], 1)]);
    let transitions = [positive, negative];
    let found = find(1, &transitions).expect("a ranking function");
    let Ranking::Absolute(f) = &found else {
        panic!("{found:?}")
    };
    assert_eq!(f.coefficients, vec![r(1)]);
    let live: Vec<&Polyhedron> = transitions.iter().collect();
    assert!(verify(1, &live, &found));
    // A variable that grows in absolute value is not ranked: x > 0 steps to -(x + 1).
    let growing = Polyhedron::from_constraints(2, [ge(&[(0, 1)], -1), eq(&[(1, 1), (0, 1)], 1)]);
    let escaping = [growing, transitions[1].clone()];
    assert!(find(1, &escaping).is_none());
    let live: Vec<&Polyhedron> = escaping.iter().collect();
    assert!(!verify(1, &live, &found), "the same function fails there");
}

/// The two paths of `while (x < n) { if (y < m) y++; else x++; }` over (x, n, y, m): no linear
/// function ranks both (y may start above m), a lexicographic one does, and its exact check
/// needs every component.
#[test]
fn two_counters_need_a_lexicographic_ranking_function() {
    let keep = |d: usize| eq(&[(4 + d, 1), (d, -1)], 0);
    // y < m, y' = y + 1, the rest kept.
    let inner = Polyhedron::from_constraints(
        8,
        [
            ge(&[(1, 1), (0, -1)], -1),
            ge(&[(3, 1), (2, -1)], -1),
            eq(&[(6, 1), (2, -1)], -1),
            keep(0),
            keep(1),
            keep(3),
        ],
    );
    // y >= m, x' = x + 1, the rest kept.
    let outer = Polyhedron::from_constraints(
        8,
        [
            ge(&[(1, 1), (0, -1)], -1),
            ge(&[(2, 1), (3, -1)], 0),
            eq(&[(4, 1), (0, -1)], -1),
            keep(1),
            keep(2),
            keep(3),
        ],
    );
    let transitions = [inner.clone(), outer.clone()];
    let found = find(4, &transitions).expect("ranked");
    let Ranking::Lexicographic(components) = &found else {
        panic!("expected a lexicographic ranking function, got {found:?}");
    };
    assert_eq!(components.len(), 2, "{found:?}");
    let affine = |coefficients: [i64; 4], constant: i64| jresa_analyses::bounds::ranking::Affine {
        coefficients: coefficients.iter().map(|c| r(*c)).collect(),
        constant: r(constant),
    };
    let (distance_y, distance_x) = (affine([0, 0, -1, 1], -1), affine([-1, 1, 0, 0], -1));
    let both = [&inner, &outer];
    assert!(verify(
        4,
        &both,
        &Ranking::Lexicographic(vec![distance_y.clone(), distance_x.clone()])
    ));
    // Neither component alone ranks both paths.
    assert!(!verify(4, &both, &Ranking::Lexicographic(vec![distance_x.clone()])));
    assert!(!verify(4, &both, &Ranking::Lexicographic(vec![distance_y])));
}

/// `while (x >= 0) { x = x + y; y = y - 1; }` over (x, y): no linear or lexicographic function
/// ranks it (x grows while y is positive), a two-phase one does: y decreases all along, and x
/// decreases once y is negative.
#[test]
fn a_loop_with_two_phases_has_a_multiphase_ranking_function() {
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1)], 0),
            eq(&[(2, 1), (0, -1), (1, -1)], 0),
            eq(&[(3, 1), (1, -1)], 1),
        ],
    );
    let found = find(2, std::slice::from_ref(&t)).expect("ranked");
    let Ranking::Multiphase(components) = &found else {
        panic!("expected a multiphase ranking function, got {found:?}");
    };
    let [first, second] = components.as_slice() else {
        panic!("expected two phases, got {found:?}");
    };
    assert!(verify(2, &[&t], &found));
    // The first phase follows y, the second x.
    assert!(
        first.coefficients[1] > r(0) && second.coefficients[0] > r(0),
        "{found:?}"
    );
    // Swapped, the phases do not rank it.
    let swapped = Ranking::Multiphase(vec![second.clone(), first.clone()]);
    assert!(!verify(2, &[&t], &swapped));
}

/// `while (x >= 0) { x = x + y; y = y + z; z = z - 1; }` over (x, y, z) (Ben-Amram and Genaim's
/// three-phase loop): z falls all along, y once z is negative, x once y is: no function of two
/// phases ranks it, one of three does.
#[test]
fn a_loop_with_three_phases_has_a_nested_ranking_function_of_three() {
    let t = Polyhedron::from_constraints(
        6,
        [
            ge(&[(0, 1)], 0),
            eq(&[(3, 1), (0, -1), (1, -1)], 0),
            eq(&[(4, 1), (1, -1), (2, -1)], 0),
            eq(&[(5, 1), (2, -1)], 1),
        ],
    );
    let found = find(3, std::slice::from_ref(&t)).expect("ranked");
    let Ranking::Multiphase(components) = &found else {
        panic!("expected a multiphase ranking function, got {found:?}");
    };
    assert_eq!(components.len(), 3, "{found:?}");
    assert!(verify(3, &[&t], &found));
    // Its first two functions alone do not rank it.
    assert!(!verify(3, &[&t], &Ranking::Multiphase(components[..2].to_vec())));
}

/// The two transitions of `while (x != k) if (x > k) x--; else x++;` over (x, k): neither can
/// follow the other, and neither a linear, lexicographic nor multiphase function ranks both.
fn toward_target() -> [Polyhedron; 2] {
    let down = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1), (1, -1)], -1),
            eq(&[(2, 1), (0, -1)], 1),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    let up = Polyhedron::from_constraints(
        4,
        [
            ge(&[(1, 1), (0, -1)], -1),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    [down, up]
}

#[test]
fn a_loop_towards_a_target_from_either_side_is_ranked_in_phases() {
    let transitions = toward_target();
    let found = find(2, &transitions).expect("ranked");
    let Ranking::Phases(phases) = &found else {
        panic!("expected phases, got {found:?}");
    };
    assert_eq!(phases.len(), 2, "{phases:?}");
    assert!(
        phases.iter().all(|p| p.transitions.len() == 1 && p.ranking.is_some()),
        "{phases:?}"
    );
    let live: Vec<&Polyhedron> = transitions.iter().collect();
    assert!(verify(2, &live, &found));
}

#[test]
fn phases_that_claim_an_order_the_transitions_break_fail_the_exact_check() {
    use jresa_analyses::bounds::phases::Phase;
    // One transition i < n, i' = i + 1 that can follow itself, claimed to run once.
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(1, 1), (0, -1)], -1),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    let [down, up] = toward_target();
    let once = Ranking::Phases(vec![
        Phase {
            transitions: vec![0],
            ranking: None,
        },
        Phase {
            transitions: vec![1],
            ranking: None,
        },
    ]);
    assert!(!verify(2, &[&t, &down], &once));
    // Both transitions in one phase that is not ranked, or a transition in two phases.
    let joined = Ranking::Phases(vec![Phase {
        transitions: vec![0, 1],
        ranking: None,
    }]);
    assert!(!verify(2, &[&down, &up], &joined));
    let twice = Ranking::Phases(vec![
        Phase {
            transitions: vec![0, 1],
            ranking: None,
        },
        Phase {
            transitions: vec![1],
            ranking: None,
        },
    ]);
    assert!(!verify(2, &[&down, &up], &twice));
}

/// Gopan and Reps' loop over (x, y): `x ≤ 50: y' = y + 1` or `x ≥ 51: y' = y - 1`, then `y' ≥ 0`
/// and `x' = x + 1`, plus the case of `x + 1` wrapping at the top of the `int` range.
fn gopan_reps_transitions() -> Vec<Polyhedron> {
    let climb = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, -1)], 50),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], -1),
            ge(&[(3, 1)], 0),
        ],
    );
    let fall = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1)], -51),
            ge(&[(0, -1)], i64::from(i32::MAX) - 1),
            eq(&[(2, 1), (0, -1)], -1),
            eq(&[(3, 1), (1, -1)], 1),
            ge(&[(3, 1)], 0),
        ],
    );
    let wrap = Polyhedron::from_constraints(
        4,
        [
            eq(&[(0, 1)], -i64::from(i32::MAX)),
            eq(&[(2, 1)], -i64::from(i32::MIN)),
            eq(&[(3, 1), (1, -1)], 1),
            ge(&[(3, 1)], 0),
        ],
    );
    vec![climb, fall, wrap]
}

#[test]
fn refining_by_the_last_transition_drops_a_wrap_no_run_reaches() {
    use jresa_analyses::bounds::refine::by_last_transition;
    let transitions = gopan_reps_transitions();
    // From the head's single invariant (x ≥ 0, y ≥ 0) the wrap may follow the fall: no ranking.
    assert!(find(2, &transitions).is_none());
    let entry = Polyhedron::from_constraints(2, [eq(&[(0, 1)], 0), eq(&[(1, 1)], 0)]);
    let refined = by_last_transition(2, &entry, &transitions).expect("the states stabilise");
    assert_eq!(refined.len(), 3);
    assert!(refined[2].is_empty(), "x reaches at most 102: {}", refined[2]);
    // The fall starts from x + y = 102 (y = x = 51 at the turn), so x ≤ 102 bounds it.
    assert!(refined[1].entails(&eq(&[(0, 1), (1, 1)], -102)), "{}", refined[1]);
    assert!(find(2, &refined).is_some());
}

#[test]
fn refining_keeps_every_state_a_run_starts_a_transition_from() {
    use jresa_analyses::bounds::refine::by_last_transition;
    let transitions = gopan_reps_transitions();
    let entry = Polyhedron::from_constraints(2, [eq(&[(0, 1)], 0), eq(&[(1, 1)], 0)]);
    let refined = by_last_transition(2, &entry, &transitions).expect("the states stabilise");
    // Run the loop concretely and check that each step lies in its refined transition.
    let (mut x, mut y) = (0i64, 0i64);
    loop {
        let (k, nx, ny) = if x <= 50 { (0, x + 1, y + 1) } else { (1, x + 1, y - 1) };
        if ny < 0 {
            break;
        }
        let point = [(0, x), (1, y), (2, nx), (3, ny)];
        let at = refined[k].meet(&Polyhedron::from_constraints(
            4,
            point.iter().map(|&(d, v)| eq(&[(d, 1)], -v)),
        ));
        assert!(!at.is_empty(), "step {k} from ({x}, {y}) is outside {}", refined[k]);
        (x, y) = (nx, ny);
    }
    assert_eq!((x, y), (102, 0));
}

/// The outer loop of `while (x > 0) { while (y > 0) y--; x--; }` over (x, y, x', y', a), `a` the
/// inner loop's iterations: it skips the inner loop (`y ≤ 0`, nothing spent, `y` unchanged) or
/// runs it down to zero (spending `y`).
fn skip_or_run_down() -> Vec<Polyhedron> {
    let skip = Polyhedron::from_constraints(
        5,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, -1)], 0),
            eq(&[(2, 1), (0, -1)], 1),
            eq(&[(3, 1), (1, -1)], 0),
            eq(&[(4, 1)], 0),
        ],
    );
    let run = Polyhedron::from_constraints(
        5,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, 1)], -1),
            eq(&[(2, 1), (0, -1)], 1),
            eq(&[(3, 1)], 0),
            eq(&[(4, 1), (1, -1)], 0),
        ],
    );
    vec![skip, run]
}

#[test]
fn a_spending_paid_by_a_value_that_may_start_negative_has_no_affine_potential() {
    // Φ = y would be negative after a skip from y < 0; Φ(x') ≥ 0 forbids it.
    assert!(potential(2, &skip_or_run_down()).is_none());
}

#[test]
fn a_spending_paid_by_a_value_that_may_start_negative_has_a_nat_potential() {
    let (phi, forms) = nat_potential(2, &skip_or_run_down()).expect("nat(y) pays");
    // Φ over (x, y, u): the nat form is y (the guard y ≥ 1 of the spending transition).
    assert_eq!(forms, vec![LinearExpr::from_terms(&[(1, 1)], 0).expect("small")]);
    assert_eq!(phi.coefficients.len(), 3);
    assert_eq!(phi.coefficients[2], r(1), "Φ = nat(y), got {phi:?}");
    assert_eq!(phi.coefficients[1], r(0), "no affine part in y, got {phi:?}");
}

#[test]
fn a_spending_no_potential_pays_is_refused() {
    let mut transitions = skip_or_run_down();
    let overspend = Polyhedron::from_constraints(
        5,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, 1)], -1),
            eq(&[(2, 1), (0, -1)], 0),
            eq(&[(3, 1), (1, -1)], 0),
            eq(&[(4, 1)], -1),
        ],
    );
    // A transition that changes nothing and spends 1 can repeat forever: nothing pays for it.
    transitions.push(overspend);
    assert!(nat_potential(2, &transitions).is_none());
}

/// `while (x >= 1 && y >= 1 && x >= y && 4y >= x) { x = 2x; y = 3y; }` over (x, y): the ratio
/// x / y shrinks by 2/3 each time from at most 4, so no fifth iteration can follow four.
fn diverging_rates() -> Polyhedron {
    Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, 1)], -1),
            ge(&[(0, 1), (1, -1)], 0),
            ge(&[(1, 4), (0, -1)], 0),
            eq(&[(2, 1), (0, -2)], 0),
            eq(&[(3, 1), (1, -3)], 0),
        ],
    )
}

#[test]
fn a_loop_whose_variables_grow_at_different_rates_runs_a_bounded_number_of_times() {
    let t = diverging_rates();
    let found = find(2, std::slice::from_ref(&t)).expect("bounded");
    assert_eq!(found, Ranking::Bounded(4));
    assert!(verify(2, &[&t], &Ranking::Bounded(4)));
    assert!(!verify(2, &[&t], &Ranking::Bounded(3)), "four iterations can run");
}

#[test]
fn a_loop_that_can_run_forever_is_not_bounded() {
    // x and y both double: x >= y keeps holding and the loop never ends.
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, 1)], -1),
            ge(&[(0, 1), (1, -1)], 0),
            eq(&[(2, 1), (0, -2)], 0),
            eq(&[(3, 1), (1, -2)], 0),
        ],
    );
    assert!(!verify(2, &[&t], &Ranking::Bounded(6)));
    assert!(!matches!(find(2, &[t]), Some(Ranking::Bounded(_))));
}

#[test]
fn a_counter_that_only_its_type_limit_stops_is_ranked_by_the_distance_to_it() {
    // `while (i > 0) i += k;` with k ≥ 1, the iterations another can follow (no wrap):
    // variables (i, k); i ≥ 1, k ≥ 1, i' = i + k ≤ 2^31 - 1, k' = k. The relation to the limit
    // is implied (over i' and k), not stated over the current variables.
    let max = i64::from(i32::MAX);
    let t = Polyhedron::from_constraints(
        4,
        [
            ge(&[(0, 1)], -1),
            ge(&[(1, 1)], -1),
            eq(&[(2, 1), (0, -1), (1, -1)], 0),
            ge(&[(2, -1)], max),
            eq(&[(3, 1), (1, -1)], 0),
        ],
    );
    // The LP's search weighs k by a type-range-sized factor instead (its constants are small).
    assert!(find(2, std::slice::from_ref(&t)).is_some_and(|f| f.weighs_by_type_range()));
    match linear_among_guards(2, std::slice::from_ref(&t)) {
        Some(Ranking::Linear(f)) => {
            assert_eq!(f.coefficients, vec![r(-1), r(-1)], "f = 2^31 - i - k, got {f:?}");
            assert_eq!(f.constant, r(max + 1));
            assert!(verify(2, &[&t], &Ranking::Linear(f)));
        }
        other => panic!("expected a linear ranking function, got {other:?}"),
    }
}

#[test]
fn a_counter_that_wraps_and_runs_on_has_no_ranking_function_from_its_guards() {
    // `while (i != 0) i++;` keeps running past the wrap: the wrapping case (i = 2^31 - 1,
    // i' = -2^31) can be followed by another iteration, so no function of the guards ranks it.
    let max = i64::from(i32::MAX);
    let plain = Polyhedron::from_constraints(2, [ge(&[(0, -1)], max - 1), eq(&[(1, 1), (0, -1)], -1)]);
    let wrap = Polyhedron::from_constraints(2, [eq(&[(0, 1)], -max), eq(&[(1, 1)], max + 1)]);
    assert!(find(1, &[plain, wrap]).is_none());
}
