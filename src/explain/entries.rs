//! From a merged provenance tree and the recorded events to `explain`'s
//! entries: one per leaf (scalars, surviving nulls, empty maps, lists), with
//! the winning source and what it overrode; plus the keys that were deleted
//! by a null or skipped for a type mismatch.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::keypath::{Path, Seg};
use crate::FastHash;
use crate::values::tree::{Event, EventKind, Kind, Origin, Recorder, V, VMap};

#[derive(Debug, Clone)]
pub struct Lost {
    pub value: Value,
    pub event: EventKind,
    pub source: Origin,
    /// What removed or replaced it (the null's source for a deletion).
    pub by: Option<Origin>,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub path: Path,
    /// `None` when the key is gone (deleted by a null, or never set because skipped).
    pub value: Option<Value>,
    pub source: Option<Origin>,
    pub overridden: Vec<Lost>,
    /// Remarks on this key for the reader (werf: where werf's documented order differs).
    pub notes: Vec<String>,
}

/// Orders paths as Helm prints keys: byte order of keys, list indexes by number.
pub fn path_order(a: &[Seg], b: &[Seg]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Seg::Key(p), Seg::Key(q)) => p.as_bytes().cmp(q.as_bytes()),
            (Seg::Index(p), Seg::Index(q)) => p.cmp(q),
            (Seg::Key(_), Seg::Index(_)) => std::cmp::Ordering::Greater,
            (Seg::Index(_), Seg::Key(_)) => std::cmp::Ordering::Less,
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// One entry per leaf of `m`, in [`path_order`] (keys visited in byte order);
/// `at` is the path of `m` (restored on return). `elements`: non-empty lists
/// are not leaves, their elements are.
/// A path on the way down, borrowed from the tree; owned only at a leaf.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn leaves<'a>(m: &'a VMap, at: &mut Vec<Step<'a>>, out: &mut Vec<Entry>, elements: bool) {
    let mut keys: Vec<(&String, &V)> = m.iter().collect();
    keys.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (k, v) in keys {
        at.push(Step::Key(k));
        leaf(v, at, out, elements);
        at.pop();
    }
}

fn leaf<'a>(v: &'a V, at: &mut Vec<Step<'a>>, out: &mut Vec<Entry>, elements: bool) {
    match &v.kind {
        Kind::Map(sub) if !sub.is_empty() => leaves(sub, at, out, elements),
        Kind::List(l) if elements && !l.is_empty() => {
            for (i, x) in l.iter().enumerate() {
                at.push(Step::Index(i));
                leaf(x, at, out, elements);
                at.pop();
            }
        }
        _ => {
            let path = Path(at.iter().map(|s| match s {
                Step::Key(k) => Seg::Key((*k).to_string()),
                Step::Index(i) => Seg::Index(*i),
            }).collect());
            out.push(Entry { path, value: Some(v.to_json()), source: Some(v.origin.clone()), overridden: Vec::new(), notes: Vec::new() })
        }
    }
}

/// The entries for `values` (the final tree) given what the engines recorded.
pub fn entries(values: &VMap, rec: &Recorder) -> Vec<Entry> {
    entries_with(values, rec, false)
}

