//! Helm 4's server-side apply, previewed without a server.
//!
//! Helm sends the whole target object as an apply patch with
//! `fieldManager=helm` and `force=<--force-conflicts>`; the API server merges
//! it with structured-merge-diff (SMD) and answers 409 when another field
//! manager owns a field the body changes. This module predicts that answer
//! from the live object's `metadata.managedFields`:
//!
//! - [`apply_body`]: the object Helm sends;
//! - [`parse_managed_fields`] / [`parse_fields_v1`]: `fieldsV1` tries
//!   (`f:`, `k:{..}`, `v:..`, `i:N`, `.`) into sets of [`FieldPath`]s;
//! - [`upgrade_client_side_managers`]: client-go `csaupgrade`, which Helm runs
//!   before applying when the baseline release was client-side applied;
//! - [`preview_apply`] / [`predict_conflicts`]: conflicts (or take-overs with
//!   force) and the fields the apply will prune;
//! - [`conflict_message`]: Helm's wrapped error text, byte for byte.
//!
//! Sources: apimachinery `pkg/util/managedfields/internal` (`conflict.go`,
//! `managedfields.go`, `stripmeta.go`), structured-merge-diff v6
//! (`fieldpath/{element,path,set,serialize,serialize-pe}.go`,
//! `merge/{update,conflict}.go`, `typed/{compare,tofieldset}.go`), client-go
//! `util/csaupgrade/upgrade.go`. Pure functions, no I/O.

use crate::go::json::{format_go_float64_g, go_quote as json_quote, to_go_json};
use crate::patch::meta::{builtin_kind, builtin_raw_table, go_quote};
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use thiserror::Error;

// ---------------------------------------------------------------------------
// The apply body
// ---------------------------------------------------------------------------

/// The object Helm sends as the apply patch.
///
/// Helm encodes the target with `unstructured.UnstructuredJSONScheme`, i.e.
/// Go's `json.Marshal` of the `map[string]interface{}` it parsed from the
/// manifest: nothing is dropped or defaulted. `null` values stay `null`,
/// empty maps, lists
/// and strings stay as written, and map keys come out sorted (Go sorts map
/// keys when encoding). So the body is the target with every object's keys
/// sorted; its values are untouched. (A `null` is still a field the body
/// sets: SMD puts it in `helm`'s field set; what the server stores for it is
/// not modelled here.)
pub fn apply_body(obj: &Value) -> Value {
    match obj {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::with_capacity(m.len());
            for k in keys {
                if let Some(v) = m.get(k) {
                    out.insert(k.clone(), apply_body(v));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(apply_body).collect()),
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------
// Field paths
// ---------------------------------------------------------------------------

/// One step of a [`FieldPath`] (SMD `fieldpath.PathElement`).
#[derive(Debug, Clone)]
pub enum PathElement {
    /// `f:name`: a field of a map or struct.
    Field(String),
    /// `k:{...}`: the item of an associative list with these key fields,
    /// sorted by name.
    Key(Vec<(String, Value)>),
    /// `v:json`: the item of a set (a list of scalars) with this value.
    Value(Value),
    /// `i:N`: an item of a list by index.
    Index(i64),
}

impl PathElement {
    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }
}

/// SMD `PathElement.Compare`: fields < keys < values < indexes, then by
/// content.
impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.as_bytes().cmp(b.as_bytes()),
            (PathElement::Key(a), PathElement::Key(b)) => {
                for ((an, av), (bn, bv)) in a.iter().zip(b.iter()) {
                    let c = an.as_bytes().cmp(bn.as_bytes()).then_with(|| smd_cmp(av, bv));
                    if c != Ordering::Equal {
                        return c;
                    }
                }
                a.len().cmp(&b.len())
            }
            (PathElement::Value(a), PathElement::Value(b)) => smd_cmp(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}
impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for PathElement {}

/// As the API server prints it (SMD `PathElement.String`): `.name`,
/// `[k1="v",k2=80]`, `[="value"]`, `[3]`.
impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(n) => write!(f, ".{n}"),
            PathElement::Key(fields) => {
                let parts: Vec<String> = fields.iter().map(|(n, v)| format!("{n}={}", smd_to_string(v))).collect();
                write!(f, "[{}]", parts.join(","))
            }
            PathElement::Value(v) => write!(f, "[={}]", smd_to_string(v)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path to a field (SMD `fieldpath.Path`), ordered as SMD orders paths.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct FieldPath(pub Vec<PathElement>);

impl FieldPath {
    /// The path of plain field names, e.g. `["spec", "replicas"]`.
    pub fn fields(names: &[&str]) -> FieldPath {
        FieldPath(names.iter().map(|n| PathElement::Field((*n).to_owned())).collect())
    }

    fn child(&self, pe: PathElement) -> FieldPath {
        let mut v = self.0.clone();
        v.push(pe);
        FieldPath(v)
    }

    fn starts_with(&self, prefix: &FieldPath) -> bool {
        self.0.len() >= prefix.0.len() && self.0.iter().zip(prefix.0.iter()).all(|(a, b)| a == b)
    }
}

/// `Path.String()`: the elements printed one after the other
/// (`.spec.containers[name="web"].image`).
impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pe in &self.0 {
            write!(f, "{pe}")?;
        }
        Ok(())
    }
}

/// SMD `value.Compare`: numbers (compared numerically, ints and floats alike)
/// < strings < bools < lists < maps < null.
fn smd_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => num_cmp(x, y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let c = smd_cmp(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            // Maps compare by their sorted entries, shorter first on a tie.
            let mut xs: Vec<_> = x.iter().collect();
            let mut ys: Vec<_> = y.iter().collect();
            xs.sort_by(|p, q| p.0.cmp(q.0));
            ys.sort_by(|p, q| p.0.cmp(q.0));
            for ((kx, vx), (ky, vy)) in xs.iter().zip(ys.iter()) {
                let c = kx.as_bytes().cmp(ky.as_bytes()).then_with(|| smd_cmp(vx, vy));
                if c != Ordering::Equal {
                    return c;
                }
            }
            xs.len().cmp(&ys.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

fn num_cmp(x: &Number, y: &Number) -> Ordering {
    match (x.as_i64(), y.as_i64()) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => {
            let a = x.as_f64().unwrap_or(f64::NAN);
            let b = y.as_f64().unwrap_or(f64::NAN);
            a.partial_cmp(&b).unwrap_or(Ordering::Equal)
        }
    }
}

/// SMD value equality (numbers numerically, so the float64 `80` Go decodes
/// from `fieldsV1` equals the int `80` of an object).
fn smd_eq(a: &Value, b: &Value) -> bool {
    smd_cmp(a, b) == Ordering::Equal
}

/// SMD `value.ToString`: floats and ints with `%v`, strings with `%q`.
fn smd_to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_f64() {
                n.as_f64().and_then(format_go_float64_g).unwrap_or_else(|| n.to_string())
            } else {
                n.to_string()
            }
        }
        Value::String(s) => go_quote(s),
        Value::Array(items) => format!("[{}]", items.iter().map(smd_to_string).collect::<Vec<_>>().join(",")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().filter_map(|k| m.get(*k).map(|v| format!("{k}={}", smd_to_string(v)))).collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}

/// Numbers as Go's JSON decoder gives them to SMD: float64.
fn as_go_decoded(v: Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().and_then(Number::from_f64).map(Value::Number).unwrap_or(Value::Number(n)),
        Value::Array(items) => Value::Array(items.into_iter().map(as_go_decoded).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, as_go_decoded(v))).collect()),
        other => other,
    }
}

// ---------------------------------------------------------------------------
// fieldsV1
// ---------------------------------------------------------------------------

