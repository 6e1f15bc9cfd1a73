//! A fixture Kubernetes API server on 127.0.0.1 for CLI tests: serves Secrets
//! and ConfigMaps shaped like a real API server's responses, honours label
//! selectors, records every request, and answers any verb other than GET
//! with 405 (tests then assert that none was sent).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
}

#[derive(Default)]
struct State {
    objects: Vec<Value>,
    requests: Vec<RecordedRequest>,
    /// (resource, status code) to answer instead of serving.
    failures: Vec<(String, u16)>,
    /// Non-resource documents (e.g. OpenAPI) by path.
    documents: Vec<(String, Value)>,
    /// Added to every single-object GET (benchmarks).
    latency: std::time::Duration,
}

pub struct FakeApi {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeApi {
    /// Starts a server holding `objects` (Secrets and ConfigMaps as the API
    /// returns them, with `metadata.namespace`).
    pub fn start(objects: Vec<Value>) -> FakeApi {
        let state = Arc::new(Mutex::new(State { objects, ..State::default() }));
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
                let _ = axum::serve(listener, app).with_graceful_shutdown(async { let _ = rx.await; }).await;
            });
        });
        FakeApi { addr, state, shutdown: Some(tx), thread: Some(thread) }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Makes every request for `resource` (e.g. "secrets") fail with `code`.
    pub fn fail(&self, resource: &str, code: u16) {
        self.state.lock().unwrap().failures.push((resource.to_string(), code));
    }

    /// Delays every single-object GET by `latency`, as a remote API server would.
    #[allow(dead_code)] // used by the benchmark
    pub fn set_latency(&self, latency: std::time::Duration) {
        self.state.lock().unwrap().latency = latency;
    }

    /// Serves `body` at the non-resource `path` (e.g. `/openapi/v3`).
    pub fn serve(&self, path: &str, body: Value) {
        self.state.lock().unwrap().documents.push((path.to_string(), body));
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.lock().unwrap().requests.clone()
    }

    /// Fails the test if any request used a verb other than GET.
    pub fn assert_read_only(&self) {
        let writes: Vec<_> = self.requests().into_iter().filter(|r| r.method != "GET").collect();
        assert!(writes.is_empty(), "releasex sent non-GET requests: {writes:?}");
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

impl Drop for FakeApi {
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

async fn handle(state: Arc<Mutex<State>>, req: Request<Body>) -> Response {
    let method = req.method().clone();
    let uri: Uri = req.uri().clone();
    // Single-object GETs may wait (latency), so the lock is released first.
    let single = {
        let mut st = state.lock().unwrap();
        st.requests.push(RecordedRequest {
            method: method.to_string(),
            path: uri.path().to_string(),
            query: uri.query().map(str::to_string),
        });
        let segments: Vec<&str> = uri.path().trim_matches('/').split('/').collect();
        if method != Method::GET || st.documents.iter().any(|(p, _)| p == uri.path()) || discovery(&segments).is_some() {
            None
        } else {
            single_object(&st.objects, &segments).map(|found| (found, st.latency))
        }
    };
    if let Some((found, latency)) = single {
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        return match found {
            Some(o) => axum::Json(o).into_response(),
            None => status(404, "NotFound", "not found"),
        };
    }
    let st = state.lock().unwrap();
    if method != Method::GET {
        return status(405, "MethodNotAllowed", "the fixture API server is read-only");
    }
    if let Some((_, body)) = st.documents.iter().find(|(p, _)| p == uri.path()) {
        return axum::Json(body.clone()).into_response();
    }
    let segments: Vec<&str> = uri.path().trim_matches('/').split('/').collect();
    if let Some(answer) = discovery(&segments) {
        return axum::Json(answer).into_response();
    }
    let (namespace, resource) = match segments.as_slice() {
        ["api", "v1", "namespaces", ns, res] => (*ns, *res),
        ["version"] => {
            return axum::Json(json!({"major": "1", "minor": "33", "gitVersion": "v1.33.0", "platform": "linux/amd64"})).into_response();
        }
        _ => return status(404, "NotFound", &format!("the server could not find the requested resource ({})", uri.path())),
    };
    if let Some((_, code)) = st.failures.iter().find(|(r, _)| r == resource) {
        let (reason, message) = match code {
            401 => ("Unauthorized", "Unauthorized".to_string()),
            403 => ("Forbidden", format!("{resource} is forbidden: User \"tester\" cannot list resource \"{resource}\" in API group \"\" in the namespace \"{namespace}\"")),
            404 => ("NotFound", format!("namespaces \"{namespace}\" not found")),
            _ => ("InternalError", "boom".to_string()),
        };
        return status(*code, reason, &message);
    }
    let (kind, list_kind) = match resource {
        "secrets" => ("Secret", "SecretList"),
        "configmaps" => ("ConfigMap", "ConfigMapList"),
        _ => return status(404, "NotFound", "the server could not find the requested resource"),
    };
    let selector = uri
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("labelSelector=")))
        .map(percent_decode)
        .unwrap_or_default();
    let items: Vec<Value> = st
        .objects
        .iter()
        .filter(|o| o["kind"] == kind && o.pointer("/metadata/namespace").and_then(Value::as_str) == Some(namespace))
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
    axum::Json(json!({
        "kind": list_kind,
        "apiVersion": "v1",
        "metadata": {"resourceVersion": "48213"},
        "items": items,
    }))
    .into_response()
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

/// Turns a kubectl-style object (as in the fixtures) into what the API server
/// stores: adds uid, resourceVersion, creationTimestamp and managedFields.
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

/// The kinds this server serves: (group, version, kind, plural, namespaced).
const RESOURCES: &[(&str, &str, &str, &str, bool)] = &[
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

/// `/api`, `/api/v1`, `/apis`, `/apis/GROUP/VERSION` as a real server answers them.
fn discovery(segments: &[&str]) -> Option<Value> {
    let list = |group: &str, version: &str| {
        let gv = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
        let resources: Vec<Value> = RESOURCES
            .iter()
            .filter(|r| r.0 == group && r.1 == version)
            .flat_map(|(_, _, kind, plural, namespaced)| {
                [
                    json!({"name": plural, "singularName": "", "namespaced": namespaced, "kind": kind, "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"]}),
                    json!({"name": format!("{plural}/status"), "singularName": "", "namespaced": namespaced, "kind": kind, "verbs": ["get", "patch", "update"]}),
                ]
            })
            .collect();
        json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources})
    };
    match segments {
        ["api"] => Some(json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []})),
        ["api", "v1"] => Some(list("", "v1")),
        ["apis"] => {
            let mut groups: Vec<(&str, &str)> = RESOURCES.iter().filter(|r| !r.0.is_empty()).map(|r| (r.0, r.1)).collect();
            groups.dedup();
            let groups: Vec<Value> = groups
                .into_iter()
                .map(|(g, v)| {
                    let gv = json!({"groupVersion": format!("{g}/{v}"), "version": v});
                    json!({"name": g, "versions": [gv.clone()], "preferredVersion": gv})
                })
                .collect();
            Some(json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}))
        }
        ["apis", g, v] => RESOURCES.iter().any(|r| r.0 == *g && r.1 == *v).then(|| list(g, v)),
        _ => None,
    }
}

/// A GET of one object: `Some(Some(obj))`, `Some(None)` for 404, `None` when
/// the path is not a single-object path.
fn single_object(objects: &[Value], segments: &[&str]) -> Option<Option<Value>> {
    let (group, version, rest) = match segments {
        ["api", v, rest @ ..] => ("", *v, rest),
        ["apis", g, v, rest @ ..] => (*g, *v, rest),
        _ => return None,
    };
    let (namespace, plural, name) = match rest {
        ["namespaces", ns, plural, name] => (Some(*ns), *plural, *name),
        [plural, name] => (None, *plural, *name),
        _ => return None,
    };
    let (_, _, kind, _, _) = RESOURCES.iter().find(|r| r.0 == group && r.1 == version && r.3 == plural)?;
    let api_version = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
    Some(
        objects
            .iter()
            .find(|o| {
                o["kind"] == *kind
                    && o["apiVersion"] == api_version.as_str()
                    && o.pointer("/metadata/name").and_then(Value::as_str) == Some(name)
                    && o.pointer("/metadata/namespace").and_then(Value::as_str) == namespace
            })
            .cloned(),
    )
}
