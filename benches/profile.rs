//! Benchmark of `jresa profile`'s overhead: the wall time of three CPU-heavy programs of different
//! shapes (`benches/profile/`: tight loops over arrays, deep recursion through many call sites,
//! allocation-heavy code over the JDK's collections) run by `jresa profile` and by plain `java`,
//! and of `jresa profile -- -version` against `java -version`. Both sides are whole processes,
//! start-up included, timed alternately; each figure is the median of the runs, and the ratio is
//! profiled over plain. The first, unmeasured, profiled run of each program fills the agent's class
//! cache (so the figures are those of a warm cache, as a user sees them from the second run on).
//!
//! A plain harness, not criterion: each sample is a process of seconds, and the figures of interest
//! are the ratios. `JRESA_BENCH_RUNS=N` sets the runs per side (3 by default);
//! `JRESA_BENCH_PROFILE=Loops,Recursion` runs only the programs named.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The programs, with the argument that sizes them (half a second to a second of plain `java` each,
/// by the machine).
const WORKLOADS: &[(&str, &str)] = &[("Loops", "16"), ("Recursion", "10"), ("Collections", "2")];

fn runs() -> usize {
    std::env::var("JRESA_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3)
}

fn selected(name: &str) -> bool {
    std::env::var("JRESA_BENCH_PROFILE")
        .map(|list| list.split(',').any(|n| n.trim() == name))
        .unwrap_or(true)
}

/// Compiles the workloads into a fresh directory.
fn compile() -> PathBuf {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches").join("profile");
    let out = std::env::temp_dir().join(format!("jresa-bench-profile-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("create the classes directory");
    let files: Vec<PathBuf> = WORKLOADS
        .iter()
        .map(|(name, _)| sources.join(format!("{name}.java")))
        .collect();
    let status = Command::new("javac")
        .arg("-d")
        .arg(&out)
        .args(&files)
        .status()
        .expect("javac runs (JDK 17 is required)");
    assert!(status.success(), "javac failed on {}", sources.display());
    out
}

/// Runs a command to completion with its output discarded, and times it.
fn time(command: &mut Command) -> Duration {
    let started = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the command starts");
    let elapsed = started.elapsed();
    assert!(status.success(), "{command:?} failed: {status}");
    elapsed
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// `jresa profile --out FILE -- ARGS`.
fn profiled(args: &[&str], classes: &Path, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jresa"));
    command
        .arg("profile")
        .arg("--out")
        .arg(out)
        .arg("--")
        .args(cp(classes))
        .args(args);
    command
}

fn plain(args: &[&str], classes: &Path) -> Command {
    let mut command = Command::new("java");
    command.args(cp(classes)).args(args);
    command
}

fn cp(classes: &Path) -> Vec<std::ffi::OsString> {
    vec!["-cp".into(), classes.as_os_str().to_owned()]
}

/// Medians of plain and profiled runs, timed alternately after one profiled run that warms the cache.
fn compare(args: &[&str], classes: &Path, out: &Path) -> (Duration, Duration) {
    time(&mut profiled(args, classes, out));
    let (mut java, mut jresa) = (Vec::new(), Vec::new());
    for _ in 0..runs() {
        java.push(time(&mut plain(args, classes)));
        jresa.push(time(&mut profiled(args, classes, out)));
    }
    (median(java), median(jresa))
}

fn report(label: &str, (java, jresa): (Duration, Duration)) {
    println!(
        "{label:<22} java {:>8.3} s   jresa profile {:>8.3} s   ratio {:>5.2}x",
        java.as_secs_f64(),
        jresa.as_secs_f64(),
        jresa.as_secs_f64() / java.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    let classes = compile();
    let out = classes.join("profile.txt");
    println!(
        "jresa profile against plain java, median of {} runs each, warm class cache",
        runs()
    );
    report("java -version", compare(&["-version"], &classes, &out));
    for (name, scale) in WORKLOADS {
        if selected(name) {
            report(&format!("{name} {scale}"), compare(&[name, scale], &classes, &out));
        }
    }
    let _ = std::fs::remove_dir_all(&classes);
}
