//! Resolution of parsed assertions against a method: names of parameters, loop variables and
//! existentials become positions, heap predicates get the class and fields that build them, and
//! resource expressions become linear expressions over the LP's variables. Every problem is a
//! [`SpecError`] with the span it concerns.

use super::assertion::{
    Assertion, Assertions, ClassName, DataOp, HeapAssertion, LinearExpr, Span, SpecError, Term, TermKind, TypeName,
};
use super::program::{list_link, tree_link, FieldKey, ListLink, MethodKey, ProgramView, TreeLink};
use super::resource::{ResExpr, ResourceVariables};
use super::spec::Role;
use crate::ir::Ty;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::sync::Arc;

/// A term with names resolved: a parameter's entry value, a loop-head variable (by position in
/// the loop procedure's inputs), the return value, an existential, or `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RTerm {
    Arg(usize),
    Var(usize),
    Ret,
    Exists(usize),
    Null,
}

/// A resolved `==` / `!=` fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RFact {
    pub lhs: RTerm,
    pub equal: bool,
    pub rhs: RTerm,
    pub text: String,
}

/// A resolved heap assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RHeap {
    Field {
        object: RTerm,
        field: FieldKey,
        value: Option<RTerm>,
        text: String,
    },
    Lseg {
        potential: ResExpr,
        from: RTerm,
        to: RTerm,
        link: Arc<ListLink>,
        text: String,
    },
    Tree {
        potential: ResExpr,
        root: RTerm,
        link: Arc<TreeLink>,
        text: String,
    },
}

impl RHeap {
    pub fn text(&self) -> &str {
        match self {
            RHeap::Field { text, .. } | RHeap::Lseg { text, .. } | RHeap::Tree { text, .. } => text,
        }
    }
}

/// One resolved disjunct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RConj {
    pub facts: Vec<RFact>,
    pub heap: Vec<RHeap>,
    pub pool: ResExpr,
}

/// A resolved annotation: the number of existentials (declared ones first, then one per loop
/// variable that is dead at the loop head) and the disjuncts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RAssertions {
    pub exists: Vec<Ty>,
    /// The existentials' names, in the order of `exists`.
    pub exists_names: Vec<String>,
    pub disjuncts: Vec<RConj>,
    pub text: String,
}

impl RAssertions {
    /// The parameters (`@arg x`, by position) the assertion names.
    pub fn arg_positions(&self) -> Vec<usize> {
        let mut positions = Vec::new();
        let mut add = |term: RTerm| {
            if let RTerm::Arg(k) = term {
                if !positions.contains(&k) {
                    positions.push(k);
                }
            }
        };
        for conj in &self.disjuncts {
            for fact in &conj.facts {
                add(fact.lhs);
                add(fact.rhs);
            }
            for heap in &conj.heap {
                match heap {
                    RHeap::Field { object, value, .. } => {
                        add(*object);
                        if let Some(value) = value {
                            add(*value);
                        }
                    }
                    RHeap::Lseg { from, to, .. } => {
                        add(*from);
                        add(*to);
                    }
                    RHeap::Tree { root, .. } => add(*root),
                }
            }
        }
        positions
    }
}

/// A parameter of the method: its name (from the `LocalVariableTable`), type and class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    pub class: Option<String>,
}

/// What the names of an annotation can refer to.
pub struct Scope<'a> {
    pub method: &'a MethodKey,
    pub role: Role,
    pub params: &'a [Param],
    /// The return type and class; `None` for `void`.
    pub ret: Option<(Ty, Option<String>)>,
    /// For an invariant: the loop procedure's inputs, by base name and type.
    pub loop_inputs: Option<&'a [(String, Ty)]>,
    /// The base names of every variable of the method (to tell a dead local from a typo).
    pub locals: &'a [String],
    /// Classes a heap predicate may be about when its terms do not say.
    pub context_classes: &'a [String],
    /// The declared class of each named local variable that has one (from the
    /// `LocalVariableTable`): a name declared with several classes is left out.
    pub local_classes: &'a [(String, String)],
}

