//! Robustness tests: mutated classfiles through `parse_class`, and truncated, garbled and
//! oversized archives through `read_inputs`. Every call must return (Ok or Err) without panicking.

use crate::classfile_support as support;
use std::io::{Cursor, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

use jresa::classfile::{parse_class, read_inputs, ClassPath, MAX_ENTRY_SIZE};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;
use support::{class_files, fixture_sources, javac, shared_directory, ClassAssembler, TempDir, JAVA_BASE_JMOD};

/// How many classes of `java.base` join the corpus (every n-th one in name order).
const JAVA_BASE_SAMPLE: usize = 300;

/// The seed classfiles: the compiled fixtures, a hand-assembled class, and a sample of
/// `java.base` read through the crate's own class path.
fn corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = shared_directory("fuzz");
        let sources = fixture_sources().join("fixtures");
        let classes = root.join("classes");
        javac(
            &classes,
            &[
                sources.join("Sample.java"),
                sources.join("Budget.java"),
                sources.join("Visible.java"),
                sources.join("Legacy.java"),
            ],
            &[],
        );
        let mut corpus: Vec<Vec<u8>> = class_files(&classes)
            .iter()
            .map(|path| std::fs::read(path).unwrap())
            .collect();
        corpus.push(handmade_class());

        let class_path = ClassPath::from_paths(&[PathBuf::from(JAVA_BASE_JMOD)]).unwrap();
        let names: Vec<&str> = class_path.class_names().collect();
        let step = (names.len() / JAVA_BASE_SAMPLE).max(1);
        for name in names.iter().step_by(step).take(JAVA_BASE_SAMPLE) {
            let (origin, bytes) = class_path.bytes(name).unwrap().unwrap();
            parse_class(&bytes, &origin).unwrap_or_else(|error| panic!("seed {error}"));
            corpus.push(bytes);
        }
        corpus
    })
}

/// A small class with `jsr`, `wide ret`, `goto_w`, an unpadded table switch and odd strings.
fn handmade_class() -> Vec<u8> {
    let mut assembler = ClassAssembler::new("Handmade", 49);
    let odd = assembler.utf8_bytes(b"x\xC0\x80\xED\xA0\x80\xED\xA0\xBD\xED\xB8\x80");
    let odd_string = assembler.string(odd);
    #[rustfmt::skip]
    let code = [
        0xa8, 0x00, 0x08,             // 0: jsr 8
        0xc8, 0x00, 0x00, 0x00, 0x0c, // 3: goto_w 15
        0x4b,                         // 8: astore_0
        0xc4, 0xa9, 0x01, 0x2c,       // 9: wide ret 300
        0x00, 0x00,                   // 13: nop, nop
        0x12, odd_string as u8,       // 15: ldc String
        0x57,                         // 17: pop
        0x03,                         // 18: iconst_0
        0xaa,                         // 19: tableswitch (operands at 20 need no padding)
        0x00, 0x00, 0x00, 0x11,       // 20: default 36
        0x00, 0x00, 0x00, 0x00,       // 24: low 0
        0x00, 0x00, 0x00, 0x00,       // 28: high 0
        0x00, 0x00, 0x00, 0x11,       // 32: case 0 -> 36
        0xb1,                         // 36: return
    ];
    assembler.method("run", "()V", 301, &code);
    assembler.finish(None)
}

#[derive(Clone, Debug)]
enum Mutation {
    FlipBits { at: Index, mask: u8 },
    SetByte { at: Index, value: u8 },
    Truncate { at: Index },
    Insert { at: Index, bytes: Vec<u8> },
    Delete { at: Index, length: usize },
    ExtremeU16 { at: Index, value: u16 },
    ExtremeU32 { at: Index, value: u32 },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let extreme_u16 = prop::sample::select(vec![0u16, 1, 2, 0x7f, 0xff, 0x100, 0x7fff, 0x8000, 0xfffe, 0xffff]);
    let extreme_u32 = prop::sample::select(vec![
        0u32,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_fffe,
        0xffff_ffff,
        0x1_0000,
    ]);
    prop_oneof![
        4 => (any::<Index>(), 1u8..=255).prop_map(|(at, mask)| Mutation::FlipBits { at, mask }),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(at, value)| Mutation::SetByte { at, value }),
        1 => any::<Index>().prop_map(|at| Mutation::Truncate { at }),
        2 => (any::<Index>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        2 => (any::<Index>(), 1usize..32).prop_map(|(at, length)| Mutation::Delete { at, length }),
        3 => (any::<Index>(), extreme_u16).prop_map(|(at, value)| Mutation::ExtremeU16 { at, value }),
        1 => (any::<Index>(), extreme_u32).prop_map(|(at, value)| Mutation::ExtremeU32 { at, value }),
    ]
}

