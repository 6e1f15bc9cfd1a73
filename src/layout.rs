//! The house rules of `docs/architecture.md`, checked on the source itself:
//! dependencies between top-level modules point down the floors (so there is
//! no cycle), no non-test source file is over 1,000 lines and no function
//! over 150. Test code (`#[cfg(test)]` modules, `tests.rs` files) is not
//! counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each top-level module's floor: a module may use only modules on lower
/// floors. A new module must be placed here (and in docs/architecture.md).
const FLOORS: &[(&str, u8)] = &[
    ("keypath", 0),
    ("parallel", 0),
    ("timings", 0),
    ("go", 1),
    ("yaml", 2),
    ("values", 3),
    ("gotmpl", 4),
    ("manifest", 3),
    ("release", 4),
    ("chart", 4),
    ("cluster", 5),
    ("patch", 5),
    ("render", 5),
    ("storage", 6),
    ("explain", 6),
    ("upgrade", 7),
    ("helmfile", 7),
    ("werf", 7),
    ("cli", 8),
];

const MAX_FILE_LINES: usize = 1000;
const MAX_FUNCTION_LINES: usize = 150;

fn source_files() -> Vec<PathBuf> {
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") && p.file_name().is_some_and(|n| n != "tests.rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The top-level module a file belongs to (`src/upgrade/run.rs` -> `upgrade`).
fn top_module(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("src")).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main" | "layout")).then(|| name.to_string())
}

/// The text with comments, string and char literals blanked (kept as spaces
/// so lines stay where they are), for brace counting and `crate::` search.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'_') {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let end = b[j + 1..].windows(close.len()).position(|w| w == close.as_slice()).map_or(b.len(), |p| j + 1 + p + close.len());
            for &x in &b[i..end] {
                blank(&mut out, x);
            }
            i = end;
        } else if c == b'"' {
            blank(&mut out, c);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            if i < b.len() {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let close = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|&x| x == b'\'').map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 2)
            } else {
                // A multi-byte UTF-8 char literal.
                let len = std::str::from_utf8(&b[i + 1..(i + 5).min(b.len())]).ok().or_else(|| std::str::from_utf8(&b[i + 1..(i + 4).min(b.len())]).ok()).and_then(|s| s.chars().next()).map_or(0, char::len_utf8);
                (len > 1 && b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
            };
            match close {
                Some(end) => {
                    for &x in &b[i..=end] {
                        blank(&mut out, x);
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The 0-based line ranges of `#[cfg(test)]` items (their whole block).
fn test_ranges(code: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("#[cfg(test)]") {
            let end = block_end(&lines, i).unwrap_or(i);
            ranges.push((i, end));
            i = end + 1;
        } else {
            i += 1;
        }
    }
    ranges
}

/// The line where the block opened at or after `start` closes (an item with
/// no block, such as `mod tests;`, ends on its own line).
fn block_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0i64;
    let mut opened = false;
    for (n, line) in lines.iter().enumerate().skip(start) {
        for ch in line.chars() {
            match ch {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if !opened && n > start => return Some(n),
                _ => {}
            }
        }
        if opened && depth == 0 {
            return Some(n);
        }
        if !opened && line.trim_end().ends_with(';') && n > start {
            return Some(n);
        }
    }
    None
}

fn is_fn_line(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("pub(crate) ").or_else(|| t.strip_prefix("pub(super) ")).or_else(|| t.strip_prefix("pub ")).unwrap_or(t);
    let t = t.strip_prefix("const ").unwrap_or(t);
    let t = t.strip_prefix("async ").unwrap_or(t);
    t.starts_with("fn ")
}

struct FileFacts {
    non_test_lines: usize,
    /// (function's first line, its length), outside tests.
    long_functions: Vec<(usize, usize)>,
    uses: Vec<String>,
}

fn facts(text: &str) -> FileFacts {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let tests = test_ranges(&code);
    let in_tests = |n: usize| tests.iter().any(|&(a, b)| a <= n && n <= b);
    let non_test_lines = (0..lines.len()).filter(|&n| !in_tests(n)).count();
    let mut long_functions = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        if is_fn_line(line) && !in_tests(n) && line.contains('(') {
            // A declaration without a body (trait method) ends with `;` before any `{`.
            if let Some(end) = block_end(&lines, n) {
                let len = end - n + 1;
                if len > MAX_FUNCTION_LINES && lines[n..=end].iter().any(|l| l.contains('{')) {
                    long_functions.push((n + 1, len));
                }
            }
        }
    }
    let mut uses = Vec::new();
    for (n, line) in lines.iter().enumerate().filter(|(n, _)| !in_tests(*n)) {
        let _ = n;
        let mut rest = *line;
        while let Some(i) = rest.find("crate::") {
            let name: String = rest[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            uses.push(name);
            rest = &rest[i + 7..];
        }
    }
    FileFacts { non_test_lines, long_functions, uses }
}

fn floor(module: &str) -> Option<u8> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

#[test]
fn top_level_modules_only_use_modules_on_lower_floors() {
    let mut wrong: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in source_files() {
        let Some(top) = top_module(&file) else { continue };
        let Some(own) = floor(&top) else {
            wrong.entry(top.clone()).or_default().push("is on no floor of FLOORS".into());
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("source is readable");
        for used in facts(&text).uses {
            if used == top || used == "FastHash" || used == "error_chain" {
                continue;
            }
            if floor(&used).is_none_or(|f| f >= own) {
                wrong.entry(file.display().to_string()).or_default().push(format!("uses {used}"));
            }
        }
    }
    for v in wrong.values_mut() {
        v.sort();
        v.dedup();
    }
    assert!(wrong.is_empty(), "dependencies that do not point down: {wrong:#?}");
}

#[test]
fn no_source_file_is_over_1000_lines_and_no_function_over_150() {
    let mut problems = Vec::new();
    for file in source_files() {
        let text = std::fs::read_to_string(&file).expect("source is readable");
        let f = facts(&text);
        if f.non_test_lines > MAX_FILE_LINES {
            problems.push(format!("{}: {} lines outside tests", file.display(), f.non_test_lines));
        }
        for (line, len) in f.long_functions {
            problems.push(format!("{}:{line}: a function of {len} lines", file.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_sees_functions_tests_and_literals_for_what_they_are() {
    let long_body = "    let x = 1;\n".repeat(MAX_FUNCTION_LINES);
    let text = format!(
        "use crate::go::fmt;\nfn short() {{ let s = \"{{ crate::cli\"; let c = '{{'; }}\nfn long() {{\n{long_body}}}\n#[cfg(test)]\nmod tests {{\n    use crate::cli;\n    fn also_long() {{\n{long_body}    }}\n}}\n"
    );
    let f = facts(&text);
    assert_eq!(f.uses, ["go"], "strings and tests are not uses");
    assert_eq!(f.long_functions, [(3, MAX_FUNCTION_LINES + 2)]);
    assert_eq!(f.non_test_lines, 3 + MAX_FUNCTION_LINES + 1);
}
