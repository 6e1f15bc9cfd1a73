//! Node tree -> what Helm's `sigs.k8s.io/yaml.Unmarshal` gives for one
//! document: go-yaml v2 decoding into `interface{}` (merge keys, aliases,
//! duplicate keys), then the YAML -> JSON conversion (map keys become
//! strings, numbers become float64).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};

use indexmap::IndexMap;

use super::doc::{Doc, NodeKind};
use super::resolve::{self, Reading, Scalar, go_float_g, go_float_key};
use super::{NoteKind, Pos};
use crate::go::quote::quote as go_quote;
use crate::keypath::{Path, Seg};
use crate::FastHash;

/// A failure with go-yaml's message (after `yaml: `) and where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fail {
    pub message: String,
    pub pos: Pos,
    /// The failure is encoding/json's, in the JSON half of the round trip
    /// (a value nested past its `maxNestingDepth`), not go-yaml's.
    pub in_json: bool,
}

/// A Go `map[interface{}]interface{}` key.
#[derive(Debug, Clone)]
pub(crate) enum GoKey {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

impl PartialEq for GoKey {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (GoKey::Null, GoKey::Null) => true,
            (GoKey::Bool(a), GoKey::Bool(b)) => a == b,
            (GoKey::Int(a), GoKey::Int(b)) => a == b,
            (GoKey::Uint(a), GoKey::Uint(b)) => a == b,
            (GoKey::Float(a), GoKey::Float(b)) => a == b,
            (GoKey::Str(a), GoKey::Str(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for GoKey {}
impl Hash for GoKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            GoKey::Null => {}
            GoKey::Bool(b) => b.hash(h),
            GoKey::Int(i) => i.hash(h),
            GoKey::Uint(u) => u.hash(h),
            GoKey::Float(f) => (if *f == 0.0 { 0.0f64 } else { *f }).to_bits().hash(h),
            GoKey::Str(s) => s.hash(h),
        }
    }
}

/// A decoded value; scalar texts are borrowed from the document's nodes.
#[derive(Debug, Clone)]
pub(crate) struct DVal<'d> {
    pub kind: DKind<'d>,
    pub pos: Pos,
}

#[derive(Debug, Clone)]
pub(crate) enum DKind<'d> {
    Scalar { value: Scalar, reading: Reading, text: &'d str },
    Seq(Vec<DVal<'d>>),
    Map(DMap<'d>),
}

/// How an entry got into its map, for notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Explicit,
    /// Through a `<<` merge key at this position.
    Merge(Pos),
}

#[derive(Debug, Clone)]
pub(crate) struct DEntry<'d> {
    pub key: GoKey,
    pub key_text: &'d str,
    pub key_reading: Reading,
    pub key_pos: Pos,
    pub value: DVal<'d>,
    pub origin: Origin,
    /// Entries this one replaced in the same mapping: (key position, how).
    pub replaced: Vec<(Pos, Origin)>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct DMap<'d> {
    pub entries: Vec<DEntry<'d>>,
    /// Key hash -> an entry with that hash (keys are not copied; a hash
    /// shared by two keys falls back to a scan).
    index: HashMap<u64, usize, FastHash>,
}

/// Maps up to this many entries are searched by scanning (most mappings of
/// a values file are small: hashing every key would cost more).
const SCANNED: usize = 8;

impl<'d> DMap<'d> {
    fn set(&mut self, e: DEntry<'d>) {
        if self.entries.len() < SCANNED {
            match self.entries.iter().position(|x| x.key == e.key) {
                Some(i) => self.replace(i, e),
                None => {
                    self.entries.push(e);
                    if self.entries.len() == SCANNED {
                        // From now on found through the index: every entry goes in.
                        for (i, x) in self.entries.iter().enumerate() {
                            let hash = self.index.hasher().hash_one(&x.key);
                            self.index.entry(hash).or_insert(i);
                        }
                    }
                }
            }
            return;
        }
        let hash = self.index.hasher().hash_one(&e.key);
        let found = match self.index.get(&hash) {
            Some(&i) if self.entries[i].key == e.key => Some(i),
            Some(_) => self.entries.iter().position(|x| x.key == e.key),
            None => None,
        };
        if let Some(i) = found {
            self.replace(i, e);
        } else {
            self.index.entry(hash).or_insert(self.entries.len());
            self.entries.push(e);
        }
    }

