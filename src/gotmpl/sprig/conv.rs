//! Go value conversions sprig makes, shared by every sprig family:
//! sprig's `strval` (strings.go), spf13/cast 1.5.0's `ToInt64`, `ToInt`
//! and `ToFloat64` (caste.go: sprig calls the error-swallowing forms, so a
//! value cast cannot read is 0), Go's `strconv.ParseInt`/`ParseFloat`
//! rules they rely on, reflect's `Kind` and `%T` names, `reflect.DeepEqual`,
//! and the "any slice" access sprig's list functions make with reflect
//! (`reflect.TypeOf(list).Kind()` is `Slice`: `[]interface{}`, `[]string`,
//! `[]int`, `[]byte` alike).

use std::rc::Rc;

use crate::gotmpl::func::FnError;
use crate::gotmpl::{GoObject, Tv, Val};

/// sprig's `strval`: a string as it is, `[]byte` as text, a `fmt.Stringer`
/// (`time.Time`, `*semver.Version`) by its `String()`, anything else `%v`.
pub fn strval(v: &Tv) -> Result<String, FnError> {
    match &v.val {
        Val::Str(s) => Ok(s.clone()),
        // Go's string([]byte) keeps invalid UTF-8 bytes; Rust strings cannot.
        Val::Bytes(b) => Ok(String::from_utf8_lossy(b).into_owned()),
        Val::Object(o) => Ok(o.go_string()),
        _ => sprint(v),
    }
}

/// `fmt.Sprint` of one value (`%v`), objects by their `String()`.
pub fn sprint(v: &Tv) -> Result<String, FnError> {
    match &v.val {
        Val::Object(o) => Ok(o.go_string()),
        Val::Bytes(b) => Ok(format!("[{}]", b.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))),
        _ => {
            let frozen = crate::gotmpl::frozen::Frozen::of(v).map_err(|_| FnError::Unsupported(crate::gotmpl::frozen::CYCLE_PRINT.into()))?;
            crate::go::fmt::try_go_v(&frozen).map_err(FnError::Unsupported)
        }
    }
}

/// cast's `ToInt64` (and `ToInt`: Go's int is 64 bits here): numbers
/// converted as Go converts them, strings by `strconv.ParseInt(s, 0, 0)`
/// after `trimZeroDecimal` (`"5.0"` reads as 5), booleans 1/0, and 0 for
/// nil and for anything cast refuses (a list, a map, `"abc"`).
pub fn to_int64(v: &Tv) -> i64 {
    match &v.val {
        Val::Int(i) | Val::Int64(i) => *i,
        Val::Float(f) => go_float_to_int64(*f),
        Val::Str(s) => parse_int(trim_zero_decimal(s), 0).unwrap_or(0),
        Val::Bool(b) => i64::from(*b),
        Val::Object(o) => o.as_any().downcast_ref::<GoInt>().map_or(0, |n| n.0),
        _ => 0,
    }
}

/// cast's `ToFloat64`: numbers converted, strings by `strconv.ParseFloat(s, 64)`,
/// booleans 1/0, and 0 for nil and anything cast refuses.
pub fn to_float64(v: &Tv) -> f64 {
    match &v.val {
        Val::Int(i) | Val::Int64(i) => *i as f64,
        Val::Float(f) => *f,
        Val::Str(s) => parse_float(s).unwrap_or(0.0),
        Val::Bool(b) => f64::from(u8::from(*b)),
        _ => 0.0,
    }
}

/// A Go integer of a type `Val` has no variant for (`uint64` from
/// `*semver.Version`'s `.Major`, `uint8` items of a `[]byte`): it prints,
/// tests and casts as a number (cast's type switch reads both types).
#[derive(Debug)]
pub struct GoInt(pub i64, pub &'static str);

impl GoObject for GoInt {
    fn type_name(&self) -> &'static str {
        self.1
    }
    fn kind(&self) -> &'static str {
        self.1
    }
    fn go_string(&self) -> String {
        if self.1 == "uint64" { (self.0 as u64).to_string() } else { self.0.to_string() }
    }
    fn member(&self, _name: &str, _args: &[Tv]) -> Option<Result<Tv, String>> {
        None
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn truth(&self) -> bool {
        self.0 != 0
    }
}

