//! Renderers for the views of a decoded record. Pure: data in, text out.

use anyhow::{Context as _, bail};
use base64::Engine as _;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::cli::args::OutputFormat;
use crate::cli::output::{Theme, human_bytes, table, to_json, to_yaml};
use crate::manifest;
use crate::release::history::HistoryRow;
use crate::release::size::{OBJECT_DATA_LIMIT, size_report};
use crate::release::{DecodedRecord, Status};
use crate::explain::release::{StoredNumbers, stored_values};
use crate::values::sorted;
use crate::values::tree::map_to_json;

pub fn serialize<T: Serialize>(value: &T, format: OutputFormat) -> anyhow::Result<String> {
    Ok(match format {
        OutputFormat::Yaml => to_yaml(value)?,
        _ => to_json(value)?,
    })
}

fn status_styled(status: Status, theme: &Theme) -> String {
    let s = status.as_str();
    match status {
        Status::Deployed => theme.good(s),
        Status::Failed | Status::Unknown => theme.bad(s),
        s2 if s2.is_pending() => theme.warn(s),
        Status::Superseded => theme.dim(s),
        _ => s.to_string(),
    }
}

fn apply_method_text(field: Option<&str>) -> &'static str {
    match field {
        Some("ssa") => "ssa (server-side apply)",
        Some("csa") => "csa (client-side apply)",
        Some(_) => "csa (client-side apply; unrecognised value)",
        None => "csa (client-side apply; record predates Helm 4)",
    }
}

pub fn summary(r: &DecodedRecord, format: OutputFormat, theme: &Theme) -> anyhow::Result<String> {
    let rel = &r.release;
    let stats = r.stats;
    if format != OutputFormat::Text {
        // The release is `release` in every command's JSON.
        let v = json!({
            "release": rel.name(),
            "namespace": rel.namespace(),
            "revision": rel.version(),
            "status": rel.status(),
            "chart": rel.chart_ref(),
            "chart_name": rel.chart_name(),
            "chart_version": rel.chart_version(),
            "app_version": rel.app_version(),
            "first_deployed": rel.first_deployed(),
            "last_deployed": rel.last_deployed(),
            "deleted": rel.deleted(),
            "description": rel.description(),
            "rollback_revision": rel.rollback_revision(),
            "apply_method": rel.apply_method().as_str(),
            "size": {
                "stored_bytes": stats.stored_bytes,
                "compressed_bytes": stats.compressed_bytes,
                "json_bytes": stats.json_bytes,
                "gzip": stats.gzip,
            },
            "source": r.origin.to_string(),
            "driver": r.driver,
        });
        return serialize(&v, format);
    }
    let mut rows: Vec<(&str, String)> = vec![
        ("NAME", rel.name().to_string()),
        ("NAMESPACE", rel.namespace().to_string()),
        ("REVISION", rel.version().to_string()),
        ("STATUS", status_styled(rel.status(), theme)),
        ("CHART", rel.chart_ref()),
        ("APP VERSION", rel.app_version().to_string()),
        ("FIRST DEPLOYED", rel.first_deployed().unwrap_or("-").to_string()),
        ("LAST DEPLOYED", rel.last_deployed().unwrap_or("-").to_string()),
    ];
    if let Some(d) = rel.deleted() {
        rows.push(("DELETED", d.to_string()));
    }
    if let Some(rb) = rel.rollback_revision() {
        rows.push(("ROLLBACK OF", format!("revision {rb}")));
    }
    rows.push(("DESCRIPTION", rel.description().to_string()));
    rows.push(("APPLY METHOD", apply_method_text(rel.apply_method_field()).to_string()));
    let compression = if stats.gzip { format!("gzip {}", human_bytes(stats.compressed_bytes)) } else { "not compressed (legacy record)".into() };
    rows.push((
        "RECORD SIZE",
        format!(
            "{} stored ({compression}), {} JSON; {:.1}% of the 1 MiB object limit",
            human_bytes(stats.stored_bytes),
            human_bytes(stats.json_bytes),
            stats.stored_bytes as f64 * 100.0 / OBJECT_DATA_LIMIT as f64
        ),
    ));
    rows.push(("SOURCE", r.origin.to_string()));
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 2;
    Ok(rows.into_iter().map(|(k, v)| format!("{}{}{v}\n", theme.heading(&format!("{k}:")), " ".repeat(width - k.len() - 1))).collect())
}

