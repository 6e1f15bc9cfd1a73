//! huandu/xstrings' case conversions as sprig calls them (`snakecase`,
//! `kebabcase`, `camelcase`, `shuffle`): convert.go, translated step by
//! step (its word splitter decides where connectors go, and small
//! differences in it change the output). Source: xstrings v1.4.0, the
//! version helmfile 0.166 links; it differs from Debian's v1.3.3, which
//! the Go oracle runs, only in `ToCamelCase` (commit 1707565 "ToCamelCase
//! preserves cases": v1.3.3 lowered every letter not after a connector).

use super::unicode::{go_lower, go_upper, is_go_letter, is_go_number, is_go_punct, is_go_space, is_go_upper};

const RUNE_ERROR: char = '\u{FFFD}';

/// `utf8.DecodeRuneInString` on a valid string: U+FFFD reads as RuneError.
fn decode(s: &str) -> (char, usize) {
    s.chars().next().map_or((RUNE_ERROR, 0), |c| (c, c.len_utf8()))
}

fn is_connector(r: char) -> bool {
    r == '-' || r == '_' || is_go_space(r)
}

/// xstrings' `isAlphabet`: a letter that is not a CJK ideograph.
fn is_alphabet(r: char) -> bool {
    if !is_go_letter(r) {
        return false;
    }
    !matches!(r, '\u{4E00}'..='\u{9FCC}' | '\u{3400}'..='\u{4D85}' | '\u{20000}'..='\u{2B81D}')
}

/// `ToCamelCase`.
pub(super) fn to_camel_case(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut buf = String::new();
    let mut rest = s;
    let (mut r0, mut size) = (RUNE_ERROR, 0);
    while !rest.is_empty() {
        (r0, size) = decode(rest);
        rest = &rest[size..];
        if !is_connector(r0) {
            r0 = go_upper(r0);
            break;
        }
        buf.push(r0);
    }
    if rest.is_empty() {
        if size != 0 {
            buf.push(r0);
        }
        return buf;
    }
    while !rest.is_empty() {
        let r1 = r0;
        (r0, size) = decode(rest);
        rest = &rest[size..];
        if is_connector(r0) && is_connector(r1) {
            buf.push(r1);
            continue;
        }
        if is_connector(r1) {
            r0 = go_upper(r0);
        } else {
            buf.push(r1);
        }
    }
    buf.push(r0);
    buf
}

pub(super) fn to_snake_case(s: &str) -> String {
    camel_case_to_lower_case(s, '_')
}

pub(super) fn to_kebab_case(s: &str) -> String {
    camel_case_to_lower_case(s, '-')
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Invalid,
    Number,
    UpperCase,
    Alphabet,
    Connector,
    Punct,
    Other,
}

fn camel_case_to_lower_case(s: &str, connector: char) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut buf = String::new();
    let (mut wt, mut word, mut remaining) = next_word(s);
    while !remaining.is_empty() {
        if wt != Word::Connector {
            to_lower(&mut buf, wt, word, connector);
        }
        let prev = wt;
        let last = word;
        (wt, word, remaining) = next_word(remaining);
        match prev {
            Word::Number => {
                while wt == Word::Alphabet || wt == Word::Number {
                    to_lower(&mut buf, wt, word, connector);
                    (wt, word, remaining) = next_word(remaining);
                }
                if !matches!(wt, Word::Invalid | Word::Punct | Word::Connector) {
                    buf.push(connector);
                }
            }
            Word::Connector => to_lower(&mut buf, prev, last, connector),
            Word::Punct => {}
            _ => {
                if wt != Word::Number {
                    if wt != Word::Connector && wt != Word::Punct {
                        buf.push(connector);
                    }
                    continue;
                }
                if remaining.is_empty() {
                    continue;
                }
                let last = word;
                (wt, word, remaining) = next_word(remaining);
                if wt != Word::Alphabet {
                    to_lower(&mut buf, Word::Number, last, connector);
                    if wt != Word::Connector && wt != Word::Punct {
                        buf.push(connector);
                    }
                    continue;
                }
                buf.push(connector);
                to_lower(&mut buf, Word::Number, last, connector);
                while wt == Word::Alphabet || wt == Word::Number {
                    to_lower(&mut buf, wt, word, connector);
                    (wt, word, remaining) = next_word(remaining);
                }
                if !matches!(wt, Word::Invalid | Word::Connector | Word::Punct) {
                    buf.push(connector);
                }
            }
        }
    }
    to_lower(&mut buf, wt, word, connector);
    buf
}

/// `nextValidRune`: the next rune that is not RuneError, with the bytes
/// skipped to reach it; `prev` when there is none.
fn next_valid_rune(s: &str, prev: char) -> (char, usize) {
    let mut size = 0;
    let mut rest = s;
    while !rest.is_empty() {
        let (r, sz) = decode(rest);
        size += sz;
        if r != RUNE_ERROR {
            return (r, size);
        }
        rest = &rest[sz..];
    }
    (prev, size)
}

