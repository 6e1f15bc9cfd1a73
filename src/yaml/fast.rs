//! A fast reader for the block-style YAML that values files are mostly
//! written in, producing the same [`Doc`] as the saphyr path in
//! [`super::parse`] (a test compares the two over every bundled YAML file
//! and generated documents).
//!
//! saphyr's scanner costs about 60 instructions per byte; most values.yaml
//! text is block mappings and sequences of one-line scalars, which a
//! line-at-a-time reader handles in a few. It takes: block mappings and
//! sequences (compact `- key: v` too, indentless `key:\n- a` too), plain and
//! one-line quoted scalars, literal and folded block scalars without an
//! indentation indicator, one-line flow sequences of scalars, `[]` and `{}`,
//! comments, blank lines and a leading `---`. Anything else (tabs, CRs,
//! control characters, anchors, aliases, tags, multi-line plain or quoted
//! scalars, other flow collections, `?` keys, document markers inside, any
//! text it is unsure of) makes it answer `None`, and the caller reads the
//! document with saphyr, which also produces the errors: this reader never
//! fails, it only declines.

use super::Pos;
use super::doc::{Doc, Node, NodeKind};

/// libyaml refuses a simple key longer than this (`could not find expected ':'`).
const MAX_SIMPLE_KEY: usize = 1024;

/// The document as the saphyr path would read it, or `None` when the text
/// is outside this reader's subset.
pub(crate) fn parse(text: &str, first_line: usize) -> Option<Doc> {
    // libyaml reads CR LF as one line break and puts `\n` for it in scalars
    // (scanner.c READ_LINE), so CRLF text reads as its LF form, positions
    // included (the CR is the last byte of its line); a lone CR is left to saphyr.
    if text.contains('\r') {
        let lf = text.replace("\r\n", "\n");
        return if lf.contains('\r') { None } else { parse_lf(&lf, first_line, true) };
    }
    parse_lf(text, first_line, false)
}

fn parse_lf(text: &str, first_line: usize, crlf: bool) -> Option<Doc> {
    let ascii = text.is_ascii();
    if !acceptable_characters(text, ascii) {
        return None;
    }
    let lines = lines(text);
    // About two nodes a line (a key and its value): sized once, not grown by copying.
    let nodes = Vec::with_capacity(lines.len() * 2 + 1);
    let mut p = Reader { t: text, b: text.as_bytes(), lines, i: 0, nodes, first_line, ascii, indents: 0, anchors: Vec::new(), crlf };
    p.skip_blank();
    // A leading `---` (nothing else on its line but a comment) starts the document.
    if let Some(l) = p.current() {
        let rest = &p.b[l.start..l.end];
        if l.indent == 0 && rest.starts_with(b"---") {
            let after = trim_spaces_start(&rest[3..]);
            if !is_document_marker(rest) || after.first().is_some_and(|&c| c != b'#') {
                return None;
            }
            p.i += 1;
            p.skip_blank();
            // `---` and nothing: saphyr reads an empty scalar there.
            p.current()?;
        }
    }
    // A document marker further down (`...`, or `---` when the caller did not
    // split there) ends the document for libyaml; leave it to saphyr.
    if p.lines[p.i..].iter().any(|l| l.indent == 0 && is_document_marker(&p.b[l.start..l.end])) {
        return None;
    }
    let root = match p.current() {
        None => None,
        Some(l) => {
            let (li, at) = (p.i, l.start + l.indent);
            if p.is_dash(li) {
                Some(p.sequence(li, l.indent, false)?)
            } else if p.key_at(li, at).is_some() {
                Some(p.mapping(li, at)?)
            } else {
                return None;
            }
        }
    };
    p.skip_blank();
    if p.current().is_some() {
        return None;
    }
    Some(Doc { nodes: p.nodes, root, ..Doc::default() })
}

/// No tab, CR or other control character anywhere, and (for non-ASCII text)
/// only characters libyaml takes as printable and not as line breaks.
fn acceptable_characters(text: &str, ascii: bool) -> bool {
    // Branch-free per block so that it vectorizes.
    let control = |block: &[u8]| block.iter().fold(false, |bad, &c| bad | ((c < 0x20) & (c != b'\n')) | (c == 0x7F));
    let bytes_ok = !text.as_bytes().chunks(64).any(control);
    bytes_ok
        && (ascii
            || text.chars().all(|c| {
                let u = c as u32;
                u < 0x80 || (u >= 0xA0 && !matches!(u, 0x2028 | 0x2029 | 0xFEFF | 0xFFFE | 0xFFFF))
            }))
}

#[derive(Clone, Copy)]
struct Line {
    start: usize,
    /// Byte index of the line's end (its `\n`, or the end of the text).
    end: usize,
    /// Leading spaces.
    indent: usize,
    /// Only spaces.
    blank: bool,
    /// Spaces and a `#` comment.
    comment: bool,
}

fn lines(text: &str) -> Vec<Line> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 24 + 1);
    let mut start = 0;
    while start < b.len() {
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |n| start + n);
        let indent = b[start..end].iter().take_while(|&&c| c == b' ').count();
        let blank = start + indent == end;
        let comment = !blank && b[start + indent] == b'#';
        out.push(Line { start, end, indent, blank, comment });
        start = end + 1;
    }
    out
}

/// A line that starts with `---` or `...` and then a space or its end.
fn is_document_marker(line: &[u8]) -> bool {
    (line.starts_with(b"---") || line.starts_with(b"...")) && matches!(line.get(3), None | Some(b' '))
}

fn trim_spaces_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&c| c == b' ').count();
    &s[n..]
}

/// Where a key ends: its text (without the quotes), whether it is plain, and
/// the byte after its `:`.
struct Key<'a> {
    text: std::borrow::Cow<'a, str>,
    plain: bool,
    after_colon: usize,
}

/// How far [`Reader::quoted_piece`] got on its line.
enum Piece {
    /// The closing quote was found; the byte after it.
    Closed(usize),
    /// The line ended inside the scalar.
    Open,
    /// Something left to saphyr (an escape it must judge).
    Refused,
}

#[derive(Clone, Copy, PartialEq)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

