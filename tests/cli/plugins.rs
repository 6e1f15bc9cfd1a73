//! The binary as a kubectl plugin (real kubectl, temporary PATH) and as the
//! Helm plugin `preview` (the environment and argument stripping Helm
//! applies; no helm binary is needed), and the manifests both load.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::fixture_api::{FixtureApi, as_served};
use crate::support::{fixture, json, releasex, run};

const PARENT_V2: &str = "tests/fixtures/charts/parent-v2";
const PARENT_HISTORY: &str = "tests/fixtures/releases/parent-3-revisions.list.json";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_file(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{rel} does not parse: {e}"))
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("kubectl-releasex")
}

/// A directory holding `kubectl-releasex` and `kubectl_complete-releasex`
/// links to the built binary, as docs/install.md puts them on PATH.
fn plugin_path() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    symlink(bin(), dir.path().join("kubectl-releasex")).unwrap();
    symlink(bin(), dir.path().join("kubectl_complete-releasex")).unwrap();
    dir
}

/// Real kubectl 1.35 (`$RELEASEX_KUBECTL`, as .ci/run exports it, else
/// scripts/real-binaries.sh's default place) with PATH = the plugin dir only.
fn kubectl(dir: &Path) -> assert_cmd::Command {
    let kubectl = std::env::var_os("RELEASEX_KUBECTL")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/real-helm-binaries/kubectl/kubectl")))
        .filter(|p| p.is_file())
        .expect("no real kubectl: run scripts/real-binaries.sh (as .ci/run does)");
    let mut cmd = assert_cmd::Command::new(&kubectl);
    cmd.env_clear().env("PATH", dir).env("HOME", dir).current_dir(root());
    cmd
}

