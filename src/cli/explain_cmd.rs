//! `values explain CHART [value flags]` (alias `explain`).

use std::io::Read;

use anyhow::Context as _;
use serde_json::Value;

use super::args::{ExplainArgs, OutputFormat};
use super::output::{go_yaml_numbers, to_json_go, to_yaml};
use super::{Ctx, Outcome};
use crate::explain::{Options, explain_chart};
use crate::values::explain::{Entry, contract_json};
use crate::values::path::Path;
use crate::values::tree::{EventKind, Source};
use crate::values::user::{ValueFlags, ValuesFile};

pub fn run(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    if args.release.is_some() || !args.release_files.is_empty() {
        return release(args, ctx);
    }
    let Some(chart_path) = &args.chart else { anyhow::bail!("name a CHART, or a release with --release") };
    let chart = crate::chart::load(chart_path)?;
    let flags = value_flags(&args.flags)?;
    let mut read_file = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("open {path}: {e}"));
    let explanation = explain_chart(&chart, &flags, &mut read_file, Options { skip_schema_validation: args.skip_schema_validation })?;
    render(args, ctx, explanation)
}

/// Reads the value flags' files (`-` is stdin, once) into what the values
/// engine takes; the flags keep Helm's kind order there.
pub(super) fn value_flags(args: &super::args::ValueFlagArgs) -> anyhow::Result<ValueFlags> {
    let mut files = Vec::new();
    let mut stdin_used = false;
    for name in args.values.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let text = if name == "-" {
            anyhow::ensure!(!stdin_used, "-f - can be given once (stdin is read once)");
            stdin_used = true;
            let mut buf = String::new();
            std::io::stdin().read_to_string(&mut buf).context("cannot read stdin")?;
            buf
        } else {
            std::fs::read_to_string(name).with_context(|| format!("cannot read values file {name}"))?
        };
        files.push(ValuesFile { name: name.to_string(), text });
    }
    let flags = ValueFlags {
        files,
        set_json: args.set_json.clone(),
        set: args.set.clone(),
        set_string: args.set_string.clone(),
        set_file: args.set_file.clone(),
        set_literal: args.set_literal.clone(),
    };
    Ok(flags)
}

/// `--release`: the stored chart's values under the release config, as
/// `helm get values --all` computes them.
fn release(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::ensure!(
        args.flags.values.is_empty() && args.flags.set.is_empty() && args.flags.set_string.is_empty()
            && args.flags.set_json.is_empty() && args.flags.set_file.is_empty() && args.flags.set_literal.is_empty(),
        "value flags do not apply with --release: it explains what is stored (use upgrade-preview for an upgrade's values)"
    );
    let source = super::args::SourceArgs {
        files: args.release_files.clone(),
        driver: args.driver,
        sql_connection: args.sql_connection.clone(),
    };
    let loaded = super::inputs::load(&source, args.release.as_deref(), ctx)?;
    let record = crate::release::decode_revision(loaded.records, args.release.as_deref(), args.revision, &loaded.place)?;
    let rel = &record.release;
    let revision = rel.version();
    let empty = serde_json::Map::new();
    let chart_origin = std::rc::Rc::new(Source::StoredChart { chart: rel.chart_name().to_string(), revision });
    // Stored records are JSON: every number is a float64 there.
    let chart = crate::values::coalesce::ChartValues {
        name: rel.chart_name().to_string(),
        loaded_at: Vec::new(),
        values: crate::values::tree::map_from_json(rel.chart_values().unwrap_or(&empty), true, &chart_origin),
        dependencies: Vec::new(),
    };
    let config_origin = std::rc::Rc::new(Source::ReleaseConfig { revision });
    let user = crate::values::tree::map_from_json(rel.config().unwrap_or(&empty), true, &config_origin);
    let mut rec = crate::values::tree::Recorder::default();
    let values = crate::values::coalesce::coalesce_values(&chart, user, &mut rec)?;
    let entries = crate::values::explain::entries(&values, &rec);
    let mut warnings = record.warnings.clone();
    warnings.extend(rec.warnings);
    let mut outcome = render(args, ctx, crate::explain::Explanation { values, entries, warnings, other_order: None })?;
    outcome.notes.push(format!(
        "{} revision {revision}: a stored chart has no subcharts; Helm stored the subcharts' defaults inside the chart's values when it installed, so they show as the chart's defaults",
        rel.name()
    ));
    Ok(outcome)
}

