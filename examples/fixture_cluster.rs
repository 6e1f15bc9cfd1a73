//! A read-only fixture cluster for trying `upgrade-preview` by hand without
//! a real cluster: the tests' fixture API server (tests/fixture_api) on
//! 127.0.0.1, holding a release's Secrets and the objects of its last
//! revision's manifest as Helm applied them (ownership metadata, uid, ...).
//! Discovery serves the built-in kinds plus every kind found in the
//! manifests, so charts with custom resources work.
//!
//! ```text
//! cargo run --example fixture_cluster -- RELEASE-LIST.json NAMESPACE DIR [MANIFEST.yaml...]
//! ```
//! RELEASE-LIST.json: the release Secrets as a List (what the Helm oracle's
//! `release-secrets --as-list` prints, or `kubectl get secret -l owner=helm -o json`).
//! MANIFEST.yaml: more manifests whose kinds discovery must know (the new
//! render). Writes DIR/kubeconfig, prints its path, serves until stdin closes.

#[path = "../tests/fixture_api/mod.rs"]
mod fixture_api;

use std::io::Read as _;

use serde_json::{Value, json};

/// Kinds that are not namespaced, among those charts create.
const CLUSTER_SCOPED: &[&str] = &[
    "Namespace",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "APIService",
    "IngressClass",
];

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Every (apiVersion, kind) of a manifest's documents.
fn kinds_of(manifest: &str) -> Vec<(String, String)> {
    releasex::manifest::split(manifest)
        .into_iter()
        .flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap_or_default())
        .filter_map(|o| Some((o.get("apiVersion")?.as_str()?.to_string(), o.get("kind")?.as_str()?.to_string())))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [list, namespace, dir, extra @ ..] = args.as_slice() else {
        eprintln!("usage: fixture_cluster RELEASE-LIST.json NAMESPACE DIR [MANIFEST.yaml...]");
        std::process::exit(1);
    };
    let text = std::fs::read_to_string(list).unwrap_or_else(|e| panic!("{list}: {e}"));
    let stored = releasex::release::source::parse_input(list, text.as_bytes()).unwrap_or_else(|e| panic!("{list}: {e}"));
    let records = releasex::release::decode_history(stored, None, list).unwrap_or_else(|e| panic!("{list}: {e}"));
    let last = &records.last().expect("a record").release;
    let manifest = last.manifest().to_string();
    let mut objects: Vec<Value> = Vec::new();
    for (i, mut o) in releasex::manifest::split(&manifest)
        .into_iter()
        .flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap_or_default())
        .filter(|o| o.get("kind").is_some())
        .enumerate()
    {
        releasex::upgrade::add_ownership(&mut o, last.name(), namespace);
        // The API server stores a Secret's stringData base64-encoded in data.
        if o["kind"] == "Secret"
            && let Some(Value::Object(strings)) = o.as_object_mut().and_then(|m| m.remove("stringData"))
        {
            use base64::Engine as _;
            for (k, v) in strings {
                let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                o["data"][k] = json!(base64::engine::general_purpose::STANDARD.encode(text));
            }
        }
        let kind = o["kind"].as_str().unwrap_or_default().to_string();
        let meta = o["metadata"].as_object_mut().expect("metadata");
        if !CLUSTER_SCOPED.contains(&kind.as_str()) {
            meta.entry("namespace").or_insert(json!(namespace));
        }
        meta.insert("uid".into(), json!(format!("00000000-0000-0000-0000-{:012}", i + 1)));
        meta.insert("resourceVersion".into(), json!(format!("{}", 5000 + i)));
        meta.insert("creationTimestamp".into(), json!("2026-11-29T12:00:00Z"));
        objects.push(o);
    }
    let secrets: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    for (i, s) in secrets["items"].as_array().into_iter().flatten().enumerate() {
        objects.push(fixture_api::as_served(s.clone(), namespace, 100 + i));
    }
    let mut resources = fixture_api::default_resources();
    let mut wanted = kinds_of(&manifest);
    for file in extra {
        wanted.extend(kinds_of(&std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"))));
    }
    for (api_version, kind) in wanted {
        let (group, version) = api_version.split_once('/').unwrap_or(("", &api_version));
        if resources.iter().any(|r| r.kind == kind && r.group == group && r.version == version) {
            continue;
        }
        resources.push(fixture_api::ApiResource {
            group: leak(group.to_string()),
            version: leak(version.to_string()),
            name: leak(format!("{}s", kind.to_ascii_lowercase())),
            kind: leak(kind.clone()),
            namespaced: !CLUSTER_SCOPED.contains(&kind.as_str()),
            subresources: &[],
        });
    }
    let served = objects.len();
    let api = fixture_api::FixtureApi::start_with(fixture_api::Config { resources, objects, ..fixture_api::Config::default() });
    let kubeconfig = api.write_kubeconfig(std::path::Path::new(dir), namespace);
    println!("{}", kubeconfig.display());
    eprintln!("serving {served} objects at {} (read-only); close stdin to stop", api.url());
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}
