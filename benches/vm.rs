//! Benchmark of the VM's CPU backend against the JVM: the same instances of the same methods (a
//! recursive and a looping Fibonacci, bubble sort, binary search, nested loops, `StringBuilder`
//! formatting and `ArrayList` summing from `tests/data`) run in the VM (rayon over all cores) and in
//! one `java -Xint` and one default `java` process each (a generated driver that reads the same
//! instances from a file and calls the methods directly). The JVM sides are timed as whole
//! processes, start-up included; the VM side as `Backend::run` over all instances on each backend
//! this machine has (the CPU backend, the interpreter kernel compiled for the host, and the CUDA
//! backend where a device is present; the methods run in parallel, as `jresa validate` runs them),
//! with the packaging timed apart. Prints instances per second
//! of each side and their ratios, then lets criterion measure each side.
//!
//! `JRESA_BENCH_CLASSES=DIR` takes the classes (the fixtures and `VmBenchDriver`) from `DIR`
//! instead of compiling them, for machines without a JDK (the JVM sides are then skipped unless
//! `java` runs); `JRESA_BENCH_PER_METHOD=N` sets the instances per method (2,000 by default);
//! `JRESA_BENCH_BACKENDS=cpu,cuda` runs only the backends named (`cpu`, `host kernel`, `cuda`);
//! `JRESA_BENCH_QUICK=1` prints the figures without criterion's measurements.

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
use jresa_gpu_validate::{Backend, Backends, Package, RunConfig, Value};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Instances per method (`JRESA_BENCH_PER_METHOD` overrides it).
fn per_method() -> usize {
    std::env::var("JRESA_BENCH_PER_METHOD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// A benchmarked method: class, name, descriptor, and the Java statement the driver runs on the
/// parsed fields `f[1]`, `f[2]` (adding to `checksum`).
const METHODS: &[(&str, &str, &str, &str)] = &[
    ("Recursive", "fib", "(I)I", "checksum += Recursive.fib(i(f[1]));"),
    ("VmArith", "fib", "(I)I", "checksum += VmArith.fib(i(f[1]));"),
    (
        "ArrayLoops",
        "bubbleSort",
        "([I)V",
        "int[] a = a(f[1]); ArrayLoops.bubbleSort(a); checksum += a.length;",
    ),
    (
        "ArrayLoops",
        "binarySearch",
        "([II)I",
        "checksum += ArrayLoops.binarySearch(a(f[1]), i(f[2]));",
    ),
    (
        "Basic",
        "nested",
        "(II)I",
        "checksum += Basic.nested(i(f[1]), i(f[2]));",
    ),
    (
        "VmStrings",
        "build",
        "(II)Ljava/lang/String;",
        "checksum += VmStrings.build(i(f[1]), i(f[2])).length();",
    ),
    (
        "VmObjects",
        "listSum",
        "(I)I",
        "checksum += VmObjects.listSum(i(f[1]));",
    ),
];

/// A deterministic generator of instances.
struct Random(Xoshiro256PlusPlus);

impl Random {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn range(&mut self, low: i32, high: i32) -> i32 {
        self.0.random_range(low..=high)
    }
}

/// The instances of method `k`.
fn instances(k: usize, random: &mut Random) -> Vec<Vec<Value>> {
    (0..per_method())
        .map(|_| match k {
            0 => vec![Value::Int(random.range(5, 18))],
            1 => vec![Value::Int(random.range(0, 46))],
            2 => {
                let n = random.range(0, 40);
                vec![Value::int_array(
                    &(0..n).map(|_| random.range(-100, 100)).collect::<Vec<_>>(),
                )]
            }
            3 => {
                let n = random.range(0, 64);
                let sorted: Vec<i32> = (0..n).map(|x| 3 * x).collect();
                vec![Value::int_array(&sorted), Value::Int(random.range(-5, 200))]
            }
            4 => vec![Value::Int(random.range(0, 30)), Value::Int(random.range(0, 30))],
            5 => vec![Value::Int(random.next() as i32), Value::Int(random.range(-1000, 1000))],
            _ => vec![Value::Int(random.range(0, 50))],
        })
        .collect()
}

/// A field of the instance file.
fn field(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Array { elements, .. } => elements
            .iter()
            .map(|e| match e {
                Value::Int(v) => v.to_string(),
                _ => String::new(),
            })
            .collect::<Vec<_>>()
            .join(","),
        _ => String::new(),
    }
}

fn driver() -> String {
    let mut cases = String::new();
    for (k, (_, _, _, statement)) in METHODS.iter().enumerate() {
        cases.push_str(&format!("                case {k}: {{ {statement} break; }}\n"));
    }
    format!(
        "import java.nio.file.*;\nimport java.util.*;\n\npublic class VmBenchDriver {{\n    static int i(String s) {{\n        return Integer.parseInt(s);\n    }}\n\n    static int[] a(String s) {{\n        if (s.isEmpty()) {{\n            return new int[0];\n        }}\n        String[] parts = s.split(\",\");\n        int[] out = new int[parts.length];\n        for (int k = 0; k < parts.length; k++) {{\n            out[k] = Integer.parseInt(parts[k]);\n        }}\n        return out;\n    }}\n\n    public static void main(String[] args) throws Exception {{\n        long checksum = 0;\n        int count = 0;\n        for (String line : Files.readAllLines(Path.of(args[0]))) {{\n            String[] f = line.split(\"\\t\", -1);\n            switch (Integer.parseInt(f[0])) {{\n{cases}            }}\n            count++;\n        }}\n        System.out.println(count + \" \" + checksum);\n    }}\n}}\n"
    )
}

struct Setup {
    dir: PathBuf,
    classes: PathBuf,
    package: Package,
    instances: Vec<Vec<Vec<Value>>>,
    total: usize,
}

fn setup() -> Option<Setup> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("jresa-bench-vm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let mut sources: Vec<PathBuf> = [
        "analyze/Recursive",
        "analyze/ArrayLoops",
        "analyze/Basic",
        "vm/VmArith",
        "vm/VmStrings",
        "vm/VmObjects",
    ]
    .iter()
    .map(|s| root.join(format!("tests/data/{s}.java")))
    .collect();
    let driver_source = dir.join("VmBenchDriver.java");
    std::fs::write(&driver_source, driver()).ok()?;
    sources.push(driver_source);
    let mut javac_args: Vec<std::ffi::OsString> = vec!["-g".into()];
    javac_args.extend(sources.iter().map(|s| s.clone().into_os_string()));
    let classes = compiled_classes(&dir, &javac_args)?;
    let loaded = read_inputs(std::slice::from_ref(&classes));
    let source = JvmClassSource::new(loaded.classes, ClassPath::default_jdk().ok());
    let mut random = Random(Xoshiro256PlusPlus::seed_from_u64(42));
    let instances: Vec<Vec<Vec<Value>>> = (0..METHODS.len()).map(|k| instances(k, &mut random)).collect();
    let mut lines = String::new();
    for (k, set) in instances.iter().enumerate() {
        for instance in set {
            let fields: Vec<String> = instance.iter().map(field).collect();
            lines.push_str(&format!("{k}\t{}\n", fields.join("\t")));
        }
    }
    std::fs::write(dir.join("instances.txt"), lines).ok()?;
    let entries: Vec<(String, String, String)> = METHODS
        .iter()
        .map(|(c, n, d, _)| (c.to_string(), n.to_string(), d.to_string()))
        .collect();
    let started = Instant::now();
    let package = Package::build(&source, &entries).ok()?;
    eprintln!(
        "packaged {} methods in {:.2} s",
        package.stats.methods,
        started.elapsed().as_secs_f64()
    );
    let total = instances.iter().map(Vec::len).sum();
    Some(Setup {
        dir,
        classes,
        package,
        instances,
        total,
    })
}

