//! The Streamable HTTP probe against real servers on 127.0.0.1: the stdlib fixture server
//! (`fixtures/servers/http_server.py`, JSON and SSE answers, a bearer token) and, when the Python
//! `mcp` package is installed, a third-party FastMCP server behind the fixture's token gate.
//!
//! Every test proves the token appears in no error, no `Debug` and no recorded surface.
//!
//! Module `client`: the HTTP client as users meet it (redirects, proxies, 421, keep-alive).

/// Redirects, a forward proxy, the Host header, sessions, keep-alive.
#[path = "http/client.rs"]
mod client;

use mcp_contract_engine::surface::Surface;
use mcp_contract_test::_support::probe::{
    probe, HeaderValue, HttpEndpoint, ProbeErrorKind, ProbeOptions, ServerCommand, ServerSpec,
};
use serde_json::Value;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Once;
use std::time::{Duration, Instant};

const TOKEN: &str = "s3cr3t-Tok3n-4242";
const WRONG: &str = "wr0ng-Tok3n-7777";

fn setup() -> Result<(), support::Missing> {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Rust's std serialises environment access with spawns and reads.
        std::env::set_var("HTTP_TEST_TOKEN", TOKEN);
        std::env::set_var("HTTP_TEST_WRONG", WRONG);
    });
    support::python::system().map(|_| ())
}

/// The Python that runs the stdlib fixtures (`setup` has required it).
fn python() -> String {
    support::python::system()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|_| "python3".to_owned())
}

fn repo_root() -> PathBuf {
    support::repo_path("")
}

fn surface_path() -> PathBuf {
    repo_root().join("fixtures/surfaces/everything/2025.11.25.json")
}

