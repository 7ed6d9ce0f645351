//! Linear expressions and constraints with 64-bit integer coefficients: construction, checked
//! arithmetic, normalisation by the gcd, exact combination, evaluation and printing.

use super::number::{gcd_u128, gcd_u64};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::fmt;

/// A dimension (a program variable) of a polyhedron: dimensions of an `n`-dimensional polyhedron
/// are `0..n`.
pub type Dimension = usize;

/// The affine expression `Σ coefficient_d · x_d + constant` with 64-bit integer coefficients.
///
/// **The coefficient vector never ends in a zero**, so two expressions are equal exactly when
/// they are equal as functions, and an expression does not depend on the number of dimensions of
/// the polyhedron it is used with: missing coefficients are zero.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(from = "LinearParts")]
pub struct LinearExpr {
    coefficients: Vec<i64>,
    constant: i64,
}

/// A `LinearExpr` as stored: read back through [`LinearExpr::new`], which normalises it.
#[derive(serde::Deserialize)]
struct LinearParts {
    coefficients: Vec<i64>,
    constant: i64,
}

impl From<LinearParts> for LinearExpr {
    fn from(parts: LinearParts) -> LinearExpr {
        LinearExpr::new(parts.coefficients, parts.constant)
    }
}

impl LinearExpr {
    /// The expression with coefficient `coefficients[d]` for dimension `d` and the given constant.
    pub fn new(mut coefficients: Vec<i64>, constant: i64) -> Self {
        while coefficients.last() == Some(&0) {
            coefficients.pop();
        }
        LinearExpr { coefficients, constant }
    }

    /// The constant expression `constant`.
    pub fn constant(constant: i64) -> Self {
        LinearExpr {
            coefficients: Vec::new(),
            constant,
        }
    }

    /// The expression `x_dimension`.
    pub fn variable(dimension: Dimension) -> Self {
        let mut coefficients = vec![0; dimension + 1];
        coefficients[dimension] = 1;
        LinearExpr {
            coefficients,
            constant: 0,
        }
    }

    /// The expression `Σ coefficient · x_dimension + constant`; repeated dimensions add up.
    /// `None` when such a sum overflows 64 bits.
    pub fn from_terms(terms: &[(Dimension, i64)], constant: i64) -> Option<Self> {
        let length = terms
            .iter()
            .filter(|(_, coefficient)| *coefficient != 0)
            .map(|(dimension, _)| dimension + 1)
            .max()
            .unwrap_or(0);
        let mut coefficients = vec![0i64; length];
        for &(dimension, coefficient) in terms {
            if coefficient != 0 {
                coefficients[dimension] = coefficients[dimension].checked_add(coefficient)?;
            }
        }
        Some(LinearExpr::new(coefficients, constant))
    }

    /// The coefficient of `dimension` (zero beyond the stored ones).
    pub fn coefficient(&self, dimension: Dimension) -> i64 {
        self.coefficients.get(dimension).copied().unwrap_or(0)
    }

    /// The coefficients, indexed by dimension, without trailing zeros.
    pub fn coefficients(&self) -> &[i64] {
        &self.coefficients
    }

    /// The constant term.
    pub fn constant_term(&self) -> i64 {
        self.constant
    }

