//! The walk over one IR rule: which variables alias, which objects no field points to, which
//! cannot reach which, which may be cyclic, statement by statement.

use super::regions::{MethodRegions, Region, RuleRegions};
use super::{Context, HeapEffects};
use crate::ir::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What the compilation of one IR rule must do about the heap (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct RulePlan {
    /// Per statement: the variables whose sizes must be read anew after it, with their alias
    /// root (aliases share the new size) and whether the value is known not to be null.
    pub remaps: Vec<Vec<(VarId, VarId, bool)>>,
    /// Per statement: for a reference field write, what bounds the written object's new size.
    pub written: Vec<Option<Written>>,
    /// Per statement: a reference field read from an object that may be cyclic.
    pub cyclic_reads: Vec<bool>,
    /// Outputs whose sizes are read anew after they are defined: their output dimensions take
    /// the last size.
    pub stale_outputs: Vec<VarId>,
    /// The procedures this rule calls (handlers included), with which arguments may be cyclic.
    pub cyclic_args: Vec<(ProcId, Vec<bool>)>,
    /// The procedures this rule calls (handlers included), with the pairs of their inputs
    /// (positions) that it passes disjoint structures.
    pub disjoint_args: Vec<(ProcId, Pairs)>,
    /// Per output of the procedure, where this rule's value comes from.
    pub output_origins: Vec<Origin>,
    /// The method calls that give a possibly cyclic structure to a method that reads reference
    /// fields: the callee, and the offset where the structure may have become cyclic.
    pub cyclic_calls: Vec<(String, u32)>,
    /// Whether the rule reads a reference field of an object that may be part of a cycle.
    pub reads_fields: bool,
    /// Whether the rule calls its own method (a recursion that may follow the fields it reads).
    pub calls_itself: bool,
    /// What the rule does to the heap, its callees included.
    pub effects: HeapEffects,
}

/// A field write `o.f = y` that is planned: `o`'s new size is at most `|o| + |y|` and at least
/// `|y| + 1` when no cycle may close, exactly `|y| + 1` when `o` had no non-null field.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    pub pristine: bool,
    pub acyclic: bool,
}

/// What the structure of a value (every object it reaches whose fields a write can change) is
/// made of.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Origin {
    /// Objects made during the procedure's run (`fresh`) and objects that the structures of
    /// these inputs reached when it was entered (`null`: neither).
    Known {
        fresh: bool,
        inputs: BTreeSet<usize>,
    },
    Unknown,
}

impl Default for Origin {
    fn default() -> Origin {
        Origin::nothing()
    }
}

impl Origin {
    /// `null`'s.
    pub fn nothing() -> Origin {
        Origin::Known {
            fresh: false,
            inputs: BTreeSet::new(),
        }
    }

    fn fresh() -> Origin {
        Origin::Known {
            fresh: true,
            inputs: BTreeSet::new(),
        }
    }

    fn input(k: usize) -> Origin {
        Origin::Known {
            fresh: false,
            inputs: BTreeSet::from([k]),
        }
    }

    /// Made of what either is made of.
    pub fn join(&self, other: &Origin) -> Origin {
        match (self, other) {
            (Origin::Known { fresh, inputs }, Origin::Known { fresh: f, inputs: i }) => Origin::Known {
                fresh: *fresh || *f,
                inputs: inputs.union(i).copied().collect(),
            },
            _ => Origin::Unknown,
        }
    }
}

/// What a handler edge gives its procedure (`Walk::handler_facts`).
struct HandlerFacts {
    cyclic: Vec<bool>,
    pairs: Pairs,
    made: Vec<Origin>,
}

/// Pairs of positions (the smaller first).
pub type Pairs = BTreeSet<(usize, usize)>;

/// The walk's state over alias roots.
#[derive(Default)]
struct State {
    root: HashMap<VarId, VarId>,
    /// Reference variables defined so far whose size a write may change, in order, and their roots.
    tracked: Vec<VarId>,
    tracked_roots: HashSet<VarId>,
    cyclic: HashSet<VarId>,
    /// `(w, o)`: `w` cannot reach `o`.
    below: HashSet<(VarId, VarId)>,
    /// `(a, b)` with `a < b`: no object whose fields a write can change is reachable from both
    /// (so neither reaches the other).
    disjoint: HashSet<(VarId, VarId)>,
    /// Variables that hold `null`.
    nulls: HashSet<VarId>,
    /// What the structures of roots are made of (absent: unknown).
    sources: HashMap<VarId, Origin>,
    /// Objects made in this rule that no field points to and no call was given.
    unpointed: HashSet<VarId>,
    /// Objects whose reference fields are all null.
    pristine: HashSet<VarId>,
    non_null: HashSet<VarId>,
    /// Where each cyclic root may have become so (offset of the statement).
    cycle_at: HashMap<VarId, u32>,
}

