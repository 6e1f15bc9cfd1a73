//! The template functions of the subset (sprig's and helmfile's, as
//! helmfile registers them): [`Exec::call`] dispatches on the name, one
//! method per family, with Go's argument-count and argument-type errors.

use super::encode::{to_json, to_yaml};
use super::exec::Exec;
use super::value::{basic_eq, empty, go_sprint, go_type, truth};
use super::{TmplError, Tv, UNMODELLED, Val};
use crate::go::quote::quote as go_quote;

/// One call: the function's name, where it is called, how many arguments it got.
struct Call<'e, 'a> {
    ex: &'e Exec<'a>,
    name: &'e str,
    at: usize,
    got: usize,
}

impl Exec<'_> {
    /// Calls the function `name` (already checked to be one of the subset's).
    pub(super) fn call(&self, name: &str, args: Vec<Tv>, at: usize) -> Result<Tv, TmplError> {
        let c = Call { ex: self, name, at, got: args.len() };
        // A function that makes a new value from its arguments (quoting,
        // case, indenting, encoding) passes on their secrecy; the others
        // return an argument, or part of one, with its own.
        let derived_secret = matches!(name, "quote" | "squote" | "upper" | "lower" | "trim" | "indent" | "nindent" | "toYaml" | "toJson")
            && args.iter().any(Tv::holds_secret);
        let mut result = self.dispatch(&c, name, args)?;
        if let Val::Str(s) = &result.val {
            self.check_size(at, s.len(), || format!("the result of `{name}`"))?;
        }
        result.secret |= derived_secret;
        Ok(result)
    }

    fn dispatch(&self, c: &Call, name: &str, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let at = c.at;
        match name {
            "quote" | "squote" => c.quote(&args),
            "default" => c.default(args),
            "required" => c.required(args),
            "upper" | "lower" | "trim" => c.case_or_trim(args),
            "indent" | "nindent" => c.indent(args),
            "toYaml" | "toJson" => c.encode(args),
            "get" | "getOrNil" => c.get(args),
            "index" => c.index(args),
            "env" | "requiredEnv" => c.env(args),
            "not" | "and" | "or" => c.logic(args),
            "eq" | "ne" => c.eq(args),
            other => Err(self.unsupported(at, format!("the function `{other}`"))),
        }
    }
}

impl Call<'_, '_> {
    fn err(&self, message: impl Into<String>) -> TmplError {
        self.ex.err(self.at, message)
    }

    fn unsupported(&self, construct: impl Into<String>) -> TmplError {
        self.ex.unsupported(self.at, construct)
    }

    fn wrong(&self, n: usize) -> TmplError {
        self.err(format!("wrong number of args for {}: want {n} got {}", self.name, self.got))
    }

    /// The argument as a Go `string` parameter takes it.
    fn string_arg(&self, v: &Tv) -> Result<String, TmplError> {
        match &v.val {
            Val::Str(s) => Ok(s.clone()),
            Val::Nil => Err(self.err(format!("error calling {}: invalid value; expected string", self.name))),
            other => Err(self.err(format!("wrong type for value; expected string; got {}", go_type(other)))),
        }
    }

    /// Exactly `N` arguments.
    fn exactly<const N: usize>(&self, args: Vec<Tv>) -> Result<[Tv; N], TmplError> {
        <[Tv; N]>::try_from(args).map_err(|_| self.wrong(N))
    }

    /// sprig's `quote` / `squote`: nil arguments are skipped.
    fn quote(&self, args: &[Tv]) -> Result<Tv, TmplError> {
        let mut parts = Vec::new();
        for a in args {
            if matches!(a.val, Val::Nil) {
                continue;
            }
            let s = strval(a).map_err(|w| self.unsupported(w))?;
            parts.push(if self.name == "quote" { go_quote(&s) } else { format!("'{s}'") });
        }
        // One argument quoted whole keeps its origin.
        let origin = match args {
            [only] => only.origin.clone(),
            _ => None,
        };
        Ok(Tv { val: Val::Str(parts.join(" ")), origin, secret: false })
    }

    fn default(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let mut it = args.into_iter();
        let Some(d) = it.next() else { return Err(self.wrong(1)) };
        let given: Vec<Tv> = it.collect();
        match given.first() {
            Some(g) if !empty(&g.val) => Ok(g.clone()),
            _ => Ok(d),
        }
    }

    fn required(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let [warn, val] = <[Tv; 2]>::try_from(args).map_err(|a| self.err(format!("wrong number of args for required: want 2 got {}", a.len())))?;
        let warn = self.string_arg(&warn)?;
        match &val.val {
            Val::Nil => Err(self.err(format!("error calling required: {warn}"))),
            Val::Str(s) if s.is_empty() => Err(self.err(format!("error calling required: {warn}"))),
            _ => Ok(val),
        }
    }

    fn case_or_trim(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let [s] = self.exactly(args)?;
        let text = self.string_arg(&s)?;
        let out = match self.name {
            "upper" => go_case(&text, true),
            "lower" => go_case(&text, false),
            _ => text.trim().to_string(),
        };
        Ok(Tv { val: Val::Str(out), origin: s.origin, secret: false })
    }

