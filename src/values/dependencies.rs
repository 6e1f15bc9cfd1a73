//! Helm's dependency processing before coalescing: aliases, tags,
//! conditions, and import-values, on the provenance tree.
//! helm: pkg/chart/v2/util/dependencies.go ProcessDependencies

use super::coalesce::{ChartTree, ChartValues, CoalesceError, coalesce_tables, coalesce_values, merge_values_taking};
use crate::keypath::Path;
use super::source::copy_origin;
use super::tree::{Kind, Origin, Recorder, Source, V, VMap};

/// A loaded chart before dependency processing.
#[derive(Debug, Clone)]
pub struct ChartSpec {
    pub name: String,
    /// Where the chart sits in the loaded chart tree (kept through aliasing).
    pub loaded_at: Vec<usize>,
    pub version: String,
    pub values: VMap,
    /// Chart.yaml `dependencies` (requirements.yaml for apiVersion v1);
    /// `None` when the chart declares none (then every loaded subchart stays).
    pub requirements: Option<Vec<Requirement>>,
    /// The charts found under `charts/`.
    pub subcharts: Vec<ChartSpec>,
    /// werf only: see [`ChartTree::overlay`].
    pub overlay: Option<VMap>,
}

#[derive(Debug, Clone, Default)]
pub struct Requirement {
    pub name: String,
    pub version: String,
    pub alias: Option<String>,
    pub condition: String,
    pub tags: Vec<String>,
    pub import_values: Vec<ImportValue>,
    /// werf only: the entry's `export-values`, as (parent path, child path)
    /// pairs (child empty = the child's root); Helm ignores the field.
    pub export_values: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportValue {
    /// `- data`: the child's `exports.data` merged at the parent's root.
    Exports(String),
    /// `- {child: X, parent: Y}` (both as Go's `%v` prints them).
    Map { child: String, parent: String },
}

impl ChartTree for ChartSpec {
    fn name(&self) -> &str {
        &self.name
    }
    fn values(&self) -> &VMap {
        &self.values
    }
    fn subcharts(&self) -> &[Self] {
        &self.subcharts
    }
    fn overlay(&self) -> Option<&VMap> {
        self.overlay.as_ref()
    }
}

/// `ProcessDependencies(chart, user)` then the chart coalescing sees.
pub fn process_dependencies(mut chart: ChartSpec, user: &VMap, rec: &mut Recorder) -> Result<ChartValues, CoalesceError> {
    process_enabled(&mut chart, user, "", rec)?;
    process_imports(&mut chart, rec)?;
    Ok(to_chart_values(chart))
}

pub fn to_chart_values(c: ChartSpec) -> ChartValues {
    ChartValues {
        name: c.name,
        loaded_at: c.loaded_at,
        values: c.values,
        dependencies: c.subcharts.into_iter().map(to_chart_values).collect(),
    }
}

pub use super::semver::is_compatible_range;

/// `processDependencyEnabled`: rebuilds the subchart list (aliases), then
/// drops the subcharts that tags or conditions disable, recursively.
pub fn process_enabled(c: &mut ChartSpec, v: &VMap, path: &str, rec: &mut Recorder) -> Result<(), CoalesceError> {
    let Some(mut reqs) = c.requirements.clone() else { return Ok(()) };
    let loaded = std::mem::take(&mut c.subcharts);
    let takes = |r: &Requirement, ch: &ChartSpec| ch.name == r.name && is_compatible_range(&r.version, &ch.version);
    // Each entry takes the first loaded chart it matches; charts are moved,
    // and copied only for a chart that several entries take (two aliases).
    let picks: Vec<Option<usize>> = reqs.iter().map(|r| loaded.iter().position(|ch| takes(r, ch))).collect();
    let mut uses_left = vec![0usize; loaded.len()];
    for &i in picks.iter().flatten() {
        uses_left[i] += 1;
    }
    let claimed: Vec<bool> = loaded.iter().map(|ch| reqs.iter().any(|r| takes(r, ch))).collect();
    let mut slots: Vec<Option<ChartSpec>> = loaded.into_iter().map(Some).collect();
    // Loaded charts no entry claims stay as they are.
    let mut charts: Vec<ChartSpec> = Vec::with_capacity(slots.len());
    for (slot, claimed) in slots.iter_mut().zip(&claimed) {
        if !claimed {
            charts.extend(slot.take());
        }
    }
    for (r, pick) in reqs.iter_mut().zip(&picks) {
        if let Some(i) = *pick {
            uses_left[i] -= 1;
            let found = if uses_left[i] == 0 { slots[i].take() } else { slots[i].clone() };
            if let Some(mut copy) = found {
                if let Some(alias) = r.alias.as_ref().filter(|a| !a.is_empty()) {
                    copy.name = alias.clone();
                }
                charts.push(copy);
            }
        }
        if let Some(alias) = r.alias.as_ref().filter(|a| !a.is_empty()) {
            r.name = alias.clone();
        }
    }
    c.subcharts = charts;
    // Conditions and tags read the coalesced values (warnings count, events do not).
    let mut scratch = Recorder::default();
    let cvals = coalesce_values(c, v.clone(), &mut scratch)?;
    rec.warnings.append(&mut scratch.warnings);
    let mut enabled = vec![true; reqs.len()];
    apply_tags(&reqs, &cvals, &mut enabled, rec);
    apply_conditions(&reqs, &cvals, path, &mut enabled, rec);
    let disabled: Vec<String> = reqs.iter().zip(&enabled).filter(|(_, on)| !**on).map(|(r, _)| r.name.clone()).collect();
    c.subcharts.retain(|ch| !disabled.contains(&ch.name));
    for sub in c.subcharts.iter_mut() {
        let subpath = format!("{path}{}.", sub.name);
        process_enabled(sub, &cvals, &subpath, rec)?;
    }
    reqs.retain(|r| !disabled.contains(&r.name));
    // helm: `c.Metadata.Dependencies = append(nil, kept...)` is nil when none
    // is kept, and then import-values processing skips the chart.
    c.requirements = (!reqs.is_empty()).then_some(reqs);
    Ok(())
}

fn apply_tags(reqs: &[Requirement], cvals: &VMap, enabled: &mut [bool], rec: &mut Recorder) {
    let Some(tags) = cvals.get("tags").and_then(V::as_map) else { return };
    for (r, on) in reqs.iter().zip(enabled.iter_mut()) {
        let (mut has_true, mut has_false) = (false, false);
        for t in &r.tags {
            match tags.get(t).map(|v| &v.kind) {
                Some(Kind::Bool(true)) => has_true = true,
                Some(Kind::Bool(false)) => has_false = true,
                Some(_) => rec.warn(format!("returned non-bool value tag={t} chart={}", r.name)),
                None => {}
            }
        }
        // Any true tag enables; only false tags disable; no tag leaves it enabled.
        *on = has_true || !has_false;
    }
}

fn apply_conditions(reqs: &[Requirement], cvals: &VMap, path: &str, enabled: &mut [bool], rec: &mut Recorder) {
    for (r, on) in reqs.iter().zip(enabled.iter_mut()) {
        // Helm trims the whole condition, not each comma-separated part.
        for cond in r.condition.trim().split(',').filter(|c| !c.is_empty()) {
            match path_value(cvals, &format!("{path}{cond}")) {
                Some(Kind::Bool(b)) => {
                    *on = *b;
                    break;
                }
                Some(_) => rec.warn(format!("returned non-bool value path={cond} chart={}", r.name)),
                None => {}
            }
        }
    }
}

/// `Values.Table(name)`: the map at a dotted path.
pub fn table<'a>(vals: &'a VMap, dotted: &str) -> Option<&'a VMap> {
    let mut cur = vals;
    for part in dotted.split('.') {
        cur = cur.get(part)?.as_map()?;
    }
    Some(cur)
}

