//! Checking annotated methods: resolving their annotations, running the proof search (inference
//! rounds, then verification), and solving the linear program of each method together with the
//! annotated methods it calls.
//!
//! A method's linear program holds its own obligations and those of every annotated method it
//! relies on (transitively), over all their resource variables: the callees' specifications are
//! used at the calls with the same values that verify the callees. **A method is reported
//! verified or inferred only when its proof and those of all the callees it relies on succeed and
//! the exact check of the LP solution passes.**

use super::assertion::{Span, SpecError};
use super::context::{MarkerError, MethodCtx};
use super::engine::{empty_assertion, Engine, Failure, Phase};
use super::limits::MAX_INFERENCE_ROUNDS;
use super::program::{MethodKey, ProgramView, SpecLookup};
use super::resolve::{resolve, Param, RAssertions, RConj, RHeap, RTerm};
use super::resource::{rational_text, Obligation, Origin, ResExpr, ResVar, ResourceVariables};
use super::solve::{solve, LpOutcome};
use super::spec::{Annotated, MethodSpec, Role};
use crate::ir::MethodIr;
use num_rational::BigRational;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// The verdict on a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The specification holds (its annotations name no resource variables; those of inferred
    /// invariants may still be reported).
    Verified,
    /// The specification holds with its resource variables at the reported (optimal) values.
    Inferred,
    /// The specification could not be verified.
    Failed,
    /// The annotations are malformed.
    Error,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Inferred => "inferred",
            Status::Failed => "failed",
            Status::Error => "error",
        }
    }
}

/// A problem with a method's annotations or markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecProblem {
    /// The annotation it is in, when it is in one.
    pub role: Option<Role>,
    pub message: String,
    pub span: Option<Span>,
    /// The bytecode offset it concerns (markers).
    pub offset: Option<u32>,
}

/// A loop's invariant as the proof used it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantReport {
    pub line: Option<u32>,
    pub offset: u32,
    /// The `@Invariant` identifier, for written invariants.
    pub id: Option<i32>,
    /// The whole invariant was inferred (the loop has no `@Invariant`).
    pub inferred: bool,
    /// The inferred invariant, or the data facts added to a written one.
    pub text: String,
}

/// What a structure of the precondition is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// `lseg(from, to)`: its number of cells.
    List { from: String, to: String },
    /// `tree(root)`: its number of nodes.
    Tree { root: String },
}

/// The bound the precondition gives: `Σ per-cell potential × size + constant` (first disjunct).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PotentialBound {
    pub terms: Vec<(BigRational, Structure)>,
    pub constant: BigRational,
}

impl std::fmt::Display for PotentialBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for (coefficient, structure) in &self.terms {
            if num_traits::Zero::is_zero(coefficient) {
                continue;
            }
            let size = match structure {
                Structure::List { from, to } => format!("|lseg({from}, {to})|"),
                Structure::Tree { root } => format!("|tree({root})|"),
            };
            if num_traits::One::is_one(coefficient) {
                parts.push(size);
            } else {
                parts.push(format!("{}*{size}", rational_text(coefficient)));
            }
        }
        if !num_traits::Zero::is_zero(&self.constant) || parts.is_empty() {
            parts.push(rational_text(&self.constant));
        }
        f.write_str(&parts.join(" + "))
    }
}

/// The result for one annotated method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodOutcome {
    pub key: MethodKey,
    pub status: Status,
    /// The method's resource variables (written and those of inferred invariants) and values.
    pub resource_variables: Vec<(String, BigRational)>,
    /// Whether the values minimise the LP's objective (checked exactly).
    pub optimal: bool,
    pub reason: Option<String>,
    pub line: Option<u32>,
    pub offset: Option<u32>,
    pub invariants: Vec<InvariantReport>,
    pub problems: Vec<SpecProblem>,
    /// The resource bound the verified precondition gives, one per disjunct (case) of it.
    pub bound: Vec<PotentialBound>,
    /// The potential the postcondition leaves (for later use), at the same values, per disjunct.
    pub leftover: Vec<PotentialBound>,
}

/// What the proof search produced for one method.
#[derive(Clone, Debug, Default)]
struct Generated {
    obligations: Vec<Obligation>,
    failure: Option<Failure>,
    problems: Vec<SpecProblem>,
    callees: BTreeSet<MethodKey>,
    invariants: Vec<InvariantReport>,
    pre: Option<RAssertions>,
    post: Option<RAssertions>,
    /// The resource variables the method's annotations name (not those of inferred invariants).
    written_variables: Vec<ResVar>,
}

