//! Go's `encoding/json` output, byte for byte.
//!
//! [`to_go_json`] gives the bytes Go's `json.Marshal` writes for the Go value
//! a [`Value`] stands for: compact, object keys sorted bytewise (Go sorts map
//! keys), strings escaped the way Go escapes them (HTML-safe), numbers in Go's
//! integer or float64 spelling. Which Go type a number has depends on how the
//! Go side decoded it, so the mapping is a parameter ([`GoNumbers`]):
//!
//! - [`GoNumbers::Int64OrFloat64`] (the default, [`to_go_json`]): as
//!   `k8s.io/apimachinery/pkg/util/json` decodes, which is what the strategic
//!   merge patch code and `Unstructured` use: an integer that fits an int64 is
//!   an int64, any other number a float64.
//! - [`GoNumbers::Float64`] ([`to_go_json_float64`]): as `encoding/json`
//!   decodes into `interface{}` (evanphx/json-patch, the JSON merge patch):
//!   every number is a float64, so integers above 2^53 lose precision
//!   (`12345678901234567890` prints `12345678901234567000`) and values of
//!   1e21 and above print in exponent form (`1e+21`).
//!
//! A float64 prints like JavaScript: shortest round-trip digits, plain
//! notation, exponent form (`1e+21`, `1e-7`) only below 1e-6 or from 1e21.
//! An integral float64 therefore prints without a decimal point (`1.0` ->
//! `1`).
//!
//! Strings: `"` and `\` are backslash-escaped; `\b`, `\f`, `\n`, `\r`, `\t`
//! use their short escapes (Go 1.22 and later; earlier Go wrote `\u0008` and
//! `\u000c`); every other control character (< 0x20) is `\u00XX` with
//! lowercase hex; `<`, `>`, `&` are `\u003c`, `\u003e`, `\u0026`; U+2028 and
//! U+2029 are `\u2028`, `\u2029`; DEL (0x7f) and all other characters are
//! written as they are (UTF-8, no `\u` escapes). Go replaces invalid UTF-8
//! bytes with `\ufffd`; a Rust string is always valid UTF-8, so that case
//! cannot arise here.
//!
//! Limits (inputs Go never produces itself): a Go `json.RawMessage` (what
//! evanphx's `MergePatch` passes through untouched) keeps its number spelling
//! (`1.0`, `1e2`), its escapes and its key order, while a [`Value`] has lost
//! them; and serde_json reads `-0` as a float (`-0`), where Go's int64 path
//! reads integer 0.

use serde_json::{Number, Value};
use std::fmt::Write as _;

use super::value::{GoShape, GoValue, sort_entries, write_joined};
pub use super::value::GoNumbers;

/// Go's `json.Marshal` of `v`, numbers as int64 or float64
/// ([`GoNumbers::Int64OrFloat64`]).
pub fn to_go_json(v: &Value) -> String {
    to_go_json_with(v, GoNumbers::Int64OrFloat64)
}

/// Go's `json.Marshal` of `v` when every number is a float64
/// ([`GoNumbers::Float64`]): what evanphx/json-patch prints.
pub fn to_go_json_float64(v: &Value) -> String {
    to_go_json_with(v, GoNumbers::Float64)
}

/// Go's `json.Marshal` of `v` with the given number typing.
pub fn to_go_json_with(v: &Value, numbers: GoNumbers) -> String {
    let mut out = String::new();
    write_go_json(&mut out, v, numbers);
    out
}

/// Appends Go's `json.Marshal` of `v` to `out`.
pub fn write_go_json(out: &mut String, v: &Value, numbers: GoNumbers) {
    match write_json(out, v, numbers) {
        Ok(()) => {}
        Err(JsonError::Value(never)) => match never {},
        // A `Value`'s numbers are `GoShape::Number`, never a bare float64.
        Err(JsonError::NonFinite(_)) => {}
    }
}

/// Why [`write_json`] wrote no JSON for a value.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonError<E> {
    /// A NaN or infinite float64 (Go: "json: unsupported value").
    NonFinite(f64),
    /// The value type's own refusal ([`GoValue::Error`]).
    Value(E),
}