/// [`entries`], with one entry per list element when `elements` (helmfile
/// merges lists element by element, so elements have sources of their own).
pub fn entries_with(values: &VMap, rec: &Recorder, elements: bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    leaves(values, &mut Vec::new(), &mut out, elements);
    // The leaves come sorted and are found by binary search (paths are
    // unique); entries that events add for keys without a leaf go to a map
    // of their own.
    debug_assert!(out.is_sorted_by(|a, b| path_order(&a.path.0, &b.path.0).is_lt()));
    let leaf_count = out.len();
    let mut added: HashMap<Path, usize, FastHash> = HashMap::default();
    for Event { path, value, event, by } in &rec.events {
        // A lost value belongs to the leaf at its path, or to the leaf above
        // it when a whole list or scalar replaced a deeper map.
        let owner = (1..=path.0.len()).rev().find_map(|n| {
            let prefix = &path.0[..n];
            out[..leaf_count]
                .binary_search_by(|e| path_order(&e.path.0, prefix))
                .ok()
                .or_else(|| added.get(prefix).copied())
        });
        let at = match owner {
            Some(i) => i,
            // A deleted key that is a map again (a lower-priority source gave
            // keys below it later, as --reuse-values does): the loss belongs
            // to each leaf below, not to a "deleted" entry.
            None if *event == EventKind::DeletedByNull && out[..leaf_count].iter().any(|e| e.path.0.len() > path.0.len() && e.path.starts_with(path)) => {
                let lost = Lost { value: value.to_json(), event: *event, source: value.origin.clone(), by: by.clone() };
                for e in out[..leaf_count].iter_mut().filter(|e| e.path.starts_with(path)) {
                    e.overridden.push(lost.clone());
                }
                continue;
            }
            None => {
                added.insert(path.clone(), out.len());
                out.push(Entry { path: path.clone(), value: None, source: None, overridden: Vec::new(), notes: Vec::new() });
                out.len() - 1
            }
        };
        let lost = Lost { value: value.to_json(), event: *event, source: value.origin.clone(), by: by.clone() };
        // Helm coalesces a subchart's defaults at two levels; one loss is one event.
        let entry = &mut out[at];
        if !entry.overridden.iter().any(|l| l.event == lost.event && l.source == lost.source && l.value == lost.value) {
            entry.overridden.push(lost);
        }
    }
    // One order for every chain, lowest priority first: what coalescing
    // replaced (chart defaults, parent values, imports, globals) comes before
    // what a later user layer replaced, whatever order the engines ran in.
    for e in out.iter_mut().filter(|e| e.overridden.len() > 1) {
        e.overridden.sort_by_key(|l| l.source.is_user_given());
    }
    if out.len() > leaf_count {
        out.sort_by(|a, b| path_order(&a.path.0, &b.path.0));
    }
    out
}

/// The `--key` paths that select no entry, each with the closest existing
/// keys (entries and the maps above them, by edit distance), so that a
/// mistyped key is an error that says what was meant.
pub fn unmatched_keys(entries: &[Entry], wanted: &[Path]) -> Vec<(Path, Vec<String>)> {
    let mut out = Vec::new();
    for w in wanted {
        if entries.iter().any(|e| e.path.starts_with(w)) {
            continue;
        }
        let mut candidates: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for e in entries {
            for n in 1..=e.path.0.len() {
                let p = Path(e.path.0[..n].to_vec()).to_string();
                if seen.insert(p.clone()) {
                    candidates.push(p);
                }
            }
        }
        let target = w.to_string();
        let mut scored: Vec<(usize, String)> = candidates.into_iter().map(|c| (edit_distance(&target, &c), c)).collect();
        scored.sort();
        let limit = (target.chars().count() / 4).max(2);
        let close: Vec<String> = scored.into_iter().take_while(|(d, _)| *d <= limit).take(3).map(|(_, c)| c).collect();
        out.push((w.clone(), close));
    }
    out
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb { prev } else { 1 + prev.min(row[j]).min(cur) };
            prev = cur;
        }
    }
    row[b.len()]
}

/// [`unmatched_keys`] as one message, or `None` when every key matches.
pub fn unmatched_keys_message(entries: &[Entry], wanted: &[Path]) -> Option<String> {
    let parts: Vec<String> = unmatched_keys(entries, wanted)
        .into_iter()
        .map(|(k, close)| match close.as_slice() {
            [] => format!("no key {k} in the values"),
            c => format!("no key {k} in the values (closest: {})", c.join(", ")),
        })
        .collect();
    (!parts.is_empty()).then(|| format!("{} (try without --key to see every key)", parts.join("; ")))
}

pub fn event_word(e: EventKind) -> &'static str {
    match e {
        EventKind::Overridden => "overridden",
        EventKind::DeletedByNull => "deleted-by-null",
        EventKind::SkippedTypeMismatch => "skipped-type-mismatch",
    }
}

