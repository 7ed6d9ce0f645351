//! Tests of the IR parser on hand-written IR: every statement and operand form read and printed
//! back exactly, layout and comment tolerance, and malformed inputs with their error positions.

use jresa_analyses::ir::*;

/// Every statement form, operand form, guard form and procedure kind, in the printer's layout.
const EVERY_FORM: &str = r#"method demo/All.run:(ILjava/lang/String;)I static
  source "All.java"
  lines 0:10 4:11 9:12
  vars n:int s:ref l:long f:float d:double o:ref a:ref r:int t:long g:float h:double e:ref u:ref v:int w:int
  entry main
  proc main(n, s; r) block @0
    rule bc=3 when n < 0, s != null, s instanceof java/lang/String, not s instanceof "a b"
      @0#1 r = n
      @1#2 r = -2147483648
      @2#3 t = 9223372036854775807L
      @3#4 t = -9223372036854775808L
      @4#5 g = 1.5F
      @5#6 g = -0.0F
      @6#7 g = 1e-7F
      @7#8 g = F#7fc00001
      @8#9 g = 1e-45F
      @9#10 h = 3.141592653589793D
      @10#11 h = D#7ff8000000000000
      @11#12 h = -1.7976931348623157e308D
      @12#13 h = D#fff0000000000000
      @13#14 o = null
      @14#15 o = "tab\there \"q\" back\\slash \n\r \u{1} \u{7f} ünï \u{85}"
      @15#16 o = class java/lang/String
      @16#17 o = class [Ljava/lang/String;
      @17#18 o = class "weird name"
      @18#19 o = ""
      @19#20 r = 0
    rule bc=40 when n >= 0, n <= 100, n == 7, n > 1, s == null, class [I instanceof [I
      @20#1 r = iadd n, 1
      @21#2 r = isub n, -1
      @22#3 t = lmul l, 3L
      @23#4 r = idiv n, 2 catch oops(e, n)
      @24#5 t = lrem l, 5L
      @25#6 r = iand n, 255
      @26#7 r = ior n, 1
      @27#8 t = lxor l, -1L
      @28#9 r = ishl n, 2
      @29#10 t = lshr l, n
      @30#11 t = lushr l, n
      @31#12 r = lcmp l, 7L
      @32#13 r = fcmpl f, 1.5F
      @33#14 r = fcmpg f, g
      @34#15 r = dcmpl d, h
      @35#16 r = dcmpg d, -0.0D
      @36#17 g = fadd f, 2.0F
      @37#18 h = ddiv d, 10.0D
      @38#19 t = i2l n
      @39#20 g = d2f d
      @40#21 r = f2i f
      @41#22 h = l2d l
      @42#23 r = i2b n
      @43#24 r = i2c n
      @44#25 r = i2s n
      @45#26 t = lneg l
      @46#27 h = dneg d
      @47#28 r = ineg n
      @48#29 g = fneg f
      @49#30 r = arraylength a catch oops(e, n)
      @50#31 r = iaload a, n
      @51#32 t = laload a, 0
      @52#33 g = faload a, 1
      @53#34 h = daload a, 2
      @54#35 o = aaload a, 3
      @55#36 r = baload a, 4
      @56#37 r = caload a, 5
      @57#38 r = saload a, 6
      @58#39 iastore a, n, 1
      @59#40 lastore a, n, 1L
    rule bc=50
      @60#1 fastore a, n, 1.0F
      @61#2 dastore a, n, 1.0D
      @62#3 aastore a, n, null
      @63#4 bastore a, n, 1
      @64#5 castore a, n, 65
      @65#6 sastore a, n, -1
      @66#7 o = getfield s, demo/All.next:Ldemo/All;
      @67#8 putfield s, demo/All.count:I, n catch oops(e, n)
      @68#9 o = getstatic java/lang/System.out:Ljava/io/PrintStream;
      @69#10 putstatic demo/All.total:J, l
      @70#11 putstatic "odd.Class"."a field":"weird desc", "value"
      @71#12 o = new java/lang/StringBuilder
      @72#13 a = newarray int, n
      @73#14 a = newarray boolean, 3
      @74#15 a = newarray byte, 3
      @75#16 a = newarray char, 3
      @76#17 a = newarray short, 3
      @77#18 a = newarray long, 3
      @78#19 a = newarray float, 3
      @79#20 a = newarray double, 3
      @80#21 a = anewarray java/lang/String, n
      @81#22 a = multianewarray [[I, n, 4
      @82#23 a = multianewarray [[[J, 2
      @83#24 a = multianewarray [[I
      @84#25 invokespecial java/lang/StringBuilder.<init>:()V (o)
      @85#26 o = invokevirtual java/lang/StringBuilder.append:(I)Ljava/lang/StringBuilder; (o, n)
      @86#27 r = invokeinterface java/util/List.size:()I (s)
      @87#28 o = invokestatic itf java/util/List.of:()Ljava/util/List; ()
      @88#29 invokespecial itf demo/I.m:()V (s)
      @89#30 r = invokestatic java/util/Objects.hash:([Ljava/lang/Object;)I (class [Ljava/lang/String;)
      @90#31 invokestatic demo/All.take:(Ljava/lang/Class;Ljava/lang/Class;)V (class [I, class Foo))
      @91#32 invokestatic itf.m:()V () catch oops(e, class [Ljava/lang/String;)
      @92#33 o = invokedynamic #0 makeConcatWithConstants:(I)Ljava/lang/String; (n)
      @93#34 invokedynamic #65535 run:()V ()
      @94#35 call loop(n, 0, class [Ljava/lang/String;; v, w)
      @95#36 call loop(n, class X;, class Y;; v, w)
      @96#37 checkcast s, java/lang/String
      @97#38 r = instanceof s, java/lang/Comparable
      @98#39 monitorenter s
      @99#40 monitorexit s catch oops(e, n)
      @100#41 o = ldc methodtype "(I)V"
      @101#42 o = ldc methodhandle "REF_invokeStatic java/lang/Integer.parseInt:(Ljava/lang/String;)I"
      @102#43 o = ldc dynamic CONST:Ljava/lang/Object;
      @103#44 o = ldc dynamic "odd name":"odd desc"
      @104#45 call done(; )
      @105#46 r = v
      @106#47 throw e
  proc loop(n, u, o; v, w) loop @94
    rule bc=1 when u instanceof Foo
      @94#1 call loop(n, u, o; v, w)
    rule bc=2 when not o instanceof [Ljava/lang/String;
      @95#1 v = iadd n, 0
      @95#2 w = v
  proc oops(e, n; r) handler @200
    rule bc=1
      @200#1 throw e
  proc done(; ) exit @300
    rule bc=0
  proc b(; ) branch @301
    rule bc=0
  proc go(; ) entry @0
    rule bc=0
method "odd class".<clinit>:()V
  vars
  entry start
  proc start(; ) entry @0
    rule bc=1
"#;

#[test]
fn every_form_round_trips_exactly() {
    let program = parse_program(EVERY_FORM).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.methods.len(), 2);
    assert_eq!(print_program(&program), EVERY_FORM);
    assert_eq!(parse_program(&print_program(&program)), Ok(program));
}

/// The statements of the first method's first procedure, by rule.
fn main_rules(program: &Program) -> Vec<Vec<StmtKind>> {
    program.methods[0].procs[0]
        .rules
        .iter()
        .map(|rule| rule.body.iter().map(|s| s.kind.clone()).collect())
        .collect()
}

#[test]
fn header_tables_and_procedures_are_read() {
    let program = parse_program(EVERY_FORM).unwrap();
    let method = &program.methods[0];
    assert_eq!(method.class, "demo/All");
    assert_eq!(method.name, "run");
    assert_eq!(method.descriptor, "(ILjava/lang/String;)I");
    assert!(method.is_static);
    assert_eq!(method.source_file.as_deref(), Some("All.java"));
    assert_eq!(method.lines, vec![(0, 10), (4, 11), (9, 12)]);
    assert_eq!(method.vars.len(), 15);
    assert_eq!(
        method.vars[2],
        VarDecl {
            name: "l".into(),
            ty: Ty::Long
        }
    );
    assert_eq!(method.entry, ProcId(0));
    let kinds: Vec<ProcKind> = method.procs.iter().map(|p| p.kind).collect();
    use ProcKind::*;
    assert_eq!(kinds, vec![Block, Loop, Handler, Exit, Branch, Entry]);
    assert_eq!(method.procs[1].inputs, vec![VarId(0), VarId(12), VarId(5)]);
    assert_eq!(method.procs[1].outputs, vec![VarId(13), VarId(14)]);
    assert_eq!(method.procs[1].pc, 94);
    assert_eq!(method.procs[0].rules[0].bytecodes, 3);

    let other = &program.methods[1];
    assert_eq!(other.class, "odd class");
    assert_eq!(other.name, "<clinit>");
    assert!(!other.is_static);
    assert_eq!(other.source_file, None);
    assert!(other.lines.is_empty() && other.vars.is_empty());
    assert_eq!(other.procs[0].rules[0].body, vec![]);
}

#[test]
fn guards_are_read() {
    let program = parse_program(EVERY_FORM).unwrap();
    let guard = &program.methods[0].procs[0].rules[0].guard;
    let (n, s) = (Operand::Var(VarId(0)), Operand::Var(VarId(1)));
    assert_eq!(
        guard,
        &vec![
            Cond::Cmp {
                op: CmpOp::Lt,
                lhs: n.clone(),
                rhs: Operand::Int(0)
            },
            Cond::Cmp {
                op: CmpOp::Ne,
                lhs: s.clone(),
                rhs: Operand::Null
            },
            Cond::InstanceOf {
                value: s.clone(),
                class: "java/lang/String".into(),
                negated: false
            },
            Cond::InstanceOf {
                value: s,
                class: "a b".into(),
                negated: true
            },
        ]
    );
    let ops: Vec<CmpOp> = program.methods[0].procs[0].rules[1]
        .guard
        .iter()
        .filter_map(|c| match c {
            Cond::Cmp { op, .. } => Some(*op),
            _ => None,
        })
        .collect();
    assert_eq!(ops, vec![CmpOp::Ge, CmpOp::Le, CmpOp::Eq, CmpOp::Gt, CmpOp::Eq]);
}

#[test]
fn operands_are_decoded() {
    let program = parse_program(EVERY_FORM).unwrap();
    let sources: Vec<Operand> = main_rules(&program)[0]
        .iter()
        .map(|kind| match kind {
            StmtKind::Assign { src, .. } => src.clone(),
            other => panic!("not an assignment: {other:?}"),
        })
        .collect();
    assert_eq!(
        sources,
        vec![
            Operand::Var(VarId(0)),
            Operand::Int(i32::MIN),
            Operand::Long(i64::MAX),
            Operand::Long(i64::MIN),
            Operand::Float(1.5f32.to_bits()),
            Operand::Float((-0.0f32).to_bits()),
            Operand::Float(1e-7f32.to_bits()),
            Operand::Float(0x7fc0_0001),
            Operand::Float(1),
            Operand::Double(std::f64::consts::PI.to_bits()),
            Operand::Double(0x7ff8_0000_0000_0000),
            Operand::Double((-f64::MAX).to_bits()),
            Operand::Double(f64::NEG_INFINITY.to_bits()),
            Operand::Null,
            Operand::Str("tab\there \"q\" back\\slash \n\r \u{1} \u{7f} ünï \u{85}".into()),
            Operand::Class("java/lang/String".into()),
            Operand::Class("[Ljava/lang/String;".into()),
            Operand::Class("weird name".into()),
            Operand::Str(String::new()),
            Operand::Int(0),
        ]
    );
}

#[test]
fn mnemonics_are_decoded() {
    let program = parse_program(EVERY_FORM).unwrap();
    let rules = main_rules(&program);
    let binaries: Vec<(BinOp, Ty)> = rules[1]
        .iter()
        .filter_map(|kind| match kind {
            StmtKind::Binary { op, ty, .. } => Some((*op, *ty)),
            _ => None,
        })
        .collect();
    use BinOp::*;
    use Ty::*;
    assert_eq!(
        binaries,
        vec![
            (Add, Int),
            (Sub, Int),
            (Mul, Long),
            (Div, Int),
            (Rem, Long),
            (And, Int),
            (Or, Int),
            (Xor, Long),
            (Shl, Int),
            (Shr, Long),
            (Ushr, Long),
            (Cmp, Long),
            (CmpL, Float),
            (CmpG, Float),
            (CmpL, Double),
            (CmpG, Double),
            (Add, Float),
            (Div, Double),
        ]
    );
    let unaries: Vec<(UnOp, Ty)> = rules[1]
        .iter()
        .filter_map(|kind| match kind {
            StmtKind::Unary { op, from, .. } => Some((*op, *from)),
            _ => None,
        })
        .collect();
    use UnOp::*;
    assert_eq!(
        unaries,
        vec![
            (Convert, Int),
            (Convert, Double),
            (Convert, Float),
            (Convert, Long),
            (IntToByte, Int),
            (IntToChar, Int),
            (IntToShort, Int),
            (Neg, Long),
            (Neg, Double),
            (Neg, Int),
            (Neg, Float),
        ]
    );
    let elems: Vec<ElemTy> = rules[1]
        .iter()
        .chain(&rules[2])
        .filter_map(|kind| match kind {
            StmtKind::ArrayLoad { elem, .. } | StmtKind::ArrayStore { elem, .. } => Some(*elem),
            _ => None,
        })
        .collect();
    use ElemTy as E;
    let all = [E::Int, E::Long, E::Float, E::Double, E::Ref, E::Byte, E::Char, E::Short];
    assert_eq!(elems, all.iter().chain(&all).copied().collect::<Vec<_>>());
}

#[test]
fn invocations_are_decoded() {
    let program = parse_program(EVERY_FORM).unwrap();
    let invokes: Vec<(Option<VarId>, CallKind, bool, String, usize)> = main_rules(&program)[2]
        .iter()
        .filter_map(|kind| match kind {
            StmtKind::Invoke {
                dst,
                kind,
                interface,
                method,
                args,
            } => Some((
                *dst,
                *kind,
                *interface,
                format!("{}.{}:{}", method.class, method.name, method.descriptor),
                args.len(),
            )),
            _ => None,
        })
        .collect();
    let o = Some(VarId(5));
    let r = Some(VarId(7));
    use CallKind::*;
    assert_eq!(
        invokes,
        vec![
            (None, Special, false, "java/lang/StringBuilder.<init>:()V".into(), 1),
            (
                o,
                Virtual,
                false,
                "java/lang/StringBuilder.append:(I)Ljava/lang/StringBuilder;".into(),
                2
            ),
            (r, Interface, true, "java/util/List.size:()I".into(), 1),
            (o, Static, true, "java/util/List.of:()Ljava/util/List;".into(), 0),
            (None, Special, true, "demo/I.m:()V".into(), 1),
            (
                r,
                Static,
                false,
                "java/util/Objects.hash:([Ljava/lang/Object;)I".into(),
                1
            ),
            (
                None,
                Static,
                false,
                "demo/All.take:(Ljava/lang/Class;Ljava/lang/Class;)V".into(),
                2
            ),
            (None, Static, false, "itf.m:()V".into(), 0),
        ]
    );
    let stmts = &program.methods[0].procs[0].rules[2].body;
    let find = |pc: u32| &stmts.iter().find(|s| s.pc == pc).unwrap().kind;
    let class = |name: &str| Operand::Class(name.into());
    match find(90) {
        StmtKind::Invoke { args, .. } => assert_eq!(args, &vec![class("[I"), class("Foo)")]),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        stmts.iter().find(|s| s.pc == 91).unwrap().handler,
        Some(HandlerEdge {
            proc: ProcId(2),
            args: vec![Operand::Var(VarId(11)), class("[Ljava/lang/String;")]
        })
    );
    assert_eq!(
        find(94),
        &StmtKind::Call {
            proc: ProcId(1),
            args: vec![Operand::Var(VarId(0)), Operand::Int(0), class("[Ljava/lang/String;")],
            outs: vec![VarId(13), VarId(14)],
        }
    );
    assert_eq!(
        find(95),
        &StmtKind::Call {
            proc: ProcId(1),
            args: vec![Operand::Var(VarId(0)), class("X;"), class("Y;")],
            outs: vec![VarId(13), VarId(14)],
        }
    );
    assert_eq!(
        find(104),
        &StmtKind::Call {
            proc: ProcId(3),
            args: vec![],
            outs: vec![]
        }
    );
    assert_eq!(
        find(92),
        &StmtKind::InvokeDynamic {
            dst: o,
            name: "makeConcatWithConstants".into(),
            descriptor: "(I)Ljava/lang/String;".into(),
            bootstrap: 0,
            args: vec![Operand::Var(VarId(0))],
        }
    );
    assert_eq!(
        find(103),
        &StmtKind::LoadConst {
            dst: VarId(5),
            value: OpaqueConst::Dynamic {
                name: "odd name".into(),
                descriptor: "odd desc".into()
            }
        }
    );
    assert_eq!(
        find(70),
        &StmtKind::PutStatic {
            field: FieldRef {
                class: "odd.Class".into(),
                name: "a field".into(),
                descriptor: "weird desc".into()
            },
            value: Operand::Str("value".into()),
        }
    );
}

#[test]
fn layout_comments_and_quoting_are_tolerated() {
    let text = "// A hand-written method.\n\n\
        method Demo.f:()I static   // trailing comment\n\
        //comment at the start of a line\n\
        \tvars x:int   y:int\n\n\
        \x20 entry p0\n\
        proc p0(; y) block @0 rule bc=2 when x < 3 // comment\n\
        \x20   @0#1 x = 1 @1#2 y = \"Demo\".\"f\":\"()I\"\n\
        // the end\n";
    // `"Demo"."f":"()I"` is not an operand: quoted names do not make the text valid elsewhere.
    assert!(parse_program(text).is_err());
    let text = text.replace("\"Demo\".\"f\":\"()I\"", "x");
    let program = parse_program(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        print_program(&program),
        "method Demo.f:()I static\n  vars x:int y:int\n  entry p0\n  proc p0(; y) block @0\n    rule bc=2 when x < 3\n      @0#1 x = 1\n      @1#2 y = x\n"
    );
    // Quoted names that could be bare are read as the same names.
    let quoted = "method \"Demo\".\"f\":\"()I\"\n  vars\n  entry p\n  proc p(; ) block @0\n    rule bc=0\n      @0#1 new \"java/lang/Object\"\n";
    assert!(parse_program(quoted).is_err(), "`new` needs a destination");
    let quoted = quoted.replace("vars", "vars o:ref").replace("@0#1 new", "@0#1 o = new");
    let program = parse_program(&quoted).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.methods[0].class, "Demo");
    assert_eq!(
        program.methods[0].procs[0].rules[0].body[0].kind,
        StmtKind::New {
            dst: VarId(0),
            class: "java/lang/Object".into()
        }
    );
}

#[test]
fn empty_programs_and_comment_only_texts_parse() {
    for text in ["", "\n\n", "// nothing here\n", "//nothing\n  // at all", "   \t\n// x"] {
        assert_eq!(parse_program(text), Ok(Program::default()), "{text:?}");
    }
}

#[test]
fn bare_names_with_slashes_are_not_comments() {
    let text =
        "method //a.//b://c\n  vars o:ref\n  entry p\n  proc p(; ) block @0\n    rule bc=1\n      @0#1 o = new //x\n";
    let program = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.methods[0].class, "//a");
    assert_eq!(program.methods[0].descriptor, "//c");
    // The printer quotes names that start with `//`, so the canonical text differs but reads back the same.
    let printed = print_program(&program);
    assert!(printed.starts_with("method \"//a\".\"//b\":\"//c\""), "{printed}");
    assert_eq!(parse_program(&printed), Ok(program));
}

