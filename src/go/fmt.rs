//! Go's `%v` rendering of JSON-decoded values, used verbatim in Helm's
//! messages (maps as `map[k:v]` with sorted keys, nil as `<nil>`, float64 in
//! `%g` shortest form). The crate's one implementation of float64 `%v`.

use serde_json::Value;

/// Go's `%v` of a JSON-decoded value (every number a float64).
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
    // Rust's `{:e}` gives the shortest round-trip digits, as Go's -1 precision does.
    go_g_shortest(&format!("{f:e}"))
}

/// Turns Rust's shortest `{:e}` form (`-1.2345e6`, of an f64 or an f32)
/// into Go's shortest `%g`.
pub fn go_g_shortest(e: &str) -> String {
    let (neg, body) = match e.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, e),
    };
    // `e` is always Rust's `{:e}` output, so both parts are there.
    let (mant, exp) = body.split_once('e').unwrap_or((body, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let nd = digits.len() as i32;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push('0');
        }
        out.push_str(&a.to_string());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            out.push_str(&digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_go_percent_v() {
        assert_eq!(go_float(3.0), "3");
        assert_eq!(go_float(2.75), "2.75");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(-2.5e-7), "-2.5e-07");
        assert_eq!(go_float(1000000.0), "1e+06");
        assert_eq!(go_float(123456.0), "123456");
        assert_eq!(go_float(1234567.0), "1.234567e+06");
        assert_eq!(go_float(0.00001), "1e-05");
        assert_eq!(go_float(f64::INFINITY), "+Inf");
        assert_eq!(go_v(&serde_json::json!({"b": 1, "a": [true, "x"], "n": null})), "map[a:[true x] b:1 n:<nil>]");
    }
}
