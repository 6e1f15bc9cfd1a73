//! What `helm template` prints, from the engine's files: the tail of
//! `renderResources` (helm: pkg/action/action.go: NOTES.txt taken out,
//! `releaseutil.SortManifests`, CRDs first with `--include-crds`, one
//! `---\n# Source: PATH\n` block per document) and of the template command
//! (pkg/cmd/template.go: the manifest trimmed, then the hooks, `--skip-tests`,
//! `--no-hooks`, `--show-only`).

use super::engine::RenderedFiles;
use super::hooks::{self, HookEvent};
use super::sort::{INSTALL_ORDER, sort_by_kind};
use crate::chart::Chart;
use crate::values::coalesce::ChartValues;

/// `helm template`'s output options.
#[derive(Debug, Clone, Default)]
pub struct TemplateOutput {
    pub include_crds: bool,
    pub skip_tests: bool,
    pub no_hooks: bool,
    /// `--show-only` patterns (`templates/x.yaml`, globs as `filepath.Match`).
    pub show_only: Vec<String>,
}

/// One document of the rendering, as SortManifests keeps it.
#[derive(Debug, Clone)]
pub struct Doc {
    /// The template it came from (`chart/templates/x.yaml`).
    pub path: String,
    pub content: String,
    /// Where `content` starts in its template's output (blame maps it back).
    pub offset: usize,
    pub kind: String,
    pub events: Vec<HookEvent>,
}

/// The rendering sorted as Helm installs it.
#[derive(Debug, Clone, Default)]
pub struct Sorted {
    pub manifests: Vec<Doc>,
    pub hooks: Vec<Doc>,
    /// NOTES.txt of the top chart (what `helm install` prints).
    pub notes: String,
}

/// helm: releaseutil.SortManifests over the engine's files (without NOTES.txt).
pub fn sort_manifests(files: &RenderedFiles, top_chart: &str) -> Result<Sorted, String> {
    let mut out = Sorted::default();
    let top_notes = format!("{top_chart}/templates/NOTES.txt");
    // Files in byte order (Go's sort.Strings), documents in manifest-N order.
    for (path, file) in files {
        if path.ends_with("NOTES.txt") {
            // subNotes is off for `helm template`: only the top chart's notes count.
            if *path == top_notes {
                out.notes = file.text.clone();
            }
            continue;
        }
        if path.rsplit('/').next().is_some_and(|b| b.starts_with('_')) || file.text.trim().is_empty() {
            continue;
        }
        for doc in crate::manifest::split(&file.text) {
            let value = super::parse_document(doc).map_err(|e| format!("YAML parse error on {path}: {e}"))?;
            if !value.is_null() {
                super::check_head(&value).map_err(|e| format!("YAML parse error on {path}: {e}"))?;
            }
            let field = |p: &str| crate::keypath::pointer(&value, p).and_then(serde_json::Value::as_str).unwrap_or("").to_string();
            let kind = field("/kind");
            let hook = crate::keypath::pointer(&value, "/metadata/annotations").and_then(|a| a.get(hooks::HOOK_ANNOTATION)).map(|v| v.as_str().unwrap_or(""));
            // `split` gives slices of the text.
            let offset = doc.as_ptr() as usize - file.text.as_ptr() as usize;
            let doc = Doc { path: path.clone(), content: doc.to_string(), offset, kind, events: Vec::new() };
            match hook {
                None => out.manifests.push(doc),
                // An unknown event: Helm logs "skipping unknown hooks" and drops the document.
                Some(value) => {
                    if let Ok(events) = hooks::parse_events(value) {
                        out.hooks.push(Doc { events, ..doc });
                    }
                }
            }
        }
    }
    sort_by_kind(&mut out.manifests, INSTALL_ORDER, |d| &d.kind);
    sort_by_kind(&mut out.hooks, INSTALL_ORDER, |d| &d.kind);
    Ok(out)
}

