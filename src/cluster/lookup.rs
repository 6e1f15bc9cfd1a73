//! Helm's template function `lookup` answered from the cluster (helm:
//! pkg/engine/lookup_func.go), for the renderer: `lookup APIVERSION KIND
//! NAMESPACE NAME` is one GET of the object, or with an empty name one LIST
//! of the collection (no `limit`: client-go's dynamic `List` with empty
//! options, one request). GET only, like the rest of this module.
//!
//! Helm's rules, kept:
//! - the kind is found in the discovery of its group/version (read once by
//!   the caller; a group/version not in it is asked for, and its 404 is the
//!   error: `unable to get apiresource from unstructured: GVK: MESSAGE`);
//! - a namespaced kind with a namespace reads in that namespace; with `""`
//!   (or a cluster-scoped kind) it reads at the cluster scope: all
//!   namespaces for a list, and for a namespaced kind's name the URL the API
//!   server answers 404, so `{}`;
//! - 404 is `{}` (so `if not (lookup ...)` works); any other error stops
//!   the render with the API server's message, as client-go words it;
//! - a list's items get the list's `apiVersion` and its kind without `List`
//!   when they have neither (apimachinery: unstructured.go `decodeToList`),
//!   and `items` is `[]` when the server sent none.
//!
//! Each distinct call is read once per run (a template calling the same
//! lookup twice gets the same answer, as it would from an unchanged cluster).
//! The requests run on a thread of their own with its own runtime, started
//! at the first lookup: the renderer is synchronous and may be called from
//! inside another runtime.

use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value};

use super::error::{Asked, Target, Verb};
use super::{ApiResource, ClusterError, Discovery, KubeTarget, ObjectRef, ReadOnlyCluster, json_get};

/// One request for the lookup thread and where its answer goes.
struct Ask {
    read: Read,
    answer: mpsc::Sender<Result<Option<Value>, ClusterError>>,
}

enum Read {
    /// A discovery document (`/apis/GROUP/VERSION`).
    Path(String),
    Get(ObjectRef),
    List { resource: ApiResource, namespace: Option<String> },
}

type Key = (String, String, String, String);

/// The lookups of one render: the cluster, its discovery, and what was read.
pub struct Lookups {
    target: KubeTarget,
    discovery: Discovery,
    thread: OnceLock<Mutex<mpsc::Sender<Ask>>>,
    answers: Mutex<HashMap<Key, Result<Value, String>>>,
    requests: Mutex<(usize, usize)>,
}

impl Lookups {
    pub fn new(target: &KubeTarget, discovery: Discovery) -> Lookups {
        Lookups { target: target.clone(), discovery, thread: OnceLock::new(), answers: Mutex::new(HashMap::new()), requests: Mutex::new((0, 0)) }
    }

    /// How many GETs and LISTs the lookups sent.
    pub fn requests(&self) -> (usize, usize) {
        self.requests.lock().map_or((0, 0), |r| *r)
    }

    /// `lookup api_version kind namespace name`: the object or list, `{}`
    /// when the server has none; `Err` is the text after `error calling lookup: `.
    pub fn lookup(&self, api_version: &str, kind: &str, namespace: &str, name: &str) -> Result<Value, String> {
        let key: Key = (api_version.into(), kind.into(), namespace.into(), name.into());
        if let Some(answer) = self.answers.lock().ok().and_then(|a| a.get(&key).cloned()) {
            return answer;
        }
        let answer = self.read(api_version, kind, namespace, name);
        if let Ok(mut answers) = self.answers.lock() {
            answers.insert(key, answer.clone());
        }
        answer
    }

