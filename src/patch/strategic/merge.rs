//! Merging a patch into a document (`mergeMap`, `mergeSlice`, ...): applying
//! a patch (`merge_parallel_list`, nulls dropped) or merging two patches
//! (the three-way construction: directives carried over, nulls kept).

use super::diff::{
    deduplicate_scalars, extract_to_delete_items, index_of, merge_key_value_equal, no_merge_key, normalize_slice_order, slice_element_type,
};
use super::value::{GoKind, deep_equal, fmt_s, fmt_v, go_eq, go_kind, go_type_name};
use super::{
    DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, Doc, MergeOptions, PatchError, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX,
};
use crate::patch::meta::LookupPatchMeta;
use serde_json::Value;

const SLICE_TYPE: &str = "[]interface {}";
const MAP_TYPE: &str = "map[string]interface {}";

/// `mergeMap`: `patch` merged into `original`.
pub(crate) fn merge_map<'a, M: LookupPatchMeta<'a>>(mut original: Doc, mut patch: Doc, schema: &M, opts: MergeOptions) -> Result<Doc, PatchError> {
    if let Some(directive) = patch.get(DIRECTIVE_MARKER) {
        return handle_directive_in_merge_map(directive.clone(), patch);
    }
    apply_retain_keys_directive(&mut original, &mut patch, opts)?;
    merge_patch_into_original(&mut original, &mut patch, schema, opts)?;

    for (key, mut patch_value) in patch {
        let mut key = key;
        let mut is_delete_list = false;
        if key.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) {
            if !opts.merge_parallel_list {
                original.insert(key, patch_value);
                continue;
            }
            let k = extract_key(&key, DELETE_FROM_PRIMITIVE_LIST_PREFIX)?;
            is_delete_list = true;
            if !k.is_empty() {
                key = k;
            }
        }

        if patch_value.is_null() {
            original.shift_remove(&key);
            if opts.ignore_unmatched_nulls {
                continue;
            }
        }

        let Some(original_value) = original.get_mut(&key) else {
            if !is_delete_list {
                if opts.ignore_unmatched_nulls {
                    discard_null_values(&mut patch_value);
                }
                match remove_directives(patch_value) {
                    Some(v) => {
                        original.insert(key, v);
                    }
                    None => {
                        original.shift_remove(&key);
                    }
                }
            }
            continue;
        };

        if go_kind(original_value) != go_kind(&patch_value) {
            if !is_delete_list {
                if opts.ignore_unmatched_nulls {
                    discard_null_values(&mut patch_value);
                }
                match remove_directives(patch_value) {
                    Some(v) => *original_value = v,
                    None => {
                        original.shift_remove(&key);
                    }
                }
            }
            continue;
        }

        match go_kind(original_value) {
            GoKind::Map => {
                let (subschema, meta) = schema.lookup_for_struct(&key)?;
                let (_, strategy) = meta.retain_keys_and_strategy()?;
                let (Value::Object(o), Value::Object(p)) = (std::mem::take(original_value), patch_value) else { unreachable!("both maps") };
                let merged = if strategy != "replace" { merge_map(o, p, &subschema, opts)? } else { p };
                *original_value = Value::Object(merged);
            }
            GoKind::Slice => {
                let (subschema, meta) = schema.lookup_for_slice(&key)?;
                let (_, strategy) = meta.retain_keys_and_strategy()?;
                let (Value::Array(o), Value::Array(p)) = (std::mem::take(original_value), patch_value) else { unreachable!("both lists") };
                let merged = merge_slice_handler(o, p, &subschema, strategy, meta.merge_key(), is_delete_list, opts, None)?;
                *original_value = Value::Array(merged);
            }
            _ => match remove_directives(patch_value) {
                Some(v) => *original_value = v,
                None => {
                    original.shift_remove(&key);
                }
            },
        }
    }
    Ok(original)
}

/// `handleDirectiveInMergeMap`: `$patch: replace` -> the patch itself
/// (directive removed); `$patch: delete` -> `{}`.
fn handle_directive_in_merge_map(directive: Value, mut patch: Doc) -> Result<Doc, PatchError> {
    match directive.as_str() {
        Some("replace") => {
            patch.shift_remove(DIRECTIVE_MARKER);
            Ok(patch)
        }
        Some("delete") => Ok(Doc::new()),
        _ => Err(PatchError::BadPatchType { directive: fmt_s(&directive), map: fmt_v(&Value::Object(patch)) }),
    }
}

