//! Running the binary under measurement: `measure.py` (beside this file)
//! starts it, kills it at the time bound, and reports its exit code or
//! signal, wall time and peak resident set.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a hostile case may cost at most.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub wall_seconds: f64,
    pub max_rss_mib: u64,
}

impl Limits {
    /// Most cases: a clear answer within 20 s (debug build, 2 busy cores)
    /// and 512 MiB.
    pub const DEFAULT: Limits = Limits { wall_seconds: 20.0, max_rss_mib: 512 };
}

#[derive(Debug)]
pub struct Outcome {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub wall_seconds: f64,
    pub max_rss_mib: u64,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    /// Exit code 1 with `needle` in the error, within `limits`.
    pub fn assert_clean_error(&self, needle: &str, limits: Limits) {
        self.assert_within(limits);
        assert_eq!(self.code, Some(1), "expected exit 1 naming {needle:?}; got {self:#?}");
        assert!(self.stderr.contains(needle), "the error does not name {needle:?}:\n{}", self.stderr);
    }

    /// Exit code 0 within `limits`.
    pub fn assert_success(&self, limits: Limits) {
        self.assert_within(limits);
        assert_eq!(self.code, Some(0), "expected success; got {self:#?}");
    }

    /// Ended by itself (no signal, no timeout, no panic) within `limits`.
    pub fn assert_within(&self, limits: Limits) {
        assert!(!self.timed_out, "still running after {} s: {self:#?}", limits.wall_seconds);
        assert_eq!(self.signal, None, "killed by a signal: {self:#?}");
        assert_ne!(self.code, Some(101), "panicked: {}", self.stderr);
        assert!(!self.stderr.contains("panicked at"), "panicked: {}", self.stderr);
        assert!(
            self.max_rss_mib <= limits.max_rss_mib,
            "peak memory {} MiB over the bound of {} MiB",
            self.max_rss_mib,
            limits.max_rss_mib
        );
        assert!(self.wall_seconds <= limits.wall_seconds, "took {} s, over {} s", self.wall_seconds, limits.wall_seconds);
    }
}

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kubectl-releasex"))
}

/// Runs the binary with `args` (clean environment: no kubeconfig, no Helm
/// variables; `env` added), `stdin` fed when given, from the repository
/// root, killed after `limits.wall_seconds` plus a grace second.
pub fn run(args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>, limits: Limits) -> Outcome {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out_path, err_path) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let mut cmd = Command::new("python3");
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/measure.py"))
        .arg(format!("{}", limits.wall_seconds + 1.0))
        .arg(&out_path)
        .arg(&err_path)
        .arg("--")
        .arg(binary())
        .args(args)
        .env_clear()
        .env("HOME", "/nonexistent-home")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    if stdin.is_some() {
        cmd.env("MEASURE_STDIN", "1");
    }
    let mut child = cmd.spawn().expect("python3 runs measure.py");
    {
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).expect("write stdin");
        }
    }
    let out = child.wait_with_output().expect("measure.py");
    let report = String::from_utf8_lossy(&out.stderr);
    let last = report.lines().last().unwrap_or_default();
    let v: serde_json::Value =
        serde_json::from_str(last).unwrap_or_else(|e| panic!("measure.py said {report:?} ({e})"));
    Outcome {
        code: v["code"].as_i64().map(|c| c as i32),
        signal: v["signal"].as_i64().map(|s| s as i32),
        timed_out: v["timed_out"].as_bool().unwrap_or(false),
        wall_seconds: v["wall_seconds"].as_f64().unwrap_or(f64::MAX),
        max_rss_mib: v["max_rss_kib"].as_u64().unwrap_or(u64::MAX) / 1024,
        stdout: String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
    }
}

/// Writes `contents` to `name` in a fresh temporary directory (kept alive by
/// the returned guard).
pub fn temp_file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(&path, contents).expect("write");
    (dir, path)
}
