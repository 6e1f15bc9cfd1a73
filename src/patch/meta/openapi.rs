//! OpenAPI v2 metadata (`PatchMetaFromOpenAPI`, kubectl's lookup), e.g. from
//! a cluster's `/openapi/v2`.
//!
//! The document is parsed the way kube-openapi's `proto` package models it
//! (`NewOpenAPIData`): a schema with `$ref` is a reference to a definition; no
//! type and `properties` -> an object with fields ("kind"); no type and no
//! properties -> arbitrary; `object` with properties -> kind, without -> map;
//! `array` -> array (exactly one `items` schema); `string`, `number`,
//! `integer`, `boolean` -> primitive. The patch metadata is read from the
//! property schema's `x-kubernetes-patch-strategy` (split on commas) and
//! `x-kubernetes-patch-merge-key`.
//!
//! Lookups follow apimachinery's `kindItem` / `sliceItem` visitors: object
//! lookups follow references and need an object schema; list lookups need the
//! property to be an array (element = `items`) or a reference (element = the
//! referenced definition); an arbitrary schema (no type, no properties)
//! answers every further lookup with "no metadata" instead of an error.

use super::{LookupPatchMeta, MetaError, PatchMeta};
use serde_json::{Map, Value};
use std::collections::HashMap;

#[derive(Debug)]
enum Ext {
    Absent,
    Str(String),
    /// Not a string: the Go type name of the value.
    Bad(String),
}

#[derive(Debug)]
enum NodeKind {
    /// An object with named fields.
    Kind { path: String, fields: HashMap<String, usize> },
    Map,
    Array { sub: usize },
    Primitive { ty: String, format: String },
    Arbitrary,
    Ref { target: String },
}

#[derive(Debug)]
struct Node {
    kind: NodeKind,
    strategy: Ext,
    merge_key: Ext,
}

/// The patch metadata of an OpenAPI v2 document.
#[derive(Debug, Default)]
pub struct OpenApiV2Meta {
    nodes: Vec<Node>,
    models: HashMap<String, usize>,
    gvk: HashMap<(String, String, String), String>,
}

fn schema_error(path: &str, msg: String) -> MetaError {
    if path.is_empty() {
        MetaError::Schema(format!("SchemaError: {msg}"))
    } else {
        MetaError::Schema(format!("SchemaError({path}): {msg}"))
    }
}

/// The Go type name of a YAML-decoded extension value (gopkg.in/yaml.v2).
fn yaml_go_type(v: &Value) -> String {
    match v {
        Value::Null => "%!s(<nil>)".to_owned(),
        Value::Bool(_) => "bool".to_owned(),
        Value::Number(n) if n.is_i64() || n.is_u64() => "int".to_owned(),
        Value::Number(_) => "float64".to_owned(),
        Value::String(_) => "string".to_owned(),
        Value::Array(_) => "[]interface {}".to_owned(),
        Value::Object(_) => "map[interface {}]interface {}".to_owned(),
    }
}

fn extension(obj: &Map<String, Value>, name: &str) -> Ext {
    match obj.get(name) {
        None => Ext::Absent,
        Some(Value::String(s)) => Ext::Str(s.clone()),
        Some(other) => Ext::Bad(yaml_go_type(other)),
    }
}

impl OpenApiV2Meta {
    /// Parses a Swagger 2.0 document (`definitions`), with kube-openapi's
    /// validation errors.
    pub fn from_document(doc: &Value) -> Result<OpenApiV2Meta, MetaError> {
        let mut meta = OpenApiV2Meta::default();
        let empty = Map::new();
        let defs = doc.get("definitions").and_then(Value::as_object).unwrap_or(&empty);
        // All names first, so references can be checked.
        for name in defs.keys() {
            meta.models.insert(name.clone(), usize::MAX);
        }
        for (name, schema) in defs {
            let id = meta.parse(schema, name)?;
            meta.models.insert(name.clone(), id);
            if let Some(list) = schema.get("x-kubernetes-group-version-kind").and_then(Value::as_array) {
                for g in list {
                    let s = |k: &str| g.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                    meta.gvk.insert((s("group"), s("version"), s("kind")), name.clone());
                }
            }
        }
        Ok(meta)
    }

