//! helmfile state files and the state values (`.Values` / `.StateValues`).
//! helmfile: pkg/state/create.go (ParseAndLoad, loadBases, mergeEnvironments,
//! LoadEnvValues, loadEnvValues), pkg/state/envvals_loader.go,
//! pkg/environment/environment.go (GetMergedValues), pkg/app/desired_state_file_loader.go.

use std::path::{Path as FsPath, PathBuf};
use std::rc::Rc;

use super::maputil::{self, ArrayStrategy, merge_maps, mergo_override};
use super::{HelmfileError, Io, Request, first_action};
use crate::values::path::Path;
use crate::values::tree::{Kind, Origin, Recorder, Source, V, VMap};
use crate::values::yaml;

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
    let file = req.file.to_string_lossy().to_string();
    let dir = req.file.parent().map(FsPath::to_path_buf).unwrap_or_default();
    let overrode = overrides(&mut cx, rec)?;
    let parts = read_parts(&mut cx, &file, &dir)?;
    let mut ctx_env: Option<Env> = None;
    let mut out = Loaded::default();
    let mut env_found = req.environment == "default";
    for part in parts {
        let (envs, defaults_entries, layer_dir) = with_bases(&mut cx, &part)?;
        env_found |= envs.iter().any(|(n, _)| *n == req.environment);
        let env = load_env(&mut cx, &part, &layer_dir, &envs, &defaults_entries, ctx_env.as_ref(), &overrode, rec)?;
        out.parts.push((part, env.clone()));
        ctx_env = Some(env);
    }
    if !env_found {
        return Err(HelmfileError::UndefinedEnvironment(req.environment.clone()));
    }
    out.env = ctx_env.unwrap_or_default();
    out.skipped = cx.skipped;
    Ok(out)
}

/// One environment's spec after bases were merged.
#[derive(Debug, Clone, Default)]
pub struct EnvSpec {
    pub values: Vec<V>,
    pub secrets: Vec<V>,
    pub merge_strategy: Option<String>,
}

type WithBases = (Vec<(String, EnvSpec)>, Vec<V>, PathBuf);

/// `loadBases` + `mergeEnvironments`: every base's environments and root
/// `values:` before the part's own. Every relative path, a base's too,
/// resolves against the main state file's directory (helmfile parses bases
/// with the main file's base directory: `loadFileWithOverrides`).
fn with_bases(cx: &mut Ctx, part: &Part) -> Result<WithBases, HelmfileError> {
    let mut layers: Vec<Part> = Vec::new();
    for b in list(&part.doc, "bases") {
        let Kind::Str(name) = &b.kind else { return Err(state_err(part, "bases: entries must be file names")) };
        let path = part.dir.join(name);
        let file = path.to_string_lossy().to_string();
        let text = read(cx, &path)?;
        let doc = parse_doc(&text, &file, 0, "state")?;
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
    Ok((envs, defaults, layer_dir))
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
    ctx_env: Option<&Env>,
    overrode: &Env,
    rec: &mut Recorder,
) -> Result<Env, HelmfileError> {
    let root = Path::root();
    let name = &cx.req.environment;
    let mut values = VMap::default();
    if let Some((_, spec)) = envs.iter().find(|(n, _)| n == name) {
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
                    hcl_secrets.push(V::new(Kind::Str(path.to_string_lossy().to_string()), entry.origin.clone()));
                    continue;
                }
                if let Some(m) = secret_file(cx, &path, "secrets")? {
                    mergo_override(&mut secret_vals, &m, &root, rec);
                }
            }
        }
        let mut entries = hcl_secrets;
        entries.extend(spec.values.iter().cloned());
        values = values_entries(cx, part, dir, &entries, &strategy, "environment", rec)?;
        mergo_override(&mut values, &secret_vals, &root, rec);
    }
    let mut env = Env { values, ..Env::default() };
    if let Some(c) = ctx_env {
        env.defaults = merge_maps(&c.defaults, &env.defaults, ArrayStrategy::Sparse, &root, rec);
        env.values = merge_maps(&c.values, &env.values, ArrayStrategy::Sparse, &root, rec);
        env.cli = merge_maps(&env.cli, &c.cli, ArrayStrategy::Merge, &root, rec);
    }
    env.values = merge_maps(&env.values, &overrode.values, ArrayStrategy::Sparse, &root, rec);
    env.cli = merge_maps(&env.cli, &overrode.cli, ArrayStrategy::Merge, &root, rec);
    let new_defaults = values_entries(cx, part, dir, defaults_entries, "", "defaults", rec)?;
    mergo_override(&mut env.defaults, &new_defaults, &root, rec);
    Ok(env)
}

