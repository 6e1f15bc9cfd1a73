//! Command-line grammar (clap). Nothing here acts; `cli::run` does.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The help heading of the global flags (cli::help writes each command's own `-o` text under it).
pub const GLOBAL_HEADING: &str = "Global options";

/// `--version`: ours, and the Helm behaviour it reproduces.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (Helm 4.2 semantics)");

#[derive(Debug, Parser)]
#[command(
    name = "kubectl-releasex",
    bin_name = "kubectl-releasex",
    version = VERSION,
    about = "Explain Helm values, preview Helm upgrades exactly, and decode what Helm stored about a release",
    long_about = "Explain Helm values, preview Helm upgrades exactly, and decode what Helm stored about a release.\n\nRuns as a kubectl plugin (`kubectl releasex ...`) and as the Helm plugin `preview` (`helm preview ...`). It only ever reads from the cluster.",
    after_help = ROOT_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

const ROOT_HELP: &str = "Examples:
  kubectl releasex release history web -n prod
  kubectl releasex explain ./mychart -f prod.yaml --key image
  kubectl releasex upgrade-preview web ./mychart -f prod.yaml
  helm preview web ./mychart -f prod.yaml      # as a Helm plugin: upgrade-preview is the default
  kubectl releasex rollback-preview web 3
  kubectl releasex diff upgrade web ./mychart  # helm-diff's command line (also as the Helm plugin `diff`: docs/helm-diff.md)

Exit codes: 0 success, 1 error (including usage errors), 2 changes found (only with --detailed-exitcode),
3 the previewed Helm command would fail.";

// The flags every command takes. Under their own heading, which clap lists
// after a command's own flags (propagated globals are appended to each
// subcommand's arguments when the command is built).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = GLOBAL_HEADING)]
pub struct GlobalArgs {
    /// Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)
    #[arg(long, global = true, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)
    #[arg(long, global = true, value_name = "NAME")]
    pub context: Option<String>,
    /// Namespace (default: the context's namespace, else "default"; $HELM_NAMESPACE under Helm)
    #[arg(short = 'n', long, global = true, value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl's flag: 30s, 2m, a plain number is seconds, 0 means no limit)
    #[arg(long, global = true, value_name = "DURATION", default_value = "30s", value_parser = parse_request_timeout)]
    pub request_timeout: std::time::Duration,
    /// Output format: text (the default), json or yaml (cli::help words it per command)
    #[arg(short = 'o', long, global = true, value_enum, hide_possible_values = true)]
    pub output: Option<OutputFormat>,
    /// When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print each phase's wall time to stderr when done (also RELEASEX_TIMINGS=1)
    #[arg(long, global = true)]
    pub timings: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    Yaml,
    /// upgrade-preview only: the report for a pull-request comment
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)
    #[command(subcommand, after_help = RELEASE_EXAMPLES)]
    Release(ReleaseCommand),
    /// Where values come from
    #[command(subcommand, after_help = "Examples:\n  kubectl releasex values explain ./mychart -f prod.yaml --set image.tag=1.2.1")]
    Values(ValuesCommand),
    /// Shorthand for `values explain`
    #[command(after_help = EXPLAIN_HELP)]
    Explain(ExplainArgs),
    /// What `helm upgrade RELEASE CHART [flags]` would do with the values: the
    /// baseline revision, each value mode, what is kept, dropped or new
    #[command(name = "upgrade-preview", after_help = UPGRADE_PREVIEW_HELP)]
    UpgradePreview(UpgradePreviewArgs),
    /// What `helm rollback RELEASE [REVISION]` would do: the target revision, the
    /// stored config it brings back, and per object the request Helm would send
    #[command(name = "rollback-preview", alias = "rollback", after_help = ROLLBACK_PREVIEW_HELP)]
    RollbackPreview(super::rollback_cmd::RollbackPreviewArgs),
    /// Which template action and which values keys produced each field of the rendered objects
    #[command(after_help = super::blame_cmd::BLAME_HELP)]
    Blame(super::blame_cmd::BlameArgs),
    /// Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)
    #[command(after_help = super::template_cmd::TEMPLATE_HELP)]
    Template(super::template_cmd::TemplateArgs),
    /// Compute the patch `helm upgrade` sends for one object (original = previous
    /// manifest's object, modified = new manifest's object, current = live object)
    #[command(after_help = PATCH_HELP)]
    Patch(PatchArgs),
    /// Print a shell completion script (static words, plus release names, revisions,
    /// namespaces, contexts, charts and values files asked from the binary at TAB time)
    #[command(after_help = COMPLETION_EXAMPLES)]
    Completion {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

const ROLLBACK_PREVIEW_HELP: &str = "As helm rollback (pkg/action/rollback.go): from the last revision, whatever its status, to REVISION,
or to the one before the last when none is given; the new revision gets the target's chart, config, manifest and hooks.
Objects are patched from the last revision's manifest to the target's, with the target's apply method.

Exit codes: 0 nothing changes (or no --detailed-exitcode), 2 something changes (with --detailed-exitcode),
3 helm rollback would fail, 1 an error of this command.

Examples:
  kubectl releasex rollback-preview web            # to the previous revision
  helm preview rollback web 3 -o json
  kubectl releasex rollback-preview web 2 --release-file web-history.yaml --offline";

const RELEASE_EXAMPLES: &str = "Examples:
  kubectl releasex release decode web --show values
  kubectl releasex release history web -n prod";

const COMPLETION_EXAMPLES: &str = "Examples:
  source <(kubectl-releasex completion bash)                         # bash, this shell
  kubectl-releasex completion zsh > \"${fpath[1]}/_kubectl-releasex\"   # zsh
  kubectl-releasex completion fish > ~/.config/fish/completions/kubectl-releasex.fish";

const PATCH_HELP: &str = "Helm's choice: built-in kinds get a three-way strategic merge patch (metadata from the Go struct
tags of Kubernetes 1.36, or --patch-meta); custom resources and other unknown kinds get the
two-way JSON merge patch original -> modified, which ignores the live object.

