//! Benchmark of the value analysis and bounds stages on a fixed input: the classes of
//! `java.util.Arrays*` and `java.lang.Math` from the JDK's `java.base.jmod` (lifting, compilation,
//! fixpoint and cost solving per class). Reports throughput in analysed methods per second.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jresa::analyze::analyze;
use jresa::classfile::{find_java_base_jmod, ClassPath};
use jresa_analyses::cost_model::CostModel;
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
    let methods = classes
        .iter()
        .flat_map(|c| &c.methods)
        .filter(|m| m.code.is_some())
        .count();
    let mut group = c.benchmark_group("analyze");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(methods as u64));
    group.bench_function("Math, Arrays, ArrayList, Integer", |b| {
        b.iter(|| {
            analyze(&classes, Some(&classpath), CostModel::Instructions, &|_, _| true)
                .methods
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, fixed_classes);
criterion_main!(benches);
