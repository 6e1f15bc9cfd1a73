//! Scalars in yaml.v2's emitter (emitterc.go): what `analyze_scalar` allows,
//! and the plain, single-quoted, double-quoted and literal writers, ported
//! byte for byte on UTF-8 (the Go code works on bytes; its character tests
//! are the yamlprivateh.go predicates below).

use super::Emitter;

/// The byte at `i`, 0 past the end (Go would index out of range only
/// where its callers guard against it; 0 answers those guards the same).
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// yamlprivateh.go width: the length of the UTF-8 sequence starting with `b`.
pub(super) fn width(b: u8) -> usize {
    if b & 0x80 == 0 {
        1
    } else if b & 0xE0 == 0xC0 {
        2
    } else if b & 0xF0 == 0xE0 {
        3
    } else {
        4
    }
}

/// yamlprivateh.go is_printable. Note what it leaves out: TAB, CR, NEL, the
/// BOM, U+FFFE/U+FFFF and every 4-byte character (emoji, U+10000 and up).
fn is_printable(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c0 == 0x0A
        || (0x20..=0x7E).contains(&c0)
        || (c0 == 0xC2 && c1 >= 0xA0)
        || (c0 > 0xC2 && c0 < 0xED)
        || (c0 == 0xED && c1 < 0xA0)
        || c0 == 0xEE
        || (c0 == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)))
}

/// yamlprivateh.go is_bom: it looks at the start of the value whatever `i`
/// is, so a value starting with a BOM has every character escaped in
/// double quotes.
fn is_bom(b: &[u8]) -> bool {
    b.starts_with(&[0xEF, 0xBB, 0xBF])
}

fn is_space(b: &[u8], i: usize) -> bool {
    at(b, i) == b' '
}

fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(at(b, i), b' ' | b'\t')
}

pub(super) fn is_break(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c0 == b'\r' || c0 == b'\n' || (c0 == 0xC2 && c1 == 0x85) || (c0 == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
}

fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || at(b, i) == 0
}

/// emitterc.go `scalar_data` after yaml_emitter_analyze_scalar.
#[derive(Debug, Clone, Copy)]
pub(super) struct Analysis {
    pub multiline: bool,
    pub flow_plain_allowed: bool,
    pub block_plain_allowed: bool,
    pub single_quoted_allowed: bool,
    pub block_allowed: bool,
}

