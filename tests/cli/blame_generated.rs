//! Seeded generated charts for `blame`: every values key holds a unique
//! marker (`mk17q`, or `ms17q` when `--set` overrides it; a map or list
//! printed whole holds `mk17a`, `mk17c`, one per leaf), printed through one
//! of Helm's idioms (direct, `quote`, `default`, `required`, `ternary`,
//! `include` of a partial reading `.Values`, `include` with a `dict`, `tpl`
//! of a value, `toYaml | nindent` of a map or a list, `range`, `with`, `$`
//! inside `range`, variables, `printf` of two keys, `upper`, a partial
//! printed whole with `include | nindent`). Two properties
//! per chart:
//!
//! 1. every leaf whose text holds a marker is blamed on that marker's key,
//!    and on no other key (but the `tpl` text it came through);
//! 2. every key the templates read is blamed on some leaf.
//!
//! `BLAME_GEN_SEED=N` replays a run (the seed is printed), `BLAME_GEN_CHARTS=N`
//! (default 60).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::support::{releasex, run};
use crate::xorshift::Rng;

#[derive(Default)]
struct Chart {
    values: serde_json::Map<String, Value>,
    helpers: String,
    templates: [String; 2],
    flags: Vec<String>,
    /// marker (lowercase) -> the key path that holds it
    markers: BTreeMap<String, String>,
    /// keys a template reads
    reads: BTreeSet<String>,
}

impl Chart {
    /// A new scalar key holding `marker`, nested under a group half the time;
    /// `--set-string` may override it with an `ms` marker.
    fn scalar(&mut self, rng: &mut Rng, i: usize, name: &str) -> String {
        let marker = format!("mk{i}{name}");
        let path = if rng.chance(50) {
            let group = format!("g{}", i % 3);
            let entry = self.values.entry(group.clone()).or_insert_with(|| json!({}));
            entry[format!("{name}{i}")] = json!(marker);
            format!("{group}.{name}{i}")
        } else {
            self.values.insert(format!("{name}{i}"), json!(marker));
            format!("{name}{i}")
        };
        if rng.chance(25) {
            let set = format!("ms{i}{name}");
            self.flags.extend(["--set-string".into(), format!("{path}={set}")]);
            self.markers.insert(set, path.clone());
        } else {
            self.markers.insert(marker, path.clone());
        }
        self.reads.insert(path.clone());
        path
    }

    /// A new key holding a map or list whose leaves are markers.
    fn whole(&mut self, i: usize, value: Value, leaves: &[(&str, &str)]) -> String {
        let path = format!("w{i}");
        self.values.insert(path.clone(), value);
        for (leaf, marker) in leaves {
            let at = if leaf.starts_with('[') { format!("{path}{leaf}") } else { format!("{path}.{leaf}") };
            self.markers.insert(marker.to_string(), at.clone());
            self.reads.insert(at);
        }
        path
    }
}

