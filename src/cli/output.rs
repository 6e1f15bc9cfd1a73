//! Output: the color decision, styles, and JSON/YAML serialisation.

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};
use serde::Serialize;

use super::args::ColorChoice;
use super::context::Env;

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

pub fn to_yaml<T: Serialize>(value: &T) -> Result<String, SerializeError> {
    let s = serde_saphyr::to_string(value).map_err(|e| SerializeError(e.to_string()))?;
    Ok(if s.ends_with('\n') { s } else { s + "\n" })
}

/// Pretty JSON with numbers as Go's encoding/json writes them (a float64
/// `42` prints `42`, `1.2345678901234567e19` prints `12345678901234567000`),
/// so values print the way Helm's JSON would.
pub fn to_json_go(value: &serde_json::Value) -> String {
    let mut out = Vec::with_capacity(1 << 16);
    write_json_go(&mut out, value, 0);
    out.push(b'\n');
    // Only valid UTF-8 was written (serde_json escapes strings; numbers are ASCII).
    String::from_utf8(out).unwrap_or_default()
}

/// Pretty Go-style JSON written piece by piece: the same bytes as
/// [`to_json_go`] of the equivalent [`serde_json::Value`], without building
/// that value first (an `explain` document has tens of thousands of nodes).
#[derive(Debug, Default)]
pub struct GoJsonWriter {
    out: Vec<u8>,
    /// Per open container: whether it has an item yet (an empty one prints `{}`/`[]`).
    open: Vec<bool>,
    /// Reused for text built before it is written.
    scratch: String,
}

impl GoJsonWriter {
    pub fn with_capacity(n: usize) -> Self {
        GoJsonWriter { out: Vec::with_capacity(n), open: Vec::new(), scratch: String::new() }
    }

    /// Opens an object (`b'{'`) or array (`b'['`).
    pub fn begin(&mut self, open: u8) {
        self.out.push(open);
        self.open.push(false);
    }

    /// Closes the innermost container with `b'}'` or `b']'`.
    pub fn end(&mut self, close: u8) {
        if self.open.pop() == Some(true) {
            self.out.push(b'\n');
            indent(&mut self.out, self.open.len());
        }
        self.out.push(close);
    }

    /// Starts the next array element.
    pub fn elem(&mut self) {
        let depth = self.open.len();
        match self.open.last_mut() {
            // `,` and the line break and indentation in one copy, when shallow enough.
            Some(has_items) if depth <= MAX_FAST_DEPTH => {
                let from = if *has_items { 0 } else { 1 };
                *has_items = true;
                self.out.extend_from_slice(&COMMA_NEWLINE_SPACES[from..2 + 2 * depth]);
            }
            Some(has_items) => {
                self.out.extend_from_slice(if *has_items { b",\n" } else { b"\n" });
                *has_items = true;
                indent(&mut self.out, depth);
            }
            None => indent(&mut self.out, depth),
        }
    }

    /// Starts the next object member: its key and `: `.
    pub fn key(&mut self, k: &str) {
        self.elem();
        self.str(k);
        self.out.extend_from_slice(b": ");
    }

    /// [`key`](Self::key) for a key of the document's own (ASCII, nothing to escape).
    pub fn field(&mut self, k: &'static str) {
        debug_assert!(!needs_escape(k.as_bytes()));
        self.elem();
        self.out.reserve(k.len() + 4);
        self.out.push(b'"');
        self.out.extend_from_slice(k.as_bytes());
        self.out.extend_from_slice(b"\": ");
    }

    pub fn str(&mut self, s: &str) {
        // Most strings need no escape: copied as they are, in one go.
        if !needs_escape(s.as_bytes()) {
            self.out.reserve(s.len() + 2);
            self.out.push(b'"');
            self.out.extend_from_slice(s.as_bytes());
            self.out.push(b'"');
        } else {
            let _ = serde_json::to_writer(&mut self.out, s);
        }
    }

    /// A value path as a JSON string.
    pub fn path(&mut self, p: &crate::keypath::Path) {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        p.write_into(&mut text);
        self.str(&text);
        self.scratch = text;
    }

    /// `true`, `false`, `null` or another token written as is.
    pub fn raw(&mut self, token: &str) {
        self.out.extend_from_slice(token.as_bytes());
    }

    pub fn int(&mut self, i: i64) {
        self.out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
    }

