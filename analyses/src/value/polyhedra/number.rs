//! Exact rational scalars for the simplex: a fast 64-bit fraction that reports overflow, the
//! unbounded big fraction, and the adaptive number the simplex computes with, which is the fast
//! fraction until a value outgrows it and the big one only for such values.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt::Debug;

/// An exact rational number type the simplex can compute with.
///
/// **Every operation is exact or reports `None`; none rounds and none panics.** `None` means the
/// result does not fit the representation (or, for division, that the divisor is zero); the
/// adaptive representation then redoes that one operation over big rationals.
pub(crate) trait Scalar: Clone + Ord + Debug {
    /// The integer `value`, or `None` when it does not fit.
    fn from_integer(value: i64) -> Option<Self>;
    /// Zero.
    fn zero() -> Self;
    /// Whether the value is zero.
    fn is_zero(&self) -> bool;
    /// Whether the value is strictly positive.
    fn is_positive(&self) -> bool;
    /// Whether the value is strictly negative.
    fn is_negative(&self) -> bool;
    /// The exact sum.
    fn checked_add(&self, other: &Self) -> Option<Self>;
    /// The exact difference.
    fn checked_sub(&self, other: &Self) -> Option<Self>;
    /// The exact product.
    fn checked_mul(&self, other: &Self) -> Option<Self>;
    /// The exact quotient; `None` also when `other` is zero.
    fn checked_div(&self, other: &Self) -> Option<Self>;
    /// The exact negation.
    fn checked_neg(&self) -> Option<Self>;
    /// The same value as an unbounded rational.
    fn to_big_rational(&self) -> BigRational;
}

/// The greatest common divisor of two unsigned 64-bit integers (binary algorithm); `gcd(0, 0)` is 0.
pub(crate) fn gcd_u64(mut first: u64, mut second: u64) -> u64 {
    if first == 0 {
        return second;
    }
    if second == 0 {
        return first;
    }
    let shift = (first | second).trailing_zeros();
    first >>= first.trailing_zeros();
    loop {
        second >>= second.trailing_zeros();
        if first > second {
            std::mem::swap(&mut first, &mut second);
        }
        second -= first;
        if second == 0 {
            return first << shift;
        }
    }
}

/// The greatest common divisor of two unsigned 128-bit integers (binary algorithm); `gcd(0, 0)` is 0.
pub(crate) fn gcd_u128(mut first: u128, mut second: u128) -> u128 {
    if first == 0 {
        return second;
    }
    if second == 0 {
        return first;
    }
    if first <= u128::from(u64::MAX) && second <= u128::from(u64::MAX) {
        // Both fit in 64 bits, where the loop is several times faster.
        return u128::from(gcd_u64(first as u64, second as u64));
    }
    let shift = (first | second).trailing_zeros();
    first >>= first.trailing_zeros();
    loop {
        second >>= second.trailing_zeros();
        if first > second {
            std::mem::swap(&mut first, &mut second);
        }
        second -= first;
        if second == 0 {
            return first << shift;
        }
    }
}

/// A fraction of two 64-bit integers.
///
/// **Invariants: the denominator is positive, numerator and denominator are coprime, and neither
/// is `i64::MIN`** (so negation never overflows). Intermediate results are computed in 128 bits,
/// where products of two such numbers cannot overflow, then reduced and narrowed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SmallRational {
    numerator: i64,
    denominator: i64,
}

impl SmallRational {
    /// Narrows an already reduced fraction with a positive denominator back to 64 bits.
    fn narrow(numerator: i128, denominator: i128) -> Option<Self> {
        let limit = i128::from(i64::MAX);
        if numerator > limit || numerator < -limit || denominator > limit || denominator <= 0 {
            return None;
        }
        Some(SmallRational {
            numerator: numerator as i64,
            denominator: denominator as i64,
        })
    }

