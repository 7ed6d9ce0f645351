//! `jresa check`: the amortised analysis of annotated methods. Reads the specifications from the
//! classfiles, answers the proof search's questions about the program (lifted code, class
//! layouts, call targets) from the inputs and the class path, and assembles the report and the
//! diagnostics of malformed annotations.

use crate::classfile::{ClassFile, ClassPath, Method};
use crate::lift::lift_method;
use crate::program::{build_hierarchy, class_decl};
use crate::spec::{method_spec, AnnotationError};
use jresa_analyses::amortised::assertion::Span;
use jresa_analyses::amortised::program::{
    ClassLayout, FieldInfo, FieldKey, MethodKey, ProgramView, Resolution, SpecLookup, Target,
};
use jresa_analyses::amortised::resolve::descriptor_class;
use jresa_analyses::amortised::resource::rational_text;
use jresa_analyses::amortised::session::{MethodOutcome, Session, Status};
use jresa_analyses::amortised::spec::{MethodSpec, Role};
use jresa_analyses::hierarchy::{Hierarchy, ACC_FINAL, ACC_PRIVATE, ACC_STATIC};
use jresa_analyses::ir::{CallKind, MethodIr, MethodRef};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Version of the JSON report format.
pub const CHECK_REPORT_VERSION: u32 = 1;

/// Native methods: declared, but without bytecode.
const ACC_NATIVE: u16 = 0x0100;

/// The verdict on an annotated method (the proof search's `Status`, as the report spells it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The specification holds.
    Verified,
    /// The specification holds with its resource variables at the reported values.
    Inferred,
    /// The specification could not be verified.
    Failed,
    /// The annotations are malformed.
    Error,
}

impl CheckStatus {
    pub fn name(self) -> &'static str {
        match self {
            CheckStatus::Verified => "verified",
            CheckStatus::Inferred => "inferred",
            CheckStatus::Failed => "failed",
            CheckStatus::Error => "error",
        }
    }

    /// Same as [`CheckStatus::name`].
    pub fn as_str(&self) -> &'static str {
        self.name()
    }

    /// Whether the specification holds (verified or inferred).
    pub fn holds(self) -> bool {
        matches!(self, CheckStatus::Verified | CheckStatus::Inferred)
    }
}

impl From<Status> for CheckStatus {
    fn from(status: Status) -> CheckStatus {
        match status {
            Status::Verified => CheckStatus::Verified,
            Status::Inferred => CheckStatus::Inferred,
            Status::Failed => CheckStatus::Failed,
            Status::Error => CheckStatus::Error,
        }
    }
}

impl std::fmt::Display for CheckStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A status equals its name (`status == "verified"`).
impl PartialEq<str> for CheckStatus {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for CheckStatus {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// A loop invariant the proof used that the annotations did not (entirely) give.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InvariantCheck {
    pub line: Option<u32>,
    pub offset: u32,
    /// The `@Invariant` identifier when the loop has a written invariant.
    pub id: Option<i32>,
    /// `invariant` for a whole inferred invariant, `facts` for data facts added to a written one.
    pub kind: String,
    pub text: String,
}

/// The result for one annotated method.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MethodCheck {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub status: CheckStatus,
    /// The method's resource variables and their values (exact rationals, `n` or `n/d`), in the
    /// order the annotations mention them, then those of inferred invariants (a JSON object).
    #[serde(serialize_with = "ordered_map")]
    pub resource_variables: Vec<(String, String)>,
    /// Whether the values minimise the sum of the resource variables (checked exactly).
    pub optimal: Option<bool>,
    /// The bound the precondition gives at these values (`A or B` for a precondition with
    /// several disjuncts: each input meets one of them and costs at most its bound).
    pub bound: Option<String>,
    pub reason: Option<String>,
    pub source_file: Option<String>,
    /// The first line of the method's code.
    pub method_line: Option<u32>,
    /// Where the specification fails: source line and bytecode offset (when it fails at one).
    pub line: Option<u32>,
    pub offset: Option<u32>,
    pub invariants_inferred: Vec<InvariantCheck>,
    /// The outcome itself, for tests (not serialized).
    #[serde(skip)]
    pub outcome: Option<MethodOutcome>,
}

