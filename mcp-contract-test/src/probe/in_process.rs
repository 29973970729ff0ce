//! In-process servers: no process, no port, no binary build.
//!
//! An [`InProcess`] server is a factory for a [`Transport`] connected to a server that runs inside
//! the test process. The `rmcp` feature provides one for any `rmcp::ServerHandler`
//! ([`InProcess::rmcp`]): the handler is served on a current-thread tokio runtime in a background
//! thread over an in-memory duplex pipe, and the probe talks newline-delimited JSON-RPC through
//! it exactly as it does over stdio. Any other in-process server can implement the factory
//! itself ([`InProcess::new`]).

use super::session::Transport;
use super::{Phase, Probe, ProbeError, ProbeErrorKind, ProbeOptions, ServerSession};
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// A transport to an in-process server; dropping it stops the server (within a bounded wait).
pub type InProcessTransport = Box<dyn Transport + Send>;

type Connect = dyn Fn() -> std::io::Result<InProcessTransport> + Send + Sync;

/// A server that runs inside the test process: a name for messages and snapshot headers, and a
/// factory that starts a fresh server and returns a transport connected to it.
///
/// Its `Debug` shows the name only. Two `InProcess` values are equal when they share the same
/// factory (clones of one value).
#[derive(Clone)]
pub struct InProcess {
    name: String,
    connect: Arc<Connect>,
}

impl InProcess {
    /// An in-process server named `name` (e.g. its type name) whose `connect` starts a fresh
    /// server and returns a transport to it. The transport must stop the server when dropped.
    pub fn new<F>(name: impl Into<String>, connect: F) -> InProcess
    where
        F: Fn() -> std::io::Result<InProcessTransport> + Send + Sync + 'static,
    {
        InProcess {
            name: name.into(),
            connect: Arc::new(connect),
        }
    }

    /// The server's name, e.g. `notes_server::NotesServer<notes_server::V1>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Starts a fresh server and connects to it.
    ///
    /// # Errors
    ///
    /// The factory's error when the server cannot be started (its message is the probe
    /// failure's).
    pub fn connect(&self) -> std::io::Result<InProcessTransport> {
        (self.connect)()
    }
}

impl fmt::Debug for InProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("InProcess").field(&self.name).finish()
    }
}

impl PartialEq for InProcess {
    fn eq(&self, other: &InProcess) -> bool {
        self.name == other.name && Arc::ptr_eq(&self.connect, &other.connect)
    }
}

impl Eq for InProcess {}

/// Probes an in-process server: starts a fresh one and runs the session over its transport,
/// leaving the server running with its session open once the last listing was read: the
/// [`ServerSession`] owns the transport, and closing it stops the server. One deadline,
/// `options.timeout`, bounds the session.
///
/// # Errors
///
/// A [`ProbeError`] whose command is `in-process NAME`: [`ProbeErrorKind::SpawnFailed`] when the
/// server cannot be started, otherwise any failure of the MCP session.
pub(super) fn probe_in_process_session(
    server: &InProcess,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    let deadline = Instant::now() + options.timeout;
    let label = format!("in-process {}", server.name);
    let mut transport = server.connect().map_err(|error| ProbeError {
        command: label.clone(),
        phase: Phase::Spawn,
        kind: ProbeErrorKind::SpawnFailed,
        message: error.to_string(),
        exit_status: None,
        stderr_tail: Vec::new(),
    })?;
    match super::session::run(&mut *transport, options, deadline) {
        Ok((probe, continued)) => Ok((probe, ServerSession::in_process(transport, continued))),
        Err(failure) => {
            drop(transport);
            Err(ProbeError {
                command: label,
                phase: failure.phase,
                kind: failure.kind,
                message: failure.message,
                exit_status: None,
                stderr_tail: Vec::new(),
            })
        }
    }
}

#[cfg(feature = "rmcp")]
mod rmcp_bridge {
    use super::{InProcess, InProcessTransport};
    use crate::probe::message::{Message, MessageError};
    use crate::probe::session::{Transport, TransportError};
    use serde_json::Value;
    use std::sync::mpsc;
    use std::thread;
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

    /// Bytes the in-memory pipe buffers in each direction before a writer waits.
    const PIPE_CAPACITY: usize = 1 << 20;
    /// How long dropping the transport waits for the server's thread to end.
    const STOP_WAIT: Duration = Duration::from_secs(2);
    /// Longest line accepted from the server (as on stdio).
    const MAX_LINE: usize = 16 << 20;

    impl InProcess {
        /// An in-process rmcp server: `make` builds a fresh handler for each probe, served over
        /// an in-memory duplex pipe on a current-thread tokio runtime in a background thread.
        /// No process is started and no port is opened. Named by the handler's type name.
        pub fn rmcp<H, F>(make: F) -> InProcess
        where
            H: rmcp::ServerHandler,
            F: Fn() -> H + Send + Sync + 'static,
        {
            let make = std::sync::Arc::new(make);
            InProcess::new(std::any::type_name::<H>(), move || {
                let make = std::sync::Arc::clone(&make);
                super::rmcp_bridge::rmcp_transport(move || make())
            })
        }
    }

