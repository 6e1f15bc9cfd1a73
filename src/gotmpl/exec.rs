//! The executor: walks the node tree with `.` and `$`, evaluates pipelines,
//! field chains (`missingkey=error`) and arguments, and prints each
//! action's value as text/template does, recording which template text or
//! action produced every output byte.

use super::parse::{Arg, Cmd, Node, Pipe};
use super::value::{go_sprint, go_type, truth};
use super::{Environ, MAX_TEMPLATE_STRING, Rendered, Span, TmplError, Tv, UNMODELLED, Val, line_col};
use crate::values::tree::Origin;

/// The executor: the output so far, its spans, `$` and the environment.
pub(super) struct Exec<'a> {
    file: &'a str,
    src: &'a str,
    out: String,
    spans: Vec<Span>,
    root: &'a Tv,
    pub(super) environ: Option<&'a Environ>,
}

impl<'a> Exec<'a> {
    pub(super) fn new(file: &'a str, src: &'a str, root: &'a Tv, environ: Option<&'a Environ>) -> Exec<'a> {
        Exec { file, src, out: String::new(), spans: Vec::new(), root, environ }
    }

    /// The rendered text and its spans.
    pub(super) fn finish(self) -> Rendered {
        Rendered { text: self.out, spans: self.spans }
    }

    pub(super) fn err(&self, at: usize, message: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Exec { file: self.file.into(), line, column, message: message.into() }
    }

    pub(super) fn unsupported(&self, at: usize, construct: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Unsupported { file: self.file.into(), line, column, construct: construct.into() }
    }

    /// [`TmplError::TooLarge`] when a string of `bytes` would pass [`MAX_TEMPLATE_STRING`].
    pub(super) fn check_size(&self, at: usize, bytes: usize, what: impl FnOnce() -> String) -> Result<(), TmplError> {
        if bytes <= MAX_TEMPLATE_STRING {
            return Ok(());
        }
        let (line, column) = line_col(self.src, at);
        Err(TmplError::TooLarge { file: self.file.into(), line, column, what: what(), bytes })
    }

    fn emit(&mut self, text: &str, src: usize, action: Option<Option<Origin>>, secret: bool) -> Result<(), TmplError> {
        if text.is_empty() {
            return Ok(());
        }
        self.check_size(src, self.out.len() + text.len(), || "the template's output".into())?;
        let start = self.out.len();
        self.out.push_str(text);
        self.spans.push(Span { out: start..self.out.len(), src, action, secret });
        Ok(())
    }

    pub(super) fn walk(&mut self, nodes: &[Node], dot: &Tv) -> Result<(), TmplError> {
        for n in nodes {
            match n {
                Node::Text { text, src } => self.emit(text, *src, None, false)?,
                Node::Action { pipe, open } => {
                    let v = self.pipe(pipe, dot)?;
                    let text = self.print(&v, pipe.pos)?;
                    self.emit(&text, *open, Some(v.origin.clone()), v.holds_secret())?;
                }
                Node::If { pipe, then, els } => {
                    let v = self.pipe(pipe, dot)?;
                    if truth(&v.val) { self.walk(then, dot)? } else { self.walk(els, dot)? }
                }
                Node::With { pipe, then, els } => {
                    let v = self.pipe(pipe, dot)?;
                    if truth(&v.val) { self.walk(then, &v)? } else { self.walk(els, dot)? }
                }
                Node::Range { pipe, body, els } => {
                    let v = self.pipe(pipe, dot)?;
                    let items: Vec<Tv> = match &v.val {
                        Val::List(l) => l.clone(),
                        Val::Map(m) => m.values().cloned().collect(),
                        Val::StrMap(m) => m.values().map(|s| Tv::str(s)).collect(),
                        Val::Nil => Vec::new(),
                        _ => return Err(self.unsupported(pipe.pos, format!("range over {}", go_type(&v.val)))),
                    };
                    if items.is_empty() {
                        self.walk(els, dot)?;
                    }
                    for item in &items {
                        self.walk(body, item)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `printValue`: nil prints `<no value>`, everything else as `fmt.Sprint`.
    fn print(&self, v: &Tv, at: usize) -> Result<String, TmplError> {
        match &v.val {
            Val::Nil => Ok("<no value>".into()),
            Val::Ptr(_) => Err(self.unsupported(at, "printing a pointer (`.StateValues` prints a memory address)")),
            _ => go_sprint(v).map_err(|what| self.unsupported(at, what)),
        }
    }

    fn pipe(&self, p: &Pipe, dot: &Tv) -> Result<Tv, TmplError> {
        let mut value: Option<Tv> = None;
        for c in &p.cmds {
            value = Some(self.command(c, dot, value)?);
        }
        value.ok_or_else(|| self.unsupported(p.pos, "an empty pipeline"))
    }

    fn command(&self, c: &Cmd, dot: &Tv, fin: Option<Tv>) -> Result<Tv, TmplError> {
        let (first, rest) = c.args.split_first().ok_or_else(|| self.unsupported(c.pos, "an empty command"))?;
        if let Arg::Func(name, at) = first {
            let mut args = Vec::new();
            for a in rest {
                args.push(self.arg(a, dot)?);
            }
            if let Some(f) = fin {
                args.push(f);
            }
            return self.call(name, args, *at);
        }
        if !rest.is_empty() || fin.is_some() {
            let at = match first {
                Arg::Dot(_, at) | Arg::Root(_, at) => *at,
                _ => c.pos,
            };
            return Err(self.err(at, "can't give argument to non-function"));
        }
        self.arg(first, dot)
    }

    fn arg(&self, a: &Arg, dot: &Tv) -> Result<Tv, TmplError> {
        match a {
            Arg::Dot(chain, at) => self.chain(dot, chain, *at),
            Arg::Root(chain, at) => self.chain(self.root, chain, *at),
            Arg::Lit(v) => Ok(Tv::new(v.clone())),
            Arg::Sub(p) => self.pipe(p, dot),
            Arg::Func(name, at) => self.call(name, Vec::new(), *at),
        }
    }

    /// `evalFieldChain` with `missingkey=error`.
    fn chain(&self, start: &Tv, chain: &[String], at: usize) -> Result<Tv, TmplError> {
        let mut cur = start.clone();
        for f in chain {
            cur = self.field(&cur, f, at)?;
        }
        Ok(cur)
    }

    fn field(&self, recv: &Tv, name: &str, at: usize) -> Result<Tv, TmplError> {
        let recv = match &recv.val {
            Val::Ptr(inner) => inner.as_ref(),
            _ => recv,
        };
        match &recv.val {
            Val::Struct(ty, fields) => match fields.iter().find(|(n, _)| *n == name) {
                Some((_, v)) => match &v.val {
                    Val::Str(s) if s == UNMODELLED => Err(self.unsupported(at, format!("the field `.{name}` (not modelled by releasex)"))),
                    _ => Ok(v.clone()),
                },
                None => Err(self.err(at, format!("can't evaluate field {name} in type {ty}"))),
            },
            Val::Map(m) => m.get(name).cloned().ok_or_else(|| self.err(at, format!("map has no entry for key {name:?}"))),
            Val::StrMap(m) => m.get(name).map(|s| Tv::str(s)).ok_or_else(|| self.err(at, format!("map has no entry for key {name:?}"))),
            Val::Nil => Err(self.err(at, format!("nil pointer evaluating interface {{}}.{name}"))),
            _ => Err(self.err(at, format!("can't evaluate field {name} in type interface {{}}"))),
        }
    }
}
