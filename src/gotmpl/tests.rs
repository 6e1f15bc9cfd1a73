//! Expected outputs were produced by Go 1.19's text/template with sprig
//! v3, yaml.v3 (indent 2) and `missingkey=error`, on the same values.
use super::encode::yaml_plain;
use super::*;
use crate::values::tree::{Source, VMap};

const VALUES: &str = r#"s: hello
num: 5
big: 1000000
bigf: 1000000.0
f: 1.5
e: 1e6
nul: null
b: true
m: {b: 2, a: "x y", z: [1, two]}
l: [a, 1, null]
emptys: ""
nested: {inner: {k: v}, a10: 1, a2: 2, B: 3, _x: 4}
uni: "é\u00a0\u200b\t\"<&>"
nested2: [[1, 2], {a: [x]}, [], {}]
"#;

fn values() -> VMap {
    let m = crate::values::tree::load_tree(VALUES, "v.yaml", &|_, pos| Source::Helmfile {
        layer: "environment".into(),
        file: Some("v.yaml".into()),
        line: Some(pos.line),
        column: Some(pos.column),
        expr: None,
        secret: false,
        via: None,
    })
    .unwrap();
    crate::helmfile::state::integers(m, VALUES)
}

fn data() -> Tv {
    let v = Tv::from_map(&values());
    Tv::new(Val::Struct("data", vec![("Values", v.clone()), ("StateValues", Tv::new(Val::Ptr(Box::new(v))))]))
}

/// `src` rendered as helmfile renders a values template: helmfile's whole
/// function set over the builtins, `missingkey=error`; `environ` is the
/// process environment `env` / `requiredEnv` read.
fn render(file: &str, src: &str, data: &Tv, environ: Option<&Environ>) -> Result<Rendered, TmplError> {
    let host = func::FixedHost { env: environ.map(|e| e.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).unwrap_or_default(), ..Default::default() };
    helmfile::render(file, src, data, &host)
}

fn go_quote_str(s: &str) -> String {
    crate::go::quote::quote(s)
}

fn out(t: &str) -> String {
    render("t.gotmpl", t, &data(), None).unwrap_or_else(|e| panic!("{t}: {e}")).text
}

fn err(t: &str) -> TmplError {
    render("t.gotmpl", t, &data(), None).expect_err(t)
}

fn unsupported(t: &str) -> (usize, usize, String) {
    match err(t) {
        TmplError::Unsupported { line, column, construct, .. } => (line, column, construct),
        other => panic!("{t}: {other:?}"),
    }
}

fn exec_err(t: &str) -> (usize, usize, String) {
    match err(t) {
        TmplError::Exec { line, column, message, .. } => (line, column, message),
        other => panic!("{t}: {other:?}"),
    }
}

#[test]
fn printing_follows_fmt_print() {
    // Integers written as integers stay ints; float literals print in %g (1e+06).
    assert_eq!(out("{{ .Values.s }} {{ .Values.num }} {{ .Values.big }} {{ .Values.bigf }} {{ .Values.f }} {{ .Values.e }}"), "hello 5 1000000 1e+06 1.5 1e+06");
    // nil prints <no value> at the top, <nil> inside; maps sorted.
    assert_eq!(out("{{ .Values.nul }} {{ .Values.b }} {{ .Values.m }} {{ .Values.l }}"), "<no value> true map[a:x y b:2 z:[1 two]] [a 1 <nil>]");
    assert_eq!(out("{{ $.Values.s }}"), "hello");
    assert_eq!(out("{{ .StateValues.s }}"), "hello");
}

#[test]
fn text_comments_and_trim_markers() {
    assert_eq!(out("8 {{- \"  trimmed  \" -}} |x"), "8  trimmed  |x");
    assert_eq!(out("13 {{/* comment */}}{{- /* c2 */ -}} after"), "13 after");
    assert_eq!(out("a:\n  {{- /* gone */}}\nb"), "a:\nb");
    assert_eq!(out("plain: text\n"), "plain: text\n");
}

