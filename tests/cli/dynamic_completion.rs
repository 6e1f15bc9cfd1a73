//! Dynamic completion: what `__complete` (and kubectl_complete-releasex,
//! Helm's plugin.complete) answers, against the fixture API server and the
//! file system, and what each shell's script makes of it, in real shells.

use std::path::Path;

use serde_json::Value;

use crate::fixture_api::as_served;
use crate::support::{ServedCluster as Cluster, fixture, releasex, run};

/// Releases `demo` (Secrets and ConfigMaps, 3 revisions) and `rel` (3
/// revisions) in team-a, one `demo` revision in other-ns, and a Secret that
/// is not a release record.
fn objects() -> Vec<Value> {
    let load = |f: &str| -> Vec<Value> {
        let text = std::fs::read_to_string(fixture(&format!("releases/{f}"))).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["items"].as_array().unwrap().clone()
    };
    let mut out = Vec::new();
    for f in ["secret-hook.list.json", "configmaps.list.json", "parent-3-revisions.list.json"] {
        for o in load(f) {
            let n = out.len();
            out.push(as_served(o, "team-a", n));
        }
    }
    let first = load("secret-hook.list.json").remove(0);
    out.push(as_served(first, "other-ns", 99));
    out.push(as_served(serde_json::json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "not-helm", "labels": {"name": "nothelm"}}}), "team-a", 98));
    out
}

fn cluster() -> Cluster {
    Cluster::serve(objects(), "team-a")
}

impl Cluster {
    fn complete(&self, words: &[&str]) -> String {
        let r = run(releasex().env("KUBECONFIG", &self.kubeconfig).arg("__complete").args(words));
        assert_eq!(r.code, 0);
        assert!(r.stderr.is_empty(), "completion printed to stderr: {}", r.stderr);
        r.stdout
    }
}

#[test]
fn release_names_come_from_one_list_of_helm_records_deduplicated() {
    let c = cluster();
    insta::assert_snapshot!(c.complete(&["release", "decode", ""]), @r"
    demo	deployed, revision 3
    rel	deployed, revision 3
    :4
    ");
    let requests = c.api.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].path, "/api/v1/namespaces/team-a/secrets");
    assert_eq!(requests[0].query.as_deref(), Some("&labelSelector=owner%3Dhelm"));
    c.api.assert_read_only();
}

#[test]
fn release_names_follow_the_namespace_driver_and_prefix_on_the_line() {
    let c = cluster();
    assert_eq!(c.complete(&["release", "history", "-n", "other-ns", ""]), "demo\tsuperseded, revision 1\n:4\n");
    assert_eq!(c.complete(&["upgrade-preview", "--driver", "configmap", "r"]), ":4\n");
    assert_eq!(c.complete(&["upgrade-preview", "--driver=configmap", "d"]), "demo\tdeployed, revision 3\n:4\n");
    assert_eq!(c.complete(&["explain", "--release", "r"]), "rel\tdeployed, revision 3\n:4\n");
    let paths: Vec<String> = c.api.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        ["/api/v1/namespaces/other-ns/secrets", "/api/v1/namespaces/team-a/configmaps", "/api/v1/namespaces/team-a/configmaps", "/api/v1/namespaces/team-a/secrets"]
    );
}

#[test]
fn helm_plugin_completion_reads_helms_namespace_and_offers_releases_for_the_shorthand() {
    let c = cluster();
    let r = run(releasex()
        .env("KUBECONFIG", &c.kubeconfig)
        .env("HELM_PLUGIN_NAME", "preview")
        .env("HELM_NAMESPACE", "other-ns")
        .args(["__complete", "d"]));
    assert_eq!(r.stdout, "demo\tsuperseded, revision 1\n:4\n");
    // `helm preview demo <TAB>`: the chart argument of upgrade-preview.
    let r = run(releasex().env("HELM_PLUGIN_NAME", "preview").args(["__complete", "demo", "tests/fixtures/charts/pa"]));
    assert_eq!(r.stdout, "tests/fixtures/charts/parent-v2/\tchart\ntests/fixtures/charts/parent/\tchart\n:6\n");
}

