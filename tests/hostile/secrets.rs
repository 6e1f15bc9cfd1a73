//! The secrets corpus: unique markers planted in every place a secret can
//! hide (Secret `data`/`stringData`, last-applied annotations stored and
//! live, a kind written with a JSON escape, `kind: List` items, hooks, werf
//! secret values copied by `export-values` and `import-values`, helmfile
//! secrets interpolated into strings and encoded by `toJson`/`toYaml`,
//! schema `pattern` errors, broken-YAML snippets, `patch`), run through
//! every command, view and output mode. Without `--show-secrets` no marker
//! may appear on stdout or stderr, in plain text, base64 or base64 twice;
//! with it, the markers do appear (so the check can fail).

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

use crate::fixture_api::FixtureApi;
use crate::support::{Limits, Outcome, run};

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

fn marker(n: u32) -> String {
    format!("SECRETMARKER-{n:02}-q7")
}

/// Fails when any marker of `0..100` shows on stdout or stderr, plain, in
/// base64 or in base64 twice.
fn assert_no_marker(what: &str, o: &Outcome) {
    for (stream, text) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        assert!(!text.contains("SECRETMARKER"), "{what}: a secret on {stream}:\n{text}");
        for n in 0..100 {
            let m = marker(n);
            for form in [b64(&m), b64(&b64(&m))] {
                assert!(!text.contains(&form), "{what}: marker {n} in base64 on {stream}:\n{text}");
            }
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// A Secret with a last-applied annotation when the kind is written plainly
/// (the escaped kind's document must not name the kind anywhere else).
fn secret_doc(name: &str, kind: &str, last_applied: u32, data: u32, string_data: u32) -> String {
    let applied = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}, "stringData": {"token": marker(last_applied)}});
    let annotations = if kind == "Secret" { format!("  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{applied}'\n") } else { String::new() };
    format!(
        "apiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name}\n{annotations}data:\n  password: {}\nstringData:\n  token: {}\n",
        b64(&marker(data)),
        marker(string_data)
    )
}

/// A manifest with a Secret (data, stringData, last-applied annotation), a
/// Secret whose kind is written `"Secr\u0065t"`, a List holding a Secret,
/// `corpus-gone` (missing from the cluster: created again, diffed against
/// the release) and, when `with_deleted`, `corpus-deleted` (the upgrade
/// deletes it). Markers `first..first + 13`.
fn manifest(first: u32, with_deleted: bool) -> String {
    let listed = json!({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "corpus-listed"}, "stringData": {"token": marker(first + 6)}}]});
    let mut out = format!(
        "---\n# Source: corpus/templates/secret.yaml\n{}---\n# Source: corpus/templates/escaped.yaml\n{}---\n# Source: corpus/templates/list.yaml\n{listed}\n---\n# Source: corpus/templates/gone.yaml\n{}",
        secret_doc("corpus-secret", "Secret", first, first + 1, first + 2),
        secret_doc("corpus-escaped", "\"Secr\\u0065t\"", first + 3, first + 4, first + 5),
        secret_doc("corpus-gone", "Secret", first + 7, first + 8, first + 9),
    );
    if with_deleted {
        out.push_str(&format!("---\n# Source: corpus/templates/deleted.yaml\n{}", secret_doc("corpus-deleted", "Secret", first + 10, first + 11, first + 12)));
    }
    out
}

fn hook(n: u32) -> Value {
    json!({"name": "corpus-hook", "kind": "Secret", "path": "corpus/templates/hook.yaml",
           "manifest": format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: corpus-hook\n  annotations:\n    helm.sh/hook: pre-upgrade\nstringData:\n  token: {}\n", marker(n)),
           "events": ["pre-upgrade"], "last_run": {"started_at": "", "completed_at": "", "phase": ""}})
}

/// The stored release (revision 1 of `corpus` in namespace `corpus`) as a bare Helm payload.
fn record() -> String {
    let chart = json!({"metadata": {"name": "corpus", "version": "1.0.0", "apiVersion": "v2"}, "templates": [], "values": {}, "files": []});
    let release = json!({"name": "corpus", "namespace": "corpus", "version": 1,
        "info": {"first_deployed": "2026-11-29T12:00:00Z", "last_deployed": "2026-11-29T12:00:00Z", "deleted": "", "description": "Install complete", "status": "deployed", "notes": "corpus"},
        "chart": chart, "config": {}, "manifest": manifest(1, true), "hooks": [hook(15)]});
    releasex::release::codec::encode_payload(release.to_string().as_bytes())
}

