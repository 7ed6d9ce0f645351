//! The interface of the interpreter kernel (`kernel/abi.h`, which a test checks against these
//! values): the program image, the configuration words, the layout of per-instance state, the
//! inputs and the result records.

use crate::isa::NONE;
use crate::package::Package;
use crate::vm::RunConfig;

pub const PD_WORDS: usize = 17;
pub const WK_WORDS: usize = 22;

pub const CF_COUNT: usize = 0;
pub const CF_LAUNCHER: usize = 1;
pub const CF_MAX_BYTECODES_LOW: usize = 2;
pub const CF_MAX_BYTECODES_HIGH: usize = 3;
pub const CF_HEAP_LIMIT: usize = 4;
pub const CF_STACK_LIMIT: usize = 5;
pub const CF_MAX_FRAMES: usize = 6;
pub const CF_CCT: usize = 7;
pub const CF_HEAP_CAP: usize = 8;
pub const CF_STACK_CAP: usize = 9;
pub const CF_FRAME_CAP: usize = 10;
pub const CF_LOG_CAP: usize = 11;
pub const CF_NODE_CAP: usize = 12;
pub const CF_STATICS_LEN: usize = 13;
pub const CF_CLASS_COUNT: usize = 14;
pub const CF_IMAGE_LEN: usize = 15;
/// Threads per instance ([`Mapping::spread`]).
pub const CF_SPREAD: usize = 16;
/// 1 when the inputs are an [`InputGrid`]'s words.
pub const CF_DECODE: usize = 17;
pub const CF_WORDS: usize = 18;

pub const NODE_WORDS: usize = 16;

pub const RES_STATUS: usize = 0;
pub const RES_VALUE: usize = 1;
pub const RES_VALUE_HIGH: usize = 2;
pub const RES_METRICS: usize = 3;
pub const RES_HEAP_TOP: usize = 19;
pub const RES_LOG_COUNT: usize = 20;
pub const RES_NODES: usize = 21;
pub const RES_FAILED_CLASS: usize = 22;
pub const RES_FAILED_EXCEPTION: usize = 23;
pub const RES_DEFER: usize = 24;
pub const RES_DEFER_DETAIL: usize = 25;
pub const RES_WORDS: usize = 26;

pub const ST_RETURNED: u32 = 0;
pub const ST_THREW: u32 = 1;
pub const ST_OUT_OF_MEMORY: u32 = 2;
pub const ST_STACK_OVERFLOW: u32 = 3;
pub const ST_STEP_LIMIT: u32 = 4;
pub const ST_DEFERRED: u32 = 5;

/// `DEFER_NATIVE`: the detail word is the native's id.
pub const DEFER_NATIVE: u32 = 2;

/// Why the kernel deferred an instance to the CPU backend (`DEFER_*` in `abi.h`), by code.
pub const DEFER_REASONS: [(u32, &str); 8] = [
    (1, "a refusal"),
    (2, "a native the kernel does not implement"),
    (3, "the kernel's heap capacity"),
    (4, "the kernel's stack capacity"),
    (5, "the kernel's log of image writes"),
    (6, "the kernel's context-tree capacity"),
    (7, "inputs past the kernel's capacities"),
    (8, "a handler with many arguments"),
];

/// The kernel's per-instance capacities. An instance that needs more is deferred to the CPU
/// backend, so capacities change speed and memory, never results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacities {
    pub heap_words: u32,
    pub stack_words: u32,
    pub frames: u32,
    /// Image words an instance may write (a power of two; the log is a hash table kept at most
    /// three-quarters full).
    pub log_words: u32,
    pub nodes: u32,
}

impl Default for Capacities {
    fn default() -> Self {
        Capacities {
            heap_words: 1 << 16,
            stack_words: 1 << 14,
            frames: 1 << 10,
            log_words: 1 << 8,
            nodes: 1 << 10,
        }
    }
}

/// The package as the kernel reads it: a directory of offsets, then the arrays.
pub fn program_image(pkg: &Package) -> Vec<u32> {
    let wk = &pkg.well_known;
    let well_known = [
        wk.object,
        wk.string,
        wk.class,
        wk.byte_array,
        wk.cloneable,
        wk.serializable,
        wk.error,
        wk.null_pointer,
        wk.array_index,
        wk.arithmetic,
        wk.negative_array_size,
        wk.class_cast,
        wk.array_store,
        wk.initializer_error,
        wk.no_class_def,
        wk.clone_not_supported,
        wk.illegal_argument,
        wk.string_value,
        wk.string_coder,
        wk.class_component_type,
        wk.class_name,
        wk.mirror_handle,
    ];
    let classes = pkg.class_names.len();
    let mut states: Vec<u32> = pkg.initial_class_state.iter().map(|&s| u32::from(s)).collect();
    states.resize(classes, 0);
    let mut mirrors = pkg.initial_mirrors.clone();
    mirrors.resize(classes, 0);
    let mut name_units = Vec::new();
    let mut name_offsets = vec![0u32];
    for name in &pkg.class_names {
        name_units.extend(name.encode_utf16().map(u32::from));
        name_offsets.push(name_units.len() as u32);
    }
    // The literals by address, so that the order does not depend on the map's.
    let mut literals: Vec<u32> = pkg.literals.values().copied().collect();
    literals.sort_unstable();
    literals.insert(0, literals.len() as u32);
    let arrays: [&[u32]; PD_WORDS] = [
        &pkg.code,
        &pkg.classes,
        &pkg.supertypes,
        &pkg.init_lists,
        &pkg.methods,
        &pkg.procs,
        &pkg.selectors,
        &pkg.dispatch,
        &pkg.handlers,
        &pkg.initial_heap,
        &pkg.initial_statics,
        &states,
        &mirrors,
        &well_known,
        &name_units,
        &name_offsets,
        &literals,
    ];
    let mut image = vec![0u32; PD_WORDS];
    for (k, array) in arrays.iter().enumerate() {
        image[k] = image.len() as u32;
        image.extend_from_slice(array);
    }
    image
}