/// Consumes runes while `keep` holds; returns the new offset and rest.
fn take_while<'s>(s: &'s str, mut offset: usize, mut remaining: &'s str, mut r: char, keep: impl Fn(char) -> bool) -> (usize, &'s str, char) {
    while !remaining.is_empty() {
        let (next, size) = next_valid_rune(remaining, r);
        r = next;
        if !keep(r) {
            break;
        }
        offset += size;
        remaining = &remaining[size..];
    }
    let _ = s;
    (offset, remaining, r)
}

/// `nextWord`: the type of the word at the start of `s`, the word, the rest.
fn next_word(s: &str) -> (Word, &str, &str) {
    if s.is_empty() {
        return (Word::Invalid, "", "");
    }
    let (r, size) = next_valid_rune(s, RUNE_ERROR);
    let mut offset = size;
    if r == RUNE_ERROR {
        return (Word::Invalid, &s[..offset], &s[offset..]);
    }
    let remaining = &s[size..];
    let wt = if is_connector(r) {
        offset = take_while(s, offset, remaining, r, is_connector).0;
        Word::Connector
    } else if is_go_punct(r) {
        offset = take_while(s, offset, remaining, r, is_go_punct).0;
        Word::Punct
    } else if is_go_upper(r) {
        if !remaining.is_empty() {
            let (r2, size2) = next_valid_rune(remaining, r);
            if is_go_upper(r2) {
                let mut prev_size = size2;
                offset += size2;
                let mut rest = &remaining[size2..];
                let mut cur = r2;
                while !rest.is_empty() {
                    let (n, sz) = next_valid_rune(rest, cur);
                    cur = n;
                    if !is_go_upper(cur) {
                        break;
                    }
                    prev_size = sz;
                    offset += sz;
                    rest = &rest[sz..];
                }
                // "ABCd": the last capital starts the next word.
                if !rest.is_empty() && is_alphabet(cur) {
                    offset -= prev_size;
                }
            } else if is_alphabet(r2) {
                offset += size2;
                offset = take_while(s, offset, &remaining[size2..], r2, |c| is_alphabet(c) && !is_go_upper(c)).0;
            }
        }
        Word::UpperCase
    } else if is_alphabet(r) {
        offset = take_while(s, offset, remaining, r, |c| is_alphabet(c) && !is_go_upper(c)).0;
        Word::Alphabet
    } else if is_go_number(r) {
        offset = take_while(s, offset, remaining, r, is_go_number).0;
        Word::Number
    } else {
        let mut rest = remaining;
        let mut cur = r;
        while !rest.is_empty() {
            let (n, sz) = next_valid_rune(rest, cur);
            cur = n;
            if sz == 0 || is_connector(cur) || is_alphabet(cur) || is_go_number(cur) || is_go_punct(cur) {
                break;
            }
            offset += sz;
            rest = &rest[sz..];
        }
        Word::Other
    };
    (wt, &s[..offset], &s[offset..])
}

/// xstrings' `toLower`: only capital and connector words change.
fn to_lower(buf: &mut String, wt: Word, s: &str, connector: char) {
    if wt != Word::UpperCase && wt != Word::Connector {
        buf.push_str(s);
        return;
    }
    for r in s.chars() {
        if is_connector(r) {
            buf.push(connector);
        } else if is_go_upper(r) {
            buf.push(go_lower(r));
        } else {
            buf.push(r);
        }
    }
}

/// `Shuffle`: a Fisher-Yates shuffle of the characters.
pub(super) fn shuffle(s: &str) -> String {
    let mut runes: Vec<char> = s.chars().collect();
    for i in (1..runes.len()).rev() {
        let j = crate::gotmpl::sprig::random::below(i as u64 + 1) as usize;
        runes.swap(i, j);
    }
    runes.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xstrings_case_conversions_split_words_as_xstrings_does() {
        assert_eq!(to_snake_case("FirstName"), "first_name");
        assert_eq!(to_snake_case("HTTPServer"), "http_server");
        assert_eq!(to_snake_case("no_https"), "no_https");
        assert_eq!(to_kebab_case("FirstName"), "first-name");
        assert_eq!(to_camel_case("some_words"), "SomeWords");
        assert_eq!(to_camel_case("_"), "__");
        // v1.4.0 keeps the case of letters not after a connector (v1.3.3,
        // and so the Go oracle's tables, gave "Helloworld", "HELLOWORLD").
        assert_eq!(to_camel_case("HelloWorld"), "HelloWorld");
        assert_eq!(to_camel_case("HELLO_WORLD"), "HELLOWORLD");
        assert_eq!(to_camel_case("hello_World_x"), "HelloWorldX");
    }
}
