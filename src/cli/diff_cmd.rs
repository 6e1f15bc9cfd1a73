//! helm-diff's command line (databus23/helm-diff 3.15, `cmd/*.go`): `diff
//! upgrade|rollback|revision|release|local|version` with its flags and
//! `HELM_DIFF_*` variables, answered by our engine. Run when Helm runs us
//! as the plugin `diff` (`HELM_PLUGIN_NAME=diff`) or as `kubectl releasex
//! diff ...`. `diff upgrade` is a translation to upgrade-preview's command
//! line, shown in helm-diff's report ([`super::views::helm_diff`]);
//! `revision` and `release` compare stored manifests. docs/helm-diff.md
//! says what differs from helm-diff.

use std::ffi::OsString;

use clap::{ArgAction, Args, CommandFactory as _, Parser, Subcommand};

use super::args::{Cli, Command, SourceArgs};
use super::context::Env;
use super::upgrade_cmd::{Parts, Records};
use super::views::helm_diff::{Format, ReportView, report_text};
use super::{Ctx, Outcome};
use crate::upgrade::helm_diff::{self as hd, Options, PlanSelection};

/// The version `diff version` prints and the plugin manifest carries:
/// helm-diff's command line it answers, and ours.
pub const DIFF_VERSION: &str = concat!("3.15.11+releasex.", env!("CARGO_PKG_VERSION"));

/// pflag's boolean spellings (strconv.ParseBool), for `--flag=false`.
pub(crate) fn go_bool(s: &str) -> Result<bool, String> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(format!("strconv.ParseBool: parsing {s:?}: invalid syntax")),
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "diff",
    bin_name = "helm diff",
    version = DIFF_VERSION,
    about = "Show manifest differences (helm-diff's command line, answered by releasex: exact values, live state, Helm's baseline)",
    disable_help_subcommand = true,
    arg_required_else_help = true,
    after_help = "Exit codes: 0 no changes (or no --detailed-exitcode), 2 changes (with --detailed-exitcode), 1 an error,\nincluding a failure helm upgrade would hit. Lines starting `# releasex:` are ours (--no-explain drops them).\nWhat differs from helm-diff, and how to switch back to it: docs/helm-diff.md",
    args_conflicts_with_subcommands = true
)]
pub struct DiffCli {
    /// Remove colors from the output
    #[arg(long, global = true, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub no_color: bool,
    /// Color output (also HELM_DIFF_COLOR=true|false); default: only on a terminal whose TERM is not dumb
    #[arg(long, global = true, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL", value_parser = go_bool)]
    pub color: Option<bool>,
    #[command(subcommand)]
    pub command: DiffCommand,
}

#[derive(Debug, Subcommand)]
pub enum DiffCommand {
    /// Show a diff explaining what a helm upgrade would change
    Upgrade(Box<UpgradeArgs>),
    /// Show a diff explaining what a helm rollback would change
    Rollback(StoredArgs),
    /// Show the diff between two revisions' manifests (one revision: against the latest)
    Revision(StoredArgs),
    /// Show the diff between two releases' manifests ([NAMESPACE/]RELEASE each)
    Release(StoredArgs),
    /// Show the diff between two local charts (not answered by releasex)
    Local(Box<LocalArgs>),
    /// Show the version of the diff plugin
    Version,
}

/// The options every helm-diff subcommand shares (cmd/options.go AddDiffOptions), and ours.
#[derive(Debug, Args, Clone)]
pub struct OutputArgs {
    /// Suppress secrets in the output
    #[arg(short = 'q', long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub suppress_secrets: bool,
    /// Do not redact secret values in the output
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub show_secrets: bool,
    /// Decode secret values in the output
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub show_secrets_decoded: bool,
    /// Suppress the diff of this kind (repeatable)
    #[arg(long, value_name = "KIND")]
    pub suppress: Vec<String>,
    /// Output NUM lines of context around changes (default: every line; HELM_DIFF_OUTPUT_CONTEXT for upgrade)
    #[arg(short = 'C', long, value_name = "NUM", allow_negative_numbers = true)]
    pub context: Option<i64>,
    /// diff, simple or json (template, structured and dyff are helm-diff's own; HELM_DIFF_OUTPUT)
    #[arg(long, value_name = "FORMAT")]
    pub output: Option<String>,
    /// Strip trailing carriage returns on input
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub strip_trailing_cr: bool,
    /// Report an added and a removed object of the same kind as a rename when at most this fraction of lines changed
    #[arg(short = 'D', long, value_name = "FRACTION", default_value_t = 0.0)]
    pub find_renames: f32,
    /// Leave diff lines matching this regular expression out of the output (repeatable)
    #[arg(long, value_name = "REGEX")]
    pub suppress_output_line_regex: Vec<String>,
    /// Leave out releasex's own lines (`# releasex: ...`: baseline, dropped values, drift, conflicts)
    #[arg(long)]
    pub no_explain: bool,
}

