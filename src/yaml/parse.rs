//! One YAML document (as the document splitter hands it over) to a node
//! tree with positions, through saphyr-parser's events.
//!
//! saphyr-parser implements YAML 1.2; go-yaml v2 is a port of libyaml
//! (YAML 1.1). Where they disagree on what is well-formed, this module makes
//! saphyr agree with libyaml:
//! - text that libyaml accepts and saphyr refuses is retried with a
//!   same-length stand-in (a tab after `:` or inside a quoted scalar's line
//!   break becomes a space; `\'` in a double-quoted scalar becomes `\a` and
//!   is put back afterwards);
//! - text that saphyr accepts and libyaml refuses is caught afterwards: tabs
//!   where libyaml expects indentation or a token, anchor names outside
//!   libyaml's `[0-9A-Za-z_-]`, `\/` escapes, `?` inside a flow plain scalar
//!   (the tab rules in `tabs`).
//!
//! Syntax errors carry libyaml's wording where the error is one of the common
//! ones, and its `line N:` rule (the line of the problem, counted from 0 for
//! parser errors and from 1 for scanner errors, and left out on the first
//! line of the document).

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};

use super::Pos;
use super::doc::{Doc, Node, NodeKind, SyntaxError};
use tabs::check_tabs;

mod tabs;

/// Character index <-> byte offset and positions for a document's text.
pub(crate) struct Src<'a> {
    pub text: &'a str,
    /// Byte offset of each char; empty when the text is ASCII.
    offsets: Vec<usize>,
    first_line: usize,
    /// The text's lines (`split('\n')`), cut once when first needed.
    lines: std::cell::OnceCell<Vec<&'a str>>,
}

impl<'a> Src<'a> {
    pub fn new(text: &'a str, first_line: usize) -> Self {
        let offsets = if text.is_ascii() { Vec::new() } else { text.char_indices().map(|(i, _)| i).collect() };
        Src { text, offsets, first_line, lines: std::cell::OnceCell::new() }
    }

    /// The text's lines, as `text.split('\n')` gives them.
    fn lines(&self) -> &[&'a str] {
        self.lines.get_or_init(|| self.text.split('\n').collect())
    }

    fn byte(&self, ci: usize) -> usize {
        if self.offsets.is_empty() {
            ci.min(self.text.len())
        } else {
            self.offsets.get(ci).copied().unwrap_or(self.text.len())
        }
    }

    fn slice(&self, from: usize, to: usize) -> &'a str {
        &self.text[self.byte(from)..self.byte(to)]
    }

    fn rest_from(&self, ci: usize) -> &'a str {
        &self.text[self.byte(ci)..]
    }

    pub fn pos(&self, line: usize, col: usize) -> Pos {
        Pos { line: self.first_line + line + 1, column: col + 1 }
    }

    fn mpos(&self, m: &saphyr_parser::Marker) -> Pos {
        self.pos(m.line().saturating_sub(1), m.col())
    }
}

/// libyaml's kinds of error, for its `line N:` rule.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Scanner,
    Parser,
}

/// go-yaml's `line N: ` prefix for a problem on 0-based `line` of the document.
fn where_(stage: Stage, line0: usize) -> String {
    if line0 == 0 {
        return String::new();
    }
    let n = if stage == Stage::Scanner { line0 + 1 } else { line0 };
    format!("line {n}: ")
}

fn syntax(src: &Src, line0: usize, col0: usize, stage: Stage, problem: &str, exact: bool) -> SyntaxError {
    SyntaxError { pos: src.pos(line0, col0), message: format!("{}{}", where_(stage, line0), problem), exact }
}

