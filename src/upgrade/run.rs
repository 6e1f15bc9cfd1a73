//! The upgrade-preview pipeline after the values: the baseline Helm starts
//! from, the render decision (Helm with the mode's values, or a manifest
//! rendered elsewhere) and its warnings, the live objects (GET only), the
//! plan, `--ignore` and Secret masking. Returns report values; `cli` prints.

use crate::render::engine::ReleaseInfo;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::manifest::{Manifest, apply_ignores, mask_secrets};
use super::{ApplyMethod, IgnoreRule, LiveKey, ModeOutcome, Operation, Plan, PlanInput, apply_method, plan};
use crate::chart::Chart;
use crate::parallel::Beside;
use crate::cluster::{ClusterError, Discovery, KubeTarget, ObjectRef, ReadOnlyCluster};
use crate::release::Release;
use crate::release::history::{self, Baseline};
use crate::render::{self, RenderError, TemplateRequest};

#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    /// helm: pkg/action/upgrade.go (the message `helm upgrade` prints), with
    /// how to get out of the state when there is a known way.
    #[error("helm upgrade would fail with: UPGRADE FAILED: {error}{remedy}")]
    NoBaseline { error: history::BaselineError, remedy: String },
    #[error("revision {revision} of {release} is missing from the records read")]
    MissingRevision { revision: i64, release: String },
    #[error(
        "rendering needs Helm: set HELM_BIN or put helm on PATH, or render elsewhere and pass the result with --manifest FILE|- \
         (e.g. `helm template {release} CHART --is-upgrade -n {namespace} ... | kubectl releasex upgrade-preview {release} CHART --manifest -`); \
         --values-only previews the values without rendering"
    )]
    NoHelm { release: String, namespace: String },
    #[error("helm upgrade would fail on {0}")]
    ManifestFails(String),
    /// The release has no records: Helm's `Last` finds none
    /// (helm: pkg/action/upgrade.go, driver.NewErrNoDeployedReleases).
    #[error("helm upgrade would fail with: UPGRADE FAILED: {release:?} has no deployed releases (no records in {place}); with --install, helm upgrade installs it (add --install to preview that)")]
    NoRecords { release: String, place: String },
    /// helm: pkg/action/upgrade.go (`driver.ContainsSystemLabels`).
    #[error("helm upgrade would fail with: UPGRADE FAILED: {0}")]
    ReservedLabels(String),
    /// helm: pkg/kube/client.go Build (through the REST mapper).
    #[error(
        "resource mapping not found for name: {name:?} from {template:?}: no matches for kind {kind:?} in version {api_version:?}\nensure CRDs are installed first"
    )]
    UnknownKind { name: String, template: String, kind: String, api_version: String },
    #[error("the manifest of revision {revision}")]
    BaselineManifest {
        revision: i64,
        #[source]
        source: Box<PreviewError>,
    },
    #[error("{0}")]
    ApplyMethod(String),
    /// helm: pkg/action/rollback.go prepareRollback.
    #[error("helm rollback would fail with: {0}")]
    Rollback(String),
    #[error("could not get information about the resource {kind} {name}")]
    LiveObject {
        kind: String,
        name: String,
        #[source]
        source: Box<ClusterError>,
    },
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The native renderer: Helm fails the same way (helm: pkg/action/upgrade.go prints `UPGRADE FAILED`).
    #[error("helm upgrade would fail with: UPGRADE FAILED: {0}")]
    NativeRender(String),
    /// Outside what the native renderer models, and no Helm to render with.
    #[error("cannot render natively: {0}; set HELM_BIN or put helm on PATH and pass --render-with-helm")]
    NativeUnsupported(String),
    #[error(transparent)]
    Cluster(Box<ClusterError>),
}

impl From<ClusterError> for PreviewError {
    fn from(e: ClusterError) -> PreviewError {
        PreviewError::Cluster(Box::new(e))
    }
}

impl PreviewError {
    /// Whether this is `helm upgrade`'s own failure (no deployed baseline,
    /// a pending operation, a manifest Helm refuses, a kind the cluster does
    /// not serve), not a failure of the preview.
    pub fn helm_would_fail(&self) -> bool {
        match self {
            PreviewError::NoBaseline { .. }
            | PreviewError::ManifestFails(_)
            | PreviewError::ReservedLabels(_)
            | PreviewError::NoRecords { .. }
            | PreviewError::Rollback(_)
            | PreviewError::UnknownKind { .. } => true,
            // The chart does not render: the upgrade fails with the same error.
            PreviewError::Render(RenderError::Helm { .. }) | PreviewError::NativeRender(_) => true,
            PreviewError::BaselineManifest { source, .. } => source.helm_would_fail(),
            _ => false,
        }
    }
}

