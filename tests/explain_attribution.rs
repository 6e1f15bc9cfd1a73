//! Every entry's line and column point at its value in the file it names:
//! checked for every leaf of real-world charts and their CI override files.

use std::path::PathBuf;

use releasex::explain::{Options, explain_chart};
use releasex::values::tree::Source;
use releasex::values::user::{ValueFlags, ValuesFile};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text at (line, column), 1-based, from that character to the end of the line.
fn at(text: &str, line: usize, column: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    Some(l.chars().skip(column.checked_sub(1)?).collect())
}

/// Whether `rest` (the file from the value's position) plausibly starts the value.
fn starts_value(rest: &str, value: &Value) -> bool {
    let first = rest.chars().next().unwrap_or(' ');
    if matches!(first, '&' | '!' | '*' | '|' | '>' | '"' | '\'' | '[' | '{' | '-') {
        return true; // anchors, tags, aliases, block scalars, quotes, flow and block collections
    }
    match value {
        Value::String(s) => s.is_empty() || rest.starts_with(s.chars().next().map(String::from).unwrap_or_default().as_str()),
        Value::Number(_) => first.is_ascii_digit() || matches!(first, '+' | '.'),
        Value::Bool(_) => first.is_ascii_alphabetic(),
        // An empty value is placed at its colon.
        Value::Null => rest.is_empty() || matches!(first, '~' | 'n' | 'N' | '#' | ':'),
        Value::Array(a) => a.is_empty() || first.is_ascii_alphanumeric(),
        Value::Object(m) => m.is_empty() || first.is_ascii_alphanumeric(),
    }
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
    let mut checked = 0;
    for e in &explanation.entries {
        let (Some(value), Some(source)) = (&e.value, &e.source) else { continue };
        let (path, line, column) = match &**source {
            Source::ChartDefault { file, line: Some(l), column: Some(c), .. } | Source::ParentValues { file, line: Some(l), column: Some(c), .. } => {
                (root().join(chart_dir).join(&**file), *l, *c)
            }
            Source::ValuesFile { file, line: Some(l), column: Some(c) } => (root().join(&**file), *l, *c),
            _ => continue,
        };
        let text = std::fs::read_to_string(&path).expect("source file");
        let rest = at(&text, line, column).unwrap_or_else(|| panic!("{}: {} has no {line}:{column}", e.path, path.display()));
        assert!(
            starts_value(&rest, value),
            "{}: {}:{line}:{column} reads {rest:?}, which does not start the value {value}",
            e.path,
            path.display()
        );
        checked += 1;
    }
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
