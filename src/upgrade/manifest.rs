//! Helm's client-side rules for a rendered manifest before it is applied
//! (helm: pkg/kube/client.go Build, pkg/action/upgrade.go): Helm's sort
//! order and hook split (`render::parse_manifest`), `kind: List` flattened
//! into its items, every kind mapped through discovery (an unknown kind fails
//! the upgrade: "ensure CRDs are installed first"), namespaced objects
//! without a namespace given the release namespace. Then what the preview
//! does to a plan before it is shown: `--ignore` rules and Secret masking.

use serde_json::Value;

use super::{Action, DriftOutcome, IgnoreRule, ManifestObject, Plan, PreviewError};
use crate::cluster::Discovery;
use crate::manifest::secrets::{self, SizeMarker};
use crate::render;

/// A rendered manifest as the plan takes it.
#[derive(Debug)]
pub struct Manifest {
    pub objects: Vec<ManifestObject>,
    pub hooks: Vec<render::Hook>,
    /// CRDs of the chart's `crds/` directories: Helm installs them only on
    /// install, never on upgrade.
    pub crds: Vec<render::Object>,
    pub warnings: Vec<String>,
}

/// Reads a manifest as Helm sorts it (render::parse_manifest), then does what
/// Helm's Kubernetes client does before applying: maps each kind through
/// discovery (an unknown kind fails the upgrade, as in Helm) and gives
/// namespaced objects without a namespace the release namespace.
pub fn parse_manifest(text: &str, namespace: &str, discovery: &Discovery) -> Result<Manifest, PreviewError> {
    map_kinds(render::parse_manifest(text), namespace, discovery)
}

/// The second half of [`parse_manifest`], for a manifest read already
/// (the YAML needs no cluster, so it is read while discovery is).
pub fn map_kinds(rendered: render::Rendered, namespace: &str, discovery: &Discovery) -> Result<Manifest, PreviewError> {
    let mut out = Manifest { objects: Vec::new(), hooks: rendered.hooks, crds: Vec::new(), warnings: Vec::new() };
    for w in rendered.warnings {
        match w.kind.helm_outcome() {
            render::HelmOutcome::RenderFails | render::HelmOutcome::UpgradeFails => return Err(PreviewError::ManifestFails(w.to_string())),
            render::HelmOutcome::Dropped | render::HelmOutcome::Ignored => out.warnings.push(w.to_string()),
        }
    }
    // Helm's Kubernetes client flattens `kind: List` documents into their items.
    let mut objects = Vec::with_capacity(rendered.objects.len());
    for object in rendered.objects {
        match object.value.get("items").and_then(Value::as_array).filter(|_| object.kind.ends_with("List")) {
            Some(items) => objects.extend(items.iter().filter(|i| i.is_object()).map(|item| {
                let s = |p: &str| crate::keypath::pointer(item, p).and_then(Value::as_str).unwrap_or_default().to_string();
                let ns = s("/metadata/namespace");
                render::Object {
                    source: object.source.clone(),
                    api_version: s("/apiVersion"),
                    kind: s("/kind"),
                    name: s("/metadata/name"),
                    namespace: (!ns.is_empty()).then_some(ns),
                    value: item.clone(),
                }
            })),
            None => objects.push(object),
        }
    }
    for mut object in objects {
        let Some(resource) = discovery.find(&object.api_version, &object.kind) else {
            return Err(PreviewError::UnknownKind {
                name: object.name,
                template: object.source,
                kind: object.kind,
                api_version: object.api_version,
            });
        };
        render::default_namespace(&mut object, namespace, resource.namespaced);
        out.objects.push(ManifestObject { source: object.source, object: object.value });
    }
    Ok(out)
}

