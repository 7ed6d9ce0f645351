//! The assertion language of `@Requires`, `@Ensures` and `@Invariant`: its syntax tree, with the
//! byte span of every node inside the annotation string, and the canonical printer.
//!
//! An annotation holds `[exists x:ref ... .] { data | heap | resource } || { ... }`: optional
//! existential variables shared by every disjunct (a reference may be declared with its class,
//! `x:Cell`), then disjuncts of `==`/`!=` facts, separated
//! heap assertions (`lseg`, `tree`, field points-to) and a linear amount of resource. The printer
//! writes the canonical text, which the parser in `src/spec` reads back to the same tree (spans
//! aside).

use std::fmt;

/// A byte range `[start, end)` inside the annotation string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// The type of an existential variable or of a field in a field assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeName {
    Int,
    Long,
    Float,
    Double,
    Ref,
}

impl TypeName {
    pub fn keyword(self) -> &'static str {
        match self {
            TypeName::Int => "int",
            TypeName::Long => "long",
            TypeName::Float => "float",
            TypeName::Double => "double",
            TypeName::Ref => "ref",
        }
    }

    /// The type of a keyword, if it is one.
    pub fn from_keyword(word: &str) -> Option<TypeName> {
        [
            TypeName::Int,
            TypeName::Long,
            TypeName::Float,
            TypeName::Double,
            TypeName::Ref,
        ]
        .into_iter()
        .find(|t| t.keyword() == word)
    }
}

/// A class named in an assertion, as written (`Cell`, `Queue.Cell`, `Queue$Cell`, `pkg.Queue`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassName {
    pub name: String,
    pub span: Span,
}

/// An existential variable with its declared type. A variable declared with a class (`x: Cell`)
/// is a reference (`ty` is `Ref`) of that class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedVar {
    pub name: String,
    pub ty: TypeName,
    pub class: Option<ClassName>,
    pub span: Span,
}

/// What a term denotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// An existential variable, by name.
    Exists(String),
    /// `@arg x`: the value of parameter `x` when the method was entered.
    Arg(String),
    /// `@var x`: the current value of local variable `x` (at a loop head).
    Var(String),
    /// `@ret`: the value the method returns.
    Ret,
    Null,
}

/// A term with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

/// `==` or `!=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataOp {
    Eq,
    Ne,
}

/// A data assertion `lhs == rhs` or `lhs != rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataAssertion {
    pub lhs: Term,
    pub op: DataOp,
    pub rhs: Term,
    pub span: Span,
}

/// One `coefficient * variable` term of a linear expression, or a constant when `variable` is
/// `None`. The coefficient carries the sign written before the term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearTerm {
    pub coefficient: i64,
    pub variable: Option<String>,
    pub span: Span,
}

/// A linear expression over resource variables, e.g. `3*r1 + r2 - 1`; no terms means `0` (the
/// parser writes an empty expression as the constant term `0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearExpr {
    pub terms: Vec<LinearTerm>,
    pub span: Span,
}

impl LinearExpr {
    /// The constant `value`.
    pub fn constant(value: i64) -> LinearExpr {
        LinearExpr {
            terms: vec![LinearTerm {
                coefficient: value,
                variable: None,
                span: Span::default(),
            }],
            span: Span::default(),
        }
    }

    /// The single variable `name`.
    pub fn variable(name: &str) -> LinearExpr {
        LinearExpr {
            terms: vec![LinearTerm {
                coefficient: 1,
                variable: Some(name.to_owned()),
                span: Span::default(),
            }],
            span: Span::default(),
        }
    }
}

/// A heap assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapAssertion {
    /// `[(object).field:ty -> target]`; `target` is `None` for `?` (some value).
    Field {
        object: Term,
        field: String,
        ty: TypeName,
        target: Option<Term>,
        span: Span,
    },
    /// `lseg(resource, from, to)`: an acyclic list segment from `from` to `to` whose every cell
    /// carries `resource` units.
    Lseg {
        resource: LinearExpr,
        from: Term,
        to: Term,
        span: Span,
    },
    /// `tree(resource, root)`: a binary tree (`null` when empty) whose every node carries
    /// `resource` units.
    Tree {
        resource: LinearExpr,
        root: Term,
        span: Span,
    },
}

impl HeapAssertion {
    pub fn span(&self) -> Span {
        match self {
            HeapAssertion::Field { span, .. } | HeapAssertion::Lseg { span, .. } | HeapAssertion::Tree { span, .. } => {
                *span
            }
        }
    }
}

/// One disjunct `{ data | heap | resource }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    pub data: Vec<DataAssertion>,
    pub heap: Vec<HeapAssertion>,
    pub resource: LinearExpr,
    pub span: Span,
}

/// A whole annotation string: existential variables and one or more disjuncts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertions {
    pub exists: Vec<TypedVar>,
    pub disjuncts: Vec<Assertion>,
    pub span: Span,
}