fn expected_surface() -> Surface {
    let text = std::fs::read_to_string(surface_path()).unwrap();
    Surface::from_json(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
}

/// An endpoint whose fixture server the probe starts on a free port, demanding TOKEN.
fn started(extra: &[&str], token_var: Option<&str>) -> HttpEndpoint {
    let mut args = vec![
        repo_root()
            .join("fixtures/servers/http_server.py")
            .display()
            .to_string(),
        surface_path().display().to_string(),
        "--port".into(),
        "{port}".into(),
        "--token-env".into(),
        "HTTP_TEST_TOKEN".into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    HttpEndpoint {
        url: "http://127.0.0.1:{port}/mcp".into(),
        headers: token_var
            .map(|var| {
                vec![(
                    "Authorization".to_owned(),
                    HeaderValue::Template {
                        template: format!("Bearer ${{{var}}}"),
                        var: var.to_owned(),
                    },
                )]
            })
            .unwrap_or_default(),
        start: Some(ServerCommand::new(python(), args)),
        ready_line: Some("ready http://".into()),
        ..HttpEndpoint::default()
    }
}

fn options(secs: u64) -> ProbeOptions {
    ProbeOptions {
        timeout: Duration::from_secs(secs),
        ..ProbeOptions::default()
    }
}

fn assert_no_secret(text: &str) {
    assert!(!text.contains(TOKEN), "the token leaked: {text}");
    assert!(!text.contains(WRONG), "the wrong token leaked: {text}");
}

#[test]
fn json_and_sse_answers_record_the_surface_exactly() {
    support::require!(setup());
    let expected = expected_surface();
    for mode in ["json", "sse"] {
        let spec = ServerSpec::Http(started(&["--response", mode], Some("HTTP_TEST_TOKEN")));
        assert_no_secret(&format!("{spec:?}"));
        assert_no_secret(&spec.display());
        let probe = probe(&spec, &options(20)).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(probe.surface, expected, "{mode}");
        assert_no_secret(&probe.surface.to_json().to_string());
        assert_no_secret(&format!("{:?}", probe.notes));
    }
}

#[test]
fn the_session_id_and_protocol_version_are_echoed_and_the_session_deleted() {
    support::require!(setup());
    let log = std::env::temp_dir().join(format!("http-fixture-log-{}", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let mut endpoint = started(&[], Some("HTTP_TEST_TOKEN"));
    if let Some(command) = &mut endpoint.start {
        command
            .env
            .push(("FIXTURE_LOG".into(), log.display().to_string()));
    }
    probe(&ServerSpec::Http(endpoint), &options(20)).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "POST initialize session=no version=- auth=ok",
        "{text}"
    );
    assert_eq!(
        lines[1], "POST notifications/initialized session=yes version=2025-11-25 auth=ok",
        "{text}"
    );
    assert!(lines.contains(&"POST tools/list session=yes version=2025-11-25 auth=ok"));
    assert_eq!(
        lines.last(),
        Some(&"DELETE DELETE session=yes version=2025-11-25 auth=ok"),
        "{text}"
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn a_wrong_or_missing_token_is_an_auth_error_with_the_escaped_challenge() {
    support::require!(setup());
    for var in [Some("HTTP_TEST_WRONG"), None] {
        let spec = ServerSpec::Http(started(&[], var));
        let error = probe(&spec, &options(20)).unwrap_err();
        assert_eq!(error.kind, ProbeErrorKind::AuthRequired, "{error}");
        let text = error.to_string();
        assert!(text.contains("401 Unauthorized"), "{text}");
        assert!(
            text.contains("WWW-Authenticate: 'Bearer realm=\"mcp-fixture\""),
            "{text}"
        );
        assert!(text.contains("\\u{1b}[31mtoken"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("what to do: send credentials"), "{text}");
        assert_no_secret(&text);
        assert_no_secret(&format!("{error:?}"));
    }
}

#[test]
fn an_unset_token_variable_is_a_configuration_error_naming_it() {
    support::require!(setup());
    let spec = ServerSpec::Http(started(&[], Some("HTTP_TEST_NEVER_SET_4711")));
    let error = probe(&spec, &options(5)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Configuration, "{error}");
    assert!(error.to_string().contains("HTTP_TEST_NEVER_SET_4711"));
}

#[test]
fn a_server_that_is_down_is_unreachable_at_once() {
    support::require!(setup());
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut endpoint = HttpEndpoint::new(format!("http://127.0.0.1:{port}/mcp"));
    endpoint.headers.push((
        "Authorization".into(),
        HeaderValue::Env("HTTP_TEST_TOKEN".into()),
    ));
    let start = Instant::now();
    let error = probe(&ServerSpec::Http(endpoint), &options(5)).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(error.kind, ProbeErrorKind::Unreachable, "{error}");
    let text = error.to_string();
    assert!(
        text.contains(&format!(
            "is the server running at http://127.0.0.1:{port}/mcp"
        )),
        "{text}"
    );
    assert_no_secret(&text);
}

#[test]
fn wrong_paths_web_pages_and_silence_have_their_own_errors() {
    support::require!(setup());
    let cases: [(&[&str], ProbeErrorKind, &str); 4] = [
        (
            &["--path", "/other"],
            ProbeErrorKind::NotFound,
            "MCP endpoints are usually",
        ),
        (
            &["--mode", "html"],
            ProbeErrorKind::NotMcp,
            "Content-Type 'text/html'",
        ),
        (&["--mode", "no-post"], ProbeErrorKind::NotMcp, "405"),
        (&["--mode", "text"], ProbeErrorKind::NotMcp, "not JSON"),
    ];
    for (args, kind, needle) in cases {
        let spec = ServerSpec::Http(started(args, Some("HTTP_TEST_TOKEN")));
        let error = probe(&spec, &options(20)).unwrap_err();
        assert_eq!(error.kind, kind, "{args:?}: {error}");
        assert!(error.to_string().contains(needle), "{args:?}: {error}");
        assert_no_secret(&error.to_string());
    }
    let spec = ServerSpec::Http(started(&["--mode", "hang"], Some("HTTP_TEST_TOKEN")));
    let start = Instant::now();
    let error = probe(&spec, &options(3)).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(error.kind, ProbeErrorKind::TimedOut, "{error}");
}

/// The live processes whose environment holds `marker`: `(pid, environment)`.
fn marked_processes(marker: &str) -> Vec<(String, String)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_string_lossy().into_owned();
            let environ = std::fs::read(entry.path().join("environ")).ok()?;
            let environ = String::from_utf8_lossy(&environ).replace('\0', "\n");
            (environ.contains(marker) && support::process::alive(&pid)).then_some((pid, environ))
        })
        .collect()
}

#[test]
fn a_started_server_is_stopped_and_its_port_freed() {
    support::require!(setup());
    // Readiness by port instead of a line.
    let mut endpoint = started(&[], Some("HTTP_TEST_TOKEN"));
    endpoint.ready_line = None;
    let marker = support::process::marker("http-started", "stopped");
    // The probe fills `{port}` in the environment too: the marker tells the port it picked.
    if let Some(command) = &mut endpoint.start {
        command
            .env
            .push(("HTTP_TEST_MARKER".into(), format!("{marker}:{{port}}.")));
    }
    // Watches /proc while the probe runs: the server (found by its marker) while it is alive.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (done, marker) = (std::sync::Arc::clone(&done), marker.clone());
        std::thread::spawn(move || loop {
            let found = marked_processes(&marker);
            if !found.is_empty() || done.load(std::sync::atomic::Ordering::SeqCst) {
                return found;
            }
            std::thread::sleep(Duration::from_millis(2));
        })
    };
    let result = probe(&ServerSpec::Http(endpoint), &options(20));
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let seen = watcher.join().expect("the watcher");
    result.unwrap();
    // Positive control: the marker is visible in /proc while the server runs.
    assert_eq!(seen.len(), 1, "the started server, while alive: {seen:?}");
    let (pid, environ) = &seen[0];
    let port: u16 = environ
        .split_once(&format!("{marker}:"))
        .and_then(|(_, rest)| rest.split_once('.'))
        .and_then(|(port, _)| port.parse().ok())
        .unwrap_or_else(|| panic!("no port after the marker in {environ:?}"));
    // Stopped: neither that process nor any other with the marker is left.
    let mut left = marked_processes(&marker);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        left = marked_processes(&marker);
    }
    assert!(
        left.is_empty(),
        "the started server outlived the probe: {left:?}"
    );
    assert!(
        !support::process::alive(pid),
        "pid {pid} outlived the probe"
    );
    // Its port freed: it can be listened on again.
    TcpListener::bind(("127.0.0.1", port))
        .unwrap_or_else(|e| panic!("port {port} of the stopped server is not free: {e}"));

    let mut endpoint = started(&[], Some("HTTP_TEST_TOKEN"));
    endpoint
        .start
        .as_mut()
        .unwrap()
        .args
        .push("--bogus-exit".into());
    endpoint.start.as_mut().unwrap().args.push("x".into());
    endpoint.ready_line = Some("never printed".into());
    endpoint.start.as_mut().unwrap().program = python();
    endpoint.start.as_mut().unwrap().args.insert(0, "-c".into());
    endpoint.start.as_mut().unwrap().args.insert(
        1,
        "import sys; print('boom', file=sys.stderr); sys.exit(3)".into(),
    );
    let error = probe(&ServerSpec::Http(endpoint), &options(10)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Exited, "{error}");
    assert!(error.to_string().contains("| boom"), "{error}");
}

/// The Python MCP SDK's FastMCP over streamable-http, behind the fixture's token gate.
#[test]
fn a_third_party_fastmcp_server_behind_a_token() {
    support::require!(setup());
    // The MCP SDK from the tests' own virtual environment (pinned; provisioned once).
    let python_with_mcp = support::require!(support::python::with_mcp());
    let upstream = support::fixtures::fastmcp(python_with_mcp);
    let upstream_port = upstream.port;
    let upstream_url = format!("http://127.0.0.1:{upstream_port}/mcp");
    let mut endpoint = HttpEndpoint {
        url: "http://127.0.0.1:{port}/mcp".into(),
        headers: vec![(
            "Authorization".into(),
            HeaderValue::parse("Bearer ${HTTP_TEST_TOKEN}").unwrap(),
        )],
        start: Some(ServerCommand::new(
            python(),
            [
                repo_root()
                    .join("fixtures/servers/http_server.py")
                    .display()
                    .to_string(),
                "--port".into(),
                "{port}".into(),
                "--token-env".into(),
                "HTTP_TEST_TOKEN".into(),
                "--proxy".into(),
                upstream_url.clone(),
            ],
        )),
        ready_line: Some("ready http://".into()),
        ..HttpEndpoint::default()
    };
    let probe_result = probe(&ServerSpec::Http(endpoint.clone()), &options(20)).unwrap();
    let names: Vec<String> = probe_result.surface.keys().map(|k| k.test_name()).collect();
    assert!(
        names.contains(&"tools::add_numbers".to_owned()),
        "{names:?}"
    );
    assert!(names.contains(&"server".to_owned()), "{names:?}");
    assert_no_secret(&probe_result.surface.to_json().to_string());

    endpoint.headers[0].1 = HeaderValue::parse("Bearer ${HTTP_TEST_WRONG}").unwrap();
    let error = probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::AuthRequired, "{error}");
    assert_no_secret(&error.to_string());
}

/// The committed snapshots of tests/http_contract.rs (an HTTP suite with a bearer token) hold
/// neither the token nor the free port the server ran on.
#[test]
fn the_http_contract_snapshots_hold_no_secret() {
    let dir = repo_root().join("mcp-contract-test/tests/snapshots");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("http_contract__") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(!text.contains("contract-Secret-Tok3n-9137"), "{name}");
        assert!(!text.contains("Bearer"), "{name}");
        if name == "http_contract__server.snap" {
            assert!(
                text.contains("server: \"http://127.0.0.1:{port}/mcp\""),
                "{text}"
            );
        }
    }
    assert_eq!(
        seen, 10,
        "the http_contract suite's snapshots are committed"
    );
}
