//! The command line: argument grammar, context resolution, output, and one
//! module per command. The only place that prints or reads the environment.

pub mod args;
pub mod context;
pub mod output;

pub mod completion;
mod explain_cmd;
mod inputs;
mod patch_cmd;
mod release_cmd;
mod release_views;
mod upgrade_cmd;
mod upgrade_objects;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser as _;

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
    pub warnings: Vec<String>,
    /// Notes for the user that are not warnings (stderr, after the output).
    pub notes: Vec<String>,
    /// A printed result that still ends non-zero: 2 for "changes found"
    /// (`--detailed-exitcode`), 1 when the previewed command would fail.
    pub exit_code: Option<u8>,
}

/// Shared by every command: the global flags, the environment, the theme.
pub struct Ctx {
    pub global: GlobalArgs,
    pub env: Env,
    pub theme: Theme,
}

impl Ctx {
    /// The output format asked for, text by default.
    pub fn format(&self) -> args::OutputFormat {
        self.global.output.unwrap_or(args::OutputFormat::Text)
    }
}

/// Parses `argv`, runs the command, prints, and returns the exit code.
pub fn run(argv: Vec<OsString>, env: Env) -> ExitCode {
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
                _ => 1,
            };
            // clap renders its own `error: ...` with usage and a hint.
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let theme = Theme { enabled: output::color_enabled(cli.global.color, &env, output::stdout_is_terminal()) };
    let ctx = Ctx { global: cli.global.clone(), env, theme };
    let result = match &cli.command {
        Command::Release(cmd) => release_cmd::run(cmd, &ctx),
        Command::Patch(args) => patch_cmd::run(args, &ctx),
        Command::Values(args::ValuesCommand::Explain(args)) | Command::Explain(args) => explain_cmd::run(args, &ctx),
        Command::UpgradePreview(args) => upgrade_cmd::run(args, &ctx),
        Command::Completion { shell } => completion::run(*shell),
    };
    match result {
        Ok(outcome) => {
            let mut stderr = std::io::stderr().lock();
            for w in &outcome.warnings {
                // Helm's own texts already start with "warning:"; keep them as Helm prints them.
                if w.starts_with("warning:") {
                    let _ = writeln!(stderr, "{w}");
                } else {
                    let _ = writeln!(stderr, "warning: {w}");
                }
            }
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            // A closed pipe (`| head`) is not an error.
            let _ = stdout.write_all(outcome.stdout.as_bytes());
            if let Some(json) = &outcome.stdout_json {
                let _ = serde_json::to_writer_pretty(&mut stdout, json).map_err(std::io::Error::from).and_then(|()| stdout.write_all(b"\n"));
            }
            let _ = stdout.flush();
            drop(stdout);
            for n in &outcome.notes {
                let _ = writeln!(stderr, "note: {n}");
            }
            let code = outcome.exit_code.map_or(ExitCode::SUCCESS, ExitCode::from);
            // The process ends here; freeing a large decoded record would only cost time.
            std::mem::forget(outcome);
            code
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {}", format_error(&e));
            ExitCode::from(1)
        }
    }
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

/// Entry point for the binary: the real argv and environment.
pub fn main() -> ExitCode {
    run(std::env::args_os().collect(), Env::capture())
}

/// The clap command, for completion scripts and documentation.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

