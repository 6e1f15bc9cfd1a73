//! Reading many values files at once on every core: a chart with subcharts
//! has several values.yaml files, and one of them is often most of the text
//! (kube-prometheus-stack's own is 200 KB of 330 KB), so a large document is
//! also cut into pieces at its top-level keys and the pieces are read side by
//! side.
//!
//! Cutting is only an optimisation and must never change a result: a piece
//! starts at a line whose first character begins a plain top-level key, and
//! the pieces' maps are joined only when every piece reads cleanly and no
//! top-level key appears in two pieces. Anything else (an alias to an anchor
//! in another piece, a quoted or flow value running over a cut, a duplicate
//! key, an error) reads the whole document again in one go, so the answer and
//! the error are exactly those of [`super::load_merged`].

use super::{DocMap, Note, PMap, YamlError, merge_documents, parse_document_map, reader, split_file};
use crate::parallel::map_in_order;

/// Pieces smaller than this are not worth a cut.
const MIN_PIECE: usize = 16 * 1024;

/// A values file read by [`parse_many`]: its merged documents and notes.
pub struct Parsed(pub(super) Result<(PMap, Vec<Note>), YamlError>);

impl Parsed {
    /// The merged documents, as [`super::load_nodes`] returns them.
    pub fn into_nodes(self) -> Result<PMap, YamlError> {
        self.0.map(|(merged, _)| merged)
    }
}

/// Reads every `(text, source name)` as [`super::load_merged`] does, using up
/// to `threads` threads; results in input order.
pub fn parse_many(inputs: &[(&str, &str)], threads: usize) -> Vec<Parsed> {
    parse_many_in_pieces(inputs, threads, MIN_PIECE)
}

fn parse_many_in_pieces(inputs: &[(&str, &str)], threads: usize, min_piece: usize) -> Vec<Parsed> {
    let splits: Vec<Result<reader::Split, YamlError>> = inputs.iter().map(|(text, name)| split_file(text, name)).collect();
    // One job per piece of every document.
    struct Job<'a> {
        file: usize,
        doc: usize,
        text: &'a str,
        first_line: usize,
    }
    let mut jobs: Vec<Job> = Vec::new();
    for (file, split) in splits.iter().enumerate() {
        let Ok(split) = split else { continue };
        for (doc, chunk) in split.chunks.iter().enumerate() {
            for (text, first_line) in pieces(&chunk.text, chunk.first_line, min_piece) {
                jobs.push(Job { file, doc, text, first_line });
            }
        }
    }
    let places: Vec<(usize, usize)> = jobs.iter().map(|j| (j.file, j.doc)).collect();
    let results = map_in_order(jobs, threads, |j| j.text.len(), |j| parse_document_map(j.text, j.first_line, inputs[j.file].1));

    // Reassemble: pieces into documents, documents into files.
    let mut by_job = places.into_iter().zip(results).peekable();
    let mut out = Vec::with_capacity(inputs.len());
    for (file, split) in splits.iter().enumerate() {
        let split = match split {
            Ok(s) => s,
            Err(e) => {
                out.push(Parsed(Err(e.clone())));
                continue;
            }
        };
        let mut docs: Vec<Result<DocMap, YamlError>> = Vec::with_capacity(split.chunks.len());
        for (doc, chunk) in split.chunks.iter().enumerate() {
            let mut parts = Vec::new();
            while let Some(((job_file, job_doc), _)) = by_job.peek() {
                if (*job_file, *job_doc) != (file, doc) {
                    break;
                }
                if let Some((_, r)) = by_job.next() {
                    parts.push(r);
                }
            }
            let whole = || parse_document_map(&chunk.text, chunk.first_line, inputs[file].1);
            docs.push(join_pieces(parts).unwrap_or_else(whole));
        }
        out.push(Parsed(merge_documents(split, docs.into_iter())));
    }
    out
}

/// The pieces' maps as one document, or `None` when the document must be
/// read whole (a piece failed, or a top-level key repeats).
fn join_pieces(parts: Vec<Result<DocMap, YamlError>>) -> Option<Result<DocMap, YamlError>> {
    let mut parts = parts.into_iter();
    let first = parts.next()?;
    let Some(second) = parts.next() else { return Some(first) };
    let mut joined = first.ok()?;
    for part in std::iter::once(second).chain(parts) {
        let part = part.ok()?;
        if part.map.keys().any(|k| joined.map.contains_key(k)) {
            return None;
        }
        joined.map.extend(part.map);
        joined.notes.extend(part.notes);
    }
    Some(Ok(joined))
}

