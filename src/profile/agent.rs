//! The profiling agent's Java sources, embedded in the binary, and the cached agent jar built from them.
//!
//! The jar is built with the machine's `javac` and `jar` into `$XDG_CACHE_HOME/jresa` (or
//! `~/.cache/jresa`, or a directory under the system temporary directory when neither is usable), in
//! a subdirectory named after a hash of the embedded sources and the manifest, so a changed agent is
//! rebuilt and an unchanged one is reused. The finished jar is moved into place with one rename, so
//! concurrent builds never expose a partial jar.

use super::tools::{find_tool, ProfileError};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The agent's sources: file name and text.
pub const AGENT_SOURCES: &[(&str, &str)] = &[
    ("Agent.java", include_str!("agent/Agent.java")),
    ("ClassCache.java", include_str!("agent/ClassCache.java")),
    ("CodeOffsets.java", include_str!("agent/CodeOffsets.java")),
    ("Dump.java", include_str!("agent/Dump.java")),
    ("MethodRewriter.java", include_str!("agent/MethodRewriter.java")),
    ("Methods.java", include_str!("agent/Methods.java")),
    ("Node.java", include_str!("agent/Node.java")),
    ("Probe.java", include_str!("agent/Probe.java")),
    ("Selector.java", include_str!("agent/Selector.java")),
    ("ThreadState.java", include_str!("agent/ThreadState.java")),
    ("Transformer.java", include_str!("agent/Transformer.java")),
    ("WarmUp.java", include_str!("agent/WarmUp.java")),
];

/// The jar's file name. `Boot-Class-Path` names it relative to the jar itself, so it is fixed.
pub const JAR_NAME: &str = "jresa-agent.jar";

/// The agent's manifest. `Boot-Class-Path` puts the jar on the boot class path so that classes of
/// every loader, `java.base` included, can call the probe. No `Add-Exports`: the JDK honours it only
/// for executable jars, not agents (checked on JDK 17), so the agent exports the JDK's internal ASM
/// to itself with `Instrumentation.redefineModule` instead.
pub const MANIFEST: &str = "Premain-Class: jresa.agent.Agent\n\
Can-Retransform-Classes: true\n\
Boot-Class-Path: jresa-agent.jar\n";

/// Packages of the JDK's internal ASM the agent is compiled against.
const ASM_EXPORTS: &[&str] = &[
    "java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED",
    "java.base/jdk.internal.org.objectweb.asm.tree=ALL-UNNAMED",
];

/// A built agent jar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentJar {
    pub path: PathBuf,
    /// Whether this call built it (false when it came from the cache).
    pub built: bool,
}

/// FNV-1a, 64 bits: a stable hash for the cache key (no cryptographic strength needed).
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The hash of everything the jar is built from, as 16 hex digits.
pub fn source_hash() -> String {
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for (name, text) in AGENT_SOURCES {
        hash = fnv1a(hash, name.as_bytes());
        hash = fnv1a(hash, &[0]);
        hash = fnv1a(hash, text.as_bytes());
        hash = fnv1a(hash, &[0]);
    }
    hash = fnv1a(hash, MANIFEST.as_bytes());
    for export in ASM_EXPORTS {
        hash = fnv1a(hash, export.as_bytes());
    }
    format!("{hash:016x}")
}

/// The cache directory candidates, best first.
fn cache_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        roots.push(PathBuf::from(xdg).join("jresa"));
    }
    if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        roots.push(PathBuf::from(home).join(".cache").join("jresa"));
    }
    roots.push(std::env::temp_dir().join("jresa-cache"));
    roots
}

/// Returns the agent jar, building it first if the cache has none for the current sources.
pub fn agent_jar() -> Result<AgentJar, ProfileError> {
    let hash = source_hash();
    let mut last_error = None;
    for root in cache_roots() {
        let dir = root.join(format!("agent-{hash}"));
        let jar = dir.join(JAR_NAME);
        if jar.is_file() {
            return Ok(AgentJar {
                path: jar,
                built: false,
            });
        }
        match std::fs::create_dir_all(&dir) {
            Ok(()) => {
                build_into(&root, &dir)?;
                return Ok(AgentJar { path: jar, built: true });
            }
            Err(error) => last_error = Some(format!("{}: {error}", dir.display())),
        }
    }
    Err(ProfileError::AgentBuild(format!(
        "no usable cache directory ({})",
        last_error.unwrap_or_default()
    )))
}

/// Removes a directory tree when dropped.
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Compiles the sources and packs the jar in a private staging directory under `root`, then moves
/// the jar into `dir`.
fn build_into(root: &Path, dir: &Path) -> Result<(), ProfileError> {
    let javac = find_tool("javac")?;
    let jar_tool = find_tool("jar")?;
    let staging = root.join(format!(
        "build-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let _cleanup = RemoveOnDrop(staging.clone());
    let sources = staging.join("src").join("jresa").join("agent");
    let classes = staging.join("classes");
    let io = |what: &str, path: &Path, error: std::io::Error| {
        ProfileError::AgentBuild(format!("cannot {what} {}: {error}", path.display()))
    };
    std::fs::create_dir_all(&sources).map_err(|e| io("create", &sources, e))?;
    std::fs::create_dir_all(&classes).map_err(|e| io("create", &classes, e))?;
    let mut files = Vec::new();
    for (name, text) in AGENT_SOURCES {
        let path = sources.join(name);
        std::fs::write(&path, text).map_err(|e| io("write", &path, e))?;
        files.push(path);
    }
    let manifest = staging.join("manifest.txt");
    std::fs::write(&manifest, MANIFEST).map_err(|e| io("write", &manifest, e))?;

    let mut compile = Command::new(&javac);
    for export in ASM_EXPORTS {
        compile.arg("--add-exports").arg(export);
    }
    compile
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(&files);
    run_tool(compile, "javac")?;

    let packed = staging.join(JAR_NAME);
    let mut pack = Command::new(&jar_tool);
    pack.arg("--create")
        .arg("--file")
        .arg(&packed)
        .arg("--manifest")
        .arg(&manifest)
        .arg("-C")
        .arg(&classes)
        .arg(".");
    run_tool(pack, "jar")?;

    let target = dir.join(JAR_NAME);
    std::fs::rename(&packed, &target).map_err(|e| io("move the agent jar to", &target, e))
}

/// Runs a build tool, turning a failure into a diagnostic with its output.
fn run_tool(mut command: Command, name: &str) -> Result<(), ProfileError> {
    let output = command
        .output()
        .map_err(|error| ProfileError::AgentBuild(format!("cannot run {name}: {error}")))?;
    if output.status.success() {
        return Ok(());
    }
    let mut text = String::from_utf8_lossy(&output.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stdout));
    Err(ProfileError::AgentBuild(format!(
        "{name} failed ({}):\n{}",
        output.status,
        text.trim_end()
    )))
}
