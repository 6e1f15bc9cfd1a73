//! Go's `time.ParseInLocation(layout, value, Local)` (time/format.go
//! `parse`, `skip`, `getnum`, `parseTimeZone`), Local being UTC: the fields
//! read element by element, range checks, the day-of-year rule, and the
//! zone a parsed text gives (UTC, a fixed offset, or a name at offset 0).

use super::{DAYS, GoTime, MONTHS, Std, TzForm, days_from_civil, days_in, next_std_chunk};

/// Why `time.Parse` failed, in Go's words (`ParseError.Error()`).
pub(super) enum ParseFail {
    Go(String),
}

/// Go's `time.Parse` state: the fields read so far.
#[derive(Default)]
struct Parsed {
    year: i64,
    month: Option<i64>,
    day: Option<i64>,
    yday: Option<i64>,
    hour: i64,
    min: i64,
    sec: i64,
    nsec: i64,
    pm: Option<bool>,
    utc: bool,
    offset: Option<i32>,
    zone: String,
    /// `GMT+n`'s hours: Go sets the zone on the time read as UTC, without moving it.
    gmt_hours: i32,
}

/// `time.ParseInLocation(layout, value, Local)` with Local as UTC.
pub(super) fn parse_time(layout: &str, value: &str) -> Result<GoTime, ParseFail> {
    let q = crate::go::quote::quote;
    let (alayout, avalue) = (layout, value);
    let mut layout = layout;
    let mut value = value;
    let mut p = Parsed::default();
    loop {
        let (prefix, std, suffix) = next_std_chunk(layout);
        let stdstr = &layout[prefix.len()..layout.len() - suffix.len()];
        value = skip(value, prefix).map_err(|rest| ParseFail::Go(format!("parsing time {} as {}: cannot parse {} as {}", q(avalue), q(alayout), q(rest), q(prefix))))?;
        let Some(std) = std else {
            if !value.is_empty() {
                return Err(ParseFail::Go(format!("parsing time {}: extra text: {}", q(avalue), q(value))));
            }
            break;
        };
        layout = suffix;
        match parse_elem(std, value, layout, &mut p)? {
            Ok(rest) => value = rest,
            Err(Some(range)) => return Err(ParseFail::Go(format!("parsing time {}: {range} out of range", q(avalue)))),
            Err(None) => return Err(ParseFail::Go(format!("parsing time {} as {}: cannot parse {} as {}", q(avalue), q(alayout), q(value), q(stdstr)))),
        }
    }
    match p.pm {
        Some(true) if p.hour < 12 => p.hour += 12,
        Some(false) if p.hour == 12 => p.hour = 0,
        _ => {}
    }
    let (month, day) = match p.yday {
        Some(yday) => month_day_of_year(yday, p.month, p.day, p.year).map_err(|m| ParseFail::Go(format!("parsing time {}: {m}", q(avalue))))?,
        None => (p.month.unwrap_or(1), p.day.unwrap_or(1)),
    };
    if day < 1 || day > days_in(month, p.year) {
        return Err(ParseFail::Go(format!("parsing time {}: day out of range", q(avalue))));
    }
    let days = days_from_civil(p.year, month, day);
    let local_secs = days * 86_400 + p.hour * 3600 + p.min * 60 + p.sec;
    let (offset, zone) = match (p.utc, p.offset) {
        (true, _) => (0, "UTC".to_string()),
        // An offset of 0 without a zone name is Local's (UTC here).
        (false, Some(0)) if p.zone.is_empty() || p.zone == "UTC" => (0, "UTC".to_string()),
        (false, Some(o)) => (o, p.zone.clone()),
        (false, None) if !p.zone.is_empty() => {
            return Ok(GoTime { secs: local_secs, nanos: p.nsec as u32, zone: p.zone.clone(), offset: p.gmt_hours * 3600 });
        }
        (false, None) => (0, "UTC".to_string()),
    };
    Ok(GoTime { secs: local_secs - i64::from(offset), nanos: p.nsec as u32, zone, offset })
}

