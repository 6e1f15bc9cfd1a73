//! JSON merge patch (RFC 7386) the way Helm computes it for custom resources:
//! evanphx/json-patch's `CreateMergePatch` and `MergePatch` (the root
//! package, i.e. the v4 API; identical in v4.12.0 and v5.9.11) and
//! apimachinery's `CreateThreeWayJSONMergePatch`.
//!
//! - [`create_merge_patch`]: the two-way patch `helm upgrade` and
//!   `helm rollback` send for objects without a Go type (old manifest -> new
//!   manifest; the live object is not used).
//! - [`create_three_way`]: the three-way patch of `helm install
//!   --take-ownership` (deletions original -> modified, plus additions and
//!   changes current -> modified), with preconditions.
//! - [`apply`]: RFC 7386 `MergePatch`, as evanphx applies it.
//!
//! # Numbers
//!
//! evanphx decodes every number into a float64, compares numbers as float64
//! and prints them as float64. The patches returned here are in that form
//! already ([`gojson::to_float64_value`]): `1.0` and `1` are the same value,
//! integers above 2^53 are rounded (`12345678901234567890` becomes
//! `12345678901234567168.0`, printed `12345678901234567000`), integral values
//! up to 2^53 are integers. [`gojson::to_go_json`] of a returned patch is the
//! exact body Go would send. [`apply`] leaves numbers as they are (evanphx
//! passes untouched values through as raw JSON text).
//!
//! # Quirks reproduced
//!
//! - A key present in `modified` but not in `original` is copied verbatim,
//!   nulls nested in it included; an explicit `null` for a key absent from
//!   `original` is emitted as `null`.
//! - Lists are replaced whole when not element-wise equal (order matters);
//!   objects are compared as maps (key order never matters); two nulls are
//!   equal; a type change (including `null` vs a value) replaces.
//! - Both documents arrays: a pairwise patch per element, returned as an array
//!   (lengths must match, else "Invalid JSON Document"); one array and one
//!   not: "Mismatched JSON Documents"; a document that is a string, number or
//!   boolean: "Invalid JSON Document"; a `null` document is an empty object.
//! - Apply: `null` deletes; a value added where the target lacks the key, or
//!   holds `null`, or holds a non-object, has its nested nulls pruned (null
//!   elements of arrays are kept, nulls inside objects inside arrays are
//!   pruned); a non-object value replacing an object is taken as is (nulls
//!   inside it kept). A target that is not an object yields the patch with
//!   nulls pruned; a patch that is an array yields that array (pruned); a
//!   `null` target or a `null`/scalar patch is an error.
//! - Three-way: add/change = patch(current -> modified) with every null
//!   dropped (explicitly empty objects kept, objects left empty by the
//!   filter dropped, lists kept whole); deletions = patch(original ->
//!   modified) with only the nulls kept; result = deletions merged with
//!   add/change by `MergePatch`, which prunes nulls inside objects inside
//!   lists of the add/change part. A conflict check between the two runs but
//!   cannot fire on these inputs.
//!
//! Not reproduced (inputs Go itself never produces): raw JSON passed through
//! by `MergePatch` keeps its own number spelling (`1.0`, `1e2`, integers
//! beyond int64, which [`gojson::to_go_json`] prints as float64), escapes and
//! key order in Go.
//!
//! Helm 4 (`main`) imports `github.com/evanphx/json-patch/v5` instead, whose
//! `CreateMergePatch` decodes numbers as `json.Number` (compared as text,
//! printed verbatim, no float64 rounding); this module follows Helm 3.

use crate::go::json::{self as gojson, GoNumbers};
use serde_json::{Map, Value};
use std::fmt;

