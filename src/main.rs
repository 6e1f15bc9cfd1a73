//! `kubectl-releasex`: parses the command line and dispatches to the library.

fn main() -> std::process::ExitCode {
    releasex::cli::main()
}
