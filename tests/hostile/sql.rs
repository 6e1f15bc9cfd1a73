//! `--driver sql` against fake PostgreSQL endpoints on 127.0.0.1 that stall
//! or send oversized answers. Bounds (docs/release.md, "Helm's SQL driver"): with
//! `connect_timeout=2`, connecting must finish within 2 s, the server may not
//! be silent for more than 2 s while answering, and the whole query may take
//! 3 x 2 = 6 s; nothing the server sends may exceed 256 MiB, and a message
//! header announcing more fails at once. Each case asserts exit code 1, an
//! error naming the server and what timed out or was too large, the wall
//! time (the documented bound plus slack for a debug build on busy cores) and
//! the peak memory.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use crate::support::{Limits, run};

/// The connection timeout the cases use, in seconds.
const TIMEOUT: f64 = 2.0;
/// What a debug build on two busy cores may add to a documented bound.
const SLACK: f64 = 5.0;
/// Peak memory of a case that the server never lets past a few KiB.
const SMALL_MIB: u64 = 64;

/// A fake server: every connection accepted on a fresh loopback port is
/// handed to `serve` on its own thread.
fn fake_postgres(serve: fn(TcpStream)) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("local addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve(stream));
        }
    });
    port
}

fn decode_from(port: u16) -> crate::support::Outcome {
    let conn = format!("host=127.0.0.1 port={port} user=helm dbname=helm sslmode=disable connect_timeout={TIMEOUT}");
    let args = ["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"];
    // The harness's own kill bound; each case asserts its tighter one.
    run(&args, &[], None, Limits { wall_seconds: 3.0 * TIMEOUT + SLACK + 5.0, max_rss_mib: 1024 })
}

/// Reads what the client sends until it hangs up.
fn drain(mut stream: TcpStream) {
    let _ = std::io::copy(&mut stream, &mut std::io::sink());
}

/// Reads the client's start-up message (a length that counts itself, then
/// the body; sslmode=disable sends no SSLRequest first).
fn read_startup(stream: &mut TcpStream) -> Option<()> {
    let mut len = [0u8; 4];
    stream.read_exact(&mut len).ok()?;
    let mut body = vec![0u8; (u32::from_be_bytes(len) as usize).saturating_sub(4)];
    stream.read_exact(&mut body).ok()
}

fn message(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend_from_slice(&(body.len() as u32 + 4).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// AuthenticationOk then ReadyForQuery (idle): the client is in.
fn authenticate(stream: &mut TcpStream) -> Option<()> {
    read_startup(stream)?;
    let mut out = message(b'R', &0u32.to_be_bytes());
    out.extend(message(b'Z', b"I"));
    stream.write_all(&out).ok()
}

/// Reads one tagged message from the client; its tag.
fn read_message(stream: &mut TcpStream) -> Option<u8> {
    let mut header = [0u8; 5];
    stream.read_exact(&mut header).ok()?;
    let mut body = vec![0u8; (u32::from_be_bytes([header[1], header[2], header[3], header[4]]) as usize).saturating_sub(4)];
    stream.read_exact(&mut body).ok()?;
    Some(header[0])
}

/// Reads client messages up to and including Sync ('S').
fn read_until_sync(stream: &mut TcpStream) -> Option<()> {
    while read_message(stream)? != b'S' {}
    Some(())
}

/// Answers tokio-postgres's prepare of releasex's SELECT (Parse, Describe,
/// Sync: ParseComplete, two text parameters, nine columns), then its Bind,
/// Execute, Sync with BindComplete; the rows are the caller's.
fn answer_prepare_and_bind(stream: &mut TcpStream) -> Option<()> {
    read_until_sync(stream)?;
    let mut out = message(b'1', b"");
    let mut params = 2u16.to_be_bytes().to_vec();
    params.extend(25u32.to_be_bytes().iter().chain(25u32.to_be_bytes().iter()));
    out.extend(message(b't', &params));
    let mut columns = 9u16.to_be_bytes().to_vec();
    for (name, oid) in [("key", 25u32), ("body", 25), ("name", 25), ("namespace", 25), ("version", 23), ("status", 25), ("owner", 25), ("createdat", 23), ("modifiedat", 23)] {
        columns.extend_from_slice(name.as_bytes());
        columns.push(0);
        columns.extend_from_slice(&0u32.to_be_bytes()); // table
        columns.extend_from_slice(&0u16.to_be_bytes()); // column
        columns.extend_from_slice(&oid.to_be_bytes());
        columns.extend_from_slice(&(-1i16).to_be_bytes()); // type length
        columns.extend_from_slice(&(-1i32).to_be_bytes()); // type modifier
        columns.extend_from_slice(&0u16.to_be_bytes()); // text format
    }
    out.extend(message(b'T', &columns));
    out.extend(message(b'Z', b"I"));
    stream.write_all(&out).ok()?;
    read_until_sync(stream)?;
    stream.write_all(&message(b'2', b"")).ok()
}

/// A DataRow of releasex's nine columns with a `body` of `body_len` bytes.
fn data_row(body_len: usize) -> Vec<u8> {
    let mut row = 9u16.to_be_bytes().to_vec();
    let body = vec![b'A'; body_len];
    for value in [&b"sh.helm.release.v1.demo.v1"[..], &body, b"demo", b"team-a", b"1", b"deployed", b"helm", b"0", b"0"] {
        row.extend_from_slice(&(value.len() as u32).to_be_bytes());
        row.extend_from_slice(value);
    }
    message(b'D', &row)
}

#[test]
fn sql_server_that_accepts_and_never_answers_fails_within_connect_timeout() {
    let port = fake_postgres(drain);
    let out = decode_from(port);
    out.assert_clean_error(&format!("PostgreSQL 127.0.0.1:{port}/helm timed out: connecting (TCP connect, TLS and start-up) took longer than 2 s"), Limits {
        wall_seconds: TIMEOUT + SLACK,
        max_rss_mib: SMALL_MIB,
    });
}

#[test]
fn sql_server_announcing_a_two_gib_message_at_startup_is_refused_at_the_header() {
    let port = fake_postgres(|mut stream| {
        if read_startup(&mut stream).is_none() {
            return;
        }
        // An authentication request of 2^31 bytes, then filler until the client hangs up.
        let mut header = vec![b'R'];
        header.extend_from_slice(&0x7fff_ffffu32.to_be_bytes());
        let filler = vec![0u8; 1 << 16];
        if stream.write_all(&header).is_ok() {
            while stream.write_all(&filler).is_ok() {}
        }
    });
    let out = decode_from(port);
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm sent too much: a message of type 'R' announces 2147483648 bytes, over the 256 MiB releasex reads from one connection"),
        Limits { wall_seconds: SLACK, max_rss_mib: SMALL_MIB },
    );
}

#[test]
fn sql_server_announcing_a_two_gib_row_is_refused_at_the_header() {
    let port = fake_postgres(|mut stream| {
        if authenticate(&mut stream).and_then(|()| answer_prepare_and_bind(&mut stream)).is_none() {
            return;
        }
        let mut header = vec![b'D'];
        header.extend_from_slice(&0x8000_0000u32.to_be_bytes());
        let _ = stream.write_all(&header);
        drain(stream);
    });
    let out = decode_from(port);
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm sent too much: a message of type 'D' announces 2147483649 bytes"),
        Limits { wall_seconds: SLACK, max_rss_mib: SMALL_MIB },
    );
}

