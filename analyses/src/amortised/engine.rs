//! The proof search: symbolic execution of the IR, one path at a time, from a precondition to
//! the postcondition, with loop invariants at loop heads and specifications at calls.
//!
//! This is the proof search for Atkey's verification conditions. The weakest precondition of a
//! rule is its statements' weakest preconditions composed with those of the procedures the rule
//! continues into (its successors in the control-flow graph); a loop head's is its invariant (the
//! back edge proves it, the body is checked from it once per entering path). Instead of building
//! those formulas and then proving `pre ⊢ wp`, the search decomposes that entailment directly,
//! statement by statement from the precondition, as a focused proof of it would: unfolding
//! `lseg`/`tree` predicates where a field is accessed, folding them where an assertion asks for
//! them, and collecting one resource obligation per instruction that needs resource
//! (`Resource.consume`), per fold and per entailment.
//!
//! Two phases share this code. **Infer** runs without resource obligations to find, for every
//! loop, which of its variables the loop never changes, the data facts (`==`/`!=`) that hold at
//! every iteration (Houdini: candidates true on entry, dropped when a back edge refutes them),
//! and a shape invariant for loops that have none (canonical abstraction, joined over entry and
//! back edges until stable). **Verify** then checks everything, collecting the obligations:
//! nothing found by Infer is trusted, it is proven again. **A path that cannot be verified makes
//! the method fail; the first such failure is reported.**

use super::abstraction::abstract_state;
use super::assertion::{Assertion, Assertions, DataOp, HeapAssertion, LinearExpr, SpecError, TermKind};
use super::context::{marker_id, MethodCtx};
use super::entail::{assume, expose_certain, prove, unfold_certain, Binding, Proof};
use super::limits::{MAX_ACCESS_CASES, MAX_FRAMES, MAX_INLINE_DEPTH, MAX_INVARIANT_DISJUNCTS, MAX_PATHS, MAX_STEPS};
use super::program::{FieldKey, MethodKey, ProgramView, Resolution, SpecLookup, Target};
use super::resolve::{resolve, RAssertions, RConj, RFact, RTerm};
use super::resource::{Obligation, Origin, ResExpr, ResourceVariables};
use super::spec::Role;
use super::symbolic::{Atom, Fresh, State, Value};
use crate::bounds::RESOURCE_CLASS;
use crate::ir::{CallKind, CmpOp, Cond, HandlerEdge, MethodRef, Operand, ProcId, ProcKind, Stmt, StmtKind, Ty, VarId};
use std::collections::{BTreeSet, HashMap};

/// Which phase the proof search runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Infer,
    Verify,
}

/// Why a method could not be verified, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub method: String,
    pub pc: Option<u32>,
    pub line: Option<u32>,
    pub message: String,
}

/// A loop of a method the engine runs, with its invariant (written or inferred).
#[derive(Clone, Debug)]
pub struct LoopData {
    pub method: usize,
    pub proc: ProcId,
    pub pc: u32,
    pub inputs: Vec<(String, Ty)>,
    /// The written invariant: its identifier and resolved form.
    pub user: Option<(i32, RAssertions)>,
    /// Data facts that held at every visit so far (written invariants only).
    pub facts: Option<Vec<RFact>>,
    /// Inputs the loop passes back unchanged at every back edge.
    pub unchanged: Vec<bool>,
    /// Candidate shape invariants (loops without a written invariant), one per disjunct.
    pub templates: Vec<Assertions>,
    pub next_existential: usize,
    pub reached: bool,
    /// The invariant the Verify phase checks.
    pub invariant: Option<RAssertions>,
    /// The inferred invariant as text (with its resource variables), for the report.
    pub inferred_text: Option<String>,
}

/// A method activation on a path: which method, and its parameters' entry values.
#[derive(Clone, Debug)]
struct Activation {
    method: usize,
    ghosts: Vec<Value>,
    depth: usize,
}

#[derive(Clone, Debug)]
enum Frame {
    /// A rule being executed: `pending` receives the outputs of the call in progress.
    Rule {
        act: usize,
        proc: ProcId,
        rule: usize,
        next: usize,
        env: HashMap<VarId, Value>,
        pending: Vec<VarId>,
    },
    /// The caller side of a loop: the frame left outside it, restored when the loop exits.
    LoopExit {
        act: usize,
        proc: ProcId,
        header: Vec<Value>,
        atoms: Vec<Atom>,
        pool: ResExpr,
    },
}

#[derive(Clone, Debug)]
struct Path {
    state: State,
    frames: Vec<Frame>,
    acts: Vec<Activation>,
    last_pc: u32,
    /// The offset of the last statement run in the top-level method.
    top_pc: Option<u32>,
}

/// The proof search over one top-level method (method 0) and the code it inlines.
pub struct Engine<'a> {
    pub view: &'a dyn ProgramView,
    pub variables: &'a mut ResourceVariables,
    pub methods: Vec<MethodCtx>,
    pub loops: Vec<LoopData>,
    pub phase: Phase,
    /// Set by the Infer phase when a candidate changed (another round is needed).
    pub changed: bool,
    pub obligations: Vec<Obligation>,
    pub failure: Option<Failure>,
    /// Annotated methods whose specifications the proof relies on.
    pub callees: BTreeSet<MethodKey>,
    fresh: Fresh,
    steps: usize,
    /// The top-level method's offset on the path being run (where failures in callees show).
    current_top_pc: Option<u32>,
    /// The parameters the top-level method's postcondition names (`@arg x`), by position.
    post_args: Vec<usize>,
    callee_specs: HashMap<MethodKey, Result<(RAssertions, RAssertions), String>>,
}

/// The empty assertion `{ | | 0 }`.
pub fn empty_assertion() -> RAssertions {
    RAssertions {
        exists: Vec::new(),
        exists_names: Vec::new(),
        disjuncts: vec![RConj {
            facts: Vec::new(),
            heap: Vec::new(),
            pool: ResExpr::zero(),
        }],
        text: "{ | | 0 }".to_owned(),
    }
}

enum Flow {
    Continue,
    Done,
}

