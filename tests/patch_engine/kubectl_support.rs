//! What the kubectl differential tests need besides the generator: the
//! fixture API server (`tests/fixture_api`) set up for kubectl to `apply`
//! against, and helpers to run the real `kubectl`.
//!
//! The server records writes ([`Writes::Record`]: a PATCH is recorded, headers
//! and body bytes, and answered 200 with the served object, unchanged). It
//! serves legacy discovery only (`/api`, `/apis` as plain JSON, so kubectl
//! falls back from aggregated discovery; `/api/v1` and
//! `/apis/<group>/<version>` as `APIResourceList`s of [`kubectl_resources`])
//! and answers 404 for `/openapi/v2` and `/openapi/v3`, so kubectl takes the
//! patch metadata of built-in kinds from its compiled-in Go struct tags,
//! like Helm. `/version` reports 1.32.4 (or
//! `$RELEASEX_KUBECTL_SERVER_VERSION`): the kubectl on this machine is
//! gcloud's dispatcher, which runs the kubectl release that matches the
//! server (kubectl.1.33 for a 1.33 server, its own 1.32 for 1.32).

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::fixture_api::{ApiResource, Config, FixtureApi, Writes};

/// The resources of the generated cases (and Namespaces, which kubectl may
/// look up).
pub fn kubectl_resources() -> Vec<ApiResource> {
    let r = |group, version, name, kind, namespaced| ApiResource { group, version, name, kind, namespaced, subresources: &[] };
    vec![
        r("", "v1", "namespaces", "Namespace", false),
        r("", "v1", "configmaps", "ConfigMap", true),
        r("", "v1", "services", "Service", true),
        r("apps", "v1", "deployments", "Deployment", true),
        r("monitoring.coreos.com", "v1", "servicemonitors", "ServiceMonitor", true),
    ]
}

/// The fixture API server for `kubectl apply`: [`kubectl_resources`],
/// writes recorded, `/version` [`server_version`].
pub fn kubectl_server() -> FixtureApi {
    FixtureApi::start_with(Config { resources: kubectl_resources(), writes: Writes::Record, version: server_version(), ..Config::default() })
}

/// The kubectl binary: `$RELEASEX_KUBECTL`, else `kubectl` on the PATH.
pub fn kubectl_bin() -> String {
    std::env::var("RELEASEX_KUBECTL").unwrap_or_else(|_| "kubectl".to_owned())
}

/// Whether the kubectl binary runs at all (the tests skip, loudly, when not).
pub fn kubectl_available() -> bool {
    Command::new(kubectl_bin()).args(["version", "--client"]).output().map(|o| o.status.success()).unwrap_or(false)
}

/// The Kubernetes version the fixture server reports on `/version`:
/// `$RELEASEX_KUBECTL_SERVER_VERSION`, else 1.32.4. (A kubectl that is
/// gcloud's dispatcher runs the kubectl release matching the server's.)
pub fn server_version() -> String {
    std::env::var("RELEASEX_KUBECTL_SERVER_VERSION").unwrap_or_else(|_| "1.32.4".to_owned())
}

/// The client version kubectl reports (`clientVersion.gitVersion`), asking
/// the server when a kubeconfig is given (so a dispatcher reports the
/// release it actually runs).
pub fn kubectl_version(home: &Path, kubeconfig: Option<&Path>) -> String {
    let mut c = kubectl(home, kubeconfig);
    c.args(["version", "-o", "json"]);
    if kubeconfig.is_none() {
        c.arg("--client");
    }
    c.output()
        .ok()
        .and_then(|o| serde_json::from_slice::<Value>(&o.stdout).ok())
        .and_then(|v| v.pointer("/clientVersion/gitVersion").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| "unknown version".to_owned())
}

/// A kubectl command with a clean environment: only PATH, HOME (a temp
/// dir, so its discovery cache is the test's own) and KUBECONFIG.
pub fn kubectl(home: &Path, kubeconfig: Option<&Path>) -> Command {
    let mut c = Command::new(kubectl_bin());
    c.env_clear();
    c.env("PATH", std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".to_owned()));
    c.env("HOME", home);
    match kubeconfig {
        Some(k) => c.env("KUBECONFIG", k),
        None => c.env("KUBECONFIG", home.join("no-kubeconfig")),
    };
    c
}

pub fn output_text(o: &Output) -> String {
    format!("status: {}\nstdout:\n{}\nstderr:\n{}", o.status, String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
