//! Fidelity of the VM against the real JVM: every method of the VM fixtures (`tests/data/vm`) and
//! every method of the analysis fixtures (`tests/data/analyze`) whose parameters the generator can
//! produce (ints, longs, floats, doubles, booleans, chars, strings, arrays of those, `Chain` lists as
//! receivers) runs on deterministic pseudo-random instances, in the VM and with `java` (one JVM per
//! fixture class running all its instances through `tests/data/vm/harness/VmHarness.java`), and
//! the returned values and exception classes must be equal.
//!
//! Instances the VM ends with a refusal or a resource limit (its bytecode budget, heap, stack) are
//! not compared, only counted: the JVM would not end them comparably (or at all).

use crate::analyze_support;
use crate::vm_support;
use jresa::report::vm::{ending_text, value_text};
use jresa_gpu_validate::{Backend, CpuBackend, Ending, Limits, Package, RunConfig, Value};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::collections::BTreeMap;
use vm_support::Subject;

/// Generated instances per method (besides the fixture's own).
const GENERATED_PER_METHOD: usize = 80;

/// The bytecode budget of one instance: instances past it are not compared.
const BYTECODE_BUDGET: u64 = 400_000;

/// A deterministic generator of instances.
struct Random(Xoshiro256PlusPlus);

impl Random {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0.random_range(0..n)
    }

    fn range(&mut self, low: i64, high: i64) -> i64 {
        self.0.random_range(low..=high)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn int(&mut self) -> i32 {
        const EDGES: &[i32] = &[
            0,
            1,
            -1,
            2,
            i32::MIN,
            i32::MAX,
            i32::MIN + 1,
            i32::MAX - 1,
            255,
            256,
            65535,
            65536,
        ];
        match self.below(100) {
            0..=69 => self.range(-16, 64) as i32,
            70..=84 => EDGES[self.below(EDGES.len() as u64) as usize],
            _ => self.next() as i32,
        }
    }

    fn long(&mut self) -> i64 {
        const EDGES: &[i64] = &[0, 1, -1, i64::MIN, i64::MAX, i32::MIN as i64, i32::MAX as i64, 1 << 32];
        match self.below(100) {
            0..=69 => self.range(-16, 64),
            70..=84 => EDGES[self.below(EDGES.len() as u64) as usize],
            _ => self.next() as i64,
        }
    }

    fn double(&mut self) -> f64 {
        const EDGES: &[f64] = &[
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
            1e-300,
            3e9,
            -3e9,
            2147483647.5,
        ];
        match self.below(100) {
            0..=49 => self.range(-2000, 2000) as f64 / 8.0,
            50..=79 => EDGES[self.below(EDGES.len() as u64) as usize],
            _ => f64::from_bits(self.next()),
        }
    }

    fn string(&mut self) -> Vec<u16> {
        const ALPHABET: &[char] = &['a', 'b', 'c', 'x', 'A', 'Z', '0', '1', '9', '-', ',', ' ', 'é', '中'];
        let length = self.below(12) as usize;
        let mut text = String::new();
        for _ in 0..length {
            let pool = if self.chance(90) { &ALPHABET[..12] } else { ALPHABET };
            text.push(pool[self.below(pool.len() as u64) as usize]);
        }
        if self.chance(10) {
            // Numbers, for parsers.
            text = self.int().to_string();
        }
        text.encode_utf16().collect()
    }

    /// A value of field type `descriptor`, or `None` when the generator cannot make one.
    fn value(&mut self, descriptor: &str, depth: u32) -> Option<Value> {
        Some(match descriptor.as_bytes()[0] {
            b'I' => Value::Int(self.int()),
            b'J' => Value::Long(self.long()),
            b'Z' => Value::Int(self.below(2) as i32),
            b'C' => Value::Int(if self.chance(90) {
                self.range(0, 0x17F)
            } else {
                self.range(0, 0xFFFF)
            } as i32),
            b'B' => Value::Int(self.range(-128, 127) as i32),
            b'S' => Value::Int(self.range(-32768, 32767) as i32),
            b'F' => Value::Float((self.double() as f32).to_bits()),
            b'D' => Value::Double(self.double().to_bits()),
            b'[' if depth < 3 => {
                if self.chance(5) {
                    return Some(Value::Null);
                }
                let length = self.below(if depth == 0 { 13 } else { 5 }) as usize;
                let mut elements = Vec::with_capacity(length);
                for _ in 0..length {
                    elements.push(self.value(&descriptor[1..], depth + 1)?);
                }
                Value::Array {
                    descriptor: descriptor.to_owned(),
                    elements,
                }
            }
            _ if descriptor == "Ljava/lang/String;" => {
                if self.chance(4) {
                    Value::Null
                } else {
                    Value::Str(self.string())
                }
            }
            _ if descriptor == "LChain;" => {
                let length = self.range(1, 9);
                let mut list = Value::Null;
                for _ in 0..length {
                    list = Value::Object {
                        class: "Chain".into(),
                        fields: vec![
                            ("value".into(), Value::Int(self.range(-5, 20) as i32)),
                            ("next".into(), list),
                        ],
                    };
                }
                list
            }
            _ => return None,
        })
    }
}

