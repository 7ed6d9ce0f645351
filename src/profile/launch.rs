//! Running a Java program under the agent: the agent configuration, the `java` process (standard
//! streams and exit status passed through) and reading its profile.

use super::agent::agent_jar;
use super::cct::{parse_cct, Cct, ParseError};
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
    "-XX:CompileCommand=inline,jresa.agent.Probe::lastAtSite",
    "-XX:CompileCommand=inline,jresa.agent.Probe::site",
    "-XX:CompileCommand=inline,jresa.agent.Probe::returned",
    "-XX:CompileCommand=inline,jresa.agent.Probe::exit",
    "-XX:CompileCommand=inline,jresa.agent.Probe::resume",
    "-XX:CompileCommand=inline,jresa.agent.Probe::count",
    "-XX:CompileCommand=inline,jresa.agent.Probe::countReset",
    "-XX:CompileCommand=dontinline,jresa.agent.Probe::lookup",
    "-XX:CompileCommand=dontinline,jresa.agent.Probe::enterSlowly",
];

/// The collector the profiled JVM runs with when neither the program's options nor the JVM's
/// option variables choose one. The calling-context tree is a large, long-lived structure that every
/// call walks in the order it was built; the serial collector compacts it in allocation order, where
/// the parallel collectors (G1, the default, and Parallel) scatter it when they copy it, and a
/// program whose contexts do not fit the caches then waits on memory at every call (on the
/// recursion benchmark, `benches/profile.rs`, half the wall time). The collector changes no count.
const PROFILE_COLLECTOR: &str = "-XX:+UseSerialGC";

/// Options of the `java` launcher that take the next argument as their value.
const OPTIONS_WITH_VALUES: &[&str] = &[
    "-cp",
    "-classpath",
    "--class-path",
    "-p",
    "--module-path",
    "--upgrade-module-path",
    "--add-modules",
    "--limit-modules",
    "--add-reads",
    "--add-exports",
    "--add-opens",
    "--patch-module",
    "--enable-native-access",
];

/// Whether `option` selects a garbage collector (`-XX:+UseG1GC`, `-XX:+UseZGC`, ...).
fn selects_collector(option: &str) -> bool {
    option.starts_with("-XX:+Use") && option.ends_with("GC")
}

/// Whether the JVM options among `java_args` (those before the main class, `-jar` or `-m`), or the
/// environment's `JDK_JAVA_OPTIONS` and `JAVA_TOOL_OPTIONS`, select a collector.
fn chooses_collector(java_args: &[OsString]) -> bool {
    options_choose_collector(java_args)
        || ["JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"]
            .iter()
            .filter_map(std::env::var_os)
            .any(|value| value.to_string_lossy().split_whitespace().any(selects_collector))
}

/// Whether the JVM options among `java_args` select a collector.
fn options_choose_collector(java_args: &[OsString]) -> bool {
    let mut args = java_args.iter().map(|a| a.to_string_lossy());
    while let Some(arg) = args.next() {
        if selects_collector(&arg) {
            return true;
        }
        if OPTIONS_WITH_VALUES.contains(&arg.as_ref()) {
            args.next();
        } else if !arg.starts_with('-') || arg == "-jar" || arg == "-m" || arg == "--module" {
            break;
        }
    }
    false
}

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
    let collector = (!chooses_collector(&request.java_args)).then_some(PROFILE_COLLECTOR);
    // On Unix the profile comes through a named pipe, parsed while the agent writes it.
    #[cfg(unix)]
    let pipe = pipe::ProfilePipe::open(&output, &request.only).ok();
    let status = Command::new(&java)
        .args(&flags)
        .args(collector)
        .args(PROBE_INLINING)
        .arg(agent_option)
        .args(&request.java_args)
        .status()
        .map_err(|e| ProfileError::Launch(format!("{}: {e}", java.display())))?;
    #[cfg(unix)]
    let read = match pipe {
        Some(pipe) => pipe.finish(),
        None => read_file(&output, &request.only),
    };
    #[cfg(not(unix))]
    let read = read_file(&output, &request.only);
    let profile = match read {
        Some(parsed) => parsed.map_err(ProfileError::BadProfile),
        None => Err(ProfileError::MissingProfile(format!(
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

/// The profile the agent wrote to a file, parsed; `None` when there is no file or it is empty.
fn read_file(path: &std::path::Path, only: &[String]) -> Option<Result<Cct, ParseError>> {
    let text = std::fs::read_to_string(path).ok().filter(|t| !t.is_empty())?;
    Some(parse_cct(&text, only))
}

/// A named pipe in place of the profile file, read by a thread while the JVM runs: the agent writes
/// its tree at exit, and the tree is parsed as it comes instead of after the JVM has ended.
#[cfg(unix)]
mod pipe {
    use super::super::cct::{read_cct, Cct, ParseError};
    use std::fs::File;
    use std::io::BufReader;
    use std::path::Path;
    use std::thread::JoinHandle;

    type Parsed = Option<Result<Cct, ParseError>>;

    pub struct ProfilePipe {
        /// Our own writing end: it lets the reader's open return before the JVM opens the pipe,
        /// and the reader sees the end of the data once it and the JVM's are closed.
        writer: File,
        reader: JoinHandle<std::io::Result<Parsed>>,
    }

    impl ProfilePipe {
        /// Makes the pipe at `path` and starts its reader; where that fails, nothing is left at
        /// `path` (the agent then writes a file there).
        pub fn open(path: &Path, only: &[String]) -> std::io::Result<ProfilePipe> {
            rustix::fs::mkfifoat(rustix::fs::CWD, path, rustix::fs::Mode::from_raw_mode(0o600))?;
            Self::start(path, only).inspect_err(|_| {
                let _ = std::fs::remove_file(path);
            })
        }

        fn start(path: &Path, only: &[String]) -> std::io::Result<ProfilePipe> {
            // Opening a pipe for reading and writing does not wait on Linux; the read-only open
            // then finds a writer and does not wait either. Both are closed on exec.
            let writer = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
            let input = File::open(path)?;
            let only = only.to_vec();
            let reader = std::thread::Builder::new()
                .name("profile reader".into())
                .spawn(move || read_cct(BufReader::with_capacity(1 << 16, input), &only))?;
            Ok(ProfilePipe { writer, reader })
        }

        /// The profile, once the JVM has ended: `None` when it wrote none.
        pub fn finish(self) -> Parsed {
            drop(self.writer);
            match self.reader.join() {
                Ok(Ok(parsed)) => parsed,
                Ok(Err(error)) => Some(Err(ParseError {
                    line: 0,
                    message: format!("reading the profile: {error}"),
                })),
                Err(_) => Some(Err(ParseError {
                    line: 0,
                    message: "the profile's reader stopped".into(),
                })),
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn a_collector_chosen_among_the_jvm_options_is_kept() {
        assert!(options_choose_collector(&args("-XX:+UseZGC -cp . Main")));
        assert!(options_choose_collector(&args(
            "-cp lib -Xmx1g -XX:+UseParallelGC -jar app.jar"
        )));
        // After the main class, `-jar` or `-m`, arguments belong to the program.
        assert!(!options_choose_collector(&args("-cp . Main -XX:+UseZGC")));
        assert!(!options_choose_collector(&args("-jar app.jar -XX:+UseG1GC")));
        // The value of `-cp` is not the main class.
        assert!(options_choose_collector(&args("-cp Main -XX:+UseG1GC Main")));
        assert!(!options_choose_collector(&args("-version")));
        assert!(!options_choose_collector(&args("-XX:-UseCompressedOops -cp . Main")));
    }
}
