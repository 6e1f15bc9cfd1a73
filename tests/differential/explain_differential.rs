//! `values explain` against real Helm v4.2.3 (tests/oracle): for fixed
//! scenarios and a seeded random generator of value flags over several
//! charts, our `.Values` must equal Helm's, and where Helm fails we fail.
//! Replay a run with EXPLAIN_SEED=<seed>.

use crate::{oracle_client, xorshift};

use xorshift::Rng;

use oracle_client::same;

use std::path::PathBuf;

use releasex::explain::{Options, explain_chart};
use releasex::values::tree::map_to_json;
use releasex::values::user::ValueFlags;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Real Helm's answers (the shared oracle client).
fn oracle_batch(requests: &[Vec<String>]) -> Vec<Value> {
    oracle_client::batch(requests)
}


struct Case {
    chart: String,
    args: Vec<String>,
}

/// Our values, and the values under the other subchart order when Helm's own
/// result depends on its random loading order (then Helm may give either).
fn ours(case: &Case) -> Result<(Value, Option<Value>), String> {
    let chart = releasex::chart::load(&root().join(&case.chart)).map_err(|e| e.to_string())?;
    let flags = oracle_client::value_flags(&case.args, &root())?;
    let mut no_files = |p: &str| Err(format!("no --set-file in these tests ({p})"));
    explain_chart(&chart, &flags, &mut no_files, Options::default())
        .map(|e| (Value::Object(map_to_json(&e.values)), e.other_order.map(|o| Value::Object(map_to_json(&o)))))
        .map_err(|e| e.to_string())
}