/// A `uint64` value (semver's `.Major`): prints and casts as a number.
pub fn uint64(n: u64) -> Tv {
    Tv::new(Val::Object(Rc::new(GoInt(n as i64, "uint64"))))
}

/// Go's `int64(f)` on amd64: the truncated value when it fits; NaN and
/// values out of range give the "integer indefinite" 0x8000000000000000.
pub fn go_float_to_int64(f: f64) -> i64 {
    // -2^63 ..= 2^63 exclusive: the float64 values an int64 holds.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-LIMIT..LIMIT).contains(&f) { i64::MIN } else { f as i64 }
}

/// cast's `trimZeroDecimal`: `"5.00"` -> `"5"`; anything else unchanged.
pub fn trim_zero_decimal(s: &str) -> &str {
    let b = s.as_bytes();
    let mut found_zero = false;
    for i in (1..=b.len()).rev() {
        match b[i - 1] {
            b'.' if found_zero => return &s[..i - 1],
            b'.' => {}
            b'0' => found_zero = true,
            _ => return s,
        }
    }
    s
}

/// Why `strconv.ParseInt` failed: Go reports a value out of range with the
/// clamped value (which `strconv.Atoi` returns), bad syntax with 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntError {
    Syntax,
    Range(i64),
}

/// `strconv.ParseInt(s, base, 64)`. Base 0 reads the prefix (`0x`, `0o`,
/// `0b`, a leading `0` for octal) and allows `_` between digits (`1_000`),
/// as Go's `underscoreOK` does; other bases allow neither.
pub fn parse_int(s: &str, base: u32) -> Result<i64, IntError> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let magnitude = match parse_uint(body, base) {
        Err(IntError::Range(_)) => u64::MAX,
        other => other?,
    };
    let limit = 1u64 << 63;
    if !neg && magnitude >= limit {
        return Err(IntError::Range(i64::MAX));
    }
    if neg && magnitude > limit {
        return Err(IntError::Range(i64::MIN));
    }
    Ok(if neg { (magnitude as i64).wrapping_neg() } else { magnitude as i64 })
}

/// `strconv.ParseUint(s, base, 64)` (see [`parse_int`]); a range error carries no value.
fn parse_uint(s: &str, base: u32) -> Result<u64, IntError> {
    if s.is_empty() {
        return Err(IntError::Syntax);
    }
    let base0 = base == 0;
    let (base, digits, _prefixed) = if base == 0 {
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("0x") {
            (16, &s[2..], true)
        } else if lower.starts_with("0o") {
            (8, &s[2..], true)
        } else if lower.starts_with("0b") {
            (2, &s[2..], true)
        } else if let Some(rest) = s.strip_prefix('0') {
            (8, rest, true)
        } else {
            (10, s, false)
        }
    } else {
        (base, s, false)
    };
    // Go allows `_` only when the base came from the text (base 0), and
    // then only where `underscoreOK` says.
    if s.contains('_') && !(base0 && underscores_ok(s)) {
        return Err(IntError::Syntax);
    }
    let mut n: u64 = 0;
    let mut overflow = false;
    let mut any = false;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(base).ok_or(IntError::Syntax)?;
        any = true;
        match n.checked_mul(u64::from(base)).and_then(|m| m.checked_add(u64::from(d))) {
            Some(m) => n = m,
            None => overflow = true,
        }
    }
    // `0x` alone has no digits; `0` alone (octal prefix, no digits) is zero.
    if !any && s != "0" {
        return Err(IntError::Syntax);
    }
    if overflow { Err(IntError::Range(0)) } else { Ok(n) }
}

