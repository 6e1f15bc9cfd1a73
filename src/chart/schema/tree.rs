//! The shape santhosh-tekuri/jsonschema v6 gives its failures (validator.go
//! `validate`, `validateVal`, `validateSelf`, `validateRef`; output.go
//! `display`), rebuilt from the flat failures this crate reports, each with
//! its schema path:
//! - every schema evaluated at a place returns nothing, its one failure as it
//!   is, or, with two or more, one `validation failed` at that place with
//!   them as causes (`kind.Group`);
//! - a child schema (`properties/P`, `items`, `additionalProperties`, ...) is
//!   evaluated at the child's place, `allOf`'s subschemas, `then`/`else`,
//!   `dependentSchemas/P` and `$ref` at the same place; `allOf` is one
//!   `'allOf' failed` with each subschema's result as a cause; a `$ref`'s
//!   result shows as `validation failed` when it has two or more causes and
//!   is skipped (its cause shown in its stead) when it has one;
//! - the root's result, when it is a group, is unwrapped (`Validate`): its
//!   causes are the top-level failures.

use super::{pointer_key, quote, v6_order};

/// One failure as the crate reported it, put into v6's words.
pub(super) struct Failure {
    /// Where in the values (for "where the values come from").
    pub pointer: String,
    /// The place printed after `at` (propertyNames failures print `''`).
    pub shown: String,
    pub message: String,
    pub schema_path: String,
}

