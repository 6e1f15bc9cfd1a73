use super::conflicts::set_order;
use super::managed::applier_identifier;
use super::*;
use crate::go::json::to_go_json;
use serde_json::json;

fn key(fields: &[(&str, Value)]) -> PathElement {
    PathElement::Key(fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
}
fn f(n: &str) -> PathElement {
    PathElement::Field(n.to_owned())
}
fn path(pes: Vec<PathElement>) -> FieldPath {
    FieldPath(pes)
}
fn deployment_schema() -> BuiltinSsaSchema {
    builtin_ssa_schema("apps/v1", "Deployment").unwrap()
}
fn opts(force: bool, upgrade: bool) -> ApplyOptions<'static> {
    ApplyOptions { manager: "helm", force, upgrade_client_side: upgrade }
}

/// A Deployment first created by Helm 3 (client-side, manager `helm`
/// Update), then scaled with `kubectl scale` (scale subresource; the
/// server stores such entries with the parent's API version,
/// `scalehandler.go`), its
/// image changed with `kubectl edit`, its status written by the
/// controller, a finalizer added by another tool. Each later manager took
/// its fields away from `helm`, as Update does.
fn live_deployment() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "web", "namespace": "shop",
            "labels": {"app": "web", "app.kubernetes.io/managed-by": "Helm"},
            "annotations": {
                "meta.helm.sh/release-name": "web",
                "meta.helm.sh/release-namespace": "shop",
                "deployment.kubernetes.io/revision": "3"
            },
            "finalizers": ["example.com/protect"],
            "managedFields": [
                {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1",
                 "time": "2026-11-01T10:00:00Z", "fieldsType": "FieldsV1",
                 "fieldsV1": {
                    "f:metadata": {
                        "f:annotations": {".": {}, "f:meta.helm.sh/release-name": {}, "f:meta.helm.sh/release-namespace": {}},
                        "f:labels": {".": {}, "f:app": {}, "f:app.kubernetes.io/managed-by": {}}
                    },
                    "f:spec": {
                        "f:selector": {},
                        "f:template": {
                            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                            "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {
                                ".": {}, "f:name": {},
                                "f:ports": {".": {}, "k:{\"containerPort\":8080,\"protocol\":\"TCP\"}": {
                                    ".": {}, "f:containerPort": {}, "f:protocol": {}}}
                            }}}
                        }
                    }
                 }},
                {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
                 "time": "2026-11-02T09:00:00Z", "fieldsType": "FieldsV1", "subresource": "status",
                 "fieldsV1": {
                    "f:metadata": {"f:annotations": {"f:deployment.kubernetes.io/revision": {}}},
                    "f:status": {"f:replicas": {}, "f:observedGeneration": {}}
                 }},
                {"manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
                 "time": "2026-11-03T08:00:00Z", "fieldsType": "FieldsV1", "subresource": "scale",
                 "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1",
                 "time": "2026-11-04T07:00:00Z", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
                    "k:{\"name\":\"web\"}": {"f:image": {}}}}}}}},
                {"manager": "finalizer-bot", "operation": "Update", "apiVersion": "apps/v1",
                 "time": "2026-11-05T06:00:00Z", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:metadata": {"f:finalizers": {".": {}, "v:\"example.com/protect\"": {}}}}}
            ]
        },
        "spec": {
            "replicas": 5,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{
                    "name": "web", "image": "web:1-hotfix",
                    "ports": [{"containerPort": 8080, "protocol": "TCP"}]
                }]}
            }
        },
        "status": {"replicas": 5, "observedGeneration": 7}
    })
}

/// The chart's Deployment as Helm sends it (ownership metadata added,
/// `protocol` omitted as charts usually do).
fn target(replicas: i64, image: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "web", "namespace": "shop",
            "labels": {"app": "web", "app.kubernetes.io/managed-by": "Helm"},
            "annotations": {"meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "shop"}
        },
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": image, "ports": [{"containerPort": 8080}]}]}
            }
        }
    })
}