impl State {
    fn root_of(&self, v: VarId) -> VarId {
        self.root.get(&v).copied().unwrap_or(v)
    }

    fn operand_root(&self, operand: &Operand) -> Option<VarId> {
        match operand {
            Operand::Var(v) => Some(self.root_of(*v)),
            _ => None,
        }
    }

    /// Whether the object of `w` may reach the object of `o`.
    fn may_reach(&self, w: VarId, o: VarId) -> bool {
        w == o
            || (!self.below.contains(&(w, o))
                && !self.pristine.contains(&w)
                && !self.unpointed.contains(&o)
                && !self.disjoint(w, o))
    }

    /// Whether the structures of the roots `a` and `b` share no object a write can change: one
    /// of them is `null`, an object made here that nothing points to and that points to nothing,
    /// or the pair is known disjoint.
    fn disjoint(&self, a: VarId, b: VarId) -> bool {
        let alone = |v: VarId| self.pristine.contains(&v) && self.unpointed.contains(&v);
        a != b
            && (self.nulls.contains(&a)
                || self.nulls.contains(&b)
                || alone(a)
                || alone(b)
                || self.disjoint.contains(&(a.min(b), a.max(b))))
    }

    fn set_disjoint(&mut self, a: VarId, b: VarId) {
        if a != b {
            self.disjoint.insert((a.min(b), a.max(b)));
        }
    }

    /// The roots of tracked variables whose structures are disjoint from `o`'s.
    fn tracked_roots_disjoint_from(&self, o: VarId) -> Vec<VarId> {
        self.roots().into_iter().filter(|z| self.disjoint(o, *z)).collect()
    }

    fn roots(&self) -> Vec<VarId> {
        let mut seen = HashSet::new();
        self.tracked
            .iter()
            .map(|v| self.root_of(*v))
            .filter(|r| seen.insert(*r))
            .collect()
    }

    /// Marks a root cyclic (only roots of tracked variables can be: arrays and stable objects
    /// are leaves of path lengths).
    fn make_cyclic(&mut self, root: VarId, pc: u32) {
        if !self.tracked_roots.contains(&root) {
            return;
        }
        if self.cyclic.insert(root) {
            self.cycle_at.insert(root, pc);
        }
    }
}

/// What a procedure's calls give its inputs: which may be cyclic, and which pairs are disjoint.
pub(super) struct InputFacts<'a> {
    pub cyclic: &'a [bool],
    pub disjoint: &'a Pairs,
    /// Per procedure of the method, where its outputs come from.
    pub origins: &'a [Vec<Origin>],
    /// Whether the method may close cycles (see `Walk::cycle_prone`).
    pub cycle_prone: bool,
}

