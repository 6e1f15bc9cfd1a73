//! Chart.yaml, requirements.yaml and the lock files as a YAML tree with
//! positions, read the way Helm reads them: `sigs.k8s.io/yaml` over go-yaml
//! v2 (YAML 1.1 booleans, legacy octal, duplicate keys last-wins, merge
//! keys, only the first document).
//!
//! The tree is typed (null, bool, int, float, string, sequence, mapping) and
//! every node keeps its 1-based line and column, so the Go-JSON-style
//! decoding in `metadata.rs` can point at the offending value.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::go::fmt::yaml_float_key;
use crate::yaml::{DecodedKind, DecodedValue, GoKey, Scalar};
use std::fmt;

/// A YAML value with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub value: Yaml,
    pub line: u64,
    pub column: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Yaml {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Keys already stringified as sigs.k8s.io/yaml does; duplicates removed
    /// (the last one wins).
    Map(Vec<(String, Node)>),
}

impl Yaml {
    /// The JSON kind Go's encoding/json names in type errors.
    pub fn json_kind(&self) -> &'static str {
        match self {
            Yaml::Null => "null",
            Yaml::Bool(_) => "bool",
            Yaml::Int(_) | Yaml::UInt(_) | Yaml::Float(_) => "number",
            Yaml::Str(_) => "string",
            Yaml::Seq(_) => "array",
            Yaml::Map(_) => "object",
        }
    }
}

/// A YAML syntax error with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Parses the first YAML document of `text` (go-yaml v2's `Unmarshal` reads
/// only that one). An empty document is `Null` at 1:1.
pub(crate) fn parse_first_document(text: &str) -> Result<Node, SyntaxError> {
    let doc = first_document(text);
    // Plain block YAML (nearly every Chart.yaml) goes through the values
    // reader, several times cheaper than serde-saphyr; anything else, and
    // every error, comes from serde-saphyr.
    if let Some(node) = parse_plain_block(doc) {
        return Ok(node);
    }
    parse_with_serde_saphyr(doc)
}

/// [`parse_first_document`] through serde-saphyr alone, for `doc` (the first document's text).
fn parse_with_serde_saphyr(doc: &str) -> Result<Node, SyntaxError> {
    let mut options = serde_saphyr::Options::default();
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    options.legacy_octal_numbers = true;
    options.strict_booleans = false;
    options.with_snippet = false;
    options.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::PassThrough;
    match serde_saphyr::from_str_with_options::<Option<Node>>(doc, options) {
        Ok(Some(node)) => Ok(node),
        Ok(None) => Ok(Node {
            value: Yaml::Null,
            line: 1,
            column: 1,
        }),
        Err(e) => {
            // Syntax errors in go-yaml's words, as Helm prints them (helm:
            // pkg/chart/v2/loader/load.go `cannot load Chart.yaml: %w` over sigs.k8s.io/yaml).
            if let Some((pos, problem)) = crate::yaml::syntax_problem(doc) {
                return Err(SyntaxError {
                    line: pos.line as u64,
                    column: pos.column as u64,
                    message: format!("error converting YAML to JSON: yaml: {problem}"),
                });
            }
            let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
            let mut message = e.to_string();
            // The rendered message may repeat the position; keep it short.
            if let Some(first) = message.lines().next() {
                message = first.to_string();
            }
            let suffix = format!(" at line {line}, column {column}");
            if let Some(stripped) = message.strip_suffix(&suffix) {
                message = stripped.to_string();
            }
            Err(SyntaxError {
                line,
                column,
                message,
            })
        }
    }
}

/// `doc` read by the values reader, when it takes it, with the positions
/// serde-saphyr gives (so that both paths report the same places).
fn parse_plain_block(doc: &str) -> Option<Node> {
    let lines: Vec<&str> = doc.split('\n').collect();
    crate::yaml::with_plain_block_document(doc, |v| match v {
        None => Some(Node { value: Yaml::Null, line: 1, column: 1 }),
        Some(v) => from_go_value(v, &lines),
    })
    .flatten()
}