/// Where the preview starts: Helm's baseline (the revision whose manifest
/// the objects are patched from), and the record whose `apply_method`
/// decides `--server-side auto` (an upgrade's newest revision, a rollback's target).
pub struct Start<'r> {
    pub base: Baseline,
    pub baseline: &'r Release,
    pub apply_method_from: &'r Release,
}

/// Where an install starts: the empty `stand_in` (no config, no manifest),
/// revision 1, or the one after the uninstalled revision it replaces
/// (helm: pkg/action/install.go `replaceRelease`).
pub fn install_start(stand_in: &Release, replaces: Option<i64>) -> Start<'_> {
    let base = Baseline {
        revision: replaces.unwrap_or(0),
        reason: history::BaselineReason::Install { replaces },
        next_revision: replaces.map_or(1, |r| r + 1),
    };
    Start { base, baseline: stand_in, apply_method_from: stand_in }
}

/// Helm's choice of the revision an upgrade starts from (helm:
/// pkg/action/upgrade.go prepareUpgrade), failing as `helm upgrade` fails.
pub fn start<'r>(release: &str, releases: &[&'r Release]) -> Result<Start<'r>, PreviewError> {
    let base = history::baseline(release, releases).map_err(|error| PreviewError::NoBaseline {
        error,
        remedy: history::explain_state(release, releases).map(|s| format!("\n{s}")).unwrap_or_default(),
    })?;
    let Some(baseline) = releases.iter().copied().find(|r| r.version() == base.revision) else {
        return Err(PreviewError::MissingRevision { revision: base.revision, release: release.to_string() });
    };
    let last = releases.iter().copied().max_by_key(|r| r.version()).unwrap_or(baseline);
    Ok(Start { base, baseline, apply_method_from: last })
}

/// Where the new manifest comes from.
pub enum ManifestSource<'a> {
    /// `--manifest`: rendered elsewhere; or a rollback's target record
    /// (its manifest and hooks).
    Given(String),
    /// `helm template` with the mode's values, the cluster's capabilities,
    /// `--is-upgrade`; `None` when no Helm was found (then it is an error).
    Helm {
        /// The chart as the user named it (Helm renders from there).
        chart_path: &'a Path,
        mode: &'a ModeOutcome,
        helm_bin: Option<PathBuf>,
        /// `--lookup`: Helm renders with `--dry-run=server` against the cluster.
        lookup: bool,
        kube_context: Option<String>,
        kubeconfig: Option<PathBuf>,
        options: render::RenderOptions,
        /// Render in process (the default): Helm only renders when asked
        /// (`--render-with-helm`), or for what the native renderer does not model.
        native: bool,
    },
}

/// Everything the objects part takes.
pub struct ObjectsRequest<'a> {
    pub release: &'a str,
    pub namespace: &'a str,
    pub start: &'a Start<'a>,
    /// The new chart (its `crds/`, and what `helm template` renders
    /// differently); none for a rollback, whose manifest is a record's.
    pub chart: Option<&'a Chart>,
    pub manifest: ManifestSource<'a>,
    pub target: &'a KubeTarget,
    pub server_side: &'a str,
    pub take_ownership: bool,
    /// `--no-hooks`.
    pub no_hooks: bool,
    /// `--offline`: no API server; see [`super::offline`].
    pub offline: bool,
    /// An install (the baseline is an empty stand-in) renders as an install
    /// and checks existing objects with install's words; a rollback goes
    /// from the current record to the target's manifest (see [`Operation`]).
    pub operation: Operation,
    /// `--force-replace` / `--force`.
    pub force_replace: bool,
    /// `--create-namespace` (with an install).
    pub create_namespace: bool,
    /// `--skip-crds` (with an install).
    pub skip_crds: bool,
    pub force_conflicts: bool,
    pub ignore: &'a [IgnoreRule],
    pub show_secrets: bool,
    pub concurrency: usize,
    /// The cluster's discovery when the caller started reading it (while
    /// it read the records), else it is read here.
    pub discovery: Option<&'a crate::cluster::DiscoveryPrefetch>,
    /// Told what takes long (the CLI prints it on a terminal's stderr).
    pub progress: &'a dyn Fn(&str),
    /// `--why`: blame each field of the new objects (native render only).
    pub why: bool,
}

