//! The parser: the lexer's items into a tree of nodes (text, actions,
//! `if`/`with`/`range` with their `else` branches), each pipeline a list of
//! commands and each command a list of arguments; constructs outside the
//! subset are refused here, with their position.

use super::lex::{self, Item, Tok, Toks, tok_text};
use super::{TmplError, Val, line_col};

#[derive(Debug, Clone)]
pub(super) enum Node {
    Text { text: String, src: usize },
    /// `open`: the offset of its `{{`.
    Action { pipe: Pipe, open: usize },
    If { pipe: Pipe, then: Vec<Node>, els: Vec<Node> },
    With { pipe: Pipe, then: Vec<Node>, els: Vec<Node> },
    Range { pipe: Pipe, body: Vec<Node>, els: Vec<Node> },
}

#[derive(Debug, Clone)]
pub(super) struct Pipe {
    pub(super) cmds: Vec<Cmd>,
    pub(super) pos: usize,
}

#[derive(Debug, Clone)]
pub(super) struct Cmd {
    pub(super) args: Vec<Arg>,
    pub(super) pos: usize,
}

#[derive(Debug, Clone)]
pub(super) enum Arg {
    /// `.`, or a field chain on it (`.a.b`).
    Dot(Vec<String>, usize),
    /// `$` and a field chain on it.
    Root(Vec<String>, usize),
    Func(String, usize),
    Lit(Val),
    Sub(Box<Pipe>),
}

const FUNCS: &[&str] = &[
    "index", "get", "getOrNil", "env", "requiredEnv", "quote", "squote", "default", "required", "toYaml", "toJson", "indent", "nindent", "upper", "lower", "trim", "not", "eq", "ne", "and",
    "or",
];

/// The parser of one template.
pub(super) struct Parser<'a> {
    file: &'a str,
    src: &'a str,
    /// Blocks and parentheses open around the current token.
    depth: std::cell::Cell<usize>,
}

type Items = std::iter::Peekable<std::vec::IntoIter<Item>>;

/// What ended a list of nodes: `{{end}}`, or `{{else ...}}` (its tokens), with the offset.
enum End {
    End(usize),
    Else(Toks, usize),
}

