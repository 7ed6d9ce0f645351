//! The cost analysis of a program: lifting, call resolution (CHA over the program and the classpath
//! methods it reaches), abstract compilation, the value-analysis fixpoint, and closed-form bounds
//! per method, assembled into a report.
//!
//! Library methods reached by calls are lifted from the classpath on demand, up to
//! `LIBRARY_BUDGET` methods; a call that still has a target outside the analysed methods makes
//! its caller's cost `unknown` with that reason (never free).

use crate::classfile::{ClassFile, ClassPath, Method};
use crate::lift::lift_method;
use crate::program::{build_hierarchy, class_decl};
use jresa_analyses::bounds::cost::{self, Bound};
use jresa_analyses::bounds::expr::{CostExpr, Linear};
use jresa_analyses::bounds::ranking::{Affine, Ranking};
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::exceptions;
use jresa_analyses::ir::{CallKind, MethodIr, MethodRef, StmtKind, Ty};
use jresa_analyses::value::compile::{compile, CallResolver};
use jresa_analyses::value::fixpoint;
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::Polyhedron;
use jresa_analyses::value::program::Width;
use jresa_analyses::value::program::{AbstractProgram, Origin};
use rayon::prelude::*;
use serde::Serialize;
use std::cell::Cell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Library methods lifted from the classpath for calls, at most. Each is analysed like program
/// code; past this, calls into the library make their callers' costs unknown.
pub const LIBRARY_BUDGET: usize = 200;

/// Statements a library method may have to be lifted for calls. Larger ones (formatting, I/O,
/// collections internals) rarely get a bound and dominate the analysis time; calls to them make
/// the caller's cost unknown instead.
pub const LIBRARY_METHOD_STATEMENTS: usize = 60;

/// Version of the JSON report format.
pub const REPORT_VERSION: u32 = 1;

/// One loop (or recursion) of a method.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LoopReport {
    /// Source line of the loop header, when the `LineNumberTable` says.
    pub line: Option<u32>,
    pub offset: u32,
    /// The ranking function over the loop's variables, e.g. `n - i`.
    pub ranking_function: Option<String>,
    /// The bound on its iterations in terms of the loop's variables at entry.
    pub iterations: Option<String>,
    /// Why it could not be bounded.
    pub reason: Option<String>,
}

/// The values a parameter (or a reference parameter's size, `|a|`) is assumed within.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ParameterRange {
    pub parameter: String,
    pub min: i64,
    pub max: i64,
}

/// The result for one method.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MethodReport {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    /// `bounded`, `unbounded`, `unknown` or `error`.
    pub status: String,
    pub upper_bound: Option<String>,
    pub complexity: Option<String>,
    pub terminates: Option<bool>,
    pub reason: Option<String>,
    /// The inputs the bound is proven for, when not all (integer inputs away from their type's
    /// limits, where a smaller margin could let arithmetic overflow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precondition: Option<String>,
    /// The same precondition as one closed interval per parameter it constrains.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parameter_ranges: Vec<ParameterRange>,
    /// The names the bound uses for the parameters (`|a|` for the size of a reference `a`).
    pub parameters: Vec<String>,
    pub source_file: Option<String>,
    pub line: Option<u32>,
    pub loops: Vec<LoopReport>,
    /// The bound as an expression, for evaluation (not serialized).
    #[serde(skip)]
    pub bound: Option<CostExpr>,
}

/// The result of `analyze`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AnalysisReport {
    pub version: u32,
    pub cost_model: String,
    pub methods: Vec<MethodReport>,
}

/// Resolves calls to the indices of analysed methods.
struct Resolver<'a> {
    hierarchy: &'a Hierarchy,
    index: &'a HashMap<(String, String, String), usize>,
}

impl CallResolver for Resolver<'_> {
    fn resolve(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<usize>> {
        let targets = self.hierarchy.targets(kind, method);
        if !targets.complete || targets.targets.is_empty() {
            return None;
        }
        targets
            .targets
            .iter()
            .map(|t| {
                self.index
                    .get(&(t.class.clone(), t.name.clone(), t.descriptor.clone()))
                    .copied()
            })
            .collect()
    }

    fn is_native(&self, kind: CallKind, method: &MethodRef) -> bool {
        let targets = self.hierarchy.targets(kind, method);
        targets.complete
            && !targets.targets.is_empty()
            && targets.targets.iter().all(|t| {
                self.hierarchy
                    .class(&t.class)
                    .and_then(|c| {
                        c.methods
                            .iter()
                            .find(|m| m.name == t.name && m.descriptor == t.descriptor)
                    })
                    .is_some_and(|m| m.access & ACC_NATIVE != 0)
            })
    }
}