/// Plans one rule of procedure `p` of method `m`, given what its calls give its inputs.
pub(super) fn plan(
    context: &mut Context<'_>,
    m: usize,
    p: usize,
    inputs: InputFacts<'_>,
    looping: bool,
    regions: &MethodRegions,
    rule: &Rule,
) -> RulePlan {
    let method = &context.methods[m];
    let proc = &method.procs[p];
    let mut walk = Walk {
        m,
        method,
        classes: &context.var_classes[m],
        stable: context.classes,
        state: State::default(),
        plan: RulePlan::default(),
        cycle_prone: inputs.cycle_prone,
        inputs: proc.inputs.iter().copied().collect(),
        last_use: last_uses(proc, rule),
        looping,
        regions: RuleRegions::start(&proc.inputs, &regions.inputs[p]),
        separated: regions.separated,
        pc: 0,
        call_affected: Vec::new(),
    };
    let constructor_this = (method.name == "<init>" && ProcId::from_index(p) == method.entry)
        .then(|| proc.inputs.first().copied())
        .flatten();
    for (k, input) in proc.inputs.iter().enumerate() {
        walk.define(*input);
        if inputs.cyclic.get(k).copied().unwrap_or(true) {
            walk.state.make_cyclic(*input, 0);
        }
    }
    for (k, input) in proc.inputs.iter().enumerate() {
        walk.state.sources.insert(*input, Origin::input(k));
    }
    for &(i, j) in inputs.disjoint {
        if let (Some(a), Some(b)) = (proc.inputs.get(i), proc.inputs.get(j)) {
            walk.state.set_disjoint(*a, *b);
        }
    }
    if let Some(this) = constructor_this {
        walk.state.unpointed.insert(this);
    }
    if !method.is_static && ProcId::from_index(p) == method.entry {
        walk.state.non_null.extend(proc.inputs.first().copied());
    }
    for cond in &rule.guard {
        if let Cond::Cmp {
            op: CmpOp::Ne,
            lhs: Operand::Var(v),
            rhs: Operand::Null,
        } = cond
        {
            walk.state.non_null.insert(*v);
        }
    }
    // Per handler edge, what each output is made of when the handler returns it.
    let mut thrown_outputs: Vec<Origin> = Vec::new();
    for stmt in &rule.body {
        walk.plan.remaps.push(Vec::new());
        walk.plan.written.push(None);
        walk.plan.cyclic_reads.push(false);
        let handler_origins = |edge: &HandlerEdge| inputs.origins.get(edge.proc.index()).cloned().unwrap_or_default();
        let before = stmt
            .handler
            .as_ref()
            .map(|edge| walk.handler_facts(edge, &handler_origins(edge)));
        walk.statement(context, stmt, constructor_this, inputs.origins);
        // The statement may throw before or after its effects: the handler gets what holds at both.
        if let (Some(edge), Some(before)) = (&stmt.handler, before) {
            let after = walk.handler_facts(edge, &handler_origins(edge));
            let cyclic = before.cyclic.iter().zip(&after.cyclic).map(|(a, b)| *a || *b).collect();
            walk.plan.cyclic_args.push((edge.proc, cyclic));
            let pairs = before.pairs.intersection(&after.pairs).copied().collect();
            walk.plan.disjoint_args.push((edge.proc, pairs));
            if before.made.len() == proc.outputs.len() {
                thrown_outputs.extend(before.made.iter().zip(&after.made).map(|(a, b)| a.join(b)));
            } else {
                thrown_outputs.extend(proc.outputs.iter().map(|_| Origin::Unknown));
            }
            // The handler continues the procedure: what it does to the heap, the procedure does
            // (which outputs it makes cyclic is not followed: an exception is its own cause).
            let mut handled = context.effects[m][edge.proc.index()].clone();
            handled.cyclic_result = false;
            walk.plan.effects.join(&handled);
        }
        walk.regions.step(&stmt.kind);
    }
    let remapped: HashSet<VarId> = walk.plan.remaps.iter().flatten().map(|(v, _, _)| *v).collect();
    if proc
        .outputs
        .iter()
        .any(|v| walk.state.cyclic.contains(&walk.state.root_of(*v)))
    {
        walk.plan.effects.cyclic_result = true;
    }
    walk.plan.stale_outputs = proc.outputs.iter().copied().filter(|v| remapped.contains(v)).collect();
    let outputs = proc.outputs.len();
    walk.plan.output_origins = proc
        .outputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let through_handlers = thrown_outputs.iter().skip(k).step_by(outputs.max(1));
            through_handlers.fold(walk.source(&Operand::Var(*v)), |o, h| o.join(h))
        })
        .collect();
    walk.plan
}

struct Walk<'a> {
    m: usize,
    method: &'a MethodIr,
    classes: &'a [Option<String>],
    stable: &'a super::Classes<'a>,
    state: State,
    plan: RulePlan,
    /// Whether the method may close cycles (then references it reads from static fields and
    /// array elements may be cyclic).
    cycle_prone: bool,
    /// The procedure's inputs (what a store of them leaks to the caller).
    inputs: HashSet<VarId>,
    /// The last statement that uses each variable (outputs: past the last statement); a
    /// variable not used after a statement needs no new size.
    last_use: HashMap<VarId, usize>,
    /// Whether the procedure lies on a loop of the method.
    looping: bool,
    /// Which references hold objects made during this run of the method, and which old ones.
    regions: RuleRegions,
    /// Whether no old object is ever made to point to a fresh one (see `regions`).
    separated: bool,
    /// The offset of the statement being followed.
    pc: u32,
    /// The roots whose structures the last call may have changed.
    call_affected: Vec<VarId>,
}

