//! Templated helmfile state files (issue 19): what releasex says a release's
//! values are, compared with what real helmfile 0.166 hands to Helm. A
//! stand-in `helm` records helmfile's calls (and copies the values files it
//! writes); real Helm then computes each release's `.Values` from the
//! recorded flags with a chart that prints them. Both run on a copy of
//! tests/fixtures/helmfile/templated-states, in v0 mode (every state file
//! rendered: helmfile 0.x's default, `HELMFILE_V1MODE=false` for releasex)
//! and v1 mode (`HELMFILE_V1MODE=true`: only `.gotmpl` state files).

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{real_helm, real_helmfile, releasex, run};

const FIXTURE: &str = "tests/fixtures/helmfile/templated-states";

/// Records each `helm ... template ...` call as `$REC/N/args` (one per
/// line; every `--values FILE` copied to `$REC/N/` and named so in the
/// recorded arguments) and the directory helmfile ran it in (a
/// sub-helmfile's own) as `$REC/N/cwd`. helmfile puts `--kube-context X`
/// before `template` when one is set, so the command is found anywhere.
pub(crate) const STAND_IN_HELM: &str = r#"#!/bin/sh
[ "$1" = version ] && { echo 'version.BuildInfo{Version:"v3.15.3"}'; exit 0; }
case " $* " in *" template "*) ;; *) exit 0 ;; esac
d="$REC/$(ls "$REC" | wc -l)"; mkdir -p "$d"; pwd > "$d/cwd"; i=0; prev=
for a in "$@"; do
  if [ "$prev" = --values ]; then cp "$a" "$d/values.$i.yaml"; a="$d/values.$i.yaml"; i=$((i+1)); fi
  printf '%s\n' "$a" >> "$d/args"; prev=$a
done
"#;

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("fixture") {
        let e = e.expect("entry");
        let dst = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() { copy_dir(&e.path(), &dst) } else { std::fs::copy(e.path(), &dst).map(|_| ()).expect("copy") }
    }
}

/// A work copy of the fixture with the stand-in helm.
fn work() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE), dir.path());
    let helm = dir.path().join("stand-in-helm");
    std::fs::write(&helm, STAND_IN_HELM).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&helm, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

fn v1_mode(v1: bool) -> &'static str {
    if v1 { "true" } else { "false" }
}

/// Whole numbers as integers: Helm's toJson prints 3, releasex's JSON 3.0.
pub(crate) fn normalized(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => Value::from(n.as_f64().unwrap_or_default() as i64),
        Value::Array(l) => Value::Array(l.into_iter().map(normalized).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, normalized(v))).collect()),
        v => v,
    }
}

/// Real helmfile's `template` run: each release's `.Values` as real Helm
/// computes them from the flags helmfile passed; `Err` is helmfile's error.
fn helmfile_hands_helm(work: &Path, file: &str, env: &str, v1: bool, tag: Option<&str>) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let rec = work.join("rec");
    let _ = std::fs::remove_dir_all(&rec);
    std::fs::create_dir_all(&rec).expect("mkdir");
    let mut cmd = std::process::Command::new(real_helmfile());
    cmd.arg("--helm-binary").arg(work.join("stand-in-helm")).args(["-f", file, "-e", env, "template"]).current_dir(work).env("REC", &rec).env("HELMFILE_V1MODE", v1_mode(v1));
    cmd.env_remove("RELEASEX_HF_TAG");
    if let Some(t) = tag {
        cmd.env("RELEASEX_HF_TAG", t);
    }
    let out = cmd.output().expect("run helmfile");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut calls: Vec<_> = std::fs::read_dir(&rec).expect("recorded").map(|e| e.expect("entry").path()).collect();
    calls.sort();
    let mut out = BTreeMap::new();
    for call in calls {
        let args: Vec<String> = std::fs::read_to_string(call.join("args")).expect("args").lines().map(String::from).collect();
        let cwd = std::fs::read_to_string(call.join("cwd")).expect("cwd");
        let helm = std::process::Command::new(real_helm("helm4")).args(&args).current_dir(cwd.trim()).env("HOME", work).output().expect("run helm");
        assert!(helm.status.success(), "helm {args:?}: {}", String::from_utf8_lossy(&helm.stderr));
        let text = String::from_utf8_lossy(&helm.stdout).into_owned();
        let values = text.lines().find_map(|l| l.strip_prefix("values: ")).unwrap_or_else(|| panic!("no values in {text}"));
        out.insert(args[1].clone(), normalized(serde_json::from_str(values).expect("json")));
    }
    Ok(out)
}

