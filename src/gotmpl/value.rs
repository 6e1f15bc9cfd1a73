//! The values a template sees ([`Tv`]: a Go value and the origin of state
//! values), how Go's `fmt` and `encoding/json` print them (their
//! [`GoValue`] shape), and the Go semantics the executor needs: `isTrue`,
//! sprig's `empty`, `eq` on basic values and the type names in messages.

use std::collections::{BTreeMap, HashSet};

use super::gomap::{GoMap, Inside};
use crate::go::value::write_joined;
use crate::values::tree::{Kind, Origin, V, VMap};

/// A Go value as a template sees it, with the origin of state values.
/// `secret`: the value is a secret's or derived from one (a function's
/// result from a secret argument); the taint reaches what the template
/// prints, so the rendered values stay masked.
#[derive(Debug, Clone)]
pub struct Tv {
    pub val: Val,
    pub origin: Option<Origin>,
    pub secret: bool,
    /// The value differs from run to run (made by `uuidv4`, `now`, `randAlpha`
    /// or derived from such a result): what prints it is marked so.
    pub nondeterministic: bool,
    /// The output of an `include` this string is, or was made from by a
    /// function that only moves whitespace (`nindent`, `indent`, `trim`):
    /// the included template's text and spans, so what prints the string
    /// keeps the partial's spans (blame then points into the partial).
    /// Kept only when a set runs with `SetOptions::inner_spans`.
    pub included: Option<std::rc::Rc<super::Rendered>>,
}

#[derive(Debug, Clone)]
pub enum Val {
    /// An untyped nil (a missing value or a YAML null).
    Nil,
    Bool(bool),
    /// Go `int` (YAML integers as go-yaml decodes them, `len`, `atoi`, `int`).
    Int(i64),
    /// Go `int64` (sprig's math results, `int64`).
    Int64(i64),
    Float(f64),
    Str(String),
    /// `[]byte`.
    Bytes(Vec<u8>),
    /// `[]interface{}`.
    List(Vec<Tv>),
    /// A slice of another element type (`[]string` from `splitList`, `[]int`
    /// from `until`): the Go element type's name and the items. It prints
    /// and ranges as a list; only `typeOf`, `kindOf` and conversions differ.
    TypedList(&'static str, Vec<Tv>),
    /// A Go value with a type and methods of its own (`time.Time`,
    /// `time.Duration`, `*semver.Version`, ...).
    Object(std::rc::Rc<dyn GoObject>),
    /// `map[string]any` (Go ranges and prints keys sorted): a reference,
    /// shared by every value that holds the same Go map ([`GoMap`]).
    Map(GoMap),
    /// `map[string]string` (`.Release.Labels`).
    StrMap(BTreeMap<String, String>),
    /// A struct (`.`, `.Environment`, `.Release`): its type name and fields.
    Struct(&'static str, Vec<(&'static str, Tv)>),
    /// `*map[string]any` (`.StateValues`).
    Ptr(Box<Tv>),
}

/// A Go value of a named type the function sets make (`time.Time`,
/// `*semver.Version`): how Go prints it and what a template can call on it.
pub trait GoObject: std::fmt::Debug {
    /// `%T` (`time.Time`, `*semver.Version`).
    fn type_name(&self) -> &'static str;
    /// `reflect.Kind` (`struct`, `ptr`, `int64`).
    fn kind(&self) -> &'static str;
    /// `%v` (its `String()` method where it has one).
    fn go_string(&self) -> String;
    /// A field or method `.Name args...`; `None`: the type has no such member.
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>>;
    /// For functions that take this type back (`semverCompare`, `date`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// `encoding/json`'s encoding (its `MarshalJSON` or struct encoding);
    /// `None`: releasex does not model it, and `toJson` refuses it.
    fn json(&self) -> Option<String> {
        None
    }
    /// Go's `isTrue`: a struct is always true; an integer kind (a
    /// `time.Duration`) is true unless zero: such a type overrides this.
    fn truth(&self) -> bool {
        true
    }
    /// A map type's entries in Go's range order (sorted keys): `range` and `len` read them.
    fn entries(&self) -> Option<Vec<(String, Tv)>> {
        None
    }
    /// A slice type's elements: `range` and `len` read them.
    fn list(&self) -> Option<Vec<Tv>> {
        None
    }
}

