//! Revision history and the baseline `helm upgrade` would choose.
//! helm: pkg/action/upgrade.go prepareUpgrade; pkg/cmd/history.go

use super::record::{Release, Status};

/// One row of `release history`, with the keys of its JSON form.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HistoryRow {
    pub revision: i64,
    pub updated: Option<String>,
    pub status: Status,
    pub chart: String,
    pub app_version: String,
    pub apply_method: &'static str,
    pub description: String,
}

impl HistoryRow {
    pub fn of(r: &Release) -> HistoryRow {
        HistoryRow {
            revision: r.version(),
            updated: r.last_deployed().map(str::to_string),
            status: r.status(),
            chart: r.chart_ref(),
            app_version: r.app_version().to_string(),
            apply_method: r.apply_method().as_str(),
            description: r.description().to_string(),
        }
    }
}

/// Why a revision is the baseline of the next upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaselineReason {
    LastIsDeployed,
    /// The last revision is not deployed; the newest deployed one is used.
    NewestDeployed { last: i64, last_status: Status },
    /// Nothing was ever deployed and the last revision failed or was superseded.
    LastWithoutDeployed { status: Status },
    /// `helm upgrade --install` installs: the release has no records, or its
    /// last record (in storage order) is uninstalled (`replaces` is then that
    /// record's revision, which Helm supersedes).
    Install { replaces: Option<i64> },
    /// `helm rollback` goes from the last revision, whatever its `status`,
    /// to revision `to` (pkg/action/rollback.go).
    Rollback { to: i64, status: Status },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Baseline {
    /// The revision whose values, chart and manifest the upgrade starts from.
    pub revision: i64,
    pub reason: BaselineReason,
    /// The revision number the upgrade will write: last + 1, failed ones count.
    pub next_revision: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaselineError {
    /// helm: pkg/action/action.go errPending
    #[error("another operation (install/upgrade/rollback) is in progress")]
    Pending { revision: i64, status: Status },
    /// helm: pkg/storage/driver/driver.go NewErrNoDeployedReleases
    #[error("{name:?} has no deployed releases")]
    NoDeployed { name: String, last_status: Option<Status> },
}

/// Chooses the baseline exactly as `Upgrade.prepareUpgrade` does.
/// `releases` must be the revisions of one release, in any order.
pub fn baseline(name: &str, releases: &[&Release]) -> Result<Baseline, BaselineError> {
    let Some(last) = releases.iter().max_by_key(|r| r.version()) else {
        return Err(BaselineError::NoDeployed { name: name.to_string(), last_status: None });
    };
    let next_revision = last.version() + 1;
    let last_status = last.status();
    if last_status.is_pending() {
        return Err(BaselineError::Pending { revision: last.version(), status: last_status });
    }
    if last_status == Status::Deployed {
        return Ok(Baseline { revision: last.version(), reason: BaselineReason::LastIsDeployed, next_revision });
    }
    // Several deployed revisions mean a corrupted history; Helm takes the highest.
    if let Some(deployed) = releases.iter().filter(|r| r.status() == Status::Deployed).max_by_key(|r| r.version()) {
        return Ok(Baseline {
            revision: deployed.version(),
            reason: BaselineReason::NewestDeployed { last: last.version(), last_status },
            next_revision,
        });
    }
    if matches!(last_status, Status::Failed | Status::Superseded) {
        return Ok(Baseline {
            revision: last.version(),
            reason: BaselineReason::LastWithoutDeployed { status: last_status },
            next_revision,
        });
    }
    Err(BaselineError::NoDeployed { name: name.to_string(), last_status: Some(last_status) })
}

/// What the state of a history means for the next `helm upgrade`: a word
/// for scripts, the explanation, and the safe remedy when the upgrade would fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `ok`, `several-deployed`, `last-not-deployed`, `never-deployed`, `pending` or `no-deployed`.
    pub state: &'static str,
    pub message: String,
    pub remedy: Option<String>,
}

impl Verdict {
    /// The verdict as one text (the message, then the remedy).
    pub fn text(&self) -> String {
        match &self.remedy {
            Some(r) => format!("{}{r}", self.message),
            None => self.message.clone(),
        }
    }
}

