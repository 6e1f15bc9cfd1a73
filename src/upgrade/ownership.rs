//! Helm's ownership metadata: the check an existing object must pass to be
//! adopted (what Helm adds to every object is `render::add_ownership`).
//! helm: pkg/action/validate.go checkOwnership, setMetadataVisitor

use serde_json::Value;

pub use crate::render::add_ownership;
use crate::render::{MANAGED_BY_HELM, MANAGED_BY_LABEL as MANAGED_BY, RELEASE_NAME_ANNOTATION as RELEASE_NAME, RELEASE_NAMESPACE_ANNOTATION as RELEASE_NAMESPACE};

/// `checkOwnership`: the error text after `... cannot be imported into the
/// current release: `, or Ok when the object belongs to this release.
pub fn check_ownership(live: &Value, release: &str, namespace: &str) -> Result<(), String> {
    let get = |field: &str, key: &str| live.pointer(&format!("/metadata/{field}")).and_then(|m| m.get(key)).and_then(Value::as_str);
    let require = |field: &str, key: &str, want: &str| match get(field, key) {
        None => Some(format!("missing key {key:?}: must be set to {want:?}")),
        Some(actual) if actual != want => Some(format!("key {key:?} must equal {want:?}: current value is {actual:?}")),
        Some(_) => None,
    };
    let mut errors = Vec::new();
    if let Some(e) = require("labels", MANAGED_BY, MANAGED_BY_HELM) {
        errors.push(format!("label validation error: {e}"));
    }
    if let Some(e) = require("annotations", RELEASE_NAME, release) {
        errors.push(format!("annotation validation error: {e}"));
    }
    if let Some(e) = require("annotations", RELEASE_NAMESPACE, namespace) {
        errors.push(format!("annotation validation error: {e}"));
    }
    if errors.is_empty() { Ok(()) } else { Err(format!("invalid ownership metadata; {}", errors.join("; "))) }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ownership_errors_use_helms_words_in_helms_order() {
        let other = json!({"metadata": {"labels": {"app.kubernetes.io/managed-by": "helm"}, "annotations": {"meta.helm.sh/release-name": "rel-a"}}});
        assert_eq!(
            check_ownership(&other, "rel-b", "ns").unwrap_err(),
            "invalid ownership metadata; label validation error: key \"app.kubernetes.io/managed-by\" must equal \"Helm\": current value is \"helm\"; annotation validation error: key \"meta.helm.sh/release-name\" must equal \"rel-b\": current value is \"rel-a\"; annotation validation error: missing key \"meta.helm.sh/release-namespace\": must be set to \"ns\""
        );
        let mut mine = json!({"metadata": {"name": "x"}});
        add_ownership(&mut mine, "rel-b", "ns");
        assert_eq!(check_ownership(&mine, "rel-b", "ns"), Ok(()));
    }

    #[test]
    fn ownership_metadata_merges_into_existing_labels_and_annotations() {
        let mut o = json!({"metadata": {"labels": {"app": "web", "app.kubernetes.io/managed-by": "other"}, "annotations": null}});
        add_ownership(&mut o, "web", "prod");
        assert_eq!(o["metadata"]["labels"], json!({"app": "web", "app.kubernetes.io/managed-by": "Helm"}));
        assert_eq!(o["metadata"]["annotations"], json!({"meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "prod"}));
    }
}