impl Tv {
    pub fn new(val: Val) -> Tv {
        Tv { val, origin: None, secret: false, nondeterministic: false, included: None }
    }

    pub fn str(s: &str) -> Tv {
        Tv::new(Val::Str(s.into()))
    }

    /// A values tree as the template sees it (every node keeps its origin).
    pub fn from_v(v: &V) -> Tv {
        let val = match &v.kind {
            Kind::Null => Val::Nil,
            Kind::Bool(b) => Val::Bool(*b),
            Kind::Int(i) => Val::Int(*i),
            Kind::Float(f) => Val::Float(*f),
            Kind::Str(s) => Val::Str(s.clone()),
            Kind::List(l) => Val::List(l.iter().map(Tv::from_v).collect()),
            Kind::Map(m) => return Tv::from_map(m).with_origin(Some(v.origin.clone())),
        };
        Tv { val, origin: Some(v.origin.clone()), secret: v.origin.is_secret(), nondeterministic: false, included: None }
    }

    /// Whether this value or anything in it is secret.
    pub fn holds_secret(&self) -> bool {
        self.any_deep(&|v| v.secret)
    }

    /// Whether this value or anything in it differs from run to run.
    pub fn holds_nondeterministic(&self) -> bool {
        self.any_deep(&|v| v.nondeterministic)
    }

    /// Whether `mark` holds for this value or anything in it. Each map is
    /// looked into once: the answer for a map reached again (shared, or
    /// inside itself) is the one already being given.
    fn any_deep(&self, mark: &dyn Fn(&Tv) -> bool) -> bool {
        fn walk(v: &Tv, mark: &dyn Fn(&Tv) -> bool, seen: &mut HashSet<usize>) -> bool {
            mark(v)
                || match &v.val {
                    Val::List(l) | Val::TypedList(_, l) => l.iter().any(|x| walk(x, mark, seen)),
                    Val::Map(m) => seen.insert(m.id()) && m.values().iter().any(|x| walk(x, mark, seen)),
                    Val::Struct(_, fields) => fields.iter().any(|(_, f)| walk(f, mark, seen)),
                    Val::Ptr(p) => walk(p, mark, seen),
                    _ => false,
                }
        }
        walk(self, mark, &mut HashSet::new())
    }

    /// Marks this value and everything inside it secret and/or nondeterministic.
    ///
    /// A map is marked in place, so every holder of the same Go map sees its
    /// values marked: a mark says "may show a secret", and a map a secret went
    /// into through one variable holds it for all of them. Each map is marked
    /// once (a map inside itself ends the walk).
    pub fn mark_deep(&mut self, secret: bool, nondeterministic: bool) {
        fn walk(tv: &mut Tv, secret: bool, nondeterministic: bool, seen: &mut HashSet<usize>) {
            tv.secret |= secret;
            tv.nondeterministic |= nondeterministic;
            match &mut tv.val {
                Val::List(items) | Val::TypedList(_, items) => items.iter_mut().for_each(|i| walk(i, secret, nondeterministic, seen)),
                Val::Map(m) if seen.insert(m.id()) => m.update_values(|v| walk(v, secret, nondeterministic, seen)),
                Val::Ptr(p) => walk(p, secret, nondeterministic, seen),
                Val::Struct(_, fields) => fields.iter_mut().for_each(|(_, f)| walk(f, secret, nondeterministic, seen)),
                _ => {}
            }
        }
        walk(self, secret, nondeterministic, &mut HashSet::new());
    }

    pub fn from_map(m: &VMap) -> Tv {
        Tv::new(Val::Map(m.iter().map(|(k, v)| (k.clone(), Tv::from_v(v))).collect()))
    }

    fn with_origin(mut self, o: Option<Origin>) -> Tv {
        self.origin = o;
        self
    }
}

