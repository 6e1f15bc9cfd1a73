//! The only module that talks to a Kubernetes API server. Read-only by
//! construction: the client is private and the only operations offered are
//! GET and LIST; nothing here can create, update, patch or delete.

mod error;
mod live;
mod lookup;
mod objects;
mod transport;

pub use error::{Asked, ClusterError, Target, Verb};
pub use live::{LIST_PAGE_SIZE, ObjectResult, ReadCounts};
pub use lookup::Lookups;
pub use objects::{ApiResource, Discovery, DiscoveryPrefetch, ObjectRef};
pub use transport::{DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_TIMEOUT, RequestLimits, RetryReporter, Retrying};

use std::collections::BTreeMap;
use std::path::PathBuf;

use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{ListParams, ObjectMeta};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::core::{ObjectList, PartialObjectMeta};

use crate::release::{Driver, Encoded, Origin, StoredRecord};

/// Which cluster, as the user chose it (already resolved from flags and the
/// Helm plugin environment by the CLI), and how requests to it are bounded.
#[derive(Debug, Clone, Default)]
pub struct KubeTarget {
    /// Kubeconfig files to merge, in order (kubectl's KUBECONFIG rules).
    pub kubeconfig_paths: Vec<PathBuf>,
    pub context: Option<String>,
    /// Overrides the context's namespace.
    pub namespace: Option<String>,
    pub limits: RequestLimits,
    /// Told about each retry before its wait.
    pub on_retry: RetryReporter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenApiVersion {
    V2,
    V3,
}

/// The contexts of the kubeconfig files in `target` (kubectl's merge order:
/// the first file naming a context wins), each with its namespace, and the
/// current context. Unreadable files are skipped: this only feeds completion.
pub fn kubeconfig_contexts(target: &KubeTarget) -> (Vec<(String, Option<String>)>, Option<String>) {
    let mut contexts: Vec<(String, Option<String>)> = Vec::new();
    let mut current = None;
    for path in &target.kubeconfig_paths {
        let Ok(kc) = Kubeconfig::read_from(path) else { continue };
        current = current.or(kc.current_context);
        for c in kc.contexts {
            if !contexts.iter().any(|(n, _)| *n == c.name) {
                contexts.push((c.name, c.context.and_then(|x| x.namespace)));
            }
        }
    }
    (contexts, current)
}

/// A release record's labels: which release, which revision, its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordLabels {
    pub name: String,
    pub revision: Option<i64>,
    pub status: Option<String>,
}

/// A client that can only read.
pub struct ReadOnlyCluster {
    client: kube::Client,
    namespace: String,
    server: String,
    limits: RequestLimits,
    on_retry: RetryReporter,
}

