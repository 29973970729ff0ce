//! Report first, stop the server after: with a `DeferredStops` guard alive (the harness and the
//! CLI hold one for their whole run), a probe closes the server's stdin once the last listing
//! is read and returns without waiting for the server to exit; when the guard drops, a server
//! still running gets SIGTERM to its process group, then SIGKILL. Without a guard the probe
//! returns once everything is gone, as before. A probe's open session can be continued before
//! it is closed. Needs python3 (`support::require!`: a failure in CI, a counted skip elsewhere).
//!
//! The guard is process-wide, so these tests take turns; they share their binary with tests
//! that probe only in child processes (the suite binary), which a guard here does not touch.

use super::common::*;
use mcp_contract_test::_support::probe::{
    self, defer_stops, ProbeOptions, ServerCommand, ServerSpec,
};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const SURFACE: &str = "memory/2025.11.25.json";

fn spec(mode: &str, marker: &str, env: &[(&str, &str)]) -> ServerSpec {
    let mut command = ServerCommand::from_command_line(&server_line(SURFACE, mode, marker, &[]))
        .expect("a command line");
    command.env = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    ServerSpec::Stdio(command)
}

fn options() -> ProbeOptions {
    ProbeOptions {
        timeout: Duration::from_secs(20),
        ..ProbeOptions::default()
    }
}

/// Waits up to `bound` for every process carrying `marker` to be gone.
fn gone_within(marker: &str, bound: Duration) -> Result<(), Vec<String>> {
    let until = Instant::now() + bound;
    loop {
        let left = leftovers(marker);
        if left.is_empty() {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(left);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn without_a_guard_the_probe_returns_once_the_server_is_gone() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("noguard");
    let probe = probe::probe(
        &spec("normal", &mark, &[("FIXTURE_EXIT_DELAY", "0.3")]),
        &options(),
    )
    .expect("the probe succeeds");
    assert_eq!(probe.surface.len(), 10);
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}

#[test]
fn with_a_guard_a_slow_server_exits_in_the_background_and_is_stopped_when_the_guard_drops() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("slowexit");
    let guard = defer_stops();
    // It would take a minute to exit on its own.
    let probe = probe::probe(
        &spec("normal", &mark, &[("FIXTURE_EXIT_DELAY", "60")]),
        &options(),
    )
    .expect("the probe succeeds");
    assert_eq!(probe.surface.len(), 10);
    assert!(
        !leftovers(&mark).is_empty(),
        "the probe waited for the server to exit"
    );
    let dropped = Instant::now();
    drop(guard);
    // SIGTERM ends it at once; the bound only keeps a broken stop from hanging the test.
    let left = leftovers(&mark);
    assert!(left.is_empty(), "left after the guard dropped: {left:?}");
    assert!(dropped.elapsed() < Duration::from_secs(10));
}

#[test]
fn with_a_guard_a_server_that_exits_at_once_is_only_reaped() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("quickexit");
    let guard = defer_stops();
    probe::probe(&spec("normal", &mark, &[]), &options()).expect("the probe succeeds");
    // It exits on its own once its stdin closed, while the guard is still alive.
    gone_within(&mark, Duration::from_secs(10)).expect("the server exits on its own");
    drop(guard);
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}

#[test]
fn with_a_guard_a_grandchild_that_ignores_sigterm_is_killed_when_the_guard_drops() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("grandchild");
    let guard = defer_stops();
    probe::probe(&spec("spawn-grandchild", &mark, &[]), &options()).expect("the probe succeeds");
    drop(guard);
    let left = leftovers(&mark);
    assert!(left.is_empty(), "left after the guard dropped: {left:?}");
}

#[test]
fn a_failed_probe_stops_its_server_before_it_returns_even_with_a_guard() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("failed");
    let _guard = defer_stops();
    let error =
        probe::probe(&spec("list-error", &mark, &[]), &options()).expect_err("tools/list fails");
    assert!(error.to_string().contains("database down"), "{error}");
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}

#[test]
fn a_probed_session_can_be_continued_before_it_is_closed() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    support::require!(support::python::system());
    let mark = marker("session");
    let (probe, mut session) =
        probe::probe_session(&spec("normal", &mark, &[]), &options()).expect("the probe succeeds");
    assert_eq!(probe.surface.len(), 10);
    let transport = session
        .transport()
        .expect("a stdio session is handed over open");
    transport
        .send(&serde_json::json!({"jsonrpc": "2.0", "id": 4242, "method": "ping"}))
        .expect("the session is still open");
    let answer = transport
        .recv(Instant::now() + Duration::from_secs(10))
        .expect("the server answers")
        .expect("before the deadline");
    assert!(format!("{answer:?}").contains("4242"), "{answer:?}");
    assert!(!leftovers(&mark).is_empty());
    session.close();
    // No guard: closing stops it before returning.
    assert_eq!(leftovers(&mark), Vec::<String>::new());
}
