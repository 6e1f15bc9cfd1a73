//! `--ignore PATH` and `--ignore Kind:PATH`: changes the user does not want
//! to see (a checksum annotation that changes on every render, replicas an
//! autoscaler owns) are removed from patches, drift and the exit code.

use serde_json::Value;

use crate::keypath::{Path, Seg};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreRule {
    /// Only objects of this kind, when given.
    pub kind: Option<String>,
    pub path: Path,
}

/// Parses `metadata.annotations.checksum/config` or `Deployment:spec.replicas`
/// (keys joined by `.`, a `.` inside a key written `\.`).
pub fn parse_ignore(text: &str) -> Result<IgnoreRule, String> {
    let (kind, path) = match text.split_once(':') {
        Some((k, p)) if !k.is_empty() && !k.contains('.') && k.chars().next().is_some_and(char::is_uppercase) => (Some(k.to_string()), p),
        _ => (None, text),
    };
    let path = Path::parse(path).map_err(|e| format!("--ignore {text}: {e}"))?;
    if path.is_root() {
        return Err(format!("--ignore {text}: name a field, e.g. spec.replicas or Deployment:spec.replicas"));
    }
    Ok(IgnoreRule { kind, path })
}

impl IgnoreRule {
    /// The rule as the user would write it.
    pub fn text(&self) -> String {
        match &self.kind {
            Some(k) => format!("{k}:{}", self.path),
            None => self.path.to_string(),
        }
    }

    pub fn applies_to(&self, kind: &str) -> bool {
        self.kind.as_deref().is_none_or(|k| k == kind)
    }

    /// Whether a printed drift path (`spec.replicas`, `spec.containers[0].image`) lies under this rule.
    /// Keys are compared with their dots, so `metadata.labels.helm.sh/chart`
    /// covers the key `helm.sh/chart` (printed `helm\.sh/chart`).
    pub fn covers(&self, printed: &str) -> bool {
        let Ok(p) = Path::parse(printed) else { return false };
        let (field, rule) = (dotted(&p), dotted(&self.path));
        field == rule || field.strip_prefix(&rule).is_some_and(|rest| rest.starts_with('.'))
    }

    /// Removes the field from a patch or apply body; maps left empty go too.
    pub fn remove_from(&self, patch: &mut Value) {
        remove(patch, &self.path.0);
    }

    /// Whether the field exists in `v` (for the warning about rules that match nothing).
    pub fn matches(&self, v: &Value) -> bool {
        found(v, &self.path.0)
    }

    /// Gives the field of `after` the value it has in `before` (or removes
    /// it), so that a diff no longer shows it changing.
    pub fn reset(&self, after: &mut Value, before: Option<&Value>) {
        reset(after, before, &self.path.0);
    }
}

/// A path's keys joined by dots as written, list indexes left out.
fn dotted(p: &Path) -> String {
    p.0.iter().filter_map(|s| if let Seg::Key(k) = s { Some(k.as_str()) } else { None }).collect::<Vec<_>>().join(".")
}

/// The key of `m` that the leading keys of `path` name, and how many
/// segments it takes: the first key as written, else several keys joined by
/// dots (`helm` `sh/chart` -> `helm.sh/chart`), as people write label keys.
fn resolve_key(m: &serde_json::Map<String, Value>, path: &[Seg]) -> Option<(String, usize)> {
    let mut key = String::new();
    for (n, seg) in path.iter().enumerate() {
        let Seg::Key(k) = seg else { break };
        if n > 0 {
            key.push('.');
        }
        key.push_str(k);
        if m.contains_key(&key) {
            return Some((key, n + 1));
        }
    }
    None
}

fn found(v: &Value, path: &[Seg]) -> bool {
    let Some(first) = path.first() else { return true };
    match (first, v) {
        (Seg::Key(_), Value::Object(m)) => resolve_key(m, path).is_some_and(|(k, used)| found(&m[&k], &path[used..])),
        (Seg::Key(_), Value::Array(items)) => items.iter().any(|i| found(i, path)),
        (Seg::Index(i), Value::Array(items)) => items.get(*i).is_some_and(|x| found(x, &path[1..])),
        _ => false,
    }
}

