//! `upgrade-preview`'s object plan: for every object of the new render and
//! of the baseline manifest, what `helm upgrade` does with it (create,
//! update with which patch, leave, delete, keep, adopt, or fail on
//! ownership), the drift of the live object, and server-side apply
//! conflicts. Pure: the caller renders and reads the live objects.
//! helm: pkg/action/upgrade.go performUpgrade; pkg/kube/client.go update;
//! pkg/action/validate.go

use std::collections::HashMap;

use serde_json::Value;

use super::drift::{self, Drift};

use super::ownership::{add_ownership, check_ownership};

use crate::patch::helm::{self as helm_patch, HelmPatch, PatchType};
use crate::patch::meta::OpenApiV2Meta;
use crate::patch::ssa;

/// How Helm applies objects in this upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyMethod {
    ClientSide,
    ServerSide,
}

/// `--server-side auto|true|false` resolved like Helm's
/// `getUpgradeServerSideValue`: auto follows the last revision's
/// `apply_method`, where empty (Helm 3 records) means client-side.
pub fn apply_method(flag: &str, last_revision_method: Option<&str>) -> Result<ApplyMethod, String> {
    match flag {
        "auto" => Ok(if last_revision_method == Some("ssa") { ApplyMethod::ServerSide } else { ApplyMethod::ClientSide }),
        "true" => Ok(ApplyMethod::ServerSide),
        "false" => Ok(ApplyMethod::ClientSide),
        other => Err(format!("invalid/unknown release server-side apply method: {other}")),
    }
}

/// The Helm command previewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Operation {
    #[default]
    Upgrade,
    /// `helm upgrade --install` of a release without records (or uninstalled).
    Install,
    Rollback,
}

impl Operation {
    pub fn word(self) -> &'static str {
        match self {
            Operation::Upgrade => "upgrade",
            Operation::Install => "install",
            Operation::Rollback => "rollback",
        }
    }

    /// The hook events this command fires (helm: pkg/action/{upgrade,install,rollback}.go execHook).
    pub fn hook_events(self) -> [&'static str; 2] {
        match self {
            Operation::Upgrade => ["pre-upgrade", "post-upgrade"],
            Operation::Install => ["pre-install", "post-install"],
            Operation::Rollback => ["pre-rollback", "post-rollback"],
        }
    }

    /// Helm's failure text for an error of its update: the upgrade CLI
    /// prefixes `UPGRADE FAILED: ` (pkg/cmd/upgrade.go); install and
    /// rollback return the error as it is (pkg/action/rollback.go performRollback).
    pub fn failure(self, error: &str) -> String {
        match self {
            Operation::Upgrade => format!("UPGRADE FAILED: {error}"),
            Operation::Install | Operation::Rollback => error.to_string(),
        }
    }
}

/// Helm's `ResourceList.Get` match: name, namespace, kind and group (not version).
type Identity<'a> = (&'a str, Option<&'a str>, &'a str, &'a str);

/// An object of a manifest, with the template it came from.
#[derive(Debug, Clone)]
pub struct ManifestObject {
    pub source: String,
    /// Namespace already defaulted for namespaced kinds.
    pub object: Value,
}

