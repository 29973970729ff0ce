//! The stdio transport: a child process, a thread per pipe, and a guard that stops the whole
//! process group however the probe ends.

use super::message::{Message, MessageError};
use super::output_tail::{self, OutputTail, Pipe};
use super::process_group;
use super::queue::{self, Receiver, Sender};
use super::session::{Transport, TransportError};
use super::{escape_untrusted, quote_untrusted, Phase, ProbeError, ProbeErrorKind, ServerCommand};
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How deep serde_json parses (its fixed recursion limit); deeper answers are a named error.
const MAX_DEPTH: usize = 128;
/// Longest line accepted on stdout (as rmcp does): a longer one is an error, not a wait.
const MAX_LINE: usize = 16 * 1024 * 1024;
/// Lines read ahead from stdout; bounds memory when a server floods its stdout.
const READ_AHEAD: usize = 4;
/// How long each step of stopping waits before the next, harder one.
const STOP_STEP: Duration = Duration::from_secs(1);
/// How often a wait for exit looks again.
const POLL: Duration = Duration::from_millis(10);

/// What goes through the transport's queues: a line the stdout thread read or the writer
/// thread is to write, or how a pipe ended (`Eof` from the stderr thread: it reached its end).
/// One element type for all three queues (`queue.rs`, not `std::sync::mpsc`, whose code is
/// compiled in three flavours per element type).
enum Event {
    Line(String),
    InvalidUtf8 { line: usize },
    TooLong { line: usize },
    Eof,
    Failed(String),
}

/// A running server speaking JSON-RPC on its stdio. Dropping it stops the server.
pub(super) struct StdioServer {
    child: Child,
    /// Lines to write ([`Event::Line`]); dropping the sender closes the server's stdin.
    writer: Option<Sender<Event>>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<OutputTail>>,
    /// [`Event::Eof`] once the stderr reader reached its end.
    stderr_done: Receiver<Event>,
    /// Messages of a JSON-RPC batch not handed out yet.
    pending: VecDeque<Message>,
    /// Once reading failed, every later read fails the same way.
    failed: Option<TransportError>,
    noise_lines: usize,
    first_noise: Option<String>,
    exit_status: Option<ExitStatus>,
    stopped: bool,
}

impl StdioServer {
    /// Starts the server with piped stdio, in a process group of its own on unix.
    // Long on purpose (~110 lines): the checks before the spawn, the spawn in its own process
    // group, and the reader threads of stdout and stderr it starts, in the order they happen.
    pub(super) fn spawn(command: &ServerCommand) -> Result<StdioServer, ProbeError> {
        let spawn_error = |kind, message: String| ProbeError {
            command: command.display(),
            phase: Phase::Spawn,
            kind,
            message,
            exit_status: None,
            stderr_tail: Vec::new(),
        };
        if command.program.is_empty() {
            return Err(spawn_error(
                ProbeErrorKind::SpawnFailed,
                "the command is empty: give the program that starts the server".to_owned(),
            ));
        }
        if let Some(dir) = &command.cwd {
            if !dir.is_dir() {
                return Err(spawn_error(
                    ProbeErrorKind::SpawnFailed,
                    format!("the working directory {} is not a directory", dir.display()),
                ));
            }
        }
        // `${VAR}` read now, into the command that runs; messages show it as configured.
        let running = command
            .expanded()
            .map_err(|message| spawn_error(ProbeErrorKind::Configuration, message))?;
        let mut builder = Command::new(&running.program);
        builder
            .args(&running.args)
            .envs(running.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &command.cwd {
            builder.current_dir(dir);
        }
        #[cfg(unix)]
        {
            // Its own group, so that stopping reaches what it started (`sh -c`, `npx` → node).
            use std::os::unix::process::CommandExt;
            builder.process_group(0);
        }
        let mut child = builder.spawn().map_err(|error| match error.kind() {
            io::ErrorKind::NotFound if command.program.contains(std::path::is_separator) => {
                spawn_error(
                    ProbeErrorKind::CommandNotFound,
                    format!(
                        "command not found: {} (no such file, or its #! interpreter is missing)",
                        command.program
                    ),
                )
            }
            io::ErrorKind::NotFound => spawn_error(
                ProbeErrorKind::CommandNotFound,
                format!("command not found: {} (looked up on PATH)", command.program),
            ),
            io::ErrorKind::PermissionDenied => spawn_error(
                ProbeErrorKind::SpawnFailed,
                format!("{} cannot be executed: permission denied", command.program),
            ),
            _ => spawn_error(
                ProbeErrorKind::SpawnFailed,
                format!("{} could not be started: {error}", command.program),
            ),
        })?;
        // Taking the pipes cannot fail after a piped spawn; should it, the guard below still
        // stops the child, and the probe reports a closed pipe.
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (writer, to_write) = queue::queue(None);
        let (event_sender, events) = queue::queue(Some(READ_AHEAD));
        let (done_sender, stderr_done) = queue::queue(None);
        let stderr = Arc::new(Mutex::new(OutputTail::default()));
        let mut server = StdioServer {
            child,
            writer: Some(writer),
            events,
            stderr: Arc::clone(&stderr),
            stderr_done,
            pending: VecDeque::new(),
            failed: None,
            noise_lines: 0,
            first_noise: None,
            exit_status: None,
            stopped: false,
        };
        let started = (|| -> io::Result<()> {
            if let Some(stdin) = stdin {
                spawn_thread(
                    "mcp-probe-stdin",
                    Box::new(move || write_messages(stdin, to_write)),
                )?;
            }
            if let Some(stdout) = stdout {
                widen_pipe(&stdout);
                spawn_thread(
                    "mcp-probe-stdout",
                    Box::new(move || read_lines(stdout, event_sender)),
                )?;
            }
            if let Some(pipe) = stderr_pipe {
                spawn_thread(
                    "mcp-probe-stderr",
                    Box::new(move || {
                        output_tail::drain(pipe, &stderr, Pipe::Stderr, |_| {});
                        let _ = done_sender.send(Event::Eof);
                    }),
                )?;
            }
            Ok(())
        })();
        if let Err(error) = started {
            server.stop();
            return Err(spawn_error(
                ProbeErrorKind::Io,
                format!("could not start a thread to read the server: {error}"),
            ));
        }
        Ok(server)
    }

    /// The exit status, if the server exits within `grace` (checked once when zero).
    pub(super) fn exit_status_within(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            if let Some(status) = self.poll_exit() {
                return Some(describe_status(status));
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(POLL);
        }
    }

    /// The last lines of stderr, after waiting up to `grace` for the reader to reach its end.
    pub(super) fn stderr_tail(&self, grace: Duration) -> Vec<String> {
        let _ = self.stderr_done.recv_timeout(grace);
        self.stderr
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .lines()
    }

    /// Stops the server and everything in its process group: close stdin and wait, SIGTERM the
    /// group and wait, SIGKILL the group. Idempotent; bounded to about three seconds.
    pub(super) fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        // The writer thread ends when its queue closes, dropping (closing) the server's stdin.
        self.writer = None;
        let exited = self.wait_for_exit(STOP_STEP);
        if exited && !process_group::alive(&self.child) {
            return;
        }
        if let Some(status) = process_group::terminate(&mut self.child, STOP_STEP) {
            self.exit_status.get_or_insert(status);
            return;
        }
        // SIGKILL cannot be ignored; the wait is bounded anyway in case of a stuck kernel call.
        self.wait_for_exit(STOP_STEP);
    }