impl Walk<'_> {
    fn class(&self, v: VarId) -> Option<&str> {
        self.classes.get(v.index()).and_then(|c| c.as_deref())
    }

    /// Whether the object of root `w` may reach the object of root `o`: by what the walk knows,
    /// and by their classes.
    fn may_reach(&self, w: VarId, o: VarId) -> bool {
        self.state.may_reach(w, o) && (w == o || self.stable.may_reach_class(self.class(w), self.class(o)))
    }

    /// Whether `v` holds a reference whose size a write may change.
    fn unstable(&self, v: VarId) -> bool {
        self.method.var(v).ty == Ty::Ref && !self.class(v).is_some_and(|c| self.stable.stable(c))
    }

    fn define(&mut self, v: VarId) {
        if self.unstable(v) {
            self.state.tracked.push(v);
            let r = self.state.root_of(v);
            self.state.tracked_roots.insert(r);
        }
    }

    fn is_cyclic(&self, operand: &Operand) -> bool {
        self.state
            .operand_root(operand)
            .is_some_and(|r| self.state.cyclic.contains(&r))
    }

    /// Whether two operands hold structures that share no object a write can change.
    fn operands_disjoint(&self, a: &Operand, b: &Operand) -> bool {
        let root = |o: &Operand| match o {
            Operand::Var(v) if self.unstable(*v) => Some(self.state.root_of(*v)),
            _ => None,
        };
        match (root(a), root(b)) {
            (Some(x), Some(y)) => self.state.disjoint(x, y),
            _ => true,
        }
    }

    /// Whether the structures `args` hold are acyclic and pairwise disjoint.
    fn all_apart(&self, args: &[Operand]) -> bool {
        let refs: Vec<&Operand> = args
            .iter()
            .filter(|a| matches!(a, Operand::Var(v) if self.unstable(*v)))
            .collect();
        refs.iter().all(|a| !self.is_cyclic(a))
            && refs
                .iter()
                .enumerate()
                .all(|(x, a)| refs[x + 1..].iter().all(|b| self.operands_disjoint(a, b)))
    }

    /// The pairs of `args` (positions shifted by `shift`) that hold disjoint structures, among
    /// those that hold references whose sizes writes may change.
    fn disjoint_pairs(&self, args: &[Operand], shift: usize) -> Pairs {
        let refs: Vec<usize> = (0..args.len())
            .filter(|&k| matches!(&args[k], Operand::Var(v) if self.unstable(*v)) || args[k] == Operand::Null)
            .collect();
        let mut pairs = Pairs::new();
        for (x, &i) in refs.iter().enumerate() {
            for &j in &refs[x + 1..] {
                if self.operands_disjoint(&args[i], &args[j]) {
                    pairs.insert((i + shift, j + shift));
                }
            }
        }
        pairs
    }

    fn index(&self) -> usize {
        self.plan.remaps.len() - 1
    }

    /// What the structure of an operand is made of.
    fn source(&self, operand: &Operand) -> Origin {
        match operand {
            Operand::Var(v) if self.unstable(*v) => {
                let r = self.state.root_of(*v);
                if self.state.nulls.contains(&r) {
                    return Origin::nothing();
                }
                self.state.sources.get(&r).cloned().unwrap_or(Origin::Unknown)
            }
            _ => Origin::nothing(),
        }
    }

    fn set_source(&mut self, root: VarId, origin: Origin) {
        match origin {
            Origin::Unknown => self.state.sources.remove(&root),
            known => self.state.sources.insert(root, known),
        };
    }

    /// The outputs of a call of a procedure of the method, after the call: each is made of the
    /// objects the call made (which no root the call left unchanged reaches) and of the
    /// structures of the arguments its origin names, so it shares no object with a root that
    /// those arguments share none with.
    fn call_outputs(&mut self, args: &[Operand], outs: &[VarId], origins: &[Origin], made: Vec<Origin>) {
        for ((out, origin), made) in outs.iter().zip(origins).zip(made) {
            let Origin::Known { fresh, inputs } = origin else {
                continue;
            };
            if !self.unstable(*out) {
                continue;
            }
            if inputs.is_empty() && !*fresh {
                self.state.nulls.insert(*out);
            }
            let named: Vec<Operand> = inputs
                .iter()
                .map(|j| args.get(*j).cloned().unwrap_or(Operand::Null))
                .collect();
            let apart = self.apart_from(&named);
            self.link_result(*out, made, apart);
        }
    }

    /// What a handler edge gives its procedure, at this point of the rule: which arguments may
    /// be cyclic, which pairs are disjoint, and what the handler's outputs (the procedure's) are
    /// made of.
    fn handler_facts(&self, edge: &HandlerEdge, origins: &[Origin]) -> HandlerFacts {
        let mut cyclic = vec![true];
        cyclic.extend(edge.args.iter().map(|a| self.is_cyclic(a)));
        // The handler's input 0 is the exception, of unknown origin.
        let shifted: Vec<Origin> = origins
            .iter()
            .map(|o| match o {
                Origin::Known { fresh, inputs } if !inputs.contains(&0) => Origin::Known {
                    fresh: *fresh,
                    inputs: inputs.iter().map(|j| j - 1).collect(),
                },
                Origin::Known { .. } | Origin::Unknown => Origin::Unknown,
            })
            .collect();
        HandlerFacts {
            cyclic,
            pairs: self.disjoint_pairs(&edge.args, 1),
            made: self.outputs_made(&edge.args, &shifted),
        }
    }

    /// What the outputs of a call with these origins are made of, from the arguments' structures
    /// before the call (the origins speak of the callee's entry).
    fn outputs_made(&self, args: &[Operand], origins: &[Origin]) -> Vec<Origin> {
        let made = |origin: &Origin| match origin {
            Origin::Known { fresh, inputs } => {
                let named: Vec<Operand> = inputs
                    .iter()
                    .map(|j| args.get(*j).cloned().unwrap_or(Operand::Null))
                    .collect();
                let own = if *fresh { Origin::fresh() } else { Origin::nothing() };
                own.join(&self.made_of(&named))
            }
            Origin::Unknown => Origin::Unknown,
        };
        origins.iter().map(made).collect()
    }

    /// What the structures of `args` are made of, together.
    fn made_of(&self, args: &[Operand]) -> Origin {
        args.iter()
            .fold(Origin::nothing(), |made, a| made.join(&self.source(a)))
    }

    /// The roots whose structures share no object with any of `args`'.
    fn apart_from(&self, args: &[Operand]) -> HashSet<VarId> {
        self.state
            .roots()
            .into_iter()
            .filter(|z| args.iter().all(|a| self.operands_disjoint(a, &Operand::Var(*z))))
            .collect()
    }

    /// A call's result (or constructed receiver) `out`, made of `made`, shares no object with
    /// the roots `apart` that the call left unchanged.
    fn link_result(&mut self, out: VarId, made: Origin, apart: HashSet<VarId>) {
        for z in apart
            .into_iter()
            .filter(|z| *z != out && !self.call_affected.contains(z))
        {
            self.state.set_disjoint(out, z);
        }
        self.set_source(out, made);
    }

    fn statement(
        &mut self,
        context: &mut Context<'_>,
        stmt: &Stmt,
        constructor_this: Option<VarId>,
        origins: &[Vec<Origin>],
    ) {
        self.pc = stmt.pc;
        match &stmt.kind {
            StmtKind::GetField { dst, object, field } if is_reference(&field.descriptor) => {
                self.read_field(*dst, object, stmt.pc);
            }
            StmtKind::GetStatic { dst, field } if is_reference(&field.descriptor) => self.read_root(*dst, stmt.pc),
            StmtKind::ArrayLoad {
                dst, elem: ElemTy::Ref, ..
            } => self.read_root(*dst, stmt.pc),
            StmtKind::PutField { object, field, value } if is_reference(&field.descriptor) => {
                self.plan.effects.writes.add(&field.class);
                self.plan.effects.writes_existing |= self.regions.of(object) != Region::Fresh;
                self.write_field(object, field, value, stmt.pc, constructor_this);
            }
            StmtKind::PutStatic { value, .. } | StmtKind::ArrayStore { value, .. } => {
                if let Some(r) = self.state.operand_root(value) {
                    self.leak(r, constructor_this);
                    self.state.unpointed.remove(&r);
                    // Others may read a cyclic structure from there.
                    self.plan.effects.makes_cycles |= self.state.cyclic.contains(&r);
                }
            }
            StmtKind::New { dst, .. } => {
                self.define(*dst);
                self.set_source(*dst, Origin::fresh());
                self.state.unpointed.insert(*dst);
                self.state.pristine.insert(*dst);
                self.state.non_null.insert(*dst);
            }
            StmtKind::Assign { dst, src } => {
                match src {
                    Operand::Var(v) => {
                        let r = self.state.root_of(*v);
                        self.state.root.insert(*dst, r);
                    }
                    Operand::Null => {
                        self.state.pristine.insert(*dst);
                        self.state.nulls.insert(*dst);
                    }
                    _ => {}
                }
                self.define(*dst);
            }
            StmtKind::Invoke {
                dst,
                kind,
                method,
                args,
                ..
            } => {
                let mut effects = context.invoke(*kind, method);
                if (effects.makes_cycles || effects.cyclic_result) && self.all_apart(args) {
                    effects = effects.given_disjoint();
                }
                if effects.cyclic_receiver && method.name == "<init>" {
                    self.cyclic_receiver(args, stmt.pc, constructor_this);
                }
                if *kind != CallKind::Static {
                    if let Some(r) = args.first().and_then(|a| self.state.operand_root(a)) {
                        self.state.non_null.insert(r);
                    }
                }
                let receiver = (method.name == "<init>").then(|| args.first()).flatten();
                self.plan.calls_itself |= method.class == self.method.class
                    && method.name == self.method.name
                    && method.descriptor == self.method.descriptor;
                let cycle = args.iter().filter_map(|a| self.state.operand_root(a)).find_map(|r| {
                    self.state
                        .cyclic
                        .contains(&r)
                        .then(|| self.state.cycle_at.get(&r).copied())
                });
                if let (true, Some(at)) = (effects.walks, cycle) {
                    let callee = format!("{}.{}", method.class.replace('/', "."), method.name);
                    self.plan.cyclic_calls.push((callee, at.unwrap_or(stmt.pc)));
                }
                let changed = if effects.writes_existing {
                    Changed::Reachable
                } else {
                    Changed::Receiver
                };
                // A constructed object reaches what it was given, and what the constructor made.
                let constructed = receiver
                    .and_then(|r| self.state.operand_root(r))
                    .map(|r| (r, self.made_of(args).join(&Origin::fresh()), self.apart_from(args)));
                let result = std::slice::from_ref(&effects.result);
                let made = self.outputs_made(args, result);
                self.call(&effects, args, receiver, changed, dst.iter().copied(), constructor_this);
                if let Some((r, made, apart)) = constructed {
                    self.link_result(r, made, apart);
                }
                if let Some(d) = dst {
                    self.call_outputs(args, &[*d], result, made);
                }
            }
            StmtKind::InvokeDynamic { dst, args, .. } => self.call(
                &HeapEffects::anything(),
                args,
                None,
                Changed::Reachable,
                dst.iter().copied(),
                constructor_this,
            ),
            StmtKind::Call { proc, args, outs } => {
                let cyclic = args.iter().map(|a| self.is_cyclic(a)).collect();
                self.plan.cyclic_args.push((*proc, cyclic));
                let pairs = self.disjoint_pairs(args, 0);
                self.plan.disjoint_args.push((*proc, pairs));
                let effects = context.effects[self.m][proc.index()].clone();
                // The procedure's own writes into fresh objects are not `writes_existing` (freshness
                // is the method's), so only separation keeps the old objects out of its reach.
                let changed = if self.separated && !effects.writes_existing {
                    Changed::NotOld
                } else {
                    Changed::Reachable
                };
                let of_callee = origins.get(proc.index()).cloned().unwrap_or_default();
                let made = self.outputs_made(args, &of_callee);
                self.call(&effects, args, None, changed, outs.iter().copied(), constructor_this);
                self.call_outputs(args, outs, &of_callee, made);
            }
            other => {
                for d in other.defs() {
                    self.define(d);
                }
            }
        }
    }

    /// `dst = o.f`: shorter than `o` and unable to reach it, unless `o` may be cyclic.
    fn read_field(&mut self, dst: VarId, object: &Operand, pc: u32) {
        self.define(dst);
        // Fields of stable objects (a `String`'s array) lead to no cycle; a loop that reads
        // others may follow one.
        if let Operand::Var(v) = object {
            let unstable = self.unstable(*v);
            self.plan.reads_fields |= unstable;
            self.plan.effects.walks |= unstable && self.looping;
        }
        let Some(o) = self.state.operand_root(object) else {
            return;
        };
        self.state.non_null.insert(o);
        // What `dst` reaches, `o` reaches.
        if let Some(made) = self.state.sources.get(&o).cloned() {
            self.state.sources.insert(dst, made);
        }
        let apart: Vec<VarId> = self.state.tracked_roots_disjoint_from(o);
        for z in apart {
            self.state.set_disjoint(dst, z);
        }
        if self.state.cyclic.contains(&o) {
            let k = self.index();
            self.plan.cyclic_reads[k] = true;
            let at = self.state.cycle_at.get(&o).copied().unwrap_or(pc);
            self.state.cyclic.insert(dst);
            self.state.cycle_at.insert(dst, at);
            return;
        }
        let inherited: Vec<(VarId, VarId)> = self
            .state
            .below
            .iter()
            .filter(|(w, _)| *w == o)
            .map(|(_, z)| (dst, *z))
            .collect();
        self.state.below.extend(inherited);
        self.state.below.insert((dst, o));
    }

    /// A reference read from a static field or an array element: cyclic if the method may have
    /// closed a cycle.
    fn read_root(&mut self, dst: VarId, pc: u32) {
        self.plan.effects.reads_roots = true;
        self.define(dst);
        if self.cycle_prone {
            self.state.make_cyclic(dst, pc);
        }
    }

    /// `o.f = y`.
    fn write_field(
        &mut self,
        object: &Operand,
        field: &FieldRef,
        value: &Operand,
        pc: u32,
        constructor_this: Option<VarId>,
    ) {
        let Some(o) = self.state.operand_root(object) else {
            return;
        };
        // Where `y`'s structure is known apart from another's, and which roots cannot reach `o`
        // (the write changes nothing they reach).
        let apart: HashSet<VarId> = self
            .state
            .roots()
            .into_iter()
            .filter(|z| self.operands_disjoint(value, &Operand::Var(*z)))
            .collect();
        let unreaching: Vec<VarId> = self
            .state
            .roots()
            .into_iter()
            .filter(|z| *z != o && !self.may_reach(*z, o))
            .collect();
        let replaces = self.stable.replaces_reach(field);
        self.state.non_null.insert(o);
        let y = self.state.operand_root(value);
        let reaches_nothing = match (value, y) {
            (Operand::Var(v), Some(ry)) => !self.unstable(*v) || (self.state.pristine.contains(&ry) && ry != o),
            _ => true,
        };
        let cannot_reach_o = reaches_nothing
            || y.is_some_and(|ry| {
                ry != o
                    && (self.state.below.contains(&(ry, o))
                        || self.state.unpointed.contains(&o)
                        || self.state.disjoint(ry, o)
                        || !self.may_reach(ry, o))
            });
        let y_cyclic = y.is_some_and(|ry| self.state.cyclic.contains(&ry));
        let new_cycle = !cannot_reach_o || y_cyclic;
        let becomes_cyclic = new_cycle || self.state.cyclic.contains(&o);
        // In a separated run, no old object reaches a fresh one.
        let into_fresh = self.separated && self.regions.of(object) == Region::Fresh;
        let affected: Vec<VarId> = self
            .state
            .roots()
            .into_iter()
            .filter(|r| self.may_reach(*r, o) && !(into_fresh && self.regions.of_var(*r) == Region::Old))
            .collect();
        let k = self.index();
        self.plan.written[k] = Some(Written {
            pristine: self.state.pristine.contains(&o) || replaces == Some(true),
            acyclic: !becomes_cyclic,
        });
        // Whatever may reach `o` now reaches what `y` reaches.
        let broken: Vec<(VarId, VarId)> = self
            .state
            .disjoint
            .iter()
            .filter(|(a, b)| {
                (self.may_reach(*a, o) && !apart.contains(b)) || (self.may_reach(*b, o) && !apart.contains(a))
            })
            .copied()
            .collect();
        for pair in broken {
            self.state.disjoint.remove(&pair);
        }
        // When the write replaces everything `o` reached (its only changeable field, or a new
        // object's first), `o` now reaches itself and what `y` reaches, and nothing else.
        if (replaces.is_some() || self.state.pristine.contains(&o)) && !becomes_cyclic {
            for z in unreaching.into_iter().filter(|z| apart.contains(z)) {
                self.state.set_disjoint(o, z);
            }
        }
        self.remap(&affected);
        if new_cycle {
            let receiver =
                constructor_this.is_some_and(|t| self.state.root_of(t) == o) && self.state.unpointed.contains(&o);
            if receiver {
                self.plan.effects.cyclic_receiver = true;
            } else {
                self.plan.effects.makes_cycles = true;
            }
        }
        if becomes_cyclic {
            for r in &affected {
                self.state.make_cyclic(*r, pc);
            }
        }
        // The new edge `o -> y`: whatever may reach `o` may now reach whatever `y` may reach.
        if let Some(ry) = y.filter(|ry| *ry != o) {
            self.leak(ry, constructor_this);
            self.state.unpointed.remove(&ry);
        }
        if let Some(ry) = y.filter(|_| !reaches_nothing) {
            let broken: Vec<(VarId, VarId)> = self
                .state
                .below
                .iter()
                .filter(|(w, z)| self.may_reach(*w, o) && self.may_reach(ry, *z))
                .copied()
                .collect();
            for pair in broken {
                self.state.below.remove(&pair);
            }
        }
        // What reaches `o` now reaches what `y` reaches.
        let added = self.source(value);
        for w in affected.iter().chain(std::iter::once(&o)) {
            let grown = self.source(&Operand::Var(*w)).join(&added);
            self.set_source(*w, grown);
        }
        // A write of `null` leaves every reference field null.
        if *value != Operand::Null {
            self.state.pristine.remove(&o);
        }
    }

    /// A store of `r` somewhere: if it is one of the procedure's inputs, the method leaks it.
    fn leak(&mut self, r: VarId, constructor_this: Option<VarId>) {
        if constructor_this.is_some_and(|t| self.state.root_of(t) == r) {
            self.plan.effects.leaks_receiver = true;
        } else if self.inputs.contains(&r) {
            self.plan.effects.leaks = true;
        }
    }

    /// A call with `effects` at the current statement, given `args` (`receiver` when it is a
    /// constructor's), defining `results`.
    fn call(
        &mut self,
        effects: &HeapEffects,
        args: &[Operand],
        receiver: Option<&Operand>,
        changed: Changed,
        results: impl Iterator<Item = VarId>,
        constructor_this: Option<VarId>,
    ) {
        let pc = self.pc;
        self.call_affected.clear();
        // A callee's `cyclic_receiver`, `leaks_receiver` and `cyclic_result` are about its
        // receiver and its result, which `statement`, the stores below and the results take care of.
        let own = (
            self.plan.effects.cyclic_receiver,
            self.plan.effects.leaks_receiver,
            self.plan.effects.cyclic_result,
        );
        self.plan.effects.join(effects);
        (
            self.plan.effects.cyclic_receiver,
            self.plan.effects.leaks_receiver,
            self.plan.effects.cyclic_result,
        ) = own;
        let passed: HashSet<VarId> = args.iter().filter_map(|a| self.state.operand_root(a)).collect();
        let passes_cyclic = passed.iter().any(|r| self.state.cyclic.contains(r));
        let receiver = receiver.and_then(|a| self.state.operand_root(a));
        if !effects.writes.is_nothing() {
            let mut affected: Vec<VarId> = Vec::new();
            for v in &self.state.tracked {
                let r = self.state.root_of(*v);
                let may_change = match changed {
                    Changed::Reachable => true,
                    Changed::NotOld => self.regions.of_var(r) != Region::Old,
                    Changed::Receiver => receiver == Some(r),
                };
                if may_change
                    && !affected.contains(&r)
                    && (passed.contains(&r) || !self.state.unpointed.contains(&r))
                    && self.stable.affected(self.class(*v), &effects.writes)
                {
                    affected.push(r);
                }
            }
            self.remap(&affected);
            self.state.below.retain(|(w, _)| !affected.contains(w));
            self.state
                .disjoint
                .retain(|(a, b)| !affected.contains(a) && !affected.contains(b));
            for r in &affected {
                self.state.sources.remove(r);
            }
            self.call_affected = affected.clone();
            if effects.makes_cycles || passes_cyclic {
                for r in &affected {
                    self.state.make_cyclic(*r, pc);
                }
            }
            for r in &passed {
                self.state.pristine.remove(r);
            }
        }
        for (k, arg) in args.iter().enumerate() {
            let Some(r) = self.state.operand_root(arg) else {
                continue;
            };
            let stored = match receiver {
                Some(_) if k == 0 => effects.leaks_receiver,
                _ => effects.leaks || (receiver.is_none() && effects.leaks_receiver),
            };
            if stored {
                self.leak(r, constructor_this);
                self.state.unpointed.remove(&r);
            }
        }
        let cyclic_result =
            effects.makes_cycles || effects.cyclic_result || passes_cyclic || (self.cycle_prone && effects.reads_roots);
        let results: Vec<VarId> = results.collect();
        // A result may be an object the call was given (`id(x)`), under another root: those
        // objects are no longer known to be ones no field points to or that point nowhere.
        if results.iter().any(|d| self.unstable(*d)) {
            for r in &passed {
                self.state.pristine.remove(r);
                self.state.unpointed.remove(r);
            }
        }
        for d in results {
            self.define(d);
            if cyclic_result {
                self.state.make_cyclic(d, pc);
            }
        }
    }

    /// A constructor that may close a cycle on its receiver: the receiver, an object no field points
    /// to, becomes cyclic; when it is this constructor's own receiver, so does this one's effect,
    /// and otherwise the cycle can only reach callers through this method's result, a field or
    /// a thrown exception, which say so themselves.
    fn cyclic_receiver(&mut self, args: &[Operand], pc: u32, constructor_this: Option<VarId>) {
        let Some(r) = args.first().and_then(|a| self.state.operand_root(a)) else {
            return;
        };
        self.state.make_cyclic(r, pc);
        if constructor_this.is_some_and(|t| self.state.root_of(t) == r) {
            self.plan.effects.cyclic_receiver = true;
        } else if !self.state.unpointed.contains(&r) {
            self.plan.effects.makes_cycles = true;
        }
    }

    /// Sizes read anew for every tracked variable of these roots.
    fn remap(&mut self, roots: &[VarId]) {
        let k = self.index();
        let vars: Vec<(VarId, VarId, bool)> = self
            .state
            .tracked
            .iter()
            .map(|v| (*v, self.state.root_of(*v)))
            .filter(|(v, r)| roots.contains(r) && self.last_use.get(v).is_some_and(|&last| last > k))
            .map(|(v, r)| {
                (
                    v,
                    r,
                    self.state.non_null.contains(&r) || self.state.non_null.contains(&v),
                )
            })
            .collect();
        self.plan.remaps[k].extend(vars);
    }
}

/// Which objects a call may have changed the reference fields of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Changed {
    /// Any it may reach.
    Reachable,
    /// Any it may reach but the old ones (a separated run's procedure that writes only fresh
    /// objects).
    NotOld,
    /// Only a constructor's receiver (a method that writes only objects it made).
    Receiver,
}

/// The index of the last statement of `rule` that uses each variable (in its operands or its
/// handler's arguments); the procedure's outputs are used after the last statement.
fn last_uses(proc: &Procedure, rule: &Rule) -> HashMap<VarId, usize> {
    let mut last = HashMap::new();
    for (k, stmt) in rule.body.iter().enumerate() {
        let handler_args = stmt.handler.iter().flat_map(|edge| &edge.args);
        for operand in stmt.kind.uses().into_iter().chain(handler_args) {
            if let Operand::Var(v) = operand {
                last.insert(*v, k);
            }
        }
    }
    for v in &proc.outputs {
        last.insert(*v, usize::MAX);
    }
    last
}

fn is_reference(descriptor: &str) -> bool {
    descriptor.starts_with('L') || descriptor.starts_with('[')
}