/// Applies `mutation` to `bytes`; positions are taken modulo the current length.
fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let length = bytes.len();
    let position = |at: &Index| if length == 0 { 0 } else { at.index(length) };
    match mutation {
        Mutation::FlipBits { at, mask } if length > 0 => bytes[position(at)] ^= mask,
        Mutation::SetByte { at, value } if length > 0 => bytes[position(at)] = *value,
        Mutation::Truncate { at } => bytes.truncate(position(at)),
        Mutation::Insert { at, bytes: inserted } => {
            let at = position(at);
            bytes.splice(at..at, inserted.iter().copied());
        }
        Mutation::Delete { at, length: deleted } => {
            let at = position(at);
            let end = (at + deleted).min(length);
            bytes.drain(at..end);
        }
        Mutation::ExtremeU16 { at, value } if length >= 2 => {
            let at = position(at).min(length - 2);
            bytes[at..at + 2].copy_from_slice(&value.to_be_bytes());
        }
        Mutation::ExtremeU32 { at, value } if length >= 4 => {
            let at = position(at).min(length - 4);
            bytes[at..at + 4].copy_from_slice(&value.to_be_bytes());
        }
        _ => {}
    }
}

/// Applies `mutation` to the part of `bytes` after the first `quarters` quarters.
fn apply_from(bytes: &mut Vec<u8>, quarters: usize, mutation: &Mutation) {
    let split = bytes.len() * quarters / 4;
    let mut tail = bytes.split_off(split);
    apply(&mut tail, mutation);
    bytes.extend_from_slice(&tail);
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(150000))]

    /// Random mutations of real classfiles parse to Ok or Err, never a panic. Half of the
    /// mutations are confined to the second half or the last quarter of the class, past most
    /// of the constant pool, so that methods, code and attributes get damaged as often as the
    /// pool does.
    #[test]
    fn mutated_classfiles_never_panic(
        seed in any::<Index>(),
        mutations in prop::collection::vec((0usize..4, mutation()), 1..6),
    ) {
        let corpus = corpus();
        let mut bytes = corpus[seed.index(corpus.len())].clone();
        for (region, mutation) in &mutations {
            apply_from(&mut bytes, [0, 0, 2, 3][*region], mutation);
        }
        if let Ok(class) = parse_class(&bytes, "mutated.class") {
            prop_assert_eq!(class.origin, "mutated.class");
        }
    }
}

/// Every truncation of every fixture class (and of a few `java.base` classes) is handled.
#[test]
fn every_truncation_is_handled() {
    let corpus = corpus();
    for bytes in corpus.iter().take(12) {
        assert!(parse_class(bytes, "whole.class").is_ok());
        for length in 0..bytes.len() {
            let result = parse_class(&bytes[..length], "truncated.class");
            assert!(
                result.is_err(),
                "a class truncated to {length} of {} bytes parsed",
                bytes.len()
            );
        }
    }
}

/// Replacing each aligned u16 of a class with extreme values is handled.
#[test]
fn every_u16_overwritten_with_extremes_is_handled() {
    let corpus = corpus();
    let bytes = corpus.iter().min_by_key(|bytes| bytes.len()).unwrap();
    for at in 0..bytes.len() - 1 {
        for value in [0u16, 0x7fff, 0xffff] {
            let mut mutated = bytes.clone();
            mutated[at..at + 2].copy_from_slice(&value.to_be_bytes());
            let _ = parse_class(&mutated, "extreme.class");
        }
    }
}

/// A deflated zip of `entries`, optionally preceded by the jmod header.
fn build_archive(entries: &[(String, Vec<u8>)], jmod: bool) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(name.as_str(), options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    let zip = writer.finish().unwrap().into_inner();
    if jmod {
        let mut with_header = b"JM\x01\x00".to_vec();
        with_header.extend_from_slice(&zip);
        with_header
    } else {
        zip
    }
}

fn archive_entries(jmod: bool) -> Vec<(String, Vec<u8>)> {
    let prefix = if jmod { "classes/" } else { "" };
    corpus()
        .iter()
        .take(6)
        .enumerate()
        .map(|(number, bytes)| (format!("{prefix}pkg/C{number}.class"), bytes.clone()))
        .collect()
}

/// Writes `bytes` to a file with the given extension and reads it as an input.
fn read_archive_bytes(directory: &TempDir, name: &str, bytes: &[u8]) -> jresa::classfile::Loaded {
    let path = directory.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    read_inputs(&[path])
}

