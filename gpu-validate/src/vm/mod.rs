//! The interpreter of packaged code: one [`Machine`] runs one instance at a time over flat word
//! arrays (value stack, frame stack, heap, statics), and can be reused for the next instance.
//!
//! Per-instance state (TINYBEE in GVM's terms): a value stack of words holding each frame's inputs,
//! locals and operand stack; a frame stack of [`isa::FRAME_WORDS`]-word records; a heap of words
//! with a bump allocator and a fixed limit (Epsilon-GC style: nothing is freed, exceeding the limit
//! ends the instance as `OutOfMemory`); the statics area; one initialisation state per class; the
//! class mirrors made so far; counters and, optionally, the calling-context tree.
//!
//! **Semantics follow the JVM for everything the package supports; anything else ends the instance
//! as `Refused` with the reason, never as a wrong value. Class initialisation is lazy (JVMS 5.5):
//! the first `new`, static access or static call of a class runs the initialisers of its chain,
//! each in a frame below the triggering context, after which the triggering instruction runs
//! again; what they cost is counted apart from the method's costs (`Outcome::initialization`).**

mod capture;
pub(crate) mod convert;
mod cycle;
mod interp;
mod natives;
mod unsafe_fields;

use crate::isa::{self, class, frame, method, proc, NONE};
use crate::metrics::{ContextMethod, FlatTree, Metrics};
use crate::package::Package;
use crate::value::{Ending, Outcome, Value};

/// Resource limits of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// JVM bytecodes an instance may execute (class initialisation included) before it stops with
    /// `StepLimit`.
    pub max_bytecodes: u64,
    /// Heap words (4 bytes each); past this an allocation ends the instance as `OutOfMemory`.
    pub heap_words: u32,
    /// Value-stack words; past this a call ends the instance as `StackOverflow`.
    pub stack_words: u32,
    /// Frames; past this a call ends the instance as `StackOverflow`.
    pub max_frames: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytecodes: 200_000_000,
            heap_words: 1 << 24,
            stack_words: 1 << 20,
            max_frames: 1 << 16,
        }
    }
}

/// How instances run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunConfig {
    pub limits: Limits,
    /// Whether to build the calling-context tree (totals are always kept).
    pub cct: bool,
}

/// Class initialisation states.
const UNINITIALIZED: u8 = 0;
const IN_PROGRESS: u8 = 1;
const INITIALIZED: u8 = 2;
const ERRONEOUS: u8 = 3;

/// Words kept free above every frame's operand stack, for the arguments of an exception
/// constructor the VM calls.
const STACK_SLACK: usize = 4;

/// Why execution left the interpreter loop.
#[derive(Debug)]
pub(crate) enum Exit {
    Returned,
    Threw(u32),
    Refused(String),
    OutOfMemory,
    StackOverflow,
    StepLimit,
}

pub(crate) type Flow = Result<(), Exit>;

/// An interpreter with its per-instance state.
pub struct Machine<'p> {
    pub(crate) pkg: &'p Package,
    pub(crate) config: RunConfig,
    pub(crate) stack: Vec<u32>,
    pub(crate) frames: Vec<u32>,
    pub(crate) heap: Vec<u32>,
    pub(crate) statics: Vec<u32>,
    pub(crate) class_state: Vec<u8>,
    pub(crate) mirrors: Vec<u32>,
    pub(crate) interned: Vec<u32>,
    /// Counters outside (0) and inside (1) class initialisation.
    pub(crate) metrics: [Metrics; 2],
    pub(crate) init_depth: u32,
    /// The first initialiser that threw during the current run (see `Outcome`).
    pub(crate) failed_initializer: Option<String>,
    pub(crate) tree: FlatTree,
    // Registers of the running frame.
    pub(crate) pc: usize,
    pub(crate) sp: usize,
    pub(crate) base: usize,
    pub(crate) node: u32,
    scratch: Vec<u32>,
    /// The heap words every instance starts from, and the pages of them this instance changed.
    image_len: usize,
    page_dirty: Vec<bool>,
    dirty_pages: Vec<u32>,
    /// The objects and arrays built for the instance's inputs, in the order `Value::Ref` counts
    /// them (increasing addresses: the heap only grows).
    pub(crate) input_objects: Vec<u32>,
    /// The first word of each argument (the reference of a reference argument).
    input_roots: Vec<u32>,
    /// Whether field reads of input objects are recorded (see [`Machine::run_traced`]).
    pub(crate) tracing: bool,
    /// Field reads of input objects, as (input ordinal, word offset), each once, first read first.
    pub(crate) reads: Vec<(u32, u32)>,
    read_seen: std::collections::HashSet<(u32, u32)>,
    /// The image words the last `load_heap` changed.
    loaded_log: Vec<u32>,
    /// Cycle detection at procedure calls, when the run looks for a repeated state.
    pub(crate) watch: Option<Box<cycle::Watch>>,
}