#[test]
fn revisions_of_the_named_release_newest_first() {
    let c = cluster();
    insta::assert_snapshot!(c.complete(&["release", "decode", "demo", "--revision", ""]), @r"
    3	deployed
    2	superseded
    1	superseded
    :36
    ");
    let q = c.api.requests()[0].query.clone().unwrap_or_default();
    assert!(q.contains("labelSelector=name%3Ddemo%2Cowner%3Dhelm"), "{q}");
}

#[test]
fn static_words_never_call_the_cluster() {
    let c = cluster();
    insta::assert_snapshot!(c.complete(&[""]), @r"
    release	Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)
    values	Where values come from
    explain	Shorthand for `values explain`
    upgrade-preview	What `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new
    rollback-preview	What `helm rollback RELEASE [REVISION]` would do: the target revision, the stored config it brings back, and per object the request Helm would send
    blame	Which template action and which values keys produced each field of the rendered objects
    template	Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)
    patch	Compute the patch `helm upgrade` sends for one object (original = previous manifest's object, modified = new manifest's object, current = live object)
    completion	Print a shell completion script (static words, plus release names, revisions, namespaces, contexts, charts and values files asked from the binary at TAB time)
    :4
    ");
    assert_eq!(c.complete(&["release", "decode", "demo", "--show", "v"]), "values\tThe user-supplied values (like `helm get values`)\n:4\n");
    assert_eq!(c.complete(&["release", "decode", "--sh"]), "--show\tWhat to show\n--show-secrets\tShow Secret data in manifests and hooks instead of masking it\n:4\n");
    assert_eq!(c.complete(&["-o", "j"]), "json\n:4\n");
    assert_eq!(c.complete(&["completion", "f"]), "fish\n:4\n");
    assert!(c.api.requests().is_empty(), "{:?}", c.api.requests());
}

#[test]
fn namespaces_and_contexts_come_from_the_kubeconfig() {
    let c = cluster();
    assert_eq!(c.complete(&["release", "history", "--namespace", ""]), "other-ns\tcontext other\nteam-a\tcontext fixture\n:4\n");
    assert_eq!(c.complete(&["--context", ""]), "fixture\tcurrent, namespace team-a\nother\tnamespace other-ns\n:4\n");
    assert_eq!(c.complete(&["--kubeconfig", c.kubeconfig.to_str().unwrap(), "--context", "o"]), "other\tnamespace other-ns\n:4\n");
    assert!(c.api.requests().is_empty());
}

#[test]
fn chart_directories_and_values_files_come_from_the_file_system() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("web/templates")).unwrap();
    std::fs::write(d.join("web/Chart.yaml"), "name: web\n").unwrap();
    std::fs::create_dir(d.join("envs")).unwrap();
    std::fs::create_dir(d.join(".git")).unwrap();
    std::fs::write(d.join("web-1.0.0.tgz"), "").unwrap();
    std::fs::write(d.join("prod.yaml"), "").unwrap();
    std::fs::write(d.join("notes.txt"), "").unwrap();
    std::fs::write(d.join("envs/stage.json"), "").unwrap();
    let complete = |words: &[&str]| run(releasex().current_dir(d).arg("__complete").args(words)).stdout;
    assert_eq!(complete(&["upgrade-preview", "web", ""]), "envs/\nweb-1.0.0.tgz\tpackaged chart\nweb/\tchart\n:6\n");
    assert_eq!(complete(&["explain", "./web", "-f", ""]), "envs/\nprod.yaml\nweb/\n:6\n");
    assert_eq!(complete(&["explain", "./web", "--values", "envs/"]), "envs/stage.json\n:4\n");
    assert_eq!(complete(&["release", "decode", "-f", "n"]), "notes.txt\n:4\n");
}

#[test]
fn errors_are_silent_and_bounded_in_time() {
    // A kubeconfig pointing at a port nobody listens on.
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let r = run(releasex().env("KUBECONFIG", &kc).args(["__complete", "release", "decode", ""]));
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, ":4\n", ""));
    // A broken kubeconfig, a forbidden list, no kubeconfig at all: same.
    std::fs::write(&kc, "not: [a kubeconfig").unwrap();
    let r = run(releasex().env("KUBECONFIG", &kc).args(["__complete", "release", "decode", ""]));
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, ":4\n", ""));
    let c = cluster();
    c.api.fail("secrets", 403);
    assert_eq!(c.complete(&["release", "decode", ""]), ":4\n");
    let r = run(releasex().args(["__complete", "release", "decode", "--revision", ""]));
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, ":36\n", ""));
}

#[test]
fn kubectl_complete_name_answers_like_complete() {
    let c = cluster();
    let link = c.dir.path().join("kubectl_complete-releasex");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("kubectl-releasex"), &link).unwrap();
    let r = run(assert_cmd::Command::new(&link).env_clear().env("KUBECONFIG", &c.kubeconfig).args(["release", "history", "r"]));
    assert_eq!(r.stdout, "rel\tdeployed, revision 3\n:4\n");
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// PATH with the built binary first, for the shell scripts.
fn path_with_binary() -> std::ffi::OsString {
    let bin_dir = assert_cmd::cargo::cargo_bin("kubectl-releasex").parent().unwrap().to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&rest))).unwrap()
}

fn shell(program: &str, script: &str, kubeconfig: &Path) -> Option<String> {
    let out = std::process::Command::new(program)
        .args(["-c", script])
        .env_clear()
        .env("PATH", path_with_binary())
        .env("HOME", "/nonexistent-home")
        .env("KUBECONFIG", kubeconfig)
        .current_dir(root())
        .output()
        .ok()?;
    assert!(out.status.success(), "{program}: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn bash_script_completes_releases_subcommands_and_flags() {
    let c = cluster();
    let script = r#"
        source completions/kubectl-releasex.bash
        try() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _kubectl_releasex_dynamic kubectl-releasex "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; echo "[$*] ${COMPREPLY[*]}"; }
        try kubectl-releasex re
        try kubectl-releasex release history ''
        try kubectl-releasex release decode demo --revision ''
        try kubectl-releasex upgrade-preview --reuse-v
        try kubectl-releasex -n ''
    "#;
    let Some(out) = shell("bash", script, &c.kubeconfig) else { return };
    insta::assert_snapshot!(out, @r"
    [kubectl-releasex re] release
    [kubectl-releasex release history ] demo rel
    [kubectl-releasex release decode demo --revision ] 3 2 1
    [kubectl-releasex upgrade-preview --reuse-v] --reuse-values
    [kubectl-releasex -n ] other-ns team-a
    ");
}

#[test]
fn zsh_script_completes_releases_with_descriptions() {
    let c = cluster();
    // Outside the line editor: compdef, _describe and compadd print what they get.
    let script = r#"
        compdef() { :; }
        source completions/_kubectl-releasex
        _describe() { print -rl -- "${(@P)${@[-1]}}"; }
        compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@"; }
        try() { words=("$@"); CURRENT=$#; print -r -- "[$*]"; _kubectl_releasex_dynamic; }
        try kubectl-releasex release history ''
        try kubectl-releasex --context ''
        try kubectl-releasex explain tests/fixtures/charts/pa
    "#;
    let Some(out) = shell("zsh", script, &c.kubeconfig) else {
        eprintln!("skipped: no zsh");
        return;
    };
    insta::assert_snapshot!(out, @r"
    [kubectl-releasex release history ]
    demo:deployed, revision 3
    rel:deployed, revision 3
    [kubectl-releasex --context ]
    fixture:current, namespace team-a
    other:namespace other-ns
    [kubectl-releasex explain tests/fixtures/charts/pa]
    tests/fixtures/charts/parent-v2/
    tests/fixtures/charts/parent/
    ");
}

#[test]
fn fish_script_completes_releases_with_descriptions() {
    let c = cluster();
    let script = r#"
        source completions/kubectl-releasex.fish
        complete -C 'kubectl-releasex release history '
        echo ---
        complete -C 'kubectl-releasex release decode demo --revision '
    "#;
    let Some(out) = shell("fish", script, &c.kubeconfig) else {
        eprintln!("skipped: no fish");
        return;
    };
    // fish sorts candidates itself.
    insta::assert_snapshot!(out, @r"
    demo	deployed, revision 3
    rel	deployed, revision 3
    ---
    1	superseded
    2	superseded
    3	deployed
    ");
}

#[test]
fn powershell_script_registers_the_dynamic_completer() {
    // No pwsh on these machines: the registered completer is checked as text.
    let script = std::fs::read_to_string(root().join("completions/kubectl-releasex.ps1")).unwrap();
    let dynamic = &script[script.rfind("Register-ArgumentCompleter").unwrap()..];
    assert!(dynamic.contains("& kubectl-releasex __complete @words"), "{dynamic}");
    assert!(dynamic.contains(r"-notmatch '^:\d+$'"), "the directive line is not a candidate");
    assert!(dynamic.contains("[CompletionResult]::new($value, $value, [CompletionResultType]::ParameterValue, $help)"));
}
