//! sprig: dicts (dict.go), `merge`/`mergeOverwrite` with mergo 0.3's
//! semantics for `map[string]interface{}` (imdario/mergo merge.go
//! `deepMerge`, the `reflect.Map` case), and `dig`.
//!
//! Go's maps are references: `set`, `unset` and `merge` change the map
//! they are given, and every variable holding it sees the change. A
//! template value here is a copy, so these functions return the changed
//! map, and a template that reads the map again afterwards through another
//! variable reads it unchanged (the executor's business, see the note).

use std::collections::BTreeMap;

use super::conv::{made, strval, type_of};
use super::defaults::empty;
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

const ANY: Param = Param::Any;
const MAP: Param = Param::Map;
const STR: Param = Param::String;

type GoMap = BTreeMap<String, Tv>;

pub(super) fn register(m: &mut FuncMap) {
    m.add("dict", Sig::variadic(&[], ANY), Derive::Passed, dict);
    m.add("get", Sig::fixed(&[MAP, STR]), Derive::Passed, |_, a| Ok(map_of(&a[0]).get(str_of(&a[1])).cloned().unwrap_or_else(|| Tv::str(""))));
    m.add("set", Sig::fixed(&[MAP, STR, ANY]), Derive::Passed, set);
    m.add("unset", Sig::fixed(&[MAP, STR]), Derive::Passed, unset);
    m.add("hasKey", Sig::fixed(&[MAP, STR]), Derive::Made, |_, a| Ok(made(Val::Bool(map_of(&a[0]).contains_key(str_of(&a[1]))))));
    m.add("pluck", Sig::variadic(&[STR], MAP), Derive::Passed, pluck);
    m.add("keys", Sig::variadic(&[], MAP), Derive::Passed, keys);
    m.add("pick", Sig::variadic(&[MAP], STR), Derive::Passed, |_, a| pick_or_omit(a, true));
    m.add("omit", Sig::variadic(&[MAP], STR), Derive::Passed, |_, a| pick_or_omit(a, false));
    m.add("values", Sig::fixed(&[MAP]), Derive::Passed, values);
    for name in ["merge", "mustMerge", "mergeOverwrite", "mustMergeOverwrite"] {
        m.add(name, Sig::variadic(&[MAP], MAP), Derive::Passed, merge);
    }
    m.add("dig", Sig::variadic(&[], ANY), Derive::Passed, dig);
}

/// A nil map reads as an empty one.
const NO_MAP: &GoMap = &BTreeMap::new();

/// A `map[string]interface{}` parameter (the executor has converted it; nil reads as empty).
fn map_of(v: &Tv) -> &GoMap {
    match &v.val {
        Val::Map(m) => m,
        _ => NO_MAP,
    }
}

