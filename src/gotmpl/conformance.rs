//! The conformance tables: every case of `tests/data/gotmpl/*.json` run
//! through this engine with the builtins and sprig's `TxtFuncMap`, against
//! what real Go text/template + sprig printed for it (the `"go"` field,
//! written by `tools/gotmpl-oracle`). Output is compared byte for byte, and
//! so are errors, in Go's wording. A case releasex refuses
//! ([`super::TmplError::Unsupported`]) fails unless the case says
//! `"releasex": "refused"` (a Go value releasex deliberately leaves out);
//! a case whose Go result is missing fails.

use std::path::Path;

use serde_json::Value;

use super::func::FixedHost;
use super::{MissingKey, RenderOptions, Tv, Val, render_with};

/// A case's `data` as the oracle decodes it: integers without `.eE` that
/// fit an int64 are Go `int`, other numbers `float64`.
fn data_of(v: &Value) -> Tv {
    Tv::new(match v {
        Value::Null => Val::Nil,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) if !n.to_string().contains(['.', 'e', 'E']) => Val::Int(i),
            _ => Val::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Val::Str(s.clone()),
        Value::Array(a) => Val::List(a.iter().map(data_of).collect()),
        Value::Object(m) => Val::Map(m.iter().map(|(k, v)| (k.clone(), data_of(v))).collect()),
    })
}

/// RFC 3339 (`2024-05-06T07:08:09.5+02:00`) to Unix nanoseconds.
fn unix_nanos(s: &str) -> Option<i128> {
    let num = |a: usize, b: usize| s.get(a..b)?.parse::<i64>().ok();
    let (y, mo, d, h, mi, sec) = (num(0, 4)?, num(5, 7)?, num(8, 10)?, num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let mut rest = s.get(19..)?;
    let mut nanos: i128 = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits: String = frac.chars().take_while(char::is_ascii_digit).collect();
        rest = &frac[digits.len()..];
        nanos = format!("{digits:0<9}").get(..9)?.parse().ok()?;
    }
    let offset = match rest {
        "Z" => 0,
        _ => {
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            sign * (rest.get(1..3)?.parse::<i64>().ok()? * 3600 + rest.get(4..6)?.parse::<i64>().ok()? * 60)
        }
    };
    // Howard Hinnant's days_from_civil.
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if mo > 2 { mo - 3 } else { mo + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset;
    Some(i128::from(secs) * 1_000_000_000 + nanos)
}

/// What our engine gives for one case, as the oracle writes Go's: `{"output": ...}` or `{"error": ...}`.
fn ours(case: &Value) -> Result<Value, String> {
    let template = case["template"].as_str().ok_or("the case has no \"template\"")?;
    let data = case.get("data").map_or_else(|| Tv::new(Val::Nil), data_of);
    let missingkey = match case.get("missingkey").and_then(Value::as_str) {
        None | Some("default" | "invalid") => MissingKey::Default,
        Some("zero") => MissingKey::Zero,
        Some("error") => MissingKey::Error,
        Some(other) => return Err(format!("unknown missingkey {other:?}")),
    };
    let now = match case.get("now").and_then(Value::as_str) {
        Some(s) => unix_nanos(s).ok_or_else(|| format!("bad \"now\" {s:?}"))?,
        None => 0,
    };
    let host = FixedHost { now_unix_nanos: now, ..FixedHost::default() };
    let funcs = match case.get("funcs").and_then(Value::as_str) {
        None => super::sprig::func_map(),
        // Only text/template's builtins (sprig replaces some, e.g. `slice`).
        Some("builtins") => super::func::FuncMap::new(),
        // helmfile's pure functions over sprig's (the oracle's helmfile.go).
        Some("helmfile") => super::helmfile::func_map(),
        Some(other) => return Err(format!("unknown funcs {other:?}")),
    };
    let opts = RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey };
    Ok(match render_with(template, &data, &opts) {
        Ok(r) => serde_json::json!({ "output": r.text }),
        Err(e) => match e.go_text() {
            Some(go) => serde_json::json!({ "error": go }),
            None => serde_json::json!({ "refused": e.to_string() }),
        },
    })
}

/// Runs every table; returns (cases, failures as text).
pub(super) fn run_tables(dir: &Path) -> (usize, Vec<String>) {
    let mut files: Vec<_> = std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect()).unwrap_or_default();
    files.sort();
    let mut count = 0;
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let cases: Vec<Value> = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: not a JSON array of cases: {e}", file.display()));
                continue;
            }
        };
        for case in &cases {
            count += 1;
            let name = case["name"].as_str().unwrap_or("?");
            let where_ = format!("{} / {name}", file.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned()));
            let Some(go) = case.get("go") else {
                failures.push(format!("{where_}: no \"go\" result (run tools/gotmpl-oracle on the table)"));
                continue;
            };
            // `"releasex": "refused"`: Go prints something releasex deliberately does not model (complex numbers).
            let refusal_expected = case.get("releasex").and_then(Value::as_str) == Some("refused");
            match ours(case) {
                Ok(ours) if ours == *go => {}
                Ok(ours) if refusal_expected && ours.get("refused").is_some() => {}
                Ok(ours) => failures.push(format!("{where_}\n  template: {}\n  ours: {ours}\n  go:   {go}", case["template"])),
                Err(e) => failures.push(format!("{where_}: {e}")),
            }
        }
    }
    (count, failures)
}

