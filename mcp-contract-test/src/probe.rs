//! The probe: start a server, shake hands, read every page of every listing, stop it.
//!
//! It never calls a tool, reads a resource or gets a prompt: the only requests sent are
//! `initialize`, `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
//! (plus the `notifications/initialized` notification and answers to the server's own requests).
//!
//! The probe speaks newline-delimited JSON-RPC 2.0 itself instead of using a typed MCP client,
//! because typed clients drop fields they do not know and reject a whole list over one odd item;
//! a contract must record what the server advertised, byte for byte. It is synchronous (std
//! threads and channels) so that every user of this dev-dependency does not compile an async
//! runtime.
//!
//! The client declares no capabilities in `initialize` (`capabilities: {}`): a server may advertise
//! more tools to clients that support sampling, elicitation or roots, and the contract is about
//! the base surface every client sees.
//!
//! Only the listings whose capability the server advertises are requested (`resources` covers
//! resource templates too; a capability that is `null` or `false` counts as absent); each one not
//! advertised becomes one note in [`Probe::notes`]. A listing that is advertised but answered
//! with -32601 (method not found) is noted and recorded as empty. An empty `nextCursor` ends a
//! listing like an absent one. Requests the server sends meanwhile are answered (`ping` with `{}`,
//! anything else with -32601); its notifications are ignored.
//!
//! On stdio, lines that are not JSON-RPC (banners, logs printed to stdout) are skipped, but
//! counted and quoted in time-out and exit messages; a JSON array of objects is read as a batch.
//!
//! The session logic (`session.rs`) is written against the [`Transport`] trait, so that every
//! transport (stdio, HTTP, in-process) shares it; this file starts each kind of server and
//! runs the session over it. What a server is lives in `spec.rs` (commands, endpoints, headers,
//! proxies), what a probe is asked and what it recorded in `options.rs`, why it failed and what
//! to do in `error.rs`.

mod command;
mod error;
#[cfg(feature = "http")]
mod http;
mod in_process;
mod message;
mod options;
mod output_tail;
mod process_group;
mod queue;
mod session;
mod spec;
mod stdio;
mod stopping;
#[cfg(feature = "https")]
mod tls;

pub use command::split_command_line;
pub use error::{Phase, ProbeError, ProbeErrorKind};
pub use in_process::InProcess;
pub use message::Message;
pub use options::{Handshake, Lifecycle, Probe, ProbeOptions};
pub use session::{Answer, Transport, TransportError};
#[cfg(feature = "http")]
pub(crate) use spec::display_proxy;
pub(crate) use spec::display_url;
pub use spec::{HeaderValue, HttpEndpoint, ProxySetting, ServerCommand, ServerSpec};
pub use stopping::{defer_stops, ServerSession};

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Starts the server, records its surface and stops it (with its whole process group).
///
/// The server is spawned with stdin, stdout and stderr piped, in a process group of its own on
/// unix. One deadline, `options.timeout`, bounds everything from the spawn to the last listing.
/// Stopping is then: close stdin and wait up to 1 s, SIGTERM the process group and wait up to
/// 1 s, SIGKILL the group. The same happens on every error path (and if the caller panics),
/// so neither the server nor anything it started in its group outlives the probe.
///
/// # Errors
///
/// A [`ProbeError`] when the server cannot be started, exits, stays silent past the deadline,
/// answers with a JSON-RPC error or a malformed result, paginates without end, or writes
/// something on stdout that cannot be messages. Its [`ProbeErrorKind`] says which.
// Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
#[inline]
pub fn probe_stdio(command: &ServerCommand, options: &ProbeOptions) -> Result<Probe, ProbeError> {
    let (probe, session) = probe_stdio_session(command, options)?;
    session.stop();
    Ok(probe)
}

/// [`probe_stdio`], leaving the server running with its session open once the last listing
/// was read: the [`ServerSession`] owns it (closing or dropping it ends the session; while a
/// [`DeferredStops`] guard is alive the server then exits on its own in the background and is
/// stopped when the guard drops). On an error the server is stopped before this returns, its
/// exit status and stderr tail in the error.
///
/// # Errors
///
/// As [`probe_stdio`].
pub fn probe_stdio_session(
    command: &ServerCommand,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    let deadline = Instant::now() + options.timeout;
    let mut server = stdio::StdioServer::spawn(command)?;
    let outcome = session::run(&mut server, options, deadline);
    match outcome {
        Ok((probe, continued)) => Ok((probe, ServerSession::stdio(server, continued))),
        Err(failure) => {
            // Read the exit status before stopping: afterwards it would only say we killed it.
            let grace = if failure.kind == ProbeErrorKind::Exited {
                Duration::from_millis(500)
            } else {
                Duration::ZERO
            };
            let exit_status = server.exit_status_within(grace);
            server.stop();
            Err(ProbeError {
                command: command.display(),
                phase: failure.phase,
                kind: failure.kind,
                message: failure.message,
                exit_status,
                stderr_tail: scrub_lines(
                    server.stderr_tail(Duration::from_millis(300)),
                    &command.secrets(),
                ),
            })
        }
    }
}

