//! LeJit-style template extraction (Zang et al.) for soundness fuzzing, shared by
//! `tests/validate_fuzz.rs`: a method of a Java fixture becomes a template whose integer literals
//! and comparison operators are holes; filling the holes with other constants and comparisons
//! gives concrete variants of the method, each written into a copy of its class (renamed, so that
//! many variants compile side by side).

#![allow(dead_code)]

use rand::rngs::Xoshiro256PlusPlus;
use rand::RngExt;

/// A token of Java source: its text, and whether a hole may replace it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub kind: TokenKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Identifier,
    /// A decimal `int` literal (no suffix, no leading zero unless it is `0`).
    IntLiteral,
    /// Any other literal (long, float, hex, string, char).
    OtherLiteral,
    /// `<`, `<=`, `>`, `>=`, `==`, `!=`.
    Comparison,
    Operator,
    /// Whitespace and comments, kept verbatim.
    Trivia,
}

const OPERATORS: &[&str] = &[
    ">>>=", "<<=", ">>=", ">>>", "...", "->", "::", "++", "--", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
    "^=", "<<", ">>", "<=", ">=", "==", "!=",
];

/// Splits Java source into tokens (enough of Java for the fixtures: no text blocks or unicode
/// escapes outside literals).
pub fn tokenize(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut k = 0;
    let text = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    while k < chars.len() {
        let c = chars[k];
        let start = k;
        let kind = if c.is_whitespace() {
            while k < chars.len() && chars[k].is_whitespace() {
                k += 1;
            }
            TokenKind::Trivia
        } else if c == '/' && chars.get(k + 1) == Some(&'/') {
            while k < chars.len() && chars[k] != '\n' {
                k += 1;
            }
            TokenKind::Trivia
        } else if c == '/' && chars.get(k + 1) == Some(&'*') {
            k += 2;
            while k + 1 < chars.len() && !(chars[k] == '*' && chars[k + 1] == '/') {
                k += 1;
            }
            k = (k + 2).min(chars.len());
            TokenKind::Trivia
        } else if c == '"' || c == '\'' {
            k += 1;
            while k < chars.len() && chars[k] != c {
                if chars[k] == '\\' {
                    k += 1;
                }
                k += 1;
            }
            k = (k + 1).min(chars.len());
            TokenKind::OtherLiteral
        } else if c.is_ascii_digit() {
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '.' || chars[k] == '_') {
                k += 1;
            }
            let literal = text(start, k);
            let plain = literal.chars().all(|d| d.is_ascii_digit()) && (literal == "0" || !literal.starts_with('0'));
            if plain && literal.parse::<i32>().is_ok() {
                TokenKind::IntLiteral
            } else {
                TokenKind::OtherLiteral
            }
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            while k < chars.len() && (chars[k].is_alphanumeric() || chars[k] == '_' || chars[k] == '$') {
                k += 1;
            }
            TokenKind::Identifier
        } else {
            let rest = text(k, (k + 4).min(chars.len()));
            let length = OPERATORS
                .iter()
                .find(|op| rest.starts_with(*op))
                .map_or(1, |op| op.chars().count());
            k += length;
            match text(start, k).as_str() {
                "<" | "<=" | ">" | ">=" | "==" | "!=" => TokenKind::Comparison,
                _ => TokenKind::Operator,
            }
        };
        tokens.push(Token {
            text: text(start, k),
            kind,
        });
    }
    tokens
}

/// A method of a class as a template: where its body lies among the class's tokens, and its holes.
#[derive(Clone, Debug)]
pub struct Template {
    /// The fixture's class (its file stem).
    pub class: String,
    pub method: String,
    /// The class's tokens.
    pub tokens: Vec<Token>,
    /// Token indices of the holes inside the method's body.
    pub holes: Vec<usize>,
}

/// The significant token before index `k`.
fn previous(tokens: &[Token], k: usize) -> Option<&Token> {
    tokens[..k].iter().rev().find(|t| t.kind != TokenKind::Trivia)
}

