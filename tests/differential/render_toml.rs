//! `toToml`, `mustToToml`, `fromToml` and `toYamlPretty` in
//! `kubectl-releasex template` against real Helm v4.2.3's engine (tests/oracle
//! `render CHART --engine`), byte for byte.
//!
//! Three kinds of seeded generated charts, one render each:
//! - values charts: a generated value tree (nested maps, lists of maps,
//!   mixed lists, strings with quotes, backslashes, newlines, tabs,
//!   control characters and unicode, floats such as 1.5, 1e+06, 0.1, -0,
//!   1e21, bools, empty maps and lists, null map values, keys that need
//!   quotes) written as JSON into values.yaml; the templates print
//!   `toToml` of it and of its parts (lists of maps: `errNoKey`; lists
//!   with nil: `errArrayNilElement`), the `fromToml` round trip printed
//!   with `toJson`, `%v`, `typeOf`, `toYaml` and `toToml`, and, in some
//!   charts, `mustToToml` of a value it cannot encode (Helm's error);
//! - yaml charts: `toYamlPretty` of a generated tree;
//! - document charts: `fromToml` of a generated TOML document
//!   (files/doc.toml: bare, quoted and dotted keys, tables, arrays of
//!   tables, inline tables over lines, basic, literal and multi-line
//!   strings with escapes and line-ending backslashes, hex/octal/binary
//!   and underscored integers, floats, inf and nan, comments, CRLF), some
//!   of them corrupted (a duplicated key, a leading zero, a date, a bad
//!   escape, a table over dotted keys, ...).
//!
//! Where releasex refuses ("not modelled by releasex's renderer")
//! the chart is counted as refused, split by whether Helm's `fromToml`
//! gave `{Error: ...}` (the first line of a document chart prints
//! `hasKey $d "Error"`); any other difference fails.
//!
//! Environment: `TOML_GEN_SEED=N` replays a run (printed always),
//! `TOML_GEN_CHARTS=N` charts of each kind (default 150),
//! `TOML_GEN_SHOW_REFUSED=1` prints each refusal.

use crate::{oracle_client, xorshift};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};
use xorshift::Rng;

fn write(path: &Path, body: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

const KEYS: &[&str] = &["a", "b", "name", "port", "key-1", "snake_case", "Z", "10", "2", "key with space", "a.b", "", "ünï", "quote\"d", "tab\tkey", "x=y", "[t]", "#c", "true"];
const STRINGS: &[&str] = &[
    "", "plain", "with space", "he said \"hi\"", "back\\slash", "line1\nline2", "tab\there", "cr\r\n", "bell\u{7}", "esc\u{1b}", "é☃😀", "'single'", "#hash", "a = b", "[x]", "{y}", "1.5", "true", "<&>",
];
/// 1651109404107626.25: Go prints the even one of two equally close shortest forms (…626.2).
const TIE: f64 = f64::from_bits(0x4317_76b3_7611_8da9);
const FLOATS: &[f64] = &[1.5, 1e6, 0.1, -0.0, 0.0, 3.0, 1e21, 1e20, 1e-7, 123456.789, -2.5, 100.0, 1.0e-5, 65536.0, TIE, 0.30000000000000004];

fn key(rng: &mut Rng) -> String {
    rng.pick(KEYS).to_string()
}

fn scalar(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 | 1 => json!(rng.pick(STRINGS)),
        2 => json!(rng.pick(FLOATS)),
        3 => json!(rng.below(2000) as i64 - 1000),
        4 => json!(rng.chance(50)),
        _ => json!(format!("s{}", rng.below(100))),
    }
}

/// A value tree; `nil_ok`: nulls may appear as map values (toToml skips them).
fn tree(rng: &mut Rng, depth: usize) -> Value {
    if depth == 0 || rng.chance(35) {
        return scalar(rng);
    }
    match rng.below(5) {
        0 | 1 => Value::Object(map(rng, depth - 1)),
        2 => Value::Array((0..rng.below(4)).map(|_| Value::Object(map(rng, depth - 1))).collect()),
        3 => Value::Array((0..rng.below(4)).map(|_| scalar(rng)).collect()),
        _ => Value::Array((0..rng.below(4)).map(|_| tree(rng, depth - 1)).collect()),
    }
}