struct Reader<'a> {
    t: &'a str,
    b: &'a [u8],
    lines: Vec<Line>,
    /// The next line to read.
    i: usize,
    nodes: Vec<Node>,
    first_line: usize,
    ascii: bool,
    /// Block collections open (go-yaml's indentation levels; an indentless
    /// sequence adds none). Past go-yaml's limit the saphyr path reports it.
    indents: usize,
    /// Anchors of finished nodes (name, node), latest last: an alias names
    /// the latest node anchored so (libyaml lets a name be anchored again).
    anchors: Vec<(&'a str, usize)>,
    /// The text had CRLF line ends: the saphyr path places block scalars
    /// differently then (see [`Reader::block_scalar`]).
    crlf: bool,
}

impl<'a> Reader<'a> {
    fn current(&self) -> Option<Line> {
        self.lines.get(self.i).copied()
    }

    /// Past blank and comment-only lines.
    fn skip_blank(&mut self) {
        while let Some(l) = self.lines.get(self.i) {
            if !(l.blank || l.comment) {
                break;
            }
            self.i += 1;
        }
    }

    fn pos(&self, li: usize, at: usize) -> Pos {
        let start = self.lines[li].start;
        let column = if self.ascii { at - start } else { self.t[start..at].chars().count() };
        Pos { line: self.first_line + li + 1, column: column + 1 }
    }

    fn push(&mut self, kind: NodeKind, pos: Pos) -> usize {
        self.nodes.push(Node { kind, pos, anchor: None });
        self.nodes.len() - 1
    }

    fn scalar(&mut self, text: String, plain: bool, pos: Pos) -> usize {
        self.push(NodeKind::Scalar { text, tag: None, plain }, pos)
    }

    /// Line `li` starts (after its indentation) a block sequence entry.
    fn is_dash(&self, li: usize) -> bool {
        let l = self.lines[li];
        let at = l.start + l.indent;
        self.b[at] == b'-' && (at + 1 == l.end || self.b[at + 1] == b' ')
    }

