//! Where stored records come from before decoding: Kubernetes objects as
//! `kubectl get -o yaml|json` prints them (Secrets, ConfigMaps, Lists, several
//! documents), directories of such files, and bare payloads.
//! Everything here is parsing of bytes already read; no I/O.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::codec::{self, CodecError};

/// Where a stored record was found, for messages and `summary`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A live object read from the API server.
    Object { kind: &'static str, namespace: String, name: String },
    /// A row of Helm's SQL driver table `releases_v1`.
    SqlRow { namespace: String, key: String },
    /// A file (or stdin, shown as `-`); `item` is the position inside a List or
    /// multi-document file when there are several.
    File { path: String, item: Option<usize>, object: Option<String> },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Object { kind, namespace, name } => write!(f, "{kind} {namespace}/{name}"),
            Origin::SqlRow { namespace, key } => write!(f, "SQL row releases_v1 {namespace}/{key}"),
            Origin::File { path, item, object } => {
                let path = if path == "-" { "<stdin>" } else { path };
                write!(f, "{path}")?;
                if let Some(i) = item {
                    write!(f, " item {i}")?;
                }
                if let Some(o) = object {
                    write!(f, " ({o})")?;
                }
                Ok(())
            }
        }
    }
}

/// The storage layer a record came through; decides how many base64 layers wrap it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Driver {
    Secret,
    ConfigMap,
    Sql,
    /// A payload without a storage object around it.
    Payload,
}

/// What is known about the record's encoding before decoding it.
#[derive(Debug, Clone)]
pub enum Encoded {
    /// Helm's own base64 text (Secret data after the API's base64, a
    /// ConfigMap's data, an SQL `body`).
    HelmBase64(Vec<u8>),
    /// Already decoded record JSON (a bare record given on stdin).
    Json(Vec<u8>),
    /// Gzip bytes (a bare payload that was already base64-decoded).
    Gzip(Vec<u8>),
}

#[derive(Debug, Clone)]
pub struct StoredRecord {
    pub origin: Origin,
    pub driver: Driver,
    /// The storage object's labels (Helm's `name`, `owner`, `status`,
    /// `version`, `createdAt`, `modifiedAt` and custom labels).
    pub labels: BTreeMap<String, String>,
    /// `metadata.name` of the storage object (or the SQL key).
    pub object_name: Option<String>,
    pub encoded: Encoded,
}

impl StoredRecord {
    /// The release name and revision as the storage object claims them (labels
    /// first, then the object name `sh.helm.release.v1.NAME.vN`); `None` when only
    /// decoding can tell.
    pub fn claimed_identity(&self) -> Option<(String, i64)> {
        StoredRecord::identity_from(&self.labels, self.object_name.as_deref())
    }
}

/// Parses `sh.helm.release.v1.NAME.vN` (helm: pkg/storage/driver/util.go makeKey).
pub fn parse_storage_key(key: &str) -> Option<(String, i64)> {
    let rest = key.strip_prefix("sh.helm.release.v1.")?;
    let (name, version) = rest.rsplit_once(".v")?;
    let version = version.parse().ok()?;
    (!name.is_empty()).then(|| (name.to_string(), version))
}

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{input}: is empty")]
    Empty { input: String },
    #[error("{input}: not valid YAML or JSON: {message}")]
    Syntax { input: String, message: String },
    #[error(
        "{input}: {what} is not a Helm release record (expected a Secret or ConfigMap named sh.helm.release.v1.NAME.vN, a List of them, a release JSON, or a bare payload)"
    )]
    NotARecord { input: String, what: String },
    #[error("{input}: {kind} {name} has no `data.release` key (Helm stores the release there)")]
    NoReleaseKey { input: String, kind: String, name: String },
    #[error("{input}: {kind} {name}: `data.release` is not a string")]
    ReleaseNotString { input: String, kind: String, name: String },
    #[error("{input}: Secret {name}: {source}")]
    SecretLayer {
        input: String,
        name: String,
        #[source]
        source: CodecError,
    },
    #[error("{input}: bare payload: {source}")]
    Payload {
        input: String,
        #[source]
        source: CodecError,
    },
}

