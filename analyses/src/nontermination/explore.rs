//! Symbolic execution of a method's IR over z3 bit-vectors, exactly as the JVM computes: `int`
//! and `long` arithmetic wraps, shifts mask their count, `/` and `%` truncate and throw on zero.
//!
//! An exploration starts at a procedure with symbolic inputs and follows every rule, inlining the
//! procedures it calls, until a path reaches the target (a call of the loop procedure whose
//! iterations are studied, or the method's call of itself) or leaves (returns, or throws out of
//! the explored procedure). **What is not modelled is over-approximated by fresh values:** floating
//! point, the results of method calls, heap cells the method may write, inner loops (their outputs;
//! and a fresh condition under which they throw out, where they can). Heap cells the method never
//! writes and that no call can change (array lengths always; fields, statics and elements when the
//! method calls nothing and stores nothing there) are uninterpreted functions, so that reading one
//! twice gives the same value. **Exceptions a called method throws are not modelled**: the
//! execution check of every witness covers them. A path cut by a budget counts as leaving.

use super::inline::Inlined;
use super::limits;
use crate::ir::{
    BinOp, CallKind, CmpOp, Cond, ElemTy, FieldRef, MethodIr, Operand, ProcId, ProcKind, Stmt, StmtKind, Ty, UnOp,
    VarId,
};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use z3::ast::{Ast, Bool, BV};
use z3::{FuncDecl, Sort};

/// The bit width of a value of the type (references are 64-bit addresses, null is 0).
pub(super) fn width(ty: Ty) -> u32 {
    match ty {
        Ty::Int | Ty::Float => 32,
        Ty::Long | Ty::Double | Ty::Ref => 64,
    }
}

/// The width of the value a field descriptor describes.
fn descriptor_width(descriptor: &str) -> u32 {
    Ty::from_descriptor(descriptor).map_or(64, width)
}

/// The heap cells the method may change: everything when it calls a method, else what it stores.
pub(super) struct Heap {
    calls: bool,
    fields: HashSet<(String, String)>,
    statics: HashSet<(String, String)>,
    elements: HashSet<ElemTy>,
    /// The frozen fields read so far, for the witness's objects.
    pub(super) read_fields: RefCell<Vec<FieldRef>>,
    /// Element kinds of frozen arrays read so far.
    pub(super) read_elements: RefCell<Vec<ElemTy>>,
}

impl Heap {
    /// What `ir` and the methods inlined for it write; a call that is not inlined may write
    /// anything.
    pub(super) fn of(ir: &MethodIr, inlined: &Inlined) -> Heap {
        let mut heap = Heap {
            calls: false,
            fields: HashSet::new(),
            statics: HashSet::new(),
            elements: HashSet::new(),
            read_fields: RefCell::new(Vec::new()),
            read_elements: RefCell::new(Vec::new()),
        };
        let code = std::iter::once(ir).chain(inlined.methods());
        for stmt in code.flat_map(|m| &m.procs).flat_map(|p| &p.rules).flat_map(|r| &r.body) {
            match &stmt.kind {
                StmtKind::Invoke { kind, method, .. } => heap.calls |= !inlined.contains(*kind, method),
                StmtKind::InvokeDynamic { .. } | StmtKind::Concat { .. } => heap.calls = true,
                StmtKind::PutField { field, .. } => {
                    heap.fields.insert((field.class.clone(), field.name.clone()));
                }
                StmtKind::PutStatic { field, .. } => {
                    heap.statics.insert((field.class.clone(), field.name.clone()));
                }
                StmtKind::ArrayStore { elem, .. } => {
                    heap.elements.insert(*elem);
                }
                _ => {}
            }
        }
        heap
    }

    fn field_frozen(&self, field: &FieldRef) -> bool {
        !self.calls && !self.fields.contains(&(field.class.clone(), field.name.clone()))
    }

    fn static_frozen(&self, field: &FieldRef) -> bool {
        !self.calls && !self.statics.contains(&(field.class.clone(), field.name.clone()))
    }

    fn elements_frozen(&self, elem: ElemTy) -> bool {
        !self.calls && !self.elements.contains(&elem)
    }
}

/// The length of the array at an address (an uninterpreted function: lengths never change).
pub(super) fn length_of(array: &BV) -> BV {
    let f = FuncDecl::new("length", &[&Sort::bitvector(64)], &Sort::bitvector(32));
    f.apply(&[array]).as_bv().expect("length is a bit-vector function")
}

