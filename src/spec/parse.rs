//! Parser of annotation strings (grammar in `grammar/spec.pest`) into the assertion syntax tree,
//! with the byte span of every node. The inverse of the assertion printer.
//!
//! Besides the syntax, the parser checks what needs no knowledge of the method: existential
//! variables are declared once and every bare name in a term is declared; numbers fit 63 bits.

use jresa_analyses::amortised::assertion::{
    Assertion, Assertions, ClassName, DataAssertion, DataOp, HeapAssertion, LinearExpr, LinearTerm, Span, SpecError,
    Term, TermKind, TypeName, TypedVar,
};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/spec.pest"]
struct SpecParser;

/// Parses one annotation string.
pub fn parse_assertions(text: &str) -> Result<Assertions, SpecError> {
    let mut pairs = SpecParser::parse(Rule::spec, text).map_err(|error| syntax_error(text, &error))?;
    let spec = pairs
        .next()
        .ok_or_else(|| SpecError::new("empty annotation", Span::new(0, 0)))?;
    let span = span_of(&spec);
    let mut exists: Vec<TypedVar> = Vec::new();
    let mut disjuncts = Vec::new();
    for pair in spec.into_inner() {
        match pair.as_rule() {
            Rule::exists_clause => {
                for typed in pair.into_inner().filter(|p| p.as_rule() == Rule::typed_var) {
                    let var = typed_var(typed)?;
                    if exists.iter().any(|v| v.name == var.name) {
                        return Err(SpecError::new(
                            format!("existential variable `{}` is declared twice", var.name),
                            var.span,
                        ));
                    }
                    exists.push(var);
                }
            }
            Rule::assertion => disjuncts.push(assertion(pair, &exists)?),
            _ => {}
        }
    }
    Ok(Assertions {
        exists,
        disjuncts,
        span,
    })
}

/// The span of a node, without the whitespace the grammar lets trail it.
fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let start = pair.as_span().start();
    Span::new(start, start + pair.as_str().trim_end().len())
}

/// The constant 0, standing for an empty resource expression at `span`.
fn zero_at(span: Span) -> LinearExpr {
    LinearExpr {
        terms: vec![LinearTerm {
            coefficient: 0,
            variable: None,
            span,
        }],
        span,
    }
}

fn typed_var(pair: Pair<'_, Rule>) -> Result<TypedVar, SpecError> {
    let span = span_of(&pair);
    let mut name = String::new();
    let mut ty = TypeName::Ref;
    let mut class = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::ident => name = part.as_str().to_owned(),
            Rule::type_name => ty = type_name(&part)?,
            Rule::class_name => {
                class = Some(ClassName {
                    name: part.as_str().to_owned(),
                    span: span_of(&part),
                })
            }
            _ => {}
        }
    }
    Ok(TypedVar { name, ty, class, span })
}

fn type_name(pair: &Pair<'_, Rule>) -> Result<TypeName, SpecError> {
    TypeName::from_keyword(pair.as_str()).ok_or_else(|| SpecError::new("unknown type", span_of(pair)))
}

fn assertion(pair: Pair<'_, Rule>, exists: &[TypedVar]) -> Result<Assertion, SpecError> {
    let span = span_of(&pair);
    let mut data = Vec::new();
    let mut heap = Vec::new();
    let mut resource = zero_at(Span::new(span.end, span.end));
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::data_part => {
                for item in part.into_inner().filter(|p| p.as_rule() == Rule::data_assertion) {
                    data.push(data_assertion(item, exists)?);
                }
            }
            Rule::heap_part => {
                for item in part.into_inner().filter(|p| p.as_rule() == Rule::heap_assertion) {
                    heap.push(heap_assertion(item, exists)?);
                }
            }
            Rule::resource_part => {
                let part_span = span_of(&part);
                resource = match part.into_inner().find(|p| p.as_rule() == Rule::linear) {
                    Some(linear) => linear_expr(linear)?,
                    None => zero_at(part_span),
                };
            }
            _ => {}
        }
    }
    Ok(Assertion {
        data,
        heap,
        resource,
        span,
    })
}

