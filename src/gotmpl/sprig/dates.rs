//! sprig: dates (date.go) over a `time.Time` and a `time.Duration` of our
//! own, printed and parsed with Go's layouts (time/format.go
//! `nextStdChunk`, `AppendFormat`, `parse`).
//!
//! Time zones: a template's clock is the host's (`Host::now_unix_nanos`),
//! and Go's `Local` is taken as UTC (releasex reads no tz database, and CI
//! machines run in UTC); `UTC`, `Local`, `""` and the fixed offsets a
//! parsed text carries are exact. Any other zone name (`America/New_York`)
//! is refused naming the zone, never printed in a wrong zone.

use std::rc::Rc;

mod parse;

use parse::{ParseFail, parse_time};

use super::conv::{IntError, made, parse_int};
use super::defaults::ObjectJson;
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::go::duration::{duration_string, parse_go_duration};
use crate::gotmpl::{GoObject, Tv, Val};

const ANY: Param = Param::Any;
const STR: Param = Param::String;

pub(super) fn register(m: &mut FuncMap) {
    m.add("now", Sig::fixed(&[]), Derive::Made, |c, _| Ok(time_value(GoTime::from_unix_nanos(c.host.now_unix_nanos())))).nondeterministic = true;
    m.add("date", Sig::fixed(&[STR, ANY]), Derive::Made, |c, a| date_in_zone(c, text(&a[0]), &a[1], "Local"));
    m.add("htmlDate", Sig::fixed(&[ANY]), Derive::Made, |c, a| date_in_zone(c, "2006-01-02", &a[0], "Local"));
    m.add("htmlDateInZone", Sig::fixed(&[ANY, STR]), Derive::Made, |c, a| date_in_zone(c, "2006-01-02", &a[0], text(&a[1])));
    for name in ["dateInZone", "date_in_zone"] {
        m.add(name, Sig::fixed(&[STR, ANY, STR]), Derive::Made, |c, a| date_in_zone(c, text(&a[0]), &a[1], text(&a[2])));
    }
    for name in ["dateModify", "date_modify", "mustDateModify", "must_date_modify"] {
        m.add(name, Sig::fixed(&[STR, ANY]), Derive::Made, date_modify);
    }
    m.add("ago", Sig::fixed(&[ANY]), Derive::Made, ago).nondeterministic = true;
    m.add("toDate", Sig::fixed(&[STR, STR]), Derive::Made, to_date);
    m.add("mustToDate", Sig::fixed(&[STR, STR]), Derive::Made, to_date);
    m.add("unixEpoch", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(made(Val::Str(time_arg(&a[0])?.secs.to_string()))));
    m.add("duration", Sig::fixed(&[ANY]), Derive::Made, duration);
    m.add("durationRound", Sig::fixed(&[ANY]), Derive::Made, duration_round);
}

fn text(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

/// A Go `time.Time`: Unix seconds and nanoseconds, in a zone (name, offset
/// in seconds east of UTC; `UTC` at 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoTime {
    pub secs: i64,
    pub nanos: u32,
    pub zone: String,
    pub offset: i32,
}

/// Seconds from 0001-01-01 to 1970-01-01 (Go's zero Time is year 1).
const ZERO_TIME_UNIX: i64 = -62_135_596_800;

impl GoTime {
    pub fn from_unix_nanos(n: i128) -> GoTime {
        let secs = n.div_euclid(1_000_000_000) as i64;
        GoTime { secs, nanos: n.rem_euclid(1_000_000_000) as u32, zone: "UTC".into(), offset: 0 }
    }

    fn unix(secs: i64) -> GoTime {
        GoTime { secs, nanos: 0, zone: "UTC".into(), offset: 0 }
    }

    fn zero() -> GoTime {
        GoTime::unix(ZERO_TIME_UNIX)
    }

    fn in_utc(&self) -> GoTime {
        GoTime { zone: "UTC".into(), offset: 0, ..self.clone() }
    }

