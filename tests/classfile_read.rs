//! Tests of the classfile front end against classes compiled by `javac -g` at test time, classes
//! assembled by hand, jars, directories and the JDK's `java.base.jmod`.

use crate::classfile_support as support;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use jresa::classfile::{
    parse_class, read_inputs, ClassFile, ClassPath, Code, Condition, Constant, ElementValue, InputError, Insn,
    InvokeKind, Kind, Method, PrimitiveType,
};
use rayon::prelude::*;
use support::{
    class_files, fixture_sources, javac, run_tool, shared_directory, ClassAssembler, TempDir, JAVA_BASE_JMOD,
};

/// How many locals the generated `ManyLocals.many` declares (slot 0 holds the parameter).
const MANY_LOCALS: usize = 300;
/// How many statements the generated `BigMethod.spin` loop body holds: enough for more than 32 KiB
/// of bytecode, which makes javac use `goto_w`.
const BIG_METHOD_STATEMENTS: usize = 4200;

/// The compiled fixtures, shared by every test in this binary.
struct Fixtures {
    /// Classes compiled for Java 17 (Sample, Budget, Visible, ManyLocals, BigMethod).
    classes: PathBuf,
    /// `Legacy` compiled with `--release 7`.
    legacy: PathBuf,
    /// The fixture sources' directory (for line numbers).
    sources: PathBuf,
}

fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let root = shared_directory("read");
        let generated = root.join("generated");
        std::fs::create_dir_all(generated.join("fixtures")).unwrap();
        let many_locals = generated.join("fixtures/ManyLocals.java");
        std::fs::write(&many_locals, many_locals_source()).unwrap();
        let big_method = generated.join("fixtures/BigMethod.java");
        std::fs::write(&big_method, big_method_source()).unwrap();

        let sources = fixture_sources().join("fixtures");
        let classes = root.join("classes");
        javac(
            &classes,
            &[
                sources.join("Sample.java"),
                sources.join("Budget.java"),
                sources.join("Visible.java"),
                many_locals,
                big_method,
            ],
            &[],
        );
        let legacy = root.join("legacy");
        javac(&legacy, &[sources.join("Legacy.java")], &["--release", "7"]);
        Fixtures {
            classes,
            legacy,
            sources,
        }
    })
}

fn many_locals_source() -> String {
    let mut source =
        String::from("package fixtures;\n\npublic class ManyLocals {\n    public static int many(int p) {\n");
    source.push_str("        int v0 = p;\n");
    for index in 1..MANY_LOCALS {
        source.push_str(&format!("        int v{index} = v{} + 1;\n", index - 1));
    }
    let last = MANY_LOCALS - 1;
    source.push_str(&format!(
        "        v{last} += 5;\n        v{last} += 1000;\n        return v{last};\n    }}\n}}\n"
    ));
    source
}

fn big_method_source() -> String {
    let mut source = String::from(
        "package fixtures;\n\npublic class BigMethod {\n    public static int spin(int rounds) {\n        int t = 0;\n        for (int i = 0; i < rounds; i++) {\n",
    );
    for _ in 0..BIG_METHOD_STATEMENTS {
        source.push_str("            t = t * 31 + 7;\n");
    }
    source.push_str("        }\n        return t;\n    }\n}\n");
    source
}

fn parse_file(path: &Path) -> ClassFile {
    let bytes = std::fs::read(path).unwrap();
    parse_class(&bytes, &path.display().to_string()).unwrap_or_else(|error| panic!("{error}"))
}

fn fixture_class(name: &str) -> ClassFile {
    parse_file(&fixtures().classes.join(format!("fixtures/{name}.class")))
}

fn method<'class>(class: &'class ClassFile, name: &str) -> &'class Method {
    class
        .methods
        .iter()
        .find(|method| method.name == name)
        .unwrap_or_else(|| panic!("no method {name} in {}", class.name))
}

fn code<'class>(class: &'class ClassFile, name: &str) -> &'class Code {
    match &method(class, name).code {
        Some(Ok(code)) => code,
        other => panic!("method {name} has no decodable code: {other:?}"),
    }
}

fn insn_at(code: &Code, pc: u32) -> &Insn {
    &code
        .instructions
        .iter()
        .find(|instruction| instruction.pc == pc)
        .unwrap_or_else(|| panic!("no instruction at pc {pc}"))
        .insn
}

/// The 1-based line of the first source line containing `needle`.
fn source_line(file: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(fixtures().sources.join(file)).unwrap();
    let index = text.lines().position(|line| line.contains(needle)).unwrap();
    index as u32 + 1
}

fn branch_targets(insn: &Insn) -> Vec<u32> {
    match insn {
        Insn::IfZero(_, target)
        | Insn::IfICmp(_, target)
        | Insn::IfACmp(_, target)
        | Insn::IfNull(target)
        | Insn::IfNonNull(target)
        | Insn::Goto(target)
        | Insn::Jsr(target) => vec![*target],
        Insn::TableSwitch { default, targets, .. } => {
            std::iter::once(*default).chain(targets.iter().copied()).collect()
        }
        Insn::LookupSwitch { default, pairs } => std::iter::once(*default)
            .chain(pairs.iter().map(|(_, target)| *target))
            .collect(),
        _ => Vec::new(),
    }
}

