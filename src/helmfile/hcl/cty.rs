//! go-cty's function machinery, on `hcl::Value`: a function's parameters
//! with their types, the conversion of each argument to its parameter's type
//! (go-cty `convert.Convert`, as hclsyntax's `FunctionCallExpr.Value` does
//! before the call), and HCL's wording of every failure
//! (hashicorp/hcl hclsyntax/expression.go, `FunctionCallExpr.Value`).
//!
//! `hcl::Value` has no cty types: a tuple, list and set are all an array,
//! an object and a map both an object. A set parameter gets its elements
//! deduplicated and in cty's order (strings lexically, numbers ascending);
//! everything else keeps the order written.

use hcl::{Number, Value};

/// The primitive a collection parameter's elements convert to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Prim {
    Any,
    Str,
    Num,
    Bool,
}

/// A parameter's cty type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ty {
    /// `cty.DynamicPseudoType`: anything, unconverted.
    Any,
    Str,
    Num,
    Bool,
    List(Prim),
    Set(Prim),
}

pub(super) struct Param {
    pub name: &'static str,
    pub ty: Ty,
    /// go-cty `function.Parameter.AllowNull`.
    pub allow_null: bool,
}

pub(super) const fn p(name: &'static str, ty: Ty) -> Param {
    Param { name, ty, allow_null: false }
}

pub(super) const fn nullable(name: &'static str, ty: Ty) -> Param {
    Param { name, ty, allow_null: true }
}

/// How a go-cty function failed.
pub(super) enum FnErr {
    /// `function.NewArgError(i, ..)`: about the i-th argument.
    Arg(usize, String),
    /// Any other error of the call.
    Call(String),
}

pub(super) type Impl = fn(&[Value]) -> Result<Value, FnErr>;

pub(super) struct Spec {
    pub name: &'static str,
    pub params: &'static [Param],
    pub var: Option<Param>,
    pub imp: Impl,
}

/// Checks, converts and calls: `FunctionCallExpr.Value`'s steps, each
/// failure worded as HCL words it ("Summary; Detail").
pub(super) fn call(spec: &Spec, args: &[Value]) -> Result<Value, String> {
    let n = spec.params.len();
    if args.len() < n {
        let qual = if spec.var.is_some() { " at least" } else { "" };
        return Err(format!("Not enough function arguments; Function {:?} expects{qual} {n} argument(s). Missing value for {:?}.", spec.name, spec.params[args.len()].name));
    }
    if spec.var.is_none() && args.len() > n {
        return Err(format!("Too many function arguments; Function {:?} expects only {n} argument(s).", spec.name));
    }
    let param_of = |i: usize| match (spec.params.get(i), &spec.var) {
        (Some(p), _) => p,
        (None, Some(v)) => v,
        // Unreachable after the arity check: an extra argument needs a variadic parameter.
        (None, None) => &spec.params[spec.params.len().saturating_sub(1)],
    };
    let mut converted = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let param = param_of(i);
        let v = convert(a, param.ty).map_err(|m| arg_message(param.name, &m))?;
        // go-cty function.go returnTypeForValues: a null for a parameter without AllowNull.
        if v.is_null() && !param.allow_null {
            return Err(arg_message(param.name, "argument must not be null"));
        }
        converted.push(v);
    }
    (spec.imp)(&converted).map_err(|e| match e {
        FnErr::Arg(i, m) if i < args.len() => arg_message(param_of(i).name, &m),
        FnErr::Arg(_, m) | FnErr::Call(m) => format!("Error in function call; Call to function {:?} failed: {m}.", spec.name),
    })
}

fn arg_message(param: &str, m: &str) -> String {
    format!("Invalid function argument; Invalid value for {param:?} parameter: {m}.")
}

/// go-cty `convert.Convert(v, ty)`, with convert's mismatch wording.
pub(super) fn convert(v: &Value, ty: Ty) -> Result<Value, String> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    match ty {
        Ty::Any => Ok(v.clone()),
        Ty::Str => to_prim(v, Prim::Str),
        Ty::Num => to_prim(v, Prim::Num),
        Ty::Bool => to_prim(v, Prim::Bool),
        Ty::List(e) | Ty::Set(e) => {
            let Value::Array(items) = v else { return Err(format!("{} required", collection_name(ty))) };
            let mut out = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                out.push(if x.is_null() { Value::Null } else { to_prim(x, e).map_err(|m| if items.len() > 1 { format!("element {i}: {m}") } else { m })? });
            }
            if matches!(ty, Ty::Set(_)) {
                out = set_of(out);
            }
            Ok(Value::Array(out))
        }
    }
}

