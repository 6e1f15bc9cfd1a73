//! The parser: Go's text/template/parse (parse.go, node.go, Go 1.19) over
//! the lexer's items, with the same three-token look-ahead, so its
//! messages (`template: t:1: unexpected "}" in operand`, `function "x" not
//! defined`, ...) and node positions are Go's. Node `Display` is Go's
//! `Node.String()`, which exec errors quote as their context.

use std::collections::HashMap;
use std::fmt::{self, Display, Write};
use std::rc::Rc;

use super::lex::{Item, Lexer, T, lex};

pub(super) type List = Vec<Node>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Branch {
    If,
    Range,
    With,
}

#[derive(Debug)]
pub(super) enum Node {
    Text { pos: usize, text: String },
    Action { pos: usize, pipe: Box<Pipe> },
    Branch(Box<BranchNode>),
    Template { pos: usize, name: String, pipe: Option<Pipe> },
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
    pub(super) decl: Vec<String>,
    pub(super) cmds: Vec<Cmd>,
}

#[derive(Debug)]
pub(super) struct Cmd {
    pub(super) pos: usize,
    pub(super) args: Vec<Arg>,
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
    Field { pos: usize, ident: Vec<String> },
    /// `(pipe).a.b` (or `.a` after another term): the term, then the fields.
    Chain { pos: usize, node: Box<Arg>, fields: Vec<String> },
    /// `$`, `$x`, `$x.a.b`: the variable's name first.
    Var { pos: usize, ident: Vec<String> },
    Ident { pos: usize, name: String },
    Dot { pos: usize },
    Nil { pos: usize },
    Bool { pos: usize, val: bool },
    Number { pos: usize, num: Number },
    Str { pos: usize, quoted: String, text: String },
    Pipe(Box<Pipe>),
}

impl Arg {
    pub(super) fn pos(&self) -> usize {
        match self {
            Arg::Field { pos, .. } | Arg::Chain { pos, .. } | Arg::Var { pos, .. } | Arg::Ident { pos, .. } | Arg::Dot { pos } | Arg::Nil { pos } | Arg::Bool { pos, .. } | Arg::Number { pos, .. } | Arg::Str { pos, .. } => *pos,
            Arg::Pipe(p) => p.pos,
        }
    }
}

/// A parsed template set: the named trees (the main one and every
/// `define`/`block`), each with the source it was parsed from (a set may
/// hold the files of a whole chart, as Helm's engine parses them).
#[derive(Debug, Default, Clone)]
pub(super) struct Trees {
    pub(super) trees: HashMap<String, Rc<Tree>>,
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
        let parsed = parse(name, src, has_function)?;
        for (n, tree) in parsed.trees {
            if let Some(old) = self.trees.get(&n)
                && is_empty_tree(&tree.list)
                && !is_empty_tree(&old.list)
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
    let lexer = lex(src, !has_function("break"), !has_function("continue"));
    let parse_name: Rc<str> = Rc::from(name);
    let source: Rc<str> = Rc::from(src);
    let mut p = Parser { name, parse_name, source, lexer, token: [None, None, None], peek_count: 0, vars: vec!["$".into()], range_depth: 0, action_line: 0, action_pos: 0, has_function, depth: 0, trees: Trees::default() };
    let root = p.parse_top()?;
    p.add(name, root)?;
    Ok(p.trees)
}

struct Parser<'a> {
    name: &'a str,
    parse_name: Rc<str>,
    source: Rc<str>,
    lexer: Lexer<'a>,
    token: [Option<Item<'a>>; 3],
    peek_count: usize,
    vars: Vec<String>,
    range_depth: usize,
    action_line: usize,
    /// The offset of the current action's `{{`.
    action_pos: usize,
    has_function: &'a dyn Fn(&str) -> bool,
    depth: usize,
    trees: Trees,
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
        self.token[i].clone().unwrap_or_else(|| Item { typ: T::Eof, pos: 0, val: "".into(), line: 1 })
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
            let mut extra = String::new();
            if self.action_line != 0 && self.action_line != token.line {
                extra = format!(" in action started at {}:{}", self.name, self.action_line);
                if token.val.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.errorf(format!("{token}{extra}"));
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
            Some(old) if !is_empty_tree(&old.list) && !is_empty_tree(&root) => Err(self.errorf(format!("template: multiple definition of template {}", crate::go::quote::quote(name)))),
            Some(old) if !is_empty_tree(&old.list) => Ok(()),
            _ => {
                let tree = Tree { list: root, parse_name: Rc::clone(&self.parse_name), src: Rc::clone(&self.source) };
                self.trees.trees.insert(name.to_string(), Rc::new(tree));
                Ok(())
            }
        }
    }

