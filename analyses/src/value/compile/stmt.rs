//! Statements: the linear constraints and calls each statement kind compiles to, one function per
//! family of statements (moves and arithmetic, heap accesses, allocations, calls, checks).

use super::{constant_of, eq, ge, is_marker, tracked, RuleCompiler};
use crate::cost_model::is_array_clone;
use crate::ir::*;
use crate::value::polyhedra::{Constraint, Dimension};
use crate::value::program::{AuxOp, Item, Width};

/// What one statement compiles to, in order: the items (calls, each after the constraints that
/// precede it), then the remaining constraints, then the `Wrap` of a result that may overflow.
#[derive(Default)]
struct Compiled {
    constraints: Vec<Constraint>,
    items: Vec<Item>,
    wrap: Option<(Dimension, Width)>,
    factors: Option<(Dimension, Dimension)>,
    /// How many multiples of `2^32` away from the `int` range the wrapped value may lie
    /// (`Item::Wrap`'s `wraps`).
    wraps: Option<u8>,
}

impl Compiled {
    /// A call, after the constraints collected so far.
    fn call(&mut self, callee: usize, args: Vec<Dimension>, outs: Vec<Dimension>) {
        self.items.push(Item::Constrain(std::mem::take(&mut self.constraints)));
        self.items.push(Item::Call { callee, args, outs });
    }

    fn finish(mut self, pc: u32) -> Vec<Item> {
        if !self.constraints.is_empty() {
            self.items.push(Item::Constrain(self.constraints));
        }
        if let Some((dim, width)) = self.wrap {
            self.items.push(Item::Wrap {
                dim,
                width,
                pc,
                factors: self.factors,
                wraps: self.wraps,
            });
        }
        self.items
    }
}

/// The range of values of a narrow integer type held in `d`.
fn narrow_range(d: Dimension, min: i64, max: i64) -> impl Iterator<Item = Constraint> {
    [ge(&[(d, 1)], -min), ge(&[(d, -1)], max)].into_iter().flatten()
}

pub(super) fn width_of(ty: Ty) -> Width {
    if ty == Ty::Int {
        Width::Int
    } else {
        Width::Long
    }
}

