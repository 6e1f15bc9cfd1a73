//! Manifest blame: for each leaf of each rendered object, the template
//! text or action that printed it (file:line:col) and the values keys that
//! action read, resolved to the explain entries that say where each value
//! came from. Built on the engine's spans: every output byte knows the
//! template text or action that produced it, and every action the state
//! values it read (its field chains, and what the templates it included
//! read). A key that holds a map or list printed whole (`toYaml .Values.x |
//! nindent 8`) is narrowed to the key under it whose path ends the field's
//! path, so each emitted leaf is blamed on its own key.

use std::collections::HashMap;

use super::engine::RenderedFiles;
use super::template::Sorted;
use crate::gotmpl::Span;
use crate::keypath::{Path, Seg};
use crate::values::source::Source;
use crate::values::tree::{Kind, Origin, V, VMap};
use crate::yaml::{PositionedKind, PositionedNode};

/// What produced one leaf of an object.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FieldBlame {
    /// The leaf's path in the object (`spec.template.spec.containers[0].image`).
    pub field: String,
    /// The leaf as the manifest holds it.
    pub value: serde_json::Value,
    /// The template whose text or action printed it (a partial's for text
    /// copied from a `define`), 1-based line and column there.
    pub template: String,
    pub line: usize,
    pub column: usize,
    /// Printed by template text, not an action.
    pub literal: bool,
    /// The action's source (`{{ .Values.image.tag | quote }}`), when an action printed it.
    pub action: Option<String>,
    /// The values keys the action read, in order, without repeats.
    pub keys: Vec<KeyRead>,
    /// The render-data facts it read (`.Release.Name`, `.Chart.Version`,
    /// `.Capabilities.KubeVersion.Version`, `.Files.Get "conf/app.ini"`).
    pub facts: Vec<String>,
    /// What the `if`, `with` and `range` conditions around the printing
    /// text or action read (in this template and those that included it):
    /// why the leaf is there at all.
    pub conditions: Vec<KeyRead>,
    /// Printed from a random value (`randAlphaNum`, `uuidv4`, or one made
    /// from them), so it differs on every render.
    pub random: bool,
}

/// A values key an action read, and where the value it holds came from
/// (`-f prod.yaml:4:13`; for a key inside a list, the list item's own position).
#[derive(Debug, Clone, serde::Serialize)]
pub struct KeyRead {
    pub path: String,
    pub source: String,
}

/// One object's blame.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ObjectBlame {
    pub kind: String,
    pub name: String,
    /// The template the object was rendered from.
    pub source: String,
    pub fields: Vec<FieldBlame>,
}

/// Blames every leaf of every object (manifests, then hooks).
pub fn blame(files: &RenderedFiles, sorted: &Sorted, values: &VMap) -> Vec<ObjectBlame> {
    let paths = origin_paths(values);
    let mut out = Vec::new();
    for doc in sorted.manifests.iter().chain(&sorted.hooks) {
        let Some(file) = files.get(&doc.path) else { continue };
        let offset = doc.offset;
        let Ok(map) = crate::yaml::load_nodes(&doc.content, &doc.path) else { continue };
        let lines = line_starts(&doc.content);
        let mut fields = Vec::new();
        let mut leaves = Vec::new();
        for (k, (_, node)) in &map {
            collect_leaves(node, Path::root().key(k), &mut leaves);
        }
        for (field, node) in leaves {
            let Some(start) = byte_at(&doc.content, &lines, node.pos.line, node.pos.column) else { continue };
            let end = doc.content[start..].find('\n').map_or(doc.content.len(), |i| start + i);
            let covering = spans_over(&file.spans, offset + start, offset + end.max(start + 1));
            let Some(first) = covering.iter().find(|s| s.action.is_some()).or(covering.first()) else { continue };
            let (template, line, column, action) = place(first, offset + start);
            let mut read = Reads { values, paths: &paths, field: Some(&field), keys: Vec::new(), facts: Vec::new() };
            for s in covering.iter().filter(|s| s.action.is_some()) {
                for o in s.reads.iter().chain(s.action.iter().flatten()) {
                    read.add(o);
                }
            }
            let Reads { keys, facts, .. } = read;
            // What the conditions around the printing span read (a fact as a key named for it).
            let mut cond = Reads { values, paths: &paths, field: None, keys: Vec::new(), facts: Vec::new() };
            for o in crate::gotmpl::Guard::all_reads(&first.guard) {
                cond.add(o);
            }
            let mut conditions = cond.keys;
            conditions.extend(cond.facts.into_iter().map(|path| KeyRead { path, source: "render data".into() }));
            fields.push(FieldBlame {
                field: field.to_string(),
                value: leaf_json(&node.kind),
                template,
                line,
                column,
                literal: first.action.is_none(),
                action,
                keys,
                facts,
                conditions,
                random: covering.iter().any(|s| s.nondeterministic),
            });
        }
        let head = |k: &str| map.get(k).map(|(_, n)| n);
        let name = head("metadata").and_then(|m| match &m.kind {
            PositionedKind::Map(m) => m.get("name").and_then(|(_, n)| match &n.kind {
                PositionedKind::Str(s) => Some(s.clone()),
                _ => None,
            }),
            _ => None,
        });
        out.push(ObjectBlame { kind: doc.kind.clone(), name: name.unwrap_or_default(), source: doc.path.clone(), fields });
    }
    out
}

