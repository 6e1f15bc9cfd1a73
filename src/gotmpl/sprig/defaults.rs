//! sprig: defaults (defaults.go: `default`, `empty`, `coalesce`, `all`,
//! `any`, `ternary`, the JSON functions; list.go's `compact`; dict.go's
//! `deepCopy`).

use std::fmt::Write as _;

use serde_json::Value;

use super::conv::{made, reflect_kind, slice_items};
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::gomap::{GoMap, Inside, deep_copy_tv};
use crate::gotmpl::{Tv, Val};

const ANY: Param = Param::Any;

pub(super) fn register(m: &mut FuncMap) {
    m.add("default", Sig::variadic(&[ANY], ANY), Derive::Passed, default);
    m.add("empty", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(made(Val::Bool(empty(&a[0])))));
    m.add("coalesce", Sig::variadic(&[], ANY), Derive::Passed, coalesce);
    m.add("all", Sig::variadic(&[], ANY), Derive::Made, |_, a| Ok(made(Val::Bool(a.iter().all(|v| !empty(v))))));
    m.add("any", Sig::variadic(&[], ANY), Derive::Made, |_, a| Ok(made(Val::Bool(a.iter().any(|v| !empty(v))))));
    m.add("compact", Sig::fixed(&[ANY]), Derive::Passed, compact);
    m.add("mustCompact", Sig::fixed(&[ANY]), Derive::Passed, compact);
    m.add("ternary", Sig::fixed(&[ANY, ANY, Param::Bool]), Derive::Passed, ternary);
    m.add("fromJson", Sig::fixed(&[Param::String]), Derive::Made, from_json);
    m.add("mustFromJson", Sig::fixed(&[Param::String]), Derive::Made, from_json);
    for name in ["toJson", "mustToJson", "toPrettyJson", "mustToPrettyJson", "toRawJson", "mustToRawJson"] {
        m.add(name, Sig::fixed(&[ANY]), Derive::Made, to_json);
    }
    m.add("deepCopy", Sig::fixed(&[ANY]), Derive::Passed, deep_copy);
    m.add("mustDeepCopy", Sig::fixed(&[ANY]), Derive::Passed, deep_copy);
}

/// sprig's `empty` (adapted from text/template's `isTrue`): nil, zero
/// numbers, `false`, and empty strings, slices and maps; structs never.
pub fn empty(v: &Tv) -> bool {
    match &v.val {
        Val::Nil => true,
        Val::Bool(b) => !b,
        Val::Int(i) | Val::Int64(i) => *i == 0,
        Val::Float(f) => *f == 0.0,
        Val::Str(s) => s.is_empty(),
        Val::Bytes(b) => b.is_empty(),
        Val::List(l) | Val::TypedList(_, l) => l.is_empty(),
        Val::Map(m) => m.is_empty(),
        Val::StrMap(m) => m.is_empty(),
        Val::Struct(..) | Val::Ptr(_) => false,
        // A named integer (`uint64`) is empty at zero; a struct-like object never.
        Val::Object(o) => o.as_any().downcast_ref::<super::conv::GoInt>().is_some_and(|n| n.0 == 0),
    }
}

/// `dfault(d, given...)`: `given[0]` unless it is missing or empty.
fn default(_: &Call, mut args: Vec<Tv>) -> Result<Tv, FnError> {
    let d = args.remove(0);
    match args.into_iter().next() {
        Some(g) if !empty(&g) => Ok(g),
        _ => Ok(d),
    }
}

fn coalesce(_: &Call, args: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(args.into_iter().find(|v| !empty(v)).unwrap_or_else(|| Tv::new(Val::Nil)))
}

/// `compact` / `mustCompact`: the non-empty items; `compact` panics where
/// `mustCompact` returns the error, and text/template words both alike.
fn compact(c: &Call, args: Vec<Tv>) -> Result<Tv, FnError> {
    let kind = reflect_kind(&args[0])?;
    let items = slice_items(&args[0]).ok_or_else(|| FnError::Go(format!("Cannot compact on type {kind}")))?;
    let _ = c;
    Ok(passed_list(&args[0], items.into_iter().filter(|v| !empty(v)).collect()))
}

/// A new `[]interface{}` of an argument's items: it carries the argument's secrecy.
pub fn passed_list(from: &Tv, items: Vec<Tv>) -> Tv {
    let mut list = Tv::new(Val::List(items));
    list.secret = from.secret;
    list
}

fn ternary(_: &Call, mut args: Vec<Tv>) -> Result<Tv, FnError> {
    let cond = matches!(args[2].val, Val::Bool(true));
    Ok(if cond { args.swap_remove(0) } else { args.swap_remove(1) })
}

