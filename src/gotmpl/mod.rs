//! Go's `text/template` (Go 1.19, as helmfile and Helm run it): a lexer,
//! parser and executor that follow Go's source (`lex`, `parse`, `exec`),
//! its builtin functions (`builtins`), and the function-set contract
//! (`func`) that sprig's, helmfile's and Helm's functions are written
//! against. Errors carry Go's exact text (`template: t:1:5: executing "t"
//! at <.x.y>: map has no entry for key "y"`); what releasex cannot model is
//! [`TmplError::Unsupported`], naming file:line:column and the construct:
//! releasex never guesses what a template would print.
//!
//! Rendering also returns [`Span`]s: which template text or action produced
//! each byte of the output, so the rendered YAML's positions map back to the
//! template, and a scalar printed whole by one action keeps the state
//! value's own origin; secret and nondeterministic values are marked.
//!
//! Entry points: [`render_with`] (a function map, a host, `missingkey`, a
//! template name), and [`render`], helmfile's: the functions of `funcs`
//! (a subset of sprig's and helmfile's) over the builtins, option
//! `missingkey=error` (helmfile pkg/tmpl at ecf604d).

use std::collections::BTreeMap;

use crate::values::tree::Origin;

pub mod builtins;
#[cfg(test)]
mod conformance;
mod encode;
mod exec;
mod frozen;
pub mod func;
mod gomap;
mod inner;
pub mod helmfile;
mod mask;
mod lex;
mod literal;
mod parse;
pub mod sprig;
mod value;

pub use encode::to_yaml as yaml_v3_encode;
pub use gomap::{GoMap, MapCycle};
pub use value::{GoObject, Tv, Val, go_sprint, go_type as go_type_name};

use func::{FuncMap, Host};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TmplError {
    /// Outside the subset: helmfile might succeed, releasex cannot say what it prints.
    #[error("{file}:{line}:{column}: {construct}: not in the Go template subset releasex evaluates (use --skip-templated to explain the rest)")]
    Unsupported { file: String, line: usize, column: usize, construct: String },
    /// `if`/`with`/`range` blocks and parentheses nested past [`MAX_NESTING`].
    #[error("{file}:{line}:{column}: template: `if`/`with`/`range` blocks and parentheses nested more than {limit} deep (releasex's limit)")]
    TooDeep { file: String, line: usize, column: usize, limit: usize },
    /// Go fails here too (missing key, `required`, wrong type, ...):
    /// `message` is Go's own, `go` Go's whole error text.
    #[error("{file}:{line}:{column}: template: {message}")]
    Exec { file: String, line: usize, column: usize, message: String, go: String },
    /// Go's parser refuses the template: `go` is its whole error text
    /// (`template: t:1: unexpected "}" in operand`).
    #[error("{file}:{line}: template: {message}")]
    Parse { file: String, line: usize, message: String, go: String },
    /// A string past [`MAX_TEMPLATE_STRING`]: helmfile has no such limit (and
    /// needs minutes and gigabytes near it), so releasex gives no answer.
    #[error(
        "{file}:{line}:{column}: template: {what} would be {bytes} bytes, over releasex's limit of {} MiB on any string a template builds and on its output",
        MAX_TEMPLATE_STRING >> 20
    )]
    TooLarge { file: String, line: usize, column: usize, what: String, bytes: usize },
}

/// The most bytes a string that a template function returns, or a
/// template's whole output, may hold. Each `quote` of a quoted string about
/// doubles it (27 chained make 256 MiB from one byte); real values templates
/// stay far below.
pub const MAX_TEMPLATE_STRING: usize = 16 << 20;

