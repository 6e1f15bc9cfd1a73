//! Reading a Helm values file exactly as Helm v4.2.3 reads it, keeping the
//! position of every key and scalar.
//!
//! Helm (`loader.LoadValues`) splits the file into documents with
//! apimachinery's `YAMLReader` ([`reader`]), gives each to
//! `sigs.k8s.io/yaml.Unmarshal` — go-yaml v2 (YAML 1.1: `yes`/`on`/`y` are
//! booleans, also as keys; `0777` is octal; `1_000`; [`resolve`]) decoded into
//! `interface{}` (merge keys, aliases, last duplicate wins; [`decode`]), then
//! a JSON round trip (keys become strings, every number a float64) — and
//! merges the documents with `loader.MergeMaps` (a later document wins, maps
//! merge key by key). The YAML syntax comes from saphyr-parser, made to agree
//! with libyaml where they differ ([`parse`]); plain block YAML, most of any
//! values file, is first offered to a line-at-a-time reader that gives the
//! same document several times faster or declines ([`fast`]). Both give the
//! node tree of [`doc`]; [`parse_document`] chooses between them.
//!
//! Positions are 1-based lines and columns, columns counted in characters
//! (a byte-order mark is not counted). A value's position is the first
//! character of its text as written: its anchor or tag if it has one, the
//! quote of a quoted scalar, the `|`/`>` of a block scalar, the `[`/`{` of a
//! flow collection, the first key or `-` of a block collection, the `*` of an
//! alias. Entries that come from an alias or a merge key keep the positions
//! of the anchored text they were copied from.

mod decode;
pub mod emit;
mod doc;
mod encoding;
mod fast;
mod manifest;
mod parallel;
mod parse;
mod reader;
mod resolve;

pub use manifest::plain_manifest_document;
pub use parallel::{Parsed, parse_many};

use std::collections::HashMap;
use std::fmt;


use serde_json::{Map, Number, Value};

use crate::keypath::Path;
use crate::FastHash;
use decode::{PKind, PMap, PNode};
use doc::{Doc, SyntaxError};

/// go-yaml v2's value of one document of plain block YAML (the subset the
/// fast reader takes; see `fast.rs`), given to `f`; `None` when the text is
/// outside that subset (a byte-order mark is) or does not decode. For
/// Chart.yaml and the other chart files, whose reader falls back to its own parser.
pub(crate) fn with_plain_block_document<T>(text: &str, f: impl FnOnce(Option<&DecodedValue<'_>>) -> T) -> Option<T> {
    let doc = fast::parse(text, 0)?;
    let value = decode::decode(&doc).ok()?;
    Some(f(value.as_ref()))
}

pub(crate) use decode::{DKind as DecodedKind, DVal as DecodedValue, GoKey};
pub use decode::{PKind as PositionedKind, PMap as PositionedMap, PNode as PositionedNode};

/// The files under the project's `tests/` whose name `keep` accepts, in
/// name order (the bundled corpus and test data, for whole-corpus tests).
#[cfg(test)]
pub(crate) fn bundled_test_files(keep: impl Fn(&std::path::Path) -> bool) -> Vec<std::path::PathBuf> {
    let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A YAML file by its extension.
#[cfg(test)]
pub(crate) fn is_yaml_file(p: &std::path::Path) -> bool {
    p.extension().is_some_and(|x| x == "yaml" || x == "yml")
}
pub(crate) use resolve::Scalar;

/// A place in a file: 1-based line and column (characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What a [`Note`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    /// A key written `on`, `yes`, `y`, `off`, `no`, `n` (any of their YAML 1.1
    /// spellings) that Helm reads as the key `"true"`/`"false"`.
    KeyReadAsBoolean,
    /// A key that Helm spells differently from the text (`0x1F:` -> `"31"`, `1.50:` -> `"1.5"`).
    KeyNormalized,
    /// A value written `yes`, `on`, `y`, `no`, `off`, `n`, ... read as a boolean.
    ReadAsBoolean,
    /// An integer in base 8, 16 or 2 (`0777`, `0x1F`, `0o17`, `0b101`).
    NumberBase,
    /// A number written with `_` separators.
    NumberUnderscores,
    /// `08`, `09.5`: a leading zero that cannot be octal; read as a decimal float.
    LeadingZero,
    /// An integer beyond 2^53 that the float64 cannot hold exactly.
    PrecisionLoss,
    /// A `!!binary` value, base64-decoded.
    BinaryTag,
    /// A tag Helm does not know; the value stays the text.
    TagIgnored,
    /// A key written twice in one mapping: the last one wins. `shadowed` is the lost key.
    DuplicateKey { shadowed: Pos },
    /// A `<<` merge that replaced a key written before it in the same mapping.
    MergeOverride { overridden: Pos },
    /// Two different keys that become the same string (`1` and `"1"`, `on` and `"true"`):
    /// Helm keeps one of them at random (Go map order); we keep the later one.
    KeyCollision { other: Pos },
    /// A later document of the file replaces a value set by an earlier one.
    DocumentOverride { overridden: Pos },
    /// Text after an explicit `...` document end, which Helm never reads.
    IgnoredAfterDocumentEnd,
    /// Helm 4.2.3 loses an unterminated last line whose length is a multiple
    /// of 4096 bytes (fixed in later Helm); so do we.
    LastLineDropped,
}

/// Something about how Helm reads the file that a user may not expect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub kind: NoteKind,
    pub pos: Pos,
    /// The value path concerned, when there is one.
    pub path: Option<Path>,
    pub message: String,
}

