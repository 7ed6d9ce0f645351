//! Java sources given on the command line: compiled with the JDK's `javac -g` into a temporary
//! directory, which then stands in for them as an input. Sources that use the `jresa.spec`
//! annotations and markers are compiled against them (the embedded spec sources, compiled into
//! the same temporary directory), so users need not build the specs themselves.
use crate::classfile::InputError;
use std::path::PathBuf;
use std::process::Command;

/// A directory removed when dropped.
pub struct TempClasses {
    pub dir: PathBuf,
}

impl Drop for TempClasses {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Replaces every `.java` path by one directory of classes compiled from all of them together.
/// Returns the new input list and the directory to keep alive while the classes are read.
pub fn compile_java_inputs(paths: &[PathBuf]) -> (Vec<PathBuf>, Option<TempClasses>, Vec<InputError>) {
    let (sources, mut inputs): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .iter()
        .cloned()
        .partition(|p| p.extension().is_some_and(|x| x == "java"));
    if sources.is_empty() {
        return (inputs, None, Vec::new());
    }
    let origin = sources
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let root = std::env::temp_dir().join(format!("jresa-javac-{}-{}", std::process::id(), unique_suffix()));
    let dir = root.join("classes");
    if let Err(error) = std::fs::create_dir_all(&dir) {
        return (
            inputs,
            None,
            vec![InputError::new(
                origin,
                format!("cannot create {}: {error}", dir.display()),
            )],
        );
    }
    let temp = TempClasses { dir: root.clone() };
    let uses_specs = sources
        .iter()
        .any(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains(crate::spec::sources::SPEC_PACKAGE)));
    let mut javac = Command::new("javac");
    javac.args(["-g", "-encoding", "UTF-8", "-d"]).arg(&dir);
    if uses_specs {
        let spec_classes = root.join("spec-classes");
        if let Err(message) = crate::spec::sources::compile(&root.join("spec-src"), &spec_classes) {
            return (inputs, None, vec![InputError::new(origin, message)]);
        }
        javac.arg("-cp").arg(&spec_classes);
    }
    let output = javac.args(&sources).output();
    match output {
        Err(error) => (
            inputs,
            None,
            vec![InputError::new(
                origin,
                format!("cannot run javac (a JDK is needed for .java inputs): {error}"),
            )],
        ),
        Ok(out) if !out.status.success() => {
            let message = format!("javac failed:\n{}", String::from_utf8_lossy(&out.stderr).trim_end());
            (inputs, None, vec![InputError::new(origin, message)])
        }
        Ok(_) => {
            inputs.push(dir);
            (inputs, Some(temp), Vec::new())
        }
    }
}

fn unique_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Locates the source file of a class for reports, as a path relative to the current directory
/// (with `/` separators): the `.java` input whose path ends with the class's package directory and
/// `SourceFile` (or the only input with that file name), else `source_root/package/SourceFile`,
/// else `package/SourceFile`. Arguments: the class's internal name and its `SourceFile`.
pub fn source_locator<'a>(
    inputs: &'a [PathBuf],
    source_root: Option<&'a std::path::Path>,
) -> impl Fn(&str, Option<&str>) -> Option<String> + 'a {
    let sources: Vec<String> = inputs
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .map(|p| relative_display(p))
        .collect();
    move |class: &str, source_file: Option<&str>| {
        let file = source_file?;
        let relative = match class.rfind('/') {
            Some(k) => format!("{}/{file}", &class[..k]),
            None => file.to_owned(),
        };
        let by_package = sources
            .iter()
            .find(|s| *s == &relative || s.ends_with(&format!("/{relative}")));
        let by_name: Vec<&String> = sources
            .iter()
            .filter(|s| *s == file || s.ends_with(&format!("/{file}")))
            .collect();
        if let Some(found) = by_package.or(if by_name.len() == 1 {
            by_name.first().copied()
        } else {
            None
        }) {
            return Some(found.clone());
        }
        Some(match source_root {
            Some(root) => relative_display(&root.join(&relative)),
            None => relative,
        })
    }
}

/// A path relative to the current directory where it lies under it, with `/` separators and
/// without `./` components.
fn relative_display(path: &std::path::Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(std::path::Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    let parts: Vec<String> = relative
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .map(|c| match c {
            std::path::Component::RootDir => String::new(),
            other => other.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    parts.join("/")
}
