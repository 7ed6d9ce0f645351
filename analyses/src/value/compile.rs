//! Abstract compilation (COSTA, Alonso et al. Sec. 4.1): every IR rule becomes abstract rules whose
//! items are linear constraints over the sizes of the rule's variables and calls of abstract
//! procedures; non-linear and bit operations become calls of auxiliary procedures (`aux.rs`), one
//! instance per operation occurrence so that calling contexts never merge.
//!
//! Sizes: ints and longs by value, arrays by length, other references by path length (0 for null,
//! at least 1 otherwise, a field read is shorter than the object it is read from), floats and
//! doubles unconstrained.
//!
//! **Soundness assumptions**: heap structures reached through reference fields are acyclic, and
//! references' sizes are below `2^31` (see `overflow.rs`). Integer results that can wrap around
//! are followed by a `Wrap` item, which keeps their mathematical value only where it is proven in
//! range. Everything else over-approximates: an operation without a precise abstraction
//! constrains nothing.
//!
//! Invariants: **in an abstract rule of a procedure with `k` inputs and `m` outputs, dimensions
//! `0..k` are the inputs and `k..k+m` the outputs**; a `!=` guard on numbers splits the rule in two
//! (`<` and `>`), so abstract rules are conjunctions; each statement with a handler edge adds a rule
//! that stops before the statement and continues in the handler.

use super::aux::{self, AuxOp};
use super::overflow::Width;
use super::polyhedra::{Constraint, Dimension, LinearExpr};
use crate::bounds::{is_consume_call, CostModel};
use crate::ir::*;
use std::collections::HashMap;

/// An abstract procedure, by position in `AbstractProgram::procs`.
pub type AbsProcId = usize;

/// Statements of one block that may throw out of it and get a rule of their own; past this, the
/// block's cost is unknown (each such rule repeats the block's prefix, so this bounds the size of
/// the abstract program quadratically in the block size).
pub const MAX_ESCAPES_PER_RULE: usize = 24;

/// Where an abstract procedure comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A procedure of a lifted method (`method` indexes the program's methods).
    Ir { method: usize, proc: ProcId },
    /// An auxiliary procedure of a non-linear operation.
    Aux(AuxOp),
    /// The dispatch of a method call over its possible targets.
    Dispatch(MethodRef),
    /// The JVM's construction of an exception it raises itself (null pointer, bounds, ...).
    Implicit,
}

/// One item of an abstract rule's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Constrain(Vec<Constraint>),
    /// A call whose inputs are `args` and whose outputs are written to `outs`.
    Call {
        callee: AbsProcId,
        args: Vec<Dimension>,
        outs: Vec<Dimension>,
    },
    /// A call whose target is not in the program (or not known): its results are unconstrained
    /// and its cost cannot be bounded, for the reason given.
    Opaque {
        reason: String,
    },
    /// A call of a known marker method whose whole cost is this many bytecodes and nothing else.
    Marker {
        bytecodes: u64,
    },
    /// The cost of running `callee` on `args` without assuming that it returns (the callee
    /// threw, or this models the JVM constructing an exception): no post-condition follows.
    Charge {
        callee: AbsProcId,
        args: Vec<Dimension>,
    },
    /// `dim` holds the mathematical result of the integer operation at bytecode offset `pc`,
    /// which the JVM wraps into `width`'s range: see [`super::overflow::wrap`]. For a product of
    /// two variables, `factors` are their dimensions (ranges of the factors can prove it in range).
    Wrap {
        dim: Dimension,
        width: Width,
        pc: u32,
        factors: Option<(Dimension, Dimension)>,
    },
}

/// The cost a rule itself incurs under the cost model (its calls' costs aside):
/// `constant + Σ nat(e)` for the expressions `symbolic` over the rule's dimensions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleCost {
    pub constant: u64,
    /// Amounts known only at run time (allocated lengths, consumed units): each entry is the
    /// product of its factors, each factor non-negative where the amount is incurred.
    pub symbolic: Vec<Vec<LinearExpr>>,
}

impl RuleCost {
    fn add(&mut self, other: &RuleCost) {
        self.constant = self.constant.saturating_add(other.constant);
        self.symbolic.extend(other.symbolic.iter().cloned());
    }
}

