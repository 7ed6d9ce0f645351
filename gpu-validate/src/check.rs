//! Checking measured costs against a bound: the bound is evaluated exactly (rationals) at the
//! instance's measures (`measure`), and compared with the counter of the VM that its cost model
//! counts. Tightness is measured / bound; statistics per method and per instance size.
//!
//! **A violation is reported only when the measured cost is known to exceed the bound: a complete
//! run whose counter is larger, or a run stopped by a limit whose partial counter already is.
//! Instances outside the analysis' assumptions (cyclic structures, parameters outside the ranges
//! the bound is proven for) are skipped, never judged; refused or limited runs that stay within the
//! bound are inconclusive.**

use crate::measure::{field_number, measures, Measure};
use crate::metrics::Metrics;
use crate::requires::Precondition;
use crate::value::{Ending, Outcome, Value};
use jresa_analyses::bounds::expr::CostExpr;
use jresa_analyses::cost_model::CostModel;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::fmt;
use std::sync::Arc;

/// What a bound is.
#[derive(Clone, Debug, PartialEq)]
pub enum BoundForm {
    /// A closed form over the parameters' measures (`jresa analyze`).
    Closed(CostExpr),
    /// The potential a precondition gives each instance (`jresa check`; under the consume model).
    Potential(Arc<Precondition>),
}

impl fmt::Display for BoundForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundForm::Closed(expr) => write!(f, "{expr}"),
            BoundForm::Potential(precondition) => write!(f, "the potential of {}", precondition.text),
        }
    }
}

/// A bound to check, with the names of the method's parameters (`this` first for an instance
/// method; references as `|a|`) and the ranges it is proven for.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodBound {
    pub form: BoundForm,
    pub parameters: Vec<String>,
    /// (parameter, min, max): the bound holds only for inputs whose measure is in the range.
    pub ranges: Vec<(String, i64, i64)>,
}

/// Why an instance was not judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Its objects reach a cycle (the analysis assumes acyclic heaps).
    Cyclic,
    /// A parameter lies outside the range the bound is proven for.
    OutsideRange { parameter: String },
    /// The arguments do not satisfy the precondition the bound is proven under.
    OutsideRequires,
}

/// Why a bound has no value on an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unvalued {
    /// The instance is outside the bound's assumptions.
    Skipped(Skip),
    /// The bound cannot be evaluated there (the reason says why).
    Inconclusive(String),
}

/// The verdict on one instance.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The measured cost is within the bound.
    Within {
        measured: u64,
        bound: BigRational,
    },
    /// The measured cost exceeds the bound: a soundness bug.
    Violation {
        measured: u64,
        bound: BigRational,
    },
    Skipped(Skip),
    /// Nothing can be said (the VM refused the instance, or a limit stopped it within the bound).
    Inconclusive {
        reason: String,
    },
}

impl Verdict {
    /// measured / bound, for judged instances (0 when both are 0).
    pub fn ratio(&self) -> Option<f64> {
        match self {
            Verdict::Within { measured, bound } | Verdict::Violation { measured, bound } => {
                Some(ratio(*measured, bound))
            }
            _ => None,
        }
    }
}

/// measured / bound as a float (infinite for a positive cost over a zero bound).
pub fn ratio(measured: u64, bound: &BigRational) -> f64 {
    if bound.is_zero() {
        return if measured == 0 { 0.0 } else { f64::INFINITY };
    }
    let value = BigRational::from_integer(BigInt::from(measured)) / bound;
    value.to_f64().unwrap_or(f64::INFINITY)
}

/// The counter a cost model counts.
pub fn metric(model: CostModel, metrics: &Metrics) -> u64 {
    match model {
        CostModel::Instructions => metrics.bytecodes,
        CostModel::Invocations => metrics.invocations,
        CostModel::Allocations => metrics.allocations,
        CostModel::Consume => metrics.consume,
    }
}

impl MethodBound {
    /// The measures of an instance's arguments and the size the reports group it by (the largest
    /// measure, negatives as 0), or why the instance is skipped.
    pub fn prepare(&self, args: &[Value]) -> Result<(Vec<Measure>, u64), Skip> {
        let measured = measures(args).map_err(|_| Skip::Cyclic)?;
        for (parameter, min, max) in &self.ranges {
            if let Some(value) = self.input_value(args, &measured, parameter) {
                if value < *min || value > *max {
                    return Err(Skip::OutsideRange {
                        parameter: parameter.clone(),
                    });
                }
            }
        }
        let size = measured
            .iter()
            .filter_map(|m| m.value())
            .map(|v| v.max(0) as u64)
            .max()
            .unwrap_or(0);
        Ok((measured, size))
    }

