//! helmfile's own merge rules on the provenance tree: `maputil.MergeMaps`
//! with its three array strategies, mergo's `WithOverride` merge (used for
//! environment values files and secrets), and `maputil.Set` / `ParseKey` /
//! `typedVal` for `--state-values-set(-string)`.
//! helmfile: pkg/maputil/maputil.go, pkg/config/config.go (ecf604d)

use crate::keypath::Path;
use crate::values::tree::{EventKind, Kind, Origin, Recorder, V, VMap};

/// `maputil.ArrayMergeStrategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayStrategy {
    /// Element-wise only when the override list holds a null; else replace.
    Sparse,
    Replace,
    /// Always element-wise.
    Merge,
}

impl ArrayStrategy {
    pub fn parse(word: &str) -> Option<ArrayStrategy> {
        match word {
            "sparse" => Some(ArrayStrategy::Sparse),
            "replace" => Some(ArrayStrategy::Replace),
            "merge" => Some(ArrayStrategy::Merge),
            _ => None,
        }
    }
}

/// `MergeMaps(base, over)`: a null in `over` never removes or replaces a key
/// of `base` (it only adds the key when absent); maps merge; lists follow
/// `strategy`; anything else from `over` replaces.
pub fn merge_maps(base: &VMap, over: &VMap, strategy: ArrayStrategy, at: &Path, rec: &mut Recorder) -> VMap {
    let mut out = base.clone();
    for (k, v) in over {
        let here = at.key(k);
        if v.is_null() {
            if !out.contains_key(k) {
                out.insert(k.clone(), v.clone());
            }
            continue;
        }
        let merged = match (out.get(k).map(|b| &b.kind), &v.kind) {
            (Some(Kind::Map(bm)), Kind::Map(om)) => Some(V::new(Kind::Map(merge_maps(bm, om, strategy, &here, rec)), v.origin.clone())),
            (Some(Kind::List(bl)), Kind::List(ol)) => Some(V::new(Kind::List(merge_slices(bl, ol, strategy, &here, rec)), v.origin.clone())),
            _ => None,
        };
        let new = match merged {
            Some(m) => m,
            None => {
                if let Some(old) = out.get(k) {
                    lose_leaves(old, &here, &v.origin, rec);
                }
                v.clone()
            }
        };
        out.insert(k.clone(), new);
    }
    out
}

/// `mergeSlices`.
fn merge_slices(base: &[V], over: &[V], strategy: ArrayStrategy, at: &Path, rec: &mut Recorder) -> Vec<V> {
    let element_wise = match strategy {
        ArrayStrategy::Replace => false,
        ArrayStrategy::Sparse => over.iter().any(V::is_null),
        ArrayStrategy::Merge => true,
    };
    if !element_wise {
        let by = over.first().map(|v| v.origin.clone());
        for (i, old) in base.iter().enumerate() {
            if let Some(by) = &by {
                lose_leaves(old, &at.index(i), by, rec);
            }
        }
        return over.to_vec();
    }
    let len = base.len().max(over.len());
    let mut out: Vec<V> = Vec::with_capacity(len);
    for i in 0..len {
        let here = at.index(i);
        let b = base.get(i);
        let o = over.get(i);
        let v = match (b, o) {
            (Some(b), None) => b.clone(),
            (Some(b), Some(o)) if o.is_null() => b.clone(),
            (None, Some(o)) => o.clone(),
            (Some(b), Some(o)) => match (&b.kind, &o.kind) {
                (Kind::Map(bm), Kind::Map(om)) => V::new(Kind::Map(merge_maps(bm, om, strategy, &here, rec)), o.origin.clone()),
                _ => {
                    lose_leaves(b, &here, &o.origin, rec);
                    o.clone()
                }
            },
            (None, None) => continue,
        };
        out.push(v);
    }
    out
}

/// mergo `Merge(&dst, src, WithOverride)` on `map[string]any` (environment
/// values files, secrets, root `values:`): maps merge in place, everything
/// else from `src` replaces — a null too (mergo sets the nil), lists
/// replace whole (an empty list too).
pub fn mergo_override(dst: &mut VMap, src: &VMap, at: &Path, rec: &mut Recorder) {
    for (k, v) in src {
        let here = at.key(k);
        if let (Some(Kind::Map(dm)), Kind::Map(sm)) = (dst.get_mut(k).map(|d| &mut d.kind), &v.kind) {
            mergo_override(dm, sm, &here, rec);
            continue;
        }
        if let Some(old) = dst.get(k) {
            lose_leaves(old, &here, &v.origin, rec);
        }
        dst.insert(k.clone(), v.clone());
    }
}

/// Records every leaf of `old` as overridden by `by`.
fn lose_leaves(old: &V, at: &Path, by: &Origin, rec: &mut Recorder) {
    match &old.kind {
        Kind::Map(m) if !m.is_empty() => {
            for (k, v) in m {
                lose_leaves(v, &at.key(k), by, rec);
            }
        }
        _ => rec.lost(at.clone(), old.clone(), EventKind::Overridden, Some(by.clone())),
    }
}

