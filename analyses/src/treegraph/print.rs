//! The canonical text of stack code and of treegraphs (for reports, golden tests and debugging).
//!
//! Instructions print one per line in JVM style: `input a`, `push 5`, `dup 1`, `fetch 3`, `pop 1`,
//! `store L0`, `load L0`, the IR's mnemonics for operations (`iadd`, `getfield C.f:I`), calls with
//! their argument and result counts (`invokestatic C.m:(I)I 1 -> 1`), and the terminators
//! `return 1`, `tailcall b6 2` and `throw`, with `catch h(…)` when exceptions have a handler.

use super::dag::{Dag, NodeId};
use super::forest::{Item, Treegraph};
use super::insn::{HandlerArg, StackHandler, StackInsn, StackOp};
use crate::ir::{
    binary_mnemonic, call_mnemonic, unary_mnemonic, write_name, write_string, CallKind, MethodIr, OpaqueConst, Operand,
    ProcId,
};
use std::fmt::Write;

/// Names procedures and inputs when a method and procedure are known, and numbers them otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct Names<'a> {
    pub method: Option<&'a MethodIr>,
    pub proc: Option<ProcId>,
}

impl Names<'_> {
    fn proc_name(&self, proc: ProcId) -> String {
        self.method
            .and_then(|m| m.procs.get(proc.index()))
            .map_or_else(|| proc.to_string(), |p| p.name.clone())
    }

    fn input_name(&self, index: u32) -> String {
        self.method
            .zip(self.proc)
            .and_then(|(m, p)| {
                let var = *m.procs.get(p.index())?.inputs.get(index as usize)?;
                Some(m.vars.get(var.index())?.name.clone())
            })
            .unwrap_or_else(|| format!("in{index}"))
    }
}

/// Writes a constant operand as the IR prints it.
fn write_constant(out: &mut String, value: &Operand) {
    let _ = match value {
        Operand::Var(v) => write!(out, "{v}"),
        Operand::Int(n) => write!(out, "{n}"),
        Operand::Long(n) => write!(out, "{n}L"),
        Operand::Float(bits) => {
            let x = f32::from_bits(*bits);
            if x.is_finite() {
                write!(out, "{x:?}F")
            } else {
                write!(out, "F#{bits:08x}")
            }
        }
        Operand::Double(bits) => {
            let x = f64::from_bits(*bits);
            if x.is_finite() {
                write!(out, "{x:?}D")
            } else {
                write!(out, "D#{bits:016x}")
            }
        }
        Operand::Null => write!(out, "null"),
        Operand::Str(text) => write_string(out, text),
        Operand::Class(name) => {
            out.push_str("class ");
            write_name(out, name)
        }
    };
}

fn write_member(out: &mut String, class: &str, name: &str, descriptor: &str) {
    let _ = write_name(out, class);
    out.push('.');
    let _ = write_name(out, name);
    out.push(':');
    let _ = write_name(out, descriptor);
}

fn write_handler(out: &mut String, names: &Names<'_>, handler: &Option<StackHandler>) {
    let Some(handler) = handler else { return };
    let _ = write!(out, " catch {}(", names.proc_name(handler.proc));
    for (k, arg) in handler.args.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        match arg {
            HandlerArg::Input(index) => out.push_str(&names.input_name(*index)),
            HandlerArg::Local(slot) => {
                let _ = write!(out, "L{slot}");
            }
            HandlerArg::Const(value) => write_constant(out, value),
        }
    }
    out.push(')');
}

