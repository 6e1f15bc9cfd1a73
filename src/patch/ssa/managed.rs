//! `metadata.managedFields`: entries decoded as apimachinery decodes them,
//! the manager identity each carries, and client-go's move of a client-side
//! manager's `Update` ownership into its `Apply` entry.

use super::SsaError;
use super::fieldpath::{FieldSet, parse_fields_v1};
use crate::go::json::json_quote;
use serde_json::Value;

/// `metav1.ManagedFieldsOperationType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One `metadata.managedFields` entry, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct ManagedEntry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// The entry's `time` as written (RFC 3339).
    pub time: Option<String>,
    pub subresource: String,
    pub fields: FieldSet,
}

impl ManagedEntry {
    /// apimachinery `BuildManagerIdentifier`: the entry as Go's `json.Marshal`
    /// writes it without fields type, fields and time, and without the API
    /// version for appliers. This string is the manager's identity on the
    /// server (and what conflict groups are sorted by).
    pub fn identifier(&self) -> String {
        let mut s = String::from("{");
        let mut first = true;
        let mut put = |s: &mut String, k: &str, v: &str| {
            if !first {
                s.push(',');
            }
            first = false;
            s.push_str(&json_quote(k));
            s.push(':');
            s.push_str(&json_quote(v));
        };
        // metav1.ManagedFieldsEntry field order, all omitempty.
        if !self.manager.is_empty() {
            put(&mut s, "manager", &self.manager);
        }
        put(&mut s, "operation", self.operation.as_str());
        if self.operation == Operation::Update && !self.api_version.is_empty() {
            put(&mut s, "apiVersion", &self.api_version);
        }
        if !self.subresource.is_empty() {
            put(&mut s, "subresource", &self.subresource);
        }
        s.push('}');
        s
    }
}

/// apimachinery `DecodeManagedFields` over `metadata.managedFields` of
/// `obj` (absent means none). Entries sharing an identifier collapse into
/// the last one, as Go's map assignment does.
pub fn parse_managed_fields(obj: &Value) -> Result<Vec<ManagedEntry>, SsaError> {
    let list = match obj.pointer("/metadata/managedFields") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(l)) => l,
        Some(_) => return Err(SsaError::ManagedFieldsShape("metadata.managedFields is not a list".to_owned())),
    };
    let mut out: Vec<ManagedEntry> = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let Value::Object(m) = e else {
            return Err(SsaError::ManagedFieldsShape(format!("entry {i} is not an object")));
        };
        let text = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let operation = match text("operation").as_str() {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return Err(SsaError::Operation),
        };
        let api_version = text("apiVersion");
        if api_version.is_empty() {
            return Err(SsaError::EmptyApiVersion);
        }
        match text("fieldsType").as_str() {
            "FieldsV1" => {}
            "" => return Err(SsaError::MissingFieldsType(i)),
            other => return Err(SsaError::InvalidFieldsType { index: i, fields_type: other.to_owned() }),
        }
        let fields = match m.get("fieldsV1") {
            None | Some(Value::Null) => FieldSet::new(),
            Some(v) => parse_fields_v1(v)?,
        };
        let entry = ManagedEntry {
            manager: text("manager"),
            operation,
            api_version,
            time: m.get("time").and_then(Value::as_str).map(str::to_owned),
            subresource: text("subresource"),
            fields,
        };
        let id = entry.identifier();
        out.retain(|o| o.identifier() != id);
        out.push(entry);
    }
    Ok(out)
}

/// The identifier of `manager`'s own `Apply` entry: the fields it holds are
/// the applier's, every other entry's belong to someone else.
pub(super) fn applier_identifier(manager: &str) -> String {
    ManagedEntry {
        manager: manager.to_owned(),
        operation: Operation::Apply,
        api_version: String::new(),
        time: None,
        subresource: String::new(),
        fields: FieldSet::new(),
    }
    .identifier()
}

// ---------------------------------------------------------------------------
// CSA -> SSA
// ---------------------------------------------------------------------------

/// client-go `csaupgrade.UpgradeManagedFieldsPatch(obj, {csa}, ssa)` as Helm
/// calls it (`csa` = `ssa` = `helm`), on decoded entries:
///
/// - target: `ssa`'s `Apply` entry (no subresource); if there is none, the
///   first `csa` `Update` entry (no subresource) is renamed and becomes
///   `Apply` (keeping its API version and time);
/// - the first `csa` `Update` entry with the target's API version is unioned
///   into the target;
/// - every `csa` `Update` entry without subresource is then dropped, including
///   those of other API versions, whose fields are forgotten.
///
/// Entries with a subresource are left alone.
pub fn upgrade_client_side_managers(entries: &[ManagedEntry], csa: &str, ssa: &str) -> Vec<ManagedEntry> {
    let is_csa = |e: &ManagedEntry| e.manager == csa && e.operation == Operation::Update && e.subresource.is_empty();
    let mut entries = entries.to_vec();
    let target = match entries
        .iter()
        .position(|e| e.manager == ssa && e.operation == Operation::Apply && e.subresource.is_empty())
    {
        Some(i) => i,
        None => match entries.iter().position(is_csa) {
            Some(i) => {
                entries[i].operation = Operation::Apply;
                entries[i].manager = ssa.to_owned();
                i
            }
            None => return entries,
        },
    };
    let api_version = entries[target].api_version.clone();
    if let Some(src) = entries.iter().position(|e| is_csa(e) && e.api_version == api_version) {
        let extra = entries[src].fields.clone();
        entries[target].fields.extend(extra);
    }
    entries.into_iter().filter(|e| !is_csa(e)).collect()
}