/// Errors of the JSON merge patch functions; messages as Go's.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JsonMergeError {
    /// evanphx `ErrBadJSONDoc`: a document is not an object (or arrays of
    /// different lengths were given), or the target of `apply` is `null`.
    #[error("Invalid JSON Document")]
    BadJsonDoc,
    /// evanphx `ErrBadJSONPatch`: the patch given to `apply` is `null` or a
    /// scalar.
    #[error("Invalid JSON Patch")]
    BadJsonPatch,
    /// evanphx `errBadMergeTypes`: one document is an array, the other not.
    #[error("Mismatched JSON Documents")]
    MismatchedDocuments,
    /// The three-way code decodes each two-way patch into a Go map; two array
    /// documents give an array patch, which it refuses.
    #[error("json: cannot unmarshal {found} into Go value of type map[string]interface {{}}")]
    NotAnObject {
        /// The JSON type found (`array`).
        found: &'static str,
    },
    /// `mergepatch.ErrConflict`: the add/change and deletion parts of a
    /// three-way patch disagree on a key (Go prints both parts as YAML; here
    /// they are Go JSON).
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{changes}\n")]
    Conflict {
        /// The add/change part.
        patch: String,
        /// The deletion part.
        changes: String,
    },
    /// A precondition failed; `patch` is Go's `%v` of the patch, as in Go's
    /// message.
    #[error("precondition failed for: {patch}")]
    PreconditionFailed {
        /// The first precondition that failed.
        precondition: Precondition,
        /// Go's `%v` rendering of the patch (`map[kind:Foo]`).
        patch: String,
    },
}

/// A check on a three-way patch (apimachinery `mergepatch.PreconditionFunc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// `RequireKeyUnchanged(key)`: the patch must not contain the top-level
    /// key (with any value, `null` included).
    KeyUnchanged(String),
    /// `RequireMetadataKeyUnchanged(key)`: when the patch has an object
    /// `metadata`, it must not contain the key.
    MetadataKeyUnchanged(String),
}

impl Precondition {
    /// The preconditions Helm passes: `apiVersion`, `kind` and
    /// `metadata.name` unchanged. (Helm then tests the error with
    /// `mergepatch.IsPreconditionFailed` to add "at least one field was
    /// changed: apiVersion, kind or name"; the error this function returns in
    /// Go is a plain `fmt.Errorf`, so that test is false and Helm reports the
    /// bare "precondition failed for: map[...]".)
    pub fn helm() -> Vec<Precondition> {
        vec![
            Precondition::KeyUnchanged("apiVersion".to_owned()),
            Precondition::KeyUnchanged("kind".to_owned()),
            Precondition::MetadataKeyUnchanged("name".to_owned()),
        ]
    }

    /// Whether the patch passes (a patch that is not an object always does).
    pub fn holds(&self, patch: &Value) -> bool {
        let Value::Object(map) = patch else {
            return true;
        };
        match self {
            Precondition::KeyUnchanged(key) => !map.contains_key(key),
            Precondition::MetadataKeyUnchanged(key) => match map.get("metadata") {
                Some(Value::Object(meta)) => !meta.contains_key(key),
                _ => true,
            },
        }
    }
}

impl fmt::Display for Precondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Precondition::KeyUnchanged(key) => write!(f, "{key} unchanged"),
            Precondition::MetadataKeyUnchanged(key) => write!(f, "metadata.{key} unchanged"),
        }
    }
}

/// evanphx `CreateMergePatch(original, modified)`: the RFC 7386 patch turning
/// `original` into `modified`, numbers as float64 (see the module docs).
pub fn create_merge_patch(original: &Value, modified: &Value) -> Result<Value, JsonMergeError> {
    match (original, modified) {
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(JsonMergeError::BadJsonDoc);
            }
            a.iter()
                .zip(b)
                .map(|(x, y)| create_object_patch(x, y))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
        (Value::Array(_), _) | (_, Value::Array(_)) => Err(JsonMergeError::MismatchedDocuments),
        _ => create_object_patch(original, modified),
    }
}

/// A document decoded into a Go `map[string]interface{}`: `null` gives a nil
/// (empty) map, anything but an object is an error.
fn as_document(v: &Value) -> Result<Option<&Map<String, Value>>, JsonMergeError> {
    match v {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        _ => Err(JsonMergeError::BadJsonDoc),
    }
}