/// `revision`, `rollback` and `release` (cmd/revision.go, rollback.go, release.go).
#[derive(Debug, Args)]
pub struct StoredArgs {
    /// RELEASE REVISION1 [REVISION2], RELEASE REVISION, or RELEASE1 RELEASE2
    pub args: Vec<String>,
    /// Exit 2 when there are changes
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub detailed_exitcode: bool,
    /// Also diff Helm test hooks
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub include_tests: bool,
    /// Accepted: objects are compared parsed, so style differences never show
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub normalize_manifests: bool,
    /// Kubeconfig context to use
    #[arg(long, value_name = "NAME")]
    pub kube_context: Option<String>,
    #[command(flatten)]
    pub helm: HelmGlobals,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Helm's global flags, which Helm strips from a plugin's arguments (and
/// exports); given when run as `kubectl releasex diff ...`.
#[derive(Debug, Args, Clone, Default)]
pub struct HelmGlobals {
    /// Namespace (under Helm: helm's -n, exported as HELM_NAMESPACE)
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// Kubeconfig file (helm-diff ignores it: Helm reads it)
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<std::path::PathBuf>,
}

/// `diff upgrade RELEASE CHART` (cmd/upgrade.go newChartCommand).
#[derive(Debug, Args)]
pub struct UpgradeArgs {
    /// The release to upgrade
    pub release: String,
    /// The chart: a directory or .tgz, REPO/NAME, oci://..., a URL, or NAME with --repo
    pub chart: String,
    /// Accepted: releasex always compares with the live objects (and with the stored manifest under --dry-run)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub three_way_merge: bool,
    /// Kubeconfig context to use
    #[arg(long, value_name = "NAME")]
    pub kube_context: Option<String>,
    /// Chart version constraint (default: the latest)
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// Chart repository URL where to find CHART
    #[arg(long, value_name = "URL")]
    pub repo: Option<String>,
    /// Exit 2 when there are changes
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub detailed_exitcode: bool,
    /// Add to .Capabilities.APIVersions (repeatable)
    #[arg(short = 'a', long, value_name = "VERSION")]
    pub api_versions: Vec<String>,
    /// Render with this .Capabilities.KubeVersion
    #[arg(long, value_name = "VERSION")]
    pub kube_version: Option<String>,
    /// Values file (repeatable; comma-separated lists allowed; - reads stdin)
    #[arg(short = 'f', long, value_name = "FILE")]
    pub values: Vec<String>,
    /// Set a value (KEY=VALUE; repeatable)
    #[arg(long, value_name = "EXPR")]
    pub set: Vec<String>,
    /// Set a STRING value (repeatable)
    #[arg(long, value_name = "EXPR")]
    pub set_string: Vec<String>,
    /// Set a literal STRING value (repeatable)
    #[arg(long, value_name = "EXPR")]
    pub set_literal: Vec<String>,
    /// Set a JSON value (repeatable)
    #[arg(long, value_name = "EXPR")]
    pub set_json: Vec<String>,
    /// Set a value from a file's contents (KEY=PATH; repeatable)
    #[arg(long, value_name = "EXPR")]
    pub set_file: Vec<String>,
    /// As helm upgrade --reuse-values (Helm's rule, exactly)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub reuse_values: bool,
    /// As helm upgrade --reset-values
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub reset_values: bool,
    /// As helm upgrade --reset-then-reuse-values
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub reset_then_reuse_values: bool,
    /// Diff an install when the release has no records
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub allow_unreleased: bool,
    /// Same as --allow-unreleased (helm upgrade --install's name)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub install: bool,
    /// Leave hooks out of the diff
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub no_hooks: bool,
    /// Also diff Helm test hooks
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub include_tests: bool,
    /// Also show the chart's crds/ (created on an install only)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub include_crds: bool,
    /// Use development chart versions too
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub devel: bool,
    /// Accepted (the preview does not validate against the cluster)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub disable_validation: bool,
    /// Accepted (the preview does not validate against the OpenAPI schema)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub disable_openapi_validation: bool,
    /// client (also bare --dry-run, true): nothing is read from the cluster, the diff is an install's;
    /// server: Helm's lookup may read the cluster; false/none: the default
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "client")]
    pub dry_run: Option<String>,
    /// Let templates resolve DNS names
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub enable_dns: bool,
    /// Skip values.schema.json validation
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub skip_schema_validation: bool,
    /// Post-render the manifest (as helm upgrade)
    #[arg(long, value_name = "PATH")]
    pub post_renderer: Option<String>,
    /// An argument to the post-renderer (repeatable)
    #[arg(long, value_name = "ARG")]
    pub post_renderer_args: Vec<String>,
    /// Skip TLS certificate checks for the chart download
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub insecure_skip_tls_verify: bool,
    /// Accepted: objects are compared parsed, so style differences never show
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub normalize_manifests: bool,
    /// Adopt existing objects without checking their owner
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub take_ownership: bool,
    /// true, false or auto (follows the last revision's apply method)
    #[arg(long, value_name = "MODE", default_value = "auto")]
    pub server_side: String,
    #[command(flatten)]
    pub download: DownloadArgs,
    #[command(flatten)]
    pub helm: HelmGlobals,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `helm upgrade`'s chart download flags that helm-diff lacks, so a remote
/// chart behind credentials or a private CA diffs as it upgrades (passed to
/// `helm pull`).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "helm upgrade's chart download flags (not in helm-diff; passed to helm pull)")]
pub struct DownloadArgs {
    #[arg(long, value_name = "USER")]
    pub username: Option<String>,
    #[arg(long, value_name = "PASSWORD")]
    pub password: Option<String>,
    #[arg(long)]
    pub password_stdin: bool,
    #[arg(long)]
    pub pass_credentials: bool,
    #[arg(long, value_name = "FILE")]
    pub ca_file: Option<String>,
    #[arg(long, value_name = "FILE")]
    pub cert_file: Option<String>,
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<String>,
    #[arg(long)]
    pub plain_http: bool,
    #[arg(long, value_name = "FILE")]
    pub keyring: Option<String>,
    #[arg(long)]
    pub verify: bool,
    #[arg(long)]
    pub dependency_update: bool,
}

impl DownloadArgs {
    fn words(&self) -> Vec<String> {
        let d = self;
        let mut w: Vec<String> = [("--username", &d.username), ("--password", &d.password), ("--ca-file", &d.ca_file), ("--cert-file", &d.cert_file), ("--key-file", &d.key_file), ("--keyring", &d.keyring)]
            .into_iter()
            .filter_map(|(f, v)| v.as_ref().map(|v| format!("{f}={v}")))
            .collect();
        let switches = [(d.password_stdin, "--password-stdin"), (d.pass_credentials, "--pass-credentials"), (d.plain_http, "--plain-http"), (d.verify, "--verify"), (d.dependency_update, "--dependency-update")];
        w.extend(switches.iter().filter(|(on, _)| *on).map(|(_, f)| f.to_string()));
        w
    }
}

/// `diff local CHART1 CHART2` (cmd/local.go): parsed, not answered.
#[derive(Debug, Args)]
pub struct LocalArgs {
    /// CHART1 CHART2
    pub charts: Vec<String>,
    #[arg(long, default_value = "release")]
    pub release: String,
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub detailed_exitcode: bool,
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub include_tests: bool,
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub include_crds: bool,
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub normalize_manifests: bool,
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", hide_default_value = true, value_name = "BOOL", value_parser = go_bool)]
    pub enable_dns: bool,
    #[arg(short = 'f', long)]
    pub values: Vec<String>,
    #[arg(long)]
    pub set: Vec<String>,
    #[arg(long)]
    pub set_string: Vec<String>,
    #[arg(long)]
    pub set_literal: Vec<String>,
    #[arg(long)]
    pub set_json: Vec<String>,
    #[arg(long)]
    pub set_file: Vec<String>,
    #[arg(long)]
    pub post_renderer: Option<String>,
    #[arg(long)]
    pub post_renderer_args: Vec<String>,
    #[arg(short = 'a', long)]
    pub api_versions: Vec<String>,
    #[arg(long)]
    pub kube_version: Option<String>,
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Whether this run is helm-diff's command line: Helm runs the plugin
/// `diff`, or the first word is `diff`.
pub fn is_diff_invocation(argv: &[OsString], env: &Env) -> bool {
    env.get("HELM_PLUGIN_NAME") == Some("diff") || argv.get(1).is_some_and(|a| a == "diff")
}

/// Runs helm-diff's command line; `argv[0]` is the program.
pub fn run(argv: Vec<OsString>, env: Env) -> std::process::ExitCode {
    let mut words: Vec<OsString> = argv.into_iter().skip(1).collect();
    if env.get("HELM_PLUGIN_NAME") != Some("diff") && words.first().is_some_and(|w| w == "diff") {
        words.remove(0);
    }
    let mut notes = Vec::new();
    let words = root_alias(words, &mut notes);
    let words = if env.get("HELM_DIFF_IGNORE_UNKNOWN_FLAGS") == Some("true") { drop_unknown_flags(words) } else { words };
    let started = std::time::Instant::now();
    let parsed = DiffCli::try_parse_from(std::iter::once(OsString::from("diff")).chain(words));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion) { 0 } else { 1 };
            let _ = e.print();
            return std::process::ExitCode::from(code);
        }
    };
    let result = dispatch(&cli, &env).map(|mut o| {
        o.warnings.splice(0..0, notes);
        o
    });
    super::finish(result, env.helm_debug(), started)
}