/// The value of a frozen field of the object at an address.
pub(super) fn field_of(object: &BV, field: &FieldRef) -> BV {
    let name = format!("{}.{}", field.class, field.name);
    let f = FuncDecl::new(
        name,
        &[&Sort::bitvector(64)],
        &Sort::bitvector(descriptor_width(&field.descriptor)),
    );
    f.apply(&[object]).as_bv().expect("a field is a bit-vector function")
}

/// The element `index` of a frozen array of `elem`s.
pub(super) fn element_of(array: &BV, index: &BV, elem: ElemTy) -> BV {
    let name = format!("elements {}", elem.prefix());
    let range = Sort::bitvector(width(elem.value_ty()));
    let f = FuncDecl::new(name, &[&Sort::bitvector(64), &Sort::bitvector(32)], &range);
    f.apply(&[array, index])
        .as_bv()
        .expect("an element is a bit-vector function")
}

fn int(value: i64) -> BV {
    BV::from_i64(value, 32)
}

fn null() -> BV {
    BV::from_i64(0, 64)
}

/// What explorations look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    /// Calls of this loop procedure.
    Loop(ProcId),
    /// Calls of the method itself (static or without dispatch).
    Recursion,
    /// Nothing: an inlined method called on a loop's path.
    Nothing,
}

/// How a path ends.
pub(super) enum End {
    /// At the target, with the arguments of the call.
    Reached(Vec<BV>),
    /// Out of the explored procedure by a return, with its outputs and the static fields the
    /// path knows.
    Returned(Vec<BV>, Statics),
    /// Out of the explored procedure by an exception, a state no rule takes, or a budget's cut.
    Left,
}

/// One path: the condition under which it runs and how it ends.
pub(super) struct Path {
    pub cond: Bool,
    pub end: End,
}

#[derive(Clone)]
struct Frame {
    proc: ProcId,
    rule: usize,
    next: usize,
    env: HashMap<VarId, BV>,
    /// The caller's variables that receive this procedure's outputs.
    outs: Vec<VarId>,
}

/// The values of static fields a path stored (or, in a fresh run, read before any store), by
/// class and field name.
pub(super) type Statics = Vec<((String, String), BV)>;

#[derive(Clone)]
struct State {
    frames: Vec<Frame>,
    cond: Vec<Bool>,
    unrolls: Vec<(ProcId, u8)>,
    statics: Statics,
    /// Whether the path started with the program's first code (a run of the method in a fresh
    /// JVM, as the witness's check runs it): static fields not stored yet hold their initial
    /// values.
    fresh_run: bool,
}

/// Paths found so far and the states still to follow.
struct Work {
    pending: Vec<State>,
    paths: Vec<Path>,
}

impl Work {
    fn leave(&mut self, state: &State) {
        self.paths.push(Path {
            cond: Bool::and(&state.cond),
            end: End::Left,
        });
    }
}

/// A symbolic executor of one method toward one target.
pub(super) struct Explorer<'a> {
    pub ir: &'a MethodIr,
    /// The searched method (`ir` itself, or the method that inlined it).
    root: &'a MethodIr,
    heap: &'a Heap,
    inlined: &'a Inlined,
    /// Inlined calls open around this executor's method.
    depth: usize,
    /// Statements executed by the exploration under way, inlined calls' included.
    steps: Rc<Cell<usize>>,
    target: Target,
    /// Procedures from which the target can be reached (entered rather than summarised).
    reaches: Vec<bool>,
    /// Procedures an exception can leave.
    throws_out: Vec<bool>,
    /// Whether inner loops are entered (up to `MAX_UNROLL` iterations, more counting as leaving)
    /// rather than summarised by fresh outputs.
    inline_loops: bool,
}

