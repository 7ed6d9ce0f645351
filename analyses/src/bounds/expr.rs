//! Closed-form cost expressions over a method's size parameters: `nat`, `+`, `*`, `max`, `min`,
//! `log2`, `2^`, with exact rational coefficients, exact evaluation, COSTA-style printing and
//! big-O classes.
//!
//! Semantics: `nat(e) = max(e, 0)`; `log2(nat(e)+1)` is the number of bits of `nat(e)`, i.e.
//! `⌈log2(nat(e)+1)⌉`, which bounds the iterations of a loop that halves `e` (a plain real log2
//! would not); `2^nat(e)` is exact. **Every constructor keeps the value of the expression
//! unchanged (normalisation only folds constants and flattens), so evaluation is exact.**

use super::ranking::is_type_range_sized;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;
use std::fmt;

/// A linear expression `c + Σ a_i·v_i` over named size parameters (`n`, `|a|`, ...).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Linear {
    pub constant: BigRational,
    pub terms: BTreeMap<String, BigRational>,
}

impl Linear {
    /// The constant `c`.
    pub fn constant(c: i64) -> Linear {
        Linear {
            constant: BigRational::from_integer(c.into()),
            terms: BTreeMap::new(),
        }
    }

    /// The parameter `name`.
    pub fn var(name: &str) -> Linear {
        let mut terms = BTreeMap::new();
        terms.insert(name.to_owned(), BigRational::one());
        Linear {
            constant: BigRational::zero(),
            terms,
        }
    }

    /// `self + k·other`.
    pub fn add_scaled(&self, other: &Linear, k: &BigRational) -> Linear {
        let mut result = self.clone();
        result.constant += &other.constant * k;
        for (name, a) in &other.terms {
            let entry = result.terms.entry(name.clone()).or_insert_with(BigRational::zero);
            *entry += a * k;
        }
        result.terms.retain(|_, a| !a.is_zero());
        result
    }

    pub fn plus(&self, other: &Linear) -> Linear {
        self.add_scaled(other, &BigRational::one())
    }

    pub fn minus(&self, other: &Linear) -> Linear {
        self.add_scaled(other, &-BigRational::one())
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value at a point, when every parameter has a value.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<BigRational>) -> Option<BigRational> {
        let mut value = self.constant.clone();
        for (name, a) in &self.terms {
            value += a * env(name)?;
        }
        Some(value)
    }

    /// The parameters with a nonzero coefficient.
    pub fn vars(&self) -> impl Iterator<Item = &str> {
        self.terms.keys().map(String::as_str)
    }
}

/// The largest power of two [`CostExpr::eval`] computes exactly (`2^65536` is far above any
/// cost a run can reach).
pub const MAX_EXPONENT: u32 = 1 << 16;

/// A closed-form cost expression. Build it with the constructors, which normalise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CostExpr {
    Const(BigRational),
    /// `nat(e)`.
    Nat(Linear),
    Add(Vec<CostExpr>),
    Mul(Vec<CostExpr>),
    Max(Vec<CostExpr>),
    /// The least of several bounds of the same amount (`min(nat(k+1), nat(|a|))`): each item
    /// bounds it, so its class is the smallest that one item gives the whole expression.
    Min(Vec<CostExpr>),
    /// `log2(nat(e)+1)`, rounded up.
    Log2(Linear),
    /// `2^nat(e)`.
    Pow2(Linear),
}

