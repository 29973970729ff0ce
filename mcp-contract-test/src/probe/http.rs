//! The Streamable HTTP transport (MCP 2025-03-26 and later), over ureq (feature `http`; TLS with
//! feature `https`). Synchronous: no async runtime for users of this dev-dependency.
//!
//! Every JSON-RPC message is POSTed to the endpoint with
//! `Accept: application/json, text/event-stream`; the answer is `application/json` (one message
//! or a batch), `text/event-stream` (SSE events whose `data:` carries messages, read on a thread
//! as the session asks for them, see `sse.rs`) or 202 with no body (notifications and answers).
//! The `Mcp-Session-Id` the server gives with the `initialize` answer is echoed on every later
//! request, `MCP-Protocol-Version` is sent once negotiated, and the session is DELETEd at the end
//! (best effort, bounded). The probe never opens the optional GET stream for server-initiated
//! messages: it has nothing to wait for there, so a server that answers such a GET with 405 is
//! never even asked.
//!
//! The seams: `url.rs` (URLs, redirect targets, origins), `wire.rs` (ureq: one kept-alive
//! connection per session, redirects, errors classified), `proxy.rs` (which proxy),
//! `sse.rs` (event streams), `started.rs` (a server started for the probe), and this file (the
//! MCP transport on top, and what each HTTP status means for it).
//!
//! Header values may come from environment variables ([`HeaderValue::Env`]); the values of every
//! header are treated as secrets: they are scrubbed from any server text quoted in an error,
//! and never sent to another origin than the configured URL's (see `wire.rs`).

mod forward;
mod proxy;
mod sse;
mod started;
mod url;
mod wire;

pub(super) use started::StartedServer;

use super::message::{Message, MessageError};
use super::session::{Transport, TransportError};
use super::{quote_untrusted, HeaderValue, HttpEndpoint, ProbeErrorKind};
use serde_json::Value;
use sse::{Event, EventStream};
use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::time::{Duration, Instant};
use ureq::http::Method;
use url::{Origin, Url};
use wire::{status_text, Answer, Outgoing, Wire};

/// Largest JSON body (or one SSE event) accepted.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// Bound on the closing DELETE of the session.
const DELETE_BOUND: Duration = Duration::from_secs(2);
/// Bytes of an error body read for its message.
const SNIPPET: u64 = 2048;

/// A failure the HTTP transport understands better than the session does.
#[derive(Debug, Clone)]
pub(super) struct HttpFailure {
    pub(super) kind: ProbeErrorKind,
    pub(super) message: String,
}

/// Checks what can be checked before a server is started: the URL (with `{port}` standing for
/// some port) and the proxy setting.
///
/// # Errors
///
/// A [`ProbeErrorKind::Configuration`] failure saying what to fix.
pub(super) fn preflight(endpoint: &HttpEndpoint) -> Result<(), HttpFailure> {
    let url = endpoint.url.replace("{port}", "1");
    url::parse(&url).map_err(|(kind, message)| HttpFailure { kind, message })?;
    proxy::Proxies::new(&endpoint.proxy).map(drop)
}

/// Resolves every header value (environment variables read now). Errors name the variable,
/// never a value.
pub(super) fn resolve_headers(
    endpoint: &HttpEndpoint,
) -> Result<Vec<(String, String)>, HttpFailure> {
    let mut headers = Vec::new();
    for (name, value) in &endpoint.headers {
        if ureq::http::HeaderName::try_from(name.as_str()).is_err() {
            return Err(HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!("{} is not a valid HTTP header name", quote_untrusted(name)),
            });
        }
        let resolved = match value {
            HeaderValue::Literal(text) => text.clone(),
            HeaderValue::Env(var) => crate::env::var(var).ok_or_else(|| HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!(
                    "the header {name} takes its value from the environment variable {var}, \
                     which is not set (or not UTF-8): export it before running the tests"
                ),
            })?,
            HeaderValue::Template { template, var } => {
                let secret = crate::env::var(var).ok_or_else(|| HttpFailure {
                    kind: ProbeErrorKind::Configuration,
                    message: format!(
                        "the header {name} takes part of its value from the environment \
                         variable {var}, which is not set (or not UTF-8): export it before \
                         running the tests"
                    ),
                })?;
                template.replace(&format!("${{{var}}}"), &secret)
            }
        };
        if ureq::http::HeaderValue::try_from(resolved.as_str()).is_err() {
            return Err(HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!(
                    "the value of the header {name} holds a line break, a control character or \
                     a non-ASCII character: it cannot be sent"
                ),
            });
        }
        headers.push((name.clone(), resolved));
    }
    Ok(headers)
}