    fn parse_top(&mut self) -> PResult<List> {
        let mut root = List::new();
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
                Ok(n) => root.push(n),
                Err(Stop::End) => return Err(self.errorf("unexpected {{end}}".into())),
                Err(Stop::Else) => return Err(self.errorf("unexpected {{else}}".into())),
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self) -> PResult<()> {
        let context = "define clause";
        let name = self.next_non_space();
        if name.typ != T::String && name.typ != T::RawString {
            return Err(self.unexpected(&name, context));
        }
        let name = unquote(&name.val).ok_or_else(|| self.errorf("invalid syntax".into()))?;
        self.expect(T::RightDelim, context)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".into()]);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        if let Stop::Else = stop {
            return Err(self.errorf(format!("unexpected {{{{else}}}} in {context}")));
        }
        self.add(&name, list)
    }

    /// Nodes up to `{{end}}` or `{{else}}`.
    fn item_list(&mut self) -> PResult<(List, Stop)> {
        let mut list = List::new();
        while self.peek_non_space().typ != T::Eof {
            match self.text_or_action()? {
                Ok(n) => list.push(n),
                Err(stop) => return Ok((list, stop)),
            }
        }
        Err(self.errorf("unexpected EOF".into()))
    }

    /// A node, or the `end`/`else` that stops a list.
    fn text_or_action(&mut self) -> PResult<Result<Node, Stop>> {
        let token = self.next_non_space();
        match token.typ {
            T::Text => Ok(Ok(Node::Text { pos: token.pos, text: token.val.into_owned() })),
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
                    Some(vec![self.control(Branch::If)?])
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
            T::String | T::RawString => unquote(&token.val).ok_or_else(|| self.errorf("invalid syntax".into())),
            _ => Err(self.unexpected(token, context)),
        }
    }

    fn block_control(&mut self) -> PResult<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = self.pipeline(context, T::RightDelim)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".into()]);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        if let Stop::Else = stop {
            return Err(self.errorf(format!("unexpected {{{{else}}}} in {context}")));
        }
        self.add(&name, list)?;
        Ok(Node::Template { pos: token.pos, name, pipe: Some(pipe) })
    }

    fn template_control(&mut self) -> PResult<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = if self.next_non_space().typ != T::RightDelim {
            self.backup();
            Some(self.pipeline(context, T::RightDelim)?)
        } else {
            None
        };
        Ok(Node::Template { pos: token.pos, name, pipe })
    }

    fn pipeline(&mut self, context: &str, end: T) -> PResult<Pipe> {
        let token = self.peek_non_space();
        let mut pipe = Pipe { pos: token.pos, is_assign: false, decl: Vec::new(), cmds: Vec::new() };
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
                    pipe.is_assign = next.typ == T::Assign;
                    self.next_non_space();
                    pipe.decl.push(v.val.to_string());
                    self.vars.push(v.val.into_owned());
                }
                T::Char if next.val == "," => {
                    self.next_non_space();
                    pipe.decl.push(v.val.to_string());
                    self.vars.push(v.val.into_owned());
                    if context == "range" && pipe.decl.len() < 2 {
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
                    if pipe.cmds.is_empty() {
                        return Err(self.errorf(format!("missing value for {context}")));
                    }
                    for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
                        if matches!(c.args.first(), Some(Arg::Bool { .. } | Arg::Dot { .. } | Arg::Nil { .. } | Arg::Number { .. } | Arg::Str { .. })) {
                            return Err(self.errorf(format!("non executable command in pipeline stage {}", i + 1)));
                        }
                    }
                    return Ok(pipe);
                }
                T::Bool | T::CharConstant | T::Complex | T::Dot | T::Field | T::Identifier | T::Number | T::Nil | T::RawString | T::String | T::Variable | T::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return Err(self.unexpected(&token, context)),
            }
        }
    }

    fn command(&mut self) -> PResult<Cmd> {
        let pos = self.peek_non_space().pos;
        let mut args = Vec::new();
        loop {
            self.peek_non_space();
            if let Some(a) = self.operand()? {
                args.push(a);
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
        if args.is_empty() {
            return Err(self.errorf("empty command".into()));
        }
        Ok(Cmd { pos, args })
    }

    fn operand(&mut self) -> PResult<Option<Arg>> {
        let Some(node) = self.term()? else { return Ok(None) };
        if self.peek().typ != T::Field {
            return Ok(Some(node));
        }
        let pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().typ == T::Field {
            fields.push(self.next().val[1..].to_string());
        }
        Ok(Some(match node {
            Arg::Field { mut ident, .. } => {
                ident.extend(fields);
                Arg::Field { pos, ident }
            }
            Arg::Var { mut ident, .. } => {
                ident.extend(fields);
                Arg::Var { pos, ident }
            }
            Arg::Bool { .. } | Arg::Str { .. } | Arg::Number { .. } | Arg::Nil { .. } | Arg::Dot { .. } => {
                return Err(self.errorf(format!("unexpected . after term {}", crate::go::quote::quote(&node.to_string()))));
            }
            other => Arg::Chain { pos, node: Box::new(other), fields },
        }))
    }

    fn term(&mut self) -> PResult<Option<Arg>> {
        let token = self.next_non_space();
        let pos = token.pos;
        Ok(Some(match token.typ {
            T::Identifier => {
                if !(self.has_function)(&token.val) {
                    let mut e = self.errorf(format!("function {} not defined", crate::go::quote::quote(&token.val)));
                    e.undefined_function = Some((token.val.into_owned(), pos));
                    return Err(e);
                }
                Arg::Ident { pos, name: token.val.into_owned() }
            }
            T::Dot => Arg::Dot { pos },
            T::Nil => Arg::Nil { pos },
            T::Variable => {
                let ident: Vec<String> = token.val.split('.').map(str::to_string).collect();
                if !self.vars.iter().any(|v| *v == ident[0]) {
                    return Err(self.errorf(format!("undefined variable {}", crate::go::quote::quote(&ident[0]))));
                }
                Arg::Var { pos, ident }
            }
            T::Field => Arg::Field { pos, ident: token.val[1..].split('.').map(str::to_string).collect() },
            T::Bool => Arg::Bool { pos, val: token.val == "true" },
            T::CharConstant | T::Complex | T::Number => Arg::Number { pos, num: number(&token.val, token.typ).map_err(|m| self.errorf(m))? },
            T::LeftParen => {
                self.enter(pos)?;
                let p = self.pipeline("parenthesized pipeline", T::RightParen)?;
                self.depth -= 1;
                Arg::Pipe(Box::new(p))
            }
            T::String | T::RawString => {
                let text = match unquote_bytes(&token.val) {
                    None => return Err(self.errorf("invalid syntax".into())),
                    Some(bytes) => match String::from_utf8(bytes) {
                        Ok(text) => text,
                        Err(_) => {
                            // `"\xff"`: a Go string holds bytes that are not UTF-8; releasex's strings cannot.
                            let what = "a string literal with bytes that are not UTF-8";
                            let mut e = self.errorf(what.into());
                            e.unsupported = Some((what.into(), pos));
                            return Err(e);
                        }
                    },
                };
                Arg::Str { pos, quoted: token.val.into_owned(), text }
            }
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

/// Go's `parse.IsEmptyTree`: only space-only text (and comments).
fn is_empty_tree(list: &List) -> bool {
    list.iter().all(|n| matches!(n, Node::Text { text, .. } if text.trim_matches([' ', '\t', '\r', '\n', '\x0b', '\x0c']).is_empty()))
}

/// node.go `newNumber`: a number literal under every type that can hold it.
fn number(text: &str, typ: T) -> Result<Number, String> {
    let mut n = Number { text: text.to_string(), ..Number::default() };
    if typ == T::CharConstant {
        let inner = &text[1..];
        let (c, tail) = unquote_char(inner, '\'').ok_or("invalid syntax")?;
        if tail != "'" {
            return Err(format!("malformed character constant: {text}"));
        }
        let c = match c {
            Unq::Char(c) => c as u32,
            Unq::Byte(b) => u32::from(b),
        };
        n.int = Some(i64::from(c));
        n.uint = Some(u64::from(c));
        n.float = Some(f64::from(c));
        return Ok(n);
    }
    if typ == T::Complex || text.ends_with('i') {
        // Imaginary and complex constants: releasex has no complex values.
        n.complex = true;
        return Ok(n);
    }
    n.uint = parse_go_uint(text);
    n.int = parse_go_int(text);
    if n.int == Some(0) {
        n.uint = Some(0);
    }
    if let Some(i) = n.int {
        n.float = Some(i as f64);
    } else if let Some(u) = n.uint {
        n.float = Some(u as f64);
    } else if let Some(f) = parse_go_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!("integer overflow: {}", crate::go::quote::quote(text)));
        }
        n.float = Some(f);
        if (f as i64) as f64 == f && f.is_finite() {
            n.int = Some(f as i64);
        }
        if f >= 0.0 && (f as u64) as f64 == f && f.is_finite() {
            n.uint = Some(f as u64);
        }
    }
    if n.int.is_none() && n.uint.is_none() && n.float.is_none() {
        return Err(format!("illegal number syntax: {}", crate::go::quote::quote(text)));
    }
    Ok(n)
}

/// `strconv.ParseUint(s, 0, 64)`: base prefixes, `_` only between digits after a prefix or in base-0 forms.
fn parse_go_uint(s: &str) -> Option<u64> {
    let (base, digits) = base_and_digits(s)?;
    let d = underscores_ok(digits, base != 10 || s.starts_with('0'))?;
    if d.is_empty() {
        return None;
    }
    u64::from_str_radix(&d, base).ok()
}

fn base_and_digits(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'0') && b.len() > 1 {
        return Some(match b[1] {
            b'x' | b'X' => (16, &s[2..]),
            b'o' | b'O' => (8, &s[2..]),
            b'b' | b'B' => (2, &s[2..]),
            _ => (8, &s[1..]),
        });
    }
    Some((10, s))
}

/// Go's `underscoreOK` for base-0 literals: `_` only between digits (or after the prefix).
fn underscores_ok(digits: &str, prefixed: bool) -> Option<String> {
    if digits.contains('_') {
        if !prefixed && !digits.is_empty() {
            // Base 10 with no prefix: `1_000` is fine in Go's base 0 too.
        }
        let bad = digits.ends_with('_') || digits.contains("__") || (!prefixed && digits.starts_with('_'));
        if bad {
            return None;
        }
    }
    Some(digits.replace('_', ""))
}

fn parse_go_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let u = parse_go_uint(body)?;
    if neg {
        if u <= i64::MAX as u64 + 1 { Some((u as i128).wrapping_neg() as i64) } else { None }
    } else {
        i64::try_from(u).ok()
    }
}

/// `strconv.ParseFloat(s, 64)` on the forms the lexer lets through (decimal and hex floats, `_`).
fn parse_go_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let clean = if body.contains('_') {
        if body.ends_with('_') || body.contains("__") || body.starts_with('_') {
            return None;
        }
        body.replace('_', "")
    } else {
        body.to_string()
    };
    let v = if let Some(hex) = clean.strip_prefix("0x").or_else(|| clean.strip_prefix("0X")) {
        hex_float(hex)?
    } else {
        if clean.is_empty() || clean == "." || !clean.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')) {
            return None;
        }
        clean.parse::<f64>().ok()?
    };
    // ParseFloat fails with ErrRange for overflow (returns ±Inf): Go's parser then rejects it.
    if v.is_infinite() {
        return None;
    }
    Some(if neg { -v } else { v })
}

