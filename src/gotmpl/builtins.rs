//! text/template's builtin functions (funcs.go `builtins()`, Go 1.19):
//! `and`, `or`, `not`, `len`, `index`, `slice`, `eq`, `ne`, `lt`, `le`,
//! `gt`, `ge`, `print`, `printf`, `println`, `html`, `js`, `urlquery`,
//! `call`, with Go's messages. Every function set is laid over these, so a
//! caller's map may replace any of them (Go's `Funcs`).

use super::func::{Call, Derive, FnError, FuncDef, FuncMap, Param, Sig};
use super::value::{go_sprint, go_sprint_s, go_type, truth};
use super::{Tv, Val};

const ANY: &[Param] = &[Param::Any];
const ANY2: &[Param] = &[Param::Any, Param::Any];

/// The builtins as a function map.
pub fn func_map() -> FuncMap {
    let mut m = FuncMap::new();
    m.add("and", Sig::variadic(ANY, Param::Any), Derive::Passed, and);
    m.add("or", Sig::variadic(ANY, Param::Any), Derive::Passed, or);
    m.add("not", Sig::fixed(ANY), Derive::Made, not);
    m.add("len", Sig::fixed(ANY), Derive::Made, len);
    m.add("index", Sig::variadic(ANY, Param::Any), Derive::Passed, index);
    m.add("slice", Sig::variadic(ANY, Param::Any), Derive::Passed, slice);
    m.add("eq", Sig::variadic(ANY, Param::Any), Derive::Made, eq);
    m.add("ne", Sig::fixed(ANY2), Derive::Made, ne);
    m.add("lt", Sig::fixed(ANY2), Derive::Made, lt);
    m.add("le", Sig::fixed(ANY2), Derive::Made, le);
    m.add("gt", Sig::fixed(ANY2), Derive::Made, gt);
    m.add("ge", Sig::fixed(ANY2), Derive::Made, ge);
    m.add("print", Sig::variadic(&[], Param::Any), Derive::Made, print);
    m.add("printf", Sig::variadic(&[Param::String], Param::Any), Derive::Made, printf);
    m.add("println", Sig::variadic(&[], Param::Any), Derive::Made, println);
    m.add("html", Sig::variadic(&[], Param::Any), Derive::Made, html);
    m.add("js", Sig::variadic(&[], Param::Any), Derive::Made, js);
    m.add("urlquery", Sig::variadic(&[], Param::Any), Derive::Made, urlquery);
    m.add("call", Sig::variadic(ANY, Param::Any), Derive::Made, call);
    m
}

/// Whether `def` is the builtin `and`/`or`, which the executor evaluates
/// lazily (exec.go evalCall's special case applies only to the builtins).
pub(super) fn is_short_circuit(name: &str, def: &FuncDef) -> bool {
    (name == "and" && std::ptr::fn_addr_eq(def.f, and as super::func::GoFn)) || (name == "or" && std::ptr::fn_addr_eq(def.f, or as super::func::GoFn))
}

/// Whether `def` is the builtin `len`.
pub(super) fn is_len(name: &str, def: &FuncDef) -> bool {
    name == "len" && std::ptr::fn_addr_eq(def.f, len as super::func::GoFn)
}

type Res = Result<Tv, FnError>;

fn go_err(m: impl Into<String>) -> FnError {
    FnError::Go(m.into())
}

fn bool_tv(b: bool) -> Tv {
    Tv::new(Val::Bool(b))
}

fn and(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let n = args.len();
    for (i, a) in args.into_iter().enumerate() {
        if !truth(&a.val) || i + 1 == n {
            return Ok(a);
        }
    }
    Ok(Tv::new(Val::Nil))
}

fn or(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let n = args.len();
    for (i, a) in args.into_iter().enumerate() {
        if truth(&a.val) || i + 1 == n {
            return Ok(a);
        }
    }
    Ok(Tv::new(Val::Nil))
}

fn not(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(!args.first().is_some_and(|a| truth(&a.val))))
}

fn follow(v: &Tv) -> &Tv {
    match &v.val {
        Val::Ptr(p) => p,
        _ => v,
    }
}