    fn nanos_total(&self) -> i128 {
        i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos)
    }

    /// The civil fields in the time's own zone.
    fn civil(&self) -> Civil {
        let local = self.secs + i64::from(self.offset);
        let days = local.div_euclid(86_400);
        let rem = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let yday = days - days_from_civil(year, 1, 1) + 1;
        // 1970-01-01 was a Thursday (4).
        let weekday = (days + 4).rem_euclid(7);
        Civil { year, month, day, yday, weekday, hour: rem / 3600, min: rem % 3600 / 60, sec: rem % 60 }
    }

    /// `Time.Format(layout)`.
    pub fn format(&self, layout: &str) -> String {
        let c = self.civil();
        let mut out = String::new();
        let mut rest = layout;
        loop {
            let (prefix, std, suffix) = next_std_chunk(rest);
            out.push_str(prefix);
            let Some(std) = std else { break };
            rest = suffix;
            self.format_chunk(&mut out, std, &c);
        }
        out
    }

    fn format_chunk(&self, out: &mut String, std: Std, c: &Civil) {
        let pad = |out: &mut String, n: i64, w: usize| append_int(out, n, w);
        match std {
            Std::Year => pad(out, c.year.abs() % 100, 2),
            Std::LongYear => pad(out, c.year, 4),
            Std::Month => out.push_str(&MONTHS[c.month as usize - 1][..3]),
            Std::LongMonth => out.push_str(MONTHS[c.month as usize - 1]),
            Std::NumMonth => pad(out, c.month, 0),
            Std::ZeroMonth => pad(out, c.month, 2),
            Std::WeekDay => out.push_str(&DAYS[c.weekday as usize][..3]),
            Std::LongWeekDay => out.push_str(DAYS[c.weekday as usize]),
            Std::Day => pad(out, c.day, 0),
            Std::UnderDay => {
                if c.day < 10 {
                    out.push(' ');
                }
                pad(out, c.day, 0);
            }
            Std::ZeroDay => pad(out, c.day, 2),
            Std::UnderYearDay => {
                if c.yday < 100 {
                    out.push(' ');
                    if c.yday < 10 {
                        out.push(' ');
                    }
                }
                pad(out, c.yday, 0);
            }
            Std::ZeroYearDay => pad(out, c.yday, 3),
            Std::Hour => pad(out, c.hour, 2),
            Std::Hour12 | Std::ZeroHour12 => {
                let hr = if c.hour % 12 == 0 { 12 } else { c.hour % 12 };
                pad(out, hr, if std == Std::Hour12 { 0 } else { 2 });
            }
            Std::Minute => pad(out, c.min, 0),
            Std::ZeroMinute => pad(out, c.min, 2),
            Std::Second => pad(out, c.sec, 0),
            Std::ZeroSecond => pad(out, c.sec, 2),
            Std::Pm => out.push_str(if c.hour >= 12 { "PM" } else { "AM" }),
            Std::LowerPm => out.push_str(if c.hour >= 12 { "pm" } else { "am" }),
            Std::Tz(tz) => format_offset(out, self.offset, tz),
            Std::ZoneName => {
                if self.zone.is_empty() {
                    let zone = self.offset / 60;
                    out.push(if zone < 0 { '-' } else { '+' });
                    pad(out, i64::from(zone.abs() / 60), 2);
                    pad(out, i64::from(zone.abs() % 60), 2);
                } else {
                    out.push_str(&self.zone);
                }
            }
            Std::Frac { digits, trim, comma } => {
                let buf = format!("{:09}", self.nanos);
                let mut n = digits.min(9);
                if trim {
                    while n > 0 && buf.as_bytes()[n - 1] == b'0' {
                        n -= 1;
                    }
                    if n == 0 {
                        return;
                    }
                }
                out.push(if comma { ',' } else { '.' });
                out.push_str(&buf[..n]);
            }
        }
    }
}

struct Civil {
    year: i64,
    month: i64,
    day: i64,
    yday: i64,
    weekday: i64,
    hour: i64,
    min: i64,
    sec: i64,
}

const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// time/format.go `appendInt`: zero-padded to `width`, a sign before the padding.
fn append_int(out: &mut String, x: i64, width: usize) {
    if x < 0 {
        out.push('-');
    }
    let digits = x.unsigned_abs().to_string();
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(&digits);
}

/// The numeric zone forms: `-0700`, `-07:00`, `-07`, `-070000`, `-07:00:00`
/// and the ISO 8601 `Z...` forms, which print `Z` at offset 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TzForm {
    iso: bool,
    colon: bool,
    short: bool,
    seconds: bool,
}

