//! The textual form of the IR: a canonical printer whose output `parse` reads back exactly.
//!
//! Layout (one item per line, indentation for readability only):
//! ```text
//! method Loops.sum:(I)I static
//!   source "Loops.java"
//!   lines 0:3 4:4
//!   vars n:int s:int i:int s.1:int i.1:int ret:int
//!   entry b0
//!   proc b0(n; ret) block @0
//!     rule bc=4
//!       @6#4 call loop6(n, 0, 0; ret)
//! ```
//! Names of classes, members and descriptors are printed bare when they only use the characters of
//! the grammar's `name_token`, and as quoted strings otherwise.

use super::types::*;
use std::fmt::{self, Write};

/// Prints a whole program.
pub fn print_program(program: &Program) -> String {
    let mut out = String::new();
    for method in &program.methods {
        print_method_into(method, &mut out);
    }
    out
}

/// Prints one method.
pub fn print_method(method: &MethodIr) -> String {
    let mut out = String::new();
    print_method_into(method, &mut out);
    out
}

fn print_method_into(method: &MethodIr, out: &mut String) {
    // Writing into a String cannot fail.
    let _ = MethodPrinter { method, out }.method();
}

/// Whether a name can be printed without quotes as a class, member or descriptor token.
pub fn is_bare_name(name: &str) -> bool {
    // A bare name starting with `//` would read as a comment.
    !name.is_empty()
        && !name.starts_with("//")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '/' | ';' | '[' | '(' | ')' | '<' | '>'))
}

/// Whether a name can be a variable or procedure name in the textual IR.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '#'))
        && !is_reserved_word(name)
}

/// Words of the textual IR that variables must not be named (so that no line reads two ways):
/// keywords, mnemonics, and `F#...`/`D#...`, which read as float and double constants.
pub fn is_reserved_word(name: &str) -> bool {
    RESERVED_WORDS.contains(&name) || mnemonic_like(name) || name.starts_with("F#") || name.starts_with("D#")
}

const RESERVED_WORDS: &[&str] = &[
    "null",
    "class",
    "call",
    "catch",
    "throw",
    "when",
    "rule",
    "proc",
    "method",
    "static",
    "source",
    "lines",
    "vars",
    "entry",
    "not",
    "instanceof",
    "checkcast",
    "monitorenter",
    "monitorexit",
    "putfield",
    "putstatic",
    "getfield",
    "getstatic",
    "new",
    "newarray",
    "anewarray",
    "multianewarray",
    "arraylength",
    "invokestatic",
    "invokespecial",
    "invokevirtual",
    "invokeinterface",
    "invokedynamic",
    "concat",
    "itf",
    "ldc",
    "methodtype",
    "methodhandle",
    "dynamic",
    "lcmp",
    "fcmpl",
    "fcmpg",
    "dcmpl",
    "dcmpg",
    "i2b",
    "i2c",
    "i2s",
];

/// Arithmetic, array and conversion mnemonics: `iadd`, `laload`, `d2i`, ...
fn mnemonic_like(name: &str) -> bool {
    const OPS: &[&str] = &[
        "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "ushr", "neg", "aload", "astore",
    ];
    let bytes = name.as_bytes();
    if bytes.len() == 3 && bytes[1] == b'2' {
        return b"ilfd".contains(&bytes[0]) && b"ilfd".contains(&bytes[2]);
    }
    match name.split_at_checked(1) {
        Some((prefix, rest)) => "ilfdabcs".contains(prefix) && OPS.contains(&rest),
        None => false,
    }
}

/// The mnemonic of a binary operation on operands of type `ty`.
pub fn binary_mnemonic(op: BinOp, ty: Ty) -> String {
    let prefix = type_prefix(ty);
    let name = match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Rem => "rem",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Xor => "xor",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::Ushr => "ushr",
        BinOp::Cmp => "cmp",
        BinOp::CmpL => "cmpl",
        BinOp::CmpG => "cmpg",
    };
    format!("{prefix}{name}")
}

