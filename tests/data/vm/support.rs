//! Shared by the VM tests (`tests/vm_golden.rs`, `tests/vm_fidelity.rs`, `tests/vm_counts.rs`; the
//! module `vm_support` of `tests/suite.rs`, beside `analyze_support`): compiling fixtures, the class
//! source over them and the JDK, reading `// inputs:` comments, parsing instance text, and running
//! the Java harness that executes the same instances on the real JVM.

#![allow(dead_code)]

use jresa::classfile::{read_inputs, ClassFile, ClassPath};
use jresa::vm_source::JvmClassSource;
use jresa_gpu_validate::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/data/vm`.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vm")
}

/// `specs/src/jresa/spec/Resource.java`, which fixtures that count `consume` compile against.
pub fn resource_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/src/jresa/spec/Resource.java")
}

/// The VM fixtures, sorted by name.
pub fn fixtures() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data/vm exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    sources
}

/// Compiles sources with `javac -g` into `out` and reads back every class there.
pub fn compile(sources: &[PathBuf], out: &Path) -> Vec<ClassFile> {
    crate::analyze_support::javac(sources, out);
    let loaded = read_inputs(&[out.to_path_buf()]);
    assert!(loaded.errors.is_empty(), "reading classes: {:?}", loaded.errors);
    let mut classes = loaded.classes;
    classes.sort_by(|a, b| a.name.cmp(&b.name));
    classes
}

/// The VM's class source over `classes` and the JDK.
pub fn source(classes: &[ClassFile]) -> JvmClassSource<'static> {
    JvmClassSource::new(classes.iter().cloned(), ClassPath::default_jdk().ok())
}

/// A method of a fixture with the instances its `// inputs:` comment lists.
#[derive(Clone, Debug)]
pub struct Subject {
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub is_static: bool,
    /// The parameter descriptors, the receiver's first for an instance method.
    pub params: Vec<String>,
    pub instances: Vec<Vec<Value>>,
}

/// The parameter descriptors of a method descriptor.
pub fn params(descriptor: &str) -> Vec<String> {
    let (params, _) = jresa_analyses::ir::split_method_descriptor(descriptor).expect("a method descriptor");
    params.into_iter().map(str::to_owned).collect()
}

/// The subjects of a compiled fixture: every method preceded by an `// inputs:` line.
pub fn subjects(source_file: &Path, classes: &[ClassFile]) -> Vec<Subject> {
    let class_name = source_file
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a file name")
        .to_owned();
    let class = classes
        .iter()
        .find(|c| c.name == class_name)
        .expect("the fixture's class");
    let text = std::fs::read_to_string(source_file).expect("read the fixture");
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("// inputs:") {
            pending = Some(rest.trim().to_owned());
            continue;
        }
        let Some(inputs) = pending.take() else {
            continue;
        };
        if line.starts_with("//") || line.starts_with('@') || line.is_empty() {
            pending = Some(inputs);
            continue;
        }
        let open = line.find('(').expect("a method declaration after `// inputs:`");
        let name = line[..open]
            .split_whitespace()
            .last()
            .expect("a method name")
            .to_owned();
        let method = class
            .methods
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no method {name} in {class_name}"));
        let is_static = method.access & 0x0008 != 0;
        let mut all_params = Vec::new();
        if !is_static {
            all_params.push(format!("L{class_name};"));
        }
        all_params.extend(params(&method.descriptor));
        let instances = parse_instances(&inputs, &all_params, classes)
            .unwrap_or_else(|e| panic!("{class_name}.{name}: bad inputs `{inputs}`: {e}"));
        out.push(Subject {
            class: class_name.clone(),
            name,
            descriptor: method.descriptor.clone(),
            is_static,
            params: all_params,
            instances,
        });
    }
    out
}

