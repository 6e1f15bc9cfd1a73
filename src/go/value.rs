//! The Go value model that `fmt` ([`super::fmt`]) and `encoding/json`
//! ([`super::json`]) print: one level of a decoded Go value ([`GoShape`]),
//! which each of the crate's value types describes through [`GoValue`]. The
//! printers are written once against it; `serde_json::Value` is described
//! here, the provenance tree and the template values next to their types.

use serde_json::{Number, Value};
use std::convert::Infallible;

/// The Go type a JSON number was decoded into (see [`super::json`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GoNumbers {
    /// `k8s.io/apimachinery/pkg/util/json`: an integer that fits an int64 is
    /// an int64, every other number (fraction, exponent, or an integer out of
    /// the int64 range) a float64.
    #[default]
    Int64OrFloat64,
    /// `encoding/json` into `interface{}`: every number is a float64.
    Float64,
}

/// One level of a Go value.
#[derive(Debug)]
pub enum GoShape<'a, T> {
    /// An `interface{}` holding nil.
    Nil,
    Bool(bool),
    /// An int64 (or `int`).
    Int(i64),
    Float(f64),
    /// A JSON number, an int64 or a float64 as the printer's [`GoNumbers`]
    /// says (always finite).
    Number(&'a Number),
    Str(&'a str),
    /// `[]interface{}`.
    List(&'a [T]),
    /// `map[string]interface{}`, entries in any order: Go prints map keys
    /// sorted.
    Map(Vec<(&'a str, &'a T)>),
    /// `map[string]string`, entries in any order.
    StrMap(Vec<(&'a str, &'a str)>),
}

/// A value type the Go printers can walk.
pub trait GoValue: Sized {
    /// Why a value has no text (a Go type the model leaves out).
    type Error;

    /// The value as `fmt` sees it.
    fn go_shape(&self) -> Result<GoShape<'_, Self>, Self::Error>;

    /// The value as `encoding/json` sees it; the same unless the type holds
    /// pointers, which `json.Marshal` follows and `fmt` prints as addresses.
    fn json_shape(&self) -> Result<GoShape<'_, Self>, Self::Error> {
        self.go_shape()
    }
}

impl GoValue for Value {
    type Error = Infallible;

    fn go_shape(&self) -> Result<GoShape<'_, Value>, Infallible> {
        Ok(match self {
            Value::Null => GoShape::Nil,
            Value::Bool(b) => GoShape::Bool(*b),
            Value::Number(n) => GoShape::Number(n),
            Value::String(s) => GoShape::Str(s),
            Value::Array(items) => GoShape::List(items),
            Value::Object(map) => GoShape::Map(map.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        })
    }
}

/// Map entries in Go's key order (bytewise, like `strings.Compare`; keys of
/// one map are distinct, so an unstable sort is exact).
pub(crate) fn sort_entries<V>(entries: &mut [(&str, V)]) {
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
}

/// The layout every Go printer gives a list or a map: `open`, each element
/// written by `each` with `separator` between them, `close` (fmt's `[a b]`
/// and `map[k:v]`, encoding/json's `[a,b]` and `{"k":v}`).
pub(crate) fn write_joined<I, E>(
    out: &mut String,
    (open, separator, close): (&str, char, char),
    items: impl IntoIterator<Item = I>,
    mut each: impl FnMut(&mut String, I) -> Result<(), E>,
) -> Result<(), E> {
    out.push_str(open);
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(separator);
        }
        each(out, item)?;
    }
    out.push(close);
    Ok(())
}

/// A Go integer type (`%T`, and how `fmt` prints it: a signed type's value
/// is an `i64`, an unsigned one's a `u64`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntType {
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Uintptr,
}