/// time/format.go's day-of-year rule: the month and day of `yday`, which
/// must agree with a month or day the text also gave.
fn month_day_of_year(mut yday: i64, month: Option<i64>, day: Option<i64>, year: i64) -> Result<(i64, i64), &'static str> {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let mut found = None;
    if leap {
        if yday == 31 + 29 {
            found = Some((2, 29));
        } else if yday > 31 + 29 {
            yday -= 1;
        }
    }
    if !(1..=365).contains(&yday) {
        return Err("day-of-year out of range");
    }
    let (m, d) = found.unwrap_or_else(|| {
        const BEFORE: [i64; 13] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
        let mut m = (yday - 1) / 31 + 1;
        if BEFORE[m as usize] < yday {
            m += 1;
        }
        (m, yday - BEFORE[m as usize - 1])
    });
    if month.is_some_and(|x| x != m) {
        return Err("day-of-year does not match month");
    }
    if day.is_some_and(|x| x != d) {
        return Err("day-of-year does not match day");
    }
    Ok((m, d))
}

/// `skip`: the layout's literal text; a run of spaces matches any run.
fn skip<'v>(mut value: &'v str, mut prefix: &str) -> Result<&'v str, &'v str> {
    while let Some(&c) = prefix.as_bytes().first() {
        if c == b' ' {
            if value.as_bytes().first().is_some_and(|&v| v != b' ') {
                return Err(value);
            }
            prefix = prefix.trim_start_matches(' ');
            value = value.trim_start_matches(' ');
            continue;
        }
        if value.as_bytes().first() != Some(&c) {
            return Err(value);
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Ok(value)
}

/// `getnum`: one or two digits (`fixed`: exactly two).
fn getnum(s: &str, fixed: bool) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    let d = |i: usize| b.get(i).filter(|c| c.is_ascii_digit()).map(|c| i64::from(c - b'0'));
    let first = d(0)?;
    match d(1) {
        None if fixed => None,
        None => Some((first, &s[1..])),
        Some(second) => Some((first * 10 + second, &s[2..])),
    }
}

/// `lookup`: a month or day name, compared ASCII-case-insensitively.
fn lookup(names: impl Iterator<Item = &'static str>, value: &str) -> Option<(i64, &str)> {
    for (i, name) in names.enumerate() {
        if value.len() >= name.len() && value.as_bytes()[..name.len()].eq_ignore_ascii_case(name.as_bytes()) {
            return Some((i as i64, &value[name.len()..]));
        }
    }
    None
}

/// Reads one element: `Ok(rest)`, or `Err(Some(field))` out of range, `Err(None)` bad text.
fn parse_elem<'v>(std: Std, value: &'v str, layout_rest: &str, p: &mut Parsed) -> Result<Result<&'v str, Option<&'static str>>, ParseFail> {
    let bad = Ok(Err(None));
    let range = |what: &'static str| Ok(Err(Some(what)));
    let digits = |n: usize| value.len() >= n && value.as_bytes()[..n].iter().all(u8::is_ascii_digit);
    Ok(Ok(match std {
        Std::Year => {
            if !digits(2) {
                return bad;
            }
            let y: i64 = value[..2].parse().unwrap_or(0);
            p.year = if y >= 69 { y + 1900 } else { y + 2000 };
            &value[2..]
        }
        Std::LongYear => {
            if !digits(4) {
                return bad;
            }
            p.year = value[..4].parse().unwrap_or(0);
            &value[4..]
        }
        Std::Month | Std::LongMonth => {
            let names = MONTHS.iter().map(|m| if std == Std::Month { &m[..3] } else { m });
            let Some((m, rest)) = lookup(names, value) else { return bad };
            p.month = Some(m + 1);
            rest
        }
        Std::NumMonth | Std::ZeroMonth => {
            let Some((m, rest)) = getnum(value, std == Std::ZeroMonth) else { return bad };
            if !(1..=12).contains(&m) {
                return range("month");
            }
            p.month = Some(m);
            rest
        }
        Std::WeekDay | Std::LongWeekDay => {
            let names = DAYS.iter().map(|d| if std == Std::WeekDay { &d[..3] } else { d });
            let Some((_, rest)) = lookup(names, value) else { return bad };
            rest
        }
        Std::Day | Std::UnderDay | Std::ZeroDay => {
            let v = if std == Std::UnderDay { value.strip_prefix(' ').unwrap_or(value) } else { value };
            let Some((d, rest)) = getnum(v, std == Std::ZeroDay) else { return bad };
            p.day = Some(d);
            rest
        }
        Std::UnderYearDay | Std::ZeroYearDay => {
            let mut v = value;
            for _ in 0..2 {
                if std == Std::UnderYearDay {
                    v = v.strip_prefix(' ').unwrap_or(v);
                }
            }
            // `getnum3`: one to three digits (exactly three for `002`).
            let n = v.bytes().take(3).take_while(u8::is_ascii_digit).count();
            if n == 0 || (std == Std::ZeroYearDay && n != 3) {
                return bad;
            }
            p.yday = Some(v[..n].parse().unwrap_or(0));
            &v[n..]
        }
        Std::Hour | Std::Hour12 | Std::ZeroHour12 => {
            let Some((h, rest)) = getnum(value, std == Std::ZeroHour12) else { return bad };
            if h >= if std == Std::Hour { 24 } else { 13 } {
                return range("hour");
            }
            p.hour = h;
            rest
        }
        Std::Minute | Std::ZeroMinute => {
            let Some((m, rest)) = getnum(value, std == Std::ZeroMinute) else { return bad };
            if m >= 60 {
                return range("minute");
            }
            p.min = m;
            rest
        }
        Std::Second | Std::ZeroSecond => {
            let Some((s, mut rest)) = getnum(value, std == Std::ZeroSecond) else { return bad };
            if s >= 60 {
                return range("second");
            }
            p.sec = s;
            // A fraction right after the seconds, even when the layout has none.
            let rb = rest.as_bytes();
            if rb.len() >= 2 && matches!(rb[0], b'.' | b',') && rb[1].is_ascii_digit() && !matches!(next_std_chunk(layout_rest).1, Some(Std::Frac { .. })) {
                let n = 1 + rb[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                p.nsec = nanoseconds(&rest[..n]);
                rest = &rest[n..];
            }
            rest
        }
        Std::Pm | Std::LowerPm => {
            let (am, pm) = if std == Std::Pm { ("AM", "PM") } else { ("am", "pm") };
            match value.get(..2) {
                Some(x) if x == pm => p.pm = Some(true),
                Some(x) if x == am => p.pm = Some(false),
                _ => return bad,
            }
            &value[2..]
        }
        Std::Tz(tz) => match parse_offset(tz, value, p) {
            Some(rest) => rest,
            None => return bad,
        },
        Std::ZoneName => match parse_zone_name(value, p) {
            Some(rest) => rest,
            None => return bad,
        },
        Std::Frac { digits: n, trim, .. } => {
            if trim {
                let b = value.as_bytes();
                if b.len() < 2 || !matches!(b[0], b'.' | b',') || !b[1].is_ascii_digit() {
                    return Ok(Ok(value));
                }
                let k = b[1..].iter().take(9).take_while(|c| c.is_ascii_digit()).count();
                p.nsec = nanoseconds(&value[..1 + k]);
                &value[1 + k..]
            } else {
                let nd = 1 + n;
                if value.len() < nd || !matches!(value.as_bytes()[0], b'.' | b',') || !value.as_bytes()[1..nd].iter().all(u8::is_ascii_digit) {
                    return bad;
                }
                p.nsec = nanoseconds(&value[..nd]);
                &value[nd..]
            }
        }
    }))
}

/// A numeric zone offset (`-0700`, `Z07:00`, ...); `None` for bad text.
fn parse_offset<'v>(tz: TzForm, value: &'v str, p: &mut Parsed) -> Option<&'v str> {
    if tz.iso && !tz.seconds && value.starts_with('Z') {
        p.utc = true;
        return Some(&value[1..]);
    }
    let need = match (tz.colon, tz.short, tz.seconds) {
        (_, true, _) => 3,
        (true, _, true) => 9,
        (false, _, true) => 7,
        (true, _, false) => 6,
        (false, _, false) => 5,
    };
    if value.len() < need || !value.is_char_boundary(need) {
        return None;
    }
    let v = &value[..need];
    let b = v.as_bytes();
    let field = |i: usize| v.get(i..i + 2).filter(|f| f.bytes().all(|c| c.is_ascii_digit())).and_then(|f| f.parse::<i32>().ok());
    let (h, m, s) = match (tz.colon, tz.short, tz.seconds) {
        (_, true, _) => (field(1), Some(0), Some(0)),
        (true, _, true) if b[3] == b':' && b[6] == b':' => (field(1), field(4), field(7)),
        (true, _, false) if b[3] == b':' => (field(1), field(4), Some(0)),
        (true, ..) => return None,
        (false, _, true) => (field(1), field(3), field(5)),
        (false, _, false) => (field(1), field(3), Some(0)),
    };
    let (Some(h), Some(m), Some(s)) = (h, m, s) else { return None };
    let off = (h * 60 + m) * 60 + s;
    p.offset = Some(match b[0] {
        b'+' => off,
        b'-' => -off,
        _ => return None,
    });
    Some(&value[need..])
}