/// The configuration words of a launch of `count` instances of `launcher`.
pub fn config_words(pkg: &Package, run: RunConfig, caps: Capacities, launcher: u32, count: usize) -> Vec<u32> {
    let mut cfg = vec![0u32; CF_WORDS];
    let limits = run.limits;
    cfg[CF_COUNT] = count as u32;
    cfg[CF_LAUNCHER] = launcher;
    cfg[CF_MAX_BYTECODES_LOW] = limits.max_bytecodes as u32;
    cfg[CF_MAX_BYTECODES_HIGH] = (limits.max_bytecodes >> 32) as u32;
    cfg[CF_HEAP_LIMIT] = limits.heap_words;
    cfg[CF_STACK_LIMIT] = limits.stack_words;
    cfg[CF_MAX_FRAMES] = limits.max_frames;
    cfg[CF_CCT] = u32::from(run.cct);
    cfg[CF_HEAP_CAP] = caps.heap_words;
    cfg[CF_STACK_CAP] = caps.stack_words;
    cfg[CF_FRAME_CAP] = caps.frames;
    cfg[CF_LOG_CAP] = caps.log_words;
    // Without a context tree the nodes take no memory.
    cfg[CF_NODE_CAP] = if run.cct { caps.nodes } else { 0 };
    cfg[CF_STATICS_LEN] = pkg.initial_statics.len() as u32;
    cfg[CF_CLASS_COUNT] = pkg.class_names.len() as u32;
    cfg[CF_IMAGE_LEN] = pkg.initial_heap.len() as u32;
    cfg[CF_SPREAD] = 1;
    cfg
}

/// Where each region of per-instance state starts in the state buffer (in words), as the kernel
/// computes it in `run_instance`.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub count: usize,
    pub heap: usize,
    pub log_keys: usize,
    pub log_values: usize,
    pub nodes: usize,
    pub total: usize,
}

impl Layout {
    pub fn of(cfg: &[u32]) -> Layout {
        let n = cfg[CF_COUNT] as usize;
        let word = |k: usize| cfg[k] as usize;
        let mut at = 0;
        at += word(CF_STACK_CAP) * n;
        at += word(CF_FRAME_CAP) * crate::isa::FRAME_WORDS * n;
        at += word(CF_STATICS_LEN) * n;
        at += 2 * word(CF_CLASS_COUNT) * n;
        let heap = at;
        at += word(CF_HEAP_CAP) * n;
        let log_keys = at;
        at += word(CF_LOG_CAP) * n;
        let log_values = at;
        at += word(CF_LOG_CAP) * n;
        let nodes = at;
        at += word(CF_NODE_CAP) * NODE_WORDS * n;
        Layout {
            count: n,
            heap,
            log_keys,
            log_values,
            nodes,
            total: at,
        }
    }
}

/// The inputs buffer: `count + 1` offsets, then each instance's record (its argument words count,
/// the argument words, the heap words of its input objects).
pub fn inputs_buffer(prepared: &[&(Vec<u32>, Vec<u32>)]) -> Vec<u32> {
    let mut buffer = vec![0u32; prepared.len() + 1];
    for (k, (args, segment)) in prepared.iter().enumerate() {
        buffer[k] = buffer.len() as u32;
        buffer.push(args.len() as u32);
        buffer.extend_from_slice(args);
        buffer.extend_from_slice(segment);
    }
    buffer[prepared.len()] = buffer.len() as u32;
    buffer
}

/// What the host reads back of an instance besides its result record: the heap words it
/// allocated (its inputs first), the image words it wrote, and its context tree.
#[derive(Clone, Debug, Default)]
pub struct InstanceMemory {
    pub heap: Vec<u32>,
    pub log: Vec<(u32, u32)>,
    pub nodes: Vec<u32>,
}

impl InstanceMemory {
    /// Reads instance `i`'s memory out of a state buffer laid out as `layout`, for a result
    /// record `result`.
    pub fn gather(state: &[u32], layout: &Layout, cfg: &[u32], i: usize, result: &[u32]) -> InstanceMemory {
        let heap_cap = cfg[CF_HEAP_CAP] as usize;
        let log_cap = cfg[CF_LOG_CAP] as usize;
        let node_cap = cfg[CF_NODE_CAP] as usize;
        let used = (result[RES_HEAP_TOP] - cfg[CF_IMAGE_LEN]) as usize;
        let heap_at = layout.heap + i * heap_cap;
        let log = if result[RES_LOG_COUNT] == 0 {
            Vec::new()
        } else {
            let word = |region: usize, k: usize| state[region + k * layout.count + i];
            (0..log_cap)
                .map(|k| (word(layout.log_keys, k), word(layout.log_values, k)))
                .filter(|(k, _)| *k != NONE)
                .collect()
        };
        let nodes_at = layout.nodes + i * node_cap * NODE_WORDS;
        let nodes = state[nodes_at..nodes_at + result[RES_NODES] as usize * NODE_WORDS].to_vec();
        InstanceMemory {
            heap: state[heap_at..heap_at + used].to_vec(),
            log,
            nodes,
        }
    }
}
