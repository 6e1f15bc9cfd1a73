//! sprig: strings (Masterminds/sprig v3.2.3 strings.go and functions.go's
//! `genericMap`, with goutils v1.1.1 and huandu/xstrings, the versions
//! helmfile 0.166 links). Go strings are bytes: where sprig slices by byte
//! (`trunc`, `substr`, `abbrev`, `wrap`) and the cut falls inside a
//! multi-byte character, Go prints invalid UTF-8, which a Rust string
//! cannot hold, so that call is `Unsupported` rather than a different text.

use std::collections::BTreeMap;

use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::value::{go_sprint, go_type};
use crate::gotmpl::{Tv, Val, MAX_TEMPLATE_STRING};

pub(super) mod unicode;
mod xstrings;

use unicode::{go_lower, go_title, go_upper, is_go_letter, is_go_lower, is_go_number, is_go_space, is_go_title, is_go_upper};

const S: Param = Param::String;
const I: Param = Param::Int;
const A: Param = Param::Any;

pub(super) fn register(m: &mut FuncMap) {
    let made = Derive::Made;
    m.add("abbrev", Sig::fixed(&[I, S]), made, abbrev);
    m.add("abbrevboth", Sig::fixed(&[I, I, S]), made, abbrevboth);
    m.add("trunc", Sig::fixed(&[I, S]), made, trunc);
    m.add("trim", Sig::fixed(&[S]), made, |_, a| ok_str(arg_str(&a, 0)?.trim_matches(is_go_space)));
    m.add("upper", Sig::fixed(&[S]), made, |_, a| ok_string(arg_str(&a, 0)?.chars().map(go_upper).collect()));
    m.add("lower", Sig::fixed(&[S]), made, |_, a| ok_string(arg_str(&a, 0)?.chars().map(go_lower).collect()));
    m.add("title", Sig::fixed(&[S]), made, |_, a| ok_string(title(arg_str(&a, 0)?)));
    m.add("untitle", Sig::fixed(&[S]), made, |_, a| ok_string(untitle(arg_str(&a, 0)?)));
    m.add("substr", Sig::fixed(&[I, I, S]), made, substr);
    m.add("repeat", Sig::fixed(&[I, S]), made, repeat);
    // `trimall` is sprig's deprecated spelling of `trimAll`: strings.Trim(b, a).
    for name in ["trimall", "trimAll"] {
        m.add(name, Sig::fixed(&[S, S]), made, |_, a| {
            let cutset = arg_str(&a, 0)?;
            ok_str(arg_str(&a, 1)?.trim_matches(|c| cutset.contains(c)))
        });
    }
    m.add("trimSuffix", Sig::fixed(&[S, S]), made, |_, a| {
        let s = arg_str(&a, 1)?;
        ok_str(s.strip_suffix(arg_str(&a, 0)?).unwrap_or(s))
    });
    m.add("trimPrefix", Sig::fixed(&[S, S]), made, |_, a| {
        let s = arg_str(&a, 1)?;
        ok_str(s.strip_prefix(arg_str(&a, 0)?).unwrap_or(s))
    });
    m.add("nospace", Sig::fixed(&[S]), made, |_, a| ok_string(delete_white_space(arg_str(&a, 0)?)));
    m.add("initials", Sig::fixed(&[S]), made, |_, a| ok_string(initials(arg_str(&a, 0)?)));
    m.add("swapcase", Sig::fixed(&[S]), made, |_, a| ok_string(swap_case(arg_str(&a, 0)?)));
    m.add("snakecase", Sig::fixed(&[S]), made, |_, a| ok_string(xstrings::to_snake_case(arg_str(&a, 0)?)));
    m.add("kebabcase", Sig::fixed(&[S]), made, |_, a| ok_string(xstrings::to_kebab_case(arg_str(&a, 0)?)));
    m.add("camelcase", Sig::fixed(&[S]), made, |_, a| ok_string(xstrings::to_camel_case(arg_str(&a, 0)?)));
    m.add("shuffle", Sig::fixed(&[S]), made, |_, a| ok_string(xstrings::shuffle(arg_str(&a, 0)?))).nondeterministic = true;
    m.add("wrap", Sig::fixed(&[I, S]), made, |_, a| wrap_custom(arg_str(&a, 1)?, arg_int(&a, 0)?, "", false).map(Tv::new));
    m.add("wrapWith", Sig::fixed(&[I, S, S]), made, |_, a| wrap_custom(arg_str(&a, 2)?, arg_int(&a, 0)?, arg_str(&a, 1)?, true).map(Tv::new));
    m.add("contains", Sig::fixed(&[S, S]), made, |_, a| ok_bool(arg_str(&a, 1)?.contains(arg_str(&a, 0)?)));
    m.add("hasPrefix", Sig::fixed(&[S, S]), made, |_, a| ok_bool(arg_str(&a, 1)?.starts_with(arg_str(&a, 0)?)));
    m.add("hasSuffix", Sig::fixed(&[S, S]), made, |_, a| ok_bool(arg_str(&a, 1)?.ends_with(arg_str(&a, 0)?)));
    m.add("quote", Sig::variadic(&[], A), made, quote);
    m.add("squote", Sig::variadic(&[], A), made, squote);
    m.add("cat", Sig::variadic(&[], A), made, cat);
    m.add("indent", Sig::fixed(&[I, S]), made, |_, a| indent(arg_int(&a, 0)?, arg_str(&a, 1)?).map(tv));
    m.add("nindent", Sig::fixed(&[I, S]), made, |_, a| indent(arg_int(&a, 0)?, arg_str(&a, 1)?).map(|s| Tv::new(Val::Str(format!("\n{s}")))));
    m.add("replace", Sig::fixed(&[S, S, S]), made, replace);
    m.add("plural", Sig::fixed(&[S, S, I]), made, |_, a| ok_str(if arg_int(&a, 2)? == 1 { arg_str(&a, 0)? } else { arg_str(&a, 1)? }));
    m.add("toString", Sig::fixed(&[A]), made, |_, a| strval(arg(&a, 0)?).map(tv));
    m.add("toStrings", Sig::fixed(&[A]), made, |_, a| Ok(made_from(&a, string_list(strslice(arg(&a, 0)?)?))));
    m.add("split", Sig::fixed(&[S, S]), made, |_, a| Ok(made_from(&a, numbered_parts(go_split(arg_str(&a, 1)?, arg_str(&a, 0)?, -1)))));
    m.add("splitn", Sig::fixed(&[S, I, S]), made, |_, a| Ok(made_from(&a, numbered_parts(go_split(arg_str(&a, 2)?, arg_str(&a, 0)?, arg_int(&a, 1)?)))));
    m.add("splitList", Sig::fixed(&[S, S]), made, |_, a| {
        let parts = go_split(arg_str(&a, 1)?, arg_str(&a, 0)?, -1);
        Ok(made_from(&a, string_list(parts.into_iter().map(str::to_string).collect())))
    });
    m.add("join", Sig::fixed(&[S, A]), made, |_, a| ok_string(strslice(arg(&a, 1)?)?.join(arg_str(&a, 0)?)));
    m.add("sortAlpha", Sig::fixed(&[A]), made, sort_alpha);
}

