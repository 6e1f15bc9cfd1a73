//! `upgrade-preview RELEASE CHART [value flags] [mode flags]`: the values
//! part. Reads the release's history, picks Helm's baseline, and shows what
//! each value mode keeps, drops and takes from the new chart.

use anyhow::Context as _;
use serde_json::{Map, Value, json};

use super::args::{OutputFormat, SourceArgs, UpgradePreviewArgs};
use super::explain_cmd::{short, text as entries_text, value_flags};
use super::output::{go_yaml_numbers, table, to_json_go, to_yaml};
use super::{Ctx, Outcome, inputs, upgrade_objects};
use crate::explain::Options;
use crate::release::history::{self, Baseline, BaselineReason};
use crate::release::{self, Release};
use crate::upgrade::{Change, Mode, ModeOutcome, Upgrade, preview_mode, recommend};
use crate::values::explain::{Entry, source_json};
use crate::values::path::Path;
use crate::values::sorted;
use crate::values::tree::map_to_json;

pub fn run(args: &UpgradePreviewArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let keys: Vec<Path> = args.keys.iter().map(|k| Path::parse(k).map_err(anyhow::Error::msg)).collect::<anyhow::Result<_>>()?;
    // helm: pkg/action/upgrade.go (the regex details are dropped from the message)
    anyhow::ensure!(release::is_valid_release_name(&args.release), "release name is invalid: {}", args.release);
    let chart = crate::chart::load(&args.chart)?;
    let source = SourceArgs { files: args.release_files.clone(), driver: args.driver, sql_connection: args.sql_connection.clone() };
    let loaded = inputs::load(&source, Some(&args.release), ctx)?;
    let records = release::decode_history(loaded.records, Some(&args.release), &loaded.place)?;
    let mut outcome = Outcome::default();
    for r in &records {
        outcome.warnings.extend(r.warnings.iter().cloned());
    }
    let releases: Vec<&Release> = records.iter().map(|r| &r.release).collect();
    let base = match history::baseline(&args.release, &releases) {
        Ok(b) => b,
        Err(e) => {
            let remedy = history::explain_state(&args.release, &releases).map(|s| format!("\n{s}")).unwrap_or_default();
            anyhow::bail!("helm upgrade would fail with: UPGRADE FAILED: {e}{remedy}");
        }
    };
    let Some(baseline) = releases.iter().copied().find(|r| r.version() == base.revision) else {
        anyhow::bail!("revision {} of {} is missing from the records read", base.revision, args.release);
    };
    let flags = value_flags(&args.flags)?;
    let mut read_file = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("open {path}: {e}"));
    let options = Options { skip_schema_validation: args.skip_schema_validation };
    let up = Upgrade::new(&chart, baseline, &flags, &mut read_file, options)?;
    let head = Head { release: &args.release, namespace: baseline.namespace().to_string(), base };

    if args.compare_modes {
        let outcomes: Vec<ModeOutcome> = Mode::ALL.iter().map(|m| preview_mode(&up, *m)).collect::<Result<_, _>>()?;
        let advice = recommend(&outcomes, base.revision);
        outcome.stdout = match ctx.format() {
            OutputFormat::Text => compare_text(&head, &outcomes, &advice, &keys, ctx),
            format => {
                let modes: Map<String, Value> = outcomes.iter().map(|o| (o.mode.word().to_string(), mode_json(&head, o, &keys))).collect();
                let mut doc = head_json(&head);
                doc.insert("modes".into(), Value::Object(modes));
                doc.insert("recommendation".into(), Value::String(advice));
                serialize(&Value::Object(doc), format)?
            }
        };
    } else {
        let mode = Mode::from_flags(args.reset_values, args.reuse_values, args.reset_then_reuse_values);
        let ignored = ignored_mode_flags(args, mode);
        let o = preview_mode(&up, mode)?;
        outcome.warnings.extend(ignored);
        let objects = if args.values_only {
            None
        } else {
            let last = releases.iter().copied().max_by_key(|r| r.version()).unwrap_or(baseline);
            Some(objects_part(args, ctx, &head, baseline, last, &chart, &o, &mut outcome.warnings)?)
        };
        match ctx.format() {
            OutputFormat::Text => {
                outcome.stdout = mode_text(&head, &o, &keys, ctx);
                outcome.warnings.extend(o.warnings.iter().cloned());
                if let Some((plan, manifest)) = &objects {
                    outcome.stdout.push('\n');
                    outcome.stdout.push_str(&upgrade_objects::objects_text(plan, manifest, args.diff, ctx));
                    outcome.warnings.extend(plan.warnings.iter().cloned());
                    outcome.warnings.extend(manifest.warnings.iter().cloned());
                }
            }
            format => {
                let mut doc = mode_json(&head, &o, &keys);
                if let (Some((plan, manifest)), Some(m)) = (&objects, doc.as_object_mut()) {
                    let server_side = plan.objects.iter().any(|x| x.patch_type == Some(crate::preview::PlanPatchType::Apply));
                    m.insert("server_side".into(), json!(server_side));
                    if let Value::Object(parts) = upgrade_objects::objects_json(plan, manifest) {
                        m.extend(parts);
                    }
                    if let Some(w) = m.get_mut("warnings").and_then(Value::as_array_mut) {
                        w.extend(plan.warnings.iter().chain(&manifest.warnings).map(|x| json!(x)));
                    }
                }
                outcome.stdout = serialize(&doc, format)?;
            }
        }
        if let Some((plan, _)) = &objects {
            if plan.failure.is_some() {
                outcome.exit_code = Some(1);
            } else if args.detailed_exitcode && upgrade_objects::has_changes(plan) {
                outcome.exit_code = Some(2);
            }
        }
    }
    Ok(outcome)
}

