//! `.helmignore`, as far as it decides which files the directory loader
//! reads. helm: pkg/ignore/rules.go; globs are Go's `filepath.Match`.
//!
//! Rules are tried in order and the first decisive one wins. Quirks kept:
//! a negated rule (`!x`) *ignores* every path it does not match and stops
//! there, so `!x` after other rules hides everything else; `**` is an
//! error; a rule without `/` is matched against the base name only; `/x`
//! anchors at the chart root; `x/` matches directories only. The default
//! rule `templates/.?*` is appended after the file's rules. Only the top
//! chart's `.helmignore` is read; paths are relative to the top chart, so
//! rules see `charts/sub/values.yaml`. Archives are never filtered.

/// One parsed rule.
#[derive(Debug, Clone)]
struct Pattern {
    rule: String,
    negate: bool,
    must_dir: bool,
    kind: MatchKind,
    /// Where the rule's one `*` is, when it has no other glob syntax.
    shape: Shape,
}

/// Rules with no `?`, `[` or `\\` and at most one `*` (nearly every
/// rule) are matched without the general matcher, which every loaded file
/// meets once per rule; [`Shape::matches`] is what `go_match` says for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Literal,
    /// `PREFIX*SUFFIX`, the `*` at this byte.
    Star(usize),
    General,
}

impl Shape {
    fn of(rule: &str) -> Shape {
        if rule.contains(['?', '[', '\\']) {
            return Shape::General;
        }
        let mut stars = rule.match_indices('*');
        match (stars.next(), stars.next()) {
            (None, _) => Shape::Literal,
            (Some((at, _)), None) => Shape::Star(at),
            _ => Shape::General,
        }
    }

