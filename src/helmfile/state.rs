//! helmfile state files and the state values (`.Values` / `.StateValues`).
//! helmfile: pkg/state/create.go (ParseAndLoad, loadBases, mergeEnvironments,
//! LoadEnvValues, loadEnvValues), pkg/state/envvals_loader.go,
//! pkg/environment/environment.go (GetMergedValues), pkg/app/desired_state_file_loader.go.

use std::path::{Path as FsPath, PathBuf};
use std::rc::Rc;

use super::maputil::{self, ArrayStrategy, merge_maps, mergo_override};
use crate::gotmpl::{self as tmpl, TmplError, Tv, Val};
use super::{HelmfileError, Io, Request};
use crate::keypath::Path;
use crate::values::tree::{Kind, Origin, Recorder, Source, V, VMap};


/// One `---` part of a state file, as parsed.
#[derive(Debug, Clone, Default)]
pub struct Part {
    /// The part's top-level map (inline values keep their file positions).
    pub doc: VMap,
    /// The state file (names positions and resolves relative paths).
    pub file: String,
    pub dir: PathBuf,
}

/// helmfile's `Environment`: the three value layers kept apart until the end.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub defaults: VMap,
    pub values: VMap,
    pub cli: VMap,
    /// The environment's `kubeContext:` (`.Environment.KubeContext`).
    pub kube_context: String,
}

impl Env {
    /// `GetMergedValues`: {} <- Defaults <- Values (sparse) <- CLI overrides (merge).
    pub fn merged(&self, rec: &mut Recorder) -> VMap {
        let root = Path::root();
        let v = merge_maps(&VMap::default(), &self.defaults, ArrayStrategy::Sparse, &root, rec);
        let v = merge_maps(&v, &self.values, ArrayStrategy::Sparse, &root, rec);
        merge_maps(&v, &self.cli, ArrayStrategy::Merge, &root, rec)
    }
}

impl Env {
    /// `Environment.Merge(other)`: Values and Defaults merged sparse, CLI overrides element-wise.
    pub fn merge(&self, other: &Env) -> Env {
        self.merge_recorded(other, &mut Recorder::default())
    }

    /// [`Env::merge`], recording what `other` overrides.
    pub fn merge_recorded(&self, other: &Env, rec: &mut Recorder) -> Env {
        let root = Path::root();
        Env {
            defaults: merge_maps(&self.defaults, &other.defaults, ArrayStrategy::Sparse, &root, rec),
            values: merge_maps(&self.values, &other.values, ArrayStrategy::Sparse, &root, rec),
            cli: merge_maps(&self.cli, &other.cli, ArrayStrategy::Merge, &root, rec),
            // mergo.WithOverride: a non-empty field of `other` wins.
            kube_context: if other.kube_context.is_empty() { self.kube_context.clone() } else { other.kube_context.clone() },
        }
    }

    /// `environment.Environment` as a template sees it (`.Environment`), with `values` as its `Values`.
    pub fn template_struct(&self, name: &str, values: &VMap) -> Tv {
        Tv::new(Val::Struct(
            "environment.Environment",
            vec![
                ("Name", Tv::str(name)),
                ("KubeContext", Tv::str(&self.kube_context)),
                ("Values", Tv::from_map(values)),
                ("Defaults", Tv::from_map(&self.defaults)),
                ("CLIOverrides", Tv::from_map(&self.cli)),
            ],
        ))
    }
}

/// The data an environment or root values template is rendered with
/// (helmfile `NewEnvironmentTemplateData(env, "", mergedValues)`): `.Values`
/// and `.StateValues` the environment's merged values (under
/// `mergeStrategy: fallback`, the values files read so far first, then those
/// over them), `.Environment.Values` its Values with the CLI overrides merged
/// element-wise, `.Namespace` empty.
pub fn env_data(name: &str, env: &Env, fallback_so_far: Option<&VMap>) -> Tv {
    env_data_in(name, env, fallback_so_far, "")
}

/// [`env_data`] with `.Namespace` (a state file's parts see helmfile's
/// `--namespace`: `NewEnvironmentTemplateData(*finalEnv, r.namespace, vals)`
/// in pkg/app/two_pass_renderer.go).
pub fn env_data_in(name: &str, env: &Env, fallback_so_far: Option<&VMap>, namespace: &str) -> Tv {
    let (root, mut scratch) = (Path::root(), Recorder::default());
    let mut values = env.merged(&mut scratch);
    if let Some(acc) = fallback_so_far.filter(|m| !m.is_empty()) {
        let mut enriched = acc.clone();
        mergo_override(&mut enriched, &values, &root, &mut scratch);
        values = enriched;
    }
    let env_values = merge_maps(&env.values, &env.cli, ArrayStrategy::Merge, &root, &mut scratch);
    let v = Tv::from_map(&values);
    Tv::new(Val::Struct(
        "*state.EnvironmentTemplateData",
        vec![
            ("Environment", env.template_struct(name, &env_values)),
            ("Namespace", Tv::str(namespace)),
            ("Values", v.clone()),
            ("StateValues", Tv::new(Val::Ptr(Box::new(v)))),
        ],
    ))
}

/// The loaded state: the environment of the last part, every part, and what was skipped.
#[derive(Debug, Default)]
pub struct Loaded {
    pub env: Env,
    pub parts: Vec<(Part, Env)>,
    pub skipped: Vec<String>,
}

pub(super) struct Ctx<'a> {
    pub io: &'a dyn Io,
    pub req: &'a Request,
    pub skipped: Vec<String>,
}

/// The state values of `req.file` for `req.environment`.
pub fn load(req: &Request, io: &dyn Io, rec: &mut Recorder) -> Result<Loaded, HelmfileError> {
    let mut cx = Ctx { io, req, skipped: Vec::new() };
    let overrode = overrides(&mut cx, rec)?;
    load_file(cx, overrode, None, rec)
}