Output: by default the patch bytes exactly as Helm sends them, on one line (`{}` when empty:
Helm then sends nothing). -o json: {\"type\", \"content_type\", \"patch\", \"empty\"}. -o text: the
patch pretty-printed with a summary.

Examples:
  kubectl releasex patch old.yaml new.yaml live.yaml
  kubectl get deploy web -o yaml | kubectl releasex patch old.yaml new.yaml - -o text";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PatchTypeArg {
    /// Helm's choice for the object's kind
    Auto,
    /// Three-way strategic merge patch
    Strategic,
    /// JSON merge patch (two-way, as helm upgrade sends it)
    Merge,
}

#[derive(Debug, Args)]
pub struct PatchArgs {
    /// The object in the previous release's manifest (YAML or JSON; - for stdin)
    pub original: PathBuf,
    /// The object in the new manifest
    pub modified: PathBuf,
    /// The live object (as `kubectl get -o yaml` prints it)
    pub current: PathBuf,
    /// Patch type
    #[arg(long = "type", value_enum, default_value_t = PatchTypeArg::Auto)]
    pub patch_type: PatchTypeArg,
    /// Patch metadata from an OpenAPI document instead of the embedded Kubernetes 1.36
    /// table: v2 (`kubectl get --raw /openapi/v2`) or v3 (`kubectl get --raw /openapi/v3/apis/apps/v1`)
    #[arg(long, value_name = "FILE", conflicts_with = "patch_meta_from_cluster")]
    pub patch_meta: Option<PathBuf>,
    /// Patch metadata from the cluster's OpenAPI (v3, else v2; read-only GETs)
    #[arg(long)]
    pub patch_meta_from_cluster: bool,
    /// The patch of `helm install --take-ownership` (client-side apply): unknown kinds get the
    /// three-way JSON merge patch with the apiVersion/kind/name preconditions instead of the two-way one
    #[arg(long)]
    pub take_ownership: bool,
    /// Mask a Secret's data, stringData and last-applied annotation in the patch (`--mask-secrets=false`
    /// shows them). Default: on for -o text, json and yaml; off for the raw request body, which stays
    /// byte for byte what Helm sends
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub mask_secrets: Option<bool>,
}

