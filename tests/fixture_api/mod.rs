//! The fixture Kubernetes API server of the tests, on 127.0.0.1 with an
//! OS-chosen port, in its own thread and runtime; stopped on drop. One
//! server for every test binary that needs one: the CLI tests
//! (`tests/cli/`), the kubectl differential tests
//! (`tests/patch_engine/kubectl_patch.rs`) and the upgrade-preview benchmark
//! (`benches/preview.rs`).
//!
//! What it serves, shaped like a real API server's answers:
//!
//! - legacy discovery: `/api`, `/apis` (plain JSON, so kubectl falls back
//!   from aggregated discovery), `/api/<version>` and
//!   `/apis/<group>/<version>` as `APIResourceList`s of the configured
//!   resource table ([`default_resources`] unless told otherwise);
//! - `/version` (Kubernetes 1.33.0 unless told otherwise);
//! - non-resource documents registered with [`FixtureApi::serve`] (OpenAPI
//!   v3 and the like); any other such path, `/openapi/v2` and `/openapi/v3`
//!   included, is a 404, so kubectl takes the patch metadata of built-in
//!   kinds from its compiled-in Go struct tags, like Helm;
//! - single objects (`GET .../namespaces/NS/PLURAL/NAME`, `.../PLURAL/NAME`);
//! - lists (`GET .../namespaces/NS/PLURAL` and cluster-wide `.../PLURAL`)
//!   honouring equality-based label selectors and pagination (`limit`, then
//!   the `continue` token of `metadata.continue`, with `remainingItemCount`),
//!   list items without kind/apiVersion as a real server sends them; a
//!   resource's lists can be made to fail ([`FixtureApi::fail`]), e.g. 403
//!   for a user who may `get` but not `list`;
//! - every answer optionally delayed ([`FixtureApi::set_latency`]), as a
//!   remote API server's round trip would be.
//!
//! Fault injection for the hostile tests ([`FixtureApi::fault`]): at a
//! given path the server can hang before the headers, stall mid-body, send
//! an endless body, answer any status (with `Retry-After`), or send any body
//! (malformed JSON, the wrong type); see [`Fault`].
//!
//! Every request is recorded (method, path, query, Content-Type, Accept,
//! body bytes, and the Kubernetes verb it amounts to). Writes depend on the
//! mode ([`Writes`]):
//!
//! - [`Writes::Refuse`] (the default, what releasex must live with): every
//!   method other than GET is answered 405; tests then check
//!   [`FixtureApi::assert_read_only`] (only `get` and `list` were asked).
//! - [`Writes::Record`] (the kubectl tests): a PATCH of a served object is
//!   answered 200 with the object unchanged (nothing is stored), so the test
//!   can read the patch bytes kubectl sent; other writes get a 404.

#![allow(dead_code)] // each test binary uses part of it

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    /// What the request amounts to for Kubernetes: `get`, `list`, `watch`,
    /// `create`, `update`, `patch`, `delete`, `deletecollection` (another
    /// HTTP method: its name in lower case).
    pub verb: String,
    pub content_type: Option<String>,
    pub accept: Option<String>,
    pub body: Vec<u8>,
}

/// How the server misbehaves at one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Reads the request and never answers (until the server stops).
    Hang,
    /// Sends 200, its headers and the start of a JSON list, then nothing.
    StallBody,
    /// Sends 200 and a JSON list that never ends.
    EndlessBody,
    /// The same in chunks of one byte each (a frame per byte on the wire).
    EndlessTinyChunks,
    /// Answers `code` with a Kubernetes Status, with `Retry-After: SECONDS`
    /// when given.
    Status { code: u16, retry_after: Option<u64> },
    /// Answers 200 with this body as `application/json`, whatever it is.
    Body(String),
}

/// The opening of the stalled and endless bodies.
const LIST_OPENING: &str = r#"{"kind":"SecretList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":["#;

