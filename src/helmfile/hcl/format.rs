//! go-cty function/stdlib/format.go and format_fsm.rl: `format` and
//! `formatlist`, cty's own subset of Go's fmt verbs (%v %#v %t %b %d %o %x
//! %X %e %E %f %g %G %s %q), with flags ` +-#0`, width, precision and
//! `[n]` argument indexes; widths count grapheme clusters.

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Spec, Ty, convert, declare, f64_of, nullable, p, str_of};
use super::encoding::cty_json;
use super::strings::graphemes;

static FORMAT: Spec = Spec {
    name: "format",
    params: &[p("format", Ty::Str)],
    var: Some(nullable("args", Ty::Any)),
    imp: |a| format(str_of(&a[0]), &a[1..]).map(Value::String),
};
static FORMATLIST: Spec = Spec { name: "formatlist", params: &[p("format", Ty::Str)], var: Some(nullable("args", Ty::Any)), imp: formatlist };

#[derive(Default)]
struct Verb {
    raw: String,
    offset: usize,
    arg: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

/// formatFSM: literal text, `%%`, and verbs; every argument must be used.
fn format(f: &str, args: &[Value]) -> Result<String, FnErr> {
    let b = f.as_bytes();
    let mut out = String::new();
    let mut next_arg = 1;
    let mut highest = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            let c = f[i..].chars().next().unwrap_or_default();
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            out.push('%');
            i += 2;
            continue;
        }
        let start = i;
        let mut v = Verb { offset: start, arg: next_arg, ..Verb::default() };
        i += 1;
        while let Some(c) = b.get(i) {
            match c {
                b'0' => v.zero = true,
                b'#' => v.sharp = true,
                b'-' => v.minus = true,
                b'+' => v.plus = true,
                b' ' => v.space = true,
                _ => break,
            }
            i += 1;
        }
        if b.get(i).is_some_and(|c| (b'1'..=b'9').contains(c)) {
            v.width = Some(digits(b, &mut i));
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            v.prec = Some(digits(b, &mut i));
        }
        if b.get(i) == Some(&b'[') {
            i += 1;
            if !b.get(i).is_some_and(|c| (b'1'..=b'9').contains(c)) {
                return Err(bad_char(f, i));
            }
            v.arg = digits(b, &mut i);
            if b.get(i) != Some(&b']') {
                return Err(bad_char(f, i));
            }
            i += 1;
        }
        match b.get(i) {
            Some(c) if c.is_ascii_alphabetic() => v.mode = *c as char,
            Some(_) => return Err(bad_char(f, i)),
            None => return Err(FnErr::Call(format!("invalid format string starting at offset {i}"))),
        }
        i += 1;
        v.raw = f[start..i].to_string();
        highest = highest.max(v.arg);
        append(&v, &mut out, args).map_err(FnErr::Call)?;
        next_arg = v.arg + 1;
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        return Err(FnErr::Arg(
            first_bad,
            if highest == 0 { "too many arguments; no verbs in format string".into() } else { format!("too many arguments; only {highest} used by format string") },
        ));
    }
    Ok(out)
}

fn digits(b: &[u8], i: &mut usize) -> usize {
    let mut n = 0usize;
    while let Some(c) = b.get(*i).filter(|c| c.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add((c - b'0') as usize);
        *i += 1;
    }
    n
}

fn bad_char(f: &str, i: usize) -> FnErr {
    let c = f.get(i..).and_then(|s| s.chars().next()).unwrap_or_default();
    FnErr::Call(format!("unrecognized format character {c:?} at offset {i}"))
}