fn web_container() -> Vec<PathElement> {
    vec![f("spec"), f("template"), f("spec"), f("containers"), key(&[("name", json!("web"))])]
}

// --- fieldsV1 parsing ---------------------------------------------------

#[test]
fn managed_fields_of_an_edited_deployment_parse_with_manager_operation_subresource_time() {
    let entries = parse_managed_fields(&live_deployment()).unwrap();
    let summary: Vec<(&str, Operation, &str, &str, Option<&str>)> = entries
        .iter()
        .map(|e| (e.manager.as_str(), e.operation, e.subresource.as_str(), e.api_version.as_str(), e.time.as_deref()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("helm", Operation::Update, "", "apps/v1", Some("2026-11-01T10:00:00Z")),
            ("kube-controller-manager", Operation::Update, "status", "apps/v1", Some("2026-11-02T09:00:00Z")),
            ("kubectl", Operation::Update, "scale", "apps/v1", Some("2026-11-03T08:00:00Z")),
            ("kubectl-edit", Operation::Update, "", "apps/v1", Some("2026-11-04T07:00:00Z")),
            ("finalizer-bot", Operation::Update, "", "apps/v1", Some("2026-11-05T06:00:00Z")),
        ]
    );
    assert_eq!(entries[2].fields, FieldSet::from([FieldPath::fields(&["spec", "replicas"])]));
}

#[test]
fn fields_v1_members_are_dot_marked_nodes_and_childless_nodes() {
    let entries = parse_managed_fields(&live_deployment()).unwrap();
    let helm: Vec<String> = entries[0].fields.iter().map(ToString::to_string).collect();
    assert_eq!(
        helm,
        vec![
            ".metadata.annotations",
            ".metadata.annotations.meta.helm.sh/release-name",
            ".metadata.annotations.meta.helm.sh/release-namespace",
            ".metadata.labels",
            ".metadata.labels.app",
            ".metadata.labels.app.kubernetes.io/managed-by",
            ".spec.selector",
            ".spec.template.metadata.labels",
            ".spec.template.metadata.labels.app",
            ".spec.template.spec.containers[name=\"web\"]",
            ".spec.template.spec.containers[name=\"web\"].name",
            ".spec.template.spec.containers[name=\"web\"].ports",
            ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"]",
            ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"].containerPort",
            ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"].protocol",
        ]
    );
    // Not members: `.spec`, `.spec.template` (children only, no ".").
    assert!(!entries[0].fields.contains(&FieldPath::fields(&["spec", "template"])));
}

#[test]
fn set_values_in_finalizers_parse_as_value_elements() {
    let entries = parse_managed_fields(&live_deployment()).unwrap();
    let fin = FieldPath::fields(&["metadata", "finalizers"]);
    let item = fin.child(PathElement::Value(json!("example.com/protect")));
    assert_eq!(entries[4].fields, FieldSet::from([fin, item.clone()]));
    assert_eq!(item.to_string(), ".metadata.finalizers[=\"example.com/protect\"]");
}

#[test]
fn index_elements_and_unknown_element_types() {
    let set = parse_fields_v1(&json!({"f:spec": {"f:args": {"i:0": {}, "i:2": {}}, "r:future": {}}})).unwrap();
    let strs: Vec<String> = set.iter().map(ToString::to_string).collect();
    assert_eq!(strs, vec![".spec.args[0]", ".spec.args[2]"]);
}

