//! Integer overflow: the JVM's `int` and `long` arithmetic wraps around, while abstract
//! compilation relates results to operands as mathematical integers. Each result that can wrap is
//! followed by a [`Item::Wrap`] item, and whoever walks a rule's items
//! (the fixpoint, the cost solver) applies [`wrap`] there.
//!
//! [`wrap`] keeps the mathematical constraints only when the current state proves the result
//! within the type's range, given the range of every other typed dimension of the rule.
//! Otherwise, when the result can only wrap one way (a counter stepped up from a value at least
//! the type's minimum wraps only down), the JVM's value lies on one side of the mathematical
//! one: it keeps the result's bounds on that side (`x' ≤ x + 1` after `x++`), so a later loop
//! bounded by it stays bounded, a wrap only making it shorter. Else it forgets the result, which
//! holds whatever the JVM computes.
//!
//! **Soundness argument.** By induction over a run: while every kept result lies in range, the
//! JVM's values equal the mathematical ones or lie on the kept side of them, so the abstract
//! states (computed with kept, one-sided and forgotten results) contain the JVM's states; at the next result the state, intersected with
//! the type ranges that every JVM value satisfies, proves it in range, so the JVM computes the
//! mathematical value again. The only assumption left is that an array's or a string's length
//! is below `2^31` (the JVM caps it at `2^31 - 1`). An object's size as a tree is bounded by
//! nothing (`Width::Nodes`): a DAG of a few dozen objects that share their nodes has more paths
//! than an `int` counts, and a recursive count of its nodes wraps.

use super::domain::{Constraint, Dimension, LinearExpr, NumericDomain, Rational};
use super::program::{AbsProcId, AbstractProgram, Item, Width};
use std::collections::HashSet;

impl Width {
    /// Constraints every value of the range satisfies (the box used to prove other results in
    /// range). The lower bound of a `long`, `-2^63`, is not representable (no stored number is
    /// `i64::MIN`) and is left out, which only weakens the box.
    pub(crate) fn holds(self, d: Dimension) -> Vec<Constraint> {
        let max = i64::from(i32::MAX);
        let bounds: [Option<(i64, i64)>; 2] = match self {
            // (coefficient, constant) of `coefficient·d + constant ≥ 0`.
            Width::Int => [Some((1, max + 1)), Some((-1, max))],
            Width::Long => [None, Some((-1, i64::MAX))],
            Width::Size => [Some((1, 0)), Some((-1, max))],
            Width::Nodes => [Some((1, 0)), None],
        };
        bounds
            .into_iter()
            .flatten()
            .filter_map(|(a, b)| LinearExpr::from_terms(&[(d, a)], b).map(Constraint::greater_or_equal_zero))
            .collect()
    }

    /// The range's least and greatest values; `None` for one without a greatest.
    pub fn interval(self) -> Option<(num_bigint::BigInt, num_bigint::BigInt)> {
        let (low, high): (i128, i128) = match self {
            Width::Int => (i32::MIN.into(), i32::MAX.into()),
            Width::Long => (i64::MIN.into(), i64::MAX.into()),
            Width::Size => (0, i32::MAX.into()),
            Width::Nodes => return None,
        };
        Some((low.into(), high.into()))
    }

    /// Constraints that imply a value within the range (for `long`, `-2^63 + 1` stands in for the
    /// lower bound: proving the stronger bound is enough).
    /// `[at least the minimum, at most the maximum]`.
    fn proves(self, d: Dimension) -> [Constraint; 2] {
        let max = i64::from(i32::MAX);
        let (lower, upper) = match self {
            Width::Long => (i64::MAX, i64::MAX),
            Width::Int => (max + 1, max),
            Width::Size => (0, max),
            // (No upper bound to prove: `i64::MAX` stands in, as for `long`.)
            Width::Nodes => (0, i64::MAX),
        };
        [(1, lower), (-1, upper)].map(|(a, b)| {
            // (Unrepresentable, it is `-1 ≥ 0`, which no non-empty state entails.)
            let e = LinearExpr::from_terms(&[(d, a)], b).unwrap_or_else(|| LinearExpr::constant(-1));
            Constraint::greater_or_equal_zero(e)
        })
    }
}

