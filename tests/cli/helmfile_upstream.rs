//! helmfile's own value tests (issue 19, "Proof"), ported as data: each
//! directory under tests/data/helmfile/upstream/ is one case of helmfile's
//! `pkg/state`, `pkg/app`, `test/integration` or `test/e2e` suites, rewritten
//! with our own fixtures (`source.txt` names the upstream test and what it
//! proves; INDEX.md lists every upstream case considered). Its
//! `expected.json` holds what the case runs and what it must give:
//!
//! - `helmfile` (state file, relative to the case), `environment`, `v1`
//!   (HELMFILE_V1MODE), `args` (state-values flags), `env` (variables);
//! - `releases`: each release's `.Values` as current helmfile hands them to
//!   Helm, or `error`: `{ "release", "helmfile", "releasex" }` substrings;
//! - `helmfile_0_166`: what helmfile 0.166 gives where it differs from the
//!   current helmfile (releasex follows the current one, issue 19);
//! - `status: "known-failing"` with `reason` and `releasex_error` (or
//!   `releasex_values`): the way releasex is still wrong, asserted so that
//!   fixing it makes the case fail until it is marked ported.
//!
//! All cases use the one chart in `_chart` (`../_chart` from a case), whose
//! template prints `.Values`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::helmfile_templates::{STAND_IN_HELM, copy_dir, normalized};
use crate::support::{real_helm, real_helmfile, releasex, run};

const UPSTREAM: &str = "tests/data/helmfile/upstream";

/// A recorded call as real Helm runs it here: without `--kube-context`
/// (there is no cluster; `helm template` does not need one), and the
/// release name (the argument after `template`).
fn replayable(recorded: Vec<String>) -> (Vec<String>, String) {
    let mut args = Vec::new();
    let mut it = recorded.into_iter();
    while let Some(a) = it.next() {
        if a == "--kube-context" {
            it.next();
        } else {
            args.push(a);
        }
    }
    let release = args.iter().position(|a| a == "template").and_then(|i| args.get(i + 1)).cloned().unwrap_or_default();
    (args, release)
}