fn reset(after: &mut Value, before: Option<&Value>, path: &[Seg]) {
    let Some(first) = path.first() else { return };
    match (first, after) {
        (Seg::Key(_), Value::Object(m)) => {
            let Some((k, used)) = resolve_key(m, path) else { return };
            let before_child = before.and_then(|b| b.get(&k));
            if used == path.len() {
                match before_child {
                    Some(b) => {
                        m.insert(k, b.clone());
                    }
                    None => {
                        m.remove(&k);
                    }
                }
            } else if let Some(child) = m.get_mut(&k) {
                reset(child, before_child, &path[used..]);
            }
        }
        (Seg::Key(_), Value::Array(items)) => {
            for (i, item) in items.iter_mut().enumerate() {
                reset(item, before.and_then(|b| b.get(i)), path);
            }
        }
        (Seg::Index(i), Value::Array(items)) => {
            if let Some(item) = items.get_mut(*i) {
                reset(item, before.and_then(|b| b.get(*i)), &path[1..]);
            }
        }
        _ => {}
    }
}

/// Removes `path` (list indexes in the rule match every element), pruning maps emptied by it.
fn remove(v: &mut Value, path: &[Seg]) {
    let Some(first) = path.first() else { return };
    match (first, v) {
        (Seg::Key(_), Value::Object(m)) => {
            let Some((k, used)) = resolve_key(m, path) else { return };
            let (k, rest) = (&k, &path[used..]);
            if rest.is_empty() {
                m.remove(k);
            } else if let Some(child) = m.get_mut(k) {
                remove(child, rest);
                if child.as_object().is_some_and(|c| c.is_empty()) {
                    m.remove(k);
                }
            }
            // Strategic patches keep list order directives beside the list; they go with it.
            if rest.is_empty() {
                m.remove(&format!("$setElementOrder/{k}"));
            }
        }
        (Seg::Key(_), Value::Array(items)) => {
            for item in items.iter_mut() {
                remove(item, path);
            }
        }
        (Seg::Index(i), Value::Array(items)) => {
            if let Some(item) = items.get_mut(*i) {
                remove(item, &path[1..]);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ignore_rules_parse_with_and_without_a_kind() {
        assert_eq!(parse_ignore("Deployment:spec.replicas").unwrap().kind.as_deref(), Some("Deployment"));
        let r = parse_ignore("metadata.annotations.checksum/config").unwrap();
        assert_eq!(r.kind, None);
        assert_eq!(r.path.0.len(), 3);
        assert!(parse_ignore("").is_err());
    }

    #[test]
    fn ignored_fields_leave_the_patch_and_empty_maps_go_with_them() {
        let mut p = json!({"spec": {"replicas": 3}, "metadata": {"annotations": {"checksum/config": "abc"}}});
        parse_ignore("spec.replicas").unwrap().remove_from(&mut p);
        parse_ignore("metadata.annotations.checksum/config").unwrap().remove_from(&mut p);
        assert_eq!(p, json!({}));
    }

    #[test]
    fn a_dotted_label_key_can_be_written_without_escapes() {
        let r = parse_ignore("metadata.labels.helm.sh/chart").unwrap();
        let mut p = json!({"metadata": {"labels": {"helm.sh/chart": "c-2", "app": "a"}}});
        assert!(r.matches(&p));
        r.remove_from(&mut p);
        assert_eq!(p, json!({"metadata": {"labels": {"app": "a"}}}));
        assert!(r.covers("metadata.labels.helm\\.sh/chart"));
        assert!(!r.covers("metadata.labels.helm\\.sh/chartx"));
        assert!(!parse_ignore("spec.replicaz").unwrap().matches(&json!({"spec": {"replicas": 1}})));
    }

    #[test]
    fn reset_gives_the_field_its_value_before() {
        let r = parse_ignore("spec.replicas").unwrap();
        let mut after = json!({"spec": {"replicas": 2, "x": 1}});
        r.reset(&mut after, Some(&json!({"spec": {"replicas": 5, "x": 0}})));
        assert_eq!(after, json!({"spec": {"replicas": 5, "x": 1}}));
        r.reset(&mut after, Some(&json!({"spec": {}})));
        assert_eq!(after, json!({"spec": {"x": 1}}));
    }

    #[test]
    fn rules_cover_drift_paths_below_them() {
        let r = parse_ignore("spec.template.spec.containers.image").unwrap();
        assert!(r.covers("spec.template.spec.containers[0].image"));
        assert!(!r.covers("spec.replicas"));
    }
}
