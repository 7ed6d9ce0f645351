//! Packaging (GVM, Celik et al. Secs. 3–4): the classes, methods, procedures and code of everything
//! an entry method can reach, in flat `u32` arrays addressed by handles, plus the initial images of
//! the heap (string literals, as JDK 17 `String` objects) and of the statics area.
//!
//! `closure` finds what to package (rapid type analysis over lifted IR, JDK code included), `layout`
//! lays out classes, fields and literals, `encode` turns each scheduled rule (`StackInsn`, from the
//! treegraph scheduler) into the numeric encoding of `crate::isa`; `assemble` runs the three in
//! order. **Everything the interpreter reads at run time is in the `u32` arrays of [`Package`]; the
//! host-side tables (names, field maps) serve only input conversion, rendering and messages.**
//!
//! **This module never depends on `crate::vm`**: the step that runs the interpreter while packaging
//! (initialising library classes into the initial images) is `Package::build`, in `crate::preinit`,
//! above both.

mod assemble;
pub mod closure;
mod encode;
pub(crate) mod layout;

use crate::isa::{self, NONE};
pub use closure::MethodKey;
use std::collections::HashMap;

/// Handles and field offsets the interpreter needs directly.
#[derive(Clone, Debug, Default)]
pub struct WellKnown {
    pub object: u32,
    pub string: u32,
    pub class: u32,
    pub byte_array: u32,
    pub cloneable: u32,
    pub serializable: u32,
    pub error: u32,
    pub null_pointer: u32,
    pub array_index: u32,
    pub arithmetic: u32,
    pub negative_array_size: u32,
    pub class_cast: u32,
    pub array_store: u32,
    pub initializer_error: u32,
    pub no_class_def: u32,
    pub clone_not_supported: u32,
    pub illegal_argument: u32,
    /// Word offsets (after the header) of `String.value` and `String.coder`.
    pub string_value: u32,
    pub string_coder: u32,
    /// Word offsets of `Class.componentType` and `Class.name`; `NONE` when absent.
    pub class_component_type: u32,
    pub class_name: u32,
    /// The word of a mirror that holds the class handle it stands for (after `Class`'s fields).
    pub mirror_handle: u32,
    /// Primitive classes by `ELEM_*` kind (`NONE` when not packaged).
    pub primitives: [u32; 11],
}

/// Sizes of the package, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageStats {
    pub classes: usize,
    pub methods: usize,
    pub methods_with_code: usize,
    pub natives: usize,
    pub refused: usize,
    pub procedures: usize,
    pub code_words: usize,
    pub literals: usize,
    pub rules_refused: usize,
}

/// A string concatenation site: the text around its arguments and their kinds.
#[derive(Clone, Debug, PartialEq)]
pub struct ConcatRecipe {
    /// The UTF-16 text before each argument, then the text after the last (`args.len() + 1`).
    pub texts: Vec<Vec<u16>>,
    /// The descriptor letter of each argument: `Z`, `B`, `C`, `S`, `I`, `J`, or `L` for a `String`.
    pub args: Vec<u8>,
}

impl ConcatRecipe {
    /// The recipe of a `StmtKind::Concat`, or why the VM cannot run it (`float` and `double`
    /// arguments, whose decimal form is the JDK's own algorithm).
    pub fn new(recipe: &str, descriptor: &str) -> Result<ConcatRecipe, String> {
        let (params, _) = jresa_analyses::ir::split_method_descriptor(descriptor)
            .ok_or_else(|| format!("malformed concatenation type {descriptor}"))?;
        let args = params
            .iter()
            .map(|p| match p.as_bytes()[0] {
                b'F' | b'D' => Err("a string concatenation of a float or double".to_owned()),
                b'[' => Err(format!("a string concatenation of {p}")),
                letter => Ok(letter),
            })
            .collect::<Result<Vec<u8>, String>>()?;
        let texts: Vec<Vec<u16>> = recipe.split('\u{1}').map(|t| t.encode_utf16().collect()).collect();
        if texts.len() != args.len() + 1 {
            return Err(format!(
                "a concatenation recipe with {} places for {} arguments",
                texts.len() - 1,
                args.len()
            ));
        }
        Ok(ConcatRecipe { texts, args })
    }

