//! Explaining a stored release: `helm get values --all` computes
//! `CoalesceValues(stored chart values, release config)` (helm:
//! pkg/action/get_values.go). A stored chart has no subcharts: Helm stored
//! the subcharts' defaults inside the chart's values when it installed. One
//! entry point for `values explain --release` and `release decode --show
//! all-values`.

use std::rc::Rc;

use serde_json::Map;

use super::Explanation;
use super::entries::entries;
use crate::release::Release;
use crate::values::coalesce::{ChartValues, CoalesceError, coalesce_values};
use crate::values::tree::{Recorder, Source, VMap, map_from_json};

/// How a stored record's numbers are typed in the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredNumbers {
    /// float64, as Go decodes the record's JSON (what Helm computes with).
    Float64,
    /// Integers stay integers: for printing through writers that do not
    /// spell float64 the Go way (an integral float64 prints as an integer
    /// in Go, so the text is the same).
    KeepIntegers,
}

/// The values a stored release's templates saw, with provenance and
/// Helm's coalescing warnings.
pub fn stored_values(rel: &Release, numbers: StoredNumbers) -> Result<(VMap, Recorder), CoalesceError> {
    let revision = rel.version();
    let empty = Map::new();
    let float = numbers == StoredNumbers::Float64;
    let chart_origin = Rc::new(Source::StoredChart { chart: rel.chart_name().to_string(), revision });
    let chart = ChartValues {
        name: rel.chart_name().to_string(),
        loaded_at: Vec::new(),
        values: map_from_json(rel.chart_values().unwrap_or(&empty), float, &chart_origin),
        dependencies: Vec::new(),
    };
    let config_origin = Rc::new(Source::ReleaseConfig { revision });
    let user = map_from_json(rel.config().unwrap_or(&empty), float, &config_origin);
    let mut rec = Recorder::default();
    let values = coalesce_values(&chart, user, &mut rec)?;
    Ok((values, rec))
}

/// `values explain --release`: every key of the stored values with its
/// source (the stored chart's defaults or the release config).
pub fn explain_release(rel: &Release) -> Result<Explanation, CoalesceError> {
    let (values, rec) = stored_values(rel, StoredNumbers::Float64)?;
    let entries = entries(&values, &rec);
    Ok(Explanation { values, entries, warnings: rec.warnings, other_order: None, charts: None })
}

/// The note `values explain --release` adds: why no subchart shows.
pub fn no_subcharts_note(rel: &Release) -> String {
    format!(
        "{} revision {}: a stored chart has no subcharts; Helm stored the subcharts' defaults inside the chart's values when it installed, so they show as the chart's defaults",
        rel.name(),
        rel.version()
    )
}
