//! helm-diff's report as a view over our answers: objects indexed by
//! helm-diff's key (`NAMESPACE, NAME, KIND (GROUP)`), compared old -> new
//! with its line diff, Secrets redacted or decoded its way, renames found,
//! kinds and lines suppressed. The indexes come from an upgrade plan (live
//! object -> what the upgrade makes of it, hooks stored -> rendered) or from
//! two stored manifests (`diff revision`, `diff release`). Pure; `cli`
//! prints the report. helm-diff: diff/diff.go generateReport, doDiff,
//! contentSearch, doSuppress, redactSecrets; manifest/parse.go

use std::collections::BTreeMap;

use base64::Engine as _;
use serde_json::{Map, Value};

use super::plan::{Action, Plan};
use crate::manifest::line_diff::{self, Delta, Line};

/// One object as helm-diff indexes it.
#[derive(Debug, Clone)]
pub struct DiffObject {
    pub kind: String,
    /// The template it came from (its `# Source:` line).
    pub source: String,
    pub object: Value,
    /// `helm.sh/resource-policy`: a removed object with `keep` is not reported.
    pub resource_policy: Option<String>,
}

/// Objects by helm-diff's key, in key order (its `sortedKeys`).
pub type Index = BTreeMap<String, DiffObject>;

/// helm-diff's key of an object: manifest/parse.go `metadata.String()`.
/// The namespace defaults to the release's for every kind (as helm-diff's
/// `Parse` does); `helm-diff/base-name` replaces the name.
pub fn key_of(object: &Value, default_namespace: &str) -> String {
    let s = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or("");
    let api = s("/apiVersion");
    let group = api.rsplit_once('/').map_or(api, |(g, _)| g);
    let name = object.pointer("/metadata/annotations/helm-diff~1base-name").and_then(Value::as_str).unwrap_or(s("/metadata/name"));
    let namespace = Some(s("/metadata/namespace")).filter(|n| !n.is_empty()).unwrap_or(default_namespace);
    format!("{namespace}, {name}, {} ({group})", s("/kind"))
}

impl DiffObject {
    pub fn new(object: Value, source: &str) -> DiffObject {
        let kind = object.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
        let resource_policy = object.pointer("/metadata/annotations/helm.sh~1resource-policy").and_then(Value::as_str).map(str::to_string);
        DiffObject { kind, source: source.to_string(), object, resource_policy }
    }
}

/// Adds `object` under its key; the first of duplicates wins, as in helm-diff.
pub fn insert(index: &mut Index, object: Value, source: &str, default_namespace: &str) {
    index.entry(key_of(&object, default_namespace)).or_insert_with(|| DiffObject::new(object, source));
}

/// What helm-diff leaves out of a live object before comparing it:
/// manifest/util.go deleteStatusAndTidyMetadata (the server's bookkeeping
/// and Helm's ownership annotations), applied to both sides alike.
pub fn tidy(mut object: Value) -> Value {
    if let Some(o) = object.as_object_mut() {
        o.remove("status");
    }
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in ["managedFields", "generation", "creationTimestamp", "resourceVersion", "uid"] {
            meta.remove(k);
        }
        if let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            for k in ["meta.helm.sh/release-name", "meta.helm.sh/release-namespace", "deployment.kubernetes.io/revision"] {
                annotations.remove(k);
            }
            if annotations.is_empty() {
                meta.remove("annotations");
            }
        }
    }
    object
}

/// The indexes of a stored manifest: helm-diff's `manifest.Parse` (a
/// `...List` flattened into its items, hooks of the excluded events left
/// out).
pub fn index_manifest(manifest: &str, default_namespace: &str, include_tests: bool) -> Index {
    let mut index = Index::new();
    for doc in crate::manifest::split(manifest) {
        let source = crate::manifest::leading_source(doc).unwrap_or("");
        let Ok(values) = serde_saphyr::from_multiple::<Value>(doc) else { continue };
        for v in values {
            add_parsed(&mut index, v, source, default_namespace, include_tests);
        }
    }
    index
}

