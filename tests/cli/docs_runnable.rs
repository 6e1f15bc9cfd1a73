//! The docs cannot go stale: every code block marked ```` ```bash runnable ````
//! in README.md and docs/*.md runs (bash -euo pipefail, from the repository
//! root) and must succeed. `kubectl-releasex` and `cargo run -q --` mean the
//! binary under test; `.ci/run` (the README's test command) is this suite
//! itself, so it is not run again. The README's bundled manifest is checked
//! against what real Helm 4 renders.

use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "```bash runnable";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// (file, first line, block text) of each runnable block.
fn runnable_blocks() -> Vec<(PathBuf, usize, String)> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
    docs.sort();
    files.extend(docs);
    let mut blocks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut current: Option<(usize, String)> = None;
        for (n, line) in text.lines().enumerate() {
            match &mut current {
                None if line.trim_end() == MARKER => current = Some((n + 2, String::new())),
                Some(_) if line.trim_end() == "```" => {
                    let (start, body) = current.take().unwrap();
                    blocks.push((file.clone(), start, body));
                }
                Some((_, body)) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None => {}
            }
        }
        assert!(current.is_none(), "{}: a runnable block is not closed", file.display());
    }
    blocks
}

/// A directory to put first on PATH: `kubectl-releasex` is the binary under
/// test, and `cargo` runs it for `cargo run -q -- ARGS` (and refuses anything else).
fn bin_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("kubectl-releasex");
    std::os::unix::fs::symlink(&bin, dir.path().join("kubectl-releasex")).unwrap();
    let cargo = dir.path().join("cargo");
    std::fs::write(
        &cargo,
        format!("#!/bin/sh\n[ \"$1 $2 $3\" = 'run -q --' ] || {{ echo \"docs test: only 'cargo run -q --' is stood in for\" >&2; exit 1; }}\nshift 3\nexec '{}' \"$@\"\n", bin.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn every_runnable_block_of_the_readme_and_docs_succeeds() {
    let blocks = runnable_blocks();
    let in_readme = blocks.iter().filter(|(f, _, _)| f.ends_with("README.md")).count();
    assert!(in_readme >= 2, "the README's set-up commands and its tour are runnable blocks");
    let dir = bin_dir();
    let path = format!("{}:/usr/bin:/bin", dir.path().display());
    for (file, line, body) in blocks {
        // The test command is the suite running this test.
        let script: String = body.lines().filter(|l| l.trim() != ".ci/run").map(|l| format!("{l}\n")).collect();
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .env_clear()
            .env("PATH", &path)
            .env("HOME", dir.path())
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}:{line}: the block failed ({}):\n{script}\nstderr:\n{}",
            file.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{}:{line}: printed nothing", file.display());
    }
}

/// `examples/upgrade/demo-upgrade.manifest.yaml` is what real Helm 4
/// renders for the README's upgrade, so the offline example shows Helm's
/// objects; and the report is the same as when Helm renders it.
#[test]
fn the_bundled_upgrade_manifest_is_what_real_helm_renders() {
    let helm = crate::support::real_helm("helm4");
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(&helm)
        .args(["template", "demo", "examples/charts/secret-hook", "-n", "team-a", "--set", "image.tag=v3", "--is-upgrade"])
        .env("HOME", home.path())
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bundled = std::fs::read_to_string(root().join("examples/upgrade/demo-upgrade.manifest.yaml")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), bundled, "regenerate it with the helm template command above");
    let args = ["upgrade-preview", "demo", "examples/charts/secret-hook", "-n", "team-a", "--release-file", "examples/demo-release.yaml", "--offline", "--set", "image.tag=v3", "-o", "json"];
    let given = crate::support::run(crate::support::releasex().args(args).args(["--manifest", "examples/upgrade/demo-upgrade.manifest.yaml"]));
    let rendered = crate::support::run(crate::support::releasex().env("HELM_BIN", &helm).env("HOME", home.path()).args(args));
    assert_eq!((given.code, rendered.code), (0, 0), "{}\n{}", given.stderr, rendered.stderr);
    assert_eq!(given.stdout, rendered.stdout);
}
