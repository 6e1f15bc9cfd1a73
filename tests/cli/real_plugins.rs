//! The plugins under the real hosts: Helm v3.15.3 and v4.1.4
//! (`$RELEASEX_HELM3`, `$RELEASEX_HELM4`) install the plugin from a checkout
//! into a temporary `HELM_PLUGINS` (its hook downloading and verifying the
//! release archive from a server on 127.0.0.1), list, run, complete and
//! uninstall it, with Helm's global flags reaching us; kubectl 1.35
//! (`$RELEASEX_KUBECTL`) finds and runs `kubectl-releasex` on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::fixture_api::{FixtureApi, as_served};
use crate::release_artefacts::{SIGNER, VERSION, dist, downloads, plugin_checkout, signing_key};
use crate::support::{fixture, real_helm};

const PARENT_V2: &str = "tests/fixtures/charts/parent-v2";

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Helm with its homes in `home`, and nothing else of this machine's
/// environment. HELM_PLUGINS is Helm's default, `$HELM_DATA_HOME/plugins`:
/// with Helm 4.1.4, `plugin install DIR` linked the plugin into
/// `$HELM_DATA_HOME/plugins` whatever HELM_PLUGINS said, while `plugin list`
/// read HELM_PLUGINS (seen when this test was written), so another value
/// loses the plugin.
fn helm(which: &str, home: &Path, args: &[&str]) -> Out {
    let out = Command::new(real_helm(which))
        .args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .env("HELM_PLUGINS", home.join("data/plugins"))
        .env("HELM_CONFIG_HOME", home.join("config"))
        .env("HELM_CACHE_HOME", home.join("cache"))
        .env("HELM_DATA_HOME", home.join("data"))
        .env("RELEASEX_DOWNLOAD_BASE", &downloads().base)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    Out { code: out.status.code().unwrap_or(-1), stdout: String::from_utf8_lossy(&out.stdout).into(), stderr: String::from_utf8_lossy(&out.stderr).into() }
}

fn records_in(namespace: &str) -> (Vec<Value>, String) {
    let text = std::fs::read_to_string(fixture("releases/parent-3-revisions.list.json")).unwrap();
    let items = serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone();
    let objects: Vec<Value> = items.into_iter().enumerate().map(|(i, o)| as_served(o, namespace, i)).collect();
    let name = objects[0]["metadata"]["labels"]["name"].as_str().unwrap().to_string();
    (objects, name)
}

