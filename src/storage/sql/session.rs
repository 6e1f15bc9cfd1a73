//! One read-only session per host: our own socket (TCP or Unix), guarded
//! ([`super::guard`]), handed to tokio-postgres with `Config::connect_raw`,
//! every phase under a deadline.
//!
//! Deadlines, all from `connect_timeout` (default 10 s; `0` none, as lib/pq):
//! it bounds the whole connection establishment to one host (TCP connect,
//! TLS handshake, start-up and authentication), as lib/pq applies it (`dial`
//! sets the deadline on the connection until start-up is done; tokio-postgres
//! itself only bounds the TCP connect). lib/pq bounds nothing after that; we
//! also end the query when the server sends nothing for `connect_timeout`,
//! and when the whole answer takes longer than [`QUERY_TIMEOUT_FACTOR`] times
//! it (30 s by default), so one setting, which Helm reads too, tunes all.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio_postgres::config::Host;
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres::{Client, Config, Connection, NoTls, Row};

use super::SqlError;
use super::guard::{Guarded, GuardedTls, Tripwire};

/// How many times `connect_timeout` the query may take, from sending it to
/// its last row: a server that drips bytes stays under the silence bound.
pub const QUERY_TIMEOUT_FACTOR: u32 = 3;

/// Helm creates these columns unquoted, so PostgreSQL folds them to lower case.
const QUERY: &str = "SELECT key, body, name, namespace, version, status, owner, createdat, modifiedat \
     FROM releases_v1 WHERE name = $1 AND owner = 'helm' AND ($2 = '' OR namespace = $2) ORDER BY version";

/// What a session needs besides the tokio-postgres configuration.
pub struct Plan<'a> {
    pub tls: Option<rustls::ClientConfig>,
    /// `None`: `connect_timeout=0`, lib/pq's "wait indefinitely".
    pub connect_timeout: Option<Duration>,
    /// Turns a connection failure into words (certificate hints).
    pub connect_err: &'a dyn Fn(&str, &(dyn std::error::Error + 'static)) -> SqlError,
}

/// The rows of release `name`, from the first host that answers; the error
/// of the last host otherwise (tokio-postgres tries hosts the same way).
pub async fn query_rows(config: &Config, plan: &Plan<'_>, namespace: &str, name: &str) -> Result<Vec<Row>, SqlError> {
    // lib/pq connects to localhost when the string names no host (conn.go
    // sets the default before parsing); tokio-postgres would refuse.
    let localhost = [Host::Tcp("localhost".to_string())];
    let addrs = config.get_hostaddrs();
    let hosts = if config.get_hosts().is_empty() && addrs.is_empty() { &localhost[..] } else { config.get_hosts() };
    let count = hosts.len().max(addrs.len());
    let mut last = None;
    for i in 0..count {
        let port = config.get_ports().get(i).or_else(|| config.get_ports().first()).copied().unwrap_or(5432);
        let host = hosts.get(i).cloned().unwrap_or_else(|| Host::Tcp(addrs[i].to_string()));
        match query_host(config, plan, &host, addrs.get(i).copied(), port, namespace, name).await {
            Ok(rows) => return Ok(rows),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| SqlError::BadConnectionString("no host given".into())))
}

