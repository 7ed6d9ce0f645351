//! The bounds of `jresa analyze` against measured costs: for every fixture method of
//! `tests/data/analyze/*.java` that gets a bound (instructions model) and takes ints, longs, int
//! arrays or `Chain` lists, a generated Java driver calls it on several concrete inputs, each at its
//! own call site, and runs under the profiler (`jresa::profile`, exact bytecode counts per calling
//! context). Each call's inclusive bytecode count must be at most the bound evaluated at that input
//! (`n` → the value, `|a|` → the array's length, `|this|` → the list's length). Every call is made
//! once before the measured one, so that class loading and static initialisers (the JVM's one-time
//! work, which bounds do not cover) happen outside it.
//!
//! Inputs respect the methods' preconditions where a method does not terminate otherwise (see
//! `overrides`): this test checks that bounds are upper bounds where the method terminates;
//! `analyze_expectations.rs` checks that methods which may not terminate get no bound.

use crate::analyze_support as support;
use jresa::analyze::MethodReport;
use jresa::profile::{run_profiled, Cct, CctNode, ProfileRequest};
use jresa_analyses::bounds::expr::Linear;
use num_traits::ToPrimitive;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

/// Calls (method, input) that violate their bound today, with the measured count and the bound's
/// value: `("Class.method", "input", measured, bound)`. Each is a soundness bug.
// Violations known and not yet fixed (method, input, measured, bound): none. Implicit exceptions
// (e.g. `ArithmeticException` from `idiv` by zero, caught in a loop) used to be here; their
// constructors are now charged to the statement that raises them.
const KNOWN_VIOLATIONS: &[(&str, &str, u64, &str)] = &[];

/// The kind of a parameter the driver can produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Long,
    IntArray,
    /// A `Chain` list (`null` for the empty one).
    List,
}

/// A concrete argument.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Arg {
    Int(i32),
    Long(i64),
    IntArray(Vec<i32>),
    /// The values of the cells, first to last; empty is `null`.
    List(Vec<i32>),
}

impl Arg {
    /// The Java expression that builds the argument.
    fn java(&self) -> String {
        let values = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
        match self {
            Arg::Int(v) => format!("{v}"),
            Arg::Long(v) => format!("{v}L"),
            Arg::IntArray(v) => format!("new int[] {{{}}}", values(v)),
            Arg::List(v) if v.is_empty() => "(Chain) null".to_owned(),
            Arg::List(v) => format!("list(new int[] {{{}}})", values(v)),
        }
    }

    /// The value of the argument's size parameter in a bound.
    fn size(&self) -> i64 {
        match self {
            Arg::Int(v) => i64::from(*v),
            Arg::Long(v) => *v,
            Arg::IntArray(v) | Arg::List(v) => v.len() as i64,
        }
    }

    fn show(&self) -> String {
        match self {
            Arg::Int(v) => v.to_string(),
            Arg::Long(v) => format!("{v}L"),
            Arg::IntArray(v) => format!("{v:?}"),
            Arg::List(v) => format!("list{v:?}"),
        }
    }
}

fn show(input: &[Arg]) -> String {
    input.iter().map(Arg::show).collect::<Vec<_>>().join(", ")
}

/// The parameter kinds of a descriptor, or `None` when the driver cannot produce one of them.
fn kinds(descriptor: &str) -> Option<Vec<Kind>> {
    let inner = descriptor.strip_prefix('(')?.split(')').next()?;
    let mut out = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        let (kind, len) = if rest.starts_with("[I") {
            (Kind::IntArray, 2)
        } else if rest.starts_with("LChain;") {
            (Kind::List, "LChain;".len())
        } else if rest.starts_with('I') {
            (Kind::Int, 1)
        } else if rest.starts_with('J') {
            (Kind::Long, 1)
        } else {
            return None;
        };
        out.push(kind);
        rest = &rest[len..];
    }
    Some(out)
}

const INTS: &[i32] = &[-3, 0, 1, 2, 5, 17, 64];
const INT_PAIRS: &[(i32, i32)] = &[
    (0, 0),
    (1, 1),
    (5, 2),
    (2, 5),
    (17, 3),
    (3, 17),
    (64, 1),
    (1, 64),
    (-3, 5),
    (5, -3),
];

