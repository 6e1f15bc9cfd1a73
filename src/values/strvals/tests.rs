use super::*;
use serde_json::json;

fn no_files(p: &str) -> Result<String, String> {
    Err(format!("open {p}: no such file or directory"))
}

/// Parses `expr` into `base`; the values, or the error text.
fn parse_on(kind: SetKind, expr: &str, base: Value) -> Result<Value, String> {
    let Value::Object(mut m) = base else {
        panic!("base must be a map")
    };
    parse_into(kind, expr, &mut m, &mut no_files)
        .map(|_| Value::Object(m))
        .map_err(|e| e.to_string())
}

fn set(expr: &str) -> Result<Value, String> {
    parse_on(SetKind::Set, expr, json!({}))
}

fn assigned(kind: SetKind, expr: &str, base: Value) -> Vec<(String, Value)> {
    let Value::Object(mut m) = base else { panic!() };
    parse_into(kind, expr, &mut m, &mut no_files)
        .unwrap()
        .into_iter()
        .map(|a| (a.path.to_string(), a.value))
        .collect()
}

fn is_i64(v: &Value) -> bool {
    v.as_i64().is_some() && !v.as_number().unwrap().is_f64()
}

#[test]
fn set_types_bools_nulls_and_int64_like_typed_val() {
    let v = set("t=TRUE,f=fAlse,n=NuLL,z=0,i=-5,p=+7,m=-007,big=9223372036854775807").unwrap();
    assert_eq!(
        v,
        json!({"t": true, "f": false, "n": null, "z": 0, "i": -5, "p": 7, "m": -7, "big": i64::MAX})
    );
    for k in ["z", "i", "p", "m", "big"] {
        assert!(is_i64(&v[k]), "{k} is int64");
    }
}

#[test]
fn set_keeps_strings_that_are_not_plain_decimal_int64() {
    let v = set("a=007,b=00,c=1.5,d=1e3,e=0x1F,f=9223372036854775808,g=1_000,h=+,i=").unwrap();
    assert_eq!(
        v,
        json!({"a": "007", "b": "00", "c": "1.5", "d": "1e3", "e": "0x1F", "f": "9223372036854775808",
               "g": "1_000", "h": "+", "i": ""})
    );
}

#[test]
fn set_folds_case_like_go_equal_fold_including_long_s() {
    assert_eq!(set("a=falſe").unwrap(), json!({"a": false}));
    assert_eq!(set("a=fals").unwrap(), json!({"a": "fals"}));
}

#[test]
fn string_kind_keeps_every_value_a_string_but_builds_lists() {
    let v = parse_on(SetKind::String, "a=1,b=true,c=null,d={1,x}", json!({})).unwrap();
    assert_eq!(
        v,
        json!({"a": "1", "b": "true", "c": "null", "d": ["1", "x"]})
    );
}

