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

/// Go `time.ParseDuration` for durations of zero or more: `[0-9]*(\.[0-9]*)?unit`
/// repeated, units `ns`, `us` (`µs`, `μs`), `ms`, `s`, `m`, `h`; `0` alone
/// is zero. A leading `+` is allowed, `-` is not (see [`parse_timeout`]).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let invalid = || format!("time: invalid duration {text:?}");
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total_nanos: u128 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (int_part, after) = rest.split_at(int_len);
        let (frac_part, after) = match after.strip_prefix('.') {
            Some(a) => a.split_at(a.bytes().take_while(u8::is_ascii_digit).count()),
            None => ("", after),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(invalid());
        }
        let unit_len = after.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        let unit_nanos: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => return Err(format!("time: missing unit in duration {text:?}")),
            other => return Err(format!("time: unknown unit {other:?} in duration {text:?}")),
        };
        let whole: u128 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| invalid())? };
        let mut nanos = whole.checked_mul(unit_nanos).ok_or_else(invalid)?;
        // The fraction, digit by digit, as Go does (exact to the nanosecond).
        let mut scale = unit_nanos;
        for digit in frac_part.bytes() {
            scale /= 10;
            nanos += u128::from(digit - b'0') * scale;
        }
        total_nanos = total_nanos.checked_add(nanos).ok_or_else(invalid)?;
        rest = after;
    }
    // Go's Duration is an int64 of nanoseconds.
    if total_nanos > i64::MAX as u128 {
        return Err(invalid());
    }
    Ok(Duration::from_nanos(total_nanos as u64))
}

/// Go `time.Duration.String` for durations of a millisecond or more, as
/// messages show them: `30s`, `1.5s`, `2m0s`, `1h0m0s`; below a second `250ms`.
pub fn format_duration(d: Duration) -> String {
    let millis = d.as_millis();
    if millis == 0 {
        return "0s".to_string();
    }
    if millis < 1000 {
        return format!("{millis}ms");
    }
    let secs = d.as_secs();
    let frac = d.subsec_millis();
    let seconds = if frac == 0 { format!("{}s", secs % 60) } else { format!("{}.{}s", secs % 60, format!("{frac:03}").trim_end_matches('0')) };
    match (secs / 3600, secs / 60 % 60) {
        (0, 0) => seconds,
        (0, m) => format!("{m}m{seconds}"),
        (h, m) => format!("{h}h{m}m{seconds}"),
    }
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