/// A resource the server lists in discovery and serves objects of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `""` for the core group.
    pub group: &'static str,
    pub version: &'static str,
    /// Plural, e.g. `deployments`.
    pub name: &'static str,
    pub kind: &'static str,
    pub namespaced: bool,
    /// Subresources listed in discovery beside it (`deployments/status`);
    /// never served.
    pub subresources: &'static [&'static str],
}

impl ApiResource {
    fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.to_owned() } else { format!("{}/{}", self.group, self.version) }
    }

    fn prefix(&self) -> String {
        if self.group.is_empty() { format!("/api/{}", self.version) } else { format!("/apis/{}/{}", self.group, self.version) }
    }
}

/// The kinds a Helm chart commonly creates (each with a `status`
/// subresource in discovery): (group, version, kind, plural, namespaced).
const DEFAULT_RESOURCES: &[(&str, &str, &str, &str, bool)] = &[
    ("", "v1", "ConfigMap", "configmaps", true),
    ("", "v1", "Secret", "secrets", true),
    ("", "v1", "Service", "services", true),
    ("", "v1", "ServiceAccount", "serviceaccounts", true),
    ("", "v1", "Pod", "pods", true),
    ("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", true),
    ("", "v1", "Namespace", "namespaces", false),
    ("apps", "v1", "Deployment", "deployments", true),
    ("apps", "v1", "StatefulSet", "statefulsets", true),
    ("apps", "v1", "DaemonSet", "daemonsets", true),
    ("batch", "v1", "Job", "jobs", true),
    ("batch", "v1", "CronJob", "cronjobs", true),
    ("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false),
    ("rbac.authorization.k8s.io", "v1", "Role", "roles", true),
    ("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", true),
    ("networking.k8s.io", "v1", "Ingress", "ingresses", true),
    ("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", true),
    ("autoscaling", "v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true),
    ("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false),
    ("monitoring.coreos.com", "v1", "ServiceMonitor", "servicemonitors", true),
];

/// The default resource table: the kinds a Helm chart commonly creates.
pub fn default_resources() -> Vec<ApiResource> {
    DEFAULT_RESOURCES
        .iter()
        .map(|&(group, version, kind, name, namespaced)| ApiResource { group, version, name, kind, namespaced, subresources: &["status"] })
        .collect()
}

/// What the server does with requests other than GET.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Writes {
    /// Answer 405: the server is read-only.
    #[default]
    Refuse,
    /// Record them; a PATCH of a served object is answered with the object
    /// unchanged, other writes with 404.
    Record,
}

/// How to start a server; `Config::default()` is the read-only server of the
/// CLI tests.
#[derive(Debug, Clone)]
pub struct Config {
    pub resources: Vec<ApiResource>,
    /// Objects as the API returns them (`metadata.namespace` on namespaced
    /// ones).
    pub objects: Vec<Value>,
    pub writes: Writes,
    /// The Kubernetes version `/version` reports, e.g. `1.33.0`.
    pub version: String,
}

impl Default for Config {
    fn default() -> Config {
        Config { resources: default_resources(), objects: Vec::new(), writes: Writes::Refuse, version: "1.33.0".to_owned() }
    }
}

struct State {
    config: Config,
    requests: Vec<Recorded>,
    /// (resource, status code) to answer instead of a list.
    failures: Vec<(String, u16)>,
    /// Non-resource documents (e.g. OpenAPI) by path.
    documents: Vec<(String, Value)>,
    /// Added to every answer.
    latency: Duration,
    /// (path, fault, how many more requests it applies to; `None`: all).
    faults: Vec<(String, Fault, Option<usize>)>,
    /// Turns true when the server stops: hanging answers end then.
    stopping: tokio::sync::watch::Receiver<bool>,
}

impl State {
    /// The fault for a request to `path`, counting it against its uses.
    fn take_fault(&mut self, path: &str) -> Option<Fault> {
        let i = self.faults.iter().position(|(p, _, left)| p == path && *left != Some(0))?;
        let (_, fault, left) = &mut self.faults[i];
        if let Some(n) = left {
            *n -= 1;
        }
        Some(fault.clone())
    }
}

pub struct FixtureApi {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    stop_faults: tokio::sync::watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FixtureApi {
    /// A read-only server holding `objects`, with the default resources.
    pub fn start(objects: Vec<Value>) -> FixtureApi {
        FixtureApi::start_with(Config { objects, ..Config::default() })
    }

    pub fn start_with(config: Config) -> FixtureApi {
        let (stop_faults, stopping) = tokio::sync::watch::channel(false);
        let state = Arc::new(Mutex::new(State {
            config,
            requests: Vec::new(),
            failures: Vec::new(),
            documents: Vec::new(),
            latency: Duration::ZERO,
            faults: Vec::new(),
            stopping,
        }));
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
        FixtureApi { addr, state, shutdown: Some(tx), stop_faults, thread: Some(thread) }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Makes every list of `resource` (e.g. "secrets") fail with `code`.
    pub fn fail(&self, resource: &str, code: u16) {
        self.state.lock().unwrap().failures.push((resource.to_string(), code));
    }

    /// Delays every answer by `latency`, as a remote API server's round trip would.
    pub fn set_latency(&self, latency: Duration) {
        self.state.lock().unwrap().latency = latency;
    }

    /// Every request to `path` (the URL path, without the query) meets
    /// `fault` instead of its answer.
    pub fn fault(&self, path: &str, fault: Fault) {
        self.state.lock().unwrap().faults.push((path.to_string(), fault, None));
    }

    /// The next `times` requests to `path` meet `fault`; later ones are
    /// answered normally.
    pub fn fault_times(&self, path: &str, fault: Fault, times: usize) {
        self.state.lock().unwrap().faults.push((path.to_string(), fault, Some(times)));
    }

    /// Serves `body` at the non-resource `path` (e.g. `/openapi/v3`).
    pub fn serve(&self, path: &str, body: Value) {
        self.state.lock().unwrap().documents.push((path.to_string(), body));
    }

    /// The URL path of an object (`/apis/apps/v1/namespaces/ns/deployments/x`);
    /// panics when the server has no resource for its kind.
    pub fn object_path(&self, obj: &Value) -> String {
        let st = self.state.lock().unwrap();
        let res = resource_of(&st.config.resources, obj).unwrap_or_else(|| panic!("no resource for {} {}", obj["apiVersion"], obj["kind"]));
        let name = obj.pointer("/metadata/name").and_then(Value::as_str).expect("metadata.name");
        if res.namespaced {
            let ns = obj.pointer("/metadata/namespace").and_then(Value::as_str).expect("metadata.namespace");
            format!("{}/namespaces/{ns}/{}/{name}", res.prefix(), res.name)
        } else {
            format!("{}/{}/{name}", res.prefix(), res.name)
        }
    }

    /// Serves `obj` at its path (replacing an object with the same kind,
    /// name and namespace); returns the path.
    pub fn put_object(&self, obj: Value) -> String {
        let path = self.object_path(&obj);
        let mut st = self.state.lock().unwrap();
        st.config.objects.retain(|o| !same_object(o, &obj));
        st.config.objects.push(obj);
        path
    }

    /// Stops serving the object at `path`.
    pub fn remove_object(&self, path: &str) {
        let mut st = self.state.lock().unwrap();
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        if let Some(Target::Object { resource, namespace, name }) = target(&st.config.resources, &segments) {
            let (resource, namespace, name) = (resource.clone(), namespace.map(str::to_owned), name.to_owned());
            st.config.objects.retain(|o| !is_object(o, &resource, namespace.as_deref(), &name));
        }
    }

    /// Every request so far, in order.
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

    /// The requests with a method other than GET, in order.
    pub fn writes(&self) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.method != "GET").collect()
    }

    /// Fails the test unless every request was a GET that reads (`get` or
    /// `list`).
    pub fn assert_read_only(&self) {
        let writes: Vec<_> = self.requests().into_iter().filter(|r| r.method != "GET" || !matches!(r.verb.as_str(), "get" | "list")).collect();
        assert!(writes.is_empty(), "releasex sent requests other than GET and LIST: {writes:?}");
    }

    /// Writes a kubeconfig pointing at this server into `dir`; the current
    /// context `fixture` has namespace `context_namespace`, and a second
    /// context `other` has namespace `other-ns`.
    pub fn write_kubeconfig(&self, dir: &Path, context_namespace: &str) -> PathBuf {
        let path = dir.join("kubeconfig");
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: fixture\n  cluster:\n    server: {url}\ncontexts:\n- name: fixture\n  context:\n    cluster: fixture\n    user: tester\n    namespace: {context_namespace}\n- name: other\n  context:\n    cluster: fixture\n    user: tester\n    namespace: other-ns\ncurrent-context: fixture\nusers:\n- name: tester\n  user:\n    token: fixture-token\n",
            url = self.url()
        );
        std::fs::write(&path, text).expect("write kubeconfig");
        path
    }
}

impl Drop for FixtureApi {
    fn drop(&mut self) {
        // Hanging and endless answers end first, or the graceful shutdown would wait for them.
        let _ = self.stop_faults.send(true);
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Turns a kubectl-style object (as in the fixtures) into what the API server
/// stores: adds namespace, uid, resourceVersion, creationTimestamp and
/// managedFields.
pub fn as_served(mut obj: Value, namespace: &str, n: usize) -> Value {
    let meta = obj["metadata"].as_object_mut().expect("metadata");
    meta.insert("namespace".into(), json!(namespace));
    meta.insert("uid".into(), json!(format!("00000000-0000-0000-0000-{n:012}")));
    meta.insert("resourceVersion".into(), json!(format!("{}", 1000 + n)));
    meta.insert("creationTimestamp".into(), json!("2026-11-29T12:00:00Z"));
    meta.insert(
        "managedFields".into(),
        json!([{"manager": "helm", "operation": "Update", "apiVersion": "v1", "time": "2026-11-29T12:00:00Z",
                "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:release": {}}, "f:type": {}}}]),
    );
    obj
}

// --- routing -----------------------------------------------------------------

/// What a resource path names.
enum Target<'a> {
    /// One object; `namespace` is `None` on a cluster-scoped path.
    Object { resource: &'a ApiResource, namespace: Option<&'a str>, name: &'a str },
    /// A collection: in one namespace, or cluster-wide (`None`).
    List { resource: &'a ApiResource, namespace: Option<&'a str> },
}

/// Parses `/api/V/...` and `/apis/G/V/...` paths of the resources in the table.
fn target<'a>(resources: &'a [ApiResource], segments: &[&'a str]) -> Option<Target<'a>> {
    let (group, version, rest) = match segments {
        ["api", v, rest @ ..] => ("", *v, rest),
        ["apis", g, v, rest @ ..] => (*g, *v, rest),
        _ => return None,
    };
    let find = |plural: &str| resources.iter().find(|r| r.group == group && r.version == version && r.name == plural);
    match rest {
        ["namespaces", ns, plural, name] => Some(Target::Object { resource: find(plural)?, namespace: Some(ns), name }),
        ["namespaces", ns, plural] if find(plural).is_some_and(|r| r.namespaced) => {
            Some(Target::List { resource: find(plural)?, namespace: Some(ns) })
        }
        [plural, name] => Some(Target::Object { resource: find(plural)?, namespace: None, name }),
        [plural] => Some(Target::List { resource: find(plural)?, namespace: None }),
        _ => None,
    }
}

fn is_object(o: &Value, resource: &ApiResource, namespace: Option<&str>, name: &str) -> bool {
    o["kind"] == resource.kind
        && o["apiVersion"] == resource.api_version().as_str()
        && o.pointer("/metadata/name").and_then(Value::as_str) == Some(name)
        && o.pointer("/metadata/namespace").and_then(Value::as_str) == namespace
}

fn same_object(a: &Value, b: &Value) -> bool {
    a["kind"] == b["kind"]
        && a["apiVersion"] == b["apiVersion"]
        && a.pointer("/metadata/name") == b.pointer("/metadata/name")
        && a.pointer("/metadata/namespace") == b.pointer("/metadata/namespace")
}

fn resource_of<'a>(resources: &'a [ApiResource], obj: &Value) -> Option<&'a ApiResource> {
    let api_version = obj["apiVersion"].as_str()?;
    let kind = obj["kind"].as_str()?;
    resources.iter().find(|r| r.api_version() == api_version && r.kind == kind)
}