    /// The value of the bound's input `name` on the arguments (whose measures are `measured`): a
    /// parameter's measure, or a field of an argument's object at entry (`this.size`).
    fn input_value(&self, args: &[Value], measured: &[Measure], name: &str) -> Option<i64> {
        match self.parameters.iter().position(|p| p == name) {
            Some(k) if k < measured.len() => measured[k].value(),
            _ => field_number(args, &self.parameters, name),
        }
    }

    /// The bound's exact value on the arguments (whose measures are `measured`), or why it has
    /// none there.
    pub fn value_at(&self, args: &[Value], measured: &[Measure]) -> Result<BigRational, Unvalued> {
        match &self.form {
            BoundForm::Closed(expr) => expr
                .eval(&|name: &str| {
                    let value = self.input_value(args, measured, name)?;
                    Some(BigRational::from_integer(BigInt::from(value)))
                })
                .ok_or_else(|| Unvalued::Inconclusive(format!("the bound `{expr}` names no parameter of the method"))),
            BoundForm::Potential(precondition) => match precondition.potential(args) {
                Ok(Some(value)) => Ok(value),
                Ok(None) => Err(Unvalued::Skipped(Skip::OutsideRequires)),
                Err(reason) => Err(Unvalued::Inconclusive(reason)),
            },
        }
    }

    /// The verdict on an instance that ran with `outcome`, under `model`.
    pub fn check(&self, model: CostModel, args: &[Value], outcome: &Outcome) -> Verdict {
        let measured = match self.prepare(args) {
            Ok((measured, _)) => measured,
            Err(skip) => return Verdict::Skipped(skip),
        };
        let bound = match self.value_at(args, &measured) {
            Ok(bound) => bound,
            Err(Unvalued::Skipped(skip)) => return Verdict::Skipped(skip),
            Err(Unvalued::Inconclusive(reason)) => return Verdict::Inconclusive { reason },
        };
        if let Some(failure) = &outcome.failed_initializer {
            // Initialisation is outside the measured call on the JVM, where the initialiser
            // succeeds: this run is not faithful to it.
            return Verdict::Inconclusive {
                reason: format!("{failure} in the VM"),
            };
        }
        let cost = metric(model, &outcome.metrics);
        let exceeds = BigRational::from_integer(BigInt::from(cost)) > bound;
        let stopped = match &outcome.ending {
            Ending::Returned { .. } | Ending::Threw { .. } => None,
            Ending::Refused { reason } => Some(format!("refused: {reason}")),
            Ending::OutOfMemory => Some("the heap limit was reached".to_owned()),
            Ending::StackOverflow => Some("the stack limit was reached".to_owned()),
            Ending::StepLimit => Some("the step limit was reached".to_owned()),
        };
        match (stopped, exceeds) {
            // A refused instance's counters say nothing about the method.
            (Some(reason), _) if matches!(outcome.ending, Ending::Refused { .. }) => Verdict::Inconclusive { reason },
            (Some(reason), false) => Verdict::Inconclusive { reason },
            (_, true) => Verdict::Violation { measured: cost, bound },
            (None, false) => Verdict::Within { measured: cost, bound },
        }
    }
}

/// Tightness statistics of a group of instances.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tightness {
    pub instances: usize,
    pub max_ratio: f64,
    pub median_ratio: f64,
    pub max_measured: u64,
    /// The largest bound value in the group (as a float, for plots).
    pub max_bound: f64,
}

impl Tightness {
    /// Statistics of (measured, bound) pairs.
    pub fn of(points: &[(u64, BigRational)]) -> Tightness {
        if points.is_empty() {
            return Tightness::default();
        }
        let mut ratios: Vec<f64> = points.iter().map(|(m, b)| ratio(*m, b)).collect();
        ratios.sort_by(f64::total_cmp);
        let middle = ratios.len() / 2;
        let median = if ratios.len() % 2 == 1 {
            ratios[middle]
        } else {
            (ratios[middle - 1] + ratios[middle]) / 2.0
        };
        Tightness {
            instances: points.len(),
            max_ratio: ratios[ratios.len() - 1],
            median_ratio: median,
            max_measured: points.iter().map(|(m, _)| *m).max().unwrap_or(0),
            max_bound: points.iter().filter_map(|(_, b)| b.to_f64()).fold(0.0, f64::max),
        }
    }
}
