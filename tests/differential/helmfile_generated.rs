//! Generated helmfile projects (issue 19, Proof): for each release, the
//! values releasex explains must equal the `.Values` real helmfile 0.166
//! hands to Helm, and where helmfile fails releasex must fail too.
//!
//! A seeded generator (`helmfile_generated/generator.rs`) writes projects in
//! v0 mode (`HELMFILE_V1MODE=false`, `helmfile.yaml` rendered) and v1 mode
//! (`HELMFILE_V1MODE=true`, only `.gotmpl` rendered). Real helmfile runs
//! `template` once per project with a stand-in `helm` that records each
//! `helm template` call (and copies the `--values` files it is given) and
//! answers `helm secrets decrypt` with a stand-in `sops`; real Helm (the
//! v4.2.3 oracle, one batch for the whole run) then computes `.Values` from
//! the recorded flags. releasex is called as a library on the same files.
//!
//! Environment: `HELMFILE_GEN_SEED=N` replays a run (the seed is printed on
//! failure; default: time-based), `HELMFILE_GEN_ONLY=I` runs only project I
//! (and keeps its directory), `HELMFILE_GEN_PROJECTS=N` (default 150),
//! `HELMFILE_GEN_FEATURES=all` or `a,b,...` (default: every feature but those
//! tests/data/helmfile/known-differences.json disables).

mod generator;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{oracle_client, xorshift};
use generator::{FEATURES, Feature, Project};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Real helmfile 0.166.0 (`RELEASEX_HELMFILE`, else where scripts/real-binaries.sh puts it);
/// missing is a failure, as CI installs it.
fn real_helmfile() -> PathBuf {
    let path = std::env::var_os("RELEASEX_HELMFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/real-helm-binaries/helmfile/helmfile")))
        .expect("HOME or RELEASEX_HELMFILE");
    assert!(path.is_file(), "no real helmfile at {}: run scripts/real-binaries.sh (as .ci/run does)", path.display());
    path
}

/// Records `helm template ARGS` as `$REC/<unique>/args` (one per line),
/// every `--values FILE` copied beside it, and the directory helmfile ran it
/// in; `helm secrets decrypt FILE` (helmfile 0.166's DecryptSecret,
/// pkg/helmexec/exec.go, for helm-secrets >= 4) prints `$SOPS --decrypt FILE`.
const STAND_IN_HELM: &str = r#"#!/bin/sh
[ "$1" = version ] && { echo 'version.BuildInfo{Version:"v3.15.3"}'; exit 0; }
[ "$1" = secrets ] && [ "$2" = decrypt ] && exec "$SOPS" --decrypt "$3"
[ "$1" = template ] || exit 0
d=$(mktemp -d "$REC/call.XXXXXX"); pwd > "$d/cwd"; i=0; prev=
for a in "$@"; do
  if [ "$prev" = --values ]; then cp "$a" "$d/values.$i.yaml"; a="$d/values.$i.yaml"; i=$((i+1)); fi
  printf '%s\n' "$a" >> "$d/args"; prev=$a
done
"#;

/// "Decrypts" FILE by printing FILE with `.yaml` replaced by `.decrypted.yaml`
/// (as tests/cli/helmfile.rs's fake sops).
const STAND_IN_SOPS: &str = "#!/bin/sh\n[ \"$1\" = --decrypt ] || exit 3\nexec cat \"${2%.yaml}.decrypted.yaml\"\n";