fn create_object_patch(original: &Value, modified: &Value) -> Result<Value, JsonMergeError> {
    let empty = Map::new();
    let a = as_document(original)?.unwrap_or(&empty);
    let b = as_document(modified)?.unwrap_or(&empty);
    Ok(Value::Object(diff_objects(a, b)))
}

/// evanphx `getDiff`.
fn diff_objects(a: &Map<String, Value>, b: &Map<String, Value>) -> Map<String, Value> {
    let mut into = Map::new();
    for (key, bv) in b {
        let Some(av) = a.get(key) else {
            into.insert(key.clone(), gojson::to_float64_value(bv));
            continue;
        };
        match (av, bv) {
            (Value::Object(x), Value::Object(y)) => {
                let sub = diff_objects(x, y);
                if !sub.is_empty() {
                    into.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Null, Value::Null) => {}
            _ => {
                if !matches_value(av, bv) {
                    into.insert(key.clone(), gojson::to_float64_value(bv));
                }
            }
        }
    }
    for key in a.keys() {
        if !b.contains_key(key) {
            into.insert(key.clone(), Value::Null);
        }
    }
    into
}

/// evanphx `matchesValue`: deep equality of Go values decoded with every
/// number a float64 (so `1 == 1.0`); object key order never matters, list
/// order does.
fn matches_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => gojson::go_float64(x) == gojson::go_float64(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| matches_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && y.iter()
                    .all(|(k, q)| x.get(k).is_some_and(|p| matches_value(p, q)))
        }
        _ => false,
    }
}

/// evanphx `MergePatch(doc, patch)` (RFC 7386 with evanphx's null pruning; see
/// the module docs). Numbers are left as they are.
pub fn apply(doc: &Value, patch: &Value) -> Result<Value, JsonMergeError> {
    if doc.is_null() {
        return Err(JsonMergeError::BadJsonDoc);
    }
    match (doc, patch) {
        (_, Value::Null) => Err(JsonMergeError::BadJsonPatch),
        (Value::Object(d), Value::Object(p)) => {
            let mut d = d.clone();
            merge_objects(&mut d, p);
            Ok(Value::Object(d))
        }
        // The target is not an object: the patch is the result.
        (_, Value::Object(p)) => Ok(Value::Object(pruned_object(p))),
        // An array patch (whatever the target) is the result.
        (_, Value::Array(p)) => Ok(Value::Array(pruned_array(p))),
        _ => Err(JsonMergeError::BadJsonPatch),
    }
}

/// evanphx `mergeDocs` (without "merge-merge").
fn merge_objects(doc: &mut Map<String, Value>, patch: &Map<String, Value>) {
    for (key, pv) in patch {
        if pv.is_null() {
            doc.shift_remove(key);
            continue;
        }
        match doc.get_mut(key) {
            None | Some(Value::Null) => {
                doc.insert(key.clone(), pruned(pv));
            }
            Some(cur) => merge_value(cur, pv),
        }
    }
}

/// evanphx `merge` of a non-null patch value into a non-null target value.
fn merge_value(cur: &mut Value, pv: &Value) {
    match (cur, pv) {
        (Value::Object(c), Value::Object(p)) => merge_objects(c, p),
        // An object replaced by a non-object: taken as it is, nested nulls
        // kept.
        (cur @ Value::Object(_), _) => *cur = pv.clone(),
        // Any other target is replaced by the patch value, nulls pruned.
        (cur, _) => *cur = pruned(pv),
    }
}

/// evanphx `pruneNulls`: nulls removed from objects at every depth; null
/// elements of arrays are kept.
fn pruned(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(pruned_object(m)),
        Value::Array(a) => Value::Array(pruned_array(a)),
        other => other.clone(),
    }
}

fn pruned_object(m: &Map<String, Value>) -> Map<String, Value> {
    m.iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), pruned(v)))
        .collect()
}

fn pruned_array(a: &[Value]) -> Vec<Value> {
    a.iter().map(pruned).collect()
}

