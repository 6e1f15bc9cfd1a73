//! Chart.yaml and requirements.yaml decoded as Helm does: sigs.k8s.io/yaml
//! turns go-yaml v2's tree into JSON (scalars for a `string` field become
//! strings), then encoding/json fills the Go struct (exact or
//! case-insensitive field names, `null` handling, merging into an existing
//! value, the first type error reported after the rest is decoded).

use super::super::yaml::{Node, Yaml};
use super::{DecodeError, Maintainer, RawDependency, RawMetadata};
use crate::go::fmt::go_float32;
use serde_json::Value;
use std::collections::BTreeMap;

/// Decoding state: Go's encoding/json keeps the first type error and goes
/// on; a value JSON cannot hold (NaN, ±Inf) fails before decoding starts.
#[derive(Default)]
pub(super) struct Ctx {
    type_error: Option<DecodeError>,
    marshal_error: Option<DecodeError>,
}

impl Ctx {
    pub(super) fn type_error(&mut self, node: &Node, strukt: &str, path: &[&str], go_type: &str) {
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

    pub(super) fn finish(self) -> Result<(), DecodeError> {
        match (self.marshal_error, self.type_error) {
            (Some(e), _) | (None, Some(e)) => Err(e),
            (None, None) => Ok(()),
        }
    }
}

/// Field lookup as encoding/json does it: an exact match, else a
/// case-insensitive one.
pub(super) fn field<'a>(key: &str, fields: &[&'a str]) -> Option<&'a str> {
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
pub(super) fn sorted_entries(entries: &[(String, Node)]) -> Vec<&(String, Node)> {
    let mut v: Vec<&(String, Node)> = entries.iter().collect();
    v.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    v
}

pub(super) fn decode_string(node: &Node, out: &mut String, ctx: &mut Ctx, strukt: &str, path: &[&str]) {
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
pub(super) fn to_json(node: &Node) -> Result<Value, DecodeError> {
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

pub(super) fn scan_non_finite(node: &Node, ctx: &mut Ctx) {
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
    let element = GoSlice { strukt: "Metadata", field: "maintainers", element: "v2.Maintainer", slice: "[]*v2.Maintainer" };
    decode_pointer_slice(node, out, ctx, &element, |entries, m: &mut Maintainer, ctx| {
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
    });
}

/// Where a `[]*T` field sits, for go-yaml's type errors.
struct GoSlice<'a> {
    strukt: &'a str,
    field: &'a str,
    /// `v2.Maintainer`: the element type, named when an item is not a map.
    element: &'a str,
    /// `[]*v2.Maintainer`: named when the value is not a sequence.
    slice: &'a str,
}

/// go-yaml's decoding of a `[]*T` field into a value that may already hold
/// one from an earlier duplicate key: null clears it; a sequence reuses the
/// elements already there (each map item decoded over its element by
/// `decode_item`, a null item clears it) and is cut to the sequence's length.
fn decode_pointer_slice<T: Default>(
    node: &Node,
    out: &mut Option<Vec<Option<T>>>,
    ctx: &mut Ctx,
    at: &GoSlice,
    mut decode_item: impl FnMut(&[(String, Node)], &mut T, &mut Ctx),
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
                    Yaml::Map(entries) => decode_item(entries, list[i].get_or_insert_with(T::default), ctx),
                    _ => {
                        scan_non_finite(item, ctx);
                        ctx.type_error(item, at.strukt, &[at.field], at.element)
                    }
                }
            }
            list.truncate(items.len());
            *out = Some(list);
        }
        _ => {
            scan_non_finite(node, ctx);
            ctx.type_error(node, at.strukt, &[at.field], at.slice)
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

pub(super) fn decode_dependencies(
    node: &Node,
    out: &mut Option<Vec<Option<RawDependency>>>,
    ctx: &mut Ctx,
    strukt: &str,
    fname: &str,
) {
    let element = GoSlice { strukt, field: fname, element: "v2.Dependency", slice: "[]*v2.Dependency" };
    decode_pointer_slice(node, out, ctx, &element, |entries, d, ctx| decode_dependency(entries, d, ctx, fname));
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