#[derive(Debug, Subcommand)]
pub enum ValuesCommand {
    /// The values a chart's templates will see, exactly as Helm computes them, with the source of every key
    #[command(after_help = EXPLAIN_HELP)]
    Explain(ExplainArgs),
}

const EXPLAIN_HELP: &str = "Value flags work exactly as in Helm: all -f files in order, then --set-json, --set,
--set-string, --set-file and --set-literal (by kind, not by position), each parsed into the
values accumulated so far.

Examples:
  kubectl releasex values explain ./mychart -f prod.yaml --set image.tag=1.2.1
  kubectl releasex explain ./mychart -f prod.yaml --key image --show-overridden
  kubectl releasex explain ./mychart -o json | jq '.entries[] | select(.path == \"image.tag\")'";

/// The heading of `explain`'s helmfile flags.
const HELMFILE_HEADING: &str = "helmfile (with --helmfile)";

#[derive(Debug, Args)]
pub struct ValueFlagArgs {
    /// Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)
    // Split in cli::inputs::value_file_names with Go's encoding/csv, as pflag's StringSlice splits.
    #[arg(short = 'f', long = "values", value_name = "FILE")]
    pub values: Vec<String>,
    /// Set a value (KEY=VALUE; repeatable)
    #[arg(long = "set", value_name = "EXPR")]
    pub set: Vec<String>,
    /// Set a STRING value (repeatable)
    #[arg(long = "set-string", value_name = "EXPR")]
    pub set_string: Vec<String>,
    /// Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)
    #[arg(long = "set-json", value_name = "EXPR")]
    pub set_json: Vec<String>,
    /// Set a value from a file's contents (KEY=PATH; repeatable)
    #[arg(long = "set-file", value_name = "EXPR")]
    pub set_file: Vec<String>,
    /// Set a literal STRING value (no parsing of the value; repeatable)
    #[arg(long = "set-literal", value_name = "EXPR")]
    pub set_literal: Vec<String>,
}

