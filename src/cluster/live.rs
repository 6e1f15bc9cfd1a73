//! Reading the live objects of a release: one paginated LIST per resource
//! and namespace that holds two objects or more, a GET for the others, all
//! concurrently. GET and LIST only, like the rest of this module.
//!
//! Semantics chosen (see `docs/benchmarks.md` for the figures):
//!
//! - **Consistency.** Lists are sent without `resourceVersion`, which asks
//!   for the most recent state, served from etcd with a quorum read: the
//!   same freshness as the GET Helm sends per object (helm:
//!   pkg/kube/client.go `Update` -> `helper.Get`). `resourceVersion=0`
//!   would let the API server answer from its watch cache, which can lag
//!   behind, and drift detection must not see an older object than Helm
//!   patches. The pages after the first (`continue`) are served from the
//!   snapshot of the first page (apiserver semantics of `continue`), so one
//!   kind is read at one point in time.
//! - **Page size.** `limit=500`, kubectl's default `--chunk-size`
//!   (kubectl: pkg/cmd/get/get.go `ChunkSize: cmdutil.DefaultChunkSize`).
//! - **When a LIST is not worth it.** A resource with one object is read
//!   with a GET. Listing reads every object of the kind in the namespace,
//!   most of which may not belong to the release; once the pages read
//!   outnumber the objects still looked for, the rest are read with GETs
//!   instead of more pages.
//! - **Fallbacks.** A LIST answered 403 (a user allowed to `get` but not
//!   `list`, as a narrowly scoped Role often is) or 410 Gone (the `continue`
//!   token expired: apiserver's `ResourceExpired`) falls back to GETs of the
//!   objects not found yet, so the result is the same as reading each object.
//!   A 404 (no such collection) falls back to GETs too. Any other error is the error of every object of that resource.

use std::collections::HashMap;

use futures::future::LocalBoxFuture;
use futures::stream::{self, StreamExt};
use serde_json::{Map, Value};

use super::error::{Asked, Target, Verb};
use super::{ApiResource, ClusterError, ObjectRef, ReadOnlyCluster, json_get};

/// Objects per LIST page (kubectl's default chunk size).
pub const LIST_PAGE_SIZE: usize = 500;

/// How the objects were read (for `--timings` and the benchmark).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// LIST requests, one per page.
    pub lists: usize,
    pub gets: usize,
    /// LISTs answered 403 or 410, whose objects were read with GETs.
    pub list_fallbacks: usize,
}

impl ReadCounts {
    pub fn add(&mut self, other: &ReadCounts) {
        self.lists += other.lists;
        self.gets += other.gets;
        self.list_fallbacks += other.list_fallbacks;
    }
}

/// One object read: `None` when the cluster does not have it.
pub type ObjectResult = Result<Option<Value>, ClusterError>;

/// What one collection's reading answers: (index into the refs, result) pairs.
type Answered = (Vec<(usize, ObjectResult)>, ReadCounts);

/// One resource in one namespace (`None`: cluster-scoped).
#[derive(Hash, PartialEq, Eq)]
struct Collection<'a> {
    group: &'a str,
    version: &'a str,
    plural: &'a str,
    namespace: Option<&'a str>,
}

