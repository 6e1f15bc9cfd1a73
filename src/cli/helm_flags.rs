//! The `helm upgrade` flags that are not value flags, as Helm 4.2 and 3
//! spell them (pkg/cmd/upgrade.go, pkg/cmd/flags.go), so `helm preview
//! ARGS` takes whatever `helm upgrade ARGS` takes. Each flag is either used
//! (chart download, `--dependency-update`, `--history-max`) or, when it only
//! changes how Helm waits, recovers or prints, accepted and named in one
//! note: see [`UpgradeOnlyArgs::not_changing_the_plan`].

use std::path::PathBuf;

use clap::Args;

use crate::chart::fetch::PullOptions;

/// Where CHART comes from when it is not a local path (helm: pkg/cmd/flags.go
/// addChartPathOptionsFlags).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Chart download (as helm pull; CHART may be REPO/NAME, oci://..., a URL, or NAME with --repo)")]
pub struct ChartPullArgs {
    /// A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest
    #[arg(long = "version", value_name = "CONSTRAINT")]
    pub version: Option<String>,
    /// Use development versions too (as version '>0.0.0-0'); ignored with --version
    #[arg(long)]
    pub devel: bool,
    /// Chart repository URL where to find CHART
    #[arg(long, value_name = "URL")]
    pub repo: Option<String>,
    /// Chart repository username
    #[arg(long, value_name = "USER")]
    pub username: Option<String>,
    /// Chart repository password (see also --password-stdin)
    #[arg(long, value_name = "PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// Read the chart repository password from stdin
    #[arg(long, conflicts_with = "password")]
    pub password_stdin: bool,
    /// Pass credentials to all domains
    #[arg(long)]
    pub pass_credentials: bool,
    /// Verify certificates of HTTPS chart servers with this CA bundle
    #[arg(long, value_name = "FILE")]
    pub ca_file: Option<PathBuf>,
    /// Client certificate for the chart server
    #[arg(long, value_name = "FILE")]
    pub cert_file: Option<PathBuf>,
    /// Client key for the chart server
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// Skip TLS certificate checks for the chart download
    #[arg(long)]
    pub insecure_skip_tls_verify: bool,
    /// Use plain HTTP for the chart download
    #[arg(long)]
    pub plain_http: bool,
    /// Public keys for --verify (Helm's default: ~/.gnupg/pubring.gpg)
    #[arg(long, value_name = "FILE")]
    pub keyring: Option<PathBuf>,
    /// Verify the chart's provenance before using it
    #[arg(long)]
    pub verify: bool,
    /// Fetch missing dependencies first (into a temporary copy, never into your chart directory)
    #[arg(long)]
    pub dependency_update: bool,
}

impl ChartPullArgs {
    /// The options for [`crate::chart::fetch`]; `password` is the one read
    /// from stdin for --password-stdin.
    pub fn options(&self, password: Option<String>) -> PullOptions {
        PullOptions {
            version: self.version.clone(),
            devel: self.devel,
            repo: self.repo.clone(),
            username: self.username.clone(),
            password: password.or_else(|| self.password.clone()),
            pass_credentials: self.pass_credentials,
            ca_file: self.ca_file.clone(),
            cert_file: self.cert_file.clone(),
            key_file: self.key_file.clone(),
            insecure_skip_tls_verify: self.insecure_skip_tls_verify,
            plain_http: self.plain_http,
            keyring: self.keyring.clone(),
            verify: self.verify,
        }
    }
}

/// `helm upgrade` flags that change how Helm waits, recovers or prints,
/// not what it sends: accepted so a `helm upgrade` command line previews
/// as it is.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "helm upgrade flags that do not change the plan (accepted, listed in a note)")]
pub struct UpgradeOnlyArgs {
    #[command(flatten)]
    pub waits: WaitArgs,
    /// Roll back on failure (Helm 3's --atomic)
    #[arg(long, visible_alias = "atomic")]
    pub rollback_on_failure: bool,
    /// Do not print the chart's notes
    #[arg(long)]
    pub hide_notes: bool,
    /// Hide Secrets in Helm's --dry-run output (the preview masks them unless --show-secrets)
    #[arg(long)]
    pub hide_secret: bool,
    /// Render subcharts' NOTES.txt too (only the notes Helm prints and stores change)
    #[arg(long)]
    pub render_subchart_notes: bool,
    /// Without --install Helm never installs CRDs, so this changes nothing in an upgrade
    #[arg(long)]
    pub skip_crds: bool,
    /// Skip Helm's OpenAPI validation of the rendered objects (the preview does not run that validation)
    #[arg(long)]
    pub disable_openapi_validation: bool,
}

