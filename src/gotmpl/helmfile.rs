//! helmfile's template functions over sprig's, as helmfile builds its map
//! (pkg/tmpl/context_tmpl.go `CreateFuncMap`): sprig's `TxtFuncMap()`,
//! sprig's `get` kept as `sprigGet`, then helmfile's own functions
//! (context_funcs.go `createFuncMap`, get_or_nil.go, expand_secret_ref.go)
//! replacing sprig's of the same name (`toYaml`, `fromYaml`, `get`,
//! `required`, `requiredEnv`, ...), and `include` (newTemplate).
//!
//! Files and commands go through the [`Host`]: paths are given as the
//! template wrote them and the host resolves a relative one against the
//! state file's directory, as helmfile joins them with its `basePath`.
//! `exec` runs only when the host allows it (the CLI's `--allow-exec`).


use super::func::{Call, Derive, FnError, FuncMap, Param, RenderRequest, Sig};
use super::value::go_sprint;
use super::{GoObject, Tv, Val};

const S: Param = Param::String;
const A: Param = Param::Any;

/// helmfile's template functions: sprig's, then helmfile's over them.
pub fn func_map() -> FuncMap {
    let mut m = super::sprig::func_map();
    // CreateFuncMap's aliases: sprig's `get` stays reachable as `sprigGet`.
    if let Some(get) = m.get("get").copied() {
        let d = m.add("sprigGet", get.sig, get.derive, get.f);
        d.nondeterministic = get.nondeterministic;
    }
    register(&mut m);
    m
}

/// The functions a helmfile template runs with here: text/template's
/// builtins, then helmfile's map (sprig's with helmfile's over them).
fn engine_funcs() -> FuncMap {
    let mut m = super::builtins::func_map();
    m.extend(&func_map());
    m
}

/// Renders `src` (the contents of `file`) as helmfile renders a state file
/// or a values file (`missingkey=error`), with helmfile's functions reaching
/// `host`. A function releasex does not have yet is unsupported (helmfile,
/// with all of sprig, may have it), not Go's "function not defined".
pub fn render(file: &str, src: &str, data: &Tv, host: &dyn super::func::Host) -> Result<super::Rendered, super::TmplError> {
    super::run(src, data, file, &engine_funcs(), host, super::MissingKey::Error, true)
}

/// helmfile's own functions (`createFuncMap`, plus `include`).
pub fn register(m: &mut FuncMap) {
    m.add("exec", Sig::variadic(&[S, Param::List], S), Derive::Made, exec).nondeterministic = true;
    m.add("envExec", Sig::variadic(&[Param::Map, S, Param::List], S), Derive::Made, env_exec).nondeterministic = true;
    m.add("isFile", Sig::fixed(&[S]), Derive::Made, is_file);
    m.add("isDir", Sig::fixed(&[S]), Derive::Made, is_dir);
    m.add("readFile", Sig::fixed(&[S]), Derive::Made, read_file);
    m.add("readDir", Sig::fixed(&[S]), Derive::Made, read_dir);
    m.add("readDirEntries", Sig::fixed(&[S]), Derive::Made, read_dir_entries);
    m.add("toYaml", Sig::fixed(&[A]), Derive::Made, to_yaml);
    m.add("fromYaml", Sig::fixed(&[S]), Derive::Made, from_yaml);
    m.add("setValueAtPath", Sig::fixed(&[S, A, Param::Map]), Derive::Made, set_value_at_path);
    m.add("requiredEnv", Sig::fixed(&[S]), Derive::Made, required_env);
    m.add("get", Sig::variadic(&[S], A), Derive::Passed, get);
    m.add("getOrNil", Sig::fixed(&[S, A]), Derive::Passed, get_or_nil);
    m.add("tpl", Sig::fixed(&[S, A]), Derive::Made, tpl);
    m.add("required", Sig::fixed(&[S, A]), Derive::Passed, required);
    m.add("fetchSecretValue", Sig::fixed(&[S]), Derive::Made, fetch_secret_value);
    m.add("expandSecretRefs", Sig::fixed(&[Param::Map]), Derive::Made, expand_secret_refs);
    m.add("include", Sig::fixed(&[S, A]), Derive::Made, include);
}