impl<'a> Explorer<'a> {
    pub(super) fn new(
        ir: &'a MethodIr,
        heap: &'a Heap,
        inlined: &'a Inlined,
        target: Target,
        inline_loops: bool,
    ) -> Explorer<'a> {
        let steps = Rc::new(Cell::new(0));
        Explorer::within(ir, ir, heap, inlined, target, inline_loops, (0, steps))
    }

    /// The executor of `ir`, inlined at a depth for the search of `root`, counting its steps
    /// with those of the exploration that inlines it.
    fn within(
        ir: &'a MethodIr,
        root: &'a MethodIr,
        heap: &'a Heap,
        inlined: &'a Inlined,
        target: Target,
        inline_loops: bool,
        (depth, steps): (usize, Rc<Cell<usize>>),
    ) -> Explorer<'a> {
        let is_target = |stmt: &Stmt| match (&stmt.kind, target) {
            (StmtKind::Call { proc, .. }, Target::Loop(head)) => *proc == head,
            (StmtKind::Invoke { kind, method, .. }, Target::Recursion) => is_self_call(root, *kind, method),
            _ => false,
        };
        let reaches = fixpoint(ir, |p, known| {
            rules_stmts(ir, p).any(|s| is_target(s) || callees(s).any(|c| known[c.index()]))
        });
        let throws_out = fixpoint(ir, |p, known| {
            rules_stmts(ir, p).any(|s| {
                s.handler.is_none()
                    && match &s.kind {
                        StmtKind::Call { proc, .. } => known[proc.index()],
                        kind => kind.can_throw(),
                    }
            })
        });
        Explorer {
            ir,
            root,
            heap,
            inlined,
            depth,
            steps,
            target,
            reaches,
            throws_out,
            inline_loops,
        }
    }

    /// Every path from `root` called with `inputs` in any state of the heap, and whether none
    /// was cut by a budget.
    pub(super) fn explore(&self, root: ProcId, inputs: &[BV]) -> (Vec<Path>, bool) {
        self.explore_from(root, inputs, Statics::new(), false)
    }

    /// `explore` from the method's start in a fresh run (static fields at their initial values).
    pub(super) fn explore_fresh(&self, root: ProcId, inputs: &[BV]) -> (Vec<Path>, bool) {
        self.explore_from(root, inputs, Statics::new(), true)
    }

    fn explore_from(&self, root: ProcId, inputs: &[BV], statics: Statics, fresh_run: bool) -> (Vec<Path>, bool) {
        let mut work = Work {
            pending: Vec::new(),
            paths: Vec::new(),
        };
        let start = State {
            frames: Vec::new(),
            cond: Vec::new(),
            unrolls: Vec::new(),
            statics,
            fresh_run,
        };
        self.enter(start, root, inputs.to_vec(), Vec::new(), &mut work);
        if self.depth == 0 {
            self.steps.set(0);
        }
        let mut complete = true;
        while let Some(state) = work.pending.pop() {
            self.steps.set(self.steps.get() + 1);
            if self.steps.get() > limits::MAX_STEPS || work.paths.len() >= limits::MAX_PATHS {
                complete = false;
                work.leave(&state);
                continue;
            }
            self.step(state, &mut work);
        }
        (work.paths, complete)
    }

    /// Calls `proc`: one state per rule whose guard may hold.
    fn enter(&self, state: State, proc: ProcId, args: Vec<BV>, outs: Vec<VarId>, work: &mut Work) {
        if state.frames.len() >= limits::MAX_DEPTH {
            work.leave(&state);
            return;
        }
        let procedure = self.ir.proc(proc);
        let env: HashMap<VarId, BV> = procedure.inputs.iter().copied().zip(args).collect();
        let mut guards = Vec::new();
        for (k, rule) in procedure.rules.iter().enumerate() {
            let mut next = state.clone();
            let guard: Vec<Bool> = rule.guard.iter().map(|c| self.cond(c, &env, &mut next.cond)).collect();
            let guard = Bool::and(&guard).simplify();
            guards.push(guard.clone());
            if guard.as_bool() == Some(false) {
                continue;
            }
            next.cond.push(guard);
            next.frames.push(Frame {
                proc,
                rule: k,
                next: 0,
                env: env.clone(),
                outs: outs.clone(),
            });
            work.pending.push(next);
        }
        // Rules cover every case in lifted code; where they would not, no rule running counts
        // as leaving, so that no recurrent set can rely on it.
        let none = Bool::or(&guards).not().simplify();
        if none.as_bool() != Some(false) {
            let mut stuck = state;
            stuck.cond.push(none);
            work.leave(&stuck);
        }
    }

    fn step(&self, mut state: State, work: &mut Work) {
        let frame = state.frames.last().expect("a state has a frame");
        let rule = &self.ir.proc(frame.proc).rules[frame.rule];
        match rule.body.get(frame.next) {
            None => self.finish(state, work),
            Some(stmt) => {
                if self.exec(&mut state, stmt, work) {
                    if let Some(frame) = state.frames.last_mut() {
                        frame.next += 1;
                    }
                    work.pending.push(state);
                }
            }
        }
    }

    /// The running rule ended: its procedure returns its outputs to the caller.
    fn finish(&self, mut state: State, work: &mut Work) {
        let frame = state.frames.pop().expect("a state has a frame");
        let procedure = self.ir.proc(frame.proc);
        let outputs: Vec<BV> = procedure
            .outputs
            .iter()
            .map(|v| frame.env.get(v).cloned().unwrap_or_else(|| self.fresh(*v)))
            .collect();
        let Some(caller) = state.frames.last_mut() else {
            work.paths.push(Path {
                cond: Bool::and(&state.cond),
                end: End::Returned(outputs, state.statics),
            });
            return;
        };
        for (v, value) in frame.outs.iter().zip(outputs) {
            caller.env.insert(*v, value);
        }
        caller.next += 1;
        work.pending.push(state);
    }

    /// An exception at the running statement: to its handler, else out of its procedure and on
    /// to the caller's call statement.
    fn raise(&self, mut state: State, work: &mut Work) {
        loop {
            let frame = state.frames.last().expect("a state has a frame");
            let stmt = &self.ir.proc(frame.proc).rules[frame.rule].body[frame.next];
            if let Some(edge) = &stmt.handler {
                let exception = self.nonnull(&mut state.cond);
                let mut args = vec![exception];
                args.extend(edge.args.iter().map(|a| self.value(a, &frame.env, &mut state.cond)));
                let frame = state.frames.pop().expect("a state has a frame");
                self.enter(state, edge.proc, args, frame.outs, work);
                return;
            }
            state.frames.pop();
            if state.frames.is_empty() {
                work.leave(&state);
                return;
            }
        }
    }

    /// Splits off the states where `throws` holds (they raise) from `state` (where it does not).
    fn may_throw(&self, state: &mut State, throws: Bool, work: &mut Work) {
        let throws = throws.simplify();
        if throws.as_bool() == Some(false) {
            return;
        }
        let mut thrown = state.clone();
        thrown.cond.push(throws.clone());
        self.raise(thrown, work);
        state.cond.push(throws.not());
    }

    /// Executes one statement; `false` when the state went elsewhere (a call, a raise, the target).
    fn exec(&self, state: &mut State, stmt: &Stmt, work: &mut Work) -> bool {
        let env = state.frames.last().expect("a state has a frame").env.clone();
        let mut cond = std::mem::take(&mut state.cond);
        let value = |o: &Operand, cond: &mut Vec<Bool>| self.value(o, &env, cond);
        let mut defs: Vec<(VarId, BV)> = Vec::new();
        let mut throws: Vec<Bool> = Vec::new();
        match &stmt.kind {
            StmtKind::Assign { dst, src } => defs.push((*dst, value(src, &mut cond))),
            StmtKind::Binary { dst, op, ty, lhs, rhs } => {
                let (a, b) = (value(lhs, &mut cond), value(rhs, &mut cond));
                let result = self.binary(*dst, *op, *ty, &a, &b, &mut cond, &mut throws);
                defs.push((*dst, result));
            }
            StmtKind::Unary { dst, op, from, src } => {
                let result = self.unary(*dst, *op, *from, &value(src, &mut cond));
                defs.push((*dst, result));
            }
            StmtKind::GetField { dst, object, field } => {
                let object = value(object, &mut cond);
                throws.push(object.eq(null()));
                let read = if self.heap.field_frozen(field) && self.ir.var(*dst).ty != Ty::Ref {
                    self.heap.read_fields.borrow_mut().push(field.clone());
                    field_of(&object, field)
                } else {
                    self.fresh(*dst)
                };
                defs.push((*dst, read));
            }
            StmtKind::PutField { object, .. } => throws.push(value(object, &mut cond).eq(null())),
            StmtKind::PutStatic { field, value: v } => {
                let v = value(v, &mut cond);
                store(&mut state.statics, field, v);
            }
            StmtKind::GetStatic { dst, field } => {
                let read = self.read_static(state, field, width(self.ir.var(*dst).ty));
                defs.push((*dst, read));
            }
            StmtKind::ArrayLoad {
                dst,
                elem,
                array,
                index,
            } => {
                let (array, index) = (value(array, &mut cond), value(index, &mut cond));
                self.check_index(&array, &index, &mut cond, &mut throws);
                let read = if self.heap.elements_frozen(*elem) {
                    self.heap.read_elements.borrow_mut().push(*elem);
                    narrow(element_of(&array, &index, *elem), *elem)
                } else {
                    self.fresh(*dst)
                };
                defs.push((*dst, read));
            }
            StmtKind::ArrayStore { array, index, .. } => {
                let (array, index) = (value(array, &mut cond), value(index, &mut cond));
                self.check_index(&array, &index, &mut cond, &mut throws);
            }
            StmtKind::ArrayLength { dst, array } => {
                let array = value(array, &mut cond);
                throws.push(array.eq(null()));
                let length = length_of(&array);
                cond.push(length.bvsge(int(0)));
                defs.push((*dst, length));
            }
            StmtKind::New { dst, .. } | StmtKind::LoadConst { dst, .. } => defs.push((*dst, self.nonnull(&mut cond))),
            StmtKind::NewArray { dst, length, .. } | StmtKind::NewRefArray { dst, length, .. } => {
                let length = value(length, &mut cond);
                throws.push(length.bvslt(int(0)));
                let array = self.nonnull(&mut cond);
                cond.push(length_of(&array).eq(&length));
                defs.push((*dst, array));
            }
            StmtKind::NewMultiArray { dst, lengths, .. } => {
                let lengths: Vec<BV> = lengths.iter().map(|l| value(l, &mut cond)).collect();
                throws.extend(lengths.iter().map(|l| l.bvslt(int(0))));
                let array = self.nonnull(&mut cond);
                if let Some(first) = lengths.first() {
                    cond.push(length_of(&array).eq(first));
                }
                defs.push((*dst, array));
            }
            StmtKind::Invoke {
                dst,
                kind,
                method,
                args,
                ..
            } => {
                let args: Vec<BV> = args.iter().map(|a| value(a, &mut cond)).collect();
                if self.target == Target::Recursion && is_self_call(self.root, *kind, method) {
                    work.paths.push(Path {
                        cond: Bool::and(&cond),
                        end: End::Reached(args),
                    });
                    return false;
                }
                if *kind != CallKind::Static {
                    if let Some(receiver) = args.first() {
                        throws.push(receiver.eq(null()));
                    }
                }
                if let Some(result) = string_model(*kind, method, &args) {
                    cond.push(strlen(&args[0]).bvsge(int(0)));
                    defs.extend(dst.map(|d| (d, result)));
                    state.cond = cond;
                    for t in throws {
                        self.may_throw(state, t, work);
                    }
                    let frame = state.frames.last_mut().expect("a state has a frame");
                    frame.env.extend(defs);
                    return true;
                }
                let callee = self.inlined.target(*kind, method);
                match callee.filter(|_| self.depth < limits::MAX_INLINE_DEPTH) {
                    Some(callee) => {
                        state.cond = cond;
                        for t in throws {
                            self.may_throw(state, t, work);
                        }
                        return self.inline(state, callee, &args, *dst, work);
                    }
                    None => defs.extend(dst.map(|d| (d, self.fresh(d)))),
                }
            }
            StmtKind::InvokeDynamic { dst, .. } => defs.extend(dst.map(|d| (d, self.fresh(d)))),
            StmtKind::Concat { dst, .. } => defs.push((*dst, self.nonnull(&mut cond))),
            StmtKind::Call { proc, args, outs } => {
                let args: Vec<BV> = args.iter().map(|a| value(a, &mut cond)).collect();
                state.cond = cond;
                return self.call(state, *proc, args, outs, work);
            }
            StmtKind::CheckCast { value: v, .. } => {
                let v = value(v, &mut cond);
                throws.push(Bool::and(&[v.eq(null()).not(), Bool::fresh_const("cast_fails")]));
            }
            StmtKind::InstanceOf { dst, value: v, .. } => {
                let v = value(v, &mut cond);
                let answer = self.fresh_between(0, 1, &mut cond);
                defs.push((*dst, v.eq(null()).ite(&int(0), &answer)));
            }
            StmtKind::MonitorEnter { value: v } | StmtKind::MonitorExit { value: v } => {
                throws.push(value(v, &mut cond).eq(null()))
            }
            StmtKind::Throw { .. } => {
                state.cond = cond;
                self.raise(state.clone(), work);
                return false;
            }
        }
        state.cond = cond;
        for t in throws {
            self.may_throw(state, t, work);
        }
        let frame = state.frames.last_mut().expect("a state has a frame");
        frame.env.extend(defs);
        true
    }

    /// A call of an inlined method: its paths that reach the target are paths of this
    /// exploration, those that throw raise at the call, and the state goes on where it returns,
    /// with the result each returning path gives (`false` when no path returns).
    fn inline(&self, state: &mut State, callee: &MethodIr, args: &[BV], dst: Option<VarId>, work: &mut Work) -> bool {
        let target = match self.target {
            Target::Recursion => Target::Recursion,
            _ => Target::Nothing,
        };
        let explorer = Explorer::within(
            callee,
            self.root,
            self.heap,
            self.inlined,
            target,
            false,
            (self.depth + 1, self.steps.clone()),
        );
        let (paths, _) = explorer.explore_from(callee.entry, args, state.statics.clone(), state.fresh_run);
        let mut result = dst.map(|d| self.fresh(d));
        let mut stored: Vec<(Bool, Statics)> = Vec::new();
        let mut returns = Vec::new();
        let mut throws = Vec::new();
        for path in paths {
            match path.end {
                End::Reached(at) => {
                    let mut cond = state.cond.clone();
                    cond.push(path.cond);
                    work.paths.push(Path {
                        cond: Bool::and(&cond),
                        end: End::Reached(at),
                    });
                }
                End::Returned(outputs, statics) => {
                    if let (Some(value), Some(first)) = (result.as_mut(), outputs.first()) {
                        if first.get_size() == value.get_size() {
                            *value = path.cond.ite(first, value);
                        }
                    }
                    stored.push((path.cond.clone(), statics));
                    returns.push(path.cond);
                }
                End::Left => throws.push(path.cond),
            }
        }
        self.may_throw(state, Bool::or(&throws), work);
        if returns.is_empty() {
            return false;
        }
        self.merge_statics(state, &stored);
        state.cond.push(Bool::or(&returns));
        let frame = state.frames.last_mut().expect("a state has a frame");
        frame.env.extend(dst.zip(result));
        true
    }

    /// A static field's value: the last the path stored; else, where nothing the search runs
    /// writes it, one constant (its initial value in a fresh run); else in a fresh run its
    /// initial value where known (remembered as if stored); else a fresh value.
    fn read_static(&self, state: &mut State, field: &FieldRef, bits: u32) -> BV {
        let key = (field.class.clone(), field.name.clone());
        if let Some((_, v)) = state.statics.iter().find(|(k, _)| *k == key) {
            return v.clone();
        }
        let initial = self.inlined.initial(&field.class, &field.name);
        if self.heap.static_frozen(field) {
            return match initial {
                Some(v) => BV::from_i64(v, bits),
                None => BV::new_const(format!("static {}.{}", field.class, field.name), bits),
            };
        }
        match initial.filter(|_| state.fresh_run) {
            Some(v) => {
                let v = BV::from_i64(v, bits);
                state.statics.push((key, v.clone()));
                v
            }
            None => BV::fresh_const("havoc", bits),
        }
    }

    /// The static fields after an inlined call: each as the returning path that ran stored it
    /// (what the caller knew before where a path did not store it, a fresh value where the
    /// caller knew nothing).
    fn merge_statics(&self, state: &mut State, stored: &[(Bool, Statics)]) {
        let mut keys: Vec<&(String, String)> = stored.iter().flat_map(|(_, s)| s.iter().map(|(k, _)| k)).collect();
        keys.sort();
        keys.dedup();
        let mut merged = Statics::new();
        for key in keys {
            let before = state.statics.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
            let Some(bits) = stored
                .iter()
                .flat_map(|(_, s)| s)
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.get_size())
            else {
                continue;
            };
            let mut value = before.unwrap_or_else(|| BV::fresh_const("havoc", bits));
            for (cond, statics) in stored {
                if let Some((_, v)) = statics.iter().find(|(k, _)| k == key) {
                    value = cond.ite(v, &value);
                }
            }
            merged.push((key.clone(), value));
        }
        for (key, value) in merged {
            store_key(&mut state.statics, key, value);
        }
    }

    /// A call of a procedure of the method: the target, a summarised inner loop, or entered.
    fn call(&self, state: &mut State, proc: ProcId, args: Vec<BV>, outs: &[VarId], work: &mut Work) -> bool {
        if self.target == Target::Loop(proc) {
            work.paths.push(Path {
                cond: Bool::and(&state.cond),
                end: End::Reached(args),
            });
            return false;
        }
        let procedure = self.ir.proc(proc);
        if procedure.kind == ProcKind::Loop && !self.reaches[proc.index()] && !self.inline_loops {
            if self.throws_out[proc.index()] {
                self.may_throw(state, Bool::fresh_const("loop_throws"), work);
            }
            let frame = state.frames.last_mut().expect("a state has a frame");
            for v in outs {
                frame.env.insert(*v, self.fresh(*v));
            }
            return true;
        }
        let mut entered = state.clone();
        if procedure.kind == ProcKind::Loop {
            match entered.unrolls.iter_mut().find(|(p, _)| *p == proc) {
                Some((_, n)) if *n >= limits::MAX_UNROLL => {
                    work.leave(&entered);
                    return false;
                }
                Some((_, n)) => *n += 1,
                None => entered.unrolls.push((proc, 1)),
            }
        }
        self.enter(entered, proc, args, outs.to_vec(), work);
        false
    }

    fn check_index(&self, array: &BV, index: &BV, cond: &mut Vec<Bool>, throws: &mut Vec<Bool>) {
        throws.push(array.eq(null()));
        let length = length_of(array);
        cond.push(length.bvsge(int(0)));
        throws.push(Bool::or(&[index.bvslt(int(0)), index.bvsge(&length)]));
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &self,
        dst: VarId,
        op: BinOp,
        ty: Ty,
        a: &BV,
        b: &BV,
        cond: &mut Vec<Bool>,
        throws: &mut Vec<Bool>,
    ) -> BV {
        if !matches!(ty, Ty::Int | Ty::Long) {
            return match op {
                BinOp::Cmp | BinOp::CmpL | BinOp::CmpG => self.fresh_between(-1, 1, cond),
                _ => self.fresh(dst),
            };
        }
        let w = width(ty);
        let count = || {
            let masked = b.bvand(BV::from_i64(i64::from(w) - 1, 32));
            if w == 64 {
                masked.zero_ext(32)
            } else {
                masked
            }
        };
        match op {
            BinOp::Add => a.bvadd(b),
            BinOp::Sub => a.bvsub(b),
            BinOp::Mul => a.bvmul(b),
            BinOp::Div | BinOp::Rem => {
                throws.push(b.eq(BV::from_i64(0, w)));
                if op == BinOp::Div {
                    a.bvsdiv(b)
                } else {
                    a.bvsrem(b)
                }
            }
            BinOp::And => a.bvand(b),
            BinOp::Or => a.bvor(b),
            BinOp::Xor => a.bvxor(b),
            BinOp::Shl => a.bvshl(count()),
            BinOp::Shr => a.bvashr(count()),
            BinOp::Ushr => a.bvlshr(count()),
            BinOp::Cmp | BinOp::CmpL | BinOp::CmpG => a.bvslt(b).ite(&int(-1), &a.eq(b).ite(&int(0), &int(1))),
        }
    }

    fn unary(&self, dst: VarId, op: UnOp, from: Ty, src: &BV) -> BV {
        let to = self.ir.var(dst).ty;
        match (op, from, to) {
            (UnOp::Neg, Ty::Int | Ty::Long, _) => src.bvneg(),
            (UnOp::Convert, Ty::Int, Ty::Long) => src.sign_ext(32),
            (UnOp::Convert, Ty::Long, Ty::Int) => src.extract(31, 0),
            (UnOp::IntToByte, ..) => src.extract(7, 0).sign_ext(24),
            (UnOp::IntToChar, ..) => src.extract(15, 0).zero_ext(16),
            (UnOp::IntToShort, ..) => src.extract(15, 0).sign_ext(16),
            _ => self.fresh(dst),
        }
    }

    fn cond(&self, c: &Cond, env: &HashMap<VarId, BV>, cond: &mut Vec<Bool>) -> Bool {
        match c {
            Cond::Cmp { op, lhs, rhs } => {
                let (a, b) = (self.value(lhs, env, cond), self.value(rhs, env, cond));
                compare(*op, &a, &b)
            }
            Cond::InstanceOf { value, negated, .. } => {
                let v = self.value(value, env, cond);
                let is = Bool::and(&[v.eq(null()).not(), Bool::fresh_const("instance")]);
                if *negated {
                    is.not()
                } else {
                    is
                }
            }
        }
    }

    fn value(&self, operand: &Operand, env: &HashMap<VarId, BV>, cond: &mut Vec<Bool>) -> BV {
        match operand {
            Operand::Var(v) => env.get(v).cloned().unwrap_or_else(|| self.fresh(*v)),
            Operand::Int(i) => int(i64::from(*i)),
            Operand::Long(l) => BV::from_i64(*l, 64),
            Operand::Float(bits) => BV::from_u64(u64::from(*bits), 32),
            Operand::Double(bits) => BV::from_u64(*bits, 64),
            Operand::Null => null(),
            Operand::Str(text) => {
                let literal = BV::new_const(format!("literal {text}"), 64);
                cond.push(literal.eq(null()).not());
                let units = text.encode_utf16().count() as i64;
                cond.push(strlen(&literal).eq(int(units)));
                literal
            }
            Operand::Class(text) => {
                let literal = BV::new_const(format!("literal {text}"), 64);
                cond.push(literal.eq(null()).not());
                literal
            }
        }
    }

    fn fresh(&self, v: VarId) -> BV {
        BV::fresh_const("havoc", width(self.ir.var(v).ty))
    }

    fn nonnull(&self, cond: &mut Vec<Bool>) -> BV {
        let address = BV::fresh_const("new", 64);
        cond.push(address.eq(null()).not());
        address
    }

    fn fresh_between(&self, low: i64, high: i64, cond: &mut Vec<Bool>) -> BV {
        let v = BV::fresh_const("havoc", 32);
        cond.push(v.bvsge(int(low)));
        cond.push(v.bvsle(int(high)));
        v
    }
}