#[derive(Debug, Args)]
// Help order: CHART and Helm's value flags, explain's own options, then chart
// download, helmfile and werf, each under its heading (clap lists headings
// in the order their first argument is declared, and a flattened group's
// heading sticks to the fields after it, so groups come last).
pub struct ExplainArgs {
    /// Chart directory or .tgz, REPO/NAME, oci://HOST/PATH, an archive URL, or NAME with --repo (not with --release);
    /// with --werf the werf project root (default .)
    #[arg(required_unless_present_any = ["release", "release_files", "werf", "helmfile"])]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub flags: ValueFlagArgs,
    /// Show only this key and what is below it, with its full history (repeatable)
    #[arg(long = "key", value_name = "PATH")]
    pub keys: Vec<String>,
    /// Also show what each key overrode
    #[arg(long)]
    pub show_overridden: bool,
    /// Only the keys you set (values files, --set flags, the release config, helmfile and werf layers), with what they overrode
    #[arg(long)]
    pub user: bool,
    /// Skip values.schema.json validation, as Helm's --skip-schema-validation
    #[arg(long)]
    pub skip_schema_validation: bool,
    /// With --helmfile or --werf: print secret values instead of <secret>
    #[arg(long)]
    pub show_secrets: bool,
    /// Explain a deployed release's values instead (what `helm get values --all` shows), read from the cluster;
    /// with --helmfile: the helmfile release to explain
    #[arg(long, value_name = "NAME", conflicts_with = "chart")]
    pub release: Option<String>,
    /// With --release: the revision (default: the latest)
    #[arg(long, value_name = "N")]
    pub revision: Option<i64>,
    /// With --release: read the release records from FILE (as `release decode -f`)
    #[arg(long = "release-file", value_name = "FILE", conflicts_with = "chart")]
    pub release_files: Vec<PathBuf>,
    /// With --release: Helm storage driver (secret, configmap or sql)
    #[arg(long, env = "HELM_DRIVER", hide_env_values = true, value_parser = parse_driver, value_name = "DRIVER")]
    pub driver: Option<StorageDriver>,
    /// With --release --driver sql: PostgreSQL connection string
    #[arg(long, env = "HELM_DRIVER_SQL_CONNECTION_STRING", hide_env_values = true, value_name = "URL")]
    pub sql_connection: Option<String>,
    #[command(flatten)]
    pub pull: super::helm_flags::ChartPullArgs,
    /// Explain a helmfile's state values (or, with --release, one release's values through helmfile and Helm)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["chart", "release_files"], help_heading = HELMFILE_HEADING)]
    pub helmfile: Option<PathBuf>,
    /// With --helmfile: the environment
    #[arg(short = 'e', long, value_name = "ENV", requires = "helmfile", default_value = "default", help_heading = HELMFILE_HEADING)]
    pub environment: String,
    /// With --helmfile: as helmfile --state-values-set (KEY=VALUE,...; repeatable)
    #[arg(long = "state-values-set", value_name = "EXPR", requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub state_values_set: Vec<String>,
    /// With --helmfile: as helmfile --state-values-set-string (repeatable)
    #[arg(long = "state-values-set-string", value_name = "EXPR", requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub state_values_set_string: Vec<String>,
    /// With --helmfile: as helmfile --state-values-file (repeatable)
    #[arg(long = "state-values-file", value_name = "FILE", requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub state_values_files: Vec<String>,
    /// With --helmfile: explain without sops-encrypted secrets files (reported as skipped)
    #[arg(long, requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub skip_secrets: bool,
    /// With --helmfile: explain without .gotmpl files that hold template actions (reported as skipped)
    #[arg(long, requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub skip_templated: bool,
    /// With --helmfile: as helmfile --kube-context (what templates read as .KubeContext)
    #[arg(long, value_name = "NAME", requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub kube_context: Option<String>,
    /// With --helmfile: let templates run commands (exec, envExec), as helmfile does; without it they stop naming the command
    #[arg(long, requires = "helmfile", help_heading = HELMFILE_HEADING)]
    pub allow_exec: bool,
    #[command(flatten)]
    pub werf: WerfArgs,
}

/// `values explain --werf`: werf's (nelm's) value sources and order.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "werf (with --werf)")]
pub struct WerfArgs {
    /// Explain as werf computes values: CHART is the project root (default .), the chart is .helm/ or werf.yaml's deploy.helmChartDir; reads $WERF_VALUES_*, $WERF_SECRET_VALUES_*, $WERF_SET*_* (sorted by name)
    #[arg(long, conflicts_with_all = ["release", "release_files"])]
    pub werf: bool,
    /// With --werf: the werf environment (default $WERF_ENV)
    #[arg(long = "env", value_name = "ENV", requires = "werf")]
    pub werf_env: Option<String>,
    /// With --werf: a secret values file (repeatable; later files win)
    #[arg(long = "secret-values", value_name = "FILE", value_delimiter = ',', requires = "werf")]
    pub secret_values: Vec<String>,
    /// With --werf: ignore the chart's values.yaml
    #[arg(long, requires = "werf")]
    pub no_default_values: bool,
    /// With --werf: ignore the chart's secret-values.yaml
    #[arg(long, requires = "werf")]
    pub no_default_secret_values: bool,
    /// With --werf: do not decrypt; explain with the encrypted strings (as werf --ignore-secret-key)
    #[arg(long, requires = "werf")]
    pub ignore_secret_key: bool,
    /// With --werf: werf's image values (werf.image.*, werf.tag.*, werf.repo, global.werf.images.*) from a build report (werf build --save-build-report, JSON)
    #[arg(long, value_name = "FILE", requires = "werf")]
    pub werf_images: Option<String>,
}

