//! The stateless lifecycle of protocol 2026-07-28 (`server/discover`) against real processes:
//! the fixture server as a stateless server (`--mode discover`), as a legacy server (`normal`,
//! which answers -32601), and as one that ignores requests before initialize
//! (`discover-silent`).

use mcp_contract_engine::{ItemKey, ItemKind, Surface};
use mcp_contract_test::_support::probe::{
    probe_stdio, Handshake, Lifecycle, Phase, ProbeErrorKind, ProbeOptions, ServerCommand,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn repo_root() -> PathBuf {
    support::repo_path("")
}

const SURFACE: &str = "memory/2025.11.25.json";

fn fixture(python: &str, mode: &str, log: Option<&Path>) -> ServerCommand {
    let root = repo_root();
    let mut command = ServerCommand::new(
        python,
        [
            root.join("fixtures/servers/surface_server.py")
                .display()
                .to_string(),
            root.join("fixtures/surfaces")
                .join(SURFACE)
                .display()
                .to_string(),
            "--mode".to_owned(),
            mode.to_owned(),
        ],
    );
    if let Some(log) = log {
        command.env = vec![("FIXTURE_LOG".to_owned(), log.display().to_string())];
    }
    command
}

fn expected() -> Surface {
    let text = std::fs::read_to_string(repo_root().join("fixtures/surfaces").join(SURFACE))
        .expect("fixture surface readable");
    let json: Value = serde_json::from_str(&text).expect("fixture surface is JSON");
    Surface::from_json(&json).expect("fixture surface is a surface")
}

fn options(lifecycle: Lifecycle, secs: u64) -> ProbeOptions {
    ProbeOptions {
        timeout: Duration::from_secs(secs),
        lifecycle,
        ..ProbeOptions::default()
    }
}

/// Every item but the server, as (key, definition).
fn listed(surface: &Surface) -> Vec<(ItemKey, Value)> {
    surface
        .keys()
        .filter(|k| k.kind != ItemKind::Server)
        .map(|k| {
            (
                k.clone(),
                surface
                    .get(k)
                    .map_or(Value::Null, std::borrow::Cow::into_owned),
            )
        })
        .collect()
}

fn methods(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let _ = std::fs::remove_file(log);
    text.lines().map(str::to_owned).collect()
}

#[test]
fn auto_uses_server_discover_where_the_server_supports_it() {
    let python = support::require!(support::python::system_str());
    let temp = support::temp_dir("discover");
    let log = temp.path().join("auto-modern.log");
    let probe = probe_stdio(
        &fixture(python, "discover", Some(&log)),
        &options(Lifecycle::Auto, 15),
    )
    .expect("a stateless server is probed with server/discover");
    assert_eq!(probe.handshake, Handshake::Discover);
    let expected = expected();
    assert_eq!(listed(&probe.surface), listed(&expected));
    let server = probe.surface.get(&ItemKey::server()).expect("server item");
    // Shaped as initialize would have it: serverInfo out of `_meta`, the chosen version.
    assert_eq!(
        server["serverInfo"],
        json!({"name": "memory-server", "version": "0.6.3"})
    );
    assert_eq!(server["protocolVersion"], "2026-07-28");
    assert_eq!(
        server["capabilities"],
        expected.get(&ItemKey::server()).unwrap()["capabilities"]
    );
    assert!(server.get("_meta").is_none() && server.get("ttlMs").is_none());
    let sent = methods(&log);
    assert_eq!(sent.first().map(String::as_str), Some("server/discover"));
    assert!(
        !sent
            .iter()
            .any(|m| m == "initialize" || m == "notifications/initialized"),
        "{sent:?}"
    );
    assert!(sent.iter().any(|m| m == "tools/list"), "{sent:?}");
}

#[test]
fn auto_falls_back_to_initialize_on_a_legacy_server() {
    let python = support::require!(support::python::system_str());
    let temp = support::temp_dir("discover");
    let log = temp.path().join("auto-legacy.log");
    let probe = probe_stdio(
        &fixture(python, "normal", Some(&log)),
        &options(Lifecycle::Auto, 15),
    )
    .expect("a legacy server is probed with initialize after -32601");
    assert_eq!(probe.handshake, Handshake::Initialize);
    // The whole surface, server item included, is what initialize recorded.
    assert_eq!(probe.surface, expected());
    assert!(
        probe.notes.iter().all(|n| !n.contains("discover")),
        "{:?}",
        probe.notes
    );
    let sent = methods(&log);
    assert_eq!(
        sent.iter().take(3).map(String::as_str).collect::<Vec<_>>(),
        ["server/discover", "initialize", "notifications/initialized"]
    );
}

#[test]
fn default_lifecycle_never_sends_server_discover() {
    let python = support::require!(support::python::system_str());
    let temp = support::temp_dir("discover");
    let log = temp.path().join("default.log");
    let probe = probe_stdio(
        &fixture(python, "normal", Some(&log)),
        &ProbeOptions::default(),
    )
    .expect("normal fixture");
    assert_eq!(probe.handshake, Handshake::Initialize);
    // The log is read (an empty or missing one would pass the check below vacuously): it
    // shows the handshake that was sent, and no server/discover before or after it.
    let sent = methods(&log);
    assert_eq!(
        sent.iter().take(2).map(String::as_str).collect::<Vec<_>>(),
        ["initialize", "notifications/initialized"],
        "{sent:?}"
    );
    assert!(!sent.iter().any(|m| m == "server/discover"), "{sent:?}");
}

#[test]
fn discover_only_fails_on_a_legacy_server_and_initialize_fails_on_a_stateless_one() {
    let python = support::require!(support::python::system_str());
    let error = probe_stdio(
        &fixture(python, "normal", None),
        &options(Lifecycle::Discover, 15),
    )
    .unwrap_err();
    assert_eq!(
        (error.kind, error.phase),
        (
            ProbeErrorKind::ServerError { code: -32601 },
            Phase::Initialize
        )
    );
    assert!(error.message.contains("server/discover"), "{error}");

    let error = probe_stdio(
        &fixture(python, "discover", None),
        &options(Lifecycle::Initialize, 15),
    )
    .unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::ServerError { code: -32601 });
    assert!(error.message.contains("initialize"), "{error}");
}

#[test]
fn auto_falls_back_when_server_discover_gets_no_answer() {
    let python = support::require!(support::python::system_str());
    let start = Instant::now();
    // A third of the timeout (2 s) is given to server/discover.
    let probe = probe_stdio(
        &fixture(python, "discover-silent", None),
        &options(Lifecycle::Auto, 6),
    )
    .expect("initialize after the silent discover");
    let took = start.elapsed();
    assert_eq!(probe.handshake, Handshake::Initialize);
    assert_eq!(probe.surface, expected());
    assert!(
        probe
            .notes
            .iter()
            .any(|n| n.contains("server/discover got no answer within 2.0 s")),
        "{:?}",
        probe.notes
    );
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(6),
        "{took:?}"
    );
}