impl ManifestObject {
    fn str_at(&self, pointer: &str) -> &str {
        crate::keypath::pointer(&self.object, pointer).and_then(Value::as_str).unwrap_or("")
    }
    pub fn api_version(&self) -> &str {
        self.str_at("/apiVersion")
    }
    pub fn kind(&self) -> &str {
        self.str_at("/kind")
    }
    pub fn name(&self) -> &str {
        self.str_at("/metadata/name")
    }
    pub fn namespace(&self) -> Option<&str> {
        crate::keypath::pointer(&self.object, "/metadata/namespace").and_then(Value::as_str).filter(|s| !s.is_empty())
    }
    fn group(&self) -> &str {
        group_of(self.api_version())
    }
    /// Helm's `objectKey`: includes the version.
    fn key(&self) -> LiveKey {
        LiveKey::of(&self.object)
    }
    /// What Helm's `isMatchingInfo` compares: name, namespace, group and
    /// kind; not the version.
    fn identity(&self) -> Identity<'_> {
        (self.name(), self.namespace(), self.kind(), self.group())
    }
}

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Identifies a live object: apiVersion, kind, namespace, name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LiveKey {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl LiveKey {
    pub fn of(object: &Value) -> LiveKey {
        let s = |p: &str| crate::keypath::pointer(object, p).and_then(Value::as_str).unwrap_or("").to_string();
        let ns = s("/metadata/namespace");
        LiveKey { api_version: s("/apiVersion"), kind: s("/kind"), namespace: (!ns.is_empty()).then_some(ns), name: s("/metadata/name") }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Create,
    Update,
    Unchanged,
    Delete,
    Keep,
    Adopt,
    Conflict,
}

impl Action {
    pub fn word(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Unchanged => "unchanged",
            Action::Delete => "delete",
            Action::Keep => "keep",
            Action::Adopt => "adopt",
            Action::Conflict => "conflict",
        }
    }

    /// Whether the action changes the cluster.
    pub fn changes(self) -> bool {
        !matches!(self, Action::Unchanged | Action::Keep)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanPatchType {
    Strategic,
    Merge,
    Apply,
    /// `--force-replace`: a PUT of the whole object.
    Replace,
}

impl PlanPatchType {
    pub fn word(self) -> &'static str {
        match self {
            PlanPatchType::Strategic => "strategic",
            PlanPatchType::Merge => "merge",
            PlanPatchType::Apply => "apply",
            PlanPatchType::Replace => "replace",
        }
    }
}

#[derive(Debug, Clone)]
pub struct ObjectPlan {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    pub source: String,
    pub action: Action,
    pub patch_type: Option<PlanPatchType>,
    /// The request body Helm sends (a patch, or the apply body).
    pub patch: Option<Value>,
    /// The live object, and what it becomes (for `--diff`).
    pub live: Option<Value>,
    pub predicted: Option<Value>,
    pub drift: Vec<Drift>,
    /// Server-side apply conflicts, as the API server would name them.
    pub conflicts: Vec<String>,
    pub notes: Vec<String>,
    /// Helm sends a patch that changes nothing in the live object (the
    /// object counts as unchanged).
    pub noop_patch: bool,
    /// The baseline manifest's object, for an object the upgrade creates
    /// again because it is missing from the cluster (what a diff compares with).
    pub baseline: Option<Value>,
    /// `--why`: what printed each field of the new object (manifest blame).
    pub why: Vec<crate::render::blame::FieldBlame>,
    /// `--why`: what printed each field of the baseline's object, when its
    /// stored chart renders it again as stored ([`super::baseline_blame`]).
    pub why_before: Vec<crate::render::blame::FieldBlame>,
}

impl ObjectPlan {
    /// An object the command creates and that no render produced
    /// (`--create-namespace`'s Namespace): created with server-side apply
    /// when `server_side`, as Helm's `Create` does.
    pub fn created(object: &ManifestObject, server_side: bool) -> ObjectPlan {
        let mut p = ObjectPlan::of(object, Action::Create);
        if server_side {
            p.patch_type = Some(PlanPatchType::Apply);
            p.patch = Some(ssa::apply_body(&object.object));
        }
        p.predicted = Some(object.object.clone());
        p
    }

    /// The plan entry of a manifest object, with nothing decided beyond `action`.
    fn of(object: &ManifestObject, action: Action) -> ObjectPlan {
        ObjectPlan {
            api_version: object.api_version().to_string(),
            kind: object.kind().to_string(),
            namespace: object.namespace().map(str::to_string),
            name: object.name().to_string(),
            source: object.source.clone(),
            action,
            patch_type: None,
            patch: None,
            live: None,
            predicted: None,
            drift: Vec::new(),
            conflicts: Vec::new(),
            notes: Vec::new(),
            noop_patch: false,
            baseline: None,
            why: Vec::new(),
            why_before: Vec::new(),
        }
    }
}

/// What the upgrade does, object by object, in Helm's order: targets in
/// install order, then deletions in the baseline manifest's order.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub objects: Vec<ObjectPlan>,
    /// Helm's error when the upgrade would fail (ownership, conflicts).
    pub failure: Option<String>,
    /// The failure comes from Helm's checks before it applies anything
    /// (ownership: pkg/action/validate.go), so nothing at all changes;
    /// otherwise the other objects are still updated and nothing is deleted.
    pub fails_before_applying: bool,
    /// `--no-hooks`: Helm stores the rendered hooks in the new record but
    /// runs none of them (pkg/action/upgrade.go `DisableHooks`).
    pub hooks_disabled: bool,
    /// An install creates the chart's `crds/` first when they are missing
    /// (not with `--skip-crds`; helm: pkg/action/install.go installCRDs);
    /// an upgrade never touches them.
    pub installs_crds: bool,
    /// The command previewed (which hook events fire, how failures read).
    pub operation: Operation,
    pub warnings: Vec<String>,
}

impl Plan {
    pub fn count(&self, action: Action) -> usize {
        self.objects.iter().filter(|o| o.action == action).count()
    }
}

pub struct PlanInput<'a> {
    pub release: &'a str,
    pub namespace: &'a str,
    /// The new render, in install order.
    pub targets: &'a [ManifestObject],
    /// The baseline revision's manifest, in its order.
    pub originals: &'a [ManifestObject],
    /// Live objects by key; absent = not found.
    pub live: &'a HashMap<LiveKey, Value>,
    pub method: ApplyMethod,
    pub take_ownership: bool,
    pub force_conflicts: bool,
    /// The baseline was applied client-side: with server-side apply now,
    /// Helm first moves its `Update` field ownership into its `Apply` entry.
    pub baseline_client_side: bool,
    pub openapi: Option<&'a OpenApiV2Meta>,
    /// An install fails on an existing object with install's words (helm:
    /// pkg/action/install.go); a rollback checks no ownership and patches an
    /// object missing from the current manifest from its live state.
    pub operation: Operation,
    /// `--force-replace`: client-side, each existing object is replaced
    /// (PUT); with server-side apply Helm refuses (pkg/kube/client.go Update).
    pub force_replace: bool,
}

