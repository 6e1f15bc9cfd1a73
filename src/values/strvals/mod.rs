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


use std::fmt;

use serde_json::{Map, Value};

use crate::keypath::{Path, Seg};

pub use crate::go::quote::{quote as go_quote, quote_runes as go_quote_runes};

/// `strvals.MaxIndex`: the largest list index accepted.
pub const MAX_INDEX: i64 = 65536;
/// `strvals.MaxNestedNameLevel`: the most `.` nestings in one key path.
pub const MAX_NESTED_NAME_LEVEL: usize = 30;

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

/// The text Helm's CLI puts before a parse error of this kind of flag.
///
/// For every kind but `Json` the error follows (`failed parsing --set data:
/// key "a" has no value`). For `Json` Helm drops the cause and prints the
/// flag's value instead (`failed parsing --set-json data a=x`); the
/// whole-object form reads `failed parsing --set-json data JSON: {x`.
/// [`FlagError`]'s `Display` assembles all of these.
pub fn cli_prefix(kind: SetKind) -> &'static str {
    match kind {
        SetKind::Set => "failed parsing --set data: ",
        SetKind::String => "failed parsing --set-string data: ",
        SetKind::Json => "failed parsing --set-json data ",
        SetKind::File => "failed parsing --set-file data: ",
        SetKind::Literal => "failed parsing --set-literal data: ",
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

/// A `strvals` parse error; `Display` is Helm's message, word for word.
#[derive(Debug, Clone, PartialEq)]
pub enum StrvalsError {
    /// `key "a" has no value`: the input ended inside a key.
    KeyNoValue(String),
    /// `key "a" has no value (cannot end with ,)`.
    KeyNoValueComma(String),
    /// `key map "a" has no value`: `a.=x`, `a..b=x`.
    KeyMapNoValue(String),
    /// `error parsing index: strconv.Atoi: parsing "x": invalid syntax`.
    IndexSyntax(String),
    /// `error parsing index: strconv.Atoi: parsing "…": value out of range`.
    IndexRange(String),
    /// `unexpected data at end of array index: ['x']`.
    IndexTrailingData(String),
    /// `negative -1 index not allowed`.
    NegativeIndex(i64),
    /// `index of 65537 is greater than maximum supported index of 65536`.
    IndexTooLarge(i64),
    /// `list must terminate with '}'`.
    ListUnterminated,
    /// `unable to parse key: interface conversion: interface {} is string,
    /// not map[string]interface {}`: a path through a value of another
    /// type (Go's type names: `string`, `int64`, `float64`, `bool`, `nil`,
    /// `[]interface {}`, `map[string]interface {}`).
    TypeConflict {
        found: &'static str,
        wanted: &'static str,
    },
    /// `value name nested level is greater than maximum supported nested
    /// level of 30`.
    NestedTooDeep,
    /// `--set-json`: Go's JSON decoder error (`unexpected EOF`, `invalid
    /// character 'x' looking for beginning of value`, ...).
    Json(String),
    /// `--set-file`: the reader's error, as given.
    File(String),
}

const GO_MAP: &str = "map[string]interface {}";
const GO_LIST: &str = "[]interface {}";

impl fmt::Display for StrvalsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::go::quote::{quote, quote_runes};
        match self {
            StrvalsError::KeyNoValue(k) => write!(f, "key {} has no value", quote(k)),
            StrvalsError::KeyNoValueComma(k) => {
                write!(f, "key {} has no value (cannot end with ,)", quote(k))
            }
            StrvalsError::KeyMapNoValue(k) => write!(f, "key map {} has no value", quote(k)),
            StrvalsError::IndexSyntax(s) => {
                write!(
                    f,
                    "error parsing index: strconv.Atoi: parsing {}: invalid syntax",
                    quote(s)
                )
            }
            StrvalsError::IndexRange(s) => {
                write!(
                    f,
                    "error parsing index: strconv.Atoi: parsing {}: value out of range",
                    quote(s)
                )
            }
            StrvalsError::IndexTrailingData(s) => write!(
                f,
                "unexpected data at end of array index: {}",
                quote_runes(s)
            ),
            StrvalsError::NegativeIndex(i) => write!(f, "negative {i} index not allowed"),
            StrvalsError::IndexTooLarge(i) => {
                write!(
                    f,
                    "index of {i} is greater than maximum supported index of {MAX_INDEX}"
                )
            }
            StrvalsError::ListUnterminated => f.write_str("list must terminate with '}'"),
            StrvalsError::TypeConflict { found, wanted } => {
                write!(
                    f,
                    "unable to parse key: interface conversion: interface {{}} is {found}, not {wanted}"
                )
            }
            StrvalsError::NestedTooDeep => write!(
                f,
                "value name nested level is greater than maximum supported nested level of {MAX_NESTED_NAME_LEVEL}"
            ),
            StrvalsError::Json(m) | StrvalsError::File(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StrvalsError {}

/// A value flag that Helm's CLI rejects; `Display` is Helm's whole message
/// (`failed parsing --set data: key "a" has no value`).
#[derive(Debug, Clone, PartialEq)]
pub struct FlagError {
    pub kind: SetKind,
    /// The flag's value as given.
    pub value: String,
    pub cause: FlagCause,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FlagCause {
    Strvals(StrvalsError),
    /// `--set-json '{...}'` that `json.Unmarshal` rejects (Go's message,
    /// which Helm does not print).
    JsonObject(String),
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.cause, self.kind) {
            (FlagCause::JsonObject(_), _) => {
                write!(f, "failed parsing --set-json data JSON: {}", self.value)
            }
            (FlagCause::Strvals(_), SetKind::Json) => {
                write!(f, "{}{}", cli_prefix(SetKind::Json), self.value)
            }
            (FlagCause::Strvals(e), kind) => write!(f, "{}{e}", cli_prefix(kind)),
        }
    }
}

impl std::error::Error for FlagError {}

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
    // List indexes (`a[0][0]...`) and `[0].` chains nest without Helm's
    // 30-level limit, and Go's stacks grow; a long chain runs on a thread
    // with a stack to match. (A value nested that deep is still deep: serde_json
    // drops, clones and prints it recursively.)
    let nesting = nesting_of(expr);
    if nesting <= INLINE_NESTING {
        return Parser::new(kind, expr, &mut FileReads::Direct(read_file)).run(base);
    }
    run_on_big_stack(kind, expr, base, read_file, nesting)
}

/// One flag value as Helm's CLI applies it (`pkg/cli/values/options.go`,
/// `MergeValues`): `--set-json` whose value, trimmed, starts with `{` is
/// decoded as a whole JSON object and merged in with `loader.MergeMaps`;
/// everything else goes through [`parse_into`]. Errors carry Helm's CLI
/// message. Apply flags in [`SetKind::HELM_ORDER`].
pub fn apply_flag(
    kind: SetKind,
    value: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Vec<Assignment>, FlagError> {
    let fail = |cause| FlagError {
        kind,
        value: value.to_string(),
        cause,
    };
    if kind == SetKind::Json {
        let trimmed = value.trim_matches(char::is_whitespace);
        if trimmed.starts_with('{') {
            let mut merge = move || -> Result<Vec<Assignment>, String> {
                let obj = match crate::go::json_decode::unmarshal(trimmed) {
                    Ok(Value::Object(m)) => m,
                    Ok(_) => return Err("not an object".into()),
                    Err(e) => return Err(e.unmarshal_text()),
                };
                let mut out = Vec::new();
                merge_maps_recording(base, obj, &mut Vec::new(), &mut out);
                Ok(out)
            };
            let nesting = nesting_of(trimmed);
            let r = if nesting <= INLINE_NESTING {
                merge()
            } else {
                on_big_stack(nesting, merge)
            };
            return r.map_err(|e| fail(FlagCause::JsonObject(e)));
        }
    }
    parse_into(kind, value, base, read_file).map_err(|e| fail(FlagCause::Strvals(e)))
}

/// Helm's `loader.MergeMaps(a, b)` into `a`: maps merge recursively, any
/// other value of `b` (null included) replaces; nothing is deleted.
pub fn merge_maps(a: &mut Map<String, Value>, b: Map<String, Value>) {
    merge_maps_recording(a, b, &mut Vec::new(), &mut Vec::new());
}

fn merge_maps_recording(
    a: &mut Map<String, Value>,
    b: Map<String, Value>,
    at: &mut Vec<Seg>,
    out: &mut Vec<Assignment>,
) {
    for (k, v) in b {
        if let Value::Object(bm) = v {
            if let Some(Value::Object(am)) = a.get_mut(&k) {
                at.push(Seg::Key(k));
                merge_maps_recording(am, bm, at, out);
                at.pop();
                continue;
            }
            record(out, at, Seg::Key(k.clone()), &Value::Object(bm.clone()));
            a.insert(k, Value::Object(bm));
        } else {
            record(out, at, Seg::Key(k.clone()), &v);
            a.insert(k, v);
        }
    }
}

fn record(out: &mut Vec<Assignment>, at: &[Seg], last: Seg, value: &Value) {
    let mut p = Vec::with_capacity(at.len() + 1);
    p.extend_from_slice(at);
    p.push(last);
    out.push(Assignment {
        path: Path(p),
        value: value.clone(),
    });
}

/// Go's name for the dynamic type of a decoded value, as a failed type
/// assertion prints it.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "nil",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => GO_LIST,
        Value::Object(_) => GO_MAP,
    }
}

