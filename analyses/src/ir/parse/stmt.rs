//! Statements: `@pc#bytecodes [dst =] instruction [catch handler(args)]`. `stmt_kind` sends each
//! instruction to the reader of its family (arithmetic, field and array access, allocation,
//! invocations, type tests, monitors and `throw`, constants).

use super::{Fallible, Items, MethodReader, ParseError, Rule};
use crate::ir::types::{
    BinOp, CallKind, ElemTy, HandlerEdge, MethodRef, OpaqueConst, PrimTy, Stmt, StmtKind, Ty, UnOp, VarId,
};
use pest::iterators::Pair;

/// What an instruction has besides its items: its rule, where it starts, and its destination.
struct Instruction {
    rule: Rule,
    /// Where the instruction starts (in its method's text), for internal errors.
    start: usize,
    /// The variable before `=`, on the forms that have one.
    dst: Option<VarId>,
}

impl Instruction {
    /// The destination, which the grammar only allows (and requires) on the forms that have one.
    fn dst(&self, reader: &MethodReader<'_, '_>) -> Fallible<VarId> {
        self.dst
            .ok_or_else(|| reader.error(self.start, "internal error: missing destination".into()))
    }

    /// The error for an instruction that its family's reader does not read (the dispatch in
    /// `stmt_kind` follows the grammar, so this is an internal error).
    fn unexpected(&self, reader: &MethodReader<'_, '_>) -> ParseError {
        reader.error(
            self.start,
            format!("internal error: unexpected {:?} in the parse tree", self.rule),
        )
    }
}

