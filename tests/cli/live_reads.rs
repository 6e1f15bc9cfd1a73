//! How `upgrade-preview` reads live objects: one paginated LIST per kind and
//! namespace holding two objects or more, a GET for a kind with one, GETs
//! when a LIST is forbidden; the answer is the same as reading each object,
//! and only GET/LIST reach the server (the fixture API records every request).

use std::io::Write as _;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::fixture_api::{FixtureApi, Recorded};
use crate::support::{json as parse_json, releasex, run};

fn configmap(i: usize, generation: &str) -> String {
    format!("---\n# Source: big/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\ndata:\n  generation: \"{generation}\"\n")
}

fn deployment(i: usize, generation: &str) -> String {
    format!(
        "---\n# Source: big/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-{i}\nspec:\n  selector:\n    matchLabels:\n      app: web-{i}\n  template:\n    metadata:\n      labels:\n        app: web-{i}\n    spec:\n      containers:\n        - name: web\n          image: web:{generation}\n"
    )
}

const SERVICE: &str = "---\n# Source: big/templates/svc.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n";

/// `configmaps` ConfigMaps, 3 Deployments and one Service.
fn manifest(configmaps: usize, generation: &str) -> String {
    let mut text: String = (0..configmaps).map(|i| configmap(i, generation)).collect();
    text.extend((0..3).map(|i| deployment(i, generation)));
    text.push_str(SERVICE);
    text
}

fn release_secret(manifest: &str) -> Value {
    let release = json!({
        "name": "big", "namespace": "bench", "version": 1,
        "info": {"status": "deployed", "first_deployed": "2026-11-29T12:00:00Z", "last_deployed": "2026-11-29T12:00:00Z", "description": "Install complete"},
        "chart": {"metadata": {"name": "big", "version": "1.0.0", "apiVersion": "v2"}, "values": {}},
        "config": {}, "manifest": manifest, "apply_method": "csa",
    });
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(release.to_string().as_bytes()).unwrap();
    let inner = base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap());
    json!({"apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
           "metadata": {"name": "sh.helm.release.v1.big.v1", "namespace": "bench",
                        "labels": {"name": "big", "owner": "helm", "status": "deployed", "version": "1"}},
           "data": {"release": base64::engine::general_purpose::STANDARD.encode(inner)}})
}

struct Big {
    api: FixtureApi,
    dir: tempfile::TempDir,
    kubeconfig: std::path::PathBuf,
}

/// A release of `configmaps` ConfigMaps (the last `absent` of them deleted
/// from the cluster), 3 Deployments and a Service, plus `unrelated`
/// ConfigMaps of no release in the same namespace.
fn big(configmaps: usize, absent: usize, unrelated: usize) -> Big {
    let old = manifest(configmaps, "1");
    let mut objects: Vec<Value> = releasex::manifest::split(&old)
        .into_iter()
        .filter_map(|d| serde_saphyr::from_str::<Value>(d).ok())
        .filter(|o| !(o["kind"] == "ConfigMap" && o["metadata"]["name"].as_str().is_some_and(|n| n[3..].parse::<usize>().unwrap() >= configmaps - absent)))
        .map(|mut o| {
            releasex::upgrade::add_ownership(&mut o, "big", "bench");
            o["metadata"]["namespace"] = json!("bench");
            o["metadata"]["resourceVersion"] = json!("7");
            o
        })
        .collect();
    // Listed first: the release's objects come on the last page.
    let mut served: Vec<Value> =
        (0..unrelated).map(|i| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("other-{i:04}"), "namespace": "bench"}})).collect();
    served.append(&mut objects);
    served.push(release_secret(&old));
    let objects = served;
    let api = FixtureApi::start(objects);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "bench");
    let chart = dir.path().join("big");
    std::fs::create_dir_all(&chart).unwrap();
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: big\nversion: 2.0.0\n").unwrap();
    std::fs::write(dir.path().join("new.yaml"), manifest(configmaps, "2")).unwrap();
    Big { api, dir, kubeconfig }
}