/// releasex's explanation of one release, as JSON (stdout), or its stderr.
fn releasex_explains(work: &Path, file: &str, env: &str, release: &str, v1: bool, tag: Option<&str>) -> Result<serde_json::Value, String> {
    releasex_explains_with(work, file, env, release, v1, tag, &[])
}

fn releasex_explains_with(work: &Path, file: &str, env: &str, release: &str, v1: bool, tag: Option<&str>, extra: &[&str]) -> Result<serde_json::Value, String> {
    let hf = work.join(file);
    let mut cmd = releasex();
    cmd.args(["explain", "--helmfile"]).arg(&hf).args(["-e", env, "--release", release, "-o", "json"]).args(extra).env("HELMFILE_V1MODE", v1_mode(v1));
    if let Some(t) = tag {
        cmd.env("RELEASEX_HF_TAG", t);
    }
    let r = run(&mut cmd);
    if r.code != 0 {
        return Err(r.stderr);
    }
    Ok(serde_json::from_str(&r.stdout).expect("json"))
}

/// Every release real helmfile hands to Helm has the same `.Values` in releasex.
fn same_values_as_helmfile(file: &str, env: &str, v1: bool) -> BTreeMap<String, serde_json::Value> {
    same_values_as_helmfile_with(file, env, v1, &[])
}

fn same_values_as_helmfile_with(file: &str, env: &str, v1: bool, extra: &[&str]) -> BTreeMap<String, serde_json::Value> {
    let w = work();
    let real = helmfile_hands_helm(w.path(), file, env, v1, Some("v9")).expect("helmfile succeeds");
    assert!(!real.is_empty());
    let mut ours = BTreeMap::new();
    for (release, values) in &real {
        let doc = releasex_explains_with(w.path(), file, env, release, v1, Some("v9"), extra).unwrap_or_else(|e| panic!("{file} {env} {release}: {e}"));
        assert_eq!(&normalized(doc["values"].clone()), values, "{file} -e {env} --release {release} (v1 mode: {v1})");
        ours.insert(release.clone(), doc);
    }
    ours
}

fn entry<'a>(doc: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    doc["entries"].as_array().and_then(|es| es.iter().find(|e| e["path"] == path)).unwrap_or_else(|| panic!("no entry {path} in {doc}"))
}

#[test]
fn environments_ranges_bases_and_inherit_render_as_real_helmfile_in_v0_mode() {
    for env in ["default", "prod"] {
        let ours = same_values_as_helmfile("v0.yaml", env, false);
        let expected: &[&str] = if env == "prod" { &["api", "filed", "tagged", "web", "worker"] } else { &["api", "filed", "tagged", "web"] };
        assert_eq!(ours.keys().map(String::as_str).collect::<Vec<_>>(), expected);
    }
}

#[test]
fn the_same_state_as_gotmpl_renders_as_real_helmfile_in_v1_mode() {
    let ours = same_values_as_helmfile("helmfile.yaml.gotmpl", "prod", true);
    // Attribution through the state file's template: the release's `replicas`
    // was printed by `{{ .replicas }}` inside `range .Values.apps`, a value of env/prod.yaml.
    let replicas = &entry(&ours["worker"], "replicas")["source"];
    assert_eq!(replicas["layer"], "release-values");
    assert!(replicas["file"].as_str().is_some_and(|f| f.ends_with("/helmfile.yaml.gotmpl")), "{replicas}");
    assert_eq!(replicas["line"], 33);
    assert!(replicas["via"]["file"].as_str().is_some_and(|f| f.ends_with("/env/prod.yaml")), "{replicas}");
    assert_eq!((replicas["via"]["line"].as_u64(), replicas["via"]["layer"].as_str()), (Some(8), Some("environment")));
    // The base's template saw the environment name.
    assert_eq!(ours["api"]["values"]["region"], "us-east-1");
}

