//! Discovery of what a package holds: the closure of the methods reachable from its roots, with
//! virtual and interface calls resolved by rapid type analysis (only classes that some packaged
//! code instantiates can be receivers), the classes they mention, and their string literals.
//!
//! **The closure is sound for what it packages: every call a packaged method can make at run time
//! either has its target packaged or is encoded as a refusal.** Receivers whose class escaped the
//! analysis find no dispatch entry, which the VM reports as a refusal, never as a wrong call.

use crate::natives::{self, Behaviour, Native};
use crate::source::{ClassInfo, ClassSource, FieldInfo, MethodInfo};
use jresa_analyses::hierarchy::{Hierarchy, Target};
use jresa_analyses::ir::exceptions;
use jresa_analyses::ir::lambdas::{self, LambdaClass};
use jresa_analyses::ir::{CallKind, Cond, FieldRef, MethodIr, Operand, StmtKind};
use jresa_analyses::treegraph::{schedule_method, MethodSchedule, ScheduleLimits};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::rc::Rc;

/// Methods a package holds at most; calls past this are refused.
pub const MAX_METHODS: usize = 40_000;

/// A method by declaring class, name and descriptor.
pub type MethodKey = (String, String, String);

/// What the VM runs for a method.
pub enum Body {
    /// Not processed yet.
    Pending,
    Code {
        ir: Box<MethodIr>,
        schedule: MethodSchedule,
    },
    Native(Native),
    Refused(String),
}

pub struct MethodEntry {
    pub key: MethodKey,
    /// The method whose code first required this one (`NONE` for roots and the VM's own needs).
    pub required_by: u32,
    pub body: Body,
    pub is_static: bool,
}

/// The kind of a class handle.
pub enum ClassKind {
    Normal(Rc<ClassInfo>),
    /// Not found on the class path.
    Missing,
    /// An array type; the name is its descriptor and `component` the component's class name.
    Array {
        component: String,
    },
    /// A primitive type (`int`, ...), for `Class` mirrors and array components.
    Primitive,
}

pub struct ClassEntry {
    /// Internal name, array descriptor, or primitive keyword.
    pub name: String,
    pub kind: ClassKind,
}

/// The result of discovery.
pub struct Closure {
    pub classes: Vec<ClassEntry>,
    pub class_index: HashMap<String, u32>,
    pub methods: Vec<MethodEntry>,
    pub method_index: HashMap<MethodKey, u32>,
    /// Resolved methods of virtual and interface calls.
    pub selectors: Vec<Target>,
    pub selector_index: HashMap<Target, u32>,
    /// (selector, receiver class) → selected method.
    pub dispatch: BTreeMap<(u32, u32), u32>,
    pub instantiated: Vec<u32>,
    instantiated_set: HashSet<u32>,
    /// Classes whose initialisation some packaged instruction triggers.
    pub initialized: HashSet<u32>,
    pub literals: Vec<Vec<u16>>,
    pub literal_index: HashMap<Vec<u16>, u32>,
    pub hierarchy: Hierarchy,
    queue: VecDeque<u32>,
    /// The method being scanned, which requires what is found.
    current: u32,
}

/// The component class name of an array descriptor (`[I` → `int`, `[[I` → `[I`,
/// `[Ljava/lang/String;` → `java/lang/String`), or `None` when malformed.
pub fn component_name(descriptor: &str) -> Option<String> {
    let rest = descriptor.strip_prefix('[')?;
    Some(match rest.as_bytes().first()? {
        b'[' => rest.to_owned(),
        b'L' => rest.strip_prefix('L')?.strip_suffix(';')?.to_owned(),
        _ => primitive_keyword(rest)?.to_owned(),
    })
}

/// The keyword of a primitive descriptor (`I` → `int`).
pub fn primitive_keyword(descriptor: &str) -> Option<&'static str> {
    Some(match descriptor {
        "Z" => "boolean",
        "B" => "byte",
        "C" => "char",
        "S" => "short",
        "I" => "int",
        "J" => "long",
        "F" => "float",
        "D" => "double",
        "V" => "void",
        _ => return None,
    })
}