/// formatAppend: one verb.
fn append(v: &Verb, out: &mut String, args: &[Value]) -> Result<(), String> {
    let Some(arg) = args.get(v.arg - 1) else {
        return Err(format!("not enough arguments for {:?} at {}: need index {} but have {} total", v.raw, v.offset, v.arg, args.len()));
    };
    if v.mode != 'v' && arg.is_null() {
        return Err(format!("unsupported value for {:?} at {}: null value cannot be formatted", v.raw, v.offset));
    }
    let unsupported = |e: String| format!("unsupported value for {:?} at {}: {e}", v.raw, v.offset);
    let text = match v.mode {
        // formatAppendAsIs: strings as they are, numbers as Text('g', -1), the rest (and %#v) as JSON.
        'v' => pad(
            v,
            match arg {
                Value::String(s) if !v.sharp => s.clone(),
                Value::Number(_) if !v.sharp => float(&Verb { mode: 'g', ..Verb::default() }, f64_of(arg)),
                other => cty_json(other),
            },
        ),
        't' => match convert(arg, Ty::Bool).map_err(unsupported)? {
            Value::Bool(b) => b.to_string(),
            _ => String::new(),
        },
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = f64_of(&convert(arg, Ty::Num).map_err(unsupported)?);
            if matches!(v.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                if n.fract() != 0.0 {
                    return Err(unsupported("an integer is required".into()));
                }
                integer(v, n)
            } else {
                float(v, n)
            }
        }
        's' | 'q' => {
            let s = str_of(&convert(arg, Ty::Str).map_err(unsupported)?).to_string();
            let s = match v.prec {
                Some(p) if p > 0 => graphemes(&s).into_iter().take(p).collect(),
                _ => s,
            };
            pad(v, if v.mode == 'q' { cty_json(&Value::String(s)) } else { s })
        }
        m => return Err(format!("unsupported format verb {m:?} in {:?} at offset {}", v.raw, v.offset)),
    };
    out.push_str(&text);
    Ok(())
}

/// formatPadWidth: to `width` grapheme clusters, with spaces (or zeros).
fn pad(v: &Verb, s: String) -> String {
    let Some(w) = v.width else { return s };
    let have = graphemes(&s).len();
    if have >= w {
        return s;
    }
    let fill = if v.zero { "0" } else { " " }.repeat(w - have);
    if v.minus { s + &fill } else { fill + &s }
}

