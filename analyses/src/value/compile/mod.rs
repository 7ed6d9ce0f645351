//! Abstract compilation (COSTA, Alonso et al. Sec. 4.1): every IR rule becomes abstract rules whose
//! items are linear constraints over the sizes of the rule's variables and calls of abstract
//! procedures; non-linear and bit operations become calls of auxiliary procedures (`auxiliary.rs`), one
//! instance per operation occurrence so that calling contexts never merge.
//!
//! Sizes: ints and longs by value, arrays by length, other references by their size as a tree
//! (`value::heap`: 0 for null, at least 1 otherwise, 1 for a new object; a field read is shorter
//! than the object it is read from, and reads of different fields of one object add up to less
//! than it, unless `value::heap` says the object may be cyclic), floats and doubles
//! unconstrained. After a field write or a call that may change a variable's size,
//! `value::heap`'s plan gives it a new dimension.
//!
//! **Soundness assumptions**: the heap a method starts from is acyclic (`value::heap`), and
//! arrays' and strings' lengths are below `2^31` (see `overflow.rs`; an object's size as a tree
//! has no upper bound, `Width::Nodes`). Integer results that can wrap around
//! are followed by a `Wrap` item, which keeps their mathematical value only where it is proven in
//! range. Everything else over-approximates: an operation without a precise abstraction
//! constrains nothing.
//!
//! Invariants: **in an abstract rule of a procedure with `k` inputs and `m` outputs, dimensions
//! `0..k` are the inputs and `k..k+m` the outputs**; a `!=` guard on numbers splits the rule in two
//! (`<` and `>`), so abstract rules are conjunctions; each statement with a handler edge adds a rule
//! that stops before the statement and continues in the handler.

mod calls;
mod exceptions;
mod hoist;
mod stmt;

use super::auxiliary;
use super::heap::{self, RulePlan};
use super::polyhedra::{Constraint, Dimension, LinearExpr};
use super::program::*;
use crate::cost_model::{is_spec_marker, CostModel, Factor};
use crate::hierarchy::Hierarchy;
use crate::ir::ghosts;
use crate::ir::*;
use std::collections::HashMap;

/// Statements of one block that may throw out of it and get a rule of their own; past this, the
/// block's cost is unknown (each such rule repeats the block's prefix, so this bounds the size of
/// the abstract program quadratically in the block size).
pub const MAX_ESCAPES_PER_RULE: usize = 24;

/// How method calls are resolved: the indices of the methods (in the program) a call may run, or
/// `None` when some target is not part of the program (its result is then unknown).
pub trait CallResolver {
    fn resolve(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<usize>>;

    /// The targets of a call that `resolve` does not place wholly in the program, each in the
    /// program or summarised, or `None` when some target is neither (the call is then opaque).
    fn summarise(&self, _kind: CallKind, _method: &MethodRef) -> Option<Vec<Target>> {
        None
    }

    /// Why a call that is neither resolved nor summarised has no analysed target, when known.
    fn why_not_analysed(&self, _kind: CallKind, _method: &MethodRef) -> Option<String> {
        None
    }

    /// Whether every target of the call is a native method: it executes no bytecode, invokes and
    /// allocates nothing the cost models count (callbacks from native code into Java are not
    /// modelled), and returns an unconstrained value.
    fn is_native(&self, _kind: CallKind, _method: &MethodRef) -> bool {
        false
    }

    /// The classes, for what they say of path lengths (`value::heap`); without them, only
    /// arrays have sizes that no write changes.
    fn hierarchy(&self) -> Option<&Hierarchy> {
        None
    }
}

/// Resolves a call to the method of the compiled set with exactly its class, name and descriptor
/// (no hierarchy): for IR read from text and for printing the abstract program of a selection.
pub struct ExactResolver<'a>(pub &'a [MethodIr]);

impl CallResolver for ExactResolver<'_> {
    fn resolve(&self, _: CallKind, method: &MethodRef) -> Option<Vec<usize>> {
        let found = self
            .0
            .iter()
            .position(|m| m.class == method.class && m.name == method.name && m.descriptor == method.descriptor)?;
        Some(vec![found])
    }
}

