//! The linear program of a proof: its resource obligations (`expression >= 0`) over non-negative
//! resource variables. In check mode (no variables) every obligation is a number and is checked
//! exactly; in inference mode the objective is lexicographic: first the sum of the `priority`
//! variables (the per-cell potentials of the precondition, which the bound multiplies by the
//! sizes of the structures), then the sum of all variables.
//!
//! **The LP runs in floating point (good_lp/microlp). Its answer is a candidate: the values are
//! rounded to small rationals and every obligation is re-checked exactly; when that fails, or the
//! LP claims infeasibility, the exact simplex of the polyhedra domain decides. Nothing is
//! reported feasible (or optimal) unless exact arithmetic confirms it.** When the obligations
//! cannot all be met, the one to blame is the first whose prefix of obligations is infeasible.

use super::limits::MAX_OBLIGATIONS;
use super::resource::{Obligation, Origin, ResExpr, ResVar};
use crate::bounds::ranking::round;
use crate::value::polyhedra::{rational_bounds, rational_solution, Constraint, LinearExpr};
use good_lp::{microlp, variable, Expression, ProblemVariables, ResolutionError, Solution as _, SolverModel};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// The result of solving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpOutcome {
    /// Every obligation holds at these values (checked exactly); `optimal` when their sum is the
    /// exact minimum.
    Feasible {
        values: BTreeMap<ResVar, BigRational>,
        optimal: bool,
    },
    /// No values meet the obligations; `blamed` indexes the first obligation that cannot be met
    /// together with those before it.
    Infeasible { blamed: usize },
    /// The LP could not be decided (too many obligations, numbers too large, solver budget).
    Undecided(String),
}

/// Solves the obligations over `variables` (each non-negative), minimising first the sum of the
/// `priority` variables.
pub fn solve(obligations: &[Obligation], variables: &[ResVar], priority: &[ResVar]) -> LpOutcome {
    if obligations.len() > MAX_OBLIGATIONS {
        return LpOutcome::Undecided(format!(
            "{} resource obligations, more than the {MAX_OBLIGATIONS} one linear program may have",
            obligations.len()
        ));
    }
    if variables.is_empty() {
        // Check mode: every obligation is a number.
        return match obligations
            .iter()
            .position(|o| o.expression.constant_term().is_negative())
        {
            Some(blamed) => LpOutcome::Infeasible { blamed },
            None => LpOutcome::Feasible {
                values: BTreeMap::new(),
                optimal: true,
            },
        };
    }
    let Some(mut exact) = exact_system(obligations, variables) else {
        return LpOutcome::Undecided("the resource obligations have numbers too large for the exact check".to_owned());
    };
    // First stage: the exact minimum of the priority sum, then kept as a constraint.
    let mut obligations = obligations.to_vec();
    let weights: Vec<i64> = variables.iter().map(|v| i64::from(priority.contains(v))).collect();
    if weights.iter().any(|w| *w != 0) {
        match rational_bounds(&exact, variables.len(), &LinearExpr::new(weights.clone(), 0)) {
            None => return LpOutcome::Undecided("the exact simplex ran out of pivots".to_owned()),
            Some(None) => {
                return LpOutcome::Infeasible {
                    blamed: blame(&obligations, variables),
                }
            }
            Some(Some((Some(minimum), _))) => {
                let mut cap = ResExpr::zero();
                cap.add_constant(&minimum);
                for var in variables.iter().filter(|v| priority.contains(v)) {
                    cap.add_term(*var, &-BigRational::one());
                }
                let origin = Origin {
                    method: String::new(),
                    pc: None,
                    line: None,
                    what: "the per-cell potentials of the precondition are minimal".to_owned(),
                };
                obligations.push(Obligation {
                    expression: cap,
                    origin,
                });
                match exact_system(&obligations, variables) {
                    Some(system) => exact = system,
                    None => {
                        return LpOutcome::Undecided(
                            "the resource obligations have numbers too large for the exact check".to_owned(),
                        )
                    }
                }
            }
            Some(Some((None, _))) => {}
        }
    }
    let obligations = &obligations[..];
    let candidate = match float_solve(obligations, variables) {
        Ok(values) => Some(values),
        Err(ResolutionError::Infeasible) => None,
        Err(error) => return LpOutcome::Undecided(format!("the LP solver failed: {error}")),
    };
    if let Some(values) = &candidate {
        if satisfies(obligations, variables, values) {
            let optimal = is_optimal(&exact, variables, values);
            if optimal == Some(true) {
                return LpOutcome::Feasible {
                    values: values.clone(),
                    optimal: true,
                };
            }
        }
    }
    // The exact simplex decides: feasibility, then the exact minimum and a point attaining it.
    match exact_optimum(&exact, variables) {
        Some(Some(values)) if satisfies(obligations, variables, &values) => {
            LpOutcome::Feasible { values, optimal: true }
        }
        Some(None) => LpOutcome::Infeasible {
            blamed: blame(obligations, variables),
        },
        _ => match candidate {
            Some(values) if satisfies(obligations, variables, &values) => {
                LpOutcome::Feasible { values, optimal: false }
            }
            _ => LpOutcome::Undecided("the exact simplex ran out of pivots".to_owned()),
        },
    }
}

