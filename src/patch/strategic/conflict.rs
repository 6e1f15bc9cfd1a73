//! The conflict check of `CreateThreeWayMergePatch` with `overwrite = false`
//! (`MergingMapsHaveConflicts` of the patch against the changes from
//! original to current).

use super::diff::{deduplicate_scalars, diff_maps, slice_element_type, sort_scalars};
use super::value::{GoKind, deep_equal, fmt_s, fmt_v, go_eq_opt};
use super::{DIRECTIVE_MARKER, DiffOptions, Doc, PatchError, RETAIN_KEYS_DIRECTIVE};
use crate::patch::meta::{LookupPatchMeta, PatchMeta};
use serde_json::Value;
use std::collections::HashMap;

/// Fails with [`PatchError::Conflict`] when `patch` changes a key that was
/// changed differently from `original` to `current`.
pub(crate) fn check<'a, M: LookupPatchMeta<'a>>(original: &Doc, current: &Doc, patch: &Doc, schema: &M) -> Result<(), PatchError> {
    // Go's delta and deletions passes have sorted the primitive merge lists
    // of `current` and `original` in place by now. That cannot change this
    // diff: with every option off, primitive merge lists only yield
    // additions and removals, which do not depend on order, and no other
    // list is ever sorted in place.
    let changed = diff_maps(original, current, schema, DiffOptions::default())?;
    if maps_have_conflicts(patch, &changed, schema)? {
        return Err(PatchError::Conflict { patch: to_yaml(patch), changed: to_yaml(&changed) });
    }
    Ok(())
}

/// `mergingMapFieldsHaveConflicts`.
fn field_conflicts<'a, M: LookupPatchMeta<'a>>(left: &Value, right: &Value, schema: &M, strategy: &str, merge_key: &str) -> Result<bool, PatchError> {
    match left {
        Value::Object(l) => {
            let Value::Object(r) = right else { return Ok(true) };
            let lm = l.get(DIRECTIVE_MARKER);
            let rm = r.get(DIRECTIVE_MARKER);
            // A directive acts on the whole map: one side only, or two
            // different ones, conflict.
            if (lm.is_some() || rm.is_some()) && (lm.is_some() != rm.is_some() || !go_eq_opt(lm, rm)) {
                return Ok(true);
            }
            if strategy == "replace" {
                return Ok(false);
            }
            maps_have_conflicts(l, r, schema)
        }
        Value::Array(l) => {
            let Value::Array(r) = right else { return Ok(true) };
            slices_have_conflicts(l, r, schema, strategy, merge_key)
        }
        _ => Ok(!deep_equal(left, right)),
    }
}

/// `mapsHaveConflicts`.
fn maps_have_conflicts<'a, M: LookupPatchMeta<'a>>(left: &Doc, right: &Doc, schema: &M) -> Result<bool, PatchError> {
    for (key, lv) in left {
        if key == DIRECTIVE_MARKER || key == RETAIN_KEYS_DIRECTIVE {
            continue;
        }
        let Some(rv) = right.get(key) else { continue };
        let (sub, meta) = match lv {
            Value::Array(_) => schema.lookup_for_slice(key)?,
            Value::Object(_) => schema.lookup_for_struct(key)?,
            _ => (schema.clone(), PatchMeta::default()),
        };
        let (_, strategy) = meta.retain_keys_and_strategy()?;
        if field_conflicts(lv, rv, &sub, strategy, meta.merge_key())? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `slicesHaveConflicts`.
fn slices_have_conflicts<'a, M: LookupPatchMeta<'a>>(
    left: &[Value],
    right: &[Value],
    schema: &M,
    strategy: &str,
    merge_key: &str,
) -> Result<bool, PatchError> {
    let kind = slice_element_type(&[left, right])?;
    if strategy == "merge" {
        // Merging lists of scalars never conflict.
        if kind != GoKind::Map {
            return Ok(false);
        }
        let l = slice_of_maps_to_map_of_maps(left, merge_key)?;
        let r = slice_of_maps_to_map_of_maps(right, merge_key)?;
        for (k, lv) in &l {
            if let Some(rv) = r.get(k)
                && field_conflicts(lv, rv, schema, "", "")?
            {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    if left.len() != right.len() {
        return Ok(true);
    }
    let (left, right) = if kind != GoKind::Map {
        (sort_scalars(deduplicate_scalars(left.to_vec())), sort_scalars(deduplicate_scalars(right.to_vec())))
    } else {
        (left.to_vec(), right.to_vec())
    };
    for (i, lv) in left.iter().enumerate() {
        // Go indexes out of range (a panic) when de-duplication made the
        // right side shorter; count that as a conflict.
        let Some(rv) = right.get(i) else { return Ok(true) };
        if field_conflicts(lv, rv, schema, "", "")? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `sliceOfMapsToMapOfMaps`: keyed by `%s` of the merge-key value (later
/// duplicates win).
fn slice_of_maps_to_map_of_maps<'v>(list: &'v [Value], merge_key: &str) -> Result<HashMap<String, &'v Value>, PatchError> {
    let mut out = HashMap::with_capacity(list.len());
    for v in list {
        let Some(m) = v.as_object() else {
            return Err(PatchError::InvalidMergingListElement(fmt_v(&Value::Array(list.to_vec()))));
        };
        let Some(k) = m.get(merge_key) else {
            return Err(PatchError::MergingListElementWithoutMergeKey { key: merge_key.to_owned(), element: fmt_v(v) });
        };
        out.insert(fmt_s(k), v);
    }
    Ok(out)
}

/// `mergepatch.ToYAMLOrError`: YAML with sorted keys.
fn to_yaml(doc: &Doc) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let v = sorted(&Value::Object(doc.clone()));
    serde_saphyr::to_string(&v).unwrap_or_else(|e| e.to_string())
}
