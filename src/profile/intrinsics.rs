//! The JVM flags that keep HotSpot's JIT from skipping instrumented bytecode, so that counts do not
//! depend on when methods get compiled.
//!
//! HotSpot's compilers replace calls to some JDK methods that have bytecode (`StringLatin1.equals`,
//! `Arrays.copyOf`, `Math.max`, `Integer.bitCount`, ...) by hand-written code, the *intrinsic*, and
//! never run the method's (instrumented) body; the interpreter does run it. Without these flags a
//! method's counts shrink once C1 or C2 compiles its callers (a run measured 240,654 instead of
//! 299,000 calls of `StringLatin1.equals`). So `-XX:DisableIntrinsic` lists every JDK 17 intrinsic
//! of a method with bytecode (taken from HotSpot's `vmIntrinsics.hpp` and checked against the JDK's
//! class files), and C2's string-concatenation and autobox elimination, which drop calls to
//! `StringBuilder` and boxing methods, are turned off.
//!
//! Left enabled are the intrinsics for which the interpreter also has a special entry and never runs
//! the bytecode either (`Math.sin`, `cos`, `tan`, `abs(double)`, `sqrt`, `log`, `log10`, `pow`,
//! `exp`, `fma`, `Reference.get`, `CRC32C.updateBytes` and `updateDirectByteBuffer`): those methods
//! are skipped in every tier, so they never appear in the tree, consistently. Disabling their
//! compiled intrinsic would let C2 inline the instrumented body and count it in compiled code only.
//!
//! A JVM that does not know some of the names (another JDK version) refuses to start; [`jit_flags`]
//! asks it once with `-version` and drops the names it rejects.

use std::path::Path;
use std::process::Command;

