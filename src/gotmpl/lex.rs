//! The lexer: Go's text/template scanner (text/template/parse/lex.go, Go
//! 1.19) run to the end at once. Items keep Go's byte offsets and lines, so
//! the parser's and executor's messages say what Go's say; a lexing error
//! is an [`T::Error`] item at the place Go's scanner stops.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum T {
    Error,
    Bool,
    /// A printable ASCII character (`,` and the grab bag).
    Char,
    CharConstant,
    Complex,
    Assign,
    Declare,
    Eof,
    Field,
    Identifier,
    LeftDelim,
    LeftParen,
    Number,
    Pipe,
    RawString,
    RightDelim,
    RightParen,
    Space,
    String,
    Text,
    Variable,
    // Keywords (lex.go: everything after itemKeyword prints as `<word>`).
    Block,
    Break,
    Continue,
    Dot,
    Define,
    Else,
    End,
    If,
    Nil,
    Range,
    Template,
    With,
}

impl T {
    fn is_keyword(self) -> bool {
        matches!(self, T::Block | T::Break | T::Continue | T::Dot | T::Define | T::Else | T::End | T::If | T::Nil | T::Range | T::Template | T::With)
    }
}

/// `val` borrows the template's text; an error item's is empty (its
/// message is the lexer's [`Lexer::error`]), so items are small and `Copy`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Item<'a> {
    pub(super) typ: T,
    pub(super) pos: usize,
    pub(super) val: &'a str,
    pub(super) line: usize,
}

impl std::fmt::Display for Item<'_> {
    /// lex.go `item.String`: how the parser's messages name a token (an
    /// error item is named by the parser, which has the message).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.typ {
            T::Eof => f.write_str("EOF"),
            T::Error => f.write_str(self.val),
            t if t.is_keyword() => write!(f, "<{}>", self.val),
            _ if self.val.len() > 10 => {
                // `%.10q...`: the first ten runes, quoted.
                let head: String = self.val.chars().take(10).collect();
                write!(f, "{}...", crate::go::quote::quote(&head))
            }
            _ => f.write_str(&crate::go::quote::quote(self.val)),
        }
    }
}

const SPACE: [char; 4] = [' ', '\t', '\r', '\n'];

fn is_space(c: Option<char>) -> bool {
    matches!(c, Some(' ' | '\t' | '\r' | '\n'))
}

/// Go's `isAlphaNumeric`: `_`, a Unicode letter or a Unicode digit.
fn is_alnum(c: Option<char>) -> bool {
    c.is_some_and(|c| c == '_' || c.is_alphabetic() || go_is_digit(c))
}

/// `unicode.IsDigit` is category Nd; Rust's `is_numeric` also takes No/Nl.
fn go_is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric() && c.to_digit(10).is_none() && char_is_nd(c))
}

/// Decimal digits outside ASCII: Rust has no category test; these blocks hold Go's Nd runes people write.
fn char_is_nd(c: char) -> bool {
    let u = c as u32;
    [(0x660, 0x669), (0x6F0, 0x6F9), (0x966, 0x96F), (0xFF10, 0xFF19)].iter().any(|&(a, b)| (a..=b).contains(&u))
}

/// `s.find("{{")`, by a memchr for each `{` (no substring searcher set up per call).
fn find_left_delim(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'{', b.get(from..)?) {
        let at = from + i;
        if b.get(at + 1) == Some(&b'{') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The `\n` bytes of `s` (a plain byte count, which the compiler vectorizes).
fn newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}

fn has_left_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'-' && is_space(Some(b[1] as char))
}

fn has_right_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && is_space(Some(b[0] as char)) && b[1] == b'-'
}

/// A scanner over `src` that the parser pulls items from, one at a time
/// (as Go's parser reads its lexer's channel), so a huge template is never
/// held as items all at once. After `Eof` or an `Error` it yields `Eof`.
/// `break_ok`/`continue_ok`: whether those words are keywords (they are
/// not when the function map defines them, as in Go).
pub(super) fn lex(src: &str, break_ok: bool, continue_ok: bool) -> Lexer<'_> {
    Lexer { input: src, pos: 0, start: 0, line: 1, start_line: 1, paren_depth: 0, items: [None, None], state: State::Text, break_ok, continue_ok, error: String::new() }
}

