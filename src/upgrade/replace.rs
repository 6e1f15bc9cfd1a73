//! `--force-replace` (Helm 3's `--force`): Helm replaces each existing
//! object with a PUT of the rendered object instead of patching it.
//! helm: pkg/kube/client.go `replaceResource` -> client-go
//! `resource.Helper.Replace(ns, name, overwrite=true, obj)`: the body is the
//! target object (with Helm's ownership metadata); as it carries no
//! `resourceVersion`, the helper GETs the live object and copies its
//! `resourceVersion` in. Everything the cluster holds that the body does not
//! carry is dropped, except what the API server sets again (its defaults,
//! status, server-owned metadata).

use serde_json::Value;

use super::drift;
use crate::keypath::{Path, Seg};

/// Metadata the API server owns: never in a PUT body, never reset by one.
const SERVER_METADATA: [&str; 7] = ["uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink", "deletionTimestamp"];

/// The PUT Helm sends for an existing object, and what it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacement {
    pub body: Value,
    /// The object after the PUT, as far as it can be predicted: the body with
    /// the live object's status and server metadata.
    pub predicted: Value,
    /// Live fields the body does not carry that a field manager set (listed
    /// in the live object's managedFields: `kubectl scale`, an HPA, an edit),
    /// with their live values: the PUT drops them.
    pub dropped: Vec<(Path, Value)>,
    /// Live fields the body does not carry that no manager owns: server
    /// defaults, which the API server sets again.
    pub defaulted: Vec<Path>,
    /// The live object has no managedFields, so the two cannot be told apart
    /// (`dropped` then holds every field the body does not carry).
    pub ownership_unknown: bool,
    /// Whether the object changes (a body field differs, or a field is dropped).
    pub changes: bool,
}

/// The replacement of `live` by `target` (already carrying Helm's ownership metadata).
pub fn replacement(target: &Value, live: &Value) -> Replacement {
    let mut body = target.clone();
    let has_version = body.pointer("/metadata/resourceVersion").is_some_and(|v| !v.is_null());
    if !has_version
        && let (Some(version), Some(meta)) = (live.pointer("/metadata/resourceVersion"), body.get_mut("metadata").and_then(Value::as_object_mut))
    {
        meta.insert("resourceVersion".into(), version.clone());
    }
    let mut predicted = body.clone();
    if let (Some(p), Some(status)) = (predicted.as_object_mut(), live.get("status")) {
        // The main resource's PUT leaves the status subresource alone.
        p.insert("status".into(), status.clone());
    }
    keep_server_metadata(&mut predicted, live);
    let owned = owned_field_sets(live);
    let mut dropped = Vec::new();
    let mut defaulted = Vec::new();
    absent_leaves(live, &body, &Path::default(), &mut |path, value| {
        if is_server_managed(path) {
            return;
        }
        match &owned {
            Some(sets) if !sets.iter().any(|set| owns(set, live, &path.0)) => defaulted.push(path.clone()),
            _ => dropped.push((path.clone(), value.clone())),
        }
    });
    let changes = !drift::body_matches_live(&strip_version(&body), live) || (owned.is_some() && !dropped.is_empty());
    Replacement { body, predicted, dropped, defaulted, ownership_unknown: owned.is_none(), changes }
}

/// The API server keeps an object's uid, creationTimestamp, generation and
/// managedFields through any update, whatever the request says of them
/// (apiserver: pkg/registry/rest/update.go BeforeUpdate); `updated` gets
/// `live`'s.
pub fn keep_server_metadata(updated: &mut Value, live: &Value) {
    let (Some(um), Some(lm)) = (updated.get_mut("metadata").and_then(Value::as_object_mut), live.get("metadata").and_then(Value::as_object)) else {
        return;
    };
    for k in SERVER_METADATA {
        match lm.get(k) {
            Some(v) => {
                um.insert(k.to_string(), v.clone());
            }
            None => {
                um.remove(k);
            }
        }
    }
}

fn strip_version(body: &Value) -> Value {
    let mut b = body.clone();
    if let Some(meta) = b.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("resourceVersion");
    }
    b
}

fn is_server_managed(path: &Path) -> bool {
    match path.0.as_slice() {
        [Seg::Key(k), ..] if k == "status" => true,
        [Seg::Key(m), Seg::Key(k), ..] if m == "metadata" => SERVER_METADATA.contains(&k.as_str()),
        _ => false,
    }
}

/// Calls `found` for each leaf (scalar, or empty map/list) of `live` that
/// `body` does not have; lists are compared element by element.
fn absent_leaves(live: &Value, body: &Value, at: &Path, found: &mut dyn FnMut(&Path, &Value)) {
    match (live, body) {
        (Value::Object(l), Value::Object(b)) => {
            for (k, v) in l {
                match b.get(k) {
                    Some(w) => absent_leaves(v, w, &at.key(k), found),
                    None => leaves(v, &at.key(k), found),
                }
            }
        }
        (Value::Array(l), Value::Array(b)) => {
            for (i, v) in l.iter().enumerate() {
                match b.get(i) {
                    Some(w) => absent_leaves(v, w, &at.index(i), found),
                    None => leaves(v, &at.index(i), found),
                }
            }
        }
        _ => {}
    }
}

