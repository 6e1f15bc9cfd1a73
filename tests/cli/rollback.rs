//! `rollback-preview` against real Helm rollbacks: the oracle (Helm v4.2.3)
//! installs shop-v1, upgrades to shop-v2, edits live objects, then runs a
//! real `helm rollback` against its fake API server and records every write
//! it sends. The fixture API server is given the release Secrets and the
//! live objects as they stood before that rollback, and the preview must
//! name exactly those writes: each PATCH with its body and content type,
//! each PUT (`--force-replace`), POST and DELETE, and nothing else.

use serde_json::{Value, json};

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{json as parse_json, releasex, run};
use crate::upgrade_objects::oracle;

const V1: &str = "tests/data/upgrade/shop-v1";
const V2: &str = "tests/data/upgrade/shop-v2";

struct Recorded {
    /// What helm rollback sent: method, kind (the URL's resource), name, content type, body.
    writes: Vec<(String, String, String, String, Value)>,
    error: Option<String>,
    api: FixtureApi,
    kubeconfig: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

/// Real Helm: install v1 (`install_flags`), upgrade to v2 (`upgrade_flags`),
/// the live edits, then `helm rollback` with `rollback_flags`.
fn real_rollback(install_flags: &[&str], upgrade_flags: &[&str], rollback_flags: &[&str]) -> Recorded {
    let mut args = vec!["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--keep-templates"];
    args.extend_from_slice(install_flags);
    args.extend(["--then", V2]);
    args.extend_from_slice(upgrade_flags);
    args.push("--rollback");
    args.extend_from_slice(rollback_flags);
    let res = oracle(&args);
    assert_eq!(res["status"], "ok", "{res}");
    let rb = &res["rollback"];
    let mut served: Vec<Value> = rb["before"]["objects"].as_array().unwrap().clone();
    served.extend(rb["before"]["items"].as_array().unwrap().iter().enumerate().map(|(i, s)| as_served(s.clone(), "shop", 100 + i)));
    let api = FixtureApi::start(served);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "shop");
    let writes = rb["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let path = r["path"].as_str().unwrap().split('?').next().unwrap().to_string();
            let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
            // .../namespaces/NS/RESOURCE/NAME, or .../namespaces/NS/RESOURCE for a POST.
            let at = segments.iter().position(|s| *s == "namespaces").unwrap();
            let resource = segments[at + 2].to_string();
            let name = segments.get(at + 3).map_or_else(|| r["body"]["metadata"]["name"].as_str().unwrap().to_string(), |s| s.to_string());
            (r["method"].as_str().unwrap().to_string(), resource, name, r["content_type"].as_str().unwrap().to_string(), r["body"].clone())
        })
        .collect();
    Recorded { writes, error: rb["error"].as_str().map(str::to_string), api, kubeconfig, _dir: dir }
}

impl Recorded {
    fn preview(&self, extra: &[&str]) -> (i32, Value, String) {
        let mut args = vec!["rollback-preview", "shop", "-o", "json", "--show-secrets"];
        args.extend_from_slice(extra);
        let r = run(releasex().env("KUBECONFIG", &self.kubeconfig).args(&args));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        self.api.assert_read_only();
        (r.code, parse_json(&r.stdout), r.stderr)
    }
}

/// The resource a kind is served as (the URL segment of the recorded request).
fn resource(kind: &str) -> String {
    match kind {
        "ServiceMonitor" => "servicemonitors".into(),
        other => format!("{}s", other.to_ascii_lowercase()),
    }
}

