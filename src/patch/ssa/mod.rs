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
//! This file holds the entry points and the error type; the parts live in
//! `fieldpath` (paths and `fieldsV1`), `value` (SMD's value order and
//! printing), `managed` (managed-fields entries and the CSA move), `schema`
//! (list types and atomicity), `tree` (objects as field trees) and
//! `conflicts` (conflicts, removals and their messages).
//!
//! Sources: apimachinery `pkg/util/managedfields/internal` (`conflict.go`,
//! `managedfields.go`, `stripmeta.go`), structured-merge-diff v6
//! (`fieldpath/{element,path,set,serialize,serialize-pe}.go`,
//! `merge/{update,conflict}.go`, `typed/{compare,tofieldset}.go`), client-go
//! `util/csaupgrade/upgrade.go`. Pure functions, no I/O.

mod conflicts;
mod fieldpath;
mod managed;
mod schema;
#[cfg(test)]
mod tests;
mod tree;
mod value;

pub use conflicts::{Conflict, conflict_message, print_manager, server_conflict_message, takeover_lines};
pub use fieldpath::{FieldPath, FieldSet, PathElement, parse_fields_v1, parse_path_element, serialize_path_element};
pub use managed::{ManagedEntry, Operation, parse_managed_fields, upgrade_client_side_managers};
pub use schema::{BuiltinSsaSchema, ListKeysSchema, ListType, SsaSchema, builtin_list_map_keys, builtin_ssa_schema};

use crate::go::quote::quote as go_quote;
use conflicts::{conflicts_of, removals_of};
use serde_json::{Map, Value};
use thiserror::Error;
use tree::walk;

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