/// An abstract rule: a conjunction of constraints and calls over `dims` dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractRule {
    pub dims: usize,
    /// What running the rule costs besides its calls.
    pub cost: RuleCost,
    pub guard: Vec<Constraint>,
    pub items: Vec<Item>,
    /// Whether control leaves the rule normally (defining the outputs); `false` after a `throw`.
    pub returns: bool,
    /// Whether a statement of the rule (other than a call of a procedure of the same method) can
    /// raise an exception that leaves the method, so that the rule may end early.
    pub may_throw: bool,
    /// The IR rule it comes from, and the statement it stops before when it is a handler rule.
    pub source: Option<(usize, Option<usize>)>,
    /// The JVM range of the dimensions that hold program values (for `Wrap`).
    pub ranges: Vec<(Dimension, Width)>,
}

/// An abstract procedure with `inputs` and `outputs` dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractProc {
    pub name: String,
    /// Whether this is the entry procedure of a method (callable from outside the program).
    pub is_method_entry: bool,
    pub inputs: usize,
    pub outputs: usize,
    pub rules: Vec<AbstractRule>,
    pub origin: Origin,
}

/// The abstract program of a set of methods.
#[derive(Clone, Debug, Default)]
pub struct AbstractProgram {
    pub procs: Vec<AbstractProc>,
    /// The procedure that constructs one of a set of implicit exceptions, per set of classes.
    pub implicit_exceptions: HashMap<Vec<&'static str>, AbsProcId>,
    /// The abstract procedure of each IR procedure, per method.
    pub of_ir: Vec<Vec<AbsProcId>>,
}

/// How method calls are resolved: the indices of the methods (in the program) a call may run, or
/// `None` when some target is not part of the program (its result is then unknown).
pub trait CallResolver {
    fn resolve(&self, kind: CallKind, method: &MethodRef) -> Option<Vec<usize>>;

