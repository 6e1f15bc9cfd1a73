//! `scripts/release.sh` run once per test process on the already-built
//! binary (`--binary`, so no release build): the archive layout, checksums,
//! the krew manifest against krew's rules, the Helm plugin tarball; and the
//! plugin's install hook against a static HTTP server on 127.0.0.1 serving
//! those archives: it installs a verified download and refuses a wrong or
//! missing checksum. The real Helm 3 and 4 tests (`real_plugins.rs`) reuse
//! the same artefacts and server.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The URLs the manifests name (the real release location).
const BASE: &str = "https://github.com/releasex/releasex/releases/download";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn archive_name() -> String {
    format!("kubectl-releasex_v{VERSION}_linux_amd64.tar.gz")
}

/// A throwaway GnuPG signing key (`gpg`, which .ci/run installs), exported
/// as the legacy keyrings Helm reads: (directory, secring.gpg, pubring.gpg).
pub fn signing_key() -> &'static (tempfile::TempDir, PathBuf, PathBuf) {
    static KEY: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    KEY.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("gnupg");
        std::fs::create_dir(&home).unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
        let gpg = |args: &[&str]| {
            let out = Command::new("gpg").args(["--batch", "--pinentry-mode", "loopback", "--passphrase", ""]).args(args).env("GNUPGHOME", &home).output().expect("gpg (apt-get install gnupg)");
            assert!(out.status.success(), "gpg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            out.stdout
        };
        gpg(&["--quick-gen-key", SIGNER, "rsa2048", "sign", "never"]);
        let (secret, public) = (dir.path().join("secring.gpg"), dir.path().join("pubring.gpg"));
        std::fs::write(&secret, gpg(&["--export-secret-keys"])).unwrap();
        std::fs::write(&public, gpg(&["--export"])).unwrap();
        (dir, secret, public)
    })
}

/// Who signs the test release.
pub const SIGNER: &str = "releasex test <test@releasex.invalid>";

/// The release directory, made once (about 3 s: strip, tar, gzip, helm
/// plugin package signed with [`signing_key`]).
pub fn dist() -> &'static Path {
    static DIST: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIST.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (_, secret, _) = signing_key();
        let out = Command::new(root().join("scripts/release.sh"))
            .env("RELEASEX_SIGN_KEY", SIGNER)
            .env("RELEASEX_KEYRING", secret)
            .args(["--target", "x86_64-unknown-linux-gnu", "--base-url", BASE, "--out"])
            .arg(dir.path())
            .arg("--binary")
            .arg(assert_cmd::cargo::cargo_bin("kubectl-releasex"))
            .env("HELM", crate::support::real_helm("helm4"))
            .output()
            .unwrap();
        assert!(out.status.success(), "release.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let printed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(printed.trim(), dir.path().join(archive_name()).display().to_string());
        dir
    })
    .path()
}

/// A static file server on 127.0.0.1 for `dist()`: GET /vX.Y.Z/FILE serves
/// FILE; anything else is 404. Records each path asked.
pub struct Downloads {
    pub base: String,
    pub asked: Arc<Mutex<Vec<String>>>,
}

pub fn downloads() -> &'static Downloads {
    static SERVER: OnceLock<Downloads> = OnceLock::new();
    SERVER.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = asked.clone();
        let dir = dist().to_path_buf();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                // Read the headers to their end before answering.
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
                log.lock().unwrap().push(path.clone());
                let file = path.strip_prefix(&format!("/v{VERSION}/")).filter(|f| !f.contains('/')).map(|f| dir.join(f));
                let mut stream = stream;
                match file.and_then(|f| std::fs::read(f).ok()) {
                    Some(body) => {
                        let _ = write!(stream, "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
                        let _ = stream.write_all(&body);
                    }
                    None => {
                        let _ = write!(stream, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    }
                }
            }
        });
        Downloads { base, asked }
    })
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()))
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap().to_string()
}

