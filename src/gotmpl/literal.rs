//! The parser's literals: Go's number and string literal syntax
//! (node.go `newNumber`, strconv's `ParseInt`/`ParseFloat`/`Unquote`), as
//! text/template/parse reads them.

use super::lex::T;
use super::parse::Number;

/// node.go `newNumber`: a number literal under every type that can hold it.
pub(super) fn number(text: &str, typ: T) -> Result<Number, String> {
    let mut n = Number { text: text.to_string(), ..Number::default() };
    if typ == T::CharConstant {
        let inner = &text[1..];
        let (c, tail) = unquote_char(inner, '\'').ok_or("invalid syntax")?;
        if tail != "'" {
            return Err(format!("malformed character constant: {text}"));
        }
        let c = match c {
            Unq::Char(c) => c as u32,
            Unq::Byte(b) => u32::from(b),
        };
        n.int = Some(i64::from(c));
        n.uint = Some(u64::from(c));
        n.float = Some(f64::from(c));
        return Ok(n);
    }
    if typ == T::Complex || text.ends_with('i') {
        // Imaginary and complex constants: releasex has no complex values.
        n.complex = true;
        return Ok(n);
    }
    n.uint = parse_go_uint(text);
    n.int = parse_go_int(text);
    if n.int == Some(0) {
        n.uint = Some(0);
    }
    if let Some(i) = n.int {
        n.float = Some(i as f64);
    } else if let Some(u) = n.uint {
        n.float = Some(u as f64);
    } else if let Some(f) = parse_go_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!("integer overflow: {}", crate::go::quote::quote(text)));
        }
        n.float = Some(f);
        if (f as i64) as f64 == f && f.is_finite() {
            n.int = Some(f as i64);
        }
        if f >= 0.0 && (f as u64) as f64 == f && f.is_finite() {
            n.uint = Some(f as u64);
        }
    }
    if n.int.is_none() && n.uint.is_none() && n.float.is_none() {
        return Err(format!("illegal number syntax: {}", crate::go::quote::quote(text)));
    }
    Ok(n)
}

/// `strconv.ParseUint(s, 0, 64)`: base prefixes, `_` only between digits after a prefix or in base-0 forms.
fn parse_go_uint(s: &str) -> Option<u64> {
    let (base, digits) = base_and_digits(s)?;
    let d = underscores_ok(digits, base != 10 || s.starts_with('0'))?;
    if d.is_empty() {
        return None;
    }
    u64::from_str_radix(&d, base).ok()
}

fn base_and_digits(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'0') && b.len() > 1 {
        return Some(match b[1] {
            b'x' | b'X' => (16, &s[2..]),
            b'o' | b'O' => (8, &s[2..]),
            b'b' | b'B' => (2, &s[2..]),
            _ => (8, &s[1..]),
        });
    }
    Some((10, s))
}

/// Go's `underscoreOK` for base-0 literals: `_` only between digits (or after the prefix).
fn underscores_ok(digits: &str, prefixed: bool) -> Option<String> {
    if digits.contains('_') {
        if !prefixed && !digits.is_empty() {
            // Base 10 with no prefix: `1_000` is fine in Go's base 0 too.
        }
        let bad = digits.ends_with('_') || digits.contains("__") || (!prefixed && digits.starts_with('_'));
        if bad {
            return None;
        }
    }
    Some(digits.replace('_', ""))
}

fn parse_go_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let u = parse_go_uint(body)?;
    if neg {
        if u <= i64::MAX as u64 + 1 { Some((u as i128).wrapping_neg() as i64) } else { None }
    } else {
        i64::try_from(u).ok()
    }
}

/// `strconv.ParseFloat(s, 64)` on the forms the lexer lets through (decimal and hex floats, `_`).
fn parse_go_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let clean = if body.contains('_') {
        if body.ends_with('_') || body.contains("__") || body.starts_with('_') {
            return None;
        }
        body.replace('_', "")
    } else {
        body.to_string()
    };
    let v = if let Some(hex) = clean.strip_prefix("0x").or_else(|| clean.strip_prefix("0X")) {
        hex_float(hex)?
    } else {
        if clean.is_empty() || clean == "." || !clean.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')) {
            return None;
        }
        clean.parse::<f64>().ok()?
    };
    // ParseFloat fails with ErrRange for overflow (returns ±Inf): Go's parser then rejects it.
    if v.is_infinite() {
        return None;
    }
    Some(if neg { -v } else { v })
}

/// A hex float mantissa and `p` exponent (the exponent is required, as in Go).
fn hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once(['p', 'P'])?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

/// `strconv.Unquote` of a name token that must be text (`define`, `template`).
pub(super) fn unquote(s: &str) -> Option<String> {
    String::from_utf8(unquote_bytes(s)?).ok()
}

/// `strconv.Unquote` of a string token (`"..."` or a raw string), as the
/// bytes a Go string holds (`\xff` is one byte); `None` is Go's "invalid syntax".
pub(super) fn unquote_bytes(s: &str) -> Option<Vec<u8>> {
    if let Some(raw) = s.strip_prefix('`') {
        let raw = raw.strip_suffix('`')?;
        if raw.contains('`') {
            return None;
        }
        return Some(raw.replace('\r', "").into_bytes());
    }
    let mut rest = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        if rest.starts_with('"') {
            return None;
        }
        let (c, tail) = unquote_char(rest, '"')?;
        match c {
            Unq::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Unq::Byte(b) => out.push(b),
        }
        rest = tail;
    }
    Some(out)
}

enum Unq {
    Char(char),
    Byte(u8),
}

/// `strconv.UnquoteChar`: one (possibly escaped) character of a literal quoted with `quote`.
fn unquote_char(s: &str, quote: char) -> Option<(Unq, &str)> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if c == quote && (quote == '\'' || quote == '"') {
        return None;
    }
    if c != '\\' {
        return Some((Unq::Char(c), chars.as_str()));
    }
    let e = chars.next()?;
    let rest = chars.as_str();
    let simple = match e {
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0b'),
        '\\' => Some('\\'),
        '\'' | '"' if e == quote => Some(e),
        _ => None,
    };
    if let Some(c) = simple {
        return Some((Unq::Char(c), rest));
    }
    match e {
        'x' | 'u' | 'U' => {
            let n = match e {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex = rest.get(..n)?;
            let v = u32::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))?;
            let rest = &rest[n..];
            if e == 'x' {
                return Some((if v < 0x80 { Unq::Char(char::from(v as u8)) } else { Unq::Byte(v as u8) }, rest));
            }
            Some((Unq::Char(char::from_u32(v)?), rest))
        }
        '0'..='7' => {
            let oct = s.get(1..4)?;
            let v = u32::from_str_radix(oct, 8).ok().filter(|_| oct.bytes().all(|b| (b'0'..=b'7').contains(&b)))?;
            if v > 255 {
                return None;
            }
            Some((if v < 0x80 { Unq::Char(char::from(v as u8)) } else { Unq::Byte(v as u8) }, &s[4..]))
        }
        _ => None,
    }
}

