//! An exact simplex over rationals for every emptiness, entailment, bound and redundancy question:
//! the general simplex of Dutertre and de Moura (bounded variables, a tableau of definitions, and
//! Bland's rule for both feasibility and optimisation).
//!
//! Each original dimension is a free variable. Each constraint `a·x + c ≥ 0` becomes a variable
//! `s = a·x` with the lower bound `-c` (and the same upper bound for an equality), and questions
//! about an expression add a free variable defined by it. **The tableau keeps every nonbasic
//! variable within its bounds, and after `check` answers feasible, every basic one too**; an
//! optimisation keeps that invariant. Arithmetic is exact: a query runs first over 64-bit
//! fractions that turn into big rationals only for the values that outgrow 64 bits, so **no
//! answer is ever rounded**. Only the pivot budget can stop a query; its callers then answer the sound
//! "don't know" (not empty, not entailed, unbounded, not redundant).

use super::limits;
use super::linear::{Constraint, LinearExpr, Relation};
use super::number::{AdaptiveRational, Scalar};
use num_rational::BigRational;

/// Why a simplex computation stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SimplexFailure {
    /// A number did not fit the scalar type; the query is retried over big rationals.
    Overflow,
    /// The query used up [`limits::MAX_SIMPLEX_PIVOTS`].
    PivotLimit,
}

type SimplexResult<T> = Result<T, SimplexFailure>;

/// Turns a missing number (overflow) into the failure that restarts the query with big rationals.
trait OrOverflow<T> {
    fn or_overflow(self) -> SimplexResult<T>;
}

impl<T> OrOverflow<T> for Option<T> {
    fn or_overflow(self) -> SimplexResult<T> {
        self.ok_or(SimplexFailure::Overflow)
    }
}

/// Whether an optimisation looks for the smallest or the largest value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Minimize,
    Maximize,
}

/// The optimum of a variable over a feasible tableau.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Optimum<S> {
    Bounded(S),
    Unbounded,
}

/// A simplex tableau: each basic variable is a linear combination of the nonbasic ones.
pub(crate) struct Tableau<S> {
    /// `rows[r][j]` is the coefficient of nonbasic variable `j` in the definition of the basic
    /// variable of row `r`; entries of basic variables are zero.
    rows: Vec<Vec<S>>,
    basic_variable_of_row: Vec<usize>,
    row_of_variable: Vec<Option<usize>>,
    lower: Vec<Option<S>>,
    upper: Vec<Option<S>>,
    value: Vec<S>,
    pivots: usize,
}

impl<S: Scalar> Tableau<S> {
    /// A tableau of `variable_count` free nonbasic variables, all with value zero.
    pub(crate) fn new(variable_count: usize) -> Self {
        Tableau {
            rows: Vec::new(),
            basic_variable_of_row: Vec::new(),
            row_of_variable: vec![None; variable_count],
            lower: vec![None; variable_count],
            upper: vec![None; variable_count],
            value: vec![S::zero(); variable_count],
            pivots: 0,
        }
    }

    fn variable_count(&self) -> usize {
        self.value.len()
    }

    /// Adds a free basic variable defined as `Σ coefficient · variable` and returns its index.
    pub(crate) fn add_defined_variable(&mut self, terms: impl Iterator<Item = (usize, i64)>) -> SimplexResult<usize> {
        let new_variable = self.variable_count();
        for row in &mut self.rows {
            row.push(S::zero());
        }
        let mut row = vec![S::zero(); new_variable + 1];
        let mut value = S::zero();
        for (variable, coefficient) in terms {
            if coefficient == 0 || variable >= new_variable {
                continue;
            }
            let coefficient = S::from_integer(coefficient).or_overflow()?;
            value = value
                .checked_add(&coefficient.checked_mul(&self.value[variable]).or_overflow()?)
                .or_overflow()?;
            match self.row_of_variable[variable] {
                None => {
                    row[variable] = row[variable].checked_add(&coefficient).or_overflow()?;
                }
                Some(defining_row) => {
                    for (entry, defining_entry) in row.iter_mut().zip(&self.rows[defining_row]) {
                        if !defining_entry.is_zero() {
                            *entry = entry
                                .checked_add(&coefficient.checked_mul(defining_entry).or_overflow()?)
                                .or_overflow()?;
                        }
                    }
                }
            }
        }
        self.rows.push(row);
        self.basic_variable_of_row.push(new_variable);
        self.row_of_variable.push(Some(self.rows.len() - 1));
        self.lower.push(None);
        self.upper.push(None);
        self.value.push(value);
        Ok(new_variable)
    }

