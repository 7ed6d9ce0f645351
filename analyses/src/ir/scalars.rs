//! Objects that never leave the method that makes them, made variables (scalar replacement, as a
//! compiler's escape analysis does), for the analyses only.
//!
//! An object a method allocates (`new C`) whose reference is only ever the receiver of calls, the
//! object of field reads and writes, copied, passed to the method's own procedures, compared or
//! tested, is reachable from nowhere else: no other code reads or writes its fields. This pass
//! copies into the method the code of every call on such an object (the method a call runs on an
//! object of exactly class `C`, and transitively the calls that code makes on it), and then makes
//! each of the object's fields a variable: the procedures that hold the reference receive and
//! return the fields' values, a read becomes a copy, a write gives the field its new value, and the
//! fields start at their defaults. A field then relates to the method's values as any variable
//! does: a cursor object's position, a builder's length, a counter's count.
//!
//! Invariants: the rewrite runs the same statements with the same rule costs (copied procedures
//! keep their bytecode counts; only the invocation of a copied call is no longer a call, so the
//! pass is for cost models that count no calls); it copies no loop and no handler, at most
//! `INLINE_STATEMENTS` statements and `INLINE_CALLS` calls per object; an object is replaced only
//! when every use of its reference is one of the above, every procedure that receives it receives
//! it at every call, it is never returned from the method nor passed to a handler, and the
//! rewritten method verifies; otherwise the method is left exactly as it was.

use super::{
    verify_method, visit_vars_mut, BinOp, CallKind, CmpOp, Cond, FieldRef, MethodIr, MethodRef, Operand, ProcId,
    ProcKind, Rule, Stmt, StmtKind, Ty, UnOp, VarDecl, VarId,
};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Statements copied into a method per replaced object.
pub const INLINE_STATEMENTS: usize = 120;

/// Calls copied into a method per replaced object.
pub const INLINE_CALLS: usize = 16;

/// Allocations of a method tried.
const SITES: usize = 16;

/// Where the code of the calls on a replaced object comes from.
pub trait Callees {
    /// The lifted code of the method that a call of `kind` to `method` runs on an object of
    /// exactly class `class`, when that method has code.
    fn code(&self, kind: CallKind, method: &MethodRef, class: &str) -> Option<MethodIr>;

    /// The class that declares the instance field `name descriptor` that a reference through
    /// class `class` resolves to (JVMS 5.4.3.2 over superclasses), when known: code inherited
    /// from a superclass names a field through it, the subclass's own code through itself.
    fn field_owner(&self, _class: &str, _name: &str, _descriptor: &str) -> Option<String> {
        None
    }
}

/// An allocation: the procedure and rule of its `new`, the variable it defines and its class.
#[derive(Clone)]
struct Site {
    proc: usize,
    rule: usize,
    var: VarId,
    class: String,
}

/// Replaces every object of `ir` that never escapes by variables; whether anything changed.
pub fn replace_fresh_objects(ir: &mut MethodIr, callees: &dyn Callees) -> bool {
    let mut changed = false;
    for (tag, site) in allocation_sites(ir).into_iter().take(SITES).enumerate() {
        if !decides_a_loop(ir, &site) {
            continue;
        }
        let mut candidate = ir.clone();
        if replace(&mut candidate, &site, callees, tag).is_some() && verify_method(&candidate).is_empty() {
            *ir = candidate;
            changed = true;
        }
    }
    changed
}

/// Whether a loop receives the site's object and branches on what it reads or asks of it (a
/// field, `hasNext()`, `size()`): that is where its fields decide a bound. Other objects stay as
/// they are (a builder a loop only appends to gains nothing and costs the copied code).
fn decides_a_loop(ir: &MethodIr, site: &Site) -> bool {
    let holders = Holders::of(ir, site);
    let looped = ir
        .procs
        .iter()
        .enumerate()
        .any(|(p, proc)| proc.kind == ProcKind::Loop && holders.has_input(p));
    looped
        && ir.procs.iter().enumerate().any(|(p, proc)| {
            holders.has_input(p)
                && proc
                    .rules
                    .iter()
                    .enumerate()
                    .any(|(r, rule)| branches_on_object(ir, &holders.held(ir, site, p, r), rule))
        })
}

