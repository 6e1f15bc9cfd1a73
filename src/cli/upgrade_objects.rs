//! `upgrade-preview`, objects part: the new manifest (rendered by Helm, or
//! given with `--manifest`), the live objects (GET only), and per object what
//! `helm upgrade` sends.

use std::collections::HashMap;
use std::io::Read;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use super::Ctx;
use super::output::{to_json_go, to_yaml};
use crate::cluster::{Discovery, ObjectRef, ReadOnlyCluster};
use crate::manifest;
use crate::render;
use crate::preview::{self, Action, ApplyMethod, IgnoreRule, LiveKey, ManifestObject, Plan, PlanInput};
use crate::release::Release;

/// A rendered manifest as the plan takes it.
pub struct Manifest {
    pub objects: Vec<ManifestObject>,
    pub hooks: Vec<render::Hook>,
    /// CRDs of the chart's `crds/` directories: Helm installs them only on
    /// install, never on upgrade.
    pub crds: Vec<render::Object>,
    pub warnings: Vec<String>,
}

/// Everything the objects part needs from the values part.
pub struct ObjectsInput<'a> {
    pub release: &'a str,
    pub namespace: &'a str,
    pub baseline: &'a Release,
    /// The newest revision (its `apply_method` decides `--server-side auto`).
    pub last: &'a Release,
    pub new_manifest: NewManifest,
}

/// Where the new manifest comes from.
pub enum NewManifest {
    /// `--manifest`: rendered elsewhere.
    Given(String),
    /// Render with Helm, with the cluster's capabilities (filled in here).
    Helm(render::TemplateRequest),
}

/// Reads `--manifest FILE|-`.
pub fn read_manifest(path: &str) -> anyhow::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read the manifest from stdin")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the manifest {path}"))
    }
}

