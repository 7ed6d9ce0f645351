//! Property tests of the IR parser: random well-formed programs survive printing and parsing
//! exactly, and no input (random text, IR token soup, printed programs with random edits) makes it
//! panic.

use jresa_analyses::ir::*;
use proptest::collection::{btree_set, vec};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use std::sync::Arc;

/// Whether a name reads as a float or double bit-pattern literal (`F#7fc00000`): such names are
/// identifiers but print exactly like the constant, so they cannot round-trip.
fn is_bits_literal(name: &str) -> bool {
    let hex = |digits: &str, len: usize| digits.len() == len && digits.bytes().all(|b| b.is_ascii_hexdigit());
    name.strip_prefix("F#").is_some_and(|d| hex(d, 8)) || name.strip_prefix("D#").is_some_and(|d| hex(d, 16))
}

/// Variable and procedure names.
fn identifier() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_$][a-zA-Z0-9_$.#]{0,5}",
        // Names that start like keywords, mnemonics or literals.
        "(new|null|class|iadd|i2l|itf|not|rule|F#|D#|catch|call|ldc)[a-zA-Z0-9_$.#]{1,17}",
    ]
    .prop_filter("a valid identifier", |name| {
        is_identifier(name) && !is_bits_literal(name)
    })
}

/// String constants: anything, with a bias towards what needs escaping.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => "[a-zA-Z \"\\\\\n\r\t\u{0}-\u{1f}\u{7f}-\u{a0}é€\u{2028}\u{feff}\u{10ffff}{}]{0,12}",
        1 => any::<String>(),
    ]
}

/// Class, member and descriptor names: bare, or needing quotes.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9_$/;\\[()<>]{1,14}",
        2 => select(vec![
            "java/lang/String",
            "[Ljava/lang/String;",
            "[[I",
            "[I",
            "<init>",
            "<clinit>",
            "(I)V",
            "(Ljava/lang/Object;)Ljava/lang/String;",
            "Foo)",
            "Foo;",
            "))",
            ";;",
            ";)",
            "//x",
            "a//b",
            "itf",
            "static",
            "null",
            "class",
        ])
        .prop_map(str::to_owned),
        2 => "[a-z .:,\"\\\\#@=\\]{}-]{0,6}",
        1 => string(),
    ]
    // The bare name `//` reads as an empty comment where whitespace follows it.
    .prop_filter("not `//`", |name| name != "//")
}

fn float_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (-1.0e6f32..1.0e6f32).prop_map(f32::to_bits),
        select(vec![
            0u32,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0001,
            0xffc0_1234,
            0x3380_0000,
            0x4b80_0000,
        ]),
    ]
}

fn double_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (-1.0e12f64..1.0e12f64).prop_map(f64::to_bits),
        select(vec![
            0u64,
            0x8000_0000_0000_0000,
            1,
            0x000f_ffff_ffff_ffff,
            0x7fef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0xfff8_dead_beef_0001,
            0x3ff0_0000_0000_0001,
        ]),
    ]
}

fn ty() -> impl Strategy<Value = Ty> {
    select(vec![Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Ref])
}

/// What statements of a method may refer to.
struct Ctx {
    tys: Vec<Ty>,
    procs: usize,
}

impl Ctx {
    fn var(&self) -> impl Strategy<Value = VarId> {
        (0..self.tys.len()).prop_map(VarId::from_index)
    }

    fn var_of(&self, ty: Ty) -> Vec<VarId> {
        (0..self.tys.len())
            .filter(|&k| self.tys[k] == ty)
            .map(VarId::from_index)
            .collect()
    }

    fn proc(&self) -> impl Strategy<Value = ProcId> {
        (0..self.procs).prop_map(ProcId::from_index)
    }
}

fn operand(ctx: &Ctx) -> BoxedStrategy<Operand> {
    prop_oneof![
        4 => ctx.var().prop_map(Operand::Var),
        1 => any::<i32>().prop_map(Operand::Int),
        1 => any::<i64>().prop_map(Operand::Long),
        1 => float_bits().prop_map(Operand::Float),
        1 => double_bits().prop_map(Operand::Double),
        1 => Just(Operand::Null),
        1 => string().prop_map(Operand::Str),
        2 => name().prop_map(Operand::Class),
    ]
    .boxed()
}