impl IntType {
    /// The type's name as `reflect.Type.String` spells it (`rune` is
    /// `int32`, `byte` is `uint8`).
    pub fn name(self) -> &'static str {
        match self {
            IntType::Int => "int",
            IntType::Int8 => "int8",
            IntType::Int16 => "int16",
            IntType::Int32 => "int32",
            IntType::Int64 => "int64",
            IntType::Uint => "uint",
            IntType::Uint8 => "uint8",
            IntType::Uint16 => "uint16",
            IntType::Uint32 => "uint32",
            IntType::Uint64 => "uint64",
            IntType::Uintptr => "uintptr",
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, IntType::Int | IntType::Int8 | IntType::Int16 | IntType::Int32 | IntType::Int64)
    }
}

/// A Go value with its static type, as `fmt`'s `Sprintf`, `Sprint` and
/// `Sprintln` ([`super::printf`]) see an operand: what `reflect` tells
/// them. One level at a time; an element of a list or map that is itself a
/// value of the caller's type is [`Typed::Of`], looked at when printed.
#[derive(Debug, Clone)]
pub enum Typed<'a, T> {
    /// A nil `interface{}` (at the top, or an element of `[]interface{}`).
    Nil,
    Bool(bool),
    /// An integer of the given type; an unsigned type's value is the bits
    /// of `u64` in the `i64` (`-1` of `Uint64` is `18446744073709551615`).
    Int(IntType, i64),
    /// A float64 (`false`) or float32 (`true`, the value a float32 holds).
    Float(f64, bool),
    Str(std::borrow::Cow<'a, str>),
    /// `[]byte`.
    Bytes(&'a [u8]),
    /// A slice: its Go type (`[]interface {}`, `[]string`) and elements.
    List(std::borrow::Cow<'a, str>, Vec<Typed<'a, T>>),
    /// A map: its Go type (`map[string]interface {}`) and entries in any
    /// order (`fmt` sorts them by key, internal/fmtsort).
    Map(std::borrow::Cow<'a, str>, Vec<(Typed<'a, T>, Typed<'a, T>)>),
    /// A value of a type with a `String()` method (`time.Time`,
    /// `*semver.Version`): its type, `String()`, and `GoString()` if it has
    /// one. `fmt` prints nothing else of it without reflecting on its
    /// fields, which this model leaves out.
    Stringer { go_type: std::borrow::Cow<'a, str>, text: String, go_syntax: Option<String> },
    /// A struct: its Go type and its fields in order (`%v` prints the
    /// values, `%+v` names them, `%#v` both and the type).
    Struct(std::borrow::Cow<'a, str>, Vec<(&'a str, Typed<'a, T>)>),
    /// A pointer (its Go type, `*map[string]interface {}`) to a value:
    /// `fmt` prints `&` and the value at the top of an operand, an address
    /// below it.
    Ptr(std::borrow::Cow<'a, str>, Box<Typed<'a, T>>),
    /// An element that is itself a value of the caller's type.
    Of(&'a T),
}

/// What a Go printer cannot print from the value model (a struct's fields,
/// a pointer's address).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("printing {0} is not supported")]
pub struct Unprintable(pub String);

/// A value type `fmt`'s printers ([`super::printf`]) take operands of.
pub trait GoTyped: Sized {
    /// The value as `fmt` sees it through `reflect`.
    fn go_typed(&self) -> Result<Typed<'_, Self>, Unprintable>;
}

/// JSON as `encoding/json` decodes it into `interface{}`: every number a
/// float64, objects `map[string]interface {}`, arrays `[]interface {}`.
impl GoTyped for Value {
    fn go_typed(&self) -> Result<Typed<'_, Value>, Unprintable> {
        Ok(match self {
            Value::Null => Typed::Nil,
            Value::Bool(b) => Typed::Bool(*b),
            Value::Number(n) => Typed::Float(super::json::go_float64(n), false),
            Value::String(s) => Typed::Str(s.into()),
            Value::Array(items) => Typed::List("[]interface {}".into(), items.iter().map(Typed::Of).collect()),
            Value::Object(map) => Typed::Map("map[string]interface {}".into(), map.iter().map(|(k, v)| (Typed::Str(k.into()), Typed::Of(v))).collect()),
        })
    }
}
