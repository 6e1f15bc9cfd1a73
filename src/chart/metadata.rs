//! Chart.yaml (and requirements.yaml, Chart.lock, requirements.lock) decoded
//! the way Helm decodes them, then `Metadata.Validate`.
//!
//! helm: pkg/chart/v2/metadata.go, dependency.go, errors.go; the decoding is
//! sigs.k8s.io/yaml `Unmarshal` into the Go struct: go-yaml v2 builds a
//! tree, scalars meant for a `string` field become strings (`1.10` → `"1.1"`
//! through float32, `yes` → `"true"`), then encoding/json fills the struct:
//! keys match field names exactly or case-insensitively, `null` leaves a
//! string alone and clears a list, decoding into an existing value merges
//! (requirements.yaml is decoded into the metadata Chart.yaml filled), and
//! a type mismatch is reported after the rest has been decoded.

use super::yaml::{Node, Yaml};
use crate::go::fmt::{go_float32, go_v};
use crate::go::quote::{is_print, quote as go_quote};
use serde_json::Value;
use std::collections::BTreeMap;

/// The contents of Chart.yaml (plus requirements.yaml's `dependencies` for
/// charts Helm loads with its v2 loader), after Helm's validation and its
/// sanitising of strings (spaces normalised, non-printable characters
/// removed). An empty string means the field is unset, as in Go.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// `v1`, `v2` or `v3`; an unset apiVersion reads as `v1` (`v3` for a
    /// subchart of a v3 chart), as Helm's loaders default it.
    pub api_version: String,
    pub name: String,
    pub version: String,
    pub app_version: String,
    pub kube_version: String,
    pub description: String,
    /// `type`: "", `application` or `library`.
    pub chart_type: String,
    pub home: String,
    pub icon: String,
    pub sources: Vec<String>,
    pub keywords: Vec<String>,
    pub maintainers: Vec<Maintainer>,
    pub annotations: BTreeMap<String, String>,
    pub deprecated: bool,
    /// The chart-level `condition` and `tags` strings (unused by Helm 4).
    pub condition: String,
    pub tags: String,
    /// `dependencies`, in file order.
    pub dependencies: Vec<Dependency>,
    /// Whether `dependencies` is a list at all (an empty one counts). Helm's
    /// `processDependencyEnabled` returns at once for a chart whose
    /// dependencies are nil: every loaded subchart stays, and the subcharts'
    /// own dependencies are not processed either.
    pub dependencies_declared: bool,
    /// Fields Helm does not know, as JSON (numbers as YAML wrote them).
    pub extra: serde_json::Map<String, Value>,
}

impl Metadata {
    /// `Some(dependencies)` when the chart declares a dependency list (even
    /// an empty one), `None` when Helm sees nil.
    pub fn declared_dependencies(&self) -> Option<&[Dependency]> {
        self.dependencies_declared
            .then_some(self.dependencies.as_slice())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Maintainer {
    pub name: String,
    pub email: String,
    pub url: String,
}

/// One entry of `dependencies`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependency {
    pub name: String,
    /// A version or a semver range (Masterminds syntax).
    pub version: String,
    pub repository: String,
    /// `None` when empty. Helm splits it on `,`; the first path that
    /// resolves to a bool wins.
    pub condition: Option<String>,
    pub tags: Vec<String>,
    /// The `enabled` field when the file sets it (Helm overwrites it).
    pub enabled: Option<bool>,
    /// The items Helm acts on; items of any other type (numbers, lists,
    /// booleans, null) are dropped, as Helm ignores them.
    pub import_values: Vec<ImportValue>,
    /// `None` when empty.
    pub alias: Option<String>,
}

impl Dependency {
    /// The name the subchart's values live under: the alias, else the name.
    pub fn effective_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

/// An `import-values` item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportValue {
    /// `- data`: the child's `exports.data` is merged at the parent's root.
    Exports(String),
    /// `- {child: X, parent: Y}`, both as Go's `%v` prints them: a missing
    /// key is `"<nil>"`, a number `1` is `"1"`, `1e6` is `"1e+06"`, a list
    /// `[a b]`, a map `map[k:v]`.
    Map { child: String, parent: String },
}

/// A decoding or validation failure, with the position of the offending
/// node when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Which of Helm's two chart loaders reads the chart: `pkg/chart/v2/loader`
/// (apiVersion v1, v2 or unset) or `internal/chart/v3/loader` (v3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generation {
    V2,
    V3,
}