/// The rounded floating-point optimum of the LP.
fn float_solve(
    obligations: &[Obligation],
    variables: &[ResVar],
) -> Result<BTreeMap<ResVar, BigRational>, ResolutionError> {
    let mut problem = ProblemVariables::new();
    let lp_vars: Vec<good_lp::Variable> = variables.iter().map(|_| problem.add(variable().min(0.0))).collect();
    let index: BTreeMap<ResVar, usize> = variables.iter().enumerate().map(|(k, v)| (*v, k)).collect();
    let mut objective = Expression::from(0.0);
    for v in &lp_vars {
        objective += *v;
    }
    let mut model = problem.minimise(objective).using(microlp);
    for obligation in obligations {
        let mut row = Expression::from(obligation.expression.constant_term().to_f64().unwrap_or(0.0));
        for (var, coefficient) in obligation.expression.terms() {
            if let Some(k) = index.get(&var) {
                row += coefficient.to_f64().unwrap_or(0.0) * lp_vars[*k];
            }
        }
        model = model.with(row.geq(0.0));
    }
    let solution = model.solve()?;
    Ok(variables
        .iter()
        .zip(&lp_vars)
        .map(|(var, lp)| {
            let value = round(solution.value(*lp));
            (
                *var,
                if value.is_negative() {
                    BigRational::zero()
                } else {
                    value
                },
            )
        })
        .collect())
}

/// Whether the values are non-negative and meet every obligation, exactly.
fn satisfies(obligations: &[Obligation], variables: &[ResVar], values: &BTreeMap<ResVar, BigRational>) -> bool {
    variables
        .iter()
        .all(|v| values.get(v).is_some_and(|x| !x.is_negative()))
        && obligations.iter().all(|o| !o.expression.evaluate(values).is_negative())
}

/// The obligations and the non-negativity of the variables as exact constraints over dimensions
/// `0..variables.len()`, scaled to integer coefficients; `None` when a number does not fit.
fn exact_system(obligations: &[Obligation], variables: &[ResVar]) -> Option<Vec<Constraint>> {
    let index: BTreeMap<ResVar, usize> = variables.iter().enumerate().map(|(k, v)| (*v, k)).collect();
    let mut system = Vec::new();
    for k in 0..variables.len() {
        system.push(Constraint::greater_or_equal_zero(LinearExpr::variable(k)));
    }
    for obligation in obligations {
        let denominator = obligation
            .expression
            .terms()
            .map(|(_, c)| c.denom().clone())
            .chain(std::iter::once(obligation.expression.constant_term().denom().clone()))
            .fold(BigInt::one(), |acc, d| acc.lcm(&d));
        let scale = |r: &BigRational| {
            (r * BigRational::from_integer(denominator.clone()))
                .to_integer()
                .to_i64()
        };
        let mut coefficients = vec![0i64; variables.len()];
        for (var, coefficient) in obligation.expression.terms() {
            coefficients[*index.get(&var)?] = scale(coefficient)?;
        }
        let constant = scale(obligation.expression.constant_term())?;
        system.push(Constraint::greater_or_equal_zero(LinearExpr::new(
            coefficients,
            constant,
        )));
    }
    Some(system)
}

/// The objective `Σ variables` as an expression.
fn objective(variables: &[ResVar]) -> LinearExpr {
    LinearExpr::new(vec![1; variables.len()], 0)
}

/// Whether the values attain the exact minimum of the objective; `None` when undecided.
fn is_optimal(system: &[Constraint], variables: &[ResVar], values: &BTreeMap<ResVar, BigRational>) -> Option<bool> {
    let Some(Some((Some(minimum), _))) = rational_bounds(system, variables.len(), &objective(variables)) else {
        return None;
    };
    let total: BigRational = variables
        .iter()
        .filter_map(|v| values.get(v))
        .fold(BigRational::zero(), |acc, x| acc + x);
    Some(total == minimum)
}

/// The exact minimum of the objective and a point attaining it: `Some(None)` when infeasible,
/// `None` when the simplex budget ran out.
fn exact_optimum(system: &[Constraint], variables: &[ResVar]) -> Option<Option<BTreeMap<ResVar, BigRational>>> {
    let minimum = match rational_bounds(system, variables.len(), &objective(variables))? {
        None => return Some(None),
        Some((Some(minimum), _)) => minimum,
        Some((None, _)) => return None,
    };
    // Σ x ≤ minimum, scaled to integers: d·minimum − d·Σ x ≥ 0.
    let numerator = minimum.numer().to_i64()?;
    let denominator = minimum.denom().to_i64()?;
    let mut with_minimum = system.to_vec();
    with_minimum.push(Constraint::greater_or_equal_zero(LinearExpr::new(
        vec![-denominator; variables.len()],
        numerator,
    )));
    let point = rational_solution(&with_minimum, variables.len())??;
    Some(Some(variables.iter().copied().zip(point).collect()))
}

/// The first obligation that cannot be met together with the ones before it (binary search on
/// prefixes, each decided by the exact simplex).
fn blame(obligations: &[Obligation], variables: &[ResVar]) -> usize {
    let feasible = |k: usize| -> bool {
        match exact_system(&obligations[..k], variables) {
            Some(system) => !matches!(rational_solution(&system, variables.len()), Some(None)),
            None => true,
        }
    };
    let (mut low, mut high) = (0, obligations.len());
    // Invariant: the first `low` obligations are feasible, the first `high` are not.
    while high - low > 1 {
        let middle = (low + high) / 2;
        if feasible(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    high.saturating_sub(1)
}
