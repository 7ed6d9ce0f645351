//! The auxiliary procedures of non-linear operations are sound and complete: for every pair of
//! inputs on a grid (including the extremes of small ranges and shift counts around the operand
//! width) whose JVM result does not overflow, some rule holds of the inputs and the true results.
use jresa_analyses::value::auxiliary::rules;
use jresa_analyses::value::program::AuxOp;
use num_bigint::BigInt;
use num_rational::BigRational;

fn holds(op: AuxOp, point: &[i64]) -> bool {
    let rational: Vec<BigRational> = point
        .iter()
        .map(|v| BigRational::from_integer(BigInt::from(*v)))
        .collect();
    rules(op)
        .iter()
        .any(|rule| rule.iter().all(|c| c.is_satisfied_by(&rational)))
}

fn grid() -> Vec<i64> {
    let mut values: Vec<i64> = (-40..=40).collect();
    values.extend([
        -1000, -257, -256, -255, -129, -128, -127, 127, 128, 129, 255, 256, 1000, 65535, -65536,
    ]);
    values
}

/// `(z, w)` of an operation in Java semantics at width 32, or `None` when it throws or overflows.
fn java(op: AuxOp, x: i64, y: i64) -> Option<(i64, i64)> {
    let (x32, y32) = (i32::try_from(x).ok()?, i32::try_from(y).ok()?);
    let wide = |v: i128| i64::try_from(v).ok().filter(|v| i32::try_from(*v).is_ok());
    Some(match op {
        AuxOp::Mul => (wide(i128::from(x) * i128::from(y))?, 0),
        AuxOp::Div => (i64::from(x32.checked_div(y32)?), i64::from(x32.checked_rem(y32)?)),
        AuxOp::Rem => (i64::from(x32.checked_rem(y32)?), i64::from(x32.checked_div(y32)?)),
        AuxOp::And => (i64::from(x32 & y32), i64::from(x32 | y32)),
        AuxOp::Or => (i64::from(x32 | y32), i64::from(x32 & y32)),
        AuxOp::Xor => (i64::from(x32 ^ y32), 0),
        AuxOp::Shl(_) => {
            let shifted = x32.wrapping_shl(y32 as u32);
            // No overflow: the exact product by 2^(y & 31) equals the wrapped result.
            let exact = i128::from(x) << (y32 as u32 & 31);
            (wide(exact).filter(|v| *v == i64::from(shifted))?, 0)
        }
        AuxOp::Shr(_) => (i64::from(x32.wrapping_shr(y32 as u32)), 0),
        AuxOp::Ushr(_) => (i64::from((x32 as u32).wrapping_shr(y32 as u32) as i32), 0),
    })
}

#[test]
fn every_normal_execution_satisfies_some_rule() {
    let ops = [
        AuxOp::Mul,
        AuxOp::Div,
        AuxOp::Rem,
        AuxOp::And,
        AuxOp::Or,
        AuxOp::Xor,
        AuxOp::Shl(32),
        AuxOp::Shr(32),
        AuxOp::Ushr(32),
    ];
    let values = grid();
    let mut shifts: Vec<i64> = (-70..=70).collect();
    shifts.extend([-1000, 1000]);
    for op in ops {
        let ys = if matches!(op, AuxOp::Shl(_) | AuxOp::Shr(_) | AuxOp::Ushr(_)) {
            &shifts
        } else {
            &values
        };
        let mut checked = 0;
        for &x in &values {
            for &y in ys {
                let Some((z, w)) = java(op, x, y) else {
                    continue;
                };
                // Logical shifts of negatives give huge positives; the rule only claims z ≥ 0.
                assert!(
                    holds(op, &[x, y, z, w]),
                    "{op:?}: no rule covers x = {x}, y = {y}, z = {z}, w = {w}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "{op:?}: only {checked} points checked");
    }
}

#[test]
fn rules_give_the_precision_the_loop_bounds_need() {
    // x ≥ 1, b ≥ 2 selects only rules that imply z ≥ 2x for z = x * b (the paper's running example).
    let point_ok = holds(AuxOp::Mul, &[3, 2, 6, 0]);
    let point_bad = holds(AuxOp::Mul, &[3, 2, 5, 0]);
    assert!(point_ok && !point_bad);
    // Halving: 0 < x/2 ≤ x/2 for x ≥ 2 divided by 2.
    assert!(holds(AuxOp::Div, &[9, 2, 4, 1]) && !holds(AuxOp::Div, &[9, 2, 5, -1]));
    // A wrapped midpoint: -2 >>> 1 is exactly (2^32 - 2) / 2, nothing else.
    let wrapped = (1i64 << 31) - 1;
    assert!(holds(AuxOp::Ushr(32), &[-2, 1, wrapped, 0]));
    assert!(!holds(AuxOp::Ushr(32), &[-2, 1, wrapped - 1, 0]) && !holds(AuxOp::Ushr(32), &[-2, 1, 0, 0]));
}