/// Values as Helm prints them: keys sorted; `null` when nothing was stored.
fn values_output(header: &str, values: Option<&Map<String, Value>>, format: OutputFormat) -> anyhow::Result<String> {
    let v = values.map_or(Value::Null, |m| sorted(&Value::Object(m.clone())));
    match format {
        OutputFormat::Text => Ok(format!("{header}\n{}", to_yaml(&v)?)),
        f => serialize(&v, f),
    }
}

pub fn values(r: &DecodedRecord, format: OutputFormat) -> anyhow::Result<String> {
    values_output("USER-SUPPLIED VALUES:", r.release.config(), format)
}

/// `helm get values --all`: CoalesceValues(stored chart, config).
pub fn all_values(r: &DecodedRecord, format: OutputFormat) -> anyhow::Result<(String, Vec<String>)> {
    // Without subcharts coalescing cannot fail.
    let (merged, rec) = stored_values(&r.release, StoredNumbers::KeepIntegers).unwrap_or_default();
    Ok((values_output("COMPUTED VALUES:", Some(&map_to_json(&merged)), format)?, rec.warnings))
}

fn masked(text: &str, mask: bool) -> String {
    if mask { manifest::mask_secrets(text) } else { text.to_string() }
}

fn object_identity(doc: &str) -> Value {
    let parsed: Value = serde_saphyr::from_str(doc).unwrap_or(Value::Null);
    json!({
        "apiVersion": parsed.get("apiVersion"),
        "kind": parsed.get("kind"),
        "name": parsed.pointer("/metadata/name"),
        "namespace": parsed.pointer("/metadata/namespace"),
    })
}

pub fn manifest(r: &DecodedRecord, format: OutputFormat, mask: bool) -> anyhow::Result<String> {
    let text = masked(r.release.manifest(), mask);
    if format == OutputFormat::Text {
        return Ok(text);
    }
    let docs: Vec<Value> = manifest::split_with_sources(&text)
        .into_iter()
        .map(|(source, doc)| {
            let mut v = object_identity(doc);
            v["source"] = Value::String(source);
            v["manifest"] = Value::String(doc.to_string());
            v
        })
        .collect();
    serialize(&docs, format)
}

pub fn hooks(r: &DecodedRecord, format: OutputFormat, mask: bool, theme: &Theme) -> anyhow::Result<String> {
    let hooks = r.release.hooks();
    if format != OutputFormat::Text {
        let list: Vec<Value> = hooks
            .iter()
            .map(|h| {
                json!({
                    "name": h.name,
                    "kind": h.kind,
                    // The template a hook came from is `source` in every command's JSON (Helm's record calls it `path`).
                    "source": h.path,
                    "events": h.events,
                    "weight": h.weight,
                    "delete_policies": h.delete_policies,
                    "output_log_policies": h.output_log_policies,
                    "last_run": h.last_run,
                    "manifest": masked(h.manifest, mask),
                })
            })
            .collect();
        return serialize(&list, format);
    }
    let mut out = String::new();
    for h in &hooks {
        let last_run = h
            .last_run
            .and_then(|l| l.get("phase"))
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .map_or_else(|| "never run".to_string(), |p| format!("last run {p}"));
        let policies = if h.delete_policies.is_empty() { "none".to_string() } else { h.delete_policies.join(",") };
        out.push_str(&theme.dim(&format!(
            "# {} {} | events: {} | weight: {} | delete policies: {} | {last_run}",
            h.kind,
            h.name,
            h.events.join(","),
            h.weight,
            policies
        )));
        // The same layout as `helm get hooks`.
        out.push_str(&format!("\n---\n# Source: {}\n{}\n", h.path, masked(h.manifest, mask)));
    }
    Ok(out)
}