/// saphyr's message -> libyaml's problem and kind of error.
fn libyaml_wording(info: &str) -> Option<(&'static str, Stage)> {
    use Stage::*;
    Some(match info {
        "while parsing a block mapping, did not find expected key" => ("did not find expected key", Parser),
        "while parsing a block collection, did not find expected '-' indicator" => ("did not find expected '-' indicator", Parser),
        "while parsing a flow sequence, expected ',' or ']'" => ("did not find expected ',' or ']'", Parser),
        "while parsing a flow mapping, did not find expected ',' or '}'" => ("did not find expected ',' or '}'", Parser),
        "while parsing a node, did not find expected node content" => ("did not find expected node content", Parser),
        "did not find expected <document start>" => ("did not find expected <document start>", Parser),
        "mapping values are not allowed in this context" => ("mapping values are not allowed in this context", Scanner),
        "block sequence entries are not allowed in this context" => ("block sequence entries are not allowed in this context", Scanner),
        "mapping keys are not allowed in this context" => ("mapping keys are not allowed in this context", Scanner),
        "simple key expect ':'" | "simple key expected" => ("could not find expected ':'", Scanner),
        "while scanning a quoted scalar, found unexpected document indicator" => ("found unexpected document indicator", Scanner),
        "while parsing a quoted scalar, found unknown escape character" => ("found unknown escape character", Scanner),
        "while parsing a quoted scalar, found invalid Unicode character escape code" => ("found invalid Unicode character escape code", Scanner),
        "while parsing a quoted scalar, did not find expected hexadecimal number" => ("did not find expected hexdecimal number", Scanner),
        "while scanning an anchor or alias, did not find expected alphabetic or numeric character" => {
            ("did not find expected alphabetic or numeric character", Scanner)
        }
        "while scanning a plain scalar, found a tab" => ("found a tab character that violates indentation", Scanner),
        "while scanning a block scalar, found an indentation indicator equal to 0" => ("found an indentation indicator equal to 0", Scanner),
        "while scanning a block scalar, did not find expected comment or line break" => ("did not find expected comment or line break", Scanner),
        "tabs disallowed within this context (block indentation)" | "tabs disallowed in this context" => {
            ("found character that cannot start any token", Scanner)
        }
        i if i.starts_with("unexpected character: ") => ("found character that cannot start any token", Scanner),
        _ => return None,
    })
}

fn map_scan_error(src: &Src, e: &ScanError) -> SyntaxError {
    let m = e.marker();
    let line0 = m.line().saturating_sub(1);
    let info = e.info();
    if info == "while parsing node, found unknown anchor" {
        let name = anchor_name(src.rest_from(m.index()).trim_start_matches('*'));
        return SyntaxError { pos: src.mpos(m), message: format!("unknown anchor '{name}' referenced"), exact: true };
    }
    // A quoted scalar that never closes: libyaml reads to the end of the
    // document and marks the end (its last line + 1, scanner rule), not the
    // scalar. saphyr may stop earlier, at a continuation line less indented
    // than YAML 1.2 wants (libyaml does not check that); with no quote left
    // in the document, libyaml's reading would end the same way.
    let unterminated = info == "while scanning a quoted scalar, found unexpected end of stream"
        || (info == "invalid indentation in quoted scalar" && !closes(src.rest_from(m.index())));
    if unterminated {
        let end_line0 = src.text.matches('\n').count();
        let end_col0 = src.text.rsplit('\n').next().map_or(0, |l| l.chars().count());
        return syntax(src, end_line0, end_col0, Stage::Scanner, "found unexpected end of stream", true);
    }
    match libyaml_wording(info) {
        Some((problem, stage)) => syntax(src, line0, m.col(), stage, problem, true),
        None => {
            let problem = info.split_once(", ").filter(|(a, _)| a.starts_with("while ")).map_or(info, |(_, b)| b);
            syntax(src, line0, m.col(), Stage::Scanner, problem, false)
        }
    }
}

/// Whether the quoted scalar starting `text` (at its quote) has a closing
/// quote later in the document (an unescaped `"`, or any `'`).
fn closes(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some('"') => {
            let mut escaped = false;
            chars.any(|c| {
                let close = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                close
            })
        }
        Some(q) => chars.any(|c| c == q),
        None => false,
    }
}

/// An anchor or alias name as YAML 1.2 reads it (up to a blank or flow indicator).
fn anchor_name(s: &str) -> &str {
    let end = s.find(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}')).unwrap_or(s.len());
    &s[..end]
}

fn libyaml_anchor_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Same-length changes made so saphyr reads what libyaml reads.
#[derive(Default)]
struct Patches {
    /// Char indexes of `\'` escapes rewritten as `\a`.
    quote_escapes: Vec<usize>,
}

