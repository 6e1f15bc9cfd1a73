//! go-yaml v2's scalar resolution (`resolve.go`, `decode.go` `scalar`), as
//! Helm's values files get it through sigs.k8s.io/yaml, re-expressed in Rust.
//!
//! A plain scalar without a tag is resolved by its first character:
//! `yYnNtTfFoO~` only through the table of YAML 1.1 words (booleans, nulls),
//! `.` as a float (`.5`, `.inf`), digits and signs as an integer (Go
//! `ParseInt(s, 0, 64)` after removing every `_`, then `ParseUint`), then a
//! float, anything else is a string. Quoted and block scalars are strings.
//! Tags: `!!str` and `!!binary` take anything; `!!int`, `!!float`, `!!bool`,
//! `!!null`, `!!timestamp` must match what the text resolves to (an int is
//! accepted as a float); any other tag leaves the text a string.

pub(crate) const CORE: &str = "tag:yaml.org,2002:";

/// A scalar as go-yaml v2 hands it to `interface{}`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    /// Go `int` (64-bit).
    Int(i64),
    /// Go `uint64`: integers above `i64::MAX`.
    Uint(u64),
    Float(f64),
    Str(String),
}

/// How a scalar's text was read, for the notes we give users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The text is the value: strings, `true`/`false`, decimal numbers.
    Plain,
    /// A YAML 1.1 boolean word other than true/false (`yes`, `on`, `n`, ...).
    Yaml11Bool,
    /// An integer written in another base than 10 (`0777`, `0o17`, `0x1F`, `0b101`).
    Radix(u32),
    /// A number written with `_` separators.
    Underscores,
    /// A number with a leading zero that Go still reads as decimal (`08` -> 8, a float).
    LeadingZeroDecimal,
    /// A timestamp-shaped text kept as a string.
    Timestamp,
    /// `!!binary`: base64-decoded.
    Binary,
    /// A tag other than the core ones: the text is kept as a string.
    CustomTag,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Resolved {
    pub value: Scalar,
    pub reading: Reading,
}

fn r(value: Scalar, reading: Reading) -> Resolved {
    Resolved { value, reading }
}

