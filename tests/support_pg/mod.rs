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
//! - Logs every statement (`log_statement=all`) to a file the test can read.
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

pub struct PgServer {
    /// Kept for its Drop (removes the directory after the server stopped).
    dir: tempfile::TempDir,
    bin: PathBuf,
    data: PathBuf,
    log: PathBuf,
    port: u16,
    as_postgres_user: bool,
    child: Option<Child>,
}

impl PgServer {
    /// Initialises a cluster and starts it; panics (fails the test) when
    /// PostgreSQL is missing or does not come up.
    pub fn start() -> PgServer {
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

        let mut server = PgServer { dir, bin, data, log, port: 0, as_postgres_user, child: None };

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
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "logging_collector=off",
                "-c",
                "log_destination=stderr",
                "-c",
                "log_statement=all",
                "-c",
                "log_line_prefix=%m [%p] app=%a: ",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ])
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().expect("clone log file handle"))
            .stderr(log_file)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start postgres: {e}\n{INSTALL_HINT}"));
        server.child = Some(child);
        server.wait_until_ready();
        server
    }

    /// libpq keyword/value connection string (`host=… port=…`).
    pub fn keyword_connection(&self) -> String {
        format!("host=127.0.0.1 port={} user={USER} dbname={DATABASE} sslmode=disable", self.port)
    }

    /// URL form of the same connection.
    pub fn url_connection(&self) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{DATABASE}?sslmode=disable", self.port)
    }

    /// Connection string for the harness's own (setup) connections.
    pub fn setup_connection(&self, dbname: &str) -> String {
        format!("host=127.0.0.1 port={} user={USER} dbname={dbname} sslmode=disable application_name={SETUP_APPLICATION_NAME}", self.port)
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
