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
    let input = if text.iter().any(|b| matches!(b, b'\r' | b'\n')) {
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
    use serde::Deserialize as _;
    if let Some((open, offset)) = crate::go::json_decode::first_too_deep(json) {
        return Err(CodecError::TooDeep { open, offset });
    }
    let mut reader = serde_json::Deserializer::from_slice(json);
    reader.disable_recursion_limit();
    let wrap = |e| if gzip { CodecError::Json(e) } else { CodecError::NotJson(e) };
    let value = serde_json::Value::deserialize(&mut reader).map_err(wrap)?;
    reader.end().map_err(wrap)?;
    Ok(value)
}

/// Decodes Helm's base64 text into the record's JSON value. The gzip layer
/// is streamed into the JSON parser, so the decompressed JSON (the largest
/// stage, several times the compressed size) is never held whole: peak
/// memory is the compressed bytes plus the parsed value. Errors keep the
/// order of decoding stage by stage: base64, then gzip (and the size cap),
/// then nesting depth, then JSON syntax.
pub fn decode_payload_value(helm_base64: Vec<u8>) -> Result<(serde_json::Value, PayloadStats), CodecError> {
    if helm_base64.trim_ascii().is_empty() {
        return Err(CodecError::Empty);
    }
    let stored_bytes = helm_base64.trim_ascii().len();
    let raw = decode_base64(&helm_base64, "the Helm payload (base64 of gzip)")?;
    drop(helm_base64);
    let mut stats = PayloadStats { stored_bytes, compressed_bytes: raw.len(), json_bytes: raw.len(), gzip: is_gzip(&raw) };
    if !stats.gzip {
        return Ok((parse_json(&raw, false)?, stats));
    }
    let (value, json_bytes) = gunzip_value(&raw)?;
    stats.json_bytes = json_bytes;
    Ok((value, stats))
}

/// Gunzips `raw` straight into the JSON parser; the value and the JSON's length.
pub fn gunzip_value(raw: &[u8]) -> Result<(serde_json::Value, usize), CodecError> {
    use serde::Deserialize as _;
    let mut inflate = Inflate::new(raw);
    let parsed = {
        let mut reader = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 16, &mut inflate));
        reader.disable_recursion_limit();
        serde_json::Value::deserialize(&mut reader).and_then(|v| reader.end().map(|()| v))
    };
    match parsed {
        Ok(value) => match inflate.failure() {
            // The parser saw the whole text; the stream behind it must end cleanly too.
            Some(e) => Err(e),
            None => Ok((value, inflate.out_bytes as usize)),
        },
        Err(e) => Err(inflate.failure().unwrap_or(CodecError::Json(e))),
    }
}

/// The gzip layer as a reader, bounded at [`MAX_DECOMPRESSED`], scanning
/// the nesting depth of what passes through (as [`crate::go::json_decode::first_too_deep`]
/// does on a whole text). A failure is kept and the reader then ends with an
/// I/O error, so the parser stops and [`Inflate::failure`] says why.
struct Inflate<'a> {
    gz: flate2::read::MultiGzDecoder<&'a [u8]>,
    out_bytes: u64,
    depth: crate::go::json_decode::DepthScan,
    gzip_error: Option<std::io::Error>,
    too_large: bool,
    too_deep: Option<(u8, usize)>,
}