fn len(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let Some(item) = args.first() else { return Err(go_err("len of nothing")) };
    let n = match &follow(item).val {
        Val::Str(s) => s.len(),
        Val::Bytes(b) => b.len(),
        Val::List(l) | Val::TypedList(_, l) => l.len(),
        Val::Map(m) => m.len(),
        Val::StrMap(m) => m.len(),
        Val::Object(o) if let Some(e) = o.entries() => e.len(),
        Val::Object(o) if let Some(l) = o.list() => l.len(),
        // reflect panics on the zero Value; safeCall words the panic.
        Val::Nil => return Err(go_err("reflect: call of reflect.Value.Type on zero Value")),
        other => return Err(go_err(format!("len of type {}", go_type(other)))),
    };
    Ok(Tv::new(Val::Int(i64::try_from(n).unwrap_or(i64::MAX))))
}

/// funcs.go `indexArg`.
fn index_arg(ix: &Tv, cap: usize) -> Result<usize, FnError> {
    let x = match &ix.val {
        Val::Int(i) | Val::Int64(i) => *i,
        Val::Nil => return Err(go_err("cannot index slice/array with nil")),
        other => return Err(go_err(format!("cannot index slice/array with type {}", go_type(other)))),
    };
    match usize::try_from(x) {
        Ok(u) if u <= cap => Ok(u),
        _ => Err(go_err(format!("index out of range: {x}"))),
    }
}

fn index(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let mut it = args.into_iter();
    let Some(mut item) = it.next() else { return Err(go_err("index of nothing")) };
    if matches!(item.val, Val::Nil) {
        return Err(go_err("index of untyped nil"));
    }
    for ix in it {
        if let Val::Ptr(p) = item.val {
            item = *p;
        }
        // What is read out of a secret container is secret (a string's byte,
        // a map[string]string's value have no taint of their own).
        let container_secret = item.secret;
        item = match &item.val {
            // A nil element of a []interface{} or map[string]interface{}: a nil interface.
            Val::Nil => return Err(go_err("index of nil pointer")),
            Val::List(l) | Val::TypedList(_, l) => {
                let i = index_arg(&ix, l.len())?;
                l.get(i).cloned().ok_or_else(|| go_err("reflect: slice index out of range"))?
            }
            Val::Bytes(b) => {
                let i = index_arg(&ix, b.len())?;
                Tv::new(Val::Int(i64::from(*b.get(i).ok_or_else(|| go_err("reflect: slice index out of range"))?)))
            }
            Val::Str(s) => {
                let i = index_arg(&ix, s.len())?;
                Tv::new(Val::Int(i64::from(*s.as_bytes().get(i).ok_or_else(|| go_err("reflect: string index out of range"))?)))
            }
            Val::Map(m) => m.get(&map_key(&ix)?).unwrap_or_else(|| Tv::new(Val::Nil)),
            Val::StrMap(m) => Tv::str(m.get(&map_key(&ix)?).map_or("", String::as_str)),
            other => return Err(go_err(format!("can't index item of type {}", go_type(other)))),
        };
        item.secret |= container_secret;
    }
    Ok(item)
}

/// funcs.go `prepareArg` for a string-keyed map.
fn map_key(ix: &Tv) -> Result<String, FnError> {
    match &ix.val {
        Val::Str(s) => Ok(s.clone()),
        Val::Nil => Err(go_err("value is nil; should be of type string")),
        other => Err(go_err(format!("value has type {}; should be string", go_type(other)))),
    }
}

fn slice(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let mut it = args.into_iter();
    let Some(item) = it.next() else { return Err(go_err("slice of nothing")) };
    let indexes: Vec<Tv> = it.collect();
    if matches!(item.val, Val::Nil) {
        return Err(go_err("slice of untyped nil"));
    }
    if indexes.len() > 3 {
        return Err(go_err(format!("too many slice indexes: {}", indexes.len())));
    }
    let len = match &item.val {
        Val::Str(s) => {
            if indexes.len() == 3 {
                return Err(go_err("cannot 3-index slice a string"));
            }
            s.len()
        }
        Val::List(l) | Val::TypedList(_, l) => l.len(),
        Val::Bytes(b) => b.len(),
        other => return Err(go_err(format!("can't slice item of type {}", go_type(other)))),
    };
    let mut idx = [0, len, len];
    for (i, ix) in indexes.iter().enumerate() {
        idx[i] = index_arg(ix, len)?;
    }
    if idx[0] > idx[1] {
        return Err(go_err(format!("invalid slice index: {} > {}", idx[0], idx[1])));
    }
    if indexes.len() == 3 && idx[1] > idx[2] {
        return Err(go_err(format!("invalid slice index: {} > {}", idx[1], idx[2])));
    }
    let (a, b) = (idx[0], idx[1]);
    let val = match item.val {
        Val::Str(s) => match s.get(a..b) {
            Some(sub) => Val::Str(sub.to_string()),
            None => return Err(FnError::Unsupported("slicing a string inside a UTF-8 character".into())),
        },
        Val::List(l) => Val::List(l[a..b].to_vec()),
        Val::TypedList(e, l) => Val::TypedList(e, l[a..b].to_vec()),
        Val::Bytes(v) => Val::Bytes(v[a..b].to_vec()),
        other => other,
    };
    Ok(Tv { val, ..item })
}

