//! The backends a benchmark compares on this machine, whether `java` runs here, and the classes
//! a benchmark runs.

use jresa_gpu_validate::{BackendKind, Backends, Package};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
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

/// The classes a benchmark runs: `JRESA_BENCH_CLASSES` when it is set (compiled elsewhere, for
/// machines without a JDK), else `dir` once `javac -d dir ARGS` succeeded.
pub fn compiled_classes(dir: &Path, javac_args: &[OsString]) -> Option<PathBuf> {
    if let Some(prebuilt) = std::env::var_os("JRESA_BENCH_CLASSES") {
        return Some(PathBuf::from(prebuilt));
    }
    let status = Command::new("javac")
        .arg("-d")
        .arg(dir)
        .args(javac_args)
        .status()
        .ok()?;
    if !status.success() {
        eprintln!("javac failed: nothing to benchmark");
        return None;
    }
    Some(dir.to_path_buf())
}
