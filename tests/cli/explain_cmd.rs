//! `values explain` / `explain`: values, sources and history.

use serde_json::Value;

use crate::support::{fails, json, ok};

const CHART: &str = "examples/charts/secret-hook";
const PARENT: &str = "tests/oracle/charts/parent";

#[test]
fn text_shows_each_leaf_with_its_source() {
    insta::assert_snapshot!(ok(&["values", "explain", CHART, "--set", "replicas=3", "--set-string", "image.tag=2"]));
}

#[test]
fn explain_is_a_top_level_alias() {
    assert_eq!(ok(&["explain", CHART]), ok(&["values", "explain", CHART]));
}

#[test]
fn json_contract_names_sources_and_what_they_overrode() {
    let doc = json(&ok(&["explain", CHART, "--set", "image.tag=1.2.1", "-o", "json"]));
    assert_eq!(doc["values"]["image"]["tag"], "1.2.1");
    let entry = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "image.tag").expect("image.tag entry");
    assert_eq!(entry["source"], serde_json::json!({"kind": "set", "flag": "--set", "index": 0, "expr": "image.tag=1.2.1"}));
    assert_eq!(entry["overridden"][0]["event"], "overridden");
    assert_eq!(entry["overridden"][0]["source"]["kind"], "chart-default");
    assert_eq!(entry["overridden"][0]["source"]["file"], "values.yaml");
    assert!(entry["overridden"][0]["source"]["line"].as_u64().is_some());
    assert_eq!(doc["warnings"], serde_json::json!([]));
}

#[test]
fn subchart_sections_globals_imports_and_nulls_are_attributed() {
    let doc = json(&ok(&["explain", PARENT, "--set", "sub1.keep=null", "-o", "json"]));
    let find = |p: &str| doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == p).cloned().unwrap_or_default();
    assert_eq!(find("sub1.fromParent")["source"]["kind"], "parent-values");
    assert_eq!(find("sub1.keep")["deleted"], true);
    assert_eq!(find("sub1.keep")["overridden"][0]["event"], "deleted-by-null");
    assert_eq!(find("exportedKey")["source"]["kind"], "import-values");
    assert_eq!(find("sub1.global.region")["source"]["chart"], "parent");
    assert!(doc["values"].get("third").is_some(), "a disabled subchart's section stays in the values");
    assert!(doc["values"]["third"].get("global").is_none(), "but it is not coalesced");
}

#[test]
fn key_shows_one_subtree_with_history() {
    insta::assert_snapshot!(ok(&["explain", PARENT, "-f", "tests/oracle/charts/overrides/nulls.yaml", "--key", "nested", "--key", "sub1.keep"]));
    let err = fails(&["explain", PARENT, "--key", "nope"]);
    assert!(err.contains("no key nope in the values"), "{err}");
}

#[test]
fn a_mistyped_key_among_several_is_an_error_naming_the_closest_keys() {
    let err = fails(&["explain", PARENT, "--key", "nested", "--key", "replicaCoutn"]);
    assert!(err.contains("no key replicaCoutn in the values (closest: replicaCount)"), "{err}");
    let err = fails(&["upgrade-preview", "rel", "tests/fixtures/charts/parent-v2", "--release-file", "tests/fixtures/releases/parent-3-revisions.list.json", "--values-only", "--key", "replicaCoutn"]);
    assert!(err.contains("no key replicaCoutn in the values (closest: replicaCount"), "{err}");
}

#[test]
fn helms_errors_are_kept() {
    let err = fails(&["explain", CHART, "--set", "a"]);
    assert_eq!(err, "error: failed parsing --set data: key \"a\" has no value\n");
    let err = fails(&["explain", CHART, "--set", "replicas=many"]);
    assert!(err.contains("values don't meet the specifications of the schema(s) in the following chart(s):"), "{err}");
    assert!(err.contains("secret-hook"), "{err}");
    // After Helm's own text, where the bad value came from.
    assert!(err.contains("where the values that break it come from:\n- replicas: --set[0] replicas=many"), "{err}");
    ok(&["explain", CHART, "--set", "replicas=many", "--skip-schema-validation"]);
    let err = fails(&["explain", "tests/fixtures/nope"]);
    assert!(err.starts_with("error: "), "{err}");
}

#[test]
fn release_values_are_explained_from_the_stored_record() {
    let file = "tests/fixtures/releases/parent-3-revisions.list.json";
    let doc = json(&ok(&["explain", "--release-file", file, "--revision", "3", "-o", "json"]));
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(crate::support::fixture("expected/parent-3-revisions.get-values.json")).unwrap()).unwrap();
    assert_eq!(doc["values"], expected["3"]["all"], "what `helm get values --all` shows");
    let port = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "port").unwrap();
    assert_eq!(port["source"], serde_json::json!({"kind": "release-config", "revision": 3}));
    let err = fails(&["explain", "--release-file", file, "--set", "x=1"]);
    assert!(err.contains("value flags do not apply with --release"), "{err}");
}