/// A values file as Helm's `loader.LoadValues` returns it, with positions.
#[derive(Debug, Clone, Default)]
pub struct LoadedValues {
    /// The values (all documents merged); every number is a float64.
    pub values: Map<String, Value>,
    /// Every key, nested ones included, and every list element (`[i]`; its key
    /// position is its value position): (key position, value position).
    pub positions: HashMap<Path, (Pos, Pos), FastHash>,
    pub notes: Vec<Note>,
}

/// Why Helm refuses the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// The file as named by the caller (Helm names it as given to `-f`).
    pub source_name: String,
    /// Where the problem is, when known.
    pub pos: Option<Pos>,
    /// Helm's message after `failed to parse <file>: `.
    pub helm_message: String,
    /// Whether `helm_message` is Helm's wording word for word; syntax errors
    /// that libyaml words differently carry saphyr's description.
    pub exact: bool,
}

impl YamlError {
    /// The error as `helm install/template -f FILE` prints it (after `Error: `).
    pub fn helm_error(&self) -> String {
        format!("failed to parse {}: {}", self.source_name, self.helm_message)
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", self.source_name, p.line, p.column, self.helm_message),
            None => write!(f, "{}: {}", self.source_name, self.helm_message),
        }
    }
}

impl std::error::Error for YamlError {}

/// go-yaml v2's `max_indents` and `max_flow_level` (scannerc.go, as
/// sigs.k8s.io/yaml vendors it): a block collection opened past this many
/// indentation levels, or a flow collection past this many flow levels, is
/// the scanner error `exceeded max depth of 10000`. Real Helm 4.1.4: a
/// sequence under a key nested 9,999 deep reads, 10,000 deep fails.
pub(crate) const GO_YAML_MAX_DEPTH: usize = 10_000;

/// go-yaml's message at [`GO_YAML_MAX_DEPTH`].
pub(crate) const GO_YAML_DEPTH_PROBLEM: &str = "exceeded max depth of 10000";

const DOC: &str = "cannot unmarshal yaml document: ";
const TO_JSON: &str = "error converting YAML to JSON: ";
const FROM_JSON: &str = "error unmarshaling JSON: while decoding JSON: ";

/// The bytes of values file `source_name` as the text [`load_values`] reads:
/// UTF-8 as it is; otherwise each document as go-yaml's reader decodes it
/// (UTF-16 after its byte-order mark), or the reader's problem in Helm's
/// words (`yaml: invalid leading UTF-8 octet`, no line: go-yaml gives none).
/// A document before the undecodable one that does not parse fails first,
/// as in Helm, which reads the documents in order.
pub fn values_text(bytes: Vec<u8>, source_name: &str) -> Result<String, YamlError> {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e.into_bytes(),
    };
    let stand_ins = encoding::with_byte_stand_ins(&bytes);
    let split = split_file(&stand_ins, source_name)?;
    let mut documents = Vec::with_capacity(split.chunks.len());
    for chunk in &split.chunks {
        let text = encoding::decode_chunk(&chunk.text).map_err(|problem| YamlError {
            source_name: source_name.to_string(),
            pos: None,
            helm_message: format!("{DOC}{TO_JSON}yaml: {problem}"),
            exact: true,
        })?;
        parse_document_map(&text, chunk.first_line, source_name)?;
        documents.push(text);
    }
    Ok(documents.join("---\n"))
}