#[derive(Debug, Args)]
// Own options first, then the groups of helm upgrade's flags under their
// headings (a flattened group's heading sticks to the fields after it).
pub struct UpgradePreviewArgs {
    /// The release to upgrade
    pub release: String,
    /// The new chart: a directory or .tgz, REPO/NAME, oci://HOST/PATH, an archive URL, or NAME with --repo
    pub chart: PathBuf,
    #[command(flatten)]
    pub flags: ValueFlagArgs,
    /// As helm upgrade --reuse-values (ignored if --reset-values is given, as in Helm)
    #[arg(long)]
    pub reuse_values: bool,
    /// As helm upgrade --reset-values
    #[arg(long)]
    pub reset_values: bool,
    /// As helm upgrade --reset-then-reuse-values (ignored if either of the others is given, as in Helm)
    #[arg(long)]
    pub reset_then_reuse_values: bool,
    /// Compute the four value modes side by side and recommend one
    #[arg(long)]
    pub compare_modes: bool,
    /// Stop after the values (no rendering, no cluster objects)
    #[arg(long)]
    pub values_only: bool,
    /// Read the release's records from FILE instead of the cluster (as `release decode -f`; repeatable)
    #[arg(long = "release-file", value_name = "FILE")]
    pub release_files: Vec<PathBuf>,
    /// Helm storage driver (secret, configmap or sql)
    #[arg(long, env = "HELM_DRIVER", hide_env_values = true, value_parser = parse_driver, value_name = "DRIVER")]
    pub driver: Option<StorageDriver>,
    /// With --driver sql: PostgreSQL connection string
    #[arg(long, env = "HELM_DRIVER_SQL_CONNECTION_STRING", hide_env_values = true, value_name = "URL")]
    pub sql_connection: Option<String>,
    /// Show only these keys (and what is below them) in the values, config and changes (repeatable)
    #[arg(long = "key", value_name = "PATH")]
    pub keys: Vec<String>,
    /// Skip values.schema.json validation, as Helm's --skip-schema-validation
    #[arg(long)]
    pub skip_schema_validation: bool,
    /// Use this rendered manifest instead of running Helm (`-` reads stdin), e.g. the output of `helm template`
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<String>,
    /// As helm upgrade --server-side: auto follows the last revision's apply method
    #[arg(long, value_name = "auto|true|false", default_value = "auto")]
    pub server_side: String,
    /// As helm upgrade --take-ownership: adopt existing objects without checking their owner
    #[arg(long)]
    pub take_ownership: bool,
    /// As helm upgrade --install: preview an install when the release has no records or its last one is uninstalled
    #[arg(short = 'i', long, visible_alias = "allow-unreleased")]
    pub install: bool,
    /// With --install: Helm creates the namespace when it does not exist (shown in the plan)
    #[arg(long)]
    pub create_namespace: bool,
    /// As helm upgrade --no-hooks: Helm stores the hooks in the new record but runs none of them
    #[arg(long)]
    pub no_hooks: bool,
    /// As helm upgrade --force-conflicts (server-side apply)
    #[arg(long)]
    pub force_conflicts: bool,
    /// As helm upgrade --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)
    #[arg(long, conflicts_with = "force_conflicts")]
    pub force_replace: bool,
    /// Deprecated spelling of --force-replace (Helm 3's --force)
    #[arg(long, conflicts_with = "force_conflicts")]
    pub force: bool,
    #[command(flatten)]
    pub objects: ObjectViewArgs,
    /// Diffs are shown by default; kept so that older command lines still work
    #[arg(long, hide = true)]
    pub diff: bool,
    /// Show every value the templates will see, the config Helm stores, and every new chart default
    #[arg(long)]
    pub show_values: bool,
    /// Exit 2 when the upgrade changes an object (with --values-only: a value), 0 when nothing changes; 3 when Helm would fail either way
    #[arg(long)]
    pub detailed_exitcode: bool,
    /// Let the templates' lookup read the cluster while rendering, as helm upgrade does (GET and LIST only)
    #[arg(long)]
    pub lookup: bool,
    /// Render with `helm template` ($HELM_BIN or helm on PATH) instead of releasex's own engine
    /// (also used for --post-renderer and --enable-dns; with --lookup, Helm renders with --dry-run=server)
    #[arg(long)]
    pub render_with_helm: bool,
    /// Under each changed line of a diff, the values key (and where its value came from) or the
    /// template line that printed it (releasex's own renderer only)
    #[arg(long)]
    pub why: bool,
    /// Contact no API server: the records come from --release-file (or --driver sql), each new object is compared
    /// with the baseline's stored manifest (as helm-diff does), and drift is unknown
    #[arg(long, conflicts_with = "lookup")]
    pub offline: bool,
    #[command(flatten)]
    pub pull: super::helm_flags::ChartPullArgs,
    #[command(flatten)]
    pub render: super::helm_flags::RenderArgs,
    #[command(flatten)]
    pub record: super::helm_flags::RecordArgs,
    #[command(flatten)]
    pub upgrade_only: super::helm_flags::UpgradeOnlyArgs,
}