    /// Entry `i` replaced by `e`, which remembers what it replaced.
    fn replace(&mut self, i: usize, mut e: DEntry<'d>) {
        let old = &mut self.entries[i];
        let mut replaced = std::mem::take(&mut old.replaced);
        replaced.push((old.key_pos, old.origin));
        e.replaced = replaced;
        *old = e;
    }
}

struct Decoder<'d> {
    doc: &'d Doc,
    active_aliases: HashSet<usize>,
    decode_count: u64,
    alias_count: u64,
    alias_depth: u32,
    /// Collections open around the value being decoded (the root is at 1).
    depth: usize,
}

fn allowed_alias_ratio(decode_count: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    if decode_count <= LOW {
        0.99
    } else if decode_count >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decode_count - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

const MERGE_TAG: &str = "tag:yaml.org,2002:merge";

impl<'d> Decoder<'d> {
    fn fail<T>(&self, message: impl Into<String>, pos: Pos) -> Result<T, Fail> {
        Err(Fail { message: message.into(), pos, in_json: false })
    }

    /// One collection level deeper; past encoding/json's `maxNestingDepth`
    /// the JSON half of sigs.k8s.io/yaml's round trip would refuse the value
    /// (`open` is the `[` or `{` it stops at). Checked while decoding, so that
    /// aliases cannot nest the recursion deeper than the limit.
    fn enter(&mut self, open: char, pos: Pos) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > crate::go::json_decode::MAX_DEPTH {
            return Err(Fail { message: format!("invalid character '{open}' exceeded max depth"), pos, in_json: true });
        }
        Ok(())
    }

    fn count(&mut self, pos: Pos) -> Result<(), Fail> {
        self.decode_count += 1;
        if self.alias_depth > 0 {
            self.alias_count += 1;
        }
        if self.alias_count > 100
            && self.decode_count > 1000
            && self.alias_count as f64 / self.decode_count as f64 > allowed_alias_ratio(self.decode_count)
        {
            return self.fail("document contains excessive aliasing", pos);
        }
        Ok(())
    }

    fn unmarshal(&mut self, id: usize) -> Result<DVal<'d>, Fail> {
        let doc = self.doc;
        let node = &doc.nodes[id];
        self.count(node.pos)?;
        match &node.kind {
            NodeKind::Alias { target, name } => {
                if self.active_aliases.contains(&id) {
                    return self.fail(format!("anchor '{name}' value contains itself"), node.pos);
                }
                self.active_aliases.insert(id);
                self.alias_depth += 1;
                let r = self.unmarshal(*target);
                self.alias_depth -= 1;
                self.active_aliases.remove(&id);
                let mut v = r?;
                v.pos = node.pos;
                Ok(v)
            }
            NodeKind::Scalar { text, tag, plain } => match resolve::resolve_node(text, tag.as_deref(), *plain) {
                Ok(r) => Ok(DVal { kind: DKind::Scalar { value: r.value, reading: r.reading, text }, pos: node.pos }),
                Err(m) => self.fail(m, node.pos),
            },
            NodeKind::Seq(items) => {
                self.enter('[', node.pos)?;
                let mut out = Vec::with_capacity(items.len());
                for &c in items {
                    out.push(self.unmarshal(c)?);
                }
                self.depth -= 1;
                Ok(DVal { kind: DKind::Seq(out), pos: node.pos })
            }
            NodeKind::Map(pairs) => {
                self.enter('{', node.pos)?;
                let mut m = DMap { entries: Vec::with_capacity(pairs.len()), index: HashMap::default() };
                self.mapping_into(id, &mut m, Origin::Explicit)?;
                self.depth -= 1;
                Ok(DVal { kind: DKind::Map(m), pos: node.pos })
            }
        }
    }

    fn is_merge(&self, id: usize) -> bool {
        match &self.doc.nodes[id].kind {
            NodeKind::Scalar { text, tag, plain } => {
                text == "<<" && ((tag.is_none() && *plain) || tag.as_deref() == Some("!") || tag.as_deref() == Some(MERGE_TAG))
            }
            _ => false,
        }
    }

    /// Decodes mapping node `id` into `out` (go-yaml v2 `d.mapping` into an existing map).
    fn mapping_into(&mut self, id: usize, out: &mut DMap<'d>, origin: Origin) -> Result<(), Fail> {
        let doc = self.doc;
        let NodeKind::Map(pairs) = &doc.nodes[id].kind else { unreachable!("a mapping") };
        for &(k, v) in pairs {
            if self.is_merge(k) {
                self.merge(v, out, self.doc.nodes[k].pos)?;
                continue;
            }
            let kd = self.unmarshal(k)?;
            let key_pos = kd.pos;
            let (key, key_text, key_reading) = match kd.kind {
                DKind::Scalar { value, reading, text } => (
                    match value {
                        Scalar::Null => GoKey::Null,
                        Scalar::Bool(b) => GoKey::Bool(b),
                        Scalar::Int(i) => GoKey::Int(i),
                        Scalar::Uint(u) => GoKey::Uint(u),
                        Scalar::Float(f) => GoKey::Float(f),
                        Scalar::Str(s) => GoKey::Str(s),
                    },
                    text,
                    reading,
                ),
                kind => return self.fail(format!("invalid map key: {}", go_syntax(&DVal { kind, pos: key_pos }, true)), key_pos),
            };
            let value = self.unmarshal(v)?;
            out.set(DEntry { key, key_text, key_reading, key_pos, value, origin, replaced: Vec::new() });
        }
        Ok(())
    }

    fn merge(&mut self, id: usize, out: &mut DMap<'d>, at: Pos) -> Result<(), Fail> {
        let want_map = "map merge requires map or sequence of maps as the value";
        let node = &self.doc.nodes[id];
        match &node.kind {
            NodeKind::Map(_) => {
                self.count(node.pos)?;
                self.mapping_into(id, out, Origin::Merge(at))
            }
            NodeKind::Alias { target, .. } => {
                if !matches!(self.doc.nodes[*target].kind, NodeKind::Map(_)) {
                    return self.fail(want_map, node.pos);
                }
                self.merge_alias(id, out, at)
            }
            NodeKind::Seq(items) => {
                for &c in items.iter().rev() {
                    match &self.doc.nodes[c].kind {
                        NodeKind::Alias { target, .. } => {
                            if !matches!(self.doc.nodes[*target].kind, NodeKind::Map(_)) {
                                return self.fail(want_map, self.doc.nodes[c].pos);
                            }
                            self.merge_alias(c, out, at)?;
                        }
                        NodeKind::Map(_) => {
                            self.count(self.doc.nodes[c].pos)?;
                            self.mapping_into(c, out, Origin::Merge(at))?;
                        }
                        _ => return self.fail(want_map, self.doc.nodes[c].pos),
                    }
                }
                Ok(())
            }
            NodeKind::Scalar { .. } => self.fail(want_map, node.pos),
        }
    }

    fn merge_alias(&mut self, id: usize, out: &mut DMap<'d>, at: Pos) -> Result<(), Fail> {
        let node = &self.doc.nodes[id];
        self.count(node.pos)?;
        let NodeKind::Alias { target, name } = &node.kind else { unreachable!("an alias") };
        if self.active_aliases.contains(&id) {
            return self.fail(format!("anchor '{name}' value contains itself"), node.pos);
        }
        self.active_aliases.insert(id);
        self.alias_depth += 1;
        let target = *target;
        let r = self.count(self.doc.nodes[target].pos).and_then(|_| self.mapping_into(target, out, Origin::Merge(at)));
        self.alias_depth -= 1;
        self.active_aliases.remove(&id);
        r
    }
}