    /// The text at `at` on line `li` is a simple key followed by `:`.
    fn key_at(&self, li: usize, at: usize) -> Option<Key<'a>> {
        let end = self.lines[li].end;
        let b = self.b;
        let key = match b[at] {
            b'"' | b'\'' => {
                let (text, after) = self.quoted(at, end)?;
                (after < end && b[after] == b':' && (after + 1 == end || b[after + 1] == b' '))
                    .then_some(Key { text: text.into(), plain: false, after_colon: after + 1 })?
            }
            c => {
                if !plain_start(c, b.get(at + 1).copied()) || c == b'?' || c == b':' {
                    return None;
                }
                let mut j = at;
                loop {
                    if j == end {
                        return None;
                    }
                    match b[j] {
                        b':' if j + 1 == end || b[j + 1] == b' ' => break,
                        b'#' if b[j - 1] == b' ' => return None,
                        _ => j += 1,
                    }
                }
                let text: &'a str = &self.t[at..j];
                Key { text: text.trim_end_matches(' ').into(), plain: true, after_colon: j + 1 }
            }
        };
        (key.after_colon - at <= MAX_SIMPLE_KEY).then_some(key)
    }

    /// A block mapping whose first key is at byte `at` of line `li`; its
    /// indentation is that key's column.
    fn mapping(&mut self, li: usize, at: usize) -> Option<usize> {
        self.open_indent(1)?;
        let indent = at - self.lines[li].start;
        let id = self.push(NodeKind::Map(Vec::new()), self.pos(li, at));
        let mut pairs = Vec::new();
        let (mut li, mut at) = (li, at);
        loop {
            let key = self.key_at(li, at)?;
            let k = self.scalar(key.text.into_owned(), key.plain, self.pos(li, at));
            let v = self.value(li, key.after_colon, indent as isize, true)?;
            pairs.push((k, v));
            self.skip_blank();
            let Some(l) = self.current() else { break };
            if l.indent < indent {
                break;
            }
            if l.indent > indent || self.is_dash(self.i) {
                return None;
            }
            (li, at) = (self.i, l.start + indent);
        }
        self.nodes[id].kind = NodeKind::Map(pairs);
        self.indents -= 1;
        Some(id)
    }

    /// `levels` more indentation levels; `None` past go-yaml's limit.
    fn open_indent(&mut self, levels: usize) -> Option<()> {
        self.indents += levels;
        (self.indents <= super::GO_YAML_MAX_DEPTH).then_some(())
    }

    /// A block sequence whose first `-` is in column `indent` of line `li`.
    /// An indentless one (`key:` then `- a` in the key's column) ends at the
    /// next line in that column that is not an entry.
    fn sequence(&mut self, li: usize, indent: usize, indentless: bool) -> Option<usize> {
        let levels = usize::from(!indentless);
        self.open_indent(levels)?;
        let dash = self.lines[li].start + indent;
        let id = self.push(NodeKind::Seq(Vec::new()), self.pos(li, dash));
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            let Some(l) = self.current() else { break };
            if l.indent < indent {
                break;
            }
            if l.indent > indent {
                return None;
            }
            let li = self.i;
            if !self.is_dash(li) {
                if indentless {
                    break;
                }
                return None;
            }
            let dash = l.start + indent;
            let mut j = dash + 1;
            while j < l.end && self.b[j] == b' ' {
                j += 1;
            }
            let item = if j == l.end || self.b[j] == b'#' {
                self.i = li + 1;
                self.next_lines_value(indent as isize, false, li, l.end + 1)?
            } else if self.b[j] == b'-' && (j + 1 == l.end || self.b[j + 1] == b' ') {
                return None;
            } else if self.b[j] == b'&' {
                // `- &a` with the node on the next lines: the saphyr path
                // anchors the sequence there; left to it.
                self.anchored(li, j, indent as isize, None)?
            } else if self.key_at(li, j).is_some() {
                self.mapping(li, j)?
            } else {
                self.inline(li, j, indent as isize)?
            };
            items.push(item);
        }
        self.nodes[id].kind = NodeKind::Seq(items);
        self.indents -= levels;
        Some(id)
    }

    /// The value after a key's `:` (byte `from` of line `li`), in a mapping
    /// indented `parent`.
    fn value(&mut self, li: usize, from: usize, parent: isize, indentless_ok: bool) -> Option<usize> {
        let end = self.lines[li].end;
        let mut j = from;
        while j < end && self.b[j] == b' ' {
            j += 1;
        }
        if j == end || self.b[j] == b'#' {
            self.i = li + 1;
            return self.next_lines_value(parent, indentless_ok, li, from);
        }
        if self.b[j] == b'&' {
            return self.anchored(li, j, parent, Some(indentless_ok));
        }
        self.inline(li, j, parent)
    }

    /// `&name` at byte `j` of line `li` and the node it anchors (on this
    /// line, or on the next ones when `next_lines` says whether an
    /// indentless sequence may follow); the node's position is the anchor's,
    /// as libyaml's node start is.
    fn anchored(&mut self, li: usize, j: usize, parent: isize, next_lines: Option<bool>) -> Option<usize> {
        let end = self.lines[li].end;
        let name_end = anchor_name_end(self.b, j + 1, end)?;
        let name: &'a str = &self.t[j + 1..name_end];
        let mut k = name_end;
        while k < end && self.b[k] == b' ' {
            k += 1;
        }
        let id = if k == end || self.b[k] == b'#' {
            self.i = li + 1;
            let id = self.next_lines_value(parent, next_lines?, li, name_end)?;
            // `key: &a` and nothing: an empty scalar saphyr places elsewhere.
            if matches!(&self.nodes[id].kind, NodeKind::Scalar { text, plain: true, .. } if text.is_empty()) {
                return None;
            }
            id
        } else {
            // `&a k: v` anchors the key; `&a &b`, `&a *b`, `&a !t`: saphyr's.
            if matches!(self.b[k], b'&' | b'*' | b'!') || self.key_at(li, k).is_some() {
                return None;
            }
            self.inline(li, k, parent)?
        };
        self.nodes[id].pos = self.pos(li, j);
        self.nodes[id].anchor = Some(name.to_string());
        self.anchors.push((name, id));
        Some(id)
    }

    /// `*name` at byte `j` of line `li`, alone on its line: an alias of a
    /// finished anchored node (anything else is saphyr's to report).
    fn alias(&mut self, li: usize, j: usize) -> Option<usize> {
        let end = self.lines[li].end;
        let name_end = anchor_name_end(self.b, j + 1, end)?;
        self.line_ends_after(li, name_end)?;
        let name = &self.t[j + 1..name_end];
        let &(_, target) = self.anchors.iter().rev().find(|(n, _)| *n == name)?;
        let pos = self.pos(li, j);
        self.i = li + 1;
        Some(self.push(NodeKind::Alias { target, name: name.to_string() }, pos))
    }

    /// A value that starts on the lines after line `li` (whose text ended at
    /// byte `after`): a nested block collection, or an empty scalar.
    fn next_lines_value(&mut self, parent: isize, indentless_ok: bool, li: usize, after: usize) -> Option<usize> {
        self.skip_blank();
        if let Some(l) = self.current() {
            let next = self.i;
            if l.indent as isize > parent {
                if self.is_dash(next) {
                    return self.sequence(next, l.indent, false);
                }
                if self.key_at(next, l.start + l.indent).is_some() {
                    return self.mapping(next, l.start + l.indent);
                }
                // A one-line flow collection on the next line (`key:\n  {}`,
                // which `toYaml ... | nindent` prints for an empty map) is
                // read as on the key's line; its position is where it is written.
                let j = l.start + l.indent;
                if matches!(self.b[j], b'{' | b'[') {
                    return self.inline(next, j, parent);
                }
                // A scalar on the next line (`key:\n  value`).
                return None;
            }
            if indentless_ok && l.indent as isize == parent && self.is_dash(next) {
                return self.sequence(next, l.indent, true);
            }
        }
        Some(self.empty_scalar(li, after))
    }

    /// saphyr's empty scalar for a value left out.
    fn empty_scalar(&mut self, li: usize, after: usize) -> usize {
        let pos = self.pos(li, after - 1);
        self.scalar(String::new(), true, pos)
    }

    /// A value written on its own line from byte `j` of line `li`, in a
    /// collection indented `parent`.
    fn inline(&mut self, li: usize, j: usize, parent: isize) -> Option<usize> {
        let end = self.lines[li].end;
        let b = self.b;
        let id = match b[j] {
            b'"' | b'\'' => {
                let (text, close, after) = self.quoted_lines(li, j, parent)?;
                self.line_ends_after(close, after)?;
                let pos = self.pos(li, j);
                self.i = close + 1;
                self.scalar(text, false, pos)
            }
            b'|' | b'>' => return self.block_scalar(li, j, parent),
            b'[' => {
                let id = self.flow_sequence(li, j)?;
                self.i = li + 1;
                id
            }
            b'{' => {
                let id = self.flow_mapping(li, j)?;
                self.i = li + 1;
                id
            }
            b'*' => return self.alias(li, j),
            c if !plain_start(c, b.get(j + 1).copied()) || c == b'?' || c == b':' => return None,
            _ => {
                let mut k = j;
                while k < end {
                    match b[k] {
                        b':' if k + 1 == end || b[k + 1] == b' ' => return None,
                        b'#' if b[k - 1] == b' ' => break,
                        _ => k += 1,
                    }
                }
                let mut text = self.t[j..k].trim_end_matches(' ').to_string();
                let pos = self.pos(li, j);
                self.i = self.plain_continuation(li + 1, parent, k < end, &mut text)?;
                self.scalar(text, true, pos)
            }
        };
        Some(id)
    }

    /// The lines from `from` that continue a plain scalar (more indented
    /// than `parent`, not comments), folded onto `text` as libyaml's
    /// `yaml_parser_scan_plain_scalar` does: one line break becomes a space,
    /// each blank line a `\n`. Returns the next line to read. Continuation
    /// lines that start with an indicator or hold `: ` or ` #`, and any
    /// after a first line that ended in a comment, are left to saphyr.
    fn plain_continuation(&self, from: usize, parent: isize, commented: bool, text: &mut String) -> Option<usize> {
        let b = self.b;
        let mut n = from;
        loop {
            let mut m = n;
            while m < self.lines.len() && self.lines[m].blank {
                m += 1;
            }
            let Some(l) = self.lines.get(m) else { return Some(n) };
            if l.comment || l.indent as isize <= parent {
                return Some(n);
            }
            let at = l.start + l.indent;
            // A quote or backtick cannot start a plain scalar but may start
            // a later line of one (YAML 1.2 ns-plain-char; prose in CRD
            // descriptions often wraps before `'Value'` or `` `Kind` ``).
            let continues = matches!(b[at], b'\'' | b'"' | b'`') || plain_start(b[at], b.get(at + 1).copied());
            if commented || !continues || matches!(b[at], b'-' | b'?' | b':') {
                return None;
            }
            for e in at..l.end {
                if (b[e] == b':' && (e + 1 == l.end || b[e + 1] == b' ')) || (b[e] == b'#' && b[e - 1] == b' ') {
                    return None;
                }
            }
            if m == n {
                text.push(' ');
            } else {
                push_newlines(text, m - n);
            }
            text.push_str(self.t[at..l.end].trim_end_matches(' '));
            n = m + 1;
        }
    }

    /// Only spaces and a comment after byte `at` of line `li`.
    fn line_ends_after(&self, li: usize, at: usize) -> Option<()> {
        let end = self.lines[li].end;
        let mut k = at;
        while k < end && self.b[k] == b' ' {
            k += 1;
        }
        (k == end || (self.b[k] == b'#' && k > at)).then_some(())
    }

    /// A quoted scalar that starts and ends on this line: its text and the
    /// byte after the closing quote.
    fn quoted(&self, at: usize, end: usize) -> Option<(String, usize)> {
        let mut out = String::new();
        match self.quoted_piece(self.b[at], at + 1, end, &mut out) {
            Piece::Closed(after) => Some((out, after)),
            Piece::Open | Piece::Refused => None,
        }
    }

    /// The text of a quoted scalar (quote `q`) from byte `from` up to its
    /// closing quote or the line's `end`, appended to `out`. At the line's
    /// end the spaces before it are dropped (libyaml folds them away).
    fn quoted_piece(&self, q: u8, from: usize, end: usize, out: &mut String) -> Piece {
        let b = self.b;
        let mut k = from;
        let mut run = k;
        loop {
            if k >= end {
                out.push_str(self.t[run..end].trim_end_matches(' '));
                return Piece::Open;
            }
            match b[k] {
                c if c == q => {
                    if q == b'\'' && b.get(k + 1) == Some(&b'\'') {
                        out.push_str(&self.t[run..=k]);
                        k += 2;
                        run = k;
                        continue;
                    }
                    out.push_str(&self.t[run..k]);
                    return Piece::Closed(k + 1);
                }
                b'\\' if q == b'"' => {
                    out.push_str(&self.t[run..k]);
                    // An escaped line break (`\` last): left to saphyr.
                    let Some(&e) = b.get(k + 1).filter(|_| k + 1 < end) else { return Piece::Refused };
                    let simple = match e {
                        b'\\' => Some('\\'),
                        b'"' => Some('"'),
                        b'n' => Some('\n'),
                        b't' => Some('\t'),
                        b'r' => Some('\r'),
                        b'0' => Some('\0'),
                        b'a' => Some('\u{07}'),
                        b'b' => Some('\u{08}'),
                        b'e' => Some('\u{1B}'),
                        b'f' => Some('\u{0C}'),
                        b'v' => Some('\u{0B}'),
                        b' ' => Some(' '),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{A0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(c) = simple {
                        out.push(c);
                        k += 2;
                    } else {
                        let digits = match e {
                            b'x' => 2,
                            b'u' => 4,
                            b'U' => 8,
                            _ => return Piece::Refused,
                        };
                        let Some(hex) = self.t.get(k + 2..k + 2 + digits).filter(|_| k + 2 + digits <= end) else { return Piece::Refused };
                        let Some(c) = u32::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|c| c.is_ascii_hexdigit())).and_then(char::from_u32) else {
                            return Piece::Refused;
                        };
                        out.push(c);
                        k += 2 + digits;
                    }
                    run = k;
                }
                _ => k += 1,
            }
        }
    }

    /// A quoted scalar at byte `j` of line `li` that may go on over the next
    /// lines (each more indented than `parent`), folded as libyaml's
    /// `yaml_parser_scan_flow_scalar` does: one line break becomes a space,
    /// each blank line a `\n`, the spaces around a break dropped. Its text,
    /// the line it closes on and the byte after the closing quote.
    fn quoted_lines(&self, li: usize, j: usize, parent: isize) -> Option<(String, usize, usize)> {
        let q = self.b[j];
        let mut out = String::new();
        let (mut line, mut from) = (li, j + 1);
        loop {
            match self.quoted_piece(q, from, self.lines[line].end, &mut out) {
                Piece::Closed(after) => return Some((out, line, after)),
                Piece::Refused => return None,
                Piece::Open => {
                    let mut m = line + 1;
                    while m < self.lines.len() && self.lines[m].blank {
                        m += 1;
                    }
                    let l = self.lines.get(m)?;
                    if l.indent as isize <= parent {
                        return None;
                    }
                    if m == line + 1 {
                        out.push(' ');
                    } else {
                        push_newlines(&mut out, m - line - 1);
                    }
                    (line, from) = (m, l.start + l.indent);
                }
            }
        }
    }

    /// A literal or folded block scalar whose header is at byte `j` of line
    /// `li`, in a collection indented `parent`; libyaml's
    /// `yaml_parser_scan_block_scalar`.
    fn block_scalar(&mut self, li: usize, j: usize, parent: isize) -> Option<usize> {
        let b = self.b;
        let end = self.lines[li].end;
        let literal = b[j] == b'|';
        let mut k = j + 1;
        // An indentation indicator 1-9 before or after the chomping one
        // (`|2-`, `|-2`), as libyaml takes it.
        let digit = |k: usize| (k < end && matches!(b[k], b'1'..=b'9')).then(|| usize::from(b[k] - b'0'));
        let mut explicit = digit(k);
        k += usize::from(explicit.is_some());
        let chomp = match b.get(k).filter(|_| k < end) {
            Some(b'-') => {
                k += 1;
                Chomp::Strip
            }
            Some(b'+') => {
                k += 1;
                Chomp::Keep
            }
            _ => Chomp::Clip,
        };
        if explicit.is_none() {
            explicit = digit(k);
            k += usize::from(explicit.is_some());
        }
        if k < end && b[k].is_ascii_digit() {
            return None;
        }
        if k < end && b[k] != b' ' {
            return None;
        }
        self.line_ends_after(li, k)?;
        let mut header = self.pos(li, j);
        let commented = b[k..end].contains(&b'#');

        // Leading blank lines, then the first line with text sets the indentation.
        let mut n = li + 1;
        let mut max_blank = 0;
        let mut leading_breaks = 0usize;
        while n < self.lines.len() && self.lines[n].blank {
            if self.lines[n].end == self.b.len() {
                return None;
            }
            max_blank = max_blank.max(self.lines[n].end - self.lines[n].start);
            leading_breaks += 1;
            n += 1;
        }
        let min_indent = (parent + 1).max(1) as usize;
        let first = self.lines.get(n).copied();
        let content_indent = first.map(|l| l.indent);
        let indent = match explicit {
            // libyaml: the block's indentation plus the indicator. Leading
            // blank lines longer than that, or a first line indented less,
            // are left to saphyr.
            Some(d) => {
                let indent = if parent >= 0 { parent as usize + d } else { d };
                if max_blank > indent || content_indent.is_some_and(|c| c < indent) {
                    return None;
                }
                indent
            }
            None => {
                if max_blank > content_indent.unwrap_or(0) {
                    return None;
                }
                max_blank.max(content_indent.unwrap_or(0)).max(min_indent)
            }
        };
        if self.crlf && !commented {
            // With CR LF line breaks the saphyr path places a block scalar
            // (one without a comment after its header) where the
            // indentation of its first non-blank line ends.
            let l = first?;
            header = Pos { line: self.first_line + n + 1, column: l.indent.min(indent) + 1 };
        }
        let mut text = String::new();
        match first {
            Some(l) if l.indent >= indent => {
                let mut trailing_breaks = leading_breaks;
                let mut leading_blank = false;
                let mut n_line = n;
                loop {
                    // Every line but the first follows the line break of the one before.
                    let leading_break = n_line != n;
                    let l = self.lines[n_line];
                    let rest = &self.t[l.start + indent..l.end];
                    let trailing_blank = rest.starts_with(' ');
                    if !literal && leading_break && !leading_blank && !trailing_blank {
                        if trailing_breaks == 0 {
                            text.push(' ');
                        }
                    } else if leading_break {
                        text.push('\n');
                    }
                    push_newlines(&mut text, trailing_breaks);
                    trailing_breaks = 0;
                    leading_blank = rest.starts_with(' ');
                    text.push_str(rest);
                    if l.end == self.b.len() {
                        // The text ends without a line break (a values file's
                        // documents from the splitter always end with one; a
                        // manifest's do not). Stripped, there is nothing to
                        // chomp; kept or clipped, saphyr and libyaml differ.
                        if chomp != Chomp::Strip {
                            return None;
                        }
                        n_line += 1;
                        break;
                    }
                    n_line += 1;
                    // Lines with no more than the indentation are line breaks.
                    while let Some(l) = self.lines.get(n_line) {
                        if l.blank && l.end == self.b.len() {
                            return None;
                        }
                        if l.blank && l.end - l.start <= indent {
                            trailing_breaks += 1;
                            n_line += 1;
                        } else {
                            break;
                        }
                    }
                    match self.lines.get(n_line) {
                        Some(l) if l.indent >= indent => {}
                        _ => break,
                    }
                }
                // The last line's break (every line here has one).
                if chomp != Chomp::Strip {
                    text.push('\n');
                }
                if chomp == Chomp::Keep {
                    push_newlines(&mut text, trailing_breaks);
                }
                self.i = n_line;
            }
            _ => {
                // No line with text: only line breaks, which keep would keep.
                // (At the end of the text saphyr's header position is off; leave it.)
                if chomp == Chomp::Keep || first.is_none() {
                    return None;
                }
                self.i = n;
            }
        }
        Some(self.scalar(text, false, header))
    }

    /// A flow sequence of scalars on one line, `[` at byte `j` of line `li`.
    fn flow_sequence(&mut self, li: usize, j: usize) -> Option<usize> {
        let end = self.lines[li].end;
        let b = self.b;
        let id = self.push(NodeKind::Seq(Vec::new()), self.pos(li, j));
        let mut items = Vec::new();
        let mut k = j + 1;
        let skip = |mut k: usize| {
            while k < end && b[k] == b' ' {
                k += 1;
            }
            k
        };
        k = skip(k);
        if k < end && b[k] == b']' {
            k += 1;
        } else {
            loop {
                if k >= end {
                    return None;
                }
                let pos = self.pos(li, k);
                let (text, plain, after) = self.flow_scalar(k, end, b']', false)?;
                items.push(self.scalar(text, plain, pos));
                k = skip(after);
                match b.get(k).filter(|_| k < end) {
                    Some(b']') => {
                        k += 1;
                        break;
                    }
                    Some(b',') => {
                        k = skip(k + 1);
                        // `[a, ]`: leave the trailing comma to saphyr.
                        if k >= end || b[k] == b']' {
                            return None;
                        }
                    }
                    _ => return None,
                }
            }
        }
        self.line_ends_after(li, k)?;
        self.nodes[id].kind = NodeKind::Seq(items);
        Some(id)
    }
}

