//! The `jresa` binary.

// The analyses allocate many small vectors (polyhedra, rationals) from every thread; mimalloc's
// per-thread heaps make that markedly cheaper than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    jresa::cli::main()
}
