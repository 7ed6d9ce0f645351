//! The `jresa` binary.
fn main() -> std::process::ExitCode {
    jresa::cli::main()
}