fn rational(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

impl CostExpr {
    pub fn constant(c: i64) -> CostExpr {
        CostExpr::Const(rational(c))
    }

    pub fn zero() -> CostExpr {
        CostExpr::constant(0)
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, CostExpr::Const(c) if c.is_zero())
    }

    /// `nat(e)`; a constant folds to `max(c, 0)`.
    pub fn nat(e: Linear) -> CostExpr {
        if e.is_constant() {
            return CostExpr::Const(if e.constant.is_negative() {
                BigRational::zero()
            } else {
                e.constant
            });
        }
        CostExpr::Nat(e)
    }

    pub fn log2(e: Linear) -> CostExpr {
        if e.is_constant() {
            return CostExpr::Const(rational(bits(&e.constant)));
        }
        CostExpr::Log2(e)
    }

    pub fn pow2(e: Linear) -> CostExpr {
        if e.is_constant() {
            let exponent = if e.constant.is_negative() {
                0
            } else {
                e.constant.ceil().to_integer().to_u32().unwrap_or(u32::MAX)
            };
            if exponent < 64 {
                return CostExpr::Const(BigRational::from_integer(BigInt::one() << exponent));
            }
        }
        CostExpr::Pow2(e)
    }

    /// The sum, flattened, with constants folded and zeros dropped.
    pub fn add(items: impl IntoIterator<Item = CostExpr>) -> CostExpr {
        let mut constant = BigRational::zero();
        let mut rest = Vec::new();
        for item in items {
            match item {
                CostExpr::Const(c) => constant += c,
                CostExpr::Add(inner) => {
                    for x in inner {
                        match x {
                            CostExpr::Const(c) => constant += c,
                            other => rest.push(other),
                        }
                    }
                }
                other => rest.push(other),
            }
        }
        // Like terms (`k·X` and `k'·X`) merge into `(k + k')·X`, in first-occurrence order.
        let mut merged: Vec<(BigRational, CostExpr)> = Vec::new();
        for term in rest {
            let (coefficient, base) = term.split_coefficient();
            match merged.iter_mut().find(|(_, b)| *b == base) {
                Some((k, _)) => *k += coefficient,
                None => merged.push((coefficient, base)),
            }
        }
        let mut rest: Vec<CostExpr> = merged
            .into_iter()
            .filter(|(k, _)| !k.is_zero())
            .map(|(k, base)| CostExpr::mul([CostExpr::Const(k), base]))
            .collect();
        if !constant.is_zero() {
            rest.insert(0, CostExpr::Const(constant));
        }
        match rest.len() {
            0 => CostExpr::zero(),
            1 => rest.pop().unwrap_or_else(CostExpr::zero),
            _ => CostExpr::Add(rest),
        }
    }

    /// `(k, X)` with `self = k·X` and no constant factor left in `X`.
    fn split_coefficient(self) -> (BigRational, CostExpr) {
        match self {
            CostExpr::Mul(factors) => {
                let mut k = BigRational::one();
                let mut rest = Vec::new();
                for f in factors {
                    match f {
                        CostExpr::Const(c) => k *= c,
                        other => rest.push(other),
                    }
                }
                let base = match rest.len() {
                    0 => CostExpr::Const(BigRational::one()),
                    1 => rest.pop().unwrap_or_else(CostExpr::zero),
                    _ => CostExpr::Mul(rest),
                };
                (k, base)
            }
            other => (BigRational::one(), other),
        }
    }

    /// The product, flattened, with constants folded; a zero factor makes zero.
    pub fn mul(items: impl IntoIterator<Item = CostExpr>) -> CostExpr {
        let mut constant = BigRational::one();
        let mut rest = Vec::new();
        for item in items {
            match item {
                CostExpr::Const(c) => constant *= c,
                CostExpr::Mul(inner) => {
                    for x in inner {
                        match x {
                            CostExpr::Const(c) => constant *= c,
                            other => rest.push(other),
                        }
                    }
                }
                other => rest.push(other),
            }
        }
        if constant.is_zero() {
            return CostExpr::zero();
        }
        if rest.is_empty() {
            return CostExpr::Const(constant);
        }
        if !constant.is_one() {
            rest.insert(0, CostExpr::Const(constant));
        }
        if rest.len() == 1 {
            return rest.pop().unwrap_or_else(CostExpr::zero);
        }
        CostExpr::Mul(rest)
    }

    /// The maximum, flattened, without duplicates; constants are merged into their maximum, and
    /// dropped when another item is syntactically at least as large (all items are non-negative).
    pub fn max(items: impl IntoIterator<Item = CostExpr>) -> CostExpr {
        let (constant, mut rest) = flattened(items, true);
        match constant {
            Some(c) if !c.is_zero() || rest.is_empty() => rest.insert(0, CostExpr::Const(c)),
            _ => {}
        }
        // `c1 + e` and `c2 + e` with the same non-constant part `e`: only the larger constant can
        // be the maximum (a bare `e` has constant 0).
        let split = |x: &CostExpr| -> (BigRational, CostExpr) {
            match x {
                CostExpr::Add(items) => match items.first() {
                    Some(CostExpr::Const(c)) => (c.clone(), CostExpr::add(items[1..].iter().cloned())),
                    _ => (BigRational::zero(), x.clone()),
                },
                CostExpr::Const(c) => (c.clone(), CostExpr::zero()),
                other => (BigRational::zero(), other.clone()),
            }
        };
        let parts: Vec<(BigRational, CostExpr)> = rest.iter().map(split).collect();
        let mut kept: Vec<CostExpr> = Vec::new();
        for (k, (c, e)) in parts.iter().enumerate() {
            let dominated = parts
                .iter()
                .enumerate()
                .any(|(j, (d, f))| f == e && (d > c || (d == c && j < k)));
            if !dominated {
                kept.push(rest[k].clone());
            }
        }
        let mut rest = kept;
        match rest.len() {
            0 => CostExpr::zero(),
            1 => rest.pop().unwrap_or_else(CostExpr::zero),
            _ => CostExpr::Max(rest),
        }
    }

    /// The minimum, flattened, without duplicates; constants are merged into their minimum, and
    /// of `nat(e + c)` with the same `e` only the least `c` stays.
    pub fn min(items: impl IntoIterator<Item = CostExpr>) -> CostExpr {
        let (constant, rest) = flattened(items, false);
        // `nat(e + c)` with the least `c` among those of the same `e`.
        let least = |x: &CostExpr| match x {
            CostExpr::Nat(e) => !rest.iter().any(|y| match y {
                CostExpr::Nat(f) => f.terms == e.terms && f.constant < e.constant,
                _ => false,
            }),
            _ => true,
        };
        let mut rest: Vec<CostExpr> = rest.iter().filter(|x| least(x)).cloned().collect();
        match constant {
            Some(c) if c.is_zero() => return CostExpr::zero(),
            Some(c) => rest.insert(0, CostExpr::Const(c)),
            None => {}
        }
        match rest.len() {
            0 => CostExpr::zero(),
            1 => rest.pop().unwrap_or_else(CostExpr::zero),
            _ => CostExpr::Min(rest),
        }
    }

    /// The exact value at a point (every parameter given), or `None` when a parameter is missing;
    /// a power of two saturates at `2^MAX_EXPONENT`.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<BigRational>) -> Option<BigRational> {
        Some(match self {
            CostExpr::Const(c) => c.clone(),
            CostExpr::Nat(e) => {
                let v = e.eval(env)?;
                if v.is_negative() {
                    BigRational::zero()
                } else {
                    v
                }
            }
            CostExpr::Add(items) => {
                let mut sum = BigRational::zero();
                for item in items {
                    sum += item.eval(env)?;
                }
                sum
            }
            CostExpr::Mul(items) => {
                let mut product = BigRational::one();
                for item in items {
                    product *= item.eval(env)?;
                }
                product
            }
            CostExpr::Max(items) => {
                let mut best = BigRational::zero();
                for item in items {
                    let v = item.eval(env)?;
                    if v > best {
                        best = v;
                    }
                }
                best
            }
            CostExpr::Min(items) => {
                let mut least: Option<BigRational> = None;
                for item in items {
                    let v = item.eval(env)?;
                    if least.as_ref().is_none_or(|l| v < *l) {
                        least = Some(v);
                    }
                }
                least.unwrap_or_else(BigRational::zero)
            }
            CostExpr::Log2(e) => rational(bits(&e.eval(env)?)),
            CostExpr::Pow2(e) => {
                let v = e.eval(env)?;
                // Beyond `2^MAX_EXPONENT` the value saturates: no run measures a cost near it,
                // and the exact power would not fit in memory.
                let exponent = if v.is_negative() {
                    0
                } else {
                    v.ceil().to_integer().to_u32().unwrap_or(u32::MAX).min(MAX_EXPONENT)
                };
                BigRational::from_integer(BigInt::one() << exponent)
            }
        })
    }

    /// The asymptotic class as big-O over the parameters, e.g. `O(1)`, `O(n*m)`, `O(n^2)`,
    /// `O(log(n))`, `O(n*log(n))`, `O(2^n)`; incomparable terms are summed (`O(n + m)`).
    pub fn complexity(&self) -> String {
        let dominant = self.dominant_monomials();
        let text: Vec<String> = dominant.iter().map(Monomial::to_string).collect();
        if text.is_empty() {
            "O(1)".to_owned()
        } else {
            format!("O({})", text.join(" + "))
        }
    }

    /// How fast the expression grows when every parameter has the same size `n` (`O(n*m)` and
    /// `O(n^2)` both grow as `n^2`): the growth of its fastest term.
    pub fn growth(&self) -> Growth {
        self.dominant_monomials()
            .iter()
            .map(Monomial::growth)
            .max()
            .unwrap_or_default()
    }

    /// The monomials no other monomial of the expression dominates, sorted, without duplicates:
    /// the expression's asymptotic class. Each minimum stands for the item that gives the smallest
    /// class (tried together up to [`MAX_MIN_CHOICES`] combinations, else each by itself).
    pub(crate) fn dominant_monomials(&self) -> Vec<Monomial> {
        let sizes = self.min_sizes();
        let combinations = sizes
            .iter()
            .try_fold(1usize, |n, &k| n.checked_mul(k).filter(|n| *n <= MAX_MIN_CHOICES));
        let candidates: Vec<Vec<usize>> = match combinations {
            Some(n) => (0..n)
                .map(|mut code| {
                    sizes
                        .iter()
                        .map(|&k| {
                            let choice = code % k;
                            code /= k;
                            choice
                        })
                        .collect()
                })
                .collect(),
            None => vec![self.local_min_choices()],
        };
        candidates
            .iter()
            .filter(|choices| !self.chooses_type_range_constant(choices))
            .map(|choices| dominant(self.monomials(&mut choices.iter().copied())))
            // Of equal size, the first by name: the class does not depend on the items' order.
            .min_by(|a, b| class_size(a).cmp(&class_size(b)).then_with(|| a.cmp(b)))
            .unwrap_or_else(|| dominant(self.monomials(&mut std::iter::empty())))
    }

    /// Whether `choices` take a constant as large as the types' limits for a minimum that has
    /// other items: `min(nat(|a|), 2147483648)` is O(|a|), not O(1), as the class would otherwise
    /// hide the parameter that the type range stands for.
    fn chooses_type_range_constant(&self, choices: &[usize]) -> bool {
        let mut k = 0;
        let mut found = false;
        self.visit(&mut |e| {
            if let CostExpr::Min(items) = e {
                let chosen = items.get(choices.get(k).copied().unwrap_or(0));
                found |= matches!(chosen, Some(CostExpr::Const(c)) if is_type_range_sized(c));
                k += 1;
            }
        });
        found
    }

    /// The number of items of each minimum, in the order [`CostExpr::monomials`] meets them.
    fn min_sizes(&self) -> Vec<usize> {
        let mut sizes = Vec::new();
        self.visit(&mut |e| {
            if let CostExpr::Min(items) = e {
                sizes.push(items.len());
            }
        });
        sizes
    }

    /// For each minimum, its item of the smallest class on its own.
    fn local_min_choices(&self) -> Vec<usize> {
        let mut choices = Vec::new();
        self.visit(&mut |e| {
            if let CostExpr::Min(items) = e {
                let best = items
                    .iter()
                    .enumerate()
                    .filter(|(_, item)| !matches!(item, CostExpr::Const(c) if is_type_range_sized(c)))
                    .min_by_key(|(_, item)| class_size(&item.dominant_monomials()))
                    .map_or(0, |(k, _)| k);
                choices.push(best);
            }
        });
        choices
    }

    /// Calls `f` on every node, parents before their items (the chosen item of a minimum only
    /// is not singled out: every item is visited).
    fn visit(&self, f: &mut dyn FnMut(&CostExpr)) {
        f(self);
        if let CostExpr::Add(items) | CostExpr::Mul(items) | CostExpr::Max(items) | CostExpr::Min(items) = self {
            items.iter().for_each(|i| i.visit(f));
        }
    }
}

