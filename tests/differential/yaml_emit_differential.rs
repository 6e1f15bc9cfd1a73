//! `releasex::yaml::emit::json_to_yaml` against real Helm v4.2.3 `toYaml`.
//!
//! A chart whose only template is `{{ toYaml .Values }}` is rendered by the
//! oracle (`render CHART --engine -f FILE`, Helm's own engine) once per
//! generated values file, all in one oracle batch. Helm reads each values
//! file (written as JSON, so every number is a float64), `toYaml` prints
//! `json.Marshal` of it through sigs.k8s.io/yaml's JSONToYAML; we print
//! `json_to_yaml` of Go's `json.Marshal` text of the same values
//! (`to_go_json_float64`) and trim one newline as Helm does. Where go-yaml
//! refuses the JSON (raw DEL, C1 controls, U+FFFE/U+FFFF, a raw NEL in a key
//! or before `--- `), Helm prints nothing and we must return an error.
//!
//! The generator mixes nested maps and lists with strings built to hit
//! every styling rule (YAML 1.1 words, numbers and timestamps as strings,
//! base-60 floats, indicators, leading/trailing spaces, long text with and
//! without spaces, multi-line text, unicode, control characters, a BOM, NEL,
//! LS/PS), keys that test the natural sort order, long and multi-line keys,
//! and float64 numbers of every size. `YAML_EMIT_SEED=N` replays a run;
//! `YAML_EMIT_CASES=N` changes the number of files.

use crate::oracle_client;
use crate::xorshift::Rng;

use releasex::go::json::{GoNumbers, to_go_json_float64, write_go_number};
use releasex::yaml::emit::{EmitError, json_to_yaml};
use serde_json::{Map, Number, Value};

const WORDS: &[&str] = &[
    "yes", "no", "on", "off", "y", "n", "Y", "N", "~", "null", "Null", "true", "True", "FALSE", "1", "-1", "+1", "0x1F",
    "0o17", "0777", "0b101", "1_000", "1.5", "-1.5e3", ".5", ".inf", "-.Inf", ".nan", "1e3", "6.8523015e+5",
    "2001-01-01", "2001-12-14t21:59:43.10-05:00", "2002-12-14 21:59:43.10", "1:20", "190:20:30.15", "-1:30", "1:60", "<<", "-",
    "- a", "?", "? x", ":", "a: b", "a:b", "a #b", "a#b", "#c", "&a", "*a", "!t", "%p", "@x", "`b", "|", "> f", "'q'",
    "\"dq\"", "{x}", "[y]", "a,b", "---", "...", "---x", "...y", "", " ", "  lead", "trail ", "a  b", "word", "hello",
    "image", "nginx:1.25", "http://x.io/a?b=c&d", "<b>", "50%", "a\\b", "it's", "é", "日本", "😀", "\u{a0}", "\u{feff}",
    "\u{2028}", "\u{2029}", "\t", "\r", "\n", "\n\n", "\r\n", "\0", "\u{7}", "\u{1b}", "٣", "Ⅻ",
    "ß", "Ω", "z", "0", "00", "-0", "1e400", "0.1", "x y z",
];

/// Characters go-yaml's reader refuses (Go's JSON writes them raw).
const REFUSED: &[&str] = &["\u{7f}", "\u{9f}", "\u{80}", "\u{fffe}", "\u{ffff}"];

fn word(rng: &mut Rng) -> String {
    rng.pick(WORDS).to_string()
}

/// Text of `n` or so characters: words and spaces (sometimes double), for folding.
fn long_text(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.chars().count() < n {
        if !s.is_empty() {
            s.push_str(if rng.chance(8) { "  " } else { " " });
        }
        let w = if rng.chance(70) {
            ["alpha", "beta", "gamma", "delta", "x", "lorem", "ipsum", "configuration", "a", "é", "日本語"][rng.below(11)].to_string()
        } else {
            word(rng)
        };
        s.push_str(&w);
    }
    s
}

