//! `render::helm_template` through the test `helm` (tests/helm_shim/helm,
//! real Helm 4.2.3 through the oracle's SDK) on tests/data/render/app, read
//! back with `render::parse_manifest`. Fails, not skips, without the oracle's
//! virtualenv (tests/oracle/setup.sh).

use std::path::{Path, PathBuf};

use releasex::render::{
    self, HelmOutcome, HookDeletePolicy, HookEvent, RenderError, Rendered, TemplateRequest, WarningKind,
};
use serde_json::json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chart(name: &str) -> PathBuf {
    root().join("tests/data/render").join(name)
}

/// A `helm` that records its arguments in `args` next to it, then runs the shim.
struct RecordingHelm {
    dir: tempfile::TempDir,
}

impl RecordingHelm {
    fn new() -> Self {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("helm");
        let shim = root().join("tests/helm_shim/helm");
        std::fs::write(
            &bin,
            format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nexec '{}' \"$@\"\n", dir.path().join("args").display(), shim.display()),
        )
        .unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        RecordingHelm { dir }
    }

    fn bin(&self) -> PathBuf {
        self.dir.path().join("helm")
    }

    fn args(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("args")).unwrap().lines().map(str::to_string).collect()
    }

    /// The values file Helm was given; it must be gone once helm_template returned.
    fn values_file(&self) -> PathBuf {
        let args = self.args();
        let i = args.iter().position(|a| a == "-f").expect("-f passed");
        PathBuf::from(&args[i + 1])
    }
}

fn request(helm: &Path, chart_name: &str) -> TemplateRequest {
    TemplateRequest {
        helm_bin: helm.to_path_buf(),
        release: "rel".into(),
        chart: chart(chart_name),
        namespace: "prod".into(),
        values: json!({"replicas": 5}),
        kube_version: None,
        api_versions: vec![],
        is_upgrade: false,
        server_dry_run: false,
        kube_context: None,
        kubeconfig: None,
        set_values: Vec::new(),
        options: Default::default(),
    }
}

fn caps(r: &Rendered) -> serde_json::Value {
    r.objects.iter().find(|o| o.name == "rel-app-caps").expect("caps ConfigMap").value["data"].clone()
}

fn kinds(r: &Rendered) -> Vec<String> {
    r.objects.iter().map(|o| format!("{}/{}", o.kind, o.name)).collect()
}

#[test]
fn capability_flags_reach_helm_and_the_model_follows_helms_order() {
    let helm = RecordingHelm::new();
    let req = TemplateRequest {
        kube_version: Some("v1.29.4".into()),
        api_versions: render::api_version_flags(&[("monitoring.coreos.com/v1".into(), vec!["ServiceMonitor".into()])]),
        ..request(&helm.bin(), "app")
    };
    let text = render::helm_template(&req).unwrap();
    let args = helm.args();
    assert!(args.windows(2).any(|w| w == ["--kube-version", "v1.29.4"]), "{args:?}");
    assert!(args.windows(2).any(|w| w == ["--api-versions", "monitoring.coreos.com/v1/ServiceMonitor"]), "{args:?}");
    assert!(!helm.values_file().exists(), "the temporary values file is removed");

    let r = render::parse_manifest(&text);
    assert_eq!(
        caps(&r),
        json!({"kubeVersion": "v1.29.4", "kubeMinor": "29", "hasServiceMonitor": "true", "hasAppsV1": "true",
               "isUpgrade": "false", "isInstall": "true", "revision": "1"})
    );
    // InstallOrder, then unknown kinds by name; same-kind documents by template path.
    assert_eq!(
        kinds(&r),
        ["Secret/rel-app-db", "ConfigMap/rel-sub", "ConfigMap/rel-app-caps", "Service/rel-app", "Deployment/rel-app", "ServiceMonitor/rel-app"]
    );
    let deploy = &r.objects[4];
    assert_eq!(deploy.source, "app/templates/deployment.yaml");
    assert_eq!(deploy.value["spec"]["replicas"], json!(5), "the values file reached Helm; integers stay integers");
    assert!(deploy.value["spec"]["replicas"].is_i64());
    assert_eq!((deploy.namespace.as_deref(), r.objects[3].namespace.as_deref()), (None, Some("fixed-ns")));
}

#[test]
fn without_capability_flags_helm_uses_its_defaults() {
    let helm = RecordingHelm::new();
    let r = render::parse_manifest(&render::helm_template(&request(&helm.bin(), "app")).unwrap());
    let c = caps(&r);
    assert_eq!((c["kubeVersion"].as_str(), c["hasServiceMonitor"].as_str()), (Some("v1.36.0"), Some("false")));
    assert!(r.objects.iter().all(|o| o.kind != "ServiceMonitor"), "the template guarded by APIVersions.Has renders nothing");
    assert!(!helm.args().iter().any(|a| a.starts_with("--kube-version") || a.starts_with("--api-versions") || a == "--is-upgrade"));
}

