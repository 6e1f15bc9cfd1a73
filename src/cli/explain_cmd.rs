//! `values explain CHART [value flags]` (alias `explain`).

use super::args::ExplainArgs;
use super::inputs::value_flags;
use super::views::explain::render;
use super::{Ctx, Outcome};
use crate::explain::{Options, explain_chart_with, merge_user_values};

pub fn run(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    if args.werf.werf {
        return super::werf_cmd::run(args, ctx);
    }
    if args.helmfile.is_some() {
        return helmfile(args, ctx);
    }
    if args.release.is_some() || !args.release_files.is_empty() {
        return release(args, ctx);
    }
    let Some(chart_path) = &args.chart else { anyhow::bail!("name a CHART, or a release with --release") };
    // Helm's order: locate CHART, merge the value flags, load the chart, check its dependencies.
    let user = || {
        let flags = value_flags(&args.flags)?;
        Ok(merge_user_values(&flags, &mut super::inputs::set_file_reader)?)
    };
    let (_located, chart, (user, rec)) = super::inputs::chart_after(chart_path, &args.pull, ctx, user)?;
    let explanation = explain_chart_with(&chart, user, rec, Options { skip_schema_validation: args.skip_schema_validation })?;
    let outcome = render(args, ctx, explanation);
    // Freeing the chart costs more than the rest of the process; it ends soon.
    std::mem::forget(chart);
    outcome
}

/// `--helmfile FILE`: helmfile's state values, or one release's values.
fn helmfile(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::ensure!(
        args.flags.values.is_empty() && args.flags.set.is_empty() && args.flags.set_string.is_empty()
            && args.flags.set_json.is_empty() && args.flags.set_file.is_empty() && args.flags.set_literal.is_empty(),
        "Helm value flags do not apply with --helmfile: use --state-values-set / --state-values-file, or the release's values in the helmfile"
    );
    let Some(file) = &args.helmfile else { anyhow::bail!("--helmfile FILE is required") };
    let req = crate::helmfile::Request {
        file: file.clone(),
        environment: args.environment.clone(),
        state_values_set: args.state_values_set.clone(),
        state_values_set_string: args.state_values_set_string.clone(),
        state_values_files: args.state_values_files.clone(),
        skip_secrets: args.skip_secrets,
        skip_templated: args.skip_templated,
        show_secrets: args.show_secrets,
        // Templates' `env` / `requiredEnv` (variables that are not UTF-8 are left out).
        environ: Some(std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))).collect()),
        // helmfile's -n/--namespace is ours (`.Namespace`); only when given.
        namespace: ctx.global.namespace.clone().unwrap_or_default(),
        kube_context: args.kube_context.clone().unwrap_or_default(),
        render_plain_yaml: render_plain_yaml(std::env::var("HELMFILE_RENDER_YAML").ok().as_deref(), std::env::var("HELMFILE_V1MODE").ok().as_deref()),
        v0_mode: std::env::var("HELMFILE_V1MODE").is_ok_and(|v| v == "false"),
        allow_exec: args.allow_exec,
    };
    let out = crate::helmfile::explain(&req, &super::template_host::SystemIo, args.release.as_deref(), Options { skip_schema_validation: args.skip_schema_validation })?;
    let mut outcome = render(args, ctx, out.explanation)?;
    outcome.notes.extend(out.notes);
    Ok(outcome)
}

/// Whether plain `helmfile.yaml` files are rendered as templates: current
/// helmfile renders only `.gotmpl` files unless `HELMFILE_RENDER_YAML=true`
/// (pkg/envvar/const.go); helmfile 0.x renders every state file unless
/// `HELMFILE_V1MODE=true` (pkg/runtime), so `HELMFILE_V1MODE=false` asks for
/// that v0 behaviour here. Unset, releasex follows current helmfile.
fn render_plain_yaml(render_yaml: Option<&str>, v1_mode: Option<&str>) -> bool {
    render_yaml == Some("true") || v1_mode == Some("false")
}

/// `--release`: the stored chart's values under the release config, as
/// `helm get values --all` computes them.
fn release(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    anyhow::ensure!(
        args.flags.values.is_empty() && args.flags.set.is_empty() && args.flags.set_string.is_empty()
            && args.flags.set_json.is_empty() && args.flags.set_file.is_empty() && args.flags.set_literal.is_empty(),
        "value flags do not apply with --release: it explains what is stored (use upgrade-preview for an upgrade's values)"
    );
    let source = super::args::SourceArgs {
        files: args.release_files.clone(),
        driver: args.driver,
        sql_connection: args.sql_connection.clone(),
    };
    let loaded = super::inputs::load(&source, args.release.as_deref(), ctx)?;
    let record = crate::release::decode_revision(loaded.records, args.release.as_deref(), args.revision, &loaded.place)?;
    let rel = &record.release;
    let mut explanation = crate::explain::release::explain_release(rel)?;
    let mut warnings = record.warnings.clone();
    warnings.append(&mut explanation.warnings);
    explanation.warnings = warnings;
    let mut outcome = render(args, ctx, explanation)?;
    outcome.notes.push(crate::explain::release::no_subcharts_note(rel));
    Ok(outcome)
}

