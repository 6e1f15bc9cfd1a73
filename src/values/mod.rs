//! Helm values: coalescing (chart defaults under user values) and Go's
//! formatting of values in Helm's messages.

pub mod coalesce;
pub mod dependencies;
pub mod semver;
pub mod source;
pub mod strvals;
pub mod tree;
pub mod user;

use serde_json::{Map, Value};

/// Helm prints values through Go maps, whose keys come out sorted; this
/// orders a tree the same way for output.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::with_capacity(m.len());
            for k in keys {
                out.insert(k.clone(), sorted(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Equal as Go sees decoded JSON: every number a float64, so `1` equals
/// `1.0` (a stored config, an API server's answer and a manifest may spell
/// the same number differently).
pub fn same_as_float64(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_as_float64(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_as_float64(v, w))),
        _ => a == b,
    }
}