pub(crate) fn short_tag(tag: &str) -> String {
    match tag.strip_prefix(CORE) {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

fn word(s: &str) -> Option<Scalar> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Scalar::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Scalar::Bool(false),
        "" | "~" | "null" | "Null" | "NULL" => Scalar::Null,
        ".nan" | ".NaN" | ".NAN" => Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Scalar::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

fn is_yaml11_only_bool(s: &str) -> bool {
    matches!(s, "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF")
}

/// Go `strconv.ParseUint(s, 0, 64)` for `s` without sign and underscores;
/// also returns the base it used.
fn go_parse_uint_base0(s: &str) -> Option<(u64, u32)> {
    let b = s.as_bytes();
    let (base, digits) = if b.len() >= 2 && b[0] == b'0' {
        match b[1] {
            b'x' | b'X' => (16, &s[2..]),
            b'o' | b'O' => (8, &s[2..]),
            b'b' | b'B' => (2, &s[2..]),
            _ => (8, &s[1..]),
        }
    } else {
        (10, s)
    };
    if digits.is_empty() {
        // "0x" fails; a lone "0" is decimal 0 and never gets here with base 8.
        return None;
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(base)?;
        v = v.checked_mul(base as u64)?.checked_add(d as u64)?;
    }
    Some((v, base))
}

/// Go `strconv.ParseInt(s, 0, 64)` (no underscores in `s`).
fn go_parse_int_base0(s: &str) -> Option<(i64, u32)> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    let (u, base) = go_parse_uint_base0(body)?;
    if neg {
        if u > (i64::MAX as u64) + 1 {
            return None;
        }
        Some(((u as i64).wrapping_neg(), base))
    } else {
        if u > i64::MAX as u64 {
            return None;
        }
        Some((u as i64, base))
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go `strconv.ParseFloat(s, 64)` for decimal text accepted by
/// [`yaml_style_float`]: out of range fails, underflow gives 0.
fn go_parse_float_decimal(s: &str) -> Option<f64> {
    let v: f64 = s.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    Some(v)
}

/// Go's `underscoreOK` for a number without base prefix: `_` only between digits.
fn underscores_ok(s: &str) -> bool {
    let mut saw = '^';
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    for c in body.chars() {
        if c.is_ascii_digit() {
            saw = '0';
            continue;
        }
        if c == '_' {
            if saw != '0' {
                return false;
            }
            saw = '_';
            continue;
        }
        if saw == '_' {
            return false;
        }
        saw = '!';
    }
    saw != '_'
}

/// Go `time.Parse` with go-yaml's timestamp layouts, enough to tell whether
/// the text is a timestamp (`!!timestamp` accepts it).
pub(crate) fn is_go_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year: i32 = s[..4].parse().unwrap_or(0);
    let mut i = 5;
    // 1 or 2 digits
    let num = |i: &mut usize| -> Option<u32> {
        let st = *i;
        while *i < b.len() && *i - st < 2 && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == st {
            None
        } else {
            s[st..*i].parse().ok()
        }
    };
    let Some(month) = num(&mut i) else { return false };
    if i >= b.len() || b[i] != b'-' {
        return false;
    }
    i += 1;
    let Some(day) = num(&mut i) else { return false };
    if !(1..=12).contains(&month) {
        return false;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let dim = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize - 1];
    if day < 1 || day > dim {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let sep = b[i];
    if sep != b'T' && sep != b't' && sep != b' ' {
        return false;
    }
    i += 1;
    let Some(h) = num(&mut i) else { return false };
    if i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    let Some(m) = num(&mut i) else { return false };
    if i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    let Some(sec) = num(&mut i) else { return false };
    if h > 23 || m > 59 || sec > 59 {
        return false;
    }
    if i < b.len() && (b[i] == b'.' || b[i] == b',') {
        let st = i + 1;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == st {
            return false;
        }
    }
    if sep == b' ' {
        return i == b.len();
    }
    // Z07:00
    if i < b.len() && b[i] == b'Z' {
        return i + 1 == b.len();
    }
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        let z = &s[i + 1..];
        let zb = z.as_bytes();
        return zb.len() == 5 && zb[2] == b':' && zb[..2].iter().all(u8::is_ascii_digit) && zb[3..].iter().all(u8::is_ascii_digit);
    }
    false
}

/// Resolves an untagged plain scalar (go-yaml v2 `resolve("", text)`).
pub(crate) fn resolve_plain(text: &str) -> Resolved {
    resolve_with(text, ResolveFor::Plain).expect("plain resolution never fails")
}

#[derive(Clone, Copy, PartialEq)]
enum ResolveFor {
    Plain,
    Timestamp,
    Other,
}

/// The untyped resolution shared by plain scalars and core tags; returns the
/// value and whether it is a timestamp (kept as its text).
fn resolve_with(text: &str, mode: ResolveFor) -> Option<Resolved> {
    let first = text.as_bytes().first().copied();
    let hint = match first {
        None => 'N',
        Some(b'+' | b'-') => 'S',
        Some(b'0'..=b'9') => 'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => 'M',
        Some(b'.') => '.',
        _ => return Some(r(Scalar::Str(text.to_string()), Reading::Plain)),
    };
    if let Some(v) = word(text) {
        let reading = if is_yaml11_only_bool(text) { Reading::Yaml11Bool } else { Reading::Plain };
        return Some(r(v, reading));
    }
    match hint {
        '.' => {
            let t = text.replace('_', "");
            if (!text.contains('_') || underscores_ok(text))
                && yaml_style_float(&t)
                && t.starts_with('.')
                && let Some(f) = go_parse_float_decimal(&t)
            {
                let reading = if text.contains('_') { Reading::Underscores } else { Reading::Plain };
                return Some(r(Scalar::Float(f), reading));
            }
        }
        'D' | 'S' => {
            if (mode == ResolveFor::Plain || mode == ResolveFor::Timestamp) && is_go_timestamp(text) {
                return Some(r(Scalar::Str(text.to_string()), Reading::Timestamp));
            }
            let plain = text.replace('_', "");
            let underscores = plain.len() != text.len();
            if let Some((v, base)) = go_parse_int_base0(&plain) {
                let reading = if base != 10 {
                    Reading::Radix(base)
                } else if underscores {
                    Reading::Underscores
                } else {
                    Reading::Plain
                };
                return Some(r(Scalar::Int(v), reading));
            }
            if let Some((v, base)) = go_parse_uint_base0(&plain) {
                let reading = if base != 10 {
                    Reading::Radix(base)
                } else if underscores {
                    Reading::Underscores
                } else {
                    Reading::Plain
                };
                return Some(r(Scalar::Uint(v), reading));
            }
            if yaml_style_float(&plain)
                && let Some(f) = go_parse_float_decimal(&plain)
            {
                {
                    let digits = plain.trim_start_matches(['+', '-']);
                    let reading = if digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit() {
                        Reading::LeadingZeroDecimal
                    } else if underscores {
                        Reading::Underscores
                    } else {
                        Reading::Plain
                    };
                    return Some(r(Scalar::Float(f), reading));
                }
            }
        }
        _ => {}
    }
    Some(r(Scalar::Str(text.to_string()), Reading::Plain))
}

/// The tag go-yaml v2 reports for a resolved value (`rtag`).
fn tag_of(v: &Resolved) -> &'static str {
    match (&v.value, v.reading) {
        (_, Reading::Timestamp) => "tag:yaml.org,2002:timestamp",
        (Scalar::Null, _) => "tag:yaml.org,2002:null",
        (Scalar::Bool(_), _) => "tag:yaml.org,2002:bool",
        (Scalar::Int(_) | Scalar::Uint(_), _) => "tag:yaml.org,2002:int",
        (Scalar::Float(_), _) => "tag:yaml.org,2002:float",
        (Scalar::Str(_), _) => "tag:yaml.org,2002:str",
    }
}

/// Go's conversion of bytes to a JSON string: each byte of an invalid UTF-8
/// sequence becomes U+FFFD.
pub(crate) fn go_lossy_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).expect("valid prefix"));
                out.push('\u{FFFD}');
                rest = &rest[good + 1..];
            }
        }
    }
    out
}

