//! Helm's `lookup` read from the cluster by releasex's own renderer
//! (`template --lookup`, `blame --lookup`, `upgrade-preview --lookup`),
//! against real Helm v4.1.4 rendering the same chart with
//! `helm template --dry-run=server` from the same fixture API server: the
//! same documents, the same errors, and only GETs and LISTs sent.

use std::process::Command;

use serde_json::{Value, json};

use crate::fixture_api::as_served;
use crate::support::{ServedCluster as Cluster, json, releasex, run};

const CHART: &str = "tests/fixtures/charts/lookup";

fn owned_by_rel(mut obj: Value) -> Value {
    obj["metadata"]["labels"] = json!({"app.kubernetes.io/managed-by": "Helm", "app": "shop"});
    obj["metadata"]["annotations"] = json!({"meta.helm.sh/release-name": "rel", "meta.helm.sh/release-namespace": "shop", "ratio": "0.5"});
    obj
}

/// What the chart looks up: the Secret it keeps, ConfigMaps in two
/// namespaces, a Deployment, the namespace and a cluster role.
fn served() -> Vec<Value> {
    let secret = owned_by_rel(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db-creds"}, "type": "Opaque", "data": {"password": "aHVudGVyMg=="}}));
    let cm = |name: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": "v"}});
    let web = owned_by_rel(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}}));
    let mut objects = vec![as_served(secret, "shop", 1), as_served(cm("alpha"), "shop", 2), as_served(cm("beta"), "shop", 3), as_served(cm("gamma"), "other", 4), as_served(web, "shop", 5)];
    for (n, o) in [json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}}), json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "viewer"}, "rules": []})]
        .into_iter()
        .enumerate()
    {
        let mut o = as_served(o, "", 10 + n);
        o["metadata"].as_object_mut().unwrap().remove("namespace");
        objects.push(o);
    }
    objects
}

fn cluster() -> Cluster {
    Cluster::serve(served(), "shop")
}

impl Cluster {
    /// Real `helm template --dry-run=server` (v4.1.4): lookup reads the cluster.
    fn helm(&self, extra: &[&str]) -> crate::support::Run {
        self.helm_plain(&[&["--dry-run=server", "--disable-openapi-validation"], extra].concat())
    }

