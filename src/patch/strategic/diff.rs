//! The diff (`diffMaps`, `diffLists`, ...): a patch from an old to a new
//! document, with Go's options (ignore changes/additions, ignore deletions,
//! `$setElementOrder`, `$retainKeys`).

use super::value::{GoKind, deep_equal, deep_equal_maps, fmt_v, fmt_v_opt, go_eq, go_eq_opt, go_kind, go_type_name};
use super::{DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, DiffOptions, Doc, PatchError, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX};
use crate::go::sort as gosort;
use crate::patch::meta::LookupPatchMeta;
use serde_json::Value;

const MAP_TYPE: &str = "map[string]interface {}";

/// `diffMaps`: the patch from `original` to `modified`.
pub(crate) fn diff_maps<'a, M: LookupPatchMeta<'a>>(original: &Doc, modified: &Doc, schema: &M, opts: DiffOptions) -> Result<Doc, PatchError> {
    let mut patch = Doc::new();
    let mut retain_keys: Vec<&str> = Vec::new();

    for (key, modified_value) in modified {
        if opts.build_retain_keys_directive && !modified_value.is_null() {
            retain_keys.push(key);
        }
        let Some(original_value) = original.get(key) else {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        };
        if key == DIRECTIVE_MARKER {
            match (original_value.as_str(), modified_value.as_str()) {
                (Some(o), Some(m)) => {
                    if o != m {
                        patch.insert(key.clone(), modified_value.clone());
                    }
                }
                _ => return Err(PatchError::BadDirectiveValue),
            }
            continue;
        }
        if go_kind(original_value) != go_kind(modified_value) {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        match (original_value, modified_value) {
            (Value::Object(o), Value::Object(m)) => handle_map_diff(key, o, m, &mut patch, schema, opts)?,
            (Value::Array(o), Value::Array(m)) => handle_slice_diff(key, o, m, &mut patch, schema, opts)?,
            _ => replace_if_not_equal(key, original_value, modified_value, &mut patch, opts),
        }
    }

    if !opts.ignore_deletions {
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
    }

    if !retain_keys.is_empty() && (!patch.is_empty() || has_additional_new_field(original, modified)) {
        // sortScalars on distinct strings: plain byte order.
        retain_keys.sort_unstable();
        let list = retain_keys.into_iter().map(|k| Value::String(k.to_owned())).collect();
        patch.insert(RETAIN_KEYS_DIRECTIVE.to_owned(), Value::Array(list));
    }
    Ok(patch)
}

/// `hasAdditionalNewField`: `original` has a non-null key `modified` lacks.
fn has_additional_new_field(original: &Doc, modified: &Doc) -> bool {
    original.iter().any(|(k, v)| !v.is_null() && !modified.contains_key(k))
}

fn replace_if_not_equal(key: &str, original: &Value, modified: &Value, patch: &mut Doc, opts: DiffOptions) {
    if opts.ignore_changes_and_additions || deep_equal(original, modified) {
        return;
    }
    patch.insert(key.to_owned(), modified.clone());
}

fn handle_map_diff<'a, M: LookupPatchMeta<'a>>(
    key: &str,
    original: &Doc,
    modified: &Doc,
    patch: &mut Doc,
    schema: &M,
    opts: DiffOptions,
) -> Result<(), PatchError> {
    let (subschema, meta) = match schema.lookup_for_struct(key) {
        Ok(x) => x,
        // Identical values need no metadata.
        Err(_) if deep_equal_maps(original, modified) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let (retain_keys, strategy) = meta.retain_keys_and_strategy()?;
    let opts = DiffOptions { build_retain_keys_directive: retain_keys, ..opts };
    if strategy == "replace" {
        // Emitted without comparing.
        if !opts.ignore_changes_and_additions {
            patch.insert(key.to_owned(), Value::Object(modified.clone()));
        }
    } else {
        let value = diff_maps(original, modified, &subschema, opts)?;
        if !value.is_empty() {
            patch.insert(key.to_owned(), Value::Object(value));
        }
    }
    Ok(())
}

fn handle_slice_diff<'a, M: LookupPatchMeta<'a>>(
    key: &str,
    original: &[Value],
    modified: &[Value],
    patch: &mut Doc,
    schema: &M,
    opts: DiffOptions,
) -> Result<(), PatchError> {
    let (subschema, meta) = match schema.lookup_for_slice(key) {
        Ok(x) => x,
        Err(_) if deep_equal_slices(original, modified) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let (retain_keys, strategy) = meta.retain_keys_and_strategy()?;
    if strategy == "merge" {
        let opts = DiffOptions { build_retain_keys_directive: retain_keys, ..opts };
        let (add, delete, order) = diff_lists(original, modified, &subschema, meta.merge_key(), opts)?;
        if !add.is_empty() {
            patch.insert(key.to_owned(), Value::Array(add));
        }
        if !delete.is_empty() {
            patch.insert(format!("{DELETE_FROM_PRIMITIVE_LIST_PREFIX}/{key}"), Value::Array(delete));
        }
        if !order.is_empty() {
            patch.insert(format!("{SET_ELEMENT_ORDER_PREFIX}/{key}"), Value::Array(order));
        }
    } else if !opts.ignore_changes_and_additions && !deep_equal_slices(original, modified) {
        patch.insert(key.to_owned(), Value::Array(modified.to_vec()));
    }
    Ok(())
}

pub(crate) fn deep_equal_slices(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| deep_equal(x, y))
}

type Lists = (Vec<Value>, Vec<Value>, Vec<Value>);

/// `diffLists`: the patch list, the `$deleteFromPrimitiveList` list and the
/// `$setElementOrder` list of a `merge` list.
fn diff_lists<'a, M: LookupPatchMeta<'a>>(
    original: &[Value],
    modified: &[Value],
    schema: &M,
    merge_key: &str,
    opts: DiffOptions,
) -> Result<Lists, PatchError> {
    if original.is_empty() {
        if modified.is_empty() || opts.ignore_changes_and_additions {
            return Ok((Vec::new(), Vec::new(), Vec::new()));
        }
        return Ok((modified.to_vec(), Vec::new(), Vec::new()));
    }
    let kind = slice_element_type(&[original, modified])?;
    match kind {
        GoKind::Map => {
            let (patch_list, delete_list) = diff_lists_of_maps(original, modified, schema, merge_key, opts)?;
            let mut patch_list = normalize_slice_order(patch_list, modified, merge_key, kind)?;
            let order_same = is_order_same(original, modified, merge_key)?;
            patch_list.extend(delete_list);
            let mut set_order = Vec::new();
            if opts.set_element_order
                && ((!opts.ignore_changes_and_additions && (!patch_list.is_empty() || !order_same))
                    || (!opts.ignore_deletions && !patch_list.is_empty()))
            {
                set_order = modified
                    .iter()
                    .map(|v| {
                        let mut m = Doc::new();
                        let key_value = v.as_object().and_then(|o| o.get(merge_key)).cloned().unwrap_or(Value::Null);
                        m.insert(merge_key.to_owned(), key_value);
                        Value::Object(m)
                    })
                    .collect();
            }
            Ok((patch_list, Vec::new(), set_order))
        }
        GoKind::Slice => Err(PatchError::NoListOfLists),
        _ => {
            let (add, delete, sorted_original) = diff_lists_of_scalars(original, modified, opts);
            let add = normalize_slice_order(add, modified, merge_key, kind)?;
            let mut set_order = Vec::new();
            // Go compares the old list *after* sorting it in place.
            if opts.set_element_order
                && ((!opts.ignore_deletions && !delete.is_empty())
                    || (!opts.ignore_changes_and_additions && !deep_equal_slices(&sorted_original, modified)))
            {
                set_order = modified.to_vec();
            }
            Ok((add, delete, set_order))
        }
    }
}

/// `sliceElementType`: the one Go type of all elements of the lists.
pub(crate) fn slice_element_type(lists: &[&[Value]]) -> Result<GoKind, PatchError> {
    let mut prev: Option<GoKind> = None;
    for list in lists {
        for v in list.iter() {
            let t = go_kind(v);
            match prev {
                None => {
                    if t == GoKind::Nil {
                        return Err(PatchError::NullListElement);
                    }
                    if t == GoKind::Slice {
                        return Err(PatchError::NoListOfLists);
                    }
                    prev = Some(t);
                }
                Some(p) if p != t => {
                    let parts: Vec<String> = lists.iter().map(|l| fmt_v(&Value::Array(l.to_vec()))).collect();
                    return Err(PatchError::ElementTypesNotIdentical { lists: format!("[{}]", parts.join(" ")) });
                }
                Some(_) => {}
            }
        }
    }
    prev.ok_or(PatchError::NoElements)
}

/// `sortMapsBasedOnField` (`sort.Sort`, `Less` = `%v(a[key]) <= %v(b[key])`).
fn sort_maps_by_merge_key<'v>(list: &'v [Value], merge_key: &str) -> Vec<(String, &'v Value)> {
    let mut keyed: Vec<(String, &Value)> =
        list.iter().map(|v| (fmt_v_opt(v.as_object().and_then(|m| m.get(merge_key))), v)).collect();
    gosort::sort(&mut keyed, |a, b| a.0 <= b.0);
    keyed
}

/// `sortScalars` (`sort.Sort`, `Less` = `%v(a) <= %v(b)`), keeping the text.
pub(crate) fn sort_scalars_keyed(list: Vec<Value>) -> Vec<(String, Value)> {
    let mut keyed: Vec<(String, Value)> = list.into_iter().map(|v| (fmt_v(&v), v)).collect();
    gosort::sort(&mut keyed, |a, b| a.0 <= b.0);
    keyed
}

/// `sortScalars`.
pub(crate) fn sort_scalars(list: Vec<Value>) -> Vec<Value> {
    sort_scalars_keyed(list).into_iter().map(|(_, v)| v).collect()
}

/// `deduplicateScalars` (Go's swap-with-last algorithm; the order matters).
pub(crate) fn deduplicate_scalars(mut s: Vec<Value>) -> Vec<Value> {
    let mut length = s.len() as isize - 1;
    let mut i = 0isize;
    while i < length {
        let mut j = i + 1;
        while j <= length {
            if go_eq(&s[i as usize], &s[j as usize]) {
                s.swap(j as usize, length as usize);
                s.truncate(length as usize);
                length -= 1;
                j -= 1;
            }
            j += 1;
        }
        i += 1;
    }
    s
}

/// `getMapAndMergeKeyValueByIndex`.
fn map_and_merge_key<'v>(item: &'v Value, merge_key: &str) -> Result<(&'v Doc, &'v Value), PatchError> {
    let Some(m) = item.as_object() else {
        return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(item) });
    };
    match m.get(merge_key) {
        Some(v) => Ok((m, v)),
        None => Err(no_merge_key(item, merge_key)),
    }
}