/// `fromJson` / `mustFromJson`: `json.Unmarshal` into `interface{}`
/// (numbers float64); `fromJson` swallows the error and gives nil.
fn from_json(c: &Call, args: Vec<Tv>) -> Result<Tv, FnError> {
    let Val::Str(text) = &args[0].val else { return Err(FnError::Exec("fromJson: a string argument".into())) };
    match crate::go::json_decode::unmarshal(text) {
        Ok(v) => Ok(from_json_value(&v)),
        Err(_) if c.name == "fromJson" => Ok(Tv::new(Val::Nil)),
        Err(e) => Err(FnError::Go(e.unmarshal_text())),
    }
}

/// A decoded JSON value as Go's `interface{}` holds it.
pub fn from_json_value(v: &Value) -> Tv {
    Tv::new(match v {
        Value::Null => Val::Nil,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => Val::Float(crate::go::json::go_float64(n)),
        Value::String(s) => Val::Str(s.clone()),
        Value::Array(a) => Val::List(a.iter().map(from_json_value).collect()),
        Value::Object(o) => Val::Map(o.iter().map(|(k, v)| (k.clone(), from_json_value(v))).collect()),
    })
}

/// Go's `json.Marshal(v)` of a template value (what Helm's `toJson` and
/// `toYaml` start from): `Err` with encoding/json's message, or with what
/// releasex cannot encode.
pub fn json_marshal(v: &Tv) -> Result<String, FnError> {
    let mut out = String::new();
    let mut levels = PtrLevels { above: 0, path: Vec::new() };
    match write_json(&mut out, v, JsonStyle { indent: false, escape_html: true }, 0, &mut levels) {
        Ok(()) => Ok(out),
        Err(JsonFail::Unsupported(what)) => Err(FnError::Unsupported(format!("JSON of {what}"))),
        Err(JsonFail::Go(msg)) => Err(FnError::Go(msg)),
    }
}

/// The JSON functions: `toJson` (`json.Marshal`, error swallowed: ""),
/// `toPrettyJson` (`MarshalIndent(v, "", "  ")`), `toRawJson` (an Encoder
/// with HTML escaping off, trailing newline trimmed; it panics on error),
/// and their `must` forms, which return the error.
fn to_json(c: &Call, args: Vec<Tv>) -> Result<Tv, FnError> {
    let name = c.name.trim_start_matches("must");
    let style = match name {
        "ToPrettyJson" | "toPrettyJson" => JsonStyle { indent: true, escape_html: true },
        "ToRawJson" | "toRawJson" => JsonStyle { indent: false, escape_html: false },
        _ => JsonStyle { indent: false, escape_html: true },
    };
    let mut out = String::new();
    // toRawJson encodes `&v` (sprig `enc.Encode(&v)`): one pointer level above the value.
    let mut levels = PtrLevels { above: usize::from(name.ends_with("oRawJson")), path: Vec::new() };
    match write_json(&mut out, &args[0], style, 0, &mut levels) {
        Ok(()) => Ok(made(Val::Str(out))),
        Err(JsonFail::Unsupported(what)) => Err(FnError::Unsupported(format!("{}: JSON of {what}", c.name))),
        Err(JsonFail::Go(_)) if c.name == "toJson" || c.name == "toPrettyJson" => Ok(made(Val::Str(String::new()))),
        Err(JsonFail::Go(msg)) => Err(FnError::Go(msg)),
    }
}

#[derive(Clone, Copy)]
struct JsonStyle {
    indent: bool,
    escape_html: bool,
}

enum JsonFail {
    /// encoding/json's own error (`json: unsupported value: NaN`).
    Go(String),
    /// A value releasex does not model the encoding of.
    Unsupported(String),
}