#[derive(PartialEq, Clone, Copy)]
enum Kind {
    Invalid,
    Bool,
    Int,
    Float,
    Str,
}

/// funcs.go `basicKind`.
fn basic_kind(v: &Val) -> Kind {
    match v {
        Val::Bool(_) => Kind::Bool,
        Val::Int(_) | Val::Int64(_) => Kind::Int,
        Val::Float(_) => Kind::Float,
        Val::Str(_) => Kind::Str,
        _ => Kind::Invalid,
    }
}

fn eq_pair(a: &Val, b: &Val) -> Result<bool, FnError> {
    let (k1, k2) = (basic_kind(a), basic_kind(b));
    if k1 != k2 {
        if !matches!(a, Val::Nil) && !matches!(b, Val::Nil) {
            return Err(go_err("incompatible types for comparison"));
        }
        return Ok(false);
    }
    Ok(match (a, b) {
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x) | Val::Int64(x), Val::Int(y) | Val::Int64(y)) => x == y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Nil, _) | (_, Val::Nil) => matches!(a, Val::Nil) && matches!(b, Val::Nil),
        // Slices and maps: the same reflect kind is "not comparable", different kinds "non-comparable types".
        _ if go_kind(a).is_some() && go_kind(a) == go_kind(b) => return Err(non_comparable(b)),
        _ if go_kind(a).is_some() && go_kind(b).is_some() => {
            let (sa, sb) = (go_sprint_s(&Tv::new(a.clone())).map_err(unsupported)?, go_sprint(&Tv::new(b.clone())).map_err(unsupported)?);
            return Err(go_err(format!("non-comparable types {sa}: {}, {}: {sb}", go_type(a), go_type(b))));
        }
        _ => return Err(FnError::Unsupported(format!("eq of {} and {}", go_type(a), go_type(b)))),
    })
}

/// The reflect kind of a slice or map value.
fn go_kind(v: &Val) -> Option<&'static str> {
    match v {
        Val::List(_) | Val::TypedList(..) | Val::Bytes(_) => Some("slice"),
        Val::Map(_) | Val::StrMap(_) => Some("map"),
        _ => None,
    }
}

fn non_comparable(v: &Val) -> FnError {
    match go_sprint_s(&Tv::new(v.clone())) {
        Ok(s) => go_err(format!("non-comparable type {s}: {}", go_type(v))),
        Err(w) => FnError::Unsupported(w),
    }
}

pub(crate) fn eq(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let Some((first, rest)) = args.split_first() else { return Err(go_err("missing argument for comparison")) };
    if rest.is_empty() {
        return Err(go_err("missing argument for comparison"));
    }
    for r in rest {
        if eq_pair(&first.val, &r.val)? {
            return Ok(bool_tv(true));
        }
    }
    Ok(bool_tv(false))
}

pub(crate) fn ne(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(!eq_pair(&args[0].val, &args[1].val)?))
}

fn lt_pair(a: &Val, b: &Val) -> Result<bool, FnError> {
    let (k1, k2) = (basic_kind(a), basic_kind(b));
    if k1 == Kind::Invalid || k2 == Kind::Invalid {
        return Err(go_err("invalid type for comparison"));
    }
    if k1 != k2 {
        return Err(go_err("incompatible types for comparison"));
    }
    Ok(match (a, b) {
        (Val::Int(x) | Val::Int64(x), Val::Int(y) | Val::Int64(y)) => x < y,
        (Val::Float(x), Val::Float(y)) => x < y,
        (Val::Str(x), Val::Str(y)) => x < y,
        _ => return Err(go_err("invalid type for comparison")),
    })
}

