//! One GET to the API server under this program's limits: a deadline per
//! attempt (kubectl's `--request-timeout`: from sending the request to the
//! last byte of the answer, so a server that never answers and one that
//! stalls mid-body are both caught), a cap on the bytes of one answer, and
//! bounded retries of 429/5xx answers that carry `Retry-After`. kube's own
//! retry layer is switched off in `connect`: it retries 429/503/504 up to 15
//! times with backoff up to 1000 s, unbounded in practice.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::BodyExt as _;
use serde::de::DeserializeOwned;
use tokio::time::Instant;

use super::error::{Asked, ClusterError, canonical_reason};
use super::ReadOnlyCluster;

/// The largest answer read by default: a Secret is at most 1 MiB (etcd's
/// request limit), so this is 256 revisions of a release at that size, or
/// an OpenAPI document far beyond any real cluster's.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 256 << 20;
/// The default `--request-timeout`: long enough for a large LIST over a slow
/// link, short enough that a hung server is reported, not waited on.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Error answers are read up to this much for their message, then dropped.
const MAX_ERROR_BODY_BYTES: usize = 64 << 10;
/// The longest part of an error body quoted in a message.
const MAX_QUOTED_CHARS: usize = 300;

/// How long and how much one request may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestLimits {
    /// Per attempt, from sending to the last byte; `None`: no limit.
    pub timeout: Option<Duration>,
    pub max_response_bytes: usize,
    /// Retries of one request (client-go retries up to 10 times).
    pub max_retries: u32,
    /// The longest single wait a `Retry-After` may ask for.
    pub max_retry_wait: Duration,
    /// The most time one request spends waiting between retries in all.
    pub max_total_retry_wait: Duration,
}

impl Default for RequestLimits {
    fn default() -> RequestLimits {
        RequestLimits {
            timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            max_retries: 10,
            max_retry_wait: Duration::from_secs(10),
            max_total_retry_wait: Duration::from_secs(30),
        }
    }
}

/// A retry about to happen, for the caller to announce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retrying {
    pub server: String,
    pub asked: Asked,
    pub code: u16,
    pub reason: String,
    pub wait: Duration,
    /// 1 for the first retry.
    pub retry: u32,
    pub max_retries: u32,
}

type RetryCallback = dyn Fn(&Retrying) + Send + Sync;

/// Called before each retry (the CLI prints it; the library never does).
#[derive(Clone, Default)]
pub struct RetryReporter(Option<Arc<RetryCallback>>);

impl RetryReporter {
    pub fn new(report: impl Fn(&Retrying) + Send + Sync + 'static) -> RetryReporter {
        RetryReporter(Some(Arc::new(report)))
    }

    fn report(&self, retrying: &Retrying) {
        if let Some(report) = &self.0 {
            report(retrying);
        }
    }
}

impl fmt::Debug for RetryReporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "RetryReporter(set)" } else { "RetryReporter(none)" })
    }
}

/// How one attempt ended.
enum Attempt {
    Ok(Vec<u8>),
    Failed { code: u16, retry_after: Option<u64>, body: Vec<u8> },
}

impl ReadOnlyCluster {
    /// GETs `request` (retrying as client-go does, within the limits) and
    /// returns the body of its 2xx answer.
    pub(super) async fn fetch(&self, asked: &Asked, request: &http::Request<Vec<u8>>) -> Result<Vec<u8>, ClusterError> {
        let limits = &self.limits;
        let (mut retries, mut waited) = (0u32, Duration::ZERO);
        loop {
            let (code, retry_after, body) = match self.attempt(asked, copy_request(request)).await? {
                Attempt::Ok(body) => return Ok(body),
                Attempt::Failed { code, retry_after, body } => (code, retry_after, body),
            };
            // client-go rest.checkWait: 429 and every 5xx may be retried, and
            // only when the server says when (Retry-After in whole seconds).
            let wait = retry_after.filter(|_| code == 429 || code >= 500).map(|s| Duration::from_secs(s).min(limits.max_retry_wait));
            match wait {
                Some(wait) if retries < limits.max_retries && waited + wait <= limits.max_total_retry_wait => {
                    retries += 1;
                    waited += wait;
                    self.on_retry.report(&Retrying {
                        server: self.server.clone(),
                        asked: asked.clone(),
                        code,
                        reason: canonical_reason(code),
                        wait,
                        retry: retries,
                        max_retries: limits.max_retries,
                    });
                    tokio::time::sleep(wait).await;
                }
                _ => return Err(self.status_error(asked, code, &body, retries, waited)),
            }
        }
    }