impl Reader<'_> {
    /// One scalar of a one-line flow collection at byte `k` (before `end`):
    /// quoted, or plain up to a `,`, the `close` bracket or (a `key`) its
    /// `:`; the text, whether plain, and the byte after it. Plain text with
    /// any other indicator in it is left to saphyr.
    fn flow_scalar(&self, k: usize, end: usize, close: u8, key: bool) -> Option<(String, bool, usize)> {
        let b = self.b;
        match b[k] {
            b'"' | b'\'' => {
                let (text, after) = self.quoted(k, end)?;
                Some((text, false, after))
            }
            c if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'/') || (c == b'-' && b.get(k + 1).is_some_and(|n| n.is_ascii_alphanumeric())) => {
                let mut e = k;
                while e < end && !(b[e] == b',' || b[e] == close || (key && b[e] == b':')) {
                    if matches!(b[e], b'[' | b']' | b'{' | b'}' | b':' | b'#' | b'?' | b'"' | b'\'') {
                        return None;
                    }
                    e += 1;
                }
                Some((self.t[k..e].trim_end_matches(' ').to_string(), true, e))
            }
            _ => None,
        }
    }

    /// A flow mapping of scalars on one line (`{}`, `{a: 1, "b": "x y"}`),
    /// `{` at byte `j` of line `li`; keys are followed by `: ` directly.
    fn flow_mapping(&mut self, li: usize, j: usize) -> Option<usize> {
        let end = self.lines[li].end;
        let b = self.b;
        let skip = |mut k: usize| {
            while k < end && b[k] == b' ' {
                k += 1;
            }
            k
        };
        let id = self.push(NodeKind::Map(Vec::new()), self.pos(li, j));
        let mut pairs = Vec::new();
        let mut k = skip(j + 1);
        if k < end && b[k] == b'}' {
            k += 1;
        } else {
            loop {
                if k >= end {
                    return None;
                }
                let key_pos = self.pos(li, k);
                let (key, key_plain, after) = self.flow_scalar(k, end, b'}', true)?;
                // `a : 1` and `"a":1`: saphyr's.
                if after >= end || b[after] != b':' || b.get(after + 1) != Some(&b' ') || b[after - 1] == b' ' {
                    return None;
                }
                let v = skip(after + 1);
                if v >= end {
                    return None;
                }
                let value_pos = self.pos(li, v);
                let (value, value_plain, after) = self.flow_scalar(v, end, b'}', false)?;
                let key = self.scalar(key, key_plain, key_pos);
                let value = self.scalar(value, value_plain, value_pos);
                pairs.push((key, value));
                k = skip(after);
                match b.get(k).filter(|_| k < end) {
                    Some(b'}') => {
                        k += 1;
                        break;
                    }
                    Some(b',') => {
                        k = skip(k + 1);
                        // `{a: 1, }`: leave the trailing comma to saphyr.
                        if k >= end || b[k] == b'}' {
                            return None;
                        }
                    }
                    _ => return None,
                }
            }
        }
        self.line_ends_after(li, k)?;
        self.nodes[id].kind = NodeKind::Map(pairs);
        Some(id)
    }
}