    /// Sets the bounds of a variable; a nonbasic variable outside them moves onto the nearest one
    /// (basic variables are repaired by [`Tableau::check`]).
    pub(crate) fn set_bounds(&mut self, variable: usize, lower: Option<S>, upper: Option<S>) -> SimplexResult<()> {
        self.lower[variable] = lower;
        self.upper[variable] = upper;
        if self.row_of_variable[variable].is_none() {
            let target = if self.is_below_lower(variable) {
                self.lower[variable].clone()
            } else if self.is_above_upper(variable) {
                self.upper[variable].clone()
            } else {
                None
            };
            if let Some(target) = target {
                self.update_nonbasic(variable, target)?;
            }
        }
        Ok(())
    }

    /// Removes the most recently added variable, which must not occur in any other variable's
    /// definition (true of the variables added for constraints and objectives). The assignment
    /// of the other variables does not change, so a feasible tableau stays feasible.
    pub(crate) fn remove_last_variable(&mut self) -> SimplexResult<()> {
        let Some(variable) = self.variable_count().checked_sub(1) else {
            return Ok(());
        };
        if self.row_of_variable[variable].is_none() {
            // Make it basic: any row where it occurs can give it up.
            let occurring = self.rows.iter().position(|row| !row[variable].is_zero());
            if let Some(row) = occurring {
                self.pivot(row, variable)?;
            }
        }
        if let Some(row) = self.row_of_variable[variable] {
            self.rows.swap_remove(row);
            self.basic_variable_of_row.swap_remove(row);
            if let Some(&moved) = self.basic_variable_of_row.get(row) {
                self.row_of_variable[moved] = Some(row);
            }
        }
        for row in &mut self.rows {
            row.pop();
        }
        self.row_of_variable.pop();
        self.lower.pop();
        self.upper.pop();
        self.value.pop();
        Ok(())
    }

    pub(crate) fn value(&self, variable: usize) -> &S {
        &self.value[variable]
    }

    fn is_below_lower(&self, variable: usize) -> bool {
        self.lower[variable]
            .as_ref()
            .is_some_and(|lower| self.value[variable] < *lower)
    }

    fn is_above_upper(&self, variable: usize) -> bool {
        self.upper[variable]
            .as_ref()
            .is_some_and(|upper| self.value[variable] > *upper)
    }

    fn can_increase(&self, variable: usize) -> bool {
        self.upper[variable]
            .as_ref()
            .is_none_or(|upper| self.value[variable] < *upper)
    }

    fn can_decrease(&self, variable: usize) -> bool {
        self.lower[variable]
            .as_ref()
            .is_none_or(|lower| self.value[variable] > *lower)
    }

    /// Gives nonbasic `variable` the value `new_value` and updates the basic variables.
    fn update_nonbasic(&mut self, variable: usize, new_value: S) -> SimplexResult<()> {
        let change = new_value.checked_sub(&self.value[variable]).or_overflow()?;
        if change.is_zero() {
            return Ok(());
        }
        for (row, &basic) in self.rows.iter().zip(&self.basic_variable_of_row) {
            let coefficient = &row[variable];
            if !coefficient.is_zero() {
                self.value[basic] = self.value[basic]
                    .checked_add(&coefficient.checked_mul(&change).or_overflow()?)
                    .or_overflow()?;
            }
        }
        self.value[variable] = new_value;
        Ok(())
    }

    /// Exchanges the basic variable of `row` with the nonbasic `entering` variable.
    fn pivot(&mut self, row: usize, entering: usize) -> SimplexResult<()> {
        self.pivots += 1;
        if self.pivots > limits::MAX_SIMPLEX_PIVOTS {
            return Err(SimplexFailure::PivotLimit);
        }
        let leaving = self.basic_variable_of_row[row];
        let pivot_coefficient = self.rows[row][entering].clone();
        // leaving = pivot·entering + Σ r_j·x_j, so entering = leaving/pivot - Σ (r_j/pivot)·x_j.
        let mut new_row = std::mem::take(&mut self.rows[row]);
        let mut nonzero_columns = Vec::new();
        for (column, entry) in new_row.iter_mut().enumerate() {
            if column == entering || entry.is_zero() {
                continue;
            }
            *entry = entry
                .checked_div(&pivot_coefficient)
                .or_overflow()?
                .checked_neg()
                .or_overflow()?;
            nonzero_columns.push(column);
        }
        new_row[entering] = S::zero();
        let one = S::from_integer(1).or_overflow()?;
        new_row[leaving] = one.checked_div(&pivot_coefficient).or_overflow()?;
        nonzero_columns.push(leaving);
        for (other_row_index, other_row) in self.rows.iter_mut().enumerate() {
            if other_row_index == row || other_row[entering].is_zero() {
                continue;
            }
            let factor = std::mem::replace(&mut other_row[entering], S::zero());
            for &column in &nonzero_columns {
                let addition = factor.checked_mul(&new_row[column]).or_overflow()?;
                other_row[column] = other_row[column].checked_add(&addition).or_overflow()?;
            }
        }
        self.rows[row] = new_row;
        self.basic_variable_of_row[row] = entering;
        self.row_of_variable[entering] = Some(row);
        self.row_of_variable[leaving] = None;
        Ok(())
    }

