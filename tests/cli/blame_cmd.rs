//! `blame`: each leaf of each rendered object blamed on the template text or
//! action that printed it and the values keys (and render-data facts) that
//! action read, with each key's provenance.
//!
//! Two kinds of proof: hand-written cases for each of Helm's idioms on
//! tests/fixtures/blame/idioms (include, tpl, `toYaml | nindent`, default,
//! required, ternary, range, with, `$`, variables, dict arguments, facts),
//! and seeded generated charts where every values key holds a unique marker
//! (`mk17q`): every leaf whose text holds a marker must be blamed on that
//! marker's key, and every key a template reads must be blamed somewhere.

use serde_json::Value;

use crate::support::{releasex, run};

const IDIOMS: &str = "tests/fixtures/blame/idioms";

fn blame_json(args: &[&str]) -> Value {
    let r = run(releasex().arg("blame").args(args).args(["-o", "json"]));
    assert_eq!(r.code, 0, "blame {args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).expect("blame -o json prints JSON")
}

fn field<'a>(doc: &'a Value, object: &str, path: &str) -> &'a Value {
    let (kind, name) = object.split_once('/').expect("KIND/NAME");
    let o = doc["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .find(|o| o["kind"] == kind && o["name"] == name)
        .unwrap_or_else(|| panic!("no object {object} in {doc}"));
    o["fields"].as_array().expect("fields").iter().find(|f| f["field"] == path).unwrap_or_else(|| panic!("no field {path} in {object}: {o}"))
}

fn keys(f: &Value) -> Vec<String> {
    f["keys"].as_array().expect("keys").iter().map(|k| k["path"].as_str().expect("path").to_string()).collect()
}

fn facts(f: &Value) -> Vec<String> {
    f["facts"].as_array().expect("facts").iter().map(|k| k.as_str().expect("fact").to_string()).collect()
}

fn key_source<'a>(f: &'a Value, path: &str) -> &'a Value {
    f["keys"].as_array().expect("keys").iter().find(|k| k["path"] == path).unwrap_or_else(|| panic!("no key {path} in {f}"))
}

const DEPLOY: &str = "Deployment/idioms";
const C0: &str = "spec.template.spec.containers[0]";

#[test]
fn a_literal_in_the_template_is_blamed_on_its_line_and_no_key() {
    let doc = blame_json(&[IDIOMS]);
    let f = field(&doc, DEPLOY, "metadata.labels.literal");
    assert_eq!(f["literal"], true);
    assert_eq!((f["template"].as_str(), f["line"].as_u64(), f["column"].as_u64()), (Some("idioms/templates/deploy.yaml"), Some(6), Some(14)));
    assert!(keys(f).is_empty() && f["action"].is_null());
}

#[test]
fn include_blames_the_keys_the_partial_read_at_the_callers_line() {
    let doc = blame_json(&[IDIOMS]);
    let f = field(&doc, DEPLOY, &format!("{C0}.image"));
    assert_eq!(f["action"], "{{ include \"idioms.image\" . | quote }}");
    assert_eq!(f["line"], 13);
    assert_eq!(keys(f), ["image.repository", "image.tag"]);
    // A partial called with a dict: the dict's value and `.ctx.Values` through it.
    let f = field(&doc, "ConfigMap/release-name-facts", "data.sub");
    assert_eq!(keys(f), ["image.tag", "inner"]);
}

#[test]
fn a_partial_printed_whole_with_nindent_blames_each_leaf_inside_the_partial() {
    let doc = blame_json(&[IDIOMS]);
    let helpers = Some("idioms/templates/_helpers.tpl");
    let f = field(&doc, "Job/job", "spec.template.spec.containers[0].image");
    assert_eq!((f["template"].as_str(), f["line"].as_u64(), keys(f)), (helpers, Some(14), vec!["image.repository".to_string()]));
    assert_eq!(f["action"], "{{ .Values.image.repository }}");
    let f = field(&doc, "Job/job", "spec.template.spec.containers[0].args[0]");
    assert_eq!((f["template"].as_str(), f["line"].as_u64(), keys(f)), (helpers, Some(16), vec!["shared".to_string()]));
    let f = field(&doc, "Job/job", "spec.template.spec.restartPolicy");
    assert_eq!((f["template"].as_str(), f["line"].as_u64(), f["literal"].as_bool()), (helpers, Some(11), Some(true)));
}

