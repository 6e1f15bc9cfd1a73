//! Helm's template functions (helm: pkg/engine/funcs.go `funcMap` and
//! engine.go `initFunMap`): sprig's `TxtFuncMap` without `env` and
//! `expandenv`, Helm's encoders, and `include`, `tpl`, `required`, `fail`,
//! `lookup` (the host's cluster, `{}` without one, as `helm template`) and
//! `getHostByName` (empty: DNS lookups are off unless `--enable-dns`).
//! `toToml`/`mustToToml` follow BurntSushi/toml's encoder (toml.rs),
//! `fromToml` its parser for a strict subset (toml_decode.rs) and
//! `toYamlPretty` yaml.v3's encoder for the values it certainly writes
//! plain; what releasex does not model (date-times, documents the subset
//! does not read, strings yaml.v3 may quote or fold) stops the render with
//! an error naming it: never a different output.

use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, RenderRequest, Sig, render_failure};
use crate::gotmpl::sprig::{from_json_value, json_marshal};
use crate::gotmpl::{GoMap, TmplError, Tv, Val};

const S: Param = Param::String;
const A: Param = Param::Any;

/// Where Helm's own errors are marked so that its error formatter can
/// print them alone (engine.go `warnWrap`).
pub const WARN_START: &str = "HELM_ERR_START";
pub const WARN_END: &str = "HELM_ERR_END";

/// The functions Helm 4.2's engine gives templates.
pub fn helm_func_map() -> FuncMap {
    let mut m = crate::gotmpl::sprig::func_map();
    m.remove("env");
    m.remove("expandenv");
    m.add("toYaml", Sig::fixed(&[A]), Derive::Made, to_yaml);
    m.add("mustToYaml", Sig::fixed(&[A]), Derive::Made, to_yaml);
    m.add("fromYaml", Sig::fixed(&[S]), Derive::Made, from_yaml);
    m.add("fromYamlArray", Sig::fixed(&[S]), Derive::Made, from_yaml_array);
    m.add("fromJson", Sig::fixed(&[S]), Derive::Made, from_json);
    m.add("fromJsonArray", Sig::fixed(&[S]), Derive::Made, from_json_array);
    m.add("toToml", Sig::fixed(&[A]), Derive::Made, to_toml);
    m.add("mustToToml", Sig::fixed(&[A]), Derive::Made, to_toml);
    m.add("fromToml", Sig::fixed(&[S]), Derive::Made, from_toml);
    m.add("toYamlPretty", Sig::fixed(&[A]), Derive::Made, to_yaml_pretty);
    m.add("include", Sig::fixed(&[S, A]), Derive::Made, include);
    m.add("tpl", Sig::fixed(&[S, A]), Derive::Made, tpl);
    m.add("required", Sig::fixed(&[S, A]), Derive::Passed, required);
    m.add("fail", Sig::fixed(&[S]), Derive::Made, fail);
    m.add("lookup", Sig::fixed(&[S, S, S, S]), Derive::Made, lookup);
    m.add("getHostByName", Sig::fixed(&[S]), Derive::Made, |_, _| Ok(Tv::str("")));
    compare_with_types(&mut m);
    m
}

/// Go 1.26's text/template names the two types when a comparison's
/// operands do not fit (`incompatible types for comparison: float64 and
/// int`); the builtins keep Go 1.19's words for helmfile.
fn compare_with_types(m: &mut FuncMap) {
    use crate::gotmpl::builtins;
    macro_rules! wrap {
        ($($name:literal => $f:ident),*) => {$(
            fn $f(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
                let types: Vec<(&str, &str)> = args.iter().map(|a| (class(&a.val), crate::gotmpl::go_type_name(&a.val))).collect();
                builtins::$f(c, args).map_err(|e| with_types(e, &types))
            }
            if let Some(def) = builtins::func_map().get($name) {
                m.add($name, def.sig, def.derive, $f);
            }
        )*};
    }
    wrap!("eq" => eq, "ne" => ne, "lt" => lt, "le" => le, "gt" => gt, "ge" => ge);
}

/// The kind a comparison looks at (integers of any size compare with each other).
fn class(v: &Val) -> &'static str {
    match v {
        Val::Int(_) | Val::Int64(_) => "int",
        Val::Float(_) => "float",
        Val::Str(_) => "string",
        Val::Bool(_) => "bool",
        _ => "other",
    }
}

/// The builtin's error with the first operand's type and the first that does not fit it.
fn with_types(e: FnError, types: &[(&str, &str)]) -> FnError {
    match e {
        FnError::Go(m) if m == "incompatible types for comparison" => {
            let first = types.first();
            let other = types.iter().skip(1).find(|(c, _)| first.is_some_and(|(f, _)| f != c));
            match (first, other) {
                (Some((_, a)), Some((_, b))) => FnError::Go(format!("{m}: {a} and {b}")),
                _ => FnError::Go(m),
            }
        }
        other => other,
    }
}

