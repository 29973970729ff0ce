//! The Streamable HTTP transport (MCP 2025-03-26 and later), written over `std::net` so that
//! users of this dev-dependency compile no HTTP stack and no async runtime.
//!
//! Every JSON-RPC message is POSTed to the endpoint with
//! `Accept: application/json, text/event-stream`; the answer is `application/json` (one message
//! or a batch), `text/event-stream` (SSE events whose `data:` carries messages, read as the
//! session asks for them) or 202 with no body (notifications and answers). The
//! `Mcp-Session-Id` the server gives with the `initialize` answer is echoed on every later
//! request, `MCP-Protocol-Version` is sent once negotiated, and the session is DELETEd at the end
//! (best effort, bounded). Each request uses a connection of its own (`Connection: close`): a
//! probe sends a handful of requests, and this keeps the client small.
//!
//! `https://` URLs (feature `https`) wrap each connection in rustls (see `tls.rs`); the request
//! and response handling is the same code over a [`Conn`], plain or TLS. Without the feature
//! they are refused with a configuration error that says which feature to enable.
//!
//! Header values may come from environment variables ([`HeaderValue::Env`]); the values of every
//! header are treated as secrets: they are scrubbed from any server text quoted in an error.

use super::message::{Message, MessageError};
use super::process_group;
use super::session::{Transport, TransportError};
use super::{
    display_url, quote_untrusted, HeaderValue, HttpEndpoint, Phase, ProbeError, ProbeErrorKind,
    ServerCommand,
};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Largest response header block accepted.
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Largest JSON body (or one SSE event) accepted.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// Bound on the closing DELETE of the session.
const DELETE_BOUND: Duration = Duration::from_secs(2);

/// A parsed `http://` or `https://` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Url {
    /// `https://`: the connection is TLS.
    pub(super) tls: bool,
    pub(super) host: String,
    pub(super) port: u16,
    /// Path and query, starting with `/`.
    pub(super) target: String,
}

/// Splits an endpoint URL: `http://`, and `https://` when built with the `https` feature.
pub(super) fn parse_url(url: &str) -> Result<Url, (ProbeErrorKind, String)> {
    let config = |message: String| (ProbeErrorKind::Configuration, message);
    let (scheme, rest) = url.split_once("://").ok_or_else(|| {
        config("the URL has no scheme: write it as http://HOST:PORT/mcp".to_owned())
    })?;
    let tls = match scheme.to_ascii_lowercase().as_str() {
        "http" => false,
        "https" if cfg!(feature = "https") => true,
        "https" => {
            return Err(config(
                "https:// endpoints need the `https` feature: enable the `https` feature of \
                 mcp-contract-test (mcp-contract-test = { version = \"0.1\", features = \
                 [\"https\"] }), or probe the server over plain http on a local port"
                    .to_owned(),
            ))
        }
        _ => {
            return Err(config(
                "the URL's scheme must be http:// or https:// (Streamable HTTP endpoints look \
                 like http://127.0.0.1:8080/mcp)"
                    .to_owned(),
            ))
        }
    };
    let (authority, target) = match rest.find(['/', '?']) {
        Some(at) if rest[at..].starts_with('/') => (&rest[..at], rest[at..].to_owned()),
        Some(at) => (&rest[..at], format!("/{}", &rest[at..])),
        None => (rest, "/".to_owned()),
    };
    let target = target.split('#').next().unwrap_or("/").to_owned();
    if authority.contains('@') {
        return Err(config(
            "credentials in the URL (user:password@) are not supported: send them as a header \
             taken from an environment variable, e.g. Authorization: Bearer ${MCP_TOKEN}"
                .to_owned(),
        ));
    }
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let (host, after) = inner
            .split_once(']')
            .ok_or_else(|| config("the URL has an unclosed [ in its host".to_owned()))?;
        (host.to_owned(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (authority.to_owned(), None),
        }
    };
    if host.is_empty() {
        return Err(config("the URL has no host".to_owned()));
    }
    let port = match port {
        None | Some("") if tls => 443,
        None | Some("") => 80,
        Some(port) => port
            .parse::<u16>()
            .map_err(|_| config("the URL's port is not a number between 0 and 65535".to_owned()))?,
    };
    if target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(config(
            "the URL's path has spaces or control characters: percent-encode them".to_owned(),
        ));
    }
    Ok(Url {
        tls,
        host,
        port,
        target,
    })
}

