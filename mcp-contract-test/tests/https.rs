//! The Streamable HTTP probe over TLS (feature `https`), against the stdlib fixture server run
//! with a certificate (`fixtures/servers/https_server.py`). A CA, a certificate for 127.0.0.1
//! signed by it, and an unrelated second CA are made in-process (`support::pki`, rcgen) when the
//! tests start. Needs python3 (`support::require!`: a failure in CI, a counted skip elsewhere).
//!
//! The private CA is given through [`HttpEndpoint::ca_file`], never through the process-global
//! `MCP_CONTRACT_CA_FILE` (tests run in parallel threads of one process).
//!
//! Run: `cargo test -p mcp-contract-test --features https --test https`.

use mcp_contract_engine::surface::Surface;
use mcp_contract_test::_support::probe::{
    probe, HeaderValue, HttpEndpoint, ProbeErrorKind, ProbeOptions, ServerCommand, ServerSpec,
};
use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const TOKEN: &str = "tls-s3cr3t-Tok3n-9191";
const WRONG: &str = "tls-wr0ng-Tok3n-2323";

use support::pki::Pki;

/// The certificates (made in-process by `support::pki`, no openssl), once per process; the
/// tests need python3 for the fixture server.
fn pki() -> Result<&'static Pki, support::Missing> {
    static PKI: OnceLock<Pki> = OnceLock::new();
    support::python::system()?;
    Ok(PKI.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("https-pki-{}", std::process::id()));
        support::pki::make(&dir).unwrap_or_else(|e| panic!("{e}"))
    }))
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

/// An https endpoint whose TLS fixture server the probe starts on a free port, demanding
/// TOKEN; the request carries `token` (a literal: no process-global environment is touched).
fn started(pki: &Pki, extra: &[&str], token: &str, ca_file: Option<&Path>) -> HttpEndpoint {
    let mut args = vec![
        repo_root()
            .join("fixtures/servers/https_server.py")
            .display()
            .to_string(),
        "--tls-cert".into(),
        pki.cert.display().to_string(),
        "--tls-key".into(),
        pki.key.display().to_string(),
        surface_path().display().to_string(),
        "--port".into(),
        "{port}".into(),
        "--token-env".into(),
        "HTTPS_TEST_TOKEN".into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let mut command = ServerCommand::new("python3", args);
    command.env.push(("HTTPS_TEST_TOKEN".into(), TOKEN.into()));
    let mut endpoint = HttpEndpoint::new("https://127.0.0.1:{port}/mcp");
    endpoint.headers.push((
        "Authorization".into(),
        HeaderValue::Literal(format!("Bearer {token}")),
    ));
    endpoint.start = Some(command);
    endpoint.ready_line = Some("ready https://".into());
    endpoint.ca_file = ca_file.map(Path::to_path_buf);
    endpoint
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
fn a_private_ca_from_the_endpoint_reads_the_exact_surface_over_json_and_sse() {
    let pki = support::require!(pki());
    let expected = expected_surface();
    let log = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("https-fixture-log-{}", std::process::id()));
    for mode in ["json", "sse"] {
        let _ = std::fs::remove_file(&log);
        let mut endpoint = started(pki, &["--response", mode], TOKEN, Some(&pki.ca));
        if let Some(command) = &mut endpoint.start {
            command
                .env
                .push(("FIXTURE_LOG".into(), log.display().to_string()));
        }
        let spec = ServerSpec::Http(endpoint);
        assert_no_secret(&format!("{spec:?}"));
        let probe = probe(&spec, &options(20)).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(probe.surface, expected, "{mode}");
        assert_no_secret(&probe.surface.to_json().to_string());
        // The whole session went over TLS: session id and version echoed, session deleted.
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.first(),
            Some(&"POST initialize session=no version=- auth=ok"),
            "{text}"
        );
        assert!(
            lines.contains(&"POST tools/list session=yes version=2025-11-25 auth=ok"),
            "{text}"
        );
        assert_eq!(
            lines.last(),
            Some(&"DELETE DELETE session=yes version=2025-11-25 auth=ok"),
            "{text}"
        );
    }
    let _ = std::fs::remove_file(&log);
}

