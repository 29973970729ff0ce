//! The Streamable HTTP recorder: an endpoint on a loopback address that forwards every request
//! to the server's URL and its answer back, as they come.
//!
//! Requests keep their method, body and headers (`Authorization`, `Mcp-Session-Id`,
//! `MCP-Protocol-Version`, …); only what belongs to one connection is left to each side
//! (`Host`, `Connection`, `Content-Length`, `Transfer-Encoding`, …) and `Accept-Encoding` is
//! dropped, so that answers come uncompressed and can be read. Answers keep their status and
//! headers: a JSON body is passed on whole, an event stream (`text/event-stream`) chunk by chunk
//! as it arrives, redirects as they are (the consumer follows them or not). A request for the
//! upstream URL's path (or `/`) goes to the upstream URL; any other path to that path on the
//! upstream's origin (OAuth metadata under `/.well-known/`, say).
//!
//! The HTTP client is ureq, as the library's `http` feature builds it (TLS with rustls, ring and
//! Mozilla's public CAs for an `https://` upstream; no proxy: the upstream is reached
//! directly). The listening side is a small HTTP/1.1 server on std's `TcpListener`, a thread per
//! connection. It runs until SIGTERM, SIGINT or SIGHUP.

use super::observe::{Recording, Side};
use super::sse::Events;
use crate::exit;
use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::run::FailureKind;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use ureq::http::{self, Uri};

/// Largest request head (request line and headers) read.
const MAX_HEAD: usize = 64 * 1024;
/// Largest request body, and largest answer that is not an event stream.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// How long connecting to the upstream may take.
const CONNECT: Duration = Duration::from_secs(30);

/// Headers that belong to one connection (RFC 9110 §7.6.1), never forwarded; and those the
/// recorder sets itself.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "expect",
];

/// Listens on `listen` and forwards to `upstream` until a signal comes.
pub(super) fn run(
    listen: &str,
    upstream: &str,
    recording: &Arc<Recording>,
) -> Result<u8, CliError> {
    let usage = |message: String| CliError::usage(message);
    let address: SocketAddr = listen.parse().map_err(|_| {
        usage(format!(
            "--listen takes an address and a port, 127.0.0.1:PORT or [::1]:PORT (got `{}`)",
            escape(listen)
        ))
    })?;
    if !address.ip().is_loopback() {
        return Err(usage(format!(
            "--listen {address}: the recorder listens on a loopback address only (127.0.0.1 or \
             [::1]), so that nothing but this machine reaches the server through it"
        )));
    }
    let upstream = Upstream::parse(upstream).map_err(usage)?;
    let listener = TcpListener::bind(address).map_err(|e| {
        CliError::failure(
            FailureKind::Unreachable,
            format!("cannot listen on {address}: {e}"),
        )
    })?;
    let bound = listener.local_addr().map_err(|e| {
        CliError::failure(
            FailureKind::Unreachable,
            format!("cannot listen on {address}: {e}"),
        )
    })?;
    eprintln!(
        "mcp-contract record: listening on http://{bound}{}, forwarding to {}",
        upstream.uri.path(),
        escape(&upstream.uri.to_string())
    );
    let (signals, signal) = mpsc::channel();
    watch_signals(signals);
    let upstream = Arc::new(upstream);
    let exchanges = Arc::new(AtomicU64::new(1));
    {
        let recording = Arc::clone(recording);
        std::thread::Builder::new()
            .name("mcp-record-listen".into())
            .spawn(move || {
                for stream in listener.incoming().flatten() {
                    let upstream = Arc::clone(&upstream);
                    let recording = Arc::clone(&recording);
                    let exchanges = Arc::clone(&exchanges);
                    // Detached: a connection ends when its client leaves or the recorder exits.
                    let _ = std::thread::Builder::new()
                        .name("mcp-record-connection".into())
                        .spawn(move || serve(stream, &upstream, &recording, &exchanges));
                }
            })
            .map_err(|e| CliError::usage(format!("cannot start a thread: {e}")))?;
    }
    // Until a signal: then the usage file is written and the recorder exits.
    let _ = signal.recv();
    Ok(exit::OK)
}

#[cfg(unix)]
fn watch_signals(signals: mpsc::Sender<i32>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut watched) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("mcp-record-signals".into())
        .spawn(move || {
            if let Some(signal) = watched.forever().next() {
                let _ = signals.send(signal);
            }
        });
}

