//! What an apply changes that it should not, or drops: the fields other
//! managers own that the body changes (conflicts, or take-overs with force),
//! the fields the applier stops setting (removals), and the server's and
//! Helm's conflict messages, byte for byte.

use super::fieldpath::{FieldPath, FieldSet};
use super::managed::{ManagedEntry, Operation, applier_identifier};
use super::tree::Tree;
use super::value::smd_eq;
use crate::go::quote::quote as go_quote;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A field another manager owns and the apply would change.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub manager: String,
    pub operation: Operation,
    pub subresource: String,
    /// The owning entry's API version (only `Update` managers print it).
    pub api_version: String,
    /// The owning entry's time. The server's message never shows it: the
    /// manager identity it prints from has no time (`BuildManagerIdentifier`).
    pub time: Option<String>,
    pub path: FieldPath,
}

impl Conflict {
    fn entry_identity(&self) -> ManagedEntry {
        ManagedEntry {
            manager: self.manager.clone(),
            operation: self.operation,
            api_version: self.api_version.clone(),
            time: None,
            subresource: self.subresource.clone(),
            fields: FieldSet::new(),
        }
    }

    /// The manager as the server names it in messages (`printManager`).
    pub fn manager_text(&self) -> String {
        print_manager(&self.entry_identity().identifier())
    }
}

/// SMD `Updater.update`: for every manager other than the applier's own
/// `Apply` identity, its fields among those the merge changes (modified
/// leaves, added nodes). SMD compares in each manager's API version
/// (converting the objects); here paths are compared as written, which is
/// the same whenever the versions agree or the conversion keeps the paths.
pub(super) fn conflicts_of(entries: &[ManagedEntry], body: &Tree<'_>, live: &Tree<'_>, manager: &str) -> Vec<Conflict> {
    let changed: FieldSet = body
        .nodes
        .iter()
        .filter(|(p, n)| match live.nodes.get(*p) {
            None => true,
            Some(l) => n.leaf && !smd_eq(n.value, l.value),
        })
        .map(|(p, _)| p.clone())
        .collect();
    let me = applier_identifier(manager);
    let mut owners: Vec<&ManagedEntry> = entries.iter().filter(|e| e.identifier() != me).collect();
    // conflict.go prints managers sorted by their identifier string.
    owners.sort_by_key(|e| e.identifier());
    let mut out = Vec::new();
    for e in owners {
        let mut paths: Vec<&FieldPath> = e.fields.iter().filter(|p| changed.contains(*p)).collect();
        paths.sort_by(|a, b| set_order(a, b));
        for p in paths {
            out.push(Conflict {
                manager: e.manager.clone(),
                operation: e.operation,
                subresource: e.subresource.clone(),
                api_version: e.api_version.clone(),
                time: e.time.clone(),
                path: p.clone(),
            });
        }
    }
    out
}

/// SMD `Updater.prune`, as far as it shows: what the applier's last `Apply`
/// set has and the new body does not, still in the object, owned by no other
/// manager. Only topmost paths are listed (a removed list item takes its
/// fields with it).
pub(super) fn removals_of(entries: &[ManagedEntry], body: &Tree<'_>, live: &Tree<'_>, manager: &str) -> Vec<FieldPath> {
    let me = applier_identifier(manager);
    let Some(last) = entries.iter().find(|e| e.identifier() == me) else { return Vec::new() };
    let others: Vec<&ManagedEntry> = entries.iter().filter(|e| e.identifier() != me).collect();
    let mut gone: Vec<&FieldPath> = last
        .fields
        .iter()
        .filter(|p| !body.members.contains(*p) && !body.nodes.contains_key(*p))
        .filter(|p| live.nodes.contains_key(*p))
        .filter(|p| !others.iter().any(|e| e.fields.contains(*p)))
        .collect();
    gone.sort();
    let mut out: Vec<FieldPath> = Vec::new();
    for p in gone {
        if !out.iter().any(|q| p.starts_with(q)) {
            out.push(p.clone());
        }
    }
    out
}

/// SMD `Set.Iterate` order: at each level the members first (sorted), then
/// the children (sorted), depth first.
pub(super) fn set_order(a: &FieldPath, b: &FieldPath) -> Ordering {
    let (a, b) = (&a.0, &b.0);
    let k = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    match (a.len() - k, b.len() - k) {
        (0, 0) => Ordering::Equal,
        // A path is a member of a level above its extensions.
        (0, _) => Ordering::Less,
        (_, 0) => Ordering::Greater,
        (1, n) if n > 1 => Ordering::Less,
        (n, 1) if n > 1 => Ordering::Greater,
        _ => a[k].cmp(&b[k]),
    }
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/// apimachinery `printManager` of a manager identifier: `"name"`, then
/// ` with subresource "s"`, then for `Update` ` using <apiVersion>` and, when
/// the identifier carries a time, ` at <RFC3339 UTC>`. A string that is not
/// an identifier prints quoted.
pub fn print_manager(identifier: &str) -> String {
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(identifier) else {
        return go_quote(identifier);
    };
    let text = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("");
    let mut out = go_quote(text("manager"));
    if !text("subresource").is_empty() {
        out.push_str(&format!(" with subresource {}", go_quote(text("subresource"))));
    }
    if text("operation") == "Update" {
        out.push_str(&format!(" using {}", text("apiVersion")));
        // Time.UTC().Format(RFC3339): stored times are already UTC seconds.
        if !text("time").is_empty() {
            out.push_str(&format!(" at {}", text("time")));
        }
    }
    out
}

/// apimachinery `getConflictMessage` over (manager identifier, path) pairs:
/// one conflict inline, several grouped by manager (identifiers sorted as
/// strings, paths in the given order).
pub fn server_conflict_message(conflicts: &[(String, FieldPath)]) -> String {
    if let [(m, p)] = conflicts {
        return format!("Apply failed with 1 conflict: conflict with {}: {p}", print_manager(m));
    }
    let mut groups: BTreeMap<&str, Vec<&FieldPath>> = BTreeMap::new();
    for (m, p) in conflicts {
        groups.entry(m.as_str()).or_default().push(p);
    }
    let mut lines = Vec::new();
    for (m, paths) in groups {
        lines.push(format!("conflicts with {}:", print_manager(m)));
        for p in paths {
            lines.push(format!("- {p}"));
        }
    }
    format!("Apply failed with {} conflicts: {}", conflicts.len(), lines.join("\n"))
}

/// Helm's error for a conflicting apply (`patchResourceServerSide`):
/// `conflict occurred while applying object <ns>/<name> <gvk>: <server
/// message>`, the GVK as `schema.GroupVersionKind.String()` prints it
/// (`apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap` for core).
pub fn conflict_message(namespace: &str, name: &str, api_version: &str, kind: &str, conflicts: &[Conflict]) -> String {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let pairs: Vec<(String, FieldPath)> =
        conflicts.iter().map(|c| (c.entry_identity().identifier(), c.path.clone())).collect();
    format!(
        "conflict occurred while applying object {namespace}/{name} {group}/{version}, Kind={kind}: {}",
        server_conflict_message(&pairs)
    )
}

/// The preview's wording for a forced apply: each field `helm` would take
/// over, with its current owner.
pub fn takeover_lines(conflicts: &[Conflict]) -> Vec<String> {
    conflicts.iter().map(|c| format!("would take over {} from {}", c.path, c.manager_text())).collect()
}
