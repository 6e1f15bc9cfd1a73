//! Reading records from a live API server (the fixture server), read-only.

use serde_json::Value;

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{fixture, json, releasex, run};

/// The secret-hook release in team-a (Secrets and ConfigMaps), another
/// release beside it, and a copy of revision 1 in another namespace.
fn cluster_objects() -> Vec<Value> {
    let load = |f: &str| -> Vec<Value> {
        let text = std::fs::read_to_string(fixture(&format!("releases/{f}"))).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone()
    };
    let mut objects = Vec::new();
    let mut n = 0;
    let mut add = |o: Value, ns: &str| {
        n += 1;
        objects.push(as_served(o, ns, n));
    };
    for o in load("secret-hook.list.json") {
        add(o, "team-a");
    }
    for o in load("configmaps.list.json") {
        add(o, "team-a");
    }
    for o in load("parent-3-revisions.list.json") {
        add(o, "team-a");
    }
    let first = load("secret-hook.list.json").remove(0);
    add(first, "other-ns");
    objects
}

struct Setup {
    api: FixtureApi,
    _dir: tempfile::TempDir,
    kubeconfig: std::path::PathBuf,
}

fn setup(context_namespace: &str) -> Setup {
    let api = FixtureApi::start(cluster_objects());
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), context_namespace);
    Setup { api, _dir: dir, kubeconfig }
}

impl Setup {
    fn cmd(&self) -> assert_cmd::Command {
        let mut c = releasex();
        c.env("KUBECONFIG", &self.kubeconfig);
        c
    }
}

#[test]
fn decode_lists_release_secrets_with_helms_selector_using_only_get() {
    let s = setup("team-a");
    let r = run(s.cmd().args(["release", "decode", "demo", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = json(&r.stdout);
    assert_eq!((out["release"].as_str(), out["revision"].as_i64()), (Some("demo"), Some(3)));
    assert_eq!(out["source"], "Secret team-a/sh.helm.release.v1.demo.v3");
    let requests = s.api.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].path, "/api/v1/namespaces/team-a/secrets");
    let query = requests[0].query.as_deref().unwrap_or("");
    assert!(query.contains("labelSelector=name%3Ddemo%2Cowner%3Dhelm"), "{query}");
    s.api.assert_read_only();
}

#[test]
fn history_from_the_cluster_ignores_other_releases_and_namespaces() {
    let s = setup("team-a");
    let r = run(s.cmd().args(["release", "history", "demo", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let revs: Vec<i64> = json(&r.stdout)["revisions"].as_array().unwrap().iter().map(|x| x["revision"].as_i64().unwrap()).collect();
    assert_eq!(revs, [1, 2, 3]);
    s.api.assert_read_only();
}

#[test]
fn namespace_comes_from_flag_then_context() {
    let s = setup("other-ns");
    let r = run(s.cmd().args(["release", "history", "demo", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["revisions"].as_array().unwrap().len(), 1, "context namespace other-ns holds one revision");
    let r = run(s.cmd().args(["release", "history", "demo", "-n", "team-a", "-o", "json"]));
    assert_eq!(json(&r.stdout)["revisions"].as_array().unwrap().len(), 3);
    let r = run(s.cmd().args(["release", "history", "demo", "--context", "other", "-n", "team-a", "-o", "json"]));
    assert_eq!(json(&r.stdout)["revisions"].as_array().unwrap().len(), 3);
    s.api.assert_read_only();
}

#[test]
fn helm_plugin_environment_supplies_namespace_context_and_driver() {
    let s = setup("other-ns");
    let r = run(s
        .cmd()
        .args(["release", "decode", "demo", "-o", "json"])
        .env("HELM_PLUGIN_NAME", "preview")
        .env("HELM_NAMESPACE", "team-a")
        .env("HELM_KUBECONTEXT", "fixture")
        .env("HELM_DRIVER", "configmap"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = json(&r.stdout);
    assert_eq!(out["driver"], "configmap");
    assert_eq!(out["source"], "ConfigMap team-a/sh.helm.release.v1.demo.v3");
    assert!(s.api.requests().iter().all(|q| q.path == "/api/v1/namespaces/team-a/configmaps"));
    // Without HELM_PLUGIN_NAME, HELM_NAMESPACE is not ours to read.
    let r = run(s.cmd().args(["release", "history", "demo", "-o", "json"]).env("HELM_NAMESPACE", "team-a"));
    assert_eq!(json(&r.stdout)["revisions"].as_array().unwrap().len(), 1);
    s.api.assert_read_only();
}

#[test]
fn driver_flag_reads_configmaps() {
    let s = setup("team-a");
    let r = run(s.cmd().args(["release", "decode", "demo", "--driver", "configmap", "--show", "values", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["image"]["tag"], "v2");
    s.api.assert_read_only();
}

#[test]
fn missing_release_says_where_it_looked() {
    let s = setup("team-a");
    let r = run(s.cmd().args(["release", "decode", "nope"]));
    assert_eq!(r.code, 1);
    let expected = format!(
        "error: no release records found in Secrets labelled owner=helm,name=nope in namespace \"team-a\" of {}\n",
        s.api.url()
    );
    assert_eq!(r.stderr, expected);
}

#[test]
fn forbidden_names_the_missing_permission() {
    let s = setup("team-a");
    s.api.fail("secrets", 403);
    let r = run(s.cmd().args(["release", "decode", "demo"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("forbidden (403): your user may not list secrets in namespace \"team-a\""), "{}", r.stderr);
    assert!(r.stderr.contains("kubectl auth can-i list secrets -n team-a"), "{}", r.stderr);
}

#[test]
fn unauthorized_says_to_log_in_again() {
    let s = setup("team-a");
    s.api.fail("secrets", 401);
    let r = run(s.cmd().args(["release", "decode", "demo"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains(&format!("the API server at {} refused the credentials", s.api.url())), "{}", r.stderr);
}

#[test]
fn missing_namespace_is_a_404_with_context() {
    let s = setup("team-a");
    s.api.fail("secrets", 404);
    let r = run(s.cmd().args(["release", "decode", "demo"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("not found (404) while listing secrets in namespace \"team-a\""), "{}", r.stderr);
}

#[test]
fn unreachable_server_is_named() {
    let s = setup("team-a");
    let url = s.api.url();
    let kubeconfig = s.kubeconfig.clone();
    drop(s.api);
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).args(["release", "decode", "demo"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains(&format!("cannot reach the API server at {url}")), "{}", r.stderr);
}

#[test]
fn no_kubeconfig_is_a_clear_error() {
    let r = run(releasex().args(["release", "decode", "demo"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no kubeconfig found (looked at /nonexistent-home/.kube/config)"), "{}", r.stderr);
}
