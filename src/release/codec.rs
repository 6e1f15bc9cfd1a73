//! Helm's storage codec: base64 text, then gzip (or, for records written before
//! compression existed, plain JSON).
//! helm: pkg/storage/driver/util.go encodeRelease / decodeRelease

use std::io::Read;

use base64::Engine;

/// Helm records are small (Kubernetes caps an object at 1 MiB), so anything that
/// inflates past this is corrupt or hostile; refusing it bounds our memory.
pub const MAX_DECOMPRESSED: u64 = 64 * 1024 * 1024;

const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("the record payload is empty (no `release` data)")]
    Empty,
    #[error("{layer} is not valid base64: {source}")]
    Base64 {
        layer: &'static str,
        #[source]
        source: base64::DecodeError,
    },
    #[error("gzip stream is corrupt or truncated: {0}")]
    Gzip(#[source] std::io::Error),
    #[error(
        "decompressed record exceeds {} MiB; a Helm record is at most a few MiB, so this is refused as corrupt (a gzip bomb is the usual cause)",
        MAX_DECOMPRESSED / 1024 / 1024
    )]
    TooLarge,
    #[error("payload is neither gzip (no 1f 8b 08 header) nor a JSON release record: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("record JSON is invalid: {0}")]
    Json(#[source] serde_json::Error),
    /// Nested past encoding/json's `maxNestingDepth`: Helm's `json.Unmarshal`
    /// of the record fails with this scanner error.
    #[error("record JSON is invalid: invalid character '{}' exceeded max depth (at byte {offset})", char::from(*.open))]
    TooDeep { open: u8, offset: usize },
}

/// Decodes standard base64 as Go's `base64.StdEncoding` does when reading a
/// record: padding required, line breaks ignored.
pub fn decode_base64(text: &[u8], layer: &'static str) -> Result<Vec<u8>, CodecError> {
    let cleaned: Vec<u8>;
    // memchr, not a byte loop: the text is MiBs and usually has no line breaks.
    let input = if memchr::memchr2(b'\r', b'\n', text).is_some() {
        cleaned = text.iter().copied().filter(|b| !matches!(b, b'\r' | b'\n')).collect();
        &cleaned[..]
    } else {
        text
    };
    base64::engine::general_purpose::STANDARD
        .decode(input.trim_ascii())
        .map_err(|source| CodecError::Base64 { layer, source })
}

pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.len() > 3 && bytes.starts_with(&GZIP_MAGIC)
}

/// What the codec found while decoding, for `summary` and `size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadStats {
    /// Length of Helm's base64 text: what the Secret/ConfigMap/SQL row stores.
    pub stored_bytes: usize,
    /// Length of the gzip stream (equal to `json_bytes` for uncompressed records).
    pub compressed_bytes: usize,
    pub json_bytes: usize,
    pub gzip: bool,
}

/// Decodes Helm's base64 text into the record's JSON bytes. Takes the text
/// by value so each layer is freed as soon as the next one exists: a record
/// is a few MiB and peak memory matters.
pub fn decode_payload(helm_base64: Vec<u8>) -> Result<(Vec<u8>, PayloadStats), CodecError> {
    if helm_base64.trim_ascii().is_empty() {
        return Err(CodecError::Empty);
    }
    let stored_bytes = helm_base64.trim_ascii().len();
    let raw = decode_base64(&helm_base64, "the Helm payload (base64 of gzip)")?;
    drop(helm_base64);
    let gzip = is_gzip(&raw);
    let compressed_bytes = raw.len();
    let json = if gzip { gunzip_bounded(&raw)? } else { raw };
    let json_bytes = json.len();
    Ok((json, PayloadStats { stored_bytes, compressed_bytes, json_bytes, gzip }))
}

pub fn gunzip_bounded(raw: &[u8]) -> Result<Vec<u8>, CodecError> {
    // The gzip trailer's last 4 bytes hold the uncompressed size (mod 2^32) of
    // the last member: right for Helm's single-member records, a hint otherwise.
    let hint = raw
        .len()
        .checked_sub(4)
        .and_then(|i| raw.get(i..))
        .and_then(|t| <[u8; 4]>::try_from(t).ok())
        .map_or(0, |t| u32::from_le_bytes(t) as u64);
    let capacity = hint.clamp(raw.len() as u64, MAX_DECOMPRESSED) as usize + 1;
    let mut out = Vec::with_capacity(capacity);
    // Go's gzip reader reads concatenated members too; MultiGzDecoder matches that.
    let mut reader = flate2::read::MultiGzDecoder::new(raw).take(MAX_DECOMPRESSED + 1);
    reader.read_to_end(&mut out).map_err(CodecError::Gzip)?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(CodecError::TooLarge);
    }
    Ok(out)
}