// ---------------------------------------------------------------------------
// The Go-shaped intermediate (what the Go struct holds before Validate).

#[derive(Debug, Default, Clone)]
pub(crate) struct RawMetadata {
    pub name: String,
    pub home: String,
    pub sources: Option<Vec<String>>,
    pub version: String,
    pub description: String,
    pub keywords: Option<Vec<String>>,
    pub maintainers: Option<Vec<Option<Maintainer>>>,
    pub icon: String,
    pub api_version: String,
    pub condition: String,
    pub tags: String,
    pub app_version: String,
    pub deprecated: bool,
    pub annotations: Option<BTreeMap<String, String>>,
    pub kube_version: String,
    pub dependencies: Option<Vec<Option<RawDependency>>>,
    pub chart_type: String,
    pub extra: serde_json::Map<String, Value>,
}

#[derive(Debug, Default, Clone)]
pub(crate) struct RawDependency {
    pub name: String,
    pub version: String,
    pub repository: String,
    pub condition: String,
    pub tags: Option<Vec<String>>,
    pub enabled: bool,
    pub enabled_set: bool,
    pub import_values: Option<Vec<Node>>,
    pub alias: String,
}

/// Decoding state: Go's encoding/json keeps the first type error and goes
/// on; a value JSON cannot hold (NaN, ±Inf) fails before decoding starts.
#[derive(Default)]
struct Ctx {
    type_error: Option<DecodeError>,
    marshal_error: Option<DecodeError>,
}

impl Ctx {
    fn type_error(&mut self, node: &Node, strukt: &str, path: &[&str], go_type: &str) {
        if self.type_error.is_some() {
            return;
        }
        let message = if path.is_empty() {
            format!(
                "json: cannot unmarshal {} into Go value of type {go_type}",
                node.value.json_kind()
            )
        } else {
            format!(
                "json: cannot unmarshal {} into Go struct field {strukt}.{} of type {go_type}",
                node.value.json_kind(),
                path.join(".")
            )
        };
        self.type_error = Some(DecodeError {
            line: node.line,
            column: node.column,
            message,
        });
    }

    fn finish(self) -> Result<(), DecodeError> {
        match (self.marshal_error, self.type_error) {
            (Some(e), _) | (None, Some(e)) => Err(e),
            (None, None) => Ok(()),
        }
    }
}

/// Field lookup as encoding/json does it: an exact match, else a
/// case-insensitive one.
fn field<'a>(key: &str, fields: &[&'a str]) -> Option<&'a str> {
    fields
        .iter()
        .find(|f| **f == key)
        .or_else(|| fields.iter().find(|f| eq_fold(f, key)))
        .copied()
}

fn eq_fold(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// Mapping entries in the order encoding/json sees them: json.Marshal of a
/// Go map sorts the keys, so with both `name` and `Name` the later one,
/// `name`, wins.
fn sorted_entries(entries: &[(String, Node)]) -> Vec<&(String, Node)> {
    let mut v: Vec<&(String, Node)> = entries.iter().collect();
    v.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    v
}

fn decode_string(node: &Node, out: &mut String, ctx: &mut Ctx, strukt: &str, path: &[&str]) {
    match &node.value {
        Yaml::Null => {}
        Yaml::Str(s) => *out = s.clone(),
        Yaml::Int(i) => *out = i.to_string(),
        Yaml::UInt(u) => *out = u.to_string(),
        Yaml::Float(f) => *out = go_float32(*f),
        Yaml::Bool(b) => *out = b.to_string(),
        Yaml::Seq(_) | Yaml::Map(_) => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, strukt, path, "string")
        }
    }
}

fn decode_bool(node: &Node, out: &mut bool, ctx: &mut Ctx, strukt: &str, path: &[&str]) -> bool {
    match &node.value {
        Yaml::Null => false,
        Yaml::Bool(b) => {
            *out = *b;
            true
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, strukt, path, "bool");
            false
        }
    }
}

fn decode_string_list(
    node: &Node,
    out: &mut Option<Vec<String>>,
    ctx: &mut Ctx,
    strukt: &str,
    path: &[&str],
) {
    match &node.value {
        Yaml::Null => *out = None,
        Yaml::Seq(items) => {
            let mut list = out.take().unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if i >= list.len() {
                    list.push(String::new());
                }
                decode_string(item, &mut list[i], ctx, strukt, path);
            }
            list.truncate(items.len());
            *out = Some(list);
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, strukt, path, "[]string")
        }
    }
}

