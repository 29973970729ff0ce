//! The stdio recorder: the server to its parent, COMMAND the server to it.
//!
//! Two threads pass bytes on as they come (the consumer's stdin to the server's, the server's
//! stdout to the consumer's) and hand a copy of each line to the observer; the server's
//! stderr is the recorder's. The recording ends when either side closes or a signal comes:
//! - the consumer closed its end: the server's stdin is closed, and the server has
//!   [`GRACE`] to exit before its process group is stopped (SIGTERM, then SIGKILL);
//! - the server closed its stdout or exited: what it wrote is passed on, its process group
//!   stopped if anything of it is left;
//! - SIGTERM, SIGINT or SIGHUP: the server's process group is stopped at once.
//!
//! Then the usage file is written, and the recorder exits with the server's exit code
//! (128 + N for a server killed by signal N; 128 + N as well when signal N stopped the
//! recorder).

use super::lines::Lines;
use super::observe::{Recording, Side};
use crate::exit;
use mcp_contract_cli::error::CliError;
use mcp_contract_engine::escape::escape;
use mcp_contract_test::_support::run::FailureKind;
use std::io::{self, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How long the server has to exit after its stdin closed, before it is stopped.
const GRACE: Duration = Duration::from_secs(2);
/// Each step of stopping a process group (SIGTERM, then SIGKILL).
const STOP_STEP: Duration = Duration::from_secs(1);
/// How long the server's last output is waited for once it is stopped.
const DRAIN: Duration = Duration::from_secs(1);
/// How much is passed on at once.
const CHUNK: usize = 64 * 1024;

/// What ends a recording.
enum Event {
    /// The consumer closed its end (stdin), or can no longer be written to.
    ClientClosed,
    /// The server closed its stdout.
    ServerClosed,
    /// A signal to the recorder.
    Signal(i32),
}

/// Runs the server `command` behind the recorder until one side closes or a signal comes.
pub(super) fn run(command: &[String], recording: &Arc<Recording>) -> Result<u8, CliError> {
    let (program, arguments) = command
        .split_first()
        .ok_or_else(|| CliError::usage("the server command is empty".to_owned()))?;
    let mut builder = Command::new(program);
    builder
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        // Its own process group, so that stopping it reaches what it started (`npx` → node).
        use std::os::unix::process::CommandExt;
        builder.process_group(0);
    }
    let mut child = builder.spawn().map_err(|e| {
        let why = match e.kind() {
            io::ErrorKind::NotFound => "command not found".to_owned(),
            io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => e.to_string(),
        };
        CliError::failure(
            FailureKind::Unreachable,
            format!("the server {} could not be started: {why}", escape(program)),
        )
    })?;
    let (events, event) = mpsc::channel();
    let stdin = Arc::new(Mutex::new(child.stdin.take()));
    let stdout = child.stdout.take();
    watch_signals(&events);
    let spawn = |name: &str, body: Box<dyn FnOnce() + Send>| {
        // Detached: a consumer that never closes its end keeps its reader blocked, and one
        // that stops reading keeps the server's writer blocked; neither may hold up the end.
        thread::Builder::new()
            .name(name.to_owned())
            .spawn(body)
            .map(drop)
            .map_err(|e| CliError::usage(format!("cannot start a thread: {e}")))
    };
    {
        let stdin = Arc::clone(&stdin);
        let events = events.clone();
        let recording = Arc::clone(recording);
        spawn(
            "mcp-record-client",
            Box::new(move || {
                let mut writer = SharedStdin(stdin);
                pump(io::stdin().lock(), &mut writer, Side::Client, &recording);
                // The consumer is done: so is the server's stdin.
                writer.close();
                let _ = events.send(Event::ClientClosed);
            }),
        )?;
    }
    let (drained, drained_signal) = mpsc::channel::<()>();
    if let Some(stdout) = stdout {
        let events = events.clone();
        let recording = Arc::clone(recording);
        spawn(
            "mcp-record-server",
            Box::new(move || {
                let end = pump(stdout, &mut io::stdout(), Side::Server, &recording);
                let _ = events.send(match end {
                    End::WriteFailed => Event::ClientClosed,
                    End::ReadDone => Event::ServerClosed,
                });
                let _ = drained.send(());
            }),
        )?;
    }
    let stopped_by = wait(&event, &stdin, &mut child);
    // The server is gone or stopped: what it wrote last is passed on (and read) first.
    let _ = drained_signal.recv_timeout(DRAIN);
    let status = child.try_wait().ok().flatten();
    Ok(match stopped_by {
        Some(signal) => 128u8.saturating_add(signal as u8),
        None => exit_code(status),
    })
}