#[test]
fn helms_coalescing_warnings_go_to_stderr_as_helm_prints_them() {
    let r = crate::support::run(crate::support::releasex().args(["explain", PARENT, "--set", "port.x=1", "--key", "port"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Helm coalesces twice (dependency processing, then rendering) and warns each time.
    assert_eq!(r.stderr, "warning: skipped value for parent.port: Not a table.\nwarning: skipped value for parent.port: Not a table.\n");
    let doc = json(&ok(&["explain", PARENT, "--set", "port.x=1", "-o", "json"]));
    assert_eq!(doc["warnings"][0], "warning: skipped value for parent.port: Not a table.");
    // The chart's scalar default under the user's map was skipped: its own entry says so.
    let port = doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == "port").unwrap();
    assert_eq!(port["skipped"], true);
    assert_eq!(port["overridden"][0]["event"], "skipped-type-mismatch");
    assert_eq!(port["overridden"][0]["value"], 8080);
}

#[test]
fn user_shows_only_the_keys_the_user_set_with_what_they_overrode() {
    let out = ok(&["explain", PARENT, "-f", "tests/oracle/charts/overrides/nulls.yaml", "--set", "replicaCount=7", "--user"]);
    assert!(out.lines().any(|l| l.starts_with("replicaCount") && l.contains("--set[0] replicaCount=7")), "{out}");
    assert!(out.contains("overrode"), "with what it overrode: {out}");
    for line in out.lines().filter(|l| !l.starts_with(' ')) {
        assert!(!line.ends_with("default)"), "a chart default is not the user's: {line}");
    }
    let all = ok(&["explain", PARENT, "-f", "tests/oracle/charts/overrides/nulls.yaml", "--set", "replicaCount=7"]);
    assert!(out.lines().count() < all.lines().count());
}

#[test]
fn override_chains_read_lowest_priority_first_in_json_and_most_recent_first_in_text() {
    let dir = tempfile::tempdir().unwrap();
    let (f1, f2) = (dir.path().join("f1.yaml"), dir.path().join("f2.yaml"));
    std::fs::write(&f1, "replicaCount: 10\n").unwrap();
    std::fs::write(&f2, "replicaCount: 20\n").unwrap();
    let (f1, f2) = (f1.display().to_string(), f2.display().to_string());
    let args = ["explain", PARENT, "-f", f1.as_str(), "-f", f2.as_str(), "--set", "replicaCount=30", "--key", "replicaCount"];
    let doc = json(&ok(&[&args[..], &["-o", "json"]].concat()));
    let chain: Vec<Value> = doc["entries"][0]["overridden"].as_array().unwrap().iter().map(|l| l["value"].clone()).collect();
    assert_eq!(chain, [serde_json::json!(1), serde_json::json!(10), serde_json::json!(20)], "chart default, then -f files in order");
    let text = ok(&args);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("overrode")).collect();
    assert!(lines[0].contains("overrode 20") && lines[2].contains("overrode 1 "), "{text}");
}

#[test]
fn text_fits_the_terminal_width_and_never_cuts_a_value() {
    let long = "x".repeat(150);
    let set = format!("note={long}");
    let args = ["explain", PARENT, "-f", "tests/oracle/charts/overrides/nulls.yaml", "--set-string", set.as_str()];
    // Piped: the value whole, on its row.
    let piped = ok(&args);
    assert!(piped.contains(&format!("\"{long}\"")) && !piped.contains('…'), "{piped}");
    // Laid out for an 80-column terminal: no line is wider, and the value is all there, wrapped.
    for columns in ["80", "120"] {
        let r = crate::support::run(crate::support::releasex().env("RELEASEX_COLUMNS", columns).args(args));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let width: usize = columns.parse().unwrap();
        for line in r.stdout.lines() {
            assert!(line.chars().count() <= width, "wider than {width}: {line:?}");
        }
        let joined: String = r.stdout.split_whitespace().collect();
        assert!(joined.contains(&format!("\"{long}\"")), "{}", r.stdout);
    }
}

#[test]
fn text_keeps_the_spaces_inside_strings_of_a_list_value() {
    let out = ok(&["values", "explain", "tests/fixtures/charts/parent", "--set", "l={a b,c  d}", "--color", "never"]);
    let line = out.lines().find(|l| l.starts_with("l ")).expect("the l entry");
    assert!(line.contains(r#"["a b","c  d"]"#), "{line}");
}

/// Helm refuses to install a library chart (pkg/cmd/install.go
/// checkIfInstallable: `library charts are not installable`); explain
/// explains it and says so (docs/fidelity.md).
#[test]
fn a_library_chart_is_explained_with_a_warning_that_helm_would_not_install_it() {
    let r = crate::support::run(crate::support::releasex().args(["explain", "tests/data/charts/library-chart"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("common.port"), "{}", r.stdout);
    assert!(r.stderr.contains("Helm would not install this chart (library charts are not installable)"), "{}", r.stderr);
}