/// The templates of the named methods of a class's source (a method that is not found, or whose
/// body has no hole, gives none).
pub fn templates(class: &str, source: &str, methods: &[&str]) -> Vec<Template> {
    let tokens = tokenize(source);
    let mut out = Vec::new();
    for method in methods {
        // The declaration: the method's name followed by `(`, at depth 1 (in the class body).
        let mut depth = 0;
        let mut body = None;
        for (k, token) in tokens.iter().enumerate() {
            match token.text.as_str() {
                "{" => depth += 1,
                "}" => depth -= 1,
                _ => {}
            }
            let next = tokens[k + 1..].iter().find(|t| t.kind != TokenKind::Trivia);
            if depth == 1
                && token.kind == TokenKind::Identifier
                && token.text == *method
                && next.is_some_and(|t| t.text == "(")
                && previous(&tokens, k).is_some_and(|t| t.kind == TokenKind::Identifier || t.text == "]")
            {
                let open = tokens[k..].iter().position(|t| t.text == "{").map(|p| p + k);
                if let Some(open) = open {
                    let mut inner = 0;
                    let close = tokens[open..].iter().position(|t| {
                        match t.text.as_str() {
                            "{" => inner += 1,
                            "}" => inner -= 1,
                            _ => {}
                        }
                        inner == 0
                    });
                    body = close.map(|c| (open, open + c));
                }
                break;
            }
        }
        let Some((open, close)) = body else {
            continue;
        };
        let holes: Vec<usize> = (open..close)
            .filter(|&k| match tokens[k].kind {
                TokenKind::IntLiteral => true,
                // A comparison between values, not a type argument.
                TokenKind::Comparison => previous(&tokens, k).is_some_and(|t| {
                    matches!(t.kind, TokenKind::Identifier | TokenKind::IntLiteral) || t.text == ")" || t.text == "]"
                }),
                _ => false,
            })
            .collect();
        if !holes.is_empty() {
            out.push(Template {
                class: class.to_owned(),
                method: (*method).to_owned(),
                tokens: tokens.clone(),
                holes,
            });
        }
    }
    out
}

/// Constants a literal hole may take (besides its own value and its neighbours).
const CONSTANTS: &[i32] = &[0, 1, 2, 3, -1];
const COMPARISONS: &[&str] = &["<", "<=", ">", ">=", "==", "!="];

/// A filled template: the source of class `renamed` (the template's class renamed everywhere)
/// with at least one hole of the method changed, and what was changed.
#[derive(Clone, Debug)]
pub struct Variant {
    pub class: String,
    pub method: String,
    pub source: String,
    pub changes: Vec<String>,
}

/// Fills the template's holes: each hole changes with probability one half (at least one does).
pub fn fill(template: &Template, renamed: &str, random: &mut Xoshiro256PlusPlus) -> Variant {
    let mut tokens = template.tokens.clone();
    let mut chosen: Vec<usize> = template
        .holes
        .iter()
        .copied()
        .filter(|_| random.random_bool(0.5))
        .collect();
    if chosen.is_empty() {
        chosen.push(template.holes[random.random_range(0..template.holes.len())]);
    }
    let mut changes = Vec::new();
    for k in chosen {
        let old = tokens[k].text.clone();
        let new = match tokens[k].kind {
            TokenKind::IntLiteral => {
                let value: i32 = old.parse().unwrap_or(0);
                let mut options: Vec<i32> = CONSTANTS.to_vec();
                options.extend([
                    value.saturating_add(1),
                    value.saturating_sub(1),
                    value.saturating_mul(2),
                ]);
                options.retain(|&v| v != value);
                let pick = options[random.random_range(0..options.len())];
                // A negative constant after an operand needs a space: `x - -1`.
                if pick < 0 {
                    format!(" ({pick})")
                } else {
                    pick.to_string()
                }
            }
            _ => {
                let options: Vec<&str> = COMPARISONS.iter().copied().filter(|c| *c != old).collect();
                options[random.random_range(0..options.len())].to_owned()
            }
        };
        changes.push(format!("`{old}` -> `{}`", new.trim()));
        tokens[k].text = new;
    }
    for token in &mut tokens {
        if token.kind == TokenKind::Identifier && token.text == template.class {
            token.text = renamed.to_owned();
        }
    }
    Variant {
        class: renamed.to_owned(),
        method: template.method.clone(),
        source: tokens.iter().map(|t| t.text.as_str()).collect(),
        changes,
    }
}