/// A line inside a flow collection that starts left of where saphyr wants
/// it (`idx`, its first character): its content moves to the end of the line
/// before (the same length and the same number of lines; only its own
/// positions move). Only where joining cannot change a value: the line
/// before ends with `,`, `[` or `{`, or the line starts with `]`, `}` or
/// `,`, and the line before has no comment. False when `idx` is in no flow
/// collection.
fn flatten_flow(text: &mut [char], idx: usize) -> bool {
    if idx >= text.len() {
        return false;
    }
    // Open brackets before `idx`, outside quotes and comments.
    let (mut depth, mut quote, mut i) = (0usize, None::<char>, 0);
    while i < idx {
        let c = text[i];
        match (quote, c) {
            (Some('"'), '\\') => i += 1,
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if i == 0 || text[i - 1].is_whitespace() => {
                while i < idx && text[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    let Some(nl) = text[..idx].iter().rposition(|c| *c == '\n') else { return false };
    if depth == 0 || quote.is_some() || !text[nl + 1..idx].iter().all(|c| *c == ' ' || *c == '\t') {
        return false;
    }
    let prev_start = text[..nl].iter().rposition(|c| *c == '\n').map_or(0, |p| p + 1);
    let prev = &text[prev_start..nl];
    let prev_end = prev.iter().rev().find(|c| !c.is_whitespace()).copied();
    let joins = matches!(prev_end, Some(',' | '[' | '{')) || matches!(text[idx], ']' | '}' | ',');
    if !joins || prev.contains(&'#') {
        return false;
    }
    let line_end = (idx..text.len()).find(|&k| text[k] == '\n').unwrap_or(text.len());
    let mut moved: Vec<char> = text[idx..line_end].to_vec();
    moved.extend_from_slice(&text[nl..idx]);
    text[nl..line_end].copy_from_slice(&moved);
    true
}

/// Tries to make saphyr accept what libyaml accepts at the place it failed.
/// Returns whether `text` was changed.
fn patch_for(text: &mut [char], e: &ScanError, patches: &mut Patches) -> bool {
    let idx = e.marker().index();
    let info = e.info();
    match info {
        "':' must be followed by a valid YAML whitespace" => {
            for i in [idx, idx + 1, idx.wrapping_sub(1)] {
                if text.get(i) == Some(&'\t') && i > 0 && text.get(i - 1) == Some(&':') {
                    text[i] = ' ';
                    return true;
                }
            }
        }
        "tab cannot be used as indentation" | "tabs disallowed within this context (block indentation)" | "tabs disallowed in this context" => {
            // libyaml skips tabs inside quoted scalars' line breaks and in flow context;
            // whether it accepts them here is decided afterwards by the tab check.
            let line_start = text[..idx.min(text.len())].iter().rposition(|c| *c == '\n').map_or(0, |p| p + 1);
            let mut i = idx.min(text.len().saturating_sub(1));
            // the tab at or before the marker, within the line's leading blanks
            loop {
                if text.get(i) == Some(&'\t') {
                    text[i] = ' ';
                    return true;
                }
                if i == line_start {
                    break;
                }
                i -= 1;
            }
            let mut j = idx;
            while j < text.len() && (text[j] == ' ' || text[j] == '\t') {
                if text[j] == '\t' {
                    text[j] = ' ';
                    return true;
                }
                j += 1;
            }
        }
        // libyaml does not check indentation inside flow collections (a
        // closing `]` left of its key's column is common); saphyr does.
        "invalid indentation" => return flatten_flow(text, idx),
        "while scanning a plain scalar, found a tab" => {
            // libyaml skips tabs in a plain scalar's continuation lines right of
            // the indentation; the tab check decides afterwards.
            let mut i = idx;
            let mut after_break = false;
            while i < text.len() {
                match text[i] {
                    '\n' => after_break = true,
                    '\t' if after_break => {
                        text[i] = ' ';
                        return true;
                    }
                    ' ' | '\r' => {}
                    _ => after_break = false,
                }
                i += 1;
            }
        }
        // saphyr reports the scalar's start; find the first `\'` escape in it.
        "while parsing a quoted scalar, found unknown escape character" if text.get(idx) == Some(&'"') => {
            {
                let mut i = idx + 1;
                while i + 1 < text.len() && text[i] != '"' {
                    if text[i] == '\\' {
                        if text[i + 1] == '\'' {
                            text[i + 1] = 'a';
                            patches.quote_escapes.push(i);
                            return true;
                        }
                        i += 2;
                        continue;
                    }
                    i += 1;
                }
            }
        }
        _ => {}
    }
    false
}

struct Builder<'s, 'a> {
    src: &'s Src<'a>,
    nodes: Vec<Node>,
    root: Option<usize>,
    stack: Vec<(usize, Option<usize>)>,
    anchors: HashMap<usize, usize>,
    /// Scalar spans in order, for the checks done afterwards.
    scalars: Vec<ScalarSpan>,
    /// Block-collection indentation of the open collections (None for flow).
    indents: Vec<Option<usize>>,
    /// go-yaml's indentation levels (block collections open, indentless
    /// sequences not counted) and flow levels, for its depth limit.
    block_levels: usize,
    flow_levels: usize,
    /// Per open collection: (flow, indentless sequence).
    levels: Vec<(bool, bool)>,
    violation: Option<SyntaxError>,
}

#[derive(Debug, Clone)]
pub(crate) struct ScalarSpan {
    start: usize,
    end: usize,
    style: ScalarStyle,
    /// Column of the innermost enclosing block collection, if any.
    indent: Option<usize>,
    in_flow: bool,
}

impl Builder<'_, '_> {
    fn attach(&mut self, child: usize) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(child);
                }
            }
            Some((parent, pending)) => {
                let parent = *parent;
                match &mut self.nodes[parent].kind {
                    NodeKind::Seq(items) => items.push(child),
                    NodeKind::Map(pairs) => match pending.take() {
                        None => *pending = Some(child),
                        Some(k) => pairs.push((k, child)),
                    },
                    _ => unreachable!("only collections are open"),
                }
            }
        }
    }

    /// The anchor and tag in front of a node's text, and where the node proper starts.
    fn props(&self, start: usize) -> (Option<String>, usize) {
        let mut i = start;
        let mut anchor = None;
        for _ in 0..2 {
            let rest = self.src.rest_from(i);
            let Some(c) = rest.chars().next() else { break };
            if c != '&' && c != '!' {
                break;
            }
            let tok = anchor_name(rest);
            if c == '&' {
                anchor = Some(tok[1..].to_string());
            }
            i += tok.chars().count();
            let after = self.src.rest_from(i);
            let ws = after.len() - after.trim_start_matches([' ', '\t', '\n', '\r']).len();
            i += after[..ws].chars().count();
        }
        (anchor, i)
    }

    /// The `|`/`>` header of a block scalar whose content starts at `span.start`.
    fn block_header(&self, span: &Span) -> Pos {
        // Cut once per document, not once per block scalar.
        let lines = self.src.lines();
        let start_line = span.start.line().saturating_sub(1);
        let mut l = start_line;
        for _ in 0..64 {
            if l == 0 {
                break;
            }
            l -= 1;
            let line = lines[l];
            if line.trim().is_empty() {
                continue;
            }
            for (bi, c) in line.char_indices() {
                // The header's `|`/`>` starts a token: at the line's start or after a blank
                // (a key such as `a|#b` holds one too).
                if (c != '|' && c != '>') || (bi > 0 && !line[..bi].ends_with([' ', '\t'])) {
                    continue;
                }
                let rest = line[bi + 1..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
                let rest = rest.trim_start_matches([' ', '\t']);
                if rest.is_empty() || rest.starts_with('#') {
                    return self.src.pos(l, line[..bi].chars().count());
                }
            }
        }
        self.src.mpos(&span.start)
    }

    /// The char index of a block entry `-` just before char index `ci` on
    /// its line (with only blanks, or blanks and a comment, after it).
    fn dash_before(&self, ci: usize) -> Option<usize> {
        let before = self.src.slice(0, ci);
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let mut line = &before[line_start..];
        // A comment after the `-` (a `#` at the start or after a blank).
        if let Some(h) = line.char_indices().find(|&(i, c)| c == '#' && (i == 0 || line[..i].ends_with([' ', '\t']))).map(|(i, _)| i) {
            line = &line[..h];
        }
        let trimmed = line.trim_end_matches([' ', '\t']);
        let indicator = trimmed.strip_suffix('-')?;
        if !(indicator.is_empty() || indicator.ends_with([' ', '\t'])) {
            return None;
        }
        Some(ci - before[line_start + trimmed.len() - 1..].chars().count())
    }

    /// A collection opens at 0-based `line0`, `col0`: go-yaml's scanner
    /// refuses one level past its `max_indents` / `max_flow_level`.
    fn open_level(&mut self, flow: bool, indentless: bool, line0: usize, col0: usize) {
        self.levels.push((flow, indentless));
        let levels = if flow {
            self.flow_levels += 1;
            self.flow_levels
        } else if !indentless {
            self.block_levels += 1;
            self.block_levels
        } else {
            return;
        };
        if levels > super::GO_YAML_MAX_DEPTH && self.violation.is_none() {
            self.violation = Some(syntax(self.src, line0, col0, Stage::Scanner, super::GO_YAML_DEPTH_PROBLEM, true));
        }
    }

    fn innermost_indent(&self) -> (Option<usize>, bool) {
        let in_flow = self.indents.iter().any(Option::is_none);
        (self.indents.iter().rev().flatten().next().copied(), in_flow)
    }

    fn on_event(&mut self, ev: Event<'_>, span: Span) {
        match ev {
            Event::Scalar(text, style, anchor_id, tag) => {
                let (anchor, _) = if anchor_id != 0 { self.props(span.start.index()) } else { (None, 0) };
                let pos = if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) && anchor_id == 0 && tag.is_none() {
                    self.block_header(&span)
                } else {
                    self.src.mpos(&span.start)
                };
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let (indent, in_flow) = self.innermost_indent();
                // `: v` with no key in a block mapping: libyaml wants a key first.
                if self.violation.is_none()
                    && text.is_empty()
                    && style == ScalarStyle::Plain
                    && tag.is_none()
                    && anchor_id == 0
                    && matches!(self.stack.last(), Some((p, None)) if matches!(self.nodes[*p].kind, NodeKind::Map(_)))
                    && matches!(self.indents.last(), Some(Some(_)))
                    && self.src.rest_from(span.start.index()).starts_with(':')
                {
                    let line0 = span.start.line().saturating_sub(1);
                    self.violation = Some(syntax(self.src, line0, span.start.col(), Stage::Parser, "did not find expected key", true));
                }
                if span.end.index() > span.start.index() {
                    self.scalars.push(ScalarSpan { start: span.start.index(), end: span.end.index(), style, indent, in_flow });
                }
                let id = self.nodes.len();
                self.nodes.push(Node {
                    kind: NodeKind::Scalar { text: text.into_owned(), tag, plain: style == ScalarStyle::Plain },
                    pos,
                    anchor,
                });
                if anchor_id != 0 {
                    self.anchors.insert(anchor_id, id);
                }
                self.attach(id);
            }
            Event::SequenceStart(anchor_id, _) | Event::MappingStart(anchor_id, _) => {
                let is_map = matches!(ev, Event::MappingStart(..));
                let (anchor, body) = self.props(span.start.index());
                let first = self.src.rest_from(body).chars().next();
                let mut pos = self.src.mpos(&span.start);
                let mut column = span.end.col();
                let at = self.src.rest_from(span.start.index());
                let dash_here = at.starts_with('-') && at[1..].starts_with([' ', '\t', '\n', '\r']);
                let id = self.nodes.len();
                // saphyr starts an indentless sequence (a block mapping's value, `-` in
                // the key's column) at its first entry, or at the end of the `-` line when
                // the entry is below: the sequence is a block one at its `-`, even when that
                // entry is `[...]` or `{...}` (which then starts at the same place).
                let value_of_block_key = matches!(self.stack.last(), Some((p, Some(_))) if matches!(self.nodes[*p].kind, NodeKind::Map(_)))
                    && matches!(self.indents.last(), Some(Some(_)));
                let dash = (!is_map && anchor_id == 0 && !dash_here && value_of_block_key)
                    .then(|| self.dash_before(span.start.index()))
                    .flatten();
                let flow = dash.is_none() && matches!(first, Some('[' | '{'));
                if let Some(dash) = dash {
                    let (l, c) = line_col(self.src, dash);
                    pos = self.src.pos(l, c);
                    column = c;
                }
                self.nodes.push(Node { kind: if is_map { NodeKind::Map(Vec::new()) } else { NodeKind::Seq(Vec::new()) }, pos, anchor });
                if anchor_id != 0 {
                    self.anchors.insert(anchor_id, id);
                }
                self.attach(id);
                self.stack.push((id, None));
                self.indents.push(if flow { None } else { Some(column) });
                let indentless = dash.is_some();
                self.open_level(flow, indentless, span.start.line().saturating_sub(1), span.start.col());
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.stack.pop();
                let (flow, indentless) = self.levels.pop().unwrap_or_default();
                if flow {
                    self.flow_levels -= 1;
                } else if !indentless {
                    self.block_levels -= 1;
                }
                self.indents.pop();
            }
            Event::Alias(anchor_id) => {
                let name = self.src.slice(span.start.index() + 1, span.end.index()).to_string();
                let target = *self.anchors.get(&anchor_id).expect("saphyr checks aliases");
                let id = self.nodes.len();
                self.nodes.push(Node { kind: NodeKind::Alias { target, name }, pos: self.src.mpos(&span.start), anchor: None });
                self.attach(id);
            }
            _ => {}
        }
    }
}

