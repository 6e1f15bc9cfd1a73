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
    pub fn applies_to(&self, kind: &str) -> bool {
        self.kind.as_deref().is_none_or(|k| k == kind)
    }

    /// Whether a printed drift path (`spec.replicas`, `spec.containers[0].image`) lies under this rule.
    pub fn covers(&self, printed: &str) -> bool {
        Path::parse(printed).is_ok_and(|p| strip_indexes(&p).starts_with(&strip_indexes(&self.path)))
    }

    /// Removes the field from a patch or apply body; maps left empty go too.
    pub fn remove_from(&self, patch: &mut Value) {
        remove(patch, &self.path.0);
    }
}

fn strip_indexes(p: &Path) -> Path {
    Path(p.0.iter().filter(|s| matches!(s, Seg::Key(_))).cloned().collect())
}

/// Removes `path` (list indexes in the rule match every element), pruning maps emptied by it.
fn remove(v: &mut Value, path: &[Seg]) {
    let Some((first, rest)) = path.split_first() else { return };
    match (first, v) {
        (Seg::Key(k), Value::Object(m)) => {
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
                remove(item, rest);
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
    fn rules_cover_drift_paths_below_them() {
        let r = parse_ignore("spec.template.spec.containers.image").unwrap();
        assert!(r.covers("spec.template.spec.containers[0].image"));
        assert!(!r.covers("spec.replicas"));
    }
}
