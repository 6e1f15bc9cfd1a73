//! Dynamic completion: `kubectl-releasex __complete WORDS...`, the same
//! binary called as `kubectl_complete-releasex WORDS...` (kubectl 1.26+), and
//! Helm's `plugin.complete`. WORDS are the words after the command name, the
//! last one being the word under the cursor (`""` for a new word).
//!
//! The answer uses Cobra's format because kubectl and Helm parse it from
//! plugins: one `value<TAB>description` per line, then `:DIRECTIVE`. Our own
//! shell scripts (`completion SHELL`) read the same format.
//!
//! Speed and silence: static words (subcommands, flags, enum values, files)
//! never touch the cluster; release names and revisions cost one
//! metadata-only LIST with a short timeout. Every error ends as "no
//! candidates": a completion must never print noise into the shell.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Command;

use super::args::{ColorChoice, GlobalArgs, StorageDriver, parse_driver};
use super::context::{Env, kube_target};
use crate::cluster::{self, ReadOnlyCluster, RecordLabels};
use crate::release::Driver;

/// Cobra's ShellCompDirective bits (spf13/cobra completions.go).
const NO_SPACE: u8 = 2;
const NO_FILE_COMP: u8 = 4;
const KEEP_ORDER: u8 = 32;

/// Long enough for a nearby API server, short enough that TAB never hangs.
pub const CLUSTER_TIMEOUT: Duration = Duration::from_millis(1500);
/// The largest answer completion reads: a metadata-only list of ~30,000
/// release records, and a bound on completion's memory.
pub const MAX_RESPONSE_BYTES: usize = 32 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub value: String,
    pub help: String,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub candidates: Vec<Candidate>,
    pub directive: u8,
}

impl Answer {
    /// Cobra's wire format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for c in &self.candidates {
            out.push_str(&c.value);
            if !c.help.is_empty() {
                out.push('\t');
                // A newline in a description would start a bogus candidate.
                out.push_str(&c.help.replace(['\n', '\t'], " "));
            }
            out.push('\n');
        }
        out.push_str(&format!(":{}\n", self.directive));
        out
    }
}

/// Where cluster-backed candidates come from; tests and the binary differ.
pub trait Records {
    /// Record labels of release `name` (all releases when None).
    fn labels(&self, target: &cluster::KubeTarget, name: Option<&str>, driver: Driver) -> Vec<RecordLabels>;
}

/// The real API server: one LIST, bounded by [`CLUSTER_TIMEOUT`], errors dropped.
pub struct LiveRecords;

impl Records for LiveRecords {
    fn labels(&self, target: &cluster::KubeTarget, name: Option<&str>, driver: Driver) -> Vec<RecordLabels> {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return Vec::new() };
        let listed = runtime.block_on(async {
            tokio::time::timeout(CLUSTER_TIMEOUT, async {
                let cluster = ReadOnlyCluster::connect(target).await.ok()?;
                cluster.list_record_labels(name, driver).await.ok()
            })
            .await
        });
        let labels = listed.ok().flatten().unwrap_or_default();
        // Dropping the runtime would wait for a blocking DNS lookup left behind
        // by the timeout; the process ends right after anyway.
        std::mem::forget(runtime);
        labels
    }
}

/// What the words before the cursor established.
struct Line<'a> {
    cmd: &'a Command,
    positionals: Vec<String>,
    /// Flag values by arg id.
    values: HashMap<String, Vec<String>>,
    /// A flag whose value is the word under the cursor.
    pending: Option<&'a clap::Arg>,
    only_positionals: bool,
    /// No subcommand chosen yet.
    at_root: bool,
}

fn takes_value(arg: &clap::Arg) -> bool {
    arg.get_action().takes_values()
}

fn find_long<'a>(cmd: &'a Command, name: &str) -> Option<&'a clap::Arg> {
    cmd.get_arguments().find(|a| a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name)))
}