fn leaves(v: &Value, at: &Path, found: &mut dyn FnMut(&Path, &Value)) {
    match v {
        Value::Object(m) if !m.is_empty() => m.iter().for_each(|(k, w)| leaves(w, &at.key(k), found)),
        Value::Array(a) if !a.is_empty() => a.iter().enumerate().for_each(|(i, w)| leaves(w, &at.index(i), found)),
        _ => found(at, v),
    }
}

/// The `fieldsV1` sets of every managedFields entry; `None` without any.
fn owned_field_sets(live: &Value) -> Option<Vec<&Value>> {
    let entries = live.pointer("/metadata/managedFields")?.as_array()?;
    let sets: Vec<&Value> = entries.iter().filter_map(|e| e.get("fieldsV1")).collect();
    (!sets.is_empty()).then_some(sets)
}

/// Whether the fieldsV1 set `set` holds the field at `path` of `object`
/// (structured-merge-diff's serialization: `f:NAME` for a map key, `k:{..}`
/// for a list element by its key fields, `v:VALUE` for a set element,
/// `i:N` for an atomic list's index). An owned parent map or list element
/// (`.`) does not own its children.
fn owns(set: &Value, object: &Value, path: &[Seg]) -> bool {
    let Some((first, rest)) = path.split_first() else { return true };
    let (child, value) = match first {
        Seg::Key(k) => (set.get(format!("f:{k}")), object.get(k)),
        Seg::Index(i) => {
            let Some(element) = object.get(*i) else { return false };
            let Some(keys) = set.as_object() else { return false };
            let found = keys.iter().find(|(name, _)| list_element_matches(name, element, *i)).map(|(_, v)| v);
            (found, Some(element))
        }
    };
    match (child, value) {
        (Some(c), Some(v)) => owns(c, v, rest),
        _ => false,
    }
}

fn list_element_matches(name: &str, element: &Value, index: usize) -> bool {
    if let Some(keys) = name.strip_prefix("k:") {
        let Ok(Value::Object(keys)) = serde_json::from_str::<Value>(keys) else { return false };
        return keys.iter().all(|(k, v)| element.get(k).is_some_and(|e| crate::values::same_as_float64(e, v)));
    }
    if let Some(v) = name.strip_prefix("v:") {
        return serde_json::from_str::<Value>(v).is_ok_and(|v| crate::values::same_as_float64(&v, element));
    }
    name.strip_prefix("i:").and_then(|i| i.parse::<usize>().ok()) == Some(index)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn live() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "prod", "uid": "u1", "resourceVersion": "42", "labels": {"app": "web", "team": "a"},
                "managedFields": [
                    {"manager": "helm", "operation": "Update", "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
                    {"manager": "kubectl", "operation": "Update", "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}, "f:spec": {"f:replicas": {}}}}
                ]},
            "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "web", "image": "web:1", "imagePullPolicy": "IfNotPresent"}]}}},
            "status": {"replicas": 5}
        })
    }

    fn target() -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod", "labels": {"app": "web"}},
               "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}})
    }

    #[test]
    fn the_put_body_carries_the_live_resource_version() {
        let r = replacement(&target(), &live());
        assert_eq!(r.body["metadata"]["resourceVersion"], "42");
        assert_eq!(r.body["spec"], target()["spec"]);
        assert_eq!(r.predicted["status"], json!({"replicas": 5}));
        assert_eq!(r.predicted["metadata"]["uid"], "u1");
    }

    #[test]
    fn fields_a_manager_set_are_dropped_and_server_defaults_come_back() {
        let r = replacement(&target(), &live());
        let dropped: Vec<String> = r.dropped.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(dropped, ["metadata.labels.team", "spec.replicas"]);
        assert_eq!(r.dropped[1].1, json!(5));
        let defaulted: Vec<String> = r.defaulted.iter().map(ToString::to_string).collect();
        assert_eq!(defaulted, ["spec.template.spec.containers[0].imagePullPolicy"]);
        assert!(r.changes);
        assert!(!r.ownership_unknown);
    }

    #[test]
    fn a_replacement_that_only_drops_defaults_changes_nothing() {
        let mut l = live();
        l["metadata"]["labels"].as_object_mut().unwrap().remove("team");
        l["spec"].as_object_mut().unwrap().remove("replicas");
        let r = replacement(&target(), &l);
        assert!(r.dropped.is_empty(), "{:?}", r.dropped);
        assert!(!r.changes);
    }

    #[test]
    fn without_managed_fields_every_missing_field_is_listed_as_dropped() {
        let mut l = live();
        l["metadata"].as_object_mut().unwrap().remove("managedFields");
        let r = replacement(&target(), &l);
        assert!(r.ownership_unknown);
        assert_eq!(r.dropped.len(), 3);
        assert!(r.defaulted.is_empty());
    }
}
