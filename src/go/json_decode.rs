//! The part of Go's `encoding/json` that `--set-json` goes through: one
//! value read with a `json.Decoder` (strvals' `key=<json>` form, which then
//! skips exactly the bytes the value used), and `json.Unmarshal` of a whole
//! object (the `--set-json '{...}'` form). Numbers are float64, objects keep
//! the last of duplicate keys, invalid `\u` surrogates become U+FFFD, and the
//! errors read as Go's (`invalid character 'x' looking for beginning of
//! value`, `unexpected EOF`, `json: cannot unmarshal number 1e400 into Go
//! value of type float64`).

use serde_json::{Map, Number, Value};

use super::quote::json_quote_char;

/// `encoding/json`'s `maxNestingDepth` (go/src/encoding/json/scanner.go):
/// an object or array opened at a deeper level is a syntax error.
pub const MAX_DEPTH: usize = 10_000;

/// Where a JSON text opens an object or array past [`MAX_DEPTH`]: the
/// opening byte and its offset, as encoding/json's scanner stops there
/// (`invalid character '[' exceeded max depth`). A scan of the bytes alone
/// (strings skipped), so that a parser without a depth limit may then read
/// any text it passes; syntax errors are left to that parser.
pub fn first_too_deep(text: &[u8]) -> Option<(u8, usize)> {
    DepthScan::default().scan(text)
}

/// [`first_too_deep`] over a text that comes in pieces (a stream): the
/// scanner's state carries from one piece to the next, offsets count from
/// the start of the whole text.
#[derive(Debug, Default, Clone)]
pub struct DepthScan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    offset: usize,
}

impl DepthScan {
    /// Scans the next piece; the first opening past [`MAX_DEPTH`] in it, if any.
    pub fn scan(&mut self, piece: &[u8]) -> Option<(u8, usize)> {
        let start = self.offset;
        self.offset += piece.len();
        let mut i = 0;
        while i < piece.len() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    i += 1;
                    continue;
                }
                // String bodies are most of a record (manifests, templates): jump to the next quote or
                // backslash, eight bytes at a time (a manifest has an escape every ~17 bytes, too
                // short a run for a memchr call to pay; see json_scan).
                match crate::go::json_scan::find2(piece, i, b'"', b'\\') {
                    None => return None,
                    Some(at) => {
                        i = at;
                        if piece[i] == b'\\' {
                            self.escaped = true;
                        } else {
                            self.in_string = false;
                        }
                        i += 1;
                    }
                }
                continue;
            }
            match piece[i] {
                b'"' => self.in_string = true,
                b @ (b'[' | b'{') => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return Some((b, start + i));
                    }
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        None
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum JsonError {
    /// A scanner `SyntaxError`, message complete.
    Syntax(String),
    /// The input ended inside the value.
    Eof,
    /// A number outside float64's range (`UnmarshalTypeError`).
    Range(String),
}

impl JsonError {
    /// The text a `json.Decoder` gives.
    pub fn decoder_text(&self) -> String {
        match self {
            JsonError::Syntax(m) => m.clone(),
            JsonError::Eof => "unexpected EOF".into(),
            JsonError::Range(n) => {
                format!("json: cannot unmarshal number {n} into Go value of type float64")
            }
        }
    }

    /// The text `json.Unmarshal` gives.
    pub fn unmarshal_text(&self) -> String {
        match self {
            JsonError::Eof => "unexpected end of JSON input".into(),
            other => other.decoder_text(),
        }
    }
}