/// The constructors the cost analysis charges for exceptions of these classes.
fn exception_constructors(classes: &[&str]) -> Vec<(CallKind, MethodRef)> {
    classes
        .iter()
        .flat_map(|class| {
            exceptions::CHARGED_DESCRIPTORS.map(|descriptor| {
                let method = MethodRef {
                    class: (*class).to_owned(),
                    name: "<init>".into(),
                    descriptor: descriptor.into(),
                };
                (CallKind::Special, method)
            })
        })
        .collect()
}

/// The access flag of a native method.
const ACC_NATIVE: u16 = 0x0100;

/// Finds a class by internal name among the inputs, then on the classpath.
type ClassLookup<'a> = dyn Fn(&str) -> Option<Arc<ClassFile>> + Sync + 'a;

/// Lifts the methods outside the analysed class that its methods call, transitively, within the
/// budget (small ones only). The constructors of the exceptions the JVM raises in these methods
/// come first (every method shares them, so they never lose the budget to one method's callees).
/// Classes that lifted library code calls into but that the shared hierarchy lacks (it holds the
/// program's own call owners) are added, with their supertypes, to a copy of it, which is returned
/// when there were any.
fn lift_callees(
    methods: &mut Vec<MethodIr>,
    hierarchy: &Hierarchy,
    lookup: &ClassLookup<'_>,
    cache: &LiftCache,
) -> Option<Hierarchy> {
    let mut lifting = Lifting {
        hierarchy,
        lookup,
        extended: None,
        known: methods
            .iter()
            .map(|m| (m.class.clone(), m.name.clone(), m.descriptor.clone()))
            .collect(),
        lifted: 0,
        lifted_cache: cache,
    };
    let mut raised: Vec<&'static str> = Vec::new();
    for s in methods
        .iter()
        .flat_map(|m| &m.procs)
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.body)
    {
        for class in s.kind.implicit_exceptions() {
            if !raised.contains(class) {
                raised.push(class);
            }
        }
    }
    let first = methods.len();
    lifting.lift(methods, exception_constructors(&raised).into());
    lifting.closure(methods, first);
    lifting.closure(methods, 0);
    lifting.extended
}

/// The state of lifting library callees (see `lift_callees`).
struct Lifting<'a, 'l> {
    hierarchy: &'a Hierarchy,
    lookup: &'a ClassLookup<'l>,
    extended: Option<Hierarchy>,
    known: HashSet<(String, String, String)>,
    lifted: usize,
    /// Library methods lifted before (shared by the analyses of one class), or `None` where
    /// lifting failed.
    lifted_cache: &'a LiftCache,
}

/// Lifted library methods by (class, name, descriptor).
type LiftCache = std::sync::Mutex<HashMap<(String, String, String), Option<MethodIr>>>;

impl Lifting<'_, '_> {
    /// Lifts the callees of `methods[from..]` and of every method lifted meanwhile, breadth-first.
    fn closure(&mut self, methods: &mut Vec<MethodIr>, from: usize) {
        let mut next = from;
        while next < methods.len() && self.lifted < LIBRARY_BUDGET {
            let calls: VecDeque<(CallKind, MethodRef)> = methods[next]
                .procs
                .iter()
                .flat_map(|p| &p.rules)
                .flat_map(|r| &r.body)
                .flat_map(|s| {
                    let mut calls = Vec::new();
                    if let StmtKind::Invoke { kind, method, .. } = &s.kind {
                        calls.push((*kind, method.clone()));
                    }
                    // The constructors the JVM runs for the exceptions it raises itself.
                    calls.extend(exception_constructors(s.kind.implicit_exceptions()));
                    calls
                })
                .collect();
            next += 1;
            self.lift(methods, calls);
        }
    }

