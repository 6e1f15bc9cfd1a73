//! The lexer: splits a template into text and actions (applying trim
//! markers and dropping comments) and an action into tokens, with their
//! byte offsets.

use super::{TmplError, line_col};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Field(String),
    Dot,
    Dollar,
    Ident(String),
    Str(String),
    Int(i64),
    Float(f64),
    Pipe,
    Open,
    Close,
    Other(String),
}

/// One action's tokens, with their byte offsets.
pub(super) type Toks = Vec<(Tok, usize)>;

pub(super) enum Item {
    Text(String, usize),
    /// An action's tokens; the offset of its `{{`.
    Action(Toks, usize),
}

/// Splits `src` (the contents of `file`) into text and actions.
pub(super) fn items(file: &str, src: &str) -> Result<Vec<Item>, TmplError> {
    Lexer { file, src, at: 0 }.items()
}

struct Lexer<'a> {
    file: &'a str,
    src: &'a str,
    at: usize,
}

impl Lexer<'_> {
    fn unsupported(&self, at: usize, construct: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Unsupported { file: self.file.into(), line, column, construct: construct.into() }
    }

    /// Splits the source into text and actions, applying trim markers and dropping comments.
    fn items(&mut self) -> Result<Vec<Item>, TmplError> {
        let src = self.src;
        let mut items: Vec<Item> = Vec::new();
        let mut text_start = 0usize;
        while let Some(rel) = src[self.at..].find("{{") {
            let open = self.at + rel;
            let mut text = &src[text_start..open];
            let mut inner = open + 2;
            let trim_left = src[inner..].starts_with('-') && src[inner + 1..].starts_with([' ', '\t', '\r', '\n']);
            if trim_left {
                text = text.trim_end_matches([' ', '\t', '\r', '\n']);
                inner += 2;
            }
            if !text.is_empty() {
                items.push(Item::Text(text.to_string(), text_start));
            }
            if !src[inner..].contains("}}") {
                return Err(self.unsupported(open, "an unclosed action"));
            }
            // A `}}` inside a string or comment: find the real end by lexing.
            let (toks, end, trim_right) = if src[inner..].starts_with("/*") {
                let Some(c) = src[inner + 2..].find("*/") else { return Err(self.unsupported(open, "an unclosed comment")) };
                let after = inner + 2 + c + 2;
                let (end, trim_right) = if src[after..].starts_with("}}") {
                    (after + 2, false)
                } else if src[after..].starts_with(" -}}") {
                    (after + 4, true)
                } else {
                    return Err(self.unsupported(open, "a comment not closed by `*/}}`"));
                };
                (None, end, trim_right)
            } else {
                let (toks, end, trim_right) = self.lex_action(inner, open)?;
                (Some(toks), end, trim_right)
            };
            if let Some(toks) = toks {
                items.push(Item::Action(toks, open));
            }
            self.at = end;
            text_start = end;
            if trim_right {
                let rest = &src[end..];
                let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\n']);
                text_start = end + (rest.len() - trimmed.len());
                self.at = text_start;
            }
        }
        if text_start < src.len() {
            items.push(Item::Text(src[text_start..].to_string(), text_start));
        }
        Ok(items)
    }

    /// The tokens of the action whose body starts at `i`; the offset after its `}}`, and whether it trims right.
    fn lex_action(&self, mut i: usize, open: usize) -> Result<(Toks, usize, bool), TmplError> {
        let src = self.src;
        let b = src.as_bytes();
        let mut toks = Vec::new();
        loop {
            let Some(&c) = b.get(i) else { return Err(self.unsupported(open, "an unclosed action")) };
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    if src[i..].trim_start_matches([' ', '\t', '\r', '\n']).starts_with("-}}") {
                        let j = src.len() - src[i..].trim_start_matches([' ', '\t', '\r', '\n']).len();
                        return Ok((toks, j + 3, true));
                    }
                    i += 1;
                }
                b'}' if src[i..].starts_with("}}") => return Ok((toks, i + 2, false)),
                b'|' => {
                    toks.push((Tok::Pipe, i));
                    i += 1;
                }
                b'(' => {
                    toks.push((Tok::Open, i));
                    i += 1;
                }
                b')' => {
                    toks.push((Tok::Close, i));
                    i += 1;
                }
                b'"' => {
                    let (s, end) = self.lex_string(i)?;
                    toks.push((Tok::Str(s), i));
                    i = end;
                }
                b'`' => {
                    let Some(e) = src[i + 1..].find('`') else { return Err(self.unsupported(i, "an unclosed raw string")) };
                    toks.push((Tok::Str(src[i + 1..i + 1 + e].to_string()), i));
                    i = i + 1 + e + 1;
                }
                b'.' => {
                    let n = ident_len(&src[i + 1..]);
                    if n == 0 {
                        if b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                            return Err(self.unsupported(i, format!("the number `{}`", word(&src[i..]))));
                        }
                        toks.push((Tok::Dot, i));
                        i += 1;
                    } else {
                        toks.push((Tok::Field(src[i + 1..i + 1 + n].to_string()), i));
                        i += 1 + n;
                    }
                }
                b'$' => {
                    let n = ident_len(&src[i + 1..]);
                    if n > 0 {
                        return Err(self.unsupported(i, format!("the variable `${}`", &src[i + 1..i + 1 + n])));
                    }
                    toks.push((Tok::Dollar, i));
                    i += 1;
                }
                b'0'..=b'9' | b'-' | b'+' => {
                    let w = number_word(&src[i..]);
                    toks.push((parse_number(w).ok_or_else(|| self.unsupported(i, format!("the number `{w}`")))?, i));
                    i += w.len().max(1);
                }
                c if c == b'_' || c.is_ascii_alphabetic() => {
                    let n = ident_len(&src[i..]);
                    toks.push((Tok::Ident(src[i..i + n].to_string()), i));
                    i += n;
                }
                _ => {
                    let w: String = src[i..].chars().take_while(|c| !c.is_whitespace() && *c != '}').collect();
                    let w = if w.is_empty() { src[i..].chars().next().map(String::from).unwrap_or_default() } else { w };
                    toks.push((Tok::Other(w.clone()), i));
                    i += w.len();
                }
            }
        }
    }

    /// A Go interpreted string literal starting at `i` (`"`): its value and the offset after it.
    fn lex_string(&self, i: usize) -> Result<(String, usize), TmplError> {
        let src = self.src;
        let mut out = String::new();
        let mut chars = src[i + 1..].char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => return Ok((out, i + 1 + k + 1)),
                '\n' => break,
                '\\' => {
                    let Some((_, e)) = chars.next() else { break };
                    let simple = match e {
                        'n' => Some('\n'),
                        't' => Some('\t'),
                        'r' => Some('\r'),
                        '\\' => Some('\\'),
                        '"' => Some('"'),
                        'a' => Some('\x07'),
                        'b' => Some('\x08'),
                        'f' => Some('\x0c'),
                        'v' => Some('\x0b'),
                        _ => None,
                    };
                    match simple {
                        Some(c) => out.push(c),
                        None => return Err(self.unsupported(i, format!("the escape `\\{e}` in a string literal"))),
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.unsupported(i, "an unterminated string literal"))
    }
}