impl ReadOnlyCluster {
    /// Reads each object of `refs` (`None` when it does not exist), at most
    /// `concurrency` requests in flight; results in the order of `refs`.
    /// The reading of every command that needs live objects.
    pub async fn read_objects(&self, refs: &[ObjectRef], concurrency: usize) -> (Vec<ObjectResult>, ReadCounts) {
        let mut collections: Vec<(&ObjectRef, Vec<usize>)> = Vec::new();
        let mut index: HashMap<Collection<'_>, usize> = HashMap::new();
        for (i, r) in refs.iter().enumerate() {
            let key = Collection {
                group: &r.resource.group,
                version: &r.resource.version,
                plural: &r.resource.plural,
                namespace: r.namespace.as_deref().filter(|_| r.resource.namespaced),
            };
            let at = *index.entry(key).or_insert_with(|| {
                collections.push((r, Vec::new()));
                collections.len() - 1
            });
            collections[at].1.push(i);
        }
        let tasks: Vec<LocalBoxFuture<'_, Answered>> = collections
            .into_iter()
            .map(|(first, members)| -> LocalBoxFuture<'_, _> {
                if members.len() == 1 {
                    Box::pin(async move {
                        let got = self.get_object(&refs[members[0]]).await;
                        (vec![(members[0], got)], ReadCounts { gets: 1, ..ReadCounts::default() })
                    })
                } else {
                    Box::pin(self.read_collection(first, members, refs, concurrency))
                }
            })
            .collect();
        let mut results: Vec<Option<ObjectResult>> = (0..refs.len()).map(|_| None).collect();
        let mut counts = ReadCounts::default();
        let mut done = stream::iter(tasks).buffer_unordered(concurrency.max(1));
        while let Some((got, c)) = done.next().await {
            counts.lists += c.lists;
            counts.gets += c.gets;
            counts.list_fallbacks += c.list_fallbacks;
            for (i, r) in got {
                results[i] = Some(r);
            }
        }
        // Every index was answered by exactly one task.
        (results.into_iter().map(|r| r.unwrap_or(Ok(None))).collect(), counts)
    }

    /// The objects `members` (indexes into `refs`, all of `first`'s
    /// collection) from the pages of one LIST, with GETs for what the LIST
    /// could not answer.
    async fn read_collection(
        &self,
        first: &ObjectRef,
        members: Vec<usize>,
        refs: &[ObjectRef],
        concurrency: usize,
    ) -> Answered {
        let mut counts = ReadCounts::default();
        let mut missing: HashMap<&str, Vec<usize>> = HashMap::new();
        for &i in &members {
            missing.entry(refs[i].name.as_str()).or_default().push(i);
        }
        let mut out = Vec::with_capacity(members.len());
        let mut token: Option<String> = None;
        let complete = loop {
            counts.lists += 1;
            let page = match self.list_page(first, token.as_deref()).await {
                Ok(page) => page,
                Err(e) if falls_back_to_gets(&e) => {
                    counts.list_fallbacks += 1;
                    break false;
                }
                Err(e) => {
                    // The caller stops at the first error in the order of
                    // `refs`, so the collection's first object carries it.
                    let mut left: Vec<usize> = missing.into_values().flatten().collect();
                    left.sort_unstable();
                    let mut errors = std::iter::once(Err(e)).chain(std::iter::repeat_with(|| Ok(None)));
                    out.extend(left.into_iter().map(|i| (i, errors.next().unwrap_or(Ok(None)))));
                    return (out, counts);
                }
            };
            for item in page.items {
                let name = item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
                if let Some(indexes) = missing.remove(name) {
                    let object = with_type(item, &first.resource);
                    out.extend(indexes.into_iter().map(|i| (i, Ok(Some(object.clone())))));
                }
            }
            match page.next {
                None => break true,
                Some(_) if missing.is_empty() => break true,
                // More pages than objects left: GETs are fewer requests.
                Some(_) if counts.lists >= missing.values().map(Vec::len).sum::<usize>() => break false,
                Some(next) => token = Some(next),
            }
        };
        let left: Vec<usize> = missing.into_values().flatten().collect();
        if complete {
            // A complete list that lacks an object: it does not exist (what a GET's 404 says).
            out.extend(left.into_iter().map(|i| (i, Ok(None))));
        } else {
            counts.gets += left.len();
            let got: Vec<ObjectResult> = stream::iter(left.iter().map(|&i| self.get_object(&refs[i]))).buffered(concurrency.max(1)).collect().await;
            out.extend(left.into_iter().zip(got));
        }
        (out, counts)
    }

    /// One page of the LIST of `of`'s collection.
    async fn list_page(&self, of: &ObjectRef, token: Option<&str>) -> Result<Page, ClusterError> {
        let namespace = of.namespace.clone().filter(|_| of.resource.namespaced);
        let asked = Asked {
            verb: Verb::List,
            target: Box::new(Target::Resource {
                group: of.resource.group.clone(),
                kind: of.resource.kind.clone(),
                plural: of.resource.plural.clone(),
                namespace: namespace.clone(),
                name: None,
            }),
        };
        let mut path = format!("{}?limit={LIST_PAGE_SIZE}", collection_path(&of.resource, namespace.as_deref()));
        if let Some(token) = token {
            path.push_str("&continue=");
            path.push_str(&percent_encode(token));
        }
        let mut list = self.fetch_object(&asked, &json_get(&path, "application/json", &asked, &self.server)?).await?;
        let wrong = |detail: &str| ClusterError::WrongShape { server: self.server.clone(), asked: asked.clone(), detail: detail.to_string() };
        let items = match list.get_mut("items").map(Value::take) {
            Some(Value::Array(items)) => items,
            // An empty list may come as `"items": null`.
            Some(Value::Null) | None => Vec::new(),
            Some(_) => return Err(wrong("expected \"items\" to be an array")),
        };
        let next = list.pointer("/metadata/continue").and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_string);
        Ok(Page { items, next })
    }
}

