//! Signature mode: a method's instances from its parameter types (ints, longs, arrays, strings,
//! boxes; Korat structures for objects of program classes and for the receiver), in the largest
//! scope up to `max_size` whose instances fit `max_instances`, run on the VM and checked.
//!
//! A method with a `@Requires` gets only instances that satisfy it: Korat searches each reference
//! argument's structures with what the precondition requires of that argument alone as its
//! predicate, and whole instances that do not satisfy the precondition are dropped (Tempo's
//! `_ignoreIf`), keeping their numbers, so that replays still find them.

use super::tally::{detail, Tally};
use super::{blank, BoundToCheck, MethodValidation, ValidateOptions};
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::ir::split_method_descriptor;
use jresa_gpu_validate::check::{MethodBound, Verdict};
use jresa_gpu_validate::generate::{
    decode, explore, instance, instance_count, Choices, Domain, Finitization, Generated, KoratError, MethodReads,
    RepOk, Settings, StructurePredicate,
};
use jresa_gpu_validate::requires::{Precondition, RequiresPredicate};
use jresa_gpu_validate::{Backends, ClassSource, Limits, Package, RunConfig, Value};
use num_traits::ToPrimitive;
use rayon::prelude::*;
use std::collections::HashMap;

/// Korat candidates tried per structure the instance limit allows (plus a constant), at most.
const CANDIDATES_PER_INSTANCE: usize = 20;

/// JVM bytecodes an instance may run under the models that do not count bytecodes.
pub(crate) const OTHER_MODELS_MAX_BYTECODES: u64 = 50_000_000;

/// Why a scope cannot be generated.
enum ScopeError {
    /// More instances (or Korat candidates) than the limit.
    TooMany,
    Failed(String),
}

/// The parameter descriptors of a method, the receiver's first for an instance method, and
/// whether it is static.
pub(crate) fn parameter_types(source: &dyn ClassSource, bound: &BoundToCheck) -> Result<(Vec<String>, bool), String> {
    let (params, _) = split_method_descriptor(&bound.descriptor).ok_or("malformed descriptor")?;
    let info = source
        .class(&bound.class)
        .ok_or_else(|| format!("class {} not found", bound.class.replace('/', ".")))?;
    let method = info
        .method(&bound.name, &bound.descriptor)
        .ok_or_else(|| format!("no method {}{}", bound.name, bound.descriptor))?;
    let mut types = Vec::new();
    if !method.is_static() {
        types.push(format!("L{};", bound.class));
    }
    types.extend(params.into_iter().map(str::to_owned));
    Ok((types, method.is_static()))
}

/// What the structures of one argument must satisfy: what the precondition requires of it
/// alone (by argument position), else the class's `repOK()` or acyclicity.
type StructureKey = (String, bool, Option<usize>);

/// A method by class, name and descriptor.
type MethodKey<'a> = (&'a str, &'a str, &'a str);

/// The domains of a method's parameters at one scope; Korat structures are searched once per
/// class, nullability and argument precondition.
struct Domains<'p> {
    package: &'p Package,
    source: &'p dyn ClassSource,
    settings: Settings,
    limit: usize,
    structures: HashMap<StructureKey, Result<Domain, String>>,
    too_many: bool,
    /// Whether the method is a constructor (its receiver is a fresh object).
    constructor: bool,
    /// Per argument, what the precondition requires of it alone.
    requires: &'p [Option<Precondition>],
    /// Per argument, whether it may share an earlier argument's objects.
    shared: &'p [bool],
    /// The method under test (class, name, descriptor) and its parameter types, whose reads
    /// drive the search of a receiver with too many fields to enumerate.
    method: Option<(MethodKey<'p>, &'p [String])>,
}

