//! From the results of the value analysis and the cost solver to method reports: parameter names,
//! loops with their ranking functions, the bound or the reason there is none, and the
//! precondition of a bound proven with inputs away from the types' limits.

use super::report::{AnalysisStatus, LoopReport, MethodReport, ParameterRange, Reason, ReasonKind};
use jresa_analyses::bounds::cost::{self, Bound};
use jresa_analyses::bounds::expr::{CostExpr, Linear};
use jresa_analyses::bounds::ranking::{self, Affine, Ranking};
use jresa_analyses::ir::{source_name, MethodIr, ProcId, Ty, VarId};
use jresa_analyses::value::program::{AbstractProgram, Item, Origin, Width};
use jresa_analyses::value::{heap, overflow};
use num_rational::BigRational;
use num_traits::Signed;

/// The display names of IR variables (a loop head's inputs): as in the source where no other of
/// them has the same source name, `|name|` for references.
fn variable_names(ir: &MethodIr, vars: &[VarId]) -> Vec<String> {
    let sources: Vec<&str> = vars.iter().map(|v| source_name(&ir.var(*v).name)).collect();
    vars.iter()
        .zip(&sources)
        .map(|(v, source)| {
            let decl = ir.var(*v);
            let name = if sources.iter().filter(|s| *s == source).count() == 1 {
                source
            } else {
                decl.name.as_str()
            };
            if decl.ty == Ty::Ref {
                format!("|{name}|")
            } else {
                name.to_owned()
            }
        })
        .collect()
}

/// The procedure whose cost and termination a method's report states: the method's code with the
/// numeric fields of its parameters' objects at entry as inputs after the parameters where
/// `ir::entry_fields` gave them (`heap_entry`), else the method's entry.
pub(super) fn analysed_entry(ir: &MethodIr) -> ProcId {
    ir.heap_entry.as_ref().map_or(ir.entry, |heap| heap.inner)
}

/// The display name of each input of [`analysed_entry`]: the parameters' (see
/// [`own_parameter_names`]), then each field at entry as `object.field` (`this.size`).
fn parameter_names(ir: &MethodIr) -> Vec<String> {
    let mut names = own_parameter_names(ir);
    if let Some(heap) = &ir.heap_entry {
        let fields: Vec<String> = heap
            .fields
            .iter()
            .map(|(parameter, field)| format!("{}.{field}", names[*parameter].trim_matches('|')))
            .collect();
        names.extend(fields);
    }
    names
}

/// The display name of each parameter of a method: its `LocalVariableTable` name (or `p<k>`), as
/// `|name|` for references (whose size is a length or a size as a tree). A name the IR suffixed is
/// shown as in the source unless another parameter has that name.
fn own_parameter_names(ir: &MethodIr) -> Vec<String> {
    let entry = ir.proc(ir.entry);
    let sources: Vec<&str> = entry.inputs.iter().map(|v| source_name(&ir.var(*v).name)).collect();
    let unique = |name: &str| sources.iter().filter(|s| **s == name).count() == 1;
    let mut index = 0;
    entry
        .inputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let decl = ir.var(*v);
            let is_this = k == 0 && !ir.is_static;
            let base = if is_this {
                "this".to_owned()
            } else {
                let generated = decl
                    .name
                    .strip_prefix('l')
                    .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()));
                let source = source_name(&decl.name);
                let name = if generated {
                    format!("p{index}")
                } else if source != "this" && unique(source) {
                    source.to_owned()
                } else {
                    decl.name.clone()
                };
                index += 1;
                name
            };
            if decl.ty == Ty::Ref {
                format!("|{base}|")
            } else {
                base
            }
        })
        .collect()
}

/// Renames `%i` in a bound to `names[i]`.
fn rename(expr: &CostExpr, names: &[String]) -> CostExpr {
    expr.rename(&|n: &str| {
        n.strip_prefix('%')
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| names.get(i).cloned())
    })
}

fn affine_text(f: &Affine, names: &[String]) -> String {
    let mut linear = Linear::constant(0);
    linear.constant = f.constant.clone();
    for (i, a) in f.coefficients.iter().enumerate() {
        if let Some(name) = names.get(i) {
            if !num_traits::Zero::is_zero(a) {
                linear.terms.insert(name.clone(), a.clone());
            }
        }
    }
    linear.to_string()
}