    /// `go_match(rule, name)` for a rule of this shape; `None` for [`Shape::General`].
    fn matches(self, rule: &str, name: &str) -> Option<bool> {
        match self {
            Shape::Literal => Some(rule == name),
            Shape::Star(at) => {
                let (prefix, suffix) = (&rule[..at], &rule[at + 1..]);
                // `*` takes any run of bytes but `/`.
                let Some(rest) = name.strip_prefix(prefix) else { return Some(false) };
                Some(rest.len() >= suffix.len() && rest.ends_with(suffix) && !rest[..rest.len() - suffix.len()].contains('/'))
            }
            Shape::General => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MatchKind {
    /// Leading `/`: the whole relative path.
    Rooted,
    /// Contains `/`: the whole relative path.
    Structural,
    /// No `/`: the base name.
    BaseName,
}

/// A `.helmignore` rule set.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rules {
    patterns: Vec<Pattern>,
}

impl Rules {
    /// Parses a `.helmignore` file (a UTF-8 BOM on the first line is
    /// dropped). Errors use Helm's wording.
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut rules = Rules::default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for line in text.lines() {
            rules.add(line)?;
        }
        Ok(rules)
    }

    /// helm: Rules.AddDefaults (dotfiles in templates/).
    pub fn add_defaults(&mut self) {
        self.add("templates/.?*").expect("the default rule parses");
    }

    fn add(&mut self, line: &str) -> Result<(), String> {
        // Go's strings.TrimSpace: Unicode white space.
        let rule = line.trim_matches(|c: char| c.is_whitespace());
        if rule.is_empty() || rule.starts_with('#') {
            return Ok(());
        }
        if rule.contains("**") {
            return Err("double-star (**) syntax is not supported".into());
        }
        go_match(rule, "abc")?;
        let mut rule = rule;
        let negate = rule.starts_with('!');
        if negate {
            rule = &rule[1..];
        }
        let must_dir = rule.ends_with('/');
        if must_dir {
            rule = &rule[..rule.len() - 1];
        }
        let (kind, rule) = if let Some(rest) = rule.strip_prefix('/') {
            (MatchKind::Rooted, rest)
        } else if rule.contains('/') {
            (MatchKind::Structural, rule)
        } else {
            (MatchKind::BaseName, rule)
        };
        self.patterns.push(Pattern {
            rule: rule.to_string(),
            negate,
            must_dir,
            kind,
            shape: Shape::of(rule),
        });
        Ok(())
    }

    /// Whether the loader skips `path` (relative, `/`-separated; a skipped
    /// directory is skipped whole).
    pub fn ignore(&self, path: &str, is_dir: bool) -> bool {
        if path.is_empty() || path == "." || path == "./" {
            return false;
        }
        for p in &self.patterns {
            let subject = match p.kind {
                MatchKind::BaseName => crate::go::path::base(path),
                MatchKind::Rooted | MatchKind::Structural => path,
            };
            // A pattern that fails to match at evaluation is a non-match.
            let matched = || p.shape.matches(&p.rule, subject).unwrap_or_else(|| go_match(&p.rule, subject).unwrap_or(false));
            if p.negate {
                if p.must_dir && !is_dir {
                    return true;
                }
                if !matched() {
                    return true;
                }
                continue;
            }
            if p.must_dir && !is_dir {
                continue;
            }
            if matched() {
                return true;
            }
        }
        false
    }
}

const BAD_PATTERN: &str = "syntax error in pattern";

/// Go's `filepath.Match` (Unix, Go 1.23+): `*` matches any run of non-`/`
/// bytes, `?` one non-`/` character, `[...]` a class (`^` negates, `a-z`
/// ranges), `\` escapes. A malformed pattern is an error when the matcher
/// reaches it. Works on bytes, as Go does.
pub(crate) fn go_match(pattern: &str, name: &str) -> Result<bool, String> {
    let mut pattern = pattern.as_bytes();
    let mut name = name.as_bytes();
    'outer: while !pattern.is_empty() {
        let (star, chunk, rest) = scan_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            return Ok(!name.contains(&b'/'));
        }
        let (t, ok) = match_chunk(chunk, name)?;
        if ok && (t.is_empty() || !pattern.is_empty()) {
            name = t;
            continue;
        }
        if star {
            let mut i = 0;
            while i < name.len() && name[i] != b'/' {
                let (t, ok) = match_chunk(chunk, &name[i + 1..])?;
                if ok {
                    if pattern.is_empty() && !t.is_empty() {
                        i += 1;
                        continue;
                    }
                    name = t;
                    continue 'outer;
                }
                i += 1;
            }
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

fn scan_chunk(pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut p = pattern;
    let mut star = false;
    while let [b'*', rest @ ..] = p {
        p = rest;
        star = true;
    }
    let mut in_range = false;
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'\\' if i + 1 < p.len() => i += 1,
            b'[' => in_range = true,
            b']' => in_range = false,
            b'*' if !in_range => break,
            _ => {}
        }
        i += 1;
    }
    (star, &p[..i], &p[i..])
}

/// Go's utf8.DecodeRune: U+FFFD and width 1 for an invalid byte.
fn decode_rune(s: &[u8]) -> (char, usize) {
    let n = match s.first() {
        None => return ('\u{fffd}', 0),
        Some(b) if *b < 0x80 => 1,
        Some(b) if *b >= 0xf0 => 4,
        Some(b) if *b >= 0xe0 => 3,
        Some(_) => 2,
    };
    match s
        .get(..n)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(|t| t.chars().next())
    {
        Some(c) => (c, n),
        None => ('\u{fffd}', 1),
    }
}

/// Matches `chunk` (no `*`) at the start of `s`; returns the rest of `s`.
fn match_chunk<'a>(chunk: &[u8], s: &'a [u8]) -> Result<(&'a [u8], bool), String> {
    let mut chunk = chunk;
    let mut s = s;
    let mut failed = false;
    while let Some(&first) = chunk.first() {
        if !failed && s.is_empty() {
            failed = true;
        }
        match first {
            b'[' => {
                let mut r = '\0';
                if !failed {
                    let (c, n) = decode_rune(s);
                    r = c;
                    s = &s[n..];
                }
                chunk = &chunk[1..];
                let mut negated = false;
                if chunk.first() == Some(&b'^') {
                    negated = true;
                    chunk = &chunk[1..];
                }
                let mut matched = false;
                let mut nrange = 0;
                loop {
                    if chunk.first() == Some(&b']') && nrange > 0 {
                        chunk = &chunk[1..];
                        break;
                    }
                    let (lo, rest) = get_esc(chunk)?;
                    chunk = rest;
                    let mut hi = lo;
                    if chunk[0] == b'-' {
                        let (h, rest) = get_esc(&chunk[1..])?;
                        hi = h;
                        chunk = rest;
                    }
                    if lo <= r && r <= hi {
                        matched = true;
                    }
                    nrange += 1;
                }
                if matched == negated {
                    failed = true;
                }
            }
            b'?' => {
                if !failed {
                    if s[0] == b'/' {
                        failed = true;
                    }
                    let (_, n) = decode_rune(s);
                    s = &s[n..];
                }
                chunk = &chunk[1..];
            }
            _ => {
                if first == b'\\' {
                    chunk = &chunk[1..];
                    if chunk.is_empty() {
                        return Err(BAD_PATTERN.into());
                    }
                }
                if !failed {
                    if chunk[0] != s[0] {
                        failed = true;
                    }
                    s = &s[1..];
                }
                chunk = &chunk[1..];
            }
        }
    }
    if failed {
        Ok((&[], false))
    } else {
        Ok((s, true))
    }
}