fn describe(host: &Host, port: u16, config: &Config) -> String {
    let host = match host {
        Host::Tcp(h) => h.clone(),
        Host::Unix(p) => p.display().to_string(),
    };
    format!("{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

async fn query_host(
    config: &Config,
    plan: &Plan<'_>,
    host: &Host,
    hostaddr: Option<std::net::IpAddr>,
    port: u16,
    namespace: &str,
    name: &str,
) -> Result<Vec<Row>, SqlError> {
    let target = describe(host, port, config);
    let tripwire = Arc::new(Tripwire::default());
    let ask = Ask { config, plan, target: &target, tripwire: &tripwire, namespace, name };
    match host {
        Host::Tcp(hostname) => {
            let open = async {
                let socket = match hostaddr {
                    Some(ip) => tokio::net::TcpStream::connect((ip, port)).await,
                    None => tokio::net::TcpStream::connect((hostname.as_str(), port)).await,
                };
                socket.map_err(|e| (plan.connect_err)(&target, &e))
            };
            let socket = within(plan.connect_timeout, open).await.map_err(|_| ask.connect_timed_out())??;
            let _ = socket.set_nodelay(true);
            match &plan.tls {
                None => ask.run(socket, NoTls).await,
                Some(tls) => {
                    let mut make = tokio_postgres_rustls::MakeRustlsConnect::new(tls.clone());
                    let connector = match MakeTlsConnect::<Guarded<tokio::net::TcpStream>>::make_tls_connect(&mut make, hostname) {
                        Ok(connector) => connector,
                        Err(never) => match never {},
                    };
                    ask.run(socket, GuardedTls::new(connector, tripwire.clone())).await
                }
            }
        }
        // lib/pq turns TLS off on Unix sockets (PostgreSQL offers none there).
        Host::Unix(dir) => {
            let path = dir.join(format!(".s.PGSQL.{port}"));
            let open = async {
                tokio::net::UnixStream::connect(&path).await.map_err(|e| (plan.connect_err)(&target, &e))
            };
            let socket = within(plan.connect_timeout, open).await.map_err(|_| ask.connect_timed_out())??;
            let mut plain = config.clone();
            plain.ssl_mode(tokio_postgres::config::SslMode::Disable);
            Ask { config: &plain, ..ask }.run(socket, NoTls).await
        }
    }
}

async fn within<F: std::future::Future>(limit: Option<Duration>, fut: F) -> Result<F::Output, tokio::time::error::Elapsed> {
    match limit {
        Some(limit) => tokio::time::timeout(limit, fut).await,
        None => Ok(fut.await),
    }
}

/// One attempt on one host.
#[derive(Clone, Copy)]
struct Ask<'a> {
    config: &'a Config,
    plan: &'a Plan<'a>,
    target: &'a str,
    tripwire: &'a Arc<Tripwire>,
    namespace: &'a str,
    name: &'a str,
}

impl Ask<'_> {
    fn seconds(&self) -> u64 {
        self.plan.connect_timeout.map_or(0, |d| d.as_secs())
    }

    fn timed_out(&self, what: String) -> SqlError {
        SqlError::Timeout { target: self.target.to_string(), what }
    }

    fn connect_timed_out(&self) -> SqlError {
        self.timed_out(format!("connecting (TCP connect, TLS and start-up) took longer than {} s (connect_timeout)", self.seconds()))
    }

    /// A breach of the caps, when there was one, says more than the error
    /// tokio-postgres made of it.
    fn breach_or(&self, other: SqlError) -> SqlError {
        match self.tripwire.breach() {
            Some(breach) => SqlError::TooLarge { target: self.target.to_string(), breach },
            None => other,
        }
    }

    async fn run<S, T>(self, socket: S, tls: T) -> Result<Vec<Row>, SqlError>
    where
        S: AsyncRead + AsyncWrite + Unpin,
        T: TlsConnect<Guarded<S>>,
        T::Stream: Unpin,
    {
        let guarded = Guarded::socket(socket, self.tripwire.clone());
        let handshake = within(self.plan.connect_timeout, self.config.connect_raw(guarded, tls));
        let (client, connection) = match handshake.await {
            Err(_) => return Err(self.breach_or(self.connect_timed_out())),
            Ok(Err(e)) => return Err(self.breach_or((self.plan.connect_err)(self.target, &e))),
            Ok(Ok(pair)) => pair,
        };
        self.tripwire.hear_now();
        let mut connection = std::pin::pin!(connection);
        let query = async {
            tokio::select! {
                rows = answer(&client, connection.as_mut(), self.namespace, self.name) => {
                    rows.map_err(|e| self.breach_or(SqlError::Query { message: crate::error_chain(&e) }))
                }
                () = silence(self.tripwire, self.plan.connect_timeout) => Err(self.timed_out(format!(
                    "the server sent nothing for {} s (connect_timeout) while answering the query on releases_v1",
                    self.seconds()
                ))),
            }
        };
        let whole = self.plan.connect_timeout.map(|t| t * QUERY_TIMEOUT_FACTOR);
        let rows = within(whole, query).await.unwrap_or_else(|_| {
            Err(self.breach_or(self.timed_out(format!(
                "the query on releases_v1 was not answered in full within {} s ({QUERY_TIMEOUT_FACTOR} x connect_timeout)",
                self.seconds() * u64::from(QUERY_TIMEOUT_FACTOR)
            ))))
        })?;
        drop(client);
        // Lets tokio-postgres send Terminate and close; the rows are ours already.
        let _ = tokio::time::timeout(Duration::from_secs(1), connection).await;
        Ok(rows)
    }
}

/// Ends when the server has sent nothing for `idle` (never without a bound).
async fn silence(tripwire: &Tripwire, idle: Option<Duration>) {
    let Some(idle) = idle else { return std::future::pending().await };
    loop {
        let deadline = tripwire.last_heard() + idle;
        if std::time::Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep_until(deadline.into()).await;
    }
}

/// Runs the query while polling the connection in the same task (no spawn:
/// the connection ends with the query).
async fn answer<S, T>(
    client: &Client,
    connection: Pin<&mut Connection<S, T>>,
    namespace: &str,
    name: &str,
) -> Result<Vec<Row>, tokio_postgres::Error>
where
    S: AsyncRead + AsyncWrite + Unpin,
    T: AsyncRead + AsyncWrite + Unpin,
{
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&name, &namespace];
    let mut query = std::pin::pin!(client.query(QUERY, &params));
    tokio::select! {
        rows = &mut query => rows,
        end = connection => match end {
            Err(e) => Err(e),
            // Closed after answering: the answer is in the client's queue.
            Ok(()) => query.await,
        },
    }
}