/// An instance to compare: its harness line, the VM's outcome and a label for messages.
struct Compared {
    line: String,
    vm: String,
    label: String,
}

/// The analysis fixtures' methods that only terminate on part of their domain get inputs from it.
fn restricted(class: &str, name: &str, random: &mut Random) -> Option<Vec<Value>> {
    let int = |v: i64| Value::Int(v as i32);
    Some(match (class, name) {
        ("Nonterminating", "spinWhenPositive" | "guardedStuckCounter" | "stuckCounter") => {
            vec![int(random.range(-40, 0))]
        }
        ("Nonterminating", "stepTwoUntilEqual" | "countDownByTwoToZero") => vec![int(2 * random.range(0, 40))],
        ("Nonterminating", "collatz") => vec![int(random.range(1, 200))],
        ("Nonterminating", "swapUntilEqual") => {
            let v = random.range(-20, 20);
            vec![int(v), int(v)]
        }
        ("Nonterminating", "unguardedStride") => vec![int(random.range(0, 60)), int(random.range(1, 5))],
        ("Nonterminating", "downToZero") => vec![int(random.range(0, 80))],
        ("Nonterminating", "forever") => return None,
        ("Recursive", "fib") => vec![int(random.range(-3, 20))],
        _ => return None,
    })
}

/// Whether a method of the analysis fixtures never terminates once called (no inputs at all).
fn never_terminates(class: &str, name: &str) -> bool {
    class == "Nonterminating" && name == "forever"
}

/// The subjects of the analysis fixtures: every method but `<init>`/`<clinit>` whose parameters
/// the generator can produce (instance methods only on `Chain`).
fn analysis_subjects(classes: &[jresa::classfile::ClassFile]) -> Vec<Subject> {
    let mut out = Vec::new();
    for source in analyze_support::fixtures() {
        let class_name = analyze_support::stem(&source);
        let class = classes
            .iter()
            .find(|c| c.name == class_name)
            .expect("an analysis fixture class");
        for method in &class.methods {
            if method.name.starts_with('<') || never_terminates(&class_name, &method.name) {
                continue;
            }
            let is_static = method.access & 0x0008 != 0;
            if !is_static && class_name != "Chain" {
                continue;
            }
            let mut params = Vec::new();
            if !is_static {
                params.push(format!("L{class_name};"));
            }
            params.extend(vm_support::params(&method.descriptor));
            out.push(Subject {
                class: class_name.clone(),
                name: method.name.clone(),
                descriptor: method.descriptor.clone(),
                is_static,
                params,
                instances: Vec::new(),
            });
        }
    }
    out
}

/// Adds generated instances to a subject; returns `false` when its parameters cannot be generated.
fn generate(subject: &mut Subject, random: &mut Random) -> bool {
    // A method without parameters has one input; running it again on the JVM would see the
    // static state the first call left.
    let count = if subject.params.is_empty() {
        0
    } else {
        GENERATED_PER_METHOD
    };
    for _ in 0..count {
        let instance = match restricted(&subject.class, &subject.name, random) {
            Some(instance) => Some(instance),
            None => subject
                .params
                .iter()
                .map(|p| random.value(p, 0))
                .collect::<Option<Vec<Value>>>(),
        };
        match instance {
            Some(instance) => subject.instances.push(instance),
            None => return false,
        }
    }
    true
}

