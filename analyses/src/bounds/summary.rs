//! A method's bound as the cost of one abstract rule, so that a call of a method analysed on its
//! own (a library method's summary) costs what its bound says at the call's arguments.
//!
//! A rule's cost is `constant + Σ Π factors`, each factor standing for `nat` of its upper bound at
//! the rule (`RuleCost`). A bound is rewritten into that form by over-approximating, which keeps
//! it sound: `max(a, b) ≤ a + b` (costs are non-negative), `⌈log2(nat(e) + 1)⌉ ≤ nat(e)`,
//! products are expanded, terms with negative coefficients are dropped, and rational
//! coefficients are rounded up. Exponential bounds (`2^nat(e)`) have no such form.

use super::cost::input_name;
use super::expr::{CostExpr, Linear};
use crate::value::polyhedra::LinearExpr;
use crate::value::program::RuleCost;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Products a bound may expand into; a larger expansion is not used.
pub const MAX_TERMS: usize = 64;

/// `bound`, over the inputs `%0..%inputs` of a procedure, as the cost of a rule over dimensions
/// `0..inputs`; `None` when it has no such form (see the module documentation).
pub fn rule_cost(bound: &CostExpr, inputs: usize) -> Option<RuleCost> {
    let mut cost = RuleCost::default();
    let mut constant = BigRational::zero();
    for (coefficient, factors) in expand(bound)? {
        if !coefficient.is_positive() {
            continue;
        }
        if factors.is_empty() {
            constant += coefficient;
            continue;
        }
        let mut scale = BigRational::one();
        let mut product = Vec::with_capacity(factors.len() + 1);
        for factor in &factors {
            let (expr, denominator) = integral(factor, inputs)?;
            // nat(l) = nat(d·l) / d for d ≥ 1.
            scale /= BigRational::from_integer(denominator);
            product.push(expr);
        }
        let k = (coefficient * scale).ceil().to_integer().to_i64()?;
        if k != 1 {
            product.push(LinearExpr::constant(k));
        }
        cost.symbolic.push(product);
    }
    cost.constant = constant.ceil().to_integer().to_u64()?;
    Some(cost)
}

/// A sum of `coefficient · Π nat(factor)` at least `expr`.
pub(super) fn expand(expr: &CostExpr) -> Option<Vec<(BigRational, Vec<Linear>)>> {
    Some(match expr {
        CostExpr::Const(c) => vec![(c.clone(), Vec::new())],
        CostExpr::Nat(l) | CostExpr::Log2(l) => vec![(BigRational::one(), vec![l.clone()])],
        CostExpr::Pow2(_) => return None,
        CostExpr::Add(items) | CostExpr::Max(items) => {
            let mut terms = Vec::new();
            for item in items {
                // A negative part of a maximum is no larger than zero: dropping it is sound.
                terms.extend(expand(item)?.into_iter().filter(|(c, _)| c.is_positive()));
                if terms.len() > MAX_TERMS {
                    return None;
                }
            }
            terms
        }
        // Any item bounds a minimum: the one that expands into the fewest terms.
        CostExpr::Min(items) => items.iter().filter_map(expand).min_by_key(Vec::len)?,
        CostExpr::Mul(items) => {
            let mut terms = vec![(BigRational::one(), Vec::new())];
            for item in items {
                let parts = expand(item)?;
                if terms.len() * parts.len() > MAX_TERMS {
                    return None;
                }
                terms = terms
                    .iter()
                    .flat_map(|(c, f)| {
                        parts
                            .iter()
                            .map(move |(pc, pf)| (c * pc, f.iter().chain(pf).cloned().collect()))
                    })
                    .collect();
            }
            terms
        }
    })
}

/// `d · l` over dimensions (input `%i` is dimension `i`) with integer coefficients, and `d ≥ 1`.
pub(super) fn integral(l: &Linear, inputs: usize) -> Option<(LinearExpr, BigInt)> {
    let denominator = l
        .terms
        .values()
        .chain(std::iter::once(&l.constant))
        .fold(BigInt::one(), |d, c| d.lcm(c.denom()));
    let scaled = |c: &BigRational| {
        (c * BigRational::from_integer(denominator.clone()))
            .to_integer()
            .to_i64()
    };
    let mut terms = Vec::with_capacity(l.terms.len());
    for (name, coefficient) in &l.terms {
        let dimension = (0..inputs).find(|&i| input_name(i) == *name)?;
        terms.push((dimension, scaled(coefficient)?));
    }
    Some((LinearExpr::from_terms(&terms, scaled(&l.constant)?)?, denominator))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nat(name: &str) -> CostExpr {
        CostExpr::nat(Linear::var(name))
    }

    #[test]
    fn a_polynomial_bound_keeps_its_terms() {
        let bound = CostExpr::add([
            CostExpr::constant(5),
            CostExpr::mul([CostExpr::constant(7), nat("%0")]),
            CostExpr::mul([CostExpr::constant(3), nat("%0"), nat("%1")]),
        ]);
        let cost = rule_cost(&bound, 2).expect("polynomial");
        assert_eq!(cost.constant, 5);
        assert_eq!(cost.symbolic.len(), 2);
        assert_eq!(cost.symbolic[1].len(), 3, "two factors and the coefficient");
    }

    #[test]
    fn a_maximum_becomes_a_sum_and_an_exponential_has_no_form() {
        let bound = CostExpr::max([
            CostExpr::constant(66),
            CostExpr::add([CostExpr::constant(86), nat("%0")]),
        ]);
        let cost = rule_cost(&bound, 1).expect("maximum");
        assert_eq!(cost.constant, 152);
        assert_eq!(cost.symbolic.len(), 1);
        assert!(rule_cost(&CostExpr::pow2(Linear::var("%0")), 1).is_none());
        assert!(rule_cost(&nat("n"), 1).is_none(), "not an input");
    }
}