fn write_exec(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).expect("write script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The tools both sides share: the stand-in helm and sops, and a helm
/// plugins directory where helmfile finds helm-secrets 4.6.0.
struct Tools {
    dir: tempfile::TempDir,
}

impl Tools {
    fn new() -> Tools {
        let dir = tempfile::tempdir().expect("tempdir");
        write_exec(&dir.path().join("helm"), STAND_IN_HELM);
        write_exec(&dir.path().join("sops"), STAND_IN_SOPS);
        std::fs::create_dir_all(dir.path().join("plugins/secrets")).expect("mkdir");
        std::fs::write(dir.path().join("plugins/secrets/plugin.yaml"), "name: secrets\nversion: 4.6.0\n").expect("plugin");
        Tools { dir }
    }
    fn sops(&self) -> PathBuf {
        self.dir.path().join("sops")
    }
}

fn write_project(p: &Project, dir: &Path) {
    for (name, text) in &p.files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
}

/// One recorded `helm template` call: the release and the oracle request for its values.
struct Call {
    release: String,
    request: Vec<String>,
}

/// Real helmfile's `template`: the calls it made to helm, or its error.
fn helmfile_template(tools: &Tools, p: &Project, dir: &Path) -> Result<Vec<Call>, String> {
    let rec = dir.join(".rec");
    std::fs::create_dir_all(&rec).expect("mkdir");
    let mut cmd = std::process::Command::new(real_helmfile());
    cmd.arg("--helm-binary").arg(tools.dir.path().join("helm")).args(["-f", &p.state_file, "-e", &p.environment]);
    for s in &p.state_values_set {
        cmd.args(["--state-values-set", s]);
    }
    cmd.args(["template", "--skip-deps"])
        .current_dir(dir)
        .env("REC", &rec)
        .env("SOPS", tools.sops())
        .env("HELM_PLUGINS", tools.dir.path().join("plugins"))
        .env("HELMFILE_V1MODE", if p.v1_mode { "true" } else { "false" })
        .env("HOME", dir);
    let out = cmd.output().expect("run helmfile");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut calls = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&rec).expect("recorded").map(|e| e.expect("entry").path()).collect();
    dirs.sort();
    for call in dirs {
        let args: Vec<String> = std::fs::read_to_string(call.join("args")).expect("args").lines().map(String::from).collect();
        let cwd = PathBuf::from(std::fs::read_to_string(call.join("cwd")).expect("cwd").trim());
        let [_, release, chart, flags @ ..] = args.as_slice() else { panic!("helm template call without a release and chart: {args:?}") };
        let mut request = vec!["values".to_string(), cwd.join(chart).to_string_lossy().into_owned()];
        let mut it = flags.iter();
        while let Some(flag) = it.next() {
            let value = || it.clone().next().cloned().unwrap_or_else(|| panic!("{flag} without a value in {args:?}"));
            match flag.as_str() {
                "--values" | "-f" => request.extend(["-f".to_string(), value()]),
                "--set" | "--set-string" | "--set-json" => request.extend([flag.clone(), value()]),
                // Not part of `.Values`.
                "--namespace" | "-n" | "--kube-context" => {}
                other => panic!("helmfile passed helm a flag this test does not know: {other} ({args:?})"),
            }
            it.next();
        }
        calls.push(Call { release: release.clone(), request });
    }
    Ok(calls)
}

/// The test's `Io`: real files, and secrets through the same stand-in sops.
struct TestIo {
    sops: PathBuf,
}

