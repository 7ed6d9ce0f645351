//! Summaries of the methods a class's analysis calls but could not lift (past the library budget,
//! or larger than a lifted method may be): each such method is analysed once, on its own, for
//! every input within its parameters' types, and every class that calls it uses the result.
//!
//! A summary is the method's input–output relation (the post-condition of its entry) and its bound
//! as the cost of one abstract rule (`bounds::summary`). Only methods that terminate with a bound
//! the rule can express get one; a call of any other stays opaque, with its reason.
//!
//! Invariants: a summary depends only on the method and the program (never on which class asked
//! first), so results are the same whatever the order of the parallel analysis; the analysis of a
//! summary uses no other summaries (so computing one never waits for another, and no cycle of
//! summaries can form); it runs no parallel work of its own, so a thread that waits for a summary
//! another thread computes never runs that computation itself.

use super::callees::{lift_callees, method_index, statement_count, ClassLookup, ExactCache, LiftCache, Resolver};
use super::results::entry_widths;
use crate::lift::lift_method;
use jresa_analyses::bounds::cost::{self, Bound};
use jresa_analyses::bounds::summary::rule_cost;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::lambdas::{self, LambdaClass};
use jresa_analyses::ir::parse_method_descriptor;
use jresa_analyses::ir::{ghosts, reloads};
use jresa_analyses::value::compile::compile;
use jresa_analyses::value::fixpoint;
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::Polyhedron;
use jresa_analyses::value::program::Summary;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The rule evaluations the value analysis of one summarised method may take. Summaries are
/// cheap where they succeed (most take milliseconds); these limits stop the analyses that would
/// run long only to fail.
pub const SUMMARY_EVALUATIONS: usize = 1_500;

/// Statements a summarised method may have; larger ones stay opaque.
pub const SUMMARY_STATEMENTS: usize = 150;

/// Library methods lifted for the analysis of a summarised method.
pub const SUMMARY_LIBRARY_BUDGET: usize = 40;

/// The most targets without an analysis of their own that a call may dispatch to and still go
/// to their summaries: every one needs a summary, so a call with hundreds of targets
/// (`Collection.forEach` in the JDK) would cost hundreds of summaries for a call that one missing
/// summary leaves opaque.
pub const MAX_SUMMARISED_TARGETS: usize = 32;

/// A summary, once computed, or why the method has none.
type Cell = OnceLock<Result<Arc<Summary>, String>>;

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
    cells: Mutex<HashMap<Key, Arc<Cell>>>,
    /// The code of calls on objects that never escape, for the classes' methods (`ir::scalars`).
    pub(super) exact: ExactCache,
}

impl<'a, 'l> Summaries<'a, 'l> {
    pub(super) fn new(
        hierarchy: &'a Hierarchy,
        lookup: &'a ClassLookup<'l>,
        lambdas: &'a HashMap<String, LambdaClass>,
        model: CostModel,
    ) -> Self {
        Summaries {
            hierarchy,
            lookup,
            lambdas,
            model,
            cells: Mutex::new(HashMap::new()),
            exact: ExactCache::default(),
        }
    }

    /// Whether method `key`'s summary is known to be missing (computed, without one): a call
    /// that may dispatch to it has no summary, whatever its other targets have.
    pub(super) fn known_missing(&self, key: &Key) -> bool {
        let Ok(cells) = self.cells.lock() else {
            return false;
        };
        cells
            .get(key)
            .and_then(|cell| cell.get())
            .is_some_and(|summary| summary.is_err())
    }

    /// The summary of method `key`, computed at its first request, or why it has none.
    pub(super) fn of(&self, key: &Key) -> Result<Arc<Summary>, String> {
        let cell = {
            let mut cells = self
                .cells
                .lock()
                .map_err(|_| "the summaries are unavailable".to_owned())?;
            Arc::clone(cells.entry(key.clone()).or_default())
        };
        cell.get_or_init(|| {
            let started = std::time::Instant::now();
            let summary = self.compute(key).map(Arc::new);
            super::debug_timing(|| {
                format!(
                    "summary of {}.{}{}: {} in {:.3} s",
                    key.0,
                    key.1,
                    key.2,
                    match &summary {
                        Ok(_) => "found".to_owned(),
                        Err(why) => format!("none ({why})"),
                    },
                    started.elapsed().as_secs_f64()
                )
            });
            summary
        })
        .clone()
    }

    /// Analyses `target` alone, with the callees it needs lifted as for a class; the error says
    /// why it has no summary.
    fn compute(&self, (class_name, name, descriptor): &Key) -> Result<Summary, String> {
        if self.lambdas.contains_key(class_name) {
            return Err("it belongs to a lambda class".into());
        }
        let class = (self.lookup)(class_name).ok_or("its class is not among the inputs or on the classpath")?;
        let decl = class
            .methods
            .iter()
            .find(|m| &m.name == name && &m.descriptor == descriptor)
            .ok_or("its class does not declare it")?;
        let mut ir = lift_method(&class, decl).map_err(|e| format!("it cannot be lifted: {e}"))?;
        let statements = statement_count(&ir);
        if statements > SUMMARY_STATEMENTS {
            return Err(format!(
                "it has {statements} statements, more than a summarised method may have ({SUMMARY_STATEMENTS})"
            ));
        }
        if !self.lambdas.is_empty() {
            lambdas::rewrite_sites(&mut ir, &class.name, self.lambdas);
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
            SUMMARY_LIBRARY_BUDGET,
        );
        let hierarchy = extended.as_ref().unwrap_or(self.hierarchy);
        let index = method_index(&methods);
        let resolver = Resolver {
            hierarchy,
            index: &index,
            summaries: None,
        };
        let program = compile(&methods, &resolver, self.model);
        let entry = program.of_ir[0][methods[0].entry.index()];
        let condition: Polyhedron = overflow::entry_condition(&widths, 0);
        // An opaque call a state reaches leaves the method without a bound: the analysis stops
        // there rather than completing a fixpoint that cannot give a summary.
        let fixpoint = fixpoint::solve_until_opaque(&program, &[(entry, condition)], SUMMARY_EVALUATIONS, &|| false);
        if let Some(reason) = fixpoint.reached_opaque {
            return Err(reason);
        }
        if fixpoint.exhausted {
            return Err(format!(
                "its value analysis exceeded the {SUMMARY_EVALUATIONS} rule evaluations of a summary"
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
        let (params, ret) = parse_method_descriptor(descriptor).ok_or("its descriptor is malformed")?;
        let inputs = params.len() + usize::from(decl.access & ACC_STATIC == 0);
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
