//! The cache directory: results kept between runs, each in a file named by the hash of everything
//! it depends on, so a file is either right for a run or never read by it.
//!
//! A file starts with a header line that names its format and the hash of the rest; a file whose
//! rest does not match is damaged (a torn copy, a full disk, an edit) and is ignored with a warning.
//! Files are written to a temporary file in the same directory and renamed into place, so a
//! concurrent run reads either the old file or the new one, never a mixture. Each kind of file
//! keeps at most [`KEEP_FILES`] files, the least recently written going first.
//!
//! The keys include a hash of the running executable, so a rebuilt jresa never reads what another
//! build wrote.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable that chooses the cache directory (the `--cache-dir` option wins).
pub const CACHE_DIR_VARIABLE: &str = "JRESA_CACHE_DIR";

/// The files a kind of cache keeps at most.
pub const KEEP_FILES: usize = 64;

/// The first word of a cache file's header line.
const MAGIC: &str = "jresa-cache";

/// The cache directory a run uses by default: `jresa` in the platform's user cache directory
/// (`$XDG_CACHE_HOME` or `~/.cache` on Linux), when there is one.
pub fn default_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|dir| dir.join("jresa"))
}

/// A hash (hex) of the running executable and its version, which every key includes.
pub fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let mut hasher = blake3::Hasher::new();
        hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
        match std::env::current_exe().and_then(fs::read) {
            Ok(bytes) => hasher.update(&bytes),
            // Without its own bytes the build cannot be told apart: a key nothing else shares.
            Err(_) => hasher.update(format!("{:?}", std::time::SystemTime::now()).as_bytes()),
        };
        hasher.finalize().to_hex().to_string()
    })
}

/// A key: the hash (hex) of the build and the given parts, each length-prefixed so that no two
/// lists of parts run together into one.
pub fn key(parts: &[&str]) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(build_id().as_bytes());
    for part in parts {
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher.finalize().to_hex().to_string()
}

/// The file of `kind` (a subdirectory) with key `key` under `dir`.
pub fn file(dir: &Path, kind: &str, key: &str) -> PathBuf {
    dir.join(kind).join(format!("{key}.json"))
}

/// The contents of a cache file: `Ok(None)` when there is none, `Err` with a warning's text when it
/// is damaged or unreadable.
pub fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    let damaged = || format!("{} is damaged; it is ignored", path.display());
    let newline = bytes.iter().position(|&b| b == b'\n').ok_or_else(damaged)?;
    let header = std::str::from_utf8(&bytes[..newline]).map_err(|_| damaged())?;
    let body = &bytes[newline + 1..];
    let expected = format!("{MAGIC} {}", blake3::hash(body).to_hex());
    if header != expected {
        return Err(damaged());
    }
    Ok(Some(body.to_vec()))
}

/// Writes `body` to the cache file `path` (atomically, see the module's documentation), then
/// removes the oldest files of its directory past [`KEEP_FILES`].
pub fn write(path: &Path, body: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("{} has no directory", path.display()))?;
    let failed = |error: std::io::Error| format!("cannot write {}: {error}", path.display());
    fs::create_dir_all(dir).map_err(failed)?;
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    writeln!(file, "{MAGIC} {}", blake3::hash(body).to_hex()).map_err(failed)?;
    file.write_all(body).map_err(failed)?;
    file.persist(path).map_err(|error| failed(error.error))?;
    evict(dir, KEEP_FILES);
    Ok(())
}

/// Removes the least recently written `.json` files of `dir` past the `keep` newest.
fn evict(dir: &Path, keep: usize) {
    let Ok(listing) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = listing
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "json"))
        .filter_map(|entry| Some((entry.metadata().ok()?.modified().ok()?, entry.path())))
        .collect();
    if files.len() <= keep {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - keep] {
        let _ = fs::remove_file(path);
    }
}
