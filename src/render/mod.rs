//! The render result is a model, not text: what `helm template` printed,
//! read back as Helm reads its own rendering — split into documents, hooks
//! told apart from objects, objects in Helm's install order — with a typed
//! warning for every document Helm would refuse, skip or drop.
//!
//! helm: pkg/release/v1/util/{manifest.go,manifest_sorter.go,kind_sorter.go},
//! pkg/release/v1/hook.go, pkg/action/action.go (renderResources),
//! pkg/action/validate.go (setMetadataVisitor), cli-runtime's builder
//! (default namespace).
//!
//! Nothing here prints or reads the environment; [`helm`] runs the Helm
//! binary it is given.

pub mod blame;
pub mod crds;
pub mod engine;
pub mod helm;
pub mod hooks;
pub mod scan;
pub mod sort;
pub mod template;

pub use crds::{Crds, crds};
pub use helm::{RenderError, RenderOptions, TemplateRequest, api_version_flags, chart_with_values, helm_template, template_args};
pub use hooks::{HookDeletePolicy, HookEvent};
pub use scan::{LookupUse, lookup_calls, uses_release_revision};
pub use sort::{INSTALL_ORDER, UNINSTALL_ORDER, sort_by_kind};

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::manifest;

/// Helm's ownership label and its value (pkg/action/validate.go).
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";
pub const MANAGED_BY_HELM: &str = "Helm";
pub const RELEASE_NAME_ANNOTATION: &str = "meta.helm.sh/release-name";
pub const RELEASE_NAMESPACE_ANNOTATION: &str = "meta.helm.sh/release-namespace";

/// One Kubernetes object of the rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// The template path from its `# Source:` comment (`chart/templates/x.yaml`;
    /// `chart/crds/x.yaml` for CRDs); empty when the document has none.
    pub source: String,
    pub api_version: String,
    pub kind: String,
    /// `metadata.name`; empty when not a string (e.g. only `generateName`).
    pub name: String,
    /// `metadata.namespace` when set to a non-empty string.
    pub namespace: Option<String>,
    /// The whole document; integers stay integers.
    pub value: Value,
}

/// A hook document: never diffed or patched by Helm, only deleted and
/// created around the upgrade.
#[derive(Debug, Clone, PartialEq)]
pub struct Hook {
    pub object: Object,
    /// In annotation order, duplicates kept, as Helm stores them.
    pub events: Vec<HookEvent>,
    /// Helm's `Weight` is a Go `int` (64 bits), hence i64.
    pub weight: i64,
    /// Empty when not annotated: Helm applies its default
    /// (`before-hook-creation`) only when it runs the hook.
    pub delete_policies: Vec<HookDeletePolicy>,
    /// `helm.sh/hook-output-log-policy`, split like the delete policies.
    pub output_log_policies: Vec<String>,
}

/// A rendering as Helm sorts it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rendered {
    /// Non-hook objects in Helm's install order.
    pub objects: Vec<Object>,
    /// Hooks sorted by kind like Helm's `sortHooksByKind` (Helm orders them
    /// by weight and name only when it runs one event's hooks).
    pub hooks: Vec<Hook>,
    pub warnings: Vec<RenderWarning>,
}

/// A document that is not an object of the model, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{template} (document {index}): {kind}")]
pub struct RenderWarning {
    /// The template path (`# Source:`), empty when unknown.
    pub template: String,
    /// The document's place among its template's documents, from 0 (Helm's `manifest-N`).
    pub index: usize,
    pub kind: WarningKind,
}

