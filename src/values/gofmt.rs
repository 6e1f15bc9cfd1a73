//! Go's `%v` rendering of JSON-decoded values, used verbatim in Helm's
//! coalescing warnings (maps as `map[k:v]` with sorted keys, nil as `<nil>`,
//! float64 in `%g` shortest form).

use serde_json::Value;

pub fn go_v(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        // JSON-decoded numbers are float64 in Go, integers included.
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), go_float),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let body: Vec<String> = keys.into_iter().map(|k| format!("{k}:{}", go_v(&m[k]))).collect();
            format!("map[{}]", body.join(" "))
        }
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` as `%v` uses it: shortest
/// digits, exponent form when the exponent is < -4 or >= 6 (strconv uses
/// precision 6 for that decision when the precision is shortest).
pub fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits, as Go's -1 precision does.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_like_go_percent_v() {
        assert_eq!(go_v(&json!(null)), "<nil>");
        assert_eq!(go_v(&json!(3)), "3");
        assert_eq!(go_v(&json!(2.75)), "2.75");
        assert_eq!(go_v(&json!(1e21)), "1e+21");
        assert_eq!(go_v(&json!(-2.5e-7)), "-2.5e-07");
        assert_eq!(go_v(&json!(1000000.0)), "1e+06");
        assert_eq!(go_v(&json!(123456)), "123456");
        assert_eq!(go_v(&json!(1234567)), "1.234567e+06");
        assert_eq!(go_v(&json!(0.00001)), "1e-05");
        assert_eq!(go_v(&json!({"b": 1, "a": [true, "x"]})), "map[a:[true x] b:1]");
    }
}
