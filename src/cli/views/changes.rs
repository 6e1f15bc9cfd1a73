//! The value changes of an upgrade put into words, grouped by cause with the
//! risky ones first; shared by the text and markdown views.

use std::collections::HashMap;

use serde_json::Value;

use super::explain::short;
use super::upgrade::{Head, shown};
use crate::explain::entries::Entry;
use crate::keypath::Path;
use crate::upgrade::{Change, ChangeKind, ModeOutcome, why_config_is_dropped};

/// The groups of value changes, the risky ones first (new chart defaults
/// are apart: most upgrades have many, and they are collapsed to a count).
const CHANGE_GROUPS: &[(&[ChangeKind], &str)] = &[
    (&[ChangeKind::Dropped], "Stored values the value mode drops"),
    (&[ChangeKind::IgnoredNewDefault], "New chart defaults the value mode does not apply"),
    (&[ChangeKind::Deleted, ChangeKind::NullNotApplied], "Nulls"),
    (&[ChangeKind::Removed], "Keys the new chart no longer has"),
    (&[ChangeKind::Set, ChangeKind::Kept], "Changed values"),
];

pub const MASKED_NOTE: &str = "values under keys that look secret are masked (--show-secrets shows them)";

pub use crate::manifest::secrets::mask_expression;

/// Values under keys that look secret are masked in the value changes
/// unless `--show-secrets` ([`crate::manifest::secrets::SECRET_KEY_WORDS`]).
pub fn looks_secret(path: &Path) -> bool {
    crate::manifest::secrets::key_looks_secret(&path.to_string())
}

pub struct Group<'a> {
    pub heading: &'static str,
    pub risky: bool,
    /// Why the whole group happens (said once, not per key).
    pub why: Option<&'static str>,
    pub changes: Vec<&'a Change>,
}

/// The changes `--key` selects, with what is needed to word them.
pub struct ChangeWords<'a> {
    pub changes: Vec<&'a Change>,
    outcome: &'a ModeOutcome,
    revision: i64,
    show_secrets: bool,
    sources: HashMap<&'a Path, &'a Entry>,
}

impl<'a> ChangeWords<'a> {
    pub fn new(h: &Head, o: &'a ModeOutcome, keys: &[Path], show_secrets: bool) -> Self {
        ChangeWords {
            changes: o.changes.iter().filter(|c| shown(&c.path, keys)).collect(),
            outcome: o,
            revision: h.base.revision,
            show_secrets,
            sources: o.entries.iter().map(|e| (&e.path, e)).collect(),
        }
    }

    fn masked(&self, c: &Change) -> bool {
        !self.show_secrets && looks_secret(&c.path)
    }

    pub fn any_masked(&self) -> bool {
        self.changes.iter().any(|c| self.masked(c))
    }

    /// Before and after, short.
    pub fn values(&self, c: &Change) -> (String, String) {
        let show = |v: &Option<Value>| match v {
            None => "(absent)".to_string(),
            Some(_) if self.masked(c) => "<masked>".to_string(),
            Some(v) => short(v),
        };
        (show(&c.before), show(&c.after))
    }

    /// The cause in a few words: a dropped value says where its value now
    /// comes from (its group says why it is dropped).
    pub fn brief(&self, c: &Change) -> String {
        match (c.kind, self.sources.get(&c.path).and_then(|e| e.source.as_ref())) {
            (ChangeKind::Dropped, Some(now)) => {
                let mut text = format!("was in revision {}'s config; now ", self.revision);
                now.describe_into(&mut text);
                text
            }
            (ChangeKind::Dropped, None) => format!("was in revision {}'s config; now absent", self.revision),
            // A flag's expression holds the value: keep the flag and the key, not the value.
            _ if self.masked(c) => mask_expression(&c.cause),
            _ => c.cause.clone(),
        }
    }

    /// The groups that have changes, in [`CHANGE_GROUPS`] order; in each, the
    /// values whose type changes first (risky whatever their cause).
    pub fn groups(&self) -> Vec<Group<'a>> {
        let type_changes = |c: &Change| matches!((&c.before, &c.after), (Some(a), Some(b)) if std::mem::discriminant(a) != std::mem::discriminant(b));
        let mut out = Vec::new();
        for (kinds, heading) in CHANGE_GROUPS {
            let mut changes: Vec<&Change> = self.changes.iter().copied().filter(|c| kinds.contains(&c.kind)).collect();
            if changes.is_empty() {
                continue;
            }
            changes.sort_by_key(|c| !type_changes(c));
            out.push(Group {
                heading,
                risky: matches!(kinds[0], ChangeKind::Dropped | ChangeKind::IgnoredNewDefault | ChangeKind::Deleted),
                why: (kinds[0] == ChangeKind::Dropped).then(|| why_config_is_dropped(self.outcome.mode)),
                changes,
            });
        }
        out
    }

    pub fn new_defaults(&self) -> Vec<&'a Change> {
        self.changes.iter().copied().filter(|c| c.kind == ChangeKind::NewDefault).collect()
    }

    /// The count of new chart defaults and how to see them.
    pub fn new_defaults_line(&self) -> String {
        let n = self.new_defaults().len();
        let and = if n == self.changes.len() { "" } else { "and " };
        format!("{and}{n} new chart default{} (--show-values lists them, with every value the templates see)", if n == 1 { "" } else { "s" })
    }
}