    /// Starts one rmcp server built by `make` in a background thread and returns a transport
    /// connected to it over an in-memory pipe. Dropping the transport closes the pipe, which
    /// ends rmcp's service; the thread is then joined (waiting at most two seconds).
    ///
    /// # Errors
    ///
    /// The runtime or the thread cannot be created.
    // Long on purpose (~120 lines): the background thread's one async block (the handler
    // served, the writer and the reader of the pipe, a panic reported as a crash) shares the
    // pipe's two ends and the channels; it reads as one piece.
    pub fn rmcp_transport<H, F>(make: F) -> std::io::Result<InProcessTransport>
    where
        H: rmcp::ServerHandler,
        F: FnOnce() -> H + Send + 'static,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                let message =
                    format!("cannot build a tokio runtime for the in-process server: {e}");
                std::io::Error::new(e.kind(), message)
            })?;
        let (outgoing_tx, mut outgoing_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let (incoming_tx, incoming_rx) = mpsc::channel::<Result<Message, TransportError>>();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let panic_tx = incoming_tx.clone();
        let thread = thread::Builder::new()
            .name("mcp-contract-in-process".to_owned())
            .spawn(move || {
                let run = std::panic::AssertUnwindSafe(move || {
                    runtime.block_on(async move {
                        let (client, server) = tokio::io::duplex(PIPE_CAPACITY);
                        let serve = async move {
                            // The handler is built here so a panicking constructor is reported
                            // like a crashing server.
                            let handler = make();
                            let (read, write) = tokio::io::split(server);
                            if let Ok(running) =
                                rmcp::ServiceExt::serve(handler, (read, write)).await
                            {
                                let _ = running.waiting().await;
                            }
                        };
                        let (client_read, mut client_write) = tokio::io::split(client);
                        let writer = async move {
                            while let Some(line) = outgoing_rx.recv().await {
                                if client_write.write_all(line.as_bytes()).await.is_err() {
                                    break;
                                }
                            }
                            // The probe dropped its transport: EOF ends the server.
                            let _ = client_write.shutdown().await;
                        };
                        let reader = async move {
                            let mut lines = BufReader::new(client_read);
                            let mut buffer = Vec::new();
                            loop {
                                buffer.clear();
                                let read = lines.read_until(b'\n', &mut buffer).await;
                                let message = match read {
                                    Ok(0) => Err(TransportError::Closed),
                                    Ok(_) if buffer.len() > MAX_LINE => {
                                        Err(TransportError::InvalidOutput(format!(
                                            "the in-process server wrote a line over {} MiB",
                                            MAX_LINE >> 20
                                        )))
                                    }
                                    Ok(_) if buffer.iter().all(u8::is_ascii_whitespace) => {
                                        continue;
                                    }
                                    Ok(_) => {
                                        let parsed = std::str::from_utf8(&buffer)
                                            .map_err(|_| MessageError::NotMessages)
                                            .and_then(Message::parse_all);
                                        match parsed {
                                            Ok(batch) => {
                                                let mut sent = true;
                                                for message in batch {
                                                    sent &= incoming_tx.send(Ok(message)).is_ok();
                                                }
                                                if sent {
                                                    continue;
                                                }
                                                break;
                                            }
                                            Err(_) => Err(TransportError::InvalidOutput(
                                                "the in-process server wrote a line that is \
                                                 not JSON-RPC"
                                                    .to_owned(),
                                            )),
                                        }
                                    }
                                    Err(e) => Err(TransportError::Io(format!(
                                        "reading from the in-process server: {e}"
                                    ))),
                                };
                                let last = message.is_err();
                                if incoming_tx.send(message).is_err() || last {
                                    break;
                                }
                            }
                        };
                        // The server ends once the writer closes the pipe; the reader ends at
                        // EOF or when the probe stops listening.
                        tokio::join!(serve, writer, reader);
                    });
                });
                if let Err(panic) = std::panic::catch_unwind(run) {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".to_owned());
                    let _ = panic_tx.send(Err(TransportError::Io(format!(
                        "the in-process server panicked: {}",
                        crate::escape::escape(&what)
                    ))));
                }
                let _ = done_tx.send(());
            })
            .map_err(|e| {
                let message = format!("cannot start a thread for the in-process server: {e}");
                std::io::Error::new(e.kind(), message)
            })?;
        Ok(Box::new(RmcpTransport {
            outgoing: Some(outgoing_tx),
            incoming: incoming_rx,
            done: done_rx,
            thread: Some(thread),
        }))
    }

    /// The probe's end of the pipe: messages go to the runtime thread through a channel, and
    /// come back through another.
    struct RmcpTransport {
        outgoing: Option<tokio::sync::mpsc::UnboundedSender<String>>,
        incoming: mpsc::Receiver<Result<Message, TransportError>>,
        done: mpsc::Receiver<()>,
        thread: Option<thread::JoinHandle<()>>,
    }

    impl Transport for RmcpTransport {
        fn send(&mut self, message: &Value) -> Result<(), TransportError> {
            let sender = self.outgoing.as_ref().ok_or(TransportError::Closed)?;
            sender
                .send(format!("{message}\n"))
                .map_err(|_| TransportError::Closed)
        }

        fn recv(&mut self, deadline: Instant) -> Result<Option<Message>, TransportError> {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(wait) {
                Ok(Ok(message)) => Ok(Some(message)),
                Ok(Err(error)) => Err(error),
                Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => Err(TransportError::Closed),
            }
        }

        fn remarks(&self) -> Option<String> {
            None
        }
    }

    impl Drop for RmcpTransport {
        fn drop(&mut self) {
            // Closing the channel ends the writer, which closes the pipe: rmcp's service ends.
            self.outgoing = None;
            if self.done.recv_timeout(STOP_WAIT).is_ok() {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
            }
            // Otherwise the thread is left to finish on its own: it holds no process or port.
        }
    }
}