/// helm-diff's bare `diff RELEASE CHART` is `diff upgrade` (cmd/root.go,
/// with its deprecation notice).
fn root_alias(mut words: Vec<OsString>, notes: &mut Vec<String>) -> Vec<OsString> {
    let subcommands = ["upgrade", "rollback", "revision", "release", "local", "version", "help"];
    let first_word = words.iter().position(|w| !w.to_string_lossy().starts_with('-'));
    let flags_only = words.iter().all(|w| w.to_string_lossy().starts_with('-'));
    if flags_only {
        return words;
    }
    if let Some(i) = first_word
        && !subcommands.contains(&words[i].to_string_lossy().as_ref())
    {
        notes.push("Command \"helm diff\" is deprecated, use \"helm diff upgrade\" instead".into());
        words.insert(0, "upgrade".into());
    }
    words
}

/// `HELM_DIFF_IGNORE_UNKNOWN_FLAGS=true`: cobra's whitelist of unknown
/// flags, which pflag drops with the word after them unless that word is a
/// flag (spf13/pflag flag.go stripUnknownFlagValue), so a `helm upgrade`
/// command line can be passed as it is.
fn drop_unknown_flags(words: Vec<OsString>) -> Vec<OsString> {
    let cli = DiffCli::command();
    let Some(sub) = words.first().and_then(|w| cli.find_subcommand(w.to_string_lossy().as_ref())).cloned() else { return words };
    let known = |flag: &str| {
        let args: Vec<&clap::Arg> = sub.get_arguments().chain(cli.get_arguments()).collect();
        match flag.strip_prefix("--") {
            Some(long) => args.iter().any(|a| a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|al| al.contains(&long))),
            None => flag.chars().nth(1).is_some_and(|c| args.iter().any(|a| a.get_short() == Some(c))),
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_string_lossy().into_owned();
        if w == "--" {
            out.extend(words[i..].iter().cloned());
            break;
        }
        let name = w.split('=').next().unwrap_or(&w).to_string();
        if w.starts_with('-') && w.len() > 1 && !known(&name) {
            let value_attached = w.contains('=');
            let next_is_value = words.get(i + 1).is_some_and(|n| !n.to_string_lossy().starts_with('-'));
            i += if !value_attached && next_is_value { 2 } else { 1 };
            continue;
        }
        out.push(words[i].clone());
        i += 1;
    }
    out
}