    /// Reduces a fraction with a nonzero denominator and narrows it.
    #[cfg(test)]
    fn reduce_and_narrow(numerator: i128, denominator: i128) -> Option<Self> {
        if denominator == 0 {
            return None;
        }
        let divisor = gcd_u128(numerator.unsigned_abs(), denominator.unsigned_abs()) as i128;
        // `divisor` is at least 1 because the denominator is nonzero, and it fits in i128 because it
        // divides the denominator, which is at most 2^127 - 1 in magnitude here.
        let (mut numerator, mut denominator) = (numerator / divisor, denominator / divisor);
        if denominator < 0 {
            numerator = numerator.checked_neg()?;
            denominator = denominator.checked_neg()?;
        }
        Self::narrow(numerator, denominator)
    }
}

impl PartialOrd for SmallRational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SmallRational {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.denominator == other.denominator {
            return self.numerator.cmp(&other.numerator);
        }
        let left = i128::from(self.numerator) * i128::from(other.denominator);
        let right = i128::from(other.numerator) * i128::from(self.denominator);
        left.cmp(&right)
    }
}

impl Scalar for SmallRational {
    fn from_integer(value: i64) -> Option<Self> {
        Self::narrow(i128::from(value), 1)
    }

    fn zero() -> Self {
        SmallRational {
            numerator: 0,
            denominator: 1,
        }
    }

    fn is_zero(&self) -> bool {
        self.numerator == 0
    }

    fn is_positive(&self) -> bool {
        self.numerator > 0
    }

    fn is_negative(&self) -> bool {
        self.numerator < 0
    }

    fn checked_add(&self, other: &Self) -> Option<Self> {
        if self.numerator == 0 {
            return Some(*other);
        }
        if other.numerator == 0 {
            return Some(*self);
        }
        if self.denominator == 1 && other.denominator == 1 {
            return Self::narrow(i128::from(self.numerator) + i128::from(other.numerator), 1);
        }
        // Knuth's addition of reduced fractions: only the common factor of the denominators can
        // cancel, so the reduction needs one small gcd.
        let common = i128::from(gcd_u64(self.denominator as u64, other.denominator as u64));
        let self_denominator = i128::from(self.denominator);
        let other_denominator = i128::from(other.denominator);
        if common == 1 {
            let numerator =
                i128::from(self.numerator) * other_denominator + i128::from(other.numerator) * self_denominator;
            return Self::narrow(numerator, self_denominator * other_denominator);
        }
        let numerator = i128::from(self.numerator) * (other_denominator / common)
            + i128::from(other.numerator) * (self_denominator / common);
        let second_common = gcd_u128(numerator.unsigned_abs(), common as u128) as i128;
        Self::narrow(
            numerator / second_common,
            (self_denominator / common) * (other_denominator / second_common),
        )
    }

    fn checked_sub(&self, other: &Self) -> Option<Self> {
        self.checked_add(&other.checked_neg()?)
    }

    fn checked_mul(&self, other: &Self) -> Option<Self> {
        if self.numerator == 0 || other.numerator == 0 {
            return Some(Self::zero());
        }
        if self.denominator == 1 && other.denominator == 1 {
            return Self::narrow(i128::from(self.numerator) * i128::from(other.numerator), 1);
        }
        let first_common = gcd_u64(self.numerator.unsigned_abs(), other.denominator as u64) as i64;
        let second_common = gcd_u64(other.numerator.unsigned_abs(), self.denominator as u64) as i64;
        let numerator = i128::from(self.numerator / first_common) * i128::from(other.numerator / second_common);
        let denominator = i128::from(self.denominator / second_common) * i128::from(other.denominator / first_common);
        Self::narrow(numerator, denominator)
    }

    fn checked_div(&self, other: &Self) -> Option<Self> {
        if other.numerator == 0 {
            return None;
        }
        let inverse = if other.numerator > 0 {
            SmallRational {
                numerator: other.denominator,
                denominator: other.numerator,
            }
        } else {
            SmallRational {
                numerator: -other.denominator,
                denominator: -other.numerator,
            }
        };
        self.checked_mul(&inverse)
    }

    fn checked_neg(&self) -> Option<Self> {
        Some(SmallRational {
            numerator: -self.numerator,
            denominator: self.denominator,
        })
    }