// ---- argument access (the executor has already converted them per `Sig`) ----

pub(super) fn arg(args: &[Tv], i: usize) -> Result<&Tv, FnError> {
    args.get(i).ok_or_else(|| FnError::Exec(format!("internal: argument {} missing", i + 1)))
}

pub(super) fn arg_str(args: &[Tv], i: usize) -> Result<&str, FnError> {
    match &arg(args, i)?.val {
        Val::Str(s) => Ok(s),
        other => Err(FnError::Exec(format!("wrong type for value; expected string; got {}", go_type(other)))),
    }
}

pub(super) fn arg_int(args: &[Tv], i: usize) -> Result<i64, FnError> {
    match &arg(args, i)?.val {
        Val::Int(n) => Ok(*n),
        other => Err(FnError::Exec(format!("wrong type for value; expected int; got {}", go_type(other)))),
    }
}

/// A Go `string` result.
pub(super) fn tv(s: String) -> Tv {
    Tv::new(Val::Str(s))
}

pub(super) fn ok_str(s: &str) -> Result<Tv, FnError> {
    Ok(Tv::str(s))
}

pub(super) fn ok_string(s: String) -> Result<Tv, FnError> {
    Ok(Tv::new(Val::Str(s)))
}

pub(super) fn ok_bool(b: bool) -> Result<Tv, FnError> {
    Ok(Tv::new(Val::Bool(b)))
}