/// What the plan says Helm sends, in the recorded requests' shape:
/// (method, resource, name, content type, body) for each object that gets a request.
fn planned(doc: &Value, server_side: bool) -> Vec<(String, String, String, String, Value)> {
    let mut out = Vec::new();
    for o in doc["objects"].as_array().unwrap() {
        let (kind, name, action) = (o["kind"].as_str().unwrap(), o["name"].as_str().unwrap().to_string(), o["action"].as_str().unwrap());
        let request = match (action, o["patch_type"].as_str()) {
            ("delete", _) => Some(("DELETE", "application/json", json!({"propagationPolicy": "Background"}))),
            ("keep", _) => None,
            (_, Some("apply")) => Some(("PATCH", "application/apply-patch+yaml", o["patch"].clone())),
            ("create", _) => Some(("POST", "application/json", Value::Null)),
            (_, Some("replace")) => Some(("PUT", "application/json", o["patch"].clone())),
            // Client-side, Helm sends nothing for an empty patch.
            ("unchanged", _) if !server_side && o["noop_patch"] == false => None,
            (_, Some("strategic")) => Some(("PATCH", "application/strategic-merge-patch+json", o["patch"].clone())),
            (_, Some("merge")) => Some(("PATCH", "application/merge-patch+json", o["patch"].clone())),
            other => panic!("unexpected plan entry {other:?}: {o}"),
        };
        if let Some((method, ctype, body)) = request {
            out.push((method.to_string(), resource(kind), name, ctype.to_string(), body));
        }
    }
    out
}

/// Compares the plan with the recorded writes: the same set of requests;
/// bodies equal (a POST's body is the created object: compared without it).
fn assert_same_requests(doc: &Value, rec: &Recorded, server_side: bool) {
    let mut expected: Vec<_> = rec.writes.iter().map(|(m, r, n, c, b)| (m.clone(), r.clone(), n.clone(), c.clone(), if m == "POST" { Value::Null } else { b.clone() })).collect();
    let mut got = planned(doc, server_side);
    expected.sort_by(|a, b| (&a.1, &a.2, &a.0).cmp(&(&b.1, &b.2, &b.0)));
    got.sort_by(|a, b| (&a.1, &a.2, &a.0).cmp(&(&b.1, &b.2, &b.0)));
    let brief = |l: &[(String, String, String, String, Value)]| l.iter().map(|(m, r, n, c, _)| format!("{m} {r}/{n} {c}")).collect::<Vec<_>>();
    assert_eq!(brief(&got), brief(&expected), "requests differ\nplan: {doc}");
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g.4, e.4, "body of {} {}/{}", e.0, e.1, e.2);
    }
}

