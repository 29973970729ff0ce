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
