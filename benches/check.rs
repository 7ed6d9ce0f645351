//! Benchmark of the amortised analysis (`jresa check`: proof search, LP in good_lp and the exact
//! re-check of its answer) on the fixed fixtures `tests/data/check/{IntList,Lists,Trees}.java`,
//! compiled with `javac -g` against the spec sources once. Reports throughput in annotated
//! methods per second.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The allocator of the `jresa` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use jresa::check::check;
use jresa::classfile::{read_inputs, ClassPath};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn fixtures(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = std::env::temp_dir().join(format!("jresa-bench-check-{}", std::process::id()));
    let classes_dir = scratch.join("classes");
    if let Err(message) = jresa::spec::sources::compile(&scratch.join("spec-src"), &classes_dir) {
        eprintln!("the spec sources do not compile ({message}): nothing to benchmark");
        return;
    }
    let sources: Vec<_> = ["IntList", "Lists", "Trees"]
        .iter()
        .map(|n| root.join(format!("tests/data/check/{n}.java")))
        .collect();
    let compiled = Command::new("javac")
        .args(["-g", "-nowarn", "-cp"])
        .arg(&classes_dir)
        .arg("-d")
        .arg(&classes_dir)
        .args(&sources)
        .status();
    if !compiled.is_ok_and(|s| s.success()) {
        eprintln!("javac failed: nothing to benchmark");
        return;
    }
    let loaded = read_inputs(std::slice::from_ref(&classes_dir));
    let _ = std::fs::remove_dir_all(&scratch);
    let classes: Vec<_> = loaded
        .classes
        .into_iter()
        .filter(|c| !c.name.starts_with("jresa/spec/"))
        .collect();
    let classpath = ClassPath::default_jdk().ok();
    let annotated = check(&classes, classpath.as_ref(), &|_, _| true).methods.len();
    let mut group = c.benchmark_group("check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(annotated as u64));
    group.bench_function("IntList, Lists, Trees", |b| {
        b.iter(|| check(&classes, classpath.as_ref(), &|_, _| true))
    });
    group.finish();
}

criterion_group!(benches, fixtures);
criterion_main!(benches);