/// `extractKey`: the list key after `<prefix>/`.
fn extract_key(s: &str, prefix: &str) -> Result<String, PatchError> {
    match s.split_once('/') {
        Some((head, rest)) if head == prefix => Ok(rest.to_owned()),
        _ if prefix == DELETE_FROM_PRIMITIVE_LIST_PREFIX => Err(PatchError::BadPatchFormatForPrimitiveList),
        _ => Err(PatchError::BadPatchFormatForSetElementOrderList),
    }
}

/// `discardNullValuesFromPatch`: drops null-valued keys at every depth
/// (null list elements stay).
fn discard_null_values(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            for v in m.values_mut() {
                discard_null_values(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(discard_null_values),
        _ => {}
    }
}

/// `removeDirectives`: `None` when the value itself is a directive object
/// (has `$patch`); nested ones are dropped.
fn remove_directives(v: Value) -> Option<Value> {
    match v {
        Value::Object(m) => {
            if m.contains_key(DIRECTIVE_MARKER) {
                return None;
            }
            let mut out = Doc::new();
            for (k, v) in m {
                if let Some(v) = remove_directives(v) {
                    out.insert(k, v);
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => Some(Value::Array(items.into_iter().filter_map(remove_directives).collect())),
        other => Some(other),
    }
}

/// `applyRetainKeysDirective`.
fn apply_retain_keys_directive(original: &mut Doc, patch: &mut Doc, opts: MergeOptions) -> Result<(), PatchError> {
    let Some(retain) = patch.shift_remove(RETAIN_KEYS_DIRECTIVE) else {
        return Ok(());
    };
    if !opts.merge_parallel_list {
        // Merging two patches: the directive must agree, or is copied over.
        match original.get(RETAIN_KEYS_DIRECTIVE) {
            Some(existing) => {
                if !deep_equal(existing, &retain) {
                    return Err(PatchError::RetainKeysMismatch { original: fmt_v(existing), patch: fmt_v(&retain) });
                }
            }
            None => {
                original.insert(RETAIN_KEYS_DIRECTIVE.to_owned(), retain);
            }
        }
        return Ok(());
    }
    let Value::Array(list) = retain else {
        return Err(PatchError::BadPatchFormatForRetainKeys);
    };
    let listed = |k: &str| list.iter().any(|v| v.as_str() == Some(k));
    for (k, v) in patch.iter() {
        if v.is_null() || k.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.starts_with(SET_ELEMENT_ORDER_PREFIX) {
            continue;
        }
        if !listed(k) {
            return Err(PatchError::BadPatchFormatForRetainKeys);
        }
    }
    original.retain(|k, _| listed(k));
    Ok(())
}

/// `mergePatchIntoOriginal`: the `$setElementOrder/<key>` directives and
/// their lists.
fn merge_patch_into_original<'a, M: LookupPatchMeta<'a>>(original: &mut Doc, patch: &mut Doc, schema: &M, opts: MergeOptions) -> Result<(), PatchError> {
    let keys: Vec<String> = patch.keys().filter(|k| k.starts_with(SET_ELEMENT_ORDER_PREFIX)).cloned().collect();
    for key in keys {
        let Some(set_order) = patch.shift_remove(&key) else { continue };
        if !opts.merge_parallel_list {
            match original.get(&key) {
                Some(existing) => {
                    if !deep_equal(existing, &set_order) {
                        return Err(PatchError::BadPatchFormatForSetElementOrderList);
                    }
                }
                None => {
                    original.insert(key.clone(), set_order.clone());
                }
            }
        }
        let Value::Array(set_order) = set_order else {
            return Err(PatchError::BadArgType { expected: SLICE_TYPE, actual: go_type_name(&set_order) });
        };
        let original_key = extract_key(&key, SET_ELEMENT_ORDER_PREFIX)?;

        // The lists are taken out (Go overwrites / deletes them below; on
        // error the document is dropped).
        let original_list = match original.get_mut(&original_key) {
            None => None,
            Some(Value::Array(a)) => Some(std::mem::take(a)),
            Some(other) => return Err(PatchError::BadArgType { expected: SLICE_TYPE, actual: go_type_name(other) }),
        };
        let patch_list = match patch.shift_remove(&original_key) {
            None => None,
            Some(Value::Array(a)) => Some(a),
            Some(other) => return Err(PatchError::BadArgType { expected: SLICE_TYPE, actual: go_type_name(&other) }),
        };

        let (subschema, meta) = schema.lookup_for_slice(&original_key)?;
        let (_, strategy) = meta.retain_keys_and_strategy()?;
        let merge_key = meta.merge_key();
        validate_patch_with_set_order_list(patch_list.as_deref().unwrap_or(&[]), &set_order, merge_key)?;
        let kind = slice_element_type(&[original_list.as_deref().unwrap_or(&[]), patch_list.as_deref().unwrap_or(&[])]);

        // Go keeps using the original list's slice header (its old length)
        // as the server order after merging into it; the merge shifts that
        // backing array when deleting and appends into the freed slots.
        // `original_field` mirrors what that header then shows (merge-key
        // values are all the ordering reads).
        let mut original_field: Vec<Value> = original_list.as_deref().map(|o| key_stubs(o, merge_key)).unwrap_or_default();
        let merged = match (original_list, patch_list) {
            (Some(o), None) => o,
            (None, Some(p)) => match remove_directives(Value::Array(p)) {
                Some(Value::Array(v)) => v,
                _ => continue,
            },
            (Some(o), Some(p)) => merge_slice_handler(o, p, &subschema, strategy, merge_key, false, opts, Some(&mut original_field))?,
            (None, None) => continue,
        };

        let (patch_items, server_only) = if merge_key.is_empty() {
            partition_primitives(merged, &set_order)
        } else {
            partition_maps(merged, &set_order, merge_key)?
        };
        let both = normalize_element_order(patch_items, server_only, &set_order, &original_field, merge_key, kind?)?;
        original.insert(original_key, Value::Array(both));
    }
    Ok(())
}

/// What the ordering needs of a list: for maps, `{<mergeKey>: value}` (an
/// element without the merge key, or not a map, is kept whole so that errors
/// print it as Go does); scalars as they are.
fn key_stubs(list: &[Value], merge_key: &str) -> Vec<Value> {
    if merge_key.is_empty() {
        return list.to_vec();
    }
    list.iter().map(|v| key_stub(v, merge_key)).collect()
}

fn key_stub(v: &Value, merge_key: &str) -> Value {
    match v.as_object().and_then(|m| m.get(merge_key)) {
        Some(k) if !merge_key.is_empty() => {
            let mut m = Doc::new();
            m.insert(merge_key.to_owned(), k.clone());
            Value::Object(m)
        }
        _ => v.clone(),
    }
}

/// `validatePatchWithSetOrderList`: the patch list's items must appear in
/// the `$setElementOrder` list, in the same relative order.
fn validate_patch_with_set_order_list(patch_list: &[Value], set_order: &[Value], merge_key: &str) -> Result<(), PatchError> {
    if set_order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let non_delete = if merge_key.is_empty() { patch_list.to_vec() } else { extract_to_delete_items(patch_list.to_vec())?.0 };
    let (mut pi, mut si) = (0usize, 0usize);
    while pi < non_delete.len() && si < set_order.len() {
        if non_delete[pi].as_object().is_some_and(|m| m.contains_key(DIRECTIVE_MARKER)) {
            pi += 1;
            continue;
        }
        if merge_key_value_equal(&non_delete[pi], &set_order[si], merge_key)? {
            pi += 1;
        }
        si += 1;
    }
    if pi < non_delete.len() && si >= set_order.len() {
        return Err(PatchError::SetElementOrderMismatch {
            patch: fmt_v(&Value::Array(patch_list.to_vec())),
            order: fmt_v(&Value::Array(set_order.to_vec())),
        });
    }
    Ok(())
}

/// `partitionPrimitivesByPresentInList`: (items in `by`, the others).
fn partition_primitives(list: Vec<Value>, by: &[Value]) -> (Vec<Value>, Vec<Value>) {
    list.into_iter().partition(|v| by.iter().any(|b| go_eq(v, b)))
}

/// `partitionMapsByPresentInList`: (items whose merge-key value is in `by`,
/// the others).
fn partition_maps(list: Vec<Value>, by: &[Value], merge_key: &str) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut inside = Vec::with_capacity(list.len());
    let mut outside = Vec::new();
    for v in list {
        let Some(m) = v.as_object() else {
            return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(&v) });
        };
        let Some(key_value) = m.get(merge_key) else {
            return Err(no_merge_key(&v, merge_key));
        };
        if find_map_by_key(by, merge_key, key_value)?.is_some() {
            inside.push(v);
        } else {
            outside.push(v);
        }
    }
    Ok((inside, outside))
}

/// `findMapInSliceBasedOnKeyValue`: the first map whose `key` equals
/// `value` (Go `==`).
fn find_map_by_key(list: &[Value], key: &str, value: &Value) -> Result<Option<usize>, PatchError> {
    for (i, v) in list.iter().enumerate() {
        let Some(m) = v.as_object() else {
            return Err(PatchError::NotAMap(i));
        };
        if m.get(key).is_some_and(|x| go_eq(x, value)) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// `mergeSliceHandler`: `merge` lists (and delete lists) are merged, other
/// lists replaced by the patch list as it is. `view`: see [`GoSliceView`].
#[allow(clippy::too_many_arguments)]
fn merge_slice_handler<'a, M: LookupPatchMeta<'a>>(
    original: Vec<Value>,
    patch: Vec<Value>,
    schema: &M,
    strategy: &str,
    merge_key: &str,
    is_delete_list: bool,
    opts: MergeOptions,
    view: Option<&mut Vec<Value>>,
) -> Result<Vec<Value>, PatchError> {
    if strategy == "merge" || is_delete_list {
        merge_slice(original, patch, schema, merge_key, opts, is_delete_list, GoSliceView(view))
    } else {
        Ok(patch)
    }
}

/// What the caller's slice header over the original list's backing array
/// shows after Go's in-place edits: a deletion copies the tail one slot to
/// the left (the last slot of the old length keeps its value), and an
/// appended element lands in the first free slot if that is still inside the
/// caller's length. (Appends beyond it go to memory the caller does not see,
/// whatever the capacity.) Only merge-key values are read from it.
struct GoSliceView<'v>(Option<&'v mut Vec<Value>>);

impl GoSliceView<'_> {
    /// Element `i` of a slice of current length `len` removed.
    fn removed(&mut self, i: usize, len: usize) {
        if let Some(view) = self.0.as_deref_mut()
            && i + 1 < len
            && len <= view.len()
        {
            view[i..len].rotate_left(1);
            view[len - 1] = view[len - 2].clone();
        }
    }

    /// `v` appended to a slice of current length `len`.
    fn appended(&mut self, len: usize, v: &Value) {
        if let Some(view) = self.0.as_deref_mut()
            && len < view.len()
        {
            view[len] = v.clone();
        }
    }
}

/// `mergeSlice`.
fn merge_slice<'a, M: LookupPatchMeta<'a>>(
    original: Vec<Value>,
    patch: Vec<Value>,
    schema: &M,
    merge_key: &str,
    opts: MergeOptions,
    is_delete_list: bool,
    mut view: GoSliceView<'_>,
) -> Result<Vec<Value>, PatchError> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let kind = slice_element_type(&[&original, &patch])?;
    let (merged, patch, server_order) = if kind != GoKind::Map {
        if opts.merge_parallel_list && is_delete_list {
            return Ok(delete_from_slice(original, &patch));
        }
        let both = original.iter().chain(patch.iter()).cloned().collect();
        (deduplicate_scalars(both), patch, original)
    } else {
        if merge_key.is_empty() {
            return Err(PatchError::MergeListWithoutMergeKey { type_name: schema.name() });
        }
        let (original, patch, replaced) = merge_slice_with_special_elements(original, patch, merge_key, &mut view)?;
        let server_order = key_stubs(&original, merge_key);
        let patch_order = key_stubs(&patch, merge_key);
        if replaced {
            view = GoSliceView(None);
        }
        let merged = merge_slice_without_special_elements(original, patch, merge_key, schema, opts, &mut view)?;
        (merged, patch_order, server_order)
    };
    let (patch_items, server_only) = if merge_key.is_empty() {
        partition_primitives(merged, &patch)
    } else {
        partition_maps(merged, &patch, merge_key)?
    };
    normalize_element_order(patch_items, server_only, &patch, &server_order, merge_key, kind)
}