/// The JVM range of each input of a method's entry; `this` is left unconstrained (it is never
/// null, and no precondition on its size is worth stating).
pub(super) fn entry_widths(ir: &MethodIr) -> Vec<Option<Width>> {
    let classes = heap::var_classes(ir);
    ir.proc(analysed_entry(ir))
        .inputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            if k == 0 && !ir.is_static {
                return None;
            }
            match ir.var(*v).ty {
                Ty::Int => Some(Width::Int),
                Ty::Long => Some(Width::Long),
                Ty::Ref => Some(Width::of_reference(classes.get(v.index()).and_then(Option::as_deref))),
                Ty::Float | Ty::Double => None,
            }
        })
        .collect()
}

/// The precondition of a level of `overflow::MARGINS`: the parameters' intervals and their text.
pub(super) fn precondition(ir: &MethodIr, widths: &[Option<Width>], level: usize) -> (String, Vec<ParameterRange>) {
    let names = parameter_names(ir);
    let (margin, long_margin) = overflow::MARGINS[level];
    let ranges: Vec<(ParameterRange, bool)> = widths
        .iter()
        .zip(&names)
        .filter_map(|(width, name)| {
            let (min, max) = overflow::input_interval(*width, margin, long_margin)?;
            let range = ParameterRange {
                parameter: name.clone(),
                min,
                max,
            };
            Some((range, *width == Some(Width::Size)))
        })
        .collect();
    let text: Vec<String> = ranges
        .iter()
        .map(|(r, size)| {
            if *size {
                format!("{} <= {}", r.parameter, r.max)
            } else {
                format!("{} <= {} <= {}", r.min, r.parameter, r.max)
            }
        })
        .collect();
    (text.join(", "), ranges.into_iter().map(|(r, _)| r).collect())
}

/// A ranking function as the report shows it, over the loop head's variable names.
fn ranking_text(ranking: &Ranking, names: &[String]) -> String {
    match ranking {
        Ranking::Linear(f) | Ranking::Halving(f) => affine_text(f, names),
        Ranking::Bounded(k) => format!("none: no {} iterations can follow one another", k + 1),
        Ranking::Absolute(f) => {
            let absolute: Vec<String> = names.iter().map(|n| format!("abs({n})")).collect();
            affine_text(f, &absolute)
        }
        Ranking::Multiphase(components) => {
            let texts: Vec<String> = components.iter().map(|f| affine_text(f, names)).collect();
            format!("multiphase ({})", texts.join(", "))
        }
        Ranking::Lexicographic(components) => {
            let texts: Vec<String> = components.iter().map(|f| affine_text(f, names)).collect();
            format!("lexicographic ({})", texts.join(", "))
        }
        Ranking::Doubling { growing, bound } => {
            format!("log2({} / {})", affine_text(bound, names), affine_text(growing, names))
        }
        Ranking::Phases(phases) => {
            let texts: Vec<String> = phases
                .iter()
                .map(|p| {
                    p.ranking
                        .as_deref()
                        .map_or_else(|| "once".to_owned(), |r| ranking_text(r, names))
                })
                .collect();
            format!("phases ({})", texts.join("; "))
        }
    }
}

/// What one iteration may do to each of a loop's variables, for the reason that no ranking function
/// was found: "an iteration changes i by +1 and n by at most +1".
fn changes_text(changes: &[ranking::Change], names: &[String]) -> Option<String> {
    if changes.len() != names.len() || changes.is_empty() {
        return None;
    }
    let signed = |r: &BigRational| match r.is_positive() {
        true => format!("+{r}"),
        false => r.to_string(),
    };
    let parts: Vec<String> = names
        .iter()
        .zip(changes)
        .map(|(name, change)| {
            let by = match change {
                (Some(low), Some(high)) if low == high => format!("by {}", signed(low)),
                (Some(low), Some(high)) => format!("by {} to {}", signed(low), signed(high)),
                (Some(low), None) => format!("by at least {}", signed(low)),
                (None, Some(high)) => format!("by at most {}", signed(high)),
                (None, None) => "arbitrarily".to_owned(),
            };
            format!("{name} {by}")
        })
        .collect();
    let (last, first) = parts.split_last()?;
    Some(match first.is_empty() {
        true => format!("an iteration changes {last}"),
        false => format!("an iteration changes {} and {last}", first.join(", ")),
    })
}

