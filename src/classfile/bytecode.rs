//! Decoding of a method's bytecode array into resolved instructions.
//!
//! The instruction formats are decoded by hand from the raw bytes (switch padding, `wide` and the
//! `_w` forms included) rather than with noak's instruction iterator, so that every operand is
//! bounds-checked and every branch target is validated as an instruction start.

use super::bytes::ByteReader;
use super::model::{
    ArithOp, ArrayKind, Condition, ExceptionHandler, Insn, Instruction, InvokeKind, Kind, PrimitiveType,
};
use super::pool::PoolResolver;
use super::CodeError;

/// The largest bytecode array the JVM accepts (`code_length` must be below 65536).
pub(crate) const MAX_CODE_LENGTH: usize = 65535;

const TRUNCATED: &str = "truncated instruction";

/// Decodes `code` into instructions with absolute branch targets, checking that every branch
/// target is the start of an instruction.
pub(crate) fn decode_bytecode(code: &[u8], pool: &PoolResolver<'_, '_>) -> Result<Vec<Instruction>, CodeError> {
    if code.is_empty() {
        return Err(CodeError {
            offset: None,
            message: "the bytecode array is empty".to_owned(),
        });
    }
    let code_length = match u32::try_from(code.len()) {
        Ok(length) if code.len() <= MAX_CODE_LENGTH => length,
        _ => {
            return Err(CodeError {
                offset: None,
                message: format!(
                    "the bytecode array is {} bytes long; at most {MAX_CODE_LENGTH} are allowed",
                    code.len()
                ),
            })
        }
    };
    // Typical bytecode averages a little under two bytes per instruction.
    let mut instructions = Vec::with_capacity(code.len() / 2 + 1);
    let mut reader = ByteReader::new(code);
    while !reader.is_empty() {
        let pc = u32::try_from(reader.position()).unwrap_or(u32::MAX);
        let insn = decode_instruction(&mut reader, pc, code_length, pool).map_err(|message| CodeError {
            offset: Some(pc),
            message,
        })?;
        instructions.push(Instruction { pc, insn });
    }
    for instruction in &instructions {
        let mut bad_target = None;
        for_each_branch_target(&instruction.insn, |target| {
            if bad_target.is_none() && !is_instruction_start(&instructions, target) {
                bad_target = Some(target);
            }
        });
        if let Some(target) = bad_target {
            return Err(CodeError {
                offset: Some(instruction.pc),
                message: format!("branch target {target} is not the start of an instruction"),
            });
        }
    }
    Ok(instructions)
}

/// Checks the exception table against the decoded instructions: every protected range must be
/// non-empty and start on an instruction, end on an instruction or at the end of the code, and
/// every handler must start on an instruction.
pub(crate) fn check_exception_table(
    handlers: &[ExceptionHandler],
    instructions: &[Instruction],
    code_length: u32,
) -> Result<(), CodeError> {
    for (entry, handler) in handlers.iter().enumerate() {
        let problem = if handler.start >= handler.end {
            Some("its protected range is empty")
        } else if !is_instruction_start(instructions, handler.start) {
            Some("its range does not start on an instruction")
        } else if handler.end != code_length && !is_instruction_start(instructions, handler.end) {
            Some("its range does not end on an instruction or at the end of the code")
        } else if !is_instruction_start(instructions, handler.handler) {
            Some("its handler does not start on an instruction")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(CodeError {
                offset: Some(handler.start),
                message: format!(
                    "exception table entry {entry} ([{}, {}) -> {}): {problem}",
                    handler.start, handler.end, handler.handler
                ),
            });
        }
    }
    Ok(())
}

fn is_instruction_start(instructions: &[Instruction], pc: u32) -> bool {
    instructions
        .binary_search_by_key(&pc, |instruction| instruction.pc)
        .is_ok()
}

/// Calls `visit` with every branch target of `insn` (switch defaults included).
pub(crate) fn for_each_branch_target(insn: &Insn, mut visit: impl FnMut(u32)) {
    match insn {
        Insn::IfZero(_, target)
        | Insn::IfICmp(_, target)
        | Insn::IfACmp(_, target)
        | Insn::IfNull(target)
        | Insn::IfNonNull(target)
        | Insn::Goto(target)
        | Insn::Jsr(target) => visit(*target),
        Insn::TableSwitch { default, targets, .. } => {
            visit(*default);
            targets.iter().for_each(|target| visit(*target));
        }
        Insn::LookupSwitch { default, pairs } => {
            visit(*default);
            pairs.iter().for_each(|(_, target)| visit(*target));
        }
        _ => {}
    }
}

