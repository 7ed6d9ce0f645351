//! Parser of the textual IR (grammar in `grammar/ir.pest`): the inverse of `print_program`.
//!
//! The pest grammar checks the syntax; this module decodes literals and escapes, resolves
//! variables (by name, to their position in the `vars` line) and procedures (by name, to their
//! position in the method, so that calls and handler edges may refer to later procedures), and
//! checks what the printer leaves implicit: a conversion's destination has the mnemonic's target
//! type. A name declared twice resolves to its first declaration (the verifier reports duplicates).
//!
//! Methods are parsed one at a time, so memory stays proportional to the largest method, and names
//! are resolved through hash maps, so parsing takes time linear in the text. Errors carry the line
//! and column where the text goes wrong; syntax errors say what was expected there.

use super::types::*;
// `Rule` names the grammar's rules in this module, so the IR's rules go by another name.
use super::types::Rule as IrRule;
use pest::iterators::{Pair, Pairs};
use pest::Parser;
use pest_derive::Parser;
use std::collections::HashMap;
use std::fmt;

#[derive(Parser)]
#[grammar = "../../grammar/ir.pest"]
struct IrParser;

/// A syntax or name-resolution error, with its line and column (both from 1, columns in characters)
/// in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses the output of `print_program` (or hand-written IR in the same syntax) into a program.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let mut methods = Vec::new();
    let mut offset = 0;
    loop {
        let rest = &text[offset..];
        let start_rule = if offset == 0 {
            Rule::first_method
        } else {
            Rule::next_method
        };
        let mut chunks = IrParser::parse(start_rule, rest).map_err(|error| syntax_error(text, offset, &error))?;
        let Some(chunk) = chunks.next() else {
            return Err(error_at(
                text,
                offset,
                "internal error: the parser returned nothing".into(),
            ));
        };
        let end = chunk.as_span().end();
        let Some(method) = chunk.into_inner().find(|pair| pair.as_rule() == Rule::method) else {
            break;
        };
        methods.push(MethodReader::new(text, offset).method(method)?);
        if end == 0 {
            // A method is never empty, so this cannot happen; it guards the loop all the same.
            return Err(error_at(
                text,
                offset,
                "internal error: the parser made no progress".into(),
            ));
        }
        offset += end;
    }
    Ok(Program { methods })
}

/// The line and column (from 1, in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    (line, 1 + before[line_start..].chars().count())
}

fn error_at(text: &str, offset: usize, message: String) -> ParseError {
    let (line, column) = line_col(text, offset);
    ParseError { line, column, message }
}

/// Converts a pest error in the method starting at byte `offset` into a `ParseError`.
fn syntax_error(text: &str, offset: usize, error: &pest::error::Error<Rule>) -> ParseError {
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

/// Whether a pair is only syntax (a keyword, punctuation or a comment) and carries nothing to read.
fn is_syntax(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::comma
            | Rule::colon
            | Rule::dot
            | Rule::semi
            | Rule::lparen
            | Rule::rparen
            | Rule::eq
            | Rule::file_comment
            | Rule::kw_method
            | Rule::kw_source
            | Rule::kw_lines
            | Rule::kw_vars
            | Rule::kw_entry
            | Rule::kw_proc
            | Rule::kw_rule
            | Rule::kw_when
            | Rule::kw_not
            | Rule::kw_instanceof
            | Rule::kw_catch
            | Rule::kw_class
            | Rule::kw_getfield
            | Rule::kw_putfield
            | Rule::kw_getstatic
            | Rule::kw_putstatic
            | Rule::kw_arraylength
            | Rule::kw_new
            | Rule::kw_newarray
            | Rule::kw_anewarray
            | Rule::kw_multianewarray
            | Rule::kw_invokedynamic
            | Rule::kw_call
            | Rule::kw_checkcast
            | Rule::kw_monitorenter
            | Rule::kw_monitorexit
            | Rule::kw_throw
            | Rule::kw_ldc
            | Rule::kw_methodtype
            | Rule::kw_methodhandle
            | Rule::kw_dynamic
    )
}

type Fallible<T> = Result<T, ParseError>;