/// Go's `underscoreOK`: underscores only between digits (or right after the base prefix).
fn underscores_ok(s: &str) -> bool {
    let b = s.as_bytes();
    // 'X' a digit or prefix, '_' an underscore, '!' none of these.
    let mut saw = b'^';
    let mut i = 0;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'x' | b'o' | b'b') {
        i = 2;
        saw = b'0';
    }
    let hex = i == 2 && b[1].eq_ignore_ascii_case(&b'x');
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || hex && c.is_ascii_hexdigit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `strconv.ParseFloat(s, 64)` for decimal text: sign, digits, fraction,
/// exponent, `inf`/`infinity`/`nan` in any case, `_` between digits; a
/// finite text past the float64 range is an error (Go's ErrRange).
/// Hexadecimal floats (`0x1p-2`) are refused here, where Go would read them.
pub fn parse_float(s: &str) -> Result<f64, ()> {
    let body = s.trim_start_matches(['+', '-']);
    if s.len() - body.len() > 1 || body.to_ascii_lowercase().starts_with("0x") {
        return Err(());
    }
    // `readFloat` skips `_` and then checks them with `underscoreOK`.
    let plain: String;
    let s = if s.contains('_') {
        if !underscores_ok(body) {
            return Err(());
        }
        plain = s.replace('_', "");
        plain.as_str()
    } else {
        s
    };
    let f: f64 = s.parse().map_err(|_| ())?;
    let named = matches!(body.to_ascii_lowercase().as_str(), "inf" | "infinity" | "nan");
    if f.is_infinite() && !named {
        return Err(());
    }
    Ok(f)
}

/// The items of any Go slice (`[]interface{}`, `[]string`, `[]int`, `[]byte`):
/// what sprig's `reflect.ValueOf(list).Index(i).Interface()` loops see; `None`
/// for a value that is not a slice.
pub fn slice_items(v: &Tv) -> Option<Vec<Tv>> {
    match &v.val {
        Val::List(l) | Val::TypedList(_, l) => Some(l.clone()),
        Val::Bytes(b) => Some(b.iter().map(|&x| Tv::new(Val::Object(Rc::new(GoInt(i64::from(x), "uint8"))))).collect()),
        _ => None,
    }
}

/// `reflect.Kind.String()` of a value; `invalid` for nil.
pub fn kind_of(v: &Val) -> &'static str {
    match v {
        Val::Nil => "invalid",
        Val::Bool(_) => "bool",
        Val::Int(_) => "int",
        Val::Int64(_) => "int64",
        Val::Float(_) => "float64",
        Val::Str(_) => "string",
        Val::Bytes(_) | Val::List(_) | Val::TypedList(..) => "slice",
        Val::Map(_) | Val::StrMap(_) => "map",
        Val::Struct(..) => "struct",
        Val::Ptr(_) => "ptr",
        Val::Object(o) => o.kind(),
    }
}

/// `fmt.Sprintf("%T", v)`; `<nil>` for nil.
pub fn type_of(v: &Val) -> String {
    match v {
        Val::Nil => "<nil>".into(),
        Val::Bool(_) => "bool".into(),
        Val::Int(_) => "int".into(),
        Val::Int64(_) => "int64".into(),
        Val::Float(_) => "float64".into(),
        Val::Str(_) => "string".into(),
        Val::Bytes(_) => "[]uint8".into(),
        Val::List(_) => "[]interface {}".into(),
        Val::TypedList(elem, _) => format!("[]{elem}"),
        Val::Map(_) => "map[string]interface {}".into(),
        Val::StrMap(_) => "map[string]string".into(),
        Val::Struct(name, _) => (*name).into(),
        Val::Ptr(_) => "*map[string]interface {}".into(),
        Val::Object(o) => o.type_name().into(),
    }
}

/// `reflect.DeepEqual`: same Go type and equal contents (an `int` 1 is not
/// an `int64` 1 nor a `float64` 1); NaN is unequal to itself. As Go 1.19's
/// deepValueEqual: the same map is equal to itself without a look inside,
/// and a pair of maps met again while comparing them is taken as equal
/// (its `visited` set), so maps that hold themselves compare and end.
pub fn deep_equal(a: &Val, b: &Val) -> bool {
    deep_equal_in(a, b, &mut std::collections::HashSet::new())
}

fn deep_equal_in(a: &Val, b: &Val, visited: &mut std::collections::HashSet<(usize, usize)>) -> bool {
    let mut eq = |x: &Tv, y: &Tv| deep_equal_in(&x.val, &y.val, visited);
    match (a, b) {
        (Val::Map(x), Val::Map(y)) => {
            if x.same(y) || !visited.insert((x.id(), y.id())) {
                return true;
            }
            let (xs, ys) = (x.entries(), y.entries());
            xs.len() == ys.len() && xs.iter().zip(&ys).all(|((k, v), (j, w))| k == j && deep_equal_in(&v.val, &w.val, visited))
        }
        (Val::Nil, Val::Nil) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) | (Val::Int64(x), Val::Int64(y)) => x == y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Bytes(x), Val::Bytes(y)) => x == y,
        (Val::List(x), Val::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| eq(a, b)),
        (Val::TypedList(e, x), Val::TypedList(f, y)) => e == f && x.len() == y.len() && x.iter().zip(y).all(|(a, b)| eq(a, b)),
        (Val::StrMap(x), Val::StrMap(y)) => x == y,
        (Val::Ptr(x), Val::Ptr(y)) => eq(x, y),
        (Val::Struct(n, x), Val::Struct(m, y)) => n == m && x.len() == y.len() && x.iter().zip(y).all(|((a, v), (b, w))| a == b && eq(v, w)),
        (Val::Object(x), Val::Object(y)) => x.type_name() == y.type_name() && x.go_string() == y.go_string(),
        _ => false,
    }
}

