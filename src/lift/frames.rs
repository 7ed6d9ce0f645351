//! Type inference of local slots and stack entries at each block entry, and liveness of local slots.
//!
//! The lifter infers frames itself (it never reads `StackMapTable`). Invariants: a block's entry
//! frame is the merge of every frame that flows into it (a slot typed differently on two paths is
//! unusable); handler entries merge the locals before every throwing instruction they cover and
//! have exactly one reference on the stack; a slot live at a block entry has a known type there.

use super::cfg::{insn_can_throw, Cfg};
use super::LiftError;
use crate::classfile::{ArithOp, Code, Constant, Insn, Kind};
use fixedbitset::FixedBitSet;
use jresa_analyses::ir::{parse_method_descriptor, Ty};

/// The types of the local slots and of the operand stack at one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// `None` for a slot that holds nothing usable (never written, or typed differently on two paths,
    /// or the second half of a long or double).
    pub locals: Vec<Option<Ty>>,
    /// One entry per value; longs and doubles take one entry.
    pub stack: Vec<Ty>,
}

/// The IR type of a classfile value kind.
pub fn ty_of_kind(kind: Kind) -> Ty {
    match kind {
        Kind::Int => Ty::Int,
        Kind::Long => Ty::Long,
        Kind::Float => Ty::Float,
        Kind::Double => Ty::Double,
        Kind::Reference => Ty::Ref,
    }
}

/// Whether a value of this type takes two slots (two stack words) on the JVM.
pub fn is_wide(ty: Ty) -> bool {
    matches!(ty, Ty::Long | Ty::Double)
}

/// Something that sits on the simulated operand stack and knows its JVM category.
pub trait StackValue: Clone {
    fn wide(&self) -> bool;
}

impl StackValue for Ty {
    fn wide(&self) -> bool {
        is_wide(*self)
    }
}

