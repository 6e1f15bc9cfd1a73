//! Helm's `strvals` parser state machine (`parser.go`, `literal_parser.go`):
//! keys, `.` maps, `[i]` lists, `{a,b}` lists and values, read rune by rune
//! and written into the values accumulated so far.

use serde_json::{Map, Value};

use super::error::{GO_LIST, GO_MAP, go_type};
use super::stack::FileReads;
use super::typed::{atoi, typed_val};
use super::{Assignment, MAX_INDEX, MAX_NESTED_NAME_LEVEL, SetKind, StrvalsError, record};
#[cfg(doc)]
use super::MAX_LIST_GROWTH;
use crate::keypath::Seg;

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

/// Helm's `parser`: reads `src` from `pos`, writing into the map passed
/// down and recording each write in `out`.
pub(super) struct Parser<'s, 'r, 'f> {
    src: &'s str,
    pos: usize,
    kind: SetKind,
    reads: &'r mut FileReads<'f>,
    /// The path of the map or list being written.
    at: Vec<Seg>,
    out: Vec<Assignment>,
    /// How many more list elements indexes may still create (see [`MAX_LIST_GROWTH`]).
    growth_left: usize,
}

impl<'s, 'r, 'f> Parser<'s, 'r, 'f> {
    pub(super) fn new(kind: SetKind, src: &'s str, reads: &'r mut FileReads<'f>) -> Self {
        Parser {
            src,
            pos: 0,
            kind,
            reads,
            at: Vec::new(),
            out: Vec::new(),
            growth_left: 0,
        }
    }

    /// Parses the whole expression into `base`; `growth_left` is how many
    /// list elements its indexes may still create, and is what remains after.
    pub(super) fn run(mut self, base: &mut Map<String, Value>, growth_left: &mut usize) -> Result<Vec<Assignment>, StrvalsError> {
        self.growth_left = *growth_left;
        let r = loop {
            match self.key(base, 0) {
                Ok(()) => {}
                Err(Stop::Eof) => break Ok(std::mem::take(&mut self.out)),
                Err(Stop::Fail(e)) => break Err(e),
            }
        };
        *growth_left = self.growth_left;
        r
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

    /// `setIndex`; the elements it creates count against `growth_left`.
    fn set_index(&mut self, list: &mut Vec<Value>, i: i64, v: Value) -> Result<(), StrvalsError> {
        if i < 0 {
            return Err(StrvalsError::NegativeIndex(i));
        }
        if i > MAX_INDEX {
            return Err(StrvalsError::IndexTooLarge(i));
        }
        let i = i as usize;
        if list.len() <= i {
            let created = i + 1 - list.len();
            if created > self.growth_left {
                return Err(StrvalsError::ListGrowthTooLarge);
            }
            self.growth_left -= created;
            list.resize(i + 1, Value::Null);
        }
        list[i] = v;
        Ok(())
    }

    /// `setIndex` of a value the expression assigns.
    fn set_index_leaf(&mut self, mut list: Vec<Value>, i: i64, v: Value) -> (Vec<Value>, Step) {
        let rec = Value::clone(&v);
        match self.set_index(&mut list, i, v) {
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
                match self.set_index(&mut list, i, Value::Array(inner)) {
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
                            match self.set_index(&mut list, i, v) {
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