/// Intrinsics of JDK methods with bytecode that the interpreter runs as bytecode.
pub const BYPASSING_INTRINSICS: &[&str] = &[
    "_fabs",
    "_iabs",
    "_labs",
    "_floor",
    "_ceil",
    "_rint",
    "_datan2",
    "_min",
    "_max",
    "_addExactI",
    "_addExactL",
    "_decrementExactI",
    "_decrementExactL",
    "_incrementExactI",
    "_incrementExactL",
    "_multiplyExactI",
    "_multiplyExactL",
    "_multiplyHigh",
    "_negateExactI",
    "_negateExactL",
    "_subtractExactI",
    "_subtractExactL",
    "_maxF",
    "_minF",
    "_maxD",
    "_minD",
    "_dcopySign",
    "_fcopySign",
    "_dsignum",
    "_fsignum",
    "_floatToIntBits",
    "_doubleToLongBits",
    "_numberOfLeadingZeros_i",
    "_numberOfLeadingZeros_l",
    "_numberOfTrailingZeros_i",
    "_numberOfTrailingZeros_l",
    "_bitCount_i",
    "_bitCount_l",
    "_reverseBytes_i",
    "_reverseBytes_l",
    "_reverseBytes_c",
    "_reverseBytes_s",
    "_Class_cast",
    "_onSpinWait",
    "_copyOf",
    "_copyOfRange",
    "_equalsC",
    "_equalsB",
    "_compressStringC",
    "_compressStringB",
    "_inflateStringC",
    "_inflateStringB",
    "_toBytesStringU",
    "_getCharsStringU",
    "_getCharStringU",
    "_putCharStringU",
    "_compareToL",
    "_compareToU",
    "_compareToLU",
    "_compareToUL",
    "_indexOfL",
    "_indexOfU",
    "_indexOfUL",
    "_indexOfIL",
    "_indexOfIU",
    "_indexOfIUL",
    "_indexOfU_char",
    "_indexOfL_char",
    "_equalsL",
    "_equalsU",
    "_isDigit",
    "_isLowerCase",
    "_isUpperCase",
    "_isWhitespace",
    "_Preconditions_checkIndex",
    "_Preconditions_checkLongIndex",
    "_checkIndex",
    "_hasNegatives",
    "_encodeISOArray",
    "_encodeByteISOArray",
    "_encodeAsciiArray",
    "_multiplyToLen",
    "_squareToLen",
    "_mulAdd",
    "_montgomeryMultiply",
    "_montgomerySquare",
    "_bigIntegerRightShiftWorker",
    "_bigIntegerLeftShiftWorker",
    "_vectorizedMismatch",
    "_aescrypt_encryptBlock",
    "_aescrypt_decryptBlock",
    "_cipherBlockChaining_encryptAESCrypt",
    "_cipherBlockChaining_decryptAESCrypt",
    "_electronicCodeBook_encryptAESCrypt",
    "_electronicCodeBook_decryptAESCrypt",
    "_counterMode_AESCrypt",
    "_md5_implCompress",
    "_sha_implCompress",
    "_sha2_implCompress",
    "_sha5_implCompress",
    "_sha3_implCompress",
    "_digestBase_implCompressMB",
    "_base64_encodeBlock",
    "_base64_decodeBlock",
    "_ghash_processBlocks",
    "_allocateUninitializedArray",
    "_storeStoreFence",
    "_profileBoolean",
    "_isCompileConstant",
    "_getReferenceOpaque",
    "_putReferenceOpaque",
    "_getReferenceAcquire",
    "_putReferenceRelease",
    "_getBooleanOpaque",
    "_putBooleanOpaque",
    "_getBooleanAcquire",
    "_putBooleanRelease",
    "_getByteOpaque",
    "_putByteOpaque",
    "_getByteAcquire",
    "_putByteRelease",
    "_getShortOpaque",
    "_putShortOpaque",
    "_getShortAcquire",
    "_putShortRelease",
    "_getCharOpaque",
    "_putCharOpaque",
    "_getCharAcquire",
    "_putCharRelease",
    "_getIntOpaque",
    "_putIntOpaque",
    "_getIntAcquire",
    "_putIntRelease",
    "_getLongOpaque",
    "_putLongOpaque",
    "_getLongAcquire",
    "_putLongRelease",
    "_getFloatOpaque",
    "_putFloatOpaque",
    "_getFloatAcquire",
    "_putFloatRelease",
    "_getDoubleOpaque",
    "_putDoubleOpaque",
    "_getDoubleAcquire",
    "_putDoubleRelease",
    "_getShortUnaligned",
    "_putShortUnaligned",
    "_getCharUnaligned",
    "_putCharUnaligned",
    "_getIntUnaligned",
    "_putIntUnaligned",
    "_getLongUnaligned",
    "_putLongUnaligned",
    "_compareAndExchangeReferenceAcquire",
    "_compareAndExchangeReferenceRelease",
    "_compareAndExchangeLongAcquire",
    "_compareAndExchangeLongRelease",
    "_compareAndExchangeIntAcquire",
    "_compareAndExchangeIntRelease",
    "_compareAndSetByte",
    "_compareAndExchangeByte",
    "_compareAndExchangeByteAcquire",
    "_compareAndExchangeByteRelease",
    "_compareAndSetShort",
    "_compareAndExchangeShort",
    "_compareAndExchangeShortAcquire",
    "_compareAndExchangeShortRelease",
    "_weakCompareAndSetReferencePlain",
    "_weakCompareAndSetReferenceAcquire",
    "_weakCompareAndSetReferenceRelease",
    "_weakCompareAndSetReference",
    "_weakCompareAndSetLongPlain",
    "_weakCompareAndSetLongAcquire",
    "_weakCompareAndSetLongRelease",
    "_weakCompareAndSetLong",
    "_weakCompareAndSetIntPlain",
    "_weakCompareAndSetIntAcquire",
    "_weakCompareAndSetIntRelease",
    "_weakCompareAndSetInt",
    "_weakCompareAndSetBytePlain",
    "_weakCompareAndSetByteAcquire",
    "_weakCompareAndSetByteRelease",
    "_weakCompareAndSetByte",
    "_weakCompareAndSetShortPlain",
    "_weakCompareAndSetShortAcquire",
    "_weakCompareAndSetShortRelease",
    "_weakCompareAndSetShort",
    "_getAndAddInt",
    "_getAndSetInt",
    "_getAndAddLong",
    "_getAndSetLong",
    "_getAndAddByte",
    "_getAndSetByte",
    "_getAndAddShort",
    "_getAndSetShort",
    "_getAndSetReference",
    "_VectorUnaryOp",
    "_VectorBinaryOp",
    "_VectorTernaryOp",
    "_VectorBroadcastCoerced",
    "_VectorShuffleIota",
    "_VectorShuffleToVector",
    "_VectorLoadOp",
    "_VectorStoreOp",
    "_VectorReductionCoerced",
    "_VectorTest",
    "_VectorBlend",
    "_VectorCompare",
    "_VectorRearrange",
    "_VectorExtract",
    "_VectorInsert",
    "_VectorBroadcastInt",
    "_VectorConvert",
    "_VectorGatherOp",
    "_VectorScatterOp",
    "_VectorRebox",
    "_VectorMaskOp",
];

