//! Daily-use behaviour shared by every command: examples in help, the
//! version line, quiet exit on a closed pipe.

use std::io::Read as _;
use std::process::Stdio;

use crate::support::ok;

/// Every command path, from the clap tree (so new commands are covered).
fn command_paths(cmd: &clap::Command, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let mut p = prefix.clone();
        p.push(sub.get_name().to_string());
        command_paths(sub, p, out);
    }
}

#[test]
fn every_commands_help_has_an_example() {
    let mut paths = Vec::new();
    command_paths(&releasex::cli::command(), Vec::new(), &mut paths);
    assert!(paths.len() >= 10, "{paths:?}");
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = ok(&args);
        // Run by its path (not found on PATH), the binary names itself in examples.
        assert!(help.contains("Examples:\n  kubectl-releasex ") || help.contains("Examples:\n  source <("), "{args:?} has no example:\n{help}");
    }
}

#[test]
fn version_names_the_helm_semantics_it_follows() {
    assert_eq!(ok(&["--version"]), format!("kubectl-releasex {} (Helm 4.2 semantics)\n", env!("CARGO_PKG_VERSION")));
}

/// `kubectl releasex ... | head -1`: the reader goes away; no error, no panic, exit 0.
#[test]
fn broken_pipe_exits_zero_quietly() {
    for args in [
        &["completion", "bash"][..],
        &["release", "history", "-f", "examples/demo-release.yaml", "-o", "json"],
        &["release", "decode", "-f", "examples/demo-release.yaml", "--show", "record", "-o", "json"],
        &["--help"],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("kubectl-releasex"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the binary writes.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

/// On an 80-column terminal (RELEASEX_COLUMNS stands in for one), the
/// preview's prose fits: titles, modes, reasons, notes, hooks. Diff and
/// YAML lines are content and keep their layout.
#[test]
fn upgrade_and_rollback_previews_fit_an_80_column_terminal() {
    let upgrade = [
        "upgrade-preview", "demo", "examples/charts/secret-hook", "-n", "team-a", "--release-file", "examples/demo-release.yaml", "--offline",
        "--manifest", "examples/upgrade/demo-upgrade.manifest.yaml", "--set", "image.tag=v3",
    ];
    let rollback = ["rollback-preview", "demo", "1", "--release-file", "examples/demo-release.yaml", "--offline"];
    for args in [&upgrade[..], &rollback[..]] {
        let r = crate::support::run(crate::support::releasex().env("RELEASEX_COLUMNS", "80").args(args));
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Diff and YAML lines are indented by four spaces; everything else is prose.
        let long: Vec<&str> = r.stdout.lines().filter(|l| !l.starts_with("    ") && l.chars().count() > 80).collect();
        assert!(long.is_empty(), "{args:?}: lines over 80 columns:\n{}", long.join("\n"));
    }
}
