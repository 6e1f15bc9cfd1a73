//! `template [NAME] CHART [flags]`: what `helm template` (Helm 4.2.3)
//! prints, rendered in process by releasex's own engine (no Helm binary).

use clap::Args;

use super::args::{OutputFormat, ValueFlagArgs};
use super::inputs::value_flags;
use super::{Ctx, Outcome};
use crate::explain::{Options, explain_chart_with, merge_user_values};
use crate::render::engine::{self, EngineInput, ReleaseInfo};
use crate::render::template::{NativeTemplate, TemplateOutput, print_files, render_files};

pub const TEMPLATE_HELP: &str = "Renders the chart as Helm 4.2.3's `helm template` does, byte for byte, with releasex's own Go
template engine and Helm's function set: no Helm binary, no cluster (`lookup` returns nothing,
as it does in `helm template`). A function releasex does not model (toToml, fromToml,
toYamlPretty) stops the render with an error naming it; it never prints something else.

-o json: {\"templates\": {NAME: TEXT}, \"notes\": TEXT, \"manifest\": TEXT}: each template's own output
(partials left out, NOTES.txt kept), then what the text output prints.

Examples:
  kubectl releasex template ./mychart -f prod.yaml
  kubectl releasex template web ./mychart -n prod --set image.tag=1.2.1 --show-only templates/deployment.yaml
  helm preview template web oci://registry.example.com/charts/web --version 1.2.3";

#[derive(Debug, Args)]
pub struct TemplateArgs {
    /// [NAME] CHART: the release name (default release-name) and the chart (dir, .tgz, REPO/NAME, oci://..., URL)
    #[arg(value_name = "NAME_OR_CHART", num_args = 1..=2, required = true)]
    pub positional: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub flags: ValueFlagArgs,
    /// Kubernetes version for .Capabilities.KubeVersion (default v1.36.0, as Helm 4.2.3)
    #[arg(long, value_name = "VERSION")]
    pub kube_version: Option<String>,
    /// Kubernetes API versions for .Capabilities.APIVersions, added to Helm's defaults (repeatable, comma-separated)
    #[arg(short = 'a', long = "api-versions", value_name = "VERSION", value_delimiter = ',')]
    pub api_versions: Vec<String>,
    /// Render as an upgrade: .Release.IsUpgrade true, .Release.IsInstall false
    #[arg(long)]
    pub is_upgrade: bool,
    /// Only the documents of these templates (repeatable; globs as Go's filepath.Match)
    #[arg(short = 's', long = "show-only", value_name = "TEMPLATE")]
    pub show_only: Vec<String>,
    /// Print the chart's CRDs (crds/) first
    #[arg(long)]
    pub include_crds: bool,
    /// Leave out test hooks
    #[arg(long)]
    pub skip_tests: bool,
    /// Leave out all hooks
    #[arg(long)]
    pub no_hooks: bool,
    /// Skip values.schema.json validation
    #[arg(long)]
    pub skip_schema_validation: bool,
    #[command(flatten)]
    pub pull: super::helm_flags::ChartPullArgs,
}

pub fn run(args: &TemplateArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (name, chart_path) = match args.positional.as_slice() {
        [chart] => ("release-name".to_string(), chart),
        [name, chart] => (name.to_string_lossy().into_owned(), chart),
        _ => anyhow::bail!("template takes [NAME] CHART"),
    };
    // helm: pkg/cmd/template.go parses --kube-version before anything else.
    let capabilities = engine::default_capabilities(args.kube_version.as_deref(), &args.api_versions).map_err(|e| anyhow::anyhow!(e))?;
    let user = || {
        let flags = value_flags(&args.flags)?;
        Ok(merge_user_values(&flags, &mut super::inputs::set_file_reader)?)
    };
    let (_located, chart, (user, rec)) = super::inputs::chart_after(chart_path, &args.pull, ctx, user)?;
    // helm: pkg/cmd/install.go checkIfInstallable.
    if !matches!(chart.metadata.chart_type.as_str(), "" | "application") {
        anyhow::bail!("{} charts are not installable", chart.metadata.chart_type);
    }
    let explanation = explain_chart_with(&chart, user, rec, Options { skip_schema_validation: args.skip_schema_validation })?;
    let Some(charts) = explanation.charts.as_ref() else { anyhow::bail!("the chart was not processed") };
    let namespace = namespace(ctx);
    let release = ReleaseInfo { name, namespace, revision: 1, is_upgrade: args.is_upgrade, is_install: !args.is_upgrade };
    let input = EngineInput { chart: &chart, charts, values: &explanation.values, release, capabilities };
    let opts = TemplateOutput { include_crds: args.include_crds, skip_tests: args.skip_tests, no_hooks: args.no_hooks, show_only: args.show_only.clone() };
    let files = render_files(&input).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut outcome = Outcome { warnings: explanation.warnings.clone(), ..Outcome::default() };
    let (files, sorted, text) = match print_files(&input, files, &opts) {
        Ok(NativeTemplate { files, sorted, text }) => (files, sorted, text),
        // -o json still shows what each template printed (as `helm template
        // --debug` prints the invalid YAML), with Helm's error and exit 1.
        Err((e, files)) if ctx.format() == OutputFormat::Json => {
            let templates: serde_json::Map<String, serde_json::Value> = files.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.text.clone()))).collect();
            outcome.stdout_json = Some(serde_json::json!({"templates": templates, "error": e.to_string()}));
            outcome.warnings.push(format!("error: {e}"));
            outcome.exit_code = Some(1);
            return Ok(outcome);
        }
        Err((e, _)) => anyhow::bail!("{e}"),
    };
    match ctx.format() {
        OutputFormat::Json => {
            let templates: serde_json::Map<String, serde_json::Value> = files.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.text.clone()))).collect();
            outcome.stdout_json = Some(serde_json::json!({"templates": templates, "notes": sorted.notes, "manifest": text}));
        }
        OutputFormat::Text => outcome.stdout = text,
        other => anyhow::bail!("template prints text or json, not {other:?}"),
    }
    std::mem::forget(chart);
    Ok(outcome)
}

/// `-n`, else `$HELM_NAMESPACE` under Helm, else the kubeconfig context's, else `default` (Helm's settings.Namespace()).
pub fn namespace(ctx: &Ctx) -> String {
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    target.namespace.clone().unwrap_or_else(|| {
        let (contexts, current) = crate::cluster::kubeconfig_contexts(&target);
        let name = target.context.clone().or(current);
        contexts.into_iter().find(|(c, _)| Some(c) == name.as_ref()).and_then(|(_, ns)| ns).unwrap_or_else(|| "default".into())
    })
}