/// One construct `i`: the template lines (under `spec:`) that print it.
fn construct(rng: &mut Rng, c: &mut Chart, i: usize) -> String {
    let f = format!("f{i}");
    match rng.below(17) {
        0 => format!("  {f}: {{{{ .Values.{} }}}}\n", c.scalar(rng, i, "k")),
        1 => format!("  {f}: {{{{ .Values.{} | quote }}}}\n", c.scalar(rng, i, "k")),
        2 => format!("  {f}: {{{{ default \"dflt\" .Values.{} }}}}\n", c.scalar(rng, i, "k")),
        3 => format!("  {f}: {{{{ required \"need it\" .Values.{} }}}}\n", c.scalar(rng, i, "k")),
        4 => format!("  {f}: {{{{ ternary .Values.{} \"no\" true }}}}\n", c.scalar(rng, i, "k")),
        5 => {
            let p = c.scalar(rng, i, "k");
            let _ = writeln!(c.helpers, "{{{{- define \"gen.h{i}\" -}}}}\n{{{{ .Values.{p} }}}}\n{{{{- end }}}}");
            format!("  {f}: {{{{ include \"gen.h{i}\" . }}}}\n")
        }
        6 => {
            let p = c.scalar(rng, i, "k");
            let _ = writeln!(c.helpers, "{{{{- define \"gen.h{i}\" -}}}}\nv-{{{{ .v }}}}\n{{{{- end }}}}");
            format!("  {f}: {{{{ include \"gen.h{i}\" (dict \"v\" .Values.{p}) | quote }}}}\n")
        }
        7 => {
            let p = c.scalar(rng, i, "k");
            let t = format!("t{i}");
            c.values.insert(t.clone(), json!(format!("{{{{ .Values.{p} }}}}-t")));
            c.reads.insert(t.clone());
            format!("  {f}: {{{{ tpl .Values.{t} . }}}}\n")
        }
        8 => {
            let p = c.whole(i, json!({"a": format!("mk{i}a"), "b": {"c": format!("mk{i}c")}}), &[("a", &format!("mk{i}a")), ("b.c", &format!("mk{i}c"))]);
            format!("  {f}:{{{{ toYaml .Values.{p} | nindent 4 }}}}\n")
        }
        9 => {
            let p = c.whole(i, json!([{"name": format!("mk{i}a")}, {"name": format!("mk{i}b")}]), &[("[0].name", &format!("mk{i}a")), ("[1].name", &format!("mk{i}b"))]);
            format!("  {f}:\n  {{{{- range .Values.{p} }}}}\n    - n: {{{{ .name }}}}\n  {{{{- end }}}}\n")
        }
        10 => {
            let p = c.whole(i, json!({"leaf": format!("mk{i}l")}), &[("leaf", &format!("mk{i}l"))]);
            format!("  {{{{- with .Values.{p} }}}}\n  {f}: {{{{ .leaf }}}}\n  {{{{- end }}}}\n")
        }
        11 => format!("  {{{{- range $i, $e := list 1 }}}}\n  {f}: {{{{ $.Values.{} }}}}\n  {{{{- end }}}}\n", c.scalar(rng, i, "k")),
        12 => format!("  {{{{- $v{i} := .Values.{} }}}}\n  {f}: {{{{ $v{i} }}}}\n", c.scalar(rng, i, "k")),
        13 => {
            let (p, q) = (c.scalar(rng, i, "k"), c.scalar(rng, i, "q"));
            format!("  {f}: {{{{ printf \"%s-%s\" .Values.{p} .Values.{q} }}}}\n")
        }
        14 => {
            let p = c.whole(i, json!([format!("mk{i}a"), format!("mk{i}b")]), &[("[0]", &format!("mk{i}a")), ("[1]", &format!("mk{i}b"))]);
            format!("  {f}:{{{{ toYaml .Values.{p} | nindent 4 }}}}\n")
        }
        15 => format!("  {f}: {{{{ .Values.{} | upper }}}}\n", c.scalar(rng, i, "k")),
        _ => {
            // A partial printed whole: each of its leaves blamed inside it.
            let (p, q) = (c.scalar(rng, i, "k"), c.scalar(rng, i, "q"));
            let _ = writeln!(c.helpers, "{{{{- define \"gen.p{i}\" -}}}}\na: {{{{ .Values.{p} }}}}\nb: lit\nc:\n  - {{{{ .Values.{q} | quote }}}}\n{{{{- end }}}}");
            format!("  {f}:{{{{ include \"gen.p{i}\" . | nindent 4 }}}}\n")
        }
    }
}

fn generate(rng: &mut Rng) -> Chart {
    let mut c = Chart::default();
    let n = 4 + rng.below(14);
    for i in 0..n {
        let body = construct(rng, &mut c, i);
        c.templates[rng.below(2)].push_str(&body);
    }
    c
}