/// `desiredStateLoader.Load` of `cx.req.file`: its parts in order, the first
/// on top of `inherited` (a parent's environment, `inherits: [environments]`),
/// every one with `overrode` (the CLI layers, or a sub-helmfile entry's `values:`).
fn load_file(mut cx: Ctx, overrode: Env, inherited: Option<Env>, rec: &mut Recorder) -> Result<Loaded, HelmfileError> {
    let req = cx.req;
    let file = req.file.to_string_lossy().to_string();
    let dir = req.file.parent().map(FsPath::to_path_buf).unwrap_or_default();
    let has_env = inherited.is_some() || !overrode.values.is_empty() || !overrode.cli.is_empty();
    let text = read(&cx, &req.file)?;
    if let Err(message) = super::policy::check(&file, &text) {
        if !req.v0_mode {
            return Err(HelmfileError::State { file, message });
        }
        cx.skipped.push(format!("{message} (helmfile 0.x warns and loads it, as here in v0 mode; current helmfile stops)"));
    }
    let render = renders_state(req, &file);
    let mut ctx_env: Option<Env> = inherited;
    let mut out = Loaded::default();
    let mut env_found = req.environment == "default";
    let mut any_envs = false;
    for (start, chunk) in split_parts(&text, render) {
        // helmfile's `rawLoad` hands `ParseAndLoad` the CLI layers merged into the
        // inherited context (`env.Merge(overrodeEnv)`) and no separate overrides,
        // so a part's own environment values and secrets override
        // `--state-values-file` (and a sub-helmfile entry's `values:`); only
        // `--state-values-set`, kept apart, stays on top. See the README.
        let ctx = match &ctx_env {
            Some(c) => c.merge_recorded(&overrode, rec),
            None => overrode.clone(),
        };
        // Each part is rendered with the environment of the parts before it
        // and the CLI layers (pkg/app/desired_state_file_loader.go `load`,
        // two_pass_renderer.go `twoPassRenderTemplateToYaml`).
        let doc = if render { render_doc(&cx, &chunk, &file, start, &ctx)? } else { parse_doc(&chunk, &file, start, "state", yaml12(&cx, "state"))? };
        let part = Part { doc, file: file.clone(), dir: dir.clone() };
        let (envs, defaults_entries, layer_dir, merged) = with_bases(&mut cx, &part, &ctx)?;
        let part = Part { doc: merged, ..part };
        env_found |= envs.iter().any(|(n, _)| *n == req.environment);
        any_envs |= !envs.is_empty();
        let env = load_env(&mut cx, &part, &layer_dir, &envs, &defaults_entries, &ctx, rec)?;
        out.parts.push((part, env.clone()));
        ctx_env = Some(env);
        // helmfile's `load` (pkg/app/desired_state_file_loader.go) checks after
        // every part: once environments are defined and the selected one is not
        // among them, the file is an undefined-environment one (a sub-helmfile
        // is skipped) before its later parts are rendered.
        if any_envs && !env_found {
            return Err(HelmfileError::UndefinedEnvironment(req.environment.clone()));
        }
    }
    // With a parent's environment or overrides, a file that defines no environment at all is read as it is.
    if !env_found && (!has_env || any_envs) {
        return Err(HelmfileError::UndefinedEnvironment(req.environment.clone()));
    }
    out.env = ctx_env.unwrap_or_default();
    out.skipped = cx.skipped;
    Ok(out)
}

/// One `helmfiles:` entry, its path resolved (globs expanded, one per file).
#[derive(Debug, Clone)]
pub struct SubHelmfile {
    pub path: PathBuf,
    /// The entry's `values:` (files relative to the parent, or inline maps).
    pub values: Vec<V>,
    /// `inherits: [environments]`: the parent's environment is the base.
    pub inherit_environments: bool,
    /// The parent part that names it.
    pub parent: Part,
}

/// The `helmfiles:` entries of a loaded state: those of the last part that
/// has any (helmfile merges the parts' specs with mergo's override, which
/// replaces a list). Remote entries and directories are errors.
pub fn sub_helmfiles(loaded: &Loaded) -> Result<Vec<SubHelmfile>, HelmfileError> {
    let Some((part, _)) = loaded.parts.iter().rev().find(|(p, _)| !list(&p.doc, "helmfiles").is_empty()) else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (i, entry) in list(&part.doc, "helmfiles").iter().enumerate() {
        let at = |message: String| HelmfileError::State { file: part.file.clone(), message: format!("helmfiles[{i}]: {message}") };
        let (path, values, inherits) = match &entry.kind {
            Kind::Str(p) => (p.clone(), Vec::new(), Vec::new()),
            Kind::Map(m) => {
                let Some(Kind::Str(p)) = m.get("path").map(|v| &v.kind) else { return Err(at("an entry without `path`".into())) };
                let inherits: Vec<String> = list(m, "inherits").iter().filter_map(|v| if let Kind::Str(s) = &v.kind { Some(s.clone()) } else { None }).collect();
                (p.clone(), list(m, "values"), inherits)
            }
            _ => return Err(at("an entry must be a path or a map with `path`".into())),
        };
        if path.contains("::") || path.contains("://") {
            return Err(at(format!("{path}: remote sub-helmfiles are not read by releasex (no network)")));
        }
        // state.go SubHelmfileSpec validation: an unknown key fails the state (inherited.go allowedInherits).
        const ALLOWED_INHERITS: [&str; 7] = ["repositories", "helmDefaults", "commonLabels", "apiVersions", "kubeVersion", "templates", "environments"];
        if let Some(bad) = inherits.iter().find(|k| !ALLOWED_INHERITS.contains(&k.as_str())) {
            return Err(at(format!("invalid inherits entry {bad:?} for path {path:?}: allowed values are [{}]", ALLOWED_INHERITS.join(" "))));
        }
        if inherits.iter().any(|k| k == "templates") {
            return Err(at(format!("{path}: `inherits: [templates]` is not modelled by releasex")));
        }
        let full = part.dir.join(&path);
        let files = if path.contains(['*', '?', '[']) { glob(&full).map_err(at)? } else { vec![full.clone()] };
        if files.is_empty() {
            return Err(at(format!("no matches for path: {path}")));
        }
        for f in files {
            if f.is_dir() {
                return Err(at(format!("{}: a directory of state files is not read by releasex", f.display())));
            }
            if f.as_path() == FsPath::new(&part.file) {
                return Err(at(format!("{} contains a recursion into the same sub-helmfile", part.file)));
            }
            out.push(SubHelmfile { path: f, values: values.clone(), inherit_environments: inherits.iter().any(|k| k == "environments"), parent: part.clone() });
        }
    }
    Ok(out)
}

