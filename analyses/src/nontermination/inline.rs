//! The methods a searched method calls whose code the symbolic execution runs in place of a fresh
//! result: each call's unique target (as the caller's resolver knows it), transitively, while the
//! targets are small and few.
//!
//! **A call with no entry here keeps a fresh result; a call with one is executed exactly**, its
//! returns giving the result, its exceptions leaving the call, and its calls of the searched method
//! being the searched method's own recursion (so that mutual recursion is a recursion too). The
//! set is closed under what the heap model needs: every write of an inlined method counts as a
//! write of the search (`Heap::of`), whatever depth the execution inlines to.

use super::explore::is_self_call;
use super::limits;
use crate::ir::{CallKind, MethodIr, MethodRef, Operand, Stmt, StmtKind};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The program's code as the search may run it.
pub trait Callees {
    /// The lifted code of the unique target of a call, where it is known and has code.
    fn target(&self, kind: CallKind, method: &MethodRef) -> Option<Arc<MethodIr>>;
    /// The lifted static initialiser of a class: `Some(None)` for a known class that declares
    /// none, `None` where the class or its initialiser's code is not known.
    fn initialiser(&self, class: &str) -> Option<Option<Arc<MethodIr>>>;
}

/// The inlined targets of the calls of one searched method and of the methods inlined for it,
/// and the values static fields they read have when a run of the method is the program's first
/// code (`initial`: the JVM's default, or the constant the class initialiser stores).
#[derive(Default)]
pub(super) struct Inlined {
    targets: HashMap<(CallKind, MethodRef), Arc<MethodIr>>,
    initial: HashMap<(String, String), i64>,
}

impl Inlined {
    /// The targets of the calls of `root` and of their targets, breadth-first, up to
    /// `MAX_INLINED` methods of at most `MAX_INLINED_STATEMENTS` statements each. The root
    /// itself is never inlined: its calls of itself are its recursion.
    pub(super) fn collect(root: &MethodIr, callees: &dyn Callees) -> Inlined {
        let mut inlined = Inlined::default();
        let mut pending: Vec<Arc<MethodIr>> = Vec::new();
        let scan = |ir: &MethodIr, inlined: &mut Inlined, pending: &mut Vec<Arc<MethodIr>>| {
            for (kind, method) in invokes(ir) {
                let key = (kind, method.clone());
                if inlined.targets.len() >= limits::MAX_INLINED
                    || inlined.targets.contains_key(&key)
                    || is_self_call(root, kind, method)
                {
                    continue;
                }
                let Some(target) = callees.target(kind, method) else {
                    continue;
                };
                let is_root =
                    target.class == root.class && target.name == root.name && target.descriptor == root.descriptor;
                if is_root || statements(&target) > limits::MAX_INLINED_STATEMENTS {
                    continue;
                }
                inlined.targets.insert(key, target.clone());
                pending.push(target);
            }
        };
        scan(root, &mut inlined, &mut pending);
        let mut next = 0;
        while next < pending.len() {
            let ir = pending[next].clone();
            scan(&ir, &mut inlined, &mut pending);
            next += 1;
        }
        let code = std::iter::once(root).chain(inlined.methods());
        let classes: HashSet<String> = code.flat_map(statics).map(|(class, _)| class.to_owned()).collect();
        for class in classes {
            if let Some(initialiser) = callees.initialiser(&class) {
                let known = initial_values(&class, initialiser.as_deref(), root, inlined.methods());
                inlined.initial.extend(known);
            }
        }
        inlined
    }

    /// The value of a static field before any code but class initialisers ran, where known.
    pub(super) fn initial(&self, class: &str, name: &str) -> Option<i64> {
        self.initial.get(&(class.to_owned(), name.to_owned())).copied()
    }

    /// The code a call runs, when it is inlined.
    pub(super) fn target(&self, kind: CallKind, method: &MethodRef) -> Option<&MethodIr> {
        self.targets.get(&(kind, method.clone())).map(Arc::as_ref)
    }

    /// Whether a call is inlined.
    pub(super) fn contains(&self, kind: CallKind, method: &MethodRef) -> bool {
        self.targets.contains_key(&(kind, method.clone()))
    }

    /// The inlined methods.
    pub(super) fn methods(&self) -> impl Iterator<Item = &MethodIr> {
        self.targets.values().map(Arc::as_ref)
    }

    /// Whether an inlined method calls `root`: the root recurs through other methods.
    pub(super) fn reach(&self, root: &MethodIr) -> bool {
        self.methods()
            .any(|ir| invokes(ir).any(|(kind, method)| is_self_call(root, kind, method)))
    }
}

/// The static fields of `class` that `code` reads, with the values they start with: a field its
/// initialiser does not write starts at the JVM's default (0, null) when the initialiser calls
/// nothing that could write it; a field it writes exactly once, with a constant, in straight-line
/// code, starts at that constant.
fn initial_values<'m>(
    class: &str,
    initialiser: Option<&'m MethodIr>,
    root: &'m MethodIr,
    inlined: impl Iterator<Item = &'m MethodIr>,
) -> Vec<((String, String), i64)> {
    let read: HashSet<&str> = std::iter::once(root)
        .chain(inlined)
        .flat_map(statics)
        .filter(|(c, _)| *c == class)
        .map(|(_, name)| name)
        .collect();
    let Some(init) = initialiser else {
        return read
            .into_iter()
            .map(|name| ((class.to_owned(), name.to_owned()), 0))
            .collect();
    };
    let body = || init.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body);
    let calls = body().any(|s| matches!(s.kind, StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. }));
    let entry = &init.proc(init.entry).rules;
    let straight: Vec<&Stmt> = match entry.as_slice() {
        [only] => only.body.iter().collect(),
        _ => Vec::new(),
    };
    let stores = |stmts: Vec<&'m Stmt>, name: &str| -> Vec<&'m Operand> {
        stmts
            .into_iter()
            .filter_map(|s| match &s.kind {
                StmtKind::PutStatic { field, value } if field.class == class && field.name == name => Some(value),
                _ => None,
            })
            .collect()
    };
    read.into_iter()
        .filter_map(|name| {
            let anywhere = stores(body().collect(), name);
            let first_rule = stores(straight.clone(), name);
            let value = match (anywhere.as_slice(), first_rule.as_slice()) {
                ([], _) if !calls => 0,
                ([_], [Operand::Int(v)]) => i64::from(*v),
                ([_], [Operand::Long(v)]) => *v,
                ([_], [Operand::Null]) => 0,
                _ => return None,
            };
            Some(((class.to_owned(), name.to_owned()), value))
        })
        .collect()
}

/// The static fields a lifted method reads or writes, by class and name.
fn statics(ir: &MethodIr) -> impl Iterator<Item = (&str, &str)> {
    ir.procs
        .iter()
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.body)
        .filter_map(|s| match &s.kind {
            StmtKind::GetStatic { field, .. } | StmtKind::PutStatic { field, .. } => {
                Some((field.class.as_str(), field.name.as_str()))
            }
            _ => None,
        })
}

/// The method calls of a lifted method.
fn invokes(ir: &MethodIr) -> impl Iterator<Item = (CallKind, &MethodRef)> {
    ir.procs
        .iter()
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.body)
        .filter_map(|s| match &s.kind {
            StmtKind::Invoke { kind, method, .. } => Some((*kind, method)),
            _ => None,
        })
}

fn statements(ir: &MethodIr) -> usize {
    ir.procs.iter().flat_map(|p| &p.rules).map(|r| r.body.len()).sum()
}
