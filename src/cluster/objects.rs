//! Discovery (which kinds the server serves, namespaced or not, and its
//! version) and reading single objects, many at once with a bounded pool.
//! GET only, like the rest of this module.

use futures::stream::{self, StreamExt};
use serde_json::Value;

use super::error::{Asked, Target, Verb};
use super::{ClusterError, ReadOnlyCluster, json_get};

/// One served kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `""` for the core group.
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The URL name (`deployments`).
    pub plural: String,
    pub namespaced: bool,
}

impl ApiResource {
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }
}

/// What the server serves.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// `gitVersion` of `/version` (`v1.33.0`).
    pub server_version: String,
    pub resources: Vec<ApiResource>,
    /// Every served group/version, in discovery order.
    pub group_versions: Vec<String>,
}

impl Discovery {
    /// The resource serving `api_version` + `kind` (Helm's REST mapping is by
    /// exact group, version and kind).
    pub fn find(&self, api_version: &str, kind: &str) -> Option<&ApiResource> {
        self.resources.iter().find(|r| r.kind == kind && r.api_version() == api_version)
    }

    /// Each served group/version with its kinds (what Helm's capabilities list).
    pub fn served(&self) -> Vec<(String, Vec<String>)> {
        self.group_versions
            .iter()
            .map(|gv| (gv.clone(), self.resources.iter().filter(|r| &r.api_version() == gv).map(|r| r.kind.clone()).collect()))
            .collect()
    }
}

/// An object to read: which resource, where, which name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRef {
    pub resource: ApiResource,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    fn path(&self) -> String {
        format!("{}/{}", super::live::collection_path(&self.resource, self.namespace.as_deref()), self.name)
    }

    /// This GET, for messages.
    fn asked(&self) -> Asked {
        let namespace = self.namespace.clone().filter(|_| self.resource.namespaced);
        Asked {
            verb: Verb::Get,
            target: Box::new(Target::Resource {
                group: self.resource.group.clone(),
                kind: self.resource.kind.clone(),
                plural: self.resource.plural.clone(),
                namespace,
                name: Some(self.name.clone()),
            }),
        }
    }
}

/// Discovery read on a thread of its own while the caller does other work
/// (upgrade-preview reads the release records, computes the values and
/// reads the manifests meanwhile): its round trips overlap theirs.
pub struct DiscoveryPrefetch {
    reading: std::sync::Mutex<Option<std::thread::JoinHandle<Result<Discovery, ClusterError>>>>,
    read: std::sync::OnceLock<Discovery>,
}

impl DiscoveryPrefetch {
    pub fn start(target: &super::KubeTarget) -> DiscoveryPrefetch {
        let target = target.clone();
        let reading = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| ClusterError::Unreachable {
                server: String::new(),
                asked: Asked::get_path("/version"),
                message: format!("cannot start the async runtime: {e}"),
            })?;
            runtime.block_on(async { ReadOnlyCluster::connect(&target).await?.discover().await })
        });
        DiscoveryPrefetch { reading: std::sync::Mutex::new(Some(reading)), read: std::sync::OnceLock::new() }
    }

    /// The discovery, once read (waits for it the first time; a failure is
    /// returned once, later calls say discovery stopped).
    pub fn get(&self) -> Result<&Discovery, ClusterError> {
        if let Some(d) = self.read.get() {
            return Ok(d);
        }
        let stopped = || ClusterError::Unreachable { server: String::new(), asked: Asked::get_path("/version"), message: "discovery stopped unexpectedly".into() };
        let reading = self.reading.lock().ok().and_then(|mut r| r.take()).ok_or_else(stopped)?;
        let discovery = reading.join().unwrap_or_else(|_| Err(stopped()))?;
        Ok(self.read.get_or_init(|| discovery))
    }
}

impl ReadOnlyCluster {
    /// `/version`, `/api`, `/apis` (at once), then every served
    /// group/version's resource list (at once): two round trips.
    /// Subresources (`deployments/scale`) are skipped.
    pub async fn discover(&self) -> Result<Discovery, ClusterError> {
        let (version, core, groups) = futures::join!(self.get_json("/version"), self.get_json("/api"), self.get_json("/apis"));
        let (version, core, groups) = (version?, core?, groups?);
        let server_version = version.get("gitVersion").and_then(Value::as_str).unwrap_or_default().to_string();
        let mut group_versions: Vec<(String, String, String)> = Vec::new(); // (group, version, path)
        for v in core.get("versions").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            group_versions.push((String::new(), v.to_string(), format!("/api/{v}")));
        }
        for g in groups.get("groups").and_then(Value::as_array).into_iter().flatten() {
            let name = g.get("name").and_then(Value::as_str).unwrap_or_default();
            for v in g.get("versions").and_then(Value::as_array).into_iter().flatten() {
                if let Some(version) = v.get("version").and_then(Value::as_str) {
                    group_versions.push((name.to_string(), version.to_string(), format!("/apis/{name}/{version}")));
                }
            }
        }
        let lists: Vec<Result<Value, ClusterError>> =
            stream::iter(group_versions.iter().map(|(_, _, path)| self.get_json(path))).buffered(32).collect().await;
        let mut resources = Vec::new();
        for ((group, version, _), list) in group_versions.iter().zip(lists) {
            resources.extend(resources_of(&list?, group, version));
        }
        let group_versions = group_versions
            .into_iter()
            .map(|(g, v, _)| if g.is_empty() { v } else { format!("{g}/{v}") })
            .collect();
        Ok(Discovery { server_version, resources, group_versions })
    }

    /// One object, `None` when the server says 404.
    pub(super) async fn get_object(&self, r: &ObjectRef) -> Result<Option<Value>, ClusterError> {
        let asked = r.asked();
        match self.fetch_object(&asked, &json_get(&r.path(), "application/json", &asked, &self.server)?).await {
            Ok(v) => Ok(Some(v)),
            Err(ClusterError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The resources of one group/version's discovery document
/// (`APIResourceList`), subresources (`deployments/scale`) left out.
pub(super) fn resources_of<'d>(list: &'d Value, group: &'d str, version: &'d str) -> impl Iterator<Item = ApiResource> + 'd {
    list.get("resources").and_then(Value::as_array).into_iter().flatten().filter_map(move |r| {
        let plural = r.get("name").and_then(Value::as_str).unwrap_or_default();
        (!plural.contains('/') && !plural.is_empty()).then(|| ApiResource {
            group: group.to_string(),
            version: version.to_string(),
            kind: r.get("kind").and_then(Value::as_str).unwrap_or_default().to_string(),
            plural: plural.to_string(),
            namespaced: r.get("namespaced").and_then(Value::as_bool).unwrap_or(false),
        })
    })
}
