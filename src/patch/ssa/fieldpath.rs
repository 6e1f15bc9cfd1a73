//! Field paths (SMD `fieldpath`): path elements, their order and printing,
//! their `fieldsV1` key form, and a `fieldsV1` trie read as the set of paths
//! it marks.

use super::value::{as_go_decoded, smd_cmp, smd_to_string};
use super::{SsaError, apply_body};
use crate::go::json::{json_quote, to_go_json};
use crate::go::quote::quote as go_quote;
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;

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

    pub(super) fn child(&self, pe: PathElement) -> FieldPath {
        let mut v = self.0.clone();
        v.push(pe);
        FieldPath(v)
    }

    pub(super) fn starts_with(&self, prefix: &FieldPath) -> bool {
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