/// Combinations of the items of minima [`CostExpr::dominant_monomials`] compares.
const MAX_MIN_CHOICES: usize = 64;

/// How large a class is, for choosing among minima's items: its fastest growth first, then how
/// many terms and parameters it has.
fn class_size(dominant: &[Monomial]) -> (Growth, usize, usize) {
    let growth = dominant.iter().map(Monomial::growth).max().unwrap_or_default();
    let parameters: std::collections::BTreeSet<&str> = dominant
        .iter()
        .flat_map(|m| m.factors.iter().map(|f| f.0.as_str()))
        .collect();
    (growth, dominant.len(), parameters.len())
}

/// The items of a maximum (`largest`) or minimum, with the nested ones of the same kind spliced
/// in and duplicates dropped, and apart from them the largest (or least) of their constants.
fn flattened(items: impl IntoIterator<Item = CostExpr>, largest: bool) -> (Option<BigRational>, Vec<CostExpr>) {
    let mut constant: Option<BigRational> = None;
    let mut rest: Vec<CostExpr> = Vec::new();
    let mut push = |x: CostExpr, rest: &mut Vec<CostExpr>| match x {
        CostExpr::Const(c) => {
            constant = Some(match constant.take() {
                Some(old) if (old > c) == largest && old != c => old,
                _ => c,
            });
        }
        other => {
            if !rest.contains(&other) {
                rest.push(other);
            }
        }
    };
    for item in items {
        match (item, largest) {
            (CostExpr::Max(inner), true) | (CostExpr::Min(inner), false) => {
                inner.into_iter().for_each(|x| push(x, &mut rest))
            }
            (other, _) => push(other, &mut rest),
        }
    }
    (constant, rest)
}