/// The live objects: the stored ones with other values (drift) and their own last-applied annotations.
fn live_objects() -> Vec<Value> {
    let docs: Vec<Value> = releasex::manifest::split(&manifest(20, true)).into_iter().flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap()).collect();
    let mut out = Vec::new();
    for d in docs {
        let items = if d["kind"] == "List" { d["items"].as_array().unwrap().clone() } else { vec![d] };
        for mut o in items.into_iter().filter(|o| o["metadata"]["name"] != "corpus-gone") {
            releasex::upgrade::add_ownership(&mut o, "corpus", "corpus");
            // The API server stores stringData as data.
            if let Some(Value::Object(sd)) = o.as_object_mut().unwrap().remove("stringData") {
                for (k, v) in sd {
                    o["data"][k] = json!(b64(v.as_str().unwrap()));
                }
            }
            out.push(crate::fixture_api::as_served(o, "corpus", out.len() + 1));
        }
    }
    out
}

struct Corpus {
    dir: tempfile::TempDir,
    record: PathBuf,
    new_manifest: PathBuf,
    chart: PathBuf,
}

fn corpus() -> Corpus {
    let dir = tempfile::tempdir().unwrap();
    let record = write(dir.path(), "corpus.payload", &record());
    let new_manifest = write(dir.path(), "new.yaml", &format!("{}---\n# Source: corpus/templates/hook.yaml\n{}", manifest(40, false), hook(55)["manifest"].as_str().unwrap()));
    let chart = dir.path().join("chart");
    write(&chart, "Chart.yaml", "apiVersion: v2\nname: corpus\nversion: 2.0.0\n");
    write(&chart, "values.yaml", "replicas: 1\n");
    Corpus { dir, record, new_manifest, chart }
}

const OUTPUTS: [&str; 3] = ["text", "json", "yaml"];

fn check(args: &[&str], env: &[(&str, &str)]) -> Outcome {
    let o = run(args, env, None, Limits::DEFAULT);
    o.assert_within(Limits::DEFAULT);
    assert_no_marker(&args.join(" "), &o);
    o
}

#[test]
fn release_views_never_show_a_secret_unless_asked() {
    let c = corpus();
    let record = c.record.to_str().unwrap();
    for view in ["summary", "values", "all-values", "manifest", "hooks", "notes", "chart", "record", "size"] {
        for output in OUTPUTS {
            let o = check(&["release", "decode", "-f", record, "--show", view, "-o", output], &[]);
            assert_eq!(o.code, Some(0), "{view} -o {output}: {}", o.stderr);
        }
    }
    for output in OUTPUTS {
        check(&["release", "history", "-f", record, "-o", output], &[]);
    }
    // Asked, they show: the check above could fail.
    for (view, n) in [("manifest", 6), ("manifest", 7), ("hooks", 15), ("record", 1)] {
        let o = run(&["release", "decode", "-f", record, "--show", view, "--show-secrets"], &[], None, Limits::DEFAULT);
        assert!(o.stdout.contains(&marker(n)), "--show {view} --show-secrets lacks marker {n}:\n{}", o.stdout);
    }
}