/// Whether the rule passes a value it read from the object (a field or a call's result) to a
/// procedure whose guards test it.
fn branches_on_object(ir: &MethodIr, held: &HashSet<VarId>, rule: &Rule) -> bool {
    let mut read = HashSet::new();
    for stmt in &rule.body {
        match &stmt.kind {
            StmtKind::GetField { dst, object, .. } if is_held(object, held) => {
                read.insert(*dst);
            }
            StmtKind::Invoke {
                dst: Some(dst), args, ..
            } if args.first().is_some_and(|a| is_held(a, held)) => {
                read.insert(*dst);
            }
            StmtKind::Call { proc, args, .. } => {
                let callee = &ir.procs[proc.index()];
                let tested = args.iter().zip(&callee.inputs).any(|(arg, input)| {
                    is_held(arg, &read) && callee.rules.iter().flat_map(|r| &r.guard).any(|c| mentions(c, *input))
                });
                if tested {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

fn mentions(cond: &Cond, var: VarId) -> bool {
    let operands = match cond {
        Cond::Cmp { lhs, rhs, .. } => vec![lhs, rhs],
        Cond::InstanceOf { value, .. } => vec![value],
    };
    operands.iter().any(|o| o.as_var() == Some(var))
}

fn allocation_sites(ir: &MethodIr) -> Vec<Site> {
    let mut sites = Vec::new();
    for (p, proc) in ir.procs.iter().enumerate() {
        for (r, rule) in proc.rules.iter().enumerate() {
            for stmt in &rule.body {
                if let StmtKind::New { dst, class } = &stmt.kind {
                    sites.push(Site {
                        proc: p,
                        rule: r,
                        var: *dst,
                        class: class.clone(),
                    });
                }
            }
        }
    }
    sites
}

/// Copies the calls on the site's object into `ir`, then replaces its fields; `None` where the
/// object escapes or a limit is reached.
fn replace(ir: &mut MethodIr, site: &Site, callees: &dyn Callees, tag: usize) -> Option<()> {
    let mut statements = 0;
    let mut tests = HashSet::new();
    let first_copy = ir.procs.len();
    for call in 0.. {
        let holders = Holders::of(ir, site);
        let Some(at) = holders.first_invoke(ir, site)? else {
            replace_fields(ir, site, &holders, callees, tag)?;
            split_tests(ir, &tests);
            splice_straight_calls(ir, first_copy);
            return Some(());
        };
        if call >= INLINE_CALLS {
            return None;
        }
        let (copied, entry) = inline(ir, at, site, callees, (tag, call), INLINE_STATEMENTS - statements)?;
        if let Some(entry) = entry {
            tests.insert(entry);
        }
        statements += copied;
    }
    None
}

/// Which inputs and outputs of each procedure hold the site's object.
struct Holders {
    inputs: Vec<Vec<bool>>,
    outputs: Vec<Vec<bool>>,
}

/// A statement's place: procedure, rule, statement.
pub(super) type At = (usize, usize, usize);

impl Holders {
    /// The least solution: a procedure's input holds the object when some call passes it there,
    /// an output when some rule defines it from the object.
    fn of(ir: &MethodIr, site: &Site) -> Holders {
        let mut holders = Holders {
            inputs: ir.procs.iter().map(|p| vec![false; p.inputs.len()]).collect(),
            outputs: ir.procs.iter().map(|p| vec![false; p.outputs.len()]).collect(),
        };
        // The rules that call each procedure, for a worklist from the allocating rule.
        let mut callers: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ir.procs.len()];
        for (p, proc) in ir.procs.iter().enumerate() {
            for (r, rule) in proc.rules.iter().enumerate() {
                for stmt in &rule.body {
                    if let StmtKind::Call { proc: q, .. } = &stmt.kind {
                        callers[q.index()].push((p, r));
                    }
                }
            }
        }
        let mut pending = vec![(site.proc, site.rule)];
        while let Some((p, r)) = pending.pop() {
            let held = holders.held(ir, site, p, r);
            let proc = &ir.procs[p];
            for stmt in &proc.rules[r].body {
                if let StmtKind::Call { proc: q, args, .. } = &stmt.kind {
                    for (k, arg) in args.iter().enumerate() {
                        if is_held(arg, &held) && !holders.inputs[q.index()][k] {
                            holders.inputs[q.index()][k] = true;
                            pending.extend((0..ir.procs[q.index()].rules.len()).map(|r| (q.index(), r)));
                        }
                    }
                }
            }
            for (j, out) in proc.outputs.iter().enumerate() {
                if held.contains(out) && !holders.outputs[p][j] {
                    holders.outputs[p][j] = true;
                    pending.extend(callers[p].iter().copied());
                }
            }
        }
        holders
    }

    /// The inputs of procedure `p` that hold the object.
    fn held_inputs(&self, ir: &MethodIr, p: usize) -> HashSet<VarId> {
        let inputs = ir.procs[p].inputs.iter().zip(&self.inputs[p]);
        inputs.filter(|(_, h)| **h).map(|(v, _)| *v).collect()
    }

    /// The variables of rule `r` of procedure `p` that hold the object, after the rule.
    fn held(&self, ir: &MethodIr, site: &Site, p: usize, r: usize) -> HashSet<VarId> {
        let proc = &ir.procs[p];
        let mut held = self.held_inputs(ir, p);
        for stmt in &proc.rules[r].body {
            match &stmt.kind {
                StmtKind::New { dst, .. } if p == site.proc && r == site.rule && *dst == site.var => {
                    held.insert(*dst);
                }
                StmtKind::Assign { dst, src } if is_held(src, &held) => {
                    held.insert(*dst);
                }
                StmtKind::Call { proc: q, outs, .. } => {
                    for (out, h) in outs.iter().zip(&self.outputs[q.index()]) {
                        if *h {
                            held.insert(*out);
                        }
                    }
                }
                _ => {}
            }
        }
        held
    }

    fn has_input(&self, p: usize) -> bool {
        self.inputs[p].iter().any(|h| *h)
    }

    /// Whether procedure `p` returns the fields' values: it holds the object or returns it.
    fn has_output(&self, p: usize) -> bool {
        self.has_input(p) || self.outputs[p].iter().any(|h| *h)
    }

    /// The first call on the object still to copy (`Some(None)` when there is none), or `None`
    /// when the object escapes.
    fn first_invoke(&self, ir: &MethodIr, site: &Site) -> Option<Option<At>> {
        let entry = ir.entry.index();
        if self.outputs[entry].iter().any(|h| *h) {
            return None;
        }
        let mut first = None;
        // A procedure that receives the object from some calls only, or returns it from some
        // rules only, may be made consistent by copying the calls still to copy (a method that
        // returns `this` through another); once none is left, it is an escape.
        let mut consistent = true;
        for (p, proc) in ir.procs.iter().enumerate() {
            for (r, rule) in proc.rules.iter().enumerate() {
                let inputs = self.held_inputs(ir, p);
                let normal = !matches!(rule.body.last().map(|s| &s.kind), Some(StmtKind::Throw { .. }));
                let held = self.walk_rule(ir, site, (p, r), inputs, (&mut first, &mut consistent))?;
                for (j, out) in proc.outputs.iter().enumerate() {
                    if self.outputs[p][j] && normal && !held.contains(out) {
                        consistent = false;
                    }
                }
            }
        }
        (first.is_some() || consistent).then_some(first)
    }

    /// Checks the uses of the object in one rule (recording the first call on it into `first`);
    /// the variables that hold it after the rule, or `None` when it escapes.
    fn walk_rule(
        &self,
        ir: &MethodIr,
        site: &Site,
        (p, r): (usize, usize),
        mut held: HashSet<VarId>,
        (first, consistent): (&mut Option<At>, &mut bool),
    ) -> Option<HashSet<VarId>> {
        let rule = &ir.procs[p].rules[r];
        let mut present = self.has_input(p);
        for (k, stmt) in rule.body.iter().enumerate() {
            if let Some(edge) = &stmt.handler {
                let target = edge.proc.index();
                if edge.args.iter().any(|a| is_held(a, &held)) || self.has_output(p) || self.has_output(target) {
                    return None;
                }
            }
            match &stmt.kind {
                StmtKind::New { dst, .. } if p == site.proc && r == site.rule && *dst == site.var => {
                    *consistent &= !present;
                    present = true;
                    held.insert(*dst);
                }
                StmtKind::Assign { dst, src } => {
                    if is_held(src, &held) {
                        held.insert(*dst);
                    }
                }
                StmtKind::GetField { .. } | StmtKind::CheckCast { .. } | StmtKind::InstanceOf { .. } => {}
                StmtKind::PutField { value, .. } => {
                    if is_held(value, &held) {
                        return None;
                    }
                }
                StmtKind::Call { proc: q, args, outs } => {
                    let q = q.index();
                    for (k, arg) in args.iter().enumerate() {
                        *consistent &= self.inputs[q][k] == is_held(arg, &held);
                    }
                    if self.has_output(q) && !self.has_input(q) {
                        *consistent &= !present;
                        present = true;
                    }
                    for (out, h) in outs.iter().zip(&self.outputs[q]) {
                        if *h {
                            held.insert(*out);
                        }
                    }
                }
                StmtKind::Invoke { kind, args, .. } => {
                    let on_object = args.first().is_some_and(|a| is_held(a, &held));
                    if args.iter().skip(1).any(|a| is_held(a, &held)) || (on_object && *kind == CallKind::Static) {
                        return None;
                    }
                    if on_object && first.is_none() {
                        *first = Some((p, r, k));
                    }
                }
                other => {
                    if other.uses().iter().any(|a| is_held(a, &held)) {
                        return None;
                    }
                }
            }
        }
        Some(held)
    }
}

fn is_held(operand: &Operand, held: &HashSet<VarId>) -> bool {
    operand.as_var().is_some_and(|v| held.contains(&v))
}

/// Copies the code of the call at `at` into `ir` and makes the call a call of its entry; the
/// statements copied and, for a method that returns a `boolean`, its copied entry; `None` where
/// the target has no code the pass may copy.
fn inline(
    ir: &mut MethodIr,
    (p, r, k): At,
    site: &Site,
    callees: &dyn Callees,
    tag: (usize, usize),
    room: usize,
) -> Option<(usize, Option<usize>)> {
    let stmt = &ir.procs[p].rules[r].body[k];
    let StmtKind::Invoke {
        dst,
        kind,
        method,
        args,
        ..
    } = &stmt.kind
    else {
        return None;
    };
    let callee = callees.code(*kind, method, &site.class)?;
    let copyable = callee.procs.iter().all(|proc| {
        proc.kind != ProcKind::Loop
            && proc
                .rules
                .iter()
                .flat_map(|r| &r.body)
                .all(|s| s.handler.is_none() && !matches!(s.kind, StmtKind::MonitorEnter { .. }))
    });
    let statements: usize = callee.procs.iter().flat_map(|p| &p.rules).map(|r| r.body.len()).sum();
    if !copyable || statements > room || !callee.ghosts.is_empty() || callee.heap_entry.is_some() {
        return None;
    }
    let entry = callee.procs.get(callee.entry.index())?;
    if entry.inputs.len() != args.len() || entry.outputs.len() != usize::from(dst.is_some()) {
        return None;
    }
    let entry = ir.procs.len() + callee.entry.index();
    let test = method.descriptor.ends_with(")Z").then_some(entry);
    let call = StmtKind::Call {
        proc: ProcId::from_index(entry),
        args: args.clone(),
        outs: dst.iter().copied().collect(),
    };
    append_copy(ir, callee, &format!("i{}.{}", tag.0, tag.1));
    ir.procs[p].rules[r].body[k].kind = call;
    Some((statements, test))
}

/// Splits each rule that calls a copied test (a method that returns a `boolean`) into a rule per
/// result, each calling a copy of the test that returns only that result: the convex hull of a
/// test's two outcomes forgets which values gave which, the split keeps them apart (`pos < size`
/// where `hasNext()` returned true). Both rules together run what the one did.
fn split_tests(ir: &mut MethodIr, tests: &HashSet<usize>) {
    // Copies come after the code that calls them, so going backwards splits a test's own tests
    // before its result copies are made.
    let original = ir.procs.len();
    for p in (0..original).rev() {
        let mut r = 0;
        while r < ir.procs[p].rules.len() {
            let found = ir.procs[p].rules[r]
                .body
                .iter()
                .position(|s| matches!(&s.kind, StmtKind::Call { proc, .. } if tests.contains(&proc.index())));
            let Some(k) = found else {
                r += 1;
                continue;
            };
            let StmtKind::Call { proc: q, .. } = ir.procs[p].rules[r].body[k].kind else {
                r += 1;
                continue;
            };
            let mut candidate = ir.clone();
            let mut copies = HashMap::new();
            let split = result_copy(&mut candidate, q.index(), 1, &mut copies).zip(result_copy(
                &mut candidate,
                q.index(),
                0,
                &mut copies,
            ));
            if let Some((yes, no)) = split {
                let mut other = candidate.procs[p].rules[r].clone();
                set_callee(&mut candidate.procs[p].rules[r].body[k], yes);
                set_callee(&mut other.body[k], no);
                // A continuation called from nowhere else is copied too, so that its
                // precondition (and its callees') keeps the outcome apart.
                let continues = other.body.len() > k + 1;
                if let Some(last) = other.body.last_mut().filter(|_| continues) {
                    if let StmtKind::Call { proc: next, .. } = last.kind {
                        if callers(&candidate, next.index()) == 1 {
                            let mut copy = candidate.procs[next.index()].clone();
                            copy.name = format!("{}.else", copy.name);
                            candidate.procs.push(copy);
                            set_callee(last, candidate.procs.len() - 1);
                        }
                    }
                }
                candidate.procs[p].rules.insert(r + 1, other);
                *ir = candidate;
                r += 1;
            }
            r += 1;
        }
    }
}

/// The calls of procedure `q` in `ir`.
fn callers(ir: &MethodIr, q: usize) -> usize {
    ir.procs
        .iter()
        .flat_map(|p| &p.rules)
        .flat_map(|r| &r.body)
        .filter(|s| matches!(&s.kind, StmtKind::Call { proc, .. } if proc.index() == q))
        .count()
}

fn set_callee(stmt: &mut Stmt, callee: usize) {
    if let StmtKind::Call { proc, .. } = &mut stmt.kind {
        *proc = ProcId::from_index(callee);
    }
}

/// A copy of procedure `q` (and of the procedures that define its first output) whose runs all
/// give that output the value `value`; `None` where a rule computes it otherwise than by copying a
/// constant, an input or a callee's result.
fn result_copy(ir: &mut MethodIr, q: usize, value: i32, copies: &mut HashMap<(usize, i32), usize>) -> Option<usize> {
    if let Some(&copy) = copies.get(&(q, value)) {
        return Some(copy);
    }
    let proc = ir.procs[q].clone();
    let out = *proc.outputs.first()?;
    let id = ir.procs.len();
    copies.insert((q, value), id);
    ir.procs.push(proc.clone());
    let mut rules = Vec::new();
    for mut rule in proc.rules {
        if matches!(rule.body.last().map(|s| &s.kind), Some(StmtKind::Throw { .. })) {
            rules.push(rule);
            continue;
        }
        let def = rule.body.iter().position(|s| s.kind.defs().contains(&out))?;
        match &rule.body[def].kind {
            StmtKind::Assign {
                src: Operand::Int(c), ..
            } => {
                if *c == value {
                    rules.push(rule);
                }
            }
            StmtKind::Assign {
                src: Operand::Var(x), ..
            } if proc.inputs.contains(x) => {
                rule.guard.push(Cond::Cmp {
                    op: CmpOp::Eq,
                    lhs: Operand::Var(*x),
                    rhs: Operand::Int(value),
                });
                rules.push(rule);
            }
            StmtKind::Call { proc: callee, outs, .. } if outs.first() == Some(&out) => {
                let copy = result_copy(ir, callee.index(), value, copies)?;
                set_callee(&mut rule.body[def], copy);
                rules.push(rule);
            }
            _ => return None,
        }
    }
    if rules.is_empty() {
        // No run gives that value: a rule no input satisfies (defining the outputs all the same).
        let body = proc
            .outputs
            .iter()
            .map(|out| Stmt {
                pc: proc.pc,
                bytecodes: 0,
                kind: StmtKind::Assign {
                    dst: *out,
                    src: default_value(ir.vars[out.index()].ty),
                },
                handler: None,
            })
            .collect();
        rules.push(Rule {
            guard: vec![Cond::Cmp {
                op: CmpOp::Ne,
                lhs: Operand::Int(0),
                rhs: Operand::Int(0),
            }],
            body,
            bytecodes: 0,
        });
    }
    ir.procs[id].name = format!("{}.is{value}", proc.name);
    ir.procs[id].rules = rules;
    Some(id)
}

/// Appends the variables and procedures of `callee` to `ir`, renamed apart with `prefix`.
fn append_copy(ir: &mut MethodIr, mut callee: MethodIr, prefix: &str) {
    let var_base = ir.vars.len();
    let proc_base = ir.procs.len();
    visit_vars_mut(&mut callee, |v| *v = VarId::from_index(v.index() + var_base));
    let mut names: HashSet<String> = ir.vars.iter().map(|v| v.name.clone()).collect();
    for var in callee.vars {
        let name = fresh_name(&mut names, &format!("{}.{prefix}", var.name));
        ir.vars.push(VarDecl { name, ty: var.ty });
    }
    let mut proc_names: HashSet<String> = ir.procs.iter().map(|p| p.name.clone()).collect();
    for mut proc in callee.procs {
        proc.name = fresh_name(&mut proc_names, &format!("{prefix}.{}", proc.name));
        if proc.kind == ProcKind::Entry {
            proc.kind = ProcKind::Block;
        }
        for stmt in proc.rules.iter_mut().flat_map(|r| r.body.iter_mut()) {
            if let StmtKind::Call { proc: q, .. } = &mut stmt.kind {
                *q = ProcId::from_index(q.index() + proc_base);
            }
            if let Some(edge) = &mut stmt.handler {
                edge.proc = ProcId::from_index(edge.proc.index() + proc_base);
            }
        }
        ir.procs.push(proc);
    }
}

/// `base`, or `base#k` for the first `k` that is not taken yet; recorded as taken.
fn fresh_name(taken: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_owned();
    let mut k = 1;
    while taken.contains(&name) {
        name = format!("{base}#{k}");
        k += 1;
    }
    taken.insert(name.clone());
    name
}

/// A field of the object: its name and descriptor.
type Field = (String, String);

/// Makes each field of the object a variable that the procedures holding it receive and return.
fn replace_fields(ir: &mut MethodIr, site: &Site, holders: &Holders, callees: &dyn Callees, tag: usize) -> Option<()> {
    let fields = object_fields(ir, site, holders, callees)?;
    let base = object_name(ir, holders).unwrap_or_else(|| {
        let simple = site.class.rsplit('/').next().unwrap_or(&site.class);
        format!("{simple}{tag}")
    });
    let mut names: HashSet<String> = ir.vars.iter().map(|v| v.name.clone()).collect();
    let mut declare = |ir: &mut MethodIr, field: &Field, ty: Ty| {
        let name = fresh_name(&mut names, &format!("{base}.{}", field.0));
        ir.vars.push(VarDecl { name, ty });
        VarId::from_index(ir.vars.len() - 1)
    };
    let types: Vec<Ty> = fields
        .iter()
        .map(|f| Ty::from_descriptor(&f.1))
        .collect::<Option<_>>()?;
    let ghost_in: Vec<VarId> = fields.iter().zip(&types).map(|(f, t)| declare(ir, f, *t)).collect();
    let ghost_out: Vec<VarId> = fields.iter().zip(&types).map(|(f, t)| declare(ir, f, *t)).collect();
    let original_outputs: Vec<Vec<VarId>> = ir.procs.iter().map(|p| p.outputs.clone()).collect();
    for (p, outputs) in original_outputs.iter().enumerate() {
        for r in 0..ir.procs[p].rules.len() {
            let context = RuleContext {
                site,
                holders,
                fields: &fields,
                types: &types,
                ghost_in: &ghost_in,
                ghost_out: &ghost_out,
                outputs,
                p,
                r,
            };
            let rule = std::mem::replace(&mut ir.procs[p].rules[r], empty_rule());
            let mut fresh = |ir: &mut MethodIr, f: usize| declare(ir, &fields[f], types[f]);
            ir.procs[p].rules[r] = context.rewrite(ir, rule, &mut fresh)?;
        }
        if holders.has_input(p) {
            ir.procs[p].inputs.extend(&ghost_in);
        }
        if holders.has_output(p) {
            ir.procs[p].outputs.extend(&ghost_out);
        }
    }
    Some(())
}

/// The name of the variable a loop of the method holds the object in (the source's local, as
/// reports name the fields: `c.left`).
fn object_name(ir: &MethodIr, holders: &Holders) -> Option<String> {
    let (p, _) = ir
        .procs
        .iter()
        .enumerate()
        .find(|(p, proc)| proc.kind == ProcKind::Loop && holders.has_input(*p))?;
    let var = holders.held_inputs(ir, p).into_iter().min_by_key(|v| v.index())?;
    Some(super::source_name(&ir.vars[var.index()].name).to_owned())
}

fn empty_rule() -> Rule {
    Rule {
        guard: Vec::new(),
        body: Vec::new(),
        bytecodes: 0,
    }
}

/// The fields the method reads or writes on the object, in a fixed order; `None` when two
/// accesses name a field of the same name and type through different classes that `callees`
/// does not resolve to one declaring class (a field and one that hides it are two).
fn object_fields(ir: &MethodIr, site: &Site, holders: &Holders, callees: &dyn Callees) -> Option<Vec<Field>> {
    let mut fields: BTreeMap<Field, String> = BTreeMap::new();
    for (p, proc) in ir.procs.iter().enumerate() {
        for (r, rule) in proc.rules.iter().enumerate() {
            let held = holders.held(ir, site, p, r);
            for stmt in &rule.body {
                if let StmtKind::GetField { object, field, .. } | StmtKind::PutField { object, field, .. } = &stmt.kind
                {
                    if is_held(object, &held) {
                        let key = (field.name.clone(), field.descriptor.clone());
                        let known = fields.entry(key).or_insert_with(|| field.class.clone());
                        if known != &field.class && !same_field(callees, known, field) {
                            return None;
                        }
                    }
                }
            }
        }
    }
    Some(fields.into_keys().collect())
}

/// Whether a reference to `field` and one to the field of the same name and type through class
/// `other` resolve to the same declared field.
fn same_field(callees: &dyn Callees, other: &str, field: &FieldRef) -> bool {
    let owner = |class: &str| callees.field_owner(class, &field.name, &field.descriptor);
    owner(other).is_some_and(|a| owner(&field.class).is_some_and(|b| a == b))
}

/// What rewriting one rule needs.
struct RuleContext<'a> {
    site: &'a Site,
    holders: &'a Holders,
    fields: &'a [Field],
    types: &'a [Ty],
    ghost_in: &'a [VarId],
    ghost_out: &'a [VarId],
    /// The procedure's outputs before the rewrite.
    outputs: &'a [VarId],
    p: usize,
    r: usize,
}

impl RuleContext<'_> {
    /// The rule with the object's field accesses made copies and the fields passed along.
    fn rewrite(
        &self,
        ir: &mut MethodIr,
        rule: Rule,
        fresh: &mut dyn FnMut(&mut MethodIr, usize) -> VarId,
    ) -> Option<Rule> {
        let holders = self.holders;
        let mut held = holders.held_inputs(ir, self.p);
        let mut current: Option<Vec<Operand>> =
            (!held.is_empty()).then(|| self.ghost_in.iter().map(|v| Operand::Var(*v)).collect());
        let count = rule.body.len();
        let throws = matches!(rule.body.last().map(|s| &s.kind), Some(StmtKind::Throw { .. }));
        let mut body: Vec<Stmt> = Vec::with_capacity(count + self.fields.len());
        let mut outputs_defined = false;
        for (k, mut stmt) in rule.body.into_iter().enumerate() {
            match &mut stmt.kind {
                StmtKind::New { dst, .. }
                    if self.p == self.site.proc && self.r == self.site.rule && *dst == self.site.var =>
                {
                    held.insert(*dst);
                    current = Some(self.types.iter().map(|t| default_value(*t)).collect());
                }
                StmtKind::Assign { dst, src } if is_held(src, &held) => {
                    held.insert(*dst);
                }
                StmtKind::GetField { dst, object, field } if is_held(object, &held) => {
                    let f = self.field_index(&field.name, &field.descriptor)?;
                    stmt.kind = StmtKind::Assign {
                        dst: *dst,
                        src: current.as_ref()?[f].clone(),
                    };
                }
                StmtKind::PutField { object, field, value } if is_held(object, &held) => {
                    let f = self.field_index(&field.name, &field.descriptor)?;
                    let stored = match narrowing(&field.descriptor, value) {
                        // The JVM keeps what fits a `boolean`, `byte`, `char` or `short` field.
                        Some(kind) => {
                            let dst = fresh(ir, f);
                            stmt.kind = kind(dst);
                            body.push(stmt);
                            Operand::Var(dst)
                        }
                        None => value.clone(),
                    };
                    current.as_mut()?[f] = stored;
                    continue;
                }
                StmtKind::Call { proc: q, args, outs } => {
                    let q = q.index();
                    let tail = k + 1 == count && outs.as_slice() == self.outputs && !throws;
                    if holders.has_input(q) {
                        args.extend(current.clone()?);
                    }
                    if holders.has_output(q) {
                        let new: Vec<VarId> = match tail && holders.has_output(self.p) {
                            true => {
                                outputs_defined = true;
                                self.ghost_out.to_vec()
                            }
                            false => (0..self.fields.len()).map(|f| fresh(ir, f)).collect(),
                        };
                        for (out, h) in outs.iter().zip(&holders.outputs[q]) {
                            if *h {
                                held.insert(*out);
                            }
                        }
                        outs.extend(&new);
                        current = Some(new.into_iter().map(Operand::Var).collect());
                    }
                }
                _ => {}
            }
            body.push(stmt);
        }
        if holders.has_output(self.p) && !throws && !outputs_defined {
            let values = current?;
            // Before a last call of a continuation that does not hold the object, after anything else.
            let plain_tail = matches!(body.last().map(|s| &s.kind),
                Some(StmtKind::Call { proc: q, outs, .. }) if outs.as_slice() == self.outputs && !holders.has_output(q.index()));
            let at = body.len() - usize::from(plain_tail);
            let bytecodes = match at {
                0 => 0,
                _ => body[at - 1].bytecodes,
            };
            let pc = body.get(at.saturating_sub(1)).map_or(0, |s| s.pc);
            let assigns = self.ghost_out.iter().zip(values).map(|(dst, src)| Stmt {
                pc,
                bytecodes,
                kind: StmtKind::Assign { dst: *dst, src },
                handler: None,
            });
            body.splice(at..at, assigns);
        }
        Some(Rule { body, ..rule })
    }

    fn field_index(&self, name: &str, descriptor: &str) -> Option<usize> {
        self.fields.iter().position(|(n, d)| n == name && d == descriptor)
    }
}

/// The statement that narrows `value` as a store into a field of type `descriptor` does (into
/// the variable it is given), for the types narrower than `int`.
fn narrowing(descriptor: &str, value: &Operand) -> Option<impl FnOnce(VarId) -> StmtKind> {
    let value = value.clone();
    let op = match descriptor {
        "Z" => None,
        "B" => Some(UnOp::IntToByte),
        "C" => Some(UnOp::IntToChar),
        "S" => Some(UnOp::IntToShort),
        _ => return None,
    };
    Some(move |dst| match op {
        Some(op) => StmtKind::Unary {
            dst,
            op,
            from: Ty::Int,
            src: value,
        },
        None => StmtKind::Binary {
            dst,
            op: BinOp::And,
            ty: Ty::Int,
            lhs: value,
            rhs: Operand::Int(1),
        },
    })
}

/// The value a field of type `ty` has in a new object.
fn default_value(ty: Ty) -> Operand {
    match ty {
        Ty::Int => Operand::Int(0),
        Ty::Long => Operand::Long(0),
        Ty::Float => Operand::Float(0.0f32.to_bits()),
        Ty::Double => Operand::Double(0.0f64.to_bits()),
        Ty::Ref => Operand::Null,
    }
}

/// Splices into their caller the copied procedures of one unguarded rule that one call runs (a
/// getter, `next()`, a constructor): the caller's rule runs their statements itself, on renamed
/// variables, with the callee's bytecodes added to its own, so that no call separates the
/// object's fields from the caller's other values.
fn splice_straight_calls(ir: &mut MethodIr, first_copy: usize) {
    loop {
        let mut changed = false;
        for p in 0..ir.procs.len() {
            for r in 0..ir.procs[p].rules.len() {
                let mut k = 0;
                while k < ir.procs[p].rules[r].body.len() {
                    match splice_at(ir, (p, r, k), first_copy) {
                        Some(count) => {
                            changed = true;
                            k += count;
                        }
                        None => k += 1,
                    }
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// Splices the call at `at` when its callee qualifies; the statements it became.
fn splice_at(ir: &mut MethodIr, (p, r, k): At, first_copy: usize) -> Option<usize> {
    let stmt = ir.procs[p].rules[r].body[k].clone();
    let StmtKind::Call { proc: q, args, outs } = &stmt.kind else {
        return None;
    };
    let q = q.index();
    if q < first_copy || q == p || callers(ir, q) != 1 {
        return None;
    }
    let callee = &ir.procs[q];
    let [rule] = callee.rules.as_slice() else {
        return None;
    };
    let throws = matches!(rule.body.last().map(|s| &s.kind), Some(StmtKind::Throw { .. }));
    let calls_itself = rule
        .body
        .iter()
        .any(|s| matches!(&s.kind, StmtKind::Call { proc, .. } if proc.index() == q));
    if !rule.guard.is_empty() || throws || calls_itself || rule.body.iter().any(|s| s.handler.is_some()) {
        return None;
    }
    let (callee, decls) = (callee.clone(), ir.vars.clone());
    splice_rule(ir, (p, r, k), (callee, &decls), args, outs)
}

/// Replaces the call at `at`, with arguments `args` and results `outs`, by the statements of the
/// only rule of `proc` (whose variables `decls` declares) on renamed variables: its inputs replaced by the arguments, its statements
/// with the callee's bytecodes added to the call's own and the call's handler edge where they
/// have none (an exception they raise went to it through the call), its outputs copied to the
/// results; the caller's later statements and rule count the callee's bytecodes. The statements
/// the call became.
pub(super) fn splice_rule(
    ir: &mut MethodIr,
    (p, r, k): At,
    (proc, decls): (super::Procedure, &[VarDecl]),
    args: &[Operand],
    outs: &[VarId],
) -> Option<usize> {
    let stmt = ir.procs[p].rules[r].body[k].clone();
    let renamed = renamed_apart(ir, proc, decls)?;
    let (base, extra) = (stmt.bytecodes, renamed.rules[0].bytecodes);
    // Inputs are never assigned, so each use of one reads the argument itself.
    let argument: HashMap<VarId, &Operand> = renamed.inputs.iter().copied().zip(args).collect();
    let mut spliced: Vec<Stmt> = renamed.rules[0]
        .body
        .iter()
        .map(|s| {
            let mut s = Stmt {
                pc: stmt.pc,
                bytecodes: base + s.bytecodes,
                handler: s
                    .handler
                    .clone()
                    .or_else(|| stmt.handler.clone().filter(|_| s.kind.can_throw())),
                ..s.clone()
            };
            for operand in s.kind.uses_mut() {
                if let Some(arg) = operand.as_var().and_then(|v| argument.get(&v)) {
                    *operand = (*arg).clone();
                }
            }
            s
        })
        .collect();
    spliced.extend(outs.iter().zip(&renamed.outputs).map(|(o, v)| Stmt {
        pc: stmt.pc,
        bytecodes: base + extra,
        kind: StmtKind::Assign {
            dst: *o,
            src: Operand::Var(*v),
        },
        handler: None,
    }));
    let count = spliced.len();
    let caller = &mut ir.procs[p].rules[r];
    for later in &mut caller.body[k + 1..] {
        later.bytecodes += extra;
    }
    caller.bytecodes += extra;
    caller.body.splice(k..=k, spliced);
    Some(count)
}

/// `proc` with every variable it mentions (declared in `decls`) replaced by a new variable of `ir`
/// of the same type.
fn renamed_apart(ir: &mut MethodIr, proc: super::Procedure, decls: &[VarDecl]) -> Option<super::Procedure> {
    let mut single = MethodIr {
        class: String::new(),
        name: String::new(),
        descriptor: String::new(),
        is_static: true,
        source_file: None,
        lines: Vec::new(),
        vars: Vec::new(),
        procs: vec![proc],
        entry: ProcId::from_index(0),
        ghosts: Vec::new(),
        heap_entry: None,
    };
    let mut names: HashSet<String> = ir.vars.iter().map(|v| v.name.clone()).collect();
    let mut map: HashMap<VarId, VarId> = HashMap::new();
    visit_vars_mut(&mut single, |v| {
        let new = *map.entry(*v).or_insert_with(|| {
            let decl = &decls[v.index()];
            let name = fresh_name(&mut names, &format!("{}.s", decl.name));
            let ty = decl.ty;
            ir.vars.push(VarDecl { name, ty });
            VarId::from_index(ir.vars.len() - 1)
        });
        *v = new;
    });
    single.procs.pop()
}
