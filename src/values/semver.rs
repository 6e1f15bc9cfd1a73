//! Masterminds semver v3 as Helm's `IsCompatibleRange` uses it (helm:
//! pkg/chart/v2/util/dependencies.go -> github.com/Masterminds/semver/v3
//! version.go NewVersion, constraints.go NewConstraint and Check): loose
//! versions (`01.2.3`, `1.2`, a `v`), constraints joined by spaces or commas
//! and OR-ed with `||`, hyphen ranges, `x`/`*` wildcards, and the rule that
//! a prerelease version only matches a group that names a prerelease.

use std::cmp::Ordering;

/// A parsed version: numbers and prerelease (build metadata never compares).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: String,
}

/// `NewVersion`: `^v?N(.N)?(.N)?(-PRE)?(+META)?$`, numbers as
/// `strconv.ParseUint` reads them (leading zeros allowed), prerelease
/// numeric parts without leading zeros.
fn version(text: &str) -> Option<Version> {
    let (rest, meta) = match text.split_once('+') {
        Some((r, m)) => (r, Some(m)),
        None => (text, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let core = core.strip_prefix('v').unwrap_or(core);
    let nums: Vec<&str> = core.split('.').collect();
    if nums.is_empty() || nums.len() > 3 || nums.iter().any(|n| n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let num = |i: usize| nums.get(i).map_or(Some(0), |n| n.parse::<u64>().ok());
    let ids_ok = |s: &str| !s.is_empty() && s.split('.').all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    if pre.is_some_and(|p| !ids_ok(p) || p.split('.').any(|id| id.len() > 1 && id.starts_with('0') && id.bytes().all(|b| b.is_ascii_digit())))
        || meta.is_some_and(|m| !ids_ok(m))
    {
        return None;
    }
    Some(Version { major: num(0)?, minor: num(1)?, patch: num(2)?, pre: pre.unwrap_or_default().to_string() })
}

/// `comparePrerelease`: no prerelease sorts after any; parts numeric before
/// alphanumeric, numbers by value, text bytewise, a longer list after its prefix.
fn compare_pre(a: &str, b: &str) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for (x, y) in pa.iter().zip(&pb) {
        let nx = x.bytes().all(|c| c.is_ascii_digit()).then(|| x.parse::<u64>().ok()).flatten();
        let ny = y.bytes().all(|c| c.is_ascii_digit()).then(|| y.parse::<u64>().ok()).flatten();
        let o = match (nx, ny) {
            (Some(i), Some(j)) => i.cmp(&j),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => x.cmp(y),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    pa.len().cmp(&pb.len())
}

fn compare(a: &Version, b: &Version) -> Ordering {
    (a.major, a.minor, a.patch).cmp(&(b.major, b.minor, b.patch)).then_with(|| compare_pre(&a.pre, &b.pre))
}

/// One constraint: operator, version, and which parts were missing or `x`.
struct Constraint {
    op: &'static str,
    con: Version,
    minor_dirty: bool,
    patch_dirty: bool,
    dirty: bool,
}

const OPS: &[&str] = &["!=", ">=", "=>", "<=", "=<", "~>", "=", ">", "<", "~", "^"];

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{0C}')
}

fn is_x(part: &str) -> bool {
    matches!(part, "x" | "X" | "*")
}

/// The constraint version (`cvRegex`) at the start of `s`: its text and the rest.
fn cv_at(s: &str) -> Option<(&str, &str)> {
    let part = |b: u8| b.is_ascii_digit() || matches!(b, b'x' | b'X' | b'*' | b'|');
    let ids = |t: &str| {
        // `[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*`: the longest run of such ids.
        let b = t.as_bytes();
        let mut i = 0;
        let id_char = |c: &u8| c.is_ascii_alphanumeric() || *c == b'-';
        loop {
            while b.get(i).is_some_and(id_char) {
                i += 1;
            }
            if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(id_char) {
                i += 1;
            } else {
                return i;
            }
        }
    };
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'v'));
    let start = i;
    while i < b.len() && part(b[i]) {
        i += 1;
    }
    if i == start {
        return None;
    }
    for _ in 0..2 {
        if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(|c| part(*c)) {
            i += 1;
            while i < b.len() && part(b[i]) {
                i += 1;
            }
        }
    }
    for sigil in [b'-', b'+'] {
        if b.get(i) == Some(&sigil) {
            let n = ids(&s[i + 1..]);
            if n > 0 {
                i += 1 + n;
            }
        }
    }
    Some((&s[..i], &s[i..]))
}

/// `parseConstraint` of one operator and constraint version.
fn constraint(op: &'static str, cv: &str) -> Option<Constraint> {
    let cv = cv.strip_prefix('v').unwrap_or(cv);
    let (body, _meta) = cv.split_once('+').unwrap_or((cv, ""));
    let (nums, pre) = match body.split_once('-') {
        Some((n, p)) => (n, format!("-{p}")),
        None => (body, String::new()),
    };
    let parts: Vec<&str> = nums.split('.').collect();
    let (mut minor_dirty, mut patch_dirty, mut dirty) = (false, false, false);
    let ver = if parts.first().is_none_or(|p| is_x(p)) {
        dirty = true;
        format!("0.0.0{pre}")
    } else if parts.get(1).is_none_or(|p| is_x(p)) {
        (minor_dirty, dirty) = (true, true);
        format!("{}.0.0{pre}", parts[0])
    } else if parts.get(2).is_none_or(|p| is_x(p)) {
        (patch_dirty, dirty) = (true, true);
        format!("{}.{}.0{pre}", parts[0], parts[1])
    } else {
        body.to_string()
    };
    Some(Constraint { op, con: version(&ver)?, minor_dirty, patch_dirty, dirty })
}

/// One `||` group as `validConstraintRegex` accepts it: constraints
/// separated by white space or a comma.
fn and_group(seg: &str) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    let mut rest = seg.trim_start_matches(is_space);
    loop {
        let op = OPS.iter().copied().find(|o| rest.starts_with(o)).unwrap_or("");
        rest = rest[op.len()..].trim_start_matches(is_space);
        let (cv, after) = cv_at(rest)?;
        out.push(constraint(op, cv)?);
        let trimmed = after.trim_start_matches(is_space);
        if trimmed.is_empty() {
            return Some(out);
        }
        rest = match trimmed.strip_prefix(',') {
            Some(r) => r.trim_start_matches(is_space),
            None if trimmed.len() < after.len() => trimmed,
            None => return None,
        };
    }
}

