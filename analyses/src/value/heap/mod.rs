//! The heap's effect on reference sizes (Spoto, Mesnard and Payet's path-length with sharing and
//! cyclicity, simplified to what abstract compilation needs, over a norm that counts nodes).
//!
//! A reference's size is the size of its object as a tree: 1 plus the sizes of the values of its
//! reference fields (an array counts its length, `null` 0): a list's number of cells, a tree's
//! number of nodes, a DAG's nodes once per path that reaches them. It is at least the path length
//! (the longest chain of fields), and unlike it, the values of an object's different fields are
//! disjoint parts of it: `|o.left| + |o.right| <= |o| - 1`, which makes a recursive walk of a tree
//! linear in its nodes. It is a value of the heap, not of the variable: a field write `o.f = y`
//! changes the size of every object that reaches `o`, and where `y` reaches `o` it closes a
//! cycle, on which sizes are undefined and `|o.f| < |o|` is false. This module decides, for each IR rule, before it is
//! compiled:
//! - after which statements which variables' sizes must be read anew (`RulePlan::remaps`): those
//!   whose objects a field write or a call may have changed;
//! - which field reads may not be taken as shorter than their object (`RulePlan::cyclic_reads`):
//!   the object may lie on or reach a cycle;
//! - which calls give a possibly cyclic structure to a method that reads reference fields
//!   (`RulePlan::cyclic_calls`): the callee's termination, proven for an acyclic heap, does not
//!   carry over to them (its cost does: the structure's size is unknown there).
//!
//! Where an object comes from (`regions.rs`) narrows both: a write into an object the method made
//! changes no object that existed when it was entered, provided the method never links a new object
//! into an old one; and a call of a method that writes only objects it made itself changes none of
//! the caller's (`HeapEffects::writes_existing`).
//!
//! Facts it uses: a variable's static class (`classes.rs`): objects of a final class whose
//! reference fields are final and stable (`String`), and arrays, never change size; an object can
//! only be changed by writes to the fields of classes it reaches. An object made in the rule that
//! no field points to (`unpointed`) cannot be reached from another object, so a write into it
//! closes no cycle unless it stores itself, and a write elsewhere cannot change it. A variable read
//! from an acyclic object's field cannot reach that object (`below`), so a write into the object
//! changes neither its size nor its cyclicity.
//!
//! **Assumption: the heap a method starts from (its parameters, static fields and array
//! elements) is acyclic; everything the method and its callees do to it is tracked here.** Calls
//! of methods outside the program, and natives of `Unsafe`, may do anything.

mod classes;
mod regions;
mod walk;

pub use classes::{var_classes, Classes};
pub use walk::{Origin, Pairs, RulePlan, Written};

use super::compile::CallResolver;
use super::program::Target;
use crate::cost_model::is_spec_marker;
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};

/// The reference fields a method may write: those of these classes (as field references name
/// them), or any.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Writes {
    Classes(BTreeSet<String>),
    Any,
}

impl Default for Writes {
    fn default() -> Self {
        Writes::Classes(BTreeSet::new())
    }
}

impl Writes {
    fn join(&mut self, other: &Writes) {
        match (&mut *self, other) {
            (Writes::Any, _) => {}
            (_, Writes::Any) => *self = Writes::Any,
            (Writes::Classes(a), Writes::Classes(b)) => a.extend(b.iter().cloned()),
        }
    }

    fn add(&mut self, class: &str) {
        if let Writes::Classes(owners) = self {
            owners.insert(class.to_owned());
        }
    }

    pub fn is_nothing(&self) -> bool {
        matches!(self, Writes::Classes(owners) if owners.is_empty())
    }
}

