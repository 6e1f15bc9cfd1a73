//! fromToml's strings and numbers (BurntSushi/toml v1.6.0 lex.go
//! `lexString`, `lexMultilineString`, `lexRawString`,
//! `lexMultilineRawString`, `lexStringEscape`, the number states; parse.go
//! `replaceEscapes`, `stripEscapedNewlines`, `stripFirstNewline`,
//! `valueInteger`, `valueFloat`), in the strict subset the module note
//! describes.

use super::{Node, Parser, Refusal};

impl Parser<'_> {
    /// The text `b[start..end]` (always at ASCII boundaries of valid UTF-8).
    fn text(&self, start: usize, end: usize) -> String {
        String::from_utf8_lossy(&self.b[start..end]).into_owned()
    }

    /// After the opening `"`: to the closing `"` on the same line.
    pub(super) fn basic_string(&mut self) -> Result<String, Refusal> {
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.peek().is_some_and(|c| !matches!(c, b'"' | b'\\' | b'\n' | b'\r')) {
                self.i += 1;
            }
            out.push_str(&self.text(start, self.i));
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                _ => return self.refuse("a string without its closing '\"' on its line"),
            }
        }
    }

    /// At a `\`: lex.go `lexStringEscape` and parse.go `replaceEscapes`.
    /// `\ ` and `\<tab>` (the lexer takes them; the parser fails) are refused.
    fn escape(&mut self) -> Result<char, Refusal> {
        let c = self.b.get(self.i + 1).copied();
        self.i += 2;
        let hex = |p: &mut Self, n: usize| -> Result<char, Refusal> {
            let digits = p.b.get(p.i..p.i + n).filter(|d| d.iter().all(u8::is_ascii_hexdigit));
            let Some(digits) = digits else {
                return p.refuse("a short hexadecimal escape");
            };
            let code = u32::from_str_radix(&String::from_utf8_lossy(digits), 16).ok();
            p.i += n;
            // parse.go `asciiEscapeToUnicode`: `utf8.ValidRune` (no surrogates, at most U+10FFFF).
            code.and_then(char::from_u32).map_or_else(|| p.refuse("an escape that is not a Unicode scalar value"), Ok)
        };
        Ok(match c {
            Some(b'b') => '\u{8}',
            Some(b't') => '\t',
            Some(b'n') => '\n',
            Some(b'f') => '\u{c}',
            Some(b'r') => '\r',
            Some(b'e') => '\u{1b}',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'x') => return hex(self, 2),
            Some(b'u') => return hex(self, 4),
            Some(b'U') => return hex(self, 8),
            _ => return self.refuse("an invalid escape"),
        })
    }

    /// After the opening `'`: to the closing `'` on the same line, nothing escaped.
    pub(super) fn literal_string(&mut self) -> Result<String, Refusal> {
        let start = self.i;
        while self.peek().is_some_and(|c| !matches!(c, b'\'' | b'\n' | b'\r')) {
            self.i += 1;
        }
        if self.peek() != Some(b'\'') {
            return self.refuse("a literal string without its closing \"'\" on its line");
        }
        let s = self.text(start, self.i);
        self.i += 1;
        Ok(s)
    }

    /// parse.go `stripFirstNewline`.
    fn strip_first_newline(&mut self) {
        let _ = self.newline();
    }

    /// A run of `q` (the closing delimiter with up to two more of it
    /// before: `"""a"""""` holds `a""`; six or more are refused).
    /// `Some(n)`: the string ends, `n` quotes belong to it.
    fn closing_run(&mut self, q: u8) -> Result<Option<usize>, Refusal> {
        let n = self.b[self.i..].iter().take_while(|&&c| c == q).count();
        match n {
            0..=2 => Ok(None),
            3..=5 => {
                self.i += n;
                Ok(Some(n - 3))
            }
            _ => self.refuse("six or more quotes closing a multi-line string"),
        }
    }

    /// After `"""`: escapes, and a line-ending backslash drops the
    /// whitespace and newlines after it (parse.go `stripEscapedNewlines`).
    pub(super) fn multiline_basic(&mut self) -> Result<String, Refusal> {
        self.strip_first_newline();
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.peek().is_some_and(|c| c != b'"' && c != b'\\') {
                self.i += 1;
            }
            out.push_str(&self.text(start, self.i));
            match self.peek() {
                None => return self.refuse("a multi-line string without its closing '\"\"\"'"),
                Some(b'"') => match self.closing_run(b'"')? {
                    Some(n) => {
                        out.push_str(&"\"".repeat(n));
                        return Ok(out);
                    }
                    None => {
                        out.push('"');
                        self.i += 1;
                    }
                },
                Some(_) => {
                    let ws = self.b[self.i + 1..].iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')).count();
                    let run = &self.b[self.i + 1..self.i + 1 + ws];
                    if run.contains(&b'\n') {
                        self.i += 1 + ws;
                    } else if ws > 0 {
                        return self.refuse("a backslash before whitespace that does not end the line");
                    } else {
                        out.push(self.escape()?);
                    }
                }
            }
        }
    }

    /// After `'''`: nothing escaped.
    pub(super) fn multiline_literal(&mut self) -> Result<String, Refusal> {
        self.strip_first_newline();
        let start = self.i;
        loop {
            match self.peek() {
                None => return self.refuse("a multi-line literal string without its closing \"'''\""),
                Some(b'\'') => {
                    let end = self.i;
                    if let Some(n) = self.closing_run(b'\'')? {
                        return Ok(self.text(start, end) + &"'".repeat(n));
                    }
                    self.i += 1;
                }
                Some(_) => self.i += 1,
            }
        }
    }

    /// Digits of `radix` with single underscores between them (parse.go
    /// `numUnderscoresOK`); at least one digit.
    fn digits(&mut self, ok: fn(&u8) -> bool) -> Result<(), Refusal> {
        if !self.peek().as_ref().is_some_and(ok) {
            return self.refuse("a number without its digits");
        }
        loop {
            self.i += 1;
            match self.peek() {
                Some(c) if ok(&c) => {}
                Some(b'_') if self.b.get(self.i + 1).is_some_and(ok) => self.i += 1,
                _ => return Ok(()),
            }
        }
    }

    /// An integer (`int64`) or a float (`float64`): decimal with an
    /// optional sign and no leading zero, `0x`/`0o`/`0b` without a sign,
    /// `inf`/`nan` with an optional sign. What looks like a date or time
    /// after its digits is refused (Helm makes a `time.Time`).
    pub(super) fn number(&mut self) -> Result<Node, Refusal> {
        let start = self.i;
        let sign = matches!(self.peek(), Some(b'+' | b'-'));
        if sign {
            self.i += 1;
        }
        for special in ["inf", "nan"] {
            if self.at(special) {
                self.i += 3;
                let negative = self.b[start] == b'-';
                let f = if special == "inf" { f64::INFINITY } else { f64::NAN };
                // parse.go `valueFloat`: `-nan` is NaN with the sign bit set.
                return Ok(Node::Float(if negative { -f } else { f }));
            }
        }
        if !sign && self.at("0") && matches!(self.b.get(self.i + 1), Some(b'x' | b'o' | b'b')) {
            let radix = match self.b[self.i + 1] {
                b'x' => 16,
                b'o' => 8,
                _ => 2,
            };
            self.i += 2;
            let body = self.i;
            self.digits(match radix {
                16 => u8::is_ascii_hexdigit,
                8 => |c: &u8| (b'0'..=b'7').contains(c),
                _ => |c: &u8| matches!(c, b'0' | b'1'),
            })?;
            let text: String = self.text(body, self.i).replace('_', "");
            return match i64::from_str_radix(&text, radix) {
                Ok(n) => Ok(Node::Int(n)),
                Err(_) => self.refuse("an integer out of int64's range"),
            };
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else {
            self.digits(u8::is_ascii_digit)?;
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digits(u8::is_ascii_digit)?;
            float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.digits(u8::is_ascii_digit)?;
            float = true;
        }
        if matches!(self.peek(), Some(b'0'..=b'9' | b'_' | b'-' | b':' | b'.' | b'e' | b'E')) {
            return self.refuse("a date-time (Helm's fromToml makes a time.Time, which releasex does not model) or a malformed number");
        }
        let text = self.text(start, self.i).replace('_', "");
        if float {
            match text.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Node::Float(f)),
                _ => self.refuse("a float out of float64's range"),
            }
        } else {
            match text.parse::<i64>() {
                Ok(n) => Ok(Node::Int(n)),
                Err(_) => self.refuse("an integer out of int64's range"),
            }
        }
    }
}