/// Probes a Streamable HTTP endpoint: POSTs `initialize` and the listings (JSON or SSE
/// answers), then DELETEs the session. One deadline, `options.timeout`, bounds everything
/// (connect, each request, each read); the closing DELETE adds at most two seconds.
///
/// Header values from environment variables are read now. No header value appears in any
/// message: server text quoted in an error has them replaced by `<redacted>`.
///
/// The session is left open once the last listing was read (and a server started for it
/// running): the [`ServerSession`] owns both, and closing it DELETEs the session and stops the
/// server. On an error everything is closed and stopped before this returns.
///
/// # Errors
///
/// A [`ProbeError`] whose kind says what to do: [`ProbeErrorKind::Unreachable`],
/// [`ProbeErrorKind::AuthRequired`] (with the escaped `WWW-Authenticate` challenge),
/// [`ProbeErrorKind::NotFound`], [`ProbeErrorKind::TimedOut`], [`ProbeErrorKind::NotMcp`],
/// [`ProbeErrorKind::Tls`] (`https://`, feature `https`), [`ProbeErrorKind::Configuration`]
/// (an `https://` URL without the feature, too), or any failure of the MCP session itself.
#[cfg(feature = "http")]
pub fn probe_http_session(
    endpoint: &HttpEndpoint,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    let deadline = Instant::now() + options.timeout;
    let label = display_url(&endpoint.url);
    let setup_error = |failure: http::HttpFailure| ProbeError {
        command: label.clone(),
        phase: Phase::Spawn,
        kind: failure.kind,
        message: failure.message,
        exit_status: None,
        stderr_tail: Vec::new(),
    };
    // Configuration errors before a server is started for nothing.
    http::preflight(endpoint).map_err(setup_error)?;
    let headers = http::resolve_headers(endpoint).map_err(setup_error)?;
    let header_values: Vec<String> = headers.iter().map(|(_, value)| value.clone()).collect();
    let mut started = None;
    let mut endpoint = endpoint.clone();
    if let Some(command) = endpoint.start.clone() {
        let server = http::StartedServer::start(&command, &endpoint, deadline)
            .map_err(|e| e.into_probe_error(&label))?;
        endpoint.url = server.url.clone();
        started = Some(server);
    }
    let mut transport =
        http::HttpTransport::new(&endpoint, headers, deadline).map_err(setup_error)?;
    let outcome = session::run(&mut transport, options, deadline);
    let classified = transport.failure.take();
    let note = transport.redirect_note(started.as_ref().map(http::StartedServer::port));
    if let Ok((mut probe, continued)) = outcome {
        probe.notes.extend(note);
        // The session stays open for work continued in it; closing it DELETEs the session
        // and stops the server started for it.
        let session = stopping::HttpSession { transport, started };
        return Ok((probe, ServerSession::http(session, continued)));
    }
    transport.close();
    // What the started server echoes may hold its own credentials or a header value.
    let mut secrets: Vec<String> = endpoint
        .start
        .as_ref()
        .map(ServerCommand::secrets)
        .unwrap_or_default();
    secrets.extend(header_values);
    let stderr_tail = match &mut started {
        Some(server) => {
            let tail = scrub_lines(server.output_tail(), &secrets);
            server.stop();
            tail
        }
        None => Vec::new(),
    };
    let failure = match outcome {
        Ok(_) => unreachable!("a probe that succeeded returned above"),
        Err(failure) => failure,
    };
    let (kind, message) = match classified {
        // The transport knows better than "an I/O error" what went wrong.
        Some(http) if failure.kind == ProbeErrorKind::Io => (http.kind, http.message),
        _ => (failure.kind, failure.message),
    };
    let message = match kind {
        ProbeErrorKind::TimedOut if !message.contains("time limit of") => format!(
            "{message} (time limit {:.1} s)",
            options.timeout.as_secs_f64()
        ),
        _ => message,
    };
    Err(ProbeError {
        command: label,
        phase: failure.phase,
        kind,
        message,
        exit_status: None,
        stderr_tail,
    })
}

/// Without the `http` feature: a [`ProbeErrorKind::Configuration`] error saying how to enable
/// it (the default build is stdio only; see `probe_http_session` with the feature).
#[cfg(not(feature = "http"))]
pub fn probe_http(endpoint: &HttpEndpoint, _options: &ProbeOptions) -> Result<Probe, ProbeError> {
    Err(ProbeError {
        command: display_url(&endpoint.url),
        phase: Phase::Spawn,
        kind: ProbeErrorKind::Configuration,
        message: "this build of mcp-contract-test has no HTTP transport (stdio only by \
                  default): enable its `http` feature, e.g. `mcp-contract-test = { version = \
                  \"0.1\", features = [\"http\"] }` (`https` for https:// URLs)"
            .to_owned(),
        exit_status: None,
        stderr_tail: Vec::new(),
    })
}

