//! sprig: numbers (functions.go's arithmetic closures, numeric.go). Integer
//! arithmetic is Go's int64 (wrapping, a zero divisor panics); the `...f`
//! forms go through shopspring/decimal exactly as `execDecimalOp` does.

use super::conv::{IntError, made, parse_int, sprint, to_float64, to_int64};
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

const ANY: Param = Param::Any;
const INT: Param = Param::Int;

/// The most items `until`, `untilStep` and `seq` build: Go has no limit but
/// memory, and no values template needs more.
pub const MAX_RANGE_ITEMS: usize = 1 << 22;

pub(super) fn register(m: &mut FuncMap) {
    m.add("add", Sig::variadic(&[], ANY), Derive::Made, |_, a| Ok(int64(a.iter().fold(0i64, |s, v| s.wrapping_add(to_int64(v))))));
    m.add("add1", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(int64(to_int64(&a[0]).wrapping_add(1))));
    m.add("sub", Sig::fixed(&[ANY, ANY]), Derive::Made, |_, a| Ok(int64(to_int64(&a[0]).wrapping_sub(to_int64(&a[1])))));
    m.add("div", Sig::fixed(&[ANY, ANY]), Derive::Made, |_, a| divide(to_int64(&a[0]), to_int64(&a[1]), i64::wrapping_div));
    m.add("mod", Sig::fixed(&[ANY, ANY]), Derive::Made, |_, a| divide(to_int64(&a[0]), to_int64(&a[1]), i64::wrapping_rem));
    m.add("mul", Sig::variadic(&[ANY], ANY), Derive::Made, |_, a| Ok(int64(a[1..].iter().fold(to_int64(&a[0]), |p, v| p.wrapping_mul(to_int64(v))))));
    for name in ["max", "biggest"] {
        m.add(name, Sig::variadic(&[ANY], ANY), Derive::Made, |_, a| Ok(int64(a[1..].iter().map(to_int64).fold(to_int64(&a[0]), i64::max))));
    }
    m.add("min", Sig::variadic(&[ANY], ANY), Derive::Made, |_, a| Ok(int64(a[1..].iter().map(to_int64).fold(to_int64(&a[0]), i64::min))));
    m.add("maxf", Sig::variadic(&[ANY], ANY), Derive::Made, |_, a| Ok(float(a[1..].iter().map(to_float64).fold(to_float64(&a[0]), go_max))));
    m.add("minf", Sig::variadic(&[ANY], ANY), Derive::Made, |_, a| Ok(float(a[1..].iter().map(to_float64).fold(to_float64(&a[0]), go_min))));
    m.add("floor", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(float(to_float64(&a[0]).floor())));
    m.add("ceil", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(float(to_float64(&a[0]).ceil())));
    m.add("round", Sig::variadic(&[ANY, INT], Param::Float64), Derive::Made, round);
    m.add("addf", Sig::variadic(&[], ANY), Derive::Made, |c, a| decimal_op(c, &Tv::new(Val::Float(0.0)), &a, Dec::add));
    m.add("add1f", Sig::fixed(&[ANY]), Derive::Made, |c, a| decimal_op(c, &a[0], &[Tv::new(Val::Int(1))], Dec::add));
    m.add("subf", Sig::variadic(&[ANY], ANY), Derive::Made, |c, a| decimal_op(c, &a[0], &a[1..], Dec::sub));
    m.add("mulf", Sig::variadic(&[ANY], ANY), Derive::Made, |c, a| decimal_op(c, &a[0], &a[1..], Dec::mul));
    m.add("divf", Sig::variadic(&[ANY], ANY), Derive::Made, |c, a| decimal_op(c, &a[0], &a[1..], Dec::div));
    m.add("int", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(made(Val::Int(to_int64(&a[0])))));
    m.add("int64", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(int64(to_int64(&a[0]))));
    m.add("float64", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(float(to_float64(&a[0]))));
    m.add("atoi", Sig::fixed(&[Param::String]), Derive::Made, atoi);
    m.add("toDecimal", Sig::fixed(&[ANY]), Derive::Made, to_decimal);
    m.add("seq", Sig::variadic(&[], INT), Derive::Made, seq);
    m.add("until", Sig::fixed(&[INT]), Derive::Made, |c, a| {
        let count = int_arg(&a[0]);
        int_list(c, until_step(0, count, if count < 0 { -1 } else { 1 })?)
    });
    m.add("untilStep", Sig::fixed(&[INT, INT, INT]), Derive::Made, |c, a| int_list(c, until_step(int_arg(&a[0]), int_arg(&a[1]), int_arg(&a[2]))?));
}

