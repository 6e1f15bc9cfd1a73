//! Go's `fmt` `%v` of decoded values, used verbatim in Helm's messages
//! (maps as `map[k:v]` with sorted keys, lists as `[a b]`, nil as `<nil>`,
//! strings bare, float64 in `%g` shortest form), written once over the
//! [`GoValue`] model, and the crate's one implementation of float64 (and
//! float32) `%v`.

use std::convert::Infallible;
use std::fmt::Write as _;

use serde_json::Value;

use super::json::go_float64;
use super::value::{GoNumbers, GoShape, GoValue, sort_entries, write_joined};

/// Appends Go's `%v` of `v`; `numbers` says how a JSON number in it was
/// typed when decoded.
pub fn write_v<T: GoValue>(out: &mut String, v: &T, numbers: GoNumbers) -> Result<(), T::Error> {
    match v.go_shape()? {
        GoShape::Nil => out.push_str("<nil>"),
        GoShape::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        GoShape::Int(i) => {
            let _ = write!(out, "{i}");
        }
        GoShape::Float(f) => out.push_str(&go_float(f)),
        GoShape::Number(n) => match n.as_i64() {
            Some(i) if numbers == GoNumbers::Int64OrFloat64 => {
                let _ = write!(out, "{i}");
            }
            _ => out.push_str(&go_float(go_float64(n))),
        },
        GoShape::Str(s) => out.push_str(s),
        GoShape::List(items) => write_joined(out, LIST, items.iter(), |out, item| write_v(out, item, numbers))?,
        GoShape::Map(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, MAP, entries, |out, (k, item)| {
                out.push_str(k);
                out.push(':');
                write_v(out, item, numbers)
            })?;
        }
        GoShape::StrMap(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, MAP, entries, |out, (k, s)| {
                out.push_str(k);
                out.push(':');
                out.push_str(s);
                Ok::<(), T::Error>(())
            })?;
        }
    }
    Ok(())
}

/// fmt's layouts of a slice and a map.
const LIST: (&str, char, char) = ("[", ' ', ']');
const MAP: (&str, char, char) = ("map[", ' ', ']');

/// Go's `%t` of `v` (a verb for booleans): a bool prints as `true`; any
/// other value as fmt's bad-verb form `%!t(TYPE=%v)` (`%!t(string=a)`,
/// `%!t(<nil>)` at the top), except that lists and maps are walked and each
/// element, key and value given `%t` in turn (`[%!t(string=a) <nil>]`,
/// `map[%!t(string=k):%!t(float64=1)]`, keys sorted); nil inside a list or
/// map prints `<nil>` (go/src/fmt/print.go printValue, badVerb).
pub fn go_t<T: GoValue<Error = Infallible>>(v: &T) -> String {
    let mut out = String::new();
    match write_t(&mut out, v, true) {
        Ok(()) => out,
        Err(never) => match never {},
    }
}

fn write_t<T: GoValue>(out: &mut String, v: &T, top: bool) -> Result<(), T::Error> {
    let bad = |out: &mut String, go_type: &str, text: &str| {
        let _ = write!(out, "%!t({go_type}={text})");
    };
    match v.go_shape()? {
        GoShape::Nil if top => out.push_str("%!t(<nil>)"),
        GoShape::Nil => out.push_str("<nil>"),
        GoShape::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        GoShape::Int(i) => bad(out, "int64", &i.to_string()),
        GoShape::Float(f) => bad(out, "float64", &go_float(f)),
        // A decoded JSON number is a float64 (encoding/json into interface{}).
        GoShape::Number(n) => bad(out, "float64", &go_float(go_float64(n))),
        GoShape::Str(s) => bad(out, "string", s),
        GoShape::List(items) => write_joined(out, LIST, items.iter(), |out, item| write_t(out, item, false))?,
        GoShape::Map(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, MAP, entries, |out, (k, item)| {
                bad(out, "string", k);
                out.push(':');
                write_t(out, item, false)
            })?;
        }
        GoShape::StrMap(mut entries) => {
            sort_entries(&mut entries);
            write_joined(out, MAP, entries, |out, (k, s)| {
                bad(out, "string", k);
                out.push(':');
                bad(out, "string", s);
                Ok::<(), T::Error>(())
            })?;
        }
    }
    Ok(())
}

/// Go's `%v` of `v`, or why it has none; a JSON number in it is a float64
/// (`encoding/json`'s decoding into `interface{}`).
pub fn try_go_v<T: GoValue>(v: &T) -> Result<String, T::Error> {
    let mut out = String::new();
    write_v(&mut out, v, GoNumbers::Float64)?;
    Ok(out)
}

/// Go's `%v` of a value that always has one (a JSON number in it is a
/// float64, as `encoding/json` decodes).
pub fn go_v<T: GoValue<Error = Infallible>>(v: &T) -> String {
    match try_go_v(v) {
        Ok(s) => s,
        Err(never) => match never {},
    }
}

