//! Call resolution for the cost analysis of a class, and the library methods its methods call,
//! lifted from the inputs or the classpath (up to `LIBRARY_BUDGET` methods of at most
//! `LIBRARY_METHOD_STATEMENTS` statements each).

use super::summaries::{Key, Summaries, MAX_SUMMARISED_TARGETS, MAX_SUMMARY_DEPTH};
use super::LIBRARY_METHOD_STATEMENTS;
use crate::classfile::ClassFile;
use crate::lift::lift_method;
use crate::program::class_decl;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::hierarchy::Hierarchy;
use jresa_analyses::ir::exceptions;
use jresa_analyses::ir::lambdas::{self, LambdaClass};
use jresa_analyses::ir::{constructors, ghosts, reloads, scalars};
use jresa_analyses::ir::{CallKind, MethodIr, MethodRef, StmtKind};
use jresa_analyses::value::compile::CallResolver;
use jresa_analyses::value::program::Target;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The statements of a lifted method, over all its rules.
pub(super) fn statement_count(ir: &MethodIr) -> usize {
    ir.procs.iter().flat_map(|p| &p.rules).map(|r| r.body.len()).sum()
}

/// The position of each method among `methods`, by class, name and descriptor.
pub(super) fn method_index(methods: &[MethodIr]) -> HashMap<Key, usize> {
    methods
        .iter()
        .enumerate()
        .map(|(i, m)| ((m.class.clone(), m.name.clone(), m.descriptor.clone()), i))
        .collect()
}

/// Resolves calls to the indices of analysed methods, or to summaries of the others.
pub(super) struct Resolver<'a> {
    pub(super) hierarchy: &'a Hierarchy,
    pub(super) index: &'a HashMap<Key, usize>,
    /// Where the targets that are not analysed get their summaries, and the depth of those
    /// summaries (none for a summary at the deepest level, [`MAX_SUMMARY_DEPTH`]).
    pub(super) summaries: Option<(&'a Summaries<'a, 'a>, usize)>,
    /// Set once a call needed a summary (or would have, at the deepest level): an analysis that
    /// never did gives the same result at every depth.
    pub(super) asked: AtomicBool,
    /// Set once a summary it used (or found missing) depends on code of the program's inputs.
    reads_inputs: AtomicBool,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(
        hierarchy: &'a Hierarchy,
        index: &'a HashMap<Key, usize>,
        summaries: Option<(&'a Summaries<'a, 'a>, usize)>,
    ) -> Self {
        Resolver {
            hierarchy,
            index,
            summaries,
            asked: AtomicBool::new(false),
            reads_inputs: AtomicBool::new(false),
        }
    }

    /// Whether a summary it used (or found missing) depends on code of the program's inputs.
    pub(super) fn reads_inputs(&self) -> bool {
        self.reads_inputs.load(Ordering::Relaxed)
    }

    /// Whether a call needed a summary.
    pub(super) fn asked(&self) -> bool {
        self.asked.load(Ordering::Relaxed)
    }
}

impl Resolver<'_> {
    /// The call's targets by class, name and descriptor, when CHA knows all of them.
    fn targets(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<Key>> {
        let targets = self.hierarchy.targets(kind, method);
        if !targets.complete || targets.targets.is_empty() {
            return None;
        }
        Some(
            targets
                .targets
                .into_iter()
                .map(|t| (t.class, t.name, t.descriptor))
                .collect(),
        )
    }
}

impl Resolver<'_> {
    /// Why a call to `targets` goes to no summaries when it may dispatch to more methods without
    /// an analysis of their own than [`MAX_SUMMARISED_TARGETS`].
    fn too_many_to_summarise(&self, targets: &[Key]) -> Option<String> {
        let outside = targets.iter().filter(|key| !self.index.contains_key(*key)).count();
        (outside > MAX_SUMMARISED_TARGETS).then(|| {
            format!(
                "it may dispatch to {outside} methods, more than a call to summaries may ({MAX_SUMMARISED_TARGETS})"
            )
        })
    }
}