#[test]
fn intact_archives_read_completely() {
    let directory = TempDir::new("fuzz-intact");
    for jmod in [false, true] {
        let entries = archive_entries(jmod);
        let name = if jmod { "good.jmod" } else { "good.jar" };
        let loaded = read_archive_bytes(&directory, name, &build_archive(&entries, jmod));
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
        assert_eq!(loaded.classes.len(), entries.len());
    }
}

#[test]
fn truncated_and_garbage_archives_are_errors() {
    let directory = TempDir::new("fuzz-garbage");
    let jar = build_archive(&archive_entries(false), false);
    let jmod = build_archive(&archive_entries(true), true);
    for (name, bytes) in [
        ("empty.jar", Vec::new()),
        ("empty.jmod", Vec::new()),
        ("header-only.jmod", b"JM\x01\x00".to_vec()),
        ("wrong-header.jmod", jar.clone()),
        ("garbage.jar", vec![0x50; 4096]),
        (
            "only-end-record.zip",
            b"PK\x05\x06\0\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\0\0".to_vec(),
        ),
    ] {
        let loaded = read_archive_bytes(&directory, name, &bytes);
        assert!(loaded.classes.is_empty(), "{name}");
        assert!(!loaded.errors.is_empty(), "{name}");
    }
    // Cutting the central directory off makes the whole archive an error; cutting inside it may
    // still leave a readable archive, but must never panic.
    for (extension, bytes) in [("jar", &jar), ("jmod", &jmod)] {
        for length in (0..bytes.len())
            .step_by(97)
            .chain(bytes.len().saturating_sub(200)..bytes.len())
        {
            let name = format!("cut-{length}.{extension}");
            let loaded = read_archive_bytes(&directory, &name, &bytes[..length]);
            assert!(loaded.classes.len() + loaded.errors.len() >= 1, "{name}");
        }
    }
}

/// The offsets of every central-directory header in a zip.
fn central_headers(zip: &[u8]) -> Vec<usize> {
    zip.windows(4)
        .enumerate()
        .filter(|(_, window)| *window == b"PK\x01\x02")
        .map(|(at, _)| at)
        .collect()
}

#[test]
fn oversized_entries_are_refused_without_reading_them() {
    let directory = TempDir::new("fuzz-oversized");
    // An entry whose central directory claims four gigabytes.
    let mut jar = build_archive(&archive_entries(false), false);
    let first = central_headers(&jar)[0];
    jar[first + 24..first + 28].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    let loaded = read_archive_bytes(&directory, "claims-huge.jar", &jar);
    assert_eq!(loaded.errors.len(), 1, "{:?}", loaded.errors);
    assert!(loaded.errors[0].origin.ends_with("!pkg/C0.class"));
    assert_eq!(loaded.classes.len(), archive_entries(false).len() - 1);

    // An entry that claims to be small but inflates to more than the limit.
    let zeros = vec![0u8; usize::try_from(MAX_ENTRY_SIZE).unwrap() + 4096];
    let mut bomb = build_archive(&[("Bomb.class".to_owned(), zeros)], false);
    let header = central_headers(&bomb)[0];
    bomb[header + 24..header + 28].copy_from_slice(&100u32.to_le_bytes());
    let loaded = read_archive_bytes(&directory, "bomb.jar", &bomb);
    assert!(loaded.classes.is_empty());
    assert_eq!(loaded.errors.len(), 1, "{:?}", loaded.errors);
}

proptest! {
    #![proptest_config(config(500))]

    /// Random mutations of small jars and jmods, biased towards the central directory at the end,
    /// are read without panicking.
    #[test]
    fn mutated_archives_never_panic(
        jmod in any::<bool>(),
        mutations in prop::collection::vec((any::<bool>(), mutation()), 1..6),
    ) {
        let entries = archive_entries(jmod);
        let mut bytes = build_archive(&entries, jmod);
        for (near_end, mutation) in &mutations {
            if *near_end {
                // Confine the mutation to the last 400 bytes, where the central directory lives.
                let mut tail = bytes.split_off(bytes.len().saturating_sub(400));
                apply(&mut tail, mutation);
                bytes.extend_from_slice(&tail);
            } else {
                apply(&mut bytes, mutation);
            }
        }
        let directory = TempDir::new("fuzz-archive");
        let name = if jmod { "mutated.jmod" } else { "mutated.jar" };
        let loaded = read_archive_bytes(&directory, name, &bytes);
        prop_assert!(loaded.classes.len() <= entries.len());
    }
}
