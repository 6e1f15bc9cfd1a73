//! Helm's own test tables for values computation, ported as data
//! (tests/data/helm_tables/cases/*.json over charts recreated under
//! tests/data/helm_tables/charts): TestCoalesceValues, TestMergeValues,
//! TestCoalesceTables, TestMergeTables, TestCoalesceValuesWarnings, the null
//! regressions (#31643, #31919, #31971), TestDependencyEnabled and the
//! import-values tests. Every case runs through our engine and through real
//! Helm v4.2.3 (tests/oracle): both must meet the table's expectations, and
//! our whole `.Values` must equal Helm's.
//!
//! A case: `chart` and `args` (`-f FILE`, `--set*`), paths relative to
//! tests/data/helm_tables; optional `values` (an inline user values file,
//! passed as the first `-f`); `expect`, a list of `{path, equals | absent |
//! null | no_value | map}` on `.Values` (`no_value` is Go templates'
//! `<no value>`: missing or null); `warnings`, Helm's log lines that must
//! appear; `enabled_charts`, TestDependencyEnabled's chart list, checked
//! through each chart's `marker` default against the file's `all_charts`.

use crate::oracle_client;

use oracle_client::{diff, same};

use std::path::{Path, PathBuf};
use std::process::Command;

use releasex::explain::{Options, explain_chart};
use releasex::values::tree::map_to_json;
use serde_json::Value;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/helm_tables")
}



struct Case {
    file: String,
    name: String,
    chart: PathBuf,
    /// Arguments as given to the oracle (absolute paths).
    args: Vec<String>,
    expect: Vec<Value>,
    warnings: Vec<String>,
    /// A known disagreement of releasex with Helm on the whole `.Values`.
    releasex_bug: Option<String>,
}

/// `None` when a path segment is missing; `Some(Null)` when present and null.
fn lookup<'a>(values: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(values, |v, k| v.as_object()?.get(k))
}

/// Why `values` fails expectation `e`, if it does.
fn unmet(values: &Value, e: &Value) -> Option<String> {
    let path = e["path"].as_str().expect("expectation path");
    let got = lookup(values, path);
    let ok = if let Some(want) = e.get("equals") {
        got.is_some_and(|g| same(g, want))
    } else if e.get("absent").is_some() {
        got.is_none()
    } else if e.get("null").is_some() {
        got.is_some_and(Value::is_null)
    } else if e.get("no_value").is_some() {
        got.is_none_or(Value::is_null)
    } else if e.get("map").is_some() {
        got.is_some_and(Value::is_object)
    } else {
        panic!("unknown expectation {e}")
    };
    (!ok).then(|| format!("{e} but found {}", got.map_or("nothing".to_string(), Value::to_string)))
}

fn load_cases(tmp: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data().join("cases")).expect("cases dir").map(|e| e.expect("entry").path()).collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("case file")).expect("case JSON");
        let fname = file.file_name().unwrap().to_string_lossy().to_string();
        let all_charts: Vec<&str> = doc["all_charts"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        for (i, c) in doc["cases"].as_array().expect("cases").iter().enumerate() {
            let mut args = Vec::new();
            if let Some(v) = c.get("values") {
                let f = tmp.join(format!("{fname}-{i}.yaml"));
                std::fs::write(&f, v.to_string()).expect("write values");
                args.push("-f".to_string());
                args.push(f.to_string_lossy().to_string());
            }
            let given: Vec<String> = c["args"].as_array().expect("args").iter().map(|a| a.as_str().unwrap().to_string()).collect();
            for pair in given.chunks(2) {
                args.push(pair[0].clone());
                args.push(if pair[0] == "-f" { data().join(&pair[1]).to_string_lossy().to_string() } else { pair[1].clone() });
            }
            let mut expect: Vec<Value> = c["expect"].as_array().expect("expect").clone();
            if let Some(enabled) = c.get("enabled_charts").and_then(Value::as_array) {
                let enabled: Vec<&str> = enabled.iter().filter_map(Value::as_str).collect();
                for chart in all_charts.iter().filter(|c| c.contains('.')) {
                    let path = format!("{}.marker", chart.split_once('.').unwrap().1);
                    expect.push(if enabled.contains(chart) {
                        serde_json::json!({"path": path, "equals": chart.rsplit('.').next().unwrap().replace("alias", "")})
                    } else {
                        serde_json::json!({"path": path, "absent": true})
                    });
                }
            }
            let warnings = c
                .get("warnings")
                .and_then(Value::as_array)
                .map(|w| w.iter().map(|s| s.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            out.push(Case {
                file: fname.clone(),
                name: c["name"].as_str().unwrap().to_string(),
                chart: data().join(c["chart"].as_str().unwrap()),
                args,
                expect,
                warnings,
                releasex_bug: c.get("releasex_bug").and_then(Value::as_str).map(str::to_string),
            });
        }
    }
    out
}

/// Our `.Values`, the other-order alternative, and our warnings.
fn ours(case: &Case) -> Result<(Value, Option<Value>, Vec<String>), String> {
    let chart = releasex::chart::load(&case.chart).map_err(|e| e.to_string())?;
    let flags = oracle_client::value_flags(&case.args, std::path::Path::new(""))?;
    let mut no_files = |p: &str| Err(format!("no --set-file in these tests ({p})"));
    explain_chart(&chart, &flags, &mut no_files, Options::default())
        .map(|e| (Value::Object(map_to_json(&e.values)), e.other_order.map(|o| Value::Object(map_to_json(&o))), e.warnings))
        .map_err(|e| e.to_string())
}

/// Helm's log lines (its warnings) for one call: the oracle lets Go's logger write to stderr.
fn helm_stderr(case: &Case) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join(".venv/bin/python"))
        .arg(root.join("tests/oracle/helm_oracle.py"))
        .arg("values")
        .arg(&case.chart)
        .args(&case.args)
        .output()
        .expect("run the Helm oracle (tests/oracle/setup.sh)");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `cases` through the oracle and through releasex; returns the failures and the expectations checked.
