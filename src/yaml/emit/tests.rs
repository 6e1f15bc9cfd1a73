//! One test per rule of yaml.v2's output (expected texts checked against
//! real Helm 4.2.3 `toYaml`, which prints these without the final newline).

use super::{EmitError, json_to_yaml, key_less};

fn y(json: &str) -> String {
    json_to_yaml(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn block_mapping_with_two_space_indent() {
    assert_eq!(y(r#"{"a":{"b":{"c":1}}}"#), "a:\n  b:\n    c: 1\n");
}

#[test]
fn sequence_in_mapping_is_not_indented() {
    assert_eq!(y(r#"{"l":[{"a":1,"b":[1,2]},"x"]}"#), "l:\n- a: 1\n  b:\n  - 1\n  - 2\n- x\n");
}

#[test]
fn sequence_in_sequence_shares_the_line() {
    assert_eq!(y(r#"[[1,2],[]]"#), "- - 1\n  - 2\n- []\n");
}

#[test]
fn empty_collections_are_flow() {
    assert_eq!(y(r#"{"e":[],"m":{}}"#), "e: []\nm: {}\n");
    assert_eq!(y("{}"), "{}\n");
    assert_eq!(y("[]"), "[]\n");
}

#[test]
fn null_and_bools_are_plain() {
    assert_eq!(y(r#"{"a":null,"b":true,"c":false}"#), "a: null\nb: true\nc: false\n");
    assert_eq!(y("null"), "null\n");
    assert_eq!(y(""), "null\n");
}

#[test]
fn keys_sort_non_letters_first_and_digit_runs_numerically() {
    assert_eq!(y(r#"{"-x":1,"1":1,"a10":1,"a2":1,"B":1,"b":1}"#), "-x: 1\n\"1\": 1\nB: 1\na2: 1\na10: 1\nb: 1\n");
    assert!(key_less("a2", "a10"));
    assert!(!key_less("a10", "a2"));
    assert!(key_less("-x", "1"));
    // a non-letter sorts before a letter at the first difference
    assert!(key_less("a1", "ab"));
    // the same number: the shorter digit run first
    assert!(key_less("a1", "a01"));
    assert!(key_less("a", "ab"));
    // non-ASCII letters are letters (unicode.IsLetter)
    assert!(key_less("a1", "aé"));
}

#[test]
fn keys_sort_as_helm_sorts_them() {
    // real Helm 4.2.3 toYaml order
    assert_eq!(y(r#"{"-x":"yes","1":"x","a10":1,"a2":2}"#), "-x: \"yes\"\n\"1\": x\na2: 2\na10: 1\n");
}

#[test]
fn integers_from_json_stay_integers() {
    assert_eq!(y(r#"{"n":1000000,"i":3,"z":-0}"#), "i: 3\n\"n\": 1000000\nz: 0\n");
}

#[test]
fn integers_above_int64_are_uint64() {
    assert_eq!(y("10000000000000000000"), "10000000000000000000\n");
    assert_eq!(y("12345678901234567000"), "12345678901234567000\n");
}

#[test]
fn floats_print_with_strconv_g() {
    assert_eq!(y(r#"{"big":1e+21,"f":1.5,"neg":-1e-7,"h":100000000000000000000}"#), "big: 1e+21\nf: 1.5\nh: 1e+20\nneg: -1e-07\n");
}

#[test]
fn float_ties_in_the_shortest_digits_round_half_to_even() {
    // seen against Helm: the float64 is exactly -1651109404107626.25
    assert_eq!(y("-1651109404107626.3"), "-1.6511094041076262e+15\n");
}

#[test]
fn out_of_range_float_text_stays_a_string() {
    assert_eq!(y("1e400"), "1e400\n");
}

#[test]
fn strings_that_resolve_to_other_types_are_double_quoted() {
    for s in ["yes", "No", "on", "OFF", "y", "n", "~", "null", "true", "1", "0x1F", "0777", "1_000", "1.5", ".5", ".inf", "-.Inf", ".nan", "1e3", "2001-01-01", ""] {
        assert_eq!(y(&format!(r#"["{s}"]"#)), format!("- \"{s}\"\n"), "{s}");
    }
}

#[test]
fn base60_floats_are_double_quoted() {
    assert_eq!(y(r#"["1:20","190:20:30.15","1:2:3","1:60"]"#), "- \"1:20\"\n- \"190:20:30.15\"\n- \"1:2:3\"\n- 1:60\n");
}

#[test]
fn merge_key_text_is_plain() {
    assert_eq!(y(r#"{"m":"<<"}"#), "m: <<\n");
}

#[test]
fn indicators_and_spaces_force_single_quotes() {
    let cases = [
        ("---x", "'---x'"),
        ("a: b", "'a: b'"),
        ("a #b", "'a #b'"),
        (" lead", "' lead'"),
        ("trail ", "'trail '"),
        ("     ", "'     '"),
        ("- a", "'- a'"),
        ("? a", "'? a'"),
        ("*x", "'*x'"),
        ("&x", "'&x'"),
        ("!x", "'!x'"),
        ("%x", "'%x'"),
        ("@x", "'@x'"),
        ("`x", "'`x'"),
        ("{x", "'{x'"),
        ("it's", "it's"),
        ("'q'", "'''q'''"),
        ("a:b", "a:b"),
        ("a#b", "a#b"),
        ("-x", "-x"),
        ("a,b", "a,b"),
    ];
    for (s, want) in cases {
        assert_eq!(y(&format!(r#"{{"k":"{s}"}}"#)), format!("k: {want}\n"), "{s}");
    }
}

#[test]
fn non_printable_characters_force_double_quotes_with_escapes() {
    assert_eq!(y(r#"{"tab":"a\tb"}"#), "tab: \"a\\tb\"\n");
    assert_eq!(y(r#"["\u0000\u0007\b\u000b\f\r\u001b\u0001"]"#), "- \"\\0\\a\\b\\v\\f\\r\\e\\x01\"\n");
    assert_eq!(y(r#"["a\"b\\"]"#), "- a\"b\\\n");
    assert_eq!(y("[\"\t\\\"\"]"), "- \"\\t\\\"\"\n");
}

#[test]
fn four_byte_characters_are_escaped() {
    assert_eq!(y(r#"{"emo":"😀"}"#), "emo: \"\\U0001F600\"\n");
}

#[test]
fn other_unicode_is_written_as_is() {
    assert_eq!(y(r#"["héllo wörld","日本語","\u00a0x"]"#), "- héllo wörld\n- 日本語\n- \u{a0}x\n");
}

#[test]
fn a_leading_bom_escapes_every_character() {
    assert_eq!(y("[\"\u{feff}ab\"]"), "- \"\\uFEFF\\x61\\x62\"\n");
}

#[test]
fn nel_is_escaped_when_it_survives() {
    assert_eq!(y(r#"["a\u0085b"]"#), "- \"a\\Nb\"\n");
}

#[test]
fn line_and_paragraph_separators_single_quote_and_break() {
    assert_eq!(y(r#"{"lsep":"a\u2028b"}"#), "lsep: 'a\u{2028}  b'\n");
    // a final break: plain is not allowed, single quotes are, and PS is copied raw
    assert_eq!(y(r#"["a\u2029"]"#), "- 'a\u{2029}'\n");
}

#[test]
fn multi_line_strings_are_literal_with_chomping() {
    assert_eq!(y(r#"{"ml":"a\nb\n"}"#), "ml: |\n  a\n  b\n");
    assert_eq!(y(r#"{"ml":"a\nb"}"#), "ml: |-\n  a\n  b\n");
    assert_eq!(y(r#"{"ml":"a\nb\n\n"}"#), "ml: |+\n  a\n  b\n\n");
    // a leading break gets the indentation indicator
    assert_eq!(y(r#"{"ml":"\n"}"#), "ml: |2+\n\n");
    assert_eq!(y(r#"{"ml":" a\nb"}"#), "ml: |2-\n   a\n  b\n");
    assert_eq!(y(r#"["a\n\nb"]"#), "- |-\n  a\n\n  b\n");
}

#[test]
fn multi_line_strings_that_block_style_cannot_hold_are_double_quoted() {
    // trailing space, space before a break, tab
    assert_eq!(y(r#"["a\nb "]"#), "- \"a\\nb \"\n");
    assert_eq!(y(r#"["a \nb"]"#), "- \"a \\nb\"\n");
    assert_eq!(y(r#"["a\n\tb"]"#), "- \"a\\n\\tb\"\n");
}

#[test]
fn multi_line_keys_use_the_complex_key_form() {
    assert_eq!(y(r#"{"k\nk":1}"#), "? |-\n  k\n  k\n: 1\n");
}

#[test]
fn keys_longer_than_128_bytes_use_the_complex_key_form() {
    let k = "k".repeat(129);
    assert_eq!(y(&format!(r#"{{"{k}":1}}"#)), format!("? {k}\n: 1\n"));
    let k = "k".repeat(128);
    assert_eq!(y(&format!(r#"{{"{k}":1}}"#)), format!("{k}: 1\n"));
}

#[test]
fn long_plain_strings_fold_at_80_columns() {
    let s = "this is a long string with many spaces in it that goes past the eighty column limit for sure yes";
    assert_eq!(
        y(&format!(r#"{{"s":"{s}"}}"#)),
        "s: this is a long string with many spaces in it that goes past the eighty column limit\n  for sure yes\n"
    );
}

#[test]
fn long_strings_without_spaces_do_not_fold() {
    let s = "x".repeat(200);
    assert_eq!(y(&format!(r#"["{s}"]"#)), format!("- {s}\n"));
}

#[test]
fn long_double_quoted_strings_fold_with_escaped_spaces() {
    let s = format!("{}\\t{}  {}", "a ".repeat(40), "b", "c ".repeat(10).trim_end());
    let out = y(&format!(r#"["{s}"]"#));
    assert!(out.starts_with("- \"a a a"), "{out}");
    assert!(out.contains("\n  "), "{out}");
}

#[test]
fn simple_keys_do_not_fold() {
    let k = format!("{} end", "word ".repeat(24).trim_end());
    assert!(k.len() <= 128);
    assert_eq!(y(&format!(r#"{{"{k}":1}}"#)), format!("{k}: 1\n"));
}

#[test]
fn raw_nel_in_json_folds_with_its_blanks() {
    assert_eq!(y("{\"nel\":\"a \u{85}  b\"}"), "nel: a b\n");
}

#[test]
fn document_marker_after_a_raw_nel_is_an_error() {
    assert!(matches!(json_to_yaml("[\"a\u{85}--- b\"]"), Err(EmitError::Syntax(_))));
}

#[test]
fn raw_control_characters_are_refused() {
    assert_eq!(json_to_yaml("[\"a\u{7f}b\"]"), Err(EmitError::ControlCharacter('\u{7f}')));
    assert_eq!(json_to_yaml("[\"a\u{9f}b\"]"), Err(EmitError::ControlCharacter('\u{9f}')));
    assert_eq!(json_to_yaml("[\"\u{fffe}\"]"), Err(EmitError::ControlCharacter('\u{fffe}')));
}

#[test]
fn keys_over_1024_characters_or_with_a_raw_break_are_refused() {
    // the `:` at most 1024 characters after the opening quote
    let k = "k".repeat(1022);
    assert!(json_to_yaml(&format!(r#"{{"{k}":1}}"#)).is_ok());
    let k = "k".repeat(1023);
    assert_eq!(json_to_yaml(&format!(r#"{{"{k}":1}}"#)), Err(EmitError::LongKey));
    assert_eq!(json_to_yaml("{\"a\u{85}b\":1}"), Err(EmitError::LongKey));
    // characters of the JSON text count: `\u003c` is six
    assert!(json_to_yaml(&format!(r#"{{"{}":1}}"#, "\\u003c".repeat(170))).is_ok());
    assert_eq!(json_to_yaml(&format!(r#"{{"{}":1}}"#, "\\u003c".repeat(171))), Err(EmitError::LongKey));
    // long values are fine
    let v = "v".repeat(3000);
    assert!(json_to_yaml(&format!(r#"{{"k":"{v}"}}"#)).is_ok());
}

#[test]
fn json_that_go_never_prints_is_an_error() {
    for bad in ["{\"a\":1,}", "[1,]", "{a:1}", "[\"\\/\"]", "[yes]", "[01]", "[1] [2]", "[\"\\ud83d\\ude00\"]", "[\"abc"] {
        assert!(json_to_yaml(bad).is_err(), "{bad}");
    }
}

#[test]
fn duplicate_keys_keep_the_last_value() {
    assert_eq!(y(r#"{"a":1,"a":2}"#), "a: 2\n");
}

#[test]
fn root_scalars_and_literals() {
    assert_eq!(y(r#""abc""#), "abc\n");
    assert_eq!(y(r#""a\nb""#), "|-\n  a\n  b\n");
    assert_eq!(y("1.5"), "1.5\n");
}

#[test]
fn literal_inside_a_sequence_in_a_mapping() {
    assert_eq!(y(r#"{"l":["a\nb",{"k":"c\nd"}]}"#), "l:\n- |-\n  a\n  b\n- k: |-\n    c\n    d\n");
}

#[test]
fn nesting_beyond_our_limit_is_refused() {
    let deep = format!("{}{}", "[".repeat(1001), "]".repeat(1001));
    assert_eq!(json_to_yaml(&deep), Err(EmitError::TooDeep(1000)));
    let ok = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    assert!(json_to_yaml(&ok).is_ok());
}

#[test]
fn keys_without_a_stable_order_are_refused() {
    // 9 < 10 (numbers), 10 < 1a (a non-letter before a letter), 1a < 9 (1 < 9)
    assert!(key_less("9", "10") && key_less("10", "1a") && key_less("1a", "9"));
    assert!(matches!(json_to_yaml(r#"{"9":1,"10":2,"1a":3}"#), Err(EmitError::KeyOrder(_))));
    // seen in the differential test: a non-ASCII digit counts with its code point
    assert!(matches!(json_to_yaml(r#"{"077718":1,"0x1F":2,"٣":3}"#), Err(EmitError::KeyOrder(_))));
    assert!(json_to_yaml(r#"{"9":1,"10":2,"1":3}"#).is_ok());
}