fn listing(archive: &Path) -> Vec<String> {
    let out = Command::new("tar").arg("-tzf").arg(archive).output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// krew's rules for a plugin manifest (krew: internal/index/validation/validate.go
/// ValidatePlugin, and strict decoding of index.Plugin), and that each
/// platform's archive is the one in `dist` with that sha256.
fn check_krew_manifest(m: &Value, dist: &Path) {
    assert_eq!(m["apiVersion"], "krew.googlecontainertools.github.com/v1alpha2");
    assert_eq!(m["kind"], "Plugin");
    assert_eq!(keys(m), ["apiVersion", "kind", "metadata", "spec"]);
    assert_eq!(m["metadata"]["name"], "releasex", "the name is the file name and the kubectl-<name> binary");
    let spec = &m["spec"];
    for k in keys(spec) {
        assert!(["version", "homepage", "shortDescription", "description", "caveats", "platforms"].contains(&k.as_str()), "unknown spec key {k}");
    }
    let short = spec["shortDescription"].as_str().unwrap();
    assert!(!short.is_empty() && !short.contains(['\r', '\n']) && short.len() <= 80, "{short}");
    assert!(spec["description"].as_str().is_some_and(|d| !d.trim().is_empty()));
    let version = spec["version"].as_str().unwrap();
    let bare = version.strip_prefix('v').expect("krew versions start with v");
    assert_eq!(semver::Version::parse(bare).unwrap().to_string(), VERSION, "same version as the crate");
    assert!(spec["caveats"].as_str().unwrap().contains("kubectl_complete-releasex"));
    let platforms = spec["platforms"].as_array().unwrap();
    assert!(!platforms.is_empty());
    for p in platforms {
        for k in keys(p) {
            assert!(["selector", "uri", "sha256", "files", "bin"].contains(&k.as_str()), "unknown platform key {k}");
        }
        let labels = p["selector"]["matchLabels"].as_object().expect("matchLabels");
        assert!(!labels.is_empty() && labels.keys().all(|k| k == "os" || k == "arch"), "{labels:?}");
        let (os, arch) = (labels["os"].as_str().unwrap(), labels["arch"].as_str().unwrap());
        let uri = p["uri"].as_str().unwrap();
        let file = format!("kubectl-releasex_{version}_{os}_{arch}.{}", if os == "windows" { "zip" } else { "tar.gz" });
        assert_eq!(uri, format!("{BASE}/{version}/{file}"), "https, and the archive named for its platform");
        let sha = p["sha256"].as_str().unwrap();
        assert!(sha.len() == 64 && sha.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)), "{sha}");
        assert_eq!(sha, sha256(&dist.join(&file)), "{file}");
        let bin = p["bin"].as_str().unwrap();
        assert_eq!(bin, if os == "windows" { "kubectl-releasex.exe" } else { "kubectl-releasex" });
        // krew: every `from` must match a file of the archive.
        let contents = listing(&dist.join(&file));
        for f in p["files"].as_array().unwrap() {
            let from = f["from"].as_str().unwrap();
            assert!(f["to"].as_str().is_some_and(|s| !s.is_empty()));
            assert!(contents.iter().any(|c| c == from), "{from} is not in {file}: {contents:?}");
        }
    }
}

#[test]
fn release_script_writes_a_verified_archive_checksums_and_a_krew_manifest_by_krews_rules() {
    let dist = dist();
    let archive = dist.join(archive_name());
    assert_eq!(listing(&archive), ["kubectl-releasex", "LICENSE"], "flat: the binary and the licence");
    // checksums.txt: sha256sum's format, one line per archive, matching the files.
    let sums = std::fs::read_to_string(dist.join("checksums.txt")).unwrap();
    assert_eq!(sums, format!("{}  {}\n", sha256(&archive), archive_name()));
    let check = Command::new("sha256sum").arg("--check").arg("checksums.txt").current_dir(dist).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    check_krew_manifest(&yaml(&dist.join("releasex.yaml")), dist);
    // The packed binary runs and is the crate's version; the licence is the repository's.
    let unpacked = tempfile::tempdir().unwrap();
    assert!(Command::new("tar").arg("-xzf").arg(&archive).arg("-C").arg(unpacked.path()).status().unwrap().success());
    let version = Command::new(unpacked.path().join("kubectl-releasex")).arg("--version").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&version.stdout), format!("kubectl-releasex {VERSION} (Helm 4.2 semantics)\n"));
    assert_eq!(std::fs::read(unpacked.path().join("LICENSE")).unwrap(), std::fs::read(root().join("LICENSE")).unwrap());
    assert!(std::fs::read_to_string(root().join("LICENSE")).unwrap().contains("Apache License\n                           Version 2.0"));
    // The Helm plugin: the checkout's files plus the checksums its hook verifies, packed by real Helm 4.
    let plugin = dist.join("helm-plugin");
    assert_eq!(std::fs::read(plugin.join("plugin.yaml")).unwrap(), std::fs::read(root().join("plugin.yaml")).unwrap());
    assert_eq!(std::fs::read_to_string(plugin.join("plugins/checksums.txt")).unwrap(), sums);
    let packed = listing(&dist.join(format!("preview-{VERSION}.tgz")));
    for f in ["preview/plugin.yaml", "preview/scripts/install-plugin.sh", "preview/plugins/checksums.txt", "preview/plugin.complete"] {
        assert!(packed.iter().any(|p| p == f), "{f} not in the plugin tarball: {packed:?}");
    }
    // Signed: real Helm 4 verifies the .prov against the public key.
    let verify = Command::new(crate::support::real_helm("helm4"))
        .args(["plugin", "verify"])
        .arg(dist.join(format!("preview-{VERSION}.tgz")))
        .arg("--keyring")
        .arg(&signing_key().2)
        .env("HOME", dist)
        .output()
        .unwrap();
    assert!(verify.status.success() && String::from_utf8_lossy(&verify.stdout).contains(&format!("Signed by: {SIGNER}")), "{}", String::from_utf8_lossy(&verify.stderr));
}

