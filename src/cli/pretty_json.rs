//! serde_json's pretty JSON of a [`serde_json::Value`] (`to_writer_pretty`:
//! two-space indentation, `": "`, `[]` and `{}` for empty containers, its
//! escapes), byte for byte, with a faster string writer.
//!
//! Why: `release decode --show record -o json` prints a record of several
//! MiB, nearly all of it one string (the manifest, a line break to escape
//! every few dozen bytes) and the chart's base64 files. serde_json looks up
//! every byte of a string in its escape table before it copies a run
//! (ser.rs format_escaped_str_contents); that was a fifth of the command's
//! instructions. Here a string is copied eight bytes at a time, with one
//! mask test per word for the bytes to escape (see [`write_str`]), into a
//! buffer that goes to the writer in pieces of up to 64 KiB.
//!
//! Everything but strings is written as serde_json's PrettyFormatter writes
//! it (ser.rs begin_array/end_array/begin_array_value/begin_object_key/
//! begin_object_value); numbers go through serde_json itself.

use std::io::{self, Write};

use serde_json::Value;

use crate::go::json_scan::{escape_mask, needs_escape, word};

const INDENT: &[u8] = b"  ";

/// Output is built in a buffer of this size and handed to the writer when
/// full (the caller's `BufWriter` passes writes this large through).
const BUF_LEN: usize = 1 << 16;

/// Input bytes of a string escaped in one go: room for six output bytes per
/// input byte (`\u00XX`) is made first, so the loop needs no checks.
const STRING_PIECE: usize = 4096;

/// The output buffer: a slice of fixed length with a position, not a `Vec`
/// pushed to, so that the string loop keeps its pointer and position in
/// registers (stores through a `Vec`'s pointer could alias its length, and
/// the compiler reloads both for each word).
struct Out<'w, W: Write + ?Sized> {
    buf: Vec<u8>,
    pos: usize,
    w: &'w mut W,
}

impl<W: Write + ?Sized> Out<'_, W> {
    fn flush(&mut self) -> io::Result<()> {
        self.w.write_all(&self.buf[..self.pos])?;
        self.pos = 0;
        Ok(())
    }

    /// Makes room for `n` more bytes (at most `BUF_LEN`).
    fn room(&mut self, n: usize) -> io::Result<()> {
        if self.pos + n > self.buf.len() { self.flush() } else { Ok(()) }
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.len() > self.buf.len() {
            self.flush()?;
            return self.w.write_all(bytes);
        }
        self.room(bytes.len())?;
        self.buf[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
        Ok(())
    }
}

/// Writes `value` as `serde_json::to_writer_pretty` does (no final newline).
pub fn write_pretty<W: Write + ?Sized>(w: &mut W, value: &Value) -> io::Result<()> {
    let mut out = Out { buf: vec![0; BUF_LEN], pos: 0, w };
    write_value(&mut out, value, 0)?;
    out.flush()
}

fn write_indent<W: Write + ?Sized>(out: &mut Out<'_, W>, depth: usize) -> io::Result<()> {
    for _ in 0..depth {
        out.put(INDENT)?;
    }
    Ok(())
}

fn write_value<W: Write + ?Sized>(out: &mut Out<'_, W>, value: &Value, depth: usize) -> io::Result<()> {
    match value {
        Value::Null => out.put(b"null"),
        Value::Bool(true) => out.put(b"true"),
        Value::Bool(false) => out.put(b"false"),
        Value::Number(n) => {
            // serde_json's own number spelling (itoa, ryu, `null` for a non-finite float).
            let mut text = Vec::with_capacity(24);
            serde_json::to_writer(&mut text, n).map_err(io::Error::from)?;
            out.put(&text)
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) if items.is_empty() => out.put(b"[]"),
        Value::Array(items) => {
            out.put(b"[")?;
            for (i, item) in items.iter().enumerate() {
                out.put(if i == 0 { b"\n" } else { b",\n" })?;
                write_indent(out, depth + 1)?;
                write_value(out, item, depth + 1)?;
            }
            out.put(b"\n")?;
            write_indent(out, depth)?;
            out.put(b"]")
        }
        Value::Object(map) if map.is_empty() => out.put(b"{}"),
        Value::Object(map) => {
            out.put(b"{")?;
            for (i, (key, item)) in map.iter().enumerate() {
                out.put(if i == 0 { b"\n" } else { b",\n" })?;
                write_indent(out, depth + 1)?;
                write_str(out, key)?;
                out.put(b": ")?;
                write_value(out, item, depth + 1)?;
            }
            out.put(b"\n")?;
            write_indent(out, depth)?;
            out.put(b"}")
        }
    }
}

