//! Chart.lock / requirements.lock checked the way decoding them into Helm's
//! `Lock` would fail.

use super::super::yaml::{Node, Yaml};
use super::DecodeError;
use super::decode::{Ctx, decode_dependencies, decode_string, field, scan_non_finite, sorted_entries};
use crate::go::quote::quote as go_quote;

/// Checks a Chart.lock / requirements.lock document the way decoding it
/// into Helm's `Lock` would (`generated` must be an RFC 3339 time,
/// `digest` a string, `dependencies` a list of dependency maps).
pub(crate) fn check_lock(doc: &Node) -> Result<(), DecodeError> {
    let mut ctx = Ctx::default();
    match &doc.value {
        Yaml::Null => {}
        Yaml::Map(entries) => {
            for (key, node) in sorted_entries(entries) {
                match field(key, &["generated", "digest", "dependencies"]) {
                    Some("generated") => match &node.value {
                        Yaml::Null => {}
                        Yaml::Str(s) if is_rfc3339(s) => {}
                        Yaml::Str(s) => {
                            // time.Time.UnmarshalJSON's error stops decoding.
                            ctx.finish()?;
                            return Err(DecodeError {
                                line: node.line,
                                column: node.column,
                                message: format!(
                                    "parsing time {} as \"2006-01-02T15:04:05Z07:00\": not an RFC 3339 time",
                                    go_quote(s)
                                ),
                            });
                        }
                        _ => {
                            ctx.finish()?;
                            return Err(DecodeError {
                                line: node.line,
                                column: node.column,
                                message: "Time.UnmarshalJSON: input is not a JSON string".into(),
                            });
                        }
                    },
                    Some("digest") => {
                        decode_string(node, &mut String::new(), &mut ctx, "Lock", &["digest"])
                    }
                    Some(_) => {
                        decode_dependencies(node, &mut None, &mut ctx, "Lock", "dependencies")
                    }
                    None => scan_non_finite(node, &mut ctx),
                }
            }
        }
        _ => {
            scan_non_finite(doc, &mut ctx);
            ctx.type_error(doc, "", &[], "v2.Lock");
        }
    }
    ctx.finish()
}

/// Go's time.RFC3339 as `Time.UnmarshalJSON` accepts it.
fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
    {
        return false;
    }
    if !matches!(b[10], b'T' | b't')
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len() && digits(i + 1..i + 3) && b[i + 3] == b':' && digits(i + 4..i + 6)
        }
        _ => false,
    }
}
