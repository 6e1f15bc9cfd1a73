//! The executor: Go's text/template exec.go (Go 1.19) over the parsed
//! trees. It keeps Go's state machine where messages depend on it: the
//! node it is "at" (`s.at`) names the error's place and context, values
//! taken out of a map or a list are `interface{}` values until a pipeline
//! ends (which is why Go says `can't evaluate field x in type interface {}`
//! there), and function arguments are converted and checked against each
//! function's Go signature as `evalCall`/`evalArg`/`validateType` do. Every
//! output byte is recorded in a [`Span`] with the origin and taint of what
//! printed it.

use std::rc::Rc;

use super::func::{Call, Derive, FnError, FuncDef, FuncMap, Host, Param, RenderRequest};
use super::parse::{Arg, Branch, BranchNode, Cmd, In, List, Node, Number, Pipe, Sp, Tree, Trees};
use super::value::{go_sprint, go_type, truth};
use crate::values::tree::Origin;
use super::{MAX_TEMPLATE_STRING, MissingKey, Rendered, Span, TmplError, Tv, UNMODELLED, Val, line_col};

/// How many `{{template}}` calls may nest (Go allows 100,000, more than
/// this engine's stack holds; real templates nest a handful).
pub(super) const MAX_TEMPLATE_DEPTH: usize = 1000;

/// A value as the executor holds it: `iface` when its static Go type is
/// `interface{}` (an element of a map or list); a `Nil` without `iface`
/// is Go's invalid value (missing key, untyped nil).
#[derive(Debug, Clone)]
pub(super) struct Ev {
    pub(super) tv: Tv,
    pub(super) iface: bool,
}

impl Ev {
    fn concrete(tv: Tv) -> Ev {
        Ev { tv, iface: false }
    }
    fn invalid() -> Ev {
        Ev::concrete(Tv::new(Val::Nil))
    }
    fn is_invalid(&self) -> bool {
        !self.iface && matches!(self.tv.val, Val::Nil)
    }
    /// `reflect.Value.Type()` as Go's messages print it.
    fn type_name(&self) -> &'static str {
        if self.iface { "interface {}" } else { go_type(&self.tv.val) }
    }
}