#[cfg(not(unix))]
fn watch_signals(signals: mpsc::Sender<i32>) {
    // Without signals to wait for, the recorder runs until it is killed; the usage file is
    // written after each change anyway.
    std::mem::forget(signals);
}

/// The server's endpoint and the client that reaches it.
struct Upstream {
    uri: Uri,
    agent: ureq::Agent,
}

impl Upstream {
    fn parse(url: &str) -> Result<Upstream, String> {
        let uri: Uri = url.parse().map_err(|_| {
            format!(
                "--upstream `{}` is not a URL: give the server's endpoint, e.g. http://127.0.0.1:8000/mcp",
                escape(url)
            )
        })?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => {
                return Err(format!(
                    "--upstream `{}`: an http:// or https:// URL",
                    escape(url)
                ))
            }
        };
        if uri.host().is_none_or(str::is_empty) {
            return Err(format!("--upstream `{}` names no host", escape(url)));
        }
        let mut config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // Redirects are the consumer's to follow.
            .max_redirects(0)
            .proxy(None)
            .user_agent(concat!("mcp-contract-record/", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(CONNECT))
            .max_response_header_size(MAX_HEAD);
        if https {
            let roots: Vec<ureq::tls::Certificate<'static>> =
                webpki_root_certs::TLS_SERVER_ROOT_CERTS
                    .iter()
                    .map(|cert| ureq::tls::Certificate::from_der(cert.as_ref()))
                    .collect();
            config = config.tls_config(
                ureq::tls::TlsConfig::builder()
                    .provider(ureq::tls::TlsProvider::Rustls)
                    .unversioned_rustls_crypto_provider(Arc::new(
                        rustls::crypto::ring::default_provider(),
                    ))
                    .root_certs(ureq::tls::RootCerts::new_with_certs(&roots))
                    .build(),
            );
        }
        Ok(Upstream {
            uri,
            agent: config.build().new_agent(),
        })
    }

    /// Where a request for `target` (origin-form `/path?query`, or absolute-form) goes.
    fn url_for(&self, target: &str) -> String {
        let path_and_query = match target.parse::<Uri>() {
            Ok(uri) if uri.scheme().is_some() => uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), ToString::to_string),
            _ => target.to_owned(),
        };
        let (path, query) = match path_and_query.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (path_and_query.as_str(), None),
        };
        if path == self.uri.path() || path == "/" {
            let mut url = self.uri.to_string();
            if let (Some(query), None) = (query, self.uri.query()) {
                url.push('?');
                url.push_str(query);
            }
            return url;
        }
        let scheme = self.uri.scheme_str().unwrap_or("http");
        let authority = self.uri.authority().map_or("", |a| a.as_str());
        format!("{scheme}://{authority}{path_and_query}")
    }
}

/// One request as the consumer sent it.
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// The consumer wants the connection closed after the answer.
    close: bool,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read.
enum Refused {
    /// The client left (or sent nothing more): close quietly.
    Gone,
    /// Answer with this status and reason, then close.
    Status(u16, &'static str),
}

/// Serves one connection: requests forwarded one after the other, until the client leaves.
fn serve(stream: TcpStream, upstream: &Upstream, recording: &Recording, exchanges: &AtomicU64) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = stream;
    loop {
        let request = match read_request(&mut reader, &mut writer) {
            Ok(request) => request,
            Err(Refused::Gone) => return,
            Err(Refused::Status(status, why)) => {
                let _ = plain(&mut writer, status, why);
                return;
            }
        };
        let scope = exchanges.fetch_add(1, Ordering::Relaxed);
        let json = request
            .header("content-type")
            .is_some_and(|t| t.to_ascii_lowercase().contains("json"));
        if json && !request.body.is_empty() {
            recording.observe(Side::Client, scope, request.body.clone());
        }
        let close = request.close;
        match forward(&request, upstream, &mut writer, recording, scope) {
            Ok(()) if !close => {}
            _ => return,
        }
    }
}

