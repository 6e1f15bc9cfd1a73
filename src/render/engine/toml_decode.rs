//! Helm's `fromToml` (helm: pkg/engine/funcs.go `fromTOML`):
//! `toml.Unmarshal` of BurntSushi/toml v1.6.0 into a `map[string]any`.
//!
//! Decoding into `any` keeps the parser's own values (decode.go
//! `unifyAnything`): `int64`, `float64`, `string`, `bool`, `[]any` for an
//! array, `map[string]any` for a table and `[]map[string]any` for an array
//! of tables (parse.go `addContext`), and `time.Time` for date-times.
//!
//! This reader takes a strict subset of what BurntSushi/toml accepts
//! (lex.go, parse.go: TOML 1.1 with `\e` and `\xHH` escapes and inline
//! tables over several lines with a trailing comma) and refuses the rest:
//! a document it does not read (where Helm gives `{Error: message}` with
//! the parser's wording, which we do not reproduce), date-times (Helm's
//! `time.Time` values, which we do not model), and key layouts whose
//! acceptance by BurntSushi's looser table bookkeeping we do not follow
//! (a table header over a table made by dotted keys, a key defined twice,
//! a header into an inline table or a static array). Nothing it reads is
//! read differently.

use std::collections::BTreeMap;

use crate::gotmpl::{GoMap, Tv, Val};

/// Why a document is refused (the position and what was found).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct Refusal {
    pub line: usize,
    pub what: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum How {
    /// Made as the parent of a `[a.b]` header: a later `[a]` may define it.
    Implicit,
    Explicit,
    Dotted,
    Inline,
}

#[derive(Debug)]
struct Table {
    entries: BTreeMap<String, Node>,
    how: How,
}

#[derive(Debug)]
enum Node {
    Table(Table),
    Array(Vec<Node>),
    /// `[[a]]`: Go's `[]map[string]any`.
    Tables(Vec<Table>),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Table {
    fn new(how: How) -> Table {
        Table { entries: BTreeMap::new(), how }
    }
}

/// `toml.Unmarshal([]byte(text), &m)` with `m` a `map[string]any`.
pub fn from_toml(text: &str) -> Result<GoMap, Refusal> {
    // parse.go `parse`: a UTF-8 BOM is dropped.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        // lex.go `next`: control characters other than tab and newline, and a `\r` not before `\n`, are errors.
        let lone_cr = c == b'\r' && b.get(i + 1) != Some(&b'\n');
        if (c < 0x20 && c != b'\t' && c != b'\n' && c != b'\r') || c == 0x7f || lone_cr {
            return Err(Refusal { line: line_of(b, i), what: format!("the control character {:?}", c as char) });
        }
    }
    let mut p = Parser { b, i: 0, root: Table::new(How::Explicit), current: Vec::new() };
    p.document()?;
    Ok(table_map(p.root))
}

fn line_of(b: &[u8], i: usize) -> usize {
    b[..i.min(b.len())].iter().filter(|&&c| c == b'\n').count() + 1
}

fn table_map(t: Table) -> GoMap {
    t.entries.into_iter().map(|(k, v)| (k, node_tv(v))).collect()
}

fn node_tv(n: Node) -> Tv {
    Tv::new(match n {
        Node::Table(t) => Val::Map(table_map(t)),
        Node::Array(items) => Val::List(items.into_iter().map(node_tv).collect()),
        Node::Tables(ts) => Val::TypedList("map[string]interface {}", ts.into_iter().map(|t| Tv::new(Val::Map(table_map(t)))).collect()),
        Node::Str(s) => Val::Str(s),
        Node::Int(i) => Val::Int64(i),
        Node::Float(f) => Val::Float(f),
        Node::Bool(b) => Val::Bool(b),
    })
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    root: Table,
    /// The table the last header opened (its path from the root).
    current: Vec<String>,
}