/// The class name a field descriptor of reference type denotes (`Ljava/lang/String;` →
/// `java/lang/String`, `[I` → `[I`).
pub fn class_of_descriptor(descriptor: &str) -> Option<String> {
    if descriptor.starts_with('[') {
        Some(descriptor.to_owned())
    } else {
        descriptor
            .strip_prefix('L')
            .and_then(|d| d.strip_suffix(';'))
            .map(str::to_owned)
    }
}

impl Closure {
    fn new() -> Closure {
        Closure {
            classes: Vec::new(),
            class_index: HashMap::new(),
            methods: Vec::new(),
            method_index: HashMap::new(),
            selectors: Vec::new(),
            selector_index: HashMap::new(),
            dispatch: BTreeMap::new(),
            instantiated: Vec::new(),
            instantiated_set: HashSet::new(),
            initialized: HashSet::new(),
            literals: Vec::new(),
            literal_index: HashMap::new(),
            hierarchy: Hierarchy::default(),
            queue: VecDeque::new(),
            current: crate::isa::NONE,
        }
    }

    /// The class info of a handle, when it is a normal class.
    pub fn info(&self, handle: u32) -> Option<&Rc<ClassInfo>> {
        match &self.classes[handle as usize].kind {
            ClassKind::Normal(info) => Some(info),
            _ => None,
        }
    }

    /// The info of a class by name, when it has a handle and was found.
    pub fn info_by_name(&self, name: &str) -> Option<&Rc<ClassInfo>> {
        self.class_index.get(name).and_then(|&h| self.info(h))
    }