/// The [`Verdict`] of a history; `state` is `ok` (and the message empty)
/// when the latest revision is the only deployed one.
pub fn verdict(name: &str, releases: &[&Release]) -> Verdict {
    let deployed: Vec<i64> = releases.iter().filter(|r| r.status() == Status::Deployed).map(|r| r.version()).collect();
    let v = |state, message: String, remedy: Option<String>| Verdict { state, message, remedy };
    match baseline(name, releases) {
        Ok(Baseline { reason: BaselineReason::LastIsDeployed, .. }) if deployed.len() > 1 => v(
            "several-deployed",
            format!(
                "several revisions are marked deployed ({}); the history was interrupted or edited. Helm uses the highest as the upgrade baseline",
                join(&deployed)
            ),
            None,
        ),
        Ok(Baseline { reason: BaselineReason::LastIsDeployed, .. }) => v("ok", String::new(), None),
        Ok(Baseline { revision, reason: BaselineReason::NewestDeployed { last, last_status }, next_revision }) => v(
            "last-not-deployed",
            format!(
                "revision {last} is {last_status}; the next `helm upgrade` starts from revision {revision}, the newest deployed one (its values, chart and manifest), and will write revision {next_revision}"
            ),
            None,
        ),
        Ok(Baseline { revision, reason: BaselineReason::LastWithoutDeployed { status }, next_revision }) => v(
            "never-deployed",
            format!(
                "no revision was ever deployed; revision {revision} is {status} and the next `helm upgrade` starts from it (its values and manifest) and will write revision {next_revision}"
            ),
            None,
        ),
        // `baseline` never chooses an install or a rollback; only upgrade-preview --install and rollback-preview do.
        Ok(Baseline { reason: BaselineReason::Install { .. } | BaselineReason::Rollback { .. }, .. }) => v("ok", String::new(), None),
        Err(BaselineError::Pending { revision, status }) => {
            let target = deployed.last().map_or_else(
                || "or, if nothing was ever deployed, `helm uninstall` and install again".to_string(),
                |d| format!("`helm rollback {name} {d}` (revision {d} is the last deployed one)"),
            );
            v(
                "pending",
                format!(
                    "revision {revision} is {status}: Helm treats the release as locked and refuses `helm upgrade` with \"another operation (install/upgrade/rollback) is in progress\". "
                ),
                Some(format!(
                    "First make sure no helm process (a CI job, another terminal) is still working on this release. If none is, the operation died midway; the safe remedy is {target}. Do not delete the record by hand"
                )),
            )
        }
        Err(BaselineError::NoDeployed { last_status, .. }) => match last_status {
            Some(Status::Uninstalled) => v(
                "no-deployed",
                format!("the release was uninstalled with --keep-history; `helm upgrade` fails with `{name:?} has no deployed releases`. "),
                Some(format!(
                    "`helm upgrade --install` installs it again (replacing the uninstalled revision), or `helm rollback {name} N` restores a former revision"
                )),
            ),
            Some(s) => v(
                "no-deployed",
                format!("the last revision is {s} and no revision is deployed; `helm upgrade` fails with `{name:?} has no deployed releases`. "),
                Some(format!("Check that no uninstall is still running; then `helm uninstall {name}` and install again")),
            ),
            None => v("no-deployed", format!("no revisions: `helm upgrade` fails with `{name:?} has no deployed releases`"), None),
        },
    }
}

/// [`verdict`] as one text; `None` when the latest revision is deployed.
pub fn explain_state(name: &str, releases: &[&Release]) -> Option<String> {
    let v = verdict(name, releases);
    (v.state != "ok").then(|| v.text())
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rel(version: i64, status: &str) -> Release {
        Release::from_value(json!({"name": "demo", "version": version, "info": {"status": status}})).unwrap()
    }

    fn base(statuses: &[&str]) -> Result<Baseline, BaselineError> {
        let rels: Vec<Release> = statuses.iter().enumerate().map(|(i, s)| rel(i as i64 + 1, s)).collect();
        let refs: Vec<&Release> = rels.iter().collect();
        baseline("demo", &refs)
    }

    #[test]
    fn deployed_last_revision_is_the_baseline() {
        let b = base(&["superseded", "deployed"]).unwrap();
        assert_eq!((b.revision, b.next_revision), (2, 3));
    }

    #[test]
    fn failed_last_revision_falls_back_to_newest_deployed_and_still_counts() {
        let b = base(&["superseded", "deployed", "failed"]).unwrap();
        assert_eq!((b.revision, b.next_revision), (2, 4));
    }

    #[test]
    fn pending_last_revision_is_refused_with_helms_message() {
        let e = base(&["superseded", "deployed", "pending-upgrade"]).unwrap_err();
        assert_eq!(e.to_string(), "another operation (install/upgrade/rollback) is in progress");
    }

    #[test]
    fn failed_install_without_deployed_revision_is_the_baseline() {
        let b = base(&["failed"]).unwrap();
        assert_eq!(b.reason, BaselineReason::LastWithoutDeployed { status: Status::Failed });
    }

    #[test]
    fn uninstalled_without_deployed_revision_has_no_deployed_releases() {
        let e = base(&["superseded", "uninstalled"]).unwrap_err();
        assert_eq!(e.to_string(), "\"demo\" has no deployed releases");
    }

    #[test]
    fn highest_of_several_deployed_revisions_wins() {
        let b = base(&["deployed", "deployed", "failed"]).unwrap();
        assert_eq!(b.revision, 2);
    }
}
