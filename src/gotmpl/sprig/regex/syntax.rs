//! Go regexp/syntax (parse.go, Go 1.19, with Go 1.22's `(?<name>`) read into the `regex` crate's
//! syntax: one pass over the pattern with Go's rules and error texts
//! (`error parsing regexp: CODE: `EXPR``); every literal is written as
//! `\x{..}` so no character means something else to `regex`.

use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub code: &'static str,
    pub expr: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

fn err(code: &'static str, expr: &str) -> SyntaxError {
    SyntaxError { code, expr: expr.to_string() }
}

const ASCII_DIGIT: &str = "0-9";
const ASCII_SPACE: &str = r"\t\n\x{0C}\r ";
const ASCII_WORD: &str = "0-9A-Za-z_";
const POSIX: [&str; 14] = ["alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word", "xdigit"];

/// Go's Perl classes as ASCII class bodies (`\d` is `[0-9]`, `\s` has no `\v`).
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    Some(match c {
        'd' => (ASCII_DIGIT, false),
        'D' => (ASCII_DIGIT, true),
        's' => (ASCII_SPACE, false),
        'S' => (ASCII_SPACE, true),
        'w' => (ASCII_WORD, false),
        'W' => (ASCII_WORD, true),
        _ => return None,
    })
}

fn lit(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", c as u32);
    }
}

/// Translates a Go pattern into the `regex` crate's syntax, or Go's error.
pub fn translate(pattern: &str) -> Result<String, SyntaxError> {
    let mut p = Parser { whole: pattern, out: String::new(), depth: 0, operand: false, weight: 0, group_max: 0, groups: Vec::new() };
    p.run()?;
    Ok(p.out)
}

struct Parser<'p> {
    whole: &'p str,
    out: String,
    /// Open groups.
    depth: usize,
    /// Something a repetition can apply to precedes (Go: the stack top is not a pseudo-op).
    operand: bool,
    /// For Go's `repeatIsValid` (at most 1000 along any chain of nested
    /// `{n,m}`): the largest product of repeat counts inside the last
    /// operand (1 without any, 0 under a `{0}`, which Go stops at), the
    /// largest over the operands already finished in this group, and the
    /// enclosing groups' values.
    weight: u64,
    group_max: u64,
    groups: Vec<u64>,
}

impl<'p> Parser<'p> {
    fn run(&mut self) -> Result<(), SyntaxError> {
        let mut t: &'p str = self.whole;
        let mut last_repeat: Option<&'p str> = None;
        while let Some(c) = t.chars().next() {
            let mut repeat: Option<&'p str> = None;
            match c {
                '(' => {
                    t = self.open_group(t)?;
                }
                ')' => {
                    if self.depth == 0 {
                        return Err(err("unexpected )", self.whole));
                    }
                    self.depth -= 1;
                    self.out.push(')');
                    self.finish_operand();
                    let content = self.group_max.max(1);
                    self.group_max = self.groups.pop().unwrap_or(0);
                    self.operand = true;
                    self.weight = content;
                    t = &t[1..];
                }
                '|' => {
                    self.out.push('|');
                    self.finish_operand();
                    self.operand = false;
                    t = &t[1..];
                }
                '^' | '$' | '.' => {
                    self.out.push(c);
                    self.atom();
                    t = &t[1..];
                }
                '[' => t = self.class(t)?,
                '*' | '+' | '?' => {
                    let after = self.repetition(t, &t[1..], last_repeat)?;
                    self.out.push(c);
                    if t[1..].len() != after.len() {
                        self.out.push('?');
                    }
                    repeat = Some(t);
                    t = after;
                }
                '{' => match parse_repeat(t) {
                    None => {
                        lit(&mut self.out, '{');
                        self.atom();
                        t = &t[1..];
                    }
                    Some((min, max, rest)) => {
                        let spelled = &t[..t.len() - rest.len()];
                        if !(0..=1000).contains(&min) || max > 1000 || max >= 0 && min > max {
                            return Err(err("invalid repeat count", spelled));
                        }
                        let after = self.repetition(t, rest, last_repeat)?;
                        let count = if max == -1 { min } else { max } as u64;
                        self.weight = count.saturating_mul(self.weight);
                        if (min >= 2 || max >= 2) && self.weight > 1000 {
                            return Err(err("invalid repeat count", spelled));
                        }
                        self.out.push_str(spelled);
                        if rest.len() != after.len() {
                            self.out.push('?');
                        }
                        repeat = Some(t);
                        t = after;
                    }
                },
                '\\' => t = self.escape(t)?,
                other => {
                    lit(&mut self.out, other);
                    self.atom();
                    t = &t[other.len_utf8()..];
                }
            }
            last_repeat = repeat;
        }
        if self.depth != 0 {
            return Err(err("missing closing )", self.whole));
        }
        Ok(())
    }