pub fn plan(input: &PlanInput) -> Plan {
    let mut out = Plan::default();
    let original_keys: std::collections::HashSet<LiveKey> = input.originals.iter().map(ManifestObject::key).collect();
    // The first original per identity, as Helm's `ResourceList.Get` finds it.
    let mut originals_by_identity = HashMap::new();
    for o in input.originals {
        originals_by_identity.entry(o.identity()).or_insert(o);
    }
    let target_identities: std::collections::HashSet<_> = input.targets.iter().map(ManifestObject::identity).collect();
    let mut errors: Vec<String> = Vec::new();
    // Each target's plan depends on nothing but the inputs: they are computed
    // on the cores there are, then gathered in the targets' order.
    let planned = crate::parallel::map_in_order(input.targets.iter().collect(), crate::parallel::available_threads(), |_| 1, |target| {
        plan_target(target, input, &original_keys, &originals_by_identity)
    });
    for t in planned {
        if let Some(failure) = t.failure {
            out.failure.get_or_insert(failure);
            out.fails_before_applying = true;
        }
        errors.extend(t.errors);
        out.objects.push(t.plan);
    }
    let mut deletions = deletions(input, &target_identities, &mut out.warnings);
    let updates = input.operation != Operation::Install || out.objects.iter().any(|o| o.action == Action::Adopt);
    if input.force_replace && input.method == ApplyMethod::ServerSide && updates && out.failure.is_none() {
        // pkg/kube/client.go Update refuses before touching any object.
        out.failure = Some(input.operation.failure("invalid operation: cannot use server-side apply and force replace together"));
        out.fails_before_applying = true;
    }
    if !errors.is_empty() {
        out.failure.get_or_insert_with(|| input.operation.failure(&errors.join(" && ")));
        for d in deletions.iter_mut().filter(|d| d.action == Action::Delete) {
            d.notes.push("Helm deletes nothing when an update failed".into());
        }
    }
    out.objects.extend(deletions);
    out
}

/// One target's plan, and what it makes the upgrade fail with.
struct TargetPlan {
    plan: ObjectPlan,
    /// The upgrade stops before applying anything (an object it may not take over).
    failure: Option<String>,
    /// Errors applying this object.
    errors: Vec<String>,
}

