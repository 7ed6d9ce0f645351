//! Helpers shared by the classfile tests: temporary directories, compiling Java fixtures with
//! `javac -g`, and assembling small classfiles by hand.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The JDK 17 module that the tests read as a large real-world corpus.
pub const JAVA_BASE_JMOD: &str = "/usr/lib/jvm/java-17-openjdk-amd64/jmods/java.base.jmod";

/// The directory holding the Java fixture sources.
pub fn fixture_sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/classfile")
}

/// A fresh directory for this test process under cargo's per-target temporary directory, for
/// fixtures shared by all tests of one binary (statics are never dropped, so it is not removed on
/// exit; directories left by earlier runs whose process is gone are removed here instead).
pub fn shared_directory(label: &str) -> PathBuf {
    let parent = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let prefix = format!("jresa-classfile-{label}-");
    if let Ok(listing) = std::fs::read_dir(parent) {
        for entry in listing.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix(&prefix) else {
                continue;
            };
            let alive = Path::new("/proc").join(pid).exists() || !Path::new("/proc/self").exists();
            if !alive {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let path = parent.join(format!("{prefix}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// A directory under the system temporary directory that is removed when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let unique = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!("jresa-classfile-{label}-{}-{unique}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs a JDK tool and panics with its output when it fails.
pub fn run_tool(tool: &str, arguments: &[&str]) {
    let mut command = if tool == "javac" {
        crate::javac()
    } else {
        Command::new(tool)
    };
    let output = command
        .args(arguments)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {tool}: {error}"));
    assert!(
        output.status.success(),
        "{tool} {arguments:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Compiles `sources` with `javac -g` (plus `extra` options) into `output`.
pub fn javac(output: &Path, sources: &[PathBuf], extra: &[&str]) {
    let output_text = output.display().to_string();
    let mut arguments = vec!["-g", "-nowarn", "-Xlint:-options", "-d", output_text.as_str()];
    arguments.extend_from_slice(extra);
    let source_texts: Vec<String> = sources.iter().map(|source| source.display().to_string()).collect();
    arguments.extend(source_texts.iter().map(String::as_str));
    run_tool("javac", &arguments);
}

/// Every `*.class` file under `directory`, sorted.
pub fn class_files(directory: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![directory.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "class") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A minimal classfile assembler for inputs javac never produces (`jsr`, `ret`, `goto_w`,
/// method-handle constants, odd strings).
pub struct ClassAssembler {
    pool: Vec<u8>,
    pool_count: u16,
    methods: Vec<u8>,
    method_count: u16,
    major_version: u16,
    this_class: u16,
    super_class: u16,
    code_name: u16,
}

impl ClassAssembler {
    pub fn new(name: &str, major_version: u16) -> ClassAssembler {
        let mut assembler = ClassAssembler {
            pool: Vec::new(),
            pool_count: 1,
            methods: Vec::new(),
            method_count: 0,
            major_version,
            this_class: 0,
            super_class: 0,
            code_name: 0,
        };
        assembler.this_class = assembler.class(name);
        assembler.super_class = assembler.class("java/lang/Object");
        assembler.code_name = assembler.utf8("Code");
        assembler
    }

    fn push_entry(&mut self, bytes: &[u8]) -> u16 {
        self.pool.extend_from_slice(bytes);
        let index = self.pool_count;
        self.pool_count += 1;
        index
    }

    /// Adds a `CONSTANT_Utf8` holding exactly these (modified UTF-8) bytes.
    pub fn utf8_bytes(&mut self, bytes: &[u8]) -> u16 {
        let mut entry = vec![1];
        entry.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        entry.extend_from_slice(bytes);
        self.push_entry(&entry)
    }

    pub fn utf8(&mut self, text: &str) -> u16 {
        self.utf8_bytes(text.as_bytes())
    }

    pub fn class(&mut self, name: &str) -> u16 {
        let name = self.utf8(name);
        let mut entry = vec![7];
        entry.extend_from_slice(&name.to_be_bytes());
        self.push_entry(&entry)
    }

    pub fn string(&mut self, utf8: u16) -> u16 {
        let mut entry = vec![8];
        entry.extend_from_slice(&utf8.to_be_bytes());
        self.push_entry(&entry)
    }

    pub fn name_and_type(&mut self, name: &str, descriptor: &str) -> u16 {
        let name = self.utf8(name);
        let descriptor = self.utf8(descriptor);
        let mut entry = vec![12];
        entry.extend_from_slice(&name.to_be_bytes());
        entry.extend_from_slice(&descriptor.to_be_bytes());
        self.push_entry(&entry)
    }

    pub fn method_ref(&mut self, class: &str, name: &str, descriptor: &str) -> u16 {
        let class = self.class(class);
        let name_and_type = self.name_and_type(name, descriptor);
        let mut entry = vec![10];
        entry.extend_from_slice(&class.to_be_bytes());
        entry.extend_from_slice(&name_and_type.to_be_bytes());
        self.push_entry(&entry)
    }

    /// Adds a `CONSTANT_MethodHandle` of reference kind `kind` (6 is `invokestatic`).
    pub fn method_handle(&mut self, kind: u8, reference: u16) -> u16 {
        let mut entry = vec![15, kind];
        entry.extend_from_slice(&reference.to_be_bytes());
        self.push_entry(&entry)
    }

    pub fn method_type(&mut self, descriptor: &str) -> u16 {
        let descriptor = self.utf8(descriptor);
        let mut entry = vec![16];
        entry.extend_from_slice(&descriptor.to_be_bytes());
        self.push_entry(&entry)
    }

    /// Adds a static method with the given bytecode and no exception table.
    pub fn method(&mut self, name: &str, descriptor: &str, max_locals: u16, code: &[u8]) {
        let name = self.utf8(name);
        let descriptor = self.utf8(descriptor);
        self.methods.extend_from_slice(&0x0009u16.to_be_bytes());
        self.methods.extend_from_slice(&name.to_be_bytes());
        self.methods.extend_from_slice(&descriptor.to_be_bytes());
        self.methods.extend_from_slice(&1u16.to_be_bytes());
        self.methods.extend_from_slice(&self.code_name.to_be_bytes());
        let attribute_length = 2 + 2 + 4 + code.len() + 2 + 2;
        self.methods.extend_from_slice(&(attribute_length as u32).to_be_bytes());
        self.methods.extend_from_slice(&8u16.to_be_bytes());
        self.methods.extend_from_slice(&max_locals.to_be_bytes());
        self.methods.extend_from_slice(&(code.len() as u32).to_be_bytes());
        self.methods.extend_from_slice(code);
        self.methods.extend_from_slice(&0u16.to_be_bytes());
        self.methods.extend_from_slice(&0u16.to_be_bytes());
        self.method_count += 1;
    }

    /// The finished classfile, with a `SourceFile` attribute naming `source_file` (a Utf8 index).
    pub fn finish(mut self, source_file: Option<u16>) -> Vec<u8> {
        let source_file_name = self.utf8("SourceFile");
        let mut bytes = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0];
        bytes.extend_from_slice(&self.major_version.to_be_bytes());
        bytes.extend_from_slice(&self.pool_count.to_be_bytes());
        bytes.extend_from_slice(&self.pool);
        bytes.extend_from_slice(&0x0021u16.to_be_bytes());
        bytes.extend_from_slice(&self.this_class.to_be_bytes());
        bytes.extend_from_slice(&self.super_class.to_be_bytes());
        bytes.extend_from_slice(&0u16.to_be_bytes());
        bytes.extend_from_slice(&0u16.to_be_bytes());
        bytes.extend_from_slice(&self.method_count.to_be_bytes());
        bytes.extend_from_slice(&self.methods);
        match source_file {
            Some(utf8) => {
                bytes.extend_from_slice(&1u16.to_be_bytes());
                bytes.extend_from_slice(&source_file_name.to_be_bytes());
                bytes.extend_from_slice(&2u32.to_be_bytes());
                bytes.extend_from_slice(&utf8.to_be_bytes());
            }
            None => bytes.extend_from_slice(&0u16.to_be_bytes()),
        }
        bytes
    }
}