/// Stores a static field's value in a path's knowledge.
fn store(statics: &mut Statics, field: &FieldRef, value: BV) {
    store_key(statics, (field.class.clone(), field.name.clone()), value);
}

fn store_key(statics: &mut Statics, key: (String, String), value: BV) {
    match statics.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => statics.push((key, value)),
    }
}

/// The length of the string at an address (an uninterpreted function: strings never change).
pub(super) fn strlen(string: &BV) -> BV {
    let f = FuncDecl::new("string length", &[&Sort::bitvector(64)], &Sort::bitvector(32));
    f.apply(&[string]).as_bv().expect("length is a bit-vector function")
}

/// The result of a `String` method the search models exactly over `strlen` (`length`,
/// `isEmpty`), for its arguments (the receiver first, never null past the call's check).
fn string_model(kind: CallKind, method: &crate::ir::MethodRef, args: &[BV]) -> Option<BV> {
    let receiver = args.first().filter(|r| r.get_size() == 64)?;
    if method.class != "java/lang/String" || kind != CallKind::Virtual {
        return None;
    }
    let length = || strlen(receiver);
    match (method.name.as_str(), method.descriptor.as_str()) {
        ("length", "()I") => Some(length()),
        ("isEmpty", "()Z") => Some(length().eq(int(0)).ite(&int(1), &int(0))),
        _ => None,
    }
}

