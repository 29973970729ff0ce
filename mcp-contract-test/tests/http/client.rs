//! The HTTP client as users meet it: redirects (a real FastMCP server reached with the trailing
//! slash most people type; same-origin and cross-origin hops; loops and limits), a forward proxy
//! that alone resolves the server's host name (with proxy credentials), a server that refuses
//! the Host header (421), one kept-alive connection per session and a kept-alive connection the
//! server dropped.
//!
//! The stdlib fixtures: `fixtures/servers/http_server.py` (with `--redirect`, `--allowed-host`,
//! `--mode stale`, `--log-more`) and `fixtures/servers/forward_proxy.py`. FastMCP needs the Python
//! `mcp` package. Every test proves that the bearer token and the proxy password appear in no
//! error, note, `Debug`, recorded surface or log.
//!
//! Proxies are given explicitly here (`HttpEndpoint::proxy`): the tests of this binary run in
//! threads of one process, so the proxy variables of the environment are tested through the CLI
//! (`mcp-contract-cli`'s `cli::http_proxy_env`), one process per case.
//!
//! The stdlib fixtures run on the machine's python3, FastMCP on the provisioned environment
//! (`support::python::with_mcp`); each through `support::require!` (a failure in CI, a counted
//! skip elsewhere).
//!
//! Run: `cargo test -p mcp-contract-test --features http --test http client::`.

use mcp_contract_engine::surface::Surface;
use mcp_contract_test::_support::probe::{
    probe, HeaderValue, HttpEndpoint, Probe, ProbeError, ProbeErrorKind, ProbeOptions,
    ProxySetting, ServerCommand, ServerSpec,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Duration;
use support::process::Spawned;

const TOKEN: &str = "client-s3cr3t-Tok3n-5150";
const PROXY_PASSWORD: &str = "pr0xy-Passw0rd-8086";
const WRONG_PROXY_PASSWORD: &str = "wr0ng-Pr0xy-Passw0rd-1234";

fn repo_root() -> PathBuf {
    support::repo_path("")
}

/// The machine's Python, for the stdlib fixtures (`setup` has required it).
fn python() -> &'static Path {
    support::python::system().expect("python3, required by the test")
}

/// The fixtures' Python; sets the test variables once.
fn setup() -> Result<(), support::Missing> {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Rust's std serialises environment access with spawns and reads.
        std::env::set_var("HTTP_CLIENT_TOKEN", TOKEN);
        std::env::set_var("HTTP_CLIENT_PROXY_PASSWORD", PROXY_PASSWORD);
        std::env::set_var("HTTP_CLIENT_WRONG_PROXY_PASSWORD", WRONG_PROXY_PASSWORD);
        std::env::set_var("HTTP_CLIENT_PROXY_AUTH", format!("probe:{PROXY_PASSWORD}"));
    });
    support::python::system().map(|_| ())
}

fn surface_path() -> PathBuf {
    repo_root().join("fixtures/surfaces/everything/2025.11.25.json")
}

fn expected_surface() -> Surface {
    let text = std::fs::read_to_string(surface_path()).unwrap();
    Surface::from_json(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
}

fn options(secs: u64) -> ProbeOptions {
    ProbeOptions {
        timeout: Duration::from_secs(secs),
        ..ProbeOptions::default()
    }
}

fn bearer() -> (String, HeaderValue) {
    (
        "Authorization".to_owned(),
        HeaderValue::parse("Bearer ${HTTP_CLIENT_TOKEN}").unwrap(),
    )
}

fn assert_no_secret(text: &str) {
    for secret in [TOKEN, PROXY_PASSWORD, WRONG_PROXY_PASSWORD] {
        assert!(!text.contains(secret), "a secret leaked: {text}");
    }
}

fn assert_probe_has_no_secret(probe: &Probe) {
    assert_no_secret(&probe.surface.to_json().to_string());
    assert_no_secret(&format!("{:?}", probe.notes));
}

fn assert_error_has_no_secret(error: &ProbeError) {
    assert_no_secret(&error.to_string());
    assert_no_secret(&format!("{error:?}"));
}

/// A log file of a fixture in the test's temporary folder.
fn log_path(logs: &support::TempDir, name: &str) -> PathBuf {
    logs.join(format!("{name}.log"))
}

/// The fixture server started by the probe on a free port, demanding the token, logging to
/// `log`.
fn started(extra: &[&str], log: &Path) -> HttpEndpoint {
    let mut args = vec![
        repo_root()
            .join("fixtures/servers/http_server.py")
            .display()
            .to_string(),
        surface_path().display().to_string(),
        "--port".into(),
        "{port}".into(),
        "--token-env".into(),
        "HTTP_CLIENT_TOKEN".into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let mut command = ServerCommand::new(python().display().to_string(), args);
    command
        .env
        .push(("FIXTURE_LOG".into(), log.display().to_string()));
    HttpEndpoint {
        url: "http://127.0.0.1:{port}/mcp".into(),
        headers: vec![bearer()],
        start: Some(command),
        ready_line: Some("ready http://".into()),
        ..HttpEndpoint::default()
    }
}

/// Starts `args` under Python (in the controlled environment of the tests, with the variables
/// given added) and waits for its ready line, `ready … http://127.0.0.1:PORT…`.
fn spawn(args: &[String], env: &[(&str, String)]) -> Spawned {
    support::process::spawn_ready_line(
        support::command(python())
            .args(args)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str()))),
    )
}