fn syntax(c: u8, context: &str) -> JsonError {
    JsonError::Syntax(format!(
        "invalid character {} {context}",
        json_quote_char(c)
    ))
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

enum Frame {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// The first number out of float64 range; Go reports it once the whole
    /// value has been scanned (syntax errors take precedence).
    range_err: Option<String>,
}

impl Scan<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.b.len() && is_ws(self.b[self.i]) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Result<u8, JsonError> {
        self.b.get(self.i).copied().ok_or(JsonError::Eof)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let h = self.s.get(at..at + 4)?;
        if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(h, 16).ok()
    }

    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1;
        let mut out = String::new();
        let mut run = self.i;
        loop {
            let c = self.peek()?;
            match c {
                b'"' => {
                    out.push_str(&self.s[run..self.i]);
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(&self.s[run..self.i]);
                    self.i += 1;
                    let e = self.peek()?;
                    match e {
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'\\' | b'/' | b'"' => out.push(e as char),
                        b'u' => {
                            for k in 1..=4 {
                                match self.b.get(self.i + k) {
                                    None => return Err(JsonError::Eof),
                                    Some(h) if h.is_ascii_hexdigit() => {}
                                    Some(&h) => {
                                        return Err(syntax(
                                            h,
                                            "in \\u hexadecimal character escape",
                                        ));
                                    }
                                }
                            }
                            let r = self.hex4(self.i + 1).unwrap_or(0xfffd);
                            self.i += 4;
                            if (0xd800..0xe000).contains(&r) {
                                // A valid pair needs a following \uXXXX low surrogate.
                                let next = self.i + 1;
                                let low = if self.b.get(next) == Some(&b'\\')
                                    && self.b.get(next + 1) == Some(&b'u')
                                {
                                    self.hex4(next + 2)
                                } else {
                                    None
                                };
                                match low {
                                    Some(lo) if r < 0xdc00 && (0xdc00..0xe000).contains(&lo) => {
                                        let cp = 0x10000 + ((r - 0xd800) << 10) + (lo - 0xdc00);
                                        out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                                        self.i += 6;
                                    }
                                    _ => out.push('\u{fffd}'),
                                }
                            } else {
                                out.push(char::from_u32(r).unwrap_or('\u{fffd}'));
                            }
                        }
                        other => return Err(syntax(other, "in string escape code")),
                    }
                    self.i += 1;
                    run = self.i;
                }
                c if c < 0x20 => return Err(syntax(c, "in string literal")),
                _ => self.i += 1,
            }
        }
    }

    fn digits(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        if self.b[self.i] == b'-' {
            self.i += 1;
            match self.peek()? {
                b'0' => self.i += 1,
                b'1'..=b'9' => self.digits(),
                c => return Err(syntax(c, "in numeric literal")),
            }
        } else if self.b[self.i] == b'0' {
            self.i += 1;
        } else {
            self.digits();
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            match self.peek()? {
                c if c.is_ascii_digit() => self.digits(),
                c => return Err(syntax(c, "after decimal point in numeric literal")),
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek()?, b'+' | b'-') {
                self.i += 1;
            }
            match self.peek()? {
                c if c.is_ascii_digit() => self.digits(),
                c => return Err(syntax(c, "in exponent of numeric literal")),
            }
        }
        let text = &self.s[start..self.i];
        let f: f64 = text.parse().unwrap_or(f64::INFINITY);
        match Number::from_f64(f) {
            Some(n) if f.is_finite() => Ok(Value::Number(n)),
            _ => {
                if self.range_err.is_none() {
                    self.range_err = Some(text.to_string());
                }
                Ok(Value::Null)
            }
        }
    }

    fn literal(&mut self, word: &'static str, v: Value) -> Result<Value, JsonError> {
        for want in word.bytes().skip(1) {
            self.i += 1;
            let c = self.peek()?;
            if c != want {
                let ctx = format!("in literal {word} (expecting {})", json_quote_char(want));
                return Err(syntax(c, &ctx));
            }
        }
        self.i += 1;
        Ok(v)
    }

    /// An object key after `{` or `,` (whitespace allowed before it), then
    /// the `:` after it.
    fn object_key(&mut self) -> Result<String, JsonError> {
        self.skip_ws();
        let c = self.peek()?;
        if c != b'"' {
            return Err(syntax(c, "looking for beginning of object key string"));
        }
        let k = self.string()?;
        self.skip_ws();
        let c = self.peek()?;
        if c != b':' {
            return Err(syntax(c, "after object key"));
        }
        self.i += 1;
        Ok(k)
    }

    /// One value from the current position: the value, with `self.i` just
    /// past its last byte.
    fn value(&mut self) -> Result<Value, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_ws();
            let c = self.peek()?;
            let mut v = match c {
                b'{' | b'[' => {
                    if stack.len() + 1 > MAX_DEPTH {
                        return Err(syntax(c, "exceeded max depth"));
                    }
                    self.i += 1;
                    self.skip_ws();
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                        if c == b'{' {
                            Value::Object(Map::new())
                        } else {
                            Value::Array(Vec::new())
                        }
                    } else if c == b'{' {
                        let k = self.object_key()?;
                        stack.push(Frame::Object(Map::new(), k));
                        continue 'value;
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                b'"' => Value::String(self.string()?),
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal("true", Value::Bool(true))?,
                b'f' => self.literal("false", Value::Bool(false))?,
                b'n' => self.literal("null", Value::Null)?,
                c => return Err(syntax(c, "looking for beginning of value")),
            };
            // A value is complete: hand it to the enclosing container.
            loop {
                match stack.last_mut() {
                    None => return Ok(v),
                    Some(Frame::Array(items)) => {
                        items.push(v);
                        self.skip_ws();
                        match self.peek()? {
                            b',' => {
                                self.i += 1;
                                continue 'value;
                            }
                            b']' => {
                                self.i += 1;
                                let Some(Frame::Array(items)) = stack.pop() else {
                                    unreachable!()
                                };
                                v = Value::Array(items);
                            }
                            c => return Err(syntax(c, "after array element")),
                        }
                    }
                    Some(Frame::Object(map, key)) => {
                        map.insert(std::mem::take(key), v);
                        self.skip_ws();
                        match self.peek()? {
                            b',' => {
                                self.i += 1;
                                let k = self.object_key()?;
                                if let Some(Frame::Object(_, key)) = stack.last_mut() {
                                    *key = k;
                                }
                                continue 'value;
                            }
                            b'}' => {
                                self.i += 1;
                                let Some(Frame::Object(map, _)) = stack.pop() else {
                                    unreachable!()
                                };
                                v = Value::Object(map);
                            }
                            c => return Err(syntax(c, "after object key:value pair")),
                        }
                    }
                }
            }
        }
    }
}