pub(crate) fn no_merge_key(item: &Value, merge_key: &str) -> PatchError {
    PatchError::NoMergeKey { map: fmt_v(item), key: merge_key.to_owned() }
}

/// `diffListsOfMaps`: changed/added elements, and delete directives for
/// removed ones, walking both lists sorted by the merge key's `%v` text.
fn diff_lists_of_maps<'a, M: LookupPatchMeta<'a>>(
    original: &[Value],
    modified: &[Value],
    schema: &M,
    merge_key: &str,
    opts: DiffOptions,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut patch = Vec::with_capacity(modified.len());
    let mut deletions = Vec::new();
    let original_sorted = sort_maps_by_merge_key(original, merge_key);
    let modified_sorted = sort_maps_by_merge_key(modified, merge_key);
    let (mut oi, mut mi) = (0usize, 0usize);
    loop {
        let original_in = oi < original_sorted.len();
        let modified_in = mi < modified_sorted.len();
        if !original_in && !modified_in {
            break;
        }
        let mut o = None;
        let mut m = None;
        if original_in {
            let (map, key) = map_and_merge_key(original_sorted[oi].1, merge_key)?;
            o = Some((map, key, &original_sorted[oi].0));
        }
        if modified_in {
            let (map, key) = map_and_merge_key(modified_sorted[mi].1, merge_key)?;
            m = Some((map, key, &modified_sorted[mi].0));
        }
        match (o, m) {
            (Some((om, _, os)), Some((mm, mk, ms))) if os == ms => {
                let mut value = diff_maps(om, mm, schema, opts)?;
                if !value.is_empty() {
                    value.insert(merge_key.to_owned(), mk.clone());
                    patch.push(Value::Object(value));
                }
                oi += 1;
                mi += 1;
            }
            (None, Some((mm, _, _))) => {
                if !opts.ignore_changes_and_additions {
                    patch.push(Value::Object(mm.clone()));
                }
                mi += 1;
            }
            (Some((_, _, os)), Some((mm, _, ms))) if os > ms => {
                if !opts.ignore_changes_and_additions {
                    patch.push(Value::Object(mm.clone()));
                }
                mi += 1;
            }
            (Some((_, ok, _)), _) => {
                if !opts.ignore_deletions {
                    deletions.push(delete_directive(merge_key, ok));
                }
                oi += 1;
            }
            (None, None) => unreachable!("loop ends when both are exhausted"),
        }
    }
    Ok((patch, deletions))
}

