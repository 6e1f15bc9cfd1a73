//! go-cty function/stdlib/string.go and regexp.go: chomp, indent, join,
//! lower, upper, regex, regexall, sort, split, strlen, strrev, substr,
//! title, trim, trimprefix, trimsuffix, trimspace.
//!
//! cty counts and reverses grapheme clusters (apparentlymart/go-textseg);
//! here a cluster is a character with the combining marks that follow it
//! (U+0300..U+036F, U+1AB0..U+1AFF, U+1DC0..U+1DFF, U+20D0..U+20FF,
//! U+FE20..U+FE2F, ZWJ sequences), which covers accents and emoji joins but
//! not every rule of UAX #29.

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Prim, Spec, Ty, declare, int_of, items, num, p, str_of};

const STR: &[super::cty::Param] = &[p("str", Ty::Str)];

fn s(v: String) -> Result<Value, FnErr> {
    Ok(Value::String(v))
}

static UPPER: Spec = Spec { name: "upper", params: STR, var: None, imp: |a| s(simple_case(str_of(&a[0]), true)) };
static LOWER: Spec = Spec { name: "lower", params: STR, var: None, imp: |a| s(simple_case(str_of(&a[0]), false)) };
static STRREV: Spec = Spec { name: "strrev", params: STR, var: None, imp: |a| s(graphemes(str_of(&a[0])).into_iter().rev().collect()) };
static STRLEN: Spec = Spec { name: "strlen", params: STR, var: None, imp: |a| Ok(num(graphemes(str_of(&a[0])).len() as f64)) };
static TITLE: Spec = Spec { name: "title", params: STR, var: None, imp: |a| s(title(str_of(&a[0]))) };
static TRIMSPACE: Spec = Spec { name: "trimspace", params: STR, var: None, imp: |a| s(str_of(&a[0]).trim_matches(go_space).to_string()) };
// ChompFunc: `(?:\r\n?|\n)*\z` removed.
static CHOMP: Spec = Spec { name: "chomp", params: STR, var: None, imp: |a| s(str_of(&a[0]).trim_end_matches(['\r', '\n']).to_string()) };
static TRIM: Spec = Spec {
    name: "trim",
    params: &[p("str", Ty::Str), p("cutset", Ty::Str)],
    var: None,
    imp: |a| {
        let cut: Vec<char> = str_of(&a[1]).chars().collect();
        s(str_of(&a[0]).trim_matches(|c| cut.contains(&c)).to_string())
    },
};
static TRIMPREFIX: Spec = Spec {
    name: "trimprefix",
    params: &[p("str", Ty::Str), p("prefix", Ty::Str)],
    var: None,
    imp: |a| s(str_of(&a[0]).strip_prefix(str_of(&a[1])).unwrap_or(str_of(&a[0])).to_string()),
};
static TRIMSUFFIX: Spec = Spec {
    name: "trimsuffix",
    params: &[p("str", Ty::Str), p("suffix", Ty::Str)],
    var: None,
    imp: |a| s(str_of(&a[0]).strip_suffix(str_of(&a[1])).unwrap_or(str_of(&a[0])).to_string()),
};
// IndentFunc: every line but the first gets `spaces` spaces.
static INDENT: Spec = Spec {
    name: "indent",
    params: &[p("spaces", Ty::Num), p("str", Ty::Str)],
    var: None,
    imp: |a| {
        let n = int_of(&a[0]).map_err(FnErr::Call)?.max(0) as usize;
        s(str_of(&a[1]).replace('\n', &format!("\n{}", " ".repeat(n))))
    },
};
static JOIN: Spec = Spec { name: "join", params: &[p("separator", Ty::Str)], var: Some(p("lists", Ty::List(Prim::Str))), imp: join };
static SPLIT: Spec = Spec {
    name: "split",
    params: &[p("separator", Ty::Str), p("str", Ty::Str)],
    var: None,
    imp: |a| {
        let (sep, text) = (str_of(&a[0]), str_of(&a[1]));
        // strings.Split with an empty separator splits into UTF-8 sequences.
        let parts: Vec<Value> = if sep.is_empty() { text.chars().map(|c| Value::String(c.to_string())).collect() } else { text.split(sep).map(Value::from).collect() };
        Ok(Value::Array(parts))
    },
};
static SORT: Spec = Spec {
    name: "sort",
    params: &[p("list", Ty::List(Prim::Str))],
    var: None,
    imp: |a| {
        let mut v: Vec<String> = Vec::new();
        for x in items(&a[0]) {
            let Value::String(t) = x else { return Err(FnErr::Call("given list element is null; a null string cannot be sorted".into())) };
            v.push(t.clone());
        }
        v.sort();
        Ok(Value::from(v))
    },
};
static SUBSTR: Spec = Spec { name: "substr", params: &[p("str", Ty::Str), p("offset", Ty::Num), p("length", Ty::Num)], var: None, imp: substr };
static REGEX: Spec = Spec { name: "regex", params: &[p("pattern", Ty::Str), p("string", Ty::Str)], var: None, imp: |a| regex_match(a, false) };
static REGEXALL: Spec = Spec { name: "regexall", params: &[p("pattern", Ty::Str), p("string", Ty::Str)], var: None, imp: |a| regex_match(a, true) };

