//! A server started for an HTTP probe (`start = "…{port}…"`): a free port picked, the command
//! run in a process group of its own, its stdout and stderr drained into the shared output
//! tail, readiness seen on a line of its output or on its port, and the whole group stopped
//! afterwards.

use super::super::output_tail::{self, OutputTail, Pipe};
use super::super::{
    process_group, quote_untrusted, HttpEndpoint, Phase, ProbeError, ProbeErrorKind, ServerCommand,
};
use super::url;
use std::io::{self, Read};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Why a server to be started for an HTTP probe did not become ready.
#[derive(Debug)]
pub(in crate::probe) struct StartError {
    kind: ProbeErrorKind,
    message: String,
    exit_status: Option<String>,
    tail: Vec<String>,
}

impl StartError {
    fn new(kind: ProbeErrorKind, message: String) -> StartError {
        StartError {
            kind,
            message,
            exit_status: None,
            tail: Vec::new(),
        }
    }

    pub(in crate::probe) fn into_probe_error(self, label: &str) -> ProbeError {
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
pub(in crate::probe) struct StartedServer {
    child: Child,
    /// The endpoint URL with `{port}` filled in.
    pub(in crate::probe) url: String,
    output: Arc<Mutex<OutputTail>>,
    port: u16,
    stopped: bool,
}

impl StartedServer {
    /// Picks a free port, starts `command` with `{port}` filled in, and waits (until
    /// `deadline`) for `endpoint.ready_line` on its output, or for its port to accept a
    /// connection.
    pub(in crate::probe) fn start(
        command: &ServerCommand,
        endpoint: &HttpEndpoint,
        deadline: Instant,
    ) -> Result<StartedServer, StartError> {
        let port = TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| {
                StartError::new(ProbeErrorKind::Io, format!("cannot find a free port: {e}"))
            })?;
        let fill = |text: &str| text.replace("{port}", &port.to_string());
        let url = fill(&endpoint.url);
        let parsed = url::parse(&url).map_err(|(kind, message)| StartError::new(kind, message))?;
        let mut child = spawn(command, &fill)?;
        let output = Arc::new(Mutex::new(OutputTail::default()));
        let ready = drain_output(&mut child, &output, endpoint.ready_line.as_deref());
        let mut server = StartedServer {
            child,
            url,
            output,
            port,
            stopped: false,
        };
        server.wait_ready(
            command,
            endpoint,
            (&parsed.host, parsed.port),
            &ready,
            deadline,
        )?;
        Ok(server)
    }

    /// Waits until the server is ready: a line of its output holds the ready line (`ready`
    /// hears of it), or, without one, its port accepts a connection. A server that exits
    /// first, or is not ready by `deadline` (then it is stopped), is an error.
    fn wait_ready(
        &mut self,
        command: &ServerCommand,
        endpoint: &HttpEndpoint,
        (host, port): (&str, u16),
        ready: &mpsc::Receiver<()>,
        deadline: Instant,
    ) -> Result<(), StartError> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(StartError {
                    kind: ProbeErrorKind::Exited,
                    message: format!(
                        "the start command `{}` exited before the server was ready",
                        command.display()
                    ),
                    exit_status: Some(status.to_string()),
                    tail: self.output_tail(),
                });
            }
            let is_ready = match &endpoint.ready_line {
                Some(_) => ready.recv_timeout(Duration::from_millis(50)).is_ok(),
                None => accepts(host, port),
            };
            if is_ready {
                return Ok(());
            }
            if Instant::now() >= deadline {
                let tail = self.output_tail();
                self.stop();
                let waited_for = match &endpoint.ready_line {
                    Some(line) => format!("a line containing {}", quote_untrusted(line)),
                    None => format!("port {} to accept connections", self.port),
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

    /// The port it was given.
    pub(in crate::probe) fn port(&self) -> u16 {
        self.port
    }

    /// The last lines the server wrote (stdout and stderr, raw; escaped when displayed).
    pub(in crate::probe) fn output_tail(&self) -> Vec<String> {
        self.output
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .lines()
    }

    /// Stops the server's process group: SIGTERM, up to 1 s, SIGKILL. Idempotent.
    pub(in crate::probe) fn stop(&mut self) {
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

/// Starts `command` (every `{port}` filled in by `fill`) in a process group of its own, its
/// stdout and stderr piped.
fn spawn(command: &ServerCommand, fill: &dyn Fn(&str) -> String) -> Result<Child, StartError> {
    // `${VAR}` read now, into the command that runs; messages show it as configured.
    let running = command
        .expanded()
        .map_err(|message| StartError::new(ProbeErrorKind::Configuration, message))?;
    let mut builder = Command::new(fill(&running.program));
    builder
        .args(running.args.iter().map(|a| fill(a)))
        .envs(running.env.iter().map(|(k, v)| (k, fill(v))))
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
    builder.spawn().map_err(|e| {
        let kind = if e.kind() == io::ErrorKind::NotFound {
            ProbeErrorKind::CommandNotFound
        } else {
            ProbeErrorKind::SpawnFailed
        };
        StartError::new(
            kind,
            format!(
                "the start command `{}` could not be started: {e}",
                command.display()
            ),
        )
    })
}

/// Drains the child's stdout and stderr into `output`, each on a detached thread (it ends when
/// the pipe closes, when the group is gone); the receiver hears once per line that holds
/// `ready_line`.
fn drain_output(
    child: &mut Child,
    output: &Arc<Mutex<OutputTail>>,
    ready_line: Option<&str>,
) -> mpsc::Receiver<()> {
    let (ready_tx, ready_rx) = mpsc::channel();
    let pipes: [(Option<Box<dyn Read + Send>>, Pipe); 2] = [
        (
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
            Pipe::Stdout,
        ),
        (
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
            Pipe::Stderr,
        ),
    ];
    for (pipe, which) in pipes {
        let Some(pipe) = pipe else { continue };
        let output = Arc::clone(output);
        let ready_tx = ready_tx.clone();
        let needle = ready_line.map(str::to_owned);
        let _ = thread::Builder::new()
            .name("mcp-probe-started".into())
            .spawn(move || {
                output_tail::drain(pipe, &output, which, |line| {
                    if needle.as_deref().is_some_and(|n| line.contains(n)) {
                        let _ = ready_tx.send(());
                    }
                });
            });
    }
    ready_rx
}

/// Whether `host:port` accepts a TCP connection now.
fn accepts(host: &str, port: u16) -> bool {
    let addr = (host, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next());
    addr.is_some_and(|addr| TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok())
}
