//! A release's values as helmfile hands them to Helm, and Helm's explain on top.
//! helmfile: pkg/state/state_exec_tmpl.go (releaseWithInheritedTemplate),
//! pkg/state/state.go (DefaultInherits, namespaceAndValuesFlags, setFlags) at ecf604d.

use std::path::Path as FsPath;
use std::rc::Rc;

use super::state::{self, Ctx, Part, list, relayer, values_file};
use crate::gotmpl::{self as tmpl, Tv, Val};
use super::{HelmfileError, Io, Request};
use crate::keypath::Path;
use crate::values::strvals::{self, SetKind};
use crate::values::tree::{EventKind, Kind, Origin, Recorder, Source, V, VMap, get, map_to_json};
use crate::values::user::{merge_maps, reattribute};

/// The release spec after inheritance: only what makes values.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    pub name: String,
    pub chart: String,
    pub namespace: String,
    pub version: String,
    /// `kubeContext:` (`.Release.KubeContext`).
    pub kube_context: String,
    /// `missingFileHandler:` (empty: the state's, else Error).
    pub missing_file_handler: String,
    /// `labels:` (a release's label beats its template's: see [`absorb`]).
    pub labels: std::collections::BTreeMap<String, String>,
    pub values: Vec<V>,
    pub values_template: Vec<V>,
    pub secrets: Vec<V>,
    pub set: Vec<V>,
    pub set_template: Vec<V>,
    pub set_string: Vec<V>,
}

fn scalar(m: &VMap, key: &str) -> String {
    match m.get(key).map(|v| &v.kind) {
        Some(k) => text_of(k).unwrap_or_default(),
        None => String::new(),
    }
}

