//! Encoding: every scheduled rule's `StackInsn` code becomes words of `crate::isa`, with the operand
//! stack simulated by type so that entry counts (`DUP k`, `FETCH k`, `POP k`, argument counts) become
//! word counts, fields become offsets, classes, methods and procedures become handles, and handler
//! edges become entries of the handler table.
//!
//! **A rule that cannot be encoded (or was not scheduled) becomes a `REFUSE` at its start; an
//! instruction whose class, field or method cannot be resolved becomes a `REFUSE` in its place. A
//! refusal only happens when the instance reaches it.** A tail call whose statement has a handler,
//! or whose exceptional cost differs from the rule's, is encoded as `CALL` then `RETURN`, so that the
//! handler stays in force while the callee runs.

use super::closure::{
    array_of, class_of_descriptor, prim_descriptor, split_descriptor, Body, ClassKind, Closure, MethodKey,
};
use super::layout::{descriptor_kind, descriptor_words, Layout};
use super::{ConcatRecipe, Package, PackageError};
use crate::isa::{self, op, NONE};
use jresa_analyses::ir::{
    BinOp, CallKind, CmpOp, Cond, ElemTy, FieldRef, MethodIr, MethodRef, Operand, ProcId, Procedure, Rule, RuleId,
    Stmt, Ty, UnOp,
};
use jresa_analyses::treegraph::{HandlerArg, MethodSchedule, ScheduledRule, StackHandler, StackInsn, StackOp};
use std::collections::HashMap;

fn words_of(ty: Ty) -> u32 {
    match ty {
        Ty::Long | Ty::Double => 2,
        _ => 1,
    }
}

fn cmp_code(op: CmpOp) -> u32 {
    match op {
        CmpOp::Eq => isa::CMP_EQ,
        CmpOp::Ne => isa::CMP_NE,
        CmpOp::Lt => isa::CMP_LT,
        CmpOp::Le => isa::CMP_LE,
        CmpOp::Gt => isa::CMP_GT,
        CmpOp::Ge => isa::CMP_GE,
    }
}

fn elem_kind(elem: ElemTy) -> u32 {
    match elem {
        ElemTy::Int => isa::ELEM_INT,
        ElemTy::Long => isa::ELEM_LONG,
        ElemTy::Float => isa::ELEM_FLOAT,
        ElemTy::Double => isa::ELEM_DOUBLE,
        ElemTy::Ref => isa::ELEM_REF,
        ElemTy::Byte => isa::ELEM_BYTE,
        ElemTy::Char => isa::ELEM_CHAR,
        ElemTy::Short => isa::ELEM_SHORT,
    }
}

/// The narrowing a field store of this descriptor needs.
fn narrow_kind(descriptor: &str) -> u32 {
    match descriptor_kind(descriptor) {
        kind @ (isa::ELEM_BOOLEAN | isa::ELEM_BYTE | isa::ELEM_CHAR | isa::ELEM_SHORT) => kind,
        _ => isa::ELEM_NONE,
    }
}

pub fn encode(
    closure: &Closure,
    layout: &Layout,
    package: &mut Package,
    entries: &[MethodKey],
) -> Result<(), PackageError> {
    let mut encoder = Encoder {
        closure,
        layout,
        package,
        proc_base: vec![NONE; closure.methods.len()],
    };
    let mut total = 0u32;
    for (id, entry) in closure.methods.iter().enumerate() {
        if let Body::Code { ir, .. } = &entry.body {
            encoder.proc_base[id] = total;
            total += ir.procs.len() as u32;
        }
    }
    encoder.package.procs = vec![0; total as usize * isa::PROC_WORDS];
    for (id, entry) in closure.methods.iter().enumerate() {
        if let Body::Code { ir, schedule } = &entry.body {
            let base = encoder.proc_base[id];
            encoder.package.methods[id * isa::METHOD_WORDS + isa::method::TARGET] = base + ir.entry.0;
            encoder.method(id as u32, ir, schedule);
        }
    }
    encoder.dispatch();
    for key in entries {
        encoder.launcher(key)?;
    }
    // One initialiser procedure per library class that packaged code may initialise.
    let mut initialized: Vec<u32> = closure.initialized.iter().copied().collect();
    initialized.sort_unstable();
    for class in initialized {
        if encoder.package.class_library[class as usize] {
            let code_start = encoder.package.code.len() as u32;
            encoder.emit(&[op::INIT_CLASS, class, 0, NONE, op::RETURN, 0, 0]);
            let proc = (encoder.package.procs.len() / isa::PROC_WORDS) as u32;
            encoder.package.procs.extend([NONE, code_start, 0, 0, 0, 0]);
            encoder.package.library_initializers.push(proc);
        }
    }
    let stats = &mut encoder.package.stats;
    stats.classes = closure.classes.len();
    stats.methods = closure.methods.len();
    stats.methods_with_code = closure
        .methods
        .iter()
        .filter(|m| matches!(m.body, Body::Code { .. }))
        .count();
    stats.natives = closure
        .methods
        .iter()
        .filter(|m| matches!(m.body, Body::Native(_)))
        .count();
    stats.refused = closure
        .methods
        .iter()
        .filter(|m| matches!(m.body, Body::Refused(_)))
        .count();
    stats.procedures = encoder.package.procs.len() / isa::PROC_WORDS;
    stats.code_words = encoder.package.code.len();
    stats.literals = encoder.package.literals.len();
    Ok(())
}

