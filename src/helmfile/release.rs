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
    /// `labels:` (mergo without override: a template's label beats the release's).
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

/// mergo `Merge(&dst, src, WithAppendSlice)` without override: lists append,
/// a scalar field keeps the first non-empty value.
fn absorb(dst: &mut Spec, src: Spec) {
    if dst.name.is_empty() {
        dst.name = src.name;
    }
    if dst.chart.is_empty() {
        dst.chart = src.chart;
    }
    if dst.namespace.is_empty() {
        dst.namespace = src.namespace;
    }
    if dst.version.is_empty() {
        dst.version = src.version;
    }
    for (k, v) in src.labels {
        dst.labels.entry(k).or_insert(v);
    }
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
pub fn defines(loaded: &state::Loaded, name: &str) -> bool {
    loaded.parts.iter().any(|(part, _)| list(&part.doc, "releases").iter().any(|r| r.as_map().is_some_and(|m| scalar(m, "name") == name)))
}

/// Finds `name` in the last part that defines it and builds its user values.
pub fn release_values(req: &Request, io: &dyn Io, loaded: &state::Loaded, name: &str, rec: &mut Recorder, skipped: &mut Vec<String>) -> Result<ReleaseValues, HelmfileError> {
    let mut cx = Ctx { io, req, skipped: Vec::new() };
    let found = loaded.parts.iter().rev().find_map(|(part, _)| {
        list(&part.doc, "releases").into_iter().find(|r| r.as_map().is_some_and(|m| scalar(m, "name") == name)).map(|r| (part, r))
    });
    let Some((part, r)) = found else { return Err(HelmfileError::NoRelease(name.into(), String::new())) };
    let default_inherit: Vec<String> = match part.doc.get("defaultInherit").map(|v| &v.kind) {
        Some(Kind::Str(s)) => vec![s.clone()],
        Some(Kind::List(l)) => l.iter().filter_map(|x| text_of(&x.kind)).collect(),
        _ => Vec::new(),
    };
    let r = r.as_map().cloned().unwrap_or_default();
    let spec = inherited(part, &r, &default_inherit, &[])?;
    let mut entries: Vec<V> = Vec::new();
    // valuesTemplate entries come first (rendered, then prepended to values).
    for t in &spec.values_template {
        if let Some(line) = templated_entry(t) {
            let where_ = source_file(t).unwrap_or_else(|| part.file.clone());
            if !req.skip_templated {
                return Err(HelmfileError::Templated { file: where_, line, action: "valuesTemplate".into() });
            }
            cx.skipped.push(format!("{where_}:{line}: valuesTemplate entry skipped (--skip-templated)"));
            continue;
        }
        entries.push(t.clone());
    }
    entries.extend(spec.values.iter().cloned());
    // One Helm `--values` per entry, then the decrypted secrets; Helm merges them in order.
    let mut user = VMap::default();
    let root = Path::root();
    let data = release_data(&loaded.env, &req.environment, part, &spec);
    for e in &entries {
        let layer = match &e.kind {
            Kind::Str(f) => {
                for p in state::resolve(&cx, &part.dir, f, part)? {
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
        for p in state::resolve(&cx, &part.dir, f, part)? {
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
        let origin = |expr: &str| Rc::new(Source::Helmfile { layer: "release-set".into(), file: source_file(s), line: source_line(s), column: source_column(s), expr: Some(expr.into()), secret: false, via: None });
        if let Some(v) = m.get("value").and_then(|v| text_of(&v.kind)).filter(|v| !v.is_empty()) {
            let expr = format!("{key}={}", escape(&v));
            flags.push((SetKind::Set, expr.clone(), origin(&expr)));
        } else if let Some(f) = m.get("file").and_then(|v| text_of(&v.kind)).filter(|v| !v.is_empty()) {
            let path = part.dir.join(&f).to_string_lossy().to_string();
            let expr = format!("{key}={path}");
            flags.push((SetKind::File, expr.clone(), origin(&expr)));
        } else if let Some(Kind::List(l)) = m.get("values").map(|v| &v.kind) {
            let items: Vec<String> = l.iter().filter_map(|x| text_of(&x.kind)).map(|x| escape(&x)).collect();
            let expr = format!("{key}={{{}}}", items.join(","));
            flags.push((SetKind::Set, expr.clone(), origin(&expr)));
        }
    }
    for s in &spec.set_string {
        let Some(m) = s.as_map() else { continue };
        let Some(v) = m.get("value").and_then(|v| text_of(&v.kind)) else { continue };
        let expr = format!("{}={}", escape(&scalar(m, "name")), escape(&v));
        let origin = Rc::new(Source::Helmfile { layer: "release-set-string".into(), file: source_file(s), line: source_line(s), column: source_column(s), expr: Some(expr.clone()), secret: false, via: None });
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

/// The data a release's values template is rendered with (helmfile
/// `createReleaseTemplateData`): `.Values` / `.StateValues` the final state
/// values, `.Environment` the state's environment (its `Values` without the
/// CLI overrides), `.Release` the release after inheritance (`Namespace`: the
/// state's `namespace:` when set, else the release's), `.Namespace` the
/// state's `namespace:`.
fn release_data(env: &state::Env, env_name: &str, part: &Part, spec: &Spec) -> Tv {
    let mut scratch = Recorder::default();
    let values = Tv::from_map(&env.merged(&mut scratch));
    let state_ns = scalar(&part.doc, "namespace");
    let ns = if state_ns.is_empty() { spec.namespace.clone() } else { state_ns.clone() };
    let release = Tv::new(Val::Struct(
        "state.releaseTemplateDataRelease",
        vec![
            ("Name", Tv::str(&spec.name)),
            ("Namespace", Tv::str(&ns)),
            ("Labels", Tv::new(Val::StrMap(spec.labels.clone()))),
            ("Chart", Tv::str(&spec.chart)),
            ("ChartVersion", Tv::str(&spec.version)),
            ("KubeContext", Tv::str(tmpl::UNMODELLED)),
        ],
    ));
    Tv::new(Val::Struct(
        "state.releaseTemplateData",
        vec![
            ("Environment", env.template_struct(env_name, &env.values)),
            ("Release", release),
            ("Values", values.clone()),
            ("StateValues", Tv::new(Val::Ptr(Box::new(values)))),
            ("KubeContext", Tv::str(tmpl::UNMODELLED)),
            ("Namespace", Tv::str(&state_ns)),
            ("Chart", Tv::str(tmpl::UNMODELLED)),
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

fn templated_entry(v: &V) -> Option<usize> {
    let text = serde_json::to_string(&v.to_json()).unwrap_or_default();
    text.contains("{{").then(|| source_line(v).unwrap_or(0))
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