fn parse<'a>(root: &'a Command, words: &[String], env: &Env) -> Line<'a> {
    let mut line = Line { cmd: root, positionals: Vec::new(), values: HashMap::new(), pending: None, only_positionals: false, at_root: true };
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if !line.only_positionals && w == "--" {
            line.only_positionals = true;
            continue;
        }
        if !line.only_positionals && w.len() > 2 && w.starts_with("--") {
            let (name, inline) = match w[2..].split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (&w[2..], None),
            };
            if let Some(arg) = find_long(line.cmd, name).filter(|a| takes_value(a)) {
                let value = inline.or_else(|| words.get(i).cloned().inspect(|_| i += 1));
                match value {
                    Some(v) => line.values.entry(arg.get_id().to_string()).or_default().push(v),
                    None => line.pending = Some(arg),
                }
            }
            continue;
        }
        if !line.only_positionals && w.len() > 1 && w.starts_with('-') {
            let chars: Vec<char> = w[1..].chars().collect();
            for (k, c) in chars.iter().enumerate() {
                let Some(arg) = line.cmd.get_arguments().find(|a| a.get_short() == Some(*c)) else { break };
                if takes_value(arg) {
                    let rest: String = chars[k + 1..].iter().collect();
                    let rest = rest.strip_prefix('=').map(str::to_string).unwrap_or(rest);
                    let value = if rest.is_empty() { words.get(i).cloned().inspect(|_| i += 1) } else { Some(rest) };
                    match value {
                        Some(v) => line.values.entry(arg.get_id().to_string()).or_default().push(v),
                        None => line.pending = Some(arg),
                    }
                    break;
                }
            }
            continue;
        }
        if line.positionals.is_empty() && line.cmd.has_subcommands() {
            if let Some(sub) = line.cmd.find_subcommand(w) {
                line.cmd = sub;
                line.at_root = false;
                continue;
            }
            // `helm preview RELEASE CHART` is `upgrade-preview RELEASE CHART`.
            if line.at_root
                && env.is_helm_plugin()
                && let Some(sub) = root.find_subcommand("upgrade-preview")
            {
                line.cmd = sub;
                line.at_root = false;
            }
        }
        line.positionals.push(w.clone());
    }
    line
}

/// Completes `words` (the last is the word under the cursor).
pub fn complete(words: &[String], env: &Env, cwd: &Path, records: &dyn Records) -> Answer {
    let mut root = super::command();
    root.build();
    let (before, cur) = match words.split_last() {
        Some((cur, before)) => (before, cur.as_str()),
        None => (&[][..], ""),
    };
    let line = parse(&root, before, env);
    let ctx = Context { line: &line, env, cwd, records };
    let mut answer = if let Some(arg) = line.pending {
        ctx.values_for(arg, cur, "")
    } else if !line.only_positionals && cur.starts_with("--") && cur.contains('=') {
        let (name, value) = cur[2..].split_once('=').unwrap_or_default();
        match find_long(line.cmd, name).filter(|a| takes_value(a)) {
            Some(arg) => ctx.values_for(arg, value, &format!("--{name}=")),
            None => Answer { directive: NO_FILE_COMP, ..Answer::default() },
        }
    } else if !line.only_positionals && cur.starts_with('-') {
        flags(line.cmd, cur)
    } else {
        ctx.words(cur)
    };
    answer.candidates.dedup_by(|a, b| a.value == b.value);
    answer
}

fn flags(cmd: &Command, cur: &str) -> Answer {
    let mut candidates: Vec<Candidate> = cmd
        .get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set())
        .filter_map(|a| a.get_long().map(|l| (l, a)))
        .map(|(l, a)| Candidate { value: format!("--{l}"), help: help_of(a.get_help()) })
        .filter(|c| c.value.starts_with(cur))
        .collect();
    candidates.sort_by(|a, b| a.value.cmp(&b.value));
    Answer { candidates, directive: NO_FILE_COMP }
}

fn help_of(s: Option<&clap::builder::StyledStr>) -> String {
    s.map(|h| h.to_string().lines().next().unwrap_or("").to_string()).unwrap_or_default()
}

struct Context<'a> {
    line: &'a Line<'a>,
    env: &'a Env,
    cwd: &'a Path,
    records: &'a dyn Records,
}