/// Applies a `Wrap` of `dim` to `state`: returns `true` when the state (with the ranges of the
/// other dimensions in `ranges`) proves the value within `width`, leaving the state unchanged;
/// otherwise replaces the state by one where `dim` is forgotten, and returns `false`. Dimensions
/// out of the state's range are ignored. For a product (`factors`), the product of the factors'
/// ranges in the state also proves it (the state only has linear facts about the product).
pub fn wrap<D: NumericDomain>(
    state: &mut D,
    dim: Dimension,
    width: Width,
    factors: Option<(Dimension, Dimension)>,
    ranges: &[(Dimension, Width)],
) -> bool {
    if dim >= state.dimensions() {
        return true;
    }
    let mentioned = mentioned(state);
    if !mentioned.contains(&dim) {
        return true;
    }
    let boxed = boxed(state, &mentioned, ranges, Some(dim));
    if width.proves(dim).iter().all(|c| boxed.entails(c)) {
        return true;
    }
    if let Some((left, right)) = factors {
        if product_within(&boxed, left, right, width) {
            return true;
        }
    }
    // A result that can only wrap one way keeps the side it wraps away from: wrapping down
    // (the mathematical value is at least the type's minimum) subtracts multiples of the range's
    // size, so the JVM's value is at most the mathematical one; wrapping up, at least.
    let [at_least_min, at_most_max] = width.proves(dim);
    *state = if matches!(width, Width::Size | Width::Nodes) {
        state.project_out(&[dim])
    } else if boxed.entails(&at_least_min) {
        relaxed(state, dim, 1)
    } else if boxed.entails(&at_most_max) {
        relaxed(state, dim, -1)
    } else {
        // The type's range would hold too, but its large constants make every later operation
        // on the state slower; the checks above add it where it matters.
        state.project_out(&[dim])
    };
    false
}

/// The dimensions some constraint of `state` mentions.
fn mentioned<D: NumericDomain>(state: &D) -> HashSet<Dimension> {
    state
        .constraints()
        .iter()
        .flat_map(|c| c.expression().terms().map(|(d, _)| d))
        .collect()
}

/// `state` with the JVM range (`ranges`) of each dimension it mentions, `except` one.
fn boxed<D: NumericDomain>(
    state: &D,
    mentioned: &HashSet<Dimension>,
    ranges: &[(Dimension, Width)],
    except: Option<Dimension>,
) -> D {
    let mut boxed = state.clone();
    for &(d, w) in ranges {
        if Some(d) != except && d < state.dimensions() && mentioned.contains(&d) {
            boxed.add_constraints(w.holds(d));
        }
    }
    boxed
}

/// Adds to `condition` (a call's state over its arguments `args`, from `state` over the calling
/// rule's dimensions) the bounds of each `int` argument that the JVM ranges of the rule's values
/// (`ranges`) imply and its own range does not: after `x > y` with `x` an `int`, `y ≤ 2^31 - 2`,
/// although the state bounds neither. A callee's `v + 1` is then proven not to wrap where every
/// call says so (its precondition joins its calls' conditions), instead of forgetting its result.
/// Only bounds the condition does not entail already are added, so that states keep the large
/// constants of the type limits only where they say something.
pub fn tighten_by_ranges<D: NumericDomain>(
    condition: &mut D,
    state: &D,
    args: &[Dimension],
    ranges: &[(Dimension, Width)],
) {
    let arg_widths: Vec<Option<Width>> = args
        .iter()
        .map(|a| ranges.iter().find(|(d, _)| d == a).map(|(_, w)| *w))
        .collect();
    if arg_widths.iter().all(|w| *w != Some(Width::Int)) || state.is_empty() {
        return;
    }
    let mentioned = mentioned(state);
    let boxed = boxed(state, &mentioned, ranges, None);
    let max = i64::from(i32::MAX);
    for (i, (&a, width)) in args.iter().zip(&arg_widths).enumerate() {
        if *width != Some(Width::Int) || !mentioned.contains(&a) {
            continue;
        }
        let Some(own) = LinearExpr::from_terms(&[(i, 1)], 0) else {
            continue;
        };
        let (own_low, own_high) = condition.bounds(&own);
        if own_low.is_some() && own_high.is_some() {
            continue;
        }
        let Some(var) = LinearExpr::from_terms(&[(a, 1)], 0) else {
            continue;
        };
        let (low, high) = boxed.bounds(&var);
        let low = low.map(|l| l.ceil().to_integer()).and_then(|l| i64::try_from(l).ok());
        let high = high.map(|h| h.floor().to_integer()).and_then(|h| i64::try_from(h).ok());
        if let Some(low) = low.filter(|l| own_low.is_none() && *l > -max - 1) {
            condition.add_constraints(LinearExpr::from_terms(&[(i, 1)], -low).map(Constraint::greater_or_equal_zero));
        }
        if let Some(high) = high.filter(|h| own_high.is_none() && *h < max) {
            condition.add_constraints(LinearExpr::from_terms(&[(i, -1)], high).map(Constraint::greater_or_equal_zero));
        }
    }
}