fn verb(method: &Method, query: Option<&str>, target: Option<&Target>) -> String {
    let collection = matches!(target, Some(Target::List { .. }));
    let watch = query.is_some_and(|q| q.split('&').any(|kv| kv == "watch=true" || kv == "watch=1"));
    match *method {
        Method::GET if collection && watch => "watch",
        Method::GET if collection => "list",
        Method::GET => "get",
        Method::POST => "create",
        Method::PUT => "update",
        Method::PATCH => "patch",
        Method::DELETE if collection => "deletecollection",
        Method::DELETE => "delete",
        ref other => return other.as_str().to_lowercase(),
    }
    .to_owned()
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
    let method = parts.method.clone();
    let path = parts.uri.path().to_owned();
    let query = parts.uri.query().map(str::to_owned);
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    // An answer may wait (latency), and a fault may never end, so the lock
    // is released first.
    let (delayed, fault, latency) = {
        let mut st = state.lock().unwrap();
        let found = target(&st.config.resources, &segments);
        let verb = verb(&method, query.as_deref(), found.as_ref());
        let object = match found {
            Some(Target::Object { resource, namespace, name }) if method == Method::GET && !st.documents.iter().any(|(p, _)| *p == path) => {
                Some(st.config.objects.iter().find(|o| is_object(o, resource, namespace, name)).cloned())
            }
            _ => None,
        };
        st.requests.push(Recorded {
            method: method.to_string(),
            path: path.clone(),
            query: query.clone(),
            verb,
            content_type: header_text(header::CONTENT_TYPE),
            accept: header_text(header::ACCEPT),
            body,
        });
        let fault = st.take_fault(&path).map(|f| (f, st.stopping.clone()));
        (object, fault, st.latency)
    };
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    if let Some((fault, stopping)) = fault {
        return misbehave(fault, stopping).await;
    }
    if let Some(found) = delayed {
        return match found {
            Some(o) => json_response(&o),
            None => status(404, "NotFound", "not found"),
        };
    }
    let st = state.lock().unwrap();
    if method != Method::GET {
        return match st.config.writes {
            Writes::Refuse => status(405, "MethodNotAllowed", "the fixture API server is read-only"),
            Writes::Record => {
                let patched = match target(&st.config.resources, &segments) {
                    Some(Target::Object { resource, namespace, name }) if method == Method::PATCH => {
                        st.config.objects.iter().find(|o| is_object(o, resource, namespace, name))
                    }
                    _ => None,
                };
                match patched {
                    Some(o) => json_response(o),
                    None => not_found(&path),
                }
            }
        };
    }
    if let Some((_, body)) = st.documents.iter().find(|(p, _)| *p == path) {
        return json_response(body);
    }
    if let Some(answer) = discovery(&st.config, &segments) {
        return answer;
    }
    if segments == ["version"] {
        let version = &st.config.version;
        let mut numbers = version.split('.');
        let (major, minor) = (numbers.next().unwrap_or("1"), numbers.next().unwrap_or("33"));
        return json_response(&json!({
            "major": major, "minor": minor, "gitVersion": format!("v{version}"), "gitCommit": "fixture",
            "gitTreeState": "clean", "buildDate": "2025-04-22T00:00:00Z", "goVersion": "go1.23.8",
            "compiler": "gc", "platform": "linux/amd64"
        }));
    }
    let Some(Target::List { resource, namespace }) = target(&st.config.resources, &segments) else {
        return not_found(&path);
    };
    list(&st, resource, namespace, query.as_deref())
}

