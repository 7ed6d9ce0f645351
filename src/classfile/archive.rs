//! Reading class entries out of jar, zip and jmod archives held in memory.

use std::io::{Cursor, Read};
use std::path::Path;
use std::sync::Arc;

use zip::ZipArchive;

use super::InputError;

/// The largest archive entry or class file that is read; larger declared or actual sizes are
/// errors, so a malformed or malicious archive cannot make the reader allocate without bound.
pub const MAX_ENTRY_SIZE: u64 = 64 * 1024 * 1024;

/// The header that precedes the zip data in a `.jmod` file.
pub(crate) const JMOD_MAGIC: &[u8; 4] = b"JM\x01\x00";

/// How much to reserve up front for an entry; the buffer grows only as real data arrives.
const INITIAL_ENTRY_CAPACITY: u64 = 1024 * 1024;

/// A cheaply clonable view of the archive bytes from `start` on (the zip part of a jmod starts
/// after its 4-byte header).
#[derive(Clone, Debug)]
pub(crate) struct SharedBytes {
    data: Arc<[u8]>,
    start: usize,
}

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        self.data.get(self.start..).unwrap_or(&[])
    }
}

/// The two archive layouts: a plain zip (jar) and a jmod (a header, then a zip whose classes
/// live under `classes/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArchiveKind {
    Zip,
    Jmod,
}

/// An opened archive whose entries can be read concurrently: every read works on a clone of the
/// archive handle, which shares the parsed central directory and the bytes.
#[derive(Clone, Debug)]
pub(crate) struct Archive {
    /// The archive's path as shown in origins (`path!entry`).
    pub(crate) display: String,
    kind: ArchiveKind,
    zip: ZipArchive<Cursor<SharedBytes>>,
}

/// One `.class` entry of an archive.
#[derive(Clone, Debug)]
pub(crate) struct ClassEntry {
    /// The entry's index in the zip central directory.
    pub(crate) index: usize,
    /// The entry's full name, e.g. `pkg/Foo.class` or `classes/pkg/Foo.class`.
    pub(crate) name: String,
}

/// Whether `name` (a path with `/` separators) names a `module-info.class`, which is skipped.
pub(crate) fn is_module_info(name: &str) -> bool {
    name == "module-info.class" || name.ends_with("/module-info.class")
}

impl Archive {
    /// Opens the archive in `bytes`, read from `path`.
    pub(crate) fn open(path: &Path, bytes: Vec<u8>, kind: ArchiveKind) -> Result<Archive, InputError> {
        let display = path.display().to_string();
        let start = match kind {
            ArchiveKind::Zip => 0,
            ArchiveKind::Jmod => {
                if !bytes.starts_with(JMOD_MAGIC) {
                    return Err(InputError::new(display, "not a jmod file (missing the JM header)"));
                }
                JMOD_MAGIC.len()
            }
        };
        let shared = SharedBytes {
            data: Arc::from(bytes),
            start,
        };
        let zip = ZipArchive::new(Cursor::new(shared))
            .map_err(|error| InputError::new(display.clone(), format!("cannot open archive: {error}")))?;
        Ok(Archive { display, kind, zip })
    }

    /// The archive's `.class` entries in central-directory order, `module-info.class` excluded
    /// (for a jmod, only those under `classes/`).
    pub(crate) fn class_entries(&self) -> Vec<ClassEntry> {
        (0..self.zip.len())
            .filter_map(|index| {
                let name = self.zip.name_for_index(index)?;
                let wanted = name.ends_with(".class")
                    && !is_module_info(name)
                    && (self.kind == ArchiveKind::Zip || name.starts_with("classes/"));
                wanted.then(|| ClassEntry {
                    index,
                    name: name.to_owned(),
                })
            })
            .collect()
    }

    /// The internal class name an entry declares by its path (`classes/` and `.class` removed),
    /// or `None` for entries that are not on the class path (multi-release variants under
    /// `META-INF/`).
    pub(crate) fn internal_name<'name>(&self, entry_name: &'name str) -> Option<&'name str> {
        let relative = match self.kind {
            ArchiveKind::Zip => entry_name,
            ArchiveKind::Jmod => entry_name.strip_prefix("classes/")?,
        };
        if relative.starts_with("META-INF/") {
            return None;
        }
        relative.strip_suffix(".class")
    }

    /// The origin string of an entry: `archive!entry`.
    pub(crate) fn origin(&self, entry_name: &str) -> String {
        format!("{}!{}", self.display, entry_name)
    }

    /// Decompresses entry `index`, refusing entries larger than [`MAX_ENTRY_SIZE`].
    pub(crate) fn read_entry(&self, index: usize) -> Result<Vec<u8>, String> {
        let mut zip = self.zip.clone();
        let mut entry = zip
            .by_index(index)
            .map_err(|error| format!("cannot read entry: {error}"))?;
        let declared = entry.size();
        if declared > MAX_ENTRY_SIZE {
            return Err(format!(
                "entry declares {declared} bytes; at most {MAX_ENTRY_SIZE} are read"
            ));
        }
        let capacity = usize::try_from(declared.min(INITIAL_ENTRY_CAPACITY)).unwrap_or(0);
        let mut buffer = Vec::with_capacity(capacity);
        (&mut entry)
            .take(MAX_ENTRY_SIZE.saturating_add(1))
            .read_to_end(&mut buffer)
            .map_err(|error| format!("cannot decompress entry: {error}"))?;
        if u64::try_from(buffer.len()).unwrap_or(u64::MAX) > MAX_ENTRY_SIZE {
            return Err(format!("entry holds more than {MAX_ENTRY_SIZE} bytes"));
        }
        Ok(buffer)
    }
}
