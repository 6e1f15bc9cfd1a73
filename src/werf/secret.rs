//! werf's secret encryption (werf/common-go `pkg/secret`): a hex key of 16,
//! 24 or 32 bytes selects AES-128/192/256; a ciphertext is hex text whose
//! first two bytes are a little-endian format word. 16 (the IV length, the
//! original format) means AES-CBC: 16-byte IV, PKCS#7-padded blocks; 2 means
//! AES-GCM: 12-byte nonce, sealed data with its 16-byte tag (what werf writes
//! today). Other words are refused, as werf refuses them.

use aes::cipher::{BlockDecryptMut, BlockEncryptMut, KeyIvInit, block_padding::Pkcs7};
use aes_gcm::aead::{Aead, KeyInit};

const LEGACY_CBC: u16 = 16;
const AES_GCM: u16 = 2;
const BLOCK: usize = 16;
const NONCE: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error("the secret key is not hex: {0}")]
    KeyNotHex(String),
    #[error("the secret key is {0} bytes; werf needs 16, 24 or 32 (hex of an AES-128/192/256 key)")]
    KeyLength(usize),
    #[error("the encrypted value is not hex: {0}")]
    DataNotHex(String),
    #[error("the encrypted value is too short ({0} bytes)")]
    TooShort(usize),
    #[error("unsupported secret format version: {0}")]
    UnsupportedVersion(u16),
    #[error("the encrypted value is not a multiple of the block size")]
    BlockSize,
    #[error("decryption failed: check the encryption key and data (padding is wrong)")]
    Unpad,
    #[error("decryption failed: the data has been tampered with or the encryption key is wrong")]
    Authentication,
    #[error("the decrypted value is not UTF-8")]
    NotUtf8,
}

/// An AES key of one of the three sizes.
#[derive(Clone)]
pub enum Key {
    K128([u8; 16]),
    K192([u8; 24]),
    K256([u8; 32]),
}

impl std::fmt::Debug for Key {
    // Never print key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// The key from its hex text (surrounding whitespace ignored: key files end with a newline).
    pub fn from_hex(text: &str) -> Result<Key, SecretError> {
        let bytes = hex::decode(text.trim()).map_err(|e| SecretError::KeyNotHex(e.to_string()))?;
        match bytes.len() {
            16 => Ok(Key::K128(bytes.try_into().map_err(|_| SecretError::KeyLength(16))?)),
            24 => Ok(Key::K192(bytes.try_into().map_err(|_| SecretError::KeyLength(24))?)),
            32 => Ok(Key::K256(bytes.try_into().map_err(|_| SecretError::KeyLength(32))?)),
            n => Err(SecretError::KeyLength(n)),
        }
    }
}

/// Decrypts one werf secret value (the empty string stays empty, as in werf).
pub fn decrypt(key: &Key, data: &str) -> Result<String, SecretError> {
    if data.is_empty() {
        return Ok(String::new());
    }
    let raw = hex::decode(data.trim()).map_err(|e| SecretError::DataNotHex(e.to_string()))?;
    if raw.len() < 2 {
        return Err(SecretError::TooShort(raw.len()));
    }
    let version = u16::from_le_bytes([raw[0], raw[1]]);
    let plain = match version {
        LEGACY_CBC => decrypt_cbc(key, &raw[2..])?,
        AES_GCM => decrypt_gcm(key, &raw[2..])?,
        v => return Err(SecretError::UnsupportedVersion(v)),
    };
    String::from_utf8(plain).map_err(|_| SecretError::NotUtf8)
}

fn decrypt_cbc(key: &Key, body: &[u8]) -> Result<Vec<u8>, SecretError> {
    if body.len() < 2 * BLOCK {
        return Err(SecretError::TooShort(body.len() + 2));
    }
    let (iv, ct) = body.split_at(BLOCK);
    if ct.len() % BLOCK != 0 {
        return Err(SecretError::BlockSize);
    }
    let mut buf = ct.to_vec();
    let out = match key {
        Key::K128(k) => cbc::Decryptor::<aes::Aes128>::new(k.into(), iv.into()).decrypt_padded_mut::<Pkcs7>(&mut buf).map(|s| s.len()),
        Key::K192(k) => cbc::Decryptor::<aes::Aes192>::new(k.into(), iv.into()).decrypt_padded_mut::<Pkcs7>(&mut buf).map(|s| s.len()),
        Key::K256(k) => cbc::Decryptor::<aes::Aes256>::new(k.into(), iv.into()).decrypt_padded_mut::<Pkcs7>(&mut buf).map(|s| s.len()),
    }
    .map_err(|_| SecretError::Unpad)?;
    buf.truncate(out);
    Ok(buf)
}