/// Reads a manifest as Helm sorts it (render::parse_manifest), then does what
/// Helm's Kubernetes client does before applying: maps each kind through
/// discovery (an unknown kind fails the upgrade, as in Helm) and gives
/// namespaced objects without a namespace the release namespace.
pub fn parse_manifest(text: &str, namespace: &str, discovery: &Discovery) -> anyhow::Result<Manifest> {
    let rendered = render::parse_manifest(text);
    let mut out = Manifest { objects: Vec::new(), hooks: rendered.hooks, crds: Vec::new(), warnings: Vec::new() };
    for w in rendered.warnings {
        match w.kind.helm_outcome() {
            render::HelmOutcome::RenderFails | render::HelmOutcome::UpgradeFails => bail!("helm upgrade would fail on {w}"),
            render::HelmOutcome::Dropped | render::HelmOutcome::Ignored => out.warnings.push(w.to_string()),
        }
    }
    // Helm's Kubernetes client flattens `kind: List` documents into their items.
    let mut objects = Vec::with_capacity(rendered.objects.len());
    for object in rendered.objects {
        match object.value.get("items").and_then(Value::as_array).filter(|_| object.kind.ends_with("List")) {
            Some(items) => objects.extend(items.iter().filter(|i| i.is_object()).map(|item| {
                let s = |p: &str| item.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
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
            bail!(
                "resource mapping not found for name: {:?} from {:?}: no matches for kind {:?} in version {:?}\nensure CRDs are installed first",
                object.name,
                object.source,
                object.kind,
                object.api_version
            );
        };
        render::default_namespace(&mut object, namespace, resource.namespaced);
        out.objects.push(ManifestObject { source: object.source, object: object.value });
    }
    Ok(out)
}

pub struct ObjectsOptions<'a> {
    pub server_side: &'a str,
    pub take_ownership: bool,
    pub force_conflicts: bool,
    pub ignore: &'a [IgnoreRule],
    pub show_secrets: bool,
    pub concurrency: usize,
    /// Told what takes long (the CLI prints it on a terminal's stderr).
    pub progress: &'a dyn Fn(&str),
    /// The new chart, for its `crds/`.
    pub chart: Option<&'a crate::chart::Chart>,
}

/// Reads the live objects and computes the plan.
pub async fn preview_objects(
    cluster: &ReadOnlyCluster,
    discovery: &Discovery,
    input: &ObjectsInput<'_>,
    opts: &ObjectsOptions<'_>,
) -> anyhow::Result<(Plan, Manifest)> {
    let manifest_text = match &input.new_manifest {
        NewManifest::Given(text) => text.clone(),
        NewManifest::Helm(req) => {
            (opts.progress)(&format!("rendering {} with {}", req.chart.display(), req.helm_bin.display()));
            let mut req = req.clone();
            req.kube_version = Some(discovery.server_version.clone()).filter(|v| !v.is_empty());
            req.api_versions = render::api_version_flags(&discovery.served());
            render::helm_template(&req)?
        }
    };
    let mut new = parse_manifest(&manifest_text, input.namespace, discovery)?;
    if let Some(chart) = opts.chart {
        let crds = render::crds(chart);
        new.crds = crds.objects;
        new.warnings.extend(crds.warnings.iter().map(ToString::to_string));
    }
    let old = parse_manifest(input.baseline.manifest(), input.namespace, discovery)
        .with_context(|| format!("the manifest of revision {}", input.baseline.version()))?;
    let method = preview::apply_method(opts.server_side, input.last.apply_method_field()).map_err(anyhow::Error::msg)?;
    // Every object of both manifests, once.
    let mut seen = std::collections::HashSet::new();
    let keys: Vec<LiveKey> = new.objects.iter().chain(&old.objects).map(|o| LiveKey::of(&o.object)).filter(|k| seen.insert(k.clone())).collect();
    let refs: Vec<ObjectRef> = keys
        .iter()
        .filter_map(|k| {
            discovery.find(&k.api_version, &k.kind).map(|r| ObjectRef { resource: r.clone(), namespace: k.namespace.clone(), name: k.name.clone() })
        })
        .collect();
    (opts.progress)(&format!("reading {} live objects ({} at a time)", refs.len(), opts.concurrency));
    let fetched = cluster.get_objects(&refs, opts.concurrency).await;
    let mut live = HashMap::new();
    for (k, got) in keys.iter().zip(fetched) {
        if let Some(v) = got.with_context(|| format!("could not get information about the resource {} {}", k.kind, k.name))? {
            live.insert(k.clone(), v);
        }
    }
    let mut plan = preview::plan(&PlanInput {
        release: input.release,
        namespace: input.namespace,
        targets: &new.objects,
        originals: &old.objects,
        live: &live,
        method,
        take_ownership: opts.take_ownership,
        force_conflicts: opts.force_conflicts,
        baseline_client_side: input.baseline.apply_method_field() != Some("ssa"),
        openapi: None,
    });
    if method == ApplyMethod::ServerSide {
        plan.warnings.push("server-side apply: Helm sends each whole object as field manager \"helm\"".into());
    }
    apply_ignores(&mut plan, opts.ignore);
    if !opts.show_secrets {
        mask(&mut plan);
    }
    Ok((plan, new))
}

/// `--ignore`: matching fields leave patches and drift; an object left with
/// nothing to change becomes unchanged.
fn apply_ignores(plan: &mut Plan, rules: &[IgnoreRule]) {
    for o in plan.objects.iter_mut() {
        let mine: Vec<&IgnoreRule> = rules.iter().filter(|r| r.applies_to(&o.kind)).collect();
        if mine.is_empty() {
            continue;
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
}

/// Secret values never reach the output unless asked: Secret data and
/// stringData in patches, live and predicted objects, drift.
fn mask(plan: &mut Plan) {
    for o in plan.objects.iter_mut().filter(|o| o.kind == "Secret") {
        for v in [o.patch.as_mut(), o.live.as_mut(), o.predicted.as_mut()].into_iter().flatten() {
            manifest::mask_secret_fields(v);
        }
        for d in o.drift.iter_mut() {
            if d.path.0.first().is_some_and(|s| matches!(s, crate::values::path::Seg::Key(k) if k == "data" || k == "stringData")) {
                d.baseline = Value::String(manifest::marker(&d.baseline));
                d.live = d.live.as_ref().map(|l| Value::String(manifest::marker(l)));
                if let preview::DriftOutcome::Reset(v) = &mut d.outcome {
                    *v = Value::String(manifest::marker(v));
                }
            }
        }
    }
}

pub fn objects_json(plan: &Plan, manifest: &Manifest) -> Value {
    let objects: Vec<Value> = plan
        .objects
        .iter()
        .map(|o| {
            json!({
                "apiVersion": o.api_version, "kind": o.kind, "namespace": o.namespace, "name": o.name, "source": o.source,
                "action": o.action.word(),
                "patch_type": o.patch_type.map(|t| t.word()),
                "patch": o.patch,
                "drift": o.drift.iter().map(|d| json!({"path": d.path.to_string(), "baseline": d.baseline, "live": d.live, "upgrade": d.outcome.word(),
                    "to": match &d.outcome { preview::DriftOutcome::Reset(v) => v.clone(), _ => Value::Null }})).collect::<Vec<_>>(),
                "conflicts": o.conflicts,
                "notes": o.notes,
            })
        })
        .collect();
    let hooks: Vec<Value> = manifest
        .hooks
        .iter()
        .map(|h| {
            json!({"kind": h.object.kind, "name": h.object.name, "source": h.object.source,
                   "events": h.events.iter().map(|e| e.as_str()).collect::<Vec<_>>(), "weight": h.weight,
                   "delete_policies": h.delete_policies.iter().map(|p| p.as_str()).collect::<Vec<_>>()})
        })
        .collect();
    let crds: Vec<Value> = manifest.crds.iter().map(|c| json!({"kind": c.kind, "name": c.name, "source": c.source})).collect();
    json!({"objects": objects, "hooks": hooks, "crds": crds, "failure": plan.failure})
}

pub fn objects_text(plan: &Plan, manifest: &Manifest, diff: bool, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    out.push_str(&format!(
        "{} {} to create, {} to update, {} to delete, {} unchanged, {} kept, {} to adopt, {} hooks{}\n",
        t.heading("Plan:"),
        plan.count(Action::Create),
        plan.count(Action::Update),
        plan.count(Action::Delete),
        plan.count(Action::Unchanged),
        plan.count(Action::Keep),
        plan.count(Action::Adopt),
        manifest.hooks.len(),
        if plan.count(Action::Conflict) > 0 { format!(", {} conflicts", plan.count(Action::Conflict)) } else { String::new() }
    ));
    for o in &plan.objects {
        let ns = o.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
        let action = match o.action {
            Action::Create | Action::Adopt => t.good(o.action.word()),
            Action::Delete | Action::Conflict => t.bad(o.action.word()),
            Action::Update => t.warn(o.action.word()),
            _ => t.dim(o.action.word()),
        };
        out.push_str(&format!("\n{} {ns}{}: {action}", o.kind, o.name));
        if let Some(pt) = o.patch_type.filter(|_| o.action != Action::Create) {
            out.push_str(&t.dim(&format!(" ({} patch)", pt.word())));
        }
        out.push('\n');
        for n in &o.notes {
            out.push_str(&format!("  {}\n", t.dim(n)));
        }
        if matches!(o.action, Action::Update | Action::Adopt)
            && let Some(p) = &o.patch
        {
            let body = to_yaml(p).unwrap_or_default();
            // Removals red, order directives dim, the rest (what is set) green.
            for line in body.lines() {
                let styled = if line.trim_end().ends_with(": null") || line.contains("$patch: delete") || line.contains("$deleteFromPrimitiveList") {
                    t.bad(line)
                } else if line.contains("$setElementOrder") || line.contains("$retainKeys") {
                    t.dim(line)
                } else {
                    t.good(line)
                };
                out.push_str(&format!("    {styled}\n"));
            }
        }
        for d in &o.drift {
            let live = d.live.as_ref().map_or_else(|| "(absent)".to_string(), compact);
            let what = match &d.outcome {
                preview::DriftOutcome::Reset(v) => format!("the upgrade sets it to {}", compact(v)),
                preview::DriftOutcome::Removed => "the upgrade removes it".into(),
                preview::DriftOutcome::Kept => "the live value stays".into(),
            };
            out.push_str(&format!("  {} {}: {} in the release, {} live; {}\n", t.warn("drift"), d.path, compact(&d.baseline), live, what));
        }
        for c in &o.conflicts {
            out.push_str(&format!("  {} {c}\n", t.bad("conflict")));
        }
        if diff && let (Some(live), Some(predicted)) = (&o.live, &o.predicted) {
            out.push_str(&unified(live, predicted, ctx));
        }
    }
    if !manifest.hooks.is_empty() {
        out.push_str(&format!("\n{}\n", t.heading("Hooks (deleted and created again by Helm according to their delete policy, never patched):")));
        for h in &manifest.hooks {
            let events: Vec<&str> = h.events.iter().map(|e| e.as_str()).collect();
            let policies: Vec<&str> = h.delete_policies.iter().map(|p| p.as_str()).collect();
            out.push_str(&format!(
                "  {} {} {} (weight {}, delete policy {})\n",
                events.join(","),
                h.object.kind,
                h.object.name,
                h.weight,
                if policies.is_empty() { "before-hook-creation (default)".to_string() } else { policies.join(",") }
            ));
        }
    }
    if !manifest.crds.is_empty() {
        out.push_str(&format!("\n{}\n", t.heading("CRDs in crds/ (Helm installs them only on install; an upgrade leaves them as they are):")));
        for c in &manifest.crds {
            out.push_str(&format!("  {} {} ({})\n", c.kind, c.name, c.source));
        }
    }
    if let Some(f) = &plan.failure {
        out.push_str(&format!("\n{} {f}\n", t.bad("helm upgrade would fail:")));
    }
    out
}

fn compact(v: &Value) -> String {
    to_json_go(v).replace(['\n'], "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Live vs predicted, as YAML, unified.
fn unified(live: &Value, predicted: &Value, ctx: &Ctx) -> String {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut) {
            m.remove("managedFields");
        }
        to_yaml(&v).unwrap_or_default()
    };
    let (a, b) = (strip(live), strip(predicted));
    let diff = similar::TextDiff::from_lines(&a, &b);
    let mut out = String::new();
    for hunk in diff.unified_diff().context_radius(3).header("live", "after upgrade").iter_hunks() {
        for line in hunk.to_string().lines() {
            let styled = match line.chars().next() {
                Some('+') => ctx.theme.good(line),
                Some('-') => ctx.theme.bad(line),
                Some('@') => ctx.theme.dim(line),
                _ => line.to_string(),
            };
            out.push_str(&format!("    {styled}\n"));
        }
    }
    out
}

/// Whether the plan changes anything (for `--detailed-exitcode`).
pub fn has_changes(plan: &Plan) -> bool {
    plan.objects.iter().any(|o| o.action.changes())
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
