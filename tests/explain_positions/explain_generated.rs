//! Seeded random whole charts against real Helm v4.2.3 (tests/oracle): a
//! parent with 0–3 subcharts (some nested, some listed in Chart.yaml with
//! alias, condition, tags, import-values, some unlisted), their values.yaml,
//! `-f` files (nested maps, lists, nulls, YAML 1.1 scalars, several
//! documents, duplicate keys, globals) and `--set*` flags, written to a temp
//! dir. Our `.Values` must equal Helm's (or Helm fails and so do we), and
//! every line:column we attribute to a generated file must point at that
//! key's value. Replay a run with GEN_SEED=<seed>.

use crate::{oracle_client, positions, xorshift};

use xorshift::Rng;

use oracle_client::{diff, same};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use releasex::explain::{Options, explain_chart};
use releasex::values::tree::map_to_json;
use serde_json::Value;

const CASES: usize = 320;


/// A generated YAML value, kept as the text we write.
#[derive(Clone)]
enum Y {
    Scalar(String),
    Map(Vec<(String, Y)>),
    List(Vec<Y>),
}

/// Plain scalars as written: YAML 1.1 booleans, octal, hex, underscores,
/// nulls in every spelling, quoted strings, floats, timestamps.
const SCALARS: &[&str] = &[
    "1",
    "0",
    "-3",
    "42",
    "yes",
    "no",
    "on",
    "off",
    "true",
    "false",
    "True",
    "null",
    "~",
    "Null",
    "0777",
    "0x1F",
    "1_000",
    "1.5",
    "1e3",
    "\"q\"",
    "'s'",
    "abc",
    "0o17",
    "+12",
    "y",
    "n",
    "\"\"",
    "2001-01-01",
    "-0",
    "3.0",
    "\"yes\"",
];
const KEYS: &[&str] = &["a", "b", "c", "port", "name", "list", "nested", "x", "enabled"];

fn scalar(rng: &mut Rng) -> Y {
    // `.inf` makes Helm fail the whole file (JSON has no infinity): keep it rare.
    if rng.next() % 1000 < 4 {
        return Y::Scalar(".inf".into());
    }
    Y::Scalar(rng.pick(SCALARS).to_string())
}

fn value(rng: &mut Rng, depth: usize) -> Y {
    match rng.below(10) {
        0..=5 => scalar(rng),
        6 | 7 if depth < 3 => map(rng, depth + 1, KEYS, 3),
        8 => Y::List(
            (0..rng.below(4)).map(|_| if rng.chance(25) && depth < 3 { map(rng, depth + 1, KEYS, 2) } else { scalar(rng) }).collect(),
        ),
        _ => Y::Scalar(rng.pick(&["null", "~", ""]).to_string()),
    }
}

/// A map of up to `max` keys from `keys`, with an occasional duplicate key.
fn map(rng: &mut Rng, depth: usize, keys: &[&str], max: usize) -> Y {
    let mut entries: Vec<(String, Y)> = Vec::new();
    for _ in 0..rng.below(max + 1) {
        let k = rng.pick(keys).to_string();
        if entries.iter().any(|(e, _)| *e == k) && !rng.chance(5) {
            continue;
        }
        let v = value(rng, depth);
        entries.push((k, v));
    }
    Y::Map(entries)
}

fn write_map(out: &mut String, entries: &[(String, Y)], indent: usize) {
    let pad = " ".repeat(indent);
    for (k, v) in entries {
        match v {
            Y::Scalar(s) if s.is_empty() => writeln!(out, "{pad}{k}:").unwrap(),
            Y::Scalar(s) => writeln!(out, "{pad}{k}: {s}").unwrap(),
            Y::Map(m) if m.is_empty() => writeln!(out, "{pad}{k}: {{}}").unwrap(),
            Y::Map(m) => {
                writeln!(out, "{pad}{k}:").unwrap();
                write_map(out, m, indent + 2);
            }
            Y::List(l) if l.is_empty() => writeln!(out, "{pad}{k}: []").unwrap(),
            Y::List(l) => {
                writeln!(out, "{pad}{k}:").unwrap();
                for item in l {
                    match item {
                        Y::Scalar(s) => writeln!(out, "{pad}- {s}").unwrap(),
                        Y::Map(m) if m.is_empty() => writeln!(out, "{pad}- {{}}").unwrap(),
                        Y::Map(m) => {
                            writeln!(out, "{pad}-").unwrap();
                            write_map(out, m, indent + 2);
                        }
                        Y::List(_) => unreachable!("no nested lists"),
                    }
                }
            }
        }
    }
}