impl releasex::helmfile::Io for TestIo {
    fn read(&self, path: &Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn sops_decrypt(&self, path: &Path) -> Result<String, String> {
        let out = std::process::Command::new(&self.sops).arg("--decrypt").arg(path).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("sops --decrypt failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        String::from_utf8(out.stdout).map_err(|_| "sops printed invalid UTF-8".into())
    }
    fn template_host(&self, base_dir: &Path, req: &releasex::helmfile::Request) -> Box<dyn releasex::gotmpl::func::Host + '_> {
        Box::new(releasex::cli::template_host::SystemHost { base_dir: base_dir.to_path_buf(), allow_exec: req.allow_exec })
    }
}

fn request(p: &Project, dir: &Path, show_secrets: bool) -> releasex::helmfile::Request {
    releasex::helmfile::Request {
        file: dir.join(&p.state_file),
        environment: p.environment.clone(),
        state_values_set: p.state_values_set.clone(),
        show_secrets,
        environ: Some(std::env::vars().collect()),
        // helmfile 0.166 renders every state file unless HELMFILE_V1MODE=true.
        render_plain_yaml: !p.v1_mode,
        v0_mode: !p.v1_mode,
        ..Default::default()
    }
}

enum Ours {
    Values(Value),
    NoRelease,
    Failed(String),
}

fn ours(p: &Project, dir: &Path, io: &TestIo, release: &str) -> Ours {
    match releasex::helmfile::explain(&request(p, dir, true), io, Some(release), releasex::explain::Options::default()) {
        Ok(e) => Ours::Values(Value::Object(releasex::values::tree::map_to_json(&e.explanation.values))),
        Err(releasex::helmfile::HelmfileError::NoRelease(..)) => Ours::NoRelease,
        Err(e) => Ours::Failed(e.to_string()),
    }
}

/// Without `--show-secrets`, no decrypted secret (nor its upper-cased form)
/// may appear in the values, the entries or the notes.
fn leaks(p: &Project, dir: &Path, io: &TestIo, release: &str) -> Option<String> {
    let e = releasex::helmfile::explain(&request(p, dir, false), io, Some(release), releasex::explain::Options::default()).ok()?;
    let shown = format!("{:?} {:?} {:?}", releasex::values::tree::map_to_json(&e.explanation.values), e.explanation.entries, e.notes);
    let word = p.secret_words.iter().find(|w| shown.contains(w.as_str()))?;
    Some(format!("release {release}: the secret {word:?} is printed unmasked without --show-secrets"))
}

struct Outcome {
    compared: usize,
    failures: Vec<String>,
}

fn describe(i: usize, p: &Project) -> String {
    format!(
        "project #{i} (v1 mode {}, -e {}, --state-values-set {:?}, features [{}])",
        p.v1_mode,
        p.environment,
        p.state_values_set,
        p.used.iter().map(|f| generator::name(*f)).collect::<Vec<_>>().join(",")
    )
}

fn state_text(p: &Project) -> &str {
    p.files.iter().find(|(n, _)| *n == p.state_file).map_or("", |(_, t)| t.as_str())
}

/// Known differences (tests/data/helmfile/known-differences.json): each entry
/// names the generator feature it disables by default.
fn known_differences() -> Vec<Value> {
    let path = root().join("tests/data/helmfile/known-differences.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let list = doc["differences"].as_array().cloned().unwrap_or_else(|| panic!("{}: no \"differences\" list", path.display()));
    for d in &list {
        for key in ["feature", "differs", "helmfile_source", "why", "seed", "case"] {
            assert!(d.get(key).is_some(), "{}: entry without {key:?}: {d}", path.display());
        }
        let f = d["feature"].as_str().unwrap_or_default();
        assert!(generator::by_name(f).is_some(), "{}: unknown feature {f:?}", path.display());
    }
    list
}

fn enabled_features(known: &[Value]) -> Vec<Feature> {
    match std::env::var("HELMFILE_GEN_FEATURES").ok().as_deref() {
        Some("all") => FEATURES.iter().map(|(f, _)| *f).collect(),
        Some(list) => list.split(',').map(|n| generator::by_name(n.trim()).unwrap_or_else(|| panic!("HELMFILE_GEN_FEATURES: no feature {n:?}"))).collect(),
        None => {
            let off: Vec<&str> = known.iter().filter_map(|d| d["feature"].as_str()).collect();
            FEATURES.iter().filter(|(_, n)| !off.contains(n)).map(|(f, _)| *f).collect()
        }
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|s| s.parse().unwrap_or_else(|_| panic!("{name}={s:?} is not a number")))
}

