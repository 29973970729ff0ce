//! `mcp-contract` against HTTP servers as a user behind a proxy meets them: the proxy variables
//! of the environment (one process per case, so each gets its own environment), `NO_PROXY`,
//! `--proxy`/`--no-proxy`, the `proxy` key of mcp-contract.toml, and a real FastMCP server
//! reached with the trailing slash most people type.
//!
//! The server's host name, `mcp.internal.test`, resolves only through the forward-proxy fixture
//! (`fixtures/servers/forward_proxy.py`), which demands proxy credentials; the server demands a
//! bearer token taken from the environment. Neither the token nor the proxy password may appear
//! in any output, log or snapshot file.
//!
//! The stdlib fixtures run on the machine's python3, FastMCP on the provisioned environment
//! (`support::python::with_mcp`); each through `support::require!` (a failure in CI, a counted
//! skip elsewhere).

use std::path::{Path, PathBuf};
use support::process::Spawned;

const TOKEN: &str = "cli-pr0xy-Tok3n-6502";
const PROXY_PASSWORD: &str = "cli-Passw0rd-z80z80";

/// Every proxy variable, both spellings: removed from each run so that the developer's own
/// settings do not leak into a case.
pub(super) const PROXY_VARS: [&str; 8] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
];

fn repo() -> PathBuf {
    support::repo_path("")
}

/// The machine's Python, for the stdlib fixtures (the callers have `require!`d it).
fn python() -> &'static Path {
    support::python::system().expect("python3, required by the test")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with exactly the proxy variables given (others removed) and the token set,
/// in the controlled environment of every CLI run (`super::cli`).
fn run(args: &[&str], env: &[(&str, String)], cwd: &Path) -> Run {
    let mut command = super::cli();
    command.current_dir(cwd).args(args);
    for var in PROXY_VARS {
        command.env_remove(var);
    }
    command.env("CLI_PROXY_TOKEN", TOKEN);
    command.env("CLI_PROXY_PASSWORD", PROXY_PASSWORD);
    command.envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    let output = command.output().unwrap();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    };
    for text in [&run.stdout, &run.stderr] {
        assert!(!text.contains(TOKEN), "the token leaked: {text}");
        assert!(
            !text.contains(PROXY_PASSWORD),
            "the proxy password leaked: {text}"
        );
    }
    run
}

/// Starts a stdlib fixture under Python (in the controlled environment of the tests, with
/// exactly the variables given added) and reads the port from its ready line.
fn spawn(args: &[String], env: &[(&str, String)]) -> Spawned {
    support::process::spawn_ready_line(
        support::command(python())
            .args(args)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str()))),
    )
}

/// The token-guarded fixture server and the proxy that alone resolves its name.
struct Setup {
    server: Spawned,
    proxy: Spawned,
    proxy_log: PathBuf,
    dir: support::TempDir,
}

fn setup(tag: &str) -> Setup {
    let dir = support::temp_dir(&format!("cli-proxy-{tag}"));
    let server = spawn(
        &[
            repo()
                .join("fixtures/servers/http_server.py")
                .display()
                .to_string(),
            repo()
                .join("fixtures/surfaces/memory/0.6.2.json")
                .display()
                .to_string(),
            "--token-env".into(),
            "CLI_PROXY_TOKEN".into(),
        ],
        &[("CLI_PROXY_TOKEN", TOKEN.to_owned())],
    );
    let proxy_log = dir.join("proxy.log");
    let proxy = spawn(
        &[
            repo()
                .join("fixtures/servers/forward_proxy.py")
                .display()
                .to_string(),
            "--map".into(),
            format!("mcp.internal.test=127.0.0.1:{}", server.port),
            "--auth-env".into(),
            "PROXY_AUTH".into(),
            "--connect-ports".into(),
            "443".into(),
        ],
        &[
            ("PROXY_LOG", proxy_log.display().to_string()),
            ("PROXY_AUTH", format!("probe:{PROXY_PASSWORD}")),
        ],
    );
    Setup {
        server,
        proxy,
        proxy_log,
        dir,
    }
}

impl Setup {
    fn url(&self) -> String {
        format!("http://mcp.internal.test:{}/mcp", self.server.port)
    }

    fn proxy_url(&self, password: &str) -> String {
        format!("http://probe:{password}@127.0.0.1:{}", self.proxy.port)
    }

    /// The requests the proxy forwarded to the server (`http://` URLs go in absolute-form;
    /// this proxy, as squid by default, refuses CONNECT but to port 443).
    fn forwarded(&self) -> usize {
        let log = std::fs::read_to_string(&self.proxy_log).unwrap_or_default();
        assert!(!log.contains("CONNECT"), "no tunnel for http://: {log}");
        log.lines()
            .filter(|line| line.starts_with("FORWARD POST http://mcp.internal.test:"))
            .count()
    }

    fn show(&self, extra: &[&str], env: &[(&str, String)]) -> Run {
        let url = self.url();
        let mut args = vec![
            "show",
            "--url",
            url.as_str(),
            "--header",
            "Authorization: Bearer ${CLI_PROXY_TOKEN}",
            "--timeout",
            "20",
        ];
        args.extend(extra);
        run(&args, env, &self.dir)
    }
}