fn text_of(k: &Kind) -> Option<String> {
    match k {
        Kind::Str(s) => Some(s.clone()),
        Kind::Int(i) => Some(i.to_string()),
        Kind::Float(f) => Some(crate::go::fmt::go_float(*f)),
        Kind::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn spec_of(m: &VMap) -> Spec {
    Spec {
        name: scalar(m, "name"),
        chart: scalar(m, "chart"),
        namespace: scalar(m, "namespace"),
        version: scalar(m, "version"),
        kube_context: scalar(m, "kubeContext"),
        missing_file_handler: scalar(m, "missingFileHandler"),
        labels: match m.get("labels").map(|v| &v.kind) {
            Some(Kind::Map(l)) => l.iter().map(|(k, v)| (k.clone(), text_of(&v.kind).unwrap_or_default())).collect(),
            _ => Default::default(),
        },
        values: list(m, "values"),
        values_template: list(m, "valuesTemplate"),
        secrets: list(m, "secrets"),
        set: list(m, "set"),
        set_template: list(m, "setTemplate"),
        set_string: list(m, "setString"),
    }
}

/// mergo `Merge(&dst, src, WithAppendSlice, WithSliceDeepCopy)`, as
/// helmfile's `releaseWithInheritedTemplate` (pkg/state/state_exec_tmpl.go)
/// calls it: lists append, and a non-empty scalar or label of `src`
/// replaces `dst`'s, because mergo's `WithSliceDeepCopy` also sets
/// `Overwrite` (mergo merge.go). So a later template beats an earlier one,
/// and the release's own namespace, labels, chart... beat every template's.
fn absorb(dst: &mut Spec, src: Spec) {
    fn overwrite(dst: &mut String, src: String) {
        if !src.is_empty() {
            *dst = src;
        }
    }
    overwrite(&mut dst.name, src.name);
    overwrite(&mut dst.chart, src.chart);
    overwrite(&mut dst.namespace, src.namespace);
    overwrite(&mut dst.version, src.version);
    overwrite(&mut dst.kube_context, src.kube_context);
    overwrite(&mut dst.missing_file_handler, src.missing_file_handler);
    dst.labels.extend(src.labels);
    dst.values.extend(src.values);
    dst.values_template.extend(src.values_template);
    dst.secrets.extend(src.secrets);
    dst.set.extend(src.set);
    dst.set_template.extend(src.set_template);
    dst.set_string.extend(src.set_string);
}

/// `releaseWithInheritedTemplate`, with `defaultInherit` prepended.
fn inherited(part: &Part, r: &VMap, default_inherit: &[String], path: &[String]) -> Result<Spec, HelmfileError> {
    let err = |message: String| HelmfileError::State { file: part.file.clone(), message };
    let mut inherits: Vec<(String, Vec<String>)> = default_inherit.iter().map(|t| (t.clone(), Vec::new())).collect();
    for i in list(r, "inherit") {
        let Some(m) = i.as_map() else { return Err(err("inherit: entries must be maps".into())) };
        let t = scalar(m, "template");
        let except = list(m, "except").iter().filter_map(|e| text_of(&e.kind)).collect();
        inherits.retain(|(n, _)| *n != t);
        inherits.push((t, except));
    }
    let mut merged = Spec::default();
    for (t, except) in inherits {
        if t.is_empty() {
            return Ok(spec_of(r));
        }
        if path.contains(&t) {
            return Err(err(format!("cyclic inheritance detected: {}->{t}", path.join("->"))));
        }
        let templates = part.doc.get("templates").and_then(V::as_map);
        let Some(tm) = templates.and_then(|ts| ts.get(&t)).and_then(V::as_map) else {
            return Err(err(format!("release {:?} tried to inherit inexistent release template {t:?}", scalar(r, "name"))));
        };
        let mut p = path.to_vec();
        p.push(t.clone());
        let mut src = inherited(part, tm, &[], &p)?;
        for k in except {
            match k.as_str() {
                "values" => src.values.clear(),
                "valuesTemplate" => src.values_template.clear(),
                "setTemplate" => src.set_template.clear(),
                "set" => src.set.clear(),
                "setString" => src.set_string.clear(),
                "secrets" => src.secrets.clear(),
                "labels" => src.labels.clear(),
                other => return Err(err(format!("{other:?} is not allowed under `inherit`"))),
            }
        }
        absorb(&mut merged, src);
    }
    absorb(&mut merged, spec_of(r));
    Ok(merged)
}

/// The release's values tree as Helm builds it from helmfile's flags, and
/// the chart helmfile names.
pub struct ReleaseValues {
    pub chart: String,
    pub user: VMap,
    pub dir: std::path::PathBuf,
}

/// Whether a part of the state defines release `name`.
pub fn defines(req: &Request, io: &dyn Io, loaded: &state::Loaded, name: &str) -> bool {
    find(req, io, loaded, name).is_some()
}

/// The release named `name` in the last part that defines it, and that part.
/// A release whose `name:` is a release template (`{{ .Release.Labels.x }}`,
/// often from a YAML anchor) is named by its rendered name, as helmfile's
/// `ExecuteTemplates` names it before anything selects it; one whose
/// templates fail to render is not this release.
fn find<'a>(req: &Request, io: &dyn Io, loaded: &'a state::Loaded, name: &str) -> Option<(&'a Part, &'a V)> {
    let named = |part: &Part, r: &V| {
        let Some(m) = r.as_map() else { return false };
        let raw = scalar(m, "name");
        if raw == name {
            return true;
        }
        if !raw.contains("{{") {
            return false;
        }
        let mut cx = Ctx { io, req, skipped: Vec::new() };
        let part = &with_state_templates(loaded, part);
        let spec = inherited(part, m, &default_inherit(part), &[]).map(|s| with_default_kube_context(loaded, s));
        spec.and_then(|s| render_spec(&mut cx, &loaded.env, part, s)).is_ok_and(|s| s.name == name)
    };
    loaded.parts.iter().rev().find_map(|(part, _)| {
        let releases = part.doc.get("releases").and_then(|v| if let Kind::List(l) = &v.kind { Some(l) } else { None })?;
        releases.iter().find(|r| named(part, r)).map(|r| (part, r))
    })
}

/// The release's part as its templates see the state: helmfile merges every
/// part's `templates:` (desired_state_file_loader.go `load`, mergo with
/// override: a later part's entry replaces an earlier one's) before
/// ExecuteTemplates, so a release inherits a template defined in any part,
/// its bases' included.
fn with_state_templates(loaded: &state::Loaded, part: &Part) -> Part {
    let mut templates = VMap::default();
    for (p, _) in &loaded.parts {
        if let Some(Kind::Map(m)) = p.doc.get("templates").map(|v| &v.kind) {
            for (k, v) in m {
                templates.insert(k.clone(), v.clone());
            }
        }
    }
    let mut view = part.clone();
    if !templates.is_empty() {
        let origin = view.doc.get("templates").map_or_else(|| Rc::new(Source::Helm { why: "templates of every part".into() }), |v| v.origin.clone());
        view.doc.insert("templates".into(), V::new(Kind::Map(templates), origin));
    }
    view
}

/// A part's `defaultInherit:` (one template name or a list).
fn default_inherit(part: &Part) -> Vec<String> {
    match part.doc.get("defaultInherit").map(|v| &v.kind) {
        Some(Kind::Str(s)) => vec![s.clone()],
        Some(Kind::List(l)) => l.iter().filter_map(|x| text_of(&x.kind)).collect(),
        _ => Vec::new(),
    }
}

/// ExecuteTemplates: `release.KubeContext = r.HelmDefaults.KubeContext` when
/// the release has none. The state's helmDefaults are every part's merged
/// with mergo's override (desired_state_file_loader.go `load`), so the last
/// part that sets `kubeContext`, before or after the release's own part.
fn with_default_kube_context(loaded: &state::Loaded, mut spec: Spec) -> Spec {
    if spec.kube_context.is_empty() {
        let set = |part: &Part| part.doc.get("helmDefaults").and_then(V::as_map).map(|h| scalar(h, "kubeContext")).filter(|c| !c.is_empty());
        spec.kube_context = loaded.parts.iter().rev().find_map(|(part, _)| set(part)).unwrap_or_default();
    }
    spec
}

/// Finds `name` in the last part that defines it and builds its user values.
pub fn release_values(req: &Request, io: &dyn Io, loaded: &state::Loaded, name: &str, rec: &mut Recorder, skipped: &mut Vec<String>) -> Result<ReleaseValues, HelmfileError> {
    let mut cx = Ctx { io, req, skipped: Vec::new() };
    let Some((part, r)) = find(req, io, loaded, name) else { return Err(HelmfileError::NoRelease(name.into(), String::new())) };
    let r = r.as_map().cloned().unwrap_or_default();
    let part = &with_state_templates(loaded, part);
    let spec = with_default_kube_context(loaded, inherited(part, &r, &default_inherit(part), &[])?);
    let spec = render_spec(&mut cx, &loaded.env, part, spec)?;
    // valuesTemplate entries come first (rendered, then prepended to values).
    let mut entries: Vec<V> = spec.values_template.clone();
    entries.extend(spec.values.iter().cloned());
    // One Helm `--values` per entry, then the decrypted secrets; Helm merges them in order.
    let mut user = VMap::default();
    let root = Path::root();
    let data = release_data(&loaded.env, req, part, &spec);
    for e in &entries {
        let layer = match &e.kind {
            Kind::Str(f) => {
                for p in release_files(&mut cx, part, &spec, f, "values")? {
                    if let Some(m) = values_file(&mut cx, &p, "release-values", false, &data)? {
                        merge_maps(&mut user, to_helm(m), &root, rec);
                    }
                }
                continue;
            }
            Kind::Map(m) => relayer(m, "release-values", false),
            _ => continue,
        };
        merge_maps(&mut user, to_helm(layer), &root, rec);
    }
    for s in &spec.secrets {
        let Kind::Str(f) = &s.kind else { continue };
        for p in release_files(&mut cx, part, &spec, f, "secrets")? {
            if let Some(m) = state::secret_file(&mut cx, &p, "release-secrets")? {
                merge_maps(&mut user, to_helm(m), &root, rec);
            }
        }
    }
    // --set / --set-file from `set:` (setTemplate first), then --set-string; Helm applies --set before --set-file.
    let mut flags: Vec<(SetKind, String, Origin)> = Vec::new();
    for s in spec.set_template.iter().chain(&spec.set) {
        let Some(m) = s.as_map() else { continue };
        let key = escape(&scalar(m, "name"));
        let secret = carries_secret(s);
        let origin = |expr: &str| Rc::new(Source::Helmfile { layer: "release-set".into(), file: source_file(s), line: source_line(s), column: source_column(s), expr: Some(expr.into()), secret, via: None });
        if let Some(v) = m.get("value").and_then(|v| text_of(&v.kind)).filter(|v| !v.is_empty()) {
            let expr = format!("{key}={}", escape(&v));
            flags.push((SetKind::Set, expr.clone(), origin(&expr)));
        } else if let Some(f) = m.get("file").and_then(|v| text_of(&v.kind)).filter(|v| !v.is_empty()) {
            let path = part.dir.join(&f).to_string_lossy().to_string();
            let expr = format!("{key}={path}");
            flags.push((SetKind::File, expr.clone(), origin(&expr)));
        } else if let Some(Kind::List(l)) = m.get("values").map(|v| &v.kind) {
            // helmfile's `Values []string`: a null item decodes as "" and stays
            // an (empty) item (pkg/state/state.go setFlags joins them all).
            let items: Vec<String> = l.iter().filter_map(|x| if matches!(x.kind, Kind::Null) { Some(String::new()) } else { text_of(&x.kind) }).map(|x| escape(&x)).collect();
            let expr = format!("{key}={{{}}}", items.join(","));
            flags.push((SetKind::Set, expr.clone(), origin(&expr)));
        }
    }
    for s in &spec.set_string {
        let Some(m) = s.as_map() else { continue };
        let Some(v) = m.get("value").and_then(|v| text_of(&v.kind)) else { continue };
        let expr = format!("{}={}", escape(&scalar(m, "name")), escape(&v));
        let origin = Rc::new(Source::Helmfile { layer: "release-set-string".into(), file: source_file(s), line: source_line(s), column: source_column(s), expr: Some(expr.clone()), secret: carries_secret(s), via: None });
        flags.push((SetKind::String, expr, origin));
    }
    let mut growth_left = strvals::MAX_LIST_GROWTH;
    for kind in SetKind::HELM_ORDER {
        for (_, expr, origin) in flags.iter().filter(|(k, _, _)| *k == kind) {
            let mut plain = map_to_json(&user);
            let mut read_file = |p: &str| io.read(FsPath::new(p));
            let assignments = strvals::apply_flag_within(kind, expr, &mut plain, &mut read_file, &mut growth_left).map_err(crate::values::user::UserValuesError::Flag)?;
            let written: Vec<Path> = assignments.into_iter().map(|a| a.path).collect();
            for p in &written {
                if let Some(old) = get(&user, p) {
                    rec.lost(p.clone(), old.clone(), EventKind::Overridden, Some(origin.clone()));
                }
            }
            user = reattribute(&plain, &user, &written, origin);
        }
    }
    skipped.extend(cx.skipped);
    vals_refs(&user, &Path::root(), skipped);
    Ok(ReleaseValues { chart: spec.chart, user, dir: part.dir.clone() })
}

/// Whether a `set:` entry holds a secret anywhere (a state-file template
/// printed a secret into its value): the flag it becomes is then a secret's.
fn carries_secret(v: &V) -> bool {
    v.origin.is_secret()
        || match &v.kind {
            Kind::Map(m) => m.values().any(carries_secret),
            Kind::List(l) => l.iter().any(carries_secret),
            _ => false,
        }
}

/// The files a release's `values:` / `secrets:` entry names, with helmfile's
/// missing-file rule (pkg/state/storage.go `resolveFile`; the handler is the
/// release's, else the state's `missingFileHandler`, else Error:
/// state.go `getReleaseMissingFileHandler`): Warn, Info and Debug skip a
/// missing file, and releasex says so in a note.
fn release_files(cx: &mut Ctx, part: &Part, spec: &Spec, name: &str, tpe: &str) -> Result<Vec<std::path::PathBuf>, HelmfileError> {
    let files = match state::resolve(cx, &part.dir, name, part) {
        Err(HelmfileError::Read { .. }) => Vec::new(),
        r => r?,
    };
    if !files.is_empty() {
        return Ok(files);
    }
    let handler = if spec.missing_file_handler.is_empty() { scalar(&part.doc, "missingFileHandler") } else { spec.missing_file_handler.clone() };
    let dir = part.dir.to_string_lossy();
    match handler.as_str() {
        "" | "Error" => Err(HelmfileError::State { file: part.file.clone(), message: format!("release {:?}: {tpe} file matching {name:?} does not exist in {dir:?}", spec.name) }),
        "Warn" | "Info" | "Debug" => {
            cx.skipped.push(format!("{}: release {}: skipping missing {tpe} file matching {name:?} (missingFileHandler: {handler})", part.file, spec.name));
            Ok(Vec::new())
        }
        other => Err(HelmfileError::State {
            file: part.file.clone(),
            message: format!("invalid missing file handler {other:?} while processing {name:?}: it must be one of [Error Warn Info Debug]"),
        }),
    }
}

/// `ExecuteTemplates` (pkg/state/state_exec_tmpl.go) and
/// `ReleaseSpec.ExecuteTemplateExpressions` (pkg/state/release.go): the
/// release's name, chart, namespace, version and labels are rendered with
/// the release data until they stop changing (at most 6 rounds, then
/// helmfile's "recursive references can't be resolved"); then, with the
/// final data, each `valuesTemplate` map, the file names of `values:` and
/// `secrets:`, and each `setTemplate` entry's name, value, file and values.
fn render_spec(cx: &mut Ctx, env: &state::Env, part: &Part, spec: Spec) -> Result<Spec, HelmfileError> {
    let mut prev = spec.clone();
    let mut stable = false;
    for _ in 0..6 {
        let data = release_data(env, cx.req, part, &prev);
        let mut next = prev.clone();
        let field = |what: &str, text: &str| -> Result<String, HelmfileError> {
            Ok(render_text(cx, part, &format!("release {:?}: {what}", spec.name), text, None, &data)?.0)
        };
        next.name = field("name", &spec.name)?.trim().to_string();
        next.chart = field("chart", &spec.chart)?.trim().to_string();
        next.namespace = field("namespace", &spec.namespace)?.trim().to_string();
        next.version = field("version", &spec.version)?.trim().to_string();
        for (k, v) in &spec.labels {
            next.labels.insert(k.clone(), field(&format!("labels[{k}]"), v)?);
        }
        if next.name == prev.name && next.chart == prev.chart && next.namespace == prev.namespace && next.version == prev.version && next.labels == prev.labels {
            stable = true;
            break;
        }
        prev = next;
    }
    if !stable {
        return Err(HelmfileError::State { file: part.file.clone(), message: format!("failed executing templates in release {:?}: recursive references can't be resolved", spec.name) });
    }
    let data = release_data(env, cx.req, part, &prev);
    let mut out = prev;
    out.values_template = spec.values_template.iter().map(|t| match &t.kind {
        Kind::Map(_) => render_leaves(cx, part, t, &data, true),
        _ => Ok(t.clone()),
    }).collect::<Result<_, _>>()?;
    let names = |cx: &mut Ctx, list: &[V]| -> Result<Vec<V>, HelmfileError> {
        list.iter().map(|v| match &v.kind {
            Kind::Str(_) => render_leaves(cx, part, v, &data, false),
            _ => Ok(v.clone()),
        }).collect()
    };
    out.values = names(cx, &spec.values)?;
    out.secrets = names(cx, &spec.secrets)?;
    // setTemplate: every string of the entry (name, value, file, values[]) rendered; the text is kept as text.
    out.set_template = spec.set_template.iter().map(|t| render_leaves(cx, part, t, &data, false)).collect::<Result<_, _>>()?;
    Ok(out)
}

/// `v` with every string in it rendered with `data`. `reparse`: the string
/// was written into YAML (`valuesTemplate` maps are marshalled, rendered
/// and read back), so a plain scalar is read again as YAML (a rendered
/// `8080` becomes a number); one yaml.Marshal quotes (text starting with
/// `{`, as an action does) stays a string.
fn render_leaves(cx: &mut Ctx, part: &Part, v: &V, data: &Tv, reparse: bool) -> Result<V, HelmfileError> {
    let kind = match &v.kind {
        Kind::Map(m) => Kind::Map(m.iter().map(|(k, x)| Ok((k.clone(), render_leaves(cx, part, x, data, reparse)?))).collect::<Result<_, HelmfileError>>()?),
        Kind::List(l) => Kind::List(l.iter().map(|x| render_leaves(cx, part, x, data, reparse)).collect::<Result<_, _>>()?),
        Kind::Str(text) if tmpl::has_actions(text) => {
            let (out, via) = render_text(cx, part, "template", text, Some(v), data)?;
            let origin = match &*v.origin {
                Source::Helmfile { layer, file, line, column, expr, secret, .. } => Rc::new(Source::Helmfile {
                    layer: layer.clone(), file: file.clone(), line: *line, column: *column, expr: expr.clone(),
                    secret: *secret || via.as_ref().is_some_and(|o| o.is_secret()), via: via.map(|o| Box::new((*o).clone())),
                }),
                _ => v.origin.clone(),
            };
            if reparse && !text.starts_with('{') && let Some(k) = yaml_scalar(&out) {
                return Ok(V::new(k, origin));
            }
            return Ok(V::new(Kind::Str(out), origin));
        }
        k => k.clone(),
    };
    Ok(V::new(kind, v.origin.clone()))
}

/// A rendered plain scalar read again as YAML (int as float64: Helm reads it from a file).
fn yaml_scalar(text: &str) -> Option<Kind> {
    if text.contains('\n') || text.trim().is_empty() {
        return None;
    }
    let m = crate::values::tree::load_tree(&format!("v: {text}\n"), "rendered", &|_, _| Source::Helm { why: String::new() }).ok()?;
    match m.get("v").map(|v| &v.kind) {
        Some(k @ (Kind::Str(_) | Kind::Bool(_) | Kind::Float(_) | Kind::Int(_) | Kind::Null)) => Some(k.clone()),
        _ => None,
    }
}

/// One string of the release rendered with `data`, its errors naming the
/// string's own position (`at`, else the state file); with the origin of
/// the value when one action printed the whole output.
fn render_text(cx: &Ctx, part: &Part, what: &str, text: &str, at: Option<&V>, data: &Tv) -> Result<(String, Option<Origin>), HelmfileError> {
    if !tmpl::has_actions(text) {
        return Ok((text.to_string(), None));
    }
    let (file, line, column) = match at.map(|v| &*v.origin) {
        Some(Source::Helmfile { file: Some(f), line: Some(l), column: Some(c), .. }) => (f.clone(), *l, *c),
        _ => (part.file.clone(), 1, 1),
    };
    // Padding in front puts the template's positions at the string's own.
    let pad = format!("{}{}", "\n".repeat(line.saturating_sub(1)), " ".repeat(column.saturating_sub(1)));
    let src = format!("{pad}{text}");
    let r = state::render_template(cx, &file, &src, data).map_err(|e| match e {
        tmpl::TmplError::Exec { file, line, column, message, go } => tmpl::TmplError::Exec { file, line, column, message: format!("{what}: {message}"), go },
        e => e,
    })?;
    let out = r.text.get(pad.len()..).unwrap_or("").to_string();
    let actions: Vec<&tmpl::Span> = r.spans.iter().filter(|s| s.out.end > pad.len() && !s.out.is_empty()).collect();
    let via = match actions.as_slice() {
        [one] if one.out.start <= pad.len() => one.action.clone().flatten(),
        _ => None,
    };
    Ok((out, via))
}

/// The data a release's values template is rendered with (helmfile
/// `createReleaseTemplateData`): `.Values` / `.StateValues` the final state
/// values, `.Environment` the state's environment (its `Values` without the
/// CLI overrides), `.Release` the release after inheritance (`Namespace`: the
/// state's `namespace:` when set, else the release's), `.Namespace` the
/// state's `namespace:`.
fn release_data(env: &state::Env, req: &Request, part: &Part, spec: &Spec) -> Tv {
    let mut scratch = Recorder::default();
    let values = Tv::from_map(&env.merged(&mut scratch));
    // OverrideNamespace: helmfile's --namespace, else the state's `namespace:`.
    let state_ns = if req.namespace.is_empty() { scalar(&part.doc, "namespace") } else { req.namespace.clone() };
    let ns = if state_ns.is_empty() { spec.namespace.clone() } else { state_ns.clone() };
    let release = Tv::new(Val::Struct(
        "state.releaseTemplateDataRelease",
        vec![
            ("Name", Tv::str(&spec.name)),
            ("Namespace", Tv::str(&ns)),
            ("Labels", Tv::new(Val::StrMap(spec.labels.clone()))),
            ("Chart", Tv::str(&spec.chart)),
            ("ChartVersion", Tv::str(&spec.version)),
            ("KubeContext", Tv::str(&spec.kube_context)),
        ],
    ));
    Tv::new(Val::Struct(
        "state.releaseTemplateData",
        vec![
            ("Environment", env.template_struct(&req.environment, &env.values)),
            ("Release", release),
            ("Values", values.clone()),
            ("StateValues", Tv::new(Val::Ptr(Box::new(values)))),
            // HelmState.OverrideKubeContext: helmfile's --kube-context.
            ("KubeContext", Tv::str(&req.kube_context)),
            ("Namespace", Tv::str(&state_ns)),
            // HelmState.OverrideChart: set only by helmfile's internal chartify runs.
            ("Chart", Tv::str("")),
        ],
    ))
}

/// helmfile runs vals on release values holding `ref+` (`renderValuesFileToBytesWithData`,
/// `prepareReleaseValuesEntries`): such strings reach Helm resolved. They are
/// shown as written, each with a note.
fn vals_refs(m: &VMap, at: &Path, notes: &mut Vec<String>) {
    for (k, v) in m {
        vals_ref_value(v, &at.key(k), notes);
    }
}

fn vals_ref_value(v: &V, at: &Path, notes: &mut Vec<String>) {
    match &v.kind {
        Kind::Map(m) => vals_refs(m, at, notes),
        Kind::List(l) => l.iter().enumerate().for_each(|(i, x)| vals_ref_value(x, &at.index(i), notes)),
        Kind::Str(s) if s.contains("ref+") => {
            let place = match (source_file(v), source_line(v)) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                _ => String::new(),
            };
            notes.push(format!("{place}{at}: a vals reference (`ref+...`), which helmfile resolves before Helm reads it; releasex shows it as written"));
        }
        _ => {}
    }
}

