//! Helm hooks: the annotations and how Helm reads them.
//! helm: pkg/release/v1/hook.go, pkg/release/v1/util/manifest_sorter.go

use std::fmt;

pub const HOOK_ANNOTATION: &str = "helm.sh/hook";
pub const HOOK_WEIGHT_ANNOTATION: &str = "helm.sh/hook-weight";
pub const HOOK_DELETE_ANNOTATION: &str = "helm.sh/hook-delete-policy";
pub const HOOK_OUTPUT_LOG_ANNOTATION: &str = "helm.sh/hook-output-log-policy";

/// When a hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    PreInstall,
    PostInstall,
    PreDelete,
    PostDelete,
    PreUpgrade,
    PostUpgrade,
    PreRollback,
    PostRollback,
    /// `test`, also written `test-success` (Helm 2's name).
    Test,
}

impl HookEvent {
    /// Helm's spelling of one event, after it trimmed and lower-cased it.
    pub fn parse(s: &str) -> Option<HookEvent> {
        Some(match s {
            "pre-install" => HookEvent::PreInstall,
            "post-install" => HookEvent::PostInstall,
            "pre-delete" => HookEvent::PreDelete,
            "post-delete" => HookEvent::PostDelete,
            "pre-upgrade" => HookEvent::PreUpgrade,
            "post-upgrade" => HookEvent::PostUpgrade,
            "pre-rollback" => HookEvent::PreRollback,
            "post-rollback" => HookEvent::PostRollback,
            "test" | "test-success" => HookEvent::Test,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::PreInstall => "pre-install",
            HookEvent::PostInstall => "post-install",
            HookEvent::PreDelete => "pre-delete",
            HookEvent::PostDelete => "post-delete",
            HookEvent::PreUpgrade => "pre-upgrade",
            HookEvent::PostUpgrade => "post-upgrade",
            HookEvent::PreRollback => "pre-rollback",
            HookEvent::PostRollback => "post-rollback",
            HookEvent::Test => "test",
        }
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `helm.sh/hook-delete-policy` entry. Helm stores any value without
/// checking it, so unknown ones are kept as written (trimmed, lower-cased).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HookDeletePolicy {
    HookSucceeded,
    HookFailed,
    BeforeHookCreation,
    Other(String),
}

impl HookDeletePolicy {
    fn from_value(s: String) -> HookDeletePolicy {
        match s.as_str() {
            "hook-succeeded" => HookDeletePolicy::HookSucceeded,
            "hook-failed" => HookDeletePolicy::HookFailed,
            "before-hook-creation" => HookDeletePolicy::BeforeHookCreation,
            _ => HookDeletePolicy::Other(s),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            HookDeletePolicy::HookSucceeded => "hook-succeeded",
            HookDeletePolicy::HookFailed => "hook-failed",
            HookDeletePolicy::BeforeHookCreation => "before-hook-creation",
            HookDeletePolicy::Other(s) => s,
        }
    }
}

/// The events of a `helm.sh/hook` value, or the first part Helm does not
/// know (then Helm drops the whole document). Parts are split on `,`,
/// trimmed and lower-cased; an empty part is unknown.
pub(crate) fn parse_events(value: &str) -> Result<Vec<HookEvent>, String> {
    value
        .split(',')
        .map(|p| {
            let p = p.trim().to_lowercase();
            HookEvent::parse(&p).ok_or(p)
        })
        .collect()
}

/// Helm's `strconv.Atoi` on the raw annotation: an optional sign and ASCII
/// digits only (no blanks, no `_`), within 64 bits; anything else is 0.
pub(crate) fn parse_weight(value: Option<&str>) -> i64 {
    let Some(v) = value else { return 0 };
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    // Rust's parser accepts the same sign and digit forms as Go's here.
    v.parse::<i64>().unwrap_or(0)
}

/// A comma-separated policy annotation as Helm splits it (`operateAnnotationValues`).
pub(crate) fn parse_policies(value: Option<&str>) -> Vec<String> {
    value.map_or_else(Vec::new, |v| v.split(',').map(|p| p.trim().to_lowercase()).collect())
}

pub(crate) fn delete_policies(value: Option<&str>) -> Vec<HookDeletePolicy> {
    parse_policies(value).into_iter().map(HookDeletePolicy::from_value).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_split_trimmed_and_lowercased_and_test_success_means_test() {
        assert_eq!(
            parse_events(" Post-Delete, post-install ,TEST-SUCCESS"),
            Ok(vec![HookEvent::PostDelete, HookEvent::PostInstall, HookEvent::Test])
        );
    }

    #[test]
    fn one_unknown_event_rejects_the_whole_value() {
        assert_eq!(parse_events("pre-install,crd-install"), Err("crd-install".into()));
        assert_eq!(parse_events("no-such-hook"), Err("no-such-hook".into()));
        assert_eq!(parse_events(""), Err(String::new()));
        assert_eq!(parse_events("pre-install,"), Err(String::new()));
    }

    #[test]
    fn weight_follows_go_atoi_and_defaults_to_zero() {
        assert_eq!(parse_weight(Some("-5")), -5);
        assert_eq!(parse_weight(Some("+7")), 7);
        assert_eq!(parse_weight(Some("007")), 7);
        assert_eq!(parse_weight(None), 0);
        assert_eq!(parse_weight(Some(" 5")), 0, "Atoi does not trim");
        assert_eq!(parse_weight(Some("5 ")), 0);
        assert_eq!(parse_weight(Some("1_000")), 0);
        assert_eq!(parse_weight(Some("1.5")), 0);
        assert_eq!(parse_weight(Some("-")), 0);
        assert_eq!(parse_weight(Some("99999999999999999999")), 0, "out of range is an error, so 0");
        assert_eq!(parse_weight(Some("9223372036854775807")), i64::MAX);
    }

    #[test]
    fn delete_policies_are_kept_unvalidated() {
        assert_eq!(
            delete_policies(Some("Hook-Succeeded, before-hook-creation,bogus,")),
            vec![
                HookDeletePolicy::HookSucceeded,
                HookDeletePolicy::BeforeHookCreation,
                HookDeletePolicy::Other("bogus".into()),
                HookDeletePolicy::Other(String::new()),
            ]
        );
        assert!(delete_policies(None).is_empty());
    }
}
