use serde_json::json;

use super::*;

fn doc(source: &str, body: &str) -> String {
    format!("---\n# Source: {source}\n{body}\n")
}

fn names(r: &Rendered) -> Vec<String> {
    r.objects.iter().map(|o| format!("{}/{}", o.kind, o.name)).collect()
}

#[test]
fn objects_carry_source_type_name_namespace_and_integer_values() {
    let r = parse_manifest(&doc(
        "c/templates/d.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  replicas: 3\n  ratio: 1.5",
    ));
    assert!(r.warnings.is_empty() && r.hooks.is_empty());
    let o = &r.objects[0];
    assert_eq!(
        (o.source.as_str(), o.api_version.as_str(), o.kind.as_str(), o.name.as_str(), o.namespace.as_deref()),
        ("c/templates/d.yaml", "apps/v1", "Deployment", "web", Some("prod"))
    );
    assert!(o.value.pointer("/spec/replicas").is_some_and(|v| v.is_i64()), "integers stay integers");
    assert_eq!(o.value["spec"]["ratio"], json!(1.5));
}

#[test]
fn objects_follow_install_order_then_template_path_then_file_order() {
    // Helm sorts templates by path, keeps each file's documents in order,
    // then stable-sorts by kind.
    let text = [
        doc("c/templates/b.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: b-svc"),
        doc("c/templates/b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b-cm2"),
        doc("c/templates/a.yaml", "apiVersion: x.io/v1\nkind: Widget\nmetadata:\n  name: a-w"),
        doc("c/templates/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a-cm"),
        doc("c/templates/b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b-cm1"),
        doc("c/templates/a.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a-ns"),
        doc("c/templates/c.yaml", "apiVersion: x.io/v1\nkind: Gadget\nmetadata:\n  name: c-g"),
    ]
    .concat();
    let r = parse_manifest(&text);
    assert_eq!(
        names(&r),
        ["Namespace/a-ns", "ConfigMap/a-cm", "ConfigMap/b-cm2", "ConfigMap/b-cm1", "Service/b-svc", "Gadget/c-g", "Widget/a-w"]
    );
}

#[test]
fn reading_helm_sorted_output_back_keeps_its_order() {
    let text = [
        doc("c/templates/z.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z"),
        doc("c/templates/a.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a"),
    ]
    .concat();
    assert_eq!(names(&parse_manifest(&text)), ["ConfigMap/z", "Deployment/a"]);
}

#[test]
fn hooks_are_separated_with_events_weight_and_policies() {
    let text = [
        doc(
            "c/templates/job.yaml",
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    helm.sh/hook: pre-upgrade, Pre-Install\n    helm.sh/hook-weight: \"-5\"\n    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded\n    helm.sh/hook-output-log-policy: hook-failed",
        ),
        doc("c/templates/t.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n  annotations:\n    helm.sh/hook: test-success"),
        doc("c/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations:\n    other: x"),
    ]
    .concat();
    let r = parse_manifest(&text);
    assert_eq!(names(&r), ["ConfigMap/cm"], "annotations without helm.sh/hook are no hook");
    assert_eq!(r.hooks.len(), 2);
    // Hooks sort by kind too: Pod before Job.
    let (pod, job) = (&r.hooks[0], &r.hooks[1]);
    assert_eq!((pod.object.kind.as_str(), pod.events.as_slice(), pod.weight), ("Pod", &[HookEvent::Test][..], 0));
    assert!(pod.delete_policies.is_empty(), "Helm's default policy is applied only when it runs hooks");
    assert_eq!(job.events, [HookEvent::PreUpgrade, HookEvent::PreInstall]);
    assert_eq!(job.weight, -5);
    assert_eq!(job.delete_policies, [HookDeletePolicy::BeforeHookCreation, HookDeletePolicy::HookSucceeded]);
    assert_eq!(job.output_log_policies, ["hook-failed"]);
    assert_eq!(job.object.source, "c/templates/job.yaml");
}

#[test]
fn unknown_hook_event_drops_the_document_with_a_warning() {
    let text = [
        doc("c/templates/crd.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n  annotations:\n    helm.sh/hook: crd-install"),
        doc("c/templates/crd.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: empty\n  annotations:\n    helm.sh/hook: \"\""),
    ]
    .concat();
    let r = parse_manifest(&text);
    assert!(r.objects.is_empty() && r.hooks.is_empty());
    assert_eq!(r.warnings.len(), 2);
    assert_eq!(
        r.warnings[0],
        RenderWarning {
            template: "c/templates/crd.yaml".into(),
            index: 0,
            kind: WarningKind::UnknownHookEvent { value: "crd-install".into(), event: "crd-install".into() }
        }
    );
    assert_eq!(r.warnings[1].index, 1);
    assert!(r.warnings.iter().all(|w| w.kind.helm_outcome() == HelmOutcome::Dropped));
}