    /// Pivots `entering` into the basis in place of the basic variable of `row`, moving that
    /// variable to `target` and `entering` accordingly.
    fn pivot_and_update(&mut self, row: usize, entering: usize, target: S) -> SimplexResult<()> {
        let leaving = self.basic_variable_of_row[row];
        let step = target
            .checked_sub(&self.value[leaving])
            .or_overflow()?
            .checked_div(&self.rows[row][entering])
            .or_overflow()?;
        let entering_value = self.value[entering].checked_add(&step).or_overflow()?;
        self.update_nonbasic(entering, entering_value)?;
        self.pivot(row, entering)
    }

    /// Makes every variable satisfy its bounds if that is possible. Returns whether it is.
    pub(crate) fn check(&mut self) -> SimplexResult<bool> {
        loop {
            // Bland's rule: repair the violated basic variable with the smallest index first.
            let mut violated: Option<(usize, usize, bool)> = None;
            for (row, &basic) in self.basic_variable_of_row.iter().enumerate() {
                let below = self.is_below_lower(basic);
                if (below || self.is_above_upper(basic)) && violated.is_none_or(|(smallest, _, _)| basic < smallest) {
                    violated = Some((basic, row, below));
                }
            }
            let Some((basic, row, below)) = violated else {
                return Ok(true);
            };
            // The entering variable is the smallest nonbasic one that can move the basic variable
            // towards its violated bound.
            let mut entering = None;
            for (variable, coefficient) in self.rows[row].iter().enumerate() {
                if coefficient.is_zero() || self.row_of_variable[variable].is_some() {
                    continue;
                }
                let increases_basic = if coefficient.is_positive() {
                    self.can_increase(variable)
                } else {
                    self.can_decrease(variable)
                };
                let decreases_basic = if coefficient.is_positive() {
                    self.can_decrease(variable)
                } else {
                    self.can_increase(variable)
                };
                if (below && increases_basic) || (!below && decreases_basic) {
                    entering = Some(variable);
                    break;
                }
            }
            let Some(entering) = entering else {
                return Ok(false);
            };
            let target = if below {
                self.lower[basic].clone()
            } else {
                self.upper[basic].clone()
            };
            let Some(target) = target else {
                // A violated bound exists by construction; this cannot happen.
                return Err(SimplexFailure::PivotLimit);
            };
            self.pivot_and_update(row, entering, target)?;
        }
    }