/// The answer of a [`Fault`]; whatever never ends, ends when the server stops.
async fn misbehave(fault: Fault, mut stopping: tokio::sync::watch::Receiver<bool>) -> Response {
    use futures::StreamExt as _;
    let stopped = async move {
        let _ = stopping.wait_for(|stop| *stop).await;
    };
    let streamed = |body: Body| ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    match fault {
        Fault::Hang => {
            stopped.await;
            status(503, "ServiceUnavailable", "the fixture server is stopping")
        }
        Fault::StallBody => {
            let opening = futures::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from_static(LIST_OPENING.as_bytes()))]);
            let never = futures::stream::once(stopped).filter_map(|()| async { None::<Result<axum::body::Bytes, std::io::Error>> });
            streamed(Body::from_stream(opening.chain(never)))
        }
        Fault::EndlessBody => {
            let item = r#"{"metadata":{"name":"endless","labels":{"owner":"helm"}}},"#;
            let chunk = axum::body::Bytes::from(item.repeat((64 << 10) / item.len()));
            let opening = futures::stream::iter([axum::body::Bytes::from_static(LIST_OPENING.as_bytes())]);
            let forever = opening.chain(futures::stream::repeat(chunk)).map(Ok::<_, std::io::Error>).take_until(stopped);
            streamed(Body::from_stream(forever))
        }
        Fault::EndlessTinyChunks => {
            let forever = futures::stream::repeat(axum::body::Bytes::from_static(b" ")).map(Ok::<_, std::io::Error>).take_until(stopped);
            streamed(Body::from_stream(forever))
        }
        Fault::Status { code, retry_after } => {
            let reason = StatusCode::from_u16(code).ok().and_then(|c| c.canonical_reason()).unwrap_or("Unknown").replace(' ', "");
            let mut answer = status(code, &reason, &format!("the fixture server answers {code}"));
            if let Some(seconds) = retry_after {
                answer.headers_mut().insert(header::RETRY_AFTER, seconds.into());
            }
            answer
        }
        Fault::Body(text) => ([(header::CONTENT_TYPE, "application/json")], text).into_response(),
    }
}