    /// Whether class `sub` (a normal class name) is `sup` or a subtype of it.
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        self.hierarchy.is_subtype(sub, sup)
    }

    /// JVMS field resolution: the class, its superinterfaces, then its superclass. Returns the
    /// declaring class's name.
    pub fn resolve_field(&self, class: &str, name: &str, descriptor: &str) -> Option<String> {
        let mut seen = HashSet::new();
        self.resolve_field_in(class, name, descriptor, &mut seen)
    }

    fn resolve_field_in(
        &self,
        class: &str,
        name: &str,
        descriptor: &str,
        seen: &mut HashSet<String>,
    ) -> Option<String> {
        if !seen.insert(class.to_owned()) {
            return None;
        }
        let info = self.info_by_name(class)?;
        if info.fields.iter().any(|f| f.name == name && f.descriptor == descriptor) {
            return Some(info.name.clone());
        }
        for interface in &info.interfaces {
            if let Some(found) = self.resolve_field_in(interface, name, descriptor, seen) {
                return Some(found);
            }
        }
        let super_name = info.super_name.clone()?;
        self.resolve_field_in(&super_name, name, descriptor, seen)
    }

    /// JVMS method resolution (arrays resolve in `java.lang.Object`).
    pub fn resolve_method(&self, class: &str, name: &str, descriptor: &str) -> Option<Target> {
        let class = if class.starts_with('[') {
            "java/lang/Object"
        } else {
            class
        };
        let resolved = self.hierarchy.resolve(class, name, descriptor);
        if resolved.is_none()
            && jresa_analyses::cost_model::is_spec_marker(class, name)
            && self.info_by_name(class).is_none()
        {
            // A marker whose class is missing: `body` runs it as a method that only returns.
            return Some(Target {
                class: class.to_owned(),
                name: name.to_owned(),
                descriptor: descriptor.to_owned(),
            });
        }
        resolved
    }

    /// JVM selection (JVMS 5.4.6) of the method a receiver of class `receiver` runs for the
    /// resolved method `target`: the first declaration in the class or its superclasses (native
    /// methods included; an abstract one selects nothing), else the maximally specific default
    /// method of its superinterfaces.
    pub fn select(&self, receiver: &str, target: &Target) -> Option<Target> {
        let mut seen = HashSet::new();
        let mut current = Some(receiver.to_owned());
        while let Some(name) = current {
            if !seen.insert(name.clone()) {
                break;
            }
            let info = self.info_by_name(&name)?;
            if let Some(method) = info.method(&target.name, &target.descriptor) {
                let private = method.access & 0x0002 != 0;
                if !method.is_static() && !private {
                    if method.is_abstract() {
                        return None;
                    }
                    return Some(Target {
                        class: name,
                        name: method.name.clone(),
                        descriptor: method.descriptor.clone(),
                    });
                }
            }
            current = info.super_name.clone();
        }
        self.hierarchy.select(receiver, target)
    }

    /// The classes whose initialisation initialising `handle` runs, in order (JVMS 5.5): for a
    /// class, its superclass's list, then its superinterfaces that declare non-abstract, non-static
    /// methods (each interface's superinterfaces first), then itself; for an interface, itself.
    pub fn init_chain(&self, handle: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        self.init_chain_into(handle, &mut out, &mut seen);
        out
    }

    fn init_chain_into(&self, handle: u32, out: &mut Vec<u32>, seen: &mut HashSet<u32>) {
        let Some(info) = self.info(handle).cloned() else {
            return;
        };
        if info.is_interface() {
            if seen.insert(handle) {
                out.push(handle);
            }
            return;
        }
        if let Some(super_handle) = info.super_name.as_ref().and_then(|s| self.class_index.get(s)) {
            self.init_chain_into(*super_handle, out, seen);
        }
        for interface in &info.interfaces {
            self.default_interfaces(interface, out, seen);
        }
        if seen.insert(handle) {
            out.push(handle);
        }
    }

    fn default_interfaces(&self, name: &str, out: &mut Vec<u32>, seen: &mut HashSet<u32>) {
        let Some(&handle) = self.class_index.get(name) else {
            return;
        };
        let Some(info) = self.info(handle).cloned() else {
            return;
        };
        for interface in &info.interfaces {
            self.default_interfaces(interface, out, seen);
        }
        let has_default = info.methods.iter().any(|m| !m.is_abstract() && !m.is_static());
        if has_default && seen.insert(handle) {
            out.push(handle);
        }
    }
}

/// Builds the closure of `roots`.
pub fn discover(source: &dyn ClassSource, roots: &[MethodKey]) -> Closure {
    let mut discovery = Discovery {
        source,
        closure: Closure::new(),
        limits: ScheduleLimits::deterministic(),
        lambdas: HashMap::new(),
    };
    discovery.start(roots);
    discovery.run();
    discovery.closure
}

struct Discovery<'s> {
    source: &'s dyn ClassSource,
    closure: Closure,
    limits: ScheduleLimits,
    /// The lambda classes spun for `invokedynamic` sites, by name.
    lambdas: HashMap<String, LambdaClass>,
}