    /// The smallest or largest value `variable` takes over the (feasible) tableau. The assignment
    /// stays feasible and, for a bounded optimum, ends at an optimal point.
    pub(crate) fn optimize(&mut self, variable: usize, direction: Direction) -> SimplexResult<Optimum<S>> {
        loop {
            // Minimise `sign · variable`; its cost on nonbasic `j` is `sign · row[j]` when the
            // variable is basic, and `sign` on itself when it is nonbasic.
            let minimizing = direction == Direction::Minimize;
            let mut entering = None;
            match self.row_of_variable[variable] {
                None => {
                    let improves = if minimizing {
                        self.can_decrease(variable)
                    } else {
                        self.can_increase(variable)
                    };
                    if improves {
                        entering = Some((variable, !minimizing));
                    }
                }
                Some(row) => {
                    for (candidate, coefficient) in self.rows[row].iter().enumerate() {
                        if coefficient.is_zero() || self.row_of_variable[candidate].is_some() {
                            continue;
                        }
                        // Moving the candidate up changes the variable by `coefficient`.
                        let up_improves = coefficient.is_negative() == minimizing;
                        let movable = if up_improves {
                            self.can_increase(candidate)
                        } else {
                            self.can_decrease(candidate)
                        };
                        if movable {
                            entering = Some((candidate, up_improves));
                            break;
                        }
                    }
                }
            }
            let Some((entering, increase)) = entering else {
                return Ok(Optimum::Bounded(self.value[variable].clone()));
            };
            // The ratio test: how far `entering` can move before a bound stops it.
            let own_limit = if increase {
                match &self.upper[entering] {
                    Some(upper) => Some(upper.checked_sub(&self.value[entering]).or_overflow()?),
                    None => None,
                }
            } else {
                match &self.lower[entering] {
                    Some(lower) => Some(self.value[entering].checked_sub(lower).or_overflow()?),
                    None => None,
                }
            };
            let mut best_row: Option<(S, usize, usize)> = None;
            for (row, &basic) in self.basic_variable_of_row.iter().enumerate() {
                let coefficient = &self.rows[row][entering];
                if coefficient.is_zero() {
                    continue;
                }
                let basic_increases = coefficient.is_positive() == increase;
                let limit = if basic_increases {
                    match &self.upper[basic] {
                        Some(upper) => upper.checked_sub(&self.value[basic]).or_overflow()?,
                        None => continue,
                    }
                } else {
                    match &self.lower[basic] {
                        Some(lower) => self.value[basic].checked_sub(lower).or_overflow()?,
                        None => continue,
                    }
                };
                let magnitude = if coefficient.is_negative() {
                    coefficient.checked_neg().or_overflow()?
                } else {
                    coefficient.clone()
                };
                let limit = limit.checked_div(&magnitude).or_overflow()?;
                let better = match &best_row {
                    None => true,
                    Some((best_limit, best_basic, _)) => {
                        limit < *best_limit || (limit == *best_limit && basic < *best_basic)
                    }
                };
                if better {
                    best_row = Some((limit, basic, row));
                }
            }
            let use_own_bound = match (&own_limit, &best_row) {
                (Some(own), Some((limit, _, _))) => own <= limit,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if use_own_bound {
                // The entering variable reaches its own bound first: no basis change.
                let own = own_limit.unwrap_or_else(S::zero);
                let new_value = if increase {
                    self.value[entering].checked_add(&own).or_overflow()?
                } else {
                    self.value[entering].checked_sub(&own).or_overflow()?
                };
                self.update_nonbasic(entering, new_value)?;
                self.pivots += 1;
                if self.pivots > limits::MAX_SIMPLEX_PIVOTS {
                    return Err(SimplexFailure::PivotLimit);
                }
            } else if let Some((_, basic, row)) = best_row {
                let basic_increases = self.rows[row][entering].is_positive() == increase;
                let target = if basic_increases {
                    self.upper[basic].clone()
                } else {
                    self.lower[basic].clone()
                };
                let Some(target) = target else {
                    // The ratio test only picks rows with a bound in the direction of motion.
                    return Err(SimplexFailure::PivotLimit);
                };
                self.pivot_and_update(row, entering, target)?;
            } else {
                return Ok(Optimum::Unbounded);
            }
        }
    }
}

/// A tableau holding a constraint system: one variable per dimension, one per constraint.
pub(crate) struct ConstraintTableau<S> {
    pub(crate) tableau: Tableau<S>,
    /// Whether some constraint without variables is false.
    pub(crate) trivially_infeasible: bool,
    pub(crate) dimensions: usize,
}

impl<S: Scalar> ConstraintTableau<S> {
    /// The tableau of `constraints` over `dimensions` dimensions (larger dimensions in a
    /// constraint extend the tableau).
    pub(crate) fn new(constraints: &[Constraint], dimensions: usize) -> SimplexResult<Self> {
        let dimensions = constraints
            .iter()
            .map(|constraint| constraint.expression().dimension_bound())
            .fold(dimensions, usize::max);
        let mut tableau = Tableau::new(dimensions);
        let mut trivially_infeasible = false;
        for constraint in constraints {
            let expression = constraint.expression();
            if expression.is_constant() {
                let constant = expression.constant_term();
                let holds = match constraint.relation() {
                    Relation::Equal => constant == 0,
                    Relation::GreaterOrEqual => constant >= 0,
                };
                trivially_infeasible |= !holds;
                continue;
            }
            let variable = tableau.add_defined_variable(expression.terms())?;
            let bound = S::from_integer(expression.constant_term())
                .or_overflow()?
                .checked_neg()
                .or_overflow()?;
            let upper = match constraint.relation() {
                Relation::Equal => Some(bound.clone()),
                Relation::GreaterOrEqual => None,
            };
            tableau.set_bounds(variable, Some(bound), upper)?;
        }
        Ok(ConstraintTableau {
            tableau,
            trivially_infeasible,
            dimensions,
        })
    }

    /// Whether the system has a rational solution; afterwards the assignment is one.
    pub(crate) fn check(&mut self) -> SimplexResult<bool> {
        if self.trivially_infeasible {
            return Ok(false);
        }
        self.tableau.check()
    }

    /// The current values of the dimensions (a solution after a feasible `check`).
    pub(crate) fn point(&self) -> Vec<BigRational> {
        (0..self.dimensions)
            .map(|dimension| self.tableau.value(dimension).to_big_rational())
            .collect()
    }

    /// The smallest or largest value of `expression` (without its constant) over the feasible system.
    pub(crate) fn optimize_expression(
        &mut self,
        expression: &LinearExpr,
        direction: Direction,
    ) -> SimplexResult<Optimum<S>> {
        let dimensions = self.dimensions;
        let variable = self
            .tableau
            .add_defined_variable(expression.terms().filter(|(dimension, _)| *dimension < dimensions))?;
        if expression.dimension_bound() > dimensions {
            // A dimension the system does not mention is unconstrained.
            return Ok(Optimum::Unbounded);
        }
        self.tableau.optimize(variable, direction)
    }