/// Runs every instance in the VM, the methods in parallel as `jresa validate` runs them; returns
/// how many returned and the bytecodes they executed.
fn run_vm(setup: &Setup, backend: &dyn Backend) -> (usize, u64) {
    METHODS
        .par_iter()
        .zip(&setup.instances)
        .map(|((class, name, descriptor, _), set)| {
            let (mut finished, mut bytecodes) = (0, 0);
            for outcome in backend.run((class, name, descriptor), set) {
                if matches!(outcome.ending, jresa_gpu_validate::Ending::Returned { .. }) {
                    finished += 1;
                }
                bytecodes += outcome.metrics.bytecodes + outcome.initialization.bytecodes;
            }
            (finished, bytecodes)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Runs every instance on the CPU backend and on `other` with calling-context trees, requires
/// equal outcomes, and returns how many were compared.
fn agrees_with_the_cpu(setup: &Setup, cpu: &Backends<'_>, other: &Backends<'_>) -> usize {
    let config = RunConfig {
        cct: true,
        ..RunConfig::default()
    };
    let (cpu, other) = (cpu.backend(config), other.backend(config));
    let mut compared = 0;
    for ((class, name, descriptor, _), set) in METHODS.iter().zip(&setup.instances) {
        let expected = cpu.run((class, name, descriptor), set);
        let actual = other.run((class, name, descriptor), set);
        for (k, (e, a)) in expected.iter().zip(&actual).enumerate() {
            assert_eq!(e, a, "{class}.{name} instance {k} differs on {}", other.name());
        }
        compared += expected.len();
    }
    compared
}

fn run_java(setup: &Setup, options: &[&str]) -> String {
    let output = Command::new("java")
        .args(options)
        .arg("-cp")
        .arg(&setup.classes)
        .arg("VmBenchDriver")
        .arg(setup.dir.join("instances.txt"))
        .output()
        .expect("java runs");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn vm_against_jvm(c: &mut Criterion) {
    let Some(setup) = setup() else {
        return;
    };
    let rate = |d: Duration| setup.total as f64 / d.as_secs_f64();
    let kinds = backends(&setup.package);
    let mut backend_times = Vec::new();
    for (name, backends) in &kinds {
        let backend = backends.backend(RunConfig::default());
        let (finished, bytecodes) = run_vm(&setup, backend.as_ref());
        assert_eq!(finished, setup.total, "every instance returns on the {name} backend");
        if name != "cpu" {
            let compared = agrees_with_the_cpu(&setup, &kinds[0].1, backends);
            eprintln!(
                "{name}: outcomes, counters and calling-context trees equal the CPU backend's on {compared} instances"
            );
        }
        let time = timing::median_of_three(|| {
            run_vm(&setup, backend.as_ref());
        });
        eprintln!(
            "{name} ({}): {} instances, {bytecodes} bytecodes, {:.0} instances/s ({:.0} M bytecodes/s, {} threads)",
            backend.name(),
            setup.total,
            rate(time),
            bytecodes as f64 / time.as_secs_f64() / 1e6,
            rayon::current_num_threads()
        );
        if let Some(statistics) = backend.statistics() {
            eprintln!("  {statistics}");
        }
        backend_times.push((name.clone(), time));
    }
    let cpu = backend_times[0].1;
    for (name, time) in &backend_times[1..] {
        eprintln!("{name}/cpu: {:.2}", cpu.as_secs_f64() / time.as_secs_f64());
    }
    let java = java_runs();
    if java {
        let xint = timing::median_of_three(|| {
            run_java(&setup, &["-Xint"]);
        });
        let default = timing::median_of_three(|| {
            run_java(&setup, &[]);
        });
        eprintln!("java -Xint {:.0}/s, java {:.0}/s", rate(xint), rate(default));
        for (name, time) in &backend_times {
            eprintln!(
                "{name}/java -Xint {:.2}, {name}/java {:.2}",
                xint.as_secs_f64() / time.as_secs_f64(),
                default.as_secs_f64() / time.as_secs_f64()
            );
        }
    } else {
        eprintln!("java does not run here: the JVM sides are skipped");
    }
    if std::env::var_os("JRESA_BENCH_QUICK").is_some() {
        return;
    }
    let mut group = c.benchmark_group("vm");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(setup.total as u64));
    for (name, backends) in &kinds {
        let backend = backends.backend(RunConfig::default());
        group.bench_function(format!("{name} backend"), |b| {
            b.iter(|| run_vm(&setup, backend.as_ref()))
        });
    }
    if java {
        group.bench_function("java -Xint (whole process)", |b| {
            b.iter(|| run_java(&setup, &["-Xint"]))
        });
        group.bench_function("java (whole process)", |b| b.iter(|| run_java(&setup, &[])));
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&setup.dir);
}

criterion_group!(benches, vm_against_jvm);
criterion_main!(benches);