#[test]
fn keywords_need_word_boundaries() {
    // `newFoo` is a variable, not `new Foo`; `itfA` is a class, not `itf A`; `nullx` is a variable.
    let text =
        "method A.f:()V\n  vars o:ref newFoo:ref nullx:ref\n  entry p\n  proc p(; ) block @0\n    rule bc=1\n      \
                @0#1 o = newFoo\n      @1#2 invokestatic itfA.m:()V (nullx, null)\n";
    let program = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    let body = &program.methods[0].procs[0].rules[0].body;
    assert_eq!(
        body[0].kind,
        StmtKind::Assign {
            dst: VarId(0),
            src: Operand::Var(VarId(1))
        }
    );
    match &body[1].kind {
        StmtKind::Invoke {
            interface,
            method,
            args,
            ..
        } => {
            assert!(!interface);
            assert_eq!(method.class, "itfA");
            assert_eq!(args, &vec![Operand::Var(VarId(2)), Operand::Null]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(print_program(&program), text);
}

#[test]
fn duplicate_names_resolve_to_their_first_declaration() {
    let text = "method A.f:()V\n  vars x:int x:long\n  entry p\n  proc p(x; ) block @0\n    rule bc=1\n      @0#1 call p(x; )\n  proc p(; ) block @1\n    rule bc=0\n";
    let program = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    let method = &program.methods[0];
    assert_eq!(method.procs[0].inputs, vec![VarId(0)]);
    assert_eq!(
        method.procs[0].rules[0].body[0].kind,
        StmtKind::Call {
            proc: ProcId(0),
            args: vec![Operand::Var(VarId(0))],
            outs: vec![]
        }
    );
    assert_eq!(print_program(&program), text);
    assert!(!verify_method(method).is_empty(), "the verifier reports the duplicates");
}

/// A method around one statement, with variables `i:int l:long f:float r:ref`, procedure `p`, and
/// the statement on line 6 from column 12.
fn with_stmt(stmt: &str) -> String {
    format!("method A.f:()V\n  vars i:int l:long f:float r:ref\n  entry p\n  proc p(; ) block @0\n    rule bc=1\n      @0#1 {stmt}\n")
}

#[test]
fn malformed_inputs_are_reported_where_they_are_malformed() {
    let cases: Vec<(String, usize, usize, &str)> = vec![
        // Name resolution.
        (with_stmt("i = q"), 6, 16, "unknown variable `q`"),
        (with_stmt("q = i"), 6, 12, "unknown variable `q`"),
        (with_stmt("call nowhere(; )"), 6, 17, "unknown procedure `nowhere`"),
        (with_stmt("i = iadd i, 1 catch h(r)"), 6, 32, "unknown procedure `h`"),
        (with_stmt("call p(; q)"), 6, 21, "unknown variable `q`"),
        (
            "method A.f:()V\n  vars\n  entry main\n".into(),
            3,
            9,
            "unknown procedure `main`",
        ),
        // Types the mnemonics imply.
        (
            with_stmt("i = i2l i"),
            6,
            16,
            "`i2l` produces long but the destination `i` is declared int",
        ),
        (
            with_stmt("l = ineg i"),
            6,
            16,
            "`ineg` produces int but the destination `l` is declared long",
        ),
        (with_stmt("l = i2b i"), 6, 16, "`i2b` produces int"),
        (
            with_stmt("f = d2i f"),
            6,
            16,
            "`d2i` produces int but the destination `f` is declared float",
        ),
        (with_stmt("invokevirtual itf A.m:()V (r)"), 6, 26, "`itf` only marks"),
        (with_stmt("invokeinterface itf A.m:()V (r)"), 6, 28, "`itf` only marks"),
        // Literals out of range.
        (with_stmt("i = 2147483648"), 6, 16, "out of range for int"),
        (with_stmt("i = -2147483649"), 6, 16, "out of range for int"),
        (with_stmt("l = 9223372036854775808L"), 6, 16, "out of range for long"),
        (
            with_stmt("i = 99999999999999999999999999999999999999999"),
            6,
            16,
            "out of range for int",
        ),
        (with_stmt("f = 1e39F"), 6, 16, "too large"),
        (with_stmt("f = 1e-50F"), 6, 16, "rounds to zero"),
        (
            with_stmt("f = 1e99999999999999999999999999D"),
            6,
            16,
            "double literal too large",
        ),
        (
            with_stmt("r = invokedynamic #65536 x:()V ()"),
            6,
            31,
            "bootstrap method index out of range",
        ),
        (
            with_stmt("i = i").replace("  vars", "  lines 0:1 4294967296:1\n  vars"),
            2,
            13,
            "number out of range",
        ),
        (
            with_stmt("i = i").replace("@0#1", "@0#99999999999"),
            6,
            10,
            "number out of range",
        ),
        (
            with_stmt("i = i").replace("block @0", "block @4294967296"),
            4,
            21,
            "number out of range",
        ),
        // Strings.
        (with_stmt("r = \"abc"), 6, 16, "unterminated string literal"),
        (with_stmt("r = \"abc\\\""), 6, 16, "unterminated string literal"),
        (with_stmt("r = \"a\\qb\""), 6, 18, "invalid escape `\\q`"),
        (
            with_stmt("r = \"ab\\u{d800}\""),
            6,
            19,
            "`\\u{d800}` is not a Unicode scalar value",
        ),
        (
            with_stmt("r = \"ab\\u{110000}\""),
            6,
            19,
            "is not a Unicode scalar value",
        ),
        (with_stmt("r = \"ab\\u{1234567}\""), 6, 19, "expected 1 to 6 hex digits"),
        (with_stmt("r = \"ab\\u{}\""), 6, 19, "expected 1 to 6 hex digits"),
        (with_stmt("r = \"ab\\u41\""), 6, 19, "expected 1 to 6 hex digits"),
        (with_stmt("r = \"ab\\u{41\""), 6, 19, "expected 1 to 6 hex digits"),
        (with_stmt("r = \"ab\\u{4g}\""), 6, 19, "expected 1 to 6 hex digits"),
        (with_stmt("r = \"é\\x\""), 6, 18, "invalid escape `\\x`"),
        // Syntax.
        (
            with_stmt("call p(; "),
            7,
            1,
            "expected a variable or `)`, found end of input",
        ),
        (with_stmt("call p(i, ; )"), 6, 22, "expected an operand, found `;`"),
        (with_stmt("i = iadd i 1"), 6, 23, "expected `,`, found `1`"),
        (with_stmt("frobnicate i"), 6, 23, "expected `=`, found `i`"),
        (
            with_stmt("i = 1.5"),
            6,
            16,
            "expected an instruction, an operand or `instanceof`, found `1.5`",
        ),
        (with_stmt("i = newarray integer, 3"), 6, 25, "a primitive type"),
        (
            with_stmt("i = ldc string \"x\""),
            6,
            20,
            "a loadable constant (methodtype, methodhandle, dynamic)",
        ),
        (with_stmt("i = i\n      garbage"), 7, 7, "found `garbage`"),
        (
            with_stmt("i = i").replace("rule bc=1", "rule bc=x"),
            5,
            13,
            "expected a number, found `x`",
        ),
        (
            with_stmt("i = i").replace("block", "blob"),
            4,
            14,
            "expected a procedure kind",
        ),
        (
            with_stmt("i = i").replace("  vars i:int l:long f:float r:ref\n", ""),
            2,
            3,
            "found `entry`",
        ),
        (
            with_stmt("i = i").replace("vars i:int", "vars i:integer"),
            2,
            10,
            "expected a type",
        ),
        (with_stmt("i = i").replace("entry p", "entry p q"), 3, 11, "found `q`"),
        (
            "methodA.f:()V\n".into(),
            1,
            1,
            "expected `method`, found `methodA.f:()V`",
        ),
        ("hello".into(), 1, 1, "expected `method`, found `hello`"),
        (
            "method A.f:()V\n  source Foo.java\n".into(),
            2,
            10,
            "expected a string, found `Foo.java`",
        ),
        ("method A.f()V\n".into(), 1, 14, "expected `:`, found end of line"),
    ];
    let mut failures = Vec::new();
    for (text, line, column, message) in cases {
        match parse_program(&text) {
            Ok(program) => failures.push(format!("parsed {text:?} as {program:?}")),
            Err(error) => {
                if !(error.line == line && error.column == column && error.message.contains(message)) {
                    failures.push(format!("{text:?}: expected {line}:{column} `{message}`, got {error}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_in_later_methods_have_absolute_positions() {
    let one = with_stmt("i = i");
    let text = format!("{one}{one}{}", with_stmt("i = j"));
    let error = parse_program(&text).unwrap_err();
    assert_eq!((error.line, error.column), (18, 16), "{error}");
    assert_eq!(error.to_string(), "line 18, column 16: unknown variable `j`");
}

#[test]
fn lifter_goldens_round_trip() {
    // The lifter's golden outputs (in the root crate's test data) are printer output for real
    // classes.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/lift");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "ir") {
            let text = std::fs::read_to_string(&path).unwrap();
            let program = parse_program(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(print_program(&program), text, "{}", path.display());
            for method in &program.methods {
                let errors = verify_method(method);
                assert!(
                    errors.is_empty(),
                    "{}: {}: {errors:?}",
                    path.display(),
                    method.display_name()
                );
            }
        }
    }
}

#[test]
fn crlf_line_ends_and_tabs_are_layout() {
    let expected = parse_program(EVERY_FORM).unwrap();
    let crlf = EVERY_FORM.replace('\n', "\r\n");
    assert_eq!(parse_program(&crlf), Ok(expected.clone()));
    let tabs = EVERY_FORM.replace("      @", "\t\t@").replace(", ", ",\t");
    assert_eq!(parse_program(&tabs), Ok(expected));
}
