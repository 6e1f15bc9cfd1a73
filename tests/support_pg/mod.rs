//! A throwaway PostgreSQL server for integration tests, started from
//! Debian's `postgresql` package (`/usr/lib/postgresql/<version>/bin`).
//!
//! - Never skips: without PostgreSQL installed the test fails and says how
//!   to install it.
//! - PostgreSQL refuses to run as root, so when the test runs as root (CI),
//!   `initdb` and `postgres` run as the `postgres` system user through
//!   `runuser -u postgres --`, in a temporary directory chowned to that user.
//! - Listens on 127.0.0.1 on a free port, unix socket inside the temporary
//!   directory, trust authentication, superuser `postgres`, database `postgres`.
//!   The harness's own connections (readiness, seeding) use the unix socket.
//! - Logs every statement (`log_statement=all`) and every connection
//!   (`log_connections=on`: whether it used SSL) to a file the test can read.
//! - [`PgServer::start_tls`]: TLS on, with certificates made at test time by
//!   the `openssl` CLI (see [`TlsFiles`]), and a `pg_hba.conf` that accepts
//!   TCP connections only over TLS (`hostssl … trust`, `hostnossl … reject`).
//! - Stopped (`pg_ctl stop -m immediate`, then kill as a fallback) when the
//!   guard is dropped, including when the test panics.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Name of the database role and database the tests connect with.
pub const USER: &str = "postgres";
pub const DATABASE: &str = "postgres";
/// `application_name` of the harness's own connections (visible in the log).
pub const SETUP_APPLICATION_NAME: &str = "releasex-test-setup";

const INSTALL_HINT: &str = "PostgreSQL server binaries are needed for this test: install them with \
     `apt-get install -y postgresql` (Debian/Ubuntu; provides /usr/lib/postgresql/<version>/bin)";
const OPENSSL_HINT: &str = "the `openssl` command line tool is needed to make the test certificates: install it with \
     `apt-get install -y openssl` (Debian/Ubuntu; provides /usr/bin/openssl)";

/// `pg_hba.conf` of the TLS server: the unix socket (harness) as usual, TCP
/// only with TLS; a plaintext TCP connection is refused by the server.
const TLS_ONLY_HBA: &str = "local all all trust
hostssl all all 127.0.0.1/32 trust
hostnossl all all 127.0.0.1/32 reject
";

/// The name the server certificate is made for (besides IP 127.0.0.1).
pub const TLS_SERVER_NAME: &str = "localhost";

/// Certificates of [`PgServer::start_tls`], all PEM.
pub struct TlsFiles {
    /// The test CA that signed the server certificate.
    pub ca: PathBuf,
    /// A second, unrelated CA (signed nothing the server presents).
    pub other_ca: PathBuf,
    /// Server certificate: SAN `DNS:localhost`, `IP:127.0.0.1`.
    pub server_cert: PathBuf,
    /// Its key: owned by the server's user, mode 0600.
    pub server_key: PathBuf,
}

pub struct PgServer {
    /// Kept for its Drop (removes the directory after the server stopped).
    dir: tempfile::TempDir,
    bin: PathBuf,
    data: PathBuf,
    log: PathBuf,
    port: u16,
    as_postgres_user: bool,
    tls: Option<TlsFiles>,
    child: Option<Child>,
}

impl PgServer {
    /// Initialises a cluster and starts it (no TLS); panics (fails the test)
    /// when PostgreSQL is missing or does not come up.
    pub fn start() -> PgServer {
        PgServer::start_inner(false)
    }

    /// Like [`PgServer::start`], with `ssl=on` and certificates from
    /// [`PgServer::tls`]; TCP connections without TLS are rejected.
    pub fn start_tls() -> PgServer {
        PgServer::start_inner(true)
    }

