//! Disjunctions the convex states of a loop's paths lose, recovered for the ranking search:
//! - an `int` sum, difference or negation that may wrap around is one of three exact cases (in
//!   range; `2^32` less; `2^32` more) instead of a forgotten value ([`wrap_variants`]);
//! - a transition that no other iteration can follow is left to the last iteration
//!   ([`chained`]): a loop whose other transitions are ranked runs at most one more iteration.

use super::cost::renumber_item;
use crate::value::domain::{Constraint, Dimension, LinearExpr, NumericDomain};
use crate::value::fixpoint::{embed, restrict};
use crate::value::program::{AbstractRule, Item, Width};

const TWO_TO_31: i64 = 1 << 31;
const TWO_TO_32: i64 = 1 << 32;

/// The variants of `rule` in which each `int` wrap whose multiples of `2^32` are known
/// (`Item::Wrap`'s `wraps`) is replaced by one of its cases, as long as the variants stay within
/// `budget`; the wraps past it stay as they are (their result forgotten where it may wrap). The
/// cases cover every value the JVM computes: the mathematical value `e` of a sum, difference or
/// negation of `int`s lies in `[-2^32, 2^32 - 1]`, and the JVM's result is `e` when `e` is in range,
/// `e - 2^32` above it and `e + 2^32` below it; a product by a small constant is `e - j·2^32` for
/// the `j` that brings it into range. Earlier items speak of `e`, which moves to a fresh dimension;
/// the wrap's dimension holds the JVM's value from there on.
pub fn wrap_variants(rule: &AbstractRule, budget: usize) -> Vec<AbstractRule> {
    let mut variants = vec![rule.clone()];
    for (k, item) in rule.items.iter().enumerate() {
        let Item::Wrap {
            dim,
            width: Width::Int,
            wraps: Some(wraps),
            ..
        } = item
        else {
            continue;
        };
        let in_guard = rule
            .guard
            .iter()
            .any(|c| c.expression().terms().any(|(d, _)| d == *dim));
        let cases = 2 * usize::from(*wraps) + 1;
        if in_guard || variants.len() * cases > budget {
            continue;
        }
        let split: Option<Vec<Vec<AbstractRule>>> = variants
            .iter()
            .map(|v| match wraps {
                1 => wrap_cases(v, k, *dim),
                _ => multiple_wrap_cases(v, k, *dim, i64::from(*wraps)),
            })
            .collect();
        if let Some(split) = split {
            variants = split.into_iter().flatten().collect();
        }
    }
    variants
}

/// The three cases of the wrap at item `k` of `rule` (whose items keep their positions).
fn wrap_cases(rule: &AbstractRule, k: usize, dim: Dimension) -> Option<Vec<AbstractRule>> {
    let ge =
        |terms: &[(Dimension, i64)], c: i64| LinearExpr::from_terms(terms, c).map(Constraint::greater_or_equal_zero);
    let eq = |terms: &[(Dimension, i64)], c: i64| LinearExpr::from_terms(terms, c).map(Constraint::equal_zero);
    let mut in_range = rule.clone();
    in_range.items[k] = Item::Constrain(vec![ge(&[(dim, 1)], TWO_TO_31)?, ge(&[(dim, -1)], TWO_TO_31 - 1)?]);
    let mut out = vec![in_range];
    // `e` in a fresh dimension `w`; above the range `dim = w - 2^32`, below it `dim = w + 2^32`.
    let w = rule.dims;
    // `e` lies in `[-2^32, 2^32 - 1]` (the extremes of a sum and of a difference of `int`s), so
    // the JVM's value is negative above the range and non-negative below it.
    let cases = [
        (
            ge(&[(w, 1)], -TWO_TO_31)?,
            eq(&[(dim, 1), (w, -1)], TWO_TO_32)?,
            ge(&[(dim, -1)], -1)?,
        ),
        (
            ge(&[(w, -1)], -TWO_TO_31 - 1)?,
            eq(&[(dim, 1), (w, -1)], -TWO_TO_32)?,
            ge(&[(dim, 1)], 0)?,
        ),
    ];
    for (side, value, sign) in cases {
        let mut wrapped = rule.clone();
        wrapped.dims += 1;
        let rename = |d: Dimension| if d == dim { w } else { d };
        for item in &mut wrapped.items[..k] {
            *item = renumber_item(item, &rename);
        }
        wrapped.items[k] = Item::Constrain(vec![side, value, sign]);
        out.push(wrapped);
    }
    Some(out)
}