#[test]
fn kubectl_finds_the_plugin_on_path_and_runs_it_with_the_explain_alias() {
    let dir = plugin_path();
    let r = run(kubectl(dir.path()).args(["plugin", "list"]));
    assert!(r.stdout.contains(&dir.path().join("kubectl-releasex").display().to_string()), "{}\n{}", r.stdout, r.stderr);
    let r = run(kubectl(dir.path()).args(["releasex", "--help"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("upgrade-preview") && r.stdout.contains("Examples:"), "{}", r.stdout);
    let r = run(kubectl(dir.path()).args(["releasex", "explain", "tests/fixtures/charts/parent-v2", "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(json(&r.stdout)["entries"].is_array());
}

#[test]
fn kubectl_completes_plugin_words_through_kubectl_complete_releasex() {
    let dir = plugin_path();
    let mut cmd = kubectl(dir.path());
    // What kubectl's shell scripts call at TAB; kubectl 1.26+ forwards it to kubectl_complete-releasex.
    let r = run(cmd.args(["__complete", "releasex", "release", "d"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or("");
    assert!(first.starts_with("decode\t"), "{}", r.stdout);
    assert!(r.stdout.lines().any(|l| l == ":4"), "{}", r.stdout);
}

/// Keys Helm 3's legacy `Metadata` knows (pkg/plugin/plugin.go); Helm 3
/// decodes plugin.yaml strictly, so any other key fails the plugin.
const HELM3_KEYS: &[&str] = &["name", "version", "usage", "description", "command", "platformCommand", "ignoreFlags", "hooks", "downloaders", "useTunnel"];

#[test]
fn plugin_yaml_loads_in_helm3_and_as_legacy_in_helm4() {
    let p = yaml_file("plugin.yaml");
    // Helm 4 (internal/plugin/loader.go): no apiVersion means the legacy format.
    assert!(p.get("apiVersion").is_none());
    for k in keys(&p) {
        assert!(HELM3_KEYS.contains(&k.as_str()), "key {k} is unknown to Helm 3's strict decoding");
    }
    let name = p["name"].as_str().unwrap();
    assert_eq!(name, "preview");
    assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'), "validPluginName");
    // Helm 4 MetadataLegacy.Validate: a set version must be strict semver.
    let version = p["version"].as_str().unwrap();
    assert_eq!(semver::Version::parse(version).unwrap().to_string(), env!("CARGO_PKG_VERSION"));
    assert!(p["usage"].as_str().is_some_and(|u| !u.is_empty() && !u.contains('\n')));
    assert!(p["description"].as_str().is_some_and(|d| d.contains("helm preview RELEASE CHART")));
    assert_eq!(p["ignoreFlags"], false, "true would drop every user argument");
    // Both versions refuse command with platformCommand, hooks with platformHooks.
    assert!(p.get("command").is_none() && p.get("platformHooks").is_none());
    let cmds = p["platformCommand"].as_array().unwrap();
    for os in ["linux", "darwin", "windows"] {
        let c = cmds.iter().find(|c| c["os"] == os).unwrap_or_else(|| panic!("no platformCommand for {os}"));
        for k in keys(c) {
            assert!(["os", "arch", "command"].contains(&k.as_str()), "platformCommand key {k} (args is unknown to older Helm 3)");
        }
        let command = c["command"].as_str().unwrap();
        // Helm splits the command on spaces and expands $VARS in its first part; no shell.
        assert!(!command.contains(' ') && command.starts_with("$HELM_PLUGIN_DIR"), "{command}");
        assert!(c.get("arch").is_none(), "an arch that does not match exactly makes Helm skip the entry");
    }
    for event in ["install", "update"] {
        let hook = p["hooks"][event].as_str().unwrap_or_else(|| panic!("no {event} hook"));
        assert_eq!(hook, "$HELM_PLUGIN_DIR/scripts/install-plugin.sh");
    }
    let script = root().join("scripts/install-plugin.sh");
    use std::os::unix::fs::PermissionsExt as _;
    assert!(std::fs::metadata(&script).unwrap().permissions().mode() & 0o111 != 0, "the hook must be executable");
}

#[test]
fn helm_completion_files_parse_and_plugin_complete_runs_the_binary() {
    let c = yaml_file("completion.yaml");
    for k in keys(&c) {
        assert!(["name", "validArgs", "flags", "commands"].contains(&k.as_str()), "completion.yaml key {k}");
    }
    assert!(c.get("commands").is_none(), "with commands, Helm would call plugin.complete only on leaves");
    // A plugin directory as `helm plugin install` leaves it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("bin")).unwrap();
    symlink(bin(), dir.path().join("bin/kubectl-releasex")).unwrap();
    let out = std::process::Command::new(root().join("plugin.complete"))
        .args(["release", "h"])
        .env("HELM_PLUGIN_DIR", dir.path())
        .env("HELM_PLUGIN_NAME", "preview")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "history\tOne row per revision of a release, and what its state means for the next upgrade\n:4\n");
}

/// The environment Helm 4 gives a CLI plugin (pkg/cli/environment.go EnvVars
/// plus HELM_PLUGIN_NAME/DIR); Helm always sets HELM_DEBUG, to false by default.
fn as_helm(cmd: &mut assert_cmd::Command) -> &mut assert_cmd::Command {
    cmd.env("HELM_PLUGIN_NAME", "preview")
        .env("HELM_PLUGIN_DIR", "/tmp/helm/plugins/preview")
        .env("HELM_BIN", "helm")
        .env("HELM_DEBUG", "false")
        .env("HELM_NAMESPACE", "default")
}

#[test]
fn helm_preview_alone_prints_help_and_succeeds() {
    let r = run(as_helm(&mut releasex()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Usage:") && r.stdout.contains("helm preview"), "{}", r.stdout);
    assert!(r.stderr.is_empty());
    // Same for kubectl users.
    let r = run(&mut releasex());
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Usage:"));
}

#[test]
fn helm_preview_release_chart_is_upgrade_preview() {
    let explicit = run(releasex().args(["upgrade-preview", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--values-only", "-o", "json"]));
    assert_eq!(explicit.code, 0, "{}", explicit.stderr);
    // Global flags may come first; Helm passes everything but its own flags.
    let short = run(as_helm(&mut releasex()).args(["-o", "json", "rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--values-only"]));
    assert_eq!(short.code, 0, "{}", short.stderr);
    assert_eq!(short.stdout, explicit.stdout);
    // Subcommands still win, and the shorthand is Helm's only.
    let r = run(as_helm(&mut releasex()).args(["release", "history", "-f", PARENT_HISTORY, "-o", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(releasex().args(["rel", PARENT_V2]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("unrecognized subcommand 'rel'"), "{}", r.stderr);
}

#[test]
fn with_render_with_helm_helm_bin_runs_the_render_under_helm() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("called");
    let fake = dir.path().join("fake-helm");
    std::fs::write(&fake, format!("#!/bin/sh\necho \"$@\" > '{}'\necho 'fake helm: no render' >&2\nexit 1\n", marker.display())).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Rendering asks the cluster for its capabilities first.
    let api = FixtureApi::start(Vec::new());
    let kubeconfig = api.write_kubeconfig(dir.path(), "default");
    let r = run(as_helm(&mut releasex())
        .env("HELM_BIN", &fake)
        .env("KUBECONFIG", &kubeconfig)
        .args(["rel", PARENT_V2, "--release-file", PARENT_HISTORY, "--render-with-helm"]));
    assert_eq!(r.code, 3, "a chart that does not render fails the upgrade: {}", r.stdout);
    let args = std::fs::read_to_string(&marker).expect("HELM_BIN was run");
    assert!(args.starts_with("template"), "{args}");
    assert!(r.stderr.contains("fake helm: no render"), "{}", r.stderr);
}

#[test]
fn helm_debug_true_prints_what_was_resolved_and_false_prints_nothing() {
    let args = ["release", "history", "-f", PARENT_HISTORY, "-o", "json"];
    let quiet = run(as_helm(&mut releasex()).args(args));
    assert_eq!(quiet.code, 0);
    assert!(!quiet.stderr.contains("debug:"), "{}", quiet.stderr);
    let loud = run(as_helm(&mut releasex()).env("HELM_DEBUG", "true").env("HELM_KUBECONTEXT", "prod").args(args));
    assert_eq!(loud.code, 0);
    assert_eq!(loud.stdout, quiet.stdout, "debug detail never reaches stdout");
    assert!(loud.stderr.contains("debug: releasex 0.1.0 (Helm 4.2 semantics) as Helm plugin preview"), "{}", loud.stderr);
    assert!(loud.stderr.contains("HELM_NAMESPACE=default HELM_KUBECONTEXT=prod"), "{}", loud.stderr);
    assert!(loud.stderr.contains("debug: done in"), "{}", loud.stderr);
    // Errors get their full chain.
    // The resolved target, each cause on its line, and no Rust backtrace even when RUST_BACKTRACE asks for one.
    let r = run(as_helm(&mut releasex()).env("HELM_DEBUG", "true").env("RUST_BACKTRACE", "1").args(["release", "history", "-f", "nope.yaml"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("debug: resolved: kubeconfig [\"/nonexistent-home/.kube/config\"], context (none), namespace default"), "{}", r.stderr);
    assert!(r.stderr.contains("error: cannot read nope.yaml") && r.stderr.contains("debug: error detail 1: No such file"), "{}", r.stderr);
    assert!(!r.stderr.to_lowercase().contains("backtrace") && !r.stderr.contains("at src/"), "{}", r.stderr);
    // Outside Helm, HELM_DEBUG is not ours.
    let r = run(releasex().env("HELM_DEBUG", "true").args(args));
    assert!(!r.stderr.contains("debug:"));
}

/// Helm strips -n/--kube-context/--kubeconfig and exports them; every
/// command reads them (with HELM_DRIVER) when HELM_PLUGIN_NAME is set.
#[test]
fn every_cluster_command_reads_helms_stripped_flags_from_the_environment() {
    let load = |f: &str| -> Vec<Value> {
        let text = std::fs::read_to_string(fixture(&format!("releases/{f}"))).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone()
    };
    let objects: Vec<Value> = load("parent-3-revisions.list.json").into_iter().enumerate().map(|(i, o)| as_served(o, "team-b", i)).collect();
    let name = objects[0]["metadata"]["labels"]["name"].as_str().unwrap().to_string();
    let api = FixtureApi::start(objects);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "elsewhere");
    let helm = |cmd: &mut assert_cmd::Command| {
        as_helm(cmd).env("KUBECONFIG", &kubeconfig).env("HELM_NAMESPACE", "team-b").env("HELM_KUBECONTEXT", "fixture").env("HELM_DRIVER", "secret");
    };
    for args in [
        vec!["release", "history", name.as_str(), "-o", "json"],
        vec!["release", "decode", name.as_str(), "-o", "json"],
        vec!["explain", "--release", name.as_str(), "-o", "json"],
        vec![name.as_str(), PARENT_V2, "--values-only", "-o", "json"],
    ] {
        let mut cmd = releasex();
        helm(&mut cmd);
        let r = run(cmd.args(&args));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    let requests = api.requests();
    assert!(!requests.is_empty());
    assert!(requests.iter().all(|q| q.path == "/api/v1/namespaces/team-b/secrets"), "{requests:?}");
    api.assert_read_only();
}