/// The absolute target of a branch at `pc` with a relative `offset`, which must lie in the code.
fn branch_target(pc: u32, offset: i32, code_length: u32) -> Result<u32, String> {
    let target = i64::from(pc) + i64::from(offset);
    match u32::try_from(target) {
        Ok(target) if target < code_length => Ok(target),
        _ => Err(format!("branch offset {offset} leads outside the code (to {target})")),
    }
}

/// The computational kind for the `n`th member of an `i, l, f, d, a` opcode group.
fn kind_of(n: u8) -> Kind {
    match n {
        0 => Kind::Int,
        1 => Kind::Long,
        2 => Kind::Float,
        3 => Kind::Double,
        _ => Kind::Reference,
    }
}

/// The element kind for the `n`th member of an `i, l, f, d, a, b, c, s` array opcode group.
fn array_kind_of(n: u8) -> ArrayKind {
    match n {
        0 => ArrayKind::Int,
        1 => ArrayKind::Long,
        2 => ArrayKind::Float,
        3 => ArrayKind::Double,
        4 => ArrayKind::Reference,
        5 => ArrayKind::ByteOrBoolean,
        6 => ArrayKind::Char,
        _ => ArrayKind::Short,
    }
}

/// The condition for the `n`th member of an `eq, ne, lt, ge, gt, le` branch group.
fn condition_of(n: u8) -> Condition {
    match n {
        0 => Condition::Eq,
        1 => Condition::Ne,
        2 => Condition::Lt,
        3 => Condition::Ge,
        4 => Condition::Gt,
        _ => Condition::Le,
    }
}

fn truncated() -> String {
    TRUNCATED.to_owned()
}

fn read_u8(reader: &mut ByteReader<'_>) -> Result<u8, String> {
    reader.u8().ok_or_else(truncated)
}

fn read_u16(reader: &mut ByteReader<'_>) -> Result<u16, String> {
    reader.u16().ok_or_else(truncated)
}

fn read_i16(reader: &mut ByteReader<'_>) -> Result<i16, String> {
    reader.i16().ok_or_else(truncated)
}

fn read_i32(reader: &mut ByteReader<'_>) -> Result<i32, String> {
    reader.i32().ok_or_else(truncated)
}

/// Decodes the instruction at `pc`; `reader` is positioned on its opcode. Opcodes are decoded by
/// their category in JVMS §7.
fn decode_instruction(
    reader: &mut ByteReader<'_>,
    pc: u32,
    code_length: u32,
    pool: &PoolResolver<'_, '_>,
) -> Result<Insn, String> {
    let opcode = read_u8(reader)?;
    match opcode {
        0x00..=0x14 => decode_constant(opcode, reader, pool),
        0x15..=0x56 => decode_load_store(opcode, reader),
        0x57..=0x5f => decode_stack(opcode),
        0x60..=0x98 => decode_math(opcode, reader),
        0x99..=0xb1 => decode_control(opcode, reader, pc, code_length),
        0xb2..=0xc3 => decode_reference(opcode, reader, pool),
        0xc4..=0xc9 => decode_extended(opcode, reader, pc, code_length, pool),
        other => Err(format!("invalid opcode 0x{other:02x}")),
    }
}