impl<'a> Inflate<'a> {
    fn new(raw: &'a [u8]) -> Inflate<'a> {
        Inflate {
            // Go's gzip reader reads concatenated members too; MultiGzDecoder matches that.
            gz: flate2::read::MultiGzDecoder::new(raw),
            out_bytes: 0,
            depth: crate::go::json_decode::DepthScan::default(),
            gzip_error: None,
            too_large: false,
            too_deep: None,
        }
    }

    fn failed(&self) -> bool {
        self.gzip_error.is_some() || self.too_large || self.too_deep.is_some()
    }

    /// Why the stream failed, after reading what is left of it: a gzip
    /// error or the size cap anywhere in the stream comes before a depth
    /// error, as when the whole text was gunzipped first.
    fn failure(&mut self) -> Option<CodecError> {
        let mut scratch = vec![0u8; 1 << 16];
        while self.gzip_error.is_none() && !self.too_large {
            match self.gz.read(&mut scratch) {
                Ok(0) => break,
                Ok(n) => {
                    self.out_bytes += n as u64;
                    self.too_large = self.out_bytes > MAX_DECOMPRESSED;
                    if self.too_deep.is_none() {
                        self.too_deep = self.depth.scan(&scratch[..n]);
                    }
                }
                Err(e) => self.gzip_error = Some(e),
            }
        }
        if let Some(e) = self.gzip_error.take() {
            return Some(CodecError::Gzip(e));
        }
        if self.too_large {
            return Some(CodecError::TooLarge);
        }
        self.too_deep.map(|(open, offset)| CodecError::TooDeep { open, offset })
    }
}

impl Read for Inflate<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.failed() {
            return Err(std::io::Error::other("the record stream failed"));
        }
        let n = match self.gz.read(buf) {
            Ok(n) => n,
            Err(e) => {
                self.gzip_error = Some(e);
                return Err(std::io::Error::other("gzip"));
            }
        };
        self.out_bytes += n as u64;
        if self.out_bytes > MAX_DECOMPRESSED {
            self.too_large = true;
            return Err(std::io::Error::other("too large"));
        }
        self.too_deep = self.depth.scan(&buf[..n]);
        if self.too_deep.is_some() {
            return Err(std::io::Error::other("too deep"));
        }
        Ok(n)
    }
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
    fn streamed_decoding_gives_the_value_and_errors_of_decoding_stage_by_stage() {
        let json = br#"{"name":"demo","version":1,"manifest":"a\nb"}"#;
        let text = encode_payload(json);
        let (value, stats) = decode_payload_value(text.clone().into_bytes()).unwrap();
        assert_eq!(value, serde_json::from_slice::<serde_json::Value>(json).unwrap());
        assert_eq!((stats.json_bytes, stats.stored_bytes, stats.gzip), (json.len(), text.len(), true));
        let plain = base64::engine::general_purpose::STANDARD.encode(json);
        assert_eq!(decode_payload_value(plain.into_bytes()).unwrap().0, value);

        let bomb = encode_payload(&vec![b' '; (MAX_DECOMPRESSED + 10) as usize]);
        assert!(matches!(decode_payload_value(bomb.into_bytes()), Err(CodecError::TooLarge)));
        // A syntax error early and a truncated stream later: the gzip error wins, as before.
        let raw = decode_base64(encode_payload(&[b"{\"a\":x".as_slice(), &vec![b' '; 100_000]].concat()).as_bytes(), "t").unwrap();
        let cut = base64::engine::general_purpose::STANDARD.encode(&raw[..raw.len() - 10]);
        assert!(matches!(decode_payload_value(cut.into_bytes()), Err(CodecError::Gzip(_))));
        // Too deep, then a syntax error: the depth is reported, with its offset.
        let deep = [b"{\"a\":".as_slice(), &vec![b'['; 10_001], b"x"].concat();
        match decode_payload_value(encode_payload(&deep).into_bytes()) {
            Err(CodecError::TooDeep { open: b'[', offset }) => {
                assert_eq!(Some((b'[', offset)), crate::go::json_decode::first_too_deep(&deep));
                assert_eq!(offset, 5 + 9_999);
            }
            other => panic!("{other:?}"),
        }
        let syntax = encode_payload(b"{\"a\": tru}");
        assert!(matches!(decode_payload_value(syntax.into_bytes()), Err(CodecError::Json(_))));
        // Trailing data after the value is an error, as with the whole text.
        assert!(matches!(decode_payload_value(encode_payload(b"{} {}").into_bytes()), Err(CodecError::Json(_))));
    }

    #[test]
    fn truncated_gzip_is_an_error() {
        let text = encode_payload(&vec![b'a'; 10_000]);
        let raw = decode_base64(text.as_bytes(), "t").unwrap();
        let cut = base64::engine::general_purpose::STANDARD.encode(&raw[..raw.len() / 2]);
        assert!(matches!(decode_payload(cut.into_bytes()), Err(CodecError::Gzip(_))));
    }
}