fn dispatch(cli: &DiffCli, env: &Env) -> anyhow::Result<Outcome> {
    match &cli.command {
        DiffCommand::Version => Ok(Outcome { stdout: format!("{DIFF_VERSION}\n"), ..Outcome::default() }),
        DiffCommand::Upgrade(args) => upgrade(cli, args, env),
        DiffCommand::Revision(args) => super::diff_stored::revision(cli, args, env),
        DiffCommand::Release(args) => super::diff_stored::release(cli, args, env),
        DiffCommand::Rollback(args) => super::diff_stored::rollback(cli, args, env),
        DiffCommand::Local(_) => anyhow::bail!(
            "diff local is not answered by the releasex drop-in (it compares two charts rendered by helm template, with no release involved); use upgrade-preview, or the real helm-diff (docs/helm-diff.md says how to switch back)"
        ),
    }
}

/// The output settings resolved with helm-diff's environment variables.
pub(super) struct Resolved {
    pub view: ReportView,
    pub options: Options,
}

/// `--output`, `--context`, colors and the diff options, with
/// `HELM_DIFF_OUTPUT`, `HELM_DIFF_COLOR` (cmd/root.go) and, for upgrade,
/// `HELM_DIFF_OUTPUT_CONTEXT` (cmd/upgrade.go).
pub(super) fn resolve(cli: &DiffCli, out: &OutputArgs, env: &Env, context_from_env: bool) -> anyhow::Result<Resolved> {
    let format_word = out.output.clone().or_else(|| env.get("HELM_DIFF_OUTPUT").map(str::trim).filter(|s| !s.is_empty()).map(str::to_string));
    let format = match format_word.as_deref().unwrap_or("diff") {
        "simple" => Format::Simple,
        "json" => Format::Json,
        "template" | "structured" | "dyff" => {
            let which = format_word.unwrap_or_default();
            anyhow::bail!("--output {which} is not supported by the releasex drop-in; supported: diff (the default), simple, json");
        }
        // helm-diff: diff/report.go setupReportFormat (anything else is the default diff)
        _ => Format::Diff,
    };
    let mut context = out.context;
    if context.is_none() && context_from_env {
        context = env.get("HELM_DIFF_OUTPUT_CONTEXT").and_then(|c| c.parse().ok());
    }
    let color_flag = cli.color.or_else(|| env.get("HELM_DIFF_COLOR").and_then(|v| go_bool(v).ok()));
    let color = if cli.no_color || color_flag == Some(false) {
        false
    } else {
        color_flag == Some(true) || (super::output::stdout_is_terminal() && env.get("TERM") != Some("dumb"))
    };
    let suppress_lines = out
        .suppress_output_line_regex
        .iter()
        .map(|r| regex::Regex::new(r).map_err(|e| anyhow::anyhow!("--suppress-output-line-regex {r:?}: {e}")))
        .collect::<anyhow::Result<_>>()?;
    let mut suppressed_kinds = out.suppress.clone();
    if out.suppress_secrets {
        suppressed_kinds.push("Secret".into());
    }
    let options = Options {
        show_secrets: out.show_secrets,
        show_secrets_decoded: out.show_secrets_decoded,
        suppressed_kinds,
        context: context.and_then(|c| usize::try_from(c).ok()),
        strip_trailing_cr: out.strip_trailing_cr,
        find_renames: out.find_renames,
        suppress_lines,
    };
    Ok(Resolved { view: ReportView { format, color, explain: !out.no_explain }, options })
}

