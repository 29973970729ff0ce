//! The wire: HTTP/1.1 exchanges through ureq (one agent per probe, so one pool of kept-alive
//! connections per session), redirects followed here, and every ureq error turned into a
//! failure that says what happened and where.
//!
//! ureq's own redirect handling is off (`max_redirects(0)`): it turns a 307/308 of a POST into
//! an error instead of sending the body again, drops `Authorization` even on the same origin,
//! and keeps every other header across origins. Here a 301, 302, 307 or 308 sends the same
//! method and body again (an MCP endpoint only answers POST, so turning a 301/302 POST into a
//! GET, which RFC 9110 allows, could only fail); a 303 See Other points at something to GET,
//! which is no MCP endpoint, and is reported as such. At most [`MAX_REDIRECTS`] hops, a URL
//! seen twice is a loop, https never leads to http. The user's headers are sent only to the
//! configured URL's origin and the session id only to the origin that issued it.
//!
//! ureq keeps a connection for reuse when its response was read to the end. A server may close
//! one while it sits idle; ureq notices that before reusing it, but not a close that crosses the
//! request on the wire, which ureq 3 reports as the peer disconnecting: such a request is sent
//! once more on a new connection.

use super::proxy::{Chosen, Proxies};
use super::url::{Origin, Url};
use super::HttpFailure;
use crate::probe::{escape_untrusted, quote_untrusted, HttpEndpoint, ProbeErrorKind};
use std::io;
use std::net::ToSocketAddrs;
use std::time::{Duration, Instant};
use ureq::http::{self, HeaderMap, Method};

/// Redirects followed for one request.
pub(in crate::probe) const MAX_REDIRECTS: usize = 5;
/// Body of a redirect read (so that its connection can be reused), at most.
const REDIRECT_BODY: u64 = 64 * 1024;
/// Largest response header block accepted.
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// How long past a request's own bound ureq's overall timeout lies: the phase timeouts (connect)
/// then fire first and name the phase.
const MARGIN: Duration = Duration::from_millis(100);
/// How long an idle kept-alive connection is reused: below the 5 s keep-alive of common
/// servers (uvicorn, Node), so that most closes happen on ureq's side.
const IDLE: Duration = Duration::from_secs(4);

/// The HTTP client of one probe.
pub(in crate::probe) struct Wire {
    agent: ureq::Agent,
    /// The agent's configuration, for an agent that forwards through a proxy.
    config: ureq::config::Config,
    /// The agent that sends `http://` requests through a proxy in absolute-form
    /// ([`super::forward`]), and the proxy it was made for (`host:port`).
    forwarding: Option<(String, ureq::Agent)>,
    proxies: Proxies,
    /// The TLS setup, for classifying handshake failures.
    #[cfg(feature = "https")]
    tls: Option<crate::probe::tls::Tls>,
    /// The CA file could not be used: reported when an https URL is first asked for.
    #[cfg(feature = "https")]
    tls_error: Option<HttpFailure>,
    /// A response has come back: a kept-alive connection may wait in the pool.
    answered: bool,
}

/// One request to send.
pub(in crate::probe) struct Outgoing<'a> {
    /// `POST` or `DELETE`.
    pub(in crate::probe) method: Method,
    /// The JSON body of a POST.
    pub(in crate::probe) body: Option<&'a [u8]>,
    /// Headers every hop gets (`Accept`, `Content-Type`, `MCP-Protocol-Version`).
    pub(in crate::probe) common: Vec<(&'static str, String)>,
    /// The user's headers: sent only to `credentials_for`.
    pub(in crate::probe) credentials: &'a [(String, String)],
    /// The configured URL's origin.
    pub(in crate::probe) credentials_for: &'a Origin,
    /// The session id and the origin that issued it.
    pub(in crate::probe) session: Option<(&'a str, &'a Origin)>,
    /// Bound on the whole exchange, redirects included.
    pub(in crate::probe) deadline: Instant,
    /// What is being sent, for messages (`initialize`, `DELETE`).
    pub(in crate::probe) what: &'a str,
}

/// A response: its status and headers, its body still to read.
pub(in crate::probe) struct Answer {
    pub(in crate::probe) status: u16,
    pub(in crate::probe) headers: HeaderMap,
    pub(in crate::probe) body: ureq::Body,
    /// Where it came from, after the redirects.
    pub(in crate::probe) url: Url,
    /// The redirects followed, in order.
    pub(in crate::probe) hops: Vec<Hop>,
    /// The user's headers were held back from the URL that answered (another origin).
    pub(in crate::probe) credentials_withheld: bool,
    /// The proxy that forwarded the request (an `http://` URL through an HTTP proxy): a status
    /// may be the proxy's own.
    pub(in crate::probe) forwarded_by: Option<Chosen>,
}

