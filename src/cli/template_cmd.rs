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
as it does in `helm template`; with --lookup it reads the cluster, GET only; --dry-run=server also takes the
cluster's capabilities and checks an install's objects do not exist already). A function releasex does not model (toToml, fromToml,
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
    pub render: RenderFlags,
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
    #[command(flatten)]
    pub pull: super::helm_flags::ChartPullArgs,
}

/// The flags of `helm template` that decide what the chart renders, shared by `template` and `blame`.
#[derive(Debug, Args)]
pub struct RenderFlags {
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
    /// Skip values.schema.json validation
    #[arg(long)]
    pub skip_schema_validation: bool,
    /// Let the templates' lookup read the cluster (--kubeconfig, --context; GET and LIST only), as
    /// helm upgrade renders; without it every lookup is empty, as in helm template
    #[arg(long)]
    pub lookup: bool,
    /// client (the default): no cluster; server: as helm template --dry-run=server, the cluster's
    /// capabilities, lookup reads the cluster, and an install checks that its objects do not exist
    /// already (GET only; no OpenAPI validation)
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "unset")]
    pub dry_run: Option<String>,
}

impl RenderFlags {
    /// helm: pkg/cmd/helpers.go `cmdGetDryRunFlagStrategy` for `helm template`:
    /// true when the cluster is read (`server`); Helm's errors for values a
    /// template cannot take, its deprecation warnings in `warnings`.
    fn server_dry_run(&self, warnings: &mut Vec<String>) -> anyhow::Result<bool> {
        let Some(v) = self.dry_run.as_deref() else { return Ok(false) };
        match v {
            "unset" => {
                warnings.push("--dry-run is deprecated and should be replaced with '--dry-run=client'".into());
                Ok(false)
            }
            "client" => Ok(false),
            "server" => Ok(true),
            "none" => anyhow::bail!("invalid dry-run value (\"none\"). Must be \"server\" or \"client\""),
            other => match super::diff_cmd::go_bool(other).ok() {
                Some(true) => {
                    warnings.push(format!("boolean '--dry-run={other}' flag is deprecated and must be replaced with '--dry-run=client'"));
                    Ok(false)
                }
                Some(false) => anyhow::bail!("invalid dry-run value ({other:?}). Must be \"server\" or \"client\""),
                None => anyhow::bail!("invalid dry-run value ({other:?}). Must be \"none\", \"server\", or \"client\""),
            },
        }
    }
}

/// A chart loaded, its values computed and the capabilities parsed: what rendering needs.
pub struct Prepared {
    pub chart: crate::chart::Chart,
    pub explanation: crate::explain::Explanation,
    pub capabilities: engine::Capabilities,
    is_upgrade: bool,
    namespace: String,
    /// `--lookup`: the cluster's answers to the templates' `lookup`.
    lookup: Option<Box<engine::LookupFn<'static>>>,
    /// `--dry-run=server`: the cluster, for the install's existing-object check.
    pub server: Option<(crate::cluster::KubeTarget, crate::cluster::Discovery)>,
    /// Helm's warnings about the flags (deprecated `--dry-run` spellings).
    pub flag_warnings: Vec<String>,
}

/// Helm's order: `--kube-version` first (helm: pkg/cmd/template.go), the
/// value flags, the chart; with `installable_only`, only application charts
/// (pkg/cmd/install.go checkIfInstallable), as `helm template` requires.
pub fn prepare(
    render: &RenderFlags,
    chart_path: &std::path::Path,
    pull: &super::helm_flags::ChartPullArgs,
    ctx: &Ctx,
    installable_only: bool,
) -> anyhow::Result<Prepared> {
    let mut flag_warnings = Vec::new();
    let server = render.server_dry_run(&mut flag_warnings)?;
    let mut capabilities = engine::default_capabilities(render.kube_version.as_deref(), &render.api_versions).map_err(|e| anyhow::anyhow!(e))?;
    // Lookup finds each kind in the cluster's discovery: read while the chart loads.
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    let discovery = (render.lookup || server).then(|| crate::cluster::DiscoveryPrefetch::start(&target));
    let user = || {
        let flags = value_flags(&render.flags)?;
        Ok(merge_user_values(&flags, &mut super::inputs::set_file_reader)?)
    };
    let (_located, chart, (user, rec)) = super::inputs::chart_after(chart_path, pull, ctx, user)?;
    if installable_only && !matches!(chart.metadata.chart_type.as_str(), "" | "application") {
        anyhow::bail!("{} charts are not installable", chart.metadata.chart_type);
    }
    let explanation = explain_chart_with(&chart, user, rec, Options { skip_schema_validation: render.skip_schema_validation })?;
    let namespace = super::context::release_namespace(&ctx.global, &ctx.env);
    let discovery = discovery.as_ref().map(|prefetch| prefetch.get().cloned()).transpose()?;
    if let (true, Some(d)) = (server, &discovery) {
        // helm: pkg/action/install.go: with a server dry run the capabilities are the
        // cluster's (getCapabilities); --kube-version and --api-versions are ignored.
        let version = Some(d.server_version.as_str()).filter(|v| !v.is_empty());
        capabilities = engine::default_capabilities(version, &[]).map_err(|e| anyhow::anyhow!(e))?;
        capabilities.api_versions = crate::render::api_version_flags(&d.served());
    }
    let lookup = discovery.clone().map(|d| {
        let lookups = crate::cluster::Lookups::new(&target, d);
        Box::new(move |api_version: &str, kind: &str, namespace: &str, name: &str| lookups.lookup(api_version, kind, namespace, name)) as Box<engine::LookupFn<'static>>
    });
    let server = server.then(|| discovery.map(|d| (target, d))).flatten();
    Ok(Prepared { chart, explanation, capabilities, is_upgrade: render.is_upgrade, namespace, lookup, server, flag_warnings })
}