pub(super) fn fill(
    report: &mut MethodReport,
    m: usize,
    methods: &[MethodIr],
    program: &AbstractProgram,
    costs: &cost::Costs,
) {
    let ir = &methods[m];
    let names = parameter_names(ir);
    let own = names.len() - ir.heap_entry.as_ref().map_or(0, |heap| heap.fields.len());
    report.parameters = names[..own].to_vec();
    report.line = ir.lines.first().map(|(_, line)| *line);
    let mut never_exits = false;
    let mut unranked = None;
    // Per loop head, the reason to give when its iterations are not bounded by the inputs.
    let mut unbounded_iterations: Vec<(String, String)> = Vec::new();
    for info in &costs.loops {
        let Origin::Ir { method, proc } = program.procs[info.head].origin else {
            continue;
        };
        if method != m {
            continue;
        }
        let head = ir.proc(proc);
        let head_names = variable_names(ir, &head.inputs);
        let line = ir.line_of(head.pc);
        let ranking_function = info.ranking.as_ref().map(|r| ranking_text(r, &head_names));
        let reason = if info.ranking.is_none() {
            let over = if head_names.is_empty() {
                "the loop carries no variable a ranking function could decrease".to_owned()
            } else {
                format!(
                    "no ranking function over {} decreases on every iteration{}",
                    head_names.join(", "),
                    changes_text(&info.changes, &head_names).map_or(String::new(), |t| format!(" ({t})"))
                )
            };
            let text = format!(
                "{over}{}",
                if info.never_exits {
                    "; the loop never exits once reached"
                } else {
                    ""
                }
            );
            unranked.get_or_insert_with(|| {
                format!(
                    "loop at {}: {text}",
                    line.map_or(format!("offset {}", head.pc), |l| format!("line {l}"))
                )
            });
            never_exits |= info.never_exits;
            Some(text)
        } else {
            None
        };
        let iterations = info.iterations.as_ref().map(|e| rename(e, &head_names).to_string());
        if let Some(count) = &iterations {
            unbounded_iterations.push((
                format!(
                    "{} {} {}",
                    cost::ITERATIONS_OF_LOOP,
                    program.procs[info.head].name,
                    cost::NOT_BOUNDED_BY_INPUTS
                ),
                format!(
                    "loop at {}: its iterations, {count}, {}",
                    line.map_or(format!("offset {}", head.pc), |l| format!("line {l}")),
                    cost::NOT_BOUNDED_BY_INPUTS
                ),
            ));
        }
        report.loops.push(LoopReport {
            line,
            offset: head.pc,
            ranking_function,
            iterations,
            reason,
        });
    }
    report.loops.sort_by_key(|l| l.offset);
    let entry = program.of_ir[m][analysed_entry(ir).index()];
    match &costs.bounds[entry] {
        Bound::Bounded(expr) => {
            let named = rename(expr, &names);
            // The fields at entry the bound names are inputs too.
            let mentioned = named.variables();
            let fields = names[own..].iter().filter(|n| mentioned.contains(n.as_str()));
            report.parameters.extend(fields.cloned());
            report.status = AnalysisStatus::Bounded;
            report.upper_bound = Some(named.to_string());
            report.complexity = Some(named.complexity());
            report.terminates = Some(true);
            report.reason = None;
            report.bound = Some(named);
        }
        Bound::Unknown(reason) => {
            if let Some(loop_reason) = unranked {
                // `unbounded` is a claim: only a loop that never exits once reached makes it. A
                // ranking function not found leaves the cost unknown.
                report.status = match never_exits {
                    true => AnalysisStatus::Unbounded,
                    false => AnalysisStatus::Unknown,
                };
                report.terminates = if never_exits { Some(false) } else { None };
                report.reason = Some(Reason::new(ReasonKind::Unranked, loop_reason));
            } else {
                report.status = AnalysisStatus::Unknown;
                // A call of the method's own code after a loop names the method itself: the
                // loop whose iterations depend on values the code computed is the reason.
                let parameters = jresa_analyses::ir::java_parameters_of(&ir.descriptor).unwrap_or_default();
                let own = format!(
                    "the cost of a call to {}.{}({}) ",
                    ir.class.rsplit('/').next().unwrap_or(&ir.class),
                    ir.name,
                    parameters.join(", ")
                );
                let explained = unbounded_iterations
                    .iter()
                    .find(|(said, _)| said == reason)
                    .or_else(|| unbounded_iterations.last().filter(|_| reason.starts_with(&own)));
                let text = explained.map_or(reason.clone(), |(_, text)| text.clone());
                let text = called_cycle(text, program, entry);
                report.reason = Some(cost_reason(&with_callee_loops_located(&text, methods, program, costs)));
                // Every cycle ranked and every callee terminating, though the cost is unknown.
                report.terminates = costs.terminates[entry].then_some(true);
            }
        }
    }
}

