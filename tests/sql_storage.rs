//! `--driver sql` against a real, throwaway PostgreSQL server holding Helm's
//! `releases_v1` table, filled from the `secret-hook` fixture (real Helm
//! records). Proves that releasex finds the right rows (name, namespace,
//! owner), decodes them, and only ever sends SELECT statements.
//!
//! A second server speaks TLS only (certificates made by the `openssl` CLI at
//! test time) and proves lib/pq's `sslmode` meanings: the default encrypts
//! without checking the certificate, `verify-ca` checks the chain but not the
//! host name, `verify-full` checks both, `disable` is plaintext.
//!
//! Needs Debian's `postgresql` and `openssl` packages
//! (`apt-get install -y postgresql openssl`); fails (never skips) without them.

mod support_pg;

use std::io::{Read as _, Write as _};
use std::process::Output;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value;
use support_pg::PgServer;

const FIXTURE_LIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/releases/secret-hook.list.json");
const FIXTURE_RELEASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/releases/secret-hook.releases.json");

/// Helm's table, as `pkg/storage/driver/sql.go` creates it (columns unquoted).
const HELM_DDL: &str = "CREATE TABLE releases_v1 (
    key VARCHAR(90),
    type VARCHAR(64) NOT NULL,
    body TEXT NOT NULL,
    name VARCHAR(64) NOT NULL,
    namespace VARCHAR(64) NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    owner TEXT NOT NULL,
    createdAt INTEGER NOT NULL,
    modifiedAt INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(key, namespace)
)";

/// One row of `releases_v1`.
#[derive(Clone)]
struct Row {
    key: String,
    body: String,
    name: String,
    namespace: String,
    version: i32,
    status: String,
    created_at: i32,
    modified_at: i32,
}

#[test]
fn sql_driver_reads_helm_releases_v1_table_read_only() {
    let server = PgServer::start();
    let rows = fixture_rows();
    seed(&server, &rows);

    // Everything releasex does happens after this point in the server log.
    let log_offset = server.log_len();

    sql_driver_reads_latest_revision_of_release_in_namespace(&server);
    sql_driver_accepts_url_connection_string(&server);
    sql_driver_decodes_values_of_an_older_revision(&server);
    sql_history_lists_only_revisions_of_the_namespace(&server);
    sql_driver_filters_rows_by_namespace(&server);
    sql_driver_filters_rows_by_release_name(&server);
    sql_driver_and_connection_come_from_helm_environment(&server);
    sql_driver_reports_unknown_release(&server);
    sql_driver_reports_missing_table(&server);
    sql_driver_names_target_when_connection_refused();

    releasex_sent_only_select_statements(&server, log_offset);
}

#[test]
fn sql_driver_tls_follows_lib_pq_sslmode() {
    let server = PgServer::start_tls();
    seed(&server, &fixture_rows());
    let log_offset = server.log_len();

    default_sslmode_encrypts_without_checking_the_certificate(&server);
    default_sslmode_with_sslrootcert_checks_the_chain(&server);
    sslmode_prefer_uses_tls_when_the_server_offers_it(&server);
    verify_full_accepts_certificate_of_sslrootcert_ca_for_host_name_and_ip(&server);
    verify_full_rejects_certificate_of_another_ca(&server);
    verify_ca_rejects_certificate_of_another_ca(&server);
    verify_ca_accepts_host_name_missing_from_certificate(&server);
    verify_full_rejects_host_name_missing_from_certificate(&server);
    sslmode_disable_is_refused_by_tls_only_server(&server);
    url_connection_takes_sslmode_and_percent_encoded_sslrootcert(&server);
    client_certificates_are_refused_before_connecting(&server);

    releasex_sent_only_select_statements(&server, log_offset);
}

// ---------------------------------------------------------------- scenarios