/// Pairs as a JSON object whose keys keep their order.
fn ordered_map<S: serde::Serializer>(pairs: &[(String, String)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// A malformed annotation or marker, to render as a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecDiagnostic {
    pub source_file: Option<String>,
    /// `Class.name(descriptor)`.
    pub method: String,
    /// The first line of the method's code (the annotations stand just above it).
    pub method_line: Option<u32>,
    pub role: Option<Role>,
    /// The annotation string, when the problem is in one.
    pub text: Option<String>,
    pub span: Option<Span>,
    pub offset: Option<u32>,
    pub line: Option<u32>,
    pub message: String,
}

/// The `check` report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CheckReport {
    pub version: u32,
    pub methods: Vec<MethodCheck>,
    #[serde(skip)]
    pub diagnostics: Vec<SpecDiagnostic>,
}

impl CheckReport {
    /// The exit code: 2 when an annotation is malformed, else 1 when a specification fails.
    pub fn exit_code(&self) -> u8 {
        if self.methods.iter().any(|m| m.status == CheckStatus::Error) {
            2
        } else if self.methods.iter().any(|m| m.status == CheckStatus::Failed) {
            1
        } else {
            0
        }
    }
}

/// The program as the proof search sees it.
struct View<'a> {
    inputs: HashMap<&'a str, &'a ClassFile>,
    classpath: Option<&'a ClassPath>,
    /// The program's classes and the class-path classes loaded so far (more are added as inlined
    /// library code reaches them).
    hierarchy: RefCell<Hierarchy>,
    specs: HashMap<MethodKey, SpecLookup>,
    code: RefCell<HashMap<MethodKey, Result<Arc<MethodIr>, String>>>,
    layouts: RefCell<HashMap<String, Option<Arc<ClassLayout>>>>,
}

impl View<'_> {
    fn class(&self, name: &str) -> Option<Arc<ClassFile>> {
        match self.inputs.get(name) {
            Some(class) => Some(Arc::new((*class).clone())),
            None => self.classpath.and_then(|cp| cp.get(name)),
        }
    }

    /// Adds a class-path class and its supertypes to the hierarchy if missing.
    fn ensure_loaded(&self, name: &str) {
        let mut pending = vec![name.to_owned()];
        // Supertype graphs are small; the bound only guards against corrupt input.
        for _ in 0..256 {
            let Some(next) = pending.pop() else { return };
            if self.hierarchy.borrow().class(&next).is_some() {
                continue;
            }
            let Some(class) = self.class(&next) else { continue };
            pending.extend(class.super_name.iter().cloned());
            pending.extend(class.interfaces.iter().cloned());
            self.hierarchy.borrow_mut().add(class_decl(&class));
        }
    }

    /// Whether a method is declared final or private, or its class final.
    fn cannot_be_overridden(&self, target: &jresa_analyses::hierarchy::Target) -> bool {
        let hierarchy = self.hierarchy.borrow();
        let Some(class) = hierarchy.class(&target.class) else {
            return false;
        };
        class.access & ACC_FINAL != 0
            || class
                .methods
                .iter()
                .find(|m| m.name == target.name && m.descriptor == target.descriptor)
                .is_some_and(|m| m.access & (ACC_FINAL | ACC_PRIVATE) != 0)
    }
}

