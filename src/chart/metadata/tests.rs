//! Tests of Chart.yaml decoding, lock checks and validation.

use super::*;
use super::validate::sanitize;
use crate::chart::yaml::parse_first_document;
use crate::go::quote::quote as go_quote;

fn decode(text: &str) -> Result<RawMetadata, DecodeError> {
    let mut md = RawMetadata::default();
    decode_metadata(&parse_first_document(text).unwrap(), &mut md)?;
    Ok(md)
}

fn load(text: &str) -> Result<Metadata, String> {
    let mut md = decode(text).map_err(|e| e.message)?;
    if md.api_version.is_empty() {
        md.api_version = "v1".into();
    }
    validate(md)
}

#[test]
fn scalars_in_string_fields_become_strings_like_sigs_yaml() {
    let md =
        load("name: x\nversion: 1.0\nappVersion: 1.10\nkubeVersion: yes\ndescription: 0x10\n")
            .unwrap();
    assert_eq!(md.version, "1");
    assert_eq!(md.app_version, "1.1");
    assert_eq!(md.kube_version, "true");
    assert_eq!(md.description, "16");
}

#[test]
fn field_names_match_case_insensitively_and_the_sorted_last_wins() {
    let md = load("NAME: upper\nversion: 1.0.0\n").unwrap();
    assert_eq!(md.name, "upper");
    let md = load("name: lower\nName: upper\nversion: 1.0.0\n").unwrap();
    assert_eq!(md.name, "lower");
}

#[test]
fn missing_name_and_version_use_helms_wording() {
    assert_eq!(
        load("version: 1.0.0\n").unwrap_err(),
        "validation: chart.metadata.name is required"
    );
    assert_eq!(
        load("name: x\n").unwrap_err(),
        "validation: chart.metadata.version is required"
    );
    assert_eq!(
        load("name: x\nversion: one\n").unwrap_err(),
        "validation: chart.metadata.version \"one\" is invalid"
    );
    assert_eq!(
        load("name: a/b\nversion: 1.0.0\n").unwrap_err(),
        "validation: chart.metadata.name \"a/b\" is invalid"
    );
    assert_eq!(
        load("name: ..\nversion: 1.0.0\n").unwrap_err(),
        "validation: chart.metadata.name \"..\" is not allowed"
    );
    assert_eq!(
        load("name: x\nversion: 1.0.0\ntype: lib\n").unwrap_err(),
        "validation: chart.metadata.type must be application or library"
    );
}

#[test]
fn dependency_rules_from_validate() {
    assert_eq!(
        load("name: x\nversion: 1.0.0\ndependencies: [null]\n").unwrap_err(),
        "validation: dependencies must not contain empty or null nodes"
    );
    assert_eq!(
        load("name: x\nversion: 1.0.0\ndependencies: [{name: a, alias: 'b.c'}]\n").unwrap_err(),
        "validation: dependency \"a\" has disallowed characters in the alias"
    );
    assert_eq!(
        load("name: x\nversion: 1.0.0\ndependencies: [{name: a}, {name: b, alias: a}]\n")
            .unwrap_err(),
        "validation: more than one dependency with name or alias \"a\""
    );
    assert_eq!(
        load("name: x\nversion: 1.0.0\nmaintainers: [~]\n").unwrap_err(),
        "validation: maintainers must not contain empty or null nodes"
    );
}

#[test]
fn nil_and_empty_dependency_lists_differ() {
    assert!(
        !load("name: x\nversion: 1.0.0\n")
            .unwrap()
            .dependencies_declared
    );
    assert!(
        !load("name: x\nversion: 1.0.0\ndependencies: ~\n")
            .unwrap()
            .dependencies_declared
    );
    let md = load("name: x\nversion: 1.0.0\ndependencies: []\n").unwrap();
    assert!(md.dependencies_declared);
    assert_eq!(md.declared_dependencies(), Some(&[][..]));
}

#[test]
fn import_values_keep_both_forms_and_go_stringification() {
    let md = load(
        "name: x\nversion: 1.0.0\ndependencies:\n- name: a\n  import-values:\n  - data\n  - {child: info, parent: imported}\n  - {child: 1, parent: 1.5e6}\n  - {parent: p}\n  - 7\n  - [x]\n  - {child: [a, b], parent: {k: v}}\n",
    )
    .unwrap();
    assert_eq!(
        md.dependencies[0].import_values,
        vec![
            ImportValue::Exports("data".into()),
            ImportValue::Map {
                child: "info".into(),
                parent: "imported".into()
            },
            ImportValue::Map {
                child: "1".into(),
                parent: "1.5e+06".into()
            },
            ImportValue::Map {
                child: "<nil>".into(),
                parent: "p".into()
            },
            ImportValue::Map {
                child: "[a b]".into(),
                parent: "map[k:v]".into()
            },
        ]
    );
}