    /// Whether every solution of the feasible system satisfies `constraint`.
    pub(crate) fn entails(&mut self, constraint: &Constraint) -> SimplexResult<bool> {
        let expression = constraint.expression();
        if expression.is_constant() {
            let constant = expression.constant_term();
            return Ok(match constraint.relation() {
                Relation::Equal => constant == 0,
                Relation::GreaterOrEqual => constant >= 0,
            });
        }
        let threshold = S::from_integer(expression.constant_term())
            .or_overflow()?
            .checked_neg()
            .or_overflow()?;
        match self.optimize_expression(expression, Direction::Minimize)? {
            Optimum::Bounded(minimum) if minimum >= threshold => {}
            _ => return Ok(false),
        }
        if constraint.relation() == Relation::Equal {
            match self.optimize_expression(expression, Direction::Maximize)? {
                Optimum::Bounded(maximum) if maximum <= threshold => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// A question answered by the simplex, run over fast fractions first and big rationals on overflow.
pub(crate) trait Query {
    type Answer;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer>;
}

/// The exact answer to `query`, or `None` when the pivot budget ran out. The query runs over
/// adaptive rationals, which cannot overflow; big rationals remain as a last resort should a
/// query report an overflow anyway.
pub(crate) fn solve<Q: Query>(query: &Q) -> Option<Q::Answer> {
    match query.run::<AdaptiveRational>() {
        Ok(answer) => Some(answer),
        Err(SimplexFailure::PivotLimit) => None,
        Err(SimplexFailure::Overflow) => query.run::<BigRational>().ok(),
    }
}

/// A rational solution of a constraint system, or `None` inside when it has none.
pub(crate) struct FeasiblePoint<'a> {
    pub(crate) constraints: &'a [Constraint],
    pub(crate) dimensions: usize,
}

impl Query for FeasiblePoint<'_> {
    type Answer = Option<Vec<BigRational>>;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer> {
        let mut tableau = ConstraintTableau::<S>::new(self.constraints, self.dimensions)?;
        if tableau.check()? {
            Ok(Some(tableau.point()))
        } else {
            Ok(None)
        }
    }
}

/// The smallest and largest values of an expression over a system, or `None` inside when the
/// system is empty; an inner `None` is an unbounded side.
pub(crate) struct ExpressionBounds<'a> {
    pub(crate) constraints: &'a [Constraint],
    pub(crate) dimensions: usize,
    pub(crate) expression: &'a LinearExpr,
}

impl Query for ExpressionBounds<'_> {
    type Answer = Option<(Option<BigRational>, Option<BigRational>)>;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer> {
        let mut tableau = ConstraintTableau::<S>::new(self.constraints, self.dimensions)?;
        if !tableau.check()? {
            return Ok(None);
        }
        let constant = BigRational::from_integer(self.expression.constant_term().into());
        let mut side = |direction| -> SimplexResult<Option<BigRational>> {
            Ok(match tableau.optimize_expression(self.expression, direction)? {
                Optimum::Bounded(value) => Some(value.to_big_rational() + &constant),
                Optimum::Unbounded => None,
            })
        };
        let minimum = side(Direction::Minimize)?;
        let maximum = side(Direction::Maximize)?;
        Ok(Some((minimum, maximum)))
    }
}

/// Which of `queries` a system entails (all of them when it is empty). With `stop_at_first_failure`
/// the answer ends at the first query that is not entailed.
pub(crate) struct Entailment<'a> {
    pub(crate) constraints: &'a [Constraint],
    pub(crate) dimensions: usize,
    pub(crate) queries: &'a [Constraint],
    pub(crate) stop_at_first_failure: bool,
}

impl Query for Entailment<'_> {
    type Answer = Vec<bool>;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer> {
        let mut tableau = ConstraintTableau::<S>::new(self.constraints, self.dimensions)?;
        if !tableau.check()? {
            return Ok(vec![true; self.queries.len()]);
        }
        let mut answers = Vec::with_capacity(self.queries.len());
        for query in self.queries {
            let entailed = self.constraints.contains(query) || tableau.entails(query)?;
            answers.push(entailed);
            if !entailed && self.stop_at_first_failure {
                break;
            }
        }
        Ok(answers)
    }
}

/// The minimum of each expression (without its constant) over a system: `None` inside for an
/// unbounded one, and `None` outside when the system is empty.
pub(crate) struct Minimums<'a> {
    pub(crate) constraints: &'a [Constraint],
    pub(crate) dimensions: usize,
    pub(crate) expressions: &'a [LinearExpr],
}