fn yaml(entries: &[(String, Y)]) -> String {
    let mut s = String::new();
    if entries.is_empty() {
        s.push_str("{}\n");
    }
    write_map(&mut s, entries, 0);
    s
}

fn entries(y: Y) -> Vec<(String, Y)> {
    match y {
        Y::Map(m) => m,
        _ => unreachable!(),
    }
}

struct Sub {
    name: String,
    /// The name its values live under in the parent (alias when aliased).
    key: String,
    listed: bool,
    child: Option<String>,
}

/// Values for one chart: pool keys, a `global`, sections for `sections`, maybe `tags` and `exports`.
fn chart_values(rng: &mut Rng, sections: &[String], exports: Option<&str>) -> String {
    let mut m = entries(map(rng, 1, KEYS, 4));
    // Mostly a map; sometimes null or a scalar, which leaves subcharts without
    // a global (user_null_or_scalar_global_gives_subcharts_no_global_like_helm).
    if rng.chance(50) {
        let global = match rng.below(10) {
            0 => Y::Scalar("null".into()),
            1 => Y::Scalar(rng.pick(&["1", "\"\"", "x"]).to_string()),
            _ => map(rng, 2, &["g", "n", "region"], 3),
        };
        m.push(("global".into(), global));
    }
    for s in sections {
        if rng.chance(55) {
            let mut sec = entries(map(rng, 2, KEYS, 3));
            if rng.chance(50) {
                sec.push(("enabled".into(), Y::Scalar(rng.pick(&["true", "false", "yes", "no", "1"]).to_string())));
            }
            if rng.chance(25) {
                sec.push(("global".into(), map(rng, 3, &["g", "n"], 2)));
            }
            m.push((s.clone(), Y::Map(sec)));
        }
    }
    if rng.chance(30) {
        m.push((
            "tags".into(),
            Y::Map(vec![(rng.pick(&["t1", "t2"]).to_string(), Y::Scalar(rng.pick(&["true", "false", "x"]).to_string()))]),
        ));
    }
    if let Some(unique) = exports {
        // Each chart exports under its own key, so root merges never collide (colliding imports share one
        // Go map in Helm: a known releasex bug, tests/differential/helm_tables.rs import_values_share_one_map_between_parents_like_helm).
        let table = Y::Map(vec![(format!("ex_{unique}"), map(rng, 2, &["p", "q"], 2))]);
        m.push(("exports".into(), Y::Map(vec![("exp".into(), table)])));
        if rng.chance(50) {
            m.push(("shared".into(), map(rng, 2, &["u", "v"], 2)));
        }
    }
    yaml(&m)
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn chart_yaml(name: &str, deps: &str) -> String {
    format!("apiVersion: v2\nname: {name}\nversion: 0.1.0\n{deps}")
}

struct Case {
    chart: PathBuf,
    args: Vec<String>,
}

fn generate(rng: &mut Rng, dir: &Path) -> Case {
    let chart = dir.join("parent");
    let mut subs: Vec<Sub> = Vec::new();
    let mut names = vec!["alpha", "beta", "gamma"];
    for _ in 0..rng.below(4) {
        let name = names.remove(rng.below(names.len())).to_string();
        let listed = rng.chance(70);
        let key = if listed && rng.chance(30) { format!("{name}-al") } else { name.clone() };
        let child = rng.chance(30).then(|| "delta".to_string());
        subs.push(Sub { name, key, listed, child });
    }
    // Chart.yaml dependencies of the parent; one import target per entry, all distinct.
    let mut deps = String::new();
    let mut imported = 0;
    for s in subs.iter().filter(|s| s.listed) {
        let version = if rng.chance(5) { "^9.0.0" } else { *rng.pick(&["0.1.0", ">=0.1.0", "~0.1", "*"]) };
        write!(deps, "  - name: {}\n    version: \"{version}\"\n", s.name).unwrap();
        if s.key != s.name {
            writeln!(deps, "    alias: {}", s.key).unwrap();
        }
        if rng.chance(50) {
            let cond = rng.pick(&["{k}.enabled", "x.{k}, {k}.enabled", "missing.path,{k}.enabled", "a"]).replace("{k}", &s.key);
            writeln!(deps, "    condition: {cond}").unwrap();
        }
        if rng.chance(35) {
            writeln!(deps, "    tags: [{}]", rng.pick(&["t1", "t2", "t1, t2"])).unwrap();
        }
        if rng.chance(40) {
            imported += 1;
            match rng.below(3) {
                0 => writeln!(deps, "    import-values:\n      - exp").unwrap(),
                1 => writeln!(deps, "    import-values:\n      - child: shared\n        parent: imp{imported}").unwrap(),
                _ => writeln!(deps, "    import-values:\n      - child: exports.exp\n        parent: imp{imported}").unwrap(),
            }
        }
    }
    if !deps.is_empty() && rng.chance(50) {
        // Half the charts keep one listed dependency nothing can disable; the
        // others may have every listed dependency disabled (then Helm skips
        // import processing: disabling_every_listed_dependency_skips_import_processing_like_helm).
        deps.insert_str(0, "dependencies:\n  - name: anchor\n    version: 0.1.0\n");
        write(&chart.join("charts/anchor/Chart.yaml"), &chart_yaml("anchor", ""));
        write(&chart.join("charts/anchor/values.yaml"), &chart_values(rng, &[], None));
    }
    write(&chart.join("Chart.yaml"), &chart_yaml("parent", &deps));
    let sections: Vec<String> = subs.iter().map(|s| s.key.clone()).chain(["imp1".to_string(), "missing".to_string()]).collect();
    write(&chart.join("values.yaml"), &chart_values(rng, &sections, None));
    for s in &subs {
        let sdir = chart.join("charts").join(&s.name);
        let mut sdeps = String::new();
        if let Some(c) = &s.child {
            if rng.chance(60) {
                // The same never-disabled anchor as for the parent.
                write(&sdir.join("charts/anchor/Chart.yaml"), &chart_yaml("anchor", ""));
                write(&sdir.join("charts/anchor/values.yaml"), "k: 1\n");
                write!(sdeps, "dependencies:\n  - name: anchor\n    version: 0.1.0\n  - name: {c}\n    version: 0.1.0\n").unwrap();
                if rng.chance(50) {
                    writeln!(sdeps, "    condition: {c}.enabled").unwrap();
                }
                if rng.chance(30) {
                    writeln!(sdeps, "    import-values:\n      - exp").unwrap();
                }
            }
            write(&sdir.join("charts").join(c).join("Chart.yaml"), &chart_yaml(c, ""));
            write(&sdir.join("charts").join(c).join("values.yaml"), &chart_values(rng, &[], Some(&format!("{}_{c}", s.name))));
        }
        write(&sdir.join("Chart.yaml"), &chart_yaml(&s.name, &sdeps));
        let child_sections: Vec<String> = s.child.iter().cloned().collect();
        write(&sdir.join("values.yaml"), &chart_values(rng, &child_sections, Some(&s.name)));
    }
    // -f files: pool keys, globals, subchart sections, several documents.
    let mut args = Vec::new();
    for i in 0..rng.below(3) {
        let mut text = String::new();
        if rng.chance(15) {
            text.push_str("---\n");
        }
        text.push_str(&chart_values(rng, &sections, None));
        if rng.chance(12) {
            text.push_str("---\n");
            text.push_str(&chart_values(rng, &sections, None));
        }
        let f = dir.join(format!("values-{i}.yaml"));
        write(&f, &text);
        args.push("-f".to_string());
        args.push(f.to_string_lossy().to_string());
    }
    let mut keys: Vec<String> = ["a", "b.c", "list", "nested.x", "global.g", "global.n.m", "tags.t1", "tags.t2", "imp1.p", "list[1]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for s in &subs {
        keys.push(format!("{}.enabled", s.key));
        keys.push(format!("{}.a", s.key));
        keys.push(format!("{}.global.g", s.key));
        if let Some(c) = &s.child {
            keys.push(format!("{}.{c}.enabled", s.key));
            keys.push(format!("{}.{c}.x", s.key));
        }
    }
    for _ in 0..rng.below(4) {
        let flag = *rng.pick(&["--set", "--set", "--set", "--set-string", "--set-json", "--set-literal"]);
        let key = rng.pick(&keys).clone();
        let v = match flag {
            "--set-json" => rng.pick(&["1", "\"s\"", "null", "[1,2]", "{\"k\":1}", "true", "false"]).to_string(),
            _ => rng.pick(&["1", "0", "true", "false", "null", "x", "{a,b}", "", "1.5", "007", "yes", "\"q\""]).to_string(),
        };
        args.push(flag.to_string());
        args.push(format!("{key}={v}"));
    }
    Case { chart, args }
}



/// Our result: the values, the other-order alternative, and the attribution errors.
fn ours(case: &Case, checked: &mut usize) -> Result<(Value, Option<Value>, Vec<String>), String> {
    let chart = releasex::chart::load(&case.chart).map_err(|e| e.to_string())?;
    let flags = oracle_client::value_flags(&case.args, std::path::Path::new(""))?;
    let mut no_files = |p: &str| Err(format!("no --set-file here ({p})"));
    let e = explain_chart(&chart, &flags, &mut no_files, Options::default()).map_err(|e| e.to_string())?;
    let (found, bad) = positions::check_entries(&e.entries, &case.chart, Path::new(""));
    *checked += found;
    Ok((Value::Object(map_to_json(&e.values)), e.other_order.map(|o| Value::Object(map_to_json(&o))), bad))
}

/// A case's files, for the failure report.
fn dump(case: &Case) -> String {
    let mut out = String::new();
    let root = case.chart.parent().unwrap();
    let mut stack = vec![root.to_path_buf()];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() { stack.push(e.path()) } else { files.push(e.path()) }
        }
    }
    files.sort();
    for f in files {
        let _ = write!(out, "--- {}\n{}", f.strip_prefix(root).unwrap().display(), std::fs::read_to_string(&f).unwrap_or_default());
    }
    out
}