    /// Lifts the targets of `calls` that are small enough and not lifted yet; a native target
    /// adds the constructors of the exceptions it raises.
    fn lift(&mut self, methods: &mut Vec<MethodIr>, mut calls: VecDeque<(CallKind, MethodRef)>) {
        while let Some((kind, mut method)) = calls.pop_front() {
            if method.class.starts_with('[') {
                // The methods of an array class are `Object`'s.
                method.class = "java/lang/Object".into();
            }
            if self
                .extended
                .as_ref()
                .unwrap_or(self.hierarchy)
                .class(&method.class)
                .is_none()
            {
                if let Some(owner) = (self.lookup)(&method.class) {
                    let extended = self.extended.get_or_insert_with(|| self.hierarchy.clone());
                    add_with_supertypes(extended, &owner, self.lookup);
                }
            }
            let current = self.extended.as_ref().unwrap_or(self.hierarchy);
            for target in current.targets(kind, &method).targets {
                let key = (target.class.clone(), target.name.clone(), target.descriptor.clone());
                if self.lifted >= LIBRARY_BUDGET || !self.known.insert(key.clone()) {
                    continue;
                }
                let Some(class) = (self.lookup)(&target.class) else {
                    continue;
                };
                let Some(decl) = class
                    .methods
                    .iter()
                    .find(|m| m.name == target.name && m.descriptor == target.descriptor)
                else {
                    continue;
                };
                if decl.access & ACC_NATIVE != 0 {
                    // What the native raises is constructed by the JVM.
                    calls.extend(exception_constructors(exceptions::of_native(
                        &target.class,
                        &target.name,
                    )));
                    continue;
                }
                let cached = self.lifted_cache.lock().ok().and_then(|c| c.get(&key).cloned());
                let ir = match cached {
                    Some(ir) => ir,
                    None => {
                        let ir = lift_method(&class, decl).ok();
                        if let Ok(mut cache) = self.lifted_cache.lock() {
                            cache.insert(key, ir.clone());
                        }
                        ir
                    }
                };
                let Some(ir) = ir else {
                    continue;
                };
                let statements: usize = ir.procs.iter().flat_map(|p| &p.rules).map(|r| r.body.len()).sum();
                if statements <= LIBRARY_METHOD_STATEMENTS {
                    methods.push(ir);
                    self.lifted += 1;
                }
            }
        }
    }
}

/// Adds `class` and its supertypes (those `lookup` finds) to `hierarchy`.
fn add_with_supertypes(hierarchy: &mut Hierarchy, class: &ClassFile, lookup: &ClassLookup<'_>) {
    hierarchy.add(class_decl(class));
    let mut pending: Vec<String> = class.super_name.iter().chain(&class.interfaces).cloned().collect();
    while let Some(name) = pending.pop() {
        if hierarchy.class(&name).is_some() {
            continue;
        }
        if let Some(supertype) = lookup(&name) {
            pending.extend(supertype.super_name.iter().cloned());
            pending.extend(supertype.interfaces.iter().cloned());
            hierarchy.add(class_decl(&supertype));
        }
    }
}

/// The display name of each parameter of a method: its `LocalVariableTable` name (or `p<k>`), as
/// `|name|` for references (whose size is a length or a path length).
fn parameter_names(ir: &MethodIr) -> Vec<String> {
    let entry = ir.proc(ir.entry);
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
                    .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()));
                let name = if generated {
                    format!("p{index}")
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

/// Optional settings of `analyze_with`; the default has no time budget and no progress reports.
#[derive(Clone, Copy, Default)]
pub struct AnalyzeOptions<'a> {
    /// Wall-clock time each selected method may take. The methods of a class share one
    /// value-analysis fixpoint, so a class gets the budgets of its selected methods together; when
    /// they run out during the fixpoint (which takes most of the time), its methods are reported
    /// `unknown` with that reason. Lifting and the cost solver are not interrupted.
    pub method_budget: Option<Duration>,
    /// Called once per class when its selected methods are finished, with their number (from the
    /// threads of the parallel analysis).
    pub progress: Option<&'a (dyn Fn(usize) + Sync)>,
}

/// Analyses the selected methods of `classes` under `model`. Each class is analysed on its own
/// (in parallel), with the methods of other classes it calls lifted on demand from the inputs or
/// the classpath; results come in class and method order.
pub fn analyze(
    classes: &[ClassFile],
    classpath: Option<&ClassPath>,
    model: CostModel,
    select: &(dyn Fn(&ClassFile, &Method) -> bool + Sync),
) -> AnalysisReport {
    analyze_with(classes, classpath, model, select, &AnalyzeOptions::default())
}

