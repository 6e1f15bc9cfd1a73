//! Behaviour tests of the strategic merge patch (the conformance suite is
//! `tests/patch_engine/strategic_conformance.rs`).

use super::*;
use crate::patch::meta::{StructMeta, TypeTable, builtin_kind};
use serde_json::json;
use std::sync::OnceLock;

fn table() -> &'static TypeTable {
    static T: OnceLock<TypeTable> = OnceLock::new();
    T.get_or_init(|| {
        TypeTable::from_conformance_schema(&json!({"types": {
            "Item": {"fields": {
                "name": {"kind": "scalar", "type": "string"},
                "value": {"kind": "scalar", "type": "string"},
                "other": {"kind": "scalar", "type": "string"},
                "list": {"kind": "list", "items": {"kind": "struct", "ref": "Item"}, "patchStrategy": "merge", "patchMergeKey": "name"},
                "plainList": {"kind": "list", "items": {"kind": "struct", "ref": "Item"}},
                "ints": {"kind": "list", "items": {"kind": "scalar", "type": "integer", "go": "int"}, "patchStrategy": "merge"},
                "map": {"kind": "map", "values": {"kind": "scalar", "type": "string"}},
                "replaced": {"kind": "struct", "ref": "Opaque", "patchStrategy": "replace"},
                "retained": {"kind": "struct", "ref": "Item", "patchStrategy": "retainKeys"}
            }},
            "Opaque": {"fields": {}}
        }}))
        .unwrap()
    })
}

fn meta() -> StructMeta<'static> {
    table().root("Item").unwrap()
}

fn two_way(original: Value, modified: Value) -> Value {
    create_two_way(&original, &modified, &meta()).unwrap()
}

fn three_way(original: Value, modified: Value, current: Value) -> Value {
    create_three_way(&original, &modified, &current, &meta(), true).unwrap()
}

fn apply_patch(original: Value, patch: Value) -> Value {
    apply(&original, &patch, &meta()).unwrap()
}

