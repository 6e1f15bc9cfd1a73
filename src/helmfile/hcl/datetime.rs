//! go-cty function/stdlib/datetime.go (formatdate, timeadd): RFC 3339
//! timestamps, cty's date format mnemonics, Go's time.ParseDuration.

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Spec, Ty, declare, p, str_of};

static FORMATDATE: Spec = Spec { name: "formatdate", params: &[p("format", Ty::Str), p("time", Ty::Str)], var: None, imp: formatdate };
static TIMEADD: Spec = Spec {
    name: "timeadd",
    params: &[p("timestamp", Ty::Str), p("duration", Ty::Str)],
    var: None,
    imp: |a| {
        let t = parse_rfc3339(str_of(&a[0])).map_err(|e| FnErr::Arg(0, e))?;
        let d = parse_duration(str_of(&a[1])).map_err(FnErr::Call)?;
        let secs = t.unix + (t.nanos as i128 + d).div_euclid(1_000_000_000) as i64;
        // time.RFC3339 prints no fraction; the offset stays the input's.
        Ok(Value::String(Stamp { unix: secs, nanos: 0, offset: t.offset }.rfc3339()))
    },
};

struct Stamp {
    unix: i64,
    nanos: u32,
    /// Seconds east of UTC.
    offset: i64,
}

impl Stamp {
    /// The local civil fields (year, month, day, hour, minute, second, weekday 0 = Sunday).
    fn civil(&self) -> (i64, u32, u32, u32, u32, u32, u32) {
        let local = self.unix + self.offset;
        let days = local.div_euclid(86400);
        let secs = local.rem_euclid(86400) as u32;
        let (y, m, d) = civil_from_days(days);
        (y, m, d, secs / 3600, secs / 60 % 60, secs % 60, (days + 4).rem_euclid(7) as u32)
    }

    fn rfc3339(&self) -> String {
        let (y, mo, d, h, mi, s, _) = self.civil();
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}", self.zone(true, true))
    }

    /// `Z07:00` (`z_for_utc`) or `-07:00` / `-0700`.
    fn zone(&self, z_for_utc: bool, colon: bool) -> String {
        if z_for_utc && self.offset == 0 {
            return "Z".into();
        }
        let sign = if self.offset < 0 { '-' } else { '+' };
        let o = self.offset.abs();
        if colon { format!("{sign}{:02}:{:02}", o / 3600, o / 60 % 60) } else { format!("{sign}{:02}{:02}", o / 3600, o / 60 % 60) }
    }
}

/// Howard Hinnant's days-to-civil.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z.rem_euclid(146097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 } as i64;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// parseStrictRFC3339: `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`.
fn parse_rfc3339(s: &str) -> Result<Stamp, String> {
    let bad = |what: &str| format!("not a valid RFC3339 timestamp: {what}");
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> { s.get(from..from + len).filter(|t| t.bytes().all(|c| c.is_ascii_digit())).and_then(|t| t.parse().ok()) };
    let year = num(0, 4).ok_or_else(|| bad("cannot use the year"))?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return Err(bad("found a date separator where \"-\" is expected"));
    }
    let (month, day) = (num(5, 2).ok_or_else(|| bad("cannot use the month"))?, num(8, 2).ok_or_else(|| bad("cannot use the day"))?);
    if !matches!(b.get(10), Some(b'T' | b't')) {
        return Err(bad("missing required time introducer 'T'"));
    }
    let hour = num(11, 2).filter(|h| *h < 24).ok_or_else(|| bad("hour must be between 0 and 23 inclusive"))?;
    let (min, sec) = (num(14, 2).ok_or_else(|| bad("minute must have exactly two digits"))?, num(17, 2).ok_or_else(|| bad("second must have exactly two digits"))?);
    if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') || month == 0 || month > 12 || day == 0 || day > 31 || min > 59 || sec > 60 {
        return Err(bad("out of range"));
    }
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let frac = &s[start..i];
        nanos = format!("{frac:0<9}").get(..9).and_then(|t| t.parse().ok()).unwrap_or(0);
    }
    let offset = match &s[i.min(s.len())..] {
        "Z" | "z" => 0,
        z if z.len() == 6 && (z.starts_with('+') || z.starts_with('-')) && &z[3..4] == ":" => {
            let (h, m) = (z[1..3].parse::<i64>().map_err(|_| bad("cannot use the offset"))?, z[4..6].parse::<i64>().map_err(|_| bad("cannot use the offset"))?);
            (h * 3600 + m * 60) * if z.starts_with('-') { -1 } else { 1 }
        }
        "" => return Err(bad("end of string before timezone offset")),
        z => return Err(format!("not a valid RFC3339 timestamp: extra text: {z:?}")),
    };
    let unix = days_from_civil(year as i64, month, day) * 86400 + (hour * 3600 + min * 60 + sec) as i64 - offset;
    Ok(Stamp { unix, nanos, offset })
}