/// A checkout of the plugin as the release leaves it, in `releasex/` of a
/// temporary directory (Helm 4 names the installed plugin after the
/// directory and skips hidden ones, such as tempfile's `.tmpXXXX`).
pub struct Checkout {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
}

impl Checkout {
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

pub fn plugin_checkout() -> Checkout {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("releasex");
    let copy = Command::new("cp").arg("-r").arg(dist().join("helm-plugin")).arg(&dir).status().unwrap();
    assert!(copy.success());
    Checkout { _tmp: tmp, dir }
}

fn run_hook(dir: &Path, base: &str) -> std::process::Output {
    Command::new(dir.join("scripts/install-plugin.sh"))
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HELM_PLUGIN_DIR", dir)
        .env("RELEASEX_DOWNLOAD_BASE", base)
        .output()
        .unwrap()
}

#[test]
fn install_hook_downloads_the_platform_archive_and_installs_it_when_its_sha256_matches() {
    let server = downloads();
    let dir = plugin_checkout();
    let out = run_hook(dir.path(), &server.base);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let installed = dir.path().join("bin/kubectl-releasex");
    let version = Command::new(&installed).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).contains(&format!(" {VERSION} ")));
    assert!(server.asked.lock().unwrap().contains(&format!("/v{VERSION}/{}", archive_name())));
}

#[test]
fn install_hook_refuses_an_archive_whose_sha256_differs_and_installs_nothing() {
    let server = downloads();
    let dir = plugin_checkout();
    let sums = dir.path().join("plugins/checksums.txt");
    let wrong = format!("{}  {}\n", "0".repeat(64), archive_name());
    std::fs::write(&sums, &wrong).unwrap();
    let out = run_hook(dir.path(), &server.base);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("but {} says {}: not installed", sums.display(), "0".repeat(64))), "{stderr}");
    assert!(!dir.path().join("bin/kubectl-releasex").exists(), "nothing installed");
}

#[test]
fn install_hook_without_a_checksum_for_the_platform_downloads_nothing_and_says_how_to_build() {
    let dir = plugin_checkout();
    std::fs::remove_file(dir.path().join("plugins/checksums.txt")).unwrap();
    // Port 9 (discard): any download attempt would fail differently.
    let out = run_hook(dir.path(), "http://127.0.0.1:9/none");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("no sha256 for {}", archive_name())) && stderr.contains("RELEASEX_BUILD=1"), "{stderr}");
    assert!(!dir.path().join("bin/kubectl-releasex").exists());
}

#[test]
fn install_hook_keeps_a_binary_of_the_right_version_without_network() {
    let dir = plugin_checkout();
    std::fs::create_dir_all(dir.path().join("bin")).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin("kubectl-releasex"), dir.path().join("bin/kubectl-releasex")).unwrap();
    let out = run_hook(dir.path(), "http://127.0.0.1:9/none");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}