/// What Helm itself does with such a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelmOutcome {
    /// The whole render fails (`helm template` and `helm upgrade` alike).
    RenderFails,
    /// `helm template` prints it, but `helm upgrade` fails when it builds the objects.
    UpgradeFails,
    /// Helm leaves the document out without an error.
    Dropped,
    /// Helm keeps it in the manifest text, and it applies nothing.
    Ignored,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WarningKind {
    /// Only comments or nothing but `null`. Helm keeps it in the release
    /// manifest; the Kubernetes client skips empty documents (inferred).
    #[error("the document is empty")]
    EmptyDocument,
    /// Helm fails with `YAML parse error on <template>: ...`.
    #[error("not valid YAML: {message}")]
    InvalidYaml { message: String },
    /// A list or scalar where Helm expects a mapping: Helm cannot read its head
    /// (`apiVersion`, `kind`, `metadata.name`, `metadata.annotations`) and fails.
    #[error("the document is a {found}, not a mapping")]
    NotAMapping { found: &'static str },
    /// A head field of the wrong type, e.g. an unquoted `helm.sh/hook-weight: 5`:
    /// Helm reads annotations as strings and fails the render.
    #[error("`{field}` is a {found}, not a string")]
    HeadFieldType { field: String, found: &'static str },
    /// Helm sorts it as an unknown kind and `helm template` prints it, but the
    /// Kubernetes client refuses it (`Object 'Kind' is missing`) on upgrade.
    #[error("no {}", missing.join(" and "))]
    MissingApiVersionOrKind { missing: Vec<&'static str> },
    /// `helm.sh/hook` names an event Helm does not know (Helm 2's
    /// `crd-install`, an empty part): Helm drops the whole document, from the
    /// hooks and the manifest alike, logging "skipping unknown hooks".
    #[error("unknown hook event {event:?} in helm.sh/hook {value:?}; Helm drops the document")]
    UnknownHookEvent { value: String, event: String },
}

impl WarningKind {
    pub fn helm_outcome(&self) -> HelmOutcome {
        match self {
            WarningKind::EmptyDocument => HelmOutcome::Ignored,
            WarningKind::InvalidYaml { .. } | WarningKind::NotAMapping { .. } | WarningKind::HeadFieldType { .. } => {
                HelmOutcome::RenderFails
            }
            WarningKind::MissingApiVersionOrKind { .. } => HelmOutcome::UpgradeFails,
            WarningKind::UnknownHookEvent { .. } => HelmOutcome::Dropped,
        }
    }
}

/// Reads a rendering (`helm template` output, or a release manifest) as
/// Helm's `SortManifests` does: documents grouped by template path in byte
/// order, each template's documents in order, hooks apart, then a stable sort
/// by [`INSTALL_ORDER`]. Helm's own output is already in this order, so
/// reading it back keeps it. Give it output without `--include-crds` (CRDs
/// come from [`crds`]); `kind: List` documents stay one object here (Helm's
/// Kubernetes client flattens them into their items only when it applies).
pub fn parse_manifest(text: &str) -> Rendered {
    let mut docs: Vec<(&str, &str)> =
        manifest::split(text).into_iter().map(|d| (manifest::leading_source(d).unwrap_or(""), d)).collect();
    docs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));

    let mut out = Rendered::default();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (source, doc) in docs {
        let index = {
            let c = counts.entry(source).or_insert(0);
            *c += 1;
            *c - 1
        };
        // Helm skips partials (`_*.tpl`); they only appear in raw engine output.
        if source.rsplit('/').next().is_some_and(|base| base.starts_with('_')) {
            continue;
        }
        let warn = |kind| RenderWarning { template: source.to_string(), index, kind };
        match classify(source, doc) {
            Ok(Entry::Object(o)) => out.objects.push(o),
            Ok(Entry::Hook(h)) => out.hooks.push(h),
            Err(kind) => out.warnings.push(warn(kind)),
        }
    }
    sort_by_kind(&mut out.objects, INSTALL_ORDER, |o| &o.kind);
    sort_by_kind(&mut out.hooks, INSTALL_ORDER, |h| &h.object.kind);
    out
}

enum Entry {
    Object(Object),
    Hook(Hook),
}

/// A document that Helm can read the head of.
fn read_document(doc: &str) -> Result<Value, WarningKind> {
    let value = parse_document(doc)?;
    if value.is_null() {
        return Err(WarningKind::EmptyDocument);
    }
    check_head(&value)?;
    Ok(value)
}

fn missing_type(value: &Value) -> Result<(), WarningKind> {
    let missing: Vec<&'static str> = [("apiVersion", "/apiVersion"), ("kind", "/kind")]
        .into_iter()
        .filter(|(_, p)| crate::keypath::pointer(value, p).and_then(Value::as_str).is_none_or(str::is_empty))
        .map(|(n, _)| n)
        .collect();
    if missing.is_empty() { Ok(()) } else { Err(WarningKind::MissingApiVersionOrKind { missing }) }
}

fn classify(source: &str, doc: &str) -> Result<Entry, WarningKind> {
    let value = read_document(doc)?;
    let annotations = crate::keypath::pointer(&value, "/metadata/annotations").and_then(Value::as_object);
    let annotation = |k: &str| annotations.and_then(|a| a.get(k)).map(|v| v.as_str().unwrap_or(""));
    // Helm: a document is a hook exactly when the hook annotation key exists.
    let events = match annotation(hooks::HOOK_ANNOTATION) {
        None => None,
        Some(v) => Some(
            hooks::parse_events(v)
                .map_err(|event| WarningKind::UnknownHookEvent { value: v.to_string(), event })?,
        ),
    };
    missing_type(&value)?;
    let weight = hooks::parse_weight(annotation(hooks::HOOK_WEIGHT_ANNOTATION));
    let delete_policies = hooks::delete_policies(annotation(hooks::HOOK_DELETE_ANNOTATION));
    let output_log_policies = hooks::parse_policies(annotation(hooks::HOOK_OUTPUT_LOG_ANNOTATION));
    let object = object_from(source, value);
    Ok(match events {
        None => Entry::Object(object),
        Some(events) => Entry::Hook(Hook { object, events, weight, delete_policies, output_log_policies }),
    })
}

/// One document as a JSON value (`Null` for a document without content).
pub(crate) fn parse_document(doc: &str) -> Result<Value, WarningKind> {
    if doc.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Ok(Value::Null);
    }
    // Most rendered documents are plain block YAML the line reader takes,
    // several times faster; it declines whatever it is unsure of.
    if let Some(value) = crate::yaml::plain_manifest_document(doc) {
        return Ok(value);
    }
    // Like go-yaml's Unmarshal, only the first document of the text counts.
    manifest::parse_manifest_documents(doc)
        .map(|docs| docs.into_iter().next().unwrap_or(Value::Null))
        .map_err(|message| WarningKind::InvalidYaml { message })
}

