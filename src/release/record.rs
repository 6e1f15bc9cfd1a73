//! The release record as Helm stores it (v1 schema, Helm 3 and Helm 4 JSON).
//! The record is kept as the JSON it was decoded from, so unknown fields and
//! Helm's key order survive; typed accessors read it.
//! helm: pkg/release/v1/release.go, info.go, hook.go; pkg/chart/v2/chart.go

use serde_json::{Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("record is not a JSON object")]
    NotAnObject,
    #[error("record field `{field}` has the wrong type (expected {expected})")]
    WrongType { field: &'static str, expected: &'static str },
    #[error("record has no `info.status`")]
    MissingStatus,
    #[error(
        "record has unknown status {0:?} (Helm knows: unknown, deployed, uninstalled, superseded, failed, uninstalling, pending-install, pending-upgrade, pending-rollback)"
    )]
    UnknownStatus(String),
}

/// helm: pkg/release/common/status.go
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Unknown,
    Deployed,
    Uninstalled,
    Superseded,
    Failed,
    Uninstalling,
    PendingInstall,
    PendingUpgrade,
    PendingRollback,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Unknown,
        Status::Deployed,
        Status::Uninstalled,
        Status::Superseded,
        Status::Failed,
        Status::Uninstalling,
        Status::PendingInstall,
        Status::PendingUpgrade,
        Status::PendingRollback,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unknown => "unknown",
            Status::Deployed => "deployed",
            Status::Uninstalled => "uninstalled",
            Status::Superseded => "superseded",
            Status::Failed => "failed",
            Status::Uninstalling => "uninstalling",
            Status::PendingInstall => "pending-install",
            Status::PendingUpgrade => "pending-upgrade",
            Status::PendingRollback => "pending-rollback",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    pub fn is_pending(self) -> bool {
        matches!(self, Status::PendingInstall | Status::PendingUpgrade | Status::PendingRollback)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How Helm applied the revision to the cluster. Helm 3 records and Helm 4
/// records with an empty value mean client-side apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyMethod {
    ClientSide,
    ServerSide,
}

impl ApplyMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            ApplyMethod::ClientSide => "csa",
            ApplyMethod::ServerSide => "ssa",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Release {
    raw: Value,
    status: Status,
}

/// A hook as stored in the record. helm: pkg/release/v1/hook.go
#[derive(Debug, Clone, serde::Serialize)]
pub struct Hook<'a> {
    pub name: &'a str,
    pub kind: &'a str,
    pub path: &'a str,
    pub events: Vec<&'a str>,
    pub weight: i64,
    pub delete_policies: Vec<&'a str>,
    pub output_log_policies: Vec<&'a str>,
    pub last_run: Option<&'a Value>,
    pub manifest: &'a str,
}

/// A template or file of the stored chart (data is base64 in the record).
#[derive(Debug, Clone)]
pub struct ChartFile<'a> {
    pub name: &'a str,
    pub data_base64: &'a str,
}

impl Release {
    pub fn from_value(raw: Value) -> Result<Release, RecordError> {
        let obj = raw.as_object().ok_or(RecordError::NotAnObject)?;
        check_type(obj, "name", Value::is_string, "a string")?;
        check_type(obj, "namespace", Value::is_string, "a string")?;
        check_type(obj, "manifest", Value::is_string, "a string")?;
        check_type(obj, "version", Value::is_i64, "an integer")?;
        check_type(obj, "info", Value::is_object, "an object")?;
        check_type(obj, "chart", |v| v.is_object() || v.is_null(), "an object")?;
        check_type(obj, "config", |v| v.is_object() || v.is_null(), "an object")?;
        check_type(obj, "hooks", |v| v.is_array() || v.is_null(), "a list")?;
        let status_text = obj
            .get("info")
            .and_then(|i| i.get("status"))
            .and_then(Value::as_str)
            .ok_or(RecordError::MissingStatus)?;
        let status = Status::parse(status_text).ok_or_else(|| RecordError::UnknownStatus(status_text.to_string()))?;
        Ok(Release { raw, status })
    }

    /// The record exactly as decoded (Helm's key order, unknown fields kept).
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    pub fn into_raw(self) -> Value {
        self.raw
    }

    fn str_at(&self, pointer: &str) -> Option<&str> {
        self.raw.pointer(pointer).and_then(Value::as_str)
    }

    /// A string field where Helm 3's `""` and an absent field both mean "none".
    fn non_empty(&self, pointer: &str) -> Option<&str> {
        self.str_at(pointer).filter(|s| !s.is_empty())
    }

    pub fn name(&self) -> &str {
        self.str_at("/name").unwrap_or("")
    }

    pub fn namespace(&self) -> &str {
        self.str_at("/namespace").unwrap_or("")
    }

