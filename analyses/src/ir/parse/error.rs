//! Error positions and the messages of syntax errors.

use super::{ParseError, Rule};

/// The line and column (from 1, in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    (line, 1 + before[line_start..].chars().count())
}

pub(super) fn error_at(text: &str, offset: usize, message: String) -> ParseError {
    let (line, column) = line_col(text, offset);
    ParseError { line, column, message }
}

/// Converts a pest error in the method starting at byte `offset` into a `ParseError`.
pub(super) fn syntax_error(text: &str, offset: usize, error: &pest::error::Error<Rule>) -> ParseError {
    let position = offset
        + match error.location {
            pest::error::InputLocation::Pos(pos) => pos,
            pest::error::InputLocation::Span((start, _)) => start,
        };
    let found = found_at(text, position);
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
            // Instructions first, then operands and other items, then what may follow a statement.
            let rank = |description: &str| match description {
                "an instruction" => 0,
                "an operand" => 1,
                "`catch`" => 3,
                "a statement `@pc#bytecodes ...`" => 4,
                "`rule`" => 5,
                "`proc`" => 6,
                "`method`" => 7,
                "end of input" => 8,
                _ => 2,
            };
            expected.sort_by_key(|description| rank(description));
            if expected.contains(&"an operand") {
                expected.retain(|description| !matches!(*description, "a string" | "a variable"));
            }
            if is_unterminated_string(text.get(position..).unwrap_or("")) {
                "unterminated string literal".to_owned()
            } else if expected.is_empty() {
                format!("unexpected {found}")
            } else {
                format!("expected {}, found {found}", join_alternatives(&expected))
            }
        }
    };
    error_at(text, position, message)
}

/// Whether `rest` starts with a string literal that its line does not close.
fn is_unterminated_string(rest: &str) -> bool {
    let Some(body) = rest.strip_prefix('"') else {
        return false;
    };
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return false,
            '\\' => {
                if matches!(chars.next(), None | Some('\n' | '\r')) {
                    return true;
                }
            }
            '\n' | '\r' => return true,
            _ => {}
        }
    }
    true
}

/// What the text holds at a byte offset, for error messages: the rest of its token, at most a few
/// characters of it.
fn found_at(text: &str, position: usize) -> String {
    let rest = text.get(position..).unwrap_or("");
    match rest.chars().next() {
        None => "end of input".to_owned(),
        Some('\n' | '\r') => "end of line".to_owned(),
        Some(_) if rest.starts_with('"') => {
            let line = rest.lines().next().unwrap_or("");
            let mut token: String = line.chars().take(40).collect();
            if token.len() < line.len() {
                token.push('…');
            }
            format!("`{token}`")
        }
        Some(_) => {
            let token: String = rest.chars().take_while(|c| !c.is_whitespace()).take(24).collect();
            format!("`{token}`")
        }
    }
}

fn join_alternatives(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// How an expected rule is named in error messages.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of input",
        Rule::method | Rule::kw_method | Rule::first_method | Rule::next_method => "`method`",
        Rule::member => "a member `Class.name:descriptor`",
        Rule::static_flag => "`static`",
        Rule::source | Rule::kw_source => "`source`",
        Rule::lines | Rule::kw_lines => "`lines`",
        Rule::line_entry => "a line entry `pc:line`",
        Rule::vars | Rule::kw_vars => "`vars`",
        Rule::var_decl => "a variable declaration `name:type`",
        Rule::ty => "a type (int, long, float, double, ref)",
        Rule::entry | Rule::kw_entry => "`entry`",
        Rule::procedure | Rule::kw_proc => "`proc`",
        Rule::var_list => "variables",
        Rule::proc_kind => "a procedure kind (entry, block, loop, branch, exit, handler)",
        Rule::at_pc => "`@pc`",
        Rule::guarded_rule | Rule::kw_rule => "`rule`",
        Rule::bytecodes => "`bc=N`",
        Rule::guard | Rule::kw_when => "`when`",
        Rule::not_instanceof | Rule::instanceof_cond | Rule::cmp_cond | Rule::kw_not => "a condition",
        Rule::kw_instanceof => "`instanceof`",
        Rule::cmp_op => "a comparison (==, !=, <, <=, >, >=)",
        Rule::stmt | Rule::stmt_pos => "a statement `@pc#bytecodes ...`",
        Rule::dst
        | Rule::putfield
        | Rule::kw_putfield
        | Rule::putstatic
        | Rule::kw_putstatic
        | Rule::array_store
        | Rule::astore_op
        | Rule::call
        | Rule::kw_call
        | Rule::checkcast
        | Rule::kw_checkcast
        | Rule::monitorenter
        | Rule::kw_monitorenter
        | Rule::monitorexit
        | Rule::kw_monitorexit
        | Rule::throw
        | Rule::kw_throw => "an instruction",
        Rule::binary
        | Rule::binop
        | Rule::unary
        | Rule::unop
        | Rule::array_load
        | Rule::aload_op
        | Rule::getfield
        | Rule::kw_getfield
        | Rule::getstatic
        | Rule::kw_getstatic
        | Rule::arraylength
        | Rule::kw_arraylength
        | Rule::new_object
        | Rule::kw_new
        | Rule::newarray
        | Rule::kw_newarray
        | Rule::anewarray
        | Rule::kw_anewarray
        | Rule::multianewarray
        | Rule::kw_multianewarray
        | Rule::invoke
        | Rule::invoke_op
        | Rule::invokedynamic
        | Rule::kw_invokedynamic
        | Rule::concat
        | Rule::kw_concat
        | Rule::instanceof
        | Rule::ldc
        | Rule::kw_ldc => "an instruction",
        Rule::itf => "`itf`",
        Rule::bootstrap => "a bootstrap method index `#N`",
        Rule::ldc_methodtype
        | Rule::kw_methodtype
        | Rule::ldc_methodhandle
        | Rule::kw_methodhandle
        | Rule::ldc_dynamic
        | Rule::kw_dynamic => "a loadable constant (methodtype, methodhandle, dynamic)",
        Rule::handler | Rule::kw_catch => "`catch`",
        Rule::assign
        | Rule::paren_operands
        | Rule::call_operands
        | Rule::class_lit
        | Rule::paren_class_lit
        | Rule::call_class_lit
        | Rule::kw_class
        | Rule::int_lit
        | Rule::long_lit
        | Rule::float_lit
        | Rule::double_lit
        | Rule::float_bits
        | Rule::double_bits
        | Rule::null_lit => "an operand",
        Rule::var => "a variable",
        Rule::proc_name => "a procedure name",
        Rule::prim_ty => "a primitive type",
        Rule::string => "a string",
        Rule::bare_name | Rule::paren_bare_name | Rule::call_bare_name => "a name",
        Rule::name_desc => "a name and descriptor `name:descriptor`",
        Rule::uint => "a number",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::dot => "`.`",
        Rule::semi => "`;`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::eq => "`=`",
        Rule::file_comment => "a comment",
        // Silent rules never reach error messages.
        Rule::WHITESPACE
        | Rule::line_break
        | Rule::COMMENT
        | Rule::rest_of_line
        | Rule::ident_char
        | Rule::name_char
        | Rule::word_char
        | Rule::cond
        | Rule::value_form
        | Rule::effect_form
        | Rule::type_letter
        | Rule::elem_letter
        | Rule::operand
        | Rule::paren_operand
        | Rule::call_operand
        | Rule::scalar
        | Rule::decimal
        | Rule::name
        | Rule::ident => "",
    }
}
