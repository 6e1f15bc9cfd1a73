//! Which release records Helm deletes when it writes the new revision.
//!
//! helm: pkg/storage/storage.go (`Create`, `removeLeastRecent`). `helm
//! upgrade` sets `MaxHistory` from `--history-max` (default 10; 0 or less:
//! no limit). Creating the new record first "makes space for one more":
//! when the release has more than `max - 1` records, the oldest are deleted,
//! oldest first, until `max - 1` remain, except the last deployed revision,
//! which is never deleted (so with `--history-max 1` it remains beside the
//! new record).

use crate::release::Status;

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