fn data_assertion(pair: Pair<'_, Rule>, exists: &[TypedVar]) -> Result<DataAssertion, SpecError> {
    let span = span_of(&pair);
    let mut terms = Vec::new();
    let mut op = DataOp::Eq;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::term => terms.push(term(part, exists)?),
            Rule::ne => op = DataOp::Ne,
            _ => {}
        }
    }
    let rhs = terms.pop();
    let lhs = terms.pop();
    match (lhs, rhs) {
        (Some(lhs), Some(rhs)) => Ok(DataAssertion { lhs, op, rhs, span }),
        _ => Err(SpecError::new("malformed data assertion", span)),
    }
}

fn heap_assertion(pair: Pair<'_, Rule>, exists: &[TypedVar]) -> Result<HeapAssertion, SpecError> {
    let outer_span = span_of(&pair);
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| SpecError::new("malformed heap assertion", outer_span))?;
    let span = span_of(&inner);
    let rule = inner.as_rule();
    let mut terms = Vec::new();
    let mut linear = None;
    let mut field = String::new();
    let mut ty = TypeName::Ref;
    let mut target_unknown = false;
    for part in inner.into_inner() {
        match part.as_rule() {
            Rule::term => terms.push(term(part, exists)?),
            Rule::linear => linear = Some(linear_expr(part)?),
            Rule::ident => field = part.as_str().to_owned(),
            Rule::type_name => ty = type_name(&part)?,
            Rule::location => {
                let location = part
                    .into_inner()
                    .next()
                    .ok_or_else(|| SpecError::new("malformed location", span))?;
                match location.as_rule() {
                    Rule::unknown => target_unknown = true,
                    _ => terms.push(term(location, exists)?),
                }
            }
            _ => {}
        }
    }
    let malformed = || SpecError::new("malformed heap assertion", span);
    let mut terms = terms.into_iter();
    match rule {
        Rule::field_assertion => {
            let object = terms.next().ok_or_else(malformed)?;
            let target = if target_unknown {
                None
            } else {
                Some(terms.next().ok_or_else(malformed)?)
            };
            Ok(HeapAssertion::Field {
                object,
                field,
                ty,
                target,
                span,
            })
        }
        Rule::lseg => Ok(HeapAssertion::Lseg {
            resource: linear.ok_or_else(malformed)?,
            from: terms.next().ok_or_else(malformed)?,
            to: terms.next().ok_or_else(malformed)?,
            span,
        }),
        Rule::tree => Ok(HeapAssertion::Tree {
            resource: linear.ok_or_else(malformed)?,
            root: terms.next().ok_or_else(malformed)?,
            span,
        }),
        _ => Err(malformed()),
    }
}

fn term(pair: Pair<'_, Rule>, exists: &[TypedVar]) -> Result<Term, SpecError> {
    let span = span_of(&pair);
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| SpecError::new("malformed term", span))?;
    let name = || {
        inner
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::ident)
            .map(|p| p.as_str().to_owned())
            .unwrap_or_default()
    };
    let kind = match inner.as_rule() {
        Rule::arg_term => TermKind::Arg(name()),
        Rule::var_term => TermKind::Var(name()),
        Rule::ret_term => TermKind::Ret,
        Rule::null_term => TermKind::Null,
        _ => {
            let name = inner.as_str().to_owned();
            if !exists.iter().any(|v| v.name == name) {
                return Err(SpecError::new(
                    format!(
                        "`{name}` is not declared: write `@arg {name}` for a parameter, `@var {name}` for a local variable, or declare it with `exists {name}:ref.`"
                    ),
                    span,
                ));
            }
            TermKind::Exists(name)
        }
    };
    Ok(Term { kind, span })
}