/// A Go runtime panic's message as text/template reports a recovered one.
pub const NIL_DEREF: &str = "runtime error: invalid memory address or nil pointer dereference";

/// `reflect.TypeOf(v).Kind()` as sprig's list functions compute it before
/// they look: on nil it dereferences a nil `reflect.Type` and panics.
pub fn reflect_kind(v: &Tv) -> Result<&'static str, FnError> {
    match v.val {
        Val::Nil => Err(FnError::Go(NIL_DEREF.into())),
        ref other => Ok(kind_of(other)),
    }
}

/// A result made by a function (not one of its arguments).
pub fn made(val: Val) -> Tv {
    Tv::new(val)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cast_reads_strings_as_go_parse_int_with_base_prefixes() {
        assert_eq!(to_int64(&Tv::str("0x1F")), 31);
        assert_eq!(to_int64(&Tv::str("010")), 8);
        assert_eq!(to_int64(&Tv::str("0b101")), 5);
        assert_eq!(to_int64(&Tv::str("1_000")), 1000, "base 0 allows underscores");
        assert_eq!(to_int64(&Tv::str("1__0")), 0);
        assert_eq!(to_int64(&Tv::str("0x_1F")), 31);
        assert_eq!(to_int64(&Tv::str("5.00")), 5);
        assert_eq!(to_int64(&Tv::str("5.5")), 0);
        assert_eq!(to_int64(&Tv::str("-9223372036854775808")), i64::MIN);
        assert_eq!(to_int64(&Tv::str("9223372036854775808")), 0, "out of range is an error cast turns into 0");
        assert_eq!(to_int64(&Tv::new(Val::Float(-2.7))), -2);
        assert_eq!(to_int64(&Tv::new(Val::Float(1e300))), i64::MIN);
        assert_eq!(to_int64(&Tv::str("0")), 0);
        assert_eq!(to_int64(&Tv::str("")), 0);
    }

    #[test]
    fn parse_int_reports_range_errors_with_the_clamped_value() {
        assert_eq!(parse_int("99999999999999999999", 10), Err(IntError::Range(i64::MAX)));
        assert_eq!(parse_int("-99999999999999999999", 10), Err(IntError::Range(i64::MIN)));
        assert_eq!(parse_int("0x", 0), Err(IntError::Syntax));
        assert_eq!(parse_int("777", 8), Ok(511));
        assert_eq!(parse_int("0o17", 8), Err(IntError::Syntax));
    }

    #[test]
    fn parse_float_refuses_overflow_and_accepts_go_spellings() {
        assert_eq!(parse_float("1e400"), Err(()));
        assert_eq!(parse_float("-Inf"), Ok(f64::NEG_INFINITY));
        assert_eq!(parse_float(".5"), Ok(0.5));
        assert_eq!(parse_float("1_0"), Ok(10.0));
        assert_eq!(parse_float("_1"), Err(()));
        assert_eq!(trim_zero_decimal("10.0"), "10");
        assert_eq!(trim_zero_decimal("10"), "10");
        assert_eq!(trim_zero_decimal("1.50"), "1.50");
    }
}

/// Calls a sprig function directly (no executor: arguments already of the
/// signature's types), with a fixed host whose clock is `now` nanoseconds.
#[cfg(test)]
pub(super) fn call_at(name: &str, args: Vec<Tv>, host: &crate::gotmpl::func::FixedHost) -> Result<Tv, FnError> {
    let map = super::func_map();
    let def = map.get(name).unwrap_or_else(|| panic!("{name} is not registered"));
    let render = |_: crate::gotmpl::func::RenderRequest<'_>| Err(crate::gotmpl::TmplError::Unsupported { file: String::new(), line: 1, column: 1, construct: "render".into() });
    let call = crate::gotmpl::func::Call { name, host, render: &render };
    (def.f)(&call, args)
}