#[test]
fn each_unreadable_document_gets_the_warning_matching_what_helm_does() {
    let text = [
        doc("c/templates/a.yaml", "# only a comment"),
        doc("c/templates/b.yaml", "apiVersion: v1\nkind: [unclosed"),
        doc("c/templates/c.yaml", "- a\n- b"),
        doc("c/templates/d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n  annotations:\n    helm.sh/hook-weight: 5"),
        doc("c/templates/e.yaml", "metadata:\n  name: e"),
        doc("c/templates/f.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f"),
    ]
    .concat();
    let r = parse_manifest(&text);
    assert_eq!(names(&r), ["ConfigMap/f"]);
    let got: Vec<(&str, HelmOutcome)> = r.warnings.iter().map(|w| (w.template.as_str(), w.kind.helm_outcome())).collect();
    assert_eq!(
        got,
        [
            ("c/templates/a.yaml", HelmOutcome::Ignored),
            ("c/templates/b.yaml", HelmOutcome::RenderFails),
            ("c/templates/c.yaml", HelmOutcome::RenderFails),
            ("c/templates/d.yaml", HelmOutcome::RenderFails),
            ("c/templates/e.yaml", HelmOutcome::UpgradeFails),
        ]
    );
    assert_eq!(r.warnings[2].kind, WarningKind::NotAMapping { found: "list" });
    assert_eq!(
        r.warnings[3].kind,
        WarningKind::HeadFieldType { field: "metadata.annotations.helm.sh/hook-weight".into(), found: "number" }
    );
    assert_eq!(r.warnings[4].kind, WarningKind::MissingApiVersionOrKind { missing: vec!["apiVersion", "kind"] });
}

#[test]
fn documents_split_helms_lenient_way_and_count_per_template() {
    // `---apiVersion` is split by Helm's regex into a document of its own.
    let text = "---\n# Source: c/templates/x.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n---apiVersion: v1\nkind: Secret\nmetadata:\n  name: two\n";
    let r = parse_manifest(text);
    assert_eq!(names(&r), ["Secret/two", "ConfigMap/one"]);
    // The second document has no `# Source:` of its own.
    assert_eq!(r.objects[0].source, "");
}

#[test]
fn an_empty_text_is_an_empty_model() {
    assert_eq!(parse_manifest(""), Rendered::default());
    assert_eq!(parse_manifest("\n---\n \n"), Rendered::default());
}

#[test]
fn dashes_right_after_a_separator_make_an_empty_document_as_in_helm() {
    // Helm 4.2's split leaves "---\n" as a document of its own here.
    let r = parse_manifest("---\n\n---\n");
    assert!(r.objects.is_empty());
    assert_eq!(r.warnings, [RenderWarning { template: String::new(), index: 0, kind: WarningKind::EmptyDocument }]);
}

#[test]
fn ownership_adds_helms_label_and_annotations_and_keeps_the_rest() {
    let mut v = json!({"kind": "ConfigMap", "metadata": {"name": "x", "labels": {"a": "1", "app.kubernetes.io/managed-by": "helm"}, "annotations": {"b": "2"}}});
    add_ownership(&mut v, "rel", "ns");
    assert_eq!(v["metadata"]["labels"], json!({"a": "1", "app.kubernetes.io/managed-by": "Helm"}));
    assert_eq!(
        v["metadata"]["annotations"],
        json!({"b": "2", "meta.helm.sh/release-name": "rel", "meta.helm.sh/release-namespace": "ns"})
    );
}

#[test]
fn ownership_creates_missing_maps_and_replaces_unreadable_ones_like_unstructured() {
    let mut v = json!({"kind": "ConfigMap"});
    add_ownership(&mut v, "r", "n");
    assert_eq!(v["metadata"]["labels"], json!({"app.kubernetes.io/managed-by": "Helm"}));
    // A non-string label makes Helm's accessor read the map as empty.
    let mut v = json!({"metadata": {"labels": {"n": 1}, "annotations": null}});
    add_ownership(&mut v, "r", "n");
    assert_eq!(v["metadata"]["labels"], json!({"app.kubernetes.io/managed-by": "Helm"}));
    assert_eq!(v["metadata"]["annotations"]["meta.helm.sh/release-name"], "r");
    // metadata that is not a mapping: Helm's setter fails silently.
    let mut v = json!({"metadata": "x"});
    add_ownership(&mut v, "r", "n");
    assert_eq!(v, json!({"metadata": "x"}));
}