#[test]
fn upgrade_preview_masks_secrets_in_drift_diffs_patches_and_every_output() {
    let c = corpus();
    let api = FixtureApi::start(live_objects());
    let kubeconfig = api.write_kubeconfig(c.dir.path(), "corpus");
    let env = [("KUBECONFIG", kubeconfig.to_str().unwrap())];
    let (record, manifest, chart) = (c.record.to_str().unwrap(), c.new_manifest.to_str().unwrap(), c.chart.to_str().unwrap());
    let base = ["upgrade-preview", "corpus", chart, "--release-file", record, "--manifest", manifest, "--show-unchanged"];
    for server_side in ["false", "true"] {
        for output in ["text", "json", "yaml", "markdown"] {
            for extra in [&[][..], &["--show-values", "--show-patch"][..]] {
                let mut args = base.to_vec();
                args.extend(["--server-side", server_side, "-o", output]);
                args.extend(extra);
                let o = check(&args, &env);
                assert_eq!(o.code, Some(0), "{}: {}", args.join(" "), o.stderr);
            }
        }
    }
    for extra in [&["--values-only"][..], &["--compare-modes"][..], &["--suppress-secrets"][..], &["--diff-context", "1000"][..]] {
        let mut args = base.to_vec();
        args.extend(extra);
        check(&args, &env);
    }
    for output in OUTPUTS {
        check(&["values", "explain", "--release-file", record, "-o", output], &[]);
    }
    // The drift of the last-applied annotation is there, masked.
    let mut args = base.to_vec();
    args.extend(["--server-side", "false", "-o", "json"]);
    let doc: Value = serde_json::from_str(&check(&args, &env).stdout).unwrap();
    let drift: Vec<&Value> = doc["objects"].as_array().unwrap().iter().flat_map(|o| o["drift"].as_array().into_iter().flatten()).collect();
    assert!(drift.iter().any(|d| d["path"].as_str().unwrap_or("").contains("last-applied-configuration")), "no drift of the annotation: {drift:?}");
    args.push("--show-secrets");
    let shown = run(&args, &env, None, Limits::DEFAULT);
    for n in [1, 20, 40, 42, 45, 46] {
        assert!(shown.stdout.contains(&marker(n)), "--show-secrets lacks marker {n}:\n{}", shown.stdout);
    }
    api.assert_read_only();
}

#[test]
fn broken_yaml_snippets_hide_a_secrets_lines_but_keep_the_position() {
    let c = corpus();
    let broken = write(c.dir.path(), "broken.yaml", &format!("apiVersion: v1\nkind: \"Secr\\u0065t\"\nmetadata:\n  name: corpus-secret\nstringData:\n  token: {}\n  other: {}\n  bad: [unclosed\n  more: {}\n", marker(60), marker(61), marker(62)));
    let good = write(c.dir.path(), "good.yaml", &secret_doc("corpus-secret", "Secret", 63, 64, 65));
    let (broken, good, record, chart) = (broken.to_str().unwrap(), good.to_str().unwrap(), c.record.to_str().unwrap(), c.chart.to_str().unwrap());
    let api = FixtureApi::start(live_objects());
    let kubeconfig = api.write_kubeconfig(c.dir.path(), "corpus");
    for args in [
        vec!["patch", broken, good, good],
        vec!["patch", good, good, broken, "-o", "text"],
        vec!["release", "decode", "-f", broken, "--show", "manifest"],
        vec!["upgrade-preview", "corpus", chart, "--release-file", record, "--manifest", broken, "--kubeconfig", kubeconfig.to_str().unwrap()],
    ] {
        let o = check(&args, &[]);
        // upgrade-preview: 3, "helm upgrade would fail".
        assert!(matches!(o.code, Some(1 | 3)), "{}: {o:#?}", args.join(" "));
        assert!(o.stderr.contains("9:7") || o.stderr.contains("line 9"), "{}: the position is gone:\n{}", args.join(" "), o.stderr);
    }
}

#[test]
fn patch_masks_secret_data_in_its_views_and_on_request_in_the_raw_body() {
    let c = corpus();
    let original = write(c.dir.path(), "original.yaml", &secret_doc("s", "Secret", 70, 71, 72));
    let modified = write(c.dir.path(), "modified.yaml", &secret_doc("s", "Secret", 73, 74, 75));
    let current = write(c.dir.path(), "current.yaml", &secret_doc("s", "\"Secr\\u0065t\"", 76, 77, 78));
    let files = [original.to_str().unwrap(), modified.to_str().unwrap(), current.to_str().unwrap()];
    for extra in [&["-o", "text"][..], &["-o", "json"][..], &["-o", "yaml"][..], &["--mask-secrets"][..]] {
        let mut args = vec!["patch"];
        args.extend(files);
        args.extend(extra);
        let o = check(&args, &[]);
        assert_eq!(o.code, Some(0), "{}: {}", args.join(" "), o.stderr);
    }
    // The raw request body stays exact unless masking is asked for; the views can be unmasked.
    for extra in [&[][..], &["-o", "json", "--mask-secrets=false"][..]] {
        let mut args = vec!["patch"];
        args.extend(files);
        args.extend(extra);
        let o = run(&args, &[], None, Limits::DEFAULT);
        assert!(o.stdout.contains(&marker(75)), "{}: {}", args.join(" "), o.stdout);
    }
}