#[test]
fn generated_charts_and_values_match_helm_and_positions_point_at_values() {
    let seed = crate::xorshift::seed_from_env("GEN_SEED");
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut rng = Rng(seed);
    let cases: Vec<Case> = (0..CASES).map(|i| generate(&mut rng, &tmp.path().join(format!("case-{i}")))).collect();
    let requests: Vec<Vec<String>> =
        cases.iter().map(|c| [vec!["values".to_string(), c.chart.to_string_lossy().to_string()], c.args.clone()].concat()).collect();
    let answers = oracle_client::batch_answered(&requests);
    let mut failures = Vec::new();
    let (mut agreed_ok, mut agreed_err, mut positions) = (0, 0, 0);
    let mut errors: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (i, (case, helm)) in cases.iter().zip(&answers).enumerate() {
        let mine = ours(case, &mut positions);
        let verdict = match (helm["status"].as_str(), &mine) {
            (Some("ok"), Ok((v, other, bad))) if same(v, &helm["values"]) || other.as_ref().is_some_and(|o| same(o, &helm["values"])) => {
                agreed_ok += 1;
                (!bad.is_empty()).then(|| format!("positions wrong:\n  {}", bad.join("\n  ")))
            }
            (Some("ok"), Ok((v, _, _))) => Some(format!("values differ:\n{}", diff(&helm["values"], v))),
            (Some("ok"), Err(e)) => Some(format!("we fail, Helm does not: {e}")),
            (Some("error"), Ok((v, _, _))) => Some(format!("Helm fails ({}), we do not: {v}", helm["error"])),
            (Some("error"), Err(_)) => {
                agreed_err += 1;
                let reason: String = helm["error"].as_str().unwrap_or("").chars().filter(|c| !c.is_ascii_digit()).take(70).collect();
                *errors.entry(reason).or_insert(0) += 1;
                None
            }
            (other, _) => Some(format!("oracle status {other:?}: {helm}")),
        };
        if let Some(v) = verdict {
            failures.push(format!("case {i}: {} {}\n{v}\n{}", case.chart.display(), case.args.join(" "), dump(case)));
        }
    }
    eprintln!(
        "GEN_SEED={seed}: {} cases, {agreed_ok} equal to Helm's values, {agreed_err} failing in both: {errors:?}; {positions} positions checked",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} generated cases differ from Helm (GEN_SEED={seed}):\n{}",
        failures.len(),
        cases.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
    assert!(agreed_ok >= CASES / 2, "only {agreed_ok} cases where Helm succeeds (GEN_SEED={seed}); the generator makes too many errors");
    assert!(positions > 2000, "only {positions} positions checked (GEN_SEED={seed})");
}

