//! `values explain --werf`: the values werf (through its engine nelm) gives
//! a chart, with the source of every key. werf adds value sources to Helm's
//! (secret values files, `$WERF_*` variables, its own auxiliary values) and
//! merges them in nelm's order, which is not the order werf documents; we
//! follow nelm's code (v1.30, `MergeInternal`) and note each key where the
//! documented order would have picked another winner.
//!
//! The environment comes in as a map (the CLI reads it); files are read
//! through the caller's `read_file`.

pub mod deps;
pub mod export;
pub mod images;
pub mod secret;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::chart::Chart;
use crate::explain::{ExplainError, Explanation, Options, chart_spec, explain_spec_with};
use crate::values::dependencies::ChartSpec;
use crate::values::coalesce::coalesce_tables;
use crate::explain::entries::Lost;
use crate::keypath::Path;
use crate::values::source::Voice;
use crate::values::tree::{EventKind, Kind, Origin, Recorder, Source, V, VMap, map_from_json};
use crate::values::user::{UserValuesError, ValueFlags, ValuesFile, merge_maps, user_values};
use crate::yaml::YamlError;

use secret::{Key, SecretError};

/// What stands in for a secret value in the output without `--show-secrets`.
pub const MASK: &str = "<secret>";

#[derive(Debug, thiserror::Error)]
pub enum WerfError {
    #[error("werf.yaml: {0}")]
    WerfYaml(String),
    #[error("${var}: cannot read {file}: {error}")]
    EnvFile { var: String, file: String, error: String },
    #[error("{file}: cannot load secret values: {}", .source.helm_error())]
    SecretFile { file: String, source: YamlError },
    #[error("{file}: {path}: cannot decrypt: {source}")]
    Decrypt { file: String, path: String, source: SecretError },
    #[error("{file}: {path}: unable to decode non string value: expected encoded value as hex string")]
    NotEncrypted { file: String, path: String },
    #[error("secret values need a key to decrypt; looked in {} (none found; --ignore-secret-key explains with the encrypted strings)", .0.join(", "))]
    NoKey(Vec<String>),
    #[error("the secret key from {place}: {source}")]
    BadKey { place: String, source: SecretError },
    #[error("Chart.yaml: {0}")]
    ChartYaml(String),
    #[error("--werf-images {file}: {source}")]
    Images { file: String, source: images::ImagesError },
    #[error(transparent)]
    User(#[from] UserValuesError),
    #[error(transparent)]
    Explain(#[from] ExplainError),
}

/// werf's default release namespace: `<project>[-<env>]`.
pub fn default_namespace(project: &str, env_name: &str) -> String {
    if env_name.is_empty() { project.to_string() } else { format!("{project}-{env_name}") }
}

/// How secret values are handled.
#[derive(Debug, Clone)]
pub enum Secrets {
    /// Decrypt with this key.
    Key(Key),
    /// `--ignore-secret-key`: keep the encrypted strings, as werf does.
    Ignore,
    /// No key was found in these places; an error if a secret file has values.
    Missing(Vec<String>),
}

/// Everything `values explain --werf` takes besides the chart.
#[derive(Debug, Clone)]
pub struct WerfInput {
    /// The `WERF_*` environment variables (others are ignored).
    pub env: BTreeMap<String, String>,
    /// The command line's value flags (`--values`, `--set*`), files already read.
    pub flags: ValueFlags,
    /// `--secret-values` files, read.
    pub secret_values: Vec<ValuesFile>,
    /// The chart's `secret-values.yaml`, read (`None` when absent).
    pub chart_secret_values: Option<ValuesFile>,
    pub no_default_values: bool,
    pub no_default_secret_values: bool,
    pub secrets: Secrets,
    pub show_secrets: bool,
    /// werf's auxiliary values.
    pub env_name: String,
    /// The werf project's name (werf.yaml `project`).
    pub project: String,
    pub namespace: String,
    /// `--werf-images`: the build report's name and its images.
    pub images: Option<(String, Vec<images::Image>)>,
}

/// The kinds of `$WERF_*` value variables, longest prefix first (a
/// `WERF_SET_STRING_X` is not a `WERF_SET_` expression).
/// werf: `PredefinedValuesByEnvNamePrefix`; `WERF_SET_DOCKER_CONFIG_JSON_VALUE` is werf's own switch, not a value.
const ENV_KINDS: [(&str, &str); 7] = [
    ("WERF_SECRET_VALUES_", "--secret-values"),
    ("WERF_VALUES_", "--values"),
    ("WERF_SET_JSON_", "--set-json"),
    ("WERF_SET_STRING_", "--set-string"),
    ("WERF_SET_FILE_", "--set-file"),
    ("WERF_SET_LITERAL_", "--set-literal"),
    ("WERF_SET_", "--set"),
];

/// The value variables by flag, each list sorted by variable name (the map's order).
pub fn env_sources(env: &BTreeMap<String, String>) -> BTreeMap<&'static str, Vec<(String, String)>> {
    let mut out: BTreeMap<&'static str, Vec<(String, String)>> = BTreeMap::new();
    for (name, value) in env {
        if name == "WERF_SET_DOCKER_CONFIG_JSON_VALUE" {
            continue;
        }
        if let Some((_, flag)) = ENV_KINDS.iter().find(|(prefix, _)| name.starts_with(prefix) && name.len() > prefix.len()) {
            out.entry(flag).or_default().push((name.clone(), value.clone()));
        }
    }
    out
}

/// The chart directory of a werf project: `deploy.helmChartDir` of the
/// first werf.yaml document, else `.helm`. Also the project name.
pub fn project_layout(werf_yaml: Option<&str>) -> Result<(String, Option<String>), WerfError> {
    let Some(text) = werf_yaml else { return Ok((".helm".into(), None)) };
    // werf.yaml's first document is the meta section; the others are images.
    let first = text.split("\n---").next().unwrap_or("");
    let doc: serde_json::Value = if first.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_saphyr::from_str(first).map_err(|e| WerfError::WerfYaml(e.to_string()))?
    };
    let dir = doc.pointer("/deploy/helmChartDir").and_then(|v| v.as_str()).unwrap_or(".helm").to_string();
    let project = doc.get("project").and_then(|v| v.as_str()).map(str::to_string);
    Ok((dir, project))
}

