//! `blame CHART [value flags] [KIND/NAME] [FIELD]`: renders the chart as
//! `template` does, then says for each leaf of each object which template
//! text or action printed it and which values keys (with their explain
//! provenance) that action read.

use clap::Args;

use super::args::OutputFormat;
use super::{Ctx, Outcome};
use crate::render::blame::blame;
use crate::render::template::{NativeTemplate, TemplateOutput, render_template};

pub const BLAME_HELP: &str = "For every leaf of every rendered object (or of the object KIND/NAME, or below FIELD):
the template file:line:col of the text or action that printed it, the values keys that
action read (through include, tpl, default, variables and range too), and where each
key's value came from as `values explain` says it (file:line:col or flag, and what it
overrode). A field printed by template text says `literal`. A map printed whole
(`toYaml .Values.resources | nindent 12`) blames each leaf on its own key below it.

-o json: {\"objects\": [{kind, name, source, fields: [{field, value, template, line, column,
literal, action, keys: [{path, source, overrode: [...]}]}]}]}

Examples:
  kubectl releasex blame ./mychart -f prod.yaml Deployment/web spec.template.spec.containers[0].resources
  kubectl releasex blame ./mychart --release-name web -n prod -o json";

#[derive(Debug, Args)]
pub struct BlameArgs {
    /// The chart (dir, .tgz, REPO/NAME, oci://..., URL)
    pub chart: std::path::PathBuf,
    /// Only this object (KIND/NAME, kind case-insensitive)
    #[arg(value_name = "KIND/NAME")]
    pub object: Option<String>,
    /// Only this field and below (a path as the output prints it)
    #[arg(value_name = "FIELD")]
    pub field: Option<String>,
    /// The release name the chart is rendered for
    #[arg(long, value_name = "NAME", default_value = "release-name")]
    pub release_name: String,
    /// Show values in Secrets' data, under keys that look secret, and in --set flags of such keys (masked by default)
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub render: super::template_cmd::RenderFlags,
    #[command(flatten)]
    pub pull: super::helm_flags::ChartPullArgs,
}

pub fn run(args: &BlameArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let prepared = super::template_cmd::prepare(&args.render, &args.chart, &args.pull, ctx, false)?;
    let mut input = prepared.input(&args.release_name)?;
    // Each leaf of a partial printed whole (`include "x.pod" . | nindent 6`) blamed inside the partial.
    input.inner_spans = true;
    let NativeTemplate { files, sorted, .. } = render_template(&input, &TemplateOutput::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
    let explanation = &prepared.explanation;
    let mut objects = blame(&files, &sorted, &explanation.values);
    if !args.show_secrets {
        crate::render::blame::mask_secrets(&mut objects);
    }
    if let Some(want) = &args.object {
        let (kind, name) = want.split_once('/').ok_or_else(|| anyhow::anyhow!("{want}: name the object as KIND/NAME"))?;
        objects.retain(|o| o.kind.eq_ignore_ascii_case(kind) && o.name == name);
        anyhow::ensure!(!objects.is_empty(), "no object {want} in the rendered chart");
    }
    if let Some(field) = &args.field {
        for o in &mut objects {
            o.fields.retain(|f| f.field == *field || f.field.starts_with(&format!("{field}.")) || f.field.starts_with(&format!("{field}[")));
        }
        objects.retain(|o| !o.fields.is_empty());
        anyhow::ensure!(!objects.is_empty(), "no field {field} in the objects blamed");
    }
    let mut outcome = Outcome { warnings: explanation.warnings.clone(), ..Outcome::default() };
    match ctx.format() {
        OutputFormat::Json => outcome.stdout_json = Some(super::views::blame::json(&objects, &explanation.entries, args.show_secrets)),
        OutputFormat::Text => outcome.stdout = super::views::blame::text(&objects, &explanation.entries, &ctx.theme, ctx.columns, args.show_secrets),
        other => anyhow::bail!("blame prints text or json, not {other:?}"),
    }
    drop(input);
    std::mem::forget(prepared);
    Ok(outcome)
}