#[test]
fn one_and_one_point_zero_are_a_change() {
    let modified: Value = serde_json::from_str(r#"{"value": 1.0}"#).unwrap();
    let patch = two_way(json!({"value": 1}), modified.clone());
    assert_eq!(patch, modified);
    assert_eq!(two_way(json!({"value": 1}), json!({"value": 1})), json!({}));
}

#[test]
fn replace_strategy_object_is_emitted_even_when_identical() {
    let doc = json!({"replaced": {"a": 1}});
    assert_eq!(two_way(doc.clone(), doc.clone()), doc);
    assert_eq!(three_way(doc.clone(), doc.clone(), doc.clone()), doc);
}

#[test]
fn retain_keys_object_with_live_only_field_gives_retain_keys_directive() {
    let manifest = json!({"retained": {"name": "a"}});
    let live = json!({"retained": {"name": "a", "value": "defaulted"}});
    assert_eq!(three_way(manifest.clone(), manifest.clone(), live), json!({"retained": {"$retainKeys": ["name"]}}));
}

#[test]
fn unsorted_primitive_merge_list_gives_set_element_order_when_unchanged() {
    let doc = json!({"ints": [2, 1]});
    assert_eq!(two_way(doc.clone(), doc.clone()), json!({"$setElementOrder/ints": [2, 1]}));
    let sorted = json!({"ints": [1, 2]});
    assert_eq!(two_way(sorted.clone(), sorted), json!({}));
}

#[test]
fn merge_keys_match_as_text_when_diffing_and_by_value_when_applying() {
    let patch = two_way(json!({"list": [{"name": 1}]}), json!({"list": [{"name": "1", "value": "v"}]}));
    assert_eq!(patch, json!({"$setElementOrder/list": [{"name": "1"}], "list": [{"name": "1", "value": "v"}]}));
    let result = apply_patch(json!({"list": [{"name": 1}]}), patch);
    assert_eq!(result, json!({"list": [{"name": "1", "value": "v"}, {"name": 1}]}));
}

#[test]
fn dropped_field_is_deleted_even_if_changed_live() {
    let patch = three_way(json!({"value": "a", "name": "n"}), json!({"name": "n"}), json!({"value": "b", "name": "n"}));
    assert_eq!(patch, json!({"value": null}));
}

#[test]
fn live_drift_on_manifest_fields_is_reverted_but_live_only_fields_stay() {
    let patch = three_way(json!({"value": "a"}), json!({"value": "a"}), json!({"value": "b", "other": "live"}));
    assert_eq!(patch, json!({"value": "a"}));
}

#[test]
fn removed_list_item_is_deleted_even_if_already_gone_live() {
    let patch = three_way(json!({"list": [{"name": "a"}, {"name": "b"}]}), json!({"list": [{"name": "a"}]}), json!({"list": [{"name": "a"}]}));
    assert_eq!(patch, json!({"$setElementOrder/list": [{"name": "a"}], "list": [{"$patch": "delete", "name": "b"}]}));
}

#[test]
fn delta_items_come_before_delete_directives_in_the_three_way_patch() {
    let patch = three_way(
        json!({"list": [{"name": "a"}, {"name": "b"}]}),
        json!({"list": [{"name": "c"}, {"name": "a", "value": "x"}]}),
        json!({"list": [{"name": "a"}, {"name": "b"}]}),
    );
    assert_eq!(
        patch,
        json!({
            "$setElementOrder/list": [{"name": "c"}, {"name": "a"}],
            "list": [{"name": "c"}, {"name": "a", "value": "x"}, {"$patch": "delete", "name": "b"}]
        })
    );
}

#[test]
fn live_list_in_another_order_gives_only_set_element_order() {
    let manifest = json!({"list": [{"name": "b"}, {"name": "a"}]});
    let patch = three_way(manifest.clone(), manifest, json!({"list": [{"name": "a"}, {"name": "b"}]}));
    assert_eq!(patch, json!({"$setElementOrder/list": [{"name": "b"}, {"name": "a"}]}));
}

#[test]
fn explicit_null_in_manifest_is_sent_and_nested_nulls_are_dropped_on_apply() {
    assert_eq!(three_way(json!({}), json!({"value": null}), json!({})), json!({"value": null}));
    let patch = two_way(json!({}), json!({"map": {"a": "1", "b": null}}));
    assert_eq!(patch, json!({"map": {"a": "1", "b": null}}));
    assert_eq!(apply_patch(json!({}), patch), json!({"map": {"a": "1"}}));
}

#[test]
fn overwrite_false_reports_a_conflict_with_live_changes() {
    let e = create_three_way(&json!({"value": "a"}), &json!({"value": "a"}), &json!({"value": "b"}), &meta(), false).unwrap_err();
    assert!(e.is_conflict(), "{e}");
    assert!(e.to_string().contains("conflicts with changes made from original to current"));
    assert!(create_three_way(&json!({"value": "a"}), &json!({"value": "c"}), &json!({"value": "a", "other": "x"}), &meta(), false).is_ok());
}

#[test]
fn patch_directives_replace_and_delete_objects_and_lists() {
    assert_eq!(apply_patch(json!({"name": "a", "value": "b"}), json!({"$patch": "replace", "other": "c"})), json!({"other": "c"}));
    assert_eq!(apply_patch(json!({"map": {"a": "1"}}), json!({"map": {"$patch": "delete"}})), json!({"map": {}}));
    assert_eq!(
        apply_patch(json!({"list": [{"name": "a"}, {"name": "b"}]}), json!({"list": [{"$patch": "replace"}, {"name": "c"}]})),
        json!({"list": [{"name": "c"}]})
    );
    let e = apply(&json!({"list": [{"name": "a"}]}), &json!({"list": [{"$patch": "merge"}]}), &meta()).unwrap_err();
    assert_eq!(e.to_string(), "merging lists cannot yet be specified in the patch");
}

#[test]
fn delete_directive_removes_every_item_with_that_key() {
    let result = apply_patch(
        json!({"list": [{"name": "a", "value": "1"}, {"name": "b"}, {"name": "a", "value": "2"}]}),
        json!({"list": [{"name": "a", "$patch": "delete"}]}),
    );
    assert_eq!(result, json!({"list": [{"name": "b"}]}));
}

#[test]
fn retain_keys_on_apply_clears_unlisted_keys_and_validates_the_patch() {
    let result = apply_patch(json!({"retained": {"name": "a", "value": "x"}}), json!({"retained": {"$retainKeys": ["name", "other"], "other": "y"}}));
    assert_eq!(result, json!({"retained": {"name": "a", "other": "y"}}));
    let e = apply(&json!({"retained": {}}), &json!({"retained": {"$retainKeys": ["name"], "other": "y"}}), &meta()).unwrap_err();
    assert_eq!(e, PatchError::BadPatchFormatForRetainKeys);
    // A key new to the document takes the patch value as it is, directive
    // included (Go only strips `$patch` objects).
    let added = apply_patch(json!({}), json!({"retained": {"$retainKeys": ["name"], "name": "a"}}));
    assert_eq!(added, json!({"retained": {"$retainKeys": ["name"], "name": "a"}}));
}

#[test]
fn set_element_order_keeps_live_only_items_at_their_relative_place() {
    let result = apply_patch(
        json!({"list": [{"name": "z"}, {"name": "a"}, {"name": "b"}]}),
        json!({"$setElementOrder/list": [{"name": "b"}, {"name": "a"}], "list": [{"name": "a", "value": "1"}]}),
    );
    assert_eq!(result, json!({"list": [{"name": "z"}, {"name": "b"}, {"name": "a", "value": "1"}]}));
}

#[test]
fn set_element_order_apply_sees_go_slice_aliasing_after_delete_and_add() {
    // Go deletes `b` by shifting the live list's backing array and appends
    // `d` into the freed slot, which the ordering step then reads as the
    // live order: [a c z d]. The live-only `z` therefore lands before `d`.
    let result = apply_patch(
        json!({"list": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "z"}]}),
        json!({
            "$setElementOrder/list": [{"name": "a"}, {"name": "d"}, {"name": "c"}],
            "list": [{"name": "d"}, {"$patch": "delete", "name": "b"}]
        }),
    );
    assert_eq!(result, json!({"list": [{"name": "a"}, {"name": "z"}, {"name": "d"}, {"name": "c"}]}));
}