    /// The nonzero terms `(dimension, coefficient)` in increasing dimension order.
    pub fn terms(&self) -> impl Iterator<Item = (Dimension, i64)> + '_ {
        self.coefficients
            .iter()
            .enumerate()
            .filter(|(_, coefficient)| **coefficient != 0)
            .map(|(dimension, coefficient)| (dimension, *coefficient))
    }

    /// Whether every coefficient is zero.
    pub fn is_constant(&self) -> bool {
        self.coefficients.is_empty()
    }

    /// One more than the largest dimension with a nonzero coefficient (zero for a constant).
    pub fn dimension_bound(&self) -> usize {
        self.coefficients.len()
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(&self, other: &LinearExpr) -> Option<LinearExpr> {
        let length = self.coefficients.len().max(other.coefficients.len());
        let mut coefficients = Vec::with_capacity(length);
        for dimension in 0..length {
            coefficients.push(self.coefficient(dimension).checked_add(other.coefficient(dimension))?);
        }
        Some(LinearExpr::new(
            coefficients,
            self.constant.checked_add(other.constant)?,
        ))
    }

    /// `self - other`, or `None` on overflow.
    pub fn checked_sub(&self, other: &LinearExpr) -> Option<LinearExpr> {
        self.checked_add(&other.checked_neg()?)
    }

    /// `-self`, or `None` on overflow (only when some number is `i64::MIN`).
    pub fn checked_neg(&self) -> Option<LinearExpr> {
        self.checked_scale(-1)
    }

    /// `factor · self`, or `None` on overflow.
    pub fn checked_scale(&self, factor: i64) -> Option<LinearExpr> {
        let coefficients = self
            .coefficients
            .iter()
            .map(|coefficient| coefficient.checked_mul(factor))
            .collect::<Option<Vec<i64>>>()?;
        Some(LinearExpr::new(coefficients, self.constant.checked_mul(factor)?))
    }

    /// The value at a rational point; dimensions beyond the point's length count as zero.
    pub fn evaluate(&self, point: &[BigRational]) -> BigRational {
        let mut sum = BigRational::from_integer(BigInt::from(self.constant));
        for (dimension, coefficient) in self.terms() {
            if let Some(value) = point.get(dimension) {
                sum += value * BigRational::from_integer(BigInt::from(coefficient));
            }
        }
        sum
    }

    /// The value at an integer point; dimensions beyond the point's length count as zero.
    pub fn evaluate_integers(&self, point: &[i64]) -> BigInt {
        let mut sum = BigInt::from(self.constant);
        for (dimension, coefficient) in self.terms() {
            if let Some(value) = point.get(dimension) {
                sum += BigInt::from(*value) * BigInt::from(coefficient);
            }
        }
        sum
    }

    /// The expression with dimensions renamed by `rename` (dimension `d` becomes `rename(d)`).
    /// `None` when a dimension has no new name or two dimensions merge with overflow.
    pub(crate) fn renamed(&self, rename: impl Fn(Dimension) -> Option<Dimension>) -> Option<LinearExpr> {
        let mut terms = Vec::with_capacity(self.coefficients.len());
        for (dimension, coefficient) in self.terms() {
            terms.push((rename(dimension)?, coefficient));
        }
        LinearExpr::from_terms(&terms, self.constant)
    }

    /// A printable form that names dimension `d` by `names(d)`, such as `x - 2*y + 3`.
    pub fn display_with<'a, F: Fn(Dimension) -> String + 'a>(&'a self, names: F) -> impl fmt::Display + 'a {
        DisplayExpression {
            expression: self,
            names,
        }
    }
}

/// Writes `Σ a_d·x_d` (without the constant) readably: `x - 2*y`, or `0` when there is no term.
fn write_terms(
    formatter: &mut fmt::Formatter<'_>,
    terms: impl Iterator<Item = (Dimension, i128)>,
    names: &dyn Fn(Dimension) -> String,
) -> fmt::Result {
    let mut first = true;
    for (dimension, coefficient) in terms {
        let magnitude = coefficient.unsigned_abs();
        if first {
            if coefficient < 0 {
                write!(formatter, "-")?;
            }
        } else if coefficient < 0 {
            write!(formatter, " - ")?;
        } else {
            write!(formatter, " + ")?;
        }
        if magnitude != 1 {
            write!(formatter, "{magnitude}*")?;
        }
        write!(formatter, "{}", names(dimension))?;
        first = false;
    }
    if first {
        write!(formatter, "0")?;
    }
    Ok(())
}

struct DisplayExpression<'a, F> {
    expression: &'a LinearExpr,
    names: F,
}

impl<F: Fn(Dimension) -> String> fmt::Display for DisplayExpression<'_, F> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = self
            .expression
            .terms()
            .map(|(dimension, coefficient)| (dimension, i128::from(coefficient)));
        if self.expression.is_constant() {
            return write!(formatter, "{}", self.expression.constant);
        }
        write_terms(formatter, terms, &self.names)?;
        let constant = self.expression.constant;
        match constant.cmp(&0) {
            std::cmp::Ordering::Greater => write!(formatter, " + {constant}"),
            std::cmp::Ordering::Less => write!(formatter, " - {}", constant.unsigned_abs()),
            std::cmp::Ordering::Equal => Ok(()),
        }
    }
}

