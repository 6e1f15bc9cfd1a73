//! Helm's `toToml` / `mustToToml` (helm: pkg/engine/funcs.go `toTOML`):
//! `github.com/BurntSushi/toml` v1.6.0's `Encoder` (encode.go) with its
//! default two-space indent, ported for the Go values a template holds.
//!
//! The rules reproduced (encode.go): a map's keys whose values are not
//! tables come first, then the tables and arrays of tables, each group in
//! byte order (`eMap`, `sort.Slice` on the key strings); nil values are
//! skipped; a nested table is written `[a.b]` indented two spaces per level
//! past the first (`indentStr`), and its keys with it; a top-level table
//! is preceded by an empty line once something was written (`eTable`,
//! `newline`); a list whose every element is a table is an array of tables
//! (`isTableArray`, `eArrayOfTables`), any other list inline as
//! `[a, b]` (`eArrayOrSliceElement`), maps inside it inline as
//! `{k = v, ...}`; floats are `FormatFloat(f, 'g', -1, 64)` with `.0`
//! added when neither `.` nor `e` is in it (`floatAddDecimal`), `nan` and
//! `inf` with a `-` for a negative sign bit; strings in double quotes with
//! `dblQuotedReplacer`'s escapes; keys bare when every character is
//! `A-Za-z0-9_-` (`Key.maybeQuoted`), else quoted likewise.
//!
//! What it cannot encode is the error Helm's `toToml` prints and
//! `mustToToml` fails with (`errArrayNilElement`, `errNoKey`). Values whose
//! encoding we do not model (`time.Time` and other Go objects, structs)
//! are refused.

use std::collections::HashSet;

use crate::gotmpl::{GoMap, Tv, Val};

/// encode.go `errArrayNilElement`.
const NIL_ELEMENT: &str = "toml: cannot encode array with nil element";
/// encode.go `errNoKey`.
const NO_KEY: &str = "toml: top-level values must be Go maps or structs";

/// Why the encoder stops.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TomlError {
    /// BurntSushi/toml's error (what Helm's `toToml` prints).
    #[error("{0}")]
    Go(String),
    /// A Go panic that is not the encoder's own error: text/template turns
    /// it into the function's error for `toToml` and `mustToToml` alike.
    #[error("{0}")]
    Panic(String),
    /// A value releasex does not encode as Go would.
    #[error("{0}")]
    Unsupported(String),
}

/// `tomlTypeOfGo`'s answer for the values we model (`None`: nil).
#[derive(Debug, Clone, Copy, PartialEq)]
enum TomlType {
    Primitive,
    Array,
    Hash,
    ArrayHash,
}

/// `toml.NewEncoder(b).Encode(v)`: the document, or why there is none.
pub fn to_toml(v: &Tv) -> Result<String, TomlError> {
    if matches!(v.val, Val::Nil) {
        // encode.go `eindirect(reflect.ValueOf(nil))` asks the zero Value for its type.
        return Err(TomlError::Panic("reflect: call of reflect.Value.Type on zero Value".into()));
    }
    let mut enc = Encoder::default();
    enc.encode(&[], v)?;
    Ok(enc.out)
}

#[derive(Default)]
struct Encoder {
    out: String,
    /// encode.go `hasWritten`.
    written: bool,
    /// The maps being written (Go recurses into a map inside itself until the stack overflows).
    inside: HashSet<usize>,
}

fn unsupported(what: &str) -> TomlError {
    TomlError::Unsupported(format!("toToml of {what} (releasex does not model BurntSushi/toml's encoding of it)"))
}

/// A map's entries, and the shared map itself (for the cycle check) where it is one.
type Entries = (Option<GoMap>, Vec<(String, Tv)>);

/// The entries of a map value, with the map's identity for the cycle check.
fn map_entries(v: &Val) -> Option<Entries> {
    match v {
        Val::Map(m) => Some((Some(m.clone()), m.entries())),
        Val::StrMap(m) => Some((None, m.iter().map(|(k, x)| (k.clone(), Tv::str(x))).collect())),
        _ => None,
    }
}