/// `whole_tree`: also require our whole `.Values` to equal Helm's.
fn run(cases: &[&Case], whole_tree: bool) -> (Vec<String>, usize) {
    let requests: Vec<Vec<String>> =
        cases.iter().map(|c| [vec!["values".to_string(), c.chart.to_string_lossy().to_string()], c.args.clone()].concat()).collect();
    let answers = oracle_client::batch_answered(&requests);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (case, helm) in cases.iter().zip(&answers) {
        let label = format!("{} / {}", case.file, case.name);
        let Some(helm_values) = (helm["status"] == "ok").then(|| &helm["values"]) else {
            failures.push(format!("{label}: Helm fails: {}", helm["error"]));
            continue;
        };
        for e in &case.expect {
            if let Some(why) = unmet(helm_values, e) {
                failures.push(format!("{label}: real Helm does not meet the table: {why}"));
            }
        }
        match ours(case) {
            Err(e) => failures.push(format!("{label}: we fail, Helm does not: {e}")),
            Ok((mine, other, warnings)) => {
                let agrees = same(&mine, helm_values) || other.as_ref().is_some_and(|o| same(o, helm_values));
                if whole_tree && !agrees {
                    failures.push(format!("{label}: values differ from Helm:\n{}", diff(helm_values, &mine)));
                }
                for e in &case.expect {
                    if let Some(why) = unmet(&mine, e) {
                        failures.push(format!("{label}: releasex does not meet the table: {why}"));
                    }
                    checked += 1;
                }
                if !case.warnings.is_empty() {
                    let log = helm_stderr(case);
                    for w in &case.warnings {
                        if !log.contains(w.as_str()) {
                            failures.push(format!("{label}: Helm did not warn {w:?}: {log}"));
                        }
                        if !warnings.iter().any(|x| x == w) {
                            failures.push(format!("{label}: we did not warn {w:?}: {warnings:?}"));
                        }
                    }
                }
            }
        }
    }
    (failures, checked)
}

/// Every table case: Helm and releasex meet the table's expectations, and
/// (except for cases marked `releasex_bug`, none at present) our whole
/// `.Values` equals Helm's.
#[test]
fn helm_test_tables_hold_for_releasex_and_real_helm() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cases = load_cases(tmp.path());
    assert!(cases.len() >= 26, "only {} cases", cases.len());
    let (mut failures, checked) = run(&cases.iter().filter(|c| c.releasex_bug.is_none()).collect::<Vec<_>>(), true);
    let (more, checked_bug) = run(&cases.iter().filter(|c| c.releasex_bug.is_some()).collect::<Vec<_>>(), false);
    failures.extend(more);
    assert!(failures.is_empty(), "{} failures over {} cases:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(checked + checked_bug > 250, "only {checked} + {checked_bug} expectations checked");
}


/// Minimal reproduction. Chart `import-aliasing`: subchart `sub` has
/// `a: {x: 1}` and `b: {z: 2}`; the parent imports `a` as `first`, `a` as
/// `second`, then `b` as `second`. Helm's MergeTables puts the child's `a`
/// map itself (not a copy) under `first` and `second`, so merging `b` into
/// `second` also changes `first` and `sub.a`. Helm 4.2.3 gives
/// `first: {x: 1, z: 2}`, `second: {x: 1, z: 2}`, `sub.a: {x: 1, z: 2}`;
/// releasex gives `first: {x: 1}` and `sub.a: {x: 1}`.
#[test]
fn import_values_share_one_map_between_parents_like_helm() {
    let case = Case {
        file: "reproduction".into(),
        name: "import-aliasing".into(),
        chart: data().join("charts/import-aliasing"),
        args: vec![],
        expect: vec![
            serde_json::json!({"path": "first", "equals": {"x": 1, "z": 2}}),
            serde_json::json!({"path": "second", "equals": {"x": 1, "z": 2}}),
            serde_json::json!({"path": "sub.a", "equals": {"x": 1, "z": 2}}),
            serde_json::json!({"path": "sub.b", "equals": {"z": 2}}),
        ],
        warnings: vec![],
        releasex_bug: None,
    };
    let (failures, _) = run(&[&case], true);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