/// Writes `files` (path, text) under a temp dir and checks that Helm gives
/// `expected` for chart `parent` with `args`, and that we give Helm's values.
fn reproduce(files: &[(&str, &str)], args: &[&str], expected: Value) {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (p, text) in files {
        write(&tmp.path().join(p), text);
    }
    let case = Case { chart: tmp.path().join("parent"), args: args.iter().map(|s| s.to_string()).collect() };
    let helm = &oracle_client::batch_answered(&[
        [vec!["values".to_string(), case.chart.to_string_lossy().to_string()], case.args.clone()].concat()
    ])[0];
    assert!(same(&helm["values"], &expected), "Helm 4.2.3 no longer gives the recorded values: {helm}");
    let (mine, _, _) = ours(&case, &mut 0).expect("explain succeeds");
    assert!(same(&mine, &expected), "releasex differs from Helm:\n{}", diff(&expected, &mine));
}

/// Found by the generator. Helm's processDependencyEnabled rebuilds
/// `Metadata.Dependencies` by appending the enabled entries to nil, so when
/// every listed dependency is disabled the list is nil and
/// processImportValues returns early: the parent's values are not replaced by
/// the merged tree of subchart defaults. Then a user section for an unlisted
/// subchart no longer carries that subchart's default nulls (here `p.a: ~`)
/// into its coalescing, and v4.2 cleans them. Helm: `beta.p: {}`; releasex:
/// `beta.p: {a: null}`. (With `alpha.enabled=true` both keep `a: null`.)
#[test]
fn disabling_every_listed_dependency_skips_import_processing_like_helm() {
    reproduce(
        &[
            (
                "parent/Chart.yaml",
                "apiVersion: v2\nname: parent\nversion: 0.1.0\ndependencies:\n  - name: alpha\n    version: 0.1.0\n    condition: alpha.enabled\n",
            ),
            ("parent/values.yaml", "{}\n"),
            ("parent/charts/alpha/Chart.yaml", "apiVersion: v2\nname: alpha\nversion: 0.1.0\n"),
            ("parent/charts/alpha/values.yaml", "{}\n"),
            ("parent/charts/beta/Chart.yaml", "apiVersion: v2\nname: beta\nversion: 0.1.0\n"),
            ("parent/charts/beta/values.yaml", "p:\n  a: ~\n"),
        ],
        &["--set", "alpha.enabled=false", "--set", "beta.x=1"],
        serde_json::json!({"alpha": {"enabled": false}, "beta": {"global": {}, "p": {}, "x": 1}}),
    );
}