fn push_newlines(s: &mut String, n: usize) {
    for _ in 0..n {
        s.push('\n');
    }
}

/// The end of the anchor or alias name starting at byte `from`: libyaml's
/// name characters (`[0-9A-Za-z_-]`, scanner.c yaml_parser_scan_anchor),
/// at least one, then a space or the line's end (anything else is an error
/// there, left to saphyr).
fn anchor_name_end(b: &[u8], from: usize, end: usize) -> Option<usize> {
    let mut k = from;
    while k < end && (b[k].is_ascii_alphanumeric() || matches!(b[k], b'_' | b'-')) {
        k += 1;
    }
    (k > from && (k == end || b[k] == b' ')).then_some(k)
}

/// libyaml starts a plain scalar at `c` (followed by `next`) in block context.
fn plain_start(c: u8, next: Option<u8>) -> bool {
    match c {
        b'-' => next.is_some_and(|n| n != b' ' && n != b'\n'),
        b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b' ' => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_document_with_saphyr;
    use super::super::reader;
    use super::*;

    /// When the fast reader takes `text`, its document is saphyr's.
    fn agrees(text: &str, first_line: usize) -> bool {
        let Some(fast) = parse(text, first_line) else { return false };
        match parse_document_with_saphyr(text, first_line) {
            Ok(slow) => {
                if fast != slow {
                    let i = (0..fast.nodes.len().max(slow.nodes.len())).find(|&i| fast.nodes.get(i) != slow.nodes.get(i));
                    let show = |d: &Doc| i.map(|i| format!("{:?}", d.nodes.get(i))).unwrap_or_else(|| format!("root {:?}", d.root));
                    panic!("fast reader differs at node {i:?}: fast {} saphyr {}\non:\n{}", show(&fast), show(&slow), text.chars().take(3000).collect::<String>());
                }
            }
            Err(e) => panic!("fast reader took a document saphyr refuses ({e:?}):\n{text}"),
        }
        true
    }

    fn takes(text: &str) {
        assert!(agrees(text, 0), "the fast reader should take:\n{text}");
    }

    fn declines(text: &str) {
        assert!(parse(text, 0).is_none(), "the fast reader should leave to saphyr:\n{text}");
    }

    #[test]
    fn block_mappings_and_sequences_read_as_saphyr_reads_them() {
        takes("a: 1\nb: two words # c\nc:\n  d: x\n  e:\n    f: \"q\"\n");
        takes("list:\n- a\n- b: 1\n  c: 2\n-\n  d: 3\n- - x\n".split("- - x\n").next().unwrap_or_default());
        takes("list:\n  - a\n  -   b: 1\n      c: 2\n  - 'it''s'\nnext: 1\n");
        takes("a:\n  - x\n  - y:\n    - z\n");
        takes("# only a comment\n\n");
        takes("");
        takes("---\na: 1\n");
        takes("--- # comment\na: 1\n");
        takes("  a: 1\n  b: 2\n");
        takes("- a\n- b\n");
        takes("a: -1\nb: --flag\nc: a:b\nd: http://x/y#frag\ne: ends with colon: no\n".split("e:").next().unwrap_or_default());
        takes("\"quoted key\": 1\n'single': 2\nk y: 3\nk : 4\n");
        takes("a: \"esc \\\" \\\\ \\n \\t \\x41 \\u00e9 \\U0001F600 \\e \\N \\_ \\L \\P \\0 \\a \\b \\f \\v \\ \"\n");
        takes("a:\nb: \nc:   # comment\nd: 1\n");
        takes("l:\n-\n- # c\n- x\n");
        takes("clé: héllo\n名前: x\nz: 'ü'\n");
        takes("a: []\nb: {}\nc: [x, y z, \"q\", 'r', -1, 1.5]\nd: [ a ]\ne: [__name__, le] # c\n");
        takes("a: b\n\n\n# c\n   # c2\nc: d\n");
    }

    /// An indentless sequence whose first entry is a flow collection or an
    /// empty entry with a comment is a block sequence at its `-` (found by
    /// review: the saphyr path took it for a flow sequence, misplaced it, and
    /// then refused a later `?` as if inside flow).
    #[test]
    fn indentless_sequences_starting_with_flow_or_comment_entries() {
        takes("k:\n- []\n");
        takes("k:\n- {}\n");
        takes("a:\n- # c\n");
        takes("k:\n-  # c\n");
        takes("- k:  # c\n  - # x\n  - y\n");
        takes("k:\n- []\n- a?b\n");
        takes("k:\n- {}\n- x: a?b\n");
        takes("a:\n- [a]\n  # c\n- x?y: 1\n");
        takes("k:\n  - [a]\n  - [b, c]\nl:\n- [d]\n- e\n");
    }

    #[test]
    fn empty_values_sit_where_saphyr_puts_them() {
        takes("a:\nb: 1\n");
        takes("a:   \nb: 1\n");
        takes("a: # c\nb: 1\n");
        takes("a:\n");
        takes("a:\n  b:\n");
        takes("a:\n  b:\nc: 1\n");
        takes("- \n- a\n");
        takes("-\n");
        takes("- a:\n  b:\n- c\n");
        takes("a:\n\n\n# x\nb: 1\n");
    }

    #[test]
    fn block_scalars_read_as_libyaml_reads_them() {
        for header in ["|", "|-", "|+", ">", ">-", ">+"] {
            takes(&format!("a: {header}\n  one\n  two\n\n  three\n\n\nb: 1\n"));
            takes(&format!("a: {header}\n\n  lead\n    more\n  back\n   x\n  y\nb: 1\n"));
            takes(&format!("a: {header} # c\n  one\n    \n  two\n"));
            takes(&format!("l:\n- {header}\n  x\n  y\n- k: {header}\n    z\n  j: 1\n"));
            if header.ends_with('-') {
                takes(&format!("a: {header}\n  last line\n  without break"));
            } else {
                declines(&format!("a: {header}\n  last line without break"));
            }
            takes(&format!("a: {header}\n  # not a comment\n # ends\nb: 1\n"));
            takes(&format!("a:\n  b: {header}\n      deep\n      deeper\n  c: 1\n"));
        }
        takes("a: |\nb: 1\n");
        for header in ["|2", "|1-", "|-2", ">2+", ">+1"] {
            takes(&format!("a: {header}\n    more\n  less\n\n   x\nb:\n  c: {header}\n      x\n     y\nl:\n- {header}\n    z\n"));
        }
        // keys holding `|`/`>` before the real header (found by review)
        takes("a|#b: |\n  x\n");
        takes("\"a| #b\": |\n  x\n");
        takes("'|#': >\n  x\n");
        takes("a>#: >-\n  x\n");
        takes("- a|#: |\n    x\n");
        takes("a: >-\n\nb: 1\n");
    }

    #[test]
    fn a_plain_scalar_goes_on_over_lines_that_start_with_a_quote_or_backtick() {
        takes("description: cloud defines the Azure Cloud. Options are\n  'AzurePublic', 'AzureChina', or 'AzureGovernment'.\nenum: [a]\n");
        takes("a:\n  d: selects the Kubernetes\n    `Pod` objects\n    \"quoted\" words, and 'more'\n  e: 1\n");
        takes("- x\n  'y'\n- z\n");
    }

    #[test]
    fn a_flow_collection_on_the_line_after_its_key_reads_as_saphyr_reads_it() {
        takes("a:\n  {}\nb:\n    [1, \"x\"]\nc:\n  d:\n    {e: f}\n  g: 1\nl:\n- k:\n    []\n");
        takes("a: # c\n  {}\n\nb: 1\n");
        declines("a:\n  {}\n  b: 1\n");
        declines("a:\n  [1,\n   2]\n");
    }

    #[test]
    fn anchors_aliases_merges_flow_mappings_and_crlf_read_as_saphyr_reads_them() {
        takes("a: &x 1\nb: *x\n");
        takes("base: &b\n  x: 1\n  y: [1, 2]\ncopy: *b\nm:\n  <<: *b\n  z: 2\n");
        takes("i: &i\n  k: v\nl:\n- *i\n- &s 'q'\n- *s # c\n");
        declines("l:\n- &i\n  k: v\n");
        takes("a: &x-1_y |\n  text\nb: *x-1_y\nc: &x 2\nd: *x\n");
        takes("seq: &s\n- a\n- b\nother: *s\n");
        takes("a: plain\n  continued\n\n   after a blank\n\n\n  two\nb: 1\n- x\n".split("- x").next().unwrap_or_default());
        takes("l:\n- one\n  two\n- k: three\n    four\n  j: x\n    y\nz: end\n   more\n\n# c\n");
        takes("a: \"two  \n   lines\"\nb: 'x\n\n\n  y # not a comment\n  z'\nc: \"\\t \n  \\u00e9\" # c\n- x".split("- x").next().unwrap_or_default());
        takes("l:\n- \"a\n  b\"\n- k: 'c\n    d'\n");
        takes("a: {b: 1, \"c\": 'd', e: \"{{ .Release.Name }}\", f: x y}\nb: {}\nc: { a: 1 }\n");
        takes("- {name: web, port: 80}\n- k: {a: \"\"}\n");
        takes("a: 1\r\nb:\r\n  c: 'x'\r\n  d: [1, 2]\r\n  e: {f: g}\r\n  h:\r\n# c\r\ni: 2\r\n");
        for t in ["a: |\r\n  x\r\n", "a: |\r\n\r\n  x\r\n", "a: >-\r\n    x\r\n    y\r\nb: 1\r\n", "a: |\r\nb: 1\r\n", "a: | # c\r\n  x\r\n", "- |\r\n  x\r\n", "a: |2\r\n    x\r\n", "a: |\r\n\r\n\r\n   x\r\n"] {
            takes(t);
        }
    }

    #[test]
    fn what_is_outside_the_subset_is_left_to_saphyr() {
        declines("a: &x\nb: *x\n");
        declines("a: *undefined\n");
        declines("a: &x &y 1\n");
        declines("- &x k: v\n");
        declines("a: 1\rb: 2\n");
        declines("a: !!str 1\n");
        declines("a:\tb\n");
        declines("a: plain # c\n  continued\n");
        declines("a: plain\n  - continued\n");
        declines("a: plain\n  b: c\n");
        declines("a: \"escaped \\\n  break\"\n");
        declines("a: \"two\nlines\"\n");
        declines("a:\n  value on next line\n");
        declines("a: {b: {c: 1}}\n");
        declines("a: {b : 1}\n");
        declines("a: {b: 1, }\n");
        declines("a: {b:1}\n");
        declines("a: [x, [y]]\n");
        declines("a: [x,\n  y]\n");
        declines("? complex\n: key\n");
        declines("a: |0\n   x\n");
        declines("a: |10\n   x\n");
        declines("a: b: c\n");
        declines("a: 1\n...\n");
        // (found by review: these were read as keys `... b` and `--- b`)
        declines("a: 1\n... b: 2\n");
        declines("... b: 2\n");
        declines("a: |\n  x\n... c: 1\n");
        declines("a: 1\n--- b: 2\n");
        declines("a:\n  b: 1\n---\n");
        declines("a: 1\n b: 2\n");
        declines("plain scalar document\n");
        declines("a: \"\\/\"\n");
        declines("a: \"\\'\"\n");
        declines("a: x\u{85}y\n");
        declines("\u{FEFF}a: 1\n");
        declines("a: @x\n");
        declines("a: `x`\n");
        declines(&format!("{}: 1\n", "k".repeat(1100)));
    }

    #[test]
    fn refused_text_is_never_taken() {
        // Each of these is an error for libyaml; the fast reader must decline so that
        // saphyr reports it with libyaml's words.
        for bad in ["a: 1\n  - b\n", "a:\n  b: 1\n c: 2\n", "- a\nb: 1\n", "a: - b\n", "a: \"x\" y\n", "a: [x\n", "a: x: y\n", "a: 'x\n", "a: |x\n  y\n"] {
            assert!(parse(bad, 0).is_none() || parse_document_with_saphyr(bad, 0).is_ok(), "{bad:?}");
            agrees(bad, 0);
        }
    }

    /// Every document of every bundled YAML file, and every line-aligned
    /// tail of the large ones: where the fast reader answers, it answers
    /// what saphyr does; and it takes the large corpus files whole.
    #[test]
    fn every_bundled_yaml_document_reads_as_saphyr_reads_it() {
        let files = super::super::bundled_test_files(super::super::is_yaml_file);
        assert!(files.len() > 50, "found {} files", files.len());
        let (mut taken, mut total) = (0, 0);
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else { continue };
            let Ok(split) = reader::split_documents(&text) else { continue };
            for c in &split.chunks {
                total += 1;
                if agrees(&c.text, c.first_line) {
                    taken += 1;
                }
            }
        }
        assert!(taken * 10 >= total * 7, "the fast reader took only {taken} of {total} documents");
        for name in ["kube-prometheus-stack/charts/grafana/values.yaml", "kube-prometheus-stack/charts/kube-state-metrics/values.yaml"] {
            let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus").join(name)).expect("corpus file");
            assert!(agrees(&text, 0), "the fast reader should take {name}");
        }
    }

    /// Seeded random block documents built from the constructs the reader
    /// takes, plus some it must decline, compared with saphyr (`FAST_SEED=N`
    /// runs another sequence; 40 of them were run when this was written).
    #[test]
    fn generated_documents_read_as_saphyr_reads_them() {
        let mut seed: u64 = std::env::var("FAST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x9E37_79B9_7F4A_7C15);
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        const SCALARS: &[&str] = &[
            "x", "two words", "-1", "1.5e3", "yes", "~", "null", "'q'", "\"d\\tq\"", "'it''s'", "a:b", "http://h:80/p", "|", "|-", ">", ">+",
            "[]", "{}", "[a, b]", "[\"x\", 'y']", "", "# c", "x # c", "é", "\"\\u263A\"", "a#b", "\"a: b # c\"", "'#'", "trailing   ",
            "[\"a,b\", c d]", "[ -1 , 2.5 ]", "--flag=x", "\"\"", "''", "0777", "a \"quoted\" word", "{ }", "[a,]", "\"\\/\"", "&a x", "*a",
            "!t x", "x: y", "\"unterminated", "[a, [b]]", "{a: 1}", "- x", "? x", "@x", "%x",
            "{a: \"x\", 'b': c d}", "{ k: 1 }", "{a: {b: 1}}", "{a:1}", "{a: 1, }", "&a1 x", "&a1 'q'", "*a1", "&a1", "*nope",
            "[\"{{ .Values.x }}\", \"\"]", "{k: \"{{ .Release.Name }}\"}", "first\n    continued", "first\n\n      after blank",
            "first\n  - not an item", "a\n      b: c", "a # c\n      b",
            "\"two\n      lines\"", "'x\n\n      y'", "|2", ">1-", "|-3", "\"a \\\n      b\"", "\"open\nclosed\"",
        ];
        const KEYS: &[&str] = &["k", "\"quoted key\"", "'single'", "a.b", "x-y_z", "名前", "k y", "yes", "1", "<<", "-k", "k ", "\"\"", "k#1", "... k", "--- k", "...k"];
        fn generate(next: &mut dyn FnMut(u64) -> u64, indent: usize, depth: usize, out: &mut String) {
            let pad = " ".repeat(indent);
            let seq = next(3) == 0;
            for i in 0..1 + next(4) {
                if next(6) == 0 {
                    out.push('\n');
                }
                if next(8) == 0 {
                    out.push_str(&format!("{}# note\n", " ".repeat(next(6) as usize)));
                }
                let lead = if seq { format!("{pad}-{}", " ".repeat(1 + next(2) as usize)) } else { format!("{pad}{}{i}: ", KEYS[next(KEYS.len() as u64) as usize]) };
                if depth < 3 && next(3) == 0 {
                    // nested collection on the next lines (or compact in a sequence)
                    if seq && next(2) == 0 {
                        let inner = lead.len();
                        let mut body = String::new();
                        generate(next, inner, depth + 1, &mut body);
                        let body = body.trim_start_matches(' ').to_string();
                        if body.starts_with('-') || body.starts_with('#') || body.starts_with('\n') {
                            out.push_str(&format!("{pad}-\n"));
                            generate(next, indent + 2, depth + 1, out);
                        } else {
                            out.push_str(&format!("{lead}{body}"));
                        }
                    } else {
                        out.push_str(lead.trim_end());
                        out.push('\n');
                        let step = if !seq && next(4) == 0 { 0 } else { 1 + next(4) as usize };
                        if step == 0 {
                            // indentless sequence
                            for _ in 0..1 + next(3) {
                                out.push_str(&format!("{pad}- {}\n", SCALARS[next(5) as usize]));
                            }
                        } else {
                            generate(next, indent + step, depth + 1, out);
                        }
                    }
                    continue;
                }
                let s = SCALARS[next(SCALARS.len() as u64) as usize];
                out.push_str(&lead);
                out.push_str(s);
                out.push('\n');
                if s.starts_with('|') || s.starts_with('>') {
                    let body_pad = " ".repeat(indent + 1 + next(3) as usize);
                    for _ in 0..next(4) {
                        match next(4) {
                            0 => out.push('\n'),
                            1 => out.push_str(&format!("{body_pad}  more {}\n", next(9))),
                            _ => out.push_str(&format!("{body_pad}text {}\n", next(9))),
                        }
                    }
                }
            }
        }
        let (mut taken, mut total) = (0, 0);
        for _ in 0..6000 {
            let mut doc = String::new();
            let indent = next(2) as usize;
            generate(&mut next, indent, 0, &mut doc);
            if next(4) == 0 {
                doc = doc.replace('\n', "\r\n");
            }
            total += 1;
            if agrees(&doc, 3) {
                taken += 1;
            }
        }
        // Both paths are exercised: the constructs above include ones it declines.
        assert!(taken * 5 > total && taken < total, "the fast reader took {taken} of {total} generated documents");
    }
}
