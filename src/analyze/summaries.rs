//! Summaries of the methods a class's analysis calls but could not lift (past the library budget,
//! or larger than a lifted method may be): each such method is analysed once, on its own, for
//! every input within its parameters' types, and every class that calls it uses the result.
//!
//! A summary is the method's input–output relation (the post-condition of its entry) and its bound
//! as the cost of one abstract rule (`bounds::summary`). Only methods that terminate with a bound
//! the rule can express get one; a call of any other stays opaque, with its reason.
//!
//! Summaries nest: the analysis of a summary at depth `d` (a class's calls use depth 1) sends the
//! calls it does not lift to summaries at depth `d + 1`, up to [`MAX_SUMMARY_DEPTH`], whose
//! analyses use none. A cycle of calls through the library (a `StringBuilder` that an exception's
//! message needs while the builder grows) thus ends at the deepest level without a summary.
//!
//! Invariants: a summary depends only on the method, its depth and the program (never on which
//! class asked first), so results are the same whatever the order of the parallel analysis; one
//! whose analysis needed no summary is the same at every depth and is shared by all; computing a
//! summary waits only for summaries deeper than itself, so no two computations wait for each other;
//! it runs no parallel work of its own, so a thread that waits for a summary another thread
//! computes never runs that computation itself.

use super::callees::{lift_callees, method_index, statement_count, ClassLookup, ExactCache, LiftCache, Resolver};
use super::results::entry_widths;
use crate::lift::lift_method;
use jresa_analyses::bounds::cost::{self, Bound};
use jresa_analyses::bounds::summary::rule_cost;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::lambdas::{self, LambdaClass};
use jresa_analyses::ir::parse_method_descriptor;
use jresa_analyses::ir::MethodIr;
use jresa_analyses::ir::{ghosts, reloads};
use jresa_analyses::value::compile::compile;
use jresa_analyses::value::fixpoint;
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::Polyhedron;
use jresa_analyses::value::program::{Summary, Width};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// What the analysis of one summary may take: statements of the method, library methods lifted
/// with it, and rule evaluations of its value analysis. Summaries are cheap where they succeed
/// (most take milliseconds); these limits stop the analyses that would run long only to fail.
#[derive(Clone, Copy)]
pub struct SummaryLimits {
    pub statements: usize,
    pub library_budget: usize,
    pub evaluations: usize,
}

/// The limits of a summary a class's call asks for (depth 1).
pub const SUMMARY_LIMITS: SummaryLimits = SummaryLimits {
    statements: 150,
    library_budget: 40,
    evaluations: 1_500,
};

/// The limits of the deeper summaries, which a summary's analysis asks for: the small helpers
/// (getters, `Math.max`, checks of an index) that a summarised method's callees past its library
/// budget mostly are.
pub const DEEP_SUMMARY_LIMITS: SummaryLimits = SummaryLimits {
    statements: 40,
    library_budget: 8,
    evaluations: 400,
};

/// The deepest level of summaries (see the module's documentation).
pub const MAX_SUMMARY_DEPTH: usize = 4;

/// Whether summaries at `depth` have the limits of a class's calls (else the deeper ones).
fn first_level(depth: usize) -> bool {
    depth <= 1
}

/// The limits of a summary at `depth`.
fn limits(depth: usize) -> SummaryLimits {
    match first_level(depth) {
        true => SUMMARY_LIMITS,
        false => DEEP_SUMMARY_LIMITS,
    }
}

/// The most targets without an analysis of their own that a call may dispatch to and still go
/// to their summaries: every one needs a summary, so a call with hundreds of targets
/// (`Collection.forEach` in the JDK) would cost hundreds of summaries for a call that one missing
/// summary leaves opaque.
pub const MAX_SUMMARISED_TARGETS: usize = 32;

/// A summary, or why the method has none.
type Found = Result<Arc<Summary>, String>;

/// A summary or why the method has none, and whether its analysis read code of the program's
/// inputs (its own, a lifted callee's, or a deeper summary's), which a store of library summaries
/// must not keep.
#[derive(Clone)]
struct Computed {
    found: Found,
    reads_inputs: bool,
}