fn sql_driver_reads_latest_revision_of_release_in_namespace(server: &PgServer) {
    let conn = server.keyword_connection();
    let json =
        releasex_json(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a", "-o", "json"], &[]);
    assert_eq!(json["release"], "demo", "{json:#}");
    assert_eq!(json["namespace"], "team-a", "{json:#}");
    assert_eq!(json["revision"], 3, "{json:#}");
    assert_eq!(json["status"], "deployed", "{json:#}");
    assert_eq!(json["source"], "SQL row releases_v1 team-a/sh.helm.release.v1.demo.v3", "{json:#}");
}

fn sql_driver_accepts_url_connection_string(server: &PgServer) {
    let url = server.url_connection();
    let json =
        releasex_json(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &url, "-n", "team-a", "-o", "json"], &[]);
    assert_eq!(json["release"], "demo", "{json:#}");
    assert_eq!(json["revision"], 3, "{json:#}");
    assert_eq!(json["status"], "deployed", "{json:#}");
}

fn sql_driver_decodes_values_of_an_older_revision(server: &PgServer) {
    let conn = server.keyword_connection();
    let values = releasex_json(
        &[
            "release",
            "decode",
            "demo",
            "--driver",
            "sql",
            "--sql-connection",
            &conn,
            "-n",
            "team-a",
            "--revision",
            "1",
            "--show",
            "values",
            "-o",
            "json",
        ],
        &[],
    );
    let releases: Value =
        serde_json::from_slice(&std::fs::read(FIXTURE_RELEASES).expect("read releases fixture")).expect("releases fixture is JSON");
    let rev1 = releases
        .as_array()
        .expect("releases fixture is a list")
        .iter()
        .find(|r| r["version"] == 1)
        .expect("revision 1 in releases fixture");
    assert_eq!(values, rev1["config"], "values of revision 1 read from SQL differ from the fixture's config");
}

