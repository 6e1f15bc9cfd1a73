//! `--why` for the lines an upgrade removes or changes: what printed them in
//! the baseline. Helm stores the top chart in each release record (its
//! metadata, templates, values and files; not its subcharts, helm:
//! pkg/chart/v2 `Chart.dependencies` is not serialised), so the baseline is
//! rendered again from the record with the values Helm computed then (the
//! stored chart's values under the stored config: `helm get values --all`)
//! and blamed.
//!
//! An object's blame is kept only when this render gives back exactly the
//! object the record holds: a subchart's defaults, other capabilities, a
//! different lookup answer or a random value make it differ, and its lines
//! would then be blamed on keys that did not print them. Those objects'
//! removed lines get no note.

use base64::Engine as _;

use crate::chart::{Chart, ChartFile, Metadata, RawFile};
use crate::release::Release;
use crate::render::blame::ObjectBlame;
use crate::render::engine::{Capabilities, EngineInput, LookupFn, ReleaseInfo};

/// The baseline's objects that render again as stored, blamed.
pub fn blame_baseline(baseline: &Release, capabilities: Capabilities, lookup: Option<&LookupFn<'_>>) -> Vec<ObjectBlame> {
    let Some(chart) = chart_of(baseline) else { return Vec::new() };
    let stored = super::modes::Stored::of(baseline);
    let Ok(values) = stored.coalesced(&mut crate::values::tree::Recorder::default()) else { return Vec::new() };
    let revision = baseline.version();
    let release = ReleaseInfo {
        name: baseline.name().to_string(),
        namespace: baseline.namespace().to_string(),
        revision,
        is_upgrade: revision > 1,
        is_install: revision <= 1,
    };
    let input = EngineInput { chart: &chart, charts: &stored.chart, values: &values, release, capabilities, inner_spans: true, lookup, skip_failing: true };
    let rendered = match crate::render::template::render_template(&input, &crate::render::template::TemplateOutput::default()) {
        Ok(r) => r,
        Err(_) => return Vec::new(),
    };
    let (again, kept) = (crate::render::parse_manifest(&rendered.text), crate::render::parse_manifest(baseline.manifest()));
    let (again, kept) = (by_identity(&again), by_identity(&kept));
    let mut blamed = crate::render::blame::blame(&rendered.files, &rendered.sorted, &values);
    blamed.retain(|b| {
        let key = (b.kind.as_str(), b.name.as_str(), b.source.as_str());
        matches!((again.get(&key), kept.get(&key)), (Some(a), Some(k)) if a == k)
    });
    blamed
}

type Identity<'r> = (&'r str, &'r str, &'r str);

/// Each object and hook by kind, name and template (the first of repeats).
fn by_identity(r: &crate::render::Rendered) -> std::collections::HashMap<Identity<'_>, &serde_json::Value> {
    let mut out = std::collections::HashMap::new();
    for o in r.objects.iter().chain(r.hooks.iter().map(|h| &h.object)) {
        out.entry((o.kind.as_str(), o.name.as_str(), o.source.as_str())).or_insert(&o.value);
    }
    out
}

/// The chart a record holds, as the loader would give it (no subcharts:
/// Helm does not store them); `None` when the record has no templates.
fn chart_of(baseline: &Release) -> Option<Chart> {
    let decode = |data: &str| base64::engine::general_purpose::STANDARD.decode(data).ok();
    let templates: Vec<ChartFile> = baseline
        .chart_templates()
        .iter()
        .map(|f| Some(ChartFile { name: f.name.to_string(), data: crate::chart::lossy_text(&decode(f.data_base64)?) }))
        .collect::<Option<_>>()?;
    if templates.is_empty() {
        return None;
    }
    let files = baseline
        .chart_files()
        .iter()
        .map(|f| Some(RawFile { name: f.name.to_string(), data: std::sync::Arc::new(decode(f.data_base64)?) }))
        .collect::<Option<_>>()?;
    let field = |k: &str| baseline.chart_metadata().and_then(|m| m.get(k)).and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
    let strings = |k: &str| {
        baseline.chart_metadata().and_then(|m| m.get(k)).and_then(serde_json::Value::as_array).map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    let metadata = Metadata {
        api_version: field("apiVersion"),
        name: field("name"),
        version: field("version"),
        app_version: field("appVersion"),
        // The record's chart rendered then; its kubeVersion was met.
        kube_version: String::new(),
        description: field("description"),
        chart_type: field("type"),
        home: field("home"),
        icon: field("icon"),
        sources: strings("sources"),
        keywords: strings("keywords"),
        annotations: baseline
            .chart_metadata()
            .and_then(|m| m.get("annotations"))
            .and_then(serde_json::Value::as_object)
            .map(|a| a.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
            .unwrap_or_default(),
        deprecated: baseline.chart_metadata().and_then(|m| m.get("deprecated")).and_then(serde_json::Value::as_bool).unwrap_or(false),
        condition: field("condition"),
        tags: field("tags"),
        ..Metadata::default()
    };
    Some(Chart {
        metadata,
        values_text: None,
        values_file: "values.yaml".into(),
        schema: None,
        schema_error: None,
        schema_file: "values.schema.json".into(),
        chart_file: "Chart.yaml".into(),
        dependencies: Vec::new(),
        path: format!("revision {} of {}", baseline.version(), baseline.name()),
        templates,
        warnings: Vec::new(),
        werf_files: Vec::new(),
        files,
    })
}
