//! What went wrong talking to the API server, always naming the request:
//! its verb, and the resource (kind or plural, namespace, name) or the
//! non-resource path it asked for.

use std::fmt;
use std::time::Duration;

use crate::go::duration::format_duration;

/// A request as the user would name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub verb: Verb,
    /// Boxed: every error carries one, and errors should stay small.
    pub target: Box<Target>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
}

impl Verb {
    /// The Kubernetes verb (`kubectl auth can-i VERB ...`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Objects of a resource: one by name (GET) or a collection (LIST);
    /// `namespace` is `None` for cluster-scoped resources.
    Resource { group: String, kind: String, plural: String, namespace: Option<String>, name: Option<String> },
    /// A non-resource URL (`/version`, `/openapi/v3`, discovery documents).
    Path(String),
}

impl Asked {
    pub fn list(group: &str, kind: &str, plural: &str, namespace: &str) -> Asked {
        let target = Target::Resource {
            group: group.to_string(),
            kind: kind.to_string(),
            plural: plural.to_string(),
            namespace: Some(namespace.to_string()),
            name: None,
        };
        Asked { verb: Verb::List, target: Box::new(target) }
    }

    pub fn get_path(path: &str) -> Asked {
        Asked { verb: Verb::Get, target: Box::new(Target::Path(path.to_string())) }
    }

    /// The resource as `kubectl auth can-i` names it (`deployments.apps`).
    fn can_i_resource(&self) -> String {
        match self.target.as_ref() {
            Target::Resource { group, plural, .. } if group.is_empty() => plural.clone(),
            Target::Resource { group, plural, .. } => format!("{plural}.{group}"),
            Target::Path(path) => path.clone(),
        }
    }
}

/// `listing secrets in namespace "team-a"`, `getting Deployment web in
/// namespace "shop"`, `getting ClusterRole admin`, `getting /version`.
impl fmt::Display for Asked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let doing = match self.verb {
            Verb::Get => "getting",
            Verb::List => "listing",
        };
        match self.target.as_ref() {
            Target::Resource { kind, plural, namespace, name, .. } => {
                match name {
                    Some(name) => write!(f, "{doing} {kind} {name}")?,
                    None => write!(f, "{doing} {plural}")?,
                }
                match namespace {
                    Some(ns) => write!(f, " in namespace {ns:?}"),
                    None => Ok(()),
                }
            }
            Target::Path(path) => write!(f, "{doing} {path}"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("no kubeconfig found (looked at {}); pass --kubeconfig or set KUBECONFIG", .looked.join(", "))]
    NoKubeconfig { looked: Vec<String> },
    #[error("kubeconfig {path}: {source}")]
    Kubeconfig {
        path: String,
        #[source]
        source: kube::config::KubeconfigError,
    },
    /// kubectl's words (client-go clientcmd: `context was not found for specified context: NAME`), plus the choices.
    #[error("context \"{name}\" was not found in the kubeconfig ({}); its contexts are: {}", .files.join(", "), if .known.is_empty() { "none".to_string() } else { .known.join(", ") })]
    UnknownContext { name: String, known: Vec<String>, files: Vec<String> },
    #[error("kubeconfig: {0}")]
    Config(#[source] kube::config::KubeconfigError),
    #[error("cannot build a client for {server}: {source}")]
    Client {
        server: String,
        #[source]
        source: kube::Error,
    },
    #[error(
        "the API server at {server} refused the credentials of the current context (401 Unauthorized) while {asked}: log in again or check the token/certificate in your kubeconfig"
    )]
    Unauthorized { server: String, asked: Asked },
    #[error("{}", forbidden_text(asked, message))]
    Forbidden { asked: Asked, message: String },
    #[error("not found (404) while {asked}: {message}{}", not_found_hint(asked))]
    /// `status`: the message is the server's `Status` message (else the body, quoted).
    NotFound { asked: Asked, message: String, status: bool },
    #[error("the API server at {server} answered {code} {} while {asked}: {message}{}", canonical_reason(*code), retried_text(*retries, *waited))]
    Status { server: String, asked: Asked, code: u16, message: String, retries: u32, waited: Duration },
    #[error("{}", timeout_text(server, asked, *timeout, *received))]
    Timeout { server: String, asked: Asked, timeout: Duration, received: Option<u64> },
    #[error(
        "the API server at {server} sent more than {} while {asked}: releasex reads at most that much of one answer",
        mib(*limit)
    )]
    TooLarge { server: String, asked: Asked, limit: usize },
    #[error("the API server at {server} answered with malformed JSON while {asked}: {detail}")]
    MalformedJson { server: String, asked: Asked, detail: String },
    #[error("the API server at {server} answered JSON of the wrong shape while {asked}: {detail}")]
    WrongShape { server: String, asked: Asked, detail: String },
    #[error("the API server at {server} broke off its answer while {asked}: {message}")]
    Interrupted { server: String, asked: Asked, message: String },
    #[error("cannot authenticate to the API server at {server} while {asked}: {message}")]
    Auth { server: String, asked: Asked, message: String },
    #[error("cannot reach the API server at {server} while {asked}: {message}")]
    Unreachable { server: String, asked: Asked, message: String },
}