/// Compiles methods into an abstract program.
pub fn compile(methods: &[MethodIr], resolver: &dyn CallResolver, model: CostModel) -> AbstractProgram {
    let mut program = AbstractProgram::default();
    // Allocate every IR procedure first so that calls can refer to any of them.
    for (m, method) in methods.iter().enumerate() {
        let ids = method
            .procs
            .iter()
            .enumerate()
            .map(|(p, proc)| {
                program.procs.push(AbstractProc {
                    is_method_entry: ProcId::from_index(p) == method.entry,
                    name: format!("{}.{}{}/{}", method.class, method.name, method.descriptor, proc.name),
                    inputs: proc.inputs.len(),
                    outputs: proc.outputs.len(),
                    rules: Vec::new(),
                    origin: Origin::Ir {
                        method: m,
                        proc: ProcId::from_index(p),
                    },
                });
                program.procs.len() - 1
            })
            .collect();
        program.of_ir.push(ids);
    }
    let heap = heap::analyse(methods, resolver);
    let classes: Vec<Vec<Option<String>>> = methods.iter().map(heap::var_classes).collect();
    let mut dispatches: HashMap<(CallKind, MethodRef), Option<AbsProcId>> = HashMap::new();
    for (m, method) in methods.iter().enumerate() {
        for (p, proc) in method.procs.iter().enumerate() {
            let mut rules = Vec::new();
            for (r, rule) in proc.rules.iter().enumerate() {
                let tables = Tables {
                    program: &mut program,
                    methods,
                    resolver,
                    dispatches: &mut dispatches,
                };
                let plan = &heap.plans[m][p][r];
                let mut compiler = RuleCompiler::new(method, proc, tables, (m, &classes[m]), model, plan);
                rules.extend(compiler.rule(r, rule));
            }
            let id = program.of_ir[m][p];
            program.procs[id].rules = rules;
            let ghosts: Vec<usize> = (0..proc.inputs.len())
                .filter(|&k| method.ghosts.contains(&proc.inputs[k]))
                .collect();
            if !ghosts.is_empty() {
                program.ghost_inputs.insert(id, ghosts);
            }
        }
    }
    program.heap_effects = heap.effects;
    clone_split_callees(&mut program);
    peel_do_while_loops(&mut program, methods);
    program
}

/// The tables every rule's compilation shares.
struct Tables<'a> {
    program: &'a mut AbstractProgram,
    methods: &'a [MethodIr],
    resolver: &'a dyn CallResolver,
    dispatches: &'a mut HashMap<(CallKind, MethodRef), Option<AbsProcId>>,
}

/// The most procedures a loop may have for its first iteration to be peeled.
const MAX_PEELED: usize = 16;

/// Whether an IR loop procedure is the header of a `do`-`while` loop: one rule without a guard,
/// which changes some of the loop's variables before it hands them on (its last statement calls
/// the next block with other values than its inputs). The header of a loop that tests first
/// only computes what the test needs and hands its inputs on unchanged.
/// Ghost inputs (`ir::ghosts`) are left out of the comparison: every procedure of the loop
/// takes them last and hands them on.
fn is_do_while_header(method: &MethodIr, proc: &Procedure) -> bool {
    let [rule] = proc.rules.as_slice() else {
        return false;
    };
    if proc.kind != ProcKind::Loop || !rule.guard.is_empty() {
        return false;
    }
    let own = |v: &VarId| !method.ghosts.contains(v);
    let inputs: Vec<&VarId> = proc.inputs.iter().filter(|v| own(v)).collect();
    match rule.body.last().map(|s| &s.kind) {
        Some(StmtKind::Call { args, .. }) => {
            let args: Vec<&Operand> = args
                .iter()
                .filter(|a| !matches!(a, Operand::Var(v) if !own(v)))
                .collect();
            args.len() < inputs.len()
                || args
                    .iter()
                    .zip(&inputs)
                    .any(|(arg, input)| **arg != Operand::Var(**input))
        }
        _ => false,
    }
}