fn operands(ctx: &Ctx, max: usize) -> impl Strategy<Value = Vec<Operand>> {
    vec(operand(ctx), 0..=max)
}

fn cond(ctx: &Ctx) -> impl Strategy<Value = Cond> {
    let op = select(vec![CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge]);
    prop_oneof![
        (op, operand(ctx), operand(ctx)).prop_map(|(op, lhs, rhs)| Cond::Cmp { op, lhs, rhs }),
        (operand(ctx), name(), any::<bool>())
            .prop_map(|(value, class, negated)| { Cond::InstanceOf { value, class, negated } }),
    ]
}

fn field() -> impl Strategy<Value = FieldRef> {
    (name(), name(), name()).prop_map(|(class, name, descriptor)| FieldRef {
        class,
        name,
        descriptor,
    })
}

fn method_ref() -> impl Strategy<Value = MethodRef> {
    (name(), name(), name()).prop_map(|(class, name, descriptor)| MethodRef {
        class,
        name,
        descriptor,
    })
}

fn elem() -> impl Strategy<Value = ElemTy> {
    use ElemTy::*;
    select(vec![Int, Long, Float, Double, Ref, Byte, Char, Short])
}

fn stmt_kind(ctx: &Arc<Ctx>) -> BoxedStrategy<StmtKind> {
    use StmtKind::*;
    let c = ctx.as_ref();
    let binop = {
        use BinOp::*;
        select(vec![
            Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Ushr, Cmp, CmpL, CmpG,
        ])
    };
    let by_ty: Arc<Vec<Vec<VarId>>> = Arc::new(
        [Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Ref]
            .iter()
            .map(|&t| c.var_of(t))
            .collect(),
    );
    let ty_index = |t: Ty| t as usize;
    // A conversion's destination has the mnemonic's target type: `i2b` produces an int, `lneg` a
    // long.
    let unary = (0..5u8, ty(), ty(), any::<Index>(), operand(c)).prop_map(move |(shape, from, to, pick, src)| {
        let (op, from, to) = match shape {
            0 => (UnOp::Neg, from, from),
            1 => (UnOp::IntToByte, Ty::Int, Ty::Int),
            2 => (UnOp::IntToChar, Ty::Int, Ty::Int),
            3 => (UnOp::IntToShort, Ty::Int, Ty::Int),
            _ => (UnOp::Convert, from, to),
        };
        let candidates = &by_ty[ty_index(to)];
        Unary {
            dst: *pick.get(candidates),
            op,
            from,
            src,
        }
    });
    let prim = {
        use PrimTy::*;
        select(vec![Boolean, Byte, Char, Short, Int, Long, Float, Double])
    };
    let kind = select(vec![
        CallKind::Static,
        CallKind::Special,
        CallKind::Virtual,
        CallKind::Interface,
    ]);
    let opaque = prop_oneof![
        string().prop_map(OpaqueConst::MethodType),
        string().prop_map(OpaqueConst::MethodHandle),
        (name(), name()).prop_map(|(name, descriptor)| OpaqueConst::Dynamic { name, descriptor }),
    ];
    prop_oneof![
        (c.var(), operand(c)).prop_map(|(dst, src)| Assign { dst, src }),
        (c.var(), binop, ty(), operand(c), operand(c)).prop_map(|(dst, op, ty, lhs, rhs)| Binary {
            dst,
            op,
            ty,
            lhs,
            rhs
        }),
        unary,
        (c.var(), operand(c), field()).prop_map(|(dst, object, field)| GetField { dst, object, field }),
        (operand(c), field(), operand(c)).prop_map(|(object, field, value)| PutField { object, field, value }),
        (c.var(), field()).prop_map(|(dst, field)| GetStatic { dst, field }),
        (field(), operand(c)).prop_map(|(field, value)| PutStatic { field, value }),
        (c.var(), elem(), operand(c), operand(c)).prop_map(|(dst, elem, array, index)| ArrayLoad {
            dst,
            elem,
            array,
            index
        }),
        (elem(), operand(c), operand(c), operand(c)).prop_map(|(elem, array, index, value)| {
            ArrayStore {
                elem,
                array,
                index,
                value,
            }
        }),
        (c.var(), operand(c)).prop_map(|(dst, array)| ArrayLength { dst, array }),
        (c.var(), name()).prop_map(|(dst, class)| New { dst, class }),
        (c.var(), prim, operand(c)).prop_map(|(dst, elem, length)| NewArray { dst, elem, length }),
        (c.var(), name(), operand(c)).prop_map(|(dst, class, length)| NewRefArray { dst, class, length }),
        (c.var(), name(), operands(c, 3)).prop_map(|(dst, descriptor, lengths)| NewMultiArray {
            dst,
            descriptor,
            lengths
        }),
        (
            proptest::option::of(c.var()),
            kind,
            any::<bool>(),
            method_ref(),
            operands(c, 4)
        )
            .prop_map(|(dst, kind, itf, method, args)| {
                // `itf` is only printed for static and special calls; `invokeinterface` implies it.
                let interface = match kind {
                    CallKind::Interface => true,
                    CallKind::Virtual => false,
                    CallKind::Static | CallKind::Special => itf,
                };
                Invoke {
                    dst,
                    kind,
                    interface,
                    method,
                    args,
                }
            }),
        (
            proptest::option::of(c.var()),
            name(),
            name(),
            any::<u16>(),
            operands(c, 4)
        )
            .prop_map(|(dst, name, descriptor, bootstrap, args)| InvokeDynamic {
                dst,
                name,
                descriptor,
                bootstrap,
                args
            }),
        (c.proc(), operands(c, 4), vec(c.var(), 0..=3)).prop_map(|(proc, args, outs)| Call { proc, args, outs }),
        (operand(c), name()).prop_map(|(value, class)| CheckCast { value, class }),
        (c.var(), operand(c), name()).prop_map(|(dst, value, class)| InstanceOf { dst, value, class }),
        operand(c).prop_map(|value| MonitorEnter { value }),
        operand(c).prop_map(|value| MonitorExit { value }),
        (c.var(), opaque).prop_map(|(dst, value)| LoadConst { dst, value }),
        operand(c).prop_map(|value| Throw { value }),
    ]
    .boxed()
}