/// `analyze` with a time budget and progress reports.
pub fn analyze_with(
    classes: &[ClassFile],
    classpath: Option<&ClassPath>,
    model: CostModel,
    select: &(dyn Fn(&ClassFile, &Method) -> bool + Sync),
    options: &AnalyzeOptions<'_>,
) -> AnalysisReport {
    let hierarchy = build_hierarchy(classes, classpath);
    let inputs: HashMap<&str, &ClassFile> = classes.iter().map(|c| (c.name.as_str(), c)).collect();
    let lookup = |name: &str| -> Option<Arc<ClassFile>> {
        match inputs.get(name) {
            Some(class) => Some(Arc::new((*class).clone())),
            None => classpath.and_then(|cp| cp.get(name)),
        }
    };
    let groups: Vec<Vec<MethodReport>> = classes
        .par_iter()
        .map(|class| {
            let reports = analyze_class(class, &hierarchy, &lookup, model, select, options);
            if let Some(progress) = options.progress {
                progress(reports.len());
            }
            reports
        })
        .collect();
    AnalysisReport {
        version: REPORT_VERSION,
        cost_model: model.name().to_owned(),
        methods: groups.into_iter().flatten().collect(),
    }
}

/// Analyses the selected methods of one class.
fn analyze_class(
    class: &ClassFile,
    hierarchy: &Hierarchy,
    lookup: &ClassLookup<'_>,
    model: CostModel,
    select: &(dyn Fn(&ClassFile, &Method) -> bool + Sync),
    options: &AnalyzeOptions<'_>,
) -> Vec<MethodReport> {
    let mut methods: Vec<MethodIr> = Vec::new();
    let mut reports: Vec<ClassReport<'_>> = Vec::new();
    for method in class.methods.iter().filter(|m| m.code.is_some()) {
        let selected = select(class, method);
        match lift_method(class, method) {
            Ok(ir) => {
                if selected {
                    reports.push((method, Some(methods.len()), None));
                }
                methods.push(ir);
            }
            Err(error) => {
                if selected {
                    reports.push((method, None, Some(error.to_string())));
                }
            }
        }
    }
    if reports.is_empty() {
        return Vec::new();
    }
    let cache = LiftCache::default();
    let context = ClassContext {
        class,
        hierarchy,
        lookup,
        model,
        options,
        lifted: &cache,
    };
    let class_methods = methods.len();
    let mut out = analyze_lifted(&context, &mut methods, &reports);
    // The library callees lifted for the class come after its own methods.
    methods.truncate(class_methods);
    // Degrade per method: a method lost only because the value analysis of its whole class ran
    // out of rule evaluations is analysed again (in parallel, each within `RETRY_BUDGET`) with
    // just the class's methods it calls.
    let retry_options = AnalyzeOptions {
        method_budget: options.method_budget.map(|b| b.min(RETRY_BUDGET)),
        ..*options
    };
    let retry_context = ClassContext {
        options: &retry_options,
        ..context
    };
    let lost: Vec<(usize, &Method, usize)> = out
        .iter()
        .zip(&reports)
        .enumerate()
        .filter(|(_, (report, _))| {
            report
                .reason
                .as_deref()
                .is_some_and(|r| r.contains(EVALUATION_BUDGET_REASON))
        })
        .filter_map(|(k, (_, (method, index, _)))| index.map(|index| (k, *method, index)))
        .collect();
    let again: Vec<(usize, Option<MethodReport>)> = lost
        .par_iter()
        .map(|&(k, method, index)| {
            let mut alone = within_class_closure(&methods, index);
            (
                k,
                analyze_lifted(&retry_context, &mut alone, &[(method, Some(0), None)]).pop(),
            )
        })
        .collect();
    for (k, report) in again {
        if let Some(report) = report.filter(|r| r.status == "bounded" || !is_budget_loss(r)) {
            out[k] = report;
        }
    }
    out
}

/// The most wall-clock time a method analysed again alone (after its class ran out of rule
/// evaluations) may take.
const RETRY_BUDGET: Duration = Duration::from_millis(300);

/// Whether a report's method was lost to a budget (evaluations or time) rather than to its code.
fn is_budget_loss(report: &MethodReport) -> bool {
    report
        .reason
        .as_deref()
        .is_some_and(|r| r.contains(EVALUATION_BUDGET_REASON) || r.contains("time budget"))
}

