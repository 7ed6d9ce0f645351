//! Soundness fuzzing in the spirit of LeJit: methods of the analysis fixtures become templates
//! whose integer constants and comparisons are holes (`tests/data/validate/lejit.rs`); filling them
//! from a fixed seed gives concrete variants, which are compiled with `javac`, analysed, and
//! validated on the VM. Every variant whose method gets a bound must have no instance above it: a
//! violation is a soundness bug of the analysis (the failing variant then becomes a regression
//! fixture in `tests/data/validate/`).

use crate::analyze_support;
use crate::lejit;
use jresa::analyze::{analyze_with, AnalyzeOptions};
use jresa::classfile::{read_inputs, ClassPath};
use jresa::validate::{validate, ValidateOptions, ValidationStatus};
use jresa_analyses::cost_model::CostModel;
use rand::rngs::Xoshiro256PlusPlus;
use rand::SeedableRng;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The seed of the variants in the suite (`JRESA_FUZZ_SEED` overrides it, to explore others).
const SEED: u64 = 0x1e_317;

/// Variants made and checked per run (`JRESA_FUZZ_VARIANTS` overrides it).
const VARIANTS: usize = 40;

/// A setting from the environment, or its default.
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The fixtures whose methods (those with an `// expect:` line) are templates.
const FIXTURES: &[&str] = &["Basic", "Recursive", "Logarithmic", "Chain", "ArrayLoops", "Signs"];

/// Compiles every source in `dir` with one `javac` run, dropping the sources javac reports errors
/// in and trying again; returns the sources that compiled.
fn compile_surviving(dir: &Path, mut sources: Vec<PathBuf>) -> Vec<PathBuf> {
    for _ in 0..4 {
        if sources.is_empty() {
            break;
        }
        let output = crate::javac()
            .args(["-g", "-nowarn", "-encoding", "UTF-8", "-d"])
            .arg(dir)
            .args(&sources)
            .output()
            .expect("javac runs (JDK 17 is required)");
        if output.status.success() {
            return sources;
        }
        let errors = String::from_utf8_lossy(&output.stderr).into_owned();
        let before = sources.len();
        sources.retain(|s| !errors.contains(&format!("{}:", s.display())));
        assert!(
            sources.len() < before,
            "javac failed without naming a variant:\n{errors}"
        );
    }
    sources
}

#[test]
fn variants_of_fixture_methods_have_no_violations() {
    let mut templates = Vec::new();
    for fixture in FIXTURES {
        let path = analyze_support::data_dir().join(format!("{fixture}.java"));
        let source = std::fs::read_to_string(&path).expect("read the fixture");
        let methods: Vec<String> = analyze_support::expectations(&path)
            .into_iter()
            .map(|e| e.method)
            .filter(|m| m != "<init>")
            .collect();
        let names: Vec<&str> = methods.iter().map(String::as_str).collect();
        templates.extend(lejit::templates(fixture, &source, &names));
    }
    assert!(templates.len() >= 40, "only {} templates", templates.len());
    let dir = analyze_support::scratch("validate-fuzz", "variants");
    let seed = setting("JRESA_FUZZ_SEED", SEED);
    let count = setting("JRESA_FUZZ_VARIANTS", VARIANTS as u64) as usize;
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut variants: HashMap<String, lejit::Variant> = HashMap::new();
    let mut sources = Vec::new();
    for k in 0..count {
        // Spread the variants over the templates, in a seeded order.
        let template = &templates[(k * 7 + rand::RngExt::random_range(&mut random, 0..7)) % templates.len()];
        let renamed = format!("{}V{k}", template.class);
        let variant = lejit::fill(template, &renamed, &mut random);
        let path = dir.join(format!("{renamed}.java"));
        std::fs::write(&path, &variant.source).expect("write a variant");
        sources.push(path);
        variants.insert(renamed, variant);
    }
    let compiled = compile_surviving(&dir, sources);
    assert!(
        compiled.len() >= count / 2,
        "only {} of {count} variants compiled",
        compiled.len()
    );
    let loaded = read_inputs(std::slice::from_ref(&dir));
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let classpath = ClassPath::default_jdk().ok();
    let select = |class: &jresa::classfile::ClassFile, method: &jresa::classfile::Method| {
        variants.get(&class.name).is_some_and(|v| v.method == method.name)
    };
    let options = AnalyzeOptions {
        method_budget: Some(Duration::from_secs(4)),
        progress: None,
        cache_dir: None,
    };
    let report = analyze_with(
        &loaded.classes,
        classpath.as_ref(),
        CostModel::Instructions,
        &select,
        &options,
    );
    let mut validate_options = ValidateOptions::new(CostModel::Instructions, 5, 3000);
    validate_options.replay_prefix = format!("jresa validate {}", dir.display());
    let validation = validate(&loaded.classes, classpath, &report, &validate_options).expect("the variants validate");
    let mut failures = Vec::new();
    for m in &validation.methods {
        if m.status == ValidationStatus::Violated {
            let variant = &variants[&m.class];
            failures.push(format!(
                "{}.{} (changes {}) with bound {}: {} violations, e.g. {:?}\n{}",
                m.class,
                m.name,
                variant.changes.join(", "),
                m.bound.as_deref().unwrap_or("?"),
                m.violations,
                m.violating_instances.first(),
                variant.source
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "soundness violations (seed {seed}):\n{}",
        failures.join("\n\n")
    );
    let confirmed = validation
        .methods
        .iter()
        .filter(|m| m.status == ValidationStatus::Confirmed)
        .count();
    let instances: usize = validation.methods.iter().map(|m| m.checked).sum();
    eprintln!(
        "{} variants compiled, {} analysed, {confirmed} bounds confirmed on {instances} instances",
        compiled.len(),
        report.methods.len()
    );
    assert!(confirmed >= 10, "only {confirmed} variants were validated");
}