/// `mergeSliceWithSpecialElements`: applies `$patch: delete` elements to
/// `original` (all items with that merge key), `$patch: replace` makes the
/// remaining patch elements the whole list.
fn merge_slice_with_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    view: &mut GoSliceView<'_>,
) -> Result<(Vec<Value>, Vec<Value>, bool), PatchError> {
    let mut plain = Vec::with_capacity(patch.len());
    let mut replace = false;
    for v in patch {
        let Value::Object(m) = &v else { unreachable!("element kind checked: maps") };
        match m.get(DIRECTIVE_MARKER) {
            None => plain.push(v),
            Some(directive) => match directive.as_str() {
                Some("delete") => match m.get(merge_key) {
                    Some(key_value) => {
                        let key_value = key_value.clone();
                        while let Some(i) = find_map_by_key(&original, merge_key, &key_value)? {
                            view.removed(i, original.len());
                            original.remove(i);
                        }
                    }
                    None => return Err(no_merge_key(&v, merge_key)),
                },
                Some("replace") => replace = true,
                Some("merge") => return Err(PatchError::MergeDirectiveInList),
                _ => return Err(PatchError::BadPatchType { directive: fmt_s(directive), map: fmt_v(&v) }),
            },
        }
    }
    if replace { Ok((plain, Vec::new(), true)) } else { Ok((original, plain, false)) }
}

