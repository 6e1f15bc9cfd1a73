//! nelm's dependency processing (`ProcessDependenciesWithMerge`,
//! pkg/helm/pkg/chartutil/dependencies.go, v1.30), on the provenance tree:
//!
//! 1. `processDependencyExportExtraValues`: for every subchart (loaded
//!    order, before aliases apply), each `export-values` entry copies the
//!    user's table at the parent's path to the child's path inside the user
//!    values, unless the user already set something there;
//! 2. `processDependencyEnabled` (Helm's tags, conditions, aliases);
//! 3. `processDependencyExportValues`, parent before children: the parent's
//!    computed values (`MergeValues(parent)`, which lays the parent's
//!    secret and auxiliary values over its values.yaml) give the exported
//!    map, merged over the child's computed values (`MergeValues(child)`,
//!    with the child's own `secret-values.yaml`), and written back under the
//!    child's key into every ancestor (`syncChartOverridesToParentsValues`);
//! 4. `processDependencyImportValues` (Helm's, children first), which
//!    therefore sees exported values;
//!
//! then `ToRenderValues` coalesces the user values, with the top chart's
//! secret and auxiliary values laid over them (`makeValues`), onto the result.
//! Each chart's "makeValues" layer is its [`ChartSpec::overlay`].

use crate::values::coalesce::{ChartValues, CoalesceError, coalesce_tables, merge_values};
use crate::values::dependencies::{ChartSpec, path_to_map, process_enabled, process_imports, table, to_chart_values};
use crate::keypath::Path;
use crate::values::tree::{Kind, Origin, Recorder, Source, V, VMap};

use super::export::{exported_values, present, restamp_map};

/// The whole processing; `user` becomes the values `ToRenderValues` coalesces.
pub fn process(mut spec: ChartSpec, user: &mut VMap, rec: &mut Recorder) -> Result<ChartValues, CoalesceError> {
    export_extra_values(&spec, &[], user, rec);
    process_enabled(&mut spec, user, "", rec)?;
    export_values(&mut spec, &mut Vec::new(), rec)?;
    process_imports(&mut spec, rec)?;
    if let Some(overlay) = spec.overlay.take() {
        // makeValues of the final CoalesceValues: the top chart's layer keeps its values.
        let mut dest = overlay;
        coalesce_tables(&mut dest, std::mem::take(user), "", &Path::root(), false, rec);
        *user = dest;
    }
    Ok(to_chart_values(spec))
}

/// Step 1. `at` is the chart's path below the top chart (chart names).
fn export_extra_values(c: &ChartSpec, at: &[String], user: &mut VMap, rec: &mut Recorder) {
    for sub in &c.subcharts {
        let mut sub_at = at.to_vec();
        sub_at.push(sub.name.clone());
        let entry = c.requirements.as_ref().and_then(|reqs| reqs.iter().find(|r| r.name == sub.name));
        for (parent, child) in entry.map(|r| r.export_values.as_slice()).unwrap_or_default() {
            let parent_path = if at.is_empty() { parent.clone() } else { format!("{}.{parent}", at.join(".")) };
            let Some(found) = table(user, &parent_path) else { continue };
            let child_path = if child.is_empty() { sub_at.join(".") } else { format!("{}.{child}", sub_at.join(".")) };
            if present(user, &child_path) {
                continue;
            }
            let origin = Origin::new(Source::ExportValues {
                chart: c.name.clone(),
                from: format!("{parent} -> {}{}{child} (the user's values)", sub.name, if child.is_empty() { "" } else { "." }),
                secret: false,
            });
            let copied = path_to_map(&child_path, restamp_map(found, &origin), &origin);
            let mut merged = copied;
            coalesce_tables(&mut merged, std::mem::take(user), "", &Path::root(), true, rec);
            *user = merged;
        }
        export_extra_values(sub, &sub_at, user, rec);
    }
}

fn node<'a>(top: &'a ChartSpec, at: &[usize]) -> &'a ChartSpec {
    at.iter().fold(top, |c, &i| &c.subcharts[i])
}

fn node_mut<'a>(top: &'a mut ChartSpec, at: &[usize]) -> &'a mut ChartSpec {
    at.iter().fold(top, |c, &i| &mut c.subcharts[i])
}

