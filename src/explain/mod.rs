//! `values explain`: a chart and value flags in, the values templates see
//! out, with the source of every key. Orchestrates chart loading, the CLI
//! merge of user values, dependency processing, coalescing and schema
//! validation, all on the provenance tree.

pub mod entries;
pub mod release;

use crate::chart::{self, Chart};
use crate::values::coalesce::{ChartValues, CoalesceError, coalesce_values_owned, go_v};
use crate::values::dependencies::{ChartSpec, ImportValue, Requirement, is_compatible_range, process_dependencies};
use crate::explain::entries::{Entry, entries};
use crate::keypath::Path;
use crate::values::tree::{Name, Recorder, Source, VMap, map_to_json};
use crate::values::user::{UserValuesError, ValueFlags, user_values};
use crate::yaml::{self, YamlError};

#[derive(Debug)]
pub struct Explanation {
    /// What templates see as `.Values`.
    pub values: VMap,
    pub entries: Vec<Entry>,
    /// Helm's warnings (coalescing, loader, dependencies), in order.
    pub warnings: Vec<String>,
    /// When Helm's own result depends on the random order in which it loads
    /// subcharts (see [`order_dependence`]): the values under the other order.
    pub other_order: Option<VMap>,
    /// The chart tree as Helm renders it after dependency processing: the
    /// enabled subcharts, under their aliases, with where each was loaded
    /// (no values). `None` where no chart was processed (stored releases).
    pub charts: Option<ChartValues>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// Helm's words (helm: pkg/chart/v2/loader/load.go LoadFiles: `cannot
    /// load values.yaml: ...`, wrapped in `error unpacking subchart N in P: `
    /// per level), then where: the file, line and column on a line of its own.
    #[error("{}cannot load values.yaml: {}{}", unpacking_text(.unpacking), .error.helm_message, chart::values_position(.error, .chart))]
    ChartValues {
        chart: String,
        /// (subchart as named in `charts/`, parent chart's name), outermost first.
        unpacking: Vec<(String, String)>,
        /// Not a `source`: its text is already in the message.
        error: Box<YamlError>,
    },
    /// helm: pkg/cmd/install.go runInstall (v4.2.3), the CLI's words around `CheckDependencies`.
    #[error("an error occurred while checking for chart dependencies. You may need to run 'helm dependency build' to fetch missing dependencies: {0}")]
    MissingDependencies(String),
    #[error(transparent)]
    User(#[from] UserValuesError),
    #[error(transparent)]
    Coalesce(#[from] CoalesceError),
    /// helm: pkg/action/install.go RunWithContext wraps every error of
    /// `chartutil.ProcessDependencies` (which coalesces only where a chart
    /// lists dependencies) in these words.
    #[error("chart dependencies processing failed: {0}")]
    DependencyProcessing(CoalesceError),
    /// Helm's schema errors, word for word, then where each bad value came from.
    #[error("{errors}{}", sources_text(.sources))]
    Schema { errors: chart::SchemaErrors, sources: Vec<(Path, String)> },
}

fn unpacking_text(levels: &[(String, String)]) -> String {
    levels.iter().map(|(n, parent)| format!("error unpacking subchart {n} in {parent}: ")).collect()
}

/// For each failing path of a schema error, where the value there came from
/// (file:line:col or flag), as `values explain` describes it.
fn bad_value_sources(errors: &chart::SchemaErrors, values: &VMap) -> Vec<(Path, String)> {
    let mut out: Vec<(Path, String)> = Vec::new();
    for e in errors.errors.iter().filter(|e| e.kind == chart::SchemaErrorKind::Violation && !e.values_path.is_root()) {
        if out.iter().any(|(p, _)| p == &e.values_path) {
            continue;
        }
        if let Some(node) = crate::values::tree::get(values, &e.values_path) {
            let mut text = String::new();
            node.origin.describe_into(&mut text);
            out.push((e.values_path.clone(), text));
        }
    }
    out
}

/// Schema messages quote the failing value (`pattern`, `format`, `const`):
/// a secret's value (werf secret values, helmfile secrets, and copies of
/// them) is replaced by `<secret>`.
fn hide_secret_values(mut errors: chart::SchemaErrors, values: &VMap) -> chart::SchemaErrors {
    for e in errors.errors.iter_mut().filter(|e| e.kind == chart::SchemaErrorKind::Violation && !e.values_path.is_root()) {
        if let Some(node) = crate::values::tree::get(values, &e.values_path).filter(|n| n.origin.is_secret()) {
            e.hide_value(&node.to_json());
        }
    }
    errors
}

fn sources_text(sources: &[(Path, String)]) -> String {
    if sources.is_empty() {
        return String::new();
    }
    let mut out = String::from("where the values that break it come from:");
    for (path, source) in sources {
        out.push_str(&format!("\n- {path}: {source}"));
    }
    out
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
    let (user, rec) = merge_user_values(flags, read_file)?;
    explain_chart_with(chart, user, rec, options)
}

/// The user values of `flags` and what their merge recorded: the first
/// step of Helm's CLI, before it loads the chart (helm: pkg/cmd/install.go
/// runInstall: `valueOpts.MergeValues` before `loader.Load` and
/// `CheckDependencies`), so a bad flag is the error even when the chart has
/// one too.
pub fn merge_user_values(flags: &ValueFlags, read_file: &mut dyn FnMut(&str) -> Result<String, String>) -> Result<(VMap, Recorder), ExplainError> {
    let mut rec = Recorder::default();
    let user = crate::timings::timed("user values (-f, --set)", || user_values(flags, read_file, &mut rec))?;
    Ok((user, rec))
}

/// [`explain_chart`] from user values already merged ([`merge_user_values`]).
pub fn explain_chart_with(chart: &Chart, user: VMap, mut rec: Recorder, options: Options) -> Result<Explanation, ExplainError> {
    let mut loading: Vec<String> = chart.walk().into_iter().flat_map(|c| c.warnings.iter().cloned()).collect();
    // Helm refuses to install or template any chart but an application
    // (helm: pkg/cmd/install.go checkIfInstallable). Explaining one still
    // answers a real question (what its defaults are, and what a parent's
    // values would meet); we explain it and say that Helm would not install it.
    if !matches!(chart.metadata.chart_type.as_str(), "" | "application") {
        loading.push(format!(
            "Helm would not install this chart ({} charts are not installable): these are its own values, as a parent chart that depends on it would start from",
            chart.metadata.chart_type
        ));
    }
    rec.warnings.splice(0..0, loading);
    // Helm's loader reads every values.yaml before the CLI checks dependencies.
    let spec = chart_spec(chart, Vec::new())?;
    chart.check_dependencies().map_err(ExplainError::MissingDependencies)?;
    explain_spec(chart, spec, user, rec, options)
}

/// The second half of [`explain_chart`], for callers that prepare the user
/// values or the chart's values themselves (`upgrade-preview`'s value modes
/// replace the parent's values.yaml): dependency processing, coalescing,
/// schema validation of `chart`, attribution.
pub fn explain_spec(chart: &Chart, spec: ChartSpec, user: VMap, rec: Recorder, options: Options) -> Result<Explanation, ExplainError> {
    explain_spec_with(chart, spec, user, rec, options, &helm_process)
}

/// Dependency processing: the chart as coalescing will see it; may change
/// the user values coalescing starts from (werf's does).
pub type Process = dyn Fn(ChartSpec, &mut VMap, &mut Recorder) -> Result<ChartValues, CoalesceError>;

fn helm_process(spec: ChartSpec, user: &mut VMap, rec: &mut Recorder) -> Result<ChartValues, CoalesceError> {
    process_dependencies(spec, user, rec)
}

/// [`explain_spec`] with another dependency processing (werf's).
pub fn explain_spec_with(chart: &Chart, spec: ChartSpec, mut user: VMap, mut rec: Recorder, options: Options, process: &Process) -> Result<Explanation, ExplainError> {
    // Only charts with unlisted sibling subcharts need the second order.
    let rerun = reversed_order(&spec).map(|r| (r, user.clone()));
    // Dependency processing sees the user values; its own merges are not history.
    let processed = crate::timings::timed("dependencies", || process(spec, &mut user, &mut rec)).map_err(ExplainError::DependencyProcessing)?;
    // Coalescing moves the defaults; validation reads only the tree's shape after.
    let (processed, defaults) = take_defaults(processed);
    let values = crate::timings::timed("coalescing", || coalesce_values_owned(defaults, user, &mut rec))?;
    if !options.skip_schema_validation {
        let _phase = crate::timings::phase("schema validation");
        let as_helm_sees_it = processed_chart(chart, &processed);
        chart::validate_tree(&as_helm_sees_it, &schema_view(&values, &as_helm_sees_it))
            .map_err(|errors| ExplainError::Schema { sources: bad_value_sources(&errors, &values), errors: hide_secret_values(errors, &values) })?;
    }
    let other_order = match rerun {
        Some((reversed, user)) => order_dependence(reversed, user, &values, process)?,
        None => None,
    };
    if let Some((_, differing)) = &other_order {
        rec.warn(format!(
            "Helm's result for this chart is not deterministic: it loads subcharts that Chart.yaml does not list in random order, \
             and they share nested global maps; under the other order {}",
            differing.join(", ")
        ));
    }
    let entries = crate::timings::timed("attribution", || entries(&values, &rec));
    Ok(Explanation { values, entries, warnings: rec.warnings, other_order: other_order.map(|(v, _)| v), charts: Some(processed) })
}

/// The processed chart as (its shape: names and places, no values; the
/// chart with its values), so that coalescing can move the values.
fn take_defaults(mut c: ChartValues) -> (ChartValues, ChartValues) {
    let dependencies: Vec<(ChartValues, ChartValues)> = std::mem::take(&mut c.dependencies).into_iter().map(take_defaults).collect();
    let (shapes, full): (Vec<ChartValues>, Vec<ChartValues>) = dependencies.into_iter().unzip();
    let shape = ChartValues { name: c.name.clone(), loaded_at: c.loaded_at.clone(), values: VMap::default(), dependencies: shapes };
    c.dependencies = full;
    (shape, c)
}

/// Helm's loader collects `charts/` in a Go map, so subcharts that Chart.yaml
/// does not list reach coalescing in random order; the order only shows when
/// they share nested global maps (Go aliasing, reproduced in coalescing).
/// We compute the loaded (sorted) order and its reverse, and report the keys
/// that differ. With three or more such siblings other orders exist too; the
/// two computed are a check, not an enumeration.
fn order_dependence(reversed: ChartSpec, mut user: VMap, values: &VMap, process: &Process) -> Result<Option<(VMap, Vec<String>)>, ExplainError> {
    let mut scratch = Recorder::default();
    let processed = process(reversed, &mut user, &mut scratch).map_err(ExplainError::DependencyProcessing)?;
    let other = coalesce_values_owned(processed, user, &mut scratch)?;
    let mut differing = Vec::new();
    diff_leaves(values, &other, &Path::root(), &mut differing);
    Ok((!differing.is_empty()).then_some((other, differing)))
}

/// The chart with its unlisted subcharts reversed, when that changes anything
/// (checked first: most charts list every subchart, and copying is not free).
fn reversed_order(spec: &ChartSpec) -> Option<ChartSpec> {
    has_unlisted_siblings(spec).then(|| {
        let mut reversed = spec.clone();
        reverse_unlisted(&mut reversed);
        reversed
    })
}

/// The indexes of the subcharts no requirement claims.
fn unlisted(c: &ChartSpec) -> Vec<usize> {
    let claimed = |ch: &ChartSpec, reqs: &Option<Vec<Requirement>>| {
        reqs.as_ref().is_some_and(|rs| rs.iter().any(|r| r.name == ch.name && is_compatible_range(&r.version, &ch.version)))
    };
    (0..c.subcharts.len()).filter(|&i| !claimed(&c.subcharts[i], &c.requirements)).collect()
}

/// Whether some level has two or more unlisted subcharts.
fn has_unlisted_siblings(c: &ChartSpec) -> bool {
    unlisted(c).len() >= 2 || c.subcharts.iter().any(has_unlisted_siblings)
}

/// Reverses, at every level, the subcharts no requirement claims.
fn reverse_unlisted(c: &mut ChartSpec) {
    let slots = unlisted(c);
    for k in 0..slots.len() / 2 {
        c.subcharts.swap(slots[k], slots[slots.len() - 1 - k]);
    }
    for sub in c.subcharts.iter_mut() {
        reverse_unlisted(sub);
    }
}

/// The keys whose values differ, printed `path = other (not ours)`.
fn diff_leaves(ours: &VMap, other: &VMap, at: &Path, out: &mut Vec<String>) {
    for (k, v) in ours {
        let here = at.key(k);
        match (other.get(k), v.as_map()) {
            (None, _) => out.push(format!("{here} is absent")),
            (Some(w), Some(m)) if w.is_map() => diff_leaves(m, w.as_map().unwrap_or(m), &here, out),
            (Some(w), _) if go_v(w) != go_v(v) => out.push(format!("{here} = {} (not {})", go_v(w), go_v(v))),
            _ => {}
        }
    }
    for (k, w) in other.iter().filter(|(k, _)| !ours.contains_key(*k)) {
        out.push(format!("{} = {}", at.key(k), go_v(w)));
    }
}

/// The loaded chart as a [`ChartSpec`]: values with positions; a key of a
/// chart's values.yaml that names one of its subcharts is "parent values".
pub fn chart_spec(c: &Chart, loaded_at: Vec<usize>) -> Result<ChartSpec, ExplainError> {
    // Every values.yaml of the tree is read first, all at once on every core
    // (the files are most of the work), in `walk` order, which is the order
    // `spec_of` consumes them.
    let charts = c.walk();
    let inputs: Vec<(&str, &str)> =
        charts.iter().filter_map(|c| Some((c.values_text.as_deref()?, c.values_file.as_str()))).collect();
    let _phase = crate::timings::phase("read values files");
    let mut parsed = yaml::parse_many(&inputs, crate::parallel::available_threads()).into_iter();
    spec_of(c, loaded_at, &mut parsed)
}

fn spec_of(c: &Chart, loaded_at: Vec<usize>, parsed: &mut impl Iterator<Item = yaml::Parsed>) -> Result<ChartSpec, ExplainError> {
    let values = match (&c.values_text, c.values_text.as_ref().and_then(|_| parsed.next())) {
        (Some(_), Some(read)) => {
            let subchart_names: Vec<&str> = c
                .dependencies
                .iter()
                .map(|d| d.metadata.name.as_str())
                .chain(c.metadata.dependencies.iter().filter_map(|d| d.alias.as_deref()))
                .collect();
            let (chart_name, file): (Name, Name) = (c.metadata.name.as_str().into(), c.values_file.as_str().into());
            crate::values::tree::tree_of(read, &|top_key, pos| {
                let (line, column) = (Some(pos.line), Some(pos.column));
                if subchart_names.contains(&top_key) {
                    Source::ParentValues { chart: chart_name.clone(), file: file.clone(), line, column }
                } else {
                    Source::ChartDefault { chart: chart_name.clone(), file: file.clone(), line, column }
                }
            })
            .map_err(|source| ExplainError::ChartValues { chart: c.path.clone(), unpacking: Vec::new(), error: Box::new(source) })?
        }
        _ => VMap::default(),
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
                export_values: Vec::new(),
            })
            .collect()
    });
    let mut subcharts = Vec::with_capacity(c.dependencies.len());
    for (i, d) in c.dependencies.iter().enumerate() {
        let mut at = loaded_at.clone();
        at.push(i);
        let n = d.path.rsplit('/').next().unwrap_or(&d.path);
        subcharts.push(spec_of(d, at, parsed).map_err(|e| match e {
            ExplainError::ChartValues { chart, mut unpacking, error } => {
                unpacking.insert(0, (n.to_string(), c.metadata.name.clone()));
                ExplainError::ChartValues { chart, unpacking, error }
            }
            other => other,
        })?);
    }
    Ok(ChartSpec {
        name: c.metadata.name.clone(),
        loaded_at,
        version: c.metadata.version.clone(),
        values,
        requirements,
        subcharts,
        overlay: None,
    })
}