/// Applies `pop`, `pop2`, `dup*` or `swap` to a simulated stack, respecting value categories.
/// Returns `Ok(false)` when `insn` is not a stack-manipulation instruction.
pub fn shuffle_stack<V: StackValue>(insn: &Insn, stack: &mut Vec<V>, pc: u32) -> Result<bool, LiftError> {
    let underflow = || LiftError::at(pc, "operand stack underflow");
    let category_error = || LiftError::at(pc, "stack instruction splits a long or double");
    // Pops values covering exactly `words` stack words.
    let take = |stack: &mut Vec<V>, words: usize| -> Result<Vec<V>, LiftError> {
        let mut taken = Vec::new();
        let mut covered = 0;
        while covered < words {
            let value = stack.pop().ok_or_else(underflow)?;
            covered += if value.wide() { 2 } else { 1 };
            taken.push(value);
        }
        if covered != words {
            return Err(category_error());
        }
        taken.reverse();
        Ok(taken)
    };
    // `dup`-family: copies the top `copied` words below the next `skipped` words.
    let dup = |stack: &mut Vec<V>, copied: usize, skipped: usize| -> Result<(), LiftError> {
        let top = take(stack, copied)?;
        let below = take(stack, skipped)?;
        stack.extend(top.iter().cloned());
        stack.extend(below);
        stack.extend(top);
        Ok(())
    };
    match insn {
        Insn::Pop => {
            take(stack, 1)?;
        }
        Insn::Pop2 => {
            take(stack, 2)?;
        }
        Insn::Dup => dup(stack, 1, 0)?,
        Insn::DupX1 => dup(stack, 1, 1)?,
        Insn::DupX2 => dup(stack, 1, 2)?,
        Insn::Dup2 => dup(stack, 2, 0)?,
        Insn::Dup2X1 => dup(stack, 2, 1)?,
        Insn::Dup2X2 => dup(stack, 2, 2)?,
        Insn::Swap => {
            let mut top = take(stack, 2)?;
            if top.len() != 2 {
                return Err(category_error());
            }
            top.reverse();
            stack.extend(top);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The type pushed by a loadable constant.
pub fn constant_ty(constant: &Constant) -> Option<Ty> {
    Some(match constant {
        Constant::Int(_) => Ty::Int,
        Constant::Float(_) => Ty::Float,
        Constant::Long(_) => Ty::Long,
        Constant::Double(_) => Ty::Double,
        Constant::String(_) | Constant::Class(_) | Constant::MethodType(_) | Constant::MethodHandle(_) => Ty::Ref,
        Constant::Dynamic { descriptor, .. } => Ty::from_descriptor(descriptor)?,
    })
}

/// Parameter and result types of an `invoke*` (receiver first when it has one).
pub fn call_signature(descriptor: &str, has_receiver: bool, pc: u32) -> Result<(Vec<Ty>, Option<Ty>), LiftError> {
    let (mut params, ret) = parse_method_descriptor(descriptor)
        .ok_or_else(|| LiftError::at(pc, format!("malformed method descriptor `{descriptor}`")))?;
    if has_receiver {
        params.insert(0, Ty::Ref);
    }
    Ok((params, ret))
}

/// The type of a field from its descriptor.
pub fn field_ty(descriptor: &str, pc: u32) -> Result<Ty, LiftError> {
    Ty::from_descriptor(descriptor)
        .ok_or_else(|| LiftError::at(pc, format!("malformed field descriptor `{descriptor}`")))
}

impl Frame {
    fn pop(&mut self, expected: Ty, pc: u32) -> Result<(), LiftError> {
        match self.stack.pop() {
            Some(ty) if ty == expected => Ok(()),
            Some(ty) => Err(LiftError::at(
                pc,
                format!("expected {} on the stack, found {}", expected.keyword(), ty.keyword()),
            )),
            None => Err(LiftError::at(pc, "operand stack underflow")),
        }
    }

    fn local(&self, slot: u16, pc: u32) -> Result<Option<Ty>, LiftError> {
        self.locals
            .get(usize::from(slot))
            .copied()
            .ok_or_else(|| LiftError::at(pc, format!("local slot {slot} is beyond max_locals")))
    }

    fn set_local(&mut self, slot: u16, ty: Ty, pc: u32) -> Result<(), LiftError> {
        let slot = usize::from(slot);
        let width = if is_wide(ty) { 2 } else { 1 };
        if slot + width > self.locals.len() {
            return Err(LiftError::at(pc, format!("local slot {slot} is beyond max_locals")));
        }
        if slot > 0 && self.locals[slot - 1].is_some_and(is_wide) {
            self.locals[slot - 1] = None;
        }
        self.locals[slot] = Some(ty);
        if width == 2 {
            self.locals[slot + 1] = None;
        }
        Ok(())
    }

    /// Applies one instruction's effect on types (control flow aside); fields, calls, allocation
    /// and casts are in `step_object`.
    pub fn step(&mut self, insn: &Insn, pc: u32) -> Result<(), LiftError> {
        if shuffle_stack(insn, &mut self.stack, pc)? {
            return Ok(());
        }
        let s = self;
        match insn {
            Insn::Nop | Insn::Goto(_) | Insn::Return(None) | Insn::Jsr(_) | Insn::Ret(_) => {}
            Insn::AConstNull => s.stack.push(Ty::Ref),
            Insn::IConst(_) => s.stack.push(Ty::Int),
            Insn::LConst(_) => s.stack.push(Ty::Long),
            Insn::FConst(_) => s.stack.push(Ty::Float),
            Insn::DConst(_) => s.stack.push(Ty::Double),
            Insn::Ldc(constant) => {
                let ty =
                    constant_ty(constant).ok_or_else(|| LiftError::at(pc, "malformed dynamic constant descriptor"))?;
                s.stack.push(ty);
            }
            Insn::Load(kind, slot) => {
                let ty = ty_of_kind(*kind);
                if s.local(*slot, pc)? != Some(ty) {
                    return Err(LiftError::at(
                        pc,
                        format!("load of local {slot} as {}, which it does not hold", ty.keyword()),
                    ));
                }
                s.stack.push(ty);
            }
            Insn::Store(kind, slot) => {
                let ty = ty_of_kind(*kind);
                s.pop(ty, pc)?;
                s.set_local(*slot, ty, pc)?;
            }
            Insn::IInc(slot, _) => {
                if s.local(*slot, pc)? != Some(Ty::Int) {
                    return Err(LiftError::at(pc, format!("iinc of local {slot}, which holds no int")));
                }
            }
            Insn::ArrayLoad(kind) => {
                s.pop(Ty::Int, pc)?;
                s.pop(Ty::Ref, pc)?;
                s.stack.push(super::array_elem(*kind).value_ty());
            }
            Insn::ArrayStore(kind) => {
                s.pop(super::array_elem(*kind).value_ty(), pc)?;
                s.pop(Ty::Int, pc)?;
                s.pop(Ty::Ref, pc)?;
            }
            Insn::Arith(kind, op) => {
                let ty = ty_of_kind(*kind);
                let shift = matches!(op, ArithOp::Shl | ArithOp::Shr | ArithOp::Ushr);
                s.pop(if shift { Ty::Int } else { ty }, pc)?;
                s.pop(ty, pc)?;
                s.stack.push(ty);
            }
            Insn::Neg(kind) => {
                let ty = ty_of_kind(*kind);
                s.pop(ty, pc)?;
                s.stack.push(ty);
            }
            Insn::Convert(from, to) => {
                s.pop(ty_of_kind(*from), pc)?;
                s.stack.push(ty_of_kind(*to));
            }
            Insn::IntToByte | Insn::IntToChar | Insn::IntToShort => {
                s.pop(Ty::Int, pc)?;
                s.stack.push(Ty::Int);
            }
            Insn::LCmp | Insn::FCmp { .. } | Insn::DCmp { .. } => {
                let ty = match insn {
                    Insn::LCmp => Ty::Long,
                    Insn::FCmp { .. } => Ty::Float,
                    _ => Ty::Double,
                };
                s.pop(ty, pc)?;
                s.pop(ty, pc)?;
                s.stack.push(Ty::Int);
            }
            Insn::IfZero(..) | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => s.pop(Ty::Int, pc)?,
            Insn::IfICmp(..) => {
                s.pop(Ty::Int, pc)?;
                s.pop(Ty::Int, pc)?;
            }
            Insn::IfACmp(..) => {
                s.pop(Ty::Ref, pc)?;
                s.pop(Ty::Ref, pc)?;
            }
            Insn::IfNull(_) | Insn::IfNonNull(_) | Insn::AThrow | Insn::MonitorEnter | Insn::MonitorExit => {
                s.pop(Ty::Ref, pc)?
            }
            Insn::Return(Some(kind)) => s.pop(ty_of_kind(*kind), pc)?,
            Insn::GetStatic(_)
            | Insn::PutStatic(_)
            | Insn::GetField(_)
            | Insn::PutField(_)
            | Insn::Invoke(..)
            | Insn::InvokeDynamic { .. }
            | Insn::New(_)
            | Insn::NewArray(_)
            | Insn::ANewArray(_)
            | Insn::MultiANewArray(..)
            | Insn::ArrayLength
            | Insn::CheckCast(_)
            | Insn::InstanceOf(_) => s.step_object(insn, pc)?,
            Insn::Pop
            | Insn::Pop2
            | Insn::Dup
            | Insn::DupX1
            | Insn::DupX2
            | Insn::Dup2
            | Insn::Dup2X1
            | Insn::Dup2X2
            | Insn::Swap => return Err(LiftError::at(pc, "internal error: a stack shuffle was not simulated")),
        }
        Ok(())
    }

    /// The effect on types of field accesses, invocations, allocations, `arraylength`, casts and
    /// `instanceof` (part of `step`).
    fn step_object(&mut self, insn: &Insn, pc: u32) -> Result<(), LiftError> {
        let s = self;
        match insn {
            Insn::GetStatic(field) => s.stack.push(field_ty(&field.descriptor, pc)?),
            Insn::PutStatic(field) => s.pop(field_ty(&field.descriptor, pc)?, pc)?,
            Insn::GetField(field) => {
                s.pop(Ty::Ref, pc)?;
                s.stack.push(field_ty(&field.descriptor, pc)?);
            }
            Insn::PutField(field) => {
                s.pop(field_ty(&field.descriptor, pc)?, pc)?;
                s.pop(Ty::Ref, pc)?;
            }
            Insn::Invoke(kind, method) => {
                let has_receiver = *kind != crate::classfile::InvokeKind::Static;
                let (params, ret) = call_signature(&method.descriptor, has_receiver, pc)?;
                for ty in params.iter().rev() {
                    s.pop(*ty, pc)?;
                }
                s.stack.extend(ret);
            }
            Insn::InvokeDynamic { descriptor, .. } => {
                let (params, ret) = call_signature(descriptor, false, pc)?;
                for ty in params.iter().rev() {
                    s.pop(*ty, pc)?;
                }
                s.stack.extend(ret);
            }
            Insn::New(_) => s.stack.push(Ty::Ref),
            Insn::NewArray(_) | Insn::ANewArray(_) => {
                s.pop(Ty::Int, pc)?;
                s.stack.push(Ty::Ref);
            }
            Insn::ArrayLength => {
                s.pop(Ty::Ref, pc)?;
                s.stack.push(Ty::Int);
            }
            Insn::CheckCast(_) => {
                s.pop(Ty::Ref, pc)?;
                s.stack.push(Ty::Ref);
            }
            Insn::InstanceOf(_) => {
                s.pop(Ty::Ref, pc)?;
                s.stack.push(Ty::Int);
            }
            Insn::MultiANewArray(_, dims) => {
                if *dims == 0 {
                    return Err(LiftError::at(pc, "multianewarray with zero dimensions"));
                }
                for _ in 0..*dims {
                    s.pop(Ty::Int, pc)?;
                }
                s.stack.push(Ty::Ref);
            }
            _ => {
                return Err(LiftError::at(
                    pc,
                    format!("internal error: {insn:?} is no object instruction"),
                ))
            }
        }
        Ok(())
    }

    /// Merges `other` into `self`; returns whether `self` changed.
    fn merge(&mut self, other: &Frame, pc: u32) -> Result<bool, LiftError> {
        if self.stack != other.stack {
            return Err(LiftError::at(pc, "operand stacks of different shapes meet here"));
        }
        let mut changed = false;
        for (mine, theirs) in self.locals.iter_mut().zip(&other.locals) {
            if mine.is_some() && *mine != *theirs {
                *mine = None;
                changed = true;
            }
        }
        Ok(changed)
    }
}

/// The initial frame of a method: parameters in their slots, an empty stack.
pub fn entry_frame(descriptor: &str, is_static: bool, max_locals: u16) -> Result<Frame, LiftError> {
    let (params, _) = call_signature(descriptor, !is_static, 0)?;
    let mut frame = Frame {
        locals: vec![None; usize::from(max_locals)],
        stack: Vec::new(),
    };
    let mut slot: u16 = 0;
    for ty in params {
        frame
            .set_local(slot, ty, 0)
            .map_err(|_| LiftError::at(0, "parameters do not fit in max_locals"))?;
        slot += if is_wide(ty) { 2 } else { 1 };
    }
    Ok(frame)
}

/// Infers the entry frame of every reachable block (`None` for unreachable ones).
pub fn infer_frames(code: &Code, cfg: &Cfg, entry: Frame) -> Result<Vec<Option<Frame>>, LiftError> {
    let mut frames: Vec<Option<Frame>> = vec![None; cfg.blocks.len()];
    frames[0] = Some(entry);
    let mut pending = vec![0usize];
    let mut queued = vec![false; cfg.blocks.len()];
    queued[0] = true;
    while let Some(b) = pending.pop() {
        queued[b] = false;
        let block = &cfg.blocks[b];
        let Some(mut frame) = frames[b].clone() else {
            continue;
        };
        let mut flows: Vec<(usize, Frame)> = Vec::new();
        for k in block.insns.clone() {
            let instruction = &code.instructions[k];
            if insn_can_throw(&instruction.insn) {
                for handler in &code.exception_table {
                    if handler.start <= instruction.pc && instruction.pc < handler.end {
                        let target = cfg.block_of_insn[code.instructions.partition_point(|i| i.pc < handler.handler)];
                        flows.push((
                            target,
                            Frame {
                                locals: frame.locals.clone(),
                                stack: vec![Ty::Ref],
                            },
                        ));
                    }
                }
            }
            frame.step(&instruction.insn, instruction.pc)?;
        }
        for &s in &block.succs {
            flows.push((s, frame.clone()));
        }
        for (target, incoming) in flows {
            let pc = cfg.blocks[target].start_pc;
            let changed = match &mut frames[target] {
                Some(existing) => existing.merge(&incoming, pc)?,
                slot @ None => {
                    *slot = Some(incoming);
                    true
                }
            };
            if changed && !queued[target] {
                queued[target] = true;
                pending.push(target);
            }
        }
    }
    Ok(frames)
}

/// Local slots live at each block's entry (read on some path before being written).
pub fn live_in(code: &Code, cfg: &Cfg) -> Vec<FixedBitSet> {
    let slots = usize::from(code.max_locals);
    let n = cfg.blocks.len();
    let mut live: Vec<FixedBitSet> = vec![FixedBitSet::with_capacity(slots); n];
    let table: Vec<(u32, u32, usize)> = code
        .exception_table
        .iter()
        .map(|h| {
            (
                h.start,
                h.end,
                cfg.block_of_insn[code.instructions.partition_point(|i| i.pc < h.handler)],
            )
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let block = &cfg.blocks[b];
            if !block.reachable {
                continue;
            }
            let mut current = FixedBitSet::with_capacity(slots);
            for &s in &block.succs {
                current.union_with(&live[s]);
            }
            for k in block.insns.clone().rev() {
                let instruction = &code.instructions[k];
                match &instruction.insn {
                    Insn::Store(_, slot) if usize::from(*slot) < slots => {
                        current.set(usize::from(*slot), false);
                    }
                    Insn::Load(_, slot) | Insn::IInc(slot, _) | Insn::Ret(slot) if usize::from(*slot) < slots => {
                        current.insert(usize::from(*slot));
                    }
                    _ => {}
                }
                if insn_can_throw(&instruction.insn) {
                    for &(start, end, handler) in &table {
                        if start <= instruction.pc && instruction.pc < end {
                            current.union_with(&live[handler]);
                        }
                    }
                }
            }
            if current != live[b] {
                live[b] = current;
                changed = true;
            }
        }
    }
    live
}