impl Domains<'_> {
    /// The cache key of the structures of `class` for argument `argument`: the argument counts
    /// only when the precondition constrains it.
    fn key(&self, class: &str, nullable: bool, argument: Option<usize>) -> StructureKey {
        let argument = argument.filter(|&k| self.requires.get(k).is_some_and(Option::is_some));
        (class.to_owned(), nullable, argument)
    }

    /// The structures of `class` (a receiver when `nullable` is false) for argument `argument`.
    fn structures(&mut self, class: &str, nullable: bool, argument: Option<usize>) -> Option<Domain> {
        let key = self.key(class, nullable, argument);
        let argument = key.2;
        if let Some(found) = self.structures.get(&key) {
            return found.as_ref().ok().cloned();
        }
        let result = self.search(class, nullable, argument);
        let domain = result.as_ref().ok().cloned();
        self.structures.insert(key, result);
        domain
    }

    fn search(&mut self, class: &str, nullable: bool, argument: Option<usize>) -> Result<Domain, String> {
        let Some(finitization) = Finitization::new(self.source, class, &self.settings, nullable) else {
            return Err(format!(
                "{} is not a concrete program class: only null is generated",
                class.replace('/', ".")
            ));
        };
        let requires = argument.and_then(|k| self.requires[k].as_ref());
        let mut by_requires = requires.map(RequiresPredicate);
        let mut repok = RepOk::new(self.package, class).filter(|_| by_requires.is_none());
        let predicate = match by_requires.as_mut() {
            Some(p) => Some(p as &mut dyn StructurePredicate),
            None => repok.as_mut().map(|p| p as &mut dyn StructurePredicate),
        };
        let max_candidates = self.limit * CANDIDATES_PER_INSTANCE + 10_000;
        let unconstrained = predicate.is_none();
        match finitization.search(predicate, self.limit, max_candidates) {
            Ok(found) => Ok(Domain::OneOf(found.structures)),
            Err(KoratError::TooMany) if unconstrained && !nullable => {
                self.by_method_reads(&finitization, max_candidates).ok_or_else(|| {
                    self.too_many = true;
                    "too many structures".to_owned()
                })
            }
            Err(KoratError::TooMany) => {
                self.too_many = true;
                Err("too many structures".into())
            }
            Err(KoratError::Predicate(reason)) => Err(reason),
        }
    }

    /// The receivers of the method under test that differ in the fields it reads (see
    /// `MethodReads`), when the package runs it and they are few enough.
    fn by_method_reads(&self, finitization: &Finitization, max_candidates: usize) -> Option<Domain> {
        let (key, types) = self.method?;
        let rest: Vec<Value> = types.iter().skip(1).map(|t| default_value(t)).collect();
        let mut reads = MethodReads::new(self.package, key, rest)?;
        let found = finitization.search(Some(&mut reads), self.limit, max_candidates).ok()?;
        Some(Domain::OneOf(found.structures))
    }

    /// The receivers of an abstract class or interface: the structures of its concrete program
    /// subclasses in the package (a method inherited by them runs on each), in name order.
    fn below(&mut self, class: &str, k: usize) -> Option<Domain> {
        let mut below: Vec<String> = self
            .package
            .class_names
            .iter()
            .filter(|name| name.as_str() != class && !name.starts_with('[') && is_below(self.source, name, class))
            .cloned()
            .collect();
        below.sort();
        let mut structures: Option<Vec<Value>> = None;
        for sub in below {
            if let Some(Domain::OneOf(found)) = self.structures(&sub, false, Some(k)) {
                structures.get_or_insert_with(Vec::new).extend(found);
            }
            if self.too_many {
                return None;
            }
        }
        structures.map(Domain::OneOf)
    }

    /// The domain of every parameter.
    fn of(&mut self, types: &[String], is_static: bool) -> Result<Vec<Domain>, ScopeError> {
        let mut domains = Vec::new();
        for (k, ty) in types.iter().enumerate() {
            let receiver = k == 0 && !is_static;
            let domain = if receiver && self.constructor {
                // A constructor runs on a fresh object: every field zero.
                Domain::OneOf(vec![Value::Object {
                    class: ty[1..ty.len() - 1].to_owned(),
                    fields: Vec::new(),
                }])
            } else if receiver {
                let class = &ty[1..ty.len() - 1];
                match self.structures(class, false, Some(k)).or_else(|| self.below(class, k)) {
                    Some(domain) => domain,
                    None if self.too_many => return Err(ScopeError::TooMany),
                    None => {
                        let reason = self
                            .structures
                            .get(&self.key(class, false, Some(k)))
                            .and_then(|r| r.as_ref().err().cloned())
                            .unwrap_or_default();
                        return Err(ScopeError::Failed(format!("no receivers can be generated: {reason}")));
                    }
                }
            } else {
                let settings = self.settings.clone();
                // The argument's own precondition applies to it, not to the elements of an array.
                let argument = ty.starts_with('L').then_some(k);
                let own = Domain::for_descriptor(ty, &settings, &mut |class| self.structures(class, true, argument));
                let class = ty.strip_prefix('L').and_then(|t| t.strip_suffix(';'));
                match (class, self.shared.get(k)) {
                    // The precondition links it to an earlier argument: it may be one of its objects.
                    (Some(class), Some(true)) => Domain::Sharing {
                        class: class.to_owned(),
                        own: Box::new(own),
                    },
                    _ => own,
                }
            };
            if self.too_many {
                return Err(ScopeError::TooMany);
            }
            domains.push(domain);
        }
        Ok(domains)
    }
}

