//! The parser: Go's text/template/parse (parse.go, node.go, Go 1.19) over
//! the lexer's items, with the same three-token look-ahead, so its
//! messages (`template: t:1: unexpected "}" in operand`, `function "x" not
//! defined`, ...) and node positions are Go's. Node `Display` is Go's
//! `Node.String()`, which exec errors quote as their context.

use std::collections::HashMap;
use std::fmt::{self, Display, Write};
use std::rc::Rc;

use super::lex::{Item, Lexer, T, lex};
use super::literal::{number, unquote, unquote_bytes};

/// Nodes borrow their template's text by offsets ([`Sp`]) instead of owning
/// copies of it: a chart's trees are most of a render's memory otherwise.
pub(super) type List = Box<[Node]>;

/// A piece of the tree's text by byte offsets (`Tree::src`, or the text
/// being parsed): a field or variable name, a function name, a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Sp {
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Sp {
    pub(super) fn of(self, src: &str) -> &str {
        src.get(self.start..self.end).unwrap_or("")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Branch {
    If,
    Range,
    With,
}

#[derive(Debug)]
pub(super) enum Node {
    /// The text is `src[pos..end]`.
    Text { pos: usize, end: usize },
    Action { pos: usize, pipe: Box<Pipe> },
    Branch(Box<BranchNode>),
    Template { pos: usize, name: Box<str>, pipe: Option<Box<Pipe>> },
    Break { pos: usize },
    Continue { pos: usize },
}

#[derive(Debug)]
pub(super) struct BranchNode {
    pub(super) kind: Branch,
    pub(super) pos: usize,
    pub(super) pipe: Pipe,
    pub(super) list: List,
    pub(super) els: Option<List>,
}

#[derive(Debug)]
pub(super) struct Pipe {
    pub(super) pos: usize,
    pub(super) is_assign: bool,
    /// The declared variables' names (`$x`).
    pub(super) decl: Box<[Sp]>,
    pub(super) cmds: Box<[Cmd]>,
}

#[derive(Debug)]
pub(super) struct Cmd {
    pub(super) pos: usize,
    pub(super) args: Box<[Arg]>,
}

/// A number literal as Go's `NumberNode` holds it: every type that can represent it.
#[derive(Debug, Clone, Default)]
pub(super) struct Number {
    pub(super) text: String,
    pub(super) int: Option<i64>,
    pub(super) uint: Option<u64>,
    pub(super) float: Option<f64>,
    pub(super) complex: bool,
}

#[derive(Debug)]
pub(super) enum Arg {
    /// `.a.b`: the names without their dots.
    Field { pos: usize, ident: Box<[Sp]> },
    /// `(pipe).a.b` (or `.a` after another term): the term, then the fields.
    Chain { pos: usize, node: Box<Arg>, fields: Box<[Sp]> },
    /// `$`, `$x`, `$x.a.b`: the variable's name first.
    Var { pos: usize, ident: Box<[Sp]> },
    Ident { pos: usize, name: Sp },
    Dot { pos: usize },
    Nil { pos: usize },
    Bool { pos: usize, val: bool },
    /// Boxed: numbers are rare and large.
    Number { pos: usize, num: Box<Number> },
    /// `quoted` is the literal as written; `text` its value when that is not
    /// the text between the quotes (an escape, a `\r` in a raw string).
    Str { pos: usize, quoted: Sp, text: Option<Box<str>> },
    Pipe(Box<Pipe>),
}

impl Arg {
    pub(super) fn pos(&self) -> usize {
        match self {
            Arg::Field { pos, .. } | Arg::Chain { pos, .. } | Arg::Var { pos, .. } | Arg::Ident { pos, .. } | Arg::Dot { pos } | Arg::Nil { pos } | Arg::Bool { pos, .. } | Arg::Number { pos, .. } | Arg::Str { pos, .. } => *pos,
            Arg::Pipe(p) => p.pos,
        }
    }

    /// A string literal's value (`src`: its tree's text); `None` for other nodes.
    pub(super) fn str_value<'s>(&'s self, src: &'s str) -> Option<&'s str> {
        match self {
            Arg::Str { text: Some(text), .. } => Some(text),
            Arg::Str { quoted, text: None, .. } => {
                let q = quoted.of(src);
                Some(q.get(1..q.len().saturating_sub(1)).unwrap_or(""))
            }
            _ => None,
        }
    }
}

/// A node with its tree's text, to print it (Go's `Node.String()`).
pub(super) struct In<'a, N: ?Sized>(pub(super) &'a N, pub(super) &'a str);

/// The text of a token (offsets of its `val` in the text being lexed).
fn sp(t: &Item<'_>) -> Sp {
    Sp { start: t.pos, end: t.pos + t.val.len() }
}

/// `.`-separated names starting at `start`, as [`Sp`]s (`split('.')`).
fn split_names(text: &str, start: usize) -> Box<[Sp]> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'.', b).count() + 1);
    let mut from = 0;
    for dot in memchr::memchr_iter(b'.', b) {
        out.push(Sp { start: start + from, end: start + dot });
        from = dot + 1;
    }
    out.push(Sp { start: start + from, end: start + b.len() });
    out.into_boxed_slice()
}

