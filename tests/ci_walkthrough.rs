//! The `examples/ci/` walk-through cannot rot: every `console` block of its README is a transcript
//! (`$ command` lines, then what the command prints, stdout and stderr together), and this test
//! runs those commands in one shell, in a copy of the directory with `jresa` on the `PATH`, and
//! compares what they print with the README (the run time in summary lines aside).
//! `UPDATE_EXPECT=1` rewrites the blocks from the run.

use std::path::{Path, PathBuf};
use std::process::Command;

fn example_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ci")
}

/// The lines inside each ```` ```console ```` block, and the byte ranges of their contents.
fn console_blocks(readme: &str) -> Vec<(std::ops::Range<usize>, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut offset = 0;
    let mut open: Option<usize> = None;
    for line in readme.split_inclusive('\n') {
        let end = offset + line.len();
        match (open, line.trim_end()) {
            (None, "```console") => open = Some(end),
            (Some(start), "```") => {
                let body = &readme[start..offset];
                blocks.push((start..offset, body.lines().map(str::to_owned).collect()));
                open = None;
            }
            _ => {}
        }
        offset = end;
    }
    assert!(open.is_none(), "an unclosed console block");
    blocks
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a directory");
    for entry in std::fs::read_dir(from).expect("read a directory") {
        let entry = entry.expect("a directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

/// The run time and the throughput of a summary line (`5 methods: ... in 1.2 s (80.0% bounded,
/// 4.2 methods/s)`) replaced by `#`.
fn without_time(line: &str) -> String {
    let is_summary = line
        .split_once(" method")
        .is_some_and(|(count, _)| count.parse::<usize>().is_ok());
    let Some((head, tail)) = line.rsplit_once(" in ").filter(|_| is_summary) else {
        return line.to_owned();
    };
    match tail.split_once(" s (") {
        Some((_, rest)) => match rest.rsplit_once(", ") {
            Some((share, rate)) if rate.ends_with(" methods/s)") => format!("{head} in # s ({share}, # methods/s)"),
            _ => line.to_owned(),
        },
        None if tail.ends_with(" s") => format!("{head} in # s"),
        None => line.to_owned(),
    }
}

/// A shell word quoting `text` exactly.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[test]
fn the_walkthrough_prints_what_its_readme_shows() {
    let readme_path = example_dir().join("README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("examples/ci/README.md");
    let blocks = console_blocks(&readme);
    assert!(blocks.len() >= 3, "the README has {} console blocks", blocks.len());
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ci-walkthrough-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    copy_tree(&example_dir(), &work);
    // One shell runs every command in order, so `$?` and file changes carry over; before each
    // command it prints the command and restores the previous exit status.
    const SEPARATOR: &str = "--- next block ---";
    let mut script = String::from("exec 2>&1\nstatus=0\n");
    for (k, (_, lines)) in blocks.iter().enumerate() {
        if k > 0 {
            script.push_str(&format!("echo {}\n", quoted(SEPARATOR)));
        }
        for command in lines.iter().filter_map(|l| l.strip_prefix("$ ")) {
            script.push_str(&format!(
                "printf '%s\\n' {}\n(exit $status)\n{command}\nstatus=$?\n",
                quoted(&format!("$ {command}"))
            ));
        }
    }
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_jresa"))
        .parent()
        .expect("the binary's directory");
    let path = format!("{}:{}", binary_dir.display(), std::env::var("PATH").unwrap_or_default());
    let output = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(&work)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    let transcript = String::from_utf8_lossy(&output.stdout).into_owned();
    let actual: Vec<Vec<String>> = transcript
        .split(&format!("{SEPARATOR}\n"))
        .map(|block| block.lines().map(str::to_owned).collect())
        .collect();
    assert_eq!(actual.len(), blocks.len(), "the transcript:\n{transcript}");
    let _ = std::fs::remove_dir_all(&work);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let mut updated = readme.clone();
        for ((range, _), lines) in blocks.iter().zip(&actual).rev() {
            updated.replace_range(range.clone(), &format!("{}\n", lines.join("\n")));
        }
        std::fs::write(&readme_path, updated).expect("rewrite the README");
        return;
    }
    for ((_, expected), actual) in blocks.iter().zip(&actual) {
        let expected: Vec<String> = expected.iter().map(|l| without_time(l)).collect();
        let actual: Vec<String> = actual.iter().map(|l| without_time(l)).collect();
        assert_eq!(
            expected.join("\n"),
            actual.join("\n"),
            "examples/ci/README.md differs from what its commands print (UPDATE_EXPECT=1 rewrites it)"
        );
    }
}
