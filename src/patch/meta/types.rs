//! Go struct-tag metadata (`PatchMetaFromStruct`) over a table of Go types.
//!
//! Go answers the lookups by reflection on the typed object: the field for a
//! JSON key is found by `encoding/json`'s rules (exact name first, else the
//! first case-insensitive match; embedded structs are already flattened in
//! the tables), the strategy and merge key are its `patchStrategy` and
//! `patchMergeKey` tags. A [`TypeTable`] holds exactly what those lookups
//! need: each struct's JSON fields with their Go types and tags.

use super::{LookupPatchMeta, MetaError, PatchMeta};
use serde_json::Value;
use std::collections::HashMap;

/// A Go type as far as the patch lookups can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GoType {
    /// A struct of the table (index).
    Struct(usize),
    /// A pointer (dereferenced once by the lookups).
    Ptr(Box<GoType>),
    /// A slice or array.
    Slice(Box<GoType>),
    /// A map (looking up a key inside it fails, as in Go).
    Map(Box<GoType>),
    /// Any other type, by its `reflect.Kind` name (`string`, `int64`, ...).
    Scalar(&'static str),
}

impl GoType {
    /// Go's `Kind().String()`.
    fn kind_name(&self) -> &'static str {
        match self {
            GoType::Struct(_) => "struct",
            GoType::Ptr(_) => "ptr",
            GoType::Slice(_) => "slice",
            GoType::Map(_) => "map",
            GoType::Scalar(k) => k,
        }
    }
}

#[derive(Debug)]
struct FieldDef {
    json: String,
    ty: GoType,
    strategy: String,
    merge_key: String,
}

#[derive(Debug)]
struct StructDef {
    /// The Go type name (`t.Name()`, empty for an anonymous struct).
    go_name: String,
    /// Fields in declaration order (the order Go tries case-insensitive
    /// matches in).
    fields: Vec<FieldDef>,
    exact: HashMap<String, usize>,
}

impl StructDef {
    /// The field Go's `encoding/json` would use for `key`: an exact match,
    /// else the first field whose name matches ignoring case.
    fn field(&self, key: &str) -> Option<&FieldDef> {
        if let Some(&i) = self.exact.get(key) {
            return Some(&self.fields[i]);
        }
        self.fields.iter().find(|f| equal_fold(&f.json, key))
    }
}

