//! The CLI step around the parser (`pkg/cli/values/options.go`): the
//! whole-object `--set-json '{...}'` form, merged with `loader.MergeMaps`,
//! and the error text Helm wraps around a rejected flag.

use std::fmt;

use serde_json::{Map, Value};

use super::stack::{INLINE_NESTING, nesting_of, on_big_stack};
use super::{Assignment, MAX_LIST_GROWTH, SetKind, StrvalsError, parse_into_within, record};
use crate::keypath::Seg;

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
            // releasex's own limit: its reason is no Helm text to keep out.
            (FlagCause::Strvals(e @ StrvalsError::ListGrowthTooLarge), kind) => {
                write!(f, "failed parsing {} data: {e}", kind.flag())
            }
            (FlagCause::Strvals(_), SetKind::Json) => {
                write!(f, "{}{}", cli_prefix(SetKind::Json), self.value)
            }
            (FlagCause::Strvals(e), kind) => write!(f, "{}{e}", cli_prefix(kind)),
        }
    }
}

impl std::error::Error for FlagError {}

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
    let mut growth_left = MAX_LIST_GROWTH;
    apply_flag_within(kind, value, base, read_file, &mut growth_left)
}

/// [`apply_flag`] with `growth_left` list elements left to create (see
/// [`parse_into_within`]): one budget for all of a command's flags.
pub fn apply_flag_within(
    kind: SetKind,
    value: &str,
    base: &mut Map<String, Value>,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    growth_left: &mut usize,
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
    parse_into_within(kind, value, base, read_file, growth_left).map_err(|e| fail(FlagCause::Strvals(e)))
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
