//! The value tree with provenance: every node remembers where it came from,
//! so Helm's merge rules can run unchanged while `explain` learns who set,
//! overrode or deleted each key. Numbers keep Go's types (int64 vs float64).

use std::rc::Rc;

use indexmap::IndexMap;

use crate::FastHash;
use crate::yaml::{Pos, PositionedKind, PositionedMap, PositionedNode, YamlError};
use serde_json::{Number, Value};

use crate::keypath::{Path, Seg};

pub use super::source::{Name, Source};

pub type Origin = Rc<Source>;

#[derive(Debug, Clone)]
pub enum Kind {
    Null,
    Bool(bool),
    /// Go int64 (`--set` integers).
    Int(i64),
    /// Go float64 (every number from YAML or JSON).
    Float(f64),
    Str(String),
    List(Vec<V>),
    Map(VMap),
}

/// A value and its origin.
#[derive(Debug, Clone)]
pub struct V {
    pub kind: Kind,
    pub origin: Origin,
}

pub type VMap = IndexMap<String, V, FastHash>;

/// The tree as Go's printers see it ([`crate::go::fmt`]'s `%v`): `Int` is an
/// int64, `Float` a float64.
impl crate::go::value::GoValue for V {
    type Error = std::convert::Infallible;

    fn go_shape(&self) -> Result<crate::go::value::GoShape<'_, V>, Self::Error> {
        use crate::go::value::GoShape;
        Ok(match &self.kind {
            Kind::Null => GoShape::Nil,
            Kind::Bool(b) => GoShape::Bool(*b),
            Kind::Int(i) => GoShape::Int(*i),
            Kind::Float(f) => GoShape::Float(*f),
            Kind::Str(s) => GoShape::Str(s),
            Kind::List(l) => GoShape::List(l),
            Kind::Map(m) => GoShape::Map(m.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        })
    }
}


impl V {
    pub fn new(kind: Kind, origin: Origin) -> V {
        V { kind, origin }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }

    pub fn as_map(&self) -> Option<&VMap> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_map_mut(&mut self) -> Option<&mut VMap> {
        match &mut self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self.kind, Kind::Map(_))
    }

    /// Builds a tree from JSON, every node with the origin `origin_of(path)`.
    /// `float_numbers`: every number becomes a float64 (YAML and JSON input).
    pub fn from_json(value: &Value, path: &Path, float_numbers: bool, origin_of: &mut dyn FnMut(&Path) -> Origin) -> V {
        let origin = origin_of(path);
        let kind = match value {
            Value::Null => Kind::Null,
            Value::Bool(b) => Kind::Bool(*b),
            Value::Number(n) => number_kind(n, float_numbers),
            Value::String(s) => Kind::Str(s.clone()),
            Value::Array(a) => Kind::List(a.iter().enumerate().map(|(i, x)| V::from_json(x, &path.index(i), float_numbers, origin_of)).collect()),
            Value::Object(m) => Kind::Map(m.iter().map(|(k, x)| (k.clone(), V::from_json(x, &path.key(k), float_numbers, origin_of))).collect()),
        };
        V { kind, origin }
    }

    /// The plain value, keys in the tree's order.
    pub fn to_json(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Int(i) => Value::Number((*i).into()),
            Kind::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Kind::Str(s) => Value::String(s.clone()),
            Kind::List(l) => Value::Array(l.iter().map(V::to_json).collect()),
            Kind::Map(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }
}

/// The node at `path` (keys and list indexes) below `map`.
pub fn get<'a>(map: &'a VMap, path: &Path) -> Option<&'a V> {
    let (first, rest) = path.0.split_first()?;
    let Seg::Key(k) = first else { return None };
    rest.iter().try_fold(map.get(k)?, |cur, seg| match (seg, &cur.kind) {
        (Seg::Key(k), Kind::Map(m)) => m.get(k),
        (Seg::Index(i), Kind::List(l)) => l.get(*i),
        _ => None,
    })
}

/// [`get`], mutable.
pub fn get_mut<'a>(map: &'a mut VMap, path: &Path) -> Option<&'a mut V> {
    let (first, rest) = path.0.split_first()?;
    let Seg::Key(k) = first else { return None };
    rest.iter().try_fold(map.get_mut(k)?, |cur, seg| match (seg, &mut cur.kind) {
        (Seg::Key(k), Kind::Map(m)) => m.get_mut(k),
        (Seg::Index(i), Kind::List(l)) => l.get_mut(*i),
        _ => None,
    })
}

/// A map of plain JSON turned into a tree map with one origin for everything.
pub fn map_from_json(map: &serde_json::Map<String, Value>, float_numbers: bool, origin: &Origin) -> VMap {
    let mut same = |_: &Path| origin.clone();
    map.iter().map(|(k, v)| (k.clone(), V::from_json(v, &Path::root().key(k), float_numbers, &mut same))).collect()
}

