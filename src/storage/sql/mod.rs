//! Helm's SQL storage driver (PostgreSQL table `releases_v1`), read-only:
//! only SELECT statements are ever sent, in a read-only session.
//! helm: pkg/storage/driver/sql.go

use std::collections::BTreeMap;

use super::source::{Driver, Encoded, Origin, StoredRecord};

mod guard;
mod session;
mod tls;

pub use guard::{Breach, MAX_ANSWER_BYTES};
pub use session::QUERY_TIMEOUT_FACTOR;
pub use tls::SslMode;

use std::time::Duration;

/// Connections that do not set `connect_timeout` give up after this long
/// instead of waiting indefinitely (lib/pq's default) or for the operating
/// system's TCP timeout (minutes).
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    #[error("--sql-connection: {0}")]
    BadConnectionString(String),
    #[error("--sql-connection: {0}")]
    Tls(#[from] tls::TlsSetupError),
    #[error("cannot connect to PostgreSQL {target} (sslmode={mode}): {message}")]
    Connect { target: String, mode: String, message: String },
    #[error("PostgreSQL query on releases_v1 failed: {message} (is this Helm's SQL storage database?)")]
    Query { message: String },
    #[error("PostgreSQL {target} timed out: {what}")]
    Timeout { target: String, what: String },
    #[error("PostgreSQL {target} sent too much: {breach}")]
    TooLarge { target: String, breach: Breach },
}

/// Connection settings lib/pq understands and tokio-postgres does not,
/// taken out of the connection string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibpqSettings {
    pub ssl_mode: SslMode,
    pub ssl_mode_text: String,
    pub root_cert: Option<String>,
    /// The bound on connecting to one host; `None` for `connect_timeout=0`
    /// (lib/pq: wait indefinitely).
    pub connect_timeout: Option<Duration>,
    /// The rest of the connection string, for tokio-postgres.
    pub rest: String,
}

/// Splits Helm's connection string (URL or `key=value` form) into the TLS
/// settings and the rest. lib/pq's default `sslmode` is `require`.
pub fn parse_connection(connection: &str) -> Result<LibpqSettings, SqlError> {
    let mut ssl_mode_text = "require".to_string();
    let mut root_cert = None;
    let mut inline = false;
    let mut connect_timeout = Some(DEFAULT_CONNECT_TIMEOUT);
    let mut keep = |key: &str, value: &str| -> Result<bool, SqlError> {
        match key {
            "sslmode" => {
                ssl_mode_text = value.to_string();
                Ok(false)
            }
            "sslrootcert" => {
                root_cert = Some(value.to_string());
                Ok(false)
            }
            "sslcert" | "sslkey" | "sslpassword" => Err(SqlError::BadConnectionString(format!(
                "{key}: client certificates are not supported by releasex yet; use password or trust authentication"
            ))),
            "connect_timeout" => {
                connect_timeout = parse_connect_timeout(value)?;
                Ok(false)
            }
            "sslinline" => {
                inline = value == "true";
                Ok(false)
            }
            "sslsni" | "fallback_application_name" | "binary_parameters" | "disable_prepared_binary_result" => Ok(false),
            _ => Ok(true),
        }
    };
    let rest = if let Some((base, query)) = connection.split_once('?').filter(|_| connection.contains("://")) {
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            if keep(k, &percent_decode(v))? {
                kept.push(pair);
            }
        }
        if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) }
    } else if connection.contains("://") {
        connection.to_string()
    } else {
        let mut kept = Vec::new();
        for (k, v, raw) in key_values(connection)? {
            if keep(&k, &v)? {
                kept.push(raw);
            }
        }
        kept.join(" ")
    };
    if inline {
        // Never echo the value: it would print a certificate into an error.
        return Err(SqlError::BadConnectionString(
            "sslinline=true is not supported; put the CA certificate in a file and pass its path as sslrootcert".into(),
        ));
    }
    let ssl_mode = SslMode::parse(&ssl_mode_text).ok_or_else(|| {
        SqlError::BadConnectionString(format!(
            "unknown sslmode {ssl_mode_text:?} (expected disable, allow, prefer, require, verify-ca or verify-full)"
        ))
    })?;
    Ok(LibpqSettings { ssl_mode, ssl_mode_text, root_cert, connect_timeout, rest })
}

