//! What the kubectl differential tests need besides the generator: a fixture
//! Kubernetes API server that kubectl can `apply` against (discovery, GET of
//! one object, PATCH recorded byte for byte), a kubeconfig for it, and
//! helpers to run the real `kubectl`.
//!
//! The server serves legacy discovery only (`/api`, `/apis` as plain JSON, so
//! kubectl falls back from aggregated discovery; `/api/v1` and
//! `/apis/<group>/<version>` as `APIResourceList`s) and answers 404 for
//! `/openapi/v2` and `/openapi/v3`, so kubectl takes the patch metadata of
//! built-in kinds from its compiled-in Go struct tags, like Helm. `/version`
//! reports 1.32.4 (or `$RELEASEX_KUBECTL_SERVER_VERSION`): the kubectl on
//! this machine is gcloud's dispatcher, which runs the kubectl release that
//! matches the server (kubectl.1.33 for a 1.33 server, its own 1.32 for
//! 1.32).
//!
//! Objects are served from memory by URL path; a PATCH is recorded (headers
//! and body bytes) and answered 200 with the served object, unchanged.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub content_type: Option<String>,
    pub accept: Option<String>,
    pub body: Vec<u8>,
}

/// A resource the server lists in discovery.
#[derive(Debug, Clone)]
pub struct ApiResource {
    /// `""` for the core group.
    pub group: &'static str,
    pub version: &'static str,
    /// Plural, e.g. `deployments`.
    pub name: &'static str,
    pub kind: &'static str,
    pub namespaced: bool,
}

/// The resources of the generated cases (and Namespaces, which kubectl may
/// look up).
pub fn default_resources() -> Vec<ApiResource> {
    vec![
        ApiResource { group: "", version: "v1", name: "namespaces", kind: "Namespace", namespaced: false },
        ApiResource { group: "", version: "v1", name: "configmaps", kind: "ConfigMap", namespaced: true },
        ApiResource { group: "", version: "v1", name: "services", kind: "Service", namespaced: true },
        ApiResource { group: "apps", version: "v1", name: "deployments", kind: "Deployment", namespaced: true },
        ApiResource { group: "monitoring.coreos.com", version: "v1", name: "servicemonitors", kind: "ServiceMonitor", namespaced: true },
    ]
}

#[derive(Default)]
struct State {
    resources: Vec<ApiResource>,
    /// URL path of an object -> the object served on GET.
    objects: HashMap<String, Value>,
    requests: Vec<Recorded>,
}

/// The fixture API server, on 127.0.0.1 with an OS-chosen port, in its own
/// thread and runtime; stopped on drop.
pub struct FixtureServer {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FixtureServer {
    pub fn start(resources: Vec<ApiResource>) -> FixtureServer {
        let state = Arc::new(Mutex::new(State { resources, ..State::default() }));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let shared = state.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                let app = Router::new().fallback(move |req: Request<Body>| handle(shared.clone(), req));
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await;
            });
        });
        FixtureServer { addr, state, shutdown: Some(tx), thread: Some(thread) }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL path of an object (`/apis/apps/v1/namespaces/ns/deployments/x`).
    pub fn object_path(&self, obj: &Value) -> String {
        let api_version = obj["apiVersion"].as_str().expect("apiVersion");
        let kind = obj["kind"].as_str().expect("kind");
        let st = self.state.lock().unwrap();
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let res = st
            .resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.kind == kind)
            .unwrap_or_else(|| panic!("no resource for {api_version} {kind}"));
        let prefix = if group.is_empty() { format!("/api/{version}") } else { format!("/apis/{group}/{version}") };
        let name = obj.pointer("/metadata/name").and_then(Value::as_str).expect("metadata.name");
        if res.namespaced {
            let ns = obj.pointer("/metadata/namespace").and_then(Value::as_str).expect("metadata.namespace");
            format!("{prefix}/namespaces/{ns}/{}/{name}", res.name)
        } else {
            format!("{prefix}/{}/{name}", res.name)
        }
    }

    /// Serves `obj` at its path on GET (and as the answer to a PATCH).
    pub fn put_object(&self, obj: Value) -> String {
        let path = self.object_path(&obj);
        self.state.lock().unwrap().objects.insert(path.clone(), obj);
        path
    }

    pub fn remove_object(&self, path: &str) {
        self.state.lock().unwrap().objects.remove(path);
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn clear_requests(&self) {
        self.state.lock().unwrap().requests.clear();
    }

    /// The requests to `path` (any method), in order.
    pub fn requests_for(&self, path: &str) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.iter().filter(|r| r.path == path).cloned().collect()
    }

    /// Writes a kubeconfig pointing at this server into `dir`.
    pub fn write_kubeconfig(&self, dir: &Path) -> PathBuf {
        let path = dir.join("kubeconfig");
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: fixture\n  cluster:\n    server: {url}\ncontexts:\n- name: fixture\n  context:\n    cluster: fixture\n    user: tester\n    namespace: default\ncurrent-context: fixture\nusers:\n- name: tester\n  user:\n    token: fixture-token\n",
            url = self.url()
        );
        std::fs::write(&path, text).expect("write kubeconfig");
        path
    }
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn status(code: u16, reason: &str, message: &str) -> Response {
    let body = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "message": message, "reason": reason, "code": code
    });
    (StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), axum::Json(body)).into_response()
}