fn go_base64_std(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    let cleaned: String = text.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    let engine = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
    );
    engine.decode(cleaned.as_bytes()).ok()
}

/// A scalar node with its tag (full form, `None` when untagged) and whether
/// it was written plain: what go-yaml v2's `decoder.scalar` makes of it.
/// The error is go-yaml's message without its `yaml: ` prefix.
pub(crate) fn resolve_node(text: &str, tag: Option<&str>, plain: bool) -> Result<Resolved, String> {
    let Some(tag) = tag else {
        if plain {
            return Ok(resolve_plain(text));
        }
        return Ok(r(Scalar::Str(text.to_string()), Reading::Plain));
    };
    let short = tag.strip_prefix(CORE);
    match short {
        Some("str") => return Ok(r(Scalar::Str(text.to_string()), Reading::Plain)),
        Some("binary") => {
            let bytes = go_base64_std(text).ok_or_else(|| "!!binary value contains invalid base64 data".to_string())?;
            return Ok(r(Scalar::Str(go_lossy_utf8(&bytes)), Reading::Binary));
        }
        Some("bool" | "int" | "float" | "null" | "timestamp") => {}
        _ => return Ok(r(Scalar::Str(text.to_string()), Reading::CustomTag)),
    }
    let mode = if short == Some("timestamp") { ResolveFor::Timestamp } else { ResolveFor::Other };
    let v = resolve_with(text, mode).expect("resolution never fails");
    let rtag = tag_of(&v);
    if rtag == tag {
        return Ok(v);
    }
    if short == Some("float")
        && let Scalar::Int(i) = v.value
    {
        return Ok(r(Scalar::Float(i as f64), v.reading));
    }
    Err(format!("cannot decode {} `{}` as a {}", short_tag(rtag), text, short_tag(tag)))
}