/// The documented JSON form: `{"values", "entries", "warnings"}`.
pub fn contract_json<'a>(values: &VMap, entries: impl IntoIterator<Item = &'a Entry>, warnings: &[String]) -> Value {
    let plain = Value::Object(crate::values::tree::map_to_json(values));
    let entries: Vec<Value> = entries
        .into_iter()
        .map(|e| {
            let mut o = serde_json::Map::new();
            o.insert("path".into(), Value::String(e.path.to_string()));
            match (&e.value, &e.source) {
                (Some(v), Some(s)) => {
                    o.insert("value".into(), v.clone());
                    o.insert("source".into(), s.to_json());
                }
                _ => {
                    // No value left: a null deleted it, or Helm skipped it for its type.
                    let deleted = e.overridden.iter().any(|l| l.event == EventKind::DeletedByNull);
                    o.insert(if deleted { "deleted" } else { "skipped" }.into(), Value::Bool(true));
                }
            }
            o.insert(
                "overridden".into(),
                Value::Array(
                    e.overridden
                        .iter()
                        .map(|l| {
                            let mut o = json!({"value": l.value, "event": event_word(l.event), "source": l.source.to_json()});
                            // A deletion has no winning value: say which null did it.
                            if let (EventKind::DeletedByNull, Some(by)) = (l.event, &l.by) {
                                o["by"] = by.to_json();
                            }
                            o
                        })
                        .collect(),
                ),
            );
            if !e.notes.is_empty() {
                o.insert("notes".into(), json!(e.notes));
            }
            Value::Object(o)
        })
        .collect();
    json!({"values": crate::values::sorted(&plain), "entries": entries, "warnings": warnings})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::Source;

    #[test]
    fn a_key_that_matches_nothing_names_the_closest_keys() {
        let entry = |p: &str| Entry { path: Path::parse(p).unwrap(), value: None, source: None, overridden: Vec::new(), notes: Vec::new() };
        let entries = [entry("grafana.enabled"), entry("grafana.ingress.enabled"), entry("image.tag")];
        let wanted = [Path::parse("grafana.enabeld").unwrap(), Path::parse("image").unwrap(), Path::parse("zzz.qqq").unwrap()];
        let missing = unmatched_keys(&entries, &wanted);
        assert_eq!(missing.len(), 2, "image matches image.tag");
        assert_eq!(missing[0].1, ["grafana.enabled"]);
        assert!(missing[1].1.is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
    use crate::values::coalesce::{ChartValues, coalesce_values};
    use crate::values::tree::{Origin, map_from_json};

    #[test]
    fn every_leaf_has_its_source_and_what_it_overrode() {
        let chart_origin = Origin::new(Source::ChartDefault { chart: "c".into(), file: "values.yaml".into(), line: Some(1), column: Some(7) });
        let chart = ChartValues {
            name: "c".into(),
            loaded_at: vec![],
            values: map_from_json(json!({"image": {"tag": "1.0", "repo": "r"}, "gone": 1}).as_object().unwrap(), true, &chart_origin),
            dependencies: vec![],
        };
        let set = Origin::new(Source::SetFlag { flag: "--set".into(), index: 0, expr: "image.tag=2.0".into() });
        let user = map_from_json(json!({"image": {"tag": "2.0"}, "gone": null}).as_object().unwrap(), false, &set);
        let mut rec = Recorder::default();
        let out = coalesce_values(&chart, user, &mut rec).unwrap();
        let doc = contract_json(&out, &entries(&out, &rec), &rec.warnings);
        assert_eq!(doc["values"], json!({"image": {"repo": "r", "tag": "2.0"}}));
        let e = &doc["entries"];
        assert_eq!(e[0]["path"], "gone");
        assert_eq!(e[0]["deleted"], true);
        assert_eq!(e[0]["overridden"][0]["event"], "deleted-by-null");
        assert_eq!(e[2]["path"], "image.tag");
        assert_eq!(e[2]["source"], json!({"kind": "set", "flag": "--set", "index": 0, "expr": "image.tag=2.0"}));
        assert_eq!(e[2]["overridden"][0]["source"]["kind"], "chart-default");
        assert_eq!(e[2]["overridden"][0]["value"], json!("1.0"));
    }
}
