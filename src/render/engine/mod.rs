//! Helm 4.2's template engine, in process (helm: pkg/engine/engine.go):
//! every template of the chart and its enabled subcharts parsed into one
//! Go template set (deepest paths first, so a parent's definitions win),
//! then each file that is not a partial executed with its chart's data
//! (`.Values` scoped to the chart, `.Chart`, `.Files`, `.Release`,
//! `.Capabilities`, `.Subcharts`, `.Template`), `missingkey=zero`, and
//! `<no value>` removed from the output. Errors are worded as Helm words
//! them (`parse error at (...)`, `execution error at (...)`, the traced
//! form of nested `include` errors).
//!
//! The output keeps, for each template, which template text or action
//! produced each byte ([`crate::gotmpl::Span`]), the seed of manifest blame.

pub mod funcs;
pub mod glob;
pub mod objects;
pub mod toml;
pub mod toml_decode;
pub mod values;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::chart::Chart;
use crate::gotmpl::func::{FixedHost, Host};
use crate::gotmpl::{GoMap, MissingKey, Rendered, SetOptions, TemplateSet, TmplError, Tv, Val};
use crate::values::coalesce::ChartValues;
use crate::values::tree::VMap;

pub use objects::{Capabilities, HelmVersion, KubeVersion};
pub use values::ReleaseInfo;

/// An error outside Go's own, worded for chart rendering.
fn unsupported(e: TmplError) -> EngineError {
    match e {
        TmplError::Unsupported { file, line, column, construct } => {
            EngineError::Unsupported(format!("{file}:{line}:{column}: {construct}: not modelled by releasex's renderer (Helm would render it; use helm template, or --render-with-helm in upgrade-preview)"))
        }
        other => EngineError::Unsupported(other.to_string()),
    }
}

/// Why the engine did not render.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// Helm fails too, with this text (what `helm template` prints after `Error: `).
    #[error("{0}")]
    Helm(String),
    /// Outside what releasex renders; Helm might succeed.
    #[error("{0}")]
    Unsupported(String),
}

/// What one render needs.
pub struct EngineInput<'a> {
    /// The loaded top chart.
    pub chart: &'a Chart,
    /// The chart tree after dependency processing (explain's `charts`).
    pub charts: &'a ChartValues,
    /// The coalesced values (explain's `values`).
    pub values: &'a VMap,
    pub release: ReleaseInfo,
    pub capabilities: Capabilities,
    /// For blame: what prints an `include`'s result keeps the partial's
    /// spans (costs a copy of each include's text and spans).
    pub inner_spans: bool,
    /// Answers the templates' `lookup` from a cluster (what `helm upgrade`
    /// and `helm template --dry-run=server` give the engine); `None`
    /// renders as `helm template` does, every lookup `{}`.
    pub lookup: Option<&'a LookupFn<'a>>,
    /// A template whose execution fails is left out of the output instead
    /// of failing the render (not Helm's behaviour: for blaming a stored
    /// chart that lost its subcharts, where the rest still renders).
    pub skip_failing: bool,
}

/// `lookup APIVERSION KIND NAMESPACE NAME`: the object or list, or `Err`
/// with the text after `error calling lookup: `.
pub type LookupFn<'a> = dyn Fn(&str, &str, &str, &str) -> Result<serde_json::Value, String> + 'a;

/// The host Helm's engine runs in: no environment, files or commands (Helm
/// gives templates none), the cluster only through `lookup`.
struct EngineHost<'a> {
    fixed: FixedHost,
    lookup: Option<&'a LookupFn<'a>>,
}

impl Host for EngineHost<'_> {
    fn env(&self, name: &str) -> Option<String> {
        self.fixed.env(name)
    }
    fn read_file(&self, path: &str) -> Result<Vec<u8>, String> {
        self.fixed.read_file(path)
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        self.fixed.read_dir(path)
    }
    fn stat(&self, path: &str) -> Option<bool> {
        self.fixed.stat(path)
    }
    fn exec(&self, command: &str, args: &[String], env: &[(String, String)], input: Option<&str>) -> Result<String, String> {
        self.fixed.exec(command, args, env, input)
    }
    fn now_unix_nanos(&self) -> i128 {
        self.fixed.now_unix_nanos()
    }
    fn lookup(&self, api_version: &str, kind: &str, namespace: &str, name: &str) -> Result<serde_json::Value, String> {
        match self.lookup {
            Some(lookup) => lookup(api_version, kind, namespace, name),
            None => self.fixed.lookup(api_version, kind, namespace, name),
        }
    }
}

