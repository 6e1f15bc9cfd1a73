//! The attribution check of the explain tests: every entry whose source is a
//! place in a file must point at text that starts the entry's value.

#![allow(dead_code)]

use std::path::Path;

use releasex::explain::entries::Entry;
use releasex::values::tree::Source;
use serde_json::Value;

/// Checks every entry with a file position: chart files are under
/// `chart_dir`, `-f` files under `values_base`. Returns how many were right
/// and a line for each that is not.
pub fn check_entries(entries: &[Entry], chart_dir: &Path, values_base: &Path) -> (usize, Vec<String>) {
    let (mut checked, mut bad) = (0, Vec::new());
    for entry in entries {
        let (Some(value), Some(source)) = (&entry.value, &entry.source) else { continue };
        let (path, line, column) = match &**source {
            Source::ChartDefault { file, line: Some(l), column: Some(c), .. }
            | Source::ParentValues { file, line: Some(l), column: Some(c), .. } => (chart_dir.join(&**file), *l, *c),
            Source::ValuesFile { file, line: Some(l), column: Some(c) } => (values_base.join(&**file), *l, *c),
            _ => continue,
        };
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match at(&text, line, column) {
            Some(rest) if starts_value(&rest, value) => checked += 1,
            rest => bad.push(format!("{}: {}:{line}:{column} reads {rest:?}, not the value {value}", entry.path, path.display())),
        }
    }
    (checked, bad)
}

/// The text at (line, column), 1-based, from that character to the end of the line.
pub fn at(text: &str, line: usize, column: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    Some(l.chars().skip(column.checked_sub(1)?).collect())
}

/// Whether `rest` (the file from the value's position) plausibly starts the value.
pub fn starts_value(rest: &str, value: &Value) -> bool {
    let first = rest.chars().next().unwrap_or(' ');
    if matches!(first, '&' | '!' | '*' | '|' | '>' | '"' | '\'' | '[' | '{' | '-') {
        return true; // anchors, tags, aliases, block scalars, quotes, flow and block collections
    }
    match value {
        Value::String(s) => s.is_empty() || rest.starts_with(s.chars().next().map(String::from).unwrap_or_default().as_str()),
        Value::Number(_) => first.is_ascii_digit() || matches!(first, '+' | '.'),
        Value::Bool(_) => first.is_ascii_alphabetic(),
        // An empty value is placed at its colon.
        Value::Null => rest.is_empty() || matches!(first, '~' | 'n' | 'N' | '#' | ':'),
        Value::Array(a) => a.is_empty() || first.is_ascii_alphanumeric(),
        Value::Object(m) => m.is_empty() || first.is_ascii_alphanumeric(),
    }
}