/// `--ignore`: matching fields leave patches and drift; an object left with
/// nothing to change becomes unchanged.
pub fn apply_ignores(plan: &mut Plan, rules: &[IgnoreRule]) {
    let mut used = vec![false; rules.len()];
    for o in plan.objects.iter_mut() {
        let (indexes, mine): (Vec<usize>, Vec<&IgnoreRule>) = rules.iter().enumerate().filter(|(_, r)| r.applies_to(&o.kind)).unzip();
        if mine.is_empty() {
            continue;
        }
        for (&i, r) in indexes.iter().zip(&mine) {
            used[i] |= [o.live.as_ref(), o.predicted.as_ref(), o.patch.as_ref()].into_iter().flatten().any(|v| r.matches(v));
        }
        // The diff no longer shows an ignored field changing.
        if let Some(predicted) = o.predicted.as_mut() {
            for r in &mine {
                r.reset(predicted, o.live.as_ref());
            }
        }
        if let Some(p) = o.patch.as_mut() {
            for r in &mine {
                r.remove_from(p);
            }
            if o.action == Action::Update && p.as_object().is_some_and(|m| m.is_empty()) {
                o.action = Action::Unchanged;
                o.notes.push("only ignored fields change".into());
            }
        }
        o.drift.retain(|d| !mine.iter().any(|r| r.covers(&d.path.to_string())));
    }
    for (r, _) in rules.iter().zip(&used).filter(|(_, used)| !**used) {
        let kind = r.kind.as_deref().map(|k| format!(" of kind {k}")).unwrap_or_default();
        plan.warnings.push(format!("--ignore {}: no object{kind} has this field (keys with dots may be written as they are: metadata.labels.helm.sh/chart)", r.text()));
    }
}

/// Secret values never reach the output unless asked: Secret data and
/// stringData, and the last-applied annotation that repeats them, in
/// patches, live, previous and predicted objects and drift, as the size markers of
/// [`SizeMarker`] (each side is compared with the other before either is
/// masked).
pub fn mask_secrets(plan: &mut Plan) {
    for o in plan.objects.iter_mut().filter(|o| secrets::is_secret_kind(&o.kind)) {
        // What the upgrade replaces: the live object, or for an object
        // missing from the cluster the release's own (`baseline`).
        let (before, predicted) = (o.live.clone().or_else(|| o.baseline.clone()), o.predicted.clone());
        let sides = [(SizeMarker::New, o.patch.as_mut()), (SizeMarker::Live, o.live.as_mut()), (SizeMarker::Live, o.baseline.as_mut()), (SizeMarker::New, o.predicted.as_mut())];
        for (side, value) in sides {
            let Some(value) = value else { continue };
            let other = if side == SizeMarker::Live { predicted.as_ref() } else { before.as_ref() };
            secrets::for_each_secret_value(value, |pointer, v| {
                *v = Value::String(side.mark(v, pointer, other.and_then(|x| x.pointer(pointer))));
            });
        }
        for d in o.drift.iter_mut().filter(|d| secrets::is_secret_path(&d.path)) {
            let pointer = secrets::pointer_of(&d.path);
            let size = |v: &Value| Value::String(SizeMarker::Size.mark(v, &pointer, None));
            d.baseline = size(&d.baseline);
            d.live = d.live.as_ref().map(size);
            if let DriftOutcome::Reset(v) = &mut d.outcome {
                *v = size(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ApiResource;

    fn discovery() -> Discovery {
        let r = |group: &str, kind: &str, plural: &str, namespaced: bool| ApiResource {
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            plural: plural.into(),
            namespaced,
        };
        Discovery {
            server_version: "v1.33.0".into(),
            resources: vec![r("", "ConfigMap", "configmaps", true), r("rbac.authorization.k8s.io", "ClusterRole", "clusterroles", false)],
            group_versions: vec!["v1".into(), "rbac.authorization.k8s.io/v1".into()],
        }
    }

    #[test]
    fn lists_are_flattened_and_namespaced_objects_get_the_release_namespace() {
        let text = "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n    namespace: other\n---\n# Source: c/templates/r.yaml\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n";
        let m = parse_manifest(text, "prod", &discovery()).unwrap();
        let names: Vec<(&str, Option<&str>)> = m.objects.iter().map(|o| (o.name(), o.namespace())).collect();
        // Install order first (List is an unknown kind: last), then flattened.
        assert_eq!(names, [("r", None), ("a", Some("prod")), ("b", Some("other"))]);
    }

    #[test]
    fn a_kind_the_cluster_does_not_serve_fails_as_helm_fails() {
        let text = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n";
        let err = parse_manifest(text, "prod", &discovery()).err().unwrap().to_string();
        assert!(err.contains("no matches for kind \"Widget\" in version \"example.com/v1\"") && err.contains("ensure CRDs are installed first"), "{err}");
    }
}
