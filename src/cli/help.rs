//! The clap command as the user typed it: usage lines and examples name
//! `helm preview ...` under Helm, `kubectl releasex ...` under kubectl, else
//! the binary's name; and each command's `-o` text speaks of that command.

use std::ffi::OsStr;
use std::path::Path;

use super::context::Env;

/// The binary's own name, as a shell finds it on PATH.
const BIN: &str = "kubectl-releasex";

/// How the user called us, as the words before the subcommand.
pub fn invoked_as(argv0: Option<&OsStr>, env: &Env) -> String {
    // Helm exports HELM_PLUGIN_NAME to every plugin it runs (helm: internal/plugin/runtime_subprocess.go, pkg/cli/environment.go).
    if let Some(plugin) = env.get("HELM_PLUGIN_NAME") {
        return format!("helm {plugin}");
    }
    // kubectl sets no variable, but it execs the plugin with argv[0] = the
    // path exec.LookPath found on PATH (kubectl: pkg/cmd/cmd.go
    // DefaultPluginHandler.Execute), while a shell passes the name as typed.
    let Some(argv0) = argv0.map(Path::new) else { return BIN.to_string() };
    let found_on_path = argv0.is_absolute()
        && argv0.file_name().is_some_and(|n| n == BIN)
        && env.get("PATH").is_some_and(|path| std::env::split_paths(path).map(|d| d.join(BIN)).find(|p| p.is_file()).as_deref() == Some(argv0));
    if found_on_path { "kubectl releasex".to_string() } else { BIN.to_string() }
}

/// The command tree with `invoked` as its name, the examples rewritten to
/// it, and the `-o` help of each command about that command only.
pub fn command_as_typed(invoked: &str) -> clap::Command {
    let mut cmd = super::command().bin_name(invoked.to_string());
    cmd = rename_examples(cmd, invoked);
    // Built first so that the global flags are propagated into every
    // subcommand, where their help can then be changed per command.
    cmd.build();
    let paths: Vec<Vec<String>> = subcommand_paths(&cmd, &mut Vec::new());
    for path in paths {
        let text = output_help(&path);
        // mut_args edits in place: a built command indexes its flags by position, which mut_arg's remove-and-push would break.
        cmd = mut_at(cmd, &path, &|c| c.mut_args(|a| if a.get_id() == "output" { a.help(text) } else { a }));
    }
    cmd
}

/// What `-o` means for the command at `path`.
fn output_help(path: &[String]) -> &'static str {
    match path.first().map(String::as_str) {
        Some("patch") => "Output format: text, json or yaml; without -o, the raw patch bytes exactly as Helm sends them",
        Some("upgrade-preview" | "rollback-preview") => "Output format: text (the default), json, yaml, or markdown (the report for a pull-request comment)",
        Some("completion") => "Not used: the script is the output",
        _ => "Output format: text (the default), json or yaml",
    }
}

/// Examples in the help texts are written for kubectl; under another name
/// they show that name.
fn rename_examples(cmd: clap::Command, invoked: &str) -> clap::Command {
    let cmd = match cmd.get_after_help().map(ToString::to_string) {
        Some(text) if invoked != "kubectl releasex" => cmd.after_help(text.replace("kubectl releasex ", &format!("{invoked} "))),
        _ => cmd,
    };
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    names.iter().fold(cmd, |cmd, name| cmd.mut_subcommand(name, |sub| rename_examples(sub, invoked)))
}

fn subcommand_paths(cmd: &clap::Command, prefix: &mut Vec<String>) -> Vec<Vec<String>> {
    let mut out = vec![prefix.clone()];
    for sub in cmd.get_subcommands() {
        prefix.push(sub.get_name().to_string());
        out.extend(subcommand_paths(sub, prefix));
        prefix.pop();
    }
    out
}

fn mut_at(cmd: clap::Command, path: &[String], f: &dyn Fn(clap::Command) -> clap::Command) -> clap::Command {
    match path.split_first() {
        None => f(cmd),
        Some((first, rest)) => cmd.mut_subcommand(first, |sub| mut_at(sub, rest, f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helm_names_the_plugin_and_a_path_lookup_names_kubectl() {
        let helm = Env::from_pairs([("HELM_PLUGIN_NAME", "preview")]);
        assert_eq!(invoked_as(Some(OsStr::new("/x/bin/kubectl-releasex")), &helm), "helm preview");
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join(BIN);
        std::fs::write(&bin, "").unwrap();
        let path = dir.path().to_str().unwrap();
        let env = Env::from_pairs([("PATH", path)]);
        assert_eq!(invoked_as(Some(bin.as_os_str()), &env), "kubectl releasex");
        assert_eq!(invoked_as(Some(OsStr::new(BIN)), &env), BIN, "typed in a shell");
        assert_eq!(invoked_as(Some(OsStr::new("/elsewhere/kubectl-releasex")), &env), BIN, "not the PATH hit");
    }

    #[test]
    fn each_command_says_what_its_output_flag_means() {
        let cmd = command_as_typed("helm preview");
        let help = |path: &[&str]| {
            let mut c = cmd.clone();
            for p in path {
                c = c.find_subcommand(p).unwrap().clone();
            }
            c.get_arguments().find(|a| a.get_id() == "output").and_then(|a| a.get_help()).map(ToString::to_string).unwrap()
        };
        assert!(help(&["patch"]).contains("raw patch bytes"));
        assert!(!help(&["release", "decode"]).contains("patch"));
        assert!(help(&["upgrade-preview"]).contains("markdown"));
        assert!(cmd.find_subcommand("upgrade-preview").unwrap().get_after_help().unwrap().to_string().contains("helm preview upgrade-preview web"));
    }
}