/// A selected method of a class: its declaration, its index among the lifted methods (`None` when
/// lifting failed) and the lifting error.
type ClassReport<'a> = (&'a Method, Option<usize>, Option<String>);

/// What analysing one class needs besides its methods.
#[derive(Clone, Copy)]
struct ClassContext<'a, 'l> {
    class: &'a ClassFile,
    hierarchy: &'a Hierarchy,
    lookup: &'a ClassLookup<'l>,
    model: CostModel,
    options: &'a AnalyzeOptions<'a>,
    /// Library methods lifted by the class's analyses so far.
    lifted: &'a LiftCache,
}

/// What the reason of a method lost to the class's evaluation budget says.
const EVALUATION_BUDGET_REASON: &str = "rule evaluations";

/// The method `start` of `methods` (the class's lifted methods) first, then the class's methods it
/// calls, transitively.
fn within_class_closure(methods: &[MethodIr], start: usize) -> Vec<MethodIr> {
    let mut chosen = vec![start];
    let mut next = 0;
    while next < chosen.len() {
        let method = &methods[chosen[next]];
        next += 1;
        for stmt in method.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body) {
            let StmtKind::Invoke { method: callee, .. } = &stmt.kind else {
                continue;
            };
            if callee.class != method.class {
                continue;
            }
            let found = methods
                .iter()
                .position(|m| m.name == callee.name && m.descriptor == callee.descriptor);
            if let Some(k) = found.filter(|k| !chosen.contains(k)) {
                chosen.push(k);
            }
        }
    }
    chosen.into_iter().map(|k| methods[k].clone()).collect()
}