impl Query for Minimums<'_> {
    type Answer = Option<Vec<Option<BigRational>>>;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer> {
        let mut tableau = ConstraintTableau::<S>::new(self.constraints, self.dimensions)?;
        if !tableau.check()? {
            return Ok(None);
        }
        let mut minimums = Vec::with_capacity(self.expressions.len());
        for expression in self.expressions {
            let minimum = match tableau.optimize_expression(expression, Direction::Minimize)? {
                Optimum::Bounded(value) => Some(value.to_big_rational()),
                Optimum::Unbounded => None,
            };
            tableau.tableau.remove_last_variable()?;
            minimums.push(minimum);
        }
        Ok(Some(minimums))
    }
}

/// What minimisation found out about each constraint of a system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Minimization {
    /// The system has no rational solution.
    Empty,
    /// More inequalities than the requested limit are irredundant; the search stopped.
    TooLarge,
    /// For each constraint: whether it is kept, and whether it is (now) an equality. A removed
    /// constraint is implied by the kept ones; an inequality that became an equality holds with
    /// equality at every solution.
    Reduced { keep: Vec<bool>, equality: Vec<bool> },
}

/// Finds the implicit equalities and the redundant constraints of a system, exactly.
///
/// 1. Implicit equalities: maximise `t` subject to `a·x + c ≥ t` for every inequality, the
///    equalities, and `t ≤ 1`. If the optimum is positive, the optimal `x` satisfies every
///    inequality strictly (an interior point). If it is zero, the optimal tableau writes
///    `t = Σ r_j·(s_j - bound_j)` with `r_j ≤ 0`, and every inequality whose slack has `r_j < 0`
///    holds with equality at every point (put `t = 0`); they become equalities and the step
///    repeats. Each round finds at least one, so this ends.
/// 2. Redundant inequalities, by Clarkson's output-sensitive method: with `S` the inequalities
///    known to be irredundant, minimise inequality `i` over `S`, the equalities and `i` itself
///    relaxed by one. If the minimum satisfies `i`, then `i` is implied by `S` and redundant.
///    Otherwise the optimum `x*` violates `i`; the segment from the interior point to `x*` leaves
///    the polyhedron through some constraint first, and if exactly one constraint is crossed
///    first, it is irredundant (just past the crossing point every other constraint still
///    holds) and joins `S`; then `i` is tested again. When several are crossed at once, `i` is
///    decided by one linear program over all the constraints not yet found redundant. The linear
///    programs thus have about as many rows as the result rather than the input.
///
/// Equalities are all kept (linear dependence among them is removed elsewhere, exactly, by
/// elimination).
pub(crate) struct RedundancyRemoval<'a> {
    pub(crate) constraints: &'a [Constraint],
    pub(crate) dimensions: usize,
    /// Stop with [`Minimization::TooLarge`] once more inequalities than this are found
    /// irredundant (the cost of each test grows with their number).
    pub(crate) irredundant_limit: Option<usize>,
}

/// Adds `a·x (+ extra terms)` as a new tableau variable with the bounds of `a·x + c ≥ 0` (or `= 0`),
/// optionally relaxed by `relaxation`. Returns the variable.
fn add_constraint_variable<S: Scalar>(
    tableau: &mut Tableau<S>,
    expression: &LinearExpr,
    equality: bool,
    extra_term: Option<(usize, i64)>,
    relaxation: i64,
) -> SimplexResult<usize> {
    let variable = tableau.add_defined_variable(expression.terms().chain(extra_term))?;
    let bound = S::from_integer(expression.constant_term())
        .or_overflow()?
        .checked_neg()
        .or_overflow()?;
    if equality {
        tableau.set_bounds(variable, Some(bound.clone()), Some(bound))?;
    } else {
        let relaxed = bound
            .checked_sub(&S::from_integer(relaxation).or_overflow()?)
            .or_overflow()?;
        tableau.set_bounds(variable, Some(relaxed), None)?;
    }
    Ok(variable)
}

/// The value of `a·x + c` at a point.
fn evaluate<S: Scalar>(expression: &LinearExpr, point: &[S]) -> SimplexResult<S> {
    let mut value = S::from_integer(expression.constant_term()).or_overflow()?;
    for (dimension, coefficient) in expression.terms() {
        let term = S::from_integer(coefficient)
            .or_overflow()?
            .checked_mul(&point[dimension])
            .or_overflow()?;
        value = value.checked_add(&term).or_overflow()?;
    }
    Ok(value)
}

/// Whether the constraints `members` (plus the equalities) imply inequality `tested`: the minimum
/// of its expression over them, with its own bound relaxed by one, satisfies it. Otherwise also
/// returns the minimising point, which violates it.
fn implied_by<S: Scalar>(
    constraints: &[Constraint],
    dimensions: usize,
    equality: &[bool],
    equalities: &[usize],
    members: &[usize],
    tested: usize,
) -> SimplexResult<(bool, Vec<S>)> {
    let mut tableau = Tableau::<S>::new(dimensions);
    for &index in equalities.iter().chain(members) {
        add_constraint_variable(&mut tableau, constraints[index].expression(), equality[index], None, 0)?;
    }
    relaxed_minimum(&mut tableau, constraints[tested].expression(), dimensions)
}