#[test]
fn quote_squote_and_strconv_escapes() {
    assert_eq!(out("{{ .Values.s | quote }} {{ .Values.num | quote }} {{ .Values.nul | quote }} {{ .Values.m | quote }} {{ .Values.s | squote }}"), "\"hello\" \"5\"  \"map[a:x y b:2 z:[1 two]]\" 'hello'");
    assert_eq!(out("{{ .Values.uni | quote }}"), r#""é\u00a0\u200b\t\"<&>""#);
}

#[test]
fn to_json_like_encoding_json() {
    assert_eq!(out("{{ .Values.m | toJson }}"), r#"{"a":"x y","b":2,"z":[1,"two"]}"#);
    assert_eq!(out("{{ .Values.uni | toJson }}"), "\"é\u{a0}\u{200b}\\t\\\"\\u003c\\u0026\\u003e\"");
    assert_eq!(out("{{ .Values.bigf | toJson }} {{ 1e21 | toJson }} {{ 0.0000001 | toJson }}"), "1000000 1e+21 1e-7");
}

#[test]
fn default_uses_sprig_empty() {
    assert_eq!(out(r#"{{ .Values.emptys | default "d" }} {{ .Values.num | default 7 }} {{ 0 | default 7 }} {{ .Values.nul | default "z" }}"#), "d 5 7 z");
}

#[test]
fn index_get_and_get_or_nil() {
    assert_eq!(out(r#"{{ index .Values "m" "a" }} {{ index .Values "nope" }} {{ index .Values.l 1 }}"#), "x y <no value> 1");
    assert_eq!(out(r#"{{ index .StateValues "s" }}"#), "hello");
    assert_eq!(out(r#"{{ get "m.a" .Values }} {{ get "m.nope" "dflt" .Values }} {{ getOrNil "m.nope" .Values }} {{ .Values | get "nested.inner.k" }}"#), "x y dflt <no value> v");
    // A default covers a missing key only: through a string or a nil it is an error.
    let (_, _, m) = exec_err(r#"{{ get "s.x" "d" .Values }}"#);
    assert!(m.contains("unexpected type(string)"), "{m}");
    assert_eq!(out(r#"{{ getOrNil "s.x" .Values }}|{{ getOrNil "nul.x" .Values }}"#), "<no value>|<no value>");
    let (l, c, m) = exec_err("\n  {{ get \"nope\" .Values }}");
    assert_eq!((l, c), (2, 6));
    assert!(m.contains("no value exist for key \"nope\""), "{m}");
    let (_, _, m) = exec_err(r#"{{ index .Values "nope" "deeper" }}"#);
    assert!(m.contains("index of nil pointer"), "{m}");
}

#[test]
fn string_functions_want_strings() {
    assert_eq!(out(r#"|{{ "  x  " | trim }}|{{ "aB" | upper }}{{ "aB" | lower }}"#), "|x|ABab");
    let (_, _, m) = exec_err("{{ .Values.num | upper }}");
    assert!(m.contains("expected string; got int"), "{m}");
    let (_, _, m) = exec_err("{{ .Values.nul | upper }}");
    assert!(m.contains("invalid value; expected string"), "{m}");
}

#[test]
fn to_yaml_like_yaml_v3_with_indent_2() {
    assert_eq!(out("{{ .Values.nested | toYaml }}"), "_x: 4\nB: 3\na2: 2\na10: 1\ninner:\n  k: v\n");
    assert_eq!(out("{{ .Values.m.z | toYaml }}{{ .Values.l | toYaml }}"), "- 1\n- two\n- a\n- 1\n- null\n");
    assert_eq!(out("x: {{ .Values.nested | toYaml | nindent 2 }}"), "x: \n  _x: 4\n  B: 3\n  a2: 2\n  a10: 1\n  inner:\n    k: v\n  ");
    assert_eq!(out("{{ .Values.bigf | toYaml }}{{ .Values.f | toYaml }}{{ .Values.s | toYaml }}"), "1e+06\n1.5\nhello\n");
    assert_eq!(out("{{ .Values.nested2 | toYaml }}"), "- - 1\n  - 2\n- a:\n    - x\n- []\n- {}\n");
    // A string yaml.v3 might quote is refused, not guessed.
    assert_eq!(out("{{ .Values.m | toYaml }}"), "a: x y\nb: 2\nz:\n  - 1\n  - two\n");
    // Strings yaml.v3 would escape are refused, not guessed.
    assert_eq!(out("{{ .Values.emptys | toYaml }}"), "\"\"\n");
    assert!(unsupported("{{ .Values.uni | toYaml }}").2.contains("the string"));
    // Strings yaml.v3 would read back as another type are double-quoted, as
    // gopkg.in/yaml.v3 (SetIndent 2) printed them under Go 1.19.
    for (text, go) in [("", "\"\""), ("007", "\"007\""), ("008", "\"008\""), ("1.", "\"1.\""), (".5", "\".5\""), ("+.5", "\"+.5\""), ("-0", "\"-0\""), ("1E+3", "\"1E+3\""), ("1.5e-3", "\"1.5e-3\""), ("y", "\"y\""), ("Off", "\"Off\""), ("NULL", "\"NULL\""), ("~", "\"~\""), ("12345678901234567890", "\"12345678901234567890\"")] {
        let t = format!("{{{{ dict \"v\" {} \"l\" (list {}) \"m\" (dict {} \"x\") | toYaml }}}}", go_quote_str(text), go_quote_str(text), go_quote_str(text));
        assert_eq!(out(&t), format!("l:\n  - {go}\nm:\n  {go}: x\nv: {go}\n"), "{text:?}");
    }
    // Digit-first strings yaml.v3 leaves plain, and those it would quote.
    for (s, plain) in [("100m", true), ("1.2.3", true), ("1e5x", true), ("12ab", true), ("08", false), ("1.", false), ("1e5", false), ("0x1G", false), ("2024-01-01x", false)] {
        assert_eq!(yaml_plain(s).is_ok(), plain, "{s}");
    }
}

#[test]
fn control_structures() {
    assert_eq!(
        out("{{ if .Values.b }}yes{{ else }}no{{ end }} {{ with .Values.m }}{{ .b }}{{ end }} {{ range .Values.m.z }}[{{ . }}]{{ end }} {{ range .Values.m }}<{{ . }}>{{ end }}"),
        "yes 2 [1][two] <x y><2><[1 two]>"
    );
    assert_eq!(out("{{ if .Values.emptys }}a{{ else if .Values.num }}b{{ else }}c{{ end }}"), "b");
    assert_eq!(out("{{ if .Values.emptys }}a{{ else if .Values.nul }}b{{ else }}c{{ end }}"), "c");
    // `else with` came in Go 1.23; helmfile 0.166 (Go 1.22.4) refuses it as Go 1.19 does.
    assert!(matches!(err("{{ with .Values.nul }}a{{ else with .Values.m }}{{ .b }}{{ end }}"), TmplError::Parse { message, .. } if message == "unexpected <with> in else"));
    assert_eq!(out("{{ range .Values.nul }}x{{ else }}none{{ end }}"), "none");
}

#[test]
fn more_cases_checked_against_go() {
    let (_, _, m) = exec_err("{{ index .Values.l 5 }}");
    assert!(m.contains("index out of range: 5"), "{m}");
    assert_eq!(out(r#"{{ and .Values.b "x" }}|{{ or .Values.nul .Values.emptys }}|"#), "x||");
    assert_eq!(out("{{ with .Values.nul }}x{{ else }}y{{ end }}|{{ with .Values.m }}{{ .a }}{{ else }}n{{ end }}"), "y|x y");
    assert_eq!(out("{{-3}}|{{ 1.0 }}|{{ 1e6 }}|{{ -0 }}"), "-3|1|1e+06|0");
    assert_eq!(out("{{ .Values.f | quote }}|{{ .Values.bigf | quote }}|{{ .Values.l | quote }}|{{ quote .Values.s .Values.num }}"), r#""1.5"|"1e+06"|"[a 1 <nil>]"|"hello" "5""#);
    assert_eq!(out(r#"{{ .Values.s | upper | quote }}|{{ "x" | default .Values.s }}"#), r#""HELLO"|x"#);
    assert_eq!(out("{{ .Values.m.z | toJson }}|{{ .Values.nul | toJson }}|{{ .Values.l | toJson }}"), r#"[1,"two"]|null|["a",1,null]"#);
    assert_eq!(out(r#"{{ eq .Values.num 5 }}|{{ ne .Values.s "x" }}|{{ eq .Values.s "a" "hello" }}"#), "true|true|true");
    assert_eq!(out(r#"{{ if and .Values.b (eq .Values.s "hello") }}ok{{ end }}"#), "ok");
    assert_eq!(out("{{ range .Values.l }}{{ . }},{{ end }}"), "a,1,<no value>,");
    assert_eq!(out("{{ \"a\\tb\" | squote }}|{{ `raw\\n` }}"), "'a\tb'|raw\\n");
    assert_eq!(out("{{ .Values.e | toJson }}|{{ .Values.big | toJson }}"), "1000000|1000000");
    assert_eq!(out("{{ eq .Values.f 1.5 }}"), "true");
    let (_, _, m) = exec_err("{{ eq .Values.num 5.0 }}");
    assert!(m.contains("incompatible types for comparison"), "{m}");
    let (_, _, m) = exec_err("{{ .Values.num | indent 2 }}");
    assert!(m.contains("expected string; got int"), "{m}");
}

#[test]
fn logic_functions() {
    assert_eq!(out(r#"{{ eq .Values.s "hello" }} {{ and 1 0 }} {{ or 0 "" "x" }} {{ not .Values.b }}"#), "true 0 x false");
}

#[test]
fn missing_keys_and_nil_receivers_are_errors() {
    // Go places the error at the chain's last field (`.nope`).
    let (l, c, m) = exec_err("a: 1\nb: {{ .Values.nope }}");
    assert_eq!((l, c), (2, 14));
    assert_eq!(m, "map has no entry for key \"nope\"");
    let (_, _, m) = exec_err("{{ .Values.nul.x }}");
    assert_eq!(m, "nil pointer evaluating interface {}.x");
    let (_, _, m) = exec_err("{{ .Values.s.x }}");
    assert_eq!(m, "can't evaluate field x in type interface {}");
    let (_, _, m) = exec_err("{{ .Nope }}");
    assert!(m.contains("can't evaluate field Nope"), "{m}");
    let (_, _, m) = exec_err(r#"{{ required "need it" .Values.emptys }}"#);
    assert!(m.contains("need it"), "{m}");
    assert_eq!(out(r#"{{ required "need it" .Values.s }}"#), "hello");
}

#[test]
fn go_parse_errors_are_gos_and_variables_templates_and_pointers_print_as_in_go() {
    let parse = |t: &str| match err(t) {
        TmplError::Parse { line, go, .. } => (line, go),
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(parse("{{ .Values.s"), (1, "template: t.gotmpl:1: unclosed action".into()));
    assert_eq!(parse("{{ if .Values.b }}x"), (1, "template: t.gotmpl:1: unexpected EOF".into()));
    assert_eq!(parse("x\n{{ end }}"), (2, "template: t.gotmpl:2: unexpected {{end}}".into()));
    // Variables, templates, hex numbers and pointers print as in Go.
    assert_eq!(out("{{ $x := .Values.s }}{{ define \"d\" }}<{{ . }}>{{ end }}{{ template \"d\" $x }} {{ 0x10 }}"), "<hello> 16");
    assert_eq!(out("{{ .StateValues.m }}"), out("{{ .Values.m }}"));
}

#[test]
fn env_and_required_env_read_the_given_map() {
    let environ: Environ = [("TAG".to_string(), "v1".to_string()), ("EMPTY".to_string(), String::new())].into();
    let r = |t: &str| render("t.gotmpl", t, &data(), Some(&environ));
    assert_eq!(r(r#"{{ env "TAG" }}|{{ env "UNSET" }}|{{ env "EMPTY" | default "d" }}|{{ requiredEnv "TAG" }}"#).unwrap().text, "v1||d|v1");
    for t in [r#"{{ requiredEnv "UNSET" }}"#, r#"{{ requiredEnv "EMPTY" }}"#] {
        match r(t) {
            Err(TmplError::Exec { message, .. }) => assert!(message.contains("required env var"), "{message}"),
            other => panic!("{t}: {other:?}"),
        }
    }
}

#[test]
fn spans_map_output_back_to_the_template() {
    let r = render("t.gotmpl", "a: {{ .Values.s }}\nb: x\n", &data(), None).unwrap();
    assert_eq!(r.text, "a: hello\nb: x\n");
    let action = r.spans.iter().find(|s| s.action.is_some()).unwrap();
    assert_eq!(&r.text[action.out.clone()], "hello");
    assert_eq!(action.src, 3);
    let origin = action.action.clone().flatten().unwrap();
    assert!(matches!(&*origin, Source::Helmfile { line: Some(1), column: Some(4), .. }), "{origin:?}");
    // quote keeps the origin of the one value it quotes.
    let r = render("t.gotmpl", "a: {{ .Values.num | quote }}", &data(), None).unwrap();
    assert!(matches!(r.spans[1].action.clone().flatten().as_deref(), Some(Source::Helmfile { line: Some(2), .. })));
    // A literal has no origin.
    let r = render("t.gotmpl", "a: {{ \"lit\" }}", &data(), None).unwrap();
    assert!(r.spans[1].action.clone().flatten().is_none());
}

/// Each `quote` of a quoted string about doubles it (`"a"` quoted n times is
/// 2^(n+1) - 1 bytes): 23 stay under the 16 MiB cap as a function result,
/// 24 pass it at the 24th call, which the error names; below the cap the
/// answer is the plain one.
#[test]
fn strings_past_the_size_cap_are_an_error_naming_the_call() {
    let chain = |n: usize| format!("{{{{ \"a\"{} }}}}", " | quote".repeat(n));
    assert_eq!(out(&chain(2)), r#""\"a\"""#);
    let e = err(&chain(24));
    let TmplError::TooLarge { line, column, what, bytes, .. } = &e else { panic!("{e:?}") };
    assert_eq!((*line, *column, what.as_str(), *bytes), (1, 6 + 8 * 23 + 3 + 1, "the result of `quote`", (1 << 25) - 1));
    assert!(e.to_string().contains("t.gotmpl:1:194: template: the result of `quote` would be 33554431 bytes, over releasex's limit of 16 MiB"), "{e}");
    // The output counts too: text around a string just under the cap passes it.
    let e = err(&format!("x: {}\n", chain(23)));
    assert!(matches!(&e, TmplError::TooLarge { what, .. } if what == "the template's output"), "{e:?}");
    // A wide indent is sized before it is built (sprig's indent refuses it itself).
    let e = err("{{ indent 20000000 \"a\" }}");
    assert!(matches!(&e, TmplError::Unsupported { construct, .. } if construct.starts_with("indent: the result would be 20000000 bytes")), "{e:?}");
}

mod function_maps {
    use super::super::func::{Call, Derive, FixedHost, FnError, FuncMap, Param, Sig};
    use super::super::*;
    use std::rc::Rc;

    /// A `time.Duration`-like object: `String()` and one method with an argument.
    #[derive(Debug)]
    struct Dur(i64);

    impl GoObject for Dur {
        fn type_name(&self) -> &'static str {
            "time.Duration"
        }
        fn kind(&self) -> &'static str {
            "int64"
        }
        fn go_string(&self) -> String {
            format!("{}s", self.0)
        }
        fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
            match (name, args) {
                ("Seconds", []) => Some(Ok(Tv::new(Val::Float(self.0 as f64)))),
                ("Times", [Tv { val: Val::Int(n), .. }]) => Some(Ok(Tv::new(Val::Int64(self.0 * n)))),
                ("Times", _) => Some(Err("Times wants one int".into())),
                _ => None,
            }
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn mk_secret(_: &Call<'_>, _: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(Tv { secret: true, ..Tv::str("s3cret") })
    }
    fn upper(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let Val::Str(s) = &a[0].val else { return Err(FnError::Go("no".into())) };
        Ok(Tv::str(&s.to_uppercase()))
    }
    fn first(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(a[0].clone())
    }
    fn random(_: &Call<'_>, _: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(Tv::str("r4nd"))
    }
    fn dur(_: &Call<'_>, _: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(Tv::new(Val::Object(Rc::new(Dur(90)))))
    }
    fn len_override(_: &Call<'_>, _: Vec<Tv>) -> Result<Tv, FnError> {
        Ok(Tv::str("mine"))
    }
    fn include(c: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
        let Val::Str(name) = &a[0].val else { return Err(FnError::Go("name".into())) };
        Ok(Tv::str(&(c.render)(func::RenderRequest::Named { name, data: &a[1] }).map_err(func::render_failure)?))
    }

    fn funcs() -> FuncMap {
        let mut m = FuncMap::new();
        m.add("secret", Sig::fixed(&[]), Derive::Made, mk_secret);
        m.add("upper", Sig::fixed(&[Param::String]), Derive::Made, upper);
        m.add("first", Sig::variadic(&[Param::Any], Param::Any), Derive::Passed, first);
        m.add("random", Sig::fixed(&[]), Derive::Made, random).nondeterministic = true;
        m.add("dur", Sig::fixed(&[]), Derive::Made, dur);
        m.add("len", Sig::fixed(&[Param::Any]), Derive::Made, len_override);
        m.add("include", Sig::fixed(&[Param::String, Param::Any]), Derive::Made, include);
        m
    }

    fn run(t: &str) -> Result<Rendered, TmplError> {
        let funcs = funcs();
        let host = FixedHost::default();
        render_with(t, &Tv::new(Val::Nil), &RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey: MissingKey::Default })
    }

    #[test]
    fn a_result_made_from_a_secret_is_secret_and_one_passed_through_keeps_its_own_mark() {
        let r = run("a{{ secret | upper }}b{{ upper \"x\" }}{{ first \"y\" secret }}").expect("renders");
        assert_eq!(r.text, "aS3CRETbXy");
        let marked: Vec<(&str, bool)> = r.spans.iter().map(|s| (&r.text[s.out.clone()], s.secret)).collect();
        assert_eq!(marked, [("a", false), ("S3CRET", true), ("b", false), ("X", false), ("y", false)]);
    }

    #[test]
    fn nondeterministic_results_and_what_is_made_from_them_are_marked() {
        let r = run("{{ random }} {{ random | upper }} {{ upper \"k\" }}").expect("renders");
        let marked: Vec<bool> = r.spans.iter().filter(|s| s.action.is_some()).map(|s| s.nondeterministic).collect();
        assert_eq!(marked, [true, true, false]);
    }

    #[test]
    fn the_callers_map_replaces_a_builtin_as_gos_funcs_does() {
        assert_eq!(run("{{ len 1 }}").expect("renders").text, "mine");
    }

    #[test]
    fn objects_print_by_their_string_method_and_answer_members() {
        assert_eq!(run("{{ dur }} {{ dur.Seconds }} {{ (dur).Times 2 }} {{ print (dur) }}").expect("renders").text, "90s 90 180 90s");
        let e = run("{{ (dur).Times \"x\" }}").expect_err("wrong argument");
        assert_eq!(e.go_text(), Some("template: t:1:8: executing \"t\" at <(dur).Times>: error calling Times: Times wants one int"));
        let e = run("{{ (dur).Nope }}").expect_err("no member");
        // Go is still "at" the receiver's last node when the field fails (exec.go evalChainNode).
        assert_eq!(e.go_text(), Some("template: t:1:4: executing \"t\" at <dur>: can't evaluate field Nope in type time.Duration"));
    }

    #[test]
    fn include_renders_a_defined_template_with_the_running_engine() {
        assert_eq!(run("{{ define \"d\" }}<{{ . }}>{{ end }}{{ include \"d\" 5 | upper }}").expect("renders").text, "<5>");
        let e = run("{{ define \"d\" }}{{ .x.y }}{{ end }}{{ include \"d\" 5 }}").expect_err("fails inside");
        assert_eq!(e.go_text(), Some("template: t:1:38: executing \"t\" at <include \"d\" 5>: error calling include: template: t:1:21: executing \"d\" at <.x.y>: can't evaluate field x in type int"));
    }

    #[test]
    fn endless_template_recursion_stops_at_releasexs_depth_limit() {
        let e = crate::parallel::on_deep_stack(|| run("{{ define \"r\" }}{{ template \"r\" . }}{{ end }}{{ template \"r\" . }}").map(|r| r.text).map_err(|e| e.to_string()));
        let e = e.expect_err("too deep");
        assert!(e.contains("nested more than 1000 deep"), "{e}");
    }
}
