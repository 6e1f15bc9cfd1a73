//! `upgrade-preview` (values part): Helm's baseline for every state of a
//! history, the value modes as the user sees them, the JSON contract, and
//! reading the release from a cluster with GETs only.

use serde_json::{Value, json};

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{fails, fixture, helm_would_fail, json, ok, releasex, run};

const SECRET_HOOK: &str = "tests/fixtures/charts/secret-hook";
const PARENT_V2: &str = "tests/fixtures/charts/parent-v2";
const PARENT_HISTORY: &str = "tests/fixtures/releases/parent-3-revisions.list.json";

fn preview_json(release: &str, chart: &str, file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["upgrade-preview", release, chart, "--release-file", file, "--values-only", "-o", "json"];
    args.extend_from_slice(extra);
    json(&ok(&args))
}

#[test]
fn baseline_follows_helms_prepare_upgrade_for_every_real_history() {
    // (history, baseline revision, its status, the revision the upgrade writes)
    let table = [
        ("secret-hook.list.json", 3, "deployed", 4),
        ("history/failed-last.list.json", 2, "deployed", 4),
        ("history/failed-upgrade-real.list.json", 2, "deployed", 4),
        ("history/failed-install.list.json", 1, "failed", 2),
        ("history/rollback.list.json", 4, "deployed", 5),
    ];
    for (file, revision, status, next) in table {
        let doc = preview_json("demo", SECRET_HOOK, &format!("tests/fixtures/releases/{file}"), &[]);
        assert_eq!(doc["baseline"]["revision"], revision, "{file}");
        assert_eq!(doc["baseline"]["status"], status, "{file}");
        assert_eq!(doc["revision"], next, "{file}");
        assert!(doc["baseline"]["reason"].as_str().is_some_and(|r| !r.is_empty()), "{file}");
    }
}

#[test]
fn pending_and_uninstalled_histories_fail_as_helm_upgrade_fails_with_the_remedy() {
    let err = helm_would_fail(&["upgrade-preview", "demo", SECRET_HOOK, "--release-file", "tests/fixtures/releases/history/pending.list.json"]);
    assert!(err.contains("UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress"), "{err}");
    assert!(err.contains("helm rollback demo 2"), "{err}");
    let err = helm_would_fail(&["upgrade-preview", "demo", SECRET_HOOK, "--release-file", "tests/fixtures/releases/history/uninstalled.list.json"]);
    assert!(err.contains("UPGRADE FAILED: \"demo\" has no deployed releases"), "{err}");
    let err = fails(&["upgrade-preview", "nosuch", SECRET_HOOK, "--release-file", PARENT_HISTORY]);
    assert!(err.contains("nosuch"), "{err}");
}

/// Real records with their status edited (Helm cannot be made to leave
/// these states behind on purpose): one file per revision in a directory.
fn edited_history(statuses: &[&str]) -> tempfile::TempDir {
    let text = std::fs::read_to_string(fixture("releases/parent-3-revisions.releases.json")).unwrap();
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (mut r, status) in records.into_iter().zip(statuses) {
        r["info"]["status"] = Value::String(status.to_string());
        let v = r["version"].as_i64().unwrap();
        std::fs::write(dir.path().join(format!("rev{v}.json")), serde_json::to_string(&r).unwrap()).unwrap();
    }
    dir
}

#[test]
fn baseline_for_edited_statuses_follows_helm() {
    let baseline = |statuses: &[&str]| -> Result<(i64, i64), String> {
        let dir = edited_history(statuses);
        let path = dir.path().display().to_string();
        let r = run(releasex().args(["upgrade-preview", "rel", PARENT_V2, "--release-file", &path, "--values-only", "-o", "json"]));
        if r.code != 0 {
            assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
            return Err(r.stderr);
        }
        let doc = json(&r.stdout);
        Ok((doc["baseline"]["revision"].as_i64().unwrap(), doc["revision"].as_i64().unwrap()))
    };
    assert_eq!(baseline(&["superseded", "superseded", "superseded"]), Ok((3, 4)));
    // A corrupted history with two deployed revisions: the highest wins.
    assert_eq!(baseline(&["deployed", "deployed", "failed"]), Ok((2, 4)));
    assert_eq!(baseline(&["failed", "failed", "failed"]), Ok((3, 4)));
    for pending in ["pending-install", "pending-upgrade", "pending-rollback"] {
        let err = baseline(&["superseded", "deployed", pending]).unwrap_err();
        assert!(err.contains("another operation (install/upgrade/rollback) is in progress"), "{pending}: {err}");
    }
    for last in ["uninstalled", "uninstalling", "unknown"] {
        let err = baseline(&["superseded", "superseded", last]).unwrap_err();
        assert!(err.contains("\"rel\" has no deployed releases"), "{last}: {err}");
    }
}

