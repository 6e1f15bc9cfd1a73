//! Pretty JSON with Go's number spelling, the JSON of this program's own
//! output contracts (`-o json`): two-space indentation, keys in the order
//! given, numbers as Go's `encoding/json` writes a float64 or int64
//! ([`super::json::format_go_float64`]); strings escaped as JSON requires,
//! not with Go's HTML-safe escapes (people read these documents). Two forms
//! with the same bytes: [`to_json_go`] of a [`serde_json::Value`], and
//! [`GoJsonWriter`], which streams a document without building the value.

/// Pretty JSON with numbers as Go's encoding/json writes them (a float64
/// `42` prints `42`, `1.2345678901234567e19` prints `12345678901234567000`),
/// so values print the way Helm's JSON would.
pub fn to_json_go(value: &serde_json::Value) -> String {
    let mut out = Vec::with_capacity(1 << 16);
    write_json_go(&mut out, value, 0);
    out.push(b'\n');
    // Only valid UTF-8 was written (serde_json escapes strings; numbers are ASCII).
    String::from_utf8(out).unwrap_or_default()
}

/// [`to_json_go`]'s bytes without the line breaks and indentation (and without
/// the space after `:`): Go's numbers, serde_json's escapes, nothing else. Its
/// size is the value's, where the indented form grows with the square of the
/// nesting depth.
pub fn to_json_go_compact(value: &serde_json::Value) -> String {
    let mut out = Vec::with_capacity(256);
    write_json_go_compact(&mut out, value);
    // Only valid UTF-8 was written (serde_json escapes strings; numbers are ASCII).
    String::from_utf8(out).unwrap_or_default()
}

fn write_json_go_compact(out: &mut Vec<u8>, v: &serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => write_go_float(out, n),
        Value::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json_go_compact(out, x);
            }
            out.push(b']');
        }
        Value::Object(m) => {
            out.push(b'{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = serde_json::to_writer(&mut *out, k);
                out.push(b':');
                write_json_go_compact(out, x);
            }
            out.push(b'}');
        }
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// A float64 number as Go's encoding/json writes it.
fn write_go_float(out: &mut Vec<u8>, n: &serde_json::Number) {
    let f = n.as_f64().unwrap_or(0.0);
    if let Some(i) = small_whole(f) {
        out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
        return;
    }
    match crate::go::json::format_go_float64(f) {
        Some(text) => out.extend_from_slice(text.as_bytes()),
        None => out.extend_from_slice(n.to_string().as_bytes()),
    }
}

/// A float64 that holds a whole number of at most 15 digits, as that integer:
/// Go writes it as its digits (strconv 'f', no exponent below 1e21), as the
/// integer prints. Negative zero is left to the float path (`-0`).
fn small_whole(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 1e15 && !(f == 0.0 && f.is_sign_negative())).then_some(f as i64)
}

/// Pretty Go-style JSON written piece by piece: the same bytes as
/// [`to_json_go`] of the equivalent [`serde_json::Value`], without building
/// that value first (an `explain` document has tens of thousands of nodes).
#[derive(Debug, Default)]
pub struct GoJsonWriter {
    out: Vec<u8>,
    /// Per open container: whether it has an item yet (an empty one prints `{}`/`[]`).
    open: Vec<bool>,
    /// Reused for text built before it is written.
    scratch: String,
}

impl GoJsonWriter {
    pub fn with_capacity(n: usize) -> Self {
        GoJsonWriter { out: Vec::with_capacity(n), open: Vec::new(), scratch: String::new() }
    }

    /// Opens an object (`b'{'`) or array (`b'['`).
    pub fn begin(&mut self, open: u8) {
        self.out.push(open);
        self.open.push(false);
    }

    /// Closes the innermost container with `b'}'` or `b']'`.
    pub fn end(&mut self, close: u8) {
        if self.open.pop() == Some(true) {
            self.out.push(b'\n');
            indent(&mut self.out, self.open.len());
        }
        self.out.push(close);
    }

    /// Starts the next array element.
    pub fn elem(&mut self) {
        let depth = self.open.len();
        match self.open.last_mut() {
            // `,` and the line break and indentation in one copy, when shallow enough.
            Some(has_items) if depth <= MAX_FAST_DEPTH => {
                let from = if *has_items { 0 } else { 1 };
                *has_items = true;
                self.out.extend_from_slice(&COMMA_NEWLINE_SPACES[from..2 + 2 * depth]);
            }
            Some(has_items) => {
                self.out.extend_from_slice(if *has_items { b",\n" } else { b"\n" });
                *has_items = true;
                indent(&mut self.out, depth);
            }
            None => indent(&mut self.out, depth),
        }
    }