    pub fn version(&self) -> i64 {
        self.raw.get("version").and_then(Value::as_i64).unwrap_or(0)
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn first_deployed(&self) -> Option<&str> {
        self.non_empty("/info/first_deployed")
    }

    pub fn last_deployed(&self) -> Option<&str> {
        self.non_empty("/info/last_deployed")
    }

    pub fn deleted(&self) -> Option<&str> {
        self.non_empty("/info/deleted")
    }

    pub fn description(&self) -> &str {
        self.str_at("/info/description").unwrap_or("")
    }

    pub fn notes(&self) -> &str {
        self.str_at("/info/notes").unwrap_or("")
    }

    pub fn rollback_revision(&self) -> Option<i64> {
        self.raw.pointer("/info/rollback_revision").and_then(Value::as_i64).filter(|r| *r != 0)
    }

    /// `None` for records written before Helm 4 (no field at all).
    pub fn apply_method_field(&self) -> Option<&str> {
        self.str_at("/apply_method")
    }

    pub fn apply_method(&self) -> ApplyMethod {
        match self.apply_method_field() {
            Some("ssa") => ApplyMethod::ServerSide,
            _ => ApplyMethod::ClientSide,
        }
    }

    pub fn chart_metadata(&self) -> Option<&Map<String, Value>> {
        self.raw.pointer("/chart/metadata").and_then(Value::as_object)
    }

    fn metadata_str(&self, key: &str) -> &str {
        self.chart_metadata().and_then(|m| m.get(key)).and_then(Value::as_str).unwrap_or("")
    }

    pub fn chart_name(&self) -> &str {
        self.metadata_str("name")
    }

    pub fn chart_version(&self) -> &str {
        self.metadata_str("version")
    }

    pub fn app_version(&self) -> &str {
        self.metadata_str("appVersion")
    }

    /// `NAME-VERSION`, as `helm history` prints it (helm: pkg/cmd/history.go formatChartName).
    pub fn chart_ref(&self) -> String {
        if self.chart_metadata().is_none() {
            return "MISSING".to_string();
        }
        format!("{}-{}", self.chart_name(), self.chart_version())
    }

    pub fn chart_values(&self) -> Option<&Map<String, Value>> {
        self.raw.pointer("/chart/values").and_then(Value::as_object)
    }

    pub fn chart_schema_base64(&self) -> Option<&str> {
        self.str_at("/chart/schema")
    }

    /// The user-supplied values (`helm get values`); `None` when Helm stored none.
    pub fn config(&self) -> Option<&Map<String, Value>> {
        self.raw.get("config").and_then(Value::as_object)
    }

    pub fn manifest(&self) -> &str {
        self.str_at("/manifest").unwrap_or("")
    }

    pub fn chart_templates(&self) -> Vec<ChartFile<'_>> {
        self.chart_files_at("/chart/templates")
    }

    pub fn chart_files(&self) -> Vec<ChartFile<'_>> {
        self.chart_files_at("/chart/files")
    }

    fn chart_files_at(&self, pointer: &str) -> Vec<ChartFile<'_>> {
        let Some(list) = self.raw.pointer(pointer).and_then(Value::as_array) else {
            return Vec::new();
        };
        list.iter()
            .map(|f| ChartFile {
                name: f.get("name").and_then(Value::as_str).unwrap_or(""),
                data_base64: f.get("data").and_then(Value::as_str).unwrap_or(""),
            })
            .collect()
    }

    pub fn hooks(&self) -> Vec<Hook<'_>> {
        let Some(list) = self.raw.get("hooks").and_then(Value::as_array) else {
            return Vec::new();
        };
        list.iter().map(hook_from).collect()
    }
}

fn check_type(
    obj: &Map<String, Value>,
    field: &'static str,
    ok: impl Fn(&Value) -> bool,
    expected: &'static str,
) -> Result<(), RecordError> {
    match obj.get(field) {
        Some(v) if !ok(v) => Err(RecordError::WrongType { field, expected }),
        _ => Ok(()),
    }
}

fn strs(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

fn hook_from(h: &Value) -> Hook<'_> {
    let s = |k: &str| h.get(k).and_then(Value::as_str).unwrap_or("");
    Hook {
        name: s("name"),
        kind: s("kind"),
        path: s("path"),
        events: strs(h.get("events")),
        weight: h.get("weight").and_then(Value::as_i64).unwrap_or(0),
        delete_policies: strs(h.get("delete_policies")),
        output_log_policies: strs(h.get("output_log_policies")),
        last_run: h.get("last_run"),
        manifest: s("manifest"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn helm3_empty_times_read_as_absent() {
        let r = Release::from_value(json!({
            "name": "a", "version": 1,
            "info": {"first_deployed": "", "last_deployed": "2020-01-01T00:00:00Z", "deleted": "", "status": "deployed"}
        }))
        .unwrap();
        assert_eq!(r.first_deployed(), None);
        assert_eq!(r.last_deployed(), Some("2020-01-01T00:00:00Z"));
        assert_eq!(r.apply_method(), ApplyMethod::ClientSide);
        assert_eq!(r.apply_method_field(), None);
    }

    #[test]
    fn unknown_status_is_rejected() {
        let err = Release::from_value(json!({"name": "a", "info": {"status": "exploded"}})).unwrap_err();
        assert!(matches!(err, RecordError::UnknownStatus(s) if s == "exploded"));
    }

    #[test]
    fn unknown_fields_are_kept() {
        let v = json!({"name": "a", "info": {"status": "deployed", "x": 1}, "future": [1]});
        let r = Release::from_value(v.clone()).unwrap();
        assert_eq!(r.raw(), &v);
    }

    #[test]
    fn wrong_field_type_is_rejected() {
        let err = Release::from_value(json!({"name": 3, "info": {"status": "deployed"}})).unwrap_err();
        assert!(matches!(err, RecordError::WrongType { field: "name", .. }));
    }
}