/// A parsed template set: the named trees (the main one and every
/// `define`/`block`), each with the source it was parsed from (a set may
/// hold the files of a whole chart, as Helm's engine parses them).
#[derive(Debug, Default, Clone)]
pub(super) struct Trees {
    /// Shared names: `tpl` copies the set on each call.
    pub(super) trees: HashMap<Rc<str>, Rc<Tree>, crate::FastHash>,
}

/// One named template and where it was defined.
#[derive(Debug)]
pub(super) struct Tree {
    pub(super) list: List,
    /// The name of the text it was parsed from (Go's `Tree.ParseName`, in errors).
    pub(super) parse_name: Rc<str>,
    pub(super) src: Rc<str>,
}

impl Trees {
    /// Parses `src` as the template `name` into this set, as Go's
    /// `t.New(name).Parse(src)` does: the text's own definitions must be
    /// unique (parse.go `Tree.add`), and each replaces a template of the
    /// same name already in the set unless it is empty and the old one is
    /// not (template.go `associate`).
    pub(super) fn parse_into(&mut self, name: &str, src: &str, has_function: &dyn Fn(&str) -> bool) -> PResult<()> {
        self.parse_shared_into(name, Rc::from(src), has_function)
    }

    /// [`Trees::parse_into`] of a text already shared.
    pub(super) fn parse_shared_into(&mut self, name: &str, src: Rc<str>, has_function: &dyn Fn(&str) -> bool) -> PResult<()> {
        let parsed = parse_shared(name, src, has_function)?;
        for (n, tree) in parsed.trees {
            if let Some(old) = self.trees.get(&*n)
                && is_empty_tree(&tree.list, &tree.src)
                && !is_empty_tree(&old.list, &old.src)
            {
                continue;
            }
            self.trees.insert(n, tree);
        }
        Ok(())
    }
}

/// A parse failure: Go's message (`template: NAME:LINE: ...`), the line,
/// and the function name when the failure is an undefined function.
#[derive(Debug, Clone)]
pub(super) struct ParseError {
    pub(super) go: String,
    pub(super) message: String,
    pub(super) line: usize,
    /// An undefined function's name and offset.
    pub(super) undefined_function: Option<(String, usize)>,
    /// Something Go accepts that releasex does not model, and its offset.
    pub(super) unsupported: Option<(String, usize)>,
    /// Nesting past the limit, at this offset (the block's `{{` or the `(`).
    pub(super) too_deep: Option<usize>,
}

type PResult<X> = Result<X, Box<ParseError>>;

/// Parses `src` as the template `name` (Go's `template.New(name).Parse(src)`);
/// `has_function` says which identifiers are functions.
pub(super) fn parse(name: &str, src: &str, has_function: &dyn Fn(&str) -> bool) -> PResult<Trees> {
    parse_shared(name, Rc::from(src), has_function)
}

/// [`parse`] of a text already shared: the trees keep `src` itself, not a copy.
pub(super) fn parse_shared(name: &str, source: Rc<str>, has_function: &dyn Fn(&str) -> bool) -> PResult<Trees> {
    let src: &str = &source;
    let lexer = lex(src, !has_function("break"), !has_function("continue"));
    let parse_name: Rc<str> = Rc::from(name);
    let mut p = Parser { name, parse_name, source: Rc::clone(&source), src, lexer, token: [None, None, None], peek_count: 0, vars: vec!["$"], range_depth: 0, action_line: 0, action_pos: 0, has_function, depth: 0, trees: Trees::default(), nodes: Vec::new(), cmds: Vec::new(), args: Vec::new() };
    let root = p.parse_top()?;
    p.add(name, root)?;
    Ok(p.trees)
}