/// Go `strconv.FormatFloat(f, 'g', -1, 32)` as sigs.k8s.io/yaml spells float
/// map keys (`.inf`, `-.inf`, `.nan` for the specials).
pub(crate) fn go_float_key(f: f64) -> String {
    crate::go::fmt::yaml_float_key(f)
}

/// Go `%v` / `FormatFloat(f, 'g', -1, 64)` of a float64.
pub(crate) fn go_float_g(f: f64) -> String {
    crate::go::fmt::go_float(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Scalar {
        resolve_plain(s).value
    }

    #[test]
    fn yaml11_words_are_booleans_in_exactly_these_spellings() {
        for t in ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"] {
            assert_eq!(v(t), Scalar::Bool(true), "{t}");
        }
        for t in ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"] {
            assert_eq!(v(t), Scalar::Bool(false), "{t}");
        }
        for t in ["yEs", "oN", "tRUE", "nO", "Yeah"] {
            assert_eq!(v(t), Scalar::Str(t.into()), "{t}");
        }
        assert_eq!(resolve_plain("on").reading, Reading::Yaml11Bool);
        assert_eq!(resolve_plain("true").reading, Reading::Plain);
    }

    #[test]
    fn nulls_are_tilde_null_and_empty() {
        for t in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(v(t), Scalar::Null, "{t:?}");
        }
        assert_eq!(v("nULL"), Scalar::Str("nULL".into()));
    }

    #[test]
    fn integers_follow_go_parse_int_base_0_after_removing_underscores() {
        assert_eq!(v("0777"), Scalar::Int(511));
        assert_eq!(v("0x1F"), Scalar::Int(31));
        assert_eq!(v("0o17"), Scalar::Int(15));
        assert_eq!(v("0O17"), Scalar::Int(15));
        assert_eq!(v("0b101"), Scalar::Int(5));
        assert_eq!(v("-0b101"), Scalar::Int(-5));
        assert_eq!(v("1_000"), Scalar::Int(1000));
        assert_eq!(v("+12"), Scalar::Int(12));
        assert_eq!(v("-0"), Scalar::Int(0));
        assert_eq!(v("9223372036854775808"), Scalar::Uint(9223372036854775808));
        assert_eq!(v("-9223372036854775809"), Scalar::Float(-9223372036854775809.0));
        assert_eq!(v("18446744073709551616"), Scalar::Float(18446744073709551616.0));
        assert_eq!(resolve_plain("0777").reading, Reading::Radix(8));
        assert_eq!(resolve_plain("0x1F").reading, Reading::Radix(16));
    }

    #[test]
    fn a_leading_zero_that_is_not_octal_makes_a_decimal_float() {
        assert_eq!(v("08"), Scalar::Float(8.0));
        assert_eq!(resolve_plain("08").reading, Reading::LeadingZeroDecimal);
        assert_eq!(v("0x"), Scalar::Str("0x".into()));
    }

    #[test]
    fn floats_need_the_yaml_shape_and_range() {
        assert_eq!(v("1.5"), Scalar::Float(1.5));
        assert_eq!(v("1e3"), Scalar::Float(1000.0));
        assert_eq!(v(".5"), Scalar::Float(0.5));
        assert_eq!(v(".5_5"), Scalar::Float(0.55));
        assert_eq!(v("1_0.5"), Scalar::Float(10.5));
        assert_eq!(v("1e999"), Scalar::Str("1e999".into()));
        assert_eq!(v(".5e999"), Scalar::Str(".5e999".into()));
        assert_eq!(v("1e-999"), Scalar::Float(0.0));
        assert_eq!(v("._5"), Scalar::Str("._5".into()));
        assert!(matches!(v(".nan"), Scalar::Float(f) if f.is_nan()));
        assert_eq!(v("-.inf"), Scalar::Float(f64::NEG_INFINITY));
        assert_eq!(v("1.2.3"), Scalar::Str("1.2.3".into()));
        assert_eq!(v("inf"), Scalar::Str("inf".into()));
    }

    #[test]
    fn timestamps_stay_strings() {
        assert_eq!(v("2001-12-14"), Scalar::Str("2001-12-14".into()));
        assert_eq!(resolve_plain("2001-12-14").reading, Reading::Timestamp);
        assert_eq!(resolve_plain("2001-12-14T21:59:43.10Z").reading, Reading::Timestamp);
        assert_eq!(resolve_plain("2001-13-14").reading, Reading::Plain);
    }

    #[test]
    fn quoted_scalars_are_strings_and_tags_are_checked() {
        assert_eq!(resolve_node("yes", None, false).unwrap().value, Scalar::Str("yes".into()));
        let core = |s: &str| format!("{CORE}{s}");
        assert_eq!(resolve_node("12", Some(&core("str")), true).unwrap().value, Scalar::Str("12".into()));
        assert_eq!(resolve_node("12", Some(&core("int")), false).unwrap().value, Scalar::Int(12));
        assert_eq!(resolve_node("1", Some(&core("float")), true).unwrap().value, Scalar::Float(1.0));
        assert_eq!(
            resolve_node("18446744073709551615", Some(&core("float")), true).unwrap_err(),
            "cannot decode !!int `18446744073709551615` as a !!float"
        );
        assert_eq!(resolve_node("1.0", Some(&core("int")), true).unwrap_err(), "cannot decode !!float `1.0` as a !!int");
        assert_eq!(resolve_node("", Some(&core("int")), true).unwrap_err(), "cannot decode !!null `` as a !!int");
        assert_eq!(resolve_node("foo", Some(&core("timestamp")), true).unwrap_err(), "cannot decode !!str `foo` as a !!timestamp");
        assert_eq!(resolve_node("12", Some("!"), true).unwrap().value, Scalar::Str("12".into()));
        assert_eq!(resolve_node("12", Some("!foo"), true).unwrap().value, Scalar::Str("12".into()));
    }

    #[test]
    fn binary_is_base64_decoded_with_go_replacement_of_invalid_utf8() {
        let core = format!("{CORE}binary");
        assert_eq!(resolve_node("aGVs\nbG8=", Some(&core), true).unwrap().value, Scalar::Str("hello".into()));
        assert_eq!(resolve_node("/w==", Some(&core), true).unwrap().value, Scalar::Str("\u{FFFD}".into()));
        assert!(resolve_node("aGVsbG8", Some(&core), true).is_err());
        assert_eq!(go_lossy_utf8(b"a\xE2\x82b"), "a\u{FFFD}\u{FFFD}b");
    }

    #[test]
    fn float_keys_print_as_go_formats_float32_g() {
        assert_eq!(go_float_key(1000.0), "1000");
        assert_eq!(go_float_key(1234567.0), "1.234567e+06");
        assert_eq!(go_float_key(0.1), "0.1");
        assert_eq!(go_float_key(1.23456789012345), "1.2345679");
        assert_eq!(go_float_key(1.5), "1.5");
        assert_eq!(go_float_key(100000.0), "100000");
        assert_eq!(go_float_key(0.0001), "0.0001");
        assert_eq!(go_float_key(0.00001), "1e-05");
        assert_eq!(go_float_key(-2.5), "-2.5");
        assert_eq!(go_float_key(0.0), "0");
        assert_eq!(go_float_key(1e39), ".inf");
        assert_eq!(go_float_key(f64::NAN), ".nan");
        assert_eq!(go_float_g(f64::INFINITY), "+Inf");
    }
}