/// A Go `[]string` result.
pub(super) fn string_list(items: Vec<String>) -> Tv {
    Tv::new(Val::TypedList("string", items.into_iter().map(|s| Tv::new(Val::Str(s))).collect()))
}

/// A list or map made from the arguments: when one holds a secret, every
/// element is marked too, so `index (splitList "," .secret) 0` or
/// `(urlParse .secret).host` stays masked (the executor's `Derive::Made`
/// marks only the value it returns, not what is inside it).
pub(super) fn made_from(args: &[Tv], mut out: Tv) -> Tv {
    if args.iter().any(Tv::holds_secret) {
        out.mark_deep(true, false);
    }
    out
}

/// A string a function would build past releasex's limit on template strings.
pub(super) fn check_len(name: &str, bytes: u128) -> Result<(), FnError> {
    if bytes > MAX_TEMPLATE_STRING as u128 {
        return Err(FnError::Unsupported(format!("{name}: the result would be {bytes} bytes, over releasex's limit of {} MiB on a template string", MAX_TEMPLATE_STRING >> 20)));
    }
    Ok(())
}

/// `s[from..to]` by bytes as Go slices a string; a cut inside a character
/// would make invalid UTF-8 (see the module comment).
pub(super) fn byte_slice<'s>(name: &str, s: &'s str, from: usize, to: usize) -> Result<&'s str, FnError> {
    s.get(from..to).ok_or_else(|| FnError::Unsupported(format!("{name}: cutting the string at byte {from}..{to} splits a UTF-8 character (Go would print invalid UTF-8)")))
}

// ---- sprig's conversions ----

/// `fmt.Sprintf("%v", v)` as sprig's functions print an argument: a
/// `[]byte` prints its numbers, a value with a `String` method that text.
pub(super) fn sprint_v(v: &Tv) -> Result<String, FnError> {
    match &v.val {
        Val::Nil => Ok("<nil>".into()),
        Val::Bytes(b) => Ok(format!("[{}]", b.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))),
        Val::Object(o) => Ok(o.go_string()),
        _ => go_sprint(v).map_err(FnError::Unsupported),
    }
}

/// sprig's `strval`: a string as is, `[]byte` as text, an `error` or
/// `fmt.Stringer` by its method, anything else `%v`.
pub(super) fn strval(v: &Tv) -> Result<String, FnError> {
    match &v.val {
        Val::Str(s) => Ok(s.clone()),
        Val::Bytes(b) => String::from_utf8(b.clone()).map_err(|_| FnError::Unsupported("a []byte that is not UTF-8, as a string".into())),
        _ => sprint_v(v),
    }
}

/// sprig's `strslice`: a `[]string` as is, a `[]interface{}` without its
/// nils, any other slice element by element (reflect), nil as `[]`, any
/// other value as a one-element list.
pub(super) fn strslice(v: &Tv) -> Result<Vec<String>, FnError> {
    match &v.val {
        Val::List(items) => items.iter().filter(|i| !matches!(i.val, Val::Nil)).map(strval).collect(),
        Val::TypedList(_, items) => items.iter().map(strval).collect(),
        Val::Bytes(b) => Ok(b.iter().map(u8::to_string).collect()),
        Val::Nil => Ok(Vec::new()),
        _ => Ok(vec![strval(v)?]),
    }
}

/// sprig's `sortAlpha` (list.go): a slice's strings sorted byte-wise,
/// anything else (nil too: `<nil>`) a one-element list.
fn sort_alpha(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let v = arg(&a, 0)?;
    let mut items = match &v.val {
        Val::List(_) | Val::TypedList(..) | Val::Bytes(_) => strslice(v)?,
        _ => vec![strval(v)?],
    };
    items.sort();
    Ok(made_from(&a, string_list(items)))
}

// ---- the functions ----

fn abbrev(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (width, s) = (arg_int(&a, 0)?, arg_str(&a, 1)?);
    if width < 4 {
        return ok_str(s);
    }
    abbreviate_full(s, 0, width).map(tv)
}

fn abbrevboth(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (left, right, s) = (arg_int(&a, 0)?, arg_int(&a, 1)?, arg_str(&a, 2)?);
    if right < 4 || left > 0 && right < 7 {
        return ok_str(s);
    }
    abbreviate_full(s, left, right).map(tv)
}