fn linear_expr(pair: Pair<'_, Rule>) -> Result<LinearExpr, SpecError> {
    let span = span_of(&pair);
    let mut terms = Vec::new();
    let mut negative = false;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::minus => negative = true,
            Rule::plus => negative = false,
            Rule::linear_term => {
                let term_span = span_of(&part);
                let mut coefficient: i64 = 1;
                let mut variable = None;
                for item in part.into_inner() {
                    match item.as_rule() {
                        Rule::number => {
                            coefficient = item
                                .as_str()
                                .parse::<i64>()
                                .map_err(|_| SpecError::new("number too large (at most 2^63 - 1)", span_of(&item)))?
                        }
                        Rule::ident => variable = Some(item.as_str().to_owned()),
                        _ => {}
                    }
                }
                if negative {
                    coefficient = -coefficient;
                }
                terms.push(LinearTerm {
                    coefficient,
                    variable,
                    span: term_span,
                });
                negative = false;
            }
            _ => {}
        }
    }
    Ok(LinearExpr { terms, span })
}

/// What a grammar rule stands for in an error message; empty for rules never named.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::open_brace => "`{`",
        Rule::close_brace => "`}`",
        Rule::open_paren => "`(`",
        Rule::close_paren => "`)`",
        Rule::open_square | Rule::field_assertion => "`[`",
        Rule::close_square => "`]`",
        Rule::bar => "`|`",
        Rule::or => "`||`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::dot => "`.`",
        Rule::arrow => "`->`",
        Rule::star => "`*`",
        Rule::eq | Rule::ne => "`==` or `!=`",
        Rule::plus => "`+`",
        Rule::minus => "`-`",
        Rule::kw_exists | Rule::exists_clause => "`exists`",
        Rule::type_name => "a type (int, long, float, double, ref)",
        Rule::class_name => "a class name",
        Rule::ident | Rule::typed_var => "a name",
        Rule::number => "a number",
        Rule::term
        | Rule::arg_term
        | Rule::var_term
        | Rule::ret_term
        | Rule::null_term
        | Rule::exists_term
        | Rule::kw_null => "a term (@arg x, @var x, @ret, null or an existential variable)",
        Rule::data_assertion => "a data assertion (`a == b` or `a != b`)",
        Rule::heap_assertion | Rule::lseg | Rule::tree | Rule::kw_lseg | Rule::kw_tree => {
            "a heap assertion (lseg, tree or [(t).f:type -> v])"
        }
        Rule::location | Rule::unknown => "a term or `?`",
        Rule::linear | Rule::linear_term | Rule::resource_part => "a resource expression",
        Rule::assertion => "an assertion `{ data | heap | resource }`",
        Rule::EOI => "end of the annotation",
        _ => "",
    }
}

/// Converts a pest error into a diagnostic at the offending position.
fn syntax_error(text: &str, error: &pest::error::Error<Rule>) -> SpecError {
    let position = match error.location {
        pest::error::InputLocation::Pos(pos) => pos,
        pest::error::InputLocation::Span((start, _)) => start,
    };
    let found = found_at(text, position);
    let end = (position + found.len().max(1)).min(text.len()).max(position);
    let message = match &error.variant {
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<&str> = Vec::new();
            for rule in positives {
                let description = describe(*rule);
                if !description.is_empty() && !expected.contains(&description) {
                    expected.push(description);
                }
            }
            let shown = if found.is_empty() {
                "the end of the annotation".to_owned()
            } else {
                format!("`{found}`")
            };
            match expected.as_slice() {
                [] if position == 0 => {
                    format!("expected `exists` or an assertion `{{ data | heap | resource }}`, found {shown}")
                }
                [] => format!("unexpected {shown}"),
                [one] => format!("expected {one}, found {shown}"),
                [init @ .., last] => format!("expected {} or {last}, found {shown}", init.join(", ")),
            }
        }
    };
    SpecError::new(message, Span::new(position, end))
}

/// The token at `position`: a word, or one character.
fn found_at(text: &str, position: usize) -> String {
    let rest = text.get(position..).unwrap_or("");
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '@')
        .collect();
    if word.is_empty() {
        rest.chars().next().map(String::from).unwrap_or_default()
    } else {
        word
    }
}