/// A scope, the instances generated at it that satisfy the precondition, and how many did not.
type ScopeInstances = (u32, Vec<Generated<Vec<Value>>>, usize);

/// The method being generated for: its parameter types, whether it is static and whether it is
/// a constructor, and its precondition.
pub(crate) struct Signature<'a> {
    types: &'a [String],
    is_static: bool,
    constructor: bool,
    precondition: Option<&'a Precondition>,
    /// Per argument, what the precondition requires of it alone.
    requires: Vec<Option<Precondition>>,
    /// Per argument, whether it may share an earlier argument's objects.
    shared: Vec<bool>,
    /// The method (class, name, descriptor), for receivers searched by its reads.
    method: Option<MethodKey<'a>>,
}

impl<'a> Signature<'a> {
    fn new(types: &'a [String], is_static: bool, constructor: bool, precondition: Option<&'a Precondition>) -> Self {
        let requires = (0..types.len())
            .map(|k| precondition.and_then(|p| p.for_argument(k)))
            .collect();
        let shared = (0..types.len())
            .map(|k| precondition.is_some_and(|p| p.may_share(k)))
            .collect();
        Signature {
            types,
            is_static,
            constructor,
            precondition,
            requires,
            shared,
            method: None,
        }
    }

    fn domains<'p>(
        &'p self,
        package: &'p Package,
        source: &'p dyn ClassSource,
        size: u32,
        limit: usize,
    ) -> Domains<'p> {
        Domains {
            package,
            source,
            settings: Settings::with_size(size),
            limit,
            structures: HashMap::new(),
            too_many: false,
            constructor: self.constructor,
            requires: &self.requires,
            shared: &self.shared,
            method: self.method.map(|key| (key, self.types)),
        }
    }

    /// Whether an instance satisfies the precondition (every one does when there is none).
    fn admits(&self, args: &[Value]) -> bool {
        self.precondition.is_none_or(|p| p.holds(args))
    }
}

/// Whether `class` is a proper subtype of `ancestor` (through superclasses and interfaces).
fn is_below(source: &dyn ClassSource, class: &str, ancestor: &str) -> bool {
    let mut pending = vec![class.to_owned()];
    let mut seen = 0;
    while let Some(name) = pending.pop() {
        seen += 1;
        if seen > 256 {
            return false;
        }
        let Some(info) = source.class(&name) else { continue };
        for parent in info.super_name.iter().chain(&info.interfaces) {
            if parent == ancestor {
                return true;
            }
            pending.push(parent.clone());
        }
    }
    false
}

/// The value of a parameter of this descriptor that a run starts from when nothing is chosen:
/// zero, or null.
fn default_value(descriptor: &str) -> Value {
    match descriptor {
        "J" => Value::Long(0),
        "F" => Value::Float(0),
        "D" => Value::Double(0),
        "Z" | "B" | "C" | "S" | "I" => Value::Int(0),
        _ => Value::Null,
    }
}