/// The forward proxy, mapping `mcp.internal.test` (any port) to `127.0.0.1:upstream`,
/// demanding `probe:PROXY_PASSWORD`, and refusing CONNECT but to port 443 as squid does by
/// default.
fn forward_proxy(upstream: u16, log: &Path) -> Spawned {
    spawn(
        &[
            repo_root()
                .join("fixtures/servers/forward_proxy.py")
                .display()
                .to_string(),
            "--map".into(),
            format!("mcp.internal.test=127.0.0.1:{upstream}"),
            "--auth-env".into(),
            "HTTP_CLIENT_PROXY_AUTH".into(),
            "--connect-ports".into(),
            "443".into(),
        ],
        &[("PROXY_LOG", log.display().to_string())],
    )
}

#[test]
fn a_trailing_slash_reaches_a_real_fastmcp_server_and_says_which_url_to_configure() {
    support::require!(setup());
    let python_with_mcp = support::require!(support::python::with_mcp());
    let endpoint = HttpEndpoint {
        url: "http://127.0.0.1:{port}/mcp/".into(),
        headers: vec![bearer()],
        start: Some(ServerCommand::new(
            python_with_mcp.display().to_string(),
            [
                repo_root()
                    .join("fixtures/servers/fastmcp_server.py")
                    .display()
                    .to_string(),
                "{port}".into(),
            ],
        )),
        ..HttpEndpoint::default()
    };
    let probe = probe(&ServerSpec::Http(endpoint), &options(30)).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = probe.surface.keys().map(|k| k.test_name()).collect();
    assert!(
        names.contains(&"tools::add_numbers".to_owned()),
        "{names:?}"
    );
    assert!(
        probe.notes.iter().any(|note| note
            == "http://127.0.0.1:{port}/mcp/ redirects (307 Temporary Redirect) to \
                http://127.0.0.1:{port}/mcp, which answered: update the URL to \
                http://127.0.0.1:{port}/mcp"),
        "{:?}",
        probe.notes
    );
    assert_probe_has_no_secret(&probe);
}

#[test]
fn fastmcp_reached_by_a_name_it_does_not_allow_says_which_host_was_sent() {
    support::require!(setup());
    let python_with_mcp = support::require!(support::python::with_mcp());
    let logs = support::temp_dir("http-client");
    let fastmcp = support::fixtures::fastmcp(python_with_mcp);
    let upstream_port = fastmcp.port;
    let proxy_log = log_path(&logs, "fastmcp-proxy");
    let proxy = forward_proxy(upstream_port, &proxy_log);
    let mut endpoint = HttpEndpoint::new(format!("http://mcp.internal.test:{upstream_port}/mcp"));
    endpoint.headers.push(bearer());
    endpoint.proxy = ProxySetting::parse(&format!(
        "http://probe:${{HTTP_CLIENT_PROXY_PASSWORD}}@127.0.0.1:{}",
        proxy.port
    ))
    .unwrap();
    let error = probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::HostRejected, "{error}");
    let text = error.to_string();
    assert!(text.contains("421 Misdirected Request"), "{text}");
    assert!(
        text.contains(&format!(
            "refused the Host header it was sent (Host: mcp.internal.test:{upstream_port})"
        )),
        "{text}"
    );
    assert!(text.contains("'Invalid Host header'"), "{text}");
    assert!(
        text.contains("what to do: the server checks the Host header"),
        "{text}"
    );
    assert_error_has_no_secret(&error);
}