fn is_bare(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl Parser<'_> {
    fn refuse<T>(&self, what: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal { line: line_of(self.b, self.i), what: what.into() })
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn at(&self, s: &str) -> bool {
        self.b[self.i..].starts_with(s.as_bytes())
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// A newline (`\n` or `\r\n`) here, consumed.
    fn newline(&mut self) -> bool {
        if self.at("\n") {
            self.i += 1;
            true
        } else if self.at("\r\n") {
            self.i += 2;
            true
        } else {
            false
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some(b'#') {
            while self.i < self.b.len() && !self.at("\n") && !self.at("\r\n") {
                self.i += 1;
            }
        }
    }

    /// Whitespace, newlines and comments (inside arrays and inline tables).
    fn skip_blank(&mut self) {
        loop {
            self.skip_ws();
            self.skip_comment();
            if !self.newline() {
                return;
            }
        }
    }

    /// lex.go `lexTopEnd`: after an item, only a comment, a newline or the end.
    fn line_end(&mut self) -> Result<(), Refusal> {
        self.skip_ws();
        self.skip_comment();
        if self.i == self.b.len() || self.newline() { Ok(()) } else { self.refuse("text after a value or table header") }
    }

    fn document(&mut self) -> Result<(), Refusal> {
        loop {
            self.skip_ws();
            if self.i == self.b.len() {
                return Ok(());
            }
            if self.newline() {
                continue;
            }
            if self.peek() == Some(b'#') {
                self.skip_comment();
                continue;
            }
            if self.peek() == Some(b'[') {
                self.header()?;
            } else {
                let (key, value) = self.key_value()?;
                let path = self.current.clone();
                let line = line_of(self.b, self.i);
                let table = walk(&mut self.root, &path).ok_or_else(|| Refusal { line, what: "a key in a table releasex cannot reach".into() })?;
                insert_dotted(table, &key, value).map_err(|what| Refusal { line, what })?;
            }
            self.line_end()?;
        }
    }

    /// `[a.b]` or `[[a.b]]`.
    fn header(&mut self) -> Result<(), Refusal> {
        let array = self.at("[[");
        self.i += if array { 2 } else { 1 };
        let key = self.key()?;
        if self.peek() != Some(b']') || (array && !self.at("]]")) {
            return self.refuse("a table header that does not end with ']'");
        }
        self.i += if array { 2 } else { 1 };
        let line = line_of(self.b, self.i);
        let refuse = |what: &str| Refusal { line, what: format!("{what} [{}]", key.join(".")) };
        let (last, parents) = key.split_last().ok_or_else(|| refuse("an empty table header"))?;
        let mut t = &mut self.root;
        for k in parents {
            let node = t.entries.entry(k.clone()).or_insert_with(|| Node::Table(Table::new(How::Implicit)));
            t = match node {
                Node::Table(x) if matches!(x.how, How::Implicit | How::Explicit) => x,
                Node::Tables(ts) => ts.last_mut().ok_or_else(|| refuse("an empty array of tables above"))?,
                _ => return Err(refuse("a table header over a value, an inline table or a table of dotted keys:")),
            };
        }
        match (t.entries.get_mut(last), array) {
            (None, false) => {
                t.entries.insert(last.clone(), Node::Table(Table::new(How::Explicit)));
            }
            (None, true) => {
                t.entries.insert(last.clone(), Node::Tables(vec![Table::new(How::Explicit)]));
            }
            (Some(Node::Table(x)), false) if x.how == How::Implicit => x.how = How::Explicit,
            (Some(Node::Tables(ts)), true) => ts.push(Table::new(How::Explicit)),
            _ => return Err(refuse("a table defined twice, or over a value:")),
        }
        self.current = key;
        Ok(())
    }

    /// `key = value` (the key's parts).
    fn key_value(&mut self) -> Result<(Vec<String>, Node), Refusal> {
        let key = self.key()?;
        if self.peek() != Some(b'=') {
            return self.refuse("a key not followed by '='");
        }
        self.i += 1;
        self.skip_ws();
        let value = self.value()?;
        // parse.go `valueArray` records the array's type under the empty key's
        // parent (`setType` skips an empty key), so `setValue` keeps the
        // tables `valueInlineTable` made there and drops the array's other items.
        if key.last().is_some_and(String::is_empty) && holds_inline_table(&value) {
            return self.refuse("an array with inline tables under the empty key \"\" (BurntSushi/toml keeps only its tables)");
        }
        // The tables `valueInlineTable` makes for an array inside an array go
        // to its parse context (`addContext(p.context, parentIsArray)`), and
        // Helm was seen to drop the inner array's nesting (`k = [[{a = 1},
        // {b = 2}]]` read as `[{a = 1}, {b = 2}]` in some tables): refused.
        if nested_inline_table(&value, 0) {
            return self.refuse("an inline table in an array inside an array (BurntSushi/toml may flatten it)");
        }
        // The same contexts make Helm keep only the tables of an array that
        // mixes inline tables with other items (`k = ["", {a = 1}]` read as
        // `[{a = 1}]`, typed `[]map[string]interface {}`), seen in the
        // differential test at the top level and in arrays of tables: refused.
        if mixed_inline_tables(&value) {
            return self.refuse("an array of inline tables and other items (BurntSushi/toml may keep only the tables)");
        }
        Ok((key, value))
    }

    /// A dotted key: bare parts (`A-Za-z0-9_-`) or quoted ones, whitespace around the dots.
    fn key(&mut self) -> Result<Vec<String>, Refusal> {
        let mut parts = Vec::new();
        loop {
            self.skip_ws();
            let part = match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    self.basic_string()?
                }
                Some(b'\'') => {
                    self.i += 1;
                    self.literal_string()?
                }
                _ => {
                    let start = self.i;
                    while self.peek().is_some_and(is_bare) {
                        self.i += 1;
                    }
                    if start == self.i {
                        return self.refuse("a key that is empty or not bare");
                    }
                    String::from_utf8_lossy(&self.b[start..self.i]).into_owned()
                }
            };
            parts.push(part);
            self.skip_ws();
            if self.peek() != Some(b'.') {
                return Ok(parts);
            }
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Node, Refusal> {
        match self.peek() {
            Some(b'"') if self.at("\"\"\"") => {
                self.i += 3;
                self.multiline_basic().map(Node::Str)
            }
            Some(b'"') => {
                self.i += 1;
                self.basic_string().map(Node::Str)
            }
            Some(b'\'') if self.at("'''") => {
                self.i += 3;
                self.multiline_literal().map(Node::Str)
            }
            Some(b'\'') => {
                self.i += 1;
                self.literal_string().map(Node::Str)
            }
            Some(b'[') => self.array(),
            Some(b'{') => self.inline_table().map(Node::Table),
            Some(b't') if self.word("true") => Ok(Node::Bool(true)),
            Some(b'f') if self.word("false") => Ok(Node::Bool(false)),
            Some(c) if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'i' | b'n') => self.number(),
            _ => self.refuse("a value releasex does not read"),
        }
    }

    /// `true`/`false` not followed by another letter (lex.go `lexBool` reads all letters).
    fn word(&mut self, w: &str) -> bool {
        let end = self.i + w.len();
        let next_is_letter = self.b.get(end).is_some_and(|c| c.is_ascii_alphabetic() || *c >= 0x80);
        if self.at(w) && !next_is_letter {
            self.i = end;
            true
        } else {
            false
        }
    }

    fn array(&mut self) -> Result<Node, Refusal> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            if self.peek() == Some(b']') {
                self.i += 1;
                return Ok(Node::Array(items));
            }
            items.push(self.value()?);
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Node::Array(items));
                }
                _ => return self.refuse("an array item not followed by ',' or ']'"),
            }
        }
    }

    /// `{k = v, ...}` (TOML 1.1: newlines, comments and a trailing comma allowed, lex.go `lexInlineTableValue`).
    fn inline_table(&mut self) -> Result<Table, Refusal> {
        self.i += 1;
        let mut t = Table::new(How::Inline);
        loop {
            self.skip_blank();
            // Here after `{` or after `,`: `}` closes (`{}`, or a trailing comma).
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Ok(t);
            }
            let (key, value) = self.key_value()?;
            let line = line_of(self.b, self.i);
            insert_dotted(&mut t, &key, value).map_err(|what| Refusal { line, what })?;
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(t);
                }
                _ => return self.refuse("an inline table entry not followed by ',' or '}'"),
            }
        }
    }
}

