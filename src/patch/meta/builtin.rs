//! The built-in Kubernetes kinds: patch metadata from the Go struct tags of
//! k8s.io/api v0.36.2 (what Helm 3.21 compiles in), embedded and parsed once.

use super::StructMeta;
use super::types::TypeTable;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE_JSON: &str = include_str!("../data/k8s-v0.36.2-patchmeta.json");

/// How Helm patches objects of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelmPatchType {
    /// Strategic merge patch (every typed built-in kind).
    StrategicMerge,
    /// JSON merge patch (`apiextensions.k8s.io/v1beta1` CRDs, which Helm
    /// special-cases).
    JsonMerge,
}

/// One built-in kind of the table.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinKind {
    /// The struct-tag metadata of the kind's Go type (the root schema).
    pub meta: StructMeta<'static>,
    /// The Go type, OpenAPI-style (`io.k8s.api.apps.v1.Deployment`).
    pub type_name: &'static str,
    /// Whether Helm's scheme knows the kind (false for the five
    /// review/discovery kinds: Helm converts those as unstructured, so they
    /// get a JSON merge patch).
    pub in_helm_scheme: bool,
    /// The patch type Helm uses when the kind is in its scheme.
    pub helm_patch_type: HelmPatchType,
}

struct Builtin {
    table: TypeTable,
    kinds: HashMap<String, (String, bool, HelmPatchType)>,
    source: Value,
    /// The whole table as parsed: server-side apply reads the `listType` /
    /// `listMapKeys` / `structType` / `mapType` markers, which the struct-tag
    /// lookups do not carry.
    raw: Value,
}

fn builtin() -> &'static Builtin {
    static BUILTIN: OnceLock<Builtin> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        let doc: Value = serde_json::from_str(TABLE_JSON).expect("embedded patchmeta table is valid JSON");
        let table = TypeTable::from_patchmeta_table(&doc).expect("embedded patchmeta table is well-formed");
        let mut kinds = HashMap::new();
        for (k, v) in doc.get("kinds").and_then(Value::as_object).into_iter().flatten() {
            let Some(ty) = v.get("type").and_then(Value::as_str) else { continue };
            let in_scheme = v.get("inHelmScheme").and_then(Value::as_bool).unwrap_or(true);
            let patch_type = match v.get("helmPatchType").and_then(Value::as_str) {
                Some("json-merge-patch") => HelmPatchType::JsonMerge,
                _ => HelmPatchType::StrategicMerge,
            };
            kinds.insert(k.clone(), (ty.to_owned(), in_scheme, patch_type));
        }
        let source = doc.get("source").cloned().unwrap_or(Value::Null);
        Builtin { table, kinds, source, raw: doc }
    })
}

/// The embedded table of all built-in types (for lookups by type name, e.g.
/// `builtin_table().root("io.k8s.api.core.v1.PodSpec")`).
pub fn builtin_table() -> &'static TypeTable {
    &builtin().table
}

/// The kind `kind` of `apiVersion` `api_version` (`v1`, `apps/v1`, ...), if it
/// is a built-in kind of k8s.io/api v0.36.2.
pub fn builtin_kind(api_version: &str, kind: &str) -> Option<BuiltinKind> {
    let b = builtin();
    let (type_name, in_helm_scheme, helm_patch_type) = b.kinds.get(&format!("{api_version}/{kind}"))?;
    let meta = b.table.root(type_name)?;
    Some(BuiltinKind { meta, type_name, in_helm_scheme: *in_helm_scheme, helm_patch_type: *helm_patch_type })
}

/// The `source` record of the embedded table (versions it was generated
/// from).
pub fn builtin_source() -> &'static Value {
    &builtin().source
}

/// The embedded table as JSON (`kinds` and `types` with every marker), for
/// readers that need more than the strategic-merge lookups.
pub fn builtin_raw_table() -> &'static Value {
    &builtin().raw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::meta::LookupPatchMeta;

    #[test]
    fn deployment_containers_merge_by_name() {
        let k = builtin_kind("apps/v1", "Deployment").unwrap();
        assert!(k.in_helm_scheme);
        assert_eq!(k.helm_patch_type, HelmPatchType::StrategicMerge);
        let (spec, _) = k.meta.lookup_for_struct("spec").unwrap();
        let (tmpl, _) = spec.lookup_for_struct("template").unwrap();
        let (pod, _) = tmpl.lookup_for_struct("spec").unwrap();
        let (container, meta) = pod.lookup_for_slice("containers").unwrap();
        assert_eq!(meta.raw_strategy(), Some("merge"));
        assert_eq!(meta.merge_key(), "name");
        let (_, ports) = container.lookup_for_slice("ports").unwrap();
        assert_eq!(ports.merge_key(), "containerPort");
        let (_, volumes) = pod.lookup_for_slice("volumes").unwrap();
        assert_eq!(volumes.retain_keys_and_strategy().unwrap(), (true, "merge"));
        let (_, strategy) = spec.lookup_for_struct("strategy").unwrap();
        assert_eq!(strategy.retain_keys_and_strategy().unwrap(), (true, ""));
    }

    #[test]
    fn pdb_selector_is_replaced_whole() {
        let k = builtin_kind("policy/v1", "PodDisruptionBudget").unwrap();
        let (spec, _) = k.meta.lookup_for_struct("spec").unwrap();
        let (_, sel) = spec.lookup_for_struct("selector").unwrap();
        assert_eq!(sel.retain_keys_and_strategy().unwrap(), (false, "replace"));
    }

    #[test]
    fn metadata_finalizers_are_a_merge_list_of_scalars() {
        let k = builtin_kind("v1", "ConfigMap").unwrap();
        let (meta, _) = k.meta.lookup_for_struct("metadata").unwrap();
        let (elem, fin) = meta.lookup_for_slice("finalizers").unwrap();
        assert_eq!(fin.raw_strategy(), Some("merge"));
        assert_eq!(elem.name(), "string");
        let (labels, _) = meta.lookup_for_struct("labels").unwrap();
        assert!(labels.lookup_for_struct("x").is_err());
    }

    #[test]
    fn helm_scheme_flags_come_from_the_table() {
        let crd = builtin_kind("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition").unwrap();
        assert_eq!(crd.helm_patch_type, HelmPatchType::JsonMerge);
        let review = builtin_kind("admission.k8s.io/v1", "AdmissionReview").unwrap();
        assert!(!review.in_helm_scheme);
        assert!(builtin_kind("example.com/v1", "Widget").is_none());
    }

    #[test]
    fn crd_schema_properties_are_a_map_of_structs() {
        let k = builtin_kind("apiextensions.k8s.io/v1", "CustomResourceDefinition").unwrap();
        let (spec, _) = k.meta.lookup_for_struct("spec").unwrap();
        let (versions, _) = spec.lookup_for_slice("versions").unwrap();
        let (schema, _) = versions.lookup_for_struct("schema").unwrap();
        let (props, _) = schema.lookup_for_struct("openAPIV3Schema").unwrap();
        let (map, _) = props.lookup_for_struct("properties").unwrap();
        let e = map.lookup_for_struct("spec").unwrap_err();
        assert_eq!(e.to_string(), "merging an object in json but data type is not struct, instead is: map");
    }

    #[test]
    fn lookups_inside_raw_extension_fail() {
        let k = builtin_kind("apps/v1", "ControllerRevision").unwrap();
        let (data, _) = k.meta.lookup_for_struct("data").unwrap();
        let e = data.lookup_for_struct("spec").unwrap_err();
        assert_eq!(e.to_string(), "unable to find api field in struct RawExtension for the json field \"spec\"");
    }
}