/// encoding/json's encoder over template values: maps with sorted keys,
/// `[]byte` as base64, floats in Go's JSON form, objects by their
/// `MarshalJSON`/`MarshalText` (`time.Time` RFC 3339, `*semver.Version` its
/// text). A map inside itself is encoding/json's cycle error ([`PtrLevels`]).
fn write_json(out: &mut String, v: &Tv, style: JsonStyle, depth: usize, inside: &mut PtrLevels) -> Result<(), JsonFail> {
    let newline = |out: &mut String, depth: usize| {
        if style.indent {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
    };
    match &v.val {
        Val::Nil => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Int(i) | Val::Int64(i) => {
            let _ = write!(out, "{i}");
        }
        Val::Float(f) => match crate::go::json::format_go_float64(*f) {
            Some(s) => out.push_str(&s),
            None => return Err(JsonFail::Go(format!("json: unsupported value: {}", crate::go::fmt::go_float(*f)))),
        },
        Val::Str(s) => write_string(out, s, style.escape_html),
        Val::Bytes(b) => {
            use base64::Engine as _;
            write_string(out, &base64::engine::general_purpose::STANDARD.encode(b), style.escape_html);
        }
        Val::List(l) | Val::TypedList(_, l) => {
            if l.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            inside.path.push((None, match &v.val {
                Val::TypedList(elem, _) => format!("[]{elem}"),
                _ => "[]interface {}".into(),
            }));
            out.push('[');
            for (i, item) in l.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_json(out, item, style, depth + 1, inside)?;
            }
            newline(out, depth);
            out.push(']');
            inside.path.pop();
        }
        Val::Map(m) => {
            inside.enter(m)?;
            let entries = m.entries();
            write_object(out, entries.iter().map(|(k, v)| (k.as_str(), v.clone())), entries.is_empty(), style, depth, inside)?;
            inside.path.pop();
        }
        Val::StrMap(m) => write_object(out, m.iter().map(|(k, v)| (k.as_str(), Tv::str(v))), m.is_empty(), style, depth, inside)?,
        Val::Ptr(p) => {
            inside.path.push((None, "*map[string]interface {}".into()));
            write_json(out, p, style, depth, inside)?;
            inside.path.pop();
        }
        Val::Struct(name, _) => return Err(JsonFail::Unsupported(format!("a struct ({name})"))),
        Val::Object(o) => match super::dates::object_json(o.as_ref()).or_else(|| super::semver::object_json(o.as_ref())) {
            Some(ObjectJson::Text(s)) => write_string(out, &s, style.escape_html),
            Some(ObjectJson::Raw(s)) => out.push_str(&s),
            None if o.as_any().is::<super::conv::GoInt>() => out.push_str(&o.go_string()),
            // A type of another function set that knows its own encoding
            // (compact: the indenting forms refuse it rather than guess).
            None => match o.json() {
                Some(json) if !style.indent => out.push_str(&json),
                _ => return Err(JsonFail::Unsupported(o.type_name().to_string())),
            },
        },
    }
    Ok(())
}

/// encoding/json's pointer levels (Go 1.19 encode.go `encodeState.ptrLevel`):
/// every map, slice and pointer encoder adds one. Past
/// `startDetectingCyclesAfter` (1000) levels each records its pointer in
/// `ptrSeen`, and meeting a recorded one fails with `encountered a cycle via
/// TYPE`. Go's walk is the same as this one until it passes level 1000, and
/// once it loops it repeats the loop: so where this walk first re-enters a
/// map, the error Go gives is known without going 1000 levels down: TYPE is
/// the node the loop puts at level 1001 (or the loop's first node, when the
/// way into it is itself longer than 1000 levels).
struct PtrLevels {
    /// Levels above the value (toRawJson's `&v`).
    above: usize,
    /// The maps (with their identity), slices and pointers being encoded, outermost first.
    path: Vec<(Option<usize>, String)>,
}

impl PtrLevels {
    fn enter(&mut self, m: &GoMap) -> Result<(), JsonFail> {
        let id = m.id();
        if let Some(j) = self.path.iter().position(|(seen, _)| *seen == Some(id)) {
            const FIRST_CHECKED: usize = 1001;
            let level_of = |index: usize| self.above + index + 1;
            let period = self.path.len() - j;
            let at = if level_of(j) > FIRST_CHECKED { j } else { j + (FIRST_CHECKED - level_of(j)) % period };
            return Err(JsonFail::Go(format!("json: unsupported value: encountered a cycle via {}", self.path[at].1)));
        }
        self.path.push((Some(id), "map[string]interface {}".into()));
        Ok(())
    }
}

/// How an object of sprig's encodes to JSON.
pub enum ObjectJson {
    /// A JSON string of this text (`MarshalText`, or a `MarshalJSON` that quotes).
    Text(String),
    /// This JSON as it is (a number).
    Raw(String),
}

fn write_object<'a>(out: &mut String, entries: impl Iterator<Item = (&'a str, Tv)>, is_empty: bool, style: JsonStyle, depth: usize, inside: &mut PtrLevels) -> Result<(), JsonFail> {
    if is_empty {
        out.push_str("{}");
        return Ok(());
    }
    out.push('{');
    // BTreeMap order is bytewise, encoding/json's sort of string keys.
    for (i, (k, item)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if style.indent {
            out.push('\n');
            out.push_str(&"  ".repeat(depth + 1));
        }
        write_string(out, k, style.escape_html);
        out.push_str(if style.indent { ": " } else { ":" });
        write_json(out, &item, style, depth + 1, inside)?;
    }
    if style.indent {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    }
    out.push('}');
    Ok(())
}