fn add_parsed(index: &mut Index, v: Value, source: &str, default_namespace: &str, include_tests: bool) {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    if v.get("apiVersion").is_none() && kind.is_empty() {
        return;
    }
    if kind.ends_with("List")
        && let Some(items) = v.get("items").and_then(Value::as_array)
    {
        for item in items.clone() {
            add_parsed(index, item, source, default_namespace, include_tests);
        }
        return;
    }
    if !include_tests && is_test_hook(&v) {
        return;
    }
    insert(index, v, source, default_namespace);
}

/// helm-diff leaves out test hooks (`helm.sh/hook: test`, Helm 2's
/// `test-success`) unless `--include-tests`: manifest/parse.go isHook
/// compares the whole annotation.
pub fn is_test_hook(object: &Value) -> bool {
    matches!(object.pointer("/metadata/annotations/helm.sh~1hook").and_then(Value::as_str), Some("test" | "test-success"))
}

/// What to include when an upgrade plan becomes helm-diff's two indexes.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanSelection {
    pub no_hooks: bool,
    pub include_tests: bool,
    pub include_crds: bool,
}

/// The old and new indexes of an upgrade plan, and what we know about each
/// key beyond the diff (drift, conflicts, Helm's notes).
#[derive(Debug, Default)]
pub struct PlanIndexes {
    pub old: Index,
    pub new: Index,
    /// Objects adopted from another owner: (key, old owner, new owner) as
    /// helm-diff's `--take-ownership` shows them (`NAMESPACE/RELEASE`).
    pub ownership: Vec<(String, String, String)>,
    pub facts: BTreeMap<String, Vec<String>>,
}

/// An upgrade plan seen as helm-diff's three-way mode sees it (what each
/// object is live -> what the upgrade makes of it; created objects against
/// nothing; deleted ones against nothing), with hooks compared stored ->
/// rendered (Helm deletes and creates them, it never patches them).
pub fn plan_indexes(plan: &Plan, manifest: &super::manifest::Manifest, stored_hooks: &[(String, &str)], release: (&str, &str), selection: PlanSelection) -> PlanIndexes {
    let (release, namespace) = release;
    let mut out = PlanIndexes::default();
    for o in &plan.objects {
        let Some(body) = o.predicted.as_ref().or(o.live.as_ref()) else { continue };
        if !selection.include_tests && is_test_hook(body) {
            continue;
        }
        let key = key_of(body, namespace);
        let live = o.live.clone().map(tidy);
        match o.action {
            Action::Create => {
                if let Some(p) = &o.predicted {
                    out.new.insert(key.clone(), DiffObject::new(tidy(p.clone()), &o.source));
                }
            }
            Action::Delete | Action::Keep => {
                if let Some(l) = live {
                    out.old.insert(key.clone(), DiffObject::new(l, &o.source));
                }
            }
            _ => {
                let after = o.predicted.clone().map(tidy).or_else(|| live.clone());
                if let (Some(l), Some(a)) = (live, after) {
                    out.old.insert(key.clone(), DiffObject::new(l, &o.source));
                    out.new.insert(key.clone(), DiffObject::new(a, &o.source));
                }
            }
        }
        if o.action == Action::Adopt
            && let Some(owner) = o.live.as_ref().map(owner_of).filter(|w| *w != format!("{namespace}/{release}"))
        {
            out.ownership.push((key.clone(), owner, format!("{namespace}/{release}")));
        }
        let facts = object_facts(o);
        if !facts.is_empty() {
            out.facts.entry(key).or_default().extend(facts);
        }
    }
    if !selection.no_hooks {
        for (text, source) in stored_hooks {
            for (k, v) in index_manifest(text, namespace, selection.include_tests) {
                out.old.entry(k).or_insert(DiffObject { source: source.to_string(), ..v });
            }
        }
        for h in &manifest.hooks {
            if selection.include_tests || !is_test_hook(&h.object.value) {
                insert(&mut out.new, h.object.value.clone(), &h.object.source, namespace);
            }
        }
    }
    if selection.include_crds && plan.installs_crds {
        for c in &manifest.crds {
            let key = key_of(&c.value, namespace);
            out.facts.entry(key).or_default().push("CRD from crds/: Helm creates it only where it does not exist yet".into());
            insert(&mut out.new, c.value.clone(), &c.source, namespace);
        }
    }
    out
}

