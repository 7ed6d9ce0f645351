//! Builds the interpreter kernel (`kernel/interp.cu`) as plain C for the host backend, which the
//! tests compare with the CPU backend on every machine.

fn main() {
    for file in [
        "kernel/interp.cu",
        "kernel/isa.h",
        "kernel/abi.h",
        "kernel/host.h",
        "kernel/host.c",
    ] {
        println!("cargo:rerun-if-changed={file}");
    }
    cc::Build::new()
        .file("kernel/host.c")
        .flag("-std=c11")
        // Floating point exactly as written: no contraction into fused multiply-adds.
        .flag_if_supported("-ffp-contract=off")
        .opt_level(2)
        .warnings(true)
        .compile("jresa_kernel_host");
}