enum Node<'f> {
    Leaf(&'f Failure),
    /// `validation failed` (a group, or a `$ref` with several causes) at a place.
    Group(String, Vec<Node<'f>>),
    /// `'allOf' failed` at a place.
    AllOf(String, Vec<Node<'f>>),
    /// A `$ref` whose schema failed two or more times: `validation failed`
    /// at the place, but not a group (the root does not unwrap it).
    Ref(String, Vec<Node<'f>>),
}

/// How one schema-path step descends from a schema to a subschema.
enum Step {
    /// The failing keyword itself.
    Keyword,
    /// A child value's schema: tokens used, and the child's place (`None`:
    /// the failure's next instance token).
    Child(usize, Option<String>),
    /// A subschema at the same place (`then`, `dependentSchemas/P`, ...).
    Same(usize),
    /// `$ref` (and the dynamic forms): the referenced schema at the same place.
    Ref(usize),
    /// `allOf/N`.
    AllOf(usize),
}

fn step(segs: &[&str], at: &str) -> Step {
    let next = segs.get(1).copied();
    let indexed = next.is_some_and(|s| s.parse::<u64>().is_ok());
    match (segs.first().copied(), next) {
        (_, None) => Step::Keyword,
        (Some("properties"), Some(name)) => Step::Child(2, Some(format!("{at}/{name}"))),
        (Some("prefixItems"), Some(i)) if indexed => Step::Child(2, Some(format!("{at}/{i}"))),
        (Some("items"), Some(i)) if indexed => Step::Child(2, Some(format!("{at}/{i}"))),
        (Some("patternProperties"), Some(_)) => Step::Child(2, None),
        (Some("items" | "additionalProperties" | "additionalItems" | "unevaluatedItems" | "unevaluatedProperties"), _) => Step::Child(1, None),
        (Some("allOf"), Some(i)) if indexed => Step::AllOf(i.parse().unwrap_or_default()),
        (Some("anyOf" | "oneOf"), Some(_)) if indexed => Step::Same(2),
        (Some("dependentSchemas"), Some(_)) => Step::Same(2),
        (Some("then" | "else" | "if" | "not"), _) => Step::Same(1),
        (Some("$ref" | "$dynamicRef" | "$recursiveRef"), _) => Step::Ref(1),
        _ => Step::Keyword,
    }
}

/// The instance token right after `at` in `pointer` (`/a/b` after `/a`: `/a/b`).
fn child_place(pointer: &str, at: &str) -> String {
    let rest = pointer.strip_prefix(at).unwrap_or_default();
    match rest.strip_prefix('/') {
        Some(tail) => format!("{at}/{}", tail.split('/').next().unwrap_or_default()),
        None => at.to_string(),
    }
}

/// The failures of one schema evaluated at `at`; each failure's schema path
/// from token `from` on is below this schema.
/// A failure with its schema path's tokens.
type Split<'f> = (&'f Failure, Vec<&'f str>);
/// A subschema's failures so far: its key, place, failures, and the token its path goes on from.
type ChildGroup<'f> = (String, String, Vec<Split<'f>>, usize);

fn level<'f>(failures: Vec<Split<'f>>, from: usize, at: &str) -> Vec<Node<'f>> {
    // Children in order of first appearance (failures come sorted in v6's order).
    let mut nodes: Vec<(String, Node<'f>)> = Vec::new();
    let mut groups: Vec<ChildGroup<'f>> = Vec::new();
    let mut all_of: Vec<(u64, Vec<Split<'f>>)> = Vec::new();
    let mut all_of_slot = None;
    for (f, segs) in failures {
        match step(&segs[from.min(segs.len())..], at) {
            Step::Keyword => nodes.push((String::new(), Node::Leaf(f))),
            Step::Child(width, place) => {
                let place = place.unwrap_or_else(|| child_place(&f.pointer, at));
                let key = format!("c{}@{place}", segs[from..from + width].join("/"));
                push_group(&mut groups, &mut nodes, key, place, f, segs, from + width);
            }
            Step::Same(width) => {
                let key = format!("s{}", segs[from..from + width].join("/"));
                push_group(&mut groups, &mut nodes, key, at.to_string(), f, segs, from + width);
            }
            Step::Ref(width) => {
                let key = format!("r{}", segs[from..from + width].join("/"));
                push_group(&mut groups, &mut nodes, key, at.to_string(), f, segs, from + width);
            }
            Step::AllOf(i) => {
                if all_of_slot.is_none() {
                    all_of_slot = Some(nodes.len());
                    nodes.push(("allOf".into(), Node::AllOf(at.to_string(), Vec::new())));
                }
                match all_of.iter_mut().find(|(n, _)| *n == i as u64) {
                    Some((_, list)) => list.push((f, segs)),
                    None => all_of.push((i as u64, vec![(f, segs)])),
                }
            }
        }
    }
    let mut out = Vec::new();
    for (key, node) in nodes {
        match node {
            Node::AllOf(place, _) if key == "allOf" => {
                let causes = std::mem::take(&mut all_of).into_iter().flat_map(|(_, list)| grouped(level(list, from + 2, at), at)).collect();
                out.push(Node::AllOf(place, causes));
            }
            Node::Leaf(f) => out.push(Node::Leaf(f)),
            _ => {
                if let Some(i) = groups.iter().position(|g| g.0 == key) {
                    let (key, place, list, next) = groups.remove(i);
                    let result = grouped(level(list, next, &place), &place);
                    if key.starts_with('r') {
                        // validateRef: a group's causes become the reference's own; a
                        // reference with one cause is not shown (output.go `skip`).
                        match <[Node; 1]>::try_from(result) {
                            Ok([Node::Group(_, causes)]) => out.push(Node::Ref(place, causes)),
                            Ok([one]) => out.push(one),
                            Err(_) => {}
                        }
                    } else {
                        out.extend(result);
                    }
                }
            }
        }
    }
    out
}

fn push_group<'f>(
    groups: &mut Vec<ChildGroup<'f>>,
    nodes: &mut Vec<(String, Node<'f>)>,
    key: String,
    place: String,
    f: &'f Failure,
    segs: Vec<&'f str>,
    next: usize,
) {
    match groups.iter_mut().find(|g| g.0 == key) {
        Some(g) => g.2.push((f, segs)),
        None => {
            nodes.push((key.clone(), Node::Group(String::new(), Vec::new())));
            groups.push((key, place, vec![(f, segs)], next));
        }
    }
}

/// A schema's result: its one failure as it is, several as one group at `at`.
fn grouped<'f>(mut nodes: Vec<Node<'f>>, at: &str) -> Vec<Node<'f>> {
    if nodes.len() <= 1 { nodes } else { vec![Node::Group(at.to_string(), std::mem::take(&mut nodes))] }
}

impl Node<'_> {
    /// The place printed after `at`.
    fn shown(&self) -> &str {
        match self {
            Node::Leaf(f) => &f.shown,
            Node::Group(at, _) | Node::Ref(at, _) | Node::AllOf(at, _) => at,
        }
    }

    /// What follows `at PLACE: ` for this node `depth` levels deep: a
    /// failure's message, or the group's words with its causes' lines below.
    fn message(&self, depth: usize) -> String {
        let (label, causes) = match self {
            Node::Leaf(f) => return f.message.replace("\n  ", &format!("\n{}  ", "  ".repeat(depth))),
            Node::Group(_, causes) | Node::Ref(_, causes) => ("validation failed", causes),
            Node::AllOf(_, causes) => ("'allOf' failed", causes),
        };
        let mut message = label.to_string();
        lines(causes, depth + 1, &mut message);
        message
    }
}

