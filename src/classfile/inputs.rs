//! Reading the classes named on the command line: class files, directories, jars, zips and jmods.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::archive::{is_module_info, Archive, ArchiveKind, MAX_ENTRY_SIZE};
use super::model::ClassFile;
use super::parse::parse_class;
use super::InputError;

/// Everything read from a list of inputs: the classes that parsed, and an error for each input,
/// entry or class that could not be read.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Parsed classes in input order, then directory order (sorted by path) or archive entry
    /// order.
    pub classes: Vec<ClassFile>,
    /// Errors in the same order.
    pub errors: Vec<InputError>,
}

/// What an input path holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InputKind {
    Directory,
    Class,
    Archive(ArchiveKind),
}

/// Decides what `path` is from its type and extension, falling back to its first bytes for
/// files with another extension.
pub(crate) fn input_kind(path: &Path) -> Result<InputKind, InputError> {
    let metadata = fs::metadata(path).map_err(|error| io_error(path, &error))?;
    if metadata.is_dir() {
        return Ok(InputKind::Directory);
    }
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("class") => return Ok(InputKind::Class),
        Some("jar" | "zip") => return Ok(InputKind::Archive(ArchiveKind::Zip)),
        Some("jmod") => return Ok(InputKind::Archive(ArchiveKind::Jmod)),
        _ => {}
    }
    let mut magic = [0u8; 4];
    let sniffed = fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut magic))
        .map(|()| magic);
    match sniffed {
        Ok([0xCA, 0xFE, 0xBA, 0xBE]) => Ok(InputKind::Class),
        Ok([b'P', b'K', _, _]) => Ok(InputKind::Archive(ArchiveKind::Zip)),
        Ok([b'J', b'M', 1, 0]) => Ok(InputKind::Archive(ArchiveKind::Jmod)),
        _ => Err(InputError::new(
            path.display().to_string(),
            "unsupported input: expected a directory, a .class file, or a .jar, .zip or .jmod archive",
        )),
    }
}

pub(crate) fn io_error(path: &Path, error: &std::io::Error) -> InputError {
    InputError::new(path.display().to_string(), error.to_string())
}

/// Reads a whole file, refusing files larger than `limit` bytes.
pub(crate) fn read_file(path: &Path, limit: Option<u64>) -> Result<Vec<u8>, InputError> {
    if let Some(limit) = limit {
        let length = fs::metadata(path).map_err(|error| io_error(path, &error))?.len();
        if length > limit {
            return Err(InputError::new(
                path.display().to_string(),
                format!("file is {length} bytes; at most {limit} are read"),
            ));
        }
    }
    fs::read(path).map_err(|error| io_error(path, &error))
}

/// Reads and parses one class file.
fn read_class_file(path: &Path) -> Result<ClassFile, InputError> {
    let bytes = read_file(path, Some(MAX_ENTRY_SIZE))?;
    parse_class(&bytes, &path.display().to_string())
}

/// Every `*.class` file under `root` (except `module-info.class`), sorted by path, plus an error
/// for each directory that could not be listed. Symbolic links to files are followed; symbolic
/// links to directories are not, so that link cycles cannot make the walk endless.
pub(crate) fn class_files_under(root: &Path) -> (Vec<PathBuf>, Vec<InputError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(directory) = pending.pop() {
        let listing = match fs::read_dir(&directory) {
            Ok(listing) => listing,
            Err(error) => {
                errors.push(io_error(&directory, &error));
                continue;
            }
        };
        let mut subdirectories = Vec::new();
        for entry in listing {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    errors.push(io_error(&directory, &error));
                    continue;
                }
            };
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                subdirectories.push(path);
            } else if is_class_file_name(&path) && (file_type.is_file() || path.is_file()) {
                files.push(path);
            }
        }
        // Visit subdirectories in sorted order so errors come out deterministically.
        subdirectories.sort();
        pending.extend(subdirectories.into_iter().rev());
    }
    files.sort();
    (files, errors)
}

fn is_class_file_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.ends_with(".class") && !is_module_info(name))
}

/// Reads every class from the given inputs.
///
/// Each path may be a `.class` file, a directory (searched recursively for `*.class`, in sorted
/// order), a `.jar` or `.zip` (every `*.class` entry), or a `.jmod` (every entry under
/// `classes/`); `module-info.class` is skipped everywhere. A missing path, an unreadable file, a
/// bad archive or a corrupt class becomes an error and every other input is still read. Classes
/// are decompressed and parsed in parallel; the output order is deterministic (input order, then
/// entry order).
pub fn read_inputs(paths: &[PathBuf]) -> Loaded {
    let mut loaded = Loaded::default();
    for path in paths {
        let results: Vec<Result<ClassFile, InputError>> = match input_kind(path) {
            Err(error) => vec![Err(error)],
            // A module descriptor has no code; it is skipped even when named directly.
            Ok(InputKind::Class) if path.file_name().is_some_and(|name| name == "module-info.class") => Vec::new(),
            Ok(InputKind::Class) => vec![read_class_file(path)],
            Ok(InputKind::Directory) => {
                let (files, errors) = class_files_under(path);
                loaded.errors.extend(errors);
                files.par_iter().map(|file| read_class_file(file)).collect()
            }
            Ok(InputKind::Archive(kind)) => {
                match read_file(path, None).and_then(|bytes| Archive::open(path, bytes, kind)) {
                    Err(error) => vec![Err(error)],
                    Ok(archive) => read_archive(&archive),
                }
            }
        };
        for result in results {
            match result {
                Ok(class) => loaded.classes.push(class),
                Err(error) => loaded.errors.push(error),
            }
        }
    }
    loaded
}

/// Decompresses and parses every class entry of `archive` in parallel, in entry order.
fn read_archive(archive: &Archive) -> Vec<Result<ClassFile, InputError>> {
    archive
        .class_entries()
        .par_iter()
        .map(|entry| {
            let origin = archive.origin(&entry.name);
            match archive.read_entry(entry.index) {
                Ok(bytes) => parse_class(&bytes, &origin),
                Err(message) => Err(InputError::new(origin, message)),
            }
        })
        .collect()
}