#[test]
fn default_namespace_fills_only_namespaced_objects_without_one() {
    let r = parse_manifest(&[
        doc("c/templates/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a"),
        doc("c/templates/b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: other"),
        doc("c/templates/c.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: \"\""),
    ]
    .concat());
    let mut objs = r.objects;
    for o in &mut objs {
        default_namespace(o, "rel-ns", true);
    }
    let got: Vec<(Option<&str>, &Value)> = objs.iter().map(|o| (o.namespace.as_deref(), &o.value["metadata"]["namespace"])).collect();
    assert_eq!(got, [(Some("rel-ns"), &json!("rel-ns")), (Some("other"), &json!("other")), (Some("rel-ns"), &json!("rel-ns"))]);

    let mut cluster = parse_manifest(&doc("c/templates/r.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r"))
        .objects
        .remove(0);
    default_namespace(&mut cluster, "rel-ns", false);
    assert_eq!(cluster.namespace, None);
    assert!(cluster.value["metadata"].get("namespace").is_none());
}

#[test]
fn crds_come_from_every_chart_in_helms_order_with_full_paths() {
    use crate::chart::{Chart, RawFile};
    let file = |name: &str, data: &str| RawFile { name: name.into(), data: std::sync::Arc::new(data.as_bytes().to_vec()) };
    let crd = |n: &str| format!("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {n}\n");
    let mut sub = test_chart("sub");
    sub.files = vec![file("crds/s.yaml", &crd("s.example.com")), file("crds/notes.txt", "not a CRD")];
    let mut top = test_chart("top");
    top.files = vec![file("crds/a.yaml", &format!("{}---\n{}", crd("a1.example.com"), crd("a2.example.com"))), file("crds/bad.yaml", "kind: [")];
    top.dependencies = vec![sub];
    let got: Crds = crds(&top);
    let list: Vec<(&str, &str)> = got.objects.iter().map(|o| (o.source.as_str(), o.name.as_str())).collect();
    assert_eq!(
        list,
        [("top/crds/a.yaml", "a1.example.com"), ("top/crds/a.yaml", "a2.example.com"), ("top/charts/sub/crds/s.yaml", "s.example.com")]
    );
    assert_eq!(got.warnings.len(), 1);
    assert_eq!(got.warnings[0].template, "top/crds/bad.yaml");
    let _: fn(&Chart) -> Crds = crds;
}

/// A chart with only a name, for tests of template and CRD collection.
pub(crate) fn test_chart(name: &str) -> crate::chart::Chart {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("Chart.yaml"), format!("apiVersion: v2\nname: {name}\nversion: 0.1.0\n")).expect("write");
    crate::chart::load(dir.path()).expect("load")
}

#[test]
fn template_scans_find_revision_and_lookups_in_subcharts_too() {
    use crate::chart::ChartFile;
    let mut sub = test_chart("sub");
    sub.templates = vec![ChartFile { name: "templates/s.yaml".into(), data: "rev: {{ .Release.Revision }}\n".into() }];
    let mut top = test_chart("top");
    top.templates = vec![
        ChartFile { name: "templates/_h.tpl".into(), data: "{{ define \"x\" }}{{ $.Release.Revision }}{{ end }}".into() },
        ChartFile { name: "templates/n.yaml".into(), data: "a: 1\n".into() },
        ChartFile { name: "templates/l.yaml".into(), data: "\n\n  pw: {{ (lookup \"v1\" \"Secret\" \"ns\" \"s\").data.pw | default (randAlpha 8) }}".into() },
    ];
    top.dependencies = vec![sub];
    assert_eq!(uses_release_revision(&top), ["top/templates/_h.tpl", "top/charts/sub/templates/s.yaml"]);
    let l = lookup_calls(&top);
    assert_eq!(l.len(), 1);
    assert_eq!((l[0].template.as_str(), l[0].line, l[0].key.as_deref()), ("top/templates/l.yaml", 3, Some("pw")));
}

#[test]
fn duplicate_keys_are_accepted_and_the_last_one_wins_as_in_helm() {
    // Helm's YAML reader (go-yaml v2, not strict) takes duplicate keys; `helm template` prints them.
    let r = parse_manifest(&doc("d/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata:\n  x: \"1\"\n  x: \"2\""));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!((r.objects[0].name.as_str(), &r.objects[0].value["data"]["x"]), ("b", &json!("2")));
}

#[test]
fn yaml_1_1_scalars_read_as_helms_go_yaml_reads_them() {
    let r = parse_manifest(&doc("d/templates/cm.yaml", "apiVersion: v1\nkind: X\nmetadata:\n  name: a\nspec:\n  flag: yes\n  mode: 0755\n  enabled: off"));
    assert_eq!(r.objects[0].value["spec"], json!({"flag": true, "mode": 493, "enabled": false}));
}