    /// A float64 as Go prints it; `null` for what JSON cannot hold (as a
    /// [`serde_json::Number`] refuses it).
    pub fn float(&mut self, f: f64) {
        match crate::go::json::format_go_float64(f) {
            Some(text) => self.out.extend_from_slice(text.as_bytes()),
            None => self.out.extend_from_slice(b"null"),
        }
    }

    /// A whole value at the current depth.
    pub fn value(&mut self, v: &serde_json::Value) {
        write_json_go(&mut self.out, v, self.open.len());
    }

    /// The document with its final newline.
    pub fn finish(mut self) -> String {
        self.out.push(b'\n');
        // Only valid UTF-8 was written (serde_json escapes strings; numbers are ASCII).
        String::from_utf8(self.out).unwrap_or_default()
    }
}

/// Whether serde_json would escape anything in `s` (a control character, `"` or `\\`).
fn needs_escape(s: &[u8]) -> bool {
    // Eight bytes at a time: a byte below 0x20, or equal to `"` or `\\`.
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut chunks = s.chunks_exact(8);
    for c in &mut chunks {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        let x = u64::from_le_bytes(b);
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGHS != 0;
        if below_space || has_zero(x ^ (ONES * u64::from(b'"'))) || has_zero(x ^ (ONES * u64::from(b'\\'))) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Deepest level whose separator [`GoJsonWriter::elem`] copies in one go.
const MAX_FAST_DEPTH: usize = 31;
/// `,`, a line break and indentation for up to [`MAX_FAST_DEPTH`] levels.
const COMMA_NEWLINE_SPACES: [u8; 2 + 2 * MAX_FAST_DEPTH] = {
    let mut b = [b' '; 2 + 2 * MAX_FAST_DEPTH];
    b[0] = b',';
    b[1] = b'\n';
    b
};

fn indent(out: &mut Vec<u8>, n: usize) {
    const SPACES: &[u8] = &[b' '; 64];
    let mut n = 2 * n;
    while n > 0 {
        let take = n.min(SPACES.len());
        out.extend_from_slice(&SPACES[..take]);
        n -= take;
    }
}

fn write_json_go(out: &mut Vec<u8>, v: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            match crate::go::json::format_go_float64(f) {
                Some(text) => out.extend_from_slice(text.as_bytes()),
                None => out.extend_from_slice(n.to_string().as_bytes()),
            }
        }
        Value::Array(a) if !a.is_empty() => {
            out.extend_from_slice(b"[\n");
            for (i, x) in a.iter().enumerate() {
                indent(out, depth + 1);
                write_json_go(out, x, depth + 1);
                out.extend_from_slice(if i + 1 < a.len() { b",\n" } else { b"\n" });
            }
            indent(out, depth);
            out.push(b']');
        }
        Value::Object(m) if !m.is_empty() => {
            out.extend_from_slice(b"{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                indent(out, depth + 1);
                let _ = serde_json::to_writer(&mut *out, k);
                out.extend_from_slice(b": ");
                write_json_go(out, x, depth + 1);
                out.extend_from_slice(if i + 1 < m.len() { b",\n" } else { b"\n" });
            }
            indent(out, depth);
            out.push(b'}');
        }
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// A value for YAML output: float64s that hold whole numbers below 2^53
/// become integers, so they print as Helm's YAML prints them (`42`, not `42.0`).
pub fn go_yaml_numbers(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 { Value::Number((f as i64).into()) } else { v.clone() }
        }
        Value::Array(a) => Value::Array(a.iter().map(go_yaml_numbers).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), go_yaml_numbers(x))).collect()),
        other => other.clone(),
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

    #[test]
    fn the_escape_check_agrees_with_a_byte_by_byte_one() {
        let naive = |s: &[u8]| s.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
        let mut seed = 7u64;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        // Mostly printable, sometimes the bytes that matter or high bytes.
                        match (seed >> 33) % 10 {
                            0 => [b'"', b'\\', 0x1f, 0x00, 0x20, 0x7f, 0x80, 0xff][((seed >> 40) % 8) as usize],
                            _ => b'a' + ((seed >> 45) % 26) as u8,
                        }
                    })
                    .collect();
                assert_eq!(needs_escape(&bytes), naive(&bytes), "{bytes:?}");
            }
        }
    }

    use super::*;

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
