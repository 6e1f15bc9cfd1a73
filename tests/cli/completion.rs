use crate::support::ok;

/// The committed scripts under completions/ must match what the binary
/// prints; regenerate with `cargo run -- completion SHELL > completions/...`.
#[test]
fn committed_completion_scripts_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (shell, file) in [
        ("bash", "kubectl-releasex.bash"),
        ("zsh", "_kubectl-releasex"),
        ("fish", "kubectl-releasex.fish"),
        ("powershell", "kubectl-releasex.ps1"),
    ] {
        let printed = ok(&["completion", shell]);
        assert_eq!(
            printed,
            releasex::cli::completion::script(shell.parse().unwrap()),
            "the command prints the generated script"
        );
        let committed = std::fs::read_to_string(root.join("completions").join(file)).unwrap_or_default();
        assert!(
            committed == printed,
            "completions/{file} is stale: run `cargo run -q -- completion {shell} > completions/{file}`"
        );
    }
}