/// The mnemonic of a unary operation from type `from` to type `to`.
pub fn unary_mnemonic(op: UnOp, from: Ty, to: Ty) -> String {
    match op {
        UnOp::Neg => format!("{}neg", type_prefix(from)),
        UnOp::Convert => format!("{}2{}", type_prefix(from), type_prefix(to)),
        UnOp::IntToByte => "i2b".to_owned(),
        UnOp::IntToChar => "i2c".to_owned(),
        UnOp::IntToShort => "i2s".to_owned(),
    }
}

/// The JVM's one-letter prefix of a type (`i`, `l`, `f`, `d`, `a`).
pub fn type_prefix(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "i",
        Ty::Long => "l",
        Ty::Float => "f",
        Ty::Double => "d",
        Ty::Ref => "a",
    }
}

/// The mnemonic of an invocation kind.
pub fn call_mnemonic(kind: CallKind) -> &'static str {
    match kind {
        CallKind::Static => "invokestatic",
        CallKind::Special => "invokespecial",
        CallKind::Virtual => "invokevirtual",
        CallKind::Interface => "invokeinterface",
    }
}

/// Writes a class, member or descriptor name, quoting it when it is not bare.
pub fn write_name(out: &mut impl Write, name: &str) -> fmt::Result {
    if is_bare_name(name) {
        out.write_str(name)
    } else {
        write_string(out, name)
    }
}