/// The loaded chart rearranged as dependency processing left it (aliases as
/// names, disabled subcharts gone), for schema validation.
fn processed_chart<'a>(top: &'a Chart, processed: &ChartValues) -> chart::SchemaTree<'a> {
    let mut node = top;
    for &i in &processed.loaded_at {
        match node.dependencies.get(i) {
            Some(d) => node = d,
            None => break,
        }
    }
    chart::SchemaTree {
        chart: node,
        name: processed.name.clone(),
        dependencies: processed.dependencies.iter().map(|d| processed_chart(top, d)).collect(),
    }
}

/// The values as JSON where validation reads them: whole under a chart with
/// a schema, elsewhere only the subcharts' sections (most charts have no
/// schema, and converting thousands of values for nothing is not free).
fn schema_view(values: &VMap, tree: &chart::SchemaTree) -> serde_json::Value {
    if tree.has_schema() {
        return serde_json::Value::Object(map_to_json(values));
    }
    let mut out = serde_json::Map::new();
    for sub in &tree.dependencies {
        if let Some(v) = values.get(&sub.name) {
            let section = match v.as_map() {
                Some(m) => schema_view(m, sub),
                None => v.to_json(),
            };
            out.insert(sub.name.clone(), section);
        }
    }
    serde_json::Value::Object(out)
}
