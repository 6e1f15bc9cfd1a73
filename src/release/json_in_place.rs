//! Parsing a record's JSON in bounded memory: the top-level `manifest` string
//! (most of a large record: every rendered document) is unescaped in place
//! into the decompressed buffer itself, which then becomes that `String`.
//!
//! Why: serde_json unescapes a string with escapes (every manifest line ends
//! in `\n`, and Go's encoding/json writes `<`, `>`, `&` as `\u003c` ...) into a
//! scratch buffer that grows by doubling (8 MiB for a 4.8 MB manifest), then
//! copies it into an exactly-sized `String`, all while the decompressed JSON is
//! still held: three copies of the manifest at the peak. Here the rest of the
//! record (a copy without the manifest's text) is parsed by serde_json as
//! before, and the manifest costs no memory beyond the buffer it arrived in.
//!
//! Nothing here decides what is valid JSON: the rest is parsed by the same
//! serde_json reader as the whole record was, the manifest's text is checked
//! against serde_json's string rules (read.rs parse_str / parse_escape /
//! parse_unicode_escape) before anything is changed, and any input this path
//! does not take exactly (a key with escapes, two `manifest` keys, a rest that
//! fails to parse, a manifest that is not a plain valid string) goes through
//! the whole-record parse, so values and error messages stay serde_json's.

use serde_json::Value;

use crate::go::json_scan::word;

/// The bytes of a JSON string token: `start` is its opening quote, `end` one
/// past its closing quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// The top-level record with its `manifest` parsed in place, or `None` when
/// this path does not apply (the caller then parses the whole buffer; see the
/// module comment). `parse` is the caller's serde_json parse (same reader
/// settings as for the whole record). On success `json` has become the
/// manifest's text; on `None` it is unchanged.
pub fn parse_with_manifest_in_place(
    json: &mut Vec<u8>,
    parse: impl Fn(&[u8]) -> Option<Value>,
) -> Option<Value> {
    let span = top_level_manifest(json)?;
    let body = json.get(span.start + 1..span.end - 1)?;
    if !is_valid_string_body(body) {
        return None;
    }
    let mut rest = Vec::with_capacity(json.len() - (span.end - span.start) + 2);
    rest.extend_from_slice(&json[..span.start]);
    rest.extend_from_slice(b"\"\"");
    rest.extend_from_slice(&json[span.end..]);
    let mut value = parse(&rest)?;
    drop(rest);
    // The rest parsed, so the scan found the one top-level `manifest` serde_json sees.
    let slot = value.as_object_mut()?.get_mut("manifest")?;
    if slot.as_str() != Some("") {
        return None;
    }
    // From here nothing may fail and fall back: `json` is being overwritten.
    let len = unescape_to_front(json, span);
    json.truncate(len);
    let text = String::from_utf8(std::mem::take(json)).unwrap_or_else(|e| {
        // Unreachable: the body was valid UTF-8 and escapes decode to whole chars.
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    });
    *slot = Value::String(text);
    Some(value)
}

fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_space(json: &[u8], mut i: usize) -> usize {
    while json.get(i).copied().is_some_and(is_json_space) {
        i += 1;
    }
    i
}

/// The end (one past the closing quote) of the string token opening at `i`;
/// escapes are skipped, not checked.
fn string_end(json: &[u8], i: usize) -> Option<usize> {
    let mut at = i + 1;
    loop {
        at = crate::go::json_scan::find2(json, at, b'"', b'\\')?;
        if json[at] == b'"' {
            return Some(at + 1);
        }
        at += 2;
    }
}

