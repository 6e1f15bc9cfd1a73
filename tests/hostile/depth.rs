//! Depth: values nested as deep as Helm reads them are read (the command runs
//! on a deep stack), one level past Helm's limits is Helm's error naming the
//! file and line, and what Helm leaves unlimited (template nesting, OpenAPI
//! `$ref` chains) stops at a documented limit or, for a `$ref` cycle, with an
//! error. Helm's boundaries, checked against real Helm 4.1.4 `helm template`
//! and helmfile 0.166 `build`: a block sequence under a key nested 9,999 deep
//! reads, 10,000 deep is `yaml: line 2: exceeded max depth of 10000`
//! (go-yaml's `max_indents`); JSON nesting past 10,000 levels (the root map
//! counts) is `invalid character '[' exceeded max depth` (encoding/json).
//! See docs/limits.md.

use std::path::{Path, PathBuf};

use crate::support::{Limits, run, temp_file};
use crate::xorshift::Rng;

/// go-yaml's `max_indents` and encoding/json's `maxNestingDepth`.
const HELM_MAX_DEPTH: usize = 10_000;

/// Deep but accepted input: the debug binary reads 10,000 levels in well
/// under a second and 100 MiB (measured 0.4 s, 90 MiB); the bound leaves room
/// for two busy cores.
const DEEP: Limits = Limits { wall_seconds: 20.0, max_rss_mib: 512 };

/// `a:` holding `depth - 1` compact block sequences (`- - - ... x`): `depth`
/// indentation levels with the root map, the shape of the issue's 10 kB file.
fn block_sequences(depth: usize, leaf: &str) -> String {
    format!("a:\n  {}{leaf}\n", "- ".repeat(depth - 1))
}

/// Seeded block nesting of `depth` levels under the root map: mostly compact
/// sequences, some maps (a key, then its value on the next line, indented
/// one past the key). Returns the text and the 1-based line on which level
/// `HELM_MAX_DEPTH + 1` opens, if it does.
fn mixed_block_nesting(seed: u64, depth: usize, leaf: &str) -> (String, Option<usize>) {
    let mut rng = Rng(seed);
    let mut out = String::from("root:\n ");
    let (mut line, mut column) = (2, 1);
    let mut over_at = None;
    // The root map is level 1; the value of `root` starts at level 2.
    for level in 2..=depth {
        if level == HELM_MAX_DEPTH + 1 {
            over_at = Some(line);
        }
        if rng.chance(3) {
            let key = format!("k{}", rng.below(1000));
            out.push_str(&key);
            out.push_str(":\n");
            column += 1;
            out.push_str(&" ".repeat(column));
            line += 1;
        } else {
            out.push_str("- ");
            column += 2;
        }
    }
    out.push_str(leaf);
    out.push('\n');
    (out, over_at)
}

/// `values explain` of a one-file chart with `-f file`, as YAML.
fn explain_with_file(name: &str, text: &str, limits: Limits) -> crate::support::Outcome {
    let (chart_dir, chart) = chart_with_values("top: 1\n");
    let (_dir, file) = temp_file(name, text.as_bytes());
    let outcome = run(&["values", "explain", path(&chart), "-f", path(&file), "-o", "yaml"], &[], None, limits);
    drop(chart_dir);
    outcome
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// A chart directory `deep` whose values.yaml is `values`.
fn chart_with_values(values: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, chart_yaml) = temp_file("deep/Chart.yaml", b"apiVersion: v2\nname: deep\nversion: 0.1.0\n");
    let chart = chart_yaml.parent().expect("the chart directory").to_path_buf();
    std::fs::write(chart.join("values.yaml"), values).expect("write values.yaml");
    (dir, chart)
}

#[test]
fn block_sequences_nested_as_deep_as_helm_reads_them_are_read_with_helms_value() {
    let outcome = explain_with_file("deep.yaml", &block_sequences(HELM_MAX_DEPTH, "x"), DEEP);
    outcome.assert_success(DEEP);
    // go-yaml prints the value back in the same compact form.
    let value = format!("\n  a:\n  {}x\n", "- ".repeat(HELM_MAX_DEPTH - 1));
    assert!(outcome.stdout.contains(&value), "the deep value is not in the output");
}

#[test]
fn block_sequences_one_level_past_go_yaml_fail_with_its_error_naming_file_and_line() {
    let outcome = explain_with_file("deep.yaml", &block_sequences(HELM_MAX_DEPTH + 1, "x"), Limits::DEFAULT);
    outcome.assert_clean_error("/deep.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 2: exceeded max depth of 10000", Limits::DEFAULT);
}