/// How `helm upgrade` and `helm rollback` wait and recover (same flags in
/// both, pkg/cmd/upgrade.go and rollback.go), accepted as they are.
#[derive(Debug, Args, Clone, Default)]
pub struct WaitArgs {
    /// Wait for resources to be ready (Helm 4: watcher, hookOnly or legacy)
    #[arg(long, value_name = "STRATEGY", num_args = 0..=1, require_equals = true, default_missing_value = "watcher")]
    pub wait: Option<String>,
    /// With --wait: also wait for Jobs to complete
    #[arg(long)]
    pub wait_for_jobs: bool,
    /// How long Helm waits for each Kubernetes operation
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Delete new resources when the command fails
    #[arg(long)]
    pub cleanup_on_fail: bool,
    /// Helm's own simulation (none, client or server); a preview never changes anything anyway
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "client")]
    pub dry_run: Option<String>,
}

/// `helm upgrade` flags that change what Helm stores about the release.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "What Helm stores (as helm upgrade)")]
pub struct RecordArgs {
    /// Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this upgrade
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub history_max: i64,
    /// The new record's description (Helm's default: "Upgrade complete")
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// Labels merged over the last record's (KEY=VALUE,...; VALUE null removes a label; repeatable)
    #[arg(short = 'l', long = "labels", value_name = "KEY=VALUE", value_delimiter = ',')]
    pub labels: Vec<String>,
}

impl RecordArgs {
    /// `--labels` as pflag's stringToString reads it.
    pub fn labels(&self) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
        self.labels
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| anyhow::anyhow!("invalid argument {l:?} for \"-l, --labels\" flag: {l} must be formatted as key=value"))
            })
            .collect()
    }
}

impl UpgradeOnlyArgs {
    /// The given flags that do not change the plan, as the user spelled
    /// them, grouped by why.
    pub fn not_changing_the_plan(&self) -> Vec<(Vec<&'static str>, &'static str)> {
        let groups: [(&[(bool, &'static str)], &'static str); 3] = [
            (
                &[
                    (self.waits.wait.is_some(), "--wait"),
                    (self.waits.wait_for_jobs, "--wait-for-jobs"),
                    (self.waits.timeout.is_some(), "--timeout"),
                    (self.rollback_on_failure, "--rollback-on-failure/--atomic"),
                    (self.waits.cleanup_on_fail, "--cleanup-on-fail"),
                    (self.waits.dry_run.is_some(), "--dry-run"),
                    (self.hide_notes, "--hide-notes"),
                    (self.hide_secret, "--hide-secret"),
                    (self.render_subchart_notes, "--render-subchart-notes"),
                ],
                "they change how Helm waits, recovers or prints, not what it sends",
            ),
            (&[(self.skip_crds, "--skip-crds")], "an upgrade without --install never installs CRDs"),
            (
                &[(self.disable_openapi_validation, "--disable-openapi-validation")],
                "the preview does not validate the rendered objects against the cluster's OpenAPI schema (a manifest that Helm's validation would refuse is not reported)",
            ),
        ];
        groups
            .iter()
            .filter_map(|(flags, reason)| {
                let given: Vec<&'static str> = flags.iter().filter_map(|(on, f)| on.then_some(*f)).collect();
                (!given.is_empty()).then_some((given, *reason))
            })
            .collect()
    }
}

/// `helm upgrade` flags that change what the templates render.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Rendering (as helm upgrade; passed to helm template)")]
pub struct RenderArgs {
    /// Post-render the manifest (Helm 4: a postrenderer plugin's name; Helm 3: an executable)
    #[arg(long, value_name = "NAME")]
    pub post_renderer: Option<String>,
    /// An argument to the post-renderer (repeatable)
    #[arg(long, value_name = "ARG")]
    pub post_renderer_args: Vec<String>,
    /// Let templates resolve DNS names (getHostByName)
    #[arg(long)]
    pub enable_dns: bool,
    /// Render with this .Capabilities.KubeVersion instead of the cluster's
    #[arg(long, value_name = "VERSION")]
    pub kube_version: Option<String>,
    /// Add to .Capabilities.APIVersions (GROUP/VERSION or GROUP/VERSION/KIND; repeatable, comma-separated)
    #[arg(short = 'a', long = "api-versions", value_name = "VERSION", value_delimiter = ',')]
    pub api_versions: Vec<String>,
}

impl RenderArgs {
    pub fn options(&self) -> crate::render::RenderOptions {
        crate::render::RenderOptions {
            post_renderer: self.post_renderer.clone(),
            post_renderer_args: self.post_renderer_args.clone(),
            enable_dns: self.enable_dns,
            kube_version: self.kube_version.clone(),
            api_versions: self.api_versions.clone(),
        }
    }
}
