//! The user-supplied values as Helm's CLI builds them (`values.Options.MergeValues`):
//! every `-f` file in order, then `--set-json`, `--set`, `--set-string`,
//! `--set-file`, `--set-literal` (by kind, not by position), each parsed
//! into the values accumulated so far, with the origin of every node and
//! what each later source overrode.
//! helm: pkg/cli/values/options.go MergeValues

use serde_json::{Map, Value};

use std::collections::HashMap;

use crate::keypath::{Path, Seg};
use super::strvals::{self, FlagError, SetKind};
use super::tree::{EventKind, Kind, Origin, Recorder, Source, V, VMap, get, map_to_json};
use crate::yaml::YamlError;

/// One values file already read: its name as the user gave it and its text.
#[derive(Debug, Clone)]
pub struct ValuesFile {
    pub name: String,
    pub text: String,
}

/// The value flags in the order given, per kind.
#[derive(Debug, Clone, Default)]
pub struct ValueFlags {
    pub files: Vec<ValuesFile>,
    pub set_json: Vec<String>,
    pub set: Vec<String>,
    pub set_string: Vec<String>,
    pub set_file: Vec<String>,
    pub set_literal: Vec<String>,
}

impl ValueFlags {
    fn of_kind(&self, kind: SetKind) -> &[String] {
        match kind {
            SetKind::Json => &self.set_json,
            SetKind::Set => &self.set,
            SetKind::String => &self.set_string,
            SetKind::File => &self.set_file,
            SetKind::Literal => &self.set_literal,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && SetKind::HELM_ORDER.iter().all(|k| self.of_kind(*k).is_empty())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum UserValuesError {
    #[error("{}", .0.helm_error())]
    File(YamlError),
    #[error("{0}")]
    Flag(FlagError),
}

/// Builds the user values; Helm's parse errors come back word for word.
pub fn user_values(
    flags: &ValueFlags,
    read_file: &mut dyn FnMut(&str) -> Result<String, String>,
    rec: &mut Recorder,
) -> Result<VMap, UserValuesError> {
    let mut tree = VMap::default();
    for f in &flags.files {
        let name: crate::values::tree::Name = f.name.as_str().into();
        let layer = crate::values::tree::load_tree(&f.text, &f.name, &|_, pos| Source::ValuesFile {
            file: name.clone(),
            line: Some(pos.line),
            column: Some(pos.column),
        })
        .map_err(UserValuesError::File)?;
        merge_maps(&mut tree, layer, &Path::root(), rec);
    }
    let mut growth_left = strvals::MAX_LIST_GROWTH;
    for kind in SetKind::HELM_ORDER {
        for (index, expr) in flags.of_kind(kind).iter().enumerate() {
            let origin = Origin::new(Source::SetFlag { flag: kind.flag().to_string(), index, expr: expr.clone() });
            let mut plain = map_to_json(&tree);
            let assignments = strvals::apply_flag_within(kind, expr, &mut plain, read_file, &mut growth_left).map_err(UserValuesError::Flag)?;
            // A list is one value (one entry): a flag that writes into a list
            // becomes the writer of the whole list, and the list before it is
            // what it overrode (`-f` gave `ports: [a, b]`, `--set ports[1]=c`).
            let mut written: Vec<Path> = assignments.into_iter().map(|a| up_to_first_list(a.path)).collect();
            written.dedup();
            for p in &written {
                if let Some(old) = get(&tree, p) {
                    rec.lost(p.clone(), old.clone(), EventKind::Overridden, Some(origin.clone()));
                }
            }
            tree = reattribute(&plain, &tree, &written, &origin);
        }
    }
    Ok(tree)
}

/// `path` cut before its first list index (`a.b[1].c` -> `a.b`).
fn up_to_first_list(path: Path) -> Path {
    match path.0.iter().position(|s| matches!(s, Seg::Index(_))) {
        Some(i) => Path(path.0[..i].to_vec()),
        None => path,
    }
}

/// `loader.MergeMaps(dst, src)` on trees: maps merge, anything else from
/// `src` (null included) replaces; nothing is deleted.
pub fn merge_maps(dst: &mut VMap, src: VMap, at: &Path, rec: &mut Recorder) {
    for (k, v) in src {
        let here = at.key(&k);
        match (dst.get_mut(&k), v) {
            // Two empty maps: the later one is the writer, as for any other leaf.
            (Some(V { kind: Kind::Map(dm), .. }), V { kind: Kind::Map(sm), .. }) if !(dm.is_empty() && sm.is_empty()) => {
                merge_maps(dm, sm, &here, rec)
            }
            (Some(old), v) => {
                let by = v.origin.clone();
                let old = std::mem::replace(old, v);
                rec.lost(here, old, EventKind::Overridden, Some(by));
            }
            (None, v) => {
                dst.insert(k, v);
            }
        }
    }
}


/// The tree for `plain` (the values after a flag), keeping each node's old
/// origin unless the flag wrote at or above it.
///
/// One walk of `plain` beside `old` and a trie of `written`: work and memory
/// in proportion to the tree and the written paths, whatever their depth (a
/// path per node, or a scan of `written` per node, made `--set a[0][0]...`
/// and wide expressions quadratic).
pub(crate) fn reattribute(plain: &Map<String, Value>, old: &VMap, written: &[Path], origin: &Origin) -> VMap {
    let trie = WrittenTrie::of(written);
    plain
        .iter()
        .map(|(k, v)| {
            let at = trie.key_child(WrittenTrie::ROOT, k);
            (k.clone(), node(v, old.get(k), at, trie.ends(WrittenTrie::ROOT), &trie, origin))
        })
        .collect()
}

/// The written paths as a trie in one arena (flat, so neither building nor
/// dropping it recurses, however deep a path).
struct WrittenTrie {
    nodes: Vec<TrieNode>,
}

#[derive(Default)]
struct TrieNode {
    /// Whether a written path ends here.
    ends: bool,
    keys: HashMap<String, usize>,
    indexes: HashMap<usize, usize>,
}

impl WrittenTrie {
    const ROOT: Option<usize> = Some(0);

    fn of(written: &[Path]) -> WrittenTrie {
        let mut nodes = vec![TrieNode::default()];
        for path in written {
            let mut at = 0;
            for seg in &path.0 {
                let fresh = nodes.len();
                let child = match seg {
                    Seg::Key(k) => *nodes[at].keys.entry(k.clone()).or_insert(fresh),
                    Seg::Index(i) => *nodes[at].indexes.entry(*i).or_insert(fresh),
                };
                if child == fresh {
                    nodes.push(TrieNode::default());
                }
                at = child;
            }
            nodes[at].ends = true;
        }
        WrittenTrie { nodes }
    }

    fn ends(&self, at: Option<usize>) -> bool {
        at.is_some_and(|n| self.nodes[n].ends)
    }

    fn key_child(&self, at: Option<usize>, k: &str) -> Option<usize> {
        at.and_then(|n| self.nodes[n].keys.get(k).copied())
    }

    fn index_child(&self, at: Option<usize>, i: usize) -> Option<usize> {
        at.and_then(|n| self.nodes[n].indexes.get(&i).copied())
    }
}

/// `v`, whose old node is `prior` and whose trie node is `at`; `under_written`:
/// an ancestor was written.
fn node(v: &Value, prior: Option<&V>, at: Option<usize>, under_written: bool, trie: &WrittenTrie, origin: &Origin) -> V {
    let by_flag = under_written || trie.ends(at);
    // A node the flag created on the way to what it wrote belongs to the flag too.
    let own_origin = match prior {
        Some(p) if !by_flag => p.origin.clone(),
        _ => origin.clone(),
    };
    let kind = match v {
        Value::Object(m) => {
            let prior_map = prior.and_then(V::as_map);
            Kind::Map(
                m.iter()
                    .map(|(k, x)| {
                        let child = node(x, prior_map.and_then(|pm| pm.get(k)), trie.key_child(at, k), by_flag, trie, origin);
                        (k.clone(), child)
                    })
                    .collect(),
            )
        }
        Value::Array(a) => {
            let prior_list = match prior.map(|p| &p.kind) {
                Some(Kind::List(l)) => Some(l),
                _ => None,
            };
            Kind::List(
                a.iter()
                    .enumerate()
                    .map(|(i, x)| node(x, prior_list.and_then(|l| l.get(i)), trie.index_child(at, i), by_flag, trie, origin))
                    .collect(),
            )
        }
        Value::Null => Kind::Null,
        Value::Bool(b) => Kind::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.is_f64()) {
            (Some(i), false) => Kind::Int(i),
            _ => Kind::Float(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => Kind::Str(s.clone()),
    };
    V::new(kind, own_origin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn no_files(_: &str) -> Result<String, String> {
        Err("no files in this test".into())
    }

    #[test]
    fn flags_apply_by_kind_and_remember_what_they_overrode() {
        let flags = ValueFlags {
            files: vec![ValuesFile { name: "prod.yaml".into(), text: "image:\n  tag: 1.2.0\n  repo: r\nlist: [1, 2, 3]\n".into() }],
            set: vec!["image.tag=1.2.1".into(), "list[1]=x".into()],
            set_string: vec!["image.tag=2".into()],
            ..ValueFlags::default()
        };
        let mut rec = Recorder::default();
        let tree = user_values(&flags, &mut no_files, &mut rec).unwrap();
        assert_eq!(Value::Object(map_to_json(&tree)), json!({"image": {"tag": "2", "repo": "r"}, "list": [1.0, "x", 3.0]}));
        let tag = get(&tree, &Path::parse("image.tag").unwrap()).unwrap();
        assert_eq!(tag.origin.kind_word(), "set-string");
        let repo = get(&tree, &Path::parse("image.repo").unwrap()).unwrap();
        assert!(matches!(&*repo.origin, Source::ValuesFile { line: Some(3), column: Some(9), .. }), "{:?}", repo.origin);
        let lost: Vec<(String, String)> = rec.events.iter().map(|e| (e.path.to_string(), e.value.origin.kind_word().to_string())).collect();
        assert_eq!(
            lost,
            [("image.tag".to_string(), "values-file".to_string()), ("list".into(), "values-file".into()), ("image.tag".into(), "set".into())]
        );
    }

    #[test]
    fn a_later_file_replaces_lists_and_merges_maps() {
        let flags = ValueFlags {
            files: vec![
                ValuesFile { name: "a.yaml".into(), text: "m: {p: 1, q: 2}\nl: [1]\n".into() },
                ValuesFile { name: "b.yaml".into(), text: "m: {q: 3}\nl: [9, 8]\n".into() },
            ],
            ..ValueFlags::default()
        };
        let tree = user_values(&flags, &mut no_files, &mut Recorder::default()).unwrap();
        assert_eq!(Value::Object(map_to_json(&tree)), json!({"m": {"p": 1.0, "q": 3.0}, "l": [9.0, 8.0]}));
    }

    #[test]
    fn helms_flag_errors_are_kept_word_for_word() {
        let flags = ValueFlags { set: vec!["a".into()], ..ValueFlags::default() };
        let err = user_values(&flags, &mut no_files, &mut Recorder::default()).unwrap_err();
        assert_eq!(err.to_string(), "failed parsing --set data: key \"a\" has no value");
    }

    /// Issue 20, class 2: a list is one entry, so a flag writing one element
    /// is the list's writer and the whole earlier list is what it overrode
    /// (values checked against Helm 4.2.3 in tests/data/fidelity/cases.json).
    #[test]
    fn an_element_write_makes_the_flag_the_writer_of_the_whole_list() {
        let flags = ValueFlags {
            files: vec![ValuesFile { name: "l.yaml".into(), text: "ports: [i9, j9]
".into() }],
            set: vec!["ports[1]=e11".into(), "made={a,b}".into(), "made[0].x=1".into()],
            ..ValueFlags::default()
        };
        let mut rec = Recorder::default();
        let tree = user_values(&flags, &mut no_files, &mut rec).unwrap();
        let ports = get(&tree, &Path::parse("ports").unwrap()).unwrap();
        assert!(matches!(&*ports.origin, Source::SetFlag { index: 0, .. }), "{:?}", ports.origin);
        let made = get(&tree, &Path::parse("made").unwrap()).unwrap();
        assert!(matches!(&*made.origin, Source::SetFlag { index: 2, .. }), "{:?}", made.origin);
        let lost: Vec<(String, Value)> = rec.events.iter().map(|e| (e.path.to_string(), Value::Object(map_to_json(&[("v".to_string(), e.value.clone())].into_iter().collect())))).collect();
        assert_eq!(lost, [("ports".to_string(), json!({"v": ["i9", "j9"]})), ("made".to_string(), json!({"v": ["a", "b"]}))]);
    }

    /// Issue 20, class 3: `e: {}` in two files: the later file is the writer.
    #[test]
    fn an_empty_map_written_twice_is_credited_to_the_last_writer() {
        let flags = ValueFlags {
            files: vec![
                ValuesFile { name: "a.yaml".into(), text: "e: {}\n".into() },
                ValuesFile { name: "b.yaml".into(), text: "e: {}\nf: {}\n---\nf: {}\n".into() },
            ],
            ..ValueFlags::default()
        };
        let mut rec = Recorder::default();
        let tree = user_values(&flags, &mut no_files, &mut rec).unwrap();
        let e = get(&tree, &Path::parse("e").unwrap()).unwrap();
        assert!(matches!(&*e.origin, Source::ValuesFile { file, line: Some(1), .. } if file.as_ref() == "b.yaml"), "{:?}", e.origin);
        let f = get(&tree, &Path::parse("f").unwrap()).unwrap();
        assert!(matches!(&*f.origin, Source::ValuesFile { line: Some(4), .. }), "two documents: the second is the writer: {:?}", f.origin);
        assert_eq!(rec.events.len(), 1, "a.yaml's e is what b.yaml overrode");
    }
}