/// Decodes the document's root (go-yaml v2 into `interface{}`); `None` for an empty document.
pub(crate) fn decode(doc: &Doc) -> Result<Option<DVal<'_>>, Fail> {
    let Some(root) = doc.root else { return Ok(None) };
    // The document node itself counts as one decode.
    let mut d = Decoder { doc, active_aliases: HashSet::new(), decode_count: 1, alias_count: 0, alias_depth: 0, depth: 0 };
    d.unmarshal(root).map(Some)
}

/// Go's `%#v` of a decoded value (`top`: not inside a collection, where a
/// nil prints as `<nil>`).
pub(crate) fn go_syntax(v: &DVal, top: bool) -> String {
    match &v.kind {
        DKind::Scalar { value, .. } => match value {
            Scalar::Null => if top { "<nil>".into() } else { "interface {}(nil)".into() },
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Uint(u) => format!("{u:#x}"),
            Scalar::Float(f) => go_float_g(*f),
            Scalar::Str(s) => go_quote(s),
        },
        DKind::Seq(items) => {
            let inner: Vec<String> = items.iter().map(|i| go_syntax(i, false)).collect();
            format!("[]interface {{}}{{{}}}", inner.join(", "))
        }
        DKind::Map(m) => {
            let mut kv: Vec<(String, String)> = m
                .entries
                .iter()
                .map(|e| {
                    let k = match &e.key {
                        GoKey::Null => "interface {}(nil)".to_string(),
                        GoKey::Bool(b) => b.to_string(),
                        GoKey::Int(i) => i.to_string(),
                        GoKey::Uint(u) => format!("{u:#x}"),
                        GoKey::Float(f) => go_float_g(*f),
                        GoKey::Str(s) => go_quote(s),
                    };
                    (k, go_syntax(&e.value, false))
                })
                .collect();
            kv.sort();
            let inner: Vec<String> = kv.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
            format!("map[interface {{}}]interface {{}}{{{}}}", inner.join(", "))
        }
    }
}