/// helmfile writes each values entry to a file that Helm reads: every number becomes a float64.
fn to_helm(m: VMap) -> VMap {
    m.into_iter().map(|(k, v)| (k, floats(v))).collect()
}

fn floats(v: V) -> V {
    let kind = match v.kind {
        Kind::Int(i) => Kind::Float(i as f64),
        Kind::Map(m) => Kind::Map(to_helm(m)),
        Kind::List(l) => Kind::List(l.into_iter().map(floats).collect()),
        k => k,
    };
    V::new(kind, v.origin)
}

/// helmfile's `escape` for `--set` names and values.
fn escape(s: &str) -> String {
    s.replace('{', "\\{").replace('}', "\\}").replace(',', "\\,")
}

fn source_file(v: &V) -> Option<String> {
    match &*v.origin {
        Source::Helmfile { file, .. } => file.clone(),
        _ => None,
    }
}

fn source_line(v: &V) -> Option<usize> {
    match &*v.origin {
        Source::Helmfile { line, .. } => *line,
        _ => None,
    }
}

fn source_column(v: &V) -> Option<usize> {
    match &*v.origin {
        Source::Helmfile { column, .. } => *column,
        _ => None,
    }
}

/// Whether helmfile would treat `chart` as a local chart directory.
pub fn local_chart(dir: &FsPath, chart: &str) -> Option<std::path::PathBuf> {
    let p = dir.join(chart);
    (chart.starts_with("./") || chart.starts_with("../") || chart.starts_with('/')).then_some(p).filter(|p| p.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::helmfile::state::tests::Files;

    /// A templated state file (its release templates' actions escaped).
    const FILE: &str = "/h/helmfile.yaml.gotmpl";
    /// A plain one, not rendered (v1 mode): release templates' actions bare.
    const PLAIN: &str = "/h/helmfile.yaml";

    fn request(file: &str) -> Request {
        Request { file: file.into(), environment: "default".into(), ..Request::default() }
    }

    /// The helmfile layer of `release` in the one state file `file`, as JSON.
    fn release_json(file: &'static str, text: &'static str, release: &str) -> serde_json::Value {
        let (io, req) = (Files(vec![(file, text)]), request(file));
        let mut rec = Recorder::default();
        let loaded = state::load(&req, &io, &mut rec).expect("loads");
        let rv = release_values(&req, &io, &loaded, release, &mut rec, &mut Vec::new()).expect("found");
        serde_json::Value::Object(map_to_json(&rv.user))
    }

    #[test]
    fn helm_defaults_kube_context_of_another_part_is_the_releases_kube_context() {
        let text = "helmDefaults:\n  kubeContext: first\n---\nhelmDefaults:\n  kubeContext: second\n---\nreleases:\n- name: r\n  valuesTemplate:\n  - ctx: '{{`{{ .Release.KubeContext }}`}}'\n---\nhelmDefaults:\n  timeout: 3\n";
        assert_eq!(release_json(FILE, text, "r"), serde_json::json!({"ctx": "second"}));
    }

    #[test]
    fn a_release_inherits_a_template_of_an_earlier_part() {
        let text = "templates:\n  t:\n    values:\n    - from: template\n---\nreleases:\n- name: r\n  inherit:\n  - template: t\n";
        assert_eq!(release_json(FILE, text, "r"), serde_json::json!({"from": "template"}));
    }

    #[test]
    fn a_release_named_by_a_release_template_is_found_by_its_rendered_name() {
        let text = "templates:\n  common: &common\n    name: 'web-{{`{{ .Release.Labels.tier }}`}}'\nreleases:\n- labels:\n    tier: front\n  <<: *common\n  values:\n  - role: front\n- labels:\n    tier: back\n  <<: *common\n  values:\n  - role: back\n";
        let (io, req) = (Files(vec![(FILE, text)]), request(FILE));
        let loaded = state::load(&req, &io, &mut Recorder::default()).expect("loads");
        assert!(defines(&req, &io, &loaded, "web-back") && !defines(&req, &io, &loaded, "web-side"));
        assert_eq!(release_json(FILE, text, "web-back"), serde_json::json!({"role": "back"}));
    }

    const INHERITING: &str = "templates:
  base:
    chart: repo/app
    namespace: tmpl-ns
    labels:
      tier: template
      team: template
    valuesTemplate:
    - ns: '{{ .Release.Namespace }}'
      tier: '{{ .Release.Labels.tier }}'
      team: '{{ .Release.Labels.team }}'
  later:
    namespace: later-ns
releases:
- name: own
  inherit:
  - template: base
  namespace: own-ns
  labels:
    tier: own
- name: bare
  inherit:
  - template: base
- name: both
  inherit:
  - template: base
  - template: later
";

    // Found by tests/differential/helmfile_generated.rs against helmfile 0.166.
    #[test]
    fn a_releases_own_namespace_and_labels_beat_the_inherited_templates() {
        assert_eq!(release_json(PLAIN, INHERITING, "own"), serde_json::json!({"ns": "own-ns", "tier": "own", "team": "template"}));
        assert_eq!(release_json(PLAIN, INHERITING, "bare"), serde_json::json!({"ns": "tmpl-ns", "tier": "template", "team": "template"}));
    }

    #[test]
    fn a_null_item_of_a_set_values_list_is_an_empty_string_as_helmfile_passes_it() {
        const STATE: &str = "releases:\n- name: r\n  chart: repo/app\n  set:\n  - name: list\n    values: [null, x, null]\n";
        assert_eq!(release_json(PLAIN, STATE, "r"), serde_json::json!({"list": ["", "x", ""]}));
    }

    #[test]
    fn a_later_inherited_template_beats_an_earlier_one() {
        assert_eq!(release_json(PLAIN, INHERITING, "both")["ns"], "later-ns");
    }
}