fn arrays() -> Vec<Vec<i32>> {
    vec![
        vec![],
        vec![7],
        vec![3, 1, 2],
        vec![5, -2, 9, 0, 5, 5, 1, 8, -7, 3],
        (1..=17).map(|x| x * x % 11).collect(),
    ]
}

fn lists() -> Vec<Vec<i32>> {
    vec![vec![4], vec![1, 2], vec![3, 1, 2], vec![5, -2, 9, 0, 5, 5, 1, 8, -7, 3]]
}

fn ints(values: &[i32]) -> Vec<Vec<Arg>> {
    values.iter().map(|&v| vec![Arg::Int(v)]).collect()
}

/// Inputs by parameter kinds (after `this`, which is a list for instance methods).
fn default_inputs(kinds: &[Kind]) -> Vec<Vec<Arg>> {
    use Kind::*;
    let arrays = arrays();
    let lists = lists();
    match kinds {
        [] => vec![vec![]],
        [Int] => ints(INTS),
        [Long] => INTS.iter().map(|&v| vec![Arg::Long(v.into())]).collect(),
        [Int, Int] => INT_PAIRS.iter().map(|&(a, b)| vec![Arg::Int(a), Arg::Int(b)]).collect(),
        // The third value takes turns among no bits, all bits and alternating bits (a seed).
        [Int, Int, Int] => INT_PAIRS
            .iter()
            .zip([0, -1, 0x5555_5555].iter().cycle())
            .map(|(&(a, b), &c)| vec![Arg::Int(a), Arg::Int(b), Arg::Int(c)])
            .collect(),
        [Long, Long] => INT_PAIRS
            .iter()
            .map(|&(a, b)| vec![Arg::Long(a.into()), Arg::Long(b.into())])
            .collect(),
        [Long, Int] => INT_PAIRS
            .iter()
            .map(|&(a, b)| vec![Arg::Long(a.into()), Arg::Int(b)])
            .collect(),
        [IntArray] => arrays.into_iter().map(|a| vec![Arg::IntArray(a)]).collect(),
        [IntArray, Int] => [(0, 0), (1, 7), (1, 3), (2, 2), (2, 9), (3, 5), (3, -7), (4, 9), (4, 64)]
            .iter()
            .map(|&(a, x)| vec![Arg::IntArray(arrays[a].clone()), Arg::Int(x)])
            .collect(),
        // An array, a value and a start index: before, inside and past the array, and the
        // largest start (a search from the end).
        [IntArray, Int, Int] => [
            (0, 3, 0),
            (1, 7, -5),
            (1, 7, 0),
            (2, 2, 1),
            (2, 9, 2),
            (3, 5, 3),
            (3, -7, 11),
            (3, 1, i32::MAX),
            (4, 9, 4),
            (4, 64, 16),
        ]
        .iter()
        .map(|&(a, x, from)| vec![Arg::IntArray(arrays[a].clone()), Arg::Int(x), Arg::Int(from)])
        .collect(),
        [IntArray, IntArray] => [(0, 0), (1, 0), (0, 2), (2, 1), (2, 3), (3, 4), (4, 4)]
            .iter()
            .map(|&(a, b)| vec![Arg::IntArray(arrays[a].clone()), Arg::IntArray(arrays[b].clone())])
            .collect(),
        [List] => std::iter::once(Vec::new())
            .chain(lists)
            .map(|l| vec![Arg::List(l)])
            .collect(),
        [List, List] => [(1, 0), (1, 2), (2, 3), (3, 1)]
            .iter()
            .map(|&(a, b)| {
                let list = |k: usize| if k == 0 { Vec::new() } else { lists[k - 1].clone() };
                vec![Arg::List(list(a)), Arg::List(list(b))]
            })
            .collect(),
        [Int, List] => [(1, 0), (2, 1), (-5, 3)]
            .iter()
            .map(|&(x, l)| {
                let list = if l == 0 { Vec::new() } else { lists[l - 1].clone() };
                vec![Arg::Int(x), Arg::List(list)]
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Inputs for methods whose preconditions or costs rule out the defaults: `Class.method` → inputs.
fn overrides() -> BTreeMap<&'static str, Vec<Vec<Arg>>> {
    let pairs =
        |v: &[(i32, i32)]| -> Vec<Vec<Arg>> { v.iter().map(|&(a, b)| vec![Arg::Int(a), Arg::Int(b)]).collect() };
    let sorted = |v: Vec<i32>| Arg::IntArray(v);
    let mut o = BTreeMap::new();
    // A negative input, or a sum over 100, ends in a helper that always throws.
    o.insert("Failing.checked", ints(&[0, 1, 5, 17, 64]));
    o.insert("Failing.failsAfterLoop", ints(&[-3, 0, 1, 5, 14]));
    // 2^n calls.
    o.insert("Recursive.fib", ints(&[-3, 0, 1, 2, 5, 10, 17]));
    // n^3 iterations.
    o.insert("Basic.cubic", ints(&[-3, 0, 1, 2, 5, 17, 40]));
    // A zero divisor throws (and is caught) in every iteration.
    o.insert(
        "Basic.divideAll",
        pairs(&[
            (0, 0),
            (1, 0),
            (5, 0),
            (17, 0),
            (1, 1),
            (5, 2),
            (17, 3),
            (64, 7),
            (-3, 5),
            (5, -3),
        ]),
    );
    // Binary search needs sorted arrays.
    o.insert(
        "ArrayLoops.binarySearch",
        vec![
            vec![sorted(vec![]), Arg::Int(3)],
            vec![sorted(vec![4]), Arg::Int(4)],
            vec![sorted(vec![4]), Arg::Int(9)],
            vec![sorted(vec![1, 3, 5]), Arg::Int(0)],
            vec![sorted(vec![1, 3, 5]), Arg::Int(5)],
            vec![sorted((0..10).map(|x| 2 * x).collect()), Arg::Int(7)],
            vec![sorted((0..10).map(|x| 2 * x).collect()), Arg::Int(18)],
            vec![sorted((0..64).collect()), Arg::Int(-1)],
            vec![sorted((0..64).collect()), Arg::Int(63)],
        ],
    );
    // The index must be in range or the recursion stops at once; both are fine.
    o.insert(
        "Recursive.sumFrom",
        [(0, 0), (1, 0), (2, 1), (3, 0), (3, 4), (4, 16), (3, -1), (2, 7)]
            .iter()
            .map(|&(a, i)| vec![Arg::IntArray(arrays()[a].clone()), Arg::Int(i)])
            .collect(),
    );
    // (x, n, y, m): the two phases, either one empty, and starts past the limits.
    o.insert(
        "Lexicographic.grid",
        [
            (0, 0, 0, 0),
            (0, 5, 0, 3),
            (2, 7, 9, 4),
            (-3, 4, -6, 2),
            (5, 1, 0, 8),
            (0, 17, 0, 64),
            (1, 64, 60, 17),
        ]
        .iter()
        .map(|&(x, n, y, m)| vec![Arg::Int(x), Arg::Int(n), Arg::Int(y), Arg::Int(m)])
        .collect(),
    );
    // Counters reset to a parameter, to negative values, and past each other.
    let ints3 = |v: &[(i32, i32, i32)]| -> Vec<Vec<Arg>> {
        v.iter()
            .map(|&(a, b, c)| vec![Arg::Int(a), Arg::Int(b), Arg::Int(c)])
            .collect()
    };
    o.insert(
        "Lexicographic.rows",
        ints3(&[
            (0, 0, 0),
            (3, 0, 4),
            (5, 7, 0),
            (-2, 5, 3),
            (4, -3, 9),
            (2, 9, -5),
            (17, 1, 64),
        ]),
    );
    o.insert(
        "Lexicographic.odometer",
        [
            (0, 0, 0, 0),
            (1, 2, 3, 4),
            (3, 0, 0, 5),
            (2, 5, -1, 3),
            (-1, 4, 4, 4),
            (4, 3, 7, -2),
            (6, 2, 1, 17),
        ]
        .iter()
        .map(|&(x, y, z, m)| vec![Arg::Int(x), Arg::Int(y), Arg::Int(z), Arg::Int(m)])
        .collect(),
    );
    // Ranges inside the array (a range past it ends in an exception).
    let range = |a: Vec<i32>, lo: i32, hi: i32| vec![Arg::IntArray(a), Arg::Int(lo), Arg::Int(hi)];
    let upto = |n: i32| (0..n).collect::<Vec<i32>>();
    o.insert(
        "Halving.sum",
        vec![
            range(vec![], 0, 0),
            range(upto(1), 0, 1),
            range(upto(8), 0, 8),
            range(upto(8), 2, 7),
            range(upto(17), 0, 17),
            range(upto(64), 5, 64),
            range(upto(5), 4, 1),
        ],
    );
    let search =
        |a: Vec<i32>, lo: i32, hi: i32, key: i32| vec![Arg::IntArray(a), Arg::Int(lo), Arg::Int(hi), Arg::Int(key)];
    let searches = vec![
        search(vec![], 0, 0, 3),
        search(upto(1), 0, 1, 0),
        search(upto(8), 0, 8, 7),
        search(upto(8), 0, 8, -2),
        search(upto(64), 3, 60, 40),
        search(upto(64), 0, 64, 64),
    ];
    o.insert("Halving.search", searches.clone());
    o.insert("Halving.searchUnsigned", searches);
    // Methods that do not terminate for some inputs: only inputs for which they do.
    o.insert("Nonterminating.spinWhenPositive", ints(&[-3, -1, 0]));
    o.insert("Nonterminating.forever", Vec::new());
    o.insert("Nonterminating.guardedStuckCounter", ints(&[-3, -1, 0]));
    o.insert("Nonterminating.stuckCounter", ints(&[-3, -1, 0]));
    o.insert("Nonterminating.stepTwoUntilEqual", ints(&[0, 2, 6, 18, 64]));
    o.insert("Nonterminating.countDownByTwoToZero", ints(&[0, 2, 6, 18, 64]));
    o.insert("Nonterminating.collatz", ints(&[1, 2, 5, 17, 27, 64]));
    o.insert("Nonterminating.swapUntilEqual", pairs(&[(0, 0), (5, 5), (-3, -3)]));
    o.insert(
        "Nonterminating.unguardedStride",
        pairs(&[(0, 0), (-3, 0), (5, 1), (17, 3), (64, 5)]),
    );
    o.insert("Nonterminating.downToZero", ints(&[0, 1, 2, 5, 17, 64]));
    o
}

/// One method to check and its inputs.
struct Subject<'a> {
    report: &'a MethodReport,
    inputs: Vec<Vec<Arg>>,
    /// Whether the bound's first parameter is `|this|`: for a method the input starts with the
    /// receiver (a list); a constructor's inputs are its arguments only.
    instance: bool,
}

/// The subjects of one fixture, or why a bounded method cannot be checked.
fn subjects<'a>(
    class: &str,
    methods: &'a [MethodReport],
    overrides: &BTreeMap<&str, Vec<Vec<Arg>>>,
) -> Result<Vec<Subject<'a>>, String> {
    let mut out = Vec::new();
    for m in methods.iter().filter(|m| m.class == class && m.status == "bounded") {
        let key = format!("{}.{}", m.class, m.name);
        // The constructors javac adds are not fixture methods; its lambda bodies are private, and
        // measured through the fixture methods that call them.
        if m.name == "<init>" && m.descriptor == "()V" || m.name.starts_with("lambda$") {
            continue;
        }
        let Some(params) = kinds(&m.descriptor) else {
            return Err(format!("{key}{}: no inputs for these parameter types", m.descriptor));
        };
        let instance = m.parameters.len() == params.len() + 1;
        if m.bound.is_none() || (!instance && m.parameters.len() != params.len()) {
            return Err(format!(
                "{key}: parameters {:?} do not fit {}",
                m.parameters, m.descriptor
            ));
        }
        if instance && class != "Chain" {
            return Err(format!("{key}: an instance method of a class other than Chain"));
        }
        let inputs = match overrides.get(key.as_str()) {
            Some(inputs) => inputs.clone(),
            None if instance && m.name == "<init>" => default_inputs(&params),
            None if instance => {
                // `this` is a nonempty list; the other parameters vary with it.
                let rest = default_inputs(&params);
                let lists = lists();
                let mut inputs: Vec<Vec<Arg>> = Vec::new();
                for (k, list) in lists.iter().enumerate() {
                    for j in [k, k + lists.len()] {
                        if let Some(r) = rest.get(j % rest.len().max(1)) {
                            let mut input = vec![Arg::List(list.clone())];
                            input.extend(r.iter().cloned());
                            if !inputs.contains(&input) {
                                inputs.push(input);
                            }
                        }
                    }
                }
                inputs
            }
            None => default_inputs(&params),
        };
        if inputs.is_empty() {
            return Err(format!("{key}{}: no inputs for these parameter types", m.descriptor));
        }
        out.push(Subject {
            report: m,
            inputs,
            instance,
        });
    }
    Ok(out)
}