/// Adds inequality `a·x + c ≥ 0`, relaxed by one, to a tableau of constraints that a point
/// satisfies strictly (so the system stays feasible and the minimum finite), and minimises
/// `a·x`: whether the minimum satisfies the unrelaxed inequality, and the minimising point. The
/// inequality's variable is left in the tableau, last.
fn relaxed_minimum<S: Scalar>(
    tableau: &mut Tableau<S>,
    expression: &LinearExpr,
    dimensions: usize,
) -> SimplexResult<(bool, Vec<S>)> {
    let variable = add_constraint_variable(tableau, expression, false, None, 1)?;
    if !tableau.check()? {
        // The system with an interior point cannot be infeasible.
        return Err(SimplexFailure::PivotLimit);
    }
    let Optimum::Bounded(minimum) = tableau.optimize(variable, Direction::Minimize)? else {
        // The relaxed bound keeps the minimum finite.
        return Err(SimplexFailure::PivotLimit);
    };
    let bound = S::from_integer(expression.constant_term())
        .or_overflow()?
        .checked_neg()
        .or_overflow()?;
    let point: Vec<S> = (0..dimensions)
        .map(|dimension| tableau.value(dimension).clone())
        .collect();
    Ok((minimum >= bound, point))
}

impl Query for RedundancyRemoval<'_> {
    type Answer = Minimization;
    fn run<S: Scalar>(&self) -> SimplexResult<Self::Answer> {
        let constraints = self.constraints;
        let count = constraints.len();
        let dimensions = constraints
            .iter()
            .map(|constraint| constraint.expression().dimension_bound())
            .fold(self.dimensions, usize::max);
        let mut keep = vec![true; count];
        let mut equality: Vec<bool> = constraints.iter().map(Constraint::is_equality).collect();
        for (index, constraint) in constraints.iter().enumerate() {
            let expression = constraint.expression();
            if expression.is_constant() {
                let constant = expression.constant_term();
                let holds = if equality[index] { constant == 0 } else { constant >= 0 };
                if !holds {
                    return Ok(Minimization::Empty);
                }
                keep[index] = false;
            }
        }
        // Step 1: implicit equalities and an interior point.
        let Some(interior) = implicit_equalities::<S>(constraints, dimensions, &keep, &mut equality)? else {
            return Ok(Minimization::Empty);
        };
        // Step 2: Clarkson's redundancy removal.
        let Some(redundant) = redundant_inequalities(
            constraints,
            dimensions,
            &keep,
            &equality,
            &interior,
            self.irredundant_limit,
        )?
        else {
            return Ok(Minimization::TooLarge);
        };
        for index in 0..count {
            if redundant[index] {
                keep[index] = false;
            }
        }
        Ok(Minimization::Reduced { keep, equality })
    }
}

/// Step 1 of [`RedundancyRemoval`] over the kept constraints: marks as equalities the
/// inequalities that hold with equality at every solution, and returns a point that satisfies
/// every other one strictly (`None` when the system is empty).
fn implicit_equalities<S: Scalar>(
    constraints: &[Constraint],
    dimensions: usize,
    keep: &[bool],
    equality: &mut [bool],
) -> SimplexResult<Option<Vec<S>>> {
    let count = constraints.len();
    let slack = dimensions;
    loop {
        let mut tableau = Tableau::<S>::new(dimensions + 1);
        tableau.set_bounds(slack, None, Some(S::from_integer(1).or_overflow()?))?;
        let mut constraint_of_variable = vec![None; dimensions + 1];
        for index in (0..count).filter(|&index| keep[index]) {
            let extra = (!equality[index]).then_some((slack, -1));
            add_constraint_variable(&mut tableau, constraints[index].expression(), equality[index], extra, 0)?;
            constraint_of_variable.push(Some(index));
        }
        if !tableau.check()? {
            return Ok(None);
        }
        let Optimum::Bounded(optimum) = tableau.optimize(slack, Direction::Maximize)? else {
            return Err(SimplexFailure::PivotLimit);
        };
        if optimum.is_positive() {
            return Ok(Some(
                (0..dimensions)
                    .map(|dimension| tableau.value(dimension).clone())
                    .collect(),
            ));
        }
        let Some(row) = tableau.row_of_variable[slack] else {
            // A nonbasic slack variable below its upper bound would have been increased.
            return Err(SimplexFailure::PivotLimit);
        };
        let mut found = false;
        for (variable, coefficient) in tableau.rows[row].iter().enumerate() {
            if coefficient.is_zero() || tableau.row_of_variable[variable].is_some() {
                continue;
            }
            if let Some(Some(index)) = constraint_of_variable.get(variable) {
                if !equality[*index] {
                    equality[*index] = true;
                    found = true;
                }
            }
        }
        if !found {
            return Err(SimplexFailure::PivotLimit);
        }
    }
}