/// The first document of `text` (lines from `first_line` of the file)
/// through saphyr-parser alone (`text` without a BOM).
pub(crate) fn parse_document_with_saphyr(text: &str, first_line: usize) -> Result<Doc, SyntaxError> {
    let src = Src::new(text, first_line);
    let mut patched: Option<String> = None;
    let mut chars: Vec<char> = Vec::new();
    let mut patches = Patches::default();
    for _attempt in 0..10_000 {
        let input = patched.as_deref().unwrap_or(text);
        let psrc = Src::new(input, first_line);
        match run(&src, &psrc) {
            Ok((mut doc, scalars)) => {
                restore_quote_escapes(&mut doc, &src, &patches);
                check_libyaml(&src, &doc, &scalars)?;
                return Ok(doc);
            }
            Err(e) => {
                if chars.is_empty() {
                    chars = text.chars().collect();
                }
                if patch_for(&mut chars, &e, &mut patches) {
                    patched = Some(chars.iter().collect());
                    continue;
                }
                // saphyr refused it for its own reason; if the document has tabs
                // where libyaml refuses them, libyaml's message is the one Helm shows.
                if chars.contains(&'\t')
                    && let Some(found) = tab_error_with_spaces(&src, &chars)
                {
                    return Err(found);
                }
                return Err(map_scan_error(&src, &e));
            }
        }
    }
    Err(SyntaxError { pos: src.pos(0, 0), message: "too many tabs to read".into(), exact: false })
}