/// goutils `AbbreviateFull` (stringutils.go), by bytes; its errors sprig
/// drops, giving "".
fn abbreviate_full(s: &str, offset: i64, max_width: i64) -> Result<String, FnError> {
    const MARKER: &str = "...";
    let len = s.len() as i64;
    if s.is_empty() || max_width < 4 {
        return Ok(String::new());
    }
    if len <= max_width {
        return Ok(s.into());
    }
    let mut offset = offset.min(len);
    // Go's int arithmetic wraps (an offset of math.MinInt64 included).
    if len.wrapping_sub(offset) < max_width - 3 {
        offset = len - (max_width - 3);
    }
    if offset <= 4 {
        return Ok(format!("{}{MARKER}", byte_slice("abbrev", s, 0, (max_width - 3) as usize)?));
    }
    if max_width < 7 {
        return Ok(String::new());
    }
    if offset.wrapping_add(max_width - 3) < len {
        let rest = byte_slice("abbrev", s, offset as usize, s.len())?;
        return Ok(format!("{MARKER}{}", abbreviate_full(rest, 0, max_width - 3)?));
    }
    Ok(format!("{MARKER}{}", byte_slice("abbrev", s, (len - (max_width - 3)) as usize, s.len())?))
}

fn trunc(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (c, s) = (arg_int(&a, 0)?, arg_str(&a, 1)?);
    let len = s.len() as i64;
    if c < 0 && len + c > 0 {
        return ok_str(byte_slice("trunc", s, (len + c) as usize, s.len())?);
    }
    if c >= 0 && len > c {
        return ok_str(byte_slice("trunc", s, 0, c as usize)?);
    }
    ok_str(s)
}

/// sprig's `substring`: Go slice expressions, whose out-of-range panics
/// text/template reports as the call's error.
fn substr(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (start, end, s) = (arg_int(&a, 0)?, arg_int(&a, 1)?, arg_str(&a, 2)?);
    let len = s.len() as i64;
    let bounds = |msg: String| FnError::Go(format!("runtime error: slice bounds out of range {msg}"));
    let (from, to) = if start < 0 {
        if end < 0 {
            return Err(bounds(format!("[:{end}]")));
        }
        if end > len {
            return Err(bounds(format!("[:{end}] with length {len}")));
        }
        (0, end)
    } else if end < 0 || end > len {
        if start > len {
            return Err(bounds(format!("[{start}:{len}]")));
        }
        (start, len)
    } else {
        if start > end {
            return Err(bounds(format!("[{start}:{end}]")));
        }
        (start, end)
    };
    ok_str(byte_slice("substr", s, from as usize, to as usize)?)
}

/// `strings.Repeat` (panics on a negative count).
fn go_repeat(name: &str, s: &str, count: i64) -> Result<String, FnError> {
    if count < 0 {
        return Err(FnError::Go("strings: negative Repeat count".into()));
    }
    check_len(name, s.len() as u128 * count as u128)?;
    Ok(s.repeat(count as usize))
}

fn repeat(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    go_repeat("repeat", arg_str(&a, 1)?, arg_int(&a, 0)?).map(tv)
}

fn indent(spaces: i64, v: &str) -> Result<String, FnError> {
    let pad = go_repeat("indent", " ", spaces)?;
    check_len("indent", v.len() as u128 + (v.matches('\n').count() as u128 + 1) * pad.len() as u128)?;
    Ok(format!("{pad}{}", v.replace('\n', &format!("\n{pad}"))))
}

fn replace(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let (old, new, src) = (arg_str(&a, 0)?, arg_str(&a, 1)?, arg_str(&a, 2)?);
    if old.is_empty() {
        // strings.Replace with an empty `old` inserts `new` before every
        // character and at the end (Rust's `replace` does the same).
        check_len("replace", src.len() as u128 + (src.chars().count() as u128 + 1) * new.len() as u128)?;
    }
    ok_string(src.replace(old, new))
}

fn quote(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let parts: Result<Vec<String>, FnError> = a.iter().filter(|v| !matches!(v.val, Val::Nil)).map(|v| Ok(crate::go::quote::quote(&strval(v)?))).collect();
    ok_string(parts?.join(" "))
}

fn squote(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let parts: Result<Vec<String>, FnError> = a.iter().filter(|v| !matches!(v.val, Val::Nil)).map(|v| Ok(format!("'{}'", sprint_v(v)?))).collect();
    ok_string(parts?.join(" "))
}