fn str_arg(v: &Tv) -> String {
    match &v.val {
        Val::Str(s) => s.clone(),
        _ => String::new(),
    }
}

fn nth(args: &[Tv], i: usize) -> Tv {
    args.get(i).cloned().unwrap_or_else(|| Tv::new(Val::Nil))
}

fn items(v: &Tv) -> &[Tv] {
    match &v.val {
        Val::List(l) | Val::TypedList(_, l) => l,
        _ => &[],
    }
}

/// `EnvExec`'s arguments: every element of `args` must be a string
/// (`unexpected type of arg "T" in args [..] at index I`).
fn command_args(args: &Tv) -> Result<Vec<String>, FnError> {
    items(args)
        .iter()
        .enumerate()
        .map(|(i, a)| match &a.val {
            Val::Str(s) => Ok(s.clone()),
            other => {
                let shown = go_sprint(args).unwrap_or_default();
                Err(FnError::Go(format!("unexpected type of arg \"{}\" in args {shown} at index {i}", super::value::go_type(other))))
            }
        })
        .collect()
}

fn exec(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let command = str_arg(&nth(&args, 0));
    let argv = command_args(&nth(&args, 1))?;
    // Only the first input is written to stdin.
    let input = args.get(2).map(str_arg);
    c.host.exec(&command, &argv, &[], input.as_deref().filter(|s| !s.is_empty())).map(|out| Tv::new(Val::Str(out))).map_err(FnError::Go)
}

/// `EnvExec(envs, command, args, inputs...)` (context_funcs.go): `exec` with
/// `envs` added to the process environment; the arguments are checked
/// first, then every env value must be a string (`unexpected type of env
/// "T" in envs map[..] at index K`).
fn env_exec(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let envs = nth(&args, 0);
    let command = str_arg(&nth(&args, 1));
    let argv = command_args(&nth(&args, 2))?;
    let mut env = Vec::new();
    if let Val::Map(m) = &envs.val {
        for (k, v) in m.entries() {
            match &v.val {
                Val::Str(s) => env.push((k.clone(), s.clone())),
                other => {
                    let shown = go_sprint(&envs).unwrap_or_default();
                    return Err(FnError::Go(format!("unexpected type of env \"{}\" in envs {shown} at index {k}", super::value::go_type(other))));
                }
            }
        }
    }
    let input = args.get(3).map(str_arg);
    c.host.exec(&command, &argv, &env, input.as_deref().filter(|s| !s.is_empty())).map(|out| Tv::new(Val::Str(out))).map_err(FnError::Go)
}

fn is_file(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(Tv::new(Val::Bool(c.host.stat(&str_arg(&nth(&args, 0))) == Some(false))))
}

fn is_dir(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(Tv::new(Val::Bool(c.host.stat(&str_arg(&nth(&args, 0))) == Some(true))))
}

fn read_file(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let bytes = c.host.read_file(&str_arg(&nth(&args, 0))).map_err(FnError::Go)?;
    Ok(Tv::new(Val::Str(String::from_utf8_lossy(&bytes).into_owned())))
}

/// `ReadDir`: the files (not directories) of `path`, each joined to `path`
/// as written (`filepath.Join(path, entry.Name())`).
fn read_dir(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let path = str_arg(&nth(&args, 0));
    let entries = c.host.read_dir(&path).map_err(|e| FnError::Go(format!("ReadDir {}: {e}", crate::go::quote::quote(&path))))?;
    let files = entries.into_iter().filter(|(_, dir)| !dir).map(|(name, _)| Tv::new(Val::Str(crate::go::path::clean(&format!("{path}/{name}"))))).collect();
    Ok(Tv::new(Val::TypedList("string", files)))
}

/// An `fs.DirEntry` from `readDirEntries`: `.Name`, `.IsDir`, `.Type`.
#[derive(Debug)]
struct DirEntry {
    name: String,
    dir: bool,
}

