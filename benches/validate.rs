//! Benchmark of validation throughput on two data-structure subjects (the binary search tree and
//! the sorted list of `tests/data/validate/`): the bounded-exhaustive instances `jresa validate`
//! runs (every structure Korat finds through `repOK` up to a scope, times every key argument) of
//! `add` and `contains`, run in the VM's CPU backend (rayon over all cores) and in one `java -Xint`
//! and one default `java` process each (a generated driver that rebuilds the same structures from
//! a file with reflection, allocating objects without constructors as the VM does, and calls the
//! methods directly). The JVM sides are timed as whole processes, start-up included; the VM side
//! as `Backend::run` over all instances on each backend this machine has (see `benches/vm.rs`,
//! whose `JRESA_BENCH_CLASSES`, `JRESA_BENCH_BACKENDS` and `JRESA_BENCH_QUICK` this bench honours
//! too; `JRESA_BENCH_KEEP=1` keeps the compiled classes). Prints instances
//! per second of each side and their ratios per subject, then lets criterion measure the VM side.

#[path = "support/backends.rs"]
mod backends;
#[path = "support/timing.rs"]
mod timing;

use backends::{backends, compiled_classes, java_runs};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The allocator of the `jresa` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use jresa::classfile::{read_inputs, ClassPath};
use jresa::vm_source::JvmClassSource;
use jresa_gpu_validate::generate::{Finitization, RepOk, Settings, StructurePredicate};
use jresa_gpu_validate::{Backend, Ending, Package, RunConfig, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The Korat scope: structures of up to this many nodes, keys up to it.
const SCOPE: u32 = 4;

/// How many times the instance set is run, so that the JVM's start-up does not dominate.
const REPEAT: usize = 20;

/// A subject: its class, and its benchmarked methods with the Java call the driver makes on the
/// receiver `r` (of the subject's class) and the key `k` (a value added to `checksum`).
struct Subject {
    class: &'static str,
    methods: &'static [(&'static str, &'static str, &'static str)],
}

const SUBJECTS: &[Subject] = &[
    Subject {
        class: "BinarySearchTree",
        methods: &[
            ("add", "(I)Z", "r.add(k) ? 1 : 0"),
            ("contains", "(I)Z", "r.contains(k) ? 1 : 0"),
        ],
    },
    Subject {
        class: "SortedList",
        methods: &[
            ("add", "(I)V", "0; r.add(k)"),
            ("contains", "(I)Z", "r.contains(k) ? 1 : 0"),
        ],
    },
];

/// Writes `value` as driver tokens: `N` null, `I v` int, `J v` long, `R k` the `k`-th object built,
/// `O class n (name value)*` an object.
fn encode(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Null => out.push("N".into()),
        Value::Int(v) => out.extend(["I".into(), v.to_string()]),
        Value::Long(v) => out.extend(["J".into(), v.to_string()]),
        Value::Ref(k) => out.extend(["R".into(), k.to_string()]),
        Value::Object { class, fields } => {
            out.extend(["O".into(), class.replace('/', "."), fields.len().to_string()]);
            for (name, field) in fields {
                out.push(name.clone());
                encode(field, out);
            }
        }
        other => panic!("the subjects' structures hold no {other:?}"),
    }
}