/// `cat`: the non-nil arguments, `%v` each, joined by spaces.
fn cat(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let parts: Result<Vec<String>, FnError> = a.iter().filter(|v| !matches!(v.val, Val::Nil)).map(sprint_v).collect();
    ok_string(parts?.join(" "))
}

/// `strings.SplitN` (n < 0: all parts; n == 0: none; an empty separator
/// splits after each UTF-8 character).
pub(super) fn go_split<'s>(s: &'s str, sep: &str, n: i64) -> Vec<&'s str> {
    if n == 0 {
        return Vec::new();
    }
    if sep.is_empty() {
        let mut parts: Vec<&str> = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            if n > 0 && parts.len() as i64 == n - 1 {
                break;
            }
            let w = rest.chars().next().map_or(1, char::len_utf8);
            parts.push(&rest[..w]);
            rest = &rest[w..];
        }
        if !rest.is_empty() {
            parts.push(rest);
        }
        return parts;
    }
    if n < 0 {
        return s.split(sep).collect();
    }
    s.splitn(n as usize, sep).collect()
}

/// sprig's `split`/`splitn` result: `map[string]string` keyed `_0`, `_1`, ...
fn numbered_parts(parts: Vec<&str>) -> Tv {
    let m: BTreeMap<String, String> = parts.into_iter().enumerate().map(|(i, p)| (format!("_{i}"), p.to_string())).collect();
    Tv::new(Val::StrMap(m))
}

/// `strings.Title`: the first letter of each word in title case; a word
/// starts after a separator (Go's `isSeparator`).
fn title(s: &str) -> String {
    let is_separator = |r: char| {
        if r.is_ascii() {
            return !(r.is_ascii_alphanumeric() || r == '_');
        }
        if is_go_letter(r) || is_go_number(r) {
            return false;
        }
        is_go_space(r)
    };
    let mut prev = ' ';
    s.chars()
        .map(|r| {
            let out = if is_separator(prev) { go_title(r) } else { r };
            prev = r;
            out
        })
        .collect()
}

/// goutils `Uncapitalize`: the first character of each whitespace-separated word lowered.
fn untitle(s: &str) -> String {
    let mut next = true;
    s.chars()
        .map(|c| {
            if is_go_space(c) {
                next = true;
                c
            } else if next {
                next = false;
                go_lower(c)
            } else {
                c
            }
        })
        .collect()
}

/// goutils `DeleteWhiteSpace`: it walks bytes and writes each kept byte
/// back as the rune of that value, so a string it changes has its
/// non-ASCII bytes re-encoded as Latin-1 characters (and bytes 0x85 and
/// 0xA0 count as spaces); a string it does not change comes back as is.
fn delete_white_space(s: &str) -> String {
    let kept: String = s.bytes().filter(|&b| !is_go_space(char::from(b))).map(char::from).collect();
    if kept.chars().count() == s.len() {
        return s.into();
    }
    kept
}

/// goutils `Initials`: the first byte of each whitespace-separated word
/// (bytes as runes, as [`delete_white_space`]).
fn initials(s: &str) -> String {
    let mut gap = true;
    let mut out = String::new();
    for b in s.bytes() {
        let ch = char::from(b);
        if is_go_space(ch) {
            gap = true;
        } else if gap {
            out.push(ch);
            gap = false;
        }
    }
    out
}

/// goutils `SwapCase`.
fn swap_case(s: &str) -> String {
    let mut whitespace = true;
    s.chars()
        .map(|c| {
            if is_go_upper(c) || is_go_title(c) {
                whitespace = false;
                go_lower(c)
            } else if is_go_lower(c) {
                if whitespace {
                    whitespace = false;
                    go_title(c)
                } else {
                    go_upper(c)
                }
            } else {
                whitespace = is_go_space(c);
                c
            }
        })
        .collect()
}