/// apimachinery `CreateThreeWayJSONMergePatch(original, modified, current,
/// preconditions...)`. `Value::Null` stands for "no document" (an empty
/// object), as empty input does in Go.
pub fn create_three_way(
    original: &Value,
    modified: &Value,
    current: &Value,
    preconditions: &[Precondition],
) -> Result<Value, JsonMergeError> {
    let add_and_change =
        keep_or_delete_null(patch_object(create_merge_patch(current, modified)?)?, false);
    let deletions =
        keep_or_delete_null(patch_object(create_merge_patch(original, modified)?)?, true);

    let add_and_change = Value::Object(add_and_change);
    let deletions = Value::Object(deletions);
    if has_conflicts(&add_and_change, &deletions) {
        return Err(JsonMergeError::Conflict {
            patch: gojson::to_go_json(&add_and_change),
            changes: gojson::to_go_json(&deletions),
        });
    }
    let patch = apply(&deletions, &add_and_change)?;

    if let Some(p) = preconditions.iter().find(|p| !p.holds(&patch)) {
        return Err(JsonMergeError::PreconditionFailed {
            precondition: p.clone(),
            patch: crate::go::fmt::go_v_with(&k8s_typed(&patch), GoNumbers::Int64OrFloat64),
        });
    }
    Ok(patch)
}

/// `json.Unmarshal(patch, &map[string]interface{})` of a two-way patch.
fn patch_object(patch: Value) -> Result<Map<String, Value>, JsonMergeError> {
    match patch {
        Value::Object(m) => Ok(m),
        Value::Array(_) => Err(JsonMergeError::NotAnObject { found: "array" }),
        // create_merge_patch returns objects or arrays only.
        _ => Err(JsonMergeError::BadJsonDoc),
    }
}

/// apimachinery `keepOrDeleteNullInObj`: with `keep_null`, only the nulls
/// (and the objects leading to them); without, everything but the nulls.
/// Explicitly empty objects count as values (kept only without `keep_null`);
/// objects left empty by the filter are dropped; lists and scalars are values
/// and are never looked into.
pub fn keep_or_delete_null(obj: Map<String, Value>, keep_null: bool) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, val) in obj {
        match val {
            Value::Null => {
                if keep_null {
                    out.insert(key, Value::Null);
                }
            }
            Value::Object(sub) if sub.is_empty() => {
                if !keep_null {
                    out.insert(key, Value::Object(sub));
                }
            }
            Value::Object(sub) => {
                let filtered = keep_or_delete_null(sub, keep_null);
                if !filtered.is_empty() {
                    out.insert(key, Value::Object(filtered));
                }
            }
            other => {
                if !keep_null {
                    out.insert(key, other);
                }
            }
        }
    }
    out
}

/// apimachinery `mergepatch.HasConflicts`: whether the two values overlap
/// with different values on some key (lists compared element by element).
fn has_conflicts(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => l
            .iter()
            .any(|(k, lv)| r.get(k).is_some_and(|rv| has_conflicts(lv, rv))),
        (Value::Object(_), _) => true,
        (Value::Array(l), Value::Array(r)) => {
            l.len() != r.len() || l.iter().zip(r).any(|(a, b)| has_conflicts(a, b))
        }
        (Value::Array(_), _) => true,
        _ => !matches_value(left, right),
    }
}