/// `state` with `dim` replaced by a value `w` with `sign·(dim - w) ≥ 0`: at most the old value
/// (`sign = 1`) or at least it (`sign = -1`).
fn relaxed<D: NumericDomain>(state: &D, dim: Dimension, sign: i64) -> D {
    let n = state.dimensions();
    let mut extended = state.add_dims(1);
    if let Some(e) = LinearExpr::from_terms(&[(dim, sign), (n, -sign)], 0) {
        extended.add_constraint(Constraint::greater_or_equal_zero(e));
    }
    let mapping: Vec<Option<Dimension>> = (0..=n)
        .map(|d| match d {
            d if d == dim => None,
            d if d == n => Some(dim),
            d => Some(d),
        })
        .collect();
    extended.map_dims(&mapping, n)
}

/// Whether every product of a value of `left` and one of `right` in `state` lies within
/// `width`'s provable range (interval multiplication over exact bounds).
fn product_within<D: NumericDomain>(state: &D, left: Dimension, right: Dimension, width: Width) -> bool {
    if left >= state.dimensions() || right >= state.dimensions() {
        return false;
    }
    let (Some(l0), Some(l1)) = state.bounds(&LinearExpr::variable(left)) else {
        return false;
    };
    let (Some(r0), Some(r1)) = state.bounds(&LinearExpr::variable(right)) else {
        return false;
    };
    let (low, high) = match width {
        Width::Int => (i64::from(i32::MIN), i64::from(i32::MAX)),
        Width::Long => (-i64::MAX, i64::MAX),
        Width::Size | Width::Nodes => return false,
    };
    let (low, high) = (Rational::from_integer(low.into()), Rational::from_integer(high.into()));
    let products = [&l0 * &r0, &l0 * &r1, &l1 * &r0, &l1 * &r1];
    products.iter().all(|p| *p >= low && *p <= high)
}

/// How far from its type's limits each input of an analysed method's entry is assumed to be, by
/// level: level 0 assumes nothing; a method whose bound is lost only to possible overflows is
/// analysed again at the next level, and its bound then holds under the stated precondition.
/// Each entry is `(int and size margin, long margin)`.
/// Small margins cover counters stepped by constants; `2^30` covers doubling, midpoints and sums
/// of two sizes; the last level keeps inputs within about `±2^15` (`±2^31` for longs), so that
/// products of two of them stay in range.
pub const MARGINS: [(i64, i64); 4] = [
    (0, 0),
    (16, 16),
    (1 << 30, 1 << 62),
    ((1 << 31) - (1 << 15) - 1, i64::MAX - (1 << 31)),
];

/// The precondition of an entry whose inputs have the given widths (`None` for untracked ones),
/// at a level of [`MARGINS`]: each tracked input at least the margin away from its type's limits
/// (a size at most `2^31 - 1 - margin`). Level 0 is the universe.
pub fn entry_condition<D: NumericDomain>(widths: &[Option<Width>], level: usize) -> D {
    let mut condition = D::universe(widths.len());
    let Some(&(margin, long_margin)) = MARGINS.get(level) else {
        return condition;
    };
    if margin == 0 {
        return condition;
    }
    for (d, width) in widths.iter().enumerate() {
        if let Some((lower, upper)) = input_interval(*width, margin, long_margin) {
            condition.add_constraints(
                [(1, -lower), (-1, upper)]
                    .into_iter()
                    .filter_map(|(a, b)| LinearExpr::from_terms(&[(d, a)], b).map(Constraint::greater_or_equal_zero)),
            );
        }
    }
    condition
}

/// The interval an input of `width` is assumed in at the given margins.
pub fn input_interval(width: Option<Width>, margin: i64, long_margin: i64) -> Option<(i64, i64)> {
    let int_max = i64::from(i32::MAX);
    match width? {
        Width::Int => Some((-int_max - 1 + margin, int_max - margin)),
        Width::Long => Some((-i64::MAX + long_margin, i64::MAX - long_margin)),
        Width::Size => Some((0, int_max - margin)),
        // No limit of its type to stay away from.
        Width::Nodes => None,
    }
}

/// The procedures reachable from `entry` through calls and charges, `entry` included.
pub fn reachable(program: &AbstractProgram, entry: AbsProcId) -> HashSet<AbsProcId> {
    let mut seen = HashSet::new();
    let mut stack = vec![entry];
    while let Some(p) = stack.pop() {
        if p >= program.procs.len() || !seen.insert(p) {
            continue;
        }
        for rule in &program.procs[p].rules {
            for item in &rule.items {
                if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                    stack.push(*callee);
                }
            }
        }
    }
    seen
}