impl Assertions {
    /// The same assertions with every span set to the empty span at 0 (for comparing trees).
    pub fn without_spans(&self) -> Assertions {
        let mut copy = self.clone();
        copy.clear_spans();
        copy
    }

    fn clear_spans(&mut self) {
        let zero = Span::default();
        self.span = zero;
        for var in &mut self.exists {
            var.span = zero;
            if let Some(class) = &mut var.class {
                class.span = zero;
            }
        }
        let clear_term = |t: &mut Term| t.span = zero;
        let clear_linear = |e: &mut LinearExpr| {
            e.span = zero;
            for term in &mut e.terms {
                term.span = zero;
            }
        };
        for disjunct in &mut self.disjuncts {
            disjunct.span = zero;
            for data in &mut disjunct.data {
                data.span = zero;
                clear_term(&mut data.lhs);
                clear_term(&mut data.rhs);
            }
            for heap in &mut disjunct.heap {
                match heap {
                    HeapAssertion::Field {
                        object, target, span, ..
                    } => {
                        *span = zero;
                        clear_term(object);
                        if let Some(target) = target {
                            clear_term(target);
                        }
                    }
                    HeapAssertion::Lseg {
                        resource,
                        from,
                        to,
                        span,
                    } => {
                        *span = zero;
                        clear_linear(resource);
                        clear_term(from);
                        clear_term(to);
                    }
                    HeapAssertion::Tree { resource, root, span } => {
                        *span = zero;
                        clear_linear(resource);
                        clear_term(root);
                    }
                }
            }
            clear_linear(&mut disjunct.resource);
        }
    }
}

/// The words that cannot name a variable.
pub const KEYWORDS: &[&str] = &[
    "exists", "null", "lseg", "tree", "int", "long", "float", "double", "ref",
];

impl fmt::Display for TermKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermKind::Exists(name) => f.write_str(name),
            TermKind::Arg(name) => write!(f, "@arg {name}"),
            TermKind::Var(name) => write!(f, "@var {name}"),
            TermKind::Ret => f.write_str("@ret"),
            TermKind::Null => f.write_str("null"),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl fmt::Display for LinearExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        for (k, term) in self.terms.iter().enumerate() {
            let negative = term.coefficient < 0;
            let magnitude = term.coefficient.unsigned_abs();
            match (k, negative) {
                (0, true) => f.write_str("-")?,
                (0, false) => {}
                (_, true) => f.write_str(" - ")?,
                (_, false) => f.write_str(" + ")?,
            }
            match &term.variable {
                Some(name) if magnitude == 1 => f.write_str(name)?,
                Some(name) => write!(f, "{magnitude}*{name}")?,
                None => write!(f, "{magnitude}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for DataAssertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            DataOp::Eq => "==",
            DataOp::Ne => "!=",
        };
        write!(f, "{} {op} {}", self.lhs, self.rhs)
    }
}

impl fmt::Display for HeapAssertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapAssertion::Field {
                object,
                field,
                ty,
                target,
                ..
            } => {
                write!(f, "[({object}).{field}:{} -> ", ty.keyword())?;
                match target {
                    Some(target) => write!(f, "{target}]"),
                    None => f.write_str("?]"),
                }
            }
            HeapAssertion::Lseg { resource, from, to, .. } => write!(f, "lseg({resource}, {from}, {to})"),
            HeapAssertion::Tree { resource, root, .. } => write!(f, "tree({resource}, {root})"),
        }
    }
}

impl fmt::Display for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{ ")?;
        for (k, data) in self.data.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{data}")?;
        }
        f.write_str(if self.data.is_empty() { "| " } else { " | " })?;
        for (k, heap) in self.heap.iter().enumerate() {
            if k > 0 {
                f.write_str(" * ")?;
            }
            write!(f, "{heap}")?;
        }
        f.write_str(if self.heap.is_empty() { "| " } else { " | " })?;
        write!(f, "{} }}", self.resource)
    }
}

impl fmt::Display for Assertions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.exists.is_empty() {
            f.write_str("exists")?;
            for var in &self.exists {
                match &var.class {
                    Some(class) => write!(f, " {}:{}", var.name, class.name)?,
                    None => write!(f, " {}:{}", var.name, var.ty.keyword())?,
                }
            }
            f.write_str(". ")?;
        }
        for (k, disjunct) in self.disjuncts.iter().enumerate() {
            if k > 0 {
                f.write_str(" || ")?;
            }
            write!(f, "{disjunct}")?;
        }
        Ok(())
    }
}

/// A problem with an annotation string: a syntax error or a name, type or placement the method
/// does not allow, with the span it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub message: String,
    pub span: Span,
}

impl SpecError {
    pub fn new(message: impl Into<String>, span: Span) -> SpecError {
        SpecError {
            message: message.into(),
            span,
        }
    }
}
