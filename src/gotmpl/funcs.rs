//! The subset of sprig's and helmfile's functions that `render` (the
//! helmfile entry point) has offered so far, as a [`FuncMap`] laid over
//! text/template's builtins: `quote`, `squote`, `default`, `required`,
//! `upper`, `lower`, `trim`, `indent`, `nindent`, `toYaml`, `toJson`, `get`,
//! `getOrNil`, `env`, `requiredEnv`. The sprig and helmfile function sets
//! (`sprig::func_map`, `gotmpl::helmfile`) replace these at merge.

use super::encode::{to_json, to_yaml};
use super::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use super::value::{empty, go_sprint, go_type};
use super::{Tv, UNMODELLED, Val};
use crate::go::quote::quote as go_quote;

type Res = Result<Tv, FnError>;

/// The subset; `with_env`: whether `env`/`requiredEnv` read the host (else they are unsupported).
pub(super) fn subset(with_env: bool) -> FuncMap {
    let mut m = FuncMap::new();
    m.add("quote", Sig::variadic(&[], Param::Any), Derive::Made, quote);
    m.add("squote", Sig::variadic(&[], Param::Any), Derive::Made, quote);
    m.add("default", Sig::variadic(&[Param::Any], Param::Any), Derive::Passed, default);
    m.add("required", Sig::fixed(&[Param::String, Param::Any]), Derive::Passed, required);
    for name in ["upper", "lower", "trim"] {
        m.add(name, Sig::fixed(&[Param::String]), Derive::Made, case_or_trim);
    }
    m.add("indent", Sig::fixed(&[Param::Int, Param::String]), Derive::Made, indent);
    m.add("nindent", Sig::fixed(&[Param::Int, Param::String]), Derive::Made, indent);
    m.add("toYaml", Sig::fixed(&[Param::Any]), Derive::Made, encode);
    m.add("toJson", Sig::fixed(&[Param::Any]), Derive::Made, encode);
    m.add("get", Sig::variadic(&[Param::String], Param::Any), Derive::Passed, get);
    m.add("getOrNil", Sig::fixed(&[Param::String, Param::Any]), Derive::Passed, get);
    if with_env {
        m.add("env", Sig::fixed(&[Param::String]), Derive::Made, env);
        m.add("requiredEnv", Sig::fixed(&[Param::String]), Derive::Made, env);
    } else {
        m.add("env", Sig::fixed(&[Param::String]), Derive::Made, no_env);
        m.add("requiredEnv", Sig::fixed(&[Param::String]), Derive::Made, no_env);
    }
    m
}

fn string_of(v: &Tv) -> String {
    match &v.val {
        Val::Str(s) => s.clone(),
        _ => String::new(),
    }
}

/// sprig's `quote` / `squote`: nil arguments are skipped.
fn quote(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let mut parts = Vec::new();
    for a in &args {
        if matches!(a.val, Val::Nil) {
            continue;
        }
        let s = strval(a).map_err(FnError::Unsupported)?;
        parts.push(if c.name == "quote" { go_quote(&s) } else { format!("'{s}'") });
    }
    // One argument quoted whole keeps its origin.
    let origin = match args.as_slice() {
        [only] => only.origin.clone(),
        _ => None,
    };
    Ok(Tv { origin, ..Tv::new(Val::Str(parts.join(" "))) })
}

fn default(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let mut it = args.into_iter();
    let d = it.next().unwrap_or_else(|| Tv::new(Val::Nil));
    match it.next() {
        Some(g) if !empty(&g.val) => Ok(g),
        _ => Ok(d),
    }
}

fn required(_: &Call<'_>, args: Vec<Tv>) -> Res {
    let warn = string_of(&args[0]);
    let val = args[1].clone();
    match &val.val {
        Val::Nil => Err(FnError::Go(warn)),
        Val::Str(s) if s.is_empty() => Err(FnError::Go(warn)),
        _ => Ok(val),
    }
}

fn case_or_trim(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let text = string_of(&args[0]);
    let out = match c.name {
        "upper" => go_case(&text, true),
        "lower" => go_case(&text, false),
        _ => text.trim().to_string(),
    };
    Ok(Tv { origin: args[0].origin.clone(), ..Tv::new(Val::Str(out)) })
}

fn indent(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let Val::Int(n) = args[0].val else { return Err(FnError::Unsupported(format!("{} with a width that is not an integer", c.name))) };
    let text = string_of(&args[1]);
    let width = usize::try_from(n).unwrap_or(0);
    // Sized before it is built: a wide indent of many lines is large at once.
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let bytes = width.saturating_mul(lines).saturating_add(text.len() + 1);
    if bytes > super::MAX_TEMPLATE_STRING {
        return Err(FnError::TooLarge(bytes));
    }
    let pad = " ".repeat(width);
    let body = format!("{pad}{}", text.replace('\n', &format!("\n{pad}")));
    let out = if c.name == "nindent" { format!("\n{body}") } else { body };
    Ok(Tv { origin: args[1].origin.clone(), ..Tv::new(Val::Str(out)) })
}