/// One template's output and the spans that map it back to the template.
#[derive(Debug, Clone)]
pub struct RenderedTemplate {
    pub text: String,
    pub spans: Vec<crate::gotmpl::Span>,
}

/// The engine's output: template name (`chart/templates/x.yaml`) -> text,
/// for every template that is not a partial (NOTES.txt included).
pub type RenderedFiles = BTreeMap<String, RenderedTemplate>;

struct Renderable {
    text: Rc<str>,
    data: GoMap,
    base_path: String,
}

/// helm: engine.go `Render` (`allTemplates` then `render`).
pub fn render(input: &EngineInput<'_>) -> Result<RenderedFiles, EngineError> {
    let mut templates: BTreeMap<String, Renderable> = BTreeMap::new();
    // `.Values` itself is no values node: a fact, so a missing top-level key reads as `.Values.x`.
    let top = values::fact(Tv::new(Val::Map(values::helm_map(input.values, true))), ".Values");
    let caps = Tv::new(Val::Object(Rc::new(input.capabilities.clone())));
    let shared = Shared { release: values::fact(input.release.value(), ".Release"), capabilities: values::fact(caps, ".Capabilities"), top_values: top };
    collect(input.chart, input.chart, input.charts, None, &shared, &mut templates);

    let funcs = crate::gotmpl::with_builtins(&funcs::helm_func_map());
    let keys = sort_templates(templates.keys().cloned().collect());
    let mut set = TemplateSet::new();
    for name in &keys {
        let r = &templates[name];
        set.parse_shared(name, Rc::clone(&r.text), &funcs).map_err(|e| match e {
            TmplError::Parse { go, .. } => EngineError::Helm(cleanup_parse_error(name, &go)),
            other => unsupported(other),
        })?;
    }
    let host = EngineHost { fixed: FixedHost::default(), lookup: input.lookup };
    let opts = SetOptions { funcs: &funcs, host: &host, missingkey: MissingKey::Zero, tpl_name: "gotpl", inner_spans: input.inner_spans };
    let mut out = RenderedFiles::new();
    for name in &keys {
        if base_name(name).starts_with('_') {
            continue;
        }
        let r = &templates[name];
        let template = GoMap::new();
        template.insert("Name".into(), Tv::str(name));
        template.insert("BasePath".into(), Tv::str(&r.base_path));
        r.data.insert("Template".into(), values::fact(Tv::new(Val::Map(template)), ".Template"));
        let rendered = match set.execute(name, &Tv::new(Val::Map(r.data.clone())), &opts) {
            Ok(rendered) => rendered,
            Err(_) if input.skip_failing => continue,
            Err(e) => {
                return Err(match e {
                    TmplError::Exec { go, .. } => EngineError::Helm(reformat_exec_error(name, &go)),
                    TmplError::Parse { go, .. } => EngineError::Helm(go),
                    other => unsupported(other),
                });
            }
        };
        out.insert(name.clone(), strip_no_value(rendered));
    }
    Ok(out)
}

struct Shared {
    release: Tv,
    capabilities: Tv,
    top_values: Tv,
}

