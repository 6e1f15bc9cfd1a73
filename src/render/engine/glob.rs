//! gobwas/glob as `.Files.Glob` compiles it (`glob.Compile(pattern, '/')`):
//! `*` any run of characters but `/`, `**` any run, `?` one character but
//! `/`, `[abc]`, `[a-z]`, `[!...]`, `{a,b}` alternatives (nesting), `\`
//! escapes. A pattern that does not compile (an unclosed `[` or `{`) is an
//! error, and Helm then matches everything.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Char(char),
    Any,
    Super,
    Single,
    Class { negated: bool, ranges: Vec<(char, char)> },
    Alt(Vec<Vec<Tok>>),
}

#[derive(Debug, Clone)]
pub struct Glob {
    toks: Vec<Tok>,
}

impl Glob {
    pub fn compile(pattern: &str) -> Option<Glob> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut i = 0;
        let toks = parse_seq(&chars, &mut i, false)?;
        (i == chars.len()).then_some(Glob { toks })
    }

    /// `**`.
    pub fn everything() -> Glob {
        Glob { toks: vec![Tok::Super] }
    }

    pub fn matches(&self, name: &str) -> bool {
        let chars: Vec<char> = name.chars().collect();
        match_seq(&self.toks, &chars, &mut Vec::new())
    }
}

/// A sequence up to the end, or (inside `{}`) up to `,` or `}`.
fn parse_seq(p: &[char], i: &mut usize, in_alt: bool) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    while *i < p.len() {
        let c = p[*i];
        match c {
            ',' | '}' if in_alt => return Some(out),
            '*' => {
                if p.get(*i + 1) == Some(&'*') {
                    *i += 2;
                    out.push(Tok::Super);
                } else {
                    *i += 1;
                    out.push(Tok::Any);
                }
            }
            '?' => {
                *i += 1;
                out.push(Tok::Single);
            }
            '\\' => {
                let next = *p.get(*i + 1)?;
                *i += 2;
                out.push(Tok::Char(next));
            }
            '[' => {
                *i += 1;
                let negated = p.get(*i) == Some(&'!');
                if negated {
                    *i += 1;
                }
                let mut ranges = Vec::new();
                loop {
                    let c = *p.get(*i)?;
                    if c == ']' {
                        *i += 1;
                        break;
                    }
                    if p.get(*i + 1) == Some(&'-') && p.get(*i + 2).is_some_and(|&e| e != ']') {
                        ranges.push((c, p[*i + 2]));
                        *i += 3;
                    } else {
                        ranges.push((c, c));
                        *i += 1;
                    }
                }
                out.push(Tok::Class { negated, ranges });
            }
            '{' => {
                *i += 1;
                let mut alts = Vec::new();
                loop {
                    alts.push(parse_seq(p, i, true)?);
                    match p.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                out.push(Tok::Alt(alts));
            }
            _ => {
                *i += 1;
                out.push(Tok::Char(c));
            }
        }
    }
    if in_alt { None } else { Some(out) }
}

/// Backtracking match; `rest` holds what follows an alternative.
fn match_seq(toks: &[Tok], s: &[char], rest: &mut Vec<Vec<Tok>>) -> bool {
    let Some((first, tail)) = toks.split_first() else {
        return match rest.pop() {
            Some(next) => {
                let ok = match_seq(&next, s, rest);
                rest.push(next);
                ok
            }
            None => s.is_empty(),
        };
    };
    match first {
        Tok::Char(c) => s.first() == Some(c) && match_seq(tail, &s[1..], rest),
        Tok::Single => s.first().is_some_and(|&c| c != '/') && match_seq(tail, &s[1..], rest),
        Tok::Class { negated, ranges } => {
            s.first().is_some_and(|&c| ranges.iter().any(|&(a, b)| a <= c && c <= b) != *negated) && match_seq(tail, &s[1..], rest)
        }
        Tok::Any | Tok::Super => {
            for k in 0..=s.len() {
                if match_seq(tail, &s[k..], rest) {
                    return true;
                }
                if k < s.len() && *first == Tok::Any && s[k] == '/' {
                    return false;
                }
            }
            false
        }
        Tok::Alt(alts) => alts.iter().any(|alt| {
            rest.push(tail.to_vec());
            let ok = match_seq(alt, s, rest);
            rest.pop();
            ok
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::Glob;

    fn m(p: &str, s: &str) -> bool {
        Glob::compile(p).expect("compiles").matches(s)
    }

    #[test]
    fn a_star_stops_at_slashes_and_a_double_star_crosses_them() {
        assert!(m("files/*", "files/a.txt"));
        assert!(!m("files/*", "files/sub/a.txt"));
        assert!(m("files/**", "files/sub/a.txt"));
        assert!(m("**.json", "dashboards/x/y.json"));
        assert!(!m("*.json", "dashboards/y.json"));
    }

    #[test]
    fn classes_alternatives_and_escapes_match_like_gobwas() {
        assert!(m("f/[a-c].txt", "f/b.txt"));
        assert!(!m("f/[!a-c].txt", "f/b.txt"));
        assert!(m("f/{a,b}.{yaml,json}", "f/b.json"));
        assert!(!m("f/{a,b}.{yaml,json}", "f/c.json"));
        assert!(m("f/\\*", "f/*"));
        assert!(m("f/?.txt", "f/x.txt"));
        assert!(!m("f?x", "f/x"));
    }

    #[test]
    fn an_unclosed_class_or_alternative_does_not_compile() {
        assert!(Glob::compile("f/[ab").is_none());
        assert!(Glob::compile("f/{a,b").is_none());
    }
}