/// structured-merge-diff `fieldpath/serialize-pe_test.go`
/// `TestPathElementRoundTrip`: text -> element -> same text.
#[test]
fn path_elements_round_trip_as_in_smd_tests() {
    let cases = [
        "i:0",
        "i:1234",
        "f:",
        "f:spec",
        "f:more-complicated-string",
        "f: string-with-spaces   ",
        "f:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        r#"k:{"name":"my-container"}"#,
        r#"k:{"name":"   name with spaces   "}"#,
        r#"k:{"port":"8080","protocol":"TCP"}"#,
        r#"k:{"optionalField":null}"#,
        r#"k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}"#,
        r#"k:{"listField":["1","2","3"]}"#,
        "v:null",
        r#"v:"some-string""#,
        "v:1234",
        r#"v:{"some":"json"}"#,
        r#"v:{"some":" some  with spaces  "}"#,
        r#"k:{"name":"app-🚀"}"#,
        r#"k:{"name":"app-💻"}"#,
        r#"k:{"name":"app with-unicøde"}"#,
        r#"k:{"name":"你好世界"}"#,
        r#"k:{"name":"Привет, мир"}"#,
        r#"k:{"name":"नमस्ते दुनिया"}"#,
        r#"k:{"name":"👋"}"#,
        "f:spec-🚀",
        r"f:spec-\n",
    ];
    for s in cases {
        let pe = parse_path_element(s).unwrap().unwrap();
        assert_eq!(serialize_path_element(&pe), s, "round trip of {s}");
    }
    assert_eq!(parse_path_element("r:Hello"), Ok(None), "unknown qualifiers are skipped, not errors");
}

/// structured-merge-diff `TestDeserializePathElementError`.
#[test]
fn malformed_path_elements_are_errors_as_in_smd_tests() {
    let cases = [
        "",
        "no-colon",
        "i:index is not a number",
        "i:1.23",
        "i:",
        "v:invalid json",
        "v:",
        "k:invalid json",
        r#"k:{"name":invalid}"#,
        r#"v:{"some":" \x41"}"#,
        "v",
        "k",
        "f",
        "i",
        r#"v:{"a":"b""#,
        r#"k:{"a":"b""#,
        "i: 0",
        "i:0 ",
        r#"v:{"some":"json"} {"other":"json"}"#,
        r#"k:{"name":"my-container"} {"other":"my-container"}"#,
        r#"v:{"some":"json"} {"other":"json""#,
        r#"k:{"name":"my-container"} {"other":"my-container""#,
        r#"v:{"some":"json"} garbage"#,
        r#"k:{"name":"my-container"} garbage"#,
    ];
    for s in cases {
        assert!(parse_path_element(s).is_err(), "{s:?} must not parse");
    }
}

/// structured-merge-diff `fieldpath/path_test.go` `TestPathString`.
#[test]
#[allow(clippy::approx_constant, reason = "3.14159 is the SMD test's literal")]
fn paths_print_as_in_smd_tests() {
    let v = |x: Value| PathElement::Value(x);
    let cases: Vec<(FieldPath, &str)> = vec![
        (path(vec![f("foo"), PathElement::Index(1)]), ".foo[1]"),
        (path(vec![f("foo"), f("bar"), PathElement::Index(1), f("baz")]), ".foo.bar[1].baz"),
        (
            path(vec![f("foo"), key(&[("a", json!("b")), ("c", json!(1)), ("d", json!(1.5)), ("e", json!(true))])]),
            r#".foo[a="b",c=1,d=1.5,e=true]"#,
        ),
        (
            path(vec![f("foo"), v(json!("b")), v(json!(5)), v(json!(false)), v(json!(3.14159))]),
            r#".foo[="b"][=5][=false][=3.14159]"#,
        ),
        (path(vec![f("spec")]), ".spec"),
        (
            path(vec![f("spec"), f("apps"), key(&[("name", json!("app-🚀"))]), f("container"), f("image")]),
            r#".spec.apps[name="app-🚀"].container.image"#,
        ),
        (
            path(vec![
                f("spec"),
                f("apps"),
                key(&[("name", json!("app-💻"))]),
                f("container"),
                f("ports"),
                key(&[("name", json!("port-🔑"))]),
                f("containerPort"),
            ]),
            r#".spec.apps[name="app-💻"].container.ports[name="port-🔑"].containerPort"#,
        ),
        (path(vec![f("spec"), f("field with space")]), ".spec.field with space"),
        (
            path(vec![f("spec"), f("apps"), v(json!("app with space")), f("container"), f("image")]),
            r#".spec.apps[="app with space"].container.image"#,
        ),
        (
            path(vec![f("spec"), f("apps"), v(json!("app with \"quotes\"")), f("container"), f("image")]),
            r#".spec.apps[="app with \"quotes\""].container.image"#,
        ),
        (
            path(vec![f("spec"), f("apps"), v(json!("app-with-unicøde")), f("container"), f("image")]),
            r#".spec.apps[="app-with-unicøde"].container.image"#,
        ),
    ];
    for (p, want) in cases {
        assert_eq!(p.to_string(), want);
    }
}

