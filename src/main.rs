//! The `jresa` binary.

// The analyses allocate many small vectors (polyhedra, rationals) from every thread; mimalloc's
// per-thread heaps make that markedly cheaper than the system allocator. It does not ask for
// transparent huge pages (`no_thp`): the first touch of each one zeroes 2 MiB, which made reading a
// large profile twice as slow, and erratic, for no gain in the analyses' time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    jresa::cli::main()
}