/// The patch as apimachinery's `util/json` decodes its bytes (for the
/// precondition message): a number whose float64 text is an int64 literal is
/// an int64, any other a float64.
fn k8s_typed(v: &Value) -> Value {
    match v {
        Value::Number(n) => {
            let f = gojson::go_float64(n);
            match gojson::format_go_float64(f).and_then(|t| t.parse::<i64>().ok()) {
                Some(i) => Value::from(i),
                None => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(k8s_typed).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), k8s_typed(v))).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::json::to_go_json;
    use serde_json::json;

    fn two_way(a: Value, b: Value) -> String {
        to_go_json(&create_merge_patch(&a, &b).unwrap())
    }

    fn merged(doc: Value, patch: Value) -> String {
        to_go_json(&apply(&doc, &patch).unwrap())
    }

    // --- create_merge_patch ---

    #[test]
    fn identical_documents_give_empty_patch() {
        assert_eq!(
            two_way(
                json!({"a": {"b": [1, {"c": 2}]}}),
                json!({"a": {"b": [1, {"c": 2}]}})
            ),
            "{}"
        );
    }

    #[test]
    fn removed_key_becomes_null() {
        assert_eq!(
            two_way(json!({"a": 1, "b": {"x": 1}}), json!({"a": 1})),
            r#"{"b":null}"#
        );
    }

    #[test]
    fn added_key_copied_verbatim_with_nested_nulls() {
        assert_eq!(
            two_way(
                json!({}),
                json!({"a": {"x": null, "y": [null, {"z": null}]}})
            ),
            r#"{"a":{"x":null,"y":[null,{"z":null}]}}"#
        );
    }

    #[test]
    fn explicit_null_for_absent_key_is_emitted() {
        assert_eq!(
            two_way(json!({"spec": {}}), json!({"spec": {"x": null}})),
            r#"{"spec":{"x":null}}"#
        );
    }

    #[test]
    fn null_on_both_sides_is_no_change() {
        assert_eq!(two_way(json!({"x": null}), json!({"x": null})), "{}");
    }

    #[test]
    fn value_replaced_by_null_is_a_change_to_null() {
        assert_eq!(
            two_way(json!({"x": {"a": 1}}), json!({"x": null})),
            r#"{"x":null}"#
        );
    }

    #[test]
    fn nested_objects_recursed_and_unchanged_ones_omitted() {
        assert_eq!(
            two_way(
                json!({"s": {"a": 1, "b": {"c": 1}}, "t": {"u": 1}}),
                json!({"s": {"a": 2, "b": {"c": 1}}, "t": {"u": 1}})
            ),
            r#"{"s":{"a":2}}"#
        );
    }

    #[test]
    fn object_key_order_never_matters() {
        let a: Value = serde_json::from_str(r#"{"m":{"x":1,"y":2},"l":[{"p":1,"q":2}]}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"l":[{"q":2,"p":1}],"m":{"y":2,"x":1}}"#).unwrap();
        assert_eq!(two_way(a, b), "{}");
    }

    #[test]
    fn lists_replaced_whole_when_different() {
        assert_eq!(
            two_way(json!({"l": [1, 2, 3]}), json!({"l": [1, 2]})),
            r#"{"l":[1,2]}"#
        );
        assert_eq!(
            two_way(json!({"l": [{"a": 1}]}), json!({"l": [{"a": 1, "b": 2}]})),
            r#"{"l":[{"a":1,"b":2}]}"#
        );
    }

    #[test]
    fn reordered_list_is_a_change() {
        assert_eq!(
            two_way(json!({"l": [1, 2]}), json!({"l": [2, 1]})),
            r#"{"l":[2,1]}"#
        );
    }

    #[test]
    fn type_change_replaces() {
        assert_eq!(
            two_way(json!({"a": {"b": 1}}), json!({"a": [1]})),
            r#"{"a":[1]}"#
        );
        assert_eq!(two_way(json!({"a": "1"}), json!({"a": 1})), r#"{"a":1}"#);
    }

    #[test]
    fn empty_object_added_and_emptied() {
        assert_eq!(two_way(json!({}), json!({"m": {}})), r#"{"m":{}}"#);
        assert_eq!(
            two_way(json!({"m": {"k": "v"}}), json!({"m": {}})),
            r#"{"m":{"k":null}}"#
        );
    }

    #[test]
    fn numbers_compared_as_float64() {
        assert_eq!(two_way(json!({"n": 1}), json!({"n": 1.0})), "{}");
        assert_eq!(two_way(json!({"l": [1]}), json!({"l": [1.0]})), "{}");
        // Both round to the same float64.
        assert_eq!(
            two_way(
                json!({"n": 12345678901234567890u64}),
                json!({"n": 12345678901234567891u64})
            ),
            "{}"
        );
    }

    #[test]
    fn numbers_in_patch_are_float64() {
        let p = create_merge_patch(
            &json!({"m": 1}),
            &json!({"m": 9007199254740993u64, "n": 12345678901234567890u64, "f": 2.0, "i": 3}),
        )
        .unwrap();
        // 2^53 + 1 is not a float64: Go sends 2^53.
        assert_eq!(
            to_go_json(&p),
            r#"{"f":2,"i":3,"m":9007199254740992,"n":12345678901234567000}"#
        );
        assert_eq!(p["i"], json!(3));
        assert_eq!(p["f"], json!(2));
        let big: Value = serde_json::from_str("1000000000000000000000").unwrap();
        assert_eq!(two_way(json!({}), json!({"n": big})), r#"{"n":1e+21}"#);
    }

    #[test]
    fn html_characters_escaped_in_patch() {
        assert_eq!(
            two_way(json!({}), json!({"v": "<a&b>"})),
            r#"{"v":"\u003ca\u0026b\u003e"}"#
        );
    }

    #[test]
    fn null_document_is_an_empty_object() {
        assert_eq!(two_way(Value::Null, json!({"a": 1})), r#"{"a":1}"#);
        assert_eq!(two_way(json!({"a": 1}), Value::Null), r#"{"a":null}"#);
    }

    #[test]
    fn scalar_document_is_invalid() {
        assert_eq!(
            create_merge_patch(&json!("x"), &json!({})),
            Err(JsonMergeError::BadJsonDoc)
        );
        assert_eq!(
            create_merge_patch(&json!({}), &json!(1)),
            Err(JsonMergeError::BadJsonDoc)
        );
    }

    #[test]
    fn top_level_arrays_diffed_pairwise() {
        assert_eq!(
            two_way(
                json!([{"a": 1}, {"b": 1}, null]),
                json!([{"a": 2}, {"b": 1}, {"c": 1}])
            ),
            r#"[{"a":2},{},{"c":1}]"#
        );
    }

    #[test]
    fn top_level_arrays_of_different_length_are_invalid() {
        assert_eq!(
            create_merge_patch(&json!([{}]), &json!([{}, {}])),
            Err(JsonMergeError::BadJsonDoc)
        );
    }

    #[test]
    fn top_level_array_elements_must_be_objects() {
        assert_eq!(
            create_merge_patch(&json!([1]), &json!([2])),
            Err(JsonMergeError::BadJsonDoc)
        );
    }

    #[test]
    fn array_against_object_is_mismatched() {
        assert_eq!(
            create_merge_patch(&json!([]), &json!({})),
            Err(JsonMergeError::MismatchedDocuments)
        );
        assert_eq!(
            create_merge_patch(&Value::Null, &json!([])),
            Err(JsonMergeError::MismatchedDocuments)
        );
        assert_eq!(
            JsonMergeError::MismatchedDocuments.to_string(),
            "Mismatched JSON Documents"
        );
    }

    // --- apply ---

    #[test]
    fn apply_null_deletes_and_values_replace() {
        assert_eq!(
            merged(
                json!({"a": 1, "b": 2, "c": {"d": 1}}),
                json!({"a": null, "b": 3, "c": {"e": 2}})
            ),
            r#"{"b":3,"c":{"d":1,"e":2}}"#
        );
    }

    #[test]
    fn apply_deleting_absent_key_is_no_op() {
        assert_eq!(merged(json!({"a": 1}), json!({"x": null})), r#"{"a":1}"#);
    }

    #[test]
    fn apply_prunes_nulls_nested_in_added_value() {
        assert_eq!(
            merged(json!({}), json!({"a": {"b": null, "c": {"d": null}}})),
            r#"{"a":{"c":{}}}"#
        );
    }

    #[test]
    fn apply_keeps_null_list_elements_but_prunes_nulls_inside_their_objects() {
        assert_eq!(
            merged(json!({"l": [1]}), json!({"l": [null, {"x": null, "y": 1}]})),
            r#"{"l":[null,{"y":1}]}"#
        );
    }

    #[test]
    fn apply_non_object_replacing_object_keeps_nested_nulls() {
        assert_eq!(
            merged(json!({"a": {"k": 1}}), json!({"a": [{"x": null}]})),
            r#"{"a":[{"x":null}]}"#
        );
        assert_eq!(
            merged(json!({"a": 1}), json!({"a": [{"x": null}]})),
            r#"{"a":[{}]}"#
        );
    }

    #[test]
    fn apply_null_target_value_counts_as_absent() {
        assert_eq!(
            merged(json!({"a": null}), json!({"a": {"b": null, "c": 1}})),
            r#"{"a":{"c":1}}"#
        );
    }

    #[test]
    fn apply_object_onto_scalar_replaces_with_pruned_object() {
        assert_eq!(
            merged(json!({"a": 1}), json!({"a": {"b": null, "c": 1}})),
            r#"{"a":{"c":1}}"#
        );
    }

    #[test]
    fn apply_keeps_target_numbers_untouched() {
        // Not rounded to float64 (2^53 + 1), spelling kept.
        assert_eq!(
            merged(
                json!({"n": 9007199254740993u64, "f": 1.5, "x": 1}),
                json!({"x": 2})
            ),
            r#"{"f":1.5,"n":9007199254740993,"x":2}"#
        );
    }

    #[test]
    fn apply_to_non_object_document_gives_pruned_patch() {
        assert_eq!(
            merged(json!([1, 2]), json!({"a": null, "b": 1})),
            r#"{"b":1}"#
        );
        assert_eq!(merged(json!("s"), json!({"b": {"c": null}})), r#"{"b":{}}"#);
    }

    #[test]
    fn apply_array_patch_gives_pruned_array() {
        assert_eq!(
            merged(json!({"a": 1}), json!([{"a": null}, null])),
            r#"[{},null]"#
        );
    }

    #[test]
    fn apply_rejects_null_document_and_null_or_scalar_patch() {
        assert_eq!(
            apply(&Value::Null, &json!({})),
            Err(JsonMergeError::BadJsonDoc)
        );
        assert_eq!(
            apply(&json!({}), &Value::Null),
            Err(JsonMergeError::BadJsonPatch)
        );
        assert_eq!(
            apply(&json!({}), &json!(1)),
            Err(JsonMergeError::BadJsonPatch)
        );
        assert_eq!(
            apply(&json!([]), &Value::Null),
            Err(JsonMergeError::BadJsonPatch)
        );
        assert_eq!(
            JsonMergeError::BadJsonDoc.to_string(),
            "Invalid JSON Document"
        );
        assert_eq!(
            JsonMergeError::BadJsonPatch.to_string(),
            "Invalid JSON Patch"
        );
    }

    #[test]
    fn apply_keeps_key_order_of_target_on_delete() {
        let out = apply(&json!({"c": 1, "b": 2, "a": 3}), &json!({"b": null})).unwrap();
        assert_eq!(serde_json::to_string(&out).unwrap(), r#"{"c":1,"a":3}"#);
    }

    // --- three-way ---

    fn three(o: Value, m: Value, c: Value) -> String {
        to_go_json(&create_three_way(&o, &m, &c, &[]).unwrap())
    }

    #[test]
    fn three_way_reverts_live_drift_and_leaves_live_only_fields() {
        assert_eq!(
            three(
                json!({"spec": {"a": 1, "b": 1}}),
                json!({"spec": {"a": 2, "b": 1}}),
                json!({"spec": {"a": 1, "b": 5}, "status": {"s": 1}})
            ),
            r#"{"spec":{"a":2,"b":1}}"#
        );
    }

    #[test]
    fn three_way_deletes_only_what_the_manifest_dropped() {
        assert_eq!(
            three(
                json!({"a": 1, "gone": 1}),
                json!({"a": 1}),
                json!({"a": 1, "gone": 2, "live": 1})
            ),
            r#"{"gone":null}"#
        );
    }

    #[test]
    fn three_way_null_in_manifest_sent_as_deletion() {
        assert_eq!(
            three(
                json!({"spec": {}}),
                json!({"spec": {"x": null}}),
                json!({"spec": {}})
            ),
            r#"{"spec":{"x":null}}"#
        );
    }

    #[test]
    fn three_way_prunes_nulls_inside_objects_in_added_lists() {
        assert_eq!(
            three(
                json!({}),
                json!({"l": [{"a": null, "b": 1}, null]}),
                json!({})
            ),
            r#"{"l":[{"b":1},null]}"#
        );
    }

    #[test]
    fn three_way_null_documents_are_empty() {
        assert_eq!(
            three(Value::Null, json!({"a": 1}), Value::Null),
            r#"{"a":1}"#
        );
    }

    #[test]
    fn three_way_refuses_array_documents() {
        assert_eq!(
            create_three_way(&json!([]), &json!([]), &json!([]), &[]),
            Err(JsonMergeError::NotAnObject { found: "array" })
        );
    }

    #[test]
    fn precondition_failure_names_the_patch_like_go() {
        let err = create_three_way(
            &json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "x"}}),
            &json!({"apiVersion": "v1", "kind": "B", "metadata": {"name": "x"}, "n": 12345678901234567890u64, "f": 1.5}),
            &json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "x"}}),
            &Precondition::helm(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "precondition failed for: map[f:1.5 kind:B n:1.2345678901234567e+19]"
        );
        assert!(
            matches!(err, JsonMergeError::PreconditionFailed { precondition: Precondition::KeyUnchanged(ref k), .. } if k == "kind")
        );
    }

    #[test]
    fn precondition_on_metadata_name() {
        let err = create_three_way(
            &json!({"metadata": {"name": "x"}}),
            &json!({"metadata": {"name": "y", "labels": {"a": "1"}}}),
            &json!({"metadata": {"name": "x"}}),
            &Precondition::helm(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "precondition failed for: map[metadata:map[labels:map[a:1] name:y]]"
        );
    }

    #[test]
    fn precondition_counts_deletion_of_the_key() {
        assert!(!Precondition::KeyUnchanged("kind".into()).holds(&json!({"kind": null})));
        assert!(
            Precondition::MetadataKeyUnchanged("name".into()).holds(&json!({"metadata": null}))
        );
        assert!(
            Precondition::MetadataKeyUnchanged("name".into()).holds(&json!({"spec": {"name": 1}}))
        );
        assert!(Precondition::KeyUnchanged("kind".into()).holds(&json!([{"kind": 1}])));
    }

    #[test]
    fn preconditions_pass_for_unchanged_identity() {
        let m = json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "x", "labels": {"l": "1"}}});
        let c = json!({"apiVersion": "v1", "kind": "A", "metadata": {"name": "x"}});
        let p = create_three_way(&m, &m, &c, &Precondition::helm()).unwrap();
        assert_eq!(to_go_json(&p), r#"{"metadata":{"labels":{"l":"1"}}}"#);
    }

    #[test]
    fn conflict_check_compares_overlapping_keys() {
        assert!(!has_conflicts(
            &json!({"a": {"b": 1}, "c": 1}),
            &json!({"a": {"d": null}})
        ));
        assert!(has_conflicts(&json!({"a": 1}), &json!({"a": null})));
        assert!(has_conflicts(&json!({"a": {"b": 1}}), &json!({"a": [1]})));
        assert!(has_conflicts(&json!({"l": [1, 2]}), &json!({"l": [1]})));
        assert!(!has_conflicts(
            &json!({"l": [1, 2]}),
            &json!({"l": [1.0, 2]})
        ));
    }

    #[test]
    fn null_filter_keeps_explicitly_empty_objects_as_values() {
        let m = json!({"e": {}, "n": null, "o": {"x": null, "y": 1}, "l": [null]});
        let Value::Object(m) = m else { unreachable!() };
        assert_eq!(
            Value::Object(keep_or_delete_null(m.clone(), true)),
            json!({"n": null, "o": {"x": null}})
        );
        assert_eq!(
            Value::Object(keep_or_delete_null(m, false)),
            json!({"e": {}, "o": {"y": 1}, "l": [null]})
        );
    }
}