fn holds_inline_table(n: &Node) -> bool {
    match n {
        Node::Array(items) => items.iter().any(|x| matches!(x, Node::Table(_)) || holds_inline_table(x)),
        _ => false,
    }
}

/// Whether an inline table sits in an array at least `2 - depth` arrays deep.
fn nested_inline_table(n: &Node, depth: usize) -> bool {
    match n {
        Node::Array(items) => items.iter().any(|x| nested_inline_table(x, depth + 1)),
        Node::Table(t) => (depth >= 2) || t.entries.values().any(|x| nested_inline_table(x, depth)),
        _ => false,
    }
}

/// Whether an array somewhere in `n` holds both inline tables and other items.
fn mixed_inline_tables(n: &Node) -> bool {
    match n {
        Node::Array(items) => {
            let tables = items.iter().filter(|x| matches!(x, Node::Table(_))).count();
            (tables > 0 && tables < items.len()) || items.iter().any(mixed_inline_tables)
        }
        Node::Table(t) => t.entries.values().any(mixed_inline_tables),
        _ => false,
    }
}

/// The table at `path` from `root` (the last table of an array of tables).
fn walk<'t>(root: &'t mut Table, path: &[String]) -> Option<&'t mut Table> {
    let mut t = root;
    for k in path {
        t = match t.entries.get_mut(k)? {
            Node::Table(x) => x,
            Node::Tables(ts) => ts.last_mut()?,
            _ => return None,
        };
    }
    Some(t)
}