    /// The definition `name` (e.g. `io.k8s.api.apps.v1.Deployment`).
    pub fn definition(&self, name: &str) -> Option<OpenApiV2Lookup<'_>> {
        let &id = self.models.get(name)?;
        Some(OpenApiV2Lookup { doc: self, node: Some(id) })
    }

    /// The definition declaring `x-kubernetes-group-version-kind` for this
    /// group (`""` for the core group), version and kind.
    pub fn for_gvk(&self, group: &str, version: &str, kind: &str) -> Option<OpenApiV2Lookup<'_>> {
        let name = self.gvk.get(&(group.to_owned(), version.to_owned(), kind.to_owned()))?;
        self.definition(name)
    }

    /// [`Self::for_gvk`] from a manifest's `apiVersion` (`v1`, `apps/v1`) and
    /// `kind`.
    pub fn for_kind(&self, api_version: &str, kind: &str) -> Option<OpenApiV2Lookup<'_>> {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        self.for_gvk(group, version, kind)
    }

    fn push(&mut self, kind: NodeKind, obj: &Map<String, Value>) -> usize {
        let node = Node {
            kind,
            strategy: extension(obj, "x-kubernetes-patch-strategy"),
            merge_key: extension(obj, "x-kubernetes-patch-merge-key"),
        };
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn parse(&mut self, schema: &Value, path: &str) -> Result<usize, MetaError> {
        let empty = Map::new();
        let obj = match schema {
            Value::Object(o) => o,
            // gnostic refuses non-object schemas; `true`/`false` would be
            // rejected by Swagger 2.0 itself.
            _ => return Err(schema_error(path, "schema is not an object".to_owned())),
        };
        let types: Vec<&str> = match obj.get("type") {
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let properties = obj.get("properties").map(|p| p.as_object().unwrap_or(&empty));
        if let Some(r) = obj.get("$ref").and_then(Value::as_str).filter(|r| !r.is_empty()) {
            if properties.is_some_and(|p| !p.is_empty()) {
                return Err(schema_error(path, "unallowed embedded type definition".to_owned()));
            }
            if !types.is_empty() {
                return Err(schema_error(path, "definition reference can't have a type".to_owned()));
            }
            let Some(target) = r.strip_prefix("#/definitions/") else {
                return Err(schema_error(path, format!("unallowed reference to non-definition {}", super::go_quote(r))));
            };
            if !self.models.contains_key(target) {
                return Err(schema_error(path, format!("unknown model in reference: {}", super::go_quote(target))));
            }
            return Ok(self.push(NodeKind::Ref { target: target.to_owned() }, obj));
        }
        match types.as_slice() {
            [] => match properties {
                Some(props) => self.parse_kind(obj, props, path),
                None => Ok(self.push(NodeKind::Arbitrary, obj)),
            },
            ["object"] => match properties {
                Some(props) => self.parse_kind(obj, props, path),
                None => {
                    if let Some(sub @ Value::Object(_)) = obj.get("additionalProperties") {
                        self.parse(sub, path)?;
                    }
                    Ok(self.push(NodeKind::Map, obj))
                }
            },
            ["array"] => {
                let item = match obj.get("items") {
                    Some(v @ Value::Object(_)) => Some(v),
                    Some(Value::Array(a)) if a.len() == 1 => Some(&a[0]),
                    _ => None,
                };
                let Some(item) = item else {
                    return Err(schema_error(path, "array should have exactly one sub-item".to_owned()));
                };
                let sub = self.parse(item, path)?;
                Ok(self.push(NodeKind::Array { sub }, obj))
            }
            [t @ ("string" | "number" | "integer" | "boolean")] => {
                let format = obj.get("format").and_then(Value::as_str).unwrap_or("").to_owned();
                Ok(self.push(NodeKind::Primitive { ty: (*t).to_owned(), format }, obj))
            }
            [t] => Err(schema_error(path, format!("Unknown primitive type: {}", super::go_quote(t)))),
            _ => Err(schema_error(path, "definitions with multiple types aren't supported".to_owned())),
        }
    }

    fn parse_kind(&mut self, obj: &Map<String, Value>, props: &Map<String, Value>, path: &str) -> Result<usize, MetaError> {
        let mut fields = HashMap::new();
        for (name, sub) in props {
            let id = self.parse(sub, &format!("{path}.{name}"))?;
            fields.insert(name.clone(), id);
        }
        Ok(self.push(NodeKind::Kind { path: path.to_owned(), fields }, obj))
    }

    /// The schema a chain of references ends at. Definitions are checked to
    /// exist, so a chain either ends or comes back to a definition it went
    /// through: a cycle, named from its first definition.
    fn resolve(&self, mut id: usize) -> Result<usize, MetaError> {
        let mut seen: Vec<&str> = Vec::new();
        while let NodeKind::Ref { target } = &self.nodes[id].kind {
            if let Some(start) = seen.iter().position(|s| s == target) {
                let mut ring: Vec<String> = seen[start..].iter().map(|s| (*s).to_owned()).collect();
                ring.push(target.clone());
                return Err(MetaError::ReferenceCycle(ring));
            }
            seen.push(target);
            id = self.models[target];
        }
        Ok(id)
    }

    fn patch_meta(&self, id: usize) -> Result<PatchMeta<'_>, MetaError> {
        let node = &self.nodes[id];
        let strategy = match &node.strategy {
            Ext::Absent => None,
            Ext::Str(s) => Some(s.as_str()),
            Ext::Bad(t) => return Err(MetaError::BadExtensionType(t.clone())),
        };
        let merge_key = match &node.merge_key {
            Ext::Absent => "",
            Ext::Str(s) => s.as_str(),
            Ext::Bad(t) => return Err(MetaError::BadExtensionType(t.clone())),
        };
        Ok(PatchMeta::new(strategy, merge_key))
    }

    fn name_of(&self, id: usize) -> String {
        match &self.nodes[id].kind {
            NodeKind::Kind { fields, .. } => {
                let mut names: Vec<&str> = fields.keys().map(String::as_str).collect();
                names.sort_unstable();
                format!("Kind([{}])", names.join(" "))
            }
            NodeKind::Map => "Map".to_owned(),
            NodeKind::Array { sub } => format!("Array of {}", self.name_of(*sub)),
            NodeKind::Primitive { ty, format } if format.is_empty() => ty.clone(),
            NodeKind::Primitive { ty, format } => format!("{ty} ({format})"),
            NodeKind::Arbitrary => "Arbitrary value (primitive, object or array)".to_owned(),
            NodeKind::Ref { target } => format!("Reference to {}", super::go_quote(target)),
        }
    }

    /// `sliceItem.VisitKind` on the object `kind_id`, then the visit of the
    /// field's own schema.
    fn slice_in_kind(&self, kind_id: usize, key: &str) -> Result<(Option<usize>, PatchMeta<'_>), MetaError> {
        let NodeKind::Kind { path, fields } = &self.nodes[kind_id].kind else { unreachable!("slice_in_kind on a kind") };
        let Some(&field) = fields.get(key) else {
            return Err(MetaError::FieldNotFound { path: path.clone(), field: key.to_owned() });
        };
        let meta = self.patch_meta(field)?;
        match &self.nodes[field].kind {
            NodeKind::Ref { target } => Ok((Some(self.models[target]), meta)),
            NodeKind::Array { sub } => Ok((Some(*sub), meta)),
            NodeKind::Primitive { .. } => Err(MetaError::ExpectedSlice("primitive")),
            NodeKind::Map => Err(MetaError::ExpectedSlice("map")),
            NodeKind::Arbitrary => Ok((None, meta)),
            // An inline object visited again with the same key.
            NodeKind::Kind { .. } => self.slice_in_kind(field, key),
        }
    }
}

