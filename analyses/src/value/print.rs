//! The text form of an abstract program (`jresa ir --abstract`, and the value-analysis filetests
//! in `tests/data/value/`): one block per procedure, one per rule, one line per item, dimensions
//! written `x0, x1, ...` as the polyhedra print them.
//!
//! ```text
//! proc 1 Loops.whileLoop(I)I/loop4 (in 3, out 1) from Loops.whileLoop(I)I
//!   rule 0 (ir rule 1) dims 5, cost 3
//!     guard {x1 - x0 >= 0}
//!     call 2(x0, x1, x2; x3)
//! ```

use super::program::{AbstractProc, AbstractProgram, AbstractRule, Item, Origin, RuleCost, Width};
use std::fmt::{self, Write};

/// The whole program as text.
pub fn print_abstract_program(program: &AbstractProgram) -> String {
    let mut out = String::new();
    for (id, proc) in program.procs.iter().enumerate() {
        out.push_str(&print_abstract_proc(id, proc));
    }
    out
}

/// One procedure (`id` its position in the program) as text.
pub fn print_abstract_proc(id: usize, proc: &AbstractProc) -> String {
    let mut out = String::new();
    // Writing to a `String` cannot fail.
    let _ = write_proc(&mut out, id, proc);
    out
}

fn write_proc(out: &mut String, id: usize, proc: &AbstractProc) -> fmt::Result {
    write!(
        out,
        "proc {id} {} (in {}, out {})",
        proc.name, proc.inputs, proc.outputs
    )?;
    match &proc.origin {
        Origin::Ir { .. } if proc.is_method_entry => writeln!(out, " entry")?,
        Origin::Ir { .. } => writeln!(out)?,
        Origin::Aux(op) => writeln!(out, " auxiliary {}", op.name())?,
        Origin::Dispatch(_) => writeln!(out, " dispatch")?,
        Origin::Implicit => writeln!(out, " implicit exception")?,
    }
    for (k, rule) in proc.rules.iter().enumerate() {
        write_rule(out, k, rule)?;
    }
    Ok(())
}

fn write_rule(out: &mut String, k: usize, rule: &AbstractRule) -> fmt::Result {
    write!(out, "  rule {k}")?;
    match rule.source {
        Some((r, None)) => write!(out, " (ir rule {r})")?,
        Some((r, Some(s))) => write!(out, " (ir rule {r}, handler of statement {s})")?,
        None => {}
    }
    write!(out, " dims {}, cost {}", rule.dims, cost(&rule.cost))?;
    if !rule.returns {
        write!(out, ", does not return")?;
    }
    if rule.may_throw {
        write!(out, ", may throw")?;
    }
    writeln!(out)?;
    if !rule.guard.is_empty() {
        writeln!(out, "    guard {}", constraints(&rule.guard))?;
    }
    for item in &rule.items {
        writeln!(out, "    {}", self::item(item))?;
    }
    if !rule.ranges.is_empty() {
        let ranges: Vec<String> = rule.ranges.iter().map(|(d, w)| format!("x{d}:{}", width(*w))).collect();
        writeln!(out, "    ranges {}", ranges.join(" "))?;
    }
    Ok(())
}

fn item(item: &Item) -> String {
    let dims = |ds: &[usize]| ds.iter().map(|d| format!("x{d}")).collect::<Vec<_>>().join(", ");
    match item {
        Item::Constrain(cs) => format!("constrain {}", constraints(cs)),
        Item::Call { callee, args, outs } => format!("call {callee}({}; {})", dims(args), dims(outs)),
        Item::Charge { callee, args } => format!("charge {callee}({})", dims(args)),
        Item::Opaque { reason } => format!("opaque: {reason}"),
        Item::Marker { bytecodes } => format!("marker {bytecodes}"),
        Item::Wrap {
            dim,
            width: w,
            pc,
            factors,
            ..
        } => match factors {
            Some((l, r)) => format!("wrap x{dim} {} @{pc} of x{l}*x{r}", width(*w)),
            None => format!("wrap x{dim} {} @{pc}", width(*w)),
        },
    }
}

fn constraints(cs: &[super::polyhedra::Constraint]) -> String {
    if cs.is_empty() {
        return "true".into();
    }
    let parts: Vec<String> = cs.iter().map(|c| c.to_string()).collect();
    format!("{{{}}}", parts.join(", "))
}

fn cost(cost: &RuleCost) -> String {
    let mut parts = vec![cost.constant.to_string()];
    for product in &cost.symbolic {
        let factors: Vec<String> = product.iter().map(|e| format!("nat({e})")).collect();
        parts.push(factors.join("*"));
    }
    parts.join(" + ")
}

fn width(width: Width) -> &'static str {
    match width {
        Width::Int => "int",
        Width::Long => "long",
        Width::Size => "size",
        Width::Nodes => "nodes",
    }
}
