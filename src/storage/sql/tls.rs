//! TLS for Helm's SQL driver, with lib/pq's `sslmode` meanings (Helm
//! connects through lib/pq): `disable`; `require` (the default: encrypted,
//! certificate not checked, unless `sslrootcert` is given, then as
//! `verify-ca`); `verify-ca` (chain checked, host name not); `verify-full`
//! (chain and host name). `allow`/`prefer` try TLS without checks and fall
//! back to plain. Roots: `sslrootcert`, else the system's.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, Error as TlsError, RootCertStore, SignatureScheme};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub fn parse(s: &str) -> Option<SslMode> {
        Some(match s {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }

    /// What tokio-postgres is told: it only knows disable/prefer/require.
    pub fn negotiation(self) -> tokio_postgres::config::SslMode {
        use tokio_postgres::config::SslMode as M;
        match self {
            SslMode::Disable => M::Disable,
            SslMode::Allow | SslMode::Prefer => M::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => M::Require,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    #[error("sslrootcert {path}: {message}")]
    RootCert { path: String, message: String },
    #[error("no trusted root certificates: the system store is empty and no sslrootcert was given")]
    NoRoots,
    #[error("TLS setup: {0}")]
    Rustls(#[from] TlsError),
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn roots(root_cert: Option<&str>) -> Result<RootCertStore, TlsSetupError> {
    let mut store = RootCertStore::empty();
    match root_cert {
        Some(path) => {
            let err = |message: String| TlsSetupError::RootCert { path: path.to_string(), message };
            let certs = CertificateDer::pem_file_iter(path).map_err(|e| err(e.to_string()))?;
            for cert in certs {
                store.add(cert.map_err(|e| err(e.to_string()))?).map_err(|e| err(e.to_string()))?;
            }
            if store.is_empty() {
                return Err(err("holds no PEM certificate".into()));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            for cert in found.certs {
                let _ = store.add(cert);
            }
            if store.is_empty() {
                return Err(TlsSetupError::NoRoots);
            }
        }
    }
    Ok(store)
}

/// The rustls client configuration for `mode`; `None` for `disable`.
pub fn client_config(mode: SslMode, root_cert: Option<&str>) -> Result<Option<ClientConfig>, TlsSetupError> {
    let mode = if mode == SslMode::Require && root_cert.is_some() { SslMode::VerifyCa } else { mode };
    let builder = ClientConfig::builder_with_provider(provider()).with_safe_default_protocol_versions()?;
    let config = match mode {
        SslMode::Disable => return Ok(None),
        SslMode::Allow | SslMode::Prefer | SslMode::Require => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(EncryptOnly { algorithms: provider().signature_verification_algorithms }))
            .with_no_client_auth(),
        SslMode::VerifyCa => {
            let webpki = rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots(root_cert)?), provider())
                .build()
                .map_err(|e| TlsError::General(e.to_string()))?;
            builder.dangerous().with_custom_certificate_verifier(Arc::new(ChainOnly { inner: webpki })).with_no_client_auth()
        }
        SslMode::VerifyFull => builder.with_root_certificates(roots(root_cert)?).with_no_client_auth(),
    };
    Ok(Some(config))
}

/// lib/pq `require`: encryption without trusting the certificate (the
/// handshake signatures are still checked).
#[derive(Debug)]
struct EncryptOnly {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for EncryptOnly {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        Ok(ServerCertVerified::assertion())
    }
    fn verify_tls12_signature(&self, m: &[u8], c: &CertificateDer<'_>, d: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls12_signature(m, c, d, &self.algorithms)
    }
    fn verify_tls13_signature(&self, m: &[u8], c: &CertificateDer<'_>, d: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls13_signature(m, c, d, &self.algorithms)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// lib/pq `verify-ca`: the chain must lead to a trusted root; the host name
/// is not compared.
#[derive(Debug)]
struct ChainOnly {
    inner: Arc<rustls::client::WebPkiServerVerifier>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        match self.inner.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(TlsError::InvalidCertificate(CertificateError::NotValidForName))
            | Err(TlsError::InvalidCertificate(CertificateError::NotValidForNameContext { .. })) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }
    fn verify_tls12_signature(&self, m: &[u8], c: &CertificateDer<'_>, d: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, TlsError> {
        self.inner.verify_tls12_signature(m, c, d)
    }
    fn verify_tls13_signature(&self, m: &[u8], c: &CertificateDer<'_>, d: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, TlsError> {
        self.inner.verify_tls13_signature(m, c, d)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}
