//! The amortised analysis's linear programs (`amortised::solve`): exact values, exact optimality
//! with the lexicographic objective, the obligation blamed for infeasibility, and check mode.

use jresa_analyses::amortised::resource::{Obligation, Origin, ResExpr, ResVar, ResourceVariables};
use jresa_analyses::amortised::solve::{solve, LpOutcome};
use num_bigint::BigInt;
use num_rational::BigRational;

fn origin(what: &str) -> Origin {
    Origin {
        method: "M".to_owned(),
        pc: None,
        line: None,
        what: what.to_owned(),
    }
}

/// `Σ coefficient·variable + constant >= 0`.
fn at_least(terms: &[(ResVar, i64)], constant: i64, what: &str) -> Obligation {
    let mut expression = ResExpr::constant(constant);
    for (var, coefficient) in terms {
        expression.add_term(*var, &BigRational::from_integer(BigInt::from(*coefficient)));
    }
    Obligation {
        expression,
        origin: origin(what),
    }
}

fn rational(numerator: i64, denominator: i64) -> BigRational {
    BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
}

#[test]
fn the_papers_concat_constraints_give_the_papers_optimum() {
    let mut variables = ResourceVariables::default();
    let [x1, x2, x3, y1, y2, z1, z2, z3, z4] =
        ["x1", "x2", "x3", "y1", "y2", "z1", "z2", "z3", "z4"].map(|n| variables.get("M", n));
    // The obligations the proof of IntList.concat collects (Section 4 of the RESA paper).
    let obligations = vec![
        at_least(&[(x3, 1)], -1, "first consume"),
        at_least(&[(x3, 1)], -2, "second consume"),
        at_least(&[(x2, 1), (y1, -1)], 0, "q is the result"),
        at_least(&[(x3, 1), (y2, -1)], -2, "constant of the postcondition"),
        at_least(&[(x1, 1), (z2, -1)], 0, "cells of p in the invariant"),
        at_least(&[(x2, 1), (z3, -1)], 0, "cells of q in the invariant"),
        at_least(&[(x3, 1), (z4, -1)], -2, "constant of the invariant"),
        at_least(&[(z4, 1), (z2, 1)], -1, "consume in the loop"),
        at_least(&[(z2, 1), (z1, -1)], -1, "back edge"),
        at_least(&[(z1, 1), (y1, -1)], 0, "visited cells"),
        at_least(&[(z3, 1), (y1, -1)], 0, "q in the result"),
        at_least(&[(x3, 1), (z2, 1), (y1, -1), (y2, -1)], -2, "return"),
    ];
    let all = [x1, x2, x3, y1, y2, z1, z2, z3, z4];
    let LpOutcome::Feasible { values, optimal } = solve(&obligations, &all, &[x1, x2]) else {
        panic!("feasible");
    };
    assert!(optimal);
    let expected = [1, 0, 2, 0, 0, 0, 1, 0, 0];
    for (var, value) in all.iter().zip(expected) {
        assert_eq!(values[var], rational(value, 1), "{}", variables.name(*var));
    }
}

#[test]
fn fractional_optima_are_exact() {
    let mut variables = ResourceVariables::default();
    let x = variables.get("M", "x");
    // 3x >= 1: the optimum 1/3 is not a float; the exact simplex confirms it.
    let obligations = vec![at_least(&[(x, 3)], -1, "three cells pay one unit")];
    let LpOutcome::Feasible { values, optimal } = solve(&obligations, &[x], &[x]) else {
        panic!("feasible");
    };
    assert!(optimal);
    assert_eq!(values[&x], rational(1, 3));
}

#[test]
fn the_first_obligation_that_cannot_be_met_is_blamed() {
    let mut variables = ResourceVariables::default();
    let (x, y) = (variables.get("M", "x"), variables.get("M", "y"));
    let obligations = vec![
        at_least(&[(x, 1)], -1, "x at least 1"),
        at_least(&[(y, 1), (x, -1)], 0, "y at least x"),
        at_least(&[(y, -1)], 0, "y at most 0"),
        at_least(&[(x, 1)], -5, "x at least 5"),
    ];
    assert_eq!(solve(&obligations, &[x, y], &[]), LpOutcome::Infeasible { blamed: 2 });
}

#[test]
fn check_mode_blames_the_first_negative_amount() {
    let obligations = vec![
        at_least(&[], 1, "one left"),
        at_least(&[], 0, "none left"),
        at_least(&[], -1, "one short"),
    ];
    assert_eq!(solve(&obligations, &[], &[]), LpOutcome::Infeasible { blamed: 2 });
    assert!(matches!(
        solve(&obligations[..2], &[], &[]),
        LpOutcome::Feasible { optimal: true, .. }
    ));
}

#[test]
fn the_priority_variables_are_minimised_first() {
    let mut variables = ResourceVariables::default();
    let (per_cell, constant) = (variables.get("M", "x"), variables.get("M", "c"));
    // x + c >= 5 and x >= 2: the sum alone is indifferent; per-cell potential first gives x = 2.
    let obligations = vec![
        at_least(&[(per_cell, 1), (constant, 1)], -5, "both"),
        at_least(&[(per_cell, 1)], -2, "per cell"),
    ];
    let LpOutcome::Feasible { values, .. } = solve(&obligations, &[per_cell, constant], &[per_cell]) else {
        panic!("feasible");
    };
    assert_eq!(values[&per_cell], rational(2, 1));
    assert_eq!(values[&constant], rational(3, 1));
}
