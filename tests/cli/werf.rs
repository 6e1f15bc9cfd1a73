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
    // Lowest priority first: the value WERF_SET_B replaced directly is the last.
    let chain = entry("replicas")["overridden"].as_array().unwrap().clone();
    assert_eq!(chain.last().unwrap()["source"]["env"], "WERF_SET_A", "{chain:?}");
    assert_eq!(chain[0]["source"]["kind"], "chart-default", "{chain:?}");
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

/// Runs `values explain --werf DIR -o json` with werf's test key and returns the document.
fn werf_json(dir: &str, args: &[&str]) -> serde_json::Value {
    let mut cmd = releasex();
    cmd.args(["values", "explain", "--werf", dir, "-o", "json"]).args(args).env("WERF_SECRET_KEY", KEY);
    let r = run(&mut cmd);
    assert_eq!(r.code, 0, "{}", r.stderr);
    json(&r.stdout)
}

fn entry(doc: &serde_json::Value, path: &str) -> serde_json::Value {
    doc["entries"].as_array().unwrap().iter().find(|e| e["path"] == path).cloned().unwrap_or_else(|| panic!("no entry {path}"))
}

/// nelm (loader/load.go) decrypts every subchart's own secret-values.yaml;
/// `processExportValues` merges it (MergeValues(child) → makeValues) into the
/// values of each subchart its parent's Chart.yaml lists: above the
/// subchart's values.yaml, below the parent's section. An unlisted subchart's are never merged.
#[test]
fn subcharts_own_secret_values_sit_between_their_values_and_the_parents_section() {
    let dir = "tests/fixtures/werf/subsecret";
    let doc = werf_json(dir, &["--show-secrets"]);
    assert_eq!(doc["values"]["db"]["password"], "from-chart-secret");
    let password = entry(&doc, "db.password");
    assert_eq!(password["source"]["kind"], "werf-secret-values");
    assert_eq!(password["source"]["file"], "charts/db/secret-values.yaml");
    assert_eq!(password["overridden"][0]["source"]["file"], "charts/db/values.yaml");
    // The parent's section wins over the subchart's secret value.
    assert_eq!(doc["values"]["db"]["user"], "app");
    assert_eq!(entry(&doc, "db.user")["overridden"].as_array().unwrap().iter().filter(|l| l["source"]["kind"] == "werf-secret-values").count(), 1);
    // cache is not in Chart.yaml's dependencies: its secret-values.yaml is loaded but not merged.
    assert_eq!(doc["values"]["cache"]["password"], "plain");
    // Masked without --show-secrets; gone with --no-default-secret-values.
    assert_eq!(werf_json(dir, &[])["values"]["db"]["password"], "<secret>");
    assert_eq!(werf_json(dir, &["--no-default-secret-values"])["values"]["db"]["password"], "");
    // Decrypted with the project's key like the chart's own, every subchart's (nelm's loader
    // decrypts them all, listed or not): a wrong key fails on the first, cache's.
    let mut cmd = releasex();
    cmd.args(["values", "explain", "--werf", dir]).env("WERF_SECRET_KEY", "00112233445566778899aabbccddeeff");
    let r = run(&mut cmd);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("charts/cache/secret-values.yaml: password: cannot decrypt"), "{}", r.stderr);
}

/// `syncChartOverridesToParentsValues`: exported values are written back into
/// every ancestor under the child's key, so neither the parent's section for
/// the child nor a grandparent's section beats them; the user's values do.
#[test]
fn exported_values_beat_every_ancestors_section() {
    let dir = "tests/fixtures/werf/subsecret";
    let doc = werf_json(dir, &[]);
    // app exports dbDefaults to db's root: over app's own `db: {timeout: 1}`.
    let timeout = entry(&doc, "db.timeout");
    assert_eq!(timeout["value"], 30);
    assert_eq!(timeout["source"]["kind"], "export-values");
    let lost: Vec<_> = timeout["overridden"].as_array().unwrap().iter().map(|l| l["value"].clone()).collect();
    assert!(lost.contains(&serde_json::json!(1)) && lost.contains(&serde_json::json!(5)), "{lost:?}");
    // db exports poolDefaults to pool's root: over app's `db: {pool: {size: 99}}`, two levels up.
    let size = entry(&doc, "db.pool.size");
    assert_eq!(size["value"], 8);
    assert_eq!(size["source"], serde_json::json!({"kind": "export-values", "chart": "db", "from": "poolDefaults -> pool"}));
    // The user's values still win.
    let doc = werf_json(dir, &["--set", "db.pool.size=7", "--set", "db.timeout=2"]);
    assert_eq!(doc["values"]["db"]["pool"]["size"], 7);
    assert_eq!(doc["values"]["db"]["timeout"], 2);
}