fn map(rng: &mut Rng, depth: usize) -> Map<String, Value> {
    let mut m = Map::new();
    for _ in 0..rng.below(5) {
        let v = if rng.chance(8) { Value::Null } else { tree(rng, depth) };
        m.insert(key(rng), v);
    }
    m
}

/// Whether a null sits in a list anywhere (toToml's `errArrayNilElement`).
fn nil_in_list(v: &Value) -> bool {
    match v {
        Value::Array(l) => l.iter().any(|x| x.is_null() || nil_in_list(x)),
        Value::Object(m) => m.values().any(nil_in_list),
        _ => false,
    }
}

const CHART: &str = "apiVersion: v2\nname: t\nversion: 0.1.0\n";

fn values_chart(rng: &mut Rng, dir: &Path) {
    let mut v = map(rng, 4);
    if rng.chance(20) {
        v.insert("withnil".into(), json!([1, null]));
    }
    let v = Value::Object(v);
    write(&dir.join("Chart.yaml"), CHART.as_bytes());
    write(&dir.join("values.yaml"), serde_json::to_string_pretty(&json!({ "v": v, "list": [{"a": 1}, {"b": "x"}], "scalars": [1.5, "s", true] })).expect("json").as_bytes());
    let mut t = String::from("{{ toToml .Values.v }}\n---\n{{ toToml .Values.list }}|{{ toToml .Values.scalars }}|{{ toToml 1.5 }}|{{ toToml \"s\\\"\" }}\n");
    let keys: Vec<String> = v.as_object().map(|m| m.iter().filter(|(_, x)| !x.is_null()).map(|(k, _)| k.clone()).collect()).unwrap_or_default();
    for k in keys {
        t.push_str(&format!("---\n{{{{ toToml (index .Values.v {}) }}}}\n", json!(k)));
    }
    if !nil_in_list(&v) {
        t.push_str("---\n{{ $r := fromToml (toToml .Values.v) }}{{ toJson $r }}\n{{ $r }}\n{{ toToml $r }}\n{{ toYaml $r }}\n{{ range $k, $x := $r }}{{ $k }}={{ typeOf $x }} {{ end }}\n");
    }
    write(&dir.join("templates/t.yaml"), t.as_bytes());
    if rng.chance(15) {
        write(&dir.join("templates/must.yaml"), b"{{ mustToToml (list 1 nil) }}\n");
    }
}

fn yaml_chart(rng: &mut Rng, dir: &Path) {
    let v = Value::Object(map(rng, 3));
    write(&dir.join("Chart.yaml"), CHART.as_bytes());
    write(&dir.join("values.yaml"), serde_json::to_string_pretty(&json!({ "v": v })).expect("json").as_bytes());
    write(&dir.join("templates/y.yaml"), b"{{ toYamlPretty .Values.v }}\n---\n{{ toYamlPretty .Values.v.missing }}|{{ toYamlPretty (list) }}|{{ toYamlPretty 1.5 }}\n");
}

// ---------------------------------------------------------------------------
// TOML documents

fn toml_key(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => "\"quoted key\"".into(),
        1 => "'lit.key'".into(),
        2 => "\"esc\\tkey\\u00e9\"".into(),
        3 => "1234".into(),
        4 => "\"\"".into(),
        _ => format!("{}{}", rng.pick(&["k", "name", "a-b", "c_d", "Key"]), rng.below(6)),
    }
}

fn toml_scalar(rng: &mut Rng) -> String {
    rng.pick(&[
        "1", "-17", "+42", "0", "-0", "1_000", "0xDEAD_beef", "0o755", "0b1101", "9223372036854775807", "-9223372036854775808", "1.5", "-0.0", "+1e6", "1e+06", "6.626e-34", "3.14_15",
        "1E2", "inf", "-inf", "+inf", "nan", "-nan", "true", "false", "\"basic\"", "\"q\\\"uote\\\\ \\n\\t\\b\\f\\r\\e\\x41\\u00e9\\U0001F600\"", "'C:\\path'", "\"\"", "''",
        "\"\"\"\nmulti\nline\"\"\"", "\"\"\"one \\\n    two\"\"\"", "\"\"\"q \"\" \"\"\"\"\"", "'''\nraw\\n ''lit'' '''", "'''x'''''", "\"é☃\"", "\"\\u0000\"",
    ])
    .to_string()
}

