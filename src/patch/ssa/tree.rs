//! Objects as field trees (SMD `ToFieldSet`): every node of the apply body
//! or of the live object by path, with the members of its field set, as the
//! schema addresses list items. Conflicts and removals compare two trees.

use super::SsaError;
use super::fieldpath::{FieldPath, FieldSet, PathElement};
use super::schema::{ListType, SsaSchema};
use serde_json::Value;
use std::collections::BTreeMap;

/// One node of an object: its value and whether SMD compares it as a leaf
/// (scalar, null, atomic list or object) or only by presence.
#[derive(Debug, Clone, Copy)]
pub(super) struct Node<'v> {
    pub(super) value: &'v Value,
    pub(super) leaf: bool,
}

/// An object's nodes by path, and the members of its field set
/// (SMD `ToFieldSet`).
#[derive(Default)]
pub(super) struct Tree<'v> {
    pub(super) nodes: BTreeMap<FieldPath, Node<'v>>,
    pub(super) members: FieldSet,
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
pub(super) fn walk<'v>(v: &'v Value, schema: &dyn SsaSchema, strict: bool) -> Result<Tree<'v>, SsaError> {
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