impl ProgramView for View<'_> {
    fn code(&self, method: &MethodKey) -> Result<Arc<MethodIr>, String> {
        if let Some(cached) = self.code.borrow().get(method) {
            return cached.clone();
        }
        let result = (|| {
            let class = self
                .class(&method.class)
                .ok_or_else(|| format!("the class {} is not available", method.class.replace('/', ".")))?;
            let decl = class
                .methods
                .iter()
                .find(|m| m.name == method.name && m.descriptor == method.descriptor)
                .ok_or_else(|| format!("{method} does not exist"))?;
            lift_method(&class, decl)
                .map(Arc::new)
                .map_err(|error| format!("its code cannot be lifted ({error})"))
        })();
        self.code.borrow_mut().insert(method.clone(), result.clone());
        result
    }

    fn spec(&self, method: &MethodKey) -> SpecLookup {
        self.specs.get(method).cloned().unwrap_or(SpecLookup::None)
    }

    fn layout(&self, class: &str) -> Option<Arc<ClassLayout>> {
        if let Some(cached) = self.layouts.borrow().get(class) {
            return cached.clone();
        }
        let mut fields = Vec::new();
        let mut current = Some(class.to_owned());
        let mut found = false;
        // Superclass chains are short; the bound only guards against cycles in corrupt input.
        for _ in 0..64 {
            let Some(name) = current.take() else { break };
            let Some(decl) = self.class(&name) else {
                if !found {
                    self.layouts.borrow_mut().insert(class.to_owned(), None);
                    return None;
                }
                break;
            };
            found = true;
            for field in decl.fields.iter().filter(|f| f.access & ACC_STATIC == 0) {
                fields.push(FieldInfo {
                    key: FieldKey {
                        class: decl.name.clone(),
                        name: field.name.clone(),
                    },
                    descriptor: field.descriptor.clone(),
                });
            }
            current = decl.super_name.clone();
        }
        let layout = Some(Arc::new(ClassLayout {
            name: class.to_owned(),
            fields,
        }));
        self.layouts.borrow_mut().insert(class.to_owned(), layout.clone());
        layout
    }

    fn local_classes(&self, method: &MethodKey) -> Vec<(String, String)> {
        let Some(class) = self.class(&method.class) else {
            return Vec::new();
        };
        class
            .methods
            .iter()
            .find(|m| m.name == method.name && m.descriptor == method.descriptor)
            .and_then(|m| m.code.as_ref())
            .and_then(|code| code.as_ref().ok())
            .map(|code| {
                code.local_variables
                    .iter()
                    .filter_map(|local| descriptor_class(&local.descriptor).map(|class| (local.name.clone(), class)))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn resolve(&self, kind: CallKind, method: &MethodRef, exact_receiver: Option<&str>) -> Resolution {
        self.ensure_loaded(&method.class);
        if let Some(receiver) = exact_receiver {
            self.ensure_loaded(receiver);
        }
        let target = |t: &jresa_analyses::hierarchy::Target| {
            let native = self
                .hierarchy
                .borrow()
                .class(&t.class)
                .and_then(|c| {
                    c.methods
                        .iter()
                        .find(|m| m.name == t.name && m.descriptor == t.descriptor)
                })
                .is_some_and(|m| m.access & ACC_NATIVE != 0);
            Target {
                key: MethodKey::new(&t.class, &t.name, &t.descriptor),
                native,
                library: !self.inputs.contains_key(t.class.as_str()),
            }
        };
        if let Some(receiver) = exact_receiver {
            let selected = {
                let hierarchy = self.hierarchy.borrow();
                hierarchy
                    .resolve(&method.class, &method.name, &method.descriptor)
                    .and_then(|resolved| hierarchy.select(receiver, &resolved))
            };
            if let Some(selected) = selected {
                return Resolution::Unique(target(&selected));
            }
        }
        let dynamic = matches!(kind, CallKind::Virtual | CallKind::Interface);
        if dynamic && !self.inputs.contains_key(method.class.as_str()) {
            // The class path is open: a library class may have subclasses the analysis never
            // loads, so only a method nothing can override has a known target.
            let resolved = self
                .hierarchy
                .borrow()
                .resolve(&method.class, &method.name, &method.descriptor);
            return match resolved {
                Some(resolved) if self.cannot_be_overridden(&resolved) => Resolution::Unique(target(&resolved)),
                _ => {
                    Resolution::Unresolved("a library method that classes outside the program may override".to_owned())
                }
            };
        }
        let targets = self.hierarchy.borrow().targets(kind, method);
        if !targets.complete {
            return Resolution::Unresolved("some classes it may dispatch to are not available".to_owned());
        }
        match targets.targets.as_slice() {
            [] => Resolution::Unresolved("no method it may dispatch to is known".to_owned()),
            [one] => Resolution::Unique(target(one)),
            several => Resolution::Several(
                several
                    .iter()
                    .map(|t| MethodKey::new(&t.class, &t.name, &t.descriptor))
                    .collect(),
            ),
        }
    }

    fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        self.ensure_loaded(sub);
        self.ensure_loaded(sup);
        self.hierarchy.borrow().is_subtype(sub, sup)
    }

    fn is_closed_library_class(&self, class: &str) -> bool {
        !self.inputs.contains_key(class) && self.class(class).is_some_and(|c| c.access & ACC_FINAL != 0)
    }
}

/// Checks the annotated methods of `classes` that `select` accepts.
pub fn check(
    classes: &[ClassFile],
    classpath: Option<&ClassPath>,
    select: &dyn Fn(&ClassFile, &Method) -> bool,
) -> CheckReport {
    check_with_default(classes, classpath, select, None)
}

/// Like [`check`], with `default` standing for the annotations of every selected method with
/// code that has none (for robustness tests over unannotated programs).
pub fn check_with_default(
    classes: &[ClassFile],
    classpath: Option<&ClassPath>,
    select: &dyn Fn(&ClassFile, &Method) -> bool,
    default: Option<&MethodSpec>,
) -> CheckReport {
    let hierarchy = build_hierarchy(classes, classpath);
    let (specs, annotation_errors) = read_specs(classes, select, default);
    let view = View {
        inputs: classes.iter().map(|c| (c.name.as_str(), c)).collect(),
        classpath,
        hierarchy: RefCell::new(hierarchy),
        specs,
        code: RefCell::new(HashMap::new()),
        layouts: RefCell::new(HashMap::new()),
    };
    let mut session = Session::new(&view);
    let mut report = CheckReport {
        version: CHECK_REPORT_VERSION,
        methods: Vec::new(),
        diagnostics: Vec::new(),
    };
    for class in classes {
        for method in &class.methods {
            let key = MethodKey::new(&class.name, &method.name, &method.descriptor);
            let lookup = view.spec(&key);
            if matches!(lookup, SpecLookup::None) || !select(class, method) {
                continue;
            }
            let site = Site::new(class, method, &key);
            let entry = match annotation_errors.get(&key) {
                Some(errors) => malformed(&site, errors, &mut report.diagnostics),
                None => checked(&site, session.check(&key), &lookup, &mut report.diagnostics),
            };
            report.methods.push(entry);
        }
    }
    report
}

/// The specifications of the methods of `classes` (`default` for selected methods with code and
/// none), and the errors of malformed ones.
fn read_specs(
    classes: &[ClassFile],
    select: &dyn Fn(&ClassFile, &Method) -> bool,
    default: Option<&MethodSpec>,
) -> (HashMap<MethodKey, SpecLookup>, HashMap<MethodKey, Vec<AnnotationError>>) {
    let mut specs = HashMap::new();
    let mut annotation_errors: HashMap<MethodKey, Vec<AnnotationError>> = HashMap::new();
    for class in classes {
        for method in &class.methods {
            let key = MethodKey::new(&class.name, &method.name, &method.descriptor);
            match method_spec(method) {
                Ok(None) => {
                    if let Some(default) = default.filter(|_| method.code.is_some() && select(class, method)) {
                        specs.insert(key, SpecLookup::Some(Arc::new(default.clone())));
                    }
                }
                Ok(Some(spec)) => {
                    specs.insert(key, SpecLookup::Some(Arc::new(spec)));
                }
                Err(errors) => {
                    specs.insert(key.clone(), SpecLookup::Malformed);
                    annotation_errors.insert(key, errors);
                }
            }
        }
    }
    (specs, annotation_errors)
}

/// An annotated method being reported: where it is, for its entry and its diagnostics.
struct Site<'a> {
    class: &'a ClassFile,
    method: &'a Method,
    key: &'a MethodKey,
    /// The first line of the method's code.
    method_line: Option<u32>,
}

