//! HCL environment values through `values explain --helmfile`, compared
//! with what the real helmfile 0.166.0 binary writes (`helmfile
//! write-values`, its Helm version check answered by real Helm 3).

use std::path::Path;

use crate::support::{json, releasex, run};

const HF: &str = "tests/fixtures/helmfile/hcl/helmfile.yaml";
const BROKEN: &str = "tests/fixtures/helmfile/hcl/broken/helmfile.yaml";


/// `helmfile write-values` for the release `web`, whose values file is the
/// state values as YAML: (exit code, the values as JSON, stderr).
fn helmfile_values(file: &str) -> (i32, serde_json::Value, String) {
    let (helmfile, helm) = (crate::support::real_helmfile(), crate::support::real_helm("helm3"));
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("values.yaml");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = std::process::Command::new(helmfile)
        .args(["--helm-binary"])
        .arg(helm)
        .arg("-f")
        .arg(root.join(file))
        .args(["write-values", "--output-file-template"])
        .arg(&target)
        .current_dir(out.path())
        .output()
        .unwrap();
    // write-values runs `helm dependency build` in the chart; nothing to keep.
    let _ = std::fs::remove_file(root.join("tests/fixtures/helmfile/hcl/chart/Chart.lock"));
    let values = std::fs::read_to_string(&target).map(|t| serde_saphyr::from_str(&t).unwrap()).unwrap_or(serde_json::Value::Null);
    (o.status.code().unwrap_or(-1), values, String::from_utf8_lossy(&o.stderr).into_owned())
}

/// helmfile's values went through JSON into Go values: numbers compare by value.
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => x.as_f64() == y.as_f64(),
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Object(x), Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

#[test]
fn hcl_values_with_functions_are_what_real_helmfile_writes() {
    let (code, theirs, stderr) = helmfile_values(HF);
    assert_eq!(code, 0, "{stderr}");
    let r = run(releasex().args(["values", "explain", "--helmfile", HF, "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ours = &json(&r.stdout)["values"];
    assert!(same(ours, &theirs), "ours:\n{ours:#}\nhelmfile:\n{theirs:#}");
    // Each value is placed in the file and line that defined it.
    let doc = json(&r.stdout);
    let entry = |p: &str| doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == p).unwrap()["source"].clone();
    assert_eq!(entry("ports.metrics")["file"], "tests/fixtures/helmfile/hcl/base.hcl");
    assert_eq!(entry("ports.metrics")["line"], 10);
    assert_eq!(entry("image.ref")["file"], "tests/fixtures/helmfile/hcl/app.hcl");
}

#[test]
fn a_failed_evaluation_names_the_file_line_and_variable_as_helmfile_does() {
    let r = run(releasex().args(["values", "explain", "--helmfile", BROKEN]));
    assert_eq!(r.code, 1, "{}", r.stdout);
    let ours = r.stderr.trim();
    assert_eq!(
        ours,
        "error: tests/fixtures/helmfile/hcl/broken/a.hcl:3:16: HCL: error when trying to evaluate variable url (`\"${hv.x.nope}.example\"`): Unsupported attribute; This object does not have an attribute named \"nope\"."
    );
    let (code, _, theirs) = helmfile_values(BROKEN);
    assert_ne!(code, 0);
    // helmfile: "error when trying to evaluate variable url : a.hcl:3,16-21: Unsupported attribute; ...".
    assert!(theirs.contains("error when trying to evaluate variable url : a.hcl:3,16-21: Unsupported attribute; This object does not have an attribute named \"nope\"."), "{theirs}");
}

/// A `sops` that "decrypts" FILE by printing FILE.decrypted.
fn fake_sops() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("sops");
    std::fs::write(&script, "#!/bin/sh\n[ \"$1\" = --decrypt ] || exit 3\nexec cat \"$2.decrypted\"\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

#[test]
fn encrypted_hcl_secrets_are_decrypted_masked_and_join_the_hcl_pass() {
    let sops = fake_sops();
    let path = format!("{}:{}", sops.path().display(), std::env::var("PATH").unwrap_or_default());
    let r = run(releasex().args(["values", "explain", "--helmfile", HF, "-e", "prod", "-o", "json"]).env("PATH", &path));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    assert_eq!(doc["values"]["db"]["password"], "<secret>");
    // Computed from a secret (and from a plain file's value): secret too.
    assert_eq!(doc["values"]["dsn"], "<secret>");
    assert_eq!(doc["values"]["slug"], "platform-team");
    let shown = run(releasex().args(["values", "explain", "--helmfile", HF, "-e", "prod", "--show-secrets", "-o", "json"]).env("PATH", &path));
    assert_eq!(json(&shown.stdout)["values"]["dsn"], "postgres://admin@db/platform-team");
    let r = run(releasex().args(["values", "explain", "--helmfile", HF, "-e", "prod"]).env("PATH", "/nonexistent"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("tests/fixtures/helmfile/hcl/secrets.hcl: sops-encrypted") && r.stderr.contains("--skip-secrets"), "{}", r.stderr);
    let r = run(releasex().args(["values", "explain", "--helmfile", HF, "-e", "prod", "--skip-secrets", "-o", "json"]).env("PATH", "/nonexistent"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("secrets.hcl: sops-encrypted secrets file skipped"), "{}", r.stderr);
    assert!(json(&r.stdout)["values"].get("db").is_none());
}