fn toml_value(rng: &mut Rng, depth: usize) -> String {
    if depth == 0 || rng.chance(60) {
        return toml_scalar(rng);
    }
    match rng.below(4) {
        0 => format!("[{}]", (0..rng.below(4)).map(|_| toml_value(rng, depth - 1)).collect::<Vec<_>>().join(", ")),
        1 => format!("[\n  {},\n  # c\n]", (0..rng.below(3) + 1).map(|_| toml_value(rng, depth - 1)).collect::<Vec<_>>().join(",\n  ")),
        2 => {
            let mut keys: Vec<String> = (0..rng.below(3)).map(|i| format!("i{i}")).collect();
            keys.dedup();
            format!("{{{}}}", keys.iter().map(|k| format!("{k} = {}", toml_value(rng, depth - 1))).collect::<Vec<_>>().join(", "))
        }
        _ => format!("{{\n  x.y = {},\n  z = {}, # c\n}}", toml_value(rng, depth - 1), toml_value(rng, depth - 1)),
    }
}

/// Key/value lines with distinct keys.
fn toml_pairs(rng: &mut Rng, out: &mut String, prefix: &str) {
    let mut used = std::collections::HashSet::new();
    for _ in 0..rng.below(5) {
        let k = toml_key(rng);
        if used.insert(k.clone()) {
            let dotted = if rng.chance(15) { format!("{prefix}d{}.", used.len()) } else { String::new() };
            out.push_str(&format!("{dotted}{k} = {}{}\n", toml_value(rng, 2), if rng.chance(20) { " # trailing" } else { "" }));
        }
    }
}

fn toml_doc(rng: &mut Rng) -> String {
    let mut out = String::from("# generated\n");
    toml_pairs(rng, &mut out, "");
    for t in 0..rng.below(4) {
        match rng.below(3) {
            0 => out.push_str(&format!("\n[t{t}]\n")),
            1 => out.push_str(&format!("\n[ t{t} . \"sub\" ]\n")),
            _ => out.push_str(&format!("\n[[arr{t}]]\n")),
        }
        toml_pairs(rng, &mut out, "t");
        if rng.chance(40) {
            out.push_str(&format!("[[arr{t}]]\nn = {t}\n"));
        }
    }
    if rng.chance(25) {
        let corruptions = [
            "dup = 1\ndup = 2\n",
            "lead = 01\n",
            "date = 1979-05-27T07:32:00Z\n",
            "d2 = 1979-05-27\n",
            "bad = \"\\q\"\n",
            "sp = \"\\ \"\n",
            "dot.x = 1\n[dot]\ny = 2\n",
            "[tt]\n[tt]\n",
            "u = 1__0\n",
            "h = 0x_1\n",
            "f = 1.\n",
            "f2 = .5\n",
            "big = 9223372036854775808\n",
            "s = \"unterminated\n",
            "x = 1 2\n",
            "inl = {a = 1}\ninl.b = 2\n",
            "a.b = 1\na = 2\n",
            "ctrl = \"\u{1}\"\n",
            "six = \"\"\"x\"\"\"\"\"\"\n",
            "k = \"\\uD800\"\n",
            "e = 1e400\n",
            "n = nan1\n",
            "[[tables]]\n[tables]\n",
            "crlf = 1\r\nok = 2\r\n",
            "lonecr = 1\r",
            "= 1\n",
        ];
        let corruption: &&str = rng.pick(&corruptions[..]);
        out.push_str(corruption);
    }
    if rng.chance(10) {
        out = out.replace('\n', "\r\n");
    }
    out
}

fn doc_chart(rng: &mut Rng, dir: &Path) {
    write(&dir.join("Chart.yaml"), CHART.as_bytes());
    write(&dir.join("files/doc.toml"), toml_doc(rng).as_bytes());
    write(
        &dir.join("templates/d.yaml"),
        b"{{ $d := fromToml (.Files.Get \"files/doc.toml\") }}{{ hasKey $d \"Error\" }}\n{{ toJson $d }}\n{{ $d }}\n{{ toToml $d }}\n{{ range $k, $x := $d }}{{ $k }}={{ typeOf $x }} {{ end }}\n",
    );
}

// ---------------------------------------------------------------------------

enum Verdict {
    Equal,
    Refused { helm_error_key: bool, helm_failed: bool },
    Differ(String),
}

