//! Divide and conquer: the cost of a recursion that makes several calls per node, summed over
//! its call tree by what the calls pass down rather than by the largest node times the number of
//! nodes (which makes merge sort quadratic and quicksort exponential).
//!
//! A node's cost, over its own inputs `x`, is `A + Σ c·Π nat(g(x))` (the largest of its paths,
//! expanded as `summary::expand` does). The calls of a path are related by one polyhedron over
//! `(x, x_1, …, x_k)` (the arguments of its `k` calls). Each part of the cost is summed over the
//! tree by the first of these that the polyhedra entail exactly:
//! - **level sums**: `Σ_{i∈S} g(x_i) ≤ g(x)` for every nonempty set `S` of calls. Then the `nat(g)`
//!   of the nodes of one level add up to at most `nat(g)` of the root, and the part costs at most
//!   `c·(depth + 1)·nat(g(root))` (merge sort's `n·log(n)`, quicksort's `n²`);
//! - **halving**: `2·g(x_i) ≤ g(x)` for every call, `g` integral, `k ≥ 3` calls. Level `d` has
//!   at most `k^d` nodes, each with `nat(g) ≤ g(root)/2^d`, and only levels with `2^d ≤ g(root)`
//!   count: `Σ_d k^d·G/2^d ≤ 2k/(k−2)·G^{log2 k} ≤ 2k/(k−2)·G^{⌈log2 k⌉}` (Karatsuba's `n²`);
//! - **no growth**: `g(x_i) ≤ g(x)` for every call and every factor: each node costs at most what
//!   the root does, `c·nodes·Π nat(g(root))`.
//!
//! The constant part costs `A·nodes`. The nodes are counted by the recursion's own bound (when it
//! is not exponential) or by a function `f` with `f(x) ≥ 1` at every node that calls and
//! `Σ_{i∈S} f(x_i) ≤ f(x) − 1` for every nonempty `S`: then at most `nat(f(x))` nodes below and
//! at `x` call (by induction), so at most `1 + k·nat(f(root))` nodes in all.
//!
//! `depth` bounds the calls nested along any branch (the ranking function's iterations).

use super::compare::{class_order, ClassOrder};
use super::expr::{CostExpr, Linear};
use super::summary::{expand, integral};
use crate::value::domain::{Constraint, Dimension, LinearExpr, NumericDomain};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

/// One path of a node: its cost over the node's inputs (`%i`) and, when it calls, the relation
/// of its calls.
pub(super) struct NodePath<'a, D> {
    pub cost: &'a CostExpr,
    pub calls: usize,
    /// Over `(inputs, arguments of call 1, …, arguments of call k)`; `None` when the path's calls
    /// are not related by one polyhedron.
    pub joint: Option<&'a D>,
}

/// The recursion to cost.
pub(super) struct Recursion<'a, D> {
    pub inputs: usize,
    pub paths: Vec<NodePath<'a, D>>,
    /// Calls nested along any branch, over the root's inputs.
    pub depth: &'a CostExpr,
    /// Candidates for the functions that count nodes (the ranking function's).
    pub measures: Vec<Linear>,
    /// A bound on the nodes known otherwise, if any.
    pub nodes: Option<CostExpr>,
}

/// Most calls per node handled (subsets of the calls are enumerated).
const MAX_CALLS: usize = 4;