/// A summary, once computed, or why the method has none.
type Cell = OnceLock<Computed>;

/// A summary (or why there is none) of a method at a depth, as a store keeps it between runs.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Stored {
    pub(super) class: String,
    pub(super) name: String,
    pub(super) descriptor: String,
    pub(super) depth: usize,
    pub(super) summary: Result<Summary, String>,
}

/// The access flag of a static method.
const ACC_STATIC: u16 = 0x0008;

/// A method by class, name and descriptor.
pub(super) type Key = (String, String, String);

/// The summaries of one analysis, computed on demand and shared by every class.
pub(super) struct Summaries<'a, 'l> {
    pub(super) hierarchy: &'a Hierarchy,
    pub(super) lookup: &'a ClassLookup<'l>,
    pub(super) lambdas: &'a HashMap<String, LambdaClass>,
    pub(super) model: CostModel,
    /// By method and depth.
    cells: Mutex<HashMap<(Key, usize), Arc<Cell>>>,
    /// The summaries whose analyses needed no other summary, the same at every depth of the
    /// same limits, by method and [`first_level`].
    shared: Mutex<HashMap<(Key, bool), Computed>>,
    /// The classes of the program's inputs (the code that a store of summaries may not depend on).
    inputs: HashSet<String>,
    /// Summaries computed by this run (not read from a store).
    computed: AtomicUsize,
    /// The code of calls on objects that never escape, for the classes' methods (`ir::scalars`).
    pub(super) exact: ExactCache,
}

impl<'a, 'l> Summaries<'a, 'l> {
    pub(super) fn new(
        hierarchy: &'a Hierarchy,
        lookup: &'a ClassLookup<'l>,
        lambdas: &'a HashMap<String, LambdaClass>,
        model: CostModel,
        inputs: HashSet<String>,
    ) -> Self {
        Summaries {
            hierarchy,
            lookup,
            lambdas,
            model,
            cells: Mutex::new(HashMap::new()),
            shared: Mutex::new(HashMap::new()),
            inputs,
            computed: AtomicUsize::new(0),
            exact: ExactCache::default(),
        }
    }

    /// Whether the code of class `name` comes from the program's inputs (a lambda class is spun
    /// from its caller's).
    fn is_input(&self, name: &str) -> bool {
        self.inputs.contains(name) || self.lambdas.contains_key(name)
    }

    /// Takes summaries a store kept (computed from library code alone, for the same program and
    /// library): each is used as if this run had computed it.
    pub(super) fn restore(&self, stored: Vec<Stored>) {
        let Ok(mut cells) = self.cells.lock() else {
            return;
        };
        for entry in stored {
            let computed = Computed {
                found: entry.summary.map(Arc::new),
                reads_inputs: false,
            };
            let key = (entry.class, entry.name, entry.descriptor);
            cells
                .entry((key, entry.depth))
                .or_insert_with(|| Arc::new(OnceLock::from(computed)));
        }
    }

    /// The summaries a store may keep (computed from library code alone), and whether this run
    /// computed any.
    pub(super) fn to_store(&self) -> (Vec<Stored>, bool) {
        let Ok(cells) = self.cells.lock() else {
            return (Vec::new(), false);
        };
        let mut stored: Vec<Stored> = cells
            .iter()
            .filter_map(|((key, depth), cell)| {
                let computed = cell.get().filter(|c| !c.reads_inputs)?;
                Some(Stored {
                    class: key.0.clone(),
                    name: key.1.clone(),
                    descriptor: key.2.clone(),
                    depth: *depth,
                    summary: computed.found.as_deref().cloned().map_err(Clone::clone),
                })
            })
            .collect();
        stored.sort_by(|a, b| {
            (&a.class, &a.name, &a.descriptor, a.depth).cmp(&(&b.class, &b.name, &b.descriptor, b.depth))
        });
        (stored, self.computed.load(Ordering::Relaxed) > 0)
    }