    /// A group opens: the operand before it is finished.
    fn open(&mut self) {
        self.finish_operand();
        self.groups.push(self.group_max);
        self.group_max = 0;
        self.operand = false;
        self.depth += 1;
    }

    /// A new atom: the previous operand is finished.
    fn atom(&mut self) {
        self.finish_operand();
        self.operand = true;
        self.weight = 1;
    }

    fn finish_operand(&mut self) {
        if self.operand {
            self.group_max = self.group_max.max(self.weight);
        }
    }

    /// parse.go `repeat`: a `?` after the operator makes it non-greedy; a
    /// repetition of a repetition, or of nothing, is an error.
    fn repetition(&mut self, before: &'p str, after: &'p str, last_repeat: Option<&'p str>) -> Result<&'p str, SyntaxError> {
        let after = after.strip_prefix('?').unwrap_or(after);
        if let Some(last) = last_repeat {
            return Err(err("invalid nested repetition operator", &last[..last.len() - after.len()]));
        }
        if !self.operand {
            return Err(err("missing argument to repetition operator", &before[..before.len() - after.len()]));
        }
        Ok(after)
    }

    /// `(`, `(?:`, `(?flags)`, `(?flags:`, `(?P<name>` (parsePerlFlags).
    fn open_group(&mut self, s: &'p str) -> Result<&'p str, SyntaxError> {
        if !s.starts_with("(?") {
            self.open();
            self.out.push('(');
            return Ok(&s[1..]);
        }
        // `(?P<name>`, and since Go 1.22 (helmfile 0.166 is built with Go
        // 1.22.4; the oracle's Go 1.19 refused it) `(?<name>`.
        let begin = if s.len() > 4 && s[2..].starts_with("P<") {
            Some(4)
        } else if s.len() > 3 && s[2..].starts_with('<') {
            Some(3)
        } else {
            None
        };
        if let Some(begin) = begin {
            let Some(end) = s.find('>') else {
                return Err(err("invalid named capture", s));
            };
            let name = &s[begin..end];
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(err("invalid named capture", &s[..=end]));
            }
            self.open();
            let _ = write!(self.out, "(?P<{name}>");
            return Ok(&s[end + 1..]);
        }
        let mut t = &s[2..];
        let (mut negated, mut saw_flag) = (false, false);
        let mut flags = String::new();
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            match c {
                'i' | 'm' | 's' | 'U' => {
                    flags.push(c);
                    saw_flag = true;
                }
                '-' if !negated => {
                    negated = true;
                    saw_flag = false;
                    flags.push('-');
                }
                ':' | ')' if !negated || saw_flag => {
                    if c == ':' {
                        self.open();
                        let _ = write!(self.out, "(?{flags}:");
                    } else if !flags.is_empty() {
                        let _ = write!(self.out, "(?{flags})");
                    }
                    return Ok(t);
                }
                _ => break,
            }
        }
        Err(err("invalid or unsupported Perl syntax", &s[..s.len() - t.len()]))
    }