/// The cost of the whole call tree over the root's inputs, or `None` when some part of a node's
/// cost has none of the forms above or the nodes cannot be counted.
pub(super) fn recursion_cost<D: NumericDomain>(r: &Recursion<D>) -> Option<CostExpr> {
    let calls = r.paths.iter().map(|p| p.calls).max()?;
    if !(2..=MAX_CALLS).contains(&calls) {
        return None;
    }
    let joints: Vec<(&D, usize)> = r
        .paths
        .iter()
        .filter(|p| p.calls > 0)
        .map(|p| p.joint.map(|j| (j, p.calls)))
        .collect::<Option<_>>()?;
    let node = CostExpr::max(r.paths.iter().map(|p| p.cost.clone()));
    let terms = expand(&node)?;
    let check = Check {
        inputs: r.inputs,
        joints: &joints,
    };
    let mut measures = r.measures.clone();
    measures.extend(terms.iter().filter(|(_, f)| f.len() == 1).map(|(_, f)| f[0].clone()));
    let nodes = smallest(r.nodes.iter().cloned().chain(node_counts(&check, &measures, calls)))?;
    let levels = CostExpr::add([r.depth.clone(), CostExpr::constant(1)]);
    let mut per_node = BigRational::zero();
    let mut parts = Vec::new();
    for (coefficient, factors) in terms {
        if !coefficient.is_positive() {
            continue;
        }
        if factors.is_empty() {
            per_node += coefficient;
            continue;
        }
        let (part, shift) = term_cost(&check, &factors, &levels, &nodes, calls)?;
        per_node += &coefficient * BigRational::from_integer(BigInt::from(shift));
        parts.push(CostExpr::mul([CostExpr::Const(coefficient), part]));
    }
    parts.push(CostExpr::mul([CostExpr::Const(per_node), nodes]));
    Some(CostExpr::add(parts))
}

/// The sum over the tree of `Π nat(factors)` at each node, as a cost and a constant `s` that
/// each node adds (`nat(g) ≤ nat(g − s) + s`).
fn term_cost<D: NumericDomain>(
    check: &Check<D>,
    factors: &[Linear],
    levels: &CostExpr,
    nodes: &CostExpr,
    calls: usize,
) -> Option<(CostExpr, i64)> {
    if let [g] = factors {
        let mut found: Vec<(CostExpr, i64)> = Vec::new();
        for shift in [0, 1] {
            let shifted = g.minus(&Linear::constant(shift));
            let Some((expr, scale)) = check.integral(&shifted) else {
                continue;
            };
            if check.sums_at_most(&expr, 0, true) {
                found.push((CostExpr::mul([levels.clone(), CostExpr::nat(shifted.clone())]), shift));
            } else if calls >= 3 && check.halves(&expr) {
                let e = usize::BITS - (calls - 1).leading_zeros();
                let k = i64::try_from(calls).ok()?;
                let factor = BigRational::new(BigInt::from(2 * k), BigInt::from(k - 2) * &scale);
                let integral = Linear::constant(0).add_scaled(&shifted, &BigRational::from_integer(scale.clone()));
                let power = (0..e).map(|_| CostExpr::nat(integral.clone()));
                let part = CostExpr::mul(std::iter::once(CostExpr::Const(factor)).chain(power));
                found.push((part, shift));
            }
        }
        if let Some(best) = smallest_by(found, |(c, _)| c) {
            return Some(best);
        }
    }
    // No growth along any call: every node costs at most what the root does.
    for g in factors {
        let (expr, _) = check.integral(g)?;
        if !check.sums_at_most(&expr, 0, false) {
            return None;
        }
    }
    let product = CostExpr::mul(factors.iter().cloned().map(CostExpr::nat));
    Some((CostExpr::mul([nodes.clone(), product]), 0))
}

/// Node counts `1 + k·nat(f)` for the measures `f` (and `f − 1`, `2f − 1`) that pass.
fn node_counts<D: NumericDomain>(check: &Check<D>, measures: &[Linear], calls: usize) -> Vec<CostExpr> {
    let mut counts = Vec::new();
    for m in measures {
        for f in [
            m.clone(),
            m.minus(&Linear::constant(1)),
            m.times(2).minus(&Linear::constant(1)),
        ] {
            let Some((expr, scale)) = check.integral(&f) else {
                continue;
            };
            // f(x) ≥ 1 where the node calls, and the calls' f sum to at most f(x) − 1.
            if check.at_least(&expr, &scale) && check.sums_at_most(&expr, -1, true) {
                let k = i64::try_from(calls).unwrap_or(i64::MAX);
                counts.push(CostExpr::add([
                    CostExpr::constant(1),
                    CostExpr::mul([CostExpr::constant(k), CostExpr::nat(f)]),
                ]));
                break;
            }
        }
    }
    counts
}

/// The bound of the least class (the first among equals).
fn smallest(bounds: impl IntoIterator<Item = CostExpr>) -> Option<CostExpr> {
    smallest_by(bounds, |c| c)
}