    fn to_big_rational(&self) -> BigRational {
        BigRational::new(BigInt::from(self.numerator), BigInt::from(self.denominator))
    }
}

impl Scalar for BigRational {
    fn from_integer(value: i64) -> Option<Self> {
        Some(BigRational::from_integer(BigInt::from(value)))
    }

    fn zero() -> Self {
        Zero::zero()
    }

    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }

    fn is_positive(&self) -> bool {
        Signed::is_positive(self)
    }

    fn is_negative(&self) -> bool {
        Signed::is_negative(self)
    }

    fn checked_add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }

    fn checked_sub(&self, other: &Self) -> Option<Self> {
        Some(self - other)
    }

    fn checked_mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }

    fn checked_div(&self, other: &Self) -> Option<Self> {
        if Zero::is_zero(other) {
            None
        } else {
            Some(self / other)
        }
    }

    fn checked_neg(&self) -> Option<Self> {
        Some(-self)
    }

    fn to_big_rational(&self) -> BigRational {
        self.clone()
    }
}

/// An exact rational that is a [`SmallRational`] whenever its value fits one and a big rational
/// otherwise. **The representation is canonical (a value that fits is always small)**, so derived
/// equality is equality of values. Its operations never overflow: a small operation that would
/// is redone over big rationals, and a big result that fits becomes small again. Most simplex
/// values stay small, so most operations take the fast path, and one huge value does not slow
/// down the rest of the tableau.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AdaptiveRational {
    Small(SmallRational),
    Big(Box<BigRational>),
}

impl AdaptiveRational {
    fn from_big(value: BigRational) -> Self {
        let small = value.numer().to_i64().and_then(|numerator| {
            let denominator = value.denom().to_i64()?;
            if numerator == i64::MIN || denominator <= 0 {
                return None;
            }
            Some(SmallRational { numerator, denominator })
        });
        match small {
            Some(small) => AdaptiveRational::Small(small),
            None => AdaptiveRational::Big(Box::new(value)),
        }
    }

    fn big(&self) -> BigRational {
        match self {
            AdaptiveRational::Small(small) => small.to_big_rational(),
            AdaptiveRational::Big(big) => (**big).clone(),
        }
    }

    /// Applies a small operation, or the big one when an operand is big or the small one overflows.
    fn apply(
        &self,
        other: &Self,
        small: impl Fn(&SmallRational, &SmallRational) -> Option<SmallRational>,
        big: impl Fn(&BigRational, &BigRational) -> BigRational,
    ) -> Self {
        if let (AdaptiveRational::Small(left), AdaptiveRational::Small(right)) = (self, other) {
            if let Some(result) = small(left, right) {
                return AdaptiveRational::Small(result);
            }
        }
        AdaptiveRational::from_big(big(&self.big(), &other.big()))
    }
}

impl PartialOrd for AdaptiveRational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for AdaptiveRational {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (AdaptiveRational::Small(left), AdaptiveRational::Small(right)) => left.cmp(right),
            _ => self.big().cmp(&other.big()),
        }
    }
}

impl Scalar for AdaptiveRational {
    fn from_integer(value: i64) -> Option<Self> {
        Some(match SmallRational::from_integer(value) {
            Some(small) => AdaptiveRational::Small(small),
            None => AdaptiveRational::Big(Box::new(BigRational::from_integer(BigInt::from(value)))),
        })
    }

    fn zero() -> Self {
        AdaptiveRational::Small(SmallRational::zero())
    }

    fn is_zero(&self) -> bool {
        match self {
            AdaptiveRational::Small(small) => small.is_zero(),
            AdaptiveRational::Big(big) => Zero::is_zero(&**big),
        }
    }

    fn is_positive(&self) -> bool {
        match self {
            AdaptiveRational::Small(small) => small.is_positive(),
            AdaptiveRational::Big(big) => Signed::is_positive(&**big),
        }
    }

    fn is_negative(&self) -> bool {
        match self {
            AdaptiveRational::Small(small) => small.is_negative(),
            AdaptiveRational::Big(big) => Signed::is_negative(&**big),
        }
    }

