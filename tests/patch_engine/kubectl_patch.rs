//! Differential tests of the patch engines against the real `kubectl`.
//!
//! 1. `apply_sends_the_same_patch_bytes_as_kubectl`: for every generated
//!    (original, modified, current) case, a fixture API server serves
//!    `current` carrying `kubectl.kubernetes.io/last-applied-configuration`
//!    = original, `kubectl apply -f modified.json` runs against it, and the
//!    PATCH body kubectl sends must be byte for byte our
//!    `to_go_json(strategic::create_three_way(original, modified', current,
//!    struct-tag meta, overwrite = true))` for built-in kinds, our
//!    `jsonmerge::create_three_way(.., [apiVersion, kind, metadata.name
//!    unchanged])` for custom resources (kubectl's `patchSimple`), where
//!    modified' is modified with kubectl's own last-applied annotation. No
//!    PATCH (kubectl prints "unchanged") means our patch is `{}`.
//! 2. `local_patch_result_keeps_modified_and_live_fields`: our three-way
//!    patch applied to `current` by `kubectl patch --local` (no server, no
//!    kubeconfig needed) has every field of modified (merge-list items
//!    matched by merge key), none of the fields dropped from original, keeps
//!    the fields only the live object had (unless an ancestor was dropped or
//!    nulled by the manifest, or a `retainKeys` object of modified lacks
//!    them), and equals what our own `apply` gives. Where kubectl refuses the
//!    patch (two items under one merge key can give "The order in patch list
//!    ... doesn't match $setElementOrder list"), our apply must refuse it
//!    with the same message. Cases with duplicate merge keys skip the field
//!    properties (only the comparison with kubectl applies).
//! 3. `generator_is_deterministic_and_varied` (no kubectl): the generator's
//!    cases are reproducible, varied, and every field they use is known to
//!    the built-in metadata.
//!
//! kubectl gets a clean environment: HOME a temp dir (its discovery cache),
//! KUBECONFIG a generated file. The fixture server answers 404 for
//! `/openapi/v2` and `/openapi/v3`, so kubectl computes strategic patches
//! from its compiled-in Go struct tags, like Helm.
//!
//! Knobs (environment): `RELEASEX_KUBECTL_CASES` (default 240),
//! `RELEASEX_KUBECTL_SEED` (first seed, decimal or 0x-hex; case i has the
//! seed plus i, so `RELEASEX_KUBECTL_SEED=<seed> RELEASEX_KUBECTL_CASES=1`
//! reruns one printed case), `RELEASEX_KUBECTL` (the kubectl binary),
//! `RELEASEX_KUBECTL_SERVER_VERSION` (what the fixture's `/version` says;
//! gcloud's kubectl dispatcher runs the matching release). Without a
//! working kubectl the two kubectl tests print SKIPPED and pass, except in CI
//! (`CI` set), where they fail.
//!
//! The benchmark of `benches/patch.rs` (`tests/patchgen/bench.rs`) runs here
//! too, as the ignored test `bench_three_way_500_deployments`:
//! `cargo test --release --test patch_engine -- --ignored --nocapture bench`.

use crate::{kubectl_support, patchgen};

use std::collections::BTreeMap;
use std::path::Path;

use crate::fixture_api::Recorded;
use kubectl_support::*;
use patchgen::{Case, Kind};
use releasex::go::json::{to_float64_value, to_go_json};
use releasex::patch::jsonmerge;
use releasex::patch::meta::{LookupPatchMeta, StructMeta, builtin_kind};
use releasex::patch::strategic;
use serde_json::{Map, Value};

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
const DEFAULT_CASES: u64 = 240;
const DEFAULT_SEED: u64 = 0x5EED_0000;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(s) => {
            let s = s.trim();
            let parsed = match s.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={s} is not a number"))
        }
        Err(_) => default,
    }
}

fn seeds() -> Vec<u64> {
    let n = env_u64("RELEASEX_KUBECTL_CASES", DEFAULT_CASES);
    let first = env_u64("RELEASEX_KUBECTL_SEED", DEFAULT_SEED);
    (0..n).map(|i| first + i).collect()
}

