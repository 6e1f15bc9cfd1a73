//! werf's `export-values` (a nelm extension of Chart.yaml dependencies):
//! a parent hands part of its computed values down to a subchart.
//! Forms: `{parent: P, child: C}` (C `.` or empty = the child's root) and a
//! string `X` = `{parent: exports.X, child: ""}` (`""`/`.`: `exports`).
//! nelm: pkg/helm/pkg/chartutil/dependencies.go (parseExportValues,
//! getExportedValues); the processing order is in [`super::deps`].

use std::rc::Rc;

use serde_json::Value;

use crate::values::dependencies::{path_to_map, table};
use crate::keypath::Path;
use crate::values::source::copy_origin;
use crate::values::tree::{Kind, Origin, Recorder, Source, V, VMap};

/// The `export-values` of one Chart.yaml dependency entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DependencyExports {
    pub name: String,
    pub alias: Option<String>,
    /// (parent path, child path) pairs; child empty = the child's root.
    pub exports: Vec<(String, String)>,
}

/// The dependency entries of a Chart.yaml with their `export-values`, and
/// warnings for the entries nelm skips (it warns each time it meets them).
pub fn parse_chart_yaml(chart_yaml: &str) -> Result<(Vec<DependencyExports>, Vec<String>), String> {
    let doc: Value = serde_saphyr::from_str(chart_yaml).map_err(|e| e.to_string())?;
    let parent = doc.get("name").and_then(Value::as_str).unwrap_or("");
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for dep in doc.get("dependencies").and_then(Value::as_array).into_iter().flatten() {
        let text = |k: &str| dep.get(k).and_then(Value::as_str).map(str::to_string);
        let name = text("name").unwrap_or_default();
        let mut exports = Vec::new();
        for item in dep.get("export-values").and_then(Value::as_array).into_iter().flatten() {
            match parse_entry(item) {
                Ok(pair) => exports.push(pair),
                Err(e) => warnings.push(format!("Warning: invalid ExportValues defined in chart {parent:?} for its dependency {name:?}: {e}")),
            }
        }
        out.push(DependencyExports { name, alias: text("alias").filter(|a| !a.is_empty()), exports });
    }
    Ok((out, warnings))
}

/// nelm's `parseExportValues`.
pub fn parse_entry(item: &Value) -> Result<(String, String), String> {
    match item {
        Value::Object(m) => {
            let parent = m.get("parent").and_then(Value::as_str).ok_or("parent must be a string")?;
            let child = m.get("child").and_then(Value::as_str).ok_or("child must be a string")?;
            let (parent, child) = (parent.trim(), child.trim());
            if parent.is_empty() || parent == "." {
                return Err(format!("parent {parent:?} is not allowed"));
            }
            Ok((parent.to_string(), if child == "." { String::new() } else { child.to_string() }))
        }
        Value::String(s) => Ok((
            match s.trim() {
                "" | "." => "exports".to_string(),
                x => format!("exports.{x}"),
            },
            String::new(),
        )),
        _ => Err("invalid format of ExportValues".into()),
    }
}

/// nelm's `getExportedValues`: the map to lay over the child's values,
/// made from the parent's computed values `pvals`; later entries win. Every
/// copied node is attributed to `export-values`.
pub fn exported_values(parent_chart: &str, dependency: &str, exports: &[(String, String)], pvals: &VMap, rec: &mut Recorder) -> VMap {
    let mut b = VMap::default();
    for (parent, child) in exports {
        let origin: Origin = Rc::new(Source::ExportValues {
            chart: parent_chart.to_string(),
            from: format!("{parent} -> {dependency}{}{child}", if child.is_empty() { "" } else { "." }),
            secret: false,
        });
        let child_map = if let Some(vm) = table(pvals, parent) {
            let vm = restamp_map(vm, &origin);
            if child.is_empty() { vm } else { path_to_map(child, vm, &origin) }
        } else {
            let Some(value) = path_value(pvals, parent) else {
                rec.warn(format!(
                    "Warning: ExportValues defined in chart {parent_chart:?} for its dependency {dependency:?} can't get the parent path: no table or value at {parent}"
                ));
                continue;
            };
            if child.is_empty() {
                rec.warn(format!(
                    "Warning: in ExportValues defined in chart {parent_chart:?} for its dependency {dependency:?} you are trying to assign a primitive data type (string, int, etc) to the root of your dependent chart values. We will ignore this ExportValues, because this is most likely not what you want. Fix the ExportValues to hide this warning."
                ));
                continue;
            }
            let (path, last) = child.rsplit_once('.').unwrap_or(("", child));
            let mut m = VMap::default();
            m.insert(last.to_string(), restamp(value, &origin));
            if path.is_empty() { m } else { path_to_map(path, m, &origin) }
        };
        let mut merged = child_map;
        crate::values::coalesce::coalesce_tables(&mut merged, b, "", &Path::root(), true, rec);
        b = merged;
    }
    b
}