pub fn notes(r: &DecodedRecord, format: OutputFormat) -> anyhow::Result<String> {
    match format {
        OutputFormat::Text => {
            let n = r.release.notes();
            Ok(if n.is_empty() || n.ends_with('\n') { n.to_string() } else { format!("{n}\n") })
        }
        f => serialize(&json!({"notes": r.release.notes()}), f),
    }
}

fn decoded_len(b64: &str) -> usize {
    let len = b64.len() / 4 * 3;
    len - b64.bytes().rev().take_while(|b| *b == b'=').count()
}

pub fn chart(r: &DecodedRecord, format: OutputFormat, theme: &Theme) -> anyhow::Result<String> {
    let rel = &r.release;
    let list = |files: Vec<crate::release::record::ChartFile<'_>>| -> Vec<Value> {
        files.iter().map(|f| json!({"name": f.name, "bytes": decoded_len(f.data_base64)})).collect()
    };
    let templates = list(rel.chart_templates());
    let files = list(rel.chart_files());
    let metadata = rel.chart_metadata().cloned().map(Value::Object).unwrap_or(Value::Null);
    let schema_bytes = rel.chart_schema_base64().map(decoded_len);
    if format != OutputFormat::Text {
        let v = json!({
            "metadata": metadata,
            "lock": rel.raw().pointer("/chart/lock"),
            "templates": templates,
            "files": files,
            "values_keys": rel.chart_values().map_or(0, Map::len),
            "schema_bytes": schema_bytes,
        });
        return serialize(&v, format);
    }
    let m = |k: &str| metadata.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut out = String::new();
    for (label, key) in [("NAME", "name"), ("VERSION", "version"), ("APP VERSION", "appVersion"), ("API VERSION", "apiVersion"), ("TYPE", "type"), ("DESCRIPTION", "description"), ("KUBE VERSION", "kubeVersion")] {
        let v = m(key);
        if !v.is_empty() {
            out.push_str(&format!("{} {v}\n", theme.heading(&format!("{label}:"))));
        }
    }
    let deps: Vec<&Value> = metadata.get("dependencies").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
    if !deps.is_empty() {
        out.push_str(&format!("\n{}\n", theme.heading("DEPENDENCIES (as Helm processed them: disabled ones removed, aliases applied):")));
        let s = |d: &Value, k: &str| d.get(k).map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).unwrap_or_default();
        let rows: Vec<Vec<(String, String)>> = deps
            .iter()
            .map(|d| {
                ["name", "version", "repository", "condition", "alias", "enabled"].iter().map(|k| (s(d, k), s(d, k))).collect()
            })
            .collect();
        out.push_str(&table(&["NAME", "VERSION", "REPOSITORY", "CONDITION", "ALIAS", "ENABLED"], &rows, theme));
    }
    for (title, items) in [("TEMPLATES", &templates), ("FILES", &files)] {
        out.push_str(&format!("\n{}\n", theme.heading(&format!("{title} ({}):", items.len()))));
        let width = items.iter().map(|f| f["name"].as_str().unwrap_or("").chars().count()).max().unwrap_or(0);
        for f in items.iter() {
            let name = f["name"].as_str().unwrap_or("");
            let bytes = f["bytes"].as_u64().unwrap_or(0) as usize;
            let pad = " ".repeat(width - name.chars().count() + 2);
            out.push_str(&format!("  {name}{pad}{}\n", theme.dim(&human_bytes(bytes))));
        }
    }
    out.push_str(&format!(
        "\n{} {} top-level keys\n{} {}\n",
        theme.heading("VALUES:"),
        rel.chart_values().map_or(0, Map::len),
        theme.heading("SCHEMA:"),
        schema_bytes.map_or_else(|| "none".to_string(), |b| format!("values.schema.json, {}", human_bytes(b)))
    ));
    Ok(out)
}