fn sql_history_lists_only_revisions_of_the_namespace(server: &PgServer) {
    let conn = server.keyword_connection();
    let history =
        releasex_json(&["release", "history", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a", "-o", "json"], &[]);
    let entries = history["revisions"].as_array().unwrap_or_else(|| panic!("history -o json lists the revisions: {history:#}"));
    let revisions: Vec<i64> = entries.iter().map(|e| e["revision"].as_i64().expect("numeric revision")).collect();
    assert_eq!(revisions, [1, 2, 3], "{history:#}");
    let statuses: Vec<&str> = entries.iter().map(|e| e["status"].as_str().expect("status")).collect();
    assert_eq!(statuses, ["superseded", "superseded", "deployed"], "{history:#}");
    for entry in entries {
        let keys: Vec<&str> = entry.as_object().expect("history entry is an object").keys().map(String::as_str).collect();
        for wanted in ["revision", "updated", "status", "chart", "app_version", "apply_method", "description"] {
            assert!(keys.contains(&wanted), "history entry lacks {wanted:?}: {entry:#}");
        }
    }
    assert_eq!(entries[0]["chart"], "secret-hook-1.0.0", "{history:#}");
    assert_eq!(entries[0]["description"], "Install complete", "{history:#}");
}

fn sql_driver_filters_rows_by_namespace(server: &PgServer) {
    let conn = server.keyword_connection();
    let history =
        releasex_json(&["release", "history", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "elsewhere", "-o", "json"], &[]);
    let revisions: Vec<i64> = history["revisions"].as_array().expect("revisions").iter().map(|e| e["revision"].as_i64().expect("revision")).collect();
    assert_eq!(revisions, [1], "only the one row of namespace elsewhere: {history:#}");
    let json =
        releasex_json(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "elsewhere", "-o", "json"], &[]);
    assert_eq!(json["revision"], 1, "{json:#}");
    assert_eq!(json["source"], "SQL row releases_v1 elsewhere/sh.helm.release.v1.demo.v1", "{json:#}");
}

fn sql_driver_filters_rows_by_release_name(server: &PgServer) {
    let conn = server.keyword_connection();
    let json =
        releasex_json(&["release", "decode", "other", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a", "-o", "json"], &[]);
    assert_eq!(json["release"], "other", "{json:#}");
    assert_eq!(json["revision"], 4, "{json:#}");
    assert_eq!(json["source"], "SQL row releases_v1 team-a/sh.helm.release.v1.other.v4", "{json:#}");
}

fn sql_driver_and_connection_come_from_helm_environment(server: &PgServer) {
    let conn = server.keyword_connection();
    let env = [("HELM_DRIVER", "sql"), ("HELM_DRIVER_SQL_CONNECTION_STRING", conn.as_str())];
    let json = releasex_json(&["release", "decode", "demo", "-n", "team-a", "-o", "json"], &env);
    assert_eq!(json["release"], "demo", "{json:#}");
    assert_eq!(json["revision"], 3, "{json:#}");
    assert_eq!(json["status"], "deployed", "{json:#}");
    let history = releasex_json(&["release", "history", "demo", "-n", "team-a", "-o", "json"], &env);
    assert_eq!(history["revisions"].as_array().map(Vec::len), Some(3), "{history:#}");
}

fn sql_driver_reports_unknown_release(server: &PgServer) {
    let conn = server.keyword_connection();
    let out = releasex(&["release", "decode", "nosuch", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a", "-o", "json"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "unknown release: {}\nstderr: {stderr}", out.status);
    assert!(stderr.contains("error:"), "stderr names the error: {stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", String::from_utf8_lossy(&out.stdout));
}

fn sql_driver_reports_missing_table(server: &PgServer) {
    let conn = server.keyword_connection().replace("dbname=postgres", "dbname=empty");
    let out = releasex(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "database without releases_v1: {}\nstderr: {stderr}", out.status);
    assert!(stderr.contains("error:") && stderr.contains("releases_v1"), "stderr names the table: {stderr}");
}

fn sql_driver_names_target_when_connection_refused() {
    let port = support_pg::free_port();
    let conn = format!("host=127.0.0.1 port={port} user=postgres dbname=postgres sslmode=disable connect_timeout=5");
    let out = releasex(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "closed port: {}\nstderr: {stderr}", out.status);
    assert!(stderr.contains("error:"), "{stderr}");
    assert!(stderr.contains(&format!("127.0.0.1:{port}")), "message names the target host:port: {stderr}");
}

/// The statement log written while releasex ran holds SELECTs (so the check
/// is not vacuous) and nothing that writes or changes the schema.
fn releasex_sent_only_select_statements(server: &PgServer, log_offset: u64) {
    let log = server.log_since(log_offset);
    let statements = logged_statements(&log);
    assert!(statements.iter().any(|s| s.contains("FROM releases_v1")), "the server log shows releasex's query on releases_v1; log:\n{log}");
    const FORBIDDEN: [&str; 8] = ["INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT"];
    for statement in &statements {
        let upper = statement.to_ascii_uppercase();
        let first = upper.split_whitespace().next().unwrap_or("");
        assert_eq!(first, "SELECT", "releasex sent a statement that is not a SELECT: {statement}\nlog:\n{log}");
        let words: Vec<&str> = upper.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').collect();
        for bad in FORBIDDEN {
            assert!(!words.contains(&bad), "releasex sent {bad}: {statement}\nlog:\n{log}");
        }
    }
}

// ------------------------------------------------------------ TLS scenarios

/// lib/pq's default is `require`: TLS, any certificate (the test CA is in no
/// trust store, so a check would fail).
fn default_sslmode_encrypts_without_checking_the_certificate(server: &PgServer) {
    let conn = tls_connection(server, "host=127.0.0.1");
    assert!(!conn.contains("sslmode"), "{conn}");
    decodes_demo_over_tls(server, &conn);
}

/// With `sslrootcert` and no `sslmode`, lib/pq checks the chain (as verify-ca).
fn default_sslmode_with_sslrootcert_checks_the_chain(server: &PgServer) {
    let tls = server.tls();
    decodes_demo_over_tls(server, &tls_connection(server, &format!("host=127.0.0.1 sslrootcert={}", tls.ca.display())));
    let conn = tls_connection(server, &format!("host=127.0.0.1 sslrootcert={}", tls.other_ca.display()));
    let stderr = cannot_connect(server, &conn, "require");
    assert!(stderr.contains("certificate"), "message is about the certificate: {stderr}");
}

fn sslmode_prefer_uses_tls_when_the_server_offers_it(server: &PgServer) {
    decodes_demo_over_tls(server, &tls_connection(server, "host=127.0.0.1 sslmode=prefer"));
}

fn verify_full_accepts_certificate_of_sslrootcert_ca_for_host_name_and_ip(server: &PgServer) {
    let ca = server.tls().ca.display();
    let name = support_pg::TLS_SERVER_NAME;
    decodes_demo_over_tls(server, &tls_connection(server, &format!("host={name} sslmode=verify-full sslrootcert={ca}")));
    // The certificate's IP SAN matches too.
    decodes_demo_over_tls(server, &tls_connection(server, &format!("host=127.0.0.1 sslmode=verify-full sslrootcert={ca}")));
}

fn verify_full_rejects_certificate_of_another_ca(server: &PgServer) {
    let other_ca = server.tls().other_ca.display();
    let name = support_pg::TLS_SERVER_NAME;
    let conn = tls_connection(server, &format!("host={name} sslmode=verify-full sslrootcert={other_ca}"));
    let stderr = cannot_connect(server, &conn, "verify-full");
    assert!(stderr.contains("certificate"), "message is about the certificate: {stderr}");
}

fn verify_ca_rejects_certificate_of_another_ca(server: &PgServer) {
    let other_ca = server.tls().other_ca.display();
    let conn = tls_connection(server, &format!("host=127.0.0.1 sslmode=verify-ca sslrootcert={other_ca}"));
    let stderr = cannot_connect(server, &conn, "verify-ca");
    assert!(stderr.contains("certificate"), "message is about the certificate: {stderr}");
}

/// `host` names what the certificate must be valid for; `hostaddr` is where
/// the TCP connection goes. `db.invalid` is not in the certificate.
fn verify_ca_accepts_host_name_missing_from_certificate(server: &PgServer) {
    let ca = server.tls().ca.display();
    decodes_demo_over_tls(
        server,
        &tls_connection(server, &format!("host=db.invalid hostaddr=127.0.0.1 sslmode=verify-ca sslrootcert={ca}")),
    );
}

fn verify_full_rejects_host_name_missing_from_certificate(server: &PgServer) {
    let ca = server.tls().ca.display();
    let conn = tls_connection(server, &format!("host=db.invalid hostaddr=127.0.0.1 sslmode=verify-full sslrootcert={ca}"));
    let stderr = cannot_connect(server, &conn, "verify-full");
    assert!(stderr.contains("certificate") && stderr.contains("db.invalid"), "message names the certificate and the host name: {stderr}");
}

fn sslmode_disable_is_refused_by_tls_only_server(server: &PgServer) {
    let offset = server.log_len();
    let stderr = cannot_connect(server, &tls_connection(server, "host=127.0.0.1 sslmode=disable"), "disable");
    assert!(stderr.contains(&format!("127.0.0.1:{}", server.port())), "message names the target: {stderr}");
    // The server refused it (pg_hba `hostnossl … reject`), not the client.
    let log = server.log_since(offset);
    assert!(log.contains("no encryption"), "the server log shows the plaintext connection refused by pg_hba.conf:\n{log}");
}

fn url_connection_takes_sslmode_and_percent_encoded_sslrootcert(server: &PgServer) {
    let ca = server.tls().ca.to_str().expect("UTF-8 path");
    let url = format!(
        "postgres://{}@{}:{}/{}?sslmode=verify-full&sslrootcert={}",
        support_pg::USER,
        support_pg::TLS_SERVER_NAME,
        server.port(),
        support_pg::DATABASE,
        percent_encode(ca)
    );
    assert!(url.contains("%2F"), "{url}");
    decodes_demo_over_tls(server, &url);
}

fn client_certificates_are_refused_before_connecting(server: &PgServer) {
    let tls = server.tls();
    let conn = tls_connection(
        server,
        &format!("host=127.0.0.1 sslmode=verify-full sslrootcert={} sslcert={}", tls.ca.display(), tls.server_cert.display()),
    );
    let out = releasex(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("[sslcert] {}", stderr.trim_end());
    assert_eq!(out.status.code(), Some(1), "sslcert: {}\nstderr: {stderr}", out.status);
    assert!(stderr.contains("error:") && stderr.contains("client certificates are not supported"), "{stderr}");
}

// ------------------------------------------------------------------ helpers

/// `port=… user=… dbname=…` of the TLS server plus `settings` (host, ssl*).
fn tls_connection(server: &PgServer, settings: &str) -> String {
    format!("{settings} port={} user={} dbname={}", server.port(), support_pg::USER, support_pg::DATABASE)
}

/// `release decode demo` over `conn` succeeds, and the server logged that
/// connection as an SSL one.
fn decodes_demo_over_tls(server: &PgServer, conn: &str) {
    let offset = server.log_len();
    let json =
        releasex_json(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", conn, "-n", "team-a", "-o", "json"], &[]);
    assert_eq!((json["release"].as_str(), json["revision"].as_i64()), (Some("demo"), Some(3)), "{conn}: {json:#}");
    let log = server.log_since(offset);
    let authorized: Vec<&str> = log.lines().filter(|l| l.contains("connection authorized")).collect();
    assert_eq!(authorized.len(), 1, "one connection logged for {conn}:\n{log}");
    assert!(authorized[0].contains("SSL enabled"), "the server logged a TLS connection for {conn}:\n{log}");
}

/// `release decode demo` over `conn` fails to connect: exit 1, a message
/// naming `sslmode=MODE`; returns stderr (also printed, for `--nocapture`).
fn cannot_connect(server: &PgServer, conn: &str, mode: &str) -> String {
    let offset = server.log_len();
    let out = releasex(&["release", "decode", "demo", "--driver", "sql", "--sql-connection", conn, "-n", "team-a"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    eprintln!("[{conn}] {}", stderr.trim_end());
    assert_eq!(out.status.code(), Some(1), "{conn}: {}\nstderr: {stderr}", out.status);
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.contains("error: cannot connect to PostgreSQL"), "{stderr}");
    assert!(stderr.contains(&format!("(sslmode={mode})")), "message names sslmode={mode}: {stderr}");
    let log = server.log_since(offset);
    assert!(!log.contains("connection authorized"), "no session was opened for {conn}:\n{log}");
    stderr
}

/// Every byte outside RFC 3986's unreserved set as `%XX`.
fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// Statement texts of `LOG:  statement: …`, `LOG:  execute <name>: …` and
/// `STATEMENT:  …` (failed statements) entries, continuation lines of
/// multi-line statements included.
fn logged_statements(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_statement = false;
    for line in log.lines() {
        let entry_start = ["LOG:  ", "DETAIL:  ", "ERROR:  ", "HINT:  ", "WARNING:  ", "FATAL:  "].iter().any(|m| line.contains(m));
        if let Some((_, rest)) = line.split_once("LOG:  statement: ") {
            out.push(rest.to_string());
            in_statement = true;
        } else if let Some((_, rest)) = line.split_once("STATEMENT:  ") {
            // The text of a statement that failed (a failed Parse is not
            // logged as `execute`).
            out.push(rest.to_string());
            in_statement = true;
        } else if let Some((_, rest)) = line.split_once("LOG:  execute ") {
            let text = rest.split_once(": ").map_or(rest, |(_, t)| t);
            out.push(text.to_string());
            in_statement = true;
        } else if entry_start {
            in_statement = false;
        } else if in_statement && let Some(last) = out.last_mut() {
            last.push('\n');
            last.push_str(line);
        }
    }
    out
}

/// The three `demo` revisions of the fixture, `demo` rev 1 again in namespace
/// `elsewhere`, and a revision 4 of another release `other` in `team-a`.
fn fixture_rows() -> Vec<Row> {
    let list: Value = serde_json::from_slice(&std::fs::read(FIXTURE_LIST).expect("read fixture list")).expect("fixture list is JSON");
    let items = list["items"].as_array().expect("items");
    let mut rows: Vec<Row> = items
        .iter()
        .map(|secret| {
            let meta = &secret["metadata"];
            let labels = &meta["labels"];
            let label = |k: &str| labels[k].as_str().unwrap_or_else(|| panic!("label {k}")).to_string();
            // data.release is base64 of Helm's body string (base64 of gzip of JSON).
            let body = BASE64.decode(secret["data"]["release"].as_str().expect("data.release")).expect("data.release is base64");
            let modified_at: i32 = label("modifiedAt").parse().expect("modifiedAt");
            Row {
                key: meta["name"].as_str().expect("metadata.name").to_string(),
                body: String::from_utf8(body).expect("body is text"),
                name: label("name"),
                namespace: meta["namespace"].as_str().expect("metadata.namespace").to_string(),
                version: label("version").parse().expect("version"),
                status: label("status"),
                created_at: modified_at,
                modified_at,
            }
        })
        .collect();
    assert_eq!(rows.len(), 3, "secret-hook fixture holds 3 revisions");
    assert!(rows.iter().all(|r| r.name == "demo" && r.namespace == "team-a"));

    let rev1 = rows.iter().find(|r| r.version == 1).expect("revision 1").clone();
    let rev3 = rows.iter().find(|r| r.version == 3).expect("revision 3").clone();
    rows.push(Row { namespace: "elsewhere".into(), ..rev1 });

    // A real record of another release: revision 3 renamed `other`, version 4.
    let mut release = decode_body(&rev3.body);
    release["name"] = "other".into();
    release["version"] = 4.into();
    rows.push(Row { key: "sh.helm.release.v1.other.v4".into(), body: encode_body(&release), name: "other".into(), version: 4, ..rev3 });
    rows
}

fn decode_body(body: &str) -> Value {
    let gz = BASE64.decode(body).expect("body is base64");
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut json).expect("body is gzip");
    serde_json::from_slice(&json).expect("body is JSON")
}

fn encode_body(release: &Value) -> String {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&serde_json::to_vec(release).expect("serialize release")).expect("gzip");
    BASE64.encode(gz.finish().expect("gzip"))
}

/// Creates Helm's table, fills it, and an `empty` database without it.
fn seed(server: &PgServer, rows: &[Row]) {
    let conn = server.setup_connection(support_pg::DATABASE);
    support_pg::runtime().block_on(async {
        let (client, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls).await.expect("setup connection");
        let driver = tokio::spawn(connection);
        client.batch_execute(HELM_DDL).await.expect("create releases_v1");
        client.batch_execute("CREATE DATABASE empty").await.expect("create database empty");
        let insert = client
            .prepare(
                "INSERT INTO releases_v1 (key, type, body, name, namespace, version, status, owner, createdAt, modifiedAt) \
                 VALUES ($1, 'helm.sh/release.v1', $2, $3, $4, $5, $6, 'helm', $7, $8)",
            )
            .await
            .expect("prepare insert");
        for r in rows {
            client
                .execute(&insert, &[&r.key, &r.body, &r.name, &r.namespace, &r.version, &r.status, &r.created_at, &r.modified_at])
                .await
                .unwrap_or_else(|e| panic!("insert {}/{}: {e}", r.namespace, r.key));
        }
        drop(client);
        let _ = driver.await;
    });
}

/// Runs the real binary with a clean environment (no HELM_*, no KUBECONFIG).
fn releasex(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = assert_cmd::Command::cargo_bin("kubectl-releasex").expect("kubectl-releasex binary");
    cmd.env_clear();
    for var in ["PATH", "HOME"] {
        if let Some(v) = std::env::var_os(var) {
            cmd.env(var, v);
        }
    }
    cmd.env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(args).timeout(Duration::from_secs(30));
    cmd.output().expect("run kubectl-releasex")
}

/// Runs the binary, expects success, and parses stdout as JSON.
fn releasex_json(args: &[&str], env: &[(&str, &str)]) -> Value {
    let out = releasex(args, env);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "kubectl-releasex {args:?} failed ({}):\nstdout: {stdout}\nstderr: {stderr}", out.status);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("kubectl-releasex {args:?} printed no JSON ({e}):\n{stdout}\nstderr: {stderr}"))
}