fn decrypt_gcm(key: &Key, body: &[u8]) -> Result<Vec<u8>, SecretError> {
    if body.len() < NONCE + 16 {
        return Err(SecretError::TooShort(body.len() + 2));
    }
    let (nonce, ct) = body.split_at(NONCE);
    let nonce = aes_gcm::Nonce::from_slice(nonce);
    match key {
        Key::K128(k) => aes_gcm::Aes128Gcm::new(k.into()).decrypt(nonce, ct),
        Key::K192(k) => aes_gcm::AesGcm::<aes::Aes192, aes_gcm::aead::consts::U12>::new(k.into()).decrypt(nonce, ct),
        Key::K256(k) => aes_gcm::Aes256Gcm::new(k.into()).decrypt(nonce, ct),
    }
    .map_err(|_| SecretError::Authentication)
}

/// Encrypts in the original CBC format, which every werf version reads.
/// The caller gives the IV (tests need fixed output; the CLI does not encrypt).
pub fn encrypt_cbc(key: &Key, iv: [u8; BLOCK], plain: &str) -> String {
    let mut out = LEGACY_CBC.to_le_bytes().to_vec();
    out.extend_from_slice(&iv);
    // Room for the padding (1 to 16 bytes), so padding cannot fail.
    let mut buf = plain.as_bytes().to_vec();
    buf.resize(plain.len() + BLOCK, 0);
    let n = plain.len();
    let ct = match key {
        Key::K128(k) => cbc::Encryptor::<aes::Aes128>::new(k.into(), &iv.into()).encrypt_padded_mut::<Pkcs7>(&mut buf, n).map(<[u8]>::to_vec),
        Key::K192(k) => cbc::Encryptor::<aes::Aes192>::new(k.into(), &iv.into()).encrypt_padded_mut::<Pkcs7>(&mut buf, n).map(<[u8]>::to_vec),
        Key::K256(k) => cbc::Encryptor::<aes::Aes256>::new(k.into(), &iv.into()).encrypt_padded_mut::<Pkcs7>(&mut buf, n).map(<[u8]>::to_vec),
    }
    .unwrap_or_default();
    out.extend_from_slice(&ct);
    hex::encode(out)
}

/// Where the key was found, in werf's order: `$WERF_SECRET_KEY`, then
/// `<project root>/.werf_secret_key`, then `~/.werf/global_secret_key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyLookup {
    /// Each place looked at, in order, as people read it.
    pub places: Vec<String>,
}

/// The first key text present among `candidates` (place, text if present).
pub fn pick_key(candidates: Vec<(String, Option<String>)>) -> Result<(String, Key), (KeyLookup, Option<SecretError>)> {
    let mut places = Vec::new();
    for (place, text) in candidates {
        match text {
            Some(t) if !t.trim().is_empty() => {
                return Key::from_hex(&t).map(|k| (place.clone(), k)).map_err(|e| {
                    places.push(place);
                    (KeyLookup { places: places.clone() }, Some(e))
                });
            }
            _ => places.push(place),
        }
    }
    Err((KeyLookup { places }, None))
}