/// helm: coalesce.go coalesceTablesFullKey's first loop (`for key, val :=
/// range dst { if val == nil { src[key] = nil } }`), at every level it
/// recurses into (keys that are tables on both sides).
fn copy_dst_nils(dst: &VMap, src: &mut VMap) {
    for (k, dv) in dst {
        if dv.is_null() {
            src.insert(k.clone(), dv.clone());
        } else if let (Some(dm), Some(sm)) = (dv.as_map(), src.get_mut(k).and_then(V::as_map_mut)) {
            copy_dst_nils(dm, sm);
        }
    }
}

/// The nulls of `from` that `into` lacks, at every level where both are tables.
fn add_missing_nulls(into: &mut VMap, from: &VMap) {
    for (k, v) in from {
        match into.get_mut(k) {
            None if v.is_null() => {
                into.insert(k.clone(), v.clone());
            }
            Some(existing) => {
                if let (Some(im), Some(fm)) = (existing.as_map_mut(), v.as_map()) {
                    add_missing_nulls(im, fm);
                }
            }
            None => {}
        }
    }
}

/// The key where `Values.Table(dotted)` stops (`tableLookup`'s ErrNoTable):
/// the first part that is missing or not a map.
fn missing_key<'a>(vals: &VMap, dotted: &'a str) -> &'a str {
    let mut cur = vals;
    for part in dotted.split('.') {
        match cur.get(part).and_then(V::as_map) {
            Some(m) => cur = m,
            None => return part,
        }
    }
    dotted
}