/// lib/pq's `connect_timeout`: whole seconds, `0` waits indefinitely
/// (lib/pq conn.go `dial`); a negative value would fail every connection
/// there, so it is refused here.
fn parse_connect_timeout(value: &str) -> Result<Option<Duration>, SqlError> {
    match value.trim().parse::<u64>() {
        Ok(0) => Ok(None),
        Ok(seconds) => Ok(Some(Duration::from_secs(seconds))),
        Err(_) => Err(SqlError::BadConnectionString(format!(
            "connect_timeout={value:?}: expected whole seconds (0 waits indefinitely)"
        ))),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(v)) = (b[i], hex) {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `key=value` tokens of a libpq keyword string, values possibly single-quoted
/// with backslash escapes; returns (key, value, raw token).
fn key_values(s: &str) -> Result<Vec<(String, String, String)>, SqlError> {
    let mut out = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        let start = i;
        let mut key = String::new();
        while i < chars.len() && chars[i] != '=' && !chars[i].is_whitespace() {
            key.push(chars[i]);
            i += 1;
        }
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() || chars[i] != '=' {
            return Err(SqlError::BadConnectionString(format!("expected key=value near {key:?}")));
        }
        i += 1;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < chars.len() && chars[i] == '\'' {
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(SqlError::BadConnectionString(format!("unterminated quoted value for {key}"))),
                    Some('\'') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        if let Some(c) = chars.get(i + 1) {
                            value.push(*c);
                        }
                        i += 2;
                    }
                    Some(c) => {
                        value.push(*c);
                        i += 1;
                    }
                }
            }
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                value.push(chars[i]);
                i += 1;
            }
        }
        out.push((key, value, chars[start..i].iter().collect()));
    }
    Ok(out)
}

/// Reads every row of release `name` in `namespace`, as Helm's `Query` with
/// `name=NAME,owner=helm` does (namespace filter when non-empty).
pub async fn list_release_rows(connection: &str, namespace: &str, name: &str) -> Result<Vec<StoredRecord>, SqlError> {
    let settings = parse_connection(connection)?;
    let mut config: tokio_postgres::Config =
        settings.rest.parse().map_err(|e: tokio_postgres::Error| SqlError::BadConnectionString(crate::error_chain(&e)))?;
    config.ssl_mode(settings.ssl_mode.negotiation());
    // Belt and braces: the session itself refuses writes.
    let options = format!("{} -c default_transaction_read_only=on", config.get_options().unwrap_or("")).trim().to_string();
    config.options(&options);
    let trust = settings.root_cert.as_deref().map_or_else(|| "the system trust store".to_string(), |p| format!("sslrootcert {p}"));
    let connect_err = |target: &str, e: &(dyn std::error::Error + 'static)| {
        let mut message = crate::error_chain(e);
        if let Some(hint) = certificate_hint(e, &trust) {
            message = format!("{message} ({hint})");
        }
        SqlError::Connect { target: target.to_string(), mode: settings.ssl_mode_text.clone(), message }
    };
    let plan = session::Plan {
        tls: tls::client_config(settings.ssl_mode, settings.root_cert.as_deref())?,
        connect_timeout: settings.connect_timeout,
        connect_err: &connect_err,
    };
    let rows = session::query_rows(&config, &plan, namespace, name).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(row_to_record(&row)?);
    }
    Ok(out)
}