/// Parses `a, b; c, d` into instances of the given parameter types.
pub fn parse_instances(text: &str, params: &[String], classes: &[ClassFile]) -> Result<Vec<Vec<Value>>, String> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        pos: 0,
        classes,
    };
    if params.is_empty() && text.trim().is_empty() {
        return Ok(vec![Vec::new()]);
    }
    let mut out = Vec::new();
    loop {
        parser.skip();
        if parser.pos >= parser.chars.len() {
            break;
        }
        let mut instance = Vec::new();
        for (k, param) in params.iter().enumerate() {
            instance.push(parser.value(param)?);
            if k + 1 < params.len() {
                parser.expect(',')?;
            }
        }
        out.push(instance);
        parser.skip();
        if parser.pos < parser.chars.len() {
            parser.expect(';')?;
        }
    }
    Ok(out)
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    classes: &'a [ClassFile],
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.chars.get(self.pos) == Some(&' ') {
            self.pos += 1;
        }
    }

    fn peek(&mut self, c: char) -> bool {
        self.skip();
        self.chars.get(self.pos) == Some(&c)
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.peek(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected `{c}` at {}", self.pos))
        }
    }

    fn token(&mut self) -> String {
        self.skip();
        let start = self.pos;
        while self.pos < self.chars.len() && !",;}= {".contains(self.chars[self.pos]) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn number<T: std::str::FromStr>(&mut self) -> Result<T, String> {
        let token = self.token();
        token.parse().map_err(|_| format!("bad number `{token}`"))
    }

    fn float(&mut self) -> Result<f64, String> {
        let token = self.token();
        match token.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => token.parse().map_err(|_| format!("bad float `{token}`")),
        }
    }

    fn value(&mut self, descriptor: &str) -> Result<Value, String> {
        self.skip();
        let rest: String = self.chars[self.pos..].iter().take(4).collect();
        if rest == "null" {
            self.pos += 4;
            return Ok(Value::Null);
        }
        match descriptor.as_bytes()[0] {
            b'I' | b'S' | b'B' | b'C' => Ok(Value::Int(self.number()?)),
            b'Z' => match self.token().as_str() {
                "true" => Ok(Value::Int(1)),
                "false" => Ok(Value::Int(0)),
                other => Err(format!("bad boolean `{other}`")),
            },
            b'J' => Ok(Value::Long(self.number()?)),
            b'F' => {
                let token_start = self.pos;
                let token = self.token();
                self.pos = token_start;
                // Parse as f32 directly so that decimal literals round once.
                let value: f32 = match token.as_str() {
                    "NaN" => f32::NAN,
                    "Infinity" => f32::INFINITY,
                    "-Infinity" => f32::NEG_INFINITY,
                    _ => token.parse().map_err(|_| format!("bad float `{token}`"))?,
                };
                self.token();
                Ok(Value::Float(value.to_bits()))
            }
            b'D' => Ok(Value::Double(self.float()?.to_bits())),
            b'[' => {
                self.expect('{')?;
                let mut elements = Vec::new();
                while !self.peek('}') {
                    elements.push(self.value(&descriptor[1..])?);
                    if !self.peek('}') {
                        self.expect(',')?;
                    }
                }
                self.expect('}')?;
                Ok(Value::Array {
                    descriptor: descriptor.to_owned(),
                    elements,
                })
            }
            _ if self.peek('"') => self.string(),
            _ => {
                let class = self.token();
                self.expect('{')?;
                let mut fields = Vec::new();
                while !self.peek('}') {
                    let name = self.token();
                    self.expect('=')?;
                    let field_descriptor = self.field_descriptor(&class, &name)?;
                    fields.push((name, self.value(&field_descriptor)?));
                    if !self.peek('}') {
                        self.expect(',')?;
                    }
                }
                self.expect('}')?;
                Ok(Value::Object { class, fields })
            }
        }
    }

    fn field_descriptor(&self, class: &str, name: &str) -> Result<String, String> {
        let mut current = Some(class.to_owned());
        while let Some(c) = current {
            let Some(file) = self.classes.iter().find(|f| f.name == c) else {
                break;
            };
            if let Some(field) = file.fields.iter().find(|f| f.name == name && f.access & 0x0008 == 0) {
                return Ok(field.descriptor.clone());
            }
            current = file.super_name.clone();
        }
        Err(format!("no field {name} in {class}"))
    }

    fn string(&mut self) -> Result<Value, String> {
        self.expect('"')?;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let c = *self.chars.get(self.pos).ok_or("unterminated string")?;
            self.pos += 1;
            match c {
                '"' => break,
                '\\' => {
                    let e = *self.chars.get(self.pos).ok_or("unterminated escape")?;
                    self.pos += 1;
                    if e == 'u' {
                        let hex: String = self.chars[self.pos..self.pos + 4].iter().collect();
                        self.pos += 4;
                        units.push(u16::from_str_radix(&hex, 16).map_err(|_| "bad \\u escape")?);
                    } else {
                        units.push(e as u16);
                    }
                }
                c => {
                    let mut buffer = [0u16; 2];
                    units.extend_from_slice(c.encode_utf16(&mut buffer));
                }
            }
        }
        Ok(Value::Str(units))
    }
}

/// Compiles the Java harness into `out` (next to the classes it will run).
pub fn compile_harness(out: &Path) {
    let source = data_dir().join("harness/VmHarness.java");
    let output = crate::javac()
        .args(["-nowarn", "-XDignore.symbol.file", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .arg(&source)
        .output()
        .expect("javac runs (JDK 17 is required)");
    assert!(
        output.status.success(),
        "javac failed on the harness:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs `lines` (`Class<TAB>method<TAB>descriptor<TAB>arguments`) through the harness with `java`
/// and the extra JVM options, with `classes` on the class path; returns one outcome line per input.
pub fn run_harness(classes: &Path, lines: &[String], jvm_options: &[&str], tag: &str) -> Vec<String> {
    let input = classes.join(format!("harness-{tag}.in"));
    let output = classes.join(format!("harness-{tag}.out"));
    std::fs::write(&input, lines.join("\n") + "\n").expect("write the harness input");
    let status = Command::new("java")
        .args(jvm_options)
        .arg("-cp")
        .arg(classes)
        .arg("VmHarness")
        .arg(&input)
        .arg(&output)
        .output()
        .expect("java runs");
    assert!(
        status.status.success(),
        "the harness failed:\n{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&output).expect("the harness output");
    text.lines().map(str::to_owned).collect()
}