struct Parser<'a> {
    name: &'a str,
    parse_name: Rc<str>,
    source: Rc<str>,
    /// `source`'s text, which the items and nodes point into.
    src: &'a str,
    lexer: Lexer<'a>,
    token: [Option<Item<'a>>; 3],
    peek_count: usize,
    vars: Vec<&'a str>,
    range_depth: usize,
    action_line: usize,
    /// The offset of the current action's `{{`.
    action_pos: usize,
    has_function: &'a dyn Fn(&str) -> bool,
    depth: usize,
    trees: Trees,
    /// Stacks the lists, pipelines and commands being parsed collect on;
    /// each takes its own top part off, at its exact size (no growing and
    /// shrinking of a vector per node). A nested one is done before its parent goes on.
    nodes: Vec<Node>,
    cmds: Vec<Cmd>,
    args: Vec<Arg>,
}

/// What ends a list: `{{end}}` or `{{else}}` (its position, for Go's messages).
enum Stop {
    End,
    Else,
}

impl<'a> Parser<'a> {
    fn lex_next(&mut self) -> Item<'a> {
        self.lexer.next_item()
    }

    fn tok(&self, i: usize) -> Item<'a> {
        self.token[i].unwrap_or(Item { typ: T::Eof, pos: 0, val: "", line: 1 })
    }

    fn next(&mut self) -> Item<'a> {
        if self.peek_count > 0 {
            self.peek_count -= 1;
        } else {
            self.token[0] = Some(self.lex_next());
        }
        self.tok(self.peek_count)
    }

    fn backup(&mut self) {
        self.peek_count += 1;
    }

    fn backup2(&mut self, t1: Item<'a>) {
        self.token[1] = Some(t1);
        self.peek_count = 2;
    }

    fn backup3(&mut self, t2: Item<'a>, t1: Item<'a>) {
        self.token[1] = Some(t1);
        self.token[2] = Some(t2);
        self.peek_count = 3;
    }

    fn peek(&mut self) -> Item<'a> {
        if self.peek_count > 0 {
            return self.tok(self.peek_count - 1);
        }
        self.peek_count = 1;
        self.token[0] = Some(self.lex_next());
        self.tok(0)
    }

    fn next_non_space(&mut self) -> Item<'a> {
        loop {
            let t = self.next();
            if t.typ != T::Space {
                return t;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item<'a> {
        let t = self.next_non_space();
        self.backup();
        t
    }

    /// parse.go `errorf`: the line is that of the last token read.
    fn errorf(&self, message: String) -> Box<ParseError> {
        let line = self.token[0].as_ref().map_or(1, |t| t.line);
        Box::new(ParseError { go: format!("template: {}:{line}: {message}", self.name), message, line, undefined_function: None, unsupported: None, too_deep: None })
    }

    fn unexpected(&self, token: &Item<'_>, context: &str) -> Box<ParseError> {
        if token.typ == T::Error {
            let message = &self.lexer.error;
            let mut extra = String::new();
            if self.action_line != 0 && self.action_line != token.line {
                extra = format!(" in action started at {}:{}", self.name, self.action_line);
                if message.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.errorf(format!("{message}{extra}"));
        }
        self.errorf(format!("unexpected {token} in {context}"))
    }

    fn expect(&mut self, typ: T, context: &str) -> PResult<Item<'a>> {
        let t = self.next_non_space();
        if t.typ != typ {
            return Err(self.unexpected(&t, context));
        }
        Ok(t)
    }

    /// One more nested block or parenthesis; past [`super::MAX_NESTING`] an error.
    fn enter(&mut self, at: usize) -> PResult<()> {
        self.depth += 1;
        if self.depth > super::MAX_NESTING {
            let mut e = self.errorf(format!("nested more than {} deep", super::MAX_NESTING));
            e.too_deep = Some(at);
            return Err(e);
        }
        Ok(())
    }

    /// Go's `Tree.add`: a second non-empty definition of a name is an error.
    fn add(&mut self, name: &str, root: List) -> PResult<()> {
        match self.trees.trees.get(name) {
            Some(old) if !is_empty_tree(&old.list, &old.src) && !is_empty_tree(&root, self.src) => Err(self.errorf(format!("template: multiple definition of template {}", crate::go::quote::quote(name)))),
            Some(old) if !is_empty_tree(&old.list, &old.src) => Ok(()),
            _ => {
                let tree = Tree { list: root, parse_name: Rc::clone(&self.parse_name), src: Rc::clone(&self.source) };
                self.trees.trees.insert(Rc::from(name), Rc::new(tree));
                Ok(())
            }
        }
    }

    fn parse_top(&mut self) -> PResult<List> {
        let base = self.nodes.len();
        while self.peek().typ != T::Eof {
            if self.peek().typ == T::LeftDelim {
                let delim = self.next();
                if self.next_non_space().typ == T::Define {
                    self.parse_definition()?;
                    continue;
                }
                self.backup2(delim);
            }
            match self.text_or_action()? {
                Ok(n) => self.nodes.push(n),
                Err(Stop::End) => return Err(self.errorf("unexpected {{end}}".into())),
                Err(Stop::Else) => return Err(self.errorf("unexpected {{else}}".into())),
            }
        }
        Ok(self.nodes.drain(base..).collect())
    }

    fn parse_definition(&mut self) -> PResult<()> {
        let context = "define clause";
        let name = self.next_non_space();
        if name.typ != T::String && name.typ != T::RawString {
            return Err(self.unexpected(&name, context));
        }
        let name = unquote(name.val).ok_or_else(|| self.errorf("invalid syntax".into()))?;
        self.expect(T::RightDelim, context)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$"]);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        if let Stop::Else = stop {
            return Err(self.errorf(format!("unexpected {{{{else}}}} in {context}")));
        }
        self.add(&name, list)
    }

    /// Nodes up to `{{end}}` or `{{else}}`.
    fn item_list(&mut self) -> PResult<(List, Stop)> {
        let base = self.nodes.len();
        while self.peek_non_space().typ != T::Eof {
            match self.text_or_action()? {
                Ok(n) => self.nodes.push(n),
                Err(stop) => return Ok((self.nodes.drain(base..).collect(), stop)),
            }
        }
        Err(self.errorf("unexpected EOF".into()))
    }

    /// A node, or the `end`/`else` that stops a list.
    fn text_or_action(&mut self) -> PResult<Result<Node, Stop>> {
        let token = self.next_non_space();
        match token.typ {
            T::Text => Ok(Ok(Node::Text { pos: token.pos, end: token.pos + token.val.len() })),
            T::LeftDelim => {
                self.action_line = token.line;
                self.action_pos = token.pos;
                let r = self.action();
                self.action_line = 0;
                r
            }
            _ => Err(self.unexpected(&token, "input")),
        }
    }

    fn action(&mut self) -> PResult<Result<Node, Stop>> {
        let token = self.next_non_space();
        let node = match token.typ {
            T::Block => self.block_control()?,
            T::Break | T::Continue => {
                let word = if token.typ == T::Break { "break" } else { "continue" };
                let t = self.next_non_space();
                if t.typ != T::RightDelim {
                    return Err(self.unexpected(&t, &format!("{{{{{word}}}}}")));
                }
                if self.range_depth == 0 {
                    return Err(self.errorf(format!("{{{{{word}}}}} outside {{{{range}}}}")));
                }
                if token.typ == T::Break { Node::Break { pos: token.pos } } else { Node::Continue { pos: token.pos } }
            }
            T::Else => {
                let peek = self.peek_non_space();
                if peek.typ == T::If {
                    return Ok(Err(Stop::Else));
                }
                self.expect(T::RightDelim, "else")?;
                return Ok(Err(Stop::Else));
            }
            T::End => {
                self.expect(T::RightDelim, "end")?;
                return Ok(Err(Stop::End));
            }
            T::If => self.control(Branch::If)?,
            T::Range => self.control(Branch::Range)?,
            T::With => self.control(Branch::With)?,
            T::Template => self.template_control()?,
            _ => {
                self.backup();
                let pos = self.peek().pos;
                Node::Action { pos, pipe: Box::new(self.pipeline("command", T::RightDelim)?) }
            }
        };
        Ok(Ok(node))
    }

    fn control(&mut self, kind: Branch) -> PResult<Node> {
        let context = match kind {
            Branch::If => "if",
            Branch::Range => "range",
            Branch::With => "with",
        };
        self.enter(self.action_pos)?;
        let nvars = self.vars.len();
        let pipe = self.pipeline(context, T::RightDelim)?;
        if kind == Branch::Range {
            self.range_depth += 1;
        }
        let (list, stop) = self.item_list()?;
        if kind == Branch::Range {
            self.range_depth -= 1;
        }
        let els = match stop {
            Stop::End => None,
            Stop::Else => {
                // `{{else if b}}` is `{{else}}{{if b}}...{{end}}{{end}}` with one `end` (parse.go parseControl).
                if kind == Branch::If && self.peek().typ == T::If {
                    self.next();
                    Some(Box::new([self.control(Branch::If)?]) as List)
                } else {
                    let (els, stop) = self.item_list()?;
                    if let Stop::Else = stop {
                        return Err(self.errorf("expected end; found {{else}}".into()));
                    }
                    Some(els)
                }
            }
        };
        self.vars.truncate(nvars);
        self.depth -= 1;
        Ok(Node::Branch(Box::new(BranchNode { kind, pos: pipe.pos, pipe, list, els })))
    }

    fn template_name(&mut self, token: &Item<'_>, context: &str) -> PResult<String> {
        match token.typ {
            T::String | T::RawString => unquote(token.val).ok_or_else(|| self.errorf("invalid syntax".into())),
            _ => Err(self.unexpected(token, context)),
        }
    }

    fn block_control(&mut self) -> PResult<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = self.pipeline(context, T::RightDelim)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$"]);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        if let Stop::Else = stop {
            return Err(self.errorf(format!("unexpected {{{{else}}}} in {context}")));
        }
        self.add(&name, list)?;
        Ok(Node::Template { pos: token.pos, name: name.into_boxed_str(), pipe: Some(Box::new(pipe)) })
    }

    fn template_control(&mut self) -> PResult<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = if self.next_non_space().typ != T::RightDelim {
            self.backup();
            Some(Box::new(self.pipeline(context, T::RightDelim)?))
        } else {
            None
        };
        Ok(Node::Template { pos: token.pos, name: name.into_boxed_str(), pipe })
    }

    fn pipeline(&mut self, context: &str, end: T) -> PResult<Pipe> {
        let token = self.peek_non_space();
        let pos = token.pos;
        let mut is_assign = false;
        let mut decl: Vec<Sp> = Vec::new();
        let base = self.cmds.len();
        loop {
            let v = self.peek_non_space();
            if v.typ != T::Variable {
                break;
            }
            self.next();
            let after = self.peek();
            let next = self.peek_non_space();
            match next.typ {
                T::Assign | T::Declare => {
                    is_assign = next.typ == T::Assign;
                    self.next_non_space();
                    decl.push(sp(&v));
                    self.vars.push(v.val);
                }
                T::Char if next.val == "," => {
                    self.next_non_space();
                    decl.push(sp(&v));
                    self.vars.push(v.val);
                    if context == "range" && decl.len() < 2 {
                        match self.peek_non_space().typ {
                            T::Variable | T::RightDelim | T::RightParen => continue,
                            _ => return Err(self.errorf("range can only initialize variables".into())),
                        }
                    }
                    return Err(self.errorf(format!("too many declarations in {context}")));
                }
                _ if after.typ == T::Space => self.backup3(v, after),
                _ => self.backup2(v),
            }
            break;
        }
        loop {
            let token = self.next_non_space();
            match token.typ {
                t if t == end => {
                    if self.cmds.len() == base {
                        return Err(self.errorf(format!("missing value for {context}")));
                    }
                    for (i, c) in self.cmds[base..].iter().enumerate().skip(1) {
                        if matches!(c.args.first(), Some(Arg::Bool { .. } | Arg::Dot { .. } | Arg::Nil { .. } | Arg::Number { .. } | Arg::Str { .. })) {
                            return Err(self.errorf(format!("non executable command in pipeline stage {}", i + 1)));
                        }
                    }
                    return Ok(Pipe { pos, is_assign, decl: decl.into_boxed_slice(), cmds: self.cmds.drain(base..).collect() });
                }
                T::Bool | T::CharConstant | T::Complex | T::Dot | T::Field | T::Identifier | T::Number | T::Nil | T::RawString | T::String | T::Variable | T::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    self.cmds.push(cmd);
                }
                _ => return Err(self.unexpected(&token, context)),
            }
        }
    }

    fn command(&mut self) -> PResult<Cmd> {
        let pos = self.peek_non_space().pos;
        let base = self.args.len();
        loop {
            self.peek_non_space();
            if let Some(a) = self.operand()? {
                self.args.push(a);
            }
            let token = self.next();
            match token.typ {
                T::Space => continue,
                T::RightDelim | T::RightParen => self.backup(),
                T::Pipe => {}
                _ => return Err(self.unexpected(&token, "operand")),
            }
            break;
        }
        if self.args.len() == base {
            return Err(self.errorf("empty command".into()));
        }
        Ok(Cmd { pos, args: self.args.drain(base..).collect() })
    }

    fn operand(&mut self) -> PResult<Option<Arg>> {
        let Some(node) = self.term()? else { return Ok(None) };
        if self.peek().typ != T::Field {
            return Ok(Some(node));
        }
        let pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().typ == T::Field {
            let t = self.next();
            fields.push(Sp { start: t.pos + 1, end: t.pos + t.val.len() });
        }
        let joined = |ident: Box<[Sp]>, fields: Vec<Sp>| {
            let mut ident = ident.into_vec();
            ident.extend(fields);
            ident.into_boxed_slice()
        };
        Ok(Some(match node {
            Arg::Field { ident, .. } => Arg::Field { pos, ident: joined(ident, fields) },
            Arg::Var { ident, .. } => Arg::Var { pos, ident: joined(ident, fields) },
            Arg::Bool { .. } | Arg::Str { .. } | Arg::Number { .. } | Arg::Nil { .. } | Arg::Dot { .. } => {
                return Err(self.errorf(format!("unexpected . after term {}", crate::go::quote::quote(&In(&node, self.src).to_string()))));
            }
            other => Arg::Chain { pos, node: Box::new(other), fields: fields.into_boxed_slice() },
        }))
    }

    fn term(&mut self) -> PResult<Option<Arg>> {
        let token = self.next_non_space();
        let pos = token.pos;
        Ok(Some(match token.typ {
            T::Identifier => {
                if !(self.has_function)(token.val) {
                    let mut e = self.errorf(format!("function {} not defined", crate::go::quote::quote(token.val)));
                    e.undefined_function = Some((token.val.to_string(), pos));
                    return Err(e);
                }
                Arg::Ident { pos, name: sp(&token) }
            }
            T::Dot => Arg::Dot { pos },
            T::Nil => Arg::Nil { pos },
            T::Variable => {
                let first = token.val.get(..memchr::memchr(b'.', token.val.as_bytes()).unwrap_or(token.val.len())).unwrap_or("");
                if !self.vars.contains(&first) {
                    return Err(self.errorf(format!("undefined variable {}", crate::go::quote::quote(first))));
                }
                Arg::Var { pos, ident: split_names(token.val, pos) }
            }
            T::Field => Arg::Field { pos, ident: split_names(token.val.get(1..).unwrap_or(""), pos + 1) },
            T::Bool => Arg::Bool { pos, val: token.val == "true" },
            T::CharConstant | T::Complex | T::Number => Arg::Number { pos, num: Box::new(number(token.val, token.typ).map_err(|m| self.errorf(m))?) },
            T::LeftParen => {
                self.enter(pos)?;
                let p = self.pipeline("parenthesized pipeline", T::RightParen)?;
                self.depth -= 1;
                Arg::Pipe(Box::new(p))
            }
            T::String | T::RawString => {
                let inner = token.val.get(1..token.val.len().saturating_sub(1)).unwrap_or("");
                // What the lexer passes as a string has no unescaped quote and
                // no newline: without a backslash (or, raw, a CR) it is its own value.
                let plain = match token.typ {
                    T::String => memchr::memchr(b'\\', inner.as_bytes()).is_none(),
                    _ => memchr::memchr(b'\r', inner.as_bytes()).is_none(),
                };
                let text = if plain {
                    None
                } else {
                    match unquote_bytes(token.val) {
                        None => return Err(self.errorf("invalid syntax".into())),
                        // The usual literal is the text between its quotes: nothing to keep.
                        Some(bytes) if bytes == inner.as_bytes() => None,
                        Some(bytes) => match String::from_utf8(bytes) {
                            Ok(text) => Some(text.into_boxed_str()),
                            Err(_) => {
                                // `"\xff"`: a Go string holds bytes that are not UTF-8; releasex's strings cannot.
                                let what = "a string literal with bytes that are not UTF-8";
                                let mut e = self.errorf(what.into());
                                e.unsupported = Some((what.into(), pos));
                                return Err(e);
                            }
                        },
                    }
                };
                Arg::Str { pos, quoted: sp(&token), text }
            }
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

/// Go's `parse.IsEmptyTree`: only space-only text (and comments); `src` is the list's text.
fn is_empty_tree(list: &List, src: &str) -> bool {
    list.iter().all(|n| matches!(n, Node::Text { pos, end } if src.get(*pos..*end).unwrap_or("").trim_matches([' ', '\t', '\r', '\n', '\x0b', '\x0c']).is_empty()))
}

/// `.a.b` of names in `src`.
fn write_names(f: &mut fmt::Formatter<'_>, names: &[Sp], src: &str) -> fmt::Result {
    names.iter().try_for_each(|n| write!(f, ".{}", n.of(src)))
}

impl Display for In<'_, Arg> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let src = self.1;
        match self.0 {
            Arg::Field { ident, .. } => write_names(f, ident, src),
            Arg::Chain { node, fields, .. } => {
                match node.as_ref() {
                    Arg::Pipe(p) => write!(f, "({})", In(p.as_ref(), src))?,
                    other => write!(f, "{}", In(other, src))?,
                }
                write_names(f, fields, src)
            }
            Arg::Var { ident, .. } => {
                for (i, n) in ident.iter().enumerate() {
                    if i > 0 {
                        f.write_char('.')?;
                    }
                    f.write_str(n.of(src))?;
                }
                Ok(())
            }
            Arg::Ident { name, .. } => f.write_str(name.of(src)),
            Arg::Dot { .. } => f.write_str("."),
            Arg::Nil { .. } => f.write_str("nil"),
            Arg::Bool { val, .. } => write!(f, "{val}"),
            Arg::Number { num, .. } => f.write_str(&num.text),
            Arg::Str { quoted, .. } => f.write_str(quoted.of(src)),
            Arg::Pipe(p) => write!(f, "{}", In(p.as_ref(), src)),
        }
    }
}

impl Display for In<'_, Cmd> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.0.args.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            match a {
                Arg::Pipe(p) => write!(f, "({})", In(p.as_ref(), self.1))?,
                other => write!(f, "{}", In(other, self.1))?,
            }
        }
        Ok(())
    }
}