impl Big {
    fn preview(&self) -> String {
        let r = run(releasex()
            .env("KUBECONFIG", &self.kubeconfig)
            .args(["upgrade-preview", "big"])
            .arg(self.dir.path().join("big"))
            .arg("--manifest")
            .arg(self.dir.path().join("new.yaml"))
            .args(["-o", "json"]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    }

    /// The requests for live objects (not discovery, not the records).
    fn object_requests(&self) -> Vec<Recorded> {
        self.api
            .requests()
            .into_iter()
            .filter(|r| r.path.contains("/namespaces/bench/") && !r.path.contains("/secrets"))
            .collect()
    }
}

fn actions(out: &str) -> Vec<(String, String)> {
    let doc = parse_json(out);
    doc["objects"].as_array().unwrap().iter().map(|o| (o["name"].as_str().unwrap_or_default().to_string(), o["action"].as_str().unwrap_or_default().to_string())).collect()
}

#[test]
fn live_objects_are_read_with_one_list_per_kind_and_a_get_for_a_lone_object() {
    let b = big(20, 2, 0);
    let out = b.preview();
    let mut asked: Vec<String> =
        b.object_requests().iter().map(|r| format!("{} {}?{}", r.verb, r.path, r.query.clone().unwrap_or_default())).collect();
    asked.sort();
    assert_eq!(
        asked,
        [
            "get /api/v1/namespaces/bench/services/web?",
            "list /api/v1/namespaces/bench/configmaps?limit=500",
            "list /apis/apps/v1/namespaces/bench/deployments?limit=500",
        ]
    );
    b.api.assert_read_only();
    let actions = actions(&out);
    // The two deleted from the cluster are absent from the complete list: recreated, as after a 404.
    assert_eq!(actions.iter().filter(|(_, a)| a == "update").count(), 18 + 3, "{actions:?}");
    assert!(actions.iter().any(|(n, a)| n == "cm-19" && a != "update"), "{actions:?}");
}

#[test]
fn a_forbidden_list_falls_back_to_gets_with_the_same_answer() {
    let b = big(6, 1, 0);
    let listed = b.preview();
    b.api.clear_requests();
    b.api.fail("configmaps", 403);
    let got = b.preview();
    assert_eq!(got, listed, "the answer must not depend on how the objects were read");
    let requests = b.object_requests();
    let configmaps: Vec<String> = requests.iter().filter(|r| r.path.contains("/configmaps")).map(|r| format!("{} {}", r.verb, r.path)).collect();
    assert_eq!(configmaps[0], "list /api/v1/namespaces/bench/configmaps");
    let mut gets = configmaps[1..].to_vec();
    gets.sort();
    assert_eq!(gets, (0..6).map(|i| format!("get /api/v1/namespaces/bench/configmaps/cm-{i}")).collect::<Vec<_>>());
    b.api.assert_read_only();
}

#[test]
fn lists_follow_continue_tokens_and_stop_when_gets_are_fewer_requests() {
    // 1,100 objects of the release: three pages of 500.
    let b = big(1100, 0, 0);
    let out = b.preview();
    let pages: Vec<Option<String>> = b.object_requests().iter().filter(|r| r.path.ends_with("/configmaps")).map(|r| r.query.clone()).collect();
    assert_eq!(pages.len(), 3, "{pages:?}");
    assert_eq!(pages[0].as_deref(), Some("limit=500"));
    assert!(pages[1..].iter().all(|q| q.as_deref().is_some_and(|q| q.starts_with("limit=500&continue="))), "{pages:?}");
    assert_eq!(actions(&out).iter().filter(|(_, a)| a == "update").count(), 1100 + 3);

    // Two of the release's among 1,200 unrelated objects: after two pages
    // without them, the two are read with GETs.
    let b = big(2, 0, 1200);
    let out = b.preview();
    let asked: Vec<String> = b.object_requests().iter().filter(|r| r.path.contains("/configmaps")).map(|r| format!("{} {}", r.verb, r.path)).collect();
    assert_eq!(asked.iter().filter(|a| a.starts_with("list ")).count(), 2, "{asked:?}");
    assert_eq!(asked.iter().filter(|a| a.starts_with("get ")).count(), 2, "{asked:?}");
    assert_eq!(actions(&out).iter().filter(|(_, a)| a == "update").count(), 2 + 3);
    b.api.assert_read_only();
}