/// The cases of the wrap at item `k` of `rule` whose mathematical value `e` lies within `wraps`
/// multiples of `2^32` of the range: for each `j` in `-wraps..=wraps`, `e - j·2^32` is in range
/// and is the JVM's value.
fn multiple_wrap_cases(rule: &AbstractRule, k: usize, dim: Dimension, wraps: i64) -> Option<Vec<AbstractRule>> {
    let ge =
        |terms: &[(Dimension, i64)], c: i64| LinearExpr::from_terms(terms, c).map(Constraint::greater_or_equal_zero);
    let eq = |terms: &[(Dimension, i64)], c: i64| LinearExpr::from_terms(terms, c).map(Constraint::equal_zero);
    let w = rule.dims;
    let mut out = Vec::new();
    for j in -wraps..=wraps {
        let mut case = rule.clone();
        case.dims += 1;
        let rename = |d: Dimension| if d == dim { w } else { d };
        for item in &mut case.items[..k] {
            *item = renumber_item(item, &rename);
        }
        case.items[k] = Item::Constrain(vec![
            eq(&[(dim, 1), (w, -1)], j.checked_mul(TWO_TO_32)?)?,
            ge(&[(dim, 1)], TWO_TO_31)?,
            ge(&[(dim, -1)], TWO_TO_31 - 1)?,
        ]);
        out.push(case);
    }
    Some(out)
}

/// The most transitions [`chained`] builds (each costs the ranking search linear programs).
pub const MAX_CHAINED: usize = 24;

/// The transitions (over `x`, `x'` in dimensions `0..n`, `n..2n`) that another iteration can
/// follow: each transition whose `x'` lies in the domain of some transition, one polyhedron per
/// pair. A pair is dropped when it is empty with every `x` and `x'` in its type's range (`ranges`:
/// the JVM range of the head's inputs); the ranges themselves are left out of the pairs kept, whose
/// large constants would only slow the search. Every iteration of a run but its last is such a
/// transition, so a ranking function of these bounds the iterations but one. `None` when there
/// would be more than [`MAX_CHAINED`].
pub fn chained<D: NumericDomain>(n: usize, transitions: &[D], ranges: &[(Dimension, Width)]) -> Option<Vec<D>> {
    let boxed = |t: &D| boxed(n, t, ranges);
    let live: Vec<&D> = transitions.iter().filter(|t| !boxed(t).is_empty()).collect();
    if live.len() > 2 * MAX_CHAINED {
        return None;
    }
    let current: Vec<Dimension> = (0..n).collect();
    let next: Vec<Dimension> = (n..2 * n).collect();
    let domains: Vec<D> = live.iter().map(|t| restrict(*t, &current)).collect();
    let mut out = Vec::new();
    for t in &live {
        for domain in &domains {
            let followed = t.meet(&embed(domain, &next, t.dimensions()));
            if boxed(&followed).is_empty() {
                continue;
            }
            if out.len() == MAX_CHAINED {
                return None;
            }
            out.push(followed);
        }
    }
    Some(out)
}

/// `transition` (over `x`, `x'` in dimensions `0..n`, `n..2n`) with every `x` and `x'` in its
/// type's range (`ranges`: the JVM range of the head's inputs). The floating-point search for a
/// ranking function succeeds on some transitions only with these bounds, on others only without.
pub fn boxed<D: NumericDomain>(n: usize, transition: &D, ranges: &[(Dimension, Width)]) -> D {
    let mut boxed = transition.clone();
    for &(d, width) in ranges.iter().filter(|(d, _)| *d < n) {
        boxed.add_constraints(width.holds(d));
        boxed.add_constraints(width.holds(n + d));
    }
    boxed
}