/// helm-diff's owner of a live object: manifest/parse.go ParseObject.
fn owner_of(live: &Value) -> String {
    let a = |k: &str| live.pointer(&format!("/metadata/annotations/{}", k.replace('/', "~1"))).and_then(Value::as_str);
    let mut owner = String::new();
    if let Some(ns) = a("meta.helm.sh/release-namespace") {
        owner.push_str(ns);
        owner.push('/');
    }
    owner.push_str(a("meta.helm.sh/release-name").unwrap_or(""));
    owner
}

/// What we know about an object that a text diff does not say.
fn object_facts(o: &super::plan::ObjectPlan) -> Vec<String> {
    let secret = o.kind == "Secret";
    let mut facts: Vec<String> = o.notes.iter().filter(|_| !secret).cloned().collect();
    for d in &o.drift {
        let what = match &d.outcome {
            super::DriftOutcome::Reset(_) => "the upgrade resets it",
            super::DriftOutcome::Removed => "the upgrade removes it",
            super::DriftOutcome::Kept => "the live value stays",
        };
        if secret {
            facts.push(format!("drift at {}: changed in the cluster since the release; {what}", d.path));
        } else {
            let live = d.live.as_ref().map_or_else(|| "(absent)".to_string(), |v| v.to_string());
            facts.push(format!("drift at {}: {} in the release, {live} live; {what}", d.path, d.baseline));
        }
    }
    facts.extend(o.conflicts.iter().map(|c| format!("server-side apply conflict: {c}")));
    facts
}

/// How helm-diff compares and shows the objects (its `diff.Options`).
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub show_secrets: bool,
    pub show_secrets_decoded: bool,
    /// Kinds whose diff is replaced by one line (`--suppress`, `Secret` with `--suppress-secrets`).
    pub suppressed_kinds: Vec<String>,
    /// `--context`: `None` shows every line.
    pub context: Option<usize>,
    pub strip_trailing_cr: bool,
    /// `--find-renames`: the largest fraction of changed lines for a rename.
    pub find_renames: f32,
    /// `--suppress-output-line-regex`.
    pub suppress_lines: Vec<regex::Regex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    Add,
    Remove,
    Modify,
    Ownership,
    /// Changed, but every changed line was suppressed by a line regex.
    ModifySuppressed,
}

