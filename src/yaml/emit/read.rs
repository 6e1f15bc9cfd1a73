//! The JSON text as go-yaml v2 reads it (sigs.k8s.io/yaml `JSONToYAML`
//! calls `yaml.Unmarshal(j, &jsonObj)`): JSON is YAML flow syntax, so the
//! values are what yaml.v2 makes of flow collections, double-quoted scalars
//! and plain scalars, not what a JSON parser makes of them.
//!
//! What differs from JSON, and matters for text Go's `json.Marshal` prints:
//! - numbers are plain scalars resolved by yaml.v2 (`resolve.go`): an
//!   integer is a Go `int`, one above `i64::MAX` a `uint64`, anything else
//!   matching its float pattern a `float64`; out-of-range floats stay strings;
//! - the reader refuses characters outside YAML's printable set
//!   (`readerc.go` "control characters are not allowed"): DEL and C1
//!   controls, U+FFFE/U+FFFF, which Go writes raw;
//! - a raw NEL (U+0085, which Go writes raw) is a line break inside a
//!   double-quoted scalar and is folded with the blanks around it
//!   (`scannerc.go` `yaml_parser_scan_flow_scalar`); a line starting with
//!   `---` or `...` and a blank there is a document marker (an error);
//! - a flow-mapping key must be a simple key: on one line and with its `:`
//!   at most 1024 characters after its start (`yaml_simple_key_is_valid`);
//!   otherwise yaml.v2 fails to parse the mapping;
//! - at most 10000 nested flow collections (`max_flow_level`).
//!
//! Input that Go's encoder never prints (comments, YAML-only syntax, `\/`
//! escapes, trailing commas) is an error here, never a guess.

use super::{EmitError, Node};
use crate::yaml::resolve::{Reading, Scalar, resolve_plain};

/// yaml.v2 scannerc.go `max_flow_level`.
const MAX_FLOW_LEVEL: usize = 10000;
/// Our own limit: the reader and the emitter recurse once per level, and a
/// test thread's stack holds about this many of both; deeper input is
/// refused instead of overflowing the stack.
pub(super) const MAX_DEPTH: usize = 1000;

pub(super) fn read(json: &str) -> Result<Node, EmitError> {
    // readerc.go yaml_parser_determine_encoding: a leading BOM is dropped.
    let json = json.strip_prefix('\u{FEFF}').unwrap_or(json);
    if let Some(c) = json.chars().find(|&c| !yaml_reader_allows(c)) {
        return Err(EmitError::ControlCharacter(c));
    }
    let mut r = Reader { chars: json.chars().collect(), pos: 0, column: 0, line: 0, depth: 0 };
    r.skip_blanks()?;
    if r.peek().is_none() {
        // yaml.Unmarshal of an empty stream leaves the interface{} nil.
        return Ok(Node::Null);
    }
    let v = r.value()?;
    r.skip_blanks()?;
    if let Some(c) = r.peek() {
        return Err(EmitError::Syntax(format!("unexpected {c:?} after the JSON value")));
    }
    Ok(v)
}