/// kubectl's permission check for the request that was refused.
fn forbidden_text(asked: &Asked, message: &str) -> String {
    let verb = asked.verb.as_str();
    let resource = asked.can_i_resource();
    match asked.target.as_ref() {
        Target::Resource { plural, namespace: Some(ns), .. } => format!(
            "forbidden (403): your user may not {verb} {plural} in namespace {ns:?} ({message}); releasex needs only `{verb}` on `{plural}` (e.g. `kubectl auth can-i {verb} {resource} -n {ns}`)"
        ),
        Target::Resource { plural, namespace: None, .. } => format!(
            "forbidden (403): your user may not {verb} {plural} at the cluster scope ({message}); releasex needs only `{verb}` on `{plural}` (e.g. `kubectl auth can-i {verb} {resource}`)"
        ),
        Target::Path(path) => format!(
            "forbidden (403): your user may not get {path} ({message}); releasex needs `get` on that non-resource URL (e.g. `kubectl auth can-i get {path}`)"
        ),
    }
}

fn not_found_hint(asked: &Asked) -> &'static str {
    match (&asked.verb, asked.target.as_ref()) {
        (Verb::List, Target::Resource { namespace: Some(_), .. }) => " (does the namespace exist?)",
        _ => "",
    }
}

/// `Service Unavailable` for 503; `HTTP 599` for codes without a name.
pub(super) fn canonical_reason(code: u16) -> String {
    http::StatusCode::from_u16(code).ok().and_then(|c| c.canonical_reason()).map_or_else(|| format!("HTTP {code}"), str::to_string)
}

fn retried_text(retries: u32, waited: Duration) -> String {
    match retries {
        0 => String::new(),
        1 => format!(" (after 1 retry, {} waited)", format_duration(waited)),
        n => format!(" (after {n} retries, {} waited)", format_duration(waited)),
    }
}

fn timeout_text(server: &str, asked: &Asked, timeout: Duration, received: Option<u64>) -> String {
    let limit = format_duration(timeout);
    let how = "--request-timeout sets the limit; 0 means none";
    match received {
        None => format!("the API server at {server} did not answer within {limit} while {asked} ({how})"),
        Some(bytes) => format!(
            "the API server at {server} stopped sending: its answer was not complete within {limit} while {asked} ({bytes} bytes received; {how})"
        ),
    }
}

fn mib(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) { format!("{} MiB", bytes >> 20) } else { format!("{bytes} bytes") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get_secret() -> Asked {
        Asked {
            verb: Verb::Get,
            target: Box::new(Target::Resource {
                group: String::new(),
                kind: "Secret".into(),
                plural: "secrets".into(),
                namespace: Some("team-a".into()),
                name: Some("demo".into()),
            }),
        }
    }

    #[test]
    fn requests_are_named_by_verb_kind_name_and_namespace() {
        assert_eq!(get_secret().to_string(), "getting Secret demo in namespace \"team-a\"");
        assert_eq!(Asked::list("", "Secret", "secrets", "x").to_string(), "listing secrets in namespace \"x\"");
        assert_eq!(Asked::get_path("/version").to_string(), "getting /version");
    }

    #[test]
    fn forbidden_names_the_verb_and_resource_of_the_refused_request() {
        let e = ClusterError::Forbidden { asked: get_secret(), message: "no".into() };
        assert!(e.to_string().starts_with("forbidden (403): your user may not get secrets in namespace \"team-a\" (no)"), "{e}");
        let e = ClusterError::Forbidden { asked: Asked::get_path("/version"), message: "no".into() };
        assert_eq!(
            e.to_string(),
            "forbidden (403): your user may not get /version (no); releasex needs `get` on that non-resource URL (e.g. `kubectl auth can-i get /version`)"
        );
    }

    #[test]
    fn a_cluster_scoped_group_resource_is_checked_with_its_group() {
        let asked = Asked {
            verb: Verb::Get,
            target: Box::new(Target::Resource {
                group: "rbac.authorization.k8s.io".into(),
                kind: "ClusterRole".into(),
                plural: "clusterroles".into(),
                namespace: None,
                name: Some("admin".into()),
            }),
        };
        assert_eq!(asked.to_string(), "getting ClusterRole admin");
        let e = ClusterError::Forbidden { asked, message: "no".into() };
        assert!(e.to_string().contains("`kubectl auth can-i get clusterroles.rbac.authorization.k8s.io`"), "{e}");
    }

    #[test]
    fn timeouts_say_whether_the_server_answered_at_all() {
        let server = "https://k".to_string();
        let e = ClusterError::Timeout { server: server.clone(), asked: get_secret(), timeout: Duration::from_secs(30), received: None };
        assert!(e.to_string().starts_with("the API server at https://k did not answer within 30s while getting Secret demo"), "{e}");
        let e = ClusterError::Timeout { server, asked: get_secret(), timeout: Duration::from_secs(30), received: Some(12) };
        assert!(e.to_string().contains("stopped sending: its answer was not complete within 30s"), "{e}");
        assert!(e.to_string().contains("12 bytes received"), "{e}");
    }
}