/// `bytes.EqualFold`-like comparison (Unicode simple case folding, which for
/// ASCII names is plain case-insensitivity).
fn equal_fold(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    let mut ai = a.chars();
    let mut bi = b.chars();
    loop {
        match (ai.next(), bi.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => {
                if x != y && !x.to_lowercase().eq(y.to_lowercase()) && !x.to_uppercase().eq(y.to_uppercase()) {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// Go types with their JSON fields and patch tags.
#[derive(Debug, Default)]
pub struct TypeTable {
    structs: Vec<StructDef>,
    roots: Vec<GoType>,
    by_name: HashMap<String, usize>,
}

impl TypeTable {
    /// The struct named `name` (the table's own naming: `MergeItem` in the
    /// conformance schema, `io.k8s.api.core.v1.Pod` in the built-in table).
    pub fn root(&self, name: &str) -> Option<StructMeta<'_>> {
        let &i = self.by_name.get(name)?;
        Some(StructMeta { table: self, ty: &self.roots[i] })
    }

    /// Names of the structs in the table.
    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    fn struct_index(&mut self, name: &str, go_name: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            return i;
        }
        let i = self.structs.len();
        self.structs.push(StructDef { go_name: go_name.to_owned(), fields: Vec::new(), exact: HashMap::new() });
        self.roots.push(GoType::Struct(i));
        self.by_name.insert(name.to_owned(), i);
        i
    }

    fn push_field(&mut self, st: usize, field: FieldDef) {
        let def = &mut self.structs[st];
        def.exact.entry(field.json.clone()).or_insert(def.fields.len());
        def.fields.push(field);
    }

    /// The conformance test structs (`shared/conformance/strategicpatch/
    /// schema.json`): `types.<Name>.fields.<json>` with `kind` (`scalar`,
    /// `list`, `map`, `struct`), `items` / `values` / `ref`, `pointer`,
    /// `patchStrategy`, `patchMergeKey`, `goType`, `go`.
    pub fn from_conformance_schema(doc: &Value) -> Result<TypeTable, String> {
        let types = doc.get("types").and_then(Value::as_object).ok_or("schema: no types")?;
        let mut table = TypeTable::default();
        // Anonymous structs (Go name "") are the ones some field declares
        // inline (`goType: struct{ ... }`).
        let mut anonymous: Vec<&str> = Vec::new();
        for t in types.values() {
            for f in t.get("fields").and_then(Value::as_object).into_iter().flatten().map(|(_, f)| f) {
                if f.get("goType").and_then(Value::as_str).is_some_and(|g| g.starts_with("struct{"))
                    && let Some(r) = f.get("ref").and_then(Value::as_str)
                {
                    anonymous.push(r);
                }
            }
        }
        for name in types.keys() {
            let go_name = if anonymous.contains(&name.as_str()) { "" } else { name.as_str() };
            table.struct_index(name, go_name);
        }
        for (name, t) in types {
            let st = table.by_name[name];
            let fields = t.get("fields").and_then(Value::as_object).ok_or_else(|| format!("schema: {name}: no fields"))?;
            for (json, f) in fields {
                let ty = conformance_field_type(&mut table, f).map_err(|e| format!("schema: {name}.{json}: {e}"))?;
                let ty = if f.get("pointer").and_then(Value::as_bool) == Some(true) { GoType::Ptr(Box::new(ty)) } else { ty };
                let strategy = f.get("patchStrategy").and_then(Value::as_str).unwrap_or("").to_owned();
                let merge_key = f.get("patchMergeKey").and_then(Value::as_str).unwrap_or("").to_owned();
                table.push_field(st, FieldDef { json: json.clone(), ty, strategy, merge_key });
            }
        }
        Ok(table)
    }

    /// The built-in kinds table (`k8s-v0.36.2-patchmeta.json`, see
    /// `shared/conformance/patchmeta/README.md`).
    pub(crate) fn from_patchmeta_table(doc: &Value) -> Result<TypeTable, String> {
        let types = doc.get("types").and_then(Value::as_object).ok_or("patchmeta: no types")?;
        let mut table = TypeTable::default();
        for name in types.keys() {
            table.struct_index(name, short_name(name));
        }
        for (name, t) in types {
            let st = table.by_name[name];
            let fields = t.get("fields").and_then(Value::as_object).ok_or_else(|| format!("patchmeta: {name}: no fields"))?;
            for (json, f) in fields {
                let ty = builtin_field_type(&mut table, f).map_err(|e| format!("patchmeta: {name}.{json}: {e}"))?;
                let ty = if f.get("pointer").and_then(Value::as_bool) == Some(true) { GoType::Ptr(Box::new(ty)) } else { ty };
                let strategy = f.get("patchStrategy").and_then(Value::as_str).unwrap_or("").to_owned();
                let merge_key = f.get("patchMergeKey").and_then(Value::as_str).unwrap_or("").to_owned();
                table.push_field(st, FieldDef { json: json.clone(), ty, strategy, merge_key });
            }
        }
        Ok(table)
    }
}

/// `io.k8s.api.core.v1.PodSpec` -> `PodSpec`.
fn short_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

fn conformance_scalar(t: &Value) -> Result<GoType, String> {
    if let Some(go) = t.get("go").and_then(Value::as_str) {
        return Ok(GoType::Scalar(kind_word(go)));
    }
    if t.get("goType").and_then(Value::as_str) == Some("[]byte") {
        return Ok(GoType::Slice(Box::new(GoType::Scalar("uint8"))));
    }
    match t.get("type").and_then(Value::as_str) {
        Some("string") => Ok(GoType::Scalar("string")),
        Some("integer") => Ok(GoType::Scalar("int64")),
        Some("number") => Ok(GoType::Scalar("float64")),
        Some("boolean") => Ok(GoType::Scalar("bool")),
        other => Err(format!("unknown scalar type {other:?}")),
    }
}

/// A Go kind word as a `'static` name.
fn kind_word(go: &str) -> &'static str {
    match go {
        "int" => "int",
        "int8" => "int8",
        "int16" => "int16",
        "int32" => "int32",
        "int64" => "int64",
        "uint" => "uint",
        "uint8" => "uint8",
        "uint16" => "uint16",
        "uint32" => "uint32",
        "uint64" => "uint64",
        "float32" => "float32",
        "float64" => "float64",
        "bool" => "bool",
        _ => "string",
    }
}

fn conformance_type(table: &mut TypeTable, t: &Value) -> Result<GoType, String> {
    match t.get("kind").and_then(Value::as_str) {
        Some("scalar") => conformance_scalar(t),
        Some("struct") => {
            let r = t.get("ref").and_then(Value::as_str).ok_or("struct without ref")?;
            let &i = table.by_name.get(r).ok_or_else(|| format!("unknown type {r}"))?;
            Ok(GoType::Struct(i))
        }
        Some("list") => {
            let items = t.get("items").ok_or("list without items")?;
            Ok(GoType::Slice(Box::new(conformance_type(table, items)?)))
        }
        Some("map") => {
            let values = t.get("values").ok_or("map without values")?;
            Ok(GoType::Map(Box::new(conformance_type(table, values)?)))
        }
        other => Err(format!("unknown kind {other:?}")),
    }
}

fn conformance_field_type(table: &mut TypeTable, f: &Value) -> Result<GoType, String> {
    conformance_type(table, f)
}

/// A scalar word of the built-in table, or a type name.
fn builtin_word_or_type(table: &mut TypeTable, word: &str) -> Result<GoType, String> {
    Ok(match word {
        "string" => GoType::Scalar("string"),
        "integer" => GoType::Scalar("int64"),
        "number" => GoType::Scalar("float64"),
        "boolean" => GoType::Scalar("bool"),
        "bytes" => GoType::Slice(Box::new(GoType::Scalar("uint8"))),
        // Structs with a custom JSON form and no JSON-visible fields.
        "time" => GoType::Struct(table.struct_index("$time", "Time")),
        "duration" => GoType::Struct(table.struct_index("$duration", "Duration")),
        "quantity" => GoType::Struct(table.struct_index("$quantity", "Quantity")),
        "int-or-string" => GoType::Struct(table.struct_index("$int-or-string", "IntOrString")),
        name if name.contains('.') => {
            let &i = table.by_name.get(name).ok_or_else(|| format!("unknown type {name}"))?;
            GoType::Struct(i)
        }
        other => return Err(format!("unknown scalar type {other}")),
    })
}

fn builtin_element(table: &mut TypeTable, v: &Value) -> Result<GoType, String> {
    match v {
        Value::String(w) => builtin_word_or_type(table, w),
        Value::Object(m) if m.contains_key("list") => Ok(GoType::Slice(Box::new(builtin_element(table, &m["list"])?))),
        Value::Object(m) if m.contains_key("map") => Ok(GoType::Map(Box::new(builtin_element(table, &m["map"])?))),
        other => Err(format!("unknown element type {other}")),
    }
}

fn builtin_field_type(table: &mut TypeTable, f: &Value) -> Result<GoType, String> {
    match f.get("kind").and_then(Value::as_str) {
        Some("scalar") => builtin_word_or_type(table, f.get("type").and_then(Value::as_str).ok_or("scalar without type")?),
        Some("struct" | "raw") => {
            let r = f.get("ref").and_then(Value::as_str).ok_or("struct without ref")?;
            builtin_word_or_type(table, r)
        }
        Some("list") => Ok(GoType::Slice(Box::new(builtin_element(table, f.get("items").ok_or("list without items")?)?))),
        Some("map") => Ok(GoType::Map(Box::new(builtin_element(table, f.get("values").ok_or("map without values")?)?))),
        other => Err(format!("unknown kind {other:?}")),
    }
}

/// `PatchMetaFromStruct`: a Go type of a [`TypeTable`].
#[derive(Debug, Clone, Copy)]
pub struct StructMeta<'a> {
    table: &'a TypeTable,
    ty: &'a GoType,
}

impl<'a> StructMeta<'a> {
    fn at(&self, ty: &'a GoType) -> StructMeta<'a> {
        StructMeta { table: self.table, ty }
    }
}

impl<'a> LookupPatchMeta<'a> for StructMeta<'a> {
    fn lookup_for_struct(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError> {
        let mut t = self.ty;
        if let GoType::Ptr(inner) = t {
            t = inner;
        }
        let GoType::Struct(i) = t else {
            return Err(MetaError::NotStruct { kind: t.kind_name().to_owned() });
        };
        let def = &self.table.structs[*i];
        match def.field(key) {
            Some(f) => Ok((self.at(&f.ty), PatchMeta::new(Some(&f.strategy), &f.merge_key))),
            None => Err(MetaError::FieldNotInStruct { struct_name: def.go_name.clone(), field: key.to_owned() }),
        }
    }

    fn lookup_for_slice(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError> {
        let (sub, meta) = self.lookup_for_struct(key)?;
        let elem = match sub.ty {
            GoType::Slice(e) => {
                if matches!(**e, GoType::Slice(_)) {
                    return Err(MetaError::SliceOfSlice);
                }
                &**e
            }
            GoType::Ptr(inner) => match &**inner {
                GoType::Slice(e) => &**e,
                other => other,
            },
            // Go prints the kind of the containing type here.
            _ => return Err(MetaError::NotSlice { kind: self.ty.kind_name().to_owned() }),
        };
        Ok((self.at(elem), meta))
    }

    fn name(&self) -> String {
        self.ty.kind_name().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table() -> TypeTable {
        TypeTable::from_conformance_schema(&json!({
            "types": {
                "Item": {"fields": {
                    "name": {"kind": "scalar", "type": "string"},
                    "list": {"kind": "list", "items": {"kind": "struct", "ref": "Item"},
                             "patchStrategy": "merge", "patchMergeKey": "name"},
                    "ints": {"kind": "list", "items": {"kind": "scalar", "type": "integer", "go": "int"}},
                    "ptr": {"kind": "struct", "ref": "Item", "pointer": true, "patchStrategy": "merge", "patchMergeKey": "name"},
                    "plain": {"kind": "struct", "ref": "Item"},
                    "labels": {"kind": "map", "values": {"kind": "scalar", "type": "string"}},
                    "anon": {"kind": "struct", "ref": "Anon", "goType": "struct{ Raw []byte }"},
                    "Upper": {"kind": "scalar", "type": "string"}
                }},
                "Anon": {"fields": {"Raw": {"kind": "scalar", "type": "string", "goType": "[]byte"}}}
            }
        }))
        .unwrap()
    }

    #[test]
    fn struct_lookup_returns_tags_and_field_type() {
        let t = table();
        let root = t.root("Item").unwrap();
        let (_, meta) = root.lookup_for_struct("ptr").unwrap();
        assert_eq!(meta.raw_strategy(), Some("merge"));
        assert_eq!(meta.merge_key(), "name");
        let (_, meta) = root.lookup_for_struct("plain").unwrap();
        assert_eq!(meta.raw_strategy(), Some(""));
        assert_eq!(meta.merge_key(), "");
    }

    #[test]
    fn field_names_match_case_insensitively_when_no_exact_match() {
        let t = table();
        let root = t.root("Item").unwrap();
        assert!(root.lookup_for_struct("upper").is_ok());
        assert!(root.lookup_for_struct("LIST").is_ok());
        let (anon, _) = root.lookup_for_struct("anon").unwrap();
        assert!(anon.lookup_for_struct("raw").is_ok());
    }

    #[test]
    fn unknown_field_fails_with_go_message() {
        let t = table();
        let root = t.root("Item").unwrap();
        let e = root.lookup_for_struct("nope").unwrap_err();
        assert_eq!(e.to_string(), "unable to find api field in struct Item for the json field \"nope\"");
        let (anon, _) = root.lookup_for_struct("anon").unwrap();
        let e = anon.lookup_for_struct("nested").unwrap_err();
        assert_eq!(e.to_string(), "unable to find api field in struct  for the json field \"nested\"");
    }

    #[test]
    fn lookup_inside_a_map_or_scalar_fails_as_not_struct() {
        let t = table();
        let root = t.root("Item").unwrap();
        let (labels, _) = root.lookup_for_struct("labels").unwrap();
        let e = labels.lookup_for_struct("x").unwrap_err();
        assert_eq!(e.to_string(), "merging an object in json but data type is not struct, instead is: map");
        let (name, _) = root.lookup_for_struct("name").unwrap();
        assert_eq!(name.lookup_for_struct("x").unwrap_err().to_string(), "merging an object in json but data type is not struct, instead is: string");
    }

    #[test]
    fn slice_lookup_steps_into_the_element_type() {
        let t = table();
        let root = t.root("Item").unwrap();
        let (elem, meta) = root.lookup_for_slice("list").unwrap();
        assert_eq!(meta.merge_key(), "name");
        assert!(elem.lookup_for_struct("name").is_ok());
        let (elem, _) = root.lookup_for_slice("ints").unwrap();
        assert_eq!(elem.name(), "int");
    }

    #[test]
    fn slice_lookup_through_a_pointer_to_struct_yields_the_struct() {
        let t = table();
        let root = t.root("Item").unwrap();
        let (elem, meta) = root.lookup_for_slice("ptr").unwrap();
        assert_eq!(meta.raw_strategy(), Some("merge"));
        assert_eq!(elem.name(), "struct");
    }

    #[test]
    fn slice_lookup_on_a_non_slice_reports_the_parent_kind() {
        let t = table();
        let root = t.root("Item").unwrap();
        let e = root.lookup_for_slice("plain").unwrap_err();
        assert_eq!(e.to_string(), "expected slice or array type, but got: struct");
    }
}
