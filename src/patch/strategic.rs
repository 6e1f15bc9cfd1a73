//! Kubernetes strategic merge patch, exactly as apimachinery's
//! `pkg/util/strategicpatch` computes and applies it (the code Helm's
//! client-side `helm upgrade` runs for built-in kinds).
//!
//! Pure functions on [`serde_json::Value`] documents (objects; `null` stands
//! for "no document", which Go treats as `{}`), with the field metadata from
//! a [`LookupPatchMeta`] (see [`crate::patch::meta`]):
//!
//! - [`create_two_way`]: `CreateTwoWayMergePatch(original, modified)`.
//! - [`create_three_way`]: `CreateThreeWayMergePatch(original, modified,
//!   current, overwrite)` — Helm's call, with `overwrite = true`.
//! - [`apply`]: `StrategicMergePatch(original, patch)`.
//!
//! The result of a create is the patch as a value; its bytes on the wire are
//! [`crate::go::json::to_go_json`] of it (Go's `json.Marshal`).
//!
//! The port keeps Go's two-step construction of the three-way patch (a delta
//! pass current → modified without deletions, a deletions pass original →
//! modified, merged in "patch-merging" mode), because list order and the
//! presence of `$setElementOrder` come out of it.
//!
//! Go behaviours reproduced on purpose:
//!
//! - numbers: int64 and float64 are different types (`1` → `1.0` is a
//!   change); an integer beyond int64 is a float64;
//! - a `replace`-strategy object is emitted by the delta pass without
//!   comparing (PDB `spec.selector`: Helm's patch is never `{}`);
//! - a `retainKeys` object yields `$retainKeys` whenever the old side has an
//!   extra non-null key (`Deployment.spec.strategy` with live defaults);
//! - merge-key values are compared by `%v` text when diffing (`1` = `"1"`)
//!   and by `==` when applying (`1` ≠ `"1"`);
//! - a primitive `merge` list that is not sorted yields a `$setElementOrder`
//!   even when unchanged (Go compares the old list after sorting it in place);
//! - Go's `sort.Sort` (pdqsort, with apimachinery's non-strict `<=`
//!   comparator that reverses equal keys) and `sort.SliceStable` are
//!   reimplemented, so duplicate merge keys pair up and order as in Go;
//! - `deduplicateScalars` moves the last element into each hole;
//! - applying a `$setElementOrder` list after deleting and adding items uses
//!   the live list as Go's in-place edits left it (deletions shift its
//!   backing array, additions fill the freed slots), which decides where
//!   live-only items land;
//! - lookup errors are ignored by the diff when both values are deep-equal,
//!   never by the merge; nulls nested in added values are sent, and dropped
//!   on apply (not inside lists); `$patch: replace` / `delete` on objects and
//!   lists; a `$deleteFromPrimitiveList` works on any list.
//!
//! Not reproduced (Go panics or corrupts): a `null` list element where Go
//! needs the element type, maps or lists as merge-key values (Go panics on
//! `==`), and duplicate values inside a live primitive merge list combined
//! with `$setElementOrder` (Go's de-duplication may overwrite the live list
//! it then reads the order from).

mod conflict;
mod diff;
pub(crate) mod merge;
mod order;
pub(crate) mod value;

use crate::patch::meta::{LookupPatchMeta, MetaError};
use serde_json::{Map, Value};
use thiserror::Error;

pub use order::sort_merge_lists_by_name;

/// `$patch`.
pub const DIRECTIVE_MARKER: &str = "$patch";
/// `$retainKeys`.
pub const RETAIN_KEYS_DIRECTIVE: &str = "$retainKeys";
/// `$deleteFromPrimitiveList` (followed by `/<key>`).
pub const DELETE_FROM_PRIMITIVE_LIST_PREFIX: &str = "$deleteFromPrimitiveList";
/// `$setElementOrder` (followed by `/<key>`).
pub const SET_ELEMENT_ORDER_PREFIX: &str = "$setElementOrder";

/// An error of the strategic merge patch code, with Go's message.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PatchError {
    /// A metadata lookup failed (unknown field, lookup inside a map, ...).
    #[error(transparent)]
    Meta(#[from] MetaError),
    /// `mergepatch.ErrBadJSONDoc`: a document is not a JSON object.
    #[error("invalid JSON document")]
    BadJsonDoc,
    #[error("lists of lists are not supported")]
    NoListOfLists,
    #[error("invalid patch format of primitive list")]
    BadPatchFormatForPrimitiveList,
    #[error("invalid patch format of retainKeys")]
    BadPatchFormatForRetainKeys,
    #[error("invalid patch format of setElementOrder list")]
    BadPatchFormatForSetElementOrderList,
    /// `mergepatch.ErrNoMergeKey`.
    #[error("map: {map} does not contain declared merge key: {key}")]
    NoMergeKey { map: String, key: String },
    /// `mergepatch.ErrBadArgType`.
    #[error("expected a {expected}, but received a {actual}")]
    BadArgType { expected: &'static str, actual: &'static str },
    /// `mergepatch.ErrBadPatchType`: an unknown `$patch` value.
    #[error("unknown patch type: {directive} in map: {map}")]
    BadPatchType { directive: String, map: String },
    #[error("invalid value for special key: $patch")]
    BadDirectiveValue,
    #[error("list element types are not identical: {lists}")]
    ElementTypesNotIdentical { lists: String },
    #[error("no elements in any of the given slices")]
    NoElements,
    /// A `null` element where Go needs the element type (Go panics here).
    #[error("list element is null: cannot tell the element type")]
    NullListElement,
    #[error("cannot merge lists without merge key for {type_name}")]
    MergeListWithoutMergeKey { type_name: String },
    #[error("merging lists cannot yet be specified in the patch")]
    MergeDirectiveInList,
    #[error("The order in patch list:\n{patch}\n doesn't match $setElementOrder list:\n{order}\n")]
    SetElementOrderMismatch { patch: String, order: String },
    #[error("value for key {0} is not a map")]
    NotAMap(usize),
    #[error("{original} and {patch} are not deep equal: this may happen when calculating the 3-way diff patch")]
    RetainKeysMismatch { original: String, patch: String },
    #[error("invalid element type in merging list:{0}")]
    InvalidMergingListElement(String),
    #[error("cannot find merge key `{key}` in merging list element:{element}")]
    MergingListElementWithoutMergeKey { key: String, element: String },
    /// `mergepatch.ErrConflict` (three-way with `overwrite = false`): the
    /// patch and the changes from original to current, as YAML.
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{changed}\n")]
    Conflict { patch: String, changed: String },
}