/// What step 2 of [`RedundancyRemoval`] knows of an inequality.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Redundancy {
    Unknown,
    Redundant,
    Irredundant,
}

/// Step 2 of [`RedundancyRemoval`], Clarkson's method, over the kept constraints (`equality`
/// includes the implicit equalities) and a point that satisfies every kept inequality strictly.
/// Returns which constraints are redundant, or `None` once more than `irredundant_limit`
/// inequalities are found irredundant.
fn redundant_inequalities<S: Scalar>(
    constraints: &[Constraint],
    dimensions: usize,
    keep: &[bool],
    equality: &[bool],
    interior: &[S],
    irredundant_limit: Option<usize>,
) -> SimplexResult<Option<Vec<bool>>> {
    let count = constraints.len();
    let equalities: Vec<usize> = (0..count).filter(|&index| keep[index] && equality[index]).collect();
    let inequalities: Vec<usize> = (0..count).filter(|&index| keep[index] && !equality[index]).collect();
    let mut status = vec![Redundancy::Unknown; count];
    let mut interior_values: Vec<Option<S>> = vec![None; count];
    for &index in &inequalities {
        interior_values[index] = Some(evaluate(constraints[index].expression(), interior)?);
    }
    // One tableau holds the equalities and the irredundant inequalities found so far; each
    // test adds the tested inequality relaxed by one, minimises it and removes it again.
    let mut irredundant: Vec<usize> = Vec::new();
    let mut tableau = Tableau::<S>::new(dimensions);
    for &index in &equalities {
        add_constraint_variable(&mut tableau, constraints[index].expression(), true, None, 0)?;
    }
    if !tableau.check()? {
        return Err(SimplexFailure::PivotLimit);
    }
    for &tested in &inequalities {
        while status[tested] == Redundancy::Unknown {
            let (implied, point) = relaxed_minimum(&mut tableau, constraints[tested].expression(), dimensions)?;
            tableau.remove_last_variable()?;
            if implied {
                status[tested] = Redundancy::Redundant;
                break;
            }
            let crossed = first_crossed(constraints, &inequalities, &status, &interior_values, &point)?;
            let newly_irredundant = if let [only] = crossed[..] {
                only
            } else {
                // Several constraints crossed at once (or, impossibly, none): decide `tested`
                // against every constraint not known to be redundant.
                let others: Vec<usize> = inequalities
                    .iter()
                    .copied()
                    .filter(|&other| other != tested && status[other] != Redundancy::Redundant)
                    .collect();
                let (implied, _) = implied_by::<S>(constraints, dimensions, equality, &equalities, &others, tested)?;
                if implied {
                    status[tested] = Redundancy::Redundant;
                    break;
                }
                tested
            };
            status[newly_irredundant] = Redundancy::Irredundant;
            irredundant.push(newly_irredundant);
            if irredundant_limit.is_some_and(|limit| irredundant.len() > limit) {
                return Ok(None);
            }
            add_constraint_variable(
                &mut tableau,
                constraints[newly_irredundant].expression(),
                false,
                None,
                0,
            )?;
            if !tableau.check()? {
                return Err(SimplexFailure::PivotLimit);
            }
        }
    }
    Ok(Some(
        status.iter().map(|status| *status == Redundancy::Redundant).collect(),
    ))
}

/// The inequalities of unknown status that a ray from the interior point towards `point` crosses
/// first (`point` violates them): constraint j is crossed at t_j = v_j(z) / (v_j(z) - v_j(point))
/// when v_j(point) < 0.
fn first_crossed<S: Scalar>(
    constraints: &[Constraint],
    inequalities: &[usize],
    status: &[Redundancy],
    interior_values: &[Option<S>],
    point: &[S],
) -> SimplexResult<Vec<usize>> {
    let mut first: Option<S> = None;
    let mut crossed: Vec<usize> = Vec::new();
    for &candidate in inequalities {
        if status[candidate] != Redundancy::Unknown {
            continue;
        }
        let at_point = evaluate(constraints[candidate].expression(), point)?;
        if !at_point.is_negative() {
            continue;
        }
        let Some(at_interior) = &interior_values[candidate] else {
            continue;
        };
        let crossing = at_interior
            .checked_div(&at_interior.checked_sub(&at_point).or_overflow()?)
            .or_overflow()?;
        match &first {
            Some(best) if crossing > *best => {}
            Some(best) if crossing == *best => crossed.push(candidate),
            _ => {
                first = Some(crossing);
                crossed = vec![candidate];
            }
        }
    }
    Ok(crossed)
}