    /// A `\` escape outside a class.
    fn escape(&mut self, t: &'p str) -> Result<&'p str, SyntaxError> {
        let Some(c) = t[1..].chars().next() else {
            return Err(err("trailing backslash at end of expression", ""));
        };
        let rest = &t[1 + c.len_utf8()..];
        let before = (self.operand, self.weight, self.group_max);
        self.atom();
        match c {
            'A' => self.out.push_str(r"\A"),
            'z' => self.out.push_str(r"\z"),
            'b' => self.out.push_str(r"(?-u:\b)"),
            'B' => self.out.push_str(r"(?-u:\B)"),
            'C' => return Err(err("invalid escape sequence", &t[..2])),
            'Q' => {
                let (literal, after) = rest.split_once(r"\E").unwrap_or((rest, ""));
                literal.chars().for_each(|c| lit(&mut self.out, c));
                if literal.is_empty() {
                    // Go pushes nothing: a following `*` repeats what came before.
                    (self.operand, self.weight, self.group_max) = before;
                }
                return Ok(after);
            }
            'p' | 'P' => {
                let (class, after) = unicode_class(t)?;
                self.out.push_str(&class);
                return Ok(after);
            }
            _ => {
                if let Some((body, negated)) = perl_class(c) {
                    let _ = write!(self.out, "[{}{body}]", if negated { "^" } else { "" });
                    return Ok(rest);
                }
                let (r, after) = parse_escape(t)?;
                lit(&mut self.out, r);
                return Ok(after);
            }
        }
        Ok(rest)
    }

    /// parse.go `parseClass`: `[` is a literal inside, `-` a literal at
    /// either end, `]` first is a literal.
    fn class(&mut self, whole: &'p str) -> Result<&'p str, SyntaxError> {
        let mut t = &whole[1..];
        self.out.push('[');
        if let Some(rest) = t.strip_prefix('^') {
            self.out.push('^');
            t = rest;
        }
        let mut first = true;
        loop {
            let Some(c) = t.chars().next() else {
                return Err(err("missing closing ]", whole));
            };
            if c == ']' && !first {
                t = &t[1..];
                break;
            }
            first = false;
            if let Some(end) = t.strip_prefix("[:").and_then(|r| r.find(":]")) {
                let name = &t[2..2 + end];
                let bare = name.strip_prefix('^').unwrap_or(name);
                if POSIX.contains(&bare) {
                    let _ = write!(self.out, "[{}]", &t[..end + 4]);
                    t = &t[end + 4..];
                    continue;
                }
                return Err(err("invalid character class range", &t[..end + 4]));
            }
            if t.starts_with(r"\p") || t.starts_with(r"\P") {
                let (class, after) = unicode_class(t)?;
                self.out.push_str(&class);
                t = after;
                continue;
            }
            if let Some((body, negated)) = t.strip_prefix('\\').and_then(|r| r.chars().next()).and_then(perl_class) {
                let _ = write!(self.out, "{}{body}{}", if negated { "[^" } else { "" }, if negated { "]" } else { "" });
                t = &t[2..];
                continue;
            }
            let start = t;
            let (lo, rest) = class_char(t, whole)?;
            t = rest;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
                let (h, rest) = class_char(&t[1..], whole)?;
                t = rest;
                hi = h;
                if hi < lo {
                    return Err(err("invalid character class range", &start[..start.len() - t.len()]));
                }
            }
            lit(&mut self.out, lo);
            if hi != lo {
                self.out.push('-');
                lit(&mut self.out, hi);
            }
        }
        self.out.push(']');
        self.atom();
        Ok(t)
    }
}

/// One character of a class: a literal or an escape.
fn class_char<'t>(t: &'t str, whole: &str) -> Result<(char, &'t str), SyntaxError> {
    match t.chars().next() {
        None => Err(err("missing closing ]", whole)),
        Some('\\') => parse_escape(t),
        Some(c) => Ok((c, &t[c.len_utf8()..])),
    }
}

/// parse.go `parseUnicodeClass`: `\pL`, `\p{Greek}`, `\P{^L}` with the
/// names Go knows (its Categories and Scripts, and `Any`), written as
/// `regex`'s explicit `gc=`/`sc=` forms (a bare script name there means
/// Script_Extensions; Go's is Script).
fn unicode_class(t: &str) -> Result<(String, &str), SyntaxError> {
    use crate::gotmpl::sprig::strings::unicode::{GO_CATEGORIES, GO_SCRIPTS};
    let mut negated = t.as_bytes()[1] == b'P';
    let body = &t[2..];
    let (seq, name, rest) = match body.chars().next() {
        Some('{') => match t.find('}') {
            Some(end) => (&t[..=end], &t[3..end], &t[end + 1..]),
            None => return Err(err("invalid character class range", t)),
        },
        Some(c) => (&t[..2 + c.len_utf8()], &body[..c.len_utf8()], &body[c.len_utf8()..]),
        None => (t, "", ""),
    };
    let name = match name.strip_prefix('^') {
        Some(n) => {
            negated = !negated;
            n
        }
        None => name,
    };
    let p = if negated { 'P' } else { 'p' };
    let class = if name == "Any" {
        if negated { r"[^\x{0}-\x{10FFFF}]".to_string() } else { r"[\x{0}-\x{10FFFF}]".to_string() }
    } else if GO_CATEGORIES.contains(&name) {
        format!("\\{p}{{gc={name}}}")
    } else if GO_SCRIPTS.contains(&name) {
        format!("\\{p}{{sc={name}}}")
    } else {
        return Err(err("invalid character class range", seq));
    };
    Ok((class, rest))
}