/// Peels the first iteration of every `do`-`while` loop: the loop's procedures are copied for the
/// call that enters it, the copies' calls of the loop's header going back to the original. The
/// header's precondition then comes from the back edges alone, which have passed the loop's test,
/// instead of the hull of the entry and those (which loses the test: after `i = 0; do i++; while
/// (i < n)`, the hull of `i = 0` and `i < n` is `i >= 0`, and `i + 1` may wrap). A `do`-`while`
/// header starts with the loop's body (`is_do_while_header`). Copies run the same rules, so the program's meaning is unchanged.
fn peel_do_while_loops(program: &mut AbstractProgram, methods: &[MethodIr]) {
    let is_do_while = |proc: &AbstractProc| match proc.origin {
        Origin::Ir { method, proc } => is_do_while_header(&methods[method], &methods[method].procs[proc.index()]),
        _ => false,
    };
    let heads: Vec<AbsProcId> = (0..program.procs.len())
        .filter(|&p| is_do_while(&program.procs[p]))
        .collect();
    if heads.is_empty() {
        return;
    }
    let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
    let nodes: Vec<_> = (0..program.procs.len()).map(|_| graph.add_node(())).collect();
    for (p, proc) in program.procs.iter().enumerate() {
        for item in proc.rules.iter().flat_map(|r| &r.items) {
            if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                graph.add_edge(nodes[p], nodes[*callee], ());
            }
        }
    }
    let mut component_of = vec![0; program.procs.len()];
    let components = petgraph::algo::tarjan_scc(&graph);
    for (c, members) in components.iter().enumerate() {
        for n in members {
            component_of[n.index()] = c;
        }
    }
    for head in heads {
        let members: Vec<AbsProcId> = components[component_of[head]].iter().map(|n| n.index()).collect();
        if members.len() > MAX_PEELED {
            continue;
        }
        let first = program.procs.len();
        let copy_of: HashMap<AbsProcId, AbsProcId> = members.iter().enumerate().map(|(k, &m)| (m, first + k)).collect();
        for &m in &members {
            let mut copy = program.procs[m].clone();
            copy.is_method_entry = false;
            for item in copy.rules.iter_mut().flat_map(|r| &mut r.items) {
                if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                    if *callee != head {
                        *callee = copy_of.get(callee).copied().unwrap_or(*callee);
                    }
                }
            }
            program.procs.push(copy);
        }
        let outside = (0..first).filter(|p| component_of.get(*p).is_some_and(|&c| c != component_of[head]));
        for p in outside.collect::<Vec<_>>() {
            for item in program.procs[p].rules.iter_mut().flat_map(|r| &mut r.items) {
                if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                    if *callee == head {
                        *callee = copy_of[&head];
                    }
                }
            }
        }
    }
}

/// Keeps the cases of a `!=` test apart: an IR rule guarded by `x != y` compiles into one abstract
/// rule per side (`x < y`, `x > y`), but when both end by calling the same procedure (the next
/// block), that procedure's precondition would be the hull of both sides, `x != y` lost. So each
/// side after the first calls a copy of the callee of its own, when the callee is called from
/// nowhere else. Copies run exactly the callee's rules, so the program's meaning is unchanged; the
/// copied rules are at most as many as the program had, so repeated tests cannot blow it up.
fn clone_split_callees(program: &mut AbstractProgram) {
    let mut callers: HashMap<AbsProcId, usize> = HashMap::new();
    for item in program.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.items) {
        if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
            *callers.entry(*callee).or_default() += 1;
        }
    }
    let mut budget: usize = program.procs.iter().map(|p| p.rules.len()).sum();
    let mut p = 0;
    // Copies are appended and visited too: their own split rules may call single-caller blocks.
    while p < program.procs.len() {
        let mut r = 0;
        while r < program.procs[p].rules.len() {
            let source = program.procs[p].rules[r].source;
            let group = program.procs[p].rules[r..]
                .iter()
                .take_while(|rule| source.is_some() && rule.source == source)
                .count()
                .max(1);
            let callee = tail_callee(&program.procs[p].rules[r]);
            let same_callee = program.procs[p].rules[r..r + group]
                .iter()
                .all(|rule| callee.is_some() && tail_callee(rule) == callee);
            if let Some(q) = callee.filter(|&q| {
                group > 1
                    && same_callee
                    && q != p
                    && !program.procs[q].is_method_entry
                    && callers.get(&q) == Some(&group)
                    && program.procs[q].rules.len() * (group - 1) <= budget
            }) {
                budget -= program.procs[q].rules.len() * (group - 1);
                for k in 1..group {
                    let copy = program.procs[q].clone();
                    program.procs.push(copy);
                    let id = program.procs.len() - 1;
                    for item in program.procs[id].rules.iter().flat_map(|rule| &rule.items) {
                        if let Item::Call { callee, .. } | Item::Charge { callee, .. } = item {
                            *callers.entry(*callee).or_default() += 1;
                        }
                    }
                    callers.insert(id, 1);
                    if let Some(Item::Call { callee, .. }) = program.procs[p].rules[r + k].items.last_mut() {
                        *callee = id;
                    }
                }
                callers.insert(q, 1);
            }
            r += group;
        }
        p += 1;
    }
}

