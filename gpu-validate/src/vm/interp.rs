//! The dispatch loop: one `match` on the opcode per instruction, operands read from the code words
//! that follow it (see `crate::isa`).

use super::{Cause, Exit, Flow, Machine};
use crate::isa::{self, class, method, op, proc, NONE};

/// Java's `fcmpl`/`fcmpg` (and the double versions): -1, 0, 1, or `nan` when unordered.
fn compare<T: PartialOrd>(a: T, b: T, nan: i32) -> i32 {
    if a < b {
        -1
    } else if a > b {
        1
    } else if a == b {
        0
    } else {
        nan
    }
}

fn holds(cmp: u32, ordering: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match cmp {
        isa::CMP_EQ => ordering == Equal,
        isa::CMP_NE => ordering != Equal,
        isa::CMP_LT => ordering == Less,
        isa::CMP_LE => ordering != Greater,
        isa::CMP_GT => ordering == Greater,
        _ => ordering != Less,
    }
}

/// The value an element or field of kind `kind` holds after storing `value` (JVM narrowing).
#[inline]
fn narrow(kind: u32, value: u32) -> u32 {
    match kind {
        isa::ELEM_BOOLEAN => value & 1,
        isa::ELEM_BYTE => value as u8 as i8 as i32 as u32,
        isa::ELEM_CHAR => value & 0xFFFF,
        isa::ELEM_SHORT => value as u16 as i16 as i32 as u32,
        _ => value,
    }
}

