//! A lazily loading class path: classes looked up by internal name across directories, jars and
//! jmods, parsed on first request and cached.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::archive::{Archive, ArchiveKind};
use super::inputs::{class_files_under, input_kind, read_file, InputKind};
use super::model::ClassFile;
use super::parse::parse_class;
use super::InputError;
use super::MAX_ENTRY_SIZE;

/// Where the bytes of one class are found.
#[derive(Debug)]
enum ClassSource {
    File(PathBuf),
    ArchiveEntry { archive: usize, index: usize, name: String },
}

/// One indexed class: its source and, once requested, the parse result.
#[derive(Debug)]
struct ClassSlot {
    source: ClassSource,
    loaded: OnceLock<Result<Arc<ClassFile>, InputError>>,
}

/// Classes found by internal name across a list of roots (directories, jars, zips, jmods and
/// single class files).
///
/// Entry names are indexed once on construction; a class is read and parsed the first time it is
/// requested, and the result is cached. The first root that holds a name wins, as on a JVM class
/// path. A `ClassPath` is `Send + Sync` and may be queried from many threads at once.
pub struct ClassPath {
    archives: Vec<Archive>,
    classes: BTreeMap<String, ClassSlot>,
    /// The contents of the roots, in order (each file's path within its root and its bytes).
    contents: Box<blake3::Hasher>,
}

impl fmt::Debug for ClassPath {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("ClassPath")
            .field("archives", &self.archives.len())
            .field("classes", &self.classes.len())
            .finish()
    }
}

impl ClassPath {
    /// Indexes the classes under each root. A root that is missing, unreadable, or not a
    /// directory, class file or archive is an error. Within a directory, class files are indexed
    /// by their path relative to it (`pkg/Foo.class` is `pkg/Foo`); within a jmod, by their path
    /// under `classes/`.
    pub fn from_paths(roots: &[PathBuf]) -> Result<ClassPath, InputError> {
        let mut class_path = ClassPath {
            archives: Vec::new(),
            classes: BTreeMap::new(),
            contents: Box::default(),
        };
        for root in roots {
            class_path.add_root(root)?;
        }
        Ok(class_path)
    }

    /// The class path of the running JDK: its `jmods/java.base.jmod`, found through `JAVA_HOME`
    /// or else through the real location of `java` on `PATH`.
    pub fn default_jdk() -> Result<ClassPath, InputError> {
        let jmod = find_java_base_jmod().ok_or_else(|| {
            InputError::new(
                "java.base.jmod",
                "cannot find the JDK's jmods/java.base.jmod: set JAVA_HOME or put a JDK's java on PATH",
            )
        })?;
        ClassPath::from_paths(&[jmod])
    }

    fn add_root(&mut self, root: &Path) -> Result<(), InputError> {
        match input_kind(root)? {
            InputKind::Directory => {
                let (files, errors) = class_files_under(root);
                if let Some(error) = errors.into_iter().next() {
                    return Err(error);
                }
                for file in files {
                    let Some(name) = internal_name_under(root, &file) else {
                        continue;
                    };
                    self.contents.update(name.as_bytes());
                    self.contents.update(&read_file(&file, Some(MAX_ENTRY_SIZE))?);
                    self.classes.entry(name).or_insert(ClassSlot {
                        source: ClassSource::File(file),
                        loaded: OnceLock::new(),
                    });
                }
            }
            InputKind::Class => {
                // A single class file is parsed now, since only its contents tell its name.
                let bytes = read_file(root, Some(MAX_ENTRY_SIZE))?;
                self.contents.update(&bytes);
                let class = parse_class(&bytes, &root.display().to_string())?;
                self.classes.entry(class.name.clone()).or_insert(ClassSlot {
                    source: ClassSource::File(root.to_path_buf()),
                    loaded: OnceLock::from(Ok(Arc::new(class))),
                });
            }
            InputKind::Archive(kind) => self.add_archive(root, kind)?,
        }
        Ok(())
    }

    fn add_archive(&mut self, root: &Path, kind: ArchiveKind) -> Result<(), InputError> {
        let bytes = read_file(root, None)?;
        self.contents.update(&bytes);
        let archive = Archive::open(root, bytes, kind)?;
        let archive_number = self.archives.len();
        for entry in archive.class_entries() {
            let Some(name) = archive.internal_name(&entry.name) else {
                continue;
            };
            self.classes.entry(name.to_owned()).or_insert(ClassSlot {
                source: ClassSource::ArchiveEntry {
                    archive: archive_number,
                    index: entry.index,
                    name: entry.name.clone(),
                },
                loaded: OnceLock::new(),
            });
        }
        self.archives.push(archive);
        Ok(())
    }