#[test]
fn backslash_escapes_any_rune_and_a_trailing_one_is_dropped() {
    assert_eq!(
        set(r"a\.b=x\,y,c=one\=two,d=x\").unwrap(),
        json!({"a.b": "x,y", "c": "one=two", "d": "x"})
    );
}

#[test]
fn values_keep_spaces_dots_brackets_and_equals() {
    assert_eq!(set("a= x.y[0]=z ").unwrap(), json!({"a": " x.y[0]=z "}));
}

#[test]
fn brace_lists_type_each_item_and_do_not_nest() {
    assert_eq!(
        set("a={1,x,true},b={}").unwrap(),
        json!({"a": [1, "x", true], "b": [""]})
    );
    assert_eq!(set("a={x,{y}}").unwrap_err(), "key \"}\" has no value");
    assert_eq!(set("a={x}b").unwrap_err(), "key \"b\" has no value");
    assert_eq!(set("a={1,2").unwrap_err(), "list must terminate with '}'");
}

#[test]
fn trailing_comma_is_allowed_but_a_lone_key_is_not() {
    assert_eq!(set("a=1,").unwrap(), json!({"a": 1}));
    assert_eq!(set("a").unwrap_err(), "key \"a\" has no value");
    assert_eq!(set("a.b").unwrap_err(), "key \"b\" has no value");
    assert_eq!(
        set("a,b=1").unwrap_err(),
        "key \"a\" has no value (cannot end with ,)"
    );
    assert_eq!(
        set("a=1,,b=2").unwrap_err(),
        "key \"\" has no value (cannot end with ,)"
    );
}

#[test]
fn a_key_without_value_before_a_comma_is_set_to_empty_then_fails() {
    let mut m = Map::new();
    assert!(parse_into(SetKind::Set, "a,b=1", &mut m, &mut no_files).is_err());
    assert_eq!(Value::Object(m), json!({"a": ""}));
}

#[test]
fn empty_keys_set_nothing() {
    assert_eq!(set("=1").unwrap(), json!({}));
    assert_eq!(set(".a=1").unwrap(), json!({}));
    assert_eq!(set("[0]=1").unwrap(), json!({}));
    assert!(assigned(SetKind::Set, ".a=1,[0]=1", json!({})).is_empty());
}

#[test]
fn empty_key_existing_in_base_is_edited_in_place() {
    // Go's map is shared: the edit survives although set() ignores "".
    assert_eq!(
        parse_on(SetKind::Set, ".b=2", json!({"": {"a": 1}})).unwrap(),
        json!({"": {"a": 1, "b": 2}})
    );
    // A list element inside the existing backing array is written...
    assert_eq!(
        parse_on(SetKind::Set, "[0]=x", json!({"": [1, 2]})).unwrap(),
        json!({"": ["x", 2]})
    );
    // ...growing the list allocates a new one, which is lost.
    assert_eq!(
        parse_on(SetKind::Set, "[2]=x", json!({"": [1, 2]})).unwrap(),
        json!({"": [1, 2]})
    );
}

#[test]
fn dot_at_the_end_is_quiet_but_an_empty_segment_is_an_error() {
    assert_eq!(set("a.").unwrap(), json!({}));
    assert_eq!(set("a.=x").unwrap_err(), "key map \"a\" has no value");
    assert_eq!(set("a..b=1").unwrap_err(), "key map \"a\" has no value");
    assert_eq!(
        parse_on(SetKind::Set, "a.=x", json!({"a": {}})).unwrap_err(),
        "key map \"a\" has no value"
    );
}

#[test]
fn list_indexes_grow_pad_with_null_and_nest() {
    assert_eq!(
        set("l[0]=a,l[3]=b").unwrap(),
        json!({"l": ["a", null, null, "b"]})
    );
    assert_eq!(set("n[1][1]=1").unwrap(), json!({"n": [null, [null, 1]]}));
    assert_eq!(
        set("m[1].a=x,m[0].b=y").unwrap(),
        json!({"m": [{"b": "y"}, {"a": "x"}]})
    );
    assert_eq!(set("l[0]=").unwrap(), json!({"l": [""]}));
}

#[test]
fn input_ending_inside_or_after_an_index_ends_quietly() {
    assert_eq!(set("noval[0]").unwrap(), json!({"noval": []}));
    assert_eq!(set("a=1,b[3").unwrap(), json!({"a": 1}));
    assert_eq!(set("a[0][1").unwrap(), json!({"a": []}));
    assert_eq!(set("a[0].").unwrap(), json!({"a": []}));
    assert_eq!(set("a[0].b[1").unwrap(), json!({"a": []}));
}

#[test]
fn list_element_gets_replaced_by_a_map_for_a_dotted_path() {
    assert_eq!(
        parse_on(SetKind::Set, "l[0].a=1", json!({"l": [5, 6]})).unwrap(),
        json!({"l": [{"a": 1}, 6]})
    );
    assert_eq!(set("l[0].=x").unwrap(), json!({"l": [{}]}));
    assert_eq!(
        parse_on(SetKind::Set, "l[0].", json!({"l": [5]})).unwrap(),
        json!({"l": [{}]})
    );
}

#[test]
fn index_errors_read_as_helm() {
    assert_eq!(
        set("a[x]=1").unwrap_err(),
        "error parsing index: strconv.Atoi: parsing \"x\": invalid syntax"
    );
    assert_eq!(
        set("a[]=1").unwrap_err(),
        "error parsing index: strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert_eq!(
        set("a[ 1]=1").unwrap_err(),
        "error parsing index: strconv.Atoi: parsing \" 1\": invalid syntax"
    );
    assert_eq!(
        set("a[99999999999999999999x]=1").unwrap_err(),
        "error parsing index: strconv.Atoi: parsing \"99999999999999999999x\": value out of range"
    );
    assert_eq!(set("a[-1]=1").unwrap_err(), "negative -1 index not allowed");
    assert_eq!(
        set("a[65537]=1").unwrap_err(),
        "index of 65537 is greater than maximum supported index of 65536"
    );
    assert_eq!(
        set("a[0]b=1").unwrap_err(),
        "unexpected data at end of array index: ['b']"
    );
    assert_eq!(
        set("a[0]é,b").unwrap_err(),
        "unexpected data at end of array index: ['é' ',' 'b']"
    );
}

#[test]
fn index_65536_is_the_largest() {
    let v = set("a[65536]=1").unwrap();
    assert_eq!(v["a"].as_array().unwrap().len(), 65537);
    // Signs and leading zeros are fine for Atoi.
    assert_eq!(
        set("a[+1]=x,b[01]=y").unwrap(),
        json!({"a": [null, "x"], "b": [null, "y"]})
    );
}

#[test]
fn the_maximum_index_also_applies_to_long_base_lists() {
    let base = json!({"l": vec![json!(0); 70_000]});
    assert_eq!(
        parse_on(SetKind::Set, "l[69999].a=1", base).unwrap_err(),
        "index of 69999 is greater than maximum supported index of 65536"
    );
}

#[test]
fn type_conflicts_name_go_types() {
    let conflict = |found: &str, wanted: &str| {
        format!(
            "unable to parse key: interface conversion: interface {{}} is {found}, not {wanted}"
        )
    };
    assert_eq!(
        set("a=1,a.b=2").unwrap_err(),
        conflict("int64", "map[string]interface {}")
    );
    assert_eq!(
        set("a=x,a[0]=2").unwrap_err(),
        conflict("string", "[]interface {}")
    );
    assert_eq!(
        set("a=null,a.b=1").unwrap_err(),
        conflict("nil", "map[string]interface {}")
    );
    assert_eq!(
        set("a=true,a[0]=1").unwrap_err(),
        conflict("bool", "[]interface {}")
    );
    assert_eq!(
        set("a.b=1,a[0]=1").unwrap_err(),
        conflict("map[string]interface {}", "[]interface {}")
    );
    assert_eq!(
        set("]={}].").unwrap_err(),
        conflict("[]interface {}", "map[string]interface {}")
    );
    assert_eq!(
        set("a[0]=1,a[0][0]=1").unwrap_err(),
        conflict("int64", "[]interface {}")
    );
    assert_eq!(
        parse_on(SetKind::Set, "a.b=1", json!({"a": 1.0})).unwrap_err(),
        conflict("float64", "map[string]interface {}")
    );
    assert_eq!(
        parse_on(SetKind::Json, "a=1,a.b=1", json!({})).unwrap_err(),
        conflict("float64", "map[string]interface {}")
    );
    // a nil list element is an empty list to `[i][j]`
    assert_eq!(set("a[1]=x,a[0][0]=1").unwrap(), json!({"a": [[1], "x"]}));
}

#[test]
fn nesting_limit_counts_dots_not_indexes() {
    let ok = format!(
        "{}=v",
        (0..31)
            .map(|i| format!("k{i}"))
            .collect::<Vec<_>>()
            .join(".")
    );
    assert!(set(&ok).is_ok());
    let deep = format!(
        "{}=v",
        (0..32)
            .map(|i| format!("k{i}"))
            .collect::<Vec<_>>()
            .join(".")
    );
    assert_eq!(
        set(&deep).unwrap_err(),
        "value name nested level is greater than maximum supported nested level of 30"
    );
    let chain = format!("a{}=v", "[0].b".repeat(40));
    assert!(set(&chain).is_ok());
}

#[test]
fn keys_in_errors_are_go_quoted() {
    assert_eq!(
        set("a\"\t\u{a0}é").unwrap_err(),
        "key \"a\\\"\\t\\u00a0é\" has no value"
    );
}

#[test]
fn json_values_are_one_json_value_each_with_float64_numbers() {
    let v = parse_on(
        SetKind::Json,
        r#"a=1,b={"c":[1,"x",null]},d="s,t" ,e=true, f=1"#,
        json!({}),
    )
    .unwrap();
    // blanks before the comma go with the value, blanks after it with the next key
    assert_eq!(
        v,
        json!({"a": 1.0, "b": {"c": [1.0, "x", null]}, "d": "s,t", "e": true, " f": 1.0})
    );
    assert!(v["a"].as_number().unwrap().is_f64());
}

#[test]
fn json_empty_value_is_null_and_garbage_after_a_value_starts_a_key() {
    assert_eq!(
        parse_on(SetKind::Json, "a=,b= ,c=\u{a0}", json!({})).unwrap(),
        json!({"a": null, "b": null, "c": null})
    );
    assert_eq!(
        parse_on(SetKind::Json, "a=1 x", json!({})).unwrap_err(),
        "key \"x\" has no value"
    );
    assert_eq!(
        parse_on(SetKind::Json, "a=1x=2", json!({})).unwrap(),
        json!({"a": 1.0, "x": 2.0})
    );
    assert_eq!(
        parse_on(SetKind::Json, "a=tru", json!({})).unwrap_err(),
        "unexpected EOF"
    );
    assert_eq!(
        parse_on(SetKind::Json, "a=x", json!({})).unwrap_err(),
        "invalid character 'x' looking for beginning of value"
    );
    assert_eq!(
        parse_on(SetKind::Json, "l[1]=[2],l[0]=", json!({})).unwrap(),
        json!({"l": [null, [2.0]]})
    );
}

#[test]
fn literal_takes_the_rest_verbatim_and_keys_stop_only_at_equals_bracket_dot() {
    let lit = |e: &str| parse_on(SetKind::Literal, e, json!({}));
    assert_eq!(lit("a=1,b=2").unwrap(), json!({"a": "1,b=2"}));
    assert_eq!(lit("a,b=c").unwrap(), json!({"a,b": "c"}));
    assert_eq!(lit(r"a\.b=1").unwrap(), json!({"a\\": {"b": "1"}}));
    assert_eq!(lit("l[1]={x}").unwrap(), json!({"l": [null, "{x}"]}));
    assert_eq!(lit("a.,b").unwrap_err(), "key \",b\" has no value");
    assert_eq!(lit("a").unwrap_err(), "key \"a\" has no value");
}

#[test]
fn file_values_are_read_and_an_empty_one_at_the_end_is_not() {
    let mut reads = Vec::new();
    let mut read = |p: &str| {
        reads.push(p.to_string());
        if p == "bad" {
            Err("open bad: no such file or directory".to_string())
        } else {
            Ok(format!("<{p}>\n"))
        }
    };
    let mut m = Map::new();
    parse_into(
        SetKind::File,
        r"a=p\,1,b={q,r},d[1]=s,c=",
        &mut m,
        &mut read,
    )
    .unwrap();
    assert_eq!(
        Value::Object(m),
        json!({"a": "<p,1>\n", "b": ["<q>\n", "<r>\n"], "c": "", "d": [null, "<s>\n"]})
    );
    // An empty value before a comma is read: Helm fails with "open : ...".
    let mut m = Map::new();
    parse_into(SetKind::File, "e=,f=t", &mut m, &mut read).unwrap();
    let mut m = Map::new();
    let e = parse_into(SetKind::File, "x=bad", &mut m, &mut read).unwrap_err();
    assert_eq!(e.to_string(), "open bad: no such file or directory");
    // Go still sets the key (to nil) before returning the error.
    assert_eq!(Value::Object(m), json!({"x": null}));
    assert_eq!(reads, ["p,1", "q", "r", "s", "", "t", "bad"]);
}

#[test]
fn assignments_list_leaves_in_order() {
    let a = assigned(
        SetKind::Set,
        r"img.tag=1,l[2]=x,l[0].k=y,m={1,2},k\.s=z",
        json!({}),
    );
    assert_eq!(
        a,
        vec![
            ("img.tag".into(), json!(1)),
            ("l[2]".into(), json!("x")),
            ("l[0].k".into(), json!("y")),
            ("m".into(), json!([1, 2])),
            ("k\\.s".into(), json!("z")),
        ]
    );
}

#[test]
fn assignments_report_containers_created_or_replaced_empty() {
    assert_eq!(
        assigned(SetKind::Set, "noval[0]", json!({})),
        vec![("noval".into(), json!([]))]
    );
    assert_eq!(
        assigned(SetKind::Set, "a[0].=x", json!({})),
        vec![("a[0]".into(), json!({}))]
    );
    assert_eq!(
        assigned(SetKind::Set, "l[0].", json!({"l": [5]})),
        vec![("l[0]".into(), json!({}))]
    );
    assert!(assigned(SetKind::Set, "l[0]", json!({"l": [5]})).is_empty());
    assert_eq!(
        assigned(SetKind::Json, r#"a={"b":1},c="#, json!({})),
        vec![("a".into(), json!({"b": 1.0})), ("c".into(), Value::Null)]
    );
}

#[test]
fn apply_flag_wraps_errors_like_the_helm_cli() {
    let mut m = Map::new();
    let err = |kind, v: &str, m: &mut Map<String, Value>| {
        apply_flag(kind, v, m, &mut no_files)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(SetKind::Set, "a", &mut m),
        "failed parsing --set data: key \"a\" has no value"
    );
    assert_eq!(
        err(SetKind::String, "a", &mut m),
        "failed parsing --set-string data: key \"a\" has no value"
    );
    assert_eq!(
        err(SetKind::Literal, "a", &mut m),
        "failed parsing --set-literal data: key \"a\" has no value"
    );
    assert_eq!(
        err(SetKind::File, "a=f", &mut m),
        "failed parsing --set-file data: open f: no such file or directory"
    );
    assert_eq!(
        err(SetKind::Json, "a=x", &mut m),
        "failed parsing --set-json data a=x"
    );
    assert_eq!(
        err(SetKind::Json, " {bad", &mut m),
        "failed parsing --set-json data JSON:  {bad"
    );
    assert_eq!(
        err(SetKind::Json, "{} x", &mut m),
        "failed parsing --set-json data JSON: {} x"
    );
}

#[test]
fn json_object_form_merges_like_merge_maps() {
    let Value::Object(mut m) = json!({"a": {"x": 1, "y": 2}, "b": [1], "c": 3}) else {
        panic!()
    };
    let a = apply_flag(
        SetKind::Json,
        "\u{a0} {\"a\":{\"y\":null,\"z\":{}},\"b\":{\"k\":1},\"d\":[]}",
        &mut m,
        &mut no_files,
    )
    .unwrap();
    assert_eq!(
        Value::Object(m),
        json!({"a": {"x": 1, "y": null, "z": {}}, "b": {"k": 1.0}, "c": 3, "d": []})
    );
    let paths: Vec<String> = a.iter().map(|a| a.path.to_string()).collect();
    assert_eq!(paths, ["a.y", "a.z", "b", "d"]);
}

#[test]
fn merge_maps_replaces_non_maps_and_keeps_nulls() {
    let Value::Object(mut a) = json!({"m": {"a": 1}, "s": "x"}) else {
        panic!()
    };
    let Value::Object(b) = json!({"m": {"b": null}, "s": {"c": 1}}) else {
        panic!()
    };
    merge_maps(&mut a, b);
    assert_eq!(
        Value::Object(a),
        json!({"m": {"a": 1, "b": null}, "s": {"c": 1}})
    );
}

#[test]
fn very_deep_index_chains_parse_like_go() {
    // Go's stacks grow; ours run such input on a thread with a large stack.
    let depth = 20_000;
    let expr = format!("a{}=1", "[0]".repeat(depth));
    let mut m = Map::new();
    let a = parse_into(SetKind::Set, &expr, &mut m, &mut no_files).unwrap();
    assert_eq!(a.len(), 1);
    let mut v = &m["a"];
    let mut n = 0;
    while let Value::Array(items) = v {
        v = &items[0];
        n += 1;
    }
    assert_eq!((n, v), (depth, &json!(1)));
    drop_flat(Value::Object(m));
}

/// Drops a deep value without recursing (serde_json's drop recurses).
fn drop_flat(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[test]
fn json_values_nest_up_to_go_decoders_limit() {
    let depth = 10_000;
    let obj = format!(
        "{{\"a\":{}1{}}}",
        "[".repeat(depth - 1),
        "]".repeat(depth - 1)
    );
    let mut m = Map::new();
    let a = apply_flag(SetKind::Json, &obj, &mut m, &mut no_files).unwrap();
    assert_eq!(a.len(), 1);
    drop_flat(Value::Object(m));
    for a in a {
        drop_flat(a.value);
    }
    let mut m = Map::new();
    let e = parse_into(
        SetKind::Json,
        &format!("a={}", "[".repeat(depth + 1)),
        &mut m,
        &mut no_files,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "invalid character '[' exceeded max depth");
}

#[test]
fn moderately_nested_input_runs_on_the_callers_stack() {
    let expr = format!("a{}=1", "[0].b".repeat(50));
    assert!(set(&expr).is_ok());
}

#[test]
fn deep_file_lists_still_read_through_the_caller() {
    let expr = format!("a{}={{p,q}}", "[0]".repeat(600));
    let mut seen = Vec::new();
    let mut read = |p: &str| {
        seen.push(p.to_string());
        Ok(p.to_uppercase())
    };
    let mut m = Map::new();
    parse_into(SetKind::File, &expr, &mut m, &mut read).unwrap();
    assert_eq!(seen, ["p", "q"]);
}

#[test]
fn helm_order_and_flags() {
    assert_eq!(
        SetKind::HELM_ORDER.map(SetKind::flag),
        [
            "--set-json",
            "--set",
            "--set-string",
            "--set-file",
            "--set-literal"
        ]
    );
    assert_eq!(cli_prefix(SetKind::Set), "failed parsing --set data: ");
}

/// Helm answers `a[65536]` nested 50 deep (3,276,850 elements, 16 bytes each
/// in Go); the budget of [`MAX_LIST_GROWTH`] elements takes it, and stops
/// what would need gigabytes, also when split over several flags.
#[test]
fn list_growth_is_bounded_over_all_flags_together() {
    let bomb = |key: &str, levels: usize| format!("{key}{}=1", "[65536]".repeat(levels));
    let mut budget = MAX_LIST_GROWTH;
    let mut m = Map::new();
    parse_into_within(SetKind::Set, &bomb("a", 50), &mut m, &mut no_files, &mut budget).unwrap();
    assert_eq!(budget, MAX_LIST_GROWTH - 50 * 65537);
    // Growing an existing list counts only the new elements; overwriting one costs nothing.
    parse_into_within(SetKind::Set, "a[65536]=2", &mut m, &mut no_files, &mut budget).unwrap();
    assert_eq!(budget, MAX_LIST_GROWTH - 50 * 65537);
    let e = parse_into_within(SetKind::Set, &bomb("b", 20), &mut m, &mut no_files, &mut budget).unwrap_err();
    assert_eq!(e, StrvalsError::ListGrowthTooLarge);
    let mut fresh = Map::new();
    assert_eq!(set(&bomb("a", 64)), Err(e.to_string()));
    assert!(parse_into(SetKind::Set, &bomb("a", 63), &mut fresh, &mut no_files).is_ok());
    // Helm's CLI prints a --set-json expression instead of its error; this error is not Helm's, and says why.
    let flag = apply_flag(SetKind::Json, &bomb("x", 64), &mut Map::new(), &mut no_files).unwrap_err();
    assert!(flag.to_string().starts_with("failed parsing --set-json data: list indexes would create more than"), "{flag}");
    let flag = apply_flag(SetKind::Set, &bomb("x", 64), &mut Map::new(), &mut no_files).unwrap_err();
    assert_eq!(
        flag.to_string(),
        "failed parsing --set data: list indexes would create more than 4194304 list elements, releasex's limit for all value flags together (Helm has none)"
    );
}