/// Constants: `nop`, `aconst_null`, `iconst`, `lconst`, `fconst`, `dconst`, `bipush`, `sipush`, `ldc`.
fn decode_constant(opcode: u8, reader: &mut ByteReader<'_>, pool: &PoolResolver<'_, '_>) -> Result<Insn, String> {
    Ok(match opcode {
        0x00 => Insn::Nop,
        0x01 => Insn::AConstNull,
        0x02..=0x08 => Insn::IConst(i32::from(opcode) - 3),
        0x09 => Insn::LConst(0),
        0x0a => Insn::LConst(1),
        0x0b => Insn::FConst(0.0),
        0x0c => Insn::FConst(1.0),
        0x0d => Insn::FConst(2.0),
        0x0e => Insn::DConst(0.0),
        0x0f => Insn::DConst(1.0),
        0x10 => Insn::IConst(i32::from(reader.i8().ok_or_else(truncated)?)),
        0x11 => Insn::IConst(i32::from(read_i16(reader)?)),
        0x12 => Insn::Ldc(pool.loadable(u16::from(read_u8(reader)?))?),
        0x13 | 0x14 => Insn::Ldc(pool.loadable(read_u16(reader)?)?),
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Loads and stores of locals and array elements.
fn decode_load_store(opcode: u8, reader: &mut ByteReader<'_>) -> Result<Insn, String> {
    Ok(match opcode {
        0x15..=0x19 => Insn::Load(kind_of(opcode - 0x15), u16::from(read_u8(reader)?)),
        0x1a..=0x2d => {
            let relative = opcode - 0x1a;
            Insn::Load(kind_of(relative / 4), u16::from(relative % 4))
        }
        0x2e..=0x35 => Insn::ArrayLoad(array_kind_of(opcode - 0x2e)),
        0x36..=0x3a => Insn::Store(kind_of(opcode - 0x36), u16::from(read_u8(reader)?)),
        0x3b..=0x4e => {
            let relative = opcode - 0x3b;
            Insn::Store(kind_of(relative / 4), u16::from(relative % 4))
        }
        0x4f..=0x56 => Insn::ArrayStore(array_kind_of(opcode - 0x4f)),
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Stack shuffles: `pop`, `dup` and their variants, `swap`.
fn decode_stack(opcode: u8) -> Result<Insn, String> {
    Ok(match opcode {
        0x57 => Insn::Pop,
        0x58 => Insn::Pop2,
        0x59 => Insn::Dup,
        0x5a => Insn::DupX1,
        0x5b => Insn::DupX2,
        0x5c => Insn::Dup2,
        0x5d => Insn::Dup2X1,
        0x5e => Insn::Dup2X2,
        0x5f => Insn::Swap,
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Arithmetic, `iinc`, conversions and the comparisons that push a value.
fn decode_math(opcode: u8, reader: &mut ByteReader<'_>) -> Result<Insn, String> {
    Ok(match opcode {
        0x60..=0x73 => {
            let relative = opcode - 0x60;
            let operator = match relative / 4 {
                0 => ArithOp::Add,
                1 => ArithOp::Sub,
                2 => ArithOp::Mul,
                3 => ArithOp::Div,
                _ => ArithOp::Rem,
            };
            Insn::Arith(kind_of(relative % 4), operator)
        }
        0x74..=0x77 => Insn::Neg(kind_of(opcode - 0x74)),
        0x78..=0x83 => {
            let relative = opcode - 0x78;
            let operator = match relative / 2 {
                0 => ArithOp::Shl,
                1 => ArithOp::Shr,
                2 => ArithOp::Ushr,
                3 => ArithOp::And,
                4 => ArithOp::Or,
                _ => ArithOp::Xor,
            };
            let kind = if relative.is_multiple_of(2) {
                Kind::Int
            } else {
                Kind::Long
            };
            Insn::Arith(kind, operator)
        }
        0x84 => {
            let slot = read_u8(reader)?;
            let delta = reader.i8().ok_or_else(truncated)?;
            Insn::IInc(u16::from(slot), i32::from(delta))
        }
        0x85 => Insn::Convert(Kind::Int, Kind::Long),
        0x86 => Insn::Convert(Kind::Int, Kind::Float),
        0x87 => Insn::Convert(Kind::Int, Kind::Double),
        0x88 => Insn::Convert(Kind::Long, Kind::Int),
        0x89 => Insn::Convert(Kind::Long, Kind::Float),
        0x8a => Insn::Convert(Kind::Long, Kind::Double),
        0x8b => Insn::Convert(Kind::Float, Kind::Int),
        0x8c => Insn::Convert(Kind::Float, Kind::Long),
        0x8d => Insn::Convert(Kind::Float, Kind::Double),
        0x8e => Insn::Convert(Kind::Double, Kind::Int),
        0x8f => Insn::Convert(Kind::Double, Kind::Long),
        0x90 => Insn::Convert(Kind::Double, Kind::Float),
        0x91 => Insn::IntToByte,
        0x92 => Insn::IntToChar,
        0x93 => Insn::IntToShort,
        0x94 => Insn::LCmp,
        0x95 => Insn::FCmp { nan_is_greater: false },
        0x96 => Insn::FCmp { nan_is_greater: true },
        0x97 => Insn::DCmp { nan_is_greater: false },
        0x98 => Insn::DCmp { nan_is_greater: true },
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Branches, `goto`, `jsr`/`ret`, switches and returns.
fn decode_control(opcode: u8, reader: &mut ByteReader<'_>, pc: u32, code_length: u32) -> Result<Insn, String> {
    let short_branch = |reader: &mut ByteReader<'_>| -> Result<u32, String> {
        let offset = read_i16(reader)?;
        branch_target(pc, i32::from(offset), code_length)
    };
    Ok(match opcode {
        0x99..=0x9e => Insn::IfZero(condition_of(opcode - 0x99), short_branch(reader)?),
        0x9f..=0xa4 => Insn::IfICmp(condition_of(opcode - 0x9f), short_branch(reader)?),
        0xa5 => Insn::IfACmp(Condition::Eq, short_branch(reader)?),
        0xa6 => Insn::IfACmp(Condition::Ne, short_branch(reader)?),
        0xa7 => Insn::Goto(short_branch(reader)?),
        0xa8 => Insn::Jsr(short_branch(reader)?),
        0xa9 => Insn::Ret(u16::from(read_u8(reader)?)),
        0xaa => decode_table_switch(reader, pc, code_length)?,
        0xab => decode_lookup_switch(reader, pc, code_length)?,
        0xac..=0xb0 => Insn::Return(Some(kind_of(opcode - 0xac))),
        0xb1 => Insn::Return(None),
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Fields, invocations, allocation, `arraylength`, `athrow`, casts and monitors.
fn decode_reference(opcode: u8, reader: &mut ByteReader<'_>, pool: &PoolResolver<'_, '_>) -> Result<Insn, String> {
    Ok(match opcode {
        0xb2 => Insn::GetStatic(pool.field_ref(read_u16(reader)?)?),
        0xb3 => Insn::PutStatic(pool.field_ref(read_u16(reader)?)?),
        0xb4 => Insn::GetField(pool.field_ref(read_u16(reader)?)?),
        0xb5 => Insn::PutField(pool.field_ref(read_u16(reader)?)?),
        0xb6 => Insn::Invoke(InvokeKind::Virtual, pool.method_ref(read_u16(reader)?)?),
        0xb7 => Insn::Invoke(InvokeKind::Special, pool.method_ref(read_u16(reader)?)?),
        0xb8 => Insn::Invoke(InvokeKind::Static, pool.method_ref(read_u16(reader)?)?),
        0xb9 => {
            let method = pool.method_ref(read_u16(reader)?)?;
            // The argument count and the zero byte are redundant with the descriptor.
            reader.skip(2).ok_or_else(truncated)?;
            Insn::Invoke(InvokeKind::Interface, method)
        }
        0xba => {
            let (name, descriptor, bootstrap_index) = pool.invoke_dynamic(read_u16(reader)?)?;
            reader.skip(2).ok_or_else(truncated)?;
            Insn::InvokeDynamic {
                name,
                descriptor,
                bootstrap_index,
            }
        }
        0xbb => Insn::New(pool.class_name(read_u16(reader)?)?),
        0xbc => {
            let element = match read_u8(reader)? {
                4 => PrimitiveType::Boolean,
                5 => PrimitiveType::Char,
                6 => PrimitiveType::Float,
                7 => PrimitiveType::Double,
                8 => PrimitiveType::Byte,
                9 => PrimitiveType::Short,
                10 => PrimitiveType::Int,
                11 => PrimitiveType::Long,
                other => return Err(format!("newarray with invalid element type {other}")),
            };
            Insn::NewArray(element)
        }
        0xbd => Insn::ANewArray(pool.class_name(read_u16(reader)?)?),
        0xbe => Insn::ArrayLength,
        0xbf => Insn::AThrow,
        0xc0 => Insn::CheckCast(pool.class_name(read_u16(reader)?)?),
        0xc1 => Insn::InstanceOf(pool.class_name(read_u16(reader)?)?),
        0xc2 => Insn::MonitorEnter,
        0xc3 => Insn::MonitorExit,
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// `wide`, `multianewarray`, `ifnull`/`ifnonnull`, `goto_w`, `jsr_w`.
fn decode_extended(
    opcode: u8,
    reader: &mut ByteReader<'_>,
    pc: u32,
    code_length: u32,
    pool: &PoolResolver<'_, '_>,
) -> Result<Insn, String> {
    let short_branch = |reader: &mut ByteReader<'_>| -> Result<u32, String> {
        let offset = read_i16(reader)?;
        branch_target(pc, i32::from(offset), code_length)
    };
    Ok(match opcode {
        0xc4 => decode_wide(reader)?,
        0xc5 => {
            let class = pool.class_name(read_u16(reader)?)?;
            let dimensions = read_u8(reader)?;
            if dimensions == 0 {
                return Err("multianewarray with zero dimensions".to_owned());
            }
            Insn::MultiANewArray(class, dimensions)
        }
        0xc6 => Insn::IfNull(short_branch(reader)?),
        0xc7 => Insn::IfNonNull(short_branch(reader)?),
        0xc8 => Insn::Goto(branch_target(pc, read_i32(reader)?, code_length)?),
        0xc9 => Insn::Jsr(branch_target(pc, read_i32(reader)?, code_length)?),
        other => return Err(format!("invalid opcode 0x{other:02x}")),
    })
}

/// Decodes the instruction following a `wide` prefix.
fn decode_wide(reader: &mut ByteReader<'_>) -> Result<Insn, String> {
    let opcode = read_u8(reader)?;
    Ok(match opcode {
        0x15..=0x19 => Insn::Load(kind_of(opcode - 0x15), read_u16(reader)?),
        0x36..=0x3a => Insn::Store(kind_of(opcode - 0x36), read_u16(reader)?),
        0xa9 => Insn::Ret(read_u16(reader)?),
        0x84 => {
            let slot = read_u16(reader)?;
            let delta = read_i16(reader)?;
            Insn::IInc(slot, i32::from(delta))
        }
        other => return Err(format!("wide cannot modify opcode 0x{other:02x}")),
    })
}

/// Skips the 0 to 3 padding bytes that align a switch's operands to a multiple of four bytes
/// from the start of the code.
fn skip_switch_padding(reader: &mut ByteReader<'_>) -> Result<(), String> {
    let misalignment = reader.position() % 4;
    let padding = (4 - misalignment) % 4;
    reader.skip(padding).ok_or_else(truncated)
}

fn decode_table_switch(reader: &mut ByteReader<'_>, pc: u32, code_length: u32) -> Result<Insn, String> {
    skip_switch_padding(reader)?;
    let default = branch_target(pc, read_i32(reader)?, code_length)?;
    let low = read_i32(reader)?;
    let high = read_i32(reader)?;
    if low > high {
        return Err(format!("tableswitch with low {low} above high {high}"));
    }
    let count = i64::from(high) - i64::from(low) + 1;
    // Check the declared size against the bytes that are really there before allocating.
    let enough_bytes = usize::try_from(count)
        .ok()
        .and_then(|count| count.checked_mul(4))
        .is_some_and(|bytes| bytes <= reader.remaining());
    if !enough_bytes {
        return Err(format!(
            "tableswitch with {count} targets runs past the end of the code"
        ));
    }
    let mut targets = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for _ in 0..count {
        targets.push(branch_target(pc, read_i32(reader)?, code_length)?);
    }
    Ok(Insn::TableSwitch {
        default,
        low,
        high,
        targets,
    })
}

fn decode_lookup_switch(reader: &mut ByteReader<'_>, pc: u32, code_length: u32) -> Result<Insn, String> {
    skip_switch_padding(reader)?;
    let default = branch_target(pc, read_i32(reader)?, code_length)?;
    let pair_count = read_i32(reader)?;
    let enough_bytes = usize::try_from(pair_count)
        .ok()
        .and_then(|count| count.checked_mul(8))
        .is_some_and(|bytes| bytes <= reader.remaining());
    if !enough_bytes {
        return Err(format!(
            "lookupswitch with {pair_count} pairs runs past the end of the code"
        ));
    }
    let mut pairs = Vec::with_capacity(usize::try_from(pair_count).unwrap_or(0));
    for _ in 0..pair_count {
        let key = read_i32(reader)?;
        let target = branch_target(pc, read_i32(reader)?, code_length)?;
        pairs.push((key, target));
    }
    Ok(Insn::LookupSwitch { default, pairs })
}
