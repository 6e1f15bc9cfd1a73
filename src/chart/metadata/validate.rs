//! Helm's `Metadata.Validate` and `Dependency.Validate` (pkg/chart/v2/
//! metadata.go, dependency.go), with their wording, and `sanitizeString`.

use super::super::yaml::{Node, Yaml};
use super::decode::to_json;
use super::{Dependency, ImportValue, Maintainer, Metadata, RawDependency, RawMetadata, is_valid_semver};
use crate::go::fmt::go_v;
use crate::go::quote::{is_print, quote as go_quote};

/// Turns the decoded metadata into [`Metadata`], running Helm's
/// `Metadata.Validate` (with its wording, `validation: ...`).
pub(crate) fn validate(mut md: RawMetadata) -> Result<Metadata, String> {
    md.name = sanitize(&md.name);
    md.description = sanitize(&md.description);
    md.home = sanitize(&md.home);
    md.icon = sanitize(&md.icon);
    md.condition = sanitize(&md.condition);
    md.tags = sanitize(&md.tags);
    md.app_version = sanitize(&md.app_version);
    md.kube_version = sanitize(&md.kube_version);
    for s in md.sources.iter_mut().flatten() {
        *s = sanitize(s);
    }
    for s in md.keywords.iter_mut().flatten() {
        *s = sanitize(s);
    }
    let fail = |m: String| Err(format!("validation: {m}"));
    if md.api_version.is_empty() {
        return fail("chart.metadata.apiVersion is required".into());
    }
    if md.name.is_empty() {
        return fail("chart.metadata.name is required".into());
    }
    if md.name == "." || md.name == ".." {
        return fail(format!(
            "chart.metadata.name {} is not allowed",
            go_quote(&md.name)
        ));
    }
    if md.name != crate::go::path::base(&md.name) {
        return fail(format!(
            "chart.metadata.name {} is invalid",
            go_quote(&md.name)
        ));
    }
    if md.version.is_empty() {
        return fail("chart.metadata.version is required".into());
    }
    if !is_valid_semver(&md.version) {
        return fail(format!(
            "chart.metadata.version {} is invalid",
            go_quote(&md.version)
        ));
    }
    if !matches!(md.chart_type.as_str(), "" | "application" | "library") {
        return fail("chart.metadata.type must be application or library".into());
    }
    let mut maintainers = Vec::new();
    for m in md.maintainers.take().unwrap_or_default() {
        let Some(m) = m else {
            return fail("maintainers must not contain empty or null nodes".into());
        };
        maintainers.push(Maintainer {
            name: sanitize(&m.name),
            email: sanitize(&m.email),
            url: sanitize(&m.url),
        });
    }
    let declared = md.dependencies.is_some();
    let mut dependencies: Vec<Dependency> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for d in md.dependencies.take().unwrap_or_default() {
        let Some(d) = d else {
            return fail("dependencies must not contain empty or null nodes".into());
        };
        let d = finish_dependency(d)?;
        let key = d.effective_name().to_string();
        if seen.contains(&key) {
            return fail(format!(
                "more than one dependency with name or alias {}",
                go_quote(&key)
            ));
        }
        seen.push(key);
        dependencies.push(d);
    }
    Ok(Metadata {
        api_version: md.api_version,
        name: md.name,
        version: md.version,
        app_version: md.app_version,
        kube_version: md.kube_version,
        description: md.description,
        chart_type: md.chart_type,
        home: md.home,
        icon: md.icon,
        sources: md.sources.unwrap_or_default(),
        keywords: md.keywords.unwrap_or_default(),
        maintainers,
        annotations: md.annotations.unwrap_or_default(),
        deprecated: md.deprecated,
        condition: md.condition,
        tags: md.tags,
        dependencies,
        dependencies_declared: declared,
        extra: md.extra,
    })
}

/// helm: Dependency.Validate (sanitising, the alias character check).
fn finish_dependency(d: RawDependency) -> Result<Dependency, String> {
    let name = sanitize(&d.name);
    let condition = sanitize(&d.condition);
    if !d.alias.is_empty()
        && !d
            .alias
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "validation: dependency {} has disallowed characters in the alias",
            go_quote(&name)
        ));
    }
    let import_values = d
        .import_values
        .unwrap_or_default()
        .iter()
        .filter_map(import_value)
        .collect();
    Ok(Dependency {
        name,
        version: sanitize(&d.version),
        repository: sanitize(&d.repository),
        condition: (!condition.is_empty()).then_some(condition),
        tags: d
            .tags
            .unwrap_or_default()
            .iter()
            .map(|t| sanitize(t))
            .collect(),
        enabled: d.enabled_set.then_some(d.enabled),
        import_values,
        alias: (!d.alias.is_empty()).then_some(d.alias),
    })
}

/// helm: processImportValues' type switch: a map gives child/parent through
/// `%v`, a string the exports form, anything else is ignored.
fn import_value(node: &Node) -> Option<ImportValue> {
    match &node.value {
        Yaml::Str(s) => Some(ImportValue::Exports(s.clone())),
        Yaml::Map(entries) => {
            let get = |k: &str| {
                entries.iter().find(|(key, _)| key == k).map_or_else(
                    || "<nil>".to_string(),
                    |(_, v)| to_json(v).map(|j| go_v(&j)).unwrap_or_default(),
                )
            };
            Some(ImportValue::Map {
                child: get("child"),
                parent: get("parent"),
            })
        }
        _ => None,
    }
}

/// helm: sanitizeString: every Unicode space becomes ' ', other
/// non-printable characters are dropped (Go's unicode.IsSpace/IsPrint).
pub(super) fn sanitize(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            if c.is_whitespace() {
                Some(' ')
            } else if is_print(c) {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}
