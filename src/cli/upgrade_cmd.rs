//! `upgrade-preview RELEASE CHART [value flags] [mode flags]`: flags and
//! inputs resolved here, the preview computed by [`crate::upgrade`], printed
//! by [`super::views::upgrade`].

use std::io::Read;

use anyhow::Context as _;
use serde_json::{Map, Value};

use super::args::{OutputFormat, SourceArgs, UpgradePreviewArgs};
use super::inputs::{self, value_flags};
use super::HELM_WOULD_FAIL;
use super::views::upgrade::{ChartLabel, Head, PreviewView, compare_text, head_json, mode_json, preview, serialize};
use super::{Ctx, Outcome};
use crate::explain::Options;
use crate::keypath::Path;
use crate::release::{self, Release};
use crate::upgrade::{IgnoreRule, ManifestSource, Operation, Mode, ModeOutcome, ObjectsReport, ObjectsRequest, Start, Upgrade, has_changes, preview_mode, recommend};

pub fn run(args: &UpgradePreviewArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    run_with(args, ctx, Records::Read, &present)
}

/// Where the release's records come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Records {
    /// The storage the flags name (cluster, files, SQL).
    Read,
    /// None are read: a client-only preview of an install (helm-diff's
    /// `--dry-run=client`, which reads nothing from the cluster).
    Skip,
}

/// What the pipeline computed, for a view to print.
pub(super) struct Parts<'a> {
    pub head: &'a Head<'a>,
    pub start: &'a Start<'a>,
    pub mode: &'a ModeOutcome,
    pub objects: Option<&'a ObjectsReport>,
    pub keys: &'a [Path],
}

/// A view of the computed preview: fills the outcome's output and exit code.
pub(super) type Present = dyn Fn(&UpgradePreviewArgs, &Ctx, &Parts, &mut Outcome) -> anyhow::Result<()>;

/// The upgrade-preview pipeline (records, baseline, values of the mode,
/// render and plan), then `present` (upgrade-preview's report, or
/// helm-diff's).
pub(super) fn run_with(args: &UpgradePreviewArgs, ctx: &Ctx, from: Records, present: &Present) -> anyhow::Result<Outcome> {
    let keys: Vec<Path> = args.keys.iter().map(|k| Path::parse(k).map_err(anyhow::Error::msg)).collect::<anyhow::Result<_>>()?;
    // helm: pkg/action/upgrade.go (the regex details are dropped from the message)
    anyhow::ensure!(release::is_valid_release_name(&args.release), "release name is invalid: {}", args.release);
    let (located, chart) = inputs::chart(&args.chart, &args.pull, ctx)?;
    if from == Records::Read && args.offline && args.release_files.is_empty() && args.driver != Some(super::args::StorageDriver::Sql) {
        anyhow::bail!("--offline contacts no API server, so the release records must come from --release-file FILE (e.g. `kubectl get secret -l owner=helm,name={} -o yaml > FILE`) or --driver sql", args.release);
    }
    // Discovery is needed only to read live objects; read it while the records
    // are read (not when the objects part fails first for want of a renderer).
    let renders = args.manifest.is_some() || inputs::find_helm(ctx).is_some();
    let prefetch = (renders && !args.offline && !args.values_only && !args.compare_modes)
        .then(|| crate::cluster::DiscoveryPrefetch::start(&super::context::kube_target(&ctx.global, &ctx.env)));
    let (records, installs) = if from == Records::Skip { (Vec::new(), Some(None)) } else { records_or_install(args, ctx)? };
    let mut outcome = Outcome::default();
    for r in &records {
        outcome.warnings.extend(r.warnings.iter().cloned());
    }
    let releases: Vec<&Release> = records.iter().map(|r| &r.release).collect();
    let stand_in;
    let start = match installs {
        Some(replaces) => {
            stand_in = install_stand_in(args, ctx, &records)?;
            outcome.notes.extend(install_notes(args));
            crate::upgrade::install_start(&stand_in, replaces)
        }
        None => crate::upgrade::start(&args.release, &releases)?,
    };
    let install = installs.is_some();
    if args.force {
        // pkg/cmd/upgrade.go: MarkDeprecated("force", ...), as cobra prints it.
        outcome.warnings.push("Flag --force has been deprecated, use --force-replace instead".into());
    }
    let flags = value_flags(&args.flags)?;
    let mut read_file = super::inputs::set_file_reader;
    let options = Options { skip_schema_validation: args.skip_schema_validation };
    let up = Upgrade::new(&chart, start.baseline, &flags, &mut read_file, options)?;
    // Helm reads the last record's custom labels from its storage object.
    let last_labels = records.iter().max_by_key(|r| r.release.version()).map(|r| r.labels.clone()).unwrap_or_default();
    let history: Vec<(i64, release::Status)> = releases.iter().map(|r| (r.version(), r.status())).collect();
    let head = Head {
        release: &args.release,
        namespace: start.baseline.namespace().to_string(),
        base: start.base,
        chart: ChartLabel {
            name: chart.metadata.name.clone(),
            version: chart.metadata.version.clone(),
            reference: located.remote_reference().map(str::to_string),
        },
        history_max: args.record.history_max,
        pruned: crate::upgrade::pruned_by_history_max(&history, args.record.history_max),
        record_description: args.record.description.clone().unwrap_or_else(|| if install { "Install complete" } else { "Upgrade complete" }.into()),
        record_labels: crate::upgrade::record_labels(&last_labels, &args.record.labels()?).map_err(crate::upgrade::PreviewError::ReservedLabels)?,
        record_flags_given: args.record.description.is_some() || !args.record.labels.is_empty(),
    };
    for (flags, reason) in args.upgrade_only.not_changing_the_plan().into_iter().filter(|(f, _)| !(install && f == &["--skip-crds"])) {
        outcome.notes.push(format!("{} accepted: {reason}, so the plan is the same", flags.join(", ")));
    }

    if args.compare_modes {
        let outcomes: Vec<ModeOutcome> = Mode::ALL.iter().map(|m| preview_mode(&up, *m)).collect::<Result<_, _>>()?;
        let advice = recommend(&outcomes, start.base.revision);
        outcome.stdout = match ctx.format() {
            OutputFormat::Text => compare_text(&head, &outcomes, &advice.reason, &keys, ctx),
            format => {
                let modes: Map<String, Value> = outcomes.iter().map(|o| (o.mode.word().to_string(), mode_json(&head, o, &keys, args.objects.show_secrets))).collect();
                let mut doc = head_json(&head);
                doc.insert("modes".into(), Value::Object(modes));
                doc.insert("recommendation".into(), serde_json::json!({"mode": advice.mode.map(Mode::word), "reason": advice.reason}));
                serialize(&Value::Object(doc), format)?
            }
        };
        return Ok(outcome);
    }
    // An install takes the flags over the chart's defaults, which is what
    // --reset-values computes against the empty stand-in.
    let mode = if install { Mode::Reset } else { Mode::from_flags(args.reset_values, args.reuse_values, args.reset_then_reuse_values) };
    let ignored = if install { Vec::new() } else { ignored_mode_flags(args, mode) };
    let o = preview_mode(&up, mode)?;
    if let Some(message) = crate::explain::entries::unmatched_keys_message(&o.entries, &keys) {
        anyhow::bail!(message);
    }
    outcome.warnings.extend(ignored);
    let objects = if args.values_only {
        None
    } else {
        let report = objects_part(args, ctx, &head, &start, (&chart, located.path()), &o, prefetch.as_ref())?;
        outcome.warnings.extend(report.render_warnings.iter().cloned());
        Some(report)
    };
    present(args, ctx, &Parts { head: &head, start: &start, mode: &o, objects: objects.as_ref(), keys: &keys }, &mut outcome)?;
    Ok(outcome)
}