    /// Closes the server's stdin without waiting: a well-behaved server now exits on its own
    /// while the caller goes on (see [`super::stopping`]). Later sends fail as closed.
    pub(super) fn close_stdin(&mut self) {
        self.writer = None;
    }

    /// Stops a server whose stdin was closed earlier and which has had its time to exit since:
    /// nothing to do when it and everything in its process group are gone; otherwise SIGTERM
    /// the group at once, then SIGKILL after [`STOP_STEP`]. Idempotent; bounded to about two
    /// seconds.
    pub(super) fn stop_now(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.writer = None;
        if self.poll_exit().is_some() && !process_group::alive(&self.child) {
            return;
        }
        if let Some(status) = process_group::terminate(&mut self.child, STOP_STEP) {
            self.exit_status.get_or_insert(status);
            return;
        }
        self.wait_for_exit(STOP_STEP);
    }

    /// Waits up to `limit` for the server to exit. A well-behaved server exits within a
    /// millisecond of its stdin closing, so the wait wakes when its stdout closes (it usually
    /// exits right then) and otherwise looks again after 0.5 ms, 1 ms, 2 ms … up to [`POLL`]:
    /// a fixed 10 ms sleep here was a tenth of a whole suite's run time.
    fn wait_for_exit(&mut self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        let mut pause = Duration::from_micros(500);
        let mut stdout_open = true;
        loop {
            if self.poll_exit().is_some() {
                return true;
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return false;
            };
            let pause_now = pause.min(left);
            if stdout_open {
                // Lines still arriving are of no interest once stopping has begun.
                match self.events.recv_timeout(pause_now) {
                    Ok(Event::Line(_)) | Err(RecvTimeoutError::Timeout) => {}
                    Ok(_) | Err(RecvTimeoutError::Disconnected) => {
                        stdout_open = false;
                        // Stdout closes as the process exits: it is about to be reapable.
                        pause = Duration::from_micros(100);
                        continue;
                    }
                }
            } else {
                thread::sleep(pause_now);
            }
            pause = (pause * 2).min(POLL);
        }
    }