/// What running a method (or procedure) may do to the heap's path lengths, its callees' effects
/// included.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HeapEffects {
    /// The reference fields it may write.
    pub writes: Writes,
    /// Whether it may write a reference field of an object that existed when it was entered (other
    /// than a constructor's receiver): when not, the objects its caller holds keep their sizes.
    pub writes_existing: bool,
    /// Whether it may close a cycle that an object reachable before the call may reach.
    pub makes_cycles: bool,
    /// Whether it may close a cycle on its receiver only (a constructor that stores `this` in a
    /// field of `this`, as `Throwable`'s `cause = this`).
    pub cyclic_receiver: bool,
    /// Whether it may store a value it was given (or that a field of another object, a static
    /// field or an array element then points to): a caller's object it was given is no longer
    /// one that no field points to.
    pub leaks: bool,
    /// Whether a constructor may store its own receiver somewhere (the receiver's counterpart of
    /// `leaks`, which is about its other arguments).
    pub leaks_receiver: bool,
    /// Whether a result it returns may be cyclic.
    pub cyclic_result: bool,
    /// Whether it reads references from static fields or array elements (objects that a caller
    /// may have made cyclic without passing them).
    pub reads_roots: bool,
    /// Whether it reads a reference field: given a cyclic structure, it may follow the cycle,
    /// and its termination, proven for the acyclic heap every method starts from, does not hold.
    pub walks: bool,
    /// Whether it may close a cycle or return a cyclic value even when the structures it is
    /// given share no object (`append(other)` closes one only when `other` reaches the list):
    /// when not, a call given pairwise disjoint structures closes none.
    pub cycles_without_sharing: bool,
    /// What the structure of the value it returns is made of (`Origin::nothing()`, the start of
    /// the fixpoint, for a method that returns no reference or only `null`).
    pub result: Origin,
}

impl HeapEffects {
    /// What a call of code that is not analysed may do.
    pub fn anything() -> HeapEffects {
        HeapEffects {
            writes: Writes::Any,
            writes_existing: true,
            makes_cycles: true,
            cyclic_receiver: true,
            leaks: true,
            leaks_receiver: true,
            cyclic_result: true,
            reads_roots: true,
            walks: true,
            cycles_without_sharing: true,
            result: Origin::Unknown,
        }
    }

    pub fn join(&mut self, other: &HeapEffects) {
        self.writes.join(&other.writes);
        self.writes_existing |= other.writes_existing;
        self.makes_cycles |= other.makes_cycles;
        self.cyclic_receiver |= other.cyclic_receiver;
        self.cyclic_result |= other.cyclic_result;
        self.leaks |= other.leaks;
        self.leaks_receiver |= other.leaks_receiver;
        self.reads_roots |= other.reads_roots;
        self.walks |= other.walks;
        self.cycles_without_sharing |= other.cycles_without_sharing;
        self.result = self.result.join(&other.result);
    }

    /// What a call given pairwise disjoint acyclic structures may do: no cycle unless the method
    /// closes one without sharing.
    pub fn given_disjoint(&self) -> HeapEffects {
        let mut out = self.clone();
        if !self.cycles_without_sharing {
            out.makes_cycles = false;
            out.cyclic_result = false;
        }
        out
    }

    /// The effects of a native method: `Unsafe`'s accessors may write any field; the other natives
    /// write no reference field of an object (array copies write elements, which path lengths do not
    /// follow).
    pub fn of_native(class: &str) -> HeapEffects {
        if class.ends_with("/Unsafe") {
            HeapEffects::anything()
        } else {
            HeapEffects {
                result: Origin::Unknown,
                ..HeapEffects::default()
            }
        }
    }
}

/// A call's targets as the heap analysis sees them.
#[derive(Clone)]
enum Callee {
    Methods(Vec<usize>),
    Summaries(Vec<Target>),
    Native(String),
    /// A specification marker (`Resource.consume`), whose body is a `return`.
    Marker,
    Outside,
}

/// The heap facts of every rule of a set of methods, and each method's effects.
pub struct HeapAnalysis {
    /// Per method, per procedure, per rule.
    pub plans: Vec<Vec<Vec<RulePlan>>>,
    /// Per method (its entry procedure's effects).
    pub effects: Vec<HeapEffects>,
}