/// Go's `%v` of the Go value `v` stands for, its numbers typed as `numbers`
/// says (int64 in decimal, float64 as `%g`).
pub fn go_v_with(v: &Value, numbers: GoNumbers) -> String {
    let mut out = String::new();
    match write_v(&mut out, v, numbers) {
        Ok(()) => out,
        Err(never) => match never {},
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` as `%v` uses it: shortest
/// digits (an exact tie between two shortest candidates goes to the even
/// one, go/src/strconv/ftoaryu.go `ryuFtoaShortest`), exponent form when
/// the exponent is < -4 or >= 6 (ftoa.go `%e is used if the exponent from
/// the conversion is less than -4 or greater than or equal to the
/// precision`, 6 when the precision is shortest). [`crate::go::ftoa`]
/// ports strconv.
pub fn go_float(f: f64) -> String {
    let mut out = Vec::new();
    crate::go::ftoa::append_float(&mut out, f, b'g', -1, false);
    String::from_utf8_lossy(&out).into_owned()
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that
/// read back as the same float32, in `%e` form when the exponent is below -4
/// or at least 6 (as sigs.k8s.io/yaml writes a float into a string field:
/// `appVersion: 1.10` becomes `"1.1"`).
pub fn go_float32(f: f64) -> String {
    let mut out = Vec::new();
    crate::go::ftoa::append_float(&mut out, f, b'g', -1, true);
    String::from_utf8_lossy(&out).into_owned()
}

/// A float map key as sigs.k8s.io/yaml spells it when it turns YAML into
/// JSON: `FormatFloat(f, 'g', -1, 32)`, with `.inf`, `-.inf` and `.nan` for
/// the specials.
pub fn yaml_float_key(f: f64) -> String {
    match go_float32(f).as_str() {
        "+Inf" => ".inf".into(),
        "-Inf" => "-.inf".into(),
        "NaN" => ".nan".into(),
        s => s.into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn percent_t_prints_bools_and_walks_lists_and_maps_as_go_does() {
        use serde_json::json;
        assert_eq!(go_t(&json!(true)), "true");
        assert_eq!(go_t(&json!(null)), "%!t(<nil>)");
        assert_eq!(go_t(&json!("a")), "%!t(string=a)");
        assert_eq!(go_t(&json!(1e6)), "%!t(float64=1e+06)");
        assert_eq!(go_t(&json!([["a", null], {"z": 1, "k": false}])), "[[%!t(string=a) <nil>] map[%!t(string=k):false %!t(string=z):%!t(float64=1)]]");
    }

    use super::*;
    use serde_json::json;

    /// tests/data/go/floats/floats.tsv (written by gen.go there with Go
    /// 1.19): for each float64 its bits, `%v`, `FormatFloat(f, 'g', -1,
    /// 64)`, `json.Marshal` and `FormatFloat(float32(f), 'g', -1, 32)`,
    /// ties between two shortest candidates among them.
    #[test]
    fn floats_print_as_go_prints_them() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/go/floats/floats.tsv")).expect("the table");
        let mut n = 0;
        for line in text.lines() {
            let cols: Vec<&str> = line.split('\t').collect();
            let f = f64::from_bits(u64::from_str_radix(cols[0], 16).expect("bits"));
            assert_eq!(go_float(f), cols[1], "%v of {}", cols[0]);
            assert_eq!(go_float(f), cols[2], "'g' of {}", cols[0]);
            let json = crate::go::json::format_go_float64(f).unwrap_or_else(|| "!error".into());
            assert_eq!(json, cols[3], "json of {}", cols[0]);
            assert_eq!(go_float32(f), cols[4], "float32 'g' of {}", cols[0]);
            n += 1;
        }
        assert!(n > 4000, "{n} rows");
    }

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
        let big = serde_json::json!({"i": 12345678901234567_i64, "f": 1.5});
        assert_eq!(go_v_with(&big, GoNumbers::Int64OrFloat64), "map[f:1.5 i:12345678901234567]");
        assert_eq!(go_v_with(&big, GoNumbers::Float64), "map[f:1.5 i:1.2345678901234568e+16]");
    }

    #[test]
    fn formats_float32_like_go() {
        assert_eq!(go_float32(1.1), "1.1");
        assert_eq!(go_float32(1.0), "1");
        assert_eq!(go_float32(1.23456789), "1.2345679");
        assert_eq!(go_float32(1e7), "1e+07");
        assert_eq!(go_float32(123456.0), "123456");
        assert_eq!(go_float32(0.00001), "1e-05");
        assert_eq!(go_float32(-0.0), "-0");
        assert_eq!(yaml_float_key(1e39), ".inf");
        assert_eq!(yaml_float_key(-1e39), "-.inf");
        assert_eq!(yaml_float_key(f64::NAN), ".nan");
    }

    #[test]
    fn go_fmt_v_of_map_sorted_with_g_floats() {
        let v = json!({"b": [1, "x", null, true], "a": {"n": 1.5, "big": 1e21, "m": 1000000.0}});
        assert_eq!(
            go_v_with(&v, GoNumbers::Int64OrFloat64),
            "map[a:map[big:1e+21 m:1e+06 n:1.5] b:[1 x <nil> true]]"
        );
        assert_eq!(crate::go::json::format_go_float64_g(100000.0).unwrap(), "100000");
        assert_eq!(crate::go::json::format_go_float64_g(0.0001).unwrap(), "0.0001");
        assert_eq!(crate::go::json::format_go_float64_g(0.00001).unwrap(), "1e-05");
        assert_eq!(
            crate::go::json::format_go_float64_g(1.2345678901234567e19).unwrap(),
            "1.2345678901234567e+19"
        );
    }
}
