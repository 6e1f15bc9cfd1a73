//! Help as the user typed the command (`helm preview ...`, `kubectl
//! releasex ...`), its layout (own options first, global options last under
//! their heading), and the error hints that name what the user can pick.

use serde_json::Value;

use crate::fixture_api::{Fault, FixtureApi, as_served};
use crate::support::{fixture, releasex, run};

/// `--help` at a fixed width, under Helm when `helm` is set.
fn help(args: &[&str], helm: bool) -> String {
    let mut cmd = releasex();
    if helm {
        cmd.env("HELM_PLUGIN_NAME", "preview").env("HELM_NAMESPACE", "default").env("HELM_DEBUG", "false");
    }
    let r = run(cmd.env("COLUMNS", "100").args(args).arg("--help"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

#[test]
fn explain_help_under_helm_lists_chart_and_value_flags_first_then_helmfile_werf_and_global_options() {
    let text = help(&["explain"], true);
    insta::assert_snapshot!(text);
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("no {s:?}"));
    assert!(at("Usage: helm preview explain") < at("  -f, --values"));
    assert!(at("  -f, --values") < at("Chart download") && at("Chart download") < at("helmfile (with --helmfile):"));
    assert!(at("helmfile (with --helmfile):") < at("werf (with --werf):") && at("werf (with --werf):") < at("Global options:"));
    assert!(text.contains("  helm preview explain ./mychart"), "examples name the command as typed");
}

#[test]
fn upgrade_preview_help_puts_its_own_flags_before_helm_upgrades_groups_and_global_options_last() {
    let text = help(&["upgrade-preview"], false);
    insta::assert_snapshot!(text);
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("no {s:?}"));
    assert!(at("Usage: kubectl-releasex upgrade-preview") < at("      --reuse-values"));
    assert!(at("      --detailed-exitcode") < at("Chart download") && at("Rendering (as helm upgrade") < at("Global options:"));
    assert!(text.contains("json, yaml, or markdown (the"), "-o names markdown here");
}

#[test]
fn patch_help_alone_speaks_of_raw_patch_bytes() {
    let patch = help(&["patch"], false);
    insta::assert_snapshot!(patch);
    assert!(patch.contains("raw patch bytes"));
    for args in [&["release", "decode"][..], &["release", "history"], &["explain"], &["upgrade-preview"], &["completion"]] {
        let text = help(args, false);
        assert!(!text.contains("raw patch bytes"), "{args:?}");
        assert!(!text.contains("markdown") || args == ["upgrade-preview"], "{args:?} offers markdown");
    }
}

/// Every command's help: no `[env: X=]` with nothing after it, no default
/// stated both in the text and by clap.
#[test]
fn no_command_help_doubles_a_default_or_shows_an_empty_env_value() {
    fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            walk(sub, p, out);
        }
    }
    let mut paths = Vec::new();
    walk(&releasex::cli::command(), Vec::new(), &mut paths);
    for path in paths {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        for helm in [false, true] {
            let text = help(&args, helm);
            assert!(!text.contains("=]"), "{args:?}: empty env value\n{text}");
            // One option's text ends at the next option line; none says "(default" when clap adds "[default".
            let mut blocks: Vec<String> = Vec::new();
            for line in text.lines() {
                let indent = line.len() - line.trim_start().len();
                if (2..=6).contains(&indent) && line.trim_start().starts_with('-') || blocks.is_empty() {
                    blocks.push(String::new());
                }
                blocks.last_mut().unwrap().push_str(line);
                blocks.last_mut().unwrap().push('\n');
            }
            for option in blocks.iter().filter(|o| o.contains("[default:")) {
                assert!(!option.contains("(default"), "{args:?}: default stated twice in\n{option}");
            }
        }
    }
}

#[test]
fn kubectl_names_the_command_kubectl_releasex_when_it_runs_the_plugin_from_path() {
    let dir = tempfile::tempdir().unwrap();
    let linked = dir.path().join("kubectl-releasex");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("kubectl-releasex"), &linked).unwrap();
    // As kubectl execs it: argv[0] is the path found on PATH.
    let r = run(assert_cmd::Command::new(&linked).env_clear().env("PATH", dir.path()).args(["release", "--help"]));
    assert!(r.stdout.contains("Usage: kubectl releasex release [OPTIONS] <COMMAND>"), "{}", r.stdout);
    assert!(r.stdout.contains("  kubectl releasex release history web"), "{}", r.stdout);
}

#[test]
fn an_unknown_context_lists_the_kubeconfigs_contexts() {
    let dir = tempfile::tempdir().unwrap();
    let api = FixtureApi::start(Vec::new());
    let kubeconfig = api.write_kubeconfig(dir.path(), "default");
    let r = run(releasex().args(["release", "history", "web", "--context", "nope", "--kubeconfig"]).arg(&kubeconfig));
    assert_eq!(r.code, 1);
    let want = format!("error: context \"nope\" was not found in the kubeconfig ({}); its contexts are: fixture, other\n", kubeconfig.display());
    assert_eq!(r.stderr, want);
    assert!(api.requests().is_empty(), "no request before the context is known");
}

fn served_in(namespace: &str) -> (Vec<Value>, String) {
    let text = std::fs::read_to_string(fixture("releases/parent-3-revisions.list.json")).unwrap();
    let items = serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone();
    let objects: Vec<Value> = items.into_iter().enumerate().map(|(i, o)| as_served(o, namespace, i)).collect();
    let name = objects[0]["metadata"]["labels"]["name"].as_str().unwrap().to_string();
    (objects, name)
}

#[test]
fn a_release_missing_here_but_stored_in_another_namespace_is_named_with_one_cluster_wide_list() {
    let (objects, name) = served_in("team-b");
    let api = FixtureApi::start(objects);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.write_kubeconfig(dir.path(), "default");
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).args(["release", "history", &name]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains(&format!("(release \"{name}\" has records in namespace \"team-b\": add -n team-b)")), "{}", r.stderr);
    let paths: Vec<String> = api.requests().into_iter().map(|q| q.path).collect();
    assert_eq!(paths, ["/api/v1/namespaces/default/secrets", "/api/v1/secrets"]);
    api.assert_read_only();
    // A user who may not list across namespaces gets the plain message.
    let api = FixtureApi::start(served_in("team-b").0);
    api.fault("/api/v1/secrets", Fault::Status { code: 403, retry_after: None });
    let kubeconfig = api.write_kubeconfig(dir.path(), "default");
    let r = run(releasex().env("KUBECONFIG", &kubeconfig).args(["release", "history", &name]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("error: no release records found in Secrets labelled"), "{}", r.stderr);
    assert!(!r.stderr.contains("team-b") && !r.stderr.contains("403"), "{}", r.stderr);
}