/// `text` with each unranked loop of another method, which the cost solver names by its
/// procedure (`C.m(desc)/loop12`), named by its source line and method instead.
fn with_callee_loops_located(
    text: &str,
    methods: &[MethodIr],
    program: &AbstractProgram,
    costs: &cost::Costs,
) -> String {
    let mut text = text.to_owned();
    // Longer names first: `…/loop4` is a prefix of `…/loop45`.
    let mut unranked: Vec<_> = costs.loops.iter().filter(|info| info.ranking.is_none()).collect();
    unranked.sort_by_key(|info| std::cmp::Reverse(program.procs[info.head].name.len()));
    for info in unranked {
        let Origin::Ir { method, proc } = program.procs[info.head].origin else {
            continue;
        };
        let Some(callee) = methods.get(method) else {
            continue;
        };
        let raw = &program.procs[info.head].name;
        if !text.contains(raw.as_str()) {
            continue;
        }
        let pc = callee.proc(proc).pc;
        let place = callee
            .line_of(pc)
            .map_or(format!("offset {pc}"), |line| format!("line {line}"));
        let owner = callee.class.rsplit('/').next().unwrap_or(&callee.class);
        let located = format!("the loop at {place} of {owner}.{}", callee.name);
        text = text.replace(raw.as_str(), &located);
    }
    text
}

/// How the reason of a method on no cycle begins when a cycle it calls has no bound.
const CALLS_INTO_A_CYCLE: &str = "calls into a cycle";

/// A cycle's reason (`cost::INSIDE_A_CYCLE`, which its procedures get) as the reason of a method
/// `entry` that is on no cycle but calls into one: "calls into a cycle whose head, ..., has no
/// bound", since the method itself is not inside it.
fn called_cycle(text: String, program: &AbstractProgram, entry: usize) -> String {
    match text.strip_prefix(cost::INSIDE_A_CYCLE) {
        Some(rest) if !on_a_cycle(program, entry) => format!("{CALLS_INTO_A_CYCLE}{rest}"),
        _ => text,
    }
}

/// Whether procedure `p` can reach itself through calls and charges.
fn on_a_cycle(program: &AbstractProgram, p: usize) -> bool {
    let callees = |q: usize| {
        program.procs[q]
            .rules
            .iter()
            .flat_map(|r| &r.items)
            .filter_map(|item| match item {
                Item::Call { callee, .. } | Item::Charge { callee, .. } => Some(*callee),
                _ => None,
            })
    };
    let mut seen = vec![false; program.procs.len()];
    let mut pending: Vec<usize> = callees(p).collect();
    while let Some(q) = pending.pop() {
        if q == p {
            return true;
        }
        if q < seen.len() && !seen[q] {
            seen[q] = true;
            pending.extend(callees(q));
        }
    }
    false
}

/// The reason of the cost solver (text of `jresa_analyses`) with its kind: the one place where
/// that text is read.
fn cost_reason(text: &str) -> Reason {
    let kind = if text.contains(cost::NOT_BOUNDED_BY_INPUTS) {
        ReasonKind::NotBoundedByInputs
    } else if [cost::NO_RANKING_FUNCTION, cost::INSIDE_A_CYCLE, CALLS_INTO_A_CYCLE]
        .iter()
        .any(|start| text.starts_with(start))
    {
        ReasonKind::UnrankedCallee
    } else {
        ReasonKind::Cost
    };
    Reason::new(kind, text)
}