/// C2 optimisations that remove calls to instrumented methods.
pub const JIT_OPTIMISATIONS_OFF: &[&str] = &["-XX:-OptimizeStringConcat", "-XX:-EliminateAutoBox"];

/// The message HotSpot prints for a name it does not know.
const UNKNOWN_INTRINSIC: &str = "Unrecognized intrinsic detected in DisableIntrinsic: ";

/// [`jit_flags`], remembered in `cache_dir` for this `java` (by its path, size and modification
/// time, and those of its JDK's `lib/modules`), so that a profiled run does not start a JVM first. A
/// result with a warning is never remembered; an unreadable entry is computed again.
pub fn cached_jit_flags(java: &Path, cache_dir: &Path) -> (Vec<String>, Option<String>) {
    let Some(key) = java_identity(java) else {
        return jit_flags(java);
    };
    let file = cache_dir.join(format!("jit-flags-{key:016x}.txt"));
    if let Ok(text) = std::fs::read_to_string(&file) {
        if let Some(flags) = text.strip_suffix("end\n") {
            return (flags.lines().map(str::to_owned).collect(), None);
        }
    }
    let (flags, warning) = jit_flags(java);
    if warning.is_none() {
        let staging = cache_dir.join(format!("jit-flags-{key:016x}.{}.tmp", std::process::id()));
        let text = flags.iter().map(|f| format!("{f}\n")).collect::<String>() + "end\n";
        if std::fs::write(&staging, text).is_ok() && std::fs::rename(&staging, &file).is_err() {
            let _ = std::fs::remove_file(&staging);
        }
    }
    (flags, warning)
}

/// A hash of what identifies a JVM's build: the launcher's and the runtime image's path, size and
/// modification time.
fn java_identity(java: &Path) -> Option<u64> {
    let java = std::fs::canonicalize(java).ok()?;
    let home = java.parent()?.parent()?;
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for file in [java.clone(), home.join("lib").join("modules")] {
        let meta = std::fs::metadata(&file).ok()?;
        let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        let text = format!("{}\0{}\0{}\0", file.display(), meta.len(), modified.as_nanos());
        hash = text
            .bytes()
            .fold(hash, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    }
    Some(hash)
}

/// The flags to pass before the program's own JVM options, and a warning when the JVM would not take
/// them (then the counts of intrinsic methods may depend on the JIT).
pub fn jit_flags(java: &Path) -> (Vec<String>, Option<String>) {
    let mut names: Vec<&str> = BYPASSING_INTRINSICS.to_vec();
    // Each attempt removes one name the JVM rejects; a JDK far from 17 may reject many.
    for _ in 0..=BYPASSING_INTRINSICS.len() {
        let flags = flags_for(&names);
        let output = Command::new(java).args(&flags).arg("-version").output();
        let output = match output {
            Ok(output) => output,
            Err(error) => return (Vec::new(), Some(format!("cannot run {}: {error}", java.display()))),
        };
        if output.status.success() {
            return (flags, None);
        }
        let text = String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout);
        let rejected = text
            .lines()
            .find_map(|line| line.trim().strip_prefix(UNKNOWN_INTRINSIC))
            .map(str::trim);
        match rejected {
            Some(name) if names.contains(&name) => names.retain(|n| *n != name),
            _ => {
                let first = text.lines().next().unwrap_or_default().to_owned();
                return (
                    Vec::new(),
                    Some(format!(
                        "this JVM refuses the flags that disable its JIT intrinsics ({first}); counts of JDK methods the JIT replaces by intrinsics may vary between runs"
                    )),
                );
            }
        }
    }
    (
        Vec::new(),
        Some("this JVM rejects every intrinsic name jresa knows".to_owned()),
    )
}

fn flags_for(names: &[&str]) -> Vec<String> {
    let mut flags = vec!["-XX:+UnlockDiagnosticVMOptions".to_owned()];
    if !names.is_empty() {
        flags.push(format!("-XX:DisableIntrinsic={}", names.join(",")));
    }
    flags.extend(JIT_OPTIMISATIONS_OFF.iter().map(|f| (*f).to_owned()));
    flags
}