fn int64(i: i64) -> Tv {
    made(Val::Int64(i))
}

fn float(f: f64) -> Tv {
    made(Val::Float(f))
}

/// An `int` parameter's value (the executor has converted it).
fn int_arg(v: &Tv) -> i64 {
    match v.val {
        Val::Int(i) | Val::Int64(i) => i,
        _ => 0,
    }
}

/// Go's `/` and `%` on int64: a zero divisor is a runtime panic, which
/// text/template reports as the call's error; `MinInt64 / -1` wraps.
fn divide(a: i64, b: i64, op: fn(i64, i64) -> i64) -> Result<Tv, FnError> {
    if b == 0 {
        return Err(FnError::Go("runtime error: integer divide by zero".into()));
    }
    Ok(int64(op(a, b)))
}

/// `math.Max`: +Inf wins, then NaN, and +0 over -0.
fn go_max(a: f64, b: f64) -> f64 {
    if a == f64::INFINITY || b == f64::INFINITY {
        f64::INFINITY
    } else if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_negative() { b } else { a }
    } else if a > b {
        a
    } else {
        b
    }
}

/// `math.Min`: -Inf wins, then NaN, and -0 over +0.
fn go_min(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY || b == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_negative() { a } else { b }
    } else if a < b {
        a
    } else {
        b
    }
}

/// numeric.go `round(a, p, rOpt...)`: scale by 10^p, take the fraction
/// `math.Modf` leaves (negative for negative numbers), ceil when it reaches
/// `roundOn` (0.5 unless given), else floor.
fn round(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let round_on = match a.get(2).map(|v| &v.val) {
        Some(Val::Float(f)) => *f,
        _ => 0.5,
    };
    let val = to_float64(&a[0]);
    let pow = go_pow_int(10.0, int_arg(&a[1]));
    let digit = pow * val;
    let frac = if digit.is_infinite() { 0.0 } else { digit - digit.trunc() };
    let rounded = if frac >= round_on { digit.ceil() } else { digit.floor() };
    Ok(float(rounded / pow))
}

/// Go's `math.Pow(x, y)` for an integer `y` (math/pow.go): repeated
/// squaring of `Frexp(x)`'s fraction, the binary exponent kept apart, then
/// `Ldexp`; it can differ from a correctly rounded power in the last bit.
fn go_pow_int(x: f64, y: i64) -> f64 {
    if y == 0 {
        return 1.0;
    }
    let (mut x1, mut xe) = frexp(x);
    let (mut a1, mut ae) = (1.0f64, 0i64);
    let mut i = y.unsigned_abs();
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

/// `math.Frexp` for a positive finite `x`: `x = frac * 2^exp`, `frac` in [0.5, 1).
fn frexp(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    if exp == 0 {
        let (f, e) = frexp(x * 2f64.powi(64));
        return (f, e - 64);
    }
    (f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)), exp - 1022)
}

/// `math.Ldexp`: `frac * 2^exp`, in steps that stay exact until the last.
fn ldexp(frac: f64, exp: i64) -> f64 {
    let mut f = frac;
    let mut e = exp;
    while e > 1000 {
        f *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        f *= 2f64.powi(-1000);
        e += 1000;
    }
    f * 2f64.powi(e as i32)
}

/// The literal `func(a string) int { i, _ := strconv.Atoi(a); return i }`:
/// bad syntax gives 0, a value out of range the clamped value Atoi returns.
fn atoi(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let Val::Str(s) = &a[0].val else { return Ok(made(Val::Int(0))) };
    let n = match parse_int(s, 10) {
        Ok(n) | Err(IntError::Range(n)) => n,
        Err(IntError::Syntax) => 0,
    };
    Ok(made(Val::Int(n)))
}

/// `toDecimal`: `strconv.ParseInt(fmt.Sprint(v), 8, 64)`, 0 on any error.
fn to_decimal(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let text = match &a[0].val {
        Val::Nil => "<nil>".to_string(),
        _ => sprint(&a[0])?,
    };
    Ok(int64(parse_int(&text, 8).unwrap_or(0)))
}