/// A resolved annotation with the resource expressions written in it (which must not be
/// negative), each with its text.
pub type Resolved = (RAssertions, Vec<(ResExpr, String)>);

/// Resolves `assertions` in `scope`. Also returns the resource expressions written in them,
/// which must not be negative (with their text).
pub fn resolve(
    assertions: &Assertions,
    scope: &Scope<'_>,
    view: &dyn ProgramView,
    variables: &mut ResourceVariables,
) -> Result<Resolved, Vec<SpecError>> {
    let mut resolver = Resolver {
        scope,
        view,
        variables,
        exists: assertions
            .exists
            .iter()
            .map(|v| (v.name.clone(), ty_of(v.ty)))
            .collect(),
        exists_classes: vec![None; assertions.exists.len()],
        dead: Vec::new(),
        errors: Vec::new(),
        amounts: Vec::new(),
    };
    let declared = resolver.exists.len();
    for (k, var) in assertions.exists.iter().enumerate() {
        if let Some(class) = &var.class {
            resolver.exists_classes[k] = resolver.named_class(class);
        }
    }
    resolver.classes_from_fields(assertions);
    let disjuncts: Vec<RConj> = assertions.disjuncts.iter().map(|d| resolver.conj(d)).collect();
    if !resolver.errors.is_empty() {
        return Err(resolver.errors);
    }
    let mut exists: Vec<Ty> = resolver.exists.iter().map(|(_, t)| *t).collect();
    exists.extend(resolver.dead.iter().map(|(_, t)| *t));
    let mut exists_names: Vec<String> = resolver.exists.iter().map(|(n, _)| n.clone()).collect();
    exists_names.extend(resolver.dead.iter().map(|(n, _)| format!("@var {n}")));
    debug_assert!(exists.len() >= declared);
    Ok((
        RAssertions {
            exists,
            exists_names,
            disjuncts,
            text: assertions.to_string(),
        },
        resolver.amounts,
    ))
}

fn ty_of(name: TypeName) -> Ty {
    match name {
        TypeName::Int => Ty::Int,
        TypeName::Long => Ty::Long,
        TypeName::Float => Ty::Float,
        TypeName::Double => Ty::Double,
        TypeName::Ref => Ty::Ref,
    }
}

/// A type keyword with its indefinite article: `an int`, `a ref`.
fn article(keyword: &str) -> String {
    if keyword.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {keyword}")
    } else {
        format!("a {keyword}")
    }
}

/// The base of a lifted variable's name: `t` for `t`, `t#2`, `t.1` and `t.out`.
pub fn base_name(name: &str) -> &str {
    let end = name.find(['#', '.']).unwrap_or(name.len());
    &name[..end]
}

/// The class of a reference descriptor `Lpkg/C;`.
pub fn descriptor_class(descriptor: &str) -> Option<String> {
    descriptor
        .strip_prefix('L')
        .and_then(|rest| rest.strip_suffix(';'))
        .map(str::to_owned)
}

/// The classes a heap predicate may be about, and a term with a declared class (its text and
/// class), for the error when none fits.
struct Candidates<T> {
    found: Vec<(String, T)>,
    declared: Option<(String, String)>,
}

struct Resolver<'a, 'b> {
    scope: &'a Scope<'b>,
    view: &'a dyn ProgramView,
    variables: &'a mut ResourceVariables,
    exists: Vec<(String, Ty)>,
    /// The class of each declared existential, when known: written in the `exists` clause, or
    /// the declared class of a field a field assertion stores it in.
    exists_classes: Vec<Option<String>>,
    /// Loop variables named in an invariant but dead at the loop head: existentials.
    dead: Vec<(String, Ty)>,
    errors: Vec<SpecError>,
    amounts: Vec<(ResExpr, String)>,
}

impl Resolver<'_, '_> {
    fn error(&mut self, message: impl Into<String>, span: Span) {
        self.errors.push(SpecError::new(message, span));
    }