/// Reads one request: its head, then its body (`Content-Length` or chunked).
fn read_request(reader: &mut impl BufRead, writer: &mut impl Write) -> Result<Request, Refused> {
    let mut head = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = reader
            .by_ref()
            .take((MAX_HEAD - head.len()) as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|_| Refused::Gone)?;
        if n == 0 {
            return Err(Refused::Gone);
        }
        head.extend_from_slice(&line);
        if head.len() > MAX_HEAD {
            return Err(Refused::Status(431, "Request Header Fields Too Large"));
        }
        let text = String::from_utf8(line).map_err(|_| Refused::Status(400, "Bad Request"))?;
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            // Blank lines before a request line are allowed (RFC 9112 §2.2).
            if lines.is_empty() {
                continue;
            }
            break;
        }
        lines.push(text.to_owned());
    }
    let mut request_line = lines[0].split(' ');
    let (Some(method), Some(target), Some(version), None) = (
        request_line.next(),
        request_line.next(),
        request_line.next(),
        request_line.next(),
    ) else {
        return Err(Refused::Status(400, "Bad Request"));
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() || target.is_empty() {
        return Err(Refused::Status(400, "Bad Request"));
    }
    let mut headers = Vec::new();
    for line in &lines[1..] {
        let (name, value) = line
            .split_once(':')
            .ok_or(Refused::Status(400, "Bad Request"))?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let mut request = Request {
        method: method.to_owned(),
        target: target.to_owned(),
        close: version == "HTTP/1.0",
        headers,
        body: Vec::new(),
    };
    if let Some(connection) = request.header("connection") {
        let tokens = connection.to_ascii_lowercase();
        if tokens.split(',').any(|t| t.trim() == "close") {
            request.close = true;
        } else if tokens.split(',').any(|t| t.trim() == "keep-alive") {
            request.close = false;
        }
    }
    if request
        .header("expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        writer
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .and_then(|()| writer.flush())
            .map_err(|_| Refused::Gone)?;
    }
    let chunked = request
        .header("transfer-encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    if chunked {
        request.body = read_chunked(reader)?;
    } else if let Some(length) = request.header("content-length") {
        let length: usize = length
            .parse()
            .map_err(|_| Refused::Status(400, "Bad Request"))?;
        if length > MAX_BODY {
            return Err(Refused::Status(413, "Content Too Large"));
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).map_err(|_| Refused::Gone)?;
        request.body = body;
    }
    Ok(request)
}

/// A chunked body (RFC 9112 §7.1), its trailers read and dropped.
fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, Refused> {
    let mut body = Vec::new();
    loop {
        let mut size_line = String::new();
        reader
            .by_ref()
            .take(1024)
            .read_line(&mut size_line)
            .map_err(|_| Refused::Gone)?;
        let size = size_line
            .trim()
            .split(';')
            .next()
            .and_then(|hex| usize::from_str_radix(hex.trim(), 16).ok())
            .ok_or(Refused::Status(400, "Bad Request"))?;
        if size == 0 {
            // Trailers, up to the blank line.
            loop {
                let mut line = String::new();
                let n = reader
                    .by_ref()
                    .take(MAX_HEAD as u64)
                    .read_line(&mut line)
                    .map_err(|_| Refused::Gone)?;
                if n == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        if body.len() + size > MAX_BODY {
            return Err(Refused::Status(413, "Content Too Large"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader
            .read_exact(&mut body[start..])
            .map_err(|_| Refused::Gone)?;
        let mut crlf = [0u8; 2];
        reader.read_exact(&mut crlf).map_err(|_| Refused::Gone)?;
    }
}

/// Forwards one request and writes its answer back. `Err` when the connection must close.
fn forward(
    request: &Request,
    upstream: &Upstream,
    writer: &mut TcpStream,
    recording: &Recording,
    scope: u64,
) -> io::Result<()> {
    let url = upstream.url_for(&request.target);
    let mut builder = http::Request::builder()
        .method(request.method.as_str())
        .uri(url.as_str());
    for (name, value) in &request.headers {
        let lower = name.to_ascii_lowercase();
        if HOP_BY_HOP.contains(&lower.as_str()) || lower == "accept-encoding" {
            continue;
        }
        builder = builder.header(name.as_str(), value.as_str());
    }
    let sent = if request.body.is_empty() && request.method != "POST" {
        builder
            .body(())
            .map_err(ureq::Error::from)
            .and_then(|r| upstream.agent.run(r))
    } else {
        builder
            .body(request.body.clone())
            .map_err(ureq::Error::from)
            .and_then(|r| upstream.agent.run(r))
    };
    let response = match sent {
        Ok(response) => response,
        Err(error) => {
            let why = format!(
                "mcp-contract record: the upstream {} did not answer: {}",
                escape(&url),
                escape(&error.to_string())
            );
            eprintln!("{why}");
            plain(writer, 502, &why)?;
            return Err(io::Error::other("no answer"));
        }
    };
    let (parts, body) = response.into_parts();
    let status = parts.status.as_u16();
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\n",
        parts.status.canonical_reason().unwrap_or("")
    );
    for (name, value) in &parts.headers {
        if HOP_BY_HOP.contains(&name.as_str()) {
            continue;
        }
        head.push_str(name.as_str());
        head.push_str(": ");
        head.push_str(&String::from_utf8_lossy(value.as_bytes()));
        head.push_str("\r\n");
    }
    let content_type = parts
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if content_type.starts_with("text/event-stream") {
        head.push_str("Transfer-Encoding: chunked\r\n\r\n");
        writer.write_all(head.as_bytes())?;
        writer.flush()?;
        let mut reader = body.into_reader();
        let mut events = Events::default();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let n = match reader.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            for data in events.feed(&buffer[..n]) {
                recording.observe(Side::Server, scope, data.into_bytes());
            }
            write!(writer, "{n:x}\r\n")?;
            writer.write_all(&buffer[..n])?;
            writer.write_all(b"\r\n")?;
            writer.flush()?;
        }
        for data in events.finish() {
            recording.observe(Side::Server, scope, data.into_bytes());
        }
        writer.write_all(b"0\r\n\r\n")?;
        return writer.flush();
    }
    let bytes = match body.into_with_config().limit(MAX_BODY as u64).read_to_vec() {
        Ok(bytes) => bytes,
        Err(error) => {
            let why = format!(
                "mcp-contract record: the answer of {} could not be read: {}",
                escape(&url),
                escape(&error.to_string())
            );
            eprintln!("{why}");
            plain(writer, 502, &why)?;
            return Err(io::Error::other("unreadable answer"));
        }
    };
    if !matches!(status, 204 | 304) && !(100..200).contains(&status) {
        head.push_str(&format!("Content-Length: {}\r\n", bytes.len()));
    }
    head.push_str("\r\n");
    if content_type.starts_with("application/json") && !bytes.is_empty() {
        recording.observe(Side::Server, scope, bytes.clone());
    }
    writer.write_all(head.as_bytes())?;
    writer.write_all(&bytes)?;
    writer.flush()
}

/// A short plain-text answer of the recorder itself.
fn plain(writer: &mut impl Write, status: u16, text: &str) -> io::Result<()> {
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    write!(
        writer,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_go_to_the_upstream_url_or_its_origin() {
        let upstream = Upstream::parse("http://127.0.0.1:8000/mcp").unwrap();
        assert_eq!(upstream.url_for("/mcp"), "http://127.0.0.1:8000/mcp");
        assert_eq!(upstream.url_for("/"), "http://127.0.0.1:8000/mcp");
        assert_eq!(
            upstream.url_for("/mcp?x=1"),
            "http://127.0.0.1:8000/mcp?x=1"
        );
        assert_eq!(
            upstream.url_for("/.well-known/oauth-protected-resource"),
            "http://127.0.0.1:8000/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            upstream.url_for("http://127.0.0.1:9/mcp"),
            "http://127.0.0.1:8000/mcp"
        );
        assert!(Upstream::parse("ftp://x/y").is_err());
        assert!(Upstream::parse("not a url").is_err());
    }

    #[test]
    fn requests_are_read_with_either_body_framing() {
        let text = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nMcp-Session-Id: s1\r\n\r\n{\"a\":1}\
                     POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\n{\"b\r\n4;x=y\r\n\":2}\r\n0\r\nT: 1\r\n\r\n";
        let mut reader = BufReader::new(&text[..]);
        let mut sink = Vec::new();
        let Ok(first) = read_request(&mut reader, &mut sink) else {
            panic!("the first request reads");
        };
        assert_eq!(first.body, b"{\"a\":1}");
        assert_eq!(first.header("mcp-session-id"), Some("s1"));
        assert!(!first.close);
        let Ok(second) = read_request(&mut reader, &mut sink) else {
            panic!("the second request reads");
        };
        assert_eq!(second.body, b"{\"b\":2}");
        assert!(second.close);
        assert!(matches!(
            read_request(&mut reader, &mut sink),
            Err(Refused::Gone)
        ));
        let mut bad = BufReader::new(&b"NONSENSE\r\n\r\n"[..]);
        assert!(matches!(
            read_request(&mut bad, &mut sink),
            Err(Refused::Status(400, _))
        ));
    }
}