/// The most rounds of the effects' fixpoint; past it, the methods whose effects still grew get
/// `HeapEffects::anything` (sound, and rare: effects only grow, over a small lattice).
const MAX_ROUNDS: usize = 32;

/// Analyses the heap effects of `methods` (calls resolved by `resolver`) and plans each rule.
pub fn analyse(methods: &[MethodIr], resolver: &dyn CallResolver) -> HeapAnalysis {
    let classes = Classes::new(resolver.hierarchy());
    let var_classes: Vec<Vec<Option<String>>> = methods.iter().map(var_classes).collect();
    let mut context = Context {
        methods,
        resolver,
        classes: &classes,
        var_classes: &var_classes,
        callees: HashMap::new(),
        effects: methods
            .iter()
            .map(|m| vec![HeapEffects::default(); m.procs.len()])
            .collect(),
    };
    let mut plans = Vec::new();
    for round in 0..=MAX_ROUNDS {
        let mut changed = false;
        // Callees are lifted after their callers: the reverse order converges in fewer rounds.
        let mut round_plans: Vec<Vec<Vec<RulePlan>>> = (0..methods.len())
            .rev()
            .map(|m| {
                let (method_plans, proc_effects) = context.method(m);
                changed |= proc_effects != context.effects[m];
                context.effects[m] = proc_effects;
                method_plans
            })
            .collect();
        round_plans.reverse();
        plans = round_plans;
        if !changed {
            break;
        }
        if round == MAX_ROUNDS {
            for effects in context.effects.iter_mut().flatten() {
                *effects = HeapEffects::anything();
            }
            plans = (0..methods.len()).map(|m| context.method(m).0).collect();
        }
    }
    let effects = methods
        .iter()
        .enumerate()
        .map(|(m, method)| context.effects[m][method.entry.index()].clone())
        .collect();
    HeapAnalysis { plans, effects }
}

/// The most rounds of the effects of a method's procedures given disjoint structures.
const CONDITIONAL_ROUNDS: usize = 4;

/// The most rounds in which the pairs of procedure inputs given disjoint structures may narrow.
const MAX_DISJOINT_ROUNDS: usize = 8;

/// The start of the greatest fixpoint of the disjoint pairs of inputs: every pair of reference
/// inputs of every procedure but the entry (whose callers are outside the method; it too when
/// `disjoint_entry`), narrowed by each call to the pairs it passes disjoint structures.
fn all_pairs(method: &MethodIr, disjoint_entry: bool) -> Vec<Pairs> {
    let mut out = Vec::with_capacity(method.procs.len());
    for (p, proc) in method.procs.iter().enumerate() {
        let mut pairs = Pairs::new();
        if disjoint_entry || ProcId::from_index(p) != method.entry {
            let refs: Vec<usize> = (0..proc.inputs.len())
                .filter(|&k| method.var(proc.inputs[k]).ty == Ty::Ref)
                .collect();
            for (x, &i) in refs.iter().enumerate() {
                pairs.extend(refs[x + 1..].iter().map(|&j| (i, j)));
            }
        }
        out.push(pairs);
    }
    out
}

/// Per procedure of `method`, whether it lies on a loop (a cycle of its procedures' calls).
fn looping_procs(method: &MethodIr) -> Vec<bool> {
    let mut graph = petgraph::graphmap::DiGraphMap::<usize, ()>::new();
    for (p, proc) in method.procs.iter().enumerate() {
        graph.add_node(p);
        for stmt in proc.rules.iter().flat_map(|r| &r.body) {
            if let StmtKind::Call { proc: callee, .. } = &stmt.kind {
                graph.add_edge(p, callee.index(), ());
            }
        }
    }
    let mut looping = vec![false; method.procs.len()];
    for component in petgraph::algo::tarjan_scc(&graph) {
        let cyclic = component.len() > 1 || component.first().is_some_and(|&p| graph.contains_edge(p, p));
        for p in component.into_iter().filter(|_| cyclic) {
            looping[p] = true;
        }
    }
    looping
}