/// encoding/json's string: with HTML escaping as `json.Marshal`; without,
/// as an Encoder after `SetEscapeHTML(false)` (U+2028 and U+2029 are escaped either way).
fn write_string(out: &mut String, s: &str, escape_html: bool) {
    if escape_html {
        crate::go::json::write_go_string(out, s);
        return;
    }
    // Escape `<`, `>`, `&` first as json.Marshal does, then undo just those three.
    let mut escaped = String::with_capacity(s.len() + 2);
    crate::go::json::write_go_string(&mut escaped, s);
    out.push_str(&unescape_html(&escaped));
}

/// `\u003c`, `\u003e`, `\u0026` back to `<`, `>`, `&` (never preceded by an
/// escaping backslash in encoder output, since a literal `\` is written `\\`).
fn unescape_html(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    while let Some(i) = rest.find("\\u00") {
        // Count the backslashes before: an odd run means this one escapes.
        let run = rest[..i].bytes().rev().take_while(|&b| b == b'\\').count();
        let code = rest.get(i + 4..i + 6);
        let ch = match code {
            Some("3c") if run % 2 == 0 => Some('<'),
            Some("3e") if run % 2 == 0 => Some('>'),
            Some("26") if run % 2 == 0 => Some('&'),
            _ => None,
        };
        out.push_str(&rest[..i]);
        match ch {
            Some(c) => {
                out.push(c);
                rest = &rest[i + 6..];
            }
            None => {
                out.push_str(&rest[i..i + 4]);
                rest = &rest[i + 4..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// copystructure's `Copy`: a deep copy, every map and list below new (a
/// change to the copy's maps leaves the original's alone). copystructure
/// walks with reflectwalk, which has no cycle check, so a map holding
/// itself is refused where Go's stack would overflow.
fn deep_copy(c: &Call, args: Vec<Tv>) -> Result<Tv, FnError> {
    deep_copy_tv(&args[0], &mut Inside::default()).map_err(|_| FnError::Unsupported(format!("{} of a map that contains itself (copystructure recurses into it until the goroutine stack overflows)", c.name)))
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    fn list(items: Vec<Val>) -> Tv {
        Tv::new(Val::List(items.into_iter().map(Tv::new).collect()))
    }

    #[test]
    fn default_takes_the_given_value_unless_it_is_empty() {
        assert!(matches!(call("default", vec![Tv::str("d"), Tv::str("")]).unwrap().val, Val::Str(ref s) if s == "d"));
        assert!(matches!(call("default", vec![Tv::str("d"), Tv::new(Val::Int(0))]).unwrap().val, Val::Str(ref s) if s == "d"));
        assert!(matches!(call("default", vec![Tv::str("d"), Tv::str("x")]).unwrap().val, Val::Str(ref s) if s == "x"));
        assert!(matches!(call("default", vec![Tv::str("d")]).unwrap().val, Val::Str(ref s) if s == "d"));
    }

    #[test]
    fn json_functions_escape_html_except_the_raw_form_and_indent_the_pretty_one() {
        let m = Tv::new(Val::Map([("b".to_string(), Tv::str("<&>")), ("a".to_string(), list(vec![Val::Int(1), Val::Float(1.5)]))].into_iter().collect()));
        let s = |v: Tv| if let Val::Str(s) = v.val { s } else { panic!("not a string") };
        assert_eq!(s(call("toJson", vec![m.clone()]).unwrap()), r#"{"a":[1,1.5],"b":"\u003c\u0026\u003e"}"#);
        assert_eq!(s(call("toRawJson", vec![m.clone()]).unwrap()), r#"{"a":[1,1.5],"b":"<&>"}"#);
        assert_eq!(s(call("toPrettyJson", vec![m]).unwrap()), "{\n  \"a\": [\n    1,\n    1.5\n  ],\n  \"b\": \"\\u003c\\u0026\\u003e\"\n}");
        assert_eq!(call("mustToJson", vec![Tv::new(Val::Float(f64::NAN))]).unwrap_err(), FnError::Go("json: unsupported value: NaN".into()));
        assert_eq!(s(call("toJson", vec![Tv::new(Val::Float(f64::NAN))]).unwrap()), "");
    }

    #[test]
    fn compact_drops_empty_items_and_refuses_what_is_not_a_slice() {
        let r = call("compact", vec![list(vec![Val::Int(0), Val::Str("a".into()), Val::Nil, Val::Str(String::new())])]).unwrap();
        assert!(matches!(r.val, Val::List(ref l) if l.len() == 1));
        assert_eq!(call("compact", vec![Tv::str("x")]).unwrap_err(), FnError::Go("Cannot compact on type string".into()));
    }
}
