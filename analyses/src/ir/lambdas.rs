//! `invokedynamic` sites linked by `LambdaMetafactory.metafactory`, spun as the JVM spins them: a
//! synthetic class per bootstrap method implements the functional interface, holds the captured
//! values in fields and implements the interface method by calling the implementation method. The
//! site becomes a call of the class's static `create`, which returns one shared instance for a
//! lambda that captures nothing (as HotSpot's constant call site does) and a new one otherwise.
//!
//! The synthetic methods execute no bytecode: HotSpot's lambda proxies are hidden classes, which the
//! profiler (and so the measured costs bounds are held to) never sees; only the implementation
//! method's bytecodes count. Argument conversions other than reference casts (boxing, unboxing,
//! widening) are not spun: such a site stays `invokedynamic`, which the VM refuses and the cost
//! analysis reports.
//!
//! The cost analysis and the validation VM share this spinning, so a bound and the counts it is
//! checked against see the same lambda classes: CHA finds them among the implementations of their
//! interface, and the analysis charges their factory and interface method what the VM executes.

use super::{parse_program, split_method_descriptor, CallKind, MethodIr, MethodRef, StmtKind};
use crate::hierarchy::{ClassDecl, FieldDecl, MethodDecl};
use std::collections::HashMap;
use std::fmt::Write as _;

/// A bootstrap method `LambdaMetafactory.metafactory(lookup, name, type, samMethodType,
/// implementation, instantiatedMethodType)`, by its static arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct LambdaBootstrap {
    /// The erased descriptor of the interface method.
    pub sam_descriptor: String,
    /// How the implementation is invoked: `invokestatic`, `invokevirtual`, `invokeinterface`,
    /// `invokespecial` or `newinvokespecial`.
    pub kind: String,
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

impl LambdaBootstrap {
    /// The lambda of a bootstrap method given as its rendered handle
    /// (`invokestatic owner.name:descriptor`) and its static arguments (a method type, a method
    /// handle, a method type); `None` for any other bootstrap method.
    pub fn from_metafactory(handle: &str, sam: Option<&str>, implementation: Option<&str>) -> Option<LambdaBootstrap> {
        if !handle.starts_with("invokestatic java/lang/invoke/LambdaMetafactory.metafactory:") {
            return None;
        }
        let (kind, member) = implementation?.split_once(' ')?;
        let (owner_name, descriptor) = member.split_once(':')?;
        let (class, name) = owner_name.rsplit_once('.')?;
        Some(LambdaBootstrap {
            sam_descriptor: sam?.to_owned(),
            kind: kind.to_owned(),
            class: class.to_owned(),
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
        })
    }
}

/// A field of a spun class.
#[derive(Clone, Debug, PartialEq)]
pub struct SpunField {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
}

/// `ACC_STATIC`, `ACC_FINAL`, `ACC_SYNTHETIC`.
const ACC_STATIC: u16 = 0x0008;
const ACC_FINAL: u16 = 0x0010;
const ACC_SYNTHETIC: u16 = 0x1000;

/// The name of the static factory of a lambda class.
pub const FACTORY: &str = "create";

/// A spun lambda class: its declaration (as call resolution sees it), its fields, whether its
/// caller is library code, and its methods' IR.
#[derive(Clone, Debug)]
pub struct LambdaClass {
    pub decl: ClassDecl,
    pub fields: Vec<SpunField>,
    pub library: bool,
    pub methods: HashMap<(String, String), MethodIr>,
}

/// The name of the lambda class of bootstrap method `index` of `caller`.
pub fn class_name(caller: &str, index: u16) -> String {
    format!("{caller}$$Lambda${index}")
}

/// The class whose `invokedynamic` site a lambda class (named by [`class_name`]) stands for.
pub fn host_class(lambda: &str) -> Option<&str> {
    lambda.rsplit_once("$$Lambda$").map(|(host, _)| host)
}

/// The IR type keyword of a field descriptor.
fn ir_type(descriptor: &str) -> &'static str {
    match descriptor.as_bytes().first() {
        Some(b'J') => "long",
        Some(b'F') => "float",
        Some(b'D') => "double",
        Some(b'L' | b'[') => "ref",
        _ => "int",
    }
}

fn is_reference(descriptor: &str) -> bool {
    descriptor.starts_with('L') || descriptor.starts_with('[')
}

/// The class a `checkcast` to reference type `descriptor` names.
fn cast_class(descriptor: &str) -> &str {
    descriptor
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .unwrap_or(descriptor)
}