/// Checks the structural promises of the model on one class: pcs strictly increasing and inside
/// the code, branch targets and handlers on instruction pcs, line numbers sorted.
fn check_invariants(class: &ClassFile) -> Result<(), String> {
    for method in &class.methods {
        let context = || format!("{} {}{}", class.origin, method.name, method.descriptor);
        let code = match &method.code {
            None => continue,
            Some(Err(error)) => return Err(format!("{}: code error {error:?}", context())),
            Some(Ok(code)) => code,
        };
        if code.instructions.is_empty() {
            return Err(format!("{}: no instructions", context()));
        }
        let pcs: BTreeSet<u32> = code.instructions.iter().map(|instruction| instruction.pc).collect();
        for pair in code.instructions.windows(2) {
            if pair[0].pc >= pair[1].pc {
                return Err(format!(
                    "{}: pc {} is followed by pc {}",
                    context(),
                    pair[0].pc,
                    pair[1].pc
                ));
            }
        }
        if code.instructions.last().unwrap().pc >= code.code_length {
            return Err(format!("{}: an instruction lies past the end of the code", context()));
        }
        for instruction in &code.instructions {
            for target in branch_targets(&instruction.insn) {
                if !pcs.contains(&target) {
                    return Err(format!(
                        "{}: branch at {} targets {target}, which is not an instruction",
                        context(),
                        instruction.pc
                    ));
                }
            }
        }
        for handler in &code.exception_table {
            let ends_well = handler.end == code.code_length || pcs.contains(&handler.end);
            if !pcs.contains(&handler.start) || !ends_well || !pcs.contains(&handler.handler) {
                return Err(format!("{}: bad exception handler {handler:?}", context()));
            }
        }
        if code.line_numbers.windows(2).any(|pair| pair[0].0 > pair[1].0) {
            return Err(format!("{}: line numbers are not sorted by pc", context()));
        }
    }
    Ok(())
}

#[test]
fn class_structure_and_method_descriptors() {
    let sample = fixture_class("Sample");
    assert_eq!(sample.name, "fixtures/Sample");
    assert_eq!(sample.super_name.as_deref(), Some("java/lang/Object"));
    assert_eq!(sample.major_version, 61);
    assert_eq!(sample.source_file.as_deref(), Some("Sample.java"));
    assert!(sample.origin.ends_with("Sample.class"));
    let signatures: BTreeSet<String> = sample
        .methods
        .iter()
        .map(|method| format!("{}{}", method.name, method.descriptor))
        .collect();
    for expected in [
        "<init>()V",
        "dense(I)I",
        "sparse(I)I",
        "guarded(Ljava/lang/String;)I",
        "constants()J",
        "adder(I)Ljava/util/function/IntUnaryOperator;",
        "callInterface(Lfixtures/Sample$Shape;)D",
        "locked()V",
        "grid(I)[[I",
    ] {
        assert!(signatures.contains(expected), "missing {expected} in {signatures:?}");
    }
    assert!(method(&sample, "locked").access & 0x0020 != 0, "locked is synchronized");
    let fields: Vec<(&str, &str)> = sample
        .fields
        .iter()
        .map(|field| (field.name.as_str(), field.descriptor.as_str()))
        .collect();
    assert_eq!(fields, [("counter", "I"), ("finallyCount", "I")]);

    let shape = fixture_class("Sample$Shape");
    assert!(shape.access & 0x0200 != 0, "Shape is an interface");
    assert!(method(&shape, "area").code.is_none(), "an abstract method has no code");
    let base = fixture_class("Sample$Base");
    assert!(method(&base, "hook").code.is_none());
    assert!(method(&base, "nativeHook").code.is_none());
    check_invariants(&sample).unwrap();
}

#[test]
fn tableswitch_and_lookupswitch_targets() {
    let sample = fixture_class("Sample");
    let dense = code(&sample, "dense");
    assert_eq!(dense.instructions[0].insn, Insn::Load(Kind::Int, 0));
    let (default, low, high, targets) = dense
        .instructions
        .iter()
        .find_map(|instruction| match &instruction.insn {
            Insn::TableSwitch {
                default,
                low,
                high,
                targets,
            } => Some((*default, *low, *high, targets.clone())),
            _ => None,
        })
        .expect("dense has a tableswitch");
    assert_eq!((low, high), (1, 4));
    assert_eq!(targets.len(), 4);
    for (case, target) in targets.iter().enumerate() {
        assert_eq!(
            *insn_at(dense, *target),
            Insn::IConst(10 * (case as i32 + 1)),
            "case {}",
            case + 1
        );
    }
    assert_eq!(*insn_at(dense, default), Insn::IConst(-1));

    let sparse = code(&sample, "sparse");
    let (default, pairs) = sparse
        .instructions
        .iter()
        .find_map(|instruction| match &instruction.insn {
            Insn::LookupSwitch { default, pairs } => Some((*default, pairs.clone())),
            _ => None,
        })
        .expect("sparse has a lookupswitch");
    let keys: Vec<i32> = pairs.iter().map(|(key, _)| *key).collect();
    assert_eq!(keys, [-1000, 7, 100000]);
    for (result, (_, target)) in pairs.iter().enumerate() {
        assert_eq!(*insn_at(sparse, *target), Insn::IConst(result as i32 + 1));
    }
    assert_eq!(*insn_at(sparse, default), Insn::IConst(0));
}

#[test]
fn exception_table_with_catch_types_and_finally() {
    let sample = fixture_class("Sample");
    let guarded = code(&sample, "guarded");
    let catch_types: Vec<Option<&str>> = guarded
        .exception_table
        .iter()
        .map(|handler| handler.catch_type.as_deref())
        .collect();
    for expected in [
        Some("java/lang/NumberFormatException"),
        Some("java/lang/IllegalStateException"),
        Some("java/lang/UnsupportedOperationException"),
        None,
    ] {
        assert!(
            catch_types.contains(&expected),
            "{expected:?} missing from {catch_types:?}"
        );
    }
    // The first entry is the NumberFormatException handler, which stores the exception.
    let first = &guarded.exception_table[0];
    assert_eq!(first.catch_type.as_deref(), Some("java/lang/NumberFormatException"));
    assert!(first.start < first.end);
    assert_eq!(*insn_at(guarded, first.handler), Insn::Store(Kind::Reference, 1));
    assert!(guarded
        .instructions
        .iter()
        .any(|instruction| instruction.insn == Insn::AThrow));
}