/// The domains and instances of the largest scope up to `max_size` within `limit` instances.
fn largest_scope(
    package: &Package,
    source: &dyn ClassSource,
    signature: &Signature<'_>,
    options: &ValidateOptions<'_>,
) -> Result<ScopeInstances, String> {
    let (types, is_static) = (signature.types, signature.is_static);
    let mut best: Option<ScopeInstances> = None;
    for size in 0..=options.max_size {
        let mut domains = signature.domains(package, source, size, options.max_instances);
        let domains = match domains.of(types, is_static) {
            Ok(domains) => domains,
            Err(ScopeError::TooMany) => break,
            Err(ScopeError::Failed(reason)) => return Err(reason),
        };
        // The domains are finite trees of choices: a scope with too many instances is known
        // before any is built.
        if instance_count(&domains).is_none_or(|n| n > options.max_instances as u128) {
            break;
        }
        let program = |c: &mut Choices| instance(&domains, c);
        match explore(&program, options.strategy, options.max_instances) {
            Ok(found) => {
                let total = found.len();
                let admitted: Vec<_> = found.into_iter().filter(|g| signature.admits(&g.value)).collect();
                let dropped = total - admitted.len();
                best = Some((size, admitted, dropped));
            }
            Err(_) => break,
        }
    }
    best.ok_or_else(|| {
        format!(
            "more than {} instances even at size 0 (raise --max-instances)",
            options.max_instances
        )
    })
}

/// The one instance `number` at scope `max_size`.
fn replayed_instance(
    package: &Package,
    source: &dyn ClassSource,
    signature: &Signature<'_>,
    options: &ValidateOptions<'_>,
    number: u128,
) -> Result<Vec<Generated<Vec<Value>>>, String> {
    let (types, is_static) = (signature.types, signature.is_static);
    let limit = usize::MAX / (2 * CANDIDATES_PER_INSTANCE);
    let mut domains = signature.domains(package, source, options.max_size, limit);
    let domains = match domains.of(types, is_static) {
        Ok(domains) => domains,
        Err(ScopeError::TooMany) => return Err("too many structures".into()),
        Err(ScopeError::Failed(reason)) => return Err(reason),
    };
    let program = |c: &mut Choices| instance(&domains, c);
    match decode(&program, number) {
        Some(value) if signature.admits(&value) => Ok(vec![Generated { number, value }]),
        Some(_) => Err(format!("instance {number} does not satisfy the @Requires")),
        None => Err(format!("there is no instance {number} at size {}", options.max_size)),
    }
}

/// The run limits of a method's instances: under the instructions model, enough bytecodes to
/// exceed the largest bound (so a violation is seen even when the run is stopped).
pub(crate) fn run_config(model: CostModel, largest_bound: f64) -> RunConfig {
    let max_bytecodes = match model {
        CostModel::Instructions => (largest_bound * 2.0 + 1_000_000.0).min(500_000_000.0) as u64,
        _ => OTHER_MODELS_MAX_BYTECODES,
    };
    RunConfig {
        limits: Limits {
            max_bytecodes,
            ..Limits::default()
        },
        cct: false,
    }
}

/// The replay command of instance `number` of a method at scope `size`.
pub(crate) fn replay_command(
    options: &ValidateOptions<'_>,
    bound: &BoundToCheck,
    size: Option<u32>,
    number: u128,
) -> String {
    let scope = size.map(|s| format!(" --max-size {s}")).unwrap_or_default();
    format!(
        "{} --method '{}.{}{}'{scope} --instance {number}",
        options.replay_prefix,
        bound.class.replace('/', "."),
        bound.name,
        bound.descriptor
    )
}

