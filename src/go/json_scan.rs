//! Finding the next byte of interest in JSON string text, eight bytes at a
//! time (SWAR: one `u64` per step, exact per-byte tests, no false hits).
//!
//! Why not `memchr`: in a record's manifest the bytes looked for (the `\`
//! of each escaped line break or quote, the `"` that ends the string) come
//! every 17 bytes on average (284,000 escapes in a 4.8 MB manifest), so a
//! `memchr` call's set-up is paid for every few words; inlined steps fit
//! such runs better (callgrind: a few percent of `release decode`, and the
//! pretty writer and the in-place unescape need the word itself, to store
//! it whole).

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `b`, nothing else: a byte of
/// `t` is zero exactly where `x` has `b`; `(t & 0x7f) + 0x7f` sets a byte's
/// high bit when its low seven bits are not all zero (and cannot carry into
/// the next byte), `| t` when its own high bit is set.
pub fn eq_mask(x: u64, b: u8) -> u64 {
    let t = x ^ (LO * u64::from(b));
    !(((t & !HI) + !HI) | t) & HI
}

/// The high bit of each byte of `x` below 0x20 (a control character): the
/// sum sets the high bit of bytes whose low seven bits are at least 0x20
/// (at most 0x7f + 0x60, no carry), `| x` that of bytes from 0x80.
fn control_mask(x: u64) -> u64 {
    !(((x & !HI) + LO * 0x60) | x) & HI
}

/// The eight bytes at `at` as one little-endian word (first byte lowest).
pub fn word(bytes: &[u8], at: usize) -> Option<u64> {
    bytes.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes)
}

/// The first index at or after `from` whose byte is `a` or `b`.
pub fn find2(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    let mut at = from;
    while let Some(x) = word(bytes, at) {
        let hits = eq_mask(x, a) | eq_mask(x, b);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes.get(at..)?.iter().position(|&c| c == a || c == b).map(|i| at + i)
}

/// The first index at or after `from` whose byte is `b`.
pub fn find1(bytes: &[u8], from: usize, b: u8) -> Option<usize> {
    find2(bytes, from, b, b)
}

/// Whether JSON requires `b` escaped in a string: a control character, `"`
/// or `\` (RFC 8259 section 7; also exactly serde_json's ser.rs `ESCAPE`).
pub fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The high bit of each byte of `x` that [`needs_escape`].
pub fn escape_mask(x: u64) -> u64 {
    eq_mask(x, b'"') | eq_mask(x, b'\\') | control_mask(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_exact_for_every_byte_in_every_lane() {
        for lane in 0..8 {
            for b in 0..=255u8 {
                for fill in [0u8, b'a', 0x7f, 0x80, 0xff, b'"', b'\\'] {
                    let mut w = [fill; 8];
                    w[lane] = b;
                    let x = u64::from_le_bytes(w);
                    for (i, &c) in w.iter().enumerate() {
                        let bit = 0x80u64 << (8 * i);
                        assert_eq!(eq_mask(x, b'\\') & bit != 0, c == b'\\', "{w:?} lane {i}");
                        assert_eq!(eq_mask(x, b) & bit != 0, c == b, "{w:?} lane {i}");
                        assert_eq!(control_mask(x) & bit != 0, c < 0x20, "{w:?} lane {i}");
                        assert_eq!(escape_mask(x) & bit != 0, needs_escape(c), "{w:?} lane {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn finders_agree_with_a_byte_loop() {
        let mut x: u32 = 0x1234_5678;
        let alphabet = b"ab\\\"\n\x00\x1f\x7f\xc3\xa9 ";
        for len in 0..70 {
            for _ in 0..40 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        if x.is_multiple_of(5) { alphabet[(x >> 8) as usize % alphabet.len()] } else { b'x' }
                    })
                    .collect();
                for from in 0..=len {
                    let naive2 = bytes[from..].iter().position(|&c| c == b'"' || c == b'\\').map(|i| from + i);
                    assert_eq!(find2(&bytes, from, b'"', b'\\'), naive2);
                    assert_eq!(find1(&bytes, from, b'\\'), bytes[from..].iter().position(|&c| c == b'\\').map(|i| from + i));
                }
            }
        }
    }
}