fn skip_without_kubectl(test: &str) -> bool {
    if kubectl_available() {
        return false;
    }
    // CI machines have kubectl: there a missing one is a failure, not a skip.
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: no working `{}` in CI (set RELEASEX_KUBECTL to a kubectl binary)",
        kubectl_bin()
    );
    eprintln!("SKIPPED {test}: no working `{}` (set RELEASEX_KUBECTL to a kubectl binary)", kubectl_bin());
    true
}

// --- kubectl's construction of original / modified / current ---------------

/// `obj` with `metadata.annotations` present (possibly empty) and without
/// the last-applied key: what kubectl serializes into the annotation.
fn without_last_applied(obj: &Value) -> Value {
    let mut v = obj.clone();
    let meta = v.as_object_mut().unwrap().entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    let ann = meta.as_object_mut().unwrap().entry("annotations").or_insert_with(|| Value::Object(Map::new()));
    ann.as_object_mut().unwrap().remove(LAST_APPLIED);
    v
}

/// The annotation text kubectl writes for a manifest: the Go JSON (an
/// `encoding/json` Encoder: `json.Marshal` plus "\n") of the manifest with
/// an annotations map and without the key.
fn last_applied_text(manifest: &Value) -> String {
    to_go_json(&without_last_applied(manifest)) + "\n"
}

fn with_annotation(obj: &Value, key: &str, value: String) -> Value {
    let mut v = without_last_applied(obj);
    v["metadata"]["annotations"][key] = Value::String(value);
    v
}

/// One case as kubectl sees it.
struct Prepared {
    case: Case,
    /// The `original` kubectl takes: the live annotation, parsed.
    original: Value,
    /// kubectl's `GetModifiedConfiguration(obj, annotate = true)`: the
    /// manifest with its own last-applied annotation.
    modified: Value,
    /// The live object as served (with the last-applied annotation of
    /// `case.original`).
    current: Value,
}

fn prepare(case: Case) -> Prepared {
    let text = last_applied_text(&case.original);
    let original: Value = serde_json::from_str(&text).expect("annotation is JSON");
    let modified = with_annotation(&case.modified, LAST_APPLIED, last_applied_text(&case.modified));
    let mut current = case.current.clone();
    let ann = current["metadata"].as_object_mut().unwrap().entry("annotations").or_insert_with(|| Value::Object(Map::new()));
    ann[LAST_APPLIED] = Value::String(text);
    Prepared { case, original, modified, current }
}

fn struct_meta(kind: Kind) -> StructMeta<'static> {
    builtin_kind(kind.api_version(), kind.name()).unwrap_or_else(|| panic!("no built-in metadata for {kind:?}")).meta
}

/// Our three-way patch, as kubectl's `patchSimple` computes it.
fn our_patch(p: &Prepared) -> Result<Value, String> {
    if p.case.kind.is_builtin() {
        strategic::create_three_way(&p.original, &p.modified, &p.current, &struct_meta(p.case.kind), true).map_err(|e| e.to_string())
    } else {
        jsonmerge::create_three_way(&p.original, &p.modified, &p.current, &jsonmerge::Precondition::helm()).map_err(|e| e.to_string())
    }
}

