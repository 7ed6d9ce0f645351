//! Parser of printed cost bounds (grammar in `grammar/bound.pest`): the inverse of
//! `Display for CostExpr`, used to read bounds back from baselines.
//!
//! The expression is rebuilt with `CostExpr`'s constructors, so it is normalised the same way as
//! the analysis builds it: **for every expression `e` built by the constructors,
//! `parse_bound(&e.to_string())` gives back `e`, and printing it gives the same text** (tested by
//! property tests). Errors carry the column (in characters, from 1) where the text goes wrong.

use super::expr::{CostExpr, Linear};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../../grammar/bound.pest"]
struct BoundParser;

/// Why a bound does not parse, and where (column in characters, from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundParseError {
    pub column: usize,
    pub message: String,
}

impl fmt::Display for BoundParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for BoundParseError {}

/// Parentheses a bound may nest, at most: far beyond what the analysis prints, and low enough that
/// the recursive descent cannot exhaust the stack on hostile input.
pub const MAX_NESTING: usize = 200;

/// Parses a bound as printed by `CostExpr`'s `Display` (e.g. `9 + nat(n)*(10 + 6*nat(m))`).
pub fn parse_bound(text: &str) -> Result<CostExpr, BoundParseError> {
    let mut depth = 0usize;
    for (column, c) in text.chars().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(BoundParseError {
                column: column + 1,
                message: format!("parentheses nested more than {MAX_NESTING} deep"),
            });
        }
    }
    let mut pairs = BoundParser::parse(Rule::bound, text).map_err(|error| syntax_error(text, &error))?;
    let bound = pairs.next().ok_or_else(|| BoundParseError {
        column: 1,
        message: "empty bound".into(),
    })?;
    let sum = bound
        .into_inner()
        .find(|p| p.as_rule() == Rule::sum)
        .ok_or_else(|| BoundParseError {
            column: 1,
            message: "empty bound".into(),
        })?;
    build_sum(text, sum)
}

/// The column (in characters, from 1) of a byte position.
fn column(text: &str, position: usize) -> usize {
    text.get(..position).map_or(position, |prefix| prefix.chars().count()) + 1
}

fn syntax_error(text: &str, error: &pest::error::Error<Rule>) -> BoundParseError {
    let position = match error.location {
        pest::error::InputLocation::Pos(pos) => pos,
        pest::error::InputLocation::Span((start, _)) => start,
    };
    let found = text
        .get(position..)
        .and_then(|rest| rest.chars().next())
        .map_or("the end of the bound".to_owned(), |c| format!("`{c}`"));
    let message = match &error.variant {
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<&str> = positives
                .iter()
                .map(|r| describe(*r))
                .filter(|d| !d.is_empty())
                .collect();
            expected.sort_unstable();
            expected.dedup();
            // The keywords and `(` that start a term are all "a term".
            if expected.contains(&"a term") {
                expected.retain(|d| !matches!(*d, "`(`" | "`2^`" | "`log2`" | "`max`" | "`min`" | "`nat`"));
            }
            if expected.is_empty() {
                format!("unexpected {found}")
            } else {
                format!("expected {}, found {found}", expected.join(" or "))
            }
        }
    };
    BoundParseError {
        column: column(text, position),
        message,
    }
}

fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the bound",
        Rule::sum | Rule::product | Rule::nat | Rule::log2 | Rule::pow2 | Rule::max | Rule::min | Rule::constant => {
            "a term"
        }
        Rule::linear | Rule::first_term | Rule::term | Rule::coefficient | Rule::name | Rule::negative => {
            "a linear expression"
        }
        Rule::sign => "`+` or `-`",
        Rule::plus => "`+`",
        Rule::minus => "`-`",
        Rule::times => "`*`",
        Rule::comma => "`,`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::kw_nat => "`nat`",
        Rule::kw_log2 => "`log2`",
        Rule::kw_max => "`max`",
        Rule::kw_min => "`min`",
        Rule::two_to => "`2^`",
        Rule::one => "`1`",
        _ => "",
    }
}

fn error_at(text: &str, pair: &Pair<'_, Rule>, message: String) -> BoundParseError {
    BoundParseError {
        column: column(text, pair.as_span().start()),
        message,
    }
}

