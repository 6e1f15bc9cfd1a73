//! sprig: dicts (dict.go), `merge`/`mergeOverwrite` with mergo 0.3's
//! semantics for `map[string]interface{}` (imdario/mergo merge.go
//! `deepMerge`, the `reflect.Map` case), and `dig`.
//!
//! Go's maps are references ([`GoMap`]): `set`, `unset`, `merge` and
//! `mergeOverwrite` change the map they are given and return it, so every
//! variable, list item or map entry holding it sees the change; `get`,
//! `pluck`, `values` and `dig` hand out the maps they find, not copies; a
//! map `merge` copies into a missing key is then shared by both maps
//! (mergo's `dst.SetMapIndex(key, srcElement)`).

use super::conv::{made, strval, type_of};
use super::defaults::empty;
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{GoMap, Tv, Val};

const ANY: Param = Param::Any;
const MAP: Param = Param::Map;
const STR: Param = Param::String;

pub(super) fn register(m: &mut FuncMap) {
    m.add("dict", Sig::variadic(&[], ANY), Derive::Passed, dict);
    m.add("get", Sig::fixed(&[MAP, STR]), Derive::Passed, |_, a| Ok(map_of(&a[0]).get(str_of(&a[1])).unwrap_or_else(|| Tv::str(""))));
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

/// A `map[string]interface{}` parameter (the executor has converted it;
/// anything else reads as a new empty map).
fn map_of(v: &Tv) -> GoMap {
    match &v.val {
        Val::Map(m) => m.clone(),
        _ => GoMap::new(),
    }
}

fn str_of(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

/// `dict k1 v1 k2 v2 ...`: keys by `strval`; a key without a value maps to "".
fn dict(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let m = GoMap::new();
    let mut it = a.into_iter();
    while let Some(k) = it.next() {
        let key = strval(&k)?;
        m.insert(key, it.next().unwrap_or_else(|| Tv::str("")));
    }
    Ok(made(Val::Map(m)))
}

/// dict.go `set`: `d[key] = value; return d` (the same map, changed).
fn set(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut a = a.into_iter();
    let (Some(d), Some(k), Some(v)) = (a.next(), a.next(), a.next()) else { return Err(FnError::Exec("set: three arguments".into())) };
    map_of(&d).insert(str_of(&k).to_string(), v);
    Ok(d)
}

/// dict.go `unset`: `delete(d, key); return d`.
fn unset(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut a = a.into_iter();
    let (Some(d), Some(k)) = (a.next(), a.next()) else { return Err(FnError::Exec("unset: two arguments".into())) };
    map_of(&d).remove(str_of(&k));
    Ok(d)
}

fn pluck(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let key = str_of(&a[0]);
    Ok(made(Val::List(a[1..].iter().filter_map(|d| map_of(d).get(key)).collect())))
}

/// `keys`: a `[]string` in Go's map order, which is random; releasex gives
/// them sorted (one of the orders Go may give), map after map.
fn keys(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let secret = a.iter().any(|d| d.secret);
    let names = a.iter().flat_map(|d| map_of(d).keys().into_iter().map(|k| {
        let mut name = Tv::str(&k);
        name.secret = secret;
        name
    })).collect();
    Ok(made(Val::TypedList("string", names)))
}

/// `values`: the map's values, in sorted-key order (Go's is random).
fn values(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(made(Val::List(map_of(&a[0]).values())))
}

fn pick_or_omit(a: Vec<Tv>, pick: bool) -> Result<Tv, FnError> {
    let names: Vec<&str> = a[1..].iter().map(str_of).collect();
    let m = map_of(&a[0]).entries().into_iter().filter(|(k, _)| names.contains(&k.as_str()) == pick).collect();
    let mut picked = Tv::new(Val::Map(m));
    picked.secret = a[0].secret;
    Ok(picked)
}

/// `merge DST SRC...` / `mergeOverwrite DST SRC...`: `mergo.Merge(&dst,
/// src)` (with `WithOverride`) for each source in turn, into DST itself;
/// the result is DST.
fn merge(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let overwrite = c.name.contains("Overwrite");
    let mut a = a.into_iter();
    let dst = a.next().unwrap_or_else(|| Tv::new(Val::Nil));
    let dst_map = map_of(&dst);
    for src in a {
        mergo_map(&dst_map, &map_of(&src), overwrite, &mut Vec::new())?;
    }
    // A nil DST: mergo makes a new map (`dst.Set(reflect.MakeMap(...))`).
    Ok(if matches!(dst.val, Val::Map(_)) { dst } else { Tv { val: Val::Map(dst_map), ..dst } })
}

/// mergo's `deepMerge` for two `map[string]interface{}`, key by key, into `dst` in place:
/// - a nil source value is copied only with overwrite;
/// - a map source over a map destination merges into it (recursively, the
///   destination's map changed in place);
/// - a slice source replaces the destination when overwriting;
/// - a map source never replaces a non-empty destination value, even with
///   overwrite, nor a slice one without (mergo's `continue` after the
///   element switch);
/// - anything else replaces the destination when overwriting, or when the
///   destination is missing or empty (mergo's `isEmptyValue`); a map so
///   copied is the source's own map, shared from then on.
///
/// `path`: the (destination, source) map pairs being merged. mergo's
/// visited check needs an addressable destination, which a map's value
/// never is, so merging a map that holds itself into itself recurses until
/// Go's stack overflows; releasex stops with a message there.
fn mergo_map(dst: &GoMap, src: &GoMap, overwrite: bool, path: &mut Vec<(usize, usize)>) -> Result<(), FnError> {
    let pair = (dst.id(), src.id());
    if path.contains(&pair) {
        return Err(FnError::Unsupported("merging a map that contains itself (mergo recurses into it until the goroutine stack overflows)".into()));
    }
    path.push(pair);
    for (key, s) in src.entries() {
        if matches!(s.val, Val::Nil) {
            if overwrite {
                dst.insert(key, s);
            }
            continue;
        }
        let src_is_map = matches!(s.val, Val::Map(_) | Val::StrMap(_));
        let src_is_slice = matches!(s.val, Val::List(_) | Val::TypedList(..) | Val::Bytes(_));
        if let (Some(Tv { val: Val::Map(d), .. }), Val::Map(sm)) = (dst.get(&key), &s.val) {
            mergo_map(&d, sm, overwrite, path)?;
        }
        // A slice source, when overwriting, is set in mergo's slice case
        // before the `continue` below (`dst.SetMapIndex(key, dstSlice)`
        // with `dstSlice = srcSlice`).
        if src_is_slice && overwrite {
            dst.insert(key, s);
            continue;
        }
        let dst_full = dst.get(&key).is_some_and(|d| !empty(&d));
        if dst_full && (src_is_map || src_is_slice) {
            continue;
        }
        if overwrite || !dst_full {
            dst.insert(key, s);
        }
    }
    path.pop();
    Ok(())
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
            return Ok(step);
        }
        dict = assert_map(&step)?;
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

    /// A fresh copy, since merge changes its destination.
    fn fresh(v: &Tv) -> Tv {
        let Val::Map(m) = &v.val else { panic!("not a map") };
        Tv::new(Val::Map(m.deep_copy().unwrap()))
    }

    #[test]
    fn merge_fills_only_empty_keys_and_overwrite_replaces_scalars_but_not_with_maps() {
        let dst = map(vec![("a", Tv::str("x")), ("e", Tv::str("")), ("n", map(vec![("k", Tv::new(Val::Int(1)))]))]);
        let src = map(vec![("a", Tv::str("y")), ("e", Tv::str("z")), ("n", map(vec![("k", Tv::new(Val::Int(2))), ("j", Tv::new(Val::Int(3)))])), ("new", Tv::new(Val::Bool(true)))]);
        let at = |m: &GoMap, k: &str| m.get(k).unwrap().val;
        let Val::Map(m) = call("merge", vec![fresh(&dst), src.clone()]).unwrap().val else { panic!() };
        assert!(matches!(at(&m, "a"), Val::Str(ref s) if s == "x"));
        assert!(matches!(at(&m, "e"), Val::Str(ref s) if s == "z"));
        let Val::Map(n) = at(&m, "n") else { panic!() };
        assert!(matches!(at(&n, "k"), Val::Int(1)) && matches!(at(&n, "j"), Val::Int(3)));
        let Val::Map(m) = call("mergeOverwrite", vec![fresh(&dst), src]).unwrap().val else { panic!() };
        assert!(matches!(at(&m, "a"), Val::Str(ref s) if s == "y"));
        let Val::Map(n) = at(&m, "n") else { panic!() };
        assert!(matches!(at(&n, "k"), Val::Int(2)));
        let over = call("mergeOverwrite", vec![map(vec![("a", Tv::str("x"))]), map(vec![("a", map(vec![("b", Tv::str("c"))]))])]).unwrap();
        let Val::Map(m) = over.val else { panic!() };
        assert!(matches!(at(&m, "a"), Val::Str(_)), "a map never replaces a non-empty scalar");
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