/// `loadValuesEntries` / `LoadEnvironmentValues`: files (globs) and inline
/// maps in order, HCL files rendered together after them.
pub(super) fn values_entries(cx: &mut Ctx, part: &Part, dir: &FsPath, entries: &[V], strategy: &str, layer: &str, rec: &mut Recorder) -> Result<VMap, HelmfileError> {
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
                for path in resolve(cx, dir, f, part)? {
                    if path.extension().is_some_and(|e| e == "hcl") {
                        hcl_files.push(path);
                        continue;
                    }
                    let secret = layer == "secrets";
                    if let Some(m) = values_file(cx, &path, layer, secret)? {
                        merge(&mut result, m, rec);
                    }
                }
            }
            Kind::Map(m) => merge(&mut result, relayer(m, layer, false), rec),
            _ => return Err(state_err(part, &format!("{layer} values: an entry must be a file name or a map"))),
        }
    }
    if !hcl_files.is_empty() {
        let mut texts = Vec::new();
        for p in &hcl_files {
            texts.push((p.to_string_lossy().to_string(), read(cx, p)?));
        }
        let m = super::hcl::render(&texts)?;
        merge(&mut result, m, rec);
    }
    Ok(result)
}

/// A YAML values file (`.gotmpl` without actions read as YAML); `None` when skipped.
pub(super) fn values_file(cx: &mut Ctx, path: &FsPath, layer: &str, secret: bool) -> Result<Option<VMap>, HelmfileError> {
    let file = path.to_string_lossy().to_string();
    let text = read(cx, path)?;
    if !templated_ok(cx, &file, &text, layer)? {
        return Ok(None);
    }
    let m = yaml::load_tree(&text, &file, &|_, pos| Source::Helmfile {
        layer: layer.into(),
        file: Some(file.clone()),
        line: Some(pos.line),
        column: Some(pos.column),
        expr: None,
        secret,
    })?;
    Ok(Some(integers(m)))
}

/// A secrets file: decrypted with sops when it has `sops:` metadata, else plain YAML.
pub(super) fn secret_file(cx: &mut Ctx, path: &FsPath, layer: &str) -> Result<Option<VMap>, HelmfileError> {
    let file = path.to_string_lossy().to_string();
    let text = read(cx, path)?;
    let plain = yaml::load_tree(&text, &file, &|_, _| Source::Helm { why: String::new() })?;
    let text = if plain.contains_key("sops") {
        if cx.req.skip_secrets {
            cx.skipped.push(format!("{file}: sops-encrypted secrets file skipped (--skip-secrets)"));
            return Ok(None);
        }
        cx.io.sops_decrypt(path).map_err(|message| HelmfileError::Sops { file: file.clone(), message })?
    } else {
        text
    };
    let m = yaml::load_tree(&text, &file, &|_, pos| Source::Helmfile {
        layer: layer.into(),
        file: Some(file.clone()),
        line: Some(pos.line),
        column: Some(pos.column),
        expr: None,
        secret: true,
    })?;
    Ok(Some(integers(m)))
}

/// Whether to read `text`: a `.gotmpl` file with a template action stops
/// (or, with `--skip-templated`, is skipped and reported).
pub(super) fn templated_ok(cx: &mut Ctx, file: &str, text: &str, layer: &str) -> Result<bool, HelmfileError> {
    if !file.ends_with(".gotmpl") {
        return Ok(true);
    }
    match first_action(text) {
        None => Ok(true),
        Some((line, action)) if cx.req.skip_templated => {
            cx.skipped.push(format!("{file}:{line}: {layer} layer skipped: template action `{action}` not evaluated (--skip-templated)"));
            Ok(false)
        }
        Some((line, action)) => Err(HelmfileError::Templated { file: file.into(), line, action }),
    }
}

/// helmfile reads its YAML with integers kept as integers (Helm makes them
/// floats later): a whole float read from YAML becomes an int64.
pub(super) fn integers(m: VMap) -> VMap {
    m.into_iter().map(|(k, v)| (k, int_value(v))).collect()
}

