//! `upgrade-preview`'s value modes against real Helm v4.2.3 (tests/oracle):
//! the oracle installs (old chart, old flags), upgrades to (new chart, new
//! flags) in each of the four modes against its fake API server, and dumps
//! the revision-1 Secret. We read that Secret as the baseline and must give
//! the same `.Values` and the same stored config for every mode, or fail
//! where Helm fails. Hand-made cases, then seeded random charts and flags
//! (UPGRADE_SEED=<seed> replays a run).

use crate::{oracle_client, xorshift};

use xorshift::Rng;

use oracle_client::same;

use std::path::{Path, PathBuf};

use releasex::explain::Options;
use releasex::upgrade::{Mode, Upgrade, preview_mode};
use releasex::values::tree::map_to_json;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}


#[derive(Clone, Debug)]
struct Case {
    old_chart: String,
    old_args: Vec<String>,
    new_chart: String,
    new_args: Vec<String>,
}

/// Revision 1 as a dump left it. The dump is taken after the upgrade, and
/// the reuse modes rewrite revision 1's config (see `rewritten_config`), so
/// the baseline is read from the default mode's dump, which leaves it alone.
fn dumped_revision1(dir: &Path, mode: Mode) -> releasex::release::Release {
    let file = dir.join(mode.word()).join("sh.helm.release.v1.rel.v1.json");
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let stored = releasex::release::source::parse_input(&file.display().to_string(), &bytes).expect("parse the dumped Secret");
    let mut records = releasex::release::decode_history(stored, Some("rel"), "dump").expect("decode the dumped Secret");
    records.remove(0).release
}

/// Our (values, config, revision 1's config as Helm leaves it) for one mode, or our error.
fn ours(case: &Case, dir: &Path, mode: Mode) -> Result<(Value, Value, Value), String> {
    let chart = releasex::chart::load(&root().join(&case.new_chart)).map_err(|e| e.to_string())?;
    let baseline = dumped_revision1(dir, Mode::Default);
    let flags = oracle_client::value_flags(&case.new_args, Path::new(""))?;
    let mut no_files = |p: &str| Err(format!("no --set-file here ({p})"));
    let up = Upgrade::new(&chart, &baseline, &flags, &mut no_files, Options::default()).map_err(|e| e.to_string())?;
    let o = preview_mode(&up, mode).map_err(|e| e.to_string())?;
    let rewritten = o.rewritten_baseline_config.as_ref().map_or_else(
        || baseline.config().cloned().map_or(Value::Null, Value::Object),
        |c| Value::Object(map_to_json(c)),
    );
    Ok((Value::Object(map_to_json(&o.values)), Value::Object(map_to_json(&o.config)), rewritten))
}

fn check(cases: &[Case], work: &Path, seed: Option<u64>) {
    let requests: Vec<Vec<String>> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut r = vec!["upgrade-values".to_string(), c.old_chart.clone()];
            r.extend(c.old_args.iter().cloned());
            r.push("--to".into());
            r.push(c.new_chart.clone());
            r.extend(c.new_args.iter().cloned());
            r.extend(["--name".into(), "rel".into(), "--dump-secrets".into(), work.join(format!("case{i}")).display().to_string()]);
            r
        })
        .collect();
    let answers = oracle_client::batch(&requests);
    let mut failures = Vec::new();
    let mut compared = 0;
    for (i, (case, helm)) in cases.iter().zip(&answers).enumerate() {
        let Some(modes) = helm.get("modes").and_then(Value::as_object) else {
            failures.push(format!("{case:?}: oracle answered {helm}"));
            continue;
        };
        let dir = work.join(format!("case{i}"));
        for mode in Mode::ALL {
            let h = &modes[mode.word()];
            if h.get("stage").and_then(Value::as_str) == Some("install") {
                continue; // the old release itself failed to install: nothing to upgrade
            }
            compared += 1;
            let mine = ours(case, &dir, mode);
            // The record's `config` is omitempty: an empty config is stored as nothing.
            let helm_config = match &h["stored_config"] {
                Value::Null => Value::Object(Default::default()),
                c => c.clone(),
            };
            let verdict = match (h.get("status").and_then(Value::as_str), &mine) {
                (Some("ok"), Ok((v, c, r))) if same(v, &h["values"]) && same(c, &helm_config) => {
                    // What Helm left in revision 1 after superseding it.
                    let left = dumped_revision1(&dir, mode).config().cloned().map_or(Value::Null, Value::Object);
                    (!same(r, &left)).then(|| format!("revision 1's config after the upgrade\n  helm: {left}\n  ours: {r}"))
                }
                (Some("ok"), Ok((v, c, _))) => Some(format!(
                    "differs\n  helm values: {}\n  ours:        {v}\n  helm config: {}\n  ours:        {c}",
                    h["values"], h["stored_config"]
                )),
                (Some("ok"), Err(e)) => Some(format!("we fail, Helm does not: {e}")),
                (Some("error"), Ok((v, _, _))) => Some(format!("Helm fails ({}), we do not: {v}", h["error"])),
                (Some("error"), Err(_)) => None,
                (other, _) => Some(format!("oracle status {other:?}: {h}")),
            };
            if let Some(v) = verdict {
                failures.push(format!(
                    "{} [{}] -> {} [{}] mode {}: {v}",
                    case.old_chart,
                    case.old_args.join(" "),
                    case.new_chart,
                    case.new_args.join(" "),
                    mode.word()
                ));
            }
        }
    }
    assert!(compared > 0, "no case reached the upgrade");
    assert!(
        failures.is_empty(),
        "{} of {compared} mode runs differ from Helm{}:\n{}",
        failures.len(),
        seed.map(|s| format!(" (UPGRADE_SEED={s})")).unwrap_or_default(),
        failures.join("\n")
    );
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