fn plan_target(
    target: &ManifestObject,
    input: &PlanInput,
    original_keys: &std::collections::HashSet<LiveKey>,
    originals_by_identity: &HashMap<Identity, &ManifestObject>,
) -> TargetPlan {
    let mut errors: Vec<String> = Vec::new();
    let mut modified = target.object.clone();
    add_ownership(&mut modified, input.release, input.namespace);
    let key = target.key();
    let live = input.live.get(&key);
    let mut p = ObjectPlan::of(target, Action::Create);
    p.live = live.cloned();
    let in_baseline = original_keys.contains(&key);
    let original = originals_by_identity.get(&target.identity()).copied();
    let Some(live) = live else {
        // Absent: created (an object of the baseline deleted out of band is silently recreated).
        if let Some(o) = original {
            p.notes.push("in the previous release but missing from the cluster: Helm creates it again".into());
            // What the release had, to compare against (there is no live object).
            let mut before = o.object.clone();
            add_ownership(&mut before, input.release, input.namespace);
            p.baseline = Some(before);
        }
        if input.method == ApplyMethod::ServerSide {
            p.patch_type = Some(PlanPatchType::Apply);
            p.patch = Some(ssa::apply_body(&modified));
        }
        p.predicted = Some(modified);
        return TargetPlan { plan: p, failure: None, errors: Vec::new() };
    };
    // Exists but is not in the baseline manifest (by Helm's objectKey, version included).
    let mut adopted = false;
    let mut original_from_live = false;
    if !in_baseline {
        if input.operation == Operation::Rollback {
            // helm 4.2.3: pkg/kube/client.go update ("resource exists on
            // cluster but not in original release, using cluster state as baseline").
            adopted = true;
            original_from_live = true;
            p.notes.push("exists in the cluster but not in the current release: helm rollback takes it over without checking its owner, patching from its live state".into());
        } else if input.take_ownership {
            adopted = true;
            p.notes.push("exists in the cluster but not in the previous release: --take-ownership adopts it without checking its owner".into());
        } else if let Err(why) = check_ownership(live, input.release, input.namespace) {
            let ns = p.namespace.clone().unwrap_or_default();
            let message = format!("{} {:?} in namespace {:?} exists and cannot be imported into the current release: {why}", p.kind, p.name, ns);
            p.action = Action::Conflict;
            p.notes.push(message.clone());
            let failure = if input.operation == Operation::Install {
                // `helm upgrade --install` returns install's error as it is.
                format!("unable to continue with install: {message}")
            } else {
                format!("UPGRADE FAILED: unable to continue with update: {message}")
            };
            return TargetPlan { plan: p, failure: Some(failure), errors: Vec::new() };
        } else {
            adopted = true;
            p.notes.push("exists in the cluster with this release's ownership metadata but not in the previous release: Helm adopts it".into());
        }
    }
    // Helm matches the original by group/kind/namespace/name; an adopted
    // object without one gets a copy of the target (with ownership) as original.
    let original_value = match original {
        _ if original_from_live => live.clone(),
        Some(o) => o.object.clone(),
        None => modified.clone(),
    };
    match input.method {
        ApplyMethod::ClientSide if input.force_replace => replace_update(&mut p, &original_value, &modified, live, adopted),
        ApplyMethod::ClientSide => client_side_update(&mut p, &original_value, &modified, live, adopted, input, &mut errors),
        ApplyMethod::ServerSide => server_side_update(&mut p, target, &original_value, &modified, live, adopted, input, &mut errors),
    }
    TargetPlan { plan: p, failure: None, errors }
}