#[test]
fn every_table_case_prints_what_go_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gotmpl");
    let (count, failures) = run_tables(&dir);
    assert!(count > 0, "no cases under {}", dir.display());
    assert!(failures.is_empty(), "{} of {count} cases differ from Go:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn rfc3339_times_become_unix_nanoseconds() {
    assert_eq!(unix_nanos("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(unix_nanos("2024-05-06T07:08:09Z"), Some(1_714_979_289_000_000_000));
    assert_eq!(unix_nanos("2024-05-06T09:08:09.5+02:00"), Some(1_714_979_289_500_000_000));
}

#[test]
fn a_case_without_a_go_result_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("x.json"), r#"[{"name":"n","template":"a"}]"#).expect("write");
    let (count, failures) = run_tables(dir.path());
    assert_eq!((count, failures.len()), (1, 1));
}

/// Functions with sprig's Go signatures (sprig 3.2.3 functions.go:
/// `repeat(count int, str string)`, `ternary(vt, vf interface{}, v bool)`,
/// `hasKey(map[string]interface{}, string)`, `round(a interface{}, p int,
/// rOpt ...float64)`, `seq(params ...int)`) and the same small bodies, so
/// `tests/data/gotmpl/signatures/*.json` (filled by the Go oracle with real
/// sprig) proves the executor's argument conversion and checking before
/// the real sprig set is merged.
fn signature_funcs() -> super::func::FuncMap {
    use super::func::{Call, Derive, FnError, FuncMap, Param, Sig};
    fn int_of(v: &Tv) -> i64 {
        match v.val {
            Val::Int(i) | Val::Int64(i) => i,
            _ => 0,
        }
    }
    fn repeat(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let Val::Str(s) = &a[1].val else { return Err(FnError::Go("not a string".into())) };
        Ok(Tv::str(&s.repeat(usize::try_from(int_of(&a[0])).unwrap_or(0))))
    }
    fn ternary(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(if matches!(a[2].val, Val::Bool(true)) { a[0].clone() } else { a[1].clone() })
    }
    fn has_key(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let (Val::Map(m), Val::Str(k)) = (&a[0].val, &a[1].val) else { return Err(FnError::Go("bad".into())) };
        Ok(Tv::new(Val::Bool(m.contains_key(k))))
    }
    fn round(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let val = match a[0].val {
            Val::Float(f) => f,
            Val::Int(i) => i as f64,
            _ => 0.0,
        };
        let round_on = match a.get(2).map(|v| &v.val) {
            Some(Val::Float(f)) => *f,
            _ => 0.5,
        };
        let pow = 10f64.powi(i32::try_from(int_of(&a[1])).unwrap_or(0));
        let digit = pow * val;
        let r = if digit.fract() >= round_on { digit.ceil() } else { digit.floor() };
        Ok(Tv::new(Val::Float(r / pow)))
    }
    fn seq(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let (from, to) = match a.as_slice() {
            [] => return Ok(Tv::str("")),
            [n] => (1, int_of(n)),
            [a, b, ..] => (int_of(a), int_of(b)),
        };
        Ok(Tv::str(&(from..=to).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")))
    }
    let mut m = FuncMap::new();
    m.add("repeat", Sig::fixed(&[Param::Int, Param::String]), Derive::Made, repeat);
    m.add("ternary", Sig::fixed(&[Param::Any, Param::Any, Param::Bool]), Derive::Passed, ternary);
    m.add("hasKey", Sig::fixed(&[Param::Map, Param::String]), Derive::Made, has_key);
    m.add("round", Sig::variadic(&[Param::Any, Param::Int], Param::Float64), Derive::Made, round);
    m.add("seq", Sig::variadic(&[], Param::Int), Derive::Made, seq);
    m
}

#[test]
fn arguments_are_converted_and_checked_against_go_signatures_as_go_does() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gotmpl/signatures/core-signatures.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&path).expect("table")).expect("json");
    let funcs = signature_funcs();
    let host = FixedHost::default();
    let mut failures = Vec::new();
    for case in &cases {
        let opts = RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey: MissingKey::Default };
        let template = case["template"].as_str().unwrap_or_default();
        let ours = match render_with(template, &data_of(&case["data"]), &opts) {
            Ok(r) => serde_json::json!({ "output": r.text }),
            Err(e) => serde_json::json!({ "error": e.go_text().map_or_else(|| e.to_string(), str::to_string) }),
        };
        if ours != case["go"] {
            failures.push(format!("{template}\n  ours: {ours}\n  go:   {}", case["go"]));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