/// Explains the values werf gives `chart`.
pub fn explain_werf(
    chart: &Chart,
    input: &WerfInput,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    options: Options,
) -> Result<Explanation, WerfError> {
    let mut rec = Recorder::default();
    for c in chart.walk() {
        rec.warnings.extend(c.warnings.iter().cloned());
    }
    chart.check_dependencies().map_err(|e| WerfError::Explain(ExplainError::MissingDependencies(e)))?;
    let env = env_sources(&input.env);

    // User input: `$WERF_VALUES_*` files then `--values`, then each `--set*`
    // kind with its variables first, in Helm's kind order (nelm merges them
    // with Helm's `MergeValues`).
    let mut flags = input.flags.clone();
    let mut env_files = Vec::new();
    for (var, file) in env.get("--values").into_iter().flatten() {
        let text = read_file(file).map_err(|error| WerfError::EnvFile { var: var.clone(), file: file.clone(), error })?;
        env_files.push((var.clone(), file.clone()));
        flags.files.insert(env_files.len() - 1, ValuesFile { name: file.clone(), text });
    }
    let mut env_exprs: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (flag, list) in [
        ("--set-json", &mut flags.set_json),
        ("--set", &mut flags.set),
        ("--set-string", &mut flags.set_string),
        ("--set-file", &mut flags.set_file),
        ("--set-literal", &mut flags.set_literal),
    ] {
        let vars = env.get(flag).cloned().unwrap_or_default();
        let exprs: Vec<String> = vars.iter().map(|(_, e)| e.clone()).collect();
        list.splice(0..0, exprs);
        env_exprs.insert(flag, vars.into_iter().map(|(v, _)| v).collect());
    }
    let mut user = user_values(&flags, read_file, &mut rec)?;
    let mut relabel = |s: &Source| -> Option<Source> {
        match s {
            Source::ValuesFile { file, line, column } => {
                // Env files come first; a file named both ways is attributed to the variable.
                let (var, _) = env_files.iter().find(|(_, f)| f.as_str() == &**file)?;
                Some(Source::WerfEnv { var: var.clone(), flag: "--values".into(), expr: None, file: Some(file.to_string()), line: *line, column: *column })
            }
            Source::SetFlag { flag, index, expr } => {
                let vars = env_exprs.get(flag.as_str())?;
                Some(match vars.get(*index) {
                    Some(var) => Source::WerfEnv { var: var.clone(), flag: flag.clone(), expr: Some(expr.clone()), file: None, line: None, column: None },
                    // The command line's own flags keep their index among themselves.
                    None => Source::SetFlag { flag: flag.clone(), index: index - vars.len(), expr: expr.clone() },
                })
            }
            _ => None,
        }
    };
    relabel_map(&mut user, &mut relabel);
    for e in rec.events.iter_mut() {
        relabel_v(&mut e.value, &mut relabel);
        if let Some(by) = &e.by
            && let Some(s) = relabel(by)
        {
            e.by = Some(Rc::new(s));
        }
    }

    // Secret values: the chart's secret-values.yaml, then `$WERF_SECRET_VALUES_*`, then `--secret-values`; later files win.
    let mut secret_files: Vec<(ValuesFile, bool, Option<String>)> = Vec::new();
    if !input.no_default_secret_values && let Some(f) = &input.chart_secret_values {
        secret_files.push((f.clone(), true, None));
    }
    for (var, file) in env.get("--secret-values").into_iter().flatten() {
        let text = read_file(file).map_err(|error| WerfError::EnvFile { var: var.clone(), file: file.clone(), error })?;
        secret_files.push((ValuesFile { name: file.clone(), text }, false, Some(var.clone())));
    }
    secret_files.extend(input.secret_values.iter().map(|f| (f.clone(), false, None)));
    let secrets = load_secrets(&secret_files, &input.secrets, &mut rec)?;

    // nelm's makeValues layer of the top chart (MergeInternal): auxiliary
    // values, the secrets coalesced under them; user input goes under both.
    let mut overlay = auxiliary(input)?;
    coalesce_tables(&mut overlay, secrets, "", &Path::root(), false, &mut rec);

    let mut spec = chart_spec(chart, Vec::new())?;
    if input.no_default_values {
        spec.values = VMap::default();
    }
    spec.overlay = Some(overlay);
    werf_spec(chart, &mut spec, true, input, &mut rec)?;
    let mut explanation = explain_spec_with(chart, spec, user, rec, options, &deps::process)?;
    drop_self_overrides(&mut explanation);
    order_notes(&mut explanation);
    if !input.show_secrets {
        mask(&mut explanation);
    }
    Ok(explanation)
}