/// The typed operand stack of one rule while it is encoded.
#[derive(Default)]
struct Sim {
    stack: Vec<Ty>,
    words: u32,
    max: u32,
    locals: HashMap<u32, Ty>,
}

impl Sim {
    fn push(&mut self, ty: Ty) {
        self.stack.push(ty);
        self.words += words_of(ty);
        self.max = self.max.max(self.words);
    }

    fn pop(&mut self) -> Result<Ty, String> {
        let ty = self.stack.pop().ok_or("operand stack underflow")?;
        self.words -= words_of(ty);
        Ok(ty)
    }

    /// Words of the top `count` entries.
    fn top_words(&self, count: u32) -> Result<u32, String> {
        let count = count as usize;
        if count > self.stack.len() {
            return Err("operand stack underflow".into());
        }
        Ok(self.stack[self.stack.len() - count..]
            .iter()
            .map(|&t| words_of(t))
            .sum())
    }

    fn pop_n(&mut self, count: u32) -> Result<(), String> {
        for _ in 0..count {
            self.pop()?;
        }
        Ok(())
    }
}

/// What the encoder knows about the procedure it is in.
struct ProcContext<'a> {
    ir: &'a MethodIr,
    proc: &'a Procedure,
    base: u32,
    input_tys: Vec<Ty>,
    input_offsets: Vec<u32>,
    input_words: u32,
}

struct Encoder<'a> {
    closure: &'a Closure,
    layout: &'a Layout,
    package: &'a mut Package,
    proc_base: Vec<u32>,
}