impl Discovery<'_> {
    fn start(&mut self, roots: &[MethodKey]) {
        for name in ["java/lang/Object", "java/lang/String", "java/lang/Class", "[B"] {
            let handle = self.class_handle(name);
            self.instantiate(handle);
        }
        for &(class, descriptor) in exceptions::CONSTRUCTORS {
            let handle = self.class_handle(class);
            self.instantiate(handle);
            self.method(&(class.to_owned(), "<init>".to_owned(), descriptor.to_owned()));
        }
        let mut inputs = Vec::new();
        for root in roots {
            let handle = self.class_handle(&root.0);
            self.require_init(handle);
            self.method(root);
            // Receivers are built as instances of the root's class or of a program subclass (the
            // roots' classes), and other inputs as instances of the parameters' classes.
            inputs.push(root.0.clone());
            if let Some((params, _)) = split_descriptor(&root.2) {
                for param in params {
                    if let Some(class) = class_of_descriptor(&param) {
                        let handle = self.class_handle(&class);
                        self.instantiate_with_components(handle);
                        inputs.push(class);
                    }
                }
            }
        }
        self.instantiate_inputs(inputs);
    }

    /// Marks instantiated the concrete program classes that generated inputs may hold: the given
    /// classes and, transitively, the classes of their instance fields.
    fn instantiate_inputs(&mut self, mut pending: Vec<String>) {
        let mut seen = std::collections::HashSet::new();
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(info) = self.source.class(&name) else { continue };
            if info.library {
                continue;
            }
            if info.access & (crate::source::ACC_ABSTRACT | crate::source::ACC_INTERFACE) == 0 {
                let handle = self.class_handle(&name);
                self.instantiate(handle);
            }
            let mut class = Some(info);
            while let Some(current) = class.take().filter(|c| !c.library) {
                for field in current.fields.iter().filter(|f| !f.is_static()) {
                    if let Some(target) = class_of_descriptor(&field.descriptor).filter(|t| !t.starts_with('[')) {
                        pending.push(target);
                    }
                }
                class = current.super_name.as_deref().and_then(|s| self.source.class(s));
            }
        }
    }

    /// Marks an array type and its component arrays instantiated (inputs may hold any of them).
    fn instantiate_with_components(&mut self, handle: u32) {
        self.instantiate(handle);
        let name = self.closure.classes[handle as usize].name.clone();
        if let Some(component) = component_name(&name) {
            if component.starts_with('[') {
                let component_handle = self.class_handle(&component);
                self.instantiate_with_components(component_handle);
            }
        }
    }

    fn run(&mut self) {
        while let Some(id) = self.closure.queue.pop_front() {
            let body = self.body(id);
            if let Body::Code { ir, .. } = &body {
                let ir = ir.clone();
                self.closure.current = id;
                self.scan(&ir);
                self.closure.current = crate::isa::NONE;
            }
            self.closure.methods[id as usize].body = body;
        }
    }

    /// The handle of a class, array type or primitive type, registering it (and for classes, their
    /// supertypes) on first use.
    fn class_handle(&mut self, name: &str) -> u32 {
        if let Some(&handle) = self.closure.class_index.get(name) {
            return handle;
        }
        let handle = self.closure.classes.len() as u32;
        self.closure.class_index.insert(name.to_owned(), handle);
        let is_primitive = [
            "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
        ]
        .contains(&name);
        let kind = if let Some(component) = component_name(name) {
            ClassKind::Array { component }
        } else if is_primitive {
            ClassKind::Primitive
        } else {
            let spun = self.lambdas.get(name).map(spun_info);
            match spun.or_else(|| self.source.class(name)) {
                Some(info) => ClassKind::Normal(Rc::new(info)),
                None => ClassKind::Missing,
            }
        };
        self.closure.classes.push(ClassEntry {
            name: name.to_owned(),
            kind,
        });
        match &self.closure.classes[handle as usize].kind {
            ClassKind::Normal(info) => {
                let info = info.clone();
                self.closure.hierarchy.add(info.decl());
                if let Some(super_name) = &info.super_name {
                    self.class_handle(super_name);
                }
                for interface in &info.interfaces {
                    self.class_handle(interface);
                }
            }
            ClassKind::Array { component } => {
                let component = component.clone();
                self.class_handle(&component);
                for name in ["java/lang/Object", "java/lang/Cloneable", "java/io/Serializable"] {
                    self.class_handle(name);
                }
            }
            ClassKind::Primitive | ClassKind::Missing => {}
        }
        handle
    }

    fn method(&mut self, key: &MethodKey) -> u32 {
        if let Some(&id) = self.closure.method_index.get(key) {
            return id;
        }
        let id = self.closure.methods.len() as u32;
        let is_static = self
            .closure
            .info_by_name(&key.0)
            .and_then(|info| info.method(&key.1, &key.2))
            .is_some_and(|m| m.is_static())
            || jresa_analyses::cost_model::is_spec_marker(&key.0, &key.1);
        self.closure.method_index.insert(key.clone(), id);
        self.closure.methods.push(MethodEntry {
            key: key.clone(),
            required_by: self.closure.current,
            body: Body::Pending,
            is_static,
        });
        self.closure.queue.push_back(id);
        id
    }

    fn method_of_target(&mut self, target: &Target) -> u32 {
        self.method(&(target.class.clone(), target.name.clone(), target.descriptor.clone()))
    }

    fn instantiate(&mut self, handle: u32) {
        if !self.closure.instantiated_set.insert(handle) {
            return;
        }
        self.closure.instantiated.push(handle);
        for selector in 0..self.closure.selectors.len() as u32 {
            self.try_dispatch(selector, handle);
        }
    }

    fn selector(&mut self, target: Target) -> u32 {
        if let Some(&id) = self.closure.selector_index.get(&target) {
            return id;
        }
        let id = self.closure.selectors.len() as u32;
        self.closure.selector_index.insert(target.clone(), id);
        self.closure.selectors.push(target);
        let receivers = self.closure.instantiated.clone();
        for receiver in receivers {
            self.try_dispatch(id, receiver);
        }
        id
    }

    /// Records what a receiver of class `receiver` runs for `selector`, if it can be one.
    fn try_dispatch(&mut self, selector: u32, receiver: u32) {
        let target = self.closure.selectors[selector as usize].clone();
        let entry = &self.closure.classes[receiver as usize];
        let selected = match &entry.kind {
            ClassKind::Array { .. } => (target.class == "java/lang/Object").then(|| target.clone()),
            ClassKind::Normal(info) => {
                if info.is_interface() || !self.closure.is_subtype(&info.name, &target.class) {
                    return;
                }
                let name = info.name.clone();
                self.closure.select(&name, &target)
            }
            ClassKind::Missing | ClassKind::Primitive => None,
        };
        if let Some(selected) = selected {
            let method = self.method_of_target(&selected);
            self.closure.dispatch.insert((selector, receiver), method);
        }
    }

    /// Requires the initialisation of a class: its initialisers and those of its chain.
    fn require_init(&mut self, handle: u32) {
        if !self.closure.initialized.insert(handle) {
            return;
        }
        for class in self.closure.init_chain(handle) {
            self.closure.initialized.insert(class);
            let Some(info) = self.closure.info(class).cloned() else {
                continue;
            };
            if info.method("<clinit>", "()V").is_some() {
                self.method(&(info.name.clone(), "<clinit>".into(), "()V".into()));
            }
        }
    }

    fn literal(&mut self, text: &str) {
        let units: Vec<u16> = text.encode_utf16().collect();
        if !self.closure.literal_index.contains_key(&units) {
            self.closure
                .literal_index
                .insert(units.clone(), self.closure.literals.len() as u32);
            self.closure.literals.push(units);
        }
    }

    /// What the VM runs for method `id`.
    fn body(&mut self, id: u32) -> Body {
        let (class, name, descriptor) = self.closure.methods[id as usize].key.clone();
        let display = format!("{}.{}{}", class.replace('/', "."), name, descriptor);
        if self.closure.methods.len() > MAX_METHODS {
            return Body::Refused(format!(
                "{display} is past the package's budget of {MAX_METHODS} methods"
            ));
        }
        let marker = jresa_analyses::cost_model::is_spec_marker(&class, &name);
        if marker && self.closure.info_by_name(&class).is_none() {
            // The marker classes need not be on the class path: their methods only return.
            return Body::Native(Native::NoOp);
        }
        match natives::lookup(&class, &name, &descriptor) {
            Some(Behaviour::Run(native)) => return Body::Native(native),
            Some(Behaviour::Refuse(reason)) => return Body::Refused(format!("{display}: {reason}")),
            None => {}
        }
        if let Some(reason) = natives::unsupported(&class) {
            return Body::Refused(format!("{display}: {reason}"));
        }
        let Some(info) = self.closure.info_by_name(&class).cloned() else {
            return Body::Refused(format!("class {} is not on the class path", class.replace('/', ".")));
        };
        let Some(method) = info.method(&name, &descriptor) else {
            return Body::Refused(format!("no method {display}"));
        };
        if method.is_native() {
            return Body::Refused(format!("native method {display} is not implemented by the VM"));
        }
        if method.is_abstract() || !method.has_code {
            return Body::Refused(format!("{display} has no code"));
        }
        let lifted = match self.lambdas.get(&class) {
            Some(spun) => spun
                .methods
                .get(&(name.clone(), descriptor.clone()))
                .cloned()
                .ok_or_else(|| format!("no method {display}")),
            None => self.source.method_ir(&class, &name, &descriptor),
        };
        match lifted {
            Err(error) => Body::Refused(format!("{display} cannot be lifted: {error}")),
            Ok(mut ir) => {
                self.spin_lambdas(&info, &mut ir);
                // The encoder relies on well-typed IR: a method that fails verification is never run.
                let errors = jresa_analyses::ir::verify_method(&ir);
                if let Some(first) = errors.first() {
                    return Body::Refused(format!("{display}: its IR fails verification: {first}"));
                }
                let schedule = schedule_method(&ir, &self.limits);
                Body::Code {
                    ir: Box::new(ir),
                    schedule,
                }
            }
        }
    }

    /// Rewrites each `invokedynamic` of `ir` that `LambdaMetafactory.metafactory` links into a
    /// call of its spun lambda class's factory (see `lambdas`); other sites stay as they are.
    fn spin_lambdas(&mut self, info: &ClassInfo, ir: &mut MethodIr) {
        lambdas::spin_sites(ir, &info.name, info.library, &info.lambdas, &mut self.lambdas);
        lambdas::rewrite_sites(ir, &info.name, &self.lambdas);
    }

    fn operand(&mut self, operand: &Operand) {
        match operand {
            Operand::Str(text) => self.literal(text),
            Operand::Class(name) => {
                self.class_handle(name);
            }
            _ => {}
        }
    }

    fn field(&mut self, field: &FieldRef) -> Option<u32> {
        self.class_handle(&field.class);
        if let Some(class) = class_of_descriptor(&field.descriptor) {
            self.class_handle(&class);
        }
        let declaring = self
            .closure
            .resolve_field(&field.class, &field.name, &field.descriptor)?;
        Some(self.class_handle(&declaring))
    }

    /// Registers everything a lifted method refers to.
    fn scan(&mut self, ir: &MethodIr) {
        for proc in &ir.procs {
            for rule in &proc.rules {
                for cond in &rule.guard {
                    match cond {
                        Cond::Cmp { lhs, rhs, .. } => {
                            self.operand(lhs);
                            self.operand(rhs);
                        }
                        Cond::InstanceOf { value, class, .. } => {
                            self.operand(value);
                            self.class_handle(class);
                        }
                    }
                }
                for stmt in &rule.body {
                    for operand in stmt.kind.uses() {
                        self.operand(operand);
                    }
                    if let Some(edge) = &stmt.handler {
                        for operand in &edge.args {
                            self.operand(operand);
                        }
                    }
                    self.statement(&stmt.kind);
                }
            }
        }
    }

    fn statement(&mut self, kind: &StmtKind) {
        match kind {
            StmtKind::GetField { field, .. } | StmtKind::PutField { field, .. } => {
                self.field(field);
            }
            StmtKind::GetStatic { field, .. } | StmtKind::PutStatic { field, .. } => {
                if let Some(declaring) = self.field(field) {
                    self.require_init(declaring);
                }
            }
            StmtKind::New { class, .. } => {
                let handle = self.class_handle(class);
                self.instantiate(handle);
                self.require_init(handle);
            }
            StmtKind::NewArray { elem, .. } => {
                let descriptor = format!("[{}", prim_descriptor(elem.keyword()));
                let handle = self.class_handle(&descriptor);
                self.instantiate(handle);
            }
            StmtKind::NewRefArray { class, .. } => {
                let descriptor = array_of(class);
                let handle = self.class_handle(&descriptor);
                self.instantiate(handle);
            }
            StmtKind::NewMultiArray {
                descriptor, lengths, ..
            } => {
                let mut current = descriptor.clone();
                for _ in 0..lengths.len() {
                    let handle = self.class_handle(&current);
                    self.instantiate(handle);
                    match component_name(&current) {
                        Some(component) if component.starts_with('[') => current = component,
                        _ => break,
                    }
                }
            }
            StmtKind::CheckCast { class, .. } | StmtKind::InstanceOf { class, .. } => {
                self.class_handle(class);
            }
            StmtKind::Invoke { kind, method, .. } => {
                let class = if method.class.starts_with('[') {
                    "java/lang/Object"
                } else {
                    method.class.as_str()
                };
                self.class_handle(class);
                let Some(target) = self.closure.resolve_method(class, &method.name, &method.descriptor) else {
                    return;
                };
                let private = self
                    .closure
                    .info_by_name(&target.class)
                    .and_then(|info| info.method(&target.name, &target.descriptor))
                    .is_some_and(|m| m.access & 0x0002 != 0);
                match kind {
                    CallKind::Static => {
                        let declaring = self.class_handle(&target.class);
                        self.require_init(declaring);
                        self.method_of_target(&target);
                    }
                    CallKind::Special => {
                        self.method_of_target(&target);
                    }
                    CallKind::Virtual | CallKind::Interface if private => {
                        self.method_of_target(&target);
                    }
                    CallKind::Virtual | CallKind::Interface => {
                        self.selector(target);
                    }
                }
                if let Some(Behaviour::Run(native)) = natives::lookup(&method.class, &method.name, &method.descriptor) {
                    self.native_needs(native);
                }
            }
            _ => {}
        }
    }

    /// Classes a native may create instances of.
    fn native_needs(&mut self, native: Native) {
        if native == Native::ClassGetPrimitiveClass {
            for name in [
                "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
            ] {
                self.class_handle(name);
            }
        }
    }
}