/// Reads the document with every tab in a line's leading blanks made a
/// space; if that parses, the tab check on the real text says whether (and
/// where) libyaml refuses a tab.
fn tab_error_with_spaces(src: &Src, chars: &[char]) -> Option<SyntaxError> {
    let mut spaced: Vec<char> = chars.to_vec();
    let mut leading = true;
    for c in spaced.iter_mut() {
        match *c {
            '\n' => leading = true,
            '\t' if leading => *c = ' ',
            ' ' => {}
            _ => leading = false,
        }
    }
    let text: String = spaced.into_iter().collect();
    let psrc = Src::new(&text, src.first_line);
    let (_, scalars) = run(src, &psrc).ok()?;
    check_tabs(src, &scalars).err()
}

fn run(src: &Src, input: &Src) -> Result<(Doc, Vec<ScalarSpan>), ScanError> {
    let mut parser = Parser::new_from_str(input.text);
    // Names and text come from the original (`src`); spans are the same.
    let mut b = Builder {
        src,
        nodes: Vec::new(),
        root: None,
        stack: Vec::new(),
        anchors: HashMap::new(),
        scalars: Vec::new(),
        indents: Vec::new(),
        block_levels: 0,
        flow_levels: 0,
        levels: Vec::new(),
        violation: None,
    };
    let mut in_doc = false;
    let mut ignored_after_end = None;
    while let Some(item) = parser.next_event() {
        let (ev, span) = item?;
        match ev {
            Event::StreamStart | Event::Nothing => {}
            Event::StreamEnd => break,
            Event::DocumentStart(_) => in_doc = true,
            Event::DocumentEnd => {
                if in_doc {
                    let end = span.end.index();
                    let explicit = span.end.index() > span.start.index();
                    if explicit && !src.rest_from(end).trim().is_empty() {
                        ignored_after_end = Some(src.mpos(&span.start));
                    }
                    break;
                }
            }
            ev => {
                // scalar text: take the parser's (it saw the patched input)
                let ev = match ev {
                    Event::Scalar(t, s, a, tag) => Event::Scalar(Cow::Owned(t.into_owned()), s, a, tag),
                    other => other,
                };
                b.on_event(ev, span);
            }
        }
    }
    let scalars = std::mem::take(&mut b.scalars);
    Ok((Doc { nodes: b.nodes, root: b.root, ignored_after_end, violation: b.violation }, scalars))
}

