//! `rollback-preview`: what `helm rollback RELEASE [REVISION]` would do.
//! helm: pkg/action/rollback.go (v4.2.3). The current release is the last
//! revision whatever its status (`Releases.Last`, no pending check); the
//! target is REVISION, or the one before the current when it is 0 or left
//! out; the new revision is current + 1 and carries the target's chart,
//! config, manifest and hooks. Helm then runs `Update(current manifest ->
//! target manifest)` with the apply method of the target revision, always
//! moving its client-side field ownership first, and with every object's
//! ownership metadata forced (no ownership check).

use super::run::{PreviewError, Start};
use crate::release::Release;
use crate::release::history::{Baseline, BaselineReason};

/// Where a rollback starts and what it goes to.
pub struct RollbackStart<'r> {
    pub current: &'r Release,
    pub target: &'r Release,
    pub next_revision: i64,
}

impl<'r> RollbackStart<'r> {
    /// The start of the object pipeline: the current release's manifest is
    /// what the objects are patched from; the target's apply method decides
    /// `--server-side auto` (pkg/action/rollback.go prepareRollback).
    pub fn pipeline_start(&self) -> Start<'r> {
        let base = Baseline {
            revision: self.current.version(),
            reason: BaselineReason::Rollback { to: self.target.version(), status: self.current.status() },
            next_revision: self.next_revision,
        };
        Start { base, baseline: self.current, apply_method_from: self.target }
    }
}

/// Helm's choice of current and target, failing as `helm rollback` fails.
/// `revision` 0 means the previous one (the CLI's default).
pub fn rollback_start<'r>(releases: &[&'r Release], revision: i64) -> Result<RollbackStart<'r>, PreviewError> {
    if revision < 0 {
        return Err(PreviewError::Rollback("invalid release revision".into()));
    }
    // storage.Last: the highest revision (driver.ErrReleaseNotFound without records).
    let Some(current) = releases.iter().copied().max_by_key(|r| r.version()) else {
        return Err(PreviewError::Rollback("release: not found".into()));
    };
    let wanted = if revision == 0 { current.version() - 1 } else { revision };
    let Some(target) = releases.iter().copied().find(|r| r.version() == wanted) else {
        return Err(PreviewError::Rollback(format!("release has no {wanted} version")));
    };
    Ok(RollbackStart { current, target, next_revision: current.version() + 1 })
}

/// The target record's manifest followed by its hooks, as a render prints
/// them (`# Source:` headers), so that the hooks Helm runs are parsed as
/// hooks of the new manifest.
pub fn target_manifest(target: &Release) -> String {
    let mut text = target.manifest().to_string();
    for hook in target.hooks() {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("---\n# Source: {}\n{}\n", hook.path, hook.manifest.trim_end_matches('\n')));
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn release(version: i64, status: &str) -> Release {
        Release::from_value(json!({"name": "web", "namespace": "prod", "version": version, "info": {"status": status}, "manifest": format!("# v{version}\n"),
            "hooks": [{"name": "migrate", "kind": "Job", "path": "web/templates/job.yaml", "manifest": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    helm.sh/hook: pre-rollback\n", "events": ["pre-rollback"]}]}))
        .unwrap()
    }

    #[test]
    fn the_default_target_is_the_revision_before_the_last_whatever_its_status() {
        let (a, b, c) = (release(1, "superseded"), release(2, "deployed"), release(3, "failed"));
        let all = [&a, &b, &c];
        let start = rollback_start(&all, 0).unwrap();
        assert_eq!((start.current.version(), start.target.version(), start.next_revision), (3, 2, 4));
        let start = rollback_start(&all, 1).unwrap();
        assert_eq!(start.target.version(), 1);
    }

    #[test]
    fn a_missing_target_fails_with_helms_words() {
        let a = release(1, "deployed");
        let err = |r| rollback_start(&[&a], r).err().map(|e| e.to_string());
        assert_eq!(err(0).as_deref(), Some("helm rollback would fail with: release has no 0 version"));
        assert_eq!(err(7).as_deref(), Some("helm rollback would fail with: release has no 7 version"));
        assert_eq!(err(-1).as_deref(), Some("helm rollback would fail with: invalid release revision"));
        assert_eq!(rollback_start(&[], 0).err().map(|e| e.to_string()).as_deref(), Some("helm rollback would fail with: release: not found"));
    }

    #[test]
    fn the_target_manifest_carries_its_hooks() {
        let text = target_manifest(&release(1, "deployed"));
        assert!(text.starts_with("# v1\n---\n# Source: web/templates/job.yaml\napiVersion: batch/v1\n"), "{text}");
    }
}
