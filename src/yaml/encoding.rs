//! The bytes of a values file as go-yaml v2's reader takes them (readerc.go
//! `yaml_parser_update_buffer`, as sigs.k8s.io/yaml vendors it): each
//! document chunk that Helm's `YAMLReader` cut from the file is decoded on
//! its own, as UTF-16 when it starts with a UTF-16 byte-order mark, else as
//! UTF-8, and every character must be printable. The reader's errors have no
//! line (`yaml: invalid leading UTF-8 octet`). Only files that are not UTF-8
//! take the byte path; the printable check runs on every document.

/// Invalid bytes stand for themselves as one character each while the file
/// is cut into documents (private-use plane 16: `U+10FF00 + byte`), so the
/// cut, which only looks at `\n` and `---`, is the one Helm makes on bytes.
const BYTE_BASE: u32 = 0x10_FF00;

/// The text with each byte that is not valid UTF-8 as its stand-in character.
pub(crate) fn with_byte_stand_ins(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push(char::from_u32(BYTE_BASE + u32::from(*b)).unwrap_or('\u{FFFD}'));
        }
    }
    out
}

/// The bytes a document chunk made by [`with_byte_stand_ins`] stands for.
fn original_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u32::from(c).checked_sub(BYTE_BASE) {
            Some(b) if b <= 0xFF => out.push(b as u8),
            _ => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// One document chunk (in stand-in form) decoded as go-yaml's reader does:
/// the text, or the reader's problem.
pub(crate) fn decode_chunk(text: &str) -> Result<String, &'static str> {
    let bytes = original_bytes(text);
    let decoded = match bytes.get(..2) {
        Some([0xFF, 0xFE]) => utf16(&bytes[2..], u16::from_le_bytes)?,
        Some([0xFE, 0xFF]) => utf16(&bytes[2..], u16::from_be_bytes)?,
        _ => utf8(&bytes)?,
    };
    printable(&decoded).map(|()| decoded)
}

/// readerc.go's UTF-8 branch, problem by problem.
fn utf8(bytes: &[u8]) -> Result<String, &'static str> {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        let (width, mut value) = match lead {
            _ if lead & 0x80 == 0 => (1, u32::from(lead)),
            _ if lead & 0xE0 == 0xC0 => (2, u32::from(lead & 0x1F)),
            _ if lead & 0xF0 == 0xE0 => (3, u32::from(lead & 0x0F)),
            _ if lead & 0xF8 == 0xF0 => (4, u32::from(lead & 0x07)),
            _ => return Err("invalid leading UTF-8 octet"),
        };
        if i + width > bytes.len() {
            return Err("incomplete UTF-8 octet sequence");
        }
        for b in &bytes[i + 1..i + width] {
            if b & 0xC0 != 0x80 {
                return Err("invalid trailing UTF-8 octet");
            }
            value = (value << 6) | u32::from(b & 0x3F);
        }
        let shortest = match width {
            1 => true,
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x1_0000,
        };
        if !shortest {
            return Err("invalid length of a UTF-8 sequence");
        }
        out.push(char::from_u32(value).ok_or("invalid Unicode character")?);
        i += width;
    }
    Ok(out)
}

/// readerc.go's UTF-16 branch.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, &'static str> {
    let mut out = String::with_capacity(bytes.len() / 2);
    let mut i = 0;
    let at = |i: usize| unit([bytes[i], bytes[i + 1]]);
    while i < bytes.len() {
        if i + 2 > bytes.len() {
            return Err("incomplete UTF-16 character");
        }
        let first = at(i);
        if first & 0xFC00 == 0xDC00 {
            return Err("unexpected low surrogate area");
        }
        let value = if first & 0xFC00 == 0xD800 {
            if i + 4 > bytes.len() {
                return Err("incomplete UTF-16 surrogate pair");
            }
            let second = at(i + 2);
            if second & 0xFC00 != 0xDC00 {
                return Err("expected low surrogate area");
            }
            i += 4;
            0x1_0000 + ((u32::from(first) & 0x3FF) << 10) + (u32::from(second) & 0x3FF)
        } else {
            i += 2;
            u32::from(first)
        };
        out.push(char::from_u32(value).ok_or("invalid Unicode character")?);
    }
    Ok(out)
}

/// readerc.go: "control characters are not allowed" for any character
/// outside YAML's printable set (tab, line breaks, NEL and the BOM are in it).
pub(crate) fn printable(text: &str) -> Result<(), &'static str> {
    let ok = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7E}' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
    };
    // Bytes first, 64 at a time and without branches (so that it vectorizes):
    // an ASCII control character other than tab, LF and CR, or DEL, fails
    // whatever else the text holds; only blocks with bytes above ASCII are
    // then read as characters (most files have few or none).
    let control = |c: u8| ((c < 0x20) & (c != b'\t') & (c != b'\n') & (c != b'\r')) | (c == 0x7F);
    let bytes = text.as_bytes();
    let mut bad = false;
    let mut non_ascii = false;
    for block in bytes.chunks(64) {
        let (b, n) = block.iter().fold((false, false), |(b, n), &c| (b | control(c), n | (c >= 0x80)));
        bad |= b;
        non_ascii |= n;
    }
    if bad {
        return Err("control characters are not allowed");
    }
    if non_ascii {
        for (i, block) in bytes.chunks(64).enumerate() {
            if block.iter().all(|&c| c < 0x80) {
                continue;
            }
            // The block widened to whole characters (a character may cross its edges).
            let (mut from, mut to) = (i * 64, (i * 64 + block.len()).min(text.len()));
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            while !text.is_char_boundary(to) {
                to += 1;
            }
            if !text[from..to].chars().all(ok) {
                return Err("control characters are not allowed");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8]) -> Result<String, &'static str> {
        decode_chunk(&with_byte_stand_ins(bytes))
    }

    /// Each problem as real Helm 4.2.3 words it (checked with the oracle,
    /// tests/differential/yaml_differential.rs covers them against Helm).
    #[test]
    fn each_reader_problem_in_go_yamls_words() {
        assert_eq!(reader(b"b: \xff\n"), Err("invalid leading UTF-8 octet"));
        assert_eq!(reader(b"a: \xf8\n"), Err("invalid leading UTF-8 octet"));
        assert_eq!(reader(b"a: \xc3\n"), Err("invalid trailing UTF-8 octet"));
        assert_eq!(reader(b"a: \xe2\x82"), Err("incomplete UTF-8 octet sequence"));
        assert_eq!(reader(b"a: \xc0\x80\n"), Err("invalid length of a UTF-8 sequence"));
        assert_eq!(reader(b"a: \xed\xa0\x80\n"), Err("invalid Unicode character"));
        assert_eq!(reader(b"a: x\x7f\n"), Err("control characters are not allowed"));
        assert_eq!(reader(b"a: \xc2\x80\n"), Err("control characters are not allowed"));
        assert_eq!(reader(b"\xff\xfea\x00:\x00 \x001\x00\n"), Err("incomplete UTF-16 character"));
        assert_eq!(reader(b"\xfe\xff\x00a\x00:\x00 \x001\x00\n").as_deref(), Ok("a: 1\n"));
        assert_eq!(reader("a: ü\u{85}\n".as_bytes()).as_deref(), Ok("a: ü\u{85}\n"));
    }
}