impl Context<'_> {
    /// A new word: subcommands while none is chosen, and the next positional's values.
    fn words(&self, cur: &str) -> Answer {
        let cmd = self.line.cmd;
        let mut answer = Answer { directive: NO_FILE_COMP, ..Answer::default() };
        if self.line.positionals.is_empty() && cmd.has_subcommands() {
            for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
                if sub.get_name().starts_with(cur) {
                    answer.candidates.push(Candidate { value: sub.get_name().to_string(), help: help_of(sub.get_about()) });
                }
            }
            // Helm users may name a release right away (`helm preview RELEASE CHART`).
            if self.line.at_root && self.env.is_helm_plugin() {
                answer.candidates.extend(self.release_names(cur).candidates);
            }
            return answer;
        }
        let index = self.line.positionals.len();
        let positional = cmd.get_arguments().filter(|a| a.is_positional()).nth(index);
        match positional {
            Some(arg) => self.values_for(arg, cur, ""),
            None => answer,
        }
    }

    fn values_for(&self, arg: &clap::Arg, cur: &str, prefix: &str) -> Answer {
        let id = arg.get_id().as_str();
        let mut answer = match id {
            "namespace" => self.namespaces(cur),
            "context" => self.contexts(cur),
            "name" | "release" => self.release_names(cur),
            "revision" => self.revisions(cur),
            "chart" => files(self.cwd, cur, FileKind::Chart),
            "values" => files(self.cwd, cur, FileKind::Values),
            "driver" => fixed(cur, &[("secret", "Secrets (Helm's default)"), ("configmap", "ConfigMaps"), ("sql", "PostgreSQL")]),
            "shell" => fixed(cur, &[("bash", ""), ("zsh", ""), ("fish", ""), ("powershell", ""), ("elvish", "")]),
            "kubeconfig" | "files" | "release_files" | "manifest" | "patch_meta" | "original" | "modified" | "current" => {
                files(self.cwd, cur, FileKind::Any)
            }
            _ => {
                let values: Vec<Candidate> = arg
                    .get_possible_values()
                    .into_iter()
                    .filter(|v| !v.is_hide_set() && v.get_name().starts_with(cur))
                    .map(|v| Candidate { value: v.get_name().to_string(), help: help_of(v.get_help()) })
                    .collect();
                Answer { candidates: values, directive: NO_FILE_COMP }
            }
        };
        if !prefix.is_empty() {
            for c in &mut answer.candidates {
                c.value.insert_str(0, prefix);
            }
        }
        answer
    }

    fn flag(&self, id: &str) -> Option<&str> {
        self.line.values.get(id).and_then(|v| v.last()).map(String::as_str)
    }

    /// The cluster the command line points at: its flags, else Helm's
    /// environment; within completion's budget (a shorter
    /// `--request-timeout` on the line is honoured), no retries, silent.
    fn target(&self) -> cluster::KubeTarget {
        let request_timeout = self.flag("request_timeout").and_then(|t| crate::go::duration::parse_timeout(t).ok()).unwrap_or(CLUSTER_TIMEOUT);
        let global = GlobalArgs {
            kubeconfig: self.flag("kubeconfig").map(PathBuf::from),
            context: self.flag("context").map(str::to_string),
            namespace: self.flag("namespace").map(str::to_string),
            request_timeout,
            output: None,
            color: ColorChoice::Never,
            timings: false,
        };
        let mut target = kube_target(&global, self.env);
        let timeout = target.limits.timeout.map_or(CLUSTER_TIMEOUT, |t| t.min(CLUSTER_TIMEOUT));
        target.limits = cluster::RequestLimits { timeout: Some(timeout), max_response_bytes: MAX_RESPONSE_BYTES, max_retries: 0, ..target.limits };
        target.on_retry = cluster::RetryReporter::default();
        target
    }

    fn driver(&self) -> Option<Driver> {
        let named = self.flag("driver").or_else(|| self.env.get("HELM_DRIVER")).unwrap_or("secret");
        match parse_driver(named).ok()? {
            StorageDriver::Secret => Some(Driver::Secret),
            StorageDriver::ConfigMap => Some(Driver::ConfigMap),
            // Completion reads the Kubernetes API only.
            StorageDriver::Sql => None,
        }
    }

    fn release_names(&self, cur: &str) -> Answer {
        let mut answer = Answer { directive: NO_FILE_COMP, ..Answer::default() };
        let Some(driver) = self.driver() else { return answer };
        // Latest revision per release: its status is what the user recognises.
        let mut latest: BTreeMap<String, (i64, String)> = BTreeMap::new();
        for r in self.records.labels(&self.target(), None, driver) {
            if !r.name.starts_with(cur) {
                continue;
            }
            let rev = r.revision.unwrap_or(0);
            let entry = latest.entry(r.name).or_insert((i64::MIN, String::new()));
            if rev > entry.0 {
                *entry = (rev, r.status.unwrap_or_default());
            }
        }
        answer.candidates = latest
            .into_iter()
            .map(|(name, (rev, status))| Candidate { value: name, help: format!("{status}, revision {rev}").trim_start_matches(", ").to_string() })
            .collect();
        answer
    }

    fn revisions(&self, cur: &str) -> Answer {
        let mut answer = Answer { directive: NO_FILE_COMP | KEEP_ORDER, ..Answer::default() };
        let release = self.flag("release").map(str::to_string).or_else(|| self.line.positionals.first().cloned());
        let (Some(release), Some(driver)) = (release, self.driver()) else { return answer };
        let mut revs: Vec<(i64, String)> = self
            .records
            .labels(&self.target(), Some(&release), driver)
            .into_iter()
            .filter(|r| r.name == release)
            .filter_map(|r| Some((r.revision?, r.status.unwrap_or_default())))
            .collect();
        revs.sort_by_key(|r| std::cmp::Reverse(r.0));
        revs.dedup_by_key(|r| r.0);
        answer.candidates = revs
            .into_iter()
            .map(|(rev, status)| Candidate { value: rev.to_string(), help: status })
            .filter(|c| c.value.starts_with(cur))
            .collect();
        answer
    }

    fn contexts(&self, cur: &str) -> Answer {
        let (contexts, current) = cluster::kubeconfig_contexts(&self.target());
        let candidates = contexts
            .into_iter()
            .filter(|(n, _)| n.starts_with(cur))
            .map(|(n, ns)| {
                let mut help = ns.map(|ns| format!("namespace {ns}")).unwrap_or_default();
                if current.as_deref() == Some(n.as_str()) {
                    help = if help.is_empty() { "current".into() } else { format!("current, {help}") };
                }
                Candidate { value: n, help }
            })
            .collect();
        Answer { candidates, directive: NO_FILE_COMP }
    }

    fn namespaces(&self, cur: &str) -> Answer {
        let (contexts, _) = cluster::kubeconfig_contexts(&self.target());
        let mut names: Vec<(String, Vec<String>)> = Vec::new();
        for (ctx, ns) in contexts {
            let ns = ns.unwrap_or_else(|| "default".to_string());
            match names.iter_mut().find(|(n, _)| *n == ns) {
                Some((_, ctxs)) => ctxs.push(ctx),
                None => names.push((ns, vec![ctx])),
            }
        }
        names.sort();
        let candidates = names
            .into_iter()
            .filter(|(n, _)| n.starts_with(cur))
            .map(|(n, ctxs)| Candidate { value: n, help: format!("context {}", ctxs.join(", ")) })
            .collect();
        Answer { candidates, directive: NO_FILE_COMP }
    }
}