/// go-yaml v2's decoded value as this module's tree; `None` where
/// serde-saphyr should decide (a null key, a block scalar whose text does
/// not start on the next line).
fn from_go_value(v: &DecodedValue<'_>, lines: &[&str]) -> Option<Node> {
    let (mut line, mut column) = (v.pos.line, v.pos.column);
    let value = match &v.kind {
        DecodedKind::Scalar { value, .. } => {
            // serde-saphyr places a block scalar at its text, the values reader at its `|`/`>`.
            let at = lines.get(line - 1).and_then(|l| l.chars().nth(column - 1));
            if matches!(at, Some('|' | '>')) {
                let next = lines.get(line)?;
                let indent = next.len() - next.trim_start_matches(' ').len();
                // Leave an empty one, or one that starts with blank lines, to serde-saphyr.
                if indent == next.len() || matches!(value, Scalar::Str(s) if s.is_empty()) {
                    return None;
                }
                (line, column) = (line + 1, indent + 1);
            }
            match value {
            Scalar::Null => Yaml::Null,
            Scalar::Bool(b) => Yaml::Bool(*b),
            Scalar::Int(i) => Yaml::Int(*i),
            Scalar::Uint(u) => Yaml::UInt(*u),
            Scalar::Float(f) => Yaml::Float(*f),
            Scalar::Str(s) => Yaml::Str(s.clone()),
            }
        }
        DecodedKind::Seq(items) => Yaml::Seq(items.iter().map(|i| from_go_value(i, lines)).collect::<Option<_>>()?),
        DecodedKind::Map(m) => {
            let mut entries: Vec<(String, Node)> = Vec::with_capacity(m.entries.len());
            for e in &m.entries {
                let key = match &e.key {
                    GoKey::Null => return None,
                    GoKey::Bool(b) => b.to_string(),
                    GoKey::Int(i) => i.to_string(),
                    GoKey::Uint(u) => u.to_string(),
                    GoKey::Float(f) => yaml_float_key(*f),
                    GoKey::Str(s) => s.clone(),
                };
                let mut value = from_go_value(&e.value, lines)?;
                // An indentless sequence (`key:` then `- a` in the key's column):
                // serde-saphyr places it at its first entry.
                if let DecodedKind::Seq(items) = &e.value.kind
                    && e.value.pos.line > e.key_pos.line
                    && e.value.pos.column == e.key_pos.column
                {
                    let first = items.first()?.pos;
                    if first.line != e.value.pos.line {
                        // (`-` alone then the entry below: serde-saphyr is at the end of the `-` line)
                        return None;
                    }
                    (value.line, value.column) = (first.line as u64, first.column as u64);
                }
                // Keys that stringify alike: the last value, in the first one's place.
                if let Some(slot) = entries.iter_mut().find(|(k, _)| *k == key) {
                    slot.1 = value;
                } else {
                    entries.push((key, value));
                }
            }
            Yaml::Map(entries)
        }
    };
    Some(Node { value, line: line as u64, column: column as u64 })
}

/// The text of the first document: everything up to the line that ends it
/// (`---` starting a second document, or `...`). Lines after that are never
/// parsed, as go-yaml v2 never reads them.
fn first_document(text: &str) -> &str {
    let mut started = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let marker = |m: &str| {
            bare == m || (bare.starts_with(m) && bare[m.len()..].starts_with([' ', '\t']))
        };
        if !started {
            let t = bare.trim_start();
            let preamble = t.is_empty() || t.starts_with('#') || bare.starts_with('%');
            started = marker("---") || !preamble;
        } else if marker("---") || marker("...") {
            return &text[..offset];
        }
        offset += line.len();
    }
    text
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<Yaml>::deserialize(deserializer)?;
        Ok(Node {
            value: spanned.value,
            line: spanned.referenced.line(),
            column: spanned.referenced.column(),
        })
    }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(YamlVisitor)
    }
}

struct YamlVisitor;