/// `ParseKey`: splits on `.`; a backslash escapes the next character.
pub fn parse_key(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut part = String::new();
    let mut escaped = false;
    for c in key.chars() {
        if !escaped && c == '\\' {
            escaped = true;
            continue;
        }
        let split = c == '.' && !escaped;
        escaped = false;
        if split {
            out.push(std::mem::take(&mut part));
        } else {
            part.push(c);
        }
    }
    if !part.is_empty() {
        out.push(part);
    }
    out
}

/// A value as `typedVal` reads it (`string_mode`: `--state-values-set-string`).
pub fn typed_val(val: &str, string_mode: bool) -> Kind {
    if string_mode {
        return Kind::Str(val.to_string());
    }
    if val.eq_ignore_ascii_case("true") {
        return Kind::Bool(true);
    }
    if val.eq_ignore_ascii_case("false") {
        return Kind::Bool(false);
    }
    if val.eq_ignore_ascii_case("null") {
        return Kind::Null;
    }
    if val == "0" {
        return Kind::Int(0);
    }
    // A leading zero keeps the text (`05` stays a string); Go's ParseInt
    // accepts a sign.
    if !val.is_empty()
        && !val.starts_with('0')
        && let Ok(i) = go_parse_int(val)
    {
        return Kind::Int(i);
    }
    Kind::Str(val.to_string())
}

/// `strconv.ParseInt(s, 10, 64)`: optional sign, ASCII digits only.
fn go_parse_int(s: &str) -> Result<i64, ()> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    s.parse::<i64>().map_err(|_| ())
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    #[error("--state-values-set {expr:?}: no `=` (helmfile itself panics here)")]
    NoValue { expr: String },
    #[error("--state-values-set {expr:?}: empty key")]
    EmptyKey { expr: String },
    #[error("--state-values-set {expr:?}: {segment:?} is a {found}, not a {wanted} (helmfile itself panics here)")]
    Type { expr: String, segment: String, found: &'static str, wanted: &'static str },
}

/// A key segment as `getCursor` reads it: `name[i]` or a plain key (with
/// any bracket turned into a space, as helmfile does).
enum Cursor {
    Key(String),
    Indexed(String, usize),
}

fn cursor(seg: &str) -> Cursor {
    let spaced = seg.replace(['[', ']'], " ");
    // fmt.Sscanf("%s %d"): a word, then an integer after spaces.
    let mut words = spaced.split_whitespace();
    if let (Some(k), Some(n)) = (words.next(), words.next())
        && let Ok(i) = go_parse_int(n)
        && let Ok(i) = usize::try_from(i)
    {
        return Cursor::Indexed(k.to_string(), i);
    }
    Cursor::Key(spaced)
}

fn kind_word(k: &Kind) -> &'static str {
    match k {
        Kind::Map(_) => "map",
        Kind::List(_) => "list",
        _ => "scalar",
    }
}

/// `maputil.Set(m, key, value, stringBool)`, each node created or written
/// getting `origin`.
pub fn set(m: &mut VMap, key: &[String], value: &str, string_mode: bool, origin: &Origin, expr: &str, rec: &mut Recorder) -> Result<(), SetError> {
    set_at(m, key, typed_val(value, string_mode), origin, expr, &Path::root(), rec)
}

fn set_at(m: &mut VMap, key: &[String], value: Kind, origin: &Origin, expr: &str, at: &Path, rec: &mut Recorder) -> Result<(), SetError> {
    let Some((first, rest)) = key.split_first() else { return Err(SetError::EmptyKey { expr: expr.into() }) };
    let type_err = |found: &Kind, wanted| SetError::Type { expr: expr.into(), segment: first.clone(), found: kind_word(found), wanted };
    match cursor(first) {
        Cursor::Key(k) => {
            let here = at.key(&k);
            if rest.is_empty() {
                if let Some(old) = m.get(&k) {
                    lose_leaves(old, &here, origin, rec);
                }
                m.insert(k, V::new(value, origin.clone()));
                return Ok(());
            }
            let slot = m.entry(k).or_insert_with(|| V::new(Kind::Map(VMap::default()), origin.clone()));
            match &mut slot.kind {
                Kind::Map(sub) => set_at(sub, rest, value, origin, expr, &here, rec),
                other => Err(type_err(other, "map")),
            }
        }
        Cursor::Indexed(k, i) => {
            let here = at.key(&k).index(i);
            let existed = m.contains_key(&k);
            let slot = m.entry(k).or_insert_with(|| V::new(Kind::List(vec![null(origin); i + 1]), origin.clone()));
            let Kind::List(list) = &mut slot.kind else { return Err(type_err(&slot.kind, "list")) };
            if rest.is_empty() {
                // `set` stores the grown list back.
                if list.len() <= i {
                    list.resize(i + 1, null(origin));
                }
                if !list[i].is_null() {
                    lose_leaves(&list[i], &here, origin, rec);
                }
                list[i] = V::new(value, origin.clone());
                return Ok(());
            }
            // `getMap` grows a copy of a short existing list and never stores
            // it back: the write is lost (a helmfile quirk, kept).
            if existed && list.len() <= i {
                return Ok(());
            }
            if list[i].is_null() {
                list[i] = V::new(Kind::Map(VMap::default()), origin.clone());
            }
            match &mut list[i].kind {
                Kind::Map(sub) => set_at(sub, rest, value, origin, expr, &here, rec),
                other => Err(type_err(other, "map")),
            }
        }
    }
}

