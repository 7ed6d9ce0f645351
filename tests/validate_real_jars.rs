//! Soundness on real code: `jresa validate --max-size 3` on Debian's Apache Commons jars (CLI, Lang 3,
//! IO; the test installs their Debian packages where they are missing) must find no violated bound. Every bounded
//! method whose instances the VM runs faithfully is checked at a small scope; the per-method budget
//! keeps the run within minutes. The counts of confirmed methods are floors, so that a change that
//! silently stops validating most of a jar fails too. The jars are validated at the same time, one
//! `jresa` process each: a single run leaves cores idle for much of its time.

use std::path::Path;
use std::process::Command;

/// (jar, the fewest methods that must be confirmed).
const JARS: &[(&str, usize)] = &[
    ("/usr/share/java/commons-cli.jar", 140),
    ("/usr/share/java/commons-lang3.jar", 1150),
    ("/usr/share/java/commons-io.jar", 440),
];

fn validate(jar: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
        .args(["validate", "--max-size", "3", "-q", "--format", "json", jar])
        .output()
        .expect("run jresa validate");
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "{jar}: jresa validate exited with {code:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the JSON report")
}

/// The Debian packages of the jars.
const PACKAGES: &[&str] = &["libcommons-cli-java", "libcommons-lang3-java", "libcommons-io-java"];

/// Installs the jars' packages when one is missing (the machines this suite runs on are Debian's,
/// and tests run as root there).
fn ensure_jars() {
    if JARS.iter().all(|(jar, _)| Path::new(jar).exists()) {
        return;
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut install = vec!["install", "-y", "-q"];
    install.extend(PACKAGES);
    assert!(
        apt(&["update", "-q"]) && apt(&install),
        "the jars are missing and `apt-get install {}` failed",
        PACKAGES.join(" ")
    );
}

#[test]
fn no_bound_of_a_real_jar_is_violated() {
    ensure_jars();
    for &(jar, _) in JARS {
        assert!(
            Path::new(jar).exists(),
            "{jar} is missing after installing {PACKAGES:?}"
        );
    }
    let reports: Vec<serde_json::Value> = std::thread::scope(|scope| {
        let runs: Vec<_> = JARS
            .iter()
            .map(|&(jar, _)| scope.spawn(move || validate(jar)))
            .collect();
        runs.into_iter()
            .map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut failures = Vec::new();
    for (&(jar, floor), report) in JARS.iter().zip(&reports) {
        let methods = report["methods"].as_array().expect("methods");
        let mut confirmed = 0;
        for m in methods {
            match m["status"].as_str() {
                Some("confirmed") => confirmed += 1,
                Some("violated") => {
                    let first = &m["violating_instances"][0];
                    failures.push(format!(
                        "{jar}: {}.{}{} bound {} measured {} on {} (replay: {})",
                        m["class"].as_str().unwrap_or_default(),
                        m["name"].as_str().unwrap_or_default(),
                        m["descriptor"].as_str().unwrap_or_default(),
                        m["bound"],
                        first["measured"],
                        first["arguments"],
                        first["replay"].as_str().unwrap_or_default()
                    ));
                }
                _ => {}
            }
        }
        eprintln!("{jar}: {} methods, {confirmed} confirmed", methods.len());
        if confirmed < floor {
            failures.push(format!(
                "{jar}: only {confirmed} methods confirmed (at least {floor} expected)"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