#[test]
fn key_numbers_from_fields_v1_print_as_go_float64() {
    // Go decodes fieldsV1 numbers as float64 and prints them with %v.
    let pe = parse_path_element(r#"k:{"port":1000000}"#).unwrap().unwrap();
    assert_eq!(pe.to_string(), "[port=1e+06]");
    assert_eq!(pe, key(&[("port", json!(1000000))]), "float64 and int keys are the same key");
}

#[test]
fn bad_managed_fields_entries_fail_with_apimachinery_messages() {
    let obj = |e: Value| json!({"metadata": {"managedFields": [e]}});
    let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1"})));
    assert_eq!(e.unwrap_err().to_string(), "operation must be `Apply` or `Update`");
    let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "fieldsType": "FieldsV1"})));
    assert_eq!(e.unwrap_err().to_string(), "apiVersion must not be empty");
    let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "apiVersion": "v1"})));
    assert_eq!(e.unwrap_err().to_string(), "missing fieldsType in managed fields entry 0");
    let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV2"})));
    assert_eq!(e.unwrap_err().to_string(), "invalid fieldsType \"FieldsV2\" in managed fields entry 0");
}

#[test]
fn manager_identifiers_are_go_json_without_time_and_without_api_version_for_appliers() {
    let entries = parse_managed_fields(&live_deployment()).unwrap();
    assert_eq!(entries[2].identifier(), r#"{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1","subresource":"scale"}"#);
    assert_eq!(applier_identifier("helm"), r#"{"manager":"helm","operation":"Apply"}"#);
}

// --- schema ---------------------------------------------------------------

#[test]
fn builtin_schema_uses_list_map_keys_not_patch_merge_keys() {
    let s = deployment_schema();
    let containers = FieldPath::fields(&["spec", "template", "spec", "containers"]);
    assert_eq!(s.list_type(&containers), ListType::Map(vec!["name".into()]));
    let ports = path(web_container()).child(f("ports"));
    assert_eq!(s.list_type(&ports), ListType::Map(vec!["containerPort".into(), "protocol".into()]));
    assert_eq!(s.key_default(&ports, "protocol"), Some(json!("TCP")));
    assert_eq!(s.list_type(&path(web_container()).child(f("args"))), ListType::Atomic);
    assert_eq!(s.list_type(&FieldPath::fields(&["metadata", "finalizers"])), ListType::Set);
    assert!(s.atomic_object(&FieldPath::fields(&["spec", "selector"])), "LabelSelector is structType=atomic");
    assert!(s.atomic_object(&FieldPath::fields(&["spec", "template", "spec", "nodeSelector"])));
    assert!(s.is_map(&FieldPath::fields(&["metadata", "labels"])));
    assert!(!s.is_map(&FieldPath::fields(&["spec", "template"])));
    let keys = builtin_list_map_keys("apps/v1", "Deployment");
    assert_eq!(keys(&containers), Some(vec!["name".to_owned()]));
    assert_eq!(keys(&FieldPath::fields(&["metadata", "finalizers"])), Some(vec![]));
    assert_eq!(builtin_list_map_keys("example.com/v1", "Widget")(&containers), None);
}

// --- apply body -----------------------------------------------------------

#[test]
fn apply_body_keeps_nulls_and_empty_values_and_sorts_keys_like_go() {
    let t = json!({"kind": "ConfigMap", "apiVersion": "v1", "data": {"b": "", "a": null}, "metadata": {"labels": {}, "name": "c"}, "x": []});
    let body = apply_body(&t);
    assert_eq!(body, t);
    assert_eq!(
        to_go_json(&body),
        r#"{"apiVersion":"v1","data":{"a":null,"b":""},"kind":"ConfigMap","metadata":{"labels":{},"name":"c"},"x":[]}"#
    );
}

// --- conflicts --------------------------------------------------------------

#[test]
fn changed_image_conflicts_with_kubectl_edit_and_changed_replicas_with_kubectl_scale() {
    let live = live_deployment();
    let c = preview_apply(Some(&live), &target(3, "web:2"), opts(false, true), &deployment_schema()).unwrap();
    let got: Vec<(String, String)> = c.conflicts.iter().map(|c| (c.manager_text(), c.path.to_string())).collect();
    assert_eq!(
        got,
        vec![
            (r#""kubectl" with subresource "scale" using apps/v1"#.to_owned(), ".spec.replicas".to_owned()),
            (
                r#""kubectl-edit" using apps/v1"#.to_owned(),
                r#".spec.template.spec.containers[name="web"].image"#.to_owned()
            ),
        ]
    );
}

#[test]
fn same_value_is_shared_ownership_not_a_conflict() {
    let live = live_deployment();
    let c = preview_apply(Some(&live), &target(5, "web:1-hotfix"), opts(false, true), &deployment_schema()).unwrap();
    assert_eq!(c.conflicts, vec![]);
}

#[test]
fn hpa_controller_owning_replicas_conflicts_with_a_chart_that_sets_them() {
    let mut live = live_deployment();
    live["metadata"]["managedFields"] = json!([
        {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
         "time": "2026-11-06T05:00:00Z", "fieldsType": "FieldsV1", "subresource": "scale",
         "fieldsV1": {"f:spec": {"f:replicas": {}}}}
    ]);
    let mut t = target(2, "web:1-hotfix");
    t["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = json!("TCP");
    let c = predict_conflicts(&live, &t, "helm", &builtin_list_map_keys("apps/v1", "Deployment")).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].path.to_string(), ".spec.replicas");
    assert_eq!(c[0].manager_text(), r#""kube-controller-manager" with subresource "scale" using apps/v1"#);
    assert_eq!(c[0].time.as_deref(), Some("2026-11-06T05:00:00Z"));
}

#[test]
fn omitted_protocol_key_defaults_to_tcp_and_matches_the_live_port() {
    let live = live_deployment();
    let mut t = target(5, "web:1-hotfix");
    t["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = json!(9090);
    let c = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
    assert_eq!(c.conflicts, vec![], "a new port item is owned by nobody");
    // The closure form knows no defaults: the item has no key, which the
    // server would refuse; callers use the builtin schema for defaults.
    let e = predict_conflicts(&live, &t, "helm", &builtin_list_map_keys("apps/v1", "Deployment"));
    assert!(matches!(e, Err(SsaError::MissingListKey { .. })));
}

#[test]
fn set_items_conflict_only_by_presence() {
    let mut live = live_deployment();
    live["metadata"]["managedFields"] = json!([
        {"manager": "finalizer-bot", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:metadata": {"f:finalizers": {".": {}, "v:\"example.com/protect\"": {}}}}}
    ]);
    let mut t = target(5, "web:1-hotfix");
    t["metadata"]["finalizers"] = json!(["example.com/protect", "example.com/other"]);
    let c = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
    assert_eq!(c.conflicts, vec![], "the shared finalizer is unchanged, the new one unowned");
}

#[test]
fn without_the_csa_move_helms_own_update_entry_conflicts_with_helm() {
    let live = live_deployment();
    let mut t = target(5, "web:1-hotfix");
    t["metadata"]["labels"]["app"] = json!("shop-web");
    t["spec"]["template"]["metadata"]["labels"]["app"] = json!("shop-web");
    let c = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
    let got: Vec<String> = c.conflicts.iter().map(|c| format!("{} {}", c.manager_text(), c.path)).collect();
    assert_eq!(
        got,
        vec![
            r#""helm" using apps/v1 .metadata.labels.app"#,
            r#""helm" using apps/v1 .spec.template.metadata.labels.app"#
        ]
    );
    let c = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
    assert_eq!(c.conflicts, vec![], "after the move these fields belong to helm's Apply entry");
}

#[test]
fn csa_move_turns_helms_update_entry_into_its_apply_entry() {
    let entries = parse_managed_fields(&live_deployment()).unwrap();
    let moved = upgrade_client_side_managers(&entries, "helm", "helm");
    assert_eq!(moved.len(), entries.len());
    assert_eq!(moved[0].operation, Operation::Apply);
    assert_eq!(moved[0].manager, "helm");
    assert_eq!(moved[0].fields, entries[0].fields);
    assert_eq!(moved[0].identifier(), r#"{"manager":"helm","operation":"Apply"}"#);
    assert_eq!(&moved[1..], &entries[1..]);
}

#[test]
fn csa_move_unions_same_version_update_into_existing_apply_and_drops_all_helm_updates() {
    let obj = json!({"metadata": {"managedFields": [
        {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:replicas": {}}}},
        {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:paused": {}}}},
        {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1beta2", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:minReadySeconds": {}}}},
        {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "subresource": "status", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:status": {"f:x": {}}}}
    ]}});
    let moved = upgrade_client_side_managers(&parse_managed_fields(&obj).unwrap(), "helm", "helm");
    assert_eq!(moved.len(), 2);
    assert_eq!(
        moved[0].fields,
        FieldSet::from([FieldPath::fields(&["spec", "paused"]), FieldPath::fields(&["spec", "replicas"])]),
        "the other version's fields are forgotten"
    );
    assert_eq!(moved[1].subresource, "status");
}

#[test]
fn force_reports_the_same_conflicts_as_take_overs() {
    let live = live_deployment();
    let p = preview_apply(Some(&live), &target(3, "web:2"), opts(true, true), &deployment_schema()).unwrap();
    assert!(p.force);
    assert_eq!(
        takeover_lines(&p.conflicts),
        vec![
            r#"would take over .spec.replicas from "kubectl" with subresource "scale" using apps/v1"#,
            r#"would take over .spec.template.spec.containers[name="web"].image from "kubectl-edit" using apps/v1"#,
        ]
    );
}

#[test]
fn status_in_the_body_is_ignored_like_the_servers_reset_fields() {
    let live = live_deployment();
    let mut t = target(5, "web:1-hotfix");
    t["status"] = json!({"replicas": 1});
    let p = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
    assert_eq!(p.conflicts, vec![], "kube-controller-manager's status is not touched by a main-resource apply");
}

#[test]
fn creating_an_object_never_conflicts() {
    let p = preview_apply(None, &target(3, "web:2"), opts(false, false), &deployment_schema()).unwrap();
    assert_eq!((p.conflicts.len(), p.removals.len()), (0, 0));
}

// --- removals ---------------------------------------------------------------

#[test]
fn fields_helm_applied_before_and_no_longer_sets_are_removed_unless_someone_else_owns_them() {
    let mut live = live_deployment();
    live["metadata"]["labels"]["tier"] = json!("front");
    live["metadata"]["labels"]["team"] = json!("a");
    live["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "sidecar", "image": "proxy:1"}));
    live["metadata"]["managedFields"] = json!([
        {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {
            "f:metadata": {"f:labels": {"f:app": {}, "f:tier": {}, "f:team": {}}},
            "f:spec": {"f:template": {"f:spec": {"f:containers": {
                "k:{\"name\":\"web\"}": {".": {}, "f:name": {}, "f:image": {}},
                "k:{\"name\":\"sidecar\"}": {".": {}, "f:name": {}, "f:image": {}}
            }}}}
         }},
        {"manager": "labeler", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}}}
    ]);
    let p = preview_apply(Some(&live), &target(5, "web:1-hotfix"), opts(false, false), &deployment_schema()).unwrap();
    let got: Vec<String> = p.removals.iter().map(ToString::to_string).collect();
    assert_eq!(got, vec![".metadata.labels.tier", r#".spec.template.spec.containers[name="sidecar"]"#]);
}

// --- messages ---------------------------------------------------------------

/// apimachinery `internal/conflict_test.go` `TestNewConflictError`.
#[test]
fn server_messages_match_apimachinery_conflict_tests() {
    let foo = r#"{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#;
    let bar = r#"{"manager":"bar","operation":"Apply"}"#;
    let scale = r#"{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#;
    let replicas = FieldPath::fields(&["spec", "replicas"]);
    let cases: Vec<(Vec<(String, FieldPath)>, &str)> = vec![
        (
            vec![(foo.into(), replicas.clone())],
            r#"Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#,
        ),
        (
            vec![(foo.into(), replicas.clone()), (bar.into(), FieldPath::fields(&["metadata", "labels", "app"]))],
            "Apply failed with 2 conflicts: conflicts with \"bar\":\n- .metadata.labels.app\nconflicts with \"foo\" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas",
        ),
        (
            vec![(scale.into(), replicas.clone())],
            r#"Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#,
        ),
    ];
    for (conflicts, want) in cases {
        assert_eq!(server_conflict_message(&conflicts), want);
    }
    assert_eq!(print_manager(r#"{"manager":"foo","operation":"Update","apiVersion":"v1"}"#), r#""foo" using v1"#);
    assert_eq!(print_manager("not json"), r#""not json""#);
}

#[test]
fn helm_message_for_one_conflict() {
    let live = live_deployment();
    let p = preview_apply(Some(&live), &target(5, "web:2"), opts(false, true), &deployment_schema()).unwrap();
    assert_eq!(
        conflict_message("shop", "web", "apps/v1", "Deployment", &p.conflicts),
        "conflict occurred while applying object shop/web apps/v1, Kind=Deployment: Apply failed with 1 conflict: \
         conflict with \"kubectl-edit\" using apps/v1: .spec.template.spec.containers[name=\"web\"].image"
    );
}

#[test]
fn helm_message_for_several_conflicts_groups_by_sorted_manager_identity() {
    let mut live = live_deployment();
    live["metadata"]["managedFields"]
        .as_array_mut()
        .unwrap()
        .push(json!({"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
                     "subresource": "status", "fieldsV1": {"f:status": {}}}));
    let mut t = target(3, "web:2");
    t["metadata"]["labels"]["app"] = json!("shop-web");
    let p = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
    assert_eq!(
        conflict_message("shop", "web", "apps/v1", "Deployment", &p.conflicts),
        "conflict occurred while applying object shop/web apps/v1, Kind=Deployment: Apply failed with 3 conflicts: \
         conflicts with \"helm\" using apps/v1:\n\
         - .metadata.labels.app\n\
         conflicts with \"kubectl\" with subresource \"scale\" using apps/v1:\n\
         - .spec.replicas\n\
         conflicts with \"kubectl-edit\" using apps/v1:\n\
         - .spec.template.spec.containers[name=\"web\"].image"
    );
}

#[test]
fn core_kinds_print_an_empty_group() {
    let c = Conflict {
        manager: "kubectl-edit".into(),
        operation: Operation::Update,
        subresource: String::new(),
        api_version: "v1".into(),
        time: Some("2026-11-04T07:00:00Z".into()),
        path: FieldPath::fields(&["data", "key"]),
    };
    assert_eq!(
        conflict_message("default", "cfg", "v1", "ConfigMap", &[c]),
        "conflict occurred while applying object default/cfg /v1, Kind=ConfigMap: Apply failed with 1 conflict: \
         conflict with \"kubectl-edit\" using v1: .data.key"
    );
}

#[test]
fn one_managers_paths_list_members_of_a_level_before_deeper_paths() {
    let mut paths = [
        FieldPath::fields(&["spec", "template", "spec", "x"]),
        FieldPath::fields(&["spec", "zzz"]),
        FieldPath::fields(&["metadata", "labels", "app"]),
        FieldPath::fields(&["spec", "aaa"]),
    ];
    paths.sort_by(set_order);
    let strs: Vec<String> = paths.iter().map(ToString::to_string).collect();
    assert_eq!(strs, vec![".metadata.labels.app", ".spec.aaa", ".spec.zzz", ".spec.template.spec.x"]);
}