fn collection_name(ty: Ty) -> String {
    let (kind, e) = match ty {
        Ty::List(e) => ("list", e),
        Ty::Set(e) => ("set", e),
        _ => return "value".into(),
    };
    match e {
        Prim::Any => kind.into(),
        Prim::Str => format!("{kind} of string"),
        Prim::Num => format!("{kind} of number"),
        Prim::Bool => format!("{kind} of bool"),
    }
}

/// go-cty convert/conversion_primitive.go: strings, numbers and bools
/// convert to each other where the text allows.
fn to_prim(v: &Value, p: Prim) -> Result<Value, String> {
    match (p, v) {
        (Prim::Any, _) | (Prim::Str, Value::String(_)) | (Prim::Bool, Value::Bool(_)) => Ok(v.clone()),
        (Prim::Num, Value::Number(n)) => Ok(num(n.as_f64().unwrap_or(0.0))),
        (Prim::Str, Value::Number(n)) => Ok(Value::String(number_text(n))),
        (Prim::Str, Value::Bool(b)) => Ok(Value::String(b.to_string())),
        (Prim::Num, Value::String(s)) => parse_number(s).ok_or_else(|| "a number is required".to_string()),
        (Prim::Bool, Value::String(s)) => match s.as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("a bool is required".into()),
        },
        (Prim::Str, _) => Err("string required".into()),
        (Prim::Num, _) => Err("number required".into()),
        (Prim::Bool, _) => Err("bool required".into()),
    }
}

/// cty's number syntax (big.Float's ParseFloat, base 10).
pub(super) fn parse_number(s: &str) -> Option<Value> {
    let t = s.trim();
    if t.is_empty() || t.starts_with('+') || t.contains(['x', 'X', '_']) || t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("nan") || t.eq_ignore_ascii_case("infinity") {
        return None;
    }
    if t != s {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite()).map(num)
}

/// A number as cty holds it: whole numbers as integers (so they print and
/// compare as written), others as floats.
pub(super) fn num(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Value::Number(Number::from(f as i64))
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

pub(super) fn f64_of(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// A number as text: big.Float's `Text('f', -1)` (shortest, no exponent).
pub(super) fn number_text(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f.fract() == 0.0 && f.abs() < 1e300 {
        return format!("{f:.0}");
    }
    format!("{f}")
}

pub(super) fn str_of(v: &Value) -> &str {
    match v {
        Value::String(s) => s,
        _ => "",
    }
}

pub(super) fn items(v: &Value) -> &[Value] {
    match v {
        Value::Array(a) => a,
        _ => &[],
    }
}

/// An integer argument (go-cty `gocty.FromCtyValue` into an int): a
/// fractional number is an error.
pub(super) fn int_of(v: &Value) -> Result<i64, String> {
    let f = f64_of(v);
    if f.fract() != 0.0 {
        return Err(format!("value must be a whole number, between {} and {}", i64::MIN, i64::MAX));
    }
    Ok(f as i64)
}

/// cty's set order: strings lexically, numbers ascending, bools false
/// first; duplicates removed.
pub(super) fn set_of(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by(cmp_values);
    v.dedup();
    v
}

pub(super) fn cmp_values(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64().unwrap_or(0.0).total_cmp(&y.as_f64().unwrap_or(0.0)),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// cty's friendly type names for messages (`Type.FriendlyName`).
pub(super) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "tuple",
        Value::Object(_) => "object",
    }
}

/// Declares `spec` in a context under its name: a thin `fn` per function,
/// because `hcl::eval::Func` is a plain function pointer.
macro_rules! declare {
    ($ctx:expr, $($spec:path),+ $(,)?) => {$({
        fn entry(args: hcl::eval::FuncArgs) -> Result<hcl::Value, String> {
            super::cty::call(&$spec, &args)
        }
        $ctx.declare_func($spec.name, hcl::eval::FuncDef::builder().variadic_param(hcl::eval::ParamType::Any).build(entry));
    })+};
}
pub(super) use declare;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_convert_from_strings_as_cty_does() {
        assert_eq!(convert(&Value::from("12"), Ty::Num).ok(), Some(Value::from(12)));
        assert_eq!(convert(&Value::from("1.5"), Ty::Num).ok(), Some(num(1.5)));
        assert_eq!(convert(&Value::from("x"), Ty::Num).err().as_deref(), Some("a number is required"));
        assert_eq!(convert(&Value::from(true), Ty::Str).ok(), Some(Value::from("true")));
        assert_eq!(convert(&Value::from(vec![1, 2]), Ty::Str).err().as_deref(), Some("string required"));
        assert_eq!(convert(&Value::from(1), Ty::List(Prim::Str)).err().as_deref(), Some("list of string required"));
        assert_eq!(convert(&Value::from(vec!["b", "a", "b"]), Ty::Set(Prim::Str)).ok(), Some(Value::from(vec!["a", "b"])));
        assert_eq!(number_text(&Number::from_f64(1e21).unwrap()), "1000000000000000000000");
    }
}