#[test]
fn set_without_repeating_values_shows_what_the_default_mode_drops() {
    let out = ok(&["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--set", "image.tag=2.0", "--values-only"]);
    insta::assert_snapshot!(out);
}

/// docs/upgrade-preview.md's example (examples/upgrade: installed by real Helm with -f prod.yaml).
const EXAMPLE: &str = "examples/upgrade/web-release.json";

#[test]
fn compare_modes_explains_the_set_drops_my_values_accident() {
    let out = ok(&["upgrade-preview", "web", PARENT_V2, "--release-file", EXAMPLE, "--set", "image.tag=2.0", "--compare-modes", "--values-only"]);
    insta::assert_snapshot!(out);
}

#[test]
fn reuse_values_lists_the_new_defaults_it_does_not_apply() {
    let doc = preview_json("web", PARENT_V2, EXAMPLE, &["--set", "image.tag=2.0", "--reuse-values"]);
    let ignored: Vec<&str> = doc["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "ignored-new-default")
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(ignored, ["newKey", "port", "sub1.keep"]);
    // The stored config keeps prod.yaml's values under the new flag.
    assert_eq!(doc["config"], serde_json::json!({"image": {"tag": "2.0"}, "keepme": "from-prod-file", "nested": {"a": 10}, "replicaCount": 3}));
}

#[test]
fn reuse_values_with_a_null_warns_that_the_old_value_stays() {
    let r = run(releasex().args(["upgrade-preview", "web", PARENT_V2, "--release-file", EXAMPLE, "--set", "keepme=null", "--reuse-values", "--values-only", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    assert_eq!(doc["values"]["keepme"], "from-prod-file");
    assert!(doc["config"].get("keepme").is_none(), "{}", doc["config"]);
    let warnings = doc["warnings"].to_string();
    assert!(warnings.contains("helm/helm#30765") && warnings.contains("write null for keepme into the stored config of revision 1"), "{warnings}");
    let change = doc["changes"].as_array().unwrap().iter().find(|c| c["path"] == "keepme").unwrap().clone();
    assert_eq!(change["kind"], "null-not-applied");
}

#[test]
fn json_contract_has_the_documented_keys() {
    let doc = preview_json("rel", PARENT_V2, PARENT_HISTORY, &["--set", "image.tag=2.0", "--reuse-values"]);
    for key in ["release", "baseline", "revision", "mode", "values", "config", "changes", "warnings"] {
        assert!(doc.get(key).is_some(), "missing {key}: {doc}");
    }
    assert_eq!(doc["mode"], "reuse");
    assert_eq!(doc["config"]["image"]["tag"], "2.0");
    let change = &doc["changes"].as_array().unwrap()[0];
    for key in ["path", "before", "after", "kind", "cause"] {
        assert!(change.get(key).is_some(), "missing {key} in a change: {change}");
    }
    let all = preview_json("rel", PARENT_V2, PARENT_HISTORY, &["--set", "image.tag=2.0", "--compare-modes"]);
    let modes = all["modes"].as_object().unwrap();
    assert_eq!(modes.keys().collect::<Vec<_>>(), ["default", "reuse", "reset", "reset-then-reuse"]);
    for (word, m) in modes {
        assert_eq!(&m["mode"], word);
        assert!(m.get("values").is_some() && m.get("config").is_some() && m.get("changes").is_some());
    }
    assert_eq!(all["recommendation"]["mode"], "reset-then-reuse", "{}", all["recommendation"]);
    assert!(all["recommendation"]["reason"].as_str().unwrap().contains("--reset-then-reuse-values"), "{}", all["recommendation"]);
}

#[test]
fn several_mode_flags_are_resolved_as_helm_does_with_a_warning() {
    let r = run(releasex().args(["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--reuse-values", "--reset-values", "--values-only", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["mode"], "reset");
    assert!(r.stderr.contains("--reuse-values is ignored because --reset-values is given"), "{}", r.stderr);
}

#[test]
fn key_limits_the_values_config_and_changes_shown() {
    let doc = preview_json("rel", PARENT_V2, PARENT_HISTORY, &["--set", "image.tag=2.0", "--key", "image"]);
    let changes = doc["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["path"], "image.tag");
}

#[test]
fn rendering_with_helm_without_helm_and_without_a_manifest_the_error_says_both_ways() {
    let err = fails(&["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--render-with-helm"]);
    assert!(err.contains("--manifest") && err.contains("--values-only"), "{err}");
}

#[test]
fn reads_the_release_from_the_cluster_with_gets_only() {
    let text = std::fs::read_to_string(fixture("releases/parent-3-revisions.list.json")).unwrap();
    let items = serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone();
    let objects: Vec<Value> = items.into_iter().enumerate().map(|(i, o)| as_served(o, "team-a", i + 1)).collect();
    let api = FixtureApi::start(objects);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "team-a");
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).args(["upgrade-preview", "rel", PARENT_V2, "--set", "image.tag=2.0", "--values-only", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    assert_eq!(doc["baseline"]["revision"], 3);
    assert_eq!(doc["values"]["image"]["tag"], "2.0");
    api.assert_read_only();
    assert!(!api.requests().is_empty());
}

#[test]
fn bad_names_charts_and_records_fail_with_a_clear_error() {
    let err = fails(&["upgrade-preview", "Web_1", PARENT_V2, "--release-file", EXAMPLE]);
    assert!(err.contains("release name is invalid: Web_1"), "{err}");
    let err = fails(&["upgrade-preview", "web", "tests/no-such-chart", "--release-file", EXAMPLE]);
    assert!(err.contains("tests/no-such-chart"), "{err}");
    let err = fails(&["upgrade-preview", "demo", PARENT_V2, "--release-file", "tests/fixtures/releases/bad/truncated-gzip.json"]);
    assert!(err.contains("truncated-gzip.json"), "{err}");
    let err = fails(&["upgrade-preview", "web", PARENT_V2, "--release-file", EXAMPLE, "--set", "a[x]=1"]);
    assert!(err.contains("failed parsing --set data") && err.contains("strconv.Atoi"), "{err}");
}

#[test]
fn values_only_detailed_exitcode_counts_a_value_that_changes() {
    let args = ["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--values-only", "--detailed-exitcode"];
    let r = run(releasex().args(args).args(["--set", "image.tag=2.0"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(releasex().args(args).args(["--set", "image.tag=2.0", "-o", "json"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn values_under_keys_that_look_secret_are_masked_in_the_value_changes() {
    let args = ["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--values-only", "--set", "db.password=hunter2"];
    let out = ok(&args);
    assert!(!out.contains("hunter2"), "{out}");
    assert!(out.contains("db.password: (absent) → <masked>") && out.contains("--set[0] db.password=<masked>"), "{out}");
    let shown = ok(&[&args[..], &["--show-secrets"]].concat());
    assert!(shown.contains("hunter2"), "{shown}");
    // --show-values lists every value and the stored config: masked there too.
    let all = ok(&[&args[..], &["--show-values"]].concat());
    assert!(!all.contains("hunter2") && all.contains("password: <masked>"), "{all}");
}

#[test]
fn why_names_the_values_key_under_each_changed_line_and_where_its_value_came_from() {
    let args = ["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--offline", "--set", "replicaCount=7", "--why"];
    let out = ok(&args);
    let diff = &out[out.find("ConfigMap default/rel-parent").expect("the ConfigMap's diff")..];
    insta::assert_snapshot!(diff, @r#"
    ConfigMap default/rel-parent: update (apply patch)
        @@ -9,8 +9,8 @@
             meta.helm.sh/release-name: rel
             meta.helm.sh/release-namespace: default
         data:
        -  replicaCount: "2"
           # ← was replicaCount: values of the chart stored in revision 3 (chart parent default)
        -  port: "9999"
           # ← was port: release config (revision 3)
        +  replicaCount: "7"
           # ← replicaCount: --set[0] replicaCount=7
        +  port: "9090"
           # ← port: values.yaml:2:7 (chart parent default)
           region: eu
           exportedKey: from-sub1
           imported: "{\"name\":\"sub2\",\"preexisting\":\"parent-value\",\"version\":\"overridden-by-import?\"}"

    2 unchanged objects not shown (--show-unchanged lists them)
    "#);
    // Without --why the diff has no notes.
    let plain = ok(&args[..args.len() - 1]);
    assert!(!plain.contains('\u{2190}'), "{plain}");
    // -o json: the diff stays plain and `why` blames each field an added line holds.
    let doc: Value = serde_json::from_str(&ok(&[&args[..], &["-o", "json"]].concat())).expect("json");
    let cm = doc["objects"].as_array().expect("objects").iter().find(|o| o["action"] == "update").expect("the updated ConfigMap");
    assert!(!cm["diff"].as_str().expect("diff").contains('\u{2190}'));
    let why = cm["why"].as_array().expect("why");
    let fields: Vec<&str> = why.iter().map(|f| f["field"].as_str().expect("field")).collect();
    assert_eq!(fields, ["data.replicaCount", "data.port"]);
    assert_eq!(why[0]["keys"], serde_json::json!([{"path": "replicaCount", "source": "--set[0] replicaCount=7"}]));
    assert_eq!((why[0]["template"].as_str(), why[0]["line"].as_u64()), (Some("parent/templates/configmap.yaml"), Some(7)));
    // `why_before`: what printed each field a removed line holds, in revision 3's stored chart.
    let before = cm["why_before"].as_array().expect("why_before");
    assert_eq!(before.iter().map(|f| f["field"].as_str().expect("field")).collect::<Vec<_>>(), ["data.replicaCount", "data.port"]);
    assert_eq!(before[1]["keys"], serde_json::json!([{"path": "port", "source": "release config (revision 3)"}]));
}

/// The baseline's stored chart is rendered again to blame the removed lines;
/// an object that does not come out as the record holds it gets no notes
/// (its lines would be blamed on keys that did not print them).
#[test]
fn why_blames_removed_lines_only_where_the_stored_chart_renders_the_stored_object_again() {
    let text = std::fs::read_to_string(fixture("releases/parent-3-revisions.releases.json")).unwrap();
    let mut records: Vec<Value> = serde_json::from_str(&text).unwrap();
    let last = records.last_mut().unwrap();
    let manifest = last["manifest"].as_str().unwrap().replace("replicaCount: \"2\"", "replicaCount: \"5\"");
    last["manifest"] = Value::String(manifest);
    let dir = tempfile::tempdir().unwrap();
    for r in &records {
        std::fs::write(dir.path().join(format!("rev{}.json", r["version"])), serde_json::to_string(r).unwrap()).unwrap();
    }
    let file = dir.path().to_str().unwrap();
    let out = ok(&["upgrade-preview", "rel", PARENT_V2, "--release-file", file, "--offline", "--set", "replicaCount=7", "--why"]);
    assert!(out.contains("-  replicaCount: \"5\""), "{out}");
    assert!(out.contains("# ← replicaCount: --set[0] replicaCount=7"), "{out}");
    assert!(!out.contains("# ← was"), "{out}");

    // A stored template that fails without the subcharts Helm did not store
    // (here: a partial no template defines) leaves the other objects blamed.
    let mut records: Vec<Value> = serde_json::from_str(&text).unwrap();
    use base64::Engine as _;
    let broken = base64::engine::general_purpose::STANDARD.encode("{{ include \"sub1.missing\" . }}\n");
    records.last_mut().unwrap()["chart"]["templates"].as_array_mut().unwrap().push(serde_json::json!({"name": "templates/broken.yaml", "data": broken}));
    for r in &records {
        std::fs::write(dir.path().join(format!("rev{}.json", r["version"])), serde_json::to_string(r).unwrap()).unwrap();
    }
    let out = ok(&["upgrade-preview", "rel", PARENT_V2, "--release-file", file, "--offline", "--set", "replicaCount=7", "--why"]);
    assert!(out.contains("# ← was port: release config (revision 3)"), "{out}");
}

#[test]
fn why_with_helm_rendering_says_it_cannot_annotate() {
    let r = run(releasex().args(["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--offline", "--why", "--manifest", "tests/fixtures/manifests/parent-v2.yaml"]));
    assert!(r.stderr.contains("--why: the manifest was given"), "{} {}", r.code, r.stderr);
}

#[test]
fn why_says_which_condition_made_the_chart_render_a_created_object() {
    let args = ["upgrade-preview", "fresh", "tests/fixtures/blame/idioms", "--install", "--release-file", PARENT_HISTORY, "--offline", "--set", "ingress.enabled=true", "--why"];
    let out = ok(&args);
    let ingress = &out[out.find("Ingress default/idioms: create").expect("the Ingress is created")..];
    let ingress = &ingress[..ingress.find("\n\n").unwrap_or(ingress.len())];
    insta::assert_snapshot!(ingress, @r#"
    Ingress default/idioms: create
      # ← rendered because of ingress.enabled: --set[0] ingress.enabled=true
        @@ -0,0 +1,13 @@
        +apiVersion: networking.k8s.io/v1
        +kind: Ingress
        +metadata:
        +  name: idioms
           # ← nameOverride: values.yaml:4:15 (chart idioms default); .Chart.Name
        +  namespace: default
        +  labels:
        +    app.kubernetes.io/managed-by: Helm
        +  annotations:
        +    meta.helm.sh/release-name: fresh
        +    meta.helm.sh/release-namespace: default
        +spec:
        +  rules:
        +  - host: mk-host
           # ← ingress.host: values.yaml:27:9 (chart idioms default)
    "#);
}

#[test]
fn json_masks_values_under_secret_looking_keys_unless_show_secrets() {
    let flags = ["--values-only", "--set", "db.password=hunter2", "--set-string", "token=abc123"];
    let args = |extra: &[&str]| -> Vec<String> {
        ["upgrade-preview", "rel", "tests/fixtures/charts/parent-v2", "--offline", "--release-file", PARENT_HISTORY, "-o", "json"]
            .iter()
            .chain(flags.iter())
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let masked = ok(&args(&[]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!masked.contains("hunter2") && !masked.contains("abc123"), "{masked}");
    let doc: Value = serde_json::from_str(&masked).unwrap();
    assert_eq!(doc["values"]["db"]["password"], "<masked>");
    assert_eq!(doc["config"]["token"], "<masked>");
    let change = doc["changes"].as_array().unwrap().iter().find(|c| c["path"] == "db.password").unwrap();
    assert_eq!((&change["after"], &change["cause"]), (&json!("<masked>"), &json!("set by --set[0] db.password=<masked>")));
    // --show-secrets shows them all, as in the text.
    let shown = ok(&args(&["--show-secrets"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(shown.matches("hunter2").count(), 6, "{shown}");
    let compared = ok(&args(&["--compare-modes"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!compared.contains("hunter2"), "{compared}");
}

/// An upgrade leaves crds/ as it is: the CRDs are a count, listed with --show-unchanged.
#[test]
fn upgrade_counts_the_crds_it_leaves_and_show_unchanged_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("parent-v2");
    crate::helmfile_templates::copy_dir(&fixture("charts/parent-v2"), &chart);
    std::fs::create_dir_all(chart.join("crds")).unwrap();
    for name in ["widgets", "gadgets"] {
        let crd = format!("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}.example.com\nspec:\n  group: example.com\n  names: {{kind: W, plural: {name}}}\n  scope: Namespaced\n  versions: []\n");
        std::fs::write(chart.join(format!("crds/{name}.yaml")), crd).unwrap();
    }
    let chart = chart.to_str().unwrap();
    let out = ok(&["upgrade-preview", "rel", chart, "--release-file", PARENT_HISTORY, "--offline", "--set", "replicaCount=7"]);
    assert!(out.contains("2 CRDs in crds/ left as they are (Helm installs them only on install; --show-unchanged lists them)"), "{out}");
    assert!(!out.contains("widgets.example.com"), "{out}");
    let all = ok(&["upgrade-preview", "rel", chart, "--release-file", PARENT_HISTORY, "--offline", "--set", "replicaCount=7", "--show-unchanged"]);
    assert!(all.contains("CRDs in crds/ (Helm installs them only on install; an upgrade leaves them as they are):"), "{all}");
    assert!(all.contains("CustomResourceDefinition widgets.example.com"), "{all}");
}

/// Under --reuse-values the chart's values are the stored ones: each stored
/// key keeps its own origin, so --why names the key that printed the line.
#[test]
fn why_under_reuse_values_names_the_stored_key_that_printed_the_line() {
    let out = ok(&["upgrade-preview", "demo", "examples/charts/secret-hook", "--release-file", "examples/demo-release.yaml", "--offline", "--reuse-values", "--set", "image.tag=v3", "--why"]);
    assert!(
        out.contains("# ← image.repository: values of the chart stored in revision 3 (chart secret-hook default); image.tag: --set[0] image.tag=v3"),
        "{out}"
    );
}
