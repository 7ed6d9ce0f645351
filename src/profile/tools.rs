//! What the profiler's modules share: its error type and finding the JDK's tools (`java`, `javac`,
//! `jar`). Both the agent build (`agent.rs`) and the launcher (`launch.rs`) use them, so neither
//! depends on the other for them.

use super::cct::ParseError;
use std::path::{Path, PathBuf};

/// Why profiling could not start or produced no profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileError {
    /// A JDK tool (`java`, `javac`, `jar`) is neither in `$JAVA_HOME/bin` nor on the `PATH`.
    ToolNotFound(String),
    /// The agent jar could not be built.
    AgentBuild(String),
    /// A `--only` selector is malformed.
    BadSelector { selector: String, reason: String },
    /// Preparing the run failed (temporary files).
    Io(String),
    /// The `java` process could not be started.
    Launch(String),
    /// The JVM ended without writing a profile.
    MissingProfile(String),
    /// The profile file is malformed.
    BadProfile(ParseError),
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProfileError::ToolNotFound(tool) => write!(
                f,
                "cannot find `{tool}`: install a JDK (17 or later) and put its bin directory on the PATH, or set JAVA_HOME"
            ),
            ProfileError::AgentBuild(message) => {
                write!(f, "cannot build the profiling agent: {message}")
            }
            ProfileError::BadSelector { selector, reason } => {
                write!(f, "bad --only selector `{selector}`: {reason}")
            }
            ProfileError::Io(message) => write!(f, "{message}"),
            ProfileError::Launch(message) => write!(f, "cannot start java: {message}"),
            ProfileError::MissingProfile(message) => write!(f, "no profile was written: {message}"),
            ProfileError::BadProfile(error) => write!(f, "the agent's profile is malformed: {error}"),
        }
    }
}

impl std::error::Error for ProfileError {}

/// Finds a JDK tool: `$JAVA_HOME/bin/<name>` when that exists, else the first `<name>` on the `PATH`.
pub fn find_tool(name: &str) -> Result<PathBuf, ProfileError> {
    if let Some(home) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let candidate = PathBuf::from(home).join("bin").join(name);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    Err(ProfileError::ToolNotFound(name.to_owned()))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file() || path.with_extension("exe").is_file()
}
