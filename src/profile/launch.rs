//! Running a Java program under the agent: the agent configuration, the `java` process (standard
//! streams and exit status passed through) and reading its profile.

use super::agent::agent_jar;
use super::cct::{parse_cct, Cct};
use super::intrinsics::cached_jit_flags;
use super::tools::{find_tool, ProfileError};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, ExitStatus};

/// Checks a `--only` selector: `Class.method`, `pkg.Class.method`, `Class.method(descriptor)` or
/// just `method`, as `jresa ir --method` takes them.
pub fn check_selector(selector: &str) -> Result<(), ProfileError> {
    let bad = |reason: &str| {
        Err(ProfileError::BadSelector {
            selector: selector.to_owned(),
            reason: reason.to_owned(),
        })
    };
    if selector.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("it contains white space");
    }
    let (head, descriptor) = match selector.find('(') {
        Some(k) => (&selector[..k], Some(&selector[k..])),
        None => (selector, None),
    };
    let name = head.rsplit('.').next().unwrap_or(head);
    if name.is_empty() {
        return bad("the method name is empty (expected Class.method)");
    }
    if name != "<init>" && name != "<clinit>" && name.contains(['/', ';', '[', '<', '>']) {
        return bad("the method name contains a character a JVM method name cannot have");
    }
    if head.starts_with('.') || head.contains("..") {
        return bad("the class name is empty (expected Class.method)");
    }
    if let Some(descriptor) = descriptor {
        let well_formed = descriptor.find(')').is_some_and(|close| close + 1 < descriptor.len());
        if !well_formed {
            return bad("the descriptor must look like (I)V");
        }
    }
    Ok(())
}

/// What to run and how to profile it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileRequest {
    /// `--only` selectors; empty to profile everything.
    pub only: Vec<String>,
    /// Everything that follows `java` on its command line: options, class or `-jar`, arguments.
    pub java_args: Vec<OsString>,
}

/// The outcome of a profiled run.
#[derive(Debug)]
pub struct ProfileRun {
    /// The exit code to pass on: the program's, or 128 + the signal that ended it.
    pub exit_code: u8,
    /// The profile, or why there is none.
    pub profile: Result<Cct, ProfileError>,
    /// Whether the agent jar was built for this run (the first run after a change).
    pub agent_built: bool,
    /// Problems that did not stop the run but may affect the profile.
    pub warnings: Vec<String>,
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// HotSpot options that make C2 inline the probes every instrumented method runs, whatever their
/// compiled size: compiled on its own first, `Probe.enter` grows past the size up to which C2
/// inlines an already compiled method, and every entry became a real call (about a third of the
/// time of call-heavy code). Their rare paths stay out of line. `quiet` keeps the JVM from
/// printing the commands on the program's standard output.
const PROBE_INLINING: &[&str] = &[
    "-XX:CompileCommand=quiet",
    "-XX:CompileCommand=inline,jresa.agent.Probe::state",
    "-XX:CompileCommand=inline,jresa.agent.Probe::enter",
    "-XX:CompileCommand=inline,jresa.agent.Probe::site",
    "-XX:CompileCommand=inline,jresa.agent.Probe::returned",
    "-XX:CompileCommand=inline,jresa.agent.Probe::exit",
    "-XX:CompileCommand=inline,jresa.agent.Probe::resume",
    "-XX:CompileCommand=inline,jresa.agent.Probe::count",
    "-XX:CompileCommand=inline,jresa.agent.Probe::countReset",
    "-XX:CompileCommand=dontinline,jresa.agent.Probe::lookup",
    "-XX:CompileCommand=dontinline,jresa.agent.Probe::enterSlowly",
];

/// Builds (or finds) the agent, runs `java` with it, the flags of [`cached_jit_flags`] and the request's
/// arguments, waits for the program and reads the profile. The program's standard streams are the
/// caller's.
pub fn run_profiled(request: &ProfileRequest) -> Result<ProfileRun, ProfileError> {
    for selector in &request.only {
        check_selector(selector)?;
    }
    let java = find_tool("java")?;
    let jar = agent_jar()?;
    let dir = std::env::temp_dir().join(format!(
        "jresa-profile-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| ProfileError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let temp = TempDir(dir);
    let output = temp.0.join("profile.cct");
    let config = temp.0.join("agent.conf");
    let output_text = output.to_str().ok_or_else(|| {
        ProfileError::Io(format!(
            "the temporary directory {} is not valid UTF-8",
            temp.0.display()
        ))
    })?;
    let mut settings = format!("out {output_text}\n");
    // Instrumented JDK classes and the JVM's flags are kept beside the agent jar, whose directory is
    // per agent build.
    let cache_dir = jar.path.parent().unwrap_or(&temp.0).to_path_buf();
    if let Some(cache) = cache_dir.to_str() {
        settings.push_str(&format!("cache {cache}\n"));
    }
    for selector in &request.only {
        settings.push_str(&format!("only {selector}\n"));
    }
    std::fs::write(&config, settings)
        .map_err(|e| ProfileError::Io(format!("cannot write {}: {e}", config.display())))?;

    // The JIT flags come first, so that the program's own options can override them.
    let (flags, warning) = cached_jit_flags(&java, &cache_dir);
    let mut agent_option = OsString::from("-javaagent:");
    agent_option.push(jar.path.as_os_str());
    agent_option.push("=");
    agent_option.push(config.as_os_str());
    let status = Command::new(&java)
        .args(&flags)
        .args(PROBE_INLINING)
        .arg(agent_option)
        .args(&request.java_args)
        .status()
        .map_err(|e| ProfileError::Launch(format!("{}: {e}", java.display())))?;

    let profile = match std::fs::read_to_string(&output) {
        Ok(text) => parse_cct(&text, &request.only).map_err(ProfileError::BadProfile),
        Err(_) => Err(ProfileError::MissingProfile(format!(
            "the JVM ended ({status}) before its shutdown hooks ran (it failed to start, crashed, was killed, or called Runtime.halt)"
        ))),
    };
    Ok(ProfileRun {
        exit_code: exit_code(status),
        profile,
        agent_built: jar.built,
        warnings: warning.into_iter().collect(),
    })
}

/// The exit code a shell would report for the status.
fn exit_code(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return (code & 0xff) as u8;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return (128 + signal).clamp(0, 255) as u8;
        }
    }
    1
}
