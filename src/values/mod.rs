//! Helm values: coalescing (chart defaults under user values) and Go's
//! formatting of values in Helm's messages.

pub mod coalesce;
pub mod dependencies;
pub mod explain;
pub mod gofmt;
pub mod path;
pub mod strvals;
pub mod tree;
pub mod user;
pub mod yaml;

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