/// A redirect that led somewhere that answered, kept for the note asking to update the URL.
struct Moved {
    to: Url,
    /// Every hop was 301 or 308.
    permanent: bool,
    /// The first hop's status, e.g. `307 Temporary Redirect`.
    first_status: String,
}

/// The Streamable HTTP transport of one probe.
pub(super) struct HttpTransport {
    wire: Wire,
    /// The URL as configured (its port filled in): the user's headers belong to its origin.
    configured: Url,
    /// Where requests go: the configured URL, or where a redirect led.
    url: Url,
    headers: Vec<(String, String)>,
    /// The session id and the origin that issued it.
    session: Option<(String, Origin)>,
    protocol_version: Option<String>,
    /// Requests sent and not answered yet: id → method.
    in_flight: HashMap<String, String>,
    inbox: VecDeque<Message>,
    /// Messages of an SSE batch not accepted yet.
    backlog: VecDeque<Message>,
    stream: Option<EventStream>,
    /// The first failure this transport classified (kind and message), kept for the probe.
    pub(super) failure: Option<HttpFailure>,
    deadline: Instant,
    moved: Option<Moved>,
    /// The user's headers were held back from the URL that answered (another origin).
    credentials_withheld: bool,
}

fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl HttpTransport {
    pub(super) fn new(
        endpoint: &HttpEndpoint,
        headers: Vec<(String, String)>,
        deadline: Instant,
    ) -> Result<HttpTransport, HttpFailure> {
        let configured =
            url::parse(&endpoint.url).map_err(|(kind, message)| HttpFailure { kind, message })?;
        let wire = Wire::new(endpoint, &configured)?;
        Ok(HttpTransport {
            wire,
            url: configured.clone(),
            configured,
            headers,
            session: None,
            protocol_version: None,
            in_flight: HashMap::new(),
            inbox: VecDeque::new(),
            backlog: VecDeque::new(),
            stream: None,
            failure: None,
            deadline,
            moved: None,
            credentials_withheld: false,
        })
    }

    /// The URL requests go to, for messages; after a redirect, with where it came from.
    fn shown(&self) -> String {
        if self.url == self.configured {
            self.url.shown()
        } else {
            format!(
                "{} (redirected from {})",
                self.url.shown(),
                self.configured.shown()
            )
        }
    }

    /// Server text made safe to quote: every header value we sent is replaced, then escaped.
    fn scrub(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (_, value) in &self.headers {
            // Also the token part alone ("Bearer abc" → "abc"), which servers like to echo.
            for secret in std::iter::once(value.as_str()).chain(value.split_whitespace()) {
                if secret.len() >= 8 || secret == value {
                    text = text.replace(secret, "<redacted>");
                }
            }
        }
        quote_untrusted(&text)
    }

    fn fail(&mut self, kind: ProbeErrorKind, message: String) -> TransportError {
        if self.failure.is_none() {
            self.failure = Some(HttpFailure {
                kind,
                message: message.clone(),
            });
        }
        TransportError::Io(message)
    }

    /// Sends one request (following redirects) and notes where it was answered from.
    fn request(
        &mut self,
        method: Method,
        body: Option<&[u8]>,
        what: &str,
        deadline: Instant,
    ) -> Result<Answer, HttpFailure> {
        let mut common = Vec::new();
        if body.is_some() {
            common.push(("Accept", "application/json, text/event-stream".to_owned()));
            common.push(("Content-Type", "application/json".to_owned()));
        }
        if let Some(version) = &self.protocol_version {
            common.push(("MCP-Protocol-Version", version.clone()));
        }
        let configured_origin = self.configured.origin();
        let out = Outgoing {
            method,
            body,
            common,
            credentials: &self.headers,
            credentials_for: &configured_origin,
            session: self
                .session
                .as_ref()
                .map(|(id, origin)| (id.as_str(), origin)),
            deadline,
            what,
        };
        let answer = self.wire.send(&self.url, &out)?;
        if let Some(first) = answer.hops.first() {
            // The session goes on where the server answered: the session belongs to it.
            if self.moved.is_none() {
                self.moved = Some(Moved {
                    to: answer.url.clone(),
                    permanent: answer
                        .hops
                        .iter()
                        .all(|hop| matches!(hop.status, 301 | 308)),
                    first_status: status_text(first.status),
                });
            }
            self.url = answer.url.clone();
        }
        self.credentials_withheld |= answer.credentials_withheld;
        Ok(answer)
    }

    /// The note for a redirect the session followed: which URL to configure instead. A port
    /// picked for a started server is shown as `{port}`, as the configuration writes it.
    pub(super) fn redirect_note(&self, started_port: Option<u16>) -> Option<String> {
        let moved = self.moved.as_ref()?;
        let in_config_terms = |url: &Url| {
            let shown = url.shown();
            match started_port {
                Some(port) if url.port == port => shown.replace(&format!(":{port}"), ":{port}"),
                _ => shown,
            }
        };
        let from = in_config_terms(&self.configured);
        let to = in_config_terms(&moved.to);
        let how = if moved.permanent {
            "moved permanently"
        } else {
            "redirects"
        };
        let mut note = format!(
            "{from} {how} ({}) to {to}, which answered: update the URL to {to}",
            moved.first_status
        );
        if self.credentials_withheld {
            note.push_str(
                "; the suite's headers were not sent there, since it is another origin (scheme, \
                 host or port) than the configured URL",
            );
        }
        Some(note)
    }

    /// Turns a non-success status into its classified failure.
    // Long on purpose (~130 lines): one arm per status, each with its own message and advice,
    // in the order a reader looks a status up; split, the table would be read in pieces.
    fn status_failure(&mut self, mut answer: Answer, rpc_method: &str) -> TransportError {
        let status = answer.status;
        if let Some(proxy) = &answer.forwarded_by {
            if let Some(refusal) = wire::forwarded_refusal(status, &answer.url, proxy) {
                return self.fail(refusal.kind, refusal.message);
            }
        }
        let shown = self.shown();
        let challenge = answer.header("www-authenticate").map(|c| self.scrub(c));
        let content_type = content_type(&answer);
        let mut bytes = Vec::new();
        let _ = answer
            .body
            .as_reader()
            .take(SNIPPET)
            .read_to_end(&mut bytes);
        let snippet = String::from_utf8_lossy(&bytes).trim().to_owned();
        let body = if snippet.is_empty() {
            String::new()
        } else {
            format!("; the body starts {}", self.scrub(&snippet))
        };
        let what = status_text(status);
        let sent_session = self.session.as_ref().is_some_and(|(_, origin)| {
            *origin == answer.url.origin() && rpc_method != "initialize"
        });
        let withheld = if answer.credentials_withheld {
            format!(
                "; the suite's headers were not sent, since the request was redirected to \
                 another origin: update the URL to {}",
                answer.url.shown()
            )
        } else {
            String::new()
        };
        if snippet.to_ascii_lowercase().contains("invalid host header") || status == 421 {
            let host = answer.url.authority();
            return self.fail(
                ProbeErrorKind::HostRejected,
                format!(
                    "{shown} answered {rpc_method} with {what}{body}: the server refused the \
                     Host header it was sent (Host: {host}); it must allow {host} (e.g. in the \
                     MCP Python SDK, TransportSecuritySettings(allowed_hosts=[\"{host}\"])), \
                     or be reached by a host name it allows"
                ),
            );
        }
        match status {
            401 | 403 => {
                let challenge = challenge
                    .map(|c| format!(" (WWW-Authenticate: {c})"))
                    .unwrap_or_default();
                let what = if status == 401 {
                    "401 Unauthorized"
                } else {
                    "403 Forbidden"
                };
                self.fail(
                    ProbeErrorKind::AuthRequired,
                    format!(
                        "{shown} answered {rpc_method} with {what}{challenge}{body}: the server \
                         wants credentials, or refused the ones sent{withheld}"
                    ),
                )
            }
            404 if sent_session => self.fail(
                ProbeErrorKind::SessionRejected,
                format!(
                    "{shown} answered {rpc_method} with 404 Not Found for the session it opened \
                     (Mcp-Session-Id): it no longer knows that session{body}"
                ),
            ),
            404 => self.fail(
                ProbeErrorKind::NotFound,
                format!("{shown} answered {rpc_method} with 404 Not Found{withheld}"),
            ),
            400 if sent_session => self.fail(
                ProbeErrorKind::SessionRejected,
                format!(
                    "{shown} answered {rpc_method} with 400 Bad Request{body}: it did not \
                     accept the session id it gave (Mcp-Session-Id) or the negotiated \
                     MCP-Protocol-Version"
                ),
            ),
            400 if rpc_method != "initialize"
                && self.session.is_none()
                && snippet.to_ascii_lowercase().contains("session") =>
            {
                self.fail(
                    ProbeErrorKind::SessionRejected,
                    format!(
                        "{shown} answered {rpc_method} with 400 Bad Request{body}: it wants a \
                         session id, but gave none (no Mcp-Session-Id header) with its answer to \
                         initialize; is a proxy in between dropping that header?"
                    ),
                )
            }
            405 => self.fail(
                ProbeErrorKind::NotMcp,
                format!(
                    "{shown} answered a POST with 405 Method Not Allowed: this URL is not a \
                     Streamable HTTP MCP endpoint (an old HTTP+SSE server's /sse endpoint, or \
                     a web page?)"
                ),
            ),
            407 => self.fail(
                ProbeErrorKind::Proxy,
                format!(
                    "{shown} answered {rpc_method} with 407 Proxy Authentication Required: a \
                     proxy in between wants credentials; give them in the proxy URL as \
                     USER:PASSWORD@ before the host (the suite's `proxy` setting, or \
                     HTTPS_PROXY/HTTP_PROXY)"
                ),
            ),
            300..=399 => self.fail(
                ProbeErrorKind::Redirect,
                format!(
                    "{shown} answered {rpc_method} with {what} but no Location to follow{body}"
                ),
            ),
            _ => {
                let kind = if status < 500 && content_type == "text/html" {
                    ProbeErrorKind::NotMcp
                } else {
                    ProbeErrorKind::HttpStatus { status }
                };
                self.fail(
                    kind,
                    format!("{shown} answered {rpc_method} with HTTP {status}{body}{withheld}"),
                )
            }
        }
    }

    /// Reads a JSON body into the inbox.
    fn take_json(&mut self, mut answer: Answer, rpc_method: &str) -> Result<(), TransportError> {
        let read = answer
            .body
            .with_config()
            .limit(MAX_BODY as u64)
            .read_to_vec();
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(ureq::Error::BodyExceedsLimit(_)) => {
                return Err(TransportError::InvalidOutput(format!(
                    "the response to {rpc_method} is larger than {} MiB",
                    MAX_BODY / (1024 * 1024)
                )))
            }
            Err(error) => {
                let failure = self.wire.failure(error, &answer.url, None, rpc_method);
                return Err(self.fail(failure.kind, failure.message));
            }
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let parsed = std::str::from_utf8(&bytes)
            .map_err(|_| MessageError::NotMessages)
            .and_then(Message::parse_all);
        match parsed {
            Ok(batch) => {
                for message in batch {
                    self.accept(message);
                }
            }
            Err(_) => {
                let text = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
                let quoted = self.scrub(&text);
                let shown = self.shown();
                return Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!(
                        "{shown} answered {rpc_method} with a body that is not JSON-RPC: {quoted}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Queues one message from the server, noting what the handshake negotiated.
    fn accept(&mut self, message: Message) {
        if message.get("method").is_none() {
            if let Some(id) = message.get("id") {
                if let Some(method) = self.in_flight.remove(&id_key(id)) {
                    if method == "initialize" {
                        let result = message
                            .result()
                            .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok());
                        if let Some(version) = result
                            .as_ref()
                            .and_then(|r| r.get("protocolVersion"))
                            .and_then(Value::as_str)
                            .filter(|v| v.bytes().all(|b| b.is_ascii_graphic()))
                        {
                            self.protocol_version = Some(version.to_owned());
                        }
                    }
                }
            }
        }
        self.inbox.push_back(message);
    }

    /// Takes one event's data as messages: the first is returned, the rest wait in the backlog.
    fn take_event(&mut self, data: &str, method: &str) -> Result<Option<Message>, TransportError> {
        match Message::parse_all(data) {
            Ok(batch) if !batch.is_empty() => {
                let mut batch = batch.into_iter();
                let first = batch.next();
                self.backlog.extend(batch);
                Ok(first)
            }
            _ => {
                let quoted = self.scrub(data);
                Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!("an event in the stream answering {method} is not JSON-RPC: {quoted}"),
                ))
            }
        }
    }

    /// Moves the bound of every request on to `deadline` (when later): a request sent after the
    /// probe (a declared call) has a deadline of its own.
    pub(super) fn extend_deadline(&mut self, deadline: Instant) {
        self.deadline = self.deadline.max(deadline);
    }

    /// Ends the session on the server (best effort, bounded), then closes every connection
    /// (a stream still being read included).
    pub(super) fn close(&mut self) {
        self.stream = None;
        if self.session.is_some() {
            let failure = self.failure.take();
            let deadline = Instant::now() + DELETE_BOUND;
            if let Ok(mut answer) = self.request(Method::DELETE, None, "DELETE", deadline) {
                let _ = answer.body.with_config().limit(SNIPPET).read_to_vec();
            }
            self.failure = failure;
        }
        self.wire.shutdown();
    }
}

/// The media type of an answer, lowercase, without parameters.
fn content_type(answer: &Answer) -> String {
    answer
        .header("content-type")
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

impl Transport for HttpTransport {
    fn send(&mut self, message: &Value) -> Result<(), TransportError> {
        let rpc_method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("our reply to its request")
            .to_owned();
        let is_request = message.get("method").is_some() && message.get("id").is_some();
        let body = serde_json::to_vec(message)
            .map_err(|e| TransportError::Io(format!("could not encode a message: {e}")))?;
        if is_request {
            if let Some(id) = message.get("id") {
                self.in_flight.insert(id_key(id), rpc_method.clone());
            }
        }
        let answer = match self.request(Method::POST, Some(&body), &rpc_method, self.deadline) {
            Ok(answer) => answer,
            Err(failure) => return Err(self.fail(failure.kind, failure.message)),
        };
        if !(200..300).contains(&answer.status) {
            return Err(self.status_failure(answer, &rpc_method));
        }
        if rpc_method == "initialize" {
            if let Some(id) = answer.header("mcp-session-id") {
                if id.bytes().all(|b| (0x21..=0x7e).contains(&b)) && !id.is_empty() {
                    self.session = Some((id.to_owned(), answer.url.origin()));
                }
            }
        }
        if answer.status == 202 || !is_request {
            // Read what little there is, so that the connection can be kept.
            let mut answer = answer;
            let _ = answer.body.with_config().limit(SNIPPET).read_to_vec();
            return Ok(());
        }
        match content_type(&answer).as_str() {
            "application/json" => self.take_json(answer, &rpc_method),
            "text/event-stream" => match EventStream::start(answer.body, rpc_method, MAX_BODY) {
                Ok(stream) => {
                    self.stream = Some(stream);
                    Ok(())
                }
                Err(error) => Err(TransportError::Io(format!(
                    "could not start a thread to read the event stream: {error}"
                ))),
            },
            other => {
                let shown_type = if other.is_empty() {
                    "no Content-Type".to_owned()
                } else {
                    format!("Content-Type {}", self.scrub(other))
                };
                let mut answer = answer;
                let mut bytes = Vec::new();
                let _ = answer.body.as_reader().take(300).read_to_end(&mut bytes);
                let quoted = self.scrub(String::from_utf8_lossy(&bytes).trim());
                let shown = self.shown();
                Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!(
                        "{shown} answered {rpc_method} with {shown_type}, not JSON or an event \
                         stream (body starts {quoted}): is this URL an MCP endpoint?"
                    ),
                ))
            }
        }
    }

    fn recv(&mut self, deadline: Instant) -> Result<Option<Message>, TransportError> {
        loop {
            if let Some(message) = self.inbox.pop_front() {
                return Ok(Some(message));
            }
            if let Some(message) = self.backlog.pop_front() {
                self.accept(message);
                continue;
            }
            let Some(stream) = &self.stream else {
                if self.in_flight.is_empty() {
                    return Ok(None);
                }
                let pending: Vec<&str> = self.in_flight.values().map(String::as_str).collect();
                let message = format!(
                    "{} gave no answer to {} in its HTTP response",
                    self.shown(),
                    pending.join(", ")
                );
                return Err(self.fail(ProbeErrorKind::NotMcp, message));
            };
            let left = deadline
                .min(self.deadline)
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero());
            let Some(left) = left else {
                return Ok(None);
            };
            let method = stream.method.clone();
            match stream.next(left) {
                None => return Ok(None),
                Some(Event::Data(data)) => {
                    if let Some(message) = self.take_event(&data, &method)? {
                        self.accept(message);
                    }
                }
                Some(Event::End) => self.stream = None,
                Some(Event::TooLarge(limit)) => {
                    self.stream = None;
                    return Err(TransportError::InvalidOutput(format!(
                        "an event in the stream answering {method} is larger than {} MiB",
                        limit / (1024 * 1024)
                    )));
                }
                Some(Event::Failed(error)) => {
                    self.stream = None;
                    match &error {
                        // The stream's own timeout is the probe's deadline: the session reports
                        // that time-out itself.
                        ureq::Error::Timeout(_) => return Ok(None),
                        // A stream cut short ends like one that ended: what it still owed is
                        // reported as missing.
                        ureq::Error::Io(io)
                            if matches!(
                                io.kind(),
                                std::io::ErrorKind::UnexpectedEof
                                    | std::io::ErrorKind::ConnectionReset
                                    | std::io::ErrorKind::ConnectionAborted
                            ) =>
                        {
                            continue
                        }
                        _ => {}
                    }
                    let url = self.url.clone();
                    let failure = self.wire.failure(error, &url, None, &method);
                    let message = format!(
                        "reading the event stream answering {method}: {}",
                        failure.message
                    );
                    return Err(self.fail(failure.kind, message));
                }
            }
        }
    }
}
