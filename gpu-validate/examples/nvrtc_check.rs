//! Compiles the interpreter kernel with NVRTC for `sm_90` (or the architecture given as the first
//! argument) and prints the size of the PTX or NVRTC's log: a check of `kernel/interp.cu` that
//! needs the NVRTC library (`libnvrtc.so`) but no GPU.
//!
//! `cargo run -p jresa-gpu-validate --example nvrtc_check [sm_XY]`

fn main() {
    let arch: &'static str = Box::leak(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "sm_90".into())
            .into_boxed_str(),
    );
    let options = cudarc::nvrtc::CompileOptions {
        fmad: Some(false),
        arch: Some(arch),
        ..Default::default()
    };
    match cudarc::nvrtc::compile_ptx_with_opts(jresa_gpu_validate::kernel::cuda::kernel_source(), options) {
        Ok(ptx) => println!("the kernel compiles for {arch}: {} bytes of PTX", ptx.to_src().len()),
        Err(error) => {
            eprintln!("NVRTC could not compile the kernel: {error:?}");
            std::process::exit(1);
        }
    }
}
