//! sprig: random strings and numbers (strings.go's `rand*` through goutils'
//! `CryptoRandom*`, crypto.go's `randBytes` and `uuidv4`, functions.go's
//! `randInt`). Every one is nondeterministic: the output marks it.

use base64::Engine;

use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

use super::strings::{arg_int, check_len, ok_string};

pub(super) fn register(m: &mut FuncMap) {
    const I: Param = Param::Int;
    let made = Derive::Made;
    m.add("randAlphaNum", Sig::fixed(&[I]), made, |c, a| random_string(c, a, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")).nondeterministic = true;
    m.add("randAlpha", Sig::fixed(&[I]), made, |c, a| random_string(c, a, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")).nondeterministic = true;
    m.add("randNumeric", Sig::fixed(&[I]), made, |c, a| random_string(c, a, b"0123456789")).nondeterministic = true;
    m.add("randAscii", Sig::fixed(&[I]), made, |c, a| {
        let printable: Vec<u8> = (32u8..=126).collect();
        random_string(c, a, &printable)
    })
    .nondeterministic = true;
    m.add("randBytes", Sig::fixed(&[I]), made, rand_bytes).nondeterministic = true;
    m.add("uuidv4", Sig::fixed(&[]), made, |_, _| ok_string(uuidv4())).nondeterministic = true;
    m.add("randInt", Sig::fixed(&[I, I]), made, rand_int).nondeterministic = true;
}

pub(super) fn fill(buf: &mut [u8]) {
    // The OS source failing is what Go's crypto/rand treats as fatal too;
    // a zeroed buffer would be a wrong answer, so retry is pointless: fall
    // back to the std hasher's per-process random keys.
    if getrandom::fill(buf).is_err() {
        use std::hash::{BuildHasher, Hasher};
        for (i, b) in buf.iter_mut().enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            *b = h.finish() as u8;
        }
    }
}

/// A uniform random number in `0..n` (n > 0), by rejection as Go's `Intn`.
pub(crate) fn below(n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let limit = u64::MAX - u64::MAX % n;
    loop {
        let mut b = [0u8; 8];
        fill(&mut b);
        let v = u64::from_le_bytes(b);
        if v < limit {
            return v % n;
        }
    }
}

/// goutils' `CryptoRandom` picks code points of its range uniformly and
/// keeps the letters and/or digits; that is a uniform choice among
/// `alphabet`. A negative count is its error, which sprig drops: "".
fn random_string(_: &Call<'_>, a: Vec<Tv>, alphabet: &[u8]) -> Result<Tv, FnError> {
    let count = arg_int(&a, 0)?;
    if count <= 0 {
        return ok_string(String::new());
    }
    check_len("rand", count as u128)?;
    let s: String = (0..count).map(|_| char::from(alphabet[below(alphabet.len() as u64) as usize])).collect();
    ok_string(s)
}

fn rand_bytes(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let count = arg_int(&a, 0)?;
    if count < 0 {
        // make([]byte, count) panics.
        return Err(FnError::Go("runtime error: makeslice: len out of range".into()));
    }
    check_len("randBytes", count as u128 * 4 / 3)?;
    let mut buf = vec![0u8; count as usize];
    fill(&mut buf);
    ok_string(base64::engine::general_purpose::STANDARD.encode(buf))
}

/// google/uuid `New()`: random, version 4, RFC 4122 variant.
fn uuidv4() -> String {
    let mut b = [0u8; 16];
    fill(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// `rand.Intn(max-min) + min` (math/rand panics when `max-min` <= 0).
fn rand_int(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (min, max) = (arg_int(&a, 0)?, arg_int(&a, 1)?);
    let n = max.wrapping_sub(min);
    if n <= 0 {
        return Err(FnError::Go("invalid argument to Intn".into()));
    }
    Ok(Tv::new(Val::Int((below(n as u64) as i64).wrapping_add(min))))
}

#[cfg(test)]
mod tests {
    use crate::gotmpl::sprig::strings::tests::{call, i, out};

    #[test]
    fn random_strings_have_the_length_and_alphabet_sprig_promises() {
        let s = out(call("randAlphaNum", vec![i(40)]));
        assert!(s.len() == 40 && s.bytes().all(|b| b.is_ascii_alphanumeric()), "{s}");
        assert!(out(call("randNumeric", vec![i(9)])).bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(out(call("randAlpha", vec![i(-1)])), "");
        let u = out(call("uuidv4", vec![]));
        assert!(u.len() == 36 && &u[14..15] == "4" && "89ab".contains(&u[19..20]), "{u}");
        assert_eq!(out(call("randInt", vec![i(5), i(5)])), "ERR Go(\"invalid argument to Intn\")");
        let n: i64 = out(call("randInt", vec![i(-3), i(2)])).parse().unwrap();
        assert!((-3..2).contains(&n));
    }
}