/// How a constraint relates its expression to zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Relation {
    /// `expression = 0`.
    Equal,
    /// `expression ≥ 0`.
    GreaterOrEqual,
}

/// The linear constraint `expression = 0` or `expression ≥ 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Constraint {
    expression: LinearExpr,
    relation: Relation,
}

impl Constraint {
    /// The constraint `expression relation 0`.
    pub fn new(expression: LinearExpr, relation: Relation) -> Self {
        Constraint { expression, relation }
    }

    /// `expression ≥ 0`.
    pub fn greater_or_equal_zero(expression: LinearExpr) -> Self {
        Constraint::new(expression, Relation::GreaterOrEqual)
    }

    /// `expression = 0`.
    pub fn equal_zero(expression: LinearExpr) -> Self {
        Constraint::new(expression, Relation::Equal)
    }

    /// `left ≥ right`, or `None` when `left - right` overflows.
    pub fn greater_or_equal(left: &LinearExpr, right: &LinearExpr) -> Option<Self> {
        Some(Constraint::greater_or_equal_zero(left.checked_sub(right)?))
    }

    /// `left ≤ right`, or `None` when `right - left` overflows.
    pub fn less_or_equal(left: &LinearExpr, right: &LinearExpr) -> Option<Self> {
        Constraint::greater_or_equal(right, left)
    }

    /// `left = right`, or `None` when `left - right` overflows.
    pub fn equal(left: &LinearExpr, right: &LinearExpr) -> Option<Self> {
        Some(Constraint::equal_zero(left.checked_sub(right)?))
    }

    /// The expression compared with zero.
    pub fn expression(&self) -> &LinearExpr {
        &self.expression
    }

    /// The comparison with zero.
    pub fn relation(&self) -> Relation {
        self.relation
    }

    /// Whether this is an equality.
    pub fn is_equality(&self) -> bool {
        self.relation == Relation::Equal
    }

    /// Whether a rational point satisfies the constraint exactly.
    pub fn is_satisfied_by(&self, point: &[BigRational]) -> bool {
        let value = self.expression.evaluate(point);
        match self.relation {
            Relation::Equal => value.is_zero(),
            Relation::GreaterOrEqual => !value.is_negative(),
        }
    }

    /// Whether an integer point satisfies the constraint exactly.
    pub fn is_satisfied_by_integers(&self, point: &[i64]) -> bool {
        let value = self.expression.evaluate_integers(point);
        match self.relation {
            Relation::Equal => value.is_zero(),
            Relation::GreaterOrEqual => !value.is_negative(),
        }
    }

    /// The two inequalities `e ≥ 0` and `-e ≥ 0` of an equality, or the inequality itself.
    /// Returns only the inequality `e ≥ 0` half when `-e` overflows, which never happens for the
    /// normalised constraints a polyhedron stores.
    pub(crate) fn split_into_inequalities(&self) -> Vec<Constraint> {
        match self.relation {
            Relation::GreaterOrEqual => vec![self.clone()],
            Relation::Equal => {
                let mut halves = vec![Constraint::greater_or_equal_zero(self.expression.clone())];
                if let Some(negated) = self.expression.checked_neg() {
                    halves.push(Constraint::greater_or_equal_zero(negated));
                }
                halves
            }
        }
    }

    pub(crate) fn with_expression(&self, expression: LinearExpr) -> Constraint {
        Constraint::new(expression, self.relation)
    }