/// What a field's actions (or its conditions) read: values keys, in
/// order and without repeats, and render-data facts.
struct Reads<'a> {
    values: &'a VMap,
    paths: &'a HashMap<usize, Vec<Path>>,
    /// The leaf's path, to narrow a map printed whole to the key under it
    /// (`None` for conditions, which read the map itself).
    field: Option<&'a Path>,
    keys: Vec<KeyRead>,
    facts: Vec<String>,
}

impl Reads<'_> {
    fn add(&mut self, o: &Origin) {
        match (self.paths.get(&(std::rc::Rc::as_ptr(o) as usize)), &**o) {
            (Some(candidates), _) => {
                let (path, origin) = match self.field {
                    Some(field) => resolve(self.values, candidates, o, field),
                    None => (candidates.last().cloned().unwrap_or_else(Path::root), o.clone()),
                };
                let mut source = String::new();
                origin.describe_into(&mut source);
                self.key(path.to_string(), source);
            }
            (None, Source::Fact { name }) if name.starts_with(".Values.") => self.key(name[".Values.".len()..].to_string(), "not set".into()),
            // `.Values` itself (`index .Values "a"`, `toYaml .Values`): its keys tell more.
            (None, Source::Fact { name }) if name == ".Values" => {}
            (None, Source::Fact { name }) => self.fact(name),
            (None, Source::Unset { under, key }) => {
                if let Some(at) = self.paths.get(&(std::rc::Rc::as_ptr(under) as usize)).and_then(|c| c.last()) {
                    self.key(format!("{at}.{key}"), "not set".into());
                }
            }
            _ => {}
        }
    }

    /// A fact once, and only its deepest field: `(lookup ...).spec.replicas`
    /// says what `(lookup ...)` alone would, and more.
    fn fact(&mut self, name: &str) {
        let under = |short: &str, long: &str| long.len() > short.len() && long.starts_with(short) && matches!(long.as_bytes()[short.len()], b'.' | b'[');
        if self.facts.iter().any(|f| f == name || under(name, f)) {
            return;
        }
        self.facts.retain(|f| !under(f, name));
        self.facts.push(name.to_string());
    }

    fn key(&mut self, path: String, source: String) {
        if !self.keys.iter().any(|k| k.path == path) {
            self.keys.push(KeyRead { path, source });
        }
    }
}

/// Masks what outputs must not show unless `--show-secrets`: the leaves of
/// a Secret's `data` and `stringData`, leaves under keys that look secret,
/// and the values of `--set` flags for such keys.
pub fn mask_secrets(objects: &mut [ObjectBlame]) {
    use crate::manifest::secrets::{is_secret_kind, key_looks_secret, masked_flag_source};
    for o in objects {
        let secret_kind = is_secret_kind(&o.kind);
        mask_fields(&mut o.fields, secret_kind);
    }
    fn mask_fields(fields: &mut [FieldBlame], secret_kind: bool) {
        for f in fields {
            let in_data = secret_kind && (f.field.starts_with("data.") || f.field.starts_with("stringData."));
            if in_data || key_looks_secret(&f.field) {
                f.value = serde_json::Value::String("<masked>".into());
            }
            for k in f.keys.iter_mut().chain(f.conditions.iter_mut()) {
                k.source = masked_flag_source(&k.path, &k.source);
            }
        }
    }
}

/// Each values node's origin -> the key paths of the nodes holding it,
/// shallowest first. Origins are one per node, except that `--set a.b=1`
/// gives the maps it creates and its leaf one origin.
fn origin_paths(values: &VMap) -> HashMap<usize, Vec<Path>> {
    fn walk(v: &V, at: Path, out: &mut HashMap<usize, Vec<Path>>) {
        out.entry(std::rc::Rc::as_ptr(&v.origin) as usize).or_default().push(at.clone());
        match &v.kind {
            Kind::Map(m) => {
                for (k, x) in m {
                    walk(x, at.key(k), out);
                }
            }
            Kind::List(l) => {
                for (i, x) in l.iter().enumerate() {
                    walk(x, at.index(i), out);
                }
            }
            _ => {}
        }
    }
    let mut out = HashMap::new();
    for (k, v) in values {
        walk(v, Path::root().key(k), &mut out);
    }
    out
}