    /// GETs and decodes JSON; a body that is not JSON, or not of type `T`,
    /// is an error naming the request.
    pub(super) async fn fetch_json<T: DeserializeOwned>(&self, asked: &Asked, request: &http::Request<Vec<u8>>) -> Result<T, ClusterError> {
        let body = self.fetch(asked, request).await?;
        serde_json::from_slice(&body).map_err(|e| {
            let (server, asked, detail) = (self.server.clone(), asked.clone(), e.to_string());
            match e.classify() {
                serde_json::error::Category::Data => ClusterError::WrongShape { server, asked, detail },
                _ => ClusterError::MalformedJson { server, asked, detail },
            }
        })
    }

    /// GETs a JSON object (what every resource and discovery document is).
    pub(super) async fn fetch_object(&self, asked: &Asked, request: &http::Request<Vec<u8>>) -> Result<serde_json::Value, ClusterError> {
        let value: serde_json::Value = self.fetch_json(asked, request).await?;
        if value.is_object() {
            return Ok(value);
        }
        let found = match &value {
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::Bool(_) => "a boolean",
            _ => "null",
        };
        Err(ClusterError::WrongShape { server: self.server.clone(), asked: asked.clone(), detail: format!("expected an object, found {found}") })
    }

    /// One exchange within the deadline; the body read up to the cap.
    async fn attempt(&self, asked: &Asked, request: http::Request<kube::client::Body>) -> Result<Attempt, ClusterError> {
        let deadline = self.limits.timeout.map(|t| Instant::now() + t);
        let timed_out = |received| ClusterError::Timeout {
            server: self.server.clone(),
            asked: asked.clone(),
            timeout: self.limits.timeout.unwrap_or_default(),
            received,
        };
        let response = within(deadline, self.client.send(request)).await.ok_or_else(|| timed_out(None))?.map_err(|e| self.send_error(asked, e))?;
        let status = response.status();
        let retry_after = response.headers().get(http::header::RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
        let declared = response.headers().get(http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        let mut body = response.into_body();
        let success = status.is_success();
        let cap = if success { self.limits.max_response_bytes } else { MAX_ERROR_BODY_BYTES };
        let too_large = || ClusterError::TooLarge { server: self.server.clone(), asked: asked.clone(), limit: cap };
        if success && declared.is_some_and(|n| n > cap as u64) {
            return Err(too_large());
        }
        let mut bytes = Blocks::default();
        loop {
            let frame = within(deadline, body.frame()).await.ok_or_else(|| timed_out(Some(bytes.len as u64)))?;
            let Some(frame) = frame else { break };
            let frame = frame.map_err(|e| ClusterError::Interrupted {
                server: self.server.clone(),
                asked: asked.clone(),
                message: crate::error_chain(&e),
            })?;
            let Ok(data) = frame.into_data() else { continue };
            if bytes.len + data.len() > cap {
                if success {
                    return Err(too_large());
                }
                // An error answer is only read for its message.
                bytes.push(&data[..cap - bytes.len]);
                break;
            }
            bytes.push(&data);
        }
        let bytes = bytes.into_vec();
        Ok(if success { Attempt::Ok(bytes) } else { Attempt::Failed { code: status.as_u16(), retry_after, body: bytes } })
    }

    fn send_error(&self, asked: &Asked, e: kube::Error) -> ClusterError {
        let (server, asked, message) = (self.server.clone(), asked.clone(), crate::error_chain(&e));
        match e {
            kube::Error::Auth(_) => ClusterError::Auth { server, asked, message },
            _ => ClusterError::Unreachable { server, asked, message },
        }
    }

    /// The error for a non-2xx answer: its `Status` message when it sent
    /// one (a proxy may send HTML or text instead: quoted, shortened).
    fn status_error(&self, asked: &Asked, code: u16, body: &[u8], retries: u32, waited: Duration) -> ClusterError {
        let status: Option<kube::core::Status> = serde_json::from_slice(body).ok();
        let message = match &status {
            Some(s) if !s.message.is_empty() => s.message.clone(),
            _ => quote_body(body),
        };
        let asked = asked.clone();
        match code {
            401 => ClusterError::Unauthorized { server: self.server.clone(), asked },
            403 => ClusterError::Forbidden { asked, message },
            404 => ClusterError::NotFound { asked, message, status: status.is_some_and(|s| !s.message.is_empty()) },
            _ => ClusterError::Status { server: self.server.clone(), asked, code, message, retries, waited },
        }
    }
}

/// An answer's bytes, copied into blocks of at most [`Blocks::SIZE`]: a
/// chunked body can come a byte per frame, and keeping each frame would cost
/// far more than its byte.
#[derive(Default)]
struct Blocks {
    full: Vec<Vec<u8>>,
    current: Vec<u8>,
    len: usize,
}

impl Blocks {
    const SIZE: usize = 1 << 20;

    fn push(&mut self, mut data: &[u8]) {
        self.len += data.len();
        while !data.is_empty() {
            if self.current.len() >= Self::SIZE {
                self.full.push(std::mem::take(&mut self.current));
            }
            let (head, rest) = data.split_at(data.len().min(Self::SIZE - self.current.len()));
            self.current.extend_from_slice(head);
            data = rest;
        }
    }

    fn into_vec(self) -> Vec<u8> {
        if self.full.is_empty() {
            return self.current;
        }
        let mut all = Vec::with_capacity(self.len);
        for block in self.full.iter().chain([&self.current]) {
            all.extend_from_slice(block);
        }
        all
    }
}

/// `fut`, or `None` when `deadline` passes first.
async fn within<F: Future>(deadline: Option<Instant>, fut: F) -> Option<F::Output> {
    match deadline {
        Some(at) => tokio::time::timeout_at(at, fut).await.ok(),
        None => Some(fut.await),
    }
}

/// A GET request again, for a retry (http::Request is not Clone).
fn copy_request(request: &http::Request<Vec<u8>>) -> http::Request<kube::client::Body> {
    let mut copy = http::Request::new(kube::client::Body::from(request.body().clone()));
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.headers_mut() = request.headers().clone();
    copy
}

fn quote_body(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        return "(no message)".to_string();
    }
    let mut quoted: String = text.chars().take(MAX_QUOTED_CHARS).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if text.chars().count() > MAX_QUOTED_CHARS {
        quoted.push_str("...");
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_are_quoted_on_one_short_line() {
        assert_eq!(quote_body(b"<html>\n<b>Bad gateway</b></html>\n"), "<html> <b>Bad gateway</b></html>");
        assert_eq!(quote_body(b""), "(no message)");
        let long = "x".repeat(1000);
        assert_eq!(quote_body(long.as_bytes()).len(), MAX_QUOTED_CHARS + 3);
    }

    #[test]
    fn blocks_keep_every_byte_in_order_across_block_boundaries() {
        let mut blocks = Blocks::default();
        let piece: Vec<u8> = (0..=255u8).cycle().take(Blocks::SIZE / 3 + 7).collect();
        let mut expected = Vec::new();
        for _ in 0..5 {
            blocks.push(&piece);
            expected.extend_from_slice(&piece);
        }
        blocks.push(b"x");
        expected.push(b'x');
        assert!(!blocks.full.is_empty());
        assert!(blocks.full.iter().all(|b| b.len() == Blocks::SIZE));
        assert_eq!(blocks.len, expected.len());
        assert_eq!(blocks.into_vec(), expected);
    }

    #[test]
    fn status_codes_are_named_as_http_names_them() {
        assert_eq!(super::canonical_reason(503), "Service Unavailable");
        assert_eq!(canonical_reason(599), "HTTP 599");
    }
}
