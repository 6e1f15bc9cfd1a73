//! `template`: releasex's own renderer against `helm template` of real
//! Helm 4.2.3 (tests/helm_shim/helm, on the oracle), and against the real
//! Helm v4.1.4 binary for the output options the shim does not take.

use std::path::Path;

use crate::support::{real_helm, releasex, run};

const CHARTS: &[&str] = &[
    "tests/oracle/charts/crd-hook",
    "tests/oracle/charts/dup-object",
    "tests/oracle/charts/parent",
    "tests/oracle/charts/parent-v2",
    "tests/oracle/charts/web",
    "tests/fixtures/charts/parent",
    "tests/fixtures/charts/secret-hook",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ours(args: &[&str]) -> crate::support::Run {
    let r = run(releasex().current_dir(root()).arg("template").args(args));
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    r
}

fn helm_4_2(args: &[&str]) -> crate::support::Run {
    run(assert_cmd::Command::new(root().join("tests/helm_shim/helm")).current_dir(root()).arg("template").args(args))
}

#[test]
fn the_bundled_charts_render_byte_for_byte_as_helm_4_2_templates_them() {
    let variants: &[&[&str]] = &[
        &[],
        &["-n", "prod", "--kube-version", "1.29.3"],
        &["--is-upgrade", "--set", "replicaCount=5"],
        &["--api-versions", "example.io/v1,monitoring.coreos.com/v1", "--set-string", "image.tag=007"],
    ];
    let mut compared = 0;
    for chart in CHARTS {
        for extra in variants {
            let mut args = vec!["rel", chart];
            args.extend_from_slice(extra);
            let (o, h) = (ours(&args), helm_4_2(&args));
            assert_eq!(h.code, 0, "helm {args:?}: {}", h.stderr);
            assert_eq!(o.code, 0, "ours {args:?}: {}", o.stderr);
            assert_eq!(o.stdout, h.stdout, "{args:?}");
            compared += 1;
        }
    }
    assert_eq!(compared, CHARTS.len() * variants.len());
}

/// Helm v4.1.4 keeps no blank line at the end of a template's last
/// document (4.2 does: pkg/release/v1/util/manifest.go, #31952).
fn without_blank_lines(s: &str) -> String {
    s.lines().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn show_only_include_crds_skip_tests_and_no_hooks_print_what_helm_prints() {
    let home = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &["rel", "tests/oracle/charts/crd-hook", "--include-crds"],
        &["rel", "tests/oracle/charts/crd-hook", "--no-hooks"],
        &["rel", "tests/oracle/charts/crd-hook", "--skip-tests"],
        &["rel", "tests/oracle/charts/parent", "--show-only", "templates/configmap.yaml"],
        &["rel", "tests/oracle/charts/parent", "-s", "charts/*/templates/*.yaml"],
        &["rel", "tests/fixtures/charts/secret-hook", "--skip-tests", "--include-crds"],
    ];
    for args in cases {
        let h = run(assert_cmd::Command::new(real_helm("helm4")).env("HOME", home.path()).current_dir(root()).arg("template").args(*args).args(["--kube-version", "1.30.0"]));
        let o = ours(&[args, &["--kube-version", "1.30.0"][..]].concat());
        assert_eq!(o.code, h.code, "{args:?}: {} / {}", o.stderr, h.stderr);
        assert_eq!(without_blank_lines(&o.stdout), without_blank_lines(&h.stdout), "{args:?}");
    }
}

#[test]
fn a_show_only_pattern_that_matches_nothing_is_helm_s_error() {
    let r = ours(&["rel", "tests/oracle/charts/web", "--show-only", "templates/nope.yaml"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("could not find template templates/nope.yaml in chart"), "{}", r.stderr);
}

#[test]
fn render_errors_are_worded_as_helm_words_them() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("c");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: c\nversion: 0.1.0\n").unwrap();
    std::fs::write(chart.join("templates/_h.tpl"), "{{- define \"h\" -}}{{ .Values.a.b }}{{- end -}}\n").unwrap();
    let cases = [
        "x: {{ include \"h\" . }}\n",
        "x: {{ required \"need x\" .Values.x }}\n",
        "x: {{ fail \"boom\" }}\n",
        "x: {{ if }}\n",
        "x: {{ nofunc 1 }}\n",
        "x: {{ tpl \"{{ .Values.a.b }}\" . }}\n",
    ];
    for text in cases {
        std::fs::write(chart.join("templates/a.yaml"), text).unwrap();
        let path = chart.display().to_string();
        let (o, h) = (ours(&["rel", &path]), helm_4_2(&["rel", &path]));
        assert_eq!((o.code, h.code), (1, 1), "{text}: {} / {}", o.stderr, h.stderr);
        let helm_message = h.stderr.trim().strip_prefix("Error: ").unwrap_or(h.stderr.trim()).to_string();
        assert!(o.stderr.contains(&helm_message), "{text}\nhelm: {helm_message}\nours: {}", o.stderr);
    }
}

#[test]
fn json_output_holds_each_template_s_text_and_the_manifest() {
    let r = run(releasex().current_dir(root()).args(["template", "rel", "tests/oracle/charts/parent", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(doc["templates"].as_object().unwrap().keys().all(|k| k.starts_with("parent/") && !k.contains("/_")), "{doc}");
    assert_eq!(doc["manifest"], serde_json::Value::String(ours(&["rel", "tests/oracle/charts/parent"]).stdout));
}