#[cfg(test)]
pub(super) fn call(name: &str, args: Vec<Tv>) -> Result<Tv, FnError> {
    call_at(name, args, &crate::gotmpl::func::FixedHost::default())
}

/// sprig part B through the real executor: what the tables cannot show
/// (the host's environment and clock, secret and nondeterministic marks).
#[cfg(test)]
mod through_the_executor {
    use crate::gotmpl::func::FixedHost;
    use crate::gotmpl::{MissingKey, RenderOptions, Rendered, TmplError, Tv, Val, render_with};

    fn run(src: &str, data: &Tv, host: &FixedHost) -> Result<Rendered, TmplError> {
        let funcs = super::super::func_map();
        render_with(src, data, &RenderOptions { name: "t", funcs: &funcs, host, missingkey: MissingKey::Default })
    }

    fn secret_data() -> Tv {
        let mut pw = Tv::str("hunter2");
        pw.secret = true;
        Tv::new(Val::Map([("pw".to_string(), pw), ("name".to_string(), Tv::str("app"))].into_iter().collect()))
    }

    #[test]
    fn env_and_expandenv_read_the_host_environment_only() {
        let host = FixedHost { env: [("REGION".to_string(), "eu-1".to_string())].into_iter().collect(), ..FixedHost::default() };
        let r = run(r#"{{ env "REGION" }}|{{ env "HOME" }}|{{ expandenv "r=$REGION h=${HOME}" }}"#, &Tv::new(Val::Nil), &host).unwrap();
        assert_eq!(r.text, "eu-1||r=eu-1 h=");
    }

    #[test]
    fn what_is_made_from_a_secret_stays_secret_and_what_is_passed_keeps_its_own_mark() {
        let host = FixedHost::default();
        for src in ["{{ toJson . }}", "{{ .pw | toRawJson }}", "{{ list .pw | toJson }}", "{{ dict \"k\" .pw | toPrettyJson }}", "{{ default \"x\" .pw }}", "{{ first (list .pw) }}", "{{ get . \"pw\" }}", "{{ dig \"pw\" \"\" . }}"] {
            let r = run(src, &secret_data(), &host).unwrap();
            assert!(r.spans.iter().any(|s| s.secret), "{src}: {r:?}");
        }
        // A type name or a test of a secret is masked too (as `len` is):
        // masking never leaks, so only what passes another value on is clean.
        for src in ["{{ get . \"name\" }}", "{{ default \"x\" .name }}", "{{ semver \"1.2.3\" }}"] {
            let r = run(src, &secret_data(), &host).unwrap();
            assert!(!r.spans.iter().any(|s| s.secret), "{src}: {r:?}");
        }
    }

    #[test]
    fn now_and_ago_are_marked_nondeterministic_and_read_the_host_clock() {
        let host = FixedHost { now_unix_nanos: 1_714_979_289_000_000_000, ..FixedHost::default() };
        let r = run("{{ now | date \"2006-01-02\" }} {{ ago 0 }}", &Tv::new(Val::Nil), &host).unwrap();
        assert_eq!(r.text, "2024-05-06 476383h8m9s");
        assert!(r.spans.iter().any(|s| s.nondeterministic));
        let r = run("{{ semverCompare \"^1\" \"1.2.0\" }}", &Tv::new(Val::Nil), &host).unwrap();
        assert!(!r.spans.iter().any(|s| s.nondeterministic));
    }

    #[test]
    fn dns_and_named_zones_are_refused_naming_what() {
        let host = FixedHost::default();
        let e = run("{{ getHostByName \"example.com\" }}", &Tv::new(Val::Nil), &host).unwrap_err();
        assert!(matches!(e, TmplError::Unsupported { ref construct, .. } if construct.contains("getHostByName")), "{e:?}");
        let e = run("{{ dateInZone \"15:04\" now \"Europe/Paris\" }}", &Tv::new(Val::Nil), &host).unwrap_err();
        assert!(matches!(e, TmplError::Unsupported { ref construct, .. } if construct.contains("Europe/Paris")), "{e:?}");
    }
}
