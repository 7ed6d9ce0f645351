//! The VM's bytecode counts against the real JVM's: a generated driver calls fixture methods on
//! chosen inputs, each once to warm up (so that every class they use is initialised, as class
//! initialisation is counted apart in the VM) and once inside a `--only` extent of the JP2-style
//! profiler (`jresa::profile`). For each call, the calling-context tree below the method's node
//! (methods, call sites, entries and bytecodes of every context, exception constructors the JVM
//! runs included) must equal the VM's tree, so the totals agree too.
//!
//! Inputs avoid hashing string literals: the JVM caches a literal's hash across calls, the VM's
//! instances start fresh.

use crate::analyze_support;
use crate::vm_support;
use jresa::profile::{run_profiled, Cct, CctNode, ProfileRequest};
use jresa_gpu_validate::{Backend, CallingContextTree, CpuBackend, Package, RunConfig, Value};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;

/// (class, method, inputs in the fixtures' `// inputs:` syntax).
const CASES: &[(&str, &str, &str)] = &[
    ("VmArith", "fib", "10; 47"),
    ("VmArith", "div", "7, 2; 1, 0"),
    ("VmArith", "longDiv", "5, 0"),
    ("VmArith", "factorial", "5"),
    ("VmArith", "switches", "3; 4"),
    ("VmArith", "conversions", "2147483647.5"),
    ("VmArith", "roots", "2.0"),
    ("VmArrays", "get", "{1, 2, 3}, 3; null, 0"),
    ("VmArrays", "make", "-1; 3"),
    ("VmArrays", "grid", "2, 3; 2, -1"),
    ("VmArrays", "cloned", "{1, 2, 3}"),
    ("VmArrays", "copyRange", "{1, 2, 3, 4, 5}, 1, 0, 3; {1, 2}, 0, 0, 3"),
    ("VmArrays", "covariance", "1"),
    ("VmArrays", "sorted", "{5, 3, 1, 4, 2, 9, 0}"),
    ("VmExceptions", "catching", "-3; 5; 7"),
    ("VmExceptions", "which", "0; 1; 2; 3"),
    ("VmExceptions", "loopWithHandler", "2"),
    ("VmExceptions", "withFinally", "0"),
    ("VmExceptions", "recursionDepth", "4"),
    ("VmStrings", "build", "5, 3"),
    ("VmStrings", "reverse", "\"hello\""),
    ("VmStrings", "itoa", "-2147483648"),
    ("VmStrings", "atoi", "\"-45\"; \"abc\""),
    ("VmStrings", "substring", "\"hello\", 3, 1"),
    ("VmObjects", "dispatch", "1, 3; 2, 5"),
    ("VmObjects", "casts", "0; 2"),
    ("VmObjects", "listSum", "12"),
    ("VmObjects", "mapCount", "10"),
    ("Basic", "nested", "3, 4"),
    ("Basic", "divideAll", "3, 0"),
    ("ArrayLoops", "bubbleSort", "{5, 3, 1, 4, 2}"),
    ("ArrayLoops", "binarySearch", "{1, 3, 5, 7, 9}, 7"),
    ("Recursive", "fib", "8"),
    ("Logarithmic", "halve", "100"),
    // One method per row of the exception table (`ir::exceptions`), on inputs that raise it.
    ("Exceptions", "getFieldOfNull", "0; 5"),
    ("Exceptions", "putFieldOfNull", "0; 5"),
    ("Exceptions", "lengthOfNull", "0; 5"),
    ("Exceptions", "loadOutOfBounds", "1; 5; -3; 17"),
    ("Exceptions", "storeOutOfBounds", "1; 5; 17"),
    ("Exceptions", "storeOfWrongType", "0; 5; 17"),
    ("Exceptions", "divideByZero", "1; 5"),
    ("Exceptions", "remainderByZero", "2; 5"),
    ("Exceptions", "longDivideByZero", "5; 1"),
    ("Exceptions", "longRemainderByZero", "0; 5"),
    ("Exceptions", "castToWrongClass", "0; 5"),
    ("Exceptions", "negativeIntArray", "0; 5"),
    ("Exceptions", "negativeRefArray", "0; 5"),
    ("Exceptions", "negativeMultiArray", "0; 5"),
    ("Exceptions", "throwNull", "0; 5"),
    ("Exceptions", "lockNull", "0; 5"),
    ("Exceptions", "invokeOnNull", "0; 5"),
    ("Exceptions", "arraycopyOfNull", "0; 5"),
    ("Exceptions", "arraycopyOutOfBounds", "0; 5"),
    ("Exceptions", "arraycopyOfWrongType", "0; 5"),
    ("Exceptions", "cloneNotCloneable", "0"),
    ("Exceptions", "reflectiveNegativeArray", "0; 5"),
    ("Exceptions", "reflectiveLengthOfNonArray", "0; 5"),
];

