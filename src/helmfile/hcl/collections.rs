//! go-cty function/stdlib/collection.go, general.go, sequence.go and
//! set.go: coalesce, coalescelist, compact, concat, contains, distinct,
//! element, chunklist, flatten, keys, length, lookup, merge, range,
//! reverselist, setintersection, setproduct, setsubtract, setunion, slice,
//! values, zipmap.

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Prim, Spec, Ty, convert, declare, f64_of, int_of, items, nullable, num, p, set_of, str_of, type_name};
use super::strings::graphemes;

fn list(v: Vec<Value>) -> Result<Value, FnErr> {
    Ok(Value::Array(v))
}

static COALESCE: Spec = Spec { name: "coalesce", params: &[], var: Some(nullable("vals", Ty::Any)), imp: coalesce };
static COALESCELIST: Spec = Spec {
    name: "coalescelist",
    params: &[],
    var: Some(nullable("vals", Ty::Any)),
    imp: |a| {
        if a.is_empty() {
            return Err(FnErr::Call("at least one argument is required".into()));
        }
        if a.iter().any(|v| !matches!(v, Value::Array(_) | Value::Null)) {
            return Err(FnErr::Call("coalescelist arguments must be lists or tuples".into()));
        }
        a.iter().find(|v| !items(v).is_empty()).cloned().ok_or_else(|| FnErr::Call("no non-null arguments".into()))
    },
};
static COMPACT: Spec = Spec {
    name: "compact",
    params: &[p("list", Ty::List(Prim::Str))],
    var: None,
    imp: |a| list(items(&a[0]).iter().filter(|v| !v.is_null() && !str_of(v).is_empty()).cloned().collect()),
};
static CONCAT: Spec = Spec {
    name: "concat",
    params: &[],
    var: Some(p("seqs", Ty::Any)),
    imp: |a| {
        if a.is_empty() {
            return Err(FnErr::Call("at least one argument is required".into()));
        }
        let mut out = Vec::new();
        for (i, v) in a.iter().enumerate() {
            let Value::Array(x) = v else { return Err(FnErr::Arg(i, format!("all arguments must be lists or tuples; got {}", type_name(v)))) };
            out.extend(x.iter().cloned());
        }
        list(out)
    },
};
static CONTAINS: Spec = Spec {
    name: "contains",
    params: &[p("list", Ty::Any), p("value", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Array(x) = &a[0] else { return Err(FnErr::Call("argument must be list, tuple, or set".into())) };
        Ok(Value::Bool(x.iter().any(|v| same(v, &a[1]))))
    },
};
static DISTINCT: Spec = Spec {
    name: "distinct",
    params: &[p("list", Ty::List(Prim::Any))],
    var: None,
    imp: |a| {
        let mut out: Vec<Value> = Vec::new();
        for v in items(&a[0]) {
            if !out.iter().any(|o| same(o, v)) {
                out.push(v.clone());
            }
        }
        list(out)
    },
};
static ELEMENT: Spec = Spec {
    name: "element",
    params: &[p("list", Ty::Any), p("index", Ty::Num)],
    var: None,
    imp: |a| {
        let Value::Array(x) = &a[0] else { return Err(FnErr::Call(format!("cannot read elements from {}", type_name(&a[0])))) };
        let i = int_of(&a[1]).map_err(|e| FnErr::Call(format!("invalid index: {e}")))?;
        if x.is_empty() {
            return Err(FnErr::Call("cannot use element function with an empty list".into()));
        }
        // helmfile 0.166's go-cty (v1.14) refuses a negative index (later ones wrap it).
        if i < 0 {
            return Err(FnErr::Call("cannot use element function with a negative index".into()));
        }
        Ok(x[(i % x.len() as i64) as usize].clone())
    },
};
static CHUNKLIST: Spec = Spec {
    name: "chunklist",
    params: &[p("list", Ty::List(Prim::Any)), p("size", Ty::Num)],
    var: None,
    imp: |a| {
        let size = int_of(&a[1]).map_err(|e| FnErr::Call(format!("invalid size: {e}")))?;
        if size < 0 {
            return Err(FnErr::Call("the size argument must be positive".into()));
        }
        let x = items(&a[0]);
        if x.is_empty() {
            return list(vec![]);
        }
        if size == 0 {
            return list(vec![Value::Array(x.to_vec())]);
        }
        list(x.chunks(size as usize).map(|c| Value::Array(c.to_vec())).collect())
    },
};
static FLATTEN: Spec = Spec {
    name: "flatten",
    params: &[p("list", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Array(x) = &a[0] else { return Err(FnErr::Call("can only flatten lists, sets and tuples".into())) };
        let mut out = Vec::new();
        flatten_into(x, &mut out);
        list(out)
    },
};
static KEYS: Spec = Spec {
    name: "keys",
    params: &[p("inputMap", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Object(m) = &a[0] else { return Err(FnErr::Arg(0, "must have map or object type".into())) };
        let mut k: Vec<&String> = m.keys().collect();
        k.sort();
        list(k.into_iter().map(|s| Value::from(s.as_str())).collect())
    },
};
static VALUES: Spec = Spec {
    name: "values",
    params: &[p("mapping", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Object(m) = &a[0] else { return Err(FnErr::Call("values() requires a map as the first argument".into())) };
        let mut kv: Vec<(&String, &Value)> = m.iter().collect();
        kv.sort_by(|x, y| x.0.cmp(y.0));
        list(kv.into_iter().map(|(_, v)| v.clone()).collect())
    },
};
static LENGTH: Spec = Spec {
    name: "length",
    params: &[p("value", Ty::Any)],
    var: None,
    imp: |a| match &a[0] {
        Value::Array(x) => Ok(num(x.len() as f64)),
        // An object literal is a cty object, not a map: LengthFunc refuses it.
        Value::String(t) => Ok(num(graphemes(t).len() as f64)),
        // LengthFunc's Type: "collection must be a list, a map or a tuple".
        _ => Err(FnErr::Call("collection must be a list, a map or a tuple".into())),
    },
};
static LOOKUP: Spec = Spec {
    name: "lookup",
    // helmfile 0.166's go-cty: `default` is a required third parameter.
    params: &[p("inputMap", Ty::Any), p("key", Ty::Str), nullable("default", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Object(m) = &a[0] else { return Err(FnErr::Arg(0, "lookup() requires a map as the first argument".into())) };
        let key = str_of(&a[1]);
        match (m.get(key), a.get(2)) {
            (Some(v), _) => Ok(v.clone()),
            (None, Some(d)) => Ok(d.clone()),
            (None, None) => Err(FnErr::Arg(0, format!("the given object has no attribute {key:?}"))),
        }
    },
};
static MERGE: Spec = Spec {
    name: "merge",
    params: &[],
    var: Some(nullable("maps", Ty::Any)),
    imp: |a| {
        let mut out = hcl::Map::new();
        for v in a {
            match v {
                Value::Null => {}
                Value::Object(m) => out.extend(m.iter().map(|(k, v)| (k.clone(), v.clone()))),
                other => return Err(FnErr::Call(format!("arguments must be maps or objects, got {:?}", type_name(other)))),
            }
        }
        Ok(Value::Object(out))
    },
};
static RANGE: Spec = Spec { name: "range", params: &[], var: Some(p("params", Ty::Num)), imp: range };
static REVERSELIST: Spec = Spec {
    name: "reverselist",
    params: &[p("list", Ty::Any)],
    var: None,
    imp: |a| {
        let Value::Array(x) = &a[0] else { return Err(FnErr::Arg(0, format!("can only reverse list or tuple values, not {}", type_name(&a[0])))) };
        list(x.iter().rev().cloned().collect())
    },
};
static SLICE: Spec = Spec { name: "slice", params: &[p("list", Ty::Any), p("start_index", Ty::Num), p("end_index", Ty::Num)], var: None, imp: slice };
static ZIPMAP: Spec = Spec {
    name: "zipmap",
    params: &[p("keys", Ty::List(Prim::Str)), p("values", Ty::Any)],
    var: None,
    imp: |a| {
        let (k, v) = (items(&a[0]), &a[1]);
        let Value::Array(v) = v else { return Err(FnErr::Call("values argument must be a list or tuple value".into())) };
        if k.len() != v.len() {
            return Err(FnErr::Call(format!("number of keys ({}) does not match number of values ({})", k.len(), v.len())));
        }
        let mut out = hcl::Map::new();
        for (i, (key, val)) in k.iter().zip(v).enumerate() {
            let Value::String(key) = key else { return Err(FnErr::Call(format!("keys list has null value at index {i}"))) };
            out.insert(key.clone(), val.clone());
        }
        Ok(Value::Object(out))
    },
};
static SETUNION: Spec = Spec { name: "setunion", params: &[p("first_set", Ty::Set(Prim::Any))], var: Some(p("other_sets", Ty::Set(Prim::Any))), imp: |a| set_op(a, SetOp::Union) };
static SETINTERSECTION: Spec = Spec { name: "setintersection", params: &[p("first_set", Ty::Set(Prim::Any))], var: Some(p("other_sets", Ty::Set(Prim::Any))), imp: |a| set_op(a, SetOp::Intersection) };
static SETSUBTRACT: Spec = Spec { name: "setsubtract", params: &[p("a", Ty::Set(Prim::Any)), p("b", Ty::Set(Prim::Any))], var: None, imp: |a| set_op(a, SetOp::Subtract) };
static SETPRODUCT: Spec = Spec { name: "setproduct", params: &[], var: Some(p("sets", Ty::Any)), imp: setproduct };

/// cty equality: numbers by value (1 == 1.0), everything else structurally.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => f64_of(a) == f64_of(b),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

/// CoalesceFunc: the first non-null argument, all of them first unified to
/// one type (numbers and bools become strings beside a string).
fn coalesce(a: &[Value]) -> Result<Value, FnErr> {
    let kinds: Vec<&str> = a.iter().filter(|v| !v.is_null()).map(type_name).collect();
    let unify = if kinds.iter().all(|k| *k == kinds[0]) {
        Ty::Any
    } else if kinds.iter().all(|k| matches!(*k, "string" | "number" | "bool")) {
        Ty::Str
    } else {
        return Err(FnErr::Call("all arguments must have the same type".into()));
    };
    let first = a.iter().find(|v| !v.is_null()).ok_or_else(|| FnErr::Call("no non-null arguments".into()))?;
    convert(first, unify).map_err(|_| FnErr::Call("all arguments must have the same type".into()))
}

fn flatten_into(x: &[Value], out: &mut Vec<Value>) {
    for v in x {
        match v {
            Value::Array(inner) => flatten_into(inner, out),
            other => out.push(other.clone()),
        }
    }
}

/// RangeFunc: (end), (start, end) or (start, end, step); at most 1024 values.
fn range(a: &[Value]) -> Result<Value, FnErr> {
    let f: Vec<f64> = a.iter().map(f64_of).collect();
    let (start, end, step) = match f.as_slice() {
        [e] => (0.0, *e, 1.0),
        [s, e] => (*s, *e, if s > e { -1.0 } else { 1.0 }),
        [s, e, st] => (*s, *e, *st),
        _ => return Err(FnErr::Call("must have one, two, or three arguments".into())),
    };
    // helmfile 0.166's go-cty has no zero-step check: a zero step runs into the 1024-value limit.
    if step < 0.0 && start < end {
        return Err(FnErr::Arg(1, "end must be less than start when step is negative".into()));
    }
    if step > 0.0 && start > end {
        return Err(FnErr::Arg(1, "end must be greater than start when step is positive".into()));
    }
    let mut out = Vec::new();
    let mut i = start;
    while (step >= 0.0 && i < end) || (step < 0.0 && i > end) {
        if out.len() >= 1024 {
            return Err(FnErr::Call("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step".into()));
        }
        out.push(num(i));
        i += step;
    }
    list(out)
}

/// SliceFunc: elements start_index (inclusive) to end_index (exclusive).
fn slice(a: &[Value]) -> Result<Value, FnErr> {
    let Value::Array(x) = &a[0] else { return Err(FnErr::Arg(0, "must be a list or tuple value".into())) };
    let start = int_of(&a[1]).map_err(|e| FnErr::Arg(1, format!("invalid start index: {e}")))?;
    let end = int_of(&a[2]).map_err(|e| FnErr::Arg(2, format!("invalid end index: {e}")))?;
    let len = x.len() as i64;
    if start < 0 {
        return Err(FnErr::Arg(1, "start index must not be less than zero".into()));
    }
    if start > len {
        return Err(FnErr::Arg(1, "start index must not be greater than the length of the list".into()));
    }
    if end < 0 {
        return Err(FnErr::Arg(2, "end index must not be less than zero".into()));
    }
    if end > len {
        return Err(FnErr::Arg(2, "end index must not be greater than the length of the list".into()));
    }
    if start > end {
        return Err(FnErr::Arg(1, "start index must not be greater than end index".into()));
    }
    list(x[start as usize..end as usize].to_vec())
}

enum SetOp {
    Union,
    Intersection,
    Subtract,
}

fn set_op(a: &[Value], op: SetOp) -> Result<Value, FnErr> {
    let first = items(&a[0]).to_vec();
    let result = match op {
        SetOp::Union => a.iter().flat_map(|s| items(s).iter().cloned()).collect(),
        SetOp::Intersection => first.into_iter().filter(|v| a[1..].iter().all(|s| items(s).iter().any(|w| same(v, w)))).collect(),
        SetOp::Subtract => first.into_iter().filter(|v| !items(&a[1]).iter().any(|w| same(v, w))).collect(),
    };
    list(set_of(result))
}

/// SetProductFunc: every combination, one element from each argument, in
/// order; with list arguments the result is a list, with sets a set.
fn setproduct(a: &[Value]) -> Result<Value, FnErr> {
    if a.len() < 2 {
        return Err(FnErr::Call("at least two arguments are required".into()));
    }
    let mut combos: Vec<Vec<Value>> = vec![vec![]];
    for (i, s) in a.iter().enumerate() {
        let Value::Array(x) = s else { return Err(FnErr::Arg(i, "a set or a list is required".into())) };
        combos = combos.into_iter().flat_map(|c| x.iter().map(move |v| [c.clone(), vec![v.clone()]].concat())).collect();
    }
    // Lists and tuples (all HCL literals are) give a list, in order.
    list(combos.into_iter().map(Value::Array).collect())
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, COALESCE, COALESCELIST, COMPACT, CONCAT, CONTAINS, DISTINCT, ELEMENT, CHUNKLIST, FLATTEN, KEYS, VALUES, LENGTH, LOOKUP, MERGE, RANGE, REVERSELIST, SLICE, ZIPMAP, SETUNION, SETINTERSECTION, SETSUBTRACT, SETPRODUCT);
}