/// `CreateDeleteDirective`: `{<mergeKey>: value, "$patch": "delete"}`.
fn delete_directive(merge_key: &str, value: &Value) -> Value {
    let mut m = Doc::new();
    m.insert(merge_key.to_owned(), value.clone());
    m.insert(DIRECTIVE_MARKER.to_owned(), Value::String("delete".to_owned()));
    Value::Object(m)
}

/// `diffListsOfScalars`: additions (in sorted order) and de-duplicated
/// removals, plus the old list sorted as Go leaves it.
fn diff_lists_of_scalars(original: &[Value], modified: &[Value], opts: DiffOptions) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let original_sorted = sort_scalars_keyed(original.to_vec());
    let modified_sorted = sort_scalars_keyed(modified.to_vec());
    let mut add = Vec::new();
    let mut deletions = Vec::new();
    let (mut oi, mut mi) = (0usize, 0usize);
    loop {
        let original_in = oi < original_sorted.len();
        let modified_in = mi < modified_sorted.len();
        if !original_in && !modified_in {
            break;
        }
        let both = original_in && modified_in;
        if both && original_sorted[oi].0 == modified_sorted[mi].0 {
            oi += 1;
            mi += 1;
        } else if !original_in || (both && original_sorted[oi].0 > modified_sorted[mi].0) {
            if !opts.ignore_changes_and_additions {
                add.push(modified_sorted[mi].1.clone());
            }
            mi += 1;
        } else {
            if !opts.ignore_deletions {
                deletions.push(original_sorted[oi].1.clone());
            }
            oi += 1;
        }
    }
    let sorted_original = original_sorted.into_iter().map(|(_, v)| v).collect();
    (add, deduplicate_scalars(deletions), sorted_original)
}

