//! Stopping a server with everything it started: the one escalation both the stdio transport
//! and the HTTP start command use.

use std::process::{Child, ExitStatus};
use std::thread;
use std::time::{Duration, Instant};

/// The longest pause between two looks at the group; the first looks come sooner (0.2 ms,
/// doubling), since most servers die within a millisecond of the signal.
const POLL: Duration = Duration::from_millis(10);

/// Signals the child's process group with SIGTERM, waits up to `step` for the group to vanish,
/// then SIGKILLs it and waits up to `step` again. Returns the child's exit status if it was
/// reaped on the way. `std::process::Command::process_group(0)` made the child a group leader,
/// and a group id is not reused while any member lives, so only the server and its
/// descendants are reached.
#[cfg(unix)]
pub(super) fn terminate(child: &mut Child, step: Duration) -> Option<ExitStatus> {
    use rustix::process::{kill_process_group, test_kill_process_group, Pid, Signal};
    let group = Pid::from_child(child);
    let mut status = None;
    for signal in [Signal::TERM, Signal::KILL] {
        let _ = kill_process_group(group, signal);
        // Signals are delivered asynchronously: wait until the group is gone, so the caller
        // never sees a survivor. A member left a zombie (its new parent does not reap) still
        // answers to kill(0), hence the bound.
        let until = Instant::now() + step;
        let mut pause = Duration::from_micros(200);
        while Instant::now() < until {
            if status.is_none() {
                status = child.try_wait().ok().flatten();
            }
            if status.is_some() && test_kill_process_group(group).is_err() {
                return status;
            }
            thread::sleep(pause);
            pause = (pause * 2).min(POLL);
        }
    }
    status
}

/// Without process groups, the child alone is killed.
#[cfg(not(unix))]
pub(super) fn terminate(child: &mut Child, _step: Duration) -> Option<ExitStatus> {
    let _ = child.kill();
    child.try_wait().ok().flatten()
}

/// Whether any process of the child's group is still alive.
#[cfg(unix)]
pub(super) fn alive(child: &Child) -> bool {
    rustix::process::test_kill_process_group(rustix::process::Pid::from_child(child)).is_ok()
}

/// Without process groups: the child's own exit is all there is to know.
#[cfg(not(unix))]
pub(super) fn alive(_child: &Child) -> bool {
    false
}
