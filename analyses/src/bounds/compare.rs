//! Semantic comparison of two cost bounds of the same method (an old one, from a baseline, and a
//! new one): by asymptotic class first, then by exact values.
//!
//! The rule:
//!
//! 1. **Classes.** Each bound's class is its set of dominant monomials (as `complexity` prints it:
//!    `2^n` above every polynomial, `n^2` above `n*log(n)` above `n` above `log(n)` above `1`, per
//!    parameter). The new class is *larger* when every old monomial is dominated by a new one but
//!    not the reverse, *smaller* in the mirror case, the *same* when both hold, and *incomparable*
//!    otherwise (`O(n)` against `O(m)`). A larger class is a regression, a smaller one an
//!    improvement, incomparable ones are a change.
//! 2. **Formulas** (same class): both bounds are evaluated exactly (rationals) at sampled points:
//!    families of points where all parameters grow together, one parameter grows alone (the others
//!    at 0), one grows twice as fast as the others, and int parameters (not `|sizes|`) go negative;
//!    along each family the scale runs over small values and then powers of two up to 2^200 (2^10
//!    when a parameter appears in an exponent), far beyond where lower-order terms matter, so the
//!    last point of a family decides as the leading coefficients do. Equal at every point:
//!    *unchanged*. Never larger and somewhere smaller: *improved*; the mirror: *regressed*. When
//!    the bounds cross, the largest points decide (of the families along which a bound grows):
//!    larger there in some family and smaller in none is a regression, the mirror an
//!    improvement, anything else a change.
//!
//! Parameters are matched by name, so a caller that renames parameters maps the old names onto the
//! new ones first (`rename_parameters`); reordered terms and factors never matter since only values
//! are compared. **Bounds that print the same are unchanged without sampling; sampling evaluates
//! exactly, never in floating point.**

use super::expr::{CostExpr, Linear, Monomial};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

/// How the new bound's asymptotic class relates to the old one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassOrder {
    Same,
    Smaller,
    Larger,
    Incomparable,
}

/// The overall verdict of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Unchanged,
    Improved,
    Regressed,
    /// Neither bound is below the other: incomparable classes, or formulas that cross with no
    /// winner for large inputs.
    Changed,
}

/// The result of comparing an old bound with a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub class: ClassOrder,
    pub verdict: Verdict,
    /// Whether the new bound is larger than the old one at some sampled point.
    pub larger_somewhere: bool,
    /// Whether the new bound is smaller than the old one at some sampled point.
    pub smaller_somewhere: bool,
}

/// Compares the old bound with the new one (parameters matched by name).
pub fn compare(old: &CostExpr, new: &CostExpr) -> Comparison {
    let class = class_order(old, new);
    if old.to_string() == new.to_string() {
        return Comparison {
            class,
            verdict: Verdict::Unchanged,
            larger_somewhere: false,
            smaller_somewhere: false,
        };
    }
    let samples = sample(old, new);
    let verdict = match class {
        ClassOrder::Larger => Verdict::Regressed,
        ClassOrder::Smaller => Verdict::Improved,
        ClassOrder::Incomparable => Verdict::Changed,
        ClassOrder::Same => match samples {
            None => Verdict::Changed,
            Some(s) => match (s.larger_somewhere, s.smaller_somewhere) {
                (false, false) => Verdict::Unchanged,
                (true, false) => Verdict::Regressed,
                (false, true) => Verdict::Improved,
                (true, true) => match (s.larger_at_scale, s.smaller_at_scale) {
                    (true, false) => Verdict::Regressed,
                    (false, true) => Verdict::Improved,
                    _ => Verdict::Changed,
                },
            },
        },
    };
    let (larger_somewhere, smaller_somewhere) = match samples {
        Some(s) => (s.larger_somewhere, s.smaller_somewhere),
        // Values that cannot be computed: assume the worst for both.
        None => (true, true),
    };
    Comparison {
        class,
        verdict,
        larger_somewhere,
        smaller_somewhere,
    }
}

/// How the class of `new` relates to the class of `old`.
pub fn class_order(old: &CostExpr, new: &CostExpr) -> ClassOrder {
    let old_class = old.dominant_monomials();
    let new_class = new.dominant_monomials();
    let below = |a: &[Monomial], b: &[Monomial]| a.iter().all(|m| b.iter().any(|n| n.dominates(m)));
    match (below(&old_class, &new_class), below(&new_class, &old_class)) {
        (true, true) => ClassOrder::Same,
        (true, false) => ClassOrder::Larger,
        (false, true) => ClassOrder::Smaller,
        (false, false) => ClassOrder::Incomparable,
    }
}

/// Whether `new` is the better of two bounds of the same cost: of a smaller class, or of a class
/// that neither includes but that grows slower (`O(n + s)` rather than `O(n^2)`, where a minimum
/// in the product bound chose `n` over `s`).
pub fn grows_slower(old: &CostExpr, new: &CostExpr) -> bool {
    match class_order(old, new) {
        ClassOrder::Smaller => true,
        ClassOrder::Incomparable => new.growth() < old.growth(),
        ClassOrder::Same | ClassOrder::Larger => false,
    }
}

/// `expr` with its parameters renamed by position: `from[i]` becomes `to[i]`, all at once (so
/// swapping two names works). Names not in `from` stay; lists of different lengths rename nothing.
pub fn rename_parameters(expr: &CostExpr, from: &[String], to: &[String]) -> CostExpr {
    if from.len() != to.len() {
        return expr.clone();
    }
    let map: HashMap<&str, &str> = from
        .iter()
        .map(String::as_str)
        .zip(to.iter().map(String::as_str))
        .collect();
    expr.rename(&|name: &str| map.get(name).map(|n| (*n).to_owned()))
}

