//! Go's `log/slog` `TextHandler` line, as Helm 4's logger prints it to
//! stderr without the time (helm: internal/logging/logging.go NewLogger):
//! `level=WARN msg="..." key=value ...`, each value quoted with
//! `strconv.Quote` only when it needs it (log/slog/text_handler.go needsQuoting).

use super::quote::{is_print, quote};

/// `level=LEVEL msg=MSG k=v...` for string attributes.
pub fn text_line(level: &str, msg: &str, attrs: &[(&str, &str)]) -> String {
    let mut out = format!("level={level} msg={}", value(msg));
    for (k, v) in attrs {
        out.push_str(&format!(" {k}={}", value(v)));
    }
    out
}

fn value(s: &str) -> String {
    if needs_quoting(s) { quote(s) } else { s.to_string() }
}

/// Empty, or any space, `=`, `"`, control character or unprintable rune
/// (a backslash alone does not).
fn needs_quoting(s: &str) -> bool {
    s.is_empty()
        || s.chars().any(|c| if c.is_ascii() { c == ' ' || c == '=' || c == '"' || c.is_ascii_control() } else { c.is_whitespace() || !is_print(c) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_only_when_slog_quotes_them() {
        assert_eq!(
            text_line("WARN", "ImportValues missing table from chart", &[("chart", "sub"), ("error", "\"exp\" is not a table")]),
            r#"level=WARN msg="ImportValues missing table from chart" chart=sub error="\"exp\" is not a table""#
        );
        assert_eq!(text_line("WARN", "x", &[("k", ""), ("p", "a\\b")]), r#"level=WARN msg=x k="" p=a\b"#);
    }
}
