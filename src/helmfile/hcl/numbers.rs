//! go-cty function/stdlib/number.go: abs, ceil, floor, int, log, max, min,
//! parseint, pow, signum.

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Spec, Ty, declare, f64_of, num, p, type_name};

const NUM: &[super::cty::Param] = &[p("num", Ty::Num)];

static ABS: Spec = Spec { name: "abs", params: NUM, var: None, imp: |a| Ok(num(f64_of(&a[0]).abs())) };
static CEIL: Spec = Spec { name: "ceil", params: NUM, var: None, imp: |a| Ok(num(f64_of(&a[0]).ceil())) };
static FLOOR: Spec = Spec { name: "floor", params: NUM, var: None, imp: |a| Ok(num(f64_of(&a[0]).floor())) };
// IntFunc: truncates toward zero (big.Float.Int).
static INT: Spec = Spec { name: "int", params: NUM, var: None, imp: |a| Ok(num(f64_of(&a[0]).trunc())) };
static SIGNUM: Spec = Spec {
    name: "signum",
    params: NUM,
    var: None,
    imp: |a| {
        let f = f64_of(&a[0]);
        Ok(num(if f < 0.0 { -1.0 } else if f > 0.0 { 1.0 } else { 0.0 }))
    },
};
// LogFunc: math.Log(num) / math.Log(base).
static LOG: Spec = Spec { name: "log", params: &[p("num", Ty::Num), p("base", Ty::Num)], var: None, imp: |a| finite(f64_of(&a[0]).ln() / f64_of(&a[1]).ln()) };
static POW: Spec = Spec { name: "pow", params: &[p("num", Ty::Num), p("power", Ty::Num)], var: None, imp: |a| finite(f64_of(&a[0]).powf(f64_of(&a[1]))) };
static MAX: Spec = Spec { name: "max", params: &[], var: Some(p("numbers", Ty::Num)), imp: |a| extreme(a, |x, y| x > y) };
static MIN: Spec = Spec { name: "min", params: &[], var: Some(p("numbers", Ty::Num)), imp: |a| extreme(a, |x, y| x < y) };
static PARSEINT: Spec = Spec { name: "parseint", params: &[p("number", Ty::Any), p("base", Ty::Num)], var: None, imp: parseint };

/// `hcl::Value` has no infinity (cty has): an infinite or NaN result is an error here.
fn finite(f: f64) -> Result<Value, FnErr> {
    if f.is_finite() { Ok(num(f)) } else { Err(FnErr::Call("the result is not a finite number (cty's infinity has no representation in helmfile's values)".into())) }
}

/// MaxFunc/MinFunc: "must pass at least one number".
fn extreme(a: &[Value], better: fn(f64, f64) -> bool) -> Result<Value, FnErr> {
    let mut best: Option<f64> = None;
    for v in a {
        let f = f64_of(v);
        if best.is_none_or(|b| better(f, b)) {
            best = Some(f);
        }
    }
    best.map(num).ok_or_else(|| FnErr::Call("must pass at least one number".into()))
}

/// ParseIntFunc: big.Int.SetString(number, base), base 2..62 (digits, then
/// a-z, then A-Z above base 36; case-insensitive up to 36).
fn parseint(a: &[Value]) -> Result<Value, FnErr> {
    let Value::String(s) = &a[0] else { return Err(FnErr::Arg(0, format!("first argument must be a string, not {}", type_name(&a[0])))) };
    let base = f64_of(&a[1]);
    if base.fract() != 0.0 || !(2.0..=62.0).contains(&base) {
        return Err(FnErr::Arg(1, "base must be a whole number between 2 and 62 inclusive".into()));
    }
    let base = base as u32;
    let bad = || FnErr::Arg(0, format!("cannot parse {s:?} as a base {base} integer"));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s.as_str()),
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let mut value: f64 = 0.0;
    for c in digits.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 10,
            'A'..='Z' if base <= 36 => c as u32 - 'A' as u32 + 10,
            'A'..='Z' => c as u32 - 'A' as u32 + 36,
            _ => return Err(bad()),
        };
        if d >= base {
            return Err(bad());
        }
        value = value * base as f64 + d as f64;
    }
    Ok(num(if neg { -value } else { value }))
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, ABS, CEIL, FLOOR, INT, SIGNUM, LOG, POW, MAX, MIN, PARSEINT);
}