/// readerc.go yaml_parser_update_buffer: the characters a YAML stream may hold.
fn yaml_reader_allows(c: char) -> bool {
    matches!(c as u32,
        0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// yamlprivateh.go is_break, on characters.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

struct Reader {
    chars: Vec<char>,
    pos: usize,
    /// The scanner's mark: column (0 after a line break) and line.
    column: usize,
    line: usize,
    depth: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn skip(&mut self) {
        self.pos += 1;
        self.column += 1;
    }

    /// scannerc.go read_line: one line break, CR LF / CR / NEL normalised
    /// to LF, LS and PS kept.
    fn read_line(&mut self) -> char {
        let c = self.chars[self.pos];
        self.pos += if c == '\r' && self.peek_at(1) == Some('\n') { 2 } else { 1 };
        self.column = 0;
        self.line += 1;
        if matches!(c, '\u{2028}' | '\u{2029}') { c } else { '\n' }
    }

    /// scannerc.go: a `---` or `...` then a blank (or the end) at column 0.
    fn at_document_indicator(&self) -> bool {
        let three = |c: char| (0..3).all(|k| self.peek_at(k) == Some(c));
        self.column == 0
            && (three('-') || three('.'))
            && self.peek_at(3).is_none_or(|c| is_blank(c) || is_break(c))
    }

    /// Whitespace between tokens (Go prints none; YAML flow syntax allows it).
    fn skip_blanks(&mut self) -> Result<(), EmitError> {
        while let Some(c) = self.peek() {
            if is_blank(c) {
                self.skip();
            } else if is_break(c) {
                self.read_line();
                if self.at_document_indicator() {
                    return Err(EmitError::Syntax("a document marker inside the JSON text".into()));
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    fn value(&mut self) -> Result<Node, EmitError> {
        match self.peek() {
            Some('{') => self.nested(Self::mapping),
            Some('[') => self.nested(Self::sequence),
            Some('"') => Ok(Node::Str(self.quoted()?)),
            Some(_) => self.plain(),
            None => Err(EmitError::Syntax("unexpected end of the JSON text".into())),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<Node, EmitError>) -> Result<Node, EmitError> {
        self.depth += 1;
        if self.depth > MAX_FLOW_LEVEL {
            return Err(EmitError::Syntax(format!("exceeded max depth of {MAX_FLOW_LEVEL}")));
        }
        if self.depth > MAX_DEPTH {
            return Err(EmitError::TooDeep(MAX_DEPTH));
        }
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn mapping(&mut self) -> Result<Node, EmitError> {
        self.skip(); // {
        let mut entries: Vec<(String, Node)> = Vec::new();
        self.skip_blanks()?;
        if self.peek() == Some('}') {
            self.skip();
            return Ok(Node::Map(entries));
        }
        loop {
            if self.peek() != Some('"') {
                return Err(EmitError::Syntax("a JSON object key must be a string".into()));
            }
            let (start, line) = (self.pos, self.line);
            let key = self.quoted()?;
            self.skip_blanks()?;
            if self.peek() != Some(':') {
                return Err(EmitError::Syntax("expected ':' after an object key".into()));
            }
            // scannerc.go yaml_simple_key_is_valid: without a KEY token the
            // parser reads the key with an empty value and then fails on ':'
            // ("did not find expected ',' or '}'").
            if self.line != line || start + 1024 < self.pos {
                return Err(EmitError::LongKey);
            }
            self.skip();
            self.skip_blanks()?;
            let v = self.value()?;
            // yaml.v2 decode.go mapping: SetMapIndex, so a later duplicate wins.
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = v,
                None => entries.push((key, v)),
            }
            self.skip_blanks()?;
            match self.peek() {
                Some(',') => {
                    self.skip();
                    self.skip_blanks()?;
                }
                Some('}') => {
                    self.skip();
                    return Ok(Node::Map(entries));
                }
                _ => return Err(EmitError::Syntax("expected ',' or '}' in an object".into())),
            }
        }
    }

    fn sequence(&mut self) -> Result<Node, EmitError> {
        self.skip(); // [
        let mut items = Vec::new();
        self.skip_blanks()?;
        if self.peek() == Some(']') {
            self.skip();
            return Ok(Node::Seq(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_blanks()?;
            match self.peek() {
                Some(',') => {
                    self.skip();
                    self.skip_blanks()?;
                }
                Some(']') => {
                    self.skip();
                    return Ok(Node::Seq(items));
                }
                _ => return Err(EmitError::Syntax("expected ',' or ']' in an array".into())),
            }
        }
    }

    /// `true`, `false`, `null` or a JSON number, resolved as the plain
    /// scalar yaml.v2 sees (resolve.go `resolve("", text)`).
    fn plain(&mut self) -> Result<Node, EmitError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
            self.skip();
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        if !(matches!(text.as_str(), "true" | "false" | "null") || is_json_number(&text)) {
            return Err(EmitError::Syntax(format!("{text:?} is not a JSON literal or number")));
        }
        let r = resolve_plain(&text);
        Ok(match r.value {
            Scalar::Null => Node::Null,
            Scalar::Bool(b) => Node::Bool(b),
            Scalar::Int(i) => Node::Int(i),
            Scalar::Uint(u) => Node::Uint(u),
            Scalar::Float(f) => Node::Float(f),
            // A JSON number is never timestamp-shaped; "1e400" (ParseFloat
            // out of range) stays the string it is written as.
            Scalar::Str(s) if r.reading != Reading::Timestamp => Node::Str(s),
            Scalar::Str(s) => return Err(EmitError::Syntax(format!("unexpected timestamp {s:?}"))),
        })
    }

    /// scannerc.go yaml_parser_scan_flow_scalar (double-quoted), from the
    /// opening quote.
    fn quoted(&mut self) -> Result<String, EmitError> {
        self.skip(); // "
        let mut s = String::new();
        let (mut leading_break, mut trailing_breaks, mut whitespaces) = (String::new(), String::new(), String::new());
        loop {
            if self.at_document_indicator() {
                return Err(EmitError::Syntax("found unexpected document indicator while scanning a quoted scalar".into()));
            }
            let Some(_) = self.peek() else {
                return Err(EmitError::Syntax("found unexpected end of stream while scanning a quoted scalar".into()));
            };
            let mut leading_blanks = false;
            // Non-blank characters.
            while let Some(c) = self.peek().filter(|&c| !is_blank(c) && !is_break(c)) {
                if c == '"' {
                    break;
                }
                if c == '\\' && self.peek_at(1).is_some_and(is_break) {
                    // An escaped line break.
                    self.skip();
                    self.read_line();
                    leading_blanks = true;
                    break;
                }
                if c == '\\' {
                    self.escape(&mut s)?;
                } else {
                    s.push(c);
                    self.skip();
                }
            }
            if self.peek() == Some('"') {
                break;
            }
            // Blanks and breaks.
            while let Some(c) = self.peek().filter(|&c| is_blank(c) || is_break(c)) {
                if is_blank(c) {
                    if !leading_blanks {
                        whitespaces.push(c);
                    }
                    self.skip();
                } else if !leading_blanks {
                    whitespaces.clear();
                    leading_break.push(self.read_line());
                    leading_blanks = true;
                } else {
                    trailing_breaks.push(self.read_line());
                }
            }
            // Join the whitespace or fold the line breaks.
            if leading_blanks {
                if leading_break.starts_with('\n') {
                    if trailing_breaks.is_empty() {
                        s.push(' ');
                    } else {
                        s.push_str(&trailing_breaks);
                    }
                } else {
                    s.push_str(&leading_break);
                    s.push_str(&trailing_breaks);
                }
                leading_break.clear();
                trailing_breaks.clear();
            } else {
                s.push_str(&whitespaces);
                whitespaces.clear();
            }
        }
        self.skip(); // "
        Ok(s)
    }

    /// One backslash escape of a double-quoted scalar (scannerc.go's table:
    /// YAML's, which has every escape Go's encoder writes but not `\/`).
    fn escape(&mut self, s: &mut String) -> Result<(), EmitError> {
        let code_length = match self.peek_at(1) {
            Some('0') => Some('\0'),
            Some('a') => Some('\x07'),
            Some('b') => Some('\x08'),
            Some('t' | '\t') => Some('\t'),
            Some('n') => Some('\n'),
            Some('v') => Some('\x0B'),
            Some('f') => Some('\x0C'),
            Some('r') => Some('\r'),
            Some('e') => Some('\x1B'),
            Some(' ') => Some(' '),
            Some('"') => Some('"'),
            Some('\'') => Some('\''),
            Some('\\') => Some('\\'),
            Some('N') => Some('\u{85}'),
            Some('_') => Some('\u{A0}'),
            Some('L') => Some('\u{2028}'),
            Some('P') => Some('\u{2029}'),
            Some('x' | 'u' | 'U') => None,
            _ => return Err(EmitError::Syntax("found unknown escape character while parsing a quoted scalar".into())),
        };
        let kind = self.peek_at(1);
        self.skip();
        self.skip();
        if let Some(c) = code_length {
            s.push(c);
            return Ok(());
        }
        let n = match kind {
            Some('x') => 2,
            Some('u') => 4,
            _ => 8,
        };
        let mut value: u32 = 0;
        for _ in 0..n {
            let d = self.peek().and_then(|c| c.to_digit(16)).ok_or_else(|| {
                EmitError::Syntax("did not find expected hexdecimal number while parsing a quoted scalar".into())
            })?;
            value = (value << 4) + d;
            self.skip();
        }
        // (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF is an error in yaml.v2.
        let c = char::from_u32(value)
            .ok_or_else(|| EmitError::Syntax("found invalid Unicode character escape code while parsing a quoted scalar".into()))?;
        s.push(c);
        Ok(())
    }
}

/// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    let int_start = i;
    match digits(&mut i) {
        0 => return false,
        n if n > 1 && b[int_start] == b'0' => return false,
        _ => {}
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}
