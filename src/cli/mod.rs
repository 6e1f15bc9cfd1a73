//! The command line: argument grammar, context resolution, output, and one
//! module per command. The only place that prints or reads the environment.

pub mod args;
mod blame_cmd;
pub mod context;
pub mod output;

pub mod complete;
pub mod completion;
pub mod diff_cmd;
mod diff_stored;
mod explain_cmd;
pub mod helm_flags;
mod help;
mod inputs;
mod patch_cmd;
mod pretty_json;
mod release_cmd;
pub mod template_cmd;
pub mod template_host;
pub mod rollback_cmd;
mod upgrade_cmd;
pub mod views;
mod werf_cmd;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::FromArgMatches as _;

use args::{Cli, Command, GlobalArgs};
use context::Env;
use output::Theme;

/// What a command hands back: its stdout text and the warnings for stderr.
#[derive(Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    /// A large JSON document, written to stdout after `stdout` by streaming
    /// (never built as one string: records can be many MiB).
    pub stdout_json: Option<serde_json::Value>,
    /// Output written to stdout piece by piece after `stdout` (a view whose
    /// output can be far larger than its input: every `values explain` line
    /// repeats its `--set` expression).
    pub stdout_stream: Option<StdoutStream>,
    pub warnings: Vec<String>,
    /// Notes for the user that are not warnings (stderr, after the output).
    pub notes: Vec<String>,
    /// A printed result that still ends non-zero: 2 for "changes found"
    /// (`--detailed-exitcode`), [`HELM_WOULD_FAIL`] when the previewed command would fail.
    pub exit_code: Option<u8>,
}

/// Writes a command's output to stdout (given buffered) when it is printed.
pub struct StdoutStream(pub Box<WriteOutput>);

/// What a [`StdoutStream`] runs: write everything to the sink given.
pub type WriteOutput = dyn FnOnce(&mut dyn Write) -> std::io::Result<()>;

impl std::fmt::Debug for StdoutStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StdoutStream")
    }
}

/// The exit code when the previewed Helm command would fail (1 stays for
/// this program's own errors and usage errors).
pub const HELM_WOULD_FAIL: u8 = 3;

/// Shared by every command: the global flags, the environment, the theme.
pub struct Ctx {
    pub global: GlobalArgs,
    pub env: Env,
    pub theme: Theme,
    /// The terminal's width when stdout is one (`RELEASEX_COLUMNS` sets a
    /// width even when it is not): text is laid out to fit it.
    pub columns: Option<usize>,
}

impl Ctx {
    /// The output format asked for, text by default.
    pub fn format(&self) -> args::OutputFormat {
        self.global.output.unwrap_or(args::OutputFormat::Text)
    }
}

/// Parses `argv`, runs the command, prints, and returns the exit code.
pub fn run(argv: Vec<OsString>, env: Env) -> ExitCode {
    // kubectl 1.26+ completes `kubectl releasex ...` by running the executable
    // `kubectl_complete-releasex WORDS...` (a link to this binary).
    if invoked_as_kubectl_completer(&argv) {
        return complete::run(argv.into_iter().skip(1).collect(), &env);
    }
    // Handled before clap: completion must stay fast and never fail loudly.
    if argv.get(1).is_some_and(|a| a == "__complete") {
        return complete::run(argv.into_iter().skip(2).collect(), &env);
    }
    // helm-diff's command line: Helm runs us as its plugin `diff`, or `kubectl releasex diff ...`.
    if diff_cmd::is_diff_invocation(&argv, &env) {
        return diff_cmd::run(argv, env);
    }
    let argv = plugin_argv(argv, &env);
    let started = std::time::Instant::now();
    // Recording starts before parsing so that parsing is timed too; what is
    // printed is decided by the parsed flag (a `--timings` that is some
    // other flag's value prints nothing).
    let timings_env = env.get("RELEASEX_TIMINGS").is_some_and(|v| v != "0");
    if timings_env || argv.iter().any(|a| a == "--timings") {
        crate::timings::enable();
    }
    let parsing = crate::timings::phase("parse arguments");
    let debug = env.helm_debug();
    if debug {
        debug_start(&argv, &env);
    }
    let invoked = help::invoked_as(argv.first().map(OsString::as_os_str), &env);
    let cli = match help::command_as_typed(&invoked).try_get_matches_from(&argv).and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
                _ => 1,
            };
            // clap's own text names no argument ("invalid UTF-8 was detected in one or more arguments").
            if e.kind() == ErrorKind::InvalidUtf8
                && let Some(message) = invalid_utf8_message(&argv)
            {
                let mut stderr = std::io::stderr().lock();
                let _ = writeln!(stderr, "error: {message}");
                return ExitCode::from(1);
            }
            // clap renders its own `error: ...` with usage and a hint.
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    drop(parsing);
    let theme = Theme { enabled: output::color_enabled(cli.global.color, &env, output::stdout_is_terminal()) };
    let columns = output::terminal_columns(&env, output::stdout_is_terminal());
    let ctx = Ctx { global: cli.global.clone(), env, theme, columns };
    if debug {
        debug_resolved(&ctx);
    }
    let markdown_ok = matches!(&cli.command, Command::UpgradePreview(a) if !a.compare_modes) || matches!(&cli.command, Command::RollbackPreview(_));
    let result = if ctx.format() == args::OutputFormat::Markdown && !markdown_ok {
        Err(anyhow::anyhow!("-o markdown is for upgrade-preview (without --compare-modes) and rollback-preview; use -o text, json or yaml here"))
    } else {
        crate::timings::timed("command", || run_command(&cli, &ctx))
    };
    let code = finish(result, debug, started);
    if timings_env || cli.global.timings {
        print_timings();
    }
    code
}