impl<'de> Visitor<'de> for YamlVisitor {
    type Value = Yaml;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Yaml, E> {
        Ok(Yaml::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Yaml, E> {
        Ok(Yaml::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Yaml, E> {
        Ok(i64::try_from(v).map_or(Yaml::UInt(v), Yaml::Int))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Yaml, E> {
        // Beyond 64 bits go-yaml v2 falls back to a float.
        Ok(i64::try_from(v)
            .map(Yaml::Int)
            .or_else(|_| u64::try_from(v).map(Yaml::UInt))
            .unwrap_or(Yaml::Float(v as f64)))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Yaml, E> {
        Ok(u64::try_from(v)
            .map(|u| i64::try_from(u).map_or(Yaml::UInt(u), Yaml::Int))
            .unwrap_or(Yaml::Float(v as f64)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Yaml, E> {
        Ok(Yaml::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Yaml, E> {
        Ok(Yaml::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Yaml, E> {
        Ok(Yaml::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Yaml, E> {
        Ok(Yaml::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_none<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
        Yaml::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Yaml, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Yaml::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Yaml, A::Error> {
        let mut entries: Vec<(String, Node)> = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            let value = map.next_value::<Node>()?;
            let key = match key.0 {
                Some(k) => k,
                None => return Err(de::Error::custom("unsupported map key of type: <nil>")),
            };
            if let Some(slot) = entries.iter_mut().find(|(k, _)| *k == key) {
                slot.1 = value;
            } else {
                entries.push((key, value));
            }
        }
        Ok(Yaml::Map(entries))
    }
}

/// A mapping key stringified as sigs.k8s.io/yaml does: integers in decimal,
/// floats with `strconv.FormatFloat(f, 'g', -1, 32)`, booleans as
/// `true`/`false`. `None` for a null key (an error in Go).
struct Key(Option<String>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Key(match Yaml::deserialize(deserializer)? {
            Yaml::Null => None,
            Yaml::Bool(b) => Some(b.to_string()),
            Yaml::Int(i) => Some(i.to_string()),
            Yaml::UInt(u) => Some(u.to_string()),
            Yaml::Float(f) => Some(yaml_float_key(f)),
            Yaml::Str(s) => Some(s),
            // Go fails on these (a map or slice cannot be a Go map key).
            Yaml::Seq(_) | Yaml::Map(_) => {
                return Err(de::Error::custom("invalid map key: a sequence or mapping"));
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Yaml {
        parse_first_document(text).unwrap().value
    }

    #[test]
    fn keeps_positions_of_values() {
        let node = parse_first_document("a: 1\nb:\n  c: [x, y]\n").unwrap();
        let Yaml::Map(m) = node.value else { panic!() };
        assert_eq!((m[0].1.line, m[0].1.column), (1, 4));
        let Yaml::Map(inner) = &m[1].1.value else {
            panic!()
        };
        assert_eq!((inner[0].1.line, inner[0].1.column), (3, 6));
        let Yaml::Seq(items) = &inner[0].1.value else {
            panic!()
        };
        assert_eq!((items[1].line, items[1].column), (3, 10));
    }

    #[test]
    fn reads_yaml_1_1_scalars_like_go_yaml_v2() {
        assert_eq!(
            parse("a: yes\nb: off\nc: 0777\nd: 0x1F\ne: 1_000\nf: 1.10\ng: ~\nh: 2001-12-14\n"),
            Yaml::Map(vec![
                (
                    "a".into(),
                    Node {
                        value: Yaml::Bool(true),
                        line: 1,
                        column: 4
                    }
                ),
                (
                    "b".into(),
                    Node {
                        value: Yaml::Bool(false),
                        line: 2,
                        column: 4
                    }
                ),
                (
                    "c".into(),
                    Node {
                        value: Yaml::Int(511),
                        line: 3,
                        column: 4
                    }
                ),
                (
                    "d".into(),
                    Node {
                        value: Yaml::Int(31),
                        line: 4,
                        column: 4
                    }
                ),
                (
                    "e".into(),
                    Node {
                        value: Yaml::Int(1000),
                        line: 5,
                        column: 4
                    }
                ),
                (
                    "f".into(),
                    Node {
                        value: Yaml::Float(1.1),
                        line: 6,
                        column: 4
                    }
                ),
                (
                    "g".into(),
                    Node {
                        value: Yaml::Null,
                        line: 7,
                        column: 4
                    }
                ),
                (
                    "h".into(),
                    Node {
                        value: Yaml::Str("2001-12-14".into()),
                        line: 8,
                        column: 4
                    }
                ),
            ])
        );
    }

    #[test]
    fn duplicate_keys_last_wins() {
        let Yaml::Map(m) = parse("a: 1\na: 2\n") else {
            panic!()
        };
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].1.value, Yaml::Int(2));
    }

    #[test]
    fn stringifies_keys_like_sigs_yaml() {
        let Yaml::Map(m) = parse("1: a\n1.5: b\ntrue: c\n") else {
            panic!()
        };
        let keys: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["1", "1.5", "true"]);
    }

    #[test]
    fn reads_only_the_first_document() {
        assert_eq!(first_document("a: 1\n---\nb: [\n"), "a: 1\n");
        assert_eq!(
            first_document("# c\n---\na: 1\n...\nzzz: [\n"),
            "# c\n---\na: 1\n"
        );
        assert_eq!(first_document("--- a\n--- b\n"), "--- a\n");
        assert!(matches!(parse("a: 1\n---\nb: [\n"), Yaml::Map(_)));
    }

    #[test]
    fn empty_document_is_null() {
        assert_eq!(parse(""), Yaml::Null);
        assert_eq!(parse("# only a comment\n"), Yaml::Null);
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let e = parse_first_document("a: 1\nb: [x\n").unwrap_err();
        assert!(e.line >= 2, "{e:?}");
        assert!(!e.message.is_empty());
    }

    /// Where the values reader takes a document, it reads what serde-saphyr
    /// reads: every bundled YAML file, and scalars of every YAML 1.1 kind.
    #[test]
    fn the_values_reader_path_reads_as_serde_saphyr_reads() {
        let compare = |text: &str| -> bool {
            let doc = first_document(text);
            let Some(fast) = parse_plain_block(doc) else { return false };
            let slow = parse_with_serde_saphyr(doc).unwrap_or_else(|e| panic!("serde-saphyr refuses what the values reader took: {e:?}\n{text}"));
            // (Debug text: NaN is not equal to itself.)
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "on:\n{text}");
            true
        };
        let scalars = [
            "yes", "No", "ON", "off", "y", "n", "true", "False", "~", "null", "", "0777", "0o17", "0x1F", "0b101", "1_000", "-12", "+3", "1.10", "1e3",
            "1.5e-7", ".inf", "-.Inf", ".nan", "2001-12-14", "2001-12-14T21:59:43.10-05:00", "9223372036854775807", "9223372036854775808",
            "18446744073709551616", "08", "0.1", "v1.2.3", "\"1.0\"", "'x'", "[a, 1, true]", "[]", "{}", "|\n  a\n  b\n", ">-\n    a\n\n    b\n",
            "|\n\n  after a blank line\n", "|\nnext: 1\n", "|-\n", "-\n  - nested\n", "\n  - indented\n  - list\n", "\n  inner: map\n  other: 1\n",
        ];
        let mut taken = 0;
        for v in scalars {
            taken += usize::from(compare(&format!("k: {v}\nlist:\n- {v}\n")));
        }
        for k in ["1", "1.5", "true", "yes", "0x1F", "1e3", "\"1\"", "2001-12-14", "~"] {
            taken += usize::from(compare(&format!("{k}: a\nb: c\n")));
        }
        taken += usize::from(compare("1: a\n\"1\": b\nc: 1\nc: 2\n"));
        assert!(taken > 40, "the values reader took only {taken} documents");
        let chart_files = crate::yaml::bundled_test_files(|p| {
            p.file_name().is_some_and(|n| ["Chart.yaml", "requirements.yaml", "Chart.lock", "requirements.lock"].iter().any(|c| n == *c))
        });
        let files: usize = chart_files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).map(|text| usize::from(compare(&text))).sum();
        assert!(files > 60, "the values reader took only {files} bundled chart files");
        for name in ["kube-prometheus-stack/Chart.yaml", "kube-prometheus-stack/charts/grafana/Chart.yaml", "prometheus/Chart.yaml"] {
            let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus").join(name)).expect("corpus file");
            assert!(compare(&text), "the values reader should take {name}");
        }
    }

    /// Where the two differ, the values reader is go-yaml v2: a float out of
    /// range stays text (`strconv.ParseFloat` fails), serde-saphyr makes it infinite.
    #[test]
    fn an_out_of_range_float_stays_text_as_in_go() {
        assert_eq!(parse("v: 1e999\n"), Yaml::Map(vec![("v".into(), Node { value: Yaml::Str("1e999".into()), line: 1, column: 4 })]));
    }
}
