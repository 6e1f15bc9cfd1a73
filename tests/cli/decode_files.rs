use serde_json::Value;

use crate::support::{fails, fixture, json, ok, releasex, run};

const LIST: &str = "tests/fixtures/releases/secret-hook.list.json";

fn golden(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(fixture(&format!("releases/{name}.releases.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

#[test]
fn summary_of_latest_revision_from_a_secret_list() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST]));
}

#[test]
fn record_json_is_the_record_helm_stored_with_its_keys_in_order() {
    let expected = golden("secret-hook");
    for rev in 1..=3 {
        let out = json(&ok(&["release", "decode", "-f", LIST, "--revision", &rev.to_string(), "--show", "record", "-o", "json", "--show-secrets"]));
        let want = &expected[rev - 1];
        assert_eq!(&out, want, "revision {rev}");
        assert_eq!(keys(&out), keys(want), "key order of revision {rev}");
        assert_eq!(keys(&out["info"]), keys(&want["info"]));
        assert_eq!(keys(&out["chart"]), keys(&want["chart"]));
    }
}

#[test]
fn every_input_form_decodes_to_the_same_record() {
    let expected = &golden("secret-hook")[2];
    let forms: &[&[&str]] = &[
        &["-f", LIST],
        &["-f", "tests/fixtures/releases/secret-hook.list.yaml"],
        &["-f", "tests/fixtures/releases/single/secret-v3.yaml"],
        &["-f", "tests/fixtures/releases/dir"],
        &["-f", "tests/fixtures/releases/single/payload-v3.txt"],
        &["-f", "tests/fixtures/releases/single/payload-v3.double.txt"],
        &["demo", "-f", "tests/fixtures/releases/single/secret-v1.json", "-f", "tests/fixtures/releases/single/secret-v3.yaml"],
    ];
    for form in forms {
        let mut args = vec!["release", "decode", "--show", "record", "-o", "json", "--show-secrets"];
        args.extend_from_slice(form);
        assert_eq!(&json(&ok(&args)), expected, "{form:?}");
    }
}

#[test]
fn stdin_is_read_with_dash() {
    let input = std::fs::read(fixture("releases/single/secret-v3.yaml")).unwrap();
    let r = run(releasex().args(["release", "decode", "-f", "-", "-o", "json"]).write_stdin(input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["revision"], 3);
    assert!(json(&r.stdout)["source"].as_str().unwrap().starts_with("<stdin>"));
}

#[test]
fn configmap_records_have_one_base64_layer() {
    let out = json(&ok(&["release", "decode", "-f", "tests/fixtures/releases/configmaps.list.json", "-o", "json"]));
    assert_eq!((out["revision"].as_i64(), out["driver"].as_str()), (Some(3), Some("configmap")));
    for f in ["single/configmap-v2.yaml", "single/configmap-v2.json"] {
        let out = json(&ok(&["release", "decode", "-f", &format!("tests/fixtures/releases/{f}"), "--show", "values", "-o", "json"]));
        assert_eq!(out, serde_json::json!({"replicas": 3}), "{f}");
    }
}

#[test]
fn revision_flag_selects_and_missing_revision_lists_the_available_ones() {
    let out = json(&ok(&["release", "decode", "-f", LIST, "--revision", "2", "-o", "json"]));
    assert_eq!(out["revision"], 2);
    let err = fails(&["release", "decode", "-f", LIST, "--revision", "9"]);
    insta::assert_snapshot!(err, @r#"error: release "demo" has no revision 9 (revisions: 1, 2, 3)"#);
}

#[test]
fn several_releases_in_the_input_need_a_name() {
    let parent = "tests/fixtures/releases/parent-3-revisions.list.json";
    let err = fails(&["release", "decode", "-f", LIST, "-f", parent]);
    assert!(err.contains("holds several releases (demo, rel); name the one to read"), "{err}");
    let out = json(&ok(&["release", "decode", "rel", "-f", LIST, "-f", parent, "-o", "json"]));
    assert_eq!(out["release"], "rel");
    let err = fails(&["release", "decode", "nope", "-f", LIST]);
    assert!(err.contains(r#"release "nope" not found in tests/fixtures/releases/secret-hook.list.json (releases there: demo)"#), "{err}");
}

fn expected_values(release: &str, rev: u32, which: &str) -> Value {
    let text = std::fs::read_to_string(fixture(&format!("expected/{release}.get-values.json"))).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()[rev.to_string()][which].clone()
}

/// The expectations are `helm get values [--all]` from real Helm v4.2.3
/// (tests/fixtures/helm_get_values.py), including the parent chart whose
/// stored values hold a null that `--all` drops.
#[test]
fn values_and_all_values_match_helm_get_values() {
    for (release, file) in [("secret-hook", LIST), ("parent-3-revisions", "tests/fixtures/releases/parent-3-revisions.list.json")] {
        for rev in 1..=3 {
            let r = rev.to_string();
            let user = json(&ok(&["release", "decode", "-f", file, "--revision", &r, "--show", "values", "-o", "json"]));
            assert_eq!(user, expected_values(release, rev, "user"), "{release} rev {rev} values");
            let all = json(&ok(&["release", "decode", "-f", file, "--revision", &r, "--show", "all-values", "-o", "json"]));
            assert_eq!(all, expected_values(release, rev, "all"), "{release} rev {rev} all-values");
        }
    }
}

#[test]
fn values_text_has_helms_header_and_sorted_keys() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--show", "values"]));
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--revision", "1", "--show", "all-values", "-o", "yaml"]));
}

#[test]
fn secrets_in_manifest_and_hooks_are_masked_unless_asked() {
    // "hunter2" base64-encoded, as the Secret template stores it.
    let secret_b64 = "aHVudGVyMg==";
    for view in ["manifest", "hooks", "record"] {
        for format in ["text", "json", "yaml"] {
            let out = ok(&["release", "decode", "-f", LIST, "--revision", "1", "--show", view, "-o", format]);
            assert!(!out.contains(secret_b64), "{view} -o {format} leaks the secret");
            // The user's own values (config) hold "hunter2" in clear, as `helm get values` shows them.
            if view != "record" {
                assert!(!out.contains("hunter2"), "{view} -o {format} leaks the secret");
            }
        }
    }
    let shown = ok(&["release", "decode", "-f", LIST, "--revision", "1", "--show", "manifest", "--show-secrets"]);
    assert!(shown.contains(secret_b64));
}

#[test]
fn manifest_view() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--show", "manifest"]));
    let docs = json(&ok(&["release", "decode", "-f", LIST, "--show", "manifest", "-o", "json"]));
    let kinds: Vec<&str> = docs.as_array().unwrap().iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["Secret", "ConfigMap", "Deployment"]);
    assert_eq!(docs[0]["source"], "secret-hook/templates/secret.yaml");
}

#[test]
fn hooks_view_lists_events_weight_and_policies() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--show", "hooks"]));
    let hooks = json(&ok(&["release", "decode", "-f", LIST, "--show", "hooks", "-o", "json"]));
    let job = hooks.as_array().unwrap().iter().find(|h| h["kind"] == "Job").expect("job hook");
    assert_eq!(job["weight"], -5);
    assert_eq!(job["events"], serde_json::json!(["pre-install", "pre-upgrade"]));
    assert_eq!(job["delete_policies"], serde_json::json!(["before-hook-creation", "hook-succeeded"]));
}