    fn read(&self, api_version: &str, kind: &str, namespace: &str, name: &str) -> Result<Value, String> {
        let (group, version) = parse_group_version(api_version);
        let gvk = format!("{group}/{version}, Kind={kind}");
        let group_version = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
        if group_version.is_empty() {
            return Err(format!("unable to get apiresource from unstructured: {gvk}: groupVersion shouldn't be empty"));
        }
        let asked_discovery;
        let resource = if self.discovery.group_versions.contains(&group_version) {
            self.discovery.find(&group_version, kind)
        } else {
            // Not served when discovery was read: Helm asks the group/version's
            // own document, and its error is the server's answer.
            let path = if group.is_empty() { format!("/api/{version}") } else { format!("/apis/{group}/{version}") };
            self.count(false);
            match self.ask(Read::Path(path)) {
                Ok(document) => {
                    asked_discovery = resource_in(document.as_ref(), group, version, kind);
                    asked_discovery.as_ref()
                }
                Err(e) => return Err(format!("unable to get apiresource from unstructured: {gvk}: {}", server_words(&e))),
            }
        };
        let Some(resource) = resource else {
            // Helm goes on with an empty resource name: a GET of
            // `/api/v1/NAME`, which the API server answers 404; a list of
            // the discovery document itself, which is no list.
            return if name.is_empty() {
                Err(format!("releasex: {group_version} serves no kind {kind:?}, so Helm's lookup would read the group/version's discovery document as a list"))
            } else {
                Ok(empty())
            };
        };
        let namespace = (resource.namespaced && !namespace.is_empty()).then(|| namespace.to_string());
        let read = if name.is_empty() {
            Read::List { resource: resource.clone(), namespace }
        } else {
            Read::Get(ObjectRef { resource: resource.clone(), namespace, name: name.to_string() })
        };
        let list = matches!(read, Read::List { .. });
        self.count(list);
        match self.ask(read) {
            Ok(None) => Ok(empty()),
            Ok(Some(v)) if list => Ok(typed_items(v)),
            Ok(Some(v)) => Ok(v),
            Err(e) => Err(server_words(&e)),
        }
    }

    fn count(&self, list: bool) {
        if let Ok(mut r) = self.requests.lock() {
            if list { r.1 += 1 } else { r.0 += 1 }
        }
    }

    fn ask(&self, read: Read) -> Result<Option<Value>, ClusterError> {
        let (answer, answered) = mpsc::channel();
        let sender = self.thread.get_or_init(|| Mutex::new(start(self.target.clone())));
        let stopped = || ClusterError::Unreachable { server: String::new(), asked: Asked::get_path("/"), message: "the lookup thread stopped".into() };
        sender.lock().map_err(|_| stopped())?.send(Ask { read, answer }).map_err(|_| stopped())?;
        answered.recv().map_err(|_| stopped())?
    }
}

fn empty() -> Value {
    Value::Object(Map::new())
}

/// apimachinery `ParseGroupVersion` as `FromAPIVersionAndKind` uses it: `v1`,
/// `apps/v1`; anything with more slashes is no group/version (both empty).
fn parse_group_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        None => ("", api_version),
        Some((g, v)) if !v.contains('/') => (g, v),
        Some(_) => ("", ""),
    }
}

/// What client-go's error says: the API server's `Status` message for an
/// answer it gave (client-go's generic words for a 404 without one), else
/// releasex's own account of what went wrong.
fn server_words(e: &ClusterError) -> String {
    match e {
        ClusterError::NotFound { message, status: true, .. } => message.clone(),
        ClusterError::NotFound { status: false, .. } => "the server could not find the requested resource".into(),
        ClusterError::Forbidden { message, .. } | ClusterError::Status { message, .. } if !message.is_empty() => message.clone(),
        other => other.to_string(),
    }
}

/// lookup_func.go `getAPIResourceForGVK`: the first resource of the
/// group/version's document with the kind that is not a subresource.
fn resource_in(document: Option<&Value>, group: &str, version: &str, kind: &str) -> Option<ApiResource> {
    super::objects::resources_of(document?, group, version).find(|r| r.kind == kind)
}

/// apimachinery unstructured.go `decodeToList`: items without `kind` and
/// `apiVersion` get the list's, the kind without its `List` suffix.
fn typed_items(mut list: Value) -> Value {
    let Value::Object(fields) = &mut list else { return list };
    let list_version = fields.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string();
    let list_kind = fields.get("kind").and_then(Value::as_str).unwrap_or_default();
    let item_kind = list_kind.strip_suffix("List").unwrap_or(list_kind).to_string();
    let items = match fields.remove("items") {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    };
    let items = items
        .into_iter()
        .map(|mut item| {
            if let Value::Object(o) = &mut item {
                let typed = |k: &str| o.get(k).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
                if !typed("kind") && !typed("apiVersion") {
                    o.insert("kind".into(), Value::String(item_kind.clone()));
                    o.insert("apiVersion".into(), Value::String(list_version.clone()));
                }
            }
            item
        })
        .collect();
    fields.insert("items".into(), Value::Array(items));
    list
}

