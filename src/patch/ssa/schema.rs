//! What server-side apply needs from an object's schema: how each list is
//! merged, which objects are atomic or maps, key defaults and reset fields.
//! The built-in kinds read it from the embedded k8s.io/api table; callers
//! without a schema give list keys through a closure.

use super::fieldpath::{FieldPath, PathElement};
use crate::patch::meta::{builtin_kind, builtin_raw_table};
use serde_json::{Map, Value};

/// How a list is merged by server-side apply (`x-kubernetes-list-type`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListType {
    /// Replaced as a whole; owned as one field.
    Atomic,
    /// A set of scalars; items addressed by value (`v:`).
    Set,
    /// An associative list; items addressed by these key fields (`k:`).
    Map(Vec<String>),
}

/// What server-side apply needs to know about an object's schema. Paths are
/// those of the list or object in question (list items appear as `k:`/`v:`
/// elements in the path, as everywhere else).
pub trait SsaSchema {
    /// `x-kubernetes-list-type` (and keys) of the list at `path`.
    fn list_type(&self, path: &FieldPath) -> ListType;
    /// `x-kubernetes-map-type: atomic` / `structType: atomic` at `path`.
    fn atomic_object(&self, _path: &FieldPath) -> bool {
        false
    }
    /// The object at `path` is a map (its keys are data, each one owned),
    /// not a struct.
    fn is_map(&self, _path: &FieldPath) -> bool {
        false
    }
    /// The default of key field `key` of the items of the list at `path`,
    /// used when an item omits it.
    fn key_default(&self, _path: &FieldPath, _key: &str) -> Option<Value> {
        None
    }
    /// Fields the main resource's apply ignores (the strategy's reset
    /// fields, e.g. `status` where a status subresource exists): they
    /// neither conflict nor get pruned.
    fn reset_field(&self, _path: &FieldPath) -> bool {
        false
    }
}

/// The closure form the preview's callers hold: `Some(keys)` for an
/// associative list, `Some(vec![])` for a set, `None` for an atomic list
/// (the server's default for lists it knows nothing about).
pub struct ListKeysSchema<'f>(pub &'f dyn Fn(&FieldPath) -> Option<Vec<String>>);

impl SsaSchema for ListKeysSchema<'_> {
    fn list_type(&self, path: &FieldPath) -> ListType {
        match (self.0)(path) {
            Some(keys) if keys.is_empty() => ListType::Set,
            Some(keys) => ListType::Map(keys),
            None => ListType::Atomic,
        }
    }
}

/// The built-in kinds' SSA markers, from the embedded k8s.io/api v0.36.2
/// table. This reads the table's `listType`/`listMapKeys`/`structType`/
/// `mapType` markers directly: the strategic-merge lookups
/// ([`crate::patch::meta::LookupPatchMeta`]) only carry `patchMergeKey`,
/// which SSA does not use (container ports merge by `containerPort` but are
/// keyed by `containerPort`+`protocol`).
#[derive(Debug, Clone, Copy)]
pub struct BuiltinSsaSchema {
    root: &'static str,
}

/// The SSA schema of a built-in kind, if the table has it.
pub fn builtin_ssa_schema(api_version: &str, kind: &str) -> Option<BuiltinSsaSchema> {
    builtin_kind(api_version, kind).map(|k| BuiltinSsaSchema { root: k.type_name })
}