const WERF_KEY: &str = "bc3458408a5687e60b9417adb84e4ad0";

fn encrypt(plain: &str) -> String {
    let key = releasex::werf::secret::Key::from_hex(WERF_KEY).unwrap();
    releasex::werf::secret::encrypt_cbc(&key, [7; 16], plain)
}

/// A werf project: the top chart's secret values exported to `db`, `db`'s
/// secret values imported back into the top chart.
fn werf_project(dir: &Path, schema: bool) -> PathBuf {
    let root = dir.join(if schema { "werf-schema" } else { "werf" });
    write(&root, "werf.yaml", "project: corpus\nconfigVersion: 1\n");
    write(&root, ".helm/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: db\n    version: 0.1.0\n    export-values:\n      - parent: dbSecrets\n        child: fromParent\n    import-values:\n      - child: exports.shared\n        parent: imported\n");
    write(&root, ".helm/values.yaml", "plain: visible\n");
    write(&root, ".helm/secret-values.yaml", &format!("dbSecrets:\n  password: {}\n", encrypt(&marker(80))));
    write(&root, ".helm/charts/db/Chart.yaml", "apiVersion: v2\nname: db\nversion: 0.1.0\n");
    write(&root, ".helm/charts/db/values.yaml", "exports:\n  shared:\n    level: 1\n");
    write(&root, ".helm/charts/db/secret-values.yaml", &format!("exports:\n  shared:\n    token: {}\n", encrypt(&marker(81))));
    if schema {
        write(&root, ".helm/values.schema.json", r#"{"type": "object", "properties": {"dbSecrets": {"type": "object", "properties": {"password": {"type": "string", "pattern": "^nomatch$"}}}}}"#);
    }
    root
}

#[test]
fn werf_secret_values_stay_masked_when_copied_by_export_and_import_values() {
    let dir = tempfile::tempdir().unwrap();
    let root = werf_project(dir.path(), false);
    let env = [("WERF_SECRET_KEY", WERF_KEY)];
    let root = root.to_str().unwrap();
    for output in OUTPUTS {
        let o = check(&["values", "explain", "--werf", root, "-o", output], &env);
        assert_eq!(o.code, Some(0), "{}", o.stderr);
    }
    let shown = run(&["values", "explain", "--werf", root, "--show-secrets", "-o", "json"], &env, None, Limits::DEFAULT);
    for n in [80, 81] {
        assert!(shown.stdout.contains(&marker(n)), "--show-secrets lacks marker {n}:\n{}{}", shown.stdout, shown.stderr);
    }
    // A schema error quotes the value it rejects: not a secret's.
    let schema = werf_project(dir.path(), true);
    let o = check(&["values", "explain", "--werf", schema.to_str().unwrap()], &env);
    assert_eq!(o.code, Some(1), "{o:#?}");
    assert!(o.stderr.contains("<secret> does not match pattern"), "{}", o.stderr);
}

fn helmfile_project(dir: &Path) -> PathBuf {
    let root = dir.join("helmfile");
    write(&root, "secrets.yaml", &format!("pw: {}\ncreds:\n  user: {}\n", marker(90), marker(91)));
    write(&root, "values.yaml.gotmpl", "url: \"postgres://u:{{ .Values.pw }}@db\"\njson: {{ .Values.creds | toJson }}\nyaml:\n{{ toYaml .Values.creds | indent 2 }}\nquoted: {{ .Values.pw | quote }}\nupper: {{ .Values.pw | upper }}\nplain: visible\n");
    write(&root, "chart/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\n");
    write(&root, "chart/values.yaml", "url: \"\"\n");
    write(&root, "schema-chart/Chart.yaml", "apiVersion: v2\nname: strict\nversion: 1.0.0\n");
    write(&root, "schema-chart/values.schema.json", r#"{"type": "object", "properties": {"url": {"type": "string", "pattern": "^mysql://"}}}"#);
    write(
        &root,
        "helmfile.yaml",
        "environments:\n  default:\n    secrets:\n      - secrets.yaml\n---\nreleases:\n  - name: app\n    chart: ./chart\n    values:\n      - values.yaml.gotmpl\n  - name: strict\n    chart: ./schema-chart\n    values:\n      - values.yaml.gotmpl\n",
    )
}

#[test]
fn helmfile_secrets_stay_masked_when_interpolated_or_encoded() {
    let dir = tempfile::tempdir().unwrap();
    let file = helmfile_project(dir.path());
    let file = file.to_str().unwrap();
    for release in [&[][..], &["--release", "app"][..]] {
        for output in OUTPUTS {
            let mut args = vec!["values", "explain", "--helmfile", file, "-o", output];
            args.extend(release);
            let o = check(&args, &[]);
            assert_eq!(o.code, Some(0), "{}: {}", args.join(" "), o.stderr);
        }
    }
    let shown = run(&["values", "explain", "--helmfile", file, "--release", "app", "--show-secrets"], &[], None, Limits::DEFAULT);
    assert!(shown.stdout.contains(&format!("postgres://u:{}@db", marker(90))) && shown.stdout.contains(&marker(91)), "{}{}", shown.stdout, shown.stderr);
    let o = check(&["values", "explain", "--helmfile", file, "--release", "strict"], &[]);
    assert_eq!(o.code, Some(1), "{o:#?}");
    assert!(o.stderr.contains("<secret> does not match pattern"), "{}", o.stderr);
}

/// A state file that prints a secret state value into a release's inline
/// `values:`, `set:`, `setString:`, `setTemplate:` and `valuesTemplate:`,
/// plain, through `upper`, interpolated and encoded.
fn templated_state_project(dir: &Path) -> PathBuf {
    let root = dir.join("templated-state");
    write(&root, "secrets.yaml", &format!("pw: {}\n", marker(92)));
    write(&root, "chart/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\n");
    write(&root, "chart/values.yaml", "plain: \"\"\n");
    write(
        &root,
        "helmfile.yaml.gotmpl",
        concat!(
            "environments:\n  default:\n    secrets:\n      - secrets.yaml\n---\nreleases:\n  - name: app\n    chart: ./chart\n    values:\n",
            "      - plain: {{ .Values.pw }}\n        up: {{ .Values.pw | upper }}\n        inl: \"x-{{ .Values.pw | upper }}-y\"\n",
            "        b64: {{ .Values.pw | b64enc }}\n        list: {{ list .Values.pw | toJson }}\n",
            "    set:\n      - name: s1\n        value: {{ .Values.pw }}\n",
            "    setString:\n      - name: s2\n        value: {{ .Values.pw | upper }}\n",
            "    setTemplate:\n      - name: s3\n        value: '{{`{{ .Values.pw }}`}}'\n",
            "    valuesTemplate:\n      - vt: '{{`{{ .Values.pw | upper }}`}}'\n",
        ),
    )
}

#[test]
fn helmfile_secrets_printed_by_a_state_file_template_stay_masked_in_values_and_set_flags() {
    let dir = tempfile::tempdir().unwrap();
    let file = templated_state_project(dir.path());
    let file = file.to_str().unwrap();
    for output in OUTPUTS {
        let args = ["values", "explain", "--helmfile", file, "--release", "app", "-o", output];
        let o = check(&args, &[("HELMFILE_V1MODE", "true")]);
        assert_eq!(o.code, Some(0), "{}: {}", args.join(" "), o.stderr);
    }
    let shown = run(&["values", "explain", "--helmfile", file, "--release", "app", "--show-secrets"], &[("HELMFILE_V1MODE", "true")], None, Limits::DEFAULT);
    for key in ["plain", "s1", "s3"] {
        assert!(shown.stdout.lines().any(|l| l.starts_with(key) && l.contains(&marker(92))), "{key} not shown with --show-secrets:\n{}{}", shown.stdout, shown.stderr);
    }
}
