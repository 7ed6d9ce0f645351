//! Benchmark of the front end and lifting stages on a fixed input: all of the JDK's `java.base.jmod`.
//! Reports throughput in classes (reading) and methods (lifting) per second.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The allocator of the `jresa` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use jresa::classfile::{find_java_base_jmod, read_inputs};
use jresa::lift::lift_all;
use std::time::Duration;

fn java_base(c: &mut Criterion) {
    let Some(jmod) = find_java_base_jmod() else {
        eprintln!("no java.base.jmod found: nothing to benchmark");
        return;
    };
    let loaded = read_inputs(std::slice::from_ref(&jmod));
    let methods = loaded
        .classes
        .iter()
        .flat_map(|c| &c.methods)
        .filter(|m| m.code.is_some())
        .count();

    let mut group = c.benchmark_group("java.base");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    group.throughput(Throughput::Elements(loaded.classes.len() as u64));
    group.bench_function("read classes", |b| {
        b.iter(|| read_inputs(std::slice::from_ref(&jmod)).classes.len())
    });
    group.throughput(Throughput::Elements(methods as u64));
    group.bench_function("lift methods", |b| {
        b.iter(|| {
            lift_all(&loaded.classes, |_, _| true)
                .iter()
                .filter(|l| l.result.is_ok())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, java_base);
criterion_main!(benches);