/// The children of a pair that carry information, in order.
struct Items<'i> {
    pairs: Pairs<'i, Rule>,
    /// Where the parent starts (in its method's text), for internal errors.
    start: usize,
}

impl<'i> Iterator for Items<'i> {
    type Item = Pair<'i, Rule>;

    fn next(&mut self) -> Option<Self::Item> {
        self.pairs.by_ref().find(|pair| !is_syntax(pair.as_rule()))
    }
}

impl<'i> Items<'i> {
    fn new(pair: Pair<'i, Rule>) -> Self {
        let start = pair.as_span().start();
        Items {
            pairs: pair.into_inner(),
            start,
        }
    }

    /// The next child, which the grammar guarantees.
    fn expect(&mut self, reader: &MethodReader<'_, '_>) -> Fallible<Pair<'i, Rule>> {
        let start = self.start;
        self.next()
            .ok_or_else(|| reader.error(start, "internal error: unexpected parse tree".into()))
    }

    /// The next child when it is of the given rule.
    fn next_if(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        let mut ahead = self.pairs.clone();
        let next = ahead.by_ref().find(|pair| !is_syntax(pair.as_rule()))?;
        if next.as_rule() == rule {
            self.pairs = ahead;
            Some(next)
        } else {
            None
        }
    }
}

/// Reads one method's parse tree, resolving names in that method.
struct MethodReader<'t, 'i> {
    /// The whole text, for error positions.
    text: &'t str,
    /// Where the method's chunk of the text starts: pair offsets are relative to it.
    base: usize,
    var_ids: HashMap<&'i str, VarId>,
    /// The declared variables' names and types, by id.
    var_decls: Vec<(&'i str, Ty)>,
    proc_ids: HashMap<&'i str, ProcId>,
}

impl<'t, 'i> MethodReader<'t, 'i> {
    fn new(text: &'t str, base: usize) -> Self {
        MethodReader {
            text,
            base,
            var_ids: HashMap::new(),
            var_decls: Vec::new(),
            proc_ids: HashMap::new(),
        }
    }

    fn error(&self, offset: usize, message: String) -> ParseError {
        error_at(self.text, self.base + offset, message)
    }

    fn error_at_pair(&self, pair: &Pair<'_, Rule>, message: String) -> ParseError {
        self.error(pair.as_span().start(), message)
    }

    fn internal(&self, pair: &Pair<'_, Rule>) -> ParseError {
        self.error_at_pair(
            pair,
            format!("internal error: unexpected {:?} in the parse tree", pair.as_rule()),
        )
    }

    fn method(mut self, pair: Pair<'i, Rule>) -> Fallible<MethodIr> {
        let mut items = Items::new(pair);
        let (class, name, descriptor) = self.member(items.expect(&self)?)?;
        let is_static = items.next_if(Rule::static_flag).is_some();
        let source = items.expect(&self)?;
        let source_file = match Items::new(source).next() {
            Some(text) => Some(self.string(&text)?),
            None => None,
        };
        let mut lines = Vec::new();
        for entry in Items::new(items.expect(&self)?) {
            let mut parts = Items::new(entry);
            let pc = self.uint(&parts.expect(&self)?)?;
            let line = self.uint(&parts.expect(&self)?)?;
            lines.push((pc, line));
        }
        let mut vars = Vec::new();
        for decl in Items::new(items.expect(&self)?) {
            let mut parts = Items::new(decl);
            let var = parts.expect(&self)?;
            let ty = parts.expect(&self)?;
            let id = self.fresh_id(&var, vars.len())?;
            self.var_ids.entry(var.as_str()).or_insert(VarId(id));
            let ty = match ty.as_str() {
                "int" => Ty::Int,
                "long" => Ty::Long,
                "float" => Ty::Float,
                "double" => Ty::Double,
                "ref" => Ty::Ref,
                _ => return Err(self.internal(&ty)),
            };
            self.var_decls.push((var.as_str(), ty));
            vars.push(VarDecl {
                name: var.as_str().to_owned(),
                ty,
            });
        }
        let entry = Items::new(items.expect(&self)?).expect(&self)?;
        let procs: Vec<Pair<'i, Rule>> = items.collect();
        for (index, proc) in procs.iter().enumerate() {
            let proc_name = Items::new(proc.clone()).expect(&self)?;
            let id = self.fresh_id(&proc_name, index)?;
            self.proc_ids.entry(proc_name.as_str()).or_insert(ProcId(id));
        }
        let entry = self.proc_ref(&entry)?;
        let procs = procs
            .into_iter()
            .map(|proc| self.procedure(proc))
            .collect::<Fallible<Vec<_>>>()?;
        Ok(MethodIr {
            class,
            name,
            descriptor,
            is_static,
            source_file,
            lines,
            vars,
            procs,
            entry,
        })
    }

