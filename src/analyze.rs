//! The cost analysis of a program: lifting, call resolution (CHA over the program and the classpath
//! methods it reaches), abstract compilation, the value-analysis fixpoint, and closed-form bounds
//! per method, assembled into a report.
//!
//! Library methods reached by calls are lifted from the classpath on demand, up to
//! `LIBRARY_BUDGET` methods (`callees.rs`); a call that still has a target outside the analysed
//! methods makes its caller's cost `unknown` with that reason (never free). `results.rs` turns the
//! analysis results into the typed report model of `report.rs`.

mod callees;
pub mod nontermination;
mod report;
mod results;
mod summaries;
mod summary_store;

pub use report::{
    cost_model_name, AnalysisReport, AnalysisStatus, Budget, LoopReport, MethodReport, ParameterRange, Reason,
    ReasonKind, Witness, REPORT_VERSION,
};

use crate::classfile::{ClassFile, ClassPath, Method};
use crate::lift::lift_method;
use crate::program::{build_hierarchy_with, lambda_bootstraps, spin_lambdas};
use callees::{lift_callees, method_index, replace_fresh_objects, ClassLookup, ExactCallees, LiftCache, Resolver};
use jresa_analyses::bounds::compare;
use jresa_analyses::bounds::cost;
use jresa_analyses::bounds::expr::Growth;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::lambdas::{self, LambdaClass};
use jresa_analyses::ir::{entry_fields, ghosts, reloads};
use jresa_analyses::ir::{MethodIr, StmtKind};
use jresa_analyses::value::compile::compile;
use jresa_analyses::value::fixpoint;
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::Polyhedron;
use jresa_analyses::value::program::Origin;
use jresa_analyses::value::program::Width;
use num_rational::BigRational;
use rayon::prelude::*;
use results::{analysed_entry, entry_widths, fill, precondition};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use summaries::Summaries;
use summary_store::SummaryStore;

/// Library methods lifted from the classpath for calls, at most. Each is analysed like program
/// code, in its callers' context; past this, calls into the library go to the callees' summaries
/// (`summaries.rs`), which every class shares.
pub const LIBRARY_BUDGET: usize = 50;

/// Statements a library method may have to be lifted for calls. Larger ones (formatting, I/O,
/// collections internals) rarely get a bound and dominate the analysis time; calls to them make
/// the caller's cost unknown instead.
pub const LIBRARY_METHOD_STATEMENTS: usize = 60;

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
    /// The cache directory where library summaries are kept between runs (`summary_store.rs`);
    /// none keeps nothing.
    pub cache_dir: Option<&'a std::path::Path>,
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
    let spun = spin_lambdas(classes);
    let hierarchy = build_hierarchy_with(classes, classpath, &spun);
    let inputs: HashMap<&str, &ClassFile> = classes.iter().map(|c| (c.name.as_str(), c)).collect();
    let lookup = |name: &str| -> Option<Arc<ClassFile>> {
        match inputs.get(name) {
            Some(class) => Some(Arc::new((*class).clone())),
            None => classpath.and_then(|cp| cp.get(name)),
        }
    };
    let names = inputs.keys().map(|name| (*name).to_owned()).collect();
    let summaries = Summaries::new(&hierarchy, &lookup, &spun, model, names);
    let store = options
        .cache_dir
        .map(|dir| SummaryStore::new(dir, classes, classpath, &spun, model));
    if let Some(store) = &store {
        summaries.restore(store.load());
    }
    let groups: Vec<Vec<MethodReport>> = classes
        .par_iter()
        .map(|class| {
            let program = Program {
                hierarchy: &hierarchy,
                lookup: &lookup,
                lambdas: &spun,
                summaries: &summaries,
            };
            let reports = analyze_class(class, &program, model, select, options);
            if let Some(progress) = options.progress {
                progress(reports.len());
            }
            reports
        })
        .collect();
    if let Some(store) = &store {
        let (stored, computed) = summaries.to_store();
        if computed {
            store.save(&stored);
        }
    }
    let mut methods: Vec<MethodReport> = groups.into_iter().flatten().collect();
    nontermination::confirm(classes, classpath, &mut methods);
    AnalysisReport {
        version: REPORT_VERSION,
        cost_model: model,
        methods,
    }
}