/// Parses the content of one input (a file or stdin) into stored records.
/// `input` names it in messages.
pub fn parse_input(input: &str, bytes: &[u8]) -> Result<Vec<StoredRecord>, SourceError> {
    let trimmed = bytes.trim_ascii();
    if trimmed.is_empty() {
        return Err(SourceError::Empty { input: input.to_string() });
    }
    if codec::is_gzip(trimmed) {
        return Ok(vec![bare(input, Encoded::Gzip(trimmed.to_vec()))]);
    }
    let Ok(text) = std::str::from_utf8(trimmed) else {
        return Err(SourceError::NotARecord { input: input.to_string(), what: "binary data".into() });
    };
    if looks_like_base64(text) {
        return parse_bare_payload(input, text).map(|r| vec![r]);
    }
    let documents = parse_documents(input, text)?;
    let many = documents.len() > 1;
    let mut records = Vec::new();
    for (i, doc) in documents.into_iter().enumerate() {
        collect_records(input, doc, many.then_some(i + 1), &mut records)?;
    }
    Ok(records)
}

fn parse_documents(input: &str, text: &str) -> Result<Vec<Value>, SourceError> {
    if text.starts_with('{') || text.starts_with('[') {
        // JSON first: its errors are clearer for JSON input.
        return match serde_json::from_str::<Value>(text) {
            Ok(v) => Ok(vec![v]),
            Err(e) => Err(SourceError::Syntax { input: input.to_string(), message: format!("JSON: {e}") }),
        };
    }
    serde_saphyr::from_multiple::<Value>(text)
        .map_err(|e| SourceError::Syntax { input: input.to_string(), message: crate::manifest::secrets::mask_yaml_error(&e.to_string(), text) })
}

fn collect_records(
    input: &str,
    doc: Value,
    item: Option<usize>,
    out: &mut Vec<StoredRecord>,
) -> Result<(), SourceError> {
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    match kind.as_str() {
        "List" | "SecretList" | "ConfigMapList" => {
            let items = match doc.get("items") {
                Some(Value::Array(items)) => items.clone(),
                Some(Value::Null) | None => Vec::new(),
                Some(_) => {
                    return Err(SourceError::NotARecord { input: input.into(), what: format!("{kind} without an items list") });
                }
            };
            for (i, it) in items.into_iter().enumerate() {
                let inner_kind = it.get("kind").and_then(Value::as_str).unwrap_or("");
                // `kubectl get secrets -o json` omits kind on items of typed lists.
                let it = if inner_kind.is_empty() && kind != "List" { with_kind(it, &kind) } else { it };
                out.push(storage_object(input, it, Some(i + 1))?);
            }
            Ok(())
        }
        "Secret" | "ConfigMap" => {
            out.push(storage_object(input, doc, item)?);
            Ok(())
        }
        "" if doc.get("info").is_some() && doc.get("name").is_some() => {
            // A release record already decoded (e.g. piped from `--show record -o json`).
            let json = serde_json::to_vec(&doc).unwrap_or_default();
            out.push(StoredRecord {
                origin: Origin::File { path: input.into(), item, object: None },
                driver: Driver::Payload,
                labels: BTreeMap::new(),
                object_name: None,
                encoded: Encoded::Json(json),
            });
            Ok(())
        }
        "" => Err(SourceError::NotARecord { input: input.into(), what: describe(&doc) }),
        other => {
            let name = doc.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("?");
            Err(SourceError::NotARecord { input: input.into(), what: format!("a {other} ({name})") })
        }
    }
}

fn with_kind(mut it: Value, list_kind: &str) -> Value {
    if let Some(obj) = it.as_object_mut() {
        obj.insert("kind".into(), Value::String(list_kind.trim_end_matches("List").into()));
    }
    it
}

fn describe(doc: &Value) -> String {
    match doc {
        Value::Object(_) => "an object without `kind`".into(),
        Value::Array(_) => "a list".into(),
        Value::String(_) => "a string".into(),
        _ => "a scalar".into(),
    }
}