pub(crate) fn lt(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(lt_pair(&args[0].val, &args[1].val)?))
}

fn le_pair(a: &Val, b: &Val) -> Result<bool, FnError> {
    if lt_pair(a, b)? {
        return Ok(true);
    }
    eq_pair(a, b)
}

pub(crate) fn le(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(le_pair(&args[0].val, &args[1].val)?))
}

pub(crate) fn gt(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(!le_pair(&args[0].val, &args[1].val)?))
}

pub(crate) fn ge(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(bool_tv(!lt_pair(&args[0].val, &args[1].val)?))
}

fn unsupported(w: String) -> FnError {
    FnError::Unsupported(w)
}

/// `fmt.Sprint`: a space between operands when neither is a string.
pub(super) fn sprint(args: &[Tv]) -> Result<String, FnError> {
    let mut out = String::new();
    let mut prev_string = false;
    for (i, a) in args.iter().enumerate() {
        let is_string = matches!(a.val, Val::Str(_));
        if i > 0 && !is_string && !prev_string {
            out.push(' ');
        }
        out.push_str(&go_sprint(a).map_err(unsupported)?);
        prev_string = is_string;
    }
    Ok(out)
}

/// text/template's `print`, `println` and `printf` are fmt's Sprint,
/// Sprintln and Sprintf (funcs.go builtins).
fn print(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(Tv::new(Val::Str(crate::go::printf::sprint(&frozen(&args)?).map_err(|e| unsupported(e.0))?)))
}

fn println(_: &Call<'_>, args: Vec<Tv>) -> Res {
    Ok(Tv::new(Val::Str(crate::go::printf::sprintln(&frozen(&args)?).map_err(|e| unsupported(e.0))?)))
}

fn printf(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let Some((format, rest)) = args.split_first() else { return Err(go_err("printf without a format")) };
    let Val::Str(format) = &format.val else { return Err(go_err("printf format is not a string")) };
    Ok(Tv::new(Val::Str(crate::go::printf::sprintf(format, &frozen(rest)?).map_err(|e| unsupported(e.0))?)))
}

/// The operands as fmt's printers walk them; a map holding itself is
/// refused, since Go's fmt would recurse into it without end (even `%T`
/// of one is refused: releasex freezes every operand before formatting).
fn frozen(args: &[Tv]) -> Result<Vec<super::frozen::Frozen>, FnError> {
    args.iter().map(|a| super::frozen::Frozen::of(a).map_err(|_| unsupported(super::frozen::CYCLE_PRINT.into()))).collect()
}

/// funcs.go `evalArgs`: one string as it is, anything else as `fmt.Sprint`
/// of the printable values (nil is `<no value>`).
fn eval_args(args: &[Tv]) -> Result<String, FnError> {
    if let [Tv { val: Val::Str(s), .. }] = args {
        return Ok(s.clone());
    }
    let printable: Vec<Tv> = args
        .iter()
        .map(|a| match &a.val {
            Val::Nil => Tv::str("<no value>"),
            Val::Ptr(p) => (**p).clone(),
            _ => a.clone(),
        })
        .collect();
    sprint(&printable)
}

fn html(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let s = eval_args(&args)?;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\0' => out.push('\u{FFFD}'),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    Ok(Tv::new(Val::Str(out)))
}

fn js(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let s = eval_args(&args)?;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003C"),
            '>' => out.push_str("\\u003E"),
            '&' => out.push_str("\\u0026"),
            '=' => out.push_str("\\u003D"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u00{:02X}", c as u32)),
            c if c.is_ascii() || crate::go::quote::is_print(c) => out.push(c),
            c => out.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    Ok(Tv::new(Val::Str(out)))
}

fn urlquery(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let s = eval_args(&args)?;
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(b)),
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    Ok(Tv::new(Val::Str(out)))
}

/// Templates here hold no function values, so `call` fails as Go's does on a non-function.
fn call(_: &Call<'_>, args: Vec<Tv>) -> Res {
    match args.first().map(|a| &a.val) {
        None | Some(Val::Nil) => Err(go_err("call of nil")),
        Some(other) => Err(go_err(format!("non-function of type {}", go_type(other)))),
    }
}