/// The procedure a rule calls last, when its last item is a call.
fn tail_callee(rule: &AbstractRule) -> Option<AbsProcId> {
    match rule.items.last() {
        Some(Item::Call { callee, .. }) => Some(*callee),
        _ => None,
    }
}

struct RuleCompiler<'a> {
    method: &'a MethodIr,
    proc: &'a Procedure,
    program: &'a mut AbstractProgram,
    methods: &'a [MethodIr],
    resolver: &'a dyn CallResolver,
    dispatches: &'a mut HashMap<(CallKind, MethodRef), Option<AbsProcId>>,
    method_index: usize,
    model: CostModel,
    dims: HashMap<VarId, Dimension>,
    next: usize,
    /// What the heap analysis planned for this rule, and the statement being compiled.
    plan: &'a RulePlan,
    current: usize,
    /// The reference fields read so far from each object's size (its dimension), each field
    /// (name and descriptor) once with the dimension of the value read: the fields of one object
    /// are disjoint parts of its size (`stmt::heap_access`).
    field_reads: HashMap<Dimension, Vec<(FieldSlot, Dimension)>>,
    /// The static class of each reference variable of the method, where known
    /// (`heap::var_classes`), which decides its range.
    classes: &'a [Option<String>],
}

/// A field by name and descriptor: two field references that differ in either name different
/// fields of an object (references of one name and descriptor may name one field inherited).
type FieldSlot = (String, String);

/// `Σ terms + constant` as a linear expression; `None` on overflow.
fn expr(terms: &[(Dimension, i64)], constant: i64) -> Option<LinearExpr> {
    LinearExpr::from_terms(terms, constant)
}

/// `Σ terms + constant ≥ 0`.
fn ge(terms: &[(Dimension, i64)], constant: i64) -> Option<Constraint> {
    Some(Constraint::greater_or_equal_zero(expr(terms, constant)?))
}

/// `Σ terms + constant = 0`.
fn eq(terms: &[(Dimension, i64)], constant: i64) -> Option<Constraint> {
    Some(Constraint::equal_zero(expr(terms, constant)?))
}

/// Whether values of this type have a size the analysis tracks.
fn tracked(ty: Ty) -> bool {
    !matches!(ty, Ty::Float | Ty::Double)
}

