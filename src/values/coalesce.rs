//! Helm's coalescing of chart defaults under user values, with subcharts and
//! globals, on the provenance tree: Helm's decisions only depend on values,
//! so origins travel with them, and every value Helm discards is recorded.
//! Helm v4.2.3 rules (research: helm-values-storage.md §4).
//! helm: pkg/chart/common/util/coalesce.go


use std::borrow::Cow;

use crate::keypath::Path;
use super::tree::{EventKind, Kind, Origin, Recorder, Source, V, VMap, get, get_mut};

/// A chart as coalescing sees it: its name (the alias after dependency
/// processing), its default values, and its enabled subcharts.
#[derive(Debug, Clone)]
pub struct ChartValues {
    pub name: String,
    /// Where the chart sits in the loaded chart tree (indexes into each
    /// level's subcharts), so callers can find its files again.
    pub loaded_at: Vec<usize>,
    pub values: VMap,
    pub dependencies: Vec<ChartValues>,
}

/// What coalescing reads of a chart: its name, its defaults, its subcharts.
/// Dependency processing coalesces its own chart tree through this, without
/// copying it into [`ChartValues`] first.
pub trait ChartTree: Sized {
    fn name(&self) -> &str;
    fn values(&self) -> &VMap;
    fn subcharts(&self) -> &[Self];
    /// werf (nelm's `makeValues`): values laid over the user's values each
    /// time this chart is coalesced or merged from its top (its auxiliary
    /// and decrypted secret values); `None` for Helm.
    fn overlay(&self) -> Option<&VMap> {
        None
    }
}