/// `Values.PathValue`: the value at a dotted path when it is not a table (nulls count).
pub fn path_value<'a>(vals: &'a VMap, dotted: &str) -> Option<&'a V> {
    let (parent, last) = match dotted.rsplit_once('.') {
        Some((p, l)) => (table(vals, p)?, l),
        None => (vals, dotted),
    };
    parent.get(last).filter(|v| !v.is_map())
}

/// Whether something (a table, a value, a null) sits at a dotted path.
pub fn present(vals: &VMap, dotted: &str) -> bool {
    table(vals, dotted).is_some() || path_value(vals, dotted).is_some()
}

/// A copy of `v` attributed to `origin`; a secret's value stays marked
/// secret ([`copy_origin`]).
pub fn restamp(v: &V, origin: &Origin) -> V {
    restamp_with(v, origin, &Rc::new(origin.as_secret()))
}

fn restamp_with(v: &V, origin: &Origin, secret_origin: &Origin) -> V {
    let kind = match &v.kind {
        Kind::Map(m) => Kind::Map(m.iter().map(|(k, x)| (k.clone(), restamp_with(x, origin, secret_origin))).collect()),
        Kind::List(l) => Kind::List(l.iter().map(|x| restamp_with(x, origin, secret_origin)).collect()),
        other => other.clone(),
    };
    V::new(kind, copy_origin(&v.origin, origin, secret_origin))
}

pub fn restamp_map(m: &VMap, origin: &Origin) -> VMap {
    let secret_origin = Rc::new(origin.as_secret());
    m.iter().map(|(k, x)| (k.clone(), restamp_with(x, origin, &secret_origin))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::{map_from_json, map_to_json};

    #[test]
    fn a_copied_secret_value_stays_secret_and_the_others_do_not() {
        let secret: Origin = Rc::new(Source::WerfSecretValues { file: "secret-values.yaml".into(), line: None, column: None, chart_default: true, env: None });
        let plain: Origin = Rc::new(Source::Helm { why: "t".into() });
        let mut m = VMap::default();
        m.insert("pw".into(), V::new(Kind::Str("hunter2".into()), secret));
        m.insert("user".into(), V::new(Kind::Str("app".into()), plain));
        let copy: Origin = Rc::new(Source::ExportValues { chart: "app".into(), from: "x -> db".into(), secret: false });
        let copied = restamp_map(&m, &copy);
        assert!(copied["pw"].origin.is_secret() && matches!(*copied["pw"].origin, Source::ExportValues { .. }));
        assert!(!copied["user"].origin.is_secret());
    }

    /// Cases as data: Chart.yaml, the parent's values, what each dependency is given.
    #[test]
    fn cases_from_data() {
        let cases: Vec<Value> = serde_json::from_str(include_str!("export_values_cases.json")).unwrap();
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let (deps, warnings) = parse_chart_yaml(c["chart_yaml"].as_str().unwrap()).unwrap();
            let origin = Rc::new(Source::Helm { why: "t".into() });
            let values = map_from_json(c["parent_values"].as_object().unwrap(), true, &origin);
            let mut rec = Recorder { warnings, ..Default::default() };
            let mut got = serde_json::Map::new();
            for d in &deps {
                let key = d.alias.clone().unwrap_or(d.name.clone());
                let ev = exported_values("parent", &key, &d.exports, &values, &mut rec);
                if !ev.is_empty() {
                    got.insert(key, Value::Object(map_to_json(&ev)));
                }
            }
            assert_eq!(Value::Object(got), c["overlay"], "{name}");
            assert_eq!(rec.warnings.len() as u64, c["warnings"].as_u64().unwrap(), "{name}: {:?}", rec.warnings);
        }
    }

    #[test]
    fn entries_parse_as_nelm_parses_them() {
        let p = |y: &str| parse_entry(&serde_saphyr::from_str::<Value>(y).unwrap());
        assert_eq!(p("{parent: ' a.b ', child: .}").unwrap(), ("a.b".into(), "".into()));
        assert_eq!(p("x").unwrap(), ("exports.x".into(), "".into()));
        assert_eq!(p("'.'").unwrap(), ("exports".into(), "".into()));
        assert_eq!(p("{parent: a}").unwrap_err(), "child must be a string");
        assert_eq!(p("{parent: ., child: x}").unwrap_err(), "parent \".\" is not allowed");
        assert_eq!(p("7").unwrap_err(), "invalid format of ExportValues");
    }
}
