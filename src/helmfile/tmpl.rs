//! A safe, exactly-defined subset of Go's `text/template` as helmfile runs
//! it on `.gotmpl` values files (helmfile pkg/tmpl at ecf604d: sprig's
//! functions plus helmfile's own, option `missingkey=error`).
//!
//! The subset: text; comments `{{/* */}}`; trim markers `{{-` / `-}}`;
//! `.`, `$` and field chains on them (`.Values.a.b`, `$.Release.Name`);
//! string, number, `true`/`false`/`nil` literals; parenthesised pipelines;
//! pipelines of the functions `index`, `get`, `getOrNil`, `env` and
//! `requiredEnv` (on an environment map the caller gives), `quote`, `squote`,
//! `default`, `required`, `toYaml`, `toJson`, `indent`, `nindent`, `upper`,
//! `lower`, `trim`, `not`, `eq`, `ne`, `and`, `or`; `if`/`else if`/`else`/`end`,
//! `with`/`else`/`end`, and `range` (no variables) over lists and maps.
//! Anything else (variables, `exec`, `readFile`, other functions, ...)
//! is [`TmplError::Unsupported`], naming file:line:column and the construct:
//! releasex never guesses what a template would print.
//!
//! Rendering also returns [`Span`]s: which template text or action produced
//! each byte of the output, so the rendered YAML's positions map back to the
//! template, and a scalar printed whole by one action keeps the state
//! value's own origin.

use std::collections::BTreeMap;

use crate::go::json::{GoNumbers, JsonError, write_json};
use crate::go::value::{GoShape, GoValue};
use crate::go::quote::quote as go_quote;
use crate::values::tree::{Kind, Origin, V, VMap};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TmplError {
    /// Outside the subset: helmfile might succeed, releasex cannot say what it prints.
    #[error("{file}:{line}:{column}: {construct}: not in the Go template subset releasex evaluates (use --skip-templated to explain the rest)")]
    Unsupported { file: String, line: usize, column: usize, construct: String },
    /// helmfile fails here too (missing key, `required`, wrong type, ...).
    #[error("{file}:{line}:{column}: template: {message}")]
    Exec { file: String, line: usize, column: usize, message: String },
}

/// A Go value as a template sees it, with the origin of state values.
#[derive(Debug, Clone)]
pub struct Tv {
    pub val: Val,
    pub origin: Option<Origin>,
}

#[derive(Debug, Clone)]
pub enum Val {
    /// An untyped nil (a missing value or a YAML null).
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Tv>),
    /// `map[string]any` (Go ranges and prints keys sorted).
    Map(BTreeMap<String, Tv>),
    /// `map[string]string` (`.Release.Labels`).
    StrMap(BTreeMap<String, String>),
    /// A struct (`.`, `.Environment`, `.Release`): its type name and fields.
    Struct(&'static str, Vec<(&'static str, Tv)>),
    /// `*map[string]any` (`.StateValues`).
    Ptr(Box<Tv>),
}

impl Tv {
    pub fn new(val: Val) -> Tv {
        Tv { val, origin: None }
    }

    pub fn str(s: &str) -> Tv {
        Tv::new(Val::Str(s.into()))
    }

    /// A values tree as the template sees it (every node keeps its origin).
    pub fn from_v(v: &V) -> Tv {
        let val = match &v.kind {
            Kind::Null => Val::Nil,
            Kind::Bool(b) => Val::Bool(*b),
            Kind::Int(i) => Val::Int(*i),
            Kind::Float(f) => Val::Float(*f),
            Kind::Str(s) => Val::Str(s.clone()),
            Kind::List(l) => Val::List(l.iter().map(Tv::from_v).collect()),
            Kind::Map(m) => return Tv::from_map(m).with_origin(Some(v.origin.clone())),
        };
        Tv { val, origin: Some(v.origin.clone()) }
    }

    pub fn from_map(m: &VMap) -> Tv {
        Tv::new(Val::Map(m.iter().map(|(k, v)| (k.clone(), Tv::from_v(v))).collect()))
    }

    fn with_origin(mut self, o: Option<Origin>) -> Tv {
        self.origin = o;
        self
    }
}

/// A template value as Go's printers see it: `fmt` refuses structs and
/// pointers (it would print their fields or an address), `encoding/json`
/// follows the pointer and refuses structs.
impl GoValue for Tv {
    type Error = String;

    fn go_shape(&self) -> Result<GoShape<'_, Tv>, String> {
        Ok(match &self.val {
            Val::Struct(ty, _) => return Err(format!("printing a struct ({ty})")),
            Val::Ptr(_) => return Err("printing a pointer (`.StateValues`)".into()),
            Val::Nil => GoShape::Nil,
            Val::Bool(b) => GoShape::Bool(*b),
            Val::Int(i) => GoShape::Int(*i),
            Val::Float(f) => GoShape::Float(*f),
            Val::Str(s) => GoShape::Str(s),
            Val::List(l) => GoShape::List(l),
            Val::Map(m) => GoShape::Map(m.iter().map(|(k, v)| (k.as_str(), v)).collect()),
            Val::StrMap(m) => GoShape::StrMap(m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()),
        })
    }

    fn json_shape(&self) -> Result<GoShape<'_, Tv>, String> {
        match &self.val {
            Val::Struct(ty, _) => Err(format!("a struct ({ty})")),
            Val::Ptr(p) => p.json_shape(),
            _ => self.go_shape(),
        }
    }
}

/// Which template text or action produced `out` (byte range of the output).
#[derive(Debug, Clone)]
pub struct Span {
    pub out: std::ops::Range<usize>,
    /// Byte offset in the template of the first output byte (text), or of the action's `{{`.
    pub src: usize,
    /// `None` for copied text; for an action, the origin of the value it printed.
    pub action: Option<Option<Origin>>,
}

/// A rendered template.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub text: String,
    pub spans: Vec<Span>,
}

/// The process environment `env` and `requiredEnv` read, given by the caller.
pub type Environ = BTreeMap<String, String>;

/// Renders `src` (the contents of `file`) with `data` as `.` and `$`;
/// `environ` is what `env` / `requiredEnv` read (`None`: they are unsupported).
pub fn render(file: &str, src: &str, data: &Tv, environ: Option<&Environ>) -> Result<Rendered, TmplError> {
    let nodes = Parser::new(file, src).parse_all()?;
    let mut ex = Exec { file, src, out: String::new(), spans: Vec::new(), root: data, environ };
    ex.walk(&nodes, data)?;
    Ok(Rendered { text: ex.out, spans: ex.spans })
}

/// Whether `src` holds any template action or comment.
pub fn has_actions(src: &str) -> bool {
    src.contains("{{")
}

/// 1-based line and column (in characters) of byte offset `at` in `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

