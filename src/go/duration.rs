//! Go's `time.ParseDuration` and client-go's `clientcmd.ParseTimeout` (the
//! parser of kubectl's `--request-timeout`), and `time.Duration.String` for
//! messages.

use std::time::Duration;

/// client-go `tools/clientcmd` ParseTimeout: a non-negative integer is
/// seconds, anything else a Go duration (`1.5s`, `2m`, `1h30m`).
/// Negative durations, which Go accepts and kubectl then sends to the server
/// as they are, are refused here: a timeout below zero means nothing.
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    const INVALID: &str = "invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)";
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<u64>().map(Duration::from_secs).map_err(|_| INVALID.to_string());
    }
    parse_duration(text).map_err(|_| INVALID.to_string())
}

/// Go `time.ParseDuration` for durations of zero or more (a leading `+` is
/// allowed, `-` is not: see [`parse_timeout`]).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    match parse_go_duration(text)? {
        nanos if nanos < 0 => Err(format!("time: invalid duration {}", crate::go::quote::quote(text))),
        nanos => Ok(Duration::from_nanos(nanos.unsigned_abs())),
    }
}

/// Go `time.Duration.String` for durations of a millisecond or more, as
/// messages show them: `30s`, `1.5s`, `2m0s`, `1h0m0s`; below a second `250ms`.
pub fn format_duration(d: Duration) -> String {
    let millis = i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 1_000_000);
    duration_string(millis.saturating_mul(1_000_000))
}

/// `time.Duration.String()`: `1h2m3.5s`, `1.5ms`, `2µs`, `0s`.
pub fn duration_string(d: i64) -> String {
    let neg = d < 0;
    let mut u = d.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        let (prec, unit) = match u {
            0 => return "0s".into(),
            1..=999 => (0, "ns"),
            1_000..=999_999 => (3, "µs"),
            _ => (6, "ms"),
        };
        let (frac, int) = frac_digits(u, prec);
        out.push_str(&int.to_string());
        out.push_str(&frac);
        out.push_str(unit);
    } else {
        let (frac, secs) = frac_digits(u, 9);
        u = secs;
        let s = format!("{}{frac}s", u % 60);
        u /= 60;
        if u > 0 {
            let m = u % 60;
            u /= 60;
            if u > 0 {
                out.push_str(&format!("{u}h"));
            }
            out.push_str(&format!("{m}m"));
        }
        out.push_str(&s);
    }
    if neg { format!("-{out}") } else { out }
}

/// `fmtFrac`: `v / 10^prec` split into its fraction (`.5`, trailing zeros
/// dropped, nothing when zero) and its integer part.
fn frac_digits(v: u64, prec: u32) -> (String, u64) {
    let p = 10u64.pow(prec);
    let frac = v % p;
    if frac == 0 {
        return (String::new(), v / p);
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    (format!(".{}", digits.trim_end_matches('0')), v / p)
}

/// Go's `time.ParseDuration` (time/format.go), signed: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`,
/// the fraction scaled through float64 as Go does; at most 1<<63-1 ns (1<<63 negative).
pub fn parse_go_duration(s: &str) -> Result<i64, String> {
    let orig = s;
    let invalid = || format!("time: invalid duration {}", crate::go::quote::quote(orig));
    let (neg, mut s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut d: u64 = 0;
    while !s.is_empty() {
        if !(s.as_bytes()[0] == b'.' || s.as_bytes()[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let int_len = s.bytes().take_while(u8::is_ascii_digit).count();
        let pre = int_len > 0;
        let mut v: u64 = 0;
        for c in s[..int_len].bytes() {
            v = v.checked_mul(10).and_then(|x| x.checked_add(u64::from(c - b'0'))).filter(|x| *x <= 1 << 63).ok_or_else(invalid)?;
        }
        s = &s[int_len..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            s = rest;
            let n = s.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in s[..n].bytes() {
                if overflow {
                    continue;
                }
                if f > (1 << 63) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > 1 << 63 {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            s = &s[n..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s.find(|c: char| c == '.' || c.is_ascii_digit()).unwrap_or(s.len());
        let unit = &s[..unit_len];
        if unit.is_empty() {
            return Err(format!("time: missing unit in duration {}", crate::go::quote::quote(orig)));
        }
        let unit_ns: u64 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {} in duration {}", crate::go::quote::quote(unit), crate::go::quote::quote(orig))),
        };
        s = &s[unit_len..];
        if v > (1 << 63) / unit_ns {
            return Err(invalid());
        }
        v *= unit_ns;
        if f > 0 {
            v += (f as f64 * (unit_ns as f64 / scale)) as u64;
            if v > 1 << 63 {
                return Err(invalid());
            }
        }
        d += v;
        if d > 1 << 63 {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i64).wrapping_neg());
    }
    if d > (1 << 63) - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_integers_are_seconds_and_zero_is_zero() {
        assert_eq!(parse_timeout("0"), Ok(Duration::ZERO));
        assert_eq!(parse_timeout("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_timeout("0s"), Ok(Duration::ZERO));
    }

    #[test]
    fn go_durations_with_units_and_fractions_parse_like_go() {
        assert_eq!(parse_timeout("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_timeout("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_timeout("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_timeout("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_timeout(".5s"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("10us"), Ok(Duration::from_micros(10)));
    }

    #[test]
    fn negative_unitless_and_unknown_units_are_refused_with_kubectls_message() {
        for bad in ["-1s", "1.5", "abc", "", "5x", "s", "."] {
            let e = parse_timeout(bad).unwrap_err();
            assert!(e.starts_with("invalid timeout value"), "{bad}: {e}");
        }
    }

    #[test]
    fn durations_print_as_go_prints_them() {
        assert_eq!(format_duration(Duration::from_secs(30)), "30s");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1.5s");
        assert_eq!(format_duration(Duration::from_secs(120)), "2m0s");
        assert_eq!(format_duration(Duration::from_secs(3600)), "1h0m0s");
        assert_eq!(format_duration(Duration::from_millis(250)), "250ms");
    }
}