#[test]
fn is_upgrade_sets_release_is_upgrade_and_keeps_revision_one() {
    let helm = RecordingHelm::new();
    let req = TemplateRequest { is_upgrade: true, ..request(&helm.bin(), "app") };
    let r = render::parse_manifest(&render::helm_template(&req).unwrap());
    let c = caps(&r);
    assert_eq!((c["isUpgrade"].as_str(), c["isInstall"].as_str(), c["revision"].as_str()), (Some("true"), Some("false"), Some("1")));
    assert!(helm.args().contains(&"--is-upgrade".to_string()));
}

#[test]
fn hooks_and_odd_documents_are_classified_as_helm_left_them() {
    let helm = RecordingHelm::new();
    let r = render::parse_manifest(&render::helm_template(&request(&helm.bin(), "app")).unwrap());
    assert_eq!(r.hooks.len(), 1, "Helm drops the crd-install document itself: {:?}", r.hooks);
    let h = &r.hooks[0];
    assert_eq!((h.object.kind.as_str(), h.object.name.as_str(), h.object.source.as_str()), ("Job", "rel-app-migrate", "app/templates/hooks.yaml"));
    assert_eq!(h.events, [HookEvent::PreUpgrade, HookEvent::PreInstall]);
    assert_eq!(h.weight, -5);
    assert_eq!(h.delete_policies, [HookDeletePolicy::BeforeHookCreation, HookDeletePolicy::HookSucceeded]);
    assert!(!kinds(&r).iter().any(|k| k.contains("legacy-hook")));

    // helm template prints the comment-only document and the one without a kind.
    let w: Vec<(&str, usize, &WarningKind, HelmOutcome)> =
        r.warnings.iter().map(|w| (w.template.as_str(), w.index, &w.kind, w.kind.helm_outcome())).collect();
    assert_eq!(
        w,
        [
            ("app/templates/odd.yaml", 0, &WarningKind::EmptyDocument, HelmOutcome::Ignored),
            (
                "app/templates/odd.yaml",
                1,
                &WarningKind::MissingApiVersionOrKind { missing: vec!["apiVersion", "kind"] },
                HelmOutcome::UpgradeFails
            ),
        ]
    );
}

#[test]
fn crds_and_template_scans_of_the_loaded_chart() {
    let c = releasex::chart::load(&chart("app")).unwrap();
    let crds = render::crds(&c);
    let got: Vec<(&str, &str)> = crds.objects.iter().map(|o| (o.source.as_str(), o.name.as_str())).collect();
    assert_eq!(got, [("app/crds/widgets.yaml", "widgets.example.com"), ("app/charts/sub/crds/gadgets.yml", "gadgets.example.com")]);
    assert!(crds.warnings.is_empty());

    assert_eq!(render::uses_release_revision(&c), ["app/templates/caps.yaml"]);
    let l = render::lookup_calls(&c);
    assert_eq!(l.len(), 1);
    let l = &l[0];
    assert_eq!((l.template.as_str(), l.line), ("app/templates/secret.yaml", 1));
    assert_eq!((l.api_version.as_deref(), l.kind.as_deref()), (Some("v1"), Some("Secret")));
    assert_eq!((l.field.as_deref(), l.key.as_deref(), l.generator.as_deref()), (Some("data.password"), Some("password"), Some("randAlphaNum")));
}

#[test]
fn helm_failure_carries_helms_error_and_still_removes_the_values_file() {
    let helm = RecordingHelm::new();
    let err = render::helm_template(&request(&helm.bin(), "broken")).unwrap_err();
    let RenderError::Helm { status, stderr } = &err else { panic!("{err:?}") };
    assert_eq!(*status, Some(1));
    assert!(stderr.contains("Error: YAML parse error on broken/templates/bad.yaml:"), "{stderr}");
    assert!(!helm.values_file().exists());
}

#[test]
fn an_invalid_kube_version_is_helms_error() {
    let helm = RecordingHelm::new();
    let req = TemplateRequest { kube_version: Some("garbage".into()), ..request(&helm.bin(), "app") };
    let Err(RenderError::Helm { stderr, .. }) = render::helm_template(&req) else { panic!("expected Helm's failure") };
    assert!(stderr.contains("invalid kube version 'garbage': could not parse \"garbage\" as version"), "{stderr}");
}

#[test]
fn the_shim_refuses_flags_it_cannot_honour() {
    let helm = RecordingHelm::new();
    let req = TemplateRequest { server_dry_run: true, ..request(&helm.bin(), "app") };
    let Err(RenderError::Helm { status, stderr }) = render::helm_template(&req) else { panic!("expected a failure") };
    assert_eq!(status, Some(3));
    assert!(stderr.contains("--dry-run=server needs a cluster"), "{stderr}");
}

#[test]
fn helm_version_answers() {
    let out = std::process::Command::new(root().join("tests/helm_shim/helm")).args(["version", "--short"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("v4."));
}