/// Go's `unicode.IsSpace`.
fn go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}') || (c as u32 > 0xff && c.is_whitespace())
}

/// strings.ToUpper/ToLower map rune by rune (unicode.ToUpper): a rune whose
/// mapping is several runes (ß) stays as it is.
fn simple_case(text: &str, upper: bool) -> String {
    text.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            if m.len() == 1 { m.remove(0) } else { c }
        })
        .collect()
}

/// strings.Title: the first letter of each word upper-cased; a word starts
/// after a separator (strings.go isSeparator).
fn title(text: &str) -> String {
    let sep = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else {
            !c.is_alphanumeric() && (go_space(c) || !c.is_alphabetic())
        }
    };
    let mut prev = ' ';
    text.chars()
        .map(|c| {
            let out = if sep(prev) { c.to_uppercase().next().filter(|_| c.to_uppercase().count() == 1).unwrap_or(c) } else { c };
            prev = c;
            out
        })
        .collect()
}

fn combining(c: char) -> bool {
    matches!(c as u32, 0x300..=0x36f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20ff | 0xfe00..=0xfe0f | 0xfe20..=0xfe2f | 0x200d | 0x1f3fb..=0x1f3ff | 0xe0020..=0xe007f)
}

pub(super) fn graphemes(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut after_zwj = false;
    for (i, c) in text.char_indices() {
        if i > 0 && !combining(c) && !after_zwj {
            // "\r\n" is one cluster.
            if !(c == '\n' && text[start..i].ends_with('\r')) {
                out.push(&text[start..i]);
                start = i;
            }
        }
        after_zwj = c == '\u{200d}';
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

fn join(a: &[Value]) -> Result<Value, FnErr> {
    if a.len() < 2 {
        return Err(FnErr::Call("at least one list is required".into()));
    }
    let mut parts: Vec<&str> = Vec::new();
    let several = a.len() > 2;
    for (ai, list) in a[1..].iter().enumerate() {
        for (ei, x) in items(list).iter().enumerate() {
            let Value::String(t) = x else {
                let m = if several { format!("element {ei} of list {} is null; cannot concatenate null values", ai + 1) } else { format!("element {ei} is null; cannot concatenate null values") };
                return Err(FnErr::Arg(ai + 1, m));
            };
            parts.push(t);
        }
    }
    s(parts.join(str_of(&a[0])))
}

/// SubstrFunc: offset and length in grapheme clusters; a negative offset
/// counts from the end, a negative length means "to the end".
fn substr(a: &[Value]) -> Result<Value, FnErr> {
    let g = graphemes(str_of(&a[0]));
    let mut offset = int_of(&a[1]).map_err(FnErr::Call)?;
    let length = int_of(&a[2]).map_err(FnErr::Call)?;
    if offset < 0 {
        offset += g.len() as i64;
    } else if length == 0 {
        return s(String::new());
    }
    let start = (offset.max(0) as usize).min(g.len());
    // cty's loop takes everything left for a negative length, and (its
    // quirk) for a zero length after a negative offset.
    let end = if length <= 0 { g.len() } else { start.saturating_add(length as usize).min(g.len()) };
    s(g[start..end].concat())
}

/// RegexFunc / RegexAllFunc: no groups -> the match; unnamed groups -> a
/// list of them (null where a group took no part); named -> an object.
fn regex_match(a: &[Value], all: bool) -> Result<Value, FnErr> {
    let pattern = str_of(&a[0]);
    let re = regex::Regex::new(pattern).map_err(|e| FnErr::Arg(0, format!("error parsing pattern: {}", regex_error(&e))))?;
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    let named = names.iter().filter(|n| n.is_some()).count();
    if named > 0 && named < names.len() {
        return Err(FnErr::Arg(0, "invalid regexp pattern: cannot mix both named and unnamed capture groups".into()));
    }
    let text = str_of(&a[1]);
    let one = |c: regex::Captures| -> Value {
        if names.is_empty() {
            return Value::from(c.get(0).map_or("", |m| m.as_str()));
        }
        let group = |i: usize| c.get(i + 1).map_or(Value::Null, |m| Value::from(m.as_str()));
        if named == 0 {
            Value::Array((0..names.len()).map(group).collect())
        } else {
            let mut m = hcl::Map::new();
            for (i, n) in names.iter().enumerate() {
                m.insert(n.unwrap_or_default().to_string(), group(i));
            }
            Value::Object(m)
        }
    };
    if all {
        return Ok(Value::Array(re.captures_iter(text).map(one).collect()));
    }
    re.captures(text).map(one).ok_or_else(|| FnErr::Call("pattern did not match any part of the given string".into()))
}

fn regex_error(e: &regex::Error) -> String {
    e.to_string().lines().last().unwrap_or_default().trim_start_matches("error: ").to_string()
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, UPPER, LOWER, STRREV, STRLEN, TITLE, TRIMSPACE, CHOMP, TRIM, TRIMPREFIX, TRIMSUFFIX, INDENT, JOIN, SPLIT, SORT, SUBSTR, REGEX, REGEXALL);
}