/// A Java expression for a value of field type `descriptor`.
fn java(value: &Value, descriptor: &str) -> String {
    match value {
        Value::Int(v) => match descriptor {
            "Z" => (*v != 0).to_string(),
            "C" => format!("(char) {v}"),
            "B" => format!("(byte) {v}"),
            "S" => format!("(short) {v}"),
            _ if *v == i32::MIN => "Integer.MIN_VALUE".into(),
            _ => v.to_string(),
        },
        Value::Long(v) if *v == i64::MIN => "Long.MIN_VALUE".into(),
        Value::Long(v) => format!("{v}L"),
        Value::Float(bits) => format!("Float.intBitsToFloat({})", *bits as i32),
        Value::Double(bits) => format!("Double.longBitsToDouble({}L)", *bits as i64),
        Value::Null => format!("({}) null", java_type(descriptor)),
        Value::Str(units) => {
            let escaped: String = units.iter().map(|u| format!("\\u{u:04x}")).collect();
            format!("new String(\"{escaped}\")")
        }
        Value::Array { descriptor, elements } => {
            let items: Vec<String> = elements.iter().map(|e| java(e, &descriptor[1..])).collect();
            format!("new {}{{{}}}", java_type(descriptor), items.join(", "))
        }
        Value::Object { .. } | Value::Ref(_) => panic!("objects are not driver inputs"),
    }
}

/// The Java type of a field descriptor.
fn java_type(descriptor: &str) -> String {
    match descriptor.as_bytes()[0] {
        b'I' => "int".into(),
        b'J' => "long".into(),
        b'Z' => "boolean".into(),
        b'C' => "char".into(),
        b'B' => "byte".into(),
        b'S' => "short".into(),
        b'F' => "float".into(),
        b'D' => "double".into(),
        b'[' => format!("{}[]", java_type(&descriptor[1..])),
        _ => descriptor[1..descriptor.len() - 1].replace('/', "."),
    }
}

/// One measured call.
struct Call {
    class: String,
    name: String,
    descriptor: String,
    params: Vec<String>,
    input: Vec<Value>,
}

/// The contexts below (and including) a node, as paths of `method@site` with (entries, bytecodes).
type Contexts = BTreeMap<String, (u64, u64)>;

/// The key of a context below `prefix`; the top context (entered from the driver in the JVM and
/// by the launcher in the VM) gets no call site.
fn context_key(prefix: &str, class: &str, name: &str, descriptor: &str, call_site: Option<u32>) -> String {
    let site = match (prefix.is_empty(), call_site) {
        (true, _) => String::new(),
        (false, None) => "@-".into(),
        (false, Some(site)) => format!("@{site}"),
    };
    format!("{prefix}/{class}.{name}{descriptor}{site}")
}

fn jvm_contexts(cct: &Cct, node: &CctNode, prefix: &str, out: &mut Contexts) {
    let method = node.method.as_ref().expect("a method node");
    let key = context_key(prefix, &method.class, &method.name, &method.descriptor, node.call_site);
    let entry = out.entry(key.clone()).or_default();
    entry.0 += node.invocations;
    entry.1 += node.bytecodes;
    for child in cct.children(node) {
        jvm_contexts(cct, child, &key, out);
    }
}

/// The VM's contexts.
fn vm_contexts(tree: &CallingContextTree, node: u32, prefix: &str, out: &mut Contexts) {
    let n = &tree.nodes[node as usize];
    if n.initialization {
        return;
    }
    let method = n.method.as_ref().expect("a method node");
    let key = context_key(prefix, &method.class, &method.name, &method.descriptor, n.call_site);
    let entry = out.entry(key.clone()).or_default();
    entry.0 += n.entries;
    entry.1 += n.metrics.bytecodes;
    for (child, _) in tree.children(node) {
        vm_contexts(tree, child, &key, out);
    }
}