/// The context for loading and rendering: Helm's environment, with the
/// flags helm-diff takes in place of Helm's global ones.
pub(super) fn ctx_for(env: &Env, helm: &HelmGlobals, kube_context: Option<&String>) -> anyhow::Result<Ctx> {
    let cli = Cli::try_parse_from(["kubectl-releasex", "completion", "bash"])?;
    let mut global = cli.global;
    global.namespace = helm.namespace.clone();
    global.kubeconfig = helm.kubeconfig.clone();
    global.context = kube_context.cloned();
    Ok(Ctx { global, env: env.clone(), theme: super::output::Theme { enabled: false }, columns: None })
}

/// `diff upgrade`: upgrade-preview's pipeline with the flags translated,
/// shown as helm-diff's report.
fn upgrade(cli: &DiffCli, a: &UpgradeArgs, env: &Env) -> anyhow::Result<Outcome> {
    let resolved = resolve(cli, &a.output, env, true)?;
    let mut notes = Vec::new();
    if !a.three_way_merge && env.get("HELM_DIFF_THREE_WAY_MERGE") == Some("true") {
        notes.push("Enabled three way merge via the envvar".to_string());
    }
    if !a.normalize_manifests && env.get("HELM_DIFF_NORMALIZE_MANIFESTS") == Some("true") {
        notes.push("Enabled normalize manifests via the envvar".to_string());
    }
    let dry_run = a.dry_run.as_deref().unwrap_or("none");
    // helm-diff: cmd/upgrade.go validDryRunValues, validServerSideVals
    if !["server", "client", "true", "false", "none"].contains(&dry_run) {
        anyhow::bail!("flag \"dry-run\" must take a bool value or either \"client\" or \"server\", but got {dry_run:?}");
    }
    if !["true", "false", "auto"].contains(&a.server_side.as_str()) {
        anyhow::bail!("flag \"server-side\" must be \"true\", \"false\" or \"auto\", but got {:?}", a.server_side);
    }
    let client_only = matches!(dry_run, "client" | "true");
    let words = upgrade_preview_words(a, client_only, dry_run == "server");
    let preview = match Cli::try_parse_from(&words).map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))?.command {
        Command::UpgradePreview(p) => p,
        _ => unreachable!("the words start with upgrade-preview"),
    };
    let ctx = ctx_for(env, &a.helm, a.kube_context.as_ref())?;
    let selection = PlanSelection { no_hooks: a.no_hooks, include_tests: a.include_tests, include_crds: a.include_crds };
    let detailed = a.detailed_exitcode;
    let present = move |p: &super::args::UpgradePreviewArgs, c: &Ctx, parts: &Parts, o: &mut Outcome| present(p, c, parts, o, (&resolved, selection, detailed));
    let from = if client_only { Records::Skip } else { Records::Read };
    match super::upgrade_cmd::run_with(&preview, &ctx, from, &present) {
        Ok(mut o) => {
            o.warnings.splice(0..0, notes);
            Ok(o)
        }
        Err(e) => Err(as_helm_diff_error(e, &a.release)),
    }
}