fn null(origin: &Origin) -> V {
    V::new(Kind::Null, origin.clone())
}

/// The `key=value` pairs of one `--state-values-set` flag: split on every
/// `,`, then on the first `=`.
pub fn split_set(expr: &str) -> Result<Vec<(String, String)>, SetError> {
    expr.split(',')
        .map(|op| op.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).ok_or_else(|| SetError::NoValue { expr: expr.into() }))
        .collect()
}

/// The pairs of one `--state-values-set-string` flag, as helmfile's regex
/// `(?:,|^)([^\s=]+)=(['"][^'"]*['"]|[^,]+)` finds them (non-overlapping,
/// left to right; quotes are kept in the value).
pub fn split_set_string(expr: &str) -> Vec<(String, String)> {
    let b: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some((end, k, v)) = match_at(&b, i) {
            out.push((k, v));
            // An empty match cannot happen (key and value are non-empty).
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// One match of the set-string regex starting at `i` (leftmost-first, as RE2).
fn match_at(b: &[char], i: usize) -> Option<(usize, String, String)> {
    let start = if i == 0 {
        0
    } else if b[i] == ',' {
        i + 1
    } else {
        return None;
    };
    // Go's RE2 prefers `,` over `^` only by position; at 0 with a leading comma
    // `^` is tried first and fails on `,` as a key char, then `,` matches.
    let try_from = |s: usize| -> Option<(usize, String, String)> {
        let mut j = s;
        while j < b.len() && !b[j].is_whitespace() && b[j] != '=' {
            j += 1;
        }
        if j == s || j >= b.len() || b[j] != '=' {
            return None;
        }
        let key: String = b[s..j].iter().collect();
        let vs = j + 1;
        // Quoted alternative first (leftmost-first alternation).
        if vs < b.len() && (b[vs] == '\'' || b[vs] == '"') {
            let mut e = vs + 1;
            while e < b.len() && b[e] != '\'' && b[e] != '"' {
                e += 1;
            }
            if e < b.len() {
                return Some((e + 1, key, b[vs..=e].iter().collect()));
            }
        }
        let mut e = vs;
        while e < b.len() && b[e] != ',' {
            e += 1;
        }
        (e > vs).then(|| (e, key, b[vs..e].iter().collect()))
    };
    try_from(start).or_else(|| if i == 0 && b.first() == Some(&',') { try_from(1) } else { None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::{Source, map_to_json};
    use serde_json::json;

    fn o() -> Origin {
        Origin::new(Source::Helm { why: "t".into() })
    }

    fn tree(v: serde_json::Value) -> VMap {
        crate::values::tree::map_from_json(v.as_object().unwrap(), false, &o())
    }

    #[test]
    fn a_null_never_deletes_and_sparse_lists_merge_by_index() {
        let mut rec = Recorder::default();
        let out = merge_maps(&tree(json!({"a": 1, "l": [1, 2, 3]})), &tree(json!({"a": null, "b": null, "l": [null, 9]})), ArrayStrategy::Sparse, &Path::root(), &mut rec);
        assert_eq!(serde_json::Value::Object(map_to_json(&out)), json!({"a": 1, "l": [1, 9, 3], "b": null}));
    }

    #[test]
    fn mergo_override_lets_a_null_replace() {
        let mut d = tree(json!({"a": {"x": 1}, "l": [1]}));
        mergo_override(&mut d, &tree(json!({"a": null, "l": []})), &Path::root(), &mut Recorder::default());
        assert_eq!(serde_json::Value::Object(map_to_json(&d)), json!({"a": null, "l": []}));
    }

    #[test]
    fn set_string_regex_keeps_quotes_and_commas_inside_them() {
        assert_eq!(split_set_string("a=b,c='x,y'"), vec![("a".into(), "b".into()), ("c".into(), "'x,y'".into())]);
        assert_eq!(split_set("a=1,b=c=d").unwrap(), vec![("a".into(), "1".into()), ("b".into(), "c=d".into())]);
        assert!(split_set("a").is_err());
    }

    #[test]
    fn growing_a_list_through_a_map_segment_is_lost_as_in_helmfile() {
        let mut m = tree(json!({"l": [{"a": 1}]}));
        let key = parse_key("l[2].b");
        set(&mut m, &key, "x", false, &o(), "l[2].b=x", &mut Recorder::default()).unwrap();
        assert_eq!(serde_json::Value::Object(map_to_json(&m)), json!({"l": [{"a": 1}]}));
    }
}
