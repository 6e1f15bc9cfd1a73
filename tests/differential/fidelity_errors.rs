//! The differences of issue 20 as a conformance table
//! (tests/data/fidelity/cases.json): each case writes its files into a
//! temporary directory, runs `kubectl-releasex values explain` on them and
//! asks real Helm v4.2.3 (tests/oracle) the same. Both must give the
//! table's answer: `error` (Helm's whole message; ours is its first line
//! after `error: `) or `values` (`.Values`, compared as float64). A case
//! with `oracle: false` says in `why` what the oracle cannot reproduce and
//! which Helm (or Go) source the expectation is read from.
//!
//! `{dir}` in files, arguments and answers is the case's directory; a file
//! given as `{"hex": "..."}` is written as those bytes; `{"mode": 0}` makes
//! the file unreadable (skipped when running as root, who reads anything).

use crate::oracle_client;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn table() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fidelity/cases.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("cases.json")).expect("cases.json is JSON");
    doc["cases"].as_array().expect("cases").clone()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex byte")).collect()
}

fn write_files(case: &Value, dir: &Path) {
    for (rel, body) in case["files"].as_object().into_iter().flatten() {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        match body {
            Value::String(s) => std::fs::write(&p, s.replace("{dir}", &dir.to_string_lossy())).expect("write"),
            Value::Object(o) if o.contains_key("hex") => std::fs::write(&p, hex(o["hex"].as_str().expect("hex"))).expect("write"),
            Value::Object(o) if o.contains_key("dir") => std::fs::create_dir_all(&p).expect("mkdir"),
            other => panic!("file {rel}: {other}"),
        }
    }
}

fn subst(v: &Value, dir: &Path) -> String {
    v.as_str().expect("string").replace("{dir}", &dir.to_string_lossy())
}

/// Our answer: Ok(values) or Err(the first line of the error after `error: `).
fn ours(args: &[String]) -> Result<Value, String> {
    ours_with_stderr(args).0
}

/// Helm's log lines for one call (the oracle lets Go's logger write to stderr).
fn helm_stderr(args: &[String]) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join(".venv/bin/python"))
        .arg(root.join("tests/oracle/helm_oracle.py"))
        .arg("values")
        .args(args)
        .output()
        .expect("run the Helm oracle (tests/oracle/setup.sh)");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ours_with_stderr(args: &[String]) -> (Result<Value, String>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-releasex"))
        .args(["values", "explain"])
        .args(args)
        .args(["-o", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run kubectl-releasex");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        // The error block: from `error: ` up to our own additions (where the bad values come from).
        let start = stderr.find("error: ").unwrap_or_else(|| panic!("no error line in {stderr}"));
        let block: Vec<&str> = stderr[start + "error: ".len()..].lines().take_while(|l| !l.starts_with("where the values that break it come from:")).collect();
        return (Err(block.join("\n")), stderr);
    }
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    // With -o json the warnings are in the document.
    let warnings: Vec<&str> = doc["warnings"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    (Ok(doc["values"].clone()), warnings.join("\n"))
}

/// `warnings`: lines of Helm 4's CLI; each must be one of our warnings, and
/// Helm's own log (the oracle's, whose logger is the library default: its
/// slog lines read `TIME WARN msg k=v`) must end with the same words
/// (`helm_log` when they differ from the CLI line).
fn warning_failures(name: &str, case: &Value, args: &[String]) -> Vec<String> {
    let Some(warnings) = case["warnings"].as_array() else { return Vec::new() };
    let (_, stderr) = ours_with_stderr(args);
    let helm = helm_stderr(args);
    let mut out = Vec::new();
    for (i, w) in warnings.iter().enumerate() {
        let w = w.as_str().expect("warning");
        if !stderr.lines().any(|l| l == w) {
            out.push(format!("{name}: we did not warn {w:?}: {stderr}"));
        }
        let in_log = case["helm_log"].get(i).and_then(Value::as_str).unwrap_or(w);
        if !helm.lines().any(|l| l.ends_with(in_log)) {
            out.push(format!("{name}: Helm did not log {in_log:?}: {helm}"));
        }
    }
    out
}

/// `full`: the whole message (Helm's multi-line schema errors); otherwise its first line.
fn verdict(name: &str, want: &Value, got: &Result<Value, String>, who: &str, dir: &Path) -> Option<String> {
    let full = want["full"] == Value::Bool(true);
    let got = &got.clone().map_err(|e| if full { e.trim_end().to_string() } else { e.lines().next().unwrap_or_default().to_string() });
    let want_error = want.get("error").map(|e| Value::String(subst(e, dir).trim_end().to_string()));
    match (want_error.as_ref(), got) {
        (Some(e), Err(g)) if subst(e, dir) == *g => None,
        (Some(e), _) => Some(format!("{name}: {who} gives {got:?}, want error {e:?}")),
        (None, Ok(v)) if oracle_client::same(v, &want["values"]) => None,
        (None, _) => Some(format!("{name}: {who} gives {got:?}, want values {}", want["values"])),
    }
}

#[test]
fn issue_20_cases_match_helm_4_2_3_and_the_table() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cases = table();
    let mut asked = Vec::new();
    let mut dirs = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let dir = tmp.path().join(format!("case-{i}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        write_files(case, &dir);
        let args: Vec<String> = case["args"].as_array().expect("args").iter().map(|a| subst(a, &dir)).collect();
        if case["oracle"] != Value::Bool(false) {
            asked.push((i, [vec!["values".to_string()], args.clone()].concat()));
        }
        dirs.push((dir, args));
    }
    let answers = oracle_client::batch_answered(&asked.iter().map(|(_, a)| a.clone()).collect::<Vec<_>>());
    let mut failures = Vec::new();
    for ((i, _), helm) in asked.iter().zip(&answers) {
        let helm = match helm["status"].as_str() {
            Some("ok") => Ok(helm["values"].clone()),
            _ => Err(helm["error"].as_str().unwrap_or_default().to_string()),
        };
        let name = cases[*i]["name"].as_str().unwrap_or("?");
        failures.extend(verdict(name, &cases[*i], &helm, "Helm 4.2.3", &dirs[*i].0));
    }
    for (case, (dir, args)) in cases.iter().zip(&dirs) {
        let name = case["name"].as_str().unwrap_or("?");
        if case["oracle"] == Value::Bool(false) {
            assert!(case["why"].is_string(), "{name}: a case the oracle cannot answer says why");
        }
        failures.extend(verdict(name, case, &ours(args), "releasex", dir));
        failures.extend(warning_failures(name, case, args));
    }
    eprintln!("{} cases, {} asked of Helm 4.2.3", cases.len(), asked.len());
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