/// The objects part: the new manifest (rendered by Helm as the upgrade
/// would, or `--manifest`), the cluster's view, the plan.
#[allow(clippy::too_many_arguments)]
fn objects_part(
    args: &UpgradePreviewArgs,
    ctx: &Ctx,
    head: &Head,
    baseline: &Release,
    last: &Release,
    chart: &crate::chart::Chart,
    mode: &ModeOutcome,
    warnings: &mut Vec<String>,
) -> anyhow::Result<(crate::preview::Plan, upgrade_objects::Manifest)> {
    let ignore: Vec<crate::preview::IgnoreRule> =
        args.ignore.iter().map(|t| crate::preview::parse_ignore(t).map_err(anyhow::Error::msg)).collect::<anyhow::Result<_>>()?;
    // Kept alive until Helm has rendered: the chart copy --reuse-values needs.
    let mut _chart_copy = None;
    let new_manifest = match &args.manifest {
        Some(path) => upgrade_objects::NewManifest::Given(upgrade_objects::read_manifest(path)?),
        None => {
            let Some(helm_bin) = find_helm(ctx) else {
                anyhow::bail!(
                    "rendering needs Helm: set HELM_BIN or put helm on PATH, or render elsewhere and pass the result with --manifest FILE|- \
                     (e.g. `helm template {r} CHART --is-upgrade -n {ns} ... | kubectl releasex upgrade-preview {r} CHART --manifest -`); \
                     --values-only previews the values without rendering",
                    r = head.release,
                    ns = head.namespace
                );
            };
            let inputs = mode.render_inputs();
            let chart_path = match &inputs.parent_values {
                Some(values) => {
                    let (dir, path) = crate::render::chart_with_values(&args.chart, values)?;
                    _chart_copy = Some(dir);
                    path
                }
                None => args.chart.clone(),
            };
            for t in crate::render::uses_release_revision(chart) {
                warnings.push(format!(
                    "{t} uses .Release.Revision: helm template renders revision 1, the upgrade renders revision {}; objects that depend on it show different here",
                    head.base.next_revision
                ));
            }
            if !args.lookup {
                for l in crate::render::lookup_calls(chart) {
                    warnings.push(format!(
                        "{}:{} calls lookup, which returns nothing without a cluster: {}will look regenerated here; --lookup lets Helm read the cluster (GET only)",
                        l.template,
                        l.line,
                        l.field.as_deref().map(|f| format!("{f} ")).unwrap_or_default()
                    ));
                }
            }
            upgrade_objects::NewManifest::Helm(crate::render::TemplateRequest {
                helm_bin,
                release: head.release.to_string(),
                chart: chart_path,
                namespace: head.namespace.clone(),
                values: inputs.values,
                set_values: inputs.set_ints,
                kube_version: None,
                api_versions: Vec::new(),
                is_upgrade: true,
                server_dry_run: args.lookup,
                kube_context: args.lookup.then(|| ctx.global.context.clone()).flatten(),
                kubeconfig: args.lookup.then(|| ctx.global.kubeconfig.clone()).flatten(),
            })
        }
    };
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    // Only a person at a terminal wants to know what is slow.
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = |what: &str| {
        if on_terminal {
            eprintln!("{}", ctx.theme.dim(&format!("… {what}")));
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let cluster = crate::cluster::ReadOnlyCluster::connect(&target).await?;
        progress("reading the cluster's API discovery");
        let discovery = cluster.discover().await?;
        let input = upgrade_objects::ObjectsInput { release: head.release, namespace: &head.namespace, baseline, last, new_manifest };
        let opts = upgrade_objects::ObjectsOptions {
            server_side: &args.server_side,
            take_ownership: args.take_ownership,
            force_conflicts: args.force_conflicts,
            ignore: &ignore,
            show_secrets: args.show_secrets,
            concurrency: args.concurrency,
            progress: &progress,
            chart: Some(chart),
        };
        upgrade_objects::preview_objects(&cluster, &discovery, &input, &opts).await
    })
}