/// Decrypts and merges secret values files in order (later files win).
fn load_secrets(files: &[(ValuesFile, bool, Option<String>)], secrets: &Secrets, rec: &mut Recorder) -> Result<VMap, WerfError> {
    let mut out = VMap::default();
    for (f, chart_default, env) in files {
        let mut layer = crate::values::tree::load_tree(&f.text, &f.name, &|_, pos| Source::WerfSecretValues {
            file: f.name.clone(),
            line: Some(pos.line),
            column: Some(pos.column),
            chart_default: *chart_default,
            env: env.clone(),
        })
        .map_err(|source| WerfError::SecretFile { file: f.name.clone(), source })?;
        decrypt_tree(&mut layer, &f.name, secrets)?;
        merge_maps(&mut out, layer, &Path::root(), rec);
    }
    Ok(out)
}

/// What werf adds to each chart of the tree: the `export-values` of its
/// Chart.yaml entries and, for subcharts, their own `secret-values.yaml`
/// as their makeValues layer (nelm's loader decrypts it for every chart;
/// subcharts get no `--secret-values` files and no auxiliary values).
fn werf_spec(c: &Chart, spec: &mut ChartSpec, top: bool, input: &WerfInput, rec: &mut Recorder) -> Result<(), WerfError> {
    let file = |name: &str| c.werf_files.iter().find(|f| f.name == name);
    // requirements.yaml, when the loader read one and it lists dependencies, replaced Chart.yaml's list.
    let parsed = |f: &crate::chart::ChartFile| export::parse_chart_yaml(&f.data).map_err(|e| WerfError::ChartYaml(format!("{}: {e}", f.name)));
    let listed = match file("requirements.yaml") {
        Some(f) if f.data.lines().any(|l| l.starts_with("dependencies:")) => Some(parsed(f)?),
        _ => file("Chart.yaml").map(parsed).transpose()?,
    };
    if let (Some(reqs), Some((entries, warnings))) = (spec.requirements.as_mut(), listed) {
        rec.warnings.extend(warnings);
        for (i, r) in reqs.iter_mut().enumerate() {
            let same = |e: &&export::DependencyExports| e.name == r.name && e.alias == r.alias.clone().filter(|a| !a.is_empty());
            let found = entries.get(i).filter(same).or_else(|| entries.iter().find(same));
            r.export_values = found.map(|e| e.exports.clone()).unwrap_or_default();
        }
    }
    if !top && !input.no_default_secret_values && let Some(f) = file("secret-values.yaml") {
        let name = match c.values_file.strip_suffix("values.yaml") {
            Some(dir) => format!("{dir}secret-values.yaml"),
            None => format!("{}/secret-values.yaml", c.path),
        };
        let secrets = load_secrets(&[(ValuesFile { name, text: f.data.clone() }, true, None)], &input.secrets, rec)?;
        if !secrets.is_empty() {
            spec.overlay = Some(secrets);
        }
    }
    for (sub, sub_spec) in c.dependencies.iter().zip(spec.subcharts.iter_mut()) {
        werf_spec(sub, sub_spec, false, input, rec)?;
    }
    Ok(())
}

