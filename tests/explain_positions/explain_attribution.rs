//! Every entry's line and column point at its value in the file it names:
//! checked for every leaf of real-world charts and their CI override files.

use crate::positions;

use std::path::PathBuf;

use releasex::explain::{Options, explain_chart};
use releasex::values::user::{ValueFlags, ValuesFile};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check_chart(chart_dir: &str, files: &[&str]) -> usize {
    let chart = releasex::chart::load(&root().join(chart_dir)).expect("chart loads");
    let flags = ValueFlags {
        files: files
            .iter()
            .map(|f| ValuesFile { name: f.to_string(), text: std::fs::read_to_string(root().join(f)).expect("values file") })
            .collect(),
        ..ValueFlags::default()
    };
    let mut no_files = |p: &str| Err(format!("no --set-file here ({p})"));
    let explanation = explain_chart(&chart, &flags, &mut no_files, Options::default()).expect("explains");
    let (checked, bad) = positions::check_entries(&explanation.entries, &root().join(chart_dir), &root());
    assert!(bad.is_empty(), "positions that do not start their value:\n{}", bad.join("\n"));
    checked
}

#[test]
fn every_position_points_at_its_value_in_real_charts() {
    let kps = "tests/data/corpus/kube-prometheus-stack";
    let n = check_chart(kps, &[]) + check_chart(kps, &["tests/data/corpus/kube-prometheus-stack/ci/03-non-defaults-values.yaml"]);
    let prom = "tests/data/corpus/prometheus";
    let m = check_chart(prom, &["tests/data/corpus/prometheus/ci/18-scrape-configs-values.yaml"]);
    assert!(n + m > 2000, "checked {n} + {m} positions");
}
