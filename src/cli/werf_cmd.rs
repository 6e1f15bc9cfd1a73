//! `values explain --werf [DIR]`: reads the werf project, the `WERF_*`
//! environment, the secret key, and hands them to [`crate::werf`].

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::args::ExplainArgs;
use super::{Ctx, Outcome};
use crate::explain::Options;
use crate::values::user::ValuesFile;
use crate::werf::{Secrets, WerfInput, explain_werf, project_layout};

pub fn run(args: &ExplainArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let root = args.chart.clone().unwrap_or_else(|| PathBuf::from("."));
    let werf_yaml = ["werf.yaml", "werf.yml"].iter().map(|n| root.join(n)).find(|p| p.is_file());
    let werf_text = match &werf_yaml {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?),
        None => None,
    };
    let (chart_dir, project) = project_layout(werf_text.as_deref())?;
    let chart_path = root.join(&chart_dir);
    let chart = crate::chart::load(&chart_path).with_context(|| format!("werf chart {}", chart_path.display()))?;
    let env = ctx.env.with_prefix("WERF_");
    let flags = super::inputs::value_flags(&args.flags)?;
    let read = |p: &Path, name: &str| std::fs::read_to_string(p).with_context(|| format!("cannot read secret values file {name}"));
    let secret_values = args
        .werf
        .secret_values
        .iter()
        .map(|name| Ok(ValuesFile { name: name.clone(), text: read(Path::new(name), name)? }))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Named relative to the chart, as its values.yaml is.
    let chart_secret_path = chart_path.join("secret-values.yaml");
    let chart_secret_values = match chart_secret_path.is_file() {
        true => Some(ValuesFile { name: "secret-values.yaml".into(), text: read(&chart_secret_path, "secret-values.yaml")? }),
        false => None,
    };
    let secrets = if args.werf.ignore_secret_key {
        Secrets::Ignore
    } else {
        crate::werf::secret::find_key(&root, env.get("WERF_SECRET_KEY").cloned(), ctx.env.get("HOME").map(Path::new))?
    };
    let env_name = args.werf.werf_env.clone().or_else(|| env.get("WERF_ENV").cloned()).unwrap_or_default();
    let project = project.unwrap_or_else(|| chart.metadata.name.clone());
    let namespace = ctx.global.namespace.clone().unwrap_or_else(|| crate::werf::default_namespace(&project, &env_name));
    let images = match &args.werf.werf_images {
        Some(file) => {
            let text = std::fs::read_to_string(file).with_context(|| format!("cannot read --werf-images {file}"))?;
            let list = crate::werf::images::parse_report(&text).map_err(|source| crate::werf::WerfError::Images { file: file.clone(), source })?;
            Some((file.clone(), list))
        }
        None => None,
    };
    let input = WerfInput {
        env,
        flags,
        secret_values,
        chart_secret_values,
        no_default_values: args.werf.no_default_values,
        no_default_secret_values: args.werf.no_default_secret_values,
        secrets,
        show_secrets: args.show_secrets,
        env_name,
        project,
        namespace,
        images,
    };
    let mut read_file = super::inputs::set_file_reader;
    let explanation = explain_werf(&chart, &input, &mut read_file, Options { skip_schema_validation: args.skip_schema_validation })?;
    super::views::explain::render(args, ctx, explanation)
}
