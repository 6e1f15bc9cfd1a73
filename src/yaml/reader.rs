//! Splitting a values file into YAML documents the way Helm 4.2.3's
//! `loader.LoadValues` does it: k8s apimachinery's `YAMLReader` over a
//! `LineReader` over a 4096-byte `bufio.Reader`.
//!
//! What that reader does, and so what this module reproduces:
//! - it reads line by line (`\n`); a line ending in `\r\n` loses the `\r`,
//!   and every line it hands on ends in `\n`;
//! - a line that starts with `---` ends the current document; after the
//!   `---` only spaces and a `#` comment may follow, anything else fails with
//!   `invalid Yaml document separator: <rest>`;
//! - the `---` line that *ends* a document is dropped; one met while the next
//!   document is still empty is kept as that document's first line;
//! - an unterminated last line whose length is an exact multiple of 4096
//!   bytes is lost (bufio hands it over as a full-buffer prefix, then EOF
//!   with nothing, and the reader drops the half-read line); Helm fixed this
//!   after 4.2.3 (helm/helm#32506).

/// One document as the YAML parser receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chunk {
    /// The document text: lines joined with `\n`, CR of CRLF removed.
    pub text: String,
    /// 0-based line of the file where `text` starts.
    pub first_line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeparatorError {
    /// 0-based line of the offending `---` line.
    pub line: usize,
    /// What followed the `---` (trimmed), as Helm prints it.
    pub rest: String,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Split {
    pub chunks: Vec<Chunk>,
    /// 0-based line of an unterminated last line that the 4096-byte quirk dropped.
    pub dropped_last_line: Option<usize>,
}

/// Go's `bufio.Reader.ReadLine` on an unterminated last line of `len` bytes:
/// whether the line is lost (see the module doc). Chunks are 4096 bytes,
/// 4095 when the 4096th byte is a `\r` (ReadLine pushes it back).
fn last_line_lost(line: &[u8]) -> bool {
    const BUF: usize = 4096;
    let mut pos = 0;
    let mut prefixes = 0;
    loop {
        let rest = line.len() - pos;
        if rest == 0 {
            return prefixes > 0;
        }
        if rest < BUF {
            return false;
        }
        let mut take = BUF;
        if line[pos + BUF - 1] == b'\r' {
            take = BUF - 1;
        }
        pos += take;
        prefixes += 1;
    }
}

/// Go's `strings.TrimSpace`: Unicode white space at both ends.
fn go_trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| {
        matches!(c, '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{85}' | '\u{A0}') || (c as u32 > 0xFF && c.is_whitespace())
    })
}

pub(crate) fn split_documents(text: &str) -> Result<Split, SeparatorError> {
    // Most files are one document without CRs: then the reader hands on the
    // text as it is (plus a final `\n`), found without cutting it into lines.
    let one_document = !text.is_empty() && !text.contains('\r') && !text.starts_with("---") && !text.contains("\n---");
    if one_document {
        let mut whole = String::with_capacity(text.len() + 1);
        whole.push_str(text);
        let last_line = text.rsplit('\n').next().unwrap_or_default();
        if !text.ends_with('\n') {
            if last_line_lost(last_line.as_bytes()) {
                return split_line_by_line(text);
            }
            whole.push('\n');
        }
        return Ok(Split { chunks: vec![Chunk { text: whole, first_line: 0 }], dropped_last_line: None });
    }
    split_line_by_line(text)
}