impl<'a> Site<'a> {
    fn new(class: &'a ClassFile, method: &'a Method, key: &'a MethodKey) -> Site<'a> {
        let method_line = method
            .code
            .as_ref()
            .and_then(|c| c.as_ref().ok())
            .and_then(|c| c.line_numbers.iter().map(|(_, line)| *line).min());
        Site {
            class,
            method,
            key,
            method_line,
        }
    }

    /// The method's entry with no verdict yet (`error`).
    fn entry(&self) -> MethodCheck {
        MethodCheck {
            class: self.class.name.replace('/', "."),
            name: self.method.name.clone(),
            descriptor: self.method.descriptor.clone(),
            status: CheckStatus::Error,
            resource_variables: Vec::new(),
            optimal: None,
            bound: None,
            reason: None,
            source_file: self.class.source_file.clone(),
            method_line: self.method_line,
            line: None,
            offset: None,
            invariants_inferred: Vec::new(),
            outcome: None,
        }
    }

    /// A diagnostic in the method (at `offset`, when given, with its source line).
    fn diagnostic(
        &self,
        role: Option<Role>,
        text: Option<String>,
        span: Option<Span>,
        offset: Option<u32>,
        message: String,
    ) -> SpecDiagnostic {
        let line = offset.and_then(|pc| {
            self.method.code.as_ref().and_then(|c| c.as_ref().ok()).and_then(|c| {
                c.line_numbers
                    .iter()
                    .take_while(|(start, _)| *start <= pc)
                    .last()
                    .map(|(_, line)| *line)
            })
        });
        SpecDiagnostic {
            source_file: self.class.source_file.clone(),
            method: self.key.to_string(),
            method_line: self.method_line,
            role,
            text,
            span,
            offset,
            line,
            message,
        }
    }
}

/// The entry of a method whose annotations are malformed, and a diagnostic per error.
fn malformed(site: &Site<'_>, errors: &[AnnotationError], diagnostics: &mut Vec<SpecDiagnostic>) -> MethodCheck {
    let mut entry = site.entry();
    entry.reason = errors.first().map(|e| format!("{}: {}", e.role, e.error.message));
    for error in errors {
        let text = (!error.text.is_empty()).then(|| error.text.clone());
        let span = text.as_ref().map(|_| error.error.span);
        diagnostics.push(site.diagnostic(Some(error.role), text, span, None, error.error.message.clone()));
    }
    entry
}

/// The entry of a checked method from the proof search's outcome, and a diagnostic per problem
/// it found in the annotations.
fn checked(
    site: &Site<'_>,
    outcome: MethodOutcome,
    lookup: &SpecLookup,
    diagnostics: &mut Vec<SpecDiagnostic>,
) -> MethodCheck {
    let spec = match lookup {
        SpecLookup::Some(spec) => Some(spec.clone()),
        _ => None,
    };
    for problem in &outcome.problems {
        let text = problem.role.and_then(|role| {
            let spec = spec.as_ref()?;
            match role {
                Role::Requires => spec.requires.as_ref().map(|a| a.text.clone()),
                Role::Ensures => spec.ensures.as_ref().map(|a| a.text.clone()),
                Role::Invariant(id) => spec.invariant(id).map(|a| a.text.clone()),
            }
        });
        let span = text.as_ref().and(problem.span);
        diagnostics.push(site.diagnostic(problem.role, text, span, problem.offset, problem.message.clone()));
    }
    let mut entry = site.entry();
    entry.status = outcome.status.into();
    entry.resource_variables = outcome
        .resource_variables
        .iter()
        .map(|(name, value)| (name.clone(), rational_text(value)))
        .collect();
    if entry.status.holds() {
        entry.optimal = (!outcome.resource_variables.is_empty()).then_some(outcome.optimal);
        entry.bound = (!outcome.bound.is_empty()).then(|| {
            outcome
                .bound
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        });
    }
    entry.reason = outcome.reason.clone();
    entry.line = outcome.line;
    entry.offset = outcome.offset;
    entry.invariants_inferred = outcome
        .invariants
        .iter()
        .map(|i| InvariantCheck {
            line: i.line,
            offset: i.offset,
            id: i.id,
            kind: if i.inferred { "invariant" } else { "facts" }.to_owned(),
            text: i.text.clone(),
        })
        .collect();
    entry.outcome = Some(outcome);
    entry
}