/// `--timings`: each recorded phase on stderr, indented under the phase it
/// ran in, with when it started and how long it took (wall time).
fn print_timings() {
    let (phases, total) = crate::timings::take();
    let mut stderr = std::io::stderr().lock();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let _ = writeln!(stderr, "timings: {:>9} {:>8}  phase (wall time)", "start ms", "took ms");
    for p in &phases {
        let _ = writeln!(stderr, "timings: {:>9.2} {:>8.2}  {}{}", ms(p.start), ms(p.elapsed), "  ".repeat(p.depth), p.name);
    }
    let _ = writeln!(stderr, "timings: {:>9.2} {:>8.2}  total (to the end of the output)", 0.0, ms(total));
}

/// One function per command.
fn run_command(cli: &Cli, ctx: &Ctx) -> anyhow::Result<Outcome> {
    match &cli.command {
        Command::Release(cmd) => release_cmd::run(cmd, ctx),
        Command::Patch(args) => patch_cmd::run(args, ctx),
        Command::Template(args) => template_cmd::run(args, ctx),
        Command::Blame(args) => blame_cmd::run(args, ctx),
        Command::Values(args::ValuesCommand::Explain(args)) | Command::Explain(args) => explain_cmd::run(args, ctx),
        Command::UpgradePreview(args) => upgrade_cmd::run(args, ctx),
        Command::RollbackPreview(args) => rollback_cmd::run(args, ctx),
        Command::Completion { shell } => completion::run(*shell),
    }
}

/// Prints the outcome (or the error) and chooses the exit code.
fn finish(result: anyhow::Result<Outcome>, debug: bool, started: std::time::Instant) -> ExitCode {
    let _phase = crate::timings::phase("print");
    match result {
        Ok(outcome) => {
            let mut stderr = std::io::stderr().lock();
            for w in &outcome.warnings {
                // Helm's own texts already start with "warning:" (log.Printf) or
                // "level=WARN" (Helm 4's slog lines); keep them as Helm prints them.
                if w.starts_with("warning:") || w.starts_with("error:") || w.starts_with("level=") {
                    let _ = writeln!(stderr, "{w}");
                } else {
                    let _ = writeln!(stderr, "warning: {w}");
                }
            }
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            // A closed pipe (`| head`) is not an error.
            let _ = stdout.write_all(outcome.stdout.as_bytes());
            if let Some(json) = &outcome.stdout_json {
                let _ = write_json_out(&mut stdout, json);
            }
            let mut outcome = outcome;
            if let Some(stream) = outcome.stdout_stream.take() {
                let _ = (stream.0)(&mut stdout);
            }
            let _ = stdout.flush();
            drop(stdout);
            for n in &outcome.notes {
                let _ = writeln!(stderr, "note: {n}");
            }
            if debug {
                let _ = writeln!(stderr, "debug: done in {} ms", started.elapsed().as_millis());
            }
            let code = outcome.exit_code.map_or(ExitCode::SUCCESS, ExitCode::from);
            // The process ends here; freeing a large decoded record would only cost time.
            std::mem::forget(outcome);
            code
        }
        Err(e) => {
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "error: {}", format_error(&e));
            if debug {
                // Each cause on its own line; anyhow's `{:?}` would add a Rust backtrace when RUST_BACKTRACE is set.
                for (i, cause) in e.chain().enumerate() {
                    let _ = writeln!(stderr, "debug: error detail {i}: {cause}");
                }
                let _ = writeln!(stderr, "debug: failed after {} ms", started.elapsed().as_millis());
            }
            let helm_fails = e.downcast_ref::<crate::upgrade::PreviewError>().is_some_and(crate::upgrade::PreviewError::helm_would_fail);
            ExitCode::from(if helm_fails { HELM_WOULD_FAIL } else { 1 })
        }
    }
}