/// Which template text or action produced `out` (byte range of the output).
#[derive(Debug, Clone)]
pub struct Span {
    pub out: std::ops::Range<usize>,
    /// Byte offset in the template of the first output byte (text), or of the action's `{{`.
    pub src: usize,
    /// `None` for copied text; for an action, the origin of the value it printed.
    pub action: Option<Option<Origin>>,
    /// The action printed a secret's value or one derived from it.
    pub secret: bool,
    /// The action printed a value that differs from run to run.
    pub nondeterministic: bool,
    /// The state values the action read (its field chains, and what the
    /// templates it included read), in order.
    pub reads: Vec<Origin>,
    /// The template text the span's `src` is an offset in, and its name.
    pub template: Option<(std::rc::Rc<str>, std::rc::Rc<str>)>,
    /// The conditions the span's text or action is inside (`if`, `with`,
    /// `range` of the template and of the templates that included it),
    /// innermost first: what decided that this is printed at all.
    pub guard: Option<std::rc::Rc<Guard>>,
}

/// One enclosing condition: the state values its pipeline read, and the
/// condition around it.
#[derive(Debug)]
pub struct Guard {
    pub reads: Vec<Origin>,
    pub parent: Option<std::rc::Rc<Guard>>,
}

impl Guard {
    /// Every value the conditions read, innermost first.
    pub fn all_reads(guard: &Option<std::rc::Rc<Guard>>) -> impl Iterator<Item = &Origin> {
        std::iter::successors(guard.as_deref(), |g| g.parent.as_deref()).flat_map(|g| g.reads.iter())
    }
}

/// How deep `if`/`with`/`range` blocks and parentheses may nest, together.
/// Go's text/template has no limit of its own here but the goroutine stack:
/// real helmfile 0.166 reads 300,000 nested `{{ if }}` and 100,000 nested
/// `(`, and dies of a stack overflow at 300,000 `(` and 1,000,000 `if`. The
/// parser, the evaluator and the tree's `Drop` recurse once per level; this
/// many levels fit the command's stack (`parallel::DEEP_STACK_BYTES`) in a
/// debug build, and no hand-written template comes near it.
pub const MAX_NESTING: usize = 100_000;

/// A rendered template.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub text: String,
    pub spans: Vec<Span>,
}

/// The process environment `env` and `requiredEnv` read, given by the caller.
pub type Environ = BTreeMap<String, String>;

/// Go's `missingkey` option: what a missing map key gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissingKey {
    /// `missingkey=default` (or `invalid`): no value, printed `<no value>`.
    #[default]
    Default,
    /// `missingkey=zero`: the map element type's zero value.
    Zero,
    /// `missingkey=error`: execution stops with `map has no entry for key`.
    Error,
}

/// How to render: the caller's functions (laid over the builtins, later
/// wins as Go's `Funcs`), the host they reach, `missingkey`, and the
/// template's name (Go's `template.New(name)`, in every message).
#[derive(Clone, Copy)]
pub struct RenderOptions<'a> {
    pub name: &'a str,
    pub funcs: &'a FuncMap,
    pub host: &'a dyn Host,
    pub missingkey: MissingKey,
}

/// Parses and runs `src` with `data` as dot, as Go's
/// `template.New(name).Funcs(funcs).Option(missingkey).Parse(src).Execute(data)`.
pub fn render_with(src: &str, data: &Tv, opts: &RenderOptions<'_>) -> Result<Rendered, TmplError> {
    let mut funcs = builtins::func_map();
    funcs.extend(opts.funcs);
    run(src, data, opts.name, &funcs, opts.host, opts.missingkey, false)
}

fn run(src: &str, data: &Tv, name: &str, funcs: &FuncMap, host: &dyn Host, missingkey: MissingKey, unknown_unsupported: bool) -> Result<Rendered, TmplError> {
    let trees = parse::parse(name, src, &|f| funcs.get(f).is_some()).map_err(|e| parse_error(name, src, *e, unknown_unsupported))?;
    let env = exec::Env { parse_name: name, src, trees: &trees, funcs, host, missingkey, tpl_name: None, deep_taint: true, inner_spans: false };
    exec::Exec::new(env, name, 0).run(data)
}

/// Templates parsed from many texts into one set, as Helm's engine parses
/// a chart's files (`t.New(file).Parse(text)` for each, in its order), then
/// executed by name: every text sees every other's definitions.
#[derive(Debug, Clone, Default)]
pub struct TemplateSet {
    trees: parse::Trees,
}