/// The driver for one subject: reads `method-index receiver-tokens key` lines and calls the method.
fn driver(subject: &Subject) -> String {
    let mut cases = String::new();
    for (k, (_, _, call)) in subject.methods.iter().enumerate() {
        cases.push_str(&format!("                case {k}: checksum += {call}; break;\n"));
    }
    let class = subject.class;
    format!(
        r#"import java.lang.reflect.Field;
import java.nio.file.*;
import java.util.*;

public class {class}BenchDriver {{
    static final sun.misc.Unsafe UNSAFE;
    static {{
        try {{
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) f.get(null);
        }} catch (ReflectiveOperationException e) {{
            throw new RuntimeException(e);
        }}
    }}
    static final Map<String, Class<?>> CLASSES = new HashMap<>();
    static final Map<String, Field> FIELDS = new HashMap<>();

    static Field field(Class<?> c, String name) throws Exception {{
        String key = c.getName() + "." + name;
        Field f = FIELDS.get(key);
        if (f == null) {{
            for (Class<?> k = c; f == null; k = k.getSuperclass()) {{
                try {{
                    f = k.getDeclaredField(name);
                }} catch (NoSuchFieldException e) {{
                    if (k.getSuperclass() == null) throw e;
                }}
            }}
            f.setAccessible(true);
            FIELDS.put(key, f);
        }}
        return f;
    }}

    static int at;

    static Object decode(String[] t, List<Object> built) throws Exception {{
        switch (t[at++]) {{
            case "N": return null;
            case "I": return Integer.parseInt(t[at++]);
            case "J": return Long.parseLong(t[at++]);
            case "R": return built.get(Integer.parseInt(t[at++]));
            default: {{
                String name = t[at++];
                Class<?> c = CLASSES.get(name);
                if (c == null) {{
                    c = Class.forName(name);
                    CLASSES.put(name, c);
                }}
                Object o = UNSAFE.allocateInstance(c);
                built.add(o);
                int n = Integer.parseInt(t[at++]);
                for (int i = 0; i < n; i++) {{
                    Field f = field(c, t[at++]);
                    f.set(o, decode(t, built));
                }}
                return o;
            }}
        }}
    }}

    public static void main(String[] args) throws Exception {{
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        int repeat = Integer.parseInt(args[1]);
        long checksum = 0;
        int count = 0;
        for (int round = 0; round < repeat; round++) {{
            for (String line : lines) {{
                String[] t = line.split(" ");
                at = 1;
                {class} r = ({class}) decode(t, new ArrayList<>());
                int k = Integer.parseInt(t[at]);
                switch (Integer.parseInt(t[0])) {{
{cases}                }}
                count++;
            }}
        }}
        System.out.println(count + " " + checksum);
    }}
}}
"#
    )
}

/// A subject ready to run: its classes, package and instances per method.
struct Setup {
    dir: PathBuf,
    classes: PathBuf,
    package: Package,
    instances: Vec<Vec<Vec<Value>>>,
    total: usize,
}