/// Errors reading managed fields or the objects.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SsaError {
    /// A `fieldsV1` key that is not a path element (SMD's messages).
    #[error("parsing key as path element: {0}")]
    PathElement(String),
    /// A `fieldsV1` value that is not an object.
    #[error("error decoding set: {0}")]
    FieldsShape(String),
    /// `metadata.managedFields` is not a list of objects.
    #[error("failed to decode managed fields: {0}")]
    ManagedFieldsShape(String),
    /// apimachinery `DecodeManagedFields`.
    #[error("operation must be `Apply` or `Update`")]
    Operation,
    /// apimachinery `DecodeManagedFields`.
    #[error("apiVersion must not be empty")]
    EmptyApiVersion,
    /// apimachinery `DecodeManagedFields`.
    #[error("missing fieldsType in managed fields entry {0}")]
    MissingFieldsType(usize),
    /// apimachinery `DecodeManagedFields`.
    #[error("invalid fieldsType {} in managed fields entry {index}", go_quote(.fields_type))]
    InvalidFieldsType { index: usize, fields_type: String },
    /// An associative-list item without one of its keys (and no default):
    /// the server rejects such an apply body.
    #[error("{path}: associative list with keys has an element that omits key field {}", go_quote(.key))]
    MissingListKey { path: String, key: String },
    /// An associative-list item that is not an object.
    #[error("{path}: associative list with keys has an element that is not a map")]
    ListItemNotMap { path: String },
    /// The same key twice in the apply body (the server refuses duplicates in
    /// applied objects).
    #[error("{path}: duplicate entries in the apply body")]
    Duplicate { path: String },
}

/// SMD `DeserializePathElement`. `Ok(None)` for an unknown element type,
/// which SMD skips ("a future version maybe knows what they are").
pub fn parse_path_element(s: &str) -> Result<Option<PathElement>, SsaError> {
    let b = s.as_bytes();
    if b.len() < 2 {
        return Err(SsaError::PathElement("key must be 2 characters long:".to_owned()));
    }
    if b[1] != b':' {
        return Err(SsaError::PathElement(format!("missing colon: {s}")));
    }
    // The first two bytes are ASCII here, so slicing at 2 is a char boundary.
    let rest = &s[2..];
    match b[0] {
        b'f' => Ok(Some(PathElement::Field(rest.to_owned()))),
        b'v' => {
            let v: Value = serde_json::from_str(rest).map_err(|e| SsaError::PathElement(e.to_string()))?;
            Ok(Some(PathElement::Value(as_go_decoded(v))))
        }
        b'k' => {
            let v: Value = serde_json::from_str(rest).map_err(|e| SsaError::PathElement(e.to_string()))?;
            let Value::Object(m) = v else {
                return Err(SsaError::PathElement(format!("key is not a JSON object: {rest}")));
            };
            let mut fields: Vec<(String, Value)> = m.into_iter().map(|(k, v)| (k, as_go_decoded(v))).collect();
            fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Ok(Some(PathElement::Key(fields)))
        }
        // strconv.Atoi: optional sign, decimal digits, nothing else.
        b'i' => rest
            .parse::<i64>()
            .map(|i| Some(PathElement::Index(i)))
            .map_err(|e| SsaError::PathElement(format!("strconv.Atoi: parsing {}: {e}", go_quote(rest)))),
        _ => Ok(None),
    }
}

/// SMD `SerializePathElement` (the `fieldsV1` key of an element).
pub fn serialize_path_element(pe: &PathElement) -> String {
    match pe {
        PathElement::Field(n) => format!("f:{n}"),
        PathElement::Key(fields) => {
            let mut out = String::from("k:{");
            for (i, (n, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_quote(n));
                out.push(':');
                out.push_str(&to_go_json(&apply_body(v)));
            }
            out.push('}');
            out
        }
        PathElement::Value(v) => format!("v:{}", to_go_json(&apply_body(v))),
        PathElement::Index(i) => format!("i:{i}"),
    }
}

/// A set of field paths: the members of a `fieldsV1` trie.
pub type FieldSet = BTreeSet<FieldPath>;

/// SMD `Set.FromJSON`: a node is a member when it holds `"."` or has no
/// children.
pub fn parse_fields_v1(v: &Value) -> Result<FieldSet, SsaError> {
    let mut out = FieldSet::new();
    let Value::Object(m) = v else {
        return Err(SsaError::FieldsShape("fieldsV1 is not an object".to_owned()));
    };
    read_fields(m, &FieldPath::default(), &mut out)?;
    Ok(out)
}

/// Returns whether the node at `prefix` is a member.
fn read_fields(m: &Map<String, Value>, prefix: &FieldPath, out: &mut FieldSet) -> Result<bool, SsaError> {
    let mut member = false;
    let mut has_children = false;
    for (k, child) in m {
        if k == "." {
            member = true;
            continue;
        }
        let Some(pe) = parse_path_element(k)? else { continue };
        let Value::Object(cm) = child else {
            return Err(SsaError::FieldsShape(format!("value of {} is not an object", go_quote(k))));
        };
        has_children = true;
        let path = prefix.child(pe);
        if read_fields(cm, &path, out)? {
            out.insert(path);
        }
    }
    Ok(member || !has_children)
}

/// `metav1.ManagedFieldsOperationType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One `metadata.managedFields` entry, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct ManagedEntry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// The entry's `time` as written (RFC 3339).
    pub time: Option<String>,
    pub subresource: String,
    pub fields: FieldSet,
}

impl ManagedEntry {
    /// apimachinery `BuildManagerIdentifier`: the entry as Go's `json.Marshal`
    /// writes it without fields type, fields and time, and without the API
    /// version for appliers. This string is the manager's identity on the
    /// server (and what conflict groups are sorted by).
    pub fn identifier(&self) -> String {
        let mut s = String::from("{");
        let mut first = true;
        let mut put = |s: &mut String, k: &str, v: &str| {
            if !first {
                s.push(',');
            }
            first = false;
            s.push_str(&json_quote(k));
            s.push(':');
            s.push_str(&json_quote(v));
        };
        // metav1.ManagedFieldsEntry field order, all omitempty.
        if !self.manager.is_empty() {
            put(&mut s, "manager", &self.manager);
        }
        put(&mut s, "operation", self.operation.as_str());
        if self.operation == Operation::Update && !self.api_version.is_empty() {
            put(&mut s, "apiVersion", &self.api_version);
        }
        if !self.subresource.is_empty() {
            put(&mut s, "subresource", &self.subresource);
        }
        s.push('}');
        s
    }
}

/// apimachinery `DecodeManagedFields` over `metadata.managedFields` of
/// `obj` (absent means none). Entries sharing an identifier collapse into
/// the last one, as Go's map assignment does.
pub fn parse_managed_fields(obj: &Value) -> Result<Vec<ManagedEntry>, SsaError> {
    let list = match obj.pointer("/metadata/managedFields") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(l)) => l,
        Some(_) => return Err(SsaError::ManagedFieldsShape("metadata.managedFields is not a list".to_owned())),
    };
    let mut out: Vec<ManagedEntry> = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let Value::Object(m) = e else {
            return Err(SsaError::ManagedFieldsShape(format!("entry {i} is not an object")));
        };
        let text = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let operation = match text("operation").as_str() {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return Err(SsaError::Operation),
        };
        let api_version = text("apiVersion");
        if api_version.is_empty() {
            return Err(SsaError::EmptyApiVersion);
        }
        match text("fieldsType").as_str() {
            "FieldsV1" => {}
            "" => return Err(SsaError::MissingFieldsType(i)),
            other => return Err(SsaError::InvalidFieldsType { index: i, fields_type: other.to_owned() }),
        }
        let fields = match m.get("fieldsV1") {
            None | Some(Value::Null) => FieldSet::new(),
            Some(v) => parse_fields_v1(v)?,
        };
        let entry = ManagedEntry {
            manager: text("manager"),
            operation,
            api_version,
            time: m.get("time").and_then(Value::as_str).map(str::to_owned),
            subresource: text("subresource"),
            fields,
        };
        let id = entry.identifier();
        out.retain(|o| o.identifier() != id);
        out.push(entry);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// CSA -> SSA