/// Generates, runs and checks the instances of one method.
pub(crate) fn validate_method(
    backends: &Backends<'_>,
    source: &dyn ClassSource,
    bound_to_check: &BoundToCheck,
    precondition: Option<&Result<Precondition, String>>,
    options: &ValidateOptions<'_>,
) -> MethodValidation {
    let package = backends.package();
    let mut out = blank(bound_to_check);
    let Some(bound) = &bound_to_check.bound else {
        return out;
    };
    let (types, is_static) = match parameter_types(source, bound_to_check) {
        Ok(found) => found,
        Err(reason) => {
            out.reason = Some(reason);
            return out;
        }
    };
    let precondition = match precondition {
        Some(Ok(precondition)) => Some(precondition),
        Some(Err(reason)) => {
            out.reason = Some(format!(
                "instances from the signature only: the @Requires cannot be decided ({reason})"
            ));
            None
        }
        None => None,
    };
    out.requires = precondition.map(|p| p.text.clone());
    let mut signature = Signature::new(&types, is_static, bound_to_check.name == "<init>", precondition);
    if !is_static {
        signature.method = Some((
            bound_to_check.class.as_str(),
            bound_to_check.name.as_str(),
            bound_to_check.descriptor.as_str(),
        ));
    }
    let generated = match options.instance {
        Some(number) => {
            replayed_instance(package, source, &signature, options, number).map(|found| (options.max_size, found, 0))
        }
        None => largest_scope(package, source, &signature, options),
    };
    let (size, instances, dropped) = match generated {
        Ok(found) => found,
        Err(reason) => {
            out.reason = Some(format!("no instances: {reason}"));
            return out;
        }
    };
    out.max_size = Some(size);
    out.outside_requires = dropped;
    if instances.is_empty() && dropped > 0 {
        out.reason = Some(format!(
            "no instance up to scope {size} satisfies the @Requires ({dropped} generated from the signature)"
        ));
        return out;
    }
    check_instances(
        backends,
        bound_to_check,
        bound,
        &types,
        &instances,
        options,
        Some(size),
        &mut out,
    );
    out
}

/// Runs instances of a method, checks them against its bound and fills `out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_instances(
    backends: &Backends<'_>,
    bound_to_check: &BoundToCheck,
    bound: &MethodBound,
    types: &[String],
    instances: &[Generated<Vec<Value>>],
    options: &ValidateOptions<'_>,
    size: Option<u32>,
    out: &mut MethodValidation,
) {
    // Sizes and bound values first: the largest bound sets the step limit.
    let prepared: Vec<Option<(u64, f64)>> = instances
        .par_iter()
        .map(|g| {
            let (measures, size) = bound.prepare(&g.value).ok()?;
            let value = bound.value_at(&g.value, &measures).ok()?.to_f64().unwrap_or(f64::MAX);
            Some((size, value))
        })
        .collect();
    let largest = prepared.iter().flatten().map(|(_, b)| *b).fold(0.0, f64::max);
    let backend = backends.backend(run_config(options.model, largest));
    let values: Vec<Vec<Value>> = instances.iter().map(|g| g.value.clone()).collect();
    let key = (
        bound_to_check.class.as_str(),
        bound_to_check.name.as_str(),
        bound_to_check.descriptor.as_str(),
    );
    let outcomes = super::clock::timed(values.len(), || backend.run(key, &values));
    let verdicts: Vec<Verdict> = instances
        .par_iter()
        .zip(&outcomes)
        .map(|(g, outcome)| bound.check(options.model, &g.value, outcome))
        .collect();
    let mut tally = Tally::default();
    for (((generated, outcome), verdict), prepared) in instances.iter().zip(&outcomes).zip(&verdicts).zip(&prepared) {
        let group = prepared.map_or(0, |(s, _)| s);
        let measured = jresa_gpu_validate::check::metric(options.model, &outcome.metrics);
        let make_detail = || {
            detail(
                generated.number,
                &generated.value,
                types,
                outcome,
                verdict,
                measured,
                replay_command(options, bound_to_check, size, generated.number),
            )
        };
        if options.instance.is_some() {
            out.replayed = Some(make_detail());
        }
        tally.add(verdict, group, make_detail);
    }
    tally.finish(out);
}