fn setup(root: &Path, subject: &Subject) -> Option<Setup> {
    let dir = std::env::temp_dir().join(format!("jresa-bench-validate-{}-{}", subject.class, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let driver_source = dir.join(format!("{}BenchDriver.java", subject.class));
    std::fs::write(&driver_source, driver(subject)).ok()?;
    let javac_args: Vec<std::ffi::OsString> = vec![
        "-g".into(),
        "-nowarn".into(),
        "-XDignore.symbol.file".into(),
        root.join(format!("tests/data/validate/{}.java", subject.class)).into(),
        driver_source.clone().into(),
    ];
    let classes = compiled_classes(&dir, &javac_args)?;
    let loaded = read_inputs(std::slice::from_ref(&classes));
    let source = JvmClassSource::new(loaded.classes, ClassPath::default_jdk().ok());
    let mut entries: Vec<(String, String, String)> = subject
        .methods
        .iter()
        .map(|(name, descriptor, _)| (subject.class.to_owned(), name.to_string(), descriptor.to_string()))
        .collect();
    entries.push((subject.class.to_owned(), "repOK".into(), "()Z".into()));
    let package = Package::build(&source, &entries).ok()?;
    // The structures `jresa validate` generates for the receiver at this scope.
    let settings = Settings::with_size(SCOPE);
    let finitization = Finitization::new(&source, subject.class, &settings, false)?;
    let mut repok = RepOk::new(&package, subject.class)?;
    let found = finitization
        .search(Some(&mut repok as &mut dyn StructurePredicate), 100_000, 10_000_000)
        .ok()?;
    let keys: Vec<i32> = (settings.int_min..=SCOPE as i32).collect();
    let per_method: Vec<Vec<Value>> = found
        .structures
        .iter()
        .flat_map(|structure| keys.iter().map(move |&k| vec![structure.clone(), Value::Int(k)]))
        .collect();
    let mut lines = String::new();
    for (m, _) in subject.methods.iter().enumerate() {
        for instance in &per_method {
            let mut tokens = vec![m.to_string()];
            encode(&instance[0], &mut tokens);
            tokens.push(format!(
                "{}",
                match instance[1] {
                    Value::Int(k) => k,
                    _ => 0,
                }
            ));
            lines.push_str(&tokens.join(" "));
            lines.push('\n');
        }
    }
    std::fs::write(dir.join("instances.txt"), lines).ok()?;
    eprintln!(
        "{}: {} structures of up to {SCOPE} nodes ({} candidates tried), {} keys",
        subject.class,
        found.structures.len(),
        found.candidates,
        keys.len()
    );
    let instances: Vec<Vec<Vec<Value>>> = subject.methods.iter().map(|_| per_method.clone()).collect();
    let total = instances.iter().map(Vec::len).sum::<usize>() * REPEAT;
    Some(Setup {
        dir,
        classes,
        package,
        instances,
        total,
    })
}

/// Runs every instance `REPEAT` times in the VM; returns how many returned.
fn run_vm(subject: &Subject, setup: &Setup, backend: &dyn Backend) -> usize {
    let mut finished = 0;
    for _ in 0..REPEAT {
        for ((name, descriptor, _), set) in subject.methods.iter().zip(&setup.instances) {
            finished += backend
                .run((subject.class, name, descriptor), set)
                .iter()
                .filter(|o| matches!(o.ending, Ending::Returned { .. }))
                .count();
        }
    }
    finished
}

fn run_java(subject: &Subject, setup: &Setup, options: &[&str]) -> String {
    let output = Command::new("java")
        .args(options)
        .arg("-cp")
        .arg(&setup.classes)
        .arg(format!("{}BenchDriver", subject.class))
        .arg(setup.dir.join("instances.txt"))
        .arg(REPEAT.to_string())
        .output()
        .expect("java runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn validation_throughput(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut group = c.benchmark_group("validate");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    for subject in SUBJECTS {
        let Some(setup) = setup(root, subject) else {
            continue;
        };
        let rate = |d: Duration| setup.total as f64 / d.as_secs_f64();
        let java = java_runs().then(|| {
            let counted = run_java(subject, &setup, &[]);
            assert!(counted.starts_with(&format!("{} ", setup.total)), "{counted}");
            let xint = timing::median_of_three(|| {
                run_java(subject, &setup, &["-Xint"]);
            });
            let default = timing::median_of_three(|| {
                run_java(subject, &setup, &[]);
            });
            eprintln!(
                "{}: {} instances: java -Xint {:.0}/s, java {:.0}/s",
                subject.class,
                setup.total,
                rate(xint),
                rate(default)
            );
            (xint, default)
        });
        for (name, backends) in backends(&setup.package) {
            let backend = backends.backend(RunConfig::default());
            assert_eq!(
                run_vm(subject, &setup, backend.as_ref()),
                setup.total,
                "every instance returns on the {name} backend"
            );
            let vm = timing::median_of_three(|| {
                run_vm(subject, &setup, backend.as_ref());
            });
            let versus = java.map_or(String::new(), |(xint, default)| {
                format!(
                    "; /java -Xint {:.2}, /java {:.2}",
                    xint.as_secs_f64() / vm.as_secs_f64(),
                    default.as_secs_f64() / vm.as_secs_f64()
                )
            });
            eprintln!(
                "{}: {name} ({}, {} threads): {:.0} instances/s{versus}",
                subject.class,
                backend.name(),
                rayon::current_num_threads(),
                rate(vm)
            );
            if let Some(statistics) = backend.statistics() {
                eprintln!("  {statistics}");
            }
            if std::env::var_os("JRESA_BENCH_QUICK").is_none() {
                group.throughput(Throughput::Elements(setup.total as u64));
                group.bench_function(format!("{} {name} backend", subject.class), |b| {
                    b.iter(|| run_vm(subject, &setup, backend.as_ref()))
                });
            }
        }
        // `JRESA_BENCH_KEEP=1` keeps the compiled classes (to run the bench where there is no JDK).
        if std::env::var_os("JRESA_BENCH_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&setup.dir);
        }
    }
    group.finish();
}

criterion_group!(benches, validation_throughput);
criterion_main!(benches);