#[test]
fn tpl_blames_the_template_value_and_the_keys_it_read() {
    let doc = blame_json(&[IDIOMS]);
    let f = field(&doc, DEPLOY, "metadata.labels.tplled");
    assert_eq!(f["value"], "mk-inner-x");
    assert_eq!(keys(f), ["tplValue", "inner"]);
}

#[test]
fn to_yaml_nindent_blames_each_leaf_on_its_own_key_with_its_own_position() {
    let doc = blame_json(&[IDIOMS, "--set", "resources.limits.memory=1Gi"]);
    let cpu = field(&doc, DEPLOY, &format!("{C0}.resources.limits.cpu"));
    assert_eq!(keys(cpu), ["resources.limits.cpu"]);
    assert_eq!(key_source(cpu, "resources.limits.cpu")["source"], "values.yaml:15:10 (chart idioms default)");
    let memory = field(&doc, DEPLOY, &format!("{C0}.resources.limits.memory"));
    assert_eq!(memory["value"], "1Gi");
    assert_eq!(keys(memory), ["resources.limits.memory"]);
    let k = key_source(memory, "resources.limits.memory");
    assert_eq!(k["source"], "--set[0] resources.limits.memory=1Gi");
    assert_eq!(k["overrode"], serde_json::json!(["values.yaml:14:13 (chart idioms default)"]));
}

#[test]
fn default_required_and_ternary_blame_every_key_they_read() {
    let doc = blame_json(&[IDIOMS, "--set", "onTrue=zz"]);
    // `default "d" .Values.missing`: the key it read is not set, which blame says.
    let f = field(&doc, DEPLOY, &format!("{C0}.env[0].value"));
    assert_eq!(keys(f), ["missing", "fallback"]);
    assert_eq!(key_source(f, "missing")["source"], "not set");
    assert_eq!(keys(field(&doc, DEPLOY, &format!("{C0}.env[1].value"))), ["needed"]);
    let f = field(&doc, DEPLOY, &format!("{C0}.env[2].value"));
    assert_eq!(f["value"], "zz");
    assert_eq!(keys(f), ["onTrue", "onFalse", "flag"]);
    assert_eq!(key_source(f, "onTrue")["source"], "--set[0] onTrue=zz");
}

#[test]
fn variables_range_with_and_dollar_reach_the_values_behind_them() {
    let doc = blame_json(&[IDIOMS]);
    assert_eq!(keys(field(&doc, DEPLOY, &format!("{C0}.env[3].value"))), ["shared"]);
    // A variable set from an include has no origin of its own: what the include read.
    assert_eq!(keys(field(&doc, "ConfigMap/release-name-facts", "data.imgvar")), ["image.repository", "image.tag"]);
    let port = field(&doc, DEPLOY, &format!("{C0}.ports[1].name"));
    assert_eq!(keys(port), ["ports[1].name"]);
    // A list item has no explain entry: its own position in values.yaml.
    assert_eq!(key_source(port, "ports[1].name")["source"], "values.yaml:19:11 (chart idioms default)");
    assert_eq!(keys(field(&doc, DEPLOY, &format!("{C0}.ports[1].containerPort"))), ["ports[1].port"]);
    assert_eq!(keys(field(&doc, DEPLOY, &format!("{C0}.ports[0].other"))), ["shared"]);
    assert_eq!(keys(field(&doc, "Service/svc", "metadata.annotations.a")), ["svc.annotation"]);
    assert_eq!(keys(field(&doc, "Service/svc", "spec.type")), ["svc.type"]);
}

#[test]
fn release_chart_capabilities_template_and_files_facts_are_named() {
    let doc = blame_json(&[IDIOMS, "--release-name", "web", "-n", "prod", "--kube-version", "1.31.2"]);
    let o = "ConfigMap/web-facts";
    assert_eq!(facts(field(&doc, o, "metadata.name")), [".Release.Name"]);
    assert_eq!(facts(field(&doc, o, "metadata.namespace")), [".Release.Namespace"]);
    assert_eq!(facts(field(&doc, o, "data.chart")), [".Chart.Name", ".Chart.Version"]);
    let kube = field(&doc, o, "data.kube");
    assert_eq!((kube["value"].as_str(), facts(kube)), (Some("v1.31.2"), vec![".Capabilities.KubeVersion.Version".to_string()]));
    assert_eq!(facts(field(&doc, o, "data.template")), [".Template.Name"]);
    assert_eq!(facts(field(&doc, o, "data.file")), [".Files.Get \"files/motd.txt\""]);
    // A key missing under a map that is set.
    let digest = field(&doc, o, "data.digest");
    assert_eq!((keys(digest), digest["value"].as_str()), (vec!["image.digest".to_string()], Some("none")));
    assert_eq!(key_source(digest, "image.digest")["source"], "not set");
    // The name helper read both a fact and a values key.
    let name = field(&doc, DEPLOY, "metadata.name");
    assert_eq!((keys(name), facts(name)), (vec!["nameOverride".to_string()], vec![".Chart.Name".to_string()]));
}

