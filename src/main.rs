//! `kubectl-releasex`: parses the command line and dispatches to the library.

// The values engine allocates small strings and maps by the thousand;
// mimalloc makes `explain` on a large chart about a fifth faster than the
// system allocator (benches/explain.sh).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    releasex::cli::main()
}