/// Analyses the selected methods (`reports`) of a class among its lifted `methods`, to which the
/// library callees they need are appended.
fn analyze_lifted(
    context: &ClassContext<'_, '_>,
    methods: &mut Vec<MethodIr>,
    reports: &[ClassReport<'_>],
) -> Vec<MethodReport> {
    let ClassContext {
        class,
        hierarchy,
        lookup,
        model,
        options,
        ..
    } = *context;
    let started = Instant::now();
    let budget = options
        .method_budget
        .map(|b| b.saturating_mul(u32::try_from(reports.len()).unwrap_or(u32::MAX)));
    let deadline = budget.and_then(|b| started.checked_add(b));
    let out_of_time = Cell::new(false);
    // A retry round gets at most the budgets of its own methods, so that a retry that does not
    // help costs no more than the first attempt may.
    let round_deadline: Cell<Option<Instant>> = Cell::new(None);
    let stop = || {
        let now = Instant::now();
        let late = deadline.is_some_and(|d| now >= d) || round_deadline.get().is_some_and(|d| now >= d);
        out_of_time.set(out_of_time.get() || late);
        late
    };
    let extended = lift_callees(methods, hierarchy, lookup, context.lifted);
    let hierarchy = extended.as_ref().unwrap_or(hierarchy);
    let index: HashMap<(String, String, String), usize> = methods
        .iter()
        .enumerate()
        .map(|(i, m)| ((m.class.clone(), m.name.clone(), m.descriptor.clone()), i))
        .collect();
    let resolver = Resolver {
        hierarchy,
        index: &index,
    };
    let program = compile(methods, &resolver, model);
    // Methods whose bound is lost only to possible integer overflows are analysed again with
    // their inputs assumed further from the types' limits (`overflow::MARGINS`); each method's
    // result comes from the last round it took part in, with that precondition.
    let analysed: Vec<usize> = reports.iter().filter_map(|(_, m, _)| *m).collect();
    let widths: Vec<Vec<Option<Width>>> = analysed.iter().map(|&m| entry_widths(&methods[m])).collect();
    let mut level = vec![0usize; analysed.len()];
    let mut finished: Vec<Option<MethodReport>> = vec![None; analysed.len()];
    let mut fallback: Vec<Option<MethodReport>> = vec![None; analysed.len()];
    let mut last_round_time = std::time::Duration::ZERO;
    for round in 0..overflow::MARGINS.len() {
        let pending: Vec<usize> = (0..analysed.len())
            .filter(|&k| finished[k].is_none() && level[k] == round)
            .collect();
        if pending.is_empty() {
            break;
        }
        let round_started = std::time::Instant::now();
        if round > 0 {
            let pending_budget = options
                .method_budget
                .map(|b| b.saturating_mul(u32::try_from(pending.len()).unwrap_or(u32::MAX)));
            round_deadline.set(pending_budget.and_then(|b| round_started.checked_add(b)));
        }
        // Only the pending methods are entries: the others' results are final.
        let entries: Vec<(usize, Polyhedron)> = pending
            .iter()
            .map(|&k| {
                let m = analysed[k];
                let entry = program.of_ir[m][methods[m].entry.index()];
                (entry, overflow::entry_condition(&widths[k], level[k]))
            })
            .collect();
        let fixpoint = fixpoint::solve_until(&program, &entries, &stop);
        let fixpoint_time = round_started.elapsed();
        let costs = if fixpoint.exhausted {
            None
        } else {
            Some(cost::solve(&program, &fixpoint, model))
        };
        last_round_time = round_started.elapsed();
        if std::env::var_os("JRESA_DEBUG_TIMING").is_some() {
            eprintln!(
                "{} round {round}: {} procedures, {} rule evaluations, {:.2} s (fixpoint {:.2} s)",
                class.name,
                program.procs.len(),
                fixpoint.evaluations,
                last_round_time.as_secs_f64(),
                fixpoint_time.as_secs_f64()
            );
        }
        for k in pending {
            let m = analysed[k];
            let mut report = MethodReport::new(class, reports_method(reports, m));
            let Some(costs) = &costs else {
                // A retry that ran out of time leaves the previous attempt's result standing.
                if let Some(mut previous) = fallback[k].take() {
                    let why = if out_of_time.get() {
                        "its time budget"
                    } else {
                        "its evaluation budget"
                    };
                    let note = format!(
                        "(the retry with inputs at least {} from the types' limits exceeded {why})",
                        overflow::MARGINS[level[k]].0
                    );
                    previous.reason = Some(match previous.reason.take() {
                        Some(reason) => format!("{reason} {note}"),
                        None => note,
                    });
                    finished[k] = Some(previous);
                    continue;
                }
                report.status = "unknown".into();
                report.reason = Some(if out_of_time.get() {
                    format!(
                        "the analysis of {} exceeded its time budget of {:.1} s ({} methods)",
                        class.name.replace('/', "."),
                        budget.unwrap_or_default().as_secs_f64(),
                        reports.len()
                    )
                } else {
                    format!(
                        "the value analysis of {} exceeded its budget of {} rule evaluations",
                        class.name.replace('/', "."),
                        jresa_analyses::value::limits::MAX_EVALUATIONS
                    )
                });
                finished[k] = Some(report);
                continue;
            };
            fill(&mut report, m, &methods[m], &program, costs);
            let entry = program.of_ir[m][methods[m].entry.index()];
            let reachable = overflow::reachable(&program, entry);
            let sites: Vec<(usize, u32)> = fixpoint
                .overflows
                .iter()
                .filter(|(p, _)| reachable.contains(p))
                .copied()
                .collect();
            // Another round can only help when the method's own arithmetic may overflow and the bound
            // was lost to a loop or to a cost that depends on values (not to an opaque call).
            let own_sites = sites
                .iter()
                .any(|(p, _)| matches!(program.procs[*p].origin, Origin::Ir { method, .. } if method == m));
            let retry = report.status == "unbounded"
                || report
                    .reason
                    .as_deref()
                    .is_some_and(|r| r.contains(cost::NOT_BOUNDED_BY_INPUTS));
            if report.status != "bounded" && own_sites && retry && round + 1 < overflow::MARGINS.len() {
                level[k] += 1;
                if fallback[k].is_none() {
                    fallback[k] = Some(report);
                }
                continue;
            }
            if report.status == "bounded" && level[k] > 0 {
                let (text, ranges) = precondition(&methods[m], &widths[k], level[k]);
                report.precondition = Some(text);
                report.parameter_ranges = ranges;
            }
            finished[k] = Some(report);
        }
    }
    if std::env::var_os("JRESA_DEBUG_TIMING").is_some() {
        eprintln!(
            "{}: total {:.2} s (last round {:.2} s)",
            class.name,
            started.elapsed().as_secs_f64(),
            last_round_time.as_secs_f64()
        );
    }
    let mut finished = finished.into_iter();
    let mut out = Vec::new();
    for (method, method_index, error) in reports {
        let report = match method_index {
            Some(_) => finished.next().flatten(),
            None => None,
        };
        out.push(report.unwrap_or_else(|| {
            let mut report = MethodReport::new(class, method);
            report.reason = error.clone();
            report
        }));
    }
    out
}

/// The declaration of the analysed method with IR index `m` among the class's reports.
fn reports_method<'a>(reports: &[(&'a Method, Option<usize>, Option<String>)], m: usize) -> &'a Method {
    reports
        .iter()
        .find(|(_, index, _)| *index == Some(m))
        .map(|(method, _, _)| *method)
        .expect("every analysed method has a report")
}