/// Dependency processing copies values into parents' values (nelm bakes
/// computed values back into charts); the final coalescing then reports a
/// value as overriding its own copy. Those are not overrides.
fn drop_self_overrides(ex: &mut Explanation) {
    for e in ex.entries.iter_mut() {
        let (Some(value), Some(source)) = (&e.value, &e.source) else { continue };
        e.overridden.retain(|l| !(l.source == *source && l.value == *value));
    }
}

/// werf's auxiliary ("service") values, as werf's `GetServiceValues` sets
/// them (pkg/deploy/helm/chart_extender/helpers/service_values.go):
/// `werf.{name,namespace,env}` (`name` is the project; `env` only when
/// set), the same under `global.werf.`, and `global.env`; with
/// `--werf-images`, `werf.repo`, `werf.image.<n>`, `werf.tag.<n>`,
/// `global.werf.repo` and `global.werf.images.<n>`. werf's `version` and
/// `commit` values are not modelled.
fn auxiliary(input: &WerfInput) -> Result<VMap, WerfError> {
    let origin = |what: &str| Rc::new(Source::WerfAuxiliary { what: what.to_string() });
    let text = |s: &str, what: &str| V::new(Kind::Str(s.to_string()), origin(what));
    let mut werf = VMap::default();
    werf.insert("name".into(), text(&input.project, "project name"));
    werf.insert("namespace".into(), text(&input.namespace, "release namespace"));
    if !input.env_name.is_empty() {
        werf.insert("env".into(), text(&input.env_name, "--env"));
    }
    let mut global_werf = werf.clone();
    let mut legacy = VMap::default();
    if let Some((file, list)) = &input.images {
        let what = format!("--werf-images {file}");
        if let Some(repo) = images::common_repo(list) {
            werf.insert("repo".into(), text(&repo, &what));
            global_werf.insert("repo".into(), text(&repo, &what));
        }
        let (mut image, mut tag, mut details) = (VMap::default(), VMap::default(), VMap::default());
        for i in list {
            image.insert(i.werf_name.clone(), text(&i.name, &what));
            tag.insert(i.werf_name.clone(), text(&i.tag, &what));
            let map = images::image_values(i).map_err(|source| WerfError::Images { file: file.clone(), source })?;
            details.insert(i.werf_name.clone(), V::new(Kind::Map(map_from_json(&map, false, &origin(&what))), origin(&what)));
        }
        legacy.insert("image".into(), V::new(Kind::Map(image), origin(&what)));
        legacy.insert("tag".into(), V::new(Kind::Map(tag), origin(&what)));
        global_werf.insert("images".into(), V::new(Kind::Map(details), origin(&what)));
    }
    werf.extend(legacy);
    let mut global = VMap::default();
    if !input.env_name.is_empty() {
        global.insert("env".into(), text(&input.env_name, "--env"));
    }
    global.insert("werf".into(), V::new(Kind::Map(global_werf), origin("auxiliary values")));
    let mut out = VMap::default();
    out.insert("werf".into(), V::new(Kind::Map(werf), origin("auxiliary values")));
    out.insert("global".into(), V::new(Kind::Map(global), origin("auxiliary values")));
    Ok(out)
}