impl ChangeType {
    /// helm-diff's name (its JSON `change` field).
    pub fn word(self) -> &'static str {
        match self {
            ChangeType::Add => "ADD",
            ChangeType::Remove => "REMOVE",
            ChangeType::Modify => "MODIFY",
            ChangeType::Ownership => "OWNERSHIP",
            ChangeType::ModifySuppressed => "MODIFY_SUPPRESSED",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    pub kind: String,
    pub change: ChangeType,
    pub lines: Vec<Line>,
    /// The kind is suppressed: helm-diff prints one line instead of the diff.
    pub kind_suppressed: bool,
    /// Lines of context shown around changes (`None`: all).
    pub context: Option<usize>,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub entries: Vec<Entry>,
    /// Whether anything changes (before line suppression, as helm-diff
    /// decides `--detailed-exitcode`).
    pub changes: bool,
}

/// helm-diff's `generateReport`: ownership changes, then modified objects
/// in key order, then removed and added ones (after rename detection).
pub fn report(old: &Index, new: &Index, ownership: &[(String, String, String)], opts: &Options) -> Report {
    let mut entries = Vec::new();
    for (key, from, to) in ownership {
        let lines = line_diff::diff_texts(from, to, true);
        entries.push(Entry { key: key.clone(), kind: String::new(), change: ChangeType::Ownership, lines, kind_suppressed: false, context: Some(0) });
    }
    let mut removed = Vec::new();
    for (key, o) in old {
        match new.get(key) {
            Some(n) => entries.extend(entry(key, Some(o), Some(n), opts)),
            None => removed.push(key.as_str()),
        }
    }
    let mut added: Vec<&str> = new.keys().filter(|k| !old.contains_key(*k)).map(String::as_str).collect();
    let removed = find_renames(&mut entries, removed, &mut added, old, new, opts);
    for key in removed {
        if old[key].resource_policy.as_deref() != Some("keep") {
            entries.extend(entry(key, Some(&old[key]), None, opts));
        }
    }
    for key in added {
        entries.extend(entry(key, None, Some(&new[key]), opts));
    }
    let changes = !entries.is_empty();
    suppress_lines(&mut entries, &opts.suppress_lines);
    Report { entries, changes }
}

/// helm-diff: diff/diff.go contentSearch.
fn find_renames<'a>(entries: &mut Vec<Entry>, removed: Vec<&'a str>, added: &mut Vec<&'a str>, old: &Index, new: &Index, opts: &Options) -> Vec<&'a str> {
    if opts.find_renames <= 0.0 {
        return removed;
    }
    let mut still_removed = Vec::new();
    for r in removed {
        let o = &old[r];
        let mut best: Option<(usize, f32)> = None;
        for (i, a) in added.iter().enumerate() {
            let n = &new[*a];
            if o.kind != n.kind {
                continue;
            }
            let (before, after) = contents(Some(o), Some(n), opts);
            let (ol, nl) = (before.len() as f32, after.len() as f32);
            if ol == 0.0 || nl == 0.0 || (o.kind != "Secret" && !(0.1..=10.0).contains(&(ol / nl))) {
                continue;
            }
            let lines = line_diff::diff_texts(&before, &after, opts.strip_trailing_cr);
            let delta = line_diff::changes(&lines);
            if delta == 0 || lines.is_empty() {
                continue;
            }
            let fraction = delta as f32 / lines.len() as f32;
            if best.is_none_or(|(_, f)| fraction < f) {
                best = Some((i, fraction));
            }
        }
        match best.filter(|(_, f)| *f < opts.find_renames) {
            Some((i, _)) => {
                let a = added.remove(i);
                entries.extend(entry(r, Some(o), Some(&new[a]), opts));
            }
            None => still_removed.push(r),
        }
    }
    still_removed
}

/// helm-diff: diff/diff.go doDiff (no entry for an unchanged object).
fn entry(key: &str, old: Option<&DiffObject>, new: Option<&DiffObject>, opts: &Options) -> Option<Entry> {
    let (before, after) = contents(old, new, opts);
    if old.is_some() && new.is_some() && before == after {
        return None;
    }
    let change = match (old, new) {
        (None, _) => ChangeType::Add,
        (_, None) => ChangeType::Remove,
        _ => ChangeType::Modify,
    };
    let lines = line_diff::diff_texts(&before, &after, opts.strip_trailing_cr);
    if change == ChangeType::Modify && line_diff::changes(&lines) == 0 {
        return None;
    }
    let kind = old.or(new).map(|o| o.kind.clone()).unwrap_or_default();
    let kind_suppressed = opts.suppressed_kinds.contains(&kind);
    Some(Entry { key: key.to_string(), kind, change, lines, kind_suppressed, context: opts.context })
}

/// The two texts helm-diff compares: each object as YAML with sorted keys
/// under its `# Source:` line, Secrets redacted or decoded first (only when
/// both sides are Secrets). An absent side is the empty text.
fn contents(old: Option<&DiffObject>, new: Option<&DiffObject>, opts: &Options) -> (String, String) {
    let secrets = old.is_none_or(|o| o.kind == "Secret") && new.is_none_or(|n| n.kind == "Secret");
    let (mut a, mut b) = (old.map(|o| o.object.clone()), new.map(|n| n.object.clone()));
    if secrets && opts.show_secrets_decoded {
        a = a.map(|v| secret_shown(v, None, SecretView::Decoded));
        b = b.map(|v| secret_shown(v, None, SecretView::Decoded));
    } else if secrets && !opts.show_secrets {
        let (da, db) = (a.as_ref().map(secret_data), b.as_ref().map(secret_data));
        a = a.map(|v| secret_shown(v, db.as_ref(), SecretView::Redacted { removed: true }));
        b = b.map(|v| secret_shown(v, da.as_ref(), SecretView::Redacted { removed: false }));
    }
    let text = |o: Option<&DiffObject>, v: Option<Value>| match (o, v) {
        (Some(o), Some(v)) => content(&o.source, &v),
        _ => String::new(),
    };
    (text(old, a), text(new, b))
}

/// An object's text: its `# Source:` line, then YAML with sorted keys
/// (helm-diff's three-way mode marshals through sigs.k8s.io/yaml, which
/// sorts them), without the final newline (its `Parse` trims each document).
pub fn content(source: &str, object: &Value) -> String {
    let yaml = serde_saphyr::to_string(&sorted(object)).unwrap_or_default();
    let yaml = yaml.trim_end();
    if source.is_empty() { yaml.to_string() } else { format!("# Source: {source}\n{yaml}") }
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// A Secret's data as the API server keeps it: `data` decoded, `stringData`
/// written over it (helm-diff: preHandleSecrets).
fn secret_data(secret: &Value) -> BTreeMap<String, Vec<u8>> {
    let mut data = BTreeMap::new();
    if let Some(Value::Object(m)) = secret.get("data") {
        for (k, v) in m {
            let s = v.as_str().unwrap_or("");
            data.insert(k.clone(), base64::engine::general_purpose::STANDARD.decode(s).unwrap_or_else(|_| s.as_bytes().to_vec()));
        }
    }
    if let Some(Value::Object(m)) = secret.get("stringData") {
        for (k, v) in m {
            data.insert(k.clone(), v.as_str().map_or_else(|| v.to_string().into_bytes(), |s| s.as_bytes().to_vec()));
        }
    }
    data
}

enum SecretView {
    Decoded,
    /// helm-diff's markers: `REDACTED` when the other side has the same
    /// bytes, else `--------` on the old side and `++++++++` on the new.
    Redacted { removed: bool },
}

/// helm-diff: diff/diff.go redactSecrets and decodeSecrets.
fn secret_shown(mut secret: Value, other: Option<&BTreeMap<String, Vec<u8>>>, view: SecretView) -> Value {
    let data = secret_data(&secret);
    let shown: Map<String, Value> = data
        .iter()
        .map(|(k, bytes)| {
            let text = match view {
                SecretView::Decoded => String::from_utf8_lossy(bytes).into_owned(),
                SecretView::Redacted { removed } => {
                    let same = other.is_some_and(|o| o.get(k) == Some(bytes));
                    let marker = if same { "REDACTED" } else if removed { "--------" } else { "++++++++" };
                    format!("{marker} # ({} bytes)", bytes.len())
                }
            };
            (k.clone(), Value::String(text))
        })
        .collect();
    if let Some(o) = secret.as_object_mut() {
        o.remove("stringData");
        // helm-diff serializes the decoded data as `stringData` and renames the key to `data`.
        let key = if matches!(view, SecretView::Decoded) { "stringData" } else { "data" };
        o.remove("data");
        if !shown.is_empty() {
            o.insert(key.into(), Value::Object(shown));
        }
    }
    secret
}

/// helm-diff: diff/diff.go doSuppress. Lines matching a regex are dropped;
/// a modification left with no changed line says so instead of a diff.
fn suppress_lines(entries: &mut [Entry], regexes: &[regex::Regex]) {
    if regexes.is_empty() {
        return;
    }
    for e in entries.iter_mut() {
        let kept: Vec<Line> = e.lines.iter().filter(|l| !regexes.iter().any(|r| r.is_match(&l.text))).cloned().collect();
        if kept.iter().any(|l| l.delta != Delta::Common) {
            e.lines = kept;
        } else {
            e.lines = Vec::new();
            if e.change == ChangeType::Modify {
                e.change = ChangeType::ModifySuppressed;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_are_helm_diffs_namespace_name_kind_and_group() {
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
        assert_eq!(key_of(&d, "prod"), "prod, web, Deployment (apps)");
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "x", "annotations": {"helm-diff/base-name": "base"}}});
        assert_eq!(key_of(&cm, "prod"), "x, base, ConfigMap (v1)");
    }

    #[test]
    fn tidy_drops_what_the_server_and_helm_add() {
        let live = json!({"metadata": {"name": "a", "uid": "u", "resourceVersion": "1", "annotations": {"meta.helm.sh/release-name": "r"}}, "status": {}});
        assert_eq!(tidy(live), json!({"metadata": {"name": "a"}}));
    }
}
