//! The exact convex hull of two polyhedra by projection of the lifted system (Benoy–King,
//! Simon–King): constraints only, no generators.
//!
//! A point `x` lies in the closed convex hull of non-empty `P = {A·x + a ⋈ 0}` and
//! `Q = {B·x + b ⋈ 0}` exactly when `x = y + z` with `A·y + a·σ ⋈ 0`, `B·z + b·(1 - σ) ⋈ 0` and
//! `0 ≤ σ ≤ 1` (`σ = 0` or `1` admits the recession directions of the other side, which is what
//! makes the result the closure). Writing `z = x - y` and eliminating `y` and `σ` by
//! Fourier–Motzkin leaves the hull's constraints over `x`.

use super::fourier_motzkin::{eliminate, Projection};
use super::linear::{Constraint, Dimension, LinearExpr};

/// The constraints of the closed convex hull of two non-empty systems over `dimensions`
/// dimensions, or `None` when one of them turns out empty. Exact unless the projection reports
/// `exact: false`, in which case the constraints still describe a superset of the hull. The
/// elimination stops at the first step over budget: the caller then adds its own cheaper
/// approximation (see `Polyhedron::join`).
pub(crate) fn convex_hull(first: &[Constraint], second: &[Constraint], dimensions: usize) -> Option<Projection> {
    // Lifted dimensions: x = 0..n, y = n..2n, σ = 2n.
    let scale = dimensions * 2;
    let mut lifted = Vec::with_capacity(first.len() + second.len() + 2);
    let mut exact = true;
    for constraint in first {
        // A·y + a·σ ⋈ 0.
        let expression = constraint.expression();
        let mut terms: Vec<(Dimension, i64)> = expression
            .terms()
            .map(|(dimension, coefficient)| (dimensions + dimension, coefficient))
            .collect();
        terms.push((scale, expression.constant_term()));
        match LinearExpr::from_terms(&terms, 0) {
            Some(lifted_expression) => lifted.push(constraint.with_expression(lifted_expression)),
            None => exact = false,
        }
    }
    for constraint in second {
        // B·(x - y) + b·(1 - σ) ⋈ 0.
        let expression = constraint.expression();
        let mut terms: Vec<(Dimension, i64)> = Vec::new();
        let mut representable = true;
        for (dimension, coefficient) in expression.terms() {
            terms.push((dimension, coefficient));
            match coefficient.checked_neg() {
                Some(negated) => terms.push((dimensions + dimension, negated)),
                None => representable = false,
            }
        }
        match expression.constant_term().checked_neg() {
            Some(negated) => terms.push((scale, negated)),
            None => representable = false,
        }
        let lifted_expression = if representable {
            LinearExpr::from_terms(&terms, expression.constant_term())
        } else {
            None
        };
        // Leaving out a constraint of the second side only enlarges the lifted set and so the hull.
        match lifted_expression {
            Some(lifted_expression) => lifted.push(constraint.with_expression(lifted_expression)),
            None => exact = false,
        }
    }
    lifted.push(Constraint::greater_or_equal_zero(LinearExpr::variable(scale)));
    lifted.push(Constraint::greater_or_equal_zero(LinearExpr::new(
        {
            let mut coefficients = vec![0; scale + 1];
            coefficients[scale] = -1;
            coefficients
        },
        1,
    )));
    let eliminated: Vec<Dimension> = (dimensions..=scale).collect();
    let mut projection = eliminate(&lifted, scale + 1, &eliminated, true)?;
    projection.exact &= exact;
    Some(projection)
}