/// Loads a sub-helmfile as helmfile does (`processNestedHelmfiles`): the same
/// environment, the entry's `values:` as its overrides (read relative to the
/// parent, `.gotmpl` ones rendered with an empty environment); the parent's
/// `--state-values-*` do not reach it. `None` when it does not define the
/// environment (helmfile skips it).
pub fn load_sub(req: &Request, io: &dyn Io, sub: &SubHelmfile, parent_env: &Env, rec: &mut Recorder) -> Result<Option<(Request, Loaded)>, HelmfileError> {
    let sub_req = Request { file: sub.path.clone(), state_values_set: Vec::new(), state_values_set_string: Vec::new(), state_values_files: Vec::new(), ..req.clone() };
    let mut cx = Ctx { io, req: &sub_req, skipped: Vec::new() };
    let values = values_entries(&mut cx, &sub.parent, &sub.parent.dir, &sub.values, "", "sub-helmfile-values", &Env::default(), rec)?;
    let overrode = Env { values, ..Env::default() };
    let inherited = sub.inherit_environments.then(|| parent_env.clone());
    match load_file(cx, overrode, inherited, rec) {
        Ok(l) => Ok(Some((sub_req, l))),
        Err(HelmfileError::UndefinedEnvironment(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// One environment's spec after bases were merged.
#[derive(Debug, Clone, Default)]
pub struct EnvSpec {
    pub values: Vec<V>,
    pub secrets: Vec<V>,
    pub merge_strategy: Option<String>,
    pub kube_context: String,
    /// `missingFileHandler:` of the environment (empty: the state's, else Error).
    pub missing_file_handler: String,
}

/// A part's environments and root `values:` with its bases', the directory
/// they resolve against, and the part's document with its bases' other fields.
type WithBases = (Vec<(String, EnvSpec)>, Vec<V>, PathBuf, VMap);

/// `loadBases` + `mergeEnvironments`: every base's environments and root
/// `values:` before the part's own. Every relative path, a base's too,
/// resolves against the main state file's directory (helmfile parses bases
/// with the main file's base directory: `loadFileWithOverrides`).
fn with_bases(cx: &mut Ctx, part: &Part, ctx: &Env) -> Result<WithBases, HelmfileError> {
    let mut layers: Vec<Part> = Vec::new();
    for b in list(&part.doc, "bases") {
        let Kind::Str(name) = &b.kind else { return Err(state_err(part, "bases: entries must be file names")) };
        let path = part.dir.join(name);
        let file = path.to_string_lossy().to_string();
        let text = read(cx, &path)?;
        // A base is a state file loaded with the same context (create.go
        // `loadBases` -> `LoadFile(envValues, ...)`), so it renders as the
        // part naming it does. Its own parts are rendered with that context
        // too, not each with the environment of the base's earlier parts.
        let doc = if renders_state(cx.req, &file) { render_doc(cx, &text, &file, 0, ctx)? } else { parse_doc(&text, &file, 0, "state", yaml12(cx, "state"))? };
        if doc.contains_key("bases") {
            return Err(HelmfileError::State { file, message: "nested `base` helmfile is unsupported (as in helmfile)".into() });
        }
        layers.push(Part { doc, file, dir: part.dir.clone() });
    }
    layers.push(part.clone());
    let layer_dir = part.dir.clone();
    let mut envs: Vec<(String, EnvSpec)> = Vec::new();
    let mut defaults = Vec::new();
    for l in &layers {
        defaults.extend(list(&l.doc, "values"));
        let Some(Kind::Map(m)) = l.doc.get("environments").map(|v| &v.kind) else { continue };
        for (name, spec) in m {
            let src = env_spec(spec);
            match envs.iter_mut().find(|(n, _)| n == name) {
                Some((_, dst)) => {
                    dst.secrets.extend(src.secrets);
                    if !src.kube_context.is_empty() {
                        dst.kube_context = src.kube_context;
                    }
                    if !src.missing_file_handler.is_empty() {
                        dst.missing_file_handler = src.missing_file_handler;
                    }
                    if src.merge_strategy.is_some() {
                        dst.merge_strategy = src.merge_strategy;
                    }
                    // Later layer wins: appended under override, prepended under fallback.
                    if dst.merge_strategy.as_deref() == Some("fallback") {
                        let mut v = src.values;
                        v.append(&mut dst.values);
                        dst.values = v;
                    } else {
                        dst.values.extend(src.values);
                    }
                }
                None => envs.push((name.clone(), src)),
            }
        }
    }
    let mut merged = VMap::default();
    for (i, l) in layers.iter().enumerate() {
        merge_layer(&mut merged, &l.doc, i + 1 == layers.len());
    }
    Ok((envs, defaults, layer_dir, merged))
}

/// create.go `loadBases`: every base, then the part, merged with mergo's
/// WithAppendSlice + WithOverride: a list is appended to (a base's
/// `releases:` come before the part's), a map's entries are replaced one by
/// one (`templates:` entries, `helmDefaults:` fields), a scalar replaced; an
/// empty value replaces nothing. A base's `environments:` (merged into the
/// specs above) and `bases:` are not the part's.
fn merge_layer(dst: &mut VMap, src: &VMap, own: bool) {
    let empty = |v: &V| match &v.kind {
        Kind::Null => true,
        Kind::Str(s) => s.is_empty(),
        Kind::List(l) => l.is_empty(),
        Kind::Map(m) => m.is_empty(),
        _ => false,
    };
    for (k, v) in src {
        if !own && (k == "environments" || k == "bases") {
            continue;
        }
        let present = dst.contains_key(k);
        match (dst.get_mut(k).map(|d| &mut d.kind), &v.kind) {
            (Some(Kind::List(d)), Kind::List(s)) => d.extend(s.iter().cloned()),
            (Some(Kind::Map(d)), Kind::Map(s)) => {
                for (ck, cv) in s {
                    if !empty(cv) {
                        d.insert(ck.clone(), cv.clone());
                    }
                }
            }
            _ if empty(v) && present => {}
            _ => {
                dst.insert(k.clone(), v.clone());
            }
        }
    }
}

fn env_spec(v: &V) -> EnvSpec {
    let Some(m) = v.as_map() else { return EnvSpec::default() };
    EnvSpec {
        values: list(m, "values"),
        secrets: list(m, "secrets"),
        merge_strategy: match m.get("mergeStrategy").map(|v| &v.kind) {
            Some(Kind::Str(s)) => Some(s.clone()),
            _ => None,
        },
        kube_context: match m.get("kubeContext").map(|v| &v.kind) {
            Some(Kind::Str(s)) => s.clone(),
            _ => String::new(),
        },
        missing_file_handler: match m.get("missingFileHandler").map(|v| &v.kind) {
            Some(Kind::Str(s)) => s.clone(),
            _ => String::new(),
        },
    }
}

pub(super) fn list(m: &VMap, key: &str) -> Vec<V> {
    match m.get(key).map(|v| &v.kind) {
        Some(Kind::List(l)) => l.clone(),
        _ => Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn load_env(
    cx: &mut Ctx,
    part: &Part,
    dir: &FsPath,
    envs: &[(String, EnvSpec)],
    defaults_entries: &[V],
    ctx: &Env,
    rec: &mut Recorder,
) -> Result<Env, HelmfileError> {
    let root = Path::root();
    let name = &cx.req.environment;
    // Values templates see the context: the parts before this one, with the CLI layers merged in.
    let tenv = ctx;
    let mut values = VMap::default();
    let mut kube_context = ctx.kube_context.clone();
    if let Some((_, spec)) = envs.iter().find(|(n, _)| n == name) {
        if !spec.kube_context.is_empty() {
            kube_context = spec.kube_context.clone();
        }
        let strategy = spec.merge_strategy.clone().unwrap_or_default();
        if !matches!(strategy.as_str(), "" | "override" | "fallback") {
            return Err(state_err(part, &format!("environment {name:?}: invalid mergeStrategy {strategy:?} (must be \"override\" or \"fallback\")")));
        }
        // Secrets: non-HCL ones merged last (mergo override); HCL ones join the HCL pass.
        let mut secret_vals = VMap::default();
        let mut hcl_secrets: Vec<V> = Vec::new();
        for entry in &spec.secrets {
            let Kind::Str(f) = &entry.kind else { return Err(state_err(part, "environment secrets: entries must be file names")) };
            for path in resolve(cx, dir, f, part)? {
                if path.extension().is_some_and(|e| e == "hcl") {
                    hcl_secrets.push(V::new(Kind::Str(path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().to_string()), entry.origin.clone()));
                    continue;
                }
                if let Some(m) = secret_file(cx, &path, "secrets")? {
                    mergo_override(&mut secret_vals, &m, &root, rec);
                }
            }
        }
        let mut entries = hcl_secrets;
        entries.extend(spec.values.iter().cloned());
        // state.go getEnvMissingFileHandler: the environment's, else the state's, else Error.
        let handler = match (spec.missing_file_handler.as_str(), part.doc.get("missingFileHandler").map(|v| &v.kind)) {
            ("", Some(Kind::Str(h))) => h.clone(),
            (h, _) => h.to_string(),
        };
        values = values_entries_handled(cx, part, dir, &entries, &strategy, "environment", tenv, &handler, rec)?;
        mergo_override(&mut values, &secret_vals, &root, rec);
    }
    // The context is the base; this part's values override it.
    let mut env = Env {
        defaults: merge_maps(&ctx.defaults, &VMap::default(), ArrayStrategy::Sparse, &root, rec),
        values: merge_maps(&ctx.values, &values, ArrayStrategy::Sparse, &root, rec),
        cli: merge_maps(&VMap::default(), &ctx.cli, ArrayStrategy::Merge, &root, rec),
        kube_context,
    };
    let new_defaults = values_entries(cx, part, dir, defaults_entries, "", "defaults", tenv, rec)?;
    mergo_override(&mut env.defaults, &new_defaults, &root, rec);
    Ok(env)
}

/// `loadValuesEntries` / `LoadEnvironmentValues`: files (globs) and inline
/// maps in order, HCL files rendered together after them.
#[allow(clippy::too_many_arguments)]
pub(super) fn values_entries(cx: &mut Ctx, part: &Part, dir: &FsPath, entries: &[V], strategy: &str, layer: &str, tenv: &Env, rec: &mut Recorder) -> Result<VMap, HelmfileError> {
    values_entries_handled(cx, part, dir, entries, strategy, layer, tenv, "", rec)
}

/// [`values_entries`] with a `missingFileHandler` (empty: Error) for a file
/// or glob that names nothing (pkg/state/storage.go `resolveFile`: Error
/// fails naming the pattern, Warn, Info and Debug skip it, and releasex says so).
#[allow(clippy::too_many_arguments)]
fn values_entries_handled(cx: &mut Ctx, part: &Part, dir: &FsPath, entries: &[V], strategy: &str, layer: &str, tenv: &Env, handler: &str, rec: &mut Recorder) -> Result<VMap, HelmfileError> {
    let root = Path::root();
    let mut result = VMap::default();
    let mut hcl_files: Vec<PathBuf> = Vec::new();
    let merge = |result: &mut VMap, m: VMap, rec: &mut Recorder| {
        if strategy == "fallback" {
            *result = merge_maps(&m, result, ArrayStrategy::Sparse, &root, rec);
        } else {
            mergo_override(result, &m, &root, rec);
        }
    };
    for entry in entries {
        match &entry.kind {
            Kind::Str(f) => {
                let files = match resolve(cx, dir, f, part) {
                    Err(HelmfileError::Read { .. }) => Vec::new(),
                    r => r?,
                };
                if files.is_empty() {
                    match handler {
                        "" | "Error" => return Err(state_err(part, &format!("environment values file matching {f:?} does not exist in {:?}", dir.to_string_lossy()))),
                        "Warn" | "Info" | "Debug" => cx.skipped.push(format!("{}: skipping missing environment values file matching {f:?} (missingFileHandler: {handler})", part.file)),
                        other => return Err(state_err(part, &format!("invalid missing file handler {other:?}: it must be one of [Error Warn Info Debug]"))),
                    }
                }
                for path in files {
                    if path.extension().is_some_and(|e| e == "hcl") {
                        hcl_files.push(path);
                        continue;
                    }
                    let secret = layer == "secrets";
                    let data = env_data(&cx.req.environment, tenv, (strategy == "fallback").then_some(&result));
                    if let Some(m) = values_file(cx, &path, layer, secret, &data)? {
                        merge(&mut result, m, rec);
                    }
                }
            }
            Kind::Map(m) => merge(&mut result, relayer(m, layer, false), rec),
            _ => return Err(state_err(part, &format!("{layer} values: an entry must be a file name or a map"))),
        }
    }
    if !hcl_files.is_empty() {
        let mut files = Vec::new();
        for p in &hcl_files {
            files.extend(super::hcl::read_hcl_file(cx.io, p, cx.req.skip_secrets, &mut cx.skipped)?);
        }
        let m = super::hcl::render_files(&files)?;
        merge(&mut result, m, rec);
    }
    Ok(result)
}

/// A YAML values file; a `.gotmpl` one is rendered with `data` first
/// (`None` when it is outside the template subset and `--skip-templated` skips it).
pub(super) fn values_file(cx: &mut Ctx, path: &FsPath, layer: &str, secret: bool, data: &Tv) -> Result<Option<VMap>, HelmfileError> {
    let file = path.to_string_lossy().to_string();
    let text = read(cx, path)?;
    if file.ends_with(".gotmpl") && tmpl::has_actions(&text) {
        let rendered = match render_template(cx, &file, &text, data) {
            Ok(r) => r,
            Err(TmplError::Unsupported { file, line, column, construct }) if cx.req.skip_templated => {
                cx.skipped.push(format!("{file}:{line}:{column}: {layer} layer skipped: {construct} is not evaluated (--skip-templated)"));
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        return load_rendered(&file, &text, &rendered, layer, secret, yaml12(cx, layer)).map(Some);
    }
    yaml_file(&text, &file, &file, layer, secret, yaml12(cx, layer)).map(Some)
}

/// `src` (of `file`) rendered with helmfile's functions, which reach the
/// caller's host with paths relative to the state file's directory
/// (helmfile's `basePath`).
pub(super) fn render_template(cx: &Ctx, file: &str, src: &str, data: &Tv) -> Result<tmpl::Rendered, TmplError> {
    let base = cx.req.file.parent().map(FsPath::to_path_buf).unwrap_or_default();
    let host = cx.io.template_host(&base, cx.req);
    tmpl::helmfile::render(file, src, data, host.as_ref())
}

/// The YAML a template rendered, every position mapped back to the template:
/// copied text to its own line and column; output of an action to the
/// action's `{{`, and when a scalar is one action's whole output (alone on
/// its line, perhaps in quotes) and that action printed a value with an
/// origin, `via` carries that origin (a state value's own file and line).
fn load_rendered(file: &str, src: &str, r: &tmpl::Rendered, layer: &str, secret: bool, yaml12: bool) -> Result<VMap, HelmfileError> {
    let rendered_name = format!("{file} (as rendered)");
    let m = yaml_file(&r.text, &rendered_name, file, layer, secret, yaml12)?;
    let starts: Vec<usize> = std::iter::once(0).chain(r.text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let map_back = |s: &Source| -> Source {
        let Source::Helmfile { line: Some(line), column: Some(column), .. } = s else { return s.clone() };
        let Some(&ls) = starts.get(line.saturating_sub(1)) else { return s.clone() };
        let off = r.text[ls..].char_indices().nth(column.saturating_sub(1)).map_or(r.text.len(), |(i, _)| ls + i);
        let (tline, tcol, via) = template_position(src, r, off);
        let via_secret = via.as_ref().is_some_and(|v| super::is_secret(v));
        // A scalar on a line a secret reached (interpolated into a longer
        // string, or encoded by toJson/toYaml) is a secret's too.
        let line_end = r.text[ls..].find('\n').map_or(r.text.len(), |i| ls + i);
        let printed_secret = r.spans.iter().any(|s| s.secret && s.out.start < line_end.max(ls + 1) && s.out.end > ls);
        Source::Helmfile { layer: layer.into(), file: Some(file.into()), line: Some(tline), column: Some(tcol), expr: None, secret: secret || via_secret || printed_secret, via }
    };
    Ok(remap(m, &map_back))
}

/// The template position of rendered byte `off`, and the origin a whole-action scalar there carries.
fn template_position(src: &str, r: &tmpl::Rendered, off: usize) -> (usize, usize, Option<Box<Source>>) {
    let i = r.spans.partition_point(|s| s.out.end <= off);
    let Some(span) = r.spans.get(i) else {
        let (l, c) = tmpl::line_col(src, src.len());
        return (l, c, None);
    };
    // A quote opening a scalar just before an action's output.
    let quote = r.text[off..].chars().next().filter(|c| *c == '"' || *c == '\'') .filter(|_| span.action.is_none() && off + 1 == span.out.end);
    let (span, quoted) = match (quote, r.spans.get(i + 1)) {
        (Some(q), Some(next)) if next.action.is_some() => (next, Some(q)),
        _ => (span, None),
    };
    match &span.action {
        None => {
            let (l, c) = tmpl::line_col(src, span.src + (off - span.out.start));
            (l, c, None)
        }
        Some(origin) => {
            let (l, c) = tmpl::line_col(src, span.src);
            let out = &r.text[span.out.clone()];
            let whole = (off == span.out.start || quoted.is_some()) && !out.contains('\n') && {
                let rest = r.text[span.out.end..].split('\n').next().unwrap_or("");
                let rest = match quoted {
                    Some(q) => rest.strip_prefix(q),
                    None => Some(rest),
                };
                rest.is_some_and(|rest| rest.trim().is_empty() || (rest.starts_with([' ', '\t']) && rest.trim_start().starts_with('#')))
            };
            let via = origin.as_ref().filter(|_| whole).map(|o| Box::new((**o).clone()));
            (l, c, via)
        }
    }
}

/// Every origin of `m` passed through `f`.
fn remap(m: VMap, f: &dyn Fn(&Source) -> Source) -> VMap {
    m.into_iter().map(|(k, v)| (k, remap_value(v, f))).collect()
}

fn remap_value(v: V, f: &dyn Fn(&Source) -> Source) -> V {
    let origin = Rc::new(f(&v.origin));
    let kind = match v.kind {
        Kind::Map(m) => Kind::Map(remap(m, f)),
        Kind::List(l) => Kind::List(l.into_iter().map(|x| remap_value(x, f)).collect()),
        k => k,
    };
    V::new(kind, origin)
}

/// A secrets file: decrypted with sops when it has `sops:` metadata, else plain YAML.
pub(super) fn secret_file(cx: &mut Ctx, path: &FsPath, layer: &str) -> Result<Option<VMap>, HelmfileError> {
    let file = path.to_string_lossy().to_string();
    let text = read(cx, path)?;
    let plain = crate::values::tree::load_tree(&text, &file, &|_, _| Source::Helm { why: String::new() })?;
    let text = if plain.contains_key("sops") {
        if cx.req.skip_secrets {
            cx.skipped.push(format!("{file}: sops-encrypted secrets file skipped (--skip-secrets)"));
            return Ok(None);
        }
        cx.io.sops_decrypt(path).map_err(|message| HelmfileError::Sops { file: file.clone(), message })?
    } else {
        text
    };
    yaml_file(&text, &file, &file, layer, true, yaml12(cx, layer)).map(Some)
}

/// `text` read as a helmfile YAML file (named `name` in errors): every value
/// attributed to `file` in `layer` at its position, integers kept as written.
fn yaml_file(text: &str, name: &str, file: &str, layer: &str, secret: bool, yaml12: bool) -> Result<VMap, HelmfileError> {
    let m = crate::values::tree::load_tree(text, name, &|_, pos| Source::Helmfile {
        layer: layer.into(),
        file: Some(file.into()),
        line: Some(pos.line),
        column: Some(pos.column),
        expr: None,
        secret,
        via: None,
    })?;
    let m = integers(m, text);
    // Only a state file's own `set:` entries are Go strings; values files are data.
    let m = if layer == "state" { set_values_as_written(m, text) } else { m };
    Ok(if yaml12 { yaml12_words(m, text) } else { m })
}

/// Whether helmfile itself decodes a file of `layer` with yaml.v3 (YAML
/// 1.2): current helmfile does unless in 0.x's v0 mode (pkg/yaml with
/// pkg/runtime `GoYamlV3`, true by default). State files, environment
/// values and secrets are; a release's values files and secrets are not
/// (helmfile hands them to Helm, which reads them as YAML 1.1).
fn yaml12(cx: &Ctx, layer: &str) -> bool {
    !cx.req.v0_mode && !layer.starts_with("release-")
}

/// The plain scalars YAML 1.1 reads as booleans and YAML 1.2 (yaml.v3) as
/// strings (`y`, `yes`, `on`, `off`, ...; `true`/`false` are booleans in
/// both): the reader here is Helm's YAML 1.1, so each boolean is looked up
/// in `text` at its position and made the string it is to yaml.v3.
fn yaml12_words(m: VMap, text: &str) -> VMap {
    let lines: Vec<&str> = text.split('\n').collect();
    fn walk(v: V, lines: &[&str]) -> V {
        let kind = match v.kind {
            Kind::Bool(b) => match scalar_token(&v.origin, lines) {
                Some(t) if matches!(t.as_str(), "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF") => Kind::Str(t),
                _ => Kind::Bool(b),
            },
            Kind::Map(m) => Kind::Map(m.into_iter().map(|(k, x)| (k, walk(x, lines))).collect()),
            Kind::List(l) => Kind::List(l.into_iter().map(|x| walk(x, lines)).collect()),
            k => k,
        };
        V::new(kind, v.origin)
    }
    m.into_iter().map(|(k, v)| (k, walk(v, &lines))).collect()
}

/// A `set:` / `setString:` / `setTemplate:` entry's boolean `value` and
/// `values` items as written: helmfile decodes them into Go `string` fields
/// (pkg/state `SetValue`), where a plain `off` or `y` keeps its text (Helm's
/// `--set` then reads `off` as a string, `true` as a boolean). Numbers are
/// left as they are: how their text reaches Helm is the open
/// `set-numeric-text` difference (tests/data/helmfile/known-differences.json).
fn set_values_as_written(m: VMap, text: &str) -> VMap {
    let lines: Vec<&str> = text.split('\n').collect();
    fn as_text(v: V, lines: &[&str]) -> V {
        let kind = match v.kind {
            k @ Kind::Bool(_) => match scalar_token(&v.origin, lines) {
                Some(t) if !t.is_empty() && !t.starts_with(['"', '\'', '&', '*', '!']) => Kind::Str(t),
                _ => k,
            },
            k => k,
        };
        V::new(kind, v.origin)
    }
    /// One entry of a `set:` list: its `value` and `values` items as text.
    fn entry(e: V, lines: &[&str]) -> V {
        let Kind::Map(fields) = e.kind else { return e };
        let fields = fields
            .into_iter()
            .map(|(f, x)| {
                let x = match (f.as_str(), x.kind) {
                    ("value", k) => as_text(V::new(k, x.origin), lines),
                    ("values", Kind::List(items)) => V::new(Kind::List(items.into_iter().map(|i| as_text(i, lines)).collect()), x.origin),
                    (_, k) => V::new(k, x.origin),
                };
                (f, x)
            })
            .collect();
        V::new(Kind::Map(fields), e.origin)
    }
    fn walk(v: V, set_list: bool, lines: &[&str]) -> V {
        let kind = match v.kind {
            Kind::List(l) if set_list => Kind::List(l.into_iter().map(|e| entry(e, lines)).collect()),
            Kind::Map(m) => Kind::Map(m.into_iter().map(|(k, x)| {
                let set_list = matches!(k.as_str(), "set" | "setString" | "setTemplate");
                (k, walk(x, set_list, lines))
            }).collect()),
            Kind::List(l) => Kind::List(l.into_iter().map(|x| walk(x, false, lines)).collect()),
            k => k,
        };
        V::new(kind, v.origin)
    }
    m.into_iter()
        .map(|(k, v)| {
            let set_list = matches!(k.as_str(), "set" | "setString" | "setTemplate");
            (k, walk(v, set_list, &lines))
        })
        .collect()
}

/// The plain token at the origin's position.
fn scalar_token(origin: &Source, lines: &[&str]) -> Option<String> {
    let Source::Helmfile { line: Some(l), column: Some(c), .. } = origin else { return None };
    let line = lines.get(l.wrapping_sub(1))?;
    Some(line.chars().skip(c.saturating_sub(1)).take_while(|ch| !matches!(ch, ' ' | '\t' | ',' | ']' | '}' | '#' | '\r')).collect())
}

/// helmfile reads its YAML with yaml.v3 into Go values: a number written
/// as an integer (`5`, `-3`, `0x1F`, `1_000`) is an `int`, one written as a
/// float (`5.0`, `1e6`) a `float64`. The reader here gives every number as a
/// float64, so each whole one is looked up in `text` at its position; one
/// whose text cannot be read as a number literal there (an alias, a tag)
/// is taken for an integer.
pub(crate) fn integers(m: VMap, text: &str) -> VMap {
    let lines: Vec<&str> = text.split('\n').collect();
    integers_in(m, &lines)
}

fn integers_in(m: VMap, lines: &[&str]) -> VMap {
    m.into_iter().map(|(k, v)| (k, int_value(v, lines))).collect()
}

fn int_value(v: V, lines: &[&str]) -> V {
    let kind = match v.kind {
        Kind::Float(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 && !written_as_float(&v.origin, lines) => Kind::Int(f as i64),
        Kind::Map(m) => Kind::Map(integers_in(m, lines)),
        Kind::List(l) => Kind::List(l.into_iter().map(|x| int_value(x, lines)).collect()),
        k => k,
    };
    V::new(kind, v.origin)
}

/// Whether the scalar at the origin's position is a float literal (`.`, or an exponent without `0x`).
fn written_as_float(origin: &Source, lines: &[&str]) -> bool {
    let Some(token) = scalar_token(origin, lines) else { return false };
    let body = token.trim_start_matches(['-', '+']).replace('_', "");
    let lower = body.to_ascii_lowercase();
    if lower.starts_with("0x") || lower.starts_with("0o") || lower.starts_with("0b") {
        return false;
    }
    body.parse::<f64>().is_ok() && (body.contains('.') || lower.contains('e'))
}

/// An inline map of the state file, its origins naming `layer`.
/// `m` attributed to `layer`; a value stays secret when it already was (a
/// state-file template printed a secret into it: `printed_secret` in
/// `load_rendered`) or when `secret` marks the whole layer.
pub(super) fn relayer(m: &VMap, layer: &str, secret: bool) -> VMap {
    m.iter().map(|(k, v)| (k.clone(), relayer_value(v, layer, secret))).collect()
}

fn relayer_value(v: &V, layer: &str, secret: bool) -> V {
    let origin = match &*v.origin {
        Source::Helmfile { file, line, column, expr, via, secret: was_secret, .. } => {
            Rc::new(Source::Helmfile { layer: layer.into(), file: file.clone(), line: *line, column: *column, expr: expr.clone(), secret: secret || *was_secret, via: via.clone() })
        }
        _ => v.origin.clone(),
    };
    let kind = match &v.kind {
        Kind::Map(m) => Kind::Map(relayer(m, layer, secret)),
        Kind::List(l) => Kind::List(l.iter().map(|x| relayer_value(x, layer, secret)).collect()),
        k => k.clone(),
    };
    V::new(kind, origin)
}

/// A file name or glob relative to `dir`, as the matching files in name order.
pub(super) fn resolve(cx: &Ctx, dir: &FsPath, name: &str, part: &Part) -> Result<Vec<PathBuf>, HelmfileError> {
    if name.contains("://") || name.starts_with("git::") {
        return Err(state_err(part, &format!("{name}: remote values files are not read by releasex")));
    }
    let path = dir.join(name);
    if !name.contains(['*', '?', '[']) {
        if !cx.io.exists(&path) {
            return Err(HelmfileError::Read { file: path.to_string_lossy().to_string(), message: "no such file (helmfile's default missingFileHandler is Error)".into() });
        }
        return Ok(vec![path]);
    }
    glob(&path).map_err(|message| state_err(part, &message))
}

/// A glob in the last path component only (`*`, `?`), sorted by name.
fn glob(pattern: &FsPath) -> Result<Vec<PathBuf>, String> {
    // `Path::parent` of a bare file name is "", which read_dir refuses: read
    // "." then, and name the matches bare too (as an unglobbed name is).
    let bare = pattern.parent().is_none_or(|d| d.as_os_str().is_empty());
    let dir = if bare { FsPath::new(".") } else { pattern.parent().unwrap_or(FsPath::new(".")) };
    let pat = pattern.file_name().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    if dir.to_string_lossy().contains(['*', '?', '[']) || pat.contains('[') {
        return Err(format!("{}: only `*` and `?` in the file name are supported in globs", pattern.display()));
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| if bare { PathBuf::from(e.file_name()) } else { e.path() })
        .filter(|p| p.file_name().is_some_and(|n| wildcard(&pat, &n.to_string_lossy())))
        .collect();
    out.sort();
    Ok(out)
}

/// Go's `filepath.Match` for `*` and `?`: the usual greedy match that backs
/// up to the last `*` (linear in practice, never exponential, whatever the
/// pattern: a hostile `*a*a*a*...b` must not hang the loader).
fn wildcard(p: &str, s: &str) -> bool {
    let (p, s): (Vec<char>, Vec<char>) = (p.chars().collect(), s.chars().collect());
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, si));
                pi += 1;
            }
            Some(c) if *c == '?' || *c == s[si] => {
                pi += 1;
                si += 1;
            }
            _ => match star {
                Some((sp, ss)) => {
                    pi = sp + 1;
                    si = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

fn read(cx: &Ctx, path: &FsPath) -> Result<String, HelmfileError> {
    cx.io.read(path).map_err(|message| HelmfileError::Read { file: path.to_string_lossy().to_string(), message })
}

fn state_err(part: &Part, message: &str) -> HelmfileError {
    HelmfileError::State { file: part.file.clone(), message: message.into() }
}

/// Whether helmfile renders state file `file` as a template: a `.gotmpl`
/// file always; any other when the user asks for v0 behaviour (current
/// helmfile: `HELMFILE_RENDER_YAML=true`, desired_state_file_loader.go
/// `shouldRender`; helmfile 0.x: unless `HELMFILE_V1MODE=true`).
pub(super) fn renders_state(req: &Request, file: &str) -> bool {
    file.ends_with(".gotmpl") || req.render_plain_yaml
}

/// The parts of a state file, each with the 0-based line it starts on.
/// A rendered file splits where helmfile splits it, at `\n---\n` (CRLF
/// normalised first); a plain one also at `--- ` document starts, which
/// the YAML reader would otherwise take for one document.
fn split_parts(text: &str, rendered: bool) -> Vec<(usize, String)> {
    let text = text.replace("\r\n", "\n");
    let mut parts = Vec::new();
    let mut start = 0usize;
    let mut chunk = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if line == "---" || (!rendered && line.starts_with("--- ")) {
            if rendered || !chunk.trim().is_empty() {
                parts.push((start, std::mem::take(&mut chunk)));
            }
            chunk.clear();
            start = i + 1;
            continue;
        }
        chunk.push_str(line);
        chunk.push('\n');
    }
    if rendered || !chunk.trim().is_empty() || parts.is_empty() {
        parts.push((start, chunk));
    }
    parts
}

/// One part of a templated state file rendered with `ctx` (and helmfile's
/// `--namespace`), then read as YAML, every position mapped back to the
/// template (a value printed whole from a state value names it in `via`).
fn render_doc(cx: &Ctx, chunk: &str, file: &str, first: usize, ctx: &Env) -> Result<VMap, HelmfileError> {
    // Blank lines in front keep the template's positions those of the whole file.
    let padded = format!("{}{chunk}", "\n".repeat(first));
    if !tmpl::has_actions(&padded) {
        return parse_doc(chunk, file, first, "state", yaml12(cx, "state"));
    }
    let data = env_data_in(&cx.req.environment, ctx, None, &cx.req.namespace);
    let rendered = render_template(cx, file, &padded, &data)?;
    load_rendered(file, &padded, &rendered, "state", false, yaml12(cx, "state"))
}

/// One document whose first line is line `first + 1` of `file`.
fn parse_doc(text: &str, file: &str, first: usize, layer: &str, yaml12: bool) -> Result<VMap, HelmfileError> {
    // Blank lines in front keep the positions those of the whole file.
    let padded = format!("{}{text}", "\n".repeat(first));
    yaml_file(&padded, file, file, layer, false, yaml12)
}

/// `--state-values-file` (values layer) and `--state-values-set(-string)` (CLI overrides).
fn overrides(cx: &mut Ctx, rec: &mut Recorder) -> Result<Env, HelmfileError> {
    let root = Path::root();
    let mut env = Env::default();
    for f in &cx.req.state_values_files.clone() {
        let path = PathBuf::from(f);
        if path.extension().is_some_and(|e| e == "hcl") {
            let m = super::hcl::render(&[(f.clone(), read(cx, &path)?)])?;
            mergo_override(&mut env.values, &m, &root, rec);
            continue;
        }
        // helmfile renders these with a new, empty environment.
        let data = env_data(&cx.req.environment, &Env::default(), None);
        if let Some(m) = values_file(cx, &path, "state-values-file", false, &data)? {
            mergo_override(&mut env.values, &m, &root, rec);
        }
    }
    // helmfile builds the set-string map first, then merges the set map over it (sparse).
    let mut set_string = VMap::default();
    for expr in &cx.req.state_values_set_string {
        let origin: Origin = Rc::new(Source::Helmfile { layer: "state-values-set-string".into(), file: None, line: None, column: None, expr: Some(expr.clone()), secret: false, via: None });
        for (k, v) in maputil::split_set_string(expr) {
            maputil::set(&mut set_string, &maputil::parse_key(&k), &v, true, &origin, expr, rec)?;
        }
    }
    let mut set = VMap::default();
    for expr in &cx.req.state_values_set {
        let origin: Origin = Rc::new(Source::Helmfile { layer: "state-values-set".into(), file: None, line: None, column: None, expr: Some(expr.clone()), secret: false, via: None });
        for (k, v) in maputil::split_set(expr)? {
            maputil::set(&mut set, &maputil::parse_key(&k), &v, false, &origin, expr, rec)?;
        }
    }
    env.cli = merge_maps(&set_string, &set, ArrayStrategy::Sparse, &root, rec);
    Ok(env)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// State files held in memory.
    pub(in crate::helmfile) struct Files(pub Vec<(&'static str, &'static str)>);

    impl Io for Files {
        fn read(&self, path: &FsPath) -> Result<String, String> {
            self.0.iter().find(|(p, _)| FsPath::new(p) == path).map(|(_, t)| t.to_string()).ok_or_else(|| format!("{}: no such file", path.display()))
        }
        fn exists(&self, path: &FsPath) -> bool {
            self.0.iter().any(|(p, _)| FsPath::new(p) == path)
        }
        fn sops_decrypt(&self, _: &FsPath) -> Result<String, String> {
            Err("no sops in this test".into())
        }
        fn template_host(&self, _: &FsPath, _: &Request) -> Box<dyn crate::gotmpl::func::Host + '_> {
            Box::new(crate::gotmpl::func::FixedHost::default())
        }
    }

    #[test]
    fn a_part_holds_its_bases_fields_lists_appended_and_map_entries_replaced() {
        let io = Files(vec![
            ("/s/base.yaml", "helmDefaults:\n  kubeContext: from-base\n  wait: true\ntemplates:\n  a:\n    chart: base-a\n  b:\n    chart: base-b\nreleases:\n- name: from-base\nenvironments:\n  default:\n    values:\n    - k: v\n"),
            ("/s/helmfile.yaml", "bases:\n- base.yaml\nhelmDefaults:\n  wait: false\ntemplates:\n  b:\n    chart: own-b\nreleases:\n- name: own\n"),
        ]);
        let req = Request { file: "/s/helmfile.yaml".into(), environment: "default".into(), ..Request::default() };
        let got = load_file(Ctx { io: &io, req: &req, skipped: Vec::new() }, Env::default(), None, &mut Recorder::default()).expect("loads");
        let doc = serde_json::Value::Object(crate::values::tree::map_to_json(&got.parts[0].0.doc));
        assert_eq!(doc["helmDefaults"], serde_json::json!({"kubeContext": "from-base", "wait": false}));
        assert_eq!(doc["templates"], serde_json::json!({"a": {"chart": "base-a"}, "b": {"chart": "own-b"}}));
        assert_eq!(doc["releases"], serde_json::json!([{"name": "from-base"}, {"name": "own"}]));
        assert!(doc.get("environments").is_none(), "a base's environments are merged into the specs, not the part: {doc}");
    }

    #[test]
    fn an_environment_values_glob_matching_nothing_fails_unless_its_missing_file_handler_skips_it() {
        let load = |handler: &'static str| {
            let text: &'static str = match handler {
                "" => "environments:\n  default:\n    values:\n    - env.*.yaml\n    - here.yaml\n",
                "Warn" => "environments:\n  default:\n    missingFileHandler: Warn\n    values:\n    - env.*.yaml\n    - gone.yaml\n    - here.yaml\n",
                _ => "missingFileHandler: Info\nenvironments:\n  default:\n    values:\n    - env.*.yaml\n    - here.yaml\n",
            };
            // The glob lists a real directory (with nothing matching); the files are read from memory.
            let dir = tempfile::tempdir().expect("tempdir");
            let at = |name: &str| -> &'static str { Box::leak(dir.path().join(name).to_string_lossy().into_owned().into_boxed_str()) };
            let io = Files(vec![(at("helmfile.yaml"), text), (at("here.yaml"), "k: v\n")]);
            let req = Request { file: at("helmfile.yaml").into(), environment: "default".into(), ..Request::default() };
            let mut cx = Ctx { io: &io, req: &req, skipped: Vec::new() };
            let env = overrides(&mut cx, &mut Recorder::default()).expect("no flags");
            load_file(cx, env, None, &mut Recorder::default()).map(|l| (serde_json::Value::Object(crate::values::tree::map_to_json(&l.env.values)), l.skipped.len()))
        };
        let e = load("").unwrap_err().to_string();
        assert!(e.contains("environment values file matching \"env.*.yaml\" does not exist in"), "{e}");
        assert_eq!(load("Warn").expect("skipped"), (serde_json::json!({"k": "v"}), 2));
        // The state's handler stands in for an environment without one.
        assert_eq!(load("Info").expect("skipped"), (serde_json::json!({"k": "v"}), 1));
    }

    #[test]
    fn an_unknown_inherits_key_of_a_sub_helmfile_entry_is_an_error_naming_it() {
        let io = Files(vec![("/s/helmfile.yaml", "helmfiles:\n- path: child.yaml\n  inherits:\n  - repositories\n  - bogusKey\n")]);
        let req = Request { file: "/s/helmfile.yaml".into(), environment: "default".into(), ..Request::default() };
        let loaded = load_file(Ctx { io: &io, req: &req, skipped: Vec::new() }, Env::default(), None, &mut Recorder::default()).expect("loads");
        let e = sub_helmfiles(&loaded).unwrap_err().to_string();
        assert!(e.contains("invalid inherits entry \"bogusKey\" for path \"child.yaml\": allowed values are [repositories helmDefaults"), "{e}");
    }

    #[test]
    fn a_file_whose_first_part_lacks_the_environment_is_undefined_before_its_later_parts_render() {
        // The second part could not render without `origin`: helmfile never gets there.
        let io = Files(vec![("/s/sub.yaml.gotmpl", "environments:\n  live:\n    values:\n    - origin: live\n---\nreleases:\n- name: r\n  values:\n  - origin: {{ .Values.origin }}\n")]);
        let req = Request { file: "/s/sub.yaml.gotmpl".into(), environment: "staging".into(), ..Request::default() };
        let overrode = Env { values: VMap::default(), ..Env::default() };
        let got = load_file(Ctx { io: &io, req: &req, skipped: Vec::new() }, overrode, None, &mut Recorder::default());
        assert!(matches!(got, Err(HelmfileError::UndefinedEnvironment(ref e)) if e == "staging"), "{got:?}");
        // The environment it does define loads, its later part rendered with it.
        let req = Request { environment: "live".into(), ..req };
        let got = load_file(Ctx { io: &io, req: &req, skipped: Vec::new() }, Env::default(), None, &mut Recorder::default()).expect("loads");
        assert_eq!(got.parts.len(), 2);
    }
}

#[cfg(test)]
mod glob_tests {
    use super::*;

    #[test]
    fn wildcard_matches_stars_and_question_marks_as_go_filepath_match() {
        for (p, s, want) in [("*.yaml", "a.yaml", true), ("*.yaml", "a.yml", false), ("a?c", "abc", true), ("a?c", "ac", false), ("*", "", true), ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false), ("**x", "x", true), ("", "", true), ("", "a", false)] {
            assert_eq!(wildcard(p, s), want, "{p:?} {s:?}");
        }
    }

    #[test]
    fn wildcard_with_many_stars_answers_at_once() {
        let pattern = format!("{}b", "*a".repeat(40));
        let name = "a".repeat(200);
        let started = std::time::Instant::now();
        assert!(!wildcard(&pattern, &name));
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "backtracking blew up");
    }

    #[test]
    fn a_bare_file_name_globs_in_the_current_directory() {
        // The pattern as the loader builds it for `--helmfile helmfile.yaml`: no directory part
        // (read_dir("") failed); the tests run in the crate root, which holds Cargo.toml.
        assert!(glob(FsPath::new("*.definitely-none")).is_ok_and(|v| v.is_empty()));
        assert_eq!(glob(FsPath::new("Cargo.t?ml")).unwrap(), [PathBuf::from("Cargo.toml")]);
    }
}

#[cfg(test)]
mod yaml12_tests {
    use super::*;

    fn json(m: &VMap) -> serde_json::Value {
        serde_json::Value::Object(crate::values::tree::map_to_json(m))
    }

    #[test]
    fn helmfile_decoded_yaml_keeps_yaml_1_1_words_as_strings_and_set_entries_keep_their_text() {
        let text = "a: off\nb: y\nc: true\nd: [on, \"no\"]\nreleases:\n- set:\n  - name: x\n    value: off\n    values: [yes, true]\n";
        let v12 = yaml_file(text, "h.yaml", "h.yaml", "state", false, true).unwrap();
        assert_eq!(json(&v12), serde_json::json!({"a": "off", "b": "y", "c": true, "d": ["on", "no"], "releases": [{"set": [{"name": "x", "value": "off", "values": ["yes", "true"]}]}]}));
        // v0 mode (yaml.v2): YAML 1.1 booleans, but a set entry's value is still the Go string as written.
        let v11 = yaml_file(text, "h.yaml", "h.yaml", "state", false, false).unwrap();
        assert_eq!(json(&v11)["a"], false);
        assert_eq!(json(&v11)["releases"][0]["set"][0]["value"], "off");
        // A values file Helm reads itself is data: no set rule.
        let data = yaml_file("set:\n- value: off\n", "v.yaml", "v.yaml", "release-values", false, false).unwrap();
        assert_eq!(json(&data), serde_json::json!({"set": [{"value": false}]}));
    }
}
