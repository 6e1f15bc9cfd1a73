//! `patch ORIGINAL MODIFIED CURRENT`: the patch Helm sends for one object.

use crate::support::{fails, json, ok, releasex, run};

const DEPLOY: [&str; 3] = [
    "tests/fixtures/patch/deployment-original.yaml",
    "tests/fixtures/patch/deployment-modified.yaml",
    "tests/fixtures/patch/deployment-current.yaml",
];
const MONITOR: [&str; 3] = [
    "tests/fixtures/patch/servicemonitor-original.yaml",
    "tests/fixtures/patch/servicemonitor-modified.yaml",
    "tests/fixtures/patch/servicemonitor-current.yaml",
];

fn patch(files: [&str; 3], extra: &[&str]) -> String {
    let mut args = vec!["patch", files[0], files[1], files[2]];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn default_output_is_the_exact_request_body_on_one_line() {
    insta::assert_snapshot!(patch(DEPLOY, &[]), @r#"{"metadata":{"labels":{"app.kubernetes.io/managed-by":"Helm"}},"spec":{"replicas":3,"template":{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"$setElementOrder/env":[{"name":"A"}],"env":[{"$patch":"delete","name":"B"}],"image":"x:2","name":"a"}]}}}}"#);
}

#[test]
fn text_output_explains_the_patch() {
    insta::assert_snapshot!(patch(DEPLOY, &["-o", "text"]));
}

#[test]
fn json_output_has_type_patch_and_empty() {
    let out = json(&patch(DEPLOY, &["-o", "json"]));
    assert_eq!(out["type"], "strategic");
    assert_eq!(out["content_type"], "application/strategic-merge-patch+json");
    assert_eq!(out["empty"], false);
    assert_eq!(out["patch"]["spec"]["replicas"], 3);
}

#[test]
fn custom_resource_gets_the_two_way_merge_patch_that_ignores_live_edits() {
    let out = json(&patch(MONITOR, &["-o", "json"]));
    assert_eq!(out["type"], "merge");
    // jobLabel exists only live and stays untouched: Helm's two-way patch never sees it.
    assert_eq!(patch(MONITOR, &[]), "{\"spec\":{\"endpoints\":[{\"interval\":\"15s\",\"port\":\"metrics\"}]}}\n");
}

#[test]
fn unchanged_object_prints_an_empty_patch() {
    let same = [DEPLOY[0], DEPLOY[0], DEPLOY[2]];
    let p = patch(same, &[]);
    // The live drift (replicas 5, the sidecar) is not in original->modified, but the
    // three-way delta still resets replicas to the manifest's value.
    assert!(p.contains("\"replicas\":2"), "{p}");
    assert_eq!(patch([MONITOR[0], MONITOR[0], MONITOR[2]], &[]), "{}\n");
    let out = json(&patch([MONITOR[0], MONITOR[0], MONITOR[2]], &["-o", "json"]));
    assert_eq!(out["empty"], true);
}

#[test]
fn take_ownership_uses_the_three_way_merge_patch_for_custom_resources() {
    // The live-only jobLabel is not in the new manifest; the three-way form still keeps it
    // (JSON merge patch never deletes what only the live object has) but compares against live.
    let p = patch(MONITOR, &["--take-ownership"]);
    assert_eq!(p, "{\"spec\":{\"endpoints\":[{\"interval\":\"15s\",\"port\":\"metrics\"}]}}\n");
    // A renamed object violates Helm's preconditions.
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("m.yaml");
    std::fs::write(&renamed, std::fs::read_to_string(crate::support::fixture("patch/servicemonitor-modified.yaml")).unwrap().replace("name: web", "name: other")).unwrap();
    let err = fails(&["patch", MONITOR[0], renamed.to_str().unwrap(), MONITOR[2]]);
    assert!(err.contains("give three versions of the same object"), "{err}");
}

#[test]
fn type_flag_forces_the_patch_type() {
    let out = json(&patch(DEPLOY, &["--type", "merge", "-o", "json"]));
    assert_eq!(out["type"], "merge");
    let err = fails(&["patch", MONITOR[0], MONITOR[1], MONITOR[2], "--type", "strategic"]);
    assert!(err.contains("monitoring.coreos.com/v1 ServiceMonitor is not a built-in kind"), "{err}");
}

#[test]
fn current_can_come_from_stdin() {
    let live = std::fs::read(crate::support::fixture("patch/deployment-current.yaml")).unwrap();
    let r = run(releasex().args(["patch", DEPLOY[0], DEPLOY[1], "-"]).write_stdin(live));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, patch(DEPLOY, &[]));
    let err = fails(&["patch", "-", "-", DEPLOY[2]]);
    assert!(err.contains("only one of ORIGINAL, MODIFIED and CURRENT can be -"), "{err}");
}

#[test]
fn bad_input_names_the_argument_and_file() {
    let err = fails(&["patch", "tests/fixtures/bad/empty.json", DEPLOY[1], "tests/fixtures/nope.yaml"]);
    assert!(err.contains("cannot read CURRENT tests/fixtures/nope.yaml"), "{err}");
    let err = fails(&["patch", DEPLOY[0], "tests/fixtures/releases/secret-hook.list.yaml", DEPLOY[2]]);
    assert!(err.contains(r#"ORIGINAL is Deployment "web" (group apps) but MODIFIED is List "" (group core)"#), "{err}");
    let err = fails(&["patch", DEPLOY[0], "Cargo.toml", DEPLOY[2]]);
    assert!(err.contains("MODIFIED Cargo.toml"), "{err}");
}

/// A minimal OpenAPI v3 document for apps/v1 in which containers are
/// replaced whole: a patch computed with it differs visibly from one computed
/// with the embedded struct-tag table.
fn replace_containers_v3() -> serde_json::Value {
    let r = |name: &str| serde_json::json!({"allOf": [{"$ref": format!("#/components/schemas/{name}")}]});
    serde_json::json!({"components": {"schemas": {
        "io.k8s.api.apps.v1.Deployment": {"type": "object",
            "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
            "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": r("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
                "spec": r("io.k8s.api.apps.v1.DeploymentSpec"), "status": {"type": "object"}}},
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object", "properties": {
            "name": {"type": "string"}, "namespace": {"type": "string"}, "uid": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "io.k8s.api.apps.v1.DeploymentSpec": {"type": "object", "properties": {
            "replicas": {"type": "integer"}, "template": r("io.k8s.api.core.v1.PodTemplateSpec")}},
        "io.k8s.api.core.v1.PodTemplateSpec": {"type": "object", "properties": {"spec": r("io.k8s.api.core.v1.PodSpec")}},
        "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
            "containers": {"type": "array", "items": r("io.k8s.api.core.v1.Container"), "x-kubernetes-patch-strategy": "replace"}}},
        "io.k8s.api.core.v1.Container": {"type": "object", "properties": {"name": {"type": "string"}, "image": {"type": "string"},
            "env": {"type": "array", "items": {"type": "object"}}}}
    }}})
}

#[test]
fn patch_metadata_can_come_from_the_clusters_openapi() {
    use crate::fixture_api::FixtureApi;
    let api = FixtureApi::start(Vec::new());
    api.serve("/openapi/v3", serde_json::json!({"paths": {"apis/apps/v1": {"serverRelativeURL": "/openapi/v3/apis/apps/v1?hash=abc"}}}));
    api.serve("/openapi/v3/apis/apps/v1", replace_containers_v3());
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "default");
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).args(["patch", DEPLOY[0], DEPLOY[1], DEPLOY[2], "--patch-meta-from-cluster"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    // containers are replaced whole: no $setElementOrder, the sidecar is dropped.
    assert!(!r.stdout.contains("$setElementOrder"), "{}", r.stdout);
    assert!(r.stdout.contains(r#""containers":[{"env":[{"name":"A","value":"1"}],"image":"x:2","name":"a"}]"#), "{}", r.stdout);
    api.assert_read_only();
    let paths: Vec<String> = api.requests().into_iter().map(|q| q.path).collect();
    assert_eq!(paths, ["/openapi/v3", "/openapi/v3/apis/apps/v1"]);
    // The same document from a file gives the same patch.
    let file = dir.path().join("openapi-v3.json");
    std::fs::write(&file, replace_containers_v3().to_string()).unwrap();
    assert_eq!(patch(DEPLOY, &["--patch-meta", file.to_str().unwrap()]), r.stdout);
}