/// The monomials of `monomials` no other one dominates, sorted, without duplicates.
fn dominant(monomials: Vec<Monomial>) -> Vec<Monomial> {
    let mut dominant: Vec<Monomial> = Vec::new();
    for m in &monomials {
        if monomials.iter().any(|other| other != m && other.dominates(m)) {
            continue;
        }
        if !dominant.contains(m) {
            dominant.push(m.clone());
        }
    }
    dominant.sort();
    dominant
}

impl CostExpr {
    /// The expression as a sum of monomials (asymptotically), ignoring coefficients; each minimum
    /// takes the item `choices` names (in the order of [`CostExpr::visit`]).
    fn monomials(&self, choices: &mut dyn Iterator<Item = usize>) -> Vec<Monomial> {
        match self {
            CostExpr::Const(_) => vec![Monomial::default()],
            CostExpr::Nat(e) => e
                .vars()
                .map(|v| Monomial::power(v, Factor::Poly))
                .collect::<Vec<_>>()
                .or_unit(),
            CostExpr::Log2(e) => e
                .vars()
                .map(|v| Monomial::power(v, Factor::Log))
                .collect::<Vec<_>>()
                .or_unit(),
            CostExpr::Pow2(e) => {
                let vars: Vec<&str> = e.vars().collect();
                if vars.is_empty() {
                    vec![Monomial::default()]
                } else {
                    vec![Monomial {
                        factors: vars.iter().map(|v| ((*v).to_owned(), Factor::Exp, 1)).collect(),
                    }]
                }
            }
            CostExpr::Add(items) | CostExpr::Max(items) => items.iter().flat_map(|i| i.monomials(choices)).collect(),
            CostExpr::Min(items) => {
                let choice = choices.next().unwrap_or(0);
                let all: Vec<Vec<Monomial>> = items.iter().map(|i| i.monomials(choices)).collect();
                all.into_iter().nth(choice).unwrap_or_default()
            }
            CostExpr::Mul(items) => {
                let mut product = vec![Monomial::default()];
                for item in items {
                    let factor = item.monomials(choices);
                    product = product
                        .iter()
                        .flat_map(|a| factor.iter().map(move |b| a.times(b)))
                        .collect();
                }
                product
            }
        }
    }
}