    /// Real `helm template` with these flags.
    fn helm_plain(&self, extra: &[&str]) -> crate::support::Run {
        let home = self.dir.path().join("helm");
        let mut cmd = Command::new(crate::support::real_helm("helm4"));
        cmd.env_clear()
            .env("HOME", &home)
            .env("HELM_CACHE_HOME", home.join("cache"))
            .env("HELM_CONFIG_HOME", home.join("config"))
            .env("HELM_DATA_HOME", home.join("data"))
            .env("KUBECONFIG", &self.kubeconfig)
            .args(["template", "rel", CHART, "-n", "shop"])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        let out = cmd.output().expect("run helm");
        crate::support::Run { code: out.status.code().unwrap_or(-1), stdout: String::from_utf8_lossy(&out.stdout).into_owned(), stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
    }

    fn releasex(&self, args: &[&str]) -> crate::support::Run {
        let r = run(releasex().env("KUBECONFIG", &self.kubeconfig).args(args));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        r
    }

    /// Only GET was sent since the last clear; the paths asked.
    fn read_paths(&self) -> Vec<String> {
        self.api.assert_read_only();
        self.api.requests().into_iter().map(|r| r.path).collect()
    }
}

/// Helm 4.2 (emulated) keeps a document's trailing newline where v4.1.4
/// (the binary) trims it: a blank line before each `---`; nothing else differs.
fn without_blank_lines(text: &str) -> String {
    text.lines().filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn template_lookup_renders_what_helm_template_dry_run_server_renders_from_the_same_cluster() {
    let c = cluster();
    let helm = c.helm(&[]);
    assert_eq!(helm.code, 0, "helm: {}", helm.stderr);
    c.api.clear_requests();
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--lookup"]);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    assert_eq!(without_blank_lines(&ours.stdout), without_blank_lines(&helm.stdout));
    // The values the chart reads back are the cluster's, typed as client-go decodes them.
    for line in [
        "  password: aHVudGVyMg==",
        "  names: \"alpha/ConfigMap/v1 beta/ConfigMap/v1\"",
        "  replicasType: \"int64\"",
        "  missing: \"absent\"",
        "  namespace: \"shop\"",
        "  clusterScopedWithNamespace: \"viewer\"",
        "  everywhere: \"3\"",
    ] {
        assert!(ours.stdout.contains(line), "{line:?} not in\n{}", ours.stdout);
    }
    let paths = c.read_paths();
    for want in ["/api/v1/namespaces/shop/secrets/db-creds", "/api/v1/namespaces/shop/configmaps", "/api/v1/configmaps", "/api/v1/namespaces/shop", "/apis/rbac.authorization.k8s.io/v1/clusterroles/viewer"] {
        assert!(paths.iter().any(|p| p == want), "{want} not asked: {paths:?}");
    }
}

#[test]
fn template_without_lookup_reads_no_cluster_and_fails_where_helm_template_fails() {
    let c = cluster();
    let r = c.releasex(&["template", "rel", CHART, "-n", "shop"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("at <len $cms.items>: error calling len: len of nil pointer"), "{}", r.stderr);
    assert!(c.api.requests().is_empty(), "{:?}", c.api.requests());
}

/// The error text after Helm's `Error: ` (and ours after `error: `).
fn error_text(stderr: &str) -> String {
    let line = stderr.lines().find(|l| l.starts_with("Error: ") || l.starts_with("error: ")).unwrap_or_else(|| panic!("no error in {stderr}"));
    line.split_once(": ").unwrap().1.to_string()
}

#[test]
fn lookup_errors_are_helms_an_unserved_group_version_and_a_forbidden_list() {
    let c = cluster();
    let helm = c.helm(&["--set", "unserved=true"]);
    assert_eq!(helm.code, 1, "{}", helm.stdout);
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--lookup", "--set", "unserved=true"]);
    assert_eq!(ours.code, 1, "{}", ours.stdout);
    assert_eq!(error_text(&ours.stderr), error_text(&helm.stderr));
    assert!(error_text(&ours.stderr).contains("error calling lookup: unable to get apiresource from unstructured: example.com/v1, Kind=Widget"), "{}", ours.stderr);

    c.api.fail("configmaps", 403);
    let helm = c.helm(&[]);
    assert_eq!(helm.code, 1, "{}", helm.stdout);
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--lookup"]);
    assert_eq!(ours.code, 1, "{}", ours.stdout);
    assert_eq!(error_text(&ours.stderr), error_text(&helm.stderr));
}

#[test]
fn upgrade_preview_lookup_keeps_the_clusters_password_and_why_names_the_lookup() {
    let c = cluster();
    let r = c.releasex(&["upgrade-preview", "rel", CHART, "-n", "shop", "--install", "--lookup", "--why", "-o", "json"]);
    assert!(r.code == 0 || r.code == 2, "{}", r.stderr);
    let out: Value = json(&r.stdout);
    let objects = out["objects"].as_array().expect("objects");
    // The password the cluster holds is kept: the Secret is adopted unchanged.
    let secret = objects.iter().find(|o| o["kind"] == "Secret").expect("the Secret");
    assert_eq!(secret["action"], "adopt", "{secret}");
    assert_eq!(secret["diff"], Value::Null, "{secret}");
    assert_eq!(secret["patch"]["data"]["password"], "<unchanged, 7 bytes>");
    // A created field printed from a looked-up object is blamed on that lookup.
    let seen = objects.iter().find(|o| o["kind"] == "ConfigMap").expect("the ConfigMap");
    assert_eq!(seen["action"], "create");
    let replicas = seen["why"].as_array().expect("why").iter().find(|f| f["field"] == "data.replicas").expect("data.replicas blamed");
    assert!(replicas.to_string().contains(r#"(lookup \"apps/v1\" \"Deployment\" \"shop\" \"web\").spec.replicas"#), "{replicas}");
    let paths = c.read_paths();
    assert!(paths.iter().any(|p| p == "/api/v1/namespaces/shop/secrets/db-creds"), "{paths:?}");

    // Without --lookup every lookup is empty: a new password, and the warning that says why.
    let r = c.releasex(&["upgrade-preview", "rel", CHART, "-n", "shop", "--install", "--set", "listAll=false", "-o", "json"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("error calling len: len of nil pointer"), "{}", r.stderr);
}

#[test]
fn upgrade_preview_lookup_why_text_names_the_looked_up_object_under_each_added_line() {
    let c = cluster();
    let r = run(releasex().env("KUBECONFIG", &c.kubeconfig).env("RELEASEX_COLUMNS", "100").args(["upgrade-preview", "rel", CHART, "-n", "shop", "--install", "--lookup", "--why"]));
    assert!(r.code == 0 || r.code == 2, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
    c.api.assert_read_only();
}

#[test]
fn template_dry_run_server_takes_the_clusters_capabilities_as_helm_does() {
    let c = cluster();
    let helm = c.helm(&["--set", "caps=true", "--kube-version", "1.20.0"]);
    assert_eq!(helm.code, 0, "helm: {}", helm.stderr);
    c.api.clear_requests();
    // --kube-version and --api-versions are ignored with a server dry run, as in Helm.
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--dry-run=server", "--set", "caps=true", "--kube-version", "1.20.0", "--api-versions", "x/v1"]);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    assert_eq!(without_blank_lines(&ours.stdout), without_blank_lines(&helm.stdout));
    assert!(ours.stdout.contains("kubeVersion: \"v1.33.0\"") && ours.stdout.contains("hasMonitor: \"true\""), "{}", ours.stdout);
    c.read_paths();
}

#[test]
fn template_dry_run_server_stops_an_install_over_an_object_the_release_does_not_own() {
    let mut objects = served();
    objects.push(as_served(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "rel-seen"}, "data": {}}), "shop", 20));
    let c = Cluster::serve(objects, "shop");
    let helm = c.helm(&[]);
    assert_eq!(helm.code, 1, "{}", helm.stdout);
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--dry-run=server"]);
    assert_eq!(ours.code, 1, "{}", ours.stdout);
    assert_eq!(error_text(&ours.stderr), error_text(&helm.stderr));
    assert!(ours.stderr.contains("ConfigMap \"rel-seen\" in namespace \"shop\" exists and cannot be imported into the current release"), "{}", ours.stderr);
    // As an upgrade (--is-upgrade) there is no such check.
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--dry-run=server", "--is-upgrade"]);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    c.read_paths();
}

#[test]
fn template_dry_run_values_are_helms() {
    let c = cluster();
    for value in ["none", "false", "bogus"] {
        let flag = format!("--dry-run={value}");
        let helm = c.helm_plain(&[&flag]);
        assert_eq!(helm.code, 1, "helm {flag}: {}", helm.stdout);
        let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", &flag]);
        assert_eq!(ours.code, 1, "{flag}: {}", ours.stdout);
        assert_eq!(error_text(&ours.stderr), error_text(&helm.stderr), "{flag}");
    }
    // Bare --dry-run and --dry-run=true are client, with Helm's deprecation warning; no cluster is read.
    c.api.clear_requests();
    let ours = c.releasex(&["template", "rel", CHART, "-n", "shop", "--dry-run", "--lookup"]);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    assert!(ours.stderr.contains("--dry-run is deprecated and should be replaced with '--dry-run=client'"), "{}", ours.stderr);
}