impl ChartTree for ChartValues {
    fn name(&self) -> &str {
        &self.name
    }
    fn values(&self) -> &VMap {
        &self.values
    }
    fn subcharts(&self) -> &[Self] {
        &self.dependencies
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoalesceError {
    /// helm: coalesceDeps, `type mismatch on %s: %t`; `value` is Go's `%t`
    /// of the value in the way (`true`, `%!t(string=x)`, `[%!t(string=a)]`).
    #[error("type mismatch on {name}: {value}")]
    TypeMismatch { name: String, value: String },
}

/// `CoalesceValues(chart, user)`: what templates see as `.Values`.
pub fn coalesce_values(chart: &impl ChartTree, user: VMap, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    run(At::Borrowed(chart), user, false, rec)
}

/// [`coalesce_values`] of a chart the caller is done with: its defaults are
/// moved into the result instead of copied (and the chart is not freed
/// after), the same values and the same record.
pub fn coalesce_values_owned(chart: ChartValues, user: VMap, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    run::<ChartValues>(At::Owned(chart), user, false, rec)
}

/// `MergeValues(chart, user)`: like coalescing but nulls are kept.
pub fn merge_values(chart: &impl ChartTree, user: VMap, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    run(At::Borrowed(chart), user, true, rec)
}

/// [`merge_values`] of `chart` with its own defaults given apart, moved
/// (the caller took them out of the chart to replace them with the result);
/// its subcharts' defaults are copied as usual.
pub fn merge_values_taking(defaults: VMap, chart: &impl ChartTree, user: VMap, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    run(At::Top { defaults, chart }, user, true, rec)
}

/// A chart while it is coalesced: borrowed (its defaults are copied where
/// they go into the result) or owned (they are moved; each chart's defaults
/// are read once per run), or its own defaults owned and its subcharts borrowed.
enum At<'a, C> {
    Borrowed(&'a C),
    Owned(ChartValues),
    Top { defaults: VMap, chart: &'a C },
}

/// A chart's defaults, borrowed or owned as its [`At`].
enum Defaults<'a> {
    Borrowed(&'a VMap),
    Owned(VMap),
}

impl<'a, C: ChartTree> At<'a, C> {
    fn name(&self) -> &str {
        match self {
            At::Borrowed(c) | At::Top { chart: c, .. } => c.name(),
            At::Owned(c) => &c.name,
        }
    }

    fn subchart_names(&self) -> Vec<&str> {
        match self {
            At::Borrowed(c) | At::Top { chart: c, .. } => c.subcharts().iter().map(|d| d.name()).collect(),
            At::Owned(c) => c.dependencies.iter().map(|d| d.name.as_str()).collect(),
        }
    }

    /// The defaults and the subcharts.
    fn split(self) -> (Defaults<'a>, Vec<At<'a, C>>) {
        match self {
            At::Borrowed(c) => (Defaults::Borrowed(c.values()), c.subcharts().iter().map(At::Borrowed).collect()),
            At::Owned(c) => (Defaults::Owned(c.values), c.dependencies.into_iter().map(At::Owned).collect()),
            At::Top { defaults, chart } => (Defaults::Owned(defaults), chart.subcharts().iter().map(At::Borrowed).collect()),
        }
    }
}

fn run<C: ChartTree>(chart: At<'_, C>, user: VMap, merge: bool, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    let overlay = match &chart {
        At::Borrowed(c) | At::Top { chart: c, .. } => c.overlay(),
        At::Owned(_) => None,
    };
    let mut dest = match overlay {
        // nelm's MergeInternal: the overlay's values keep theirs, the user's fill in.
        Some(overlay) => {
            let mut dest = overlay.clone();
            coalesce_tables(&mut dest, user, "", &Path::root(), false, rec);
            dest
        }
        None => user,
    };
    let mut shared = Vec::new();
    coalesce(chart, &mut dest, "", &Path::root(), merge, rec, &mut shared)?;
    unify_shared_globals(&mut dest, &shared);
    Ok(dest)
}

/// Every map Go shares between a parent's and a subchart's `global` is one
/// object: at the end all its places hold its final state, which the
/// top-most place has (each subchart's changes are written back upwards as
/// it finishes). `edges` are (parent place, subchart place) pairs.
fn unify_shared_globals(dest: &mut VMap, edges: &[(Path, Path)]) {
    let parent_of = |p: &Path| edges.iter().find(|(_, child)| child == p).map(|(parent, _)| parent.clone());
    for (_, member) in edges {
        let mut root = member.clone();
        while let Some(up) = parent_of(&root) {
            root = up;
        }
        let Some(final_state) = get(dest, &root).filter(|v| v.is_map()).cloned() else { continue };
        if let Some(slot) = get_mut(dest, member).filter(|v| v.is_map()) {
            *slot = final_state;
        }
    }
}


fn concat(a: &str, b: &str) -> String {
    if a.is_empty() { b.to_string() } else { format!("{a}.{b}") }
}

type Shared = Vec<(Path, Path)>;

fn coalesce<C: ChartTree>(ch: At<'_, C>, dest: &mut VMap, prefix: &str, path: &Path, merge: bool, rec: &mut Recorder, shared: &mut Shared) -> Result<(), CoalesceError> {
    let name = ch.name().to_string();
    let subchart_names: Vec<String> = ch.subchart_names().into_iter().map(str::to_string).collect();
    let (defaults, subcharts) = ch.split();
    coalesce_chart_values(&name, &subchart_names, defaults, dest, prefix, path, merge, rec);
    coalesce_deps(&name, subcharts, dest, prefix, path, merge, rec, shared)
}

#[allow(clippy::too_many_arguments)]
fn coalesce_deps<C: ChartTree>(name: &str, subcharts: Vec<At<'_, C>>, dest: &mut VMap, prefix: &str, path: &Path, merge: bool, rec: &mut Recorder, shared: &mut Shared) -> Result<(), CoalesceError> {
    for sub in subcharts {
        let sub_name = sub.name().to_string();
        let (mut dv, origin) = match dest.shift_remove(&sub_name) {
            None => (VMap::default(), Origin::new(Source::Helm { why: format!("section for subchart {sub_name}") })),
            Some(V { kind: Kind::Map(m), origin }) => (m, origin),
            Some(v) => return Err(type_mismatch(&sub_name, &v)),
        };
        let sub_prefix = concat(prefix, name);
        let pairs = coalesce_globals(&mut dv, dest, &sub_prefix, name, path, rec);
        let sub_path = path.key(&sub_name);
        shared.extend(pairs.iter().map(|(k, c)| (path.key("global").key(k).key(c), sub_path.key("global").key(k).key(c))));
        coalesce(sub, &mut dv, &sub_prefix, &sub_path, merge, rec, shared)?;
        write_back_shared_globals(&pairs, &dv, dest);
        dest.insert(sub_name, V::new(Kind::Map(dv), origin));
    }
    Ok(())
}

fn type_mismatch(name: &str, v: &V) -> CoalesceError {
    CoalesceError::TypeMismatch { name: name.to_string(), value: crate::go::fmt::go_t(v) }
}

/// Go quirk: `coalesceGlobals` copies each map of the parent's `global`
/// shallowly, so the maps one level further down are the same Go objects in
/// the parent and in the subchart. Whatever the subchart's processing adds
/// to or removes from them (its own `global` values, its chart defaults)
/// shows in the parent's `global` too, and in every later sibling.
/// (Checked with Helm v4.2.3: `global.nested.deep` gains a subchart's keys.)
fn write_back_shared_globals(shared: &[(String, String)], sub: &VMap, parent: &mut VMap) {
    let Some(sub_global) = sub.get("global").and_then(V::as_map) else { return };
    let Some(parent_global) = parent.get_mut("global").and_then(V::as_map_mut) else { return };
    for (key, child) in shared {
        let Some(after) = sub_global.get(key).and_then(V::as_map).and_then(|m| m.get(child)).filter(|v| v.is_map()) else { continue };
        if let Some(slot) = parent_global.get_mut(key).and_then(V::as_map_mut).and_then(|m| m.get_mut(child)) {
            *slot = after.clone();
        }
    }
}

/// Copies the parent's `global` down into a subchart's section. Returns the
/// (key, child) pairs whose maps Go shares between the two (see
/// [`write_back_shared_globals`]).
fn coalesce_globals(dest: &mut VMap, parent: &VMap, prefix: &str, parent_name: &str, path: &Path, rec: &mut Recorder) -> Vec<(String, String)> {
    let mut shared = Vec::new();
    // Helm writes `global` back only after reading both sides as tables; a
    // null or scalar parent global leaves a subchart without one.
    let existed = dest.contains_key("global");
    let mut dg = match dest.shift_remove("global") {
        None => V::new(Kind::Map(VMap::default()), Origin::new(Source::Global { from_chart: parent_name.to_string() })),
        Some(v) if v.is_map() => v,
        Some(v) => {
            rec.warn("warning: skipping globals because destination global is not a table.".into());
            dest.insert("global".into(), v);
            return shared;
        }
    };
    let sg = match parent.get("global") {
        None => None,
        Some(v) if v.is_map() => v.as_map(),
        Some(_) => {
            rec.warn("warning: skipping globals because source global is not a table.".into());
            if existed {
                dest.insert("global".into(), dg);
            }
            return shared;
        }
    };
    let gpath = path.key("global");
    if let (Some(sg), Some(dgm)) = (sg, dg.as_map_mut()) {
        for (key, val) in sg {
            match (&val.kind, dgm.get_mut(key)) {
                (Kind::Map(pv), None) => {
                    shared.extend(pv.iter().filter(|(_, c)| c.is_map()).map(|(c, _)| (key.clone(), c.clone())));
                    dgm.insert(key.clone(), V::new(Kind::Map(pv.clone()), val.origin.clone()));
                }
                (Kind::Map(_), Some(existing)) if !existing.is_map() => {
                    rec.warn(format!("Conflict: cannot merge map onto non-map for {key:?}. Skipping."));
                }
                (Kind::Map(pv), Some(existing)) => {
                    shared.extend(pv.iter().filter(|(_, c)| c.is_map()).map(|(c, _)| (key.clone(), c.clone())));
                    // The parent's global wins; the subchart's fills gaps (merge keeps nulls).
                    let mut vv = pv.clone();
                    let sub_side = existing.as_map().cloned().unwrap_or_default();
                    coalesce_tables(&mut vv, sub_side, &concat(prefix, key), &gpath.key(key), true, rec);
                    *existing = V::new(Kind::Map(vv), val.origin.clone());
                }
                (_, Some(existing)) if existing.is_map() => {
                    rec.warn(format!("key {key} is table. Skipping"));
                }
                (_, Some(existing)) => {
                    let old = std::mem::replace(existing, val.clone());
                    rec.lost_at(|| gpath.key(key), old, EventKind::Overridden, Some(val.origin.clone()));
                }
                (_, None) => {
                    dgm.insert(key.clone(), val.clone());
                }
            }
        }
    }
    dest.insert("global".into(), dg);
    shared
}

/// `coalesceValues`: this chart's defaults under the values in `v`.
#[allow(clippy::too_many_arguments)]
fn coalesce_chart_values(name: &str, subchart_names: &[String], defaults: Defaults<'_>, v: &mut VMap, prefix: &str, path: &Path, merge: bool, rec: &mut Recorder) {
    let sub_prefix = concat(prefix, name);
    let mut one = |key: Cow<'_, str>, cv: Cow<'_, V>| {
        // Paths and names are made only where a loss or warning needs them.
        let here = || path.key(&key);
        match v.get_mut(key.as_ref()) {
            Some(uv) if uv.is_null() && !merge => {
                // A user null deletes the key, whatever the chart had.
                let by = uv.origin.clone();
                rec.lost(here(), cv.into_owned(), EventKind::DeletedByNull, Some(by.clone()));
                v.shift_remove(key.as_ref());
            }
            Some(uv) if uv.is_map() => match &cv.kind {
                Kind::Map(_) => {
                    let child_merge = merge || subchart_names.iter().any(|d| *d == *key);
                    let Kind::Map(mut src) = cv.into_owned().kind else { unreachable!("a map") };
                    if !child_merge {
                        clean_nils(&mut src);
                    }
                    if let Some(dst) = uv.as_map_mut() {
                        coalesce_tables(dst, src, &concat(&sub_prefix, &key), &here(), child_merge, rec);
                    }
                }
                Kind::Null => {}
                _ => {
                    rec.warn(format!("warning: skipped value for {sub_prefix}.{key}: Not a table."));
                    rec.lost(here(), cv.into_owned(), EventKind::SkippedTypeMismatch, Some(uv.origin.clone()));
                }
            },
            Some(uv) => {
                // A user scalar or list replaces the chart value silently, even a map.
                let by = uv.origin.clone();
                rec.lost_at(here, cv.into_owned(), EventKind::Overridden, Some(by));
            }
            None => {
                if !merge && cv.is_null() {
                    return;
                }
                let mut cv = cv.into_owned();
                if !merge && let Some(m) = cv.as_map_mut() {
                    clean_nils(m);
                }
                v.insert(key.into_owned(), cv);
            }
        }
    };
    match defaults {
        Defaults::Borrowed(m) => m.iter().for_each(|(key, cv)| one(Cow::Borrowed(key), Cow::Borrowed(cv))),
        Defaults::Owned(m) => m.into_iter().for_each(|(key, cv)| one(Cow::Owned(key), Cow::Owned(cv))),
    }
}

/// `coalesceTablesFullKey(dst, src)`: `dst` wins; maps merge recursively.
pub fn coalesce_tables(dst: &mut VMap, mut src: VMap, prefix: &str, path: &Path, merge: bool, rec: &mut Recorder) {
    // dst's nulls over a value src had (the only keys where src's earlier
    // non-nil value matters below; usually none, so nothing is copied).
    let mut null_over_value: Vec<String> = Vec::new();
    // Helm writes dst's nils into src before merging (it mutates src).
    for (k, v) in dst.iter() {
        if v.is_null() && src.get(k).is_some_and(|s| !s.is_null()) {
            null_over_value.push(k.clone());
        }
        if v.is_null()
            && let Some(old) = src.insert(k.clone(), v.clone())
            && !old.is_null()
            && !merge
        {
            // Remember the value the null is about to remove.
            rec.lost(path.key(k), old, EventKind::DeletedByNull, Some(v.origin.clone()));
        }
    }
    for (key, sv) in src {
        // Paths and names are made only where a loss or warning needs them.
        let full = || concat(prefix, &key);
        let here = || path.key(&key);
        match dst.get_mut(&key) {
            Some(dv) if dv.is_null() && !merge && null_over_value.contains(&key) => {
                dst.shift_remove(&key);
            }
            None => {
                dst.insert(key, sv);
            }
            Some(dv) => match (&mut dv.kind, &sv.kind) {
                (Kind::Map(dm), Kind::Map(_)) => {
                    // `src` is ours: its table moves down instead of being copied.
                    if let Kind::Map(sm) = sv.kind {
                        coalesce_tables(dm, sm, &full(), &here(), merge, rec);
                    }
                }
                (_, Kind::Map(_)) => {
                    rec.warn(format!("warning: cannot overwrite table with non table for {} ({})", full(), go_v(&sv)));
                    rec.lost(here(), sv, EventKind::SkippedTypeMismatch, Some(dv.origin.clone()));
                }
                (Kind::Map(_), _) if !sv.is_null() => {
                    rec.warn(format!("warning: destination for {} is a table. Ignoring non-table value ({})", full(), go_v(&sv)));
                    rec.lost(here(), sv, EventKind::SkippedTypeMismatch, Some(dv.origin.clone()));
                }
                (Kind::Null, _) => {}
                _ => {
                    if !sv.is_null() {
                        rec.lost_at(here, sv, EventKind::Overridden, Some(dv.origin.clone()));
                    }
                }
            },
        }
    }
}

/// Removes nulls from chart defaults, recursively (v4.2: they must not leak).
fn clean_nils(m: &mut VMap) {
    m.retain(|_, v| !v.is_null());
    for v in m.values_mut() {
        if let Some(sub) = v.as_map_mut() {
            clean_nils(sub);
        }
    }
}

/// Go's `%v` of a value (maps with sorted keys, nil as `<nil>`): the one
/// `%v` in [`crate::go::fmt`], through the tree's [`crate::go::value::GoValue`].
pub use crate::go::fmt::go_v;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::{map_from_json, map_to_json};
    use serde_json::{Map, Value, json};

    /// `CoalesceValues(chart, user)` for a chart without subcharts, plain JSON
    /// in and out (the rules below are stated on plain values).
    fn coalesce_plain(chart_name: &str, chart_values: &Map<String, Value>, user: &Map<String, Value>) -> (Map<String, Value>, Vec<String>) {
        let chart = ChartValues {
            name: chart_name.to_string(),
            loaded_at: Vec::new(),
            values: map_from_json(chart_values, false, &Origin::new(Source::ChartDefault { chart: chart_name.into(), file: "values.yaml".into(), line: None, column: None })),
            dependencies: Vec::new(),
        };
        let user = map_from_json(user, false, &Origin::new(Source::ReleaseConfig { revision: 0 }));
        let mut rec = Recorder::default();
        // Without subcharts coalescing cannot fail.
        let merged = coalesce_values(&chart, user, &mut rec).unwrap_or_default();
        (map_to_json(&merged), rec.warnings)
    }

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    fn co(chart: Value, user: Value) -> (Value, Vec<String>) {
        let (m, w) = coalesce_plain("parent", &map(chart), &map(user));
        (crate::values::sorted(&Value::Object(m)), w)
    }

    // Expected results below were produced by Helm v4.2.3 (the oracle's `values`).
    #[test]
    fn chart_default_nulls_are_dropped_and_user_nulls_delete() {
        let (v, _) = co(json!({"a": null, "t": {"x": null, "y": 1}, "keep": 1}), json!({"t": {"y": 2}, "keep": null}));
        assert_eq!(v, json!({"t": {"y": 2}}));
    }

    #[test]
    fn user_null_for_unknown_key_survives() {
        let (v, _) = co(json!({"a": 1}), json!({"z": null, "t": {"q": null}}));
        assert_eq!(v, json!({"a": 1, "t": {"q": null}, "z": null}));
    }

    #[test]
    fn user_map_over_chart_scalar_warns_with_helms_text() {
        let (v, w) = co(json!({"port": 80}), json!({"port": {"x": 1}}));
        assert_eq!(v, json!({"port": {"x": 1}}));
        assert_eq!(w, vec!["warning: skipped value for parent.port: Not a table."]);
    }

    #[test]
    fn user_scalar_over_chart_map_is_silent_and_nested_conflicts_warn() {
        let (v, w) = co(json!({"a": {"b": 1}, "t": {"m": {"k": 1}, "s": 2}}), json!({"a": 5, "t": {"m": 3, "s": {"z": 1}}}));
        assert_eq!(v, json!({"a": 5, "t": {"m": 3, "s": {"z": 1}}}));
        assert_eq!(
            w,
            vec![
                "warning: cannot overwrite table with non table for parent.t.m (map[k:1])",
                "warning: destination for parent.t.s is a table. Ignoring non-table value (2)"
            ]
        );
    }

    #[test]
    fn lists_are_replaced_not_merged() {
        let (v, _) = co(json!({"l": [1, 2, 3]}), json!({"l": [9]}));
        assert_eq!(v, json!({"l": [9]}));
    }

    fn chart(name: &str, values: Value, deps: Vec<ChartValues>) -> ChartValues {
        ChartValues {
            name: name.into(),
            loaded_at: Vec::new(),
            values: map_from_json(&map(values), true, &Origin::new(Source::ChartDefault { chart: name.into(), file: "values.yaml".into(), line: None, column: None })),
            dependencies: deps,
        }
    }

    #[test]
    fn subchart_defaults_sit_under_the_parents_section_and_globals_flow_down() {
        let sub = chart("sub", json!({"port": 80, "global": {"region": "sub-default", "tier": "sub"}}), vec![]);
        let parent = chart("parent", json!({"global": {"region": "eu"}, "sub": {"port": 81}}), vec![sub]);
        let mut rec = Recorder::default();
        let out = coalesce_values(&parent, VMap::default(), &mut rec).unwrap();
        let v = crate::values::sorted(&Value::Object(map_to_json(&out)));
        assert_eq!(v, json!({"global": {"region": "eu"}, "sub": {"global": {"region": "eu", "tier": "sub"}, "port": 81.0}}));
        // The subchart's default port lost to the parent's section, and that is recorded.
        let events: Vec<(String, EventKind)> = rec.events.iter().map(|e| (e.path.to_string(), e.event)).collect();
        assert!(events.contains(&("sub.port".to_string(), EventKind::Overridden)), "{events:?}");
    }

    #[test]
    fn a_non_map_subchart_section_is_helms_type_mismatch_error() {
        let sub = chart("sub", json!({}), vec![]);
        let parent = chart("parent", json!({}), vec![sub]);
        let user = map_from_json(&map(json!({"sub": "str"})), false, &Origin::new(Source::Helm { why: "t".into() }));
        let err = coalesce_values(&parent, user, &mut Recorder::default()).unwrap_err();
        assert_eq!(err.to_string(), "type mismatch on sub: %!t(string=str)");
    }
}