#[test]
fn sql_server_that_authenticates_then_stalls_on_the_query_fails_after_connect_timeout_of_silence() {
    let port = fake_postgres(|mut stream| {
        if authenticate(&mut stream).is_some() {
            drain(stream);
        }
    });
    let out = decode_from(port);
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm timed out: the server sent nothing for 2 s (connect_timeout) while answering the query"),
        Limits { wall_seconds: TIMEOUT + SLACK, max_rss_mib: SMALL_MIB },
    );
    assert!(out.wall_seconds >= TIMEOUT, "gave up before connect_timeout: {out:#?}");
}

#[test]
fn sql_server_that_drips_a_row_fails_after_three_times_connect_timeout() {
    let port = fake_postgres(|mut stream| {
        if authenticate(&mut stream).and_then(|()| answer_prepare_and_bind(&mut stream)).is_none() {
            return;
        }
        // One byte of a row every 0.5 s: never silent for 2 s, never done.
        for byte in data_row(1 << 10) {
            if stream.write_all(&[byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let out = decode_from(port);
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm timed out: the query on releases_v1 was not answered in full within 6 s (3 x connect_timeout)"),
        Limits { wall_seconds: 3.0 * TIMEOUT + SLACK, max_rss_mib: SMALL_MIB },
    );
    assert!(out.wall_seconds >= 3.0 * TIMEOUT, "gave up before 3 x connect_timeout: {out:#?}");
}

/// The cap holds for an answer of many rows each under it. The rows received
/// until then are kept (a query's answer is all rows), so the bound is the
/// cap plus buffers: 640 MiB (measured: 416 MiB).
#[test]
fn sql_server_sending_rows_without_end_is_cut_off_at_256_mib() {
    let port = fake_postgres(|mut stream| {
        if authenticate(&mut stream).and_then(|()| answer_prepare_and_bind(&mut stream)).is_none() {
            return;
        }
        let row = data_row(1 << 20);
        while stream.write_all(&row).is_ok() {}
    });
    let out = decode_from(port);
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm sent too much: more than the 256 MiB releasex reads from one connection"),
        Limits { wall_seconds: 3.0 * TIMEOUT + SLACK, max_rss_mib: 640 },
    );
}

/// Without `connect_timeout` docs/release.md's promise holds: 10 s.
#[test]
fn sql_server_that_never_answers_fails_after_the_default_ten_seconds() {
    let port = fake_postgres(drain);
    let conn = format!("host=127.0.0.1 port={port} user=helm dbname=helm sslmode=disable");
    let args = ["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"];
    let out = run(&args, &[], None, Limits { wall_seconds: 10.0 + SLACK + 5.0, max_rss_mib: 1024 });
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm timed out: connecting (TCP connect, TLS and start-up) took longer than 10 s"),
        Limits { wall_seconds: 10.0 + SLACK, max_rss_mib: SMALL_MIB },
    );
    assert!(out.wall_seconds >= 10.0, "gave up before the default 10 s: {out:#?}");
}

/// Over TLS the socket carries records; the header check runs inside TLS.
/// The server (rustls, a self-signed certificate made with the `openssl`
/// CLI, which sslmode=require does not check) accepts TLS, then announces a
/// 2 GiB message: refused at the header, not after 256 MiB of filler.
#[test]
fn sql_server_announcing_a_two_gib_message_inside_tls_is_refused_at_the_header() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (key, cert) = (dir.path().join("server.key"), dir.path().join("server.pem"));
    let made = std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=localhost"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("the openssl CLI makes the test certificate (apt-get install -y openssl)");
    assert!(made.status.success(), "openssl: {}", String::from_utf8_lossy(&made.stderr));
    use rustls::pki_types::pem::PemObject;
    let certs = rustls::pki_types::CertificateDer::pem_file_iter(&cert).expect("cert").collect::<Result<Vec<_>, _>>().expect("cert");
    let key = rustls::pki_types::PrivateKeyDer::from_pem_file(&key).expect("key");
    let config = rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    let config = std::sync::Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("local addr").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let config = config.clone();
            std::thread::spawn(move || {
                let mut ssl_request = [0u8; 8];
                if stream.read_exact(&mut ssl_request).is_err() || stream.write_all(b"S").is_err() {
                    return;
                }
                let Ok(session) = rustls::ServerConnection::new(config) else { return };
                let mut tls = rustls::StreamOwned::new(session, stream);
                let mut len = [0u8; 4];
                if tls.read_exact(&mut len).is_err() {
                    return;
                }
                let mut body = vec![0u8; (u32::from_be_bytes(len) as usize).saturating_sub(4)];
                if tls.read_exact(&mut body).is_err() {
                    return;
                }
                let mut header = vec![b'R'];
                header.extend_from_slice(&0x7fff_ffffu32.to_be_bytes());
                let filler = vec![0u8; 1 << 16];
                if tls.write_all(&header).is_ok() {
                    while tls.write_all(&filler).is_ok() {}
                }
            });
        }
    });
    let conn = format!("host=127.0.0.1 port={port} user=helm dbname=helm sslmode=require connect_timeout={TIMEOUT}");
    let args = ["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"];
    let out = run(&args, &[], None, Limits { wall_seconds: TIMEOUT + SLACK + 5.0, max_rss_mib: 1024 });
    out.assert_clean_error(
        &format!("PostgreSQL 127.0.0.1:{port}/helm sent too much: a message of type 'R' announces 2147483648 bytes"),
        Limits { wall_seconds: SLACK, max_rss_mib: SMALL_MIB },
    );
}