/// Parses record JSON; `gzip` says whether it came out of gzip (for the message).
/// Records nest as deep as Helm's reader allows (encoding/json's 10,000
/// levels, checked first), not serde_json's default 128.
pub fn parse_json(json: &[u8], gzip: bool) -> Result<serde_json::Value, CodecError> {
    if let Some((open, offset)) = crate::go::json_decode::first_too_deep(json) {
        return Err(CodecError::TooDeep { open, offset });
    }
    let wrap = |e| if gzip { CodecError::Json(e) } else { CodecError::NotJson(e) };
    serde_parse(json).map_err(wrap)
}

/// [`parse_json`] of a buffer the caller gives up: the same value or error,
/// in less memory, as the top-level `manifest` (most of a large record) is
/// unescaped into the buffer itself (see [`super::json_in_place`]).
pub fn parse_record_json(mut json: Vec<u8>, gzip: bool) -> Result<serde_json::Value, CodecError> {
    // No depth scan first: the in-place path takes only valid JSON no deeper
    // than Go reads (it declines deeper nesting; see `value_end` there), where
    // `first_too_deep` finds nothing. Anything it declines goes through
    // `parse_json`, which scans first, so errors are as before. One pass over
    // a record of MiBs fewer.
    if let Some(value) = super::json_in_place::parse_with_manifest_in_place(&mut json, |rest| serde_parse(rest).ok()) {
        return Ok(value);
    }
    parse_json(&json, gzip)
}

/// One JSON value and nothing after it, without serde_json's nesting limit
/// (the callers check Go's first).
fn serde_parse(json: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    use serde::Deserialize as _;
    let mut reader = serde_json::Deserializer::from_slice(json);
    reader.disable_recursion_limit();
    let value = serde_json::Value::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// Encodes a record as Helm does (gzip level 9, then base64); used by tests and
/// the benchmark to build records.
pub fn encode_payload(json: &[u8]) -> String {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = enc.write_all(json);
    let gz = enc.finish().unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(gz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_helm_encoding() {
        let json = br#"{"name":"demo","version":1}"#;
        let text = encode_payload(json);
        let (out, stats) = decode_payload(text.clone().into_bytes()).unwrap();
        assert_eq!(out, json);
        assert!(stats.gzip);
        assert_eq!(stats.stored_bytes, text.len());
    }

    #[test]
    fn uncompressed_json_is_accepted_like_helm_legacy_records() {
        let text = base64::engine::general_purpose::STANDARD.encode(br#"{"name":"x"}"#);
        let (out, stats) = decode_payload(text.clone().into_bytes()).unwrap();
        assert!(!stats.gzip);
        assert_eq!(out, br#"{"name":"x"}"#);
    }

    #[test]
    fn base64_with_line_breaks_is_accepted_like_go() {
        let text = base64::engine::general_purpose::STANDARD.encode(br#"{"name":"x"}"#);
        let (a, b) = text.split_at(5);
        let wrapped = format!("{a}\n{b}\r\n");
        assert!(decode_payload(wrapped.into_bytes()).is_ok());
    }

    #[test]
    fn gzip_bomb_is_refused() {
        let zeros = vec![b' '; (MAX_DECOMPRESSED + 10) as usize];
        let text = encode_payload(&zeros);
        assert!(matches!(decode_payload(text.clone().into_bytes()), Err(CodecError::TooLarge)));
    }

    #[test]
    fn truncated_gzip_is_an_error() {
        let text = encode_payload(&vec![b'a'; 10_000]);
        let raw = decode_base64(text.as_bytes(), "t").unwrap();
        let cut = base64::engine::general_purpose::STANDARD.encode(&raw[..raw.len() / 2]);
        assert!(matches!(decode_payload(cut.into_bytes()), Err(CodecError::Gzip(_))));
    }
}