impl Display for In<'_, Pipe> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (pipe, src) = (self.0, self.1);
        if !pipe.decl.is_empty() {
            for (i, d) in pipe.decl.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(d.of(src))?;
            }
            f.write_str(" := ")?;
        }
        for (i, c) in pipe.cmds.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{}", In(c, src))?;
        }
        Ok(())
    }
}

impl Display for In<'_, Node> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let src = self.1;
        match self.0 {
            Node::Text { pos, end } => f.write_str(src.get(*pos..*end).unwrap_or("")),
            Node::Action { pipe, .. } => write!(f, "{{{{{}}}}}", In(pipe.as_ref(), src)),
            Node::Branch(b) => {
                let BranchNode { kind, pipe, list, els, .. } = b.as_ref();
                let word = match kind {
                    Branch::If => "if",
                    Branch::Range => "range",
                    Branch::With => "with",
                };
                write!(f, "{{{{{word} {}}}}}", In(pipe, src))?;
                list.iter().try_for_each(|n| write!(f, "{}", In(n, src)))?;
                if let Some(els) = els {
                    f.write_str("{{else}}")?;
                    els.iter().try_for_each(|n| write!(f, "{}", In(n, src)))?;
                }
                f.write_str("{{end}}")
            }
            Node::Template { name, pipe, .. } => match pipe {
                None => write!(f, "{{{{template {}}}}}", crate::go::quote::quote(name)),
                Some(p) => write!(f, "{{{{template {} {}}}}}", crate::go::quote::quote(name), In(p.as_ref(), src)),
            },
            Node::Break { .. } => f.write_str("{{break}}"),
            Node::Continue { .. } => f.write_str("{{continue}}"),
        }
    }
}
