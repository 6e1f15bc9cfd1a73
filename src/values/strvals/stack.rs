//! Deeply nested expressions (`a[0][0]...`, long `[0].` chains, deep
//! `--set-json` objects) recurse as deep as they nest, with no limit in Helm
//! (Go's stacks grow); past a threshold they run on a thread whose stack fits
//! them, while `--set-file` reads stay on the caller's thread.

use serde_json::{Map, Value};

use super::parser::Parser;
use super::{Assignment, SetKind, StrvalsError};

/// Expressions with at most this many `[`, `.` and `{` run on the caller's
/// stack (a nesting level takes about 3 KiB of stack in a debug build).
pub(super) const INLINE_NESTING: usize = 100;

/// Where the parser gets a `--set-file` path's contents.
pub(super) enum FileReads<'r> {
    Direct(&'r mut dyn FnMut(&str) -> Result<String, String>),
    /// From a parser thread: ask the caller's thread.
    Remote(
        std::sync::mpsc::Sender<String>,
        std::sync::mpsc::Receiver<Result<String, String>>,
    ),
}

impl FileReads<'_> {
    pub(super) fn read(&mut self, path: &str) -> Result<String, String> {
        match self {
            FileReads::Direct(f) => f(path),
            FileReads::Remote(ask, answer) => {
                ask.send(path.to_string()).map_err(|e| e.to_string())?;
                answer.recv().map_err(|e| e.to_string())?
            }
        }
    }
}

/// An upper bound on how deep `s` can nest values (and our recursion).
pub(super) fn nesting_of(s: &str) -> usize {
    s.bytes()
        .filter(|&b| matches!(b, b'[' | b'.' | b'{'))
        .count()
}

/// A thread whose stack fits `nesting` levels.
fn big_stack(nesting: usize) -> std::thread::Builder {
    std::thread::Builder::new().stack_size((16 << 20) + nesting.saturating_mul(4 << 10))
}

/// Runs `f` on a thread whose stack fits `nesting` levels.
pub(super) fn on_big_stack<R: Send>(nesting: usize, f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        let t = big_stack(nesting)
            .spawn_scoped(s, f)
            .expect("spawning a strvals thread");
        t.join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// `parse_into` on a big stack; file reads still happen on the caller's
/// thread (the reader need not be `Send`).
pub(super) fn run_on_big_stack(
    kind: SetKind,
    expr: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    nesting: usize,
    growth_left: &mut usize,
) -> Result<Vec<Assignment>, StrvalsError> {
    use std::sync::mpsc::channel;
    let (ask_tx, ask_rx) = channel::<String>();
    let (answer_tx, answer_rx) = channel::<Result<String, String>>();
    std::thread::scope(|s| {
        let parser = big_stack(nesting)
            .spawn_scoped(s, move || {
                let mut reads = FileReads::Remote(ask_tx, answer_rx);
                Parser::new(kind, expr, &mut reads).run(base, growth_left)
            })
            .expect("spawning a strvals thread");
        // Serve file reads until the parser is done (it drops its sender).
        for path in ask_rx {
            if answer_tx.send(read_file(&path)).is_err() {
                break;
            }
        }
        parser
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
