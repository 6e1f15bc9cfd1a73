//! `--offline`: a preview without an API server, as helm-diff compares by
//! default (the new render against the baseline revision's stored
//! manifest). What a cluster would have told is replaced, and the report
//! says so:
//! - discovery: every kind of both manifests is taken as served; its scope
//!   comes from the CustomResourceDefinitions in the manifests or the
//!   chart's `crds/` when they define it, else from the built-in Kubernetes
//!   kinds below (cluster-scoped ones listed; every other kind is taken as
//!   namespaced);
//! - live state: each object of the stored manifest, as Helm applied it
//!   (with its ownership metadata), so drift, server defaults and other
//!   field managers are unknown;
//! - capabilities: `--kube-version` and `--api-versions` only (else Helm's
//!   own defaults).

use std::collections::HashMap;

use serde_json::Value;

use super::LiveKey;
use super::manifest::Manifest;
use crate::render::add_ownership;
use crate::cluster::{ApiResource, Discovery};

/// Built-in kinds that are not namespaced (`kubectl api-resources
/// --namespaced=false` of Kubernetes 1.33), by group and kind.
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "ComponentStatus"),
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"),
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("apiregistration.k8s.io", "APIService"),
    ("certificates.k8s.io", "CertificateSigningRequest"),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
    ("networking.k8s.io", "IngressClass"),
    ("networking.k8s.io", "IPAddress"),
    ("networking.k8s.io", "ServiceCIDR"),
    ("node.k8s.io", "RuntimeClass"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("resource.k8s.io", "DeviceClass"),
    ("resource.k8s.io", "ResourceSlice"),
    ("scheduling.k8s.io", "PriorityClass"),
    ("storage.k8s.io", "CSIDriver"),
    ("storage.k8s.io", "CSINode"),
    ("storage.k8s.io", "StorageClass"),
    ("storage.k8s.io", "VolumeAttachment"),
];

/// A discovery that serves every kind of `documents` (the manifests' and the chart's CRDs).
pub fn discovery(documents: &[&Value], kube_version: Option<&str>) -> Discovery {
    // Helm's client flattens `kind: List` documents into their items.
    let documents: Vec<&Value> = documents
        .iter()
        .flat_map(|&v| match v.get("items").and_then(Value::as_array) {
            Some(items) if v["kind"].as_str().is_some_and(|k| k.ends_with("List")) => items.iter().collect(),
            _ => vec![v],
        })
        .collect();
    // Scopes the CRDs declare: (group, kind) -> namespaced.
    let mut crd_scope: HashMap<(String, String), bool> = HashMap::new();
    for d in documents.iter().filter(|d| d["kind"] == "CustomResourceDefinition") {
        if let (Some(group), Some(kind)) = (d["spec"]["group"].as_str(), d["spec"]["names"]["kind"].as_str()) {
            crd_scope.insert((group.to_string(), kind.to_string()), d["spec"]["scope"].as_str() != Some("Cluster"));
        }
    }
    let mut out = Discovery { server_version: kube_version.unwrap_or_default().to_string(), ..Discovery::default() };
    for d in &documents {
        let (Some(api_version), Some(kind)) = (d["apiVersion"].as_str(), d["kind"].as_str()) else { continue };
        if out.find(api_version, kind).is_some() {
            continue;
        }
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let namespaced = crd_scope
            .get(&(group.to_string(), kind.to_string()))
            .copied()
            .unwrap_or_else(|| !CLUSTER_SCOPED.contains(&(group, kind)));
        out.resources.push(ApiResource {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
            plural: format!("{}s", kind.to_lowercase()),
            namespaced,
        });
        if !out.group_versions.iter().any(|gv| gv == api_version) {
            out.group_versions.push(api_version.to_string());
        }
    }
    out
}

/// The stand-in for live state: each object of the baseline's stored
/// manifest as Helm applied it and the API server stored it (a Secret's
/// `stringData` is written into `data`, base64-encoded, and dropped).
pub fn live_from_stored(old: &Manifest, release: &str, namespace: &str) -> HashMap<LiveKey, Value> {
    old.objects
        .iter()
        .map(|o| {
            let mut applied = o.object.clone();
            add_ownership(&mut applied, release, namespace);
            if applied["kind"] == "Secret" && applied["apiVersion"] == "v1" {
                store_string_data(&mut applied);
            }
            (LiveKey::of(&o.object), applied)
        })
        .collect()
}

/// The API server's handling of a Secret's `stringData` (k8s: pkg/apis/core
/// Secret conversion): each entry overwrites `data` with its base64 form.
fn store_string_data(secret: &mut Value) {
    use base64::Engine as _;
    let Some(obj) = secret.as_object_mut() else { return };
    let Some(Value::Object(string_data)) = obj.remove("stringData") else { return };
    let data = obj.entry("data").or_insert_with(|| Value::Object(Default::default()));
    if let Value::Object(data) = data {
        for (k, v) in string_data {
            let text = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
            data.insert(k, Value::String(base64::engine::general_purpose::STANDARD.encode(text)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_served_with_their_scope() {
        let manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n---\napiVersion: example.io/v1\nkind: Widget\nmetadata:\n  name: w\n---\napiVersion: example.io/v1\nkind: Gadget\nmetadata:\n  name: g\n";
        let crd: Value = serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "spec": {"group": "example.io", "scope": "Cluster", "names": {"kind": "Gadget"}}});
        let mut documents: Vec<Value> = crate::manifest::split(manifest).into_iter().filter_map(|d| serde_saphyr::from_str(d).ok()).collect();
        documents.push(serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "example.io/v1", "kind": "Gizmo"}]}));
        documents.push(crd);
        let d = discovery(&documents.iter().collect::<Vec<_>>(), Some("v1.31.0"));
        assert!(d.find("example.io/v1", "Gizmo").is_some(), "a List's items are served");
        assert!(d.find("v1", "ConfigMap").unwrap().namespaced);
        assert!(!d.find("rbac.authorization.k8s.io/v1", "ClusterRole").unwrap().namespaced);
        assert!(d.find("example.io/v1", "Widget").unwrap().namespaced, "an unknown kind is taken as namespaced");
        assert!(!d.find("example.io/v1", "Gadget").unwrap().namespaced, "the CRD says Cluster");
        assert_eq!(d.server_version, "v1.31.0");
    }

    #[test]
    fn a_stored_secret_stands_in_as_the_server_keeps_it() {
        let mut s = serde_json::json!({"apiVersion": "v1", "kind": "Secret", "data": {"a": "eA=="}, "stringData": {"b": "pw"}});
        store_string_data(&mut s);
        assert_eq!(s, serde_json::json!({"apiVersion": "v1", "kind": "Secret", "data": {"a": "eA==", "b": "cHc="}}));
    }
}
