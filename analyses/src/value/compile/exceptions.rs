//! What exceptions cost: the callee that threw, and the JVM's construction of the exceptions it
//! raises itself (`ir::exceptions` lists them per statement and per native).

use super::{eq, ge, is_marker, AbsProcId, AbstractProc, AbstractRule, Item, Origin, RuleCompiler, RuleCost};
use crate::ir::*;
use crate::value::polyhedra::{Constraint, Dimension};

impl RuleCompiler<'_> {
    /// What an exception raised by `kind` has cost beyond the rule's own bytecodes: the callee
    /// that threw it (for calls), and the construction of an exception the JVM raises itself.
    /// Returns the callee part and the implicit-exception part separately. `before` are the
    /// statements of the rule that run before it.
    pub(super) fn exceptional_items(&mut self, kind: &StmtKind, before: &[Stmt]) -> (Vec<Item>, Vec<Item>) {
        let mut items = Vec::new();
        let mut defs = Vec::new();
        match kind {
            StmtKind::Invoke {
                kind: call_kind,
                method,
                args,
                ..
            } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut defs)).collect();
                match self.dispatch(*call_kind, method) {
                    Some(callee) => items.push(Item::Charge { callee, args: arg_dims }),
                    None if is_marker(method) => items.push(Item::Marker { bytecodes: 1 }),
                    None => items.push(self.outside_call(*call_kind, method)),
                }
            }
            StmtKind::InvokeDynamic { name, .. } => items.push(Item::Opaque {
                reason: format!("calls the dynamically linked `{name}` (invokedynamic)"),
            }),
            StmtKind::Call { proc, args, .. } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut defs)).collect();
                let callee = self.program.of_ir[self.method_index][proc.index()];
                items.push(Item::Charge { callee, args: arg_dims });
            }
            _ => {}
        }
        let mut implicit = Vec::new();
        let mut classes: Vec<&'static str> = kind.implicit_exceptions().to_vec();
        if self.only_npe_on_non_null(kind, before) {
            // `this` and a new object are never null, so the only implicit exception is ruled out.
            classes.clear();
        }
        if let StmtKind::Invoke {
            kind: call_kind,
            method,
            ..
        } = kind
        {
            if self.dispatch(*call_kind, method).is_none() && self.native_call(*call_kind, method) {
                // An exception raised inside the native: constructed by the JVM like the
                // instruction's own.
                for class in exceptions::of_native(&method.class, &method.name) {
                    if !classes.contains(class) {
                        classes.push(class);
                    }
                }
            }
        }
        if let StmtKind::Throw { value } = kind {
            // `athrow` of null: only where the thrown value may be null (size 0).
            let d = self.operand(value, &mut defs);
            implicit.extend(eq(&[(d, 1)], 0).map(|c| Item::Constrain(vec![c])));
        }
        if !classes.is_empty() {
            let callee = self.implicit_exception_proc(classes);
            implicit.push(Item::Charge {
                callee,
                args: Vec::new(),
            });
        } else {
            implicit.clear();
        }
        if !defs.is_empty() {
            items.insert(0, Item::Constrain(defs));
        }
        (items, implicit)
    }

    /// Whether the statement's only implicit exception is a `NullPointerException` on an object
    /// that is never null: `this` of an instance method that never assigns its slot 0, or an
    /// object a statement of `before` (the rule so far) allocated.
    fn only_npe_on_non_null(&self, kind: &StmtKind, before: &[Stmt]) -> bool {
        let object = match kind {
            StmtKind::GetField { object, .. } | StmtKind::PutField { object, .. } => object,
            StmtKind::Invoke {
                kind: call_kind, args, ..
            } if *call_kind != CallKind::Static => match args.first() {
                Some(receiver) => receiver,
                None => return false,
            },
            _ => return false,
        };
        let Some(object) = object.as_var() else {
            return false;
        };
        let allocated = before
            .iter()
            .any(|s| matches!(&s.kind, StmtKind::New { dst, .. } if *dst == object));
        allocated || self.this_var() == Some(object)
    }

    /// The variable holding `this` throughout the method, when there is one: the first input of
    /// an instance method's entry, provided no version of it is ever assigned (versions of a
    /// variable are named `<name>.<k>`, so an assignment to slot 0 would show as one).
    fn this_var(&self) -> Option<VarId> {
        if self.method.is_static {
            return None;
        }
        let this = *self.method.proc(self.method.entry).inputs.first()?;
        let name = &self.method.var(this).name;
        let prefix = format!("{name}.");
        let reassigned = self.method.vars.iter().any(|d| {
            d.name
                .strip_prefix(&prefix)
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()))
        });
        (!reassigned).then_some(this)
    }

    /// The procedure whose rules construct each of the given exception classes with each of the
    /// constructors the JVM may use (no arguments, or a message): one allocation under the
    /// allocations model, plus what the constructor costs.
    fn implicit_exception_proc(&mut self, classes: Vec<&'static str>) -> AbsProcId {
        if let Some(id) = self.program.implicit_exceptions.get(&classes) {
            return *id;
        }
        let mut rules = Vec::new();
        for class in &classes {
            for descriptor in exceptions::CHARGED_DESCRIPTORS {
                let method = MethodRef {
                    class: (*class).to_owned(),
                    name: "<init>".into(),
                    descriptor: descriptor.into(),
                };
                let inputs = if descriptor == "()V" { 1 } else { 2 };
                let mut constraints: Vec<Constraint> = ge(&[(0, 1)], -1).into_iter().collect();
                if inputs == 2 {
                    constraints.extend(ge(&[(1, 1)], 0));
                }
                let call = match self.dispatch(CallKind::Special, &method) {
                    Some(callee) => Item::Call {
                        callee,
                        args: (0..inputs).collect(),
                        outs: Vec::new(),
                    },
                    None => Item::Opaque {
                        reason: format!(
                            "constructs {} (an exception the JVM raises), which is not analysed",
                            class.replace('/', ".")
                        ),
                    },
                };
                // The exception object itself is an allocation (its constructor's are in the
                // call); the message string the JVM makes is not a program allocation.
                let cost = RuleCost {
                    constant: self.model.exception_object(),
                    symbolic: Vec::new(),
                };
                rules.push(AbstractRule {
                    dims: inputs,
                    cost,
                    may_throw: false,
                    guard: Vec::new(),
                    items: vec![Item::Constrain(constraints), call],
                    returns: true,
                    source: None,
                    ranges: Vec::new(),
                    cyclic_call: None,
                });
            }
        }
        self.program.procs.push(AbstractProc {
            is_method_entry: false,
            name: format!("implicit {}", classes.join(" | ")),
            inputs: 0,
            outputs: 0,
            rules,
            origin: Origin::Implicit,
        });
        let id = self.program.procs.len() - 1;
        self.program.implicit_exceptions.insert(classes, id);
        id
    }
}