// ---------------------------------------------------------------------------
// The parser

/// Expressions with at most this many `[`, `.` and `{` run on the caller's
/// stack (a nesting level takes about 3 KiB of stack in a debug build).
const INLINE_NESTING: usize = 100;

enum FileReads<'r> {
    Direct(&'r mut dyn FnMut(&str) -> Result<String, String>),
    /// From a parser thread: ask the caller's thread.
    Remote(
        std::sync::mpsc::Sender<String>,
        std::sync::mpsc::Receiver<Result<String, String>>,
    ),
}

impl FileReads<'_> {
    fn read(&mut self, path: &str) -> Result<String, String> {
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
fn nesting_of(s: &str) -> usize {
    s.bytes()
        .filter(|&b| matches!(b, b'[' | b'.' | b'{'))
        .count()
}

/// A thread whose stack fits `nesting` levels.
fn big_stack(nesting: usize) -> std::thread::Builder {
    std::thread::Builder::new().stack_size((16 << 20) + nesting.saturating_mul(4 << 10))
}

/// Runs `f` on a thread whose stack fits `nesting` levels.
fn on_big_stack<R: Send>(nesting: usize, f: impl FnOnce() -> R + Send) -> R {
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
fn run_on_big_stack(
    kind: SetKind,
    expr: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    nesting: usize,
) -> Result<Vec<Assignment>, StrvalsError> {
    use std::sync::mpsc::channel;
    let (ask_tx, ask_rx) = channel::<String>();
    let (answer_tx, answer_rx) = channel::<Result<String, String>>();
    std::thread::scope(|s| {
        let parser = big_stack(nesting)
            .spawn_scoped(s, move || {
                let mut reads = FileReads::Remote(ask_tx, answer_rx);
                Parser::new(kind, expr, &mut reads).run(base)
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

/// Why a parsing step stopped early.
enum Stop {
    /// The input ended where Helm ends parsing quietly (`parse()` treats
    /// `io.EOF`, also wrapped, as success).
    Eof,
    Fail(StrvalsError),
}

type Step = Result<(), Stop>;

fn fail<T>(e: StrvalsError) -> Result<T, Stop> {
    Err(Stop::Fail(e))
}

/// What `valList` found.
enum ValList {
    List(Vec<Value>),
    /// End of input right after `=`.
    Eof,
    /// Not a `{...}` list.
    NotList,
    Fail(StrvalsError),
}

struct Parser<'s, 'r, 'f> {
    src: &'s str,
    pos: usize,
    kind: SetKind,
    reads: &'r mut FileReads<'f>,
    /// The path of the map or list being written.
    at: Vec<Seg>,
    out: Vec<Assignment>,
}

impl<'s, 'r, 'f> Parser<'s, 'r, 'f> {
    fn new(kind: SetKind, src: &'s str, reads: &'r mut FileReads<'f>) -> Self {
        Parser {
            src,
            pos: 0,
            kind,
            reads,
            at: Vec::new(),
            out: Vec::new(),
        }
    }

    fn run(mut self, base: &mut Map<String, Value>) -> Result<Vec<Assignment>, StrvalsError> {
        loop {
            match self.key(base, 0) {
                Ok(()) => {}
                Err(Stop::Eof) => return Ok(self.out),
                Err(Stop::Fail(e)) => return Err(e),
            }
        }
    }

    fn literal(&self) -> bool {
        self.kind == SetKind::Literal
    }

    fn next(&mut self) -> Option<char> {
        let c = self.src[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn unread(&mut self, c: char) {
        self.pos -= c.len_utf8();
    }

    /// `runesUntil`: text up to the first stop rune (consumed and returned,
    /// `None` at the end of input). Outside `--set-literal`, `\` takes the
    /// next rune literally, and a `\` at the very end is dropped.
    fn runes_until(&mut self, stop: &[char]) -> (String, Option<char>) {
        let mut v = String::new();
        let literal = self.literal();
        loop {
            match self.next() {
                None => return (v, None),
                Some(c) if stop.contains(&c) => return (v, Some(c)),
                Some('\\') if !literal => match self.next() {
                    None => return (v, None),
                    Some(n) => v.push(n),
                },
                Some(c) => v.push(c),
            }
        }
    }

    /// The rest of the input (`--set-literal` values).
    fn rest(&mut self) -> String {
        let s = self.src[self.pos..].to_string();
        self.pos = self.src.len();
        s
    }

    fn record_key(&mut self, k: &str, v: &Value) {
        record(&mut self.out, &self.at, Seg::Key(k.to_string()), v);
    }

    /// `set(data, key, val)` for a value the expression assigns.
    fn set_leaf(&mut self, data: &mut Map<String, Value>, k: String, v: Value) {
        if k.is_empty() {
            return;
        }
        self.record_key(&k, &v);
        data.insert(k, v);
    }

    /// `parser.key`: one assignment into `data`, `level` dots deep.
    fn key(&mut self, data: &mut Map<String, Value>, level: usize) -> Step {
        let stops: &[char] = if self.literal() {
            &['=', '[', '.']
        } else {
            &['=', '[', ',', '.']
        };
        let (k, last) = self.runes_until(stops);
        match last {
            None if k.is_empty() => Err(Stop::Eof),
            None => fail(StrvalsError::KeyNoValue(k)),
            Some('[') => self.key_list(data, k, level),
            Some('=') => self.key_value(data, k),
            Some(',') => {
                if !k.is_empty() {
                    data.insert(k.clone(), Value::String(String::new()));
                }
                fail(StrvalsError::KeyNoValueComma(k))
            }
            Some(_) => self.key_map(data, k, level),
        }
    }

    /// `key=value`.
    fn key_value(&mut self, data: &mut Map<String, Value>, k: String) -> Step {
        match self.kind {
            SetKind::Json => {
                if self.empty_val() {
                    self.set_leaf(data, k, Value::Null);
                    return Ok(());
                }
                let v = self.json_value().or_else(fail)?;
                self.set_leaf(data, k, v);
                self.empty_val();
                Ok(())
            }
            SetKind::Literal => {
                let v = Value::String(self.rest());
                self.set_leaf(data, k, v);
                Ok(())
            }
            _ => match self.val_list() {
                ValList::List(vl) => {
                    self.set_leaf(data, k, Value::Array(vl));
                    Ok(())
                }
                ValList::Eof => {
                    self.set_leaf(data, k, Value::String(String::new()));
                    Err(Stop::Eof)
                }
                ValList::NotList => {
                    let rs = self.val();
                    let (v, e) = self.reader(rs);
                    self.set_leaf(data, k, v);
                    e.or_else(fail)
                }
                ValList::Fail(e) => fail(e),
            },
        }
    }

    /// `key.rest`: into the map at `key`, creating it if absent.
    fn key_map(&mut self, data: &mut Map<String, Value>, k: String, level: usize) -> Step {
        let level = level + 1;
        if level > MAX_NESTED_NAME_LEVEL {
            return fail(StrvalsError::NestedTooDeep);
        }
        self.at.push(Seg::Key(k.clone()));
        let r = match data.get_mut(&k) {
            Some(Value::Object(inner)) => {
                // Go edits the existing map in place.
                let e = self.key(inner, level);
                if e.is_ok() && inner.is_empty() {
                    fail(StrvalsError::KeyMapNoValue(k))
                } else {
                    e
                }
            }
            Some(other) => fail(StrvalsError::TypeConflict {
                found: go_type(other),
                wanted: GO_MAP,
            }),
            None => {
                let mark = self.out.len();
                let mut inner = Map::new();
                let e = self.key(&mut inner, level);
                if e.is_ok() && inner.is_empty() {
                    fail(StrvalsError::KeyMapNoValue(k))
                } else {
                    if !inner.is_empty() {
                        if k.is_empty() {
                            // set() ignores an empty key: the new map is lost.
                            self.out.truncate(mark);
                        } else {
                            data.insert(k, Value::Object(inner));
                        }
                    }
                    e
                }
            }
        };
        self.at.pop();
        r
    }

    /// `key[i]...`: into the list at `key`, creating it if absent.
    fn key_list(&mut self, data: &mut Map<String, Value>, k: String, level: usize) -> Step {
        let i = self.key_index()?;
        let (list, existed) = match data.get_mut(&k) {
            None => (Vec::new(), false),
            // An empty key is never set, so Go's in-place edits of an
            // existing list there survive only where no reallocation happened
            // (see below); work on a copy.
            Some(Value::Array(a)) if k.is_empty() => (a.clone(), true),
            Some(Value::Array(a)) => (std::mem::take(a), true),
            Some(other) => {
                return fail(StrvalsError::TypeConflict {
                    found: go_type(other),
                    wanted: GO_LIST,
                });
            }
        };
        let orig_len = list.len();
        let mark = self.out.len();
        self.at.push(Seg::Key(k.clone()));
        let (list, e) = self.list_item(list, i, level);
        self.at.pop();
        if !k.is_empty() {
            if !existed && self.out.len() == mark && !matches!(e, Err(Stop::Fail(_))) {
                record(
                    &mut self.out,
                    &self.at,
                    Seg::Key(k.clone()),
                    &Value::Array(list.clone()),
                );
            }
            data.insert(k, Value::Array(list));
        } else if existed && i >= 0 && (i as u64) < orig_len as u64 {
            // The index was inside the list: Go wrote into its backing array.
            data.insert(k, Value::Array(list));
        } else {
            self.out.truncate(mark);
        }
        e
    }

    /// `keyIndex`: the text up to `]` as `strconv.Atoi` reads it.
    fn key_index(&mut self) -> Result<i64, Stop> {
        let (v, last) = self.runes_until(&[']']);
        if last.is_none() {
            // "error parsing index: EOF" wraps io.EOF: a quiet end.
            return Err(Stop::Eof);
        }
        atoi(&v).map_err(Stop::Fail)
    }

    /// `setIndex`.
    fn set_index(list: &mut Vec<Value>, i: i64, v: Value) -> Result<(), StrvalsError> {
        if i < 0 {
            return Err(StrvalsError::NegativeIndex(i));
        }
        if i > MAX_INDEX {
            return Err(StrvalsError::IndexTooLarge(i));
        }
        let i = i as usize;
        if list.len() <= i {
            list.resize(i + 1, Value::Null);
        }
        list[i] = v;
        Ok(())
    }

    /// `setIndex` of a value the expression assigns.
    fn set_index_leaf(&mut self, mut list: Vec<Value>, i: i64, v: Value) -> (Vec<Value>, Step) {
        let rec = Value::clone(&v);
        match Self::set_index(&mut list, i, v) {
            Ok(()) => {
                record(&mut self.out, &self.at, Seg::Index(i as usize), &rec);
                (list, Ok(()))
            }
            Err(e) => (list, fail(e)),
        }
    }

    /// `listItem`: what follows `[i]`, applied to `list` (the path of which
    /// is `self.at`). Returns the list to store, as Go does, also on errors.
    fn list_item(&mut self, mut list: Vec<Value>, i: i64, level: usize) -> (Vec<Value>, Step) {
        if i < 0 {
            return (list, fail(StrvalsError::NegativeIndex(i)));
        }
        let (k, last) = self.runes_until(&['[', '.', '=']);
        if !k.is_empty() {
            return (list, fail(StrvalsError::IndexTrailingData(k)));
        }
        let iu = i as usize;
        match last {
            None => (list, Err(Stop::Eof)),
            Some('=') => self.list_value(list, i),
            Some('[') => {
                let next = match self.key_index() {
                    Ok(n) => n,
                    Err(stop) => return (list, Err(stop)),
                };
                let mut existed = false;
                let crt = match list.get_mut(iu) {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(a)) => {
                        existed = true;
                        std::mem::take(a)
                    }
                    Some(other) => {
                        let found = go_type(other);
                        return (
                            list,
                            fail(StrvalsError::TypeConflict {
                                found,
                                wanted: GO_LIST,
                            }),
                        );
                    }
                };
                self.at.push(Seg::Index(iu));
                let (inner, e) = self.list_item(crt, next, level);
                self.at.pop();
                if e.is_err() {
                    if existed {
                        list[iu] = Value::Array(inner);
                    }
                    return (list, e);
                }
                match Self::set_index(&mut list, i, Value::Array(inner)) {
                    Ok(()) => (list, Ok(())),
                    Err(e) => (list, fail(e)),
                }
            }
            Some(_) => {
                // `.`: into the map at list[i]; a non-map element is replaced.
                let mark = self.out.len();
                self.at.push(Seg::Index(iu));
                let r = if iu < list.len() {
                    let replaced = !list[iu].is_object();
                    if replaced {
                        list[iu] = Value::Object(Map::new());
                    }
                    let Value::Object(inner) = &mut list[iu] else {
                        unreachable!()
                    };
                    let e = self.key(inner, level);
                    self.at.pop();
                    if replaced && self.out.len() == mark && !matches!(e, Err(Stop::Fail(_))) {
                        record(&mut self.out, &self.at, Seg::Index(iu), &list[iu]);
                    }
                    match e {
                        Err(stop) => Err(stop),
                        Ok(()) if i > MAX_INDEX => fail(StrvalsError::IndexTooLarge(i)),
                        Ok(()) => Ok(()),
                    }
                } else {
                    let mut inner = Map::new();
                    let e = self.key(&mut inner, level);
                    self.at.pop();
                    match e {
                        Err(stop) => Err(stop),
                        Ok(()) => {
                            let created_empty = self.out.len() == mark;
                            let v = Value::Object(inner);
                            let rec = created_empty.then(|| v.clone());
                            match Self::set_index(&mut list, i, v) {
                                Ok(()) => {
                                    if let Some(rec) = rec {
                                        record(&mut self.out, &self.at, Seg::Index(iu), &rec);
                                    }
                                    Ok(())
                                }
                                Err(e) => fail(e),
                            }
                        }
                    }
                };
                (list, r)
            }
        }
    }

    /// `[i]=value`.
    fn list_value(&mut self, list: Vec<Value>, i: i64) -> (Vec<Value>, Step) {
        match self.kind {
            SetKind::Json => {
                if self.empty_val() {
                    return self.set_index_leaf(list, i, Value::Null);
                }
                let v = match self.json_value() {
                    Ok(v) => v,
                    Err(e) => return (list, fail(e)),
                };
                let (list, r) = self.set_index_leaf(list, i, v);
                if r.is_ok() {
                    self.empty_val();
                }
                (list, r)
            }
            SetKind::Literal => {
                let v = Value::String(self.rest());
                self.set_index_leaf(list, i, v)
            }
            _ => match self.val_list() {
                ValList::List(vl) => self.set_index_leaf(list, i, Value::Array(vl)),
                // Unlike `key=` at the end, this is no EOF for the caller.
                ValList::Eof => self.set_index_leaf(list, i, Value::String(String::new())),
                ValList::NotList => {
                    let rs = self.val();
                    match self.reader(rs) {
                        (_, Err(e)) => (list, fail(e)),
                        (v, Ok(())) => self.set_index_leaf(list, i, v),
                    }
                }
                ValList::Fail(e) => (list, fail(e)),
            },
        }
    }

    /// `emptyVal` (`--set-json`): skips white space up to and including a
    /// `,`; true at a `,` or the end of input, false (nothing else consumed)
    /// before anything else.
    fn empty_val(&mut self) -> bool {
        loop {
            match self.next() {
                None | Some(',') => return true,
                Some(c) if c.is_whitespace() => {}
                Some(c) => {
                    self.unread(c);
                    return false;
                }
            }
        }
    }

    /// One JSON value at the current position, consumed exactly.
    fn json_value(&mut self) -> Result<Value, StrvalsError> {
        match crate::go::json_decode::decode_prefix(&self.src[self.pos..]) {
            Ok((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            Err(e) => Err(StrvalsError::Json(e.decoder_text())),
        }
    }

    /// `val`: a plain value, up to an unescaped `,`.
    fn val(&mut self) -> String {
        self.runes_until(&[',']).0
    }

    /// `valList`: a `{a,b}` list after `=`.
    fn val_list(&mut self) -> ValList {
        match self.next() {
            None => return ValList::Eof,
            Some('{') => {}
            Some(c) => {
                self.unread(c);
                return ValList::NotList;
            }
        }
        let mut list = Vec::new();
        loop {
            let (rs, last) = self.runes_until(&[',', '}']);
            match last {
                None => return ValList::Fail(StrvalsError::ListUnterminated),
                Some('}') => {
                    if let Some(c) = self.next()
                        && c != ','
                    {
                        self.unread(c);
                    }
                    let (v, e) = self.reader(rs);
                    list.push(v);
                    return match e {
                        Ok(()) => ValList::List(list),
                        Err(e) => ValList::Fail(e),
                    };
                }
                Some(_) => {
                    let (v, e) = self.reader(rs);
                    if let Err(e) = e {
                        return ValList::Fail(e);
                    }
                    list.push(v);
                }
            }
        }
    }

    /// The parser's `reader`: typed (`--set`), string (`--set-string`) or
    /// file contents (`--set-file`). On a read error Go still returns nil
    /// as the value.
    fn reader(&mut self, rs: String) -> (Value, Result<(), StrvalsError>) {
        match self.kind {
            SetKind::Set => (typed_val(rs), Ok(())),
            SetKind::File => match self.reads.read(&rs) {
                Ok(s) => (Value::String(s), Ok(())),
                Err(m) => (Value::Null, Err(StrvalsError::File(m))),
            },
            _ => (Value::String(rs), Ok(())),
        }
    }
}

/// `typedVal` for `--set`: `true`/`false`/`null` in any case (Go's
/// `strings.EqualFold`, so `ſ` matches `s`), `0`, and decimal int64s that
/// do not start with `0` (signs allowed: `-5`, `+7`, `-007`); anything else
/// stays a string.
fn typed_val(s: String) -> Value {
    if equal_fold_ascii(&s, "true") {
        return Value::Bool(true);
    }
    if equal_fold_ascii(&s, "false") {
        return Value::Bool(false);
    }
    if equal_fold_ascii(&s, "null") {
        return Value::Null;
    }
    if s == "0" {
        return Value::from(0i64);
    }
    if !s.is_empty()
        && !s.starts_with('0')
        && let Ok(i) = s.parse::<i64>()
    {
        return Value::from(i);
    }
    Value::String(s)
}

/// `strings.EqualFold(s, word)` for a lower-case ASCII `word` made of the
/// letters of `true`, `false` and `null`. Of their Unicode simple-fold
/// orbits only `s`'s has a non-ASCII member: U+017F `ſ`.
fn equal_fold_ascii(s: &str, word: &str) -> bool {
    let mut cs = s.chars();
    for w in word.chars() {
        match cs.next() {
            Some(c) if c.to_ascii_lowercase() == w => {}
            Some('\u{17f}') if w == 's' => {}
            _ => return false,
        }
    }
    cs.next().is_none()
}

/// `strconv.Atoi` on a 64-bit platform, errors as `StrvalsError`s.
fn atoi(s: &str) -> Result<i64, StrvalsError> {
    let syntax = || StrvalsError::IndexSyntax(s.to_string());
    let range = || StrvalsError::IndexRange(s.to_string());
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return Err(syntax());
    }
    if b.len() < 19 {
        // Go's fast path: at most 18 digits always fit.
        let mut n: i64 = 0;
        for &c in digits {
            if !c.is_ascii_digit() {
                return Err(syntax());
            }
            n = n * 10 + i64::from(c - b'0');
        }
        return Ok(if neg { -n } else { n });
    }
    // ParseInt(s, 10, 0): ParseUint reports overflow as soon as it happens,
    // before looking at later characters.
    const CUTOFF: u64 = u64::MAX / 10 + 1;
    let mut n: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return Err(syntax());
        }
        if n >= CUTOFF {
            return Err(range());
        }
        n *= 10;
        let n1 = n.wrapping_add(u64::from(c - b'0'));
        if n1 < n {
            return Err(range());
        }
        n = n1;
    }
    const LIMIT: u64 = 1 << 63;
    if (!neg && n >= LIMIT) || (neg && n > LIMIT) {
        return Err(range());
    }
    Ok(if neg {
        (n as i64).wrapping_neg()
    } else {
        n as i64
    })
}

#[cfg(test)]
mod tests;