trait OrUnit {
    fn or_unit(self) -> Self;
}

impl OrUnit for Vec<Monomial> {
    fn or_unit(self) -> Self {
        if self.is_empty() {
            vec![Monomial::default()]
        } else {
            self
        }
    }
}

/// The number of bits of `nat(v)`: `⌈log2(nat(v)+1)⌉`, for rationals rounded up first.
fn bits(v: &BigRational) -> i64 {
    if !v.is_positive() {
        return 0;
    }
    let n = v.ceil().to_integer();
    i64::try_from(n.bits()).unwrap_or(i64::MAX)
}

/// A growth class over one size `n`: `2^(e*n) * n^p * log(n)^l`. The order is the order of growth
/// (exponential first, then polynomial, then logarithmic degree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Growth {
    pub exponential: u32,
    pub polynomial: u32,
    pub logarithmic: u32,
}

/// `O(1)`, `O(log n)`, `O(n)`, `O(n log n)`, `O(n^2)`, `O(2^n)`, `O(2^(2n) n)`, ...
impl fmt::Display for Growth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let power = |base: &str, exponent: u32| match exponent {
            0 => None,
            1 => Some(base.to_owned()),
            k => Some(format!("{base}^{k}")),
        };
        let exponential = match self.exponential {
            0 => None,
            1 => Some("2^n".to_owned()),
            k => Some(format!("2^({k}n)")),
        };
        let parts: Vec<String> = [
            exponential,
            power("n", self.polynomial),
            power("log", self.logarithmic).map(|l| format!("{l} n")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            f.write_str("O(1)")
        } else {
            write!(f, "O({})", parts.join(" "))
        }
    }
}

