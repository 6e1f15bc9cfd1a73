//! Resolves where to read from: flags, the Helm plugin environment and the
//! kubeconfig, in that order. Pure: the environment comes in as a snapshot.

use std::collections::HashMap;
use std::path::PathBuf;

use super::args::GlobalArgs;
use crate::cluster::{KubeTarget, RequestLimits, RetryReporter};

/// The environment variables releasex reads, captured once at start-up.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: HashMap<String, String>,
}

impl Env {
    pub fn capture() -> Env {
        Env { vars: std::env::vars().collect() }
    }

    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Env {
        Env { vars: pairs.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect() }
    }

    /// A variable's value; unset and empty are the same, as in Helm and kubectl.
    /// The variables whose names start with `prefix`, sorted by name.
    pub fn with_prefix(&self, prefix: &str) -> std::collections::BTreeMap<String, String> {
        self.vars.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars.get(key).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// Helm sets HELM_PLUGIN_NAME (and strips its own global flags from our
    /// arguments) when it runs us as a plugin.
    pub fn is_helm_plugin(&self) -> bool {
        self.get("HELM_PLUGIN_NAME").is_some()
    }

    /// `helm --debug preview ...`: Helm always sets HELM_DEBUG, to `true` or
    /// `false` (Go's strconv.ParseBool spellings count as true).
    pub fn helm_debug(&self) -> bool {
        self.is_helm_plugin() && matches!(self.get("HELM_DEBUG"), Some("true" | "1" | "t" | "T" | "TRUE" | "True"))
    }
}

/// Explicit flag > Helm plugin environment (only when run by Helm) > kubeconfig.
pub fn kube_target(global: &GlobalArgs, env: &Env) -> KubeTarget {
    let helm = env.is_helm_plugin();
    let kubeconfig_paths = match &global.kubeconfig {
        Some(p) => vec![p.clone()],
        None => match env.get("KUBECONFIG") {
            Some(list) => std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()).collect(),
            None => env.get("HOME").map(|h| vec![PathBuf::from(h).join(".kube").join("config")]).unwrap_or_default(),
        },
    };
    let context = global.context.clone().or_else(|| helm.then(|| env.get("HELM_KUBECONTEXT").map(str::to_string)).flatten());
    let namespace = global.namespace.clone().or_else(|| helm.then(|| env.get("HELM_NAMESPACE").map(str::to_string)).flatten());
    // `--request-timeout 0`: no deadline, as in kubectl. Retries of one
    // request wait no longer in all than one attempt may take.
    let timeout = Some(global.request_timeout).filter(|t| !t.is_zero());
    let defaults = RequestLimits::default();
    let max_total_retry_wait = timeout.map_or(defaults.max_total_retry_wait, |t| t.min(defaults.max_total_retry_wait));
    let limits = RequestLimits { timeout, max_total_retry_wait, ..defaults };
    KubeTarget { kubeconfig_paths, context, namespace, limits, on_retry: RetryReporter::new(super::output::announce_retry) }
}

/// The namespace a release goes to: `-n`, else `$HELM_NAMESPACE` under
/// Helm, else the kubeconfig context's, else `default` (Helm's settings.Namespace()).
pub fn release_namespace(global: &GlobalArgs, env: &Env) -> String {
    let target = kube_target(global, env);
    target.namespace.clone().unwrap_or_else(|| {
        let (contexts, current) = crate::cluster::kubeconfig_contexts(&target);
        let name = target.context.clone().or(current);
        contexts.into_iter().find(|(c, _)| Some(c) == name.as_ref()).and_then(|(_, ns)| ns).unwrap_or_else(|| "default".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{ColorChoice, OutputFormat};

    fn global(ns: Option<&str>, ctx: Option<&str>, kc: Option<&str>) -> GlobalArgs {
        GlobalArgs {
            kubeconfig: kc.map(PathBuf::from),
            context: ctx.map(str::to_string),
            namespace: ns.map(str::to_string),
            request_timeout: std::time::Duration::from_secs(30),
            output: Some(OutputFormat::Text),
            color: ColorChoice::Never,
            timings: false,
        }
    }

    #[test]
    fn flags_win_over_helm_environment() {
        let env = Env::from_pairs([("HELM_PLUGIN_NAME", "preview"), ("HELM_NAMESPACE", "helm-ns"), ("HELM_KUBECONTEXT", "helm-ctx")]);
        let t = kube_target(&global(Some("flag-ns"), Some("flag-ctx"), None), &env);
        assert_eq!(t.namespace.as_deref(), Some("flag-ns"));
        assert_eq!(t.context.as_deref(), Some("flag-ctx"));
    }

    #[test]
    fn helm_environment_is_read_only_when_run_by_helm() {
        let vars = [("HELM_NAMESPACE", "helm-ns"), ("HELM_KUBECONTEXT", "helm-ctx"), ("HOME", "/h")];
        let t = kube_target(&global(None, None, None), &Env::from_pairs(vars));
        assert_eq!((t.namespace, t.context), (None, None));
        let mut with_plugin = vars.to_vec();
        with_plugin.push(("HELM_PLUGIN_NAME", "preview"));
        let t = kube_target(&global(None, None, None), &Env::from_pairs(with_plugin));
        assert_eq!(t.namespace.as_deref(), Some("helm-ns"));
        assert_eq!(t.context.as_deref(), Some("helm-ctx"));
    }

    #[test]
    fn kubeconfig_comes_from_flag_then_env_list_then_home() {
        let env = Env::from_pairs([("KUBECONFIG", "/a:/b"), ("HOME", "/h")]);
        assert_eq!(kube_target(&global(None, None, Some("/x")), &env).kubeconfig_paths, vec![PathBuf::from("/x")]);
        assert_eq!(kube_target(&global(None, None, None), &env).kubeconfig_paths, vec![PathBuf::from("/a"), PathBuf::from("/b")]);
        let env = Env::from_pairs([("HOME", "/h")]);
        assert_eq!(kube_target(&global(None, None, None), &env).kubeconfig_paths, vec![PathBuf::from("/h/.kube/config")]);
    }

    fn limits_of(words: &[&str]) -> RequestLimits {
        use clap::Parser as _;
        let argv = ["kubectl-releasex", "release", "history", "web"].iter().chain(words);
        let cli = crate::cli::args::Cli::try_parse_from(argv).expect("parses");
        kube_target(&cli.global, &Env::default()).limits
    }

    #[test]
    fn requests_time_out_after_30s_by_default_and_never_with_zero() {
        let default = limits_of(&[]);
        assert_eq!(default.timeout, Some(std::time::Duration::from_secs(30)));
        assert_eq!(default.max_total_retry_wait, std::time::Duration::from_secs(30));
        assert_eq!(limits_of(&["--request-timeout", "0"]).timeout, None);
        assert_eq!(limits_of(&["--request-timeout=1m"]).timeout, Some(std::time::Duration::from_secs(60)));
    }

    #[test]
    fn retries_wait_no_longer_in_all_than_the_request_timeout() {
        let short = limits_of(&["--request-timeout", "2s"]);
        assert_eq!(short.max_total_retry_wait, std::time::Duration::from_secs(2));
        assert_eq!(limits_of(&["--request-timeout", "0"]).max_total_retry_wait, std::time::Duration::from_secs(30));
    }

    #[test]
    fn a_malformed_request_timeout_is_a_usage_error_naming_the_flag() {
        use clap::Parser as _;
        let e = crate::cli::args::Cli::try_parse_from(["x", "release", "history", "web", "--request-timeout", "5x"]).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("--request-timeout") && text.contains("invalid timeout value"), "{text}");
    }
}