/// `mergeSliceWithoutSpecialElements`: each patch element merged into the
/// first original element with the same merge-key value (Go `==`), or
/// appended.
fn merge_slice_without_special_elements<'a, M: LookupPatchMeta<'a>>(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    schema: &M,
    opts: MergeOptions,
    view: &mut GoSliceView<'_>,
) -> Result<Vec<Value>, PatchError> {
    for v in patch {
        let Value::Object(m) = v else { unreachable!("element kind checked: maps") };
        let Some(key_value) = m.get(merge_key) else {
            return Err(no_merge_key(&Value::Object(m), merge_key));
        };
        match find_map_by_key(&original, merge_key, key_value)? {
            Some(i) => {
                let Value::Object(o) = std::mem::take(&mut original[i]) else { unreachable!("found a map") };
                original[i] = Value::Object(merge_map(o, m, schema, opts)?);
            }
            None => {
                let v = Value::Object(m);
                view.appended(original.len(), &key_stub(&v, merge_key));
                original.push(v);
            }
        }
    }
    Ok(original)
}

/// `deleteFromSlice`: `current` without the values in `to_delete` (Go `==`).
fn delete_from_slice(current: Vec<Value>, to_delete: &[Value]) -> Vec<Value> {
    current.into_iter().filter(|v| !to_delete.iter().any(|d| go_eq(v, d))).collect()
}