    /// A hash of the contents of the roots (hex): two class paths with the same fingerprint hold
    /// the same classes.
    pub fn fingerprint(&self) -> String {
        self.contents.finalize().to_hex().to_string()
    }

    /// The class with the given internal name (e.g. `java/lang/String`), parsed on first request;
    /// `None` when no root holds it or it could not be read or parsed (see [`ClassPath::try_get`]).
    pub fn get(&self, internal_name: &str) -> Option<Arc<ClassFile>> {
        self.try_get(internal_name).ok().flatten()
    }

    /// Like [`ClassPath::get`], but tells a class that is absent (`Ok(None)`) from one that is
    /// present and could not be read or parsed, or that declares another name (`Err`).
    pub fn try_get(&self, internal_name: &str) -> Result<Option<Arc<ClassFile>>, InputError> {
        let Some(slot) = self.classes.get(internal_name) else {
            return Ok(None);
        };
        slot.loaded
            .get_or_init(|| self.load(internal_name, &slot.source))
            .clone()
            .map(Some)
    }

    /// The raw classfile bytes of the class with the given internal name and where they came
    /// from, read afresh (not cached); `Ok(None)` when no root holds it.
    pub fn bytes(&self, internal_name: &str) -> Result<Option<(String, Vec<u8>)>, InputError> {
        match self.classes.get(internal_name) {
            None => Ok(None),
            Some(slot) => self.read_source(&slot.source).map(Some),
        }
    }

    fn read_source(&self, source: &ClassSource) -> Result<(String, Vec<u8>), InputError> {
        Ok(match source {
            ClassSource::File(path) => (path.display().to_string(), read_file(path, Some(MAX_ENTRY_SIZE))?),
            ClassSource::ArchiveEntry { archive, index, name } => {
                let archive = self
                    .archives
                    .get(*archive)
                    .ok_or_else(|| InputError::new(name.clone(), "internal error: unknown archive"))?;
                let origin = archive.origin(name);
                let bytes = archive
                    .read_entry(*index)
                    .map_err(|message| InputError::new(origin.clone(), message))?;
                (origin, bytes)
            }
        })
    }

    fn load(&self, internal_name: &str, source: &ClassSource) -> Result<Arc<ClassFile>, InputError> {
        let (origin, bytes) = self.read_source(source)?;
        let class = parse_class(&bytes, &origin)?;
        if class.name != internal_name {
            return Err(InputError::new(
                origin,
                format!("expected class {internal_name} but the file declares {}", class.name),
            ));
        }
        Ok(Arc::new(class))
    }

    /// Whether some root holds a class with this internal name (without parsing it).
    pub fn contains(&self, internal_name: &str) -> bool {
        self.classes.contains_key(internal_name)
    }

    /// The internal names of all indexed classes, in sorted order.
    pub fn class_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.classes.keys().map(String::as_str)
    }

    /// The number of indexed classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// Whether no class is indexed.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
}

/// The internal name of the class file `file` found under directory `root`.
fn internal_name_under(root: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for component in relative.components() {
        parts.push(component.as_os_str().to_str()?);
    }
    let joined = parts.join("/");
    joined.strip_suffix(".class").map(str::to_owned)
}

/// Finds the running JDK's `jmods/java.base.jmod`: under `JAVA_HOME` when that is set and holds
/// one, otherwise two directories above the real path of the first `java` on `PATH` that has one
/// (e.g. `/usr/bin/java` resolves to `/usr/lib/jvm/java-17-openjdk-amd64/bin/java`).
pub fn find_java_base_jmod() -> Option<PathBuf> {
    let jmod_under = |home: &Path| {
        let candidate = home.join("jmods").join("java.base.jmod");
        candidate.is_file().then_some(candidate)
    };
    if let Some(home) = std::env::var_os("JAVA_HOME").filter(|home| !home.is_empty()) {
        if let Some(found) = jmod_under(Path::new(&home)) {
            return Some(found);
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|directory| {
        let java = directory.join("java");
        if !java.is_file() {
            return None;
        }
        let real = java.canonicalize().ok()?;
        let home = real.parent()?.parent()?;
        jmod_under(home)
    })
}