impl<'a> RuleCompiler<'a> {
    /// A compiler for one rule of a procedure; the shared tables come from `compile`.
    fn new(
        method: &'a MethodIr,
        proc: &'a Procedure,
        tables: Tables<'a>,
        (method_index, classes): (usize, &'a [Option<String>]),
        model: CostModel,
        plan: &'a RulePlan,
    ) -> Self {
        let mut dims = HashMap::new();
        for (k, v) in proc.inputs.iter().chain(&proc.outputs).enumerate() {
            dims.insert(*v, k);
        }
        let next = proc.inputs.len() + proc.outputs.len();
        let mut compiler = RuleCompiler {
            method,
            proc,
            program: tables.program,
            methods: tables.methods,
            resolver: tables.resolver,
            dispatches: tables.dispatches,
            method_index,
            model,
            dims,
            next,
            plan,
            current: 0,
            field_reads: HashMap::new(),
            classes,
        };
        // An output whose size is read anew after its definition takes its last size at the end
        // (`finish_outputs`): its definition goes to a dimension of its own.
        for v in &plan.stale_outputs {
            let d = compiler.fresh();
            compiler.dims.insert(*v, d);
        }
        compiler
    }

    /// The sizes read anew after statement `k` (`heap::RulePlan::remaps`): one new dimension per
    /// alias root, non-negative (positive when not null); a written object's new size is bounded
    /// by its old one and the value written.
    fn remap_after(&mut self, k: usize, stmt: &StmtKind) -> Vec<Item> {
        let plan = self.plan;
        let Some(remaps) = plan.remaps.get(k).filter(|r| !r.is_empty()) else {
            return Vec::new();
        };
        let mut c = Vec::new();
        let written = match (stmt, plan.written.get(k).copied().flatten()) {
            (StmtKind::PutField { object, value, .. }, Some(w)) => {
                let old = self.operand(object, &mut c);
                let y = self.operand(value, &mut c);
                Some((object, old, y, w))
            }
            _ => None,
        };
        let mut new_of_root: HashMap<VarId, Dimension> = HashMap::new();
        for &(v, root, non_null) in remaps {
            let d = match new_of_root.get(&root) {
                Some(d) => *d,
                None => {
                    let d = self.fresh();
                    c.extend(self.ref_facts(d, non_null));
                    new_of_root.insert(root, d);
                    d
                }
            };
            self.dims.insert(v, d);
        }
        let remapped = |o: &VarId| remaps.iter().any(|(v, _, _)| v == o);
        if let Some((Operand::Var(o), old, y, w)) =
            written.filter(|(o, ..)| matches!(o, Operand::Var(v) if remapped(v)))
        {
            let new = self.dim(*o);
            c.extend(ge(&[(new, 1)], -1));
            if w.acyclic {
                c.extend(ge(&[(new, 1), (y, -1)], -1));
                // The written field's old value was part of `old`: `new = old - |o.f| + |y|`.
                c.extend(ge(&[(old, 1), (y, 1), (new, -1)], 0));
                if w.pristine {
                    c.extend(ge(&[(y, 1), (new, -1)], 1));
                }
            }
        }
        vec![Item::Constrain(c)]
    }

    /// The last sizes of the outputs that were read anew (`new`).
    fn finish_outputs(&mut self) -> Vec<Item> {
        let k = self.proc.inputs.len();
        let mut c = Vec::new();
        for v in &self.plan.stale_outputs {
            let j = self
                .proc
                .outputs
                .iter()
                .position(|o| o == v)
                .expect("a stale output is an output");
            let last = self.dim(*v);
            c.extend(eq(&[(k + j, 1), (last, -1)], 0));
        }
        if c.is_empty() {
            Vec::new()
        } else {
            vec![Item::Constrain(c)]
        }
    }

    fn fresh(&mut self) -> Dimension {
        self.next += 1;
        self.next - 1
    }

    fn dim(&mut self, var: VarId) -> Dimension {
        if let Some(d) = self.dims.get(&var) {
            return *d;
        }
        let d = self.fresh();
        self.dims.insert(var, d);
        d
    }

    fn ty(&self, operand: &Operand) -> Ty {
        self.method.operand_ty(operand).unwrap_or(Ty::Float)
    }

    /// A dimension holding the operand's size, with the constraints that define it for constants.
    fn operand(&mut self, operand: &Operand, out: &mut Vec<Constraint>) -> Dimension {
        match operand {
            Operand::Var(v) => self.dim(*v),
            other => {
                let d = self.fresh();
                out.extend(self.constant_size(d, other));
                d
            }
        }
    }

    /// What is known of the size of a constant operand held in `d`. A string literal's size is 1
    /// plus its byte array's length: its UTF-16 length `n` in Latin-1, `2n` in UTF-16 (compact
    /// strings off, or a character beyond Latin-1), so `1 + n <= d <= 1 + 2n`. A literal whose
    /// modified UTF-8 did not decode exactly (it holds U+FFFD) keeps only `d >= 1`.
    fn constant_size(&self, d: Dimension, operand: &Operand) -> Vec<Constraint> {
        match operand {
            Operand::Int(n) => eq(&[(d, 1)], -i64::from(*n)).into_iter().collect(),
            Operand::Long(n) => n.checked_neg().and_then(|neg| eq(&[(d, 1)], neg)).into_iter().collect(),
            Operand::Null => eq(&[(d, 1)], 0).into_iter().collect(),
            Operand::Str(text) if !text.contains('\u{FFFD}') => {
                let n = i64::try_from(text.encode_utf16().count()).unwrap_or(i64::MAX / 4);
                [ge(&[(d, 1)], -1 - n), ge(&[(d, -1)], 1 + 2 * n)]
                    .into_iter()
                    .flatten()
                    .collect()
            }
            Operand::Str(_) | Operand::Class(_) => ge(&[(d, 1)], -1).into_iter().collect(),
            Operand::Var(_) | Operand::Float(_) | Operand::Double(_) => Vec::new(),
        }
    }

    /// The non-negativity (and non-null) facts of a fresh reference or integer result.
    fn ref_facts(&self, d: Dimension, non_null: bool) -> Vec<Constraint> {
        ge(&[(d, 1)], if non_null { -1 } else { 0 }).into_iter().collect()
    }

    /// Compiles one IR rule into its abstract rules (guard splits and handler rules).
    fn rule(&mut self, index: usize, rule: &Rule) -> Vec<AbstractRule> {
        // Inputs that are references have non-negative sizes.
        let mut base_guard = Vec::new();
        for v in &self.proc.inputs {
            if self.method.var(*v).ty == Ty::Ref {
                let d = self.dim(*v);
                base_guard.extend(ge(&[(d, 1)], 0));
            }
        }
        let mut guards: Vec<Vec<Constraint>> = vec![base_guard];
        for cond in &rule.guard {
            let alternatives = self.cond(cond);
            guards = guards
                .iter()
                .flat_map(|g| {
                    alternatives.iter().map(move |alt| {
                        let mut both = g.clone();
                        both.extend(alt.iter().cloned());
                        both
                    })
                })
                .collect();
        }
        let mut items: Vec<Item> = Vec::new();
        let mut handler_rules: Vec<(usize, Vec<Item>, RuleCost, bool)> = Vec::new();
        let mut returns = true;
        let mut cost = RuleCost::default();
        let mut escapes = 0;
        for (k, stmt) in rule.body.iter().enumerate() {
            // What an exception raised by this statement has cost: the callee it was thrown in,
            // or the JVM's construction of an implicit exception.
            let (mut exceptional, implicit) = self.exceptional_items(&stmt.kind, &rule.body[..k]);
            exceptional.extend(implicit.iter().cloned());
            let mut partial = cost.clone();
            partial.add(&self.stmt_cost(stmt, true));
            if self.model.counts_bytecodes() {
                partial.constant = u64::from(stmt.bytecodes);
            }
            if let (Some(edge), StmtKind::Throw { .. }) = (&stmt.handler, &stmt.kind) {
                // A null thrown value raises a `NullPointerException` instead, caught by the same
                // handler list; a non-null one goes to the handler as it is.
                if !implicit.is_empty() {
                    let mut alternative = items.clone();
                    alternative.extend(implicit.iter().cloned());
                    alternative.extend(self.handler_call(edge));
                    handler_rules.push((k, alternative, partial.clone(), true));
                }
                let mut alternative = items.clone();
                alternative.extend(self.handler_call(edge));
                handler_rules.push((k, alternative, partial, true));
            } else if let Some(edge) = &stmt.handler {
                let mut alternative = items.clone();
                alternative.extend(exceptional);
                alternative.extend(self.handler_call(edge));
                handler_rules.push((k, alternative, partial, true));
            } else if !implicit.is_empty() {
                // The exception leaves the procedure: a rule that ends here, without returning.
                // Only the construction of an implicit exception needs one: an exception thrown
                // inside a callee costs no more than the callee, which the rule itself counts.
                let exceptional = implicit;
                escapes += 1;
                if escapes > MAX_ESCAPES_PER_RULE {
                    items.push(Item::Opaque {
                        reason: format!(
                            "more than {MAX_ESCAPES_PER_RULE} statements of one block may throw (the analysis budget)"
                        ),
                    });
                } else {
                    let mut alternative = items.clone();
                    alternative.extend(exceptional);
                    handler_rules.push((k, alternative, partial, false));
                }
            }
            if matches!(stmt.kind, StmtKind::Throw { .. }) {
                returns = false;
            }
            self.current = k;
            let compiled = self.stmt(&stmt.kind, stmt.pc);
            items.extend(compiled);
            cost.add(&self.stmt_cost(stmt, false));
            items.extend(self.remap_after(k, &stmt.kind));
        }
        items.extend(self.finish_outputs());
        if self.model.counts_bytecodes() {
            cost.constant = u64::from(rule.bytecodes);
        }
        let may_throw = rule.body.iter().any(|s| {
            s.kind.can_throw() && !matches!(s.kind, StmtKind::Call { .. }) && !ghosts::is_entering_value(&s.kind)
        });
        let dims = self.next;
        let ranges = self.ranges();
        let cyclic_call = self.plan.cyclic_calls.first().map(|(callee, at)| {
            format!("it gives {callee} a structure that may be cyclic (from offset {at}), and {callee} reads reference fields")
        });
        let inputs = self.proc.inputs.len();
        hoist::hoist_constraints(&mut items, inputs);
        for (_, alternative, _, _) in &mut handler_rules {
            hoist::hoist_constraints(alternative, inputs);
        }
        let mut out = Vec::new();
        for guard in &guards {
            out.push(AbstractRule {
                dims,
                cost: cost.clone(),
                guard: guard.clone(),
                items: items.clone(),
                returns,
                may_throw,
                source: Some((index, None)),
                ranges: ranges.clone(),
                cyclic_call: cyclic_call.clone(),
            });
            for (k, alternative, partial, continues) in &handler_rules {
                out.push(AbstractRule {
                    dims,
                    cost: partial.clone(),
                    guard: guard.clone(),
                    items: alternative.clone(),
                    returns: *continues,
                    may_throw: true,
                    source: Some((index, Some(*k))),
                    ranges: ranges.clone(),
                    cyclic_call: cyclic_call.clone(),
                });
            }
        }
        // Handler rules may have allocated dimensions after `dims` was read.
        for r in &mut out {
            r.dims = self.next;
        }
        out
    }

    /// The JVM range of each dimension that holds a program variable.
    fn ranges(&self) -> Vec<(Dimension, Width)> {
        let mut ranges: Vec<(Dimension, Width)> = self
            .dims
            .iter()
            .filter_map(|(v, d)| {
                let width = match self.method.var(*v).ty {
                    Ty::Int => Width::Int,
                    Ty::Long => Width::Long,
                    Ty::Ref => Width::of_reference(self.classes.get(v.index()).and_then(Option::as_deref)),
                    Ty::Float | Ty::Double => return None,
                };
                Some((*d, width))
            })
            .collect();
        ranges.sort_by_key(|(d, _)| *d);
        ranges
    }

    /// The alternatives (a disjunction of conjunctions) of one guard conjunct.
    fn cond(&mut self, cond: &Cond) -> Vec<Vec<Constraint>> {
        let mut defs = Vec::new();
        match cond {
            Cond::Cmp { op, lhs, rhs } => {
                let ty = self.ty(lhs);
                let (l, r) = (self.operand(lhs, &mut defs), self.operand(rhs, &mut defs));
                let with = |c: Option<Constraint>, defs: &Vec<Constraint>| -> Vec<Constraint> {
                    let mut all = defs.clone();
                    all.extend(c);
                    all
                };
                if ty == Ty::Ref {
                    // Only comparisons with null say something about path lengths.
                    let null_side = match (lhs, rhs) {
                        (_, Operand::Null) => Some(l),
                        (Operand::Null, _) => Some(r),
                        _ => None,
                    };
                    return match (op, null_side) {
                        (CmpOp::Eq, Some(d)) => vec![with(eq(&[(d, 1)], 0), &defs)],
                        (CmpOp::Ne, Some(d)) => vec![with(ge(&[(d, 1)], -1), &defs)],
                        (CmpOp::Eq, None) => vec![with(eq(&[(l, 1), (r, -1)], 0), &defs)],
                        _ => vec![defs],
                    };
                }
                match op {
                    CmpOp::Eq => vec![with(eq(&[(l, 1), (r, -1)], 0), &defs)],
                    CmpOp::Ne => vec![
                        with(ge(&[(r, 1), (l, -1)], -1), &defs),
                        with(ge(&[(l, 1), (r, -1)], -1), &defs),
                    ],
                    CmpOp::Lt => vec![with(ge(&[(r, 1), (l, -1)], -1), &defs)],
                    CmpOp::Le => vec![with(ge(&[(r, 1), (l, -1)], 0), &defs)],
                    CmpOp::Gt => vec![with(ge(&[(l, 1), (r, -1)], -1), &defs)],
                    CmpOp::Ge => vec![with(ge(&[(l, 1), (r, -1)], 0), &defs)],
                }
            }
            Cond::InstanceOf { value, negated, .. } => {
                let d = self.operand(value, &mut defs);
                if !negated {
                    defs.extend(ge(&[(d, 1)], -1));
                }
                vec![defs]
            }
        }
    }

    /// The call of a handler procedure in place of the rest of the rule, after the constraints
    /// that define its constant arguments.
    fn handler_call(&mut self, edge: &HandlerEdge) -> Vec<Item> {
        let mut defs = Vec::new();
        let exception = self.fresh();
        defs.extend(ge(&[(exception, 1)], -1));
        let mut args = vec![exception];
        for arg in &edge.args {
            args.push(self.operand(arg, &mut defs));
        }
        let outs = (self.proc.inputs.len()..self.proc.inputs.len() + self.proc.outputs.len()).collect();
        let callee = self.program.of_ir[self.method_index][edge.proc.index()];
        vec![Item::Constrain(defs), Item::Call { callee, args, outs }]
    }

    /// What a statement costs under the model (bytecodes are counted per rule, not here): the
    /// model's [`Charge`] with each operand's size as a dimension of the rule.
    fn stmt_cost(&mut self, stmt: &Stmt, throws: bool) -> RuleCost {
        let charge = self.model.charge(&stmt.kind, throws);
        let mut scratch = Vec::new();
        let mut symbolic = Vec::new();
        for product in &charge.products {
            let factors: Option<Vec<LinearExpr>> = product
                .iter()
                .map(|factor| match factor {
                    Factor::Constant(n) => LinearExpr::from_terms(&[], *n),
                    Factor::Size(operand) => {
                        let d = self.operand(operand, &mut scratch);
                        LinearExpr::from_terms(&[(d, 1)], 0)
                    }
                })
                .collect();
            symbolic.extend(factors);
        }
        RuleCost {
            constant: charge.constant,
            symbolic,
        }
    }

    /// A fresh auxiliary procedure instance for one occurrence of a non-linear operation.
    fn aux(&mut self, op: AuxOp) -> AbsProcId {
        self.program.procs.push(auxiliary::procedure(op));
        self.program.procs.len() - 1
    }
}

fn constant_of(operand: &Operand) -> Option<i64> {
    match operand {
        Operand::Int(n) => Some(i64::from(*n)),
        Operand::Long(n) => Some(*n),
        _ => None,
    }
}

/// Whether a call goes to one of the specification markers (`Resource.consume`, `Loop.invariant`),
/// whose bodies are a single `return`.
fn is_marker(method: &MethodRef) -> bool {
    is_spec_marker(&method.class, &method.name)
}
