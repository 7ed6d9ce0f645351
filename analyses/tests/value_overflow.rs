//! `overflow::wrap`: a result kept where the state proves it in range, kept on one side where it
//! can wrap only one way, forgotten otherwise; every JVM value of the result stays in the state.

use jresa_analyses::value::overflow::wrap;
use jresa_analyses::value::polyhedra::{Constraint, LinearExpr, Polyhedron};
use jresa_analyses::value::program::Width;

const MAX: i64 = i32::MAX as i64;
const MIN: i64 = i32::MIN as i64;

/// `Σ terms + constant ≥ 0` (`equal`: `= 0`).
fn constraint(terms: &[(usize, i64)], constant: i64, equal: bool) -> Constraint {
    let e = LinearExpr::from_terms(terms, constant).expect("small numbers");
    if equal {
        Constraint::equal_zero(e)
    } else {
        Constraint::greater_or_equal_zero(e)
    }
}

/// Dimensions: 0 the operand `x` (an `int`), 1 the result `r` of `x + step`, 2 a bound `b` on
/// `x` (`x ≤ b`, `b` an `int` too).
fn step_state(step: i64, bounded_below: bool) -> Polyhedron {
    let mut constraints = vec![
        constraint(&[(1, 1), (0, -1)], -step, true),
        constraint(&[(2, 1), (0, -1)], 0, false),
    ];
    if bounded_below {
        constraints.push(constraint(&[(0, 1)], 0, false));
    }
    Polyhedron::from_constraints(3, constraints)
}

/// The JVM's `int` value of a mathematical one.
fn jvm(value: i64) -> i64 {
    i64::from(value as i32)
}

fn ranges() -> Vec<(usize, Width)> {
    vec![(0, Width::Int), (1, Width::Int), (2, Width::Int)]
}

fn holds(state: &Polyhedron, point: [i64; 3]) -> bool {
    state.constraints().iter().all(|c| {
        let value: i64 =
            c.expression().terms().map(|(d, a)| a * point[d]).sum::<i64>() + c.expression().constant_term();
        match c.relation() {
            jresa_analyses::value::polyhedra::Relation::Equal => value == 0,
            jresa_analyses::value::polyhedra::Relation::GreaterOrEqual => value >= 0,
        }
    })
}

#[test]
fn a_counter_stepped_up_keeps_its_upper_bound_and_every_wrapped_value() {
    let mut state = step_state(1, false);
    assert!(!wrap(&mut state, 1, Width::Int, None, &ranges()));
    // r ≤ x + 1 ≤ b + 1 is kept: a loop bounded by r stays bounded.
    assert!(state.entails(&constraint(&[(2, 1), (1, -1)], 1, false)));
    assert!(state.entails(&constraint(&[(0, 1), (1, -1)], 1, false)));
    for x in [MIN, -5, 0, 7, MAX - 1, MAX] {
        let r = jvm(x + 1);
        assert!(holds(&state, [x, r, MAX]), "x = {x}: the JVM's {r} is lost");
    }
}

#[test]
fn a_counter_stepped_down_keeps_its_lower_bound() {
    let mut state = step_state(-3, false);
    assert!(!wrap(&mut state, 1, Width::Int, None, &ranges()));
    assert!(state.entails(&constraint(&[(1, 1), (0, -1)], 3, false)));
    assert!(!state.entails(&constraint(&[(0, 1), (1, -1)], -3, false)));
    for x in [MIN, MIN + 2, -5, 0, MAX] {
        let r = jvm(x - 3);
        assert!(holds(&state, [x, r, MAX]), "x = {x}: the JVM's {r} is lost");
    }
}

#[test]
fn a_result_proved_in_range_stays_exact() {
    let mut state = step_state(1, true);
    state.add_constraint(constraint(&[(2, -1)], 100, false));
    assert!(wrap(&mut state, 1, Width::Int, None, &ranges()));
    assert!(state.entails(&constraint(&[(1, 1), (0, -1)], -1, true)));
}

#[test]
fn a_result_that_may_wrap_both_ways_is_forgotten() {
    // r = 2x + b may wrap either way.
    let e = constraint(&[(1, 1), (0, -2), (2, -1)], 0, true);
    let mut state = Polyhedron::from_constraints(3, [e]);
    assert!(!wrap(&mut state, 1, Width::Int, None, &ranges()));
    assert!(state.constraints().iter().all(|c| c.expression().coefficient(1) == 0));
}
