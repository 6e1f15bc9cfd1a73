//! Chart.yaml (and requirements.yaml, Chart.lock, requirements.lock) decoded
//! the way Helm decodes them, then `Metadata.Validate`.
//!
//! helm: pkg/chart/v2/metadata.go, dependency.go, errors.go; the decoding is
//! sigs.k8s.io/yaml `Unmarshal` into the Go struct: go-yaml v2 builds a
//! tree, scalars meant for a `string` field become strings (`1.10` → `"1.1"`
//! through float32, `yes` → `"true"`), then encoding/json fills the struct:
//! keys match field names exactly or case-insensitively, `null` leaves a
//! string alone and clears a list, decoding into an existing value merges
//! (requirements.yaml is decoded into the metadata Chart.yaml filled), and
//! a type mismatch is reported after the rest has been decoded.
//!
//! Layout: the types are here; `decode` is the sigs.k8s.io/yaml +
//! encoding/json decoding of Chart.yaml and requirements.yaml, `lock` the
//! check of Chart.lock / requirements.lock, `validate` Helm's
//! `Metadata.Validate` and sanitising, `semver` Masterminds' version syntax.

use super::yaml::Node;
use serde_json::Value;
use std::collections::BTreeMap;

mod decode;
mod lock;
mod semver;
mod validate;

pub(crate) use decode::decode_metadata;
pub(crate) use lock::check_lock;
pub use semver::is_valid_semver;
pub(crate) use validate::validate;

/// The contents of Chart.yaml (plus requirements.yaml's `dependencies` for
/// charts Helm loads with its v2 loader), after Helm's validation and its
/// sanitising of strings (spaces normalised, non-printable characters
/// removed). An empty string means the field is unset, as in Go.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// `v1`, `v2` or `v3`; an unset apiVersion reads as `v1` (`v3` for a
    /// subchart of a v3 chart), as Helm's loaders default it.
    pub api_version: String,
    pub name: String,
    pub version: String,
    pub app_version: String,
    pub kube_version: String,
    pub description: String,
    /// `type`: "", `application` or `library`.
    pub chart_type: String,
    pub home: String,
    pub icon: String,
    pub sources: Vec<String>,
    pub keywords: Vec<String>,
    pub maintainers: Vec<Maintainer>,
    pub annotations: BTreeMap<String, String>,
    pub deprecated: bool,
    /// The chart-level `condition` and `tags` strings (unused by Helm 4).
    pub condition: String,
    pub tags: String,
    /// `dependencies`, in file order.
    pub dependencies: Vec<Dependency>,
    /// Whether `dependencies` is a list at all (an empty one counts). Helm's
    /// `processDependencyEnabled` returns at once for a chart whose
    /// dependencies are nil: every loaded subchart stays, and the subcharts'
    /// own dependencies are not processed either.
    pub dependencies_declared: bool,
    /// Fields Helm does not know, as JSON (numbers as YAML wrote them).
    pub extra: serde_json::Map<String, Value>,
}

impl Metadata {
    /// `Some(dependencies)` when the chart declares a dependency list (even
    /// an empty one), `None` when Helm sees nil.
    pub fn declared_dependencies(&self) -> Option<&[Dependency]> {
        self.dependencies_declared
            .then_some(self.dependencies.as_slice())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Maintainer {
    pub name: String,
    pub email: String,
    pub url: String,
}

/// One entry of `dependencies`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependency {
    pub name: String,
    /// A version or a semver range (Masterminds syntax).
    pub version: String,
    pub repository: String,
    /// `None` when empty. Helm splits it on `,`; the first path that
    /// resolves to a bool wins.
    pub condition: Option<String>,
    pub tags: Vec<String>,
    /// The `enabled` field when the file sets it (Helm overwrites it).
    pub enabled: Option<bool>,
    /// The items Helm acts on; items of any other type (numbers, lists,
    /// booleans, null) are dropped, as Helm ignores them.
    pub import_values: Vec<ImportValue>,
    /// `None` when empty.
    pub alias: Option<String>,
}

impl Dependency {
    /// The name the subchart's values live under: the alias, else the name.
    pub fn effective_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

/// An `import-values` item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportValue {
    /// `- data`: the child's `exports.data` is merged at the parent's root.
    Exports(String),
    /// `- {child: X, parent: Y}`, both as Go's `%v` prints them: a missing
    /// key is `"<nil>"`, a number `1` is `"1"`, `1e6` is `"1e+06"`, a list
    /// `[a b]`, a map `map[k:v]`.
    Map { child: String, parent: String },
}

/// A decoding or validation failure, with the position of the offending
/// node when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Which of Helm's two chart loaders reads the chart: `pkg/chart/v2/loader`
/// (apiVersion v1, v2 or unset) or `internal/chart/v3/loader` (v3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generation {
    V2,
    V3,
}

// ---------------------------------------------------------------------------
// The Go-shaped intermediate (what the Go struct holds before Validate).

#[derive(Debug, Default, Clone)]
pub(crate) struct RawMetadata {
    pub name: String,
    pub home: String,
    pub sources: Option<Vec<String>>,
    pub version: String,
    pub description: String,
    pub keywords: Option<Vec<String>>,
    pub maintainers: Option<Vec<Option<Maintainer>>>,
    pub icon: String,
    pub api_version: String,
    pub condition: String,
    pub tags: String,
    pub app_version: String,
    pub deprecated: bool,
    pub annotations: Option<BTreeMap<String, String>>,
    pub kube_version: String,
    pub dependencies: Option<Vec<Option<RawDependency>>>,
    pub chart_type: String,
    pub extra: serde_json::Map<String, Value>,
}

#[derive(Debug, Default, Clone)]
pub(crate) struct RawDependency {
    pub name: String,
    pub version: String,
    pub repository: String,
    pub condition: String,
    pub tags: Option<Vec<String>>,
    pub enabled: bool,
    pub enabled_set: bool,
    pub import_values: Option<Vec<Node>>,
    pub alias: String,
}

#[cfg(test)]
mod tests;