/// A value after the JSON round trip, with positions.
#[derive(Debug, Clone, PartialEq)]
pub struct PNode {
    pub kind: PKind,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PKind {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Seq(Vec<PNode>),
    /// key -> (key position, value)
    Map(PMap),
}

/// A mapping after the JSON round trip: key -> (key position, value).
pub type PMap = IndexMap<String, (Pos, PNode), FastHash>;

/// A note found while converting, with the path it concerns.
#[derive(Debug, Clone)]
pub(crate) struct RawNote {
    pub kind: NoteKind,
    pub pos: Pos,
    pub path: Path,
    pub message: String,
}

fn reading_note(reading: Reading, text: &str, value: &Scalar) -> Option<(NoteKind, String)> {
    // Most scalars read as written and get no note: nothing is formatted for them.
    if matches!(reading, Reading::Plain | Reading::Timestamp) {
        return None;
    }
    let shown = match value {
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Uint(u) => u.to_string(),
        Scalar::Float(f) => go_float_g(*f),
        Scalar::Str(s) => format!("{s:?}"),
        Scalar::Null => "null".into(),
    };
    Some(match reading {
        Reading::Yaml11Bool => (NoteKind::ReadAsBoolean, format!("`{text}` is read as the boolean {shown} (YAML 1.1); quote it to keep the text")),
        Reading::Radix(8) => (NoteKind::NumberBase, format!("`{text}` is an octal number: {shown}")),
        Reading::Radix(16) => (NoteKind::NumberBase, format!("`{text}` is a hexadecimal number: {shown}")),
        Reading::Radix(_) => (NoteKind::NumberBase, format!("`{text}` is a binary number: {shown}")),
        Reading::Underscores => (NoteKind::NumberUnderscores, format!("`{text}` is the number {shown} (underscores are dropped)")),
        Reading::LeadingZeroDecimal => (NoteKind::LeadingZero, format!("`{text}` is not octal (it has an 8 or 9) and is read as the number {shown}")),
        Reading::Binary => (NoteKind::BinaryTag, format!("!!binary `{text}` is decoded from base64")),
        Reading::CustomTag => (NoteKind::TagIgnored, format!("the tag on `{text}` is ignored; the value is the text")),
        Reading::Plain | Reading::Timestamp => return None,
    })
}

#[derive(Default)]
pub(crate) struct Converter {
    pub notes: Vec<RawNote>,
    /// A NaN or an infinity was met (JSON cannot hold them; see [`first_non_finite`]).
    pub non_finite: bool,
    /// Where the conversion is; a [`Path`] is made of it only for a note.
    at: Vec<Seg>,
}

impl Converter {
    fn note(&mut self, kind: NoteKind, pos: Pos, message: String) {
        self.notes.push(RawNote { kind, pos, path: Path(self.at.clone()), message });
    }