/// A hex float mantissa and `p` exponent (the exponent is required, as in Go).
fn hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once(['p', 'P'])?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

/// `strconv.Unquote` of a name token that must be text (`define`, `template`).
pub(super) fn unquote(s: &str) -> Option<String> {
    String::from_utf8(unquote_bytes(s)?).ok()
}

/// `strconv.Unquote` of a string token (`"..."` or a raw string), as the
/// bytes a Go string holds (`\xff` is one byte); `None` is Go's "invalid syntax".
fn unquote_bytes(s: &str) -> Option<Vec<u8>> {
    if let Some(raw) = s.strip_prefix('`') {
        let raw = raw.strip_suffix('`')?;
        if raw.contains('`') {
            return None;
        }
        return Some(raw.replace('\r', "").into_bytes());
    }
    let mut rest = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        if rest.starts_with('"') {
            return None;
        }
        let (c, tail) = unquote_char(rest, '"')?;
        match c {
            Unq::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Unq::Byte(b) => out.push(b),
        }
        rest = tail;
    }
    Some(out)
}

enum Unq {
    Char(char),
    Byte(u8),
}

/// `strconv.UnquoteChar`: one (possibly escaped) character of a literal quoted with `quote`.
fn unquote_char(s: &str, quote: char) -> Option<(Unq, &str)> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if c == quote && (quote == '\'' || quote == '"') {
        return None;
    }
    if c != '\\' {
        return Some((Unq::Char(c), chars.as_str()));
    }
    let e = chars.next()?;
    let rest = chars.as_str();
    let simple = match e {
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0b'),
        '\\' => Some('\\'),
        '\'' | '"' if e == quote => Some(e),
        _ => None,
    };
    if let Some(c) = simple {
        return Some((Unq::Char(c), rest));
    }
    match e {
        'x' | 'u' | 'U' => {
            let n = match e {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex = rest.get(..n)?;
            let v = u32::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))?;
            let rest = &rest[n..];
            if e == 'x' {
                return Some((if v < 0x80 { Unq::Char(char::from(v as u8)) } else { Unq::Byte(v as u8) }, rest));
            }
            Some((Unq::Char(char::from_u32(v)?), rest))
        }
        '0'..='7' => {
            let oct = s.get(1..4)?;
            let v = u32::from_str_radix(oct, 8).ok().filter(|_| oct.bytes().all(|b| (b'0'..=b'7').contains(&b)))?;
            if v > 255 {
                return None;
            }
            Some((if v < 0x80 { Unq::Char(char::from(v as u8)) } else { Unq::Byte(v as u8) }, &s[4..]))
        }
        _ => None,
    }
}

