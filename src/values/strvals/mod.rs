//! Helm's `--set` family, exactly as Helm v4.2.3's `pkg/strvals` parses it
//! (`parser.go`, `literal_parser.go`), plus the CLI step of
//! `pkg/cli/values/options.go` that calls it (`--set-json '{...}'`, Helm's
//! error wrapping).
//!
//! Every flavour writes into the values accumulated so far, as
//! `strvals.ParseInto` does: [`parse_into`] for one expression,
//! [`apply_flag`] for one flag value as the Helm CLI applies it. Values are
//! `serde_json::Value`s standing for Go values: `--set` integers are int64
//! (`i64` numbers), `--set-json` numbers float64 (`f64` numbers, `1` too).
//!
//! Quirks kept on purpose (all observed in Helm):
//! - `a[1` (input ends inside an index) and `noval[0]` end the expression
//!   without an error; `name.` at the end does too, and sets nothing.
//! - An empty key sets nothing (`=1`, `.a=1`), unless the empty key already
//!   holds a map or a list in the base (Go then edits it in place).
//! - `a[0].b` replaces a non-map element with a map; `a[0].=x` stores `{}`.
//! - Errors leave partial results in the base (Helm then fails the command).
//! - `--set-json a=` and `a= ,` give null; the value after `=` is one JSON
//!   value and whatever follows it starts the next key.
//! - `--set-literal` takes the rest of the string as the value, verbatim.
//!
//! This file holds the kinds of flag, what an expression wrote and the entry
//! point; the parser state machine is in `parser`, Go's readings of scalar
//! text (`typedVal`, `strconv.Atoi`) in `typed`, the thread that runs deeply
//! nested expressions in `stack`, Helm's parse errors in `error` and the CLI
//! step (`--set-json '{...}'`, error wrapping) in `flag`.

mod error;
mod flag;
mod parser;
mod stack;
#[cfg(test)]
mod tests;
mod typed;

use serde_json::{Map, Value};

use crate::keypath::{Path, Seg};
use parser::Parser;
use stack::{FileReads, INLINE_NESTING, nesting_of, run_on_big_stack};

pub use crate::go::quote::{quote as go_quote, quote_runes as go_quote_runes};
pub use error::StrvalsError;
pub use flag::{FlagCause, FlagError, apply_flag, apply_flag_within, cli_prefix, merge_maps};

/// `strvals.MaxIndex`: the largest list index accepted.
pub const MAX_INDEX: i64 = 65536;
/// `strvals.MaxNestedNameLevel`: the most `.` nestings in one key path.
pub const MAX_NESTED_NAME_LEVEL: usize = 30;
/// The most list elements that indexes (`a[65536]` pads `a` with 65,536
/// nulls) may create over all the value flags of one command: releasex's own
/// limit, not Helm's. Helm has none and needs 16 bytes an element; 353 bytes
/// of `a[65536][65536]...` (50 levels, 3,276,850 elements, which Helm answers)
/// fit, a few KiB that would take gigabytes do not.
pub const MAX_LIST_GROWTH: usize = 1 << 22;

/// Which of Helm's value flags (and which `strvals` function) an expression
/// belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// `--set`: `strvals.ParseInto`, typed values.
    Set,
    /// `--set-string`: `strvals.ParseIntoString`, every value a string.
    String,
    /// `--set-json`: `strvals.ParseJSON` (and, in [`apply_flag`], the
    /// whole-object form).
    Json,
    /// `--set-file`: `strvals.ParseIntoFile`; values are paths whose
    /// contents become strings.
    File,
    /// `--set-literal`: `strvals.ParseLiteralInto`.
    Literal,
}

impl SetKind {
    /// The order in which Helm applies the flags, whatever their order on
    /// the command line (after all `-f` files).
    pub const HELM_ORDER: [SetKind; 5] = [
        SetKind::Json,
        SetKind::Set,
        SetKind::String,
        SetKind::File,
        SetKind::Literal,
    ];

    /// The command-line flag.
    pub fn flag(self) -> &'static str {
        match self {
            SetKind::Set => "--set",
            SetKind::String => "--set-string",
            SetKind::Json => "--set-json",
            SetKind::File => "--set-file",
            SetKind::Literal => "--set-literal",
        }
    }
}

/// One value an expression wrote, in order. Usually a leaf: `a.b=1` gives
/// `a.b`, `a[2]=x` gives `a[2]`. The value is a list or map when the
/// expression wrote one whole: a `{x,y}` list, a `--set-json` array or
/// object, or a container the expression created (or, for `a[0].`,
/// replaced) without assigning anything inside it (`noval[0]` gives
/// `noval` = `[]`, `a[0].=x` gives `a[0]` = `{}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub path: Path,
    pub value: Value,
}

/// Adds what was written at `at` + `last` to `out`.
fn record(out: &mut Vec<Assignment>, at: &[Seg], last: Seg, value: &Value) {
    let mut p = Vec::with_capacity(at.len() + 1);
    p.extend_from_slice(at);
    p.push(last);
    out.push(Assignment {
        path: Path(p),
        value: value.clone(),
    });
}

/// `strvals.ParseInto` (and `ParseIntoString`, `ParseJSON`, `ParseIntoFile`,
/// `ParseLiteralInto`, by `kind`) of `expr` into `base`, the values
/// accumulated so far. Returns what the expression wrote, in order. For
/// `File`, `read_file` turns a path into the file's contents (or an error
/// text, returned as [`StrvalsError::File`]); it is called once per path
/// value, in order: also for an empty one before a `,` or inside `{}`
/// (Helm then fails with `open : no such file or directory`), but not for
/// a `key=` that ends the expression (that sets `""`).
///
/// On error `base` keeps whatever was written before the error, as in Helm.
pub fn parse_into(
    kind: SetKind,
    expr: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Vec<Assignment>, StrvalsError> {
    let mut growth_left = MAX_LIST_GROWTH;
    parse_into_within(kind, expr, base, read_file, &mut growth_left)
}

/// [`parse_into`] with `growth_left` list elements left to create (of
/// [`MAX_LIST_GROWTH`] for a command's flags together); on return, what is
/// left after this expression.
pub fn parse_into_within(
    kind: SetKind,
    expr: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    growth_left: &mut usize,
) -> Result<Vec<Assignment>, StrvalsError> {
    // List indexes (`a[0][0]...`) and `[0].` chains nest without Helm's
    // 30-level limit, and Go's stacks grow; a long chain runs on a thread
    // with a stack to match. (A value nested that deep is still deep: serde_json
    // drops, clones and prints it recursively.)
    let nesting = nesting_of(expr);
    if nesting <= INLINE_NESTING {
        return Parser::new(kind, expr, &mut FileReads::Direct(read_file)).run(base, growth_left);
    }
    run_on_big_stack(kind, expr, base, read_file, nesting, growth_left)
}