/// An object of the baseline that stays: the patch Helm sends client-side
/// (three-way strategic merge, or the two-way JSON merge patch for custom
/// resources; helm: pkg/kube/client.go createPatch), what it changes, drift.
fn client_side_update(p: &mut ObjectPlan, original_value: &Value, modified: &Value, live: &Value, adopted: bool, input: &PlanInput, errors: &mut Vec<String>) {
    let opts = helm_patch::Options { openapi: input.openapi, ..Default::default() };
    match helm_patch::helm_patch(original_value, modified, live, opts) {
        Ok(hp) => {
            let changed = !hp.is_empty();
            p.patch_type = Some(match hp.patch_type {
                PatchType::Strategic => PlanPatchType::Strategic,
                PatchType::Merge => PlanPatchType::Merge,
            });
            if hp.patch_type == PatchType::Merge {
                p.notes.push("custom resource: Helm sends the two-way JSON merge patch previous manifest -> new manifest, so edits made in the cluster survive unless the chart changed that field".into());
            }
            let predicted = predict(live, &hp, input.openapi);
            // A patch that changes nothing is still sent (e.g. the
            // ownership metadata in every custom resource's two-way patch).
            let no_op = changed && drift::body_matches_live(&predicted, live) && drift::body_matches_live(live, &predicted);
            if no_op {
                p.noop_patch = true;
                p.notes.push("Helm still sends this patch, but it changes nothing in the live object".into());
            }
            let changed = changed && !no_op;
            p.predicted = Some(predicted);
            p.drift = drift::drift(&server_view_of(original_value), live, &server_view_of(modified), hp.patch_type == PatchType::Merge);
            p.patch = Some(hp.patch);
            p.action = match (adopted, changed) {
                (true, _) => Action::Adopt,
                (false, true) => Action::Update,
                (false, false) => Action::Unchanged,
            };
        }
        Err(e) => {
            p.action = Action::Conflict;
            p.notes.push(format!("failed to create patch: {e}"));
            errors.push(format!("failed to create patch: {e}"));
        }
    }
}

/// `--force-replace` client-side: the PUT Helm sends, and what it drops.
fn replace_update(p: &mut ObjectPlan, original_value: &Value, modified: &Value, live: &Value, adopted: bool) {
    let r = super::replace::replacement(modified, live);
    p.patch_type = Some(PlanPatchType::Replace);
    p.drift = drift::drift(&server_view_of(original_value), live, &server_view_of(modified), false);
    let shown = |list: &mut dyn Iterator<Item = String>| {
        let all: Vec<String> = list.collect();
        let more = all.len().saturating_sub(12);
        let mut text = all.into_iter().take(12).collect::<Vec<_>>().join(", ");
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    };
    if !r.dropped.is_empty() {
        let list = shown(&mut r.dropped.iter().map(|(path, v)| format!("{path} ({})", crate::go::json_pretty::to_json_go_compact(v))));
        p.notes.push(if r.ownership_unknown {
            format!("--force-replace: the PUT does not carry these live fields, so the server drops them or sets its defaults again (no managedFields tell which): {list}")
        } else {
            format!("--force-replace: the PUT drops these live fields set in the cluster: {list}")
        });
    }
    if !r.defaulted.is_empty() {
        p.notes.push(format!("--force-replace: server defaults the PUT does not carry, set again by the API server: {}", shown(&mut r.defaulted.iter().map(ToString::to_string))));
    }
    if !r.changes {
        p.noop_patch = true;
        p.notes.push("Helm still sends this PUT, but it changes nothing in the live object".into());
    }
    p.predicted = Some(server_view(r.predicted));
    p.patch = Some(r.body);
    p.action = match (adopted, r.changes) {
        (true, _) => Action::Adopt,
        (false, true) => Action::Update,
        (false, false) => Action::Unchanged,
    };
}

/// The same with server-side apply: the apply body, what the server removes,
/// and the conflicts predicted from managedFields.
#[allow(clippy::too_many_arguments)]
fn server_side_update(
    p: &mut ObjectPlan,
    target: &ManifestObject,
    original_value: &Value,
    modified: &Value,
    live: &Value,
    adopted: bool,
    input: &PlanInput,
    errors: &mut Vec<String>,
) {
    let lists_atomic = |_: &ssa::FieldPath| None;
    let fallback = ssa::ListKeysSchema(&lists_atomic);
    let builtin = ssa::builtin_ssa_schema(target.api_version(), target.kind());
    // Custom resources without a known schema: maps granular, lists atomic (SMD's deduced schema).
    let schema: &dyn ssa::SsaSchema = match &builtin {
        Some(b) => b,
        None => &fallback,
    };
    let opts = ssa::ApplyOptions { manager: "helm", force: input.force_conflicts, upgrade_client_side: input.baseline_client_side };
    match ssa::preview_apply(Some(live), modified, opts, schema) {
        Ok(apply) => {
            let changed = !drift::body_matches_live(&server_view(apply.body.clone()), live) || !apply.removals.is_empty();
            p.patch_type = Some(PlanPatchType::Apply);
            p.drift = drift::drift(&server_view_of(original_value), live, &server_view_of(modified), false);
            p.predicted = Some(server_view(drift::overlay(live, &apply.body)));
            for r in &apply.removals {
                p.notes.push(format!("the server removes {r}: Helm applied it last time and no longer sets it"));
            }
            if apply.force {
                p.notes.extend(ssa::takeover_lines(&apply.conflicts));
            } else if !apply.conflicts.is_empty() {
                let ns = p.namespace.clone().unwrap_or_default();
                let message = ssa::conflict_message(&ns, &p.name, &p.api_version, &p.kind, &apply.conflicts);
                p.conflicts = apply.conflicts.iter().map(|c| format!("{} owned by {}", c.path, c.manager_text())).collect();
                p.notes.push(message.clone());
                errors.push(message);
            }
            p.patch = Some(apply.body);
            p.action = match (adopted, changed, p.conflicts.is_empty()) {
                (_, _, false) => Action::Conflict,
                (true, _, _) => Action::Adopt,
                (false, true, _) => Action::Update,
                (false, false, _) => Action::Unchanged,
            };
        }
        Err(e) => {
            p.action = Action::Conflict;
            p.notes.push(format!("server-side apply failed for object {}: {e}", p.name));
            errors.push(format!("server-side apply failed for object {}: {e}", p.name));
        }
    }
}