fn not_found(path: &str) -> Response {
    status(404, "NotFound", &format!("the server could not find the requested resource ({path})"))
}

fn json_response(v: &Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], serde_json::to_vec(v).expect("json")).into_response()
}

async fn handle(state: Arc<Mutex<State>>, req: Request<Body>) -> Response {
    let (parts, body) = req.into_parts();
    let body = to_bytes(body, 64 << 20).await.map(|b| b.to_vec()).unwrap_or_default();
    let header_text = |name: header::HeaderName| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let path = parts.uri.path().to_owned();
    let mut st = state.lock().unwrap();
    st.requests.push(Recorded {
        method: parts.method.to_string(),
        path: path.clone(),
        query: parts.uri.query().map(str::to_owned),
        content_type: header_text(header::CONTENT_TYPE),
        accept: header_text(header::ACCEPT),
        body,
    });
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.method == Method::GET {
        match segments.as_slice() {
            ["api"] => {
                return json_response(&json!({
                    "kind": "APIVersions", "versions": ["v1"],
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]
                }));
            }
            ["apis"] => {
                let mut groups: Vec<(&str, &str)> = Vec::new();
                for r in st.resources.iter().filter(|r| !r.group.is_empty()) {
                    if !groups.contains(&(r.group, r.version)) {
                        groups.push((r.group, r.version));
                    }
                }
                let groups: Vec<Value> = groups
                    .iter()
                    .map(|(g, v)| {
                        let gv = json!({"groupVersion": format!("{g}/{v}"), "version": v});
                        json!({"name": g, "versions": [gv.clone()], "preferredVersion": gv})
                    })
                    .collect();
                return json_response(&json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}));
            }
            ["api", version] => return resource_list(&st.resources, "", version),
            ["apis", group, version] => return resource_list(&st.resources, group, version),
            ["version"] => {
                // The gcloud kubectl dispatcher picks the kubectl release
                // matching this.
                let version = server_version();
                let mut parts = version.split('.');
                let (major, minor) = (parts.next().unwrap_or("1"), parts.next().unwrap_or("32"));
                return json_response(&json!({
                    "major": major, "minor": minor, "gitVersion": format!("v{version}"), "gitCommit": "fixture",
                    "gitTreeState": "clean", "buildDate": "2025-04-22T00:00:00Z", "goVersion": "go1.23.8",
                    "compiler": "gc", "platform": "linux/amd64"
                }));
            }
            _ => {}
        }
    }
    if matches!(parts.method, Method::GET | Method::PATCH)
        && let Some(obj) = st.objects.get(&path)
    {
        return json_response(obj);
    }
    not_found(&path)
}

fn resource_list(resources: &[ApiResource], group: &str, version: &str) -> Response {
    let list: Vec<Value> = resources
        .iter()
        .filter(|r| r.group == group && r.version == version)
        .map(|r| {
            json!({
                "name": r.name, "singularName": r.kind.to_lowercase(), "namespaced": r.namespaced,
                "kind": r.kind,
                "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
            })
        })
        .collect();
    if list.is_empty() {
        return not_found(&format!("/apis/{group}/{version}"));
    }
    let gv = if group.is_empty() { version.to_owned() } else { format!("{group}/{version}") };
    json_response(&json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list}))
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