/// The `-o json` document of `stdout_json` (a decoded record: MiBs), after
/// what `stdout` holds. Written straight to a duplicate of file descriptor 1
/// where there is one: std's stdout is line-buffered, and its `LineWriter`
/// searches every 64 KiB piece for its last line break (callgrind: 2% of
/// `release decode --show record -o json`) only to pass it through.
fn write_json_out(stdout: &mut impl Write, json: &serde_json::Value) -> std::io::Result<()> {
    stdout.flush()?;
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            let mut file = std::fs::File::from(fd);
            return pretty_json::write_pretty(&mut file, json).and_then(|()| file.write_all(b"\n"));
        }
    }
    pretty_json::write_pretty(stdout, json).and_then(|()| stdout.write_all(b"\n"))
}

/// Which argument is not UTF-8, in words: the value of which flag
/// (`--set VALUE`, `--set=VALUE`, `-fVALUE`), or its position.
fn invalid_utf8_message(argv: &[OsString]) -> Option<String> {
    let at = argv.iter().position(|a| a.to_str().is_none())?;
    let bad = argv[at].as_encoded_bytes();
    let shown = format!("{:?}", argv[at]);
    let command = command();
    // `--flag=VALUE`, or a short flag with its value attached (`-fVALUE`).
    let attached = if let Some(long) = bad.strip_prefix(b"--") {
        long.iter().position(|&b| b == b'=').map(|eq| format!("--{}", String::from_utf8_lossy(&long[..eq])))
    } else if bad.len() > 2 && bad[0] == b'-' && bad[1].is_ascii_alphanumeric() {
        Some(format!("-{}", bad[1] as char))
    } else {
        None
    };
    let before = at.checked_sub(1).and_then(|i| argv[i].to_str()).filter(|f| f.starts_with('-') && !f.contains('=') && takes_value(&command, f));
    Some(match attached.or(before.map(str::to_string)) {
        Some(flag) => format!("the value of {flag} is not valid UTF-8: {shown}"),
        None => format!("argument {at} is not valid UTF-8: {shown}"),
    })
}

/// Whether `flag` (`--name` or `-n`) names an option that takes a value in
/// `cmd` or any of its subcommands.
fn takes_value(cmd: &clap::Command, flag: &str) -> bool {
    let named = |a: &clap::Arg| match flag.strip_prefix("--") {
        Some(long) => a.get_long() == Some(long),
        None => flag.strip_prefix('-').and_then(|s| s.chars().next()).is_some_and(|c| flag.len() == 2 && a.get_short() == Some(c)),
    };
    cmd.get_arguments().any(|a| named(a) && a.get_action().takes_values()) || cmd.get_subcommands().any(|sub| takes_value(sub, flag))
}

fn invoked_as_kubectl_completer(argv: &[OsString]) -> bool {
    let Some(arg0) = argv.first() else { return false };
    let name = std::path::Path::new(arg0).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    name == "kubectl_complete-releasex"
}

/// No arguments prints help (`kubectl releasex`, `helm preview`). Under Helm,
/// `helm preview RELEASE CHART ...` means `upgrade-preview RELEASE CHART ...`:
/// the plugin is named for that command, so its words may come first.
fn plugin_argv(mut argv: Vec<OsString>, env: &Env) -> Vec<OsString> {
    if argv.len() <= 1 {
        argv.push("--help".into());
        return argv;
    }
    if !env.is_helm_plugin() {
        return argv;
    }
    let cmd = command();
    let mut i = 1;
    while i < argv.len() {
        let word = argv[i].to_string_lossy().into_owned();
        if word == "--" {
            break;
        }
        if word.starts_with('-') {
            // Global flags that take a separate value (Helm already removed -n, --kubeconfig, --kube-context).
            let takes_value =
                matches!(word.as_str(), "--kubeconfig" | "--context" | "-n" | "--namespace" | "-o" | "--output" | "--color" | "--request-timeout");
            i += if takes_value { 2 } else { 1 };
            continue;
        }
        if word != "help" && cmd.find_subcommand(&word).is_none() {
            argv.insert(i, "upgrade-preview".into());
        }
        break;
    }
    argv
}