/// The driver class of a fixture: `t<k>()` calls subject k on each of its inputs, each at its own
/// call site and in source order; `main` runs them all and writes one result line per call to
/// `args[0]` (`ok`, or the class of the exception that escaped). A watchdog halts the JVM after
/// 120 s so that a nonterminating call fails the test instead of hanging it.
fn driver(name: &str, class: &str, subjects: &[Subject]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "public class {name} {{");
    let _ = writeln!(s, "    static final StringBuilder RESULTS = new StringBuilder();");
    let _ = writeln!(s, "    static Object sink;");
    if class == "Chain" {
        s.push_str(
            "    static Chain list(int[] values) {\n        Chain r = null;\n        for (int i = values.length - 1; i >= 0; i--) {\n            r = new Chain(values[i], r);\n        }\n        return r;\n    }\n",
        );
    }
    // `w<k>` runs the same calls as `t<k>` first, so that the classes they use are loaded and
    // initialised before the measured calls: class loading and static initialisers are the JVM's
    // one-time work, outside a method's cost (as the VM's metrics count them apart).
    for (prefix, k, subject) in subjects
        .iter()
        .enumerate()
        .flat_map(|(k, s)| [("w", k, s), ("t", k, s)])
    {
        let m = subject.report;
        let returns_void = m.descriptor.ends_with(")V");
        let _ = writeln!(s, "    static void {prefix}{k}() {{");
        for (i, input) in subject.inputs.iter().enumerate() {
            // Instance methods take the receiver first; constructors make it.
            let (receiver, args) = if subject.instance && m.name != "<init>" {
                (Some(&input[0]), &input[1..])
            } else {
                (None, &input[..])
            };
            let _ = writeln!(s, "        {{");
            let mut names = Vec::new();
            for (j, arg) in args.iter().enumerate() {
                let ty = match arg {
                    Arg::Int(_) => "int",
                    Arg::Long(_) => "long",
                    Arg::IntArray(_) => "int[]",
                    Arg::List(_) => "Chain",
                };
                let _ = writeln!(s, "            {ty} p{j} = {};", arg.java());
                names.push(format!("p{j}"));
            }
            let call = if m.name == "<init>" {
                format!("new {class}({})", names.join(", "))
            } else if let Some(receiver) = receiver {
                let _ = writeln!(s, "            Chain self = {};", receiver.java());
                format!("self.{}({})", m.name, names.join(", "))
            } else {
                format!("{class}.{}({})", m.name, names.join(", "))
            };
            let statement = if returns_void && m.name != "<init>" {
                format!("{call};")
            } else {
                format!("sink = {call};")
            };
            let _ = writeln!(
                s,
                "            try {{\n                {statement}\n                RESULTS.append(\"{prefix}{k}.{i} ok\\n\");\n            }} catch (Throwable e) {{\n                RESULTS.append(\"{prefix}{k}.{i} \").append(e.getClass().getName()).append('\\n');\n            }}"
            );
            let _ = writeln!(s, "        }}");
        }
        let _ = writeln!(s, "    }}");
    }
    let _ = writeln!(s, "    public static void main(String[] args) throws Exception {{");
    s.push_str(
        "        Thread watchdog = new Thread() {\n            public void run() {\n                try {\n                    Thread.sleep(120_000);\n                } catch (InterruptedException e) {\n                    return;\n                }\n                Runtime.getRuntime().halt(97);\n            }\n        };\n        watchdog.setDaemon(true);\n        watchdog.start();\n",
    );
    for k in 0..subjects.len() {
        let _ = writeln!(s, "        w{k}();");
        let _ = writeln!(s, "        t{k}();");
    }
    s.push_str(
        "        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), RESULTS.toString());\n    }\n}\n",
    );
    s
}

