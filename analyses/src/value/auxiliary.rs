//! Auxiliary abstract procedures of non-linear and bit operations (COSTA, Alonso et al. Sec. 4.1):
//! `op(x, y; z)` defined by guarded rules that partition the inputs and give each class the
//! strongest linear post-condition, so that a non-disjunctive domain still picks the right case
//! from the calling context.
//!
//! Every procedure has inputs `x` (dimension 0) and `y` (dimension 1) and output `z` (dimension 2);
//! division and remainder use dimension 3 for the other result of `x = y·q + r`. **The rules of
//! each procedure cover every input for which the JVM operation completes normally** (checked by
//! the tests on a grid of values including the extremes of small ranges), assuming, as COSTA does,
//! no overflow. Rules whose swapped version is needed are listed explicitly (the paper omits them).
//! Division by zero has no rule: the statement throws instead.

use super::polyhedra::{Constraint, LinearExpr};
use super::program::{AbstractProc, AbstractRule, AuxOp, Item, Origin, RuleCost};

const X: usize = 0;
const Y: usize = 1;
const Z: usize = 2;
/// The second result of `x = y·q + r` (the remainder for `/`, the quotient for `%`).
const W: usize = 3;

/// A constraint `Σ terms + constant ≥ 0` (`equal` for `= 0`) over the procedure's dimensions.
fn c(terms: &[(usize, i64)], constant: i64, equal: bool) -> Constraint {
    let expression = LinearExpr::from_terms(terms, constant).unwrap_or_else(|| LinearExpr::constant(0));
    if equal {
        Constraint::equal_zero(expression)
    } else {
        Constraint::greater_or_equal_zero(expression)
    }
}

/// `a ≥ b + k` for dimensions a, b.
fn ge_dims(a: usize, b: usize, k: i64) -> Constraint {
    c(&[(a, 1), (b, -1)], -k, false)
}

/// `d ≥ k`.
fn at_least(d: usize, k: i64) -> Constraint {
    c(&[(d, 1)], -k, false)
}

/// `d ≤ k`.
fn at_most(d: usize, k: i64) -> Constraint {
    c(&[(d, -1)], k, false)
}

/// `d = k`.
fn is(d: usize, k: i64) -> Constraint {
    c(&[(d, 1)], -k, true)
}

/// `a = k·b + m`.
fn linear_eq(a: usize, k: i64, b: usize, m: i64) -> Constraint {
    c(&[(a, 1), (b, -k)], -m, true)
}

