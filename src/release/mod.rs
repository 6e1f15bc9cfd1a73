//! Helm's release records: the record model, the storage codec, the storage
//! inputs, history and baseline rules, and the size breakdown.

pub mod codec;
pub mod history;
mod json_in_place;
pub mod record;
pub mod size;
pub mod source;

use std::collections::BTreeSet;

pub use record::{Release, Status};
pub use source::{Driver, Encoded, Origin, StoredRecord};

use codec::{CodecError, PayloadStats};
use record::RecordError;

/// A record after decoding, with what the storage layer said about it.
#[derive(Debug, Clone)]
pub struct DecodedRecord {
    pub origin: Origin,
    pub driver: Driver,
    pub labels: std::collections::BTreeMap<String, String>,
    pub object_name: Option<String>,
    pub release: Release,
    pub stats: PayloadStats,
    /// Inconsistencies worth telling the user that do not stop decoding.
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    #[error("{origin}: {source}")]
    Codec {
        origin: Origin,
        #[source]
        source: CodecError,
    },
    #[error("{origin}: {source}")]
    Record {
        origin: Origin,
        #[source]
        source: RecordError,
    },
    #[error("no release records found in {place}")]
    NoRecords { place: String },
    #[error("release {name:?} not found in {place} (releases there: {})", .available.join(", "))]
    NotFound { name: String, place: String, available: Vec<String> },
    #[error("{place} holds several releases ({}); name the one to read", .names.join(", "))]
    Ambiguous { place: String, names: Vec<String> },
    #[error("release {name:?} has no revision {revision} (revisions: {})", .available.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))]
    NoRevision { name: String, revision: i64, available: Vec<i64> },
}

/// Decodes one stored record through every layer, checking it against the
/// labels of the object that held it.
pub fn decode(stored: StoredRecord) -> Result<DecodedRecord, ReleaseError> {
    let StoredRecord { origin, driver, labels, object_name, encoded } = stored;
    let codec_err = |source| ReleaseError::Codec { origin: origin.clone(), source };
    let (json, stats) = match encoded {
        Encoded::HelmBase64(text) => codec::decode_payload(text).map_err(codec_err)?,
        Encoded::Gzip(gz) => {
            let compressed_bytes = gz.len();
            let json = codec::gunzip_bounded(&gz).map_err(codec_err)?;
            let stats = PayloadStats { stored_bytes: compressed_bytes, compressed_bytes, json_bytes: json.len(), gzip: true };
            (json, stats)
        }
        Encoded::Json(json) => {
            let n = json.len();
            (json, PayloadStats { stored_bytes: n, compressed_bytes: n, json_bytes: n, gzip: false })
        }
    };
    // The buffer is given up: the record's manifest is unescaped into it.
    let value = codec::parse_record_json(json, stats.gzip).map_err(codec_err)?;
    let release =
        Release::from_value(value).map_err(|source| ReleaseError::Record { origin: origin.clone(), source })?;
    let mut record = DecodedRecord { origin, driver, labels, object_name, release, stats, warnings: Vec::new() };
    record.warnings = consistency_warnings(&record);
    Ok(record)
}

fn consistency_warnings(r: &DecodedRecord) -> Vec<String> {
    let mut out = Vec::new();
    let rel = &r.release;
    let claimed = StoredRecord::identity_from(&r.labels, r.object_name.as_deref());
    if let Some((name, version)) = claimed
        && (name != rel.name() || version != rel.version())
    {
        out.push(format!(
            "{}: the storage object says release {name:?} revision {version}, but the record inside is release {:?} revision {}; Helm selects records by their labels, so this record is misfiled",
            r.origin,
            rel.name(),
            rel.version()
        ));
    }
    if let Some(status) = r.labels.get("status")
        && status != rel.status().as_str()
    {
        out.push(format!(
            "{}: label status={status} disagrees with the record's status {}; Helm's queries trust the label",
            r.origin,
            rel.status()
        ));
    }
    if matches!(r.labels.get("owner"), Some(o) if o != "helm") {
        out.push(format!("{}: label owner is not \"helm\"; Helm ignores this object", r.origin));
    }
    out
}

