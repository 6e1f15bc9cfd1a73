//! Output: the color decision, styles, and JSON/YAML serialisation.

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};
use serde::Serialize;

use super::args::ColorChoice;
use super::context::Env;

/// A retry of a request to the API server, on stderr as it happens: a
/// throttled or restarting server should not look like a hang.
pub fn announce_retry(r: &crate::cluster::Retrying) {
    eprintln!(
        "warning: the API server at {} answered {} {} while {}; retry {} of {} in {}",
        r.server,
        r.code,
        r.reason,
        r.asked,
        r.retry,
        r.max_retries,
        crate::go::duration::format_duration(r.wait)
    );
}

/// Flag > NO_COLOR > CLICOLOR_FORCE > HELM_COLOR > CLICOLOR=0 > terminal check.
pub fn color_enabled(choice: ColorChoice, env: &Env, stdout_is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => return true,
        ColorChoice::Never => return false,
        ColorChoice::Auto => {}
    }
    if env.get("NO_COLOR").is_some() {
        return false;
    }
    if env.get("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    match env.get("HELM_COLOR") {
        Some("never") => return false,
        Some("always") => return true,
        _ => {}
    }
    if env.get("CLICOLOR") == Some("0") || env.get("TERM") == Some("dumb") {
        return false;
    }
    stdout_is_terminal
}

/// `text` in lines of at most `first` characters for the first and `rest`
/// for the others, broken at spaces (a longer word stays whole).
pub fn wrap_words(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let width = if lines.is_empty() { first } else { rest };
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// One line of prose at `indent`: wrapped to `columns` when there is a
/// width (a terminal), continuation lines two spaces deeper, each line
/// passed through `style` (colors are added after measuring); ends in a newline.
pub fn fit(indent: &str, text: &str, columns: Option<usize>, style: &dyn Fn(&str) -> String) -> String {
    let Some(width) = columns else { return format!("{indent}{}\n", style(text)) };
    let first = width.saturating_sub(indent.chars().count()).max(20);
    let rest = first.saturating_sub(2).max(20);
    let mut out = String::new();
    for (i, line) in wrap_words(text, first, rest).iter().enumerate() {
        out.push_str(indent);
        if i > 0 {
            out.push_str("  ");
        }
        out.push_str(&style(line));
        out.push('\n');
    }
    out
}

/// [`fit`] of a `text` that starts with `lead` (a label such as `drift` or
/// `Plan:`): the lead, on the first line only, passed through `style`.
pub fn fit_led(indent: &str, text: &str, lead: &str, columns: Option<usize>, style: &dyn Fn(&str) -> String) -> String {
    let plain = fit(indent, text, columns, &|l| l.to_string());
    match plain.strip_prefix(indent).and_then(|rest| rest.strip_prefix(lead)) {
        Some(rest) => format!("{indent}{}{rest}", style(lead)),
        None => plain,
    }
}

/// How wide text may be: `RELEASEX_COLUMNS` when set (a layout for a
/// terminal of that width, also when piped), else the terminal's width when
/// stdout is one (`COLUMNS`, then 80, when it cannot be read), else no limit.
pub fn terminal_columns(env: &Env, stdout_is_terminal: bool) -> Option<usize> {
    if let Some(n) = env.get("RELEASEX_COLUMNS").and_then(|c| c.trim().parse::<usize>().ok()) {
        return Some(n.max(20));
    }
    if !stdout_is_terminal {
        return None;
    }
    let measured = terminal_size::terminal_size().map(|(w, _)| usize::from(w.0));
    Some(measured.or_else(|| env.get("COLUMNS").and_then(|c| c.trim().parse().ok())).unwrap_or(80).max(20))
}

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Styles for text output; all plain when colors are off.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub enabled: bool,
}

impl Theme {
    pub const WARN: Style = AnsiColor::Yellow.on_default().bold();
    pub const DIM: Style = Style::new().dimmed();
    pub const HEADING: Style = Style::new().bold();

    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.enabled { format!("{}{text}{}", style.render(), style.render_reset()) } else { text.to_string() }
    }
    /// [`Theme::paint`] appended to `out` (for output of thousands of lines).
    pub fn push(&self, out: &mut String, style: Style, text: &str) {
        if self.enabled {
            use std::fmt::Write as _;
            let _ = write!(out, "{}{text}{}", style.render(), style.render_reset());
        } else {
            out.push_str(text);
        }
    }
    pub fn bad(&self, text: &str) -> String {
        self.paint(AnsiColor::Red.on_default().bold(), text)
    }
    pub fn warn(&self, text: &str) -> String {
        self.paint(Self::WARN, text)
    }
    pub fn good(&self, text: &str) -> String {
        self.paint(AnsiColor::Green.on_default(), text)
    }
    pub fn dim(&self, text: &str) -> String {
        self.paint(Self::DIM, text)
    }
    pub fn heading(&self, text: &str) -> String {
        self.paint(Self::HEADING, text)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("cannot serialise output: {0}")]