/// A value decoded into `interface{}`: JSON cannot carry NaN or ±Inf.
pub(crate) fn to_json(node: &Node) -> Result<Value, DecodeError> {
    Ok(match &node.value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(*b),
        Yaml::Int(i) => Value::from(*i),
        Yaml::UInt(u) => Value::from(*u),
        Yaml::Float(f) => match serde_json::Number::from_f64(*f) {
            Some(n) => Value::Number(n),
            None => {
                return Err(DecodeError {
                    line: node.line,
                    column: node.column,
                    message: format!(
                        "json: unsupported value: {}",
                        crate::go::fmt::go_float(*f)
                    ),
                });
            }
        },
        Yaml::Str(s) => Value::String(s.clone()),
        Yaml::Seq(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Map(entries) => {
            let mut m = serde_json::Map::new();
            for (k, v) in entries {
                m.insert(k.clone(), to_json(v)?);
            }
            Value::Object(m)
        }
    })
}

fn scan_non_finite(node: &Node, ctx: &mut Ctx) {
    if ctx.marshal_error.is_none()
        && let Err(e) = to_json(node)
    {
        ctx.marshal_error = Some(e);
    }
}

const METADATA_FIELDS: &[&str] = &[
    "name",
    "home",
    "sources",
    "version",
    "description",
    "keywords",
    "maintainers",
    "icon",
    "apiVersion",
    "condition",
    "tags",
    "appVersion",
    "deprecated",
    "annotations",
    "kubeVersion",
    "dependencies",
    "type",
];

const MAINTAINER_FIELDS: &[&str] = &["name", "email", "url"];

const DEPENDENCY_FIELDS: &[&str] = &[
    "name",
    "version",
    "repository",
    "condition",
    "tags",
    "enabled",
    "import-values",
    "alias",
];

/// Decodes a Chart.yaml (or requirements.yaml) document into `md`, merging
/// as encoding/json does.
pub(crate) fn decode_metadata(doc: &Node, md: &mut RawMetadata) -> Result<(), DecodeError> {
    let mut ctx = Ctx::default();
    match &doc.value {
        Yaml::Null => {}
        Yaml::Map(entries) => {
            for (key, node) in sorted_entries(entries) {
                let Some(f) = field(key, METADATA_FIELDS) else {
                    match to_json(node) {
                        Ok(v) => {
                            md.extra.insert(key.clone(), v);
                        }
                        Err(e) => {
                            ctx.marshal_error.get_or_insert(e);
                        }
                    }
                    continue;
                };
                let path = [f];
                let s = "Metadata";
                match f {
                    "name" => decode_string(node, &mut md.name, &mut ctx, s, &path),
                    "home" => decode_string(node, &mut md.home, &mut ctx, s, &path),
                    "sources" => decode_string_list(node, &mut md.sources, &mut ctx, s, &path),
                    "version" => decode_string(node, &mut md.version, &mut ctx, s, &path),
                    "description" => decode_string(node, &mut md.description, &mut ctx, s, &path),
                    "keywords" => decode_string_list(node, &mut md.keywords, &mut ctx, s, &path),
                    "maintainers" => decode_maintainers(node, &mut md.maintainers, &mut ctx),
                    "icon" => decode_string(node, &mut md.icon, &mut ctx, s, &path),
                    "apiVersion" => decode_string(node, &mut md.api_version, &mut ctx, s, &path),
                    "condition" => decode_string(node, &mut md.condition, &mut ctx, s, &path),
                    "tags" => decode_string(node, &mut md.tags, &mut ctx, s, &path),
                    "appVersion" => decode_string(node, &mut md.app_version, &mut ctx, s, &path),
                    "deprecated" => {
                        decode_bool(node, &mut md.deprecated, &mut ctx, s, &path);
                    }
                    "annotations" => decode_annotations(node, &mut md.annotations, &mut ctx),
                    "kubeVersion" => decode_string(node, &mut md.kube_version, &mut ctx, s, &path),
                    "dependencies" => decode_dependencies(
                        node,
                        &mut md.dependencies,
                        &mut ctx,
                        "Metadata",
                        "dependencies",
                    ),
                    "type" => decode_string(node, &mut md.chart_type, &mut ctx, s, &path),
                    _ => unreachable!(),
                }
            }
        }
        _ => {
            scan_non_finite(doc, &mut ctx);
            ctx.type_error(doc, "", &[], "v2.Metadata");
        }
    }
    ctx.finish()
}