/// helm-diff's own words for a release without records (cmd/upgrade.go),
/// and every other failure exits 1 as helm-diff's do.
fn as_helm_diff_error(e: anyhow::Error, release: &str) -> anyhow::Error {
    if let Some(crate::upgrade::PreviewError::NoRecords { .. }) = e.downcast_ref() {
        let banner = "********************\n\n\tRelease was not present in Helm.  Include the `--allow-unreleased` to perform diff without exiting in error.\n\n********************";
        return anyhow::anyhow!("{banner}\nrelease {release:?} has no records (helm get manifest: release: not found)");
    }
    anyhow::anyhow!("{}", super::format_error(&e))
}

/// upgrade-preview's words for helm-diff's upgrade flags. Secrets reach
/// the report unmasked: helm-diff's own redaction is applied there.
fn upgrade_preview_words(a: &UpgradeArgs, client_only: bool, server_dry_run: bool) -> Vec<String> {
    let mut w: Vec<String> = vec!["kubectl-releasex".into(), "upgrade-preview".into(), a.release.clone(), a.chart.clone()];
    let mut push = |flag: &str, values: &[String]| w.extend(values.iter().map(|v| format!("{flag}={v}")));
    // helm-diff: cmd/helm.go valueFiles.Set splits on commas (ours does too).
    push("--values", &a.values);
    push("--set", &a.set);
    push("--set-string", &a.set_string);
    push("--set-literal", &a.set_literal);
    push("--set-json", &a.set_json);
    push("--set-file", &a.set_file);
    push("--api-versions", &a.api_versions);
    push("--post-renderer-args", &a.post_renderer_args);
    for (flag, value) in [("--version", &a.version), ("--repo", &a.repo), ("--kube-version", &a.kube_version), ("--post-renderer", &a.post_renderer)] {
        if let Some(v) = value {
            w.push(format!("{flag}={v}"));
        }
    }
    let switches = [
        (a.reuse_values, "--reuse-values"),
        (a.reset_values || client_only, "--reset-values"),
        (a.reset_then_reuse_values, "--reset-then-reuse-values"),
        (a.allow_unreleased || a.install || client_only, "--install"),
        (a.no_hooks, "--no-hooks"),
        (a.devel, "--devel"),
        (a.insecure_skip_tls_verify, "--insecure-skip-tls-verify"),
        (a.enable_dns, "--enable-dns"),
        (a.skip_schema_validation, "--skip-schema-validation"),
        (a.take_ownership, "--take-ownership"),
        (a.disable_openapi_validation, "--disable-openapi-validation"),
        (client_only, "--offline"),
        (server_dry_run, "--lookup"),
        (true, "--show-secrets"),
    ];
    w.extend(switches.iter().filter(|(on, _)| *on).map(|(_, f)| f.to_string()));
    w.push(format!("--server-side={}", a.server_side));
    w.extend(a.download.words());
    w
}