struct Page {
    items: Vec<Value>,
    next: Option<String>,
}

fn falls_back_to_gets(e: &ClusterError) -> bool {
    // 404: a kind the server does not list there; each GET then says
    // whether its object exists, as before.
    matches!(e, ClusterError::Forbidden { .. } | ClusterError::NotFound { .. } | ClusterError::Status { code: 410, .. })
}

/// `/api/v1/namespaces/NS/configmaps`, `/apis/GROUP/VERSION/PLURAL`.
pub(super) fn collection_path(resource: &ApiResource, namespace: Option<&str>) -> String {
    let base = if resource.group.is_empty() {
        format!("/api/{}", resource.version)
    } else {
        format!("/apis/{}/{}", resource.group, resource.version)
    };
    match namespace.filter(|_| resource.namespaced) {
        Some(ns) => format!("{base}/namespaces/{ns}/{}", resource.plural),
        None => format!("{base}/{}", resource.plural),
    }
}

/// A list item as a GET returns it: the API server leaves `kind` and
/// `apiVersion` out of list items (apimachinery: the list's own
/// `kind`/`apiVersion` name them), and a GET's answer starts with them.
fn with_type(item: Value, resource: &ApiResource) -> Value {
    let Value::Object(fields) = item else { return item };
    let mut object = Map::with_capacity(fields.len() + 2);
    object.insert("kind".into(), Value::String(resource.kind.clone()));
    object.insert("apiVersion".into(), Value::String(resource.api_version()));
    for (k, v) in fields {
        if k != "kind" && k != "apiVersion" {
            object.insert(k, v);
        }
    }
    Value::Object(object)
}

/// A `continue` token in a query (they are base64: `+`, `/`, `=`).
fn percent_encode(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    for b in token.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_items_get_the_kind_and_api_version_a_get_answers_with_first() {
        let resource = ApiResource { group: "apps".into(), version: "v1".into(), kind: "Deployment".into(), plural: "deployments".into(), namespaced: true };
        let item = serde_json::json!({"metadata": {"name": "web"}, "spec": {}});
        let typed = with_type(item, &resource);
        assert_eq!(serde_json::to_string(&typed).unwrap(), r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{}}"#);
    }

    #[test]
    fn continue_tokens_are_percent_encoded_and_paths_follow_scope() {
        assert_eq!(percent_encode("eyJ2Ijo+/x=="), "eyJ2Ijo%2B%2Fx%3D%3D");
        let cm = ApiResource { group: String::new(), version: "v1".into(), kind: "ConfigMap".into(), plural: "configmaps".into(), namespaced: true };
        let cr = ApiResource { group: "rbac.authorization.k8s.io".into(), version: "v1".into(), kind: "ClusterRole".into(), plural: "clusterroles".into(), namespaced: false };
        assert_eq!(collection_path(&cm, Some("shop")), "/api/v1/namespaces/shop/configmaps");
        assert_eq!(collection_path(&cr, Some("shop")), "/apis/rbac.authorization.k8s.io/v1/clusterroles");
    }
}