/// numeric.go `untilStep`: counts from `start` toward `stop` by `step`
/// (none when the step points away); Go's int addition wraps.
fn until_step(start: i64, stop: i64, step: i64) -> Result<Vec<i64>, FnError> {
    let mut v = Vec::new();
    let keep_going = |i: i64| if stop < start { i > stop } else { i < stop };
    if (stop < start && step >= 0) || (stop >= start && step <= 0) {
        return Ok(v);
    }
    let mut i = start;
    while keep_going(i) {
        if v.len() >= MAX_RANGE_ITEMS {
            return Err(FnError::Unsupported(format!("a range of more than {MAX_RANGE_ITEMS} numbers (releasex's limit)")));
        }
        v.push(i);
        i = i.wrapping_add(step);
    }
    Ok(v)
}

/// `[]int`, as `until` and `untilStep` return it.
fn int_list(_: &Call, items: Vec<i64>) -> Result<Tv, FnError> {
    Ok(made(Val::TypedList("int", items.into_iter().map(|i| Tv::new(Val::Int(i))).collect())))
}

/// numeric.go `seq`: `seq END` from 1, `seq START END`, `seq START STEP
/// END`, counting down when END is below START; numbers joined by spaces.
fn seq(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let p: Vec<i64> = a.iter().map(int_arg).collect();
    let numbers = match p.as_slice() {
        [end] => {
            let inc = if *end < 1 { -1 } else { 1 };
            until_step(1, end.wrapping_add(inc), inc)?
        }
        [start, end] => {
            let step = if end < start { -1 } else { 1 };
            until_step(*start, end.wrapping_add(step), step)?
        }
        [start, step, end] => {
            let mut inc = 1;
            if end < start {
                inc = -1;
                if *step > 0 {
                    return Ok(made(Val::Str(String::new())));
                }
            }
            until_step(*start, end.wrapping_add(inc), *step)?
        }
        _ => Vec::new(),
    };
    Ok(made(Val::Str(numbers.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))))
}

/// `execDecimalOp(a, b, f)`: each operand `decimal.NewFromFloat(toFloat64(x))`,
/// folded with `f`, then `Float64()`.
fn decimal_op(c: &Call, a: &Tv, rest: &[Tv], f: fn(Dec, Dec) -> Result<Dec, FnError>) -> Result<Tv, FnError> {
    let overflow = || FnError::Unsupported(format!("{}: decimal arithmetic past 38 digits", c.name));
    let mut acc = Dec::from_f64(to_float64(a))?;
    for x in rest {
        acc = f(acc, Dec::from_f64(to_float64(x))?).map_err(|e| if matches!(e, FnError::Unsupported(_)) { overflow() } else { e })?;
    }
    Ok(float(acc.to_f64()))
}

/// A shopspring `Decimal`, `m * 10^e`, held in an i128 (exact: an operation
/// whose result needs more digits is refused rather than rounded).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Dec {
    m: i128,
    e: i32,
}

/// shopspring's `DivisionPrecision`: `Div` rounds to 16 decimal places.
const DIVISION_PRECISION: i32 = 16;

fn too_big() -> FnError {
    FnError::Unsupported("decimal".into())
}

fn pow10(n: i32) -> Result<i128, FnError> {
    10i128.checked_pow(u32::try_from(n).map_err(|_| too_big())?).ok_or_else(too_big)
}

impl Dec {
    /// `NewFromFloat`: the shortest decimal that reads back as `f`; NaN
    /// and infinities panic in shopspring.
    fn from_f64(f: f64) -> Result<Dec, FnError> {
        if !f.is_finite() {
            return Err(FnError::Go(format!("Cannot create a Decimal from {}", crate::go::fmt::go_float(f))));
        }
        if f == 0.0 {
            return Ok(Dec { m: 0, e: 0 });
        }
        let text = format!("{f:e}");
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let exp: i32 = exp.parse().map_err(|_| too_big())?;
        let (int_part, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int_part}{frac}");
        let m: i128 = digits.parse().map_err(|_| too_big())?;
        Ok(Dec { m, e: exp - frac.len() as i32 })
    }

    fn to_f64(self) -> f64 {
        format!("{}e{}", self.m, self.e).parse().unwrap_or(0.0)
    }

    /// Both at the smaller exponent.
    fn aligned(a: Dec, b: Dec) -> Result<(i128, i128, i32), FnError> {
        // Zero takes any exponent: `addf`'s starting 0 must not scale 1e300 up.
        let (a, b) = match (a.m, b.m) {
            (0, _) => (Dec { m: 0, e: b.e }, b),
            (_, 0) => (a, Dec { m: 0, e: a.e }),
            _ => (a, b),
        };
        let e = a.e.min(b.e);
        let scale = |d: Dec| pow10(d.e - e).and_then(|p| d.m.checked_mul(p).ok_or_else(too_big));
        Ok((scale(a)?, scale(b)?, e))
    }