/// `$HELM_BIN` (Helm sets it for plugins), else `helm` on PATH.
fn find_helm(ctx: &Ctx) -> Option<std::path::PathBuf> {
    if let Some(bin) = ctx.env.get("HELM_BIN").filter(|b| !b.is_empty()) {
        return Some(bin.into());
    }
    let path = ctx.env.get("PATH")?;
    std::env::split_paths(path).map(|d| d.join("helm")).find(|p| p.is_file())
}

struct Head<'a> {
    release: &'a str,
    namespace: String,
    base: Baseline,
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

fn reason_text(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed => "the last revision is deployed".into(),
        BaselineReason::NewestDeployed { last, last_status } => {
            format!("revision {last} is {last_status}, so Helm starts from the newest deployed revision")
        }
        BaselineReason::LastWithoutDeployed { status } => {
            format!("no revision was ever deployed, so Helm starts from the last revision ({status})")
        }
    }
}

fn baseline_status(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed | BaselineReason::NewestDeployed { .. } => "deployed".into(),
        BaselineReason::LastWithoutDeployed { status } => status.to_string(),
    }
}

fn head_json(h: &Head) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("release".into(), json!(h.release));
    m.insert("namespace".into(), json!(h.namespace));
    m.insert(
        "baseline".into(),
        json!({"revision": h.base.revision, "status": baseline_status(&h.base), "reason": reason_text(&h.base)}),
    );
    m.insert("revision".into(), json!(h.base.next_revision));
    m
}

fn shown(path: &Path, keys: &[Path]) -> bool {
    keys.is_empty() || keys.iter().any(|k| path.starts_with(k))
}

fn mode_json(h: &Head, o: &ModeOutcome, keys: &[Path]) -> Value {
    let mut doc = head_json(h);
    doc.insert("mode".into(), json!(o.mode.word()));
    doc.insert("values".into(), sorted(&Value::Object(map_to_json(&o.values))));
    doc.insert("config".into(), sorted(&Value::Object(map_to_json(&o.config))));
    let changes: Vec<Value> = o
        .changes
        .iter()
        .filter(|c| shown(&c.path, keys))
        .map(|c| json!({"path": c.path.to_string(), "before": c.before, "after": c.after, "kind": c.kind.word(), "cause": c.cause}))
        .collect();
    doc.insert("changes".into(), Value::Array(changes));
    let entries: Vec<Value> = o
        .entries
        .iter()
        .filter(|e| shown(&e.path, keys))
        .filter_map(|e| Some(json!({"path": e.path.to_string(), "value": e.value.clone()?, "source": source_json(e.source.as_ref()?)})))
        .collect();
    doc.insert("entries".into(), Value::Array(entries));
    if o.mode == Mode::Default {
        doc.insert("reused_config".into(), json!(o.reused_config));
    }
    doc.insert("warnings".into(), json!(o.warnings));
    Value::Object(doc)
}

fn serialize(doc: &Value, format: OutputFormat) -> anyhow::Result<String> {
    Ok(if format == OutputFormat::Json { to_json_go(doc) } else { to_yaml(&go_yaml_numbers(doc)).context("cannot write YAML")? })
}

fn title(h: &Head, ctx: &Ctx) -> String {
    format!(
        "{} {} (namespace {}): from revision {} ({}: {}) to revision {}\n",
        ctx.theme.heading("Upgrade of"),
        h.release,
        h.namespace,
        h.base.revision,
        baseline_status(&h.base),
        reason_text(&h.base),
        h.base.next_revision
    )
}

fn mode_line(o: &ModeOutcome, revision: i64) -> String {
    match o.mode {
        Mode::Default if o.reused_config => format!(
            "mode: default (no value-mode flag). No value flag gave a value, so Helm reuses revision {revision}'s config as it is"
        ),
        Mode::Default if !o.flags_gave_values => {
            format!("mode: default (no value-mode flag). No value flags, and revision {revision} stored no config: the new chart's defaults apply")
        }
        Mode::Default => format!(
            "mode: default (no value-mode flag). Value flags were given, so Helm does not reuse revision {revision}'s config: every stored value you do not repeat is dropped"
        ),
        Mode::Reuse => format!(
            "mode: --reuse-values. Revision {revision}'s config goes under your flags, and the old chart's values replace the new chart's values.yaml"
        ),
        Mode::Reset => "mode: --reset-values. Your flags over the new chart's defaults; the stored config is ignored".into(),
        Mode::ResetThenReuse => format!("mode: --reset-then-reuse-values. Revision {revision}'s config goes under your flags, over the new chart's defaults"),
    }
}