/// `fmt.Sprint` of one value (`%v`): maps with sorted keys, lists in
/// brackets, nil inside a container as `<nil>`, structs as `{f1 f2}`, a
/// pointer to a map as `&map[...]` (fmt print.go `printValue`), objects by
/// their `String` method. A pointer below the top would print an address:
/// refused.
/// A map that holds itself is refused: Go's fmt recurses into it until
/// the goroutine stack overflows.
pub fn go_sprint(v: &Tv) -> Result<String, String> {
    let mut out = String::new();
    write_verb(&mut out, v, 0, false, &mut Inside::default())?;
    Ok(out)
}

/// `fmt.Sprintf("%s", v)`: as `%v`, but a number or bool is a bad verb
/// (`%!s(int=1)`) at any depth.
pub(super) fn go_sprint_s(v: &Tv) -> Result<String, String> {
    let mut out = String::new();
    write_verb(&mut out, v, 0, true, &mut Inside::default())?;
    Ok(out)
}

fn write_verb(out: &mut String, v: &Tv, depth: usize, s_verb: bool, inside: &mut Inside) -> Result<(), String> {
    let write_v = |out: &mut String, v: &Tv, depth: usize, inside: &mut Inside| write_verb(out, v, depth, s_verb, inside);
    if s_verb {
        let bad = match &v.val {
            Val::Bool(b) => Some(format!("bool={b}")),
            Val::Int(i) => Some(format!("int={i}")),
            Val::Int64(i) => Some(format!("int64={i}")),
            Val::Float(f) => Some(format!("float64={}", crate::go::fmt::go_float(*f))),
            _ => None,
        };
        if let Some(b) = bad {
            out.push_str(&format!("%!s({b})"));
            return Ok(());
        }
    }
    match &v.val {
        Val::Nil => out.push_str("<nil>"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Int(i) | Val::Int64(i) => out.push_str(&i.to_string()),
        Val::Float(f) => out.push_str(&crate::go::fmt::go_float(*f)),
        Val::Str(s) => out.push_str(s),
        Val::Bytes(b) => write_joined::<_, String>(out, ("[", ' ', ']'), b.iter(), |out, x| {
            out.push_str(&x.to_string());
            Ok(())
        })?,
        Val::List(l) | Val::TypedList(_, l) => write_joined(out, ("[", ' ', ']'), l, |out, x| write_v(out, x, depth + 1, inside))?,
        Val::Map(m) => {
            inside.enter(m).map_err(|_| super::frozen::CYCLE_PRINT.to_string())?;
            write_joined(out, ("map[", ' ', ']'), m.entries(), |out, (k, x)| {
                out.push_str(&k);
                out.push(':');
                write_v(out, &x, depth + 1, inside)
            })?;
            inside.leave(m);
        }
        Val::StrMap(m) => write_joined::<_, String>(out, ("map[", ' ', ']'), m, |out, (k, x)| {
            out.push_str(k);
            out.push(':');
            out.push_str(x);
            Ok(())
        })?,
        Val::Struct(_, fields) => write_joined(out, ("{", ' ', '}'), fields, |out, (_, x)| {
            if matches!(&x.val, Val::Str(s) if s == super::UNMODELLED) {
                return Err("printing a struct with fields releasex does not model".into());
            }
            write_v(out, x, depth + 1, inside)
        })?,
        Val::Ptr(p) if depth == 0 => {
            out.push('&');
            write_v(out, p, depth + 1, inside)?;
        }
        Val::Ptr(_) => return Err("printing a pointer inside a value (Go prints its memory address)".into()),
        Val::Object(o) => out.push_str(&o.go_string()),
    }
    Ok(())
}

/// Go's `isTrue`.
pub(super) fn truth(v: &Val) -> bool {
    match v {
        Val::Nil => false,
        Val::Bool(b) => *b,
        Val::Int(i) | Val::Int64(i) => *i != 0,
        Val::Float(f) => *f != 0.0,
        Val::Str(s) => !s.is_empty(),
        Val::Bytes(b) => !b.is_empty(),
        Val::List(l) | Val::TypedList(_, l) => !l.is_empty(),
        Val::Object(o) => o.truth(),
        Val::Map(m) => !m.is_empty(),
        Val::StrMap(m) => !m.is_empty(),
        Val::Struct(..) | Val::Ptr(_) => true,
    }
}

pub fn go_type(v: &Val) -> &'static str {
    match v {
        Val::Nil => "nil",
        Val::Bool(_) => "bool",
        Val::Int(_) => "int",
        Val::Int64(_) => "int64",
        Val::Float(_) => "float64",
        Val::Str(_) => "string",
        Val::Bytes(_) => "[]uint8",
        Val::List(_) => "[]interface {}",
        Val::TypedList(elem, _) => match *elem {
            "string" => "[]string",
            "int" => "[]int",
            // fromToml's arrays of tables (BurntSushi/toml parse.go `addContext`).
            "map[string]interface {}" => "[]map[string]interface {}",
            _ => "[]interface {}",
        },
        Val::Object(o) => o.type_name(),
        Val::Map(_) => "map[string]interface {}",
        Val::StrMap(_) => "map[string]string",
        Val::Struct(t, _) => t,
        Val::Ptr(_) => "*map[string]interface {}",
    }
}