/// lib/pq uses no TLS on a Unix socket (PostgreSQL offers none there), so the
/// default sslmode=require must not send an SSLRequest: the fake server
/// names which first message it got.
#[test]
fn sql_driver_over_a_unix_socket_starts_without_tls_as_lib_pq() {
    let dir = tempfile::tempdir().expect("tempdir");
    let listener = std::os::unix::net::UnixListener::bind(dir.path().join(".s.PGSQL.5432")).expect("bind unix socket");
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else { return };
        let mut first = [0u8; 8];
        if stream.read_exact(&mut first).is_err() {
            return;
        }
        let got = if first == [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f] { "an SSLRequest" } else { "a plain start-up" };
        let mut fields = b"SFATAL\0C28000\0M".to_vec();
        fields.extend_from_slice(format!("fake server got {got}\0\0").as_bytes());
        let _ = stream.write_all(&message(b'E', &fields));
        let _ = std::io::copy(&mut stream, &mut std::io::sink());
    });
    let conn = format!("host={} user=helm dbname=helm connect_timeout={TIMEOUT}", dir.path().display());
    let args = ["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"];
    let out = run(&args, &[], None, Limits { wall_seconds: TIMEOUT + SLACK + 5.0, max_rss_mib: 1024 });
    out.assert_clean_error("fake server got a plain start-up", Limits { wall_seconds: SLACK, max_rss_mib: SMALL_MIB });
}

/// lib/pq connects to localhost when the string names no host; the silent
/// fake server on 127.0.0.1 proves where the connection went.
#[test]
fn sql_connection_without_a_host_goes_to_localhost_as_lib_pq() {
    let port = fake_postgres(drain);
    let conn = format!("port={port} user=helm dbname=helm sslmode=disable connect_timeout={TIMEOUT}");
    let args = ["release", "decode", "demo", "--driver", "sql", "--sql-connection", &conn, "-n", "team-a"];
    let out = run(&args, &[], None, Limits { wall_seconds: TIMEOUT + SLACK + 5.0, max_rss_mib: 1024 });
    out.assert_clean_error(&format!("PostgreSQL localhost:{port}/helm timed out: connecting"), Limits {
        wall_seconds: TIMEOUT + SLACK,
        max_rss_mib: SMALL_MIB,
    });
}