/// Plain words for the certificate failures rustls names by variant.
fn certificate_hint(e: &(dyn std::error::Error + 'static), trust: &str) -> Option<String> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        let tls = err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            .or_else(|| err.downcast_ref::<rustls::Error>());
        if let Some(rustls::Error::InvalidCertificate(cert)) = tls {
            return Some(match cert {
                rustls::CertificateError::UnknownIssuer => format!("the server's certificate is not signed by a CA in {trust}"),
                rustls::CertificateError::Expired | rustls::CertificateError::ExpiredContext { .. } => "the server's certificate has expired".into(),
                rustls::CertificateError::NotValidForName | rustls::CertificateError::NotValidForNameContext { .. } => {
                    "the server's certificate does not name this host; sslmode=verify-ca skips that check".into()
                }
                _ => return None,
            });
        }
        cur = err.source();
    }
    None
}

fn row_to_record(row: &tokio_postgres::Row) -> Result<StoredRecord, SqlError> {
    let err = |e: tokio_postgres::Error| SqlError::Query { message: crate::error_chain(&e) };
    let get = |i: usize| row.try_get::<_, String>(i).map_err(err);
    let key = get(0)?;
    let body = get(1)?;
    let version: i32 = row.try_get(4).map_err(err)?;
    let created: i32 = row.try_get(7).unwrap_or(0);
    let modified: i32 = row.try_get(8).unwrap_or(0);
    let labels = BTreeMap::from([
        ("name".to_string(), get(2)?),
        ("owner".to_string(), get(6)?),
        ("status".to_string(), get(5)?),
        ("version".to_string(), version.to_string()),
        ("createdAt".to_string(), created.to_string()),
        ("modifiedAt".to_string(), modified.to_string()),
    ]);
    Ok(StoredRecord {
        origin: Origin::SqlRow { namespace: get(3)?, key: key.clone() },
        driver: Driver::Sql,
        labels,
        object_name: Some(key),
        encoded: Encoded::HelmBase64(body.into_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_defaults_to_require_like_lib_pq() {
        let s = parse_connection("postgres://u@h:5432/db").unwrap();
        assert_eq!((s.ssl_mode, s.rest.as_str()), (SslMode::Require, "postgres://u@h:5432/db"));
    }

    #[test]
    fn lib_pq_only_settings_are_taken_out_of_urls() {
        let s = parse_connection("postgres://u@h/db?sslmode=verify-full&sslrootcert=%2Ftmp%2Fca.pem&connect_timeout=3").unwrap();
        assert_eq!(s.ssl_mode, SslMode::VerifyFull);
        assert_eq!(s.root_cert.as_deref(), Some("/tmp/ca.pem"));
        assert_eq!(s.rest, "postgres://u@h/db");
        assert_eq!(s.connect_timeout, Some(Duration::from_secs(3)));
    }

    #[test]
    fn connect_timeout_defaults_to_ten_seconds_and_zero_waits_indefinitely_like_lib_pq() {
        assert_eq!(parse_connection("host=h").unwrap().connect_timeout, Some(Duration::from_secs(10)));
        assert_eq!(parse_connection("host=h connect_timeout=0").unwrap().connect_timeout, None);
        let bad = parse_connection("host=h connect_timeout=-1").unwrap_err().to_string();
        assert!(bad.contains("connect_timeout=\"-1\": expected whole seconds"), "{bad}");
    }

    #[test]
    fn lib_pq_only_settings_are_taken_out_of_keyword_strings() {
        let s = parse_connection("host=h user=u sslmode=verify-ca sslrootcert='/a b/ca.pem' dbname=helm").unwrap();
        assert_eq!(s.ssl_mode, SslMode::VerifyCa);
        assert_eq!(s.root_cert.as_deref(), Some("/a b/ca.pem"));
        assert_eq!(s.rest, "host=h user=u dbname=helm");
    }

    #[test]
    fn unknown_sslmode_and_client_certificates_are_refused() {
        assert!(parse_connection("host=h sslmode=sometimes").unwrap_err().to_string().contains("unknown sslmode \"sometimes\""));
        assert!(parse_connection("host=h sslcert=/c.pem").unwrap_err().to_string().contains("client certificates"));
        let inline = parse_connection("host=h sslrootcert='-----BEGIN CERTIFICATE-----x' sslinline=true").unwrap_err().to_string();
        assert!(inline.contains("sslinline=true is not supported") && !inline.contains("BEGIN"), "{inline}");
    }
}