#[test]
fn a_plain_state_file_is_not_rendered_in_v1_mode_but_its_release_templates_are() {
    same_values_as_helmfile("plain-v1.yaml", "default", true);
    // v0 renders the whole file, where `.Release` does not exist: both fail.
    let w = work();
    let real = helmfile_hands_helm(w.path(), "plain-v1.yaml", "default", false, None).expect_err("helmfile fails in v0 mode");
    assert!(real.contains("can't evaluate field Release"), "{real}");
    let ours = releasex_explains(w.path(), "plain-v1.yaml", "default", "plain", false, None).expect_err("releasex fails too");
    assert!(ours.contains("plain-v1.yaml:11:22") && ours.contains("Release"), "{ours}");
}

#[test]
fn required_env_unset_fails_in_both_naming_the_position() {
    let w = work();
    let real = helmfile_hands_helm(w.path(), "v0.yaml", "prod", false, None).expect_err("helmfile fails");
    assert!(real.contains("required env var `RELEASEX_HF_TAG` is not set"), "{real}");
    let ours = releasex_explains(w.path(), "v0.yaml", "prod", "api", false, None).expect_err("releasex fails");
    assert!(ours.contains("v0.yaml:40:15: template: error calling requiredEnv: required env var `RELEASEX_HF_TAG` is not set"), "{ours}");
}

#[test]
fn missing_values_files_of_a_warn_handler_are_skipped_and_said() {
    let w = work();
    let r = run(releasex().args(["explain", "--helmfile"]).arg(w.path().join("v0.yaml")).args(["--release", "web"]).env("HELMFILE_V1MODE", "false").env("RELEASEX_HF_TAG", "v9"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("release web: skipping missing values file matching \"values/web.yaml\" (missingFileHandler: Warn)"), "{}", r.stderr);
}

#[test]
fn exec_runs_only_with_allow_exec_and_then_prints_what_helmfile_prints() {
    // helmfile runs the command unasked; releasex only with --allow-exec.
    let ours = same_values_as_helmfile_with("exec.yaml.gotmpl", "default", true, &["--allow-exec"]);
    assert_eq!(ours["execd"]["values"]["greeting"], "hello world");
    assert_eq!(ours["execd"]["values"]["fromEnv"], "hi env", "envExec adds its variables");
    assert_eq!(ours["execd"]["values"]["piped"], "PIPED IN", "the input goes to stdin");
    let w = work();
    let err = releasex_explains(w.path(), "exec.yaml.gotmpl", "default", "execd", true, None).expect_err("refused without the flag");
    assert!(err.contains("exec.yaml.gotmpl:10:") && err.contains("`echo hello world`") && err.contains("--allow-exec"), "{err}");
}

#[test]
fn read_file_and_is_file_read_relative_to_the_state_file() {
    let w = work();
    // Run from elsewhere: paths are the state file's directory's, as helmfile's basePath.
    let doc = releasex_explains(w.path(), "helmfile.yaml.gotmpl", "default", "filed", true, Some("v9")).expect("explained");
    assert_eq!(doc["values"]["motd"], "hello from a file");
    assert_eq!(doc["values"]["exists"], true);
}

#[test]
fn sub_helmfiles_get_their_entrys_templated_values_as_real_helmfile_passes_them() {
    let ours = same_values_as_helmfile("parent.yaml.gotmpl", "default", true);
    // The release's name was templated in the sub-helmfile from the entry's values.
    let owner = &entry(&ours["sub-payments"], "owner")["source"];
    assert_eq!((owner["layer"].as_str(), owner["line"].as_u64()), (Some("release-values"), Some(9)));
    assert_eq!((owner["via"]["layer"].as_str(), owner["via"]["line"].as_u64()), (Some("sub-helmfile-values"), Some(11)));
    assert_eq!((owner["via"]["via"]["layer"].as_str(), owner["via"]["via"]["line"].as_u64()), (Some("environment"), Some(5)));
}

#[test]
fn inherited_templates_lose_to_later_templates_and_to_the_releases_own_fields_as_in_helmfile() {
    let ours = same_values_as_helmfile("inherit.yaml.gotmpl", "default", true);
    let v = |r: &str, k: &str| ours[r]["values"][k].clone();
    assert_eq!((v("own-fields", "namespace"), v("own-fields", "tier"), v("own-fields", "team")), ("from-release".into(), "release".into(), "base".into()));
    assert_eq!((v("two-templates", "namespace"), v("two-templates", "tier")), ("from-override".into(), "override".into()));
    assert_eq!((v("except-labels", "tier"), v("except-labels", "team")), ("override".into(), "none".into()));
}