/// The shared state of the analysis of one set of methods.
struct Context<'a> {
    methods: &'a [MethodIr],
    resolver: &'a dyn CallResolver,
    classes: &'a Classes<'a>,
    var_classes: &'a [Vec<Option<String>>],
    callees: HashMap<(CallKind, MethodRef), Callee>,
    /// The current estimate, per method and procedure.
    effects: Vec<Vec<HeapEffects>>,
}

impl Context<'_> {
    /// The plans of one method's rules (with the cyclicity of its procedures' inputs at their
    /// fixpoint) and its procedures' effects.
    fn method(&mut self, m: usize) -> (Vec<Vec<RulePlan>>, Vec<HeapEffects>) {
        let entry = self.methods[m].entry.index();
        // Whether it may close cycles is a least fixpoint of its own: assumed not, then checked.
        let (mut plans, mut effects) = self.method_given(m, false, false);
        if effects[entry].makes_cycles && effects[entry].reads_roots {
            (plans, effects) = self.method_given(m, false, true);
        }
        let method = &self.methods[m];
        let refs = method
            .proc(method.entry)
            .inputs
            .iter()
            .filter(|v| method.var(**v).ty == Ty::Ref)
            .count();
        let cycles = effects[entry].makes_cycles || effects[entry].cyclic_result;
        let prone = effects[entry].makes_cycles;
        effects[entry].cycles_without_sharing = cycles && (refs < 2 || self.cycles_given_disjoint(m, prone));
        (plans, effects)
    }

    /// Whether the method may close a cycle or return a cyclic value when its entry is given
    /// pairwise disjoint structures. Its procedures' effects start from those for every input
    /// (sound, so each round's are) and are computed again under the assumption a few times.
    fn cycles_given_disjoint(&mut self, m: usize, cycle_prone: bool) -> bool {
        let entry = self.methods[m].entry.index();
        let saved = self.effects[m].clone();
        for _ in 0..CONDITIONAL_ROUNDS {
            let (_, given) = self.method_given(m, true, cycle_prone);
            let stable = given == self.effects[m];
            self.effects[m] = given;
            if stable {
                break;
            }
        }
        let given = &self.effects[m][entry];
        let cycles = given.makes_cycles || given.cyclic_result;
        self.effects[m] = saved;
        cycles
    }

    /// The plans and effects of one method, its entry given pairwise disjoint structures when
    /// `disjoint_entry` says so, the references it reads from static fields and array elements
    /// possibly cyclic when `cycle_prone` does.
    fn method_given(
        &mut self,
        m: usize,
        disjoint_entry: bool,
        cycle_prone: bool,
    ) -> (Vec<Vec<RulePlan>>, Vec<HeapEffects>) {
        let method = &self.methods[m];
        let looping = looping_procs(method);
        let regions = regions::method_regions(method, &mut |kind, callee| self.invoke(kind, callee).writes_existing);
        let mut cyclic_inputs: Vec<Vec<bool>> = method.procs.iter().map(|p| vec![false; p.inputs.len()]).collect();
        let mut disjoint_inputs = all_pairs(method, disjoint_entry);
        let mut origins: Vec<Vec<Origin>> = method
            .procs
            .iter()
            .map(|p| vec![Origin::nothing(); p.outputs.len()])
            .collect();
        let mut rounds = 0;
        loop {
            let plans: Vec<Vec<RulePlan>> = method
                .procs
                .iter()
                .enumerate()
                .map(|(p, proc)| {
                    proc.rules
                        .iter()
                        .map(|rule| {
                            let inputs = walk::InputFacts {
                                cyclic: &cyclic_inputs[p],
                                disjoint: &disjoint_inputs[p],
                                origins: &origins,
                                cycle_prone,
                            };
                            walk::plan(self, m, p, inputs, looping[p], &regions, rule)
                        })
                        .collect()
                })
                .collect();
            let mut grown = false;
            for (proc, args) in plans.iter().flatten().flat_map(|plan| &plan.cyclic_args) {
                for (flag, &cyclic) in cyclic_inputs[proc.index()].iter_mut().zip(args) {
                    grown |= cyclic && !*flag;
                    *flag |= cyclic;
                }
            }
            let mut joined = origins.clone();
            for (p, rules) in plans.iter().enumerate() {
                for plan in rules {
                    for (o, from) in joined[p].iter_mut().zip(&plan.output_origins) {
                        *o = o.join(from);
                    }
                }
            }
            if joined != origins {
                origins = joined;
                continue;
            }
            let mut narrowed = disjoint_inputs.clone();
            for (proc, pairs) in plans.iter().flatten().flat_map(|plan| &plan.disjoint_args) {
                narrowed[proc.index()].retain(|pair| pairs.contains(pair));
            }
            rounds += 1;
            if narrowed != disjoint_inputs {
                // Past a few rounds, no procedure is assumed given disjoint structures.
                disjoint_inputs = match rounds < MAX_DISJOINT_ROUNDS {
                    true => narrowed,
                    false => vec![Pairs::new(); method.procs.len()],
                };
                continue;
            }
            if grown {
                continue;
            }
            // A method that calls itself and reads reference fields may follow a cycle by
            // recursion.
            let all = || plans.iter().flatten();
            let recursive_walk = all().any(|p| p.reads_fields) && all().any(|p| p.calls_itself);
            let effects = plans
                .iter()
                .map(|rules| {
                    let mut joined = HeapEffects::default();
                    for plan in rules {
                        joined.join(&plan.effects);
                    }
                    joined.walks |= recursive_walk;
                    joined
                })
                .zip(&origins)
                .map(|(mut joined, outputs): (HeapEffects, _)| {
                    joined.result = outputs.first().cloned().unwrap_or_default();
                    joined
                })
                .collect();
            return (plans, effects);
        }
    }

    /// The effects of an `invoke`, its targets' joined.
    fn invoke(&mut self, kind: CallKind, method: &MethodRef) -> HeapEffects {
        let key = (kind, method.clone());
        let callee = match self.callees.get(&key) {
            Some(found) => found.clone(),
            None => {
                let found = self.resolve(kind, method);
                self.callees.insert(key, found.clone());
                found
            }
        };
        let mut effects = HeapEffects::default();
        match callee {
            Callee::Methods(targets) => {
                for t in targets {
                    effects.join(&self.effects[t][self.methods[t].entry.index()]);
                }
            }
            Callee::Summaries(targets) => {
                for target in targets {
                    match target {
                        Target::Analysed(t) => effects.join(&self.effects[t][self.methods[t].entry.index()]),
                        Target::Summarised(summary) => effects.join(&summary.effects),
                    }
                }
            }
            Callee::Native(class) => effects = HeapEffects::of_native(&class),
            Callee::Marker => effects.result = Origin::Unknown,
            Callee::Outside => effects = HeapEffects::anything(),
        }
        effects
    }

    fn resolve(&self, kind: CallKind, method: &MethodRef) -> Callee {
        if is_spec_marker(&method.class, &method.name) {
            return Callee::Marker;
        }
        if let Some(targets) = self.resolver.resolve(kind, method).filter(|t| !t.is_empty()) {
            return Callee::Methods(targets);
        }
        if let Some(targets) = self.resolver.summarise(kind, method).filter(|t| !t.is_empty()) {
            return Callee::Summaries(targets);
        }
        let native_owner = if method.class.starts_with('[') {
            let on_object = MethodRef {
                class: "java/lang/Object".into(),
                ..method.clone()
            };
            self.resolver
                .is_native(CallKind::Special, &on_object)
                .then_some(on_object.class)
        } else {
            self.resolver.is_native(kind, method).then(|| method.class.clone())
        };
        native_owner.map_or(Callee::Outside, Callee::Native)
    }
}