/// The key a read of `origin` stands for: among the nodes holding it
/// (deepest first), a map or list printed whole narrowed to the leaf that
/// ends `field`'s path; otherwise the deepest (a `--set a.b=1` read as
/// `.Values.a.b`).
fn resolve(values: &VMap, candidates: &[Path], origin: &Origin, field: &Path) -> (Path, Origin) {
    for key in candidates.iter().rev() {
        if let Some(found) = narrow(values, key, field) {
            return found;
        }
    }
    let deepest = candidates.last().cloned().unwrap_or_else(Path::root);
    (deepest, origin.clone())
}

/// A map or list key printed whole: the leaf under it whose path ends
/// `field`'s (longest match), with that leaf's origin.
fn narrow(values: &VMap, key: &Path, field: &Path) -> Option<(Path, Origin)> {
    let v = crate::values::tree::get(values, key)?;
    if !matches!(v.kind, Kind::Map(_) | Kind::List(_)) {
        return None;
    }
    let segs = &field.0;
    for j in 0..segs.len() {
        let mut at = v;
        let mut ok = true;
        for s in &segs[j..] {
            let next = match (s, &at.kind) {
                (Seg::Key(k), Kind::Map(m)) => m.get(k),
                (Seg::Index(i), Kind::List(l)) => l.get(*i),
                _ => None,
            };
            match next {
                Some(n) => at = n,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && !matches!(at.kind, Kind::Map(_) | Kind::List(_)) {
            let mut out = key.clone();
            for s in &segs[j..] {
                out = match s {
                    Seg::Key(k) => out.key(k),
                    Seg::Index(i) => out.index(*i),
                };
            }
            return Some((out, at.origin.clone()));
        }
    }
    None
}

/// Which leaf of an object each line of its YAML holds: 1-based line ->
/// the leaf's field path (as [`FieldBlame::field`] spells it). For matching
/// a diff's lines to the fields blame explains.
pub fn leaf_lines(yaml: &str) -> HashMap<usize, String> {
    let Ok(map) = crate::yaml::load_nodes(yaml, "object") else { return HashMap::new() };
    let mut leaves = Vec::new();
    for (k, (_, node)) in &map {
        collect_leaves(node, Path::root().key(k), &mut leaves);
    }
    leaves.into_iter().map(|(path, node)| (node.pos.line, path.to_string())).collect()
}

fn collect_leaves<'a>(node: &'a PositionedNode, at: Path, out: &mut Vec<(Path, &'a PositionedNode)>) {
    match &node.kind {
        PositionedKind::Map(m) if !m.is_empty() => {
            for (k, (_, n)) in m {
                collect_leaves(n, at.key(k), out);
            }
        }
        PositionedKind::Seq(items) if !items.is_empty() => {
            for (i, n) in items.iter().enumerate() {
                collect_leaves(n, at.index(i), out);
            }
        }
        _ => out.push((at, node)),
    }
}

fn leaf_json(kind: &PositionedKind) -> serde_json::Value {
    match kind {
        PositionedKind::Null => serde_json::Value::Null,
        PositionedKind::Bool(b) => serde_json::Value::Bool(*b),
        // Whole numbers as integers, as the manifest shows them.
        PositionedKind::Num(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => serde_json::Value::from(*f as i64),
        PositionedKind::Num(f) => serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, serde_json::Value::Number),
        PositionedKind::Str(s) => serde_json::Value::String(s.clone()),
        PositionedKind::Seq(_) => serde_json::json!([]),
        PositionedKind::Map(_) => serde_json::json!({}),
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// The byte of 1-based `line` and `column` (characters).
fn byte_at(text: &str, lines: &[usize], line: usize, column: usize) -> Option<usize> {
    let start = *lines.get(line.checked_sub(1)?)?;
    let rest = &text[start..];
    let at = rest.char_indices().nth(column.saturating_sub(1)).map_or(rest.len(), |(i, _)| i);
    Some(start + at)
}

/// The spans that overlap `[start, end)` of the output.
fn spans_over(spans: &[Span], start: usize, end: usize) -> Vec<&Span> {
    let first = spans.partition_point(|s| s.out.end <= start);
    spans[first..].iter().take_while(|s| s.out.start < end).collect()
}

/// Where a span's text or action is in its template (for text, the byte
/// that became output byte `out`: text is copied as it is), and the action's source.
fn place(span: &Span, out: usize) -> (String, usize, usize, Option<String>) {
    let Some((name, src)) = &span.template else { return (String::new(), 0, 0, None) };
    let moved = if span.action.is_none() { out.saturating_sub(span.out.start) } else { 0 };
    let at = (span.src + moved).min(src.len());
    let (line, column) = crate::gotmpl::line_col(src, at);
    let action = span.action.as_ref().map(|_| {
        let rest = &src[at..];
        let end = rest.find("}}").map_or(rest.len(), |i| i + 2);
        let text: String = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        if text.chars().count() > 120 { format!("{}…", text.chars().take(119).collect::<String>()) } else { text }
    });
    (name.to_string(), line, column, action)
}