    /// Whether method `key`'s summary at `depth` is known to be missing (computed, without one):
    /// a call that may dispatch to it has no summary, whatever its other targets have.
    /// `reads_inputs` is set when that answer depends on code of the program's inputs.
    pub(super) fn known_missing(&self, key: &Key, depth: usize, reads_inputs: &AtomicBool) -> bool {
        let computed = self.shared(key, depth).or_else(|| {
            let cells = self.cells.lock().ok()?;
            cells.get(&(key.clone(), depth))?.get().cloned()
        });
        let Some(computed) = computed else {
            return false;
        };
        if computed.reads_inputs {
            reads_inputs.store(true, Ordering::Relaxed);
        }
        computed.found.is_err()
    }

    /// The summary of method `key` shared by every depth with the limits of `depth`, if found.
    fn shared(&self, key: &Key, depth: usize) -> Option<Computed> {
        let shared = self.shared.lock().ok()?;
        shared.get(&(key.clone(), first_level(depth))).cloned()
    }

    /// The summary of method `key` at `depth`, computed at its first request, or why it has none;
    /// `reads_inputs` is set when it depends on code of the program's inputs.
    pub(super) fn of(&self, key: &Key, depth: usize, reads_inputs: &AtomicBool) -> Found {
        let computed = self.computed_of(key, depth)?;
        if computed.reads_inputs {
            reads_inputs.store(true, Ordering::Relaxed);
        }
        computed.found
    }

    /// [`Summaries::of`], with whether it read the inputs' code.
    fn computed_of(&self, key: &Key, depth: usize) -> Result<Computed, String> {
        if let Some(computed) = self.shared(key, depth) {
            return Ok(computed);
        }
        let cell = {
            let mut cells = self
                .cells
                .lock()
                .map_err(|_| "the summaries are unavailable".to_owned())?;
            Arc::clone(cells.entry((key.clone(), depth)).or_default())
        };
        let computed = cell.get_or_init(|| {
            let started = std::time::Instant::now();
            self.computed.fetch_add(1, Ordering::Relaxed);
            let (summary, asked, reads_inputs) = self.compute(key, depth);
            let summary = Computed {
                found: summary.map(Arc::new),
                reads_inputs,
            };
            if !asked {
                if let Ok(mut shared) = self.shared.lock() {
                    shared.insert((key.clone(), first_level(depth)), summary.clone());
                }
            }
            super::debug_timing(|| {
                format!(
                    "summary of {}.{}{} at depth {depth}: {} in {:.3} s",
                    key.0,
                    key.1,
                    key.2,
                    match &summary.found {
                        Ok(_) => "found".to_owned(),
                        Err(why) => format!("none ({why})"),
                    },
                    started.elapsed().as_secs_f64()
                )
            });
            summary
        });
        Ok(computed.clone())
    }

    /// The code of method `key`: read from its class, or spun for a lambda class; `None` for a
    /// static method, with the number of its inputs.
    fn code(&self, (class_name, name, descriptor): &Key) -> Result<(MethodIr, usize), String> {
        let (params, _) = parse_method_descriptor(descriptor).ok_or("its descriptor is malformed")?;
        if let Some(lambda) = self.lambdas.get(class_name) {
            let ir = lambda
                .methods
                .get(&(name.clone(), descriptor.clone()))
                .ok_or("its lambda class does not declare it")?;
            return Ok((ir.clone(), params.len() + usize::from(!ir.is_static)));
        }
        let class = (self.lookup)(class_name).ok_or("its class is not among the inputs or on the classpath")?;
        let decl = class
            .methods
            .iter()
            .find(|m| &m.name == name && &m.descriptor == descriptor)
            .ok_or("its class does not declare it")?;
        let mut ir = lift_method(&class, decl).map_err(|e| format!("it cannot be lifted: {e}"))?;
        if !self.lambdas.is_empty() {
            lambdas::rewrite_sites(&mut ir, &class.name, self.lambdas);
        }
        Ok((ir, params.len() + usize::from(decl.access & ACC_STATIC == 0)))
    }

