//! Which patch `helm upgrade` sends for one object, and its exact bytes.
//! helm: pkg/kube/client.go createPatch; pkg/kube/converter.go AsVersioned
//!
//! Kinds in Helm's scheme (client-go's built-in types plus
//! apiextensions.k8s.io v1 and v1beta1) are typed and get the three-way
//! strategic merge patch with overwrite. Everything else (custom resources,
//! aggregated APIs, and v1beta1 CRDs, which Helm special-cases) gets the
//! two-way JSON merge patch old manifest -> new manifest, which ignores the
//! live object; only `helm install --take-ownership` uses the three-way JSON
//! merge patch.

use serde_json::Value;

use crate::go::json as gojson;
use super::jsonmerge::{self, JsonMergeError, Precondition};
use super::meta::{HelmPatchType, OpenApiV2Meta, builtin_kind};
use super::strategic::{self, PatchError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PatchType {
    Strategic,
    Merge,
}

impl PatchType {
    pub fn content_type(self) -> &'static str {
        match self {
            PatchType::Strategic => "application/strategic-merge-patch+json",
            PatchType::Merge => "application/merge-patch+json",
        }
    }
}

/// What the caller asks for: Helm's own choice, or a forced patch type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Requested {
    #[default]
    Auto,
    Strategic,
    Merge,
}

/// Which Helm action computes the patch (it decides the JSON merge patch form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Action {
    /// `helm upgrade` and `helm rollback`: two-way JSON merge patch.
    #[default]
    Upgrade,
    /// `helm install --take-ownership` (client-side apply): three-way JSON
    /// merge patch with the apiVersion/kind/name preconditions.
    TakeOwnership,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    pub requested: Requested,
    pub action: Action,
    /// Patch metadata from a cluster's OpenAPI instead of the embedded
    /// struct-tag table (kinds it lacks fall back to the table).
    pub openapi: Option<&'a OpenApiV2Meta>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HelmPatch {
    pub patch_type: PatchType,
    pub patch: Value,
    /// The request body exactly as Go marshals it.
    pub bytes: String,
    /// Why this patch type (for people).
    pub reason: String,
}

