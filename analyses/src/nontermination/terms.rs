//! Reading z3 terms back: whether a term speaks of the loop head's state only, the comparisons
//! and heap reads in it, and a Java-like text of it for reports.
//!
//! Terms are read by their declarations' names (`bvadd`, `=`, the heap functions `explore`
//! declares), not by `DeclKind`: the numbering of declaration kinds differs between z3 releases,
//! and the crate's enum does not match the machine's libz3 4.8.12.

use std::collections::{HashMap, HashSet};
use z3::ast::{Ast, Bool, Dynamic, BV};

/// Nodes one walk over a term may visit (terms share sub-terms; walks do not memoise).
const MAX_NODES: usize = 4_000;

/// Whether an uninterpreted constant is one the state may mention: a state variable, or a value
/// fixed for the whole run (a frozen static field, a literal).
fn allowed(name: &str, state: &HashSet<String>) -> bool {
    state.contains(name) || name.starts_with("static ") || name.starts_with("literal ")
}

/// Whether a term is a literal value (a bit-vector numeral, `true`, `false`).
fn is_value(term: &Dynamic) -> bool {
    term.as_bv().is_some_and(|b| b.as_u64().is_some()) || term.as_bool().is_some_and(|b| b.as_bool().is_some())
}

/// Whether a declaration is one of the heap's functions `explore` declares (lengths, fields as
/// `Class.name`, elements).
fn is_heap_function(name: &str) -> bool {
    name == "length" || name.starts_with("elements ") || (name.contains('.') && !name.contains(' '))
}

/// Visits the sub-terms of `term` depth first, each with its declaration's name, descending where
/// `visit` says so; `false` when the walk stopped at `MAX_NODES` or at a term that is not an
/// application, or because `visit` returned `None`.
fn walk(term: &Dynamic, mut visit: impl FnMut(&Dynamic, &str) -> Option<bool>) -> bool {
    let mut stack = vec![term.clone()];
    let mut visited = 0;
    while let Some(t) = stack.pop() {
        visited += 1;
        let Ok(decl) = t.safe_decl() else { return false };
        if visited > MAX_NODES {
            return false;
        }
        match visit(&t, &decl.name()) {
            None => return false,
            Some(true) => stack.extend(t.children()),
            Some(false) => {}
        }
    }
    true
}

/// Whether every constant of `term` is allowed (no fresh value of an iteration).
pub(super) fn over_state(term: &Dynamic, state: &HashSet<String>) -> bool {
    walk(term, |t, name| {
        let leaf = t.num_children() == 0;
        (!leaf || is_value(t) || allowed(name, state)).then_some(true)
    })
}

/// Adds the names of the constants of `term` (not literal values) to `out`.
pub(super) fn constants(term: &Dynamic, out: &mut HashSet<String>) {
    walk(term, |t, name| {
        if t.num_children() == 0 && !is_value(t) {
            out.insert(name.to_owned());
        }
        Some(true)
    });
}

/// Comparisons of bit-vectors in a formula (through `and`, `or`, `not`), over the state only.
pub(super) fn comparisons(formula: &Bool, state: &HashSet<String>, out: &mut Vec<Bool>) {
    walk(&Dynamic::from_ast(formula), |t, name| match name {
        "and" | "or" | "not" | "=>" => Some(true),
        "=" | "bvsle" | "bvslt" | "bvsge" | "bvsgt" => {
            let is_bv = t.nth_child(0).is_some_and(|c| c.as_bv().is_some());
            if is_bv && over_state(t, state) {
                out.extend(t.as_bool());
            }
            Some(false)
        }
        _ => Some(false),
    });
}

/// Reads of the frozen heap (lengths, fields, elements) in a term, over the state only.
pub(super) fn heap_reads(term: &Dynamic, state: &HashSet<String>, out: &mut Vec<BV>) {
    walk(term, |t, name| {
        if is_heap_function(name) && t.num_children() > 0 && over_state(t, state) {
            out.extend(t.as_bv());
        }
        Some(true)
    });
}