    /// Analyses `key` alone at `depth`, with the callees it needs lifted as for a class; the
    /// error says why it has no summary. Also whether a call needed a summary, and whether the
    /// analysis read code of the program's inputs.
    fn compute(&self, key: &Key, depth: usize) -> (Result<Summary, String>, bool, bool) {
        let own_input = self.is_input(&key.0);
        let (mut ir, inputs) = match self.code(key) {
            Ok(code) => code,
            Err(why) => return (Err(why), false, own_input),
        };
        let limits = limits(depth);
        let statements = statement_count(&ir);
        if statements > limits.statements {
            // Not the depth itself: a summary without calls to summaries is shared by every
            // depth with the same limits, and its reason with it.
            let which = match first_level(depth) {
                true => "a summarised method",
                false => "a summarised method's callee",
            };
            let why = format!(
                "it has {statements} statements, more than {which} may have ({})",
                limits.statements
            );
            return (Err(why), false, own_input);
        }
        let held = reloads::reuse_repeated_reads(&mut ir);
        ghosts::ghost_invariant_reads_holding(&mut ir, &held);
        let widths = entry_widths(&ir);
        let mut methods = vec![ir];
        let extended = lift_callees(
            &mut methods,
            self.hierarchy,
            self.lookup,
            self.lambdas,
            &LiftCache::default(),
            limits.library_budget,
            None,
        );
        let hierarchy = extended.as_ref().unwrap_or(self.hierarchy);
        let index = method_index(&methods);
        let deeper = (depth < MAX_SUMMARY_DEPTH).then_some((self, depth + 1));
        let resolver = Resolver::new(hierarchy, &index, deeper);
        let summary = self.summarise(key, &methods, &resolver, &widths, inputs, limits.evaluations);
        let reads_inputs = own_input || resolver.reads_inputs() || methods.iter().any(|m| self.is_input(&m.class));
        (summary, resolver.asked(), reads_inputs)
    }

    /// The summary of `methods[0]` (method `key` with `inputs` inputs, of the given entry widths),
    /// analysed with its lifted callees `methods[1..]`.
    fn summarise(
        &self,
        key: &Key,
        methods: &[MethodIr],
        resolver: &Resolver<'_>,
        widths: &[Option<Width>],
        inputs: usize,
        evaluations: usize,
    ) -> Result<Summary, String> {
        let program = compile(methods, resolver, self.model);
        let entry = program.of_ir[0][methods[0].entry.index()];
        let condition: Polyhedron = overflow::entry_condition(widths, 0);
        // An opaque call a state reaches leaves the method without a bound: the analysis stops
        // there rather than completing a fixpoint that cannot give a summary.
        let fixpoint = fixpoint::solve_until_opaque(&program, &[(entry, condition)], evaluations, &|| false);
        if let Some(reason) = fixpoint.reached_opaque {
            return Err(reason);
        }
        if fixpoint.exhausted {
            return Err(format!(
                "its value analysis exceeded the {evaluations} rule evaluations of a summary"
            ));
        }
        // A method that never returns normally (a helper that always throws) still has a cost.
        let post = fixpoint.post[entry].as_ref().map(|post| post.constraints().to_vec());
        let costs = cost::solve(&program, &fixpoint, self.model);
        let bound = match &costs.bounds[entry] {
            Bound::Bounded(bound) => bound,
            Bound::Unknown(why) => return Err(why.clone()),
        };
        if !costs.terminates[entry] {
            return Err("its termination is not proven".into());
        }
        // A call's dispatch passes the receiver and the arguments, and takes the result.
        let (_, ret) = parse_method_descriptor(&key.2).ok_or("its descriptor is malformed")?;
        let proc = &program.procs[entry];
        if proc.inputs != inputs || proc.outputs != usize::from(ret.is_some()) {
            return Err("its entry does not match its descriptor".into());
        }
        let cost =
            rule_cost(bound, inputs).ok_or_else(|| format!("its bound, {bound}, has no form a caller can charge"))?;
        Ok(Summary {
            post,
            cost,
            effects: program.heap_effects[0].clone(),
        })
    }
}
