//! The Go view of a [`Value`]: the dynamic type the strategic code sees
//! (`reflect.TypeOf`), `reflect.DeepEqual`, `==` on interface values, and the
//! `fmt` spellings (`%v`, `%s`) the algorithm sorts and keys by.
//!
//! Numbers: apimachinery's JSON decoder makes an integer that fits an int64
//! an `int64` and every other number a `float64`. So a serde_json integer in
//! the i64 range is an int64, and a float or an integer beyond it (a `u64`
//! above `i64::MAX`) is a float64 — and int64(1) and float64(1) are
//! different types, never equal.

use crate::go::fmt::go_v_with;
use crate::go::json::{GoNumbers, format_go_float64_g, go_float64};
use serde_json::{Map, Number, Value};

/// `reflect.TypeOf(v)` of a decoded JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GoKind {
    Nil,
    Bool,
    Int64,
    Float64,
    String,
    Slice,
    Map,
}

/// A number as Go holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum GoNum {
    Int(i64),
    Float(f64),
}

pub(crate) fn go_num(n: &Number) -> GoNum {
    match n.as_i64() {
        Some(i) => GoNum::Int(i),
        None => GoNum::Float(go_float64(n)),
    }
}

pub(crate) fn go_kind(v: &Value) -> GoKind {
    match v {
        Value::Null => GoKind::Nil,
        Value::Bool(_) => GoKind::Bool,
        Value::Number(n) => match go_num(n) {
            GoNum::Int(_) => GoKind::Int64,
            GoNum::Float(_) => GoKind::Float64,
        },
        Value::String(_) => GoKind::String,
        Value::Array(_) => GoKind::Slice,
        Value::Object(_) => GoKind::Map,
    }
}

/// `reflect.TypeOf(v).String()` (`%!s(<nil>)` for nil, as `%s` prints a
/// nil `reflect.Type`).
pub(crate) fn go_type_name(v: &Value) -> &'static str {
    match go_kind(v) {
        GoKind::Nil => "%!s(<nil>)",
        GoKind::Bool => "bool",
        GoKind::Int64 => "int64",
        GoKind::Float64 => "float64",
        GoKind::String => "string",
        GoKind::Slice => "[]interface {}",
        GoKind::Map => "map[string]interface {}",
    }
}

/// `reflect.DeepEqual` of two decoded JSON values.
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => go_num(x) == go_num(y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q)),
        (Value::Object(x), Value::Object(y)) => deep_equal_maps(x, y),
        _ => false,
    }
}

pub(crate) fn deep_equal_maps(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w)))
}

/// `a == b` on two `interface{}` values: same dynamic type and equal value.
/// Go panics when both hold a map or a slice (uncomparable); this returns
/// `false` then.
pub(crate) fn go_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => go_num(x) == go_num(y),
        (Value::String(x), Value::String(y)) => x == y,
        _ => false,
    }
}

/// `a == b` where `a` may be absent (Go's zero `interface{}` = nil).
pub(crate) fn go_eq_opt(a: Option<&Value>, b: Option<&Value>) -> bool {
    const NIL: Value = Value::Null;
    go_eq(a.unwrap_or(&NIL), b.unwrap_or(&NIL))
}

/// `fmt.Sprintf("%v", v)`.
pub(crate) fn fmt_v(v: &Value) -> String {
    go_v_with(v, GoNumbers::Int64OrFloat64)
}

/// `fmt.Sprintf("%v", v)` where `v` may be absent (nil).
pub(crate) fn fmt_v_opt(v: Option<&Value>) -> String {
    match v {
        Some(v) => fmt_v(v),
        None => "<nil>".to_owned(),
    }
}

/// `fmt.Sprintf("%s", v)`: strings as they are, other values wrapped in
/// `%!s(type=value)`.
pub(crate) fn fmt_s(v: &Value) -> String {
    match v {
        Value::Null => "%!s(<nil>)".to_owned(),
        Value::Bool(b) => format!("%!s(bool={b})"),
        Value::Number(n) => match go_num(n) {
            GoNum::Int(i) => format!("%!s(int64={i})"),
            GoNum::Float(f) => format!("%!s(float64={})", format_go_float64_g(f).unwrap_or_default()),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => format!("[{}]", items.iter().map(fmt_s).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let parts: Vec<String> = entries.into_iter().map(|(k, v)| format!("{k}:{}", fmt_s(v))).collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn int_and_float_are_different_go_types() {
        let one_int = json!(1);
        let one_float: Value = serde_json::from_str("1.0").unwrap();
        assert_ne!(go_kind(&one_int), go_kind(&one_float));
        assert!(!deep_equal(&one_int, &one_float));
        assert!(!go_eq(&one_int, &one_float));
        assert!(deep_equal(&one_float, &serde_json::from_str("1e0").unwrap()));
    }

    #[test]
    fn integers_beyond_int64_are_float64() {
        let big: Value = serde_json::from_str("12345678901234567890").unwrap();
        assert_eq!(go_kind(&big), GoKind::Float64);
        assert_eq!(go_kind(&json!(i64::MAX)), GoKind::Int64);
        assert!(deep_equal(&big, &serde_json::from_str("1.2345678901234567e19").unwrap()));
    }

    #[test]
    fn deep_equal_ignores_key_order_but_not_list_order() {
        assert!(deep_equal(&json!({"a": 1, "b": [1, 2]}), &json!({"b": [1, 2], "a": 1})));
        assert!(!deep_equal(&json!([1, 2]), &json!([2, 1])));
    }

    #[test]
    fn fmt_v_and_fmt_s_spell_values_like_go() {
        assert_eq!(fmt_v(&json!(1)), "1");
        assert_eq!(fmt_v(&json!("1")), "1");
        assert_eq!(fmt_v(&Value::Null), "<nil>");
        assert_eq!(fmt_v(&json!({"b": 1, "a": [true, "x"]})), "map[a:[true x] b:1]");
        assert_eq!(fmt_v(&serde_json::from_str("1000000.0").unwrap()), "1e+06");
        assert_eq!(fmt_s(&json!("x")), "x");
        assert_eq!(fmt_s(&json!(5)), "%!s(int64=5)");
        assert_eq!(fmt_s(&json!(true)), "%!s(bool=true)");
        assert_eq!(fmt_s(&Value::Null), "%!s(<nil>)");
    }
}