// ---------------------------------------------------------------- parsing

#[derive(Debug, Clone)]
enum Node {
    Text { text: String, src: usize },
    /// `open`: the offset of its `{{`.
    Action { pipe: Pipe, open: usize },
    If { pipe: Pipe, then: Vec<Node>, els: Vec<Node> },
    With { pipe: Pipe, then: Vec<Node>, els: Vec<Node> },
    Range { pipe: Pipe, body: Vec<Node>, els: Vec<Node> },
}

#[derive(Debug, Clone)]
struct Pipe {
    cmds: Vec<Cmd>,
    pos: usize,
}

#[derive(Debug, Clone)]
struct Cmd {
    args: Vec<Arg>,
    pos: usize,
}

#[derive(Debug, Clone)]
enum Arg {
    /// `.`, or a field chain on it (`.a.b`).
    Dot(Vec<String>, usize),
    /// `$` and a field chain on it.
    Root(Vec<String>, usize),
    Func(String, usize),
    Lit(Val),
    Sub(Box<Pipe>),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Field(String),
    Dot,
    Dollar,
    Ident(String),
    Str(String),
    Int(i64),
    Float(f64),
    Pipe,
    Open,
    Close,
    Other(String),
}

const FUNCS: &[&str] = &[
    "index", "get", "getOrNil", "env", "requiredEnv", "quote", "squote", "default", "required", "toYaml", "toJson", "indent", "nindent", "upper", "lower", "trim", "not", "eq", "ne", "and",
    "or",
];

struct Parser<'a> {
    file: &'a str,
    src: &'a str,
    at: usize,
}

/// One action's tokens, with their byte offsets.
type Toks = Vec<(Tok, usize)>;

type Items = std::iter::Peekable<std::vec::IntoIter<Item>>;

/// What ended a list of nodes: `{{end}}`, or `{{else ...}}` (its tokens), with the offset.
enum End {
    End(usize),
    Else(Toks, usize),
}

enum Item {
    Text(String, usize),
    /// An action's tokens; the offset of its `{{`.
    Action(Toks, usize),
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, src: &'a str) -> Parser<'a> {
        Parser { file, src, at: 0 }
    }

    fn unsupported(&self, at: usize, construct: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Unsupported { file: self.file.into(), line, column, construct: construct.into() }
    }

    /// Splits the source into text and actions, applying trim markers and dropping comments.
    fn items(&mut self) -> Result<Vec<Item>, TmplError> {
        let src = self.src;
        let mut items: Vec<Item> = Vec::new();
        let mut text_start = 0usize;
        while let Some(rel) = src[self.at..].find("{{") {
            let open = self.at + rel;
            let mut text = &src[text_start..open];
            let mut inner = open + 2;
            let trim_left = src[inner..].starts_with('-') && src[inner + 1..].starts_with([' ', '\t', '\r', '\n']);
            if trim_left {
                text = text.trim_end_matches([' ', '\t', '\r', '\n']);
                inner += 2;
            }
            if !text.is_empty() {
                items.push(Item::Text(text.to_string(), text_start));
            }
            if !src[inner..].contains("}}") {
                return Err(self.unsupported(open, "an unclosed action"));
            }
            // A `}}` inside a string or comment: find the real end by lexing.
            let (toks, end, trim_right) = if src[inner..].starts_with("/*") {
                let Some(c) = src[inner + 2..].find("*/") else { return Err(self.unsupported(open, "an unclosed comment")) };
                let after = inner + 2 + c + 2;
                let (end, trim_right) = if src[after..].starts_with("}}") {
                    (after + 2, false)
                } else if src[after..].starts_with(" -}}") {
                    (after + 4, true)
                } else {
                    return Err(self.unsupported(open, "a comment not closed by `*/}}`"));
                };
                (None, end, trim_right)
            } else {
                let (toks, end, trim_right) = self.lex_action(inner, open)?;
                (Some(toks), end, trim_right)
            };
            if let Some(toks) = toks {
                items.push(Item::Action(toks, open));
            }
            self.at = end;
            text_start = end;
            if trim_right {
                let rest = &src[end..];
                let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\n']);
                text_start = end + (rest.len() - trimmed.len());
                self.at = text_start;
            }
        }
        if text_start < src.len() {
            items.push(Item::Text(src[text_start..].to_string(), text_start));
        }
        Ok(items)
    }

    /// The tokens of the action whose body starts at `i`; the offset after its `}}`, and whether it trims right.
    fn lex_action(&self, mut i: usize, open: usize) -> Result<(Toks, usize, bool), TmplError> {
        let src = self.src;
        let b = src.as_bytes();
        let mut toks = Vec::new();
        loop {
            let Some(&c) = b.get(i) else { return Err(self.unsupported(open, "an unclosed action")) };
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    if src[i..].trim_start_matches([' ', '\t', '\r', '\n']).starts_with("-}}") {
                        let j = src.len() - src[i..].trim_start_matches([' ', '\t', '\r', '\n']).len();
                        return Ok((toks, j + 3, true));
                    }
                    i += 1;
                }
                b'}' if src[i..].starts_with("}}") => return Ok((toks, i + 2, false)),
                b'|' => {
                    toks.push((Tok::Pipe, i));
                    i += 1;
                }
                b'(' => {
                    toks.push((Tok::Open, i));
                    i += 1;
                }
                b')' => {
                    toks.push((Tok::Close, i));
                    i += 1;
                }
                b'"' => {
                    let (s, end) = self.lex_string(i)?;
                    toks.push((Tok::Str(s), i));
                    i = end;
                }
                b'`' => {
                    let Some(e) = src[i + 1..].find('`') else { return Err(self.unsupported(i, "an unclosed raw string")) };
                    toks.push((Tok::Str(src[i + 1..i + 1 + e].to_string()), i));
                    i = i + 1 + e + 1;
                }
                b'.' => {
                    let n = ident_len(&src[i + 1..]);
                    if n == 0 {
                        if b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                            return Err(self.unsupported(i, format!("the number `{}`", word(&src[i..]))));
                        }
                        toks.push((Tok::Dot, i));
                        i += 1;
                    } else {
                        toks.push((Tok::Field(src[i + 1..i + 1 + n].to_string()), i));
                        i += 1 + n;
                    }
                }
                b'$' => {
                    let n = ident_len(&src[i + 1..]);
                    if n > 0 {
                        return Err(self.unsupported(i, format!("the variable `${}`", &src[i + 1..i + 1 + n])));
                    }
                    toks.push((Tok::Dollar, i));
                    i += 1;
                }
                b'0'..=b'9' | b'-' | b'+' => {
                    let w = number_word(&src[i..]);
                    toks.push((parse_number(w).ok_or_else(|| self.unsupported(i, format!("the number `{w}`")))?, i));
                    i += w.len().max(1);
                }
                c if c == b'_' || c.is_ascii_alphabetic() => {
                    let n = ident_len(&src[i..]);
                    toks.push((Tok::Ident(src[i..i + n].to_string()), i));
                    i += n;
                }
                _ => {
                    let w: String = src[i..].chars().take_while(|c| !c.is_whitespace() && *c != '}').collect();
                    let w = if w.is_empty() { src[i..].chars().next().map(String::from).unwrap_or_default() } else { w };
                    toks.push((Tok::Other(w.clone()), i));
                    i += w.len();
                }
            }
        }
    }

    /// A Go interpreted string literal starting at `i` (`"`): its value and the offset after it.
    fn lex_string(&self, i: usize) -> Result<(String, usize), TmplError> {
        let src = self.src;
        let mut out = String::new();
        let mut chars = src[i + 1..].char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => return Ok((out, i + 1 + k + 1)),
                '\n' => break,
                '\\' => {
                    let Some((_, e)) = chars.next() else { break };
                    let simple = match e {
                        'n' => Some('\n'),
                        't' => Some('\t'),
                        'r' => Some('\r'),
                        '\\' => Some('\\'),
                        '"' => Some('"'),
                        'a' => Some('\x07'),
                        'b' => Some('\x08'),
                        'f' => Some('\x0c'),
                        'v' => Some('\x0b'),
                        _ => None,
                    };
                    match simple {
                        Some(c) => out.push(c),
                        None => return Err(self.unsupported(i, format!("the escape `\\{e}` in a string literal"))),
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.unsupported(i, "an unterminated string literal"))
    }

    fn parse_all(&mut self) -> Result<Vec<Node>, TmplError> {
        let items = self.items()?;
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
                        let sub = self.pipe(toks, i, at)?;
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

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Field(f) => format!("`.{f}`"),
        Tok::Dot => "`.`".into(),
        Tok::Dollar => "`$`".into(),
        Tok::Ident(w) | Tok::Other(w) => format!("`{w}`"),
        Tok::Str(s) => format!("{s:?}"),
        Tok::Int(n) => n.to_string(),
        Tok::Float(f) => f.to_string(),
        Tok::Pipe => "`|`".into(),
        Tok::Open => "`(`".into(),
        Tok::Close => "`)`".into(),
    }
}