fn render(args: &ExplainArgs, ctx: &Ctx, explanation: crate::explain::Explanation) -> anyhow::Result<Outcome> {
    let keys: Vec<Path> = args.keys.iter().map(|k| Path::parse(k).map_err(anyhow::Error::msg)).collect::<anyhow::Result<_>>()?;
    let shown: Vec<&Entry> = explanation.entries.iter().filter(|e| keys.is_empty() || keys.iter().any(|k| e.path.starts_with(k))).collect();
    if let (false, true) = (keys.is_empty(), shown.is_empty()) {
        anyhow::bail!("no key {} in the values (try without --key to see every key)", args.keys.join(", "));
    }
    let mut outcome = Outcome { warnings: explanation.warnings.clone(), ..Outcome::default() };
    outcome.stdout = match ctx.format() {
        OutputFormat::Text => text(&shown, args.show_overridden || !keys.is_empty(), ctx),
        format => {
            let doc = contract_json(&explanation.values, shown.iter().copied(), &explanation.warnings);
            let text = if format == OutputFormat::Json { to_json_go(&doc) } else { to_yaml(&go_yaml_numbers(&doc))? };
            // Freeing a document of thousands of entries costs more than printing it; the process ends soon.
            std::mem::forget(doc);
            text
        }
    };
    // The warnings are part of the JSON document; in text they go to stderr.
    if ctx.format() != OutputFormat::Text {
        outcome.warnings.clear();
    }
    Ok(outcome)
}

/// A source as people read it: where to look.
pub fn describe(s: &Source) -> String {
    let at = |file: &str, line: &Option<usize>, column: &Option<usize>| match (line, column) {
        (Some(l), Some(c)) => format!("{file}:{l}:{c}"),
        _ => file.to_string(),
    };
    match s {
        Source::ChartDefault { chart, file, line, column } => format!("{} (chart {chart} default)", at(file, line, column)),
        Source::StoredChart { chart, revision } => format!("values of the chart stored in revision {revision} (chart {chart} default)"),
        Source::ParentValues { chart, file, line, column } => format!("{} (parent chart {chart})", at(file, line, column)),
        Source::ValuesFile { file, line, column } => format!("-f {}", at(file, line, column)),
        Source::SetFlag { flag, index, expr } => format!("{flag}[{index}] {expr}"),
        Source::ImportValues { chart, from } => format!("import-values from {chart} ({from})"),
        Source::Global { from_chart } => format!("global from {from_chart}"),
        Source::ReleaseConfig { revision } => format!("release config (revision {revision})"),
        Source::Helm { why } => format!("helm ({why})"),
    }
}

pub(super) fn short(v: &Value) -> String {
    let s = match v {
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        other => super::output::to_json_go(other).replace(['\n', ' '], ""),
    };
    if s.chars().count() > 60 { format!("{}…", s.chars().take(59).collect::<String>()) } else { s }
}

pub(super) fn text(entries: &[&Entry], history: bool, ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    // Each path and value is formatted once.
    let paths: Vec<String> = entries.iter().map(|e| e.path.to_string()).collect();
    let values: Vec<Option<String>> = entries.iter().map(|e| e.value.as_ref().map(short)).collect();
    let width = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0).min(48);
    let vwidth = values.iter().flatten().map(|v| v.chars().count()).max().unwrap_or(0).min(40);
    let mut out = String::new();
    for (i, e) in entries.iter().enumerate() {
        let path = &paths[i];
        let pad = |s: &str, w: usize| " ".repeat(w.saturating_sub(s.chars().count()));
        match (&values[i], &e.source) {
            (Some(val), Some(src)) => {
                out.push_str(&format!("{}{}  {}{}  {}\n", theme.heading(path), pad(path, width), val, pad(val, vwidth), theme.dim(&describe(src))));
            }
            _ => {
                let why = e.overridden.last().map_or("gone", |l| match l.event {
                    EventKind::DeletedByNull => "deleted by null",
                    EventKind::SkippedTypeMismatch => "skipped (type mismatch)",
                    EventKind::Overridden => "replaced",
                });
                out.push_str(&format!("{}{}  {}\n", theme.heading(path), pad(path, width), theme.warn(&format!("<{why}>"))));
            }
        }
        if history {
            for l in e.overridden.iter().rev() {
                let what = match l.event {
                    EventKind::Overridden => "overrode",
                    EventKind::DeletedByNull => "deleted",
                    EventKind::SkippedTypeMismatch => "skipped",
                };
                let by = match (l.event, &l.by) {
                    (EventKind::DeletedByNull, Some(b)) => format!(" by the null at {}", describe(b)),
                    _ => String::new(),
                };
                out.push_str(&format!("    {} {} from {}{}\n", theme.dim(what), short(&l.value), theme.dim(&describe(&l.source)), theme.dim(&by)));
            }
        }
    }
    out
}