/// A field of an input object that an instance read: the object's ordinal among the instance's
/// input objects and arrays (as `Value::Ref` counts them) and the field's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldRead {
    pub object: u32,
    pub field: String,
}

/// Heap pages (in words) that `reset` restores when an instance wrote to them.
const PAGE_SHIFT: usize = 8;

impl<'p> Machine<'p> {
    pub fn new(pkg: &'p Package, config: RunConfig) -> Machine<'p> {
        Machine {
            pkg,
            config,
            stack: vec![0; config.limits.stack_words as usize],
            frames: Vec::new(),
            heap: Vec::new(),
            statics: Vec::new(),
            class_state: Vec::new(),
            mirrors: Vec::new(),
            interned: Vec::new(),
            metrics: [Metrics::default(); 2],
            init_depth: 0,
            failed_initializer: None,
            tree: FlatTree::default(),
            pc: 0,
            sp: 0,
            base: 0,
            node: 0,
            scratch: Vec::new(),
            image_len: 0,
            page_dirty: Vec::new(),
            dirty_pages: Vec::new(),
            input_objects: Vec::new(),
            input_roots: Vec::new(),
            tracing: false,
            reads: Vec::new(),
            read_seen: std::collections::HashSet::new(),
            loaded_log: Vec::new(),
            watch: None,
        }
    }

    /// Runs one instance like [`Machine::run`] and also returns the fields of input objects the
    /// instance read, in the order of their first read (Korat's accessed fields). Reads of fields
    /// of objects the instance allocated itself are not recorded.
    pub fn run_traced(&mut self, launcher: u32, args: &[Value]) -> (Outcome, Vec<FieldRead>) {
        self.tracing = true;
        let outcome = self.run(launcher, args);
        self.tracing = false;
        let reads = std::mem::take(&mut self.reads);
        self.read_seen.clear();
        let named = reads
            .into_iter()
            .filter_map(|(object, offset)| {
                let address = *self.input_objects.get(object as usize)?;
                let class = self.class_name(self.heap[address as usize]);
                let fields = self.pkg.instance_fields.get(class)?;
                let field = fields
                    .iter()
                    .find(|(_, &at)| at == offset)
                    .map(|((name, _), _)| name.clone())?;
                Some(FieldRead { object, field })
            })
            .collect();
        (outcome, named)
    }

    /// Runs one instance like [`Machine::run`] and reads back, after it, the state of each
    /// argument: primitives as given, references as the object graph they lead to then (sharing
    /// and cycles as `Value::Ref`, numbered as a later instance's inputs would be). `Err` says why
    /// a state cannot be written as values (a class mirror in it, ambiguous field names, too many
    /// objects).
    pub fn run_capturing(&mut self, launcher: u32, args: &[Value]) -> (Outcome, Result<Vec<Value>, String>) {
        let outcome = self.run(launcher, args);
        if matches!(outcome.ending, Ending::Refused { .. }) && self.input_roots.len() != args.len() {
            return (outcome, Err("the instance's inputs could not be built".into()));
        }
        let state = self.capture_arguments(args);
        (outcome, state)
    }

    /// Records a read of field word `offset` of `object` when it is an input object.
    #[inline(never)]
    pub(crate) fn note_read(&mut self, object: u32, offset: u32) {
        if let Ok(ordinal) = self.input_objects.binary_search(&object) {
            let key = (ordinal as u32, offset);
            if self.read_seen.insert(key) {
                self.reads.push(key);
            }
        }
    }

    /// Records a write to heap word `at`, so that the next instance gets the image's word back.
    #[inline]
    pub(crate) fn mark(&mut self, at: usize) {
        if at < self.image_len {
            let page = at >> PAGE_SHIFT;
            if !self.page_dirty[page] {
                self.page_dirty[page] = true;
                self.dirty_pages.push(page as u32);
            }
        }
    }

    /// Records writes to heap words `from..to`.
    pub(crate) fn mark_range(&mut self, from: usize, to: usize) {
        let mut at = from;
        while at < to.min(self.image_len) {
            self.mark(at);
            at = (at >> PAGE_SHIFT << PAGE_SHIFT) + (1 << PAGE_SHIFT);
        }
    }

    /// Runs the library initialisers, keeping what each one that succeeds leaves behind (see
    /// `Package::preinitialize`).
    pub(crate) fn preinitialize(&mut self, initializers: &[u32], library: &[bool]) {
        self.reset();
        for &launcher in initializers {
            let saved = (
                self.heap.clone(),
                self.statics.clone(),
                self.class_state.clone(),
                self.mirrors.clone(),
            );
            self.frames.clear();
            self.frames.extend([launcher, NONE, 0, 0, isa::FRAME_LAUNCHER, 0]);
            self.base = 0;
            self.node = 0;
            self.init_depth = 0;
            self.sp = 0;
            self.pc = self.pkg.proc_word(launcher, proc::CODE) as usize;
            let ending = self.execute();
            let touched_program = self
                .class_state
                .iter()
                .zip(&saved.2)
                .enumerate()
                .any(|(class, (now, before))| now != before && !library[class]);
            if !matches!(ending, Exit::Returned) || touched_program {
                (self.heap, self.statics, self.class_state, self.mirrors) = saved;
            }
        }
    }

    /// The state the machine holds, as the images instances start from.
    pub(crate) fn into_image(self) -> (Vec<u32>, Vec<u32>, Vec<u8>, Vec<u32>) {
        (self.heap, self.statics, self.class_state, self.mirrors)
    }

    /// Runs one instance of the entry whose launcher procedure is `launcher` (see
    /// `Package::entry`) on `args` (the receiver first for an instance method).
    pub fn run(&mut self, launcher: u32, args: &[Value]) -> Outcome {
        self.reset();
        let ending = match self.start(launcher, args) {
            Err(reason) => Ending::Refused { reason },
            Ok(()) => match self.execute() {
                Exit::Returned => Ending::Returned {
                    value: self.render_result(launcher),
                },
                Exit::Threw(exception) => Ending::Threw {
                    class: self.class_name(self.heap[exception as usize]).to_owned(),
                },
                Exit::Refused(reason) => Ending::Refused { reason },
                Exit::OutOfMemory => Ending::OutOfMemory,
                Exit::StackOverflow => Ending::StackOverflow,
                Exit::StepLimit => Ending::StepLimit,
            },
        };
        let cct = self.config.cct.then(|| {
            self.tree.export(|m| {
                let (class, name, descriptor) = self.pkg.method_keys[m as usize].clone();
                ContextMethod {
                    class,
                    name,
                    descriptor,
                }
            })
        });
        Outcome {
            ending,
            metrics: self.metrics[0],
            initialization: self.metrics[1],
            cct,
            failed_initializer: self.failed_initializer.take(),
        }
    }

    fn reset(&mut self) {
        self.reset_heap();
        self.statics.clear();
        self.statics.extend_from_slice(&self.pkg.initial_statics);
        let classes = self.pkg.class_names.len();
        self.class_state.clear();
        self.class_state.extend_from_slice(&self.pkg.initial_class_state);
        self.class_state.resize(classes, UNINITIALIZED);
        self.mirrors.clear();
        self.mirrors.extend_from_slice(&self.pkg.initial_mirrors);
        self.mirrors.resize(classes, 0);
        self.interned.clear();
        self.input_objects.clear();
        self.input_roots.clear();
        self.reads.clear();
        self.read_seen.clear();
        self.metrics = [Metrics::default(); 2];
        self.init_depth = 0;
        self.failed_initializer = None;
        self.frames.clear();
        if self.config.cct {
            self.tree.reset();
        }
        self.node = 0;
    }

    /// The field types of the entry's arguments (the receiver first for an instance method).
    pub(crate) fn argument_types(pkg: &Package, launcher: u32) -> Result<Vec<String>, String> {
        let method_id = pkg.proc_word(launcher, proc::METHOD);
        let Some((class, _, descriptor)) = pkg.method_keys.get(method_id as usize) else {
            return Err("no such entry".into());
        };
        let is_static = pkg.method_word(method_id, method::FLAGS) & isa::MFLAG_STATIC != 0;
        let mut types: Vec<String> = Vec::new();
        if !is_static {
            types.push(format!("L{class};"));
        }
        let (params, _) = crate::package::closure::split_descriptor(descriptor).ok_or("malformed descriptor")?;
        types.extend(params);
        Ok(types)
    }

    /// Builds the inputs and the launcher's frame.
    fn start(&mut self, launcher: u32, args: &[Value]) -> Result<(), String> {
        let types = Machine::argument_types(self.pkg, launcher)?;
        if types.len() != args.len() {
            let (class, name, descriptor) = &self.pkg.method_keys[self.pkg.proc_word(launcher, proc::METHOD) as usize];
            return Err(format!(
                "{}.{name}{descriptor} takes {} arguments, the instance has {}",
                class.replace('/', "."),
                types.len(),
                args.len()
            ));
        }
        let mut words = Vec::new();
        for (k, (value, ty)) in args.iter().zip(&types).enumerate() {
            let converted = self.input(value, ty).map_err(|e| format!("argument {k}: {e}"))?;
            self.input_roots.push(converted.first().copied().unwrap_or(0));
            words.extend(converted);
        }
        let input_words = self.pkg.proc_word(launcher, proc::INPUT_WORDS) as usize;
        if words.len() != input_words || input_words + 64 > self.stack.len() {
            return Err("the arguments do not fit the entry".into());
        }
        self.stack[..words.len()].copy_from_slice(&words);
        self.frames.extend([launcher, NONE, 0, 0, isa::FRAME_LAUNCHER, 0]);
        self.base = 0;
        self.sp = self.pkg.proc_word(launcher, proc::FRAME_WORDS) as usize;
        self.pc = self.pkg.proc_word(launcher, proc::CODE) as usize;
        Ok(())
    }

    /// Restores the heap to the image: only the pages the last instance wrote to are copied.
    fn reset_heap(&mut self) {
        let image = &self.pkg.initial_heap;
        if self.image_len != image.len() || self.heap.len() < image.len() {
            self.heap.clear();
            self.heap.extend_from_slice(image);
            self.image_len = image.len();
            self.page_dirty = vec![false; (image.len() >> PAGE_SHIFT) + 1];
            self.dirty_pages.clear();
        } else {
            // Only the pages the last instance wrote to differ from the image.
            self.heap.truncate(image.len());
            for page in self.dirty_pages.drain(..) {
                let from = (page as usize) << PAGE_SHIFT;
                let to = (from + (1 << PAGE_SHIFT)).min(image.len());
                self.heap[from..to].copy_from_slice(&image[from..to]);
                self.page_dirty[page as usize] = false;
            }
        }
    }

    /// The inputs of an instance as the interpreter kernel takes them: the launcher's argument
    /// words and the heap words the input objects take after the image. `Err` where the inputs
    /// cannot be built (the CPU run gives the reason) or building them wrote to the image.
    pub(crate) fn prepare_inputs(&mut self, launcher: u32, args: &[Value]) -> Result<(Vec<u32>, Vec<u32>), String> {
        // Building inputs reads and writes only the heap (objects, arrays, strings), so only the
        // heap is reset.
        self.reset_heap();
        self.input_objects.clear();
        self.input_roots.clear();
        self.frames.clear();
        self.start(launcher, args)?;
        if !self.dirty_pages.is_empty() {
            return Err("building the inputs wrote to the image".into());
        }
        let input_words = self.pkg.proc_word(launcher, proc::INPUT_WORDS) as usize;
        Ok((self.stack[..input_words].to_vec(), self.heap[self.image_len..].to_vec()))
    }

    /// A machine that only renders values (no stack).
    pub(crate) fn new_for_rendering(pkg: &'p Package) -> Machine<'p> {
        let config = RunConfig {
            limits: Limits {
                stack_words: 0,
                ..Limits::default()
            },
            cct: false,
        };
        Machine::new(pkg, config)
    }

    /// Makes the heap the image with `log`'s words written, then `allocated` after it (the state
    /// an instance of the interpreter kernel left).
    /// The image is copied once per machine; later loads restore only the words the last one
    /// changed.
    pub(crate) fn load_heap(&mut self, allocated: &[u32], log: &[(u32, u32)]) {
        let image = &self.pkg.initial_heap;
        if self.image_len != image.len() || self.heap.len() < image.len() {
            self.heap.clear();
            self.heap.extend_from_slice(image);
            self.image_len = image.len();
        } else {
            self.heap.truncate(image.len());
            for &at in &self.loaded_log {
                self.heap[at as usize] = image[at as usize];
            }
        }
        self.loaded_log.clear();
        for &(at, value) in log {
            if let Some(word) = self.heap.get_mut(at as usize) {
                *word = value;
                self.loaded_log.push(at);
            }
        }
        self.heap.extend_from_slice(allocated);
    }

    /// The value the launcher returned.
    fn render_result(&self, launcher: u32) -> crate::value::Rendered {
        let method_id = self.pkg.proc_word(launcher, proc::METHOD);
        let descriptor = &self.pkg.method_keys[method_id as usize].2;
        let ret = descriptor.split(')').nth(1).unwrap_or("V");
        self.render(&self.stack[self.base..], ret)
    }

    pub(crate) fn class_name(&self, class: u32) -> &str {
        self.pkg.class_names.get(class as usize).map_or("?", String::as_str)
    }

    // ---- counters ------------------------------------------------------------------------------

    #[inline]
    fn bucket(&self) -> usize {
        usize::from(self.init_depth > 0)
    }

    /// Adds executed bytecodes; stops the instance past its budget.
    #[inline]
    pub(crate) fn add_bytecodes(&mut self, count: u32) -> Flow {
        let bucket = self.bucket();
        self.metrics[bucket].bytecodes += u64::from(count);
        if self.config.cct {
            self.tree.counters[self.node as usize].bytecodes += u64::from(count);
        }
        if self.metrics[0].bytecodes + self.metrics[1].bytecodes > self.config.limits.max_bytecodes {
            return Err(Exit::StepLimit);
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn add_invocation(&mut self) {
        let bucket = self.bucket();
        self.metrics[bucket].invocations += 1;
        if self.config.cct {
            self.tree.counters[self.node as usize].invocations += 1;
        }
    }

    #[inline]
    pub(crate) fn add_allocations(&mut self, count: u64) {
        let bucket = self.bucket();
        self.metrics[bucket].allocations += count;
        if self.config.cct {
            self.tree.counters[self.node as usize].allocations += count;
        }
    }

    pub(crate) fn add_consume(&mut self, units: u64) {
        let bucket = self.bucket();
        self.metrics[bucket].consume += units;
        if self.config.cct {
            self.tree.counters[self.node as usize].consume += units;
        }
    }

    // ---- heap ----------------------------------------------------------------------------------

    /// Allocates `words` zeroed heap words.
    pub(crate) fn alloc(&mut self, words: u64) -> Result<u32, Exit> {
        let at = self.heap.len() as u64;
        if at + words > u64::from(self.config.limits.heap_words) {
            return Err(Exit::OutOfMemory);
        }
        self.heap.resize((at + words) as usize, 0);
        Ok(at as u32)
    }

    /// A new object of `class` (not counted as an allocation).
    pub(crate) fn new_object(&mut self, class: u32) -> Result<u32, Exit> {
        let words = self.pkg.class_word(class, class::INSTANCE_WORDS);
        let object = self.alloc(u64::from(isa::OBJECT_HEADER_WORDS + words))?;
        self.heap[object as usize] = class;
        Ok(object)
    }

    /// A new array of `class` with `length` zeroed elements (not counted as an allocation).
    pub(crate) fn new_array(&mut self, class: u32, length: u32) -> Result<u32, Exit> {
        let element = isa::element_words(self.pkg.class_word(class, class::ELEMENT));
        let words = u64::from(isa::ARRAY_HEADER_WORDS) + u64::from(length) * u64::from(element);
        let array = self.alloc(words)?;
        self.heap[array as usize] = class;
        self.heap[array as usize + 1] = length;
        Ok(array)
    }

    /// A new `String` with these UTF-16 units (the VM's own, not counted).
    pub(crate) fn new_string(&mut self, units: &[u16]) -> Result<u32, Exit> {
        let wk = &self.pkg.well_known;
        if wk.string == NONE || wk.byte_array == NONE {
            return Err(Exit::Refused("strings need java.lang.String on the class path".into()));
        }
        let latin1 = units.iter().all(|&u| u <= 0xFF);
        let bytes: Vec<u8> = if latin1 {
            units.iter().map(|&u| u as u8).collect()
        } else {
            units.iter().flat_map(|&u| [(u & 0xFF) as u8, (u >> 8) as u8]).collect()
        };
        let (byte_array, string_class, value, coder) = (wk.byte_array, wk.string, wk.string_value, wk.string_coder);
        let array = self.new_array(byte_array, bytes.len() as u32)?;
        for (k, &b) in bytes.iter().enumerate() {
            self.heap[array as usize + 2 + k] = b as i8 as i32 as u32;
        }
        let string = self.new_object(string_class)?;
        self.heap[string as usize + 1 + value as usize] = array;
        self.heap[string as usize + 1 + coder as usize] = u32::from(!latin1);
        Ok(string)
    }

    /// The UTF-16 units of a `String`.
    pub(crate) fn string_units(&self, string: u32) -> Vec<u16> {
        let wk = &self.pkg.well_known;
        let array = self.heap[string as usize + 1 + wk.string_value as usize] as usize;
        let coder = self.heap[string as usize + 1 + wk.string_coder as usize];
        if array == 0 {
            return Vec::new();
        }
        let length = self.heap[array + 1] as usize;
        let bytes = &self.heap[array + 2..array + 2 + length];
        if coder == 0 {
            bytes.iter().map(|&b| (b as u8) as u16).collect()
        } else {
            bytes
                .chunks(2)
                .map(|pair| (pair[0] as u8) as u16 | ((pair.get(1).copied().unwrap_or(0) as u8) as u16) << 8)
                .collect()
        }
    }

    /// The `java.lang.Class` mirror of a class, made on first use (not counted).
    pub(crate) fn mirror(&mut self, class: u32) -> Result<u32, Exit> {
        let existing = self.mirrors[class as usize];
        if existing != 0 {
            return Ok(existing);
        }
        let wk = &self.pkg.well_known;
        if wk.class == NONE {
            return Err(Exit::Refused(
                "class mirrors need java.lang.Class on the class path".into(),
            ));
        }
        let (class_class, handle_word, component_field) = (wk.class, wk.mirror_handle, wk.class_component_type);
        let words = self.pkg.class_word(class_class, class::INSTANCE_WORDS) + 1;
        let mirror = self.alloc(u64::from(isa::OBJECT_HEADER_WORDS + words))?;
        self.heap[mirror as usize] = class_class;
        self.heap[mirror as usize + 1 + handle_word as usize] = class;
        self.mirrors[class as usize] = mirror;
        let flags = self.pkg.class_word(class, class::FLAGS);
        if flags & isa::FLAG_ARRAY != 0 && component_field != NONE {
            let component = self.pkg.class_word(class, class::COMPONENT);
            if component != NONE {
                let component_mirror = self.mirror(component)?;
                self.heap[mirror as usize + 1 + component_field as usize] = component_mirror;
            }
        }
        Ok(mirror)
    }

    /// The class a mirror stands for.
    pub(crate) fn mirror_class(&self, mirror: u32) -> u32 {
        self.heap[mirror as usize + 1 + self.pkg.well_known.mirror_handle as usize]
    }

    // ---- types ---------------------------------------------------------------------------------

    /// Whether a value of class `from` can be assigned to type `to` (JVMS `checkcast` rules).
    pub(crate) fn assignable(&self, from: u32, to: u32) -> bool {
        if from == to {
            return true;
        }
        let pkg = self.pkg;
        let from_flags = pkg.class_word(from, class::FLAGS);
        if from_flags & isa::FLAG_ARRAY != 0 {
            let to_flags = pkg.class_word(to, class::FLAGS);
            if to_flags & isa::FLAG_ARRAY != 0 {
                let both_refs = pkg.class_word(from, class::ELEMENT) == isa::ELEM_REF
                    && pkg.class_word(to, class::ELEMENT) == isa::ELEM_REF;
                return both_refs
                    && self.assignable(
                        pkg.class_word(from, class::COMPONENT),
                        pkg.class_word(to, class::COMPONENT),
                    );
            }
            let wk = &pkg.well_known;
            return to == wk.object || to == wk.cloneable || to == wk.serializable;
        }
        let start = pkg.class_word(from, class::SUPERS_START) as usize;
        let count = pkg.class_word(from, class::SUPERS_COUNT) as usize;
        pkg.supertypes[start..start + count].contains(&to)
    }

    /// Whether a non-null reference is an instance of `class`.
    #[inline]
    pub(crate) fn is_instance(&self, object: u32, class: u32) -> bool {
        self.assignable(self.heap[object as usize], class)
    }

    // ---- frames --------------------------------------------------------------------------------

    /// Checks that `proc` running at `base` fits the value stack and, for a new frame, that one
    /// more frame fits the frame stack.
    #[inline]
    fn check_frame(&self, base: usize, proc: u32, new_frame: bool) -> Flow {
        let need = base
            + self.pkg.proc_word(proc, proc::FRAME_WORDS) as usize
            + self.pkg.proc_word(proc, proc::MAX_STACK) as usize
            + STACK_SLACK;
        let frames = self.frames.len() / isa::FRAME_WORDS;
        if need > self.stack.len() || (new_frame && frames >= self.config.limits.max_frames as usize) {
            return Err(Exit::StackOverflow);
        }
        Ok(())
    }

    /// Pushes a frame for `proc` whose inputs are the top `arg_words` of the stack, and jumps to
    /// its code.
    pub(crate) fn push_frame(
        &mut self,
        proc: u32,
        arg_words: usize,
        call_pc: usize,
        kind: u32,
        node: u32,
        extra: u32,
    ) -> Flow {
        let base = self.sp - arg_words;
        self.check_frame(base, proc, true)?;
        self.frames
            .extend([proc, call_pc as u32, base as u32, node, kind, extra]);
        self.base = base;
        self.node = node;
        self.sp = base + self.pkg.proc_word(proc, proc::FRAME_WORDS) as usize;
        self.pc = self.pkg.proc_word(proc, proc::CODE) as usize;
        Ok(())
    }

    /// A word of the top frame record.
    #[inline]
    pub(crate) fn top(&self, field: usize) -> u32 {
        self.frames[self.frames.len() - isa::FRAME_WORDS + field]
    }

    #[inline]
    fn set_top(&mut self, field: usize, value: u32) {
        let at = self.frames.len() - isa::FRAME_WORDS + field;
        self.frames[at] = value;
    }

    /// Pops the top frame and restores the registers of the one below (not `pc` or `sp`).
    fn pop_frame(&mut self) {
        self.frames.truncate(self.frames.len() - isa::FRAME_WORDS);
        if !self.frames.is_empty() {
            self.base = self.top(frame::BASE) as usize;
            self.node = self.top(frame::NODE);
        }
    }

    /// Replaces the running procedure of the top frame with `proc`, whose inputs are `inputs`.
    fn replace_frame(&mut self, proc: u32, inputs: &[u32]) -> Flow {
        self.check_frame(self.base, proc, false)?;
        self.stack[self.base..self.base + inputs.len()].copy_from_slice(inputs);
        self.enter_in_frame(proc)
    }

    /// Runs `proc` in the top frame, whose inputs are already at its base (a tail call or the
    /// entry of a handler).
    pub(crate) fn enter_in_frame(&mut self, proc: u32) -> Flow {
        self.check_frame(self.base, proc, false)?;
        self.set_top(frame::PROC, proc);
        self.sp = self.base + self.pkg.proc_word(proc, proc::FRAME_WORDS) as usize;
        self.pc = self.pkg.proc_word(proc, proc::CODE) as usize;
        Ok(())
    }

    /// Enters method `m` whose arguments are the top of the stack: bytecode in a new frame, a
    /// native in place. `call_pc` is the instruction that called it, `site` the call site for the
    /// tree. Returns whether the caller must advance past its instruction itself (a native that
    /// returned normally).
    pub(crate) fn enter_method(
        &mut self,
        m: u32,
        site: u32,
        call_pc: usize,
        kind: u32,
        extra: u32,
    ) -> Result<bool, Exit> {
        let pkg = self.pkg;
        let arg_words = pkg.method_word(m, method::ARG_WORDS) as usize;
        match pkg.method_word(m, method::KIND) {
            isa::KIND_CODE => {
                let entry = pkg.method_word(m, method::TARGET);
                let node = if self.config.cct {
                    self.tree
                        .enter(self.node, m, site, self.init_depth > 0 || kind == isa::FRAME_CLINIT)
                } else {
                    0
                };
                if kind == isa::FRAME_CLINIT {
                    self.init_depth += 1;
                }
                self.push_frame(entry, arg_words, call_pc, kind, node, extra)?;
                Ok(false)
            }
            isa::KIND_NATIVE => {
                let bytecodes = pkg.method_word(m, method::NATIVE_BYTECODES);
                if bytecodes > 0 {
                    self.add_bytecodes(bytecodes)?;
                }
                let native = crate::natives::Native::from_id(pkg.method_word(m, method::TARGET))
                    .ok_or_else(|| Exit::Refused(format!("{}: unknown native", pkg.method_display(m))))?;
                self.native(native, m, call_pc)
            }
            _ => Err(Exit::Refused(
                pkg.reasons
                    .get(pkg.method_word(m, method::TARGET) as usize)
                    .cloned()
                    .unwrap_or_else(|| pkg.method_display(m)),
            )),
        }
    }

    /// Returns from the top frame with the top `words` as its outputs.
    pub(crate) fn return_from_frame(&mut self, words: usize) -> Flow {
        let base = self.base;
        self.stack.copy_within(self.sp - words..self.sp, base);
        let kind = self.top(frame::KIND);
        let call_pc = self.top(frame::CALL_PC) as usize;
        let extra = self.top(frame::EXTRA);
        if kind == isa::FRAME_LAUNCHER {
            return Err(Exit::Returned);
        }
        self.pop_frame();
        self.sp = base + words;
        match kind {
            isa::FRAME_CLINIT => {
                self.class_state[extra as usize] = INITIALIZED;
                self.init_depth -= 1;
                self.pc = call_pc;
            }
            isa::FRAME_EXCEPTION => return self.raise(extra, call_pc),
            _ => self.pc = call_pc + isa::length(self.pkg.code[call_pc]),
        }
        Ok(())
    }

    // ---- exceptions ----------------------------------------------------------------------------

    /// Throws `exception` at the instruction `at` of the top frame: charges the instruction's
    /// bytecodes, enters its handler or leaves the frame, and so on down the frames.
    pub(crate) fn raise(&mut self, exception: u32, mut at: usize) -> Flow {
        loop {
            let code = &self.pkg.code;
            let length = isa::length(code[at]);
            let (bytecodes, handler) = (code[at + length - 2], code[at + length - 1]);
            self.add_bytecodes(bytecodes)?;
            if handler != NONE {
                return self.enter_handler(handler, exception);
            }
            let kind = self.top(frame::KIND);
            if kind == isa::FRAME_LAUNCHER {
                return Err(Exit::Threw(exception));
            }
            let call_pc = self.top(frame::CALL_PC) as usize;
            let extra = self.top(frame::EXTRA);
            self.pop_frame();
            at = call_pc;
            if kind == isa::FRAME_CLINIT {
                self.class_state[extra as usize] = ERRONEOUS;
                self.init_depth -= 1;
                if self.failed_initializer.is_none() {
                    self.failed_initializer = Some(format!(
                        "the initialiser of {} threw {}",
                        self.class_name(extra).replace('/', "."),
                        self.class_name(self.heap[exception as usize]).replace('/', ".")
                    ));
                }
                let error = self.pkg.well_known.error;
                if error == NONE || !self.is_instance(exception, error) {
                    self.sp = self.top_operand_end();
                    return self.throw_vm(self.pkg.well_known.initializer_error, Cause::Exception(exception), at);
                }
            }
        }
    }

    /// A safe stack position above the top frame's live words after an exception left a frame
    /// above it: the start of the frame that was popped is always past them.
    fn top_operand_end(&self) -> usize {
        self.sp
            .max(self.base + self.pkg.proc_word(self.top(frame::PROC), proc::FRAME_WORDS) as usize)
    }

    /// Enters handler `handler` of the top frame with `exception`.
    fn enter_handler(&mut self, handler: u32, exception: u32) -> Flow {
        let at = handler as usize;
        let pkg = self.pkg;
        let target = pkg.handlers[at];
        let count = pkg.handlers[at + 1] as usize;
        let mut values = std::mem::take(&mut self.scratch);
        values.clear();
        values.push(exception);
        for k in 0..count {
            let entry = at + 2 + 3 * k;
            let (kind, a, b) = (pkg.handlers[entry], pkg.handlers[entry + 1], pkg.handlers[entry + 2]);
            match kind {
                isa::HARG_FRAME1 => values.push(self.stack[self.base + a as usize]),
                isa::HARG_FRAME2 => {
                    values.push(self.stack[self.base + a as usize]);
                    values.push(self.stack[self.base + a as usize + 1]);
                }
                isa::HARG_CONST1 => values.push(a),
                isa::HARG_CONST2 => {
                    values.push(a);
                    values.push(b);
                }
                _ => {
                    let mirror = self.mirror(a);
                    match mirror {
                        Ok(mirror) => values.push(mirror),
                        Err(exit) => {
                            self.scratch = values;
                            return Err(exit);
                        }
                    }
                }
            }
        }
        let result = self.replace_frame(target, &values);
        self.scratch = values;
        result
    }

    /// Raises a new exception of `class` as the JVM does: allocates it, runs its constructor in a
    /// frame of its own (entered without a call site), then throws it at instruction `at`.
    pub(crate) fn throw_vm(&mut self, class: u32, cause: Cause, at: usize) -> Flow {
        let pkg = self.pkg;
        if pkg.is_missing(class) {
            return Err(Exit::Refused(
                "an exception class the VM raises is not on the class path".into(),
            ));
        }
        let constructor = match cause {
            Cause::None => pkg.class_word(class, class::CTOR_VOID),
            Cause::Message(_) => pkg.class_word(class, class::CTOR_STRING),
            Cause::Exception(_) => pkg.class_word(class, class::CTOR_THROWABLE),
        };
        if constructor == NONE {
            return Err(Exit::Refused(format!(
                "cannot construct {} (no suitable constructor was packaged)",
                self.class_name(class).replace('/', ".")
            )));
        }
        let argument = match &cause {
            Cause::None => None,
            Cause::Message(text) => {
                let units: Vec<u16> = text.encode_utf16().collect();
                Some(self.new_string(&units)?)
            }
            Cause::Exception(exception) => Some(*exception),
        };
        let exception = self.new_object(class)?;
        self.add_allocations(1);
        self.stack[self.sp] = exception;
        self.sp += 1;
        if let Some(argument) = argument {
            self.stack[self.sp] = argument;
            self.sp += 1;
        }
        // As JP2 sees it: a constructor the JVM runs when an invoke fails (a null receiver, a
        // native that throws) is entered at that invoke's call site, any other without one.
        let code = &pkg.code;
        let site = match code[at] {
            isa::op::INVOKESTATIC | isa::op::INVOKESPECIAL => code[at + 2],
            isa::op::INVOKEVIRTUAL => code[at + 3],
            _ => NONE,
        };
        let advance = self.enter_method(constructor, site, at, isa::FRAME_EXCEPTION, exception)?;
        if advance {
            // A native constructor: throw at once.
            self.sp -= pkg.method_word(constructor, method::ARG_WORDS) as usize;
            return self.raise(exception, at);
        }
        Ok(())
    }

    /// Throws a `NullPointerException` at `at`.
    pub(crate) fn throw_null(&mut self, at: usize) -> Flow {
        self.throw_vm(self.pkg.well_known.null_pointer, Cause::None, at)
    }

    // ---- class initialisation ------------------------------------------------------------------

    /// Makes sure `class` is initialised before instruction `at` runs. Returns `true` when it is
    /// (the instruction may proceed), `false` when an initialiser frame was entered or an error
    /// thrown (the instruction runs again, or not at all, later).
    pub(crate) fn ensure_initialized(&mut self, class: u32, at: usize) -> Result<bool, Exit> {
        if self.class_state[class as usize] == INITIALIZED {
            return Ok(true);
        }
        let pkg = self.pkg;
        let start = pkg.class_word(class, class::INIT_START) as usize;
        let count = pkg.class_word(class, class::INIT_COUNT) as usize;
        let mut pending = false;
        for &next in &pkg.init_lists[start..start + count] {
            match self.class_state[next as usize] {
                INITIALIZED => {}
                IN_PROGRESS => pending = true,
                ERRONEOUS => {
                    let message = format!("Could not initialize class {}", self.class_name(next).replace('/', "."));
                    self.throw_vm(pkg.well_known.no_class_def, Cause::Message(message), at)?;
                    return Ok(false);
                }
                _ => {
                    let clinit = pkg.class_word(next, class::CLINIT);
                    if clinit == NONE {
                        self.class_state[next as usize] = INITIALIZED;
                        continue;
                    }
                    self.class_state[next as usize] = IN_PROGRESS;
                    self.enter_method(clinit, NONE, at, isa::FRAME_CLINIT, next)?;
                    return Ok(false);
                }
            }
        }
        if !pending {
            self.class_state[class as usize] = INITIALIZED;
        }
        Ok(true)
    }
}

/// The argument of the constructor of an exception the VM raises.
pub(crate) enum Cause {
    None,
    Message(String),
    Exception(u32),
}