fn storage_object(input: &str, obj: Value, item: Option<usize>) -> Result<StoredRecord, SourceError> {
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    let name = obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
    let driver = match kind.as_str() {
        "Secret" => Driver::Secret,
        "ConfigMap" => Driver::ConfigMap,
        other => {
            let what = if other.is_empty() { "an item without `kind`".into() } else { format!("a {other} ({name})") };
            return Err(SourceError::NotARecord { input: input.into(), what });
        }
    };
    let labels = obj
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect())
        .unwrap_or_default();
    // A Secret written by hand may carry the payload in stringData (no API base64 layer).
    let (value, api_layer) = match (obj.pointer("/data/release"), obj.pointer("/stringData/release")) {
        (Some(v), _) => (v, driver == Driver::Secret),
        (None, Some(v)) => (v, false),
        (None, None) => {
            return Err(SourceError::NoReleaseKey { input: input.into(), kind, name });
        }
    };
    let Some(text) = value.as_str() else {
        return Err(SourceError::ReleaseNotString { input: input.into(), kind, name });
    };
    let helm_base64 = if api_layer {
        codec::decode_base64(text.as_bytes(), "data.release (the Kubernetes base64 layer)")
            .map_err(|source| SourceError::SecretLayer { input: input.into(), name: name.clone(), source })?
    } else {
        text.as_bytes().to_vec()
    };
    Ok(StoredRecord {
        origin: Origin::File { path: input.into(), item, object: Some(format!("{kind} {name}")) },
        driver,
        labels,
        object_name: (!name.is_empty()).then_some(name),
        encoded: Encoded::HelmBase64(helm_base64),
    })
}

fn looks_like_base64(text: &str) -> bool {
    is_base64_text(text.as_bytes())
}

/// True when every byte belongs to standard base64 or is a line break.
/// Payloads are MiBs and this runs on each layer: the test is written as
/// compares (no table lookup) over blocks folded without a branch per byte,
/// which the compiler turns into vector compares.
fn is_base64_text(bytes: &[u8]) -> bool {
    bytes.chunks(64).all(|block| block.iter().fold(true, |ok, &b| ok & is_base64_byte(b)))
}

fn is_base64_byte(b: u8) -> bool {
    // `b | 0x20` is in a..=z exactly for the ASCII letters of either case;
    // `|`, not `||`: no branches, so the caller's fold vectorises.
    ((b | 0x20).wrapping_sub(b'a') < 26)
        | (b.wrapping_sub(b'0') < 10)
        | (b == b'+')
        | (b == b'/')
        | (b == b'=')
        | (b == b'\n')
        | (b == b'\r')
}

/// A bare payload is Helm's base64 text, or that text base64-encoded once more
/// (what `kubectl get secret -o jsonpath='{.data.release}'` prints). One decode
/// tells which: Helm's layer decodes to gzip or JSON.
fn parse_bare_payload(input: &str, text: &str) -> Result<StoredRecord, SourceError> {
    let once = codec::decode_base64(text.as_bytes(), "the payload")
        .map_err(|source| SourceError::Payload { input: input.into(), source })?;
    let helm_layer = codec::is_gzip(&once) || once.trim_ascii_start().starts_with(b"{");
    let (driver, encoded) = if !helm_layer && !once.is_empty() && is_base64_text(&once) {
        (Driver::Secret, Encoded::HelmBase64(once))
    } else {
        (Driver::Payload, Encoded::HelmBase64(text.as_bytes().to_vec()))
    };
    let mut r = bare(input, encoded);
    r.driver = driver;
    Ok(r)
}

fn bare(input: &str, encoded: Encoded) -> StoredRecord {
    StoredRecord {
        origin: Origin::File { path: input.into(), item: None, object: None },
        driver: Driver::Payload,
        labels: BTreeMap::new(),
        object_name: None,
        encoded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_key_parses_names_with_dots_and_v() {
        assert_eq!(parse_storage_key("sh.helm.release.v1.my.vault.v12"), Some(("my.vault".into(), 12)));
        assert_eq!(parse_storage_key("sh.helm.release.v1.web.v3"), Some(("web".into(), 3)));
        assert_eq!(parse_storage_key("other"), None);
    }

    #[test]
    fn empty_input_is_an_error() {
        assert!(matches!(parse_input("x", b"  \n"), Err(SourceError::Empty { .. })));
    }

    #[test]
    fn base64_bytes_are_the_standard_alphabet_padding_and_line_breaks() {
        for b in 0..=255u8 {
            let expected = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'\n' | b'\r');
            assert_eq!(is_base64_byte(b), expected, "byte {b:#04x}");
            assert_eq!(is_base64_text(&[b'A'; 70].iter().copied().chain([b]).collect::<Vec<_>>()), expected, "byte {b:#04x}");
        }
    }

    #[test]
    fn deployment_is_not_a_record() {
        let err = parse_input("d.yaml", b"kind: Deployment\nmetadata:\n  name: web\n").unwrap_err();
        assert!(err.to_string().contains("a Deployment (web) is not a Helm release record"), "{err}");
    }
}
