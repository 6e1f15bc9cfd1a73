//! `kubectl-releasex`: parses the command line and dispatches to the library.

// The values engine allocates small strings and maps by the thousand, and
// allocation was about 30% of `explain`'s instructions under the system
// allocator (callgrind); mimalloc is cheaper per call. benches/explain.sh
// gives the current figures.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    releasex::cli::main()
}
