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

mod calls;
mod inference;
mod loops;

pub use inference::combine;

use crate::amortised::abstraction::abstract_state;
use crate::amortised::assertion::{Assertion, Assertions, DataOp, HeapAssertion, LinearExpr, SpecError, TermKind};
use crate::amortised::context::{marker_id, MethodCtx};
use crate::amortised::entail::{assume, expose_certain, prove, split_certain_starts, unfold_certain, Binding, Proof};
use crate::amortised::limits::{
    MAX_ACCESS_CASES, MAX_FRAMES, MAX_INLINE_DEPTH, MAX_INVARIANT_DISJUNCTS, MAX_PATHS, MAX_STEPS,
};
use crate::amortised::program::{FieldKey, MethodKey, ProgramView, Resolution, SpecLookup, Target};
use crate::amortised::resolve::{resolve, RAssertions, RConj, RFact, RTerm};
use crate::amortised::resource::{Obligation, Origin, ResExpr, ResourceVariables};
use crate::amortised::spec::Role;
use crate::amortised::symbolic::{Atom, Fresh, State, Value};
use crate::cost_model::RESOURCE_CLASS;
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
            for state in split_certain_starts(state, &mut self.fresh) {
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
                    let name = crate::amortised::resolve::base_name(&ctx.ir.var(*var).name);
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
            StmtKind::Concat { .. } => {
                self.fail(method, pc, "string concatenation is not modelled by the proof search");
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
                let name = crate::amortised::resolve::base_name(&self.methods[method].ir.var(*v).name);
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

/// A one-line description of resolution errors.
pub fn describe_errors(key: &MethodKey, role: Role, errors: &[SpecError]) -> String {
    let first = errors.first().map_or("malformed", |e| e.message.as_str());
    format!("{role} of {key}: {first}")
}