/// How the objects part reads the cluster and shows each object: one set
/// for every command that prints a plan (upgrade-preview, rollback-preview).
#[derive(Debug, Args, Clone)]
pub struct ObjectViewArgs {
    /// Leave this field out of patches, drift and the exit code: PATH or Kind:PATH (repeatable)
    #[arg(long = "ignore", value_name = "PATH")]
    pub ignore: Vec<String>,
    /// Show Secret values, decoded from base64 in the diffs, and values under keys that look secret (masked by default)
    #[arg(long)]
    pub show_secrets: bool,
    /// Lines of context around each change in the object diffs (helm diff's -C; --context is the kubeconfig context here)
    #[arg(short = 'C', long = "diff-context", value_name = "N", default_value_t = 3)]
    pub diff_context: usize,
    /// Also show the exact request body Helm sends for each object (patch, apply body or PUT; always in -o json)
    #[arg(long)]
    pub show_patch: bool,
    /// Also list the objects left unchanged
    #[arg(long)]
    pub show_unchanged: bool,
    /// Leave objects of this kind out of the listing (they still count in the plan; repeatable)
    #[arg(long = "suppress", value_name = "KIND")]
    pub suppress: Vec<String>,
    /// Show Secrets by name only
    #[arg(long)]
    pub suppress_secrets: bool,
    /// How many live objects to read at once
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub concurrency: usize,
}

impl ObjectViewArgs {
    /// The `--ignore` rules, each checked.
    pub fn ignore_rules(&self) -> anyhow::Result<Vec<crate::upgrade::IgnoreRule>> {
        self.ignore.iter().map(|t| crate::upgrade::parse_ignore(t).map_err(anyhow::Error::msg)).collect()
    }

    pub fn view(&self) -> super::views::plan::ObjectsView {
        super::views::plan::ObjectsView {
            context: self.diff_context,
            show_patch: self.show_patch,
            show_unchanged: self.show_unchanged,
            suppress: self.suppress.clone(),
            suppress_secrets: self.suppress_secrets,
            show_secrets: self.show_secrets,
        }
    }
}

const UPGRADE_PREVIEW_HELP: &str = "Value modes, exactly as helm upgrade (pkg/action/upgrade.go reuseValues):
  default                    reuses the stored config only when no value flag gives any value;
                             any -f or --set drops every stored value you do not repeat
  --reuse-values             stored config under your flags, and the OLD chart's values instead
                             of the new chart's values.yaml (new parent defaults do not apply)
  --reset-values             your flags over the new chart's defaults; the stored config is ignored
  --reset-then-reuse-values  stored config under your flags, over the new chart's defaults

Exit codes: 0 nothing changes (or no --detailed-exitcode), 2 something changes (with --detailed-exitcode),
3 helm upgrade would fail, 1 an error of this command.

Examples:
  kubectl releasex upgrade-preview web ./web-2.0.0.tgz --set image.tag=2.0 --compare-modes
  kubectl releasex upgrade-preview web ./chart -f prod.yaml --reuse-values --values-only -o json
  kubectl releasex upgrade-preview web ./chart --release-file web-history.yaml --key image";