impl GoObject for DirEntry {
    fn type_name(&self) -> &'static str {
        "*os.unixDirent"
    }
    fn kind(&self) -> &'static str {
        "ptr"
    }
    /// `fs.FormatDirEntry` (the entry's `String()` since Go 1.21).
    fn go_string(&self) -> String {
        if self.dir { format!("d {}/", self.name) } else { format!("- {}", self.name) }
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        if !args.is_empty() && matches!(name, "Name" | "IsDir") {
            return Some(Err(format!("wrong number of args for {name}: want 0 got {}", args.len())));
        }
        match name {
            "Name" => Some(Ok(Tv::new(Val::Str(self.name.clone())))),
            "IsDir" => Some(Ok(Tv::new(Val::Bool(self.dir)))),
            _ => None,
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn read_dir_entries(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let path = str_arg(&nth(&args, 0));
    let entries = c.host.read_dir(&path).map_err(|e| FnError::Go(format!("ReadDirEntries {}: {e}", crate::go::quote::quote(&path))))?;
    let list = entries.into_iter().map(|(name, dir)| Tv::new(Val::Object(std::rc::Rc::new(DirEntry { name, dir })))).collect();
    Ok(Tv::new(Val::TypedList("fs.DirEntry", list)))
}

fn to_yaml(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    super::encode::to_yaml(&nth(&args, 0)).map(|s| Tv::new(Val::Str(s))).map_err(FnError::Unsupported)
}

/// `FromYaml`: the document as Go values (`map[string]interface{}` for
/// maps, every key stringified). yaml.v3 decodes a number written as an
/// integer to `int`; here every whole number is an `int` (`1.0` too).
fn from_yaml(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let text = str_arg(&nth(&args, 0));
    parse_yaml(&text).map_err(|e| FnError::Go(format!("{e}, offending yaml: {text}")))
}

/// A YAML document as a template value (a scalar or list document too).
pub fn parse_yaml(text: &str) -> Result<Tv, String> {
    if text.trim().is_empty() {
        return Ok(Tv::new(Val::Nil));
    }
    // Nested under one key, any document (a scalar, a list) reads as a map's value.
    let nested: String = std::iter::once("v:\n".to_string()).chain(text.lines().map(|l| format!("  {l}\n"))).collect();
    let origin = |_: &str, _: crate::yaml::Pos| crate::values::tree::Source::Helm { why: String::new() };
    let m = crate::values::tree::load_tree(&nested, "fromYaml", &origin).map_err(|e| e.to_string())?;
    Ok(m.get("v").map(|v| plain(&Tv::from_v(v))).unwrap_or_else(|| Tv::new(Val::Nil)))
}

/// A parsed value without origins, whole numbers as Go `int`.
fn plain(v: &Tv) -> Tv {
    Tv::new(match &v.val {
        Val::Float(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => Val::Int(*f as i64),
        Val::List(l) => Val::List(l.iter().map(plain).collect()),
        Val::Map(m) => Val::Map(m.entries().into_iter().map(|(k, x)| (k, plain(&x))).collect()),
        other => other.clone(),
    })
}

/// `SetValueAtPath` (helmfile pkg/tmpl/context_funcs.go): `value` set at
/// the dot-separated path in `values` itself, every map on the way
/// existing; it returns `values`. Go's maps are references, so every
/// holder of `values` (or of a map on the path) sees the new value.
fn set_value_at_path(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let path = str_arg(&nth(&args, 0));
    let value = nth(&args, 1);
    let values = nth(&args, 2);
    let components: Vec<&str> = path.split('.').collect();
    let (key, parents) = components.split_last().map(|(k, p)| (*k, p)).unwrap_or(("", &[]));
    let not_a_map = |k: &str| FnError::Go(format!("failed to set value at path \"{path}\": value for key \"{k}\" was not a map"));
    let Val::Map(mut current) = values.val.clone() else { return Err(not_a_map(parents.first().copied().unwrap_or(key))) };
    for k in parents {
        let Some(elem) = current.get(k) else {
            return Err(FnError::Go(format!("failed to set value at path \"{path}\": value for key \"{k}\" does not exist")));
        };
        let Val::Map(next) = elem.val else { return Err(not_a_map(k)) };
        current = next;
    }
    current.insert(key.to_string(), value);
    Ok(values)
}

/// `RequiredEnv`: set and not empty.
fn required_env(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let name = str_arg(&nth(&args, 0));
    match c.host.env(&name) {
        Some(v) if !v.is_empty() => Ok(Tv::new(Val::Str(v))),
        _ => Err(FnError::Go(format!("required env var `{name}` is not set"))),
    }
}

/// Why `get` found nothing: a `noValueError` (getOrNil gives nil), or another.
enum GetError {
    NoValue(String),
    Other(FnError),
}

/// get_or_nil.go `get(path, [def, ]obj)`.
fn get_path(path: &str, def: Option<&Tv>, obj: &Tv) -> Result<Tv, GetError> {
    if path.is_empty() {
        return Ok(obj.clone());
    }
    let (first, rest) = path.split_once('.').unwrap_or((path, ""));
    let obj = match &obj.val {
        Val::Ptr(p) => p.as_ref(),
        _ => obj,
    };
    let shown = || go_sprint(obj).map_err(|e| GetError::Other(FnError::Unsupported(e)));
    let found = match &obj.val {
        Val::Map(m) => m.get(first),
        // A map[string]string's value is returned as it is, the rest of the path unread.
        Val::StrMap(m) => match m.get(first) {
            Some(s) => return Ok(Tv::new(Val::Str(s.clone()))),
            None => None,
        },
        Val::Struct(_, fields) => match fields.iter().find(|(n, _)| *n == first) {
            Some((_, f)) => Some(f.clone()),
            None => match def {
                Some(d) => return Ok(d.clone()),
                None => return Err(GetError::Other(FnError::Unsupported(format!("get of the field {first:?}, which the template data does not have")))),
            },
        },
        other => {
            let ty = if matches!(other, Val::Nil) { "<nil>" } else { super::value::go_type(other) };
            return Err(GetError::NoValue(format!("unexpected type({ty}) of value for key \"{first}\": it must be either map[string]any or any struct")));
        }
    };
    match found {
        Some(v) => get_path(rest, def, &v),
        None => match def {
            Some(d) => Ok(d.clone()),
            None => Err(GetError::NoValue(format!("no value exist for key \"{first}\" in {}", shown()?))),
        },
    }
}

fn get(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let path = str_arg(&nth(&args, 0));
    let (def, obj) = match args.len() {
        2 => (None, nth(&args, 1)),
        3 => (Some(nth(&args, 1)), nth(&args, 2)),
        n => {
            return Err(FnError::Go(format!(
                "unexpected number of args passed to the template function get(path, [def, ]obj): expected 1 or 2, got {}, args was {}",
                n - 1,
                go_sprint(&Tv::new(Val::List(args[1..].to_vec()))).unwrap_or_default()
            )));
        }
    };
    get_path(&path, def.as_ref(), &obj).map_err(|e| match e {
        GetError::NoValue(m) => FnError::Go(m),
        GetError::Other(e) => e,
    })
}

fn get_or_nil(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    match get_path(&str_arg(&nth(&args, 0)), None, &nth(&args, 1)) {
        Ok(v) => Ok(v),
        Err(GetError::NoValue(_)) => Ok(Tv::new(Val::Nil)),
        Err(GetError::Other(e)) => Err(e),
    }
}

fn tpl(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let (text, data) = (str_arg(&nth(&args, 0)), nth(&args, 1));
    (c.render)(RenderRequest::Text { text: &text, data: &data }).map(|s| Tv::new(Val::Str(s))).map_err(super::func::render_failure)
}

fn include(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let (name, data) = (str_arg(&nth(&args, 0)), nth(&args, 1));
    (c.render)(RenderRequest::Named { name: &name, data: &data }).map(|s| Tv::new(Val::Str(s))).map_err(super::func::render_failure)
}

/// `Required(warn, val)`: nil or the empty string is an error.
fn required(_c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let val = nth(&args, 1);
    match &val.val {
        Val::Nil => Err(FnError::Go(str_arg(&nth(&args, 0)))),
        Val::Str(s) if s.is_empty() => Err(FnError::Go(str_arg(&nth(&args, 0)))),
        _ => Ok(val),
    }
}

/// `fetchSecretValue`: one vals reference resolved (a secret).
fn fetch_secret_value(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let text = str_arg(&nth(&args, 0));
    let mut v = expand_refs(c, &Tv::new(Val::Str(text)))?;
    if !matches!(v.val, Val::Str(_)) {
        let shown = go_sprint(&v).unwrap_or_default();
        return Err(FnError::Go(format!("expected {shown} to be string")));
    }
    v.secret = true;
    Ok(v)
}

/// `expandSecretRefs`: every vals reference in the map resolved.
fn expand_secret_refs(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    expand_refs(c, &nth(&args, 0))
}

fn expand_refs(c: &Call<'_>, v: &Tv) -> Result<Tv, FnError> {
    Ok(match &v.val {
        Val::Map(m) => Tv::new(Val::Map(m.entries().into_iter().map(|(k, x)| Ok((k, expand_refs(c, &x)?))).collect::<Result<super::GoMap, FnError>>()?)),
        Val::List(l) => Tv::new(Val::List(l.iter().map(|x| expand_refs(c, x)).collect::<Result<_, _>>()?)),
        Val::Str(s) if s.contains("ref+") => {
            let mut out = expand_string(c, s)?;
            out.secret = true;
            out
        }
        _ => v.clone(),
    })
}

/// vals' reference syntax `ref+BACKEND://PATH[#FRAGMENT][+]`: a string that
/// is one whole reference becomes what it points at (a map too); references
/// inside a longer string are replaced by their text.
fn expand_string(c: &Call<'_>, s: &str) -> Result<Tv, FnError> {
    let refs = find_refs(s);
    if let [(0, end)] = refs.as_slice()
        && *end == s.len()
    {
        return resolve_ref(c, s.trim_end_matches('+'));
    }
    let mut out = String::new();
    let mut at = 0;
    for (start, end) in refs {
        out.push_str(&s[at..start]);
        let v = resolve_ref(c, s[start..end].trim_end_matches('+'))?;
        out.push_str(&go_sprint(&v).map_err(FnError::Unsupported)?);
        at = end;
    }
    out.push_str(&s[at..]);
    Ok(Tv::new(Val::Str(out)))
}

/// Byte ranges of the references in `s`: `ref+` up to whitespace, a quote
/// or a closing `+`.
fn find_refs(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = s[from..].find("ref+") {
        let start = from + i;
        let body = start + 4;
        let end = s[body..].find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '+').map_or(s.len(), |j| {
            let e = body + j;
            if s[e..].starts_with('+') { e + 1 } else { e }
        });
        out.push((start, end));
        from = end.max(body);
    }
    out
}

/// One reference: `ref+file://PATH[#/key/path]` (the file, or the value at
/// the key path of its YAML) and `ref+envsubst://TEXT` (`$VAR` / `${VAR}`
/// expanded from the environment) are resolved here; any other backend
/// (vault, awssecrets, sops, ...) needs the network or keys releasex does
/// not touch, so it stops naming the reference.
fn resolve_ref(c: &Call<'_>, r: &str) -> Result<Tv, FnError> {
    let rest = &r[4..];
    let Some((backend, target)) = rest.split_once("://") else {
        return Err(FnError::Go(format!("{r}: not a vals reference (ref+BACKEND://...)")));
    };
    match backend {
        "file" => {
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let bytes = c.host.read_file(path).map_err(|e| FnError::Go(format!("{r}: {e}")))?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if fragment.trim_matches('/').is_empty() {
                return Ok(Tv::new(Val::Str(text)));
            }
            let doc = parse_yaml(&text).map_err(|e| FnError::Go(format!("{r}: {e}")))?;
            let mut at = doc;
            for key in fragment.trim_matches('/').split('/') {
                let next = match &at.val {
                    Val::Map(m) => m.get(key),
                    Val::List(l) => key.parse::<usize>().ok().and_then(|i| l.get(i).cloned()),
                    _ => None,
                };
                at = next.ok_or_else(|| FnError::Go(format!("{r}: no value at {fragment:?} in {path}")))?;
            }
            Ok(at)
        }
        "envsubst" => Ok(Tv::new(Val::Str(envsubst(c, target)))),
        other => Err(FnError::Unsupported(format!("the vals reference {r} (backend {other:?}: releasex resolves only ref+file:// and ref+envsubst://)"))),
    }
}

/// `$VAR` and `${VAR}` replaced by the environment's value (empty when unset).
fn envsubst(c: &Call<'_>, text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        if ch != '$' {
            out.push(ch);
            continue;
        }
        let rest = &text[i + 1..];
        let (name, used) = if let Some(body) = rest.strip_prefix('{') {
            match body.find('}') {
                Some(e) => (&body[..e], e + 2),
                None => ("", 0),
            }
        } else {
            let e = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            (&rest[..e], e)
        };
        if name.is_empty() {
            out.push('$');
            continue;
        }
        out.push_str(&c.host.env(name).unwrap_or_default());
        for _ in 0..used {
            chars.next();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotmpl::func::FixedHost;

    fn host() -> FixedHost {
        let mut h = FixedHost::default();
        h.env.insert("TAG".into(), "v7".into());
        h.env.insert("EMPTY".into(), String::new());
        h.files.insert("conf/app.yaml".into(), b"db:\n  password: hunter2\n  port: 5432\n".to_vec());
        h.files.insert("conf/sub/x.txt".into(), b"x".to_vec());
        h
    }

    fn call(name: &str, args: Vec<Tv>) -> Result<Tv, FnError> {
        let h = host();
        let render = |r: RenderRequest<'_>| -> Result<String, crate::gotmpl::TmplError> {
            match r {
                RenderRequest::Text { text, .. } => Ok(format!("rendered:{text}")),
                RenderRequest::Named { name, .. } => Ok(format!("included:{name}")),
            }
        };
        let m = func_map();
        let def = m.get(name).unwrap_or_else(|| panic!("{name} is registered"));
        (def.f)(&Call { name, host: &h, render: &render }, args)
    }

    fn s(x: &str) -> Tv {
        Tv::new(Val::Str(x.into()))
    }

    fn map(pairs: &[(&str, Tv)]) -> Tv {
        Tv::new(Val::Map(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()))
    }

    fn text(v: Result<Tv, FnError>) -> String {
        go_sprint(&v.expect("call succeeds")).expect("printable")
    }

    /// A table value as the oracle decodes it (integers are Go `int`).
    fn from_json(v: &serde_json::Value) -> Tv {
        use serde_json::Value;
        Tv::new(match v {
            Value::Null => Val::Nil,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) if !n.to_string().contains(['.', 'e', 'E']) => Val::Int(i),
                _ => Val::Float(n.as_f64().unwrap_or_default()),
            },
            Value::String(s) => Val::Str(s.clone()),
            Value::Array(a) => Val::List(a.iter().map(from_json).collect()),
            Value::Object(m) => Val::Map(m.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()),
        })
    }

    /// tests/data/gotmpl/helmfile/functions.json: what real Go text/template
    /// with sprig and helmfile's own `get`, `getOrNil`, `setValueAtPath`,
    /// `required`, `fromYaml` (tools/gotmpl-oracle/helmfile.go, copied from
    /// helmfile's source) printed, byte for byte, errors included.
    #[test]
    fn helmfile_functions_print_what_real_go_and_helmfile_print() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gotmpl/helmfile/functions.json");
        let cases: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(path).expect("table")).expect("json");
        let funcs = engine_funcs();
        let host = FixedHost::default();
        let mut failures = Vec::new();
        for case in &cases {
            let opts = super::super::RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey: super::super::MissingKey::Error };
            let ours = match super::super::render_with(case["template"].as_str().unwrap_or_default(), &from_json(&case["data"]), &opts) {
                Ok(r) => serde_json::json!({ "output": r.text }),
                Err(e) => serde_json::json!({ "error": e.go_text().map_or_else(|| e.to_string(), str::to_string) }),
            };
            if ours != case["go"] {
                failures.push(format!("{}: ours {ours}, Go {}", case["name"], case["go"]));
            }
        }
        assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
    }

    #[test]
    fn helmfile_functions_replace_sprigs_and_sprig_get_stays_reachable() {
        let m = func_map();
        for name in ["exec", "envExec", "isFile", "isDir", "readFile", "readDir", "readDirEntries", "toYaml", "fromYaml", "setValueAtPath", "requiredEnv", "get", "getOrNil", "tpl", "required", "fetchSecretValue", "expandSecretRefs", "include"] {
            assert!(m.get(name).is_some(), "{name}");
        }
        // helmfile's get takes (path, [def,] obj): variadic after the path.
        assert!(m.get("get").is_some_and(|d| d.sig.variadic == Some(Param::Any)));
        assert!(m.get("exec").is_some_and(|d| d.nondeterministic));
    }

    #[test]
    fn required_env_needs_a_set_non_empty_variable() {
        assert_eq!(text(call("requiredEnv", vec![s("TAG")])), "v7");
        for missing in ["EMPTY", "NOPE"] {
            assert_eq!(call("requiredEnv", vec![s(missing)]).err(), Some(FnError::Go(format!("required env var `{missing}` is not set"))));
        }
    }

    #[test]
    fn files_and_directories_through_the_host() {
        assert_eq!(text(call("readFile", vec![s("conf/sub/x.txt")])), "x");
        assert_eq!(call("readFile", vec![s("nope")]).err(), Some(FnError::Go("open nope: no such file or directory".into())));
        assert_eq!(text(call("isFile", vec![s("conf/app.yaml")])), "true");
        assert_eq!(text(call("isFile", vec![s("conf")])), "false");
        assert_eq!(text(call("isDir", vec![s("conf")])), "true");
        assert_eq!(text(call("isDir", vec![s("missing")])), "false");
        // readDir lists files only, each joined to the path as written.
        assert_eq!(text(call("readDir", vec![s("conf/")])), "[conf/app.yaml]");
        let entries = call("readDirEntries", vec![s("conf")]).expect("listed");
        let names: Vec<String> = items(&entries).iter().map(|e| match &e.val {
            Val::Object(o) => o.go_string(),
            _ => String::new(),
        }).collect();
        assert_eq!(names, ["- app.yaml", "d sub/"]);
        assert!(matches!(call("readDir", vec![s("nope")]), Err(FnError::Go(m)) if m.starts_with("ReadDir \"nope\": ")));
    }

    #[test]
    fn exec_goes_to_the_host_which_may_refuse() {
        let err = call("exec", vec![s("date"), Tv::new(Val::List(vec![s("-u")]))]).err();
        assert_eq!(err, Some(FnError::Go("running `date` is not allowed here".into())));
        let err = call("exec", vec![s("echo"), Tv::new(Val::List(vec![Tv::new(Val::Int(1))]))]).err();
        assert_eq!(err, Some(FnError::Go("unexpected type of arg \"int\" in args [1] at index 0".into())));
    }

    #[test]
    fn env_exec_checks_its_arguments_then_its_env_values_and_goes_to_the_host() {
        let env = |v: Tv| map(&[("A", v)]);
        let err = call("envExec", vec![env(s("1")), s("date"), Tv::new(Val::List(vec![s("-u")]))]).err();
        assert_eq!(err, Some(FnError::Go("running `date` is not allowed here".into())));
        let err = call("envExec", vec![env(Tv::new(Val::Int(1))), s("date"), Tv::new(Val::List(vec![Tv::new(Val::Bool(true))]))]).err();
        assert_eq!(err, Some(FnError::Go("unexpected type of arg \"bool\" in args [true] at index 0".into())));
        let err = call("envExec", vec![env(Tv::new(Val::Int(1))), s("date"), Tv::new(Val::List(vec![]))]).err();
        assert_eq!(err, Some(FnError::Go("unexpected type of env \"int\" in envs map[A:1] at index A".into())));
    }

    #[test]
    fn get_and_get_or_nil_walk_maps_and_structs() {
        let data = map(&[("a", map(&[("b", s("x"))]))]);
        assert_eq!(text(call("get", vec![s("a.b"), data.clone()])), "x");
        assert_eq!(text(call("get", vec![s("a.c"), s("dflt"), data.clone()])), "dflt");
        assert_eq!(call("get", vec![s("a.c"), data.clone()]).err(), Some(FnError::Go("no value exist for key \"c\" in map[b:x]".into())));
        assert!(matches!(call("getOrNil", vec![s("a.c"), data.clone()]).map(|v| v.val), Ok(Val::Nil)));
        assert!(matches!(call("getOrNil", vec![s("a.b.c"), data.clone()]).map(|v| v.val), Ok(Val::Nil)));
        let st = Tv::new(Val::Struct("state.releaseTemplateData", vec![("Values", data)]));
        assert_eq!(text(call("get", vec![s("Values.a.b"), st])), "x");
    }

    #[test]
    fn set_value_at_path_needs_existing_maps() {
        let data = map(&[("a", map(&[("b", s("x"))]))]);
        assert_eq!(text(call("setValueAtPath", vec![s("a.c"), s("y"), data.clone()])), "map[a:map[b:x c:y]]");
        assert_eq!(
            call("setValueAtPath", vec![s("z.c"), s("y"), data.clone()]).err(),
            Some(FnError::Go("failed to set value at path \"z.c\": value for key \"z\" does not exist".into()))
        );
        assert_eq!(
            call("setValueAtPath", vec![s("a.b.c"), s("y"), data]).err(),
            Some(FnError::Go("failed to set value at path \"a.b.c\": value for key \"b\" was not a map".into()))
        );
    }

    #[test]
    fn from_yaml_reads_any_document_and_required_refuses_nil_and_empty() {
        assert_eq!(text(call("fromYaml", vec![s("a: 1\nb: [x, 2]\n")])), "map[a:1 b:[x 2]]");
        assert!(matches!(call("fromYaml", vec![s("- 3\n")]).map(|v| v.val), Ok(Val::List(l)) if matches!(l[0].val, Val::Int(3))));
        assert!(matches!(call("fromYaml", vec![s("a: [")]), Err(FnError::Go(m)) if m.contains("offending yaml: a: [")));
        assert_eq!(call("required", vec![s("need it"), s("")]).err(), Some(FnError::Go("need it".into())));
        assert_eq!(call("required", vec![s("need it"), Tv::new(Val::Nil)]).err(), Some(FnError::Go("need it".into())));
        assert_eq!(text(call("required", vec![s("need it"), Tv::new(Val::Int(0))])), "0");
    }

    #[test]
    fn tpl_and_include_ask_the_running_engine() {
        assert_eq!(text(call("tpl", vec![s("{{ .x }}"), Tv::new(Val::Nil)])), "rendered:{{ .x }}");
        assert_eq!(text(call("include", vec![s("helper"), Tv::new(Val::Nil)])), "included:helper");
    }

    #[test]
    fn vals_file_and_envsubst_refs_resolve_locally_and_are_secret() {
        let v = call("fetchSecretValue", vec![s("ref+file://conf/app.yaml#/db/password")]).expect("resolved");
        assert_eq!(go_sprint(&v).ok().as_deref(), Some("hunter2"));
        assert!(v.secret);
        assert_eq!(text(call("fetchSecretValue", vec![s("ref+envsubst://tag-$TAG-${TAG}")])), "tag-v7-v7");
        let m = map(&[("pw", s("ref+file://conf/app.yaml#/db/password")), ("url", s("db:ref+file://conf/app.yaml#/db/port+/x")), ("n", Tv::new(Val::Int(1)))]);
        assert_eq!(text(call("expandSecretRefs", vec![m])), "map[n:1 pw:hunter2 url:db:5432/x]");
        let err = call("fetchSecretValue", vec![s("ref+vault://secret/app#/password")]).err();
        assert!(matches!(err, Some(FnError::Unsupported(m)) if m.contains("ref+vault://secret/app#/password") && m.contains("\"vault\"")));
        assert!(matches!(call("fetchSecretValue", vec![s("ref+file://conf/app.yaml#/db")]), Err(FnError::Go(m)) if m.starts_with("expected map[")));
    }
}