impl Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Field { ident, .. } => ident.iter().try_for_each(|i| write!(f, ".{i}")),
            Arg::Chain { node, fields, .. } => {
                match node.as_ref() {
                    Arg::Pipe(p) => write!(f, "({p})")?,
                    other => write!(f, "{other}")?,
                }
                fields.iter().try_for_each(|i| write!(f, ".{i}"))
            }
            Arg::Var { ident, .. } => f.write_str(&ident.join(".")),
            Arg::Ident { name, .. } => f.write_str(name),
            Arg::Dot { .. } => f.write_str("."),
            Arg::Nil { .. } => f.write_str("nil"),
            Arg::Bool { val, .. } => write!(f, "{val}"),
            Arg::Number { num, .. } => f.write_str(&num.text),
            Arg::Str { quoted, .. } => f.write_str(quoted),
            Arg::Pipe(p) => write!(f, "{p}"),
        }
    }
}

impl Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            match a {
                Arg::Pipe(p) => write!(f, "({p})")?,
                other => write!(f, "{other}")?,
            }
        }
        Ok(())
    }
}

impl Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.decl.is_empty() {
            write!(f, "{} := ", self.decl.join(", "))?;
        }
        for (i, c) in self.cmds.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Text { text, .. } => f.write_str(text),
            Node::Action { pipe, .. } => write!(f, "{{{{{pipe}}}}}"),
            Node::Branch(b) => {
                let BranchNode { kind, pipe, list, els, .. } = b.as_ref();
                let word = match kind {
                    Branch::If => "if",
                    Branch::Range => "range",
                    Branch::With => "with",
                };
                write!(f, "{{{{{word} {pipe}}}}}")?;
                list.iter().try_for_each(|n| write!(f, "{n}"))?;
                if let Some(els) = els {
                    f.write_str("{{else}}")?;
                    els.iter().try_for_each(|n| write!(f, "{n}"))?;
                }
                f.write_str("{{end}}")
            }
            Node::Template { name, pipe, .. } => match pipe {
                None => write!(f, "{{{{template {}}}}}", crate::go::quote::quote(name)),
                Some(p) => write!(f, "{{{{template {} {p}}}}}", crate::go::quote::quote(name)),
            },
            Node::Break { .. } => f.write_str("{{break}}"),
            Node::Continue { .. } => f.write_str("{{continue}}"),
        }
    }
}