/// The kind of growth a parameter contributes to a monomial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Factor {
    Log,
    Poly,
    Exp,
}

/// A product of growth factors per parameter, e.g. `n^2*log(m)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Monomial {
    /// `(parameter, factor, exponent)`, sorted, one entry per parameter and factor.
    factors: Vec<(String, Factor, u32)>,
}

impl Monomial {
    fn power(var: &str, factor: Factor) -> Monomial {
        Monomial {
            factors: vec![(var.to_owned(), factor, 1)],
        }
    }

    fn times(&self, other: &Monomial) -> Monomial {
        let mut factors = self.factors.clone();
        for (var, factor, exponent) in &other.factors {
            match factors.iter_mut().find(|(v, f, _)| v == var && f == factor) {
                Some(entry) => entry.2 += exponent,
                None => factors.push((var.clone(), *factor, *exponent)),
            }
        }
        factors.sort();
        Monomial { factors }
    }

    /// The monomial's growth with every parameter of the same size.
    fn growth(&self) -> Growth {
        let total = |factor: Factor| self.factors.iter().filter(|(_, f, _)| *f == factor).map(|e| e.2).sum();
        Growth {
            exponential: total(Factor::Exp),
            polynomial: total(Factor::Poly),
            logarithmic: total(Factor::Log),
        }
    }

    /// Whether `self` grows at least as fast as `other` in every parameter.
    pub(crate) fn dominates(&self, other: &Monomial) -> bool {
        let weight = |m: &Monomial, var: &str| -> (u32, u32, u32) {
            let get = |f: Factor| {
                m.factors
                    .iter()
                    .filter(|(v, g, _)| v == var && *g == f)
                    .map(|e| e.2)
                    .sum::<u32>()
            };
            (get(Factor::Exp), get(Factor::Poly), get(Factor::Log))
        };
        other
            .factors
            .iter()
            .all(|(var, _, _)| weight(self, var) >= weight(other, var))
    }
}

impl fmt::Display for Monomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factors.is_empty() {
            return f.write_str("1");
        }
        let mut parts = Vec::new();
        let mut factors = self.factors.clone();
        factors.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        for (var, factor, exponent) in factors {
            let base = match factor {
                Factor::Poly => var.clone(),
                Factor::Log => format!("log({var})"),
                Factor::Exp => format!("2^{var}"),
            };
            parts.push(if exponent == 1 {
                base
            } else {
                format!("{base}^{exponent}")
            });
        }
        f.write_str(&parts.join("*"))
    }
}

fn write_rational(f: &mut fmt::Formatter<'_>, r: &BigRational) -> fmt::Result {
    if r.is_integer() {
        write!(f, "{}", r.to_integer())
    } else {
        write!(f, "{}/{}", r.numer(), r.denom())
    }
}

impl fmt::Display for Linear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (name, a) in &self.terms {
            let magnitude = a.abs();
            if first {
                if a.is_negative() {
                    f.write_str("-")?;
                }
            } else {
                f.write_str(if a.is_negative() { "-" } else { "+" })?;
            }
            if !magnitude.is_one() {
                write_rational(f, &magnitude)?;
                f.write_str("*")?;
            }
            f.write_str(name)?;
            first = false;
        }
        if first {
            return write_rational(f, &self.constant);
        }
        if !self.constant.is_zero() {
            f.write_str(if self.constant.is_negative() { "-" } else { "+" })?;
            write_rational(f, &self.constant.abs())?;
        }
        Ok(())
    }
}