fn is(node: &CctNode, class: &str, name: &str) -> bool {
    node.method.as_ref().is_some_and(|m| m.class == class && m.name == name)
}

/// One checked call.
struct Check {
    method: String,
    input: String,
    measured: u64,
    bound: f64,
    bound_text: String,
    /// Where the measured bytecodes were executed.
    detail: String,
    ok: bool,
}

/// Profiles the driver of one fixture and checks every call against its bound.
fn check_fixture(source: &Path, checks: &mut Vec<Check>, failures: &mut Vec<String>) {
    let class = support::stem(source);
    let started = std::time::Instant::now();
    let dir = support::scratch("analyze-soundness", &class);
    let classes = support::compile_fixture(source, &dir);
    let report = support::analyze_all(&classes);
    let overrides = overrides();
    let subjects = match subjects(&class, &report.methods, &overrides) {
        Ok(subjects) => subjects,
        Err(message) => {
            failures.push(format!("{class}: {message}"));
            return;
        }
    };
    if subjects.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let name = format!("SoundnessDriver{class}");
    let driver_source = dir.join(format!("{name}.java"));
    std::fs::write(&driver_source, driver(&name, &class, &subjects)).expect("write the driver");
    support::javac(&[driver_source], &dir);
    let results_file = dir.join("results.txt");
    eprintln!(
        "{class}: compiled and analysed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let run = run_profiled(&ProfileRequest {
        only: vec![format!("{name}.main")],
        java_args: vec![
            OsString::from("-cp"),
            dir.clone().into_os_string(),
            OsString::from(&name),
            results_file.clone().into_os_string(),
        ],
    })
    .unwrap_or_else(|e| panic!("{class}: cannot profile the driver: {e}"));
    let cct: Cct = run
        .profile
        .unwrap_or_else(|e| panic!("{class}: no profile (exit code {}): {e}", run.exit_code));
    assert_eq!(run.exit_code, 0, "{class}: the driver failed");
    eprintln!("{class}: profiled in {:.1} s", started.elapsed().as_secs_f64());
    let results = std::fs::read_to_string(&results_file).expect("the driver's results");
    let outcomes: BTreeMap<&str, &str> = results.lines().filter_map(|l| l.split_once(' ')).collect();

    let mains: Vec<&CctNode> = cct.find(&name, "main");
    assert_eq!(mains.len(), 1, "{class}: one context for the driver's main");
    for (k, subject) in subjects.iter().enumerate() {
        let m = subject.report;
        let key = format!("{}.{}", m.class, m.name);
        let runner: Vec<&CctNode> = cct
            .children(mains[0])
            .filter(|n| is(n, &name, &format!("t{k}")))
            .collect();
        assert_eq!(runner.len(), 1, "{key}: one context for t{k}");
        // The calls of the subject, in call-site order, which is the order of the inputs.
        let mut calls: Vec<&CctNode> = cct
            .children(runner[0])
            .filter(|n| {
                n.method.as_ref().is_some_and(|id| {
                    id.class == m.class.replace('.', "/") && id.name == m.name && id.descriptor == m.descriptor
                })
            })
            .collect();
        calls.sort_by_key(|n| n.call_site);
        assert_eq!(
            calls.len(),
            subject.inputs.len(),
            "{key}: one context per input, each entered once"
        );
        let bound = m.bound.as_ref().expect("a bounded method has a bound");
        for (i, (input, node)) in subject.inputs.iter().zip(&calls).enumerate() {
            assert!(
                node.call_site.is_some() && node.invocations == 1,
                "{key}: call {i}: {node:?}"
            );
            let outcome = outcomes.get(format!("t{k}.{i}").as_str()).copied();
            if outcome != Some("ok") {
                failures.push(format!(
                    "{key}({}): the call did not return normally: {outcome:?}",
                    show(input)
                ));
                continue;
            }
            // Bind the bound's parameter names to the input's sizes.
            let sizes: BTreeMap<&str, i64> = if subject.instance && m.name == "<init>" {
                // A new object: its size is one cell.
                std::iter::once(("|this|", 1))
                    .chain(
                        m.parameters[1..]
                            .iter()
                            .map(String::as_str)
                            .zip(input[1..].iter().map(Arg::size)),
                    )
                    .collect()
            } else {
                m.parameters
                    .iter()
                    .map(String::as_str)
                    .zip(input.iter().map(Arg::size))
                    .collect()
            };
            let value = bound
                .eval(&|name: &str| sizes.get(name).map(|&v| Linear::constant(v).constant))
                .unwrap_or_else(|| panic!("{key}: the bound {bound} names a parameter outside {:?}", m.parameters));
            let measured = node.inclusive_bytecodes;
            let ok = Linear::constant(measured as i64).constant <= value;
            // Where the cost went, for the report of a violation: the method's own bytecodes and
            // its callees' (the JVM's own calls have no call site).
            let mut detail = format!("{} in the method itself", node.bytecodes);
            for child in cct.children(node) {
                let _ = write!(
                    detail,
                    ", {} in {} (call site {})",
                    child.inclusive_bytecodes,
                    child.method.as_ref().map_or("?".to_owned(), |id| id.to_string()),
                    child
                        .call_site
                        .map_or("none: entered by the JVM".to_owned(), |c| c.to_string())
                );
            }
            checks.push(Check {
                method: key.clone(),
                input: show(input),
                measured,
                bound: value.to_f64().unwrap_or(f64::INFINITY),
                bound_text: bound.to_string(),
                detail,
                ok,
            });
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_bound_covers_the_measured_cost_of_its_calls() {
    // Two fixtures at a time: each compiles, analyses, and runs one JVM.
    let fixtures = support::fixtures();
    let mut checks = Vec::new();
    let mut failures = Vec::new();
    for pair in fixtures.chunks(2) {
        let results: Vec<(Vec<Check>, Vec<String>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = pair
                .iter()
                .map(|source| {
                    scope.spawn(move || {
                        let (mut checks, mut failures) = (Vec::new(), Vec::new());
                        check_fixture(source, &mut checks, &mut failures);
                        (checks, failures)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        for (c, f) in results {
            checks.extend(c);
            failures.extend(f);
        }
    }
    let known: BTreeMap<(&str, &str), (u64, &str)> = KNOWN_VIOLATIONS
        .iter()
        .map(|&(m, input, measured, bound)| ((m, input), (measured, bound)))
        .collect();
    let mut seen_known = 0;
    for c in &checks {
        let bound_value = format!("{}", c.bound);
        match known.get(&(c.method.as_str(), c.input.as_str())) {
            Some(&(measured, bound)) => {
                seen_known += 1;
                if c.ok {
                    failures.push(format!(
                        "{}({}) is within its bound now ({} <= {bound_value}): remove it from KNOWN_VIOLATIONS",
                        c.method, c.input, c.measured
                    ));
                } else if (c.measured, bound_value.as_str()) != (measured, bound) {
                    failures.push(format!(
                        "{}({}): KNOWN_VIOLATIONS records {measured} > {bound}, now {} > {bound_value}",
                        c.method, c.input, c.measured
                    ));
                }
            }
            None if !c.ok => failures.push(format!(
                "SOUNDNESS: {}({}) executed {} bytecodes, more than its bound {} = {bound_value} ({})",
                c.method, c.input, c.measured, c.bound_text, c.detail
            )),
            None => {}
        }
    }
    if seen_known != KNOWN_VIOLATIONS.len() {
        failures.push(format!(
            "{} of the {} KNOWN_VIOLATIONS were not checked",
            KNOWN_VIOLATIONS.len() - seen_known,
            KNOWN_VIOLATIONS.len()
        ));
    }
    // Figures: the tightness of the bounds.
    let mut ratios: Vec<(f64, &Check)> = checks
        .iter()
        .filter(|c| c.bound > 0.0)
        .map(|c| (c.measured as f64 / c.bound, c))
        .collect();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let methods: std::collections::BTreeSet<&str> = checks.iter().map(|c| c.method.as_str()).collect();
    println!(
        "checked {} calls of {} methods; measured/bound: min {:.3}, median {:.3}, max {:.3}",
        checks.len(),
        methods.len(),
        ratios.first().map_or(0.0, |r| r.0),
        ratios.get(ratios.len() / 2).map_or(0.0, |r| r.0),
        ratios.last().map_or(0.0, |r| r.0),
    );
    for (ratio, c) in &ratios {
        println!(
            "{ratio:>7.3}  {:>9} {} {:>11}  {}({})  bound {}",
            c.measured,
            if c.ok { "<=" } else { "> " },
            c.bound,
            c.method,
            c.input,
            c.bound_text
        );
    }
    assert!(
        checks.len() >= 150,
        "only {} (method, input) pairs checked",
        checks.len()
    );
    assert!(methods.len() >= 40, "only {} methods checked", methods.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
