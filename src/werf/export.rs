//! werf's `export-values` (a nelm extension of Chart.yaml dependencies):
//! the parent hands part of its computed values down to a subchart, over the
//! subchart's own values and over the parent's `<child>:` section.
//! Forms: `{parent: P, child: C}` (C `.` or empty = the child's root) and a
//! string `X` = `{parent: exports.X, child: .}`.
//! nelm: pkg/helm/pkg/chartutil/dependencies.go (processExportValues).

use std::rc::Rc;

use serde_json::Value;

use crate::values::path::Path;
use crate::values::tree::{Kind, Source, V, VMap, get};

/// One `export-values` entry of a dependency, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRule {
    /// The subchart's key in the parent's values (alias, else name).
    pub dependency: String,
    /// Dotted path in the parent's values; never empty.
    pub parent: String,
    /// Dotted path in the child's values; empty = the child's root.
    pub child: String,
}

/// The rules of a Chart.yaml, in order, and warnings for entries nelm skips.
pub fn rules(chart_yaml: &str) -> Result<(Vec<ExportRule>, Vec<String>), String> {
    let doc: Value = serde_saphyr::from_str(chart_yaml).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for dep in doc.get("dependencies").and_then(Value::as_array).into_iter().flatten() {
        let name = dep.get("alias").and_then(Value::as_str).filter(|a| !a.is_empty()).or_else(|| dep.get("name").and_then(Value::as_str));
        let Some(name) = name else { continue };
        for item in dep.get("export-values").and_then(Value::as_array).into_iter().flatten() {
            let (parent, child) = match item {
                Value::String(x) if x.is_empty() || x == "." => ("exports".to_string(), String::new()),
                Value::String(x) => (format!("exports.{x}"), String::new()),
                Value::Object(m) => {
                    let text = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    let child = text("child");
                    (text("parent"), if child == "." { String::new() } else { child })
                }
                other => {
                    warnings.push(format!("{name}: export-values entry {other} is neither a string nor a map; skipped"));
                    continue;
                }
            };
            if parent.is_empty() || parent == "." {
                warnings.push(format!("{name}: export-values: parent may not be empty or \".\"; entry skipped"));
                continue;
            }
            out.push(ExportRule { dependency: name.to_string(), parent, child });
        }
    }
    Ok((out, warnings))
}

/// The overlay the rules make from the parent's computed `values`: a map
/// `{<dependency>: {<child path>: value}}`, later rules winning, every
/// copied node attributed to `export-values`. Scalars cannot become a child's root (warned).
pub fn overlay(parent_chart: &str, rules: &[ExportRule], values: &VMap, warnings: &mut Vec<String>) -> VMap {
    let mut out = VMap::default();
    for r in rules {
        let Ok(from) = Path::parse(&r.parent) else { continue };
        let Some(found) = get(values, &from) else { continue };
        if r.child.is_empty() && !found.is_map() {
            warnings.push(format!("{}: export-values: {} is not a map and cannot be exported to the child's root; skipped", r.dependency, r.parent));
            continue;
        }
        let origin = Rc::new(Source::ExportValues {
            chart: parent_chart.to_string(),
            from: format!("{} -> {}{}{}", r.parent, r.dependency, if r.child.is_empty() { "" } else { "." }, r.child),
        });
        let mut node = restamp(found, &origin);
        // Build the child path from the leaf up.
        let mut keys: Vec<&str> = vec![r.dependency.as_str()];
        keys.extend(r.child.split('.').filter(|k| !k.is_empty()));
        for k in keys.iter().skip(1).rev() {
            let mut m = VMap::default();
            m.insert((*k).to_string(), node);
            node = V::new(Kind::Map(m), origin.clone());
        }
        let Kind::Map(add) = node.kind else {
            // A non-map at a named child path: wrap it under the dependency.
            let mut m = VMap::default();
            m.insert(r.dependency.clone(), node);
            merge_over(&mut out, m);
            continue;
        };
        let mut top = VMap::default();
        top.insert(r.dependency.clone(), V::new(Kind::Map(add), origin));
        merge_over(&mut out, top);
    }
    out
}

fn restamp(v: &V, origin: &Rc<Source>) -> V {
    let kind = match &v.kind {
        Kind::Map(m) => Kind::Map(m.iter().map(|(k, x)| (k.clone(), restamp(x, origin))).collect()),
        Kind::List(l) => Kind::List(l.iter().map(|x| restamp(x, origin)).collect()),
        other => other.clone(),
    };
    V::new(kind, origin.clone())
}

/// Maps merge, anything else replaces (later export entries win).
fn merge_over(dst: &mut VMap, src: VMap) {
    for (k, v) in src {
        match (dst.get_mut(&k), v) {
            (Some(V { kind: Kind::Map(d), .. }), V { kind: Kind::Map(s), .. }) => merge_over(d, s),
            (_, v) => {
                dst.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::{map_from_json, map_to_json};

    /// Conformance cases as data: Chart.yaml, the parent's values, the overlay expected.
    #[test]
    fn cases_from_data() {
        let cases: Vec<Value> = serde_json::from_str(include_str!("export_values_cases.json")).unwrap();
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let (rules, mut warnings) = rules(c["chart_yaml"].as_str().unwrap()).unwrap();
            let origin = Rc::new(Source::Helm { why: "t".into() });
            let values = map_from_json(c["parent_values"].as_object().unwrap(), true, &origin);
            let got = overlay("parent", &rules, &values, &mut warnings);
            assert_eq!(Value::Object(map_to_json(&got)), c["overlay"], "{name}");
            assert_eq!(warnings.len() as u64, c["warnings"].as_u64().unwrap(), "{name}: {warnings:?}");
        }
    }
}