impl Encoder<'_> {
    fn emit(&mut self, words: &[u32]) {
        self.package.code.extend_from_slice(words);
    }

    fn reason(&mut self, reason: String) -> u32 {
        self.package.reasons.push(reason);
        (self.package.reasons.len() - 1) as u32
    }

    fn refuse(&mut self, reason: String) {
        let index = self.reason(reason);
        self.emit(&[op::REFUSE, index]);
    }

    fn class(&self, name: &str) -> u32 {
        self.closure.class_index.get(name).copied().unwrap_or(NONE)
    }

    /// The handle of a class an instruction needs, or `None` when it is missing.
    fn usable_class(&self, name: &str) -> Option<u32> {
        let handle = self.class(name);
        (handle != NONE && !self.package.is_missing(handle)).then_some(handle)
    }

    fn method(&mut self, id: u32, ir: &MethodIr, schedule: &MethodSchedule) {
        let base = self.proc_base[id as usize];
        let scheduled: HashMap<(ProcId, RuleId), &ScheduledRule> =
            schedule.rules.iter().map(|r| ((r.proc, r.rule), r)).collect();
        let failures: HashMap<(ProcId, RuleId), String> = schedule
            .failures
            .iter()
            .map(|f| ((f.proc, f.rule), f.error.message.clone()))
            .collect();
        for (p, proc) in ir.procs.iter().enumerate() {
            let input_tys: Vec<Ty> = proc.inputs.iter().map(|&v| ir.var(v).ty).collect();
            let mut input_offsets = Vec::with_capacity(input_tys.len());
            let mut input_words = 0;
            for &ty in &input_tys {
                input_offsets.push(input_words);
                input_words += words_of(ty);
            }
            let output_words: u32 = proc.outputs.iter().map(|&v| words_of(ir.var(v).ty)).sum();
            let context = ProcContext {
                ir,
                proc,
                base,
                input_tys,
                input_offsets,
                input_words,
            };
            let code_start = self.package.code.len() as u32;
            let mut max_stack = 0;
            let mut max_locals = 0;
            for (r, rule) in proc.rules.iter().enumerate() {
                let key = (ProcId::from_index(p), RuleId::from_index(r));
                let mut patches = Vec::new();
                let mut sim = Sim::default();
                let guard_start = self.package.code.len();
                if let Err(message) = self.guard(&context, rule, &mut sim, &mut patches) {
                    self.package.code.truncate(guard_start);
                    patches.clear();
                    self.refuse(format!(
                        "{}: the guard of a rule of {} cannot be encoded: {message}",
                        ir.display_name(),
                        proc.name
                    ));
                }
                max_stack = max_stack.max(sim.max);
                let body_start = self.package.code.len();
                match scheduled.get(&key) {
                    Some(scheduled) => {
                        max_locals = max_locals.max(scheduled.locals);
                        let mut sim = Sim::default();
                        match self.rule(&context, rule, scheduled, &mut sim) {
                            Ok(()) => max_stack = max_stack.max(sim.max),
                            Err(message) => {
                                self.package.code.truncate(body_start);
                                self.package.stats.rules_refused += 1;
                                self.refuse(format!(
                                    "{}: a rule of {} cannot be encoded: {message}",
                                    ir.display_name(),
                                    proc.name
                                ));
                            }
                        }
                    }
                    None => {
                        self.package.stats.rules_refused += 1;
                        let why = failures.get(&key).cloned().unwrap_or_else(|| "not scheduled".into());
                        self.refuse(format!(
                            "{}: a rule of {} was not scheduled: {why}",
                            ir.display_name(),
                            proc.name
                        ));
                    }
                }
                let next = self.package.code.len() as u32;
                for patch in patches {
                    self.package.code[patch] = next;
                }
            }
            self.emit(&[op::NO_RULE, base + p as u32]);
            let record = [
                id,
                code_start,
                context.input_words,
                context.input_words + 2 * max_locals,
                output_words,
                max_stack,
            ];
            let at = (base as usize + p) * isa::PROC_WORDS;
            self.package.procs[at..at + isa::PROC_WORDS].copy_from_slice(&record);
        }
    }

    /// Pushes a constant operand.
    fn constant(&mut self, operand: &Operand, sim: &mut Sim) -> Result<(), String> {
        match operand {
            Operand::Int(v) => {
                self.emit(&[op::PUSH, *v as u32]);
                sim.push(Ty::Int);
            }
            Operand::Float(bits) => {
                self.emit(&[op::PUSH, *bits]);
                sim.push(Ty::Float);
            }
            Operand::Long(v) => {
                self.emit(&[op::PUSH2, *v as u32, (*v >> 32) as u32]);
                sim.push(Ty::Long);
            }
            Operand::Double(bits) => {
                self.emit(&[op::PUSH2, *bits as u32, (*bits >> 32) as u32]);
                sim.push(Ty::Double);
            }
            Operand::Null => {
                self.emit(&[op::PUSH, 0]);
                sim.push(Ty::Ref);
            }
            Operand::Str(text) => {
                let units: Vec<u16> = text.encode_utf16().collect();
                match self.package.literals.get(&units).copied().filter(|&r| r != 0) {
                    Some(reference) => self.emit(&[op::PUSH, reference]),
                    None => self.refuse("string literals need java.lang.String on the class path".into()),
                }
                sim.push(Ty::Ref);
            }
            Operand::Class(name) => {
                match self.usable_class(name) {
                    Some(handle) => self.emit(&[op::LDC_CLASS, handle]),
                    None => self.refuse(format!("class {} is not on the class path", name.replace('/', "."))),
                }
                sim.push(Ty::Ref);
            }
            Operand::Var(v) => return Err(format!("{v} is not a constant")),
        }
        Ok(())
    }

    /// Pushes a guard operand (an input or a constant).
    fn guard_operand(&mut self, context: &ProcContext, operand: &Operand, sim: &mut Sim) -> Result<Ty, String> {
        match operand {
            Operand::Var(v) => {
                let index = context
                    .proc
                    .inputs
                    .iter()
                    .position(|i| i == v)
                    .ok_or_else(|| format!("the guard reads {v}, which is not an input"))?;
                let ty = context.input_tys[index];
                let opcode = if words_of(ty) == 2 { op::LOAD2 } else { op::LOAD };
                self.emit(&[opcode, context.input_offsets[index]]);
                sim.push(ty);
                Ok(ty)
            }
            constant => {
                self.constant(constant, sim)?;
                Ok(*sim.stack.last().ok_or("empty stack")?)
            }
        }
    }

    fn guard(
        &mut self,
        context: &ProcContext,
        rule: &Rule,
        sim: &mut Sim,
        patches: &mut Vec<usize>,
    ) -> Result<(), String> {
        for cond in &rule.guard {
            match cond {
                Cond::Cmp { op: cmp, lhs, rhs } => {
                    let ty = self.guard_operand(context, lhs, sim)?;
                    self.guard_operand(context, rhs, sim)?;
                    sim.pop_n(2)?;
                    let opcode = match ty {
                        Ty::Int => op::G_ICMP,
                        Ty::Long => op::G_LCMP,
                        Ty::Ref => op::G_ACMP,
                        Ty::Float | Ty::Double => return Err("a guard compares floating-point values".into()),
                    };
                    self.emit(&[opcode, cmp_code(*cmp), 0]);
                    patches.push(self.package.code.len() - 1);
                }
                Cond::InstanceOf { value, class, negated } => {
                    self.guard_operand(context, value, sim)?;
                    sim.pop()?;
                    match self.usable_class(class) {
                        Some(handle) => {
                            self.emit(&[op::G_INSTANCEOF, handle, u32::from(*negated), 0]);
                            patches.push(self.package.code.len() - 1);
                        }
                        None => self.refuse(format!("class {} is not on the class path", class.replace('/', "."))),
                    }
                }
            }
        }
        Ok(())
    }

    /// A handler table entry for a handler edge, in the frame layout of the current procedure.
    fn handler(&mut self, context: &ProcContext, handler: &Option<StackHandler>, sim: &Sim) -> Result<u32, String> {
        let Some(handler) = handler else {
            return Ok(NONE);
        };
        let mut entry = vec![context.base + handler.proc.0, handler.args.len() as u32];
        for arg in &handler.args {
            match arg {
                HandlerArg::Input(index) => {
                    let index = *index as usize;
                    let ty = *context.input_tys.get(index).ok_or("handler argument: no such input")?;
                    let kind = if words_of(ty) == 2 {
                        isa::HARG_FRAME2
                    } else {
                        isa::HARG_FRAME1
                    };
                    entry.extend([kind, context.input_offsets[index], 0]);
                }
                HandlerArg::Local(slot) => {
                    let ty = *sim
                        .locals
                        .get(slot)
                        .ok_or("handler argument: a local read before it is stored")?;
                    let kind = if words_of(ty) == 2 {
                        isa::HARG_FRAME2
                    } else {
                        isa::HARG_FRAME1
                    };
                    entry.extend([kind, context.input_words + 2 * slot, 0]);
                }
                HandlerArg::Const(constant) => match constant {
                    Operand::Int(v) => entry.extend([isa::HARG_CONST1, *v as u32, 0]),
                    Operand::Float(bits) => entry.extend([isa::HARG_CONST1, *bits, 0]),
                    Operand::Null => entry.extend([isa::HARG_CONST1, 0, 0]),
                    Operand::Long(v) => entry.extend([isa::HARG_CONST2, *v as u32, (*v >> 32) as u32]),
                    Operand::Double(bits) => entry.extend([isa::HARG_CONST2, *bits as u32, (*bits >> 32) as u32]),
                    Operand::Str(text) => {
                        let units: Vec<u16> = text.encode_utf16().collect();
                        let reference = self
                            .package
                            .literals
                            .get(&units)
                            .copied()
                            .ok_or("handler argument: an unknown literal")?;
                        entry.extend([isa::HARG_CONST1, reference, 0]);
                    }
                    Operand::Class(name) => {
                        let handle = self.usable_class(name).ok_or("handler argument: a missing class")?;
                        entry.extend([isa::HARG_CLASS, handle, 0]);
                    }
                    Operand::Var(_) => return Err("handler argument: a variable as a constant".into()),
                },
            }
        }
        let index = self.package.handlers.len() as u32;
        self.package.handlers.extend(entry);
        Ok(index)
    }

    fn rule(
        &mut self,
        context: &ProcContext,
        rule: &Rule,
        scheduled: &ScheduledRule,
        sim: &mut Sim,
    ) -> Result<(), String> {
        let stmt_at = |index: u32| -> Result<&Stmt, String> {
            rule.body
                .get(index as usize)
                .ok_or_else(|| format!("no statement {index}"))
        };
        for insn in &scheduled.code {
            match insn {
                StackInsn::Push { value } => self.constant(value, sim)?,
                StackInsn::LoadInput { index } => {
                    let index = *index as usize;
                    let ty = *context.input_tys.get(index).ok_or("no such input")?;
                    let opcode = if words_of(ty) == 2 { op::LOAD2 } else { op::LOAD };
                    self.emit(&[opcode, context.input_offsets[index]]);
                    sim.push(ty);
                }
                StackInsn::Load { slot } => {
                    let ty = *sim.locals.get(slot).ok_or("a local is loaded before it is stored")?;
                    let opcode = if words_of(ty) == 2 { op::LOAD2 } else { op::LOAD };
                    self.emit(&[opcode, context.input_words + 2 * slot]);
                    sim.push(ty);
                }
                StackInsn::Store { slot } => {
                    let ty = sim.pop()?;
                    sim.locals.insert(*slot, ty);
                    let opcode = if words_of(ty) == 2 { op::STORE2 } else { op::STORE };
                    self.emit(&[opcode, context.input_words + 2 * slot]);
                }
                StackInsn::Dup { count } => {
                    let ty = *sim.stack.last().ok_or("DUP on an empty stack")?;
                    let opcode = if words_of(ty) == 2 { op::DUP2 } else { op::DUP };
                    self.emit(&[opcode, *count]);
                    for _ in 0..*count {
                        sim.push(ty);
                    }
                }
                StackInsn::Fetch { depth } => {
                    let depth_words = sim.top_words(*depth)?;
                    let ty = sim.stack[sim.stack.len() - *depth as usize];
                    let opcode = if words_of(ty) == 2 { op::FETCH2 } else { op::FETCH };
                    self.emit(&[opcode, depth_words]);
                    sim.push(ty);
                }
                StackInsn::Pop { count } => {
                    let words = sim.top_words(*count)?;
                    sim.pop_n(*count)?;
                    self.emit(&[op::POP, words]);
                }
                StackInsn::Op {
                    op: stack_op,
                    stmt,
                    handler,
                } => {
                    let statement = stmt_at(*stmt)?;
                    let handler = self.handler(context, handler, sim)?;
                    self.operation(context, stack_op, statement, handler, sim)?;
                }
                StackInsn::Return { values } => {
                    let words = sim.top_words(*values)?;
                    sim.pop_n(*values)?;
                    self.emit(&[op::RETURN, words, rule.bytecodes]);
                }
                StackInsn::TailCall {
                    proc,
                    args,
                    stmt,
                    handler,
                } => {
                    let statement = stmt_at(*stmt)?;
                    let words = sim.top_words(*args)?;
                    let handler_index = self.handler(context, handler, sim)?;
                    sim.pop_n(*args)?;
                    let callee = context.base + proc.0;
                    if handler.is_some() || statement.bytecodes != rule.bytecodes {
                        let outputs: u32 = context
                            .proc
                            .outputs
                            .iter()
                            .map(|&v| words_of(context.ir.var(v).ty))
                            .sum();
                        self.emit(&[op::CALL, callee, words, statement.bytecodes, handler_index]);
                        self.emit(&[op::RETURN, outputs, rule.bytecodes]);
                        sim.max = sim.max.max(sim.words + outputs);
                    } else {
                        self.emit(&[op::TAILCALL, callee, words, rule.bytecodes]);
                    }
                }
                StackInsn::Throw { stmt, handler } => {
                    let statement = stmt_at(*stmt)?;
                    let handler = self.handler(context, handler, sim)?;
                    sim.pop()?;
                    self.emit(&[op::THROW, statement.bytecodes, handler]);
                }
            }
        }
        Ok(())
    }

    /// Encodes one operation: pops its operands and pushes its results in `sim`.
    fn operation(
        &mut self,
        context: &ProcContext,
        stack_op: &StackOp,
        stmt: &Stmt,
        handler: u32,
        sim: &mut Sim,
    ) -> Result<(), String> {
        let bc = stmt.bytecodes;
        let arity = stack_op.arity();
        let arg_words = sim.top_words(arity)?;
        sim.pop_n(arity)?;
        for def in stmt.kind.defs() {
            sim.push(context.ir.var(def).ty);
        }
        match stack_op {
            StackOp::Binary { op: binary, ty } => {
                let opcode = binary_opcode(*binary, *ty).ok_or_else(|| format!("no {binary:?} on {ty:?}"))?;
                if matches!(opcode, op::IDIV | op::IREM | op::LDIV | op::LREM) {
                    self.emit(&[opcode, bc, handler]);
                } else {
                    self.emit(&[opcode]);
                }
            }
            StackOp::Unary { op: unary, from, to } => {
                let opcode =
                    unary_opcode(*unary, *from, *to).ok_or_else(|| format!("no {unary:?} from {from:?} to {to:?}"))?;
                self.emit(&[opcode]);
            }
            StackOp::GetField { field } => self.instance_field(field, false, bc, handler),
            StackOp::PutField { field } => self.instance_field(field, true, bc, handler),
            StackOp::GetStatic { field } => self.static_field(field, false, bc, handler),
            StackOp::PutStatic { field } => self.static_field(field, true, bc, handler),
            StackOp::ArrayLoad { elem } => self.emit(&[op::ALOAD, elem_kind(*elem), bc, handler]),
            StackOp::ArrayStore { elem } => self.emit(&[op::ASTORE, elem_kind(*elem), bc, handler]),
            StackOp::ArrayLength => self.emit(&[op::ARRAYLENGTH, bc, handler]),
            StackOp::New { class } => self.new_object(class, bc, handler),
            StackOp::NewArray { elem } => {
                let descriptor = format!("[{}", prim_descriptor(elem.keyword()));
                match self.usable_class(&descriptor) {
                    Some(handle) => self.emit(&[op::NEWARRAY, handle, bc, handler]),
                    None => self.refuse(format!("array type {descriptor} was not packaged")),
                }
            }
            StackOp::NewRefArray { class } => {
                let descriptor = array_of(class);
                match self.array_class(&descriptor) {
                    Some(handle) => self.emit(&[op::NEWARRAY, handle, bc, handler]),
                    None => self.refuse(format!("class {} is not on the class path", class.replace('/', "."))),
                }
            }
            StackOp::NewMultiArray { descriptor, dimensions } => match self.array_class(descriptor) {
                Some(handle) => self.emit(&[op::MULTIANEWARRAY, handle, *dimensions, bc, handler]),
                None => self.refuse(format!("array type {descriptor} cannot be packaged")),
            },
            StackOp::Invoke { kind, method, .. } => self.invoke(*kind, method, stmt.pc, arg_words, bc, handler),
            StackOp::InvokeDynamic { name, .. } => self.refuse(format!(
                "{}: invokedynamic `{name}` is not supported",
                context.ir.display_name()
            )),
            StackOp::Concat { recipe, descriptor, .. } => match ConcatRecipe::new(recipe, descriptor) {
                Ok(recipe) => {
                    let index = self.package.concats.len() as u32;
                    self.package.concats.push(recipe);
                    self.emit(&[op::CONCAT, index]);
                }
                Err(reason) => self.refuse(format!("{}: {reason}", context.ir.display_name())),
            },
            StackOp::Call { proc, .. } => self.emit(&[op::CALL, context.base + proc.0, arg_words, bc, handler]),
            StackOp::CheckCast { class } => match self.type_class(class) {
                Some(handle) => self.emit(&[op::CHECKCAST, handle, bc, handler]),
                None => self.refuse(format!("class {} is not on the class path", class.replace('/', "."))),
            },
            StackOp::InstanceOf { class } => match self.type_class(class) {
                Some(handle) => self.emit(&[op::INSTANCEOF, handle]),
                None => self.refuse(format!("class {} is not on the class path", class.replace('/', "."))),
            },
            StackOp::MonitorEnter | StackOp::MonitorExit => self.emit(&[op::MONITOR, bc, handler]),
            StackOp::LoadConst { .. } => self.refuse(format!(
                "{}: loads a method handle, method type or dynamic constant",
                context.ir.display_name()
            )),
        }
        Ok(())
    }

    /// A `GETFIELD`/`PUTFIELD` (by words and narrowing), or a refusal when the field is not found.
    fn instance_field(&mut self, field: &FieldRef, store: bool, bc: u32, handler: u32) {
        let offset = self
            .closure
            .resolve_field(&field.class, &field.name, &field.descriptor)
            .and_then(|declaring| self.package.instance_fields.get(&declaring))
            .and_then(|fields| fields.get(&(field.name.clone(), field.descriptor.clone())))
            .copied();
        let Some(offset) = offset else {
            self.refuse(format!("no field {}.{}", field.class.replace('/', "."), field.name));
            return;
        };
        let two = descriptor_words(&field.descriptor) == 2;
        match (store, two) {
            (false, false) => self.emit(&[op::GETFIELD, offset, bc, handler]),
            (false, true) => self.emit(&[op::GETFIELD2, offset, bc, handler]),
            (true, false) => self.emit(&[op::PUTFIELD, offset, narrow_kind(&field.descriptor), bc, handler]),
            (true, true) => self.emit(&[op::PUTFIELD2, offset, bc, handler]),
        }
    }

    /// A `GETSTATIC`/`PUTSTATIC` of the declaring class (by words and narrowing), or a refusal when
    /// the field is not found.
    fn static_field(&mut self, field: &FieldRef, store: bool, bc: u32, handler: u32) {
        let resolved = self
            .closure
            .resolve_field(&field.class, &field.name, &field.descriptor)
            .and_then(|declaring| {
                let key = (declaring.clone(), field.name.clone(), field.descriptor.clone());
                Some((self.class(&declaring), *self.layout.static_fields.get(&key)?))
            });
        let Some((class, offset)) = resolved else {
            self.refuse(format!(
                "no static field {}.{}",
                field.class.replace('/', "."),
                field.name
            ));
            return;
        };
        let two = descriptor_words(&field.descriptor) == 2;
        match (store, two) {
            (false, false) => self.emit(&[op::GETSTATIC, class, offset, bc, handler]),
            (false, true) => self.emit(&[op::GETSTATIC2, class, offset, bc, handler]),
            (true, false) => self.emit(&[
                op::PUTSTATIC,
                class,
                offset,
                narrow_kind(&field.descriptor),
                bc,
                handler,
            ]),
            (true, true) => self.emit(&[op::PUTSTATIC2, class, offset, bc, handler]),
        }
    }

    /// A `NEW` of a concrete class, or a refusal for an abstract class, an interface or a class
    /// that is not on the class path.
    fn new_object(&mut self, class: &str, bc: u32, handler: u32) {
        match self.usable_class(class) {
            Some(handle)
                if self.package.class_word(handle, isa::class::FLAGS) & (isa::FLAG_ABSTRACT | isa::FLAG_INTERFACE)
                    == 0 =>
            {
                self.emit(&[op::NEW, handle, bc, handler])
            }
            Some(_) => self.refuse(format!("instantiates the abstract {}", class.replace('/', "."))),
            None => self.refuse(format!("class {} is not on the class path", class.replace('/', "."))),
        }
    }

    /// An invoke at bytecode `site`: static and special calls (and private methods) bound to their
    /// method, virtual and interface calls through their selector; a refusal when the method was
    /// not packaged.
    fn invoke(&mut self, kind: CallKind, method: &MethodRef, site: u32, arg_words: u32, bc: u32, handler: u32) {
        let Some(target) = self
            .closure
            .resolve_method(&method.class, &method.name, &method.descriptor)
        else {
            self.refuse(format!(
                "no method {}.{}{}",
                method.class.replace('/', "."),
                method.name,
                method.descriptor
            ));
            return;
        };
        let key = (target.class.clone(), target.name.clone(), target.descriptor.clone());
        let method_id = self.closure.method_index.get(&key).copied();
        match (kind, method_id) {
            (CallKind::Static, Some(id)) => self.emit(&[op::INVOKESTATIC, id, site, bc, handler]),
            (CallKind::Special, Some(id)) => self.emit(&[op::INVOKESPECIAL, id, site, bc, handler]),
            (CallKind::Virtual | CallKind::Interface, _) => {
                match self.closure.selector_index.get(&target) {
                    Some(&selector) => self.emit(&[op::INVOKEVIRTUAL, selector, arg_words, site, bc, handler]),
                    // Private methods are bound directly.
                    None => match method_id {
                        Some(id) => self.emit(&[op::INVOKESPECIAL, id, site, bc, handler]),
                        None => self.refuse(format!("{}.{} was not packaged", target.class, target.name)),
                    },
                }
            }
            (_, None) => self.refuse(format!("{}.{} was not packaged", target.class, target.name)),
        }
    }

    /// An array class whose innermost element class is not missing.
    fn array_class(&self, descriptor: &str) -> Option<u32> {
        let handle = self.usable_class(descriptor)?;
        let element = descriptor.trim_start_matches('[');
        match class_of_descriptor(element) {
            Some(class) => self.usable_class(&class).map(|_| handle),
            None => Some(handle),
        }
    }

    /// The class of a `checkcast`/`instanceof` operand (a class name or an array descriptor).
    fn type_class(&self, name: &str) -> Option<u32> {
        if name.starts_with('[') {
            self.array_class(name)
        } else {
            self.usable_class(name)
        }
    }

    /// The dispatch table: per selector, its `(class, method)` pairs sorted by class.
    fn dispatch(&mut self) {
        let count = self.closure.selectors.len();
        let mut per_selector: Vec<Vec<(u32, u32)>> = vec![Vec::new(); count];
        for (&(selector, class), &method) in &self.closure.dispatch {
            per_selector[selector as usize].push((class, method));
        }
        for pairs in per_selector {
            self.package.selectors.push(self.package.dispatch.len() as u32 / 2);
            self.package.selectors.push(pairs.len() as u32);
            for (class, method) in pairs {
                self.package.dispatch.push(class);
                self.package.dispatch.push(method);
            }
        }
    }

    /// The launcher of an entry: initialises the method's class, calls it with the frame's inputs,
    /// returns its result.
    fn launcher(&mut self, key: &MethodKey) -> Result<(), PackageError> {
        let method = *self.closure.method_index.get(key).ok_or_else(|| PackageError {
            message: format!("{}.{} was not packaged", key.0, key.1),
        })?;
        let is_static = self.closure.methods[method as usize].is_static;
        let class = self.class(&key.0);
        let (params, ret) = split_descriptor(&key.2).ok_or_else(|| PackageError {
            message: format!("malformed descriptor {}", key.2),
        })?;
        let mut widths: Vec<u32> = Vec::new();
        if !is_static {
            widths.push(1);
        }
        widths.extend(params.iter().map(|p| descriptor_words(p)));
        let input_words: u32 = widths.iter().sum();
        let result_words = descriptor_words(&ret);
        let code_start = self.package.code.len() as u32;
        if class != NONE && matches!(self.closure.classes[class as usize].kind, ClassKind::Normal(_)) {
            self.emit(&[op::INIT_CLASS, class, 0, NONE]);
        }
        let mut offset = 0;
        for width in widths {
            let opcode = if width == 2 { op::LOAD2 } else { op::LOAD };
            self.emit(&[opcode, offset]);
            offset += width;
        }
        self.emit(&[op::INVOKE_ENTRY, method, 0, NONE]);
        self.emit(&[op::RETURN, result_words, 0]);
        let proc = (self.package.procs.len() / isa::PROC_WORDS) as u32;
        self.package.procs.extend([
            method,
            code_start,
            input_words,
            input_words,
            result_words,
            input_words.max(result_words),
        ]);
        self.package.entries.insert(key.clone(), proc);
        Ok(())
    }
}