/// `a.b.c = v` into `t`: the parents are tables made by dotted keys (made
/// here when missing), the last key new.
fn insert_dotted(t: &mut Table, key: &[String], value: Node) -> Result<(), String> {
    let Some((last, parents)) = key.split_last() else {
        return Err("an empty key".into());
    };
    let mut t = t;
    for k in parents {
        let node = t.entries.entry(k.clone()).or_insert_with(|| Node::Table(Table::new(How::Dotted)));
        t = match node {
            Node::Table(x) if x.how == How::Dotted => x,
            _ => return Err(format!("the dotted key {} over a value or a table not made by dotted keys", key.join("."))),
        };
    }
    if t.entries.contains_key(last) {
        return Err(format!("the key {} defined twice", key.join(".")));
    }
    t.entries.insert(last.clone(), value);
    Ok(())
}

#[path = "toml_scalars.rs"]
mod scalars;

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<String, Refusal> {
        from_toml(text).map(|m| crate::gotmpl::go_sprint(&Tv::new(Val::Map(m))).unwrap_or_default())
    }

    /// What Helm 4.2.3's `{{ fromToml ... }}` printed for these (checked with the oracle).
    #[test]
    fn reads_values_as_burntsushi_toml_makes_them() {
        assert_eq!(read("a = 1\nb = 1.5\nc = 'x'\n[t]\nd.e = true\n[[arr]]\nn = 1\n[[arr]]\n").unwrap(), "map[a:1 arr:[map[n:1] map[]] b:1.5 c:x t:map[d:map[e:true]]]");
        assert_eq!(read("s = \"\"\"\nq \\\n   r\"\"\"\"\"\nl = '''x'''''\n").unwrap(), "map[l:x'' s:q r\"\"]");
        assert_eq!(read("h = 0xDEAD_beef\no = 0o755\nb = 0b11\nn = -nan\ni = -inf\n").unwrap(), "map[b:3 h:3735928559 i:-Inf n:NaN o:493]");
        let m = from_toml("[[a]]\n").unwrap();
        assert_eq!(crate::gotmpl::go_type_name(&m.get("a").unwrap().val), "[]map[string]interface {}");
        assert!(matches!(m.get("a").unwrap().val, Val::TypedList(..)));
        let i = from_toml("i = 1").unwrap();
        assert!(matches!(i.get("i").unwrap().val, Val::Int64(1)));
    }

    #[test]
    fn refuses_what_it_does_not_read_as_helm_does() {
        for text in [
            "d = 1979-05-27", "t = 07:32:00", "a = 1\na = 2", "a.b = 1\na = 2", "x.y = 1\n[x]", "i = {a = 1}\ni.b = 2", "[t]\n[t]", "n = 01", "n = 1__0", "s = \"\\q\"", "s = \"\\ \"",
            "x = 1 2", "big = 9223372036854775808", "f = 1.", "f = .5", "six = \"\"\"x\"\"\"\"\"\"", "c = \"\u{1}\"", "cr = 1\r", "k = \"\\uD800\"", "[t]]", "= 1", "[[a]]\n[a]", "e = 1e400",
            "\"\" = [{a = 1}]", "k = [[{a = 1}, {b = 2}]]", "k = [1, {a = [[{b = 1}]]}]",
        ] {
            assert!(from_toml(text).is_err(), "{text:?} was read");
        }
    }
}