fn mode_text(h: &Head, o: &ModeOutcome, keys: &[Path], ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = title(h, ctx);
    out.push_str(&mode_line(o, h.base.revision));
    out.push_str("\n\n");
    let entries: Vec<&Entry> = o.entries.iter().filter(|e| shown(&e.path, keys)).collect();
    out.push_str(&theme.heading("Values the templates will see"));
    out.push('\n');
    out.push_str(&entries_text(&entries, false, ctx));
    out.push('\n');
    out.push_str(&theme.heading(&format!("Config stored for revision {}", h.base.next_revision)));
    out.push('\n');
    let config = sorted(&Value::Object(map_to_json(&o.config)));
    out.push_str(&to_yaml(&go_yaml_numbers(&config)).unwrap_or_default());
    out.push('\n');
    let changes: Vec<&Change> = o.changes.iter().filter(|c| shown(&c.path, keys)).collect();
    out.push_str(&theme.heading(&format!("Changes against revision {} ({})", h.base.revision, changes.len())));
    out.push('\n');
    if changes.is_empty() {
        out.push_str("  none: the templates see the same values as the baseline\n");
    }
    for c in changes {
        let show = |v: &Option<Value>| v.as_ref().map_or_else(|| "(absent)".to_string(), short);
        out.push_str(&format!("  {}  {} → {}\n", theme.heading(&c.path.to_string()), show(&c.before), show(&c.after)));
        let line = format!("      {}", c.cause);
        out.push_str(&match c.kind {
            crate::upgrade::ChangeKind::Dropped | crate::upgrade::ChangeKind::IgnoredNewDefault | crate::upgrade::ChangeKind::NullNotApplied => {
                theme.warn(&line)
            }
            _ => theme.dim(&line),
        });
        out.push('\n');
    }
    out
}

fn compare_text(h: &Head, outcomes: &[ModeOutcome], advice: &str, keys: &[Path], ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = title(h, ctx);
    // One row per key whose value differs between modes.
    // Each mode's values by path (large charts have thousands of keys).
    let by_path: Vec<std::collections::HashMap<&Path, &Entry>> =
        outcomes.iter().map(|o| o.entries.iter().map(|e| (&e.path, e)).collect()).collect();
    let mut seen = std::collections::HashSet::new();
    let mut paths: Vec<&Path> =
        outcomes.iter().flat_map(|o| &o.entries).map(|e| &e.path).filter(|p| shown(p, keys) && seen.insert(*p)).collect();
    paths.sort_by(|a, b| crate::values::explain::path_order(&a.0, &b.0));
    let mut rows = Vec::new();
    for p in paths {
        let vals: Vec<Option<Value>> = by_path.iter().map(|m| m.get(p).and_then(|e| e.value.clone())).collect();
        if vals.windows(2).all(|w| same_json(&w[0], &w[1])) {
            continue;
        }
        let mut row = vec![(p.to_string(), theme.heading(&p.to_string()))];
        for v in vals {
            let s = v.as_ref().map_or_else(|| "(absent)".to_string(), short);
            row.push((s.clone(), s));
        }
        rows.push(row);
    }
    out.push('\n');
    if rows.is_empty() {
        out.push_str("every mode gives the templates the same values\n");
    } else {
        let header: Vec<&str> = std::iter::once("KEY").chain(outcomes.iter().map(|o| match o.mode {
            Mode::Default => "DEFAULT",
            Mode::Reuse => "--REUSE-VALUES",
            Mode::Reset => "--RESET-VALUES",
            Mode::ResetThenReuse => "--RESET-THEN-REUSE-VALUES",
        }))
        .collect();
        out.push_str(&table(&header, &rows, theme));
    }
    out.push('\n');
    for o in outcomes {
        out.push_str(&format!(
            "{:26} {} dropped from the stored config, {} not applied from the new chart's defaults, {}\n",
            o.mode.flag(),
            o.dropped_config_values,
            o.ignored_new_defaults,
            plural(o.changes.len(), "change")
        ));
    }
    out.push_str(&format!("\n{} {advice}\n", theme.good("recommendation:")));
    out
}

/// Equal as JSON numbers compare in Go (float64); absent equals absent.
fn same_json(a: &Option<Value>, b: &Option<Value>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => crate::values::same_as_float64(x, y),
        (None, None) => true,
        _ => false,
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