fn our_apply(p: &Prepared, patch: &Value) -> Result<Value, String> {
    if p.case.kind.is_builtin() {
        strategic::apply(&p.current, patch, &struct_meta(p.case.kind)).map_err(|e| e.to_string())
    } else {
        jsonmerge::apply(&p.current, patch).map_err(|e| e.to_string())
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

fn describe(p: &Prepared) -> String {
    format!(
        "seed {seed:#x} ({seed}) kind {kind:?}, current from {base}, duplicate merge keys: {dup}\nedits: {edits:?}\nlive edits: {live:?}\n--- original (manifest applied last time) ---\n{o}\n--- modified (manifest applied now) ---\n{m}\n--- current (served, with last-applied) ---\n{c}",
        seed = p.case.seed,
        kind = p.case.kind,
        base = if p.case.current_from_modified { "modified" } else { "original" },
        dup = p.case.duplicate_merge_keys,
        edits = p.case.edits,
        live = p.case.live_edits,
        o = pretty(&p.case.original),
        m = pretty(&p.case.modified),
        c = pretty(&p.current),
    )
}

/// Counts of what the generated patches exercised.
#[derive(Default)]
struct Coverage {
    by_kind: BTreeMap<String, usize>,
    no_patch: usize,
    set_element_order: usize,
    retain_keys: usize,
    delete_directive: usize,
    delete_from_primitive_list: usize,
    null_deletion: usize,
    duplicate_keys: usize,
}

impl Coverage {
    fn add(&mut self, p: &Prepared, patch: &Value) {
        // Counted without the last-applied annotation (its text holds the
        // whole manifest).
        let mut patch = patch.clone();
        if let Some(a) = patch.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
            a.remove(LAST_APPLIED);
        }
        let patch_bytes = &to_go_json(&patch);
        *self.by_kind.entry(format!("{:?}", p.case.kind)).or_default() += 1;
        self.no_patch += usize::from(patch.as_object().is_some_and(Map::is_empty));
        self.set_element_order += usize::from(patch_bytes.contains("$setElementOrder"));
        self.retain_keys += usize::from(patch_bytes.contains("$retainKeys"));
        self.delete_directive += usize::from(patch_bytes.contains(r#""$patch":"delete""#));
        self.delete_from_primitive_list += usize::from(patch_bytes.contains("$deleteFromPrimitiveList"));
        self.null_deletion += usize::from(patch_bytes.contains(":null"));
        self.duplicate_keys += usize::from(p.case.duplicate_merge_keys);
    }

    fn summary(&self) -> String {
        format!(
            "by kind {:?}; empty patch {}; with $setElementOrder {}; $retainKeys {}; $patch:delete {}; $deleteFromPrimitiveList {}; null deletions {}; duplicate merge keys {}",
            self.by_kind,
            self.no_patch,
            self.set_element_order,
            self.retain_keys,
            self.delete_directive,
            self.delete_from_primitive_list,
            self.null_deletion,
            self.duplicate_keys
        )
    }
}

// --- 1. exact bytes vs kubectl apply ----------------------------------------

#[test]
fn apply_sends_the_same_patch_bytes_as_kubectl() {
    if skip_without_kubectl("apply_sends_the_same_patch_bytes_as_kubectl") {
        return;
    }
    let server = kubectl_server();
    let home = tempfile::tempdir().expect("tempdir");
    let kubeconfig = server.write_kubeconfig(home.path(), "default");
    let manifest = home.path().join("modified.json");
    let started = std::time::Instant::now();

    let seeds = seeds();
    let mut coverage = Coverage::default();
    let mut failures: Vec<String> = Vec::new();
    let mut kubectl_patches = 0usize;
    for &seed in &seeds {
        let p = prepare(patchgen::case(seed));
        let path = server.put_object(p.current.clone());
        std::fs::write(&manifest, serde_json::to_vec_pretty(&p.case.modified).unwrap()).unwrap();
        let out = kubectl(home.path(), Some(&kubeconfig))
            .args(["apply", "--validate=false", "-f"])
            .arg(&manifest)
            .output()
            .expect("run kubectl");
        let requests = server.requests();
        server.remove_object(&path);
        server.clear_requests();
        let patches: Vec<&Recorded> = requests.iter().filter(|r| r.method == "PATCH" && r.path == path).collect();
        let got_object = requests.iter().any(|r| r.method == "GET" && r.path == path);
        let others: Vec<String> =
            requests.iter().filter(|r| !matches!(r.method.as_str(), "GET" | "PATCH")).map(|r| format!("{} {}", r.method, r.path)).collect();

        let ours = our_patch(&p);
        let ours_text = ours.as_ref().map(to_go_json);
        if let Ok(v) = &ours {
            coverage.add(&p, v);
        }
        let expected_type =
            if p.case.kind.is_builtin() { "application/strategic-merge-patch+json" } else { "application/merge-patch+json" };
        let problem = if !out.status.success() {
            Some(format!("kubectl apply failed:\n{}", output_text(&out)))
        } else if !got_object || !others.is_empty() {
            Some(format!("kubectl did not patch the served object (GET of {path}: {got_object}; other requests: {others:?})"))
        } else if patches.len() > 1 {
            Some(format!("kubectl sent {} PATCH requests", patches.len()))
        } else {
            let kubectl_body = patches.first().map(|r| r.body.as_slice());
            kubectl_patches += usize::from(kubectl_body.is_some());
            let kubectl_view = kubectl_body.map_or_else(
                || "(no PATCH sent: kubectl found nothing to change)".to_owned(),
                |b| String::from_utf8_lossy(b).into_owned(),
            );
            let ct = patches.first().and_then(|r| r.content_type.clone());
            match (&ours_text, kubectl_body) {
                (Err(e), _) => Some(format!("our engine failed: {e}\nkubectl sent: {kubectl_view}")),
                (Ok(t), None) if t == "{}" => None,
                (Ok(t), Some(b)) if t.as_bytes() == b && ct.as_deref() == Some(expected_type) => None,
                (Ok(t), Some(b)) if t.as_bytes() == b => Some(format!("same bytes but Content-Type {ct:?}, expected {expected_type}")),
                (Ok(t), _) => Some(format!("patch bytes differ\nkubectl: {kubectl_view}\nours:    {t}")),
            }
        };
        if let Some(problem) = problem {
            failures.push(format!("{problem}\n{}", describe(&p)));
        }
    }
    let n = seeds.len();
    eprintln!(
        "kubectl apply differential (kubectl {}): {n} cases, {} passed, {} failed; kubectl sent {kubectl_patches} PATCHes; {:.1}s",
        kubectl_version(home.path(), Some(&kubeconfig)),
        n - failures.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("coverage: {}", coverage.summary());
    report(&failures, n);
}

fn report(failures: &[String], n: usize) {
    if failures.is_empty() {
        return;
    }
    for (i, f) in failures.iter().take(4).enumerate() {
        eprintln!("=== mismatch {} of {} ===\n{f}\n", i + 1, failures.len());
    }
    for f in failures.iter().skip(4) {
        eprintln!("=== also: {}", f.lines().find(|l| l.starts_with("seed ")).unwrap_or(""));
    }
    panic!("{} of {n} cases differ from kubectl (details above)", failures.len());
}

// --- 2. kubectl patch --local: semantic properties ---------------------------

/// One step of a schema-aware path: an object key, a merge-list item by its
/// merge key, or a primitive merge-list item by value.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Item { key: String, value: Value },
    Prim(Value),
}

type DocPath = Vec<Seg>;

fn show(path: &DocPath) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Item { key, value } => s.push_str(&format!("[{key}={value}]")),
            Seg::Prim(v) => s.push_str(&format!("[={v}]")),
        }
    }
    s
}