fn write_op(out: &mut String, names: &Names<'_>, op: &StackOp) {
    match op {
        StackOp::Binary { op, ty } => out.push_str(&binary_mnemonic(*op, *ty)),
        StackOp::Unary { op, from, to } => out.push_str(&unary_mnemonic(*op, *from, *to)),
        StackOp::GetField { field } => {
            out.push_str("getfield ");
            write_member(out, &field.class, &field.name, &field.descriptor);
        }
        StackOp::PutField { field } => {
            out.push_str("putfield ");
            write_member(out, &field.class, &field.name, &field.descriptor);
        }
        StackOp::GetStatic { field } => {
            out.push_str("getstatic ");
            write_member(out, &field.class, &field.name, &field.descriptor);
        }
        StackOp::PutStatic { field } => {
            out.push_str("putstatic ");
            write_member(out, &field.class, &field.name, &field.descriptor);
        }
        StackOp::ArrayLoad { elem } => {
            let _ = write!(out, "{}aload", elem.prefix());
        }
        StackOp::ArrayStore { elem } => {
            let _ = write!(out, "{}astore", elem.prefix());
        }
        StackOp::ArrayLength => out.push_str("arraylength"),
        StackOp::New { class } => {
            out.push_str("new ");
            let _ = write_name(out, class);
        }
        StackOp::NewArray { elem } => {
            let _ = write!(out, "newarray {}", elem.keyword());
        }
        StackOp::NewRefArray { class } => {
            out.push_str("anewarray ");
            let _ = write_name(out, class);
        }
        StackOp::NewMultiArray { descriptor, dimensions } => {
            out.push_str("multianewarray ");
            let _ = write_name(out, descriptor);
            let _ = write!(out, " {dimensions}");
        }
        StackOp::Invoke {
            kind,
            interface,
            method,
            args,
            results,
        } => {
            out.push_str(call_mnemonic(*kind));
            if *interface && matches!(kind, CallKind::Static | CallKind::Special) {
                out.push_str(" itf");
            }
            out.push(' ');
            write_member(out, &method.class, &method.name, &method.descriptor);
            let _ = write!(out, " {args} -> {results}");
        }
        StackOp::InvokeDynamic {
            name,
            descriptor,
            bootstrap,
            args,
            results,
        } => {
            let _ = write!(out, "invokedynamic #{bootstrap} ");
            let _ = write_name(out, name);
            out.push(':');
            let _ = write_name(out, descriptor);
            let _ = write!(out, " {args} -> {results}");
        }
        StackOp::Concat {
            recipe,
            descriptor,
            args,
        } => {
            out.push_str("concat ");
            let _ = write_string(out, recipe);
            out.push(' ');
            let _ = write_name(out, descriptor);
            let _ = write!(out, " {args} -> 1");
        }
        StackOp::Call { proc, args, results } => {
            let _ = write!(out, "call {} {args} -> {results}", names.proc_name(*proc));
        }
        StackOp::CheckCast { class } => {
            out.push_str("checkcast ");
            let _ = write_name(out, class);
        }
        StackOp::InstanceOf { class } => {
            out.push_str("instanceof ");
            let _ = write_name(out, class);
        }
        StackOp::MonitorEnter => out.push_str("monitorenter"),
        StackOp::MonitorExit => out.push_str("monitorexit"),
        StackOp::LoadConst { value } => match value {
            OpaqueConst::MethodType(text) => {
                out.push_str("ldc methodtype ");
                let _ = write_string(out, text);
            }
            OpaqueConst::MethodHandle(text) => {
                out.push_str("ldc methodhandle ");
                let _ = write_string(out, text);
            }
            OpaqueConst::Dynamic { name, descriptor } => {
                out.push_str("ldc dynamic ");
                let _ = write_name(out, name);
                out.push(':');
                let _ = write_name(out, descriptor);
            }
        },
    }
}

/// The text of one instruction.
pub fn print_insn(names: &Names<'_>, insn: &StackInsn) -> String {
    let mut out = String::new();
    match insn {
        StackInsn::Push { value } => {
            out.push_str("push ");
            write_constant(&mut out, value);
        }
        StackInsn::LoadInput { index } => {
            let _ = write!(out, "input {}", names.input_name(*index));
        }
        StackInsn::Load { slot } => {
            let _ = write!(out, "load L{slot}");
        }
        StackInsn::Store { slot } => {
            let _ = write!(out, "store L{slot}");
        }
        StackInsn::Dup { count } => {
            let _ = write!(out, "dup {count}");
        }
        StackInsn::Fetch { depth } => {
            let _ = write!(out, "fetch {depth}");
        }
        StackInsn::Pop { count } => {
            let _ = write!(out, "pop {count}");
        }
        StackInsn::Op { op, handler, .. } => {
            write_op(&mut out, names, op);
            write_handler(&mut out, names, handler);
        }
        StackInsn::Return { values } => {
            let _ = write!(out, "return {values}");
        }
        StackInsn::TailCall {
            proc, args, handler, ..
        } => {
            let _ = write!(out, "tailcall {} {args}", names.proc_name(*proc));
            write_handler(&mut out, names, handler);
        }
        StackInsn::Throw { handler, .. } => {
            out.push_str("throw");
            write_handler(&mut out, names, handler);
        }
    }
    out
}

/// The code, one instruction per line, each line starting with `indent`.
pub fn print_code(names: &Names<'_>, code: &[StackInsn], indent: &str) -> String {
    let mut out = String::new();
    for insn in code {
        out.push_str(indent);
        out.push_str(&print_insn(names, insn));
        out.push('\n');
    }
    out
}

/// The trees of a treegraph, one per line: `T1 = n4 [n0 n0 n1 n2 n3 n4] after T0`, where the items
/// are the tree's depth-first code with external operands written as the value they read, and the
/// reason its root is cut in parentheses.
pub fn print_treegraph<L>(dag: &Dag<L>, treegraph: &Treegraph, label: impl Fn(NodeId, &L) -> String) -> String {
    let mut out = String::new();
    for (k, tree) in treegraph.trees.iter().enumerate() {
        let _ = write!(
            out,
            "T{k} = {} ({:?}) [",
            label(tree.root, &dag.node(tree.root).label),
            tree.reason
        );
        for (j, item) in tree.items.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            match item {
                Item::Node(id) => out.push_str(&label(*id, &dag.node(*id).label)),
                Item::External(v) => {
                    let value = treegraph.values[*v as usize].value;
                    let _ = write!(out, "<{}>", label(value.node, &dag.node(value.node).label));
                    if value.result > 0 {
                        let _ = write!(out, ".{}", value.result);
                    }
                }
            }
        }
        out.push(']');
        if !tree.deps.is_empty() {
            out.push_str(" after");
            for d in &tree.deps {
                let _ = write!(out, " {d}");
            }
        }
        out.push('\n');
    }
    out
}