/// upgrade-preview's own report.
fn present(args: &UpgradePreviewArgs, ctx: &Ctx, parts: &Parts, outcome: &mut Outcome) -> anyhow::Result<()> {
    let (head, o, keys, objects) = (parts.head, parts.mode, parts.keys, parts.objects);
    let view = PreviewView {
        show_values: args.show_values,
        show_secrets: args.objects.show_secrets,
        objects: args.objects.view(),
    };
    let (stdout, warnings) = preview(head, o, keys, objects, &view, ctx)?;
    outcome.stdout = stdout;
    outcome.warnings.extend(warnings);
    let changes = match objects {
        Some(ObjectsReport { plan, .. }) => has_changes(plan),
        // Without the objects, a value that changes is the change.
        None => !o.changes.is_empty(),
    };
    if objects.is_some_and(|r| r.plan.failure.is_some()) {
        outcome.exit_code = Some(HELM_WOULD_FAIL);
    } else if args.detailed_exitcode && changes {
        outcome.exit_code = Some(2);
    }
    Ok(())
}

/// The objects part: flags and environment resolved, then [`crate::upgrade::preview_objects`].
fn objects_part(
    args: &UpgradePreviewArgs,
    ctx: &Ctx,
    head: &Head,
    start: &Start,
    (chart, chart_path): (&crate::chart::Chart, &std::path::Path),
    mode: &ModeOutcome,
    discovery: Option<&crate::cluster::DiscoveryPrefetch>,
) -> anyhow::Result<ObjectsReport> {
    let ignore: Vec<IgnoreRule> = args.objects.ignore_rules()?;
    let manifest = match &args.manifest {
        Some(path) => ManifestSource::Given(read_manifest(path)?),
        None => ManifestSource::Helm {
            chart_path,
            mode,
            helm_bin: inputs::find_helm(ctx),
            lookup: args.lookup,
            kube_context: ctx.global.context.clone(),
            kubeconfig: ctx.global.kubeconfig.clone(),
            options: args.render.options(),
            native: !args.render_with_helm,
        },
    };
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    // Only a person at a terminal wants to know what is slow.
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = |what: &str| {
        if on_terminal {
            eprintln!("{}", ctx.theme.dim(&format!("… {what}")));
        }
    };
    let install = matches!(start.base.reason, crate::release::history::BaselineReason::Install { .. });
    let request = ObjectsRequest {
        release: head.release,
        namespace: &head.namespace,
        start,
        chart: Some(chart),
        manifest,
        target: &target,
        // The install that `upgrade --install` runs always applies server-side (see `install_notes`).
        server_side: if install { "true" } else { &args.server_side },
        take_ownership: args.take_ownership,
        no_hooks: args.no_hooks,
        offline: args.offline,
        operation: if install { Operation::Install } else { Operation::Upgrade },
        force_replace: args.force_replace || args.force,
        create_namespace: args.create_namespace,
        skip_crds: args.upgrade_only.skip_crds,
        force_conflicts: args.force_conflicts,
        ignore: &ignore,
        show_secrets: args.objects.show_secrets,
        concurrency: args.objects.concurrency,
        discovery,
        progress: &progress,
        why: args.why,
    };
    Ok(crate::upgrade::preview_objects(&request)?)
}