fn stmt(ctx: &Arc<Ctx>) -> impl Strategy<Value = Stmt> {
    let handler = (ctx.proc(), operands(ctx, 3)).prop_map(|(proc, args)| HandlerEdge { proc, args });
    (
        any::<u32>(),
        any::<u32>(),
        stmt_kind(ctx),
        proptest::option::of(handler),
    )
        .prop_map(|(pc, bytecodes, kind, handler)| Stmt {
            pc,
            bytecodes,
            kind,
            handler,
        })
}

fn rule(ctx: &Arc<Ctx>) -> impl Strategy<Value = Rule> {
    (vec(cond(ctx), 0..=3), vec(stmt(ctx), 0..=6), any::<u32>()).prop_map(|(guard, body, bytecodes)| Rule {
        guard,
        body,
        bytecodes,
    })
}

fn proc_kind() -> impl Strategy<Value = ProcKind> {
    use ProcKind::*;
    select(vec![Entry, Block, Loop, Branch, Exit, Handler])
}

/// A random method: names are valid and unique, everything else is arbitrary (it need not verify).
fn method() -> impl Strategy<Value = MethodIr> {
    (
        btree_set(identifier(), 5..=10),
        vec(ty(), 10),
        btree_set(identifier(), 1..=3),
    )
        .prop_flat_map(|(var_names, mut tys, proc_names)| {
            // The first five variables have one type each, so every conversion has a destination.
            tys[..5].copy_from_slice(&[Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Ref]);
            let vars: Vec<VarDecl> = var_names
                .into_iter()
                .zip(tys)
                .map(|(name, ty)| VarDecl { name, ty })
                .collect();
            let ctx = Arc::new(Ctx {
                tys: vars.iter().map(|v| v.ty).collect(),
                procs: proc_names.len(),
            });
            let procs: Vec<_> = proc_names
                .into_iter()
                .map(|name| {
                    (
                        proc_kind(),
                        any::<u32>(),
                        vec(ctx.var(), 0..=4),
                        vec(ctx.var(), 0..=3),
                        vec(rule(&ctx), 0..=3),
                    )
                        .prop_map(move |(kind, pc, inputs, outputs, rules)| Procedure {
                            name: name.clone(),
                            kind,
                            pc,
                            inputs,
                            outputs,
                            rules,
                        })
                })
                .collect();
            let header = (name(), name(), name(), any::<bool>(), proptest::option::of(string()));
            (
                header,
                vec((any::<u32>(), any::<u32>()), 0..=4),
                Just(vars),
                procs,
                ctx.proc(),
            )
                .prop_map(
                    |((class, name, descriptor, is_static, source_file), lines, vars, procs, entry)| MethodIr {
                        class,
                        name,
                        descriptor,
                        is_static,
                        source_file,
                        lines,
                        vars,
                        procs,
                        entry,
                        ghosts: Vec::new(),
                        heap_entry: None,
                    },
                )
        })
}