/// One schema of an [`OpenApiV2Meta`] (`None`: no schema, every lookup
/// succeeds without metadata, as for an arbitrary-typed field in Go).
#[derive(Debug, Clone, Copy)]
pub struct OpenApiV2Lookup<'a> {
    doc: &'a OpenApiV2Meta,
    node: Option<usize>,
}

impl<'a> OpenApiV2Lookup<'a> {
    fn at(&self, node: Option<usize>) -> Self {
        OpenApiV2Lookup { doc: self.doc, node }
    }
}

impl<'a> LookupPatchMeta<'a> for OpenApiV2Lookup<'a> {
    fn lookup_for_struct(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError> {
        let Some(id) = self.node else {
            return Ok((self.at(None), PatchMeta::default()));
        };
        let doc: &'a OpenApiV2Meta = self.doc;
        let id = doc.resolve(id)?;
        match &doc.nodes[id].kind {
            NodeKind::Kind { path, fields } => match fields.get(key) {
                Some(&field) => Ok((self.at(Some(field)), doc.patch_meta(field)?)),
                None => Err(MetaError::FieldNotFound { path: path.clone(), field: key.to_owned() }),
            },
            NodeKind::Primitive { .. } => Err(MetaError::ExpectedKind("primitive")),
            NodeKind::Array { .. } => Err(MetaError::ExpectedKind("slice")),
            NodeKind::Map => Err(MetaError::ExpectedKind("map")),
            NodeKind::Arbitrary => Ok((self.at(None), PatchMeta::default())),
            // `resolve` follows every reference.
            NodeKind::Ref { .. } => Err(MetaError::ExpectedKind("reference")),
        }
    }

    fn lookup_for_slice(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError> {
        let Some(id) = self.node else {
            return Ok((self.at(None), PatchMeta::default()));
        };
        let doc: &'a OpenApiV2Meta = self.doc;
        let id = doc.resolve(id)?;
        match &doc.nodes[id].kind {
            NodeKind::Kind { .. } => {
                let (sub, meta) = doc.slice_in_kind(id, key)?;
                Ok((self.at(sub), meta))
            }
            NodeKind::Primitive { .. } => Err(MetaError::ExpectedSlice("primitive")),
            NodeKind::Map => Err(MetaError::ExpectedSlice("map")),
            NodeKind::Array { .. } => Err(MetaError::ExpectedVisitKindFirst),
            NodeKind::Arbitrary => Ok((self.at(None), PatchMeta::default())),
            // `resolve` follows every reference.
            NodeKind::Ref { .. } => Err(MetaError::ExpectedSlice("reference")),
        }
    }

    fn name(&self) -> String {
        match self.node {
            Some(id) => self.doc.name_of(id),
            None => "<nil>".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> OpenApiV2Meta {
        OpenApiV2Meta::from_document(&json!({
            "swagger": "2.0",
            "definitions": {
                "item": {
                    "properties": {
                        "name": {"type": "string"},
                        "list": {"type": "array", "items": {"$ref": "#/definitions/item"},
                                 "x-kubernetes-patch-strategy": "merge,retainKeys",
                                 "x-kubernetes-patch-merge-key": "name"},
                        "ptr": {"$ref": "#/definitions/item", "x-kubernetes-patch-strategy": "merge",
                                "x-kubernetes-patch-merge-key": "name"},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                        "any": {"description": "anything"},
                        "bad": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": 3}
                    },
                    "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Item"}]
                }
            }
        }))
        .unwrap()
    }

    #[test]
    fn reads_patch_extensions_from_property_schemas() {
        let d = doc();
        let root = d.definition("item").unwrap();
        let (elem, meta) = root.lookup_for_slice("list").unwrap();
        assert_eq!(meta.strategies(), vec!["merge", "retainKeys"]);
        assert_eq!(meta.merge_key(), "name");
        assert!(elem.lookup_for_struct("name").is_ok());
        let (_, meta) = root.lookup_for_struct("name").unwrap();
        assert_eq!(meta.raw_strategy(), None);
    }

    #[test]
    fn list_lookup_of_a_reference_yields_the_referenced_definition() {
        let d = doc();
        let root = d.definition("item").unwrap();
        let (elem, meta) = root.lookup_for_slice("ptr").unwrap();
        assert_eq!(meta.raw_strategy(), Some("merge"));
        assert!(elem.lookup_for_slice("list").is_ok());
    }

    #[test]
    fn unknown_property_fails_with_the_schema_path() {
        let d = doc();
        let root = d.definition("item").unwrap();
        let e = root.lookup_for_struct("complex").unwrap_err();
        assert_eq!(e.to_string(), "unable to find api field \"complex\" in item");
        let (elem, _) = root.lookup_for_slice("list").unwrap();
        assert_eq!(elem.lookup_for_struct("nope").unwrap_err().to_string(), "unable to find api field \"nope\" in item");
    }

    #[test]
    fn wrong_shapes_fail_like_kube_openapi_visitors() {
        let d = doc();
        let root = d.definition("item").unwrap();
        assert_eq!(root.lookup_for_slice("labels").unwrap_err().to_string(), "expected slice, but got map");
        assert_eq!(root.lookup_for_slice("name").unwrap_err().to_string(), "expected slice, but got primitive");
        let (labels, _) = root.lookup_for_struct("labels").unwrap();
        assert_eq!(labels.lookup_for_struct("x").unwrap_err().to_string(), "expected kind, but got map");
        assert_eq!(root.lookup_for_slice("bad").unwrap_err().to_string(), "expected a string, but received a int");
    }

    #[test]
    fn arbitrary_schema_answers_everything_below_without_metadata() {
        let d = doc();
        let root = d.definition("item").unwrap();
        let (any, _) = root.lookup_for_struct("any").unwrap();
        let (deeper, meta) = any.lookup_for_struct("whatever").unwrap();
        assert_eq!(meta, PatchMeta::default());
        assert!(deeper.lookup_for_slice("list").is_ok());
    }

    #[test]
    fn finds_definitions_by_group_version_kind() {
        let d = doc();
        assert!(d.for_kind("apps/v1", "Item").is_some());
        assert!(d.for_kind("v1", "Item").is_none());
    }

    #[test]
    fn reference_cycles_are_an_error_naming_the_ring_when_a_lookup_reaches_them() {
        let self_ref = OpenApiV2Meta::from_document(&json!({"definitions": {"a": {"$ref": "#/definitions/a"}}})).unwrap();
        let e = self_ref.definition("a").unwrap().lookup_for_struct("x").unwrap_err();
        assert_eq!(e.to_string(), r#"the OpenAPI definitions refer to each other in a cycle: "a" -> "a""#);
        let ring = OpenApiV2Meta::from_document(&json!({"definitions": {
            "top": {"properties": {"b": {"$ref": "#/definitions/a"}}},
            "a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}}))
        .unwrap();
        let (b, _) = ring.definition("top").unwrap().lookup_for_struct("b").unwrap();
        let e = b.lookup_for_slice("x").unwrap_err();
        assert_eq!(e.to_string(), r#"the OpenAPI definitions refer to each other in a cycle: "a" -> "b" -> "a""#);
        // A definition whose property refers back to it is recursive, not a cycle.
        let tree = OpenApiV2Meta::from_document(&json!({"definitions": {"n": {"properties": {"child": {"$ref": "#/definitions/n"}}}}})).unwrap();
        let (child, _) = tree.definition("n").unwrap().lookup_for_struct("child").unwrap();
        assert!(child.lookup_for_struct("child").is_ok());
    }

    #[test]
    fn dangling_reference_is_a_schema_error() {
        let e = OpenApiV2Meta::from_document(&json!({"definitions": {"a": {"properties": {"b": {"$ref": "#/definitions/zz"}}}}}))
            .unwrap_err();
        assert_eq!(e.to_string(), "SchemaError(a.b): unknown model in reference: \"zz\"");
    }
}