/// The rules of `x = y·q + r` with `q` and `r` in the given dimensions (Java's truncating division).
fn division_rules(q: usize, r: usize) -> Vec<Vec<Constraint>> {
    vec![
        vec![is(X, 0), is(q, 0), is(r, 0)],
        vec![is(Y, 1), linear_eq(q, 1, X, 0), is(r, 0)],
        vec![is(Y, -1), linear_eq(q, -1, X, 0), is(r, 0)],
        vec![linear_eq(X, 1, Y, 0), at_least(Y, 2), is(q, 1), is(r, 0)],
        vec![linear_eq(X, 1, Y, 0), at_most(Y, -2), is(q, 1), is(r, 0)],
        vec![linear_eq(X, -1, Y, 0), at_least(Y, 2), is(q, -1), is(r, 0)],
        vec![linear_eq(X, -1, Y, 0), at_most(Y, -2), is(q, -1), is(r, 0)],
        // x > y > 2 (y = 2 has its own rules below): 0 < q ≤ x/2, 0 ≤ r < y.
        vec![
            ge_dims(X, Y, 1),
            at_least(Y, 3),
            at_least(q, 1),
            c(&[(X, 1), (q, -2)], 0, false),
            at_least(r, 0),
            ge_dims(Y, r, 1),
        ],
        // -x > y > 2: x/2 ≤ q < 0, -y < r ≤ 0.
        vec![
            c(&[(X, -1), (Y, -1)], -1, false),
            at_least(Y, 3),
            at_most(q, -1),
            c(&[(q, 2), (X, -1)], 0, false),
            at_most(r, 0),
            c(&[(r, 1), (Y, 1)], -1, false),
        ],
        // x > -y > 1: -x/2 ≤ q < 0, 0 ≤ r < -y.
        vec![
            c(&[(X, 1), (Y, 1)], -1, false),
            at_most(Y, -2),
            at_most(q, -1),
            c(&[(q, 2), (X, 1)], 0, false),
            at_least(r, 0),
            c(&[(Y, -1), (r, -1)], -1, false),
        ],
        // -x > -y > 1: 0 < q ≤ -x/2, y < r ≤ 0.
        vec![
            ge_dims(Y, X, 1),
            at_most(Y, -2),
            at_least(q, 1),
            c(&[(X, -1), (q, -2)], 0, false),
            at_most(r, 0),
            ge_dims(r, Y, 1),
        ],
        // y = 2: q = x/2 rounded toward zero, with both bounds (midpoints and halving need them).
        vec![
            is(Y, 2),
            at_least(X, 2),
            c(&[(X, 1), (q, -2)], 0, false),
            c(&[(q, 2), (X, -1)], 1, false),
            c(&[(r, 1), (X, -1), (q, 2)], 0, true),
        ],
        vec![
            is(Y, 2),
            at_most(X, -2),
            c(&[(q, 2), (X, -1)], 0, false),
            c(&[(X, 1), (q, -2)], 1, false),
            c(&[(r, 1), (X, -1), (q, 2)], 0, true),
        ],
        // |x| < |y|: q = 0, r = x.
        vec![
            at_least(Y, 1),
            ge_dims(Y, X, 1),
            c(&[(X, 1), (Y, 1)], -1, false),
            is(q, 0),
            linear_eq(r, 1, X, 0),
        ],
        vec![
            at_most(Y, -1),
            ge_dims(X, Y, 1),
            c(&[(X, -1), (Y, -1)], -1, false),
            is(q, 0),
            linear_eq(r, 1, X, 0),
        ],
    ]
}