/// Analyses the selected methods of one class.
fn analyze_class(
    class: &ClassFile,
    program: &Program<'_, '_>,
    model: CostModel,
    select: &(dyn Fn(&ClassFile, &Method) -> bool + Sync),
    options: &AnalyzeOptions<'_>,
) -> Vec<MethodReport> {
    let mut methods: Vec<MethodIr> = Vec::new();
    // Per method, its IR before the ghost pass where that changed it.
    let mut unghosted: Vec<Option<MethodIr>> = Vec::new();
    let mut selected: Vec<Selected<'_>> = Vec::new();
    let bootstraps = lambda_bootstraps(class);
    for method in class.methods.iter().filter(|m| m.code.is_some()) {
        let chosen = select(class, method);
        match lift_method(class, method) {
            Ok(mut ir) => {
                if bootstraps.iter().any(Option::is_some) {
                    lambdas::rewrite_sites(&mut ir, &class.name, program.lambdas);
                }
                // The search for non-termination runs the method's own code, without ghosts,
                // fields at entry or replaced objects.
                let original = ir.clone();
                let exact = ExactCallees {
                    lookup: program.lookup,
                    lambdas: program.lambdas,
                    cache: &program.summaries.exact,
                };
                let replaced = replace_fresh_objects(&mut ir, model, &exact);
                let held = entry_fields::reuse_reads_with_entry_fields(&mut ir);
                ghosts::ghost_invariant_reads_holding(&mut ir, &held);
                debug_ir(&ir);
                let rewritten = replaced || !ir.ghosts.is_empty() || ir.heap_entry.is_some();
                unghosted.push(Some(original).filter(|_| rewritten).map(|mut plain| {
                    reloads::reuse_repeated_reads(&mut plain);
                    plain
                }));
                if chosen {
                    selected.push(Selected {
                        method,
                        index: Some(methods.len()),
                        lift_error: None,
                    });
                }
                methods.push(ir);
            }
            Err(error) => {
                if chosen {
                    selected.push(Selected {
                        method,
                        index: None,
                        lift_error: Some(error.to_string()),
                    });
                }
            }
        }
    }
    if selected.is_empty() {
        return Vec::new();
    }
    keep_selected_closure(&mut methods, &mut unghosted, &mut selected);
    let cache = LiftCache::default();
    let context = ClassContext {
        class,
        hierarchy: program.hierarchy,
        lookup: program.lookup,
        lambdas: program.lambdas,
        summaries: program.summaries,
        model,
        options,
        lifted: &cache,
        max_evaluations: jresa_analyses::value::limits::MAX_EVALUATIONS,
        assume_nothing_when_exhausted: false,
        stop_at_opaque: false,
        split_cases: false,
    };
    let class_methods = methods.len();
    let mut out = analyze_lifted(&context, &mut methods, &selected);
    // The library callees lifted for the class come after its own methods.
    methods.truncate(class_methods);
    retry_alone(&context, &methods, &selected, &mut out);
    let callees = nontermination::CalleeCode {
        hierarchy: program.hierarchy,
        lookup: program.lookup,
        lifted: Default::default(),
    };
    for (report, s) in out.iter_mut().zip(&selected) {
        if let Some(index) = s.index {
            let ir = unghosted[index].as_ref().unwrap_or(&methods[index]);
            nontermination::search(report, ir, &callees);
        }
    }
    out
}