#[test]
fn generated_helmfile_projects_give_helm_the_values_releasex_explains() {
    let started = std::time::Instant::now();
    let seed = env_number("HELMFILE_GEN_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1
    });
    let only = env_number("HELMFILE_GEN_ONLY").map(|i| i as usize);
    let count = env_number("HELMFILE_GEN_PROJECTS").unwrap_or(150) as usize;
    let enabled = enabled_features(&known_differences());
    let tools = Tools::new();
    let io = TestIo { sops: tools.sops() };
    let work = tempfile::tempdir().expect("tempdir");

    // Generate and run helmfile on every project first: one oracle batch then answers all.
    struct Ran {
        index: usize,
        project: Project,
        dir: PathBuf,
        helmfile: Result<Vec<Call>, String>,
    }
    let mut ran: Vec<Ran> = (0..count)
        .filter(|i| only.is_none_or(|o| o == *i))
        .map(|index| {
            // Each project has its own stream, so HELMFILE_GEN_ONLY replays one alone.
            let mut rng = xorshift::Rng((seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
            let project = generator::project(&mut rng, &enabled);
            let dir = work.path().join(format!("p{index}"));
            write_project(&project, &dir);
            Ran { index, project, dir, helmfile: Err(String::new()) }
        })
        .collect();
    // helmfile's start-up is the cost: two at a time (the suite's budget is 2 cores).
    let next = std::sync::Mutex::new(ran.iter_mut());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some(r) = { let mut it = next.lock().expect("lock"); it.next() } {
                    r.helmfile = helmfile_template(&tools, &r.project, &r.dir);
                }
            });
        }
    });
    let helmfile_took = started.elapsed();
    let requests: Vec<Vec<String>> = ran.iter().filter_map(|r| r.helmfile.as_ref().ok()).flatten().map(|c| c.request.clone()).collect();
    let mut answers = oracle_client::batch(&requests).into_iter();
    let oracle_took = started.elapsed() - helmfile_took;

    let mut outcome = Outcome { compared: 0, failures: Vec::new() };
    let mut helmfile_failed = 0;
    for r in &ran {
        let (p, dir) = (&r.project, r.dir.as_path());
        let mut problems = Vec::new();
        match &r.helmfile {
            Ok(calls) => {
                let helm: BTreeMap<&str, Value> = calls.iter().map(|c| (c.release.as_str(), answers.next().expect("an oracle answer per call"))).collect();
                for name in &p.candidates {
                    match (helm.get(name.as_str()), ours(p, dir, &io, name)) {
                        (Some(h), mine) => {
                            outcome.compared += 1;
                            match (h["status"].as_str(), mine) {
                                (Some("ok"), Ours::Values(v)) if oracle_client::same(&v, &h["values"]) => {}
                                (Some("ok"), Ours::Values(v)) => problems.push(format!("release {name}: values differ\n{}", oracle_client::diff(&h["values"], &v))),
                                (Some("ok"), Ours::Failed(e)) => problems.push(format!("release {name}: we fail, helmfile+Helm do not: {e}")),
                                (Some("ok"), Ours::NoRelease) => problems.push(format!("release {name}: helmfile templates it, we find no such release")),
                                (Some("error"), Ours::Values(v)) => problems.push(format!("release {name}: Helm fails on helmfile's flags ({}), we do not: {v}", h["error"])),
                                (Some("error"), _) => {}
                                (other, _) => problems.push(format!("release {name}: oracle status {other:?}: {h}")),
                            }
                        }
                        (None, Ours::Values(_)) => problems.push(format!("release {name}: helmfile does not template it, we explain it")),
                        (None, _) => {}
                    }
                    if !p.secret_words.is_empty() && helm.contains_key(name.as_str()) {
                        problems.extend(leaks(p, dir, &io, name));
                    }
                }
                let unknown: Vec<&&str> = helm.keys().filter(|k| !p.candidates.iter().any(|c| c == **k)).collect();
                assert!(unknown.is_empty(), "the generator did not expect releases {unknown:?} in {}", describe(r.index, p));
            }
            Err(why) => {
                // helmfile stops at the first failing release (or the state): one comparison.
                helmfile_failed += 1;
                if std::env::var_os("HELMFILE_GEN_VERBOSE").is_some() {
                    eprintln!("{}: helmfile refused: {}", describe(r.index, p), why.trim());
                }
                outcome.compared += 1;
                let results: Vec<(String, Ours)> = p.candidates.iter().map(|n| (n.clone(), ours(p, dir, &io, n))).collect();
                if !results.iter().any(|(_, o)| matches!(o, Ours::Failed(_))) {
                    problems.push(format!("helmfile fails, we explain every release: {}", why.trim()));
                }
            }
        }
        if !problems.is_empty() {
            let shown = if outcome.failures.len() < 4 || only.is_some() { format!("\n--- {} ---\n{}", p.state_file, state_text(p)) } else { String::new() };
            outcome.failures.push(format!("{}:\n  {}{shown}", describe(r.index, p), problems.join("\n  ")));
        }
    }
    if only.is_some() {
        let kept = work.keep();
        eprintln!("projects kept in {}", kept.display());
    }
    eprintln!(
        "{} comparisons over {} projects ({helmfile_failed} refused by helmfile) in {:?} (helmfile {helmfile_took:?}, oracle {oracle_took:?})",
        outcome.compared,
        ran.len(),
        started.elapsed()
    );
    let features: Vec<&str> = enabled.iter().map(|f| generator::name(*f)).collect();
    assert!(
        outcome.failures.is_empty(),
        "{} of {} projects differ from real helmfile (HELMFILE_GEN_SEED={seed}, features {}); replay one with HELMFILE_GEN_ONLY=N:\n\n{}",
        outcome.failures.len(),
        ran.len(),
        features.join(","),
        outcome.failures.join("\n\n")
    );
    if only.is_none() {
        assert!(outcome.compared >= 300, "only {} comparisons (HELMFILE_GEN_SEED={seed}); raise HELMFILE_GEN_PROJECTS", outcome.compared);
    }
}
