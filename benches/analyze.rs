//! Benchmarks of the whole cost analysis (lifting, compilation, fixpoint and cost solving per
//! class) on fixed inputs, in analysed methods per second:
//! - `analyze/Math, Arrays, ArrayList, Integer`: four classes of the JDK's `java.base.jmod`;
//! - `analyze-jar/commons-lang3 cold` and `warm`: every method of Debian's
//!   `/usr/share/java/commons-lang3.jar` against the JDK, with the CLI's default budget of 10 s a
//!   method, without a cache and with a cache of library summaries that an earlier run filled
//!   (about two minutes a run on two cores: `cargo bench --bench analyze -- commons-lang3`).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The allocator of the `jresa` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use jresa::analyze::{analyze_with, AnalyzeOptions};
use jresa::classfile::{find_java_base_jmod, read_inputs, ClassFile, ClassPath};
use jresa_analyses::cost_model::CostModel;
use std::path::PathBuf;
use std::time::Duration;

fn fixed_classes(c: &mut Criterion) {
    let Some(jmod) = find_java_base_jmod() else {
        eprintln!("no java.base.jmod found: nothing to benchmark");
        return;
    };
    let Ok(classpath) = ClassPath::from_paths(std::slice::from_ref(&jmod)) else {
        return;
    };
    let names = [
        "java/lang/Math",
        "java/util/Arrays",
        "java/util/ArrayList",
        "java/lang/Integer",
    ];
    let classes: Vec<_> = names
        .iter()
        .filter_map(|n| classpath.get(n))
        .map(|c| (*c).clone())
        .collect();
    let options = AnalyzeOptions::default();
    bench_analysis(
        c,
        ("analyze", "Math, Arrays, ArrayList, Integer"),
        &classes,
        &classpath,
        &options,
        30,
    );
}

/// The whole of commons-lang3 (skipped where the jar is not installed).
fn commons_lang3(c: &mut Criterion) {
    let jar = PathBuf::from("/usr/share/java/commons-lang3.jar");
    let (Some(jmod), true) = (find_java_base_jmod(), jar.exists()) else {
        eprintln!("no commons-lang3.jar or java.base.jmod: nothing to benchmark");
        return;
    };
    let Ok(classpath) = ClassPath::from_paths(std::slice::from_ref(&jmod)) else {
        return;
    };
    let classes = read_inputs(std::slice::from_ref(&jar)).classes;
    let cold = AnalyzeOptions {
        method_budget: Some(Duration::from_secs(10)),
        progress: None,
        cache_dir: None,
    };
    bench_analysis(
        c,
        ("analyze-jar", "commons-lang3 cold"),
        &classes,
        &classpath,
        &cold,
        60,
    );
    let Ok(cache) = tempfile::tempdir() else {
        return;
    };
    let warm = AnalyzeOptions {
        cache_dir: Some(cache.path()),
        ..cold
    };
    // Fills the cache; criterion's own warm-up then finds it full.
    analyze_with(&classes, Some(&classpath), CostModel::Instructions, &|_, _| true, &warm);
    bench_analysis(
        c,
        ("analyze-jar", "commons-lang3 warm"),
        &classes,
        &classpath,
        &warm,
        60,
    );
}

/// Benchmarks the analysis of every method of `classes` (group and function names in `name`), in
/// methods per second, ten samples within `seconds`.
fn bench_analysis(
    c: &mut Criterion,
    name: (&str, &str),
    classes: &[ClassFile],
    classpath: &ClassPath,
    options: &AnalyzeOptions<'_>,
    seconds: u64,
) {
    let methods = classes
        .iter()
        .flat_map(|c| &c.methods)
        .filter(|m| m.code.is_some())
        .count();
    let mut group = c.benchmark_group(name.0);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(seconds))
        .warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(methods as u64));
    group.bench_function(name.1, |b| {
        b.iter(|| {
            analyze_with(classes, Some(classpath), CostModel::Instructions, &|_, _| true, options)
                .methods
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, fixed_classes, commons_lang3);
criterion_main!(benches);