/// Analyses methods again alone (in parallel, each within `RETRY_EVALUATIONS`), with just the
/// class's methods they call, which then get their preconditions from these calls only rather than
/// as entries of their own (`Retry`). A retry's report replaces the class's when it is better.
fn retry_alone(
    context: &ClassContext<'_, '_>,
    methods: &[MethodIr],
    selected: &[Selected<'_>],
    out: &mut [MethodReport],
) {
    let retry_context = ClassContext {
        max_evaluations: RETRY_EVALUATIONS,
        assume_nothing_when_exhausted: true,
        stop_at_opaque: true,
        split_cases: true,
        ..*context
    };
    let lost: Vec<(usize, &Method, usize, Retry)> = out
        .iter()
        .zip(selected)
        .enumerate()
        .filter_map(|(k, (report, s))| {
            let index = s.index?;
            Retry::of(report, methods, index).map(|why| (k, s.method, index, why))
        })
        .collect();
    let again: Vec<(usize, Retry, Option<MethodReport>)> = lost
        .par_iter()
        .map(|&(k, method, index, why)| {
            let mut alone = within_class_closure(methods, index);
            debug_timing(|| format!("retry {}{} alone", method.name, method.descriptor));
            let only = Selected {
                method,
                index: Some(0),
                lift_error: None,
            };
            (k, why, analyze_lifted(&retry_context, &mut alone, &[only]).pop())
        })
        .collect();
    for (k, why, report) in again {
        let Some(report) = report else { continue };
        if why.improves(&out[k], &report) {
            out[k] = report;
        } else if why == Retry::Context && report.terminates == Some(true) {
            // A bound under a precondition keeps its cost; the retry proves termination for all.
            out[k].terminates = Some(true);
        }
    }
}

/// Why a method is analysed again alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Retry {
    /// The value analysis of its whole class ran out of rule evaluations (degrade per method).
    Budget,
    /// A method of the class it calls has no bound or no termination proof under the
    /// precondition of all its callers and its own entry (say, a loop that ends only for positive
    /// inputs, which this method's calls pass): the callee is analysed in this method's context.
    Context,
    /// Its bound grows faster than linearly (`n·log(n)`, a degree of two or more, exponential) and
    /// it calls a method of its class: that callee's post-condition under this method's calls alone may be exact where the
    /// hull with its other callers is not (a helper's loop that runs `y` times for `y > 0` and
    /// never for `y <= 0`), and amortise the callee's cost over this method's loop.
    Tighter,
}

impl Retry {
    fn of(report: &MethodReport, methods: &[MethodIr], index: usize) -> Option<Retry> {
        // A bound under a precondition, without a termination proof for every input: the
        // callee's arithmetic may wrap only outside this method's calls.
        if report.precondition.is_some() && report.terminates != Some(true) && calls_class_method(&methods[index]) {
            return Some(Retry::Context);
        }
        if report.status == AnalysisStatus::Bounded
            && report.bound.as_ref().is_some_and(|b| b.growth() > LINEAR)
            && calls_class_method(&methods[index])
        {
            return Some(Retry::Tighter);
        }
        let reason = report.reason.as_ref()?;
        match reason.kind {
            ReasonKind::Budget(Budget::Evaluations) => Some(Retry::Budget),
            ReasonKind::Unranked | ReasonKind::NotBoundedByInputs | ReasonKind::UnrankedCallee
                if report.terminates != Some(true) && calls_class_method(&methods[index]) =>
            {
                Some(Retry::Context)
            }
            _ => None,
        }
    }

    /// Whether the retry's report `new` replaces `old`.
    fn improves(self, old: &MethodReport, new: &MethodReport) -> bool {
        match self {
            // A retry that ran out of rule evaluations too says the same, and why the analysis
            // without invariants found no bound either.
            Retry::Budget => {
                new.status == AnalysisStatus::Bounded
                    || new.reason.as_ref().is_none_or(|r| {
                        !r.is_budget_loss()
                            || (r.kind == ReasonKind::Budget(Budget::Evaluations) && r.retry_stopped.is_none())
                    })
            }
            Retry::Tighter => {
                new.status == AnalysisStatus::Bounded
                    && new.terminates == old.terminates
                    && new.precondition.is_none() >= old.precondition.is_none()
                    && matches!((&old.bound, &new.bound), (Some(old), Some(new)) if compare::grows_slower(old, new))
            }
            Retry::Context => {
                (new.status == AnalysisStatus::Bounded
                    && (old.status != AnalysisStatus::Bounded
                        || (old.precondition.is_some() && new.precondition.is_none())))
                    || (new.terminates == Some(true)
                        && old.terminates != Some(true)
                        && (new.status == AnalysisStatus::Bounded || old.status != AnalysisStatus::Bounded))
            }
        }
    }
}

/// The growth of a linear bound: retries for a tighter bound start above it.
const LINEAR: Growth = Growth {
    exponential: 0,
    polynomial: 1,
    logarithmic: 0,
};

/// Whether `method` calls another method of its own class.
fn calls_class_method(method: &MethodIr) -> bool {
    method
        .procs
        .iter()
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.body)
        .any(|s| matches!(&s.kind, StmtKind::Invoke { method: callee, .. } if callee.class == method.class && !(callee.name == method.name && callee.descriptor == method.descriptor)))
}

/// The rule evaluations a method analysed again alone (after its class ran out of them) may take:
/// a budget that, unlike wall-clock time, gives the same result on every run.
const RETRY_EVALUATIONS: usize = 3_000;

