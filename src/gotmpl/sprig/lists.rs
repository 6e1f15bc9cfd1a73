//! sprig: lists (list.go). Each function accepts any slice kind, as sprig's
//! reflect loops do, and returns a new `[]interface{}`; the plain forms
//! panic where the `must` forms return the error, which text/template
//! reports alike (`error calling first: Cannot find first on type string`).

use super::conv::{deep_equal, made, reflect_kind, slice_items, to_int64};
use super::defaults::passed_list;
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

const ANY: Param = Param::Any;

pub(super) fn register(m: &mut FuncMap) {
    m.add("list", Sig::variadic(&[], ANY), Derive::Passed, |_, a| Ok(made(Val::List(a))));
    m.add("tuple", Sig::variadic(&[], ANY), Derive::Passed, |_, a| Ok(made(Val::List(a))));
    for name in ["append", "push", "mustAppend", "mustPush", "prepend", "mustPrepend"] {
        m.add(name, Sig::fixed(&[ANY, ANY]), Derive::Passed, push);
    }
    for name in ["first", "mustFirst", "last", "mustLast"] {
        m.add(name, Sig::fixed(&[ANY]), Derive::Passed, first_or_last);
    }
    for name in ["rest", "mustRest", "initial", "mustInitial", "reverse", "mustReverse", "uniq", "mustUniq"] {
        m.add(name, Sig::fixed(&[ANY]), Derive::Passed, reshape);
    }
    m.add("without", Sig::variadic(&[ANY], ANY), Derive::Passed, without);
    m.add("mustWithout", Sig::variadic(&[ANY], ANY), Derive::Passed, without);
    m.add("has", Sig::fixed(&[ANY, ANY]), Derive::Made, has);
    m.add("mustHas", Sig::fixed(&[ANY, ANY]), Derive::Made, has);
    m.add("slice", Sig::variadic(&[ANY], ANY), Derive::Passed, slice);
    m.add("mustSlice", Sig::variadic(&[ANY], ANY), Derive::Passed, slice);
    m.add("chunk", Sig::fixed(&[Param::Int, ANY]), Derive::Passed, chunk);
    m.add("mustChunk", Sig::fixed(&[Param::Int, ANY]), Derive::Passed, chunk);
    m.add("concat", Sig::variadic(&[], ANY), Derive::Passed, concat);
}

/// The function's own name without `must` (`mustFirst` words its errors as `first`).
fn base_name<'n>(c: &Call<'n>) -> &'n str {
    match c.name.strip_prefix("must") {
        Some(rest) => match rest {
            "Append" | "Push" => "push",
            "Prepend" => "prepend",
            "First" => "first",
            "Last" => "last",
            "Rest" => "rest",
            "Initial" => "initial",
            "Reverse" => "reverse",
            "Uniq" => "uniq",
            "Without" => "without",
            "Has" => "has",
            _ => c.name,
        },
        None if c.name == "append" => "push",
        None => c.name,
    }
}

/// The list argument's items, or sprig's `Cannot VERB on type KIND` error.
fn items_or(c: &Call, v: &Tv, message: impl Fn(&str) -> String) -> Result<Vec<Tv>, FnError> {
    let kind = reflect_kind(v)?;
    slice_items(v).ok_or_else(|| {
        let _ = c;
        FnError::Go(message(kind))
    })
}

fn push(c: &Call, mut a: Vec<Tv>) -> Result<Tv, FnError> {
    let value = a.pop().unwrap_or_else(|| Tv::new(Val::Nil));
    let list = &a[0];
    let prepend = base_name(c) == "prepend";
    let verb = if prepend { "prepend" } else { "push" };
    let mut items = items_or(c, list, |k| format!("Cannot {verb} on type {k}"))?;
    if prepend {
        items.insert(0, value);
    } else {
        items.push(value);
    }
    Ok(passed_list(list, items))
}

/// `first`/`last`: nil for an empty list.
fn first_or_last(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let name = base_name(c);
    let items = items_or(c, &a[0], |k| format!("Cannot find {name} on type {k}"))?;
    let picked = if name == "first" { items.into_iter().next() } else { items.into_iter().last() };
    Ok(picked.unwrap_or_else(|| Tv::new(Val::Nil)))
}

/// `rest`, `initial` (nil for an empty list), `reverse`, `uniq` (first of
/// each `reflect.DeepEqual` group).
fn reshape(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let name = base_name(c);
    let mut items = items_or(c, &a[0], |k| format!("Cannot find {name} on type {k}"))?;
    match name {
        "rest" if !items.is_empty() => {
            items.remove(0);
        }
        "initial" => {
            items.pop();
        }
        "reverse" => items.reverse(),
        "uniq" => {
            let mut unique: Vec<Tv> = Vec::new();
            for item in items {
                if !unique.iter().any(|u| deep_equal(&u.val, &item.val)) {
                    unique.push(item);
                }
            }
            items = unique;
        }
        _ => {}
    }
    Ok(passed_list(&a[0], items))
}

fn without(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let items = items_or(c, &a[0], |k| format!("Cannot find without on type {k}"))?;
    let omit = &a[1..];
    let kept = items.into_iter().filter(|i| !omit.iter().any(|o| deep_equal(&o.val, &i.val))).collect();
    Ok(passed_list(&a[0], kept))
}

