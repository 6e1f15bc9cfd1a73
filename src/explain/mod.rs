//! `values explain`: a chart and value flags in, the values templates see
//! out, with the source of every key. Orchestrates chart loading, the CLI
//! merge of user values, dependency processing, coalescing and schema
//! validation, all on the provenance tree.

use crate::chart::{self, Chart};
use crate::values::coalesce::{ChartValues, CoalesceError, coalesce_values};
use crate::values::dependencies::{ChartSpec, ImportValue, Requirement, process_dependencies};
use crate::values::explain::{Entry, entries};
use crate::values::path::{Path, Seg};
use crate::values::tree::{Recorder, Source, VMap, map_to_json};
use crate::values::user::{UserValuesError, ValueFlags, file_tree, user_values};
use crate::values::yaml::{self, YamlError};

#[derive(Debug)]
pub struct Explanation {
    /// What templates see as `.Values`.
    pub values: VMap,
    pub entries: Vec<Entry>,
    /// Helm's warnings (coalescing, loader, dependencies), in order.
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    #[error("{chart}: cannot load values.yaml: {source}")]
    ChartValues {
        chart: String,
        #[source]
        source: YamlError,
    },
    #[error("{0}")]
    MissingDependencies(String),
    #[error(transparent)]
    User(#[from] UserValuesError),
    #[error(transparent)]
    Coalesce(#[from] CoalesceError),
    #[error(transparent)]
    Schema(#[from] chart::SchemaErrors),
}

/// Options that change what Helm computes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub skip_schema_validation: bool,
}

/// Explains the values of `chart` for the given flags.
pub fn explain_chart(
    chart: &Chart,
    flags: &ValueFlags,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    options: Options,
) -> Result<Explanation, ExplainError> {
    let mut rec = Recorder::default();
    for c in chart.walk() {
        rec.warnings.extend(c.warnings.iter().cloned());
    }
    chart.check_dependencies().map_err(ExplainError::MissingDependencies)?;
    let spec = chart_spec(chart, Vec::new())?;
    let user = user_values(flags, read_file, &mut rec)?;
    // Dependency processing sees the user values; its own merges are not history.
    let processed = process_dependencies(&spec, &user, &mut rec)?;
    let values = coalesce_values(&processed, user, &mut rec)?;
    if !options.skip_schema_validation {
        let as_helm_sees_it = processed_chart(chart, &processed);
        chart::validate_values(&as_helm_sees_it, &serde_json::Value::Object(map_to_json(&values)))?;
    }
    let entries = entries(&values, &rec);
    Ok(Explanation { values, entries, warnings: rec.warnings })
}

/// The loaded chart as a [`ChartSpec`]: values with positions; a key of a
/// chart's values.yaml that names one of its subcharts is "parent values".
fn chart_spec(c: &Chart, loaded_at: Vec<usize>) -> Result<ChartSpec, ExplainError> {
    let values = match &c.values_text {
        Some(text) => {
            let loaded = yaml::load_values(text, &c.values_file)
                .map_err(|source| ExplainError::ChartValues { chart: c.path.clone(), source })?;
            let subchart_names: Vec<String> = c
                .dependencies
                .iter()
                .map(|d| d.metadata.name.clone())
                .chain(c.metadata.dependencies.iter().filter_map(|d| d.alias.clone()))
                .collect();
            let chart_name = c.metadata.name.clone();
            let file = c.values_file.clone();
            file_tree(&loaded, &|p: &Path, pos| {
                let (line, column) = (pos.map(|x| x.0), pos.map(|x| x.1));
                match p.0.first() {
                    Some(Seg::Key(k)) if subchart_names.contains(k) => {
                        Source::ParentValues { chart: chart_name.clone(), file: file.clone(), line, column }
                    }
                    _ => Source::ChartDefault { chart: chart_name.clone(), file: file.clone(), line, column },
                }
            })
        }
        None => VMap::new(),
    };
    let requirements = c.metadata.declared_dependencies().map(|deps| {
        deps.iter()
            .map(|d| Requirement {
                name: d.name.clone(),
                version: d.version.clone(),
                alias: d.alias.clone(),
                condition: d.condition.clone().unwrap_or_default(),
                tags: d.tags.clone(),
                import_values: d
                    .import_values
                    .iter()
                    .map(|iv| match iv {
                        chart::ImportValue::Exports(s) => ImportValue::Exports(s.clone()),
                        chart::ImportValue::Map { child, parent } => ImportValue::Map { child: child.clone(), parent: parent.clone() },
                    })
                    .collect(),
            })
            .collect()
    });
    let mut subcharts = Vec::with_capacity(c.dependencies.len());
    for (i, d) in c.dependencies.iter().enumerate() {
        let mut at = loaded_at.clone();
        at.push(i);
        subcharts.push(chart_spec(d, at)?);
    }
    Ok(ChartSpec {
        name: c.metadata.name.clone(),
        loaded_at,
        version: c.metadata.version.clone(),
        values,
        requirements,
        subcharts,
    })
}

/// The loaded chart rearranged as dependency processing left it (aliases as
/// names, disabled subcharts gone), for schema validation.
fn processed_chart(top: &Chart, processed: &ChartValues) -> Chart {
    let mut node = top;
    for &i in &processed.loaded_at {
        match node.dependencies.get(i) {
            Some(d) => node = d,
            None => break,
        }
    }
    let mut out = node.clone();
    out.metadata.name = processed.name.clone();
    out.dependencies = processed.dependencies.iter().map(|d| processed_chart(top, d)).collect();
    out
}