impl<'a> Lexer<'a> {
    pub(super) fn next_item(&mut self) -> Item<'a> {
        loop {
            if let Some(item) = self.items[0].take() {
                self.items[0] = self.items[1].take();
                return item;
            }
            self.state = match self.state {
                State::Text => self.lex_text(),
                State::LeftDelim => self.lex_left_delim(),
                State::Comment => self.lex_comment(),
                State::RightDelim => self.lex_right_delim(),
                State::Inside => self.lex_inside(),
                State::Done => return Item { typ: T::Eof, pos: self.input.len(), val: "", line: self.line },
            };
        }
    }
}

#[derive(Clone, Copy)]
enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    Inside,
    Done,
}

pub(super) struct Lexer<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    line: usize,
    start_line: usize,
    paren_depth: i64,
    /// Items emitted and not yet read, in order: a state emits at most two
    /// (text then EOF), so a pair of slots is the queue.
    items: [Option<Item<'a>>; 2],
    state: State,
    break_ok: bool,
    continue_ok: bool,
    /// The message of the error item, once there is one (there is at most one).
    pub(super) error: String,
}

impl<'a> Lexer<'a> {
    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn peek(&self) -> Option<char> {
        // `pos` is always on a rune boundary; an ASCII byte is its rune.
        match self.input.as_bytes().get(self.pos)? {
            &b if b < 0x80 => Some(b as char),
            _ => self.input[self.pos..].chars().next(),
        }
    }

    /// Steps back over `c`, the rune `next` returned (nothing at EOF).
    fn backup(&mut self, c: Option<char>) {
        if let Some(c) = c {
            self.pos -= c.len_utf8();
            if c == '\n' {
                self.line -= 1;
            }
        }
    }

    fn push(&mut self, item: Item<'a>) {
        let slot = if self.items[0].is_none() { 0 } else { 1 };
        self.items[slot] = Some(item);
    }