/// Deletions: baseline objects no target matches (version ignored), in the
/// baseline's order; one already gone is only a warning.
fn deletions(input: &PlanInput, target_identities: &std::collections::HashSet<Identity<'_>>, warnings: &mut Vec<String>) -> Vec<ObjectPlan> {
    let mut deletions = Vec::new();
    for original in input.originals {
        if target_identities.contains(&original.identity()) {
            continue;
        }
        let mut p = ObjectPlan::of(original, Action::Delete);
        match input.live.get(&original.key()) {
            None => {
                warnings.push(format!(
                    "{} {} is no longer in the chart and is already gone from the cluster: nothing to delete",
                    p.kind, p.name
                ));
                continue;
            }
            Some(live) => {
                let policy = live.pointer("/metadata/annotations/helm.sh~1resource-policy").and_then(Value::as_str);
                if policy == Some("keep") {
                    p.action = Action::Keep;
                    p.notes.push("no longer in the chart, but the live object has helm.sh/resource-policy: keep, so Helm leaves it (and it is no longer managed)".into());
                }
                p.live = Some(live.clone());
            }
        }
        deletions.push(p);
    }
    deletions
}

fn predict(live: &Value, hp: &HelmPatch, openapi: Option<&OpenApiV2Meta>) -> Value {
    if hp.is_empty() {
        return live.clone();
    }
    let opts = helm_patch::Options { openapi, ..Default::default() };
    let mut patched = helm_patch::apply_helm_patch(live, hp, opts).unwrap_or_else(|_| live.clone());
    super::replace::keep_server_metadata(&mut patched, live);
    server_view(patched)
}

/// [`server_view`] of a borrowed object, copied only when it is a Secret
/// (every other object is its own server view).
fn server_view_of(object: &Value) -> std::borrow::Cow<'_, Value> {
    if object.get("kind").and_then(Value::as_str) == Some("Secret") {
        std::borrow::Cow::Owned(server_view(object.clone()))
    } else {
        std::borrow::Cow::Borrowed(object)
    }
}

/// An object as the API server stores it: a Secret's write-only
/// `stringData` is merged into `data` (base64), its entries winning.
fn server_view(mut object: Value) -> Value {
    use base64::Engine as _;
    if object.get("kind").and_then(Value::as_str) != Some("Secret") {
        return object;
    }
    let Some(obj) = object.as_object_mut() else { return object };
    if let Some(Value::Object(strings)) = obj.remove("stringData") {
        let data = obj.entry("data").or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Some(data) = data.as_object_mut() {
            for (k, v) in strings {
                let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                data.insert(k, Value::String(base64::engine::general_purpose::STANDARD.encode(text)));
            }
        }
    }
    object
}