    /// Whether every target of the call is a native method: it executes no bytecode, invokes and
    /// allocates nothing the cost models count (callbacks from native code into Java are not
    /// modelled), and returns an unconstrained value.
    fn is_native(&self, _kind: CallKind, _method: &MethodRef) -> bool {
        false
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
    let mut dispatches: HashMap<(CallKind, MethodRef), Option<AbsProcId>> = HashMap::new();
    for (m, method) in methods.iter().enumerate() {
        for (p, proc) in method.procs.iter().enumerate() {
            let mut rules = Vec::new();
            for (r, rule) in proc.rules.iter().enumerate() {
                let mut compiler =
                    RuleCompiler::new(method, proc, &mut program, methods, resolver, &mut dispatches, m, model);
                rules.extend(compiler.rule(r, rule));
            }
            let id = program.of_ir[m][p];
            program.procs[id].rules = rules;
        }
    }
    program
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
}

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
    /// A compiler for the rules of one procedure; the shared tables come from `compile`.
    #[allow(clippy::too_many_arguments)]
    fn new(
        method: &'a MethodIr,
        proc: &'a Procedure,
        program: &'a mut AbstractProgram,
        methods: &'a [MethodIr],
        resolver: &'a dyn CallResolver,
        dispatches: &'a mut HashMap<(CallKind, MethodRef), Option<AbsProcId>>,
        method_index: usize,
        model: CostModel,
    ) -> Self {
        let mut dims = HashMap::new();
        for (k, v) in proc.inputs.iter().chain(&proc.outputs).enumerate() {
            dims.insert(*v, k);
        }
        let next = proc.inputs.len() + proc.outputs.len();
        RuleCompiler {
            method,
            proc,
            program,
            methods,
            resolver,
            dispatches,
            method_index,
            model,
            dims,
            next,
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

    /// What is known of the size of a constant operand held in `d`.
    fn constant_size(&self, d: Dimension, operand: &Operand) -> Vec<Constraint> {
        let c = match operand {
            Operand::Int(n) => eq(&[(d, 1)], -i64::from(*n)),
            Operand::Long(n) => n.checked_neg().and_then(|neg| eq(&[(d, 1)], neg)),
            Operand::Null => eq(&[(d, 1)], 0),
            Operand::Str(_) | Operand::Class(_) => ge(&[(d, 1)], -1),
            Operand::Var(_) | Operand::Float(_) | Operand::Double(_) => None,
        };
        c.into_iter().collect()
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
            let (mut exceptional, implicit) = self.exceptional_items(&stmt.kind);
            exceptional.extend(implicit.iter().cloned());
            let mut partial = cost.clone();
            partial.add(&self.stmt_cost(stmt, true));
            if self.model == CostModel::Instructions {
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
            let compiled = self.stmt(&stmt.kind, stmt.pc);
            items.extend(compiled);
            cost.add(&self.stmt_cost(stmt, false));
        }
        if self.model == CostModel::Instructions {
            cost.constant = u64::from(rule.bytecodes);
        }
        let may_throw = rule
            .body
            .iter()
            .any(|s| s.kind.can_throw() && !matches!(s.kind, StmtKind::Call { .. }));
        let dims = self.next;
        let ranges = self.ranges();
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
                    Ty::Ref => Width::Size,
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

    /// A call with no analysed target: a native method executes no bytecodes (and only counts
    /// as an invocation at the call), and allocates nothing the allocations model counts, except
    /// the natives of [`ALLOCATING_NATIVES`] (whose amounts are not known here: opaque). Other
    /// calls are opaque.
    fn outside_call(&self, kind: CallKind, method: &MethodRef) -> Item {
        let native = self.native_call(kind, method);
        // The `clone` of an array allocates exactly a copy, which `stmt_cost` counts.
        let allocation_free = is_array_clone(method)
            || !ALLOCATING_NATIVES
                .iter()
                .any(|(class, name)| method.name == *name && (class.is_empty() || method.class == *class));
        let name = format!(
            "{}.{}{}",
            method.class.replace('/', "."),
            method.name,
            method.descriptor
        );
        match (native, self.model) {
            (true, CostModel::Allocations) if !allocation_free => Item::Opaque {
                reason: format!("calls the native {name}, which may allocate"),
            },
            (true, _) => Item::Marker { bytecodes: 0 },
            (false, _) => Item::Opaque {
                reason: format!("calls {name}, which is not analysed"),
            },
        }
    }

    /// Whether every target of a call outside the program is a native method (the methods of an
    /// array class are `Object`'s).
    fn native_call(&self, kind: CallKind, method: &MethodRef) -> bool {
        if method.class.starts_with('[') {
            let on_object = MethodRef {
                class: "java/lang/Object".into(),
                ..method.clone()
            };
            self.resolver.is_native(kind, &on_object)
        } else {
            self.resolver.is_native(kind, method)
        }
    }

    /// What an exception raised by `kind` has cost beyond the rule's own bytecodes: the callee
    /// that threw it (for calls), and the construction of an exception the JVM raises itself.
    /// Returns the callee part and the implicit-exception part separately.
    fn exceptional_items(&mut self, kind: &StmtKind) -> (Vec<Item>, Vec<Item>) {
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
        if self.only_npe_on_this(kind) {
            // `this` is never null, so the only implicit exception is ruled out.
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
    /// that is `this` of an instance method that never assigns its slot 0 (`this` is never null).
    fn only_npe_on_this(&self, kind: &StmtKind) -> bool {
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
        let Some(this) = self.this_var() else {
            return false;
        };
        *object == Operand::Var(this)
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
                let mut cost = RuleCost::default();
                if self.model == CostModel::Allocations {
                    cost.constant = 1;
                }
                rules.push(AbstractRule {
                    dims: inputs,
                    cost,
                    may_throw: false,
                    guard: Vec::new(),
                    items: vec![Item::Constrain(constraints), call],
                    returns: true,
                    source: None,
                    ranges: Vec::new(),
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

    /// What a statement costs under the model (bytecodes are counted per rule, not here). A
    /// statement that throws still made its call, but allocated nothing.
    fn stmt_cost(&mut self, stmt: &Stmt, throws: bool) -> RuleCost {
        let mut cost = RuleCost::default();
        let mut scratch = Vec::new();
        match (self.model, &stmt.kind) {
            (CostModel::Invocations, StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. }) => cost.constant = 1,
            (CostModel::Consume, kind) => {
                if let (Some(method), StmtKind::Invoke { args, .. }) = (is_consume_call(kind), kind) {
                    match args.first() {
                        None if method.descriptor == "()V" => cost.constant = 1,
                        Some(Operand::Int(n)) => cost.constant = u64::try_from(*n).unwrap_or(0),
                        Some(arg) => {
                            let d = self.operand(arg, &mut scratch);
                            cost.symbolic
                                .extend(LinearExpr::from_terms(&[(d, 1)], 0).map(|e| vec![e]));
                        }
                        None => {}
                    }
                }
            }
            (CostModel::Allocations, StmtKind::NewMultiArray { lengths, .. }) => {
                // `new T[l0]…[l(d-1)]` makes 1 + P0 + … + P(d-2) arrays holding P0 + … + P(d-1)
                // elements, where Pk = l0·…·lk. When an inner length is negative, the JVM may
                // have allocated the levels above it before it throws; the same products (of
                // `nat` bounds) cover that too.
                cost.constant = 1;
                let mut factors: Vec<LinearExpr> = Vec::new();
                for (k, length) in lengths.iter().enumerate() {
                    let factor = match length {
                        Operand::Int(n) => LinearExpr::from_terms(&[], i64::from(*n)),
                        other => {
                            let d = self.operand(other, &mut scratch);
                            LinearExpr::from_terms(&[(d, 1)], 0)
                        }
                    };
                    let Some(factor) = factor else { break };
                    factors.push(factor);
                    let times = if k + 1 < lengths.len() { 2 } else { 1 };
                    for _ in 0..times {
                        cost.symbolic.push(factors.clone());
                    }
                }
            }
            (CostModel::Allocations, StmtKind::Invoke { method, args, .. }) if !throws && is_array_clone(method) => {
                // A copy of the array: one array of the receiver's length.
                cost.constant = 1;
                if let Some(receiver) = args.first() {
                    let d = self.operand(receiver, &mut scratch);
                    cost.symbolic
                        .extend(LinearExpr::from_terms(&[(d, 1)], 0).map(|e| vec![e]));
                }
            }
            (CostModel::Allocations, _) if throws => {}
            (CostModel::Allocations, StmtKind::New { .. }) => cost.constant = 1,
            (CostModel::Allocations, StmtKind::NewArray { length, .. } | StmtKind::NewRefArray { length, .. }) => {
                cost.constant = 1;
                match length {
                    Operand::Int(n) => cost.constant += u64::try_from(*n).unwrap_or(0),
                    other => {
                        let d = self.operand(other, &mut scratch);
                        cost.symbolic
                            .extend(LinearExpr::from_terms(&[(d, 1)], 0).map(|e| vec![e]));
                    }
                }
            }
            _ => {}
        }
        cost
    }

    /// Compiles one statement (at bytecode offset `pc`) into items.
    fn stmt(&mut self, kind: &StmtKind, pc: u32) -> Vec<Item> {
        let mut c: Vec<Constraint> = Vec::new();
        let mut items = Vec::new();
        let mut wrap: Option<(Dimension, Width)> = None;
        let mut factors: Option<(Dimension, Dimension)> = None;
        match kind {
            StmtKind::Assign { dst, src } => {
                if tracked(self.ty(src)) {
                    let s = self.operand(src, &mut c);
                    let d = self.dim(*dst);
                    c.extend(eq(&[(d, 1), (s, -1)], 0));
                }
            }
            StmtKind::Binary { dst, op, ty, lhs, rhs } => {
                if matches!(ty, Ty::Int | Ty::Long) {
                    let (l, r) = (self.operand(lhs, &mut c), self.operand(rhs, &mut c));
                    let d = self.dim(*dst);
                    match op {
                        BinOp::Add => c.extend(eq(&[(d, 1), (l, -1), (r, -1)], 0)),
                        BinOp::Sub => c.extend(eq(&[(d, 1), (l, -1), (r, 1)], 0)),
                        BinOp::Mul if matches!(lhs, Operand::Int(_) | Operand::Long(_)) => {
                            c.extend(constant_of(lhs).and_then(|k| eq(&[(d, 1), (r, -k)], 0)))
                        }
                        BinOp::Mul if matches!(rhs, Operand::Int(_) | Operand::Long(_)) => {
                            c.extend(constant_of(rhs).and_then(|k| eq(&[(d, 1), (l, -k)], 0)))
                        }
                        _ => {
                            if let Some(aux_op) = AuxOp::of(*op, *ty) {
                                if matches!(op, BinOp::Mul) {
                                    factors = Some((l, r));
                                }
                                let callee = self.aux(aux_op);
                                items.push(Item::Constrain(std::mem::take(&mut c)));
                                items.push(Item::Call {
                                    callee,
                                    args: vec![l, r],
                                    outs: vec![d],
                                });
                            }
                        }
                    }
                    if matches!(op, BinOp::Cmp) {
                        c.extend(ge(&[(d, 1)], 1));
                        c.extend(ge(&[(d, -1)], 1));
                    }
                    if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Shl) {
                        wrap = Some((d, if *ty == Ty::Int { Width::Int } else { Width::Long }));
                    }
                } else if matches!(op, BinOp::CmpL | BinOp::CmpG) {
                    let d = self.dim(*dst);
                    c.extend(ge(&[(d, 1)], 1));
                    c.extend(ge(&[(d, -1)], 1));
                }
            }
            StmtKind::Unary { dst, op, from, src } => {
                let to = self.method.var(*dst).ty;
                let d = self.dim(*dst);
                match op {
                    UnOp::Neg if tracked(*from) => {
                        let s = self.operand(src, &mut c);
                        c.extend(eq(&[(d, 1), (s, 1)], 0));
                        wrap = Some((d, if *from == Ty::Int { Width::Int } else { Width::Long }));
                    }
                    UnOp::Convert if tracked(*from) && tracked(to) => {
                        let s = self.operand(src, &mut c);
                        c.extend(eq(&[(d, 1), (s, -1)], 0));
                        if to == Ty::Int && *from == Ty::Long {
                            wrap = Some((d, Width::Int));
                        }
                    }
                    UnOp::Convert if to == Ty::Int => {
                        c.extend(ge(&[(d, 1)], i64::from(i32::MAX) + 1));
                        c.extend(ge(&[(d, -1)], i64::from(i32::MAX)));
                    }
                    UnOp::IntToByte => c.extend([ge(&[(d, 1)], 128), ge(&[(d, -1)], 127)].into_iter().flatten()),
                    UnOp::IntToChar => c.extend([ge(&[(d, 1)], 0), ge(&[(d, -1)], 65535)].into_iter().flatten()),
                    UnOp::IntToShort => c.extend([ge(&[(d, 1)], 32768), ge(&[(d, -1)], 32767)].into_iter().flatten()),
                    _ => {}
                }
            }
            StmtKind::GetField { dst, object, field } => {
                let o = self.operand(object, &mut c);
                c.extend(ge(&[(o, 1)], -1));
                if Ty::from_descriptor(&field.descriptor) == Some(Ty::Ref) {
                    let d = self.dim(*dst);
                    c.extend(ge(&[(d, 1)], 0));
                    c.extend(ge(&[(o, 1), (d, -1)], -1));
                }
            }
            StmtKind::PutField { object, .. } => {
                let o = self.operand(object, &mut c);
                c.extend(ge(&[(o, 1)], -1));
            }
            StmtKind::GetStatic { dst, field } => {
                if Ty::from_descriptor(&field.descriptor) == Some(Ty::Ref) {
                    let d = self.dim(*dst);
                    c.extend(self.ref_facts(d, false));
                }
            }
            StmtKind::ArrayLoad {
                dst,
                elem,
                array,
                index,
            } => {
                let (a, i) = (self.operand(array, &mut c), self.operand(index, &mut c));
                c.extend(ge(&[(i, 1)], 0));
                c.extend(ge(&[(a, 1), (i, -1)], -1));
                match elem {
                    ElemTy::Ref => {
                        let d = self.dim(*dst);
                        c.extend(self.ref_facts(d, false));
                    }
                    ElemTy::Byte => {
                        let d = self.dim(*dst);
                        c.extend([ge(&[(d, 1)], 128), ge(&[(d, -1)], 127)].into_iter().flatten());
                    }
                    ElemTy::Char => {
                        let d = self.dim(*dst);
                        c.extend([ge(&[(d, 1)], 0), ge(&[(d, -1)], 65535)].into_iter().flatten());
                    }
                    ElemTy::Short => {
                        let d = self.dim(*dst);
                        c.extend([ge(&[(d, 1)], 32768), ge(&[(d, -1)], 32767)].into_iter().flatten());
                    }
                    _ => {}
                }
            }
            StmtKind::ArrayStore { array, index, .. } => {
                let (a, i) = (self.operand(array, &mut c), self.operand(index, &mut c));
                c.extend(ge(&[(i, 1)], 0));
                c.extend(ge(&[(a, 1), (i, -1)], -1));
            }
            StmtKind::ArrayLength { dst, array } => {
                let a = self.operand(array, &mut c);
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1), (a, -1)], 0));
                c.extend(ge(&[(d, 1)], 0));
            }
            StmtKind::New { dst, .. } => {
                let d = self.dim(*dst);
                c.extend(self.ref_facts(d, true));
            }
            StmtKind::NewArray { dst, length, .. } | StmtKind::NewRefArray { dst, length, .. } => {
                let l = self.operand(length, &mut c);
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1), (l, -1)], 0));
                c.extend(ge(&[(l, 1)], 0));
            }
            StmtKind::NewMultiArray { dst, lengths, .. } => {
                let d = self.dim(*dst);
                for (k, length) in lengths.iter().enumerate() {
                    let l = self.operand(length, &mut c);
                    c.extend(ge(&[(l, 1)], 0));
                    if k == 0 {
                        c.extend(eq(&[(d, 1), (l, -1)], 0));
                    }
                }
            }
            StmtKind::Invoke {
                dst,
                kind,
                method,
                args,
                ..
            } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut c)).collect();
                if *kind != CallKind::Static {
                    if let Some(receiver) = arg_dims.first() {
                        c.extend(ge(&[(*receiver, 1)], -1));
                    }
                }
                let out_dims: Vec<Dimension> = dst.iter().map(|v| self.dim(*v)).collect();
                match self.dispatch(*kind, method) {
                    Some(callee) => {
                        items.push(Item::Constrain(std::mem::take(&mut c)));
                        items.push(Item::Call {
                            callee,
                            args: arg_dims,
                            outs: out_dims,
                        });
                    }
                    None => {
                        if let Some(v) = dst {
                            if self.method.var(*v).ty == Ty::Ref {
                                let d = self.dim(*v);
                                c.extend(self.ref_facts(d, false));
                            }
                        }
                        if is_marker(method) {
                            // `return` is the whole body of the marker methods.
                            items.push(Item::Marker { bytecodes: 1 });
                        } else {
                            items.push(self.outside_call(*kind, method));
                        }
                    }
                }
            }
            StmtKind::InvokeDynamic { dst, name, .. } => {
                if let Some(v) = dst {
                    if self.method.var(*v).ty == Ty::Ref {
                        let d = self.dim(*v);
                        c.extend(self.ref_facts(d, false));
                    }
                }
                items.push(Item::Opaque {
                    reason: format!("calls the dynamically linked `{name}` (invokedynamic)"),
                });
            }
            StmtKind::LoadConst { dst: v, .. } => {
                if self.method.var(*v).ty == Ty::Ref {
                    let d = self.dim(*v);
                    c.extend(self.ref_facts(d, false));
                }
            }
            StmtKind::Call { proc, args, outs } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut c)).collect();
                let out_dims: Vec<Dimension> = outs.iter().map(|v| self.dim(*v)).collect();
                let callee = self.program.of_ir[self.method_index][proc.index()];
                items.push(Item::Constrain(std::mem::take(&mut c)));
                items.push(Item::Call {
                    callee,
                    args: arg_dims,
                    outs: out_dims,
                });
            }
            StmtKind::InstanceOf { dst, value, .. } => {
                let _ = self.operand(value, &mut c);
                let d = self.dim(*dst);
                c.extend([ge(&[(d, 1)], 0), ge(&[(d, -1)], 1)].into_iter().flatten());
            }
            StmtKind::MonitorEnter { value } | StmtKind::MonitorExit { value } | StmtKind::Throw { value } => {
                let v = self.operand(value, &mut c);
                if !matches!(kind, StmtKind::Throw { .. }) {
                    c.extend(ge(&[(v, 1)], -1));
                }
            }
            StmtKind::PutStatic { .. } | StmtKind::CheckCast { .. } => {}
        }
        if !c.is_empty() {
            items.push(Item::Constrain(c));
        }
        if let Some((dim, width)) = wrap {
            items.push(Item::Wrap {
                dim,
                width,
                pc,
                factors,
            });
        }
        items
    }

    /// A fresh auxiliary procedure instance for one occurrence of a non-linear operation.
    fn aux(&mut self, op: AuxOp) -> AbsProcId {
        self.program.procs.push(aux::procedure(op));
        self.program.procs.len() - 1
    }

    /// The dispatch procedure of a method call, when every target is in the program.
    fn dispatch(&mut self, kind: CallKind, method: &MethodRef) -> Option<AbsProcId> {
        let key = (kind, method.clone());
        if let Some(found) = self.dispatches.get(&key) {
            return *found;
        }
        let targets = self.resolver.resolve(kind, method);
        let id = targets.filter(|t| !t.is_empty()).map(|targets| {
            let (params, ret) = parse_method_descriptor(&method.descriptor).unwrap_or_default();
            let inputs = params.len() + usize::from(kind != CallKind::Static);
            let outputs = usize::from(ret.is_some());
            let rules = targets
                .iter()
                .map(|&t| {
                    let entry = self.program.of_ir[t][self.methods[t].entry.index()];
                    AbstractRule {
                        dims: inputs + outputs,
                        cost: RuleCost::default(),
                        may_throw: false,
                        guard: Vec::new(),
                        items: vec![Item::Call {
                            callee: entry,
                            args: (0..inputs).collect(),
                            outs: (inputs..inputs + outputs).collect(),
                        }],
                        returns: true,
                        source: None,
                        ranges: Vec::new(),
                    }
                })
                .collect();
            self.program.procs.push(AbstractProc {
                is_method_entry: false,
                name: format!("dispatch {}.{}{}", method.class, method.name, method.descriptor),
                inputs,
                outputs,
                rules,
                origin: Origin::Dispatch(method.clone()),
            });
            self.program.procs.len() - 1
        });
        self.dispatches.insert(key, id);
        id
    }
}