/// `rewriteRange`: `A - B` becomes `>= A, <= B `.
fn rewrite_ranges(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    // Masterminds' `\s+-\s+`; written here with single spaces, the usual spelling.
    while let Some(i) = rest.find(" - ") {
        let (left, right) = (&rest[..i], rest[i + 3..].trim_start_matches(is_space));
        let left_trimmed = left.trim_end_matches(is_space);
        let start = left_trimmed.rfind(|c: char| is_space(c) || c == ',' || c == '|').map_or(0, |p| p + 1);
        let a = &left_trimmed[start..];
        match (cv_at(a).filter(|(_, r)| r.is_empty()), cv_at(right)) {
            (Some(_), Some((b, after))) => {
                out.push_str(&left_trimmed[..start]);
                out.push_str(&format!(">= {a}, <= {b} "));
                rest = after;
            }
            _ => {
                out.push_str(&rest[..i + 3]);
                rest = &rest[i + 3..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn check(c: &Constraint, v: &Version, include_pre: bool) -> bool {
    if !v.pre.is_empty() && !include_pre {
        return false;
    }
    let cmp = compare(v, &c.con);
    let tilde = || {
        if cmp == Ordering::Less {
            return false;
        }
        if (c.con.major, c.con.minor, c.con.patch) == (0, 0, 0) && !c.minor_dirty && !c.patch_dirty {
            return true;
        }
        v.major == c.con.major && (v.minor == c.con.minor || c.minor_dirty)
    };
    match c.op {
        "" | "=" if c.dirty => tilde(),
        "" | "=" => cmp == Ordering::Equal,
        "~" | "~>" => tilde(),
        "!=" => {
            if c.dirty {
                if c.con.major != v.major {
                    return true;
                }
                if c.con.minor != v.minor && !c.minor_dirty {
                    return true;
                }
                if c.minor_dirty {
                    return false;
                }
                if c.con.patch != v.patch && !c.patch_dirty {
                    return true;
                }
                if c.patch_dirty {
                    return (!v.pre.is_empty() || !c.con.pre.is_empty()) && compare_pre(&v.pre, &c.con.pre) != Ordering::Equal;
                }
            }
            cmp != Ordering::Equal
        }
        ">" => {
            if !c.dirty {
                return cmp == Ordering::Greater;
            }
            match v.major.cmp(&c.con.major) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal if c.minor_dirty => false,
                Ordering::Equal if c.patch_dirty => v.minor > c.con.minor,
                Ordering::Equal => cmp == Ordering::Greater,
            }
        }
        "<" => cmp == Ordering::Less,
        ">=" | "=>" => cmp != Ordering::Less,
        "<=" | "=<" => {
            if !c.dirty {
                return cmp != Ordering::Greater;
            }
            !(v.major > c.con.major || (v.major == c.con.major && v.minor > c.con.minor && !c.minor_dirty))
        }
        _ => {
            // "^"
            if cmp == Ordering::Less {
                return false;
            }
            if c.con.major > 0 || c.minor_dirty {
                return v.major == c.con.major;
            }
            if v.major > 0 {
                return false;
            }
            if c.con.minor > 0 || c.patch_dirty {
                return v.minor == c.con.minor;
            }
            if v.minor > 0 {
                return false;
            }
            c.con.patch == v.patch
        }
    }
}

/// Helm's `IsCompatibleRange(constraint, version)`: false when either does not parse.
pub fn is_compatible_range(constraint: &str, version_text: &str) -> bool {
    let Some(v) = version(version_text) else { return false };
    check_parsed(constraint, &v).unwrap_or(false)
}

/// `NewConstraint(constraint).Check(v)`, or NewConstraint's error
/// (`improper constraint: SEGMENT`, the `||` part that does not parse).
fn check_parsed(constraint: &str, v: &Version) -> Result<bool, String> {
    let rewritten = rewrite_ranges(constraint);
    let mut groups = Vec::new();
    for seg in rewritten.split("||") {
        let Some(group) = and_group(seg) else { return Err(format!("improper constraint: {seg}")) };
        groups.push(group);
    }
    Ok(groups.iter().any(|g| {
        let include_pre = g.iter().any(|c| !c.con.pre.is_empty());
        g.iter().all(|c| check(c, v, include_pre))
    }))
}

/// A `*semver.Version` as Masterminds semver v3's `NewVersion` makes it
/// (sprig's `semver` function hands it to templates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemVer {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: String,
    pub metadata: String,
    pub original: String,
}

impl SemVer {
    fn core(&self) -> Version {
        Version { major: self.major, minor: self.minor, patch: self.patch, pre: self.pre.clone() }
    }

    /// `Version.String()`: `MAJOR.MINOR.PATCH[-PRE][+META]`.
    pub fn text(&self) -> String {
        let mut s = format!("{}.{}.{}", self.major, self.minor, self.patch);
        if !self.pre.is_empty() {
            s.push('-');
            s.push_str(&self.pre);
        }
        if !self.metadata.is_empty() {
            s.push('+');
            s.push_str(&self.metadata);
        }
        s
    }

    /// `Version.Compare`: -1, 0 or 1 (metadata ignored).
    pub fn compare(&self, other: &SemVer) -> Ordering {
        compare(&self.core(), &other.core())
    }

    /// `NewConstraint(constraint)` checked against this version.
    pub fn satisfies(&self, constraint: &str) -> Result<bool, String> {
        check_parsed(constraint, &self.core())
    }
}

/// `semver.NewVersion` with its errors: `Invalid Semantic Version` when the
/// text is not `v?N(.N)?(.N)?(-PRE)?(+META)?`, `Error parsing version
/// segment: ...` for a number past uint64, `Version segment starts with 0`
/// for a numeric prerelease part with a leading zero.
pub fn new_version(text: &str) -> Result<SemVer, String> {
    const INVALID: &str = "Invalid Semantic Version";
    let (rest, meta) = match text.split_once('+') {
        Some((r, m)) => (r, m),
        None => (text, ""),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, p),
        None => (rest, ""),
    };
    let ids_ok = |s: &str| s.split('.').all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    if (text.contains('+') && !ids_ok(meta)) || (rest.contains('-') && !ids_ok(pre)) {
        return Err(INVALID.into());
    }
    let nums: Vec<&str> = core.strip_prefix('v').unwrap_or(core).split('.').collect();
    if nums.len() > 3 || nums.iter().any(|n| n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit())) {
        return Err(INVALID.into());
    }
    let num = |i: usize| -> Result<u64, String> {
        nums.get(i).map_or(Ok(0), |n| {
            n.parse::<u64>().map_err(|_| format!("Error parsing version segment: strconv.ParseUint: parsing {}: value out of range", crate::go::quote::quote(n)))
        })
    };
    let (major, minor, patch) = (num(0)?, num(1)?, num(2)?);
    if pre.split('.').any(|id| id.len() > 1 && id.starts_with('0') && id.bytes().all(|b| b.is_ascii_digit())) {
        return Err("Version segment starts with 0".into());
    }
    Ok(SemVer { major, minor, patch, pre: pre.into(), metadata: meta.into(), original: text.into() })
}

#[cfg(test)]
mod tests {
    use super::is_compatible_range as ok;

    /// Masterminds semver v3's own rules (its constraints_test.go cases and
    /// the issue-20 forms); the generated constraints in
    /// tests/differential/fidelity_errors.rs check them against Helm 4.2.3.
    #[test]
    fn constraints_follow_masterminds_semver_v3() {
        assert!(ok("0.1.0", "0.1.0"));
        assert!(ok(">= 1.2, < 2", "1.5.0"));
        assert!(ok(">=1.2 <2", "1.5.0"));
        assert!(ok("~1.2.0 || ^3", "3.1.0"));
        assert!(ok("1.x", "1.9.9"));
        assert!(!ok("", "1.0.0"), "an empty constraint does not parse");
        assert!(!ok("^2", "1.0.0"));
        assert!(ok("1.2.3 - 1.4.5", "1.4.5") && ok("1.2.3 - 1.4.5", "1.2.3") && !ok("1.2.3 - 1.4.5", "1.4.6"));
        assert!(ok("1.2 - 1.4", "1.4.9"), "a dirty upper bound takes its whole minor");
        assert!(!ok("!=1.2.3", "1.2.3") && ok("!=1.2.3", "1.2.4") && !ok("!=1.2", "1.2.7") && ok("!=1.2", "1.3.0"));
        assert!(!ok(">=1.2.3", "1.3.0-beta"), "a prerelease needs a prerelease in the constraint");
        assert!(ok(">=1.2.3-0", "1.3.0-beta") && ok("^1.2.3-0", "1.2.3-alpha.1"));
        assert!(ok("1.2", "1.2.9") && !ok("1.2", "1.3.0"), "a bare 1.2 is ~1.2");
        assert!(ok("1.2.3", "01.2.3") && ok("1.2.0", "1.2") && ok("1.2.3", "v1.2.3"));
        assert!(!ok("1.2.3", " 1.2.3"), "NewVersion does not trim");
        assert!(ok(">1.2", "1.3.0") && !ok(">1.2", "1.2.9") && !ok(">1", "1.9.0") && ok(">1", "2.0.0"));
        assert!(ok("<=1.2", "1.2.9") && !ok("<=1.2", "1.3.0") && ok("<=1", "1.9.0"));
        assert!(ok("^0.2.3", "0.2.9") && !ok("^0.2.3", "0.3.0") && ok("^0.0.3", "0.0.3") && !ok("^0.0.3", "0.0.4"));
        assert!(ok("~0", "0.9.0") && ok("*", "5.0.0") && !ok("*", "5.0.0-rc.1") && ok("~>1.2.3", "1.2.9"));
        assert!(!ok("1.2.3 1.2.4", "1.2.3"), "AND of two exact versions");
        assert!(!ok(">= 1.2.3,, < 2", "1.5.0"), "two commas do not separate");
        assert!(ok("=>1.0, =<2.0", "1.5.0"));
        assert!(ok(">1.2.3-alpha <1.3", "1.2.9") && ok(">1.2.3-alpha <1.3", "1.2.3-beta") && ok(">1.2.3-alpha <1.3", "01.2.3"));
        assert!(!ok(">=1.0.0-01", "1.0.0"), "a prerelease number with a leading zero does not parse");
    }
}