#[test]
fn line_numbers_and_local_variables() {
    let sample = fixture_class("Sample");
    let dense = code(&sample, "dense");
    let switch_line = source_line("Sample.java", "// dense-switch");
    assert_eq!(dense.line_numbers.first(), Some(&(0, switch_line)));
    let return_line = source_line("Sample.java", "case 2: return 20;");
    assert!(dense.line_numbers.iter().any(|(_, line)| *line == return_line));

    let constants = code(&sample, "constants");
    let locals: Vec<(&str, &str, u16)> = constants
        .local_variables
        .iter()
        .map(|local| (local.name.as_str(), local.descriptor.as_str(), local.index))
        .collect();
    for expected in [
        ("this", "Lfixtures/Sample;", 0),
        ("text", "Ljava/lang/String;", 1),
        ("type", "Ljava/lang/Class;", 2),
        ("big", "J", 3),
        ("ratio", "D", 5),
        ("scale", "F", 7),
        ("large", "I", 8),
    ] {
        assert!(locals.contains(&expected), "{expected:?} missing from {locals:?}");
    }
    let this = &constants.local_variables[0];
    assert_eq!((this.start, this.length), (0, constants.code_length));
}

#[test]
fn ldc_constants_and_shorthand_forms() {
    let sample = fixture_class("Sample");
    let constants = code(&sample, "constants");
    let loaded: Vec<&Constant> = constants
        .instructions
        .iter()
        .filter_map(|instruction| match &instruction.insn {
            Insn::Ldc(constant) => Some(constant),
            _ => None,
        })
        .collect();
    for expected in [
        Constant::String("hello, jresa".to_owned()),
        Constant::Class("java/util/ArrayList".to_owned()),
        Constant::Long(123456789012345),
        Constant::Double(6.02214076e23),
        Constant::Float(3.5),
        Constant::Int(1000000),
    ] {
        assert!(loaded.contains(&&expected), "{expected:?} missing from {loaded:?}");
    }
    let insns: Vec<&Insn> = constants
        .instructions
        .iter()
        .map(|instruction| &instruction.insn)
        .collect();
    assert!(insns.contains(&&Insn::Store(Kind::Long, 3)));
    assert!(insns.contains(&&Insn::Load(Kind::Double, 5)));
    assert!(insns.contains(&&Insn::Convert(Kind::Double, Kind::Long)));
    assert!(insns.contains(&&Insn::Return(Some(Kind::Long))));

    let grid = code(&sample, "grid");
    let insns: Vec<&Insn> = grid.instructions.iter().map(|instruction| &instruction.insn).collect();
    assert!(insns.contains(&&Insn::NewArray(PrimitiveType::Long)));
    assert!(insns.contains(&&Insn::ANewArray("java/lang/String".to_owned())));
    assert!(insns.contains(&&Insn::MultiANewArray("[[I".to_owned(), 2)));
    assert!(insns.contains(&&Insn::ArrayLength));

    let locked = code(&sample, "locked");
    let insns: Vec<&Insn> = locked
        .instructions
        .iter()
        .map(|instruction| &instruction.insn)
        .collect();
    assert!(insns.contains(&&Insn::MonitorEnter));
    assert!(insns.contains(&&Insn::MonitorExit));
    assert!(insns
        .iter()
        .any(|insn| matches!(insn, Insn::GetField(field) if field.name == "counter")));
    assert!(insns.contains(&&Insn::IConst(1)));
}