/// The descriptor of an array of `class` (an internal name or an array descriptor).
pub fn array_of(class: &str) -> String {
    if class.starts_with('[') {
        format!("[{class}")
    } else {
        format!("[L{class};")
    }
}

/// The descriptor letter of a primitive keyword.
pub fn prim_descriptor(keyword: &str) -> &'static str {
    match keyword {
        "boolean" => "Z",
        "byte" => "B",
        "char" => "C",
        "short" => "S",
        "int" => "I",
        "long" => "J",
        "float" => "F",
        "double" => "D",
        _ => "V",
    }
}

/// The parameter descriptors and the return descriptor of a method descriptor.
pub fn split_descriptor(descriptor: &str) -> Option<(Vec<String>, String)> {
    let (params, ret) = jresa_analyses::ir::split_method_descriptor(descriptor)?;
    Some((params.into_iter().map(str::to_owned).collect(), ret.to_owned()))
}

/// What the packager sees of a spun lambda class.
fn spun_info(lambda: &LambdaClass) -> ClassInfo {
    ClassInfo {
        name: lambda.decl.name.clone(),
        super_name: lambda.decl.super_name.clone(),
        interfaces: lambda.decl.interfaces.clone(),
        access: lambda.decl.access,
        fields: lambda
            .fields
            .iter()
            .map(|f| FieldInfo {
                name: f.name.clone(),
                descriptor: f.descriptor.clone(),
                access: f.access,
                constant: None,
            })
            .collect(),
        methods: lambda
            .decl
            .methods
            .iter()
            .map(|m| MethodInfo {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                access: m.access,
                has_code: m.has_code,
            })
            .collect(),
        library: lambda.library,
        lambdas: Vec::new(),
    }
}