/// goutils `WrapCustom` (wordutils.go), by bytes, words split at ' '.
fn wrap_custom(s: &str, wrap_length: i64, new_line: &str, wrap_long_words: bool) -> Result<Val, FnError> {
    let name = if wrap_long_words { "wrapWith" } else { "wrap" };
    if s.is_empty() {
        return Ok(Val::Str(String::new()));
    }
    let new_line = if new_line.is_empty() { "\n" } else { new_line };
    let wrap = wrap_length.max(1) as usize;
    let bytes = s.as_bytes();
    let len = s.len();
    let mut offset = 0usize;
    let mut out = String::new();
    while len - offset > wrap {
        if bytes[offset] == b' ' {
            offset += 1;
            continue;
        }
        let end = wrap + offset + 1;
        let window = byte_slice(name, s, offset, end)?;
        if let Some(space) = window.rfind(' ') {
            out.push_str(&s[offset..offset + space]);
            out.push_str(new_line);
            offset += space + 1;
        } else if wrap_long_words {
            out.push_str(byte_slice(name, s, offset, wrap + offset)?);
            out.push_str(new_line);
            offset += wrap;
        } else {
            let end = wrap + offset;
            match byte_slice(name, s, end, len)?.find(' ') {
                None => {
                    out.push_str(&s[offset..]);
                    offset = len;
                }
                Some(i) => {
                    out.push_str(&s[offset..end + i]);
                    out.push_str(new_line);
                    offset = end + i + 1;
                }
            }
        }
        check_len(name, out.len() as u128)?;
    }
    out.push_str(byte_slice(name, s, offset, len)?);
    Ok(Val::Str(out))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::gotmpl::func::FixedHost;

    /// Calls `name` of sprig's map directly (arguments already of the Go types).
    pub(crate) fn call(name: &str, args: Vec<Tv>) -> Result<Tv, FnError> {
        let m = super::super::func_map();
        let def = m.get(name).unwrap_or_else(|| panic!("{name} is not registered"));
        let host = FixedHost::default();
        let render = |_: crate::gotmpl::func::RenderRequest<'_>| Err(crate::gotmpl::TmplError::Unsupported { file: String::new(), line: 1, column: 1, construct: "render".into() });
        (def.f)(&Call { name, host: &host, render: &render }, args)
    }

    pub(crate) fn s(x: &str) -> Tv {
        Tv::str(x)
    }

    pub(crate) fn i(x: i64) -> Tv {
        Tv::new(Val::Int(x))
    }

    pub(crate) fn out(r: Result<Tv, FnError>) -> String {
        match r {
            Ok(v) => sprint_v(&v).unwrap_or_else(|e| format!("{e:?}")),
            Err(e) => format!("ERR {e:?}"),
        }
    }

    #[test]
    fn sprig_string_functions_slice_and_case_as_go_does() {
        assert_eq!(out(call("trunc", vec![i(-3), s("hello")])), "llo");
        assert_eq!(out(call("abbrev", vec![i(5), s("hello world")])), "he...");
        assert_eq!(out(call("abbrevboth", vec![i(5), i(10), s("1234 5678 9123")])), "...5678...");
        assert_eq!(out(call("substr", vec![i(1), i(9), s("abc")])), "bc");
        assert_eq!(out(call("substr", vec![i(-1), i(9), s("abc")])), "ERR Go(\"runtime error: slice bounds out of range [:9] with length 3\")");
        assert_eq!(out(call("title", vec![s("hello wORLD-x")])), "Hello WORLD-X");
        assert_eq!(out(call("swapcase", vec![s("Hello World")])), "hELLO wORLD");
        assert_eq!(out(call("nospace", vec![s("a b\tc")])), "abc");
        assert_eq!(out(call("initials", vec![s("John Doe")])), "JD");
        assert_eq!(out(call("wrap", vec![i(5), s("hello world again")])), "hello\nworld\nagain");
        assert_eq!(out(call("quote", vec![s("a\"b"), Tv::new(Val::Nil), i(3)])), "\"a\\\"b\" \"3\"");
        assert_eq!(out(call("upper", vec![s("straße")])), "STRAßE");
        assert_eq!(out(call("repeat", vec![i(-1), s("x")])), "ERR Go(\"strings: negative Repeat count\")");
        assert!(matches!(call("trunc", vec![i(1), s("é")]), Err(FnError::Unsupported(_))));
    }
}

#[cfg(test)]
mod go_types {
    use super::tests::{call, i, s};
    use crate::gotmpl::value::go_type;