pub struct SerializeError(String);

pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, SerializeError> {
    serde_json::to_string_pretty(value).map(|s| s + "\n").map_err(|e| SerializeError(e.to_string()))
}

pub use crate::go::json_pretty::{GoJsonWriter, to_json_go};

pub fn to_yaml<T: Serialize>(value: &T) -> Result<String, SerializeError> {
    let s = serde_saphyr::to_string(value).map_err(|e| SerializeError(e.to_string()))?;
    Ok(if s.ends_with('\n') { s } else { s + "\n" })
}

/// A value for YAML output: float64s that hold whole numbers below 2^53
/// serialize as integers, so they print as Helm's YAML prints them (`42`,
/// not `42.0`). A view of the value, not a copy: serialized, it gives the
/// same events as the value with those numbers replaced would.
#[derive(Clone, Copy)]
pub struct GoYamlNumbers<'a>(pub &'a serde_json::Value);

impl Serialize for GoYamlNumbers<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde_json::Value;
        match self.0 {
            Value::Number(n) if n.is_f64() && is_whole_below_2_53(n.as_f64().unwrap_or(0.0)) => {
                serde_json::Number::from(n.as_f64().unwrap_or(0.0) as i64).serialize(s)
            }
            Value::Array(a) => s.collect_seq(a.iter().map(GoYamlNumbers)),
            Value::Object(m) => s.collect_map(m.iter().map(|(k, x)| (k, GoYamlNumbers(x)))),
            other => other.serialize(s),
        }
    }
}

fn is_whole_below_2_53(f: f64) -> bool {
    f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0
}

/// A float64 as YAML output writes it: an integer when it holds a whole
/// number below 2^53 (the number JSON would hold otherwise: null for NaN and
/// the infinities).
pub fn go_yaml_number(f: f64) -> serde_json::Value {
    if is_whole_below_2_53(f) {
        serde_json::Value::Number((f as i64).into())
    } else {
        serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// Sizes as people read them: bytes below 1 KiB, else KiB/MiB with one decimal.
pub fn human_bytes(n: usize) -> String {
    const KIB: f64 = 1024.0;
    let f = n as f64;
    if f < KIB {
        format!("{n} B")
    } else if f < KIB * KIB {
        format!("{:.1} KiB", f / KIB)
    } else {
        format!("{:.1} MiB", f / KIB / KIB)
    }
}

/// Left-aligned columns separated by two spaces; `widths` are computed from
/// the visible text, so styled cells are passed as (plain, styled).
pub fn table(header: &[&str], rows: &[Vec<(String, String)>], theme: &Theme) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, (plain, _)) in row.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(plain.chars().count());
            }
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<(String, String)>, out: &mut String| {
        let last = cells.len().saturating_sub(1);
        for (i, (plain, styled)) in cells.into_iter().enumerate() {
            out.push_str(&styled);
            if i < last {
                out.push_str(&" ".repeat(widths[i] - plain.chars().count() + 2));
            }
        }
        out.push('\n');
    };
    line(header.iter().map(|h| (h.to_string(), theme.heading(h))).collect(), &mut out);
    for row in rows {
        line(row.clone(), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn a_led_line_styles_its_lead_on_the_first_line_only() {
        let star = |l: &str| format!("*{l}*");
        let text = "drift spec.replicas: 2 in the release, 5 live; drift stays";
        assert_eq!(fit_led("  ", text, "drift", Some(30), &star), "  *drift* spec.replicas: 2 in\n    the release, 5 live; drift\n    stays\n");
        assert_eq!(fit_led("", "Plan: 1 to create", "Plan:", None, &star), "*Plan:* 1 to create\n");
    }

    #[test]
    fn color_follows_flag_then_environment_then_terminal() {
        let none = Env::default();
        assert!(color_enabled(ColorChoice::Always, &Env::from_pairs([("NO_COLOR", "1")]), false));
        assert!(!color_enabled(ColorChoice::Never, &none, true));
        assert!(!color_enabled(ColorChoice::Auto, &Env::from_pairs([("NO_COLOR", "1")]), true));
        assert!(color_enabled(ColorChoice::Auto, &Env::from_pairs([("CLICOLOR_FORCE", "1")]), false));
        assert!(!color_enabled(ColorChoice::Auto, &Env::from_pairs([("HELM_COLOR", "never")]), true));
        assert!(!color_enabled(ColorChoice::Auto, &Env::from_pairs([("CLICOLOR", "0")]), true));
        assert!(!color_enabled(ColorChoice::Auto, &Env::from_pairs([("TERM", "dumb")]), true));
        assert!(color_enabled(ColorChoice::Auto, &none, true));
        assert!(!color_enabled(ColorChoice::Auto, &none, false));
    }
}