/// `text` (a document starting at 0-based line `first_line`) cut into pieces
/// of at least `min_piece` bytes at lines that start a plain top-level key,
/// with each piece's first line; the whole text when it cannot be cut safely.
fn pieces(text: &str, first_line: usize, min_piece: usize) -> Vec<(&str, usize)> {
    let whole = vec![(text, first_line)];
    if text.len() < 2 * min_piece {
        return whole;
    }
    // The document must be a block mapping at column 0 from its first content
    // line, so that every cut line is a key of that same mapping; and an
    // explicit document end (`...`) stops reading, which later pieces would not know.
    let mut started = false;
    let mut candidates: Vec<(usize, usize)> = Vec::new(); // (byte offset, 0-based line)
    let mut offset = 0;
    for (n, line) in split_lines(text).enumerate() {
        let here = offset;
        offset += line.len() + 1;
        let line = if n == 0 { line.trim_start_matches('\u{FEFF}') } else { line };
        if line.starts_with("...") {
            return whole;
        }
        match line.as_bytes().first() {
            None | Some(b'#' | b'\r') => {}
            Some(b' ' | b'\t') => {
                let rest = line.trim_start();
                if !started && !rest.is_empty() && !rest.starts_with('#') {
                    return whole; // an indented root
                }
            }
            Some(&b) if starts_plain_key(b) => {
                if !started {
                    started = true;
                } else {
                    candidates.push((here, first_line + n));
                }
            }
            // A quoted or complex key, an anchor, a flow collection, ...: never a cut.
            Some(_) => {
                if !started && !line.starts_with("---") && !line.starts_with('%') {
                    return whole; // a root that may not be a plain block mapping
                }
            }
        }
    }
    // A cut between an anchor and an alias to it would fail the later piece
    // and read the whole document again: no cut inside such a span.
    let held = held_candidates(text, &candidates);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut last_cut = 0;
    for (&(here, line), held) in candidates.iter().zip(held) {
        if !held && here - last_cut >= min_piece && text.len() - here >= min_piece {
            cuts.push((here, line));
            last_cut = here;
        }
    }
    if cuts.is_empty() {
        return whole;
    }
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = (0, first_line);
    for cut in cuts {
        out.push((&text[from.0..cut.0], from.1));
        from = cut;
    }
    out.push((&text[from.0..], from.1));
    out
}

/// For each candidate cut (byte offsets, ascending), whether it falls between
/// an anchor and a later alias of the same name. Every `&name` and `*name` in
/// the text counts, even inside a scalar: a span too many only costs a cut
/// (and a span missed only the whole read again).
fn held_candidates(text: &str, candidates: &[(usize, usize)]) -> Vec<bool> {
    let b = text.as_bytes();
    let name_end = |from: usize| from + b[from..].iter().take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-').count();
    // Per candidate, how many spans start before it minus how many end before it.
    let mut depth = vec![0isize; candidates.len() + 1];
    let mut anchors: std::collections::HashMap<&[u8], usize, crate::FastHash> = Default::default();
    for at in memchr::memchr2_iter(b'&', b'*', b) {
        let end = name_end(at + 1);
        if end == at + 1 {
            continue;
        }
        let name = &b[at + 1..end];
        if b[at] == b'&' {
            anchors.insert(name, at);
        } else if let Some(&anchor) = anchors.get(name) {
            // Candidates in (anchor, alias] are held.
            let lo = candidates.partition_point(|&(c, _)| c <= anchor);
            let hi = candidates.partition_point(|&(c, _)| c <= at);
            if lo < hi {
                depth[lo] += 1;
                depth[hi] -= 1;
            }
        }
    }
    let mut open = 0;
    depth[..candidates.len()]
        .iter()
        .map(|d| {
            open += d;
            open > 0
        })
        .collect()
}