// ---------------------------------------------------------------------------

/// client-go `csaupgrade.UpgradeManagedFieldsPatch(obj, {csa}, ssa)` as Helm
/// calls it (`csa` = `ssa` = `helm`), on decoded entries:
///
/// - target: `ssa`'s `Apply` entry (no subresource); if there is none, the
///   first `csa` `Update` entry (no subresource) is renamed and becomes
///   `Apply` (keeping its API version and time);
/// - the first `csa` `Update` entry with the target's API version is unioned
///   into the target;
/// - every `csa` `Update` entry without subresource is then dropped, including
///   those of other API versions, whose fields are forgotten.
///
/// Entries with a subresource are left alone.
pub fn upgrade_client_side_managers(entries: &[ManagedEntry], csa: &str, ssa: &str) -> Vec<ManagedEntry> {
    let is_csa = |e: &ManagedEntry| e.manager == csa && e.operation == Operation::Update && e.subresource.is_empty();
    let mut entries = entries.to_vec();
    let target = match entries
        .iter()
        .position(|e| e.manager == ssa && e.operation == Operation::Apply && e.subresource.is_empty())
    {
        Some(i) => i,
        None => match entries.iter().position(is_csa) {
            Some(i) => {
                entries[i].operation = Operation::Apply;
                entries[i].manager = ssa.to_owned();
                i
            }
            None => return entries,
        },
    };
    let api_version = entries[target].api_version.clone();
    if let Some(src) = entries.iter().position(|e| is_csa(e) && e.api_version == api_version) {
        let extra = entries[src].fields.clone();
        entries[target].fields.extend(extra);
    }
    entries.into_iter().filter(|e| !is_csa(e)).collect()
}

// ---------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Objects as field trees
// ---------------------------------------------------------------------------

/// One node of an object: its value and whether SMD compares it as a leaf
/// (scalar, null, atomic list or object) or only by presence.
#[derive(Debug, Clone, Copy)]
struct Node<'v> {
    value: &'v Value,
    leaf: bool,
}

/// An object's nodes by path, and the members of its field set
/// (SMD `ToFieldSet`).
#[derive(Default)]
struct Tree<'v> {
    nodes: BTreeMap<FieldPath, Node<'v>>,
    members: FieldSet,
}

/// Fields the server never records in managed fields (apimachinery
/// `stripmeta.go`): they can neither conflict nor be pruned.
fn stripped(path: &FieldPath) -> bool {
    let names: Vec<&str> = path
        .0
        .iter()
        .map(|pe| match pe {
            PathElement::Field(n) => n.as_str(),
            _ => "\u{0}",
        })
        .collect();
    matches!(
        names.as_slice(),
        ["apiVersion"]
            | ["kind"]
            | ["metadata"]
            | [
                "metadata",
                "name"
                    | "namespace"
                    | "creationTimestamp"
                    | "selfLink"
                    | "uid"
                    | "clusterName"
                    | "generation"
                    | "managedFields"
                    | "resourceVersion"
            ]
    ) || matches!(names.as_slice(), ["metadata", "managedFields", ..])
}

/// Walks `v`; `strict` (the apply body) rejects what the server rejects in
/// an applied object, the live object is read leniently.
fn walk<'v>(v: &'v Value, schema: &dyn SsaSchema, strict: bool) -> Result<Tree<'v>, SsaError> {
    let mut t = Tree::default();
    walk_node(v, &FieldPath::default(), schema, strict, &mut t)?;
    t.nodes.retain(|p, _| !stripped(p) && !schema.reset_field(p));
    t.members.retain(|p| !stripped(p) && !schema.reset_field(p));
    Ok(t)
}

fn walk_node<'v>(
    v: &'v Value,
    path: &FieldPath,
    schema: &dyn SsaSchema,
    strict: bool,
    t: &mut Tree<'v>,
) -> Result<(), SsaError> {
    let root = path.0.is_empty();
    match v {
        Value::Object(m) if root || !schema.atomic_object(path) => {
            if !root {
                t.nodes.insert(path.clone(), Node { value: v, leaf: false });
                if m.is_empty() {
                    t.members.insert(path.clone());
                }
            }
            let map = !root && schema.is_map(path);
            for (k, child) in m {
                let cp = path.child(PathElement::Field(k.clone()));
                walk_node(child, &cp, schema, strict, t)?;
                // tofieldset.go: map keys, nulls and empty objects are members
                // themselves; struct fields only through their leaves.
                if map || child.is_null() {
                    t.members.insert(cp);
                }
            }
        }
        Value::Array(items) => match schema.list_type(path) {
            ListType::Atomic => {
                t.nodes.insert(path.clone(), Node { value: v, leaf: true });
                t.members.insert(path.clone());
            }
            lt => {
                t.nodes.insert(path.clone(), Node { value: v, leaf: false });
                let mut seen = FieldSet::new();
                for item in items {
                    let pe = item_element(item, path, &lt, schema)?;
                    let ip = path.child(pe);
                    if !seen.insert(ip.clone()) {
                        if strict {
                            return Err(SsaError::Duplicate { path: ip.to_string() });
                        }
                        continue;
                    }
                    t.members.insert(ip.clone());
                    match lt {
                        ListType::Set => {
                            t.nodes.insert(ip, Node { value: item, leaf: false });
                        }
                        _ => walk_node(item, &ip, schema, strict, t)?,
                    }
                }
            }
        },
        _ => {
            t.nodes.insert(path.clone(), Node { value: v, leaf: true });
            t.members.insert(path.clone());
        }
    }
    Ok(())
}

/// SMD `listItemToPathElement` for a set or an associative list.
fn item_element(item: &Value, path: &FieldPath, lt: &ListType, schema: &dyn SsaSchema) -> Result<PathElement, SsaError> {
    let ListType::Map(keys) = lt else {
        return Ok(PathElement::Value(item.clone()));
    };
    let Value::Object(m) = item else {
        return Err(SsaError::ListItemNotMap { path: path.to_string() });
    };
    let mut fields = Vec::with_capacity(keys.len());
    for k in keys {
        let v = match m.get(k) {
            Some(v) => v.clone(),
            None => schema
                .key_default(path, k)
                .ok_or_else(|| SsaError::MissingListKey { path: path.to_string(), key: k.clone() })?,
        };
        fields.push((k.clone(), v));
    }
    fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(PathElement::Key(fields))
}

// ---------------------------------------------------------------------------
// Conflicts and removals
// ---------------------------------------------------------------------------

/// A field another manager owns and the apply would change.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub manager: String,
    pub operation: Operation,
    pub subresource: String,
    /// The owning entry's API version (only `Update` managers print it).
    pub api_version: String,
    /// The owning entry's time. The server's message never shows it: the
    /// manager identity it prints from has no time (`BuildManagerIdentifier`).
    pub time: Option<String>,
    pub path: FieldPath,
}

impl Conflict {
    fn entry_identity(&self) -> ManagedEntry {
        ManagedEntry {
            manager: self.manager.clone(),
            operation: self.operation,
            api_version: self.api_version.clone(),
            time: None,
            subresource: self.subresource.clone(),
            fields: FieldSet::new(),
        }
    }

    /// The manager as the server names it in messages (`printManager`).
    pub fn manager_text(&self) -> String {
        print_manager(&self.entry_identity().identifier())
    }
}

