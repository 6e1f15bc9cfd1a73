use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

/// The binary with a clean environment: no kubeconfig, no Helm variables,
/// no color settings, run from the repository root so paths in output are
/// relative.
pub fn releasex() -> Command {
    let mut cmd = Command::cargo_bin("kubectl-releasex").expect("binary");
    cmd.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    cmd.env("HOME", "/nonexistent-home");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run binary");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs and requires success, returning stdout.
pub fn ok(args: &[&str]) -> String {
    let r = run(releasex().args(args));
    assert_eq!(r.code, 0, "{args:?} failed:\n{}", r.stderr);
    r.stdout
}

/// Runs and requires exit code 1, returning stderr.
pub fn fails(args: &[&str]) -> String {
    fails_with(args, 1)
}

/// Exit code 3: the previewed Helm command would fail.
pub fn helm_would_fail(args: &[&str]) -> String {
    fails_with(args, 3)
}

fn fails_with(args: &[&str], code: i32) -> String {
    let r = run(releasex().args(args));
    assert_eq!(r.code, code, "{args:?} should fail with {code}; stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("panicked"), "panic: {}", r.stderr);
    r.stderr
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// A real binary unpacked by `scripts/real-binaries.sh`: `helm4`, `helm3`,
/// `helmfile` or `kubectl`, from `$RELEASEX_HELM4` and friends (which
/// `.ci/run` exports), else the script's default place
/// (`~/.cache/real-helm-binaries/<which>/<helm|helmfile|kubectl>`).
pub fn real_helm(which: &str) -> PathBuf {
    let var = format!("RELEASEX_{}", which.to_uppercase());
    let file = if which.starts_with("helm") && which != "helmfile" { "helm" } else { which };
    let path = std::env::var_os(&var)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(format!(".cache/real-helm-binaries/{which}/{file}"))))
        .expect("HOME or RELEASEX_*");
    assert!(path.is_file(), "no real {which} at {}: run scripts/real-binaries.sh (as .ci/run does)", path.display());
    path
}

/// Real helmfile 0.166.0.
pub fn real_helmfile() -> PathBuf {
    real_helm("helmfile")
}

/// The fixture API server serving `objects`, and a kubeconfig for it whose
/// context's namespace is `namespace` (in a temporary directory that lives
/// as long as this does). Each test module adds the methods it needs.
pub struct ServedCluster {
    pub api: crate::fixture_api::FixtureApi,
    pub dir: tempfile::TempDir,
    pub kubeconfig: PathBuf,
}

impl ServedCluster {
    pub fn serve(objects: Vec<serde_json::Value>, namespace: &str) -> ServedCluster {
        let api = crate::fixture_api::FixtureApi::start(objects);
        let dir = tempfile::tempdir().expect("tempdir");
        let kubeconfig = api.write_kubeconfig(dir.path(), namespace);
        ServedCluster { api, dir, kubeconfig }
    }
}