fn decode_maintainers(node: &Node, out: &mut Option<Vec<Option<Maintainer>>>, ctx: &mut Ctx) {
    match &node.value {
        Yaml::Null => *out = None,
        Yaml::Seq(items) => {
            let mut list = out.take().unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if i >= list.len() {
                    list.push(None);
                }
                match &item.value {
                    Yaml::Null => list[i] = None,
                    Yaml::Map(entries) => {
                        let m = list[i].get_or_insert_with(Maintainer::default);
                        for (key, v) in sorted_entries(entries) {
                            let Some(f) = field(key, MAINTAINER_FIELDS) else {
                                scan_non_finite(v, ctx);
                                continue;
                            };
                            let path = ["maintainers", f];
                            let target = match f {
                                "name" => &mut m.name,
                                "email" => &mut m.email,
                                _ => &mut m.url,
                            };
                            decode_string(v, target, ctx, "Maintainer", &path);
                        }
                    }
                    _ => {
                        scan_non_finite(item, ctx);
                        ctx.type_error(item, "Metadata", &["maintainers"], "v2.Maintainer")
                    }
                }
            }
            list.truncate(items.len());
            *out = Some(list);
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, "Metadata", &["maintainers"], "[]*v2.Maintainer")
        }
    }
}

fn decode_annotations(node: &Node, out: &mut Option<BTreeMap<String, String>>, ctx: &mut Ctx) {
    match &node.value {
        Yaml::Null => *out = None,
        Yaml::Map(entries) => {
            let map = out.get_or_insert_with(BTreeMap::new);
            for (key, v) in sorted_entries(entries) {
                let mut s = String::new();
                decode_string(v, &mut s, ctx, "Metadata", &["annotations"]);
                map.insert(key.clone(), s);
            }
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, "Metadata", &["annotations"], "map[string]string")
        }
    }
}

fn decode_dependencies(
    node: &Node,
    out: &mut Option<Vec<Option<RawDependency>>>,
    ctx: &mut Ctx,
    strukt: &str,
    fname: &str,
) {
    match &node.value {
        Yaml::Null => *out = None,
        Yaml::Seq(items) => {
            let mut list = out.take().unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if i >= list.len() {
                    list.push(None);
                }
                match &item.value {
                    Yaml::Null => list[i] = None,
                    Yaml::Map(entries) => {
                        let d = list[i].get_or_insert_with(RawDependency::default);
                        decode_dependency(entries, d, ctx, fname);
                    }
                    _ => {
                        scan_non_finite(item, ctx);
                        ctx.type_error(item, strukt, &[fname], "v2.Dependency")
                    }
                }
            }
            list.truncate(items.len());
            *out = Some(list);
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, strukt, &[fname], "[]*v2.Dependency")
        }
    }
}

fn decode_dependency(
    entries: &[(String, Node)],
    d: &mut RawDependency,
    ctx: &mut Ctx,
    fname: &str,
) {
    for (key, v) in sorted_entries(entries) {
        let Some(f) = field(key, DEPENDENCY_FIELDS) else {
            scan_non_finite(v, ctx);
            continue;
        };
        let path = [fname, f];
        let s = "Dependency";
        match f {
            "name" => decode_string(v, &mut d.name, ctx, s, &path),
            "version" => decode_string(v, &mut d.version, ctx, s, &path),
            "repository" => decode_string(v, &mut d.repository, ctx, s, &path),
            "condition" => decode_string(v, &mut d.condition, ctx, s, &path),
            "tags" => decode_string_list(v, &mut d.tags, ctx, s, &path),
            "enabled" => {
                if decode_bool(v, &mut d.enabled, ctx, s, &path) {
                    d.enabled_set = true;
                }
            }
            "import-values" => match &v.value {
                Yaml::Null => d.import_values = None,
                Yaml::Seq(items) => {
                    scan_non_finite(v, ctx);
                    d.import_values = Some(items.clone());
                }
                _ => {
                    scan_non_finite(v, ctx);
                    ctx.type_error(v, s, &path, "[]interface {}")
                }
            },
            "alias" => decode_string(v, &mut d.alias, ctx, s, &path),
            _ => unreachable!(),
        }
    }
}