/// The whole life of the plugin under one Helm.
fn plugin_lifecycle(which: &str) {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("data/plugins")).unwrap();
    let checkout = plugin_checkout();
    let h = |args: &[&str]| helm(which, home.path(), args);

    // Install from the checkout: the hook downloads the archive and verifies it.
    let r = h(&["plugin", "install", checkout.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{which} plugin install:\n{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Installed plugin: preview"), "{}", r.stdout);
    assert!(checkout.path().join("bin/kubectl-releasex").is_file(), "the hook put the binary in the plugin");
    let r = h(&["plugin", "list"]);
    assert!(r.stdout.lines().any(|l| l.starts_with("preview") && l.contains(VERSION)), "{which} plugin list:\n{}", r.stdout);

    let r = h(&["preview", "--help"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Usage: helm preview [OPTIONS] <COMMAND>") && r.stdout.contains("  helm preview release history web"), "{}", r.stdout);

    // Helm's global flags: -n, --kube-context and --kubeconfig are Helm's, exported to us.
    let (objects, name) = records_in("team-b");
    let api = FixtureApi::start(objects);
    let kubeconfig = api.write_kubeconfig(home.path(), "default");
    let kc = kubeconfig.to_str().unwrap();
    let flags = ["-n", "team-b", "--kube-context", "other", "--kubeconfig", kc];
    let with = |rest: &[&str]| -> Out { h(&[&flags[..], rest].concat()) };
    let r = with(&["preview", "release", "history", &name, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(serde_json::from_str::<Value>(&r.stdout).unwrap()["revisions"].as_array().map(Vec::len), Some(3), "{}", r.stdout);
    // The whole upgrade-preview, rendered by the Helm that runs us (Helm sets HELM_BIN to itself).
    let r = with(&["preview", &name, PARENT_V2, "-o", "json"]);
    assert_eq!(r.code, 0, "helm preview RELEASE CHART: {}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(doc["objects"].as_array().is_some_and(|o| !o.is_empty()), "{}", r.stdout);
    let r = with(&["--debug", "preview", "release", "history", &name]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("debug: resolved: kubeconfig [\"{kc}\"], context other, namespace team-b")), "{which} --debug:\n{}", r.stderr);
    assert!(r.stderr.contains(&format!("HELM_BIN={}", real_helm(which).display())), "renders with the Helm that runs us:\n{}", r.stderr);
    let paths: Vec<String> = api.requests().into_iter().map(|q| q.path).collect();
    // Release records were read from -n's namespace only (the rest is discovery and the objects' GETs).
    let records: Vec<&String> = paths.iter().filter(|p| p.ends_with("/secrets")).collect();
    assert!(records.len() >= 3 && records.iter().all(|p| *p == "/api/v1/namespaces/team-b/secrets"), "{paths:?}");
    // HELM_DRIVER, Helm's driver setting, reaches us too.
    api.clear_requests();
    let out = Command::new(real_helm(which))
        .args([&flags[..], &["preview", "release", "history", &name]].concat())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home.path())
        .env("HELM_PLUGINS", home.path().join("data/plugins"))
        .env("HELM_DATA_HOME", home.path().join("data"))
        .env("HELM_DRIVER", "configmap")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "no ConfigMap records: {}", String::from_utf8_lossy(&out.stderr));
    assert!(api.requests().iter().any(|q| q.path == "/api/v1/namespaces/team-b/configmaps"), "{:?}", api.requests());

    // Completion through Helm: release names, then revisions, from the cluster.
    let r = with(&["__complete", "preview", "release", "history", ""]);
    assert!(r.stdout.lines().any(|l| l.starts_with(&format!("{name}\t"))), "{which} __complete names:\n{}\n{}", r.stdout, r.stderr);
    let r = with(&["__complete", "preview", "release", "decode", &name, "--revision", ""]);
    for rev in ["1", "2", "3"] {
        assert!(r.stdout.lines().any(|l| l == rev || l.starts_with(&format!("{rev}\t"))), "{which} __complete revisions:\n{}", r.stdout);
    }
    api.assert_read_only();

    let r = h(&["plugin", "uninstall", "preview"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = h(&["plugin", "list"]);
    assert!(!r.stdout.contains("preview"), "{}", r.stdout);
}

#[test]
fn helm4_installs_lists_runs_completes_and_uninstalls_the_plugin() {
    plugin_lifecycle("helm4");
}

#[test]
fn helm3_installs_lists_runs_completes_and_uninstalls_the_plugin() {
    plugin_lifecycle("helm3");
}

/// What we ship for Helm 4's signature check: `preview-X.Y.Z.tgz` with its
/// `.prov` (signed here with a throwaway key). Helm 4 verifies it; the same
/// tarball without its `.prov` installs only with `--verify=false`.
#[test]
fn helm4_verifies_the_signed_plugin_tarball_and_refuses_it_without_its_prov() {
    let home = tempfile::tempdir().unwrap();
    let url = format!("{}/v{VERSION}/preview-{VERSION}.tgz", downloads().base);
    let public = signing_key().2.to_str().unwrap();
    let r = helm("helm4", home.path(), &["plugin", "install", &url, "--keyring", public]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&format!("Signed by: {SIGNER}")) && r.stdout.contains("Installed plugin: preview"), "{}", r.stdout);
    let list = helm("helm4", home.path(), &["plugin", "list"]);
    assert!(list.stdout.lines().any(|l| l.starts_with("preview") && l.contains("signed")), "{}", list.stdout);
    // Its hook downloaded the binary and checked its sha256.
    let installed = home.path().join("data/plugins/preview/bin/kubectl-releasex");
    let version = Command::new(&installed).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).contains(&format!(" {VERSION} ")));

    let alone = tempfile::tempdir().unwrap();
    let tarball = alone.path().join(format!("preview-{VERSION}.tgz"));
    std::fs::copy(dist().join(format!("preview-{VERSION}.tgz")), &tarball).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let r = helm("helm4", fresh.path(), &["plugin", "install", tarball.to_str().unwrap(), "--keyring", public]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("no provenance file (.prov) found"), "{}", r.stderr);
    let r = helm("helm4", fresh.path(), &["plugin", "install", tarball.to_str().unwrap(), "--verify=false"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("WARNING: Skipping plugin signature verification"), "{}", r.stdout);
}

/// `$RELEASEX_KUBECTL`, else scripts/real-binaries.sh's default place.
fn real_kubectl() -> PathBuf {
    let path = std::env::var_os("RELEASEX_KUBECTL")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/real-helm-binaries/kubectl/kubectl")))
        .unwrap();
    assert!(path.is_file(), "no real kubectl at {}: run scripts/real-binaries.sh (as .ci/run does)", path.display());
    path
}

#[test]
fn real_kubectl_lists_the_plugin_and_runs_it_as_kubectl_releasex() {
    let dir = tempfile::tempdir().unwrap();
    let linked = dir.path().join("kubectl-releasex");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("kubectl-releasex"), &linked).unwrap();
    let kubectl = |args: &[&str]| {
        let out = Command::new(real_kubectl()).args(args).env_clear().env("PATH", dir.path()).env("HOME", dir.path()).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (_, stdout, _) = kubectl(&["plugin", "list"]);
    assert!(stdout.contains(&linked.display().to_string()), "{stdout}");
    let (code, stdout, stderr) = kubectl(&["releasex", "upgrade-preview", "--help"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("Usage: kubectl releasex upgrade-preview [OPTIONS] <RELEASE> <CHART>"), "{stdout}");
    let (code, stdout, stderr) = kubectl(&["releasex", "release", "history", "-f", "examples/demo-release.yaml", "-o", "json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("\"revisions\""), "{stdout}");
}