#[test]
fn an_untrusted_certificate_is_a_tls_error_with_advice_within_the_timeout() {
    let pki = support::require!(pki());
    // No CA file: the private CA is unknown. (Skipped if the developer's environment names one.)
    let mut cases = vec![(None, "set MCP_CONTRACT_CA_FILE=path/to/ca.pem")];
    if std::env::var_os("MCP_CONTRACT_CA_FILE").is_some() {
        // That case cannot run here: counted as a skip (a failure in CI).
        support::skips::skip(&support::Missing::new(
            "an environment without MCP_CONTRACT_CA_FILE",
            "it is set, so the case without a CA file cannot be probed",
            "unset MCP_CONTRACT_CA_FILE",
        ));
        cases.clear();
    }
    // A CA file holding another CA.
    cases.push((Some(pki.other_ca.as_path()), "nor by the CA in ca_file="));
    for (ca_file, needle) in cases {
        let spec = ServerSpec::Http(started(pki, &[], TOKEN, ca_file));
        let start = Instant::now();
        let error = probe(&spec, &options(10)).unwrap_err();
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(error.kind, ProbeErrorKind::Tls, "{error}");
        let text = error.to_string();
        assert!(
            text.contains("the server's certificate is not trusted"),
            "{text}"
        );
        assert!(text.contains("issued by an unknown CA"), "{text}");
        assert!(text.contains(needle), "{text}");
        assert!(
            text.contains("what to do: the server's certificate must be trusted"),
            "{text}"
        );
        assert_no_secret(&text);
        assert_no_secret(&format!("{error:?}"));
    }
}

#[test]
fn a_certificate_for_another_host_names_the_names_it_is_for() {
    let pki = support::require!(pki());
    let mut endpoint = started(pki, &[], TOKEN, Some(&pki.ca));
    // The certificate is for IP 127.0.0.1 only; connect by the name `localhost`.
    endpoint.url = "https://localhost:{port}/mcp".into();
    let error = probe(&ServerSpec::Http(endpoint), &options(10)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Tls, "{error}");
    let text = error.to_string();
    assert!(
        text.contains("not valid for the host 'localhost': it names '127.0.0.1'"),
        "{text}"
    );
    assert_no_secret(&text);
}

#[test]
fn a_wrong_token_over_tls_is_an_auth_error_that_never_repeats_the_token() {
    let pki = support::require!(pki());
    // The fixture's 401 body echoes the Authorization header it got.
    let spec = ServerSpec::Http(started(pki, &[], WRONG, Some(&pki.ca)));
    let error = probe(&spec, &options(10)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::AuthRequired, "{error}");
    let text = error.to_string();
    assert!(text.contains("401 Unauthorized"), "{text}");
    assert_no_secret(&text);
    assert_no_secret(&format!("{error:?}"));
}

#[test]
fn the_wrong_scheme_either_way_says_so() {
    let pki = support::require!(pki());
    // A plain http server at an https:// URL.
    let mut endpoint = started(pki, &[], TOKEN, Some(&pki.ca));
    if let Some(command) = &mut endpoint.start {
        command.args = vec![
            repo_root()
                .join("fixtures/servers/http_server.py")
                .display()
                .to_string(),
            surface_path().display().to_string(),
            "--port".into(),
            "{port}".into(),
        ];
    }
    endpoint.ready_line = Some("ready http://".into());
    let error = probe(&ServerSpec::Http(endpoint), &options(10)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::Tls, "{error}");
    assert!(error.to_string().contains("does not speak TLS"), "{error}");
    // An https server at an http:// URL.
    let mut endpoint = started(pki, &[], TOKEN, Some(&pki.ca));
    endpoint.url = "http://127.0.0.1:{port}/mcp".into();
    let error = probe(&ServerSpec::Http(endpoint), &options(10)).unwrap_err();
    assert_eq!(error.kind, ProbeErrorKind::NotMcp, "{error}");
    assert!(
        error
            .to_string()
            .contains("an https server? then write the URL with https://"),
        "{error}"
    );
    assert_no_secret(&error.to_string());
}

#[test]
fn a_server_that_never_answers_the_handshake_times_out() {
    // Needs neither openssl nor python: a listener that accepts TCP (in its backlog) and never
    // speaks.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let endpoint = HttpEndpoint::new(format!("https://127.0.0.1:{port}/mcp"));
    let start = Instant::now();
    let error = probe(&ServerSpec::Http(endpoint), &options(2)).unwrap_err();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(4), "{took:?}");
    assert_eq!(error.kind, ProbeErrorKind::TimedOut, "{error}");
    assert!(error.to_string().contains("TLS handshake"), "{error}");
    drop(listener);
}

#[test]
fn an_unusable_ca_file_is_a_configuration_error_naming_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let not_pem = dir.join(format!("not-a-ca-{}.pem", std::process::id()));
    std::fs::write(&not_pem, "just text, no certificate\n").unwrap();
    let missing = dir.join("no-such-ca-file.pem");
    for (path, needle) in [
        (&missing, "cannot be read"),
        (&not_pem, "holds no PEM certificate"),
    ] {
        let mut endpoint = HttpEndpoint::new("https://127.0.0.1:9/mcp");
        endpoint.ca_file = Some(path.clone());
        let error = probe(&ServerSpec::Http(endpoint), &options(5)).unwrap_err();
        assert_eq!(error.kind, ProbeErrorKind::Configuration, "{error}");
        let text = error.to_string();
        assert!(text.contains(&path.display().to_string()), "{text}");
        assert!(text.contains("(from ca_file)"), "{text}");
        assert!(text.contains(needle), "{text}");
    }
    let _ = std::fs::remove_file(&not_pem);
}
