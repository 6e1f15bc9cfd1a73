//! Where the bytes of a record go, against Kubernetes' object size limit.

use std::io::Write;

use serde_json::Value;

use super::DecodedRecord;

/// Kubernetes refuses a Secret or ConfigMap whose data exceeds 1 MiB
/// (k8s.io/api core/v1 MaxSecretSize; ConfigMaps share the limit).
pub const OBJECT_DATA_LIMIT: usize = 1024 * 1024;

#[derive(Debug, Clone, serde::Serialize)]
pub struct SizePart {
    pub part: String,
    /// Bytes of this part in the record's JSON.
    pub json_bytes: usize,
    /// Share of the record's JSON, in percent.
    pub share: f64,
    /// This part gzipped alone at Helm's level: an estimate of what it costs in storage.
    pub gzip_alone_bytes: usize,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct SizeReport {
    /// Bytes the storage object holds (Helm's base64 text).
    pub stored_bytes: usize,
    pub compressed_bytes: usize,
    pub json_bytes: usize,
    pub limit_bytes: usize,
    /// `stored_bytes` as a percentage of the limit.
    pub limit_used: f64,
    pub parts: Vec<SizePart>,
    /// The largest single items (templates, files, hooks, manifest documents).
    pub largest: Vec<SizePart>,
}

fn json_len(v: &Value) -> usize {
    serde_json::to_vec(v).map(|b| b.len()).unwrap_or(0)
}

fn gzip_len(v: &Value) -> usize {
    let Ok(bytes) = serde_json::to_vec(v) else { return 0 };
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    if enc.write_all(&bytes).is_err() {
        return 0;
    }
    enc.finish().map(|b| b.len()).unwrap_or(0)
}

fn part(name: String, v: &Value, total: usize) -> SizePart {
    let json_bytes = json_len(v);
    SizePart { part: name, json_bytes, share: percent(json_bytes, total), gzip_alone_bytes: gzip_len(v) }
}

fn percent(n: usize, total: usize) -> f64 {
    if total == 0 { 0.0 } else { (n as f64 * 1000.0 / total as f64).round() / 10.0 }
}

pub fn size_report(record: &DecodedRecord) -> SizeReport {
    let raw = record.release.raw();
    let total = record.stats.json_bytes;
    let mut parts = Vec::new();
    let mut largest = Vec::new();
    let empty = Value::Null;
    let chart = raw.get("chart").unwrap_or(&empty);
    for key in ["templates", "files"] {
        let v = chart.get(key).unwrap_or(&empty);
        parts.push(part(format!("chart.{key}"), v, total));
        for f in v.as_array().into_iter().flatten() {
            let name = f.get("name").and_then(Value::as_str).unwrap_or("?");
            largest.push(part(format!("chart.{key}: {name}"), f, total));
        }
    }
    for key in ["values", "schema", "metadata", "lock"] {
        parts.push(part(format!("chart.{key}"), chart.get(key).unwrap_or(&empty), total));
    }
    for key in ["config", "manifest", "hooks", "info"] {
        parts.push(part(key.to_string(), raw.get(key).unwrap_or(&empty), total));
    }
    for h in raw.get("hooks").and_then(Value::as_array).into_iter().flatten() {
        let name = h.get("path").or_else(|| h.get("name")).and_then(Value::as_str).unwrap_or("?");
        largest.push(part(format!("hook: {name}"), h, total));
    }
    for (source, doc) in crate::manifest::split_with_sources(record.release.manifest()) {
        largest.push(part(format!("manifest: {source}"), &Value::String(doc.to_string()), total));
    }
    let accounted: usize = parts.iter().map(|p| p.json_bytes).sum();
    parts.push(SizePart {
        part: "other (keys, punctuation, unknown fields)".into(),
        json_bytes: total.saturating_sub(accounted),
        share: percent(total.saturating_sub(accounted), total),
        gzip_alone_bytes: 0,
    });
    parts.sort_by_key(|p| std::cmp::Reverse(p.json_bytes));
    largest.sort_by_key(|p| std::cmp::Reverse(p.json_bytes));
    largest.truncate(10);
    SizeReport {
        stored_bytes: record.stats.stored_bytes,
        compressed_bytes: record.stats.compressed_bytes,
        json_bytes: total,
        limit_bytes: OBJECT_DATA_LIMIT,
        limit_used: percent(record.stats.stored_bytes, OBJECT_DATA_LIMIT),
        parts,
        largest,
    }
}