fn get_esc(chunk: &[u8]) -> Result<(char, &[u8]), String> {
    let mut chunk = chunk;
    if matches!(chunk.first(), None | Some(b'-') | Some(b']')) {
        return Err(BAD_PATTERN.into());
    }
    if chunk[0] == b'\\' {
        chunk = &chunk[1..];
        if chunk.is_empty() {
            return Err(BAD_PATTERN.into());
        }
    }
    let (c, n) = decode_rune(chunk);
    let invalid = c == '\u{fffd}' && n == 1;
    let rest = &chunk[n..];
    if invalid || rest.is_empty() {
        return Err(BAD_PATTERN.into());
    }
    Ok((c, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignored(rule: &str, path: &str, is_dir: bool) -> bool {
        Rules::parse(rule).unwrap().ignore(path, is_dir)
    }

    #[test]
    fn the_simple_shapes_match_as_go_match_does() {
        let rules = ["", "a", "a.txt", "*", "*.txt", "a*", "a*.txt", "*~", "kube-*.tgz", "x/*.yaml", "x/*", "*/a", "ci", "a/b", ".*", "*.", "a*a"];
        let names = ["", "a", "a.txt", "b.txt", "x/a.txt", "a/b", "x/c.yaml", "x/d/c.yaml", "kube-1.tgz", "kube-.tgz", "kube-a/b.tgz", "aa", "a~", "~", ".", ".a", "a.", "é.txt", "x/", "ci", "a/a"];
        for rule in rules {
            let shape = Shape::of(rule);
            assert_ne!(shape, Shape::General, "{rule}");
            for name in names {
                assert_eq!(shape.matches(rule, name), Some(go_match(rule, name).unwrap()), "{rule} {name}");
            }
        }
        for rule in ["a?", "[ab]", "a\\*", "*a*", "a**"] {
            assert_eq!(Shape::of(rule), Shape::General, "{rule}");
        }
    }

    /// Helm's TestIgnore table (pkg/ignore/rules_test.go).
    #[test]
    fn helms_ignore_table() {
        let cases: &[(&str, &str, bool, bool)] = &[
            ("helm.txt", "helm.txt", false, true),
            ("helm.*", "helm.txt", false, true),
            ("helm.*", "rudder.txt", false, false),
            ("*.txt", "tiller.txt", false, true),
            ("*.txt", "cargo/a.txt", false, true),
            ("cargo/*.txt", "cargo/a.txt", false, true),
            ("cargo/*.*", "cargo/a.txt", false, true),
            ("cargo/*.txt", "mast/a.txt", false, false),
            ("ru[c-e]?er.txt", "rudder.txt", false, true),
            ("templates/.?*", "templates/.dotfile", false, true),
            (".*", ".", true, false),
            (".*", "./", true, false),
            (".*", ".joonix", false, true),
            (".*", "helm.txt", false, false),
            (".*", "", false, false),
            ("cargo/", "cargo", true, true),
            ("cargo/", "cargo/", true, true),
            ("cargo/", "mast/", true, false),
            ("helm.txt/", "helm.txt", false, false),
            ("!helm.txt", "helm.txt", false, false),
            ("!helm.txt", "tiller.txt", false, true),
            ("!*.txt", "cargo", true, true),
            ("!cargo/", "mast/", true, true),
            ("/a.txt", "a.txt", false, true),
            ("/a.txt", "cargo/a.txt", false, false),
            ("/cargo/a.txt", "cargo/a.txt", false, true),
        ];
        for (rule, path, is_dir, want) in cases {
            assert_eq!(ignored(rule, path, *is_dir), *want, "{rule} {path}");
        }
    }

    #[test]
    fn parse_rejects_double_star_and_bad_globs() {
        assert_eq!(
            Rules::parse("foo/**/bar").unwrap_err(),
            "double-star (**) syntax is not supported"
        );
        assert_eq!(Rules::parse("[z-").unwrap_err(), "syntax error in pattern");
        let r = Rules::parse("#c\n\n  foo  \nbar/*\n").unwrap();
        assert_eq!(r.patterns.len(), 2);
    }

    #[test]
    fn a_negation_after_other_rules_hides_everything_else() {
        let r = Rules::parse("*.txt\n!keep.txt\n").unwrap();
        assert!(
            r.ignore("keep.txt", false),
            "the first rule already matched"
        );
        assert!(
            r.ignore("values.yaml", false),
            "the negation ignores what it does not match"
        );
    }

    #[test]
    fn go_filepath_match() {
        let cases: &[(&str, &str, Result<bool, ()>)] = &[
            ("abc", "abc", Ok(true)),
            ("*", "abc", Ok(true)),
            ("*c", "abc", Ok(true)),
            ("a*", "a", Ok(true)),
            ("a*", "ab/c", Ok(false)),
            ("a*/b", "abc/b", Ok(true)),
            ("a*/b", "a/c/b", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxe/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxe/xxx/f", Ok(false)),
            ("a*b?c*x", "abxbbxdbxebxczzx", Ok(true)),
            ("a*b?c*x", "abxbbxdbxebxczzy", Ok(false)),
            ("ab[c]", "abc", Ok(true)),
            ("ab[b-d]", "abc", Ok(true)),
            ("ab[e-g]", "abc", Ok(false)),
            ("ab[^c]", "abc", Ok(false)),
            ("ab[^b-d]", "abc", Ok(false)),
            ("ab[^e-g]", "abc", Ok(true)),
            ("a\\*b", "a*b", Ok(true)),
            ("a\\*b", "ab", Ok(false)),
            ("a?b", "a☺b", Ok(true)),
            ("a[^a]b", "a☺b", Ok(true)),
            ("a???b", "a☺b", Ok(false)),
            ("a[^a][^a][^a]b", "a☺b", Ok(false)),
            ("[a-ζ]*", "α", Ok(true)),
            ("*[a-ζ]", "A", Ok(false)),
            ("a?b", "a/b", Ok(false)),
            ("a*b", "a/b", Ok(false)),
            ("[\\]a]", "]", Ok(true)),
            ("[\\-]", "-", Ok(true)),
            ("[x\\-]", "x", Ok(true)),
            ("[x\\-]", "-", Ok(true)),
            ("[x\\-]", "z", Ok(false)),
            ("[\\-x]", "x", Ok(true)),
            ("[\\-x]", "-", Ok(true)),
            ("[\\-x]", "a", Ok(false)),
            ("[]a]", "]", Err(())),
            ("[-]", "-", Err(())),
            ("[x-]", "x", Err(())),
            ("[x-]", "-", Err(())),
            ("[x-]", "z", Err(())),
            ("[-x]", "x", Err(())),
            ("[-x]", "-", Err(())),
            ("[-x]", "a", Err(())),
            ("\\", "a", Err(())),
            ("[a-b-c]", "a", Err(())),
            ("[", "a", Err(())),
            ("[^", "a", Err(())),
            ("[^bc", "a", Err(())),
            ("a[", "a", Err(())),
            ("a[", "ab", Err(())),
            ("a[", "x", Err(())),
            ("a/b[", "x", Err(())),
            ("*x", "xxx", Ok(true)),
        ];
        for (pattern, name, want) in cases {
            let got = go_match(pattern, name).map_err(|_| ());
            assert_eq!(got, *want, "Match({pattern:?}, {name:?})");
        }
    }
}
