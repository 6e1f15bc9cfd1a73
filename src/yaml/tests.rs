use serde_json::json;

use super::*;

fn load(text: &str) -> LoadedValues {
    load_values(text, "values.yaml").unwrap_or_else(|e| panic!("{e}"))
}

fn p(s: &str) -> Path {
    Path::parse(s).unwrap()
}

fn at(line: usize, column: usize) -> Pos {
    Pos { line, column }
}

fn kinds(l: &LoadedValues) -> Vec<NoteKind> {
    l.notes.iter().map(|n| n.kind).collect()
}

#[test]
fn every_number_is_a_float64() {
    let l = load("a: 3\nb: 0777\nc: 1.5\nd: [1, 2]\n");
    assert_eq!(serde_json::Value::Object(l.values.clone()), json!({"a": 3.0, "b": 511.0, "c": 1.5, "d": [1.0, 2.0]}));
    assert!(l.values["a"].as_number().unwrap().is_f64());
}

#[test]
fn positions_point_at_keys_and_values() {
    let l = load("image:\n  repository: nginx\n  tag: \"1.2\"\nports: [80, 443]\nlist:\n- a\n- b: 1\nnote: |\n  text\nempty:\n");
    assert_eq!(l.positions[&p("image")], (at(1, 1), at(2, 3)));
    assert_eq!(l.positions[&p("image.repository")], (at(2, 3), at(2, 15)));
    assert_eq!(l.positions[&p("image.tag")], (at(3, 3), at(3, 8)));
    assert_eq!(l.positions[&p("ports")], (at(4, 1), at(4, 8)));
    assert_eq!(l.positions[&p("ports[1]")], (at(4, 13), at(4, 13)));
    assert_eq!(l.positions[&p("list")], (at(5, 1), at(6, 1)));
    assert_eq!(l.positions[&p("list[0]")], (at(6, 3), at(6, 3)));
    assert_eq!(l.positions[&p("list[1].b")], (at(7, 3), at(7, 6)));
    assert_eq!(l.positions[&p("note")], (at(8, 1), at(8, 7)));
    assert_eq!(l.positions[&p("empty")].0, at(10, 1));
}

#[test]
fn columns_count_characters_not_bytes_and_skip_the_bom() {
    let l = load("\u{feff}clé: héllo\n名前: x\n");
    assert_eq!(l.positions[&p("clé")], (at(1, 1), at(1, 6)));
    assert_eq!(l.positions[&p("名前")], (at(2, 1), at(2, 5)));
}

#[test]
fn later_documents_keep_their_file_lines() {
    let l = load("a: 1\n---\nb: 2\n--- # c\na: 3\n");
    assert_eq!(l.values["a"], json!(3.0));
    assert_eq!(l.positions[&p("a")], (at(5, 1), at(5, 4)));
    assert_eq!(l.positions[&p("b")], (at(3, 1), at(3, 4)));
    assert!(kinds(&l).contains(&NoteKind::DocumentOverride { overridden: at(1, 4) }));
}

#[test]
fn aliases_and_merges_point_at_the_anchored_text() {
    let l = load("base: &b\n  x: 1\ncopy: *b\nm:\n  <<: *b\n  z: 2\n");
    assert_eq!(l.positions[&p("copy")], (at(3, 1), at(3, 7)));
    assert_eq!(l.positions[&p("copy.x")], (at(2, 3), at(2, 6)));
    assert_eq!(l.positions[&p("m.x")], (at(2, 3), at(2, 6)));
    assert_eq!(l.positions[&p("m.z")], (at(6, 3), at(6, 6)));
}

#[test]
fn a_boolean_key_is_noted_with_its_position() {
    let l = load("a: 1\non: x\n");
    assert_eq!(l.values["true"], json!("x"));
    let n = l.notes.iter().find(|n| n.kind == NoteKind::KeyReadAsBoolean).unwrap();
    assert_eq!((n.pos, n.path.clone()), (at(2, 1), Some(p("true"))));
}

#[test]
fn yaml11_boolean_values_and_number_bases_are_noted() {
    let l = load("country: NO\nmode: 0777\nmask: 0x1F\nbig: 1_000\nport: 08\nid: 9007199254740993\n");
    let k = kinds(&l);
    assert!(k.contains(&NoteKind::ReadAsBoolean));
    assert_eq!(k.iter().filter(|k| **k == NoteKind::NumberBase).count(), 2);
    assert!(k.contains(&NoteKind::NumberUnderscores));
    assert!(k.contains(&NoteKind::LeadingZero));
    assert!(k.contains(&NoteKind::PrecisionLoss));
}

#[test]
fn a_duplicate_key_keeps_the_last_and_notes_both_positions() {
    let l = load("a: 1\nb: 2\na: 3\n");
    assert_eq!(l.values["a"], json!(3.0));
    assert_eq!(l.positions[&p("a")], (at(3, 1), at(3, 4)));
    let n = l.notes.iter().find(|n| matches!(n.kind, NoteKind::DuplicateKey { .. })).unwrap();
    assert_eq!(n.kind, NoteKind::DuplicateKey { shadowed: at(1, 1) });
    assert_eq!(n.pos, at(3, 1));
}

#[test]
fn a_merge_after_a_key_replaces_it_as_go_yaml_v2_does() {
    let l = load("b: &b {a: 1}\nm:\n  a: 0\n  <<: *b\n");
    assert_eq!(l.values["m"], json!({"a": 1.0}));
    assert!(kinds(&l).contains(&NoteKind::MergeOverride { overridden: at(3, 3) }));
}