/// Step 3 (`processDependencyExportValues`): this chart, then its subcharts.
fn export_values(top: &mut ChartSpec, at: &mut Vec<usize>, rec: &mut Recorder) -> Result<(), CoalesceError> {
    if !at.is_empty() {
        export_into(top, at, rec)?;
    }
    for i in 0..node(top, at).subcharts.len() {
        at.push(i);
        export_values(top, at, rec)?;
        at.pop();
    }
    Ok(())
}

/// `processExportValues` for the chart at `at` (not the top).
fn export_into(top: &mut ChartSpec, at: &[usize], rec: &mut Recorder) -> Result<(), CoalesceError> {
    let Some((&i, parent_at)) = at.split_last() else { return Ok(()) };
    let parent = node(top, parent_at);
    let child = &parent.subcharts[i];
    let Some(entry) = parent.requirements.as_ref().and_then(|reqs| reqs.iter().find(|r| r.name == child.name)) else { return Ok(()) };
    let place = place_of(top, at);
    let pvals = merge_recorded(parent, &place_of(top, parent_at), rec)?;
    let cvals = merge_recorded(child, &place, rec)?;
    let mut scratch = Recorder::default();
    let exported = exported_values(&parent.name, &child.name, &entry.export_values, &pvals, &mut scratch);
    // The exported values win over the child's: history, at the child's place.
    let mut values = exported.clone();
    coalesce_tables(&mut values, cvals, "", &place, true, &mut scratch);
    keep(scratch, &Path::root(), rec);
    node_mut(top, at).values = values;
    sync_to_parents(top, at, exported, rec)
}

/// The place of the chart at `at` in the top chart's values (its names, aliases applied).
fn place_of(top: &ChartSpec, at: &[usize]) -> Path {
    let mut place = Path::root();
    let mut cur = top;
    for &k in at {
        cur = &cur.subcharts[k];
        place = place.key(&cur.name);
    }
    place
}

/// nelm's `MergeValues(chart, nil)` inside dependency processing. nelm
/// writes its results back into charts' values, so what it overrides (a
/// chart's secret values over its values.yaml, a parent's section over a
/// subchart's defaults) would otherwise never reach the final coalescing:
/// it is kept as history at the chart's place, once.
fn merge_recorded(c: &ChartSpec, place: &Path, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
    let mut scratch = Recorder::default();
    let out = merge_values(c, VMap::default(), &mut scratch)?;
    keep(scratch, place, rec);
    Ok(out)
}

/// Moves events (prefixed with `place`) and warnings into `rec`, skipping ones it already has.
fn keep(scratch: Recorder, place: &Path, rec: &mut Recorder) {
    let key = |e: &crate::values::tree::Event| format!("{}\0{:?}\0{}\0{:?}\0{:?}", e.path, e.event, e.value.to_json(), e.value.origin, e.by);
    let seen: std::collections::HashSet<String> = rec.events.iter().map(key).collect();
    for mut e in scratch.events {
        e.path = Path(place.0.iter().cloned().chain(e.path.0).collect());
        if !seen.contains(&key(&e)) {
            rec.events.push(e);
        }
    }
    for w in scratch.warnings {
        if !rec.warnings.contains(&w) {
            rec.warnings.push(w);
        }
    }
}

/// `syncChartOverridesToParentsValues`: each ancestor's values become its
/// computed values with the overrides laid over them under the child's key.
fn sync_to_parents(top: &mut ChartSpec, at: &[usize], overrides: VMap, rec: &mut Recorder) -> Result<(), CoalesceError> {
    let Some((_, parent_at)) = at.split_last() else { return Ok(()) };
    let name = node(top, at).name.clone();
    let pvals = merge_recorded(node(top, parent_at), &place_of(top, parent_at), rec)?;
    let origin = overrides.values().next().map(|v| v.origin.clone()).unwrap_or_else(|| Origin::new(Source::Helm { why: format!("export-values for {name}") }));
    let mut po = VMap::default();
    po.insert(name, V::new(Kind::Map(overrides), origin));
    let mut values = po.clone();
    let mut scratch = Recorder::default();
    coalesce_tables(&mut values, pvals, "", &Path::root(), true, &mut scratch);
    keep(scratch, &place_of(top, parent_at), rec);
    node_mut(top, parent_at).values = values;
    sync_to_parents(top, parent_at, po, rec)
}