/// Found by the generator (with `global` allowed to be a scalar). When a
/// chart's `global` is not a map (null or a scalar), Helm's coalesceGlobals
/// warns and returns before it creates the subchart's `global`; releasex
/// gives the subchart `global: {}`. Three ways it shows:
/// 1. `--set global=null`, parent values without `global`: Helm gives
///    `sub: {}`, releasex `sub: {global: {}}`;
/// 2. parent values `global: 1`, subchart values `global: -3`: Helm keeps the
///    subchart's own `global: -3`, releasex gives `global: {}`;
/// 3. parent values `global: 42` and `--set global.n.m=x`, a listed
///    dependency (so import processing folds subchart defaults into the
///    parent's values while the parent's global is still 42), and subchart
///    values `global: ""`: Helm keeps `gamma.global: ""`, releasex gives
///    `gamma.global: {n: {m: x}}`.
#[test]
fn user_null_or_scalar_global_gives_subcharts_no_global_like_helm() {
    let parent = ("parent/Chart.yaml", "apiVersion: v2\nname: parent\nversion: 0.1.0\n");
    let sub = ("parent/charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 0.1.0\n");
    reproduce(
        &[parent, ("parent/values.yaml", "{}\n"), sub, ("parent/charts/sub/values.yaml", "{}\n")],
        &["--set", "global=null"],
        serde_json::json!({"global": null, "sub": {}}),
    );
    reproduce(
        &[parent, ("parent/values.yaml", "global: 1\n"), sub, ("parent/charts/sub/values.yaml", "global: -3\n")],
        &[],
        serde_json::json!({"global": 1, "sub": {"global": -3}}),
    );
    reproduce(
        &[
            ("parent/Chart.yaml", "apiVersion: v2\nname: parent\nversion: 0.1.0\ndependencies:\n  - name: anchor\n    version: 0.1.0\n"),
            ("parent/values.yaml", "global: 42\n"),
            ("parent/charts/anchor/Chart.yaml", "apiVersion: v2\nname: anchor\nversion: 0.1.0\n"),
            ("parent/charts/anchor/values.yaml", "{}\n"),
            ("parent/charts/gamma/Chart.yaml", "apiVersion: v2\nname: gamma\nversion: 0.1.0\n"),
            ("parent/charts/gamma/values.yaml", "global: \"\"\n"),
        ],
        &["--set", "global.n.m=x"],
        serde_json::json!({"global": {"n": {"m": "x"}}, "anchor": {"global": {"n": {"m": "x"}}}, "gamma": {"global": ""}}),
    );
}