    /// Starts the next object member: its key and `: `.
    pub fn key(&mut self, k: &str) {
        self.elem();
        self.str(k);
        self.out.extend_from_slice(b": ");
    }

    /// [`key`](Self::key) for a key of the document's own (ASCII, nothing to escape).
    pub fn field(&mut self, k: &'static str) {
        debug_assert!(!needs_escape(k.as_bytes()));
        self.elem();
        self.out.reserve(k.len() + 4);
        self.out.push(b'"');
        self.out.extend_from_slice(k.as_bytes());
        self.out.extend_from_slice(b"\": ");
    }

    pub fn str(&mut self, s: &str) {
        write_json_str(&mut self.out, s);
    }

    /// A value path as a JSON string.
    pub fn path(&mut self, p: &crate::keypath::Path) {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        p.write_into(&mut text);
        self.str(&text);
        self.scratch = text;
    }

    /// `true`, `false`, `null` or another token written as is.
    pub fn raw(&mut self, token: &str) {
        self.out.extend_from_slice(token.as_bytes());
    }

    pub fn int(&mut self, i: i64) {
        self.out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
    }

    /// A float64 as Go prints it; `null` for what JSON cannot hold (as a
    /// [`serde_json::Number`] refuses it).
    pub fn float(&mut self, f: f64) {
        if let Some(i) = small_whole(f) {
            self.int(i);
            return;
        }
        match crate::go::json::format_go_float64(f) {
            Some(text) => self.out.extend_from_slice(text.as_bytes()),
            None => self.out.extend_from_slice(b"null"),
        }
    }

    /// A whole value at the current depth.
    pub fn value(&mut self, v: &serde_json::Value) {
        write_json_go(&mut self.out, v, self.open.len());
    }

    /// Writes what was written so far to `sink` once it holds at least
    /// `at_least` bytes (a long document goes out in pieces).
    pub fn flush_to(&mut self, sink: &mut dyn std::io::Write, at_least: usize) -> std::io::Result<()> {
        if self.out.len() >= at_least {
            sink.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    /// The document with its final newline.
    pub fn finish(mut self) -> String {
        self.out.push(b'\n');
        // Only valid UTF-8 was written (serde_json escapes strings; numbers are ASCII).
        String::from_utf8(self.out).unwrap_or_default()
    }
}

/// `s` as a JSON string, escaped byte for byte as serde_json escapes it
/// (`\"`, `\\`, `\b \t \n \f \r`, other control characters as
/// `\u00xx` in lower-case hex; nothing else), without its serializer.
fn write_json_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    if !needs_escape(b) {
        out.extend_from_slice(b);
    } else {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        // Per byte: 0 when it stands for itself, else the letter after its `\\`.
        const ESCAPE: [u8; 256] = {
            let mut t = [0u8; 256];
            let mut c = 0;
            while c < 0x20 {
                t[c] = b'u';
                c += 1;
            }
            t[0x08] = b'b';
            t[0x09] = b't';
            t[0x0A] = b'n';
            t[0x0C] = b'f';
            t[0x0D] = b'r';
            t[b'"' as usize] = b'"';
            t[b'\\' as usize] = b'\\';
            t
        };
        let mut run = 0;
        let mut from = 0;
        while from < b.len() {
            let to = (from + 8).min(b.len());
            // Eight bytes with nothing to escape go with the run; else byte by byte.
            if to - from == 8 && !needs_escape(&b[from..to]) {
                from = to;
                continue;
            }
            for (i, &c) in b.iter().enumerate().take(to).skip(from) {
                let short = ESCAPE[usize::from(c)];
                if short == 0 {
                    continue;
                }
                out.extend_from_slice(&b[run..i]);
                run = i + 1;
                if short == b'u' {
                    out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 0xF)]]);
                } else {
                    out.extend_from_slice(&[b'\\', short]);
                }
            }
            from = to;
        }
        out.extend_from_slice(&b[run..]);
    }
    out.push(b'"');
}

/// Whether serde_json would escape anything in `s` (a control character, `"` or `\\`).
fn needs_escape(s: &[u8]) -> bool {
    // Eight bytes at a time, the last few padded with spaces (which need no escape).
    let mut chunks = s.chunks_exact(8);
    let mut any = false;
    for c in &mut chunks {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        any |= word_escapes(u64::from_le_bytes(b));
    }
    let rest = chunks.remainder();
    let mut b = [b' '; 8];
    b[..rest.len()].copy_from_slice(rest);
    any | word_escapes(u64::from_le_bytes(b))
}

/// Whether one of the eight bytes of `x` is below 0x20, `"` or `\\` (exact
/// as a yes or no: the borrow tricks' stray bits only follow a true match).
fn word_escapes(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
    (below_space | zero_byte(x ^ (ONES * u64::from(b'"'))) | zero_byte(x ^ (ONES * u64::from(b'\\')))) != 0
}