/// The JVM range of each input of a method's entry; `this` is left unconstrained (it is never
/// null, and no precondition on its path length is worth stating).
fn entry_widths(ir: &MethodIr) -> Vec<Option<Width>> {
    ir.proc(ir.entry)
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
                Ty::Ref => Some(Width::Size),
                Ty::Float | Ty::Double => None,
            }
        })
        .collect()
}

/// The precondition of a level of `overflow::MARGINS`: the parameters' intervals and their text.
fn precondition(ir: &MethodIr, widths: &[Option<Width>], level: usize) -> (String, Vec<ParameterRange>) {
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

impl MethodReport {
    /// A report with no result yet (`error` status) for a method of `class`.
    fn new(class: &ClassFile, method: &Method) -> MethodReport {
        MethodReport {
            class: class.name.replace('/', "."),
            name: method.name.clone(),
            descriptor: method.descriptor.clone(),
            status: "error".into(),
            upper_bound: None,
            complexity: None,
            terminates: None,
            reason: None,
            precondition: None,
            parameter_ranges: Vec::new(),
            parameters: Vec::new(),
            source_file: class.source_file.clone(),
            line: None,
            loops: Vec::new(),
            bound: None,
        }
    }
}

fn fill(report: &mut MethodReport, m: usize, ir: &MethodIr, program: &AbstractProgram, costs: &cost::Costs) {
    let names = parameter_names(ir);
    report.parameters = names.clone();
    report.line = ir.lines.first().map(|(_, line)| *line);
    let mut never_exits = false;
    let mut unranked = None;
    for info in &costs.loops {
        let Origin::Ir { method, proc } = program.procs[info.head].origin else {
            continue;
        };
        if method != m {
            continue;
        }
        let head = ir.proc(proc);
        let head_names: Vec<String> = head
            .inputs
            .iter()
            .map(|v| {
                let decl = ir.var(*v);
                if decl.ty == Ty::Ref {
                    format!("|{}|", decl.name)
                } else {
                    decl.name.clone()
                }
            })
            .collect();
        let line = ir.line_of(head.pc);
        let ranking_function = info.ranking.as_ref().map(|r| match r {
            Ranking::Linear(f) | Ranking::Halving(f) => affine_text(f, &head_names),
            Ranking::Absolute(f) => {
                let absolute: Vec<String> = head_names.iter().map(|n| format!("abs({n})")).collect();
                affine_text(f, &absolute)
            }
            Ranking::Doubling { growing, bound } => {
                format!(
                    "log2({} / {})",
                    affine_text(bound, &head_names),
                    affine_text(growing, &head_names)
                )
            }
        });
        let reason = if info.ranking.is_none() {
            let over = if head_names.is_empty() {
                "the loop carries no variable a ranking function could decrease".to_owned()
            } else {
                format!(
                    "no ranking function over {} decreases on every iteration",
                    head_names.join(", ")
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
        report.loops.push(LoopReport {
            line,
            offset: head.pc,
            ranking_function,
            iterations: info.iterations.as_ref().map(|e| rename(e, &head_names).to_string()),
            reason,
        });
    }
    report.loops.sort_by_key(|l| l.offset);
    let entry = program.of_ir[m][ir.entry.index()];
    match &costs.bounds[entry] {
        Bound::Bounded(expr) => {
            let named = rename(expr, &names);
            report.status = "bounded".into();
            report.upper_bound = Some(named.to_string());
            report.complexity = Some(named.complexity());
            report.terminates = Some(true);
            report.reason = None;
            report.bound = Some(named);
        }
        Bound::Unknown(reason) => {
            if let Some(loop_reason) = unranked {
                report.status = "unbounded".into();
                report.terminates = if never_exits { Some(false) } else { None };
                report.reason = Some(loop_reason);
            } else {
                report.status = "unknown".into();
                report.reason = Some(reason.clone());
            }
        }
    }
}
