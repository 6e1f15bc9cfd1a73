//! helmfile's `toYaml`: yaml.v3's encoder for the values whose every string
//! it certainly writes plain; anything else is refused rather than guessed.
//! (sprig's `toJson` family is in sprig/defaults.rs.)

use super::gomap::Inside;
use super::{Tv, Val};
use crate::go::quote::quote as go_quote;

/// helmfile's `toYaml` (yaml.v3's encoder, indent 2, trailing newline kept),
/// for values whose every string yaml.v3 would write plain; any other
/// string (one it would quote or fold) is refused rather than guessed.
/// A map inside itself is refused: yaml.v3's encoder recurses into it
/// until the goroutine stack overflows.
pub fn to_yaml(v: &Tv) -> Result<String, String> {
    let mut out = String::new();
    let inside = &mut Inside::default();
    match &v.val {
        Val::Map(m) if !m.is_empty() => yaml_gomap(m, 0, &mut out, inside)?,
        Val::StrMap(m) if !m.is_empty() => yaml_map(m.iter().map(|(k, x)| (k.clone(), Tv::str(x))).collect(), 0, &mut out, inside)?,
        Val::List(l) | Val::TypedList(_, l) if !l.is_empty() => yaml_list(l, 0, &mut out, inside)?,
        Val::Ptr(p) => return to_yaml(p),
        _ => {
            out.push_str(&yaml_inline(v)?);
            out.push('\n');
        }
    }
    Ok(out)
}

fn yaml_inline(v: &Tv) -> Result<String, String> {
    Ok(match &v.val {
        Val::Nil => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) | Val::Int64(i) => i.to_string(),
        Val::Float(f) => {
            let s = crate::go::fmt::go_float(*f);
            match s.as_str() {
                "+Inf" => ".inf".into(),
                "-Inf" => "-.inf".into(),
                "NaN" => ".nan".into(),
                _ => s,
            }
        }
        Val::Str(s) => yaml_scalar(s)?,
        Val::Map(m) if m.is_empty() => "{}".into(),
        Val::StrMap(m) if m.is_empty() => "{}".into(),
        Val::List(l) | Val::TypedList(_, l) if l.is_empty() => "[]".into(),
        Val::Struct(ty, _) => return Err(format!("a struct ({ty})")),
        Val::Bytes(_) => return Err("a []byte".into()),
        Val::Object(o) => return Err(format!("a {}", o.type_name())),
        _ => return Err("a nested value in this position".into()),
    })
}

/// A string as yaml.v3 writes it: plain when [`yaml_plain`] is sure, or in
/// double quotes when yaml.v3 certainly reads its plain form as something
/// else than a string. encode.go `stringv` then asks for the double-quoted
/// style itself (`resolve` gives a non-`!!str` tag, or `isOldBool`), which
/// the emitter always honours; the strings taken here are printable ASCII
/// without `"` or `\`, which it writes unescaped. Anything else is refused.
fn yaml_scalar(s: &str) -> Result<String, String> {
    if let Ok(plain) = yaml_plain(s) {
        return Ok(plain.to_string());
    }
    if resolves_to_non_string(s) {
        return Ok(format!("\"{s}\""));
    }
    yaml_plain(s).map(str::to_string)
}

/// Whether yaml.v3's `resolve("", s)` certainly gives a tag other than
/// `!!str` (or `isOldBool` holds): the empty string (null), YAML 1.1 and
/// 1.2 booleans and nulls, and decimal numbers of at most 30 characters
/// (`[-+]?digits`, or `yamlStyleFloat`; short enough that ParseFloat
/// cannot overflow, which would make it a string again).
fn resolves_to_non_string(s: &str) -> bool {
    let words = [
        "", "~", "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
    ];
    if words.contains(&s) {
        return true;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mant, exp) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int, frac) = mant.split_once('.').map_or((mant, None), |(i, f)| (i, Some(f)));
    let digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    let mantissa = match frac {
        None => !int.is_empty() && digits(int),
        // `.5`, `1.`, `1.5` (yamlStyleFloat: `\.[0-9]+|[0-9]+(\.[0-9]*)?`)
        Some(f) => digits(int) && digits(f) && !(int.is_empty() && f.is_empty()),
    };
    let exponent = exp.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    s.len() <= 30 && mantissa && exponent
}