    fn emit(&mut self, typ: T) {
        self.push(Item { typ, pos: self.start, val: &self.input[self.start..self.pos], line: self.start_line });
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn ignore(&mut self) {
        self.line += newlines(&self.input[self.start..self.pos]);
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.peek() {
            Some(c) if valid.contains(c) => {
                self.next();
                true
            }
            _ => false,
        }
    }

    fn accept_run(&mut self, valid: &str) {
        while self.accept(valid) {}
    }

    fn errorf(&mut self, msg: String) -> State {
        self.error = msg;
        self.push(Item { typ: T::Error, pos: self.start, val: "", line: self.start_line });
        State::Done
    }

    fn lex_text(&mut self) -> State {
        let rest = &self.input[self.pos..];
        if let Some(x) = find_left_delim(rest) {
            self.pos += x;
            let mut trim = 0;
            if has_left_trim(&self.input[self.pos + 2..]) {
                let text = &self.input[self.start..self.pos];
                trim = text.len() - text.trim_end_matches(SPACE).len();
            }
            self.pos -= trim;
            if self.pos > self.start {
                self.line += newlines(&self.input[self.start..self.pos]);
                self.emit(T::Text);
            }
            self.pos += trim;
            self.ignore();
            return State::LeftDelim;
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.line += newlines(&self.input[self.start..self.pos]);
            self.emit(T::Text);
        }
        self.emit(T::Eof);
        State::Done
    }

    fn at_right_delim(&self) -> (bool, bool) {
        let rest = &self.input[self.pos..];
        if has_right_trim(rest) && rest[2..].starts_with("}}") {
            return (true, true);
        }
        (rest.starts_with("}}"), false)
    }

    fn lex_left_delim(&mut self) -> State {
        self.pos += 2;
        let trim = has_left_trim(&self.input[self.pos..]);
        let after = if trim { 2 } else { 0 };
        if self.input[self.pos + after..].starts_with("/*") {
            self.pos += after;
            self.ignore();
            return State::Comment;
        }
        self.emit(T::LeftDelim);
        self.pos += after;
        self.ignore();
        self.paren_depth = 0;
        State::Inside
    }

    fn lex_comment(&mut self) -> State {
        self.pos += 2;
        let Some(i) = self.input[self.pos..].find("*/") else { return self.errorf("unclosed comment".into()) };
        self.pos += i + 2;
        let (delim, trim) = self.at_right_delim();
        if !delim {
            return self.errorf("comment ends before closing delimiter".into());
        }
        if trim {
            self.pos += 2;
        }
        self.pos += 2;
        if trim {
            let rest = &self.input[self.pos..];
            self.pos += rest.len() - rest.trim_start_matches(SPACE).len();
        }
        self.ignore();
        State::Text
    }

    fn lex_right_delim(&mut self) -> State {
        let trim = has_right_trim(&self.input[self.pos..]);
        if trim {
            self.pos += 2;
            self.ignore();
        }
        self.pos += 2;
        self.emit(T::RightDelim);
        if trim {
            let rest = &self.input[self.pos..];
            self.pos += rest.len() - rest.trim_start_matches(SPACE).len();
            self.ignore();
        }
        State::Text
    }

    fn lex_inside(&mut self) -> State {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return State::RightDelim;
            }
            return self.errorf("unclosed left paren".into());
        }
        let r = self.next();
        match r {
            None => return self.errorf("unclosed action".into()),
            Some(' ' | '\t' | '\r' | '\n') => {
                self.backup(r);
                return self.lex_space();
            }
            Some('=') => self.emit(T::Assign),
            Some(':') => {
                if self.next() != Some('=') {
                    return self.errorf("expected :=".into());
                }
                self.emit(T::Declare);
            }
            Some('|') => self.emit(T::Pipe),
            Some('"') => return self.lex_quote(),
            Some('`') => return self.lex_raw_quote(),
            Some('$') => return self.lex_variable(),
            Some('\'') => return self.lex_char(),
            Some('.') if self.input.as_bytes().get(self.pos).is_some_and(|b| !b.is_ascii_digit()) => return self.lex_field_or_variable(T::Field),
            Some('.' | '+' | '-' | '0'..='9') => {
                self.backup(r);
                return self.lex_number();
            }
            c if is_alnum(c) => {
                self.backup(r);
                return self.lex_identifier();
            }
            Some('(') => {
                self.emit(T::LeftParen);
                self.paren_depth += 1;
            }
            Some(')') => {
                self.emit(T::RightParen);
                self.paren_depth -= 1;
                if self.paren_depth < 0 {
                    return self.errorf(format!("unexpected right paren {}", go_u(')')));
                }
            }
            Some(c) if c.is_ascii() && !c.is_ascii_control() => self.emit(T::Char),
            Some(c) => return self.errorf(format!("unrecognized character in action: {}", go_u(c))),
        }
        State::Inside
    }

    fn lex_space(&mut self) -> State {
        let mut spaces = 0;
        while let Some(&b) = self.input.as_bytes().get(self.pos)
            && matches!(b, b' ' | b'\t' | b'\r' | b'\n')
        {
            self.pos += 1;
            self.line += usize::from(b == b'\n');
            spaces += 1;
        }
        let back = &self.input[self.pos - 1..];
        if has_right_trim(back) && back[2..].starts_with("}}") {
            self.backup(Some(' '));
            if spaces == 1 {
                return State::RightDelim;
            }
        }
        self.emit(T::Space);
        State::Inside
    }

    fn lex_identifier(&mut self) -> State {
        let r = self.skip_alnum();
        let word = &self.input[self.start..self.pos];
        if !self.at_terminator() {
            return self.errorf(format!("bad character {}", r.map_or("U+FFFFFFFF".into(), go_u)));
        }
        let typ = match word {
            "block" => T::Block,
            "break" if self.break_ok => T::Break,
            "continue" if self.continue_ok => T::Continue,
            "define" => T::Define,
            "else" => T::Else,
            "end" => T::End,
            "if" => T::If,
            "range" => T::Range,
            "nil" => T::Nil,
            "template" => T::Template,
            "with" => T::With,
            "true" | "false" => T::Bool,
            _ => T::Identifier,
        };
        self.emit(typ);
        State::Inside
    }

    fn lex_variable(&mut self) -> State {
        if self.at_terminator() {
            self.emit(T::Variable);
            return State::Inside;
        }
        self.lex_field_or_variable(T::Variable)
    }

    fn lex_field_or_variable(&mut self, typ: T) -> State {
        if self.at_terminator() {
            self.emit(if typ == T::Variable { T::Variable } else { T::Dot });
            return State::Inside;
        }
        let r = self.skip_alnum();
        if !self.at_terminator() {
            return self.errorf(format!("bad character {}", r.map_or("U+FFFFFFFF".into(), go_u)));
        }
        self.emit(typ);
        State::Inside
    }

    /// Steps over a run of alphanumeric runes (ASCII ones byte by byte) and
    /// returns the rune after it, not consumed (`next` until not alnum, then `backup`).
    fn skip_alnum(&mut self) -> Option<char> {
        while let Some(&b) = self.input.as_bytes().get(self.pos) {
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
                continue;
            }
            if b < 0x80 {
                return Some(b as char);
            }
            match self.peek() {
                Some(c) if is_alnum(Some(c)) => self.pos += c.len_utf8(),
                other => return other,
            }
        }
        None
    }

    fn at_terminator(&self) -> bool {
        match self.peek() {
            None => true,
            c if is_space(c) => true,
            Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            _ => self.input[self.pos..].starts_with("}}"),
        }
    }

    fn lex_char(&mut self) -> State {
        loop {
            match self.next() {
                Some('\\') => {
                    if !matches!(self.next(), None | Some('\n')) {
                        continue;
                    }
                    return self.errorf("unterminated character constant".into());
                }
                None | Some('\n') => return self.errorf("unterminated character constant".into()),
                Some('\'') => break,
                _ => {}
            }
        }
        self.emit(T::CharConstant);
        State::Inside
    }

    fn lex_number(&mut self) -> State {
        if !self.scan_number() {
            return self.errorf(format!("bad number syntax: {}", crate::go::quote::quote(&self.input[self.start..self.pos])));
        }
        if matches!(self.peek(), Some('+' | '-')) {
            if !self.scan_number() || !self.input[..self.pos].ends_with('i') {
                return self.errorf(format!("bad number syntax: {}", crate::go::quote::quote(&self.input[self.start..self.pos])));
            }
            self.emit(T::Complex);
        } else {
            self.emit(T::Number);
        }
        State::Inside
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 11 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 23 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if is_alnum(self.peek()) {
            self.next();
            return false;
        }
        true
    }

    fn lex_quote(&mut self) -> State {
        loop {
            // A run of plain characters at once (no newline among them, so the line stays).
            let rest = self.input.as_bytes().get(self.pos..).unwrap_or(&[]);
            self.pos += memchr::memchr3(b'\\', b'\n', b'"', rest).unwrap_or(rest.len());
            match self.next() {
                Some('\\') => {
                    if !matches!(self.next(), None | Some('\n')) {
                        continue;
                    }
                    return self.errorf("unterminated quoted string".into());
                }
                None | Some('\n') => return self.errorf("unterminated quoted string".into()),
                Some('"') => break,
                _ => {}
            }
        }
        self.emit(T::String);
        State::Inside
    }

    fn lex_raw_quote(&mut self) -> State {
        loop {
            let rest = self.input.as_bytes().get(self.pos..).unwrap_or(&[]);
            let run = memchr::memchr(b'`', rest).unwrap_or(rest.len());
            self.line += newlines(&self.input[self.pos..self.pos + run]);
            self.pos += run;
            match self.next() {
                None => return self.errorf("unterminated raw quoted string".into()),
                Some('`') => break,
                _ => {}
            }
        }
        self.emit(T::RawString);
        State::Inside
    }
}

/// `%#U`: `U+0021 '!'`.
pub(super) fn go_u(c: char) -> String {
    if c.is_control() { format!("U+{:04X}", c as u32) } else { format!("U+{:04X} '{c}'", c as u32) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn find_left_delim_is_find() {
        for s in ["", "{", "{{", "{{{", "a{b{", "x{{y{{z", "{a{{", "é{ü{{", "{ {", "}}{{"] {
            assert_eq!(super::find_left_delim(s), s.find("{{"), "{s:?}");
        }
    }

    #[test]
    fn newlines_counts_line_feeds() {
        for s in ["", "a", "\n", "a\nb\r\n", "é\n\n"] {
            assert_eq!(super::newlines(s), s.matches('\n').count());
        }
    }
}
