//! The helm-diff drop-in: helm-diff 3.15's command line answered by our
//! engine, through the binary as Helm runs the plugin `diff`, through real
//! `helm plugin install` + `helm diff upgrade` (Helm v3.15.3 and v4.1.4),
//! and through real `helmfile diff` / `helmfile apply` (0.166.0, with
//! HELMFILE_V1MODE off and on), against the fixture API server holding the
//! records real Helm made for tests/data/upgrade/shop-v1. Every request is
//! a GET or LIST.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{ServedCluster as Cluster, real_helm, releasex, run};
use crate::upgrade_objects::{live, oracle};

const V1: &str = "tests/data/upgrade/shop-v1";
const V2: &str = "tests/data/upgrade/shop-v2";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// shop-v1 installed by real Helm (the oracle) into namespace shop, its
/// objects live as Helm applied them (`edit` changes them), its records in
/// the server.
fn cluster(edit: impl Fn(&mut Vec<Value>)) -> Cluster {
    let list = oracle(&["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates"]);
    let secrets: Vec<Value> = list["items"].as_array().unwrap().clone();
    let stored = releasex::release::source::parse_input("oracle", list.to_string().as_bytes()).unwrap();
    let records = releasex::release::decode_history(stored, Some("shop"), "oracle").unwrap();
    let manifest = records.last().unwrap().release.manifest().to_string();
    let objects: Vec<Value> = releasex::manifest::split(&manifest)
        .into_iter()
        .flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap())
        .filter(Value::is_object)
        .collect();
    let mut served: Vec<Value> = objects.into_iter().enumerate().map(|(i, o)| live(o, i + 1)).collect();
    edit(&mut served);
    served.extend(secrets.into_iter().enumerate().map(|(i, s)| as_served(s, "shop", 100 + i)));
    Cluster::serve(served, "shop")
}

fn scaled_by_hand(objects: &mut [Value]) {
    let dep = objects.iter_mut().find(|o| o["kind"] == "Deployment").unwrap();
    dep["spec"]["replicas"] = json!(5);
}

impl Cluster {
    /// The binary as Helm runs the plugin `diff`: Helm's environment, argv
    /// after `helm diff`.
    fn plugin(&self, args: &[&str]) -> crate::support::Run {
        let r = run(releasex()
            .env("HELM_PLUGIN_NAME", "diff")
            .env("HELM_PLUGIN_DIR", "/nonexistent/helm-diff")
            .env("HELM_NAMESPACE", "shop")
            .env("HELM_DEBUG", "false")
            .env("HELM_BIN", real_helm("helm4"))
            .env("KUBECONFIG", &self.kubeconfig)
            .args(args));
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        r
    }
}