/// werf's secret key: `$WERF_SECRET_KEY` (given as `env_key`), then
/// `<project root>/.werf_secret_key`, then `~/.werf/global_secret_key` under
/// `home`. A key that is present but not hex stops the lookup there.
pub fn find_key(root: &std::path::Path, env_key: Option<String>, home: Option<&std::path::Path>) -> Result<super::Secrets, super::WerfError> {
    let project_key = root.join(".werf_secret_key");
    let mut candidates = vec![("$WERF_SECRET_KEY".to_string(), env_key)];
    candidates.push((project_key.display().to_string(), std::fs::read_to_string(&project_key).ok()));
    if let Some(h) = home.map(|h| h.join(".werf/global_secret_key")) {
        candidates.push((h.display().to_string(), std::fs::read_to_string(&h).ok()));
    }
    match pick_key(candidates) {
        Ok((_, key)) => Ok(super::Secrets::Key(key)),
        Err((lookup, None)) => Ok(super::Secrets::Missing(lookup.places)),
        Err((lookup, Some(source))) => {
            let place = lookup.places.last().cloned().unwrap_or_default();
            Err(super::WerfError::BadKey { place, source })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors from werf/common-go `pkg/secret/legacy_compat_test.go` (werf's
    /// e2e fixtures, the CBC format's compatibility contract).
    const WERF_KEY: &str = "bc3458408a5687e60b9417adb84e4ad0";

    #[test]
    fn werf_legacy_vectors_decrypt() {
        let key = Key::from_hex(WERF_KEY).unwrap();
        let cases = [
            ("10007b717b44ec49b722c5d517cf6259bd20c93ea5ef2dcfc3934bccee59613d0ac07f5f39835d30f3736fc5d3edc10335bb", "added_via_secret_values"),
            (
                "1000b52f32b4f9a78fb8b53e2a4d4211408b0de9c9bc83a8cda7a6be77e288f307bf90d016b476960f3c99ab51be48b318fcb4f404a4559bec045631902ec5f49728",
                "overridden_via_secret_values_extra",
            ),
            ("100052fb0fa1cc8ef1cb123be089cdb853cc153772691b8fb743d612a7b64d65614d4d8745250752564941227eb8d7161523", "secretConfigContent\n"),
        ];
        for (data, want) in cases {
            assert_eq!(decrypt(&key, data).unwrap(), want);
        }
    }

    #[test]
    fn our_encryption_round_trips_for_every_key_size() {
        for k in [WERF_KEY.to_string(), "00".repeat(24), "ab".repeat(32)] {
            let key = Key::from_hex(&k).unwrap();
            for plain in ["", "a", "exactly sixteen!", "postgres://user:hunter2@db:5432/app"] {
                let ct = encrypt_cbc(&key, [7; 16], plain);
                assert!(ct.starts_with("1000"));
                assert_eq!(decrypt(&key, &ct).unwrap(), plain);
            }
        }
    }

    #[test]
    fn wrong_key_corruption_and_versions_are_errors() {
        let key = Key::from_hex(WERF_KEY).unwrap();
        let other = Key::from_hex("00112233445566778899aabbccddeeff").unwrap();
        let ct = encrypt_cbc(&key, [1; 16], "value");
        // A wrong CBC key almost always breaks the padding; the odd time it
        // does not, werf would return garbage too, so only assert it is not the value.
        assert_ne!(decrypt(&other, &ct).ok().as_deref(), Some("value"));
        let long = encrypt_cbc(&key, [1; 16], "postgres://user:hunter2@db:5432/app");
        assert!(matches!(decrypt(&key, &long[..long.len() - 1]), Err(SecretError::DataNotHex(_))));
        assert_eq!(decrypt(&key, &long[..long.len() - 2]), Err(SecretError::BlockSize));
        // A flipped last byte breaks the padding (or, rarely, yields garbage): never the value.
        let mut flipped = long.clone();
        flipped.replace_range(long.len() - 2.., if long.ends_with("00") { "01" } else { "00" });
        assert_ne!(decrypt(&key, &flipped).ok().as_deref(), Some("postgres://user:hunter2@db:5432/app"));
        assert_eq!(decrypt(&key, &format!("0300{}", &ct[4..])), Err(SecretError::UnsupportedVersion(3)));
        assert!(matches!(decrypt(&key, "1000ab"), Err(SecretError::TooShort(_))));
        assert_eq!(decrypt(&key, "zz"), Err(SecretError::DataNotHex("Invalid character 'z' at position 0".into())));
        // GCM: a tampered tag is an authentication failure.
        assert_eq!(decrypt(&key, &format!("0200{}", "00".repeat(28))), Err(SecretError::Authentication));
    }

    #[test]
    fn gcm_format_decrypts() {
        let key = Key::from_hex(WERF_KEY).unwrap();
        let Key::K128(k) = &key else { unreachable!() };
        let nonce = [9u8; 12];
        let sealed = aes_gcm::Aes128Gcm::new(k.into()).encrypt(aes_gcm::Nonce::from_slice(&nonce), b"value".as_slice()).unwrap();
        let mut raw = AES_GCM.to_le_bytes().to_vec();
        raw.extend_from_slice(&nonce);
        raw.extend_from_slice(&sealed);
        assert_eq!(decrypt(&key, &hex::encode(raw)).unwrap(), "value");
    }

    #[test]
    fn keys_are_looked_up_in_werf_order_and_checked() {
        let got = pick_key(vec![("$WERF_SECRET_KEY".into(), None), (".werf_secret_key".into(), Some(format!("{WERF_KEY}\n")))]).unwrap();
        assert_eq!(got.0, ".werf_secret_key");
        let (lookup, err) = pick_key(vec![("$WERF_SECRET_KEY".into(), None), ("~/.werf/global_secret_key".into(), None)]).unwrap_err();
        assert_eq!(lookup.places.len(), 2);
        assert!(err.is_none());
        let (_, err) = pick_key(vec![("$WERF_SECRET_KEY".into(), Some("abcd".into()))]).unwrap_err();
        assert_eq!(err, Some(SecretError::KeyLength(2)));
    }
}