/// The guarded rules of an operation, as constraint sets over `x, y, z` (and `w` for division).
pub fn rules(op: AuxOp) -> Vec<Vec<Constraint>> {
    match op {
        AuxOp::Mul => vec![
            vec![is(X, 0), is(Z, 0)],
            vec![is(Y, 0), is(Z, 0)],
            vec![is(X, 1), linear_eq(Z, 1, Y, 0)],
            vec![is(Y, 1), linear_eq(Z, 1, X, 0)],
            vec![is(X, -1), linear_eq(Z, -1, Y, 0)],
            vec![is(Y, -1), linear_eq(Z, -1, X, 0)],
            vec![
                at_least(X, 2),
                at_least(Y, 2),
                c(&[(Z, 1), (X, -2)], 0, false),
                c(&[(Z, 1), (Y, -2)], 0, false),
            ],
            vec![
                at_most(X, -2),
                at_least(Y, 2),
                c(&[(Z, -1), (X, 2)], 0, false),
                c(&[(Z, -1), (Y, -2)], 0, false),
            ],
            vec![
                at_least(X, 2),
                at_most(Y, -2),
                c(&[(Z, -1), (Y, 2)], 0, false),
                c(&[(Z, -1), (X, -2)], 0, false),
            ],
            vec![
                at_most(X, -2),
                at_most(Y, -2),
                c(&[(Z, 1), (X, 2)], 0, false),
                c(&[(Z, 1), (Y, 2)], 0, false),
            ],
        ],
        AuxOp::Div => division_rules(Z, W),
        AuxOp::Rem => division_rules(W, Z),
        AuxOp::And | AuxOp::Or => {
            let (a, o) = if op == AuxOp::And { (Z, W) } else { (W, Z) };
            vec![
                vec![is(X, 0), is(a, 0), linear_eq(o, 1, Y, 0)],
                vec![is(Y, 0), is(a, 0), linear_eq(o, 1, X, 0)],
                vec![is(X, -1), linear_eq(a, 1, Y, 0), is(o, -1)],
                vec![is(Y, -1), linear_eq(a, 1, X, 0), is(o, -1)],
                vec![linear_eq(X, 1, Y, 0), linear_eq(a, 1, X, 0), linear_eq(o, 1, X, 0)],
                vec![
                    ge_dims(X, Y, 1),
                    at_least(Y, 1),
                    at_least(a, 0),
                    ge_dims(Y, a, 0),
                    ge_dims(o, X, 0),
                ],
                vec![
                    ge_dims(Y, X, 1),
                    at_least(X, 1),
                    at_least(a, 0),
                    ge_dims(X, a, 0),
                    ge_dims(o, Y, 0),
                ],
                vec![
                    at_least(X, 1),
                    at_most(Y, -2),
                    at_least(a, 0),
                    ge_dims(X, a, 0),
                    ge_dims(o, Y, 0),
                    at_most(o, -1),
                ],
                vec![
                    at_least(Y, 1),
                    at_most(X, -2),
                    at_least(a, 0),
                    ge_dims(Y, a, 0),
                    ge_dims(o, X, 0),
                    at_most(o, -1),
                ],
                vec![
                    ge_dims(Y, X, 1),
                    at_most(Y, -2),
                    ge_dims(X, a, 0),
                    ge_dims(o, Y, 0),
                    at_most(o, -1),
                ],
                vec![
                    ge_dims(X, Y, 1),
                    at_most(X, -2),
                    ge_dims(Y, a, 0),
                    ge_dims(o, X, 0),
                    at_most(o, -1),
                ],
            ]
        }
        AuxOp::Xor => vec![
            vec![is(X, 0), linear_eq(Z, 1, Y, 0)],
            vec![is(Y, 0), linear_eq(Z, 1, X, 0)],
            vec![is(X, -1), linear_eq(Z, -1, Y, -1)],
            vec![is(Y, -1), linear_eq(Z, -1, X, -1)],
            vec![
                at_least(X, 1),
                at_least(Y, 1),
                at_least(Z, 0),
                c(&[(X, 1), (Y, 1), (Z, -1)], 0, false),
            ],
            vec![
                at_least(X, 1),
                at_most(Y, -2),
                at_most(Z, -1),
                c(&[(Z, 1), (Y, -1), (X, 1)], 0, false),
            ],
            vec![
                at_most(X, -2),
                at_least(Y, 1),
                at_most(Z, -1),
                c(&[(Z, 1), (X, -1), (Y, 1)], 0, false),
            ],
            vec![
                at_most(X, -2),
                at_most(Y, -2),
                at_least(Z, 0),
                c(&[(X, -1), (Y, -1), (Z, -1)], -2, false),
            ],
        ],
        AuxOp::Shl(w) => {
            let w = i64::from(w);
            let mut rules = vec![vec![is(X, 0), is(Z, 0)], vec![is(Y, 0), linear_eq(Z, 1, X, 0)]];
            for (low, high) in [(1, w - 1), (-(w - 1), -1)] {
                rules.push(vec![
                    at_least(X, 1),
                    at_least(Y, low),
                    at_most(Y, high),
                    c(&[(Z, 1), (X, -2)], 0, false),
                ]);
                rules.push(vec![
                    at_most(X, -1),
                    at_least(Y, low),
                    at_most(Y, high),
                    c(&[(Z, -1), (X, 2)], 0, false),
                ]);
            }
            for far in [at_least(Y, w), at_most(Y, -w)] {
                rules.push(vec![at_least(X, 1), far.clone(), ge_dims(Z, X, 0)]);
                rules.push(vec![at_most(X, -1), far, ge_dims(X, Z, 0)]);
            }
            rules
        }
        AuxOp::Shr(w) | AuxOp::Ushr(w) => {
            let logical = matches!(op, AuxOp::Ushr(_));
            let w = i64::from(w);
            // A shift by exactly one halves with both bounds (midpoints and halving need them).
            let halving = vec![
                is(Y, 1),
                at_least(X, 1),
                c(&[(X, 1), (Z, -2)], 0, false),
                c(&[(Z, 2), (X, -1)], 1, false),
                at_least(Z, 0),
            ];
            let mut rules = vec![vec![is(X, 0), is(Z, 0)], vec![is(Y, 0), linear_eq(Z, 1, X, 0)]];
            rules.push(halving);
            if !logical {
                rules.push(vec![is(X, -1), is(Z, -1)]);
            }
            // A negative `int` shifted right by one without sign is half of `x + 2^32`: exact, so
            // the midpoint `(lo + hi) >>> 1` of a sum that wrapped is still `(lo + hi) / 2`.
            let exact_negative_half = logical && w == 32;
            if exact_negative_half {
                let two_to_32 = 1i64 << 32;
                // The operand is an `int` (its minimum bounds the result: `z >= 2^30`), which
                // a state that forgot a wrapped operand no longer says.
                rules.push(vec![
                    is(Y, 1),
                    at_most(X, -1),
                    at_least(X, -(1i64 << 31)),
                    c(&[(X, 1), (Z, -2)], two_to_32, false),
                    c(&[(Z, 2), (X, -1)], 1 - two_to_32, false),
                ]);
            }
            for (low, high) in [(1, w - 1), (-(w - 1), -1)] {
                // Positive values shifted by exactly one are the halving rule's, negative ones
                // the exact rule's where there is one.
                let positive_low = if low == 1 { 2 } else { low };
                let negative_low = if low == 1 && exact_negative_half { 2 } else { low };
                rules.push(vec![
                    at_least(X, 1),
                    at_least(Y, positive_low),
                    at_most(Y, high),
                    ge_dims(X, Z, 1),
                    c(&[(X, 1), (Z, -2)], 0, false),
                    at_least(Z, 0),
                ]);
                if logical {
                    rules.push(vec![
                        at_most(X, -1),
                        at_least(Y, negative_low),
                        at_most(Y, high),
                        at_least(Z, 0),
                    ]);
                } else {
                    rules.push(vec![
                        at_most(X, -2),
                        at_least(Y, low),
                        at_most(Y, high),
                        c(&[(Z, 2), (X, -1)], 1, false),
                        at_most(Z, -1),
                        ge_dims(Z, X, 0),
                    ]);
                }
            }
            for far in [at_least(Y, w), at_most(Y, -w)] {
                rules.push(vec![at_least(X, 1), far.clone(), at_least(Z, 0), ge_dims(X, Z, 0)]);
                if logical {
                    rules.push(vec![at_most(X, -1), far, ge_dims(Z, X, 0)]);
                } else {
                    rules.push(vec![at_most(X, -1), far, ge_dims(Z, X, 0), at_most(Z, -1)]);
                }
            }
            rules
        }
    }
}

/// The abstract procedure of an operation.
pub fn procedure(op: AuxOp) -> AbstractProc {
    let dims = if matches!(op, AuxOp::Div | AuxOp::Rem | AuxOp::And | AuxOp::Or) {
        4
    } else {
        3
    };
    AbstractProc {
        is_method_entry: false,
        name: op.name().to_owned(),
        inputs: 2,
        outputs: 1,
        rules: rules(op)
            .into_iter()
            .map(|guard| AbstractRule {
                dims,
                cost: RuleCost::default(),
                guard,
                items: Vec::<Item>::new(),
                returns: true,
                may_throw: false,
                source: None,
                ranges: Vec::new(),
                cyclic_call: None,
            })
            .collect(),
        origin: Origin::Aux(op),
    }
}