    /// What sprig's `typeOf` would print (sprig-b's function; the tables
    /// cannot probe types without it yet).
    #[test]
    fn results_have_sprigs_go_types() {
        let ty = |name: &str, args| go_type(&call(name, args).expect(name).val);
        assert_eq!(ty("splitList", vec![s(","), s("a")]), "[]string");
        assert_eq!(ty("toStrings", vec![s("x")]), "[]string");
        assert_eq!(ty("sortAlpha", vec![s("x")]), "[]string");
        assert_eq!(ty("regexFindAll", vec![s("a"), s("aa"), i(-1)]), "[]string");
        assert_eq!(ty("regexSplit", vec![s("a"), s("bab"), i(-1)]), "[]string");
        assert_eq!(ty("split", vec![s(","), s("a")]), "map[string]string");
        assert_eq!(ty("toString", vec![i(1)]), "string");
        assert_eq!(ty("randInt", vec![i(0), i(1)]), "int");
        assert_eq!(ty("urlParse", vec![s("x")]), "map[string]interface {}");
    }
}

#[cfg(test)]
mod marks {
    use crate::gotmpl::func::FixedHost;
    use crate::gotmpl::{render_with, MissingKey, RenderOptions, Tv, Val};

    fn render(src: &str, secret: bool) -> crate::gotmpl::Rendered {
        let mut pw = Tv::str("hunter2");
        pw.secret = secret;
        let data = Tv::new(Val::Map([("pw".to_string(), pw)].into_iter().collect()));
        let funcs = super::super::func_map();
        let host = FixedHost::default();
        render_with(src, &data, &RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey: MissingKey::Default }).expect(src)
    }

    #[test]
    fn what_part_a_functions_make_from_a_secret_stays_secret() {
        for src in ["{{ b64enc .pw }}", "{{ .pw | sha256sum }}", "{{ regexReplaceAll \"h\" .pw \"x\" }}", "{{ trunc 3 .pw | upper }}", "{{ join \",\" (splitList \"u\" .pw) }}", "{{ derivePassword 1 \"pin\" .pw \"u\" \"s\" }}", "{{ (urlParse (print \"http://\" .pw)).host }}", "{{ index (splitList \"u\" .pw) 0 }}", "{{ index (regexFindAll \".\" .pw -1) 1 }}"] {
            assert!(render(src, true).spans.iter().any(|s| s.secret), "{src} lost the secret mark");
            assert!(!render(src, false).spans.iter().any(|s| s.secret), "{src} marked a plain value secret");
        }
    }

    #[test]
    fn random_results_are_marked_nondeterministic_and_others_are_not() {
        for src in ["{{ randAlpha 4 }}", "{{ uuidv4 }}", "{{ shuffle \"abc\" }}", "{{ randInt 1 9 }}", "{{ bcrypt \"x\" | len }}"] {
            assert!(render(src, false).spans.iter().any(|s| s.nondeterministic), "{src}");
        }
        assert!(!render("{{ sha1sum \"x\" }}", false).spans.iter().any(|s| s.nondeterministic));
    }
}

#[cfg(test)]
mod registered {
    /// Every function of part A's families in sprig 3.2.3's `genericMap`
    /// (functions.go), registered; `sha512sum` (v3.3.0) is not.
    #[test]
    fn every_part_a_function_of_sprig_3_2_3_is_registered() {
        let m = super::super::func_map();
        let names = "abbrev abbrevboth trunc trim upper lower title untitle substr repeat trimall trimAll trimSuffix trimPrefix nospace initials \
            randAlphaNum randAlpha randAscii randNumeric swapcase shuffle snakecase camelcase kebabcase wrap wrapWith contains hasPrefix hasSuffix \
            quote squote cat indent nindent replace plural sha1sum sha256sum adler32sum toString split splitList splitn toStrings join sortAlpha \
            base dir clean ext isAbs osBase osClean osDir osExt osIsAbs b64enc b64dec b32enc b32dec bcrypt htpasswd genPrivateKey derivePassword \
            buildCustomCert genCA genCAWithKey genSelfSignedCert genSelfSignedCertWithKey genSignedCert genSignedCertWithKey encryptAES decryptAES \
            randBytes uuidv4 randInt regexMatch mustRegexMatch regexFindAll mustRegexFindAll regexFind mustRegexFind regexReplaceAll \
            mustRegexReplaceAll regexReplaceAllLiteral mustRegexReplaceAllLiteral regexSplit mustRegexSplit regexQuoteMeta urlParse urlJoin";
        let missing: Vec<&str> = names.split_whitespace().filter(|n| m.get(n).is_none()).collect();
        assert!(missing.is_empty(), "not registered: {missing:?}");
        assert!(m.get("sha512sum").is_none());
    }
}
