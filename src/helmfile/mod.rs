//! `values explain --helmfile`: helmfile's state values (bases, root
//! `values:`, environments, HCL, secrets, `--state-values-*`) and a release's
//! values as helmfile hands them to Helm, on the provenance tree, following
//! helmfile at commit ecf604d (see README "values explain --helmfile").
//!
//! `.gotmpl` values files (environment, root `values:`, release `values:`)
//! are rendered by [`crate::gotmpl`] with helmfile's function set
//! ([`crate::gotmpl::helmfile`]); what releasex does not model stops with
//! [`crate::gotmpl::TmplError::Unsupported`] (or the layer is skipped and reported). State files are rendered part by part as
//! helmfile renders them (`.gotmpl`, or every file in v0 mode), and so are
//! a release's templated fields (`valuesTemplate`, `setTemplate`, ...).

pub mod hcl;
#[cfg(test)]
mod conformance;
mod policy;
pub mod maputil;
pub mod release;
pub mod state;


use std::path::PathBuf;
use std::rc::Rc;

use crate::values::tree::{Kind, Source, V, VMap};

#[derive(Debug, thiserror::Error)]
pub enum HelmfileError {
    #[error("{file}: {message}")]
    Read { file: String, message: String },
    #[error(transparent)]
    Yaml(#[from] crate::yaml::YamlError),
    #[error(transparent)]
    Template(#[from] crate::gotmpl::TmplError),
    #[error("{file}: sops-encrypted, and {message} (use --skip-secrets to explain the rest)")]
    Sops { file: String, message: String },
    #[error("{file}: {message}")]
    State { file: String, message: String },
    #[error("{file}: HCL: {message}")]
    Hcl { file: String, message: String },
    #[error(transparent)]
    Set(#[from] maputil::SetError),
    #[error("environment {0:?} is not defined in the helmfile")]
    UndefinedEnvironment(String),
    /// The release name, and what was not searched (sub-helmfiles helmfile skips too).
    #[error("no release named {0:?} in the helmfile{1}")]
    NoRelease(String, String),
    #[error("release values: {0}")]
    Helm(#[from] crate::explain::ExplainError),
    #[error("release values: {0}")]
    HelmUser(#[from] crate::values::user::UserValuesError),
    #[error("release {release}: chart {chart}: {message}")]
    Chart { release: String, chart: String, message: String },
}

/// Reading files and decrypting secrets, supplied by the caller: the CLI
/// passes its `SystemIo` (`cli::template_host`), tests their own.
pub trait Io {
    fn read(&self, path: &std::path::Path) -> Result<String, String>;
    fn exists(&self, path: &std::path::Path) -> bool;
    /// `sops --decrypt FILE`'s output; `Err` says why it could not run.
    fn sops_decrypt(&self, path: &std::path::Path) -> Result<String, String>;
    /// What helmfile's template functions reach (environment, files
    /// relative to `base_dir`, commands when `req.allow_exec`).
    fn template_host(&self, base_dir: &std::path::Path, req: &Request) -> Box<dyn crate::gotmpl::func::Host + '_>;
}

/// What to explain.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub file: PathBuf,
    pub environment: String,
    pub state_values_set: Vec<String>,
    pub state_values_set_string: Vec<String>,
    pub state_values_files: Vec<String>,
    pub skip_secrets: bool,
    pub skip_templated: bool,
    pub show_secrets: bool,
    /// What templates' `env` / `requiredEnv` read (the CLI passes the process
    /// environment); `None`: those functions are unsupported.
    pub environ: Option<crate::gotmpl::Environ>,
    /// helmfile's `--namespace` (`.Namespace`; the releases' OverrideNamespace).
    pub namespace: String,
    /// helmfile's `--kube-context` (`.KubeContext` in release templates).
    pub kube_context: String,
    /// Render a state file that is not `.gotmpl` too (helmfile 0.x's v0 mode;
    /// current helmfile's `HELMFILE_RENDER_YAML=true`).
    pub render_plain_yaml: bool,
    /// helmfile 0.x's v0 mode (`HELMFILE_V1MODE=false`): a state file that
    /// breaks helmfile's key-order policy loads with a warning, as 0.x did,
    /// instead of stopping as current helmfile does (`policy`).
    pub v0_mode: bool,
    /// Templates may run commands (`exec`, `envExec`): the user said so.
    pub allow_exec: bool,
}

/// Marks what is not a secret's value, for masking: `true` when `origin` is secret.
pub fn is_secret(s: &Source) -> bool {
    s.is_secret()
}

/// A secret's source with the value part of its flag text masked: a `set:`
/// entry's `name=value` would print the secret beside the masked value.
fn masked_expr(s: &Source) -> Source {
    let mut s = s.clone();
    if let Source::Helmfile { expr: Some(expr), .. } = &mut s {
        let key = expr.split_once('=').map_or(expr.as_str(), |(k, _)| k);
        *expr = format!("{key}={MASK}");
    }
    s
}

/// Replaces every value that came from a secrets file with `<secret>`.
pub fn mask(m: &mut VMap) {
    for v in m.values_mut() {
        mask_value(v);
    }
}

fn mask_value(v: &mut V) {
    match &mut v.kind {
        Kind::Map(m) => mask(m),
        Kind::List(l) => l.iter_mut().for_each(mask_value),
        _ if is_secret(&v.origin) => v.kind = Kind::Str(MASK.into()),
        _ => {}
    }
}

pub const MASK: &str = "<secret>";

/// The explanation of a helmfile's state values or of one release's values.
#[derive(Debug)]
pub struct HelmfileExplanation {
    pub explanation: crate::explain::Explanation,
    /// What the reader must know: skipped layers, an unread remote chart.
    pub notes: Vec<String>,
}

/// The helmfile (the main one, else a `helmfiles:` sub-helmfile, depth first
/// in order) that defines release `name`, with its request and state.
fn find_release(req: &Request, io: &dyn Io, loaded: state::Loaded, name: &str, depth: usize, notes: &mut Vec<String>) -> Result<Option<(Request, state::Loaded)>, HelmfileError> {
    if release::defines(req, io, &loaded, name) {
        return Ok(Some((req.clone(), loaded)));
    }
    if depth > 16 {
        return Err(HelmfileError::State { file: req.file.to_string_lossy().to_string(), message: "sub-helmfiles nested more than 16 deep".into() });
    }
    for sub in state::sub_helmfiles(&loaded)? {
        let mut scratch = crate::values::tree::Recorder::default();
        match state::load_sub(req, io, &sub, &loaded.env, &mut scratch)? {
            Some((sub_req, sub_loaded)) => {
                notes.extend(sub_loaded.skipped.iter().cloned());
                if let Some(found) = find_release(&sub_req, io, sub_loaded, name, depth + 1, notes)? {
                    return Ok(Some(found));
                }
            }
            None => notes.push(format!("{}: sub-helmfile skipped: it does not define environment {:?} (as in helmfile)", sub.path.display(), req.environment)),
        }
    }
    Ok(None)
}

/// Explains the state values, or with `release` that release's values
/// through helmfile and then Helm (for a local chart).
pub fn explain(req: &Request, io: &dyn Io, release: Option<&str>, options: crate::explain::Options) -> Result<HelmfileExplanation, HelmfileError> {
    let mut rec = crate::values::tree::Recorder::default();
    let loaded = state::load(req, io, &mut rec)?;
    let mut notes = loaded.skipped.clone();
    let mut explanation = match release {
        None => {
            let values = loaded.env.merged(&mut rec);
            let entries = crate::explain::entries::entries_with(&values, &rec, true);
            crate::explain::Explanation { values, entries, warnings: rec.warnings, other_order: None, charts: None }
        }
        Some(name) => {
            // The state values reach a release only through values templates: the
            // release's history starts afresh, and a value a template printed
            // whole from a state value names that value's origin (`via`).
            let mut rec = crate::values::tree::Recorder { warnings: rec.warnings, ..Default::default() };
            let Some((req, loaded)) = find_release(req, io, loaded, name, 0, &mut notes)? else {
                let skipped: Vec<&String> = notes.iter().filter(|n| n.contains("sub-helmfile skipped")).collect();
                let also = if skipped.is_empty() { String::new() } else { format!(" or its sub-helmfiles read ({})", skipped.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ")) };
                return Err(HelmfileError::NoRelease(name.into(), also));
            };
            let req = &req;
            let rv = release::release_values(req, io, &loaded, name, &mut rec, &mut notes)?;
            match release::local_chart(&rv.dir, &rv.chart) {
                Some(dir) => {
                    let chart = crate::chart::load(&dir).map_err(|e| HelmfileError::Chart { release: name.into(), chart: rv.chart.clone(), message: e.to_string() })?;
                    for c in chart.walk() {
                        rec.warnings.extend(c.warnings.iter().cloned());
                    }
                    chart.check_dependencies().map_err(|m| HelmfileError::Chart { release: name.into(), chart: rv.chart.clone(), message: m })?;
                    let spec = crate::explain::chart_spec(&chart, Vec::new())?;
                    crate::explain::explain_spec(&chart, spec, rv.user, rec, options)?
                }
                None => {
                    notes.push(format!(
                        "release {name}: chart {:?} is not a local chart directory; its defaults were not read (only the helmfile layer is explained)",
                        rv.chart
                    ));
                    let values = rv.user;
                    let entries = crate::explain::entries::entries(&values, &rec);
                    crate::explain::Explanation { values, entries, warnings: rec.warnings, other_order: None, charts: None }
                }
            }
        }
    };
    if !req.show_secrets {
        mask(&mut explanation.values);
        for e in &mut explanation.entries {
            if e.source.as_deref().is_some_and(is_secret) {
                e.value = e.value.as_ref().map(|_| serde_json::Value::String(MASK.into()));
                e.source = e.source.as_deref().map(|s| Rc::new(masked_expr(s)));
            }
            for l in &mut e.overridden {
                if is_secret(&l.source) {
                    l.value = serde_json::Value::String(MASK.into());
                    l.source = Rc::new(masked_expr(&l.source));
                }
            }
        }
    }
    Ok(HelmfileExplanation { explanation, notes })
}
