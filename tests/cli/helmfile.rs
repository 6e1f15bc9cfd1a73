//! `values explain --helmfile`: helmfile's state values and a release's
//! values through helmfile and Helm, on the fixture project.

use std::path::Path;

use crate::support::{fails, json, ok, releasex, run};

const HF: &str = "tests/fixtures/helmfile/project/helmfile.yaml";

/// A directory holding a fake `sops` that "decrypts" FILE by printing FILE
/// with `.yaml` replaced by `.decrypted.yaml` (the real code path: a `sops`
/// executable found on PATH).
fn fake_sops() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("sops");
    std::fs::write(&script, "#!/bin/sh\n[ \"$1\" = --decrypt ] || exit 3\nexec cat \"${2%.yaml}.decrypted.yaml\"\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

fn with_sops(args: &[&str]) -> crate::support::Run {
    let sops = fake_sops();
    let path = format!("{}:{}", sops.path().display(), std::env::var("PATH").unwrap_or_default());
    run(releasex().args(args).env("PATH", path))
}

/// Every entry's file and line point at the text that set it.
fn check_positions(doc: &serde_json::Value) {
    for e in doc["entries"].as_array().unwrap() {
        let s = &e["source"];
        let (Some(file), Some(line)) = (s["file"].as_str(), s["line"].as_u64()) else { continue };
        if s["kind"] == "chart-default" {
            continue;
        }
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        let at = text.lines().nth(line as usize - 1).unwrap_or_else(|| panic!("{file}:{line} is beyond the file"));
        let path = e["path"].as_str().unwrap();
        let last = path.rsplit('.').next().unwrap();
        let last = last.split('[').next().unwrap();
        let expr_key = s["expr"].as_str().map(|x| x.split('=').next().unwrap().rsplit('.').next().unwrap().to_string());
        // A key of a multi-line action's output (`toYaml`) is placed at the action.
        let mentions = at.contains(last) || (file.ends_with(".gotmpl") && at.contains("{{")) || expr_key.is_some_and(|k| at.contains(&k)) || e["value"].as_str().is_some_and(|v| at.contains(v))
            || e["value"].as_i64().is_some_and(|v| at.contains(&v.to_string()));
        assert!(mentions, "{path}: {file}:{line} is {at:?}");
    }
}

#[test]
fn state_values_of_the_default_environment() {
    insta::assert_snapshot!(ok(&["values", "explain", "--helmfile", HF]));
}

#[test]
fn state_values_json_positions_are_right() {
    let doc = json(&ok(&["explain", "--helmfile", HF, "-o", "json"]));
    assert_eq!(doc["values"]["replicas"], 1);
    let e = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "replicas").unwrap();
    assert_eq!(e["source"], serde_json::json!({"kind": "helmfile", "layer": "defaults", "file": HF, "line": 7, "column": 15}));
    check_positions(&doc);
}