/// Probes a server wherever it is: over stdio ([`probe_stdio`]), Streamable HTTP or in-process.
///
/// A stdio server's session is closed as soon as its last listing is read: the server is
/// stopped before this returns, or, while a guard of [`defer_stops`] is alive, exits in the
/// background (see [`probe_session`]).
pub fn probe(spec: &ServerSpec, options: &ProbeOptions) -> Result<Probe, ProbeError> {
    let (probe, session) = probe_session(spec, options)?;
    session.close();
    Ok(probe)
}

/// [`probe`], handing over the server's open session, whatever the transport: work continued
/// in it ([`ServerSession::request`]) happens in the very session the surface was read in.
///
/// # Errors
///
/// As [`probe`].
pub fn probe_session(
    spec: &ServerSpec,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    match spec {
        ServerSpec::Stdio(command) => probe_stdio_session(command, options),
        #[cfg(feature = "http")]
        ServerSpec::Http(endpoint) => probe_http_session(endpoint, options),
        #[cfg(not(feature = "http"))]
        ServerSpec::Http(endpoint) => Ok((probe_http(endpoint, options)?, ServerSession::none())),
        ServerSpec::InProcess(server) => in_process::probe_in_process_session(server, options),
    }
}

/// Lines a server wrote, with the given credentials and anything shaped like one replaced.
fn scrub_lines(lines: Vec<String>, secrets: &[String]) -> Vec<String> {
    // A loop: an in-place `collect` compiles its own specialisation per closure.
    let mut out = Vec::with_capacity(lines.len());
    for line in &lines {
        out.push(crate::prepare::secrets::scrub_known(line, secrets));
    }
    out
}

/// Longest piece of server text quoted in one message, in characters.
const QUOTE_LIMIT: usize = 200;

/// Makes server-controlled text safe for one line of a terminal or CI log: every character
/// [`crate::escape::is_hidden`] names (C0/C1 controls, ESC, DEL, bidi controls, zero-width
/// characters, …) becomes a visible `\u{..}` escape.
fn escape_untrusted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if crate::escape::is_hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Quotes server text for a message: escaped, and cut after [`QUOTE_LIMIT`] characters.
fn quote_untrusted(text: &str) -> String {
    let (head, cut) = first_chars(text, QUOTE_LIMIT);
    let more = if cut { "…" } else { "" };
    format!("'{}{more}'", escape_untrusted(head))
}

/// The first `limit` characters of `text`, and whether there were more: what
/// `chars().take(limit).collect::<String>()` gives, borrowed, with no iterator chain compiled
/// per call site.
fn first_chars(text: &str, limit: usize) -> (&str, bool) {
    match text.char_indices().nth(limit) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_chars_is_what_taking_chars_gives() {
        for text in ["", "abc", "héllo wörld", "日本語のテキスト", "a\u{301}bc"] {
            for limit in 0..12 {
                let mut chars = text.chars();
                let taken: String = chars.by_ref().take(limit).collect();
                let more = chars.next().is_some();
                assert_eq!(
                    first_chars(text, limit),
                    (taken.as_str(), more),
                    "{text} {limit}"
                );
            }
        }
    }

    /// The default build is stdio only: an HTTP spec is refused with how to enable the feature.
    #[cfg(not(feature = "http"))]
    #[test]
    fn http_without_the_feature_says_which_feature_to_enable() {
        let endpoint = HttpEndpoint::new("http://user:pw@127.0.0.1:9/mcp?token=x");
        let error = probe(&ServerSpec::Http(endpoint), &ProbeOptions::default()).unwrap_err();
        assert_eq!(error.kind, ProbeErrorKind::Configuration);
        assert!(
            error.message.contains("`http` feature"),
            "{}",
            error.message
        );
        assert!(!error.to_string().contains("pw") && !error.to_string().contains("token=x"));
    }

    #[test]
    fn escapes_controls_bidi_and_zero_width() {
        assert_eq!(
            escape_untrusted("a\u{1b}[31mb\r\u{202e}c\u{200b}d\u{85}é"),
            "a\\u{1b}[31mb\\u{d}\\u{202e}c\\u{200b}d\\u{85}é"
        );
        assert_eq!(quote_untrusted("ok"), "'ok'");
        let long = "x".repeat(QUOTE_LIMIT + 5);
        assert_eq!(
            quote_untrusted(&long),
            format!("'{}…'", "x".repeat(QUOTE_LIMIT))
        );
    }
}