#[derive(Debug, Subcommand)]
pub enum ReleaseCommand {
    /// Decode one revision of a release record and show a view of it
    #[command(after_help = DECODE_EXAMPLES)]
    Decode(DecodeArgs),
    /// One row per revision of a release, and what its state means for the next upgrade
    #[command(after_help = HISTORY_EXAMPLES)]
    History(HistoryArgs),
}

const DECODE_EXAMPLES: &str = "Examples:
  kubectl releasex release decode web                       # latest revision, from Secrets in the current namespace
  kubectl releasex release decode web --revision 3 --show values -o json
  kubectl get secret sh.helm.release.v1.web.v3 -o yaml | kubectl releasex release decode -f - --show manifest
  kubectl releasex release decode -f examples/demo-release.yaml --show hooks";

const HISTORY_EXAMPLES: &str = "Examples:
  kubectl releasex release history web -n prod
  kubectl releasex release history -f examples/demo-release.yaml -o json";

#[derive(Debug, Args, Clone)]
pub struct SourceArgs {
    /// Read records from FILE instead of the cluster: a Secret or ConfigMap as
    /// `kubectl get -o yaml|json` prints it, a List, a directory of such files,
    /// or a bare payload; `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Helm storage driver: secret (default), configmap or sql
    #[arg(long, env = "HELM_DRIVER", hide_env_values = true, value_parser = parse_driver, value_name = "DRIVER")]
    pub driver: Option<StorageDriver>,
    /// PostgreSQL connection string for --driver sql (as Helm's HELM_DRIVER_SQL_CONNECTION_STRING)
    #[arg(long, env = "HELM_DRIVER_SQL_CONNECTION_STRING", hide_env_values = true, value_name = "URL")]
    pub sql_connection: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageDriver {
    Secret,
    ConfigMap,
    Sql,
}

/// kubectl's `--request-timeout` (client-go clientcmd.ParseTimeout).
fn parse_request_timeout(s: &str) -> Result<std::time::Duration, String> {
    crate::go::duration::parse_timeout(s)
}

/// Accepts the names Helm accepts for HELM_DRIVER (helm: pkg/action/action.go Init).
pub(crate) fn parse_driver(s: &str) -> Result<StorageDriver, String> {
    match s {
        "" | "secret" | "secrets" => Ok(StorageDriver::Secret),
        "configmap" | "configmaps" => Ok(StorageDriver::ConfigMap),
        "sql" => Ok(StorageDriver::Sql),
        "memory" => Err("the memory driver keeps nothing between Helm runs, so there is nothing stored to read".into()),
        other => Err(format!("unknown driver {other:?} (expected secret, configmap or sql)")),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum View {
    /// Name, revision, status, chart, times, description, apply method, sizes
    Summary,
    /// The user-supplied values (like `helm get values`)
    Values,
    /// Chart defaults coalesced with the user values (like `helm get values --all`)
    AllValues,
    /// The rendered manifest (Secret data masked)
    Manifest,
    /// Hooks with events, weight and delete policies (Secret data masked)
    Hooks,
    /// The chart's NOTES.txt as rendered
    Notes,
    /// Chart metadata, dependencies, templates and files
    Chart,
    /// The whole decoded record
    Record,
    /// Where the record's bytes go, against the 1 MiB object limit
    Size,
}

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// Release name (optional with -f when the input holds one release)
    pub name: Option<String>,
    /// Revision to decode (default: the latest)
    #[arg(long, value_name = "N")]
    pub revision: Option<i64>,
    /// What to show
    #[arg(long, value_enum, default_value_t = View::Summary)]
    pub show: View,
    /// With --show chart: print this template (or file) of the stored chart, decoded
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// Show Secret data in manifests and hooks instead of masking it
    #[arg(long)]
    pub show_secrets: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Release name (optional with -f when the input holds one release)
    pub name: Option<String>,
    /// Show at most this many of the latest revisions (like `helm history --max`)
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max: usize,
    #[command(flatten)]
    pub source: SourceArgs,
}