fn base_name(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// engine.go `recAllTpls`: the chart's render data and its templates, then
/// its subcharts'; returns the data (a parent's `.Subcharts` entry).
fn collect(top: &Chart, chart: &Chart, shape: &ChartValues, parent: Option<(&GoMap, &str)>, shared: &Shared, out: &mut BTreeMap<String, Renderable>) -> GoMap {
    let is_root = parent.is_none();
    let enabled = |name: &str| shape.dependencies.iter().any(|d| d.name == name);
    let next = GoMap::new();
    next.insert("Chart".into(), values::fact(values::chart_map(&chart.metadata, &shape.name, is_root, &enabled), ".Chart"));
    let files = objects::Files { files: chart.files.iter().map(|f| (f.name.clone(), f.data.clone())).collect() };
    next.insert("Files".into(), values::fact(files.value(), ".Files"));
    next.insert("Release".into(), shared.release.clone());
    next.insert("Capabilities".into(), shared.capabilities.clone());
    // A subchart's `.Values` is its parent's table of its name, the same Go
    // map (values.Table), or an empty map when that is not a table.
    let values = match parent {
        None => shared.top_values.clone(),
        Some((parent_data, _)) => match parent_data.get("Values").map(|v| v.val) {
            Some(Val::Map(m)) => match m.get(&shape.name).map(|v| (v.val, v.origin)) {
                // Keeping the section's origin lets blame name a subchart's unset keys.
                Some((Val::Map(sub), origin)) => Tv { origin, ..Tv::new(Val::Map(sub)) },
                _ => Tv::new(Val::Map(GoMap::new())),
            },
            _ => Tv::new(Val::Map(GoMap::new())),
        },
    };
    next.insert("Values".into(), values);
    let subcharts = GoMap::new();
    next.insert("Subcharts".into(), Tv::new(Val::Map(subcharts.clone())));
    let full_path = match parent {
        None => shape.name.clone(),
        Some((_, parent_path)) => format!("{parent_path}/charts/{}", shape.name),
    };
    for dep in &shape.dependencies {
        let Some(loaded) = loaded_chart(top, &dep.loaded_at) else { continue };
        let data = collect(top, loaded, dep, Some((&next, &full_path)), shared, out);
        subcharts.insert(dep.name.clone(), Tv::new(Val::Map(data)));
    }
    let library = chart.metadata.chart_type.eq_ignore_ascii_case("library");
    for t in &chart.templates {
        // engine.go isTemplateValid: a library chart's only templates are its partials.
        if library && !base_name(&t.name).starts_with('_') {
            continue;
        }
        let name = clean_join(&full_path, &t.name);
        out.insert(name, Renderable { text: Rc::from(t.data.as_str()), data: next.clone(), base_path: format!("{full_path}/templates") });
    }
    next
}

fn loaded_chart<'a>(top: &'a Chart, at: &[usize]) -> Option<&'a Chart> {
    let mut node = top;
    for &i in at {
        node = node.dependencies.get(i)?;
    }
    Some(node)
}

/// Go's `path.Join` for a chart path and a template name (both clean already
/// but for doubled or trailing slashes).
fn clean_join(a: &str, b: &str) -> String {
    let joined = format!("{a}/{b}");
    crate::go::path::clean(&joined)
}

/// engine.go `sortTemplates`: most `/` first, then names in reverse byte order.
pub fn sort_templates(mut keys: Vec<String>) -> Vec<String> {
    keys.sort_by(|a, b| {
        let (ca, cb) = (a.matches('/').count(), b.matches('/').count());
        cb.cmp(&ca).then_with(|| b.cmp(a))
    });
    keys
}

fn strip_no_value(r: Rendered) -> RenderedTemplate {
    if !r.text.contains("<no value>") {
        return RenderedTemplate { text: r.text, spans: r.spans };
    }
    // Spans are dropped only where the text moved; blame then reads the
    // remaining text (rare: only templates that print a missing value).
    RenderedTemplate { text: r.text.replace("<no value>", ""), spans: Vec::new() }
}

/// engine.go `cleanupParseError`.
fn cleanup_parse_error(filename: &str, go: &str) -> String {
    let tokens: Vec<&str> = go.split(": ").collect();
    if tokens.len() == 1 {
        return format!("parse error in ({filename}): {go}");
    }
    format!("parse error at ({}): {}", tokens[1], tokens[tokens.len() - 1])
}