/// `isOrderSame`: same length and the same merge-key values position by
/// position.
fn is_order_same(original: &[Value], modified: &[Value], merge_key: &str) -> Result<bool, PatchError> {
    if original.len() != modified.len() {
        return Ok(false);
    }
    for (o, m) in original.iter().zip(modified) {
        if !merge_key_value_equal(o, m, merge_key)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `mergeKeyValueEqual`: the merge-key values compared with Go's `==` (the
/// items themselves when there is no merge key).
pub(crate) fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool, PatchError> {
    if merge_key.is_empty() {
        return Ok(go_eq(left, right));
    }
    let Some(l) = left.as_object() else {
        return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(left) });
    };
    let Some(r) = right.as_object() else {
        return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(right) });
    };
    let Some(lk) = l.get(merge_key) else { return Err(no_merge_key(left, merge_key)) };
    let Some(rk) = r.get(merge_key) else { return Err(no_merge_key(right, merge_key)) };
    Ok(go_eq(lk, rk))
}

/// `index`: position of `value` in `list` (by merge-key value for maps, by
/// the item for scalars), compared with Go's `==`.
pub(crate) fn index_of(list: &[Value], value: &Value, merge_key: &str, kind: GoKind) -> Option<usize> {
    if kind == GoKind::Map {
        fn get<'v>(item: &'v Value, merge_key: &str) -> Option<&'v Value> {
            item.as_object().and_then(|m| m.get(merge_key))
        }
        let target = get(value, merge_key);
        list.iter().position(|v| go_eq_opt(target, get(v, merge_key)))
    } else {
        list.iter().position(|v| go_eq(value, v))
    }
}

