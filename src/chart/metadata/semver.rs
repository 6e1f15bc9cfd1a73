//! Masterminds semver v3's version syntax, as Helm checks a chart's
//! `version`.

/// Masterminds semver v3 `NewVersion` (the coercing default Helm uses):
/// `v?MAJOR(.MINOR(.PATCH)?)?(-PRERELEASE)?(+METADATA)?`, each number a
/// uint64 (leading zeros allowed), numeric prerelease parts without
/// leading zeros.
pub fn is_valid_semver(v: &str) -> bool {
    let s = v.strip_prefix('v').unwrap_or(v);
    let b = s.as_bytes();
    let mut i = 0;
    let number = |i: &mut usize| -> bool {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start && s[start..*i].parse::<u64>().is_ok()
    };
    if !number(&mut i) {
        return false;
    }
    for _ in 0..2 {
        if i < b.len() && b[i] == b'.' {
            i += 1;
            if !number(&mut i) {
                return false;
            }
        }
    }
    let ident_list = |text: &str, prerelease: bool| -> bool {
        text.split('.').all(|part| {
            !part.is_empty()
                && part.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
                && !(prerelease
                    && part.len() > 1
                    && part.starts_with('0')
                    && part.bytes().all(|c| c.is_ascii_digit()))
        })
    };
    let rest = &s[i..];
    let (pre, meta) = match rest.split_once('+') {
        Some((pre, meta)) => (pre, Some(meta)),
        None => (rest, None),
    };
    if !pre.is_empty() {
        let Some(pre) = pre.strip_prefix('-') else {
            return false;
        };
        if !ident_list(pre, true) {
            return false;
        }
    }
    meta.is_none_or(|m| ident_list(m, false))
}