fn string_value(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=29 => word(rng),
        30..=44 => {
            // a few words glued, with or without spaces
            let n = 2 + rng.below(3);
            let sep = *rng.pick(&["", " ", "-", ":", "\n", "  "]);
            (0..n).map(|_| word(rng)).collect::<Vec<_>>().join(sep)
        }
        45..=59 => {
            let n = 60 + rng.below(200);
            long_text(rng, n)
        }
        60..=64 => "x".repeat(70 + rng.below(100)),
        65..=79 => {
            // multi-line text, sometimes with leading spaces, blank lines, trailing breaks
            let lines = 1 + rng.below(4);
            let mut s = String::new();
            for i in 0..lines {
                if i > 0 {
                    s.push('\n');
                }
                if rng.chance(15) {
                    s.push_str("  ");
                }
                if rng.chance(20) {
                    continue;
                }
                let n = if rng.chance(20) { 90 } else { 10 };
                s.push_str(&long_text(rng, n));
                if rng.chance(8) {
                    s.push(' ');
                }
            }
            for _ in 0..rng.below(3) {
                s.push('\n');
            }
            s
        }
        80..=84 => {
            // a long double-quoted one: control characters and spaces past column 80
            let n = 100 + rng.below(60);
            let mut s = long_text(rng, n);
            let at = rng.below(s.len());
            let at = (0..=at).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0);
            let ins = *rng.pick(&["\t", "\u{1}", "\r", "\u{85}", "  ", "😀", "\u{2028}", " ", "\\"]);
            s.insert_str(at, ins);
            s
        }
        85..=87 => format!("{}{}{}", rng.pick(&[" ", "", "\u{feff}", "\n", "-", "'"]), word(rng), rng.pick(&[" ", "", "\n", "\u{2028}"])),
        88 if rng.chance(30) => {
            // a raw NEL folds on go-yaml's reading; before "--- " it is a document marker (error)
            format!("{}{}{}", word(rng), rng.pick(&[" \u{85}  ", "\u{85}", "\u{85}--- x", "\u{85}...", "\u{85}\u{85}"]), word(rng))
        }
        89 if rng.chance(10) => format!("{}{}", word(rng), rng.pick(REFUSED)),
        _ => format!("{} {}", word(rng), word(rng)),
    }
}

fn key(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=39 => rng
            .pick(&[
                "a", "b", "c", "a1", "a2", "a10", "a01", "a001", "A", "B", "Z", "_x", "-x", "1", "01", "10", "2", "007", "é",
                "日本", "k k", "yes", "null", "", "a.b", "x1y2", "x10y1", "x1y10", "x01", "v1.2.10", "v1.10.2", "ä", "٣", "b٣",
                "Ⅻ", "a-b", "a_b", "~", "<<", "true",
            ])
            .to_string(),
        40..=79 => {
            let s = word(rng);
            format!("{s}{}", rng.below(30))
        }
        80..=89 => word(rng),
        90..=94 => {
            let n = 120 + rng.below(60);
            long_text(rng, n)
        }
        95..=97 => format!("{}\n{}", word(rng), word(rng)),
        98 if rng.chance(40) => format!("k{}", rng.pick(&["\u{85}x", "\u{2028}x", "\t", " ", "\u{a0}"])),
        _ => string_value(rng).chars().take(60).collect(),
    }
}

fn number(rng: &mut Rng) -> Value {
    let f: f64 = match rng.below(10) {
        0 => rng.below(100) as f64,
        1 => -(rng.below(1000) as f64),
        2 => (rng.next() % 1_000_000) as f64 / 1000.0,
        3 => 10f64.powi(rng.below(25) as i32),
        4 => (rng.next() >> 11) as f64 * 2f64.powi(rng.below(30) as i32),
        5 => 1.0 / 10f64.powi(rng.below(10) as i32),
        6 => 12345678901234567890.0,
        7 => 9007199254740993.0,
        8 => -(rng.next() as f64) / 7.0,
        _ => *rng.pick(&[0.5, 1e21, 1e20, 1e19, 123456.0, 1e6, 0.000001, 0.0000001, 1.7976931348623157e308, 5e-324]),
    };
    Value::Number(Number::from_f64(f).expect("finite"))
}

fn value(rng: &mut Rng, depth: usize) -> Value {
    let r = rng.below(100);
    if depth < 4 && r < 25 {
        let n = rng.below(6);
        let mut m = Map::new();
        for _ in 0..n {
            let k = key(rng);
            let v = value(rng, depth + 1);
            m.insert(k, v);
        }
        return Value::Object(m);
    }
    if depth < 4 && r < 40 {
        let n = rng.below(5);
        return Value::Array((0..n).map(|_| value(rng, depth + 1)).collect());
    }
    match r {
        40..=44 => Value::Null,
        45..=49 => Value::Bool(rng.chance(50)),
        50..=64 => number(rng),
        _ => Value::String(string_value(rng)),
    }
}

/// The values file: JSON that go-yaml (Helm's values loader) reads back as
/// the same values: non-ASCII characters of the BMP as `\uXXXX` (go-yaml's
/// reader refuses some raw ones), others raw (it refuses surrogate escapes).
fn values_file(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_go_number(out, n, GoNumbers::Float64),
        Value::String(s) => file_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                values_file(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                file_string(k, out);
                out.push(':');
                values_file(x, out);
            }
            out.push('}');
        }
    }
}

fn file_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The oracle's `render CHART --engine -f FILE` call.
fn render_call(chart: &std::path::Path, file: &std::path::Path) -> Vec<String> {
    vec!["render".to_string(), chart.to_str().expect("utf-8").to_string(), "--engine".to_string(), "-f".to_string(), file.to_str().expect("utf-8").to_string()]
}