#[test]
fn keys_of_different_types_with_one_spelling_are_noted_as_random() {
    let l = load("1: a\n\"1\": b\n");
    assert!(matches!(l.notes[0].kind, NoteKind::KeyCollision { .. }));
}

#[test]
fn numeric_keys_are_spelled_as_helm_spells_them() {
    let l = load("0x1F: a\n1.50: b\n1234567.0: c\n");
    let keys: Vec<&String> = l.values.keys().collect();
    assert_eq!(keys, ["31", "1.5", "1.234567e+06"]);
    assert!(kinds(&l).contains(&NoteKind::KeyNormalized));
}

#[test]
fn errors_carry_helms_words_and_the_position() {
    let e = load_values("x: 1\ny: [1, 2\n", "bad.yaml").unwrap_err();
    assert_eq!(
        e.helm_error(),
        "failed to parse bad.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 2: did not find expected ',' or ']'"
    );
    assert!(e.exact);
    assert_eq!(e.pos, Some(at(3, 1)));
    assert!(e.to_string().starts_with("bad.yaml:3:1: cannot unmarshal yaml document"));

    let e = load_values("a: 1\n--- x\n", "f.yaml").unwrap_err();
    assert_eq!(e.helm_message, "error reading yaml document: invalid Yaml document separator: x");
    assert_eq!(e.pos, Some(at(2, 4)));

    let e = load_values("a: *x\n", "f.yaml").unwrap_err();
    assert_eq!(e.helm_message, "cannot unmarshal yaml document: error converting YAML to JSON: yaml: unknown anchor 'x' referenced");

    let e = load_values("- a\n", "f.yaml").unwrap_err();
    assert!(e.helm_message.ends_with("json: cannot unmarshal array into Go value of type map[string]interface {}"));

    let e = load_values("a:\n  b: .inf\n", "f.yaml").unwrap_err();
    assert!(e.helm_message.ends_with("json: unsupported value: +Inf"));
    assert_eq!(e.pos, Some(at(2, 6)));

    let e = load_values("? [1, 2]\n: x\n", "f.yaml").unwrap_err();
    assert!(e.helm_message.ends_with("yaml: invalid map key: []interface {}{1, 2}"));

    let e = load_values("~: 1\n", "f.yaml").unwrap_err();
    assert!(e.helm_message.ends_with("unsupported map key of type: %!s(<nil>), key: <nil>, value: 1"));
}

#[test]
fn line_numbers_in_errors_count_from_the_document_as_go_yaml_does() {
    // the error is on file line 5, line 2 of the second document: a parser
    // error, which go-yaml numbers from 0
    let e = load_values("a: 1\n---\nb: 1\nc: [\n", "f.yaml").unwrap_err();
    assert!(e.helm_message.ends_with("yaml: line 2: did not find expected node content"), "{}", e.helm_message);
    assert_eq!(e.pos.unwrap().line, 5);
}

#[test]
fn tabs_are_accepted_and_refused_where_libyaml_does() {
    assert_eq!(load("a:\tb\n").values["a"], json!("b"));
    assert_eq!(load("a: \"x\n\ty\"\n").values["a"], json!("x y"));
    assert_eq!(load("a: [\n\t1]\n").values["a"], json!([1.0]));
    let e = load_values("- a\n-\tb\n", "f").unwrap_err();
    assert!(e.helm_message.ends_with("yaml: line 2: found character that cannot start any token"));
    let e = load_values("a: 1\n\t\nb: 2\n", "f").unwrap_err();
    assert!(e.helm_message.ends_with("yaml: line 2: found a tab character that violates indentation"));
}

#[test]
fn a_quote_escape_in_double_quotes_is_a_quote() {
    assert_eq!(load("a: \"it\\'s \\a\"\n").values["a"], json!("it's \u{7}"));
}

#[test]
fn content_after_an_explicit_document_end_is_ignored_and_noted() {
    let l = load("a: 1\n...\nb: 2\n");
    assert_eq!(serde_json::Value::Object(l.values.clone()), json!({"a": 1.0}));
    assert_eq!(kinds(&l), vec![NoteKind::IgnoredAfterDocumentEnd]);
}

#[test]
fn an_unterminated_last_line_of_4096_bytes_is_dropped_and_noted() {
    let text = format!("b: 1\na: {}", "x".repeat(4093));
    let l = load(&text);
    assert!(!l.values.contains_key("a"));
    assert_eq!(kinds(&l), vec![NoteKind::LastLineDropped]);
}

#[test]
fn excessive_aliasing_fails_like_go_yaml() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let prev = format!("*a{}", i - 1);
        text.push_str(&format!("a{i}: &a{i} [{}]\n", [prev.as_str(); 10].join(", ")));
    }
    let e = load_values(&text, "f").unwrap_err();
    assert!(e.helm_message.ends_with("yaml: document contains excessive aliasing"), "{}", e.helm_message);
}

#[test]
fn an_indentless_sequence_of_flow_entries_is_a_block_sequence_at_its_dash() {
    // (the anchor keeps the fast reader out: this is the saphyr path)
    let l = load("k:\n- []\n- a?b\nother: &a 1\n");
    assert_eq!(l.values["k"], json!([[], "a?b"]));
    assert_eq!(l.positions[&p("k")], (at(1, 1), at(2, 1)));
}
