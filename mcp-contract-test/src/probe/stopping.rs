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
//! work that continues in the same session after the listings (e.g. tool calls declared by the
//! suite), which then closes it when done.

use super::session::Transport;
use super::stdio::StdioServer;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

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

/// A probed server that is still running with its session open (stdio servers; other
/// transports end their session in the probe and hand over nothing).
///
/// [`ServerSession::transport`] continues the session (more requests after the listings);
/// [`ServerSession::close`], or dropping it, closes the server's stdin and ends the session:
/// the server is then stopped at once, or, while a [`DeferredStops`] guard is alive, left to
/// exit on its own until the guard drops.
pub struct ServerSession {
    server: Option<StdioServer>,
}

impl std::fmt::Debug for ServerSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerSession")
            .field("running", &self.server.is_some())
            .finish()
    }
}

impl ServerSession {
    /// A session that owns no server (HTTP and in-process probes end their own).
    pub(crate) fn none() -> ServerSession {
        ServerSession { server: None }
    }

    pub(super) fn stdio(server: StdioServer) -> ServerSession {
        ServerSession {
            server: Some(server),
        }
    }

    /// The open session's transport, to send further requests in it; `None` when this session
    /// owns no server.
    pub fn transport(&mut self) -> Option<&mut dyn Transport> {
        self.server
            .as_mut()
            .map(|server| server as &mut dyn Transport)
    }

    /// Ends the session: see the type's docs.
    pub fn close(mut self) {
        self.release();
    }

    /// Ends the session and waits until the server and its process group are gone (close
    /// stdin and wait up to 1 s, SIGTERM, SIGKILL), whatever guard is alive.
    pub fn stop(mut self) {
        if let Some(mut server) = self.server.take() {
            server.stop();
        }
    }

    fn release(&mut self) {
        let Some(mut server) = self.server.take() else {
            return;
        };
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
