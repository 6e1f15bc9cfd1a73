//! Structured-merge-diff's view of JSON values (`value.Compare`,
//! `value.ToString`): list keys and set items order, compare and print as
//! SMD does, numbers by value whether Go decoded them as ints or float64s.
//! Path elements and conflict detection both compare through these.

use crate::go::json::format_go_float64_g;
use crate::go::quote::quote as go_quote;
use serde_json::{Number, Value};
use std::cmp::Ordering;

/// SMD `value.Compare`: numbers (compared numerically, ints and floats alike)
/// < strings < bools < lists < maps < null.
pub(super) fn smd_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => num_cmp(x, y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let c = smd_cmp(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            // Maps compare by their sorted entries, shorter first on a tie.
            let mut xs: Vec<_> = x.iter().collect();
            let mut ys: Vec<_> = y.iter().collect();
            xs.sort_by(|p, q| p.0.cmp(q.0));
            ys.sort_by(|p, q| p.0.cmp(q.0));
            for ((kx, vx), (ky, vy)) in xs.iter().zip(ys.iter()) {
                let c = kx.as_bytes().cmp(ky.as_bytes()).then_with(|| smd_cmp(vx, vy));
                if c != Ordering::Equal {
                    return c;
                }
            }
            xs.len().cmp(&ys.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

fn num_cmp(x: &Number, y: &Number) -> Ordering {
    match (x.as_i64(), y.as_i64()) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => {
            let a = x.as_f64().unwrap_or(f64::NAN);
            let b = y.as_f64().unwrap_or(f64::NAN);
            a.partial_cmp(&b).unwrap_or(Ordering::Equal)
        }
    }
}

/// SMD value equality (numbers numerically, so the float64 `80` Go decodes
/// from `fieldsV1` equals the int `80` of an object).
pub(super) fn smd_eq(a: &Value, b: &Value) -> bool {
    smd_cmp(a, b) == Ordering::Equal
}

/// SMD `value.ToString`: floats and ints with `%v`, strings with `%q`.
pub(super) fn smd_to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_f64() {
                n.as_f64().and_then(format_go_float64_g).unwrap_or_else(|| n.to_string())
            } else {
                n.to_string()
            }
        }
        Value::String(s) => go_quote(s),
        Value::Array(items) => format!("[{}]", items.iter().map(smd_to_string).collect::<Vec<_>>().join(",")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().filter_map(|k| m.get(*k).map(|v| format!("{k}={}", smd_to_string(v)))).collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}

/// Numbers as Go's JSON decoder gives them to SMD: float64.
pub(super) fn as_go_decoded(v: Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().and_then(Number::from_f64).map(Value::Number).unwrap_or(Value::Number(n)),
        Value::Array(items) => Value::Array(items.into_iter().map(as_go_decoded).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, as_go_decoded(v))).collect()),
        other => other,
    }
}