/// Reads `--manifest FILE|-`.
fn read_manifest(path: &str) -> anyhow::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read the manifest from stdin")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the manifest {path}"))
    }
}

/// The release's records, and `Some(replaces)` when `--install` makes Helm
/// install instead (helm: pkg/cmd/upgrade.go): the release has no records,
/// or the last record the storage driver lists is uninstalled
/// (`isReleaseUninstalled` takes the last of the driver's list, which for
/// Secrets and ConfigMaps is in object-name order, so `.v9` comes after
/// `.v10`); `replaces` is then the highest revision, which the install
/// supersedes and counts from.
fn records_or_install(args: &UpgradePreviewArgs, ctx: &Ctx) -> anyhow::Result<(Vec<release::DecodedRecord>, Option<Option<i64>>)> {
    let source = SourceArgs { files: args.release_files.clone(), driver: args.driver, sql_connection: args.sql_connection.clone() };
    let loaded = inputs::load(&source, Some(&args.release), ctx)?;
    let records = match release::decode_history(loaded.records, Some(&args.release), &loaded.place) {
        Ok(records) => records,
        Err(release::ReleaseError::NoRecords { .. } | release::ReleaseError::NotFound { .. }) if args.install => return Ok((Vec::new(), Some(None))),
        Err(release::ReleaseError::NoRecords { place }) => {
            return Err(crate::upgrade::PreviewError::NoRecords { release: args.release.clone(), place }.into());
        }
        Err(e) => return Err(e.into()),
    };
    if !args.install {
        return Ok((records, None));
    }
    let listed_last = if records.iter().all(|r| r.object_name.is_some()) {
        records.iter().max_by(|a, b| a.object_name.cmp(&b.object_name))
    } else {
        records.iter().max_by_key(|r| r.release.version())
    };
    let uninstalled = listed_last.is_some_and(|r| r.release.status() == release::Status::Uninstalled);
    let highest = records.iter().map(|r| r.release.version()).max();
    Ok((records, uninstalled.then_some(highest)))
}

/// The empty release an install starts from: no config, no manifest, in
/// the namespace Helm installs into (the uninstalled record's, else
/// `-n`/`$HELM_NAMESPACE`/the context's, else `default`).
fn install_stand_in(args: &UpgradePreviewArgs, ctx: &Ctx, records: &[release::DecodedRecord]) -> anyhow::Result<Release> {
    let namespace = match records.last() {
        Some(r) => r.release.namespace().to_string(),
        None => super::context::release_namespace(&ctx.global, &ctx.env),
    };
    let raw = serde_json::json!({"name": args.release, "namespace": namespace, "version": 0, "info": {"status": "uninstalled"}, "manifest": "", "config": null, "chart": null});
    Ok(Release::from_value(raw)?)
}

/// What an install ignores of an upgrade command line.
fn install_notes(args: &UpgradePreviewArgs) -> Vec<String> {
    let mut notes = Vec::new();
    if args.reuse_values || args.reset_values || args.reset_then_reuse_values {
        notes.push("the value-mode flags are ignored: an install takes your flags over the chart's defaults".to_string());
    }
    if args.server_side != "auto" && args.server_side != "true" {
        notes.push(format!(
            "--server-side {} is ignored: helm upgrade --install installs with server-side apply (pkg/cmd/upgrade.go does not pass --server-side to the install)",
            args.server_side
        ));
    }
    notes
}

/// Helm accepts several mode flags and silently ignores all but one.
fn ignored_mode_flags(args: &UpgradePreviewArgs, mode: Mode) -> Vec<String> {
    let given = [(args.reuse_values, Mode::Reuse), (args.reset_values, Mode::Reset), (args.reset_then_reuse_values, Mode::ResetThenReuse)];
    given
        .iter()
        .filter(|(on, m)| *on && *m != mode)
        .map(|(_, m)| format!("{} is ignored because {} is given (as helm upgrade does)", m.flag(), mode.flag()))
        .collect()
}

