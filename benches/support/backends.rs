//! The backends a benchmark compares on this machine, and whether `java` runs here.

use jresa_gpu_validate::{BackendKind, Backends, Package};
use std::process::Command;

/// The backends this machine has, by name.
pub fn backends(package: &Package) -> Vec<(String, Backends<'_>)> {
    let mut found = Vec::new();
    for (name, kind) in [
        ("cpu", BackendKind::Cpu),
        ("host kernel", BackendKind::HostKernel),
        ("cuda", BackendKind::Cuda),
    ] {
        if kind == BackendKind::Cuda && jresa_gpu_validate::kernel::cuda::available().is_err() {
            continue;
        }
        if std::env::var("JRESA_BENCH_BACKENDS").is_ok_and(|only| !only.split(',').any(|b| b == name)) {
            continue;
        }
        if let Ok(backends) = Backends::new(kind, package) {
            found.push((name.to_owned(), backends));
        }
    }
    found
}

pub fn java_runs() -> bool {
    Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}
