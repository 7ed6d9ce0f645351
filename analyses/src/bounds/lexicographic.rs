//! The iterations of a loop ranked by a lexicographic ranking function `(f_1, ..., f_k)` some
//! components of which may increase (a counter reset by an outer step, as in
//! `while (i > 0) { if (j > 0) j--; else { j = m; i--; } }`).
//!
//! Each transition has a level: the component that falls on it by at least 1 from a non-negative
//! value while every earlier one does not increase (`ranking::lexicographic_levels`). Take the
//! potential `Φ_i = max(f_i, -1) + 1 ≥ 0` of component `i`:
//! - a transition of level `i` lowers it by at least 1;
//! - one of a later level does not raise it (`f_i` does not increase there);
//! - one of an earlier level `j` raises it by at most what it may add, bounded from the loop's
//!   invariant (states relative to the entry values `x0`) in terms of `x0`: by `nat(A(x0))`
//!   where `f_i(x') - f_i(x) ≤ A(x0)` (a growth), or by `nat(R(x0) + 1)` where
//!   `f_i(x') ≤ R(x0)` (a reset).
//!
//! So the transitions of level `i` number at most
//! `N_i = nat(f_i(x0) + 1) + Σ_{j<i} N_j · raise_{i,j}`, with `raise_{i,j}` the largest raise of
//! `Φ_i` by a transition of level `j`, and the loop runs at most `Σ_i N_i` iterations. Every
//! raise is an upper bound read off exact polyhedral projections, so the sum is sound.

use super::cost::{affine_to_linear, after_step, input_name, scaled, upper_bound};
use super::expr::{CostExpr, Linear};
use super::ranking::{self, Affine};
use crate::value::domain::{Dimension, NumericDomain};
use num_rational::BigRational;
use num_traits::Zero;

/// At most `Σ_i N_i` iterations (see the module's comment), over the head's inputs; `None` when
/// some raise has no bound in the entry values, or `components` does not rank `transitions`.
pub(super) fn iterations<D: NumericDomain>(
    n: usize,
    invariant: &D,
    transitions: &[D],
    components: &[Affine],
) -> Option<CostExpr> {
    let live: Vec<&D> = transitions.iter().filter(|t| !t.is_empty()).collect();
    let levels = ranking::lexicographic_levels(n, &live, components)?;
    let mut counts: Vec<CostExpr> = Vec::with_capacity(components.len());
    for f in components {
        let weak = ranking::lexicographic_conditions(n, f, false)?;
        let mut parts = vec![CostExpr::nat(affine_to_linear(f).plus(&Linear::constant(1)))];
        for (j, count) in counts.iter().enumerate() {
            let raises: Vec<CostExpr> = live
                .iter()
                .zip(&levels)
                .filter(|&(t, &level)| level == j && !weak.iter().all(|c| t.entails(c)))
                .map(|(t, _)| raise(n, invariant, t, f))
                .collect::<Option<_>>()?;
            if !raises.is_empty() {
                parts.push(CostExpr::mul([count.clone(), CostExpr::max(raises)]));
            }
        }
        counts.push(CostExpr::add(parts));
    }
    Some(CostExpr::add(counts))
}

/// How much transition `t`, taken from a state of `invariant`, may raise `Φ = max(f, -1) + 1`,
/// in terms of the entry values: a growth bound when it is a constant, else a reset bound, else
/// a growth bound in the entry values.
fn raise<D: NumericDomain>(n: usize, invariant: &D, t: &D, f: &Affine) -> Option<CostExpr> {
    let step = after_step(n, invariant, t);
    let entry: Vec<Dimension> = (0..n).collect();
    let names: Vec<String> = (0..n).map(input_name).collect();
    let bound = |terms: Vec<(Dimension, BigRational)>, constant: &BigRational| -> Option<Linear> {
        let (expr, scale) = scaled(&terms, constant)?;
        Some(upper_bound(&step, &expr, &entry, &names)?.scaled_down(&scale))
    };
    let after: Vec<(Dimension, BigRational)> = (0..n)
        .filter(|&i| !f.coefficients[i].is_zero())
        .map(|i| (2 * n + i, f.coefficients[i].clone()))
        .collect();
    let before = after.iter().map(|(d, a)| (d - n, -a.clone()));
    let growth = bound(after.iter().cloned().chain(before).collect(), &BigRational::zero());
    let reset = bound(after, &f.constant).map(|r| r.plus(&Linear::constant(1)));
    let constant_growth = growth.clone().filter(|g| g.terms.is_empty());
    // Bounds read off the types' limits (a reset "to at most 2^31 - 1") come last: they hide
    // the value the program really resets to.
    let candidates = [constant_growth, reset, growth];
    let from_program = candidates.iter().flatten().find(|b| !from_type_range(b));
    from_program
        .or(candidates.iter().flatten().next())
        .cloned()
        .map(CostExpr::nat)
}

/// Whether a bound has a number as large as only the types' limits produce.
fn from_type_range(bound: &Linear) -> bool {
    std::iter::once(&bound.constant)
        .chain(bound.terms.values())
        .any(ranking::is_type_range_sized)
}