/// Checks a Chart.lock / requirements.lock document the way decoding it
/// into Helm's `Lock` would (`generated` must be an RFC 3339 time,
/// `digest` a string, `dependencies` a list of dependency maps).
pub(crate) fn check_lock(doc: &Node) -> Result<(), DecodeError> {
    let mut ctx = Ctx::default();
    match &doc.value {
        Yaml::Null => {}
        Yaml::Map(entries) => {
            for (key, node) in sorted_entries(entries) {
                match field(key, &["generated", "digest", "dependencies"]) {
                    Some("generated") => match &node.value {
                        Yaml::Null => {}
                        Yaml::Str(s) if is_rfc3339(s) => {}
                        Yaml::Str(s) => {
                            // time.Time.UnmarshalJSON's error stops decoding.
                            ctx.finish()?;
                            return Err(DecodeError {
                                line: node.line,
                                column: node.column,
                                message: format!(
                                    "parsing time {} as \"2006-01-02T15:04:05Z07:00\": not an RFC 3339 time",
                                    go_quote(s)
                                ),
                            });
                        }
                        _ => {
                            ctx.finish()?;
                            return Err(DecodeError {
                                line: node.line,
                                column: node.column,
                                message: "Time.UnmarshalJSON: input is not a JSON string".into(),
                            });
                        }
                    },
                    Some("digest") => {
                        decode_string(node, &mut String::new(), &mut ctx, "Lock", &["digest"])
                    }
                    Some(_) => {
                        decode_dependencies(node, &mut None, &mut ctx, "Lock", "dependencies")
                    }
                    None => scan_non_finite(node, &mut ctx),
                }
            }
        }
        _ => {
            scan_non_finite(doc, &mut ctx);
            ctx.type_error(doc, "", &[], "v2.Lock");
        }
    }
    ctx.finish()
}

/// Go's time.RFC3339 as `Time.UnmarshalJSON` accepts it.
fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
    {
        return false;
    }
    if !matches!(b[10], b'T' | b't')
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len() && digits(i + 1..i + 3) && b[i + 3] == b':' && digits(i + 4..i + 6)
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Validate (helm: pkg/chart/v2/metadata.go Metadata.Validate)

/// Turns the decoded metadata into [`Metadata`], running Helm's
/// `Metadata.Validate` (with its wording, `validation: ...`).
pub(crate) fn validate(mut md: RawMetadata) -> Result<Metadata, String> {
    md.name = sanitize(&md.name);
    md.description = sanitize(&md.description);
    md.home = sanitize(&md.home);
    md.icon = sanitize(&md.icon);
    md.condition = sanitize(&md.condition);
    md.tags = sanitize(&md.tags);
    md.app_version = sanitize(&md.app_version);
    md.kube_version = sanitize(&md.kube_version);
    for s in md.sources.iter_mut().flatten() {
        *s = sanitize(s);
    }
    for s in md.keywords.iter_mut().flatten() {
        *s = sanitize(s);
    }
    let fail = |m: String| Err(format!("validation: {m}"));
    if md.api_version.is_empty() {
        return fail("chart.metadata.apiVersion is required".into());
    }
    if md.name.is_empty() {
        return fail("chart.metadata.name is required".into());
    }
    if md.name == "." || md.name == ".." {
        return fail(format!(
            "chart.metadata.name {} is not allowed",
            go_quote(&md.name)
        ));
    }
    if md.name != crate::go::path::base(&md.name) {
        return fail(format!(
            "chart.metadata.name {} is invalid",
            go_quote(&md.name)
        ));
    }
    if md.version.is_empty() {
        return fail("chart.metadata.version is required".into());
    }
    if !is_valid_semver(&md.version) {
        return fail(format!(
            "chart.metadata.version {} is invalid",
            go_quote(&md.version)
        ));
    }
    if !matches!(md.chart_type.as_str(), "" | "application" | "library") {
        return fail("chart.metadata.type must be application or library".into());
    }
    let mut maintainers = Vec::new();
    for m in md.maintainers.take().unwrap_or_default() {
        let Some(m) = m else {
            return fail("maintainers must not contain empty or null nodes".into());
        };
        maintainers.push(Maintainer {
            name: sanitize(&m.name),
            email: sanitize(&m.email),
            url: sanitize(&m.url),
        });
    }
    let declared = md.dependencies.is_some();
    let mut dependencies: Vec<Dependency> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for d in md.dependencies.take().unwrap_or_default() {
        let Some(d) = d else {
            return fail("dependencies must not contain empty or null nodes".into());
        };
        let d = finish_dependency(d)?;
        let key = d.effective_name().to_string();
        if seen.contains(&key) {
            return fail(format!(
                "more than one dependency with name or alias {}",
                go_quote(&key)
            ));
        }
        seen.push(key);
        dependencies.push(d);
    }
    Ok(Metadata {
        api_version: md.api_version,
        name: md.name,
        version: md.version,
        app_version: md.app_version,
        kube_version: md.kube_version,
        description: md.description,
        chart_type: md.chart_type,
        home: md.home,
        icon: md.icon,
        sources: md.sources.unwrap_or_default(),
        keywords: md.keywords.unwrap_or_default(),
        maintainers,
        annotations: md.annotations.unwrap_or_default(),
        deprecated: md.deprecated,
        condition: md.condition,
        tags: md.tags,
        dependencies,
        dependencies_declared: declared,
        extra: md.extra,
    })
}