fn binary_opcode(binary: BinOp, ty: Ty) -> Option<u32> {
    use BinOp::*;
    Some(match (ty, binary) {
        (Ty::Int, Add) => op::IADD,
        (Ty::Int, Sub) => op::ISUB,
        (Ty::Int, Mul) => op::IMUL,
        (Ty::Int, Div) => op::IDIV,
        (Ty::Int, Rem) => op::IREM,
        (Ty::Int, And) => op::IAND,
        (Ty::Int, Or) => op::IOR,
        (Ty::Int, Xor) => op::IXOR,
        (Ty::Int, Shl) => op::ISHL,
        (Ty::Int, Shr) => op::ISHR,
        (Ty::Int, Ushr) => op::IUSHR,
        (Ty::Long, Add) => op::LADD,
        (Ty::Long, Sub) => op::LSUB,
        (Ty::Long, Mul) => op::LMUL,
        (Ty::Long, Div) => op::LDIV,
        (Ty::Long, Rem) => op::LREM,
        (Ty::Long, And) => op::LAND,
        (Ty::Long, Or) => op::LOR,
        (Ty::Long, Xor) => op::LXOR,
        (Ty::Long, Shl) => op::LSHL,
        (Ty::Long, Shr) => op::LSHR,
        (Ty::Long, Ushr) => op::LUSHR,
        (Ty::Long, Cmp) => op::LCMP,
        (Ty::Float, Add) => op::FADD,
        (Ty::Float, Sub) => op::FSUB,
        (Ty::Float, Mul) => op::FMUL,
        (Ty::Float, Div) => op::FDIV,
        (Ty::Float, Rem) => op::FREM,
        (Ty::Float, CmpL) => op::FCMPL,
        (Ty::Float, CmpG) => op::FCMPG,
        (Ty::Double, Add) => op::DADD,
        (Ty::Double, Sub) => op::DSUB,
        (Ty::Double, Mul) => op::DMUL,
        (Ty::Double, Div) => op::DDIV,
        (Ty::Double, Rem) => op::DREM,
        (Ty::Double, CmpL) => op::DCMPL,
        (Ty::Double, CmpG) => op::DCMPG,
        _ => return None,
    })
}