pub(super) fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Field(f) => format!("`.{f}`"),
        Tok::Dot => "`.`".into(),
        Tok::Dollar => "`$`".into(),
        Tok::Ident(w) | Tok::Other(w) => format!("`{w}`"),
        Tok::Str(s) => format!("{s:?}"),
        Tok::Int(n) => n.to_string(),
        Tok::Float(f) => f.to_string(),
        Tok::Pipe => "`|`".into(),
        Tok::Open => "`(`".into(),
        Tok::Close => "`)`".into(),
    }
}

fn ident_len(s: &str) -> usize {
    s.char_indices().find(|(_, c)| !(c.is_alphanumeric() || *c == '_')).map_or(s.len(), |(i, _)| i)
}

fn word(s: &str) -> &str {
    let n = s.char_indices().find(|(_, c)| c.is_whitespace() || *c == '}' || *c == ')' || *c == '|').map_or(s.len(), |(i, _)| i);
    &s[..n]
}

fn number_word(s: &str) -> &str {
    let n = s.char_indices().skip(1).find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '.' || *c == '_' || *c == '+' || *c == '-')).map_or(s.len(), |(i, _)| i);
    &s[..n]
}

/// Decimal integers and floats (`1`, `-2`, `1.5`, `1e3`); anything else (hex, `_`, imaginary) is refused.
fn parse_number(w: &str) -> Option<Tok> {
    let body = w.strip_prefix(['-', '+']).unwrap_or(w);
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit()) || body.contains('_') {
        return None;
    }
    if body.bytes().all(|c| c.is_ascii_digit()) {
        if body.len() > 1 && body.starts_with('0') {
            return None; // octal
        }
        return w.parse::<i64>().ok().map(Tok::Int);
    }
    let ok = body.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !ok || body.starts_with("0x") {
        return None;
    }
    w.parse::<f64>().ok().filter(|f| f.is_finite()).map(Tok::Float)
}