/// A string yaml.v3 writes plain, certainly: an ASCII letter (or `_` and a
/// letter) first, or a digit first when yaml.v3 would not read it back as
/// a number or a date (`100m`, `1.2.3`); then letters, digits, `_`, `-`,
/// `.`, `/` and single inner spaces; and not a word YAML reads as a bool or null.
pub(super) fn yaml_plain(s: &str) -> Result<&str, String> {
    let letter_first = s.trim_start_matches('_').starts_with(|c: char| c.is_ascii_alphabetic()) && !s.starts_with("__");
    let digit_first = s.starts_with(|c: char| c.is_ascii_digit()) && !s.contains('_') && !yaml_number_or_date(s);
    let ok = (letter_first || digit_first)
        && !s.ends_with(' ')
        && !s.contains("  ")
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ' '))
        && !matches!(
            s,
            "true" | "True" | "TRUE" | "false" | "False" | "FALSE" | "null" | "Null" | "NULL" | "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
        );
    if ok { Ok(s) } else { Err(format!("the string {} (yaml.v3 may quote it)", go_quote(s))) }
}

/// Whether a digit-first string might read back as a number (`8080`, `1.`,
/// `1e5`, `0x1F`) or a timestamp (`2024-01-02...`) in yaml.v3.
fn yaml_number_or_date(s: &str) -> bool {
    let b = s.as_bytes();
    let float_like = {
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        !int.is_empty()
            && int.bytes().all(|c| c.is_ascii_digit())
            && frac.bytes().all(|c| c.is_ascii_digit())
            && exp.is_none_or(|e| {
                let e = e.strip_prefix(['+', '-']).unwrap_or(e);
                !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())
            })
    };
    let prefixed = b.len() > 1 && b[0] == b'0' && matches!(b[1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B');
    let date = b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    float_like || prefixed || date
}

/// yaml.v3's map key order (`keyList.Less`): runs of digits compare as numbers, letters before other characters.
fn yaml_key_less(a: &str, b: &str) -> bool {
    let (ar, br): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut digits = false;
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            digits = ar[i].is_numeric();
            i += 1;
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return if digits { al } else { bl };
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_numeric() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an.wrapping_mul(10).wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn.wrapping_mul(10).wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

/// yaml.v3 has no cycle check: a map inside itself would never end.
const YAML_CYCLE: &str = "a map that contains itself (yaml.v3 recurses into it until the goroutine stack overflows)";

fn yaml_gomap(m: &super::GoMap, indent: usize, out: &mut String, inside: &mut Inside) -> Result<(), String> {
    inside.enter(m).map_err(|_| YAML_CYCLE.to_string())?;
    yaml_map(m.entries(), indent, out, inside)?;
    inside.leave(m);
    Ok(())
}

fn yaml_map(mut entries: Vec<(String, Tv)>, indent: usize, out: &mut String, inside: &mut Inside) -> Result<(), String> {
    entries.sort_by(|(a, _), (b, _)| {
        if yaml_key_less(a, b) {
            std::cmp::Ordering::Less
        } else if yaml_key_less(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let pad = " ".repeat(indent);
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&pad);
        }
        out.push_str(&yaml_scalar(k)?);
        out.push(':');
        yaml_value(v, indent, out, inside)?;
    }
    Ok(())
}

/// A value after `key:` or `- `: inline on the same line, or a nested block.
fn yaml_value(v: &Tv, indent: usize, out: &mut String, inside: &mut Inside) -> Result<(), String> {
    match &v.val {
        Val::Map(m) if !m.is_empty() => {
            out.push('\n');
            yaml_gomap(m, indent + 2, out, inside)
        }
        Val::StrMap(m) if !m.is_empty() => {
            out.push('\n');
            yaml_map(m.iter().map(|(k, x)| (k.clone(), Tv::str(x))).collect(), indent + 2, out, inside)
        }
        Val::List(l) | Val::TypedList(_, l) if !l.is_empty() => {
            out.push('\n');
            yaml_list(l, indent + 2, out, inside)
        }
        Val::Ptr(p) => yaml_value(p, indent, out, inside),
        _ => {
            out.push(' ');
            out.push_str(&yaml_inline(v)?);
            out.push('\n');
            Ok(())
        }
    }
}

fn yaml_list(l: &[Tv], indent: usize, out: &mut String, inside: &mut Inside) -> Result<(), String> {
    let pad = " ".repeat(indent);
    for (i, x) in l.iter().enumerate() {
        // The first item of a list inside a list shares its parent's `- ` line.
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&pad);
        }
        out.push_str("- ");
        match &x.val {
            Val::Map(m) if !m.is_empty() => yaml_gomap(m, indent + 2, out, inside)?,
            Val::List(inner) | Val::TypedList(_, inner) if !inner.is_empty() => yaml_list(inner, indent + 2, out, inside)?,
            _ => {
                out.push_str(&yaml_inline(x)?);
                out.push('\n');
            }
        }
    }
    Ok(())
}