/// A zone abbreviation (`MST`): `UTC`, or what Go's `parseTimeZone`
/// accepts (a name it then gives offset 0 in a UTC Local, `GMT+n` its hours).
fn parse_zone_name<'v>(value: &'v str, p: &mut Parsed) -> Option<&'v str> {
    if let Some(rest) = value.strip_prefix("UTC") {
        p.utc = true;
        return Some(rest);
    }
    let n = time_zone_len(value)?;
    p.zone = value[..n].to_string();
    if let Some(hours) = p.zone.strip_prefix("GMT").filter(|h| !h.is_empty()) {
        p.gmt_hours = hours.parse::<i32>().unwrap_or(0);
    }
    Some(&value[n..])
}

/// time/format.go `parseTimeZone`: how long the zone name at `value` is.
fn time_zone_len(value: &str) -> Option<usize> {
    let b = value.as_bytes();
    if b.len() < 3 {
        return None;
    }
    if value.starts_with("ChST") || value.starts_with("MeST") {
        return Some(4);
    }
    if let Some(rest) = value.strip_prefix("GMT") {
        return Some(3 + signed_offset_len(rest));
    }
    if matches!(b[0], b'+' | b'-') {
        return Some(signed_offset_len(value)).filter(|n| *n > 0);
    }
    let upper = b.iter().take(6).take_while(|c| c.is_ascii_uppercase()).count();
    match upper {
        3 => Some(3),
        4 if b[3] == b'T' || value.starts_with("WITA") => Some(4),
        5 if b[4] == b'T' => Some(5),
        _ => None,
    }
}

/// `parseSignedOffset`: `+N`/`-N` hours (at most 23), its length; 0 when none.
fn signed_offset_len(value: &str) -> usize {
    let b = value.as_bytes();
    if !matches!(b.first(), Some(b'+' | b'-')) {
        return 0;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || value[1..1 + digits].parse::<u64>().map_or(true, |x| x > 23) {
        return 0;
    }
    1 + digits
}

/// `parseNanoseconds`: `.ddd` to nanoseconds (digits past nine dropped).
fn nanoseconds(frac: &str) -> i64 {
    let digits: String = frac[1..].chars().take(9).collect();
    let scale = 9 - digits.len() as u32;
    digits.parse::<i64>().unwrap_or(0) * 10i64.pow(scale)
}