/// The end of the value starting at `i` (not checked: serde_json parses it).
/// `None` also for a value that nests past encoding/json's `maxNestingDepth`
/// counting the top-level object, so that a record this path takes is valid
/// JSON (its rest parsed) no deeper than Go reads: where
/// [`crate::go::json_decode::first_too_deep`] finds nothing, and the caller
/// need not run that scan too.
fn value_end(json: &[u8], i: usize) -> Option<usize> {
    match *json.get(i)? {
        b'"' => string_end(json, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = i;
            loop {
                match *json.get(at)? {
                    b'"' => {
                        at = string_end(json, at)?;
                        continue;
                    }
                    b'{' | b'[' => {
                        depth += 1;
                        // This container is at level `depth + 1` (the top-level object is level 1).
                        if depth >= crate::go::json_decode::MAX_DEPTH {
                            return None;
                        }
                    }
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let len = json[i..].iter().position(|&b| matches!(b, b',' | b'}' | b']') || is_json_space(b));
            Some(len.map_or(json.len(), |n| i + n))
        }
    }
}

/// Where the top-level object's one `manifest` string is. `None` for a
/// top level that is not an object, a key written with escapes (it could
/// spell `manifest`), a `manifest` that is not a string or appears twice,
/// or anything that does not scan as an object.
pub fn top_level_manifest(json: &[u8]) -> Option<Span> {
    let mut i = skip_space(json, 0);
    if json.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_space(json, i + 1);
    let mut found = None;
    if json.get(i) == Some(&b'}') {
        return None;
    }
    loop {
        if json.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(json, i)?;
        let key = &json[i + 1..key_end - 1];
        if key.contains(&b'\\') {
            return None;
        }
        i = skip_space(json, key_end);
        if json.get(i) != Some(&b':') {
            return None;
        }
        i = skip_space(json, i + 1);
        let end = value_end(json, i)?;
        if key == b"manifest" {
            if found.is_some() || json[i] != b'"' {
                return None;
            }
            found = Some(Span { start: i, end });
        }
        i = skip_space(json, end);
        match json.get(i) {
            Some(b',') => i = skip_space(json, i + 1),
            Some(b'}') => return found,
            _ => return None,
        }
    }
}

fn hex4(digits: &[u8]) -> Option<u32> {
    let digits = digits.get(..4)?;
    digits.iter().try_fold(0u32, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
}

/// Whether serde_json reads `body` (between the quotes) as a `str` without
/// error: valid UTF-8, no control character, escapes `\" \\ \/ \b \f \n \r
/// \t \uXXXX`, and every UTF-16 surrogate in a valid pair (serde_json read.rs
/// parse_unicode_escape with `validate`, refusing lone surrogates).
pub fn is_valid_string_body(body: &[u8]) -> bool {
    // A branch-free pass over blocks vectorises; the body is MiBs.
    let has_control = body.chunks(64).any(|c| c.iter().fold(false, |seen, &b| seen | (b < 0x20)));
    if has_control || std::str::from_utf8(body).is_err() {
        return false;
    }
    let mut i = 0;
    while let Some(at) = crate::go::json_scan::find1(body, i, b'\\') {
        i = at + 1;
        match body.get(i) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
            Some(b'u') => {
                let Some(n) = hex4(&body[i + 1..]) else { return false };
                i += 5;
                if (0xdc00..0xe000).contains(&n) {
                    return false;
                }
                if (0xd800..0xdc00).contains(&n) {
                    if body.get(i..i + 2) != Some(b"\\u") {
                        return false;
                    }
                    match hex4(&body[i + 2..]) {
                        Some(low) if (0xdc00..0xe000).contains(&low) => i += 6,
                        _ => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// Unescapes the string token at `span` (checked by [`is_valid_string_body`])
/// into the front of `buf`, returning the text's length. The text is never
/// longer than its escaped form and starts before it, so each write lands on
/// bytes already read. Eight bytes at a time: a word is stored whole when it
/// has no `\` (its bytes were all read into `x` first) or when the text is
/// already eight or more bytes behind (the store then ends before `read`);
/// otherwise only the bytes before the `\` are moved, so no escape still to
/// read is overwritten. A manifest's escapes are nearly all one-byte ones
/// (`\n`, `\"`), written without going through [`escape_at`].
fn unescape_to_front(buf: &mut [u8], span: Span) -> usize {
    let (mut read, end) = (span.start + 1, span.end - 1);
    let mut write = 0;
    while read < end {
        if let Some(x) = word(&buf[..end], read) {
            let hits = crate::go::json_scan::eq_mask(x, b'\\');
            let behind = read - write >= 8;
            if hits == 0 || behind {
                buf[write..write + 8].copy_from_slice(&x.to_le_bytes());
            }
            if hits == 0 {
                read += 8;
                write += 8;
                continue;
            }
            let first = (hits.trailing_zeros() / 8) as usize;
            if !behind {
                for k in 0..first {
                    buf[write + k] = buf[read + k];
                }
            }
            read += first;
            write += first;
        } else if buf[read] != b'\\' {
            buf[write] = buf[read];
            read += 1;
            write += 1;
            continue;
        }
        // `buf[read]` is a backslash (and, the body being checked, not the last byte).
        let one_byte = match buf.get(read + 1) {
            Some(b'n') => Some(b'\n'),
            Some(&c @ (b'"' | b'\\' | b'/')) => Some(c),
            Some(b't') => Some(b'\t'),
            Some(b'r') => Some(b'\r'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            _ => None,
        };
        if let Some(c) = one_byte {
            buf[write] = c;
            write += 1;
            read += 2;
            continue;
        }
        let (ch, used) = escape_at(&buf[read..end]);
        read += used;
        let mut utf8 = [0u8; 4];
        let encoded = ch.encode_utf8(&mut utf8).as_bytes();
        buf[write..write + encoded.len()].copy_from_slice(encoded);
        write += encoded.len();
    }
    write
}

/// The character a checked escape at the start of `esc` stands for, and how
/// many bytes it used.
fn escape_at(esc: &[u8]) -> (char, usize) {
    let simple = |c: char| (c, 2);
    match esc.get(1) {
        Some(b'b') => simple('\u{8}'),
        Some(b'f') => simple('\u{c}'),
        Some(b'n') => simple('\n'),
        Some(b'r') => simple('\r'),
        Some(b't') => simple('\t'),
        Some(b'u') => {
            let n = esc.get(2..).and_then(hex4).unwrap_or(0xfffd);
            if (0xd800..0xdc00).contains(&n) {
                let low = esc.get(8..).and_then(hex4).unwrap_or(0xdc00);
                let cp = 0x10000 + ((n - 0xd800) << 10) + (low.saturating_sub(0xdc00) & 0x3ff);
                (char::from_u32(cp).unwrap_or('\u{fffd}'), 12)
            } else {
                (char::from_u32(n).unwrap_or('\u{fffd}'), 6)
            }
        }
        Some(&other) => simple(char::from(other)),
        None => ('\\', 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_parse(bytes: &[u8]) -> Option<Value> {
        serde_json::from_slice(bytes).ok()
    }

    /// The in-place path gives exactly serde_json's value, or declines.
    fn same_as_serde(text: &str) -> Option<Value> {
        let mut buf = text.as_bytes().to_vec();
        let got = parse_with_manifest_in_place(&mut buf, serde_parse);
        match &got {
            Some(v) => assert_eq!(Some(v), serde_parse(text.as_bytes()).as_ref(), "{text}"),
            None => assert_eq!(buf, text.as_bytes(), "a declined input is left as it was: {text}"),
        }
        got
    }

    #[test]
    fn manifest_with_every_escape_matches_serde_json() {
        let text = r#"{"name":"a","manifest":"x\n\"q\" \\ \/ \b\f\r\t \u003c\u0026\u003E é \ud83d\ude00 end","version":1}"#;
        let v = same_as_serde(text).expect("taken");
        assert_eq!(v["manifest"], "x\n\"q\" \\ / \u{8}\u{c}\r\t <&> é 😀 end");
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "manifest", "version"], "key order kept");
    }

    #[test]
    fn manifest_first_last_alone_and_around_nesting_is_found() {
        for text in [
            r#"{"manifest":"m"}"#,
            r#" { "manifest" : "m" , "chart" : {"manifest":"inner","t":[1,"]}",{"x":"\"}"}]} } "#,
            r#"{"a":[{"b":"}"}],"n":-1.5e3,"t":true,"z":null,"manifest":"m\n"}"#,
        ] {
            assert!(same_as_serde(text).is_some(), "{text}");
        }
    }

    #[test]
    fn inputs_this_path_cannot_take_exactly_are_declined() {
        for text in [
            r#"{"manifest":"a","manifest":"b"}"#,
            r#"{"manif\u0065st":"a","manifest":"b"}"#,
            r#"{"manifest":3}"#,
            r#"{"manifest":"lone \ud800 surrogate"}"#,
            r#"{"manifest":"lone \udc00 trail"}"#,
            r#"{"manifest":"bad \x escape"}"#,
            r#"{"manifest":"short \u12"}"#,
            "{\"manifest\":\"raw\tcontrol\"}",
            r#"{"name":"no manifest"}"#,
            r#"[{"manifest":"m"}]"#,
            r#"{"a":1 2,"manifest":"m"}"#,
            r#"{"a":[1 2],"manifest":"m"}"#,
            r#"{"manifest":"m"} trailing"#,
            r#"{"manifest":"unterminated"#,
            r#"{"manifest""#,
            "",
        ] {
            assert!(same_as_serde(text).is_none(), "{text}");
        }
    }

    #[test]
    fn a_record_nested_past_go_max_depth_is_declined_one_at_it_is_taken() {
        // serde_json's reader and Value's drop recurse once per level.
        crate::parallel::on_deep_stack(nested_past_go_max_depth);
    }

    fn nested_past_go_max_depth() {
        let max = crate::go::json_decode::MAX_DEPTH;
        for (levels, taken) in [(max, true), (max + 1, false)] {
            // The top-level object is one level; the value under "a" the other `levels - 1`.
            let inner = levels - 1;
            let text = format!(r#"{{"manifest":"m","a":{}{}}}"#, "[".repeat(inner), "]".repeat(inner));
            let mut buf = text.into_bytes();
            let got = parse_with_manifest_in_place(&mut buf, |rest| {
                let mut reader = serde_json::Deserializer::from_slice(rest);
                reader.disable_recursion_limit();
                serde::Deserialize::deserialize(&mut reader).ok()
            });
            assert_eq!(got.is_some(), taken, "{levels} levels");
            let deep = crate::go::json_decode::first_too_deep(if taken { &[] } else { &buf });
            assert_eq!(deep.is_some(), !taken, "{levels} levels");
        }
    }

    #[test]
    fn invalid_utf8_in_the_manifest_is_declined() {
        let mut text = br#"{"manifest":"ab"}"#.to_vec();
        text[13] = 0xff;
        let before = text.clone();
        assert!(parse_with_manifest_in_place(&mut text, serde_parse).is_none());
        assert_eq!(text, before);
    }

    #[test]
    fn generated_manifests_match_serde_json() {
        // Escapes at every offset from the eight-byte words, runs of them, and multi-byte text.
        let pieces = [r"\n", r#"\""#, r"\\", r"\/", r"\t", r"\u003c", r"\u00e9", r"\ud83d\ude00", "é", "😀", "a", "bcdefgh", "  - x: 1"];
        let mut x: u32 = 0xdead_beef;
        for _ in 0..4000 {
            let mut m = String::new();
            for _ in 0..(x % 40) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                m.push_str(pieces[(x >> 7) as usize % pieces.len()]);
            }
            let text = format!(r#"{{"name":"n","manifest":"{m}","version":1}}"#);
            assert!(same_as_serde(&text).is_some(), "{text}");
        }
    }

    #[test]
    fn the_buffer_becomes_the_manifest() {
        let mut buf = br#"{"manifest":"a\nb","x":1}"#.to_vec();
        let v = parse_with_manifest_in_place(&mut buf, serde_parse).unwrap();
        assert_eq!(v["manifest"], "a\nb");
        assert!(buf.is_empty(), "the buffer moved into the value");
    }
}