/// A Java-like text of a term: constants by `names`, heap reads as `a.length`, `o.f`, `a[i]`.
pub(super) fn text(term: &Dynamic, names: &HashMap<String, String>) -> String {
    let Ok(decl) = term.safe_decl() else {
        return term.to_string();
    };
    let children = term.children();
    let arg = |k: usize| children.get(k).map_or_else(String::new, |c| text(c, names));
    let infix = |op: &str| {
        let parts: Vec<String> = children.iter().map(|c| text(c, names)).collect();
        format!("({})", parts.join(&format!(" {op} ")))
    };
    let name = decl.name();
    if is_value(term) {
        return term
            .as_bv()
            .and_then(|b| {
                let size = b.get_size();
                let bits = b.as_u64()?;
                Some(if size >= 64 {
                    (bits as i64).to_string()
                } else {
                    (((bits << (64 - size)) as i64) >> (64 - size)).to_string()
                })
            })
            .unwrap_or_else(|| term.to_string());
    }
    if children.is_empty() {
        return names.get(&name).cloned().unwrap_or(name);
    }
    if is_heap_function(&name) {
        return if name == "length" {
            format!("{}.length", arg(0))
        } else if name.starts_with("elements ") {
            format!("{}[{}]", arg(0), arg(1))
        } else {
            format!("{}.{}", arg(0), name.rsplit('.').next().unwrap_or(&name))
        };
    }
    match name.as_str() {
        "bvadd" => infix("+"),
        "bvsub" => infix("-"),
        "bvmul" => infix("*"),
        "bvsdiv" | "bvsdiv_i" => infix("/"),
        "bvsrem" | "bvsrem_i" => infix("%"),
        "bvand" => infix("&"),
        "bvor" => infix("|"),
        "bvxor" => infix("^"),
        "bvshl" => infix("<<"),
        "bvashr" => infix(">>"),
        "bvlshr" => infix(">>>"),
        "bvneg" => format!("-{}", arg(0)),
        "extract" => extracted(term, &arg(0)),
        "sign_extend" | "zero_extend" => arg(0),
        "=" => format!("{} = {}", arg(0), arg(1)),
        "bvsle" => format!("{} <= {}", arg(0), arg(1)),
        "bvslt" => format!("{} < {}", arg(0), arg(1)),
        "bvsge" => format!("{} >= {}", arg(0), arg(1)),
        "bvsgt" => format!("{} > {}", arg(0), arg(1)),
        "not" => match children.first().and_then(|c| c.safe_decl().ok()).map(|d| d.name()) {
            Some(inner) if inner == "=" => {
                let inner = &children[0].children();
                format!("{} != {}", text(&inner[0], names), text(&inner[1], names))
            }
            _ => format!("!({})", arg(0)),
        },
        _ => term.to_string(),
    }
}

/// The bits `hi..lo` of a value, as Java would mask them out: `(x >> lo) & mask`.
fn extracted(term: &Dynamic, of: &str) -> String {
    let printed = term.to_string();
    let bounds = printed
        .split("(_ extract ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|range| {
            let mut parts = range.split_whitespace().map(str::parse::<u32>);
            Some((parts.next()?.ok()?, parts.next()?.ok()?))
        });
    match bounds {
        Some((hi, lo)) if hi >= lo && hi - lo < 63 => {
            let mask = (1u64 << (hi - lo + 1)) - 1;
            if lo == 0 {
                format!("({of} & {mask})")
            } else {
                format!("(({of} >> {lo}) & {mask})")
            }
        }
        _ => of.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{FuncDecl, Sort};

    #[test]
    fn finds_heap_reads_over_the_state() {
        let s0 = BV::new_const("head0 s0", 64);
        let s1 = BV::new_const("head0 s1", 32);
        let f = FuncDecl::new("C.count", &[&Sort::bitvector(64)], &Sort::bitvector(32));
        let read = f.apply(&[&s0]).as_bv().unwrap();
        let sum = s1.bvadd(&read);
        let state: HashSet<String> = [s0.decl().name(), s1.decl().name()].into_iter().collect();
        let mut out = Vec::new();
        heap_reads(&Dynamic::from_ast(&sum), &state, &mut out);
        assert_eq!(out.len(), 1);
        let names: HashMap<String, String> = [
            ("head0 s0".to_owned(), "this".to_owned()),
            ("head0 s1".to_owned(), "n".to_owned()),
        ]
        .into();
        assert_eq!(text(&Dynamic::from_ast(&sum), &names), "(n + this.count)");
        assert_eq!(text(&Dynamic::from_ast(&s1.extract(2, 2)), &names), "((n >> 2) & 1)");
        assert_eq!(text(&Dynamic::from_ast(&s1.extract(7, 0)), &names), "(n & 255)");
        let fresh = BV::fresh_const("havoc", 32);
        let mut none = Vec::new();
        heap_reads(
            &Dynamic::from_ast(&f.apply(&[&fresh.zero_ext(32)]).as_bv().unwrap()),
            &state,
            &mut none,
        );
        assert!(none.is_empty(), "a read through a fresh value is not over the state");
    }
}
