//! sprig: encoding (strings.go `base64encode`/`base64decode`/`base32*`).
//! On invalid input sprig's decoders return the Go error's text as the
//! result (`illegal base64 data at input byte N`), so the decoders here
//! are Go's own algorithms (encoding/base64 `decodeQuantum`,
//! encoding/base32 `decode`, Go 1.19), which decide that N.

use base64::Engine;

use crate::gotmpl::func::{Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

use super::strings::{arg_str, ok_string};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

pub(super) fn register(m: &mut FuncMap) {
    let sig = Sig::fixed(&[Param::String]);
    m.add("b64enc", sig, Derive::Made, |_, a| ok_string(base64::engine::general_purpose::STANDARD.encode(arg_str(&a, 0)?)));
    m.add("b64dec", sig, Derive::Made, |_, a| decoded("base64", base64_decode(arg_str(&a, 0)?.as_bytes())));
    m.add("b32enc", sig, Derive::Made, |_, a| ok_string(base32_encode(arg_str(&a, 0)?.as_bytes())));
    m.add("b32dec", sig, Derive::Made, |_, a| decoded("base32", base32_decode(arg_str(&a, 0)?.as_bytes())));
}

/// sprig returns `string(data)`, or the error's text.
fn decoded(kind: &str, r: Result<Vec<u8>, usize>) -> Result<Tv, FnError> {
    match r {
        Ok(bytes) => String::from_utf8(bytes).map(|s| Tv::new(Val::Str(s))).map_err(|_| FnError::Unsupported("decoded bytes that are not UTF-8 (Go would print them raw)".into())),
        Err(at) => ok_string(format!("illegal {kind} data at input byte {at}")),
    }
}

fn decode_map(alphabet: &[u8]) -> [u8; 256] {
    let mut m = [0xFFu8; 256];
    for (i, &c) in alphabet.iter().enumerate() {
        m[c as usize] = i as u8;
    }
    m
}

/// `base64.StdEncoding.DecodeString`; `Err(n)`: CorruptInputError(n).
pub(super) fn base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let map = decode_map(B64);
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        let (next, err) = decode_quantum(&map, src, si, &mut out);
        si = next;
        if let Some(at) = err {
            return Err(at);
        }
    }
    Ok(out)
}

/// One 4-character quantum (newlines skipped); returns the next index and
/// the error offset, appending the decoded bytes.
fn decode_quantum(map: &[u8; 256], src: &[u8], mut si: usize, out: &mut Vec<u8>) -> (usize, Option<usize>) {
    let mut dbuf = [0u8; 4];
    let mut dlen = 4;
    let mut err = None;
    let mut j = 0;
    while j < 4 {
        if si == src.len() {
            if j == 0 {
                return (si, None);
            }
            // StdEncoding pads: a short final quantum is an error.
            return (si, Some(si - j));
        }
        let c = src[si];
        si += 1;
        let v = map[c as usize];
        if v != 0xFF {
            dbuf[j] = v;
            j += 1;
            continue;
        }
        if c == b'\n' || c == b'\r' {
            continue;
        }
        if c != b'=' {
            return (si, Some(si - 1));
        }
        match j {
            0 | 1 => return (si, Some(si - 1)),
            2 => {
                while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                    si += 1;
                }
                if si == src.len() {
                    return (si, Some(src.len()));
                }
                if src[si] != b'=' {
                    return (si, Some(si - 1));
                }
                si += 1;
            }
            _ => {}
        }
        while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
            si += 1;
        }
        if si < src.len() {
            err = Some(si);
        }
        dlen = j;
        break;
    }
    let val = (dbuf[0] as u32) << 18 | (dbuf[1] as u32) << 12 | (dbuf[2] as u32) << 6 | dbuf[3] as u32;
    let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
    out.extend_from_slice(&bytes[..dlen - 1]);
    (si, err)
}

/// `base32.StdEncoding.EncodeToString`.
pub(super) fn base32_encode(src: &[u8]) -> String {
    let mut out = String::with_capacity(src.len().div_ceil(5) * 8);
    for chunk in src.chunks(5) {
        let mut b = [0u8; 5];
        b[..chunk.len()].copy_from_slice(chunk);
        let v = u64::from_be_bytes([0, 0, 0, b[0], b[1], b[2], b[3], b[4]]);
        let chars = match chunk.len() {
            1 => 2,
            2 => 4,
            3 => 5,
            4 => 7,
            _ => 8,
        };
        for k in 0..8 {
            if k < chars {
                out.push(char::from(B32[((v >> (35 - 5 * k)) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base32.StdEncoding.DecodeString` (newlines stripped first, so error
/// offsets count without them, as Go's do).
pub(super) fn base32_decode(input: &[u8]) -> Result<Vec<u8>, usize> {
    let map = decode_map(B32);
    let src: Vec<u8> = input.iter().copied().filter(|&c| c != b'\n' && c != b'\r').collect();
    let olen = src.len();
    let mut rest: &[u8] = &src;
    let mut out = Vec::new();
    let mut end = false;
    while !rest.is_empty() && !end {
        let mut dbuf = [0u8; 8];
        let mut dlen = 8;
        let mut j = 0;
        while j < 8 {
            let Some((&c, tail)) = rest.split_first() else {
                return Err(olen - j);
            };
            rest = tail;
            if c == b'=' && j >= 2 && rest.len() < 8 {
                if rest.len() + j < 7 {
                    return Err(olen);
                }
                for k in 0..7 - j {
                    if rest.len() > k && rest[k] != b'=' {
                        return Err(olen - rest.len() + k - 1);
                    }
                }
                dlen = j;
                end = true;
                if matches!(dlen, 1 | 3 | 6) {
                    return Err(olen - rest.len() - 1);
                }
                break;
            }
            dbuf[j] = map[c as usize];
            if dbuf[j] == 0xFF {
                return Err(olen - rest.len() - 1);
            }
            j += 1;
        }
        let d = dbuf;
        let bytes = [d[0] << 3 | d[1] >> 2, d[1] << 6 | d[2] << 1 | d[3] >> 4, d[3] << 4 | d[4] >> 1, d[4] << 7 | d[5] << 2 | d[6] >> 3, d[6] << 5 | d[7]];
        let n = match dlen {
            8 => 5,
            7 => 4,
            5 => 3,
            4 => 2,
            2 => 1,
            _ => 0,
        };
        out.extend_from_slice(&bytes[..n]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_base64_and_base32_decoders_report_the_byte_go_reports() {
        assert_eq!(base64_decode(b"aGk="), Ok(b"hi".to_vec()));
        assert_eq!(base64_decode(b"aGk"), Err(0));
        assert_eq!(base64_decode(b"a!"), Err(1));
        assert_eq!(base32_encode(b"hi"), "NBUQ====");
        assert_eq!(base32_decode(b"NBUQ===="), Ok(b"hi".to_vec()));
        assert_eq!(base32_decode(b"NBUQ"), Err(0));
    }
}