/// engine.go `reformatExecErrorMsg`, over Go's error text: a `required` or
/// `fail` message alone with its place; otherwise each template of the
/// chain (an `include` wraps the included template's error) traced, or
/// Go's text unchanged when some link is not a template error.
pub fn reformat_exec_error(filename: &str, go: &str) -> String {
    let tokens: Vec<&str> = go.splitn(3, ": ").collect();
    if tokens.len() != 3 {
        return format!("execution error in ({filename}): {go}");
    }
    if let Some(start) = tokens[2].find(funcs::WARN_START)
        && let Some(end) = tokens[2].rfind(funcs::WARN_END)
        && end >= start + funcs::WARN_START.len()
    {
        return format!("execution error at ({}): {}", tokens[1], &tokens[2][start + funcs::WARN_START.len()..end]);
    }
    let mut traced: Vec<Traced> = Vec::new();
    let mut current = Some(go.to_string());
    while let Some(text) = current {
        let Some(t) = parse_traceable(&text) else { return go.to_string() };
        if traced.last() != Some(&t) {
            traced.push(t);
        }
        current = wrapped(&text);
    }
    let mut out = String::new();
    for t in &traced {
        if !t.location.is_empty() {
            out.push_str(&format!("{}\n  ", t.location));
        }
        if !t.executed.is_empty() {
            out.push_str(&format!("{}\n    ", t.executed));
        }
        if !t.message.is_empty() {
            out.push_str(&format!("{}\n", t.message));
        }
    }
    out.trim().to_string()
}

#[derive(Debug, PartialEq)]
struct Traced {
    location: String,
    message: String,
    executed: String,
}

/// The error a template error wraps (`errors.Unwrap`): text/template wraps
/// a function's error (`error calling NAME: %w`); nothing else does.
fn wrapped(text: &str) -> Option<String> {
    let rest = text.strip_prefix("template: ")?;
    let (_, after) = rest.split_once(": executing \"")?;
    let (_, msg) = after.split_once(">: ")?;
    let msg = msg.strip_prefix("error calling ")?;
    let (_, inner) = msg.split_once(": ")?;
    Some(inner.to_string())
}

/// engine.go `parseTemplateExecErrorString`.
fn parse_traceable(s: &str) -> Option<Traced> {
    let remainder = s.strip_prefix("template: ")?;
    if remainder.starts_with("no template ") {
        return Some(Traced { location: String::new(), message: s.to_string(), executed: String::new() });
    }
    let cut = |m: &str| m.find(" template:").map_or(m.to_string(), |i| m[..i].to_string());
    if let Some((template, after)) = remainder.split_once(": executing ") {
        let after = after.strip_prefix('"')?;
        let end = after.find('"')?;
        let function = &after[..end];
        let after_at = after[end + 1..].strip_prefix(" at <")?;
        let (location, msg) = after_at.split_once(">: ")?;
        return Some(Traced { location: template.to_string(), message: cut(msg), executed: format!("executing \"{function}\" at <{location}>:") });
    }
    let sep = remainder.rfind(": ")?;
    Some(Traced { location: remainder[..sep].to_string(), message: cut(&remainder[sep + 2..]), executed: String::new() })
}

/// The capabilities `helm template` renders with when no cluster is asked
/// (pkg/chart/common/capabilities.go `DefaultCapabilities`, as Helm 4.2.3
/// builds it: Kubernetes client 1.36), with `--kube-version` and
/// `--api-versions` applied.
pub fn default_capabilities(kube_version: Option<&str>, extra_api_versions: &[String]) -> Result<Capabilities, String> {
    let kube_version = match kube_version {
        Some(v) => KubeVersion::parse(v).map_err(|e| format!("invalid kube version '{v}': {e}"))?,
        None => KubeVersion { version: "v1.36.0".into(), normalized: None, major: "1".into(), minor: "36".into() },
    };
    let mut api_versions: Vec<String> = DEFAULT_API_VERSIONS.iter().map(|s| s.to_string()).collect();
    api_versions.extend(extra_api_versions.iter().cloned());
    Ok(Capabilities {
        kube_version,
        api_versions,
        helm_version: HelmVersion {
            version: "v4.2".into(),
            git_commit: String::new(),
            git_tree_state: String::new(),
            go_version: "go1.26.6".into(),
            kube_client_version: "v1.36".into(),
        },
    })
}