/// Writes a quoted string literal with `\\`, `\"`, `\n`, `\r`, `\t` and `\u{..}` escapes.
pub fn write_string(out: &mut impl Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in text.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if c.is_control() => write!(out, "\\u{{{:x}}}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

/// Writes a float constant: `1.5F`, or `F#7fc00000` (raw bits) when not finite.
pub fn write_float(out: &mut impl Write, bits: u32) -> fmt::Result {
    let value = f32::from_bits(bits);
    if value.is_finite() {
        write!(out, "{value:?}F")
    } else {
        write!(out, "F#{bits:08x}")
    }
}

/// Writes a double constant: `1.5D`, or `D#7ff8000000000000` (raw bits) when not finite.
pub fn write_double(out: &mut impl Write, bits: u64) -> fmt::Result {
    let value = f64::from_bits(bits);
    if value.is_finite() {
        write!(out, "{value:?}D")
    } else {
        write!(out, "D#{bits:016x}")
    }
}

struct MethodPrinter<'a> {
    method: &'a MethodIr,
    out: &'a mut String,
}

impl<'a> MethodPrinter<'a> {
    fn method(&mut self) -> fmt::Result {
        let m = self.method;
        self.out.push_str("method ");
        write_name(self.out, &m.class)?;
        self.out.push('.');
        write_name(self.out, &m.name)?;
        self.out.push(':');
        write_name(self.out, &m.descriptor)?;
        if m.is_static {
            self.out.push_str(" static");
        }
        self.out.push('\n');
        if let Some(source) = &m.source_file {
            self.out.push_str("  source ");
            write_string(self.out, source)?;
            self.out.push('\n');
        }
        if !m.lines.is_empty() {
            self.out.push_str("  lines");
            for (pc, line) in &m.lines {
                write!(self.out, " {pc}:{line}")?;
            }
            self.out.push('\n');
        }
        self.out.push_str("  vars");
        for var in &m.vars {
            write!(self.out, " {}:{}", var.name, var.ty.keyword())?;
        }
        self.out.push('\n');
        writeln!(self.out, "  entry {}", self.proc_name(m.entry))?;
        for proc in &m.procs {
            self.procedure(proc)?;
        }
        Ok(())
    }

    fn proc_name(&self, proc: ProcId) -> &'a str {
        let method: &'a MethodIr = self.method;
        method.procs.get(proc.index()).map_or("?", |p| p.name.as_str())
    }

    fn var(&mut self, var: VarId) -> fmt::Result {
        match self.method.vars.get(var.index()) {
            Some(decl) => self.out.write_str(&decl.name),
            None => write!(self.out, "?{var}"),
        }
    }

    fn vars(&mut self, vars: &[VarId]) -> fmt::Result {
        for (k, var) in vars.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.var(*var)?;
        }
        Ok(())
    }

    fn operand(&mut self, operand: &Operand) -> fmt::Result {
        match operand {
            Operand::Var(v) => self.var(*v),
            Operand::Int(n) => write!(self.out, "{n}"),
            Operand::Long(n) => write!(self.out, "{n}L"),
            Operand::Float(bits) => write_float(self.out, *bits),
            Operand::Double(bits) => write_double(self.out, *bits),
            Operand::Null => self.out.write_str("null"),
            Operand::Str(text) => write_string(self.out, text),
            Operand::Class(name) => {
                self.out.push_str("class ");
                write_name(self.out, name)
            }
        }
    }

    fn operands(&mut self, operands: &[Operand]) -> fmt::Result {
        for (k, operand) in operands.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.operand(operand)?;
        }
        Ok(())
    }

    fn member(&mut self, class: &str, name: &str, descriptor: &str) -> fmt::Result {
        write_name(self.out, class)?;
        self.out.push('.');
        write_name(self.out, name)?;
        self.out.push(':');
        write_name(self.out, descriptor)
    }

    fn procedure(&mut self, proc: &Procedure) -> fmt::Result {
        write!(self.out, "  proc {}(", proc.name)?;
        self.vars(&proc.inputs)?;
        self.out.push_str("; ");
        self.vars(&proc.outputs)?;
        writeln!(self.out, ") {} @{}", proc.kind.keyword(), proc.pc)?;
        for rule in &proc.rules {
            write!(self.out, "    rule bc={}", rule.bytecodes)?;
            for (k, cond) in rule.guard.iter().enumerate() {
                self.out.push_str(if k == 0 { " when " } else { ", " });
                self.cond(cond)?;
            }
            self.out.push('\n');
            for stmt in &rule.body {
                self.stmt(stmt)?;
            }
        }
        Ok(())
    }

    fn cond(&mut self, cond: &Cond) -> fmt::Result {
        match cond {
            Cond::Cmp { op, lhs, rhs } => {
                self.operand(lhs)?;
                write!(self.out, " {} ", op.symbol())?;
                self.operand(rhs)
            }
            Cond::InstanceOf { value, class, negated } => {
                if *negated {
                    self.out.push_str("not ");
                }
                self.operand(value)?;
                self.out.push_str(" instanceof ");
                write_name(self.out, class)
            }
        }
    }

    fn dst(&mut self, dst: VarId) -> fmt::Result {
        self.var(dst)?;
        self.out.push_str(" = ");
        Ok(())
    }

    fn stmt(&mut self, stmt: &Stmt) -> fmt::Result {
        write!(self.out, "      @{}#{} ", stmt.pc, stmt.bytecodes)?;
        self.stmt_kind(&stmt.kind)?;
        if let Some(edge) = &stmt.handler {
            write!(self.out, " catch {}(", self.proc_name(edge.proc))?;
            self.operands(&edge.args)?;
            self.out.push(')');
        }
        self.out.push('\n');
        Ok(())
    }

    fn stmt_kind(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::Assign { .. } | StmtKind::Binary { .. } | StmtKind::Unary { .. } => self.arithmetic(kind),
            StmtKind::GetField { .. }
            | StmtKind::PutField { .. }
            | StmtKind::GetStatic { .. }
            | StmtKind::PutStatic { .. } => self.field_access(kind),
            StmtKind::ArrayLoad { .. } | StmtKind::ArrayStore { .. } | StmtKind::ArrayLength { .. } => {
                self.array_access(kind)
            }
            StmtKind::New { .. }
            | StmtKind::NewArray { .. }
            | StmtKind::NewRefArray { .. }
            | StmtKind::NewMultiArray { .. } => self.allocation(kind),
            StmtKind::Invoke { .. }
            | StmtKind::InvokeDynamic { .. }
            | StmtKind::Concat { .. }
            | StmtKind::Call { .. } => self.invocation(kind),
            StmtKind::CheckCast { .. } | StmtKind::InstanceOf { .. } => self.type_test(kind),
            StmtKind::MonitorEnter { .. } | StmtKind::MonitorExit { .. } | StmtKind::Throw { .. } => {
                self.monitor_or_throw(kind)
            }
            StmtKind::LoadConst { dst, value } => self.constant(*dst, value),
        }
    }

    // The printers of the instruction families below are called by `stmt_kind` with statements of
    // their family only; any other statement is an error (which `stmt_kind` never makes).

    /// `dst = operand`, binary operations and unary operations (negations and conversions).
    fn arithmetic(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::Assign { dst, src } => {
                self.dst(*dst)?;
                self.operand(src)
            }
            StmtKind::Binary { dst, op, ty, lhs, rhs } => {
                self.dst(*dst)?;
                write!(self.out, "{} ", binary_mnemonic(*op, *ty))?;
                self.operand(lhs)?;
                self.out.push_str(", ");
                self.operand(rhs)
            }
            StmtKind::Unary { dst, op, from, src } => {
                let to = self.method.vars.get(dst.index()).map_or(*from, |d| d.ty);
                self.dst(*dst)?;
                write!(self.out, "{} ", unary_mnemonic(*op, *from, to))?;
                self.operand(src)
            }
            _ => Err(fmt::Error),
        }
    }

    /// `getfield`, `putfield`, `getstatic` and `putstatic`.
    fn field_access(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::GetField { dst, object, field } => {
                self.dst(*dst)?;
                self.out.push_str("getfield ");
                self.operand(object)?;
                self.out.push_str(", ");
                self.member(&field.class, &field.name, &field.descriptor)
            }
            StmtKind::PutField { object, field, value } => {
                self.out.push_str("putfield ");
                self.operand(object)?;
                self.out.push_str(", ");
                self.member(&field.class, &field.name, &field.descriptor)?;
                self.out.push_str(", ");
                self.operand(value)
            }
            StmtKind::GetStatic { dst, field } => {
                self.dst(*dst)?;
                self.out.push_str("getstatic ");
                self.member(&field.class, &field.name, &field.descriptor)
            }
            StmtKind::PutStatic { field, value } => {
                self.out.push_str("putstatic ");
                self.member(&field.class, &field.name, &field.descriptor)?;
                self.out.push_str(", ");
                self.operand(value)
            }
            _ => Err(fmt::Error),
        }
    }

    /// Array loads (`iaload`, ...), array stores (`iastore`, ...) and `arraylength`.
    fn array_access(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::ArrayLoad {
                dst,
                elem,
                array,
                index,
            } => {
                self.dst(*dst)?;
                write!(self.out, "{}aload ", elem.prefix())?;
                self.operands(&[array.clone(), index.clone()])
            }
            StmtKind::ArrayStore {
                elem,
                array,
                index,
                value,
            } => {
                write!(self.out, "{}astore ", elem.prefix())?;
                self.operands(&[array.clone(), index.clone(), value.clone()])
            }
            StmtKind::ArrayLength { dst, array } => {
                self.dst(*dst)?;
                self.out.push_str("arraylength ");
                self.operand(array)
            }
            _ => Err(fmt::Error),
        }
    }

    /// `new`, `newarray`, `anewarray` and `multianewarray`.
    fn allocation(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::New { dst, class } => {
                self.dst(*dst)?;
                self.out.push_str("new ");
                write_name(self.out, class)
            }
            StmtKind::NewArray { dst, elem, length } => {
                self.dst(*dst)?;
                write!(self.out, "newarray {}, ", elem.keyword())?;
                self.operand(length)
            }
            StmtKind::NewRefArray { dst, class, length } => {
                self.dst(*dst)?;
                self.out.push_str("anewarray ");
                write_name(self.out, class)?;
                self.out.push_str(", ");
                self.operand(length)
            }
            StmtKind::NewMultiArray {
                dst,
                descriptor,
                lengths,
            } => {
                self.dst(*dst)?;
                self.out.push_str("multianewarray ");
                write_name(self.out, descriptor)?;
                for length in lengths {
                    self.out.push_str(", ");
                    self.operand(length)?;
                }
                Ok(())
            }
            _ => Err(fmt::Error),
        }
    }

    /// Method invocations (`invokestatic`, ..., `invokedynamic`) and calls of procedures.
    fn invocation(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::Invoke {
                dst,
                kind,
                interface,
                method,
                args,
            } => {
                if let Some(dst) = dst {
                    self.dst(*dst)?;
                }
                self.out.push_str(call_mnemonic(*kind));
                if *interface && matches!(kind, CallKind::Static | CallKind::Special) {
                    self.out.push_str(" itf");
                }
                self.out.push(' ');
                self.member(&method.class, &method.name, &method.descriptor)?;
                self.out.push_str(" (");
                self.operands(args)?;
                self.out.push(')');
                Ok(())
            }
            StmtKind::InvokeDynamic {
                dst,
                name,
                descriptor,
                bootstrap,
                args,
            } => {
                if let Some(dst) = dst {
                    self.dst(*dst)?;
                }
                write!(self.out, "invokedynamic #{bootstrap} ")?;
                write_name(self.out, name)?;
                self.out.push(':');
                write_name(self.out, descriptor)?;
                self.out.push_str(" (");
                self.operands(args)?;
                self.out.push(')');
                Ok(())
            }
            StmtKind::Concat {
                dst,
                recipe,
                descriptor,
                args,
            } => {
                self.dst(*dst)?;
                self.out.push_str("concat ");
                write_string(self.out, recipe)?;
                self.out.push(' ');
                write_name(self.out, descriptor)?;
                self.out.push_str(" (");
                self.operands(args)?;
                self.out.push(')');
                Ok(())
            }
            StmtKind::Call { proc, args, outs } => {
                write!(self.out, "call {}(", self.proc_name(*proc))?;
                self.operands(args)?;
                self.out.push_str("; ");
                self.vars(outs)?;
                self.out.push(')');
                Ok(())
            }
            _ => Err(fmt::Error),
        }
    }

    /// `checkcast` and `instanceof`.
    fn type_test(&mut self, kind: &StmtKind) -> fmt::Result {
        match kind {
            StmtKind::CheckCast { value, class } => {
                self.out.push_str("checkcast ");
                self.operand(value)?;
                self.out.push_str(", ");
                write_name(self.out, class)
            }
            StmtKind::InstanceOf { dst, value, class } => {
                self.dst(*dst)?;
                self.out.push_str("instanceof ");
                self.operand(value)?;
                self.out.push_str(", ");
                write_name(self.out, class)
            }
            _ => Err(fmt::Error),
        }
    }

    /// `monitorenter`, `monitorexit` and `throw`.
    fn monitor_or_throw(&mut self, kind: &StmtKind) -> fmt::Result {
        let (mnemonic, value) = match kind {
            StmtKind::MonitorEnter { value } => ("monitorenter ", value),
            StmtKind::MonitorExit { value } => ("monitorexit ", value),
            StmtKind::Throw { value } => ("throw ", value),
            _ => return Err(fmt::Error),
        };
        self.out.push_str(mnemonic);
        self.operand(value)
    }

    /// `ldc` of a method type, a method handle or a dynamic constant.
    fn constant(&mut self, dst: VarId, value: &OpaqueConst) -> fmt::Result {
        self.dst(dst)?;
        match value {
            OpaqueConst::MethodType(text) => {
                self.out.push_str("ldc methodtype ");
                write_string(self.out, text)
            }
            OpaqueConst::MethodHandle(text) => {
                self.out.push_str("ldc methodhandle ");
                write_string(self.out, text)
            }
            OpaqueConst::Dynamic { name, descriptor } => {
                self.out.push_str("ldc dynamic ");
                write_name(self.out, name)?;
                self.out.push(':');
                write_name(self.out, descriptor)
            }
        }
    }
}

impl fmt::Display for MethodIr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_method(self))
    }
}
