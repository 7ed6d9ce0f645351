//! Amounts of resource: linear expressions over the LP's resource variables with exact rational
//! coefficients, and the obligations (expression `>= 0`) the proof search collects.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeMap;

/// A resource variable of the linear program, indexing `ResourceVariables`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResVar(pub u32);

/// `Σ coefficient·variable + constant`. **No stored coefficient is zero.**
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResExpr {
    terms: BTreeMap<ResVar, BigRational>,
    constant: BigRational,
}

impl ResExpr {
    pub fn zero() -> ResExpr {
        ResExpr::default()
    }

    pub fn constant(value: i64) -> ResExpr {
        ResExpr {
            terms: BTreeMap::new(),
            constant: BigRational::from_integer(BigInt::from(value)),
        }
    }

    pub fn variable(var: ResVar) -> ResExpr {
        let mut terms = BTreeMap::new();
        terms.insert(var, BigRational::from_integer(BigInt::from(1)));
        ResExpr {
            terms,
            constant: BigRational::zero(),
        }
    }

    /// Adds `factor · var`.
    pub fn add_term(&mut self, var: ResVar, factor: &BigRational) {
        let entry = self.terms.entry(var).or_insert_with(BigRational::zero);
        *entry += factor;
        if entry.is_zero() {
            self.terms.remove(&var);
        }
    }

    pub fn add_constant(&mut self, value: &BigRational) {
        self.constant += value;
    }

    /// `self + factor · other`.
    pub fn add_scaled(&mut self, other: &ResExpr, factor: &BigRational) {
        for (var, coefficient) in &other.terms {
            self.add_term(*var, &(coefficient * factor));
        }
        self.constant += &other.constant * factor;
    }

    pub fn plus(&self, other: &ResExpr) -> ResExpr {
        let mut sum = self.clone();
        sum.add_scaled(other, &BigRational::from_integer(BigInt::from(1)));
        sum
    }

    pub fn minus(&self, other: &ResExpr) -> ResExpr {
        let mut difference = self.clone();
        difference.add_scaled(other, &BigRational::from_integer(BigInt::from(-1)));
        difference
    }

    pub fn terms(&self) -> impl Iterator<Item = (ResVar, &BigRational)> {
        self.terms.iter().map(|(v, c)| (*v, c))
    }

    pub fn constant_term(&self) -> &BigRational {
        &self.constant
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value at a point (variables missing from `values` count as zero).
    pub fn evaluate(&self, values: &BTreeMap<ResVar, BigRational>) -> BigRational {
        let mut total = self.constant.clone();
        for (var, coefficient) in &self.terms {
            if let Some(value) = values.get(var) {
                total += coefficient * value;
            }
        }
        total
    }
}

/// A rational as `n` or `n/d`.
pub fn rational_text(value: &BigRational) -> String {
    if value.is_integer() {
        value.numer().to_string()
    } else {
        format!("{}/{}", value.numer(), value.denom())
    }
}

/// Where an obligation comes from, for the report when it cannot be met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// `Class.name(descriptor)` of the method whose proof made the obligation.
    pub method: String,
    pub pc: Option<u32>,
    pub line: Option<u32>,
    /// What needs the resource, e.g. "Resource.consume() needs 1 unit".
    pub what: String,
}

/// `expression >= 0`, to be met by the resource variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    pub expression: ResExpr,
    pub origin: Origin,
}

/// The resource variables of a proof: each named in an annotation of a method (or made for an
/// inferred invariant), by owner method and name.
#[derive(Clone, Debug, Default)]
pub struct ResourceVariables {
    names: Vec<(String, String)>,
}

impl ResourceVariables {
    /// The variable `name` of `method`, made on first use.
    pub fn get(&mut self, method: &str, name: &str) -> ResVar {
        if let Some(k) = self.names.iter().position(|(m, n)| m == method && n == name) {
            return ResVar(k as u32);
        }
        self.names.push((method.to_owned(), name.to_owned()));
        ResVar((self.names.len() - 1) as u32)
    }

    /// The variable's name as written (without its method).
    pub fn name(&self, var: ResVar) -> String {
        self.names
            .get(var.0 as usize)
            .map_or_else(|| format!("r{}", var.0), |(_, n)| n.clone())
    }

    /// The variables of `method`, in the order they were made.
    pub fn owned_by(&self, method: &str) -> Vec<ResVar> {
        (0..self.names.len())
            .filter(|k| self.names[*k].0 == method)
            .map(|k| ResVar(k as u32))
            .collect()
    }

    /// Whether `method` already has a variable called `name`.
    pub fn contains(&self, method: &str, name: &str) -> bool {
        self.names.iter().any(|(m, n)| m == method && n == name)
    }
}
