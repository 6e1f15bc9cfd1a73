//! Helm's `strvals` parse errors, word for word, and Go's names for the
//! value types its failed type assertions print.

use std::fmt;

use serde_json::Value;

use super::{MAX_INDEX, MAX_LIST_GROWTH, MAX_NESTED_NAME_LEVEL};

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
    /// releasex's own limit ([`MAX_LIST_GROWTH`]), not Helm's.
    ListGrowthTooLarge,
}

pub(super) const GO_MAP: &str = "map[string]interface {}";
pub(super) const GO_LIST: &str = "[]interface {}";

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
            StrvalsError::ListGrowthTooLarge => write!(
                f,
                "list indexes would create more than {MAX_LIST_GROWTH} list elements, releasex's limit for all value flags together (Helm has none)"
            ),
        }
    }
}

impl std::error::Error for StrvalsError {}

/// Go's name for the dynamic type of a decoded value, as a failed type
/// assertion prints it.
pub(super) fn go_type(v: &Value) -> &'static str {
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