/// Patch metadata for walking documents: struct tags for built-in kinds,
/// nothing (every list atomic) for custom resources.
#[derive(Clone, Copy)]
struct Schema(Option<StructMeta<'static>>);

enum ListKind {
    Atomic,
    ByKey(String),
    Primitive,
}

impl Schema {
    fn field(&self, k: &str) -> (Schema, bool) {
        match self.0.and_then(|m| m.lookup_for_struct(k).ok()) {
            Some((sub, pm)) => (Schema(Some(sub)), pm.retain_keys_and_strategy().is_ok_and(|(r, _)| r)),
            None => (Schema(None), false),
        }
    }

    fn list(&self, k: &str) -> (Schema, ListKind, bool) {
        match self.0.and_then(|m| m.lookup_for_slice(k).ok()) {
            Some((elem, pm)) => {
                let (retain, strategy) = pm.retain_keys_and_strategy().unwrap_or((false, ""));
                let kind = match (strategy, pm.merge_key()) {
                    ("merge", "") => ListKind::Primitive,
                    ("merge", key) => ListKind::ByKey(key.to_owned()),
                    _ => ListKind::Atomic,
                };
                (Schema(Some(elem)), kind, retain)
            }
            None => (Schema(None), ListKind::Atomic, false),
        }
    }
}

/// A leaf of a document, with the path lengths at which its ancestors are
/// `retainKeys` objects.
struct Leaf<'v> {
    path: DocPath,
    value: &'v Value,
    retain_at: Vec<usize>,
    /// A merge list kept whole (empty, or items without the merge key).
    merge_list: bool,
}