fn compare(chart: &Path, helm: &Value) -> Verdict {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-releasex"))
        .args(["template", "r"])
        .arg(chart)
        .args(["-o", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run kubectl-releasex");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let helm_text = |name: &str| helm["templates"].get(name).and_then(Value::as_str).map(str::to_string);
    if stderr.contains("not modelled by releasex's renderer") {
        let error_key = helm_text("t/templates/d.yaml").is_some_and(|t| t.starts_with("true"));
        return match helm["status"].as_str() {
            Some("ok") => {
                if std::env::var_os("TOML_GEN_SHOW_REFUSED").is_some() {
                    eprintln!("refused {} (Helm's Error key: {error_key}): {}", chart.display(), stderr.trim_end());
                }
                Verdict::Refused { helm_error_key: error_key, helm_failed: false }
            }
            // A chart's other template may fail in Helm first; a refusal is never a different output.
            Some("error") => Verdict::Refused { helm_error_key: false, helm_failed: true },
            _ => panic!("the Helm oracle could not answer for {}: {helm}", chart.display()),
        };
    }
    match helm["status"].as_str() {
        Some("ok") => {
            let rendered_invalid_yaml = out.status.code() == Some(1) && stderr.contains("YAML parse error on ");
            if !out.status.success() && !rendered_invalid_yaml {
                return Verdict::Differ(format!("helm rendered; ours exited {:?}: {stderr}", out.status.code()));
            }
            let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            let want = helm["templates"].as_object().cloned().unwrap_or_default();
            for (name, text) in &want {
                let got = &doc["templates"][name];
                if got != text {
                    return Verdict::Differ(format!("template {name}:\n--- helm\n{}\n--- ours\n{}", text.as_str().unwrap_or(""), got.as_str().unwrap_or("(missing)")));
                }
            }
            Verdict::Equal
        }
        Some("error") => {
            let text = helm["error"].as_str().unwrap_or("").trim_end();
            if !out.status.success() && stderr.contains(&format!("error: {text}")) {
                Verdict::Equal
            } else {
                Verdict::Differ(format!("helm failed: {text}\nours exited {:?}: {stderr}", out.status.code()))
            }
        }
        _ => panic!("the Helm oracle could not answer for {}: {helm}", chart.display()),
    }
}

#[test]
fn toml_and_yaml_pretty_functions_match_helm() {
    let seed = crate::xorshift::seed_from_env("TOML_GEN_SEED");
    let count: usize = std::env::var("TOML_GEN_CHARTS").ok().and_then(|s| s.parse().ok()).unwrap_or(150);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut charts: Vec<(&str, PathBuf)> = Vec::new();
    for i in 0..count {
        let mut rng = Rng(seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
        for _ in 0..4 {
            rng.next();
        }
        for (kind, make) in [("values", values_chart as fn(&mut Rng, &Path)), ("yaml", yaml_chart), ("doc", doc_chart)] {
            let dir = tmp.path().join(format!("{kind}-{i}")).join("t");
            make(&mut rng, &dir);
            charts.push((kind, dir));
        }
    }
    let calls: Vec<Vec<String>> = charts.iter().map(|(_, c)| vec!["render".into(), c.to_string_lossy().into_owned(), "--engine".into(), "--name".into(), "r".into()]).collect();
    let answers = oracle_client::batch_answered(&calls);
    let mut failures = Vec::new();
    let mut tally: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for ((kind, chart), helm) in charts.iter().zip(&answers) {
        let verdict = match compare(chart, helm) {
            Verdict::Equal if helm["status"] == "error" => "equal Helm errors",
            Verdict::Equal => "equal",
            Verdict::Refused { helm_failed: true, .. } => "refused (Helm failed)",
            Verdict::Refused { helm_error_key: true, .. } => "refused (Helm: {Error})",
            Verdict::Refused { .. } => "refused",
            Verdict::Differ(d) => {
                failures.push(format!("{} ({kind}):\n{d}", chart.display()));
                "different"
            }
        };
        *tally.entry((kind, verdict)).or_default() += 1;
    }
    let summary: Vec<String> = tally.iter().map(|((k, v), n)| format!("{k} {v}: {n}")).collect();
    eprintln!("TOML_GEN_SEED={seed}: {} charts; {}", charts.len(), summary.join(", "));
    if !failures.is_empty() {
        eprintln!("generated charts kept in {}", tmp.keep().display());
    }
    assert!(failures.is_empty(), "{} charts differ from Helm (TOML_GEN_SEED={seed}):\n{}", failures.len(), failures.iter().take(6).cloned().collect::<Vec<_>>().join("\n\n"));
}