fn ident_len(s: &str) -> usize {
    s.char_indices().find(|(_, c)| !(c.is_alphanumeric() || *c == '_')).map_or(s.len(), |(i, _)| i)
}

fn word(s: &str) -> &str {
    let n = s.char_indices().find(|(_, c)| c.is_whitespace() || *c == '}' || *c == ')' || *c == '|').map_or(s.len(), |(i, _)| i);
    &s[..n]
}

fn number_word(s: &str) -> &str {
    let n = s.char_indices().skip(1).find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '.' || *c == '_' || *c == '+' || *c == '-')).map_or(s.len(), |(i, _)| i);
    &s[..n]
}

/// Decimal integers and floats (`1`, `-2`, `1.5`, `1e3`); anything else (hex, `_`, imaginary) is refused.
fn parse_number(w: &str) -> Option<Tok> {
    let body = w.strip_prefix(['-', '+']).unwrap_or(w);
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit()) || body.contains('_') {
        return None;
    }
    if body.bytes().all(|c| c.is_ascii_digit()) {
        if body.len() > 1 && body.starts_with('0') {
            return None; // octal
        }
        return w.parse::<i64>().ok().map(Tok::Int);
    }
    let ok = body.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !ok || body.starts_with("0x") {
        return None;
    }
    w.parse::<f64>().ok().filter(|f| f.is_finite()).map(Tok::Float)
}

// ---------------------------------------------------------------- execution

struct Exec<'a> {
    file: &'a str,
    src: &'a str,
    out: String,
    spans: Vec<Span>,
    root: &'a Tv,
    environ: Option<&'a Environ>,
}