/// `has NEEDLE HAYSTACK`: false for a nil haystack.
fn has(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    if matches!(a[1].val, Val::Nil) {
        return Ok(made(Val::Bool(false)));
    }
    let items = items_or(c, &a[1], |k| format!("Cannot find has on type {k}"))?;
    Ok(made(Val::Bool(items.iter().any(|i| deep_equal(&a[0].val, &i.val)))))
}

/// `slice LIST [START [END]]`: `reflect.Value.Slice`, so the result keeps
/// the list's own type (`[]string` stays `[]string`); nil for an empty list.
fn slice(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let list = &a[0];
    let kind = reflect_kind(list)?;
    let Some(items) = slice_items(list) else {
        return Err(FnError::Go(format!("list should be type of slice or array but {kind}")));
    };
    if items.is_empty() {
        return Ok(Tv::new(Val::Nil));
    }
    let start = a.get(1).map_or(0, to_int64);
    let end = a.get(2).map_or(items.len() as i64, to_int64);
    // reflect: `i < 0 || j < i || j > s.Cap()` (a slice's capacity is its
    // length for the values a template holds).
    if start < 0 || end < start || end > items.len() as i64 {
        return Err(FnError::Go("reflect.Value.Slice: slice index out of bounds".into()));
    }
    let (start, end) = (start as usize, end as usize);
    let val = match &list.val {
        Val::TypedList(elem, l) => Val::TypedList(elem, l[start..end].to_vec()),
        Val::Bytes(b) => Val::Bytes(b[start..end].to_vec()),
        _ => Val::List(items[start..end].to_vec()),
    };
    let mut sliced = Tv::new(val);
    sliced.secret = list.secret;
    Ok(sliced)
}

/// `chunk SIZE LIST`: lists of SIZE items, the last one shorter.
fn chunk(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let size = match a[0].val {
        Val::Int(i) | Val::Int64(i) => i,
        _ => 0,
    };
    let kind = reflect_kind(&a[1])?;
    let items = slice_items(&a[1]).ok_or_else(|| FnError::Go(format!("Cannot chunk type {kind}")))?;
    let len = items.len() as i64;
    // `cs := int(math.Floor(float64(l-1)/float64(size)) + 1)`; a size of 0
    // or below makes Go's `make` panic or index out of range.
    if size <= 0 {
        return Err(FnError::Unsupported(format!("chunk with a size of {size}")));
    }
    let chunks: Vec<Tv> = if len == 0 { Vec::new() } else { items.chunks(size as usize).map(|c| passed_list(&a[1], c.to_vec())).collect() };
    Ok(passed_list(&a[1], chunks))
}

/// `concat LISTS...`: one list of all their items; nil when no list has any.
fn concat(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let mut out = Vec::new();
    let mut secret = false;
    for list in &a {
        let kind = reflect_kind(list)?;
        let items = slice_items(list).ok_or_else(|| FnError::Go(format!("Cannot concat type {kind} as list")))?;
        secret |= list.secret;
        out.extend(items);
    }
    let mut joined = Tv::new(Val::List(out));
    joined.secret = secret;
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    fn strings(items: &[&str]) -> Tv {
        Tv::new(Val::TypedList("string", items.iter().map(|s| Tv::str(s)).collect()))
    }

    #[test]
    fn list_functions_accept_any_slice_kind_and_name_the_kind_they_refuse() {
        let r = call("first", vec![strings(&["a", "b"])]).unwrap();
        assert!(matches!(r.val, Val::Str(ref s) if s == "a"));
        assert_eq!(call("mustFirst", vec![Tv::str("x")]).unwrap_err(), FnError::Go("Cannot find first on type string".into()));
        assert_eq!(call("append", vec![Tv::new(Val::Int(1)), Tv::str("x")]).unwrap_err(), FnError::Go("Cannot push on type int".into()));
        let r = call("slice", vec![strings(&["a", "b", "c"]), Tv::new(Val::Int(1))]).unwrap();
        assert!(matches!(r.val, Val::TypedList("string", ref l) if l.len() == 2), "slice keeps []string");
    }

    #[test]
    fn uniq_and_has_compare_with_deep_equal() {
        let l = Tv::new(Val::List(vec![Tv::new(Val::Int(1)), Tv::new(Val::Int64(1)), Tv::new(Val::Int(1))]));
        assert!(matches!(call("uniq", vec![l.clone()]).unwrap().val, Val::List(ref u) if u.len() == 2));
        assert!(matches!(call("has", vec![Tv::new(Val::Float(1.0)), l]).unwrap().val, Val::Bool(false)));
    }

    #[test]
    fn chunk_splits_with_a_short_last_chunk() {
        let r = call("chunk", vec![Tv::new(Val::Int(2)), strings(&["a", "b", "c"])]).unwrap();
        let Val::List(chunks) = r.val else { panic!() };
        assert_eq!(chunks.len(), 2);
        assert!(matches!(chunks[1].val, Val::List(ref l) if l.len() == 1));
    }
}