#[test]
fn vm_bytecode_counts_equal_the_profiled_jvm_counts() {
    let dir = analyze_support::scratch("vm-counts", "classes");
    let mut sources = vm_support::fixtures();
    sources.extend(analyze_support::fixtures());
    sources.push(vm_support::resource_source());
    let classes = vm_support::compile(&sources, &dir);
    let mut calls = Vec::new();
    for &(class_name, name, inputs) in CASES {
        let class = classes.iter().find(|c| c.name == class_name).expect("a fixture class");
        let method = class.methods.iter().find(|m| m.name == name).expect("a fixture method");
        assert!(method.access & 0x0008 != 0, "{class_name}.{name}: static methods only");
        let params = vm_support::params(&method.descriptor);
        for input in vm_support::parse_instances(inputs, &params, &classes).expect("inputs parse") {
            calls.push(Call {
                class: class_name.into(),
                name: name.into(),
                descriptor: method.descriptor.clone(),
                params: params.clone(),
                input,
            });
        }
    }

    // The driver: w<k> warms up, c<k> is profiled; each builds its arguments itself.
    let mut driver = String::from("public class VmCountDriver {\n    static Object sink;\n");
    for (k, call) in calls.iter().enumerate() {
        let args: Vec<String> = call.input.iter().zip(&call.params).map(|(v, d)| java(v, d)).collect();
        let invoke = format!("{}.{}({})", call.class, call.name, args.join(", "));
        let statement = if call.descriptor.ends_with(")V") {
            format!("{invoke};")
        } else {
            format!("sink = {invoke};")
        };
        for prefix in ["w", "c"] {
            let _ = writeln!(
                driver,
                "    static void {prefix}{k}() {{\n        try {{\n            {statement}\n        }} catch (Throwable e) {{\n            sink = e;\n        }}\n    }}"
            );
        }
    }
    driver.push_str("    public static void main(String[] args) {\n");
    for k in 0..calls.len() {
        let _ = writeln!(driver, "        w{k}();");
    }
    for k in 0..calls.len() {
        let _ = writeln!(driver, "        c{k}();");
    }
    driver.push_str("    }\n}\n");
    let driver_source = dir.join("VmCountDriver.java");
    std::fs::write(&driver_source, driver).expect("write the driver");
    analyze_support::javac(&[driver_source], &dir);
    let run = run_profiled(&ProfileRequest {
        only: (0..calls.len()).map(|k| format!("VmCountDriver.c{k}")).collect(),
        java_args: vec![
            OsString::from("-cp"),
            dir.clone().into_os_string(),
            OsString::from("VmCountDriver"),
        ],
    })
    .expect("the profiler runs");
    assert_eq!(run.exit_code, 0, "the driver failed");
    let cct = run.profile.expect("a profile");

    let source = vm_support::source(&classes);
    let entries: Vec<(String, String, String)> = calls
        .iter()
        .map(|c| (c.class.clone(), c.name.clone(), c.descriptor.clone()))
        .collect();
    let package = Package::build(&source, &entries).expect("the package");
    let backend = CpuBackend::new(
        &package,
        RunConfig {
            cct: true,
            ..RunConfig::default()
        },
    );
    let mut failures = Vec::new();
    let mut total = 0;
    for (k, call) in calls.iter().enumerate() {
        let label = format!("{}.{}{:?}", call.class, call.name, call.input);
        let wrappers = cct.find("VmCountDriver", &format!("c{k}"));
        assert_eq!(wrappers.len(), 1, "{label}: one context of c{k}");
        let subjects: Vec<&CctNode> = cct
            .children(wrappers[0])
            .filter(|n| {
                n.method
                    .as_ref()
                    .is_some_and(|m| m.class == call.class && m.name == call.name)
            })
            .collect();
        assert_eq!(subjects.len(), 1, "{label}: one call of the method in c{k}");
        let mut jvm = Contexts::new();
        jvm_contexts(&cct, subjects[0], "", &mut jvm);

        let outcome = &backend.run(
            (&call.class, &call.name, &call.descriptor),
            std::slice::from_ref(&call.input),
        )[0];
        let tree = outcome.cct.as_ref().expect("a tree");
        let (method_node, _) = tree.children(0).next().expect("the method's context");
        let mut vm = Contexts::new();
        vm_contexts(tree, method_node, "", &mut vm);
        let jvm_total: u64 = jvm.values().map(|v| v.1).sum();
        total += jvm_total;
        if outcome.metrics.bytecodes != jvm_total {
            failures.push(format!(
                "{label}: VM {} bytecodes, JVM {jvm_total} ({:?})",
                outcome.metrics.bytecodes, outcome.ending
            ));
        }
        if vm != jvm {
            let mut differences = Vec::new();
            for key in jvm.keys().chain(vm.keys()).collect::<std::collections::BTreeSet<_>>() {
                if jvm.get(key) != vm.get(key) {
                    differences.push(format!("    {key}: JVM {:?}, VM {:?}", jvm.get(key), vm.get(key)));
                }
            }
            failures.push(format!("{label}: contexts differ:\n{}", differences.join("\n")));
        }
    }
    eprintln!("{} calls, {total} bytecodes compared", calls.len());
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
