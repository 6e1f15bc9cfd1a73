//! `rollback-preview RELEASE [REVISION]` (`helm preview rollback ...`): what
//! `helm rollback` would do. Flags and inputs resolved here; the plan comes
//! from [`crate::upgrade`] (the same object pipeline as upgrade-preview, fed
//! the current and the target records), printed by [`super::views::rollback`].

use std::path::PathBuf;

use clap::Args;

use super::args::{SourceArgs, StorageDriver, parse_driver};
use super::views::rollback::{RollbackHead, RollbackView, report};
use super::{Ctx, HELM_WOULD_FAIL, Outcome, inputs};
use crate::release::{self, Release};
use crate::upgrade::{IgnoreRule, ManifestSource, ObjectsRequest, Operation, PreviewError, has_changes};

#[derive(Debug, Args)]
pub struct RollbackPreviewArgs {
    /// The release to roll back
    pub release: String,
    /// The revision to roll back to (default: the one before the last, as helm rollback)
    pub revision: Option<String>,
    /// As helm rollback --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)
    #[arg(long, conflicts_with = "force_conflicts")]
    pub force_replace: bool,
    /// Deprecated spelling of --force-replace (Helm 3's --force)
    #[arg(long, conflicts_with = "force_conflicts")]
    pub force: bool,
    /// As helm rollback --force-conflicts (server-side apply)
    #[arg(long)]
    pub force_conflicts: bool,
    /// As helm rollback --server-side: auto follows the target revision's apply method
    #[arg(long, value_name = "auto|true|false", default_value = "auto")]
    pub server_side: String,
    /// As helm rollback --no-hooks: the target's pre-/post-rollback hooks do not run
    #[arg(long)]
    pub no_hooks: bool,
    /// Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this rollback
    #[arg(long, value_name = "N", env = "HELM_MAX_HISTORY", hide_env_values = true, default_value_t = 10)]
    pub history_max: i64,
    /// Read the release's records from FILE instead of the cluster (as `release decode -f`; repeatable)
    #[arg(long = "release-file", value_name = "FILE")]
    pub release_files: Vec<PathBuf>,
    /// Helm storage driver (secret, configmap or sql)
    #[arg(long, env = "HELM_DRIVER", hide_env_values = true, value_parser = parse_driver, value_name = "DRIVER")]
    pub driver: Option<StorageDriver>,
    /// With --driver sql: PostgreSQL connection string
    #[arg(long, env = "HELM_DRIVER_SQL_CONNECTION_STRING", hide_env_values = true, value_name = "URL")]
    pub sql_connection: Option<String>,
    /// Contact no API server: the records come from --release-file (or --driver sql), each object of the target
    /// is compared with the current revision's stored manifest, and drift is unknown
    #[arg(long)]
    pub offline: bool,
    #[command(flatten)]
    pub objects: super::args::ObjectViewArgs,
    /// Exit 2 when the rollback changes an object, 0 when nothing changes; 3 when Helm would fail either way
    #[arg(long)]
    pub detailed_exitcode: bool,
    /// Last: its heading applies to the flags after it (see `cli::help`).
    #[command(flatten)]
    pub waits: RollbackWaitArgs,
}

/// `helm rollback` flags that change how Helm waits or recovers, not what it sends.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "helm rollback flags that do not change the plan (accepted, listed in a note)")]
pub struct RollbackWaitArgs {
    #[command(flatten)]
    pub waits: super::helm_flags::WaitArgs,
}

impl RollbackWaitArgs {
    fn given(&self) -> Vec<&'static str> {
        [
            (self.waits.wait.is_some(), "--wait"),
            (self.waits.wait_for_jobs, "--wait-for-jobs"),
            (self.waits.timeout.is_some(), "--timeout"),
            (self.waits.cleanup_on_fail, "--cleanup-on-fail"),
            (self.waits.dry_run.is_some(), "--dry-run"),
        ]
        .iter()
        .filter_map(|(on, f)| on.then_some(*f))
        .collect()
    }
}

/// What a view of the computed rollback preview gets.
pub(super) struct RollbackParts<'a> {
    pub head: &'a RollbackHead<'a>,
    pub objects: &'a crate::upgrade::ObjectsReport,
}

/// A view of the computed preview: fills the outcome's output and exit code.
pub(super) type Present<'p> = dyn Fn(&RollbackPreviewArgs, &Ctx, &RollbackParts, &mut Outcome) -> anyhow::Result<()> + 'p;

pub fn run(args: &RollbackPreviewArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    run_with(args, ctx, &present)
}