#[test]
fn the_vm_agrees_with_the_jvm_on_every_compared_instance() {
    let started = std::time::Instant::now();
    let dir = analyze_support::scratch("vm-fidelity", "classes");
    let vm_fixtures = vm_support::fixtures();
    let mut sources = vm_fixtures.clone();
    sources.extend(analyze_support::fixtures());
    sources.push(vm_support::resource_source());
    let classes = vm_support::compile(&sources, &dir);
    vm_support::compile_harness(&dir);
    let mut random = Random(Xoshiro256PlusPlus::seed_from_u64(0x5EED_1234));
    let mut subjects: Vec<Subject> = Vec::new();
    for fixture in &vm_fixtures {
        subjects.extend(vm_support::subjects(fixture, &classes));
    }
    subjects.extend(analysis_subjects(&classes));
    let mut skipped = Vec::new();
    subjects.retain_mut(|subject| {
        let ok = generate(subject, &mut random);
        if !ok {
            skipped.push(format!("{}.{}{}", subject.class, subject.name, subject.descriptor));
        }
        ok
    });
    let source = vm_support::source(&classes);
    let entries: Vec<(String, String, String)> = subjects
        .iter()
        .map(|s| (s.class.clone(), s.name.clone(), s.descriptor.clone()))
        .collect();
    let package = Package::build(&source, &entries).expect("the fixtures package");
    let config = RunConfig {
        limits: Limits {
            max_bytecodes: BYTECODE_BUDGET,
            ..Limits::default()
        },
        cct: false,
    };
    let backend = CpuBackend::new(&package, config);
    eprintln!(
        "{} methods ({} skipped: {skipped:?}), packaged in {:.1} s: {:?}",
        subjects.len(),
        skipped.len(),
        started.elapsed().as_secs_f64(),
        package.stats
    );

    // The VM's outcomes, and the harness lines of the instances to compare, per class.
    let mut per_class: BTreeMap<String, Vec<Compared>> = BTreeMap::new();
    let mut not_compared: BTreeMap<String, usize> = BTreeMap::new();
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    for subject in &subjects {
        let outcomes = backend.run((&subject.class, &subject.name, &subject.descriptor), &subject.instances);
        for (instance, outcome) in subject.instances.iter().zip(&outcomes) {
            total += 1;
            let args: Vec<String> = instance
                .iter()
                .zip(&subject.params)
                .map(|(v, d)| value_text(v, d))
                .collect();
            let label = format!("{}.{}({})", subject.class, subject.name, args.join(", "));
            match &outcome.ending {
                Ending::Returned { .. } | Ending::Threw { .. } => {
                    let line = format!(
                        "{}\t{}\t{}\t{}",
                        subject.class,
                        subject.name,
                        subject.descriptor,
                        args.join(", ")
                    );
                    per_class.entry(subject.class.clone()).or_default().push(Compared {
                        line,
                        vm: ending_text(&outcome.ending),
                        label,
                    });
                }
                Ending::Refused { reason } => {
                    *refusals.entry(reason.clone()).or_default() += 1;
                    *not_compared.entry("refused".into()).or_default() += 1;
                }
                other => *not_compared.entry(ending_text(other)).or_default() += 1,
            }
        }
    }
    eprintln!("VM done after {:.1} s", started.elapsed().as_secs_f64());

    // The JVM's outcomes: one process per class, two at a time.
    let jobs: Vec<(&String, &Vec<Compared>)> = per_class.iter().collect();
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for pair in jobs.chunks(2) {
        let results: Vec<Vec<String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = pair
                .iter()
                .map(|(class, items)| {
                    let dir = &dir;
                    scope.spawn(move || {
                        let lines: Vec<String> = items.iter().map(|item| item.line.clone()).collect();
                        vm_support::run_harness(dir, &lines, &["-Xss64m"], class)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("the harness thread"))
                .collect()
        });
        for ((class, items), jvm) in pair.iter().zip(results) {
            assert_eq!(jvm.len(), items.len(), "{class}: one harness line per instance");
            for (item, jvm) in items.iter().zip(&jvm) {
                compared += 1;
                if &item.vm != jvm {
                    mismatches.push(format!("{}: VM {}, JVM {jvm}", item.label, item.vm));
                }
            }
        }
    }
    eprintln!(
        "compared {compared} of {total} instances in {:.1} s; not compared: {not_compared:?}",
        started.elapsed().as_secs_f64()
    );
    for (reason, count) in &refusals {
        eprintln!("  refused {count}x: {reason}");
    }
    assert!(
        mismatches.is_empty(),
        "{} of {compared} instances differ:\n{}",
        mismatches.len(),
        mismatches.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(compared >= 10_000, "only {compared} instances compared");
    // Refusals are explicit and rare: each reason is named above, and they stay a small share.
    assert!(
        not_compared.values().sum::<usize>() * 10 < total,
        "too many instances not compared: {not_compared:?}"
    );
}
