//! `sortMergeListsByName`: the canonical order the Go tests put documents in
//! before comparing (merge lists sorted by merge-key text, primitive merge
//! lists de-duplicated and sorted, `$retainKeys` and
//! `$deleteFromPrimitiveList` values sorted, `$setElementOrder` kept).

use super::diff::{deduplicate_scalars, slice_element_type, sort_scalars};
use super::value::{GoKind, fmt_v_opt};
use super::{DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, Doc, PatchError, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX};
use crate::go::sort as gosort;
use crate::patch::meta::LookupPatchMeta;
use serde_json::Value;

/// `sortMergeListsByName` (the test helper of apimachinery's strategic patch
/// tests): `doc` with every `merge` list in canonical order.
pub fn sort_merge_lists_by_name<'a, M: LookupPatchMeta<'a>>(doc: &Value, schema: &M) -> Result<Value, PatchError> {
    match doc {
        Value::Object(m) => Ok(Value::Object(sort_map(m, schema)?)),
        Value::Null => Ok(Value::Null),
        _ => Err(PatchError::BadJsonDoc),
    }
}

fn sort_map<'a, M: LookupPatchMeta<'a>>(s: &Doc, schema: &M) -> Result<Doc, PatchError> {
    let mut out = Doc::new();
    for (k, v) in s {
        let v = if k == RETAIN_KEYS_DIRECTIVE {
            let Value::Array(list) = v else { return Err(PatchError::BadPatchFormatForRetainKeys) };
            Value::Array(sort_scalars(list.clone()))
        } else if k.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) {
            let Value::Array(list) = v else { return Err(PatchError::BadPatchFormatForPrimitiveList) };
            Value::Array(sort_scalars(list.clone()))
        } else if k.starts_with(SET_ELEMENT_ORDER_PREFIX) {
            if !v.is_array() {
                return Err(PatchError::BadPatchFormatForSetElementOrderList);
            }
            v.clone()
        } else if k != DIRECTIVE_MARKER {
            match v {
                Value::Object(m) => {
                    let (sub, _) = schema.lookup_for_struct(k)?;
                    Value::Object(sort_map(m, &sub)?)
                }
                Value::Array(list) => {
                    let (sub, meta) = schema.lookup_for_slice(k)?;
                    let (_, strategy) = meta.retain_keys_and_strategy()?;
                    if strategy == "merge" { Value::Array(sort_array(list, &sub, meta.merge_key(), true)?) } else { v.clone() }
                }
                _ => v.clone(),
            }
        } else {
            v.clone()
        };
        out.insert(k.clone(), v);
    }
    Ok(out)
}

fn sort_array<'a, M: LookupPatchMeta<'a>>(s: &[Value], schema: &M, merge_key: &str, recurse: bool) -> Result<Vec<Value>, PatchError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    if slice_element_type(&[s])? != GoKind::Map {
        return Ok(sort_scalars(deduplicate_scalars(s.to_vec())));
    }
    let mut items: Vec<(String, Value)> = Vec::with_capacity(s.len());
    for elem in s {
        let elem = match (recurse, elem) {
            (true, Value::Object(m)) => Value::Object(sort_map(m, schema)?),
            _ => elem.clone(),
        };
        items.push((fmt_v_opt(elem.as_object().and_then(|m| m.get(merge_key))), elem));
    }
    gosort::sort(&mut items, |a, b| a.0 <= b.0);
    Ok(items.into_iter().map(|(_, v)| v).collect())
}
