//! Shared by `tests/analyze_expectations.rs`, `tests/analyze_soundness.rs` and the report tests
//! (the module `analyze_support` of `tests/suite.rs`): compiling the fixtures of this directory
//! with `javac -g`, analysing them, reading their `// expect:` lines, and comparing output with
//! golden files.

#![allow(dead_code)]

use jresa::analyze::{analyze, AnalysisReport, MethodReport};
use jresa::classfile::{read_inputs, ClassFile, ClassPath};
use jresa_analyses::cost_model::CostModel;
use std::path::{Path, PathBuf};

/// `tests/data/analyze`.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analyze")
}

/// The fixture sources, sorted by name.
pub fn fixtures() -> Vec<PathBuf> {
    fixtures_in(&data_dir())
}

/// The Java sources of `dir`, sorted by name.
pub fn fixtures_in(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 5, "the analyze fixtures are missing");
    sources
}

/// The file stem of a fixture, which is also its class name.
pub fn stem(source: &Path) -> String {
    source
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a UTF-8 file name")
        .to_owned()
}

/// A fresh, empty directory for one test binary and one purpose.
pub fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{test}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// Compiles `sources` with `javac -g` into `out` (with `out` on the class path).
pub fn javac(sources: &[PathBuf], out: &Path) {
    let output = crate::javac()
        .args(["-g", "-encoding", "UTF-8", "-cp"])
        .arg(out)
        .arg("-d")
        .arg(out)
        .args(sources)
        .output()
        .expect("javac runs (JDK 17 is required)");
    assert!(
        output.status.success(),
        "javac failed on {sources:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Compiles one fixture alone into `out` and reads back its classes, sorted by name.
pub fn compile_fixture(source: &Path, out: &Path) -> Vec<ClassFile> {
    javac(&[source.to_path_buf()], out);
    let loaded = read_inputs(&[out.to_path_buf()]);
    assert!(
        loaded.errors.is_empty(),
        "reading the classes of {}: {:?}",
        source.display(),
        loaded.errors
    );
    let mut classes = loaded.classes;
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    classes
}

/// Every method of `classes`, analysed under the instructions model with the JDK on the class path.
pub fn analyze_all(classes: &[ClassFile]) -> AnalysisReport {
    let classpath = ClassPath::default_jdk().ok();
    analyze(classes, classpath.as_ref(), CostModel::Instructions, &|_, _| true)
}

/// What a fixture's comment says about a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A bound in this asymptotic class, spelled as `MethodReport::complexity`, for every input.
    Class(String),
    /// A bound in this class for inputs away from their types' limits only (a precondition):
    /// closer to them, integer arithmetic may overflow. `// expect: O(n) for inputs within limits`.
    Conditional(String),
    /// No bound: the method does not terminate for some inputs, or its cost is beyond the analysis.
    Unbounded,
    /// No bound, and `terminates == Some(false)`: the loop never exits once reached.
    Nonterminating,
    /// No bound (the cost is not bounded by the inputs: it depends on values read from the
    /// heap, say), but `terminates == Some(true)`: every loop is ranked and every callee
    /// terminates. `// expect: terminating`.
    Terminating,
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Class(class) => f.write_str(class),
            Expected::Conditional(class) => write!(f, "{class} for inputs within limits"),
            Expected::Unbounded => f.write_str("unbounded"),
            Expected::Nonterminating => f.write_str("nonterminating"),
            Expected::Terminating => f.write_str("terminating"),
        }
    }
}

/// One `// expect:` line and the method declared after it.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The class: the fixture's stem, or `Stem$Nested` for a method of a nested class.
    pub class: String,
    /// The method's JVM name (`<init>` for a constructor).
    pub method: String,
    /// The line of the `// expect:` comment (1-based).
    pub line: usize,
    pub expected: Expected,
}

/// The classes a fixture's lines are in: the fixture's class, and for the lines of a nested class
/// (`class Name ... {` inside it, up to its closing brace) `Stem$Name`. Braces are counted per line
/// (fixtures put none in strings or comments).
fn enclosing_classes(stem: &str, text: &str) -> Vec<String> {
    let mut open: Vec<(String, i64)> = Vec::new();
    let mut depth: i64 = 0;
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let declared = words
            .iter()
            .position(|w| *w == "class" || *w == "interface")
            .and_then(|k| words.get(k + 1))
            .filter(|_| line.ends_with('{') && !line.starts_with("//") && !line.starts_with('*'));
        if let Some(name) = declared {
            let name = name.trim_end_matches('{');
            let full = match open.last() {
                Some((outer, _)) => format!("{outer}${name}"),
                None if name == stem => stem.to_owned(),
                None => name.to_owned(),
            };
            open.push((full, depth));
        }
        out.push(open.last().map_or_else(|| stem.to_owned(), |(c, _)| c.clone()));
        depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
        while open.last().is_some_and(|(_, d)| depth <= *d) {
            open.pop();
        }
    }
    out
}

