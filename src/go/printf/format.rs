//! Go's fmt/format.go: the raw formatter of one operand's text (padding,
//! integers, strings, quoting, floats) under the verb's flags.

use super::super::ftoa::append_float;
use super::super::quote::{can_backquote, is_print, quote_bytes};
use super::Printer;

impl Printer {
    pub(super) fn write_padding(&mut self, n: i64) {
        if n > 0 {
            let pad = if self.f.zero { b'0' } else { b' ' };
            self.buf.extend(std::iter::repeat_n(pad, n as usize));
        }
    }

    pub(super) fn pad(&mut self, b: &[u8]) {
        if !self.f.wid_present || self.f.wid == 0 {
            self.buf.extend_from_slice(b);
            return;
        }
        let width = self.f.wid - rune_count(b);
        if !self.f.minus {
            self.write_padding(width);
            self.buf.extend_from_slice(b);
        } else {
            self.buf.extend_from_slice(b);
            self.write_padding(width);
        }
    }

    /// Pads with spaces even under `0` (fmtUnicode, fmtInteger, infinities).
    pub(super) fn pad_no_zero(&mut self, b: &[u8]) {
        let zero = self.f.zero;
        self.f.zero = false;
        self.pad(b);
        self.f.zero = zero;
    }

    pub(super) fn fmt_boolean(&mut self, v: bool) {
        self.pad(if v { b"true" } else { b"false" });
    }

    /// `U+0078`, with `#` `U+0078 'x'`.
    pub(super) fn fmt_unicode(&mut self, u: u64) {
        let mut prec = 4;
        if self.f.prec_present && self.f.prec > 4 {
            prec = self.f.prec;
        }
        let mut hex = format!("{u:X}");
        while (hex.len() as i64) < prec {
            hex.insert(0, '0');
        }
        let mut out = format!("U+{hex}");
        if let Some(c) = u32::try_from(u).ok().and_then(char::from_u32).filter(|c| self.f.sharp && is_print(*c)) {
            out.push_str(&format!(" '{c}'"));
        }
        self.pad_no_zero(out.as_bytes());
    }

    /// format.go fmtInteger.
    pub(super) fn fmt_integer(&mut self, u: u64, base: u64, signed: bool, verb: char, digits: &[u8; 17]) {
        let negative = signed && (u as i64) < 0;
        let mut u = if negative { u.wrapping_neg() } else { u };
        let mut prec = 0i64;
        if self.f.prec_present {
            prec = self.f.prec;
            // Precision 0 and value 0 print nothing but padding.
            if prec == 0 && u == 0 {
                let zero = self.f.zero;
                self.f.zero = false;
                self.write_padding(self.f.wid);
                self.f.zero = zero;
                return;
            }
        } else if self.f.zero && self.f.wid_present {
            prec = self.f.wid;
            if negative || self.f.plus || self.f.space {
                prec -= 1; // leave room for the sign
            }
        }
        // Right to left, as Go does.
        let mut rev: Vec<u8> = Vec::with_capacity(70);
        loop {
            rev.push(digits[(u % base) as usize]);
            u /= base;
            if u == 0 {
                break;
            }
        }
        while (rev.len() as i64) < prec {
            rev.push(b'0');
        }
        if self.f.sharp {
            match base {
                2 => rev.extend_from_slice(b"b0"),
                8 if rev.last() != Some(&b'0') => rev.push(b'0'),
                16 => rev.extend_from_slice(&[digits[16], b'0']),
                _ => {}
            }
        }
        if verb == 'O' {
            rev.extend_from_slice(b"o0");
        }
        if negative {
            rev.push(b'-');
        } else if self.f.plus {
            rev.push(b'+');
        } else if self.f.space {
            rev.push(b' ');
        }
        rev.reverse();
        // Zero padding was done above as precision, or is ignored.
        self.pad_no_zero(&rev);
    }