#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn obj(kind: &str, name: &str, spec: Value) -> ManifestObject {
        let api = match kind {
            "Deployment" => "apps/v1",
            "ServiceMonitor" => "monitoring.coreos.com/v1",
            _ => "v1",
        };
        ManifestObject {
            source: format!("templates/{name}.yaml"),
            object: json!({"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": "prod"}, "spec": spec}),
        }
    }

    fn owned(o: &ManifestObject, release: &str) -> Value {
        let mut v = o.object.clone();
        add_ownership(&mut v, release, "prod");
        v
    }

    fn run(targets: &[ManifestObject], originals: &[ManifestObject], live: Vec<Value>) -> Plan {
        let live: HashMap<LiveKey, Value> = live.into_iter().map(|v| (LiveKey::of(&v), v)).collect();
        plan(&PlanInput {
            release: "web",
            namespace: "prod",
            targets,
            originals,
            live: &live,
            method: ApplyMethod::ClientSide,
            take_ownership: false,
            force_conflicts: false,
            baseline_client_side: false,
            openapi: None,
            operation: Operation::Upgrade,
            force_replace: false,
        })
    }

    #[test]
    fn each_object_gets_helms_action() {
        let dep = |r: i64| obj("Deployment", "web", json!({"replicas": r}));
        let cm = obj("ConfigMap", "cfg", json!({}));
        let gone = obj("Service", "old", json!({}));
        let kept = obj("Secret", "keepme", json!({}));
        let mut kept_live = owned(&kept, "web");
        kept_live["metadata"]["annotations"]["helm.sh/resource-policy"] = json!("keep");
        let p = run(&[dep(3), cm.clone()], &[dep(2), gone.clone(), kept.clone()], vec![owned(&dep(2), "web"), owned(&gone, "web"), kept_live]);
        let actions: Vec<(&str, Action)> = p.objects.iter().map(|o| (o.name.as_str(), o.action)).collect();
        assert_eq!(actions, [("web", Action::Update), ("cfg", Action::Create), ("old", Action::Delete), ("keepme", Action::Keep)]);
        assert_eq!(p.objects[0].patch, Some(json!({"spec": {"replicas": 3}})));
        assert!(p.failure.is_none());
    }

    #[test]
    fn an_unchanged_object_sends_no_patch() {
        let dep = obj("Deployment", "web", json!({"replicas": 2}));
        let p = run(std::slice::from_ref(&dep), std::slice::from_ref(&dep), vec![owned(&dep, "web")]);
        assert_eq!(p.objects[0].action, Action::Unchanged);
    }

    #[test]
    fn an_object_of_another_release_fails_the_upgrade_with_helms_error() {
        let cm = obj("ConfigMap", "shared", json!({}));
        let p = run(std::slice::from_ref(&cm), &[], vec![owned(&cm, "other")]);
        assert_eq!(p.objects[0].action, Action::Conflict);
        assert_eq!(
            p.failure.as_deref(),
            Some("UPGRADE FAILED: unable to continue with update: ConfigMap \"shared\" in namespace \"prod\" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key \"meta.helm.sh/release-name\" must equal \"web\": current value is \"other\"")
        );
    }

    #[test]
    fn an_object_already_owned_by_this_release_is_adopted() {
        let cm = obj("ConfigMap", "orphan", json!({"a": 1}));
        let p = run(std::slice::from_ref(&cm), &[], vec![owned(&cm, "web")]);
        assert_eq!(p.objects[0].action, Action::Adopt);
    }

    #[test]
    fn custom_resources_ignore_live_edits() {
        let sm = |port: &str| obj("ServiceMonitor", "m", json!({"port": port}));
        let mut live = owned(&sm("web"), "web");
        live["spec"]["port"] = json!("edited");
        let p = run(&[sm("web")], &[sm("web")], vec![live]);
        assert_eq!(p.objects[0].action, Action::Unchanged);
        assert_eq!(p.objects[0].patch_type, Some(PlanPatchType::Merge));
        assert_eq!(p.objects[0].drift[0].outcome, drift::DriftOutcome::Kept);
    }

    #[test]
    fn apply_method_follows_the_last_revision_in_auto_mode() {
        assert_eq!(apply_method("auto", Some("ssa")), Ok(ApplyMethod::ServerSide));
        assert_eq!(apply_method("auto", Some("csa")), Ok(ApplyMethod::ClientSide));
        assert_eq!(apply_method("auto", None), Ok(ApplyMethod::ClientSide));
        assert_eq!(apply_method("true", None), Ok(ApplyMethod::ServerSide));
        assert_eq!(apply_method("maybe", None), Err("invalid/unknown release server-side apply method: maybe".into()));
    }
}