fn lines(nodes: &[Node], depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    for node in nodes {
        out.push_str(&format!("\n{pad}- at {}: {}", quote(node.shown()), node.message(depth)));
    }
}

/// v6's top-level failures (pointer, printed place, message with its causes'
/// lines) from the crate's failures.
pub(super) fn v6_tree(mut failures: Vec<Failure>) -> Vec<(String, String, String)> {
    failures.sort_by_cached_key(|f| (v6_order(&f.schema_path, &f.pointer), pointer_key(&f.pointer)));
    let split: Vec<Split> = failures.iter().map(|f| (f, f.schema_path.split('/').skip(1).collect())).collect();
    let mut top = level(split, 0, "");
    // Validate unwraps a root group.
    if let [Node::Group(_, _)] = top.as_slice()
        && let Some(Node::Group(_, causes)) = top.pop()
    {
        top = causes;
    }
    top.into_iter()
        .map(|node| {
            let pointer = match &node {
                Node::Leaf(f) => f.pointer.clone(),
                other => other.shown().to_string(),
            };
            (pointer, node.shown().to_string(), node.message(0))
        })
        .collect()
}

/// v6 (validator.go `validate`): a failed `type`, `const` or `enum` is its
/// schema's only failure for that value (the first of them, in that order);
/// nothing else of that schema or below it is evaluated.
fn apply_stops(failures: &mut Vec<Failure>) {
    let rank = |f: &Failure| ["type", "const", "enum"].iter().position(|k| f.schema_path.rsplit('/').next() == Some(k));
    let level = |f: &Failure| f.schema_path.rsplit_once('/').map(|(l, _)| format!("{l}/")).unwrap_or_default();
    let stops: Vec<(String, String, usize)> = failures.iter().filter_map(|f| rank(f).map(|r| (level(f), f.pointer.clone(), r))).collect();
    failures.retain(|f| {
        let below = |(lvl, ptr, _): &(String, String, usize)| f.schema_path.starts_with(lvl.as_str()) && (f.pointer == *ptr || f.pointer.starts_with(&format!("{ptr}/")));
        match rank(f) {
            // Another stop of the same schema and value ranked before it wins.
            Some(r) => !stops.iter().any(|s| below(s) && (level(f) != s.0 || s.2 < r) && !(level(f) == s.0 && s.2 == r)),
            None => !stops.iter().any(below),
        }
    });
}

/// The lines of one `anyOf`/`oneOf` subschema's failures, `depth` levels
/// deep: one failure as it is, several under `validation failed` at the
/// keyword's place (v6's `validateSelf` per subschema).
pub(super) fn branch_lines(mut failures: Vec<Failure>, depth: usize) -> String {
    let mut out = String::new();
    let Some(first) = failures.first() else { return out };
    // The subschema's own path: up to the last `anyOf/N` (or `oneOf/N`) its failures share.
    let first_segs: Vec<String> = first.schema_path.split('/').skip(1).map(str::to_string).collect();
    let shared = failures.iter().map(|f| f.schema_path.split('/').skip(1).zip(&first_segs).take_while(|(a, b)| a == b).count()).min().unwrap_or(0);
    let from = (0..shared.saturating_sub(1))
        .rev()
        .find(|&i| matches!(first_segs[i].as_str(), "anyOf" | "oneOf") && first_segs[i + 1].parse::<u64>().is_ok())
        .map_or(0, |i| i + 2);
    // The keyword's place: the first failure's place less the child steps below the subschema.
    let segs: Vec<&str> = first_segs.iter().map(String::as_str).collect();
    let (mut i, mut children) = (from, 0);
    loop {
        match step(&segs[i.min(segs.len())..], "") {
            Step::Keyword => break,
            Step::Child(width, _) => (i, children) = (i + width, children + 1),
            Step::Same(width) | Step::Ref(width) => i += width,
            Step::AllOf(_) => i += 2,
        }
    }
    let tokens: Vec<&str> = first.pointer.split('/').collect();
    let at = tokens[..tokens.len().saturating_sub(children).max(1)].join("/");
    apply_stops(&mut failures);
    failures.sort_by_cached_key(|f| (v6_order(&f.schema_path, &f.pointer), pointer_key(&f.pointer)));
    let split: Vec<Split> = failures.iter().map(|f| (f, f.schema_path.split('/').skip(1).collect())).collect();
    lines(&grouped(level(split, from, &at), &at), depth, &mut out);
    out
}