fn fixed(cur: &str, values: &[(&str, &str)]) -> Answer {
    let candidates =
        values.iter().filter(|(v, _)| v.starts_with(cur)).map(|(v, h)| Candidate { value: v.to_string(), help: h.to_string() }).collect();
    Answer { candidates, directive: NO_FILE_COMP }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Any,
    /// Chart directories (any directory, charts described) and packaged charts.
    Chart,
    /// YAML and JSON files.
    Values,
}

/// Entries of the directory `cur` points into. Directories end in `/` and
/// ask the shell for no space, so the user can keep descending.
fn files(cwd: &Path, cur: &str, kind: FileKind) -> Answer {
    let (dir_part, prefix) = match cur.rfind('/') {
        Some(i) => (&cur[..=i], &cur[i + 1..]),
        None => ("", cur),
    };
    let dir = if dir_part.is_empty() { cwd.to_path_buf() } else { cwd.join(dir_part) };
    let mut candidates = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else { return Answer { candidates, directive: NO_FILE_COMP } };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            let help = if kind == FileKind::Chart && path.join("Chart.yaml").is_file() { "chart" } else { "" };
            candidates.push(Candidate { value: format!("{dir_part}{name}/"), help: help.to_string() });
            continue;
        }
        let keep = match kind {
            FileKind::Any => true,
            FileKind::Chart => name.ends_with(".tgz"),
            FileKind::Values => [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e)),
        };
        if keep {
            let help = if kind == FileKind::Chart { "packaged chart" } else { "" };
            candidates.push(Candidate { value: format!("{dir_part}{name}"), help: help.to_string() });
        }
    }
    candidates.sort_by(|a, b| a.value.cmp(&b.value));
    let directive = if candidates.iter().any(|c| c.value.ends_with('/')) { NO_FILE_COMP | NO_SPACE } else { NO_FILE_COMP };
    Answer { candidates, directive }
}

