//! Every command's `-o json` document against its JSON Schema in
//! `docs/schemas/` (the documented contract): a key renamed, added or typed
//! differently fails here until the schema and docs/json.md say so.

use serde_json::Value;

use crate::support::{json, ok};

/// Serves the schemas of docs/schemas/ by file name (their `$ref`s), nothing else.
struct Schemas;

impl jsonschema::Retrieve for Schemas {
    fn retrieve(&self, uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.as_str().rsplit('/').next().unwrap_or_default().to_string();
        Ok(schema(&name))
    }
}

fn schema(name: &str) -> Value {
    let path = format!("{}/docs/schemas/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Fails with every violation when `doc` does not match docs/schemas/`name`.
pub fn assert_matches(name: &str, doc: &Value) {
    let validator = jsonschema::options()
        .with_base_uri(format!("file:///schemas/{name}"))
        .with_retriever(Schemas)
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
    let errors: Vec<String> = validator.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path().as_str())).collect();
    assert!(errors.is_empty(), "{name}:\n{}\n{doc:#}", errors.join("\n"));
}

const PARENT: &str = "tests/fixtures/charts/parent";
const PARENT_V2: &str = "tests/fixtures/charts/parent-v2";
const EXAMPLE: &str = "examples/upgrade/web-release.json";

#[test]
fn values_explain_json_matches_its_schema() {
    assert_matches("values-explain.json", &json(&ok(&["explain", PARENT, "-f", "tests/oracle/charts/overrides/nulls.yaml", "--set", "x=1", "-o", "json"])));
    assert_matches("values-explain.json", &json(&ok(&["explain", "--release-file", EXAMPLE, "--release", "web", "-o", "json"])));
}

#[test]
fn upgrade_preview_json_matches_its_schema_in_one_mode_and_compared() {
    let base = ["upgrade-preview", "web", PARENT_V2, "--release-file", EXAMPLE, "--set", "image.tag=2.0", "--values-only", "-o", "json"];
    assert_matches("upgrade-preview.json", &json(&ok(&base)));
    assert_matches("upgrade-preview.json", &json(&ok(&[&base[..], &["--compare-modes"]].concat())));
    assert_matches("upgrade-preview.json", &json(&ok(&[&base[..], &["--reuse-values"]].concat())));
}

#[test]
fn release_json_matches_its_schemas() {
    assert_matches("release-history.json", &json(&ok(&["release", "history", "-f", "examples/demo-release.yaml", "-o", "json"])));
    assert_matches("release-history.json", &json(&ok(&["release", "history", "-f", "tests/fixtures/releases/history/pending.list.json", "-o", "json"])));
    assert_matches("release-decode-summary.json", &json(&ok(&["release", "decode", "-f", "examples/demo-release.yaml", "-o", "json"])));
}

#[test]
fn a_schema_rejects_a_document_with_a_renamed_key() {
    let mut doc = json(&ok(&["release", "history", "-f", "examples/demo-release.yaml", "-o", "json"]));
    let obj = doc.as_object_mut().unwrap();
    let revisions = obj.remove("revisions").unwrap();
    obj.insert("rows".into(), revisions);
    let result = std::panic::catch_unwind(|| assert_matches("release-history.json", &doc));
    assert!(result.is_err(), "the schemas are strict about keys");
}

#[test]
fn rollback_preview_json_matches_its_schema() {
    // Offline on the bundled demo's records (real Helm 4.2.3): revision 3 back to 2.
    let doc = json(&ok(&["rollback-preview", "demo", "--release-file", "examples/demo-release.yaml", "--offline", "-o", "json"]));
    assert_eq!(doc["target"]["revision"], doc["current"]["revision"].as_i64().unwrap() - 1);
    assert_matches("rollback-preview.json", &doc);
}

#[test]
fn blame_json_matches_its_schema() {
    let doc = json(&ok(&["blame", "tests/fixtures/blame/idioms", "--set", "onTrue=zz", "-o", "json"]));
    assert_matches("blame.json", &doc);
}

#[test]
fn upgrade_preview_why_json_matches_its_schema() {
    let doc = json(&ok(&["upgrade-preview", "rel", PARENT_V2, "--release-file", "tests/fixtures/releases/parent-3-revisions.list.json", "--offline", "--set", "replicaCount=7", "--why", "-o", "json"]));
    assert!(doc["objects"].as_array().expect("objects").iter().any(|o| o.get("why").is_some()), "{doc}");
    assert_matches("upgrade-preview.json", &doc);
}