#[test]
fn one_object_and_one_field_narrow_the_text_view() {
    let r = run(releasex().args(["blame", IDIOMS, DEPLOY, &format!("{C0}.resources"), "-f", "tests/fixtures/blame/prod.yaml"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout, @r#"
    Deployment/idioms  (idioms/templates/deploy.yaml)
      spec.template.spec.containers[0].resources.limits.cpu = "mk-cpu"
          {{- toYaml .Values.resources | nindent 12 }}  idioms/templates/deploy.yaml:25:13
          resources.limits.cpu  values.yaml:15:10 (chart idioms default)
      spec.template.spec.containers[0].resources.limits.memory = "2Gi"
          {{- toYaml .Values.resources | nindent 12 }}  idioms/templates/deploy.yaml:25:13
          resources.limits.memory  -f tests/fixtures/blame/prod.yaml:4:13 (overrode values.yaml:14:13 (chart idioms default))
    "#);
}

#[test]
fn an_unknown_object_or_field_is_an_error_that_names_it() {
    let r = run(releasex().args(["blame", IDIOMS, "Deployment/nope"]));
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("no object Deployment/nope"), "{}", r.stderr);
    let r = run(releasex().args(["blame", IDIOMS, DEPLOY, "spec.nope"]));
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("no field spec.nope"), "{}", r.stderr);
    let r = run(releasex().args(["blame", IDIOMS, "Deployment"]));
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("KIND/NAME"), "{}", r.stderr);
}

#[path = "blame_generated.rs"]
mod generated;

#[test]
fn secret_data_secret_looking_keys_and_their_set_flags_are_masked_unless_asked() {
    let chart = "examples/charts/secret-hook";
    let args = ["blame", chart, "--set", "password=hunter2", "Secret/release-name-credentials"];
    let r = run(releasex().args(args));
    assert_eq!(r.code, 0, "{}", r.stderr);
    for leak in ["hunter2", "aHVudGVyMg", "tok-12345"] {
        assert!(!r.stdout.contains(leak), "{leak} leaked:\n{}", r.stdout);
    }
    assert!(r.stdout.contains("--set[0] password=<masked>"), "{}", r.stdout);
    let doc = blame_json(&args[1..]);
    assert!(!doc.to_string().contains("hunter2") && !doc.to_string().contains("aHVudGVyMg"), "{doc}");
    assert_eq!(field(&doc, "Secret/release-name-credentials", "data.password")["value"], "<masked>");
    let shown = run(releasex().args(args).arg("--show-secrets"));
    assert!(shown.stdout.contains("aHVudGVyMg==") && shown.stdout.contains("--set[0] password=hunter2"), "{}", shown.stdout);
}

#[test]
fn the_conditions_around_a_leaf_are_named_with_what_they_read() {
    let doc = blame_json(&[IDIOMS, "--set", "ingress.enabled=true"]);
    let conditions = |f: &Value| -> Vec<(String, String)> {
        f["conditions"].as_array().expect("conditions").iter().map(|c| (c["path"].as_str().unwrap().to_string(), c["source"].as_str().unwrap().to_string())).collect()
    };
    // `with .Values.svc`: the map itself, not narrowed to the leaf.
    assert_eq!(conditions(field(&doc, "Service/svc", "spec.type")), [("svc".to_string(), "values.yaml:22:3 (chart idioms default)".to_string())]);
    // A capability check, and the whole-template `if` of an object the flag turns on.
    let apps = conditions(field(&doc, "ConfigMap/release-name-facts", "data.apps"));
    assert_eq!(apps, [(".Capabilities.APIVersions.Has \"apps/v1\"".to_string(), "render data".to_string())]);
    let host = conditions(field(&doc, "Ingress/idioms", "spec.rules[0].host"));
    assert_eq!(host, [("ingress.enabled".to_string(), "--set[0] ingress.enabled=true".to_string())]);
    assert!(conditions(field(&doc, DEPLOY, "kind")).is_empty());
}