/// Where the value analysis found arithmetic that may overflow, seen from a method's entry.
#[derive(Clone, Copy)]
struct Overflows {
    /// In the method's own procedures.
    own: bool,
    /// In any procedure of the method's class it reaches (library code, whose cycles later rounds
    /// rarely rank, aside).
    reached: bool,
}

/// A selected method of a class: its declaration, its index among the lifted methods (`None` when
/// lifting failed) and the lifting error.
struct Selected<'a> {
    method: &'a Method,
    index: Option<usize>,
    lift_error: Option<String>,
}

/// The program every class is analysed in: its hierarchy, where its classes come from, and its
/// lambda classes.
struct Program<'a, 'l> {
    hierarchy: &'a Hierarchy,
    lookup: &'a ClassLookup<'l>,
    lambdas: &'a HashMap<String, LambdaClass>,
    /// The summaries of the methods a class's analysis calls but does not lift.
    summaries: &'a Summaries<'a, 'l>,
}

/// What analysing one class needs besides its methods.
#[derive(Clone, Copy)]
struct ClassContext<'a, 'l> {
    class: &'a ClassFile,
    hierarchy: &'a Hierarchy,
    lookup: &'a ClassLookup<'l>,
    lambdas: &'a HashMap<String, LambdaClass>,
    summaries: &'a Summaries<'a, 'l>,
    model: CostModel,
    options: &'a AnalyzeOptions<'a>,
    /// Library methods lifted by the class's analyses so far.
    lifted: &'a LiftCache,
    /// The rule evaluations each value-analysis fixpoint may take.
    max_evaluations: usize,
    /// Whether a fixpoint that runs out of rule evaluations is replaced by one that assumes
    /// nothing (`fixpoint::assume_nothing`), so that the methods whose cost needs no invariant
    /// still get a bound.
    assume_nothing_when_exhausted: bool,
    /// Whether the fixpoint of a method analysed alone stops at the first opaque item it reaches
    /// (`fixpoint::solve_until_opaque`): the method then has no bound, and its reason is the
    /// item's.
    stop_at_opaque: bool,
    /// Whether the fixpoint splits procedures' POSTs into cases (`fixpoint::solve_with_cases`):
    /// for a method analysed alone, where a loop that tests what a callee returns (`-1` or an
    /// index) may be ranked only by the case its test selects.
    split_cases: bool,
}

/// The method `start` of `methods` (the class's lifted methods) first, then the class's methods it
/// calls, transitively.
fn within_class_closure(methods: &[MethodIr], start: usize) -> Vec<MethodIr> {
    class_closure(methods, &[start])
        .into_iter()
        .map(|k| methods[k].clone())
        .collect()
}

/// The indices of `starts` (first, in order) and of the methods of the class they call,
/// transitively.
fn class_closure(methods: &[MethodIr], starts: &[usize]) -> Vec<usize> {
    let mut chosen = starts.to_vec();
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
    chosen
}