    /// The stack words of the arguments.
    pub fn arg_words(&self) -> usize {
        self.args.iter().map(|&a| if a == b'J' { 2 } else { 1 }).sum()
    }
}

/// A packaged program.
#[derive(Clone, Debug, Default)]
pub struct Package {
    pub code: Vec<u32>,
    /// `isa::CLASS_WORDS` per class.
    pub classes: Vec<u32>,
    pub supertypes: Vec<u32>,
    pub init_lists: Vec<u32>,
    /// `isa::METHOD_WORDS` per method.
    pub methods: Vec<u32>,
    /// `isa::PROC_WORDS` per procedure.
    pub procs: Vec<u32>,
    /// Per selector: start and count of its `(class, method)` pairs in `dispatch`, sorted by class.
    pub selectors: Vec<u32>,
    pub dispatch: Vec<u32>,
    pub handlers: Vec<u32>,
    /// The heap every instance starts from (word 0 is never an object: references are non-zero).
    pub initial_heap: Vec<u32>,
    /// The statics area every instance starts from (`ConstantValue` initial values).
    pub initial_statics: Vec<u32>,
    /// The initialisation state of every class and the mirrors made when instances start.
    pub initial_class_state: Vec<u8>,
    pub initial_mirrors: Vec<u32>,
    pub well_known: WellKnown,

    /// Host side: names of classes (internal names, array descriptors, primitive keywords).
    pub class_names: Vec<String>,
    /// Host side: the key of each method.
    pub method_keys: Vec<MethodKey>,
    /// Host side: per method, the method whose code first required it (`NONE` for entries and the
    /// VM's own needs), to explain what a package holds.
    pub required_by: Vec<u32>,
    /// Host side: refusal reasons, by index.
    pub reasons: Vec<String>,
    /// Host side: instance fields by class name: (name, descriptor) → word offset after the header.
    pub instance_fields: HashMap<String, HashMap<(String, String), u32>>,
    /// Host side: the string concatenations `isa::op::CONCAT` indexes.
    pub concats: Vec<ConcatRecipe>,
    /// Host side: string literals → their reference in the initial heap.
    pub literals: HashMap<Vec<u16>, u32>,
    /// Host side: the launcher procedure of each entry method.
    pub entries: HashMap<MethodKey, u32>,
    /// Host side: whether each class comes from the class path rather than the program.
    pub class_library: Vec<bool>,
    /// Host side: procedures that initialise one library class each, in discovery order.
    pub library_initializers: Vec<u32>,
    pub stats: PackageStats,
}

/// Why a package could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageError {
    pub message: String,
}

impl std::fmt::Display for PackageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PackageError {}

impl Package {
    /// A word of a class record.
    #[inline]
    pub fn class_word(&self, class: u32, field: usize) -> u32 {
        self.classes[class as usize * isa::CLASS_WORDS + field]
    }

    /// A word of a method record.
    #[inline]
    pub fn method_word(&self, method: u32, field: usize) -> u32 {
        self.methods[method as usize * isa::METHOD_WORDS + field]
    }

    /// A word of a procedure record.
    #[inline]
    pub fn proc_word(&self, proc: u32, field: usize) -> u32 {
        self.procs[proc as usize * isa::PROC_WORDS + field]
    }

    /// The handle of a class by name.
    pub fn class_handle(&self, name: &str) -> Option<u32> {
        self.class_names.iter().position(|n| n == name).map(|k| k as u32)
    }

    /// The launcher of an entry method.
    pub fn entry(&self, class: &str, name: &str, descriptor: &str) -> Option<u32> {
        self.entries
            .get(&(class.to_owned(), name.to_owned(), descriptor.to_owned()))
            .copied()
    }

    /// `Class.name(descriptor)` of a method, for messages.
    pub fn method_display(&self, method: u32) -> String {
        match self.method_keys.get(method as usize) {
            Some((class, name, descriptor)) => format!("{}.{name}{descriptor}", class.replace('/', ".")),
            None => format!("method #{method}"),
        }
    }

    /// Whether the class handle is `NONE` or flagged missing.
    pub fn is_missing(&self, class: u32) -> bool {
        class == NONE || self.class_word(class, isa::class::FLAGS) & isa::FLAG_MISSING != 0
    }
}