#[test]
fn a_host_only_the_proxy_resolves_is_reached_through_it_and_no_credential_shows() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let server_log = log_path(&logs, "proxied-server");
    let server = spawn(
        &[
            repo_root()
                .join("fixtures/servers/http_server.py")
                .display()
                .to_string(),
            surface_path().display().to_string(),
            "--token-env".into(),
            "HTTP_CLIENT_TOKEN".into(),
            "--log-more".into(),
        ],
        &[
            ("FIXTURE_LOG", server_log.display().to_string()),
            ("HTTP_CLIENT_TOKEN", TOKEN.to_owned()),
        ],
    );
    let proxy_log = log_path(&logs, "proxy");
    let proxy = forward_proxy(server.port, &proxy_log);
    // Port 80, the default of http://: the proxy would refuse a tunnel to it.
    let endpoint = |password_var: Option<&str>| {
        let mut endpoint = HttpEndpoint::new("http://mcp.internal.test/mcp");
        endpoint.headers.push(bearer());
        let credentials = password_var
            .map(|var| format!("probe:${{{var}}}@"))
            .unwrap_or_default();
        endpoint.proxy =
            ProxySetting::parse(&format!("http://{credentials}127.0.0.1:{}", proxy.port)).unwrap();
        endpoint
    };

    let spec = ServerSpec::Http(endpoint(Some("HTTP_CLIENT_PROXY_PASSWORD")));
    assert_no_secret(&format!("{spec:?}"));
    let recorded = probe(&spec, &options(20)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorded.surface, expected_surface());
    assert_probe_has_no_secret(&recorded);
    // Every request in absolute-form (`POST http://mcp.internal.test/mcp HTTP/1.1`), which the
    // proxy forwards; no tunnel, which it would refuse.
    let proxy_text = std::fs::read_to_string(&proxy_log).unwrap();
    assert!(
        proxy_text.lines().all(|l| l
            == "FORWARD POST http://mcp.internal.test:80/mcp auth=ok -> relayed"
            || l == "FORWARD DELETE http://mcp.internal.test:80/mcp auth=ok -> relayed"),
        "{proxy_text}"
    );
    assert!(proxy_text.lines().count() >= 5, "{proxy_text}");
    let server_text = std::fs::read_to_string(&server_log).unwrap();
    assert!(
        server_text.starts_with(
            "POST initialize session=no version=- auth=ok host=mcp.internal.test conn="
        ),
        "{server_text}"
    );
    assert_no_secret(&proxy_text);
    assert_no_secret(&server_text);

    for (password_var, needle) in [
        (
            Some("HTTP_CLIENT_WRONG_PROXY_PASSWORD"),
            "refused the credentials in the proxy URL",
        ),
        (None, "it wants credentials; give them in the proxy URL"),
    ] {
        let error = probe(&ServerSpec::Http(endpoint(password_var)), &options(20)).unwrap_err();
        assert_eq!(error.kind, ProbeErrorKind::Proxy, "{error}");
        let text = error.to_string();
        assert!(
            text.contains(&format!(
                "the proxy http://127.0.0.1:{} (from the suite's proxy setting) answered 407 \
                 Proxy Authentication Required",
                proxy.port
            )),
            "{text}"
        );
        assert!(text.contains(needle), "{text}");
        assert_error_has_no_secret(&error);
    }

    // Without the proxy the name resolves nowhere.
    let mut direct = endpoint(None);
    direct.proxy = ProxySetting::Off;
    let error = probe(&ServerSpec::Http(direct), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Unreachable, "{error}");
    assert!(
        error.to_string().contains("cannot resolve the host of"),
        "{error}"
    );
    assert_no_secret(&std::fs::read_to_string(&proxy_log).unwrap());
}

#[test]
fn a_same_origin_redirect_keeps_the_token_and_is_noted() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "same-origin");
    let mut endpoint = started(&["--redirect", "308", "/old", "/mcp", "--log-more"], &log);
    endpoint.url = "http://127.0.0.1:{port}/old".into();
    let recorded =
        probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorded.surface, expected_surface());
    assert!(
        recorded.notes.iter().any(|note| note
            == "http://127.0.0.1:{port}/old moved permanently (308 Permanent Redirect) to \
                http://127.0.0.1:{port}/mcp, which answered: update the URL to \
                http://127.0.0.1:{port}/mcp"),
        "{:?}",
        recorded.notes
    );
    assert_probe_has_no_secret(&recorded);
    let text = std::fs::read_to_string(&log).unwrap();
    // The redirected initialize, then the same at the new URL; every later request goes there
    // directly. Every request carried the token.
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("POST initialize"))
            .count(),
        2,
        "{text}"
    );
    assert!(text.lines().all(|l| l.contains(" auth=ok ")), "{text}");
}

#[test]
fn a_cross_origin_redirect_drops_the_token_and_says_so() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "cross-origin");
    // 127.0.0.1 and localhost are two origins, served by one fixture.
    let mut endpoint = started(
        &[
            "--redirect",
            "307",
            "/old",
            "http://localhost:{port}/mcp",
            "--log-more",
        ],
        &log,
    );
    endpoint.url = "http://127.0.0.1:{port}/old".into();
    let error = probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::AuthRequired, "{error}");
    let text = error.to_string();
    assert!(
        text.contains(
            "the suite's headers were not sent, since the request was redirected to \
                       another origin: update the URL to http://localhost:"
        ),
        "{text}"
    );
    assert_error_has_no_secret(&error);
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(lines[0].contains(" auth=ok host=127.0.0.1:"), "{lines:?}");
    assert!(lines[1].contains(" auth=none host=localhost:"), "{lines:?}");
}