/// The objects part's answer.
pub struct ObjectsReport {
    pub plan: Plan,
    /// How Helm applies the objects (`--server-side` resolved).
    pub method: ApplyMethod,
    pub manifest: Manifest,
    /// What rendering through `helm template` cannot reproduce (`.Release.Revision`, `lookup`).
    pub render_warnings: Vec<String>,
    /// `--offline`: the live state was not read; each object was compared
    /// with the baseline's stored manifest.
    pub offline: bool,
}

/// Renders (or takes the given manifest), reads the live objects and computes the plan.
pub fn preview_objects(req: &ObjectsRequest<'_>) -> Result<ObjectsReport, PreviewError> {
    let mut render_warnings = Vec::new();
    let blamed = std::cell::RefCell::new(Blamed::default());
    // Kept alive until Helm has rendered: the chart copy --reuse-values needs.
    let mut _chart_copy = None;
    let new_manifest = match &req.manifest {
        ManifestSource::Given(text) => NewManifest::Given(text.clone()),
        ManifestSource::Helm { mode, native: true, lookup, options, .. }
            if let (Some(chart), Some(charts)) = (req.chart, mode.charts.as_ref())
                && options.post_renderer.is_none()
                && !options.enable_dns =>
        {
            render_warnings.extend(render_warnings_of(chart, None, *lookup));
            NewManifest::Native(NativeRequest {
                chart,
                charts,
                values: &mode.values,
                // The upgrade's own revision and flags, as `helm upgrade` renders (not helm template's revision 1).
                release: ReleaseInfo {
                    name: req.release.to_string(),
                    namespace: req.namespace.to_string(),
                    revision: req.start.base.next_revision,
                    is_upgrade: req.operation != Operation::Install,
                    is_install: req.operation == Operation::Install,
                },
                options: options.clone(),
                blame: req.why.then_some(&blamed),
                baseline: (req.operation != Operation::Install).then_some(req.start.baseline),
                lookup_in: lookup.then_some(req.target),
            })
        }
        ManifestSource::Helm { chart_path, mode, helm_bin, lookup, kube_context, kubeconfig, options, .. } => {
            let Some(helm_bin) = helm_bin.clone() else {
                return Err(PreviewError::NoHelm { release: req.release.to_string(), namespace: req.namespace.to_string() });
            };
            let inputs = mode.render_inputs();
            let chart_path = match &inputs.parent_values {
                Some(values) => {
                    let (dir, path) = render::chart_with_values(chart_path, values)?;
                    _chart_copy = Some(dir);
                    path
                }
                None => chart_path.to_path_buf(),
            };
            if let Some(chart) = req.chart {
                render_warnings.extend(render_warnings_of(chart, Some(req.start.base.next_revision), *lookup));
            }
            NewManifest::Helm(Box::new(TemplateRequest {
                helm_bin,
                release: req.release.to_string(),
                chart: chart_path,
                namespace: req.namespace.to_string(),
                values: inputs.values,
                set_values: inputs.set_ints,
                kube_version: None,
                api_versions: Vec::new(),
                is_upgrade: req.operation != Operation::Install,
                server_dry_run: *lookup,
                kube_context: lookup.then(|| kube_context.clone()).flatten(),
                kubeconfig: lookup.then(|| kubeconfig.clone()).flatten(),
                options: options.clone(),
            }))
        }
    };
    if req.why && !matches!(new_manifest, NewManifest::Native(_)) {
        render_warnings.push(match new_manifest {
            NewManifest::Given(_) => "--why: the manifest was given, not rendered, so no line says which values key printed it".into(),
            _ => "--why: Helm rendered the chart (--render-with-helm, --post-renderer or --enable-dns), so no line says which values key printed it; --why needs releasex's own renderer".into(),
        });
    }
    if req.offline {
        let kube_version = match &new_manifest {
            NewManifest::Helm(template) => template.options.kube_version.clone(),
            NewManifest::Native(native) => native.options.kube_version.clone(),
            NewManifest::Given(_) => None,
        };
        let manifest_text = new_manifest.text(None, req.progress)?;
        let baseline_text = req.start.baseline.manifest();
        let read_baseline = || render::parse_manifest(baseline_text);
        let chart = req.chart;
        let read_crds = move || chart.map(render::crds);
        let (new, old, crds) = crate::timings::timed("parse manifests", || {
            std::thread::scope(|s| {
                let baseline = Beside::start(s, &read_baseline);
                let crds = Beside::start(s, &read_crds);
                (render::parse_manifest(&manifest_text), baseline.wait(), crds.wait())
            })
        });
        // Every document read (hooks and the chart's CRDs too) tells the kinds there are.
        let mut documents: Vec<&serde_json::Value> = Vec::new();
        for r in [&new, &old] {
            documents.extend(r.objects.iter().map(|o| &o.value).chain(r.hooks.iter().map(|h| &h.object.value)));
        }
        documents.extend(crds.iter().flat_map(|c| c.objects.iter().map(|o| &o.value)));
        let discovery = super::offline::discovery(&documents, kube_version.as_deref());
        let old = super::manifest::map_kinds(old, req.namespace, &discovery);
        let (new, old, method, _) = manifests(&discovery, req, new, crds, old)?;
        let live = super::offline::live_from_stored(&old, req.release, req.namespace);
        let (mut plan, manifest, method) = finish(req, new, old, live, method);
        attach_why(&mut plan, blamed.take(), req.show_secrets);
        return Ok(ObjectsReport { plan, manifest, method, render_warnings, offline: true });
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(PreviewError::Runtime)?;
    let baseline_text = req.start.baseline.manifest();
    let (given_text, template, native) = match new_manifest {
        NewManifest::Given(text) => (Some(text), None, None),
        NewManifest::Helm(template) => (None, Some(template), None),
        NewManifest::Native(native) => (None, None, Some(native)),
    };
    let read_baseline = || render::parse_manifest(baseline_text);
    let read_given = || render::parse_manifest(given_text.as_deref().unwrap_or_default());
    // The chart's `crds/` (listed, never applied on upgrade) can be large: read beside too.
    let chart = req.chart;
    let read_crds = move || chart.map(render::crds);
    let (plan, manifest, method) = std::thread::scope(|s| {
        // The manifests' YAML needs neither the cluster nor the render: it is
        // read on other threads while discovery is waited for (and Helm renders).
        let reading = crate::timings::phase("parse manifests");
        let baseline = Beside::start(s, &read_baseline);
        let crds = Beside::start(s, &read_crds);
        let new = match (template, native) {
            (Some(template), _) => NewObjects::ToRender(template),
            (None, Some(native)) => NewObjects::Native(native),
            (None, None) => NewObjects::Read(Beside::start(s, &read_given)),
        };
        runtime.block_on(async {
            let cluster = ReadOnlyCluster::connect(req.target).await?;
            (req.progress)("reading the cluster's API discovery");
            let owned;
            let discovery = match req.discovery {
                Some(prefetch) => crate::timings::timed("API discovery (read beside the records)", || prefetch.get())?,
                None => {
                    let _phase = crate::timings::phase("API discovery");
                    owned = cluster.discover().await?;
                    &owned
                }
            };
            let new = match new {
                NewObjects::ToRender(template) => NewObjects::Rendering(render_beside(*template, discovery, req.progress)),
                other => other,
            };
            let baseline = baseline.wait();
            drop(reading);
            plan_against(&cluster, discovery, req, new, baseline, crds).await
        })
    })?;
    let mut plan = plan;
    attach_why(&mut plan, blamed.take(), req.show_secrets);
    Ok(ObjectsReport { plan, manifest, method, render_warnings, offline: false })
}

/// `--why`'s blame: of the new render, and of the baseline's objects that
/// its stored chart renders again as stored.
#[derive(Default)]
struct Blamed {
    new: Vec<render::blame::ObjectBlame>,
    before: Vec<render::blame::ObjectBlame>,
}

/// Gives each planned object the blame of the rendered object it came from
/// (same kind, name and template), and of the baseline's.
fn attach_why(plan: &mut Plan, blamed: Blamed, show_secrets: bool) {
    let by_object = |mut objects: Vec<render::blame::ObjectBlame>| -> HashMap<(String, String, String), Vec<render::blame::FieldBlame>> {
        if !show_secrets {
            render::blame::mask_secrets(&mut objects);
        }
        objects.into_iter().map(|o| ((o.kind, o.name, o.source), o.fields)).collect()
    };
    let (mut new, mut before) = (by_object(blamed.new), by_object(blamed.before));
    for o in &mut plan.objects {
        let key = (o.kind.clone(), o.name.clone(), o.source.clone());
        if let Some(fields) = new.remove(&key) {
            o.why = fields;
        }
        if let Some(fields) = before.remove(&key) {
            o.why_before = fields;
        }
    }
}

/// The new manifest: read on a thread already, to be rendered by Helm, or
/// being rendered on a thread.
enum NewObjects<'s> {
    Read(Beside<'s, render::Rendered>),
    ToRender(Box<TemplateRequest>),
    Rendering(std::thread::JoinHandle<Result<String, RenderError>>),
    /// Rendered in process once discovery is read (a fraction of a round trip).
    Native(NativeRequest<'s>),
    /// Rendered in process while the baseline's objects were read.
    Rendered(String),
}

/// Reads `refs` on this thread with a runtime and connection of its own
/// (the caller's thread is rendering meanwhile).
fn read_beside(
    target: &KubeTarget,
    refs: Vec<(LiveKey, ObjectRef)>,
    concurrency: usize,
) -> Result<(HashMap<LiveKey, crate::cluster::ObjectResult>, crate::cluster::ReadCounts), PreviewError> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(PreviewError::Runtime)?;
    runtime.block_on(async {
        let cluster = ReadOnlyCluster::connect(target).await?;
        let (mut fetched, mut counts) = (HashMap::new(), crate::cluster::ReadCounts::default());
        read_into(&cluster, refs, concurrency, &mut fetched, &mut counts).await;
        Ok((fetched, counts))
    })
}

/// Starts `helm template` on a thread of its own with the cluster's
/// capabilities: the baseline's live objects are read while it renders.
fn render_beside(mut template: TemplateRequest, discovery: &Discovery, progress: &dyn Fn(&str)) -> std::thread::JoinHandle<Result<String, RenderError>> {
    NewManifest::with_capabilities(&mut template, Some(discovery), progress);
    std::thread::spawn(move || render::helm_template(&template))
}

/// What `helm template` renders differently from the upgrade itself.
fn render_warnings_of(chart: &Chart, next_revision: Option<i64>, lookup: bool) -> Vec<String> {
    let mut warnings = Vec::new();
    // The native renderer renders the upgrade's revision (`None`): only helm template differs.
    if let Some(next_revision) = next_revision {
        for t in render::uses_release_revision(chart) {
            warnings.push(format!(
                "{t} uses .Release.Revision: helm template renders revision 1, the upgrade renders revision {next_revision}; objects that depend on it show different here"
            ));
        }
    }
    if !lookup {
        for l in render::lookup_calls(chart) {
            warnings.push(format!(
                "{}:{} calls lookup, which returns nothing without a cluster: {}will look regenerated here; --lookup lets Helm read the cluster (GET only)",
                l.template,
                l.line,
                l.field.as_deref().map(|f| format!("{f} ")).unwrap_or_default()
            ));
        }
    }
    warnings
}

enum NewManifest<'a> {
    Given(String),
    /// Rendered with the cluster's capabilities (filled in once discovery is read).
    Helm(Box<TemplateRequest>),
    /// Rendered in process, with the cluster's capabilities.
    Native(NativeRequest<'a>),
}

/// What the native renderer needs besides the capabilities.
struct NativeRequest<'a> {
    chart: &'a Chart,
    charts: &'a crate::values::coalesce::ChartValues,
    values: &'a crate::values::tree::VMap,
    release: ReleaseInfo,
    options: render::RenderOptions,
    /// `--why`: where the render's blame goes.
    blame: Option<&'a std::cell::RefCell<Blamed>>,
    /// The record the upgrade starts from (its stored chart is blamed too,
    /// for the lines the upgrade removes); none for an install.
    baseline: Option<&'a Release>,
    /// `--lookup`: the cluster the templates' `lookup` reads (GET and LIST),
    /// as `helm upgrade` renders; `None`: every lookup is `{}`.
    lookup_in: Option<&'a KubeTarget>,
}