/// Appends Go's `json.Marshal` of any [`GoValue`]: compact, map keys sorted
/// bytewise, strings as [`write_go_string`]; `numbers` types its JSON
/// numbers.
pub fn write_json<T: GoValue>(out: &mut String, v: &T, numbers: GoNumbers) -> Result<(), JsonError<T::Error>> {
    match v.json_shape().map_err(JsonError::Value)? {
        GoShape::Nil => out.push_str("null"),
        GoShape::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        GoShape::Int(i) => {
            let _ = write!(out, "{i}");
        }
        GoShape::Float(f) => out.push_str(&format_go_float64(f).ok_or(JsonError::NonFinite(f))?),
        GoShape::Number(n) => write_go_number(out, n, numbers),
        GoShape::Str(s) => write_go_string(out, s),
        GoShape::List(items) => write_joined(out, JSON_ARRAY, items.iter(), |out, item| write_json(out, item, numbers))?,
        GoShape::Map(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, JSON_OBJECT, entries, |out, (k, item)| {
                write_go_string(out, k);
                out.push(':');
                write_json(out, item, numbers)
            })?;
        }
        GoShape::StrMap(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, JSON_OBJECT, entries, |out, (k, s)| {
                write_go_string(out, k);
                out.push(':');
                write_go_string(out, s);
                Ok::<(), JsonError<T::Error>>(())
            })?;
        }
    }
    Ok(())
}

/// encoding/json's layouts of an array and an object.
const JSON_ARRAY: (&str, char, char) = ("[", ',', ']');
const JSON_OBJECT: (&str, char, char) = ("{", ',', '}');

/// Appends the Go spelling of a number.
pub fn write_go_number(out: &mut String, n: &Number, numbers: GoNumbers) {
    if numbers == GoNumbers::Int64OrFloat64
        && let Some(i) = n.as_i64()
    {
        let _ = write!(out, "{i}");
        return;
    }
    // A serde_json number is always finite.
    out.push_str(&format_go_float64(go_float64(n)).unwrap_or_else(|| "null".to_owned()));
}

