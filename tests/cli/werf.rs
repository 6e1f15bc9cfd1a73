//! `values explain --werf`: werf's value sources, nelm's order, secret values.

use crate::support::{json, releasex, run};

const PROJECT: &str = "tests/fixtures/werf/shop";
/// werf's own test key (werf/common-go legacy_compat_test.go); the fixture's secrets are encrypted with it.
const KEY: &str = "bc3458408a5687e60b9417adb84e4ad0";

/// Runs with the project's environment: the key and two `$WERF_SET_*` and a `$WERF_VALUES_*` variable.
fn werf(args: &[&str], env: &[(&str, &str)]) -> crate::support::Run {
    let mut cmd = releasex();
    cmd.args(["values", "explain", "--werf", PROJECT]).args(args);
    cmd.env("WERF_SECRET_KEY", KEY)
        .env("WERF_SET_B", "replicas=5")
        .env("WERF_SET_A", "replicas=4")
        .env("WERF_VALUES_1", format!("{PROJECT}/env.yaml"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(&mut cmd)
}

const EVERYTHING: [&str; 16] = [
    "--env",
    "production",
    "-f",
    "tests/fixtures/werf/shop/prod.yaml",
    "--secret-values",
    "tests/fixtures/werf/shop/prod-secret.yaml",
    "--set",
    "apiKey=plain",
    "--set",
    "image.tag=4",
    "--set-string",
    "image.tag=3",
    "--set",
    "db.size=null",
    "--show-overridden",
    "--color=never",
];

#[test]
fn every_source_explained_with_nelms_order_and_the_documented_differences() {
    let r = werf(&EVERYTHING, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(format!("{}\n--- stderr\n{}", r.stdout, r.stderr));
}

#[test]
fn json_names_werf_sources_and_masks_secrets() {
    let mut args = EVERYTHING.to_vec();
    args.extend(["-o", "json"]);
    let r = werf(&args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    let entry = |p: &str| doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == p).cloned().unwrap_or_else(|| panic!("no {p}"));
    assert_eq!(doc["values"]["password"], "<secret>");
    assert_eq!(entry("password")["source"]["kind"], "werf-secret-values");
    assert_eq!(entry("password")["source"]["chart_default"], true);
    assert_eq!(entry("replicas")["source"], serde_json::json!({"kind": "werf-env", "env": "WERF_SET_B", "flag": "--set", "expr": "replicas=5"}));
    assert_eq!(entry("replicas")["overridden"][1]["source"]["env"], "WERF_SET_A");
    assert_eq!(entry("image.repo")["source"]["env"], "WERF_VALUES_1");
    assert_eq!(entry("image.tag")["source"]["kind"], "set-string");
    assert_eq!(entry("werf.name")["source"]["kind"], "werf-auxiliary");
    assert_eq!(doc["values"]["global"]["werf"]["namespace"], "shop-production");
    assert_eq!(entry("db.size")["deleted"], true);
    assert_eq!(doc["warnings"], serde_json::json!([]));
    // The documented order differs for these three keys; the note sits on the key.
    for key in ["apiKey", "image.tag", "password"] {
        assert!(entry(key)["notes"][0].as_str().unwrap().contains("werf's documentation ranks"), "{key}");
    }
    assert!(entry("replicas").get("notes").is_none());
}

#[test]
fn show_secrets_prints_the_decrypted_values() {
    let r = werf(&["--secret-values", "tests/fixtures/werf/shop/prod-secret.yaml", "--show-secrets", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    assert_eq!(doc["values"]["password"], "from-chart-secret");
    assert_eq!(doc["values"]["apiKey"], "key-123");
    assert_eq!(doc["values"]["db"]["password"], "db-secret");
    // No --env: werf's release name and namespace are the project's name.
    assert_eq!(doc["values"]["werf"]["name"], "shop");
}

#[test]
fn without_a_key_the_error_names_where_werf_looks() {
    let mut cmd = releasex();
    let r = run(cmd.args(["values", "explain", "--werf", PROJECT]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("$WERF_SECRET_KEY, tests/fixtures/werf/shop/.werf_secret_key, /nonexistent-home/.werf/global_secret_key"), "{}", r.stderr);
    // As werf: --ignore-secret-key explains with the encrypted strings.
    let r = run(releasex().args(["values", "explain", "--werf", PROJECT, "--ignore-secret-key", "--show-secrets", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(json(&r.stdout)["values"]["password"].as_str().unwrap().starts_with("1000"));
    // --no-default-secret-values: nothing to decrypt, no key needed.
    let r = run(releasex().args(["values", "explain", "--werf", PROJECT, "--no-default-secret-values", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["values"]["password"], "default");
}

#[test]
fn wrong_key_and_corrupted_ciphertext_are_errors() {
    let r = werf(&[], &[("WERF_SECRET_KEY", "00112233445566778899aabbccddeeff")]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("cannot decrypt"), "{}", r.stderr);
    let r = werf(&[], &[("WERF_SECRET_KEY", "abcd")]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("$WERF_SECRET_KEY: the secret key is 2 bytes"), "{}", r.stderr);
    let r = werf(&["--secret-values", "tests/fixtures/werf/shop/corrupt-secret.yaml"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("corrupt-secret.yaml: apiKey: cannot decrypt"), "{}", r.stderr);
}

#[test]
fn no_default_values_drops_the_charts_values_yaml() {
    let r = werf(&["--no-default-values", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = json(&r.stdout);
    assert_eq!(doc["values"]["image"], serde_json::json!({"repo": "from-env"}));
    assert_eq!(doc["values"]["db"]["user"], "root");
}

#[test]
fn werf_flags_need_werf() {
    let r = run(releasex().args(["values", "explain", "examples/charts/secret-hook", "--secret-values", "x.yaml"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--werf"), "{}", r.stderr);
}

#[test]
fn export_values_both_forms_and_import_values() {
    let r = werf(&["--set", "dbSettings.pool=20", "--key", "db.settings", "--key", "db.tls", "--key", "dbImported", "--color=never"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

/// No werf.yaml: the chart is `.helm/`. Helm's null rules for a whole subchart section.
#[test]
fn null_rules_for_a_whole_subchart_section() {
    let plain = "tests/fixtures/werf/plain";
    let doc = json(&crate::support::ok(&["values", "explain", "--werf", plain, "--set", "cache=null", "-o", "json"]));
    // The parent's section is deleted; the subchart falls back to its own defaults.
    assert_eq!(doc["values"]["cache"]["size"], 1.0);
    assert_eq!(doc["values"]["cache"]["ttl"], 60.0);
    // The parent's values.yaml has no such section: Helm (and nelm) fail.
    let err = crate::support::fails(&["values", "explain", "--werf", plain, "--set", "queue=null"]);
    assert!(err.contains("type mismatch on queue"), "{err}");
}

#[test]
fn a_set_null_cannot_remove_a_secret_value() {
    let r = werf(&["--set", "password=null", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["values"]["password"], "<secret>");
}