    fn add(a: Dec, b: Dec) -> Result<Dec, FnError> {
        let (x, y, e) = Dec::aligned(a, b)?;
        Ok(Dec { m: x.checked_add(y).ok_or_else(too_big)?, e })
    }

    fn sub(a: Dec, b: Dec) -> Result<Dec, FnError> {
        let (x, y, e) = Dec::aligned(a, b)?;
        Ok(Dec { m: x.checked_sub(y).ok_or_else(too_big)?, e })
    }

    fn mul(a: Dec, b: Dec) -> Result<Dec, FnError> {
        Ok(Dec { m: a.m.checked_mul(b.m).ok_or_else(too_big)?, e: a.e.checked_add(b.e).ok_or_else(too_big)? })
    }

    /// `DivRound(d2, 16)` via `QuoRem`: the quotient truncated at 16 places,
    /// then one unit away from zero when twice the remainder reaches the divisor.
    fn div(a: Dec, b: Dec) -> Result<Dec, FnError> {
        if b.m == 0 {
            return Err(FnError::Go("decimal division by 0".into()));
        }
        let e = a.e - b.e + DIVISION_PRECISION;
        let (aa, bb) = if e < 0 { (a.m, b.m.checked_mul(pow10(-e)?).ok_or_else(too_big)?) } else { (a.m.checked_mul(pow10(e)?).ok_or_else(too_big)?, b.m) };
        let (mut q, r) = (aa / bb, aa % bb);
        if r.unsigned_abs() * 2 >= bb.unsigned_abs() {
            q += if (a.m < 0) != (b.m < 0) { -1 } else { 1 };
        }
        Ok(Dec { m: q, e: -DIVISION_PRECISION })
    }
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    fn f(v: Tv) -> f64 {
        if let Val::Float(f) = v.val { f } else { panic!("not a float64: {v:?}") }
    }

    #[test]
    fn decimal_forms_add_the_shortest_decimals_of_their_floats() {
        let x = |v: f64| Tv::new(Val::Float(v));
        assert_eq!(f(call("addf", vec![x(0.1), x(0.2)]).unwrap()), 0.3);
        assert_eq!(f(call("divf", vec![x(1.0), x(3.0)]).unwrap()), 0.3333333333333333);
        assert_eq!(f(call("divf", vec![x(2.0), x(3.0)]).unwrap()), 0.6666666666666667);
        assert_eq!(f(call("mulf", vec![x(1.1), x(3.0)]).unwrap()), 3.3);
        assert_eq!(f(call("subf", vec![x(1.0), x(0.9)]).unwrap()), 0.1);
        assert_eq!(call("divf", vec![x(1.0), x(0.0)]).unwrap_err(), FnError::Go("decimal division by 0".into()));
    }

    #[test]
    fn integer_division_by_zero_is_the_go_runtime_panic() {
        let i = |v: i64| Tv::new(Val::Int(v));
        assert_eq!(call("div", vec![i(1), i(0)]).unwrap_err(), FnError::Go("runtime error: integer divide by zero".into()));
        assert!(matches!(call("div", vec![i(-7), i(2)]).unwrap().val, Val::Int64(-3)));
        assert!(matches!(call("mod", vec![i(-7), i(2)]).unwrap().val, Val::Int64(-1)));
    }

    #[test]
    fn seq_counts_like_sprig() {
        let s = |a: Vec<i64>| match call("seq", a.into_iter().map(|i| Tv::new(Val::Int(i))).collect()).unwrap().val {
            Val::Str(s) => s,
            _ => panic!(),
        };
        assert_eq!(s(vec![3]), "1 2 3");
        assert_eq!(s(vec![0]), "1 0");
        assert_eq!(s(vec![-2]), "1 0 -1 -2");
        assert_eq!(s(vec![2, 5]), "2 3 4 5");
        assert_eq!(s(vec![5, 2]), "5 4 3 2");
        assert_eq!(s(vec![1, 2, 7]), "1 3 5 7");
        assert_eq!(s(vec![7, 2, 1]), "");
        assert_eq!(s(vec![7, -2, 1]), "7 5 3 1");
        assert_eq!(s(vec![]), "");
    }
}