fn int_value(v: V) -> V {
    let kind = match v.kind {
        Kind::Float(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => Kind::Int(f as i64),
        Kind::Map(m) => Kind::Map(integers(m)),
        Kind::List(l) => Kind::List(l.into_iter().map(int_value).collect()),
        k => k,
    };
    V::new(kind, v.origin)
}

/// An inline map of the state file, its origins naming `layer`.
pub(super) fn relayer(m: &VMap, layer: &str, secret: bool) -> VMap {
    m.iter().map(|(k, v)| (k.clone(), relayer_value(v, layer, secret))).collect()
}

fn relayer_value(v: &V, layer: &str, secret: bool) -> V {
    let origin = match &*v.origin {
        Source::Helmfile { file, line, column, expr, .. } => {
            Rc::new(Source::Helmfile { layer: layer.into(), file: file.clone(), line: *line, column: *column, expr: expr.clone(), secret })
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
    let dir = pattern.parent().unwrap_or(FsPath::new("."));
    let pat = pattern.file_name().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    if dir.to_string_lossy().contains(['*', '?', '[']) || pat.contains('[') {
        return Err(format!("{}: only `*` and `?` in the file name are supported in globs", pattern.display()));
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| wildcard(&pat, &n.to_string_lossy())))
        .collect();
    out.sort();
    Ok(out)
}

fn wildcard(p: &str, s: &str) -> bool {
    let (p, s): (Vec<char>, Vec<char>) = (p.chars().collect(), s.chars().collect());
    fn go(p: &[char], s: &[char]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some(('*', rest)) => (0..=s.len()).any(|i| go(rest, &s[i..])),
            Some(('?', rest)) => !s.is_empty() && go(rest, &s[1..]),
            Some((c, rest)) => s.first() == Some(c) && go(rest, &s[1..]),
        }
    }
    go(&p, &s)
}

fn read(cx: &Ctx, path: &FsPath) -> Result<String, HelmfileError> {
    cx.io.read(path).map_err(|message| HelmfileError::Read { file: path.to_string_lossy().to_string(), message })
}

fn state_err(part: &Part, message: &str) -> HelmfileError {
    HelmfileError::State { file: part.file.clone(), message: message.into() }
}

/// The parts of the state file (`---`-separated documents), each parsed on
/// its own with its real line numbers.
fn read_parts(cx: &mut Ctx, file: &str, dir: &FsPath) -> Result<Vec<Part>, HelmfileError> {
    let text = read(cx, FsPath::new(file))?;
    if file.ends_with(".gotmpl") && let Some((line, action)) = first_action(&text) {
        // The state file itself cannot be skipped.
        return Err(HelmfileError::Templated { file: file.into(), line, action });
    }
    let mut parts = Vec::new();
    let mut start = 0usize;
    let mut chunk = String::new();
    for (i, line) in text.lines().enumerate() {
        if line == "---" || line.starts_with("--- ") {
            if !chunk.trim().is_empty() {
                parts.push(Part { doc: parse_doc(&chunk, file, start, "state")?, file: file.into(), dir: dir.into() });
            }
            chunk.clear();
            start = i + 1;
            continue;
        }
        chunk.push_str(line);
        chunk.push('\n');
    }
    if !chunk.trim().is_empty() || parts.is_empty() {
        parts.push(Part { doc: parse_doc(&chunk, file, start, "state")?, file: file.into(), dir: dir.into() });
    }
    Ok(parts)
}

/// One document whose first line is line `first + 1` of `file`.
fn parse_doc(text: &str, file: &str, first: usize, layer: &str) -> Result<VMap, HelmfileError> {
    // Blank lines in front keep the positions those of the whole file.
    let padded = format!("{}{text}", "\n".repeat(first));
    let m = yaml::load_tree(&padded, file, &|_, pos| Source::Helmfile {
        layer: layer.into(),
        file: Some(file.into()),
        line: Some(pos.line),
        column: Some(pos.column),
        expr: None,
        secret: false,
    })?;
    Ok(integers(m))
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
        if let Some(m) = values_file(cx, &path, "state-values-file", false)? {
            mergo_override(&mut env.values, &m, &root, rec);
        }
    }
    // helmfile builds the set-string map first, then merges the set map over it (sparse).
    let mut set_string = VMap::default();
    for expr in &cx.req.state_values_set_string {
        let origin: Origin = Rc::new(Source::Helmfile { layer: "state-values-set-string".into(), file: None, line: None, column: None, expr: Some(expr.clone()), secret: false });
        for (k, v) in maputil::split_set_string(expr) {
            maputil::set(&mut set_string, &maputil::parse_key(&k), &v, true, &origin, expr, rec)?;
        }
    }
    let mut set = VMap::default();
    for expr in &cx.req.state_values_set {
        let origin: Origin = Rc::new(Source::Helmfile { layer: "state-values-set".into(), file: None, line: None, column: None, expr: Some(expr.clone()), secret: false });
        for (k, v) in maputil::split_set(expr)? {
            maputil::set(&mut set, &maputil::parse_key(&k), &v, false, &origin, expr, rec)?;
        }
    }
    env.cli = merge_maps(&set_string, &set, ArrayStrategy::Sparse, &root, rec);
    Ok(env)
}