    fn start_inner(with_tls: bool) -> PgServer {
        let bin = newest_postgres_bin_dir();
        let as_postgres_user = effective_uid() == 0;

        // Under /tmp rather than $TMPDIR: every ancestor must be traversable
        // by the `postgres` user, and the unix socket path must stay short.
        let base = if Path::new("/tmp").is_dir() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
        let dir = tempfile::Builder::new().prefix("releasex-pg-").tempdir_in(&base).expect("create temporary directory");
        set_mode(dir.path(), 0o755);
        if as_postgres_user {
            let (uid, gid) = postgres_user_ids();
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .unwrap_or_else(|e| panic!("chown {} to the postgres user: {e}", dir.path().display()));
        }
        let data = dir.path().join("data");
        let log = dir.path().join("postgres.log");

        let mut server = PgServer { dir, bin, data, log, port: 0, as_postgres_user, tls: None, child: None };

        let initdb = server
            .pg_command("initdb")
            .arg("-D")
            .arg(&server.data)
            .args(["--auth=trust", "--username", USER, "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run initdb: {e}\n{INSTALL_HINT}"));
        assert!(
            initdb.status.success(),
            "initdb failed ({}):\n{}{}",
            initdb.status,
            String::from_utf8_lossy(&initdb.stdout),
            String::from_utf8_lossy(&initdb.stderr)
        );

        let mut settings: Vec<String> = [
            "listen_addresses=127.0.0.1",
            "logging_collector=off",
            "log_destination=stderr",
            "log_statement=all",
            "log_connections=on",
            "log_line_prefix=%m [%p] app=%a: ",
            "fsync=off",
            "synchronous_commit=off",
            "full_page_writes=off",
        ]
        .map(String::from)
        .into();
        if with_tls {
            let tls = make_certificates(&server.dir.path().join("tls"), server.as_postgres_user);
            let hba = server.data.join("pg_hba.conf");
            // Overwritten in place: keeps initdb's owner and mode.
            std::fs::write(&hba, TLS_ONLY_HBA).unwrap_or_else(|e| panic!("write {}: {e}", hba.display()));
            settings.push("ssl=on".into());
            settings.push(format!("ssl_cert_file={}", tls.server_cert.display()));
            settings.push(format!("ssl_key_file={}", tls.server_key.display()));
            server.tls = Some(tls);
        }

        server.port = free_port();
        // Opened by us and inherited by the server: readable whoever runs it.
        let log_file = File::create(&server.log).expect("create server log file");
        let socket_dir = server.dir.path().to_path_buf();
        let child = server
            .pg_command("postgres")
            .arg("-D")
            .arg(&server.data)
            .args(["-p", &server.port.to_string()])
            .arg("-k")
            .arg(&socket_dir)
            .args(settings.iter().flat_map(|s| ["-c", s.as_str()]))
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().expect("clone log file handle"))
            .stderr(log_file)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start postgres: {e}\n{INSTALL_HINT}"));
        server.child = Some(child);
        server.wait_until_ready();
        server
    }

    /// TCP port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The certificates of a server from [`PgServer::start_tls`].
    pub fn tls(&self) -> &TlsFiles {
        self.tls.as_ref().expect("server was started with PgServer::start_tls")
    }

    /// libpq keyword/value connection string (`host=… port=…`), plaintext.
    pub fn keyword_connection(&self) -> String {
        format!("host=127.0.0.1 port={} user={USER} dbname={DATABASE} sslmode=disable", self.port)
    }

    /// URL form of the same connection.
    pub fn url_connection(&self) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{DATABASE}?sslmode=disable", self.port)
    }

    /// Connection string for the harness's own (setup) connections: over the
    /// unix socket, so they work whatever `pg_hba.conf` says about TCP.
    pub fn setup_connection(&self, dbname: &str) -> String {
        format!(
            "host={} port={} user={USER} dbname={dbname} sslmode=disable application_name={SETUP_APPLICATION_NAME}",
            self.dir.path().display(),
            self.port
        )
    }

    /// Current length of the server log; pass it to [`PgServer::log_since`].
    pub fn log_len(&self) -> u64 {
        std::fs::metadata(&self.log).map(|m| m.len()).unwrap_or(0)
    }

    /// What the server logged after `offset` (from [`PgServer::log_len`]).
    pub fn log_since(&self, offset: u64) -> String {
        let mut f = File::open(&self.log).expect("open server log");
        f.seek(SeekFrom::Start(offset)).expect("seek server log");
        let mut s = String::new();
        f.read_to_string(&mut s).expect("read server log");
        s
    }

    /// `bin/NAME`, run as the `postgres` user when we are root.
    fn pg_command(&self, name: &str) -> Command {
        let program = self.bin.join(name);
        let mut cmd = if self.as_postgres_user {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            Command::new(program)
        };
        // The postgres user may not be allowed into the test's directory.
        cmd.current_dir(self.dir.path());
        cmd.env_remove("PGDATA").env_remove("PGPORT").env_remove("PGHOST");
        cmd
    }

    /// Polls a real connection: at most 100 × 100 ms.
    fn wait_until_ready(&mut self) {
        let runtime = runtime();
        let conn = self.setup_connection(DATABASE);
        let mut last_error = String::new();
        for _ in 0..100 {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!("postgres exited during startup ({status}); its log:\n{}", self.log_since(0));
            }
            match runtime.block_on(async {
                let (client, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls).await?;
                let driver = tokio::spawn(connection);
                let r = client.simple_query("SELECT 1").await.map(|_| ());
                drop(client);
                let _ = driver.await;
                r
            }) {
                Ok(()) => return,
                Err(e) => last_error = e.to_string(),
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "postgres on 127.0.0.1:{} did not accept connections within 10 s (last error: {last_error}); its log:\n{}",
            self.port,
            self.log_since(0)
        );
    }

    fn postmaster_pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?.lines().next()?.trim().parse().ok()
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = self.log_since(0);
            let tail: Vec<&str> = log.lines().rev().take(60).collect();
            eprintln!("--- last lines of the PostgreSQL log ({}) ---", self.log.display());
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
        let Some(mut child) = self.child.take() else { return };
        let pid = self.postmaster_pid();
        let stopped = self
            .pg_command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["stop", "-m", "immediate", "-w", "-t", "10"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !stopped && let Some(pid) = pid {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
}

/// A small runtime for the harness's own queries.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime")
}