/// `chart.CRDObjects()`: the CRD files of the chart and its (enabled)
/// subcharts, named `CHART_PATH/crds/FILE`.
pub fn crd_objects(chart: &Chart, shape: &ChartValues) -> Vec<(String, String)> {
    fn walk(top: &Chart, chart: &Chart, shape: &ChartValues, full: &str, out: &mut Vec<(String, String)>) {
        for f in &chart.files {
            if f.name.starts_with("crds/") && is_manifest(&f.name) {
                out.push((format!("{full}/{}", f.name), crate::chart::lossy_text(&f.data)));
            }
        }
        for dep in &shape.dependencies {
            let mut node = top;
            let mut found = true;
            for &i in &dep.loaded_at {
                match node.dependencies.get(i) {
                    Some(d) => node = d,
                    None => found = false,
                }
            }
            if found {
                walk(top, node, dep, &format!("{full}/charts/{}", dep.name), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(chart, chart, shape, &shape.name, &mut out);
    out
}

/// helm: pkg/chart/v2/chart.go `hasManifestExtension`.
fn is_manifest(name: &str) -> bool {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    matches!(ext.as_str(), "yaml" | "yml" | "json")
}

/// The release manifest `renderResources` builds (CRDs first with
/// `include_crds`, then each object's document).
pub fn release_manifest(sorted: &Sorted, crds: &[(String, String)], include_crds: bool) -> String {
    let mut b = String::new();
    if include_crds {
        for (name, data) in crds {
            push_document(&mut b, name, data);
        }
    }
    for m in &sorted.manifests {
        push_document(&mut b, &m.path, &m.content);
    }
    b
}

/// `---\n# Source: PATH\nDOC\n`, written in place (the output is large: no
/// intermediate string per document).
fn push_document(b: &mut String, path: &str, doc: &str) {
    for part in ["---\n# Source: ", path, "\n", doc, "\n"] {
        b.push_str(part);
    }
}

/// What `helm template` prints on stdout.
pub fn template_text(sorted: &Sorted, crds: &[(String, String)], opts: &TemplateOutput) -> Result<String, String> {
    let mut manifests = release_manifest(sorted, crds, opts.include_crds);
    // `strings.TrimSpace`, in place.
    manifests.truncate(manifests.trim_end().len());
    let lead = manifests.len() - manifests.trim_start().len();
    manifests.drain(..lead);
    manifests.push('\n');
    if !opts.no_hooks {
        for h in &sorted.hooks {
            if opts.skip_tests && h.events.contains(&HookEvent::Test) {
                continue;
            }
            push_document(&mut manifests, &h.path, &h.content);
        }
    }
    if opts.show_only.is_empty() {
        return Ok(manifests);
    }
    show_only(&manifests, &opts.show_only)
}

/// template.go's `--show-only`: the documents whose `# Source:` path (after
/// the chart name) matches each pattern, pattern by pattern.
fn show_only(manifests: &str, patterns: &[String]) -> Result<String, String> {
    let docs = crate::manifest::split(manifests);
    let mut out = String::new();
    for pattern in patterns {
        let pattern = pattern.replace('\\', "/");
        let mut missing = true;
        for doc in &docs {
            // "# Source: [^/]+/(.+)"
            let Some(at) = doc.find("# Source: ") else { continue };
            let rest = &doc[at + "# Source: ".len()..];
            let line = rest.lines().next().unwrap_or("");
            let Some((chart, name)) = line.split_once('/') else { continue };
            if chart.is_empty() || name.is_empty() {
                continue;
            }
            if !crate::chart::ignore::go_match(&pattern, name).unwrap_or(false) {
                continue;
            }
            out.push_str(&format!("---\n{doc}\n"));
            missing = false;
        }
        if missing {
            return Err(format!("could not find template {pattern} in chart"));
        }
    }
    Ok(out)
}

/// A whole `helm template` run in process: the engine, then the sorting
/// and printing above. `Err` is Helm's message (what follows `Error: `).
pub struct NativeTemplate {
    pub files: super::engine::RenderedFiles,
    pub sorted: Sorted,
    pub text: String,
}

/// Why a native `helm template` gave no output.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NativeError {
    /// Helm fails the same way; its message.
    #[error("{0}")]
    Helm(String),
    /// Outside what releasex renders: Helm might succeed.
    #[error("{0}")]
    Unsupported(String),
}

pub fn render_template(input: &super::engine::EngineInput<'_>, opts: &TemplateOutput) -> Result<NativeTemplate, NativeError> {
    let files = render_files(input)?;
    print_files(input, files, opts).map_err(|(e, _)| e)
}

/// The engine's part of [`render_template`]: each template's text.
pub fn render_files(input: &super::engine::EngineInput<'_>) -> Result<super::engine::RenderedFiles, NativeError> {
    let md = &input.chart.metadata;
    // helm: pkg/action/action.go renderResources checks the chart's kubeVersion first.
    if !md.kube_version.is_empty() && !crate::values::semver::is_compatible_range(&md.kube_version, input.capabilities.kube_version.string()) {
        return Err(NativeError::Helm(format!(
            "chart requires kubeVersion: {} which is incompatible with Kubernetes {}",
            md.kube_version, input.capabilities.kube_version.version
        )));
    }
    crate::timings::timed("render", || super::engine::render(input)).map_err(|e| match e {
        super::engine::EngineError::Helm(m) => hint(m),
        super::engine::EngineError::Unsupported(m) => NativeError::Unsupported(m),
    })
}

/// The install action has made its release when rendering fails: template.go adds the hint.
fn hint(m: String) -> NativeError {
    NativeError::Helm(format!("{m}\n\nUse --debug flag to render out invalid YAML"))
}

/// The printing part of [`render_template`]; on an error the files come back.
pub fn print_files(
    input: &super::engine::EngineInput<'_>,
    files: super::engine::RenderedFiles,
    opts: &TemplateOutput,
) -> Result<NativeTemplate, (NativeError, super::engine::RenderedFiles)> {
    let sorted = match sort_manifests(&files, &input.charts.name) {
        Ok(s) => s,
        Err(e) => return Err((hint(e), files)),
    };
    // The CRDs are only printed with --include-crds (release_manifest).
    let crds = if opts.include_crds { crd_objects(input.chart, input.charts) } else { Vec::new() };
    match template_text(&sorted, &crds, opts) {
        Ok(text) => Ok(NativeTemplate { files, sorted, text }),
        Err(e) => Err((NativeError::Helm(e), files)),
    }
}