/// helm: Dependency.Validate (sanitising, the alias character check).
fn finish_dependency(d: RawDependency) -> Result<Dependency, String> {
    let name = sanitize(&d.name);
    let condition = sanitize(&d.condition);
    if !d.alias.is_empty()
        && !d
            .alias
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "validation: dependency {} has disallowed characters in the alias",
            go_quote(&name)
        ));
    }
    let import_values = d
        .import_values
        .unwrap_or_default()
        .iter()
        .filter_map(import_value)
        .collect();
    Ok(Dependency {
        name,
        version: sanitize(&d.version),
        repository: sanitize(&d.repository),
        condition: (!condition.is_empty()).then_some(condition),
        tags: d
            .tags
            .unwrap_or_default()
            .iter()
            .map(|t| sanitize(t))
            .collect(),
        enabled: d.enabled_set.then_some(d.enabled),
        import_values,
        alias: (!d.alias.is_empty()).then_some(d.alias),
    })
}

/// helm: processImportValues' type switch: a map gives child/parent through
/// `%v`, a string the exports form, anything else is ignored.
fn import_value(node: &Node) -> Option<ImportValue> {
    match &node.value {
        Yaml::Str(s) => Some(ImportValue::Exports(s.clone())),
        Yaml::Map(entries) => {
            let get = |k: &str| {
                entries.iter().find(|(key, _)| key == k).map_or_else(
                    || "<nil>".to_string(),
                    |(_, v)| to_json(v).map(|j| go_v(&j)).unwrap_or_default(),
                )
            };
            Some(ImportValue::Map {
                child: get("child"),
                parent: get("parent"),
            })
        }
        _ => None,
    }
}

