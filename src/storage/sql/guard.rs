//! The stream under tokio-postgres, guarded against a hostile server.
//!
//! tokio-postgres reads a message's 4-byte length and buffers until that many
//! bytes have arrived, and `Client::query` keeps every row: a header
//! announcing 2^31 bytes, or an endless run of DataRows, grows the process
//! until the allocator aborts it. [`Guarded`] counts what the server sends
//! against [`MAX_ANSWER_BYTES`] and reads each message header as it passes,
//! failing the read at once when one announces more than the cap.
//!
//! Over TLS the socket carries records, not messages, so two guards run: one
//! on the socket (counting; it reads headers only until the server agrees to
//! TLS) and one inside TLS ([`GuardedTls`]) that reads the headers.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_postgres::tls::{ChannelBinding, TlsConnect, TlsStream};

/// The most one connection may receive, and so the largest message: 256 MiB.
/// The default `release history --max` is 256 revisions, and a Helm record
/// kept in a Kubernetes Secret is at most 1 MiB; a decoded record over 64 MiB
/// is refused anyway (`release::codec::MAX_DECOMPRESSED`).
pub const MAX_ANSWER_BYTES: u64 = 256 << 20;

/// PostgreSQL's SSLRequest: length 8, code 80877103 (protocol docs, "SSL
/// Session Encryption").
const SSL_REQUEST: [u8; 8] = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];
/// The first byte of a TLS handshake record (sslnegotiation=direct).
const TLS_HANDSHAKE: u8 = 0x16;

/// What a hostile server did that ended the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Breach {
    #[error(
        "a message of type {tag:?} announces {announced} bytes, over the {} MiB releasex reads from one connection",
        MAX_ANSWER_BYTES >> 20
    )]
    Message { tag: char, announced: u64 },
    #[error(
        "more than the {} MiB releasex reads from one connection (all rows of the release together)",
        MAX_ANSWER_BYTES >> 20
    )]
    Total,
}

/// What the guards of one connection share with the caller: the first
/// breach (tokio-postgres turns the read error into its own, often just
/// "connection closed", so the caller asks here) and when the server last
/// sent anything (for the caller's silence bound).
#[derive(Debug)]
pub struct Tripwire {
    breach: Mutex<Option<Breach>>,
    last_heard: Mutex<Instant>,
}

impl Default for Tripwire {
    fn default() -> Tripwire {
        Tripwire { breach: Mutex::new(None), last_heard: Mutex::new(Instant::now()) }
    }
}