/// Reads the `// expect: ...` lines of a fixture. Each must be followed, after blank lines,
/// comments and annotations only, by a method or constructor declaration, whose name is the
/// identifier before its first `(`; methods of nested classes belong to `Stem$Nested`. Panics on a
/// malformed file.
pub fn expectations(source: &Path) -> Vec<Expectation> {
    let stem = stem(source);
    let text = std::fs::read_to_string(source).expect("read the fixture");
    let classes = enclosing_classes(&stem, &text);
    let mut out = Vec::new();
    let mut pending: Option<(usize, Expected)> = None;
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let class = classes[k].clone();
        let here = format!("{}:{}", source.display(), k + 1);
        if let Some(rest) = line.strip_prefix("// expect:") {
            assert!(pending.is_none(), "{here}: two `// expect:` lines for one method");
            let rest = rest.trim();
            let expected = match rest {
                "unbounded" => Expected::Unbounded,
                "nonterminating" => Expected::Nonterminating,
                "terminating" => Expected::Terminating,
                _ if rest.starts_with("O(") && rest.ends_with(" for inputs within limits") => {
                    Expected::Conditional(rest.trim_end_matches(" for inputs within limits").to_owned())
                }
                _ if rest.starts_with("O(") && rest.ends_with(')') => Expected::Class(rest.to_owned()),
                _ => panic!("{here}: malformed expectation `{rest}`"),
            };
            pending = Some((k + 1, expected));
            continue;
        }
        let Some((expect_line, expected)) = pending.take() else {
            continue;
        };
        if line.is_empty()
            || line.starts_with("//")
            || line.starts_with("/*")
            || line.starts_with('*')
            || line.starts_with('@')
        {
            pending = Some((expect_line, expected));
            continue;
        }
        let open = line
            .find('(')
            .unwrap_or_else(|| panic!("{here}: expected a method declaration after line {expect_line}"));
        let name: String = line[..open]
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        assert!(
            !name.is_empty() && !line.starts_with("return") && line.ends_with('{'),
            "{here}: expected a method declaration after line {expect_line}"
        );
        let simple = class.rsplit('$').next().unwrap_or(&class);
        let method = if name == simple { "<init>".to_owned() } else { name };
        assert!(
            !out.iter().any(|e: &Expectation| e.class == class && e.method == method),
            "{here}: `{method}` is declared twice; fixtures must not overload"
        );
        out.push(Expectation {
            class,
            method,
            line: expect_line,
            expected,
        });
    }
    assert!(
        pending.is_none(),
        "{}: an `// expect:` line with no method after it",
        source.display()
    );
    out
}

/// The report of `class.method` (fixtures do not overload, so the name is enough).
pub fn find<'a>(report: &'a AnalysisReport, class: &str, method: &str) -> Option<&'a MethodReport> {
    let mut found = report.methods.iter().filter(|m| m.class == class && m.name == method);
    let first = found.next();
    assert!(found.next().is_none(), "{class}.{method} is overloaded");
    first
}

/// Compares `actual` with the expected file, or rewrites it under `UPDATE_EXPECT=1`.
pub fn check(expected_path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected_path, actual).expect("write expected file");
        return None;
    }
    let expected = match std::fs::read_to_string(expected_path) {
        Ok(text) => text,
        Err(_) => {
            return Some(format!(
                "missing {}; run with UPDATE_EXPECT=1 to create it",
                expected_path.display()
            ))
        }
    };
    if expected == actual {
        return None;
    }
    let first = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .map_or(expected.lines().count().min(actual.lines().count()) + 1, |k| k + 1);
    let line = |text: &str| text.lines().nth(first - 1).unwrap_or("<end of file>").to_owned();
    Some(format!(
        "{} differs from the report at line {first}:\n  expected: {}\n  actual:   {}\n(run with UPDATE_EXPECT=1 to accept)",
        expected_path.display(),
        line(&expected),
        line(actual)
    ))
}

/// What the analysis says about a method, in the vocabulary of the expectations: the complexity
/// of its bound when it reports one (`... for inputs within limits` under a precondition), else
/// `nonterminating` (no bound and `terminates: false`) or its status.
pub fn verdict(m: &MethodReport) -> String {
    if m.status == "bounded" {
        let class = m
            .complexity
            .clone()
            .unwrap_or_else(|| "bounded without a class".to_owned());
        return match m.precondition {
            Some(_) => format!("{class} for inputs within limits"),
            None => class,
        };
    }
    if m.terminates == Some(false) {
        return "nonterminating".to_owned();
    }
    m.status.to_string()
}

/// Whether the analysis's report meets the expectation exactly.
pub fn meets(expected: &Expected, m: &MethodReport) -> bool {
    match expected {
        Expected::Class(class) => {
            m.status == "bounded" && m.complexity.as_deref() == Some(class) && m.precondition.is_none()
        }
        Expected::Conditional(class) => {
            m.status == "bounded" && m.complexity.as_deref() == Some(class) && m.precondition.is_some()
        }
        // No bound; a proof of nontermination is fine too. A lifting error is not an answer.
        Expected::Unbounded => {
            m.status != "bounded"
                && m.status != "error"
                && m.bound.is_none()
                && m.upper_bound.is_none()
                && m.terminates != Some(true)
        }
        Expected::Terminating => m.status == "unknown" && m.terminates == Some(true) && m.upper_bound.is_none(),
        Expected::Nonterminating => m.status != "bounded" && m.terminates == Some(false) && m.upper_bound.is_none(),
    }
}

/// Where the report claims more than the expectation allows: a bound without a precondition, or
/// `terminates: true`, for a method that does not always terminate. `None` when it does not.
pub fn contradiction(expected: &Expected, m: &MethodReport) -> Option<&'static str> {
    match (expected, m.status.as_str()) {
        (Expected::Unbounded | Expected::Nonterminating, "bounded") if m.precondition.is_none() => {
            Some("a bound for a method that does not always terminate")
        }
        (Expected::Unbounded | Expected::Nonterminating, _) if m.terminates == Some(true) => {
            Some("`terminates` for a method that does not always terminate")
        }
        (Expected::Class(_) | Expected::Terminating, _) if m.terminates == Some(false) && m.precondition.is_none() => {
            Some("`does not terminate` for a method that always terminates")
        }
        _ => None,
    }
}