impl Exec<'_> {
    fn err(&self, at: usize, message: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Exec { file: self.file.into(), line, column, message: message.into() }
    }

    fn unsupported(&self, at: usize, construct: impl Into<String>) -> TmplError {
        let (line, column) = line_col(self.src, at);
        TmplError::Unsupported { file: self.file.into(), line, column, construct: construct.into() }
    }

    fn emit(&mut self, text: &str, src: usize, action: Option<Option<Origin>>) {
        if text.is_empty() {
            return;
        }
        let start = self.out.len();
        self.out.push_str(text);
        self.spans.push(Span { out: start..self.out.len(), src, action });
    }

    fn walk(&mut self, nodes: &[Node], dot: &Tv) -> Result<(), TmplError> {
        for n in nodes {
            match n {
                Node::Text { text, src } => self.emit(text, *src, None),
                Node::Action { pipe, open } => {
                    let v = self.pipe(pipe, dot)?;
                    let text = self.print(&v, pipe.pos)?;
                    self.emit(&text, *open, Some(v.origin.clone()));
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

    fn call(&self, name: &str, args: Vec<Tv>, at: usize) -> Result<Tv, TmplError> {
        let got = args.len();
        let wrong = |n: usize| self.err(at, format!("wrong number of args for {name}: want {n} got {got}"));
        let first_origin = args.last().and_then(|a| a.origin.clone());
        let string_arg = |v: &Tv| -> Result<String, TmplError> {
            match &v.val {
                Val::Str(s) => Ok(s.clone()),
                Val::Nil => Err(self.err(at, format!("error calling {name}: invalid value; expected string"))),
                other => Err(self.err(at, format!("wrong type for value; expected string; got {}", go_type(other)))),
            }
        };
        match name {
            "quote" | "squote" => {
                let mut parts = Vec::new();
                for a in &args {
                    if matches!(a.val, Val::Nil) {
                        continue;
                    }
                    let s = strval(a).map_err(|w| self.unsupported(at, w))?;
                    parts.push(if name == "quote" { go_quote(&s) } else { format!("'{s}'") });
                }
                let origin = if args.len() == 1 { first_origin } else { None };
                Ok(Tv { val: Val::Str(parts.join(" ")), origin })
            }
            "default" => {
                let mut it = args.into_iter();
                let Some(d) = it.next() else { return Err(wrong(1)) };
                let given: Vec<Tv> = it.collect();
                match given.first() {
                    Some(g) if !empty(&g.val) => Ok(g.clone()),
                    _ => Ok(d),
                }
            }
            "required" => {
                let [warn, val] = <[Tv; 2]>::try_from(args).map_err(|a| self.err(at, format!("wrong number of args for required: want 2 got {}", a.len())))?;
                let warn = string_arg(&warn)?;
                match &val.val {
                    Val::Nil => Err(self.err(at, format!("error calling required: {warn}"))),
                    Val::Str(s) if s.is_empty() => Err(self.err(at, format!("error calling required: {warn}"))),
                    _ => Ok(val),
                }
            }
            "upper" | "lower" | "trim" => {
                let [s] = <[Tv; 1]>::try_from(args).map_err(|_| wrong(1))?;
                let text = string_arg(&s)?;
                let out = match name {
                    "upper" => go_case(&text, true),
                    "lower" => go_case(&text, false),
                    _ => text.trim().to_string(),
                };
                Ok(Tv { val: Val::Str(out), origin: s.origin })
            }
            "indent" | "nindent" => {
                let [n, s] = <[Tv; 2]>::try_from(args).map_err(|_| wrong(2))?;
                let Val::Int(n) = n.val else { return Err(self.unsupported(at, format!("{name} with a width that is not an integer literal"))) };
                let text = string_arg(&s)?;
                let pad = " ".repeat(usize::try_from(n).unwrap_or(0));
                let body = format!("{pad}{}", text.replace('\n', &format!("\n{pad}")));
                let out = if name == "nindent" { format!("\n{body}") } else { body };
                Ok(Tv { val: Val::Str(out), origin: s.origin })
            }
            "toYaml" => {
                let [v] = <[Tv; 1]>::try_from(args).map_err(|_| wrong(1))?;
                let out = to_yaml(&v).map_err(|w| self.unsupported(at, format!("toYaml of {w}")))?;
                Ok(Tv { val: Val::Str(out), origin: v.origin })
            }
            "toJson" => {
                let [v] = <[Tv; 1]>::try_from(args).map_err(|_| wrong(1))?;
                let out = to_json(&v).map_err(|w| self.unsupported(at, format!("toJson of {w}")))?;
                Ok(Tv { val: Val::Str(out), origin: v.origin })
            }
            "get" | "getOrNil" => {
                let n = args.len();
                let mut it = args.into_iter();
                let (Some(path), Some(a), b) = (it.next(), it.next(), it.next()) else { return Err(wrong(2)) };
                if n > 3 || (name == "getOrNil" && n != 2) {
                    return Err(wrong(if name == "get" { 3 } else { 2 }));
                }
                let path = string_arg(&path)?;
                let (def, obj) = match b {
                    Some(obj) => (Some(a), obj),
                    None => (None, a),
                };
                match helmfile_get(&path, def.as_ref(), &obj) {
                    Ok(v) => Ok(v),
                    Err(GetError::NoValue(m)) if name == "getOrNil" => {
                        let _ = m;
                        Ok(Tv::new(Val::Nil))
                    }
                    Err(GetError::NoValue(m)) => Err(self.err(at, format!("error calling get: {m}"))),
                    Err(GetError::Unsupported(w)) => Err(self.unsupported(at, w)),
                }
            }
            "index" => {
                let mut it = args.into_iter();
                let Some(mut item) = it.next() else { return Err(wrong(1)) };
                if let Val::Ptr(p) = item.val {
                    item = *p;
                }
                if matches!(item.val, Val::Nil) {
                    return Err(self.err(at, "error calling index: index of untyped nil"));
                }
                for ix in it {
                    item = match (&item.val, &ix.val) {
                        (Val::Nil, _) => return Err(self.err(at, "error calling index: index of nil pointer")),
                        (Val::Map(m), Val::Str(k)) => m.get(k).cloned().unwrap_or_else(|| Tv::new(Val::Nil)),
                        (Val::StrMap(m), Val::Str(k)) => Tv::str(m.get(k).map_or("", String::as_str)),
                        (Val::List(l), Val::Int(i)) => match usize::try_from(*i).ok().and_then(|i| l.get(i)) {
                            Some(v) => v.clone(),
                            None => return Err(self.err(at, format!("error calling index: index out of range: {i}"))),
                        },
                        (Val::Map(_) | Val::StrMap(_), other) => {
                            return Err(self.err(at, format!("error calling index: value has type {}; should be string", go_type(other))));
                        }
                        (Val::Str(_) | Val::List(_), _) => return Err(self.unsupported(at, "index of a string, or of a list with a computed index")),
                        (other, _) => return Err(self.err(at, format!("error calling index: can't index item of type {}", go_type(other)))),
                    };
                }
                Ok(item)
            }
            "env" | "requiredEnv" => {
                let Some(environ) = self.environ else { return Err(self.unsupported(at, format!("the function `{name}` (no environment was given)"))) };
                let [n] = <[Tv; 1]>::try_from(args).map_err(|_| wrong(1))?;
                let n = string_arg(&n)?;
                match environ.get(&n) {
                    Some(v) if !v.is_empty() || name == "env" => Ok(Tv::str(v)),
                    _ if name == "env" => Ok(Tv::str("")),
                    _ => Err(self.err(at, format!("error calling requiredEnv: required env var `{n}` is not set"))),
                }
            }
            "not" => {
                let [v] = <[Tv; 1]>::try_from(args).map_err(|_| wrong(1))?;
                Ok(Tv::new(Val::Bool(!truth(&v.val))))
            }
            "and" | "or" => {
                if args.is_empty() {
                    return Err(wrong(1));
                }
                // Go 1.18+: evaluation stops at the first false (and) or true (or) argument.
                let n = args.len();
                for (i, a) in args.into_iter().enumerate() {
                    if i + 1 == n || truth(&a.val) != (name == "and") {
                        return Ok(a);
                    }
                }
                Err(wrong(1))
            }
            "eq" | "ne" => {
                let mut it = args.into_iter();
                let (Some(a), Some(b)) = (it.next(), it.next()) else { return Err(wrong(2)) };
                let rest: Vec<Tv> = it.collect();
                if name == "ne" && !rest.is_empty() {
                    return Err(wrong(2));
                }
                let cmp = |x: &Val, y: &Val| match basic_eq(x, y) {
                    Ok(Some(b)) => Ok(b),
                    Ok(None) => Err(self.err(at, format!("error calling {name}: incompatible types for comparison"))),
                    Err(w) => Err(self.unsupported(at, w)),
                };
                let mut any = cmp(&a.val, &b.val)?;
                for r in &rest {
                    any = any || cmp(&a.val, &r.val)?;
                }
                Ok(Tv::new(Val::Bool(if name == "eq" { any } else { !any })))
            }
            other => Err(self.unsupported(at, format!("the function `{other}`"))),
        }
    }
}

/// Marks a template data field releasex does not model: reading it is unsupported.
pub const UNMODELLED: &str = "\u{0}unmodelled";

/// `eq` on basic values: `None` for two basic values of different kinds
/// (Go: "incompatible types for comparison"); comparing nil with a value,
/// a map or a list is refused.
fn basic_eq(a: &Val, b: &Val) -> Result<Option<bool>, String> {
    let basic = |v: &Val| matches!(v, Val::Bool(_) | Val::Int(_) | Val::Float(_) | Val::Str(_));
    Ok(Some(match (a, b) {
        (Val::Nil, Val::Nil) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (x, y) if basic(x) && basic(y) => return Ok(None),
        (x, y) => return Err(format!("eq of {} and {}", go_type(x), go_type(y))),
    }))
}

/// Go's `isTrue`.
fn truth(v: &Val) -> bool {
    match v {
        Val::Nil => false,
        Val::Bool(b) => *b,
        Val::Int(i) => *i != 0,
        Val::Float(f) => *f != 0.0,
        Val::Str(s) => !s.is_empty(),
        Val::List(l) => !l.is_empty(),
        Val::Map(m) => !m.is_empty(),
        Val::StrMap(m) => !m.is_empty(),
        Val::Struct(..) | Val::Ptr(_) => true,
    }
}

/// sprig's `empty` (what `default` replaces).
fn empty(v: &Val) -> bool {
    match v {
        Val::Struct(..) | Val::Ptr(_) => false,
        other => !truth(other),
    }
}

fn go_type(v: &Val) -> &'static str {
    match v {
        Val::Nil => "nil",
        Val::Bool(_) => "bool",
        Val::Int(_) => "int",
        Val::Float(_) => "float64",
        Val::Str(_) => "string",
        Val::List(_) => "[]interface {}",
        Val::Map(_) => "map[string]interface {}",
        Val::StrMap(_) => "map[string]string",
        Val::Struct(t, _) => t,
        Val::Ptr(_) => "*map[string]interface {}",
    }
}

enum GetError {
    NoValue(String),
    Unsupported(String),
}

/// helmfile's `get(path, [default,] obj)` (pkg/tmpl/get_or_nil.go): keys split
/// on `.`; a missing map key or struct field gives the default when one was
/// passed; any other receiver (nil, a string, a list) is a "no value" error,
/// default or not.
fn helmfile_get(path: &str, def: Option<&Tv>, obj: &Tv) -> Result<Tv, GetError> {
    if path.is_empty() {
        return Ok(obj.clone());
    }
    let (key, rest) = path.split_once('.').unwrap_or((path, ""));
    let obj = match &obj.val {
        Val::Ptr(p) => p.as_ref(),
        _ => obj,
    };
    let missing = |what: String| match def {
        Some(d) => Ok(d.clone()),
        None => Err(GetError::NoValue(what)),
    };
    let v = match &obj.val {
        Val::Map(m) => match m.get(key) {
            Some(v) => v.clone(),
            None => return missing(format!("no value exist for key \"{key}\"")),
        },
        Val::StrMap(m) => {
            // map[string]string returns the value without looking further.
            return match m.get(key) {
                Some(v) => Ok(Tv::str(v)),
                None => missing(format!("no value exist for key \"{key}\"")),
            };
        }
        Val::Struct(_, fields) => match fields.iter().find(|(n, _)| *n == key) {
            Some((_, v)) if matches!(&v.val, Val::Str(s) if s == UNMODELLED) => return Err(GetError::Unsupported(format!("the field `{key}` (not modelled by releasex)"))),
            Some((_, v)) => v.clone(),
            None => return missing(format!("no field named \"{key}\"")),
        },
        other => return Err(GetError::NoValue(format!("unexpected type({}) of value for key \"{key}\"", go_type(other)))),
    };
    helmfile_get(rest, def, &v)
}

/// sprig's `strval`: strings as they are, anything else as `%v`.
fn strval(v: &Tv) -> Result<String, String> {
    match &v.val {
        Val::Str(s) => Ok(s.clone()),
        _ => go_sprint(v),
    }
}

/// `fmt.Sprint` of a value (top level: a string prints bare).
fn go_sprint(v: &Tv) -> Result<String, String> {
    crate::go::fmt::try_go_v(v)
}

/// `strings.ToUpper` / `ToLower`: Go maps rune by rune (simple case mapping).
fn go_case(s: &str, upper: bool) -> String {
    s.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            if m.len() == 1 { m.pop().unwrap_or(c) } else { c }
        })
        .collect()
}