fn leaves(doc: &Value, schema: Schema) -> Vec<Leaf<'_>> {
    let mut out = Vec::new();
    walk(doc, schema, &mut Vec::new(), &mut Vec::new(), &mut out);
    out
}

fn walk<'v>(v: &'v Value, schema: Schema, path: &mut DocPath, retain_at: &mut Vec<usize>, out: &mut Vec<Leaf<'v>>) {
    let Value::Object(map) = v else {
        out.push(Leaf { path: path.clone(), value: v, retain_at: retain_at.clone(), merge_list: false });
        return;
    };
    if map.is_empty() {
        out.push(Leaf { path: path.clone(), value: v, retain_at: retain_at.clone(), merge_list: false });
        return;
    }
    for (k, child) in map {
        path.push(Seg::Key(k.clone()));
        match child {
            Value::Array(items) => {
                let (elem, kind, retain) = schema.list(k);
                match kind {
                    ListKind::ByKey(key) if items.iter().all(|i| i.get(&key).is_some()) && !items.is_empty() => {
                        for item in items {
                            path.push(Seg::Item { key: key.clone(), value: item[&key].clone() });
                            if retain {
                                retain_at.push(path.len());
                            }
                            walk(item, elem, path, retain_at, out);
                            if retain {
                                retain_at.pop();
                            }
                            path.pop();
                        }
                    }
                    ListKind::Primitive if items.iter().all(|i| !i.is_object() && !i.is_array()) && !items.is_empty() => {
                        for item in items {
                            path.push(Seg::Prim(item.clone()));
                            out.push(Leaf { path: path.clone(), value: item, retain_at: retain_at.clone(), merge_list: false });
                            path.pop();
                        }
                    }
                    _ => out.push(Leaf { path: path.clone(), value: child, retain_at: retain_at.clone(), merge_list: !matches!(kind, ListKind::Atomic) }),
                }
            }
            Value::Object(_) => {
                let (sub, retain) = schema.field(k);
                if retain {
                    retain_at.push(path.len());
                }
                walk(child, sub, path, retain_at, out);
                if retain {
                    retain_at.pop();
                }
            }
            _ => out.push(Leaf { path: path.clone(), value: child, retain_at: retain_at.clone(), merge_list: false }),
        }
        path.pop();
    }
}

fn get<'v>(doc: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    let mut cur = doc;
    for seg in path {
        cur = match seg {
            Seg::Key(k) => cur.as_object()?.get(k)?,
            Seg::Item { key, value } => cur.as_array()?.iter().find(|i| i.get(key) == Some(value))?,
            Seg::Prim(v) => cur.as_array()?.iter().find(|i| *i == v)?,
        };
    }
    Some(cur)
}