fn program() -> impl Strategy<Value = Program> {
    vec(method(), 0..=3).prop_map(|methods| Program { methods })
}

/// An edit of a text's bytes.
#[derive(Clone, Debug)]
enum Edit {
    Delete(Index, usize),
    Insert(Index, Vec<u8>),
    Replace(Index, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    let bytes = vec(
        prop_oneof![select(b"\"\\(),;:.#@=-_ \n/{}[]0123456789eFDLxu".to_vec()), any::<u8>()],
        1..=4,
    );
    prop_oneof![
        (any::<Index>(), 1..=8usize).prop_map(|(at, len)| Edit::Delete(at, len)),
        (any::<Index>(), bytes).prop_map(|(at, bytes)| Edit::Insert(at, bytes)),
        (any::<Index>(), any::<u8>()).prop_map(|(at, byte)| Edit::Replace(at, byte)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for edit in edits {
        match edit {
            Edit::Delete(at, len) if !bytes.is_empty() => {
                let start = at.index(bytes.len());
                let end = (start + len).min(bytes.len());
                bytes.drain(start..end);
            }
            Edit::Insert(at, inserted) => {
                let start = at.index(bytes.len() + 1);
                bytes.splice(start..start, inserted.iter().copied());
            }
            Edit::Replace(at, byte) if !bytes.is_empty() => {
                let k = at.index(bytes.len());
                bytes[k] = *byte;
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whatever the parser accepts, it reads the same way again after printing.
fn check_reparse(text: &str) -> Result<(), TestCaseError> {
    if let Ok(program) = parse_program(text) {
        let printed = print_program(&program);
        prop_assert_eq!(parse_program(&printed), Ok(program), "accepted text:\n{}", text);
    }
    Ok(())
}

/// Tokens of the textual IR, for token soup.
const TOKENS: &[&str] = &[
    "method",
    "A.f:()V",
    "static",
    "source",
    "\"s\"",
    "lines",
    "0:1",
    "vars",
    "x:int",
    "y:ref",
    "entry",
    "p",
    "proc",
    "p(x; y)",
    "(",
    ")",
    ";",
    ",",
    "block",
    "loop",
    "@0",
    "rule",
    "bc=1",
    "when",
    "x",
    "<",
    "==",
    "not",
    "instanceof",
    "C",
    "@0#1",
    "=",
    "iadd",
    "i2l",
    "laload",
    "new",
    "call",
    "catch",
    "invokestatic",
    "itf",
    "invokedynamic",
    "#0",
    "ldc",
    "dynamic",
    "class",
    "[I;",
    "null",
    "1.5F",
    "F#7fc00000",
    "-0.0D",
    "5L",
    "-1",
    "\"\\u{41}\"",
    "//",
    "\n",
    " ",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn printed_programs_parse_back_exactly(program in program()) {
        let text = print_program(&program);
        let parsed = parse_program(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&program), "printed:\n{}", text);
        prop_assert_eq!(print_program(&parsed.unwrap()), text);
    }

    #[test]
    fn edited_programs_never_panic(program in program(), edits in vec(edit(), 1..=6)) {
        let text = apply(&print_program(&program), &edits);
        check_reparse(&text)?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in prop_oneof![
        any::<String>(),
        "[a-z0-9@#:;(),.=\"\\\\ \n{}/\\[\\]-]{0,200}",
        vec(select(TOKENS), 0..60).prop_map(|tokens| tokens.join(" ")),
    ]) {
        check_reparse(&text)?;
    }
}