fn check(cases: &[Case], seed: Option<u64>) {
    let requests: Vec<Vec<String>> =
        cases.iter().map(|c| [vec!["values".to_string(), c.chart.clone()], c.args.clone()].concat()).collect();
    let answers = oracle_batch(&requests);
    let mut failures = Vec::new();
    for (case, helm) in cases.iter().zip(&answers) {
        let mine = ours(case);
        let verdict = match (helm.get("status").and_then(Value::as_str), &mine) {
            (Some("ok"), Ok((v, _))) if same(v, &helm["values"]) => None,
            (Some("ok"), Ok((_, Some(other)))) if same(other, &helm["values"]) => None,
            (Some("ok"), Ok((v, _))) => Some(format!("values differ\n  helm: {}\n  ours: {v}", helm["values"])),
            (Some("ok"), Err(e)) => Some(format!("we fail, Helm does not: {e}")),
            (Some("error"), Ok((v, _))) => Some(format!("Helm fails ({}), we do not: {v}", helm["error"])),
            (Some("error"), Err(_)) => None,
            (other, _) => Some(format!("oracle status {other:?}: {helm}")),
        };
        if let Some(v) = verdict {
            failures.push(format!("{} {}: {v}", case.chart, case.args.join(" ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Helm{}:\n{}",
        failures.len(),
        cases.len(),
        seed.map(|s| format!(" (EXPLAIN_SEED={s})")).unwrap_or_default(),
        failures.join("\n")
    );
}

fn case(chart: &str, args: &[&str]) -> Case {
    Case { chart: chart.to_string(), args: args.iter().map(|s| s.to_string()).collect() }
}

const PARENT: &str = "tests/oracle/charts/parent";

#[test]
fn fixed_scenarios_match_helm() {
    let o = "tests/oracle/charts/overrides";
    let cases = vec![
        case(PARENT, &[]),
        case(PARENT, &["--set", "replicaCount=3"]),
        case(PARENT, &["--set", "sub1.enabled=false"]),
        case(PARENT, &["--set", "tags.backend=false", "--set", "second.enabled=null"]),
        case(PARENT, &["--set", "third.enabled=true"]),
        case(PARENT, &["--set", "global.region=us", "--set", "sub1.global.x=1"]),
        case(PARENT, &["--set", "sub1.nums={7}", "--set", "sub1.keep=null"]),
        case(PARENT, &["--set", "sub1=null"]),
        case(PARENT, &["--set", "sub1=str"]),
        case(PARENT, &["--set-json", "sub1={\"a\":1}"]),
        case(PARENT, &["--set-json", "{\"port\":1,\"nested\":{\"c\":[1,2]}}"]),
        case(PARENT, &["--set-string", "port=1", "--set", "port=2"]),
        case(PARENT, &["-f", &format!("{o}/nulls.yaml")]),
        case(PARENT, &["-f", &format!("{o}/yaml11.yaml")]),
        case(PARENT, &["-f", &format!("{o}/multi-doc.yaml")]),
        case(PARENT, &["-f", &format!("{o}/list.yaml"), "--set", "list[1]=x"]),
        case(PARENT, &["-f", &format!("{o}/bad.yaml")]),
        case(PARENT, &["--set", "a"]),
        case(PARENT, &["--set", "nested.a.b=1"]),
        case(PARENT, &["--set", "nested=5"]),
        case(PARENT, &["--set", "port.x=1"]),
        case(PARENT, &["--set", "global=5"]),
        case(PARENT, &["--set", "second.global.tier=child"]),
        case("tests/oracle/charts/parent-v2", &["--set", "port=1"]),
        case("tests/oracle/charts/web", &["--set", "replicaCount=0"]),
        case("tests/fixtures/charts/secret-hook", &["--set", "password=x"]),
        case("tests/fixtures/charts/secret-hook", &["--set", "replicas=notanumber"]),
        // Go shares nested global maps between parent and subcharts (tests/data/explain/global-aliasing).
        case("tests/data/explain/global-aliasing", &[]),
        case("tests/data/explain/global-aliasing", &["--set", "global.nested.deep.w=1"]),
        case("tests/data/explain/global-aliasing", &["--set", "sub.global.nested.deep.x=null"]),
        case("tests/data/explain/global-aliasing", &["--set", "other.global.nested.deep.q=7", "--set", "global.nested.flat=null"]),
        case("tests/data/explain/global-aliasing", &["--set", "global.nested=null"]),
    ];
    check(&cases, None);
}

/// The real-world corpus (kube-prometheus-stack, prometheus, their subcharts
/// and their maintainers' CI override files) gives Helm's exact values.
#[test]
fn real_world_charts_and_their_ci_overrides_match_helm() {
    let mut cases = Vec::new();
    for chart in ["kube-prometheus-stack", "prometheus"] {
        let dir = format!("tests/data/corpus/{chart}");
        cases.push(case(&dir, &[]));
        let mut overrides: Vec<String> = std::fs::read_dir(root().join(&dir).join("ci"))
            .expect("ci overrides")
            .filter_map(Result::ok)
            .map(|e| format!("{dir}/ci/{}", e.file_name().to_string_lossy()))
            .collect();
        overrides.sort();
        for f in overrides {
            cases.push(case(&dir, &["-f", &f]));
        }
    }
    assert!(cases.len() >= 26);
    check(&cases, None);
}


fn random_case(rng: &mut Rng) -> Case {
    let charts = [PARENT, "tests/oracle/charts/parent-v2", "tests/oracle/charts/web"];
    let chart = rng.pick(&charts).to_string();
    let keys = [
        "replicaCount", "port", "keepme", "nested.a", "nested.c", "list", "global.region", "global.newg",
        "sub1.enabled", "sub1.keep", "sub1.nums", "sub1.global.region", "second.enabled", "second.extra",
        "second.info.name", "third.enabled", "tags.backend", "imported.version", "newkey.deep", "image", "message",
    ];
    let values = ["1", "0", "-3", "true", "false", "null", "x", "\"q\"", "{a,b}", "{}", "1.5", "007", "1e3", ""];
    let files = [
        "tests/oracle/charts/overrides/nulls.yaml",
        "tests/oracle/charts/overrides/yaml11.yaml",
        "tests/oracle/charts/overrides/list.yaml",
        "tests/oracle/charts/overrides/multi-doc.yaml",
    ];
    let mut args = Vec::new();
    if rng.next().is_multiple_of(3) {
        args.push("-f".to_string());
        args.push(rng.pick(&files).to_string());
    }
    for _ in 0..(1 + rng.next() % 3) {
        let flag = *rng.pick(&["--set", "--set", "--set", "--set-string", "--set-json"]);
        let key = rng.pick(&keys);
        let value = if flag == "--set-json" { *rng.pick(&["1", "\"s\"", "null", "[1,2]", "{\"k\":1}", "true"]) } else { *rng.pick(&values) };
        args.push(flag.to_string());
        args.push(format!("{key}={value}"));
    }
    Case { chart, args }
}

#[test]
fn random_value_flags_match_helm() {
    let seed = crate::xorshift::seed_from_env("EXPLAIN_SEED");
    let mut rng = Rng(seed);
    let cases: Vec<Case> = (0..300).map(|_| random_case(&mut rng)).collect();
    check(&cases, Some(seed));
}


/// Helm loads subcharts that Chart.yaml does not list in Go map order, so
/// when they share nested global maps Helm's own answer varies from run to
/// run. Every answer Helm gives must be one of the two we compute, and we
/// must say that the result is order-dependent.
#[test]
fn helm_results_that_depend_on_subchart_load_order_are_flagged() {
    let c = case("tests/data/explain/global-aliasing", &["--set", "other.global.nested.deep.q=7", "--set", "global.nested.flat=null"]);
    let (mine, other) = ours(&c).expect("explain succeeds");
    let other = other.expect("the result is flagged as order-dependent");
    assert!(!same(&mine, &other));
    let requests: Vec<Vec<String>> = (0..16).map(|_| [vec!["values".to_string(), c.chart.clone()], c.args.clone()].concat()).collect();
    for helm in oracle_batch(&requests) {
        assert!(same(&helm["values"], &mine) || same(&helm["values"], &other), "Helm gave a third result: {}", helm["values"]);
    }
    let chart = releasex::chart::load(&root().join(&c.chart)).expect("chart");
    let flags = ValueFlags { set: c.args.iter().skip(1).step_by(2).cloned().collect(), ..ValueFlags::default() };
    let e = explain_chart(&chart, &flags, &mut |_| Err(String::new()), Options::default()).expect("explain");
    assert!(e.warnings.iter().any(|w| w.contains("not deterministic") && w.contains("sub.global.nested.deep.q")), "{:?}", e.warnings);
}