/// A list of `resource` in `namespace` (all namespaces when `None`), or the
/// failure set for it.
fn list(st: &State, resource: &ApiResource, namespace: Option<&str>, query: Option<&str>) -> Response {
    let plural = resource.name;
    if let Some((_, code)) = st.failures.iter().find(|(r, _)| r == plural) {
        let group = resource.group;
        let scope = namespace.map_or("at the cluster scope".to_owned(), |ns| format!("in the namespace \"{ns}\""));
        let (reason, message) = match code {
            401 => ("Unauthorized", "Unauthorized".to_string()),
            403 => ("Forbidden", format!("{plural} is forbidden: User \"tester\" cannot list resource \"{plural}\" in API group \"{group}\" {scope}")),
            404 => ("NotFound", format!("namespaces \"{}\" not found", namespace.unwrap_or_default())),
            _ => ("InternalError", "boom".to_string()),
        };
        return status(*code, reason, &message);
    }
    let param = |name: &str| query.and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))).map(percent_decode);
    let selector = param("labelSelector").unwrap_or_default();
    let mut items: Vec<Value> = st
        .config
        .objects
        .iter()
        .filter(|o| o["kind"] == resource.kind && o["apiVersion"] == resource.api_version().as_str())
        .filter(|o| namespace.is_none() || o.pointer("/metadata/namespace").and_then(Value::as_str) == namespace)
        .filter(|o| matches_selector(o, &selector))
        .map(|o| {
            // A real server omits kind/apiVersion on list items.
            let mut o = o.clone();
            if let Some(m) = o.as_object_mut() {
                m.remove("kind");
                m.remove("apiVersion");
            }
            o
        })
        .collect();
    // Pagination as the API server does it: `limit` items, and a `continue`
    // token (opaque to clients; here the offset, base64 like the real ones)
    // while more remain.
    let offset = match param("continue") {
        Some(token) => match decode_continue(&token) {
            Some(offset) => offset,
            None => return status(400, "BadRequest", "continue key is not valid"),
        },
        None => 0,
    };
    let mut metadata = json!({"resourceVersion": "48213"});
    if let Some(limit) = param("limit").and_then(|l| l.parse::<usize>().ok()).filter(|l| *l > 0) {
        let end = (offset + limit).min(items.len());
        let remaining = items.len() - end;
        items = items.drain(offset.min(end)..end).collect();
        if remaining > 0 {
            metadata["continue"] = json!(encode_continue(end));
            metadata["remainingItemCount"] = json!(remaining);
        }
    }
    json_response(&json!({
        "kind": format!("{}List", resource.kind),
        "apiVersion": resource.api_version(),
        "metadata": metadata,
        "items": items,
    }))
}