/// A failure the HTTP transport understands better than the session does.
#[derive(Debug, Clone)]
pub(super) struct HttpFailure {
    pub(super) kind: ProbeErrorKind,
    pub(super) message: String,
}

/// Resolves every header value (environment variables read now). Errors name the variable,
/// never a value.
pub(super) fn resolve_headers(
    endpoint: &HttpEndpoint,
) -> Result<Vec<(String, String)>, HttpFailure> {
    let mut headers = Vec::new();
    for (name, value) in &endpoint.headers {
        let valid_name = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !valid_name {
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
        if resolved.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(HttpFailure {
                kind: ProbeErrorKind::Configuration,
                message: format!(
                    "the value of the header {name} holds a line break or NUL: it cannot be sent"
                ),
            });
        }
        headers.push((name.clone(), resolved));
    }
    Ok(headers)
}

/// One connection to the endpoint: plain TCP, or TLS over it (`https://`). Everything above the
/// connection (requests, responses, chunking, SSE) is the same code over its `Read + Write`.
enum Conn {
    Plain(TcpStream),
    #[cfg(feature = "https")]
    Tls(Box<super::tls::TlsStream>),
}

impl Conn {
    /// The TCP socket underneath (for timeouts).
    fn tcp(&self) -> &TcpStream {
        match self {
            Conn::Plain(stream) => stream,
            #[cfg(feature = "https")]
            Conn::Tls(stream) => stream.get_ref(),
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(stream) => stream.read(buf),
            #[cfg(feature = "https")]
            Conn::Tls(stream) => super::tls::read(stream, buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(stream) => stream.write(buf),
            #[cfg(feature = "https")]
            Conn::Tls(stream) => stream.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Conn::Plain(stream) => stream.flush(),
            #[cfg(feature = "https")]
            Conn::Tls(stream) => stream.flush(),
        }
    }
}

/// How a response body is delimited.
enum Framing {
    Length(u64),
    Chunked { left_in_chunk: u64, done: bool },
    UntilClose,
}

/// A response body as a byte stream (de-chunked).
struct Body {
    reader: BufReader<Conn>,
    framing: Framing,
}

impl Read for Body {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        match &mut self.framing {
            Framing::Length(left) => {
                if *left == 0 {
                    return Ok(0);
                }
                let want = buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                let n = self.reader.read(&mut buf[..want])?;
                if n == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the connection closed before the end of the response body",
                    ));
                }
                *left -= n as u64;
                Ok(n)
            }
            Framing::UntilClose => self.reader.read(buf),
            Framing::Chunked {
                left_in_chunk,
                done,
            } => loop {
                if *done {
                    return Ok(0);
                }
                if *left_in_chunk > 0 {
                    let want = buf
                        .len()
                        .min(usize::try_from(*left_in_chunk).unwrap_or(usize::MAX));
                    let n = self.reader.read(&mut buf[..want])?;
                    if n == 0 {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "the connection closed inside a chunk",
                        ));
                    }
                    *left_in_chunk -= n as u64;
                    if *left_in_chunk == 0 {
                        let mut crlf = String::new();
                        read_line_limited(&mut self.reader, &mut crlf, 16)?;
                    }
                    return Ok(n);
                }
                let mut line = String::new();
                read_line_limited(&mut self.reader, &mut line, 1024)?;
                let size_text = line.trim().split(';').next().unwrap_or("").trim();
                let size = u64::from_str_radix(size_text, 16).map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a chunk size is not hexadecimal",
                    )
                })?;
                if size == 0 {
                    // Trailers, up to the empty line.
                    loop {
                        let mut trailer = String::new();
                        let n = read_line_limited(&mut self.reader, &mut trailer, 8192)?;
                        if n == 0 || trailer.trim().is_empty() {
                            break;
                        }
                    }
                    *done = true;
                } else {
                    *left_in_chunk = size;
                }
            },
        }
    }
}