/// The rollback pipeline (records, current and target, plan), then
/// `present` (rollback-preview's report, or helm-diff's for `diff rollback`).
pub(super) fn run_with(args: &RollbackPreviewArgs, ctx: &Ctx, present: &Present<'_>) -> anyhow::Result<Outcome> {
    // helm: pkg/action/rollback.go prepareRollback (chartutil.ValidateReleaseName).
    anyhow::ensure!(release::is_valid_release_name(&args.release), "prepareRollback: Release name is invalid: {}", args.release);
    // helm: pkg/cmd/rollback.go (strconv.Atoi).
    let revision = match &args.revision {
        None => 0,
        Some(text) => text
            .parse::<i64>()
            .map_err(|_| anyhow::anyhow!("could not convert revision to a number: strconv.Atoi: parsing {text:?}: invalid syntax"))?,
    };
    if args.offline && args.release_files.is_empty() && args.driver != Some(StorageDriver::Sql) {
        anyhow::bail!("--offline contacts no API server, so the release records must come from --release-file FILE (e.g. `kubectl get secret -l owner=helm,name={} -o yaml > FILE`) or --driver sql", args.release);
    }
    let mut outcome = Outcome::default();
    if args.force {
        // pkg/cmd/rollback.go: MarkDeprecated("force", ...), as cobra prints it.
        outcome.warnings.push("Flag --force has been deprecated, use --force-replace instead".into());
    }
    let given = args.waits.given();
    if !given.is_empty() {
        outcome.notes.push(format!("{} accepted: they change how Helm waits or recovers, not what it sends, so the plan is the same", given.join(", ")));
    }
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    // Discovery is read beside the records (one round trip less).
    let prefetch = (!args.offline).then(|| crate::cluster::DiscoveryPrefetch::start(&target));
    let source = SourceArgs { files: args.release_files.clone(), driver: args.driver, sql_connection: args.sql_connection.clone() };
    let loaded = inputs::load(&source, Some(&args.release), ctx)?;
    let records = match release::decode_history(loaded.records, Some(&args.release), &loaded.place) {
        Ok(records) => records,
        // storage.Last finds nothing: driver.ErrReleaseNotFound.
        Err(release::ReleaseError::NoRecords { .. } | release::ReleaseError::NotFound { .. }) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    for r in &records {
        outcome.warnings.extend(r.warnings.iter().cloned());
    }
    let releases: Vec<&Release> = records.iter().map(|r| &r.release).collect();
    let start = crate::upgrade::rollback_start(&releases, revision)?;
    let history: Vec<(i64, release::Status)> = releases.iter().map(|r| (r.version(), r.status())).collect();
    let head = RollbackHead {
        release: &args.release,
        namespace: start.current.namespace().to_string(),
        current: start.current,
        target: start.target,
        next_revision: start.next_revision,
        history_max: args.history_max,
        pruned: crate::upgrade::pruned_by_history_max(&history, args.history_max),
    };
    let pipeline_start = start.pipeline_start();
    let ignore: Vec<IgnoreRule> = args.objects.ignore_rules()?;
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = |what: &str| {
        if on_terminal {
            eprintln!("{}", ctx.theme.dim(&format!("… {what}")));
        }
    };
    let request = ObjectsRequest {
        release: &args.release,
        namespace: &head.namespace,
        start: &pipeline_start,
        chart: None,
        manifest: ManifestSource::Given(crate::upgrade::target_manifest(start.target)),
        target: &target,
        server_side: &args.server_side,
        // setMetadataVisitor(..., forceOwnership=true): no ownership check.
        take_ownership: true,
        no_hooks: args.no_hooks,
        offline: args.offline,
        operation: Operation::Rollback,
        force_replace: args.force_replace || args.force,
        create_namespace: false,
        skip_crds: true,
        force_conflicts: args.force_conflicts,
        ignore: &ignore,
        show_secrets: args.objects.show_secrets,
        concurrency: args.objects.concurrency,
        progress: &progress,
        why: false,
        discovery: prefetch.as_ref(),
    };
    let report_objects = crate::upgrade::preview_objects(&request).map_err(|e| match e {
        // pkg/action/rollback.go performRollback: the current manifest must build.
        PreviewError::BaselineManifest { source, .. } => {
            PreviewError::Rollback(format!("unable to build kubernetes objects from current release manifest: {source}"))
        }
        e @ (PreviewError::UnknownKind { .. } | PreviewError::ManifestFails(_)) => {
            PreviewError::Rollback(format!("unable to build kubernetes objects from new release manifest: {e}"))
        }
        other => other,
    })?;
    present(args, ctx, &RollbackParts { head: &head, objects: &report_objects }, &mut outcome)?;
    Ok(outcome)
}

/// rollback-preview's own report and exit codes.
fn present(args: &RollbackPreviewArgs, ctx: &Ctx, parts: &RollbackParts, outcome: &mut Outcome) -> anyhow::Result<()> {
    let (head, report_objects) = (parts.head, parts.objects);
    let view = RollbackView {
        show_secrets: args.objects.show_secrets,
        objects: args.objects.view(),
    };
    let (stdout, warnings) = report(head, report_objects, &view, ctx)?;
    outcome.stdout = stdout;
    outcome.warnings.extend(warnings);
    if report_objects.plan.failure.is_some() {
        outcome.exit_code = Some(HELM_WOULD_FAIL);
    } else if args.detailed_exitcode && has_changes(&report_objects.plan) {
        outcome.exit_code = Some(2);
    }
    Ok(())
}