    /// sigs.k8s.io/yaml's `convertToJSONableObject` plus the float64 typing of
    /// the JSON round trip, for the document's root. The error is the conversion's message.
    pub(crate) fn convert_root(&mut self, v: DVal<'_>) -> Result<PNode, Fail> {
        self.at.clear();
        self.convert(v)
    }

    fn convert(&mut self, v: DVal<'_>) -> Result<PNode, Fail> {
        let kind = match v.kind {
            DKind::Scalar { value, reading, text } => {
                if let Some((kind, msg)) = reading_note(reading, text, &value) {
                    self.note(kind, v.pos, msg);
                }
                match value {
                    Scalar::Null => PKind::Null,
                    Scalar::Bool(b) => PKind::Bool(b),
                    Scalar::Int(i) => {
                        let f = i as f64;
                        if f as i128 != i as i128 {
                            self.note(NoteKind::PrecisionLoss, v.pos, format!("`{text}` is above 2^53 and becomes {} as a float64", go_float_g(f)));
                        }
                        PKind::Num(f)
                    }
                    Scalar::Uint(u) => {
                        let f = u as f64;
                        if f as u128 != u as u128 {
                            self.note(NoteKind::PrecisionLoss, v.pos, format!("`{text}` is above 2^53 and becomes {} as a float64", go_float_g(f)));
                        }
                        PKind::Num(f)
                    }
                    Scalar::Float(f) => {
                        self.non_finite |= !f.is_finite();
                        PKind::Num(f)
                    }
                    Scalar::Str(s) => PKind::Str(s),
                }
            }
            DKind::Seq(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    self.at.push(Seg::Index(i));
                    out.push(self.convert(item)?);
                    self.at.pop();
                }
                PKind::Seq(out)
            }
            DKind::Map(m) => {
                let mut out = PMap::with_capacity_and_hasher(m.entries.len(), FastHash::default());
                // Per key of `out`, the text and position of the entry that last wrote it (for collisions).
                let mut written_by: Vec<(&str, Pos)> = Vec::with_capacity(m.entries.len());
                for e in m.entries {
                    // What the key was read as, for the note when its text changes (strings keep theirs).
                    let read_as = match &e.key {
                        GoKey::Bool(_) if e.key_reading == Reading::Yaml11Bool => Some(None),
                        GoKey::Str(_) => None,
                        other => Some(Some(go_kind(other))),
                    };
                    let ks = match e.key {
                        GoKey::Str(s) => s,
                        GoKey::Int(i) => i.to_string(),
                        GoKey::Float(f) => go_float_key(f),
                        GoKey::Bool(b) => b.to_string(),
                        GoKey::Null => {
                            return Err(Fail {
                                message: format!("unsupported map key of type: %!s(<nil>), key: <nil>, value: {}", go_syntax(&e.value, true)),
                                pos: e.key_pos,
                                in_json: false,
                            });
                        }
                        GoKey::Uint(u) => {
                            return Err(Fail {
                                message: format!("unsupported map key of type: uint64, key: {u:#x}, value: {}", go_syntax(&e.value, true)),
                                pos: e.key_pos,
                                in_json: false,
                            });
                        }
                    };
                    // Notes about the key itself, written while `ks` is still at hand.
                    let mut key_notes: Vec<(NoteKind, Pos, String)> = Vec::new();
                    if ks != e.key_text
                        && let Some(kind) = read_as
                    {
                        key_notes.push(match kind {
                            None => (NoteKind::KeyReadAsBoolean, e.key_pos, format!("the key `{}` is read as a boolean and becomes \"{ks}\"; quote it to keep the text", e.key_text)),
                            Some(kind) => (NoteKind::KeyNormalized, e.key_pos, format!("the key `{}` is read as a {kind} and becomes \"{ks}\"", e.key_text)),
                        });
                    }
                    for (old, how) in &e.replaced {
                        match (how, e.origin) {
                            (Origin::Explicit, Origin::Explicit) => key_notes.push((
                                NoteKind::DuplicateKey { shadowed: *old },
                                e.key_pos,
                                format!("duplicate key \"{ks}\": this one wins over the one at line {}, column {}", old.line, old.column),
                            )),
                            (Origin::Explicit, Origin::Merge(at)) => key_notes.push((
                                NoteKind::MergeOverride { overridden: *old },
                                at,
                                format!("the merge `<<` replaces \"{ks}\" set before it at line {}, column {} (go-yaml v2 applies merges in order)", old.line, old.column),
                            )),
                            _ => {}
                        }
                    }
                    // The key sits on the path while its notes are made and its value
                    // converts, then goes into `out`.
                    self.at.push(Seg::Key(ks));
                    for (kind, pos, msg) in key_notes {
                        self.note(kind, pos, msg);
                    }
                    let node = self.convert(e.value)?;
                    let Some(Seg::Key(ks)) = self.at.pop() else { unreachable!("the key pushed above") };
                    let (i, previous) = out.insert_full(ks, (e.key_pos, node));
                    match previous {
                        Some(_) => {
                            let (other_text, other_pos) = written_by[i];
                            let ks = out.get_index(i).map_or("", |(k, _)| k.as_str()).to_string();
                            self.at.push(Seg::Key(ks.clone()));
                            self.note(
                                NoteKind::KeyCollision { other: other_pos },
                                e.key_pos,
                                format!(
                                    "the keys `{other_text}` (line {}, column {}) and `{}` both become \"{ks}\"; Helm keeps one of them at random",
                                    other_pos.line, other_pos.column, e.key_text
                                ),
                            );
                            self.at.pop();
                            written_by[i] = (e.key_text, e.key_pos);
                        }
                        None => written_by.push((e.key_text, e.key_pos)),
                    }
                }
                PKind::Map(out)
            }
        };
        Ok(PNode { kind, pos: v.pos })
    }
}

fn go_kind(k: &GoKey) -> &'static str {
    match k {
        GoKey::Null => "null",
        GoKey::Bool(_) => "boolean",
        GoKey::Int(_) | GoKey::Uint(_) => "number",
        GoKey::Float(_) => "float",
        GoKey::Str(_) => "string",
    }
}

/// `encoding/json.Marshal`'s refusal of NaN and infinities, met in its
/// order (map keys sorted).
pub(crate) fn first_non_finite(n: &PNode) -> Option<(f64, Pos)> {
    match &n.kind {
        PKind::Num(f) if !f.is_finite() => Some((*f, n.pos)),
        PKind::Seq(items) => items.iter().find_map(first_non_finite),
        PKind::Map(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            keys.into_iter().find_map(|k| first_non_finite(&m[k].1))
        }
        _ => None,
    }
}
