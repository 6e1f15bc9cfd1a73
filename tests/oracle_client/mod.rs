//! The Helm oracle (tests/oracle, real Helm v4.2.3) for the differential
//! tests: one process answers many requests (`batch`). Missing oracle is a
//! failure that says how to install it, never a skip.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn repo_root() -> PathBuf {
    std::env::var_os("RELEASEX_ROOT").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// Runs each argument list (`["values", CHART, "--set", ...]`) through the
/// oracle and returns its JSON answers, in order.
#[allow(dead_code)] // not every test binary uses every helper
pub fn batch(calls: &[Vec<String>]) -> Vec<Value> {
    let root = repo_root();
    let script = root.join("tests/oracle/helm_oracle.py");
    let python = std::env::var_os("HELM_ORACLE_PYTHON").map(PathBuf::from).unwrap_or_else(|| root.join(".venv/bin/python"));
    assert!(
        script.exists() && python.exists(),
        "the Helm oracle is missing ({} / {}): run tests/oracle/setup.sh",
        script.display(),
        python.display()
    );
    let mut child = Command::new(&python)
        .arg(&script)
        .arg("batch")
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the Helm oracle ({e}): run tests/oracle/setup.sh"));
    let mut stdin = child.stdin.take().expect("stdin");
    let lines: Vec<String> = calls.iter().map(|c| serde_json::json!(c).to_string()).collect();
    let writer = std::thread::spawn(move || {
        for l in lines {
            writeln!(stdin, "{l}").expect("write to the oracle");
        }
    });
    let mut out = Vec::with_capacity(calls.len());
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("oracle output");
        out.push(serde_json::from_str::<Value>(&line).unwrap_or_else(|e| panic!("oracle printed {line:?}: {e}")));
        if out.len() == calls.len() {
            break;
        }
    }
    writer.join().expect("writer");
    let _ = child.wait();
    assert_eq!(out.len(), calls.len(), "the Helm oracle stopped early: is it installed? run tests/oracle/setup.sh");
    out
}

/// [`batch`], requiring that Helm answered (ok or Helm's own error) every call.
#[allow(dead_code)] // not every test binary uses every helper
pub fn batch_answered(calls: &[Vec<String>]) -> Vec<Value> {
    let out = batch(calls);
    for o in &out {
        let status = o["status"].as_str().unwrap_or("");
        assert!(status == "ok" || status == "error", "the Helm oracle could not answer ({o}); run tests/oracle/setup.sh");
    }
    out
}

/// Numbers compare as Go float64 (the oracle's JSON cannot tell int64 from float64).
#[allow(unused_imports)] // not every test binary uses every helper
pub use releasex::values::same_as_float64 as same;

/// Where two value trees differ, one line per path ("helm" then "ours").
#[allow(dead_code)] // not every test binary uses every helper
pub fn diff(helm: &Value, ours: &Value) -> String {
    fn walk(path: &str, h: Option<&Value>, o: Option<&Value>, out: &mut Vec<String>) {
        match (h, o) {
            (Some(Value::Object(a)), Some(Value::Object(b))) => {
                for k in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                    walk(&format!("{path}.{k}"), a.get(k), b.get(k), out);
                }
            }
            (Some(a), Some(b)) if same(a, b) => {}
            _ => out.push(format!(
                "  {}: helm {} / ours {}",
                if path.is_empty() { "." } else { path },
                h.map_or("(absent)".to_string(), Value::to_string),
                o.map_or("(absent)".to_string(), Value::to_string)
            )),
        }
    }
    let mut out = Vec::new();
    walk("", Some(helm), Some(ours), &mut out);
    out.join("\n")
}

/// The oracle's value flags (`-f FILE`, `--set*`), as the library takes them;
/// files are read relative to `base` (absolute paths stay as they are).
#[allow(dead_code)] // not every test binary uses every helper
pub fn value_flags(args: &[String], base: &std::path::Path) -> Result<releasex::values::user::ValueFlags, String> {
    use releasex::values::user::{ValueFlags, ValuesFile};
    let mut flags = ValueFlags::default();
    for pair in args.chunks(2) {
        let [flag, v] = pair else { return Err(format!("flag {pair:?} has no value")) };
        let v = v.clone();
        match flag.as_str() {
            "-f" => {
                let text = std::fs::read_to_string(base.join(&v)).map_err(|e| format!("{v}: {e}"))?;
                flags.files.push(ValuesFile { name: v, text });
            }
            "--set" => flags.set.push(v),
            "--set-string" => flags.set_string.push(v),
            "--set-json" => flags.set_json.push(v),
            "--set-literal" => flags.set_literal.push(v),
            other => panic!("unexpected flag {other}"),
        }
    }
    Ok(flags)
}
