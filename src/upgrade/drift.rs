//! Drift: fields the previous release's manifest set whose live value is
//! different now (edited by hand, by a controller, by an admission
//! webhook), and what the upgrade does to each.

use serde_json::Value;

use crate::keypath::Path;
// Numbers compare by value (the API server may return `1` for `1.0`).
use crate::values::same_as_float64 as same;

#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    pub path: Path,
    /// What the previous release's manifest set.
    pub baseline: Value,
    /// What the cluster holds (`None`: the field is gone).
    pub live: Option<Value>,
    pub outcome: DriftOutcome,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DriftOutcome {
    /// The upgrade sets the field to the chart's value again.
    Reset(Value),
    /// The chart no longer sets it and the upgrade removes it.
    Removed,
    /// The live value stays (the patch does not touch the field).
    Kept,
}

impl DriftOutcome {
    pub fn word(&self) -> &'static str {
        match self {
            DriftOutcome::Reset(_) => "reset",
            DriftOutcome::Removed => "removed",
            DriftOutcome::Kept => "kept",
        }
    }
}


/// Whether every field of `body` holds the same value in `live` (lists:
/// same length, element by element). Fields only the server set are ignored.
pub fn body_matches_live(body: &Value, live: &Value) -> bool {
    match (body, live) {
        (Value::Object(b), Value::Object(l)) => b.iter().all(|(k, v)| l.get(k).is_some_and(|w| body_matches_live(v, w))),
        (Value::Array(b), Value::Array(l)) => b.len() == l.len() && b.iter().zip(l).all(|(v, w)| body_matches_live(v, w)),
        _ => same(body, live),
    }
}

/// `live` with `body` laid over it (maps merged, lists element by element
/// when their lengths agree, else replaced): the object after a server-side
/// apply, as far as it can be predicted without the server's field sets.
pub fn overlay(live: &Value, body: &Value) -> Value {
    match (live, body) {
        (Value::Object(l), Value::Object(b)) => {
            let mut out = l.clone();
            for (k, v) in b {
                let merged = match l.get(k) {
                    Some(w) => overlay(w, v),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(l), Value::Array(b)) if l.len() == b.len() => Value::Array(l.iter().zip(b).map(|(w, v)| overlay(w, v)).collect()),
        _ => body.clone(),
    }
}

/// The element of `list` that corresponds to `item`: same `name` when items
/// are named (containers, ports, env), else the same index.
fn counterpart<'a>(list: &'a [Value], item: &Value, index: usize) -> Option<&'a Value> {
    match item.get("name").and_then(Value::as_str) {
        Some(name) => list.iter().find(|x| x.get("name").and_then(Value::as_str) == Some(name)),
        None => list.get(index),
    }
}

/// Walks the fields of `original`, comparing with `live`; for each
/// difference decides what the upgrade does, given the new object.
/// `two_way_merge`: custom resources (Helm's patch ignores live, so a field
/// the chart did not change keeps its live value).
pub fn drift(original: &Value, live: &Value, modified: &Value, two_way_merge: bool) -> Vec<Drift> {
    let mut out = Vec::new();
    walk(original, Some(live), Some(modified), &Path::root(), two_way_merge, &mut out);
    out
}

fn walk(orig: &Value, live: Option<&Value>, modified: Option<&Value>, at: &Path, two_way: bool, out: &mut Vec<Drift>) {
    match orig {
        Value::Object(m) => {
            for (k, v) in m {
                // Status and server bookkeeping are not the chart's to set.
                if at.is_root() && k == "status" {
                    continue;
                }
                let l = live.and_then(|x| x.get(k));
                let n = modified.and_then(|x| x.get(k));
                walk(v, l, n, &at.key(k), two_way, out);
            }
        }
        Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
            let live_items = live.and_then(Value::as_array);
            let new_items = modified.and_then(Value::as_array);
            for (i, item) in items.iter().enumerate() {
                let l = live_items.and_then(|l| counterpart(l, item, i));
                let n = new_items.and_then(|l| counterpart(l, item, i));
                if l.is_none() {
                    push(out, at.index(i), item.clone(), None, n, two_way, item);
                    continue;
                }
                walk(item, l, n, &at.index(i), two_way, out);
            }
        }
        _ => {
            if live.is_some_and(|l| same(orig, l)) {
                return;
            }
            push(out, at.clone(), orig.clone(), live.cloned(), modified, two_way, orig);
        }
    }
}

fn push(out: &mut Vec<Drift>, path: Path, baseline: Value, live: Option<Value>, modified: Option<&Value>, two_way: bool, orig: &Value) {
    let outcome = match modified {
        // A two-way patch only carries what changed between the manifests.
        Some(n) if two_way && same(n, orig) => DriftOutcome::Kept,
        Some(n) => DriftOutcome::Reset(n.clone()),
        None => DriftOutcome::Removed,
    };
    out.push(Drift { path, baseline, live, outcome });
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn deploy(replicas: i64, image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
               "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "app", "image": image}]}}}})
    }

    #[test]
    fn a_scaled_deployment_drifts_and_the_upgrade_resets_it() {
        let mut live = deploy(5, "app:1");
        live["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = json!("IfNotPresent");
        live["status"] = json!({"replicas": 5});
        let d = drift(&deploy(2, "app:1"), &live, &deploy(2, "app:2"), false);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].path.to_string(), "spec.replicas");
        assert_eq!(d[0].outcome, DriftOutcome::Reset(json!(2)));
    }

    #[test]
    fn drift_on_a_custom_resource_survives_when_the_chart_did_not_change_the_field() {
        let cr = |v: &str| json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "a"}, "spec": {"size": v, "other": "o"}});
        let d = drift(&cr("s"), &cr("edited"), &cr("s"), true);
        assert_eq!(d[0].outcome, DriftOutcome::Kept);
        let d = drift(&cr("s"), &cr("edited"), &cr("m"), true);
        assert_eq!(d[0].outcome, DriftOutcome::Reset(json!("m")));
    }

    #[test]
    fn named_list_items_are_matched_by_name() {
        let mut live = deploy(2, "app:1");
        live["spec"]["template"]["spec"]["containers"] = json!([{"name": "istio-proxy", "image": "p"}, {"name": "app", "image": "hotfix"}]);
        let d = drift(&deploy(2, "app:1"), &live, &deploy(2, "app:1"), false);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].live, Some(json!("hotfix")));
        assert_eq!(d[0].outcome, DriftOutcome::Reset(json!("app:1")));
    }

    #[test]
    fn apply_bodies_match_live_objects_with_server_defaults() {
        let mut live = deploy(2, "app:1");
        live["spec"]["template"]["spec"]["containers"][0]["terminationMessagePath"] = json!("/dev/termination-log");
        assert!(body_matches_live(&deploy(2, "app:1"), &live));
        assert!(!body_matches_live(&deploy(3, "app:1"), &live));
    }
}