    /// truncateString / truncate: at most `prec` runes.
    pub(super) fn truncate<'b>(&self, b: &'b [u8]) -> &'b [u8] {
        if self.f.prec_present {
            let mut at = 0;
            for (n, (_, width)) in runes(b).into_iter().enumerate() {
                if n as i64 >= self.f.prec {
                    return &b[..at];
                }
                at += width;
            }
        }
        b
    }

    pub(super) fn fmt_s(&mut self, b: &[u8]) {
        let b = self.truncate(b);
        self.pad(b);
    }

    /// fmtSbx: hex of a string's or a byte slice's bytes.
    pub(super) fn fmt_sbx(&mut self, b: &[u8], digits: &[u8; 17]) {
        let mut length = b.len() as i64;
        if self.f.prec_present && self.f.prec < length {
            length = self.f.prec;
        }
        let mut width = 2 * length;
        if width > 0 {
            if self.f.space {
                if self.f.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.f.sharp {
                width += 2;
            }
        } else {
            if self.f.wid_present {
                self.write_padding(self.f.wid);
            }
            return;
        }
        if self.f.wid_present && self.f.wid > width && !self.f.minus {
            self.write_padding(self.f.wid - width);
        }
        if self.f.sharp {
            self.buf.extend_from_slice(&[b'0', digits[16]]);
        }
        for (i, c) in b.iter().take(length as usize).enumerate() {
            if self.f.space && i > 0 {
                self.buf.push(b' ');
                if self.f.sharp {
                    self.buf.extend_from_slice(&[b'0', digits[16]]);
                }
            }
            self.buf.extend_from_slice(&[digits[(c >> 4) as usize], digits[(c & 0xF) as usize]]);
        }
        if self.f.wid_present && self.f.wid > width && self.f.minus {
            self.write_padding(self.f.wid - width);
        }
    }

    /// fmtQ: a double-quoted Go string, or with `#` a raw one if it can be.
    pub(super) fn fmt_q(&mut self, b: &[u8]) {
        let b = self.truncate(b);
        if self.f.sharp && can_backquote(b) {
            let mut raw = Vec::with_capacity(b.len() + 2);
            raw.push(b'`');
            raw.extend_from_slice(b);
            raw.push(b'`');
            self.pad(&raw);
            return;
        }
        let quoted = quote_bytes(b, '"', self.f.plus);
        self.pad(quoted.as_bytes());
    }

    /// fmtC: the rune, U+FFFD if it is not one.
    pub(super) fn fmt_c(&mut self, c: u64) {
        let r = u32::try_from(c).ok().and_then(char::from_u32).unwrap_or('\u{FFFD}');
        let mut tmp = [0u8; 4];
        self.pad(r.encode_utf8(&mut tmp).as_bytes());
    }

    /// fmtQc: a single-quoted Go rune literal.
    pub(super) fn fmt_qc(&mut self, c: u64) {
        let r = u32::try_from(c).ok().and_then(char::from_u32).unwrap_or('\u{FFFD}');
        let mut tmp = [0u8; 4];
        let quoted = quote_bytes(r.encode_utf8(&mut tmp).as_bytes(), '\'', self.f.plus);
        self.pad(quoted.as_bytes());
    }

    /// format.go fmtFloat.
    pub(super) fn fmt_float(&mut self, v: f64, float32: bool, verb: u8, prec: i64) {
        let prec = if self.f.prec_present { self.f.prec } else { prec };
        let mut num = vec![b'+'];
        append_float(&mut num, v, verb, prec as i32, float32);
        if num[1] == b'-' || num[1] == b'+' {
            num.remove(0);
        }
        if self.f.space && num[0] == b'+' && !self.f.plus {
            num[0] = b' ';
        }
        // Infinities and NaN are not padded with zeros.
        if num[1] == b'I' || num[1] == b'N' {
            if num[1] == b'N' && !self.f.space && !self.f.plus {
                num.remove(0);
            }
            self.pad_no_zero(&num);
            return;
        }
        // `#` forces a decimal point and keeps trailing zeros.
        if self.f.sharp && verb != b'b' {
            num = sharp_float(num, verb, prec);
        }
        if self.f.plus || num[0] != b'+' {
            // Zero padding goes after the sign.
            if self.f.zero && self.f.wid_present && self.f.wid > num.len() as i64 {
                self.buf.push(num[0]);
                self.write_padding(self.f.wid - num.len() as i64);
                self.buf.extend_from_slice(&num[1..]);
                return;
            }
            self.pad(&num);
            return;
        }
        self.pad(&num[1..]);
    }
}

/// utf8.RuneCount: an invalid byte counts as one rune.
fn rune_count(b: &[u8]) -> i64 {
    b.utf8_chunks().map(|c| (c.valid().chars().count() + c.invalid().len()) as i64).sum()
}

/// Each rune of `b` and its width in bytes, an invalid byte as
/// (U+FFFD, 1) (utf8.DecodeRune).
fn runes(b: &[u8]) -> Vec<(u32, usize)> {
    let mut out = Vec::new();
    for chunk in b.utf8_chunks() {
        out.extend(chunk.valid().chars().map(|c| (c as u32, c.len_utf8())));
        out.extend(chunk.invalid().iter().map(|_| (0xFFFD, 1)));
    }
    out
}

/// The `#` flag on a float: a decimal point always, and trailing zeros up
/// to the precision for %g and %x (format.go fmtFloat).
fn sharp_float(mut num: Vec<u8>, verb: u8, prec: i64) -> Vec<u8> {
    let mut digits = match verb {
        b'v' | b'g' | b'G' | b'x' => {
            if prec == -1 {
                6
            } else {
                prec
            }
        }
        _ => 0,
    };
    let mut tail = Vec::new();
    let mut has_decimal_point = false;
    let mut saw_nonzero_digit = false;
    let mut i = 1;
    while i < num.len() {
        match num[i] {
            b'.' => has_decimal_point = true,
            b'p' | b'P' => {
                tail.extend_from_slice(&num[i..]);
                num.truncate(i);
            }
            b'e' | b'E' if verb != b'x' && verb != b'X' => {
                tail.extend_from_slice(&num[i..]);
                num.truncate(i);
            }
            c => {
                if c != b'0' {
                    saw_nonzero_digit = true;
                }
                // Significant digits after the first non-zero one.
                if saw_nonzero_digit {
                    digits -= 1;
                }
            }
        }
        i += 1;
    }
    if !has_decimal_point {
        // A leading 0 counts once.
        if num.len() == 2 && num[1] == b'0' {
            digits -= 1;
        }
        num.push(b'.');
    }
    while digits > 0 {
        num.push(b'0');
        digits -= 1;
    }
    num.extend_from_slice(&tail);
    num
}