fn format_offset(out: &mut String, offset: i32, tz: TzForm) {
    if offset == 0 && tz.iso {
        out.push('Z');
        return;
    }
    let zone = offset / 60;
    out.push(if zone < 0 { '-' } else { '+' });
    let (zone, abs) = (zone.abs(), offset.abs());
    append_int(out, i64::from(zone / 60), 2);
    if tz.colon {
        out.push(':');
    }
    if !tz.short {
        append_int(out, i64::from(zone % 60), 2);
    }
    if tz.seconds {
        if tz.colon {
            out.push(':');
        }
        append_int(out, i64::from(abs % 60), 2);
    }
}

/// One layout element (time/format.go's `std*` constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Std {
    LongMonth,
    Month,
    NumMonth,
    ZeroMonth,
    LongWeekDay,
    WeekDay,
    Day,
    UnderDay,
    ZeroDay,
    UnderYearDay,
    ZeroYearDay,
    Hour,
    Hour12,
    ZeroHour12,
    Minute,
    ZeroMinute,
    Second,
    ZeroSecond,
    LongYear,
    Year,
    Pm,
    LowerPm,
    ZoneName,
    Tz(TzForm),
    Frac { digits: usize, trim: bool, comma: bool },
}

/// `nextStdChunk`: the text before the first layout element, the element,
/// and the rest.
fn next_std_chunk(layout: &str) -> (&str, Option<Std>, &str) {
    let b = layout.as_bytes();
    let at = |i: usize, s: &str| layout.get(i..).is_some_and(|r| r.starts_with(s));
    let lower_after = |i: usize| b.get(i).is_some_and(u8::is_ascii_lowercase);
    let tz = |iso, colon, short, seconds| Std::Tz(TzForm { iso, colon, short, seconds });
    for i in 0..b.len() {
        let hit = |len: usize, std: Std| Some((&layout[..i], Some(std), &layout[i + len..]));
        let found = match b[i] {
            b'J' if at(i, "January") => hit(7, Std::LongMonth),
            b'J' if at(i, "Jan") && !lower_after(i + 3) => hit(3, Std::Month),
            b'M' if at(i, "Monday") => hit(6, Std::LongWeekDay),
            b'M' if at(i, "Mon") && !lower_after(i + 3) => hit(3, Std::WeekDay),
            b'M' if at(i, "MST") => hit(3, Std::ZoneName),
            b'0' if b.get(i + 1).is_some_and(|c| (b'1'..=b'6').contains(c)) => {
                let std = [Std::ZeroMonth, Std::ZeroDay, Std::ZeroHour12, Std::ZeroMinute, Std::ZeroSecond, Std::Year][usize::from(b[i + 1] - b'1')];
                hit(2, std)
            }
            b'0' if at(i, "002") => hit(3, Std::ZeroYearDay),
            b'1' if at(i, "15") => hit(2, Std::Hour),
            b'1' => hit(1, Std::NumMonth),
            b'2' if at(i, "2006") => hit(4, Std::LongYear),
            b'2' => hit(1, Std::Day),
            b'_' if at(i, "_2006") => Some((&layout[..=i], Some(Std::LongYear), &layout[i + 5..])),
            b'_' if at(i, "_2") => hit(2, Std::UnderDay),
            b'_' if at(i, "__2") => hit(3, Std::UnderYearDay),
            b'3' => hit(1, Std::Hour12),
            b'4' => hit(1, Std::Minute),
            b'5' => hit(1, Std::Second),
            b'P' if at(i, "PM") => hit(2, Std::Pm),
            b'p' if at(i, "pm") => hit(2, Std::LowerPm),
            b'-' if at(i, "-070000") => hit(7, tz(false, false, false, true)),
            b'-' if at(i, "-07:00:00") => hit(9, tz(false, true, false, true)),
            b'-' if at(i, "-0700") => hit(5, tz(false, false, false, false)),
            b'-' if at(i, "-07:00") => hit(6, tz(false, true, false, false)),
            b'-' if at(i, "-07") => hit(3, tz(false, false, true, false)),
            b'Z' if at(i, "Z070000") => hit(7, tz(true, false, false, true)),
            b'Z' if at(i, "Z07:00:00") => hit(9, tz(true, true, false, true)),
            b'Z' if at(i, "Z0700") => hit(5, tz(true, false, false, false)),
            b'Z' if at(i, "Z07:00") => hit(6, tz(true, true, false, false)),
            b'Z' if at(i, "Z07") => hit(3, tz(true, false, true, false)),
            b'.' | b',' if matches!(b.get(i + 1), Some(b'0' | b'9')) => {
                let ch = b[i + 1];
                let j = i + 1 + b[i + 1..].iter().take_while(|&&c| c == ch).count();
                if b.get(j).is_some_and(u8::is_ascii_digit) {
                    None
                } else {
                    Some((&layout[..i], Some(Std::Frac { digits: j - i - 1, trim: ch == b'9', comma: b[i] == b',' }), &layout[j..]))
                }
            }
            _ => None,
        };
        if let Some(f) = found {
            return f;
        }
    }
    (layout, None, "")
}