fn str_of(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

/// The map out of a value, and the value's marks (origin, taint) to put back on the result.
fn into_map(mut v: Tv) -> (GoMap, Tv) {
    match std::mem::replace(&mut v.val, Val::Nil) {
        Val::Map(m) => (m, v),
        _ => (GoMap::new(), v),
    }
}

fn with_map(shell: Tv, m: GoMap) -> Tv {
    let mut shell = shell;
    shell.val = Val::Map(m);
    shell
}

/// `dict k1 v1 k2 v2 ...`: keys by `strval`; a key without a value maps to "".
fn dict(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut m = GoMap::new();
    let mut it = a.into_iter();
    while let Some(k) = it.next() {
        let key = strval(&k)?;
        m.insert(key, it.next().unwrap_or_else(|| Tv::str("")));
    }
    Ok(made(Val::Map(m)))
}

fn set(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut a = a.into_iter();
    let (Some(d), Some(k), Some(v)) = (a.next(), a.next(), a.next()) else { return Err(FnError::Exec("set: three arguments".into())) };
    let (mut m, shell) = into_map(d);
    m.insert(str_of(&k).to_string(), v);
    Ok(with_map(shell, m))
}

fn unset(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut a = a.into_iter();
    let (Some(d), Some(k)) = (a.next(), a.next()) else { return Err(FnError::Exec("unset: two arguments".into())) };
    let (mut m, shell) = into_map(d);
    m.remove(str_of(&k));
    Ok(with_map(shell, m))
}

fn pluck(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let key = str_of(&a[0]);
    Ok(made(Val::List(a[1..].iter().filter_map(|d| map_of(d).get(key).cloned()).collect())))
}

/// `keys`: a `[]string` in Go's map order, which is random; releasex gives
/// them sorted (one of the orders Go may give), map after map.
fn keys(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let secret = a.iter().any(|d| d.secret);
    let names = a.iter().flat_map(|d| map_of(d).keys().map(|k| {
        let mut name = Tv::str(k);
        name.secret = secret;
        name
    })).collect();
    Ok(made(Val::TypedList("string", names)))
}

/// `values`: the map's values, in sorted-key order (Go's is random).
fn values(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(made(Val::List(map_of(&a[0]).values().cloned().collect())))
}

fn pick_or_omit(a: Vec<Tv>, pick: bool) -> Result<Tv, FnError> {
    let names: Vec<&str> = a[1..].iter().map(str_of).collect();
    let m = map_of(&a[0]).iter().filter(|(k, _)| names.contains(&k.as_str()) == pick).map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut picked = Tv::new(Val::Map(m));
    picked.secret = a[0].secret;
    Ok(picked)
}

/// `merge DST SRC...` / `mergeOverwrite DST SRC...`: `mergo.Merge(&dst,
/// src)` (with `WithOverride`) for each source in turn, into DST.
fn merge(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let overwrite = c.name.contains("Overwrite");
    let mut a = a.into_iter();
    let (mut dst, shell) = into_map(a.next().unwrap_or_else(|| Tv::new(Val::Nil)));
    for src in a {
        mergo_map(&mut dst, map_of(&src), overwrite);
    }
    Ok(with_map(shell, dst))
}

/// mergo's `deepMerge` for two `map[string]interface{}`, key by key:
/// - a nil source value is copied only with overwrite;
/// - a map source over a map destination merges into it (recursively);
/// - a slice source replaces the destination when overwriting;
/// - a map source never replaces a non-empty destination value, even with
///   overwrite, nor a slice one without (mergo's `continue` after the
///   element switch);
/// - anything else replaces the destination when overwriting, or when the
///   destination is missing or empty (mergo's `isEmptyValue`).
fn mergo_map(dst: &mut GoMap, src: &GoMap, overwrite: bool) {
    for (key, s) in src {
        if matches!(s.val, Val::Nil) {
            if overwrite {
                dst.insert(key.clone(), s.clone());
            }
            continue;
        }
        let src_is_map = matches!(s.val, Val::Map(_) | Val::StrMap(_));
        let src_is_slice = matches!(s.val, Val::List(_) | Val::TypedList(..) | Val::Bytes(_));
        if let (Some(Tv { val: Val::Map(d), .. }), Val::Map(sm)) = (dst.get_mut(key), &s.val) {
            mergo_map(d, sm, overwrite);
        }
        // A slice source, when overwriting, is set in mergo's slice case
        // before the `continue` below (`dst.SetMapIndex(key, dstSlice)`
        // with `dstSlice = srcSlice`).
        if src_is_slice && overwrite {
            dst.insert(key.clone(), s.clone());
            continue;
        }
        let d = dst.get(key);
        let dst_full = d.is_some_and(|d| !empty(d));
        if dst_full && (src_is_map || src_is_slice) {
            continue;
        }
        if overwrite || !dst_full {
            dst.insert(key.clone(), s.clone());
        }
    }
}

/// `dig KEYS... DEFAULT DICT`: the value at the key path, DEFAULT when a
/// key is missing. sprig type-asserts without checking: a non-string key
/// or a non-map on the way panics with Go's interface conversion message.
fn dig(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    if a.len() < 3 {
        return Err(FnError::Go("dig needs at least three arguments".into()));
    }
    let n = a.len();
    let assert_map = |v: &Tv| -> Result<GoMap, FnError> {
        match &v.val {
            Val::Map(m) => Ok(m.clone()),
            other => Err(FnError::Go(format!("interface conversion: interface {{}} is {}, not map[string]interface {{}}", conversion_name(other)))),
        }
    };
    let mut dict = assert_map(&a[n - 1])?;
    let default = &a[n - 2];
    let mut keys = Vec::new();
    for k in &a[..n - 2] {
        match &k.val {
            Val::Str(s) => keys.push(s.clone()),
            other => return Err(FnError::Go(format!("interface conversion: interface {{}} is {}, not string", conversion_name(other)))),
        }
    }
    for (i, k) in keys.iter().enumerate() {
        let Some(step) = dict.get(k) else { return Ok(default.clone()) };
        if i + 1 == keys.len() {
            return Ok(step.clone());
        }
        dict = assert_map(step)?;
    }
    Ok(default.clone())
}

/// The type in a Go `interface conversion` panic (`nil` for a nil interface).
fn conversion_name(v: &Val) -> String {
    match v {
        Val::Nil => "nil".into(),
        other => type_of(other),
    }
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    fn map(entries: Vec<(&str, Tv)>) -> Tv {
        Tv::new(Val::Map(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
    }

    #[test]
    fn merge_fills_only_empty_keys_and_overwrite_replaces_scalars_but_not_with_maps() {
        let dst = map(vec![("a", Tv::str("x")), ("e", Tv::str("")), ("n", map(vec![("k", Tv::new(Val::Int(1)))]))]);
        let src = map(vec![("a", Tv::str("y")), ("e", Tv::str("z")), ("n", map(vec![("k", Tv::new(Val::Int(2))), ("j", Tv::new(Val::Int(3)))])), ("new", Tv::new(Val::Bool(true)))]);
        let Val::Map(m) = call("merge", vec![dst.clone(), src.clone()]).unwrap().val else { panic!() };
        assert!(matches!(m["a"].val, Val::Str(ref s) if s == "x"));
        assert!(matches!(m["e"].val, Val::Str(ref s) if s == "z"));
        let Val::Map(n) = &m["n"].val else { panic!() };
        assert!(matches!(n["k"].val, Val::Int(1)) && matches!(n["j"].val, Val::Int(3)));
        let Val::Map(m) = call("mergeOverwrite", vec![dst, src]).unwrap().val else { panic!() };
        assert!(matches!(m["a"].val, Val::Str(ref s) if s == "y"));
        let Val::Map(n) = &m["n"].val else { panic!() };
        assert!(matches!(n["k"].val, Val::Int(2)));
        let over = call("mergeOverwrite", vec![map(vec![("a", Tv::str("x"))]), map(vec![("a", map(vec![("b", Tv::str("c"))]))])]).unwrap();
        let Val::Map(m) = over.val else { panic!() };
        assert!(matches!(m["a"].val, Val::Str(_)), "a map never replaces a non-empty scalar");
    }

    #[test]
    fn dig_walks_keys_and_panics_as_sprig_on_a_non_map() {
        let d = map(vec![("a", map(vec![("b", Tv::str("v"))]))]);
        let r = call("dig", vec![Tv::str("a"), Tv::str("b"), Tv::str("def"), d.clone()]).unwrap();
        assert!(matches!(r.val, Val::Str(ref s) if s == "v"));
        let r = call("dig", vec![Tv::str("a"), Tv::str("x"), Tv::str("def"), d.clone()]).unwrap();
        assert!(matches!(r.val, Val::Str(ref s) if s == "def"));
        let e = call("dig", vec![Tv::str("a"), Tv::str("b"), Tv::str("c"), Tv::str("def"), d]).unwrap_err();
        assert_eq!(e, FnError::Go("interface conversion: interface {} is string, not map[string]interface {}".into()));
    }
}
