//! The one input loader and the one method selector of every subcommand that reads classes:
//! `InputArgs` (paths and `--method`), `ClassPathArgs` (`--classpath`, for the subcommands that
//! resolve library classes), `Inputs::load` (Java sources compiled first, input errors reported,
//! the class path read) and `MethodSelection` (the `--method` selectors).
use super::sources::{compile_java_inputs, TempClasses};
use super::EXIT_INPUT_ERROR;
use crate::classfile::{read_inputs, ClassFile, ClassPath, Loaded, Method};
use crate::report;
use std::path::PathBuf;

/// The classes a subcommand reads and the methods it works on.
#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Class files, directories, jars, jmods, or Java sources (compiled with `javac -g` first).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Only these methods: `Class.name` or `Class.name(descriptor)`; the class may be given by its
    /// simple name or its binary name (with dots or slashes). Repeatable.
    #[arg(long = "method", short = 'm')]
    pub methods: Vec<String>,
}

/// Where the subcommands that resolve calls into the library find its classes.
#[derive(clap::Args, Clone, Debug)]
pub struct ClassPathArgs {
    /// Where to resolve library classes (`:`-separated); defaults to the running JDK's java.base.
    #[arg(long)]
    pub classpath: Option<String>,
}

impl ClassPathArgs {
    /// Reads the class path (`--classpath`, or the running JDK's `java.base` when there is one);
    /// `Err` with the exit code, after reporting it, when `--classpath` cannot be read.
    fn load(&self) -> Result<Option<ClassPath>, u8> {
        match &self.classpath {
            Some(text) => {
                let roots: Vec<PathBuf> = std::env::split_paths(text).collect();
                match ClassPath::from_paths(&roots) {
                    Ok(classpath) => Ok(Some(classpath)),
                    Err(error) => {
                        eprint!("{}", report::input_error(&error));
                        Err(EXIT_INPUT_ERROR)
                    }
                }
            }
            None => Ok(ClassPath::default_jdk().ok()),
        }
    }
}

/// The inputs of a subcommand: its classes (Java sources compiled first), the input errors
/// (already reported on stderr), the class path to resolve library classes, and the methods
/// selected.
pub struct Inputs {
    pub loaded: Loaded,
    /// The class path, for the subcommands that take `--classpath`.
    pub classpath: Option<ClassPath>,
    pub selection: MethodSelection,
    /// Keeps the classes compiled from `.java` inputs alive.
    _compiled: Option<TempClasses>,
}

impl Inputs {
    /// Reads the inputs, reporting every input error on stderr, and, when `classpath` is given,
    /// the class path; `Err` with the exit code when the class path cannot be read.
    pub fn load(input: &InputArgs, classpath: Option<&ClassPathArgs>) -> Result<Inputs, u8> {
        let (paths, compiled, compile_errors) = compile_java_inputs(&input.paths);
        let mut loaded = read_inputs(&paths);
        loaded.errors.splice(0..0, compile_errors);
        for error in &loaded.errors {
            eprint!("{}", report::input_error(error));
        }
        let classpath = match classpath {
            Some(args) => args.load()?,
            None => None,
        };
        Ok(Inputs {
            loaded,
            classpath,
            selection: MethodSelection::parse(&input.methods),
            _compiled: compiled,
        })
    }

    /// Whether an input could not be read.
    pub fn has_errors(&self) -> bool {
        !self.loaded.errors.is_empty()
    }
}

/// The `--method` selectors of a run: a method is selected when one of them matches it, or when
/// there are none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MethodSelection {
    selectors: Vec<MethodSelector>,
    /// The selectors as given, for messages.
    texts: Vec<String>,
}

impl MethodSelection {
    pub fn parse(texts: &[String]) -> MethodSelection {
        MethodSelection {
            selectors: texts.iter().map(|t| MethodSelector::parse(t)).collect(),
            texts: texts.to_vec(),
        }
    }

    /// Whether every method is selected (no `--method` was given).
    pub fn is_all(&self) -> bool {
        self.selectors.is_empty()
    }

    /// Whether the method `name` + `descriptor` of the class with internal name `class` is
    /// selected.
    pub fn matches(&self, class: &str, name: &str, descriptor: &str) -> bool {
        self.is_all() || self.selectors.iter().any(|s| s.matches(class, name, descriptor))
    }

    /// Whether `method` of `class` is selected.
    pub fn selects(&self, class: &ClassFile, method: &Method) -> bool {
        self.matches(&class.name, &method.name, &method.descriptor)
    }

    /// The selectors as given, comma-separated (for "no method matches ...").
    pub fn describe(&self) -> String {
        self.texts.join(", ")
    }
}

/// One `--method` selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSelector {
    /// The class as given, with slashes (`java/lang/String` or a simple name `String`); empty for any.
    pub class: String,
    pub name: String,
    pub descriptor: Option<String>,
}

impl MethodSelector {
    /// Parses `Class.name`, `Class.name(desc)`, `pkg.Class.name` or just `name`.
    pub fn parse(text: &str) -> MethodSelector {
        let (head, descriptor) = match text.find('(') {
            Some(k) => (&text[..k], Some(text[k..].to_owned())),
            None => (text, None),
        };
        let (class, name) = match head.rfind('.') {
            Some(k) => (head[..k].replace('.', "/"), head[k + 1..].to_owned()),
            None => (String::new(), head.to_owned()),
        };
        MethodSelector {
            class,
            name,
            descriptor,
        }
    }

    /// Whether the method `name` + `descriptor` of class `class` (internal name) is selected.
    pub fn matches(&self, class: &str, name: &str, descriptor: &str) -> bool {
        let class_ok = self.class.is_empty()
            || class == self.class
            || class.rsplit('/').next() == Some(self.class.as_str())
            || class.ends_with(&format!("/{}", self.class));
        class_ok && name == self.name && self.descriptor.as_deref().is_none_or(|d| d == descriptor)
    }
}