/// The violations of the three properties for result `r` of patching.
fn property_violations(p: &Prepared, r: &Value) -> Vec<String> {
    let schema = Schema(p.case.kind.is_builtin().then(|| struct_meta(p.case.kind)));
    let (o, m, c) = (&p.original, &p.modified, &p.current);
    let mut bad = Vec::new();
    // (a) every field of modified, with modified's value; a null in
    // modified deletes (or stays null); an empty object is there (live fields may fill it);
    // a merge list kept whole (empty) is a list or absent, holding the items
    // only the live object has.
    for leaf in leaves(m, schema) {
        let ok = match get(r, &leaf.path) {
            None => leaf.value.is_null() || leaf.merge_list,
            // (Go keeps a null inside a merge-list item the patch adds whole.)
            Some(rv) if leaf.value.is_null() => rv.is_null(),
            Some(rv) if leaf.merge_list => rv.is_array(),
            Some(rv) if leaf.value.as_object().is_some_and(Map::is_empty) => rv.is_object(),
            // A JSON merge patch carries numbers as float64 (evanphx), so
            // an integer above 2^53 arrives rounded, in kubectl as in ours.
            Some(rv) if !p.case.kind.is_builtin() => to_float64_value(rv) == to_float64_value(leaf.value),
            Some(rv) => rv == leaf.value,
        };
        if !ok {
            bad.push(format!("modified field {} = {} is {:?} in the result", show(&leaf.path), leaf.value, get(r, &leaf.path)));
        }
    }
    // (b) nothing dropped from original to modified.
    for leaf in leaves(o, schema) {
        if get(m, &leaf.path).is_none()
            && let Some(rv) = get(r, &leaf.path)
        {
            bad.push(format!("field {} was dropped from the manifest but the result still has {rv}", show(&leaf.path)));
        }
    }
    // (c) the fields only the live object has stay, unless the edit touched
    // them: an ancestor dropped from the manifest or null in it, or a
    // retainKeys object of modified that lacks the key.
    for leaf in leaves(c, schema) {
        if get(o, &leaf.path).is_some() || get(m, &leaf.path).is_some() {
            continue;
        }
        let dropped_ancestor = (1..leaf.path.len()).any(|n| {
            (get(o, &leaf.path[..n]).is_some() && get(m, &leaf.path[..n]).is_none())
                || get(m, &leaf.path[..n]).is_some_and(|v| !v.is_object() && !v.is_array())
        });
        let retained_away = leaf.retain_at.iter().any(|&n| match (get(m, &leaf.path[..n]), &leaf.path.get(n)) {
            (Some(Value::Object(mm)), Some(Seg::Key(k))) => !mm.contains_key(k),
            _ => false,
        });
        if dropped_ancestor || retained_away {
            continue;
        }
        if get(r, &leaf.path) != Some(leaf.value) {
            bad.push(format!("live-only field {} = {} is {:?} in the result", show(&leaf.path), leaf.value, get(r, &leaf.path)));
        }
    }
    bad
}

enum LocalPatchError {
    /// kubectl ran and refused the patch: its stderr.
    Refused(String),
    Other(String),
}

