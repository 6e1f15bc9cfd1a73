//! libyaml's tab rules, which saphyr does not enforce: after saphyr has read
//! a document, the text between its scalars is scanned again as libyaml's
//! scanner would, to find the tab libyaml refuses and say where.

use saphyr_parser::ScalarStyle;

use super::{ScalarSpan, Src, Stage, syntax};
use crate::yaml::doc::SyntaxError;

/// libyaml's tab rules in block context, over the text between scalars:
/// a tab is skipped like a space only where no simple key may start (after
/// a key's `:`, after a scalar, an anchor, a tag); at the start of a line or
/// after `-`, `?` it "cannot start any token". After a plain scalar libyaml
/// keeps reading blank lines, where a tab left of the indentation "violates
/// indentation".
pub(super) fn check_tabs(src: &Src, scalars: &[ScalarSpan]) -> Result<(), SyntaxError> {
    if !src.text.contains('\t') {
        return Ok(());
    }
    let chars: Vec<char> = src.text.chars().collect();
    let mut scan = TabScan {
        src,
        chars: &chars,
        scalars,
        i: 0,
        line: 0,
        col: 0,
        flow: 0,
        simple_key_allowed: true,
        key_on_line: false,
        next_scalar: 0,
    };
    while scan.i < chars.len() {
        let c = chars[scan.i];
        if scan.blank_or_comment(c)? || scan.scalar(c)? {
            continue;
        }
        scan.token(c);
    }
    Ok(())
}

/// The part of libyaml's scanner state its tab rules depend on.
struct TabScan<'s, 'a, 'c> {
    src: &'s Src<'a>,
    chars: &'c [char],
    scalars: &'c [ScalarSpan],
    /// The character read next, and its 0-based line and column.
    i: usize,
    line: usize,
    col: usize,
    /// How many flow collections are open.
    flow: usize,
    /// libyaml's `simple_key_allowed`.
    simple_key_allowed: bool,
    /// A simple-key candidate since the last line break.
    key_on_line: bool,
    /// The first scalar span not yet passed.
    next_scalar: usize,
}

