//! Report first, stop the server after.
//!
//! Many servers take a while to exit once their stdin closes (a Node server ~0.4 s): waiting
//! for that before judging would double a suite's run time. So a face (the test harness, the
//! CLI) holds a [`DeferredStops`] guard for its whole run: while one is alive, a probe that read
//! its last listing closes the server's stdin and goes on, and the server exits while the suite
//! is judged, written, printed and its tests run. When the last guard drops (before the binary
//! exits), every server still running gets SIGTERM to its process group, then SIGKILL after a
//! bounded grace ([`StdioServer::stop_now`]), so nothing outlives the run.
//!
//! Without a guard (a library caller, a test calling the probe directly) nothing changes: the
//! server is stopped before the probe returns.
//!
//! A probe's server is owned by a [`ServerSession`] until it is closed: the hand-over point for
//! work that continues in the same session after the listings (the tool calls a suite declares,
//! over any transport), which then closes it when done.

#[cfg(feature = "http")]
use super::http::{HttpTransport, StartedServer};
use super::in_process::InProcessTransport;
use super::session::{self, Answer, Continued, SessionError, Transport};
use super::stdio::StdioServer;
use super::ProbeErrorKind;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How many [`DeferredStops`] guards are alive.
static DEFERRING: AtomicUsize = AtomicUsize::new(0);
/// Servers whose stdin was closed and that are exiting on their own, stopped when the last
/// guard drops.
static EXITING: Mutex<Vec<StdioServer>> = Mutex::new(Vec::new());

/// While alive, servers are stopped at the end of the run instead of before each probe
/// returns; dropping the last one stops every server still running (see the module docs).
/// Hold one in a face's `main`, for as long as the run lasts.
#[derive(Debug)]
#[must_use = "servers are stopped when the guard drops: keep it for the whole run"]
pub struct DeferredStops {
    _private: (),
}

/// Starts deferring stops until the returned guard drops.
pub fn defer_stops() -> DeferredStops {
    DEFERRING.fetch_add(1, Ordering::SeqCst);
    DeferredStops { _private: () }
}

impl Drop for DeferredStops {
    fn drop(&mut self) {
        if DEFERRING.fetch_sub(1, Ordering::SeqCst) == 1 {
            stop_exiting();
        }
    }
}

/// Stops every server handed over to exit on its own: the ones already gone are reaped, the
/// others signalled (all at once, so several slow servers cost one grace, not one each).
fn stop_exiting() {
    let servers = std::mem::take(&mut *EXITING.lock().unwrap_or_else(PoisonError::into_inner));
    if servers.len() <= 1 {
        servers.into_iter().for_each(|mut server| server.stop_now());
        return;
    }
    std::thread::scope(|scope| {
        for mut server in servers {
            let spawned = std::thread::Builder::new()
                .name("mcp-contract-stop".to_owned())
                .spawn_scoped(scope, move || server.stop_now());
            // No thread to be had: the server was moved into the failed closure, whose drop
            // stops it here (`StdioServer` stops itself on drop).
            drop(spawned);
        }
    });
}

/// A probed server with its session still open after the last listing, whatever the
/// transport: a stdio process, an HTTP session (and the server started for it), or an
/// in-process server.
///
/// [`ServerSession::request`] continues the session (e.g. declared `tools/call`s);
/// [`ServerSession::close`], or dropping it, ends it: a stdio server's stdin is closed and the
/// server stopped at once, or, while a `DeferredStops` guard ([`defer_stops`]) is alive, left to exit on its own
/// until the guard drops; an HTTP session is DELETEd and a server started for it stopped with
/// its process group; an in-process server is stopped.
pub struct ServerSession {
    open: Option<Open>,
    continued: Continued,
}

/// The transport of an open session, and what must be stopped with it.
enum Open {
    Stdio(StdioServer),
    #[cfg(feature = "http")]
    Http(Box<HttpSession>),
    InProcess(InProcessTransport),
}

/// An HTTP session kept open after the probe: the transport, and the server started for it.
#[cfg(feature = "http")]
pub(super) struct HttpSession {
    pub(super) transport: HttpTransport,
    pub(super) started: Option<StartedServer>,
}

impl std::fmt::Debug for ServerSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let open = match &self.open {
            None => "none",
            Some(Open::Stdio(_)) => "stdio",
            #[cfg(feature = "http")]
            Some(Open::Http(_)) => "http",
            Some(Open::InProcess(_)) => "in-process",
        };
        f.debug_struct("ServerSession")
            .field("open", &open)
            .finish_non_exhaustive()
    }
}

impl ServerSession {
    /// A session that owns nothing (a probe that ended its own session).
    #[cfg(not(feature = "http"))]
    pub(crate) fn none() -> ServerSession {
        ServerSession {
            open: None,
            continued: Continued::default(),
        }
    }