/// The parameters an expression mentions.
pub fn parameters(expr: &CostExpr) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let _ = expr.map_linears(&mut |e: &Linear| {
        names.extend(e.vars().map(str::to_owned));
        Some(e.clone())
    });
    names
}

/// The parameters that appear in an exponent (`2^nat(e)`).
fn exponent_parameters(expr: &CostExpr, out: &mut BTreeSet<String>) {
    match expr {
        CostExpr::Pow2(e) => out.extend(e.vars().map(str::to_owned)),
        CostExpr::Add(items) | CostExpr::Mul(items) | CostExpr::Max(items) | CostExpr::Min(items) => {
            items.iter().for_each(|item| exponent_parameters(item, out))
        }
        CostExpr::Const(_) | CostExpr::Nat(_) | CostExpr::Log2(_) => {}
    }
}

/// What sampling found.
#[derive(Clone, Copy, Debug, Default)]
struct Samples {
    larger_somewhere: bool,
    smaller_somewhere: bool,
    /// At the largest scale of some family along which a bound grows (of any family when none
    /// grows), the new bound is larger (smaller).
    larger_at_scale: bool,
    smaller_at_scale: bool,
}

/// Largest exponent `k` of the scales `2^k` for bounds without exponentials, and with them.
const LARGEST_SCALE_EXPONENT: u32 = 200;
const LARGEST_SCALE_EXPONENT_IN_EXPONENTS: u32 = 10;

/// The scales of every family: small values, then powers of two up to `2^largest`.
fn scales(largest: u32) -> Vec<BigInt> {
    let mut out: Vec<BigInt> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 48]
        .into_iter()
        .map(BigInt::from)
        .collect();
    let mut k = 6;
    while k < largest {
        out.push(BigInt::from(1) << k);
        k += if k < 16 { 1 } else { 4 };
    }
    out.push(BigInt::from(1) << largest);
    out
}

/// A family of sample points: each parameter's value is `factor * scale`.
type Family = Vec<(String, i64)>;

fn families(names: &BTreeSet<String>) -> Vec<Family> {
    let all = |k: i64| names.iter().map(|n| (n.clone(), k)).collect::<Family>();
    let mut out = vec![all(1)];
    for name in names {
        out.push(names.iter().map(|n| (n.clone(), i64::from(n == name))).collect());
        if names.len() > 1 {
            out.push(
                names
                    .iter()
                    .map(|n| (n.clone(), if n == name { 2 } else { 1 }))
                    .collect(),
            );
        }
    }
    // Sizes (`|a|`) are never negative; ints may be.
    let ints: Vec<&String> = names.iter().filter(|n| !n.starts_with('|')).collect();
    if !ints.is_empty() {
        out.push(
            names
                .iter()
                .map(|n| (n.clone(), -i64::from(ints.contains(&n))))
                .collect(),
        );
        if ints.len() > 1 || ints.len() < names.len() {
            for name in &ints {
                out.push(names.iter().map(|n| (n.clone(), -i64::from(n == *name))).collect());
            }
        }
    }
    out
}

/// Evaluates both bounds over every family; `None` when a value cannot be computed.
fn sample(old: &CostExpr, new: &CostExpr) -> Option<Samples> {
    let mut names = parameters(old);
    names.extend(parameters(new));
    let mut in_exponents = BTreeSet::new();
    exponent_parameters(old, &mut in_exponents);
    exponent_parameters(new, &mut in_exponents);
    let largest = if in_exponents.is_empty() {
        LARGEST_SCALE_EXPONENT
    } else {
        LARGEST_SCALE_EXPONENT_IN_EXPONENTS
    };
    let scales = scales(largest);
    let mut samples = Samples::default();
    // Whether the new bound is larger (smaller) at the last point of a family along which a bound
    // grows, and of one along which none grows.
    let mut grown = (false, false);
    let mut flat = (false, false);
    for family in families(&names) {
        let mut last = Ordering::Equal;
        let mut first: Option<(BigRational, BigRational)> = None;
        let mut grows = false;
        for scale in &scales {
            let values: HashMap<&str, BigRational> = family
                .iter()
                .map(|(name, factor)| (name.as_str(), BigRational::from_integer(scale * BigInt::from(*factor))))
                .collect();
            let env = |name: &str| values.get(name).cloned();
            let (old_value, new_value) = (old.eval(&env)?, new.eval(&env)?);
            match &first {
                None => first = Some((old_value.clone(), new_value.clone())),
                Some((old_first, new_first)) => grows |= *old_first != old_value || *new_first != new_value,
            }
            let difference = new_value - old_value;
            last = if difference.is_positive() {
                samples.larger_somewhere = true;
                Ordering::Greater
            } else if difference.is_zero() {
                Ordering::Equal
            } else {
                samples.smaller_somewhere = true;
                Ordering::Less
            };
        }
        // Only families along which a bound grows say anything about large inputs (`nat(n)` is
        // constant for negative `n`).
        let tail = if grows { &mut grown } else { &mut flat };
        match last {
            Ordering::Greater => tail.0 = true,
            Ordering::Less => tail.1 = true,
            Ordering::Equal => {}
        }
    }
    let (larger, smaller) = if grown.0 || grown.1 { grown } else { flat };
    samples.larger_at_scale = larger;
    samples.smaller_at_scale = smaller;
    Some(samples)
}