impl GoObject for GoTime {
    fn type_name(&self) -> &'static str {
        "time.Time"
    }
    fn kind(&self) -> &'static str {
        "struct"
    }
    /// `Time.String()` (no monotonic reading: the host's clock has none).
    fn go_string(&self) -> String {
        self.format("2006-01-02 15:04:05.999999999 -0700 MST")
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let c = self.civil();
        let int = |n: i64| Ok(made(Val::Int(n)));
        Some(match (name, args) {
            ("Format", [Tv { val: Val::Str(layout), .. }]) => Ok(Tv::str(&self.format(layout))),
            ("String", []) => Ok(Tv::str(&self.go_string())),
            ("UTC" | "Local", []) => Ok(time_value(self.in_utc())),
            ("Unix", []) => Ok(made(Val::Int64(self.secs))),
            ("UnixNano", []) => Ok(made(Val::Int64(self.nanos_total() as i64))),
            ("Year", []) => int(c.year),
            ("Month", []) => Ok(Tv::str(MONTHS[c.month as usize - 1])),
            ("Day", []) => int(c.day),
            ("Hour", []) => int(c.hour),
            ("Minute", []) => int(c.min),
            ("Second", []) => int(c.sec),
            ("Nanosecond", []) => int(i64::from(self.nanos)),
            ("YearDay", []) => int(c.yday),
            ("Weekday", []) => Ok(Tv::str(DAYS[c.weekday as usize])),
            ("IsZero", []) => Ok(made(Val::Bool(self.secs == ZERO_TIME_UNIX && self.nanos == 0))),
            (
                "Add" | "AddDate" | "After" | "Before" | "Clock" | "Compare" | "Date" | "Equal" | "GoString" | "ISOWeek" | "In" | "Location" | "MarshalJSON" | "MarshalText" | "Round" | "Sub" | "Truncate" | "UnixMicro" | "UnixMilli" | "Zone" | "Format" | "String" | "UTC" | "Local" | "Unix",
                _,
            ) => Err(format!("time.Time's {name} method with these arguments: not modelled by releasex")),
            _ => return None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A Go `time.Duration` (nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoDuration(pub i64);

impl GoObject for GoDuration {
    fn type_name(&self) -> &'static str {
        "time.Duration"
    }
    fn kind(&self) -> &'static str {
        "int64"
    }
    fn go_string(&self) -> String {
        duration_string(self.0)
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        if !args.is_empty() {
            return None;
        }
        Some(Ok(match name {
            "String" => Tv::str(&duration_string(self.0)),
            "Nanoseconds" => made(Val::Int64(self.0)),
            "Seconds" => made(Val::Float(self.0 as f64 / 1e9)),
            _ => return None,
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn truth(&self) -> bool {
        self.0 != 0
    }
}

/// encoding/json of a time: `MarshalJSON` writes RFC 3339 with nanoseconds.
pub(super) fn object_json(o: &dyn GoObject) -> Option<ObjectJson> {
    if let Some(t) = o.as_any().downcast_ref::<GoTime>() {
        return Some(ObjectJson::Text(t.format("2006-01-02T15:04:05.999999999Z07:00")));
    }
    o.as_any().downcast_ref::<GoDuration>().map(|d| ObjectJson::Raw(d.0.to_string()))
}

fn time_value(t: GoTime) -> Tv {
    made(Val::Object(Rc::new(t)))
}

/// A `time.Time` parameter: text/template refuses anything else before the call.
fn time_arg(v: &Tv) -> Result<GoTime, FnError> {
    match &v.val {
        Val::Object(o) if o.as_any().is::<GoTime>() => Ok(o.as_any().downcast_ref::<GoTime>().cloned().unwrap_or_else(GoTime::zero)),
        other => Err(FnError::Exec(format!("wrong type for value; expected time.Time; got {}", super::conv::type_of(other)))),
    }
}

/// The time `date` and friends format: a `time.Time`, or Unix seconds as an
/// `int` or `int64`; anything else is "now" (sprig's `default` case).
fn date_value(c: &Call, v: &Tv) -> GoTime {
    match &v.val {
        Val::Object(o) if o.as_any().is::<GoTime>() => o.as_any().downcast_ref::<GoTime>().cloned().unwrap_or_else(GoTime::zero),
        Val::Int(s) | Val::Int64(s) => GoTime::unix(*s),
        _ => GoTime::from_unix_nanos(c.host.now_unix_nanos()),
    }
}

/// `dateInZone(fmt, date, zone)`: `time.LoadLocation(zone)`, UTC when it fails.
fn date_in_zone(c: &Call, layout: &str, date: &Tv, zone: &str) -> Result<Tv, FnError> {
    if !matches!(zone, "" | "UTC" | "Local") {
        return Err(FnError::Unsupported(format!("{}: the time zone {zone:?} (releasex reads no tz database: UTC and Local only)", c.name)));
    }
    Ok(made(Val::Str(date_value(c, date).in_utc().format(layout))))
}

/// `dateModify` (the time unchanged when the duration does not parse) and
/// `mustDateModify` (the parse error).
fn date_modify(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let t = time_arg(&a[1])?;
    let d = match parse_go_duration(text(&a[0])) {
        Ok(d) => d,
        Err(_) if !c.name.starts_with("must") => return Ok(time_value(t)),
        Err(e) => return Err(FnError::Go(e)),
    };
    let total = t.nanos_total() + i128::from(d);
    Ok(time_value(GoTime { secs: total.div_euclid(1_000_000_000) as i64, nanos: total.rem_euclid(1_000_000_000) as u32, ..t }))
}

/// `ago`: `time.Since(t).Round(time.Second).String()` on the host's clock.
fn ago(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let now = c.host.now_unix_nanos();
    let t = match &a[0].val {
        Val::Object(o) if o.as_any().is::<GoTime>() => o.as_any().downcast_ref::<GoTime>().map_or(now, GoTime::nanos_total),
        Val::Int(s) | Val::Int64(s) => i128::from(*s) * 1_000_000_000,
        _ => now,
    };
    let since = (now - t).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    Ok(made(Val::Str(duration_string(round_duration(since, 1_000_000_000)))))
}

/// `Duration.Round(m)`: halves away from zero, saturating.
fn round_duration(d: i64, m: i64) -> i64 {
    let r = d % m;
    if d < 0 {
        let r = -r;
        if r + r < m {
            return d + r;
        }
        d.checked_sub(m - r).unwrap_or(i64::MIN)
    } else {
        if r + r < m {
            return d - r;
        }
        d.checked_add(m - r).unwrap_or(i64::MAX)
    }
}

/// `toDate` (the zero time when the text does not parse) and `mustToDate`
/// (the parse error): `time.ParseInLocation(fmt, str, time.Local)`.
fn to_date(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    match parse_time(text(&a[0]), text(&a[1])) {
        Ok(t) => Ok(time_value(t)),
        Err(ParseFail::Go(_)) if c.name == "toDate" => Ok(time_value(GoTime::zero())),
        Err(ParseFail::Go(e)) => Err(FnError::Go(e)),
    }
}

/// `duration SECONDS`: a string is read with `strconv.ParseInt` (a value
/// out of range clamped, bad text 0), an `int64` taken as it is, any other
/// type (an `int` included) is 0; then `time.Duration(n) * time.Second`.
fn duration(_: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let n = match &a[0].val {
        Val::Str(s) => match parse_int(s, 10) {
            Ok(n) | Err(IntError::Range(n)) => n,
            Err(IntError::Syntax) => 0,
        },
        Val::Int64(n) => *n,
        _ => 0,
    };
    Ok(made(Val::Str(duration_string(n.wrapping_mul(1_000_000_000)))))
}

/// `durationRound`: the largest whole unit (y = 365 days, mo = 30 days, d, h, m, s).
fn duration_round(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    let d: i64 = match &a[0].val {
        Val::Str(s) => parse_go_duration(s).unwrap_or(0),
        Val::Int64(n) => *n,
        Val::Object(o) if o.as_any().is::<GoTime>() => {
            let t = o.as_any().downcast_ref::<GoTime>().map_or(0, GoTime::nanos_total);
            (c.host.now_unix_nanos() - t).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
        }
        _ => 0,
    };
    let u = d.unsigned_abs();
    let hour: u64 = 3_600_000_000_000;
    let units: [(u64, &str); 6] = [(hour * 24 * 365, "y"), (hour * 24 * 30, "mo"), (hour * 24, "d"), (hour, "h"), (60_000_000_000, "m"), (1_000_000_000, "s")];
    let out = units.iter().find(|(unit, _)| u > *unit).map_or_else(|| "0s".to_string(), |(unit, suffix)| format!("{}{suffix}", u / unit));
    Ok(made(Val::Str(out)))
}

#[cfg(test)]
mod tests {
    use super::super::conv::{call, call_at};
    use super::*;
    use crate::gotmpl::func::FixedHost;

    fn s(v: Tv) -> String {
        match v.val {
            Val::Str(s) => s,
            Val::Object(o) => o.go_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn times_print_and_format_with_go_layouts() {
        let t = GoTime::from_unix_nanos(1_714_979_289_123_456_789);
        assert_eq!(t.go_string(), "2024-05-06 07:08:09.123456789 +0000 UTC");
        assert_eq!(t.format("Mon Jan _2 3:04PM 2006 -07:00 Z07:00 .000 ,99 002 __2"), "Mon May  6 7:08AM 2024 +00:00 Z .123 ,12 127 127");
        assert_eq!(GoTime::zero().go_string(), "0001-01-01 00:00:00 +0000 UTC");
        let fixed = parse_time("2006-01-02T15:04:05Z07:00", "2024-01-02T03:04:05-07:30").ok().unwrap();
        assert_eq!(fixed.go_string(), "2024-01-02 03:04:05 -0730 -0730");
        assert_eq!(fixed.secs, 1_704_164_645 + 7 * 3600 + 1800);
    }

    #[test]
    fn to_date_parses_and_must_to_date_reports_go_s_error() {
        assert_eq!(s(call("toDate", vec![Tv::str("2006-01-02"), Tv::str("2017-12-31")]).unwrap()), "2017-12-31 00:00:00 +0000 UTC");
        assert_eq!(s(call("toDate", vec![Tv::str("2006-01-02"), Tv::str("nope")]).unwrap()), "0001-01-01 00:00:00 +0000 UTC");
        assert_eq!(
            call("mustToDate", vec![Tv::str("2006-01-02"), Tv::str("2017-13-01")]).unwrap_err(),
            FnError::Go("parsing time \"2017-13-01\": month out of range".into())
        );
        assert_eq!(
            call("mustToDate", vec![Tv::str("2006-01-02"), Tv::str("17-1-1")]).unwrap_err(),
            FnError::Go("parsing time \"17-1-1\" as \"2006-01-02\": cannot parse \"17-1-1\" as \"2006\"".into())
        );
    }

    #[test]
    fn durations_print_as_go() {
        assert_eq!(duration_string(0), "0s");
        assert_eq!(duration_string(1_500_000_000), "1.5s");
        assert_eq!(duration_string(3_723_000_000_000), "1h2m3s");
        assert_eq!(duration_string(-90_000_000_000), "-1m30s");
        assert_eq!(duration_string(1_500), "1.5µs");
        assert_eq!(duration_string(i64::MIN), "-2562047h47m16.854775808s");
        assert_eq!(parse_go_duration("-1.5h").unwrap(), -5_400_000_000_000);
        assert_eq!(parse_go_duration("x").unwrap_err(), "time: invalid duration \"x\"");
        assert_eq!(parse_go_duration("5").unwrap_err(), "time: missing unit in duration \"5\"");
        assert_eq!(s(call("duration", vec![Tv::str("95")]).unwrap()), "1m35s");
        assert_eq!(s(call("durationRound", vec![Tv::str("49h")]).unwrap()), "2d");
    }

    #[test]
    fn now_and_ago_read_the_host_clock() {
        let host = FixedHost { now_unix_nanos: 1_714_979_289_000_000_000, ..FixedHost::default() };
        let now = call_at("now", vec![], &host).unwrap();
        assert_eq!(s(now.clone()), "2024-05-06 07:08:09 +0000 UTC");
        let earlier = call_at("dateModify", vec![Tv::str("-90m"), now], &host).unwrap();
        assert_eq!(s(call_at("ago", vec![earlier], &host).unwrap()), "1h30m0s");
        let zone = call("dateInZone", vec![Tv::str("2006"), Tv::new(Val::Int(0)), Tv::str("America/New_York")]).unwrap_err();
        assert!(matches!(zone, FnError::Unsupported(ref m) if m.contains("America/New_York")));
    }
}