    pub(super) fn stdio(server: StdioServer, continued: Continued) -> ServerSession {
        ServerSession {
            open: Some(Open::Stdio(server)),
            continued,
        }
    }

    #[cfg(feature = "http")]
    pub(super) fn http(session: HttpSession, continued: Continued) -> ServerSession {
        ServerSession {
            open: Some(Open::Http(Box::new(session))),
            continued,
        }
    }

    pub(super) fn in_process(transport: InProcessTransport, continued: Continued) -> ServerSession {
        ServerSession {
            open: Some(Open::InProcess(transport)),
            continued,
        }
    }

    /// Whether the session is still open (not closed, not owning nothing).
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The open session's transport, to exchange raw messages in it; `None` when this session
    /// owns no server. (Prefer [`ServerSession::request`], which numbers requests after the
    /// probe's and adds a stateless session's `_meta`.)
    pub fn transport(&mut self) -> Option<&mut dyn Transport> {
        match self.open.as_mut()? {
            Open::Stdio(server) => Some(server as &mut dyn Transport),
            #[cfg(feature = "http")]
            Open::Http(http) => Some(&mut http.transport as &mut dyn Transport),
            Open::InProcess(transport) => Some(&mut **transport as &mut dyn Transport),
        }
    }

    /// Sends one request in the session, after the probe's requests, and waits up to `timeout`
    /// for its answer: the result, or the JSON-RPC error the server answered with. The
    /// server's own requests meanwhile are answered as during the probe (`ping`, nothing else).
    ///
    /// # Errors
    ///
    /// No answer within `timeout` ([`ProbeErrorKind::TimedOut`]), the server gone
    /// ([`ProbeErrorKind::Exited`]), an answer that is not one, or a transport failure (an
    /// HTTP status, a TLS error: its kind says which); a session that owns nothing
    /// ([`ProbeErrorKind::Exited`]).
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn request(
        &mut self,
        method: &str,
        params: serde_json::Value,
        timeout: Duration,
    ) -> Result<Answer, SessionError> {
        let continued = &mut self.continued;
        match self.open.as_mut() {
            None => Err(SessionError {
                kind: ProbeErrorKind::Exited,
                message: "the session with the server is closed".to_owned(),
            }),
            Some(Open::Stdio(server)) => {
                session::request_in(server, continued, method, params, timeout)
            }
            #[cfg(feature = "http")]
            Some(Open::Http(http)) => {
                // The transport bounds every request by a deadline of its own, the probe's:
                // this request has its own.
                http.transport
                    .extend_deadline(std::time::Instant::now() + timeout);
                let outcome =
                    session::request_in(&mut http.transport, continued, method, params, timeout);
                // The transport knows better than "an I/O error" what went wrong.
                match (outcome, http.transport.failure.take()) {
                    (Err(error), Some(failure)) if error.kind == ProbeErrorKind::Io => {
                        Err(SessionError {
                            kind: failure.kind,
                            message: failure.message,
                        })
                    }
                    (outcome, _) => outcome,
                }
            }
            Some(Open::InProcess(transport)) => {
                session::request_in(&mut **transport, continued, method, params, timeout)
            }
        }
    }

    /// Ends the session: see the type's docs.
    pub fn close(mut self) {
        self.release();
    }

    /// Ends the session and waits until the server and its process group are gone (a stdio
    /// server: close stdin and wait up to 1 s, SIGTERM, SIGKILL), whatever guard is alive.
    pub fn stop(mut self) {
        match self.open.take() {
            Some(Open::Stdio(mut server)) => server.stop(),
            Some(other) => Self::end(other),
            None => {}
        }
    }

    /// Ends an HTTP or in-process session (a stdio one is [`ServerSession::release`]d).
    fn end(open: Open) {
        match open {
            Open::Stdio(mut server) => server.stop(),
            #[cfg(feature = "http")]
            Open::Http(mut http) => {
                http.transport.close();
                if let Some(mut started) = http.started.take() {
                    started.stop();
                }
            }
            // Dropping the transport stops the server (within a bounded wait).
            Open::InProcess(transport) => drop(transport),
        }
    }

    fn release(&mut self) {
        let server = match self.open.take() {
            None => return,
            Some(Open::Stdio(server)) => server,
            Some(other) => return Self::end(other),
        };
        let mut server = server;
        if DEFERRING.load(Ordering::SeqCst) == 0 {
            server.stop();
            return;
        }
        server.close_stdin();
        EXITING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(server);
        // The last guard may have dropped meanwhile: then nobody else will stop it.
        if DEFERRING.load(Ordering::SeqCst) == 0 {
            stop_exiting();
        }
    }
}

impl Drop for ServerSession {
    fn drop(&mut self) {
        self.release();
    }
}