/// helm: sanitizeString: every Unicode space becomes ' ', other
/// non-printable characters are dropped (Go's unicode.IsSpace/IsPrint).
pub(crate) fn sanitize(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            if c.is_whitespace() {
                Some(' ')
            } else if is_print(c) {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

/// Masterminds semver v3 `NewVersion` (the coercing default Helm uses):
/// `v?MAJOR(.MINOR(.PATCH)?)?(-PRERELEASE)?(+METADATA)?`, each number a
/// uint64 (leading zeros allowed), numeric prerelease parts without
/// leading zeros.
pub fn is_valid_semver(v: &str) -> bool {
    let s = v.strip_prefix('v').unwrap_or(v);
    let b = s.as_bytes();
    let mut i = 0;
    let number = |i: &mut usize| -> bool {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start && s[start..*i].parse::<u64>().is_ok()
    };
    if !number(&mut i) {
        return false;
    }
    for _ in 0..2 {
        if i < b.len() && b[i] == b'.' {
            i += 1;
            if !number(&mut i) {
                return false;
            }
        }
    }
    let ident_list = |text: &str, prerelease: bool| -> bool {
        text.split('.').all(|part| {
            !part.is_empty()
                && part.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
                && !(prerelease
                    && part.len() > 1
                    && part.starts_with('0')
                    && part.bytes().all(|c| c.is_ascii_digit()))
        })
    };
    let rest = &s[i..];
    let (pre, meta) = match rest.split_once('+') {
        Some((pre, meta)) => (pre, Some(meta)),
        None => (rest, None),
    };
    if !pre.is_empty() {
        let Some(pre) = pre.strip_prefix('-') else {
            return false;
        };
        if !ident_list(pre, true) {
            return false;
        }
    }
    meta.is_none_or(|m| ident_list(m, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::yaml::parse_first_document;

    fn decode(text: &str) -> Result<RawMetadata, DecodeError> {
        let mut md = RawMetadata::default();
        decode_metadata(&parse_first_document(text).unwrap(), &mut md)?;
        Ok(md)
    }

    fn load(text: &str) -> Result<Metadata, String> {
        let mut md = decode(text).map_err(|e| e.message)?;
        if md.api_version.is_empty() {
            md.api_version = "v1".into();
        }
        validate(md)
    }

    #[test]
    fn scalars_in_string_fields_become_strings_like_sigs_yaml() {
        let md =
            load("name: x\nversion: 1.0\nappVersion: 1.10\nkubeVersion: yes\ndescription: 0x10\n")
                .unwrap();
        assert_eq!(md.version, "1");
        assert_eq!(md.app_version, "1.1");
        assert_eq!(md.kube_version, "true");
        assert_eq!(md.description, "16");
    }

    #[test]
    fn field_names_match_case_insensitively_and_the_sorted_last_wins() {
        let md = load("NAME: upper\nversion: 1.0.0\n").unwrap();
        assert_eq!(md.name, "upper");
        let md = load("name: lower\nName: upper\nversion: 1.0.0\n").unwrap();
        assert_eq!(md.name, "lower");
    }

    #[test]
    fn missing_name_and_version_use_helms_wording() {
        assert_eq!(
            load("version: 1.0.0\n").unwrap_err(),
            "validation: chart.metadata.name is required"
        );
        assert_eq!(
            load("name: x\n").unwrap_err(),
            "validation: chart.metadata.version is required"
        );
        assert_eq!(
            load("name: x\nversion: one\n").unwrap_err(),
            "validation: chart.metadata.version \"one\" is invalid"
        );
        assert_eq!(
            load("name: a/b\nversion: 1.0.0\n").unwrap_err(),
            "validation: chart.metadata.name \"a/b\" is invalid"
        );
        assert_eq!(
            load("name: ..\nversion: 1.0.0\n").unwrap_err(),
            "validation: chart.metadata.name \"..\" is not allowed"
        );
        assert_eq!(
            load("name: x\nversion: 1.0.0\ntype: lib\n").unwrap_err(),
            "validation: chart.metadata.type must be application or library"
        );
    }

    #[test]
    fn dependency_rules_from_validate() {
        assert_eq!(
            load("name: x\nversion: 1.0.0\ndependencies: [null]\n").unwrap_err(),
            "validation: dependencies must not contain empty or null nodes"
        );
        assert_eq!(
            load("name: x\nversion: 1.0.0\ndependencies: [{name: a, alias: 'b.c'}]\n").unwrap_err(),
            "validation: dependency \"a\" has disallowed characters in the alias"
        );
        assert_eq!(
            load("name: x\nversion: 1.0.0\ndependencies: [{name: a}, {name: b, alias: a}]\n")
                .unwrap_err(),
            "validation: more than one dependency with name or alias \"a\""
        );
        assert_eq!(
            load("name: x\nversion: 1.0.0\nmaintainers: [~]\n").unwrap_err(),
            "validation: maintainers must not contain empty or null nodes"
        );
    }

    #[test]
    fn nil_and_empty_dependency_lists_differ() {
        assert!(
            !load("name: x\nversion: 1.0.0\n")
                .unwrap()
                .dependencies_declared
        );
        assert!(
            !load("name: x\nversion: 1.0.0\ndependencies: ~\n")
                .unwrap()
                .dependencies_declared
        );
        let md = load("name: x\nversion: 1.0.0\ndependencies: []\n").unwrap();
        assert!(md.dependencies_declared);
        assert_eq!(md.declared_dependencies(), Some(&[][..]));
    }

    #[test]
    fn import_values_keep_both_forms_and_go_stringification() {
        let md = load(
            "name: x\nversion: 1.0.0\ndependencies:\n- name: a\n  import-values:\n  - data\n  - {child: info, parent: imported}\n  - {child: 1, parent: 1.5e6}\n  - {parent: p}\n  - 7\n  - [x]\n  - {child: [a, b], parent: {k: v}}\n",
        )
        .unwrap();
        assert_eq!(
            md.dependencies[0].import_values,
            vec![
                ImportValue::Exports("data".into()),
                ImportValue::Map {
                    child: "info".into(),
                    parent: "imported".into()
                },
                ImportValue::Map {
                    child: "1".into(),
                    parent: "1.5e+06".into()
                },
                ImportValue::Map {
                    child: "<nil>".into(),
                    parent: "p".into()
                },
                ImportValue::Map {
                    child: "[a b]".into(),
                    parent: "map[k:v]".into()
                },
            ]
        );
    }

    #[test]
    fn dependency_fields_are_sanitised_and_read() {
        let md = load(
            "name: x\nversion: 1.0.0\ndependencies:\n- name: \"a\\tb\"\n  version: ~1.2\n  condition: a.enabled,b.enabled\n  tags: [front, 1]\n  alias: al_1\n  enabled: false\n",
        )
        .unwrap();
        let d = &md.dependencies[0];
        assert_eq!(d.name, "a b");
        assert_eq!(d.condition.as_deref(), Some("a.enabled,b.enabled"));
        assert_eq!(d.tags, ["front", "1"]);
        assert_eq!(d.alias.as_deref(), Some("al_1"));
        assert_eq!(d.enabled, Some(false));
        assert_eq!(d.effective_name(), "al_1");
    }

    #[test]
    fn type_errors_name_the_go_field_and_position() {
        let e = decode("name: [a]\n").unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal array into Go struct field Metadata.name of type string"
        );
        assert_eq!((e.line, e.column), (1, 7));
        let e = decode("dependencies:\n- name: a\n  tags: x\n").unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal string into Go struct field Dependency.dependencies.tags of type []string"
        );
        assert_eq!(e.line, 3);
        let e = decode("- a\n").unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal array into Go value of type v2.Metadata"
        );
        let e = decode("deprecated: \"yes\"\n").unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal string into Go struct field Metadata.deprecated of type bool"
        );
        let e = decode("extra: .nan\n").unwrap_err();
        assert_eq!(e.message, "json: unsupported value: NaN");
    }

    #[test]
    fn decoding_twice_merges_like_encoding_json() {
        let mut md = RawMetadata::default();
        decode_metadata(
            &parse_first_document("name: x\ndependencies: [{name: a, condition: c}]\n").unwrap(),
            &mut md,
        )
        .unwrap();
        decode_metadata(
            &parse_first_document("dependencies: [{name: b}, {name: z}]\n").unwrap(),
            &mut md,
        )
        .unwrap();
        let deps = md.dependencies.as_ref().unwrap();
        assert_eq!(deps.len(), 2);
        let first = deps[0].as_ref().unwrap();
        assert_eq!((first.name.as_str(), first.condition.as_str()), ("b", "c"));
        assert_eq!(md.name, "x");
    }

    #[test]
    fn unknown_fields_are_kept() {
        let md = load("name: x\nversion: 1.0.0\ncustom: {a: 1}\n").unwrap();
        assert_eq!(md.extra["custom"], serde_json::json!({"a": 1}));
    }

    #[test]
    fn sanitize_normalises_spaces_and_drops_unprintables() {
        assert_eq!(sanitize("a\tb\nc\u{a0}d\u{200b}e\u{7}"), "a b c de");
    }

    #[test]
    fn semver_like_masterminds_new_version() {
        for ok in [
            "1.0.0",
            "v1.2.3",
            "1",
            "1.2",
            "01.02.03",
            "1.0.0-rc.1+build.5",
            "1.0.0-alpha-1",
            "1.0.0+001",
        ] {
            assert!(is_valid_semver(ok), "{ok}");
        }
        for bad in [
            "",
            "x",
            "1.",
            "1.2.3.4",
            "1.0.0-",
            "1.0.0-01",
            "1.0.0-a..b",
            "1.0.0+",
            "V1.0.0",
            "99999999999999999999.0.0",
            " 1.0.0",
        ] {
            assert!(!is_valid_semver(bad), "{bad}");
        }
    }

    #[test]
    fn lock_files_are_checked_like_helms_lock_struct() {
        let ok = parse_first_document(
            "generated: \"2019-01-01T10:00:00.5+01:00\"\ndigest: sha256:x\ndependencies: []\n",
        )
        .unwrap();
        assert!(check_lock(&ok).is_ok());
        let bad = parse_first_document("generated: 2019-01-01\n").unwrap();
        assert!(
            check_lock(&bad)
                .unwrap_err()
                .message
                .starts_with("parsing time \"2019-01-01\"")
        );
        let bad = parse_first_document("dependencies: {}\n").unwrap();
        assert_eq!(
            check_lock(&bad).unwrap_err().message,
            "json: cannot unmarshal object into Go struct field Lock.dependencies of type []*v2.Dependency"
        );
    }

    #[test]
    fn go_quote_escapes_like_strconv() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\x01\"");
        assert_eq!(go_quote("é"), "\"é\"");
    }
}