/// Reads `text` (the contents of values file `source_name`) as Helm does.
pub fn load_values(text: &str, source_name: &str) -> Result<LoadedValues, YamlError> {
    let (merged, notes) = load_merged(text, source_name)?;
    let mut out = LoadedValues::default();
    let mut values = Map::new();
    for (k, (kpos, node)) in merged {
        let path = Path::root().key(&k);
        values.insert(k, to_json(node, kpos, path, &mut out.positions));
    }
    out.values = values;
    out.notes = notes;
    Ok(out)
}

/// The documents of `text` merged as Helm's `loader.LoadValues` merges them:
/// each top-level key with its key position and positioned value (the notes
/// are left out; `explain` builds its provenance tree from this).
pub fn load_nodes(text: &str, source_name: &str) -> Result<PositionedMap, YamlError> {
    load_merged(text, source_name).map(|(merged, _)| merged)
}

/// The documents of `text` merged as `loader.LoadValues` merges them, and the notes.
fn load_merged(text: &str, source_name: &str) -> Result<(PMap, Vec<Note>), YamlError> {
    let split = split_file(text, source_name)?;
    let docs = split.chunks.iter().map(|c| parse_document_map(&c.text, c.first_line, source_name));
    merge_documents(&split, docs)
}

/// A file's documents as `YAMLReader` hands them to the parser.
fn split_file(text: &str, source_name: &str) -> Result<reader::Split, YamlError> {
    reader::split_documents(text).map_err(|e| YamlError {
        source_name: source_name.to_string(),
        pos: Some(Pos { line: e.line + 1, column: 4 }),
        helm_message: format!("error reading yaml document: invalid Yaml document separator: {}", e.rest),
        exact: true,
    })
}

/// One document's top-level map and the notes made reading it.
struct DocMap {
    map: PMap,
    notes: Vec<Note>,
}

/// The documents of a file, each already read, merged with `loader.MergeMaps`;
/// the first document in error is the file's error, as in Helm.
fn merge_documents(
    split: &reader::Split,
    docs: impl Iterator<Item = Result<DocMap, YamlError>>,
) -> Result<(PMap, Vec<Note>), YamlError> {
    let mut notes: Vec<Note> = Vec::new();
    if let Some(l) = split.dropped_last_line {
        notes.push(Note {
            kind: NoteKind::LastLineDropped,
            pos: Pos { line: l + 1, column: 1 },
            path: None,
            message: "Helm 4.2.3 drops this last line: it has no newline and its length is a multiple of 4096 bytes".into(),
        });
    }
    let mut merged: PMap = PMap::default();
    for doc in docs {
        let doc = doc?;
        notes.extend(doc.notes);
        merge_maps(&mut merged, doc.map, &Path::root(), &mut notes);
    }
    Ok((merged, notes))
}

/// go-yaml's syntax error for the one document `text`, as
/// `sigs.k8s.io/yaml` words it after `error converting YAML to JSON: yaml: `
/// (`line 3: did not find expected node content`), with where it is; `None`
/// when the document parses. For files read without the values reader's
/// document split (Chart.yaml).
pub fn syntax_problem(text: &str) -> Option<(Pos, String)> {
    if let Err(problem) = encoding::printable(text) {
        return Some((Pos { line: 1, column: 1 }, problem.to_string()));
    }
    let e = parse_document(text, 0).err()?;
    // A problem at the end of a file without a final newline is on its last line.
    let lines = text.lines().count().max(1);
    let pos = if e.pos.line > lines {
        Pos { line: lines, column: text.lines().last().map_or(0, |l| l.chars().count()) + 1 }
    } else {
        e.pos
    };
    Some((pos, e.message))
}

/// Parses the first document of `text` (lines from `first_line` of the file).
fn parse_document(text: &str, first_line: usize) -> Result<Doc, SyntaxError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    // Most values files are plain block YAML, which the fast reader takes.
    if let Some(doc) = fast::parse(text, first_line) {
        return Ok(doc);
    }
    parse::parse_document_with_saphyr(text, first_line)
}

