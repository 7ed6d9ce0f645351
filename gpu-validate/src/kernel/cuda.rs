//! The interpreter kernel on a CUDA device through `cudarc`: the driver and NVRTC are loaded at
//! run time (the build needs no CUDA), NVRTC compiles `kernel/interp.cu` for the device's
//! architecture once per process, the program is copied to the device once per package, and each
//! launch copies only the inputs and the result records (and the memory of the few instances whose
//! outcome needs it). Methods are validated in parallel: their launches go to a few lanes, each a
//! stream with its own buffers, so that one method's kernel runs while another's inputs and
//! results are copied, and small launches share the device's multiprocessors.

use super::abi::{self, InstanceMemory, Layout};
use super::Device;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// The kernel's source as NVRTC compiles it.
pub fn kernel_source() -> String {
    [
        "#define DEV __device__\n",
        "#define COLD __device__ __noinline__\n",
        "#define KERNEL_ENTRY extern \"C\" __global__\n",
        "#define FOR_EACH_INSTANCE(i, count, spread) unsigned int t_ = blockIdx.x * blockDim.x + threadIdx.x; unsigned int i = t_ / (spread); if (t_ % (spread) == 0 && i < (count))\n",
        include_str!("../../kernel/isa.h"),
        include_str!("../../kernel/abi.h"),
        include_str!("../../kernel/interp.cu"),
    ]
    .concat()
}

/// Threads per block.
const BLOCK: u32 = 128;
/// Instances per launch at most: enough threads to keep every multiprocessor busy.
const CUDA_BATCH: usize = 65536;
/// The share of the device's memory the states of all lanes' launches may take.
const STATE_SHARE: f64 = 0.5;
/// Launches in flight at most: streams, each with its buffers.
const LANES: usize = 4;
/// Bytes of stack per thread (the kernel keeps a message buffer and recursion there).
const THREAD_STACK: usize = 8192;

/// Why no CUDA device can be used, or the device's context and compiled kernel.
struct Loaded {
    context: Arc<CudaContext>,
    function: CudaFunction,
    pack: CudaFunction,
    name: String,
}

fn load() -> Result<Loaded, String> {
    // SAFETY: both only try to open the shared libraries (no CUDA call is made).
    #[allow(unsafe_code)]
    let present = unsafe { cudarc::driver::sys::is_culib_present() && cudarc::nvrtc::sys::is_culib_present() };
    if !present {
        return Err("no CUDA driver and NVRTC libraries were found (libcuda.so, libnvrtc.so)".into());
    }
    let context = CudaContext::new(0).map_err(|e| format!("no CUDA device: {e}"))?;
    let name = context.name().map_err(|e| e.to_string())?;
    let (major, minor) = context
        .compute_capability()
        .map_err(|e| format!("the device's compute capability: {e}"))?;
    let arch: &'static str = Box::leak(format!("sm_{major}{minor}").into_boxed_str());
    let options = cudarc::nvrtc::CompileOptions {
        // Floating point exactly as the CPU backend computes it.
        fmad: Some(false),
        prec_div: Some(true),
        prec_sqrt: Some(true),
        ftz: Some(false),
        arch: Some(arch),
        ..Default::default()
    };
    let ptx = cudarc::nvrtc::compile_ptx_with_opts(kernel_source(), options)
        .map_err(|e| format!("NVRTC could not compile the kernel: {e}"))?;
    let module = context.load_module(ptx).map_err(|e| e.to_string())?;
    let function = module.load_function("jresa_run").map_err(|e| e.to_string())?;
    let pack = module.load_function("jresa_pack").map_err(|e| e.to_string())?;
    context
        .set_limit(cudarc::driver::sys::CUlimit::CU_LIMIT_STACK_SIZE, THREAD_STACK)
        .map_err(|e| e.to_string())?;
    Ok(Loaded {
        context,
        function,
        pack,
        name: format!("cuda ({name}, {arch})"),
    })
}