/// helm-diff's report of the plan, with our facts, and its exit codes.
fn present(_: &super::args::UpgradePreviewArgs, _: &Ctx, parts: &Parts, outcome: &mut Outcome, how: (&Resolved, PlanSelection, bool)) -> anyhow::Result<()> {
    let (resolved, selection, detailed) = how;
    let Some(objects) = parts.objects else { anyhow::bail!("diff upgrade needs the objects part") };
    let facts = super::views::helm_diff::plan_facts(parts);
    let shown = PlanShown { objects, stored_hooks: parts.start.baseline, release: parts.head.release, namespace: &parts.head.namespace, command: "upgrade" };
    present_plan(&shown, facts, (resolved, selection, detailed), outcome);
    Ok(())
}

/// A plan as helm-diff's report shows it.
pub(super) struct PlanShown<'a> {
    pub objects: &'a crate::upgrade::ObjectsReport,
    /// The record whose stored hooks the rendered ones are compared with.
    pub stored_hooks: &'a crate::release::Release,
    pub release: &'a str,
    pub namespace: &'a str,
    /// The Helm command previewed, as its failure names it (`upgrade`, `rollback`).
    pub command: &'a str,
}

/// helm-diff's report of a plan with our `facts`, and helm-diff's exit
/// codes (1 when Helm would fail, 2 for changes with --detailed-exitcode).
pub(super) fn present_plan(shown: &PlanShown, mut facts: Vec<String>, how: (&Resolved, PlanSelection, bool), outcome: &mut Outcome) {
    let (resolved, selection, detailed) = how;
    let (objects, command) = (shown.objects, shown.command);
    let stored_hooks: Vec<(String, &str)> = shown.stored_hooks.hooks().iter().map(|h| (h.manifest.to_string(), h.path)).collect();
    let mut idx = hd::plan_indexes(&objects.plan, &objects.manifest, &stored_hooks, (shown.release, shown.namespace), selection);
    if let Some(failure) = &objects.plan.failure {
        // Said once, at the top.
        idx.facts.values_mut().for_each(|list| list.retain(|f| !failure.contains(f.as_str())));
        facts.push(format!("helm {command} would fail: {failure}"));
    }
    let report = hd::report(&idx.old, &idx.new, &idx.ownership, &resolved.options);
    let text = report_text(&report, &idx.facts, &facts, &resolved.view);
    outcome.stdout = text.stdout;
    outcome.notes.extend(text.stderr_facts);
    if let Some(failure) = &objects.plan.failure {
        outcome.warnings.push(format!("error: helm {command} would fail: {failure}"));
        outcome.exit_code = Some(1);
    } else if detailed && report.changes {
        outcome.exit_code = Some(2);
    }
}

/// Where `diff revision` and `diff release` read records.
pub(super) fn source() -> SourceArgs {
    SourceArgs { files: Vec::new(), driver: None, sql_connection: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        drop_unknown_flags(w.iter().map(OsString::from).collect()).into_iter().map(|s| s.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn unknown_flags_are_dropped_with_their_value_as_pflag_does() {
        assert_eq!(words(&["upgrade", "--wait", "--timeout", "5m", "rel", "chart", "-q"]), ["upgrade", "rel", "chart", "-q"]);
        // pflag's quirk: an unknown switch takes the next word with it.
        assert_eq!(words(&["upgrade", "--wait", "rel", "chart"]), ["upgrade", "chart"]);
        assert_eq!(words(&["upgrade", "rel", "chart", "--atomic=true", "--set", "a=1"]), ["upgrade", "rel", "chart", "--set", "a=1"]);
    }

    #[test]
    fn a_bare_release_and_chart_mean_upgrade() {
        let mut notes = Vec::new();
        let w = root_alias(vec!["rel".into(), "./c".into()], &mut notes);
        assert_eq!(w, [OsString::from("upgrade"), "rel".into(), "./c".into()]);
        assert_eq!(notes.len(), 1);
        assert_eq!(root_alias(vec!["version".into()], &mut notes), [OsString::from("version")]);
    }

    #[test]
    fn the_grammar_is_valid() {
        DiffCli::command().debug_assert();
    }
}