/// client-go's scheme as Helm 4.2.3 lists it (`allKnownVersions`), in its order.
pub const DEFAULT_API_VERSIONS: &[&str] = &[
    "v1",
    "admissionregistration.k8s.io/v1",
    "admissionregistration.k8s.io/v1alpha1",
    "admissionregistration.k8s.io/v1beta1",
    "internal.apiserver.k8s.io/v1alpha1",
    "apps/v1",
    "apps/v1beta1",
    "apps/v1beta2",
    "authentication.k8s.io/v1",
    "authentication.k8s.io/v1alpha1",
    "authentication.k8s.io/v1beta1",
    "authorization.k8s.io/v1",
    "authorization.k8s.io/v1beta1",
    "autoscaling/v1",
    "autoscaling/v2",
    "batch/v1",
    "batch/v1beta1",
    "certificates.k8s.io/v1",
    "certificates.k8s.io/v1beta1",
    "certificates.k8s.io/v1alpha1",
    "coordination.k8s.io/v1alpha2",
    "coordination.k8s.io/v1beta1",
    "coordination.k8s.io/v1",
    "discovery.k8s.io/v1",
    "discovery.k8s.io/v1beta1",
    "events.k8s.io/v1",
    "events.k8s.io/v1beta1",
    "extensions/v1beta1",
    "flowcontrol.apiserver.k8s.io/v1",
    "flowcontrol.apiserver.k8s.io/v1beta1",
    "flowcontrol.apiserver.k8s.io/v1beta2",
    "flowcontrol.apiserver.k8s.io/v1beta3",
    "networking.k8s.io/v1",
    "networking.k8s.io/v1beta1",
    "node.k8s.io/v1",
    "node.k8s.io/v1alpha1",
    "node.k8s.io/v1beta1",
    "policy/v1",
    "policy/v1beta1",
    "rbac.authorization.k8s.io/v1",
    "rbac.authorization.k8s.io/v1beta1",
    "rbac.authorization.k8s.io/v1alpha1",
    "resource.k8s.io/v1",
    "resource.k8s.io/v1beta2",
    "resource.k8s.io/v1beta1",
    "resource.k8s.io/v1alpha3",
    "scheduling.k8s.io/v1alpha2",
    "scheduling.k8s.io/v1beta1",
    "scheduling.k8s.io/v1",
    "storage.k8s.io/v1beta1",
    "storage.k8s.io/v1",
    "storage.k8s.io/v1alpha1",
    "storagemigration.k8s.io/v1beta1",
    "apiextensions.k8s.io/v1beta1",
    "apiextensions.k8s.io/v1",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_sort_deepest_first_then_in_reverse_name_order() {
        let keys = vec!["p/templates/a.yaml".into(), "p/charts/s/templates/b.yaml".into(), "p/templates/b.yaml".into(), "p/templates/_h.tpl".into()];
        assert_eq!(sort_templates(keys), vec!["p/charts/s/templates/b.yaml", "p/templates/b.yaml", "p/templates/a.yaml", "p/templates/_h.tpl"]);
    }

    #[test]
    fn a_required_message_is_reported_alone_at_its_place() {
        let go = "template: p/templates/a.yaml:3:5: executing \"p/templates/a.yaml\" at <required \"need x\" .Values.x>: error calling required: HELM_ERR_STARTneed xHELM_ERR_END";
        assert_eq!(reformat_exec_error("p/templates/a.yaml", go), "execution error at (p/templates/a.yaml:3:5): need x");
    }

    #[test]
    fn an_include_error_is_traced_through_each_template() {
        let go = "template: p/templates/a.yaml:3:4: executing \"p/templates/a.yaml\" at <include \"x\" .>: error calling include: template: p/templates/_h.tpl:1:2: executing \"x\" at <.Values.a.b>: nil pointer evaluating interface {}.b";
        assert_eq!(
            reformat_exec_error("p/templates/a.yaml", go),
            "p/templates/a.yaml:3:4\n  executing \"p/templates/a.yaml\" at <include \"x\" .>:\n    error calling include:\np/templates/_h.tpl:1:2\n  executing \"x\" at <.Values.a.b>:\n    nil pointer evaluating interface {}.b"
        );
    }

    #[test]
    fn an_error_from_a_function_that_is_not_a_template_stays_go_s_text() {
        let go = "template: p/templates/a.yaml:1:3: executing \"p/templates/a.yaml\" at <tpl \"{{\" .>: error calling tpl: cannot parse template \"{{\": template: gotpl:1: unclosed action";
        assert_eq!(reformat_exec_error("p/templates/a.yaml", go), go);
    }
}