/// Puts back the `'` of `\'` escapes that were read as `\a` (BEL).
fn restore_quote_escapes(doc: &mut Doc, src: &Src, patches: &Patches) {
    if patches.quote_escapes.is_empty() {
        return;
    }
    // Each scalar holding a patched escape: rebuild its BELs in escape order.
    for node in &mut doc.nodes {
        let NodeKind::Scalar { text, plain: false, .. } = &mut node.kind else { continue };
        if !text.contains('\u{07}') {
            continue;
        }
        // Find the scalar's raw text: from its position to the closing quote.
        let line_start: usize = src.text.split('\n').take(node.pos.line - src.first_line - 1).map(|l| l.chars().count() + 1).sum();
        let start = line_start + node.pos.column - 1;
        let raw: Vec<char> = src.rest_from(start).chars().collect();
        let Some(q) = raw.iter().position(|c| *c == '"') else { continue };
        let mut kinds = Vec::new();
        let mut i = q + 1;
        while i + 1 < raw.len() && raw[i] != '"' {
            if raw[i] == '\\' {
                if raw[i + 1] == '\'' {
                    kinds.push(true);
                } else if raw[i + 1] == 'a' {
                    kinds.push(false);
                }
                i += 2;
                continue;
            }
            i += 1;
        }
        let mut k = kinds.into_iter();
        *text = text.chars().map(|c| if c == '\u{07}' && k.next() == Some(true) { '\'' } else { c }).collect();
    }
}