/// Spins the class of the lambda site `name`/`site_descriptor` linked by `bootstrap` (index
/// `index` of `caller`, a library class when `library`); `Err` says why it cannot be spun.
pub fn spin(
    caller: &str,
    index: u16,
    library: bool,
    name: &str,
    site_descriptor: &str,
    bootstrap: &LambdaBootstrap,
) -> Result<LambdaClass, String> {
    let class = class_name(caller, index);
    let (captures, interface) = split_method_descriptor(site_descriptor).ok_or("malformed site descriptor")?;
    let interface = cast_class(interface).to_owned();
    let mut fields: Vec<SpunField> = captures
        .iter()
        .enumerate()
        .map(|(k, d)| SpunField {
            name: format!("c{k}"),
            descriptor: (*d).to_owned(),
            access: ACC_FINAL,
        })
        .collect();
    let mut text = factory(&class, site_descriptor, &captures);
    let mut methods = vec![(FACTORY.to_owned(), site_descriptor.to_owned(), ACC_STATIC)];
    if captures.is_empty() {
        fields.push(SpunField {
            name: "INSTANCE".into(),
            descriptor: format!("L{class};"),
            access: ACC_STATIC | ACC_FINAL,
        });
        text.push_str(&initializer(&class));
        methods.push(("<clinit>".into(), "()V".into(), ACC_STATIC));
    }
    text.push_str(&interface_method(&class, name, &captures, bootstrap)?);
    methods.push((name.to_owned(), bootstrap.sam_descriptor.clone(), 0));
    let program = parse_program(&text).map_err(|e| format!("spun lambda IR does not parse: {e:?}"))?;
    let decl = ClassDecl {
        name: class.clone(),
        super_name: Some("java/lang/Object".into()),
        interfaces: vec![interface],
        access: ACC_FINAL | ACC_SYNTHETIC,
        methods: methods
            .iter()
            .map(|(name, descriptor, access)| MethodDecl {
                name: name.clone(),
                descriptor: descriptor.clone(),
                access: *access,
                has_code: true,
            })
            .collect(),
        fields: fields
            .iter()
            .map(|f| FieldDecl {
                name: f.name.clone(),
                descriptor: f.descriptor.clone(),
                access: f.access,
            })
            .collect(),
    };
    let methods = program
        .methods
        .into_iter()
        .map(|m| ((m.name.clone(), m.descriptor.clone()), m))
        .collect();
    Ok(LambdaClass {
        decl,
        fields,
        library,
        methods,
    })
}

/// `create`: the shared instance, or a new one holding the captured values.
fn factory(class: &str, site_descriptor: &str, captures: &[&str]) -> String {
    let mut t = format!("method {class}.{FACTORY}:{site_descriptor} static\n  vars ret:ref t:ref");
    for (k, d) in captures.iter().enumerate() {
        let _ = write!(t, " c{k}:{}", ir_type(d));
    }
    let inputs: Vec<String> = (0..captures.len()).map(|k| format!("c{k}")).collect();
    let _ = write!(
        t,
        "\n  entry b0\n  proc b0({}; ret) block @0\n    rule bc=0\n",
        inputs.join(", ")
    );
    if captures.is_empty() {
        let _ = writeln!(t, "      @0#0 t = getstatic {class}.INSTANCE:L{class};");
    } else {
        let _ = writeln!(t, "      @0#0 t = new {class}");
        for (k, d) in captures.iter().enumerate() {
            let _ = writeln!(t, "      @0#0 putfield t, {class}.c{k}:{d}, c{k}");
        }
    }
    t.push_str("      @0#0 ret = t\n");
    t
}

/// `<clinit>` of a lambda that captures nothing: its one instance.
fn initializer(class: &str) -> String {
    format!(
        "method {class}.<clinit>:()V static\n  vars t:ref\n  entry b0\n  proc b0(; ) block @0\n    rule bc=0\n      @0#0 t = new {class}\n      @0#0 putstatic {class}.INSTANCE:L{class};, t\n"
    )
}