impl Machine<'_> {
    #[inline]
    fn pop(&mut self) -> u32 {
        self.sp -= 1;
        self.stack[self.sp]
    }

    #[inline]
    fn push(&mut self, value: u32) {
        self.stack[self.sp] = value;
        self.sp += 1;
    }

    /// Runs concatenation `recipe` of the package: pops its arguments, makes the string and
    /// counts it as one invocation and one allocation.
    fn concat(&mut self, recipe: usize) -> Result<u32, Exit> {
        let pkg = self.pkg;
        let recipe = &pkg.concats[recipe];
        self.sp -= recipe.arg_words();
        let mut word = self.sp;
        let mut units: Vec<u16> = Vec::new();
        for (text, &kind) in recipe.texts.iter().zip(&recipe.args) {
            units.extend_from_slice(text);
            let value = self.stack[word];
            let shown = match kind {
                b'Z' => (if value != 0 { "true" } else { "false" }).to_owned(),
                b'C' => {
                    units.push(value as u16);
                    String::new()
                }
                b'J' => {
                    word += 1;
                    (u64::from(value) | u64::from(self.stack[word]) << 32)
                        .cast_signed()
                        .to_string()
                }
                b'L' if value == 0 => "null".to_owned(),
                b'L' => {
                    units.extend(self.string_units(value));
                    String::new()
                }
                _ => (value as i32).to_string(),
            };
            units.extend(shown.encode_utf16());
            word += 1;
        }
        units.extend_from_slice(recipe.texts.last().map_or(&[][..], Vec::as_slice));
        let string = self.new_string(&units)?;
        self.add_invocation();
        self.add_allocations(1);
        Ok(string)
    }

    #[inline]
    fn pop_long(&mut self) -> u64 {
        self.sp -= 2;
        u64::from(self.stack[self.sp]) | u64::from(self.stack[self.sp + 1]) << 32
    }

    #[inline]
    fn push_long(&mut self, value: u64) {
        self.stack[self.sp] = value as u32;
        self.stack[self.sp + 1] = (value >> 32) as u32;
        self.sp += 2;
    }

    #[inline]
    fn pop_f32(&mut self) -> f32 {
        f32::from_bits(self.pop())
    }

    #[inline]
    fn pop_f64(&mut self) -> f64 {
        f64::from_bits(self.pop_long())
    }

    /// Runs until the instance ends.
    pub(crate) fn execute(&mut self) -> Exit {
        loop {
            if let Err(exit) = self.step_many() {
                return exit;
            }
        }
    }

    /// Runs instructions until something leaves the loop.
    fn step_many(&mut self) -> Flow {
        let pkg = self.pkg;
        let code = &pkg.code[..];
        loop {
            let pc = self.pc;
            let opcode = code[pc];
            match opcode {
                op::G_ICMP => {
                    let b = self.pop() as i32;
                    let a = self.pop() as i32;
                    self.pc = if holds(code[pc + 1], a.cmp(&b)) {
                        pc + 3
                    } else {
                        code[pc + 2] as usize
                    };
                }
                op::G_LCMP => {
                    let b = self.pop_long() as i64;
                    let a = self.pop_long() as i64;
                    self.pc = if holds(code[pc + 1], a.cmp(&b)) {
                        pc + 3
                    } else {
                        code[pc + 2] as usize
                    };
                }
                op::G_ACMP => {
                    let b = self.pop();
                    let a = self.pop();
                    self.pc = if holds(code[pc + 1], a.cmp(&b)) {
                        pc + 3
                    } else {
                        code[pc + 2] as usize
                    };
                }
                op::G_INSTANCEOF => {
                    let value = self.pop();
                    let instance = value != 0 && self.is_instance(value, code[pc + 1]);
                    self.pc = if instance != (code[pc + 2] != 0) {
                        pc + 4
                    } else {
                        code[pc + 3] as usize
                    };
                }
                op::NO_RULE => {
                    let m = pkg.proc_word(code[pc + 1], proc::METHOD);
                    return Err(Exit::Refused(format!(
                        "{}: no rule of a procedure applies to its inputs (a bug in the IR)",
                        pkg.method_display(m)
                    )));
                }
                op::REFUSE => {
                    return Err(Exit::Refused(
                        pkg.reasons.get(code[pc + 1] as usize).cloned().unwrap_or_default(),
                    ))
                }
                op::PUSH => {
                    self.push(code[pc + 1]);
                    self.pc = pc + 2;
                }
                op::PUSH2 => {
                    self.push(code[pc + 1]);
                    self.push(code[pc + 2]);
                    self.pc = pc + 3;
                }
                op::LDC_CLASS => {
                    let mirror = self.mirror(code[pc + 1])?;
                    self.push(mirror);
                    self.pc = pc + 2;
                }
                op::LOAD => {
                    let value = self.stack[self.base + code[pc + 1] as usize];
                    self.push(value);
                    self.pc = pc + 2;
                }
                op::LOAD2 => {
                    let at = self.base + code[pc + 1] as usize;
                    let (low, high) = (self.stack[at], self.stack[at + 1]);
                    self.push(low);
                    self.push(high);
                    self.pc = pc + 2;
                }
                op::STORE => {
                    let value = self.pop();
                    self.stack[self.base + code[pc + 1] as usize] = value;
                    self.pc = pc + 2;
                }
                op::STORE2 => {
                    let at = self.base + code[pc + 1] as usize;
                    self.sp -= 2;
                    self.stack[at] = self.stack[self.sp];
                    self.stack[at + 1] = self.stack[self.sp + 1];
                    self.pc = pc + 2;
                }
                op::DUP => {
                    let value = self.stack[self.sp - 1];
                    for _ in 0..code[pc + 1] {
                        self.push(value);
                    }
                    self.pc = pc + 2;
                }
                op::DUP2 => {
                    let (low, high) = (self.stack[self.sp - 2], self.stack[self.sp - 1]);
                    for _ in 0..code[pc + 1] {
                        self.push(low);
                        self.push(high);
                    }
                    self.pc = pc + 2;
                }
                op::FETCH => {
                    let value = self.stack[self.sp - code[pc + 1] as usize];
                    self.push(value);
                    self.pc = pc + 2;
                }
                op::FETCH2 => {
                    let at = self.sp - code[pc + 1] as usize;
                    let (low, high) = (self.stack[at], self.stack[at + 1]);
                    self.push(low);
                    self.push(high);
                    self.pc = pc + 2;
                }
                op::POP => {
                    self.sp -= code[pc + 1] as usize;
                    self.pc = pc + 2;
                }
                op::IADD..=op::I2S => {
                    self.arithmetic(opcode);
                    self.pc = pc + 1;
                }
                op::IDIV | op::IREM => {
                    let b = self.pop() as i32;
                    let a = self.pop() as i32;
                    if b == 0 {
                        return self.throw_vm(pkg.well_known.arithmetic, Cause::Message("/ by zero".into()), pc);
                    }
                    let result = if opcode == op::IDIV {
                        a.wrapping_div(b)
                    } else {
                        a.wrapping_rem(b)
                    };
                    self.push(result as u32);
                    self.pc = pc + 3;
                }
                op::LDIV | op::LREM => {
                    let b = self.pop_long() as i64;
                    let a = self.pop_long() as i64;
                    if b == 0 {
                        return self.throw_vm(pkg.well_known.arithmetic, Cause::Message("/ by zero".into()), pc);
                    }
                    let result = if opcode == op::LDIV {
                        a.wrapping_div(b)
                    } else {
                        a.wrapping_rem(b)
                    };
                    self.push_long(result as u64);
                    self.pc = pc + 3;
                }
                op::GETFIELD | op::GETFIELD2 => {
                    let object = self.pop() as usize;
                    if object == 0 {
                        return self.throw_null(pc);
                    }
                    if self.tracing {
                        self.note_read(object as u32, code[pc + 1]);
                    }
                    let at = object + 1 + code[pc + 1] as usize;
                    self.push(self.heap[at]);
                    if opcode == op::GETFIELD2 {
                        self.push(self.heap[at + 1]);
                    }
                    self.pc = pc + 4;
                }
                op::PUTFIELD => {
                    let value = self.pop();
                    let object = self.pop() as usize;
                    if object == 0 {
                        return self.throw_null(pc);
                    }
                    let at = object + 1 + code[pc + 1] as usize;
                    self.mark(at);
                    self.heap[at] = narrow(code[pc + 2], value);
                    self.pc = pc + 5;
                }
                op::PUTFIELD2 => {
                    let value = self.pop_long();
                    let object = self.pop() as usize;
                    if object == 0 {
                        return self.throw_null(pc);
                    }
                    let at = object + 1 + code[pc + 1] as usize;
                    self.mark_range(at, at + 2);
                    self.heap[at] = value as u32;
                    self.heap[at + 1] = (value >> 32) as u32;
                    self.pc = pc + 4;
                }
                op::GETSTATIC | op::GETSTATIC2 => {
                    if !self.ensure_initialized(code[pc + 1], pc)? {
                        continue;
                    }
                    let at = code[pc + 2] as usize;
                    self.push(self.statics[at]);
                    if opcode == op::GETSTATIC2 {
                        self.push(self.statics[at + 1]);
                    }
                    self.pc = pc + 5;
                }
                op::PUTSTATIC => {
                    if !self.ensure_initialized(code[pc + 1], pc)? {
                        continue;
                    }
                    let value = self.pop();
                    self.statics[code[pc + 2] as usize] = narrow(code[pc + 3], value);
                    self.pc = pc + 6;
                }
                op::PUTSTATIC2 => {
                    if !self.ensure_initialized(code[pc + 1], pc)? {
                        continue;
                    }
                    let value = self.pop_long();
                    let at = code[pc + 2] as usize;
                    self.statics[at] = value as u32;
                    self.statics[at + 1] = (value >> 32) as u32;
                    self.pc = pc + 5;
                }
                op::ALOAD => {
                    let index = self.pop() as i32;
                    let array = self.pop() as usize;
                    if array == 0 {
                        return self.throw_null(pc);
                    }
                    let length = self.heap[array + 1];
                    if index < 0 || index as u32 >= length {
                        return self.out_of_bounds(index, length, pc);
                    }
                    let kind = code[pc + 1];
                    if kind == isa::ELEM_LONG || kind == isa::ELEM_DOUBLE {
                        let at = array + 2 + 2 * index as usize;
                        self.push(self.heap[at]);
                        self.push(self.heap[at + 1]);
                    } else {
                        self.push(self.heap[array + 2 + index as usize]);
                    }
                    self.pc = pc + 4;
                }
                op::ASTORE => {
                    let kind = code[pc + 1];
                    let wide = kind == isa::ELEM_LONG || kind == isa::ELEM_DOUBLE;
                    let value = if wide { self.pop_long() } else { u64::from(self.pop()) };
                    let index = self.pop() as i32;
                    let array = self.pop() as usize;
                    if array == 0 {
                        return self.throw_null(pc);
                    }
                    let length = self.heap[array + 1];
                    if index < 0 || index as u32 >= length {
                        return self.out_of_bounds(index, length, pc);
                    }
                    let array_class = self.heap[array];
                    if wide {
                        let at = array + 2 + 2 * index as usize;
                        self.mark_range(at, at + 2);
                        self.heap[at] = value as u32;
                        self.heap[at + 1] = (value >> 32) as u32;
                    } else {
                        let value = value as u32;
                        let stored = if kind == isa::ELEM_REF {
                            if value != 0 {
                                let component = pkg.class_word(array_class, class::COMPONENT);
                                if !self.is_instance(value, component) {
                                    let message = self.class_name(self.heap[value as usize]).replace('/', ".");
                                    return self.throw_vm(pkg.well_known.array_store, Cause::Message(message), pc);
                                }
                            }
                            value
                        } else {
                            narrow(pkg.class_word(array_class, class::ELEMENT), value)
                        };
                        self.mark(array + 2 + index as usize);
                        self.heap[array + 2 + index as usize] = stored;
                    }
                    self.pc = pc + 4;
                }
                op::ARRAYLENGTH => {
                    let array = self.pop() as usize;
                    if array == 0 {
                        return self.throw_null(pc);
                    }
                    self.push(self.heap[array + 1]);
                    self.pc = pc + 3;
                }
                op::NEW => {
                    let class = code[pc + 1];
                    if !self.ensure_initialized(class, pc)? {
                        continue;
                    }
                    let object = self.new_object(class)?;
                    self.add_allocations(1);
                    self.push(object);
                    self.pc = pc + 4;
                }
                op::NEWARRAY => {
                    let length = self.pop() as i32;
                    if length < 0 {
                        return self.throw_vm(
                            pkg.well_known.negative_array_size,
                            Cause::Message(length.to_string()),
                            pc,
                        );
                    }
                    let array = self.new_array(code[pc + 1], length as u32)?;
                    self.add_allocations(1 + length as u64);
                    self.push(array);
                    self.pc = pc + 4;
                }
                op::MULTIANEWARRAY => {
                    let dimensions = code[pc + 2] as usize;
                    self.sp -= dimensions;
                    let lengths: Vec<i32> = self.stack[self.sp..self.sp + dimensions]
                        .iter()
                        .map(|&l| l as i32)
                        .collect();
                    match self.multi_array(code[pc + 1], &lengths)? {
                        Ok(array) => {
                            self.push(array);
                            self.pc = pc + 5;
                        }
                        Err(negative) => {
                            let message = Cause::Message(negative.to_string());
                            return self.throw_vm(pkg.well_known.negative_array_size, message, pc);
                        }
                    }
                }
                op::INVOKESTATIC => {
                    let m = code[pc + 1];
                    let class = pkg.method_word(m, method::CLASS);
                    if class != NONE && !self.ensure_initialized(class, pc)? {
                        continue;
                    }
                    self.add_invocation();
                    let flags = pkg.method_word(m, method::FLAGS);
                    if flags & isa::MFLAG_CONSUME_UNITS != 0 {
                        let units = self.stack[self.sp - 1] as i32;
                        self.add_consume(units.max(0) as u64);
                    } else if flags & isa::MFLAG_CONSUME_ONE != 0 {
                        self.add_consume(1);
                    }
                    if self.enter_method(m, code[pc + 2], pc, isa::FRAME_METHOD, 0)? {
                        self.pc = pc + 5;
                    }
                }
                op::INVOKESPECIAL => {
                    let m = code[pc + 1];
                    self.add_invocation();
                    let receiver = self.stack[self.sp - pkg.method_word(m, method::ARG_WORDS) as usize];
                    if receiver == 0 {
                        return self.throw_null(pc);
                    }
                    if self.enter_method(m, code[pc + 2], pc, isa::FRAME_METHOD, 0)? {
                        self.pc = pc + 5;
                    }
                }
                op::INVOKEVIRTUAL => {
                    self.add_invocation();
                    let receiver = self.stack[self.sp - code[pc + 2] as usize];
                    if receiver == 0 {
                        return self.throw_null(pc);
                    }
                    let m = self.select(code[pc + 1], self.heap[receiver as usize])?;
                    if self.enter_method(m, code[pc + 3], pc, isa::FRAME_METHOD, 0)? {
                        self.pc = pc + 6;
                    }
                }
                op::CALL => {
                    let node = self.node;
                    self.push_frame(code[pc + 1], code[pc + 2] as usize, pc, isa::FRAME_PROC, node, 0)?;
                    if self.watch.is_some() {
                        self.observe_state()?;
                    }
                }
                op::CHECKCAST => {
                    let value = self.pop();
                    let class = code[pc + 1];
                    if value != 0 && !self.is_instance(value, class) {
                        let message = format!(
                            "class {} cannot be cast to class {}",
                            self.class_name(self.heap[value as usize]).replace('/', "."),
                            self.class_name(class).replace('/', ".")
                        );
                        return self.throw_vm(pkg.well_known.class_cast, Cause::Message(message), pc);
                    }
                    self.pc = pc + 4;
                }
                op::INSTANCEOF => {
                    let value = self.pop();
                    let instance = value != 0 && self.is_instance(value, code[pc + 1]);
                    self.push(u32::from(instance));
                    self.pc = pc + 2;
                }
                op::MONITOR => {
                    if self.pop() == 0 {
                        return self.throw_null(pc);
                    }
                    self.pc = pc + 3;
                }
                op::RETURN => {
                    self.add_bytecodes(code[pc + 2])?;
                    return self.return_from_frame(code[pc + 1] as usize);
                }
                op::TAILCALL => {
                    self.add_bytecodes(code[pc + 3])?;
                    let words = code[pc + 2] as usize;
                    let (base, sp) = (self.base, self.sp);
                    self.stack.copy_within(sp - words..sp, base);
                    self.enter_in_frame(code[pc + 1])?;
                    if self.watch.is_some() {
                        self.observe_state()?;
                    }
                }
                op::THROW => {
                    let exception = self.pop();
                    if exception == 0 {
                        return self.throw_null(pc);
                    }
                    return self.raise(exception, pc);
                }
                op::INIT_CLASS => {
                    if !self.ensure_initialized(code[pc + 1], pc)? {
                        continue;
                    }
                    self.pc = pc + 4;
                }
                op::CONCAT => {
                    let string = self.concat(code[pc + 1] as usize)?;
                    self.push(string);
                    self.pc = pc + 2;
                }
                op::INVOKE_ENTRY => {
                    let m = code[pc + 1];
                    let arg_words = pkg.method_word(m, method::ARG_WORDS) as usize;
                    let is_static = pkg.method_word(m, method::FLAGS) & isa::MFLAG_STATIC != 0;
                    if !is_static && self.stack[self.sp - arg_words] == 0 {
                        return self.throw_null(pc);
                    }
                    if self.enter_method(m, NONE, pc, isa::FRAME_METHOD, 0)? {
                        self.pc = pc + 4;
                    }
                }
                _ => {
                    return Err(Exit::Refused(format!(
                        "internal error: unknown opcode {opcode} at {pc}"
                    )))
                }
            }
        }
    }

    /// The method a virtual or interface call of `selector` runs on a receiver of `class`.
    fn select(&self, selector: u32, class: u32) -> Result<u32, Exit> {
        let pkg = self.pkg;
        let start = pkg.selectors[2 * selector as usize] as usize;
        let count = pkg.selectors[2 * selector as usize + 1] as usize;
        let (mut low, mut high) = (start, start + count);
        while low < high {
            let middle = (low + high) / 2;
            let candidate = pkg.dispatch[2 * middle];
            if candidate == class {
                return Ok(pkg.dispatch[2 * middle + 1]);
            }
            if candidate < class {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        Err(Exit::Refused(format!(
            "no packaged target of a call for a receiver of class {} (a class the packager did not see instantiated, or an abstract method)",
            self.class_name(class).replace('/', ".")
        )))
    }

    fn out_of_bounds(&mut self, index: i32, length: u32, pc: usize) -> Flow {
        let message = format!("Index {index} out of bounds for length {length}");
        self.throw_vm(self.pkg.well_known.array_index, Cause::Message(message), pc)
    }

    /// The arrays of a `multianewarray`, level by level as HotSpot allocates them: an array, then
    /// each of its elements; the lengths of the levels below an empty array are still checked.
    /// `Err(length)` is the first negative length met (the arrays made before it stay allocated).
    fn multi_array(&mut self, class: u32, lengths: &[i32]) -> Result<Result<u32, i32>, Exit> {
        if lengths[0] < 0 {
            return Ok(Err(lengths[0]));
        }
        let length = lengths[0] as u32;
        let array = self.new_array(class, length)?;
        self.add_allocations(1 + u64::from(length));
        if lengths.len() > 1 {
            if length == 0 {
                if let Some(&negative) = lengths[1..].iter().find(|&&l| l < 0) {
                    return Ok(Err(negative));
                }
            }
            let component = self.pkg.class_word(class, class::COMPONENT);
            for k in 0..length as usize {
                match self.multi_array(component, &lengths[1..])? {
                    Ok(inner) => self.heap[array as usize + 2 + k] = inner,
                    Err(negative) => return Ok(Err(negative)),
                }
            }
        }
        Ok(Ok(array))
    }

    /// The instructions without operands: arithmetic, comparisons and conversions.
    #[inline]
    fn arithmetic(&mut self, opcode: u32) {
        match opcode {
            op::IADD..=op::LCMP => self.integer_arithmetic(opcode),
            op::FADD..=op::DCMPG => self.floating_arithmetic(opcode),
            _ => self.conversion(opcode),
        }
    }

    /// `int` and `long` arithmetic and `lcmp` (without division and remainder, which can raise).
    #[inline]
    fn integer_arithmetic(&mut self, opcode: u32) {
        match opcode {
            op::IADD..=op::IUSHR => {
                let b = self.pop() as i32;
                let a = self.pop() as i32;
                let result = match opcode {
                    op::IADD => a.wrapping_add(b),
                    op::ISUB => a.wrapping_sub(b),
                    op::IMUL => a.wrapping_mul(b),
                    op::IAND => a & b,
                    op::IOR => a | b,
                    op::IXOR => a ^ b,
                    op::ISHL => a.wrapping_shl(b as u32 & 31),
                    op::ISHR => a.wrapping_shr(b as u32 & 31),
                    _ => ((a as u32) >> (b as u32 & 31)) as i32,
                };
                self.push(result as u32);
            }
            op::INEG => {
                let a = self.pop() as i32;
                self.push(a.wrapping_neg() as u32);
            }
            op::LSHL | op::LSHR | op::LUSHR => {
                let shift = self.pop() & 63;
                let a = self.pop_long();
                let result = match opcode {
                    op::LSHL => a << shift,
                    op::LSHR => ((a as i64) >> shift) as u64,
                    _ => a >> shift,
                };
                self.push_long(result);
            }
            op::LADD..=op::LXOR => {
                let b = self.pop_long() as i64;
                let a = self.pop_long() as i64;
                let result = match opcode {
                    op::LADD => a.wrapping_add(b),
                    op::LSUB => a.wrapping_sub(b),
                    op::LMUL => a.wrapping_mul(b),
                    op::LAND => a & b,
                    op::LOR => a | b,
                    _ => a ^ b,
                };
                self.push_long(result as u64);
            }
            op::LNEG => {
                let a = self.pop_long() as i64;
                self.push_long(a.wrapping_neg() as u64);
            }
            _ => {
                // op::LCMP
                let b = self.pop_long() as i64;
                let a = self.pop_long() as i64;
                self.push(a.cmp(&b) as i32 as u32);
            }
        }
    }

    /// `float` and `double` arithmetic and comparisons (IEEE 754, Java's NaN comparisons).
    #[inline]
    fn floating_arithmetic(&mut self, opcode: u32) {
        match opcode {
            op::FADD..=op::FREM => {
                let b = self.pop_f32();
                let a = self.pop_f32();
                let result = match opcode {
                    op::FADD => a + b,
                    op::FSUB => a - b,
                    op::FMUL => a * b,
                    op::FDIV => a / b,
                    _ => a % b,
                };
                self.push(result.to_bits());
            }
            op::FNEG => {
                let a = self.pop_f32();
                self.push((-a).to_bits());
            }
            op::FCMPL | op::FCMPG => {
                let b = self.pop_f32();
                let a = self.pop_f32();
                let nan = if opcode == op::FCMPL { -1 } else { 1 };
                self.push(compare(a, b, nan) as u32);
            }
            op::DADD..=op::DREM => {
                let b = self.pop_f64();
                let a = self.pop_f64();
                let result = match opcode {
                    op::DADD => a + b,
                    op::DSUB => a - b,
                    op::DMUL => a * b,
                    op::DDIV => a / b,
                    _ => a % b,
                };
                self.push_long(result.to_bits());
            }
            op::DNEG => {
                let a = self.pop_f64();
                self.push_long((-a).to_bits());
            }
            _ => {
                // op::DCMPL, op::DCMPG
                let b = self.pop_f64();
                let a = self.pop_f64();
                let nan = if opcode == op::DCMPL { -1 } else { 1 };
                self.push(compare(a, b, nan) as u32);
            }
        }
    }

    /// Conversions between primitive types (saturating from floating point) and the narrowing
    /// `i2b`, `i2c`, `i2s`.
    #[inline]
    fn conversion(&mut self, opcode: u32) {
        match opcode {
            op::I2L => {
                let a = self.pop() as i32;
                self.push_long(i64::from(a) as u64);
            }
            op::I2F => {
                let a = self.pop() as i32;
                self.push((a as f32).to_bits());
            }
            op::I2D => {
                let a = self.pop() as i32;
                self.push_long(f64::from(a).to_bits());
            }
            op::L2I => {
                let a = self.pop_long();
                self.push(a as u32);
            }
            op::L2F => {
                let a = self.pop_long() as i64;
                self.push((a as f32).to_bits());
            }
            op::L2D => {
                let a = self.pop_long() as i64;
                self.push_long((a as f64).to_bits());
            }
            op::F2I => {
                let a = self.pop_f32();
                self.push(a as i32 as u32);
            }
            op::F2L => {
                let a = self.pop_f32();
                self.push_long(a as i64 as u64);
            }
            op::F2D => {
                let a = self.pop_f32();
                self.push_long(f64::from(a).to_bits());
            }
            op::D2I => {
                let a = self.pop_f64();
                self.push(a as i32 as u32);
            }
            op::D2L => {
                let a = self.pop_f64();
                self.push_long(a as i64 as u64);
            }
            op::D2F => {
                let a = self.pop_f64();
                self.push((a as f32).to_bits());
            }
            op::I2B => {
                let a = self.pop();
                self.push(narrow(isa::ELEM_BYTE, a));
            }
            op::I2C => {
                let a = self.pop();
                self.push(narrow(isa::ELEM_CHAR, a));
            }
            _ => {
                // op::I2S
                let a = self.pop();
                self.push(narrow(isa::ELEM_SHORT, a));
            }
        }
    }
}