impl ReadOnlyCluster {
    pub async fn connect(target: &KubeTarget) -> Result<ReadOnlyCluster, ClusterError> {
        let mut merged: Option<Kubeconfig> = None;
        for path in &target.kubeconfig_paths {
            if !path.exists() {
                continue;
            }
            let kc = Kubeconfig::read_from(path)
                .map_err(|source| ClusterError::Kubeconfig { path: path.display().to_string(), source })?;
            merged = Some(match merged {
                None => kc,
                Some(m) => m.merge(kc).map_err(ClusterError::Config)?,
            });
        }
        let Some(kubeconfig) = merged else {
            return Err(ClusterError::NoKubeconfig {
                looked: target.kubeconfig_paths.iter().map(|p| p.display().to_string()).collect(),
            });
        };
        if let Some(name) = &target.context
            && !kubeconfig.contexts.iter().any(|c| c.name == *name)
        {
            return Err(ClusterError::UnknownContext {
                name: name.clone(),
                known: kubeconfig.contexts.iter().map(|c| c.name.clone()).collect(),
                files: target.kubeconfig_paths.iter().filter(|p| p.exists()).map(|p| p.display().to_string()).collect(),
            });
        }
        let options = KubeConfigOptions { context: target.context.clone(), ..KubeConfigOptions::default() };
        let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &options).await.map_err(ClusterError::Config)?;
        if let Some(ns) = &target.namespace {
            config.default_namespace = ns.clone();
        }
        // Retries are ours (transport.rs), bounded and announced.
        config.default_retry = false;
        let server = config.cluster_url.to_string().trim_end_matches('/').to_string();
        let namespace = config.default_namespace.clone();
        let client = kube::Client::try_from(config).map_err(|source| ClusterError::Client { server: server.clone(), source })?;
        Ok(ReadOnlyCluster { client, namespace, server, limits: target.limits, on_retry: target.on_retry.clone() })
    }

    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    pub fn server(&self) -> &str {
        &self.server
    }

    /// Lists the records of release `name` as Helm's `History` does:
    /// selector `name=NAME,owner=helm` in the namespace.
    /// helm: pkg/storage/driver/secrets.go Query
    pub async fn list_release_records(&self, name: &str, driver: Driver) -> Result<Vec<StoredRecord>, ClusterError> {
        let params = ListParams::default().labels(&format!("name={name},owner=helm"));
        match driver {
            Driver::ConfigMap => {
                let list: ObjectList<ConfigMap> = self.list::<ConfigMap, _>(&params, false).await?;
                Ok(list
                    .items
                    .into_iter()
                    .map(|cm| {
                        let payload = cm.data.as_ref().and_then(|d| d.get("release")).cloned();
                        self.record("ConfigMap", Driver::ConfigMap, cm.metadata, payload.map(String::into_bytes))
                    })
                    .collect())
            }
            _ => {
                let list: ObjectList<Secret> = self.list::<Secret, _>(&params, false).await?;
                Ok(list
                    .items
                    .into_iter()
                    .map(|s| {
                        // The API's base64 layer is already undone by ByteString.
                        let payload = s.data.as_ref().and_then(|d| d.get("release")).map(|b| b.0.clone());
                        self.record("Secret", Driver::Secret, s.metadata, payload)
                    })
                    .collect())
            }
        }
    }

    /// The release records in the namespace as their labels describe them,
    /// without payloads: ONE metadata-only LIST with `owner=helm` (and
    /// `name=NAME` when given). For shell completion, where only names,
    /// revisions and statuses matter and records can be MiBs each.
    pub async fn list_record_labels(&self, name: Option<&str>, driver: Driver) -> Result<Vec<RecordLabels>, ClusterError> {
        let selector = match name {
            Some(n) => format!("name={n},owner=helm"),
            None => "owner=helm".to_string(),
        };
        let params = ListParams::default().labels(&selector);
        let metas: Vec<ObjectMeta> = match driver {
            Driver::ConfigMap => {
                let list: ObjectList<PartialObjectMeta<ConfigMap>> = self.list::<ConfigMap, _>(&params, true).await?;
                list.items.into_iter().map(|o| o.metadata).collect()
            }
            _ => {
                let list: ObjectList<PartialObjectMeta<Secret>> = self.list::<Secret, _>(&params, true).await?;
                list.items.into_iter().map(|o| o.metadata).collect()
            }
        };
        Ok(metas
            .into_iter()
            .filter_map(|m| {
                let labels = m.labels?;
                Some(RecordLabels {
                    name: labels.get("name")?.clone(),
                    revision: labels.get("version").and_then(|v| v.parse().ok()),
                    status: labels.get("status").cloned(),
                })
            })
            .collect())
    }

    /// The namespaces other than ours holding records of release `name`: ONE
    /// metadata-only LIST across all namespaces (`/api/v1/secrets`, as
    /// `helm list -A` reads them). For an error hint only, so any failure
    /// (a user who may not list cluster-wide gets 403) means "none known".
    pub async fn namespaces_holding(&self, name: &str, driver: Driver) -> Vec<String> {
        let params = ListParams::default().labels(&format!("name={name},owner=helm"));
        let metas: Result<Vec<ObjectMeta>, ClusterError> = match driver {
            Driver::ConfigMap => self.list_all::<ConfigMap>(&params).await,
            _ => self.list_all::<Secret>(&params).await,
        };
        let mut namespaces: Vec<String> = metas.unwrap_or_default().into_iter().filter_map(|m| m.namespace).filter(|ns| *ns != self.namespace).collect();
        namespaces.sort();
        namespaces.dedup();
        namespaces
    }

    async fn list_all<K>(&self, params: &ListParams) -> Result<Vec<ObjectMeta>, ClusterError>
    where
        K: kube::Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned,
    {
        let asked = Asked::list(&K::group(&()), &K::kind(&()), &K::plural(&()), "");
        let request = kube::core::Request::new(K::url_path(&(), None)).list_metadata(params);
        let request = request.map_err(|e| ClusterError::Unreachable { server: self.server.clone(), asked: asked.clone(), message: e.to_string() })?;
        let list: ObjectList<PartialObjectMeta<K>> = self.fetch_json(&asked, &request).await?;
        Ok(list.items.into_iter().map(|o| o.metadata).collect())
    }

    /// The OpenAPI document describing `api_version` (`v1`, `apps/v1`, ...):
    /// the v3 document of that group-version when the server serves v3, else
    /// the whole v2 document. Returns (version tag, document).
    pub async fn openapi_for(&self, api_version: &str) -> Result<(OpenApiVersion, serde_json::Value), ClusterError> {
        let path = if api_version.contains('/') { format!("apis/{api_version}") } else { format!("api/{api_version}") };
        match self.get_json("/openapi/v3").await {
            Ok(index) => {
                let url = index
                    .pointer(&format!("/paths/{}/serverRelativeURL", path.replace('~', "~0").replace('/', "~1")))
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string);
                match url {
                    Some(url) => Ok((OpenApiVersion::V3, self.get_json(&url).await?)),
                    None => Err(ClusterError::NotFound {
                        asked: Asked::get_path("/openapi/v3"),
                        message: format!("the server's OpenAPI v3 index has no entry for {path}"),
                        status: false,
                    }),
                }
            }
            Err(ClusterError::NotFound { .. }) => Ok((OpenApiVersion::V2, self.get_json("/openapi/v2").await?)),
            Err(e) => Err(e),
        }
    }

    /// A GET of a non-resource path (`/version`, `/openapi/v3`), which
    /// must answer a JSON object. `path` may carry a query
    /// (`serverRelativeURL`s do); messages name the path without it.
    async fn get_json(&self, path: &str) -> Result<serde_json::Value, ClusterError> {
        let asked = Asked::get_path(path.split_once('?').map_or(path, |(p, _)| p));
        self.fetch_object(&asked, &json_get(path, "application/json", &asked, &self.server)?).await
    }

    /// A LIST of `K` in the namespace, whole objects or (`metadata_only`)
    /// their metadata as `PartialObjectMetadataList`.
    async fn list<K, T>(&self, params: &ListParams, metadata_only: bool) -> Result<ObjectList<T>, ClusterError>
    where
        K: kube::Resource<DynamicType = ()>,
        T: serde::de::DeserializeOwned + Clone,
    {
        let asked = Asked::list(&K::group(&()), &K::kind(&()), &K::plural(&()), &self.namespace);
        let request = kube::core::Request::new(K::url_path(&(), Some(&self.namespace)));
        let request = if metadata_only { request.list_metadata(params) } else { request.list(params) };
        let request = request.map_err(|e| ClusterError::Unreachable { server: self.server.clone(), asked: asked.clone(), message: e.to_string() })?;
        self.fetch_json(&asked, &request).await
    }

    fn record(&self, kind: &'static str, driver: Driver, meta: ObjectMeta, payload: Option<Vec<u8>>) -> StoredRecord {
        let name = meta.name.unwrap_or_default();
        let labels: BTreeMap<String, String> = meta.labels.unwrap_or_default().into_iter().collect();
        StoredRecord {
            origin: Origin::Object { kind, namespace: meta.namespace.unwrap_or_else(|| self.namespace.clone()), name: name.clone() },
            driver,
            labels,
            object_name: Some(name),
            // A record without data.release fails decoding with a clear message.
            encoded: Encoded::HelmBase64(payload.unwrap_or_default()),
        }
    }
}

/// A GET of `path` asking for `accept`.
fn json_get(path: &str, accept: &str, asked: &Asked, server: &str) -> Result<http::Request<Vec<u8>>, ClusterError> {
    http::Request::get(path).header(http::header::ACCEPT, accept).body(Vec::new()).map_err(|e| ClusterError::Unreachable {
        server: server.to_string(),
        asked: asked.clone(),
        message: format!("cannot build the request: {e}"),
    })
}