fn split_line_by_line(text: &str) -> Result<Split, SeparatorError> {
    let mut out = Split::default();
    // Lines as LineReader returns them (without their `\n`).
    let mut lines: Vec<&str> = Vec::with_capacity(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
    let mut rest = text;
    let mut terminated_last = true;
    while !rest.is_empty() {
        match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => {
                let mut l = &rest[..i];
                if let Some(s) = l.strip_suffix('\r') {
                    l = s;
                }
                lines.push(l);
                rest = &rest[i + 1..];
            }
            None => {
                terminated_last = false;
                lines.push(rest);
                rest = "";
            }
        }
    }
    if !terminated_last {
        let last = *lines.last().expect("a last line");
        if last_line_lost(last.as_bytes()) {
            out.dropped_last_line = Some(lines.len() - 1);
            lines.pop();
        }
    }

    let mut buf = String::new();
    let mut buf_start = 0usize;
    let mut buf_lines = 0usize;
    for (n, line) in lines.iter().enumerate() {
        if let Some(after) = line.strip_prefix("---") {
            let trimmed = go_trim_space(after);
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Err(SeparatorError { line: n, rest: trimmed.to_string() });
            }
            if buf_lines != 0 {
                out.chunks.push(Chunk { text: std::mem::take(&mut buf), first_line: buf_start });
                buf_lines = 0;
                continue;
            }
        }
        if buf_lines == 0 {
            buf_start = n;
        }
        buf.push_str(line);
        buf.push('\n');
        buf_lines += 1;
    }
    if buf_lines != 0 {
        out.chunks.push(Chunk { text: buf, first_line: buf_start });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_document_shortcut_splits_as_the_line_reader_does() {
        let long = "x".repeat(4096);
        let cases = [
            "a: 1\n", "a: 1", "\n\n", "a: 1\nb: |\n  --- not a separator\n", "a: 1\n  ---\n", &long, "#c\n", " ",
        ];
        for text in cases {
            assert_eq!(split_documents(text), split_line_by_line(text), "{text:?}");
        }
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
        let mut stack = vec![corpus];
        let mut seen = 0;
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(text) = std::fs::read_to_string(&p) {
                    assert_eq!(split_documents(&text), split_line_by_line(&text), "{}", p.display());
                    seen += 1;
                }
            }
        }
        assert!(seen > 20);
    }

    fn texts(s: &str) -> Vec<(String, usize)> {
        split_documents(s).unwrap().chunks.into_iter().map(|c| (c.text, c.first_line)).collect()
    }

    #[test]
    fn a_separator_ends_a_document_and_is_dropped() {
        assert_eq!(texts("a: 1\n---\nb: 2\n"), vec![("a: 1\n".into(), 0), ("b: 2\n".into(), 2)]);
    }

    #[test]
    fn a_leading_separator_stays_in_its_document() {
        assert_eq!(texts("---\na: 1\n"), vec![("---\na: 1\n".into(), 0)]);
        assert_eq!(texts("a: 1\n---\n---\nb: 2"), vec![("a: 1\n".into(), 0), ("---\nb: 2\n".into(), 2)]);
        assert_eq!(texts("a: 1\n---\n---\n---\nb: 2"), vec![("a: 1\n".into(), 0), ("---\n".into(), 2), ("b: 2\n".into(), 4)]);
    }

    #[test]
    fn crlf_loses_its_cr_and_the_last_line_gets_a_newline() {
        assert_eq!(texts("a: 1\r\nb: 2"), vec![("a: 1\nb: 2\n".into(), 0)]);
    }

    #[test]
    fn text_after_a_separator_other_than_a_comment_fails() {
        assert_eq!(texts("a: 1\n--- # c\nb: 2\n").len(), 2);
        let e = split_documents("a: 1\n--- |\n  x\n").unwrap_err();
        assert_eq!(e, SeparatorError { line: 1, rest: "|".into() });
        assert_eq!(split_documents("----\n").unwrap_err().rest, "-");
    }

    #[test]
    fn an_unterminated_last_line_of_4096_bytes_is_lost() {
        let long = format!("a: {}", "x".repeat(4093));
        assert_eq!(long.len(), 4096);
        let s = split_documents(&format!("b: 1\n{long}")).unwrap();
        assert_eq!(s.dropped_last_line, Some(1));
        assert_eq!(s.chunks[0].text, "b: 1\n");
        let s = split_documents(&format!("b: 1\n{long}\n")).unwrap();
        assert_eq!(s.dropped_last_line, None);
        let s = split_documents(&format!("b: 1\n{long}x")).unwrap();
        assert_eq!(s.dropped_last_line, None);
    }
}
