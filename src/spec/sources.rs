//! The Java sources of the `jresa.spec` package, embedded in the binary: written out for users
//! (`jresa specs --out DIR`) and compiled with the JDK so that `.java` inputs can use them.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each source file of `specs/src`, by its path relative to a source root.
pub const SPEC_SOURCES: &[(&str, &str)] = &[
    (
        "jresa/spec/Requires.java",
        include_str!("../../specs/src/jresa/spec/Requires.java"),
    ),
    (
        "jresa/spec/Ensures.java",
        include_str!("../../specs/src/jresa/spec/Ensures.java"),
    ),
    (
        "jresa/spec/Invariant.java",
        include_str!("../../specs/src/jresa/spec/Invariant.java"),
    ),
    (
        "jresa/spec/Invariants.java",
        include_str!("../../specs/src/jresa/spec/Invariants.java"),
    ),
    (
        "jresa/spec/Resource.java",
        include_str!("../../specs/src/jresa/spec/Resource.java"),
    ),
    (
        "jresa/spec/Loop.java",
        include_str!("../../specs/src/jresa/spec/Loop.java"),
    ),
];

/// The package name sources mention when they use the specifications.
pub const SPEC_PACKAGE: &str = "jresa.spec";

/// Writes the spec sources under `root` (as `root/jresa/spec/*.java`) and returns their paths.
pub fn write_sources(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::new();
    for (relative, text) in SPEC_SOURCES {
        let path = root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        paths.push(path);
    }
    Ok(paths)
}

/// Compiles the spec sources (written under `source_root`) into `classes` with `javac`.
pub fn compile(source_root: &Path, classes: &Path) -> Result<(), String> {
    let sources = write_sources(source_root)?;
    std::fs::create_dir_all(classes).map_err(|e| format!("cannot create {}: {e}", classes.display()))?;
    let mut javac = Command::new("javac");
    javac
        .args(["-encoding", "UTF-8", "--release", "8", "-d"])
        .arg(classes)
        .args(&sources);
    run(javac, "javac")
}

/// Runs a JDK tool; `Err` with its error output when it fails.
fn run(mut command: Command, tool: &str) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("cannot run {tool}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{tool} failed:\n{}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    Ok(())
}

/// Packs the compiled classes under `classes` into the jar `jar_path` with the JDK's `jar`.
pub fn package(classes: &Path, jar_path: &Path) -> Result<(), String> {
    let mut jar = Command::new("jar");
    jar.arg("--create")
        .arg("--file")
        .arg(jar_path)
        .arg("-C")
        .arg(classes)
        .arg(".");
    run(jar, "jar")
}