impl CallResolver for Resolver<'_> {
    fn resolve(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<usize>> {
        let targets = self.targets(kind, method)?;
        targets.iter().map(|key| self.index.get(key).copied()).collect()
    }

    fn summarise(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<Target>> {
        let targets = self.targets(kind, method)?;
        self.asked.store(true, Ordering::Relaxed);
        let (summaries, depth) = self.summaries?;
        if self.too_many_to_summarise(&targets).is_some() {
            return None;
        }
        let summarised = || targets.iter().filter(|key| !self.index.contains_key(*key));
        if summarised().any(|key| summaries.known_missing(key, depth, &self.reads_inputs)) {
            return None;
        }
        targets
            .iter()
            .map(|key| match self.index.get(key) {
                Some(&analysed) => Some(Target::Analysed(analysed)),
                None => summaries
                    .of(key, depth, &self.reads_inputs)
                    .ok()
                    .map(Target::Summarised),
            })
            .collect()
    }

    fn why_not_analysed(&self, kind: CallKind, method: &MethodRef) -> Option<String> {
        let Some(targets) = self.targets(kind, method) else {
            let found = self.hierarchy.targets(kind, method);
            return Some(match found.complete {
                true => "no class in the program implements it".into(),
                false => "not every class it may dispatch to is known".into(),
            });
        };
        self.asked.store(true, Ordering::Relaxed);
        let Some((summaries, depth)) = self.summaries else {
            return Some(format!(
                "summaries of summaries' callees nest at most {MAX_SUMMARY_DEPTH} deep"
            ));
        };
        if let Some(why) = self.too_many_to_summarise(&targets) {
            return Some(why);
        }
        targets
            .iter()
            .filter(|key| !self.index.contains_key(*key))
            .find_map(|key| {
                let why = summaries.of(key, depth, &self.reads_inputs).err()?;
                let same = key.0 == method.class && key.1 == method.name && key.2 == method.descriptor;
                Some(match same {
                    true => why,
                    false => format!("its target {}.{}: {why}", key.0.replace('/', "."), key.1),
                })
            })
    }

    fn hierarchy(&self) -> Option<&Hierarchy> {
        Some(self.hierarchy)
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
pub(super) type ClassLookup<'a> = dyn Fn(&str) -> Option<Arc<ClassFile>> + Sync + 'a;

/// Lifts the methods outside the analysed class that its methods call, transitively, up to
/// `budget` of them (small ones only). The constructors of the exceptions the JVM raises in these methods
/// come first (every method shares them, so they never lose the budget to one method's callees).
/// Classes that lifted library code calls into but that the shared hierarchy lacks (it holds the
/// program's own call owners) are added, with their supertypes, to a copy of it, which is returned
/// when there were any.
pub(super) fn lift_callees(
    methods: &mut Vec<MethodIr>,
    hierarchy: &Hierarchy,
    lookup: &ClassLookup<'_>,
    lambdas: &HashMap<String, LambdaClass>,
    cache: &LiftCache,
    budget: usize,
    rewrite: Option<&Rewrite<'_>>,
) -> Option<Hierarchy> {
    let mut lifting = Lifting {
        budget,
        rewrite,
        hierarchy,
        lookup,
        lambdas,
        hosts: methods.iter().map(|m| m.class.clone()).collect(),
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
    lifting.lift(methods, exception_constructors(&raised).into(), false);
    lifting.closure(methods, first);
    lifting.closure(methods, 0);
    lifting.extended
}

/// The state of lifting library callees (see `lift_callees`).
struct Lifting<'a, 'l> {
    /// Library methods that may be lifted (`LIBRARY_BUDGET` for a class).
    budget: usize,
    /// What is done to each method lifted before it is analysed, besides reusing repeated reads.
    rewrite: Option<&'a Rewrite<'a>>,
    hierarchy: &'a Hierarchy,
    lookup: &'a ClassLookup<'l>,
    /// The program's lambda classes, whose methods are spun rather than read.
    lambdas: &'a HashMap<String, LambdaClass>,
    /// The classes analysed, whose own lambdas are lifted whatever the budget.
    hosts: HashSet<String>,
    extended: Option<Hierarchy>,
    known: HashSet<(String, String, String)>,
    lifted: usize,
    /// Library methods lifted before (shared by the analyses of one class), or `None` where
    /// lifting failed.
    lifted_cache: &'a LiftCache,
}

/// A rewrite of a lifted method (see [`replace_fresh_objects`]).
pub(super) type Rewrite<'a> = dyn Fn(&mut MethodIr) + Sync + 'a;

/// Lifted library methods by (class, name, descriptor).
pub(super) type LiftCache = std::sync::Mutex<HashMap<(String, String, String), Option<MethodIr>>>;

impl Lifting<'_, '_> {
    /// Whether `class` is a lambda class of one of the analysed classes.
    fn is_own_lambda(&self, class: &str) -> bool {
        self.lambdas.contains_key(class) && lambdas::host_class(class).is_some_and(|host| self.hosts.contains(host))
    }

    /// Lifts the callees of `methods[from..]` and of every method lifted meanwhile, breadth-first.
    fn closure(&mut self, methods: &mut Vec<MethodIr>, from: usize) {
        let mut next = from;
        while next < methods.len() {
            let from_lambda = self.is_own_lambda(&methods[next].class);
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
            // A lambda's interface method only calls its implementation, the program's own code:
            // for the analysed classes' own lambdas, it is lifted whatever the budget and size.
            // Past the budget, `lift` still adds the classes the calls name to the hierarchy, so
            // that their targets can be summarised.
            next += 1;
            self.lift(methods, calls, from_lambda);
        }
    }

    /// Lifts the targets of `calls` that are small enough and not lifted yet; a native target
    /// adds the constructors of the exceptions it raises.
    fn lift(&mut self, methods: &mut Vec<MethodIr>, mut calls: VecDeque<(CallKind, MethodRef)>, exempt: bool) {
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
                if let Some(lambda) = self.lambdas.get(&target.class) {
                    // Spun code, as small as a call: an analysed class's own lambdas never count
                    // against the budget; others (every lambda of the program that implements
                    // `Consumer`, for a call of `Consumer.accept`) do.
                    let own = self.is_own_lambda(&target.class);
                    if !own && self.lifted >= self.budget && !exempt {
                        continue;
                    }
                    let spun = lambda.methods.get(&(target.name.clone(), target.descriptor.clone()));
                    if let Some(ir) = spun.filter(|_| self.known.insert(key.clone())) {
                        methods.push(ir.clone());
                        self.lifted += usize::from(!own);
                    }
                    continue;
                }
                if (self.lifted >= self.budget && !exempt) || !self.known.insert(key.clone()) {
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
                        let ir = lift_method(&class, decl).ok().map(|mut ir| {
                            // A program method (a lambda's implementation, say) calls its lambdas'
                            // factories; library sites stay `invokedynamic`.
                            if !self.lambdas.is_empty() {
                                lambdas::rewrite_sites(&mut ir, &class.name, self.lambdas);
                            }
                            if let Some(rewrite) = self.rewrite {
                                rewrite(&mut ir);
                            }
                            let held = reloads::reuse_repeated_reads(&mut ir);
                            ghosts::ghost_invariant_reads_holding(&mut ir, &held);
                            ir
                        });
                        if let Ok(mut cache) = self.lifted_cache.lock() {
                            cache.insert(key, ir.clone());
                        }
                        ir
                    }
                };
                let Some(ir) = ir else {
                    continue;
                };
                let statements = statement_count(&ir);
                if statements <= LIBRARY_METHOD_STATEMENTS || exempt {
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

/// The code a call on an object of an exact class runs, lifted from the inputs or the classpath,
/// for the pass that copies the calls on objects that never escape (`ir::scalars`).
pub(super) struct ExactCallees<'a, 'l> {
    pub(super) lookup: &'a ClassLookup<'l>,
    pub(super) lambdas: &'a HashMap<String, LambdaClass>,
    pub(super) cache: &'a ExactCache,
}

/// The code of calls on objects of exact classes, by the call's kind, method and the class, once
/// lifted (`None` where it has none to copy).
pub(super) type ExactCache = std::sync::Mutex<HashMap<(bool, MethodRef, String), Option<MethodIr>>>;

/// Access flags of methods.
const ACC_PRIVATE: u16 = 0x0002;
const ACC_STATIC: u16 = 0x0008;
const ACC_SYNCHRONIZED: u16 = 0x0020;
const ACC_ABSTRACT: u16 = 0x0400;

impl ExactCallees<'_, '_> {
    /// The class, from `start` up its superclasses, that declares `name descriptor`, and the
    /// method's position among its methods.
    fn declaring(&self, start: &str, method: &MethodRef) -> Option<(Arc<ClassFile>, usize)> {
        let mut current = Some(start.to_owned());
        let mut steps = 0;
        while let Some(name) = current {
            steps += 1;
            if steps > 64 {
                return None;
            }
            let class = (self.lookup)(&name)?;
            if let Some(k) = class
                .methods
                .iter()
                .position(|m| m.name == method.name && m.descriptor == method.descriptor)
            {
                return Some((class, k));
            }
            current = class.super_name.clone();
        }
        None
    }

    /// The method a call of `kind` runs on an object of exactly class `exact` (JVMS 5.4.6 over
    /// superclasses; a target only an interface declares is not found).
    fn select(&self, kind: CallKind, method: &MethodRef, exact: &str) -> Option<(Arc<ClassFile>, usize)> {
        let (resolved, k) = self.declaring(&method.class, method)?;
        let access = resolved.methods[k].access;
        if kind == CallKind::Special || access & ACC_PRIVATE != 0 {
            return Some((resolved, k));
        }
        let (selected, k) = self.declaring(exact, method)?;
        (selected.methods[k].access & (ACC_STATIC | ACC_PRIVATE) == 0).then_some((selected, k))
    }
}

impl scalars::Callees for ExactCallees<'_, '_> {
    fn code(&self, kind: CallKind, method: &MethodRef, class: &str) -> Option<MethodIr> {
        let key = (kind == CallKind::Special, method.clone(), class.to_owned());
        if let Some(code) = self.cache.lock().ok()?.get(&key) {
            return code.clone();
        }
        let code = self.lift(kind, method, class);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(key, code.clone());
        }
        code
    }

    fn field_owner(&self, class: &str, name: &str, descriptor: &str) -> Option<String> {
        let mut current = Some(class.to_owned());
        for _ in 0..64 {
            let file = (self.lookup)(current.as_deref()?)?;
            if let Some(access) = declared_field(&file, name, descriptor) {
                return (access & ACC_STATIC == 0).then(|| file.name.clone());
            }
            // A superinterface's field (always static) comes before the superclass's, and
            // would be what the reference resolves to: no instance field then.
            if !self.interfaces_lack(&file.interfaces, name, descriptor) {
                return None;
            }
            current = file.super_name.clone();
        }
        None
    }
}

impl ExactCallees<'_, '_> {
    /// Whether none of `interfaces` nor their superinterfaces, all found, declares the field.
    fn interfaces_lack(&self, interfaces: &[String], name: &str, descriptor: &str) -> bool {
        let mut pending: Vec<String> = interfaces.to_vec();
        let mut seen = HashSet::new();
        while let Some(interface) = pending.pop() {
            if !seen.insert(interface.clone()) {
                continue;
            }
            let Some(file) = (self.lookup)(&interface) else {
                return false;
            };
            if seen.len() > 64 || declared_field(&file, name, descriptor).is_some() {
                return false;
            }
            pending.extend(file.interfaces.iter().cloned());
        }
        true
    }
}

/// The access flags of the field `name descriptor` that `file` declares, if it does.
fn declared_field(file: &ClassFile, name: &str, descriptor: &str) -> Option<u16> {
    let field = file
        .fields
        .iter()
        .find(|f| f.name == name && f.descriptor == descriptor)?;
    Some(field.access)
}

impl ExactCallees<'_, '_> {
    fn lift(&self, kind: CallKind, method: &MethodRef, class: &str) -> Option<MethodIr> {
        let (owner, k) = self.select(kind, method, class)?;
        let decl = &owner.methods[k];
        if decl.access & (ACC_STATIC | ACC_ABSTRACT | ACC_NATIVE | ACC_SYNCHRONIZED) != 0 || decl.code.is_none() {
            return None;
        }
        let mut ir = lift_method(&owner, decl).ok()?;
        if !self.lambdas.is_empty() {
            lambdas::rewrite_sites(&mut ir, &owner.name, self.lambdas);
        }
        Some(ir)
    }
}

/// Replaces the objects of `ir` that never escape by variables (`ir::scalars`) under the cost
/// models that count no calls; whether it changed `ir`.
pub(super) fn replace_fresh_objects(ir: &mut MethodIr, model: CostModel, callees: &ExactCallees<'_, '_>) -> bool {
    if !matches!(model, CostModel::Instructions | CostModel::Allocations) {
        return false;
    }
    let replaced = scalars::replace_fresh_objects(ir, callees);
    constructors::splice_constructors(ir, callees) || replaced
}