/// How a [`TemplateSet`] runs: the functions (over the builtins), the host,
/// `missingkey`, and the name `tpl` texts are parsed under. A set marks
/// only the values themselves as secret or nondeterministic (not what holds
/// them): chart values hold no secrets of their own.
#[derive(Clone, Copy)]
pub struct SetOptions<'a> {
    pub funcs: &'a FuncMap,
    pub host: &'a dyn Host,
    pub missingkey: MissingKey,
    pub tpl_name: &'a str,
    /// Keep an `include`'s spans in what prints its result (manifest blame).
    pub inner_spans: bool,
}

impl TemplateSet {
    pub fn new() -> TemplateSet {
        TemplateSet::default()
    }

    /// Go's `t.New(name).Parse(src)` into this set; `funcs` is the full
    /// map, as for [`TemplateSet::execute`] (the parser refuses unknown functions).
    pub fn parse(&mut self, name: &str, src: &str, funcs: &FuncMap) -> Result<(), TmplError> {
        self.trees.parse_into(name, src, &|f| funcs.get(f).is_some()).map_err(|e| parse_error(name, src, *e, false))
    }

    /// [`TemplateSet::parse`] of a text the caller shares: the trees keep it, not a copy.
    pub fn parse_shared(&mut self, name: &str, src: std::rc::Rc<str>, funcs: &FuncMap) -> Result<(), TmplError> {
        self.trees.parse_shared_into(name, std::rc::Rc::clone(&src), &|f| funcs.get(f).is_some()).map_err(|e| parse_error(name, &src, *e, false))
    }

    /// Whether the set has a template of this name.
    pub fn contains(&self, name: &str) -> bool {
        self.trees.trees.contains_key(name)
    }

    /// Go's `t.ExecuteTemplate(w, name, data)`; `funcs` must be the full map
    /// (builtins included: [`with_builtins`]).
    pub fn execute(&self, name: &str, data: &Tv, opts: &SetOptions<'_>) -> Result<Rendered, TmplError> {
        let env = exec::Env { parse_name: name, src: "", trees: &self.trees, funcs: opts.funcs, host: opts.host, missingkey: opts.missingkey, tpl_name: Some(opts.tpl_name), deep_taint: false, inner_spans: opts.inner_spans };
        exec::Exec::new(env, name, 0).run(data)
    }
}

/// `funcs` laid over Go's builtins (later wins, as Go's `Funcs`).
pub fn with_builtins(funcs: &FuncMap) -> FuncMap {
    let mut all = builtins::func_map();
    all.extend(funcs);
    all
}

fn parse_error(file: &str, src: &str, e: parse::ParseError, unknown_unsupported: bool) -> TmplError {
    match e.undefined_function {
        Some((f, at)) if unknown_unsupported => {
            let (line, column) = line_col(src, at);
            TmplError::Unsupported { file: file.into(), line, column, construct: format!("the function `{f}`") }
        }
        _ if let Some((what, at)) = e.unsupported => {
            let (line, column) = line_col(src, at);
            TmplError::Unsupported { file: file.into(), line, column, construct: what }
        }
        _ if let Some(at) = e.too_deep => {
            let (line, column) = line_col(src, at);
            TmplError::TooDeep { file: file.into(), line, column, limit: MAX_NESTING }
        }
        _ => TmplError::Parse { file: file.into(), line: e.line, message: e.message, go: e.go },
    }
}

impl TmplError {
    /// Go's own error text, when Go fails here too.
    pub fn go_text(&self) -> Option<&str> {
        match self {
            TmplError::Exec { go, .. } | TmplError::Parse { go, .. } => Some(go),
            _ => None,
        }
    }
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

/// Marks a template data field releasex does not model: reading it is unsupported.
pub const UNMODELLED: &str = "\u{0}unmodelled";

#[cfg(test)]
mod tests;