fn write_chart(dir: &std::path::Path, c: &Chart) {
    std::fs::create_dir_all(dir.join("templates")).expect("mkdir");
    std::fs::write(dir.join("Chart.yaml"), "apiVersion: v2\nname: gen\nversion: 0.1.0\n").expect("write");
    // JSON is YAML; explain reads its positions all the same.
    std::fs::write(dir.join("values.yaml"), serde_json::to_string_pretty(&Value::Object(c.values.clone())).expect("json")).expect("write");
    std::fs::write(dir.join("templates/_helpers.tpl"), &c.helpers).expect("write");
    for (n, body) in c.templates.iter().enumerate() {
        let text = format!("apiVersion: example.io/v1\nkind: Example\nmetadata:\n  name: obj{n}\nspec:\n  fixed: literal\n{body}");
        std::fs::write(dir.join(format!("templates/obj{n}.yaml")), text).expect("write");
    }
}

/// `t3`: a key holding the text `tpl` renders (construct 7).
fn is_tpl_key(k: &str) -> bool {
    k.strip_prefix('t').is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
}

/// The markers in a leaf's text (`mk12q`, `ms3a`; `upper` prints them upper case).
fn markers_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let bytes = lower.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = lower[at..].find('m').map(|i| i + at) {
        at = i + 1;
        if !matches!(bytes.get(i + 1), Some(b'k' | b's')) {
            continue;
        }
        let digits = bytes[i + 2..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || !bytes.get(i + 2 + digits).is_some_and(u8::is_ascii_lowercase) {
            continue;
        }
        out.push(lower[i..i + 3 + digits].to_string());
    }
    out
}

#[test]
fn generated_charts_blame_every_marker_on_its_key_and_every_read_key_somewhere() {
    let seed: u64 = std::env::var("BLAME_GEN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_b1a3e);
    let charts: usize = std::env::var("BLAME_GEN_CHARTS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    eprintln!("BLAME_GEN_SEED={seed} BLAME_GEN_CHARTS={charts}");
    let mut rng = Rng(seed);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (mut leaves, mut markers_checked) = (0, 0);
    for n in 0..charts {
        let c = generate(&mut rng);
        let dir = tmp.path().join(format!("c{n}"));
        write_chart(&dir, &c);
        let r = run(releasex().arg("blame").arg(&dir).args(&c.flags).args(["-o", "json"]));
        assert_eq!(r.code, 0, "chart {n} (seed {seed}) {:?}: {}", c.flags, r.stderr);
        let doc: Value = serde_json::from_str(&r.stdout).expect("json");
        let mut blamed: BTreeSet<String> = BTreeSet::new();
        for o in doc["objects"].as_array().expect("objects") {
            for f in o["fields"].as_array().expect("fields") {
                leaves += 1;
                let keys: Vec<&str> = f["keys"].as_array().expect("keys").iter().filter_map(|k| k["path"].as_str()).collect();
                blamed.extend(keys.iter().map(|k| k.to_string()));
                let text = match &f["value"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let mut wanted: BTreeSet<&str> = BTreeSet::new();
                for m in markers_in(&text) {
                    let want = c.markers.get(&m).unwrap_or_else(|| panic!("chart {n}: marker {m} of no key in {f}"));
                    assert!(keys.contains(&want.as_str()), "chart {n} (seed {seed}, {:?}): {} = {text} holds {m} of {want}, blamed on {keys:?}", c.flags, f["field"]);
                    wanted.insert(want);
                    markers_checked += 1;
                }
                // And no more: every key blamed printed a marker into the leaf,
                // but the `tpl` text key (`t3`) the value came through.
                let extra: Vec<&&str> = keys.iter().filter(|k| !wanted.contains(**k) && !is_tpl_key(k)).collect();
                assert!(wanted.is_empty() || extra.is_empty(), "chart {n} (seed {seed}): {} = {text} blamed on {extra:?} too", f["field"]);
            }
        }
        let missing: Vec<&String> = c.reads.iter().filter(|k| !blamed.contains(*k)).collect();
        assert!(missing.is_empty(), "chart {n} (seed {seed}): keys read but blamed nowhere: {missing:?}");
    }
    eprintln!("{charts} charts, {leaves} leaves, {markers_checked} markers blamed on their keys");
    assert!(markers_checked > charts * 4, "the generator printed too few markers ({markers_checked})");
}
