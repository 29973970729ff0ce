//! The processes of a test: unique markers to find them by, and whether any survived.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A marker unique to one use in this test process (`{prefix}-{pid}-{n}-{label}`), passed as an
/// argument to a fixture server so that its processes can be found in `/proc` afterwards.
pub fn marker(prefix: &str, label: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{prefix}-{}-{}-{label}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// `pid: command line` of every live (not zombie) process whose command line contains `marker`.
pub fn leftovers(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(marker) && alive(&pid) {
            found.push(format!(
                "{pid}: {}",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// Whether a pid is a live process (a zombie waiting for its parent is dead enough).
pub fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name, which may itself contain ") ".
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

/// [`leftovers`], after giving the kernel up to a second to finish stopping them.
pub fn leftovers_settled(marker: &str) -> Vec<String> {
    let mut left = leftovers(marker);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        left = leftovers(marker);
    }
    left
}

/// Standard output for a child whose reader has already gone away: the write end of a pipe
/// whose read end is closed, so the child's first write fails with a broken pipe (as it does
/// under `| head -1`, without the race of a reader that exits after the writer finished).
pub fn closed_pipe() -> std::process::Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer.into()
}

/// A process a test started itself (a fixture server, FastMCP), killed and reaped when dropped,
/// however the test ends.
#[derive(Debug)]
pub struct Spawned {
    /// The process.
    pub child: std::process::Child,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `command` (its standard output piped, its standard error dropped) and waits for its
/// ready line, `ready … http://127.0.0.1:PORT…` as the stdlib fixtures print it. Start the
/// command with [`crate::command`], so the server does not inherit the outer run's environment
/// or standard input.
pub fn spawn_ready_line(command: &mut std::process::Command) -> Spawned {
    use std::io::{BufRead, BufReader};
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("the fixture does not start: {e}"));
    // Owned at once, so that a failed read below still kills it.
    let mut spawned = Spawned { child, port: 0 };
    let mut line = String::new();
    BufReader::new(spawned.child.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("a ready line");
    spawned.port = line
        .rsplit("127.0.0.1:")
        .next()
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or_else(|| panic!("no port in the ready line {line:?}"));
    spawned
}

/// A port free on 127.0.0.1 when asked (the listener that found it is closed again).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"))
}

/// Starts `command` (its output dropped), which is to listen on 127.0.0.1:`port`, and waits up
/// to `within` until it accepts a connection; fails at once if it exits first.
pub fn spawn_listening(
    command: &mut std::process::Command,
    port: u16,
    what: &str,
    within: std::time::Duration,
) -> Spawned {
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} does not start: {e}"));
    let mut spawned = Spawned { child, port };
    let until = std::time::Instant::now() + within;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = spawned.child.try_wait() {
            panic!("{what} exited ({status}) before listening on port {port}");
        }
        assert!(
            std::time::Instant::now() < until,
            "{what} did not listen on port {port} within {within:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    spawned
}