const PARENT: &str = "tests/oracle/charts/parent";
const PARENT_V2: &str = "tests/oracle/charts/parent-v2";
const WEB: &str = "tests/oracle/charts/web";

#[test]
fn value_modes_match_helm_for_hand_made_upgrades() {
    let work = tempfile::tempdir().expect("tempdir");
    let file = |name: &str, text: &str| {
        let p = work.path().join(name);
        std::fs::write(&p, text).expect("write values file");
        p.display().to_string()
    };
    let prod = file("prod.yaml", "replicaCount: 5\nkeepme: prod\nnested:\n  a: 10\nsub1:\n  keep: from-prod\n");
    let empty = file("empty.yaml", "# nothing\n");
    let nulls = file("nulls.yaml", "keepme: null\nnested:\n  b: null\n");
    let c = |old: &str, oa: &[&str], new: &str, na: &[&str]| Case { old_chart: old.into(), old_args: s(oa), new_chart: new.into(), new_args: s(na) };
    let cases = vec![
        // The classic accident: --set without repeating -f.
        c(PARENT, &["-f", &prod], PARENT_V2, &["--set", "image.tag=2"]),
        // No value flag at all: the old config is reused in default mode.
        c(PARENT, &["-f", &prod], PARENT_V2, &[]),
        // A flag that gives no value counts as none (len(newVals) == 0).
        c(PARENT, &["-f", &prod], PARENT_V2, &["-f", &empty]),
        // Null resurrection under --reuse-values (helm/helm#30765).
        c(PARENT, &["--set", "keepme=mine", "--set", "port=1"], PARENT_V2, &["--set", "keepme=null"]),
        c(PARENT, &["-f", &prod], PARENT_V2, &["-f", &nulls]),
        // Same chart, int from --set becomes float64 in the stored config.
        c(PARENT, &["--set", "replicaCount=3", "--set-string", "image.tag=007"], PARENT, &["--set", "nested.c=4"]),
        // Subchart sections, globals and conditions across modes.
        c(PARENT, &["--set", "sub1.enabled=false", "--set", "global.region=ap"], PARENT_V2, &["--set", "third.enabled=true"]),
        c(PARENT, &["--set-json", "list=[1,2]", "--set", "second.extra=y"], PARENT_V2, &["--set", "list[3]=z"]),
        // Type clashes between the old config and new flags.
        c(PARENT, &["--set", "nested=flat"], PARENT_V2, &["--set", "nested.a=2"]),
        c(PARENT, &["--set", "nested.a=5"], PARENT_V2, &["--set", "nested=flat"]),
        // A chart without subcharts, and an old release without user values.
        c(WEB, &[], WEB, &["--set", "replicaCount=2"]),
        c(WEB, &["--set", "message=hi"], WEB, &[]),
        c(WEB, &["--set", "message=hi", "--set", "extra.deep.x=1"], WEB, &["--set", "extra.deep=null"]),
    ];
    check(&cases, work.path(), None);
}