/// One document (`text` starts at 0-based line `first_line` of the file) as
/// `sigs.k8s.io/yaml.Unmarshal` into a map reads it.
fn parse_document_map(text: &str, first_line: usize, source_name: &str) -> Result<DocMap, YamlError> {
    let err = |pos: Option<Pos>, helm_message: String, exact: bool| YamlError {
        source_name: source_name.to_string(),
        pos,
        helm_message,
        exact,
    };
    // go-yaml's reader checks every character before the scanner sees it.
    encoding::printable(text).map_err(|problem| err(None, format!("{DOC}{TO_JSON}yaml: {problem}"), true))?;
    let mut notes = Vec::new();
    let doc = parse_document(text, first_line).map_err(|e| err(Some(e.pos), format!("{DOC}{TO_JSON}yaml: {}", e.message), e.exact))?;
    if let Some(p) = doc.ignored_after_end {
        notes.push(Note {
            kind: NoteKind::IgnoredAfterDocumentEnd,
            pos: p,
            path: None,
            message: "Helm ignores everything after this `...` up to the next `---`".into(),
        });
    }
    let dval = decode::decode(&doc).map_err(|f| {
        let stage = if f.in_json { FROM_JSON } else { concat!("error converting YAML to JSON: ", "yaml: ") };
        err(Some(f.pos), format!("{DOC}{stage}{}", f.message), true)
    })?;
    let mut conv = decode::Converter::default();
    let node = match dval {
        None => None,
        Some(v) => Some(conv.convert_root(v).map_err(|f| err(Some(f.pos), format!("{DOC}{TO_JSON}{}", f.message), true))?),
    };
    if conv.non_finite
        && let Some(n) = &node
        && let Some((f, pos)) = decode::first_non_finite(n)
    {
        return Err(err(Some(pos), format!("{DOC}{TO_JSON}json: unsupported value: {}", resolve::go_float_g(f)), true));
    }
    let map = match node {
        None => PMap::default(),
        Some(PNode { kind: PKind::Null, .. }) => PMap::default(),
        Some(PNode { kind: PKind::Map(m), .. }) => m,
        Some(other) => {
            let what = match other.kind {
                PKind::Seq(_) => "array",
                PKind::Str(_) => "string",
                PKind::Num(_) => "number",
                PKind::Bool(_) => "bool",
                PKind::Null | PKind::Map(_) => unreachable!("handled above"),
            };
            return Err(err(
                Some(other.pos),
                format!("{DOC}{FROM_JSON}json: cannot unmarshal {what} into Go value of type map[string]interface {{}}"),
                true,
            ));
        }
    };
    notes.extend(conv.notes.into_iter().map(|n| Note { kind: n.kind, pos: n.pos, path: Some(n.path), message: n.message }));
    Ok(DocMap { map, notes })
}

/// `loader.MergeMaps(a, b)` into `a`: maps merge key by key, anything else in `b` replaces.
fn merge_maps(a: &mut PMap, b: PMap, path: &Path, notes: &mut Vec<Note>) {
    for (k, (kpos, v)) in b {
        if let Some((old_kpos, old)) = a.get_mut(&k) {
            let sub = path.key(&k);
            // Two empty maps merge to an empty map: the later one is its writer,
            // as for any other leaf (helm: pkg/chart/loader MergeMaps replaces
            // unless both are maps; the result is the same, the credit is not).
            let both_empty = matches!((&old.kind, &v.kind), (PKind::Map(a), PKind::Map(b)) if a.is_empty() && b.is_empty());
            if let (PKind::Map(_), PKind::Map(_), false) = (&old.kind, &v.kind, both_empty) {
                let PKind::Map(bm) = v.kind else { unreachable!("a map") };
                if let PKind::Map(am) = &mut old.kind {
                    merge_maps(am, bm, &sub, notes);
                }
                continue;
            }
            notes.push(Note {
                kind: NoteKind::DocumentOverride { overridden: old.pos },
                pos: v.pos,
                path: Some(sub.clone()),
                message: format!("a later document replaces the value set at line {}, column {}", old.pos.line, old.pos.column),
            });
            *old_kpos = kpos;
            *old = v;
        } else {
            a.insert(k, (kpos, v));
        }
    }
}

fn to_json(node: PNode, key_pos: Pos, path: Path, positions: &mut HashMap<Path, (Pos, Pos), FastHash>) -> Value {
    let v = match node.kind {
        PKind::Null => Value::Null,
        PKind::Bool(b) => Value::Bool(b),
        PKind::Num(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        PKind::Str(s) => Value::String(s),
        PKind::Seq(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    let p = item.pos;
                    to_json(item, p, path.index(i), positions)
                })
                .collect(),
        ),
        PKind::Map(m) => {
            let mut out = Map::new();
            for (k, (kpos, v)) in m {
                let sub = path.key(&k);
                out.insert(k, to_json(v, kpos, sub, positions));
            }
            Value::Object(out)
        }
    };
    positions.insert(path, (key_pos, node.pos));
    v
}

#[cfg(test)]
mod tests;