/// `toYaml` / `toJson`.
fn encode(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let v = &args[0];
    let out = if c.name == "toYaml" { to_yaml(v) } else { to_json(v) };
    let out = out.map_err(|w| FnError::Unsupported(format!("{} of {w}", c.name)))?;
    Ok(Tv { origin: v.origin.clone(), ..Tv::new(Val::Str(out)) })
}

/// helmfile's `get` / `getOrNil`.
fn get(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let n = args.len();
    if c.name == "get" && !(2..=3).contains(&n) {
        return Err(FnError::Exec(format!("wrong number of args for get: want 3 got {n}")));
    }
    let mut it = args.into_iter();
    let (Some(path), Some(a), b) = (it.next(), it.next(), it.next()) else { return Err(FnError::Exec(format!("wrong number of args for get: want 2 got {n}"))) };
    let path = string_of(&path);
    let (def, obj) = match b {
        Some(obj) => (Some(a), obj),
        None => (None, a),
    };
    match helmfile_get(&path, def.as_ref(), &obj) {
        Ok(v) => Ok(v),
        Err(GetError::NoValue(_)) if c.name == "getOrNil" => Ok(Tv::new(Val::Nil)),
        Err(GetError::NoValue(m)) => Err(FnError::Go(m)),
        Err(GetError::Unsupported(w)) => Err(FnError::Unsupported(w)),
    }
}

/// helmfile's `env` / `requiredEnv`, on the host's environment.
fn env(c: &Call<'_>, args: Vec<Tv>) -> Res {
    let n = string_of(&args[0]);
    match c.host.env(&n) {
        Some(v) if !v.is_empty() || c.name == "env" => Ok(Tv::str(&v)),
        _ if c.name == "env" => Ok(Tv::str("")),
        _ => Err(FnError::Go(format!("required env var `{n}` is not set"))),
    }
}

fn no_env(c: &Call<'_>, _: Vec<Tv>) -> Res {
    Err(FnError::Unsupported(format!("the function `{}` (no environment was given)", c.name)))
}

enum GetError {
    NoValue(String),
    Unsupported(String),
}

/// helmfile's `get(path, [default,] obj)` (pkg/tmpl/get_or_nil.go): keys split
/// on `.`; a missing map key or struct field gives the default when one was
/// passed; any other receiver (nil, a string, a list) is a "no value" error,
/// default or not.
fn helmfile_get(path: &str, def: Option<&Tv>, obj: &Tv) -> Result<Tv, GetError> {
    if path.is_empty() {
        return Ok(obj.clone());
    }
    let (key, rest) = path.split_once('.').unwrap_or((path, ""));
    let obj = match &obj.val {
        Val::Ptr(p) => p.as_ref(),
        _ => obj,
    };
    let missing = |what: String| match def {
        Some(d) => Ok(d.clone()),
        None => Err(GetError::NoValue(what)),
    };
    let v = match &obj.val {
        Val::Map(m) => match m.get(key) {
            Some(v) => v.clone(),
            None => return missing(format!("no value exist for key \"{key}\"")),
        },
        Val::StrMap(m) => {
            // map[string]string returns the value without looking further.
            return match m.get(key) {
                Some(v) => Ok(Tv::str(v)),
                None => missing(format!("no value exist for key \"{key}\"")),
            };
        }
        Val::Struct(_, fields) => match fields.iter().find(|(n, _)| *n == key) {
            Some((_, v)) if matches!(&v.val, Val::Str(s) if s == UNMODELLED) => return Err(GetError::Unsupported(format!("the field `{key}` (not modelled by releasex)"))),
            Some((_, v)) => v.clone(),
            None => return missing(format!("no field named \"{key}\"")),
        },
        other => return Err(GetError::NoValue(format!("unexpected type({}) of value for key \"{key}\"", go_type(other)))),
    };
    helmfile_get(rest, def, &v)
}

/// sprig's `strval`: strings as they are, anything else as `%v`.
fn strval(v: &Tv) -> Result<String, String> {
    match &v.val {
        Val::Str(s) => Ok(s.clone()),
        _ => go_sprint(v),
    }
}

/// `strings.ToUpper` / `ToLower`: Go maps rune by rune (simple case mapping).
fn go_case(s: &str, upper: bool) -> String {
    s.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            if m.len() == 1 { m.pop().unwrap_or(c) } else { c }
        })
        .collect()
}