impl<'a> Parser<'a> {
    pub(super) fn new(file: &'a str, src: &'a str) -> Parser<'a> {
        Parser { file, src, depth: std::cell::Cell::new(0) }
    }

    /// One more block or parenthesis open at `at`; past [`super::MAX_NESTING`]
    /// an error (the recursion below would otherwise outgrow the stack).
    fn enter(&self, at: usize) -> Result<(), TmplError> {
        self.depth.set(self.depth.get() + 1);
        if self.depth.get() > super::MAX_NESTING {
            let (line, column) = line_col(self.src, at);
            return Err(TmplError::TooDeep { file: self.file.into(), line, column, limit: super::MAX_NESTING });
        }
        Ok(())
    }

    fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }

    fn unsupported(&self, at: usize, construct: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Unsupported { file: self.file.into(), line, column, construct: construct.into() }
    }

    pub(super) fn parse_all(&self) -> Result<Vec<Node>, TmplError> {
        let items = lex::items(self.file, self.src)?;
        let mut it = items.into_iter().peekable();
        let (nodes, end) = self.parse_list(&mut it)?;
        match end {
            Some(End::End(at)) => Err(self.unsupported(at, "`{{end}}` without an opening `if`, `with` or `range`")),
            Some(End::Else(_, at)) => Err(self.unsupported(at, "`{{else}}` without an opening `if`, `with` or `range`")),
            None => Ok(nodes),
        }
    }

    /// Nodes up to an `{{else ...}}` or `{{end}}`.
    fn parse_list(&self, it: &mut Items) -> Result<(Vec<Node>, Option<End>), TmplError> {
        let mut nodes = Vec::new();
        while let Some(item) = it.next() {
            match item {
                Item::Text(text, src) => nodes.push(Node::Text { text, src }),
                Item::Action(toks, open) => {
                    let Some((first, at)) = toks.first().cloned() else { return Err(self.unsupported(open, "an empty action `{{}}`")) };
                    match first {
                        Tok::Ident(w) if w == "end" && toks.len() == 1 => return Ok((nodes, Some(End::End(at)))),
                        // `else` alone, or `else if PIPE` / `else with PIPE`: the caller looks.
                        Tok::Ident(w) if w == "else" => return Ok((nodes, Some(End::Else(toks, at)))),
                        Tok::Ident(w) if w == "if" || w == "with" || w == "range" => {
                            let node = self.parse_control(&w, &toks[1..], open, it)?;
                            nodes.push(node);
                        }
                        Tok::Ident(w) if matches!(w.as_str(), "define" | "template" | "block" | "break" | "continue" | "end") => {
                            return Err(self.unsupported(at, format!("`{w}`")));
                        }
                        _ => nodes.push(Node::Action { pipe: self.parse_pipe(&toks, open)?, open }),
                    }
                }
            }
        }
        Ok((nodes, None))
    }

    fn parse_control(&self, word: &str, toks: &[(Tok, usize)], open: usize, it: &mut Items) -> Result<Node, TmplError> {
        if toks.is_empty() {
            return Err(self.unsupported(open, format!("`{word}` without a pipeline")));
        }
        self.enter(open)?;
        let pipe = self.parse_pipe(toks, open)?;
        let (then, end) = self.parse_list(it)?;
        let els = match end {
            None => return Err(self.unsupported(open, format!("`{word}` without `end`"))),
            Some(End::End(_)) => Vec::new(),
            Some(End::Else(else_toks, at)) => match else_toks.get(1) {
                None => {
                    let (els, end) = self.parse_list(it)?;
                    match end {
                        Some(End::End(_)) => els,
                        _ => return Err(self.unsupported(at, format!("`{word}`'s `else` without `end`"))),
                    }
                }
                Some((Tok::Ident(w), _)) if (w == "if" || w == "with") && word != "range" => {
                    // `{{else if X}}...{{end}}` is `{{else}}{{if X}}...{{end}}{{end}}`: the inner if takes the one `end`.
                    vec![self.parse_control(w, &else_toks[2..], at, it)?]
                }
                Some((_, a)) => return Err(self.unsupported(*a, "this `else` form")),
            },
        };
        self.leave();
        Ok(match word {
            "if" => Node::If { pipe, then, els },
            "with" => Node::With { pipe, then, els },
            _ => Node::Range { pipe, body: then, els },
        })
    }

    fn parse_pipe(&self, toks: &[(Tok, usize)], open: usize) -> Result<Pipe, TmplError> {
        if let Some((_, at)) = toks.iter().find(|(t, _)| matches!(t, Tok::Other(w) if w.starts_with(":=") || w.starts_with('=') || w.starts_with(','))) {
            return Err(self.unsupported(*at, "variable declarations and assignments"));
        }
        let mut i = 0;
        let pipe = self.pipe(toks, &mut i, open)?;
        if let Some((t, at)) = toks.get(i) {
            return Err(self.unsupported(*at, format!("unexpected {}", tok_text(t))));
        }
        Ok(pipe)
    }

    fn pipe(&self, toks: &[(Tok, usize)], i: &mut usize, open: usize) -> Result<Pipe, TmplError> {
        let pos = toks.get(*i).map_or(open, |t| t.1);
        let mut cmds = Vec::new();
        loop {
            let cpos = toks.get(*i).map_or(open, |t| t.1);
            let mut args = Vec::new();
            while let Some((t, at)) = toks.get(*i) {
                let at = *at;
                let arg = match t {
                    Tok::Pipe | Tok::Close => break,
                    Tok::Dot => {
                        *i += 1;
                        Arg::Dot(self.fields(toks, i), at)
                    }
                    Tok::Field(f) => {
                        *i += 1;
                        let mut chain = vec![f.clone()];
                        chain.extend(self.fields(toks, i));
                        Arg::Dot(chain, at)
                    }
                    Tok::Dollar => {
                        *i += 1;
                        Arg::Root(self.fields(toks, i), at)
                    }
                    Tok::Str(s) => {
                        *i += 1;
                        Arg::Lit(Val::Str(s.clone()))
                    }
                    Tok::Int(n) => {
                        *i += 1;
                        Arg::Lit(Val::Int(*n))
                    }
                    Tok::Float(f) => {
                        *i += 1;
                        Arg::Lit(Val::Float(*f))
                    }
                    Tok::Ident(w) => {
                        *i += 1;
                        match w.as_str() {
                            "true" => Arg::Lit(Val::Bool(true)),
                            "false" => Arg::Lit(Val::Bool(false)),
                            "nil" => Arg::Lit(Val::Nil),
                            f if FUNCS.contains(&f) => Arg::Func(f.to_string(), at),
                            f => return Err(self.unsupported(at, format!("the function `{f}`"))),
                        }
                    }
                    Tok::Open => {
                        *i += 1;
                        self.enter(at)?;
                        let sub = self.pipe(toks, i, at)?;
                        self.leave();
                        match toks.get(*i) {
                            Some((Tok::Close, _)) => *i += 1,
                            _ => return Err(self.unsupported(at, "an unclosed `(`")),
                        }
                        if let Some((Tok::Field(_), fat)) = toks.get(*i) {
                            return Err(self.unsupported(*fat, "a field of a parenthesised pipeline"));
                        }
                        Arg::Sub(Box::new(sub))
                    }
                    Tok::Other(w) => return Err(self.unsupported(at, format!("`{w}`"))),
                };
                args.push(arg);
            }
            if args.is_empty() {
                return Err(self.unsupported(cpos, "an empty command in a pipeline"));
            }
            cmds.push(Cmd { args, pos: cpos });
            match toks.get(*i) {
                Some((Tok::Pipe, _)) => *i += 1,
                _ => break,
            }
        }
        Ok(Pipe { cmds, pos })
    }

    /// The fields that follow token `*i - 1` with no space between (`.a.b`; `.a .b` are two arguments).
    fn fields(&self, toks: &[(Tok, usize)], i: &mut usize) -> Vec<String> {
        let mut out = Vec::new();
        let Some(prev) = i.checked_sub(1).and_then(|p| toks.get(p)) else { return out };
        let mut end = prev.1
            + match &prev.0 {
                Tok::Field(f) => 1 + f.len(),
                _ => 1,
            };
        while let Some((Tok::Field(f), at)) = toks.get(*i) {
            if *at != end {
                break;
            }
            out.push(f.clone());
            end = at + 1 + f.len();
            *i += 1;
        }
        out
    }
}
