//! What `helm upgrade` writes into storage besides the values and the
//! manifest: the new record's description and labels, and which old
//! records it deletes.
//!
//! Labels (pkg/action/upgrade.go `mergeCustomLabels`,
//! pkg/storage/driver/util.go): the last record's custom labels (its
//! storage object's labels without Helm's system labels) with `--labels`
//! merged over them; a label given the value `null` is removed. A system
//! label name in `--labels` fails the upgrade before anything is sent.
//! The description is `--description`, else "Upgrade complete" once the
//! upgrade succeeds.
//!
//! Pruning: pkg/storage/storage.go (`Create`, `removeLeastRecent`). `helm
//! upgrade` sets `MaxHistory` from `--history-max` (default 10; 0 or less:
//! no limit). Creating the new record first "makes space for one more":
//! when the release has more than `max - 1` records, the oldest are deleted,
//! oldest first, until `max - 1` remain, except the last deployed revision,
//! which is never deleted (so with `--history-max 1` it remains beside the
//! new record).

use std::collections::BTreeMap;

use crate::release::Status;

/// Helm's own labels on a storage object (pkg/storage/driver/util.go).
pub const SYSTEM_LABELS: [&str; 6] = ["name", "owner", "status", "version", "createdAt", "modifiedAt"];

/// The labels of the new record, or Helm's error for a system label.
pub fn record_labels(last: &BTreeMap<String, String>, given: &BTreeMap<String, String>) -> Result<BTreeMap<String, String>, String> {
    if given.keys().any(|k| SYSTEM_LABELS.contains(&k.as_str())) {
        return Err(format!("user supplied labels contains system reserved label name. System labels: [{}]", SYSTEM_LABELS.join(" ")));
    }
    let mut labels: BTreeMap<String, String> = last.iter().filter(|(k, _)| !SYSTEM_LABELS.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
    labels.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    labels.retain(|_, v| v != "null");
    Ok(labels)
}

/// The revisions Helm deletes, oldest first, given the release's records
/// as `(revision, status)` in any order.
pub fn pruned_by_history_max(records: &[(i64, Status)], history_max: i64) -> Vec<i64> {
    if history_max <= 0 {
        return Vec::new();
    }
    let keep = history_max - 1;
    let total = records.len() as i64;
    if total <= keep {
        return Vec::new();
    }
    let mut oldest_first: Vec<(i64, Status)> = records.to_vec();
    oldest_first.sort_by_key(|(revision, _)| *revision);
    // Storage.Deployed: the highest revision whose status is deployed.
    let last_deployed = oldest_first.iter().rev().find(|(_, s)| *s == Status::Deployed).map(|(r, _)| *r);
    let mut deleted = Vec::new();
    for (revision, _) in &oldest_first {
        if total - deleted.len() as i64 == keep {
            break;
        }
        if Some(*revision) != last_deployed {
            deleted.push(*revision);
        }
    }
    deleted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn labels_merge_over_the_last_records_custom_labels_and_null_removes_one() {
        let last = map(&[("name", "web"), ("owner", "helm"), ("status", "deployed"), ("team", "a"), ("tier", "web")]);
        let labels = record_labels(&last, &map(&[("team", "b"), ("tier", "null"), ("new", "x")])).unwrap();
        assert_eq!(labels, map(&[("new", "x"), ("team", "b")]));
    }

    #[test]
    fn a_system_label_fails_as_helm_fails() {
        let e = record_labels(&BTreeMap::new(), &map(&[("owner", "me")])).unwrap_err();
        assert_eq!(e, "user supplied labels contains system reserved label name. System labels: [name owner status version createdAt modifiedAt]");
    }
    use Status::{Deployed, Failed, Superseded};

    #[test]
    fn below_the_limit_nothing_is_deleted() {
        assert!(pruned_by_history_max(&[(1, Superseded), (2, Deployed)], 10).is_empty());
        assert!(pruned_by_history_max(&[(1, Superseded), (2, Deployed)], 3).is_empty());
        assert!(pruned_by_history_max(&[(1, Superseded), (2, Deployed)], 0).is_empty());
    }

    #[test]
    fn the_oldest_records_make_space_for_the_new_one() {
        let records: Vec<(i64, Status)> = (1..=10).map(|r| (r, if r == 10 { Deployed } else { Superseded })).collect();
        assert_eq!(pruned_by_history_max(&records, 10), vec![1]);
        assert_eq!(pruned_by_history_max(&records, 3), (1..=8).collect::<Vec<_>>());
        assert_eq!(pruned_by_history_max(&records, 1), (1..=9).collect::<Vec<_>>());
    }

    #[test]
    fn the_last_deployed_revision_is_kept_and_still_counts() {
        // Revision 1 deployed, 2..4 failed: with --history-max 2 Helm wants
        // 1 record left and keeps revision 1, so 2, 3 and 4 go.
        let records = [(4, Failed), (1, Deployed), (2, Failed), (3, Failed)];
        assert_eq!(pruned_by_history_max(&records, 2), vec![2, 3, 4]);
        // --history-max 1 wants none left, but the deployed one stays.
        let records = [(1, Superseded), (2, Superseded), (3, Deployed)];
        assert_eq!(pruned_by_history_max(&records, 1), vec![1, 2]);
    }
}