#[test]
fn dependency_fields_are_sanitised_and_read() {
    let md = load(
        "name: x\nversion: 1.0.0\ndependencies:\n- name: \"a\\tb\"\n  version: ~1.2\n  condition: a.enabled,b.enabled\n  tags: [front, 1]\n  alias: al_1\n  enabled: false\n",
    )
    .unwrap();
    let d = &md.dependencies[0];
    assert_eq!(d.name, "a b");
    assert_eq!(d.condition.as_deref(), Some("a.enabled,b.enabled"));
    assert_eq!(d.tags, ["front", "1"]);
    assert_eq!(d.alias.as_deref(), Some("al_1"));
    assert_eq!(d.enabled, Some(false));
    assert_eq!(d.effective_name(), "al_1");
}

#[test]
fn type_errors_name_the_go_field_and_position() {
    let e = decode("name: [a]\n").unwrap_err();
    assert_eq!(
        e.message,
        "json: cannot unmarshal array into Go struct field Metadata.name of type string"
    );
    assert_eq!((e.line, e.column), (1, 7));
    let e = decode("dependencies:\n- name: a\n  tags: x\n").unwrap_err();
    assert_eq!(
        e.message,
        "json: cannot unmarshal string into Go struct field Dependency.dependencies.tags of type []string"
    );
    assert_eq!(e.line, 3);
    let e = decode("- a\n").unwrap_err();
    assert_eq!(
        e.message,
        "json: cannot unmarshal array into Go value of type v2.Metadata"
    );
    let e = decode("deprecated: \"yes\"\n").unwrap_err();
    assert_eq!(
        e.message,
        "json: cannot unmarshal string into Go struct field Metadata.deprecated of type bool"
    );
    let e = decode("extra: .nan\n").unwrap_err();
    assert_eq!(e.message, "json: unsupported value: NaN");
}

#[test]
fn decoding_twice_merges_like_encoding_json() {
    let mut md = RawMetadata::default();
    decode_metadata(
        &parse_first_document("name: x\ndependencies: [{name: a, condition: c}]\n").unwrap(),
        &mut md,
    )
    .unwrap();
    decode_metadata(
        &parse_first_document("dependencies: [{name: b}, {name: z}]\n").unwrap(),
        &mut md,
    )
    .unwrap();
    let deps = md.dependencies.as_ref().unwrap();
    assert_eq!(deps.len(), 2);
    let first = deps[0].as_ref().unwrap();
    assert_eq!((first.name.as_str(), first.condition.as_str()), ("b", "c"));
    assert_eq!(md.name, "x");
}

#[test]
fn unknown_fields_are_kept() {
    let md = load("name: x\nversion: 1.0.0\ncustom: {a: 1}\n").unwrap();
    assert_eq!(md.extra["custom"], serde_json::json!({"a": 1}));
}

#[test]
fn sanitize_normalises_spaces_and_drops_unprintables() {
    assert_eq!(sanitize("a\tb\nc\u{a0}d\u{200b}e\u{7}"), "a b c de");
}

#[test]
fn semver_like_masterminds_new_version() {
    for ok in [
        "1.0.0",
        "v1.2.3",
        "1",
        "1.2",
        "01.02.03",
        "1.0.0-rc.1+build.5",
        "1.0.0-alpha-1",
        "1.0.0+001",
    ] {
        assert!(is_valid_semver(ok), "{ok}");
    }
    for bad in [
        "",
        "x",
        "1.",
        "1.2.3.4",
        "1.0.0-",
        "1.0.0-01",
        "1.0.0-a..b",
        "1.0.0+",
        "V1.0.0",
        "99999999999999999999.0.0",
        " 1.0.0",
    ] {
        assert!(!is_valid_semver(bad), "{bad}");
    }
}

#[test]
fn lock_files_are_checked_like_helms_lock_struct() {
    let ok = parse_first_document(
        "generated: \"2019-01-01T10:00:00.5+01:00\"\ndigest: sha256:x\ndependencies: []\n",
    )
    .unwrap();
    assert!(check_lock(&ok).is_ok());
    let bad = parse_first_document("generated: 2019-01-01\n").unwrap();
    assert!(
        check_lock(&bad)
            .unwrap_err()
            .message
            .starts_with("parsing time \"2019-01-01\"")
    );
    let bad = parse_first_document("dependencies: {}\n").unwrap();
    assert_eq!(
        check_lock(&bad).unwrap_err().message,
        "json: cannot unmarshal object into Go struct field Lock.dependencies of type []*v2.Dependency"
    );
}

#[test]
fn go_quote_escapes_like_strconv() {
    assert_eq!(go_quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\x01\"");
    assert_eq!(go_quote("é"), "\"é\"");
}