fn constant_of(operand: &Operand) -> Option<i64> {
    match operand {
        Operand::Int(n) => Some(i64::from(*n)),
        Operand::Long(n) => Some(*n),
        _ => None,
    }
}

/// The natives that create objects or arrays the allocations model counts (`clone` of any
/// class or array, reflective array creation, `Unsafe` allocation), as (class, name); an empty
/// class matches every class. The model counts what bytecode allocates and what these return;
/// the JVM's own bookkeeping inside other natives (stack traces, messages) is outside it.
const ALLOCATING_NATIVES: &[(&str, &str)] = &[
    ("", "clone"),
    ("java/lang/reflect/Array", "newArray"),
    ("java/lang/reflect/Array", "multiNewArray"),
    ("jdk/internal/misc/Unsafe", "allocateInstance"),
    ("jdk/internal/misc/Unsafe", "allocateUninitializedArray0"),
];

/// `clone` of an array (`[I.clone()`, `[Ljava/lang/String;.clone()`).
fn is_array_clone(method: &MethodRef) -> bool {
    method.class.starts_with('[') && method.name == "clone" && method.descriptor == "()Ljava/lang/Object;"
}

/// Whether a call goes to one of the specification markers (`Resource.consume`, `Loop.invariant`),
/// whose bodies are a single `return`.
fn is_marker(method: &MethodRef) -> bool {
    crate::bounds::is_spec_marker(&method.class, &method.name)
}