impl Prepared {
    /// The engine's input for the release `name` (revision 1, as `helm template` renders).
    pub fn input(&self, name: &str) -> anyhow::Result<EngineInput<'_>> {
        let Some(charts) = self.explanation.charts.as_ref() else { anyhow::bail!("the chart was not processed") };
        let release = ReleaseInfo { name: name.to_string(), namespace: self.namespace.clone(), revision: 1, is_upgrade: self.is_upgrade, is_install: !self.is_upgrade };
        Ok(EngineInput { chart: &self.chart, charts, values: &self.explanation.values, release, capabilities: self.capabilities.clone(), inner_spans: false, lookup: self.lookup.as_deref(), skip_failing: false })
    }
}

fn templates_json(files: &crate::render::engine::RenderedFiles) -> serde_json::Value {
    files.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.text.clone()))).collect::<serde_json::Map<_, _>>().into()
}

pub fn run(args: &TemplateArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (name, chart_path) = match args.positional.as_slice() {
        [chart] => ("release-name".to_string(), chart),
        [name, chart] => (name.to_string_lossy().into_owned(), chart),
        _ => anyhow::bail!("template takes [NAME] CHART"),
    };
    let prepared = prepare(&args.render, chart_path, &args.pull, ctx, true)?;
    let input = prepared.input(&name)?;
    let opts = TemplateOutput { include_crds: args.include_crds, skip_tests: args.skip_tests, no_hooks: args.no_hooks, show_only: args.show_only.clone() };
    let files = render_files(&input).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut outcome = Outcome { warnings: prepared.flag_warnings.iter().chain(&prepared.explanation.warnings).cloned().collect(), ..Outcome::default() };
    let (files, sorted, text) = match print_files(&input, files, &opts) {
        Ok(NativeTemplate { files, sorted, text }) => (files, sorted, text),
        // -o json still shows what each template printed (as `helm template
        // --debug` prints the invalid YAML), with Helm's error and exit 1.
        Err((e, files)) if ctx.format() == OutputFormat::Json => {
            outcome.stdout_json = Some(serde_json::json!({"templates": templates_json(&files), "error": e.to_string()}));
            outcome.warnings.push(format!("error: {e}"));
            outcome.exit_code = Some(1);
            return Ok(outcome);
        }
        Err((e, _)) => anyhow::bail!("{e}"),
    };
    // `--dry-run=server`: an install stops where an object exists that is not the release's.
    if let (Some((target, discovery)), false) = (&prepared.server, prepared.is_upgrade) {
        let manifest = crate::render::template::release_manifest(&sorted, &[], false);
        crate::upgrade::install_check::existing_object_conflicts(target, discovery, &manifest, &name, &prepared.namespace).map_err(|e| anyhow::anyhow!(e))?;
    }
    match ctx.format() {
        OutputFormat::Json => outcome.stdout_json = Some(serde_json::json!({"templates": templates_json(&files), "notes": sorted.notes, "manifest": text})),
        OutputFormat::Text => outcome.stdout = text,
        other => anyhow::bail!("template prints text or json, not {other:?}"),
    }
    drop(input);
    // Freeing the chart costs more than the rest of the process; it ends soon.
    std::mem::forget(prepared);
    Ok(outcome)
}