fn smallest_by<T>(items: impl IntoIterator<Item = T>, key: impl Fn(&T) -> &CostExpr) -> Option<T> {
    let mut best: Option<T> = None;
    for item in items {
        let better = match &best {
            None => true,
            Some(b) => class_order(key(b), key(&item)) == ClassOrder::Smaller,
        };
        if better {
            best = Some(item);
        }
    }
    best
}

/// Exact checks over the calls' relations.
struct Check<'a, D> {
    inputs: usize,
    joints: &'a [(&'a D, usize)],
}

impl<D: NumericDomain> Check<'_, D> {
    /// `scale·g` over the input dimensions, with integer coefficients, and `scale`.
    fn integral(&self, g: &Linear) -> Option<(LinearExpr, BigInt)> {
        integral(g, self.inputs)
    }

    /// `e` read at call `i`'s arguments (call `0` is the node itself).
    fn at(&self, e: &LinearExpr, call: usize) -> Option<LinearExpr> {
        let terms: Vec<(Dimension, i64)> = e.terms().map(|(d, a)| (d + call * self.inputs, a)).collect();
        LinearExpr::from_terms(&terms, e.constant_term())
    }

    /// Whether, on every calling path, `Σ_{i∈S} e(x_i) ≤ e(x) + slack` for every nonempty set `S`
    /// of its calls (`subsets`), or for each call alone.
    fn sums_at_most(&self, e: &LinearExpr, slack: i64, subsets: bool) -> bool {
        self.joints.iter().all(|(joint, calls)| {
            let sets: Vec<u32> = match subsets {
                true => (1..1u32 << calls).collect(),
                false => (0..*calls).map(|i| 1u32 << i).collect(),
            };
            sets.into_iter().all(|set| {
                let mut sum = LinearExpr::constant(0);
                for i in (0..*calls).filter(|i| set & (1 << i) != 0) {
                    match self.at(e, i + 1).and_then(|a| sum.checked_add(&a)) {
                        Some(s) => sum = s,
                        None => return false,
                    }
                }
                let bound = e.checked_add(&LinearExpr::constant(slack));
                bound
                    .and_then(|b| Constraint::less_or_equal(&sum, &b))
                    .is_some_and(|c| joint.entails(&c))
            })
        })
    }

    /// Whether `e ≥ scale` (`f ≥ 1` for `e = scale·f`) wherever a node calls.
    fn at_least(&self, e: &LinearExpr, scale: &BigInt) -> bool {
        let Some(s) = scale.to_i64() else {
            return false;
        };
        let Some(c) = e
            .checked_sub(&LinearExpr::constant(s))
            .map(Constraint::greater_or_equal_zero)
        else {
            return false;
        };
        self.joints.iter().all(|(joint, _)| joint.entails(&c))
    }

    /// Whether `2·e(x_i) ≤ e(x)` for every call.
    fn halves(&self, e: &LinearExpr) -> bool {
        self.joints.iter().all(|(joint, calls)| {
            (1..=*calls).all(|i| {
                self.at(e, i)
                    .and_then(|a| a.checked_scale(2))
                    .and_then(|a| Constraint::less_or_equal(&a, e))
                    .is_some_and(|c| joint.entails(&c))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::polyhedra::Polyhedron;

    fn eq(terms: &[(Dimension, i64)], c: i64) -> Constraint {
        Constraint::equal_zero(LinearExpr::from_terms(terms, c).expect("small"))
    }

    fn ge(terms: &[(Dimension, i64)], c: i64) -> Constraint {
        Constraint::greater_or_equal_zero(LinearExpr::from_terms(terms, c).expect("small"))
    }

    fn var(i: usize) -> Linear {
        Linear::var(&format!("%{i}"))
    }

    /// `c + k·nat(g)`.
    fn linear_cost(c: i64, k: i64, g: Linear) -> CostExpr {
        CostExpr::add([
            CostExpr::constant(c),
            CostExpr::mul([CostExpr::constant(k), CostExpr::nat(g)]),
        ])
    }

    /// `n` split into `h` and `n - h` (`2h ≤ n ≤ 2h + 1`, `n ≥ 2`), the first call `copies`
    /// times: over `(n, c_1, …)`.
    fn halves(copies: usize) -> (Polyhedron, usize) {
        let calls = copies + 1;
        let mut constraints = vec![ge(&[(0, 1)], -2), ge(&[(0, 1), (1, -2)], 0), ge(&[(1, 2), (0, -1)], 1)];
        for i in 2..calls {
            constraints.push(eq(&[(i, 1), (1, -1)], 0));
        }
        constraints.push(eq(&[(calls, 1), (0, -1), (1, 1)], 0));
        (Polyhedron::from_constraints(calls + 1, constraints), calls)
    }

    fn cost_of(
        joint: &Polyhedron,
        calls: usize,
        inputs: usize,
        node: &CostExpr,
        depth: CostExpr,
        measure: Linear,
        nodes: Option<CostExpr>,
    ) -> CostExpr {
        let exit = CostExpr::constant(5);
        let recursion = Recursion {
            inputs,
            paths: vec![
                NodePath {
                    cost: node,
                    calls,
                    joint: Some(joint),
                },
                NodePath {
                    cost: &exit,
                    calls: 0,
                    joint: None,
                },
            ],
            depth: &depth,
            measures: vec![measure],
            nodes,
        };
        recursion_cost(&recursion).expect("a divide-and-conquer bound")
    }

    #[test]
    fn merge_sort_sums_its_levels() {
        let (joint, calls) = halves(1);
        let node = linear_cost(7, 2, var(0));
        let cost = cost_of(&joint, calls, 1, &node, CostExpr::log2(var(0)), var(0), None);
        assert_eq!(cost.complexity(), "O(%0*log(%0))", "{cost}");
    }

    #[test]
    fn three_halves_are_quadratic() {
        // Karatsuba: h, h and n - h; no level sum, but every part at most half. The nodes are
        // counted by the depth: at most 4·(2·nat(n) + 1)^2.
        let (joint, calls) = halves(2);
        let node = linear_cost(7, 2, var(0));
        let level = CostExpr::add([CostExpr::nat(var(0).times(2)), CostExpr::constant(1)]);
        let nodes = CostExpr::mul([CostExpr::constant(4), level.clone(), level]);
        let cost = cost_of(&joint, calls, 1, &node, CostExpr::log2(var(0)), var(0), Some(nodes));
        assert_eq!(cost.complexity(), "O(%0^2)", "{cost}");
    }

    #[test]
    fn quicksort_is_quadratic_not_exponential() {
        // (lo, hi) to (lo, i - 1) and (i + 1, hi) with lo ≤ i ≤ hi and lo < hi.
        let joint = Polyhedron::from_constraints(
            6,
            [
                eq(&[(2, 1), (0, -1)], 0),
                eq(&[(5, 1), (1, -1)], 0),
                eq(&[(4, 1), (3, -1)], -2),
                ge(&[(3, 1), (0, -1)], 1),
                ge(&[(1, 1), (3, -1)], -1),
                ge(&[(1, 1), (0, -1)], -1),
            ],
        );
        let width = var(1).minus(&var(0));
        let node = linear_cost(10, 3, width.clone());
        let cost = cost_of(&joint, 2, 2, &node, CostExpr::nat(width.clone()), width, None);
        assert_eq!(cost.growth().exponential, 0, "{cost}");
        assert_eq!(cost.growth().polynomial, 2, "{cost}");
    }

    #[test]
    fn a_part_that_grows_has_no_divide_and_conquer_bound() {
        // Both calls get n - 1: the tree is exponential, and no rule applies.
        let joint = Polyhedron::from_constraints(
            3,
            [ge(&[(0, 1)], -1), eq(&[(1, 1), (0, -1)], 1), eq(&[(2, 1), (0, -1)], 1)],
        );
        let exit = CostExpr::constant(5);
        let node = linear_cost(7, 2, var(0));
        let depth = CostExpr::nat(var(0));
        let recursion = Recursion {
            inputs: 1,
            paths: vec![
                NodePath {
                    cost: &node,
                    calls: 2,
                    joint: Some(&joint),
                },
                NodePath {
                    cost: &exit,
                    calls: 0,
                    joint: None,
                },
            ],
            depth: &depth,
            measures: vec![var(0)],
            nodes: None,
        };
        assert!(recursion_cost(&recursion).is_none());
    }
}