/// emitterc.go yaml_emitter_analyze_scalar (unicode output on, as
/// yaml.v2's encoder sets it).
pub(super) fn analyze(value: &[u8]) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let (mut block_indicators, mut flow_indicators, mut line_breaks, mut special_characters) = (false, false, false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) = (false, false, false, false);
    let (mut break_space, mut space_break, mut previous_space, mut previous_break) = (false, false, false, false);

    if value.starts_with(b"---") || value.starts_with(b"...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < value.len() {
        let w = width(value[i]);
        let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
        if i == 0 {
            match value[i] {
                b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@'
                | b'`' => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                b'?' | b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'-' if followed_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        } else {
            match value[i] {
                b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'#' if preceded_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        }
        if !is_printable(value, i) {
            special_characters = true;
        }
        if is_space(value, i) {
            leading_space |= i == 0;
            trailing_space |= i + w == value.len();
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(value, i) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= i + w == value.len();
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(value, i);
        i += w;
    }
    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_indicators {
        a.flow_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

impl Emitter {
    /// emitterc.go write: one character, one column.
    fn write_char(&mut self, v: &[u8], i: &mut usize) {
        let w = width(v[*i]).min(v.len() - *i);
        self.out.extend_from_slice(&v[*i..*i + w]);
        self.column += 1;
        *i += w;
    }

    /// emitterc.go write_break: LF is the configured break; CR, NEL, LS and
    /// PS are copied as they are, and end the line too.
    fn write_break(&mut self, v: &[u8], i: &mut usize) {
        if v[*i] == b'\n' {
            self.put_break();
            *i += 1;
        } else {
            self.write_char(v, i);
            self.column = 0;
        }
    }

    /// emitterc.go yaml_emitter_write_plain_scalar.
    pub(super) fn write_plain(&mut self, v: &[u8], allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < v.len() {
            if is_space(v, i) {
                if allow_breaks && !spaces && self.column > self.best_width && !is_space(v, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write_char(v, &mut i);
                }
                spaces = true;
            } else if is_break(v, i) {
                if !breaks && v[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(v, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write_char(v, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    /// emitterc.go yaml_emitter_write_single_quoted_scalar.
    pub(super) fn write_single_quoted(&mut self, v: &[u8], allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < v.len() {
            if is_space(v, i) {
                if allow_breaks && !spaces && self.column > self.best_width && i > 0 && i < v.len() - 1 && !is_space(v, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write_char(v, &mut i);
                }
                spaces = true;
            } else if is_break(v, i) {
                if !breaks && v[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(v, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if v[i] == b'\'' {
                    self.put(b'\'');
                }
                self.write_char(v, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// emitterc.go yaml_emitter_write_double_quoted_scalar.
    pub(super) fn write_double_quoted(&mut self, v: &[u8], allow_breaks: bool) {
        self.write_indicator(b"\"", true, false, false);
        let mut spaces = false;
        let bom = is_bom(v);
        let mut i = 0;
        while i < v.len() {
            if !is_printable(v, i) || bom || is_break(v, i) || v[i] == b'"' || v[i] == b'\\' {
                let w = width(v[i]).min(v.len() - i);
                let c = std::str::from_utf8(&v[i..i + w]).ok().and_then(|s| s.chars().next()).map_or(0xFFFD, u32::from);
                i += w;
                self.put(b'\\');
                match c {
                    0x00 => self.put(b'0'),
                    0x07 => self.put(b'a'),
                    0x08 => self.put(b'b'),
                    0x09 => self.put(b't'),
                    0x0A => self.put(b'n'),
                    0x0B => self.put(b'v'),
                    0x0C => self.put(b'f'),
                    0x0D => self.put(b'r'),
                    0x1B => self.put(b'e'),
                    0x22 => self.put(b'"'),
                    0x5C => self.put(b'\\'),
                    0x85 => self.put(b'N'),
                    0xA0 => self.put(b'_'),
                    0x2028 => self.put(b'L'),
                    0x2029 => self.put(b'P'),
                    _ => {
                        let (letter, digits) = if c <= 0xFF {
                            (b'x', 2)
                        } else if c <= 0xFFFF {
                            (b'u', 4)
                        } else {
                            (b'U', 8)
                        };
                        self.put(letter);
                        for k in (0..digits).rev() {
                            let d = ((c >> (4 * k)) & 0xF) as u8;
                            self.put(if d < 10 { b'0' + d } else { b'A' + d - 10 });
                        }
                    }
                }
                spaces = false;
            } else if is_space(v, i) {
                if allow_breaks && !spaces && self.column > self.best_width && i > 0 && i < v.len() - 1 {
                    self.write_indent();
                    if is_space(v, i + 1) {
                        self.put(b'\\');
                    }
                    i += 1;
                } else {
                    self.write_char(v, &mut i);
                }
                spaces = true;
            } else {
                self.write_char(v, &mut i);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// emitterc.go yaml_emitter_write_block_scalar_hints: an indentation
    /// indicator when the text starts with a space or a break; `-` without
    /// a final break, `+` with two (or the text is one break), none with one.
    fn write_block_scalar_hints(&mut self, v: &[u8]) {
        if is_space(v, 0) || is_break(v, 0) {
            self.write_indicator(&[b'0' + self.best_indent as u8], false, false, false);
        }
        let chomp: Option<&[u8]> = if v.is_empty() {
            Some(b"-")
        } else {
            let mut i = v.len() - 1;
            while i > 0 && v[i] & 0xC0 == 0x80 {
                i -= 1;
            }
            if !is_break(v, i) {
                Some(b"-")
            } else if i == 0 {
                Some(b"+")
            } else {
                i -= 1;
                while i > 0 && v[i] & 0xC0 == 0x80 {
                    i -= 1;
                }
                is_break(v, i).then_some(b"+".as_slice())
            }
        };
        if let Some(c) = chomp {
            self.write_indicator(c, false, false, false);
        }
    }

    /// emitterc.go yaml_emitter_write_literal_scalar.
    pub(super) fn write_literal(&mut self, v: &[u8]) {
        self.write_indicator(b"|", true, false, false);
        self.write_block_scalar_hints(v);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut i = 0;
        while i < v.len() {
            if is_break(v, i) {
                self.write_break(v, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write_char(v, &mut i);
                self.indention = false;
                breaks = false;
            }
        }
    }
}