/// The `bin` directory of the newest `/usr/lib/postgresql/<version>`.
fn newest_postgres_bin_dir() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let entries = std::fs::read_dir(root).unwrap_or_else(|e| panic!("cannot read {}: {e}\n{INSTALL_HINT}", root.display()));
    let mut found: Vec<(Vec<u64>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let version: Vec<u64> = name.split('.').map(str::parse).collect::<Result<_, _>>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("postgres").is_file() && bin.join("pg_ctl").is_file()).then_some((version, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => panic!("no /usr/lib/postgresql/<version>/bin with initdb, postgres and pg_ctl\n{INSTALL_HINT}"),
    }
}

/// Effective uid, from /proc (no libc: this crate forbids unsafe code).
fn effective_uid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|rest| rest.split_whitespace().nth(1))
        .and_then(|euid| euid.parse().ok())
        .expect("effective uid in /proc/self/status")
}

/// uid and gid of the `postgres` system user created by Debian's package.
fn postgres_user_ids() -> (u32, u32) {
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").args([flag, "postgres"]).output().expect("run `id`");
        assert!(
            out.status.success(),
            "running as root but there is no `postgres` system user ({}); {INSTALL_HINT}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        String::from_utf8_lossy(&out.stdout).trim().parse().expect("numeric id")
    };
    (id("-u"), id("-g"))
}

/// Makes, in `dir`, a test CA (`ca.pem`), a server certificate it signed for
/// `localhost` and 127.0.0.1 (`server.pem`, key `server.key`), and an
/// unrelated CA (`other-ca.pem`), with the `openssl` CLI. EC P-256 keys (fast
/// to make), valid for two days. The server key ends up mode 0600 and, when
/// `for_postgres_user`, owned by the `postgres` user (PostgreSQL refuses a
/// key that others can read).
fn make_certificates(dir: &Path, for_postgres_user: bool) -> TlsFiles {
    std::fs::create_dir(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    set_mode(dir, 0o755);
    // Our own configuration: independent of the system's openssl.cnf.
    let config = dir.join("openssl.cnf");
    std::fs::write(
        &config,
        format!(
            "[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:{TLS_SERVER_NAME},IP:127.0.0.1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"
        ),
    )
    .expect("write openssl.cnf");
    let config = config.to_str().expect("UTF-8 temporary path");
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8 temporary path").to_string();
    let new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

    let self_signed_ca = |name: &str, subject: &str| {
        let (key, pem) = (path(&format!("{name}.key")), path(&format!("{name}.pem")));
        let mut args = vec!["req", "-x509", "-config", config, "-extensions", "ca_ext"];
        args.extend(new_key);
        args.extend(["-keyout", &key, "-out", &pem, "-days", "2", "-subj", subject]);
        openssl(&args);
        (key, pem)
    };
    let (ca_key, ca) = self_signed_ca("ca", "/CN=releasex test CA");
    let (_, other_ca) = self_signed_ca("other-ca", "/CN=releasex unrelated test CA");

    let (server_key, server_csr, server_cert) = (path("server.key"), path("server.csr"), path("server.pem"));
    let subject = format!("/CN={TLS_SERVER_NAME}");
    let mut args = vec!["req", "-new", "-config", config];
    args.extend(new_key);
    args.extend(["-keyout", &server_key, "-out", &server_csr, "-subj", &subject]);
    openssl(&args);
    openssl(&[
        "x509",
        "-req",
        "-in",
        &server_csr,
        "-CA",
        &ca,
        "-CAkey",
        &ca_key,
        "-set_serial",
        "4242",
        "-days",
        "2",
        "-extfile",
        config,
        "-extensions",
        "server_ext",
        "-out",
        &server_cert,
    ]);

    for cert in [&ca, &other_ca, &server_cert] {
        set_mode(Path::new(cert), 0o644);
    }
    let server_key = PathBuf::from(server_key);
    set_mode(&server_key, 0o600);
    if for_postgres_user {
        let (uid, gid) = postgres_user_ids();
        std::os::unix::fs::chown(&server_key, Some(uid), Some(gid))
            .unwrap_or_else(|e| panic!("chown {} to the postgres user: {e}", server_key.display()));
    }
    TlsFiles { ca: ca.into(), other_ca: other_ca.into(), server_cert: server_cert.into(), server_key }
}

/// Runs `openssl ARGS`; panics with its output when it fails, or with how to
/// install it when it is missing.
fn openssl(args: &[&str]) {
    let out = Command::new("openssl").args(args).stdin(Stdio::null()).output().unwrap_or_else(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            panic!("cannot run openssl: {e}\n{OPENSSL_HINT}")
        }
        panic!("cannot run openssl: {e}")
    });
    assert!(
        out.status.success(),
        "openssl {} failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {mode:o} {}: {e}", path.display()));
}

/// A port nothing listens on right now (bound, then released).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}