/// An element as the JVM loads it: bytes and shorts sign-extended, chars zero-extended.
pub(super) fn narrow(value: BV, elem: ElemTy) -> BV {
    match elem {
        ElemTy::Byte => value.extract(7, 0).sign_ext(24),
        ElemTy::Short => value.extract(15, 0).sign_ext(16),
        ElemTy::Char => value.extract(15, 0).zero_ext(16),
        _ => value,
    }
}

/// A signed comparison of two values of the same width (references only `==`/`!=`).
pub(super) fn compare(op: CmpOp, a: &BV, b: &BV) -> Bool {
    match op {
        CmpOp::Eq => a.eq(b),
        CmpOp::Ne => a.eq(b).not(),
        CmpOp::Lt => a.bvslt(b),
        CmpOp::Le => a.bvsle(b),
        CmpOp::Gt => a.bvsgt(b),
        CmpOp::Ge => a.bvsge(b),
    }
}

/// Whether a call is the method calling itself with no dispatch (static, private or `super`).
pub(super) fn is_self_call(ir: &MethodIr, kind: CallKind, method: &crate::ir::MethodRef) -> bool {
    matches!(kind, CallKind::Static | CallKind::Special)
        && method.class == ir.class
        && method.name == ir.name
        && method.descriptor == ir.descriptor
}

fn rules_stmts(ir: &MethodIr, p: usize) -> impl Iterator<Item = &Stmt> {
    ir.procs[p].rules.iter().flat_map(|r| &r.body)
}

/// The procedures a statement may transfer to: a called one and its exception handler.
fn callees(stmt: &Stmt) -> impl Iterator<Item = ProcId> + '_ {
    let called = match &stmt.kind {
        StmtKind::Call { proc, .. } => Some(*proc),
        _ => None,
    };
    called.into_iter().chain(stmt.handler.as_ref().map(|h| h.proc))
}

/// The least fixpoint of a monotone property of procedures.
fn fixpoint(ir: &MethodIr, holds: impl Fn(usize, &[bool]) -> bool) -> Vec<bool> {
    let mut known = vec![false; ir.procs.len()];
    loop {
        let mut changed = false;
        for p in 0..ir.procs.len() {
            if !known[p] && holds(p, &known) {
                known[p] = true;
                changed = true;
            }
        }
        if !changed {
            return known;
        }
    }
}