    fn conj(&mut self, assertion: &Assertion) -> RConj {
        let mut facts = Vec::new();
        for data in &assertion.data {
            let lhs = self.term(&data.lhs);
            let rhs = self.term(&data.rhs);
            if let (Some((lhs, lt)), Some((rhs, rt))) = (lhs, rhs) {
                if lt != rt {
                    self.error(
                        format!(
                            "`{}` compares {} with {}",
                            data,
                            article(lt.keyword()),
                            article(rt.keyword())
                        ),
                        data.span,
                    );
                }
                facts.push(RFact {
                    lhs,
                    equal: data.op == DataOp::Eq,
                    rhs,
                    text: data.to_string(),
                });
            }
        }
        let mut heap = Vec::new();
        for item in &assertion.heap {
            if let Some(resolved) = self.heap(item) {
                heap.push(resolved);
            }
        }
        let pool = self.amount(&assertion.resource);
        RConj { facts, heap, pool }
    }

    /// A reference term: resolves and checks that it is a reference.
    fn reference(&mut self, term: &Term) -> Option<RTerm> {
        let (resolved, ty) = self.term(term)?;
        if ty != Ty::Ref {
            self.error(
                format!("`{term}` is {}, not a reference", article(ty.keyword())),
                term.span,
            );
            return None;
        }
        Some(resolved)
    }

    fn term(&mut self, term: &Term) -> Option<(RTerm, Ty)> {
        let role = self.scope.role;
        match &term.kind {
            TermKind::Null => Some((RTerm::Null, Ty::Ref)),
            TermKind::Exists(name) => {
                let k = self.exists.iter().position(|(n, _)| n == name)?;
                Some((RTerm::Exists(k), self.exists[k].1))
            }
            TermKind::Ret => {
                if role != Role::Ensures {
                    self.error(
                        format!("`@ret` is only meaningful in @Ensures, not in {role}"),
                        term.span,
                    );
                    return None;
                }
                match &self.scope.ret {
                    Some((ty, _)) => Some((RTerm::Ret, *ty)),
                    None => {
                        self.error(format!("`@ret`: {} returns nothing", self.scope.method), term.span);
                        None
                    }
                }
            }
            TermKind::Arg(name) => match self.scope.params.iter().position(|p| p.name == *name) {
                Some(k) => Some((RTerm::Arg(k), self.scope.params[k].ty)),
                None => {
                    let names: Vec<&str> = self.scope.params.iter().map(|p| p.name.as_str()).collect();
                    let listed = if names.is_empty() {
                        "it has none".to_owned()
                    } else {
                        format!("they are {}", names.join(", "))
                    };
                    self.error(
                        format!("`@arg {name}`: no parameter of {} is called {name} ({listed}; compile with `javac -g` to keep parameter names)", self.scope.method),
                        term.span,
                    );
                    None
                }
            },
            TermKind::Var(name) => {
                let Some(inputs) = self.scope.loop_inputs else {
                    self.error(
                        format!("`@var {name}` is only meaningful in loop invariants; in {role} write `@arg {name}`"),
                        term.span,
                    );
                    return None;
                };
                let positions: Vec<usize> = inputs
                    .iter()
                    .enumerate()
                    .filter(|(_, (n, _))| n == name)
                    .map(|(k, _)| k)
                    .collect();
                match positions.as_slice() {
                    [k] => Some((RTerm::Var(*k), inputs[*k].1)),
                    [] if self.scope.locals.iter().any(|l| l == name) => {
                        // Dead at the loop head: its value no longer matters, so it stands for
                        // some value, like an existential.
                        let k = match self.dead.iter().position(|(n, _)| n == name) {
                            Some(k) => k,
                            None => {
                                self.dead.push((name.clone(), Ty::Ref));
                                self.dead.len() - 1
                            }
                        };
                        Some((RTerm::Exists(self.exists.len() + k), Ty::Ref))
                    }
                    [] => {
                        self.error(
                            format!("`@var {name}`: {} has no local variable {name} (compile with `javac -g` to keep local variable names)", self.scope.method),
                            term.span,
                        );
                        None
                    }
                    _ => {
                        self.error(
                            format!("`@var {name}`: several local variables called {name} are live at this loop"),
                            term.span,
                        );
                        None
                    }
                }
            }
        }
    }