/// What libyaml refuses that saphyr accepted.
fn check_libyaml(src: &Src, doc: &Doc, scalars: &[ScalarSpan]) -> Result<(), SyntaxError> {
    if let Some(v) = &doc.violation {
        return Err(v.clone());
    }
    // Anchor and alias names: libyaml takes [0-9A-Za-z_-]+ followed by a blank or one of ?:,]}%@`.
    for n in &doc.nodes {
        let name = match &n.kind {
            NodeKind::Alias { name, .. } => Some(name.as_str()),
            _ => n.anchor.as_deref(),
        };
        if let Some(name) = name {
            let good: usize = name.chars().take_while(|c| libyaml_anchor_char(*c)).count();
            if good == 0 || good < name.chars().count() {
                let line0 = n.pos.line - src.first_line - 1;
                return Err(syntax(src, line0, n.pos.column - 1, Stage::Scanner, "did not find expected alphabetic or numeric character", true));
            }
        }
    }
    for s in scalars {
        let raw = src.slice(s.start, s.end);
        match s.style {
            ScalarStyle::DoubleQuoted => {
                let body = raw.find('"').map_or(raw, |q| &raw[q..]);
                let mut it = body.char_indices().peekable();
                while let Some((_, c)) = it.next() {
                    if c == '\\' {
                        if let Some((bi, '/')) = it.peek().copied() {
                            let ci = s.start + raw[..raw.len() - body.len() + bi].chars().count();
                            let p = line_col(src, ci);
                            return Err(syntax(src, p.0, p.1, Stage::Scanner, "found unknown escape character", true));
                        }
                        it.next();
                    }
                }
            }
            ScalarStyle::Plain if !s.in_flow && raw.contains(['\u{85}', '\u{2028}', '\u{2029}']) => {
                // libyaml breaks lines at NEL, LS and PS too: the rest of the
                // scalar starts a new line at column 0.
                let bi = raw.find(['\u{85}', '\u{2028}', '\u{2029}']).unwrap_or(0);
                let (l, c) = line_col(src, s.start + raw[..bi].chars().count());
                return Err(syntax(src, l, c, Stage::Scanner, "could not find expected ':'", false));
            }
            ScalarStyle::Plain if s.in_flow => {
                if let Some(bi) = raw.find('?') {
                    let ci = s.start + raw[..bi].chars().count();
                    let (l, c) = line_col(src, ci);
                    return Err(syntax(src, l, c, Stage::Parser, "did not find expected ',' or ']'", false));
                }
            }
            _ => {}
        }
    }
    check_tabs(src, scalars)
}

fn line_col(src: &Src, ci: usize) -> (usize, usize) {
    let before = src.slice(0, ci);
    let line = before.matches('\n').count();
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count());
    (line, col)
}