/// parse.go `parseEscape`: octal, `\x`, the C escapes, escaped punctuation.
fn parse_escape(s: &str) -> Result<(char, &str), SyntaxError> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(err("trailing backslash at end of expression", ""));
    };
    let mut t = &t[c.len_utf8()..];
    let octal = |b: Option<u8>| b.is_some_and(|b| (b'0'..=b'7').contains(&b));
    let invalid = |t: &str| err("invalid escape sequence", &s[..s.len() - t.len()]);
    match c {
        '1'..='7' if !octal(t.bytes().next()) => Err(invalid(t)),
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                match t.bytes().next() {
                    Some(b) if octal(Some(b)) => {
                        r = r * 8 + (b - b'0') as u32;
                        t = &t[1..];
                    }
                    _ => break,
                }
            }
            Ok((char::from_u32(r).unwrap_or('\0'), t))
        }
        'x' => {
            if let Some(rest) = t.strip_prefix('{') {
                let Some(end) = rest.find('}') else { return Err(invalid("")) };
                let hex = &rest[..end];
                let after = &rest[end + 1..];
                return match u32::from_str_radix(hex, 16).ok().filter(|_| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())).and_then(char::from_u32) {
                    Some(r) => Ok((r, after)),
                    None => Err(invalid(after)),
                };
            }
            let digits: Vec<char> = t.chars().take(2).collect();
            let used: usize = digits.iter().map(|c| c.len_utf8()).sum();
            match (digits.first().and_then(|c| c.to_digit(16)), digits.get(1).and_then(|c| c.to_digit(16))) {
                (Some(x), Some(y)) => Ok((char::from_u32(x * 16 + y).unwrap_or('\0'), &t[2..])),
                _ => Err(invalid(&t[used..])),
            }
        }
        'a' => Ok(('\u{7}', t)),
        'f' => Ok(('\u{C}', t)),
        'n' => Ok(('\n', t)),
        'r' => Ok(('\r', t)),
        't' => Ok(('\t', t)),
        'v' => Ok(('\u{B}', t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c, t)),
        _ => Err(invalid(t)),
    }
}

/// parse.go `parseRepeat`: `{n}`, `{n,}`, `{n,m}`; `None`: `{` is a literal.
/// A number of more than 8 digits reads as -1 (an invalid count).
fn parse_repeat(s: &str) -> Option<(i64, i64, &str)> {
    let t = s.strip_prefix('{')?;
    let (min, t) = parse_int(t)?;
    let (max, t) = match t.strip_prefix(',') {
        None => (min, t),
        Some(rest) if rest.starts_with('}') => (-1, rest),
        Some(rest) => {
            let (max, rest) = parse_int(rest)?;
            (max, rest)
        }
    };
    let min = if max < -1 { -1 } else { min };
    let rest = t.strip_prefix('}')?;
    Some((min, max, rest))
}

fn parse_int(s: &str) -> Option<(i64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits >= 2 && s.starts_with('0') {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -2;
            break;
        }
        n = n * 10 + (b - b'0') as i64;
    }
    Some((n, &s[digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_patterns_become_equivalent_rust_patterns_or_gos_errors() {
        assert_eq!(translate(r"\d+").unwrap(), "[0-9]+");
        assert_eq!(translate("a{").unwrap(), r"a\x{7B}");
        assert_eq!(translate("[[]").unwrap(), r"[\x{5B}]");
        assert_eq!(translate("a**").unwrap_err().to_string(), "error parsing regexp: invalid nested repetition operator: `**`");
        assert_eq!(translate("*").unwrap_err().to_string(), "error parsing regexp: missing argument to repetition operator: `*`");
        assert_eq!(translate("a)").unwrap_err().to_string(), "error parsing regexp: unexpected ): `a)`");
        assert_eq!(translate("[a").unwrap_err().to_string(), "error parsing regexp: missing closing ]: `[a`");
        assert_eq!(translate("(?<n>a)").unwrap(), "(?P<n>a)");
        assert_eq!(translate("(?<n-x>a)").unwrap_err().to_string(), "error parsing regexp: invalid named capture: `(?<n-x>`");
        assert_eq!(translate(r"\q").unwrap_err().to_string(), "error parsing regexp: invalid escape sequence: `\\q`");
        assert_eq!(translate("a{1001}").unwrap_err().to_string(), "error parsing regexp: invalid repeat count: `{1001}`");
        assert_eq!(translate("(a{100}){11}").unwrap_err().to_string(), "error parsing regexp: invalid repeat count: `{11}`");
        assert!(translate("(a{100}){10}").is_ok() && translate("((a{1000}){0}){5}").is_ok());
    }
}