/// `normalizeElementOrder`: patch items in the patch order, server-only
/// items in their server order, interleaved by `mergeSortedSlice`.
fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: GoKind,
) -> Result<Vec<Value>, PatchError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    Ok(merge_sorted_slice(server_only, patch, server_order, merge_key, kind))
}

/// `mergeSortedSlice`: inserts the server-only items (`left`) among the
/// patch items (`right`): a server-only item goes first when both occur in
/// the server order and it comes earlier there; otherwise the patch item
/// does.
fn merge_sorted_slice(left: Vec<Value>, right: Vec<Value>, server_order: &[Value], merge_key: &str, kind: GoKind) -> Vec<Value> {
    let li: Vec<Option<usize>> = left.iter().map(|v| index_of(server_order, v, merge_key, kind)).collect();
    let ri: Vec<Option<usize>> = right.iter().map(|v| index_of(server_order, v, merge_key, kind)).collect();
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().zip(li).peekable();
    let mut right = right.into_iter().zip(ri).peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((_, l)), Some((_, r))) => matches!((l, r), (Some(l), Some(r)) if l < r),
        };
        let next = if take_left { left.next() } else { right.next() };
        if let Some((v, _)) = next {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn remove_directives_drops_directive_objects_at_any_depth() {
        let v = json!({"a": {"$patch": "delete"}, "b": [{"$patch": "replace"}, 1], "c": null});
        assert_eq!(remove_directives(v), Some(json!({"b": [1], "c": null})));
        assert_eq!(remove_directives(json!({"$patch": "x"})), None);
    }

    #[test]
    fn discard_nulls_keeps_null_list_elements() {
        let mut v = json!({"a": null, "b": {"c": null, "d": 1}, "e": [null, {"f": null}]});
        discard_null_values(&mut v);
        assert_eq!(v, json!({"b": {"d": 1}, "e": [null, {}]}));
    }

    #[test]
    fn server_only_items_interleave_by_their_live_position() {
        let server = vec![json!({"n": "z"}), json!({"n": "a"}), json!({"n": "y"})];
        let left = vec![json!({"n": "z"}), json!({"n": "y"})];
        let right = vec![json!({"n": "b"}), json!({"n": "a"})];
        let out = merge_sorted_slice(left, right, &server, "n", GoKind::Map);
        assert_eq!(Value::Array(out), json!([{"n": "b"}, {"n": "z"}, {"n": "a"}, {"n": "y"}]));
    }

    #[test]
    fn extract_key_requires_the_exact_prefix() {
        assert_eq!(extract_key("$setElementOrder/x/y", SET_ELEMENT_ORDER_PREFIX).unwrap(), "x/y");
        assert_eq!(extract_key("$deleteFromPrimitiveListx", DELETE_FROM_PRIMITIVE_LIST_PREFIX), Err(PatchError::BadPatchFormatForPrimitiveList));
    }
}