impl Tripwire {
    pub fn breach(&self) -> Option<Breach> {
        *self.breach.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn trip(&self, breach: Breach) -> io::Error {
        let mut slot = self.breach.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slot.get_or_insert(breach);
        io::Error::new(io::ErrorKind::InvalidData, breach)
    }

    /// When the server last sent a byte (or when [`Tripwire::hear_now`]
    /// last restarted the count).
    pub fn last_heard(&self) -> Instant {
        *self.last_heard.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn hear_now(&self) {
        *self.last_heard.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Instant::now();
    }
}

/// How the bytes read are understood.
#[derive(Debug)]
enum Framing {
    /// Nothing written yet: the client's first bytes say whether TLS follows.
    Undecided { first: [u8; 8], len: usize },
    /// An SSLRequest went out; the next byte read is the answer.
    SslAnswer,
    /// TLS records: only counted (the guard inside TLS reads the messages).
    Opaque,
    /// PostgreSQL messages: a 1-byte type and a 4-byte length that counts
    /// itself, then the body.
    Messages { header: [u8; 5], have: usize, body_left: u64 },
}

impl Framing {
    fn messages() -> Framing {
        Framing::Messages { header: [0; 5], have: 0, body_left: 0 }
    }

    fn wrote(&mut self, bytes: &[u8]) {
        let Framing::Undecided { first, len } = self else { return };
        let take = bytes.len().min(first.len() - *len);
        first[*len..*len + take].copy_from_slice(&bytes[..take]);
        *len += take;
        if first[0] == TLS_HANDSHAKE {
            *self = Framing::Opaque;
        } else if *len == first.len() {
            *self = if *first == SSL_REQUEST { Framing::SslAnswer } else { Framing::messages() };
        }
    }

    /// Walks the bytes just read; the first header over the cap is a breach.
    fn read(&mut self, mut bytes: &[u8]) -> Result<(), Breach> {
        while !bytes.is_empty() {
            match self {
                Framing::Opaque => return Ok(()),
                // A server that speaks first gets read as plain messages.
                Framing::Undecided { .. } => *self = Framing::messages(),
                Framing::SslAnswer => {
                    *self = if bytes[0] == b'S' { Framing::Opaque } else { Framing::messages() };
                    bytes = &bytes[1..];
                }
                Framing::Messages { header, have, body_left } => {
                    if *body_left > 0 {
                        let skip = bytes.len().min(usize::try_from(*body_left).unwrap_or(usize::MAX));
                        *body_left -= skip as u64;
                        bytes = &bytes[skip..];
                        continue;
                    }
                    let take = bytes.len().min(header.len() - *have);
                    header[*have..*have + take].copy_from_slice(&bytes[..take]);
                    *have += take;
                    bytes = &bytes[take..];
                    if *have < header.len() {
                        continue;
                    }
                    *have = 0;
                    let length = u64::from(u32::from_be_bytes([header[1], header[2], header[3], header[4]]));
                    // The type byte is not counted by the length.
                    if length + 1 > MAX_ANSWER_BYTES {
                        return Err(Breach::Message { tag: char::from(header[0]), announced: length + 1 });
                    }
                    // A length under 4 is malformed; tokio-postgres reports it.
                    *body_left = length.saturating_sub(4);
                }
            }
        }
        Ok(())
    }
}

/// A stream whose reads stop at the caps (see the module documentation).
#[derive(Debug)]
pub struct Guarded<S> {
    inner: S,
    received: u64,
    framing: Framing,
    tripwire: Arc<Tripwire>,
}

impl<S> Guarded<S> {
    /// The guard on the socket: it works out from the client's first bytes
    /// whether messages or TLS records pass.
    pub fn socket(inner: S, tripwire: Arc<Tripwire>) -> Guarded<S> {
        Guarded { inner, received: 0, framing: Framing::Undecided { first: [0; 8], len: 0 }, tripwire }
    }

    /// The guard inside TLS: messages from the first byte.
    fn messages(inner: S, tripwire: Arc<Tripwire>) -> Guarded<S> {
        Guarded { inner, received: 0, framing: Framing::messages(), tripwire }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let fresh = &buf.filled()[before..];
        if !fresh.is_empty() {
            this.tripwire.hear_now();
        }
        this.received += fresh.len() as u64;
        if this.received > MAX_ANSWER_BYTES {
            return Poll::Ready(Err(this.tripwire.trip(Breach::Total)));
        }
        if let Err(breach) = this.framing.read(fresh) {
            return Poll::Ready(Err(this.tripwire.trip(breach)));
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        this.framing.wrote(&buf[..written]);
        Poll::Ready(Ok(written))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

impl<S: TlsStream + Unpin> TlsStream for Guarded<S> {
    fn channel_binding(&self) -> ChannelBinding {
        self.inner.channel_binding()
    }
}

/// A TLS connector whose stream is guarded inside TLS.
pub struct GuardedTls<T> {
    inner: T,
    tripwire: Arc<Tripwire>,
}

impl<T> GuardedTls<T> {
    pub fn new(inner: T, tripwire: Arc<Tripwire>) -> GuardedTls<T> {
        GuardedTls { inner, tripwire }
    }
}

impl<S, T> TlsConnect<S> for GuardedTls<T>
where
    T: TlsConnect<S>,
    T::Future: 'static,
{
    type Stream = Guarded<T::Stream>;
    type Error = T::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Guarded<T::Stream>, T::Error>>>>;

    fn connect(self, stream: S) -> Self::Future {
        let handshake = self.inner.connect(stream);
        let tripwire = self.tripwire;
        Box::pin(async move { Ok(Guarded::messages(handshake.await?, tripwire)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(tag: u8, length: u32) -> Vec<u8> {
        let mut out = vec![tag];
        out.extend_from_slice(&length.to_be_bytes());
        out
    }

    #[test]
    fn header_announcing_two_gib_is_a_breach_even_split_across_reads() {
        let mut framing = Framing::messages();
        let bytes = header(b'R', 1 << 31);
        assert_eq!(framing.read(&bytes[..3]), Ok(()));
        assert_eq!(framing.read(&bytes[3..]), Err(Breach::Message { tag: 'R', announced: (1 << 31) + 1 }));
    }

    #[test]
    fn messages_under_the_cap_pass_and_their_bodies_are_skipped() {
        let mut framing = Framing::messages();
        let mut bytes = header(b'D', 4 + 6);
        // A body that looks like a huge header must not be read as one.
        bytes.extend_from_slice(&[b'D', 0xff, 0xff, 0xff, 0xff, 0]);
        bytes.extend(header(b'Z', 5));
        bytes.push(b'I');
        assert_eq!(framing.read(&bytes), Ok(()));
    }

    #[test]
    fn after_the_server_accepts_tls_records_are_not_read_as_messages() {
        let mut framing = Framing::Undecided { first: [0; 8], len: 0 };
        framing.wrote(&SSL_REQUEST[..5]);
        framing.wrote(&SSL_REQUEST[5..]);
        assert!(matches!(framing, Framing::SslAnswer));
        assert_eq!(framing.read(&[b'S', 0x16, 0xff, 0xff, 0xff, 0xff]), Ok(()));
        assert!(matches!(framing, Framing::Opaque));
    }

    #[test]
    fn a_refused_ssl_request_leaves_plain_messages_that_are_checked() {
        let mut framing = Framing::Undecided { first: [0; 8], len: 0 };
        framing.wrote(&SSL_REQUEST);
        let mut bytes = vec![b'N'];
        bytes.extend(header(b'E', u32::MAX));
        assert_eq!(framing.read(&bytes), Err(Breach::Message { tag: 'E', announced: u64::from(u32::MAX) + 1 }));
    }

    #[test]
    fn a_startup_message_means_plain_messages_and_direct_tls_means_records() {
        let mut plain = Framing::Undecided { first: [0; 8], len: 0 };
        plain.wrote(&[0, 0, 0, 40, 0, 3, 0, 0, b'u']);
        assert!(matches!(plain, Framing::Messages { .. }));
        let mut direct = Framing::Undecided { first: [0; 8], len: 0 };
        direct.wrote(&[TLS_HANDSHAKE, 3, 1]);
        assert!(matches!(direct, Framing::Opaque));
    }
}