/// encode.go `tomlTypeOfGo` (and `isTableArray`, which looks at every
/// element and fails on a nil one).
fn toml_type(v: &Tv) -> Result<Option<TomlType>, TomlError> {
    Ok(Some(match &v.val {
        Val::Nil => return Ok(None),
        Val::Bool(_) | Val::Int(_) | Val::Int64(_) | Val::Float(_) | Val::Str(_) => TomlType::Primitive,
        Val::Bytes(_) => TomlType::Array,
        Val::List(l) | Val::TypedList(_, l) => {
            if l.is_empty() {
                return Ok(Some(TomlType::Array));
            }
            let mut all_hash = true;
            for x in l {
                match toml_type(x)? {
                    None => return Err(TomlError::Go(NIL_ELEMENT.into())),
                    Some(TomlType::Hash) => {}
                    Some(_) => all_hash = false,
                }
            }
            if all_hash { TomlType::ArrayHash } else { TomlType::Array }
        }
        Val::Map(_) | Val::StrMap(_) => TomlType::Hash,
        Val::Ptr(p) => return toml_type(p),
        Val::Struct(ty, _) => return Err(unsupported(&format!("a struct ({ty})"))),
        Val::Object(o) => return Err(unsupported(&format!("a {}", o.type_name()))),
    }))
}

/// `Key.maybeQuoted`: bare when every character is a bare-key character.
fn maybe_quoted(k: &str) -> String {
    if k.is_empty() {
        return "\"\"".into();
    }
    if k.chars().all(|r| r.is_ascii_alphanumeric() || r == '_' || r == '-') { k.to_string() } else { quoted(k) }
}

/// `Key.String`: the parts, each as `maybeQuoted`, joined by dots.
fn key_string(key: &[String]) -> String {
    key.iter().map(|k| maybe_quoted(k)).collect::<Vec<_>>().join(".")
}

/// `writeQuoted`: `"` + `dblQuotedReplacer` + `"`.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `eElement`'s float: `nan`/`inf` with the sign bit, else `floatAddDecimal(FormatFloat(f, 'g', -1, 64))`.
fn float_text(f: f64) -> String {
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f.is_nan() {
        return format!("{sign}nan");
    }
    if f.is_infinite() {
        return format!("{sign}inf");
    }
    let s = crate::go::fmt::go_float(f);
    if s.contains(['e', '.']) { s } else { s + ".0" }
}