#[test]
fn redirect_loops_long_chains_and_see_other_are_errors_that_name_the_hops() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "redirect-errors");
    let mut looping = started(
        &[
            "--redirect",
            "308",
            "/a",
            "/b",
            "--redirect",
            "302",
            "/b",
            "/a",
        ],
        &log,
    );
    looping.url = "http://127.0.0.1:{port}/a".into();
    let error = probe(&ServerSpec::Http(looping), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Redirect, "{error}");
    let text = error.to_string();
    assert!(
        text.contains("redirects in a loop: http://127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("/a → http://127.0.0.1:"), "{text}");
    assert!(
        text.contains("what to do: give the suite the URL"),
        "{text}"
    );

    let mut chain = vec![];
    for hop in 1..=6 {
        chain.extend([
            "--redirect".to_owned(),
            "301".to_owned(),
            format!("/r{hop}"),
            format!("/r{}", hop + 1),
        ]);
    }
    let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
    let mut long = started(&chain, &log);
    long.url = "http://127.0.0.1:{port}/r1".into();
    let error = probe(&ServerSpec::Http(long), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Redirect, "{error}");
    assert!(
        error.to_string().contains("redirected more than 5 times"),
        "{error}"
    );

    let mut see_other = started(&["--redirect", "303", "/mcp", "/login"], &log);
    see_other.url = "http://127.0.0.1:{port}/mcp".into();
    let error = probe(&ServerSpec::Http(see_other), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::NotMcp, "{error}");
    assert!(
        error
            .to_string()
            .contains("answered initialize with 303 See Other (Location: '/login')"),
        "{error}"
    );
    assert_error_has_no_secret(&error);
}

#[test]
fn a_host_header_the_server_does_not_allow_is_named_with_what_to_do() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "host");
    let mut endpoint = started(&["--allowed-host", "127.0.0.1:{port}"], &log);
    endpoint.url = "http://localhost:{port}/mcp".into();
    let error = probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::HostRejected, "{error}");
    let text = error.to_string();
    assert!(
        text.contains(
            "answered initialize with 421 Misdirected Request; the body starts \
                       'Invalid Host header': the server refused the Host header it was sent \
                       (Host: localhost:"
        ),
        "{text}"
    );
    assert_error_has_no_secret(&error);
}

#[test]
fn a_session_the_server_forgot_or_never_named_is_a_session_error() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "session");
    for (mode, needle) in [
        (
            "forget",
            "answered notifications/initialized with 404 Not Found for the session it opened \
             (Mcp-Session-Id): it no longer knows that session",
        ),
        (
            "hide-session",
            "answered notifications/initialized with 400 Bad Request; the body starts 'missing \
             Mcp-Session-Id': it wants a session id, but gave none",
        ),
    ] {
        let endpoint = started(&["--mode", mode], &log);
        let error = probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_err();
        assert_eq!(
            error.kind,
            ProbeErrorKind::SessionRejected,
            "{mode}: {error}"
        );
        assert!(error.to_string().contains(needle), "{mode}: {error}");
        assert!(
            error
                .to_string()
                .contains("what to do: the server lost the session"),
            "{error}"
        );
        assert_error_has_no_secret(&error);
    }
}

#[test]
fn one_kept_alive_connection_serves_the_whole_session() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "keep-alive");
    let endpoint = started(&["--log-more"], &log);
    probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&log).unwrap();
    let connections: std::collections::BTreeSet<&str> = text
        .lines()
        .filter_map(|line| line.rsplit(" conn=").next())
        .collect();
    assert!(text.lines().count() >= 5, "{text}");
    assert_eq!(connections.len(), 1, "{text}");
}

#[test]
fn a_kept_alive_connection_the_server_dropped_is_replaced_once() {
    support::require!(setup());
    let logs = support::temp_dir("http-client");
    let log = log_path(&logs, "stale");
    let endpoint = started(&["--mode", "stale", "--log-more"], &log);
    let recorded =
        probe(&ServerSpec::Http(endpoint), &options(20)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorded.surface, expected_surface());
    let text = std::fs::read_to_string(&log).unwrap();
    // Each request after the first went out on the kept connection, was dropped unanswered,
    // and was sent again on a new one.
    let dropped = text.lines().filter(|l| l.contains(" dropped ")).count();
    let answered = text.lines().filter(|l| l.contains(" auth=ok ")).count();
    assert!(dropped >= 4, "{text}");
    assert!(answered >= dropped, "{text}");
}