#[test]
fn primitive_merge_list_add_and_delete_via_parallel_list() {
    let patch = two_way(json!({"ints": [1, 2]}), json!({"ints": [2, 3]}));
    assert_eq!(patch, json!({"$deleteFromPrimitiveList/ints": [1], "$setElementOrder/ints": [2, 3], "ints": [3]}));
    assert_eq!(apply_patch(json!({"ints": [1, 2, 9]}), patch), json!({"ints": [2, 3, 9]}));
}

#[test]
fn lookup_errors_are_ignored_for_identical_values_only() {
    let doc = json!({"unknown": {"x": 1}});
    assert_eq!(two_way(doc.clone(), doc), json!({}));
    let e = create_two_way(&json!({"unknown": {"x": 1}}), &json!({"unknown": {"x": 2}}), &meta()).unwrap_err();
    assert_eq!(e.to_string(), "unable to find api field in struct Item for the json field \"unknown\"");
    // Inside a map of strings any nested object is an error.
    let e = create_two_way(&json!({"map": {"a": {"x": 1}}}), &json!({"map": {"a": {"x": 2}}}), &meta()).unwrap_err();
    assert_eq!(e.to_string(), "merging an object in json but data type is not struct, instead is: map");
}

#[test]
fn duplicate_merge_keys_in_live_list_follow_go_sort_order() {
    // Go's sort with a `<=` comparator reverses equal keys, so the delta
    // pass matches the manifest item against the *second* live item.
    let patch = create_three_way(
        &json!({"list": [{"name": "a", "value": "1"}]}),
        &json!({"list": [{"name": "a", "value": "1"}]}),
        &json!({"list": [{"name": "a", "value": "1"}, {"name": "a", "value": "x"}]}),
        &meta(),
        true,
    )
    .unwrap();
    assert_eq!(patch, json!({"$setElementOrder/list": [{"name": "a"}], "list": [{"name": "a", "value": "1"}]}));
}

#[test]
fn not_an_object_is_an_invalid_document() {
    assert_eq!(create_two_way(&json!([1]), &json!({}), &meta()).unwrap_err(), PatchError::BadJsonDoc);
    assert_eq!(parse_document("").unwrap_err(), PatchError::BadJsonDoc);
    assert_eq!(parse_document("null").unwrap(), json!({}));
}

#[test]
fn pdb_selector_makes_helm_patch_non_empty() {
    let k = builtin_kind("policy/v1", "PodDisruptionBudget").unwrap();
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "x"},
                     "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "x"}}}});
    let patch = create_three_way(&pdb, &pdb, &pdb, &k.meta, true).unwrap();
    assert_eq!(patch, json!({"spec": {"selector": {"matchLabels": {"app": "x"}}}}));
}

#[test]
fn deployment_strategy_defaults_give_retain_keys() {
    let k = builtin_kind("apps/v1", "Deployment").unwrap();
    let manifest = json!({"spec": {"strategy": {"type": "RollingUpdate"}}});
    let live = json!({"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}}});
    let patch = create_three_way(&manifest, &manifest, &live, &k.meta, true).unwrap();
    assert_eq!(patch, json!({"spec": {"strategy": {"$retainKeys": ["type"]}}}));
    let applied = apply(&live, &patch, &k.meta).unwrap();
    assert_eq!(applied, manifest);
}