impl Answer {
    /// A header's value, if present and text.
    pub(in crate::probe) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// One redirect followed.
#[derive(Debug, Clone)]
pub(in crate::probe) struct Hop {
    /// 301, 302, 307 or 308.
    pub(in crate::probe) status: u16,
    /// Where it led.
    pub(in crate::probe) to: Url,
}

/// A status and its reason phrase, e.g. `307 Temporary Redirect`.
pub(in crate::probe) fn status_text(status: u16) -> String {
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason());
    match reason {
        Some(reason) => format!("{status} {reason}"),
        None => format!("HTTP {status}"),
    }
}

impl Wire {
    /// The client for `endpoint` (whose URL is `url`): its proxies read now, its TLS roots built
    /// (feature `https`).
    ///
    /// # Errors
    ///
    /// An unusable proxy setting; for an `https://` URL, an unusable CA file.
    pub(in crate::probe) fn new(endpoint: &HttpEndpoint, url: &Url) -> Result<Wire, HttpFailure> {
        let proxies = Proxies::new(&endpoint.proxy)?;
        let builder = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            // The environment's proxies are chosen per request by `Proxies`.
            .proxy(None)
            .user_agent(concat!("mcp-contract-test/", env!("CARGO_PKG_VERSION")))
            .max_idle_connections(4)
            .max_idle_connections_per_host(2)
            .max_idle_age(IDLE)
            .max_response_header_size(MAX_HEADER_BYTES);
        #[cfg(feature = "https")]
        {
            let (tls, tls_error) = match crate::probe::tls::Tls::new(endpoint.ca_file.as_deref()) {
                Ok(tls) => (tls, None),
                // An http:// URL does not need the CA file: its error waits for an https
                // redirect, if one comes.
                Err(error) if !url.tls => match crate::probe::tls::Tls::public() {
                    Ok(tls) => (tls, Some(error)),
                    Err(_) => return Err(error),
                },
                Err(error) => return Err(error),
            };
            let config = builder.tls_config(tls.config()).build();
            Ok(Wire {
                agent: config.new_agent(),
                config,
                forwarding: None,
                proxies,
                tls: Some(tls),
                tls_error,
                answered: false,
            })
        }
        #[cfg(not(feature = "https"))]
        {
            let _ = url;
            let config = builder.build();
            Ok(Wire {
                agent: config.new_agent(),
                config,
                forwarding: None,
                proxies,
                answered: false,
            })
        }
    }

    /// Stops the client: open connections and a stream still being read are closed.
    pub(in crate::probe) fn shutdown(&self) {
        self.agent.clone().shutdown();
        if let Some((_, agent)) = &self.forwarding {
            agent.clone().shutdown();
        }
    }