impl NativeRequest<'_> {
    /// Renders as `helm upgrade` does: the cluster's version and API versions
    /// (pkg/action/action.go getCapabilities) when there is a cluster, else
    /// Helm's defaults; `--kube-version` replaces the version and
    /// `--api-versions` adds to the set.
    fn text(&self, discovery: Option<&Discovery>, progress: &dyn Fn(&str)) -> Result<String, PreviewError> {
        progress(&format!("rendering {} (in process)", self.chart.path));
        let server_version = discovery.map(|d| d.server_version.clone()).filter(|v| !v.is_empty());
        let kube_version = self.options.kube_version.clone().or(server_version);
        let mut capabilities = render::engine::default_capabilities(kube_version.as_deref(), &self.options.api_versions).map_err(PreviewError::NativeRender)?;
        if let Some(d) = discovery {
            let mut served = render::api_version_flags(&d.served());
            served.extend(self.options.api_versions.iter().cloned());
            capabilities.api_versions = served;
        }
        let lookups = self.lookup_in.zip(discovery).map(|(target, d)| crate::cluster::Lookups::new(target, d.clone()));
        let lookup = lookups.as_ref().map(|l| move |api_version: &str, kind: &str, namespace: &str, name: &str| l.lookup(api_version, kind, namespace, name));
        let input = render::engine::EngineInput {
            chart: self.chart,
            charts: self.charts,
            values: self.values,
            release: self.release.clone(),
            capabilities,
            inner_spans: self.blame.is_some(),
            lookup: lookup.as_ref().map(|f| f as &render::engine::LookupFn<'_>),
            skip_failing: false,
        };
        let phase = lookups.as_ref().map(|_| crate::timings::phase("render with lookup"));
        let rendered = render::template::render_template(&input, &render::template::TemplateOutput::default());
        if let (Some(phase), Some(l)) = (phase, &lookups) {
            let (gets, lists) = l.requests();
            drop(phase.rename(format!("render with lookup: {gets} GETs, {lists} LISTs")));
        }
        match rendered {
            Ok(t) => {
                if let Some(cell) = self.blame {
                    let new = crate::timings::timed("blame", || render::blame::blame(&t.files, &t.sorted, self.values));
                    let before = match self.baseline {
                        Some(baseline) => crate::timings::timed("blame the baseline", || super::baseline_blame::blame_baseline(baseline, input.capabilities.clone(), input.lookup)),
                        None => Vec::new(),
                    };
                    *cell.borrow_mut() = Blamed { new, before };
                }
                Ok(t.text)
            }
            Err(render::template::NativeError::Helm(m)) => Err(PreviewError::NativeRender(m)),
            Err(render::template::NativeError::Unsupported(m)) => Err(PreviewError::NativeUnsupported(m)),
        }
    }
}