    /// The id of the `index`th item of a table, if ids can still count that far.
    fn fresh_id(&self, pair: &Pair<'_, Rule>, index: usize) -> Fallible<u32> {
        u32::try_from(index).map_err(|_| self.error_at_pair(pair, "too many declarations".into()))
    }

    fn procedure(&self, pair: Pair<'i, Rule>) -> Fallible<Procedure> {
        let mut items = Items::new(pair);
        let name = items.expect(self)?.as_str().to_owned();
        let inputs = self.var_list(items.expect(self)?)?;
        let outputs = self.var_list(items.expect(self)?)?;
        let kind_pair = items.expect(self)?;
        let kind = match kind_pair.as_str() {
            "entry" => ProcKind::Entry,
            "block" => ProcKind::Block,
            "loop" => ProcKind::Loop,
            "branch" => ProcKind::Branch,
            "exit" => ProcKind::Exit,
            "handler" => ProcKind::Handler,
            _ => return Err(self.internal(&kind_pair)),
        };
        let pc = self.uint(&Items::new(items.expect(self)?).expect(self)?)?;
        let rules = items.map(|rule| self.rule(rule)).collect::<Fallible<Vec<_>>>()?;
        Ok(Procedure {
            name,
            kind,
            pc,
            inputs,
            outputs,
            rules,
        })
    }

    fn var_list(&self, pair: Pair<'i, Rule>) -> Fallible<Vec<VarId>> {
        Items::new(pair).map(|var| self.var(&var)).collect()
    }

    fn rule(&self, pair: Pair<'i, Rule>) -> Fallible<IrRule> {
        let mut items = Items::new(pair);
        let bytecodes = self.uint(&Items::new(items.expect(self)?).expect(self)?)?;
        let guard = match items.next_if(Rule::guard) {
            Some(guard) => Items::new(guard)
                .map(|cond| self.cond(cond))
                .collect::<Fallible<Vec<_>>>()?,
            None => Vec::new(),
        };
        let body = items.map(|stmt| self.stmt(stmt)).collect::<Fallible<Vec<_>>>()?;
        Ok(IrRule { guard, body, bytecodes })
    }