    /// Sends `out` to `url`, following redirects; the answer's body is left to read.
    ///
    /// # Errors
    ///
    /// Anything that kept an HTTP answer from arriving, classified (see the module docs for
    /// redirects); an HTTP error status is an answer, not an error.
    // Long on purpose (~110 lines): one redirect hop per turn of the loop, its checks in the
    // order they apply (credentials by origin, the request, the status, the next location).
    pub(in crate::probe) fn send(
        &mut self,
        url: &Url,
        out: &Outgoing<'_>,
    ) -> Result<Answer, HttpFailure> {
        let mut current = url.clone();
        let mut seen = vec![current.clone()];
        let mut hops: Vec<Hop> = Vec::new();
        loop {
            let origin = current.origin();
            let withheld = origin != *out.credentials_for;
            let mut headers: Vec<(&str, &str)> = out
                .common
                .iter()
                .map(|(name, value)| (*name, value.as_str()))
                .collect();
            if !withheld {
                headers.extend(
                    out.credentials
                        .iter()
                        .map(|(name, value)| (name.as_str(), value.as_str())),
                );
            }
            if let Some((id, issuer)) = out.session {
                if *issuer == origin {
                    headers.push(("Mcp-Session-Id", id));
                }
            }
            let (mut response, forwarded_by) = self.exchange(&current, out, &headers)?;
            let status = response.status().as_u16();
            let location = response
                .headers()
                .get(http::header::LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            let (true, Some(location)) = (matches!(status, 301 | 302 | 303 | 307 | 308), location)
            else {
                let (parts, body) = response.into_parts();
                return Ok(Answer {
                    status,
                    headers: parts.headers,
                    body,
                    url: current,
                    hops,
                    credentials_withheld: withheld && !out.credentials.is_empty(),
                    forwarded_by,
                });
            };
            // Read to its end, so that the connection can serve the next hop.
            let _ = response
                .body_mut()
                .with_config()
                .limit(REDIRECT_BODY)
                .read_to_vec();
            let shown_location = quote_untrusted(&location);
            let redirect = |message: String| HttpFailure {
                kind: ProbeErrorKind::Redirect,
                message,
            };
            if status == 303 {
                return Err(HttpFailure {
                    kind: ProbeErrorKind::NotMcp,
                    message: format!(
                        "{} answered {} with 303 See Other (Location: {shown_location}): a 303 \
                         sends the client to GET another page, which is not how an MCP endpoint \
                         answers; is this URL the server's MCP endpoint?",
                        current.shown(),
                        out.what
                    ),
                });
            }
            let target = current.join(&location).map_err(|why| {
                redirect(format!(
                    "{} answered {} with {}: {why}",
                    current.shown(),
                    out.what,
                    status_text(status)
                ))
            })?;
            if current.tls && !target.tls {
                return Err(redirect(format!(
                    "{} redirects ({}) from https to {}: refusing to continue without TLS",
                    current.shown(),
                    status_text(status),
                    target.shown()
                )));
            }
            hops.push(Hop {
                status,
                to: target.clone(),
            });
            let chain = || {
                std::iter::once(url.shown())
                    .chain(hops.iter().map(|hop| hop.to.shown()))
                    .collect::<Vec<_>>()
                    .join(" → ")
            };
            if seen.contains(&target) {
                return Err(redirect(format!(
                    "{} redirects in a loop: {}",
                    url.shown(),
                    chain()
                )));
            }
            if hops.len() > MAX_REDIRECTS {
                return Err(redirect(format!(
                    "{} redirected more than {MAX_REDIRECTS} times: {}",
                    url.shown(),
                    chain()
                )));
            }
            seen.push(target.clone());
            current = target;
        }
    }

    /// One request and its response head, on a kept-alive connection when there is one; sent
    /// once more on a new connection when a reused one turns out closed. An `http://` URL
    /// through an HTTP proxy is forwarded by it ([`super::forward`]): that proxy comes back
    /// with the response.
    fn exchange(
        &mut self,
        url: &Url,
        out: &Outgoing<'_>,
        headers: &[(&str, &str)],
    ) -> Result<(http::Response<ureq::Body>, Option<Chosen>), HttpFailure> {
        #[cfg(feature = "https")]
        if url.tls {
            if let Some(error) = self.tls_error.take() {
                return Err(error);
            }
            crate::probe::tls::Tls::check_host(&url.host, &url.shown())?;
        }
        let proxy = self.proxies.for_url(url)?;
        let forwarded = proxy
            .as_ref()
            .filter(|chosen| !url.tls && chosen.proxy.protocol() == ureq::ProxyProtocol::Http);
        let proxy_authorization = forwarded.and_then(|chosen| {
            let user = chosen.proxy.username().unwrap_or_default();
            let password = chosen.proxy.password().unwrap_or_default();
            (!user.is_empty() || !password.is_empty()).then(|| {
                use base64::Engine as _;
                let pair = format!("{user}:{password}");
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(pair)
                )
            })
        });
        if let Some(chosen) = forwarded {
            let key = format!("{}:{}", chosen.proxy.host(), chosen.proxy.port());
            if self
                .forwarding
                .as_ref()
                .is_none_or(|(made_for, _)| *made_for != key)
            {
                let agent = super::forward::agent(
                    self.config.clone(),
                    chosen.proxy.host(),
                    chosen.proxy.port(),
                )
                .map_err(|error| self.failure(error, url, Some(chosen), out.what))?;
                self.forwarding = Some((key, agent));
            }
        }
        let mut retried = false;
        loop {
            let Some(bound) = out
                .deadline
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero())
            else {
                return Err(HttpFailure {
                    kind: ProbeErrorKind::TimedOut,
                    message: format!(
                        "the probe's time limit ran out before sending {} to {}",
                        out.what,
                        url.shown()
                    ),
                });
            };
            let mut builder = http::Request::builder()
                .method(out.method.clone())
                .uri(url.full());
            for (name, value) in headers {
                builder = builder.header(*name, *value);
            }
            if let Some(value) = &proxy_authorization {
                builder = builder.header("Proxy-Authorization", value.as_str());
            }
            // A forwarded request goes to the forwarding agent's proxy, not through ureq's.
            let (agent, proxy_setting) = match (&self.forwarding, forwarded) {
                (Some((_, agent)), Some(_)) => (agent, None),
                _ => (
                    &self.agent,
                    proxy.as_ref().map(|chosen| chosen.proxy.clone()),
                ),
            };
            let result = match out.body {
                Some(body) => builder
                    .body(body)
                    .map_err(ureq::Error::from)
                    .and_then(|request| send(agent, request, proxy_setting, bound)),
                None => builder
                    .body(())
                    .map_err(ureq::Error::from)
                    .and_then(|request| send(agent, request, proxy_setting, bound)),
            };
            match result {
                Ok(response) => {
                    self.answered = true;
                    return Ok((response, forwarded.cloned()));
                }
                Err(error) if !retried && self.answered && closed_before_answer(&error) => {
                    retried = true;
                }
                Err(error) => return Err(self.failure(error, url, proxy.as_ref(), out.what)),
            }
        }
    }

    /// Classifies a ureq error. No message quotes a header value or a proxy credential.
    // Long on purpose (~105 lines): one arm per kind of ureq error, each classified with its
    // message and hint.
    pub(in crate::probe) fn failure(
        &self,
        error: ureq::Error,
        url: &Url,
        proxy: Option<&Chosen>,
        what: &str,
    ) -> HttpFailure {
        let shown = url.shown();
        let fail = |kind, message: String| HttpFailure { kind, message };
        let via = proxy
            .map(|p| format!(" through the proxy {} (from {})", p.shown, p.source))
            .unwrap_or_default();
        let not_http_hint = if url.tls {
            " (does it speak https on that port?)"
        } else {
            " (an https server? then write the URL with https://)"
        };
        match error {
            ureq::Error::Timeout(ureq::Timeout::Connect | ureq::Timeout::Resolve) => fail(
                ProbeErrorKind::TimedOut,
                format!(
                    "timed out connecting to {shown}{via}{}: the probe's time limit ran out",
                    if url.tls {
                        " (TCP connect and TLS handshake)"
                    } else {
                        ""
                    }
                ),
            ),
            ureq::Error::Timeout(_) => fail(
                ProbeErrorKind::TimedOut,
                format!(
                    "timed out waiting for {shown} to answer {what}{via}: the probe's time \
                     limit ran out"
                ),
            ),
            ureq::Error::HostNotFound => match proxy {
                Some(p) => fail(
                    ProbeErrorKind::Proxy,
                    format!(
                        "cannot resolve the host of the proxy {} (from {}): is its name right?",
                        p.shown, p.source
                    ),
                ),
                None => fail(
                    ProbeErrorKind::Unreachable,
                    format!(
                        "cannot resolve the host of {shown}: the name has no address; is the \
                         host name right?"
                    ),
                ),
            },
            ureq::Error::Io(io) => self.io_failure(&io, url, proxy, not_http_hint),
            ureq::Error::ConnectProxyFailed(reason) => proxy_failure(&reason, url, proxy),
            ureq::Error::Protocol(error) => fail(
                ProbeErrorKind::NotMcp,
                format!(
                    "{shown} sent an answer that is not valid HTTP/1.1 ({}): is it an HTTP \
                     server{not_http_hint}?",
                    escape_untrusted(&error.to_string())
                ),
            ),
            ureq::Error::LargeResponseHeader(..) => fail(
                ProbeErrorKind::NotMcp,
                format!("the response headers of {shown} are larger than 64 KiB"),
            ),
            ureq::Error::BodyExceedsLimit(limit) => fail(
                ProbeErrorKind::InvalidOutput,
                format!(
                    "the response of {shown} to {what} is larger than {} MiB",
                    limit / (1024 * 1024)
                ),
            ),
            #[cfg(feature = "https")]
            ureq::Error::Rustls(error) => match &self.tls {
                Some(tls) => tls.rustls_failure(&error, &url.host, &shown),
                None => fail(
                    ProbeErrorKind::Tls,
                    format!("TLS with {shown} failed: {error}"),
                ),
            },
            ureq::Error::Tls(why) => fail(
                ProbeErrorKind::Tls,
                format!("the TLS connection to {shown} could not be set up: {why}"),
            ),
            ureq::Error::Http(error) => fail(
                ProbeErrorKind::Configuration,
                format!("the request to {shown} cannot be built: {error}"),
            ),
            ureq::Error::BadUri(_) => fail(
                ProbeErrorKind::Configuration,
                format!("{shown} cannot be used as a request URL"),
            ),
            ureq::Error::InvalidProxyUrl => fail(
                ProbeErrorKind::Configuration,
                "the proxy URL cannot be used: write it as http://HOST:PORT".to_owned(),
            ),
            other => fail(
                ProbeErrorKind::Io,
                format!(
                    "talking to {shown} failed: {}",
                    escape_untrusted(&other.to_string())
                ),
            ),
        }
    }

    fn io_failure(
        &self,
        io: &io::Error,
        url: &Url,
        proxy: Option<&Chosen>,
        not_http_hint: &str,
    ) -> HttpFailure {
        let shown = url.shown();
        let fail = |kind, message: String| HttpFailure { kind, message };
        #[cfg(feature = "https")]
        if let Some(tls) = &self.tls {
            if let Some(failure) = tls.failure(io, &url.host, &shown) {
                return failure;
            }
        }
        match (io.kind(), proxy) {
            (io::ErrorKind::ConnectionRefused, Some(p)) => fail(
                ProbeErrorKind::Proxy,
                format!(
                    "cannot connect to the proxy {} (from {}): connection refused; is the proxy \
                     running, and is its address right?",
                    p.shown, p.source
                ),
            ),
            (io::ErrorKind::ConnectionRefused, None) => fail(
                ProbeErrorKind::Unreachable,
                format!(
                    "cannot connect to {shown}: connection refused; is the server running at \
                     {shown}?"
                ),
            ),
            (io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock, _) => fail(
                ProbeErrorKind::TimedOut,
                format!("timed out talking to {shown}: the probe's time limit ran out"),
            ),
            (
                io::ErrorKind::UnexpectedEof
                | io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe,
                _,
            ) => fail(
                ProbeErrorKind::NotMcp,
                format!(
                    "{shown} closed the connection without an HTTP response: is it an HTTP \
                     server{not_http_hint}?"
                ),
            ),
            (io::ErrorKind::NotConnected, _) => fail(
                ProbeErrorKind::Io,
                format!("the connection to {shown} was shut down"),
            ),
            _ => {
                // A failed name lookup is an I/O error of no particular kind: look the name up
                // again to tell it from other failures.
                let (host, port) = match proxy {
                    Some(p) => (p.proxy.host().to_owned(), p.proxy.port()),
                    None => (url.host.clone(), url.port),
                };
                let resolves = (host.as_str(), port)
                    .to_socket_addrs()
                    .is_ok_and(|mut addrs| addrs.next().is_some());
                let detail = escape_untrusted(&io.to_string());
                match (resolves, proxy) {
                    (false, Some(p)) => fail(
                        ProbeErrorKind::Proxy,
                        format!(
                            "cannot resolve the host of the proxy {} (from {}): {detail}; is \
                             its name right?",
                            p.shown, p.source
                        ),
                    ),
                    (false, None) => fail(
                        ProbeErrorKind::Unreachable,
                        format!(
                            "cannot resolve the host of {shown}: {detail}; is the server \
                             running at {shown}, and is the host name right?"
                        ),
                    ),
                    (true, _) => fail(
                        ProbeErrorKind::Io,
                        format!("talking to {shown} failed: {detail}"),
                    ),
                }
            }
        }
    }
}