/// Reads one line (up to `limit` bytes) as UTF-8 (lossy).
fn read_line_limited<R: BufRead>(
    reader: &mut R,
    out: &mut String,
    limit: u64,
) -> io::Result<usize> {
    let mut bytes = Vec::new();
    let n = reader.take(limit).read_until(b'\n', &mut bytes)?;
    if n as u64 == limit && bytes.last() != Some(&b'\n') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a line of the response is too long",
        ));
    }
    out.push_str(&String::from_utf8_lossy(&bytes));
    Ok(n)
}

/// The head of one response.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Body,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn content_type(&self) -> String {
        self.header("content-type")
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    }

    /// Up to `limit` bytes of the body as text, for messages.
    fn snippet(mut self, limit: u64) -> String {
        let mut bytes = Vec::new();
        let _ = (&mut self.body).take(limit).read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).trim().to_owned()
    }
}

/// An SSE stream being read as the session asks for messages.
struct EventStream {
    reader: BufReader<Body>,
    /// The request the stream answers (for messages).
    method: String,
}

/// The Streamable HTTP transport of one probe.
pub(super) struct HttpTransport {
    url: Url,
    shown_url: String,
    headers: Vec<(String, String)>,
    session_id: Option<String>,
    protocol_version: Option<String>,
    /// Requests sent and not answered yet: id → method.
    in_flight: HashMap<String, String>,
    inbox: VecDeque<Message>,
    /// Messages of an SSE batch not accepted yet.
    backlog: VecDeque<Message>,
    stream: Option<EventStream>,
    /// The first failure this transport classified (kind and message), kept for the probe.
    pub(super) failure: Option<HttpFailure>,
    /// Set while the first request is under way: a connection refused then means "unreachable".
    deadline: Instant,
    /// The TLS configuration, for `https://` URLs.
    #[cfg(feature = "https")]
    tls: Option<super::tls::Tls>,
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
        let url =
            parse_url(&endpoint.url).map_err(|(kind, message)| HttpFailure { kind, message })?;
        #[cfg(feature = "https")]
        let tls = if url.tls {
            Some(super::tls::Tls::new(endpoint.ca_file.as_deref())?)
        } else {
            None
        };
        Ok(HttpTransport {
            url,
            shown_url: display_url(&endpoint.url),
            headers,
            session_id: None,
            protocol_version: None,
            in_flight: HashMap::new(),
            inbox: VecDeque::new(),
            backlog: VecDeque::new(),
            stream: None,
            failure: None,
            deadline,
            #[cfg(feature = "https")]
            tls,
        })
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

    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
    }

    /// Opens a connection with read and write timeouts of `bound`; for `https://`, completes the
    /// TLS handshake (within the same bound per read or write).
    fn connect(&mut self, bound: Duration) -> Result<Conn, TransportError> {
        let stream = self.connect_tcp(bound)?;
        let _ = stream.set_nodelay(true);
        let timeouts = stream
            .set_read_timeout(Some(bound))
            .and_then(|()| stream.set_write_timeout(Some(bound)));
        if let Err(error) = timeouts {
            return Err(TransportError::Io(format!(
                "cannot set socket timeouts: {error}"
            )));
        }
        #[cfg(feature = "https")]
        if let Some(tls) = &self.tls {
            let until = Instant::now() + bound;
            return match tls.connect(&self.url.host, stream, &self.shown_url, until) {
                Ok(stream) => Ok(Conn::Tls(Box::new(stream))),
                Err(failure) => Err(self.fail(failure.kind, failure.message)),
            };
        }
        Ok(Conn::Plain(stream))
    }

    fn connect_tcp(&mut self, bound: Duration) -> Result<TcpStream, TransportError> {
        let shown = self.shown_url.clone();
        let addrs: Vec<SocketAddr> = match (self.url.host.as_str(), self.url.port).to_socket_addrs()
        {
            Ok(addrs) => addrs.collect(),
            Err(error) => {
                return Err(self.fail(
                    ProbeErrorKind::Unreachable,
                    format!(
                        "cannot resolve the host of {shown}: {error}; is the server running at \
                         {shown}, and is the host name right?"
                    ),
                ))
            }
        };
        let mut last = None;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, bound) {
                Ok(stream) => return Ok(stream),
                Err(error) => last = Some(error),
            }
        }
        let detail = match last {
            Some(error) if error.kind() == io::ErrorKind::TimedOut => {
                format!("no answer to connect within {:.1} s", bound.as_secs_f64())
            }
            Some(error) => error.to_string(),
            None => "the host name has no address".to_owned(),
        };
        Err(self.fail(
            ProbeErrorKind::Unreachable,
            format!("cannot connect to {shown}: {detail}; is the server running at {shown}?"),
        ))
    }

    /// Sends one HTTP request and reads the response head.
    fn exchange(
        &mut self,
        method: &str,
        body: Option<&[u8]>,
        bound: Duration,
    ) -> Result<Response, TransportError> {
        let mut stream = self.connect(bound)?;
        let default_port = if self.url.tls { 443 } else { 80 };
        let host = match (self.url.host.contains(':'), self.url.port == default_port) {
            (true, true) => format!("[{}]", self.url.host),
            (true, false) => format!("[{}]:{}", self.url.host, self.url.port),
            (false, true) => self.url.host.clone(),
            (false, false) => format!("{}:{}", self.url.host, self.url.port),
        };
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: mcp-contract-test/{}\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n",
            self.url.target,
            env!("CARGO_PKG_VERSION")
        );
        if let Some(body) = body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        if let Some(id) = &self.session_id {
            head.push_str(&format!("Mcp-Session-Id: {id}\r\n"));
        }
        if let Some(version) = &self.protocol_version {
            head.push_str(&format!("MCP-Protocol-Version: {version}\r\n"));
        }
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let written = stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body.unwrap_or_default()))
            .and_then(|()| stream.flush());
        if let Err(error) = written {
            return Err(self.io_failure(error, "sending the request"));
        }
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        if let Err(error) = read_line_limited(&mut reader, &mut status_line, 8192) {
            let closed = matches!(
                error.kind(),
                io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::UnexpectedEof
            );
            if !closed || !status_line.is_empty() {
                return Err(self.io_failure(error, "waiting for the response"));
            }
            // Closed (or reset) before a single byte: reported as no HTTP response, below.
        }
        if status_line.is_empty() {
            return Err(self.fail(
                ProbeErrorKind::NotMcp,
                format!(
                    "{} closed the connection without an HTTP response: is it an HTTP server{}?",
                    self.shown_url,
                    if self.url.tls {
                        ""
                    } else {
                        " (an https server? then write the URL with https://)"
                    }
                ),
            ));
        }
        let mut parts = status_line.split_whitespace();
        let status = match (
            parts.next(),
            parts.next().and_then(|s| s.parse::<u16>().ok()),
        ) {
            (Some(version), Some(status)) if version.starts_with("HTTP/1.") => status,
            _ => {
                let quoted = self.scrub(status_line.trim());
                return Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!(
                        "{} did not answer with HTTP/1.x (first line: {quoted}): is it an HTTP \
                         server?",
                        self.shown_url
                    ),
                ));
            }
        };
        let mut headers = Vec::new();
        let mut total = 0;
        loop {
            let mut line = String::new();
            match read_line_limited(&mut reader, &mut line, 8192) {
                Ok(0) => break,
                Ok(n) => total += n,
                Err(error) => return Err(self.io_failure(error, "reading the response headers")),
            }
            if total > MAX_HEADER_BYTES {
                return Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    "the response headers are larger than 64 KiB".to_owned(),
                ));
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(n, _): &&(String, String)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let framing = if method == "HEAD" || status == 204 || status == 304 {
            Framing::Length(0)
        } else if find("transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        {
            Framing::Chunked {
                left_in_chunk: 0,
                done: false,
            }
        } else if let Some(length) = find("content-length") {
            match length.parse::<u64>() {
                Ok(length) => Framing::Length(length),
                Err(_) => {
                    return Err(self.fail(
                        ProbeErrorKind::NotMcp,
                        "the response has an invalid Content-Length".to_owned(),
                    ))
                }
            }
        } else {
            Framing::UntilClose
        };
        Ok(Response {
            status,
            headers,
            body: Body { reader, framing },
        })
    }

    fn io_failure(&mut self, error: io::Error, doing: &str) -> TransportError {
        if matches!(
            error.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        ) {
            let message = format!(
                "timed out {doing} from {}: the probe's time limit ran out",
                self.shown_url
            );
            return self.fail(ProbeErrorKind::TimedOut, message);
        }
        if matches!(
            error.kind(),
            io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::UnexpectedEof
                | io::ErrorKind::BrokenPipe
        ) {
            return TransportError::Closed;
        }
        TransportError::Io(format!("{doing} from {} failed: {error}", self.shown_url))
    }

    /// Turns a non-success status into its classified failure.
    fn status_failure(&mut self, response: Response, rpc_method: &str) -> TransportError {
        let status = response.status;
        let shown = self.shown_url.clone();
        let challenge = response.header("www-authenticate").map(|c| self.scrub(c));
        let content_type = response.content_type();
        let snippet = response.snippet(2048);
        let body = if snippet.is_empty() {
            String::new()
        } else {
            format!("; the body starts {}", self.scrub(&snippet))
        };
        match status {
            401 | 403 => {
                let what = if status == 401 {
                    "401 Unauthorized"
                } else {
                    "403 Forbidden"
                };
                let challenge = challenge
                    .map(|c| format!(" (WWW-Authenticate: {c})"))
                    .unwrap_or_default();
                self.fail(
                    ProbeErrorKind::AuthRequired,
                    format!(
                        "{shown} answered {rpc_method} with {what}{challenge}: the server wants \
                         credentials, or refused the ones sent"
                    ),
                )
            }
            404 => self.fail(
                ProbeErrorKind::NotFound,
                format!(
                    "{shown} answered {rpc_method} with 404 Not Found{}",
                    if self.session_id.is_some() && rpc_method != "initialize" {
                        " (the server may have dropped the session)"
                    } else {
                        ""
                    }
                ),
            ),
            405 => self.fail(
                ProbeErrorKind::NotMcp,
                format!(
                    "{shown} answered a POST with 405 Method Not Allowed: this URL is not a \
                     Streamable HTTP MCP endpoint (an old HTTP+SSE server's /sse endpoint, or \
                     a web page?)"
                ),
            ),
            _ => {
                let kind = if status >= 500 {
                    ProbeErrorKind::HttpStatus { status }
                } else if content_type == "text/html" {
                    ProbeErrorKind::NotMcp
                } else {
                    ProbeErrorKind::HttpStatus { status }
                };
                self.fail(
                    kind,
                    format!("{shown} answered {rpc_method} with HTTP {status}{body}"),
                )
            }
        }
    }

    /// Reads a JSON body into the inbox.
    fn take_json(&mut self, response: Response, rpc_method: &str) -> Result<(), TransportError> {
        let mut bytes = Vec::new();
        let mut body = response.body;
        if let Err(error) = (&mut body)
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut bytes)
        {
            return Err(self.io_failure(error, "reading the response"));
        }
        if bytes.len() > MAX_BODY {
            return Err(TransportError::InvalidOutput(format!(
                "the response to {rpc_method} is larger than {} MiB",
                MAX_BODY / (1024 * 1024)
            )));
        }
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
                return Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!(
                        "{} answered {rpc_method} with a body that is not JSON-RPC: {quoted}",
                        self.shown_url
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

    /// The next message of the open SSE stream, or `None` when it ended.
    fn next_event(&mut self) -> Result<Option<Message>, TransportError> {
        let Some(mut stream) = self.stream.take() else {
            return Ok(None);
        };
        let mut data = String::new();
        loop {
            let mut line = String::new();
            let n = match read_line_limited(&mut stream.reader, &mut line, MAX_BODY as u64) {
                Ok(n) => n,
                Err(error) => return Err(self.io_failure(error, "reading the event stream")),
            };
            let line = line.trim_end_matches(['\r', '\n']);
            if n == 0 || line.is_empty() {
                if !data.is_empty() {
                    match Message::parse_all(&data) {
                        Ok(batch) if !batch.is_empty() => {
                            let mut batch = batch.into_iter();
                            let first = batch.next();
                            self.backlog.extend(batch);
                            self.stream = Some(stream);
                            return Ok(first);
                        }
                        _ => {
                            let quoted = self.scrub(&data);
                            return Err(self.fail(
                                ProbeErrorKind::NotMcp,
                                format!(
                                    "an event in the stream answering {} is not JSON-RPC: \
                                     {quoted}",
                                    stream.method
                                ),
                            ));
                        }
                    }
                }
                if n == 0 {
                    return Ok(None);
                }
                continue;
            }
            if let Some(value) = line.strip_prefix("data:") {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(value.strip_prefix(' ').unwrap_or(value));
            }
            // `event:`, `id:`, `retry:` and comments change nothing for a probe.
        }
    }

    /// Ends the session on the server (best effort, bounded).
    pub(super) fn close(&mut self) {
        self.stream = None;
        if self.session_id.is_some() {
            let failure = self.failure.take();
            let _ = self.exchange("DELETE", None, DELETE_BOUND);
            self.failure = failure;
        }
    }
}

