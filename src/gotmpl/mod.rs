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
//!
//! Layout: `lex` splits the source into text and action tokens, `parse`
//! builds the node tree, `exec` walks it, `funcs` holds the template
//! functions, `value` the values a template sees (and how Go prints and
//! compares them), `encode` `toYaml` and `toJson`.

use std::collections::BTreeMap;

use crate::values::tree::Origin;

mod encode;
mod exec;
pub mod func;
pub mod helmfile;
mod funcs;
mod lex;
mod parse;
pub mod sprig;
mod value;

pub use value::{GoObject, Tv, Val};

use exec::Exec;
use parse::Parser;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TmplError {
    /// Outside the subset: helmfile might succeed, releasex cannot say what it prints.
    #[error("{file}:{line}:{column}: {construct}: not in the Go template subset releasex evaluates (use --skip-templated to explain the rest)")]
    Unsupported { file: String, line: usize, column: usize, construct: String },
    /// `if`/`with`/`range` blocks and parentheses nested past [`MAX_NESTING`].
    #[error("{file}:{line}:{column}: template: `if`/`with`/`range` blocks and parentheses nested more than {limit} deep (releasex's limit)")]
    TooDeep { file: String, line: usize, column: usize, limit: usize },
    /// helmfile fails here too (missing key, `required`, wrong type, ...).
    #[error("{file}:{line}:{column}: template: {message}")]
    Exec { file: String, line: usize, column: usize, message: String },
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

/// Renders `src` (the contents of `file`) with `data` as `.` and `$`;
/// `environ` is what `env` / `requiredEnv` read (`None`: they are unsupported).
pub fn render(file: &str, src: &str, data: &Tv, environ: Option<&Environ>) -> Result<Rendered, TmplError> {
    let nodes = Parser::new(file, src).parse_all()?;
    let mut ex = Exec::new(file, src, data, environ);
    ex.walk(&nodes, data)?;
    Ok(ex.finish())
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