impl NewManifest<'_> {
    /// The manifest as given, or rendered by Helm with the capabilities of
    /// `discovery` (none offline: Helm's defaults) unless the user's
    /// `--kube-version` replaces the version and `--api-versions` adds to them.
    fn text(self, discovery: Option<&Discovery>, progress: &dyn Fn(&str)) -> Result<String, PreviewError> {
        let mut template = match self {
            NewManifest::Given(text) => return Ok(text),
            NewManifest::Native(native) => return native.text(discovery, progress),
            NewManifest::Helm(template) => template,
        };
        NewManifest::with_capabilities(&mut template, discovery, progress);
        Ok(render::helm_template(&template)?)
    }

    fn with_capabilities(template: &mut TemplateRequest, discovery: Option<&Discovery>, progress: &dyn Fn(&str)) {
        progress(&format!("rendering {} with {}", template.chart.display(), template.helm_bin.display()));
        let server_version = discovery.map(|d| d.server_version.clone()).filter(|v| !v.is_empty());
        template.kube_version = template.options.kube_version.clone().or(server_version);
        template.api_versions = discovery.map(|d| render::api_version_flags(&d.served())).unwrap_or_default();
        template.api_versions.extend(template.options.api_versions.iter().cloned());
    }
}

/// Reads the live objects and computes the plan. The baseline's objects
/// are read from the cluster first, while Helm renders; then those of the
/// new manifest not read yet. Errors come in the order of a plain pipeline:
/// the render, the new manifest, the baseline's, then reading an object
/// (the first in the order of the new manifest, then the baseline's).
async fn plan_against(
    cluster: &ReadOnlyCluster,
    discovery: &Discovery,
    req: &ObjectsRequest<'_>,
    new: NewObjects<'_>,
    baseline: render::Rendered,
    crds: Beside<'_, Option<render::Crds>>,
) -> Result<(Plan, Manifest, ApplyMethod), PreviewError> {
    let old = super::manifest::map_kinds(baseline, req.namespace, discovery);
    let mut counts = crate::cluster::ReadCounts::default();
    let mut fetched: HashMap<LiveKey, crate::cluster::ObjectResult> = HashMap::new();
    let rendering = !matches!(new, NewObjects::Read(_));
    let reading = crate::timings::phase("read live objects");
    let mut new = new;
    if let (true, Ok(old)) = (rendering, &old) {
        let refs = object_refs(discovery, &old.objects, &mut HashSet::new());
        match new {
            // The native render holds this thread: the baseline's objects are
            // read on another one (with its own connection) meanwhile.
            NewObjects::Native(native) => {
                let (target, concurrency) = (req.target, req.concurrency);
                let (text, read) = std::thread::scope(|s| {
                    let reader = s.spawn(move || read_beside(target, refs, concurrency));
                    let text = native.text(Some(discovery), req.progress);
                    (text, reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                });
                // The render's error first, as in a plain pipeline.
                let text = text?;
                let (read, read_counts) = read?;
                fetched.extend(read);
                counts.add(&read_counts);
                new = NewObjects::Rendered(text);
            }
            other => {
                read_into(cluster, refs, req.concurrency, &mut fetched, &mut counts).await;
                new = other;
            }
        }
    }
    drop(reading);
    let new_rendered = match new {
        NewObjects::Rendered(text) => crate::timings::timed("parse manifests", || render::parse_manifest(&text)),
        NewObjects::Read(reading) => reading.wait(),
        NewObjects::ToRender(template) => {
            let text = NewManifest::Helm(template).text(Some(discovery), req.progress)?;
            crate::timings::timed("parse manifests", || render::parse_manifest(&text))
        }
        NewObjects::Rendering(handle) => {
            let text = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            crate::timings::timed("parse manifests", || render::parse_manifest(&text))
        }
        NewObjects::Native(native) => {
            let text = native.text(Some(discovery), req.progress)?;
            crate::timings::timed("parse manifests", || render::parse_manifest(&text))
        }
    };
    let (new, old, method, refs) = manifests(discovery, req, new_rendered, crds.wait(), old)?;
    let missing: Vec<(LiveKey, ObjectRef)> = refs.iter().filter(|(k, _)| !fetched.contains_key(k)).cloned().collect();
    (req.progress)(&format!("reading {} live objects ({} at a time)", missing.len(), req.concurrency));
    let reading = crate::timings::phase("read live objects");
    read_into(cluster, missing, req.concurrency, &mut fetched, &mut counts).await;
    drop(reading.rename(format!("read {} live objects: {} LIST pages, {} GETs", refs.len(), counts.lists, counts.gets)));
    let mut live = HashMap::new();
    for (k, _) in &refs {
        match fetched.remove(k) {
            Some(Ok(Some(v))) => {
                live.insert(k.clone(), v);
            }
            Some(Err(source)) => return Err(PreviewError::LiveObject { kind: k.kind.clone(), name: k.name.clone(), source: Box::new(source) }),
            Some(Ok(None)) | None => {}
        }
    }
    Ok(crate::timings::timed("plan", || finish(req, new, old, live, method)))
}

/// Reads `refs` from the cluster into `fetched`, adding to `counts`.
async fn read_into(
    cluster: &ReadOnlyCluster,
    refs: Vec<(LiveKey, ObjectRef)>,
    concurrency: usize,
    fetched: &mut HashMap<LiveKey, crate::cluster::ObjectResult>,
    counts: &mut crate::cluster::ReadCounts,
) {
    if refs.is_empty() {
        return;
    }
    let (keys, objects): (Vec<LiveKey>, Vec<ObjectRef>) = refs.into_iter().unzip();
    let (results, read) = cluster.read_objects(&objects, concurrency).await;
    counts.add(&read);
    fetched.extend(keys.into_iter().zip(results));
}

/// Each object once (`seen` are skipped), with the resource it is read from.
fn object_refs(discovery: &Discovery, objects: &[super::ManifestObject], seen: &mut HashSet<LiveKey>) -> Vec<(LiveKey, ObjectRef)> {
    objects
        .iter()
        .map(|o| LiveKey::of(&o.object))
        .filter(|k| seen.insert(k.clone()))
        .filter_map(|k| {
            let resource = discovery.find(&k.api_version, &k.kind)?.clone();
            let r = ObjectRef { resource, namespace: k.namespace.clone(), name: k.name.clone() };
            Some((k, r))
        })
        .collect()
}

/// The new and the baseline manifests (read already) through `discovery`,
/// the apply method, and each object of both (once) with the resource to read it from.
#[allow(clippy::type_complexity)]
fn manifests(
    discovery: &Discovery,
    req: &ObjectsRequest<'_>,
    new: render::Rendered,
    crds: Option<render::Crds>,
    old: Result<Manifest, PreviewError>,
) -> Result<(Manifest, Manifest, ApplyMethod, Vec<(LiveKey, ObjectRef)>), PreviewError> {
    let baseline = req.start.baseline;
    let mut new = super::manifest::map_kinds(new, req.namespace, discovery)?;
    if let Some(crds) = crds {
        new.crds = crds.objects;
        new.warnings.extend(crds.warnings.iter().map(ToString::to_string));
    }
    let old = old.map_err(|e| PreviewError::BaselineManifest { revision: baseline.version(), source: Box::new(e) })?;
    let method = apply_method(req.server_side, req.start.apply_method_from.apply_method_field()).map_err(PreviewError::ApplyMethod)?;
    let mut seen = HashSet::new();
    let mut refs = object_refs(discovery, &new.objects, &mut seen);
    refs.extend(object_refs(discovery, &old.objects, &mut seen));
    if req.operation == Operation::Install && req.create_namespace
        && let Some(resource) = discovery.find("v1", "Namespace")
    {
        refs.push((namespace_key(req.namespace), ObjectRef { resource: resource.clone(), namespace: None, name: req.namespace.to_string() }));
    }
    Ok((new, old, method, refs))
}

fn namespace_key(namespace: &str) -> LiveKey {
    LiveKey::of(&serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}))
}