/// Where the executor is (Go's `s.node`), for error messages.
#[derive(Clone, Copy)]
enum At<'t> {
    Node(&'t Node),
    Pipe(&'t Pipe),
    Cmd(&'t Cmd),
    Arg(&'t Arg),
}

impl At<'_> {
    fn pos(&self) -> usize {
        match self {
            At::Node(Node::Text { pos, .. } | Node::Action { pos, .. } | Node::Template { pos, .. } | Node::Break { pos } | Node::Continue { pos }) => *pos,
            At::Node(Node::Branch(b)) => b.pos,
            At::Pipe(p) => p.pos,
            At::Cmd(c) => c.pos,
            At::Arg(a) => a.pos(),
        }
    }
    /// `src`: the text of the tree the node is in.
    fn context(&self, src: &str) -> String {
        match *self {
            At::Node(n) => In(n, src).to_string(),
            At::Pipe(p) => In(p, src).to_string(),
            At::Cmd(c) => In(c, src).to_string(),
            At::Arg(a) => In(a, src).to_string(),
        }
    }
}

/// `break` and `continue` unwind to their `range` as Go's panics do.
pub(super) enum Flow {
    Err(Box<TmplError>),
    Break,
    Continue,
}

impl From<Box<TmplError>> for Flow {
    fn from(e: Box<TmplError>) -> Flow {
        Flow::Err(e)
    }
}

/// Errors are boxed: a deeply nested template holds one result per level on the stack.
type R<X> = Result<X, Box<TmplError>>;

/// What one execution shares with the templates it calls.
#[derive(Clone, Copy)]
pub(super) struct Env<'t> {
    pub(super) parse_name: &'t str,
    pub(super) src: &'t str,
    pub(super) trees: &'t Trees,
    pub(super) funcs: &'t FuncMap,
    pub(super) host: &'t dyn Host,
    pub(super) missingkey: MissingKey,
    /// The name `tpl` texts are parsed under (Helm's: the set's own, `gotpl`);
    /// `None`: the calling template's.
    pub(super) tpl_name: Option<&'t str>,
    /// Whether a value's taint (secret, nondeterministic) is looked for
    /// anywhere inside it (helmfile's state values hold secrets), or only on
    /// the value itself (chart values hold none, and the render data is large).
    pub(super) deep_taint: bool,
    /// See [`super::SetOptions::inner_spans`].
    pub(super) inner_spans: bool,
}

pub(super) struct Exec<'t> {
    env: Env<'t>,
    /// The running template's name (`executing "NAME"`).
    name: String,
    out: String,
    spans: Vec<Span>,
    /// Variables in scope: name, value, and what the pipeline that set it
    /// read (a `$name := include ...` holds no origin of its own; blame
    /// follows a variable back to the values behind it).
    vars: Vec<(&'t str, Ev, Vec<Origin>)>,
    at: Option<At<'t>>,
    depth: usize,
    /// The text the running template was parsed from, and its name (errors, spans).
    src: &'t str,
    parse_name: &'t str,
    /// The same, shared, for the spans (where blame finds the template text).
    tree: Option<&'t Tree>,
    /// The state values the running action has read (field chains, and
    /// what the templates it included read): the blame of what it prints.
    reads: Vec<Origin>,
    /// The conditions around what runs now (see [`Span::guard`]).
    guard: Option<Rc<super::Guard>>,
}

impl<'t> Exec<'t> {
    pub(super) fn new(env: Env<'t>, name: &str, depth: usize) -> Exec<'t> {
        Exec { env, name: name.to_string(), out: String::new(), spans: Vec::new(), vars: Vec::new(), at: None, depth, src: env.src, parse_name: env.parse_name, tree: None, reads: Vec::new(), guard: None }
    }

    /// Runs the template `name` with `data` as dot and `$`.
    pub(super) fn run(self, data: &Tv) -> Result<Rendered, TmplError> {
        self.run_boxed(data).map_err(|e| *e)
    }

    fn run_boxed(mut self, data: &Tv) -> R<Rendered> {
        let Some(tree) = self.env.trees.trees.get(self.name.as_str()) else {
            return Err(self.errorf(format!("{} is an incomplete or empty template", crate::go::quote::quote(&self.name))));
        };
        let tree: &'t Tree = tree_ref(tree);
        (self.src, self.parse_name, self.tree) = (&tree.src, &tree.parse_name, Some(tree));
        let tree: &'t List = &tree.list;
        let dot = Ev::concrete(data.clone());
        self.vars.push(("$", dot.clone(), Vec::new()));
        match self.walk_list(&dot, tree) {
            Ok(()) => Ok(Rendered { text: self.out, spans: self.spans }),
            Err(Flow::Err(e)) => Err(e),
            // The parser allows break/continue only inside range.
            Err(Flow::Break | Flow::Continue) => Err(self.errorf("break or continue outside range".into())),
        }
    }

    /// Go's `state.errorf`: `template: t:1:5: executing "t" at <.x>: MSG`.
    fn errorf(&self, message: String) -> Box<TmplError> {
        let name = &self.name;
        let Some(at) = self.at else {
            let go = format!("template: {name}: {message}");
            return Box::new(TmplError::Exec { file: self.parse_name.into(), line: 1, column: 1, message, go });
        };
        let pos = at.pos().min(self.src.len());
        let before = &self.src[..pos];
        let go_col = before.rfind('\n').map_or(pos, |nl| pos - nl - 1);
        let (line, column) = line_col(self.src, pos);
        let go = format!("template: {}:{line}:{go_col}: executing {} at <{}>: {message}", self.parse_name, crate::go::quote::quote(name), at.context(self.src));
        Box::new(TmplError::Exec { file: self.parse_name.into(), line, column, message, go })
    }

    fn unsupported(&self, construct: String) -> Box<TmplError> {
        let (line, column) = line_col(self.src, self.at.map_or(0, |a| a.pos()));
        Box::new(TmplError::Unsupported { file: self.parse_name.into(), line, column, construct })
    }

    fn check_size(&self, bytes: usize, what: impl FnOnce() -> String) -> R<()> {
        if bytes <= MAX_TEMPLATE_STRING {
            return Ok(());
        }
        let (line, column) = line_col(self.src, self.at.map_or(0, |a| a.pos()));
        Err(Box::new(TmplError::TooLarge { file: self.parse_name.into(), line, column, what: what(), bytes }))
    }

    fn emit(&mut self, text: &str, src: usize, printed: Option<&Tv>) -> R<()> {
        if text.is_empty() {
            return Ok(());
        }
        self.check_size(self.out.len() + text.len(), || "the template's output".into())?;
        let start = self.out.len();
        self.out.push_str(text);
        let (action, secret, nondeterministic) = match printed {
            Some(v) if self.env.deep_taint => (Some(v.origin.clone()), v.holds_secret(), v.holds_nondeterministic()),
            Some(v) => (Some(v.origin.clone()), v.secret, v.nondeterministic),
            None => (None, false, false),
        };
        let reads = if printed.is_some() { std::mem::take(&mut self.reads) } else { Vec::new() };
        let template = self.tree.map(|t| (Rc::clone(&t.parse_name), Rc::clone(&t.src)));
        let outer = Span { out: start..self.out.len(), src, action, secret, nondeterministic, reads, template, guard: self.guard.clone() };
        match printed.and_then(|v| v.included.as_deref()).and_then(|inner| super::inner::align(&inner.text, text).map(|map| (inner, map))) {
            Some((inner, map)) => super::inner::splice(&mut self.spans, outer, inner, &map),
            None => self.spans.push(outer),
        }
        Ok(())
    }

    fn walk_list(&mut self, dot: &Ev, list: &'t List) -> Result<(), Flow> {
        for n in list {
            self.walk(dot, n)?;
        }
        Ok(())
    }

    fn walk(&mut self, dot: &Ev, node: &'t Node) -> Result<(), Flow> {
        self.at = Some(At::Node(node));
        match node {
            Node::Text { pos, end } => {
                let src = self.src;
                self.emit(src.get(*pos..*end).unwrap_or(""), *pos, None)?;
            }
            Node::Action { pos, pipe } => {
                self.reads.clear();
                let v = self.eval_pipeline(dot, pipe)?;
                if pipe.decl.is_empty() {
                    self.at = Some(At::Node(node));
                    let text = self.printable(&v)?;
                    // The span starts at the action's `{{`, as before.
                    let open = rfind_left_delim(&self.src[..*pos]).unwrap_or(*pos);
                    self.emit(&text, open, Some(&v.tv))?;
                }
            }
            Node::Branch(b) if b.kind == Branch::Range => self.walk_range(dot, b)?,
            Node::Branch(b) => {
                let BranchNode { kind, pipe, list, els, .. } = b.as_ref();
                let mark = self.vars.len();
                self.reads.clear();
                let v = self.eval_pipeline(dot, pipe)?;
                let outside = self.enter_guard();
                let r = if is_true(&v) {
                    if *kind == Branch::With { self.walk_list(&v, list) } else { self.walk_list(dot, list) }
                } else if let Some(els) = els {
                    self.walk_list(dot, els)
                } else {
                    Ok(())
                };
                self.guard = outside;
                self.vars.truncate(mark);
                r?;
            }
            Node::Template { name, pipe, .. } => self.walk_template(dot, node, name, pipe.as_deref())?,
            Node::Break { .. } => return Err(Flow::Break),
            Node::Continue { .. } => return Err(Flow::Continue),
        }
        Ok(())
    }

    fn walk_range(&mut self, dot: &Ev, node: &'t BranchNode) -> Result<(), Flow> {
        let BranchNode { pipe, .. } = node;
        let mark0 = self.vars.len();
        self.reads.clear();
        let v = self.eval_pipeline(dot, pipe)?;
        let outside = self.enter_guard();
        let r = self.walk_range_items(dot, node, v, mark0);
        self.guard = outside;
        r
    }

    /// The reads of the condition just evaluated guard what runs next;
    /// returns the guard to restore after.
    fn enter_guard(&mut self) -> Option<Rc<super::Guard>> {
        let reads = std::mem::take(&mut self.reads);
        let outside = self.guard.clone();
        if !reads.is_empty() {
            self.guard = Some(Rc::new(super::Guard { reads, parent: outside.clone() }));
        }
        outside
    }

    fn walk_range_items(&mut self, dot: &Ev, node: &'t BranchNode, v: Ev, mark0: usize) -> Result<(), Flow> {
        let BranchNode { pipe, list, els, .. } = node;
        let v = indirect(v);
        let mark = self.vars.len();
        // (index, element) pairs: map keys in Go's sorted order (fmtsort).
        let items: Vec<(Ev, Ev)> = match &v.tv.val {
            Val::List(l) => l.iter().enumerate().map(|(i, x)| (int(i), Ev { tv: x.clone(), iface: true })).collect(),
            Val::TypedList(_, l) => l.iter().enumerate().map(|(i, x)| (int(i), Ev::concrete(x.clone()))).collect(),
            Val::Bytes(b) => b.iter().enumerate().map(|(i, x)| (int(i), Ev::concrete(Tv::new(Val::Int(i64::from(*x)))))).collect(),
            // Keys and values as they are when the range starts (Go 1.19
            // exec.go walkRange ranges over `fmtsort.Sort(val)`, which reads
            // every entry first): a key the body adds is not visited, and a
            // value the body replaces is visited as it was; a map value is
            // the same map, so what the body changes inside it is seen.
            Val::Map(m) => m.entries().into_iter().map(|(k, x)| (Ev::concrete(Tv::str(&k)), Ev { tv: x, iface: true })).collect(),
            Val::StrMap(m) => m.iter().map(|(k, x)| (Ev::concrete(Tv::str(k)), Ev::concrete(Tv { secret: v.tv.secret, ..Tv::str(x) }))).collect(),
            Val::Nil => Vec::new(),
            Val::Object(o) if let Some(entries) = o.entries() => entries.into_iter().map(|(k, x)| (Ev::concrete(Tv::str(&k)), Ev::concrete(x))).collect(),
            Val::Object(o) if let Some(items) = o.list() => items.into_iter().enumerate().map(|(i, x)| (int(i), Ev::concrete(x))).collect(),
            _ => {
                let shown = go_sprint(&v.tv).map_err(|w| self.unsupported(w))?;
                return Err(self.errorf(format!("range can't iterate over {shown}")).into());
            }
        };
        let empty = items.is_empty();
        for (index, elem) in items {
            if !pipe.decl.is_empty() {
                let n = self.vars.len();
                self.vars[n - 1].1 = elem.clone();
                if pipe.decl.len() > 1 {
                    self.vars[n - 2].1 = index;
                }
            }
            let r = self.walk_list(&elem, list);
            self.vars.truncate(mark);
            match r {
                Ok(()) | Err(Flow::Continue) => {}
                Err(Flow::Break) => break,
                Err(e) => return Err(e),
            }
        }
        if empty && let Some(els) = els {
            self.walk_list(dot, els)?;
        }
        self.vars.truncate(mark0);
        Ok(())
    }

    fn walk_template(&mut self, dot: &Ev, node: &'t Node, name: &str, pipe: Option<&'t Pipe>) -> Result<(), Flow> {
        self.at = Some(At::Node(node));
        let Some(tree) = self.env.trees.trees.get(name) else {
            return Err(self.errorf(format!("template {} not defined", crate::go::quote::quote(name))).into());
        };
        let tree: &'t Tree = tree_ref(tree);
        if self.depth >= MAX_TEMPLATE_DEPTH {
            let (line, column) = line_col(self.src, self.at.map_or(0, |a| a.pos()));
            return Err(Box::new(TmplError::TooDeep { file: self.parse_name.into(), line, column, limit: MAX_TEMPLATE_DEPTH }).into());
        }
        let dot = match pipe {
            Some(p) => self.eval_pipeline(dot, p)?,
            None => Ev::invalid(),
        };
        // No dynamic scoping: the called template sees only `$` (exec.go walkTemplate).
        let saved_vars = std::mem::replace(&mut self.vars, vec![("$", dot.clone(), Vec::new())]);
        let saved_name = std::mem::replace(&mut self.name, name.to_string());
        let saved_src = (self.src, self.parse_name, self.tree);
        (self.src, self.parse_name, self.tree) = (&tree.src, &tree.parse_name, Some(tree));
        self.depth += 1;
        let r = self.walk_list(&dot, &tree.list);
        self.depth -= 1;
        (self.src, self.parse_name, self.tree) = saved_src;
        self.name = saved_name;
        self.vars = saved_vars;
        r
    }

    /// exec.go `printableValue` then `fmt.Fprint`: pointers followed, an invalid value is `<no value>`.
    fn printable(&self, v: &Ev) -> R<String> {
        let v = indirect(v.clone());
        if v.is_invalid() || matches!(v.tv.val, Val::Nil) {
            return Ok("<no value>".into());
        }
        go_sprint(&v.tv).map_err(|w| self.unsupported(w))
    }

    fn eval_pipeline(&mut self, dot: &Ev, pipe: &'t Pipe) -> R<Ev> {
        self.at = Some(At::Pipe(pipe));
        let mut value: Option<Ev> = None;
        for cmd in &pipe.cmds {
            let mut v = self.eval_command(dot, cmd, value.take())?;
            // An interface{} value is unwrapped between commands (exec.go evalPipeline).
            if v.iface {
                v.iface = false;
            }
            value = Some(v);
        }
        let value = value.unwrap_or_else(Ev::invalid);
        let src = self.src;
        for name in pipe.decl.iter() {
            let name = name.of(src);
            if pipe.is_assign {
                let reads = self.reads.clone();
                match self.vars.iter_mut().rev().find(|(n, ..)| *n == name) {
                    Some(slot) => (slot.1, slot.2) = (value.clone(), reads),
                    None => return Err(self.errorf(format!("undefined variable: {name}"))),
                }
            } else {
                self.vars.push((name, value.clone(), self.reads.clone()));
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, args: &[Arg], fin: &Option<Ev>) -> R<()> {
        if args.len() > 1 || fin.is_some() {
            return Err(self.errorf(format!("can't give argument to non-function {}", In(&args[0], self.src))));
        }
        Ok(())
    }

    fn eval_command(&mut self, dot: &Ev, cmd: &'t Cmd, fin: Option<Ev>) -> R<Ev> {
        let first = &cmd.args[0];
        match first {
            Arg::Field { ident, .. } => {
                self.at = Some(At::Arg(first));
                return self.eval_field_chain(dot, dot.clone(), first, ident, &cmd.args, fin);
            }
            Arg::Chain { .. } => return self.eval_chain(dot, first, &cmd.args, fin),
            Arg::Ident { name, .. } => {
                self.at = Some(At::Arg(first));
                return self.eval_function(dot, name.of(self.src), At::Cmd(cmd), &cmd.args, fin);
            }
            Arg::Pipe(p) => {
                self.not_a_function(&cmd.args, &fin)?;
                return self.eval_pipeline(dot, p);
            }
            Arg::Var { .. } => return self.eval_variable(dot, first, &cmd.args, fin),
            _ => {}
        }
        self.at = Some(At::Arg(first));
        self.not_a_function(&cmd.args, &fin)?;
        match first {
            Arg::Bool { val, .. } => Ok(Ev::concrete(Tv::new(Val::Bool(*val)))),
            Arg::Dot { .. } => Ok(dot.clone()),
            Arg::Nil { .. } => Err(self.errorf("nil is not a command".into())),
            Arg::Number { num, .. } => self.ideal_constant(first, num),
            Arg::Str { .. } => Ok(Ev::concrete(Tv::str(first.str_value(self.src).unwrap_or("")))),
            _ => Err(self.errorf(format!("can't evaluate command {}", crate::go::quote::quote(&In(first, self.src).to_string())))),
        }
    }

    /// exec.go `idealConstant`: a number with no parameter type to convert to.
    fn ideal_constant(&mut self, node: &'t Arg, num: &Number) -> R<Ev> {
        self.at = Some(At::Arg(node));
        if num.complex {
            return Err(self.unsupported(format!("the complex number `{}` (releasex has no complex values)", num.text)));
        }
        let t = &num.text;
        let hex_int = t.len() > 2 && t.starts_with('0') && matches!(t.as_bytes()[1], b'x' | b'X') && !t.contains(['p', 'P']);
        if let Some(f) = num.float
            && !hex_int
            && !t.starts_with('\'')
            && t.contains(['.', 'e', 'E', 'p', 'P'])
        {
            return Ok(Ev::concrete(Tv::new(Val::Float(f))));
        }
        if let Some(i) = num.int {
            return Ok(Ev::concrete(Tv::new(Val::Int(i))));
        }
        if num.uint.is_some() {
            return Err(self.errorf(format!("{t} overflows int")));
        }
        Ok(Ev::invalid())
    }

    fn eval_chain(&mut self, dot: &Ev, chain: &'t Arg, args: &'t [Arg], fin: Option<Ev>) -> R<Ev> {
        self.at = Some(At::Arg(chain));
        let Arg::Chain { node, fields, .. } = chain else { return Ok(Ev::invalid()) };
        if let Arg::Nil { .. } = node.as_ref() {
            return Err(self.errorf(format!("indirection through explicit nil in {}", In(chain, self.src))));
        }
        let recv = self.eval_arg(dot, None, node)?;
        self.eval_field_chain(dot, recv, chain, fields, args, fin)
    }

    fn eval_variable(&mut self, dot: &Ev, var: &'t Arg, args: &'t [Arg], fin: Option<Ev>) -> R<Ev> {
        self.at = Some(At::Arg(var));
        let Arg::Var { ident, .. } = var else { return Ok(Ev::invalid()) };
        let first = ident.first().map_or("", |n| n.of(self.src));
        let value = match self.vars.iter().rev().find(|(n, ..)| *n == first) {
            Some((_, v, reads)) => {
                self.reads.extend(reads.iter().cloned());
                v.clone()
            }
            None => return Err(self.errorf(format!("undefined variable: {first}"))),
        };
        if ident.len() == 1 {
            self.not_a_function(args, &fin)?;
            return Ok(value);
        }
        self.eval_field_chain(dot, value, var, &ident[1..], args, fin)
    }

    fn eval_field_chain(&mut self, dot: &Ev, mut recv: Ev, node: &'t Arg, ident: &[Sp], args: &'t [Arg], fin: Option<Ev>) -> R<Ev> {
        let src = self.src;
        let n = ident.len();
        for name in &ident[..n - 1] {
            let name = name.of(src);
            let fact = origin_of(&recv);
            recv = self.eval_field(dot, name, node, &[], None, recv)?;
            derive_fact(&mut recv, fact, name, None);
        }
        let fact = origin_of(&recv);
        // `.Files.Get "x"`: the method's literal argument names the fact too.
        let literal = args.get(1).and_then(|a| a.str_value(src));
        let last = ident[n - 1].of(src);
        let mut v = self.eval_field(dot, last, node, args, fin, recv)?;
        derive_fact(&mut v, fact, last, literal);
        if let Some(o) = &v.tv.origin {
            self.reads.push(o.clone());
        }
        Ok(v)
    }

    /// exec.go `evalField`: a method, a struct field or a map key.
    fn eval_field(&mut self, dot: &Ev, name: &str, node: &'t Arg, args: &'t [Arg], fin: Option<Ev>, recv: Ev) -> R<Ev> {
        if recv.is_invalid() {
            if self.env.missingkey == MissingKey::Error {
                return Err(self.errorf(format!("nil data; no entry for key {}", crate::go::quote::quote(name))));
            }
            return Ok(Ev::invalid());
        }
        let typ = recv.type_name();
        if recv.iface && matches!(recv.tv.val, Val::Nil) {
            return Err(self.errorf(format!("nil pointer evaluating {typ}.{name}")));
        }
        let recv = indirect(recv);
        let has_args = args.len() > 1 || fin.is_some();
        match &recv.tv.val {
            Val::Object(o) => {
                let o = Rc::clone(o);
                let mut argv = Vec::new();
                for a in args.iter().skip(1) {
                    argv.push(self.eval_arg(dot, Some(Param::Any), a)?.tv);
                }
                if let Some(f) = fin {
                    argv.push(f.tv);
                }
                if let Some(r) = o.member(name, &argv) {
                    self.at = Some(At::Arg(node));
                    // A member's error that starts with UNMODELLED names what releasex does not model.
                    return r.map(Ev::concrete).map_err(|m| match m.strip_prefix(UNMODELLED) {
                        Some(what) => self.unsupported(what.to_string()),
                        None => self.errorf(format!("error calling {name}: {m}")),
                    });
                }
            }
            Val::Struct(_, fields) => {
                if let Some((_, v)) = fields.iter().find(|(n, _)| *n == name) {
                    if matches!(&v.val, Val::Str(s) if s == UNMODELLED) {
                        return Err(self.unsupported(format!("the field `.{name}` (not modelled by releasex)")));
                    }
                    if has_args {
                        return Err(self.errorf(format!("{name} has arguments but cannot be invoked as function")));
                    }
                    return Ok(Ev::concrete(v.clone()));
                }
            }
            Val::Map(m) => {
                if has_args {
                    return Err(self.errorf(format!("{name} is not a method but has arguments")));
                }
                return match m.get(name) {
                    Some(v) => Ok(Ev { tv: v, iface: true }),
                    None => self.missing_key(name, Ev { tv: Tv::new(Val::Nil), iface: true }),
                };
            }
            Val::StrMap(m) => {
                if has_args {
                    return Err(self.errorf(format!("{name} is not a method but has arguments")));
                }
                return match m.get(name) {
                    Some(v) => Ok(Ev::concrete(Tv { secret: recv.tv.secret, ..Tv::str(v) })),
                    None => self.missing_key(name, Ev::concrete(Tv::str(""))),
                };
            }
            _ => {}
        }
        Err(self.errorf(format!("can't evaluate field {name} in type {typ}")))
    }

    fn missing_key(&self, name: &str, zero: Ev) -> R<Ev> {
        match self.env.missingkey {
            MissingKey::Default => Ok(Ev::invalid()),
            MissingKey::Zero => Ok(zero),
            MissingKey::Error => Err(self.errorf(format!("map has no entry for key {}", crate::go::quote::quote(name)))),
        }
    }

    fn eval_function(&mut self, dot: &Ev, name: &str, node: At<'t>, args: &'t [Arg], fin: Option<Ev>) -> R<Ev> {
        let funcs = self.env.funcs;
        let Some(def) = funcs.get(name) else {
            return Err(self.errorf(format!("{} is not a defined function", crate::go::quote::quote(name))));
        };
        self.eval_call(dot, def, name, node, args, fin)
    }

    /// exec.go `evalCall`: counts, converts and checks the arguments against
    /// the function's signature, calls it, and words its error as Go does.
    fn eval_call(&mut self, dot: &Ev, def: &FuncDef, name: &str, node: At<'t>, args: &'t [Arg], fin: Option<Ev>) -> R<Ev> {
        let args = args.get(1..).unwrap_or(&[]);
        let params = def.sig.params;
        let num_in = args.len() + usize::from(fin.is_some());
        let num_fixed = if def.sig.variadic.is_some() { params.len() } else { args.len() };
        if def.sig.variadic.is_some() {
            if num_in < params.len() {
                return Err(self.errorf(format!("wrong number of args for {name}: want at least {} got {}", params.len(), args.len())));
            }
        } else if num_in != params.len() {
            return Err(self.errorf(format!("wrong number of args for {name}: want {} got {num_in}", params.len())));
        }
        // The builtins `and` and `or` stop at the first argument that decides (Go 1.18+).
        if super::builtins::is_short_circuit(name, def) {
            let mut v = Ev::invalid();
            for a in args {
                v = self.eval_arg(dot, Some(Param::Any), a)?;
                if is_true(&v) == (name == "or") {
                    return Ok(v);
                }
            }
            if let Some(f) = fin {
                v = f;
            }
            return Ok(v);
        }
        let mut evs: Vec<Ev> = Vec::with_capacity(num_in);
        for (i, a) in args.iter().enumerate() {
            let param = if i < num_fixed { params[i] } else { def.sig.variadic.unwrap_or(Param::Any) };
            evs.push(self.eval_arg(dot, Some(param), a)?);
        }
        if let Some(f) = fin {
            let param = match def.sig.variadic {
                Some(rest) if num_in > num_fixed => rest,
                _ => params.get(num_in - 1).copied().unwrap_or(Param::Any),
            };
            evs.push(self.validate(f, param)?);
        }
        // `len` is the one builtin whose message tells a nil interface (a nil
        // element) from no value at all (funcs.go length: `len of nil pointer`).
        if super::builtins::is_len(name, def) && evs.first().is_some_and(|e| e.iface && matches!(e.tv.val, Val::Nil)) {
            self.at = Some(node);
            return Err(self.errorf("error calling len: len of nil pointer".into()));
        }
        let argv: Vec<Tv> = evs.into_iter().map(|e| e.tv).collect();
        // One walk says whether any argument holds a secret; only then are the
        // strings to mask in a failure's message collected.
        let any_secret = if self.env.deep_taint { argv.iter().any(Tv::holds_secret) } else { argv.iter().any(|a| a.secret) };
        let secrets = if any_secret { super::mask::secret_strings(&argv) } else { Vec::new() };
        // A value made from one value with an origin (`quote .x`, `upper .x`,
        // `indent 2 .x`, `toYaml .x`) still came from there: attribution
        // follows it through the function.
        let mut origins = argv.iter().filter_map(|a| a.origin.as_ref());
        let sole_origin = match (origins.next(), origins.next()) {
            (Some(o), None) if def.derive == Derive::Made => Some(o.clone()),
            _ => None,
        };
        let secret = def.derive == Derive::Made && any_secret;
        // `include ... | nindent 8`: the include's spans ride along (see `inner`).
        let carried = if self.env.inner_spans && def.derive == Derive::Made { argv.iter().find_map(|a| a.included.clone()) } else { None };
        let nondeterministic = def.nondeterministic
            || (def.derive == Derive::Made && if self.env.deep_taint { argv.iter().any(Tv::holds_nondeterministic) } else { argv.iter().any(|a| a.nondeterministic) });
        let result = {
            let env = self.env;
            let depth = self.depth;
            let current = self.name.as_str();
            // An included template's conditions sit inside the caller's.
            let guard = self.guard.clone();
            let sub_reads: std::cell::RefCell<Vec<Origin>> = std::cell::RefCell::new(Vec::new());
            let sub_random = std::cell::Cell::new(false);
            let included: std::cell::RefCell<Option<Rc<Rendered>>> = std::cell::RefCell::new(None);
            let render = |req: RenderRequest<'_>| {
                // An include's spans point into a template file; a `tpl` text's do not.
                let named = matches!(req, RenderRequest::Named { .. });
                let r = sub_render(env, current, depth, guard.clone(), req)?;
                // What the included template read is what this action read,
                // and what it printed at random makes this action's value random.
                sub_random.set(sub_random.get() || r.spans.iter().any(|s| s.nondeterministic));
                if named && env.inner_spans {
                    sub_reads.borrow_mut().extend(r.spans.iter().flat_map(|s| s.reads.iter().cloned().chain(s.action.clone().flatten())));
                    let text = r.text.clone();
                    *included.borrow_mut() = Some(Rc::new(r));
                    return Ok(text);
                }
                // Not kept: its spans' reads are moved, not copied.
                sub_reads.borrow_mut().extend(r.spans.into_iter().flat_map(|s| s.reads.into_iter().chain(s.action.flatten())));
                Ok(r.text)
            };
            let call = Call { name, host: self.env.host, render: &render };
            let result = (def.f)(&call, argv).map(|mut tv| {
                tv.nondeterministic |= sub_random.get();
                // Whether the text still aligns with the include's is checked once, where it is printed.
                if let (Some(r), Val::Str(_), None) = (included.take().or(carried), &tv.val, &tv.included) {
                    tv.included = Some(r);
                }
                tv
            });
            self.reads.extend(sub_reads.into_inner());
            result
        };
        // Only an error moves the place to the call (exec.go evalCall `s.at(node)`).
        if result.is_err() {
            self.at = Some(node);
        }
        let mut tv = match result {
            Ok(tv) => tv,
            Err(FnError::Go(m)) => return Err(self.errorf(super::mask::mask(format!("error calling {name}: {m}"), &secrets))),
            Err(FnError::Exec(m)) => return Err(self.errorf(super::mask::mask(m, &secrets))),
            Err(FnError::Unsupported(w)) => return Err(self.unsupported(w)),
            Err(FnError::TooLarge(bytes)) => {
                let (line, column) = line_col(self.src, self.at.map_or(0, |a| a.pos()));
                return Err(Box::new(TmplError::TooLarge { file: self.parse_name.into(), line, column, what: format!("the result of `{name}`"), bytes }));
            }
        };
        if let Val::Str(s) = &tv.val {
            self.check_size(s.len(), || format!("the result of `{name}`"))?;
        }
        match &tv.origin {
            // A value a function picked out of its arguments (`index .Values "a" "b"`, `dig`, `get`): read.
            Some(o) => self.reads.push(o.clone()),
            None => tv.origin = sole_origin,
        }
        // A value made from a secret is secret all the way down: an item read
        // out of `split`'s result, or a value out of `dict`'s, stays masked.
        if secret || nondeterministic {
            tv.mark_deep(secret, nondeterministic);
        }
        Ok(Ev::concrete(tv))
    }

    /// exec.go `validateType`: a computed value against a parameter type.
    fn validate(&self, v: Ev, param: Param) -> R<Ev> {
        if v.is_invalid() {
            return match zero_of(param) {
                Some(z) => Ok(Ev::concrete(z)),
                None => Err(self.errorf(format!("invalid value; expected {}", param_type(param)))),
            };
        }
        if param == Param::Any {
            return Ok(v);
        }
        let v = if v.iface && !matches!(v.tv.val, Val::Nil) { Ev::concrete(v.tv) } else { v };
        let ok = !v.iface
            && match (param, &v.tv.val) {
                (Param::String, Val::Str(_)) | (Param::Int, Val::Int(_)) | (Param::Int64, Val::Int64(_)) | (Param::Float64, Val::Float(_)) | (Param::Bool, Val::Bool(_)) => true,
                (Param::List, Val::List(_)) | (Param::Map, Val::Map(_)) => true,
                (Param::Strings, Val::TypedList(elem, _)) => *elem == "string",
                _ => false,
            };
        if ok {
            return Ok(v);
        }
        // One dereference: `*map[string]interface{}` where a map is wanted.
        if let (Param::Map, Val::Ptr(p)) = (param, &v.tv.val)
            && matches!(p.val, Val::Map(_))
        {
            return Ok(Ev::concrete((**p).clone()));
        }
        Err(self.errorf(format!("wrong type for value; expected {}; got {}", param_type(param), v.type_name())))
    }

    /// exec.go `evalArg`: `param` `None` is Go's nil type (a chain's receiver).
    fn eval_arg(&mut self, dot: &Ev, param: Option<Param>, n: &'t Arg) -> R<Ev> {
        self.at = Some(At::Arg(n));
        let check = |s: &Self, v: Ev| match param {
            Some(p) => s.validate(v, p),
            None => Ok(v),
        };
        match n {
            Arg::Dot { .. } => return check(self, dot.clone()),
            Arg::Nil { .. } => {
                return match param.map_or(Some(Tv::new(Val::Nil)), zero_of) {
                    Some(z) => Ok(Ev::concrete(z)),
                    None => Err(self.errorf(format!("cannot assign nil to {}", param_type(param.unwrap_or(Param::Any))))),
                };
            }
            Arg::Field { ident, .. } => {
                let v = self.eval_field_chain(dot, dot.clone(), n, ident, std::slice::from_ref(n), None)?;
                return check(self, v);
            }
            Arg::Var { .. } => {
                let v = self.eval_variable(dot, n, &[], None)?;
                return check(self, v);
            }
            Arg::Pipe(p) => {
                let v = self.eval_pipeline(dot, p)?;
                return check(self, v);
            }
            Arg::Ident { name, .. } => {
                let v = self.eval_function(dot, name.of(self.src), At::Arg(n), &[], None)?;
                return check(self, v);
            }
            Arg::Chain { .. } => {
                let v = self.eval_chain(dot, n, &[], None)?;
                return check(self, v);
            }
            _ => {}
        }
        let param = param.unwrap_or(Param::Any);
        let lit = |v: Val| Ok(Ev::concrete(Tv::new(v)));
        let src = self.src;
        let shown = In(n, src);
        match (param, n) {
            (Param::Bool, Arg::Bool { val, .. }) => lit(Val::Bool(*val)),
            (Param::Bool, _) => Err(self.errorf(format!("expected bool; found {shown}"))),
            (Param::Float64, Arg::Number { num, .. }) if num.float.is_some() => lit(Val::Float(num.float.unwrap_or_default())),
            (Param::Float64, _) => Err(self.errorf(format!("expected float; found {shown}"))),
            (Param::Int, Arg::Number { num, .. }) if num.int.is_some() => lit(Val::Int(num.int.unwrap_or_default())),
            (Param::Int64, Arg::Number { num, .. }) if num.int.is_some() => lit(Val::Int64(num.int.unwrap_or_default())),
            (Param::Int | Param::Int64, _) => Err(self.errorf(format!("expected integer; found {shown}"))),
            (Param::String, Arg::Str { .. }) => lit(Val::Str(n.str_value(src).unwrap_or("").to_string())),
            (Param::String, _) => Err(self.errorf(format!("expected string; found {shown}"))),
            (Param::Any, Arg::Bool { val, .. }) => lit(Val::Bool(*val)),
            (Param::Any, Arg::Number { num, .. }) => self.ideal_constant(n, num),
            (Param::Any, Arg::Str { .. }) => lit(Val::Str(n.str_value(src).unwrap_or("").to_string())),
            _ => Err(self.errorf(format!("can't handle {shown} for arg of type {}", param_type(param)))),
        }
    }
}

/// A tree of the set, borrowed for the execution's lifetime.
fn tree_ref(tree: &Rc<Tree>) -> &Tree {
    tree.as_ref()
}

/// Runs a named template or a text for `include`/`tpl` with the engine that is running.
fn sub_render(env: Env<'_>, current: &str, depth: usize, guard: Option<Rc<super::Guard>>, req: RenderRequest<'_>) -> Result<Rendered, TmplError> {
    if depth + 1 >= MAX_TEMPLATE_DEPTH {
        return Err(TmplError::TooDeep { file: env.parse_name.into(), line: 1, column: 1, limit: MAX_TEMPLATE_DEPTH });
    }
    match req {
        // A set (Helm's engine) answers an unknown name as Go's ExecuteTemplate does.
        RenderRequest::Named { name, .. } if let Some(set_name) = env.tpl_name
            && !env.trees.trees.contains_key(name) =>
        {
            let go = format!("template: no template {} associated with template {}", crate::go::quote::quote(name), crate::go::quote::quote(set_name));
            Err(TmplError::Exec { file: env.parse_name.into(), line: 1, column: 1, message: go.clone(), go })
        }
        RenderRequest::Named { name, data } => Exec { guard, ..Exec::new(env, name, depth + 1) }.run(data),
        RenderRequest::Text { text, data } => {
            // The text joins a copy of the running set (Helm's `tpl` clones
            // it): it can call every template, and its own definitions stay its own.
            let name = env.tpl_name.unwrap_or(current);
            let mut trees = env.trees.clone();
            trees.parse_into(name, text, &|f| env.funcs.get(f).is_some()).map_err(|e| super::parse_error(name, text, *e, false))?;
            let sub = Env { src: text, parse_name: name, trees: &trees, ..env };
            Exec { guard, ..Exec::new(sub, name, depth + 1) }.run(data)
        }
    }
}

fn int(i: usize) -> Ev {
    Ev::concrete(Tv::new(Val::Int(i64::try_from(i).unwrap_or(i64::MAX))))
}

/// Follows a pointer (Go's `indirect`; releasex's pointers are never nil).
fn indirect(v: Ev) -> Ev {
    match v.tv.val {
        Val::Ptr(p) => Ev::concrete(*p),
        _ => v,
    }
}

/// exec.go `isTrue` on the value inside an interface.
fn is_true(v: &Ev) -> bool {
    truth(&v.tv.val)
}

/// `reflect.Zero` of a parameter type that can hold nil (`canBeNil`).
fn zero_of(p: Param) -> Option<Tv> {
    match p {
        Param::Any => Some(Tv::new(Val::Nil)),
        Param::List => Some(Tv::new(Val::List(Vec::new()))),
        Param::Strings => Some(Tv::new(Val::TypedList("string", Vec::new()))),
        Param::Map => Some(Tv::new(Val::Map(super::GoMap::new()))),
        _ => None,
    }
}

pub(super) fn param_type(p: Param) -> &'static str {
    match p {
        Param::Any => "interface {}",
        Param::String => "string",
        Param::Int => "int",
        Param::Int64 => "int64",
        Param::Float64 => "float64",
        Param::Bool => "bool",
        Param::List => "[]interface {}",
        Param::Strings => "[]string",
        Param::Map => "map[string]interface {}",
    }
}

/// What a receiver's origin says about the fields read from it: a
/// render-data fact (`.Release`, `.Capabilities.KubeVersion`), or a values
/// map (whose missing keys blame names as not set).
fn origin_of(recv: &Ev) -> Option<Origin> {
    recv.tv.origin.clone()
}

/// A field (or method) of a fact is a fact with a longer name
/// (`.Files.Get "conf/app.ini"`); a key missing from a values map (or
/// below one missing) is an unset key under that map. Either way blame can
/// say what a template read besides the values that are set.
fn derive_fact(v: &mut Ev, parent: Option<Origin>, field: &str, literal: Option<&str>) {
    use crate::values::source::Source;
    let Some(parent) = parent else { return };
    if v.tv.origin.is_some() {
        return;
    }
    let derived = match &*parent {
        Source::Fact { name } => {
            let mut name = format!("{name}.{field}");
            if let Some(arg) = literal {
                name.push(' ');
                name.push_str(&crate::go::quote::quote(arg));
            }
            Source::Fact { name }
        }
        Source::Unset { under, key } => Source::Unset { under: Rc::clone(under), key: format!("{key}.{field}") },
        _ if matches!(v.tv.val, Val::Nil) => Source::Unset { under: parent, key: field.to_string() },
        _ => return,
    };
    v.tv.origin = Some(Rc::new(derived));
}

/// `s.rfind("{{")`, by a memrchr for each `{` (no substring searcher set up per action).
fn rfind_left_delim(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut end = b.len();
    while let Some(j) = memchr::memrchr(b'{', b.get(..end)?) {
        if j > 0 && b[j - 1] == b'{' {
            return Some(j - 1);
        }
        end = j;
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn rfind_left_delim_is_rfind() {
        for s in ["", "{", "{{", "{{{", "a{b{", "x{{y{{z", "{{a}}{b", "é{{ü{", "{ {", "{{}}{"] {
            assert_eq!(super::rfind_left_delim(s), s.rfind("{{"), "{s:?}");
        }
    }
}