/// Deepest level whose separator [`GoJsonWriter::elem`] copies in one go.
const MAX_FAST_DEPTH: usize = 31;
/// `,`, a line break and indentation for up to [`MAX_FAST_DEPTH`] levels.
const COMMA_NEWLINE_SPACES: [u8; 2 + 2 * MAX_FAST_DEPTH] = {
    let mut b = [b' '; 2 + 2 * MAX_FAST_DEPTH];
    b[0] = b',';
    b[1] = b'\n';
    b
};

fn indent(out: &mut Vec<u8>, n: usize) {
    const SPACES: &[u8] = &[b' '; 64];
    let mut n = 2 * n;
    while n > 0 {
        let take = n.min(SPACES.len());
        out.extend_from_slice(&SPACES[..take]);
        n -= take;
    }
}

fn write_json_go(out: &mut Vec<u8>, v: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => write_go_float(out, n),
        Value::Array(a) if !a.is_empty() => {
            out.extend_from_slice(b"[\n");
            for (i, x) in a.iter().enumerate() {
                indent(out, depth + 1);
                write_json_go(out, x, depth + 1);
                out.extend_from_slice(if i + 1 < a.len() { b",\n" } else { b"\n" });
            }
            indent(out, depth);
            out.push(b']');
        }
        Value::Object(m) if !m.is_empty() => {
            out.extend_from_slice(b"{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                indent(out, depth + 1);
                write_json_str(out, k);
                out.extend_from_slice(b": ");
                write_json_go(out, x, depth + 1);
                out.extend_from_slice(if i + 1 < m.len() { b",\n" } else { b"\n" });
            }
            indent(out, depth);
            out.push(b'}');
        }
        Value::String(s) => write_json_str(out, s),
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_floats_print_as_the_float_path_prints_them() {
        for f in [0.0, -0.0, 1.0, -1.0, 42.0, 1e14, 999_999_999_999_999.0, 1e15, -1e15, 1e20, 1e21, 0.5, 12345678901234567890.0] {
            let mut w = GoJsonWriter::default();
            w.float(f);
            assert_eq!(String::from_utf8(w.out).unwrap(), crate::go::json::format_go_float64(f).unwrap(), "{f}");
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut every: String = (0u8..=0x7F).map(char::from).collect();
        every.push_str("é\u{85}\u{2028}\u{FFFD}\u{10FF00}");
        let long: Vec<String> = (0..=66).map(|at| {
            let mut s = "é".repeat(3) + &"x".repeat(66);
            s.insert(at + 6, if at % 2 == 0 { '"' } else { '\n' });
            s
        }).collect();
        let cases = [every.as_str(), "", "plain", "a\"b\\c", "x\ny\tz\r\u{1}\u{1f}\u{7f}", "{{ .Values.x | quote }} \"q\""];
        let short: Vec<String> = (0u8..=0x7F).flat_map(|c| (0..17).map(move |k| "a".repeat(k) + &char::from(c).to_string() + "é")).collect();
        for s in cases.into_iter().chain(long.iter().map(String::as_str)).chain(short.iter().map(String::as_str)) {
            let mut ours = Vec::new();
            write_json_str(&mut ours, s);
            assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn compact_json_is_the_indented_json_without_its_layout() {
        let v = serde_json::json!({"a": [1.0, 2.5, [], {}, {"k k": "x y\nz"}], "b": {"c": [null, true, -0.0, 1e300]}, "": 12345678901234567890.0});
        let pretty = to_json_go(&v);
        let layout_free: String = {
            // Outside strings the indented form adds only line breaks, indentation and the space after `:`.
            let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
            for c in pretty.chars() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' if in_string => escaped = true,
                    '"' => in_string = !in_string,
                    ' ' | '\n' if !in_string => continue,
                    _ => {}
                }
                out.push(c);
            }
            out
        };
        assert_eq!(to_json_go_compact(&v), layout_free);
    }

    #[test]
    fn the_escape_check_agrees_with_a_byte_by_byte_one() {
        let naive = |s: &[u8]| s.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
        let mut seed = 7u64;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        // Mostly printable, sometimes the bytes that matter or high bytes.
                        match (seed >> 33) % 10 {
                            0 => [b'"', b'\\', 0x1f, 0x00, 0x20, 0x7f, 0x80, 0xff][((seed >> 40) % 8) as usize],
                            _ => b'a' + ((seed >> 45) % 26) as u8,
                        }
                    })
                    .collect();
                assert_eq!(needs_escape(&bytes), naive(&bytes), "{bytes:?}");
            }
        }
    }
}
