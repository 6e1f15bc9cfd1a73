//! Helm's coalescing of a chart's default values under user values, for a
//! chart without subcharts (a stored release's chart has none: Helm stores
//! the dependency-processed chart). Helm v4.2.3 rules.
//! helm: pkg/chart/common/util/coalesce.go coalesceValues, coalesceTablesFullKey

use serde_json::{Map, Value};

use super::gofmt::go_v;

/// `CoalesceValues(chart, user)` for a chart named `chart_name` with defaults
/// `chart_values` and no subcharts. Returns the values and Helm's warnings.
pub fn coalesce_values(chart_name: &str, chart_values: &Map<String, Value>, user: &Map<String, Value>) -> (Map<String, Value>, Vec<String>) {
    let mut out = user.clone();
    let mut warnings = Vec::new();
    coalesce_chart_level(chart_name, chart_values, &mut out, false, &mut warnings);
    (out, warnings)
}

fn coalesce_chart_level(
    prefix: &str,
    chart_values: &Map<String, Value>,
    v: &mut Map<String, Value>,
    merge: bool,
    warnings: &mut Vec<String>,
) {
    for (key, cv) in chart_values {
        let mut cv = cv.clone();
        match v.get_mut(key) {
            Some(Value::Null) if !merge => {
                // A user null deletes the key, whatever the chart had.
                v.remove(key);
            }
            Some(Value::Object(uv)) => match &mut cv {
                Value::Object(src) => {
                    if !merge {
                        clean_nils(src);
                    }
                    let src = std::mem::take(src);
                    coalesce_tables(uv, src, &format!("{prefix}.{key}"), merge, warnings);
                }
                Value::Null => {}
                _ => warnings.push(format!("warning: skipped value for {prefix}.{key}: Not a table.")),
            },
            // A user scalar or list replaces the chart value silently.
            Some(_) => {}
            None => {
                if !merge {
                    if cv.is_null() {
                        continue;
                    }
                    if let Value::Object(m) = &mut cv {
                        clean_nils(m);
                    }
                }
                v.insert(key.clone(), cv);
            }
        }
    }
}

/// `coalesceTablesFullKey(dst, src)`: `dst` wins; maps merge recursively.
pub fn coalesce_tables(
    dst: &mut Map<String, Value>,
    mut src: Map<String, Value>,
    prefix: &str,
    merge: bool,
    warnings: &mut Vec<String>,
) {
    let src_non_nil: std::collections::HashSet<String> =
        src.iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k.clone()).collect();
    // Helm writes the dst nils into src before merging (it mutates src).
    for (k, v) in dst.iter() {
        if v.is_null() {
            src.insert(k.clone(), Value::Null);
        }
    }
    for (key, sv) in src {
        let full = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match dst.get_mut(&key) {
            Some(Value::Null) if !merge && src_non_nil.contains(&key) => {
                dst.remove(&key);
            }
            None => {
                dst.insert(key, sv);
            }
            Some(dv) => match (dv, sv) {
                (Value::Object(dm), Value::Object(sm)) => coalesce_tables(dm, sm, &full, merge, warnings),
                (_, sv @ Value::Object(_)) => {
                    warnings.push(format!("warning: cannot overwrite table with non table for {full} ({})", go_v(&sv)));
                }
                (Value::Object(_), sv) if !sv.is_null() => {
                    warnings.push(format!("warning: destination for {full} is a table. Ignoring non-table value ({})", go_v(&sv)));
                }
                _ => {}
            },
        }
    }
}

/// Removes nulls from chart defaults, recursively (v4.2: they must not leak).
fn clean_nils(m: &mut Map<String, Value>) {
    m.retain(|_, v| !v.is_null());
    for v in m.values_mut() {
        if let Value::Object(sub) = v {
            clean_nils(sub);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    fn co(chart: Value, user: Value) -> (Value, Vec<String>) {
        let (m, w) = coalesce_values("parent", &map(chart), &map(user));
        (crate::values::sorted(&Value::Object(m)), w)
    }

    // Expected results below were produced by Helm v4.2.3 (the oracle's `values`).
    #[test]
    fn chart_default_nulls_are_dropped_and_user_nulls_delete() {
        let (v, _) = co(json!({"a": null, "t": {"x": null, "y": 1}, "keep": 1}), json!({"t": {"y": 2}, "keep": null}));
        assert_eq!(v, json!({"t": {"y": 2}}));
    }

    #[test]
    fn user_null_for_unknown_key_survives() {
        let (v, _) = co(json!({"a": 1}), json!({"z": null, "t": {"q": null}}));
        assert_eq!(v, json!({"a": 1, "t": {"q": null}, "z": null}));
    }

    #[test]
    fn user_map_over_chart_scalar_warns_with_helms_text() {
        let (v, w) = co(json!({"port": 80}), json!({"port": {"x": 1}}));
        assert_eq!(v, json!({"port": {"x": 1}}));
        assert_eq!(w, vec!["warning: skipped value for parent.port: Not a table."]);
    }

    #[test]
    fn user_scalar_over_chart_map_is_silent_and_nested_conflicts_warn() {
        let (v, w) = co(json!({"a": {"b": 1}, "t": {"m": {"k": 1}, "s": 2}}), json!({"a": 5, "t": {"m": 3, "s": {"z": 1}}}));
        assert_eq!(v, json!({"a": 5, "t": {"m": 3, "s": {"z": 1}}}));
        assert_eq!(
            w,
            vec![
                "warning: cannot overwrite table with non table for parent.t.m (map[k:1])",
                "warning: destination for parent.t.s is a table. Ignoring non-table value (2)"
            ]
        );
    }

    #[test]
    fn lists_are_replaced_not_merged() {
        let (v, _) = co(json!({"l": [1, 2, 3]}), json!({"l": [9]}));
        assert_eq!(v, json!({"l": [9]}));
    }
}