/// `text.split('\n')`, found with memchr (a values file has thousands of lines).
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memchr(b'\n', r.as_bytes()) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Whether a line starting with `b` at column 0 can only be a plain key (or an
/// error in both readings): ASCII letters, digits and `_` (not non-ASCII text,
/// which could be a byte-order mark that a piece would drop).
fn starts_plain_key(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::load_merged;

    #[test]
    fn lines_are_cut_as_split_cuts_them() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n"] {
            assert_eq!(split_lines(text).collect::<Vec<_>>(), text.split('\n').collect::<Vec<_>>(), "{text:?}");
        }
    }

    fn big(body: &str, copies: usize) -> String {
        let mut s = String::new();
        for i in 0..copies {
            s.push_str(&body.replace("KEY", &format!("k{i}")));
        }
        s
    }

    fn same_as_whole(text: &str) {
        let whole = load_merged(text, "f.yaml");
        let mut parsed = parse_many(&[(text, "f.yaml")], 2);
        let Parsed(piecewise) = parsed.remove(0);
        match (whole, piecewise) {
            (Ok((a, na)), Ok((b, nb))) => {
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
                assert_eq!(na, nb);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("whole {a:?} but pieces {b:?}"),
        }
    }

    const ENTRY: &str = "KEY:\n  image: {repository: x, tag: \"1.0\"}\n  list:\n    - a\n    - b: 1\n  text: |\n    line one\n    line two\n# a comment at column 0\n\n";

    #[test]
    fn a_large_document_is_cut_and_reads_the_same() {
        let text = big(ENTRY, 800);
        assert!(pieces(&text, 0, MIN_PIECE).len() > 2, "the document should be cut");
        same_as_whole(&text);
    }

    #[test]
    fn an_alias_to_an_anchor_in_another_piece_reads_the_whole_document() {
        let mut text = format!("anchors:\n  base: &base {{a: 1}}\n{}", big(ENTRY, 800));
        text.push_str("last:\n  <<: *base\n  b: 2\n");
        // Not cut between them (the later piece would fail and the whole be read again)...
        assert_eq!(pieces(&text, 0, MIN_PIECE).len(), 1);
        same_as_whole(&text);
        // ... but around them.
        let text = format!("{}anchors:\n  base: &base {{a: 1}}\nlast:\n  <<: *base\n{}", big(ENTRY, 400), big(&ENTRY.replace("KEY", "KEY2"), 400));
        assert!(pieces(&text, 0, MIN_PIECE).len() > 2);
        same_as_whole(&text);
        // `&base` in a quoted scalar looks like a later anchor to the scan,
        // which then cuts between the real one and the alias: the failed
        // piece still means the whole document.
        let text = format!("anchors:\n  base: &base {{a: 1}}\n{}q: \"&base\"\nlast:\n  <<: *base\n", big(ENTRY, 800));
        assert!(pieces(&text, 0, MIN_PIECE).len() > 2);
        same_as_whole(&text);
    }

    #[test]
    fn a_key_repeated_in_two_pieces_keeps_the_last_as_helm_does() {
        let text = format!("dup: 1\n{}dup: 2\n", big(ENTRY, 800));
        same_as_whole(&text);
        let Parsed(r) = parse_many(&[(&text, "f.yaml")], 2).remove(0);
        let (map, _) = r.expect("reads");
        assert_eq!(format!("{:?}", map["dup"].1.kind), "Num(2.0)");
    }

    #[test]
    fn a_quoted_value_running_over_a_cut_reads_the_whole_document() {
        let body = big(ENTRY, 400);
        let text = format!("{body}q: \"multi\nline\"\n{body}");
        same_as_whole(&text.replace("KEY", "x"));
        let text = format!("{}q: \"multi\nzz: line\"\n{}", big(ENTRY, 400), big(&ENTRY.replace("KEY", "KEY2"), 400));
        same_as_whole(&text);
    }

    #[test]
    fn an_error_in_a_piece_is_the_whole_documents_error() {
        let text = format!("{}bad: [unclosed\n{}", big(ENTRY, 400), big(&ENTRY.replace("KEY", "KEY2"), 400));
        same_as_whole(&text);
        let text = format!("{}bad:\n\tx: 1\n{}", big(ENTRY, 400), big(&ENTRY.replace("KEY", "KEY2"), 400));
        same_as_whole(&text);
    }

    #[test]
    fn an_indented_root_or_document_end_is_never_cut() {
        let indented = big(ENTRY, 800).lines().map(|l| format!("  {l}\n")).collect::<String>();
        assert_eq!(pieces(&indented, 0, MIN_PIECE).len(), 1);
        let ended = format!("{}...\n{}", big(ENTRY, 400), big(&ENTRY.replace("KEY", "KEY2"), 400));
        assert_eq!(pieces(&ended, 0, MIN_PIECE).len(), 1);
        same_as_whole(&ended);
    }

    #[test]
    fn many_files_and_documents_keep_their_order_and_errors() {
        let a = big(ENTRY, 800);
        let b = format!("x: 1\n---\n{}\n---\ny: 2\n", big(ENTRY, 500));
        let c = "a: [\n".to_string();
        let d = "--- junk\n".to_string();
        let inputs = [(a.as_str(), "a"), (b.as_str(), "b"), (c.as_str(), "c"), (d.as_str(), "d")];
        let got = parse_many(&inputs, 3);
        for ((text, name), Parsed(r)) in inputs.iter().zip(got) {
            let whole = load_merged(text, name);
            assert_eq!(format!("{whole:?}"), format!("{r:?}"), "{name}");
        }
    }

    /// Every values file of the bundled corpus and test data, cut at every
    /// top-level key it allows, reads exactly as when read whole.
    #[test]
    fn every_bundled_yaml_file_reads_the_same_cut_at_every_key() {
        let files = crate::yaml::bundled_test_files(crate::yaml::is_yaml_file);
        assert!(files.len() > 50, "found {} files", files.len());
        let texts: Vec<(String, String)> = files
            .iter()
            .filter_map(|p| Some((std::fs::read_to_string(p).ok()?, p.display().to_string())))
            .collect();
        let inputs: Vec<(&str, &str)> = texts.iter().map(|(t, n)| (t.as_str(), n.as_str())).collect();
        let mut cut = 0;
        for (text, _) in &inputs {
            if let Ok(split) = reader::split_documents(text) {
                cut += split.chunks.iter().filter(|c| pieces(&c.text, c.first_line, 1).len() > 1).count();
            }
        }
        assert!(cut > 20, "only {cut} documents were cut");
        let got = parse_many_in_pieces(&inputs, 2, 1);
        for ((text, name), Parsed(r)) in inputs.iter().zip(got) {
            let whole = load_merged(text, name);
            assert_eq!(format!("{whole:?}"), format!("{r:?}"), "{name}");
        }
    }
}