/// Keeps, of a class's lifted methods, the selected ones and those they call (when some are not
/// selected): the others would only add their library callees and contexts to the analysis.
fn keep_selected_closure(
    methods: &mut Vec<MethodIr>,
    unghosted: &mut Vec<Option<MethodIr>>,
    selected: &mut [Selected<'_>],
) {
    let starts: Vec<usize> = selected.iter().filter_map(|s| s.index).collect();
    if starts.len() == methods.len() {
        return;
    }
    let keep = class_closure(methods, &starts);
    let mut old_methods: Vec<Option<MethodIr>> = std::mem::take(methods).into_iter().map(Some).collect();
    let mut old_unghosted = std::mem::take(unghosted);
    for &k in &keep {
        methods.extend(old_methods[k].take());
        unghosted.push(old_unghosted[k].take());
    }
    for s in selected.iter_mut() {
        s.index = s.index.and_then(|i| keep.iter().position(|k| *k == i));
    }
}

/// The wall-clock budgets of one analysis of a class's methods: the class's, and during a later
/// round (inputs further from the types' limits) that round's own.
struct Clock {
    started: Instant,
    /// The class's budget: the budgets of its selected methods together.
    budget: Option<Duration>,
    deadline: Option<Instant>,
    round_deadline: Cell<Option<Instant>>,
    /// Whether a deadline has passed.
    out_of_time: Cell<bool>,
}

impl Clock {
    fn start(options: &AnalyzeOptions<'_>, methods: usize) -> Clock {
        let started = Instant::now();
        let budget = options.method_budget.map(|b| b.saturating_mul(saturating_u32(methods)));
        Clock {
            started,
            budget,
            deadline: budget.and_then(|b| started.checked_add(b)),
            round_deadline: Cell::new(None),
            out_of_time: Cell::new(false),
        }
    }

    /// A later round gets at most the budgets of its own methods, so that a round that does not
    /// help costs no more than the first attempt may.
    fn start_round(&self, options: &AnalyzeOptions<'_>, pending: usize, now: Instant) {
        let budget = options.method_budget.map(|b| b.saturating_mul(saturating_u32(pending)));
        self.round_deadline.set(budget.and_then(|b| now.checked_add(b)));
    }

    /// Whether the analysis must stop now (a deadline has passed).
    fn stop(&self) -> bool {
        let now = Instant::now();
        let late = self.deadline.is_some_and(|d| now >= d) || self.round_deadline.get().is_some_and(|d| now >= d);
        self.out_of_time.set(self.out_of_time.get() || late);
        late
    }

    /// The budget that stopped a fixpoint that did not finish.
    fn exhausted(&self) -> Budget {
        if self.out_of_time.get() {
            Budget::Time
        } else {
            Budget::Evaluations
        }
    }
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The rounds of the analysis of a class's selected methods: methods whose bound is lost only to
/// possible integer overflows are analysed again with their inputs assumed further from the
/// types' limits (`overflow::MARGINS`); each method's result comes from the last round it took
/// part in, with that precondition.
struct Rounds {
    /// The IR indices of the analysed (lifted) selected methods.
    analysed: Vec<usize>,
    widths: Vec<Vec<Option<Width>>>,
    /// The margin level of each method's next round.
    level: Vec<usize>,
    finished: Vec<Option<MethodReport>>,
    /// The first round's report of a method taking part in later rounds.
    fallback: Vec<Option<MethodReport>>,
}

impl Rounds {
    fn new(methods: &[MethodIr], selected: &[Selected<'_>]) -> Rounds {
        let analysed: Vec<usize> = selected.iter().filter_map(|s| s.index).collect();
        let count = analysed.len();
        Rounds {
            widths: analysed.iter().map(|&m| entry_widths(&methods[m])).collect(),
            analysed,
            level: vec![0; count],
            finished: vec![None; count],
            fallback: vec![None; count],
        }
    }

    /// The methods (by position in `analysed`) that take part in round `round`.
    fn pending(&self, round: usize) -> Vec<usize> {
        (0..self.analysed.len())
            .filter(|&k| self.finished[k].is_none() && self.level[k] == round)
            .collect()
    }

    /// Method `k` when its round's fixpoint ran out of `budget`: the previous round's report with
    /// a note, or (in the first round) the class's reason.
    fn out_of_budget(
        &mut self,
        k: usize,
        mut report: MethodReport,
        budget: Budget,
        context: &ClassContext<'_, '_>,
        clock: &Clock,
        methods: usize,
    ) {
        // A retry that ran out of time leaves the previous attempt's result standing.
        if let Some(mut previous) = self.fallback[k].take() {
            if previous.status == AnalysisStatus::Bounded {
                self.finished[k] = Some(previous);
                return;
            }
            let why = match budget {
                Budget::Time => "its time budget",
                Budget::Evaluations => "its evaluation budget",
            };
            let note = format!(
                "(the retry with inputs at least {} from the types' limits exceeded {why})",
                overflow::MARGINS[self.level[k]].0
            );
            previous.reason = Some(match previous.reason.take() {
                Some(reason) => Reason {
                    text: format!("{} {note}", reason.text),
                    retry_stopped: Some(budget),
                    ..reason
                },
                None => Reason {
                    retry_stopped: Some(budget),
                    ..Reason::new(ReasonKind::Budget(budget), note)
                },
            });
            self.finished[k] = Some(previous);
            return;
        }
        let class = context.class.name.replace('/', ".");
        let text = match budget {
            Budget::Time => format!(
                "the analysis of {class} exceeded its time budget of {:.1} s ({methods} methods)",
                clock.budget.unwrap_or_default().as_secs_f64(),
            ),
            Budget::Evaluations => format!(
                "the value analysis of {class} exceeded its budget of {} rule evaluations",
                jresa_analyses::value::limits::MAX_EVALUATIONS
            ),
        };
        report.status = AnalysisStatus::Unknown;
        report.reason = Some(Reason::new(ReasonKind::Budget(budget), text));
        self.finished[k] = Some(report);
    }

    /// Method `k` when its round's fixpoint stopped at an opaque item (`reason`): the previous
    /// round's report where there was one, else no bound, for that reason.
    fn reached_opaque(&mut self, k: usize, mut report: MethodReport, reason: &str) {
        if let Some(previous) = self.fallback[k].take() {
            self.finished[k] = Some(previous);
            return;
        }
        report.status = AnalysisStatus::Unknown;
        report.reason = Some(Reason::new(ReasonKind::Cost, reason));
        self.finished[k] = Some(report);
    }

    /// Adds to method `k`'s budget reason why the analysis that assumes nothing found no bound
    /// either (the reason may be an artefact of assuming nothing, so the budget stays the reason).
    fn note_without_invariants(&mut self, k: usize, without: Option<Reason>) {
        let (Some(report), Some(without)) = (self.finished[k].as_mut(), without) else {
            return;
        };
        if let Some(reason) = report.reason.as_mut() {
            reason.text = format!("{}; without invariants: {}", reason.text, without.text);
        }
    }

    /// Method `k` with its round's result in `report`: finished, or pending for the next round
    /// when another margin can help.
    fn judge(&mut self, k: usize, report: MethodReport, round: usize, overflows: Overflows, ir: &MethodIr) {
        let another = round + 1 < overflow::MARGINS.len();
        if another && retries(&report, round, overflows) {
            self.level[k] += 1;
            if self.fallback[k].is_none() {
                self.fallback[k] = Some(report);
            }
            return;
        }
        let report = self.conclude(k, report, ir);
        self.finished[k] = Some(report);
    }

    /// The final report of method `k` from its last round's `report`: a bound found under a
    /// precondition carries it and the first round's termination verdict (which holds for every
    /// input); a first round's bound for every input stands where no later round found a better.
    fn conclude(&mut self, k: usize, mut report: MethodReport, ir: &MethodIr) -> MethodReport {
        // The first round's report when it has a bound (for every input), and its verdict.
        let first = self.fallback[k].take();
        let terminates = first.as_ref().and_then(|first| first.terminates);
        let bounded = first.filter(|f| f.status == AnalysisStatus::Bounded);
        if report.status == AnalysisStatus::Bounded && self.level[k] > 0 {
            if let Some(weight) = stands_on_limits(&report, self.level[k]) {
                return bounded.unwrap_or_else(|| without_limit_bound(report, &weight, terminates));
            }
            if let Some(bounded) = bounded.filter(|_| has_type_range_offset(&report)) {
                return bounded;
            }
            let (text, ranges) = precondition(ir, &self.widths[k], self.level[k]);
            report.precondition = Some(text);
            // A field at entry the precondition limits is an input validation must read.
            for range in &ranges {
                if !report.parameters.contains(&range.parameter) {
                    report.parameters.push(range.parameter.clone());
                }
            }
            report.parameter_ranges = ranges;
            // The ranking functions hold within the precondition only: outside it, arithmetic
            // may wrap and a loop may never end. What holds for every input is the first round's.
            report.terminates = terminates;
            return report;
        }
        if let Some(bounded) = bounded {
            return bounded;
        }
        // Without a bound, the first round's termination proof holds for every input.
        if report.status != AnalysisStatus::Bounded && report.terminates.is_none() {
            report.terminates = terminates;
        }
        report
    }
}

/// Whether another round, with inputs further from the types' limits, may do better than
/// `report`: when arithmetic may overflow and the bound was lost to a loop or to a cost that
/// depends on values (not to an opaque call), the method's own arithmetic for its own loops, any
/// it reaches for a callee's loop or recursion; or when the first round's bound for every input
/// starts a ranking function from a wrapped value (`nat(n + 2147483712)`, hiding how small the
/// cost of most inputs is), and a precondition may give one without.
fn retries(report: &MethodReport, round: usize, overflows: Overflows) -> bool {
    match report.reason.as_ref().map(|r| r.kind) {
        _ if report.status == AnalysisStatus::Unbounded => overflows.own,
        _ if report.status == AnalysisStatus::Bounded => round == 0 && overflows.own && has_type_range_offset(report),
        Some(ReasonKind::Unranked | ReasonKind::NotBoundedByInputs) => overflows.own,
        Some(ReasonKind::UnrankedCallee) => overflows.reached,
        _ => false,
    }
}

/// Whether `report`'s bound offsets a growing term by a number the size of the types' limits.
fn has_type_range_offset(report: &MethodReport) -> bool {
    report
        .bound
        .as_ref()
        .is_some_and(|b| jresa_analyses::bounds::ranking::is_type_range_sized(&b.largest_offset()))
}

/// The weight by which a bound proven at precondition level `level` multiplies a growing term,
/// when it is at least half the level's limit on `int` inputs: a number the precondition's
/// limits produced (a variable bounded by its limit, `x ≤ 2^15`, standing in for a parameter), so
/// that the bound's class would hide how the cost grows with that parameter.
fn stands_on_limits(report: &MethodReport, level: usize) -> Option<BigRational> {
    let (margin, _) = overflow::MARGINS[level];
    let limit = i64::from(i32::MAX) - margin;
    let weight = report.bound.as_ref()?.largest_weight();
    (&weight * BigRational::from_integer(2.into()) >= BigRational::from_integer(limit.into())).then_some(weight)
}

/// A bound that stands on the precondition's limits, reported as no bound (with the first
/// round's termination verdict, which holds for every input).
fn without_limit_bound(mut report: MethodReport, weight: &BigRational, terminates: Option<bool>) -> MethodReport {
    let text = format!(
        "the only bound found, {}, holds for inputs away from the types' limits and weighs a term by {weight}, a number those limits produce: its class would hide how the cost grows with a parameter",
        report.upper_bound.as_deref().unwrap_or("?")
    );
    report.status = AnalysisStatus::Unknown;
    report.upper_bound = None;
    report.complexity = None;
    report.bound = None;
    report.reason = Some(Reason::new(ReasonKind::Cost, text));
    report.terminates = terminates;
    report
}

/// Analyses the `selected` methods of a class among its lifted `methods`, to which the library
/// callees they need are appended.
fn analyze_lifted(
    context: &ClassContext<'_, '_>,
    methods: &mut Vec<MethodIr>,
    selected: &[Selected<'_>],
) -> Vec<MethodReport> {
    let ClassContext {
        class,
        hierarchy,
        lookup,
        lambdas,
        model,
        options,
        ..
    } = *context;
    let clock = Clock::start(options, selected.len());
    // Lifted callees have their objects that never escape replaced as the class's own methods do
    // (a constructor's writes spliced into the method that calls it, say).
    let exact = ExactCallees {
        lookup,
        lambdas,
        cache: &context.summaries.exact,
    };
    let rewrite = |ir: &mut MethodIr| {
        replace_fresh_objects(ir, model, &exact);
    };
    let extended = lift_callees(
        methods,
        hierarchy,
        lookup,
        lambdas,
        context.lifted,
        LIBRARY_BUDGET,
        Some(&rewrite),
    );
    let hierarchy = extended.as_ref().unwrap_or(hierarchy);
    let index = method_index(methods);
    debug_timing(|| {
        let names: Vec<String> = methods.iter().map(|m| format!("{}.{}", m.class, m.name)).collect();
        format!(
            "{}: {} methods analysed together: {}",
            class.name,
            methods.len(),
            names.join(" ")
        )
    });
    let resolver = Resolver::new(hierarchy, &index, Some((context.summaries, 1)));
    let program = compile(methods, &resolver, model);
    let mut rounds = Rounds::new(methods, selected);
    let mut last_round_time = Duration::ZERO;
    for round in 0..overflow::MARGINS.len() {
        let pending = rounds.pending(round);
        if pending.is_empty() {
            break;
        }
        let round_started = Instant::now();
        if round > 0 {
            clock.start_round(options, pending.len(), round_started);
        }
        // Only the pending methods are entries: the others' results are final.
        let entries: Vec<(usize, Polyhedron)> = pending
            .iter()
            .map(|&k| {
                let m = rounds.analysed[k];
                let entry = program.of_ir[m][analysed_entry(&methods[m]).index()];
                (entry, overflow::entry_condition(&rounds.widths[k], rounds.level[k]))
            })
            .collect();
        let stop = || clock.stop();
        let until_opaque = context.stop_at_opaque && entries.len() == 1;
        let mut fixpoint = match (context.split_cases, until_opaque) {
            (true, _) => fixpoint::solve_with_cases(&program, &entries, context.max_evaluations, &stop, until_opaque),
            (false, true) => fixpoint::solve_until_opaque(&program, &entries, context.max_evaluations, &stop),
            (false, false) => fixpoint::solve_within(&program, &entries, context.max_evaluations, &stop),
        };
        if let Some(reason) = fixpoint.reached_opaque.take() {
            for k in pending {
                let report = MethodReport::new(class, selected_method(selected, rounds.analysed[k]));
                rounds.reached_opaque(k, report, &reason);
            }
            continue;
        }
        // The last resort of a method analysed alone: costs that need no invariant.
        let assumed_nothing = fixpoint.exhausted
            && round == 0
            && context.assume_nothing_when_exhausted
            && clock.exhausted() == Budget::Evaluations;
        if assumed_nothing {
            fixpoint = fixpoint::assume_nothing(&program, &entries);
        }
        let fixpoint_time = round_started.elapsed();
        let costs = if fixpoint.exhausted {
            None
        } else {
            Some(cost::solve(&program, &fixpoint, model))
        };
        last_round_time = round_started.elapsed();
        debug_timing(|| {
            format!(
                "{} round {round}: {} procedures, {} rule evaluations, {:.2} s (fixpoint {:.2} s)",
                class.name,
                program.procs.len(),
                fixpoint.evaluations,
                last_round_time.as_secs_f64(),
                fixpoint_time.as_secs_f64()
            )
        });
        for k in pending {
            let m = rounds.analysed[k];
            let mut report = MethodReport::new(class, selected_method(selected, m));
            let Some(costs) = &costs else {
                rounds.out_of_budget(k, report, clock.exhausted(), context, &clock, selected.len());
                continue;
            };
            fill(&mut report, m, methods, &program, costs);
            if round > 0 && report.status != AnalysisStatus::Bounded && report.terminates == Some(true) {
                // Inputs were assumed away from the types' limits: no proof for all of them.
                report.terminates = None;
            }
            if assumed_nothing && report.status != AnalysisStatus::Bounded {
                let without = report.reason.take();
                let fresh = MethodReport::new(class, selected_method(selected, m));
                rounds.out_of_budget(k, fresh, Budget::Evaluations, context, &clock, selected.len());
                rounds.note_without_invariants(k, without);
                continue;
            }
            let entry = program.of_ir[m][analysed_entry(&methods[m]).index()];
            let reachable = overflow::reachable(&program, entry);
            let overflows = Overflows {
                own: fixpoint.overflows.iter().any(|(p, _)| {
                    reachable.contains(p)
                        && matches!(program.procs[*p].origin, Origin::Ir { method, .. } if method == m)
                }),
                reached: fixpoint.overflows.iter().any(|(p, _)| {
                    reachable.contains(p)
                        && matches!(program.procs[*p].origin, Origin::Ir { method, .. } if methods[method].class == methods[m].class)
                }),
            };
            rounds.judge(k, report, round, overflows, &methods[m]);
        }
    }
    debug_timing(|| {
        format!(
            "{}: total {:.2} s (last round {:.2} s)",
            class.name,
            clock.started.elapsed().as_secs_f64(),
            last_round_time.as_secs_f64()
        )
    });
    let mut finished = rounds.finished.into_iter();
    selected
        .iter()
        .map(|s| {
            let report = match s.index {
                Some(_) => finished.next().flatten(),
                None => None,
            };
            report.unwrap_or_else(|| {
                let mut report = MethodReport::new(class, s.method);
                report.reason = s.lift_error.clone().map(|e| Reason::new(ReasonKind::NotLifted, e));
                report
            })
        })
        .collect()
}

/// Prints the IR the analyses run on (after the rewrites for the analyses) on stderr when
/// `JRESA_DEBUG_IR` is set.
fn debug_ir(ir: &MethodIr) {
    if std::env::var_os("JRESA_DEBUG_IR").is_some() {
        eprintln!("{}", jresa_analyses::ir::print_method(ir));
    }
}

/// Prints a timing line on stderr when `JRESA_DEBUG_TIMING` is set.
fn debug_timing(line: impl FnOnce() -> String) {
    if std::env::var_os("JRESA_DEBUG_TIMING").is_some() {
        eprintln!("{}", line());
    }
}

/// The declaration of the analysed method with IR index `m` among the class's selected methods.
fn selected_method<'a>(selected: &[Selected<'a>], m: usize) -> &'a Method {
    selected
        .iter()
        .find(|s| s.index == Some(m))
        .map(|s| s.method)
        .expect("every analysed method is selected")
}