/// `Values.PathValue(path)`: a non-map value at a dotted path.
pub fn path_value<'a>(vals: &'a VMap, dotted: &str) -> Option<&'a Kind> {
    let (parent, last) = match dotted.rsplit_once('.') {
        Some((p, l)) => (table(vals, p)?, l),
        None => (vals, dotted),
    };
    parent.get(last).filter(|v| !v.is_map()).map(|v| &v.kind)
}

/// `pathToMap(path, data)`: `data` nested under the dotted path (`.` is the root).
pub fn path_to_map(dotted: &str, data: VMap, origin: &Origin) -> VMap {
    if dotted == "." {
        return data;
    }
    let mut cur = data;
    for key in dotted.split('.').rev() {
        let mut m = VMap::default();
        m.insert(key.to_string(), V::new(Kind::Map(cur), origin.clone()));
        cur = m;
    }
    cur
}

/// Marks every node of an imported table as imported (keeping nothing of the
/// child's position: the JSON contract names the chart and the table).
/// A secret's value stays marked secret ([`copy_origin`]).
fn retag(m: &mut VMap, origin: &Origin, secret_origin: &Origin) {
    for v in m.values_mut() {
        v.origin = copy_origin(&v.origin, origin, secret_origin);
        match &mut v.kind {
            Kind::Map(sub) => retag(sub, origin, secret_origin),
            Kind::List(items) => {
                for it in items {
                    it.origin = copy_origin(&it.origin, origin, secret_origin);
                }
            }
            _ => {}
        }
    }
}

/// The tables of `src` (the child's table at `src_at` in `cvals`, to be
/// merged into `b` at `at`) that Helm's merge will put into `b` by reference:
/// those whose key `b` does not have yet.
fn record_aliases(b: &VMap, src: &VMap, at: &Path, src_at: &Path, aliases: &mut Vec<(Path, Path)>) {
    let existing = if at.is_root() { Some(b) } else { crate::values::tree::get(b, at).and_then(V::as_map) };
    let Some(existing) = existing else {
        // The whole table lands at `at` (the wrappers above it are new maps).
        if crate::values::tree::get(b, at).is_none() {
            alias_tree(src, at, src_at, aliases);
        }
        return;
    };
    for (k, v) in src {
        let Some(sub) = v.as_map() else { continue };
        match existing.get(k) {
            None => alias_tree(sub, &at.key(k), &src_at.key(k), aliases),
            Some(d) if d.is_map() => record_aliases(b, sub, &at.key(k), &src_at.key(k), aliases),
            Some(_) => {}
        }
    }
}

/// `src` and every table below it, held at `at` and at `src_at`.
fn alias_tree(src: &VMap, at: &Path, src_at: &Path, aliases: &mut Vec<(Path, Path)>) {
    aliases.push((at.clone(), src_at.clone()));
    for (k, v) in src {
        if let Some(sub) = v.as_map() {
            alias_tree(sub, &at.key(k), &src_at.key(k), aliases);
        }
    }
}

/// After a merge into `b`: a shared table that changed is changed everywhere
/// Helm holds it (the child's place in `cvals`, other places in `b`).
fn share_changes(b: &mut VMap, cvals: &mut VMap, aliases: &[(Path, Path)], before: &[Option<V>]) {
    for (i, (bp, cp)) in aliases.iter().enumerate() {
        let Some(now) = crate::values::tree::get(b, bp).cloned() else { continue };
        let changed = before.get(i).is_none_or(|old| old.as_ref().is_none_or(|old| !same_tree(old, &now)));
        if !changed || before.get(i).is_none() {
            continue;
        }
        if let Some(slot) = crate::values::tree::get_mut(cvals, cp) {
            *slot = now.clone();
        }
        for (bp2, cp2) in aliases {
            if cp2 == cp && bp2 != bp
                && let Some(slot) = crate::values::tree::get_mut(b, bp2)
            {
                *slot = now.clone();
            }
        }
    }
}

fn same_tree(a: &V, b: &V) -> bool {
    a.to_json() == b.to_json()
}