struct Case {
    name: String,
    dir: PathBuf,
    spec: Value,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(UPSTREAM);
    let mut out: Vec<Case> = std::fs::read_dir(&root)
        .expect("upstream cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('_')))
        .map(|dir| {
            let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(dir.join("expected.json")).unwrap_or_else(|e| panic!("{name}/expected.json: {e}"));
            let spec = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/expected.json: {e}"));
            Case { name, dir, spec }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!out.is_empty(), "no cases under {}", root.display());
    out
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// `-e ENV` and the case's state-values flags, the same for helmfile and releasex.
fn state_flags(spec: &Value) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(env) = str_field(spec, "environment") {
        flags.extend(["-e".to_string(), env.to_string()]);
    }
    flags.extend(spec["args"].as_array().into_iter().flatten().filter_map(Value::as_str).map(String::from));
    flags
}

fn v1_mode(spec: &Value) -> &'static str {
    if spec["v1"].as_bool().unwrap_or(false) { "true" } else { "false" }
}

fn env_vars(spec: &Value) -> Vec<(String, String)> {
    spec["env"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect()
}

/// What a program made of a case: each release's `.Values`, or its error.
#[derive(Debug, PartialEq)]
enum Outcome {
    Values(BTreeMap<String, Value>),
    Failed(String),
}

/// releasex's `.Values` for each named release (its first failure ends it).
fn releasex_outcome(case: &Case, releases: &[String]) -> Outcome {
    let file = str_field(&case.spec, "helmfile").unwrap_or_else(|| panic!("{}: no helmfile", case.name));
    let mut out = BTreeMap::new();
    for release in releases {
        let mut cmd = releasex();
        cmd.current_dir(&case.dir).args(["explain", "--helmfile"]).arg(case.dir.join(file)).args(["--release", release, "-o", "json"]);
        cmd.args(state_flags(&case.spec)).env("HELMFILE_V1MODE", v1_mode(&case.spec)).envs(env_vars(&case.spec));
        let r = run(&mut cmd);
        assert!(!r.stderr.contains("panicked"), "{}: releasex panicked: {}", case.name, r.stderr);
        if r.code != 0 {
            return Outcome::Failed(r.stderr);
        }
        let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{}: not JSON ({e}): {}", case.name, r.stdout));
        out.insert(release.clone(), normalized(doc["values"].clone()));
    }
    Outcome::Values(out)
}

/// The release names a case asks releasex about: its expected releases, or
/// the one release its expected error names.
fn asked_releases(case: &Case) -> Vec<String> {
    match case.spec["releases"].as_object() {
        Some(releases) => releases.keys().cloned().collect(),
        None => vec![str_field(&case.spec["error"], "release").unwrap_or_else(|| panic!("{}: error.release", case.name)).to_string()],
    }
}

/// Whether an outcome is what `expect` (an object with `releases` or
/// `error`, whose `key` substring names the error) says; `None` if it is.
fn mismatch(outcome: &Outcome, expect: &Value, key: &str) -> Option<String> {
    match (outcome, expect.get("releases"), expect.get("error")) {
        (Outcome::Values(got), Some(want), _) => {
            let want: BTreeMap<String, Value> = want.as_object().into_iter().flatten().map(|(k, v)| (k.clone(), normalized(v.clone()))).collect();
            (got != &want).then(|| format!("values differ\n  expected {}\n  got      {}", as_json(&want), as_json(got)))
        }
        (Outcome::Failed(err), _, Some(want)) => {
            let want = str_field(want, key).unwrap_or_else(|| panic!("error.{key} missing"));
            (!err.contains(want)).then(|| format!("error does not contain {want:?}:\n{err}"))
        }
        (Outcome::Failed(err), _, None) => Some(format!("expected values, failed:\n{err}")),
        (Outcome::Values(got), None, _) => Some(format!("expected an error, got values {}", as_json(got))),
    }
}

fn as_json(values: &BTreeMap<String, Value>) -> Value {
    Value::Object(values.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

#[test]
fn every_ported_upstream_helmfile_case_gives_the_values_or_error_real_helmfile_gives() {
    let mut failures = Vec::new();
    for case in cases() {
        let outcome = releasex_outcome(&case, &asked_releases(&case));
        let wrong = mismatch(&outcome, &case.spec, "releasex");
        if str_field(&case.spec, "status") == Some("known-failing") {
            let reason = str_field(&case.spec, "reason").unwrap_or_default();
            assert!(!reason.is_empty(), "{}: a known-failing case says why", case.name);
            let still = match (&outcome, case.spec.get("releasex_error"), case.spec.get("releasex_values")) {
                (Outcome::Failed(err), Some(Value::String(want)), _) => err.contains(want.as_str()),
                (Outcome::Values(got), _, Some(want)) => mismatch(&Outcome::Values(got.clone()), &serde_json::json!({ "releases": want }), "releasex").is_none(),
                _ => false,
            };
            if wrong.is_none() {
                failures.push(format!("{}: now passes: remove its known-failing status", case.name));
            } else if !still {
                failures.push(format!("{}: known-failing ({reason}) but fails differently now: {outcome:?}", case.name));
            }
        } else if let Some(wrong) = wrong {
            failures.push(format!("{}: {wrong}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} case(s):\n{}", failures.len(), failures.join("\n\n"));
}

/// Real helmfile 0.166's `template` run on a copy of the case, with the
/// stand-in helm recording each release's flags and real Helm computing
/// the `.Values` from them (as tests/cli/helmfile_templates.rs does).
fn real_helmfile_outcome(case: &Case) -> Outcome {
    let tmp = tempfile::tempdir().expect("tempdir");
    let work = tmp.path().join(&case.name);
    copy_dir(&case.dir, &work);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(UPSTREAM).join("_chart"), &tmp.path().join("_chart"));
    let helm = tmp.path().join("stand-in-helm");
    std::fs::write(&helm, STAND_IN_HELM).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&helm, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let rec = tmp.path().join("rec");
    std::fs::create_dir_all(&rec).expect("mkdir");
    let file = str_field(&case.spec, "helmfile").unwrap_or_default();
    let mut cmd = std::process::Command::new(real_helmfile());
    cmd.env_clear().env("PATH", std::env::var_os("PATH").unwrap_or_default()).env("HOME", tmp.path()).env("REC", &rec);
    cmd.arg("--helm-binary").arg(&helm).args(["-f", file]).args(state_flags(&case.spec)).arg("template");
    cmd.current_dir(&work).env("HELMFILE_V1MODE", v1_mode(&case.spec)).envs(env_vars(&case.spec));
    let out = cmd.output().expect("run helmfile");
    if !out.status.success() {
        return Outcome::Failed(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut calls: Vec<_> = std::fs::read_dir(&rec).expect("recorded").map(|e| e.expect("entry").path()).collect();
    calls.sort_by_key(|p| p.file_name().and_then(|n| n.to_str()).and_then(|n| n.parse::<u32>().ok()));
    let mut values = BTreeMap::new();
    for call in calls {
        let (args, release) = replayable(std::fs::read_to_string(call.join("args")).expect("args").lines().map(String::from).collect());
        let cwd = std::fs::read_to_string(call.join("cwd")).expect("cwd");
        let helm = std::process::Command::new(real_helm("helm4")).args(&args).current_dir(cwd.trim()).env("HOME", tmp.path()).output().expect("run helm");
        assert!(helm.status.success(), "{}: helm {args:?}: {}", case.name, String::from_utf8_lossy(&helm.stderr));
        let text = String::from_utf8_lossy(&helm.stdout).into_owned();
        let printed = text.lines().find_map(|l| l.strip_prefix("values: ")).unwrap_or_else(|| panic!("{}: no values in {text}", case.name));
        values.insert(release, normalized(serde_json::from_str(printed).expect("json")));
    }
    Outcome::Values(values)
}

#[test]
fn every_expected_json_is_what_real_helmfile_0_166_hands_helm() {
    let mut failures = Vec::new();
    for case in cases() {
        let reference = case.spec.get("helmfile_0_166").unwrap_or(&case.spec);
        if let Some(wrong) = mismatch(&real_helmfile_outcome(&case), reference, "helmfile") {
            failures.push(format!("{}: {wrong}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} case(s):\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_case_directory_has_its_source_and_a_row_in_the_index() {
    let index = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(UPSTREAM).join("INDEX.md")).expect("INDEX.md");
    for case in cases() {
        let source = std::fs::read_to_string(case.dir.join("source.txt")).unwrap_or_default();
        assert!(source.contains("helmfile") && source.contains("Proves:"), "{}/source.txt names the upstream test and what it proves", case.name);
        assert!(index.contains(&format!("`{}`", case.name)), "INDEX.md has no row for `{}`", case.name);
        let ported = ["releases", "error"].iter().filter(|k| case.spec.get(**k).is_some()).count();
        assert_eq!(ported, 1, "{}: expected.json has exactly one of releases / error", case.name);
    }
}