/// Decrypts every string of a secret values file in place (nulls stay; other scalars are werf's error).
fn decrypt_tree(map: &mut VMap, file: &str, secrets: &Secrets) -> Result<(), WerfError> {
    fn walk(v: &mut V, path: &Path, file: &str, secrets: &Secrets) -> Result<(), WerfError> {
        match &mut v.kind {
            Kind::Map(m) => m.iter_mut().try_for_each(|(k, x)| walk(x, &path.key(k), file, secrets)),
            Kind::List(l) => l.iter_mut().enumerate().try_for_each(|(i, x)| walk(x, &path.index(i), file, secrets)),
            Kind::Null => Ok(()),
            Kind::Str(s) => match secrets {
                Secrets::Key(key) => {
                    *s = secret::decrypt(key, s).map_err(|source| WerfError::Decrypt { file: file.to_string(), path: path.to_string(), source })?;
                    Ok(())
                }
                Secrets::Ignore => Ok(()),
                Secrets::Missing(places) => Err(WerfError::NoKey(places.clone())),
            },
            Kind::Bool(_) | Kind::Int(_) | Kind::Float(_) => match secrets {
                Secrets::Ignore => Ok(()),
                _ => Err(WerfError::NotEncrypted { file: file.to_string(), path: path.to_string() }),
            },
        }
    }
    map.iter_mut().try_for_each(|(k, v)| walk(v, &Path::root().key(k), file, secrets))
}

fn relabel_map(map: &mut VMap, f: &mut dyn FnMut(&Source) -> Option<Source>) {
    for v in map.values_mut() {
        relabel_v(v, f);
    }
}

fn relabel_v(v: &mut V, f: &mut dyn FnMut(&Source) -> Option<Source>) {
    if let Some(s) = f(&v.origin) {
        v.origin = Rc::new(s);
    }
    match &mut v.kind {
        Kind::Map(m) => relabel_map(m, f),
        Kind::List(l) => l.iter_mut().for_each(|x| relabel_v(x, f)),
        _ => {}
    }
}

/// A source's place in werf's documented order (lowest first), for the
/// sources it documents; werf's docs say nothing of `--set-json` and `--set-literal`.
fn documented_rank(s: &Source) -> Option<u32> {
    let set_rank = |flag: &str, env: bool| {
        let base = match flag {
            "--set-file" => 8,
            "--set-string" => 10,
            "--set" => 12,
            _ => return None,
        };
        Some(base + u32::from(!env))
    };
    match s {
        Source::ChartDefault { .. } => Some(0),
        Source::WerfSecretValues { chart_default: true, .. } => Some(1),
        Source::ParentValues { .. } => Some(2),
        Source::WerfEnv { flag, file: Some(_), .. } if flag == "--values" => Some(4),
        Source::ValuesFile { .. } => Some(5),
        Source::WerfSecretValues { env: Some(_), .. } => Some(6),
        Source::WerfSecretValues { .. } => Some(7),
        Source::WerfEnv { flag, .. } => set_rank(flag, true),
        Source::SetFlag { flag, .. } => set_rank(flag, false),
        Source::WerfAuxiliary { .. } => Some(14),
        Source::ExportValues { .. } => Some(15),
        Source::ImportValues { .. } => Some(16),
        _ => None,
    }
}