impl HelmPatch {
    /// Helm sends nothing when the patch is `{}` ("no changes detected").
    pub fn is_empty(&self) -> bool {
        self.bytes == "{}"
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HelmPatchError {
    #[error("strategic merge patch for {object}: {source}")]
    Strategic {
        object: String,
        #[source]
        source: PatchError,
    },
    #[error("JSON merge patch for {object}: {source}")]
    Merge {
        object: String,
        #[source]
        source: JsonMergeError,
    },
    #[error("{object}: --type strategic needs patch metadata, and {api_version} {kind} is not a built-in kind (give --patch-meta with the cluster's OpenAPI, or use --type merge)")]
    NoMetadata { object: String, api_version: String, kind: String },
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    crate::keypath::pointer(v, pointer).and_then(Value::as_str).unwrap_or("")
}

/// The apiVersion and kind that decide the patch type: the new object's,
/// else the old one's.
fn type_of<'v>(original: &'v Value, modified: &'v Value) -> (&'v str, &'v str) {
    let pick = |p: &str| {
        let m = str_at(modified, p);
        if m.is_empty() { str_at(original, p) } else { m }
    };
    (pick("/apiVersion"), pick("/kind"))
}

/// Computes the patch Helm would send for one object.
/// `current` is `Value::Null` when the object is not in the cluster.
pub fn helm_patch(original: &Value, modified: &Value, current: &Value, opts: Options<'_>) -> Result<HelmPatch, HelmPatchError> {
    let (api_version, kind) = type_of(original, modified);
    let name = {
        let m = str_at(modified, "/metadata/name");
        if m.is_empty() { str_at(original, "/metadata/name") } else { m }
    };
    let object = format!("{kind} {name}");
    let builtin = builtin_kind(api_version, kind);
    let openapi = opts.openapi.and_then(|o| o.for_kind(api_version, kind));
    let (typed, why) = match builtin {
        Some(b) if !b.in_helm_scheme => (false, format!("{api_version} {kind} is not in Helm's scheme, so Helm treats it as unstructured")),
        Some(b) if b.helm_patch_type == HelmPatchType::JsonMerge => {
            (false, format!("Helm special-cases {api_version} {kind} and sends a JSON merge patch"))
        }
        Some(_) => (true, format!("{api_version} {kind} is a built-in kind: Helm sends a three-way strategic merge patch")),
        None => (false, format!("{api_version} {kind} is not a built-in kind (custom resource or aggregated API): Helm sends a JSON merge patch")),
    };
    let patch_type = match opts.requested {
        Requested::Auto => {
            if typed {
                PatchType::Strategic
            } else {
                PatchType::Merge
            }
        }
        Requested::Strategic => PatchType::Strategic,
        Requested::Merge => PatchType::Merge,
    };
    let reason = match opts.requested {
        Requested::Auto => why,
        _ => format!("patch type forced with --type ({why} by default)"),
    };
    match patch_type {
        PatchType::Strategic => {
            let err = |source| HelmPatchError::Strategic { object: object.clone(), source };
            // Helm's metadata is the struct tags; an OpenAPI document given by the user wins.
            let patch = match (openapi, builtin) {
                (Some(lookup), _) => strategic::create_three_way(original, modified, current, &lookup, true).map_err(err)?,
                (None, Some(b)) => strategic::create_three_way(original, modified, current, &b.meta, true).map_err(err)?,
                (None, None) => {
                    return Err(HelmPatchError::NoMetadata { object, api_version: api_version.into(), kind: kind.into() });
                }
            };
            let bytes = gojson::to_go_json(&patch);
            Ok(HelmPatch { patch_type, patch, bytes, reason })
        }
        PatchType::Merge => {
            let err = |source| HelmPatchError::Merge { object: object.clone(), source };
            let patch = match opts.action {
                Action::Upgrade => jsonmerge::create_merge_patch(original, modified).map_err(err)?,
                Action::TakeOwnership => {
                    jsonmerge::create_three_way(original, modified, current, &Precondition::helm()).map_err(err)?
                }
            };
            // evanphx decodes every number as float64.
            let bytes = gojson::to_go_json_float64(&patch);
            Ok(HelmPatch { patch_type, patch, bytes, reason })
        }
    }
}

/// The object the API server would hold after `patch` is applied to
/// `current`, with the same patch metadata [`helm_patch`] used.
pub fn apply_helm_patch(current: &Value, patch: &HelmPatch, opts: Options<'_>) -> Result<Value, HelmPatchError> {
    let (api_version, kind) = type_of(current, current);
    let object = format!("{kind} {}", str_at(current, "/metadata/name"));
    match patch.patch_type {
        PatchType::Strategic => {
            let err = |source| HelmPatchError::Strategic { object: object.clone(), source };
            match (opts.openapi.and_then(|o| o.for_kind(api_version, kind)), builtin_kind(api_version, kind)) {
                (Some(lookup), _) => strategic::apply(current, &patch.patch, &lookup).map_err(err),
                (None, Some(b)) => strategic::apply(current, &patch.patch, &b.meta).map_err(err),
                (None, None) => Err(HelmPatchError::NoMetadata { object, api_version: api_version.into(), kind: kind.into() }),
            }
        }
        PatchType::Merge => jsonmerge::apply(current, &patch.patch).map_err(|source| HelmPatchError::Merge { object, source }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(replicas: i64, image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
               "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "app", "image": image}]}}}})
    }

    #[test]
    fn built_in_kinds_get_a_three_way_strategic_patch_that_keeps_live_only_fields() {
        let mut current = deployment(5, "app:1");
        current["spec"]["template"]["spec"]["containers"].as_array_mut().unwrap().push(json!({"name": "sidecar", "image": "s"}));
        let p = helm_patch(&deployment(2, "app:1"), &deployment(2, "app:2"), &current, Options::default()).unwrap();
        assert_eq!(p.patch_type, PatchType::Strategic);
        // replicas drifted live and is reset; the sidecar survives (not in the patch's delete list).
        assert_eq!(
            p.bytes,
            r#"{"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"app:2","name":"app"}]}}}}"#
        );
    }

    #[test]
    fn custom_resources_get_a_two_way_merge_patch_that_ignores_live_drift() {
        let cr = |port: &str| json!({"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor", "metadata": {"name": "m"}, "spec": {"endpoints": [{"port": port}]}});
        let mut live = cr("web");
        live["spec"]["jobLabel"] = json!("edited-live");
        let p = helm_patch(&cr("web"), &cr("web"), &live, Options::default()).unwrap();
        assert_eq!(p.patch_type, PatchType::Merge);
        assert!(p.is_empty(), "unchanged CR sends nothing even though it drifted: {}", p.bytes);
        let p = helm_patch(&cr("web"), &cr("metrics"), &live, Options::default()).unwrap();
        assert_eq!(p.bytes, r#"{"spec":{"endpoints":[{"port":"metrics"}]}}"#);
    }

    #[test]
    fn v1beta1_crds_get_a_merge_patch_and_v1_crds_a_strategic_one() {
        let crd = |v: &str, group: &str| json!({"apiVersion": v, "kind": "CustomResourceDefinition", "metadata": {"name": "x"}, "spec": {"group": group}});
        let old = crd("apiextensions.k8s.io/v1beta1", "a");
        let new = crd("apiextensions.k8s.io/v1beta1", "b");
        assert_eq!(helm_patch(&old, &new, &old, Options::default()).unwrap().patch_type, PatchType::Merge);
        let old = crd("apiextensions.k8s.io/v1", "a");
        let new = crd("apiextensions.k8s.io/v1", "b");
        assert_eq!(helm_patch(&old, &new, &old, Options::default()).unwrap().patch_type, PatchType::Strategic);
    }
}
