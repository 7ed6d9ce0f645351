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
//!
//! This file reads methods, procedures, rules and guards; `stmt` reads statements, one function per
//! family of instructions; `operand` reads operands, literals and names; `error` words syntax
//! errors.

mod error;
mod operand;
mod stmt;

use super::types::*;
// `Rule` names the grammar's rules in this module, so the IR's rules go by another name.
use super::types::Rule as IrRule;
use error::{error_at, syntax_error};
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
            | Rule::kw_concat
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
            ghosts: Vec::new(),
            heap_entry: None,
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
}