#[test]
fn the_environments_proxy_reaches_a_host_only_it_resolves() {
    support::require!(support::python::system());
    let setup = setup("env");
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        let before = setup.forwarded();
        let shown = setup.show(&[], &[(var, setup.proxy_url(PROXY_PASSWORD))]);
        assert_eq!(shown.code, 0, "{var}: {}", shown.stderr);
        assert!(
            shown.stdout.contains("tools::create_entities"),
            "{var}: {}",
            shown.stdout
        );
        assert!(setup.forwarded() > before, "{var}");
    }
    // The lowercase spelling wins; an https_proxy says nothing about http:// URLs.
    let shown = setup.show(
        &[],
        &[
            ("http_proxy", setup.proxy_url(PROXY_PASSWORD)),
            ("HTTP_PROXY", "http://127.0.0.1:9".to_owned()),
            ("HTTPS_PROXY", "http://127.0.0.1:9".to_owned()),
        ],
    );
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let log = std::fs::read_to_string(&setup.proxy_log).unwrap();
    assert!(
        !log.contains(PROXY_PASSWORD) && !log.contains(TOKEN),
        "{log}"
    );
}

#[test]
fn no_proxy_and_no_proxy_flag_go_direct_and_the_flag_wins_over_the_environment() {
    support::require!(support::python::system());
    let setup = setup("bypass");
    let env_proxy = ("HTTP_PROXY", setup.proxy_url(PROXY_PASSWORD));
    let before = setup.forwarded();
    for (extra, env) in [
        (
            vec![],
            vec![
                env_proxy.clone(),
                ("NO_PROXY", " other.test, .internal.test".to_owned()),
            ],
        ),
        (
            vec![],
            vec![
                env_proxy.clone(),
                ("no_proxy", "mcp.internal.test".to_owned()),
            ],
        ),
        (vec!["--no-proxy"], vec![env_proxy.clone()]),
    ] {
        // Reached directly, the name resolves nowhere: the proxy was bypassed.
        let shown = setup.show(&extra, &env);
        assert_eq!(shown.code, 4, "{extra:?} {}", shown.stderr);
        assert!(
            shown
                .stderr
                .contains("cannot resolve the host of http://mcp.internal.test:"),
            "{}",
            shown.stderr
        );
    }
    assert_eq!(setup.forwarded(), before);
    // --proxy wins over a dead proxy in the environment.
    let flag = setup.proxy_url("${CLI_PROXY_PASSWORD}");
    let shown = setup.show(
        &["--proxy", &flag],
        &[("HTTP_PROXY", "http://127.0.0.1:9".to_owned())],
    );
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(setup.forwarded() > before);
}

#[test]
fn a_proxy_that_refuses_the_credentials_says_so_without_showing_them() {
    support::require!(support::python::system());
    let setup = setup("refused");
    let wrong = format!("{PROXY_PASSWORD}-but-wrong");
    let shown = setup.show(&[], &[("HTTP_PROXY", setup.proxy_url(&wrong))]);
    assert_eq!(shown.code, 4, "{}", shown.stderr);
    assert!(
        shown.stderr.contains(&format!(
            "the proxy http://127.0.0.1:{} (from HTTP_PROXY) answered 407 Proxy Authentication \
             Required: it refused the credentials in the proxy URL",
            setup.proxy.port
        )),
        "{}",
        shown.stderr
    );
    assert!(!shown.stderr.contains("but-wrong"), "{}", shown.stderr);
    let dead = run(
        &["show", "--url", &setup.url(), "--timeout", "10"],
        &[("HTTP_PROXY", "http://probe:x@127.0.0.1:9".to_owned())],
        &setup.dir,
    );
    assert_eq!(dead.code, 4, "{}", dead.stderr);
    assert!(
        dead.stderr.contains(
            "cannot connect to the proxy http://127.0.0.1:9 (from HTTP_PROXY): connection refused"
        ),
        "{}",
        dead.stderr
    );
}

#[test]
fn the_proxy_key_of_the_configuration_file_writes_snapshots_without_secrets() {
    support::require!(support::python::system());
    let setup = setup("config");
    let config = setup.dir.join("mcp-contract.toml");
    std::fs::write(
        &config,
        format!(
            "dir = \"snaps\"\nproxy = \"off\"\n\n[[server]]\nname = \"internal\"\nurl = \"{}\"\n\
             headers = {{ Authorization = \"Bearer ${{CLI_PROXY_TOKEN}}\" }}\n\
             proxy = \"http://probe:${{CLI_PROXY_PASSWORD}}@127.0.0.1:{}\"\n",
            setup.url(),
            setup.proxy.port
        ),
    )
    .unwrap();
    let accepted = run(
        &["snapshot", "--config", "mcp-contract.toml"],
        &[("HTTP_PROXY", "http://127.0.0.1:9".to_owned())],
        &setup.dir,
    );
    assert_eq!(accepted.code, 0, "{}{}", accepted.stdout, accepted.stderr);
    let mut files = 0;
    for entry in std::fs::read_dir(setup.dir.join("snaps"))
        .unwrap()
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(
            !text.contains(TOKEN) && !text.contains(PROXY_PASSWORD),
            "{text}"
        );
        assert!(!text.contains("probe:"), "{text}");
        files += 1;
    }
    assert!(files > 5, "{files} snapshot files");
    assert!(setup.forwarded() > 0);
}

#[test]
fn show_follows_a_real_fastmcp_servers_trailing_slash_redirect() {
    let python_with_mcp = support::require!(support::python::with_mcp());
    let fastmcp = support::fixtures::fastmcp(python_with_mcp);
    let port = fastmcp.port;
    let url = format!("http://127.0.0.1:{port}/mcp/");
    let shown = run(
        &[
            "show",
            "--url",
            &url,
            "--header",
            "Authorization: Bearer ${CLI_PROXY_TOKEN}",
        ],
        &[],
        &repo(),
    );
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(
        shown.stdout.contains("tools::add_numbers"),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stderr.contains(&format!(
            "note: http://127.0.0.1:{port}/mcp/ redirects (307 Temporary Redirect) to \
             http://127.0.0.1:{port}/mcp, which answered: update the URL to \
             http://127.0.0.1:{port}/mcp"
        )),
        "{}",
        shown.stderr
    );
}
