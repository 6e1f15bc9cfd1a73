//! Go's readings of scalar text as `strvals` uses them: `typedVal` for
//! `--set` values and `strconv.Atoi` for list indexes.

use serde_json::Value;

use super::StrvalsError;

/// `typedVal` for `--set`: `true`/`false`/`null` in any case (Go's
/// `strings.EqualFold`, so `ſ` matches `s`), `0`, and decimal int64s that
/// do not start with `0` (signs allowed: `-5`, `+7`, `-007`); anything else
/// stays a string.
pub(super) fn typed_val(s: String) -> Value {
    if equal_fold_ascii(&s, "true") {
        return Value::Bool(true);
    }
    if equal_fold_ascii(&s, "false") {
        return Value::Bool(false);
    }
    if equal_fold_ascii(&s, "null") {
        return Value::Null;
    }
    if s == "0" {
        return Value::from(0i64);
    }
    if !s.is_empty()
        && !s.starts_with('0')
        && let Ok(i) = s.parse::<i64>()
    {
        return Value::from(i);
    }
    Value::String(s)
}

/// `strings.EqualFold(s, word)` for a lower-case ASCII `word` made of the
/// letters of `true`, `false` and `null`. Of their Unicode simple-fold
/// orbits only `s`'s has a non-ASCII member: U+017F `ſ`.
fn equal_fold_ascii(s: &str, word: &str) -> bool {
    let mut cs = s.chars();
    for w in word.chars() {
        match cs.next() {
            Some(c) if c.to_ascii_lowercase() == w => {}
            Some('\u{17f}') if w == 's' => {}
            _ => return false,
        }
    }
    cs.next().is_none()
}

/// `strconv.Atoi` on a 64-bit platform, errors as `StrvalsError`s.
pub(super) fn atoi(s: &str) -> Result<i64, StrvalsError> {
    let syntax = || StrvalsError::IndexSyntax(s.to_string());
    let range = || StrvalsError::IndexRange(s.to_string());
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return Err(syntax());
    }
    if b.len() < 19 {
        // Go's fast path: at most 18 digits always fit.
        let mut n: i64 = 0;
        for &c in digits {
            if !c.is_ascii_digit() {
                return Err(syntax());
            }
            n = n * 10 + i64::from(c - b'0');
        }
        return Ok(if neg { -n } else { n });
    }
    // ParseInt(s, 10, 0): ParseUint reports overflow as soon as it happens,
    // before looking at later characters.
    const CUTOFF: u64 = u64::MAX / 10 + 1;
    let mut n: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return Err(syntax());
        }
        if n >= CUTOFF {
            return Err(range());
        }
        n *= 10;
        let n1 = n.wrapping_add(u64::from(c - b'0'));
        if n1 < n {
            return Err(range());
        }
        n = n1;
    }
    const LIMIT: u64 = 1 << 63;
    if (!neg && n >= LIMIT) || (neg && n > LIMIT) {
        return Err(range());
    }
    Ok(if neg {
        (n as i64).wrapping_neg()
    } else {
        n as i64
    })
}