const SCALARS: &[&str] = &["1", "2", "0", "true", "false", "x", "\"7\"", "null", "1.5"];
const KEYS: &[&str] = &["replicaCount", "port", "keepme", "nested.a", "nested.b", "nested.c", "newKey", "image.tag", "sub1.keep", "sub1.fromParent", "second.extra", "global.region", "global.extra", "deep.x.y"];

/// A parent chart (same subcharts and Chart.yaml as tests/oracle/charts/parent)
/// with a randomly varied values.yaml.
fn random_chart(rng: &mut Rng, dir: &Path, version: &str) -> String {
    let src = root().join(PARENT);
    copy_dir(&src, dir);
    let chart_yaml = std::fs::read_to_string(src.join("Chart.yaml")).expect("Chart.yaml").replace("version: 1.0.0", &format!("version: {version}"));
    std::fs::write(dir.join("Chart.yaml"), chart_yaml).expect("write Chart.yaml");
    let mut v = String::new();
    for key in ["replicaCount", "port", "keepme", "newKey", "nullInDefaults"] {
        if rng.chance(70) {
            v.push_str(&format!("{key}: {}\n", rng.pick(SCALARS)));
        }
    }
    if rng.chance(80) {
        v.push_str(&format!("nested:\n  a: {}\n  b: {}\n", rng.pick(SCALARS), rng.pick(SCALARS)));
    }
    v.push_str(&format!("global:\n  region: {}\n", rng.pick(&["eu", "us", "null"])));
    v.push_str("sub1:\n  enabled: true\n");
    if rng.chance(50) {
        v.push_str(&format!("  keep: {}\n", rng.pick(SCALARS)));
    }
    if rng.chance(50) {
        v.push_str("  dropMe: null\n");
    }
    v.push_str(&format!("second:\n  enabled: true\n  extra: {}\nthird:\n  enabled: {}\ntags:\n  backend: true\n", rng.pick(SCALARS), rng.pick(&["false", "true"])));
    v.push_str("imported:\n  preexisting: parent-value\n");
    std::fs::write(dir.join("values.yaml"), v).expect("write values.yaml");
    dir.display().to_string()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

fn random_flags(rng: &mut Rng, dir: &Path, tag: &str) -> Vec<String> {
    let mut args = Vec::new();
    if rng.chance(25) {
        return args;
    }
    if rng.chance(40) {
        let mut text = String::new();
        for _ in 0..1 + rng.below(3) {
            let key = rng.pick(KEYS);
            let parts: Vec<&str> = key.split('.').collect();
            for (depth, p) in parts.iter().enumerate() {
                let last = depth + 1 == parts.len();
                text.push_str(&format!("{}{p}:{}", "  ".repeat(depth), if last { format!(" {}\n", rng.pick(SCALARS)) } else { "\n".to_string() }));
            }
        }
        let file = dir.join(format!("{tag}.yaml"));
        // Repeated keys in one file: the later one wins, as in go-yaml.
        std::fs::write(&file, text).expect("write values");
        args.extend(["-f".to_string(), file.display().to_string()]);
    }
    for _ in 0..rng.below(3) {
        let kind = *rng.pick(&["--set", "--set", "--set-string", "--set-json"]);
        let value = match kind {
            "--set-json" => rng.pick(&["1", "\"s\"", "null", "{\"k\":1}", "[1,2]"]).to_string(),
            _ => rng.pick(&["1", "x", "null", "true", "007"]).to_string(),
        };
        args.extend([kind.to_string(), format!("{}={value}", rng.pick(KEYS))]);
    }
    args
}

#[test]
fn value_modes_match_helm_for_random_upgrades() {
    let seed = crate::xorshift::seed_from_env("UPGRADE_SEED");
    let mut rng = Rng(seed);
    let work = tempfile::tempdir().expect("tempdir");
    let mut cases = Vec::new();
    for i in 0..40 {
        let case_dir = work.path().join(format!("gen{i}"));
        let old_chart = random_chart(&mut rng, &case_dir.join("old"), "1.0.0");
        let new_chart = if rng.chance(20) { old_chart.clone() } else { random_chart(&mut rng, &case_dir.join("new"), "2.0.0") };
        let old_args = random_flags(&mut rng, &case_dir, "old");
        let new_args = random_flags(&mut rng, &case_dir, "new");
        cases.push(Case { old_chart, old_args, new_chart, new_args });
    }
    check(&cases, work.path(), Some(seed));
}