/// sprig's `toJson` (`encoding/json`: keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped).
fn to_json(v: &Tv) -> Result<String, String> {
    let mut out = String::new();
    write_json(&mut out, v, GoNumbers::default()).map_err(|e| match e {
        JsonError::NonFinite(_) => "a NaN or infinite number".to_string(),
        JsonError::Value(what) => what,
    })?;
    Ok(out)
}

/// helmfile's `toYaml` (yaml.v3's encoder, indent 2, trailing newline kept),
/// for values whose every string yaml.v3 would write plain; any other
/// string (one it would quote or fold) is refused rather than guessed.
fn to_yaml(v: &Tv) -> Result<String, String> {
    let mut out = String::new();
    match &v.val {
        Val::Map(m) if !m.is_empty() => yaml_map(m.iter().map(|(k, x)| (k.as_str(), x.clone())).collect(), 0, &mut out)?,
        Val::StrMap(m) if !m.is_empty() => yaml_map(m.iter().map(|(k, x)| (k.as_str(), Tv::str(x))).collect(), 0, &mut out)?,
        Val::List(l) if !l.is_empty() => yaml_list(l, 0, &mut out)?,
        Val::Ptr(p) => return to_yaml(p),
        _ => {
            out.push_str(&yaml_inline(v)?);
            out.push('\n');
        }
    }
    Ok(out)
}

fn yaml_inline(v: &Tv) -> Result<String, String> {
    Ok(match &v.val {
        Val::Nil => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Float(f) => {
            let s = crate::go::fmt::go_float(*f);
            match s.as_str() {
                "+Inf" => ".inf".into(),
                "-Inf" => "-.inf".into(),
                "NaN" => ".nan".into(),
                _ => s,
            }
        }
        Val::Str(s) => yaml_plain(s)?.to_string(),
        Val::Map(m) if m.is_empty() => "{}".into(),
        Val::StrMap(m) if m.is_empty() => "{}".into(),
        Val::List(l) if l.is_empty() => "[]".into(),
        Val::Struct(ty, _) => return Err(format!("a struct ({ty})")),
        _ => return Err("a nested value in this position".into()),
    })
}

/// A string yaml.v3 writes plain, certainly: an ASCII letter (or `_` and a
/// letter) first, or a digit first when yaml.v3 would not read it back as
/// a number or a date (`100m`, `1.2.3`); then letters, digits, `_`, `-`,
/// `.`, `/` and single inner spaces; and not a word YAML reads as a bool or null.
fn yaml_plain(s: &str) -> Result<&str, String> {
    let letter_first = s.trim_start_matches('_').starts_with(|c: char| c.is_ascii_alphabetic()) && !s.starts_with("__");
    let digit_first = s.starts_with(|c: char| c.is_ascii_digit()) && !s.contains('_') && !yaml_number_or_date(s);
    let ok = (letter_first || digit_first)
        && !s.ends_with(' ')
        && !s.contains("  ")
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ' '))
        && !matches!(
            s,
            "true" | "True" | "TRUE" | "false" | "False" | "FALSE" | "null" | "Null" | "NULL" | "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
        );
    if ok { Ok(s) } else { Err(format!("the string {} (yaml.v3 may quote it)", go_quote(s))) }
}