/// A position in the table: a named type (struct or scalar) or a field's
/// description (list, map, struct reference).
#[derive(Clone, Copy)]
enum Pos<'a> {
    Type(&'a str),
    Desc(&'a Value),
}

impl BuiltinSsaSchema {
    fn types(&self) -> Option<&'static Map<String, Value>> {
        builtin_raw_table().get("types").and_then(Value::as_object)
    }

    fn resolve(&self, path: &FieldPath) -> Option<Pos<'static>> {
        let types = self.types()?;
        let mut pos = Pos::Type(self.root);
        for pe in &path.0 {
            pos = match (pos, pe) {
                (Pos::Type(t), PathElement::Field(name)) => {
                    Pos::Desc(types.get(t)?.get("fields")?.get(name.as_str())?)
                }
                (Pos::Desc(d), PathElement::Field(name)) => match d.get("kind").and_then(Value::as_str) {
                    Some("struct") => {
                        Pos::Desc(types.get(d.get("ref")?.as_str()?)?.get("fields")?.get(name.as_str())?)
                    }
                    Some("map") => elem_pos(d.get("values")?)?,
                    _ => return None,
                },
                (Pos::Desc(d), _) if d.get("kind").and_then(Value::as_str) == Some("list") => elem_pos(d.get("items")?)?,
                _ => return None,
            };
        }
        Some(pos)
    }

    /// The struct type at `path`, following a field's `ref`.
    fn struct_type(&self, path: &FieldPath) -> Option<&'static str> {
        match self.resolve(path)? {
            Pos::Type(t) => Some(t),
            Pos::Desc(d) if d.get("kind").and_then(Value::as_str) == Some("struct") => d.get("ref")?.as_str(),
            Pos::Desc(_) => None,
        }
    }
}

fn elem_pos(v: &'static Value) -> Option<Pos<'static>> {
    match v {
        Value::String(s) => Some(Pos::Type(s.as_str())),
        Value::Object(_) => Some(Pos::Desc(v)),
        _ => None,
    }
}

impl SsaSchema for BuiltinSsaSchema {
    fn list_type(&self, path: &FieldPath) -> ListType {
        let Some(Pos::Desc(d)) = self.resolve(path) else { return ListType::Atomic };
        match d.get("listType").and_then(Value::as_str) {
            Some("map") => ListType::Map(
                d.get("listMapKeys")
                    .and_then(Value::as_array)
                    .map(|ks| ks.iter().filter_map(|k| k.as_str().map(str::to_owned)).collect())
                    .unwrap_or_default(),
            ),
            Some("set") => ListType::Set,
            _ => ListType::Atomic,
        }
    }

    fn atomic_object(&self, path: &FieldPath) -> bool {
        if let Some(Pos::Desc(d)) = self.resolve(path)
            && d.get("mapType").and_then(Value::as_str) == Some("atomic")
        {
            return true;
        }
        let Some(t) = self.struct_type(path) else { return false };
        self.types().and_then(|ts| ts.get(t)).and_then(|t| t.get("structType")).and_then(Value::as_str) == Some("atomic")
    }

    fn is_map(&self, path: &FieldPath) -> bool {
        matches!(self.resolve(path), Some(Pos::Desc(d)) if d.get("kind").and_then(Value::as_str) == Some("map"))
    }

    /// `protocol` of container and service ports is `+default="TCP"` in
    /// k8s.io/api, and a list-map key: charts usually omit it.
    fn key_default(&self, path: &FieldPath, key: &str) -> Option<Value> {
        let Some(Pos::Desc(d)) = self.resolve(path) else { return None };
        let items = d.get("items").and_then(Value::as_str)?;
        let defaulted = matches!(items, "io.k8s.api.core.v1.ContainerPort" | "io.k8s.api.core.v1.ServicePort");
        (defaulted && key == "protocol").then(|| Value::String("TCP".to_owned()))
    }

    /// Built-in kinds with a `status` reset it on writes to the main
    /// resource (their registry strategies' `GetResetFields`); the rarer
    /// reset `spec` of status writes does not concern an apply of the object.
    fn reset_field(&self, path: &FieldPath) -> bool {
        matches!(path.0.first(), Some(PathElement::Field(n)) if n == "status")
            && self.resolve(&FieldPath::fields(&["status"])).is_some()
    }
}

/// The closure [`predict_conflicts`](super::predict_conflicts) takes, for a built-in kind (`None` when
/// the kind is not built in: its lists are then all atomic).
pub fn builtin_list_map_keys(api_version: &str, kind: &str) -> impl Fn(&FieldPath) -> Option<Vec<String>> + use<> {
    let schema = builtin_ssa_schema(api_version, kind);
    move |path: &FieldPath| match schema.as_ref()?.list_type(path) {
        ListType::Atomic => None,
        ListType::Set => Some(Vec::new()),
        ListType::Map(keys) => Some(keys),
    }
}