fn encode_continue(offset: usize) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(format!("{{\"v\":\"meta.k8s.io/v1\",\"offset\":{offset}}}"))
}

fn decode_continue(token: &str) -> Option<usize> {
    use base64::Engine as _;
    let text = base64::engine::general_purpose::STANDARD.decode(token).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    v["offset"].as_u64().map(|o| o as usize)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Equality-based selectors: `k=v`, `k==v`, `k!=v`, `k`, `!k`, comma-joined.
fn matches_selector(obj: &Value, selector: &str) -> bool {
    let labels = obj.pointer("/metadata/labels").and_then(Value::as_object);
    let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    selector.split(',').filter(|t| !t.is_empty()).all(|term| {
        if let Some((k, v)) = term.split_once("!=") {
            get(k) != Some(v)
        } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
            get(k) == Some(v)
        } else if let Some(k) = term.strip_prefix('!') {
            get(k).is_none()
        } else {
            get(term).is_some()
        }
    })
}

/// `/api`, `/apis`, `/api/VERSION`, `/apis/GROUP/VERSION` as a real server
/// answers them (legacy discovery); `None` for other paths.
fn discovery(config: &Config, segments: &[&str]) -> Option<Response> {
    let resources = &config.resources;
    match segments {
        ["api"] => Some(json_response(&json!({
            "kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]
        }))),
        ["apis"] => {
            let mut groups: Vec<(&str, &str)> = Vec::new();
            for r in resources.iter().filter(|r| !r.group.is_empty()) {
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
            Some(json_response(&json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})))
        }
        ["api", version] => Some(resource_list(resources, "", version)),
        ["apis", group, version] => Some(resource_list(resources, group, version)),
        _ => None,
    }
}

fn resource_list(resources: &[ApiResource], group: &str, version: &str) -> Response {
    let list: Vec<Value> = resources
        .iter()
        .filter(|r| r.group == group && r.version == version)
        .flat_map(|r| {
            let main = json!({
                "name": r.name, "singularName": r.kind.to_lowercase(), "namespaced": r.namespaced, "kind": r.kind,
                "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
            });
            let subs = r.subresources.iter().map(move |s| {
                json!({"name": format!("{}/{s}", r.name), "singularName": "", "namespaced": r.namespaced, "kind": r.kind, "verbs": ["get", "patch", "update"]})
            });
            std::iter::once(main).chain(subs)
        })
        .collect();
    if list.is_empty() {
        let path = if group.is_empty() { format!("/api/{version}") } else { format!("/apis/{group}/{version}") };
        return not_found(&path);
    }
    let gv = if group.is_empty() { version.to_owned() } else { format!("{group}/{version}") };
    json_response(&json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list}))
}