impl TabScan<'_, '_, '_> {
    /// Moves to character `to`, counting lines and columns.
    fn advance_to(&mut self, to: usize) {
        while self.i < to && self.i < self.chars.len() {
            if self.chars[self.i] == '\n' {
                self.line += 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
            self.i += 1;
        }
    }

    fn step(&mut self) {
        self.advance_to(self.i + 1);
    }

    /// Skips to the end of the line (a comment, a directive).
    fn skip_line(&mut self) {
        while self.i < self.chars.len() && self.chars[self.i] != '\n' {
            self.step();
        }
    }

    /// Whitespace and comments as libyaml's `scan_to_next_token` skips them;
    /// whether `c` was one.
    fn blank_or_comment(&mut self, c: char) -> Result<bool, SyntaxError> {
        match c {
            ' ' => self.step(),
            '\t' => {
                if self.flow > 0 || !self.simple_key_allowed {
                    self.step();
                } else {
                    return Err(syntax(self.src, self.line, self.col, Stage::Scanner, "found character that cannot start any token", true));
                }
            }
            '#' => self.skip_line(),
            '\n' | '\r' => {
                self.step();
                if self.flow == 0 {
                    self.simple_key_allowed = true;
                }
                self.key_on_line = false;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A scalar (with its anchor/tag) or a block scalar's header starting at
    /// `c`, read past; whether there was one.
    fn scalar(&mut self, c: char) -> Result<bool, SyntaxError> {
        let scalars = self.scalars;
        while self.next_scalar < scalars.len() && scalars[self.next_scalar].end <= self.i {
            self.next_scalar += 1;
        }
        if self.next_scalar < scalars.len() && scalars[self.next_scalar].start <= self.i {
            self.scalar_span()?;
            return Ok(true);
        }
        if (c == '|' || c == '>') && self.flow == 0 {
            self.block_scalar_header();
            return Ok(true);
        }
        Ok(false)
    }

    /// The header of a block scalar: its content is the next scalar span (if any).
    fn block_scalar_header(&mut self) {
        let (chars, scalars, i) = (self.chars, self.scalars, self.i);
        let header_end = chars[i..].iter().position(|c| *c == '\n').map_or(chars.len(), |p| i + p);
        let mut end = header_end;
        if self.next_scalar < scalars.len() && matches!(scalars[self.next_scalar].style, ScalarStyle::Literal | ScalarStyle::Folded) {
            end = scalars[self.next_scalar].end.max(header_end);
            self.next_scalar += 1;
        }
        self.advance_to(end);
        self.simple_key_allowed = true;
        self.key_on_line = false;
    }

    /// The scalar span starting at the current character.
    fn scalar_span(&mut self) -> Result<(), SyntaxError> {
        let s = self.scalars[self.next_scalar].clone();
        self.next_scalar += 1;
        if self.simple_key_allowed {
            self.key_on_line = true;
        }
        if s.style == ScalarStyle::Plain {
            self.plain_scalar(&s)?;
        } else {
            self.advance_to(s.end);
            self.simple_key_allowed = matches!(s.style, ScalarStyle::Literal | ScalarStyle::Folded);
        }
        Ok(())
    }

    /// libyaml's plain scanner: inside the scalar and on through the blanks
    /// and line breaks after it, a tab in a line's leading blanks left of the
    /// indentation is an error.
    fn plain_scalar(&mut self, s: &ScalarSpan) -> Result<(), SyntaxError> {
        let chars = self.chars;
        let indent = s.indent.map_or(0, |c| c + 1);
        let (mut j, mut l, mut cc) = (self.i, self.line, self.col);
        let mut leading = false;
        let mut breaks_after = false;
        while j < chars.len() {
            let ch = chars[j];
            if j >= s.end && !matches!(ch, ' ' | '\t' | '\n' | '\r') {
                break;
            }
            match ch {
                '\n' => {
                    leading = true;
                    if j >= s.end {
                        breaks_after = true;
                    }
                    l += 1;
                    cc = 0;
                    j += 1;
                    continue;
                }
                '\t' if leading && cc < indent => {
                    return Err(syntax(self.src, l, cc, Stage::Scanner, "found a tab character that violates indentation", true));
                }
                ' ' | '\t' | '\r' => {}
                _ => leading = false,
            }
            cc += 1;
            j += 1;
        }
        if breaks_after {
            self.advance_to(j);
            if self.flow == 0 {
                self.simple_key_allowed = true;
            }
            self.key_on_line = false;
        } else {
            self.advance_to(s.end);
            self.simple_key_allowed = false;
        }
        Ok(())
    }

    /// Any other token starting at `c`, read past: indicators change whether
    /// a simple key may start next.
    fn token(&mut self, c: char) {
        let (chars, i, flow) = (self.chars, self.i, self.flow);
        match c {
            '-' if flow == 0 && matches!(chars.get(i + 1), None | Some(' ' | '\t' | '\n' | '\r')) && !(self.col == 0 && chars.get(i + 1) == Some(&'-')) => {
                self.simple_key_allowed = true;
                self.key_on_line = false;
            }
            '?' if matches!(chars.get(i + 1), None | Some(' ' | '\t' | '\n' | '\r')) || flow > 0 => {
                self.simple_key_allowed = flow == 0;
                self.key_on_line = false;
            }
            ':' => {
                if self.key_on_line {
                    self.simple_key_allowed = false;
                } else {
                    self.simple_key_allowed = flow == 0;
                }
                self.key_on_line = false;
            }
            '[' | '{' => {
                if self.simple_key_allowed {
                    self.key_on_line = true;
                }
                self.flow += 1;
                self.simple_key_allowed = true;
            }
            ']' | '}' => {
                self.flow = flow.saturating_sub(1);
                self.simple_key_allowed = false;
            }
            ',' => self.simple_key_allowed = true,
            '&' | '*' | '!' => {
                if self.simple_key_allowed {
                    self.key_on_line = true;
                }
                while self.i < chars.len() && !matches!(chars[self.i], ' ' | '\t' | '\n' | '\r' | ',' | '[' | ']' | '{' | '}') {
                    self.step();
                }
                self.simple_key_allowed = false;
                return;
            }
            '-' | '.' if self.col == 0 => {
                // document markers
                self.advance_to(i + 3);
                self.simple_key_allowed = false;
                return;
            }
            '%' if self.col == 0 => {
                self.skip_line();
                return;
            }
            _ => {}
        }
        self.step();
    }
}