fn unary_opcode(unary: UnOp, from: Ty, to: Ty) -> Option<u32> {
    Some(match (unary, from, to) {
        (UnOp::Neg, Ty::Int, _) => op::INEG,
        (UnOp::Neg, Ty::Long, _) => op::LNEG,
        (UnOp::Neg, Ty::Float, _) => op::FNEG,
        (UnOp::Neg, Ty::Double, _) => op::DNEG,
        (UnOp::IntToByte, Ty::Int, _) => op::I2B,
        (UnOp::IntToChar, Ty::Int, _) => op::I2C,
        (UnOp::IntToShort, Ty::Int, _) => op::I2S,
        (UnOp::Convert, Ty::Int, Ty::Long) => op::I2L,
        (UnOp::Convert, Ty::Int, Ty::Float) => op::I2F,
        (UnOp::Convert, Ty::Int, Ty::Double) => op::I2D,
        (UnOp::Convert, Ty::Long, Ty::Int) => op::L2I,
        (UnOp::Convert, Ty::Long, Ty::Float) => op::L2F,
        (UnOp::Convert, Ty::Long, Ty::Double) => op::L2D,
        (UnOp::Convert, Ty::Float, Ty::Int) => op::F2I,
        (UnOp::Convert, Ty::Float, Ty::Long) => op::F2L,
        (UnOp::Convert, Ty::Float, Ty::Double) => op::F2D,
        (UnOp::Convert, Ty::Double, Ty::Int) => op::D2I,
        (UnOp::Convert, Ty::Double, Ty::Long) => op::D2L,
        (UnOp::Convert, Ty::Double, Ty::Float) => op::D2F,
        _ => return None,
    })
}