impl Encoder {
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
        self.written = true;
    }

    fn newline(&mut self) {
        if self.written {
            self.write("\n");
        }
    }

    fn indent(key: &[String]) -> String {
        "  ".repeat(key.len().saturating_sub(1))
    }

    /// encode.go `encode`.
    fn encode(&mut self, key: &[String], v: &Tv) -> Result<(), TomlError> {
        match &v.val {
            Val::Nil => Ok(()),
            Val::Bool(_) | Val::Int(_) | Val::Int64(_) | Val::Float(_) | Val::Str(_) | Val::Bytes(_) => self.write_key_value(key, v, false),
            Val::List(l) | Val::TypedList(_, l) => {
                if toml_type(v)? == Some(TomlType::ArrayHash) {
                    self.array_of_tables(key, l)
                } else {
                    self.write_key_value(key, v, false)
                }
            }
            Val::Map(_) | Val::StrMap(_) => self.table(key, v),
            Val::Ptr(p) => self.encode(key, p),
            Val::Struct(..) | Val::Object(_) => toml_type(v).map(|_| ()),
        }
    }

    /// encode.go `writeKeyValue`.
    fn write_key_value(&mut self, key: &[String], v: &Tv, inline: bool) -> Result<(), TomlError> {
        let Some(last) = key.last() else {
            return self.element(v);
        };
        let head = format!("{}{} = ", Self::indent(key), maybe_quoted(last));
        self.write(&head);
        self.element(v)?;
        if !inline {
            self.newline();
        }
        Ok(())
    }

    /// encode.go `eElement`.
    fn element(&mut self, v: &Tv) -> Result<(), TomlError> {
        match &v.val {
            // Every list was classified before it is written (`isTableArray`), which fails first.
            Val::Nil => Err(TomlError::Go(NIL_ELEMENT.into())),
            Val::Str(s) => {
                self.write(&quoted(s));
                Ok(())
            }
            Val::Bool(b) => {
                self.write(if *b { "true" } else { "false" });
                Ok(())
            }
            Val::Int(i) | Val::Int64(i) => {
                self.write(&i.to_string());
                Ok(())
            }
            Val::Float(f) => {
                self.write(&float_text(*f));
                Ok(())
            }
            Val::Bytes(b) => {
                let items: Vec<String> = b.iter().map(u8::to_string).collect();
                self.write(&format!("[{}]", items.join(", ")));
                Ok(())
            }
            Val::List(l) | Val::TypedList(_, l) => {
                self.write("[");
                for (i, x) in l.iter().enumerate() {
                    self.element(x)?;
                    if i != l.len() - 1 {
                        self.write(", ");
                    }
                }
                self.write("]");
                Ok(())
            }
            Val::Map(_) | Val::StrMap(_) => self.map(&[], v, true),
            Val::Ptr(p) => self.element(p),
            Val::Struct(..) | Val::Object(_) => toml_type(v).map(|_| ()),
        }
    }

    /// encode.go `eArrayOfTables`.
    fn array_of_tables(&mut self, key: &[String], l: &[Tv]) -> Result<(), TomlError> {
        if key.is_empty() {
            return Err(TomlError::Go(NO_KEY.into()));
        }
        for x in l {
            self.newline();
            let head = format!("{}[[{}]]", Self::indent(key), key_string(key));
            self.write(&head);
            self.newline();
            self.map(key, x, false)?;
        }
        Ok(())
    }

    /// encode.go `eTable`.
    fn table(&mut self, key: &[String], v: &Tv) -> Result<(), TomlError> {
        if key.len() == 1 {
            self.newline();
        }
        if !key.is_empty() {
            let head = format!("{}[{}]", Self::indent(key), key_string(key));
            self.write(&head);
            self.newline();
        }
        self.map(key, v, false)
    }

    /// encode.go `eMap`: direct keys, then tables, each sorted.
    fn map(&mut self, key: &[String], v: &Tv, inline: bool) -> Result<(), TomlError> {
        let v = match &v.val {
            Val::Ptr(p) => p.as_ref(),
            _ => v,
        };
        let Some((handle, entries)) = map_entries(&v.val) else {
            return Err(unsupported("a table that is not a map"));
        };
        if let Some(m) = &handle
            && !self.inside.insert(m.id())
        {
            return Err(TomlError::Unsupported("toToml of a map that contains itself (Go's encoder recurses into it until the goroutine stack overflows)".into()));
        }
        let (mut direct, mut sub) = (Vec::new(), Vec::new());
        for (k, x) in entries {
            if matches!(toml_type(&x)?, Some(TomlType::Hash | TomlType::ArrayHash)) {
                sub.push((k, x));
            } else {
                direct.push((k, x));
            }
        }
        direct.sort_by(|a, b| a.0.cmp(&b.0));
        sub.sort_by(|a, b| a.0.cmp(&b.0));
        if inline {
            self.write("{");
        }
        let trail = !sub.is_empty();
        self.map_keys(key, &direct, trail, inline)?;
        self.map_keys(key, &sub, false, inline)?;
        if inline {
            self.write("}");
        }
        if let Some(m) = &handle {
            self.inside.remove(&m.id());
        }
        Ok(())
    }

    /// eMap's `writeMapKeys` (a skipped nil still leaves its comma to the one before).
    fn map_keys(&mut self, key: &[String], entries: &[(String, Tv)], trail: bool, inline: bool) -> Result<(), TomlError> {
        for (i, (k, x)) in entries.iter().enumerate() {
            if matches!(x.val, Val::Nil) {
                continue;
            }
            if inline {
                self.write_key_value(std::slice::from_ref(k), x, true)?;
                if trail || i != entries.len() - 1 {
                    self.write(", ");
                }
            } else {
                let mut path = key.to_vec();
                path.push(k.clone());
                self.encode(&path, x)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(entries: Vec<(&str, Tv)>) -> Tv {
        Tv::new(Val::Map(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
    }

    /// What Helm 4.2.3's `toToml` printed for these (checked with the oracle).
    #[test]
    fn encodes_as_burntsushi_toml_does() {
        let inner = m(vec![("b", Tv::new(Val::Nil)), ("a", Tv::new(Val::Int(1)))]);
        let v = m(vec![("k", Tv::new(Val::List(vec![inner, Tv::new(Val::Int(2))]))), ("f", Tv::new(Val::Float(3.0))), ("t", m(vec![("x y", Tv::str("q\"\n\u{7f}"))]))]);
        assert_eq!(to_toml(&v).unwrap(), "f = 3.0\nk = [{a = 1, }, 2]\n\n[t]\n  \"x y\" = \"q\\\"\\n\\u007f\"\n");
        assert_eq!(to_toml(&Tv::new(Val::List(vec![m(vec![])]))), Err(TomlError::Go(NO_KEY.into())));
        assert_eq!(to_toml(&Tv::new(Val::List(vec![Tv::new(Val::Nil)]))), Err(TomlError::Go(NIL_ELEMENT.into())));
        assert_eq!(to_toml(&Tv::new(Val::Float(-0.0))).unwrap(), "-0.0");
        assert_eq!(to_toml(&Tv::new(Val::Float(1e6))).unwrap(), "1e+06");
    }
}
