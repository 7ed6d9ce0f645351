fn main() {
    let options = cudarc::nvrtc::CompileOptions {
        fmad: Some(false),
        arch: Some("sm_90"),
        ..Default::default()
    };
    match cudarc::nvrtc::compile_ptx_with_opts(jresa_gpu_validate::kernel::cuda::kernel_source(), options) {
        Ok(ptx) => println!("ok: {} bytes of PTX", ptx.to_src().len()),
        Err(e) => println!("error: {e:?}"),
    }
}