/// For each key where nelm's order picked a winner that werf's documented
/// order would not have: a note on that key naming both.
fn order_notes(ex: &mut Explanation) {
    for e in ex.entries.iter_mut() {
        let mut notes = Vec::new();
        for Lost { event, source, by, .. } in &e.overridden {
            let (EventKind::Overridden, Some(by)) = (event, by) else { continue };
            if let (Some(lost), Some(won)) = (documented_rank(source), documented_rank(by))
                && lost > won
            {
                notes.push(format!(
                    "werf's documentation ranks {} above {}; nelm's code (followed here) lets the latter win",
                    source.phrase(Voice::Werf),
                    by.phrase(Voice::Werf)
                ));
            }
        }
        notes.dedup();
        e.notes.extend(notes);
    }
}

fn is_secret(o: &Origin) -> bool {
    o.is_secret()
}

/// Replaces every value from a secret file by [`MASK`] (keys stay visible).
fn mask(ex: &mut Explanation) {
    fn mask_v(v: &mut V) {
        match &mut v.kind {
            Kind::Map(m) => m.values_mut().for_each(mask_v),
            Kind::List(l) => l.iter_mut().for_each(mask_v),
            Kind::Null => {}
            k if is_secret(&v.origin) => *k = Kind::Str(MASK.into()),
            _ => {}
        }
    }
    ex.values.values_mut().for_each(mask_v);
    let hide = |value: &mut serde_json::Value| {
        if !value.is_null() {
            *value = serde_json::Value::String(MASK.into());
        }
    };
    for e in ex.entries.iter_mut() {
        if let (Some(v), Some(s)) = (&mut e.value, &e.source)
            && is_secret(s)
        {
            hide(v);
        }
        for l in e.overridden.iter_mut().filter(|l| is_secret(&l.source)) {
            hide(&mut l.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_variables_are_sorted_and_classified_by_longest_prefix() {
        let env: BTreeMap<String, String> = [
            ("WERF_SET_B", "b=1"),
            ("WERF_SET_A", "a=1"),
            ("WERF_SET_STRING_X", "x=1"),
            ("WERF_SET_DOCKER_CONFIG_JSON_VALUE", "1"),
            ("WERF_SECRET_VALUES_1", "s.yaml"),
            ("WERF_VALUES_1", "v.yaml"),
            ("WERF_SECRET_KEY", "k"),
            ("WERF_SET_", "ignored: no name"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let got = env_sources(&env);
        let names = |flag: &str| got.get(flag).map(|l| l.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>()).unwrap_or_default();
        assert_eq!(names("--set"), ["WERF_SET_A", "WERF_SET_B"]);
        assert_eq!(names("--set-string"), ["WERF_SET_STRING_X"]);
        assert_eq!(names("--secret-values"), ["WERF_SECRET_VALUES_1"]);
        assert_eq!(names("--values"), ["WERF_VALUES_1"]);
        assert_eq!(got.values().map(Vec::len).sum::<usize>(), 5);
    }

    #[test]
    fn chart_dir_comes_from_werf_yaml() {
        assert_eq!(project_layout(None).unwrap(), (".helm".into(), None));
        let text = "project: app\nconfigVersion: 1\ndeploy:\n  helmChartDir: deploy/chart\n---\nimage: x\n";
        assert_eq!(project_layout(Some(text)).unwrap(), ("deploy/chart".into(), Some("app".into())));
        assert!(project_layout(Some("project: [")).is_err());
    }

    #[test]
    fn documented_order_differences_are_the_two_the_research_names() {
        let chart_secret = Source::WerfSecretValues { file: "s".into(), line: None, column: None, chart_default: true, env: None };
        let cli_secret = Source::WerfSecretValues { file: "s".into(), line: None, column: None, chart_default: false, env: None };
        let values = Source::ValuesFile { file: "v".into(), line: None, column: None };
        let set = Source::SetFlag { flag: "--set".into(), index: 0, expr: "a=1".into() };
        let set_string = Source::SetFlag { flag: "--set-string".into(), index: 0, expr: "a=1".into() };
        let r = |s: &Source| documented_rank(s).unwrap();
        // Code: secrets above all user input; docs: chart secrets below --values, --set above --secret-values.
        assert!(r(&values) > r(&chart_secret));
        assert!(r(&set) > r(&cli_secret));
        // Code: --set-string above --set; docs: the reverse.
        assert!(r(&set) > r(&set_string));
    }
}
