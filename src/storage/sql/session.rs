//! One read-only session per host: our own socket (TCP or Unix), guarded
//! ([`super::guard`]), handed to tokio-postgres with `Config::connect_raw`,
//! every phase under a deadline.
//!
//! Deadlines: `connect_timeout` bounds the whole connection establishment to
//! one host (TCP connect, TLS handshake, start-up and authentication), as
//! lib/pq applies it (`dial` sets the deadline on the connection until
//! start-up is done; tokio-postgres itself only bounds the TCP connect). The
//! query and every row it returns then have [`QUERY_TIMEOUT`].

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio_postgres::config::Host;
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres::{Client, Config, Connection, NoTls, Row};

use super::SqlError;
use super::guard::{Guarded, GuardedTls, Tripwire};

/// How long the query may take, from sending it to its last row. Helm's
/// lib/pq has no such bound; ours keeps a server that stalls after
/// authenticating from hanging the command.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(30);

/// Helm creates these columns unquoted, so PostgreSQL folds them to lower case.
const QUERY: &str = "SELECT key, body, name, namespace, version, status, owner, createdat, modifiedat \
     FROM releases_v1 WHERE name = $1 AND owner = 'helm' AND ($2 = '' OR namespace = $2) ORDER BY version";

/// What a session needs besides the tokio-postgres configuration.
pub struct Plan<'a> {
    pub tls: Option<rustls::ClientConfig>,
    /// `None`: `connect_timeout=0`, lib/pq's "wait indefinitely".
    pub connect_timeout: Option<Duration>,
    pub query_timeout: Duration,
    /// Turns a connection failure into words (certificate hints).
    pub connect_err: &'a dyn Fn(&str, &(dyn std::error::Error + 'static)) -> SqlError,
}

/// The rows of release `name`, from the first host that answers; the error
/// of the last host otherwise (tokio-postgres tries hosts the same way).
pub async fn query_rows(config: &Config, plan: &Plan<'_>, namespace: &str, name: &str) -> Result<Vec<Row>, SqlError> {
    let hosts = config.get_hosts();
    let addrs = config.get_hostaddrs();
    let count = hosts.len().max(addrs.len());
    if count == 0 {
        return Err(SqlError::BadConnectionString("no host given".into()));
    }
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
    fn connect_timed_out(&self) -> SqlError {
        let seconds = self.plan.connect_timeout.map_or(0, |d| d.as_secs());
        SqlError::Timeout {
            target: self.target.to_string(),
            what: format!(
                "connecting (TCP connect, TLS and start-up) took longer than connect_timeout={seconds}s{}",
                if seconds == super::DEFAULT_CONNECT_TIMEOUT.as_secs() { " (the default)" } else { "" }
            ),
        }
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
        match tokio::time::timeout(self.plan.query_timeout, drive(client, connection, self.namespace, self.name)).await {
            Err(_) => Err(self.breach_or(SqlError::Timeout {
                target: self.target.to_string(),
                what: format!("the query on releases_v1 got no complete answer within {} s", self.plan.query_timeout.as_secs()),
            })),
            Ok(Err(e)) => Err(self.breach_or(SqlError::Query { message: crate::error_chain(&e) })),
            Ok(Ok(rows)) => Ok(rows),
        }
    }
}

/// Runs the query while polling the connection in the same task (no spawn:
/// the connection ends with the query).
async fn drive<S, T>(client: Client, connection: Connection<S, T>, namespace: &str, name: &str) -> Result<Vec<Row>, tokio_postgres::Error>
where
    S: AsyncRead + AsyncWrite + Unpin,
    T: AsyncRead + AsyncWrite + Unpin,
{
    let mut connection = std::pin::pin!(connection);
    let rows = {
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&name, &namespace];
        let mut query = std::pin::pin!(client.query(QUERY, &params));
        tokio::select! {
            rows = &mut query => rows,
            end = &mut connection => match end {
                Err(e) => Err(e),
                // Closed after answering: the answer is in the client's queue.
                Ok(()) => query.await,
            },
        }
    }?;
    drop(client);
    // Lets tokio-postgres send Terminate and close; the rows are ours already.
    let _ = tokio::time::timeout(Duration::from_secs(1), connection).await;
    Ok(rows)
}