#[test]
fn diff_upgrade_prints_helm_diffs_report_of_our_plan_with_marked_facts() {
    let c = cluster(|o| scaled_by_hand(o));
    let r = c.plugin(&["upgrade", "shop", V2, "--context", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
    assert!(r.stdout.contains("shop, shop, Deployment (apps) has changed:\n"), "{}", r.stdout);
    // The live replicas (scaled by hand) are reset: what the upgrade really does.
    assert!(r.stdout.contains("-   replicas: 5\n+   replicas: 2\n"), "{}", r.stdout);
    assert!(r.stdout.contains("shop, shop-extra, ConfigMap (v1) has been added:\n"), "{}", r.stdout);
    assert!(r.stdout.contains("shop, shop-legacy, ConfigMap (v1) has been removed:\n"), "{}", r.stdout);
    assert!(!r.stdout.contains("shop-kept, ConfigMap (v1) has been removed"), "resource-policy keep is not a removal: {}", r.stdout);
    assert!(r.stdout.starts_with("# releasex: upgrade from revision 1 (the last revision is deployed) to 2\n"), "{}", r.stdout);
    assert!(!r.stdout.contains("s3cret"), "a secret leaked: {}", r.stdout);
    // Every line is helm-diff's shape or ours.
    for line in r.stdout.lines() {
        let ok = line.is_empty() || line == "..." || line.starts_with("# releasex: ") || line.ends_with(':') || ["  ", "- ", "+ "].iter().any(|p| line.starts_with(p));
        assert!(ok, "not helm-diff's shape: {line:?}");
    }
    let quiet = c.plugin(&["upgrade", "shop", V2, "--context", "2", "--no-explain"]);
    assert!(!quiet.stdout.contains("# releasex"), "{}", quiet.stdout);
    let without_ours: String = r.stdout.lines().filter(|l| !l.starts_with("# releasex")).map(|l| format!("{l}\n")).collect();
    assert_eq!(quiet.stdout, without_ours, "--no-explain leaves out exactly our lines");
    c.api.assert_read_only();
}

#[test]
fn detailed_exitcode_simple_and_json_outputs_and_unsupported_formats() {
    let c = cluster(|o| scaled_by_hand(o));
    let r = c.plugin(&["upgrade", "shop", V2, "--detailed-exitcode", "--output", "simple", "--no-explain"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("shop, shop, Deployment (apps) to be changed.\n"), "{}", r.stdout);
    assert!(r.stdout.ends_with("Plan: 1 to add, 3 to change, 1 to destroy, 0 to change ownership.\n"), "{}", r.stdout);
    let j = c.plugin(&["upgrade", "shop", V2, "--output", "json"]);
    assert_eq!(j.code, 0, "{}", j.stderr);
    let doc: Value = serde_json::from_str(&j.stdout).unwrap_or_else(|e| panic!("{e}: {}", j.stdout));
    assert!(doc.as_array().unwrap().contains(&json!({"api": "apps", "kind": "Deployment", "namespace": "shop", "name": "shop", "change": "MODIFY"})), "{doc}");
    assert!(j.stderr.contains("note: releasex: upgrade from revision 1"), "facts go to stderr with json: {}", j.stderr);
    // HELM_DIFF_OUTPUT chooses the format when --output is not given.
    let e = run(releasex().env("HELM_DIFF_OUTPUT", "simple").env("KUBECONFIG", &c.kubeconfig).args(["diff", "upgrade", "shop", V2, "-n", "shop", "--no-explain"]).env("HELM_BIN", real_helm("helm4")));
    assert!(e.stdout.starts_with("shop, ") && e.stdout.contains("Plan: "), "{}{}", e.stdout, e.stderr);
    let bad = c.plugin(&["upgrade", "shop", V2, "--suppress-output-line-regex", "("]);
    assert!(bad.code == 1 && bad.stderr.contains("--suppress-output-line-regex \"(\""), "{}", bad.stderr);
    for format in ["template", "dyff", "structured"] {
        let r = c.plugin(&["upgrade", "shop", V2, "--output", format]);
        assert_eq!(r.code, 1);
        assert!(r.stderr.contains(&format!("--output {format} is not supported")) && r.stderr.contains("diff (the default), simple, json"), "{}", r.stderr);
    }
    c.api.assert_read_only();
}

#[test]
fn secrets_are_redacted_helm_diffs_way_unless_shown_and_kinds_suppressed() {
    let c = cluster(|_| {});
    let rotated = ["upgrade", "shop", V2, "--set", "password=s3cret-v2", "--no-explain"];
    let r = c.plugin(&rotated);
    let secret = section(&r.stdout, "shop, shop-secret, Secret (v1) has changed:");
    assert!(secret.contains("-   password: '-------- # (9 bytes)'") || secret.contains("-   password: \"-------- # (9 bytes)\""), "{secret}");
    assert!(secret.contains("++++++++ # (9 bytes)"), "{secret}");
    assert!(!r.stdout.contains("s3cret"), "{}", r.stdout);
    let shown = c.plugin(&[&rotated[..], &["--show-secrets-decoded"]].concat());
    assert!(shown.stdout.contains("s3cret-v1") && shown.stdout.contains("s3cret-v2"), "{}", shown.stdout);
    let q = c.plugin(&[&rotated[..], &["-q", "--suppress", "Deployment"]].concat());
    assert!(q.stdout.contains("shop, shop-secret, Secret (v1) has changed:\n+ Changes suppressed on sensitive content of type Secret\n"), "{}", q.stdout);
    assert!(q.stdout.contains("+ Changes suppressed on sensitive content of type Deployment\n"), "{}", q.stdout);
    let lines = c.plugin(&["upgrade", "shop", V2, "--suppress-output-line-regex", "image", "--no-explain"]);
    assert!(lines.stdout.contains("shop, shop, Deployment (apps) has changed, but diff is empty after suppression.\n"), "{}", lines.stdout);
    assert!(lines.stdout.contains("+   greeting: hello again"), "other lines stay: {}", lines.stdout);
}

/// The lines of one entry (up to the next key line).
fn section<'a>(out: &'a str, header: &str) -> &'a str {
    let start = out.find(header).unwrap_or_else(|| panic!("no {header:?} in:\n{out}"));
    let rest = &out[start + header.len()..];
    let end = rest.find(" has ").and_then(|i| rest[..i].rfind('\n')).unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn a_release_without_records_needs_allow_unreleased_and_then_everything_is_added() {
    let c = cluster(|_| {});
    let r = c.plugin(&["upgrade", "newapp", V1]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("Include the `--allow-unreleased` to perform diff without exiting in error."), "{}", r.stderr);
    // In the namespace where shop's objects live, Helm's install fails on them.
    let r = c.plugin(&["upgrade", "newapp", V1, "--allow-unreleased", "--detailed-exitcode"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("error: helm upgrade would fail: unable to continue with install: ") && r.stderr.contains("exists and cannot be imported into the current release"), "{}", r.stderr);
    // In another namespace everything is added (kubectl releasex diff: -n is ours to read).
    let r = run(releasex().env("KUBECONFIG", &c.kubeconfig).env("HELM_BIN", real_helm("helm4")).args(["diff", "upgrade", "newapp", V1, "-n", "fresh", "--install", "--detailed-exitcode", "--output", "simple"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("# releasex: install as revision 1"), "{}", r.stdout);
    assert!(r.stdout.contains("Plan: 8 to add, 0 to change, 0 to destroy, 0 to change ownership."), "{}", r.stdout);
    c.api.assert_read_only();
}

#[test]
fn a_failure_helm_would_hit_is_an_error_not_no_changes() {
    let c = cluster(|objects| {
        let mut other = live(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shop-extra"}, "data": {}}), 77);
        releasex::upgrade::add_ownership(&mut other, "someone-else", "shop");
        objects.push(other);
    });
    let r = c.plugin(&["upgrade", "shop", V2, "--detailed-exitcode"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("error: helm upgrade would fail: UPGRADE FAILED: unable to continue with update: ConfigMap \"shop-extra\""), "{}", r.stderr);
    // --take-ownership adopts it: helm-diff's ownership entry.
    let r = c.plugin(&["upgrade", "shop", V2, "--take-ownership", "--no-explain"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("shop, shop-extra, ConfigMap (v1) changed ownership:\n- shop/someone-else\n+ shop/shop\n"), "{}", r.stdout);
}

#[test]
fn revision_and_release_compare_stored_manifests_and_rollback_needs_its_revision() {
    // Two revisions made by real Helm: v1, then the upgrade to v2.
    let list = oracle(&["release-secrets", V1, "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates", "--then", V2]);
    let served: Vec<Value> = list["items"].as_array().unwrap().iter().enumerate().map(|(i, s)| as_served(s.clone(), "shop", i)).collect();
    let api = FixtureApi::start(served);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "shop");
    let diff = |args: &[&str]| run(releasex().env("KUBECONFIG", &kubeconfig).arg("diff").args(args));
    let r = diff(&["revision", "shop", "1", "2", "-n", "shop", "--detailed-exitcode", "--no-explain"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("shop, shop, Deployment (apps) has changed:"), "{}", r.stdout);
    assert!(r.stdout.contains("-   replicas: 2") || r.stdout.contains("image: shop:1.0"), "{}", r.stdout);
    let one = diff(&["revision", "shop", "1", "-n", "shop", "--no-explain"]);
    assert_eq!(one.stdout, r.stdout.clone(), "one revision is compared with the latest");
    let same = diff(&["release", "shop/shop", "shop/shop", "--detailed-exitcode"]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    let bad = diff(&["revision", "shop", "x", "-n", "shop"]);
    assert!(bad.code == 1 && bad.stderr.contains("revision \"x\" is not a number"), "{}", bad.stderr);
    let missing = diff(&["revision", "shop", "9", "-n", "shop"]);
    assert!(missing.code == 1 && missing.stderr.contains("release: not found"), "{}", missing.stderr);
    // helm-diff's checkArgsLength: the revision is required (tests/cli/rollback.rs runs it).
    let rb = diff(&["rollback", "shop", "-n", "shop"]);
    assert_eq!(rb.code, 1);
    assert!(rb.stderr.contains("This command needs 2 arguments: release name, revision number"), "{}", rb.stderr);
    api.assert_read_only();
}

/// Every flag helm-diff 3.15.11 defines (tests/data/helm-diff/flags.txt,
/// listed from its cmd/*.go) is accepted by the subcommand that defines it.
#[test]
fn every_helm_diff_flag_is_accepted() {
    let table = std::fs::read_to_string(root().join("tests/data/helm-diff/flags.txt")).unwrap();
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let (command, flag, value) = (cols[0], cols[1], cols.get(2).copied());
        let mut args: Vec<&str> = vec!["diff", command];
        args.extend(match command {
            "upgrade" => vec!["rel", "./no-such-chart"],
            "local" => vec!["./a", "./b"],
            _ => vec!["rel", "1"],
        });
        args.push(flag);
        if let Some(v) = value {
            args.push(v);
        }
        let r = run(releasex().env("KUBECONFIG", "/nonexistent").args(&args));
        assert!(!r.stderr.contains("unexpected argument") && !r.stderr.contains("invalid value"), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        checked += 1;
    }
    assert!(checked > 70, "only {checked} flags listed");
}

#[test]
fn ignore_unknown_flags_lets_a_helm_upgrade_command_line_through() {
    let c = cluster(|_| {});
    let plain = c.plugin(&["upgrade", "shop", V1, "--detailed-exitcode"]);
    let r = run(releasex()
        .env("HELM_PLUGIN_NAME", "diff")
        .env("HELM_NAMESPACE", "shop")
        .env("HELM_BIN", real_helm("helm4"))
        .env("KUBECONFIG", &c.kubeconfig)
        .env("HELM_DIFF_IGNORE_UNKNOWN_FLAGS", "true")
        .args(["upgrade", "shop", V1, "--timeout", "5m", "--atomic=true", "--detailed-exitcode"]));
    assert_eq!(r.code, plain.code, "{}", r.stderr);
    assert_eq!(r.stdout, plain.stdout);
    let strict = c.plugin(&["upgrade", "shop", V1, "--timeout", "5m"]);
    assert!(strict.code == 1 && strict.stderr.contains("unexpected argument '--timeout'"), "{}", strict.stderr);
}

/// Helm's plugin directory with our `diff` plugin installed by real `helm
/// plugin install` from a copy of plugins/helm-diff (its hook copies the
/// `kubectl-releasex` found on PATH).
struct HelmDiff {
    home: tempfile::TempDir,
    path: std::ffi::OsString,
}

impl HelmDiff {
    fn install(which: &str) -> HelmDiff {
        let home = tempfile::tempdir().unwrap();
        let source = home.path().join("src/helm-diff");
        std::fs::create_dir_all(&source).unwrap();
        for f in ["plugin.yaml", "install-binary.sh"] {
            std::fs::copy(root().join("plugins/helm-diff").join(f), source.join(f)).unwrap();
        }
        let bin = home.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("kubectl-releasex"), bin.join("kubectl-releasex")).unwrap();
        let path = std::env::join_paths([bin.clone(), PathBuf::from("/usr/bin"), PathBuf::from("/bin")]).unwrap();
        let h = HelmDiff { home, path };
        let out = h.helm(which).args(["plugin", "install", source.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "helm plugin install: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        h
    }

    fn helm(&self, which: &str) -> std::process::Command {
        let d = self.home.path();
        let mut cmd = std::process::Command::new(real_helm(which));
        cmd.env_clear()
            .env("PATH", &self.path)
            .env("HOME", d)
            .env("HELM_PLUGINS", d.join("data/plugins"))
            .env("HELM_DATA_HOME", d.join("data"))
            .env("HELM_CONFIG_HOME", d.join("config"))
            .env("HELM_CACHE_HOME", d.join("cache"))
            .current_dir(root());
        cmd
    }
}

#[test]
fn real_helm_3_and_4_install_the_plugin_as_diff_and_run_helm_diff_upgrade() {
    let c = cluster(|o| scaled_by_hand(o));
    for which in ["helm3", "helm4"] {
        let h = HelmDiff::install(which);
        let list = h.helm(which).args(["plugin", "list"]).output().unwrap();
        let listed = String::from_utf8_lossy(&list.stdout);
        assert!(listed.lines().any(|l| l.starts_with("diff") && l.contains("3.15.11+releasex")), "{which}: {listed}");
        let out = h.helm(which).args(["diff", "upgrade", "shop", V2, "-n", "shop", "--kubeconfig"]).arg(&c.kubeconfig).args(["--detailed-exitcode", "--context", "2"]).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{which}: {stdout}{stderr}");
        let direct = c.plugin(&["upgrade", "shop", V2, "--detailed-exitcode", "--context", "2"]);
        assert_eq!(stdout, direct.stdout, "{which}: the same report through real Helm");
        let version = h.helm(which).args(["diff", "version"]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), format!("3.15.11+releasex.{}", env!("CARGO_PKG_VERSION")));
    }
    c.api.assert_read_only();
}

fn helmfile() -> PathBuf {
    crate::support::real_helmfile()
}

#[test]
fn real_helmfile_diff_and_apply_run_the_drop_in_and_apply_stops_when_nothing_changes() {
    let c = cluster(|_| {});
    // helmfile 0.166.0 predates Helm 4: with Helm 4.1.4 it stops at "error determining helm version".
    let h = HelmDiff::install("helm3");
    let state = c.dir.path().join("helmfile.yaml");
    std::fs::write(&state, format!("releases:\n  - name: shop\n    namespace: shop\n    chart: {}\n", root().join(V1).display())).unwrap();
    let changed = c.dir.path().join("helmfile-v2.yaml");
    std::fs::write(&changed, format!("releases:\n  - name: shop\n    namespace: shop\n    chart: {}\n", root().join(V2).display())).unwrap();
    for v1mode in ["false", "true"] {
        let helmfile = |file: &Path, args: &[&str]| {
            let mut cmd = h.helm("helm3");
            cmd.env("KUBECONFIG", &c.kubeconfig).env("HELMFILE_V1MODE", v1mode);
            let out = std::process::Command::new(helmfile())
                .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))))
                .args(["--helm-binary", real_helm("helm3").to_str().unwrap(), "-f", file.to_str().unwrap()])
                .args(args)
                .output()
                .unwrap();
            (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
        };
        let (code, out) = helmfile(&changed, &["diff", "--detailed-exitcode"]);
        assert_eq!(code, Some(2), "V1MODE={v1mode}: {out}");
        assert!(out.contains("shop, shop, Deployment (apps) has changed:"), "{out}");
        let (code, out) = helmfile(&state, &["diff", "--detailed-exitcode"]);
        assert_eq!(code, Some(0), "V1MODE={v1mode}: no changes: {out}");
        let (code, out) = helmfile(&state, &["apply"]);
        assert_eq!(code, Some(0), "V1MODE={v1mode}: {out}");
        let (code, out) = helmfile(&state, &["apply", "--detailed-exitcode"]);
        assert_eq!(code, Some(0), "V1MODE={v1mode}: {out}");
    }
    assert!(c.api.requests().iter().any(|q| q.path == "/api/v1/namespaces/shop/secrets"), "the plugin read the release records");
    assert!(c.api.writes().is_empty(), "helmfile apply went past the diff: {:?}", c.api.writes());
    c.api.assert_read_only();
}

#[test]
fn dry_run_client_reads_nothing_from_the_cluster_and_diffs_an_install() {
    let c = cluster(|_| {});
    let r = c.plugin(&["upgrade", "shop", V1, "--dry-run", "--detailed-exitcode", "--output", "simple"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("# releasex: no cluster was read (--dry-run)"), "{}", r.stdout);
    assert!(r.stdout.contains("shop, shop, Deployment (apps) to be added."), "{}", r.stdout);
    assert!(c.api.requests().is_empty(), "--dry-run=client contacts no API server: {:?}", c.api.requests());
    let bad = c.plugin(&["upgrade", "shop", V1, "--dry-run=maybe"]);
    assert!(bad.code == 1 && bad.stderr.contains("flag \"dry-run\" must take a bool value or either \"client\" or \"server\""), "{}", bad.stderr);
}

#[test]
fn the_plugin_manifest_names_helm_diffs_command_line_and_our_version() {
    let text = std::fs::read_to_string(root().join("plugins/helm-diff/plugin.yaml")).unwrap();
    let p: Value = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(p["name"], "diff");
    assert_eq!(p["version"], format!("3.15.11+releasex.{}", env!("CARGO_PKG_VERSION")), "helm-diff's version answered, then ours");
    // Helm 3 decodes plugin.yaml strictly (pkg/plugin/plugin.go Metadata); Helm 4 reads it as legacy.
    for k in p.as_object().unwrap().keys() {
        assert!(["name", "version", "usage", "description", "platformCommand", "ignoreFlags", "hooks"].contains(&k.as_str()), "{k}");
    }
    assert_eq!(p["ignoreFlags"], false);
}

#[test]
#[ignore = "writes the helm-diff walkthrough to /tmp/helm-diff-walkthrough.txt (in color) for a look at 80 and 120 columns"]
fn print_helm_diff_walkthrough() {
    let c = cluster(|o| scaled_by_hand(o));
    let r = c.plugin(&["upgrade", "shop", V2, "--color", "--set", "password=rotated", "--context", "3"]);
    std::fs::write("/tmp/helm-diff-walkthrough.txt", format!("{}{}", r.stdout, r.stderr)).unwrap();
}

/// helm-diff #464: with no value flag, `helm upgrade` reuses only the
/// stored config, so the new chart's defaults apply; helm-diff passes `helm
/// get values --all` (the old chart's defaults too) and shows no image
/// change. Checked against the upgrade real Helm makes (the oracle).
#[test]
fn without_value_flags_the_new_chart_defaults_apply_as_in_real_helms_upgrade() {
    let list = oracle(&["release-secrets", V1, "--set", "replicas=3", "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates"]);
    let upgraded = oracle(&["release-secrets", V1, "--set", "replicas=3", "--name", "shop", "--namespace", "shop", "--as-list", "--keep-templates", "--then", V2]);
    let stored = releasex::release::source::parse_input("oracle", upgraded.to_string().as_bytes()).unwrap();
    let helms = releasex::release::decode_history(stored, Some("shop"), "oracle").unwrap();
    let helms_manifest = helms.iter().find(|r| r.release.version() == 2).unwrap().release.manifest().to_string();
    assert!(helms_manifest.contains("image: shop:2.0") && helms_manifest.contains("replicas: 3"), "{helms_manifest}");
    let stored = releasex::release::source::parse_input("oracle", list.to_string().as_bytes()).unwrap();
    let records = releasex::release::decode_history(stored, Some("shop"), "oracle").unwrap();
    let manifest = records[0].release.manifest().to_string();
    let mut served: Vec<Value> = releasex::manifest::split(&manifest)
        .into_iter()
        .flat_map(|d| serde_saphyr::from_multiple::<Value>(d).unwrap())
        .filter(Value::is_object)
        .enumerate()
        .map(|(i, o)| live(o, i + 1))
        .collect();
    served.extend(list["items"].as_array().unwrap().iter().enumerate().map(|(i, s)| as_served(s.clone(), "shop", 100 + i)));
    let c = Cluster::serve(served, "shop");
    let r = c.plugin(&["upgrade", "shop", V2, "--no-explain"]);
    let dep = section(&r.stdout, "shop, shop, Deployment (apps) has changed:");
    assert!(dep.contains("-       - image: shop:1.0\n+       - image: shop:2.0\n"), "{dep}");
    assert!(dep.contains("    replicas: 3\n"), "the stored replicas stay: {dep}");
    // A value flag drops the stored config: said in our lines.
    let r = c.plugin(&["upgrade", "shop", V2, "--set", "greeting=hi"]);
    assert!(r.stdout.contains("# releasex: 1 stored value is dropped") && r.stdout.contains("# releasex: dropped: replicas: 3 -> 2\n"), "{}", r.stdout);
    assert!(section(&r.stdout, "shop, shop, Deployment (apps) has changed:").contains("-   replicas: 3\n+   replicas: 2\n"), "{}", r.stdout);
    c.api.assert_read_only();
}

#[test]
fn server_side_apply_conflicts_are_marked_on_the_object_and_fail_the_diff() {
    let c = cluster(|objects| {
        let dep = objects.iter_mut().find(|o| o["kind"] == "Deployment").unwrap();
        dep["spec"]["template"]["spec"]["containers"][0]["image"] = json!("shop:hotfix");
        dep["metadata"]["managedFields"] = json!([
            {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "time": "2026-11-29T12:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"shop\"}": {".": {}, "f:name": {}}}}}}}},
            {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-11-29T13:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"shop\"}": {"f:image": {}}}}}}}}
        ]);
    });
    let r = c.plugin(&["upgrade", "shop", V2, "--detailed-exitcode"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("# releasex: server-side apply conflict:\n# releasex:   .spec.template.spec.containers[name=\"shop\"].image owned by\n"), "{}", r.stdout);
    assert!(r.stderr.contains("error: helm upgrade would fail: UPGRADE FAILED: conflict occurred while applying object shop/shop apps/v1, Kind=Deployment"), "{}", r.stderr);
    c.api.assert_read_only();
}

#[test]
#[ignore = "writes helm diff of kube-prometheus-stack (values corpus, no templates) to /tmp/helm-diff-kps.txt with its time"]
fn print_helm_diff_on_kube_prometheus_stack() {
    const KPS: &str = "tests/data/corpus/kube-prometheus-stack";
    let list = oracle(&["release-secrets", KPS, "--set", "grafana.enabled=false", "--name", "kps", "--namespace", "monitoring", "--as-list"]);
    let served: Vec<Value> = list["items"].as_array().unwrap().iter().enumerate().map(|(i, s)| as_served(s.clone(), "monitoring", i)).collect();
    let api = FixtureApi::start(served);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "monitoring");
    let ci = format!("{KPS}/ci/03-non-defaults-values.yaml");
    let started = std::time::Instant::now();
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).env("HELM_BIN", real_helm("helm4")).args(["diff", "upgrade", "kps", KPS, "-f", &ci, "--color"]));
    let took = started.elapsed();
    std::fs::write("/tmp/helm-diff-kps.txt", format!("{}{}exit {} in {took:?}\n", r.stdout, r.stderr, r.code)).unwrap();
}
