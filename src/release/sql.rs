//! Helm's SQL storage driver (PostgreSQL table `releases_v1`), read-only:
//! only SELECT statements are ever sent.
//! helm: pkg/storage/driver/sql.go

use std::collections::BTreeMap;

use super::source::{Driver, Encoded, Origin, StoredRecord};

#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    #[error("--sql-connection: {0}")]
    BadConnectionString(#[source] tokio_postgres::Error),
    #[error(
        "cannot connect to PostgreSQL {target}: {message}{}",
        if .message.contains("TLS") { " (releasex connects without TLS; add sslmode=disable or sslmode=prefer to the connection string)" } else { "" }
    )]
    Connect { target: String, message: String },
    #[error("PostgreSQL query on releases_v1 failed: {message} (is this Helm's SQL storage database?)")]
    Query { message: String },
}

/// Reads every row of release `name` in `namespace`, as Helm's `Query` with
/// `name=NAME,owner=helm` does (namespace filter when non-empty).
pub async fn list_release_rows(connection: &str, namespace: &str, name: &str) -> Result<Vec<StoredRecord>, SqlError> {
    let config: tokio_postgres::Config = connection.parse().map_err(SqlError::BadConnectionString)?;
    let target = describe_target(&config);
    let (client, conn) = config
        .connect(tokio_postgres::NoTls)
        .await
        .map_err(|e| SqlError::Connect { target: target.clone(), message: crate::error_chain(&e) })?;
    let driver_task = tokio::spawn(conn);
    // Helm creates these columns unquoted, so PostgreSQL folds them to lower case.
    let rows = client
        .query(
            "SELECT key, body, name, namespace, version, status, owner, createdat, modifiedat \
             FROM releases_v1 WHERE name = $1 AND owner = 'helm' AND ($2 = '' OR namespace = $2) ORDER BY version",
            &[&name, &namespace],
        )
        .await
        .map_err(|e| SqlError::Query { message: crate::error_chain(&e) })?;
    drop(client);
    let _ = driver_task.await;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let get = |i: usize| row.try_get::<_, String>(i).map_err(|e| SqlError::Query { message: crate::error_chain(&e) });
        let key = get(0)?;
        let body = get(1)?;
        let version: i32 = row.try_get(4).map_err(|e| SqlError::Query { message: crate::error_chain(&e) })?;
        let created: i32 = row.try_get(7).unwrap_or(0);
        let modified: i32 = row.try_get(8).unwrap_or(0);
        let row_namespace = get(3)?;
        let labels = BTreeMap::from([
            ("name".to_string(), get(2)?),
            ("owner".to_string(), get(6)?),
            ("status".to_string(), get(5)?),
            ("version".to_string(), version.to_string()),
            ("createdAt".to_string(), created.to_string()),
            ("modifiedAt".to_string(), modified.to_string()),
        ]);
        out.push(StoredRecord {
            origin: Origin::SqlRow { namespace: row_namespace, key: key.clone() },
            driver: Driver::Sql,
            labels,
            object_name: Some(key),
            encoded: Encoded::HelmBase64(body.into_bytes()),
        });
    }
    Ok(out)
}

fn describe_target(config: &tokio_postgres::Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(s) => s.clone(),
            tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
        })
        .collect();
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{}:{port}/{}", hosts.join(","), config.get_dbname().unwrap_or(""))
}