/// What applying `body` over `live` would do.
#[derive(Debug, Clone, PartialEq)]
pub struct ApplyPreview {
    /// The body Helm sends ([`apply_body`]).
    pub body: Value,
    /// Fields owned by other managers that the body changes, grouped and
    /// ordered as the server reports them. Without force the apply fails
    /// with these; with force `helm` takes them over.
    pub conflicts: Vec<Conflict>,
    /// Whether `force=true` is sent (then `conflicts` are take-overs).
    pub force: bool,
    /// Fields `helm` applied last time, absent from the body, that no other
    /// manager owns: the server removes them (topmost paths only).
    pub removals: Vec<FieldPath>,
}

/// How Helm applies.
#[derive(Debug, Clone, Copy)]
pub struct ApplyOptions<'a> {
    /// The field manager (`helm`).
    pub manager: &'a str,
    /// `--force-conflicts`.
    pub force: bool,
    /// The baseline release was client-side applied: Helm first moves the
    /// manager's `Update` entries into its `Apply` entry.
    pub upgrade_client_side: bool,
}

/// Predicts Helm's apply of `target` (with Helm's metadata already added)
/// over `live` (`None` when the object does not exist: a create, which
/// cannot conflict).
pub fn preview_apply(
    live: Option<&Value>,
    target: &Value,
    opts: ApplyOptions<'_>,
    schema: &dyn SsaSchema,
) -> Result<ApplyPreview, SsaError> {
    let body = apply_body(target);
    let Some(live) = live else {
        return Ok(ApplyPreview { body, conflicts: Vec::new(), force: opts.force, removals: Vec::new() });
    };
    let mut entries = parse_managed_fields(live)?;
    if opts.upgrade_client_side {
        entries = upgrade_client_side_managers(&entries, opts.manager, opts.manager);
    }
    let body_tree = walk(&body, schema, true)?;
    let live_tree = walk(live, schema, false)?;
    let conflicts = conflicts_of(&entries, &body_tree, &live_tree, opts.manager);
    let removals = removals_of(&entries, &body_tree, &live_tree, opts.manager);
    Ok(ApplyPreview { body, conflicts, force: opts.force, removals })
}

/// Conflicts the server answers for `helm`'s apply of `body` over `live`
/// (force off; with force they are taken over instead). `list_map_keys`
/// gives, per list path, `Some(keys)` for an associative list, `Some([])`
/// for a set and `None` for an atomic list (see [`ListKeysSchema`];
/// [`builtin_list_map_keys`] builds it for built-in kinds). The closure
/// cannot say that a key has a default (container ports' `protocol`), nor
/// that an object is atomic: [`preview_apply`] with [`builtin_ssa_schema`]
/// knows both. Returns a `Result`: malformed managed fields or an item
/// without its key are errors (as on the server), not "no conflict".
pub fn predict_conflicts(
    live: &Value,
    body: &Value,
    manager: &str,
    list_map_keys: &dyn Fn(&FieldPath) -> Option<Vec<String>>,
) -> Result<Vec<Conflict>, SsaError> {
    let opts = ApplyOptions { manager, force: false, upgrade_client_side: false };
    Ok(preview_apply(Some(live), body, opts, &ListKeysSchema(list_map_keys))?.conflicts)
}

/// The closure [`predict_conflicts`] takes, for a built-in kind (`None` when
/// the kind is not built in: its lists are then all atomic).
pub fn builtin_list_map_keys(api_version: &str, kind: &str) -> impl Fn(&FieldPath) -> Option<Vec<String>> + use<> {
    let schema = builtin_ssa_schema(api_version, kind);
    move |path: &FieldPath| match schema.as_ref()?.list_type(path) {
        ListType::Atomic => None,
        ListType::Set => Some(Vec::new()),
        ListType::Map(keys) => Some(keys),
    }
}

/// SMD `Updater.update`: for every manager other than the applier's own
/// `Apply` identity, its fields among those the merge changes (modified
/// leaves, added nodes). SMD compares in each manager's API version
/// (converting the objects); here paths are compared as written, which is
/// the same whenever the versions agree or the conversion keeps the paths.
fn conflicts_of(entries: &[ManagedEntry], body: &Tree<'_>, live: &Tree<'_>, manager: &str) -> Vec<Conflict> {
    let changed: FieldSet = body
        .nodes
        .iter()
        .filter(|(p, n)| match live.nodes.get(*p) {
            None => true,
            Some(l) => n.leaf && !smd_eq(n.value, l.value),
        })
        .map(|(p, _)| p.clone())
        .collect();
    let me = applier_identifier(manager);
    let mut owners: Vec<&ManagedEntry> = entries.iter().filter(|e| e.identifier() != me).collect();
    // conflict.go prints managers sorted by their identifier string.
    owners.sort_by_key(|e| e.identifier());
    let mut out = Vec::new();
    for e in owners {
        let mut paths: Vec<&FieldPath> = e.fields.iter().filter(|p| changed.contains(*p)).collect();
        paths.sort_by(|a, b| set_order(a, b));
        for p in paths {
            out.push(Conflict {
                manager: e.manager.clone(),
                operation: e.operation,
                subresource: e.subresource.clone(),
                api_version: e.api_version.clone(),
                time: e.time.clone(),
                path: p.clone(),
            });
        }
    }
    out
}

fn applier_identifier(manager: &str) -> String {
    ManagedEntry {
        manager: manager.to_owned(),
        operation: Operation::Apply,
        api_version: String::new(),
        time: None,
        subresource: String::new(),
        fields: FieldSet::new(),
    }
    .identifier()
}

/// SMD `Updater.prune`, as far as it shows: what the applier's last `Apply`
/// set has and the new body does not, still in the object, owned by no other
/// manager. Only topmost paths are listed (a removed list item takes its
/// fields with it).
fn removals_of(entries: &[ManagedEntry], body: &Tree<'_>, live: &Tree<'_>, manager: &str) -> Vec<FieldPath> {
    let me = applier_identifier(manager);
    let Some(last) = entries.iter().find(|e| e.identifier() == me) else { return Vec::new() };
    let others: Vec<&ManagedEntry> = entries.iter().filter(|e| e.identifier() != me).collect();
    let mut gone: Vec<&FieldPath> = last
        .fields
        .iter()
        .filter(|p| !body.members.contains(*p) && !body.nodes.contains_key(*p))
        .filter(|p| live.nodes.contains_key(*p))
        .filter(|p| !others.iter().any(|e| e.fields.contains(*p)))
        .collect();
    gone.sort();
    let mut out: Vec<FieldPath> = Vec::new();
    for p in gone {
        if !out.iter().any(|q| p.starts_with(q)) {
            out.push(p.clone());
        }
    }
    out
}