/// Checks methods of one program, sharing the proofs of callees.
pub struct Session<'v> {
    view: &'v dyn ProgramView,
    variables: ResourceVariables,
    generated: HashMap<MethodKey, Generated>,
}

impl<'v> Session<'v> {
    pub fn new(view: &'v dyn ProgramView) -> Session<'v> {
        Session {
            view,
            variables: ResourceVariables::default(),
            generated: HashMap::new(),
        }
    }

    /// Checks one annotated method.
    pub fn check(&mut self, key: &MethodKey) -> MethodOutcome {
        self.generate(key);
        let mut outcome = MethodOutcome {
            key: key.clone(),
            status: Status::Failed,
            resource_variables: Vec::new(),
            optimal: false,
            reason: None,
            line: None,
            offset: None,
            invariants: Vec::new(),
            problems: Vec::new(),
            bound: Vec::new(),
            leftover: Vec::new(),
        };
        let own = &self.generated[key];
        outcome.invariants = own.invariants.clone();
        if !own.problems.is_empty() {
            outcome.status = Status::Error;
            outcome.problems = own.problems.clone();
            outcome.reason = own.problems.first().map(|p| p.message.clone());
            outcome.offset = own.problems.first().and_then(|p| p.offset);
            return outcome;
        }
        if let Some(failure) = &own.failure {
            outcome.reason = Some(failure.message.clone());
            outcome.line = failure.line;
            outcome.offset = failure.pc;
            return outcome;
        }
        // The group: this method and every annotated callee it relies on, transitively.
        let mut group: Vec<MethodKey> = vec![key.clone()];
        let mut k = 0;
        while k < group.len() {
            let member = group[k].clone();
            self.generate(&member);
            for callee in self.generated[&member].callees.clone() {
                if !group.contains(&callee) {
                    group.push(callee);
                }
            }
            k += 1;
        }
        for member in &group[1..] {
            let generated = &self.generated[member];
            let why = generated
                .problems
                .first()
                .map(|p| p.message.clone())
                .or_else(|| generated.failure.as_ref().map(|f| f.message.clone()));
            if let Some(why) = why {
                outcome.reason = Some(format!(
                    "it relies on {member}, whose specification does not hold: {why}"
                ));
                return outcome;
            }
        }
        // Callees first: their obligations are what the method relies on, so an infeasible system
        // blames the method's own obligation where one of them is the culprit.
        let mut obligations: Vec<Obligation> = Vec::new();
        for member in group.iter().rev() {
            obligations.extend(self.generated[member].obligations.iter().cloned());
        }
        let owner = key.to_string();
        let mut variables: BTreeSet<ResVar> = BTreeSet::new();
        for obligation in &obligations {
            variables.extend(obligation.expression.terms().map(|(v, _)| v));
        }
        let own_variables = self.variables.owned_by(&owner);
        variables.extend(own_variables.iter().copied());
        let all: Vec<ResVar> = variables.into_iter().collect();
        let mut priority: Vec<ResVar> = Vec::new();
        if let Some(pre) = &self.generated[key].pre {
            for conj in &pre.disjuncts {
                for heap in &conj.heap {
                    if let RHeap::Lseg { potential, .. } | RHeap::Tree { potential, .. } = heap {
                        priority.extend(potential.terms().map(|(v, _)| v));
                    }
                }
            }
        }
        match solve(&obligations, &all, &priority) {
            LpOutcome::Feasible { values, optimal } => {
                outcome.status = if self.generated[key].written_variables.is_empty() {
                    Status::Verified
                } else {
                    Status::Inferred
                };
                outcome.optimal = optimal;
                outcome.resource_variables = own_variables
                    .iter()
                    .map(|v| (self.variables.name(*v), values.get(v).cloned().unwrap_or_default()))
                    .collect();
                let generated = &self.generated[key];
                outcome.bound = generated
                    .pre
                    .as_ref()
                    .map(|pre| bound_of(pre, &values, key, self.view))
                    .unwrap_or_default();
                outcome.leftover = generated
                    .post
                    .as_ref()
                    .map(|post| bound_of(post, &values, key, self.view))
                    .unwrap_or_default();
            }
            LpOutcome::Infeasible { blamed } => {
                let Some(blamed) = obligations.get(blamed) else {
                    outcome.reason = Some("LP is infeasible".to_owned());
                    return outcome;
                };
                let origin = &blamed.origin;
                let shortfall = if all.is_empty() {
                    let value = -blamed.expression.constant_term().clone();
                    format!(" (short by {})", rational_text(&value))
                } else {
                    String::new()
                };
                let place = if origin.method == owner {
                    String::new()
                } else {
                    match (origin.line, origin.pc) {
                        (Some(line), Some(pc)) => format!(" in {} at line {line} (offset {pc})", origin.method),
                        (None, Some(pc)) => format!(" in {} at offset {pc}", origin.method),
                        _ => format!(" in {}", origin.method),
                    }
                };
                outcome.reason = Some(format!(
                    "LP is infeasible: cannot provide {}{place}{shortfall}",
                    origin.what
                ));
                if origin.method == owner {
                    outcome.line = origin.line;
                    outcome.offset = origin.pc;
                }
            }
            LpOutcome::Undecided(reason) => outcome.reason = Some(reason),
        }
        outcome
    }

    /// Runs the proof search for `key` once.
    fn generate(&mut self, key: &MethodKey) {
        if self.generated.contains_key(key) {
            return;
        }
        // A placeholder first, so that recursion through callees ends.
        self.generated.insert(key.clone(), Generated::default());
        let generated = self.prove_method(key);
        self.generated.insert(key.clone(), generated);
    }

    /// Runs the proof search for one method: resolves its annotations, then infers its loops'
    /// invariants and verifies it.
    fn prove_method(&mut self, key: &MethodKey) -> Generated {
        let mut generated = Generated::default();
        let (spec, ir) = match self.annotations_and_code(key) {
            Ok(found) => found,
            Err(message) => {
                generated.problems.push(SpecProblem {
                    role: None,
                    message,
                    span: None,
                    offset: None,
                });
                return generated;
            }
        };
        let (ctx, marker_errors) = MethodCtx::in_program(key.clone(), ir, self.view);
        generated.problems = marker_problems(&spec, &ctx, marker_errors);
        let Some(ResolvedSpec {
            pre,
            post,
            invariants,
            amounts,
        }) = self.resolve_annotations(&spec, &ctx, &mut generated.problems)
        else {
            return generated;
        };
        if !generated.problems.is_empty() {
            return generated;
        }
        generated.written_variables = self.variables.owned_by(&key.to_string());
        generated.pre = Some(pre.clone());
        generated.post = Some(post.clone());
        let method_name = key.to_string();
        let mut engine = Engine::new(self.view, &mut self.variables, ctx);
        engine.add_loops(0, &invariants);
        generated.failure = infer_then_verify(&mut engine, &pre, &post, &method_name);
        generated.obligations = std::mem::take(&mut engine.obligations);
        generated.callees = std::mem::take(&mut engine.callees);
        generated.invariants = invariant_reports(&engine);
        generated.obligations.extend(amount_obligations(amounts, &method_name));
        generated
    }

    /// A method's annotations and code, or why it cannot be checked.
    fn annotations_and_code(&self, key: &MethodKey) -> Result<(Arc<MethodSpec>, Arc<MethodIr>), String> {
        let spec = match self.view.spec(key) {
            SpecLookup::Some(spec) => spec,
            SpecLookup::None => return Err(format!("{key} has no jresa annotation")),
            SpecLookup::Malformed => return Err(format!("the annotations of {key} are malformed")),
        };
        let ir = self
            .view
            .code(key)
            .map_err(|reason| format!("{key} cannot be analysed: {reason}"))?;
        Ok((spec, ir))
    }

    /// Resolves a method's precondition, postcondition and loop invariants (those whose loop a
    /// marker names), adding the problems found to `problems`. `None` when the precondition or the
    /// postcondition does not resolve.
    fn resolve_annotations(
        &mut self,
        spec: &MethodSpec,
        ctx: &MethodCtx,
        problems: &mut Vec<SpecProblem>,
    ) -> Option<ResolvedSpec> {
        let mut amounts = Vec::new();
        let pre = match &spec.requires {
            Some(a) => self.resolve_annotated(a, ctx, None, problems, &mut amounts),
            None => Some(empty_assertion()),
        };
        let post = match &spec.ensures {
            Some(a) => self.resolve_annotated(a, ctx, None, problems, &mut amounts),
            None => Some(empty_assertion()),
        };
        let mut invariants: HashMap<i32, RAssertions> = HashMap::new();
        for annotated in &spec.invariants {
            let Role::Invariant(id) = annotated.role else { continue };
            let Some(proc) = ctx.markers.iter().find(|(_, i)| **i == id).map(|(p, _)| *p) else {
                continue;
            };
            let inputs = ctx.loop_inputs(proc);
            if let Some(resolved) = self.resolve_annotated(annotated, ctx, Some(&inputs), problems, &mut amounts) {
                invariants.insert(id, resolved);
            }
        }
        Some(ResolvedSpec {
            pre: pre?,
            post: post?,
            invariants,
            amounts,
        })
    }

    /// Resolves one annotation (in the scope of its role, and of its loop for an invariant),
    /// adding the resource amounts written in it to `amounts` or its errors to `problems`.
    fn resolve_annotated(
        &mut self,
        annotated: &Annotated,
        ctx: &MethodCtx,
        loop_inputs: Option<&[(String, crate::ir::Ty)]>,
        problems: &mut Vec<SpecProblem>,
        amounts: &mut Vec<(ResExpr, String, Role)>,
    ) -> Option<RAssertions> {
        match resolve(
            &annotated.assertions,
            &ctx.scope(annotated.role, loop_inputs),
            self.view,
            &mut self.variables,
        ) {
            Ok((resolved, exprs)) => {
                amounts.extend(exprs.into_iter().map(|(e, t)| (e, t, annotated.role)));
                Some(resolved)
            }
            Err(errors) => {
                problems.extend(errors.into_iter().map(|SpecError { message, span }| SpecProblem {
                    role: Some(annotated.role),
                    message,
                    span: Some(span),
                    offset: None,
                }));
                None
            }
        }
    }
}

/// A method's annotations, resolved.
struct ResolvedSpec {
    pre: RAssertions,
    post: RAssertions,
    /// The loop invariants, by `@Invariant` identifier.
    invariants: HashMap<i32, RAssertions>,
    /// The resource amounts written in the annotations, with their text and annotation: they must
    /// not be negative.
    amounts: Vec<(ResExpr, String, Role)>,
}

/// The problems with a method's loop markers: those `MethodCtx` found, then markers without an
/// `@Invariant` and invariants without a marker.
fn marker_problems(spec: &MethodSpec, ctx: &MethodCtx, marker_errors: Vec<MarkerError>) -> Vec<SpecProblem> {
    let mut problems = Vec::new();
    for error in marker_errors {
        problems.push(SpecProblem {
            role: error
                .id
                .map(Role::Invariant)
                .filter(|r| matches!(r, Role::Invariant(id) if spec.invariant(*id).is_some())),
            message: error.message,
            span: None,
            offset: Some(error.pc),
        });
    }
    // Markers and invariants must match.
    for (id, pc) in &ctx.marker_sites {
        if spec.invariant(*id).is_none() {
            problems.push(SpecProblem {
                role: None,
                message: format!("Loop.invariant({id}) marks a loop, but the method has no @Invariant(id = {id})"),
                span: None,
                offset: Some(*pc),
            });
        }
    }
    for annotated in &spec.invariants {
        if let Role::Invariant(id) = annotated.role {
            if !ctx.marker_sites.iter().any(|(i, _)| *i == id) {
                problems.push(SpecProblem {
                    role: Some(annotated.role),
                    message: format!("no Loop.invariant({id}) marks the loop this invariant is for"),
                    span: Some(Span::new(0, annotated.text.len())),
                    offset: None,
                });
            }
        }
    }
    problems
}

/// The proof proper: rounds of inference until the loops' candidate invariants settle, then the
/// invariants are fixed and the method is verified with them. Returns the first failure.
fn infer_then_verify(engine: &mut Engine<'_>, pre: &RAssertions, post: &RAssertions, method: &str) -> Option<Failure> {
    let mut settled = false;
    for _ in 0..MAX_INFERENCE_ROUNDS {
        engine.reset_run();
        engine.phase = Phase::Infer;
        engine.run_method(pre, post);
        if engine.failure.is_some() {
            break;
        }
        if !engine.changed {
            settled = true;
            break;
        }
    }
    if let Some(failure) = engine.failure.take() {
        return Some(failure);
    }
    if !settled {
        return Some(Failure {
            method: method.to_owned(),
            pc: None,
            line: None,
            message: format!("the loop invariants did not settle in {MAX_INFERENCE_ROUNDS} rounds of inference"),
        });
    }
    if let Err(failure) = engine.fix_invariants() {
        return Some(failure);
    }
    engine.reset_run();
    engine.phase = Phase::Verify;
    engine.run_method(pre, post);
    engine.failure.take()
}

/// The invariants the proof used for the loops of the method itself that it reached, by offset:
/// inferred ones, and the data facts inference added to written ones.
fn invariant_reports(engine: &Engine<'_>) -> Vec<InvariantReport> {
    let mut reports = Vec::new();
    for data in &engine.loops {
        if data.method != 0 || !data.reached {
            continue;
        }
        let line = engine.methods[0].line_of(data.pc);
        let (inferred, text) = match (&data.user, &data.inferred_text) {
            (None, Some(text)) => (true, text.clone()),
            (Some(_), _) => {
                let facts: Vec<String> = data.facts.iter().flatten().map(|f| f.text.clone()).collect();
                if facts.is_empty() {
                    continue;
                }
                (false, facts.join(", "))
            }
            (None, None) => continue,
        };
        reports.push(InvariantReport {
            line,
            offset: data.pc,
            id: data.user.as_ref().map(|(id, _)| *id),
            inferred,
            text,
        });
    }
    reports.sort_by_key(|i| i.offset);
    reports
}

/// The obligations that the resource amounts written in a method's annotations are not negative
/// (none for a constant that is not).
fn amount_obligations(amounts: Vec<(ResExpr, String, Role)>, method: &str) -> Vec<Obligation> {
    let mut obligations = Vec::new();
    for (expression, text, role) in amounts {
        if expression.is_constant() && !num_traits::Signed::is_negative(expression.constant_term()) {
            continue;
        }
        obligations.push(Obligation {
            expression,
            origin: Origin {
                method: method.to_owned(),
                pc: None,
                line: None,
                what: format!("a non-negative value for `{text}` in {role}"),
            },
        });
    }
    obligations
}

/// The bound of each disjunct of an assertion at the solved values, with parameters and
/// existentials by name; an existential a field assertion reads is named by its path from a
/// parameter (`(@arg this).back`), as the structures of a container object are.
fn bound_of(
    assertion: &RAssertions,
    values: &BTreeMap<ResVar, BigRational>,
    key: &MethodKey,
    view: &dyn ProgramView,
) -> Vec<PotentialBound> {
    let params = view
        .code(key)
        .ok()
        .map(|ir| MethodCtx::new(key.clone(), ir).0.params)
        .unwrap_or_default();
    assertion
        .disjuncts
        .iter()
        .map(|conj| {
            let name = |term: RTerm| term_name(term, conj, assertion, &params, 0);
            let mut terms = Vec::new();
            for heap in &conj.heap {
                match heap {
                    RHeap::Lseg {
                        potential, from, to, ..
                    } => terms.push((
                        potential.evaluate(values),
                        Structure::List {
                            from: name(*from),
                            to: name(*to),
                        },
                    )),
                    RHeap::Tree { potential, root, .. } => {
                        terms.push((potential.evaluate(values), Structure::Tree { root: name(*root) }))
                    }
                    RHeap::Field { .. } => {}
                }
            }
            PotentialBound {
                terms,
                constant: conj.pool.evaluate(values),
            }
        })
        .collect()
}

/// A term of a bound by name: a parameter, `null`, `@ret`, or an existential by the path of
/// field assertions that reaches it from another term (`(@arg q).front`), else by its own name.
fn term_name(term: RTerm, conj: &RConj, assertion: &RAssertions, params: &[Param], depth: usize) -> String {
    match term {
        RTerm::Arg(k) => params
            .get(k)
            .map_or_else(|| format!("@arg #{k}"), |p| format!("@arg {}", p.name)),
        RTerm::Null => "null".to_owned(),
        RTerm::Ret => "@ret".to_owned(),
        RTerm::Var(k) => format!("@var #{k}"),
        RTerm::Exists(k) => {
            let holder = conj.heap.iter().find_map(|heap| match heap {
                RHeap::Field {
                    object,
                    field,
                    value: Some(value),
                    ..
                } if *value == term && *object != term => Some((*object, field)),
                _ => None,
            });
            match holder {
                // Paths are as long as chains of field assertions; the depth bound only stops
                // cycles of them (`[(x).f -> y] * [(y).f -> x]`).
                Some((object, field)) if depth < conj.heap.len() => {
                    format!(
                        "({}).{}",
                        term_name(object, conj, assertion, params, depth + 1),
                        field.name
                    )
                }
                _ => assertion
                    .exists_names
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| format!("e{k}")),
            }
        }
    }
}