/// serde_json's escape of one byte that [`needs_escape`] (ser.rs
/// `write_char_escape`: the short forms, else `\u00XX` in lower-case hex),
/// written at the start of `dst` (at least six bytes); returns its length.
fn put_escape(dst: &mut [u8], b: u8) -> usize {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            dst[..6].copy_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]]);
            return 6;
        }
    };
    dst[..2].copy_from_slice(&[b'\\', short]);
    2
}

/// A string, eight bytes at a time: each word is stored whole, and when it
/// holds a byte to escape the position is moved back to that byte, which is
/// written escaped; the next word starts just after it. Per clean word that
/// is a mask test and an eight-byte store, where serde_json tests each byte.
fn write_str<W: Write + ?Sized>(out: &mut Out<'_, W>, s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    out.put(b"\"")?;
    let mut at = 0;
    while at < bytes.len() {
        let piece_end = bytes.len().min(at + STRING_PIECE);
        // Six output bytes per input byte at most; a word's store (eight
        // bytes for eight input bytes) stays within that too.
        out.room(6 * (piece_end - at))?;
        let mut pos = out.pos;
        let buf = &mut out.buf[..];
        while at + 8 <= piece_end {
            let Some(x) = word(bytes, at) else { break };
            buf[pos..pos + 8].copy_from_slice(&x.to_le_bytes());
            let hits = escape_mask(x);
            if hits == 0 {
                at += 8;
                pos += 8;
                continue;
            }
            let first = (hits.trailing_zeros() / 8) as usize;
            pos += first;
            pos += put_escape(&mut buf[pos..], bytes[at + first]);
            at += first + 1;
        }
        for &b in &bytes[at..piece_end] {
            if needs_escape(b) {
                pos += put_escape(&mut buf[pos..], b);
            } else {
                buf[pos] = b;
                pos += 1;
            }
        }
        out.pos = pos;
        at = piece_end;
    }
    out.put(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ours(v: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        write_pretty(&mut out, v).unwrap();
        out
    }

    fn same_as_serde_json(v: &Value) {
        assert_eq!(String::from_utf8(ours(v)).unwrap(), serde_json::to_string_pretty(v).unwrap(), "{v:?}");
    }

    #[test]
    fn every_byte_value_in_every_position_of_a_block() {
        // Each character alone, and at each offset around the eight-byte words.
        for c in (0u32..0x80).chain([0xe9, 0x2028, 0xfeff, 0x1f600]) {
            let Some(c) = char::from_u32(c) else { continue };
            for pad in 0..40 {
                let s = format!("{}{c}{}", "a".repeat(pad), "b".repeat(40 - pad));
                same_as_serde_json(&Value::String(s.clone()));
                same_as_serde_json(&Value::String(format!("{c}{c}{s}{c}")));
            }
        }
    }

    #[test]
    fn generated_strings_match_serde_json() {
        // A small xorshift: deterministic strings from an alphabet heavy in escapes.
        let alphabet: Vec<char> = "ab \n\t\r\"\\/<>&\u{0}\u{1}\u{8}\u{c}\u{1f}\u{7f}é€😀\u{2028}".chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 90) as usize;
            let s: String = (0..len)
                .map(|i| {
                    let r = x.rotate_left(i as u32 * 7) ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
                    // Mostly plain letters, so clean blocks occur.
                    if r.is_multiple_of(4) { alphabet[(r >> 8) as usize % alphabet.len()] } else { 'x' }
                })
                .collect();
            same_as_serde_json(&json!({ s.clone(): [s.clone(), {"k": s}] }));
        }
    }

    #[test]
    fn structure_matches_serde_json() {
        same_as_serde_json(&json!(null));
        same_as_serde_json(&json!([]));
        same_as_serde_json(&json!({}));
        same_as_serde_json(&json!({"a": [], "b": {}, "c": [[], {}, [1, [2, {"d": null}]]], "e": {"f": {"g": {}}}}));
        same_as_serde_json(&json!([true, false, null, 0, -1, u64::MAX, i64::MIN, 1.5, -0.0, 1e300, 5e-324, 0.1, "s"]));
        same_as_serde_json(&json!({"name": "web", "info": {"status": "deployed"}, "version": 3, "chart": {"templates": [{"name": "t", "data": "QUJD"}]}}));
    }
}