impl fmt::Display for CostExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join =
            |f: &mut fmt::Formatter<'_>, items: &[CostExpr], sep: &str, parenthesise_sums: bool| -> fmt::Result {
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(sep)?;
                    }
                    if parenthesise_sums && matches!(item, CostExpr::Add(_)) {
                        write!(f, "({item})")?;
                    } else {
                        write!(f, "{item}")?;
                    }
                }
                Ok(())
            };
        match self {
            CostExpr::Const(c) => write_rational(f, c),
            CostExpr::Nat(e) => write!(f, "nat({e})"),
            CostExpr::Add(items) => join(f, items, " + ", false),
            CostExpr::Mul(items) => join(f, items, "*", true),
            CostExpr::Max(items) => {
                f.write_str("max(")?;
                join(f, items, ", ", false)?;
                f.write_str(")")
            }
            CostExpr::Min(items) => {
                f.write_str("min(")?;
                join(f, items, ", ", false)?;
                f.write_str(")")
            }
            CostExpr::Log2(e) => write!(f, "log2(nat({e})+1)"),
            CostExpr::Pow2(e) => write!(f, "2^nat({e})"),
        }
    }
}

impl CostExpr {
    /// The names of the parameters the expression mentions.
    pub fn variables(&self) -> std::collections::BTreeSet<String> {
        let mut names = std::collections::BTreeSet::new();
        self.map_linears(&mut |l: &Linear| {
            names.extend(l.vars().map(str::to_owned));
            Some(l.clone())
        });
        names
    }

    /// The expression with every leaf (a constant, `nat`, `log2` or `2^`) replaced by `f(leaf)`,
    /// or `None` when `f` fails for one; sums, products, maxima and minima are rebuilt around the
    /// results. A minimum keeps the items for which `f` succeeds (and fails only when it fails
    /// for all): every caller maps leaves to upper bounds, and the least of some items' upper
    /// bounds is at least the least of all items.
    pub(crate) fn map_leaves(&self, f: &mut dyn FnMut(&CostExpr) -> Option<CostExpr>) -> Option<CostExpr> {
        let mut all = |items: &[CostExpr]| items.iter().map(|i| i.map_leaves(f)).collect::<Option<Vec<_>>>();
        Some(match self {
            CostExpr::Add(items) => CostExpr::add(all(items)?),
            CostExpr::Mul(items) => CostExpr::mul(all(items)?),
            CostExpr::Max(items) => CostExpr::max(all(items)?),
            CostExpr::Min(items) => {
                let mapped: Vec<CostExpr> = items.iter().filter_map(|i| i.map_leaves(f)).collect();
                if mapped.is_empty() {
                    return None;
                }
                CostExpr::min(mapped)
            }
            leaf => f(leaf)?,
        })
    }

    /// The largest magnitude of the constant of a linear argument that also has terms
    /// (`nat(n + 2147483712)`): a number that size comes from a type's limit, not from the
    /// program, when a ranking function starts from a wrapped value. Zero when there is none.
    pub fn largest_offset(&self) -> BigRational {
        let mut largest = BigRational::zero();
        let _ = self.map_linears(&mut |e| {
            let c = num_traits::Signed::abs(&e.constant);
            if !e.terms.is_empty() && c > largest {
                largest = c;
            }
            Some(e.clone())
        });
        largest
    }

    /// The largest magnitude by which the expression weighs something that grows with the
    /// parameters: a constant factor of a product that is not constant, or a coefficient of a
    /// parameter in a linear argument. Zero for a constant expression.
    pub fn largest_weight(&self) -> BigRational {
        let larger = |a: BigRational, b: BigRational| if b > a { b } else { a };
        match self {
            CostExpr::Const(_) => BigRational::zero(),
            CostExpr::Nat(e) | CostExpr::Log2(e) | CostExpr::Pow2(e) => e
                .terms
                .values()
                .map(num_traits::Signed::abs)
                .fold(BigRational::zero(), larger),
            CostExpr::Add(items) | CostExpr::Max(items) => items
                .iter()
                .map(CostExpr::largest_weight)
                .fold(BigRational::zero(), larger),
            // The minimum is at most its least weighed item.
            CostExpr::Min(items) => items
                .iter()
                .map(CostExpr::largest_weight)
                .min()
                .unwrap_or_else(BigRational::zero),
            CostExpr::Mul(items) => {
                let inner = items
                    .iter()
                    .map(CostExpr::largest_weight)
                    .fold(BigRational::zero(), larger);
                let factor = items
                    .iter()
                    .filter_map(|i| match i {
                        CostExpr::Const(c) => Some(num_traits::Signed::abs(c)),
                        _ => None,
                    })
                    .fold(BigRational::one(), |a, b| a * b);
                let grows = items.iter().any(|i| !matches!(i, CostExpr::Const(_)));
                match grows {
                    true => larger(inner, factor),
                    false => inner,
                }
            }
        }
    }