/// Waits for the first event and stops the server accordingly; the signal that stopped the
/// recorder, if one did.
fn wait(
    event: &Receiver<Event>,
    stdin: &Arc<Mutex<Option<ChildStdin>>>,
    child: &mut Child,
) -> Option<i32> {
    let first = event.recv().unwrap_or(Event::ServerClosed);
    let close_stdin = || {
        stdin.lock().unwrap_or_else(PoisonError::into_inner).take();
    };
    match first {
        Event::Signal(signal) => {
            close_stdin();
            stop_group(child);
            Some(signal)
        }
        Event::ClientClosed | Event::ServerClosed => {
            close_stdin();
            // A signal during the grace period stops the server at once.
            let until = Instant::now() + GRACE;
            loop {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                match event.recv_timeout(left.min(Duration::from_millis(10))) {
                    Ok(Event::Signal(signal)) => {
                        stop_group(child);
                        return Some(signal);
                    }
                    Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => thread::sleep(Duration::from_millis(10)),
                }
            }
            stop_group(child);
            None
        }
    }
}

/// The server's stdin, shared with the thread that writes it so that the recorder can close
/// it whatever that thread is doing.
struct SharedStdin(Arc<Mutex<Option<ChildStdin>>>);

impl SharedStdin {
    fn close(&mut self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

impl Write for SharedStdin {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(stdin) => stdin.write(bytes),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(stdin) => stdin.flush(),
            None => Ok(()),
        }
    }
}

/// How passing bytes on ended.
enum End {
    /// The source closed (or failed).
    ReadDone,
    /// The destination could not be written.
    WriteFailed,
}

/// Passes bytes from `from` to `to` as they come, and each line to the observer.
fn pump(mut from: impl Read, to: &mut impl Write, side: Side, recording: &Recording) -> End {
    let mut buffer = vec![0u8; CHUNK];
    let mut lines = Lines::default();
    let end = loop {
        let n = match from.read(&mut buffer) {
            Ok(0) => break End::ReadDone,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break End::ReadDone,
        };
        // Read before it is passed on: the observer must see a request before its answer,
        // which the other thread may pass on as soon as the server has this one.
        for line in lines.feed(&buffer[..n]) {
            recording.observe(side, 0, line);
        }
        if to
            .write_all(&buffer[..n])
            .and_then(|()| to.flush())
            .is_err()
        {
            break End::WriteFailed;
        }
    };
    if let Some(line) = lines.finish() {
        recording.observe(side, 0, line);
    }
    recording.skipped(lines.skipped);
    end
}

/// SIGTERM, SIGINT and SIGHUP become events (the recorder then stops the server and writes the
/// usage file before it exits).
#[cfg(unix)]
fn watch_signals(events: &Sender<Event>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) else {
        return;
    };
    let events = events.clone();
    let _ = thread::Builder::new()
        .name("mcp-record-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if events.send(Event::Signal(signal)).is_err() {
                    return;
                }
            }
        });
}

#[cfg(not(unix))]
fn watch_signals(_events: &Sender<Event>) {}

/// Stops the server's process group if anything of it is left: SIGTERM, then SIGKILL.
#[cfg(unix)]
fn stop_group(child: &mut Child) {
    use rustix::process::{kill_process_group, test_kill_process_group, Pid, Signal};
    let group = Pid::from_child(child);
    for signal in [Signal::TERM, Signal::KILL] {
        let exited = child.try_wait().ok().flatten().is_some();
        if exited && test_kill_process_group(group).is_err() {
            return;
        }
        let _ = kill_process_group(group, signal);
        let until = Instant::now() + STOP_STEP;
        while Instant::now() < until {
            let exited = child.try_wait().ok().flatten().is_some();
            if exited && test_kill_process_group(group).is_err() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

#[cfg(not(unix))]
fn stop_group(child: &mut Child) {
    if child.try_wait().ok().flatten().is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The exit code that mirrors the server's: its own, or 128 + the signal that killed it.
fn exit_code(status: Option<ExitStatus>) -> u8 {
    let Some(status) = status else {
        return exit::UNREACHABLE;
    };
    if let Some(code) = status.code() {
        return u8::try_from(code & 0xff).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128u8.saturating_add(signal as u8);
        }
    }
    1
}