/// The float64 Go would hold for this number (`strconv.ParseFloat` of its
/// text; serde_json keeps integers exact, and `as` rounds to nearest even
/// like Go does).
pub fn go_float64(n: &Number) -> f64 {
    if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// Go's `floatEncoder(64)` (go/src/encoding/json/encode.go): the JSON
/// text of a float64. `None` for NaN and infinities, which Go refuses
/// ("json: unsupported value").
///
/// `strconv.AppendFloat(f, 'f', -1, 64)` (shortest digits, a tie to the
/// even candidate), switching to `'e'` when `abs < 1e-6 || abs >= 1e21`
/// (zero never); Go's cleanup then turns `e-07` into `e-7`.
pub fn format_go_float64(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let abs = f.abs();
    let fmt = if abs != 0.0 && !(1e-6..1e21).contains(&abs) { b'e' } else { b'f' };
    let mut b = Vec::new();
    crate::go::ftoa::append_float(&mut b, f, fmt, -1, false);
    let n = b.len();
    if fmt == b'e' && n >= 4 && b[n - 4] == b'e' && b[n - 3] == b'-' && b[n - 2] == b'0' {
        b[n - 2] = b[n - 1];
        b.truncate(n - 1);
    }
    Some(String::from_utf8_lossy(&b).into_owned())
}

/// Go's `%v` (and `%g`) of a float64: `strconv.FormatFloat(f, 'g', -1, 64)`,
/// exponent form when the decimal exponent is below -4 or at least 6 (the
/// precision strconv assumes for shortest `%g`): `1e+06`, `1.5e-05`, with
/// two-digit exponents at least. `None` for NaN and
/// infinities (Go prints `NaN`, `+Inf`; not reachable from a JSON value).
pub fn format_go_float64_g(f: f64) -> Option<String> {
    f.is_finite().then(|| crate::go::fmt::go_float(f))
}

/// Appends a JSON string the way Go's encoder writes it with HTML escaping on
/// (`json.Marshal`).
pub fn write_go_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let short = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{2028}' => "\\u2028",
            '\u{2029}' => "\\u2029",
            '\u{0}'..='\u{1f}' | '<' | '>' | '&' => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        start = i + c.len_utf8();
        if short.is_empty() {
            let b = c as u8;
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(short);
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Go's JSON text of a string (see [`write_go_string`]); not
/// `strconv.Quote`, which is [`super::quote::quote`].
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_go_string(&mut out, s);
    out
}


/// `v` with every number replaced by the float64 Go would decode it into
/// ([`GoNumbers::Float64`]), in canonical form: integral values of magnitude
/// up to 2^53 (all exactly representable) become integers, everything else
/// (fractions, larger magnitudes, negative zero) a float. Printing the result
/// gives the same bytes under either [`GoNumbers`] mode as
/// [`to_go_json_float64`] of the input, and re-reading those bytes gives this
/// value back.
pub fn to_float64_value(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::Number(float64_number(n)),
        Value::Array(items) => Value::Array(items.iter().map(to_float64_value).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), to_float64_value(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One number in the canonical float64 form of [`to_float64_value`].
pub fn float64_number(n: &Number) -> Number {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let f = go_float64(n);
    if f.fract() == 0.0 && f.abs() <= EXACT && !(f == 0.0 && f.is_sign_negative()) {
        Number::from(f as i64)
    } else {
        Number::from_f64(f).unwrap_or_else(|| n.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn go(text: &str) -> String {
        to_go_json(&serde_json::from_str(text).unwrap())
    }

    fn go64(text: &str) -> String {
        to_go_json_float64(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn output_is_compact() {
        assert_eq!(
            go("{ \"a\" : [ 1 , 2 ] ,\n \"b\" : { } , \"c\": [] }"),
            r#"{"a":[1,2],"b":{},"c":[]}"#
        );
        assert_eq!(go("null"), "null");
        assert_eq!(go("true"), "true");
        assert_eq!(go("[null,false]"), "[null,false]");
    }

    #[test]
    fn object_keys_sorted_bytewise_at_every_level() {
        assert_eq!(
            go(r#"{"b":1,"a":{"z":1,"Z":2,"_":3},"B":2,"aa":0,"é":1,"~":1}"#),
            r#"{"B":2,"a":{"Z":2,"_":3,"z":1},"aa":0,"b":1,"~":1,"é":1}"#
        );
    }

    #[test]
    fn keys_sort_before_escaping() {
        // "<" (0x3c) sorts before "=" (0x3d) although its escape starts with "\".
        assert_eq!(go(r#"{"=":1,"<":2}"#), r#"{"\u003c":2,"=":1}"#);
    }

    #[test]
    fn html_characters_escaped() {
        assert_eq!(json_quote("<a&b>"), r#""\u003ca\u0026b\u003e""#);
    }

    #[test]
    fn line_and_paragraph_separators_escaped() {
        assert_eq!(json_quote("a\u{2028}b\u{2029}c"), r#""a\u2028b\u2029c""#);
    }

    #[test]
    fn quote_and_backslash_escaped() {
        assert_eq!(json_quote(r#"a"b\c/d"#), r#""a\"b\\c/d""#);
    }

    #[test]
    fn short_escapes_for_newline_return_tab_backspace_formfeed() {
        assert_eq!(json_quote("\n\r\t\u{8}\u{c}"), r#""\n\r\t\b\f""#);
    }

    #[test]
    fn other_control_characters_as_lowercase_u00xx() {
        assert_eq!(
            json_quote("\u{0}\u{1}\u{1b}\u{1f}"),
            r#""\u0000\u0001\u001b\u001f""#
        );
    }

    #[test]
    fn delete_and_non_ascii_written_raw() {
        assert_eq!(json_quote("\u{7f}é€😀\u{feff}"), "\"\u{7f}é€😀\u{feff}\"");
    }

    #[test]
    fn integers_print_as_integers() {
        assert_eq!(
            go("[0,-1,42,9223372036854775807,-9223372036854775808]"),
            "[0,-1,42,9223372036854775807,-9223372036854775808]"
        );
    }

    #[test]
    fn integer_beyond_int64_is_a_float64_in_k8s_mode() {
        // util/json: ParseInt fails, so the value is a float64.
        assert_eq!(go("12345678901234567890"), "12345678901234567000");
        // 2^63 as a float64: shortest digits, then zeros.
        assert_eq!(go("9223372036854775808"), "9223372036854776000");
    }

    #[test]
    fn float_that_is_integral_prints_without_point() {
        assert_eq!(go("1.0"), "1");
        assert_eq!(go("-2.000"), "-2");
        assert_eq!(go("1e2"), "100");
    }

    #[test]
    fn float_shortest_round_trip_digits() {
        assert_eq!(go("0.1"), "0.1");
        assert_eq!(go("1.5"), "1.5");
        assert_eq!(go("3.14159"), "3.14159");
        assert_eq!(go("0.30000000000000004"), "0.30000000000000004");
        assert_eq!(go("-1.25"), "-1.25");
    }

    #[test]
    fn float_plain_notation_up_to_below_1e21() {
        assert_eq!(go("1e20"), "100000000000000000000");
        assert_eq!(
            format_go_float64(999999999999999900000.0).unwrap(),
            "999999999999999900000"
        );
    }

    #[test]
    fn float_exponent_form_from_1e21() {
        assert_eq!(go("1e21"), "1e+21");
        assert_eq!(go("1000000000000000000000"), "1e+21");
        assert_eq!(go("-1.5e300"), "-1.5e+300");
        assert_eq!(go("1.7976931348623157e308"), "1.7976931348623157e+308");
    }

    #[test]
    fn float_plain_notation_down_to_1e_minus_6() {
        assert_eq!(go("0.000001"), "0.000001");
        assert_eq!(go("0.0000015"), "0.0000015");
    }

    #[test]
    fn float_exponent_form_below_1e_minus_6_without_padding() {
        // strconv writes e-07; Go's encoder cleans it to e-7.
        assert_eq!(go("0.0000001"), "1e-7");
        assert_eq!(go("1.5e-7"), "1.5e-7");
        assert_eq!(go("-9.99e-7"), "-9.99e-7");
        assert_eq!(go("1e-10"), "1e-10");
        assert_eq!(go("5e-324"), "5e-324");
    }

    #[test]
    fn zero_is_plain_and_negative_zero_keeps_its_sign() {
        assert_eq!(go("0.0"), "0");
        assert_eq!(format_go_float64(-0.0).unwrap(), "-0");
    }

    #[test]
    fn non_finite_floats_are_refused() {
        assert_eq!(format_go_float64(f64::NAN), None);
        assert_eq!(format_go_float64(f64::INFINITY), None);
    }

    #[test]
    fn float64_mode_loses_precision_above_2_pow_53() {
        assert_eq!(go64("12345678901234567890"), "12345678901234567000");
        assert_eq!(go64("9007199254740993"), "9007199254740992");
        assert_eq!(go64("9223372036854775807"), "9223372036854776000");
        assert_eq!(go64("[1,2.5,-3]"), "[1,2.5,-3]");
    }

    #[test]
    fn float64_mode_prints_1e21_integer_in_exponent_form() {
        assert_eq!(go64("1000000000000000000000"), "1e+21");
    }

    #[test]
    fn float64_canonical_value_prints_the_same_in_both_modes() {
        for text in [
            "12345678901234567890",
            "9007199254740993",
            "1",
            "-1",
            "1.0",
            "1e21",
            "2.5",
            "1e-7",
            "-0.0",
            "4611686018427387904",
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            let canon = to_float64_value(&v);
            assert_eq!(to_go_json(&canon), to_go_json_float64(&v), "{text}");
            assert_eq!(to_go_json_float64(&canon), to_go_json_float64(&v), "{text}");
            let reread: Value = serde_json::from_str(&to_go_json(&canon)).unwrap();
            assert_eq!(to_float64_value(&reread), canon, "{text}");
        }
        assert_eq!(
            to_float64_value(&json!({"a": [1.0, 2]})),
            json!({"a": [1, 2]})
        );
    }

    #[test]
    fn float_formatting_of_extreme_values() {
        assert_eq!(
            format_go_float64(3.4028234663852886e38).unwrap(),
            "3.4028234663852886e+38"
        );
        assert_eq!(
            format_go_float64(f64::MAX).unwrap(),
            "1.7976931348623157e+308"
        );
        assert_eq!(
            format_go_float64(f64::MIN_POSITIVE).unwrap(),
            "2.2250738585072014e-308"
        );
        assert_eq!(
            format_go_float64(123456789012345678000.0).unwrap(),
            "123456789012345680000"
        );
    }

    /// The bytes depend on reading the float exactly as Go's ParseFloat does;
    /// serde_json's default float parser is only best-effort (off by one ulp
    /// for these inputs) unless its `float_roundtrip` feature is on.
    #[test]
    fn parsed_floats_are_correctly_rounded() {
        for (text, go) in [
            ("3.4028234663852886e+38", "3.4028234663852886e+38"),
            ("123456789012345678000.0", "123456789012345680000"),
            ("1.7976931348623157e+308", "1.7976931348623157e+308"),
            ("2.2250738585072014e-308", "2.2250738585072014e-308"),
        ] {
            assert_eq!(self::go(text), go, "{text}");
        }
    }
}