    fn checked_add(&self, other: &Self) -> Option<Self> {
        Some(self.apply(other, SmallRational::checked_add, |left, right| left + right))
    }

    fn checked_sub(&self, other: &Self) -> Option<Self> {
        Some(self.apply(other, SmallRational::checked_sub, |left, right| left - right))
    }

    fn checked_mul(&self, other: &Self) -> Option<Self> {
        Some(self.apply(other, SmallRational::checked_mul, |left, right| left * right))
    }

    fn checked_div(&self, other: &Self) -> Option<Self> {
        if other.is_zero() {
            return None;
        }
        Some(self.apply(other, SmallRational::checked_div, |left, right| left / right))
    }

    fn checked_neg(&self) -> Option<Self> {
        Some(match self {
            AdaptiveRational::Small(small) => AdaptiveRational::Small(SmallRational {
                numerator: -small.numerator,
                denominator: small.denominator,
            }),
            AdaptiveRational::Big(big) => AdaptiveRational::Big(Box::new(-(**big).clone())),
        })
    }

    fn to_big_rational(&self) -> BigRational {
        self.big()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_rational_arithmetic_matches_big_rational() {
        let values = [
            (0, 1),
            (1, 1),
            (-3, 4),
            (7, 6),
            (i64::MAX, 1),
            (-i64::MAX, 3),
            (5, i64::MAX),
            (1 << 40, 3),
        ];
        for &(first_numerator, first_denominator) in &values {
            for &(second_numerator, second_denominator) in &values {
                let first =
                    SmallRational::reduce_and_narrow(i128::from(first_numerator), i128::from(first_denominator))
                        .expect("the test values fit");
                let second =
                    SmallRational::reduce_and_narrow(i128::from(second_numerator), i128::from(second_denominator))
                        .expect("the test values fit");
                let (big_first, big_second) = (first.to_big_rational(), second.to_big_rational());
                let checks = [
                    (first.checked_add(&second), &big_first + &big_second),
                    (first.checked_sub(&second), &big_first - &big_second),
                    (first.checked_mul(&second), &big_first * &big_second),
                ];
                for (small, big) in checks {
                    if let Some(small) = small {
                        assert_eq!(small.to_big_rational(), big);
                    }
                }
                if !second.is_zero() {
                    if let Some(small) = first.checked_div(&second) {
                        assert_eq!(small.to_big_rational(), &big_first / &big_second);
                    }
                }
                assert_eq!(first.cmp(&second), big_first.cmp(&big_second));
            }
        }
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let largest = SmallRational::from_integer(i64::MAX).expect("fits");
        assert_eq!(largest.checked_add(&largest), None);
        assert_eq!(largest.checked_mul(&largest), None);
        assert_eq!(SmallRational::from_integer(i64::MIN), None);
        assert_eq!(largest.checked_div(&SmallRational::zero()), None);
    }

    #[test]
    fn adaptive_rational_grows_and_shrinks_exactly() {
        let largest = AdaptiveRational::from_integer(i64::MAX).expect("always");
        let two = AdaptiveRational::from_integer(2).expect("always");
        let doubled = largest.checked_mul(&two).expect("never overflows");
        assert!(matches!(doubled, AdaptiveRational::Big(_)));
        let back = doubled.checked_div(&two).expect("nonzero divisor");
        assert_eq!(back, largest, "a value that fits is small again");
        assert!(doubled > largest);
        assert_eq!(
            doubled.to_big_rational(),
            largest.to_big_rational() * BigRational::from_integer(BigInt::from(2))
        );
        let minimum = AdaptiveRational::from_integer(i64::MIN).expect("always");
        assert!(matches!(minimum, AdaptiveRational::Big(_)));
        assert!(minimum.checked_neg().expect("never overflows").is_positive());
    }

    #[test]
    fn gcd_of_extremes() {
        assert_eq!(gcd_u64(0, 0), 0);
        assert_eq!(gcd_u64(12, 18), 6);
        assert_eq!(gcd_u128(1 << 100, 1 << 70), 1 << 70);
        assert_eq!(gcd_u128(u128::MAX, 0), u128::MAX);
    }
}