/// The process's CUDA device, loaded on first use.
fn loaded() -> Result<&'static Loaded, String> {
    static LOADED: OnceLock<Result<Loaded, String>> = OnceLock::new();
    LOADED
        .get_or_init(|| std::panic::catch_unwind(load).unwrap_or_else(|_| Err("loading CUDA failed".into())))
        .as_ref()
        .map_err(Clone::clone)
}

/// Whether a CUDA device can run the kernel, or why not.
pub fn available() -> Result<String, String> {
    loaded().map(|l| l.name.clone())
}

/// The kernel on the CUDA device, with one package's program on it.
pub struct CudaDevice {
    loaded: &'static Loaded,
    program: CudaSlice<u32>,
    /// The device's memory in bytes.
    memory: usize,
    /// The lanes not in use, and how many were made.
    lanes: Mutex<(Vec<Lane>, usize)>,
    /// Signalled when a lane is given back.
    lane_free: Condvar,
}

/// A stream and the buffers of its last launch, reused when large enough (allocations cost more
/// than small launches).
struct Lane {
    stream: Arc<CudaStream>,
    buffers: Buffers,
}

#[derive(Default)]
struct Buffers {
    state: Option<CudaSlice<u32>>,
    cfg: Option<CudaSlice<u32>>,
    inputs: Option<CudaSlice<u32>>,
    results: Option<CudaSlice<u32>>,
}

/// A device buffer of at least `len` words in `slot`, allocated (zeroed) when the slot has none
/// that large.
fn fit<'a>(
    stream: &Arc<CudaStream>,
    slot: &'a mut Option<CudaSlice<u32>>,
    len: usize,
) -> Result<&'a mut CudaSlice<u32>, String> {
    if slot.as_ref().is_none_or(|s| s.len() < len.max(1)) {
        *slot = None;
        *slot = Some(stream.alloc_zeros::<u32>(len.max(1)).map_err(|e| e.to_string())?);
    }
    slot.as_mut().ok_or_else(|| "no buffer".to_string())
}

/// `words` words of `state` from `from`.
fn read(stream: &Arc<CudaStream>, state: &CudaSlice<u32>, from: usize, words: usize) -> Result<Vec<u32>, String> {
    if words == 0 {
        return Ok(Vec::new());
    }
    stream
        .clone_dtoh(&state.slice(from..from + words))
        .map_err(|e| e.to_string())
}

/// Copies `words` to the start of a reused buffer.
fn upload(stream: &Arc<CudaStream>, slot: &mut Option<CudaSlice<u32>>, words: &[u32]) -> Result<(), String> {
    let buffer = fit(stream, slot, words.len())?;
    stream
        .memcpy_htod(words, &mut buffer.slice_mut(0..words.len()))
        .map_err(|e| e.to_string())
}

impl CudaDevice {
    pub fn new(program: &[u32]) -> Result<CudaDevice, String> {
        let loaded = loaded()?;
        loaded.context.bind_to_thread().map_err(|e| e.to_string())?;
        let stream = loaded.context.new_stream().map_err(|e| e.to_string())?;
        let program = stream.clone_htod(program).map_err(|e| e.to_string())?;
        stream.synchronize().map_err(|e| e.to_string())?;
        let (_, memory) = loaded.context.mem_get_info().map_err(|e| e.to_string())?;
        let lane = Lane {
            stream,
            buffers: Buffers::default(),
        };
        Ok(CudaDevice {
            loaded,
            program,
            memory,
            lanes: Mutex::new((vec![lane], 1)),
            lane_free: Condvar::new(),
        })
    }