    /// Normalises the constraint (see [`Normalization`]).
    pub(crate) fn normalized(&self, normalization: Normalization) -> Normalized {
        let expression = &self.expression;
        if expression.is_constant() {
            let holds = match self.relation {
                Relation::Equal => expression.constant == 0,
                Relation::GreaterOrEqual => expression.constant >= 0,
            };
            return if holds {
                Normalized::AlwaysTrue
            } else {
                Normalized::AlwaysFalse
            };
        }
        let coefficient_gcd = expression
            .coefficients
            .iter()
            .fold(0u64, |gcd, coefficient| gcd_u64(gcd, coefficient.unsigned_abs()));
        // `coefficient_gcd` is at least 1 because some coefficient is nonzero, and at most 2^63.
        let divisor = i128::from(coefficient_gcd);
        let constant = i128::from(expression.constant);
        let (divisor, new_constant) = match (normalization, self.relation) {
            (Normalization::Rational, _) => {
                let all_gcd = gcd_u128(divisor as u128, constant.unsigned_abs()) as i128;
                (all_gcd, constant / all_gcd)
            }
            (Normalization::Integral, Relation::GreaterOrEqual) => (divisor, constant.div_euclid(divisor)),
            (Normalization::Integral, Relation::Equal) => {
                if constant % divisor != 0 {
                    // `a·x + c = 0` with `gcd(a)` not dividing `c` has no integer solution.
                    return Normalized::AlwaysFalse;
                }
                (divisor, constant / divisor)
            }
        };
        let mut coefficients: Vec<i128> = expression
            .coefficients
            .iter()
            .map(|coefficient| i128::from(*coefficient) / divisor)
            .collect();
        let mut new_constant = new_constant;
        if self.relation == Relation::Equal
            && coefficients
                .iter()
                .find(|coefficient| **coefficient != 0)
                .is_some_and(|coefficient| *coefficient < 0)
        {
            for coefficient in &mut coefficients {
                *coefficient = -*coefficient;
            }
            new_constant = -new_constant;
        }
        match narrow_expression(&coefficients, new_constant) {
            Some(expression) => Normalized::Constraint(Constraint::new(expression, self.relation)),
            None => Normalized::Unrepresentable,
        }
    }

    /// A printable form such as `x - y >= 1`, `x <= 5` or `x + y = 3`, naming dimension `d` by `names(d)`.
    pub fn display_with<'a, F: Fn(Dimension) -> String + 'a>(&'a self, names: F) -> impl fmt::Display + 'a {
        DisplayConstraint {
            constraint: self,
            names,
        }
    }
}

struct DisplayConstraint<'a, F> {
    constraint: &'a Constraint,
    names: F,
}

impl<F: Fn(Dimension) -> String> fmt::Display for DisplayConstraint<'_, F> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expression = &self.constraint.expression;
        let relation = self.constraint.relation;
        // `a·x + c ≥ 0` prints as `a·x >= -c`; when the first coefficient is negative it prints
        // as `-a·x <= c` instead, which reads more naturally (`x <= 5` rather than `-x >= -5`).
        let negate = expression
            .terms()
            .next()
            .is_some_and(|(_, coefficient)| coefficient < 0);
        let sign: i128 = if negate { -1 } else { 1 };
        let terms = expression
            .terms()
            .map(|(dimension, coefficient)| (dimension, sign * i128::from(coefficient)));
        write_terms(formatter, terms, &self.names)?;
        let right_side = -sign * i128::from(expression.constant);
        let symbol = match (relation, negate) {
            (Relation::Equal, _) => "=",
            (Relation::GreaterOrEqual, false) => ">=",
            (Relation::GreaterOrEqual, true) => "<=",
        };
        write!(formatter, " {symbol} {right_side}")
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.display_with(|dimension| format!("x{dimension}")))
    }
}

impl fmt::Display for LinearExpr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.display_with(|dimension| format!("x{dimension}")))
    }
}

/// How a constraint is normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Normalization {
    /// Divide coefficients and constant by their common gcd: the rational solutions stay the same.
    /// Used inside projections and hulls, whose auxiliary variables are rational.
    Rational,
    /// Divide the coefficients by their gcd `g` and round the constant of an inequality down
    /// (`2x - 1 ≥ 0` becomes `x - 1 ≥ 0`); an equality whose constant `g` does not divide is
    /// false. The integer solutions stay the same; non-integer ones may go. Used for the
    /// constraints a polyhedron stores, whose dimensions are integer program variables.
    Integral,
}

/// The outcome of normalising one constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Normalized {
    /// A normalised constraint: **no coefficient and no constant is `i64::MIN`, the first nonzero
    /// coefficient of an equality is positive, and the expression is not constant.**
    Constraint(Constraint),
    /// The constraint holds everywhere.
    AlwaysTrue,
    /// The constraint holds nowhere (over the rationals, or over the integers when tightening).
    AlwaysFalse,
    /// A number is `i64::MIN` even after division; callers drop such a constraint, which only
    /// enlarges the set it describes.
    Unrepresentable,
}