#[cfg(test)]
mod taint_tests {
    use std::rc::Rc;

    use super::*;
    use crate::values::tree::Source;

    fn state(secret: bool) -> Tv {
        let origin: Origin = Rc::new(Source::Helmfile { layer: "secrets".into(), file: None, line: None, column: None, expr: None, secret, via: None });
        let mut m = VMap::default();
        m.insert("pw".into(), V::new(Kind::Str("hunter2".into()), origin));
        Tv::new(Val::Struct("Env", vec![("Values", Tv::from_map(&m))]))
    }

    #[test]
    fn what_a_template_prints_from_a_secret_is_marked_secret() {
        for src in ["url: {{ .Values.pw }}", "url: a{{ .Values.pw | upper }}b", "j: {{ .Values | toJson }}", "q: {{ quote .Values.pw }}"] {
            let r = crate::gotmpl::helmfile::render("t", src, &state(true), &crate::gotmpl::func::FixedHost::default()).unwrap();
            assert!(r.spans.iter().any(|s| s.secret), "{src}");
            let r = crate::gotmpl::helmfile::render("t", src, &state(false), &crate::gotmpl::func::FixedHost::default()).unwrap();
            assert!(!r.spans.iter().any(|s| s.secret), "{src}");
        }
    }
}

/// Values no JSON table can hold (the Go types sprig's functions make),
/// printed as Go's fmt prints them (print.go printValue: `%v` of []byte is
/// its numbers, a struct its fields in braces, a pointer to a map `&map[...]`
/// at the top and an address below, which is refused) and encoded as
/// encoding/json does ([]byte as base64).
#[cfg(test)]
mod go_typed_printing {
    use super::*;

    fn s(v: Val) -> Result<String, String> {
        go_sprint(&Tv::new(v))
    }

    #[test]
    fn go_typed_values_print_as_fmt_prints_them() {
        assert_eq!(s(Val::Int64(-5)).as_deref(), Ok("-5"));
        assert_eq!(s(Val::Bytes(b"hi".to_vec())).as_deref(), Ok("[104 105]"));
        assert_eq!(s(Val::TypedList("string", vec![Tv::str("a"), Tv::str("b c")])).as_deref(), Ok("[a b c]"));
        assert_eq!(s(Val::TypedList("int", vec![Tv::new(Val::Int(1)), Tv::new(Val::Int(2))])).as_deref(), Ok("[1 2]"));
        assert_eq!(s(Val::Struct("T", vec![("A", Tv::str("x")), ("B", Tv::new(Val::Int(1)))])).as_deref(), Ok("{x 1}"));
        let m: GoMap = [("a".to_string(), Tv::new(Val::Int(1)))].into_iter().collect();
        assert_eq!(s(Val::Ptr(Box::new(Tv::new(Val::Map(m.clone()))))).as_deref(), Ok("&map[a:1]"));
        assert!(s(Val::List(vec![Tv::new(Val::Ptr(Box::new(Tv::new(Val::Map(m)))))])).is_err());
        assert_eq!(go_sprint_s(&Tv::new(Val::List(vec![Tv::str("a"), Tv::new(Val::Int(1)), Tv::new(Val::Nil)]))).as_deref(), Ok("[a %!s(int=1) <nil>]"));
    }
}