/// Go's fmt for a signed number's digits: sign, prefix, zero padding after
/// the sign, or spaces (fmt/format.go `pad`, `fmtInteger`, `fmtFloat`).
fn signed(v: &Verb, neg: bool, prefix: &str, body: String, zero_ok: bool) -> String {
    let sign = if neg {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    let len = sign.len() + prefix.len() + body.chars().count();
    let w = v.width.unwrap_or(0);
    if len >= w {
        return format!("{sign}{prefix}{body}");
    }
    let fill = w - len;
    if v.minus {
        format!("{sign}{prefix}{body}{}", " ".repeat(fill))
    } else if v.zero && zero_ok {
        format!("{sign}{prefix}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{prefix}{body}", " ".repeat(fill))
    }
}

/// big.Int's Format for %b %d %o %x %X: precision is the minimum digits.
fn integer(v: &Verb, n: f64) -> String {
    let neg = n < 0.0;
    let m = n.abs() as u128;
    let mut body = match v.mode {
        'b' => format!("{m:b}"),
        'o' => format!("{m:o}"),
        'x' => format!("{m:x}"),
        'X' => format!("{m:X}"),
        _ => m.to_string(),
    };
    if let Some(p) = v.prec {
        if p == 0 && m == 0 {
            body.clear();
        } else if body.len() < p {
            body = "0".repeat(p - body.len()) + &body;
        }
    }
    let prefix = match (v.sharp, v.mode) {
        (true, 'b') => "0b",
        (true, 'o') => "0",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        _ => "",
    };
    signed(v, neg, prefix, body, v.prec.is_none())
}

/// The decimal digits of |f| (no trailing zeros) and the decimal point's
/// position: `sig` significant digits, or the shortest that round-trip.
fn decimal(f: f64, sig: Option<usize>) -> (String, i32) {
    let e = match sig {
        Some(n) => format!("{:.*e}", n.max(1) - 1, f.abs()),
        None => format!("{:e}", f.abs()),
    };
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let mut d: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    while d.len() > 1 && d.ends_with('0') {
        d.pop();
    }
    if d == "0" {
        return (d, 1);
    }
    (d, exp.parse::<i32>().unwrap_or(0) + 1)
}

fn exp_form(d: &str, dp: i32, prec: usize, upper: bool) -> String {
    let mut m = d[..1].to_string();
    let rest: String = d[1..].chars().chain(std::iter::repeat('0')).take(prec).collect();
    if prec > 0 {
        m.push('.');
        m.push_str(&rest);
    }
    let x = if d == "0" { 0 } else { dp - 1 };
    format!("{m}{}{}{:02}", if upper { 'E' } else { 'e' }, if x < 0 { '-' } else { '+' }, x.abs())
}

/// big.Float's Format for %e %E %f %g %G (math/big/ftoa.go): precision 6
/// by default for %e and %f, the shortest digits for %g.
fn float(v: &Verb, f: f64) -> String {
    let neg = f.is_sign_negative() && f != 0.0;
    let body = match v.mode {
        'f' => format!("{:.*}", v.prec.unwrap_or(6), f.abs()),
        'e' | 'E' => {
            let p = v.prec.unwrap_or(6);
            let (d, dp) = decimal(f, Some(p + 1));
            exp_form(&d, dp, p, v.mode == 'E')
        }
        _ => {
            let shortest = v.prec.is_none();
            let mut prec = v.prec.map(|p| p.max(1));
            let (d, dp) = decimal(f, prec);
            let nd = d.len();
            let mut eprec = prec.unwrap_or(nd) as i32;
            if eprec > nd as i32 && nd as i32 >= dp {
                eprec = nd as i32;
            }
            if shortest {
                eprec = 6;
            }
            let p = prec.get_or_insert(nd);
            if dp - 1 < -4 || dp > eprec {
                exp_form(&d, dp, (*p).min(nd) - 1, v.mode == 'G')
            } else {
                let p = if *p as i32 > dp { nd } else { *p };
                let frac = (p as i32 - dp).max(0) as usize;
                fixed(&d, dp, frac)
            }
        }
    };
    signed(v, neg, "", body, true)
}

/// Digits `d` with the point at `dp`, `frac` digits after it.
fn fixed(d: &str, dp: i32, frac: usize) -> String {
    let mut int = String::new();
    if dp <= 0 {
        int.push('0');
    } else {
        int.extend(d.chars().chain(std::iter::repeat('0')).take(dp as usize));
    }
    if frac == 0 {
        return int;
    }
    let lead = if dp < 0 { (-dp) as usize } else { 0 };
    let after: String = std::iter::repeat_n('0', lead).chain(d.chars().skip(dp.max(0) as usize)).chain(std::iter::repeat('0')).take(frac).collect();
    format!("{int}.{after}")
}

/// FormatListFunc: list arguments iterate in step, the others repeat.
fn formatlist(a: &[Value]) -> Result<Value, FnErr> {
    let (f, args) = (str_of(&a[0]), &a[1..]);
    let mut len: Option<(usize, usize)> = None;
    for (i, x) in args.iter().enumerate() {
        if let Value::Array(items) = x {
            match len {
                None => len = Some((items.len(), i)),
                Some((n, j)) if n != items.len() => {
                    return Err(FnErr::Arg(i + 1, format!("argument {} has length {}, which is inconsistent with argument {} of length {n}", i + 1, items.len(), j + 1)));
                }
                _ => {}
            }
        }
    }
    let n = len.map_or(1, |(n, _)| n);
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let row: Vec<Value> = args.iter().map(|x| if let Value::Array(items) = x { items[k].clone() } else { x.clone() }).collect();
        let s = format(f, &row).map_err(|e| match e {
            FnErr::Arg(_, m) | FnErr::Call(m) => FnErr::Call(format!("error on format iteration {k}: {m}")),
        })?;
        out.push(Value::String(s));
    }
    Ok(Value::Array(out))
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, FORMAT, FORMATLIST);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Value]) -> String {
        format(fmt, args).unwrap_or_else(|_| "ERR".into())
    }

    #[test]
    fn verbs_as_go_fmt_prints_them() {
        assert_eq!(f("%05.2f|%q|%v", &[Value::from(1.23456), Value::from("s"), Value::from(vec![1, 2])]), "01.23|\"s\"|[1,2]");
        assert_eq!(f("%v %v %v", &[Value::from(1234567), Value::from(0.00001), Value::from(1.5)]), "1.234567e+06 1e-05 1.5");
        assert_eq!(f("%.3g|%g|%e|%G", &[Value::from(1.23456), Value::from(100000), Value::from(12.5), Value::from(1e-7)]), "1.23|100000|1.250000e+01|1E-07");
        assert_eq!(f("%#x|%+d|%08.3f|%-5d|%b|%o", &[Value::from(255), Value::from(5), Value::from(-3.5), Value::from(7), Value::from(5), Value::from(8)]), "0xff|+5|-003.500|7    |101|10");
        assert_eq!(f("%[2]s %[1]s %s", &[Value::from("a"), Value::from("b")]), "b a b");
        assert_eq!(f("%5s|%-5s|%.2s", &[Value::from("ab"), Value::from("ab"), Value::from("abc")]), "   ab|ab   |ab");
    }
}