/// Narrows a 128-bit coefficient vector and constant to a 64-bit expression; `None` when some
/// number does not fit or is `i64::MIN`.
fn narrow_expression(coefficients: &[i128], constant: i128) -> Option<LinearExpr> {
    let limit = i128::from(i64::MAX);
    let narrow = |value: i128| -> Option<i64> {
        if value > limit || value < -limit {
            None
        } else {
            Some(value as i64)
        }
    };
    let coefficients = coefficients
        .iter()
        .map(|coefficient| narrow(*coefficient))
        .collect::<Option<Vec<i64>>>()?;
    Some(LinearExpr::new(coefficients, narrow(constant)?))
}

/// `first_multiplier · first + second_multiplier · second`, divided by the gcd of all its numbers.
///
/// The multipliers must be at most `i64::MAX` in magnitude and the expressions free of
/// `i64::MIN`: then every product is below 2^126 and every sum below 2^127, so the 128-bit
/// computation cannot overflow. `None` when the reduced result does not fit 64 bits; **callers
/// drop such a derived constraint, which is sound only because every caller derives constraints
/// for an over-approximation (a projection or a hull).**
pub(crate) fn combine(
    first: &LinearExpr,
    first_multiplier: i64,
    second: &LinearExpr,
    second_multiplier: i64,
) -> Option<LinearExpr> {
    let length = first.coefficients.len().max(second.coefficients.len());
    let (first_multiplier, second_multiplier) = (i128::from(first_multiplier), i128::from(second_multiplier));
    let mut coefficients = Vec::with_capacity(length);
    let mut divisor: u128 = 0;
    for dimension in 0..length {
        let value = first_multiplier * i128::from(first.coefficient(dimension))
            + second_multiplier * i128::from(second.coefficient(dimension));
        divisor = gcd_u128(divisor, value.unsigned_abs());
        coefficients.push(value);
    }
    let constant = first_multiplier * i128::from(first.constant) + second_multiplier * i128::from(second.constant);
    divisor = gcd_u128(divisor, constant.unsigned_abs());
    if divisor > 1 {
        // The divisor divides a value below 2^127 in magnitude, so it fits in i128.
        let divisor = divisor as i128;
        for value in &mut coefficients {
            *value /= divisor;
        }
        return narrow_expression(&coefficients, constant / divisor);
    }
    narrow_expression(&coefficients, constant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_normalisation_tightens_inequalities_only() {
        let two_x_minus_one = Constraint::greater_or_equal_zero(LinearExpr::new(vec![2], -1));
        assert_eq!(
            two_x_minus_one.normalized(Normalization::Integral),
            Normalized::Constraint(Constraint::greater_or_equal_zero(LinearExpr::new(vec![1], -1)))
        );
        assert_eq!(
            two_x_minus_one.normalized(Normalization::Rational),
            Normalized::Constraint(two_x_minus_one.clone())
        );
        let equality = Constraint::equal_zero(LinearExpr::new(vec![-2, 4], 1));
        assert_eq!(equality.normalized(Normalization::Integral), Normalized::AlwaysFalse);
        assert_eq!(
            equality.normalized(Normalization::Rational),
            Normalized::Constraint(Constraint::equal_zero(LinearExpr::new(vec![2, -4], -1)))
        );
    }

    #[test]
    fn combination_reduces_and_reports_overflow() {
        let first = LinearExpr::new(vec![2, 4], 6);
        let second = LinearExpr::new(vec![-1, 0], 1);
        assert_eq!(combine(&first, 1, &second, 2), Some(LinearExpr::new(vec![0, 1], 2)));
        let large = LinearExpr::new(vec![i64::MAX, 0], 0);
        let small = LinearExpr::new(vec![0, 3], 0);
        assert_eq!(combine(&large, 2, &small, 1), None);
        assert_eq!(combine(&large, 3, &large, 0), Some(LinearExpr::new(vec![1], 0)));
    }
}