/// [`map_from_json`] with an origin of its own for every node (equal
/// sources, distinct `Rc`s): blame tells keys apart by their node's origin,
/// and a tree sharing one origin would name any of its keys.
pub fn map_from_json_each(map: &serde_json::Map<String, Value>, float_numbers: bool, source: &Source) -> VMap {
    let mut fresh = |_: &Path| Rc::new(source.clone());
    map.iter().map(|(k, v)| (k.clone(), V::from_json(v, &Path::root().key(k), float_numbers, &mut fresh))).collect()
}

pub fn map_to_json(map: &VMap) -> serde_json::Map<String, Value> {
    map.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()
}

fn number_kind(n: &Number, float_numbers: bool) -> Kind {
    if !float_numbers && let Some(i) = n.as_i64() {
        return Kind::Int(i);
    }
    Kind::Float(n.as_f64().unwrap_or(0.0))
}

/// What happened to a value that did not survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A higher-priority source replaced it.
    Overridden,
    /// A null from a higher-priority source deleted the key.
    DeletedByNull,
    /// Helm ignored it because its type did not fit (a warning was printed).
    SkippedTypeMismatch,
}

#[derive(Debug, Clone)]
pub struct Event {
    pub path: Path,
    /// The value that lost.
    pub value: V,
    pub event: EventKind,
    /// The value that won, when there is one.
    pub by: Option<Origin>,
}

/// Collects what the merge engines discard, and Helm's warnings.
#[derive(Debug, Default)]
pub struct Recorder {
    pub events: Vec<Event>,
    pub warnings: Vec<String>,
}

impl Recorder {
    pub fn lost(&mut self, path: Path, value: V, event: EventKind, by: Option<Origin>) {
        self.lost_at(|| path, value, event, by);
    }

    /// [`lost`](Self::lost), the path made only when the loss is history
    /// (coalescing meets most chart defaults again several times).
    pub fn lost_at(&mut self, path: impl FnOnce() -> Path, value: V, event: EventKind, by: Option<Origin>) {
        // A value meeting itself again (Helm merges chart defaults more than
        // once) is no history.
        if event == EventKind::Overridden && by.as_ref().is_some_and(|b| Rc::ptr_eq(b, &value.origin) || **b == *value.origin) {
            return;
        }
        self.events.push(Event { path: path(), value, event, by });
    }

    pub fn warn(&mut self, text: String) {
        self.warnings.push(text);
    }
}

/// A values file read as Helm reads it ([`crate::yaml::load_nodes`]), as a
/// provenance tree: every node's origin is `origin_for(top-level key,
/// position of the value)`.
pub fn load_tree(text: &str, source_name: &str, origin_for: &dyn Fn(&str, Pos) -> Source) -> Result<VMap, YamlError> {
    tree_of_nodes(crate::yaml::load_nodes(text, source_name)?, origin_for)
}

/// A file read by [`crate::yaml::parse_many`] as [`load_tree`] would return it.
pub fn tree_of(parsed: crate::yaml::Parsed, origin_for: &dyn Fn(&str, Pos) -> Source) -> Result<VMap, YamlError> {
    tree_of_nodes(parsed.into_nodes()?, origin_for)
}

fn tree_of_nodes(merged: PositionedMap, origin_for: &dyn Fn(&str, Pos) -> Source) -> Result<VMap, YamlError> {
    let mut out = VMap::with_capacity_and_hasher(merged.len(), FastHash::default());
    for (k, (_, node)) in merged {
        let v = node_to_tree(node, &|pos| Rc::new(origin_for(&k, pos)));
        out.insert(k, v);
    }
    Ok(out)
}

/// A node as the JSON round trip would leave it (every number a float64).
fn node_to_tree(node: PositionedNode, origin_of: &dyn Fn(Pos) -> Origin) -> V {
    let origin = origin_of(node.pos);
    let kind = match node.kind {
        PositionedKind::Null => Kind::Null,
        PositionedKind::Bool(b) => Kind::Bool(b),
        // JSON has no NaN or infinity (the reader refuses them; as its JSON form, null).
        PositionedKind::Num(f) if f.is_finite() => Kind::Float(f),
        PositionedKind::Num(_) => Kind::Null,
        PositionedKind::Str(s) => Kind::Str(s),
        PositionedKind::Seq(items) => Kind::List(items.into_iter().map(|item| node_to_tree(item, origin_of)).collect()),
        PositionedKind::Map(m) => {
            let mut out = VMap::with_capacity_and_hasher(m.len(), FastHash::default());
            for (k, (_, v)) in m {
                out.insert(k, node_to_tree(v, origin_of));
            }
            Kind::Map(out)
        }
    };
    V::new(kind, origin)
}