/// A rational literal `a` or `a/b` (with an optional leading `-`).
fn rational(text: &str, pair: &Pair<'_, Rule>) -> Result<BigRational, BoundParseError> {
    let literal = pair.as_str();
    let (negative, digits) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (numerator, denominator) = match digits.split_once('/') {
        Some((a, b)) => (a, b),
        None => (digits, "1"),
    };
    let parse = |digits: &str| digits.parse::<BigInt>().ok();
    let (Some(numerator), Some(denominator)) = (parse(numerator), parse(denominator)) else {
        return Err(error_at(text, pair, format!("malformed number `{literal}`")));
    };
    if denominator.is_zero() {
        return Err(error_at(text, pair, format!("division by zero in `{literal}`")));
    }
    let value = BigRational::new(numerator, denominator);
    Ok(if negative { -value } else { value })
}

fn build_sum(text: &str, pair: Pair<'_, Rule>) -> Result<CostExpr, BoundParseError> {
    let mut items = Vec::new();
    for product in pair.into_inner().filter(|p| p.as_rule() == Rule::product) {
        let mut factors = Vec::new();
        // Parentheses around a sum leave the sum as the factor.
        let is_factor = |p: &Pair<'_, Rule>| !matches!(p.as_rule(), Rule::times | Rule::lparen | Rule::rparen);
        for factor in product.into_inner().filter(is_factor) {
            factors.push(build_factor(text, factor)?);
        }
        items.push(CostExpr::mul(factors));
    }
    Ok(CostExpr::add(items))
}

fn build_factor(text: &str, pair: Pair<'_, Rule>) -> Result<CostExpr, BoundParseError> {
    let linear_of = |pair: Pair<'_, Rule>| -> Result<Linear, BoundParseError> {
        match pair.into_inner().find(|p| p.as_rule() == Rule::linear) {
            Some(linear) => build_linear(text, linear),
            None => Err(BoundParseError {
                column: 1,
                message: "internal error: a function without its argument".into(),
            }),
        }
    };
    match pair.as_rule() {
        Rule::constant => Ok(CostExpr::Const(rational(text, &pair)?)),
        Rule::nat => Ok(CostExpr::nat(linear_of(pair)?)),
        Rule::log2 => Ok(CostExpr::log2(linear_of(pair)?)),
        Rule::pow2 => Ok(CostExpr::pow2(linear_of(pair)?)),
        Rule::max | Rule::min => {
            let rule = pair.as_rule();
            let items: Result<Vec<CostExpr>, BoundParseError> = pair
                .into_inner()
                .filter(|p| p.as_rule() == Rule::sum)
                .map(|sum| build_sum(text, sum))
                .collect();
            Ok(match rule {
                Rule::max => CostExpr::max(items?),
                _ => CostExpr::min(items?),
            })
        }
        Rule::sum => build_sum(text, pair),
        _ => Err(error_at(text, &pair, format!("unexpected `{}`", pair.as_str()))),
    }
}

fn build_linear(text: &str, pair: Pair<'_, Rule>) -> Result<Linear, BoundParseError> {
    let mut linear = Linear::constant(0);
    let mut negative = false;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::first_term => {
                for inner in part.into_inner() {
                    match inner.as_rule() {
                        Rule::negative => negative = true,
                        Rule::term => add_term(text, &mut linear, inner, negative)?,
                        _ => {}
                    }
                }
            }
            Rule::sign => negative = part.as_str().trim() == "-",
            Rule::term => add_term(text, &mut linear, part, negative)?,
            _ => {}
        }
    }
    Ok(linear)
}

/// Adds `±[k*]name` or `±k` to `linear`.
fn add_term(text: &str, linear: &mut Linear, pair: Pair<'_, Rule>, negative: bool) -> Result<(), BoundParseError> {
    let mut coefficient = BigRational::one();
    let mut name = None;
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::coefficient => coefficient = rational(text, &inner)?,
            Rule::name => name = Some(inner.as_str().to_owned()),
            _ => {}
        }
    }
    if negative {
        coefficient = -coefficient;
    }
    let term = match name {
        Some(name) => Linear::var(&name),
        None => Linear::constant(1),
    };
    *linear = linear.add_scaled(&term, &coefficient);
    Ok(())
}