/// HELM_DEBUG (`helm --debug preview ...`): what was resolved, on stderr.
fn debug_start(argv: &[OsString], env: &Env) {
    let mut stderr = std::io::stderr().lock();
    let words: Vec<String> = argv.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let var = |k: &str| env.get(k).unwrap_or("-").to_string();
    let _ = writeln!(
        stderr,
        "debug: releasex {} as Helm plugin {} (dir {})",
        args::VERSION,
        var("HELM_PLUGIN_NAME"),
        var("HELM_PLUGIN_DIR")
    );
    let _ = writeln!(stderr, "debug: arguments: {words:?}");
    let _ = writeln!(
        stderr,
        "debug: HELM_NAMESPACE={} HELM_KUBECONTEXT={} KUBECONFIG={} HELM_DRIVER={} HELM_BIN={}",
        var("HELM_NAMESPACE"),
        var("HELM_KUBECONTEXT"),
        var("KUBECONFIG"),
        var("HELM_DRIVER"),
        var("HELM_BIN")
    );
}

/// HELM_DEBUG: where the command will read from, after flags, Helm's
/// environment and the kubeconfig were weighed (context::kube_target).
fn debug_resolved(ctx: &Ctx) {
    let target = context::kube_target(&ctx.global, &ctx.env);
    let (contexts, current) = crate::cluster::kubeconfig_contexts(&target);
    let context = target.context.clone().or(current);
    let namespace = target.namespace.clone().unwrap_or_else(|| {
        let of_context = contexts.iter().find(|(c, _)| Some(c) == context.as_ref()).and_then(|(_, ns)| ns.clone());
        of_context.unwrap_or_else(|| "default".to_string())
    });
    let files: Vec<String> = target.kubeconfig_paths.iter().map(|p| p.display().to_string()).collect();
    let timeout = target.limits.timeout.map_or("none".to_string(), |t| format!("{t:?}"));
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(
        stderr,
        "debug: resolved: kubeconfig {files:?}, context {}, namespace {namespace}, request timeout {timeout}",
        context.as_deref().unwrap_or("(none)")
    );
}

fn format_error(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

/// Entry point for the binary: the real argv and environment. The command
/// runs on a thread with [`crate::parallel::DEEP_STACK_BYTES`] of stack, so
/// that input nested as deep as Helm reads it is read here too (the readers,
/// merging, writers and `Drop` recurse once per level).
pub fn main() -> ExitCode {
    let (argv, env) = (std::env::args_os().collect(), Env::capture());
    crate::parallel::on_deep_stack(move || run(argv, env))
}

/// The clap command, for completion scripts and documentation.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}


#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        let helm = Env::from_pairs([("HELM_PLUGIN_NAME", "preview")]);
        let v = plugin_argv(std::iter::once("x").chain(words.iter().copied()).map(OsString::from).collect(), &helm);
        v.into_iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn helm_shorthand_inserts_upgrade_preview_only_before_a_non_command_word() {
        assert_eq!(argv(&[]), ["--help"]);
        assert_eq!(argv(&["web", "./c"]), ["upgrade-preview", "web", "./c"]);
        assert_eq!(argv(&["-o", "json", "--color", "never", "web", "./c"]), ["-o", "json", "--color", "never", "upgrade-preview", "web", "./c"]);
        assert_eq!(argv(&["release", "history", "web"]), ["release", "history", "web"]);
        // `helm preview blame ./c Deployment/web` and `helm preview template web ./c`.
        assert_eq!(argv(&["blame", "./c", "Deployment/web"]), ["blame", "./c", "Deployment/web"]);
        assert_eq!(argv(&["template", "web", "./c"]), ["template", "web", "./c"]);
        assert_eq!(argv(&["help"]), ["help"]);
        assert_eq!(argv(&["--version"]), ["--version"]);
    }

    #[test]
    fn kubectl_completer_is_recognised_by_its_file_name() {
        assert!(invoked_as_kubectl_completer(&[OsString::from("/home/u/.krew/bin/kubectl_complete-releasex")]));
        assert!(!invoked_as_kubectl_completer(&[OsString::from("kubectl-releasex")]));
    }
}