#[test]
fn prod_with_sops_hcl_and_sparse_cli_overrides() {
    let r = with_sops(&["explain", "--helmfile", HF, "-e", "prod", "--state-values-set", "regions[1]=XX,db.port=6000", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    // Environment list [eu, null] over the defaults' [us, ap] (sparse), then index 1 from the CLI.
    assert_eq!(doc["values"]["regions"], serde_json::json!(["eu", "XX"]));
    assert_eq!(doc["values"]["db"]["password"], "<secret>");
    assert_eq!(doc["values"]["url"], "https://prod-eu-1.example.com");
    let pw = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "db.password").unwrap();
    assert_eq!(pw["source"]["layer"], "secrets");
    assert_eq!(pw["source"]["file"], "tests/fixtures/helmfile/project/secrets/prod.yaml");
    assert_eq!(pw["source"]["line"], 2);
    assert_eq!(pw["source"]["secret"], true);
    check_positions(&doc);
    let shown = with_sops(&["explain", "--helmfile", HF, "-e", "prod", "--show-secrets", "--key", "db.password", "-o", "json"]);
    assert_eq!(json(&shown.stdout)["entries"][0]["value"], "hunter2");
}

#[test]
fn prod_text_with_history() {
    let r = with_sops(&["explain", "--helmfile", HF, "-e", "prod", "--show-overridden"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn encrypted_secrets_without_sops_stop_and_name_the_file() {
    let r = run(releasex().args(["explain", "--helmfile", HF, "-e", "prod"]).env("PATH", "/nonexistent"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("secrets/prod.yaml") && r.stderr.contains("sops"), "{}", r.stderr);
    let r = run(releasex().args(["explain", "--helmfile", HF, "-e", "prod", "--skip-secrets"]).env("PATH", "/nonexistent"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("secrets/prod.yaml: sops-encrypted secrets file skipped"), "{}", r.stderr);
}

#[test]
fn release_through_helmfile_and_a_local_chart() {
    insta::assert_snapshot!(ok(&["explain", "--helmfile", HF, "--release", "web", "--show-overridden"]));
    let doc = json(&ok(&["explain", "--helmfile", HF, "--release", "web", "-o", "json"]));
    let entry = |p: &str| doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == p).unwrap().clone();
    assert_eq!(entry("service.type")["source"]["kind"], "chart-default");
    assert_eq!(entry("service.port")["source"]["line"], 36);
    assert_eq!(entry("image.repository")["source"]["file"], "tests/fixtures/helmfile/project/release/common.yaml");
    assert_eq!(entry("image.tag")["source"]["expr"], "image.tag=1.2.3");
    assert_eq!(entry("build")["value"], "42");
    assert_eq!(entry("auth.token")["value"], "<secret>");
    check_positions(&doc);
}

#[test]
fn remote_chart_says_its_defaults_were_not_read() {
    let r = run(releasex().args(["explain", "--helmfile", HF, "--release", "remote"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("its defaults were not read"), "{}", r.stderr);
    assert!(r.stdout.contains("replicaCount"));
}

#[test]
fn templated_files_stop_or_are_skipped() {
    let tf = "tests/fixtures/helmfile/project/templated.yaml";
    // A vault reference is outside what releasex resolves: the error names file:line:column and the reference.
    let err = fails(&["explain", "--helmfile", tf]);
    assert!(err.contains("env/templated.yaml.gotmpl:2:12: the vals reference ref+vault://secret/app#/domain (backend \"vault\""), "{err}");
    let r = run(releasex().args(["explain", "--helmfile", tf, "--skip-templated"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("plain") && r.stdout.contains("after") && !r.stdout.contains("first"), "{}", r.stdout);
    assert!(r.stderr.contains("--skip-templated"), "{}", r.stderr);
}

#[test]
fn unknown_environment_and_release_are_errors() {
    assert!(fails(&["explain", "--helmfile", HF, "-e", "nope"]).contains("environment \"nope\" is not defined"));
    assert!(fails(&["explain", "--helmfile", HF, "--release", "nope"]).contains("no release named \"nope\""));
}

#[test]
fn state_values_file_replaces_lists_and_set_string_keeps_text() {
    let doc = json(&ok(&[
        "explain", "--helmfile", HF, "--state-values-file", "tests/fixtures/helmfile/project/override.yaml",
        "--state-values-set-string", "replicas=7", "--state-values-set", "regions[2]=three", "-o", "json",
    ]));
    // The file's list replaces the defaults' (sparse, no null); the CLI layer then merges by index.
    assert_eq!(doc["values"]["regions"], serde_json::json!(["one", null, "three"]));
    assert_eq!(doc["values"]["replicas"], "7");
    assert_eq!(doc["values"]["db"]["host"], "from-state-values-file");
    let host = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "db.host").unwrap();
    assert_eq!(host["source"]["layer"], "state-values-file");
    assert_eq!(host["source"]["line"], 3);
    check_positions(&doc);
}

const TPL: &str = "tests/fixtures/helmfile/templates/helmfile.yaml";

fn entry(doc: &serde_json::Value, path: &str) -> serde_json::Value {
    doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == path).unwrap_or_else(|| panic!("no entry {path}")).clone()
}

#[test]
fn environment_templates_see_the_parts_before_them() {
    let doc = json(&ok(&["explain", "--helmfile", TPL, "-e", "prod", "-o", "json"]));
    assert_eq!(doc["values"]["region"], "eu-west-1");
    assert_eq!(doc["values"]["domain"], "prod.example.com");
    assert_eq!(doc["values"]["envName"], "prod");
    // `region: {{ .Values.region }}` is the template's line, via the value's own line.
    let region = entry(&doc, "region")["source"].clone();
    assert_eq!(region["file"], "tests/fixtures/helmfile/templates/env/derived.yaml.gotmpl");
    assert_eq!(region["line"], 2);
    assert_eq!(region["layer"], "environment");
    assert_eq!(region["via"], serde_json::json!({"kind": "helmfile", "layer": "environment", "file": "tests/fixtures/helmfile/templates/env/prod.yaml", "line": 2, "column": 9}));
    // Text around an action: the template's line, no `via`.
    let domain = entry(&doc, "domain")["source"].clone();
    assert_eq!((domain["line"].as_u64(), domain.get("via")), (Some(3), None));
    check_positions(&doc);
    // The default environment reads base.yaml instead.
    let doc = json(&ok(&["explain", "--helmfile", TPL, "-o", "json", "--key", "region"]));
    assert_eq!(doc["entries"][0]["source"]["via"]["file"], "tests/fixtures/helmfile/templates/env/base.yaml");
}

#[test]
fn release_values_template_attribution_through_both_layers() {
    let doc = json(&ok(&["explain", "--helmfile", TPL, "-e", "prod", "--release", "web", "-o", "json"]));
    let tag = entry(&doc, "image.tag");
    // helmfile prints 2.1 unquoted, so Helm reads a float.
    assert_eq!(tag["value"], 2.1);
    assert_eq!(tag["source"]["file"], "tests/fixtures/helmfile/templates/releases/web.yaml.gotmpl");
    assert_eq!(tag["source"]["line"], 3);
    assert_eq!(tag["source"]["layer"], "release-values");
    assert_eq!(tag["source"]["via"]["file"], "tests/fixtures/helmfile/templates/env/prod.yaml");
    assert_eq!(tag["source"]["via"]["line"], 5);
    // Two templates deep: release template <- derived.yaml.gotmpl <- prod.yaml.
    let region = entry(&doc, "ingress.region")["source"].clone();
    assert_eq!((region["line"].as_u64(), region["via"]["line"].as_u64(), region["via"]["via"]["line"].as_u64()), (Some(8), Some(2), Some(2)));
    assert_eq!(region["via"]["via"]["file"], "tests/fixtures/helmfile/templates/env/prod.yaml");
    // Release data: name, namespace, labels; a quoted action keeps its via.
    assert_eq!(entry(&doc, "ingress.name")["value"], "web-apps");
    assert!(entry(&doc, "ingress.name")["source"].get("via").is_none());
    assert_eq!(entry(&doc, "tier")["value"], "frontend");
    assert_eq!(entry(&doc, "ingress.host")["source"]["via"]["file"], "tests/fixtures/helmfile/templates/env/derived.yaml.gotmpl");
    assert_eq!(entry(&doc, "image.repository")["source"]["via"]["layer"], "defaults");
    assert_eq!(entry(&doc, "replicas")["source"]["via"]["line"], 5);
    // `if` on a state value: prod's debug is false.
    assert!(doc["values"].get("debug").is_none());
    assert_eq!(entry(&doc, "resources.limits.cpu")["source"]["line"], 16);
    check_positions(&doc);
    let dev = json(&ok(&["explain", "--helmfile", TPL, "--release", "web", "-o", "json", "--key", "debug", "--key", "dbPassword"]));
    assert_eq!(entry(&dev, "debug")["source"]["line"], 13);
    assert_eq!(dev["values"]["dbPassword"], "none");
    // A secret state value printed by a release template stays a secret.
    assert_eq!(entry(&doc, "dbPassword")["value"], "<secret>");
    assert_eq!(doc["values"]["dbPassword"], "<secret>");
    assert_eq!(entry(&doc, "dbPassword")["source"]["secret"], true);
    assert_eq!(entry(&doc, "dbPassword")["source"]["via"]["file"], "tests/fixtures/helmfile/templates/secrets/prod.yaml");
    let shown = json(&ok(&["explain", "--helmfile", TPL, "-e", "prod", "--release", "web", "-o", "json", "--key", "dbPassword", "--show-secrets"]));
    assert_eq!(shown["entries"][0]["value"], "s3cret");
}

#[test]
fn release_values_template_text() {
    insta::assert_snapshot!(ok(&["explain", "--helmfile", TPL, "-e", "prod", "--release", "web"]));
}

#[test]
fn template_errors_name_the_position_and_are_not_skipped() {
    let hf = "tests/fixtures/helmfile/templates/missing.yaml";
    let err = fails(&["explain", "--helmfile", hf]);
    assert!(err.contains("env/missing.yaml.gotmpl:2:14: template: map has no entry for key \"nope\""), "{err}");
    // helmfile fails here too: --skip-templated skips only what releasex cannot evaluate.
    let err = fails(&["explain", "--helmfile", hf, "--skip-templated"]);
    assert!(err.contains("map has no entry"), "{err}");
    // A templated base is rendered as helmfile renders it: it defines the environment it is loaded for.
    let doc = json(&ok(&["explain", "--helmfile", "tests/fixtures/helmfile/templates/templated-base.yaml", "-e", "anything", "-o", "json"]));
    assert_eq!(doc["values"], serde_json::json!({}));
    // --state-values-set reaches environment templates as .Values.
    let doc = json(&ok(&["explain", "--helmfile", hf, "--state-values-set", "nope=given", "-o", "json"]));
    assert_eq!(doc["values"]["x"], "given");
    assert_eq!(entry(&doc, "x")["source"]["via"]["expr"], "nope=given");
}

const NESTED: &str = "tests/fixtures/helmfile/nested/helmfile.yaml";

#[test]
fn releases_of_sub_helmfiles_with_the_entry_values_as_overrides() {
    let doc = json(&ok(&["explain", "--helmfile", NESTED, "--release", "api", "-e", "prod", "-o", "json"]));
    // The entry's inline `values:` beat the sub-helmfile's root values (they are its overrides).
    assert_eq!(doc["values"]["team"], "payments");
    let team = entry(&doc, "team")["source"].clone();
    assert_eq!(team["file"], "tests/fixtures/helmfile/nested/apps/api.yaml.gotmpl");
    assert_eq!(team["line"], 1);
    assert_eq!(team["via"], serde_json::json!({"kind": "helmfile", "layer": "sub-helmfile-values", "file": NESTED, "line": 13, "column": 15}));
    // The entry's values file, read relative to the parent.
    let tag = entry(&doc, "image.tag")["source"].clone();
    assert_eq!((doc["values"]["image"]["tag"].as_str(), tag["via"]["file"].as_str(), tag["via"]["line"].as_u64()), (Some("9.9"), Some("tests/fixtures/helmfile/nested/overrides.yaml"), Some(2)));
    // The sub-helmfile's own environment (paths relative to it).
    assert_eq!(doc["values"]["replicaCount"], 5);
    assert_eq!(entry(&doc, "replicaCount")["source"]["via"]["layer"], "environment");
    assert_eq!(entry(&doc, "image.repository")["source"]["via"]["file"], "tests/fixtures/helmfile/nested/apps/api.yaml");
    check_positions(&doc);
    // Default environment: the sub's replicas are unset, `get` gives its default.
    let doc = json(&ok(&["explain", "--helmfile", NESTED, "--release", "api", "-o", "json"]));
    assert_eq!(doc["values"]["replicaCount"], 1);
}

#[test]
fn sub_helmfiles_do_not_see_the_parents_values_and_skip_undefined_environments() {
    // The parent's `owner` does not reach plain/helmfile.yaml: getOrNil gives nil, default "nobody".
    let r = run(releasex().args(["explain", "--helmfile", NESTED, "--release", "worker", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["values"], serde_json::json!({"owner": "nobody", "env": "default"}));
    // prod: staging-only.yaml and plain/ define no prod environment, so helmfile skips them.
    let err = fails(&["explain", "--helmfile", NESTED, "--release", "worker", "-e", "prod"]);
    assert!(err.contains("no release named \"worker\""), "{err}");
    assert!(err.contains("staging-only.yaml: sub-helmfile skipped") && err.contains("plain/helmfile.yaml: sub-helmfile skipped"), "{err}");
    // The default environment always exists: the release in staging-only.yaml is found.
    assert!(run(releasex().args(["explain", "--helmfile", NESTED, "--release", "never"])).code == 0);
}

#[test]
fn remote_sub_helmfiles_are_an_error_naming_the_entry() {
    let err = fails(&["explain", "--helmfile", "tests/fixtures/helmfile/nested/remote.yaml", "--release", "x"]);
    assert!(err.contains("remote.yaml: helmfiles[0]: git::https://example.com/org/repo.git@helmfile.yaml?ref=v1: remote sub-helmfiles are not read"), "{err}");
}

#[test]
fn env_and_required_env_read_the_process_environment() {
    let hf = "tests/fixtures/helmfile/templates/envvars.yaml";
    let r = run(releasex().args(["explain", "--helmfile", hf, "-o", "json"]).env("RELEASEX_TEST_TAG", "v7").env_remove("RELEASEX_TEST_UNSET"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["values"], serde_json::json!({"tag": "v7", "other": "none"}));
    let r = run(releasex().args(["explain", "--helmfile", hf]).env_remove("RELEASEX_TEST_TAG"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("envvars.yaml.gotmpl:1:9: template: error calling requiredEnv: required env var `RELEASEX_TEST_TAG` is not set"), "{}", r.stderr);
}

#[test]
fn vals_references_in_release_values_are_noted() {
    let r = run(releasex().args(["explain", "--helmfile", TPL, "--release", "vals"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("ref+vault://secret/app#/password"), "{}", r.stdout);
    assert!(r.stderr.contains("templates/helmfile.yaml:38: password: a vals reference (`ref+...`), which helmfile resolves"), "{}", r.stderr);
}

/// helmfile's code (`rawLoad` passes `env.Merge(overrodeEnv)` as the inherited
/// context, `loadEnvValues` lets the part's own environment values override
/// it): in a one-part helmfile an environment's values beat
/// `--state-values-file`; a later part without environment values leaves the
/// file on top; `--state-values-set` is always last.
#[test]
fn state_values_file_sits_under_the_same_parts_environment_values() {
    let dir = "tests/fixtures/helmfile/cli-precedence";
    let explain = |file: &str, extra: &[&str]| {
        let hf = format!("{dir}/{file}");
        let cli = format!("{dir}/cli.yaml");
        let mut args = vec!["explain", "--helmfile", hf.as_str(), "--state-values-file", cli.as_str(), "-o", "json"];
        args.extend_from_slice(extra);
        json(&ok(&args))
    };
    let one = explain("one-part.yaml", &[]);
    assert_eq!(one["values"]["replicas"], 2.0);
    assert_eq!(one["values"]["region"], "from-env");
    assert_eq!(one["values"]["extra"], "only-in-file");
    assert_eq!(one["values"]["tier"], "from-file", "root values stay below the file");
    let replicas = one["entries"].as_array().unwrap().iter().find(|e| e["path"] == "replicas").unwrap();
    assert_eq!(replicas["source"]["file"], format!("{dir}/one-part.yaml"));
    assert_eq!(replicas["overridden"][0]["source"]["layer"], "state-values-file", "{replicas}");

    let two = explain("two-parts.yaml", &[]);
    assert_eq!(two["values"]["replicas"], 5.0);
    assert_eq!(two["values"]["region"], "from-file");

    let set = explain("one-part.yaml", &["--state-values-set", "replicas=9"]);
    assert_eq!(set["values"]["replicas"], 9);
}

/// helmfile's policy (pkg/policy/checker.go): environments and releases in
/// one part stop current helmfile (the default here) with its words and the
/// file; helmfile 0.x's v0 mode (`HELMFILE_V1MODE=false`) warns and loads it.
#[test]
fn environments_and_releases_in_one_part_stop_as_current_helmfile_and_warn_in_v0_mode() {
    let dir = tempfile::tempdir().unwrap();
    let hf = dir.path().join("helmfile.yaml");
    std::fs::write(&hf, "environments:\n  default:\n    values:\n      - replicas: 2\nreleases:\n  - name: app\n    chart: x/app\n").unwrap();
    let hf = hf.to_str().unwrap();
    let strict = run(releasex().args(["explain", "--helmfile", hf]));
    assert_eq!(strict.code, 1, "{}", strict.stdout);
    assert!(strict.stderr.contains(&format!("{hf}: environments and releases cannot be defined within the same YAML part. Use --- to extract")), "{}", strict.stderr);
    let v0 = run(releasex().args(["explain", "--helmfile", hf, "-o", "json"]).env("HELMFILE_V1MODE", "false"));
    assert_eq!(v0.code, 0, "{}", v0.stderr);
    assert_eq!(json(&v0.stdout)["values"]["replicas"], 2.0);
    assert!(v0.stderr.contains("cannot be defined within the same YAML part") && v0.stderr.contains("helmfile 0.x warns and loads it"), "{}", v0.stderr);
    let order = dir.path().join("order.yaml");
    std::fs::write(&order, "releases: []\n---\nenvironments:\n  default: {}\n").unwrap();
    let r = run(releasex().args(["explain", "--helmfile", order.to_str().unwrap()]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("top-level config key environments must be defined before releases"), "{}", r.stderr);
}
