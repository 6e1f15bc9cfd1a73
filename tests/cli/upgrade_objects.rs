//! `upgrade-preview` objects part, end to end: a release installed by real
//! Helm (the oracle) from tests/data/upgrade/shop-v1, its objects live in the
//! fixture API server with server defaults, managedFields and edits made in
//! the cluster, and the upgrade to shop-v2 rendered by real Helm.

use serde_json::{Value, json};

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{json as parse_json, real_helm, releasex, run};

const V1: &str = "tests/data/upgrade/shop-v1";
const V2: &str = "tests/data/upgrade/shop-v2";

pub(crate) fn oracle(args: &[&str]) -> Value {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new(format!("{root}/.venv/bin/python"))
        .arg(format!("{root}/tests/oracle/helm_oracle.py"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("the Helm oracle runs (tests/oracle/setup.sh)");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("oracle output ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// What the API server holds for an object Helm applied: ownership
/// metadata, server fields, and a status.
pub(crate) fn live(mut o: Value, n: usize) -> Value {
    releasex::upgrade::add_ownership(&mut o, "shop", "shop");
    let api_version = o["apiVersion"].clone();
    let meta = o["metadata"].as_object_mut().unwrap();
    meta.insert("namespace".into(), json!("shop"));
    meta.insert("uid".into(), json!(format!("00000000-0000-0000-0000-{n:012}")));
    meta.insert("resourceVersion".into(), json!(format!("{}", 2000 + n)));
    meta.insert("creationTimestamp".into(), json!("2026-11-29T12:00:00Z"));
    meta.insert("managedFields".into(), json!([{"manager": "helm", "operation": "Update", "apiVersion": api_version, "time": "2026-11-29T12:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}}]));
    if o["kind"] == "Secret" {
        // The API server stores stringData as base64 data.
        let plain = o["stringData"]["password"].as_str().unwrap().to_string();
        use base64::Engine as _;
        o["data"] = json!({"password": base64::engine::general_purpose::STANDARD.encode(plain)});
        o.as_object_mut().unwrap().remove("stringData");
    }
    o
}

struct Shop {
    api: FixtureApi,
    dir: tempfile::TempDir,
    kubeconfig: std::path::PathBuf,
    manifest: std::path::PathBuf,
}

/// Installs v1 with real Helm, puts its objects in the cluster with the
/// given edits, renders v2 with real Helm.
fn shop(edit: impl Fn(&mut Vec<Value>)) -> Shop {
    let list = oracle(&["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates"]);
    let secrets: Vec<Value> = list["items"].as_array().unwrap().clone();
    let stored = releasex::release::source::parse_input("oracle", list.to_string().as_bytes()).unwrap();
    let records = releasex::release::decode_history(stored, Some("shop"), "oracle").unwrap();
    let manifest = records.last().unwrap().release.manifest().to_string();
    let mut objects: Vec<Value> = releasex::manifest::split(&manifest)
        .into_iter()
        .flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap())
        .filter(Value::is_object)
        .collect();
    for o in objects.iter_mut() {
        if o["kind"] == "Deployment" {
            // Scaled by hand, and the server's defaults.
            o["spec"]["replicas"] = json!(5);
            o["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = json!("IfNotPresent");
            o["status"] = json!({"replicas": 5});
        }
        if o["kind"] == "ServiceMonitor" {
            o["spec"]["endpoints"][0]["interval"] = json!("10s");
        }
    }
    let mut served: Vec<Value> = objects.into_iter().enumerate().map(|(i, o)| live(o, i + 1)).collect();
    edit(&mut served);
    served.extend(secrets.into_iter().enumerate().map(|(i, s)| as_served(s, "shop", 100 + i)));
    let api = FixtureApi::start(served);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "shop");
    let rendered = oracle(&["render", V2, "--name", "shop", "--namespace", "shop"]);
    let manifest_path = dir.path().join("v2.yaml");
    std::fs::write(&manifest_path, rendered["manifest"].as_str().unwrap()).unwrap();
    Shop { api, dir, kubeconfig, manifest: manifest_path }
}

impl Shop {
    fn preview(&self, extra: &[&str]) -> crate::support::Run {
        let manifest = self.manifest.display().to_string();
        let mut args = vec!["upgrade-preview", "shop", V2, "--manifest", &manifest];
        args.extend_from_slice(extra);
        let r = run(releasex().env("KUBECONFIG", &self.kubeconfig).args(&args));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        let _ = &self.dir;
        r
    }
}

fn object<'a>(doc: &'a Value, kind: &str, name: &str) -> &'a Value {
    doc["objects"].as_array().unwrap().iter().find(|o| o["kind"] == kind && o["name"] == name).unwrap_or_else(|| panic!("no {kind} {name} in {doc}"))
}

#[test]
fn every_object_gets_the_action_and_patch_helm_would_send() {
    let s = shop(|_| {});
    // Client-side apply, as releases made by Helm 3 or with --server-side=false.
    let r = s.preview(&["--server-side", "false", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    assert_eq!(doc["baseline"]["revision"], 1);
    assert_eq!(doc["server_side"], false);
    let action = |k: &str, n: &str| object(&doc, k, n)["action"].as_str().unwrap().to_string();
    assert_eq!(action("Deployment", "shop"), "update");
    assert_eq!(action("Service", "shop"), "unchanged");
    assert_eq!(action("ConfigMap", "shop-config"), "update");
    assert_eq!(action("ConfigMap", "shop-extra"), "create");
    assert_eq!(action("ConfigMap", "shop-legacy"), "delete");
    assert_eq!(action("ConfigMap", "shop-kept"), "keep");
    // The three-way patch resets the scaled replicas and bumps the image; the server's default stays.
    let dep = object(&doc, "Deployment", "shop");
    assert_eq!(dep["patch_type"], "strategic");
    assert_eq!(dep["patch"]["spec"]["replicas"], 2);
    assert_eq!(dep["patch"]["spec"]["template"]["spec"]["containers"][0]["image"], "shop:2.0");
    let drift = dep["drift"].as_array().unwrap();
    assert!(drift.iter().any(|d| d["path"] == "spec.replicas" && d["live"] == 5 && d["upgrade"] == "reset"), "{drift:?}");
    // The custom resource: two-way merge patch, the live edit survives.
    let sm = object(&doc, "ServiceMonitor", "shop");
    assert_eq!(sm["patch_type"], "merge");
    assert!(sm["drift"].as_array().unwrap().iter().any(|d| d["path"] == "spec.endpoints[0].interval" && d["upgrade"] == "kept"), "{sm}");
    // Secret values never appear in the objects.
    assert!(!doc["objects"].to_string().contains("s3cret"), "a secret leaked: {}", doc["objects"]);
    s.api.assert_read_only();
}

#[test]
fn releases_installed_by_helm_4_are_upgraded_with_server_side_apply() {
    let s = shop(|_| {});
    let r = s.preview(&["-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    assert_eq!(doc["server_side"], true, "Helm 4 records apply_method ssa and auto follows it");
    let dep = object(&doc, "Deployment", "shop");
    assert_eq!(dep["patch_type"], "apply");
    assert_eq!(dep["action"], "update");
    assert_eq!(dep["patch"]["metadata"]["labels"]["app.kubernetes.io/managed-by"], "Helm");
    assert_eq!(object(&doc, "Service", "shop")["action"], "unchanged");
    s.api.assert_read_only();
}

#[test]
fn text_output_leads_with_the_plan_and_shows_each_change_as_a_diff() {
    let s = shop(|_| {});
    let r = s.preview(&["--server-side", "false"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
    let plan_line = r.stdout.lines().position(|l| l.starts_with("Plan:")).expect("a Plan: line");
    assert!(plan_line < 4, "the plan is on the first screen:\n{}", r.stdout);
    assert!(r.stdout.contains("Plan: 1 to create, 2 to update, 1 to delete, 1 kept (resource-policy), 3 unchanged"), "{}", r.stdout);
    assert!(r.stdout.contains("Deployment shop/shop: update (strategic patch)"), "{}", r.stdout);
    assert!(r.stdout.contains("-  replicas: 5") && r.stdout.contains("+  replicas: 2"), "{}", r.stdout);
    assert!(!r.stdout.contains("$setElementOrder"), "the wire patch only with --show-patch");
    assert!(s.preview(&["--server-side", "false", "--show-patch"]).stdout.contains("the patch Helm sends:"));
    assert!(!r.stdout.contains("s3cret"), "a secret leaked");
    let shown = s.preview(&["--show-secrets", "--server-side", "false", "-o", "json"]);
    assert!(parse_json(&shown.stdout)["objects"].to_string().contains("s3cret-v1"), "--show-secrets shows them");
}

#[test]
fn detailed_exitcode_and_ignore_rules() {
    let s = shop(|_| {});
    assert_eq!(s.preview(&["--detailed-exitcode", "-o", "json"]).code, 2);
    let r = s.preview(&["--ignore", "Deployment:spec.replicas", "--server-side", "false", "-o", "json"]);
    let doc = parse_json(&r.stdout);
    let dep = object(&doc, "Deployment", "shop");
    assert!(dep["patch"]["spec"].get("replicas").is_none(), "{dep}");
    assert!(!dep["drift"].as_array().unwrap().iter().any(|d| d["path"] == "spec.replicas"));
}

#[test]
fn an_object_of_another_release_fails_like_helm_upgrade() {
    let s = shop(|objects| {
        let mut other = live(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shop-extra"}, "data": {}}), 77);
        releasex::upgrade::add_ownership(&mut other, "someone-else", "shop");
        objects.push(other);
    });
    let r = s.preview(&[]);
    assert_eq!(r.code, 3, "{}", r.stdout);
    assert!(r.stdout.lines().nth(2).is_some_and(|l| l.starts_with("helm upgrade would fail:")), "the failure comes first: {}", r.stdout);
    assert!(r.stdout.contains("Plan: nothing changes: Helm stops before applying anything"), "{}", r.stdout);
    assert!(
        r.stdout.contains("UPGRADE FAILED: unable to continue with update: ConfigMap \"shop-extra\" in namespace \"shop\" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key \"meta.helm.sh/release-name\" must equal \"shop\": current value is \"someone-else\""),
        "{}",
        r.stdout
    );
    // --take-ownership adopts it instead.
    let r = s.preview(&["--take-ownership", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(object(&parse_json(&r.stdout), "ConfigMap", "shop-extra")["action"], "adopt");
    s.api.assert_read_only();
}


/// The Helm 4.2.3 shim (`tests/helm_shim/helm`: `helm template` answered by
/// the oracle library); only `renders_through_helm_bin_as_the_upgrade_would`
/// uses it, to show the oracle's render and real Helm 4.1.4's agree. Every
/// other render in these tests goes through a real Helm binary.
fn shim() -> String {
    format!("{}/tests/helm_shim/helm", env!("CARGO_MANIFEST_DIR"))
}

/// `HELM_BIN` = the real Helm 4 binary, with a throwaway HOME for its caches.
fn with_real_helm4<'c>(cmd: &'c mut assert_cmd::Command, home: &tempfile::TempDir) -> &'c mut assert_cmd::Command {
    cmd.env("HELM_BIN", real_helm("helm4")).env("HOME", home.path())
}

#[test]
fn renders_through_helm_bin_as_the_upgrade_would() {
    let s = shop(|_| {});
    let given = parse_json(&s.preview(&["-o", "json"]).stdout);
    let home = tempfile::tempdir().unwrap();
    let r = run(with_real_helm4(releasex().env("KUBECONFIG", &s.kubeconfig), &home).args(["upgrade-preview", "shop", V2, "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rendered = parse_json(&r.stdout);
    let actions = |d: &Value| -> Vec<(String, String, String)> {
        d["objects"].as_array().unwrap().iter().map(|o| (o["kind"].to_string(), o["name"].to_string(), o["action"].to_string())).collect()
    };
    assert_eq!(actions(&rendered), actions(&given), "Helm's own render gives the same plan as its manifest");
    let by_oracle = run(releasex().env("KUBECONFIG", &s.kubeconfig).env("HELM_BIN", shim()).args(["upgrade-preview", "shop", V2, "-o", "json"]));
    assert_eq!(by_oracle.code, 0, "{}", by_oracle.stderr);
    assert_eq!(parse_json(&by_oracle.stdout), rendered, "Helm 4.2.3 (the oracle) and real Helm 4.1.4 render the same upgrade");
    // helm template prints hooks; they are listed apart, never patched.
    let hooks = rendered["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    assert_eq!(hooks[0]["name"], "shop-migrate");
    assert_eq!(hooks[0]["events"], json!(["pre-upgrade", "pre-install"]));
    s.api.assert_read_only();
}

#[test]
fn reuse_values_renders_with_the_old_values_in_place_of_the_new_defaults() {
    let s = shop(|_| {});
    let home = tempfile::tempdir().unwrap();
    let preview = |mode: &str| {
        let r = run(with_real_helm4(releasex().env("KUBECONFIG", &s.kubeconfig), &home)
            .args(["upgrade-preview", "shop", V2, mode, "--set", "replicas=3", "--server-side", "false", "-o", "json"]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        parse_json(&r.stdout)
    };
    let reuse = preview("--reuse-values");
    let dep = object(&reuse, "Deployment", "shop");
    assert_eq!(dep["patch"]["spec"]["replicas"], 3);
    // The old chart's image default stays: the new values.yaml is not used.
    assert!(dep["patch"]["spec"].get("template").is_none(), "image unchanged under --reuse-values: {dep}");
    assert_eq!(object(&reuse, "ConfigMap", "shop-config")["action"], "unchanged");
    let reset = preview("--reset-values");
    assert_eq!(object(&reset, "Deployment", "shop")["patch"]["spec"]["template"]["spec"]["containers"][0]["image"], "shop:2.0");
}

#[test]
fn rendering_with_helm_but_without_helm_the_error_says_how_to_pass_a_manifest() {
    let s = shop(|_| {});
    let r = run(releasex().env("KUBECONFIG", &s.kubeconfig).env("PATH", "/nonexistent").args(["upgrade-preview", "shop", V2, "--render-with-helm"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("HELM_BIN") && r.stderr.contains("--manifest"), "{}", r.stderr);
}

#[test]
fn without_helm_the_upgrade_renders_in_process_with_the_upgrade_s_revision() {
    let s = shop(|_| {});
    let home = tempfile::tempdir().unwrap();
    let with_helm = run(releasex().env("KUBECONFIG", &s.kubeconfig).env("HELM_BIN", real_helm("helm4")).env("HOME", home.path()).args(["upgrade-preview", "shop", V2, "-o", "json", "--render-with-helm"]));
    let r = run(releasex().env("KUBECONFIG", &s.kubeconfig).env("PATH", "/nonexistent").env_remove("HELM_BIN").args(["upgrade-preview", "shop", V2, "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(with_helm.code, 0, "{}", with_helm.stderr);
    let (native, helm) = (parse_json(&r.stdout), parse_json(&with_helm.stdout));
    assert_eq!(native["objects"], helm["objects"], "the same plan, rendered in process and by Helm");
    s.api.assert_read_only();
}

#[test]
fn server_side_apply_predicts_conflicts_with_other_field_managers() {
    let s = shop(|objects| {
        let dep = objects.iter_mut().find(|o| o["kind"] == "Deployment").unwrap();
        dep["spec"]["template"]["spec"]["containers"][0]["image"] = json!("shop:hotfix");
        dep["metadata"]["managedFields"] = json!([
            {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "time": "2026-11-29T12:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"shop\"}": {".": {}, "f:name": {}}}}}}}},
            {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-11-29T13:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"shop\"}": {"f:image": {}}}}}}}}
        ]);
    });
    let r = s.preview(&["-o", "json"]);
    assert_eq!(r.code, 3, "the upgrade would fail: {}", r.stderr);
    let doc = parse_json(&r.stdout);
    let dep = object(&doc, "Deployment", "shop");
    assert_eq!(dep["action"], "conflict");
    let failure = doc["failure"].as_str().unwrap();
    assert!(
        failure.contains("conflict occurred while applying object shop/shop apps/v1, Kind=Deployment: Apply failed with 1 conflict: conflict with \"kubectl-edit\" using apps/v1: .spec.template.spec.containers[name=\"shop\"].image"),
        "{failure}"
    );
    // No deletions when an update fails.
    assert!(object(&doc, "ConfigMap", "shop-legacy")["notes"].to_string().contains("deletes nothing"));
    let forced = s.preview(&["--force-conflicts", "-o", "json"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let dep = object(&parse_json(&forced.stdout), "Deployment", "shop").clone();
    assert_eq!(dep["action"], "update");
    assert!(dep["notes"].to_string().contains("would take over .spec.template.spec.containers[name=\\\"shop\\\"].image from \\\"kubectl-edit\\\" using apps/v1"), "{dep}");
    s.api.assert_read_only();
}

#[test]
#[ignore = "prints the docs/upgrade-preview.md walkthrough"]
fn print_readme_walkthrough() {
    let s = shop(|_| {});
    let home = tempfile::tempdir().unwrap();
    let r = run(with_real_helm4(releasex().env("KUBECONFIG", &s.kubeconfig), &home).args(["upgrade-preview", "shop", V2, "-n", "shop", "--server-side", "false"]));
    println!("{}\n---stderr---\n{}", r.stdout, r.stderr);
}

/// The shop upgrade rendered with extra value flags (real Helm), as a manifest file.
fn render_with(s: &Shop, flags: &[&str]) -> String {
    let mut args = vec!["render", V2, "--name", "shop", "--namespace", "shop"];
    args.extend_from_slice(flags);
    let rendered = oracle(&args);
    let path = s.dir.path().join("v2-flags.yaml");
    std::fs::write(&path, rendered["manifest"].as_str().unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn a_rotated_secret_of_the_same_length_shows_as_a_change_without_its_value() {
    let s = shop(|_| {});
    let manifest = render_with(&s, &["--set", "password=s3cret-v2"]);
    let run_with = |extra: &[&str]| {
        let mut args = vec!["upgrade-preview", "shop", V2, "--manifest", manifest.as_str(), "--server-side", "false"];
        args.extend_from_slice(extra);
        run(releasex().env("KUBECONFIG", &s.kubeconfig).args(&args))
    };
    let r = run_with(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Secret shop/shop-secret: update"), "{}", r.stdout);
    assert!(r.stdout.contains("-  password: <9 bytes>") && r.stdout.contains("+  password: <changed, 9 bytes>"), "{}", r.stdout);
    for leak in ["s3cret", "czNjcmV0"] {
        assert!(!r.stdout.contains(leak) && !r.stderr.contains(leak), "a secret leaked ({leak}): {}", r.stdout);
    }
    // --show-secrets shows the values decoded.
    let shown = run_with(&["--show-secrets"]);
    assert!(shown.stdout.contains("-  password: s3cret-v1") && shown.stdout.contains("+  password: s3cret-v2"), "{}", shown.stdout);
    // --suppress-secrets names the Secret only.
    let named = run_with(&["--suppress-secrets"]);
    assert!(named.stdout.contains("Secret shop/shop-secret: update") && !named.stdout.contains("password:"), "{}", named.stdout);
    s.api.assert_read_only();
}

#[test]
fn listing_options_hide_kinds_and_unchanged_objects_but_not_from_the_plan() {
    let s = shop(|_| {});
    let r = s.preview(&["--server-side", "false", "--suppress", "ConfigMap"]);
    assert!(!r.stdout.contains("ConfigMap shop/"), "{}", r.stdout);
    assert!(r.stdout.contains("Plan: 1 to create, 2 to update, 1 to delete"), "the counts keep suppressed kinds: {}", r.stdout);
    assert!(!r.stdout.contains("Service shop/shop: unchanged"), "{}", r.stdout);
    let all = s.preview(&["--server-side", "false", "--show-unchanged"]);
    assert!(all.stdout.contains("Service shop/shop: unchanged"), "{}", all.stdout);
    // -C 0: only the changed lines.
    let tight = s.preview(&["--server-side", "false", "-C", "0"]);
    let dep = &tight.stdout[tight.stdout.find("Deployment shop/shop").unwrap()..];
    assert!(dep.contains("-  replicas: 5") && !dep.contains("    selector:"), "{dep}");
}

#[test]
fn json_has_the_plan_counts_and_a_diff_per_object() {
    let s = shop(|_| {});
    let doc = parse_json(&s.preview(&["--server-side", "false", "-o", "json"]).stdout);
    crate::json_contracts::assert_matches("upgrade-preview.json", &doc);
    crate::json_contracts::assert_matches("upgrade-preview.json", &parse_json(&s.preview(&["-o", "json"]).stdout));
    assert_eq!(doc["plan"], json!({"create": 1, "update": 2, "delete": 1, "adopt": 0, "keep": 1, "unchanged": 3, "conflict": 0, "hooks": 0, "crds": 0}));
    let dep = object(&doc, "Deployment", "shop");
    assert!(dep["diff"].as_str().unwrap().contains("+  replicas: 2"), "{dep}");
    assert_eq!(dep["noop_patch"], false);
    assert_eq!(object(&doc, "Service", "shop")["diff"], Value::Null);
}

#[test]
fn an_ignored_field_leaves_the_diff_and_a_rule_that_matches_nothing_is_a_warning() {
    let s = shop(|_| {});
    let r = s.preview(&["--server-side", "false", "--ignore", "Deployment:spec.replicas", "--ignore", "spec.replicaz"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dep = &r.stdout[r.stdout.find("Deployment shop/shop").unwrap()..];
    assert!(!dep.contains("replicas: 5") && dep.contains("+        image: shop:2.0"), "{dep}");
    assert!(r.stderr.contains("--ignore spec.replicaz: no object has this field"), "{}", r.stderr);
    assert!(!r.stderr.contains("--ignore Deployment:spec.replicas"), "{}", r.stderr);
}

#[test]
fn markdown_is_a_pull_request_comment_under_githubs_size_limit() {
    let s = shop(|_| {});
    let r = s.preview(&["--server-side", "false", "-o", "markdown"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
    // A render of 3,000 new objects: the comment stays under the limit and says what it left out.
    let big: String = (0..3000)
        .map(|i| format!("---\n# Source: shop/templates/many.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: many-{i}\ndata:\n  text: \"{}\"\n", "x".repeat(200)))
        .collect();
    let path = s.dir.path().join("big.yaml");
    std::fs::write(&path, big).unwrap();
    let path = path.display().to_string();
    let r = run(releasex().env("KUBECONFIG", &s.kubeconfig).args(["upgrade-preview", "shop", V2, "--manifest", &path, "-o", "markdown"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.chars().count() < 65_000, "{} characters", r.stdout.chars().count());
    assert!(r.stdout.contains("more objects not shown here"), "{}", &r.stdout[r.stdout.len().saturating_sub(2000)..]);
    assert!(r.stdout.contains("| create | update |"));
    let text = run(releasex().env("KUBECONFIG", &s.kubeconfig).args(["upgrade-preview", "shop", V2, "--manifest", &path]));
    let plan = text.stdout.lines().position(|l| l.starts_with("Plan:")).expect("a plan line");
    assert!(plan < 10, "the plan of 3,000 objects is on the first screen: line {plan}");
    let err = crate::support::fails(&["explain", V2, "-o", "markdown"]);
    assert!(err.contains("-o markdown is for upgrade-preview"), "{err}");
}

/// kube-prometheus-stack (about 6,000 lines of values, 5 subcharts) installed
/// by real Helm with `--set grafana.enabled=false`, upgraded with one of its CI
/// values files: the default mode drops the stored value, and that is on the
/// first screen, not after thousands of lines.
#[test]
fn on_a_large_chart_the_dropped_value_is_on_the_first_screen() {
    const KPS: &str = "tests/data/corpus/kube-prometheus-stack";
    let list = oracle(&["release-secrets", KPS, "--set", "grafana.enabled=false", "--name", "kps", "--namespace", "monitoring", "--as-list"]);
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("kps.json");
    std::fs::write(&records, list.to_string()).unwrap();
    let records = records.display().to_string();
    let ci = format!("{KPS}/ci/03-non-defaults-values.yaml");
    let r = run(releasex().args(["upgrade-preview", "kps", KPS, "--release-file", &records, "-f", &ci, "--values-only"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r.stdout.lines().position(|l| l.contains("grafana.enabled: false → true")).expect("the dropped value is listed");
    assert!(line < 30, "line {line}:\n{}", r.stdout);
    assert!(r.stdout.lines().count() < 200, "new defaults are a count, not a list: {} lines", r.stdout.lines().count());
}

#[test]
fn an_object_missing_from_the_cluster_is_diffed_against_the_previous_release() {
    let s = shop(|objects| objects.retain(|o| o["metadata"]["name"] != "shop-config"));
    let r = s.preview(&["--server-side", "false"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cm = &r.stdout[r.stdout.find("ConfigMap shop/shop-config: create").expect("created again")..];
    let cm = &cm[..cm[1..].find("\n\n").map_or(cm.len(), |i| i + 1)];
    assert!(cm.contains("-  greeting: hello") && cm.contains("+  greeting: hello again"), "{cm}");
    assert!(!cm.contains("+apiVersion: v1"), "only what differs from the release: {cm}");
}

#[test]
fn the_post_renderer_runs_on_helms_render_and_its_output_is_what_the_plan_compares() {
    let s = shop(|_| {});
    // Helm 3 runs --post-renderer as an executable (Helm 4 takes a plugin's name).
    let script = s.dir.path().join("add-configmap.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat\nprintf -- '---\\napiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: added-by-%s\\ndata:\\n  from: post-renderer\\n' \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = tempfile::tempdir().unwrap();
    let r = run(releasex()
        .env("KUBECONFIG", &s.kubeconfig)
        .env("HELM_BIN", real_helm("helm3"))
        .env("HOME", home.path())
        .args(["upgrade-preview", "shop", V2, "-o", "json", "--post-renderer"])
        .arg(&script)
        .args(["--post-renderer-args", "team-x"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    let added = object(&doc, "ConfigMap", "added-by-team-x");
    assert_eq!(added["action"], "create", "{added}");
    // The rest of the plan is the one Helm's own render gives.
    assert_eq!(object(&doc, "Deployment", "shop")["action"], "update");
    s.api.assert_read_only();
}

#[test]
fn kube_version_api_versions_and_enable_dns_reach_the_templates_rendered_by_real_helm() {
    let s = shop(|_| {});
    let chart = s.dir.path().join("shop-v2");
    let copy = std::process::Command::new("cp").arg("-r").arg(V2).arg(&chart).status().unwrap();
    assert!(copy.success());
    std::fs::write(
        chart.join("templates/caps.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop-caps\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n  example: {{ .Capabilities.APIVersions.Has \"example.io/v1\" | quote }}\n  dns: {{ getHostByName \"localhost\" | quote }}\n",
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let preview = |extra: &[&str]| {
        let r = run(releasex()
            .env("KUBECONFIG", &s.kubeconfig)
            .env("HELM_BIN", real_helm("helm4"))
            .env("HOME", home.path())
            .args(["upgrade-preview", "shop"])
            .arg(&chart)
            .args(["-o", "json", "--show-patch"])
            .args(extra));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let doc = parse_json(&r.stdout);
        object(&doc, "ConfigMap", "shop-caps")["diff"].as_str().unwrap_or_default().to_string()
    };
    // The fixture API server says Kubernetes v1.33.0 and serves no example.io.
    let from_cluster = preview(&[]);
    assert!(from_cluster.contains("+  kube: v1.33.0\n") && from_cluster.contains("+  example: \"false\"\n"), "{from_cluster}");
    // Without --enable-dns, Helm's getHostByName returns "" (helm: pkg/engine/funcs.go).
    assert!(from_cluster.contains("+  dns: \"\"\n"), "{from_cluster}");
    let overridden = preview(&["--kube-version", "v1.99.1", "--api-versions", "example.io/v1", "--enable-dns"]);
    assert!(!overridden.contains("+  dns: \"\"\n") && overridden.contains("+  dns: "), "{overridden}");
    assert!(overridden.contains("+  kube: v1.99.1\n") && overridden.contains("+  example: \"true\"\n"), "{overridden}");
    s.api.assert_read_only();
}

#[test]
fn no_hooks_stores_the_hooks_but_runs_none() {
    let s = shop(|_| {});
    // Rendered by real Helm 4, which prints the hooks too.
    let home = tempfile::tempdir().unwrap();
    let preview = |extra: &[&str]| {
        let r = run(with_real_helm4(releasex().env("KUBECONFIG", &s.kubeconfig), &home).args(["upgrade-preview", "shop", V2]).args(extra));
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let doc = parse_json(&preview(&["-o", "json", "--no-hooks"]));
    let hooks = doc["hooks"].as_array().unwrap();
    assert!(!hooks.is_empty() && hooks.iter().all(|h| h["runs"] == false), "{hooks:?}");
    let with_hooks = parse_json(&preview(&["-o", "json"]));
    assert!(with_hooks["hooks"].as_array().unwrap().iter().all(|h| h["runs"] == true));
    let text = preview(&["--no-hooks", "--color", "never"]);
    assert!(text.contains("stored, not run (--no-hooks)") && text.contains("Hooks (--no-hooks: stored in the new record, none of them runs):"), "{text}");
    s.api.assert_read_only();
}

#[test]
fn offline_compares_with_the_stored_manifest_and_contacts_no_api_server() {
    let s = shop(|_| {});
    let list = oracle(&["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates"]);
    let records = s.dir.path().join("records.json");
    std::fs::write(&records, list.to_string()).unwrap();
    let manifest = s.manifest.display().to_string();
    let records_arg = records.display().to_string();
    let offline = |extra: &[&str]| {
        // No KUBECONFIG, no HOME: nothing to connect to.
        let r = run(releasex().args(["upgrade-preview", "shop", V2, "-n", "shop", "--offline", "--release-file", &records_arg, "--manifest", &manifest]).args(extra));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        r
    };
    let r = offline(&["-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    assert_eq!(doc["offline"], true);
    let online = parse_json(&s.preview(&["-o", "json"]).stdout);
    assert_eq!(online["offline"], false);
    let actions = |d: &Value| -> Vec<(String, String, String)> {
        let mut a: Vec<_> = d["objects"].as_array().unwrap().iter().map(|o| (o["kind"].to_string(), o["name"].to_string(), o["action"].to_string())).collect();
        a.sort();
        a
    };
    // The same objects are created, updated and deleted, except the one the
    // cluster changed: online, Helm's patch resets the edited ServiceMonitor.
    let mut expected = actions(&online);
    for a in expected.iter_mut().filter(|a| a.0 == "\"ServiceMonitor\"") {
        a.2 = "\"unchanged\"".into();
    }
    assert_eq!(actions(&doc), expected);
    assert!(doc["objects"].as_array().unwrap().iter().all(|o| o["drift"].as_array().unwrap().is_empty()), "drift is unknown offline");
    // The hand-scaled Deployment drifted in the cluster; offline cannot see it, online does.
    assert!(!object(&online, "Deployment", "shop")["drift"].as_array().unwrap().is_empty());
    let text = offline(&["--color", "never"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.starts_with("offline: diffed against revision 1's stored manifest; live state not read\n"), "{}", text.stdout);
    // Exit codes keep their meaning.
    assert_eq!(offline(&["--detailed-exitcode"]).code, 2);
    // Without records from a file there is nothing to read offline.
    let r = run(releasex().args(["upgrade-preview", "shop", V2, "--offline", "--manifest", &manifest]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--offline contacts no API server"), "{}", r.stderr);
    assert!(s.api.requests().iter().all(|q| q.verb == "get" || q.verb == "list"));
}

#[test]
fn install_previews_revision_1_and_fails_like_helm_on_objects_another_release_owns() {
    let s = shop(|_| {});
    let manifest = s.manifest.display().to_string();
    // "other" has no records: helm upgrade --install installs it. The
    // objects it renders exist already, owned by the release "shop".
    let preview = |extra: &[&str]| {
        let r = run(releasex()
            .env("KUBECONFIG", &s.kubeconfig)
            .args(["upgrade-preview", "other", V2, "--manifest", &manifest, "-n", "shop", "-o", "json"])
            .args(extra));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        r
    };
    let without = preview(&[]);
    assert_eq!(without.code, 3, "without --install the upgrade fails: {}", without.stderr);
    assert!(without.stderr.contains("\"other\" has no deployed releases") && without.stderr.contains("add --install"), "{}", without.stderr);
    let r = preview(&["--install"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    assert_eq!(doc["install"], true);
    assert_eq!(doc["revision"], 1);
    assert_eq!(doc["record"]["description"], "Install complete");
    let failure = doc["failure"].as_str().unwrap();
    assert!(
        failure.starts_with("unable to continue with install: ")
            && failure.contains("exists and cannot be imported into the current release: invalid ownership metadata")
            && failure.contains("must equal \"other\": current value is \"shop\""),
        "{failure}"
    );
    assert_eq!(doc["server_side"], true, "upgrade --install installs with server-side apply");
    // --take-ownership adopts them instead.
    let adopted = preview(&["--install", "--take-ownership"]);
    assert_eq!(adopted.code, 0, "{}", adopted.stderr);
    let doc = parse_json(&adopted.stdout);
    assert!(doc["failure"].is_null(), "{}", doc["failure"]);
    assert_eq!(object(&doc, "ConfigMap", "shop-config")["notes"][0].as_str().map(|n| n.contains("--take-ownership")), Some(true));
    // The release that exists is upgraded, --install or not.
    let upgrade = run(releasex().env("KUBECONFIG", &s.kubeconfig).args(["upgrade-preview", "shop", V2, "--manifest", &manifest, "-o", "json", "--install"]));
    assert_eq!(parse_json(&upgrade.stdout)["install"], false, "{}", upgrade.stderr);
    s.api.assert_read_only();
}

#[test]
fn create_namespace_adds_the_namespace_creation_when_it_does_not_exist() {
    let s = shop(|_| {});
    let manifest = s.manifest.display().to_string();
    let r = run(releasex()
        .env("KUBECONFIG", &s.kubeconfig)
        .args(["upgrade-preview", "fresh", V2, "--manifest", &manifest, "-n", "fresh-ns", "--install", "--create-namespace", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    let first = &doc["objects"][0];
    assert_eq!((first["kind"].as_str(), first["name"].as_str(), first["action"].as_str()), (Some("Namespace"), Some("fresh-ns"), Some("create")));
    assert_eq!(first["patch"]["metadata"]["labels"], json!({"name": "fresh-ns"}));
    assert!(doc["objects"].as_array().unwrap().iter().skip(1).all(|o| o["action"] == "create"), "every object is created in a new namespace");
    // The namespace was looked up (GET), not assumed.
    assert!(s.api.requests().iter().any(|q| q.path == "/api/v1/namespaces/fresh-ns" && q.verb == "get"));
    s.api.assert_read_only();
}

#[test]
fn install_over_a_release_uninstalled_with_keep_history_writes_the_next_revision() {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let list = oracle(&["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates"]);
    let stored = releasex::release::source::parse_input("oracle", list.to_string().as_bytes()).unwrap();
    let records = releasex::release::decode_history(stored, Some("shop"), "oracle").unwrap();
    // `helm uninstall --keep-history` marks the last record uninstalled.
    let mut raw = records.last().unwrap().release.raw().clone();
    raw["info"]["status"] = json!("uninstalled");
    let mut secret = list["items"].as_array().unwrap().last().unwrap().clone();
    secret["data"]["release"] = json!(b64(b64(raw.to_string().as_bytes()).as_bytes()));
    secret["metadata"]["labels"]["status"] = json!("uninstalled");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("uninstalled.json");
    std::fs::write(&file, json!({"apiVersion": "v1", "kind": "List", "items": [secret]}).to_string()).unwrap();
    let manifest = dir.path().join("m.yaml");
    std::fs::write(&manifest, oracle(&["render", V2, "--name", "shop", "--namespace", "shop"])["manifest"].as_str().unwrap()).unwrap();
    let args = |install: bool| {
        let mut a = vec!["upgrade-preview".to_string(), "shop".into(), V2.into(), "--offline".into(), "--release-file".into(), file.display().to_string()];
        a.extend(["--manifest".into(), manifest.display().to_string(), "-o".into(), "json".into()]);
        if install {
            a.push("--install".into());
        }
        a
    };
    let r = run(releasex().args(args(true)));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    assert_eq!(doc["install"], true);
    assert_eq!(doc["revision"], 2, "Helm's replaceRelease counts on from the uninstalled revision");
    assert_eq!(doc["baseline"]["revision"], 1);
    assert!(doc["objects"].as_array().unwrap().iter().all(|o| o["action"] == "create"), "{}", doc["objects"]);
    // Without --install, helm upgrade refuses an uninstalled release.
    let r = run(releasex().args(args(false)));
    assert_eq!(r.code, 3, "{}", r.stderr);
}

#[test]
fn force_replace_sends_a_put_of_the_rendered_object_and_names_what_it_drops() {
    let live_version = std::cell::RefCell::new(Value::Null);
    let s = shop(|served| {
        let dep = served.iter_mut().find(|o| o["kind"] == "Deployment").unwrap();
        *live_version.borrow_mut() = dep["metadata"]["resourceVersion"].clone();
        // A label added with kubectl: its managedFields entry says someone set it.
        dep["metadata"]["labels"]["team"] = json!("payments");
        dep["metadata"]["managedFields"].as_array_mut().unwrap().push(
            json!({"manager": "kubectl-label", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}}}),
        );
    });
    let r = s.preview(&["--server-side", "false", "--force-replace", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = parse_json(&r.stdout);
    let dep = object(&doc, "Deployment", "shop");
    assert_eq!(dep["action"], "update");
    assert_eq!(dep["patch_type"], "replace");
    // helper.Replace copies the live resourceVersion into the body (pkg/kube/client.go replaceResource).
    assert_eq!(dep["patch"]["metadata"]["resourceVersion"], *live_version.borrow());
    assert_eq!(dep["patch"]["spec"]["template"]["spec"]["containers"][0]["image"], "shop:2.0");
    let notes = dep["notes"].to_string();
    assert!(notes.contains("the PUT drops these live fields set in the cluster: metadata.labels.team (\\\"payments\\\")"), "{notes}");
    // The server's default is not owned by any manager: set again, not dropped.
    assert!(notes.contains("server defaults the PUT does not carry, set again by the API server: spec.template.spec.containers[0].imagePullPolicy"), "{notes}");
    // Helm refuses --force-replace with server-side apply (pkg/kube/client.go Update).
    let r = s.preview(&["--server-side", "true", "--force-replace", "-o", "json"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(parse_json(&r.stdout)["failure"], "UPGRADE FAILED: invalid operation: cannot use server-side apply and force replace together");
    // Mutually exclusive with --force-conflicts, as helm upgrade marks them.
    let r = s.preview(&["--force", "--force-conflicts"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("the argument '--force' cannot be used with '--force-conflicts'"), "{}", r.stderr);
    s.api.assert_read_only();
}