/// Go's time.ParseDuration, in nanoseconds.
fn parse_duration(s: &str) -> Result<i128, String> {
    let bad = || format!("time: invalid duration {s:?}");
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let value: f64 = rest[..n].parse().map_err(|_| bad())?;
        rest = &rest[n..];
        let u = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let unit = match &rest[..u] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => return Err(format!("time: missing unit in duration {s:?}")),
            other => return Err(format!("time: unknown unit {other:?} in duration {s:?}")),
        };
        rest = &rest[u..];
        total += value * unit;
    }
    Ok(if neg { -(total.round() as i128) } else { total.round() as i128 })
}

const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// FormatDateFunc: runs of one letter are a verb, `'...'` a literal, `''` a quote.
fn formatdate(a: &[Value]) -> Result<Value, FnErr> {
    let f = str_of(&a[0]);
    let t = parse_rfc3339(str_of(&a[1])).map_err(|e| FnErr::Arg(1, e))?;
    let (y, mo, d, h, mi, s, wd) = t.civil();
    let chars: Vec<char> = f.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut j = i + 1;
        if c == '\'' {
            if chars.get(j) == Some(&'\'') {
                out.push('\'');
                i = j + 1;
                continue;
            }
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            if j >= chars.len() {
                return Err(FnErr::Arg(0, "unterminated literal '".into()));
            }
            out.extend(&chars[i + 1..j]);
            i = j + 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        while chars.get(j) == Some(&c) {
            j += 1;
        }
        let tok: String = chars[i..j].iter().collect();
        let n = j - i;
        let verb_err = |what: &str| FnErr::Arg(0, format!("invalid date format verb {tok:?}: {what}"));
        let h12 = if h % 12 == 0 { 12 } else { h % 12 };
        out.push_str(&match (c, n) {
            ('Y', 2) => format!("{:02}", y.rem_euclid(100)),
            ('Y', 4) => format!("{y:04}"),
            ('Y', _) => return Err(verb_err("year must either be \"YY\" or \"YYYY\"")),
            ('M', 1) => mo.to_string(),
            ('M', 2) => format!("{mo:02}"),
            ('M', 3) => MONTHS[mo as usize - 1][..3].to_string(),
            ('M', 4) => MONTHS[mo as usize - 1].to_string(),
            ('M', _) => return Err(verb_err("month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"")),
            ('D', 1) => d.to_string(),
            ('D', 2) => format!("{d:02}"),
            ('D', _) => return Err(verb_err("day of month must either be \"D\" or \"DD\"")),
            ('E', 3) => DAYS[wd as usize][..3].to_string(),
            ('E', 4) => DAYS[wd as usize].to_string(),
            ('E', _) => return Err(verb_err("day of week must either be \"EEE\" or \"EEEE\"")),
            ('h', 1) => h.to_string(),
            ('h', 2) => format!("{h:02}"),
            ('h', _) => return Err(verb_err("24-hour must either be \"h\" or \"hh\"")),
            ('H', 1) => h12.to_string(),
            ('H', 2) => format!("{h12:02}"),
            ('H', _) => return Err(verb_err("12-hour must either be \"H\" or \"HH\"")),
            ('A' | 'a', 2) => {
                let pm = if h >= 12 { "PM" } else { "AM" };
                if c == 'A' { pm.to_string() } else { pm.to_lowercase() }
            }
            ('A' | 'a', _) => return Err(verb_err(&format!("must be \"{c}{c}\""))),
            ('m', 1) => mi.to_string(),
            ('m', 2) => format!("{mi:02}"),
            ('m', _) => return Err(verb_err("minute must either be \"m\" or \"mm\"")),
            ('s', 1) => s.to_string(),
            ('s', 2) => format!("{s:02}"),
            ('s', _) => return Err(verb_err("second must either be \"s\" or \"ss\"")),
            ('Z', 1) => t.zone(true, true),
            ('Z', 3) if t.offset == 0 => "UTC".into(),
            ('Z', 3 | 4) => t.zone(false, false),
            ('Z', 5) => t.zone(false, true),
            ('Z', _) => return Err(verb_err("timezone must be Z, ZZZZ, or ZZZZZ")),
            _ => return Err(FnErr::Arg(0, format!("invalid date format verb {tok:?}"))),
        });
        i = j;
    }
    let _ = t.nanos;
    Ok(Value::String(out))
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, FORMATDATE, TIMEADD);
}