    fn cond(&self, pair: Pair<'i, Rule>) -> Fallible<Cond> {
        let rule = pair.as_rule();
        let mut items = Items::new(pair);
        match rule {
            Rule::cmp_cond => {
                let lhs = self.operand(items.expect(self)?)?;
                let op = match items.expect(self)?.as_str() {
                    "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let rhs = self.operand(items.expect(self)?)?;
                Ok(Cond::Cmp { op, lhs, rhs })
            }
            _ => {
                let value = self.operand(items.expect(self)?)?;
                let class = self.name(&items.expect(self)?)?;
                Ok(Cond::InstanceOf {
                    value,
                    class,
                    negated: rule == Rule::not_instanceof,
                })
            }
        }
    }

    fn stmt(&self, pair: Pair<'i, Rule>) -> Fallible<Stmt> {
        let mut items = Items::new(pair);
        let mut pos = Items::new(items.expect(self)?);
        let pc = self.uint(&pos.expect(self)?)?;
        let bytecodes = self.uint(&pos.expect(self)?)?;
        let dst = match items.next_if(Rule::dst) {
            Some(dst) => Some(self.var(&Items::new(dst).expect(self)?)?),
            None => None,
        };
        let kind = self.stmt_kind(dst, items.expect(self)?)?;
        let handler = match items.next() {
            Some(edge) => {
                let mut parts = Items::new(edge);
                let proc = self.proc_ref(&parts.expect(self)?)?;
                let args = self.operands(parts.expect(self)?)?;
                Some(HandlerEdge { proc, args })
            }
            None => None,
        };
        Ok(Stmt {
            pc,
            bytecodes,
            kind,
            handler,
        })
    }

    fn stmt_kind(&self, dst: Option<VarId>, pair: Pair<'i, Rule>) -> Fallible<StmtKind> {
        let rule = pair.as_rule();
        let start = pair.as_span().start();
        // The grammar only allows a destination on the forms that have one.
        let dst_var = || dst.ok_or_else(|| self.error(start, "internal error: missing destination".into()));
        let mut items = Items::new(pair);
        Ok(match rule {
            Rule::assign => StmtKind::Assign {
                dst: dst_var()?,
                src: self.operand(items.expect(self)?)?,
            },
            Rule::binary => {
                let mnemonic = items.expect(self)?.as_str();
                let ty = type_of_letter(mnemonic.as_bytes()[0]);
                let op = match &mnemonic[1..] {
                    "add" => BinOp::Add,
                    "sub" => BinOp::Sub,
                    "mul" => BinOp::Mul,
                    "div" => BinOp::Div,
                    "rem" => BinOp::Rem,
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    "xor" => BinOp::Xor,
                    "shl" => BinOp::Shl,
                    "shr" => BinOp::Shr,
                    "ushr" => BinOp::Ushr,
                    "cmp" => BinOp::Cmp,
                    "cmpl" => BinOp::CmpL,
                    _ => BinOp::CmpG,
                };
                let lhs = self.operand(items.expect(self)?)?;
                let rhs = self.operand(items.expect(self)?)?;
                StmtKind::Binary {
                    dst: dst_var()?,
                    op,
                    ty,
                    lhs,
                    rhs,
                }
            }
            Rule::unary => {
                let mnemonic_pair = items.expect(self)?;
                let mnemonic = mnemonic_pair.as_str();
                let bytes = mnemonic.as_bytes();
                let (op, from, to) = match mnemonic {
                    "i2b" => (UnOp::IntToByte, Ty::Int, Ty::Int),
                    "i2c" => (UnOp::IntToChar, Ty::Int, Ty::Int),
                    "i2s" => (UnOp::IntToShort, Ty::Int, Ty::Int),
                    _ if mnemonic.ends_with("neg") => {
                        let ty = type_of_letter(bytes[0]);
                        (UnOp::Neg, ty, ty)
                    }
                    _ => (UnOp::Convert, type_of_letter(bytes[0]), type_of_letter(bytes[2])),
                };
                let dst = dst_var()?;
                let Some(&(dst_name, dst_ty)) = self.var_decls.get(dst.index()) else {
                    return Err(self.internal(&mnemonic_pair));
                };
                if dst_ty != to {
                    return Err(self.error_at_pair(
                        &mnemonic_pair,
                        format!(
                            "`{mnemonic}` produces {} but the destination `{}` is declared {}",
                            to.keyword(),
                            dst_name,
                            dst_ty.keyword()
                        ),
                    ));
                }
                StmtKind::Unary {
                    dst,
                    op,
                    from,
                    src: self.operand(items.expect(self)?)?,
                }
            }
            Rule::array_load => {
                let elem = elem_of_letter(items.expect(self)?.as_str().as_bytes()[0]);
                let array = self.operand(items.expect(self)?)?;
                let index = self.operand(items.expect(self)?)?;
                StmtKind::ArrayLoad {
                    dst: dst_var()?,
                    elem,
                    array,
                    index,
                }
            }
            Rule::array_store => {
                let elem = elem_of_letter(items.expect(self)?.as_str().as_bytes()[0]);
                let array = self.operand(items.expect(self)?)?;
                let index = self.operand(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::ArrayStore {
                    elem,
                    array,
                    index,
                    value,
                }
            }
            Rule::getfield => {
                let object = self.operand(items.expect(self)?)?;
                let field = self.field(items.expect(self)?)?;
                StmtKind::GetField {
                    dst: dst_var()?,
                    object,
                    field,
                }
            }
            Rule::putfield => {
                let object = self.operand(items.expect(self)?)?;
                let field = self.field(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::PutField { object, field, value }
            }
            Rule::getstatic => StmtKind::GetStatic {
                dst: dst_var()?,
                field: self.field(items.expect(self)?)?,
            },
            Rule::putstatic => {
                let field = self.field(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::PutStatic { field, value }
            }
            Rule::arraylength => StmtKind::ArrayLength {
                dst: dst_var()?,
                array: self.operand(items.expect(self)?)?,
            },
            Rule::new_object => StmtKind::New {
                dst: dst_var()?,
                class: self.name(&items.expect(self)?)?,
            },
            Rule::newarray => {
                let elem_pair = items.expect(self)?;
                let elem = match elem_pair.as_str() {
                    "boolean" => PrimTy::Boolean,
                    "byte" => PrimTy::Byte,
                    "char" => PrimTy::Char,
                    "short" => PrimTy::Short,
                    "int" => PrimTy::Int,
                    "long" => PrimTy::Long,
                    "float" => PrimTy::Float,
                    "double" => PrimTy::Double,
                    _ => return Err(self.internal(&elem_pair)),
                };
                StmtKind::NewArray {
                    dst: dst_var()?,
                    elem,
                    length: self.operand(items.expect(self)?)?,
                }
            }
            Rule::anewarray => {
                let class = self.name(&items.expect(self)?)?;
                let length = self.operand(items.expect(self)?)?;
                StmtKind::NewRefArray {
                    dst: dst_var()?,
                    class,
                    length,
                }
            }
            Rule::multianewarray => {
                let descriptor = self.name(&items.expect(self)?)?;
                let lengths = items.map(|length| self.operand(length)).collect::<Fallible<Vec<_>>>()?;
                StmtKind::NewMultiArray {
                    dst: dst_var()?,
                    descriptor,
                    lengths,
                }
            }
            Rule::invoke => {
                let kind = match items.expect(self)?.as_str() {
                    "invokestatic" => CallKind::Static,
                    "invokespecial" => CallKind::Special,
                    "invokevirtual" => CallKind::Virtual,
                    _ => CallKind::Interface,
                };
                let itf = items.next_if(Rule::itf);
                if let Some(itf) = &itf {
                    if !matches!(kind, CallKind::Static | CallKind::Special) {
                        return Err(self.error_at_pair(
                            itf,
                            "`itf` only marks invokestatic and invokespecial of interface methods".into(),
                        ));
                    }
                }
                let (class, name, descriptor) = self.member(items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                StmtKind::Invoke {
                    dst,
                    kind,
                    interface: kind == CallKind::Interface || itf.is_some(),
                    method: MethodRef {
                        class,
                        name,
                        descriptor,
                    },
                    args,
                }
            }
            Rule::invokedynamic => {
                let bootstrap_pair = Items::new(items.expect(self)?).expect(self)?;
                let bootstrap = bootstrap_pair.as_str().parse::<u16>().map_err(|_| {
                    self.error_at_pair(
                        &bootstrap_pair,
                        "bootstrap method index out of range (0 to 65535)".into(),
                    )
                })?;
                let (name, descriptor) = self.name_desc(items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                StmtKind::InvokeDynamic {
                    dst,
                    name,
                    descriptor,
                    bootstrap,
                    args,
                }
            }
            Rule::call => {
                let proc = self.proc_ref(&items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                let outs = self.var_list(items.expect(self)?)?;
                StmtKind::Call { proc, args, outs }
            }
            Rule::checkcast => {
                let value = self.operand(items.expect(self)?)?;
                StmtKind::CheckCast {
                    value,
                    class: self.name(&items.expect(self)?)?,
                }
            }
            Rule::instanceof => {
                let value = self.operand(items.expect(self)?)?;
                StmtKind::InstanceOf {
                    dst: dst_var()?,
                    value,
                    class: self.name(&items.expect(self)?)?,
                }
            }
            Rule::monitorenter => StmtKind::MonitorEnter {
                value: self.operand(items.expect(self)?)?,
            },
            Rule::monitorexit => StmtKind::MonitorExit {
                value: self.operand(items.expect(self)?)?,
            },
            Rule::throw => StmtKind::Throw {
                value: self.operand(items.expect(self)?)?,
            },
            Rule::ldc => {
                let constant = items.expect(self)?;
                let rule = constant.as_rule();
                let mut parts = Items::new(constant);
                let value = match rule {
                    Rule::ldc_methodtype => OpaqueConst::MethodType(self.string(&parts.expect(self)?)?),
                    Rule::ldc_methodhandle => OpaqueConst::MethodHandle(self.string(&parts.expect(self)?)?),
                    _ => {
                        let (name, descriptor) = self.name_desc(parts.expect(self)?)?;
                        OpaqueConst::Dynamic { name, descriptor }
                    }
                };
                StmtKind::LoadConst { dst: dst_var()?, value }
            }
            _ => return Err(self.error(start, format!("internal error: unexpected {rule:?} in the parse tree"))),
        })
    }

    fn operands(&self, pair: Pair<'i, Rule>) -> Fallible<Vec<Operand>> {
        Items::new(pair).map(|operand| self.operand(operand)).collect()
    }

    fn operand(&self, pair: Pair<'i, Rule>) -> Fallible<Operand> {
        let text = pair.as_str();
        Ok(match pair.as_rule() {
            Rule::var => Operand::Var(self.var(&pair)?),
            Rule::int_lit => Operand::Int(
                text.parse()
                    .map_err(|_| self.error_at_pair(&pair, "integer literal out of range for int".into()))?,
            ),
            Rule::long_lit => Operand::Long(
                text[..text.len() - 1]
                    .parse()
                    .map_err(|_| self.error_at_pair(&pair, "integer literal out of range for long".into()))?,
            ),
            Rule::float_lit => {
                let digits = &text[..text.len() - 1];
                let value: f32 = digits.parse().map_err(|_| self.internal(&pair))?;
                self.check_decimal(&pair, digits, value.is_infinite(), value == 0.0, "float")?;
                Operand::Float(value.to_bits())
            }
            Rule::double_lit => {
                let digits = &text[..text.len() - 1];
                let value: f64 = digits.parse().map_err(|_| self.internal(&pair))?;
                self.check_decimal(&pair, digits, value.is_infinite(), value == 0.0, "double")?;
                Operand::Double(value.to_bits())
            }
            Rule::float_bits => Operand::Float(u32::from_str_radix(&text[2..], 16).map_err(|_| self.internal(&pair))?),
            Rule::double_bits => {
                Operand::Double(u64::from_str_radix(&text[2..], 16).map_err(|_| self.internal(&pair))?)
            }
            Rule::null_lit => Operand::Null,
            Rule::string => Operand::Str(self.string(&pair)?),
            Rule::class_lit | Rule::paren_class_lit | Rule::call_class_lit => {
                Operand::Class(self.name(&Items::new(pair).expect(self)?)?)
            }
            _ => return Err(self.internal(&pair)),
        })
    }

    /// Rejects decimal literals that do not denote a finite value of their type, or that are not
    /// zero but round to zero (as Java does); non-finite values are written as raw bits (`F#...`).
    fn check_decimal(&self, pair: &Pair<'_, Rule>, digits: &str, infinite: bool, zero: bool, ty: &str) -> Fallible<()> {
        let mantissa = digits.split(['e', 'E']).next().unwrap_or("");
        if infinite {
            Err(self.error_at_pair(pair, format!("{ty} literal too large (write infinities as raw bits)")))
        } else if zero && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            Err(self.error_at_pair(pair, format!("{ty} literal too small: it rounds to zero")))
        } else {
            Ok(())
        }
    }

    fn uint(&self, pair: &Pair<'_, Rule>) -> Fallible<u32> {
        pair.as_str()
            .parse()
            .map_err(|_| self.error_at_pair(pair, "number out of range (0 to 4294967295)".into()))
    }

    fn var(&self, pair: &Pair<'i, Rule>) -> Fallible<VarId> {
        self.var_ids
            .get(pair.as_str())
            .copied()
            .ok_or_else(|| self.error_at_pair(pair, format!("unknown variable `{}`", pair.as_str())))
    }

    fn proc_ref(&self, pair: &Pair<'i, Rule>) -> Fallible<ProcId> {
        self.proc_ids
            .get(pair.as_str())
            .copied()
            .ok_or_else(|| self.error_at_pair(pair, format!("unknown procedure `{}`", pair.as_str())))
    }

    fn member(&self, pair: Pair<'i, Rule>) -> Fallible<(String, String, String)> {
        let mut items = Items::new(pair);
        let class = self.name(&items.expect(self)?)?;
        let name = self.name(&items.expect(self)?)?;
        let descriptor = self.name(&items.expect(self)?)?;
        Ok((class, name, descriptor))
    }

    fn field(&self, pair: Pair<'i, Rule>) -> Fallible<FieldRef> {
        let (class, name, descriptor) = self.member(pair)?;
        Ok(FieldRef {
            class,
            name,
            descriptor,
        })
    }

    fn name_desc(&self, pair: Pair<'i, Rule>) -> Fallible<(String, String)> {
        let mut items = Items::new(pair);
        let name = self.name(&items.expect(self)?)?;
        let descriptor = self.name(&items.expect(self)?)?;
        Ok((name, descriptor))
    }

    /// A name, bare or quoted.
    fn name(&self, pair: &Pair<'_, Rule>) -> Fallible<String> {
        match pair.as_rule() {
            Rule::string => self.string(pair),
            _ => Ok(pair.as_str().to_owned()),
        }
    }

    /// Decodes a string literal, checking its escapes.
    fn string(&self, pair: &Pair<'_, Rule>) -> Fallible<String> {
        let quoted = pair.as_str();
        let Some(body) = quoted.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) else {
            return Err(self.internal(pair));
        };
        if !body.contains('\\') {
            return Ok(body.to_owned());
        }
        // Offsets in `body` are one past offsets in the literal.
        let at = |k: usize| pair.as_span().start() + 1 + k;
        let mut out = String::with_capacity(body.len());
        let mut rest = body;
        while let Some(backslash) = rest.find('\\') {
            out.push_str(&rest[..backslash]);
            let offset = body.len() - rest.len() + backslash;
            let after = &rest[backslash + 1..];
            let Some(escape) = after.chars().next() else {
                return Err(self.internal(pair));
            };
            let consumed = match escape {
                '\\' | '"' | 'n' | 'r' | 't' => {
                    out.push(match escape {
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        c => c,
                    });
                    1
                }
                'u' => {
                    let invalid = || {
                        self.error(
                            at(offset),
                            "invalid `\\u{...}` escape: expected 1 to 6 hex digits".into(),
                        )
                    };
                    let braced = after[1..].strip_prefix('{').ok_or_else(invalid)?;
                    let close = braced.find('}').ok_or_else(invalid)?;
                    let hex = &braced[..close];
                    if hex.is_empty() || hex.len() > 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(invalid());
                    }
                    let code = u32::from_str_radix(hex, 16).map_err(|_| invalid())?;
                    let c = char::from_u32(code).ok_or_else(|| {
                        self.error(at(offset), format!("`\\u{{{hex}}}` is not a Unicode scalar value"))
                    })?;
                    out.push(c);
                    // `u`, `{`, the digits and `}`.
                    3 + close
                }
                other => return Err(self.error(at(offset), format!("invalid escape `\\{other}` in a string"))),
            };
            rest = &after[consumed..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

fn type_of_letter(letter: u8) -> Ty {
    match letter {
        b'i' => Ty::Int,
        b'l' => Ty::Long,
        b'f' => Ty::Float,
        b'd' => Ty::Double,
        _ => Ty::Ref,
    }
}

fn elem_of_letter(letter: u8) -> ElemTy {
    match letter {
        b'i' => ElemTy::Int,
        b'l' => ElemTy::Long,
        b'f' => ElemTy::Float,
        b'd' => ElemTy::Double,
        b'a' => ElemTy::Ref,
        b'b' => ElemTy::Byte,
        b'c' => ElemTy::Char,
        _ => ElemTy::Short,
    }
}