impl StoredRecord {
    fn identity_from(labels: &std::collections::BTreeMap<String, String>, object_name: Option<&str>) -> Option<(String, i64)> {
        let from_labels = labels
            .get("name")
            .zip(labels.get("version").and_then(|v| v.parse::<i64>().ok()))
            .map(|(n, v)| (n.clone(), v));
        from_labels.or_else(|| object_name.and_then(source::parse_storage_key))
    }
}

/// A record whose identity is known before or after decoding.
enum Candidate {
    Stored { name: String, version: i64, record: StoredRecord },
    Decoded(DecodedRecord),
}

impl Candidate {
    fn name(&self) -> &str {
        match self {
            Candidate::Stored { name, .. } => name,
            Candidate::Decoded(d) => d.release.name(),
        }
    }
    fn version(&self) -> i64 {
        match self {
            Candidate::Stored { version, .. } => *version,
            Candidate::Decoded(d) => d.release.version(),
        }
    }
    fn decode(self) -> Result<DecodedRecord, ReleaseError> {
        match self {
            Candidate::Stored { record, .. } => decode(record),
            Candidate::Decoded(d) => Ok(d),
        }
    }
}

/// Identifies every record (by its labels or object name when it has them,
/// else by decoding it) and keeps those of the one release asked for, or of
/// the only release present. `place` names the input in messages.
fn candidates(records: Vec<StoredRecord>, name: Option<&str>, place: &str) -> Result<Vec<Candidate>, ReleaseError> {
    if records.is_empty() {
        return Err(ReleaseError::NoRecords { place: place.to_string() });
    }
    let mut all = Vec::with_capacity(records.len());
    for record in records {
        let c = match record.claimed_identity() {
            Some((name, version)) => Candidate::Stored { name, version, record },
            None => Candidate::Decoded(decode(record)?),
        };
        all.push(c);
    }
    let names: BTreeSet<String> = all.iter().map(|c| c.name().to_string()).collect();
    let wanted = match name {
        Some(n) if names.contains(n) => n.to_string(),
        Some(n) => {
            return Err(ReleaseError::NotFound { name: n.into(), place: place.into(), available: names.into_iter().collect() });
        }
        None if names.len() == 1 => names.into_iter().next().unwrap_or_default(),
        None => return Err(ReleaseError::Ambiguous { place: place.into(), names: names.into_iter().collect() }),
    };
    all.retain(|c| c.name() == wanted);
    all.sort_by_key(Candidate::version);
    Ok(all)
}

/// The record of one revision (the latest when `revision` is `None`).
pub fn decode_revision(
    records: Vec<StoredRecord>,
    name: Option<&str>,
    revision: Option<i64>,
    place: &str,
) -> Result<DecodedRecord, ReleaseError> {
    let mut all = candidates(records, name, place)?;
    let index = match revision {
        None => all.len() - 1,
        Some(r) => match all.iter().rposition(|c| c.version() == r) {
            Some(i) => i,
            None => {
                return Err(ReleaseError::NoRevision {
                    name: all[0].name().to_string(),
                    revision: r,
                    available: all.iter().map(Candidate::version).collect(),
                });
            }
        },
    };
    crate::timings::timed("decode record", || all.swap_remove(index).decode())
}

/// Every revision of one release, oldest first.
pub fn decode_history(records: Vec<StoredRecord>, name: Option<&str>, place: &str) -> Result<Vec<DecodedRecord>, ReleaseError> {
    let _phase = crate::timings::phase("decode records");
    candidates(records, name, place)?.into_iter().map(Candidate::decode).collect()
}

/// Helm's `chartutil.ValidateReleaseName`: 1 to 53 characters, DNS-1123
/// labels joined by dots (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`).
pub fn is_valid_release_name(name: &str) -> bool {
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    };
    !name.is_empty() && name.len() <= 53 && name.split('.').all(label_ok)
}

#[cfg(test)]
mod name_tests {
    use super::is_valid_release_name;

    #[test]
    fn release_names_follow_helms_rule() {
        for ok in ["web", "a", "web-1", "my.release", "0abc", &"a".repeat(53)] {
            assert!(is_valid_release_name(ok), "{ok}");
        }
        for bad in ["", "Web", "-web", "web-", "we_b", "a..b", ".a", "a.", &"a".repeat(54), "wéb"] {
            assert!(!is_valid_release_name(bad), "{bad}");
        }
    }
}