/// A request that died with its connection before any answer: on a kept-alive connection, the
/// server closed it as the request went out.
fn closed_before_answer(error: &ureq::Error) -> bool {
    matches!(
        error,
        ureq::Error::Io(io) if matches!(
            io.kind(),
            io::ErrorKind::UnexpectedEof
                | io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe
        )
    )
}

/// A CONNECT the proxy refused: ureq gives its status in a sentence ("proxy server responded
/// 407/407", "proxy server did not respond").
fn proxy_failure(reason: &str, url: &Url, proxy: Option<&Chosen>) -> HttpFailure {
    let (shown, source, credentials) = match proxy {
        Some(p) => (p.shown.as_str(), p.source.as_str(), p.has_credentials),
        None => ("(unknown)", "nowhere", false),
    };
    let target = url.authority();
    let status: Option<u16> = reason
        .split("responded ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok());
    let message = match status {
        Some(407) => proxy_auth_message(shown, source, credentials),
        Some(status @ (403 | 405)) => format!(
            "the proxy {shown} (from {source}) would not open a tunnel (CONNECT) to {target}: \
             it answered {}; proxies often allow CONNECT to port 443 only; ask for this port \
             to be allowed, or reach the server directly (NO_PROXY, or `proxy = \"off\"`)",
            status_text(status)
        ),
        Some(status @ 502..=504) => unreachable_message(shown, source, &target, status),
        Some(status) => format!(
            "the proxy {shown} (from {source}) refused to open a tunnel (CONNECT) to {target}: \
             it answered {}",
            status_text(status)
        ),
        None => format!(
            "the proxy {shown} (from {source}) did not answer the CONNECT request for {target} \
             ({}): is it an HTTP proxy?",
            escape_untrusted(reason)
        ),
    };
    HttpFailure {
        kind: ProbeErrorKind::Proxy,
        message,
    }
}

/// A proxy's 407, whether it refused a tunnel or a request to forward.
fn proxy_auth_message(shown: &str, source: &str, credentials: bool) -> String {
    if credentials {
        format!(
            "the proxy {shown} (from {source}) answered 407 Proxy Authentication Required: it \
             refused the credentials in the proxy URL; check the user name and password"
        )
    } else {
        format!(
            "the proxy {shown} (from {source}) answered 407 Proxy Authentication Required: it \
             wants credentials; give them in the proxy URL as USER:PASSWORD@ before the host \
             (the suite's `proxy` setting may take the password from the environment: \
             USER:${{PROXY_PASSWORD}}@)"
        )
    }
}

/// A proxy's 502, 503 or 504: it could not reach the target.
fn unreachable_message(shown: &str, source: &str, target: &str, status: u16) -> String {
    format!(
        "the proxy {shown} (from {source}) could not reach {target}: it answered {}; is the \
         host name right and the server running?",
        status_text(status)
    )
}

/// What a status means when the proxy that forwarded the request answered it itself: 407
/// (its credentials) and 502–504 (the target out of its reach); `None` for any other status,
/// which is the server's.
pub(in crate::probe) fn forwarded_refusal(
    status: u16,
    url: &Url,
    proxy: &Chosen,
) -> Option<HttpFailure> {
    let message = match status {
        407 => proxy_auth_message(&proxy.shown, &proxy.source, proxy.has_credentials),
        502..=504 => unreachable_message(&proxy.shown, &proxy.source, &url.authority(), status),
        _ => return None,
    };
    Some(HttpFailure {
        kind: ProbeErrorKind::Proxy,
        message,
    })
}

/// Sends one request through the agent with its proxy and time bounds; a request with a body
/// and one without are different types to ureq.
fn send<B: ureq::AsSendBody>(
    agent: &ureq::Agent,
    request: http::Request<B>,
    proxy: Option<ureq::Proxy>,
    bound: Duration,
) -> Result<http::Response<ureq::Body>, ureq::Error> {
    let request = agent
        .configure_request(request)
        .proxy(proxy)
        .timeout_global(Some(bound + MARGIN))
        .timeout_connect(Some(bound))
        .build();
    agent.run(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_refusals_are_read_from_ureqs_sentence() {
        let url = super::super::url::parse("http://mcp.internal.test:8000/mcp").unwrap();
        let failure = proxy_failure("proxy server responded 407/407", &url, None);
        assert_eq!(failure.kind, ProbeErrorKind::Proxy);
        assert!(failure
            .message
            .contains("407 Proxy Authentication Required"));
        assert!(failure.message.contains("wants credentials"));
        let failure = proxy_failure("proxy server responded 403/403", &url, None);
        assert!(
            failure
                .message
                .contains("CONNECT) to mcp.internal.test:8000"),
            "{}",
            failure.message
        );
        let failure = proxy_failure("proxy server did not respond", &url, None);
        assert!(failure.message.contains("is it an HTTP proxy"));
    }

    #[test]
    fn statuses_read_with_their_reason() {
        assert_eq!(status_text(307), "307 Temporary Redirect");
        assert_eq!(status_text(421), "421 Misdirected Request");
        assert_eq!(status_text(599), "HTTP 599");
    }
}