/// SMD `Set.Iterate` order: at each level the members first (sorted), then
/// the children (sorted), depth first.
fn set_order(a: &FieldPath, b: &FieldPath) -> Ordering {
    let (a, b) = (&a.0, &b.0);
    let k = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    match (a.len() - k, b.len() - k) {
        (0, 0) => Ordering::Equal,
        // A path is a member of a level above its extensions.
        (0, _) => Ordering::Less,
        (_, 0) => Ordering::Greater,
        (1, n) if n > 1 => Ordering::Less,
        (n, 1) if n > 1 => Ordering::Greater,
        _ => a[k].cmp(&b[k]),
    }
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/// apimachinery `printManager` of a manager identifier: `"name"`, then
/// ` with subresource "s"`, then for `Update` ` using <apiVersion>` and, when
/// the identifier carries a time, ` at <RFC3339 UTC>`. A string that is not
/// an identifier prints quoted.
pub fn print_manager(identifier: &str) -> String {
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(identifier) else {
        return go_quote(identifier);
    };
    let text = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("");
    let mut out = go_quote(text("manager"));
    if !text("subresource").is_empty() {
        out.push_str(&format!(" with subresource {}", go_quote(text("subresource"))));
    }
    if text("operation") == "Update" {
        out.push_str(&format!(" using {}", text("apiVersion")));
        // Time.UTC().Format(RFC3339): stored times are already UTC seconds.
        if !text("time").is_empty() {
            out.push_str(&format!(" at {}", text("time")));
        }
    }
    out
}

/// apimachinery `getConflictMessage` over (manager identifier, path) pairs:
/// one conflict inline, several grouped by manager (identifiers sorted as
/// strings, paths in the given order).
pub fn server_conflict_message(conflicts: &[(String, FieldPath)]) -> String {
    if let [(m, p)] = conflicts {
        return format!("Apply failed with 1 conflict: conflict with {}: {p}", print_manager(m));
    }
    let mut groups: BTreeMap<&str, Vec<&FieldPath>> = BTreeMap::new();
    for (m, p) in conflicts {
        groups.entry(m.as_str()).or_default().push(p);
    }
    let mut lines = Vec::new();
    for (m, paths) in groups {
        lines.push(format!("conflicts with {}:", print_manager(m)));
        for p in paths {
            lines.push(format!("- {p}"));
        }
    }
    format!("Apply failed with {} conflicts: {}", conflicts.len(), lines.join("\n"))
}

/// Helm's error for a conflicting apply (`patchResourceServerSide`):
/// `conflict occurred while applying object <ns>/<name> <gvk>: <server
/// message>`, the GVK as `schema.GroupVersionKind.String()` prints it
/// (`apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap` for core).
pub fn conflict_message(namespace: &str, name: &str, api_version: &str, kind: &str, conflicts: &[Conflict]) -> String {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let pairs: Vec<(String, FieldPath)> =
        conflicts.iter().map(|c| (c.entry_identity().identifier(), c.path.clone())).collect();
    format!(
        "conflict occurred while applying object {namespace}/{name} {group}/{version}, Kind={kind}: {}",
        server_conflict_message(&pairs)
    )
}

/// The preview's wording for a forced apply: each field `helm` would take
/// over, with its current owner.
pub fn takeover_lines(conflicts: &[Conflict]) -> Vec<String> {
    conflicts.iter().map(|c| format!("would take over {} from {}", c.path, c.manager_text())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(fields: &[(&str, Value)]) -> PathElement {
        PathElement::Key(fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }
    fn f(n: &str) -> PathElement {
        PathElement::Field(n.to_owned())
    }
    fn path(pes: Vec<PathElement>) -> FieldPath {
        FieldPath(pes)
    }
    fn deployment_schema() -> BuiltinSsaSchema {
        builtin_ssa_schema("apps/v1", "Deployment").unwrap()
    }
    fn opts(force: bool, upgrade: bool) -> ApplyOptions<'static> {
        ApplyOptions { manager: "helm", force, upgrade_client_side: upgrade }
    }

    /// A Deployment first created by Helm 3 (client-side, manager `helm`
    /// Update), then scaled with `kubectl scale` (scale subresource; the
    /// server stores such entries with the parent's API version,
    /// `scalehandler.go`), its
    /// image changed with `kubectl edit`, its status written by the
    /// controller, a finalizer added by another tool. Each later manager took
    /// its fields away from `helm`, as Update does.
    fn live_deployment() -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "name": "web", "namespace": "shop",
                "labels": {"app": "web", "app.kubernetes.io/managed-by": "Helm"},
                "annotations": {
                    "meta.helm.sh/release-name": "web",
                    "meta.helm.sh/release-namespace": "shop",
                    "deployment.kubernetes.io/revision": "3"
                },
                "finalizers": ["example.com/protect"],
                "managedFields": [
                    {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-01T10:00:00Z", "fieldsType": "FieldsV1",
                     "fieldsV1": {
                        "f:metadata": {
                            "f:annotations": {".": {}, "f:meta.helm.sh/release-name": {}, "f:meta.helm.sh/release-namespace": {}},
                            "f:labels": {".": {}, "f:app": {}, "f:app.kubernetes.io/managed-by": {}}
                        },
                        "f:spec": {
                            "f:selector": {},
                            "f:template": {
                                "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                                "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {
                                    ".": {}, "f:name": {},
                                    "f:ports": {".": {}, "k:{\"containerPort\":8080,\"protocol\":\"TCP\"}": {
                                        ".": {}, "f:containerPort": {}, "f:protocol": {}}}
                                }}}
                            }
                        }
                     }},
                    {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-02T09:00:00Z", "fieldsType": "FieldsV1", "subresource": "status",
                     "fieldsV1": {
                        "f:metadata": {"f:annotations": {"f:deployment.kubernetes.io/revision": {}}},
                        "f:status": {"f:replicas": {}, "f:observedGeneration": {}}
                     }},
                    {"manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-03T08:00:00Z", "fieldsType": "FieldsV1", "subresource": "scale",
                     "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                    {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-04T07:00:00Z", "fieldsType": "FieldsV1",
                     "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
                        "k:{\"name\":\"web\"}": {"f:image": {}}}}}}}},
                    {"manager": "finalizer-bot", "operation": "Update", "apiVersion": "apps/v1",
                     "time": "2026-11-05T06:00:00Z", "fieldsType": "FieldsV1",
                     "fieldsV1": {"f:metadata": {"f:finalizers": {".": {}, "v:\"example.com/protect\"": {}}}}}
                ]
            },
            "spec": {
                "replicas": 5,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{
                        "name": "web", "image": "web:1-hotfix",
                        "ports": [{"containerPort": 8080, "protocol": "TCP"}]
                    }]}
                }
            },
            "status": {"replicas": 5, "observedGeneration": 7}
        })
    }

    /// The chart's Deployment as Helm sends it (ownership metadata added,
    /// `protocol` omitted as charts usually do).
    fn target(replicas: i64, image: &str) -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "name": "web", "namespace": "shop",
                "labels": {"app": "web", "app.kubernetes.io/managed-by": "Helm"},
                "annotations": {"meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "shop"}
            },
            "spec": {
                "replicas": replicas,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": image, "ports": [{"containerPort": 8080}]}]}
                }
            }
        })
    }

    fn web_container() -> Vec<PathElement> {
        vec![f("spec"), f("template"), f("spec"), f("containers"), key(&[("name", json!("web"))])]
    }

    // --- fieldsV1 parsing ---------------------------------------------------

    #[test]
    fn managed_fields_of_an_edited_deployment_parse_with_manager_operation_subresource_time() {
        let entries = parse_managed_fields(&live_deployment()).unwrap();
        let summary: Vec<(&str, Operation, &str, &str, Option<&str>)> = entries
            .iter()
            .map(|e| (e.manager.as_str(), e.operation, e.subresource.as_str(), e.api_version.as_str(), e.time.as_deref()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("helm", Operation::Update, "", "apps/v1", Some("2026-11-01T10:00:00Z")),
                ("kube-controller-manager", Operation::Update, "status", "apps/v1", Some("2026-11-02T09:00:00Z")),
                ("kubectl", Operation::Update, "scale", "apps/v1", Some("2026-11-03T08:00:00Z")),
                ("kubectl-edit", Operation::Update, "", "apps/v1", Some("2026-11-04T07:00:00Z")),
                ("finalizer-bot", Operation::Update, "", "apps/v1", Some("2026-11-05T06:00:00Z")),
            ]
        );
        assert_eq!(entries[2].fields, FieldSet::from([FieldPath::fields(&["spec", "replicas"])]));
    }

    #[test]
    fn fields_v1_members_are_dot_marked_nodes_and_childless_nodes() {
        let entries = parse_managed_fields(&live_deployment()).unwrap();
        let helm: Vec<String> = entries[0].fields.iter().map(ToString::to_string).collect();
        assert_eq!(
            helm,
            vec![
                ".metadata.annotations",
                ".metadata.annotations.meta.helm.sh/release-name",
                ".metadata.annotations.meta.helm.sh/release-namespace",
                ".metadata.labels",
                ".metadata.labels.app",
                ".metadata.labels.app.kubernetes.io/managed-by",
                ".spec.selector",
                ".spec.template.metadata.labels",
                ".spec.template.metadata.labels.app",
                ".spec.template.spec.containers[name=\"web\"]",
                ".spec.template.spec.containers[name=\"web\"].name",
                ".spec.template.spec.containers[name=\"web\"].ports",
                ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"]",
                ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"].containerPort",
                ".spec.template.spec.containers[name=\"web\"].ports[containerPort=8080,protocol=\"TCP\"].protocol",
            ]
        );
        // Not members: `.spec`, `.spec.template` (children only, no ".").
        assert!(!entries[0].fields.contains(&FieldPath::fields(&["spec", "template"])));
    }

    #[test]
    fn set_values_in_finalizers_parse_as_value_elements() {
        let entries = parse_managed_fields(&live_deployment()).unwrap();
        let fin = FieldPath::fields(&["metadata", "finalizers"]);
        let item = fin.child(PathElement::Value(json!("example.com/protect")));
        assert_eq!(entries[4].fields, FieldSet::from([fin, item.clone()]));
        assert_eq!(item.to_string(), ".metadata.finalizers[=\"example.com/protect\"]");
    }

    #[test]
    fn index_elements_and_unknown_element_types() {
        let set = parse_fields_v1(&json!({"f:spec": {"f:args": {"i:0": {}, "i:2": {}}, "r:future": {}}})).unwrap();
        let strs: Vec<String> = set.iter().map(ToString::to_string).collect();
        assert_eq!(strs, vec![".spec.args[0]", ".spec.args[2]"]);
    }

    /// structured-merge-diff `fieldpath/serialize-pe_test.go`
    /// `TestPathElementRoundTrip`: text -> element -> same text.
    #[test]
    fn path_elements_round_trip_as_in_smd_tests() {
        let cases = [
            "i:0",
            "i:1234",
            "f:",
            "f:spec",
            "f:more-complicated-string",
            "f: string-with-spaces   ",
            "f:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            r#"k:{"name":"my-container"}"#,
            r#"k:{"name":"   name with spaces   "}"#,
            r#"k:{"port":"8080","protocol":"TCP"}"#,
            r#"k:{"optionalField":null}"#,
            r#"k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}"#,
            r#"k:{"listField":["1","2","3"]}"#,
            "v:null",
            r#"v:"some-string""#,
            "v:1234",
            r#"v:{"some":"json"}"#,
            r#"v:{"some":" some  with spaces  "}"#,
            r#"k:{"name":"app-🚀"}"#,
            r#"k:{"name":"app-💻"}"#,
            r#"k:{"name":"app with-unicøde"}"#,
            r#"k:{"name":"你好世界"}"#,
            r#"k:{"name":"Привет, мир"}"#,
            r#"k:{"name":"नमस्ते दुनिया"}"#,
            r#"k:{"name":"👋"}"#,
            "f:spec-🚀",
            r"f:spec-\n",
        ];
        for s in cases {
            let pe = parse_path_element(s).unwrap().unwrap();
            assert_eq!(serialize_path_element(&pe), s, "round trip of {s}");
        }
        assert_eq!(parse_path_element("r:Hello"), Ok(None), "unknown qualifiers are skipped, not errors");
    }

    /// structured-merge-diff `TestDeserializePathElementError`.
    #[test]
    fn malformed_path_elements_are_errors_as_in_smd_tests() {
        let cases = [
            "",
            "no-colon",
            "i:index is not a number",
            "i:1.23",
            "i:",
            "v:invalid json",
            "v:",
            "k:invalid json",
            r#"k:{"name":invalid}"#,
            r#"v:{"some":" \x41"}"#,
            "v",
            "k",
            "f",
            "i",
            r#"v:{"a":"b""#,
            r#"k:{"a":"b""#,
            "i: 0",
            "i:0 ",
            r#"v:{"some":"json"} {"other":"json"}"#,
            r#"k:{"name":"my-container"} {"other":"my-container"}"#,
            r#"v:{"some":"json"} {"other":"json""#,
            r#"k:{"name":"my-container"} {"other":"my-container""#,
            r#"v:{"some":"json"} garbage"#,
            r#"k:{"name":"my-container"} garbage"#,
        ];
        for s in cases {
            assert!(parse_path_element(s).is_err(), "{s:?} must not parse");
        }
    }

    /// structured-merge-diff `fieldpath/path_test.go` `TestPathString`.
    #[test]
    #[allow(clippy::approx_constant, reason = "3.14159 is the SMD test's literal")]
    fn paths_print_as_in_smd_tests() {
        let v = |x: Value| PathElement::Value(x);
        let cases: Vec<(FieldPath, &str)> = vec![
            (path(vec![f("foo"), PathElement::Index(1)]), ".foo[1]"),
            (path(vec![f("foo"), f("bar"), PathElement::Index(1), f("baz")]), ".foo.bar[1].baz"),
            (
                path(vec![f("foo"), key(&[("a", json!("b")), ("c", json!(1)), ("d", json!(1.5)), ("e", json!(true))])]),
                r#".foo[a="b",c=1,d=1.5,e=true]"#,
            ),
            (
                path(vec![f("foo"), v(json!("b")), v(json!(5)), v(json!(false)), v(json!(3.14159))]),
                r#".foo[="b"][=5][=false][=3.14159]"#,
            ),
            (path(vec![f("spec")]), ".spec"),
            (
                path(vec![f("spec"), f("apps"), key(&[("name", json!("app-🚀"))]), f("container"), f("image")]),
                r#".spec.apps[name="app-🚀"].container.image"#,
            ),
            (
                path(vec![
                    f("spec"),
                    f("apps"),
                    key(&[("name", json!("app-💻"))]),
                    f("container"),
                    f("ports"),
                    key(&[("name", json!("port-🔑"))]),
                    f("containerPort"),
                ]),
                r#".spec.apps[name="app-💻"].container.ports[name="port-🔑"].containerPort"#,
            ),
            (path(vec![f("spec"), f("field with space")]), ".spec.field with space"),
            (
                path(vec![f("spec"), f("apps"), v(json!("app with space")), f("container"), f("image")]),
                r#".spec.apps[="app with space"].container.image"#,
            ),
            (
                path(vec![f("spec"), f("apps"), v(json!("app with \"quotes\"")), f("container"), f("image")]),
                r#".spec.apps[="app with \"quotes\""].container.image"#,
            ),
            (
                path(vec![f("spec"), f("apps"), v(json!("app-with-unicøde")), f("container"), f("image")]),
                r#".spec.apps[="app-with-unicøde"].container.image"#,
            ),
        ];
        for (p, want) in cases {
            assert_eq!(p.to_string(), want);
        }
    }

    #[test]
    fn key_numbers_from_fields_v1_print_as_go_float64() {
        // Go decodes fieldsV1 numbers as float64 and prints them with %v.
        let pe = parse_path_element(r#"k:{"port":1000000}"#).unwrap().unwrap();
        assert_eq!(pe.to_string(), "[port=1e+06]");
        assert_eq!(pe, key(&[("port", json!(1000000))]), "float64 and int keys are the same key");
    }

    #[test]
    fn bad_managed_fields_entries_fail_with_apimachinery_messages() {
        let obj = |e: Value| json!({"metadata": {"managedFields": [e]}});
        let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1"})));
        assert_eq!(e.unwrap_err().to_string(), "operation must be `Apply` or `Update`");
        let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "fieldsType": "FieldsV1"})));
        assert_eq!(e.unwrap_err().to_string(), "apiVersion must not be empty");
        let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "apiVersion": "v1"})));
        assert_eq!(e.unwrap_err().to_string(), "missing fieldsType in managed fields entry 0");
        let e = parse_managed_fields(&obj(json!({"manager": "x", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV2"})));
        assert_eq!(e.unwrap_err().to_string(), "invalid fieldsType \"FieldsV2\" in managed fields entry 0");
    }

    #[test]
    fn manager_identifiers_are_go_json_without_time_and_without_api_version_for_appliers() {
        let entries = parse_managed_fields(&live_deployment()).unwrap();
        assert_eq!(entries[2].identifier(), r#"{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1","subresource":"scale"}"#);
        assert_eq!(applier_identifier("helm"), r#"{"manager":"helm","operation":"Apply"}"#);
    }

    // --- schema ---------------------------------------------------------------

    #[test]
    fn builtin_schema_uses_list_map_keys_not_patch_merge_keys() {
        let s = deployment_schema();
        let containers = FieldPath::fields(&["spec", "template", "spec", "containers"]);
        assert_eq!(s.list_type(&containers), ListType::Map(vec!["name".into()]));
        let ports = path(web_container()).child(f("ports"));
        assert_eq!(s.list_type(&ports), ListType::Map(vec!["containerPort".into(), "protocol".into()]));
        assert_eq!(s.key_default(&ports, "protocol"), Some(json!("TCP")));
        assert_eq!(s.list_type(&path(web_container()).child(f("args"))), ListType::Atomic);
        assert_eq!(s.list_type(&FieldPath::fields(&["metadata", "finalizers"])), ListType::Set);
        assert!(s.atomic_object(&FieldPath::fields(&["spec", "selector"])), "LabelSelector is structType=atomic");
        assert!(s.atomic_object(&FieldPath::fields(&["spec", "template", "spec", "nodeSelector"])));
        assert!(s.is_map(&FieldPath::fields(&["metadata", "labels"])));
        assert!(!s.is_map(&FieldPath::fields(&["spec", "template"])));
        let keys = builtin_list_map_keys("apps/v1", "Deployment");
        assert_eq!(keys(&containers), Some(vec!["name".to_owned()]));
        assert_eq!(keys(&FieldPath::fields(&["metadata", "finalizers"])), Some(vec![]));
        assert_eq!(builtin_list_map_keys("example.com/v1", "Widget")(&containers), None);
    }

    // --- apply body -----------------------------------------------------------

    #[test]
    fn apply_body_keeps_nulls_and_empty_values_and_sorts_keys_like_go() {
        let t = json!({"kind": "ConfigMap", "apiVersion": "v1", "data": {"b": "", "a": null}, "metadata": {"labels": {}, "name": "c"}, "x": []});
        let body = apply_body(&t);
        assert_eq!(body, t);
        assert_eq!(
            to_go_json(&body),
            r#"{"apiVersion":"v1","data":{"a":null,"b":""},"kind":"ConfigMap","metadata":{"labels":{},"name":"c"},"x":[]}"#
        );
    }

    // --- conflicts --------------------------------------------------------------

    #[test]
    fn changed_image_conflicts_with_kubectl_edit_and_changed_replicas_with_kubectl_scale() {
        let live = live_deployment();
        let c = preview_apply(Some(&live), &target(3, "web:2"), opts(false, true), &deployment_schema()).unwrap();
        let got: Vec<(String, String)> = c.conflicts.iter().map(|c| (c.manager_text(), c.path.to_string())).collect();
        assert_eq!(
            got,
            vec![
                (r#""kubectl" with subresource "scale" using apps/v1"#.to_owned(), ".spec.replicas".to_owned()),
                (
                    r#""kubectl-edit" using apps/v1"#.to_owned(),
                    r#".spec.template.spec.containers[name="web"].image"#.to_owned()
                ),
            ]
        );
    }

    #[test]
    fn same_value_is_shared_ownership_not_a_conflict() {
        let live = live_deployment();
        let c = preview_apply(Some(&live), &target(5, "web:1-hotfix"), opts(false, true), &deployment_schema()).unwrap();
        assert_eq!(c.conflicts, vec![]);
    }

    #[test]
    fn hpa_controller_owning_replicas_conflicts_with_a_chart_that_sets_them() {
        let mut live = live_deployment();
        live["metadata"]["managedFields"] = json!([
            {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
             "time": "2026-11-06T05:00:00Z", "fieldsType": "FieldsV1", "subresource": "scale",
             "fieldsV1": {"f:spec": {"f:replicas": {}}}}
        ]);
        let mut t = target(2, "web:1-hotfix");
        t["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = json!("TCP");
        let c = predict_conflicts(&live, &t, "helm", &builtin_list_map_keys("apps/v1", "Deployment")).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].path.to_string(), ".spec.replicas");
        assert_eq!(c[0].manager_text(), r#""kube-controller-manager" with subresource "scale" using apps/v1"#);
        assert_eq!(c[0].time.as_deref(), Some("2026-11-06T05:00:00Z"));
    }

    #[test]
    fn omitted_protocol_key_defaults_to_tcp_and_matches_the_live_port() {
        let live = live_deployment();
        let mut t = target(5, "web:1-hotfix");
        t["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = json!(9090);
        let c = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
        assert_eq!(c.conflicts, vec![], "a new port item is owned by nobody");
        // The closure form knows no defaults: the item has no key, which the
        // server would refuse; callers use the builtin schema for defaults.
        let e = predict_conflicts(&live, &t, "helm", &builtin_list_map_keys("apps/v1", "Deployment"));
        assert!(matches!(e, Err(SsaError::MissingListKey { .. })));
    }

    #[test]
    fn set_items_conflict_only_by_presence() {
        let mut live = live_deployment();
        live["metadata"]["managedFields"] = json!([
            {"manager": "finalizer-bot", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:finalizers": {".": {}, "v:\"example.com/protect\"": {}}}}}
        ]);
        let mut t = target(5, "web:1-hotfix");
        t["metadata"]["finalizers"] = json!(["example.com/protect", "example.com/other"]);
        let c = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
        assert_eq!(c.conflicts, vec![], "the shared finalizer is unchanged, the new one unowned");
    }

    #[test]
    fn without_the_csa_move_helms_own_update_entry_conflicts_with_helm() {
        let live = live_deployment();
        let mut t = target(5, "web:1-hotfix");
        t["metadata"]["labels"]["app"] = json!("shop-web");
        t["spec"]["template"]["metadata"]["labels"]["app"] = json!("shop-web");
        let c = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
        let got: Vec<String> = c.conflicts.iter().map(|c| format!("{} {}", c.manager_text(), c.path)).collect();
        assert_eq!(
            got,
            vec![
                r#""helm" using apps/v1 .metadata.labels.app"#,
                r#""helm" using apps/v1 .spec.template.metadata.labels.app"#
            ]
        );
        let c = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
        assert_eq!(c.conflicts, vec![], "after the move these fields belong to helm's Apply entry");
    }

    #[test]
    fn csa_move_turns_helms_update_entry_into_its_apply_entry() {
        let entries = parse_managed_fields(&live_deployment()).unwrap();
        let moved = upgrade_client_side_managers(&entries, "helm", "helm");
        assert_eq!(moved.len(), entries.len());
        assert_eq!(moved[0].operation, Operation::Apply);
        assert_eq!(moved[0].manager, "helm");
        assert_eq!(moved[0].fields, entries[0].fields);
        assert_eq!(moved[0].identifier(), r#"{"manager":"helm","operation":"Apply"}"#);
        assert_eq!(&moved[1..], &entries[1..]);
    }

    #[test]
    fn csa_move_unions_same_version_update_into_existing_apply_and_drops_all_helm_updates() {
        let obj = json!({"metadata": {"managedFields": [
            {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:replicas": {}}}},
            {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:paused": {}}}},
            {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1beta2", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:minReadySeconds": {}}}},
            {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "subresource": "status", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:status": {"f:x": {}}}}
        ]}});
        let moved = upgrade_client_side_managers(&parse_managed_fields(&obj).unwrap(), "helm", "helm");
        assert_eq!(moved.len(), 2);
        assert_eq!(
            moved[0].fields,
            FieldSet::from([FieldPath::fields(&["spec", "paused"]), FieldPath::fields(&["spec", "replicas"])]),
            "the other version's fields are forgotten"
        );
        assert_eq!(moved[1].subresource, "status");
    }

    #[test]
    fn force_reports_the_same_conflicts_as_take_overs() {
        let live = live_deployment();
        let p = preview_apply(Some(&live), &target(3, "web:2"), opts(true, true), &deployment_schema()).unwrap();
        assert!(p.force);
        assert_eq!(
            takeover_lines(&p.conflicts),
            vec![
                r#"would take over .spec.replicas from "kubectl" with subresource "scale" using apps/v1"#,
                r#"would take over .spec.template.spec.containers[name="web"].image from "kubectl-edit" using apps/v1"#,
            ]
        );
    }

    #[test]
    fn status_in_the_body_is_ignored_like_the_servers_reset_fields() {
        let live = live_deployment();
        let mut t = target(5, "web:1-hotfix");
        t["status"] = json!({"replicas": 1});
        let p = preview_apply(Some(&live), &t, opts(false, true), &deployment_schema()).unwrap();
        assert_eq!(p.conflicts, vec![], "kube-controller-manager's status is not touched by a main-resource apply");
    }

    #[test]
    fn creating_an_object_never_conflicts() {
        let p = preview_apply(None, &target(3, "web:2"), opts(false, false), &deployment_schema()).unwrap();
        assert_eq!((p.conflicts.len(), p.removals.len()), (0, 0));
    }

    // --- removals ---------------------------------------------------------------

    #[test]
    fn fields_helm_applied_before_and_no_longer_sets_are_removed_unless_someone_else_owns_them() {
        let mut live = live_deployment();
        live["metadata"]["labels"]["tier"] = json!("front");
        live["metadata"]["labels"]["team"] = json!("a");
        live["spec"]["template"]["spec"]["containers"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "sidecar", "image": "proxy:1"}));
        live["metadata"]["managedFields"] = json!([
            {"manager": "helm", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
             "fieldsV1": {
                "f:metadata": {"f:labels": {"f:app": {}, "f:tier": {}, "f:team": {}}},
                "f:spec": {"f:template": {"f:spec": {"f:containers": {
                    "k:{\"name\":\"web\"}": {".": {}, "f:name": {}, "f:image": {}},
                    "k:{\"name\":\"sidecar\"}": {".": {}, "f:name": {}, "f:image": {}}
                }}}}
             }},
            {"manager": "labeler", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}}}
        ]);
        let p = preview_apply(Some(&live), &target(5, "web:1-hotfix"), opts(false, false), &deployment_schema()).unwrap();
        let got: Vec<String> = p.removals.iter().map(ToString::to_string).collect();
        assert_eq!(got, vec![".metadata.labels.tier", r#".spec.template.spec.containers[name="sidecar"]"#]);
    }

    // --- messages ---------------------------------------------------------------

    /// apimachinery `internal/conflict_test.go` `TestNewConflictError`.
    #[test]
    fn server_messages_match_apimachinery_conflict_tests() {
        let foo = r#"{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#;
        let bar = r#"{"manager":"bar","operation":"Apply"}"#;
        let scale = r#"{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#;
        let replicas = FieldPath::fields(&["spec", "replicas"]);
        let cases: Vec<(Vec<(String, FieldPath)>, &str)> = vec![
            (
                vec![(foo.into(), replicas.clone())],
                r#"Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#,
            ),
            (
                vec![(foo.into(), replicas.clone()), (bar.into(), FieldPath::fields(&["metadata", "labels", "app"]))],
                "Apply failed with 2 conflicts: conflicts with \"bar\":\n- .metadata.labels.app\nconflicts with \"foo\" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas",
            ),
            (
                vec![(scale.into(), replicas.clone())],
                r#"Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#,
            ),
        ];
        for (conflicts, want) in cases {
            assert_eq!(server_conflict_message(&conflicts), want);
        }
        assert_eq!(print_manager(r#"{"manager":"foo","operation":"Update","apiVersion":"v1"}"#), r#""foo" using v1"#);
        assert_eq!(print_manager("not json"), r#""not json""#);
    }

    #[test]
    fn helm_message_for_one_conflict() {
        let live = live_deployment();
        let p = preview_apply(Some(&live), &target(5, "web:2"), opts(false, true), &deployment_schema()).unwrap();
        assert_eq!(
            conflict_message("shop", "web", "apps/v1", "Deployment", &p.conflicts),
            "conflict occurred while applying object shop/web apps/v1, Kind=Deployment: Apply failed with 1 conflict: \
             conflict with \"kubectl-edit\" using apps/v1: .spec.template.spec.containers[name=\"web\"].image"
        );
    }

    #[test]
    fn helm_message_for_several_conflicts_groups_by_sorted_manager_identity() {
        let mut live = live_deployment();
        live["metadata"]["managedFields"]
            .as_array_mut()
            .unwrap()
            .push(json!({"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
                         "subresource": "status", "fieldsV1": {"f:status": {}}}));
        let mut t = target(3, "web:2");
        t["metadata"]["labels"]["app"] = json!("shop-web");
        let p = preview_apply(Some(&live), &t, opts(false, false), &deployment_schema()).unwrap();
        assert_eq!(
            conflict_message("shop", "web", "apps/v1", "Deployment", &p.conflicts),
            "conflict occurred while applying object shop/web apps/v1, Kind=Deployment: Apply failed with 3 conflicts: \
             conflicts with \"helm\" using apps/v1:\n\
             - .metadata.labels.app\n\
             conflicts with \"kubectl\" with subresource \"scale\" using apps/v1:\n\
             - .spec.replicas\n\
             conflicts with \"kubectl-edit\" using apps/v1:\n\
             - .spec.template.spec.containers[name=\"web\"].image"
        );
    }

    #[test]
    fn core_kinds_print_an_empty_group() {
        let c = Conflict {
            manager: "kubectl-edit".into(),
            operation: Operation::Update,
            subresource: String::new(),
            api_version: "v1".into(),
            time: Some("2026-11-04T07:00:00Z".into()),
            path: FieldPath::fields(&["data", "key"]),
        };
        assert_eq!(
            conflict_message("default", "cfg", "v1", "ConfigMap", &[c]),
            "conflict occurred while applying object default/cfg /v1, Kind=ConfigMap: Apply failed with 1 conflict: \
             conflict with \"kubectl-edit\" using v1: .data.key"
        );
    }

    #[test]
    fn one_managers_paths_list_members_of_a_level_before_deeper_paths() {
        let mut paths = [
            FieldPath::fields(&["spec", "template", "spec", "x"]),
            FieldPath::fields(&["spec", "zzz"]),
            FieldPath::fields(&["metadata", "labels", "app"]),
            FieldPath::fields(&["spec", "aaa"]),
        ];
        paths.sort_by(set_order);
        let strs: Vec<String> = paths.iter().map(ToString::to_string).collect();
        assert_eq!(strs, vec![".metadata.labels.app", ".spec.aaa", ".spec.zzz", ".spec.template.spec.x"]);
    }
}