/// `processDependencyImportValues`: bottom-up, each parent's values become
/// its merged defaults with the imported tables under them.
pub fn process_imports(c: &mut ChartSpec, rec: &mut Recorder) -> Result<(), CoalesceError> {
    for sub in c.subcharts.iter_mut() {
        process_imports(sub, rec)?;
    }
    let Some(reqs) = c.requirements.clone() else { return Ok(()) };
    let mut scratch = Recorder::default();
    // The chart's own defaults are replaced below by what this computes: moved in, not copied.
    let defaults = std::mem::take(&mut c.values);
    let mut cvals = merge_values_taking(defaults, c, VMap::default(), &mut scratch)?;
    rec.warnings.append(&mut scratch.warnings);
    let mut b = VMap::default();
    // Helm puts the child's table itself into `b` (Go maps are references),
    // so a later import merging into that place also changes the child's
    // table in `cvals` and every other place holding it. `aliases` pairs a
    // path of `b` with the path of `cvals` whose table it holds.
    let mut aliases: Vec<(Path, Path)> = Vec::new();
    for r in &reqs {
        for iv in &r.import_values {
            let (child, parent) = match iv {
                ImportValue::Map { child, parent } => (child.clone(), parent.clone()),
                ImportValue::Exports(name) => (format!("exports.{name}"), ".".to_string()),
            };
            let child_path = format!("{}.{child}", r.name);
            let Some(found) = table(&cvals, &child_path) else {
                // helm: dependencies.go processImportValues, slog.Warn with
                // `Values.Table`'s ErrNoTable (`%q is not a table`, the first missing key).
                let error = format!("{} is not a table", crate::go::quote::quote(missing_key(&cvals, &child_path)));
                rec.warn(match iv {
                    ImportValue::Map { .. } => {
                        crate::go::slog::text_line("WARN", "ImportValues missing table from chart", &[("chart", &r.name), ("error", &error)])
                    }
                    ImportValue::Exports(_) => crate::go::slog::text_line("WARN", "ImportValues missing table", &[("error", &error)]),
                });
                continue;
            };
            let origin = Origin::new(Source::ImportValues { chart: r.name.clone(), from: child_path.clone(), secret: false });
            let secret_origin = Origin::new(origin.as_secret());
            let mut imported = found.clone();
            retag(&mut imported, &origin, &secret_origin);
            let before: Vec<Option<V>> = aliases.iter().map(|(bp, _)| crate::values::tree::get(&b, bp).cloned()).collect();
            let src_at = Path(child_path.split('.').map(|k| crate::keypath::Seg::Key(k.to_string())).collect());
            let parent_at = if parent == "." {
                Path::root()
            } else {
                Path(parent.split('.').map(|k| crate::keypath::Seg::Key(k.to_string())).collect())
            };
            record_aliases(&b, &imported, &parent_at, &src_at, &mut aliases);
            let mut src = path_to_map(&parent, imported, &origin);
            // coalesceTablesFullKey first sets every nil key of `dst` in `src`,
            // level by level; under `parent` that `src` is the child's table
            // itself (Go maps are references), so the child's values gain them.
            copy_dst_nils(&b, &mut src);
            let shared = if parent_at.is_root() { Some(&src) } else { crate::values::tree::get(&src, &parent_at).and_then(V::as_map) };
            if let (Some(shared), Some(child)) = (shared, crate::values::tree::get_mut(&mut cvals, &src_at).and_then(V::as_map_mut)) {
                add_missing_nulls(child, shared);
            }
            coalesce_tables(&mut b, src, "", &Path::root(), true, &mut scratch);
            // The merge's history is not the user's, its warnings are Helm's (MergeTables logs them).
            rec.warnings.append(&mut scratch.warnings);
            share_changes(&mut b, &mut cvals, &aliases, &before);
        }
    }
    let mut merged = cvals;
    coalesce_tables(&mut merged, b, "", &Path::root(), true, &mut scratch);
    rec.warnings.append(&mut scratch.warnings);
    c.values = merged;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_ranges_follow_masterminds_spelling() {
        assert!(is_compatible_range("0.1.0", "0.1.0"));
        assert!(is_compatible_range(">= 1.2, < 2", "1.5.0"));
        assert!(is_compatible_range(">=1.2 <2", "1.5.0"));
        assert!(is_compatible_range("~1.2.0 || ^3", "3.1.0"));
        assert!(is_compatible_range("1.x", "1.9.9"));
        assert!(!is_compatible_range("", "1.0.0"), "an empty constraint does not parse in Masterminds semver");
        assert!(!is_compatible_range("^2", "1.0.0"));
    }
}