fn text(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

/// funcs.go `toTOML`: BurntSushi/toml's encoder ([`super::toml`]); its
/// error is the text printed (`mustToToml`: the error). A panic inside the
/// encoder is the function's error for both (text/template `safeCall`).
fn to_toml(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    use super::toml::TomlError;
    match super::toml::to_toml(&args[0]) {
        Ok(s) => Ok(Tv::str(&s)),
        Err(TomlError::Go(m)) if c.name == "toToml" => Ok(Tv::str(&m)),
        Err(TomlError::Go(m) | TomlError::Panic(m)) => Err(FnError::Go(m)),
        Err(TomlError::Unsupported(m)) => Err(FnError::Unsupported(m)),
    }
}

/// funcs.go `fromTOML`: `toml.Unmarshal` into a `map[string]any`
/// ([`super::toml_decode`]). A document Helm would answer with
/// `{Error: message}` in BurntSushi/toml's words, or with values we do not
/// model (`time.Time`), is refused.
fn from_toml(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    match super::toml_decode::from_toml(text(&args[0])) {
        Ok(m) => Ok(Tv::new(Val::Map(m))),
        Err(r) => Err(FnError::Unsupported(format!(
            "fromToml of a document releasex does not read as BurntSushi/toml does ({r}; Helm returns {{Error: message}} for a document it rejects)"
        ))),
    }
}

/// funcs.go `toYAMLPretty`: `sigs.k8s.io/yaml/goyaml.v3`'s encoder with
/// `SetIndent(2)`, the Go value encoded directly (not through JSON), one
/// trailing newline trimmed. yaml.v3's encoder ([`crate::gotmpl::yaml_v3_encode`],
/// shared with helmfile's `toYaml`) takes the values whose strings it
/// certainly writes plain or double-quoted; the rest is refused.
fn to_yaml_pretty(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    match crate::gotmpl::yaml_v3_encode(&args[0]) {
        Ok(s) => Ok(Tv::str(s.strip_suffix('\n').unwrap_or(&s))),
        Err(e) => Err(FnError::Unsupported(format!("toYamlPretty of {e} (releasex does not model yaml.v3's encoding of it)"))),
    }
}

/// funcs.go `toYAML`: `sigs.k8s.io/yaml.Marshal`, the trailing newline
/// trimmed; an error gives "" (`mustToYaml`: the error).
fn to_yaml(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    match to_yaml_text(&args[0]) {
        Ok(s) => Ok(Tv::str(&s)),
        Err(FnError::Go(_)) if c.name == "toYaml" => Ok(Tv::str("")),
        Err(e) => Err(e),
    }
}

/// `sigs.k8s.io/yaml.Marshal(v)` without its trailing newline.
pub fn to_yaml_text(v: &Tv) -> Result<String, FnError> {
    let json = json_marshal(v)?;
    let yaml = crate::yaml::emit::json_to_yaml(&json).map_err(|e| FnError::Unsupported(format!("YAML of this value: {e}")))?;
    Ok(yaml.strip_suffix('\n').unwrap_or(&yaml).to_string())
}

/// A parsed document as the engine sees it: every number a float64 (the
/// YAML goes through JSON), no origins.
fn from_parsed(v: &crate::values::tree::V) -> Tv {
    super::values::helm_tv(v, false)
}

/// `sigs.k8s.io/yaml.Unmarshal` of `text` into a `map[string]any`.
fn yaml_map(text: &str) -> Result<GoMap, String> {
    if text.trim().is_empty() {
        return Ok(GoMap::new());
    }
    let origin = |_: &str, _: crate::yaml::Pos| crate::values::tree::Source::Helm { why: String::new() };
    let m = crate::values::tree::load_tree(text, "fromYaml", &origin).map_err(|e| e.to_string())?;
    Ok(m.iter().map(|(k, v)| (k.clone(), from_parsed(v))).collect())
}

/// funcs.go `fromYAML`: a failure is the map `{Error: message}`.
fn from_yaml(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let m = yaml_map(text(&args[0])).unwrap_or_else(|e| std::iter::once(("Error".to_string(), Tv::str(&e))).collect());
    Ok(Tv::new(Val::Map(m)))
}

/// funcs.go `fromYAMLArray`: a failure is the list `[message]`.
fn from_yaml_array(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let src = text(&args[0]);
    if src.trim().is_empty() {
        return Ok(Tv::new(Val::List(Vec::new())));
    }
    let nested: String = std::iter::once("v:\n".to_string()).chain(src.lines().map(|l| format!("  {l}\n"))).collect();
    let list = yaml_map(&nested).and_then(|m| match m.get("v").map(|v| v.val) {
        Some(Val::List(l)) => Ok(l),
        Some(Val::Nil) | None => Ok(Vec::new()),
        Some(_) => Err("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal object into Go value of type []interface {}".to_string()),
    });
    Ok(Tv::new(Val::List(list.unwrap_or_else(|e| vec![Tv::str(&e)]))))
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// funcs.go `fromJSON`: `json.Unmarshal` into a `map[string]any`; a failure is `{Error: message}`.
fn from_json(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let error = |e: String| Tv::new(Val::Map(std::iter::once(("Error".to_string(), Tv::str(&e))).collect()));
    Ok(match crate::go::json_decode::unmarshal(text(&args[0])) {
        Ok(v @ serde_json::Value::Object(_)) => from_json_value(&v),
        Ok(serde_json::Value::Null) => Tv::new(Val::Map(GoMap::new())),
        Ok(other) => error(format!("json: cannot unmarshal {} into Go value of type map[string]interface {{}}", json_kind(&other))),
        Err(e) => error(e.unmarshal_text()),
    })
}

/// funcs.go `fromJSONArray`: a failure is the list `[message]`.
fn from_json_array(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(match crate::go::json_decode::unmarshal(text(&args[0])) {
        Ok(v @ serde_json::Value::Array(_)) => from_json_value(&v),
        Ok(serde_json::Value::Null) => Tv::new(Val::List(Vec::new())),
        Ok(other) => Tv::new(Val::List(vec![Tv::str(&format!("json: cannot unmarshal {} into Go value of type []interface {{}}", json_kind(&other)))])),
        Err(e) => Tv::new(Val::List(vec![Tv::str(&e.unmarshal_text())])),
    })
}

/// engine.go `includeFun`: the named template run with `data` as dot.
fn include(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let out = (c.render)(RenderRequest::Named { name: text(&args[0]), data: &args[1] }).map_err(render_failure)?;
    Ok(Tv::str(&out))
}

/// engine.go `tplFun`: the text parsed into a copy of the running set (as
/// `gotpl`) and run with `vals` as dot; `<no value>` removed.
fn tpl(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let src = text(&args[0]);
    match (c.render)(RenderRequest::Text { text: src, data: &args[1] }) {
        Ok(out) => Ok(Tv::str(&out.replace("<no value>", ""))),
        Err(TmplError::Parse { go, .. }) => Err(FnError::Go(format!("cannot parse template {}: {go}", crate::go::quote::quote(src)))),
        Err(TmplError::Exec { go, .. }) => Err(FnError::Go(format!("error during tpl function execution for {}: {go}", crate::go::quote::quote(src)))),
        Err(other) => Err(render_failure(other)),
    }
}

/// engine.go `required`: nil or "" fails with the message.
fn required(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let missing = match &args[1].val {
        Val::Nil => true,
        Val::Str(s) => s.is_empty(),
        _ => false,
    };
    if missing {
        return Err(FnError::Go(format!("{WARN_START}{}{WARN_END}", text(&args[0]))));
    }
    Ok(args[1].clone())
}

/// lookup_func.go: the host answers; the result is the object's JSON as
/// client-go decodes it into `map[string]interface{}` (apimachinery's
/// json.Unmarshal: integers `int64`, other numbers `float64`). It is a
/// render fact named after the call, so blame says a field came from the
/// cluster.
fn lookup(c: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    let [api_version, kind, namespace, name] = [0, 1, 2, 3].map(|i| text(&args[i]));
    let answer = c.host.lookup(api_version, kind, namespace, name).map_err(FnError::Go)?;
    let name = format!("(lookup {api_version:?} {kind:?} {namespace:?} {name:?})");
    Ok(super::values::fact(unstructured(&answer), &name))
}

fn unstructured(v: &serde_json::Value) -> Tv {
    use serde_json::Value;
    Tv::new(match v {
        Value::Null => Val::Nil,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Val::Int64(i),
            None => Val::Float(crate::go::json::go_float64(n)),
        },
        Value::String(s) => Val::Str(s.clone()),
        Value::Array(a) => Val::List(a.iter().map(unstructured).collect()),
        Value::Object(o) => Val::Map(o.iter().map(|(k, v)| (k.clone(), unstructured(v))).collect()),
    })
}

/// engine.go `fail`.
fn fail(_: &Call<'_>, args: Vec<Tv>) -> Result<Tv, FnError> {
    Err(FnError::Go(format!("{WARN_START}{}{WARN_END}", text(&args[0]))))
}