/// `json.NewDecoder(strings.NewReader(s)).Decode(&v)` followed by
/// `InputOffset()`: the first JSON value of `s` and the number of bytes it
/// used (leading whitespace included). Whatever follows the value is not
/// looked at, so `1x` gives 1 and leaves `x`.
pub fn decode_prefix(s: &str) -> Result<(Value, usize), JsonError> {
    let mut scan = Scan {
        s,
        b: s.as_bytes(),
        i: 0,
        range_err: None,
    };
    let v = scan.value()?;
    if let Some(n) = scan.range_err {
        return Err(JsonError::Range(n));
    }
    Ok((v, scan.i))
}

/// `json.Unmarshal([]byte(s), &v)`: exactly one value, whitespace around it.
pub fn unmarshal(s: &str) -> Result<Value, JsonError> {
    let mut scan = Scan {
        s,
        b: s.as_bytes(),
        i: 0,
        range_err: None,
    };
    let v = scan.value()?;
    scan.skip_ws();
    if let Some(&c) = scan.b.get(scan.i) {
        return Err(syntax(c, "after top-level value"));
    }
    if let Some(n) = scan.range_err {
        return Err(JsonError::Range(n));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(s: &str) -> Result<(Value, usize), String> {
        decode_prefix(s).map_err(|e| e.decoder_text())
    }

    /// The scan as first written, one byte at a time: the reference.
    fn byte_by_byte(text: &[u8]) -> Option<(u8, usize)> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (i, &b) in text.iter().enumerate() {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Some((b, i));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        None
    }

    #[test]
    fn depth_scan_in_pieces_finds_what_the_whole_scan_finds() {
        let deep = |n: usize| format!("{{\"s\": \"a\\\"[[{{\", \"l\": {}x", "[".repeat(n));
        for text in [deep(MAX_DEPTH - 1), deep(MAX_DEPTH), deep(MAX_DEPTH + 3), "\"\\\\\"[".repeat(5000)] {
            let whole = first_too_deep(text.as_bytes());
            assert_eq!(whole, byte_by_byte(text.as_bytes()));
            for size in [1, 2, 3, 7, 64, 4096] {
                let mut scan = DepthScan::default();
                let found = text.as_bytes().chunks(size).find_map(|piece| scan.scan(piece));
                assert_eq!(found, whole, "pieces of {size}");
            }
        }
    }

    #[test]
    fn decode_prefix_stops_after_the_first_value() {
        assert_eq!(dec("1,b=2"), Ok((json!(1.0), 1)));
        assert_eq!(dec("1x"), Ok((json!(1.0), 1)));
        assert_eq!(dec("truex"), Ok((json!(true), 4)));
        assert_eq!(dec("\"a\"b"), Ok((json!("a"), 3)));
        assert_eq!(
            dec("{\"a\": [1, {}]} ,x"),
            Ok((json!({"a": [1.0, {}]}), 14))
        );
        assert_eq!(dec("01"), Ok((json!(0.0), 1)));
    }

    #[test]
    fn numbers_are_float64() {
        let (v, _) = decode_prefix("3").unwrap();
        assert!(v.as_f64().is_some() && v.as_i64().is_none());
        let (v, _) = decode_prefix("-0").unwrap();
        assert!(v.as_f64().unwrap().is_sign_negative());
        assert_eq!(dec("1e-400"), Ok((json!(0.0), 6)));
        assert_eq!(
            dec("[1e400, x]"),
            Err("invalid character 'x' looking for beginning of value".into())
        );
        assert_eq!(
            dec("[1e400, 2e400]"),
            Err("json: cannot unmarshal number 1e400 into Go value of type float64".into())
        );
    }

    #[test]
    fn syntax_errors_read_as_go_scanner_errors() {
        assert_eq!(
            dec("x"),
            Err("invalid character 'x' looking for beginning of value".into())
        );
        assert_eq!(
            dec("é"),
            Err("invalid character 'Ã' looking for beginning of value".into())
        );
        assert_eq!(dec("tru"), Err("unexpected EOF".into()));
        assert_eq!(
            dec("trux"),
            Err("invalid character 'x' in literal true (expecting 'e')".into())
        );
        assert_eq!(
            dec("nul "),
            Err("invalid character ' ' in literal null (expecting 'l')".into())
        );
        assert_eq!(
            dec("-x"),
            Err("invalid character 'x' in numeric literal".into())
        );
        assert_eq!(
            dec("1.x"),
            Err("invalid character 'x' after decimal point in numeric literal".into())
        );
        assert_eq!(dec("1e+"), Err("unexpected EOF".into()));
        assert_eq!(
            dec("1ex"),
            Err("invalid character 'x' in exponent of numeric literal".into())
        );
        assert_eq!(
            dec("{1"),
            Err("invalid character '1' looking for beginning of object key string".into())
        );
        assert_eq!(
            dec("{\"a\" 1"),
            Err("invalid character '1' after object key".into())
        );
        assert_eq!(
            dec("{\"a\":1 2"),
            Err("invalid character '2' after object key:value pair".into())
        );
        assert_eq!(
            dec("[1 2"),
            Err("invalid character '2' after array element".into())
        );
        assert_eq!(
            dec("[1,]"),
            Err("invalid character ']' looking for beginning of value".into())
        );
        assert_eq!(
            dec("\"a\nb\""),
            Err("invalid character '\\n' in string literal".into())
        );
        assert_eq!(
            dec("\"\\x\""),
            Err("invalid character 'x' in string escape code".into())
        );
        assert_eq!(
            dec("\"\\u12g4\""),
            Err("invalid character 'g' in \\u hexadecimal character escape".into())
        );
        assert_eq!(dec("[1,"), Err("unexpected EOF".into()));
        let deep = "[".repeat(10_001);
        assert_eq!(
            dec(&deep),
            Err("invalid character '[' exceeded max depth".into())
        );
        assert_eq!(dec(&"[".repeat(10_000)), Err("unexpected EOF".into()));
    }

    #[test]
    fn the_depth_scan_stops_where_encoding_json_does_and_skips_strings() {
        let at_limit = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(first_too_deep(at_limit.as_bytes()), None);
        let over = format!("{{\"a\":{}", "[".repeat(MAX_DEPTH));
        assert_eq!(first_too_deep(over.as_bytes()), Some((b'[', 5 + MAX_DEPTH - 1)));
        let quoted = format!("[\"\\\"{}\"]", "[".repeat(MAX_DEPTH + 1));
        assert_eq!(first_too_deep(quoted.as_bytes()), None);
    }

    #[test]
    fn strings_unescape_with_go_surrogate_rules() {
        assert_eq!(dec(r#""\u00e9\n\/""#).unwrap().0, json!("é\n/"));
        assert_eq!(dec(r#""\ud83d\ude00""#).unwrap().0, json!("😀"));
        assert_eq!(dec(r#""\ud83dx""#).unwrap().0, json!("\u{fffd}x"));
        assert_eq!(
            dec(r#""\ude00\ud83d""#).unwrap().0,
            json!("\u{fffd}\u{fffd}")
        );
        assert_eq!(dec(r#""\ud83d\u0041""#).unwrap().0, json!("\u{fffd}A"));
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        assert_eq!(dec(r#"{"a":1,"a":2}"#).unwrap().0, json!({"a": 2.0}));
    }

    #[test]
    fn unmarshal_wants_exactly_one_value() {
        assert_eq!(unmarshal(" {\"a\":1} ").unwrap(), json!({"a": 1.0}));
        assert_eq!(
            unmarshal("{} x").map_err(|e| e.unmarshal_text()),
            Err("invalid character 'x' after top-level value".into())
        );
        assert_eq!(
            unmarshal("{").map_err(|e| e.unmarshal_text()),
            Err("unexpected end of JSON input".into())
        );
    }
}