/// The interface method: the captured values and the arguments, cast where the implementation
/// wants a narrower reference type, passed to the implementation.
fn interface_method(class: &str, name: &str, captures: &[&str], b: &LambdaBootstrap) -> Result<String, String> {
    let (params, sam_return) = split_method_descriptor(&b.sam_descriptor).ok_or("malformed interface method type")?;
    let (impl_params, impl_return) = split_method_descriptor(&b.descriptor).ok_or("malformed implementation type")?;
    // The values passed, with their declared types: captured values first.
    let values: Vec<(String, &str)> = (0..captures.len())
        .map(|k| (format!("c{k}"), captures[k]))
        .chain(params.iter().enumerate().map(|(k, d)| (format!("p{k}"), *d)))
        .collect();
    let receiver = matches!(b.kind.as_str(), "invokevirtual" | "invokeinterface" | "invokespecial");
    let receiver_type = format!("L{};", b.class);
    let targets: Vec<&str> = if receiver {
        std::iter::once(receiver_type.as_str())
            .chain(impl_params.iter().copied())
            .collect()
    } else {
        impl_params.clone()
    };
    if targets.len() != values.len() {
        return Err(format!(
            "{}.{} takes {} values, the site passes {}",
            b.class,
            b.name,
            targets.len(),
            values.len()
        ));
    }
    let mut vars = String::from(" this:ref t:ref");
    let mut body = String::new();
    for (k, d) in captures.iter().enumerate() {
        let _ = write!(vars, " c{k}:{}", ir_type(d));
        let _ = writeln!(body, "      @0#0 c{k} = getfield this, {class}.c{k}:{d}");
    }
    for (k, d) in params.iter().enumerate() {
        let _ = write!(vars, " p{k}:{}", ir_type(d));
    }
    for ((value, from), to) in values.iter().zip(&targets) {
        match (is_reference(from), is_reference(to)) {
            (true, true) if from != to && *to != "Ljava/lang/Object;" => {
                let _ = writeln!(body, "      @0#0 checkcast {value}, {}", cast_class(to));
            }
            (true, true) => {}
            _ if from == to => {}
            _ => {
                return Err(format!(
                    "the lambda converts {from} to {to} (boxing, unboxing or widening)"
                ))
            }
        }
    }
    let produced = if b.kind == "newinvokespecial" {
        receiver_type.as_str()
    } else {
        impl_return
    };
    let returns = sam_return != "V";
    if returns && !(produced == sam_return || is_reference(produced) && is_reference(sam_return)) {
        return Err(format!("the lambda converts its result {produced} to {sam_return}"));
    }
    let args: Vec<&str> = values.iter().map(|(v, _)| v.as_str()).collect();
    let call = format!("{}.{}:{} ({})", b.class, b.name, b.descriptor, args.join(", "));
    let result = if returns { "r = " } else { "" };
    if returns {
        let _ = write!(vars, " r:{} ret:{}", ir_type(produced), ir_type(sam_return));
    }
    match b.kind.as_str() {
        "newinvokespecial" => {
            let _ = writeln!(body, "      @0#0 t = new {}", b.class);
            let with_receiver = std::iter::once("t")
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                body,
                "      @0#0 invokespecial {}.{}:{} ({with_receiver})",
                b.class, b.name, b.descriptor
            );
            if returns {
                body.push_str("      @0#0 r = t\n");
            }
        }
        "invokestatic" | "invokevirtual" | "invokeinterface" | "invokespecial" => {
            let _ = writeln!(body, "      @0#0 {result}{} {call}", b.kind);
        }
        other => return Err(format!("a lambda implemented by a `{other}` handle")),
    }
    if returns {
        body.push_str("      @0#0 ret = r\n");
    }
    let inputs: Vec<String> = std::iter::once("this".to_owned())
        .chain((0..params.len()).map(|k| format!("p{k}")))
        .collect();
    Ok(format!(
        "method {class}.{name}:{}\n  vars{vars}\n  entry b0\n  proc b0({}; {}) block @0\n    rule bc=0\n{body}",
        b.sam_descriptor,
        inputs.join(", "),
        if returns { "ret" } else { "" }
    ))
}

/// Spins into `spun` the lambda class of each `invokedynamic` of `ir` (a method of `caller`,
/// library code when `library`) that `LambdaMetafactory.metafactory` links, per `bootstraps` (the
/// caller's bootstrap methods by index); sites that cannot be spun are left out.
pub fn spin_sites(
    ir: &MethodIr,
    caller: &str,
    library: bool,
    bootstraps: &[Option<LambdaBootstrap>],
    spun: &mut HashMap<String, LambdaClass>,
) {
    for stmt in ir.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body) {
        if let StmtKind::InvokeDynamic {
            name,
            descriptor,
            bootstrap,
            ..
        } = &stmt.kind
        {
            spin_site(caller, library, name, descriptor, *bootstrap, bootstraps, spun);
        }
    }
}

/// Spins into `spun` the lambda class of one site (`name`, `descriptor`, `bootstrap`) of
/// `caller`, unless it is there already or the site is not a lambda that can be spun.
pub fn spin_site(
    caller: &str,
    library: bool,
    name: &str,
    descriptor: &str,
    bootstrap: u16,
    bootstraps: &[Option<LambdaBootstrap>],
    spun: &mut HashMap<String, LambdaClass>,
) {
    let Some(Some(lambda)) = bootstraps.get(bootstrap as usize) else {
        return;
    };
    let class = class_name(caller, bootstrap);
    if let std::collections::hash_map::Entry::Vacant(entry) = spun.entry(class) {
        if let Ok(lambda_class) = spin(caller, bootstrap, library, name, descriptor, lambda) {
            entry.insert(lambda_class);
        }
    }
}

/// Rewrites each `invokedynamic` of `ir` (a method of `caller`) whose lambda class is in `spun`
/// into a call of that class's factory; other sites stay as they are.
pub fn rewrite_sites(ir: &mut MethodIr, caller: &str, spun: &HashMap<String, LambdaClass>) {
    for stmt in ir.procs.iter_mut().flat_map(|p| &mut p.rules).flat_map(|r| &mut r.body) {
        let StmtKind::InvokeDynamic {
            dst,
            descriptor,
            bootstrap,
            args,
            ..
        } = &stmt.kind
        else {
            continue;
        };
        let class = class_name(caller, *bootstrap);
        if !spun.contains_key(&class) {
            continue;
        }
        stmt.kind = StmtKind::Invoke {
            dst: *dst,
            kind: CallKind::Static,
            interface: false,
            method: MethodRef {
                class,
                name: FACTORY.into(),
                descriptor: descriptor.clone(),
            },
            args: args.clone(),
        };
    }
}