/// One template or file of the stored chart, decoded. `name` matches the full
/// path or, when unambiguous, its end (`deployment.yaml`).
pub fn template(r: &DecodedRecord, name: &str) -> anyhow::Result<String> {
    let mut all = r.release.chart_templates();
    all.extend(r.release.chart_files());
    let exact: Vec<_> = all.iter().filter(|f| f.name == name).collect();
    let found: Vec<_> = if exact.is_empty() {
        all.iter().filter(|f| f.name.ends_with(&format!("/{name}"))).collect()
    } else {
        exact
    };
    match found.as_slice() {
        [one] => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(one.data_base64)
                .with_context(|| format!("template {} in the record is not valid base64", one.name))?;
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
        [] => bail!(
            "the stored chart has no template or file {name:?}; it has: {}",
            all.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
        ),
        many => bail!("{name:?} matches several: {}; give the full path", many.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")),
    }
}

/// The whole record, with Secret data in its manifests masked when `mask`.
pub fn record_value(r: DecodedRecord, mask: bool) -> Value {
    let mut raw = r.release.into_raw();
    if mask {
        if let Some(Value::String(m)) = raw.get_mut("manifest") {
            *m = manifest::mask_secrets(m);
        }
        if let Some(Value::Array(hooks)) = raw.get_mut("hooks") {
            for h in hooks {
                if let Some(Value::String(m)) = h.get_mut("manifest") {
                    *m = manifest::mask_secrets(m);
                }
            }
        }
    }
    raw
}

pub fn size(r: &DecodedRecord, format: OutputFormat, theme: &Theme) -> anyhow::Result<String> {
    let report = size_report(r);
    if format != OutputFormat::Text {
        return serialize(&report, format);
    }
    let used = format!("{:.1}%", report.limit_used);
    let used = if report.limit_used >= 90.0 { theme.bad(&used) } else if report.limit_used >= 50.0 { theme.warn(&used) } else { used };
    let mut out = format!(
        "{} {} stored in the object ({used} of Kubernetes' 1 MiB limit), {} compressed, {} JSON\n\n",
        theme.heading("RECORD:"),
        human_bytes(report.stored_bytes),
        human_bytes(report.compressed_bytes),
        human_bytes(report.json_bytes),
    );
    let rows = |parts: &[crate::release::size::SizePart]| -> Vec<Vec<(String, String)>> {
        parts
            .iter()
            .map(|p| {
                let cells = [p.part.clone(), human_bytes(p.json_bytes), format!("{:.1}%", p.share), if p.gzip_alone_bytes == 0 { "-".into() } else { human_bytes(p.gzip_alone_bytes) }];
                cells.into_iter().map(|c| (c.clone(), c)).collect()
            })
            .collect()
    };
    out.push_str(&table(&["PART", "JSON", "SHARE", "GZIP ALONE"], &rows(&report.parts), theme));
    out.push_str(&format!("\n{}\n", theme.heading("LARGEST ITEMS:")));
    out.push_str(&table(&["ITEM", "JSON", "SHARE", "GZIP ALONE"], &rows(&report.largest), theme));
    Ok(out)
}

pub fn history_table(rows: &[HistoryRow], theme: &Theme) -> String {
    let cells: Vec<Vec<(String, String)>> = rows
        .iter()
        .map(|r| {
            let plain = |s: String| (s.clone(), s);
            vec![
                plain(r.revision.to_string()),
                plain(r.updated.clone().unwrap_or_else(|| "-".into())),
                (r.status.as_str().to_string(), status_styled(r.status, theme)),
                plain(r.chart.clone()),
                plain(r.app_version.clone()),
                plain(r.apply_method.to_string()),
                // Failure descriptions can span lines; a table row cannot.
                plain(r.description.split_whitespace().collect::<Vec<_>>().join(" ")),
            ]
        })
        .collect();
    table(&["REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION", "APPLY", "DESCRIPTION"], &cells, theme)
}