impl PatchError {
    /// `mergepatch.IsConflict`.
    pub fn is_conflict(&self) -> bool {
        matches!(self, PatchError::Conflict { .. })
    }
}

pub(crate) type Doc = Map<String, Value>;

/// `DiffOptions`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DiffOptions {
    pub set_element_order: bool,
    pub ignore_changes_and_additions: bool,
    pub ignore_deletions: bool,
    pub build_retain_keys_directive: bool,
}

/// `MergeOptions`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MergeOptions {
    /// Apply `$deleteFromPrimitiveList` / `$setElementOrder` (applying a
    /// patch) instead of carrying them over (merging two patches).
    pub merge_parallel_list: bool,
    /// Drop `null`s instead of keeping them (applying a patch).
    pub ignore_unmatched_nulls: bool,
}

fn document(v: &Value) -> Result<std::borrow::Cow<'_, Doc>, PatchError> {
    match v {
        Value::Object(m) => Ok(std::borrow::Cow::Borrowed(m)),
        Value::Null => Ok(std::borrow::Cow::Owned(Doc::new())),
        _ => Err(PatchError::BadJsonDoc),
    }
}

fn owned_document(v: Value) -> Result<Doc, PatchError> {
    match v {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Doc::new()),
        _ => Err(PatchError::BadJsonDoc),
    }
}

/// Parses a document the way the Go entry points do (`json.Unmarshal` into
/// a map with apimachinery's number rules): an object, or `null` (= `{}`);
/// anything else, including empty input, is `invalid JSON document`.
/// (Go's create functions treat *empty* input as `{}`; pass `Value::Null`
/// for that.)
pub fn parse_document(text: &str) -> Result<Value, PatchError> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(Value::Null) => Ok(Value::Object(Doc::new())),
        _ => Err(PatchError::BadJsonDoc),
    }
}

/// `CreateTwoWayMergePatch(original, modified)`: the patch that turns
/// `original` into `modified`.
pub fn create_two_way<'a, M: LookupPatchMeta<'a>>(original: &Value, modified: &Value, meta: &M) -> Result<Value, PatchError> {
    let original = document(original)?;
    let modified = document(modified)?;
    let opts = DiffOptions { set_element_order: true, ..DiffOptions::default() };
    Ok(Value::Object(diff::diff_maps(&original, &modified, meta, opts)?))
}

/// `CreateThreeWayMergePatch(original, modified, current, overwrite)`: the
/// changes from `current` to `modified` (never deleting what only `current`
/// has) plus the deletions from `original` to `modified`.
///
/// With `overwrite = false` the patch is checked against the changes from
/// `original` to `current`, and any key changed differently is a
/// [`PatchError::Conflict`]. Helm passes `overwrite = true`.
pub fn create_three_way<'a, M: LookupPatchMeta<'a>>(
    original: &Value,
    modified: &Value,
    current: &Value,
    meta: &M,
    overwrite: bool,
) -> Result<Value, PatchError> {
    let original = document(original)?;
    let modified = document(modified)?;
    let current = document(current)?;
    let delta_opts = DiffOptions { ignore_deletions: true, set_element_order: true, ..DiffOptions::default() };
    let delta = diff::diff_maps(&current, &modified, meta, delta_opts)?;
    let deletions_opts = DiffOptions { set_element_order: true, ignore_changes_and_additions: true, ..DiffOptions::default() };
    let deletions = diff::diff_maps(&original, &modified, meta, deletions_opts)?;
    let patch = merge::merge_map(deletions, delta, meta, MergeOptions::default())?;
    if !overwrite {
        conflict::check(&original, &current, &patch, meta)?;
    }
    Ok(Value::Object(patch))
}

/// `StrategicMergePatch(original, patch)`: `original` with the patch applied.
pub fn apply<'a, M: LookupPatchMeta<'a>>(original: &Value, patch: &Value, meta: &M) -> Result<Value, PatchError> {
    apply_owned(original.clone(), patch.clone(), meta)
}

/// [`apply`] consuming its inputs (saves the copies).
pub fn apply_owned<'a, M: LookupPatchMeta<'a>>(original: Value, patch: Value, meta: &M) -> Result<Value, PatchError> {
    let original = owned_document(original)?;
    let patch = owned_document(patch)?;
    let opts = MergeOptions { merge_parallel_list: true, ignore_unmatched_nulls: true };
    Ok(Value::Object(merge::merge_map(original, patch, meta, opts)?))
}

#[cfg(test)]
mod tests;