impl RuleCompiler<'_> {
    /// Compiles one statement (at bytecode offset `pc`) into items.
    pub(super) fn stmt(&mut self, kind: &StmtKind, pc: u32) -> Vec<Item> {
        let mut out = Compiled::default();
        match kind {
            StmtKind::Assign { dst, src } => {
                if tracked(self.ty(src)) {
                    let s = self.operand(src, &mut out.constraints);
                    let d = self.dim(*dst);
                    out.constraints.extend(eq(&[(d, 1), (s, -1)], 0));
                }
            }
            StmtKind::Binary { dst, op, ty, lhs, rhs } => self.binary(*dst, *op, *ty, lhs, rhs, &mut out),
            StmtKind::Unary { dst, op, from, src } => self.unary(*dst, *op, *from, src, &mut out),
            StmtKind::GetField { .. }
            | StmtKind::PutField { .. }
            | StmtKind::GetStatic { .. }
            | StmtKind::ArrayLoad { .. }
            | StmtKind::ArrayStore { .. }
            | StmtKind::ArrayLength { .. } => self.heap_access(kind, &mut out.constraints),
            StmtKind::New { .. }
            | StmtKind::NewArray { .. }
            | StmtKind::NewRefArray { .. }
            | StmtKind::NewMultiArray { .. }
            | StmtKind::Concat { .. } => self.allocation(kind, &mut out.constraints),
            StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. } | StmtKind::Call { .. } => {
                self.call(kind, &mut out)
            }
            StmtKind::LoadConst { dst: v, .. } => {
                if self.method.var(*v).ty == Ty::Ref {
                    let d = self.dim(*v);
                    out.constraints.extend(self.ref_facts(d, false));
                }
            }
            StmtKind::InstanceOf { dst, value, .. } => {
                let _ = self.operand(value, &mut out.constraints);
                let d = self.dim(*dst);
                out.constraints.extend(narrow_range(d, 0, 1));
            }
            StmtKind::MonitorEnter { value } | StmtKind::MonitorExit { value } | StmtKind::Throw { value } => {
                let v = self.operand(value, &mut out.constraints);
                if !matches!(kind, StmtKind::Throw { .. }) {
                    out.constraints.extend(ge(&[(v, 1)], -1));
                }
            }
            StmtKind::PutStatic { .. } | StmtKind::CheckCast { .. } => {}
        }
        out.finish(pc)
    }

    /// `dst = lhs op rhs`: linear operations as constraints, the others as calls of auxiliary
    /// procedures; results that may wrap are marked.
    fn binary(&mut self, dst: VarId, op: BinOp, ty: Ty, lhs: &Operand, rhs: &Operand, out: &mut Compiled) {
        if !matches!(ty, Ty::Int | Ty::Long) {
            if matches!(op, BinOp::CmpL | BinOp::CmpG) {
                let d = self.dim(dst);
                out.constraints.extend(narrow_range(d, -1, 1));
            }
            return;
        }
        let c = &mut out.constraints;
        let (l, r) = (self.operand(lhs, c), self.operand(rhs, c));
        let d = self.dim(dst);
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
                if let Some(aux_op) = AuxOp::of(op, ty) {
                    if matches!(op, BinOp::Mul) {
                        out.factors = Some((l, r));
                    }
                    let callee = self.aux(aux_op);
                    out.call(callee, vec![l, r], vec![d]);
                }
            }
        }
        if matches!(op, BinOp::Cmp) {
            out.constraints.extend(narrow_range(d, -1, 1));
        }
        if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Shl) {
            out.wrap = Some((d, width_of(ty)));
            out.wraps = match op {
                BinOp::Add | BinOp::Sub => Some(1),
                // `k·x` for `k` in `{-1, 1, 2}` lies where a sum does; for `|k| <= 4` within two
                // multiples of `2^32` of the range.
                BinOp::Mul => match [lhs, rhs].into_iter().find_map(constant_of) {
                    Some(-1 | 1 | 2) => Some(1),
                    Some(k) if (3..=4).contains(&k.unsigned_abs()) || k == -2 => Some(2),
                    _ => None,
                },
                _ => None,
            };
        }
    }

    /// `dst = op src`: negation and conversions between integer types; narrowing conversions
    /// give the target type's range.
    fn unary(&mut self, dst: VarId, op: UnOp, from: Ty, src: &Operand, out: &mut Compiled) {
        let to = self.method.var(dst).ty;
        let d = self.dim(dst);
        let c = &mut out.constraints;
        match op {
            UnOp::Neg if tracked(from) => {
                let s = self.operand(src, c);
                c.extend(eq(&[(d, 1), (s, 1)], 0));
                out.wrap = Some((d, width_of(from)));
                out.wraps = Some(1);
            }
            UnOp::Convert if tracked(from) && tracked(to) => {
                let s = self.operand(src, c);
                c.extend(eq(&[(d, 1), (s, -1)], 0));
                if to == Ty::Int && from == Ty::Long {
                    out.wrap = Some((d, Width::Int));
                }
                // A widened `int` keeps its type's range, which no later polyhedron would know
                // from the `long` it now is (a loop counting a `long` down from an `int`).
                if to == Ty::Long && from == Ty::Int {
                    c.extend(narrow_range(d, -(i64::from(i32::MAX) + 1), i64::from(i32::MAX)));
                }
            }
            UnOp::Convert if to == Ty::Int => {
                c.extend(narrow_range(d, -(i64::from(i32::MAX) + 1), i64::from(i32::MAX)))
            }
            UnOp::IntToByte => c.extend(narrow_range(d, -128, 127)),
            UnOp::IntToChar => c.extend(narrow_range(d, 0, 65535)),
            UnOp::IntToShort => c.extend(narrow_range(d, -32768, 32767)),
            _ => {}
        }
    }

    /// Field and array accesses: the object or array is not null, an index is within the array,
    /// a reference read from a field is shorter than the object, narrow elements keep their range.
    fn heap_access(&mut self, kind: &StmtKind, c: &mut Vec<Constraint>) {
        match kind {
            StmtKind::GetField { dst, object, field } => {
                let o = self.operand(object, c);
                c.extend(ge(&[(o, 1)], -1));
                if Ty::from_descriptor(&field.descriptor) == Some(Ty::Ref) {
                    let d = self.dim(*dst);
                    c.extend(ge(&[(d, 1)], 0));
                    // Shorter than its object, unless the object may lie on or reach a cycle.
                    if !self.plan.cyclic_reads.get(self.current).copied().unwrap_or(true) {
                        c.extend(ge(&[(o, 1), (d, -1)], -1));
                        c.extend(self.disjoint_fields(o, field, d));
                    }
                }
            }
            StmtKind::PutField { object, .. } => {
                let o = self.operand(object, c);
                c.extend(ge(&[(o, 1)], -1));
            }
            StmtKind::GetStatic { dst, field } if Ty::from_descriptor(&field.descriptor) == Some(Ty::Ref) => {
                let d = self.dim(*dst);
                c.extend(self.ref_facts(d, false));
            }
            // Assertions are off, as the JVM runs by default (and as the validation VM answers
            // `Class.desiredAssertionStatus`): javac's `$assertionsDisabled` is true, so the
            // branch that builds an `AssertionError` never runs.
            StmtKind::GetStatic { dst, field } if is_assertions_disabled(field) => {
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1)], -1));
            }
            StmtKind::ArrayLoad {
                dst,
                elem,
                array,
                index,
            } => {
                self.index_within(array, index, c);
                self.element(*dst, *elem, c);
            }
            StmtKind::ArrayStore { array, index, .. } => self.index_within(array, index, c),
            StmtKind::ArrayLength { dst, array } => {
                let a = self.operand(array, c);
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1), (a, -1)], 0));
                c.extend(ge(&[(d, 1)], 0));
            }
            _ => {}
        }
    }

    /// The values read from different fields of one object (of the same size, so unchanged
    /// between the reads) are disjoint parts of it: their sizes add up to less than its own,
    /// `Σ |o.f_i| <= |o| - 1` (a tree's two subtrees together are smaller than the tree).
    fn disjoint_fields(&mut self, o: Dimension, field: &FieldRef, d: Dimension) -> Option<Constraint> {
        let slot = (field.name.clone(), field.descriptor.clone());
        let reads = self.field_reads.entry(o).or_default();
        if reads.iter().any(|(s, _)| *s == slot) {
            return None;
        }
        reads.push((slot, d));
        if reads.len() < 2 {
            return None;
        }
        let mut terms: Vec<(Dimension, i64)> = reads.iter().map(|(_, read)| (*read, -1)).collect();
        terms.push((o, 1));
        ge(&terms, -1)
    }

    /// `0 <= index < |array|`, as an access that completes normally needs.
    fn index_within(&mut self, array: &Operand, index: &Operand, c: &mut Vec<Constraint>) {
        let (a, i) = (self.operand(array, c), self.operand(index, c));
        c.extend(ge(&[(i, 1)], 0));
        c.extend(ge(&[(a, 1), (i, -1)], -1));
    }

    /// What is known of an array element read into `dst`.
    fn element(&mut self, dst: VarId, elem: ElemTy, c: &mut Vec<Constraint>) {
        let range = match elem {
            ElemTy::Ref => {
                let d = self.dim(dst);
                c.extend(self.ref_facts(d, false));
                return;
            }
            ElemTy::Byte => (-128, 127),
            ElemTy::Char => (0, 65535),
            ElemTy::Short => (-32768, 32767),
            _ => return,
        };
        let d = self.dim(dst);
        c.extend(narrow_range(d, range.0, range.1));
    }

    /// Allocations: a new object is not null, a new array's size is its (non-negative) length.
    fn allocation(&mut self, kind: &StmtKind, c: &mut Vec<Constraint>) {
        match kind {
            // A new object's fields are all null: its path length is 1.
            StmtKind::New { dst, .. } => {
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1)], -1));
            }
            // A concatenation makes a new string.
            StmtKind::Concat { dst, .. } => {
                let d = self.dim(*dst);
                c.extend(self.ref_facts(d, true));
            }
            StmtKind::NewArray { dst, length, .. } | StmtKind::NewRefArray { dst, length, .. } => {
                let l = self.operand(length, c);
                let d = self.dim(*dst);
                c.extend(eq(&[(d, 1), (l, -1)], 0));
                c.extend(ge(&[(l, 1)], 0));
            }
            StmtKind::NewMultiArray { dst, lengths, .. } => {
                let d = self.dim(*dst);
                for (k, length) in lengths.iter().enumerate() {
                    let l = self.operand(length, c);
                    c.extend(ge(&[(l, 1)], 0));
                    if k == 0 {
                        c.extend(eq(&[(d, 1), (l, -1)], 0));
                    }
                }
            }
            _ => {}
        }
    }

    /// Method calls (through their dispatch procedure, or opaque), dynamically linked calls
    /// (opaque), and calls of the method's own procedures.
    fn call(&mut self, kind: &StmtKind, out: &mut Compiled) {
        match kind {
            StmtKind::Invoke {
                dst,
                kind,
                method,
                args,
                ..
            } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut out.constraints)).collect();
                if *kind != CallKind::Static {
                    if let Some(receiver) = arg_dims.first() {
                        out.constraints.extend(ge(&[(*receiver, 1)], -1));
                    }
                }
                let out_dims: Vec<Dimension> = dst.iter().map(|v| self.dim(*v)).collect();
                match self.dispatch(*kind, method) {
                    Some(callee) => out.call(callee, arg_dims, out_dims),
                    None => {
                        self.unknown_result(*dst, &mut out.constraints);
                        if let (true, Some(v), Some(&array)) = (is_array_clone(method), dst, arg_dims.first()) {
                            // A clone of an array has its length and its elements.
                            let d = self.dim(*v);
                            out.constraints.extend(eq(&[(d, 1), (array, -1)], 0));
                        }
                        if is_marker(method) {
                            // `return` is the whole body of the marker methods.
                            out.items.push(Item::Marker { bytecodes: 1 });
                        } else {
                            out.items.push(self.outside_call(*kind, method));
                        }
                    }
                }
            }
            StmtKind::InvokeDynamic { dst, name, .. } => {
                self.unknown_result(*dst, &mut out.constraints);
                out.items.push(Item::Opaque {
                    reason: format!("calls the dynamically linked `{name}` (invokedynamic)"),
                });
            }
            StmtKind::Call { proc, args, outs } => {
                let arg_dims: Vec<Dimension> = args.iter().map(|a| self.operand(a, &mut out.constraints)).collect();
                let out_dims: Vec<Dimension> = outs.iter().map(|v| self.dim(*v)).collect();
                let callee = self.program.of_ir[self.method_index][proc.index()];
                out.call(callee, arg_dims, out_dims);
            }
            _ => {}
        }
    }

    /// The result of a call the analysis cannot follow: a reference is only known to have a
    /// non-negative size.
    fn unknown_result(&mut self, dst: Option<VarId>, c: &mut Vec<Constraint>) {
        if let Some(v) = dst {
            if self.method.var(v).ty == Ty::Ref {
                let d = self.dim(v);
                c.extend(self.ref_facts(d, false));
            }
        }
    }
}

/// Whether `field` is the flag javac's `assert` statements test: the class's synthetic
/// `static final boolean $assertionsDisabled`, set by its initialiser to
/// `!desiredAssertionStatus()`.
fn is_assertions_disabled(field: &crate::ir::FieldRef) -> bool {
    field.name == "$assertionsDisabled" && field.descriptor == "Z"
}