    /// A free lane, a new one while fewer than [`LANES`] were made, or the next one given back.
    fn take_lane(&self) -> Result<Lane, String> {
        let poisoned = |_| "the device's lanes are poisoned".to_string();
        let mut lanes = self.lanes.lock().map_err(poisoned)?;
        loop {
            if let Some(lane) = lanes.0.pop() {
                return Ok(lane);
            }
            if lanes.1 < LANES {
                lanes.1 += 1;
                drop(lanes);
                let stream = self.loaded.context.new_stream().map_err(|e| e.to_string())?;
                return Ok(Lane {
                    stream,
                    buffers: Buffers::default(),
                });
            }
            lanes = self.lane_free.wait(lanes).map_err(poisoned)?;
        }
    }

    fn give_back(&self, lane: Lane) {
        if let Ok(mut lanes) = self.lanes.lock() {
            lanes.0.push(lane);
        }
        self.lane_free.notify_one();
    }

    /// The memory of the instances `wanted` asks for: every heap they allocated, packed on the
    /// device and read in one transfer; the log regions (read once, when an instance wrote to
    /// the image) and the context trees.
    fn gather(
        &self,
        stream: &Arc<CudaStream>,
        state: &CudaSlice<u32>,
        (layout, cfg): (&Layout, &[u32]),
        results: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<Vec<Option<InstanceMemory>>, String> {
        let error = |e: cudarc::driver::DriverError| e.to_string();
        let count = layout.count;
        let record = |i: usize| &results[i * abi::RES_WORDS..(i + 1) * abi::RES_WORDS];
        let wants: Vec<bool> = (0..count).map(|i| wanted(record(i))).collect();
        if !wants.iter().any(|&w| w) {
            return Ok(vec![None; count]);
        }
        let image_len = cfg[abi::CF_IMAGE_LEN];
        let mut offsets = vec![0u32; count + 1];
        for i in 0..count {
            let used = if wants[i] {
                record(i)[abi::RES_HEAP_TOP] - image_len
            } else {
                0
            };
            offsets[i + 1] = offsets[i] + used;
        }
        let total = offsets[count] as usize;
        let packed = if total == 0 {
            Vec::new()
        } else {
            let cfg_device = stream.clone_htod(cfg).map_err(error)?;
            let offsets_device = stream.clone_htod(&offsets).map_err(error)?;
            let mut packed_device = stream.alloc_zeros::<u32>(total).map_err(error)?;
            let mut builder = stream.launch_builder(&self.loaded.pack);
            builder.arg(&cfg_device);
            builder.arg(state);
            builder.arg(&offsets_device);
            builder.arg(&mut packed_device);
            // SAFETY: `jresa_pack(cfg, state, offsets, packed)` reads each instance's
            // heap prefix (within its capacity, as the results report it) and writes
            // `offsets[i]..offsets[i + 1]` of `packed`, which holds `offsets[count]` words.
            #[allow(unsafe_code)]
            unsafe { builder.launch(grid(count)) }.map_err(error)?;
            stream.clone_dtoh(&packed_device).map_err(error)?
        };
        let log_cap = cfg[abi::CF_LOG_CAP] as usize;
        let needs_log = (0..count).any(|i| wants[i] && record(i)[abi::RES_LOG_COUNT] > 0);
        let logs = if needs_log {
            Some((
                read(stream, state, layout.log_keys, log_cap * count)?,
                read(stream, state, layout.log_values, log_cap * count)?,
            ))
        } else {
            None
        };
        let node_cap = cfg[abi::CF_NODE_CAP] as usize;
        (0..count)
            .map(|i| {
                if !wants[i] {
                    return Ok(None);
                }
                let heap = packed[offsets[i] as usize..offsets[i + 1] as usize].to_vec();
                let log = match (&logs, record(i)[abi::RES_LOG_COUNT]) {
                    (Some((keys, values)), c) if c > 0 => (0..log_cap)
                        .map(|k| (keys[k * count + i], values[k * count + i]))
                        .filter(|(k, _)| *k != crate::isa::NONE)
                        .collect(),
                    _ => Vec::new(),
                };
                let nodes = read(
                    stream,
                    state,
                    layout.nodes + i * node_cap * abi::NODE_WORDS,
                    record(i)[abi::RES_NODES] as usize * abi::NODE_WORDS,
                )?;
                Ok(Some(InstanceMemory { heap, log, nodes }))
            })
            .collect()
    }
}

/// A launch of `threads` threads (`CF_SPREAD` per instance for the interpreter, one per instance
/// for packing).
fn grid(threads: usize) -> LaunchConfig {
    LaunchConfig {
        grid_dim: ((threads as u32).div_ceil(BLOCK), 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl Device for CudaDevice {
    fn name(&self) -> String {
        self.loaded.name.clone()
    }

    fn batch(&self, words: usize) -> usize {
        // A device with less memory runs smaller launches rather than failing to allocate.
        let fits = (self.memory as f64 * STATE_SHARE / LANES as f64 / (words.max(1) * 4) as f64) as usize;
        CUDA_BATCH.min(fits).max(32)
    }

    fn launch(
        &self,
        cfg: &[u32],
        inputs: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<(Vec<u32>, Vec<Option<InstanceMemory>>), String> {
        // Methods are validated on rayon's threads: the context must be current on this one
        // (without it, a launch fails with CUDA_ERROR_INVALID_CONTEXT).
        self.loaded.context.bind_to_thread().map_err(|e| e.to_string())?;
        let mut lane = self.take_lane()?;
        let result = self.launch_on(&mut lane, cfg, inputs, wanted);
        if result.is_ok() {
            self.give_back(lane);
        } else {
            // A lane whose launch failed may hold a broken stream: it is dropped, not reused.
            if let Ok(mut lanes) = self.lanes.lock() {
                lanes.1 -= 1;
            }
            self.lane_free.notify_one();
        }
        result
    }
}

impl CudaDevice {
    /// One launch on `lane`'s stream and buffers.
    fn launch_on(
        &self,
        lane: &mut Lane,
        cfg: &[u32],
        inputs: &[u32],
        wanted: &(dyn Fn(&[u32]) -> bool + Sync),
    ) -> Result<(Vec<u32>, Vec<Option<InstanceMemory>>), String> {
        let count = cfg[abi::CF_COUNT] as usize;
        let layout = Layout::of(cfg);
        let error = |e: cudarc::driver::DriverError| e.to_string();
        let Lane { stream, buffers } = lane;
        fit(stream, &mut buffers.state, layout.total)?;
        upload(stream, &mut buffers.cfg, cfg)?;
        upload(stream, &mut buffers.inputs, inputs)?;
        fit(stream, &mut buffers.results, count * abi::RES_WORDS)?;
        let (Some(state), Some(cfg_device), Some(inputs_device), Some(results_device)) =
            (&mut buffers.state, &buffers.cfg, &buffers.inputs, &mut buffers.results)
        else {
            return Err("no buffers".into());
        };
        let mut builder = stream.launch_builder(&self.loaded.function);
        builder.arg(&self.program);
        builder.arg(cfg_device);
        builder.arg(inputs_device);
        builder.arg(&mut *state);
        builder.arg(&mut *results_device);
        // SAFETY: the kernel's parameters are, in order, the program image, the configuration,
        // the inputs, the state buffer (at least `layout.total` words) and the results (at least
        // `count * RES_WORDS` words), as `kernel/abi.h` declares them; the grid covers
        // `CF_SPREAD` threads per instance, and the kernel returns for threads past them and for
        // all but the first of each instance's threads.
        #[allow(unsafe_code)]
        unsafe { builder.launch(grid(count * cfg[abi::CF_SPREAD].max(1) as usize)) }.map_err(error)?;
        let results = read(stream, results_device, 0, count * abi::RES_WORDS)?;
        let state: &CudaSlice<u32> = state;
        let memory = self.gather(stream, state, (&layout, cfg), &results, wanted)?;
        Ok((results, memory))
    }
}