impl Transport for HttpTransport {
    fn send(&mut self, message: &Value) -> Result<(), TransportError> {
        let rpc_method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("our reply to its request")
            .to_owned();
        let is_request = message.get("method").is_some() && message.get("id").is_some();
        let Some(bound) = self.remaining() else {
            return Err(self.fail(
                ProbeErrorKind::TimedOut,
                format!("the probe's time limit ran out before sending {rpc_method}"),
            ));
        };
        let body = serde_json::to_vec(message)
            .map_err(|e| TransportError::Io(format!("could not encode a message: {e}")))?;
        if is_request {
            if let Some(id) = message.get("id") {
                self.in_flight.insert(id_key(id), rpc_method.clone());
            }
        }
        let response = self.exchange("POST", Some(&body), bound)?;
        if !(200..300).contains(&response.status) {
            return Err(self.status_failure(response, &rpc_method));
        }
        if rpc_method == "initialize" {
            if let Some(id) = response.header("mcp-session-id") {
                if id.bytes().all(|b| (0x21..=0x7e).contains(&b)) && !id.is_empty() {
                    self.session_id = Some(id.to_owned());
                }
            }
        }
        if response.status == 202 || !is_request {
            return Ok(());
        }
        match response.content_type().as_str() {
            "application/json" => self.take_json(response, &rpc_method),
            "text/event-stream" => {
                self.stream = Some(EventStream {
                    reader: BufReader::new(response.body),
                    method: rpc_method,
                });
                Ok(())
            }
            other => {
                let shown_type = if other.is_empty() {
                    "no Content-Type".to_owned()
                } else {
                    format!("Content-Type {}", self.scrub(other))
                };
                let snippet = response.snippet(300);
                let quoted = self.scrub(&snippet);
                Err(self.fail(
                    ProbeErrorKind::NotMcp,
                    format!(
                        "{} answered {rpc_method} with {shown_type}, not JSON or an event \
                         stream (body starts {quoted}): is this URL an MCP endpoint?",
                        self.shown_url
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
            if self.stream.is_none() {
                if self.in_flight.is_empty() {
                    return Ok(None);
                }
                let pending: Vec<&String> = self.in_flight.values().collect();
                let message = format!(
                    "{} gave no answer to {} in its HTTP response",
                    self.shown_url,
                    pending
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                return Err(self.fail(ProbeErrorKind::NotMcp, message));
            }
            let left = deadline
                .min(self.deadline)
                .checked_duration_since(Instant::now());
            let Some(left) = left.filter(|d| !d.is_zero()) else {
                return Ok(None);
            };
            if let Some(stream) = &self.stream {
                let _ = stream
                    .reader
                    .get_ref()
                    .reader
                    .get_ref()
                    .tcp()
                    .set_read_timeout(Some(left));
            }
            match self.next_event() {
                Ok(Some(message)) => self.accept(message),
                Ok(None) => {}
                Err(TransportError::Io(_))
                    if self
                        .failure
                        .as_ref()
                        .is_some_and(|f| f.kind == ProbeErrorKind::TimedOut) =>
                {
                    // A read timeout is the session's time-out, reported by it.
                    self.failure = None;
                    return Ok(None);
                }
                Err(error) => return Err(error),
            }
        }
    }
}

/// Lines of a started server's output kept for error messages.
const OUTPUT_LINES: usize = 20;
/// Bytes kept of one such line.
const OUTPUT_LINE_BYTES: usize = 500;

/// Why a server to be started for an HTTP probe did not become ready.
#[derive(Debug)]
pub(super) struct StartError {
    kind: ProbeErrorKind,
    message: String,
    exit_status: Option<String>,
    tail: Vec<String>,
}

impl StartError {
    pub(super) fn into_probe_error(self, label: &str) -> ProbeError {
        ProbeError {
            command: label.to_owned(),
            phase: Phase::Spawn,
            kind: self.kind,
            message: self.message,
            exit_status: self.exit_status,
            stderr_tail: self.tail,
        }
    }
}

/// A server started for an HTTP probe: its own process group, stdout and stderr drained into a
/// bounded tail, stopped (SIGTERM, then SIGKILL, to the whole group) when dropped.
pub(super) struct StartedServer {
    child: Child,
    /// The endpoint URL with `{port}` filled in.
    pub(super) url: String,
    output: Arc<Mutex<VecDeque<String>>>,
    stopped: bool,
}

impl StartedServer {
    /// Picks a free port, starts `command` with `{port}` filled in, and waits (until
    /// `deadline`) for `endpoint.ready_line` on its output, or for its port to accept a
    /// connection.
    pub(super) fn start(
        command: &ServerCommand,
        endpoint: &HttpEndpoint,
        deadline: Instant,
    ) -> Result<StartedServer, StartError> {
        let error = |kind, message: String| StartError {
            kind,
            message,
            exit_status: None,
            tail: Vec::new(),
        };
        let port = TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| error(ProbeErrorKind::Io, format!("cannot find a free port: {e}")))?;
        let fill = |text: &str| text.replace("{port}", &port.to_string());
        let url = fill(&endpoint.url);
        let parsed = parse_url(&url).map_err(|(kind, message)| error(kind, message))?;
        let mut builder = Command::new(fill(&command.program));
        builder
            .args(command.args.iter().map(|a| fill(a)))
            .envs(command.env.iter().map(|(k, v)| (k, fill(v))))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &command.cwd {
            builder.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            builder.process_group(0);
        }
        let mut child = builder.spawn().map_err(|e| {
            let kind = if e.kind() == io::ErrorKind::NotFound {
                ProbeErrorKind::CommandNotFound
            } else {
                ProbeErrorKind::SpawnFailed
            };
            error(
                kind,
                format!(
                    "the start command `{}` could not be started: {e}",
                    command.display()
                ),
            )
        })?;
        let output = Arc::new(Mutex::new(VecDeque::new()));
        let (ready_tx, ready_rx) = mpsc::channel();
        let pipes: [Option<Box<dyn Read + Send>>; 2] = [
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ];
        for pipe in pipes.into_iter().flatten() {
            let output = Arc::clone(&output);
            let ready_tx = ready_tx.clone();
            let needle = endpoint.ready_line.clone();
            // Detached: it ends when the pipe closes (when the group is gone).
            let _ = thread::Builder::new()
                .name("mcp-probe-started".into())
                .spawn(move || drain_output(pipe, &output, needle.as_deref(), &ready_tx));
        }
        drop(ready_tx);
        let mut server = StartedServer {
            child,
            url,
            output,
            stopped: false,
        };
        loop {
            if let Ok(Some(status)) = server.child.try_wait() {
                let tail = server.output_tail();
                return Err(StartError {
                    kind: ProbeErrorKind::Exited,
                    message: format!(
                        "the start command `{}` exited before the server was ready",
                        command.display()
                    ),
                    exit_status: Some(status.to_string()),
                    tail,
                });
            }
            let ready = match &endpoint.ready_line {
                Some(_) => ready_rx.recv_timeout(Duration::from_millis(50)).is_ok(),
                None => {
                    let addr = (parsed.host.as_str(), parsed.port)
                        .to_socket_addrs()
                        .ok()
                        .and_then(|mut a| a.next());
                    match addr {
                        Some(addr) => {
                            TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
                        }
                        None => false,
                    }
                }
            };
            if ready {
                return Ok(server);
            }
            if Instant::now() >= deadline {
                let tail = server.output_tail();
                server.stop();
                let waited_for = match &endpoint.ready_line {
                    Some(line) => format!("a line containing {}", quote_untrusted(line)),
                    None => format!("port {port} to accept connections"),
                };
                return Err(StartError {
                    kind: ProbeErrorKind::TimedOut,
                    message: format!(
                        "the server started with `{}` was not ready in time: waited for \
                         {waited_for}",
                        command.display()
                    ),
                    exit_status: None,
                    tail,
                });
            }
            if endpoint.ready_line.is_none() {
                thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// The last lines the server wrote (stdout and stderr, raw; escaped when displayed).
    pub(super) fn output_tail(&self) -> Vec<String> {
        self.output
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    /// Stops the server's process group: SIGTERM, up to 1 s, SIGKILL. Idempotent.
    pub(super) fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        if process_group::terminate(&mut self.child, Duration::from_secs(1)).is_some() {
            return;
        }
        let _ = self.child.wait();
    }
}

impl Drop for StartedServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn drain_output(
    pipe: Box<dyn Read + Send>,
    output: &Mutex<VecDeque<String>>,
    needle: Option<&str>,
    ready: &mpsc::Sender<()>,
) {
    let mut reader = BufReader::new(pipe);
    loop {
        let mut line = String::new();
        match read_line_limited(&mut reader, &mut line, 1024 * 1024) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if needle.is_some_and(|n| line.contains(n)) {
            let _ = ready.send(());
        }
        let mut kept: String = line.chars().take(OUTPUT_LINE_BYTES).collect();
        if kept.len() < line.len() {
            kept.push_str(" …(cut)");
        }
        let mut output = output.lock().unwrap_or_else(PoisonError::into_inner);
        if output.len() == OUTPUT_LINES {
            output.pop_front();
        }
        output.push_back(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_host_port_and_target() {
        let url = parse_url("http://127.0.0.1:8080/mcp?x=1#frag").unwrap();
        assert_eq!(
            url,
            Url {
                tls: false,
                host: "127.0.0.1".into(),
                port: 8080,
                target: "/mcp?x=1".into()
            }
        );
        assert_eq!(parse_url("http://[::1]:9/").unwrap().host, "::1");
        assert_eq!(parse_url("HTTP://localhost").unwrap().port, 80);
        assert_eq!(parse_url("http://h?q").unwrap().target, "/?q");
        for bad in [
            "127.0.0.1:80/mcp",
            "ftp://x/",
            "http://:80/",
            "http://h:99999/",
            "http://u:p@h/",
        ] {
            assert_eq!(
                parse_url(bad).unwrap_err().0,
                ProbeErrorKind::Configuration,
                "{bad}"
            );
        }
    }

    #[cfg(not(feature = "https"))]
    #[test]
    fn https_urls_name_the_feature_that_speaks_them() {
        let (kind, message) = parse_url("https://h/mcp").unwrap_err();
        assert_eq!(kind, ProbeErrorKind::Configuration);
        assert!(
            message.contains("enable the `https` feature of mcp-contract-test"),
            "{message}"
        );
    }

    #[cfg(feature = "https")]
    #[test]
    fn https_urls_default_to_port_443() {
        let url = parse_url("HTTPS://example.com/mcp").unwrap();
        assert!(url.tls);
        assert_eq!((url.host.as_str(), url.port), ("example.com", 443));
        assert_eq!(parse_url("https://[::1]:8443/").unwrap().port, 8443);
    }
}