/// Entry point: prints the answer; always exits 0 (errors mean no candidates).
pub fn run(words: Vec<OsString>, env: &Env) -> std::process::ExitCode {
    use std::io::Write as _;
    let words: Vec<String> = words.into_iter().map(|w| w.to_string_lossy().into_owned()).collect();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let answer = complete(&words, env, &cwd, &LiveRecords);
    let _ = std::io::stdout().lock().write_all(answer.render().as_bytes());
    std::process::ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed cluster: records `web` (revisions 1, 2) and `api` (1).
    struct Fixed;
    impl Records for Fixed {
        fn labels(&self, _: &cluster::KubeTarget, name: Option<&str>, _: Driver) -> Vec<RecordLabels> {
            let all = [("web", 1, "superseded"), ("web", 2, "deployed"), ("api", 1, "failed")];
            all.iter()
                .filter(|(n, _, _)| name.is_none_or(|x| x == *n))
                .map(|(n, r, s)| RecordLabels { name: n.to_string(), revision: Some(*r), status: Some(s.to_string()) })
                .collect()
        }
    }

    fn answer(words: &[&str], env: &Env) -> String {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        complete(&words, env, Path::new("/nonexistent"), &Fixed).render()
    }

    #[test]
    fn flag_values_are_completed_after_short_long_and_inline_forms() {
        let env = Env::default();
        assert_eq!(answer(&["release", "decode", "web", "--revision", ""], &env), "2\tdeployed\n1\tsuperseded\n:36\n");
        assert_eq!(answer(&["explain", "--release=w"], &env), "--release=web\tdeployed, revision 2\n:4\n");
        assert_eq!(answer(&["-ojson", "release", "history", "a"], &env), "api\tfailed, revision 1\n:4\n");
        assert_eq!(answer(&["release", "history", "--max", "3", "w"], &env), "web\tdeployed, revision 2\n:4\n");
        // helm rollback's positionals: RELEASE, then its revisions.
        assert_eq!(answer(&["rollback-preview", "w"], &env), "web\tdeployed, revision 2\n:4\n");
        assert_eq!(answer(&["rollback-preview", "web", ""], &env), "2\tdeployed\n1\tsuperseded\n:36\n");
    }

    #[test]
    fn under_helm_a_first_word_that_is_no_subcommand_starts_upgrade_preview() {
        let helm = Env::from_pairs([("HELM_PLUGIN_NAME", "preview")]);
        assert_eq!(answer(&["up"], &helm), "upgrade-preview\tWhat `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new\n:4\n");
        assert_eq!(answer(&["w"], &helm), "web\tdeployed, revision 2\n:4\n");
        assert_eq!(answer(&["web", "--reuse-v"], &helm), "--reuse-values\tAs helm upgrade --reuse-values (ignored if --reset-values is given, as in Helm)\n:4\n");
        // Not under Helm: release names are not words of the top level.
        assert_eq!(answer(&["w"], &Env::default()), ":4\n");
    }

    #[test]
    fn descriptions_stay_on_one_line() {
        let a = Answer { candidates: vec![Candidate { value: "x".into(), help: "a\nb\tc".into() }], directive: 4 };
        assert_eq!(a.render(), "x\ta b c\n:4\n");
    }
}