/// `validateMergeKeyInLists`.
pub(crate) fn validate_merge_key_in_lists(merge_key: &str, lists: &[&[Value]]) -> Result<(), PatchError> {
    for list in lists {
        for item in list.iter() {
            let Some(m) = item.as_object() else {
                return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(item) });
            };
            if !m.contains_key(merge_key) {
                return Err(no_merge_key(item, merge_key));
            }
        }
    }
    Ok(())
}

/// `extractToDeleteItems`: (kept items, `$patch: delete` items).
pub(crate) fn extract_to_delete_items(list: Vec<Value>) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut keep = Vec::with_capacity(list.len());
    let mut delete = Vec::new();
    for v in list {
        let Some(m) = v.as_object() else {
            return Err(PatchError::BadArgType { expected: MAP_TYPE, actual: go_type_name(&v) });
        };
        if m.get(DIRECTIVE_MARKER).and_then(Value::as_str) == Some("delete") {
            delete.push(v);
        } else {
            keep.push(v);
        }
    }
    Ok((keep, delete))
}

/// `normalizeSliceOrder`: `to_sort` ordered like `order` (stable; an item
/// missing from `order` compares as "less" both ways, as in Go); for maps,
/// `$patch: delete` items go last.
pub(crate) fn normalize_slice_order(to_sort: Vec<Value>, order: &[Value], merge_key: &str, kind: GoKind) -> Result<Vec<Value>, PatchError> {
    let (to_sort, to_delete) = if kind == GoKind::Map {
        validate_merge_key_in_lists(merge_key, &[&to_sort, order])?;
        extract_to_delete_items(to_sort)?
    } else {
        (to_sort, Vec::new())
    };
    let mut keyed: Vec<(Option<usize>, Value)> = to_sort.into_iter().map(|v| (index_of(order, &v, merge_key, kind), v)).collect();
    gosort::stable(&mut keyed, |a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x < y,
        _ => true,
    });
    let mut out: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
    out.extend(to_delete);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vals(v: Value) -> Vec<Value> {
        v.as_array().unwrap().clone()
    }

    #[test]
    fn deduplicate_moves_the_last_item_into_the_hole() {
        assert_eq!(deduplicate_scalars(vals(json!([1, 2, 1, 3]))), vals(json!([1, 2, 3])));
        assert_eq!(deduplicate_scalars(vals(json!([1, 1, 2, 3]))), vals(json!([1, 3, 2])));
        assert_eq!(deduplicate_scalars(vals(json!(["a", "a", "a"]))), vals(json!(["a"])));
        assert_eq!(deduplicate_scalars(vals(json!([1, "1"]))), vals(json!([1, "1"])));
    }

    #[test]
    fn scalars_sort_by_their_go_text() {
        assert_eq!(sort_scalars(vals(json!([10, 9, "b", "a"]))), vals(json!([10, 9, "a", "b"])));
    }

    #[test]
    fn element_type_must_be_uniform() {
        let a = vals(json!([1, 2]));
        let b = vals(json!(["x"]));
        let e = slice_element_type(&[&a, &b]).unwrap_err();
        assert_eq!(e.to_string(), "list element types are not identical: [[1 2] [x]]");
        assert_eq!(slice_element_type(&[&[], &[]]).unwrap_err().to_string(), "no elements in any of the given slices");
        let ll = vals(json!([[1]]));
        assert_eq!(slice_element_type(&[&ll]).unwrap_err(), PatchError::NoListOfLists);
    }

    #[test]
    fn normalize_orders_like_the_reference_and_puts_deletes_last() {
        let order = vals(json!([{"name": "b"}, {"name": "a"}]));
        let to_sort = vals(json!([{"name": "x", "$patch": "delete"}, {"name": "a", "v": 1}, {"name": "b"}]));
        let out = normalize_slice_order(to_sort, &order, "name", GoKind::Map).unwrap();
        assert_eq!(Value::Array(out), json!([{"name": "b"}, {"name": "a", "v": 1}, {"name": "x", "$patch": "delete"}]));
    }

    #[test]
    fn index_compares_merge_keys_with_go_equality() {
        let list = vals(json!([{"name": 1}, {"name": "1"}]));
        assert_eq!(index_of(&list, &json!({"name": "1"}), "name", GoKind::Map), Some(1));
        assert_eq!(index_of(&list, &json!({"other": 1}), "name", GoKind::Map), None);
    }
}