    /// The class a reference term is declared with, when known: a parameter's or the return
    /// type's declared class, a local variable's (from the `LocalVariableTable`), or an
    /// existential's (written in the `exists` clause, or the class of the field holding it).
    fn term_class(&self, term: RTerm) -> Option<String> {
        match term {
            RTerm::Arg(k) => self.scope.params.get(k).and_then(|p| p.class.clone()),
            RTerm::Ret => self.scope.ret.as_ref().and_then(|(_, c)| c.clone()),
            RTerm::Var(k) => {
                let (name, _) = self.scope.loop_inputs?.get(k)?;
                self.local_class(name)
            }
            RTerm::Exists(k) if k < self.exists.len() => self.exists_classes[k].clone(),
            RTerm::Exists(k) => {
                let (name, _) = self.dead.get(k - self.exists.len())?;
                self.local_class(name)
            }
            RTerm::Null => None,
        }
    }

    /// The declared class of the local variable `name`, when it has exactly one.
    fn local_class(&self, name: &str) -> Option<String> {
        self.scope
            .local_classes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, class)| class.clone())
    }

    /// The class of a syntactic term before resolution, without reporting anything (for typing
    /// existentials by the fields that hold them).
    fn syntactic_class(&self, term: &Term) -> Option<String> {
        match &term.kind {
            TermKind::Arg(name) => self
                .scope
                .params
                .iter()
                .find(|p| p.name == *name)
                .and_then(|p| p.class.clone()),
            TermKind::Var(name) => self.local_class(name),
            TermKind::Ret => self.scope.ret.as_ref().and_then(|(_, c)| c.clone()),
            TermKind::Exists(name) => {
                let k = self.exists.iter().position(|(n, _)| n == name)?;
                self.exists_classes[k].clone()
            }
            TermKind::Null => None,
        }
    }

    /// Gives each existential without a written class the declared class of the field a field
    /// assertion stores it in (`[(@arg q).front:ref -> f]` makes `f` a cell of `front`'s
    /// class), following chains of field assertions. An existential that fields of different
    /// classes hold keeps no class.
    fn classes_from_fields(&mut self, assertions: &Assertions) {
        let mut conflicting = vec![false; self.exists.len()];
        for _ in 0..=self.exists.len() {
            let mut found: Vec<(usize, String)> = Vec::new();
            for disjunct in &assertions.disjuncts {
                for item in &disjunct.heap {
                    let HeapAssertion::Field {
                        object,
                        field,
                        target: Some(target),
                        ..
                    } = item
                    else {
                        continue;
                    };
                    let TermKind::Exists(name) = &target.kind else {
                        continue;
                    };
                    let Some(k) = self.exists.iter().position(|(n, _)| n == name) else {
                        continue;
                    };
                    if assertions.exists[k].class.is_some() || conflicting[k] {
                        continue;
                    }
                    let Some(owner) = self.syntactic_class(object) else {
                        continue;
                    };
                    let class = self
                        .view
                        .layout(&owner)
                        .and_then(|layout| layout.field(field).and_then(|f| descriptor_class(&f.descriptor)));
                    if let Some(class) = class {
                        found.push((k, class));
                    }
                }
            }
            let mut changed = false;
            for (k, class) in found {
                match &self.exists_classes[k] {
                    None => {
                        self.exists_classes[k] = Some(class);
                        changed = true;
                    }
                    Some(known) if *known != class => {
                        conflicting[k] = true;
                        self.exists_classes[k] = None;
                        changed = true;
                    }
                    Some(_) => {}
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// The class a class name written in an annotation denotes: a class nested in the method's
    /// class or in a class enclosing it (innermost first), a class of the method's package, or a
    /// fully qualified class; dots may separate packages or nested classes (`Queue.Cell` is
    /// `Queue$Cell`). Reports an error when no such class is found.
    fn named_class(&mut self, class: &ClassName) -> Option<String> {
        let parts: Vec<&str> = class.name.split('.').collect();
        // Every reading of the dots: the first `packages` are package separators, the rest
        // separate nested classes.
        let readings: Vec<String> = (0..parts.len())
            .rev()
            .map(|packages| {
                let package = parts[..packages].join("/");
                let nested = parts[packages..].join("$");
                if package.is_empty() {
                    nested
                } else {
                    format!("{package}/{nested}")
                }
            })
            .collect();
        let owner = &self.scope.method.class;
        let mut prefixes: Vec<String> = Vec::new();
        let mut enclosing = owner.as_str();
        loop {
            prefixes.push(format!("{enclosing}$"));
            match enclosing.rfind('$') {
                Some(at) => enclosing = &enclosing[..at],
                None => break,
            }
        }
        if let Some(at) = owner.rfind('/') {
            prefixes.push(format!("{}/", &owner[..at]));
        }
        prefixes.push(String::new());
        for prefix in &prefixes {
            for reading in &readings {
                // Only a simple name can be a member or a package-mate's nested class.
                if !prefix.is_empty() && reading.contains('/') {
                    continue;
                }
                let candidate = format!("{prefix}{reading}");
                if self.view.layout(&candidate).is_some() {
                    return Some(candidate);
                }
            }
        }
        self.error(
            format!(
                "no class `{}` is known to {} (write a class nested in {}, of its package, or a fully qualified name)",
                class.name,
                self.scope.method,
                owner.replace('/', ".")
            ),
            class.span,
        );
        None
    }

    /// The classes a predicate over `terms` may be about that `fits`: the declared classes of the
    /// terms that fit, else the method's context classes that fit and are subclasses of every
    /// declared class of the terms (a term declared `Object` may hold a cell of any list class).
    /// Also returns a term with a declared class, when one has one.
    fn classes_for<T>(&self, terms: &[(RTerm, &Term)], fits: impl Fn(&str) -> Option<T>) -> Candidates<T> {
        let mut found: Vec<(String, T)> = Vec::new();
        let mut declared: Vec<(String, String)> = Vec::new();
        for (term, written) in terms {
            if let Some(class) = self.term_class(*term) {
                if !declared.iter().any(|(_, c)| *c == class) {
                    declared.push((written.to_string(), class.clone()));
                }
                if !found.iter().any(|(c, _)| *c == class) {
                    if let Some(t) = fits(&class) {
                        found.push((class, t));
                    }
                }
            }
        }
        if found.is_empty() {
            for class in self.scope.context_classes {
                let below = declared.iter().all(|(_, sup)| self.view.is_subtype(class, sup));
                if below && !found.iter().any(|(c, _)| c == class) {
                    if let Some(t) = fits(class) {
                        found.push((class.clone(), t));
                    }
                }
            }
        }
        Candidates {
            found,
            declared: declared.into_iter().next(),
        }
    }

    /// The one class a predicate can be about, or an error saying there is none or several.
    fn only_class<T>(&mut self, candidates: Candidates<T>, predicate: &str, kind: &str, span: Span) -> Option<T> {
        let Candidates { found, declared } = candidates;
        if found.len() > 1 {
            let names: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
            self.error(
                format!(
                    "`{predicate}`: the class is ambiguous ({}); name a parameter of the class in it, or declare an existential with its class (`exists x: Cell.`)",
                    names.join(", ")
                ),
                span,
            );
            return None;
        }
        match found.into_iter().next() {
            Some((_, link)) => Some(link),
            None => {
                let message = match declared {
                    Some((term, class)) => format!(
                        "`{predicate}`: `{term}` is a {}, which is not {kind}",
                        class.replace('/', ".")
                    ),
                    None => format!(
                        "`{predicate}`: no class of {} is {kind}; declare the class of an existential in it (`exists x: Cell.`) or bind it with a field assertion",
                        self.scope.method
                    ),
                };
                self.error(message, span);
                None
            }
        }
    }

    fn heap(&mut self, item: &HeapAssertion) -> Option<RHeap> {
        let text = item.to_string();
        match item {
            HeapAssertion::Field {
                object,
                field,
                ty,
                target,
                span,
            } => {
                let object_term = self.reference(object)?;
                let value = match target {
                    Some(t) => Some(self.term(t)?),
                    None => None,
                };
                let view = self.view;
                let candidates = self.classes_for(&[(object_term, object)], |class| {
                    view.layout(class)
                        .and_then(|layout| layout.field(field).map(|f| (f.key.clone(), f.ty())))
                });
                let declared = candidates.declared.clone();
                let mut keys: Vec<(FieldKey, Ty)> = Vec::new();
                for (_, (key, field_ty)) in candidates.found {
                    if !keys.iter().any(|(k, _)| *k == key) {
                        keys.push((key, field_ty));
                    }
                }
                let (key, field_ty) = match keys.as_slice() {
                    [one] => one.clone(),
                    [] => {
                        let message = match declared {
                            Some((term, class)) => format!(
                                "`{term}` is a {}, which has no instance field `{field}`",
                                class.replace('/', ".")
                            ),
                            None => format!("no class of {} has an instance field `{field}`", self.scope.method),
                        };
                        self.error(message, *span);
                        return None;
                    }
                    _ => {
                        let owners: Vec<&str> = keys.iter().map(|(k, _)| k.class.as_str()).collect();
                        self.error(
                            format!(
                                "the field `{field}` is ambiguous: {} all declare one",
                                owners.join(", ")
                            ),
                            *span,
                        );
                        return None;
                    }
                };
                if ty_of(*ty) != field_ty {
                    self.error(
                        format!(
                            "the field `{field}` is {}, not {}",
                            article(field_ty.keyword()),
                            article(ty.keyword())
                        ),
                        *span,
                    );
                    return None;
                }
                if let Some((_, value_ty)) = value {
                    if value_ty != field_ty {
                        self.error(
                            format!(
                                "the field `{field}` holds {}, not {}",
                                article(field_ty.keyword()),
                                article(value_ty.keyword())
                            ),
                            *span,
                        );
                        return None;
                    }
                }
                Some(RHeap::Field {
                    object: object_term,
                    field: key,
                    value: value.map(|(t, _)| t),
                    text,
                })
            }
            HeapAssertion::Lseg {
                resource,
                from,
                to,
                span,
            } => {
                let potential = self.amount(resource);
                let from_term = self.reference(from)?;
                let to_term = self.reference(to)?;
                let view = self.view;
                let links = self.classes_for(&[(from_term, from), (to_term, to)], |class| {
                    view.layout(class).and_then(|layout| list_link(&layout))
                });
                let link = self.only_class(
                    links,
                    "lseg",
                    "a list (a class with exactly one field of its own type)",
                    *span,
                )?;
                Some(RHeap::Lseg {
                    potential,
                    from: from_term,
                    to: to_term,
                    link: Arc::new(link),
                    text,
                })
            }
            HeapAssertion::Tree { resource, root, span } => {
                let potential = self.amount(resource);
                let root_term = self.reference(root)?;
                let view = self.view;
                let links = self.classes_for(&[(root_term, root)], |class| {
                    view.layout(class).and_then(|layout| tree_link(&layout))
                });
                let link = self.only_class(
                    links,
                    "tree",
                    "a tree (a class with exactly two fields of its own type)",
                    *span,
                )?;
                Some(RHeap::Tree {
                    potential,
                    root: root_term,
                    link: Arc::new(link),
                    text,
                })
            }
        }
    }

    /// A resource expression over the method's resource variables.
    fn amount(&mut self, expression: &LinearExpr) -> ResExpr {
        let mut result = ResExpr::zero();
        let method = self.scope.method.to_string();
        for term in &expression.terms {
            let coefficient = BigRational::from_integer(BigInt::from(term.coefficient));
            match &term.variable {
                Some(name) => {
                    let var = self.variables.get(&method, name);
                    result.add_term(var, &coefficient);
                }
                None => result.add_constant(&coefficient),
            }
        }
        self.amounts.push((result.clone(), expression.to_string()));
        result
    }
}