/// Helm decodes the head into typed Go fields (`SimpleHead`); a value of
/// another type fails its whole render. `null` reads as empty.
pub(crate) fn check_head(value: &Value) -> Result<(), WarningKind> {
    let Some(map) = value.as_object() else {
        return Err(WarningKind::NotAMapping { found: type_name(value) });
    };
    let string_field = |v: Option<&Value>, field: &str| match v {
        None | Some(Value::Null | Value::String(_)) => Ok(()),
        Some(other) => Err(WarningKind::HeadFieldType { field: field.to_string(), found: type_name(other) }),
    };
    string_field(map.get("apiVersion"), "apiVersion")?;
    string_field(map.get("kind"), "kind")?;
    let meta = match map.get("metadata") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Object(m)) => m,
        Some(other) => return Err(WarningKind::HeadFieldType { field: "metadata".into(), found: type_name(other) }),
    };
    string_field(meta.get("name"), "metadata.name")?;
    match meta.get("annotations") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(a)) => a.iter().try_for_each(|(k, v)| string_field(Some(v), &format!("metadata.annotations.{k}"))),
        Some(other) => Err(WarningKind::HeadFieldType { field: "metadata.annotations".into(), found: type_name(other) }),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "mapping",
    }
}

fn object_from(source: &str, value: Value) -> Object {
    let s = |p: &str| crate::keypath::pointer(&value, p).and_then(Value::as_str).unwrap_or("").to_string();
    let namespace = Some(s("/metadata/namespace")).filter(|n| !n.is_empty());
    Object { source: source.to_string(), api_version: s("/apiVersion"), kind: s("/kind"), name: s("/metadata/name"), namespace, value }
}

/// Adds what Helm's `setMetadataVisitor` adds to every non-hook object before
/// it patches or applies it: the label `app.kubernetes.io/managed-by: Helm`
/// and the annotations `meta.helm.sh/release-name` and
/// `meta.helm.sh/release-namespace`, merged into the existing maps (Helm's
/// values win). As with Helm's unstructured accessors, a labels or
/// annotations map holding a non-string value is read as empty and so
/// replaced, and a `metadata` that is not a mapping is left alone.
pub fn add_ownership(obj: &mut Value, release: &str, namespace: &str) {
    let Some(map) = obj.as_object_mut() else { return };
    let meta = map.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    let Some(meta) = meta.as_object_mut() else { return };
    merge_string_map(meta, "labels", &[(MANAGED_BY_LABEL, MANAGED_BY_HELM)]);
    merge_string_map(meta, "annotations", &[(RELEASE_NAME_ANNOTATION, release), (RELEASE_NAMESPACE_ANNOTATION, namespace)]);
}

fn merge_string_map(meta: &mut Map<String, Value>, key: &str, add: &[(&str, &str)]) {
    let readable = matches!(meta.get(key), Some(Value::Object(m)) if m.values().all(Value::is_string));
    if !readable {
        meta.insert(key.to_string(), Value::Object(Map::new()));
    }
    if let Some(Value::Object(m)) = meta.get_mut(key) {
        for (k, v) in add {
            m.insert((*k).to_string(), Value::String((*v).to_string()));
        }
    }
}

/// What Helm's Kubernetes client does before using an object: a namespaced
/// object without a namespace (absent or empty) gets the release namespace,
/// in the model and in the object itself; cluster-scoped objects and explicit
/// namespaces are left as they are. Whether the kind is namespaced comes from
/// the caller (discovery or a built-in table).
pub fn default_namespace(obj: &mut Object, release_namespace: &str, namespaced: bool) {
    if !namespaced || obj.namespace.is_some() {
        return;
    }
    obj.namespace = Some(release_namespace.to_string());
    if let Some(map) = obj.value.as_object_mut() {
        let meta = map.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            meta.insert("namespace".into(), Value::String(release_namespace.to_string()));
        }
    }
}

#[cfg(test)]
mod tests;