#[test]
fn a_client_side_rollback_previews_exactly_the_patches_real_helm_sends() {
    // Revision 1 applied client-side (as Helm 3 did), the Deployment scaled by hand.
    let rec = real_rollback(
        &["--server-side", "false"],
        &[],
        &["--live-merge", r#"/apis/apps/v1/namespaces/shop/deployments/shop={"spec":{"replicas":7}}"#],
    );
    assert_eq!(rec.error, None);
    let (code, doc, stderr) = rec.preview(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!((doc["current"]["revision"].as_i64(), doc["target"]["revision"].as_i64(), doc["revision"].as_i64()), (Some(2), Some(1), Some(3)));
    assert_eq!(doc["server_side"], false);
    assert_same_requests(&doc, &rec, false);
    // shop-kept is live (resource-policy keep) but not in revision 2: Helm
    // patches it from its live state, which carries the server's fields.
    let kept = doc["objects"].as_array().unwrap().iter().find(|o| o["name"] == "shop-kept").unwrap();
    assert_eq!(kept["action"], "adopt");
    assert_eq!(kept["patch"]["metadata"]["uid"], Value::Null);
    // The v1 hook is pre-upgrade/pre-install: a rollback does not run it.
    assert_eq!(doc["hooks"][0]["runs"], false);
    assert_eq!(doc["record"]["description"], "Rollback to 1");
}

#[test]
fn a_server_side_rollback_sends_each_target_object_as_an_apply() {
    let rec = real_rollback(&[], &["--server-side", "false"], &[]);
    assert_eq!(rec.error, None);
    // The target (revision 1) was installed server-side: auto follows it, not the last revision.
    let (code, doc, stderr) = rec.preview(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["server_side"], true);
    assert_same_requests(&doc, &rec, true);
}

#[test]
fn force_replace_previews_the_puts_real_helm_sends() {
    let rec = real_rollback(&["--server-side", "false"], &[], &["--force-replace"]);
    assert_eq!(rec.error, None);
    let (code, doc, stderr) = rec.preview(&["--force-replace"]);
    assert_eq!(code, 0, "{stderr}");
    assert_same_requests(&doc, &rec, false);
    let dep = doc["objects"].as_array().unwrap().iter().find(|o| o["kind"] == "Deployment").unwrap();
    assert_eq!(dep["patch_type"], "replace");
}

#[test]
fn force_replace_with_server_side_apply_fails_as_real_helm_fails() {
    let rec = real_rollback(&[], &[], &["--force-replace"]);
    let error = rec.error.clone().expect("real helm rollback fails");
    let (code, doc, _) = rec.preview(&["--force-replace"]);
    assert_eq!(code, 3);
    assert_eq!(doc["failure"], json!(error));
    assert!(rec.writes.is_empty(), "Helm sent nothing: {:?}", rec.writes.iter().map(|w| &w.0).collect::<Vec<_>>());
}

#[test]
fn a_missing_target_revision_fails_with_helms_error() {
    let rec = real_rollback(&[], &[], &["5"]);
    assert_eq!(rec.error.as_deref(), Some("release has no 5 version"));
    let r = run(releasex().env("KUBECONFIG", &rec.kubeconfig).args(["rollback-preview", "shop", "5"]));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("helm rollback would fail with: release has no 5 version"), "{}", r.stderr);
    let r = run(releasex().env("KUBECONFIG", &rec.kubeconfig).args(["rollback-preview", "shop", "two"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("could not convert revision to a number"), "{}", r.stderr);
    rec.api.assert_read_only();
}

#[test]
fn helm_preview_rollback_is_rollback_preview_under_helm() {
    let rec = real_rollback(&[], &[], &[]);
    let r = run(releasex().env("KUBECONFIG", &rec.kubeconfig).env("HELM_PLUGIN_NAME", "preview").args(["rollback", "shop", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(parse_json(&r.stdout)["target"]["revision"], 1);
}

#[test]
fn rollback_preview_runs_offline_on_stored_records_and_writes_markdown() {
    // No KUBECONFIG: --offline reads the bundled demo's records (real Helm 4.2.3) only.
    let r = run(releasex().args(["rollback-preview", "demo", "1", "--release-file", "examples/demo-release.yaml", "--offline", "-o", "markdown", "--detailed-exitcode"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.starts_with("### Rollback of `demo` (namespace `team-a`): revision 3 → 1, as revision 4\n"), "{}", r.stdout);
    assert!(r.stdout.contains("- `replicas`: `3` → `(not set: the chart's default)`"), "{}", r.stdout);
    assert!(r.stdout.contains("<details><summary>Deployment team-a/demo-app: update</summary>"), "{}", r.stdout);
    assert!(!r.stdout.contains("hunter2") && r.stdout.contains("- `password`: `(not set: the chart's default)` → `<masked>`"), "config secrets stay masked: {}", r.stdout);
}

#[test]
fn helm_diff_rollback_shows_the_rollback_plan_in_helm_diffs_shape() {
    let rec = real_rollback(&["--server-side", "false"], &[], &[]);
    let r = run(releasex().env("KUBECONFIG", &rec.kubeconfig).env("HELM_PLUGIN_NAME", "diff").args(["rollback", "shop", "1", "-n", "shop", "--detailed-exitcode", "--no-explain"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("shop, shop-config, ConfigMap (v1) has changed:"), "{}", r.stdout);
    assert!(r.stdout.contains("-   greeting: hello again\n+   greeting: hello"), "{}", r.stdout);
    assert!(r.stdout.contains("shop, shop-extra, ConfigMap (v1) has been removed:"), "{}", r.stdout);
    assert!(r.stdout.contains("shop, shop-legacy, ConfigMap (v1) has been added:"), "{}", r.stdout);
    assert!(!r.stdout.contains("# releasex:"), "--no-explain: {}", r.stdout);
    rec.api.assert_read_only();
}