#[test]
fn notes_and_chart_views() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--show", "notes"]));
    insta::assert_snapshot!(ok(&["release", "decode", "-f", LIST, "--show", "chart"]));
    let chart = json(&ok(&["release", "decode", "-f", LIST, "--show", "chart", "-o", "json"]));
    assert_eq!(chart["metadata"]["name"], "secret-hook");
    assert_eq!(chart["files"][0]["name"], "files/config.txt");
}

#[test]
fn one_template_is_printed_decoded() {
    let out = ok(&["release", "decode", "-f", LIST, "--show", "chart", "--template", "secret.yaml"]);
    assert!(out.starts_with("apiVersion: v1\nkind: Secret"), "{out}");
    let err = fails(&["release", "decode", "-f", LIST, "--show", "chart", "--template", "nope.yaml"]);
    assert!(err.contains("has no template or file \"nope.yaml\"; it has: templates/"), "{err}");
    let err = fails(&["release", "decode", "-f", LIST, "--template", "secret.yaml"]);
    assert!(err.contains("--template goes with --show chart"), "{err}");
}

#[test]
fn size_view_accounts_for_the_record_against_the_object_limit() {
    let report = json(&ok(&["release", "decode", "-f", LIST, "--show", "size", "-o", "json"]));
    let parts: u64 = report["parts"].as_array().unwrap().iter().map(|p| p["json_bytes"].as_u64().unwrap()).sum();
    assert_eq!(parts, report["json_bytes"].as_u64().unwrap(), "parts add up to the whole record");
    assert_eq!(report["limit_bytes"], 1048576);
    let text = ok(&["release", "decode", "-f", LIST, "--show", "size"]);
    assert!(text.contains("of Kubernetes' 1 MiB limit") && text.contains("LARGEST ITEMS:"), "{text}");
}

#[test]
fn yaml_output_of_every_view_parses() {
    for view in ["summary", "values", "all-values", "manifest", "hooks", "notes", "chart", "record", "size"] {
        let out = ok(&["release", "decode", "-f", LIST, "--show", view, "-o", "yaml"]);
        assert!(!out.trim().is_empty(), "{view}");
        assert!(!out.contains("error"), "{view}: {out}");
    }
}

#[test]
fn helm3_record_with_empty_times_decodes() {
    insta::assert_snapshot!(ok(&["release", "decode", "-f", "tests/fixtures/releases/helm3-record.secret.json"]));
}

#[test]
fn legacy_uncompressed_record_decodes() {
    let out = json(&ok(&["release", "decode", "-f", "tests/fixtures/releases/legacy-uncompressed.secret.json", "-o", "json"]));
    assert_eq!(out["size"]["gzip"], false);
    assert_eq!(out["release"], "demo");
}

#[test]
fn unknown_fields_are_kept_in_the_record() {
    let out = json(&ok(&["release", "decode", "-f", "tests/fixtures/releases/unknown-field.secret.json", "--show", "record", "-o", "json"]));
    assert_eq!(out["future_field"], serde_json::json!({"x": 1}));
    assert_eq!(out["info"]["future_info"], "y");
}

#[test]
fn color_is_used_only_when_asked_or_on_a_terminal() {
    let plain = ok(&["release", "history", "-f", LIST]);
    assert!(!plain.contains('\u{1b}'));
    let colored = ok(&["release", "history", "-f", LIST, "--color", "always"]);
    assert!(colored.contains("\u{1b}["), "{colored}");
    let r = run(releasex().args(["release", "history", "-f", LIST]).env("CLICOLOR_FORCE", "1"));
    assert!(r.stdout.contains("\u{1b}["));
    let r = run(releasex().args(["release", "history", "-f", LIST, "--color", "auto"]).env("CLICOLOR_FORCE", "1").env("NO_COLOR", "1"));
    assert!(!r.stdout.contains('\u{1b}'));
}