#[test]
fn invokedynamic_and_invokeinterface() {
    let sample = fixture_class("Sample");
    let adder = code(&sample, "adder");
    let dynamic = adder
        .instructions
        .iter()
        .find_map(|instruction| match &instruction.insn {
            Insn::InvokeDynamic {
                name,
                descriptor,
                bootstrap_index,
            } => Some((name.clone(), descriptor.clone(), *bootstrap_index)),
            _ => None,
        })
        .expect("the lambda is created by invokedynamic");
    assert_eq!(dynamic.0, "applyAsInt");
    assert_eq!(dynamic.1, "(I)Ljava/util/function/IntUnaryOperator;");
    // The lambda body is a synthetic method of the class.
    assert!(sample
        .methods
        .iter()
        .any(|method| method.name.starts_with("lambda$adder$")));

    let call = code(&sample, "callInterface");
    let invoke = call
        .instructions
        .iter()
        .find_map(|instruction| match &instruction.insn {
            Insn::Invoke(kind, method) => Some((*kind, method.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(invoke.0, InvokeKind::Interface);
    assert_eq!(invoke.1.class, "fixtures/Sample$Shape");
    assert_eq!(invoke.1.name, "area");
    assert_eq!(invoke.1.descriptor, "()D");
    assert!(invoke.1.interface);

    let constructor = code(&sample, "<init>");
    assert!(constructor.instructions.iter().any(|instruction| matches!(
        &instruction.insn,
        Insn::Invoke(InvokeKind::Special, method)
            if method.class == "java/lang/Object" && method.name == "<init>" && !method.interface
    )));
}

#[test]
fn class_retention_annotations_are_invisible_with_element_values() {
    let sample = fixture_class("Sample");
    let budget = sample
        .annotations
        .iter()
        .find(|annotation| annotation.type_descriptor == "Lfixtures/Budget;")
        .expect("class annotation");
    assert!(!budget.visible, "CLASS retention is RuntimeInvisibleAnnotations");
    assert_eq!(
        budget.elements,
        vec![
            ("calls".to_owned(), ElementValue::Int('I', 3)),
            ("unit".to_owned(), ElementValue::String("bytes".to_owned())),
            (
                "limits".to_owned(),
                ElementValue::Array(vec![ElementValue::Long(1), ElementValue::Long(2)])
            ),
            (
                "scope".to_owned(),
                ElementValue::Enum {
                    type_descriptor: "Ljava/lang/annotation/ElementType;".to_owned(),
                    constant: "TYPE".to_owned(),
                }
            ),
            ("owner".to_owned(), ElementValue::Class("Ljava/lang/String;".to_owned())),
        ]
    );
    let visible = sample
        .annotations
        .iter()
        .find(|annotation| annotation.type_descriptor == "Lfixtures/Visible;")
        .expect("runtime-visible class annotation");
    assert!(visible.visible);
    assert_eq!(
        visible.elements,
        vec![("value".to_owned(), ElementValue::String("on the class".to_owned()))]
    );

    let constants = method(&sample, "constants");
    let method_budget = constants
        .annotations
        .iter()
        .find(|annotation| annotation.type_descriptor == "Lfixtures/Budget;")
        .expect("method annotation");
    assert!(!method_budget.visible);
    assert_eq!(
        method_budget.elements,
        vec![
            ("calls".to_owned(), ElementValue::Int('I', 7)),
            ("unit".to_owned(), ElementValue::String("ms".to_owned())),
        ]
    );
    assert!(constants
        .annotations
        .iter()
        .any(|annotation| annotation.visible && annotation.type_descriptor == "Lfixtures/Visible;"));

    let counter = sample.fields.iter().find(|field| field.name == "counter").unwrap();
    assert_eq!(counter.annotations.len(), 1);
    assert_eq!(
        counter.annotations[0].elements,
        vec![("calls".to_owned(), ElementValue::Int('I', 1))]
    );
}

#[test]
fn wide_instructions_from_a_method_with_many_locals() {
    let class = fixture_class("ManyLocals");
    let many = code(&class, "many");
    assert!(many.max_locals as usize > 255);
    let last_slot = MANY_LOCALS as u16;
    let insns: Vec<&Insn> = many.instructions.iter().map(|instruction| &instruction.insn).collect();
    assert!(
        insns.contains(&&Insn::IInc(last_slot, 5)),
        "wide iinc with a small delta"
    );
    assert!(
        insns.contains(&&Insn::IInc(last_slot, 1000)),
        "wide iinc with a 16-bit delta"
    );
    assert!(insns.contains(&&Insn::Store(Kind::Int, last_slot)), "wide istore");
    assert_eq!(
        many.instructions[many.instructions.len() - 2].insn,
        Insn::Load(Kind::Int, last_slot)
    );
    // Slots below 256 still use the one-byte forms, and the wide forms are four or six bytes long.
    let wide_iinc = many
        .instructions
        .iter()
        .position(|instruction| instruction.insn == Insn::IInc(last_slot, 5))
        .unwrap();
    assert_eq!(many.instructions[wide_iinc + 1].pc - many.instructions[wide_iinc].pc, 6);
    check_invariants(&class).unwrap();
}

#[test]
fn goto_w_in_a_method_longer_than_32_kib() {
    let class = fixture_class("BigMethod");
    let spin = code(&class, "spin");
    assert!(spin.code_length > 32767);
    let long_backward_jump = spin.instructions.iter().any(|instruction| match instruction.insn {
        Insn::Goto(target) => target < instruction.pc && instruction.pc - target > 32767,
        _ => false,
    });
    assert!(long_backward_jump, "the loop's back edge is a goto_w");
    check_invariants(&class).unwrap();
}

#[test]
fn older_classfile_version() {
    let legacy = parse_file(&fixtures().legacy.join("fixtures/Legacy.class"));
    assert_eq!(legacy.major_version, 51);
    let sum = code(&legacy, "sum");
    assert!(sum
        .instructions
        .iter()
        .any(|instruction| matches!(instruction.insn, Insn::IfICmp(Condition::Ge, _))));
    check_invariants(&legacy).unwrap();
}

/// Assembles a Java 5 class with `jsr`, `wide ret`, `goto_w`, method-handle and method-type
/// constants, odd modified UTF-8 strings, and one method with an invalid opcode.
fn handmade_class() -> Vec<u8> {
    let mut assembler = ClassAssembler::new("Handmade", 49);
    let run = assembler.method_ref("Handmade", "run", "()V");
    let handle = assembler.method_handle(6, run);
    let method_type = assembler.method_type("(I)J");
    // "a" NUL "b" (NUL as C0 80), a lone high surrogate, then a surrogate pair for U+1F600.
    let odd = assembler.utf8_bytes(b"a\xC0\x80b\xED\xA0\x80!\xED\xA0\xBD\xED\xB8\x80");
    let odd_string = assembler.string(odd);
    let source_file = assembler.utf8_bytes(b"Hand\xED\xB0\x80made.java");
    assert!(handle < 256 && method_type < 256 && odd_string < 256);
    #[rustfmt::skip]
    let code = [
        0xa8, 0x00, 0x08,             // 0: jsr 8
        0xc8, 0x00, 0x00, 0x00, 0x11, // 3: goto_w 20
        0x4b,                         // 8: astore_0
        0x12, handle as u8,           // 9: ldc MethodHandle
        0x57,                         // 11: pop
        0x12, method_type as u8,      // 12: ldc MethodType
        0x57,                         // 14: pop
        0xc4, 0xa9, 0x01, 0x2c,       // 15: wide ret 300
        0x00,                         // 19: nop
        0x12, odd_string as u8,       // 20: ldc String
        0x57,                         // 22: pop
        0xb1,                         // 23: return
    ];
    assembler.method("run", "()V", 301, &code);
    assembler.method("broken", "()V", 1, &[0x00, 0xff]);
    assembler.method("jumpsIntoOperand", "()V", 1, &[0xa7, 0x00, 0x01, 0xb1]);
    assembler.finish(Some(source_file))
}

#[test]
fn handmade_jsr_ret_goto_w_constants_and_strings() {
    let class = parse_class(&handmade_class(), "Handmade.class").unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(class.major_version, 49);
    assert_eq!(class.source_file.as_deref(), Some("Hand\u{FFFD}made.java"));
    let run = code(&class, "run");
    let insns: Vec<(u32, &Insn)> = run
        .instructions
        .iter()
        .map(|instruction| (instruction.pc, &instruction.insn))
        .collect();
    assert_eq!(insns[0], (0, &Insn::Jsr(8)));
    assert_eq!(insns[1], (3, &Insn::Goto(20)));
    assert_eq!(insns[2], (8, &Insn::Store(Kind::Reference, 0)));
    assert_eq!(
        insns[3],
        (
            9,
            &Insn::Ldc(Constant::MethodHandle("invokestatic Handmade.run:()V".to_owned()))
        )
    );
    assert_eq!(insns[5], (12, &Insn::Ldc(Constant::MethodType("(I)J".to_owned()))));
    assert_eq!(insns[7], (15, &Insn::Ret(300)));
    assert_eq!(insns[8], (19, &Insn::Nop));
    assert_eq!(
        insns[9],
        (20, &Insn::Ldc(Constant::String("a\0b\u{FFFD}!\u{1F600}".to_owned())))
    );
    assert_eq!(insns[11], (23, &Insn::Return(None)));
    assert_eq!(run.code_length, 24);

    let broken = method(&class, "broken");
    let error = broken.code.as_ref().unwrap().as_ref().unwrap_err();
    assert_eq!(error.offset, Some(1));
    assert!(error.message.contains("0xff"), "{}", error.message);
    let into_operand = method(&class, "jumpsIntoOperand")
        .code
        .as_ref()
        .unwrap()
        .as_ref()
        .unwrap_err();
    assert_eq!(into_operand.offset, Some(0));
    assert!(into_operand.message.contains("not the start of an instruction"));
}

#[test]
fn version_and_header_errors() {
    let mut bytes = handmade_class();
    bytes[7] = 66;
    let error = parse_class(&bytes, "pkg/Future.class").unwrap_err();
    assert_eq!(error.origin, "pkg/Future.class");
    assert!(error.message.contains("66.0"), "{error}");
    bytes[7] = 44;
    assert!(parse_class(&bytes, "pkg/Ancient.class").is_err());
    bytes[7] = 45;
    assert!(parse_class(&bytes, "pkg/Old.class").is_ok());
    bytes[7] = 65;
    assert!(parse_class(&bytes, "pkg/New.class").is_ok());
    assert!(parse_class(b"", "empty").is_err());
    assert!(parse_class(b"PK\x03\x04 not a class", "zip").is_err());
    let truncated = handmade_class();
    for length in [8, 9, 10, 20, truncated.len() - 1] {
        assert!(parse_class(&truncated[..length], "short").is_err(), "length {length}");
    }
}

#[test]
fn input_error_display() {
    let error = InputError {
        origin: "path/Foo.class".to_owned(),
        method: Some("foo(I)V".to_owned()),
        offset: Some(12),
        message: "invalid opcode 0xff".to_owned(),
    };
    assert_eq!(
        error.to_string(),
        "path/Foo.class: method foo(I)V at offset 12: invalid opcode 0xff"
    );
    let plain = InputError::new("a.jar", "cannot open archive");
    assert_eq!(plain.to_string(), "a.jar: cannot open archive");
    let boxed: Box<dyn std::error::Error> = Box::new(plain);
    assert!(boxed.to_string().contains("a.jar"));
}

fn compiled_class_count() -> usize {
    class_files(&fixtures().classes).len()
}

#[test]
fn reads_a_directory_in_sorted_order() {
    let loaded = read_inputs(&[fixtures().classes.clone()]);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert_eq!(loaded.classes.len(), compiled_class_count());
    let origins: Vec<&str> = loaded.classes.iter().map(|class| class.origin.as_str()).collect();
    let mut sorted = origins.clone();
    sorted.sort();
    assert_eq!(origins, sorted);
    assert!(loaded.classes.iter().any(|class| class.name == "fixtures/Sample$Shape"));
}

#[test]
fn reads_a_jar_built_with_the_jar_tool() {
    let temporary = TempDir::new("jar");
    let jar = temporary.path().join("fixtures.jar");
    run_tool(
        "jar",
        &[
            "cf",
            &jar.display().to_string(),
            "-C",
            &fixtures().classes.display().to_string(),
            ".",
        ],
    );
    let loaded = read_inputs(std::slice::from_ref(&jar));
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert_eq!(loaded.classes.len(), compiled_class_count());
    let sample = loaded
        .classes
        .iter()
        .find(|class| class.name == "fixtures/Sample")
        .unwrap();
    assert_eq!(sample.origin, format!("{}!fixtures/Sample.class", jar.display()));

    let class_path = ClassPath::from_paths(&[jar]).unwrap();
    assert_eq!(class_path.len(), compiled_class_count());
    assert!(class_path.class_names().any(|name| name == "fixtures/ManyLocals"));
    let first = class_path.get("fixtures/Sample").unwrap();
    let second = class_path.get("fixtures/Sample").unwrap();
    assert!(Arc::ptr_eq(&first, &second), "classes are cached");
    assert!(class_path.get("fixtures/Missing").is_none());
}

#[test]
fn missing_and_corrupt_inputs_do_not_stop_the_others() {
    let temporary = TempDir::new("mixed");
    let corrupt = temporary.path().join("Corrupt.class");
    std::fs::write(&corrupt, b"\xCA\xFE\xBA\xBE\x00\x00\x00\x34\x00").unwrap();
    let bad_jar = temporary.path().join("bad.jar");
    std::fs::write(&bad_jar, b"PK\x03\x04 this is not really a zip").unwrap();
    let unknown = temporary.path().join("notes.txt");
    std::fs::write(&unknown, b"hello").unwrap();
    let missing = temporary.path().join("missing.jar");
    let inputs = vec![
        missing.clone(),
        corrupt.clone(),
        fixtures().classes.clone(),
        bad_jar.clone(),
        unknown.clone(),
    ];
    let loaded = read_inputs(&inputs);
    assert_eq!(loaded.classes.len(), compiled_class_count());
    let error_origins: Vec<&str> = loaded.errors.iter().map(|error| error.origin.as_str()).collect();
    assert_eq!(
        error_origins,
        [
            missing.display().to_string(),
            corrupt.display().to_string(),
            bad_jar.display().to_string(),
            unknown.display().to_string()
        ]
    );
}

#[test]
fn java_base_jmod_reads_completely_with_valid_structure() {
    let loaded = read_inputs(&[PathBuf::from(JAVA_BASE_JMOD)]);
    assert!(
        loaded.errors.is_empty(),
        "{:#?}",
        &loaded.errors[..loaded.errors.len().min(10)]
    );
    assert!(loaded.classes.len() > 5000, "only {} classes", loaded.classes.len());
    assert!(loaded.classes.iter().all(|class| class.name != "module-info"));
    let problems: Vec<String> = loaded
        .classes
        .par_iter()
        .filter_map(|class| check_invariants(class).err())
        .collect();
    assert!(problems.is_empty(), "{:#?}", &problems[..problems.len().min(10)]);
    let object = loaded
        .classes
        .iter()
        .find(|class| class.name == "java/lang/Object")
        .unwrap();
    assert_eq!(object.super_name, None);
    assert!(object.origin.ends_with("java.base.jmod!classes/java/lang/Object.class"));
    let instructions: usize = loaded
        .classes
        .iter()
        .flat_map(|class| &class.methods)
        .filter_map(|method| method.code.as_ref()?.as_ref().ok())
        .map(|code| code.instructions.len())
        .sum();
    assert!(instructions > 1_000_000, "only {instructions} instructions");
}

#[test]
fn default_jdk_class_path_resolves_lazily_from_many_threads() {
    let class_path = ClassPath::default_jdk().unwrap();
    assert!(class_path.len() > 5000);
    assert!(!class_path.contains("module-info"));
    let object = class_path.get("java/lang/Object").unwrap();
    assert_eq!(object.super_name, None);
    let string = class_path.get("java/lang/String").unwrap();
    assert!(string.interfaces.iter().any(|name| name == "java/lang/CharSequence"));
    assert!(string
        .methods
        .iter()
        .any(|method| method.name == "length" && method.descriptor == "()I"));
    assert!(matches!(class_path.try_get("no/such/Class"), Ok(None)));

    let names: Vec<&str> = class_path
        .class_names()
        .filter(|name| name.starts_with("java/util/"))
        .collect();
    assert!(names.len() > 300);
    let loaded: Vec<Arc<ClassFile>> = names
        .par_iter()
        .chain(names.par_iter())
        .map(|name| class_path.get(name).unwrap())
        .collect();
    for (first, second) in loaded[..names.len()].iter().zip(&loaded[names.len()..]) {
        assert!(Arc::ptr_eq(first, second));
        assert_eq!(
            first.origin.split('!').nth(1).unwrap(),
            format!("classes/{}.class", first.name)
        );
    }

    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ClassPath>();
}

/// One instruction line of `javap -c` output: its pc, mnemonic and operand text.
#[derive(Debug)]
struct JavapLine {
    pc: u32,
    mnemonic: String,
    operands: String,
}

/// The instruction lines of `javap -c -p` over `files`, in output order (class by class, method
/// by method in classfile order).
fn javap_instructions(files: &[PathBuf]) -> Vec<JavapLine> {
    let mut arguments = vec!["-c".to_owned(), "-p".to_owned()];
    arguments.extend(files.iter().map(|file| file.display().to_string()));
    let output = std::process::Command::new("javap").args(&arguments).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = Vec::new();
    for line in text.lines() {
        let Some((pc, rest)) = line.trim_start().split_once(": ") else {
            continue;
        };
        if pc.is_empty() || !pc.bytes().all(|byte| byte.is_ascii_digit()) {
            continue;
        }
        let rest = rest.trim();
        let (mnemonic, operands) = rest.split_once(' ').unwrap_or((rest, ""));
        if !mnemonic.starts_with(|first: char| first.is_ascii_lowercase()) {
            continue;
        }
        lines.push(JavapLine {
            pc: pc.parse().unwrap(),
            mnemonic: mnemonic.to_owned(),
            operands: operands.trim().to_owned(),
        });
    }
    lines
}

/// javap's mnemonic without the `_<n>`, `_m1` and `_w` suffixes of the short and wide forms,
/// with `ldc2`, `bipush` and `sipush` folded into `ldc` and `iconst` as the model folds them.
fn javap_family(mnemonic: &str) -> String {
    let mut family = mnemonic.strip_suffix("_w").unwrap_or(mnemonic);
    if let Some((stem, suffix)) = family.rsplit_once('_') {
        if suffix == "m1" || suffix.bytes().all(|byte| byte.is_ascii_digit()) {
            family = stem;
        }
    }
    match family {
        "ldc2" => "ldc",
        "bipush" | "sipush" => "iconst",
        other => other,
    }
    .to_owned()
}

fn kind_letter(kind: Kind) -> &'static str {
    match kind {
        Kind::Int => "i",
        Kind::Long => "l",
        Kind::Float => "f",
        Kind::Double => "d",
        Kind::Reference => "a",
    }
}

fn condition_name(condition: Condition) -> &'static str {
    match condition {
        Condition::Eq => "eq",
        Condition::Ne => "ne",
        Condition::Lt => "lt",
        Condition::Ge => "ge",
        Condition::Gt => "gt",
        Condition::Le => "le",
    }
}

/// The mnemonic family of a decoded instruction, in javap's spelling.
fn model_family(insn: &Insn) -> String {
    use jresa::classfile::{ArithOp, ArrayKind};
    let array_letter = |kind: &ArrayKind| match kind {
        ArrayKind::Int => "i",
        ArrayKind::Long => "l",
        ArrayKind::Float => "f",
        ArrayKind::Double => "d",
        ArrayKind::Reference => "a",
        ArrayKind::ByteOrBoolean => "b",
        ArrayKind::Char => "c",
        ArrayKind::Short => "s",
    };
    match insn {
        Insn::Nop => "nop".into(),
        Insn::AConstNull => "aconst_null".into(),
        Insn::IConst(_) => "iconst".into(),
        Insn::LConst(_) => "lconst".into(),
        Insn::FConst(_) => "fconst".into(),
        Insn::DConst(_) => "dconst".into(),
        Insn::Ldc(_) => "ldc".into(),
        Insn::Load(kind, _) => format!("{}load", kind_letter(*kind)),
        Insn::Store(kind, _) => format!("{}store", kind_letter(*kind)),
        Insn::ArrayLoad(kind) => format!("{}aload", array_letter(kind)),
        Insn::ArrayStore(kind) => format!("{}astore", array_letter(kind)),
        Insn::Pop => "pop".into(),
        Insn::Pop2 => "pop2".into(),
        Insn::Dup => "dup".into(),
        Insn::DupX1 => "dup_x1".into(),
        Insn::DupX2 => "dup_x2".into(),
        Insn::Dup2 => "dup2".into(),
        Insn::Dup2X1 => "dup2_x1".into(),
        Insn::Dup2X2 => "dup2_x2".into(),
        Insn::Swap => "swap".into(),
        Insn::Arith(kind, operator) => {
            let operator = match operator {
                ArithOp::Add => "add",
                ArithOp::Sub => "sub",
                ArithOp::Mul => "mul",
                ArithOp::Div => "div",
                ArithOp::Rem => "rem",
                ArithOp::And => "and",
                ArithOp::Or => "or",
                ArithOp::Xor => "xor",
                ArithOp::Shl => "shl",
                ArithOp::Shr => "shr",
                ArithOp::Ushr => "ushr",
            };
            format!("{}{operator}", kind_letter(*kind))
        }
        Insn::Neg(kind) => format!("{}neg", kind_letter(*kind)),
        Insn::IInc(..) => "iinc".into(),
        Insn::Convert(from, to) => format!("{}2{}", kind_letter(*from), kind_letter(*to)),
        Insn::IntToByte => "i2b".into(),
        Insn::IntToChar => "i2c".into(),
        Insn::IntToShort => "i2s".into(),
        Insn::LCmp => "lcmp".into(),
        Insn::FCmp { nan_is_greater } => if *nan_is_greater { "fcmpg" } else { "fcmpl" }.into(),
        Insn::DCmp { nan_is_greater } => if *nan_is_greater { "dcmpg" } else { "dcmpl" }.into(),
        Insn::IfZero(condition, _) => format!("if{}", condition_name(*condition)),
        Insn::IfICmp(condition, _) => format!("if_icmp{}", condition_name(*condition)),
        Insn::IfACmp(condition, _) => format!("if_acmp{}", condition_name(*condition)),
        Insn::IfNull(_) => "ifnull".into(),
        Insn::IfNonNull(_) => "ifnonnull".into(),
        Insn::Goto(_) => "goto".into(),
        Insn::Jsr(_) => "jsr".into(),
        Insn::Ret(_) => "ret".into(),
        Insn::TableSwitch { .. } => "tableswitch".into(),
        Insn::LookupSwitch { .. } => "lookupswitch".into(),
        Insn::Return(Some(kind)) => format!("{}return", kind_letter(*kind)),
        Insn::Return(None) => "return".into(),
        Insn::GetStatic(_) => "getstatic".into(),
        Insn::PutStatic(_) => "putstatic".into(),
        Insn::GetField(_) => "getfield".into(),
        Insn::PutField(_) => "putfield".into(),
        Insn::Invoke(kind, _) => match kind {
            InvokeKind::Static => "invokestatic",
            InvokeKind::Special => "invokespecial",
            InvokeKind::Virtual => "invokevirtual",
            InvokeKind::Interface => "invokeinterface",
        }
        .into(),
        Insn::InvokeDynamic { .. } => "invokedynamic".into(),
        Insn::New(_) => "new".into(),
        Insn::NewArray(_) => "newarray".into(),
        Insn::ANewArray(_) => "anewarray".into(),
        Insn::ArrayLength => "arraylength".into(),
        Insn::AThrow => "athrow".into(),
        Insn::CheckCast(_) => "checkcast".into(),
        Insn::InstanceOf(_) => "instanceof".into(),
        Insn::MonitorEnter => "monitorenter".into(),
        Insn::MonitorExit => "monitorexit".into(),
        Insn::MultiANewArray(..) => "multianewarray".into(),
    }
}

/// The local slot (or constant) javap shows in a mnemonic suffix (`iload_2`, `iconst_m1`) or as
/// the first operand.
fn javap_number(line: &JavapLine) -> Option<i64> {
    let suffix = line.mnemonic.rsplit_once('_').map(|(_, suffix)| suffix);
    match suffix {
        Some("m1") => Some(-1),
        Some(digits) if digits.bytes().all(|byte| byte.is_ascii_digit()) => digits.parse().ok(),
        _ => line
            .operands
            .split(|separator: char| separator == ',' || separator.is_whitespace())
            .next()?
            .parse()
            .ok(),
    }
}

/// Compares one decoded instruction with javap's rendering of it; `None` when they agree.
fn javap_disagreement(insn: &Insn, line: &JavapLine) -> Option<String> {
    let family = model_family(insn);
    if family != javap_family(&line.mnemonic) {
        return Some(format!("family {family} against {}", line.mnemonic));
    }
    let agrees = match insn {
        Insn::IConst(value) => javap_number(line) == Some(i64::from(*value)),
        Insn::Load(_, slot) | Insn::Store(_, slot) | Insn::Ret(slot) => javap_number(line) == Some(i64::from(*slot)),
        Insn::IInc(slot, delta) => line.operands.replace(' ', "") == format!("{slot},{delta}"),
        Insn::IfZero(_, target)
        | Insn::IfICmp(_, target)
        | Insn::IfACmp(_, target)
        | Insn::IfNull(target)
        | Insn::IfNonNull(target)
        | Insn::Goto(target)
        | Insn::Jsr(target) => javap_number(line) == Some(i64::from(*target)),
        Insn::Ldc(Constant::Int(value)) => line.operands.ends_with(&format!("// int {value}")),
        Insn::Invoke(_, method) => {
            line.operands.contains(&format!(":{}", method.descriptor))
                && (line.operands.contains(&format!("{}:", method.name))
                    || line.operands.contains(&format!("\"{}\":", method.name)))
        }
        Insn::GetStatic(field) | Insn::PutStatic(field) | Insn::GetField(field) | Insn::PutField(field) => {
            line.operands.ends_with(&format!("{}:{}", field.name, field.descriptor))
        }
        Insn::InvokeDynamic { name, descriptor, .. } => line.operands.ends_with(&format!("{name}:{descriptor}")),
        Insn::NewArray(element) => line.operands == format!("{element:?}").to_lowercase(),
        Insn::New(class) | Insn::CheckCast(class) | Insn::InstanceOf(class) | Insn::ANewArray(class) => {
            line.operands.ends_with(&format!("class {class}")) || line.operands.ends_with(&format!("class \"{class}\""))
        }
        _ => true,
    };
    (!agrees).then(|| format!("operands {insn:?} against {:?}", line.operands))
}

#[test]
fn decoded_instructions_agree_with_javap() {
    let temporary = TempDir::new("javap");
    let mut files = class_files(&fixtures().classes);
    files.push(fixtures().legacy.join("fixtures/Legacy.class"));
    // A spread of java.base classes, plus a few with large switches, wide locals and lambdas.
    let class_path = ClassPath::from_paths(&[PathBuf::from(JAVA_BASE_JMOD)]).unwrap();
    let names: Vec<&str> = class_path.class_names().collect();
    let mut chosen: Vec<&str> = names.iter().copied().step_by(names.len() / 40).collect();
    chosen.extend([
        "java/lang/Character",
        "java/util/HashMap",
        "java/util/concurrent/ConcurrentHashMap",
        "java/util/regex/Pattern",
        "java/lang/invoke/MethodHandles",
        "java/math/BigInteger",
    ]);
    for (number, name) in chosen.iter().enumerate() {
        let (_, bytes) = class_path.bytes(name).unwrap().unwrap();
        let file = temporary.path().join(format!("C{number}.class"));
        std::fs::write(&file, bytes).unwrap();
        files.push(file);
    }

    let decoded: Vec<(String, Insn, u32)> = files
        .iter()
        .flat_map(|file| {
            let class = parse_file(file);
            class
                .methods
                .into_iter()
                .filter_map(|method| {
                    let code = method.code?.unwrap();
                    let label = format!("{} {}{}", class.name, method.name, method.descriptor);
                    Some(
                        code.instructions
                            .into_iter()
                            .map(move |instruction| (label.clone(), instruction.insn, instruction.pc)),
                    )
                })
                .flatten()
                .collect::<Vec<_>>()
        })
        .collect();
    let javap = javap_instructions(&files);
    assert_eq!(decoded.len(), javap.len(), "instruction counts differ");
    for ((label, insn, pc), line) in decoded.iter().zip(&javap) {
        assert_eq!(*pc, line.pc, "{label}: pc {pc} against javap's {line:?}");
        if let Some(problem) = javap_disagreement(insn, line) {
            panic!("{label} at {pc}: {problem}");
        }
    }
    assert!(decoded.len() > 20_000, "only {} instructions compared", decoded.len());
}