/// The lookup thread: connects once, then answers each request in turn
/// until the [`Lookups`] is dropped.
fn start(target: KubeTarget) -> mpsc::Sender<Ask> {
    let (sender, asks) = mpsc::channel::<Ask>();
    std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(r) => r,
            Err(e) => {
                for ask in asks {
                    let _ = ask.answer.send(Err(ClusterError::Unreachable { server: String::new(), asked: Asked::get_path("/"), message: format!("cannot start the async runtime: {e}") }));
                }
                return;
            }
        };
        runtime.block_on(async move {
            let cluster = ReadOnlyCluster::connect(&target).await;
            for ask in asks {
                let answer = match &cluster {
                    Ok(c) => c.lookup_read(&ask.read).await,
                    Err(e) => Err(ClusterError::Unreachable { server: String::new(), asked: Asked::get_path("/"), message: e.to_string() }),
                };
                let _ = ask.answer.send(answer);
            }
        });
    });
    sender
}

impl ReadOnlyCluster {
    async fn lookup_read(&self, read: &Read) -> Result<Option<Value>, ClusterError> {
        match read {
            Read::Path(path) => self.get_json(path).await.map(Some),
            Read::Get(r) => self.get_object(r).await,
            Read::List { resource, namespace } => {
                let asked = Asked {
                    verb: Verb::List,
                    target: Box::new(Target::Resource {
                        group: resource.group.clone(),
                        kind: resource.kind.clone(),
                        plural: resource.plural.clone(),
                        namespace: namespace.clone(),
                        name: None,
                    }),
                };
                let path = super::live::collection_path(resource, namespace.as_deref());
                match self.fetch_object(&asked, &json_get(&path, "application/json", &asked, &self.server)?).await {
                    Ok(v) => Ok(Some(v)),
                    Err(ClusterError::NotFound { .. }) => Ok(None),
                    Err(e) => Err(e),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn secrets() -> ApiResource {
        ApiResource { group: String::new(), version: "v1".into(), kind: "Secret".into(), plural: "secrets".into(), namespaced: true }
    }

    #[test]
    fn group_versions_parse_as_apimachinery_parses_them() {
        assert_eq!(parse_group_version("v1"), ("", "v1"));
        assert_eq!(parse_group_version("apps/v1"), ("apps", "v1"));
        assert_eq!(parse_group_version("a/b/c"), ("", ""));
        assert_eq!(parse_group_version(""), ("", ""));
    }

    #[test]
    fn list_items_get_the_lists_kind_and_version_only_when_they_have_neither() {
        let list = json!({"apiVersion": "v1", "kind": "SecretList", "metadata": {"resourceVersion": "7"},
            "items": [{"metadata": {"name": "a"}}, {"kind": "Other", "metadata": {"name": "b"}}]});
        let got = typed_items(list);
        assert_eq!(got["items"][0], json!({"metadata": {"name": "a"}, "kind": "Secret", "apiVersion": "v1"}));
        assert_eq!(got["items"][1], json!({"kind": "Other", "metadata": {"name": "b"}}));
        assert_eq!(got["metadata"], json!({"resourceVersion": "7"}));
        let none = typed_items(json!({"apiVersion": "v1", "kind": "SecretList", "items": null}));
        assert_eq!(none["items"], json!([]));
    }

    #[test]
    fn kinds_the_discovery_lacks_are_answered_without_a_request() {
        let discovery = Discovery { server_version: "v1.33.0".into(), resources: vec![secrets()], group_versions: vec!["v1".into()] };
        let lookups = Lookups::new(&KubeTarget::default(), discovery);
        assert_eq!(lookups.lookup("", "Secret", "ns", "w"), Err("unable to get apiresource from unstructured: /, Kind=Secret: groupVersion shouldn't be empty".into()));
        // A kind the group/version does not serve: Helm's GET of `/api/v1/NAME` is a 404.
        assert_eq!(lookups.lookup("v1", "Widget", "ns", "w"), Ok(json!({})));
        assert_eq!(lookups.requests(), (0, 0));
    }
}