/// `--create-namespace`: Helm creates the release namespace, labelled
/// `name: NAMESPACE`, before anything else, and ignores "already exists"
/// (helm: pkg/action/install.go).
fn add_namespace_creation(plan: &mut Plan, namespace: &str, exists: bool, offline: bool, server_side: bool) {
    if exists {
        return;
    }
    let body = serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace, "labels": {"name": namespace}}});
    let object = super::ManifestObject { source: "--create-namespace".into(), object: body };
    let mut p = super::ObjectPlan::created(&object, server_side);
    if offline {
        p.notes.push("offline: Helm creates the namespace if it does not exist".into());
    }
    plan.objects.insert(0, p);
}

/// The plan from the manifests and the live objects, with ignores and masking applied.
fn finish(req: &ObjectsRequest<'_>, new: Manifest, old: Manifest, live: HashMap<LiveKey, Value>, method: ApplyMethod) -> (Plan, Manifest, ApplyMethod) {
    let baseline = req.start.baseline;
    let mut plan = plan(&PlanInput {
        release: req.release,
        namespace: req.namespace,
        targets: &new.objects,
        originals: &old.objects,
        live: &live,
        method,
        take_ownership: req.take_ownership,
        force_conflicts: req.force_conflicts,
        // A rollback always moves Helm's client-side field ownership first
        // (pkg/action/rollback.go: ClientUpdateOptionUpgradeClientSideFieldManager(true)).
        baseline_client_side: req.operation == Operation::Rollback || baseline.apply_method_field() != Some("ssa"),
        openapi: None,
        operation: req.operation,
        force_replace: req.force_replace,
    });
    let install = req.operation == Operation::Install;
    if install && req.create_namespace {
        add_namespace_creation(&mut plan, req.namespace, live.contains_key(&namespace_key(req.namespace)), req.offline, method == ApplyMethod::ServerSide);
    }
    if method == ApplyMethod::ServerSide {
        plan.warnings.push("server-side apply: Helm sends each whole object as field manager \"helm\"".into());
    }
    plan.hooks_disabled = req.no_hooks;
    plan.operation = req.operation;
    plan.installs_crds = install && !req.skip_crds;
    apply_ignores(&mut plan, req.ignore);
    if !req.show_secrets {
        mask_secrets(&mut plan);
    }
    (plan, new, method)
}

/// Whether the plan changes anything (for `--detailed-exitcode`).
pub fn has_changes(plan: &Plan) -> bool {
    plan.objects.iter().any(|o| o.action.changes())
}