    fn poll_exit(&mut self) -> Option<ExitStatus> {
        if self.exit_status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.exit_status = Some(status);
            }
        }
        self.exit_status
    }

    fn note_noise(&mut self, line: &str) {
        self.noise_lines += 1;
        if self.first_noise.is_none() {
            // Keep a bounded copy: the line may be megabytes long.
            self.first_noise = Some(super::first_chars(line, 300).0.to_owned());
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Transport for StdioServer {
    fn send(&mut self, message: &Value) -> Result<(), TransportError> {
        let mut line = serde_json::to_string(message)
            .map_err(|e| TransportError::Io(format!("could not encode a message: {e}")))?;
        line.push('\n');
        match &self.writer {
            Some(writer) => writer
                .send(Event::Line(line))
                .map_err(|_| TransportError::Closed),
            None => Err(TransportError::Closed),
        }
    }

    fn recv(&mut self, deadline: Instant) -> Result<Option<Message>, TransportError> {
        loop {
            if let Some(message) = self.pending.pop_front() {
                return Ok(Some(message));
            }
            if let Some(failed) = &self.failed {
                return Err(failed.clone());
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return Ok(None);
            };
            let event = match self.events.recv_timeout(left) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let failure = match event {
                Event::Line(line) => {
                    let text = line.trim();
                    if text.is_empty() {
                        continue;
                    }
                    match Message::parse_all(text) {
                        Ok(batch) if !batch.is_empty() => {
                            self.pending.extend(batch);
                            continue;
                        }
                        // JSON nested deeper than serde_json's limit (128) is a message the
                        // probe cannot read, not noise: skipping it would end in a timeout.
                        Err(MessageError::TooDeep(error)) => {
                            TransportError::InvalidOutput(format!(
                                "the server's answer nests deeper than {MAX_DEPTH} levels, more \
                             than the probe reads ({}): flatten the schema, e.g. with \
                             `$defs` and `$ref`",
                                escape_untrusted(&error.to_string())
                            ))
                        }
                        // Servers and their libraries print banners and logs to stdout; skipping
                        // them is what clients do, and counting them explains a later timeout.
                        _ => {
                            self.note_noise(text);
                            continue;
                        }
                    }
                }
                Event::Eof => TransportError::Closed,
                Event::InvalidUtf8 { line } => TransportError::InvalidOutput(format!(
                    "line {line} of the server's stdout is not valid UTF-8"
                )),
                Event::TooLong { line } => TransportError::InvalidOutput(format!(
                    "line {line} of the server's stdout is longer than {} MiB",
                    MAX_LINE / (1024 * 1024)
                )),
                Event::Failed(error) => {
                    TransportError::Io(format!("reading the server's stdout failed: {error}"))
                }
            };
            self.failed = Some(failure.clone());
            return Err(failure);
        }
    }

    fn remarks(&self) -> Option<String> {
        let first = self.first_noise.as_deref()?;
        let lines = if self.noise_lines == 1 {
            "line that is"
        } else {
            "lines that are"
        };
        Some(format!(
            "the server wrote {} {lines} not JSON-RPC to stdout, first: {} (stdout is the \
             protocol channel)",
            self.noise_lines,
            quote_untrusted(first)
        ))
    }
}

/// Starts a detached thread named `name`.
// The body is boxed so that std's thread start is compiled once, not once per closure.
fn spawn_thread(name: &str, body: Box<dyn FnOnce() + Send>) -> io::Result<()> {
    // Detached on purpose: a thread blocked on a pipe that a runaway grandchild keeps open must
    // not block the probe; it ends when the pipe closes.
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(body)
        .map(drop)
}

fn write_messages(mut stdin: ChildStdin, messages: Receiver<Event>) {
    while let Some(message) = messages.recv() {
        let Event::Line(line) = message else {
            continue;
        };
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            // The server closed its stdin; the reader will see it go.
            return;
        }
    }
}

/// Asks for a 1 MiB pipe buffer on the server's stdout (the default is 64 KiB): a large listing
/// then crosses in 16 times fewer writer/reader hand-overs (15 MB of tools: ~50 ms less). Best
/// effort: the kernel may refuse (a lower `pipe-max-size`), and other systems keep theirs.
fn widen_pipe(stdout: &ChildStdout) {
    #[cfg(target_os = "linux")]
    let _ = rustix::pipe::fcntl_setpipe_size(stdout, 1 << 20);
    #[cfg(not(target_os = "linux"))]
    let _ = stdout;
}

fn read_lines(stdout: ChildStdout, events: Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 20, stdout);
    let mut buffer = Vec::new();
    let mut line = 0;
    loop {
        buffer.clear();
        let limit = MAX_LINE as u64 + 1;
        let event = match (&mut reader).take(limit).read_until(b'\n', &mut buffer) {
            Ok(0) => Event::Eof,
            Ok(_) => {
                line += 1;
                if buffer.len() > MAX_LINE && buffer.last() != Some(&b'\n') {
                    Event::TooLong { line }
                } else {
                    match String::from_utf8(std::mem::take(&mut buffer)) {
                        Ok(text) => Event::Line(text),
                        Err(_) => Event::InvalidUtf8 { line },
                    }
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => Event::Failed(error.to_string()),
        };
        let last = !matches!(event, Event::Line(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}

fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    status.to_string()
}