/// Whether a digit-first string might read back as a number (`8080`, `1.`,
/// `1e5`, `0x1F`) or a timestamp (`2024-01-02...`) in yaml.v3.
fn yaml_number_or_date(s: &str) -> bool {
    let b = s.as_bytes();
    let float_like = {
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        !int.is_empty()
            && int.bytes().all(|c| c.is_ascii_digit())
            && frac.bytes().all(|c| c.is_ascii_digit())
            && exp.is_none_or(|e| {
                let e = e.strip_prefix(['+', '-']).unwrap_or(e);
                !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())
            })
    };
    let prefixed = b.len() > 1 && b[0] == b'0' && matches!(b[1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B');
    let date = b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    float_like || prefixed || date
}

/// yaml.v3's map key order (`keyList.Less`): runs of digits compare as numbers, letters before other characters.
fn yaml_key_less(a: &str, b: &str) -> bool {
    let (ar, br): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut digits = false;
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            digits = ar[i].is_numeric();
            i += 1;
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return if digits { al } else { bl };
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_numeric() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an.wrapping_mul(10).wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn.wrapping_mul(10).wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

fn yaml_map(mut entries: Vec<(&str, Tv)>, indent: usize, out: &mut String) -> Result<(), String> {
    entries.sort_by(|(a, _), (b, _)| {
        if yaml_key_less(a, b) {
            std::cmp::Ordering::Less
        } else if yaml_key_less(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let pad = " ".repeat(indent);
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&pad);
        }
        out.push_str(yaml_plain(k)?);
        out.push(':');
        yaml_value(v, indent, out)?;
    }
    Ok(())
}

/// A value after `key:` or `- `: inline on the same line, or a nested block.
fn yaml_value(v: &Tv, indent: usize, out: &mut String) -> Result<(), String> {
    match &v.val {
        Val::Map(m) if !m.is_empty() => {
            out.push('\n');
            yaml_map(m.iter().map(|(k, x)| (k.as_str(), x.clone())).collect(), indent + 2, out)
        }
        Val::StrMap(m) if !m.is_empty() => {
            out.push('\n');
            yaml_map(m.iter().map(|(k, x)| (k.as_str(), Tv::str(x))).collect(), indent + 2, out)
        }
        Val::List(l) if !l.is_empty() => {
            out.push('\n');
            yaml_list(l, indent + 2, out)
        }
        Val::Ptr(p) => yaml_value(p, indent, out),
        _ => {
            out.push(' ');
            out.push_str(&yaml_inline(v)?);
            out.push('\n');
            Ok(())
        }
    }
}

fn yaml_list(l: &[Tv], indent: usize, out: &mut String) -> Result<(), String> {
    let pad = " ".repeat(indent);
    for (i, x) in l.iter().enumerate() {
        // The first item of a list inside a list shares its parent's `- ` line.
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&pad);
        }
        out.push_str("- ");
        match &x.val {
            Val::Map(m) if !m.is_empty() => yaml_map(m.iter().map(|(k, y)| (k.as_str(), y.clone())).collect(), indent + 2, out)?,
            Val::List(inner) if !inner.is_empty() => yaml_list(inner, indent + 2, out)?,
            _ => {
                out.push_str(&yaml_inline(x)?);
                out.push('\n');
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Expected outputs were produced by Go 1.19's text/template with sprig
    //! v3, yaml.v3 (indent 2) and `missingkey=error`, on the same values.
    use super::*;
    use crate::values::tree::Source;

    const VALUES: &str = r#"s: hello
num: 5
big: 1000000
bigf: 1000000.0
f: 1.5
e: 1e6
nul: null
b: true
m: {b: 2, a: "x y", z: [1, two]}
l: [a, 1, null]
emptys: ""
nested: {inner: {k: v}, a10: 1, a2: 2, B: 3, _x: 4}
uni: "é\u00a0\u200b\t\"<&>"
nested2: [[1, 2], {a: [x]}, [], {}]
"#;

    fn values() -> VMap {
        let m = crate::values::tree::load_tree(VALUES, "v.yaml", &|_, pos| Source::Helmfile {
            layer: "environment".into(),
            file: Some("v.yaml".into()),
            line: Some(pos.line),
            column: Some(pos.column),
            expr: None,
            secret: false,
            via: None,
        })
        .unwrap();
        super::super::state::integers(m, VALUES)
    }

    fn data() -> Tv {
        let v = Tv::from_map(&values());
        Tv::new(Val::Struct("data", vec![("Values", v.clone()), ("StateValues", Tv::new(Val::Ptr(Box::new(v))))]))
    }

    fn out(t: &str) -> String {
        render("t.gotmpl", t, &data(), None).unwrap_or_else(|e| panic!("{t}: {e}")).text
    }

    fn err(t: &str) -> TmplError {
        render("t.gotmpl", t, &data(), None).expect_err(t)
    }

    fn unsupported(t: &str) -> (usize, usize, String) {
        match err(t) {
            TmplError::Unsupported { line, column, construct, .. } => (line, column, construct),
            other => panic!("{t}: {other:?}"),
        }
    }

    fn exec_err(t: &str) -> (usize, usize, String) {
        match err(t) {
            TmplError::Exec { line, column, message, .. } => (line, column, message),
            other => panic!("{t}: {other:?}"),
        }
    }

    #[test]
    fn printing_follows_fmt_print() {
        // Integers written as integers stay ints; float literals print in %g (1e+06).
        assert_eq!(out("{{ .Values.s }} {{ .Values.num }} {{ .Values.big }} {{ .Values.bigf }} {{ .Values.f }} {{ .Values.e }}"), "hello 5 1000000 1e+06 1.5 1e+06");
        // nil prints <no value> at the top, <nil> inside; maps sorted.
        assert_eq!(out("{{ .Values.nul }} {{ .Values.b }} {{ .Values.m }} {{ .Values.l }}"), "<no value> true map[a:x y b:2 z:[1 two]] [a 1 <nil>]");
        assert_eq!(out("{{ $.Values.s }}"), "hello");
        assert_eq!(out("{{ .StateValues.s }}"), "hello");
    }

    #[test]
    fn text_comments_and_trim_markers() {
        assert_eq!(out("8 {{- \"  trimmed  \" -}} |x"), "8  trimmed  |x");
        assert_eq!(out("13 {{/* comment */}}{{- /* c2 */ -}} after"), "13 after");
        assert_eq!(out("a:\n  {{- /* gone */}}\nb"), "a:\nb");
        assert_eq!(out("plain: text\n"), "plain: text\n");
    }

    #[test]
    fn quote_squote_and_strconv_escapes() {
        assert_eq!(out("{{ .Values.s | quote }} {{ .Values.num | quote }} {{ .Values.nul | quote }} {{ .Values.m | quote }} {{ .Values.s | squote }}"), "\"hello\" \"5\"  \"map[a:x y b:2 z:[1 two]]\" 'hello'");
        assert_eq!(out("{{ .Values.uni | quote }}"), r#""é\u00a0\u200b\t\"<&>""#);
    }

    #[test]
    fn to_json_like_encoding_json() {
        assert_eq!(out("{{ .Values.m | toJson }}"), r#"{"a":"x y","b":2,"z":[1,"two"]}"#);
        assert_eq!(out("{{ .Values.uni | toJson }}"), "\"é\u{a0}\u{200b}\\t\\\"\\u003c\\u0026\\u003e\"");
        assert_eq!(out("{{ .Values.bigf | toJson }} {{ 1e21 | toJson }} {{ 0.0000001 | toJson }}"), "1000000 1e+21 1e-7");
    }

    #[test]
    fn default_uses_sprig_empty() {
        assert_eq!(out(r#"{{ .Values.emptys | default "d" }} {{ .Values.num | default 7 }} {{ 0 | default 7 }} {{ .Values.nul | default "z" }}"#), "d 5 7 z");
    }

    #[test]
    fn index_get_and_get_or_nil() {
        assert_eq!(out(r#"{{ index .Values "m" "a" }} {{ index .Values "nope" }} {{ index .Values.l 1 }}"#), "x y <no value> 1");
        assert_eq!(out(r#"{{ index .StateValues "s" }}"#), "hello");
        assert_eq!(out(r#"{{ get "m.a" .Values }} {{ get "m.nope" "dflt" .Values }} {{ getOrNil "m.nope" .Values }} {{ .Values | get "nested.inner.k" }}"#), "x y dflt <no value> v");
        // A default covers a missing key only: through a string or a nil it is an error.
        let (_, _, m) = exec_err(r#"{{ get "s.x" "d" .Values }}"#);
        assert!(m.contains("unexpected type(string)"), "{m}");
        assert_eq!(out(r#"{{ getOrNil "s.x" .Values }}|{{ getOrNil "nul.x" .Values }}"#), "<no value>|<no value>");
        let (l, c, m) = exec_err("\n  {{ get \"nope\" .Values }}");
        assert_eq!((l, c), (2, 6));
        assert!(m.contains("no value exist for key \"nope\""), "{m}");
        let (_, _, m) = exec_err(r#"{{ index .Values "nope" "deeper" }}"#);
        assert!(m.contains("index of nil pointer"), "{m}");
    }

    #[test]
    fn string_functions_want_strings() {
        assert_eq!(out(r#"|{{ "  x  " | trim }}|{{ "aB" | upper }}{{ "aB" | lower }}"#), "|x|ABab");
        let (_, _, m) = exec_err("{{ .Values.num | upper }}");
        assert!(m.contains("expected string; got int"), "{m}");
        let (_, _, m) = exec_err("{{ .Values.nul | upper }}");
        assert!(m.contains("invalid value; expected string"), "{m}");
    }

    #[test]
    fn to_yaml_like_yaml_v3_with_indent_2() {
        assert_eq!(out("{{ .Values.nested | toYaml }}"), "_x: 4\nB: 3\na2: 2\na10: 1\ninner:\n  k: v\n");
        assert_eq!(out("{{ .Values.m.z | toYaml }}{{ .Values.l | toYaml }}"), "- 1\n- two\n- a\n- 1\n- null\n");
        assert_eq!(out("x: {{ .Values.nested | toYaml | nindent 2 }}"), "x: \n  _x: 4\n  B: 3\n  a2: 2\n  a10: 1\n  inner:\n    k: v\n  ");
        assert_eq!(out("{{ .Values.bigf | toYaml }}{{ .Values.f | toYaml }}{{ .Values.s | toYaml }}"), "1e+06\n1.5\nhello\n");
        assert_eq!(out("{{ .Values.nested2 | toYaml }}"), "- - 1\n  - 2\n- a:\n    - x\n- []\n- {}\n");
        // A string yaml.v3 might quote is refused, not guessed.
        assert_eq!(out("{{ .Values.m | toYaml }}"), "a: x y\nb: 2\nz:\n  - 1\n  - two\n");
        // Strings yaml.v3 quotes (\"\" and escapes here) are refused, not guessed.
        let (_, _, c) = unsupported("{{ .Values.emptys | toYaml }}");
        assert_eq!(c, "toYaml of the string \"\" (yaml.v3 may quote it)");
        assert!(unsupported("{{ .Values.uni | toYaml }}").2.starts_with("toYaml of the string"));
        // Digit-first strings yaml.v3 leaves plain, and those it would quote.
        for (s, plain) in [("100m", true), ("1.2.3", true), ("1e5x", true), ("12ab", true), ("08", false), ("1.", false), ("1e5", false), ("0x1G", false), ("2024-01-01x", false)] {
            assert_eq!(yaml_plain(s).is_ok(), plain, "{s}");
        }
    }

    #[test]
    fn control_structures() {
        assert_eq!(
            out("{{ if .Values.b }}yes{{ else }}no{{ end }} {{ with .Values.m }}{{ .b }}{{ end }} {{ range .Values.m.z }}[{{ . }}]{{ end }} {{ range .Values.m }}<{{ . }}>{{ end }}"),
            "yes 2 [1][two] <x y><2><[1 two]>"
        );
        assert_eq!(out("{{ if .Values.emptys }}a{{ else if .Values.num }}b{{ else }}c{{ end }}"), "b");
        assert_eq!(out("{{ if .Values.emptys }}a{{ else if .Values.nul }}b{{ else }}c{{ end }}"), "c");
        assert_eq!(out("{{ with .Values.nul }}a{{ else with .Values.m }}{{ .b }}{{ end }}"), "2");
        assert_eq!(out("{{ range .Values.nul }}x{{ else }}none{{ end }}"), "none");
    }

    #[test]
    fn more_cases_checked_against_go() {
        let (_, _, m) = exec_err("{{ index .Values.l 5 }}");
        assert!(m.contains("index out of range: 5"), "{m}");
        assert_eq!(out(r#"{{ and .Values.b "x" }}|{{ or .Values.nul .Values.emptys }}|"#), "x||");
        assert_eq!(out("{{ with .Values.nul }}x{{ else }}y{{ end }}|{{ with .Values.m }}{{ .a }}{{ else }}n{{ end }}"), "y|x y");
        assert_eq!(out("{{-3}}|{{ 1.0 }}|{{ 1e6 }}|{{ -0 }}"), "-3|1|1e+06|0");
        assert_eq!(out("{{ .Values.f | quote }}|{{ .Values.bigf | quote }}|{{ .Values.l | quote }}|{{ quote .Values.s .Values.num }}"), r#""1.5"|"1e+06"|"[a 1 <nil>]"|"hello" "5""#);
        assert_eq!(out(r#"{{ .Values.s | upper | quote }}|{{ "x" | default .Values.s }}"#), r#""HELLO"|x"#);
        assert_eq!(out("{{ .Values.m.z | toJson }}|{{ .Values.nul | toJson }}|{{ .Values.l | toJson }}"), r#"[1,"two"]|null|["a",1,null]"#);
        assert_eq!(out(r#"{{ eq .Values.num 5 }}|{{ ne .Values.s "x" }}|{{ eq .Values.s "a" "hello" }}"#), "true|true|true");
        assert_eq!(out(r#"{{ if and .Values.b (eq .Values.s "hello") }}ok{{ end }}"#), "ok");
        assert_eq!(out("{{ range .Values.l }}{{ . }},{{ end }}"), "a,1,<no value>,");
        assert_eq!(out("{{ \"a\\tb\" | squote }}|{{ `raw\\n` }}"), "'a\tb'|raw\\n");
        assert_eq!(out("{{ .Values.e | toJson }}|{{ .Values.big | toJson }}"), "1000000|1000000");
        assert_eq!(out("{{ eq .Values.f 1.5 }}"), "true");
        let (_, _, m) = exec_err("{{ eq .Values.num 5.0 }}");
        assert!(m.contains("incompatible types for comparison"), "{m}");
        let (_, _, m) = exec_err("{{ .Values.num | indent 2 }}");
        assert!(m.contains("expected string; got int"), "{m}");
    }

    #[test]
    fn logic_functions() {
        assert_eq!(out(r#"{{ eq .Values.s "hello" }} {{ and 1 0 }} {{ or 0 "" "x" }} {{ not .Values.b }}"#), "true 0 x false");
    }

    #[test]
    fn missing_keys_and_nil_receivers_are_errors() {
        let (l, c, m) = exec_err("a: 1\nb: {{ .Values.nope }}");
        assert_eq!((l, c), (2, 7));
        assert_eq!(m, "map has no entry for key \"nope\"");
        let (_, _, m) = exec_err("{{ .Values.nul.x }}");
        assert_eq!(m, "nil pointer evaluating interface {}.x");
        let (_, _, m) = exec_err("{{ .Values.s.x }}");
        assert_eq!(m, "can't evaluate field x in type interface {}");
        let (_, _, m) = exec_err("{{ .Nope }}");
        assert!(m.contains("can't evaluate field Nope"), "{m}");
        let (_, _, m) = exec_err(r#"{{ required "need it" .Values.emptys }}"#);
        assert!(m.contains("need it"), "{m}");
        assert_eq!(out(r#"{{ required "need it" .Values.s }}"#), "hello");
    }

    #[test]
    fn everything_else_is_unsupported_with_its_position() {
        assert_eq!(unsupported("a\n  {{ env \"HOME\" }}"), (2, 6, "the function `env` (no environment was given)".into()));
        assert_eq!(unsupported("{{ requiredEnv \"X\" }}").2, "the function `requiredEnv` (no environment was given)");
        assert_eq!(unsupported("{{ envExec \"X\" }}").2, "the function `envExec`");
        assert_eq!(unsupported("{{ exec \"ls\" (list) }}").2, "the function `exec`");
        assert_eq!(unsupported("{{ readFile \"x\" }}").2, "the function `readFile`");
        assert_eq!(unsupported("{{ fetchSecretValue \"x\" }}").2, "the function `fetchSecretValue`");
        assert_eq!(unsupported("{{ $x := 1 }}").2, "the variable `$x`");
        assert_eq!(unsupported("{{ template \"x\" }}").2, "`template`");
        assert_eq!(unsupported("{{ .Values.s").2, "an unclosed action");
        assert_eq!(unsupported("{{ if .Values.b }}x").2, "`if` without `end`");
        assert_eq!(unsupported("x\n{{ end }}"), (2, 4, "`{{end}}` without an opening `if`, `with` or `range`".into()));
        assert_eq!(unsupported("{{ else }}").2, "`{{else}}` without an opening `if`, `with` or `range`");
        assert_eq!(unsupported("{{ range .Values.l }}{{ else if .Values.b }}{{ end }}").2, "this `else` form");
        assert!(unsupported("{{ .StateValues }}").2.contains("pointer"));
        assert_eq!(unsupported("{{ 0x10 }}").2, "the number `0x10`");
    }

    #[test]
    fn env_and_required_env_read_the_given_map() {
        let environ: Environ = [("TAG".to_string(), "v1".to_string()), ("EMPTY".to_string(), String::new())].into();
        let r = |t: &str| render("t.gotmpl", t, &data(), Some(&environ));
        assert_eq!(r(r#"{{ env "TAG" }}|{{ env "UNSET" }}|{{ env "EMPTY" | default "d" }}|{{ requiredEnv "TAG" }}"#).unwrap().text, "v1||d|v1");
        for t in [r#"{{ requiredEnv "UNSET" }}"#, r#"{{ requiredEnv "EMPTY" }}"#] {
            match r(t) {
                Err(TmplError::Exec { message, .. }) => assert!(message.contains("required env var"), "{message}"),
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn spans_map_output_back_to_the_template() {
        let r = render("t.gotmpl", "a: {{ .Values.s }}\nb: x\n", &data(), None).unwrap();
        assert_eq!(r.text, "a: hello\nb: x\n");
        let action = r.spans.iter().find(|s| s.action.is_some()).unwrap();
        assert_eq!(&r.text[action.out.clone()], "hello");
        assert_eq!(action.src, 3);
        let origin = action.action.clone().flatten().unwrap();
        assert!(matches!(&*origin, Source::Helmfile { line: Some(1), column: Some(4), .. }), "{origin:?}");
        // quote keeps the origin of the one value it quotes.
        let r = render("t.gotmpl", "a: {{ .Values.num | quote }}", &data(), None).unwrap();
        assert!(matches!(r.spans[1].action.clone().flatten().as_deref(), Some(Source::Helmfile { line: Some(2), .. })));
        // A literal has no origin.
        let r = render("t.gotmpl", "a: {{ \"lit\" }}", &data(), None).unwrap();
        assert!(r.spans[1].action.clone().flatten().is_none());
    }
}