    /// The expression with every linear argument `e` (of `nat`, `log2`, `2^`) replaced by `f(e)`,
    /// or `None` when `f` fails for one. Since all three are monotone in `e`, replacing each `e`
    /// by an upper bound gives an upper bound.
    pub fn map_linears(&self, f: &mut dyn FnMut(&Linear) -> Option<Linear>) -> Option<CostExpr> {
        self.map_leaves(&mut |leaf| {
            Some(match leaf {
                CostExpr::Nat(e) => CostExpr::nat(f(e)?),
                CostExpr::Log2(e) => CostExpr::log2(f(e)?),
                CostExpr::Pow2(e) => CostExpr::pow2(f(e)?),
                other => other.clone(),
            })
        })
    }

    /// The expression with parameter `name`, known to lie in `[0, upper]`, eliminated: in each
    /// `nat(e + a·name)`, a term with `a ≤ 0` is dropped (`e + a·name ≤ e`) and one with `a > 0`
    /// becomes `nat(e) + a·upper` (`nat` is subadditive). Sound because every constructor is
    /// monotone in its `nat` arguments; `None` when `name` occurs with a positive coefficient
    /// under `log2` or `2^`, where no such split is written.
    pub fn eliminate_bounded(&self, name: &str, upper: &CostExpr) -> Option<CostExpr> {
        let split = |e: &Linear| -> (Linear, BigRational) {
            let mut rest = e.clone();
            let a = rest.terms.remove(name).unwrap_or_else(BigRational::zero);
            (rest, a)
        };
        self.map_leaves(&mut |leaf| {
            Some(match leaf {
                CostExpr::Nat(e) => match split(e) {
                    (rest, a) if a.is_positive() => {
                        CostExpr::add([CostExpr::nat(rest), CostExpr::mul([CostExpr::Const(a), upper.clone()])])
                    }
                    (rest, _) => CostExpr::nat(rest),
                },
                CostExpr::Log2(e) | CostExpr::Pow2(e) if split(e).1.is_positive() => return None,
                CostExpr::Log2(e) => CostExpr::log2(split(e).0),
                CostExpr::Pow2(e) => CostExpr::pow2(split(e).0),
                other => other.clone(),
            })
        })
    }

    /// The expression with each minimum cut to its first `items` items: at least the expression
    /// (a minimum of fewer items is no smaller), and as many items as a caller keeps.
    pub fn with_minima_cut(&self, items: usize) -> CostExpr {
        match self {
            CostExpr::Add(xs) => CostExpr::add(xs.iter().map(|x| x.with_minima_cut(items))),
            CostExpr::Mul(xs) => CostExpr::mul(xs.iter().map(|x| x.with_minima_cut(items))),
            CostExpr::Max(xs) => CostExpr::max(xs.iter().map(|x| x.with_minima_cut(items))),
            CostExpr::Min(xs) => CostExpr::min(xs.iter().take(items.max(1)).map(|x| x.with_minima_cut(items))),
            leaf => leaf.clone(),
        }
    }

    /// Renames parameters (those `rename` maps; others stay).
    pub fn rename(&self, rename: &dyn Fn(&str) -> Option<String>) -> CostExpr {
        let mut f = |e: &Linear| -> Option<Linear> {
            let mut out = Linear {
                constant: e.constant.clone(),
                terms: BTreeMap::new(),
            };
            for (name, a) in &e.terms {
                let new = rename(name).unwrap_or_else(|| name.clone());
                let entry = out.terms.entry(new).or_insert_with(BigRational::zero);
                *entry += a;
            }
            out.terms.retain(|_, a| !a.is_zero());
            Some(out)
        };
        self.map_linears(&mut f).unwrap_or_else(|| self.clone())
    }
}