/// nelm's TestProcessDependencyExportValues (pkg/helm/pkg/chartutil/dependencies_test.go)
/// on our copy of its testdata/subpop chart, through the whole werf pipeline.
#[test]
fn nelm_export_values_scenarios() {
    let doc = werf_json("tests/fixtures/werf/subpop", &[]);
    let expect: &[(&str, serde_json::Value, &str)] = &[
        // merge with no overrides
        ("subchart1.exported-parent.SPExtra7", "exported-from-parent".into(), "export-values"),
        ("subchart1.exported-parent.SPExtra10", "should-be-unchanged".into(), "chart-default"),
        ("subchart1.exported-parent.SPNested1.SPExtra19", "exported-from-parent-n6".into(), "export-values"),
        // single value export
        ("subchart1.exported-single-value-parent", "exported-from-parent-n7".into(), "export-values"),
        // merge with overrides: the exported values beat the child's own
        ("subchart1.exported-overridden-parent.SC1bool", true.into(), "export-values"),
        ("subchart1.exported-overridden-parent.SC1float", 22.2.into(), "export-values"),
        ("subchart1.exported-overridden-parent.SC1int", 222.into(), "export-values"),
        ("subchart1.exported-overridden-parent.SC1string", "exported-from-parent-n2".into(), "export-values"),
        ("subchart1.exported-overridden-parent.SPExtra8", "exported-from-parent-n3".into(), "export-values"),
        ("subchart1.exported-overridden-parent.SPExtra11", "should-be-unchanged".into(), "chart-default"),
        // `exports` style, no overrides
        ("subchart1.exported-short-parent.SPExtra9", "exported-from-parent-n4".into(), "export-values"),
        ("subchart1.exported-short-parent.SPExtra12", "should-be-unchanged".into(), "chart-default"),
        // passed from child to its own child with overrides
        ("subchart1.subcharta.exported-overridden-chart1.SCAbool", true.into(), "export-values"),
        ("subchart1.subcharta.exported-overridden-chart1.SCAfloat", 33.3.into(), "export-values"),
        ("subchart1.subcharta.exported-overridden-chart1.SCAint", 333.into(), "export-values"),
        ("subchart1.subcharta.exported-overridden-chart1.SCAstring", "exported-from-chart1".into(), "export-values"),
        ("subchart1.subcharta.exported-overridden-chart1.SPExtra13", "exported-from-chart1-n2".into(), "export-values"),
        ("subchart1.subcharta.exported-overridden-chart1.SPExtra15", "should-be-unchanged".into(), "chart-default"),
        // passed from child to its own child, `exports` style, no overrides
        ("subchart1.subcharta.exported-short-chart1.SPExtra14", "exported-from-chart1-n3".into(), "export-values"),
        ("subchart1.subcharta.exported-short-chart1.SPExtra16", "should-be-unchanged".into(), "chart-default"),
        // passed through from parent to the child of the child chart, no overrides
        ("subchart1.subcharta.exported-passthrough.SPExtra17", "exported-from-parent-n5".into(), "export-values"),
        ("subchart1.subcharta.exported-passthrough.SPExtra18", "should-be-unchanged".into(), "chart-default"),
    ];
    for (path, value, kind) in expect {
        let e = entry(&doc, path);
        assert_eq!(&e["value"], value, "{path}");
        assert_eq!(e["source"]["kind"], *kind, "{path}");
    }
    // Overridden child values are history on the key.
    let sc1bool = entry(&doc, "subchart1.exported-overridden-parent.SC1bool");
    assert_eq!(sc1bool["overridden"][0]["value"], false);
    assert_eq!(sc1bool["source"]["from"], "exported-overridden-parent -> subchart1.exported-overridden-parent");
    // The grandchild's export comes from subchart1, its parent.
    assert_eq!(entry(&doc, "subchart1.subcharta.exported-short-chart1.SPExtra14")["source"]["chart"], "subchart1");
    assert_eq!(entry(&doc, "subchart1.subcharta.exported-passthrough.SPExtra17")["source"]["chart"], "parentchart");
}