/// Cases the JSON values files cannot carry, written as block YAML: keys
/// over 1024 characters (go-yaml refuses them as JSON flow keys, not as
/// explicit block keys) around the limit, and deep nesting.
fn hand_cases() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    // the limit counts JSON text: `<` is six characters (`\u003c`)
    let keys = [1021usize, 1022, 1023, 1100].map(|n| "k".repeat(n)).into_iter().chain([170usize, 171].map(|n| "<".repeat(n)));
    for k in keys {
        let mut m = Map::new();
        m.insert(k.clone(), Value::from(1.0));
        m.insert("a".into(), Value::from("b"));
        out.push((format!("? \"{k}\"\n: 1\na: b\n"), Value::Object(m)));
    }
    for depth in [50usize, 300] {
        let (mut text, mut v) = ("1".to_string(), Value::from(1.0));
        for d in (0..depth).rev() {
            if d % 2 == 0 {
                text = format!("{{\"k{d}\":{text}}}");
                let mut m = Map::new();
                m.insert(format!("k{d}"), v);
                v = Value::Object(m);
            } else {
                text = format!("[{text},\"x\"]");
                v = Value::Array(vec![v, Value::from("x")]);
            }
        }
        out.push((text, v));
    }
    out
}

fn leaves(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.iter().map(leaves).sum(),
        Value::Object(m) => m.values().map(leaves).sum::<usize>() + m.len(),
        _ => 1,
    }
}

#[test]
fn yaml_emit_matches_helm_to_yaml() {
    let seed: u64 = std::env::var("YAML_EMIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_7a41);
    let cases: usize = std::env::var("YAML_EMIT_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    println!("seed {seed} ({cases} values files; YAML_EMIT_SEED / YAML_EMIT_CASES to change)");
    let mut rng = Rng(seed);

    let tmp = tempfile::tempdir().expect("tempdir");
    let chart = tmp.path().join("t");
    std::fs::create_dir_all(chart.join("templates")).expect("chart dir");
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: t\nversion: 0.1.0\n").expect("Chart.yaml");
    std::fs::write(chart.join("templates/t.yaml"), "{{ toYaml .Values }}").expect("template");

    let mut values = Vec::with_capacity(cases);
    let mut calls = Vec::with_capacity(cases);
    for i in 0..cases {
        // a top-level map, as .Values always is
        let mut m = Map::new();
        for _ in 0..1 + rng.below(8) {
            let k = key(&mut rng);
            let v = value(&mut rng, 1);
            m.insert(k, v);
        }
        let v = Value::Object(m);
        let mut text = String::new();
        values_file(&v, &mut text);
        let file = tmp.path().join(format!("v{i}.json"));
        std::fs::write(&file, text).expect("values file");
        calls.push(render_call(&chart, &file));
        values.push(v);
    }
    for (i, (text, v)) in hand_cases().into_iter().enumerate() {
        let file = tmp.path().join(format!("h{i}.yaml"));
        std::fs::write(&file, text).expect("values file");
        calls.push(render_call(&chart, &file));
        values.push(v);
    }
    let cases = values.len();

    let answers = oracle_client::batch_answered(&calls);
    let (mut diffs, mut refused, mut unordered, mut lines) = (Vec::new(), 0usize, 0usize, 0usize);
    let mut reasons = std::collections::BTreeMap::new();
    for (i, (v, a)) in values.iter().zip(&answers).enumerate() {
        assert_eq!(a["status"], "ok", "case {i}: Helm could not render: {a}");
        let helm = a["templates"]["t/templates/t.yaml"].as_str().unwrap_or_else(|| panic!("case {i}: no template in {a}"));
        let json = to_go_json_float64(v);
        let ours = json_to_yaml(&json);
        if helm.is_empty() {
            refused += 1;
            if let Err(e) = &ours {
                let kind = format!("{e:?}");
                let kind = kind.split('(').next().unwrap_or_default().to_string();
                *reasons.entry(kind).or_insert(0usize) += 1;
            }
        }
        lines += helm.lines().count();
        let same = match &ours {
            // Go's order of these keys follows its random map iteration:
            // nothing to compare (json_to_yaml refuses rather than guess).
            Err(EmitError::KeyOrder(_)) => {
                unordered += 1;
                continue;
            }
            Ok(y) => y.strip_suffix('\n').unwrap_or(y) == helm,
            Err(_) => helm.is_empty(),
        };
        if !same {
            diffs.push(format!("case {i}: json {json}\n  helm {helm:?}\n  ours {ours:?}"));
        }
    }
    let total_leaves: usize = values.iter().map(leaves).sum();
    println!(
        "{cases} toYaml renders ({total_leaves} keys and scalars, {lines} lines of YAML; {refused} refused by go-yaml, \
         {unordered} with keys Go orders at random, not compared), {} differences; refusals by our error: {reasons:?}",
        diffs.len()
    );
    assert!(diffs.is_empty(), "{} of {cases} differ; first ones:\n{}", diffs.len(), diffs.iter().take(5).cloned().collect::<Vec<_>>().join("\n"));
}
