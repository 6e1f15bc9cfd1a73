//! sprig: regex (regex.go), with Go's RE2 syntax and semantics. Go and the
//! `regex` crate both match leftmost-first, but differ in syntax: Go's
//! `\d`, `\w`, `\s`, `\b` are ASCII, `[` inside a class is a literal,
//! `\Q..\E` and octal escapes exist, an unparsable `{` is a literal, and
//! `(?x)` does not exist. So a pattern is first read by
//! [`translate`] (Go's regexp/syntax parse.go rules, its error messages
//! included) into an equivalent `regex` pattern. The iteration rules of
//! `FindAll`, `ReplaceAll`, `Split` and `$name` expansion are Go's
//! (regexp.go `allMatches`, `replaceAll`, `expand`, `extract`), written here.

use regex::Regex;

use crate::gotmpl::func::{Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::Tv;

use super::strings::unicode::{is_go_digit, is_go_letter};
use super::strings::{arg_int, arg_str, check_len, made_from, ok_bool, ok_string, string_list};

mod syntax;

pub(super) use syntax::translate;

const S: Param = Param::String;
const I: Param = Param::Int;

pub(super) fn register(m: &mut FuncMap) {
    let made = Derive::Made;
    // regexMatch drops the compile error (false); the `must` form returns it.
    m.add("regexMatch", Sig::fixed(&[S, S]), made, |_, a| match compile(arg_str(&a, 0)?) {
        Ok(re) => ok_bool(re.is_match(arg_str(&a, 1)?)),
        // Go's compile error: false. A pattern releasex cannot read stays refused.
        Err(FnError::Go(_)) => ok_bool(false),
        Err(other) => Err(other),
    });
    m.add("mustRegexMatch", Sig::fixed(&[S, S]), made, |_, a| ok_bool(compile_or(true, arg_str(&a, 0)?)?.is_match(arg_str(&a, 1)?)));
    for (name, must) in [("regexFindAll", false), ("mustRegexFindAll", true)] {
        let f: crate::gotmpl::func::GoFn = if must {
            |_, a| Ok(made_from(&a, find_all(compile_or(true, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_int(&a, 2)?)?))
        } else {
            |_, a| Ok(made_from(&a, find_all(compile_or(false, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_int(&a, 2)?)?))
        };
        m.add(name, Sig::fixed(&[S, S, I]), made, f);
    }
    m.add("regexFind", Sig::fixed(&[S, S]), made, |_, a| ok_string(compile_or(false, arg_str(&a, 0)?)?.find(arg_str(&a, 1)?).map_or("", |m| m.as_str()).to_string()));
    m.add("mustRegexFind", Sig::fixed(&[S, S]), made, |_, a| ok_string(compile_or(true, arg_str(&a, 0)?)?.find(arg_str(&a, 1)?).map_or("", |m| m.as_str()).to_string()));
    m.add("regexReplaceAll", Sig::fixed(&[S, S, S]), made, |_, a| replace_all(&compile_or(false, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_str(&a, 2)?, true));
    m.add("mustRegexReplaceAll", Sig::fixed(&[S, S, S]), made, |_, a| replace_all(&compile_or(true, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_str(&a, 2)?, true));
    m.add("regexReplaceAllLiteral", Sig::fixed(&[S, S, S]), made, |_, a| replace_all(&compile_or(false, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_str(&a, 2)?, false));
    m.add("mustRegexReplaceAllLiteral", Sig::fixed(&[S, S, S]), made, |_, a| replace_all(&compile_or(true, arg_str(&a, 0)?)?, arg_str(&a, 1)?, arg_str(&a, 2)?, false));
    m.add("regexSplit", Sig::fixed(&[S, S, I]), made, |_, a| Ok(made_from(&a, split(&compile_or(false, arg_str(&a, 0)?)?, arg_str(&a, 0)?, arg_str(&a, 1)?, arg_int(&a, 2)?)?)));
    m.add("mustRegexSplit", Sig::fixed(&[S, S, I]), made, |_, a| Ok(made_from(&a, split(&compile_or(true, arg_str(&a, 0)?)?, arg_str(&a, 0)?, arg_str(&a, 1)?, arg_int(&a, 2)?)?)));
    m.add("regexQuoteMeta", Sig::fixed(&[S]), made, |_, a| ok_string(quote_meta(arg_str(&a, 0)?)));
}

/// A Go pattern compiled; `Err`: Go's error text (`error parsing regexp: ...`),
/// or `Unsupported` where the translation is not exact.
fn compile(pattern: &str) -> Result<Regex, FnError> {
    let rust = translate(pattern).map_err(|e| FnError::Go(e.to_string()))?;
    Regex::new(&rust).map_err(|e| FnError::Unsupported(format!("the regular expression `{pattern}` (releasex cannot read it as Go would: {e})")))
}

/// `regexp.Compile` (the `must*` functions return its error) or
/// `regexp.MustCompile` (the others: it panics, `regexp: Compile(...)`).
fn compile_or(returns_error: bool, pattern: &str) -> Result<Regex, FnError> {
    match compile(pattern) {
        Err(FnError::Go(msg)) if !returns_error => Err(FnError::Go(format!("regexp: Compile({}): {msg}", go_regexp_quote(pattern)))),
        other => other,
    }
}

/// regexp.go `quote`: backquoted when `strconv.CanBackquote` allows (no
/// backquote, no control character but tab, no U+FEFF), else `%q`.
fn go_regexp_quote(s: &str) -> String {
    if s.chars().all(|c| c != '`' && c != '\u{FEFF}' && (c == '\t' || !(c < ' ' || c == '\u{7F}'))) {
        return format!("`{s}`");
    }
    crate::go::quote::quote(s)
}

/// Go's `allMatches` loop: successive matches, an empty match right after
/// a previous match skipped, at most `n` (n < 0: all).
fn all_matches(re: &Regex, s: &str, n: i64) -> Vec<(usize, usize)> {
    let n = if n < 0 { s.len() as i64 + 1 } else { n };
    let mut out = Vec::new();
    let (mut pos, mut prev_end) = (0usize, None::<usize>);
    while (out.len() as i64) < n && pos <= s.len() {
        let Some(m) = re.find_at(s, pos) else { break };
        let mut accept = true;
        if m.end() == pos {
            if Some(m.start()) == prev_end {
                accept = false;
            }
            pos += s[pos..].chars().next().map_or(1, char::len_utf8);
        } else {
            pos = m.end();
        }
        prev_end = Some(m.end());
        if accept {
            out.push((m.start(), m.end()));
        }
    }
    out
}

fn find_all(re: Regex, s: &str, n: i64) -> Result<Tv, FnError> {
    let found: Vec<String> = all_matches(&re, s, n).into_iter().map(|(a, b)| s[a..b].to_string()).collect();
    Ok(string_list(found))
}

/// Go's `replaceAll`: no replacement for an empty match right after the
/// previous match; `expand`: `$name`/`${name}` as Go reads them.
fn replace_all(re: &Regex, src: &str, repl: &str, expand: bool) -> Result<Tv, FnError> {
    let mut out = String::new();
    let (mut last_end, mut search) = (0usize, 0usize);
    while search <= src.len() {
        let Some(caps) = re.captures_at(src, search) else { break };
        let Some(m) = caps.get(0) else { break };
        out.push_str(&src[last_end..m.start()]);
        if m.end() > last_end || m.start() == 0 {
            if expand {
                expand_template(&mut out, repl, re, &caps);
            } else {
                out.push_str(repl);
            }
            check_len("regexReplaceAll", out.len() as u128)?;
        }
        last_end = m.end();
        let width = src[search..].chars().next().map_or(0, char::len_utf8);
        search = if search + width > m.end() {
            search + width
        } else if search + 1 > m.end() {
            search + 1
        } else {
            m.end()
        };
    }
    out.push_str(&src[last_end..]);
    ok_string(out)
}

/// regexp.go `expand`.
fn expand_template(out: &mut String, template: &str, re: &Regex, caps: &regex::Captures<'_>) {
    let mut t = template;
    while let Some(i) = t.find('$') {
        out.push_str(&t[..i]);
        t = &t[i + 1..];
        if let Some(rest) = t.strip_prefix('$') {
            out.push('$');
            t = rest;
            continue;
        }
        let Some((name, num, rest)) = extract(t) else {
            out.push('$');
            continue;
        };
        t = rest;
        let group = match num {
            Some(n) => caps.get(n),
            // The first group of that name that took part in the match.
            None => re.capture_names().enumerate().filter(|(_, g)| *g == Some(name)).find_map(|(i, _)| caps.get(i)),
        };
        if let Some(g) = group {
            out.push_str(g.as_str());
        }
    }
    out.push_str(t);
}

/// regexp.go `extract`: a name of letters, digits and `_` (braced or not);
/// a number without leading zeros below 1e8 is a group index.
fn extract(s: &str) -> Option<(&str, Option<usize>, &str)> {
    let (braced, body) = match s.strip_prefix('{') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let end = body.char_indices().find(|&(_, c)| !(is_go_letter(c) || is_go_digit(c) || c == '_')).map_or(body.len(), |(i, _)| i);
    if end == 0 {
        return None;
    }
    let name = &body[..end];
    let rest = if braced { body[end..].strip_prefix('}')? } else { &body[end..] };
    let mut num: Option<usize> = Some(0);
    for b in name.bytes() {
        num = match num {
            Some(n) if b.is_ascii_digit() && n < 100_000_000 => Some(n * 10 + (b - b'0') as usize),
            _ => None,
        };
    }
    if name.len() > 1 && name.starts_with('0') {
        num = None;
    }
    Some((name, num, rest))
}

/// Go's `Regexp.Split`.
fn split(re: &Regex, pattern: &str, s: &str, n: i64) -> Result<Tv, FnError> {
    if n == 0 {
        return Ok(string_list(Vec::new()));
    }
    if !pattern.is_empty() && s.is_empty() {
        return Ok(string_list(vec![String::new()]));
    }
    let mut parts: Vec<String> = Vec::new();
    let (mut beg, mut end) = (0usize, 0usize);
    for (a, b) in all_matches(re, s, n) {
        if n > 0 && parts.len() as i64 == n - 1 {
            break;
        }
        end = a;
        if b != 0 {
            parts.push(s[beg..end].to_string());
        }
        beg = b;
    }
    if end != s.len() {
        parts.push(s[beg..].to_string());
    }
    Ok(string_list(parts))
}

/// `regexp.QuoteMeta`.
fn quote_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::gotmpl::sprig::strings::tests::{call, i, out, s};

    #[test]
    fn go_regex_iteration_and_expansion_rules() {
        assert_eq!(out(call("regexFindAll", vec![s("a*"), s("baaab"), i(-1)])), "[ aaa ]");
        assert_eq!(out(call("regexReplaceAll", vec![s("a*"), s("baaab"), s("X")])), "XbXbX");
        assert_eq!(out(call("regexReplaceAll", vec![s("(?P<x>a)(b)"), s("ab"), s("${x}$2$1x$$")])), "ab$");
        assert_eq!(out(call("regexSplit", vec![s(","), s("a,b,,c"), i(-1)])), "[a b  c]");
        assert_eq!(out(call("regexMatch", vec![s(r"^\d+$"), s("١٢")])), "false");
        assert_eq!(out(call("regexQuoteMeta", vec![s("a.b*c")])), r"a\.b\*c");
        assert_eq!(out(call("mustRegexFind", vec![s("("), s("x")])), "ERR Go(\"error parsing regexp: missing closing ): `(`\")");
        // Go's own limit on nested repeat counts: its error, so `false`.
        assert_eq!(out(call("regexMatch", vec![s("((a{1000}){1000}){1000}"), s("a")])), "false");
    }
}