/// nelm's TestProcessDependencyImportValues expectations on the same chart:
/// imports run after exports (processDependencyImportExportValues), children
/// first, and the parent's own values beat imported ones.
#[test]
#[allow(clippy::approx_constant)] // nelm's data, not π
fn nelm_import_values_scenarios() {
    let doc = werf_json("tests/fixtures/werf/subpop", &[]);
    let expect: &[(&str, serde_json::Value)] = &[
        ("imported-chart1.SC1bool", true.into()),
        ("imported-chart1.SC1float", 3.14.into()),
        ("imported-chart1.SC1int", 100.into()),
        ("imported-chart1.SC1string", "dollywood".into()),
        ("imported-chart1.SC1extra1", 11.into()),
        ("imported-chart1.SPextra1", "helm rocks".into()),
        ("imported-chartA.SCAbool", false.into()),
        ("imported-chartA.SCAfloat", 3.1.into()),
        ("imported-chartA.SCAint", 55.into()),
        ("imported-chartA.SCAstring", "jabba".into()),
        ("imported-chartA.SPextra3", 1.337.into()),
        ("imported-chartA.SC1extra2", 1.337.into()),
        ("imported-chartA.SCAnested1.SCAnested2", true.into()),
        ("imported-chartA-B.SCAbool", false.into()),
        ("imported-chartA-B.SCAfloat", 3.1.into()),
        ("imported-chartA-B.SCAint", 55.into()),
        ("imported-chartA-B.SCAstring", "jabba".into()),
        ("imported-chartA-B.SCBbool", true.into()),
        ("imported-chartA-B.SCBfloat", 7.77.into()),
        ("imported-chartA-B.SCBint", 33.into()),
        ("imported-chartA-B.SCBstring", "boba".into()),
        ("imported-chartA-B.SPextra5", "k8s".into()),
        ("imported-chartA-B.SC1extra5", "tiller".into()),
        ("overridden-chart1.SC1bool", false.into()),
        ("overridden-chart1.SC1float", 3.141592.into()),
        ("overridden-chart1.SC1int", 99.into()),
        ("overridden-chart1.SC1string", "pollywog".into()),
        ("overridden-chart1.SPextra2", 42.into()),
        ("overridden-chartA.SCAbool", true.into()),
        ("overridden-chartA.SCAfloat", 41.3.into()),
        ("overridden-chartA.SCAint", 808.into()),
        ("overridden-chartA.SCAstring", "jabberwocky".into()),
        ("overridden-chartA.SPextra4", true.into()),
        ("overridden-chartA-B.SCAbool", true.into()),
        ("overridden-chartA-B.SCAfloat", 41.3.into()),
        ("overridden-chartA-B.SCAint", 808.into()),
        ("overridden-chartA-B.SCAstring", "jabberwocky".into()),
        ("overridden-chartA-B.SCBbool", false.into()),
        ("overridden-chartA-B.SCBfloat", 1.99.into()),
        ("overridden-chartA-B.SCBint", 77.into()),
        ("overridden-chartA-B.SCBstring", "jango".into()),
        ("overridden-chartA-B.SPextra6", 111.into()),
        ("overridden-chartA-B.SCAextra1", 23.into()),
        ("overridden-chartA-B.SCBextra1", 13.into()),
        ("overridden-chartA-B.SC1extra6", 77.into()),
        // `exports` style
        ("SCBexported1B", 1965.into()),
        ("SC1extra7", true.into()),
        ("SCBexported2A", "blaster".into()),
        ("global.SC1exported2.all.SC1exported3", "SC1expstr".into()),
    ];
    let mut wrong = Vec::new();
    for (path, value) in expect {
        let got = entry(&doc, path)["value"].clone();
        if &got != value {
            wrong.push(format!("{path}: {got} (nelm: {value})"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // nelm keeps nulls in the merge path, and the final coalescing drops them.
    assert!(doc["values"].get("ensurenull").is_none());
    // An import of an exported key sees the exported value: subchart1's
    // exported-overridden-parent is the parent's, not subchart1's own.
    assert_eq!(doc["values"]["subchart1"]["exported-overridden-parent"]["SC1int"], 222.0);
}

/// `--werf-images`: werf's image values from a build report, attributed to the file.
#[test]
fn werf_images_from_a_build_report() {
    let report = "tests/fixtures/werf/images/build-report.json";
    let doc = werf_json("tests/fixtures/werf/subsecret", &["--werf-images", report]);
    let v = &doc["values"];
    assert_eq!(v["werf"]["image"]["backend"], "registry.example.com/shop:3f2a1b-1700000000");
    assert_eq!(v["werf"]["tag"]["backend"], "3f2a1b-1700000000");
    assert_eq!(v["werf"]["repo"], "registry.example.com/shop");
    assert_eq!(v["global"]["werf"]["repo"], "registry.example.com/shop");
    assert_eq!(v["global"]["werf"]["images"]["backend"]["ref"], "registry.example.com/shop:3f2a1b-1700000000@sha256:0123abcd");
    assert_eq!(v["global"]["werf"]["images"]["backend"]["registry"], "registry.example.com");
    // Subcharts see them through global.
    assert_eq!(v["db"]["global"]["werf"]["images"]["backend"]["tag"], "3f2a1b-1700000000");
    let e = entry(&doc, "werf.image.backend");
    assert_eq!(e["source"], serde_json::json!({"kind": "werf-auxiliary", "why": format!("--werf-images {report}")}));
    // Without the flag there are no image values.
    assert!(werf_json("tests/fixtures/werf/subsecret", &[])["values"]["werf"].get("image").is_none());
    // A file that is not a build report is an error naming it.
    let r = run(releasex().args(["values", "explain", "--werf", "tests/fixtures/werf/subsecret", "--werf-images", "tests/fixtures/werf/shop/prod.yaml"]).env("WERF_SECRET_KEY", KEY));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--werf-images tests/fixtures/werf/shop/prod.yaml: not a werf build report"), "{}", r.stderr);
}

/// An apiVersion v1 chart lists its dependencies, `export-values` included, in requirements.yaml.
#[test]
fn export_values_from_requirements_yaml() {
    let doc = werf_json("tests/fixtures/werf/v1req", &[]);
    let a = entry(&doc, "sub.a");
    assert_eq!(a["value"], 1);
    assert_eq!(a["source"]["kind"], "export-values");
}

/// nelm's TestProcessDependencyImportValuesMultiLevelPrecedence (testdata/three-level-dependent-chart):
/// user values > parent chart values > imported values > the subchart's own values.
#[test]
fn nelm_import_values_multi_level_precedence() {
    let doc = werf_json("tests/fixtures/werf/three-level", &[]);
    for (path, port, kind) in [
        ("app1.service.port", 3456, "parent-values"),
        ("app2.service.port", 8080, "chart-default"),
        ("app3.service.port", 9090, "import-values"),
        ("app4.service.port", 1234, "chart-default"),
    ] {
        let e = entry(&doc, path);
        assert_eq!(e["value"], port, "{path}");
        assert_eq!(e["source"]["kind"], kind, "{path}");
    }
    let doc = werf_json("tests/fixtures/werf/three-level", &["--set", "app3.service.port=1"]);
    assert_eq!(doc["values"]["app3"]["service"]["port"], 1);
}

/// nelm's TestProcessDependencyImportValuesForEnabledCharts
/// (testdata/import-values-from-enabled-subchart): a subchart disabled by its
/// tag is gone, the enabled one keeps its values, and the parent's own values
/// beat what it imports.
#[test]
fn nelm_import_values_for_enabled_charts() {
    let doc = werf_json("tests/fixtures/werf/enabled-import", &[]);
    let v = &doc["values"];
    assert!(v.get("dev").is_none(), "{v}");
    assert_eq!(v["prod"]["nameOverride"], "parent-chart-prod");
    assert_eq!(v["nameOverride"], "parent-chart");
    assert_eq!(v["resources"]["autoscaler"]["minReplicas"], 0);
    assert_eq!(v["resources"]["autoscaler"]["targetCPUUtilizationPercentage"], 99);
}