impl<'a> Engine<'a> {
    pub fn new(view: &'a dyn ProgramView, variables: &'a mut ResourceVariables, top: MethodCtx) -> Engine<'a> {
        Engine {
            view,
            variables,
            methods: vec![top],
            loops: Vec::new(),
            phase: Phase::Infer,
            changed: false,
            obligations: Vec::new(),
            failure: None,
            callees: BTreeSet::new(),
            fresh: Fresh::default(),
            steps: 0,
            current_top_pc: None,
            post_args: Vec::new(),
            callee_specs: HashMap::new(),
        }
    }

    /// Registers the loops of method `method` with their written invariants.
    pub fn add_loops(&mut self, method: usize, invariants: &HashMap<i32, RAssertions>) {
        let ctx = &self.methods[method];
        for (k, proc) in ctx.ir.procs.iter().enumerate() {
            if proc.kind != ProcKind::Loop {
                continue;
            }
            let id = ProcId::from_index(k);
            let inputs = ctx.loop_inputs(id);
            let user = ctx
                .markers
                .get(&id)
                .and_then(|i| invariants.get(i).map(|inv| (*i, inv.clone())));
            self.loops.push(LoopData {
                method,
                proc: id,
                pc: proc.pc,
                unchanged: vec![true; inputs.len()],
                inputs,
                user,
                facts: None,
                templates: Vec::new(),
                next_existential: 0,
                reached: false,
                invariant: None,
                inferred_text: None,
            });
        }
    }

    fn loop_index(&self, method: usize, proc: ProcId) -> Option<usize> {
        self.loops.iter().position(|l| l.method == method && l.proc == proc)
    }

    /// Records the first failure. One inside an inlined method is reported at the top-level
    /// method's call that led there.
    fn fail(&mut self, method: usize, pc: Option<u32>, message: impl Into<String>) {
        if self.failure.is_some() {
            return;
        }
        let mut message = message.into();
        let mut pc = pc;
        if method != 0 {
            message = format!("in the called method {}: {message}", self.methods[method].key);
            pc = self.current_top_pc;
        }
        let top = &self.methods[0];
        self.failure = Some(Failure {
            method: top.key.to_string(),
            pc,
            line: pc.and_then(|pc| top.line_of(pc)),
            message,
        });
    }

    fn oblige(&mut self, method: usize, pc: Option<u32>, expression: ResExpr, what: String) {
        if self.phase != Phase::Verify {
            return;
        }
        let ctx = &self.methods[method];
        self.obligations.push(Obligation {
            expression,
            origin: Origin {
                method: ctx.key.to_string(),
                pc,
                line: pc.and_then(|pc| ctx.line_of(pc)),
                what,
            },
        });
    }

    /// Runs the top-level method from each disjunct of its precondition.
    pub fn run_method(&mut self, pre: &RAssertions, post: &RAssertions) {
        self.post_args = post.arg_positions();
        let ctx = &self.methods[0];
        let ghosts: Vec<Value> = ctx.params.iter().map(|_| self.fresh.value()).collect();
        let mut base = State::default();
        if !ctx.ir.is_static {
            if let Some(this) = ghosts.first() {
                base.pure.add_disequality(*this, Value::Null);
                base.classes.insert(*this, (ctx.ir.class.clone(), false));
            }
        }
        for (param, ghost) in ctx.params.iter().zip(&ghosts) {
            if let Some(class) = &param.class {
                base.classes.entry(*ghost).or_insert_with(|| (class.clone(), false));
            }
        }
        let binding = Binding {
            args: ghosts.clone(),
            vars: Vec::new(),
            ret: None,
        };
        let entry = ctx.ir.entry;
        let starts = assume(&base, pre, &binding, &mut self.fresh);
        let mut work = Vec::new();
        for state in starts {
            let path = Path {
                state,
                frames: Vec::new(),
                acts: vec![Activation {
                    method: 0,
                    ghosts: ghosts.clone(),
                    depth: 0,
                }],
                last_pc: 0,
                top_pc: None,
            };
            self.enter_proc(path, 0, entry, ghosts.clone(), &mut work);
        }
        self.drive(work, post);
    }

    fn drive(&mut self, mut work: Vec<Path>, post: &RAssertions) {
        while let Some(path) = work.pop() {
            if self.failure.is_some() && self.phase == Phase::Verify {
                return;
            }
            if work.len() > MAX_PATHS {
                self.fail(
                    0,
                    None,
                    format!("the proof search has more than {MAX_PATHS} paths at once"),
                );
                return;
            }
            self.step(path, &mut work, post);
        }
    }

    /// Enters procedure `proc` of activation `act` with `args`: one path per rule whose guard
    /// is consistent with the state.
    fn enter_proc(&mut self, path: Path, act: usize, proc: ProcId, args: Vec<Value>, work: &mut Vec<Path>) {
        let ir = self.methods[path.acts[act].method].ir.clone();
        let procedure = ir.proc(proc);
        let env: HashMap<VarId, Value> = procedure.inputs.iter().copied().zip(args.iter().copied()).collect();
        if path.frames.len() >= MAX_FRAMES {
            let method = path.acts[act].method;
            self.fail(method, Some(procedure.pc), "too many nested procedure frames");
            return;
        }
        for (k, rule) in procedure.rules.iter().enumerate() {
            let mut state = path.state.clone();
            if !rule.guard.iter().all(|cond| self.apply_guard(&mut state, cond, &env)) {
                continue;
            }
            unfold_certain(&mut state, &mut self.fresh);
            let mut next = path.clone();
            next.state = state;
            next.frames.push(Frame::Rule {
                act,
                proc,
                rule: k,
                next: 0,
                env: env.clone(),
                pending: Vec::new(),
            });
            work.push(next);
        }
    }

    fn operand(&mut self, state: &mut State, env: &HashMap<VarId, Value>, operand: &Operand) -> Value {
        match operand {
            Operand::Var(v) => env.get(v).copied().unwrap_or_else(|| self.fresh.value()),
            Operand::Int(n) => Value::Int(i64::from(*n)),
            Operand::Long(n) => Value::Int(*n),
            Operand::Null => Value::Null,
            Operand::Float(_) | Operand::Double(_) => self.fresh.value(),
            Operand::Str(_) | Operand::Class(_) => {
                let value = self.fresh.value();
                state.pure.add_disequality(value, Value::Null);
                value
            }
        }
    }

    /// Adds a guard to the state; `false` when it contradicts the state.
    fn apply_guard(&mut self, state: &mut State, cond: &Cond, env: &HashMap<VarId, Value>) -> bool {
        match cond {
            Cond::Cmp { op, lhs, rhs } => {
                let a = self.operand(state, env, lhs);
                let b = self.operand(state, env, rhs);
                let (a, b) = (state.find(a), state.find(b));
                match op {
                    CmpOp::Eq => state.assume_equal(a, b),
                    CmpOp::Ne => state.assume_distinct(a, b),
                    _ => match (a, b) {
                        (Value::Int(x), Value::Int(y)) => match op {
                            CmpOp::Lt => x < y,
                            CmpOp::Le => x <= y,
                            CmpOp::Gt => x > y,
                            CmpOp::Ge => x >= y,
                            _ => true,
                        },
                        // Orderings are not tracked: both outcomes stay possible.
                        _ => true,
                    },
                }
            }
            Cond::InstanceOf { value, class, negated } => {
                let v = self.operand(state, env, value);
                let v = state.find(v);
                if v == Value::Null {
                    return *negated;
                }
                if let Some((known, true)) = state.classes.get(&v) {
                    let holds = self.view.is_subtype(known, class);
                    return holds != *negated;
                }
                if !*negated {
                    return state.assume_distinct(v, Value::Null);
                }
                true
            }
        }
    }

    /// Names a value for failure messages: a variable of the current rule, a parameter (its
    /// entry value), the returned value, null.
    fn namer(&self, path: &Path) -> impl Fn(Value) -> String {
        self.namer_with(path, None)
    }

    fn namer_with(&self, path: &Path, ret: Option<Value>) -> impl Fn(Value) -> String {
        let mut names: Vec<(Value, String)> = Vec::new();
        let frame = path.frames.iter().rev().find_map(|f| match f {
            Frame::Rule { act, env, .. } => Some((*act, Some(env))),
            Frame::LoopExit { .. } => None,
        });
        let (act, env) = frame.unwrap_or((0, None));
        if let Some(activation) = path.acts.get(act) {
            let ctx = &self.methods[activation.method];
            if let Some(env) = env {
                let mut vars: Vec<(&VarId, &Value)> = env.iter().collect();
                vars.sort_by_key(|(v, _)| (ctx.ir.var(**v).name.len(), v.index()));
                for (var, value) in vars {
                    let name = super::resolve::base_name(&ctx.ir.var(*var).name);
                    if !is_temporary(name) {
                        names.push((path.state.find(*value), name.to_owned()));
                    }
                }
            }
            if let Some(ret) = ret {
                names.push((path.state.find(ret), "@ret".to_owned()));
            }
            for (param, ghost) in ctx.params.iter().zip(&activation.ghosts) {
                names.push((path.state.find(*ghost), format!("@arg {}", param.name)));
            }
        }
        move |value: Value| match value {
            Value::Null => "null".to_owned(),
            Value::Int(n) => n.to_string(),
            Value::Sym(_) => names
                .iter()
                .find(|(v, _)| *v == value)
                .map_or_else(|| "an object".to_owned(), |(_, n)| n.clone()),
        }
    }

    fn step(&mut self, mut path: Path, work: &mut Vec<Path>, post: &RAssertions) {
        loop {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                self.fail(0, None, format!("the proof search ran out of steps ({MAX_STEPS})"));
                return;
            }
            let Some(Frame::Rule {
                act, proc, rule, next, ..
            }) = path.frames.last().cloned()
            else {
                return;
            };
            let method = path.acts[act].method;
            let ir = self.methods[method].ir.clone();
            let procedure = ir.proc(proc);
            let body = &procedure.rules[rule].body;
            if next >= body.len() {
                let Some(Frame::Rule { env, .. }) = path.frames.pop() else {
                    return;
                };
                let values: Vec<Value> = procedure
                    .outputs
                    .iter()
                    .map(|v| env.get(v).copied().unwrap_or(Value::Null))
                    .collect();
                self.return_values(path, values, work, post);
                return;
            }
            if let Some(Frame::Rule { next, .. }) = path.frames.last_mut() {
                *next += 1;
            }
            let stmt = &body[next];
            path.last_pc = stmt.pc;
            if act == 0 {
                path.top_pc = Some(stmt.pc);
            }
            self.current_top_pc = path.top_pc;
            match self.exec(&mut path, act, method, stmt, work) {
                Flow::Continue => {}
                Flow::Done => return,
            }
        }
    }

    /// Passes the outputs of a finished procedure to whoever waits for them.
    fn return_values(&mut self, mut path: Path, values: Vec<Value>, work: &mut Vec<Path>, post: &RAssertions) {
        loop {
            match path.frames.last_mut() {
                None => {
                    self.finish(path, values, post);
                    return;
                }
                Some(Frame::LoopExit { .. }) => {
                    if let Some(Frame::LoopExit { atoms, pool, .. }) = path.frames.pop() {
                        path.state.atoms.extend(atoms);
                        path.state.pool = path.state.pool.plus(&pool);
                        if !path.state.normalize() {
                            return;
                        }
                    }
                }
                Some(Frame::Rule { env, pending, .. }) => {
                    for (var, value) in pending.drain(..).zip(values) {
                        env.insert(var, value);
                    }
                    work.push(path);
                    return;
                }
            }
        }
    }

    /// The top-level method returned `values`: its postcondition must hold.
    fn finish(&mut self, path: Path, values: Vec<Value>, post: &RAssertions) {
        if self.phase != Phase::Verify {
            return;
        }
        let binding = Binding {
            args: path.acts[0].ghosts.clone(),
            vars: Vec::new(),
            ret: values.first().copied(),
        };
        let names = self.namer_with(&path, binding.ret);
        let pc = Some(path.last_pc);
        match prove(&path.state, post, &binding, &mut self.fresh, &names) {
            Ok(proof) => {
                for (expression, what) in proof.obligations {
                    self.oblige(0, pc, expression, format!("{what} of the postcondition"));
                }
            }
            Err(reason) => self.fail(
                0,
                pc,
                format!("the postcondition does not hold at the return: {reason}"),
            ),
        }
    }

    fn env(path: &Path) -> HashMap<VarId, Value> {
        match path.frames.last() {
            Some(Frame::Rule { env, .. }) => env.clone(),
            _ => HashMap::new(),
        }
    }

    fn define(path: &mut Path, var: VarId, value: Value) {
        if let Some(Frame::Rule { env, .. }) = path.frames.last_mut() {
            env.insert(var, value);
        }
    }

    fn exec(&mut self, path: &mut Path, act: usize, method: usize, stmt: &Stmt, work: &mut Vec<Path>) -> Flow {
        let env = Self::env(path);
        let pc = Some(stmt.pc);
        match &stmt.kind {
            StmtKind::Assign { dst, src } => {
                let value = self.operand(&mut path.state, &env, src);
                Self::define(path, *dst, value);
            }
            StmtKind::Binary { dst, .. }
            | StmtKind::Unary { dst, .. }
            | StmtKind::InstanceOf { dst, .. }
            | StmtKind::ArrayLength { dst, .. }
            | StmtKind::ArrayLoad { dst, .. }
            | StmtKind::GetStatic { dst, .. }
            | StmtKind::LoadConst { dst, .. } => {
                let value = self.fresh.value();
                Self::define(path, *dst, value);
                if stmt.kind.can_throw() {
                    self.may_throw(path, stmt, work);
                }
            }
            StmtKind::PutStatic { .. } | StmtKind::ArrayStore { .. } | StmtKind::CheckCast { .. } => {
                if stmt.kind.can_throw() {
                    self.may_throw(path, stmt, work);
                }
            }
            StmtKind::MonitorEnter { value } | StmtKind::MonitorExit { value } => {
                let v = self.operand(&mut path.state, &env, value);
                if !path.state.distinct(v, Value::Null) {
                    self.may_throw(path, stmt, work);
                }
            }
            StmtKind::New { dst, class } => {
                let object = self.fresh.value();
                path.state.pure.add_disequality(object, Value::Null);
                if let Some(layout) = self.view.layout(class) {
                    for field in &layout.fields {
                        let value = match field.ty() {
                            Ty::Ref => Value::Null,
                            Ty::Int | Ty::Long => Value::Int(0),
                            _ => self.fresh.value(),
                        };
                        path.state.atoms.push(Atom::PointsTo {
                            addr: object,
                            field: field.key.clone(),
                            value,
                        });
                    }
                }
                path.state.classes.insert(object, (class.clone(), true));
                Self::define(path, *dst, object);
            }
            StmtKind::NewArray { dst, .. }
            | StmtKind::NewRefArray { dst, .. }
            | StmtKind::NewMultiArray { dst, .. } => {
                let object = self.fresh.value();
                path.state.pure.add_disequality(object, Value::Null);
                Self::define(path, *dst, object);
                self.may_throw(path, stmt, work);
            }
            StmtKind::GetField { dst, object, field } => {
                let addr = self.operand(&mut path.state, &env, object);
                let key = self.field_key(field);
                return self.access(path.clone(), method, stmt, addr, key, Access::Read(*dst), work);
            }
            StmtKind::PutField { object, field, value } => {
                let addr = self.operand(&mut path.state, &env, object);
                let content = self.operand(&mut path.state, &env, value);
                let key = self.field_key(field);
                return self.access(path.clone(), method, stmt, addr, key, Access::Write(content), work);
            }
            StmtKind::Throw { value } => {
                let exception = self.operand(&mut path.state, &env, value);
                self.raise(path.clone(), stmt.handler.as_ref(), exception, work);
                return Flow::Done;
            }
            StmtKind::InvokeDynamic { .. } => {
                self.fail(method, pc, "invokedynamic has no target the proof search can follow");
                return Flow::Done;
            }
            StmtKind::Invoke {
                dst,
                kind,
                method: callee,
                args,
                ..
            } => {
                let values: Vec<Value> = args.iter().map(|a| self.operand(&mut path.state, &env, a)).collect();
                return self.invoke(path, act, method, stmt, *dst, *kind, callee, values, work);
            }
            StmtKind::Call { proc, args, outs } => {
                let values: Vec<Value> = args.iter().map(|a| self.operand(&mut path.state, &env, a)).collect();
                let ir = self.methods[method].ir.clone();
                if ir.proc(*proc).kind == ProcKind::Loop {
                    let active = path
                        .frames
                        .iter()
                        .any(|f| matches!(f, Frame::LoopExit { act: a, proc: p, .. } if *a == act && p == proc));
                    if active {
                        self.back_edge(path.clone(), act, method, *proc, values, stmt.pc);
                    } else {
                        self.enter_loop(path.clone(), act, method, *proc, values, outs.clone(), stmt.pc, work);
                    }
                    return Flow::Done;
                }
                if let Some(Frame::Rule { pending, .. }) = path.frames.last_mut() {
                    *pending = outs.clone();
                }
                self.enter_proc(path.clone(), act, *proc, values, work);
                return Flow::Done;
            }
        }
        Flow::Continue
    }

    /// The field a field instruction accesses, by its declaring class.
    fn field_key(&self, field: &crate::ir::FieldRef) -> FieldKey {
        self.view
            .layout(&field.class)
            .and_then(|layout| layout.field(&field.name).map(|f| f.key.clone()))
            .unwrap_or_else(|| FieldKey {
                class: field.class.clone(),
                name: field.name.clone(),
            })
    }

    /// Reads or writes field `key` of `addr`: the state must hold the field, possibly after
    /// unfolding a segment or tree that starts at `addr` (splitting on whether it is empty).
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        path: Path,
        method: usize,
        stmt: &Stmt,
        addr: Value,
        key: FieldKey,
        access: Access,
        work: &mut Vec<Path>,
    ) -> Flow {
        let object = match &stmt.kind {
            StmtKind::GetField {
                object: Operand::Var(v),
                ..
            }
            | StmtKind::PutField {
                object: Operand::Var(v),
                ..
            } => {
                let name = super::resolve::base_name(&self.methods[method].ir.var(*v).name);
                if is_temporary(name) {
                    "an object".to_owned()
                } else {
                    name.to_owned()
                }
            }
            _ => "an object".to_owned(),
        };
        let mut cases = vec![path];
        let mut ready = Vec::new();
        let mut rounds = 0;
        while let Some(mut case) = cases.pop() {
            rounds += 1;
            if rounds > MAX_ACCESS_CASES {
                self.fail(
                    method,
                    Some(stmt.pc),
                    format!(
                        "accessing field {} splits into more than {MAX_ACCESS_CASES} cases",
                        key.name
                    ),
                );
                return Flow::Done;
            }
            let addr = case.state.find(addr);
            if case.state.points_to(addr, &key).is_some() {
                ready.push(case);
                continue;
            }
            if expose_certain(&mut case.state, addr, &mut self.fresh) {
                cases.push(case);
                continue;
            }
            // A segment or tree that may start at `addr`: split on whether it is empty.
            let possible = case.state.atoms.iter().position(|a| match a {
                Atom::Lseg { from, link, .. } => case.state.equal(*from, addr) && link.fields.contains(&key),
                Atom::Tree { root, link, .. } => case.state.equal(*root, addr) && link.fields.contains(&key),
                Atom::PointsTo { .. } => false,
            });
            let Some(index) = possible else {
                let names = self.namer(&case);
                let reason = if case.state.equal(addr, Value::Null) {
                    "it may be null here".to_owned()
                } else {
                    format!(
                        "the specification gives no access to that object (the heap holds {})",
                        case.state.describe_heap(&names)
                    )
                };
                self.fail(
                    method,
                    Some(stmt.pc),
                    format!("cannot {} field {} of {object}: {reason}", access.verb(), key.name),
                );
                return Flow::Done;
            };
            let end = match &case.state.atoms[index] {
                Atom::Lseg { to, .. } => *to,
                _ => Value::Null,
            };
            let mut empty = case.clone();
            if empty.state.assume_equal(addr, end) {
                cases.push(empty);
            }
            if case.state.assume_distinct(addr, end) {
                cases.push(case);
            }
        }
        for mut case in ready {
            let Some(index) = case.state.points_to(addr, &key) else {
                continue;
            };
            match access {
                Access::Read(dst) => {
                    if let Atom::PointsTo { value, .. } = &case.state.atoms[index] {
                        let value = *value;
                        Self::define(&mut case, dst, value);
                    }
                }
                Access::Write(content) => {
                    if let Atom::PointsTo { value, .. } = &mut case.state.atoms[index] {
                        *value = content;
                    }
                }
            }
            work.push(case);
        }
        Flow::Done
    }

    /// Follows the exception a statement may raise, when something could catch it.
    fn may_throw(&mut self, path: &Path, stmt: &Stmt, work: &mut Vec<Path>) {
        let inlined = path
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Rule { act, .. } if *act != 0));
        if stmt.handler.is_none() && !inlined {
            // It would leave the method: nothing more to prove on that path.
            return;
        }
        let mut thrown = path.clone();
        let exception = self.fresh.value();
        thrown.state.pure.add_disequality(exception, Value::Null);
        self.raise(thrown, stmt.handler.as_ref(), exception, work);
    }

    /// Raises `exception` at the current statement: into its handler, or out of the activation.
    fn raise(&mut self, mut path: Path, handler: Option<&HandlerEdge>, exception: Value, work: &mut Vec<Path>) {
        if let Some(edge) = handler {
            let env = Self::env(&path);
            let mut args = vec![exception];
            for a in &edge.args {
                let v = self.operand(&mut path.state, &env, a);
                args.push(v);
            }
            let Some(Frame::Rule { act, .. }) = path.frames.pop() else {
                return;
            };
            self.enter_proc(path, act, edge.proc, args, work);
            return;
        }
        let Some(Frame::Rule { act: mut current, .. }) = path.frames.pop() else {
            return;
        };
        loop {
            match path.frames.last() {
                None => return,
                Some(Frame::LoopExit { .. }) => {
                    if let Some(Frame::LoopExit { atoms, pool, .. }) = path.frames.pop() {
                        path.state.atoms.extend(atoms);
                        path.state.pool = path.state.pool.plus(&pool);
                        if !path.state.normalize() {
                            return;
                        }
                    }
                }
                Some(Frame::Rule {
                    act, proc, rule, next, ..
                }) => {
                    if *act == current {
                        path.frames.pop();
                        continue;
                    }
                    // The caller's statement in progress is the invoke that entered `current`.
                    let method = path.acts[*act].method;
                    let ir = self.methods[method].ir.clone();
                    let call = ir.proc(*proc).rules[*rule].body.get(next.saturating_sub(1)).cloned();
                    match call.and_then(|s| s.handler) {
                        Some(edge) => {
                            self.raise(path, Some(&edge), exception, work);
                            return;
                        }
                        None => {
                            current = *act;
                            path.frames.pop();
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn invoke(
        &mut self,
        path: &mut Path,
        act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        kind: CallKind,
        callee: &MethodRef,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        if callee.class == RESOURCE_CLASS && callee.name == "consume" {
            let units = match (callee.descriptor.as_str(), args.first().map(|a| path.state.find(*a))) {
                ("()V", _) => 1,
                (_, Some(Value::Int(n))) if n >= 0 => n,
                (_, Some(Value::Int(n))) => {
                    self.fail(method, pc, format!("Resource.consume({n}): a negative amount"));
                    return Flow::Done;
                }
                _ => {
                    self.fail(
                        method,
                        pc,
                        "Resource.consume(int) with an argument that is not a constant: the amortised analysis needs constant amounts",
                    );
                    return Flow::Done;
                }
            };
            path.state.pool = path.state.pool.minus(&ResExpr::constant(units));
            let unit = if units == 1 { "unit" } else { "units" };
            let call = if callee.descriptor == "()V" {
                "Resource.consume()".to_owned()
            } else {
                format!("Resource.consume({units})")
            };
            self.oblige(
                method,
                pc,
                path.state.pool.clone(),
                format!("the {units} {unit} {call} needs"),
            );
            return Flow::Continue;
        }
        if marker_id(&stmt.kind).is_some() {
            return Flow::Continue;
        }
        let exact = if kind == CallKind::Virtual || kind == CallKind::Interface {
            args.first()
                .and_then(|r| path.state.classes.get(&path.state.find(*r)))
                .filter(|(_, exact)| *exact)
                .map(|(c, _)| c.clone())
        } else {
            None
        };
        let target = match self.view.resolve(kind, callee, exact.as_deref()) {
            Resolution::Unique(target) => target,
            Resolution::Several(targets) => {
                self.fail(
                    method,
                    pc,
                    format!(
                        "the call of {} may reach {} methods; annotate a final or private method instead",
                        MethodKey::of(callee),
                        targets.len()
                    ),
                );
                return Flow::Done;
            }
            Resolution::Unresolved(reason) => {
                self.fail(method, pc, format!("the call of {}: {reason}", MethodKey::of(callee)));
                return Flow::Done;
            }
        };
        if kind != CallKind::Static {
            if let Some(receiver) = args.first().copied() {
                if !path.state.distinct(receiver, Value::Null) {
                    // A null receiver raises a NullPointerException instead of calling.
                    let mut npe = path.clone();
                    if npe.state.assume_equal(receiver, Value::Null) {
                        self.may_throw(&npe, stmt, work);
                    }
                    if !path.state.assume_distinct(receiver, Value::Null) {
                        return Flow::Done;
                    }
                }
            }
        }
        match self.view.spec(&target.key) {
            SpecLookup::Some(_) => self.call_with_spec(path, act, method, stmt, dst, &target, args, work),
            SpecLookup::Malformed => {
                self.fail(
                    method,
                    pc,
                    format!("the call of {}: its annotations are malformed", target.key),
                );
                Flow::Done
            }
            SpecLookup::None => {
                if target.library && self.closed_library_call(path, callee, kind, &args) {
                    // Assumed: JDK code reached only with JDK values (primitives, final JDK
                    // classes, null) neither consumes resource nor touches program objects.
                    if let Some(dst) = dst {
                        let value = self.fresh.value();
                        Self::define(path, dst, value);
                    }
                    self.may_throw(path, stmt, work);
                    return Flow::Continue;
                }
                if target.native {
                    if target.library {
                        // Assumed: library natives neither consume resource nor touch the
                        // program's objects.
                        if let Some(dst) = dst {
                            let value = self.fresh.value();
                            Self::define(path, dst, value);
                        }
                        self.may_throw(path, stmt, work);
                        return Flow::Continue;
                    }
                    self.fail(
                        method,
                        pc,
                        format!("the call of the native method {} (annotate it)", target.key),
                    );
                    return Flow::Done;
                }
                self.inline(path, act, method, stmt, dst, &target, args, work)
            }
        }
    }

    /// Whether every reference a library call receives is null, an object of a final class of the
    /// class path (by its declared type or its exact class), so that the call cannot reach the
    /// program's objects or code.
    fn closed_library_call(&self, path: &Path, callee: &MethodRef, kind: CallKind, args: &[Value]) -> bool {
        let Some((params, _)) = crate::ir::method_descriptor_parts(&callee.descriptor) else {
            return false;
        };
        let mut declared: Vec<Option<String>> = Vec::new();
        if kind != CallKind::Static {
            declared.push(Some(format!("L{};", callee.class)));
        }
        declared.extend(params.iter().map(|p| Some((*p).to_owned())));
        if declared.len() != args.len() {
            return false;
        }
        declared.iter().zip(args).all(|(descriptor, value)| {
            let descriptor = descriptor.as_deref().unwrap_or("");
            let reference = descriptor.starts_with('L') || descriptor.starts_with('[');
            if !reference {
                return true;
            }
            let value = path.state.find(*value);
            if value == Value::Null {
                return true;
            }
            if let Some((class, true)) = path.state.classes.get(&value) {
                if self.view.is_closed_library_class(class) {
                    return true;
                }
            }
            match super::resolve::descriptor_class(descriptor) {
                Some(class) => self.view.is_closed_library_class(&class),
                // Arrays of primitives hold no references.
                None => descriptor.len() == 2 && descriptor.starts_with('['),
            }
        })
    }

    fn fresh_value_nonnull(&mut self, path: &mut Path) -> Value {
        let value = self.fresh.value();
        path.state.pure.add_disequality(value, Value::Null);
        value
    }

    #[allow(clippy::too_many_arguments)]
    fn inline(
        &mut self,
        path: &mut Path,
        act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        target: &Target,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        let depth = path.acts[act].depth + 1;
        if depth > MAX_INLINE_DEPTH {
            self.fail(
                method,
                pc,
                format!("the call of {}: calls nest more than {MAX_INLINE_DEPTH} deep without specifications (annotate the callee)", target.key),
            );
            return Flow::Done;
        }
        let running = path
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Rule { act: a, .. } if self.methods[path.acts[*a].method].key == target.key));
        if running {
            self.fail(
                method,
                pc,
                format!(
                    "the recursive call of {} needs a specification (@Requires/@Ensures)",
                    target.key
                ),
            );
            return Flow::Done;
        }
        let index = match self.methods.iter().position(|m| m.key == target.key) {
            Some(index) => index,
            None => match self.view.code(&target.key) {
                Ok(ir) => {
                    let (ctx, errors) = MethodCtx::new(target.key.clone(), ir);
                    if let Some(error) = errors.first() {
                        self.fail(
                            method,
                            pc,
                            format!("in the called method {}: {}", target.key, error.message),
                        );
                        return Flow::Done;
                    }
                    self.methods.push(ctx);
                    let index = self.methods.len() - 1;
                    let invariants = match self.callee_invariants(index) {
                        Ok(invariants) => invariants,
                        Err(message) => {
                            self.fail(method, pc, message);
                            return Flow::Done;
                        }
                    };
                    self.add_loops(index, &invariants);
                    index
                }
                Err(reason) => {
                    self.fail(
                        method,
                        pc,
                        format!(
                            "the call of {}: {reason} (annotate it with @Requires/@Ensures)",
                            target.key
                        ),
                    );
                    return Flow::Done;
                }
            },
        };
        if let Some(Frame::Rule { pending, .. }) = path.frames.last_mut() {
            *pending = dst.into_iter().collect();
        }
        let entry = self.methods[index].ir.entry;
        path.acts.push(Activation {
            method: index,
            ghosts: args.clone(),
            depth,
        });
        let new_act = path.acts.len() - 1;
        self.enter_proc(path.clone(), new_act, entry, args, work);
        Flow::Done
    }

    /// The written invariants of an inlined (unannotated) method: it has none, since an
    /// annotated method is called through its specification. Kept for markers without
    /// annotations, which are an error.
    fn callee_invariants(&mut self, index: usize) -> Result<HashMap<i32, RAssertions>, String> {
        let ctx = &self.methods[index];
        if let Some((id, _)) = ctx.marker_sites.first() {
            return Err(format!(
                "the called method {} has a Loop.invariant({id}) marker but no @Invariant",
                ctx.key
            ));
        }
        Ok(HashMap::new())
    }

    /// The resolved precondition and postcondition of an annotated callee.
    fn callee_spec(&mut self, key: &MethodKey) -> Result<(RAssertions, RAssertions), String> {
        if let Some(cached) = self.callee_specs.get(key) {
            return cached.clone();
        }
        let result = (|| {
            let SpecLookup::Some(spec) = self.view.spec(key) else {
                return Err(format!("{key} has no usable specification"));
            };
            let ir = self.view.code(key).map_err(|reason| format!("{key}: {reason}"))?;
            let (ctx, _) = MethodCtx::new(key.clone(), ir);
            let mut resolve_role = |annotated: Option<&super::spec::Annotated>, role: Role| match annotated {
                None => Ok(empty_assertion()),
                Some(annotated) => resolve(&annotated.assertions, &ctx.scope(role, None), self.view, self.variables)
                    .map(|(r, _)| r)
                    .map_err(|errors| describe_errors(key, role, &errors)),
            };
            let pre = resolve_role(spec.requires.as_ref(), Role::Requires)?;
            let post = resolve_role(spec.ensures.as_ref(), Role::Ensures)?;
            Ok((pre, post))
        })();
        self.callee_specs.insert(key.clone(), result.clone());
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn call_with_spec(
        &mut self,
        path: &mut Path,
        _act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        target: &Target,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        let (pre, post) = match self.callee_spec(&target.key) {
            Ok(spec) => spec,
            Err(reason) => {
                self.fail(method, pc, reason);
                return Flow::Done;
            }
        };
        self.callees.insert(target.key.clone());
        let mut binding = Binding {
            args,
            vars: Vec::new(),
            ret: None,
        };
        let names = self.namer(path);
        let proof = match prove(&path.state, &pre, &binding, &mut self.fresh, &names) {
            Ok(proof) => proof,
            Err(reason) => {
                self.fail(
                    method,
                    pc,
                    format!("the precondition of {} does not hold at the call: {reason}", target.key),
                );
                return Flow::Done;
            }
        };
        for (expression, what) in proof.obligations {
            self.oblige(
                method,
                pc,
                expression,
                format!("{what} of the precondition of {} at the call", target.key),
            );
        }
        let frame = proof.frame;
        if stmt.handler.is_some()
            || path
                .frames
                .iter()
                .any(|f| matches!(f, Frame::Rule { act, .. } if *act != 0))
        {
            let mut thrown = path.clone();
            thrown.state = frame.clone();
            let exception = self.fresh_value_nonnull(&mut thrown);
            self.raise(thrown, stmt.handler.as_ref(), exception, work);
        }
        let result = dst.map(|_| self.fresh.value());
        binding.ret = result;
        let states = assume(&frame, &post, &binding, &mut self.fresh);
        for mut state in states {
            unfold_certain(&mut state, &mut self.fresh);
            let mut next = path.clone();
            next.state = state;
            if let (Some(dst), Some(value)) = (dst, result) {
                Self::define(&mut next, dst, value);
            }
            work.push(next);
        }
        Flow::Done
    }

    /// The invariant a loop is entered and iterated with in the current phase.
    fn current_invariant(&mut self, index: usize) -> Result<RAssertions, String> {
        if self.phase == Phase::Verify {
            return self.loops[index]
                .invariant
                .clone()
                .ok_or_else(|| "no invariant was found for the loop".to_owned());
        }
        let data = self.loops[index].clone();
        if let Some((_, user)) = &data.user {
            let mut invariant = user.clone();
            if let Some(facts) = &data.facts {
                for conj in &mut invariant.disjuncts {
                    conj.facts.extend(facts.iter().cloned());
                }
            }
            return Ok(invariant);
        }
        let combined = combine(&data.templates);
        let ctx = &self.methods[data.method];
        resolve(
            &combined,
            &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
            self.view,
            self.variables,
        )
        .map(|(r, _)| r)
        .map_err(|errors| describe_errors(&ctx.key, Role::Invariant(0), &errors))
    }

    fn loop_line(&self, index: usize) -> String {
        let data = &self.loops[index];
        match self.methods[data.method].line_of(data.pc) {
            Some(line) => format!("the loop at line {line}"),
            None => format!("the loop at offset {}", data.pc),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn enter_loop(
        &mut self,
        mut path: Path,
        act: usize,
        method: usize,
        proc: ProcId,
        args: Vec<Value>,
        outs: Vec<VarId>,
        pc: u32,
        work: &mut Vec<Path>,
    ) {
        let Some(index) = self.loop_index(method, proc) else {
            self.fail(method, Some(pc), "a loop the proof search does not know");
            return;
        };
        self.loops[index].reached = true;
        let ghosts = path.acts[act].ghosts.clone();
        if self.phase == Phase::Infer {
            self.observe(index, &path.state, &ghosts, &args);
        }
        let invariant = match self.current_invariant(index) {
            Ok(invariant) => invariant,
            Err(reason) => {
                self.fail(method, Some(pc), reason);
                return;
            }
        };
        let binding = Binding {
            args: ghosts.clone(),
            vars: args.clone(),
            ret: None,
        };
        let names = self.namer(&path);
        let Proof { frame, obligations, .. } = match prove(&path.state, &invariant, &binding, &mut self.fresh, &names) {
            Ok(proof) => proof,
            Err(reason) => {
                let what = self.loop_line(index);
                self.fail(
                    method,
                    Some(pc),
                    format!("the invariant of {what} does not hold when the loop is entered: {reason}"),
                );
                return;
            }
        };
        let what = self.loop_line(index);
        for (expression, about) in obligations {
            self.oblige(
                method,
                Some(pc),
                expression,
                format!("{about} of the invariant of {what} when the loop is entered"),
            );
        }
        let unchanged = self.loops[index].unchanged.clone();
        let header: Vec<Value> = args
            .iter()
            .zip(&unchanged)
            .map(|(value, same)| if *same { *value } else { self.fresh.value() })
            .collect();
        let base = State {
            pure: path.state.pure.clone(),
            atoms: Vec::new(),
            pool: ResExpr::zero(),
            classes: path.state.classes.clone(),
        };
        let starts = assume(
            &base,
            &invariant,
            &Binding {
                args: ghosts,
                vars: header.clone(),
                ret: None,
            },
            &mut self.fresh,
        );
        if let Some(Frame::Rule { pending, .. }) = path.frames.last_mut() {
            *pending = outs;
        }
        path.frames.push(Frame::LoopExit {
            act,
            proc,
            header: header.clone(),
            atoms: frame.atoms,
            pool: frame.pool,
        });
        for state in starts {
            let mut start = path.clone();
            start.state = state;
            self.enter_proc(start, act, proc, header.clone(), work);
        }
    }

    fn back_edge(&mut self, path: Path, act: usize, method: usize, proc: ProcId, args: Vec<Value>, pc: u32) {
        let Some(index) = self.loop_index(method, proc) else {
            return;
        };
        let header = path
            .frames
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::LoopExit {
                    act: a,
                    proc: p,
                    header,
                    ..
                } if *a == act && *p == proc => Some(header.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let ghosts = path.acts[act].ghosts.clone();
        if self.phase == Phase::Infer {
            for (k, (now, before)) in args.iter().zip(&header).enumerate() {
                if self.loops[index].unchanged[k] && !path.state.equal(*now, *before) {
                    self.loops[index].unchanged[k] = false;
                    self.changed = true;
                }
            }
            self.observe(index, &path.state, &ghosts, &args);
            return;
        }
        for (k, (now, before)) in args.iter().zip(&header).enumerate() {
            if self.loops[index].unchanged[k] && !path.state.equal(*now, *before) {
                let what = self.loop_line(index);
                self.fail(
                    method,
                    Some(pc),
                    format!(
                        "{what} changes its variable {} although no iteration seen before did",
                        self.loops[index].inputs[k].0
                    ),
                );
                return;
            }
        }
        let invariant = match self.current_invariant(index) {
            Ok(invariant) => invariant,
            Err(reason) => {
                self.fail(method, Some(pc), reason);
                return;
            }
        };
        let binding = Binding {
            args: ghosts,
            vars: args,
            ret: None,
        };
        let names = self.namer(&path);
        let what = self.loop_line(index);
        match prove(&path.state, &invariant, &binding, &mut self.fresh, &names) {
            Ok(proof) => {
                for (expression, about) in proof.obligations {
                    self.oblige(
                        method,
                        Some(pc),
                        expression,
                        format!("{about} of the invariant of {what} at the end of an iteration"),
                    );
                }
            }
            Err(reason) => self.fail(
                method,
                Some(pc),
                format!("the invariant of {what} does not hold at the end of an iteration: {reason}"),
            ),
        }
    }

    /// Infer phase: updates a loop's candidate facts and shape invariant with a state at its
    /// head (on entry or at a back edge), the loop's variables being `vars`.
    fn observe(&mut self, index: usize, state: &State, ghosts: &[Value], vars: &[Value]) {
        let data = self.loops[index].clone();
        let ctx_index = data.method;
        let binding = Binding {
            args: ghosts.to_vec(),
            vars: vars.to_vec(),
            ret: None,
        };
        if data.user.is_some() {
            let holds = |fact: &RFact| {
                let value = |t: RTerm| match t {
                    RTerm::Var(k) => vars.get(k).copied(),
                    RTerm::Arg(k) => ghosts.get(k).copied(),
                    RTerm::Null => Some(Value::Null),
                    _ => None,
                };
                match (value(fact.lhs), value(fact.rhs)) {
                    (Some(a), Some(b)) if fact.equal => state.equal(a, b),
                    (Some(a), Some(b)) => state.distinct(a, b),
                    _ => false,
                }
            };
            let candidates = match &data.facts {
                Some(facts) => facts.clone(),
                None => self.candidate_facts(ctx_index, &data),
            };
            let kept: Vec<RFact> = candidates.iter().filter(|f| holds(f)).cloned().collect();
            if data.facts.as_ref() != Some(&kept) {
                self.loops[index].facts = Some(kept);
                self.changed = true;
            }
            return;
        }
        // Shape invariant: the abstraction of this state, joined into the candidates.
        let roots = self.roots(ctx_index, &data, ghosts, vars);
        let mut next = data.next_existential;
        let abstracted = abstract_state(state, &roots, self.view, &mut next);
        self.loops[index].next_existential = next;
        let changed = self.join(index, state, &binding, abstracted);
        if changed {
            self.changed = true;
        }
    }

    /// The terms a loop's shape invariant is written with and their values: its reference
    /// variables (those whose names are unambiguous), then the method's reference parameters.
    fn roots(&self, method: usize, data: &LoopData, ghosts: &[Value], vars: &[Value]) -> Vec<(TermKind, Value)> {
        let mut roots = Vec::new();
        for (k, (name, ty)) in data.inputs.iter().enumerate() {
            let unique = data.inputs.iter().filter(|(n, _)| n == name).count() == 1;
            if *ty == Ty::Ref && unique {
                if let Some(value) = vars.get(k) {
                    roots.push((TermKind::Var(name.clone()), *value));
                }
            }
        }
        // A parameter's entry value names a place only where the postcondition needs it (the
        // cells before it would otherwise merge into one segment).
        for (k, (param, value)) in self.methods[method].params.iter().zip(ghosts).enumerate() {
            if param.ty == Ty::Ref && method == 0 && self.post_args.contains(&k) {
                roots.push((TermKind::Arg(param.name.clone()), *value));
            }
        }
        roots
    }

    /// Candidate data facts of a loop with a written invariant: every `==`/`!=` between a loop
    /// reference variable and another, a parameter, or `null`.
    fn candidate_facts(&self, method: usize, data: &LoopData) -> Vec<RFact> {
        let mut terms: Vec<(RTerm, String)> = Vec::new();
        for (k, (name, ty)) in data.inputs.iter().enumerate() {
            let unique = data.inputs.iter().filter(|(n, _)| n == name).count() == 1;
            if *ty == Ty::Ref && unique {
                terms.push((RTerm::Var(k), format!("@var {name}")));
            }
        }
        let vars = terms.len();
        for (k, param) in self.methods[method].params.iter().enumerate() {
            if param.ty == Ty::Ref {
                terms.push((RTerm::Arg(k), format!("@arg {}", param.name)));
            }
        }
        terms.push((RTerm::Null, "null".to_owned()));
        let mut facts = Vec::new();
        for i in 0..vars {
            for j in i + 1..terms.len() {
                for equal in [true, false] {
                    let op = if equal { "==" } else { "!=" };
                    facts.push(RFact {
                        lhs: terms[i].0,
                        equal,
                        rhs: terms[j].0,
                        text: format!("{} {op} {}", terms[i].1, terms[j].1),
                    });
                }
            }
        }
        facts
    }

    /// Joins the abstraction of `state` into loop `index`'s shape candidates; returns whether
    /// they changed.
    fn join(&mut self, index: usize, state: &State, binding: &Binding, abstracted: Assertions) -> bool {
        let data = self.loops[index].clone();
        let method = data.method;
        let names = |_: Value| String::new();
        let resolve_one = |engine: &mut Engine<'_>, template: &Assertions| -> Option<RAssertions> {
            let ctx = &engine.methods[method];
            resolve(
                template,
                &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                engine.view,
                engine.variables,
            )
            .ok()
            .map(|(r, _)| r)
        };
        // Already covered by a candidate?
        for template in &data.templates {
            if let Some(resolved) = resolve_one(self, template) {
                if prove(state, &resolved, binding, &mut self.fresh, &names).is_ok() {
                    return false;
                }
            }
        }
        // The new abstraction, weakened to the facts a candidate proves, generalises it.
        for (k, template) in data.templates.iter().enumerate() {
            let Some(resolved) = resolve_one(self, template) else {
                continue;
            };
            let sample_vars: Vec<Value> = data.inputs.iter().map(|_| self.fresh.value()).collect();
            let sample_binding = Binding {
                args: binding.args.clone(),
                vars: sample_vars,
                ret: None,
            };
            let samples = assume(&State::default(), &resolved, &sample_binding, &mut self.fresh);
            let Some(sample) = samples.first() else {
                continue;
            };
            let weakened = keep_facts(&abstracted, |fact| {
                self.fact_holds(sample, &sample_binding, fact, &data)
            });
            if let Some(general) = resolve_one(self, &weakened) {
                let covers_old = prove(sample, &general, &sample_binding, &mut self.fresh, &names).is_ok();
                let covers_new = prove(state, &general, binding, &mut self.fresh, &names).is_ok();
                if covers_old && covers_new {
                    self.loops[index].templates[k] = weakened;
                    return true;
                }
            }
        }
        if data.templates.len() >= MAX_INVARIANT_DISJUNCTS {
            let what = self.loop_line(index);
            self.fail(
                method,
                Some(data.pc),
                format!("no invariant could be inferred for {what} (its shapes do not settle); write an @Invariant"),
            );
            return false;
        }
        if resolve_one(self, &abstracted).is_none() {
            let what = self.loop_line(index);
            self.fail(
                method,
                Some(data.pc),
                format!("no invariant could be inferred for {what}: its heap cannot be described by lseg, tree and field assertions; write an @Invariant"),
            );
            return false;
        }
        self.loops[index].templates.push(abstracted);
        true
    }

    /// Whether a data assertion of a template holds in `state` under `binding`.
    fn fact_holds(
        &self,
        state: &State,
        binding: &Binding,
        fact: &super::assertion::DataAssertion,
        data: &LoopData,
    ) -> bool {
        let method = data.method;
        let value = |kind: &TermKind| -> Option<Value> {
            match kind {
                TermKind::Null => Some(Value::Null),
                TermKind::Var(name) => data
                    .inputs
                    .iter()
                    .position(|(n, _)| n == name)
                    .and_then(|k| binding.vars.get(k).copied()),
                TermKind::Arg(name) => self.methods[method]
                    .params
                    .iter()
                    .position(|p| p.name == *name)
                    .and_then(|k| binding.args.get(k).copied()),
                _ => None,
            }
        };
        match (value(&fact.lhs.kind), value(&fact.rhs.kind)) {
            (Some(a), Some(b)) => match fact.op {
                DataOp::Eq => state.equal(a, b),
                DataOp::Ne => state.distinct(a, b),
            },
            _ => false,
        }
    }

    /// After the Infer phase: fixes the invariant of every loop for the Verify phase (written
    /// invariants with the facts found; inferred ones with fresh resource variables).
    pub fn fix_invariants(&mut self) -> Result<(), Failure> {
        for index in 0..self.loops.len() {
            let data = self.loops[index].clone();
            if !data.reached {
                continue;
            }
            if let Some((_, user)) = &data.user {
                let mut invariant = user.clone();
                if let Some(facts) = &data.facts {
                    // Facts about variables the loop changes, less those the invariant and the
                    // other facts already imply (facts about unchanged variables stay true by
                    // themselves, from the loop's entry).
                    let changes = |f: &RFact| {
                        [f.lhs, f.rhs]
                            .iter()
                            .any(|t| matches!(t, RTerm::Var(k) if !data.unchanged.get(*k).copied().unwrap_or(false)))
                    };
                    let mut kept: Vec<RFact> = facts.clone();
                    for fact in facts.iter().filter(|f| changes(f)) {
                        let others: Vec<RFact> = kept.iter().filter(|f| *f != fact).cloned().collect();
                        if self.implied(index, user, &others, fact) {
                            kept = others;
                        }
                    }
                    let useful: Vec<RFact> = kept.into_iter().filter(|f| changes(f)).collect();
                    for conj in &mut invariant.disjuncts {
                        conj.facts.extend(useful.iter().cloned());
                    }
                    self.loops[index].facts = Some(useful);
                }
                self.loops[index].invariant = Some(invariant);
                continue;
            }
            let prefix = format!("L{}_", data.pc);
            let mut templates = Vec::new();
            let pruned: Vec<Assertions> = data.templates.iter().map(|t| self.prune_template(index, t)).collect();
            let ctx = &self.methods[data.method];
            let method_name = ctx.key.to_string();
            let mut counter = 0;
            let mut fresh_name = |variables: &ResourceVariables| loop {
                counter += 1;
                let name = format!("{prefix}{counter}");
                if !variables.contains(&method_name, &name) {
                    return name;
                }
            };
            for template in &pruned {
                let mut template = template.clone();
                for disjunct in &mut template.disjuncts {
                    for heap in &mut disjunct.heap {
                        if let HeapAssertion::Lseg { resource, .. } | HeapAssertion::Tree { resource, .. } = heap {
                            *resource = LinearExpr::variable(&fresh_name(self.variables));
                        }
                    }
                    disjunct.resource = LinearExpr::variable(&fresh_name(self.variables));
                }
                templates.push(template);
            }
            let combined = combine(&templates);
            let text = combined.to_string();
            let ctx = &self.methods[data.method];
            match resolve(
                &combined,
                &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                self.view,
                self.variables,
            ) {
                Ok((resolved, _)) => {
                    self.loops[index].invariant = Some(resolved);
                    self.loops[index].inferred_text = Some(text);
                }
                Err(errors) => {
                    return Err(Failure {
                        method: ctx.key.to_string(),
                        pc: Some(data.pc),
                        line: ctx.line_of(data.pc),
                        message: format!(
                            "the inferred invariant {text} cannot be used: {}",
                            errors.first().map_or("", |e| e.message.as_str())
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether `fact` holds in every state satisfying `invariant` with `facts` (the loop's
    /// variables and the parameters taking arbitrary values).
    fn implied(&mut self, index: usize, invariant: &RAssertions, facts: &[RFact], fact: &RFact) -> bool {
        let mut with_facts = invariant.clone();
        for conj in &mut with_facts.disjuncts {
            conj.facts.extend(facts.iter().cloned());
        }
        let binding = self.sample_binding(index);
        let samples = assume(&State::default(), &with_facts, &binding, &mut self.fresh);
        samples.iter().all(|state| {
            let value = |t: RTerm| match t {
                RTerm::Var(k) => binding.vars.get(k).copied(),
                RTerm::Arg(k) => binding.args.get(k).copied(),
                RTerm::Null => Some(Value::Null),
                _ => None,
            };
            match (value(fact.lhs), value(fact.rhs)) {
                (Some(a), Some(b)) if fact.equal => state.equal(a, b),
                (Some(a), Some(b)) => state.distinct(a, b),
                _ => false,
            }
        })
    }

    /// Arbitrary values for the variables and parameters of loop `index`.
    fn sample_binding(&mut self, index: usize) -> Binding {
        let data = &self.loops[index];
        let (vars, args) = (data.inputs.len(), self.methods[data.method].params.len());
        Binding {
            args: (0..args).map(|_| self.fresh.value()).collect(),
            vars: (0..vars).map(|_| self.fresh.value()).collect(),
            ret: None,
        }
    }

    /// The template with the data assertions its own heap and other facts imply removed.
    fn prune_template(&mut self, index: usize, template: &Assertions) -> Assertions {
        let data = self.loops[index].clone();
        let mut pruned = template.clone();
        for d in 0..pruned.disjuncts.len() {
            let mut k = 0;
            while k < pruned.disjuncts[d].data.len() {
                let fact = pruned.disjuncts[d].data[k].clone();
                let mut without = pruned.clone();
                without.disjuncts = vec![pruned.disjuncts[d].clone()];
                without.disjuncts[0].data.remove(k);
                let ctx = &self.methods[data.method];
                let resolved = resolve(
                    &without,
                    &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                    self.view,
                    self.variables,
                );
                let implied = match resolved {
                    Ok((resolved, _)) => {
                        let binding = self.sample_binding(index);
                        let samples = assume(&State::default(), &resolved, &binding, &mut self.fresh);
                        samples
                            .iter()
                            .all(|state| self.fact_holds(state, &binding, &fact, &data))
                    }
                    Err(_) => false,
                };
                if implied {
                    pruned.disjuncts[d].data.remove(k);
                } else {
                    k += 1;
                }
            }
        }
        pruned
    }

    /// Resets per-run state between rounds and phases.
    pub fn reset_run(&mut self) {
        self.changed = false;
        self.obligations.clear();
        self.callees.clear();
    }
}

#[derive(Clone, Copy, Debug)]
enum Access {
    Read(VarId),
    Write(Value),
}

impl Access {
    fn verb(self) -> &'static str {
        match self {
            Access::Read(_) => "read",
            Access::Write(_) => "write",
        }
    }
}

/// Whether a lifted variable's name is one the lifter made up (a stack value or temporary: `t1r`,
/// `s0`, `c0r`), rather than a local variable's.
fn is_temporary(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('t' | 's' | 'c'))
        && name[1..]
            .trim_end_matches(['r', 'l', 'f', 'd'])
            .chars()
            .all(|c| c.is_ascii_digit())
        && name.len() > 1
        && name[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// The template with only the data assertions `keep` accepts.
fn keep_facts(template: &Assertions, mut keep: impl FnMut(&super::assertion::DataAssertion) -> bool) -> Assertions {
    let mut copy = template.clone();
    for disjunct in &mut copy.disjuncts {
        disjunct.data.retain(&mut keep);
    }
    copy
}

/// One assertion with the disjuncts (and existentials) of several.
pub fn combine(templates: &[Assertions]) -> Assertions {
    let mut combined = Assertions {
        exists: Vec::new(),
        disjuncts: Vec::new(),
        span: Default::default(),
    };
    for template in templates {
        combined.exists.extend(template.exists.iter().cloned());
        combined.disjuncts.extend(template.disjuncts.iter().cloned());
    }
    if combined.disjuncts.is_empty() {
        combined.disjuncts.push(Assertion {
            data: Vec::new(),
            heap: Vec::new(),
            resource: LinearExpr::constant(0),
            span: Default::default(),
        });
    }
    combined
}

/// A one-line description of resolution errors.
pub fn describe_errors(key: &MethodKey, role: Role, errors: &[SpecError]) -> String {
    let first = errors.first().map_or("malformed", |e| e.message.as_str());
    format!("{role} of {key}: {first}")
}