    fn indent(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let [n, s] = self.exactly(args)?;
        let Val::Int(n) = n.val else { return Err(self.unsupported(format!("{} with a width that is not an integer literal", self.name))) };
        let text = self.string_arg(&s)?;
        let width = usize::try_from(n).unwrap_or(0);
        // Sized before it is built: a wide indent of many lines is large at once.
        let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
        let bytes = width.saturating_mul(lines).saturating_add(text.len() + 1);
        self.ex.check_size(self.at, bytes, || format!("the result of `{}`", self.name))?;
        let pad = " ".repeat(width);
        let body = format!("{pad}{}", text.replace('\n', &format!("\n{pad}")));
        let out = if self.name == "nindent" { format!("\n{body}") } else { body };
        Ok(Tv { val: Val::Str(out), origin: s.origin, secret: false })
    }

    /// `toYaml` / `toJson`.
    fn encode(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let [v] = self.exactly(args)?;
        let out = if self.name == "toYaml" { to_yaml(&v) } else { to_json(&v) };
        let out = out.map_err(|w| self.unsupported(format!("{} of {w}", self.name)))?;
        Ok(Tv { val: Val::Str(out), origin: v.origin, secret: false })
    }

    /// helmfile's `get` / `getOrNil`.
    fn get(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let n = args.len();
        let mut it = args.into_iter();
        let (Some(path), Some(a), b) = (it.next(), it.next(), it.next()) else { return Err(self.wrong(2)) };
        if n > 3 || (self.name == "getOrNil" && n != 2) {
            return Err(self.wrong(if self.name == "get" { 3 } else { 2 }));
        }
        let path = self.string_arg(&path)?;
        let (def, obj) = match b {
            Some(obj) => (Some(a), obj),
            None => (None, a),
        };
        match helmfile_get(&path, def.as_ref(), &obj) {
            Ok(v) => Ok(v),
            Err(GetError::NoValue(_)) if self.name == "getOrNil" => Ok(Tv::new(Val::Nil)),
            Err(GetError::NoValue(m)) => Err(self.err(format!("error calling get: {m}"))),
            Err(GetError::Unsupported(w)) => Err(self.unsupported(w)),
        }
    }

    /// text/template's `index`.
    fn index(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let mut it = args.into_iter();
        let Some(mut item) = it.next() else { return Err(self.wrong(1)) };
        if let Val::Ptr(p) = item.val {
            item = *p;
        }
        if matches!(item.val, Val::Nil) {
            return Err(self.err("error calling index: index of untyped nil"));
        }
        for ix in it {
            item = match (&item.val, &ix.val) {
                (Val::Nil, _) => return Err(self.err("error calling index: index of nil pointer")),
                (Val::Map(m), Val::Str(k)) => m.get(k).cloned().unwrap_or_else(|| Tv::new(Val::Nil)),
                (Val::StrMap(m), Val::Str(k)) => Tv::str(m.get(k).map_or("", String::as_str)),
                (Val::List(l), Val::Int(i)) => match usize::try_from(*i).ok().and_then(|i| l.get(i)) {
                    Some(v) => v.clone(),
                    None => return Err(self.err(format!("error calling index: index out of range: {i}"))),
                },
                (Val::Map(_) | Val::StrMap(_), other) => {
                    return Err(self.err(format!("error calling index: value has type {}; should be string", go_type(other))));
                }
                (Val::Str(_) | Val::List(_), _) => return Err(self.unsupported("index of a string, or of a list with a computed index")),
                (other, _) => return Err(self.err(format!("error calling index: can't index item of type {}", go_type(other)))),
            };
        }
        Ok(item)
    }

    /// helmfile's `env` / `requiredEnv`, on the environment the caller gave.
    fn env(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let Some(environ) = self.ex.environ else { return Err(self.unsupported(format!("the function `{}` (no environment was given)", self.name))) };
        let [n] = self.exactly(args)?;
        let n = self.string_arg(&n)?;
        let env = self.name == "env";
        match environ.get(&n) {
            Some(v) if !v.is_empty() || env => Ok(Tv::str(v)),
            _ if env => Ok(Tv::str("")),
            _ => Err(self.err(format!("error calling requiredEnv: required env var `{n}` is not set"))),
        }
    }

    /// `not`, `and`, `or`.
    fn logic(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        if self.name == "not" {
            let [v] = self.exactly(args)?;
            return Ok(Tv::new(Val::Bool(!truth(&v.val))));
        }
        if args.is_empty() {
            return Err(self.wrong(1));
        }
        // Go 1.18+: evaluation stops at the first false (and) or true (or) argument.
        let n = args.len();
        for (i, a) in args.into_iter().enumerate() {
            if i + 1 == n || truth(&a.val) != (self.name == "and") {
                return Ok(a);
            }
        }
        Err(self.wrong(1))
    }

    /// `eq` (against any of the rest) and `ne`.
    fn eq(&self, args: Vec<Tv>) -> Result<Tv, TmplError> {
        let mut it = args.into_iter();
        let (Some(a), Some(b)) = (it.next(), it.next()) else { return Err(self.wrong(2)) };
        let rest: Vec<Tv> = it.collect();
        if self.name == "ne" && !rest.is_empty() {
            return Err(self.wrong(2));
        }
        let cmp = |x: &Val, y: &Val| match basic_eq(x, y) {
            Ok(Some(b)) => Ok(b),
            Ok(None) => Err(self.err(format!("error calling {}: incompatible types for comparison", self.name))),
            Err(w) => Err(self.unsupported(w)),
        };
        let mut any = cmp(&a.val, &b.val)?;
        for r in &rest {
            any = any || cmp(&a.val, &r.val)?;
        }
        Ok(Tv::new(Val::Bool(if self.name == "eq" { any } else { !any })))
    }
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