impl<'i> MethodReader<'_, 'i> {
    pub(super) fn stmt(&self, pair: Pair<'i, Rule>) -> Fallible<Stmt> {
        let mut items = Items::new(pair);
        let mut pos = Items::new(items.expect(self)?);
        let pc = self.uint(&pos.expect(self)?)?;
        let bytecodes = self.uint(&pos.expect(self)?)?;
        let dst = match items.next_if(Rule::dst) {
            Some(dst) => Some(self.var(&Items::new(dst).expect(self)?)?),
            None => None,
        };
        let kind = self.stmt_kind(dst, items.expect(self)?)?;
        let handler = match items.next() {
            Some(edge) => {
                let mut parts = Items::new(edge);
                let proc = self.proc_ref(&parts.expect(self)?)?;
                let args = self.operands(parts.expect(self)?)?;
                Some(HandlerEdge { proc, args })
            }
            None => None,
        };
        Ok(Stmt {
            pc,
            bytecodes,
            kind,
            handler,
        })
    }

    fn stmt_kind(&self, dst: Option<VarId>, pair: Pair<'i, Rule>) -> Fallible<StmtKind> {
        let instr = Instruction {
            rule: pair.as_rule(),
            start: pair.as_span().start(),
            dst,
        };
        let items = Items::new(pair);
        match instr.rule {
            Rule::assign | Rule::binary | Rule::unary => self.arithmetic(&instr, items),
            Rule::getfield | Rule::putfield | Rule::getstatic | Rule::putstatic => self.field_access(&instr, items),
            Rule::array_load | Rule::array_store | Rule::arraylength => self.array_access(&instr, items),
            Rule::new_object | Rule::newarray | Rule::anewarray | Rule::multianewarray => {
                self.allocation(&instr, items)
            }
            Rule::invoke | Rule::invokedynamic | Rule::concat | Rule::call => self.invocation(&instr, items),
            Rule::checkcast | Rule::instanceof => self.type_test(&instr, items),
            Rule::monitorenter | Rule::monitorexit | Rule::throw => self.monitor_or_throw(&instr, items),
            Rule::ldc => self.constant(&instr, items),
            _ => Err(instr.unexpected(self)),
        }
    }

    /// `dst = operand`, binary operations and unary operations (negations and conversions).
    fn arithmetic(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::assign => StmtKind::Assign {
                dst: instr.dst(self)?,
                src: self.operand(items.expect(self)?)?,
            },
            Rule::binary => {
                let mnemonic = items.expect(self)?.as_str();
                let ty = type_of_letter(mnemonic.as_bytes()[0]);
                let op = binary_op(&mnemonic[1..]);
                let lhs = self.operand(items.expect(self)?)?;
                let rhs = self.operand(items.expect(self)?)?;
                StmtKind::Binary {
                    dst: instr.dst(self)?,
                    op,
                    ty,
                    lhs,
                    rhs,
                }
            }
            Rule::unary => {
                let mnemonic_pair = items.expect(self)?;
                let mnemonic = mnemonic_pair.as_str();
                let (op, from, to) = unary_op(mnemonic);
                let dst = instr.dst(self)?;
                let Some(&(dst_name, dst_ty)) = self.var_decls.get(dst.index()) else {
                    return Err(self.internal(&mnemonic_pair));
                };
                if dst_ty != to {
                    return Err(self.error_at_pair(
                        &mnemonic_pair,
                        format!(
                            "`{mnemonic}` produces {} but the destination `{}` is declared {}",
                            to.keyword(),
                            dst_name,
                            dst_ty.keyword()
                        ),
                    ));
                }
                StmtKind::Unary {
                    dst,
                    op,
                    from,
                    src: self.operand(items.expect(self)?)?,
                }
            }
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// `getfield`, `putfield`, `getstatic` and `putstatic`.
    fn field_access(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::getfield => {
                let object = self.operand(items.expect(self)?)?;
                let field = self.field(items.expect(self)?)?;
                StmtKind::GetField {
                    dst: instr.dst(self)?,
                    object,
                    field,
                }
            }
            Rule::putfield => {
                let object = self.operand(items.expect(self)?)?;
                let field = self.field(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::PutField { object, field, value }
            }
            Rule::getstatic => StmtKind::GetStatic {
                dst: instr.dst(self)?,
                field: self.field(items.expect(self)?)?,
            },
            Rule::putstatic => {
                let field = self.field(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::PutStatic { field, value }
            }
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// Array loads (`iaload`, ...), array stores (`iastore`, ...) and `arraylength`.
    fn array_access(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::array_load => {
                let elem = elem_of_letter(items.expect(self)?.as_str().as_bytes()[0]);
                let array = self.operand(items.expect(self)?)?;
                let index = self.operand(items.expect(self)?)?;
                StmtKind::ArrayLoad {
                    dst: instr.dst(self)?,
                    elem,
                    array,
                    index,
                }
            }
            Rule::array_store => {
                let elem = elem_of_letter(items.expect(self)?.as_str().as_bytes()[0]);
                let array = self.operand(items.expect(self)?)?;
                let index = self.operand(items.expect(self)?)?;
                let value = self.operand(items.expect(self)?)?;
                StmtKind::ArrayStore {
                    elem,
                    array,
                    index,
                    value,
                }
            }
            Rule::arraylength => StmtKind::ArrayLength {
                dst: instr.dst(self)?,
                array: self.operand(items.expect(self)?)?,
            },
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// `new`, `newarray`, `anewarray` and `multianewarray`.
    fn allocation(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::new_object => StmtKind::New {
                dst: instr.dst(self)?,
                class: self.name(&items.expect(self)?)?,
            },
            Rule::newarray => {
                let elem_pair = items.expect(self)?;
                let elem = match elem_pair.as_str() {
                    "boolean" => PrimTy::Boolean,
                    "byte" => PrimTy::Byte,
                    "char" => PrimTy::Char,
                    "short" => PrimTy::Short,
                    "int" => PrimTy::Int,
                    "long" => PrimTy::Long,
                    "float" => PrimTy::Float,
                    "double" => PrimTy::Double,
                    _ => return Err(self.internal(&elem_pair)),
                };
                StmtKind::NewArray {
                    dst: instr.dst(self)?,
                    elem,
                    length: self.operand(items.expect(self)?)?,
                }
            }
            Rule::anewarray => {
                let class = self.name(&items.expect(self)?)?;
                let length = self.operand(items.expect(self)?)?;
                StmtKind::NewRefArray {
                    dst: instr.dst(self)?,
                    class,
                    length,
                }
            }
            Rule::multianewarray => {
                let descriptor = self.name(&items.expect(self)?)?;
                let lengths = items.map(|length| self.operand(length)).collect::<Fallible<Vec<_>>>()?;
                StmtKind::NewMultiArray {
                    dst: instr.dst(self)?,
                    descriptor,
                    lengths,
                }
            }
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// Method invocations (`invokestatic`, ..., `invokedynamic`) and calls of procedures.
    fn invocation(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::invoke => {
                let kind = match items.expect(self)?.as_str() {
                    "invokestatic" => CallKind::Static,
                    "invokespecial" => CallKind::Special,
                    "invokevirtual" => CallKind::Virtual,
                    _ => CallKind::Interface,
                };
                let itf = items.next_if(Rule::itf);
                if let Some(itf) = &itf {
                    if !matches!(kind, CallKind::Static | CallKind::Special) {
                        return Err(self.error_at_pair(
                            itf,
                            "`itf` only marks invokestatic and invokespecial of interface methods".into(),
                        ));
                    }
                }
                let (class, name, descriptor) = self.member(items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                StmtKind::Invoke {
                    dst: instr.dst,
                    kind,
                    interface: kind == CallKind::Interface || itf.is_some(),
                    method: MethodRef {
                        class,
                        name,
                        descriptor,
                    },
                    args,
                }
            }
            Rule::invokedynamic => {
                let bootstrap_pair = Items::new(items.expect(self)?).expect(self)?;
                let bootstrap = bootstrap_pair.as_str().parse::<u16>().map_err(|_| {
                    self.error_at_pair(
                        &bootstrap_pair,
                        "bootstrap method index out of range (0 to 65535)".into(),
                    )
                })?;
                let (name, descriptor) = self.name_desc(items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                StmtKind::InvokeDynamic {
                    dst: instr.dst,
                    name,
                    descriptor,
                    bootstrap,
                    args,
                }
            }
            Rule::concat => {
                let recipe = self.string(&items.expect(self)?)?;
                let descriptor = self.name(&items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                StmtKind::Concat {
                    dst: instr.dst(self)?,
                    recipe,
                    descriptor,
                    args,
                }
            }
            Rule::call => {
                let proc = self.proc_ref(&items.expect(self)?)?;
                let args = self.operands(items.expect(self)?)?;
                let outs = self.var_list(items.expect(self)?)?;
                StmtKind::Call { proc, args, outs }
            }
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// `checkcast` and `instanceof`.
    fn type_test(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::checkcast => {
                let value = self.operand(items.expect(self)?)?;
                StmtKind::CheckCast {
                    value,
                    class: self.name(&items.expect(self)?)?,
                }
            }
            Rule::instanceof => {
                let value = self.operand(items.expect(self)?)?;
                StmtKind::InstanceOf {
                    dst: instr.dst(self)?,
                    value,
                    class: self.name(&items.expect(self)?)?,
                }
            }
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// `monitorenter`, `monitorexit` and `throw`.
    fn monitor_or_throw(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        Ok(match instr.rule {
            Rule::monitorenter => StmtKind::MonitorEnter {
                value: self.operand(items.expect(self)?)?,
            },
            Rule::monitorexit => StmtKind::MonitorExit {
                value: self.operand(items.expect(self)?)?,
            },
            Rule::throw => StmtKind::Throw {
                value: self.operand(items.expect(self)?)?,
            },
            _ => return Err(instr.unexpected(self)),
        })
    }

    /// `ldc` of a method type, a method handle or a dynamic constant.
    fn constant(&self, instr: &Instruction, mut items: Items<'i>) -> Fallible<StmtKind> {
        if instr.rule != Rule::ldc {
            return Err(instr.unexpected(self));
        }
        let constant = items.expect(self)?;
        let rule = constant.as_rule();
        let mut parts = Items::new(constant);
        let value = match rule {
            Rule::ldc_methodtype => OpaqueConst::MethodType(self.string(&parts.expect(self)?)?),
            Rule::ldc_methodhandle => OpaqueConst::MethodHandle(self.string(&parts.expect(self)?)?),
            _ => {
                let (name, descriptor) = self.name_desc(parts.expect(self)?)?;
                OpaqueConst::Dynamic { name, descriptor }
            }
        };
        Ok(StmtKind::LoadConst {
            dst: instr.dst(self)?,
            value,
        })
    }
}

/// The operation of a binary mnemonic without its type letter (`add`, `cmpl`, ...).
fn binary_op(name: &str) -> BinOp {
    match name {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "div" => BinOp::Div,
        "rem" => BinOp::Rem,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        "shl" => BinOp::Shl,
        "shr" => BinOp::Shr,
        "ushr" => BinOp::Ushr,
        "cmp" => BinOp::Cmp,
        "cmpl" => BinOp::CmpL,
        _ => BinOp::CmpG,
    }
}

/// The operation of a unary mnemonic, with its operand's and its result's types.
fn unary_op(mnemonic: &str) -> (UnOp, Ty, Ty) {
    let bytes = mnemonic.as_bytes();
    match mnemonic {
        "i2b" => (UnOp::IntToByte, Ty::Int, Ty::Int),
        "i2c" => (UnOp::IntToChar, Ty::Int, Ty::Int),
        "i2s" => (UnOp::IntToShort, Ty::Int, Ty::Int),
        _ if mnemonic.ends_with("neg") => {
            let ty = type_of_letter(bytes[0]);
            (UnOp::Neg, ty, ty)
        }
        _ => (UnOp::Convert, type_of_letter(bytes[0]), type_of_letter(bytes[2])),
    }
}

fn type_of_letter(letter: u8) -> Ty {
    match letter {
        b'i' => Ty::Int,
        b'l' => Ty::Long,
        b'f' => Ty::Float,
        b'd' => Ty::Double,
        _ => Ty::Ref,
    }
}

fn elem_of_letter(letter: u8) -> ElemTy {
    match letter {
        b'i' => ElemTy::Int,
        b'l' => ElemTy::Long,
        b'f' => ElemTy::Float,
        b'd' => ElemTy::Double,
        b'a' => ElemTy::Ref,
        b'b' => ElemTy::Byte,
        b'c' => ElemTy::Char,
        _ => ElemTy::Short,
    }
}