#[test]
fn seeded_mixed_block_maps_and_sequences_read_to_helms_depth_and_fail_one_past_it() {
    for seed in [0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03] {
        let (text, _) = mixed_block_nesting(seed, HELM_MAX_DEPTH, "leaf-marker");
        let outcome = explain_with_file("mixed.yaml", &text, DEEP);
        outcome.assert_success(DEEP);
        assert!(outcome.stdout.contains("leaf-marker"), "seed {seed:#x}: the leaf is not in the output");

        let (text, over_at) = mixed_block_nesting(seed, HELM_MAX_DEPTH + 1, "leaf-marker");
        let line = over_at.expect("level 10001 opens");
        let outcome = explain_with_file("mixed.yaml", &text, Limits::DEFAULT);
        outcome.assert_clean_error(&format!("/mixed.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line {line}: exceeded max depth of 10000"), Limits::DEFAULT);
    }
}

#[test]
fn explicit_keys_nested_10000_deep_are_helms_invalid_key_and_one_more_its_depth_error() {
    // Helm refuses a map as a key (sigs.k8s.io/yaml); past go-yaml's limit the
    // scanner stops first, on line 1, which go-yaml does not number.
    let keys = |n: usize| format!("{}x\n", "? ".repeat(n));
    let outcome = explain_with_file("keys.yaml", &keys(HELM_MAX_DEPTH), Limits::DEFAULT);
    outcome.assert_clean_error(r#"yaml: invalid map key: map[interface {}]interface {}{"x":interface {}(nil)}"#, Limits::DEFAULT);
    let outcome = explain_with_file("keys.yaml", &keys(HELM_MAX_DEPTH + 1), Limits::DEFAULT);
    outcome.assert_clean_error("/keys.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: exceeded max depth of 10000", Limits::DEFAULT);
}

#[test]
fn block_nesting_within_go_yaml_but_json_past_its_depth_is_encoding_json_error() {
    // 9,999 block levels, then two flow levels: 10,001 JSON levels.
    let text = format!("a:\n  {}[[]]\n", "- ".repeat(HELM_MAX_DEPTH - 2));
    let outcome = explain_with_file("mixed.yaml", &text, Limits::DEFAULT);
    outcome.assert_clean_error("/mixed.yaml: cannot unmarshal yaml document: error unmarshaling JSON: while decoding JSON: invalid character '[' exceeded max depth", Limits::DEFAULT);
}

#[test]
fn deep_flow_nesting_stops_with_an_error_naming_the_file() {
    // saphyr-parser counts flow levels in a u8: past 255 this is its error,
    // where Helm reads up to 9,999 (docs/limits.md).
    let text = format!("a: {}{}\n", "[".repeat(HELM_MAX_DEPTH + 1), "]".repeat(HELM_MAX_DEPTH + 1));
    let outcome = explain_with_file("flow.yaml", &text, Limits::DEFAULT);
    outcome.assert_clean_error("/flow.yaml", Limits::DEFAULT);
}

#[test]
fn a_charts_deep_values_yaml_reads_from_a_directory_and_fails_past_helms_depth_inside_a_tgz() {
    let (dir, chart) = chart_with_values(&block_sequences(HELM_MAX_DEPTH, "x"));
    run(&["values", "explain", path(&chart), "-o", "yaml"], &[], None, DEEP).assert_success(DEEP);
    std::fs::write(chart.join("values.yaml"), block_sequences(HELM_MAX_DEPTH + 1, "x")).expect("write values.yaml");
    let tgz = dir.path().join("deep-0.1.0.tgz");
    let status = std::process::Command::new("tar")
        .arg("czf")
        .arg(&tgz)
        .arg("-C")
        .arg(dir.path())
        .arg("deep")
        .status()
        .expect("tar runs");
    assert!(status.success());
    let outcome = run(&["values", "explain", path(&tgz), "-o", "yaml"], &[], None, Limits::DEFAULT);
    outcome.assert_clean_error("cannot load values.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 2: exceeded max depth of 10000\n  at values.yaml:2:", Limits::DEFAULT);
    assert!(outcome.stderr.contains("yaml: line 2: exceeded max depth of 10000"), "{}", outcome.stderr);
}

/// A helmfile whose default environment reads `env_file`, written with `env`.
fn helmfile_project(env_file: &str, env: &str) -> (tempfile::TempDir, PathBuf) {
    let helmfile = format!("environments:\n  default:\n    values:\n      - {env_file}\n");
    let (dir, state) = temp_file("helmfile.yaml", helmfile.as_bytes());
    std::fs::write(dir.path().join(env_file), env).expect("write the environment file");
    (dir, state)
}

#[test]
fn a_helmfile_layer_reads_to_go_yamls_depth_and_fails_one_past_it_naming_the_layer() {
    let (_dir, state) = helmfile_project("env.yaml", &block_sequences(HELM_MAX_DEPTH, "x"));
    run(&["values", "explain", "--helmfile", path(&state), "-o", "yaml"], &[], None, DEEP).assert_success(DEEP);
    let (_dir, state) = helmfile_project("env.yaml", &block_sequences(HELM_MAX_DEPTH + 1, "x"));
    let outcome = run(&["values", "explain", "--helmfile", path(&state), "-o", "yaml"], &[], None, Limits::DEFAULT);
    outcome.assert_clean_error("env.yaml:2:", Limits::DEFAULT);
    assert!(outcome.stderr.contains("yaml: line 2: exceeded max depth of 10000"), "{}", outcome.stderr);
}

/// Template nesting at the limit: the debug binary measured 1.4 s and
/// 650 MiB for 100,000 nested `if` (mostly the stack of the recursion).
const DEEP_TEMPLATE: Limits = Limits { wall_seconds: 30.0, max_rss_mib: 1024 };

#[test]
fn helmfile_templates_nest_ifs_and_parentheses_to_the_documented_limit_and_no_further() {
    const MAX_NESTING: usize = 100_000;
    let ifs = |n: usize| format!("{}a: 1\n{}", "{{ if true }}".repeat(n), "{{ end }}".repeat(n));
    let (_dir, state) = helmfile_project("env.yaml.gotmpl", &ifs(MAX_NESTING));
    let outcome = run(&["values", "explain", "--helmfile", path(&state), "-o", "yaml"], &[], None, DEEP_TEMPLATE);
    outcome.assert_success(DEEP_TEMPLATE);
    assert!(outcome.stdout.contains("\n  a: 1\n"), "{}", outcome.stdout);

    let (_dir, state) = helmfile_project("env.yaml.gotmpl", &ifs(MAX_NESTING + 1));
    let outcome = run(&["values", "explain", "--helmfile", path(&state), "-o", "yaml"], &[], None, DEEP_TEMPLATE);
    // The `{{` of the 100,001st `if` (13 bytes each).
    let column = MAX_NESTING * 13 + 1;
    outcome.assert_clean_error(&format!("env.yaml.gotmpl:1:{column}: template: `if`/`with`/`range` blocks and parentheses nested more than 100000 deep"), DEEP_TEMPLATE);

    let parens = format!("a: {{{{ {}1{} }}}}\n", "(".repeat(10 * MAX_NESTING), ")".repeat(10 * MAX_NESTING));
    let (_dir, state) = helmfile_project("env.yaml.gotmpl", &parens);
    let outcome = run(&["values", "explain", "--helmfile", path(&state), "-o", "yaml"], &[], None, DEEP_TEMPLATE);
    outcome.assert_clean_error(&format!("env.yaml.gotmpl:1:{}: template: `if`/`with`/`range` blocks and parentheses nested more than 100000 deep", 7 + MAX_NESTING), DEEP_TEMPLATE);
}

#[test]
fn werf_values_yaml_past_go_yamls_depth_is_helms_error_naming_the_file() {
    let (dir, _) = temp_file(".helm/Chart.yaml", b"apiVersion: v2\nname: app\nversion: 0.1.0\n");
    std::fs::write(dir.path().join(".helm/values.yaml"), block_sequences(HELM_MAX_DEPTH + 1, "x")).expect("write values.yaml");
    let outcome = run(&["values", "explain", "--werf", path(dir.path()), "-o", "yaml"], &[], None, Limits::DEFAULT);
    outcome.assert_clean_error("cannot load values.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 2: exceeded max depth of 10000\n  at values.yaml:2:", Limits::DEFAULT);
    assert!(outcome.stderr.contains("yaml: line 2: exceeded max depth of 10000"), "{}", outcome.stderr);
}

/// A Helm release Secret whose user values hold `a` nested so that the
/// record's JSON is `depth` levels deep (the record and `config` are two).
fn deep_record_secret(depth: usize) -> Vec<u8> {
    use base64::Engine as _;
    let inner = format!("{}{}", "[".repeat(depth - 2), "]".repeat(depth - 2));
    let record = format!(
        r#"{{"name":"demo","namespace":"default","version":1,"info":{{"status":"deployed"}},"chart":{{"metadata":{{"name":"deep","version":"0.1.0"}}}},"config":{{"a":{inner}}},"manifest":""}}"#
    );
    let payload = releasex::release::codec::encode_payload(record.as_bytes());
    let data = base64::engine::general_purpose::STANDARD.encode(payload);
    serde_json::json!({
        "apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
        "metadata": {"name": "sh.helm.release.v1.demo.v1", "namespace": "default",
            "labels": {"name": "demo", "owner": "helm", "status": "deployed", "version": "1"}},
        "data": {"release": data}
    })
    .to_string()
    .into_bytes()
}

#[test]
fn release_records_nest_to_encoding_jsons_depth_and_fail_one_past_it() {
    let (_dir, file) = temp_file("record.json", &deep_record_secret(HELM_MAX_DEPTH));
    let outcome = run(&["release", "decode", "-f", path(&file), "--show", "values", "-o", "yaml"], &[], None, DEEP);
    outcome.assert_success(DEEP);
    assert!(outcome.stdout.contains(&"- ".repeat(100)), "the deep values are not in the output");
    let (_dir, file) = temp_file("record.json", &deep_record_secret(HELM_MAX_DEPTH + 1));
    let outcome = run(&["release", "decode", "-f", path(&file), "--show", "values"], &[], None, Limits::DEFAULT);
    outcome.assert_clean_error("record.json (Secret sh.helm.release.v1.demo.v1): record JSON is invalid: invalid character '[' exceeded max depth", Limits::DEFAULT);
}

const DEPLOY: [&str; 3] = [
    "tests/fixtures/patch/deployment-original.yaml",
    "tests/fixtures/patch/deployment-modified.yaml",
    "tests/fixtures/patch/deployment-current.yaml",
];

/// An OpenAPI v3 document for apps/v1 whose Deployment `spec` refers to
/// `rings[0]`, the definitions `rings` refer to each other in order and the
/// last back to the first (one name: a self-reference), written the v3 way
/// (`allOf: [{$ref}]`) when `all_of`.
fn ref_cycle_v3(rings: &[&str], all_of: bool) -> serde_json::Value {
    let reference = |name: &str| {
        let r = format!("#/components/schemas/{name}");
        if all_of { serde_json::json!({"allOf": [{"$ref": r}]}) } else { serde_json::json!({"$ref": r}) }
    };
    let mut schemas = serde_json::Map::new();
    schemas.insert(
        "io.k8s.api.apps.v1.Deployment".into(),
        serde_json::json!({"type": "object",
            "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
            "properties": {"metadata": {"type": "object"}, "spec": reference(rings[0])}}),
    );
    for (i, name) in rings.iter().enumerate() {
        schemas.insert((*name).into(), reference(rings[(i + 1) % rings.len()]));
    }
    serde_json::json!({"components": {"schemas": schemas}})
}

fn ring_message(rings: &[&str]) -> String {
    let names: Vec<String> = rings.iter().chain(rings.first()).map(|n| format!("\"{n}\"")).collect();
    format!("the OpenAPI definitions refer to each other in a cycle: {}", names.join(" -> "))
}

#[test]
fn openapi_ref_cycles_from_a_patch_meta_file_are_an_error_naming_the_file_and_the_ring() {
    for (rings, all_of) in [(&["Self"][..], false), (&["A", "B"][..], false), (&["Self"][..], true)] {
        let doc = ref_cycle_v3(rings, all_of);
        let (_dir, file) = temp_file("openapi.json", doc.to_string().as_bytes());
        let outcome = run(&["patch", DEPLOY[0], DEPLOY[1], DEPLOY[2], "--patch-meta", path(&file)], &[], None, Limits::DEFAULT);
        outcome.assert_clean_error(&format!("with the patch metadata of --patch-meta {}", file.display()), Limits::DEFAULT);
        assert!(outcome.stderr.contains(&ring_message(rings)), "{rings:?}: {}", outcome.stderr);
    }
}

#[test]
fn openapi_ref_cycles_from_the_cluster_are_an_error_naming_the_ring() {
    use crate::fixture_api::FixtureApi;
    for (rings, all_of) in [(&["Self"][..], false), (&["A", "B"][..], false), (&["Self"][..], true)] {
        let api = FixtureApi::start(Vec::new());
        api.serve("/openapi/v3", serde_json::json!({"paths": {"apis/apps/v1": {"serverRelativeURL": "/openapi/v3/apis/apps/v1?hash=abc"}}}));
        api.serve("/openapi/v3/apis/apps/v1", ref_cycle_v3(rings, all_of));
        let dir = tempfile::tempdir().expect("tempdir");
        let kubeconfig = api.write_kubeconfig(dir.path(), "default");
        let outcome = run(
            &["patch", DEPLOY[0], DEPLOY[1], DEPLOY[2], "--patch-meta-from-cluster"],
            &[("KUBECONFIG", path(&kubeconfig))],
            None,
            Limits::DEFAULT,
        );
        outcome.assert_clean_error("with the patch metadata of --patch-meta-from-cluster", Limits::DEFAULT);
        assert!(outcome.stderr.contains(&ring_message(rings)), "{rings:?}: {}", outcome.stderr);
        api.assert_read_only();
    }
}