fn run_local_patch(home: &Path, p: &Prepared, patch_text: &str) -> Result<Value, LocalPatchError> {
    let current = home.join("current.json");
    let patch = home.join("patch.json");
    std::fs::write(&current, serde_json::to_vec_pretty(&p.current).unwrap()).unwrap();
    std::fs::write(&patch, patch_text).unwrap();
    let ty = if p.case.kind.is_builtin() { "strategic" } else { "merge" };
    let out = kubectl(home, None)
        .args(["patch", "--local", "-o", "json", "--type", ty, "-f"])
        .arg(&current)
        .arg("--patch-file")
        .arg(&patch)
        .output()
        .expect("run kubectl");
    if out.status.code() == Some(1) && out.stdout.is_empty() {
        return Err(LocalPatchError::Refused(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    if !out.status.success() {
        return Err(LocalPatchError::Other(format!("kubectl patch --local failed:\n{}", output_text(&out))));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| LocalPatchError::Other(format!("kubectl output is not JSON: {e}\n{}", output_text(&out))))
}

#[test]
fn local_patch_result_keeps_modified_and_live_fields() {
    if skip_without_kubectl("local_patch_result_keeps_modified_and_live_fields") {
        return;
    }
    let home = tempfile::tempdir().expect("tempdir");
    let started = std::time::Instant::now();
    let seeds = seeds();
    let mut failures = Vec::new();
    let mut property_checked = 0usize;
    let mut both_refused = 0usize;
    for &seed in &seeds {
        let mut p = prepare(patchgen::case(seed));
        // kubectl's printer hides managedFields; the patch never touches them.
        if let Some(m) = p.current["metadata"].as_object_mut() {
            m.remove("managedFields");
        }
        let patch = match our_patch(&p) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("our engine failed: {e}\n{}", describe(&p)));
                continue;
            }
        };
        let patch_text = to_go_json(&patch);
        let result = match run_local_patch(home.path(), &p, &patch_text) {
            Ok(v) => v,
            Err(LocalPatchError::Refused(stderr)) => {
                // kubectl refuses some patches (two items under one merge
                // key: "The order in patch list ... doesn't match
                // $setElementOrder list"); our apply must refuse it alike.
                match our_apply(&p, &patch) {
                    Err(e) if stderr.trim_end() == format!("error: {e}").trim_end() => both_refused += 1,
                    Err(e) => failures.push(format!(
                        "kubectl and our apply both refuse the patch, with different messages\nkubectl: {stderr}\nours:    error: {e}\npatch: {patch_text}\n{}",
                        describe(&p)
                    )),
                    Ok(ours) => failures.push(format!(
                        "kubectl patch --local refused our patch, our apply accepts it\nkubectl: {stderr}\nours: {}\npatch: {patch_text}\n{}",
                        to_go_json(&ours),
                        describe(&p)
                    )),
                }
                continue;
            }
            Err(LocalPatchError::Other(e)) => {
                failures.push(format!("{e}\npatch: {patch_text}\n{}", describe(&p)));
                continue;
            }
        };
        let mut problems = Vec::new();
        match our_apply(&p, &patch) {
            Ok(ours) if ours == result => {}
            Ok(ours) => problems.push(format!(
                "our apply differs from kubectl's\nkubectl: {}\nours:    {}",
                to_go_json(&result),
                to_go_json(&ours)
            )),
            Err(e) => problems.push(format!("our apply failed: {e}")),
        }
        // With two items under one merge key, "matched by key" is not what
        // the strategic merge patch does; only the comparison above applies.
        if !p.case.duplicate_merge_keys {
            property_checked += 1;
            problems.extend(property_violations(&p, &result));
        }
        if !problems.is_empty() {
            failures.push(format!("{}\npatch: {patch_text}\n{}", problems.join("\n"), describe(&p)));
        }
    }
    let n = seeds.len();
    eprintln!(
        "kubectl patch --local properties (kubectl {}): {n} cases ({property_checked} with the field properties, {both_refused} refused alike by kubectl and our apply), {} passed, {} failed; {:.1}s",
        kubectl_version(home.path(), None),
        n - failures.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    report(&failures, n);
}

// --- generator sanity (no kubectl needed) ------------------------------------

#[test]
fn generator_is_deterministic_and_varied() {
    let a = patchgen::case(42);
    let b = patchgen::case(42);
    assert_eq!((a.original.clone(), a.modified.clone(), a.current.clone()), (b.original, b.modified, b.current));
    let cases: Vec<Case> = (0..200).map(|s| patchgen::case(DEFAULT_SEED + s)).collect();
    for kind in Kind::ALL {
        assert!(cases.iter().filter(|c| c.kind == kind).count() >= 10, "too few {kind:?}");
    }
    let changed = cases.iter().filter(|c| c.original != c.modified).count();
    assert!(changed > 150 && changed < 200, "{changed} of 200 cases edit the manifest");
    for c in &cases {
        if c.kind.is_builtin() {
            let meta = struct_meta(c.kind);
            for doc in [&c.original, &c.modified, &c.current] {
                // Merging a document into itself looks up every field.
                strategic::apply(doc, doc, &meta).unwrap_or_else(|e| panic!("seed {}: {e}\n{}", c.seed, pretty(doc)));
            }
        }
    }
}

// --- the benchmark, runnable as a test ---------------------------------------

/// `cargo test --release --test patch_engine -- --ignored --nocapture bench`
#[test]
#[ignore = "benchmark: run with --release"]
fn bench_three_way_500_deployments() {
    assert!(patchgen::bench::run(), "benchmark target missed");
}
