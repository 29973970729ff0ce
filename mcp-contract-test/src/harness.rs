//! The test harness: one libtest-style test per item, pending snapshots as insta writes them.
//!
//! `#[mcp_contract(...)]` expands to a [`Contract`] built from [`Suite`]s; this module is what
//! `cargo test` runs. It probes each suite's server once (once per run under nextest, see
//! [`crate::probe_cache`]), judges the live surface against the accepted snapshots with
//! [`crate::check`], and hands the libtest runner (`crate::libtest`) one trial per item.

use crate::action::{Conclusion, ItemAction, SuiteActions, Write};
use crate::change::Policy;
use crate::check::{FailOn, Layout};
use crate::config::SuiteConfig;
use crate::escape::escape;
use crate::libtest::{Arguments, Failed, Trial};
use crate::probe::{
    HeaderValue, HttpEndpoint, InProcess, Lifecycle, ProxySetting, ServerCommand, ServerSpec,
};
use crate::run::{Context, Mode};
use crate::snapshot::{self, Settings, Written};
use crate::summary::Pending;
use crate::surface::{ItemKey, ItemKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where the contract test lives, captured in the user's test file by [`crate::here!`].
///
/// `file!()` and `CARGO_MANIFEST_DIR` must be expanded in the user's crate: expanded in this
/// library they would point into cargo's registry, where `cargo insta` never looks.
#[derive(Debug, Clone, Copy)]
pub struct Location {
    /// `file!()` of the test file (workspace-relative).
    pub file: &'static str,
    /// `line!()` of the attribute, shown by `cargo insta review`.
    pub line: u32,
    /// `env!("CARGO_MANIFEST_DIR")` of the crate holding the test.
    pub manifest_dir: &'static str,
    /// `env!("CARGO_CRATE_NAME")` of the test target: the snapshot files' module prefix.
    pub crate_name: &'static str,
    /// `env!("CARGO_PKG_VERSION")` of the package holding the test: the server's version for
    /// [`Suite::require_version_bump`] (SDKs often put their own version in `serverInfo`).
    pub version: &'static str,
}

/// Captures the [`Location`] of the calling test file.
#[macro_export]
macro_rules! here {
    () => {
        $crate::Location {
            file: ::core::file!(),
            line: ::core::line!(),
            manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
            crate_name: ::core::env!("CARGO_CRATE_NAME"),
            version: ::core::env!("CARGO_PKG_VERSION"),
        }
    };
}

/// What [`Suite::url`] asks of its argument: every type has it when the `http` feature is on,
/// none without it, so that testing an HTTP server in a stdio-only build is a compile error
/// that says which feature to enable.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "testing an HTTP server (`url = ...`, `Suite::url`) needs the `http` feature of mcp-contract-test",
    label = "this URL needs the `http` feature",
    note = "in Cargo.toml: mcp-contract-test = {{ version = \"0.1\", features = [\"http\"] }} (\"https\" for https:// URLs)"
)]
pub trait HttpFeature {}

#[cfg(feature = "http")]
impl<T: ?Sized> HttpFeature for T {}

/// What [`Suite::calls`] asks of its argument: every type has it when the `calls` feature is
/// on, none without it, so that declaring calls in a build without the validator is a compile
/// error that says which feature to enable.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "declared calls (`calls = ...`, `Suite::calls`) need the `calls` feature of mcp-contract-test",
    label = "declaring calls needs the `calls` feature",
    note = "in Cargo.toml: mcp-contract-test = {{ version = \"0.1\", features = [\"calls\"] }}"
)]
pub trait CallsFeature {}

#[cfg(feature = "calls")]
impl<T: ?Sized> CallsFeature for T {}

/// One server under test with one configuration: its items become tests.
#[derive(Debug, Clone)]
pub struct Suite {
    name: Option<String>,
    server: Result<ServerSpec, String>,
    timeout: Duration,
    fail_on: Option<FailOn>,
    ci_fail_on: Option<FailOn>,
    policy: Policy,
    redactions: crate::prepare::Redactions,
    lifecycle: Lifecycle,
    errors: Vec<String>,
    lints: crate::lint::Lints,
    allow_list: Option<PathBuf>,
    require_version_bump: bool,
    calls: Option<PathBuf>,
}

impl Suite {
    /// A server started from a command line, split as a POSIX shell would split it
    /// (`python3 my_server.py --stdio`).
    pub fn command(line: &str) -> Suite {
        let command = ServerCommand::from_command_line(line)
            .map(ServerSpec::Stdio)
            .map_err(|e| format!("cannot split the server command `{}`: {e}", escape(line)));
        Suite::with(command)
    }

    /// A server started from a program path and no arguments (see [`Suite::arg`]); used by
    /// `bin = "..."` with `env!("CARGO_BIN_EXE_<name>")`.
    pub fn program(program: impl Into<String>) -> Suite {
        Suite::with(Ok(ServerSpec::Stdio(ServerCommand {
            program: program.into(),
            ..ServerCommand::default()
        })))
    }

    /// A Streamable HTTP endpoint, e.g. `http://127.0.0.1:8080/mcp`. With [`Suite::start`],
    /// `{port}` in the URL is a free port chosen for the server the suite starts.
    ///
    /// Needs the crate's `http` feature (`https` for `https://` URLs); without it, a call is a
    /// compile error saying so.
    pub fn url<U: Into<String> + HttpFeature>(url: U) -> Suite {
        Suite::with(Ok(ServerSpec::Http(HttpEndpoint::new(url))))
    }

    /// A server running inside the test process: no process, no port, no binary build.
    ///
    /// `make` builds a fresh handler for each probe; it is served over an in-memory pipe on a
    /// current-thread tokio runtime in a background thread, and stopped when the probe ends.
    /// Needs the `rmcp` feature: `mcp-contract-test = { version = "0.1", features = ["rmcp"] }`.
    /// Used by the attribute's `handler = my_server::Server::new()`.
    #[cfg(feature = "rmcp")]
    pub fn in_process<H, F>(make: F) -> Suite
    where
        H: rmcp::ServerHandler,
        F: Fn() -> H + Send + Sync + 'static,
    {
        Suite::with(Ok(ServerSpec::InProcess(InProcess::rmcp(make))))
    }

    /// A server running inside the test process, reached through a transport of its own: for
    /// this crate's tests (the transport trait is not public API); `Suite::in_process`
    /// (feature `rmcp`) is the public way.
    #[doc(hidden)]
    pub fn in_process_with(server: InProcess) -> Suite {
        Suite::with(Ok(ServerSpec::InProcess(server)))
    }

    /// How the probe opens the session: [`Lifecycle::Initialize`] (the default),
    /// [`Lifecycle::Discover`] (the stateless `server/discover` of protocol 2026-07-28) or
    /// [`Lifecycle::Auto`] (discover, falling back to initialize). The handshake used is written
    /// in the header of the `server` snapshot.
    pub fn lifecycle(mut self, lifecycle: Lifecycle) -> Suite {
        self.lifecycle = lifecycle;
        self
    }

    /// [`Suite::lifecycle`] from a word: `initialize`, `discover` or `auto` (used by the
    /// attribute's `lifecycle = "auto"`).
    pub fn lifecycle_named(self, word: &str) -> Suite {
        match Lifecycle::parse(word) {
            Ok(lifecycle) => self.lifecycle(lifecycle),
            Err(error) => self.invalid(error.to_string()),
        }
    }

    /// Adds a request header to an HTTP suite. Take secrets from the environment:
    /// `HeaderValue::parse("Bearer ${MCP_TOKEN}")`; no header value is ever shown in a test
    /// name, a snapshot, a report or a message.
    pub fn header(mut self, name: impl Into<String>, value: HeaderValue) -> Suite {
        match &mut self.server {
            Ok(ServerSpec::Http(endpoint)) => endpoint.headers.push((name.into(), value)),
            Ok(_) => self
                .errors
                .push("`header` applies to HTTP suites only (give a `url`)".to_owned()),
            Err(_) => {}
        }
        self
    }

    /// Adds a header written as `"Name: value"`, the value parsed by [`HeaderValue::parse`]
    /// (`"Authorization: Bearer ${MCP_TOKEN}"` takes the token from the environment at probe
    /// time). Used by the attribute's `headers = [..]`.
    pub fn header_line(mut self, line: &str) -> Suite {
        let parsed = line.split_once(':').and_then(|(name, value)| {
            let name = name.trim();
            (!name.is_empty()).then(|| (name.to_owned(), HeaderValue::parse(value.trim())))
        });
        match parsed {
            Some((name, Ok(value))) => self.header(name, value),
            Some((name, Err(e))) => {
                self.errors.push(format!("header {}: {e}", escape(&name)));
                self
            }
            None => {
                self.errors
                    .push("a header is written \"Name: value\"".to_owned());
                self
            }
        }
    }

    /// For an HTTP suite: a command line that starts the server before the probe (and stops it,
    /// with its process group, afterwards). `{port}` in it is replaced by a free port on
    /// 127.0.0.1, the same one as in the URL. The server is ready once its port accepts a
    /// connection, or once it prints [`Suite::ready_line`]. [`Suite::arg`], [`Suite::env`] and
    /// [`Suite::cwd`] then apply to this command.
    pub fn start(mut self, line: &str) -> Suite {
        match (&mut self.server, ServerCommand::from_command_line(line)) {
            (Ok(ServerSpec::Http(endpoint)), Ok(command)) => endpoint.start = Some(command),
            (Ok(ServerSpec::Http(_)), Err(e)) => self.errors.push(format!(
                "cannot split the start command `{}`: {e}",
                escape(line)
            )),
            (Ok(_), _) => self
                .errors
                .push("`start` applies to HTTP suites only (give a `url`)".to_owned()),
            (Err(_), _) => {}
        }
        self
    }

    /// For an HTTP suite with [`Suite::start`]: the server is ready once a line of its stdout
    /// or stderr contains `text` (instead of once its port accepts connections).
    pub fn ready_line(mut self, text: impl Into<String>) -> Suite {
        if let Ok(ServerSpec::Http(endpoint)) = &mut self.server {
            endpoint.ready_line = Some(text.into());
        }
        self
    }

    /// For an HTTP suite: the HTTP proxy to go through, `"http://HOST:PORT"` (with credentials,
    /// `"http://USER:${PROXY_PASSWORD}@HOST:PORT"`: `${VAR}` is read from the environment at
    /// probe time), or `"off"` for none, whatever the environment says. Without it, the
    /// environment's proxy is used (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`; see
    /// [`ProxySetting`]). Used by the attribute's `proxy = ".."`.
    pub fn proxy(mut self, proxy: &str) -> Suite {
        match (&mut self.server, ProxySetting::parse(proxy)) {
            (Ok(ServerSpec::Http(endpoint)), Ok(setting)) => endpoint.proxy = setting,
            (Ok(ServerSpec::Http(_)), Err(e)) => self.errors.push(e.to_string()),
            (Ok(_), _) => self
                .errors
                .push("`proxy` applies to HTTP suites only (give a `url`)".to_owned()),
            (Err(_), _) => {}
        }
        self
    }

    /// For an HTTP suite (feature `https`): a PEM file of CA certificates trusted besides the
    /// public ones, for a private or self-signed CA; relative to the crate's manifest dir. Wins
    /// over `MCP_CONTRACT_CA_FILE`. Used by the attribute's `ca_file = ".."`.
    pub fn ca_file(mut self, path: impl Into<PathBuf>) -> Suite {
        match &mut self.server {
            Ok(ServerSpec::Http(endpoint)) => endpoint.ca_file = Some(path.into()),
            Ok(_) => self
                .errors
                .push("`ca_file` applies to HTTP suites only (give a `url`)".to_owned()),
            Err(_) => {}
        }
        self
    }

    /// The command an argument, variable or directory applies to: the stdio server, or the
    /// start command of an HTTP suite.
    fn command_mut(&mut self) -> Option<&mut ServerCommand> {
        match &mut self.server {
            Ok(ServerSpec::Stdio(command)) => Some(command),
            Ok(ServerSpec::Http(endpoint)) => endpoint.start.as_mut(),
            Ok(ServerSpec::InProcess(_)) => {
                self.errors.push(
                    "`args`, `env` and `cwd` do not apply to an in-process server: pass its \
                     configuration to the handler's constructor"
                        .to_owned(),
                );
                None
            }
            Err(_) => None,
        }
    }

    fn with(server: Result<ServerSpec, String>) -> Suite {
        Suite {
            name: None,
            server,
            timeout: crate::config::DEFAULT_TIMEOUT,
            fail_on: None,
            ci_fail_on: None,
            policy: Policy::default(),
            redactions: crate::prepare::Redactions::default(),
            lifecycle: Lifecycle::default(),
            errors: Vec::new(),
            lints: crate::lint::Lints::default(),
            allow_list: None,
            require_version_bump: false,
            calls: None,
        }
    }

    /// Names the suite: its tests become `NAME::tools::…` and its snapshots
    /// `<module>__NAME__…`. Needed when one file holds several suites.
    pub fn name(mut self, name: &str) -> Suite {
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            || ItemKind::ALL.iter().any(|k| k.group() == name)
        {
            self.errors.push(format!(
                "suite name `{}` must be lowercase letters, digits and `_`, and not a kind's group (server, tools, prompts, resources, resource_templates, calls)",
                escape(name),
            ));
        }
        self.name = Some(name.to_owned());
        self
    }

    /// Adds one argument to the server command.
    pub fn arg(mut self, arg: impl Into<String>) -> Suite {
        if let Some(command) = self.command_mut() {
            command.args.push(arg.into());
        }
        self
    }

    /// Adds arguments to the server command.
    pub fn args<I, S>(mut self, args: I) -> Suite
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for arg in args {
            self = self.arg(arg);
        }
        self
    }

    /// Sets an environment variable for the server (the rest of the environment is inherited).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Suite {
        if let Some(command) = self.command_mut() {
            command.env.push((key.into(), value.into()));
        }
        self
    }

    /// The server's working directory; relative paths are taken from the crate's manifest dir
    /// (the default working directory).
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Suite {
        if let Some(command) = self.command_mut() {
            command.cwd = Some(dir.into());
        }
        self
    }

    /// How long the probe may take, start to stop (default 30 s; `MCP_CONTRACT_TIMEOUT`
    /// in seconds overrides).
    pub fn timeout(mut self, timeout: Duration) -> Suite {
        self.timeout = timeout;
        self
    }

    /// Which differences fail outside CI (default: breaking, safety, review).
    pub fn fail_on(mut self, fail_on: FailOn) -> Suite {
        self.fail_on = Some(fail_on);
        self
    }

    /// Which differences fail in CI (default: any drift, so committed snapshots always equal
    /// the live surface).
    pub fn ci_fail_on(mut self, fail_on: FailOn) -> Suite {
        self.ci_fail_on = Some(fail_on);
        self
    }

    /// Replaces the judging policy (class overrides, depth bound).
    pub fn policy(mut self, policy: Policy) -> Suite {
        self.policy = policy;
        self
    }

    /// Redacts the values `selector` picks in every item (e.g. `.serverInfo.version` or
    /// `.inputSchema.properties.*.default`) to `placeholder`, before comparing and before
    /// writing, as insta's redactions do. See [`crate::prepare`] for the selector syntax.
    pub fn redact(mut self, selector: &str, placeholder: impl Into<serde_json::Value>) -> Suite {
        match self.redactions.clone().redact(selector, placeholder) {
            Ok(redactions) => self.redactions = redactions,
            Err(error) => self.errors.push(format!("redact {error}")),
        }
        self
    }

    /// Replaces `pattern` (a regular expression, regex-lite syntax) by `replacement` in every
    /// string of every item, before comparing and before writing: a timezone, a timestamp or a
    /// path a server writes into a description.
    pub fn filter(mut self, pattern: &str, replacement: &str) -> Suite {
        match self.redactions.clone().filter(pattern, replacement) {
            Ok(redactions) => self.redactions = redactions,
            Err(error) => self.errors.push(format!("filter {error}")),
        }
        self
    }

    /// Sets the level of one lint (see [`crate::lint`]): `Level::Deny` fails the item's test,
    /// `Level::Warn` reports it, `Level::Allow` silences it. An unknown rule id is a
    /// configuration error.
    pub fn lint(mut self, rule: &str, level: crate::lint::Level) -> Suite {
        if let Err(error) = self.lints.set_level(rule, level) {
            self.errors.push(error.to_string());
        }
        self
    }

    /// [`Suite::lint`] from a setting written `rule=level` (the attribute's `lints = [..]`).
    pub fn lint_setting(mut self, setting: &str) -> Suite {
        if let Err(error) = self.lints.apply_setting(setting) {
            self.errors.push(error.to_string());
        }
        self
    }

    /// The longest description, in characters, before `description-too-long` (default 1024).
    pub fn description_budget(mut self, chars: usize) -> Suite {
        self.lints.description_budget = chars;
        self
    }

    /// Policy: every tool must declare `readOnlyHint: true` (`policy-not-read-only`, deny).
    pub fn policy_read_only(mut self) -> Suite {
        self.lints.read_only = true;
        self
    }

    /// Policy: no tool may match this name glob (`*` any run, `?` one character):
    /// `forbid("delete_*")` (`policy-forbidden-tool`, deny).
    pub fn forbid(mut self, pattern: impl Into<String>) -> Suite {
        self.lints.forbid.push(pattern.into());
        self
    }

    /// Policy: every tool must state these annotations (`readOnlyHint`, `destructiveHint`, …)
    /// explicitly (`policy-annotation-missing`, deny).
    pub fn require_annotations<I, S>(mut self, names: I) -> Suite
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.lints
            .require_annotations
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// An allow-list file (relative to the crate's manifest dir) of accepted findings; see
    /// [`crate::lint::allow`]. Entries matching nothing, or expired, fail the `server` test.
    pub fn allow_list(mut self, path: impl Into<PathBuf>) -> Suite {
        self.allow_list = Some(path.into());
        self
    }

    /// Version discipline: a breaking or safety change since the accepted contract fails
    /// (`version-bump-missing`) unless the package's version (`CARGO_PKG_VERSION`, see
    /// [`Location::version`]) has a semver-major bump since then (minor for 0.x). The version
    /// is recorded in the `server` snapshot's header (`info.version`) when the contract is
    /// accepted: a new version is drift of the `server` item until accepted. The attribute's
    /// `require_version_bump = true`.
    pub fn require_version_bump(mut self) -> Suite {
        self.require_version_bump = true;
        self
    }

    /// Declared calls: each `<dir>/<tool>/<case>.json` (relative to the crate's manifest dir)
    /// is one `tools/call` of that tool, made after the listings in the suite's session, and
    /// its own test `calls::<tool>::<case>`. A case file holds `{"arguments": {...}}` and
    /// optionally `"expect"` (`"error"`: `isError: true` or a JSON-RPC error; `"tool_error"`;
    /// `"protocol_error"`), `"allow_side_effects": true` (needed for a tool that does not
    /// declare `readOnlyHint: true`), `"timeout_ms"` and `"description"`. The arguments are
    /// validated against the live `inputSchema` before the call (an invalid case is never
    /// sent), the `structuredContent` against the `outputSchema` after it, and the result
    /// (`content`, `structuredContent`, `isError`, after the suite's redactions and filters)
    /// is held to its accepted snapshot `<module>__calls__<tool>__<case>.snap`. No tool is
    /// called unless a case declares it. The attribute's `calls = "tests/calls"`.
    ///
    /// Needs the crate's `calls` feature (a JSON Schema validator); without it, a call is a
    /// compile error saying so.
    pub fn calls<P: Into<PathBuf> + CallsFeature>(mut self, dir: P) -> Suite {
        self.calls = Some(dir.into());
        self
    }

    /// The suite's configuration for the one road: the server's working directory (and a start
    /// command's) resolved against the crate, the allow-list path too.
    fn config(&self, layout: Layout, paths: &Paths) -> Result<SuiteConfig, String> {
        let in_crate = |dir: &Option<PathBuf>| match dir {
            Some(dir) => paths.manifest_dir.join(dir),
            None => paths.manifest_dir.clone(),
        };
        let server = match &self.server {
            Ok(ServerSpec::Stdio(command)) => {
                let mut command = command.clone();
                command.cwd = Some(in_crate(&command.cwd));
                ServerSpec::Stdio(command)
            }
            Ok(ServerSpec::Http(endpoint)) => {
                let mut endpoint = endpoint.clone();
                if let Some(command) = &mut endpoint.start {
                    command.cwd = Some(in_crate(&command.cwd));
                }
                endpoint.ca_file = endpoint.ca_file.map(|path| paths.manifest_dir.join(path));
                ServerSpec::Http(endpoint)
            }
            Ok(spec @ ServerSpec::InProcess(_)) => spec.clone(),
            Err(error) => return Err(error.clone()),
        };
        let mut config = SuiteConfig::new(server, layout);
        config.timeout = self.timeout;
        config.lifecycle = self.lifecycle;
        config.fail_on.clone_from(&self.fail_on);
        config.ci_fail_on.clone_from(&self.ci_fail_on);
        config.policy = self.policy.clone();
        config.redactions = self.redactions.clone();
        config.lints = self.lints.clone();
        config.allow_list = self
            .allow_list
            .as_ref()
            .map(|path| paths.manifest_dir.join(path));
        config.require_version_bump = self.require_version_bump;
        config.version = Some(paths.version.to_owned());
        config.calls = self.calls.as_ref().map(|dir| paths.manifest_dir.join(dir));
        Ok(config)
    }

    /// Records a configuration error (used by the attribute for values only known at run time).
    pub fn invalid(mut self, error: impl Into<String>) -> Suite {
        self.errors.push(error.into());
        self
    }
}

/// A contract test binary: one or more suites, run as one libtest-compatible harness.
#[derive(Debug, Clone)]
pub struct Contract {
    location: Location,
    suites: Vec<Suite>,
}

impl Contract {
    /// A contract for the test file at `location` (use [`crate::here!`]).
    pub fn new(location: Location) -> Contract {
        Contract {
            location,
            suites: Vec::new(),
        }
    }

    /// Adds a suite.
    pub fn suite(mut self, suite: Suite) -> Contract {
        self.suites.push(suite);
        self
    }

    /// Parses the libtest command line, probes every suite, runs one test per item and returns
    /// the process exit code.
    pub fn run(self) -> ExitCode {
        // Servers exit while the suite is judged and its tests run; any still running when
        // this returns (or unwinds) is stopped with its process group.
        let _stops = crate::probe::defer_stops();
        let args = Arguments::from_args();
        let listing = args.list;
        if listing && args.ignored && !args.include_ignored {
            // The ignored tests, as nextest lists them before every run: this harness never
            // makes one, so there is nothing to probe or read.
            return crate::libtest::run(&args, Vec::new()).exit_code();
        }
        let paths = Paths::resolve(&self.location);
        let settings = match Settings::from_env(Some(&paths.workspace_root)) {
            Ok(settings) => Arc::new(settings),
            Err(error) => {
                eprintln!("mcp-contract: {error}");
                return ExitCode::from(101);
            }
        };
        let context = Context::from_env(Mode::Test);
        let summary: Arc<Mutex<Vec<Pending>>> = Arc::default();
        let mut trials = Vec::new();
        let mut filtered = 0;
        let mut duplicates = std::collections::BTreeSet::new();
        for suite in &self.suites {
            if !duplicates.insert(suite.name.clone()) {
                eprintln!(
                    "mcp-contract: two suites share the name {:?}: give each suite its own `name`",
                    suite.name
                );
                return ExitCode::from(101);
            }
            let actions = suite_actions(suite, &self.location, &paths, &context, &args);
            filtered += actions.not_selected;
            trials.extend(self::trials(actions, &settings, &summary));
        }
        let conclusion = crate::libtest::run_filtered(&args, trials, filtered);
        if !listing {
            let pending = summary.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(text) = crate::summary::pending_summary(&pending, &paths.workspace_root) {
                println!("{text}");
            }
        }
        conclusion.exit_code()
    }
}

/// The folders a contract test works in.
#[derive(Debug, Clone)]
struct Paths {
    workspace_root: PathBuf,
    manifest_dir: PathBuf,
    snapshot_dir: PathBuf,
    source: String,
    version: &'static str,
}

impl Paths {
    fn resolve(location: &Location) -> Paths {
        let manifest_dir = PathBuf::from(location.manifest_dir);
        let file = Path::new(location.file);
        // `file!()` is relative to the workspace root, which is an ancestor of the manifest dir.
        let workspace_root = crate::env::workspace_root()
            .or_else(|| {
                manifest_dir
                    .ancestors()
                    .find(|dir| dir.join(file).is_file())
                    .map(Path::to_path_buf)
            })
            .unwrap_or_else(|| manifest_dir.clone());
        let test_file = workspace_root.join(file);
        let snapshot_dir = test_file
            .parent()
            .map(|dir| dir.join("snapshots"))
            .unwrap_or_else(|| manifest_dir.join("tests").join("snapshots"));
        Paths {
            version: location.version,
            source: location.file.replace('\\', "/"),
            workspace_root,
            manifest_dir,
            snapshot_dir,
        }
    }
}

/// Takes one suite down the one road ([`crate::run::run`]) for the tests this process runs,
/// and says what the suite says once.
fn suite_actions(
    suite: &Suite,
    location: &Location,
    paths: &Paths,
    context: &Result<Context<'static>, String>,
    args: &Arguments,
) -> SuiteActions {
    let layout = Layout {
        dir: paths.snapshot_dir.clone(),
        module: location.crate_name.to_owned(),
        suite: suite.name.clone(),
        source: Some(paths.source.clone()),
        line: Some(location.line),
        server_label: String::new(),
    };
    let name = suite.name.as_deref();
    let unusable = |message: String| {
        SuiteActions::of(name, Err(crate::run::unusable(&layout, message)), args.list)
    };
    if !suite.errors.is_empty() {
        return unusable(crate::run::misconfigured(&suite.errors));
    }
    let config = match suite.config(layout.clone(), paths) {
        Ok(config) => config,
        Err(error) => return unusable(error),
    };
    let mut context = match context {
        Ok(context) => context.clone(),
        Err(error) => return unusable(error.clone()),
    };
    let select = |key: &ItemKey| args.selects(&crate::action::test_name(name, key));
    context.share_probe = true;
    context.listing = args.list;
    context.select = Some(&select);
    // `--exact NAME`, as nextest runs every test: at most that one item is selected.
    let exact_one =
        (args.exact && args.filters.len() == 1 && args.skip.is_empty() && !args.ignored)
            .then(|| args.filters[0].as_str());
    // A name outside this suite's prefix selects none of its items ("" names no test).
    let prefix = name.map(|n| format!("{n}::")).unwrap_or_default();
    context.only = exact_one.map(|name| name.strip_prefix(prefix.as_str()).unwrap_or(""));
    let outcome = crate::run::run(&config, &context);
    let actions = SuiteActions::of(name, outcome.result, args.list);
    for line in &actions.said {
        eprintln!("mcp-contract: {line}");
    }
    actions
}

/// One trial per action: write what insta would write, then conclude as the action says.
fn trials(
    actions: SuiteActions,
    settings: &Arc<Settings>,
    summary: &Arc<Mutex<Vec<Pending>>>,
) -> Vec<Trial> {
    actions
        .items
        .into_iter()
        .map(|action| {
            let settings = Arc::clone(settings);
            let summary = Arc::clone(summary);
            Trial::test(action.test_name().to_owned(), move || {
                run_item(&action, &settings, &summary)
            })
        })
        .collect()
}

/// One item's test: the action's writes by insta's rules, its line in the summary, and its
/// conclusion.
fn run_item(
    action: &ItemAction,
    settings: &Settings,
    summary: &Mutex<Vec<Pending>>,
) -> Result<(), Failed> {
    let written = match action.write() {
        Write::Nothing => Written::NotWritten,
        Write::Reference(path) => {
            reference(settings, path)?;
            Written::NotWritten
        }
        Write::Record {
            path,
            baseline,
            recorded,
        } => {
            let written = snapshot::record(settings, path, baseline, recorded)
                .map_err(|e| Failed::from(format!("cannot write the snapshot: {e}")))?;
            reference(settings, path)?;
            written
        }
    };
    if let Some(pending) = action.pending(&written) {
        summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(pending);
    }
    let base = std::env::current_dir().unwrap_or_default();
    match action.conclude(&written, settings.force_pass, &base) {
        Conclusion::Pass => Ok(()),
        Conclusion::ForcedPass(message) => {
            eprintln!("mcp-contract: {message}");
            Ok(())
        }
        Conclusion::Fail(message) => Err(Failed::from(message)),
    }
}

/// Records that a test referenced its snapshot (`INSTA_SNAPSHOT_REFERENCES_FILE`).
fn reference(settings: &Settings, path: &Path) -> Result<(), Failed> {
    snapshot::add_reference(settings, path)
        .map_err(|e| Failed::from(format!("cannot record the snapshot reference: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{Change, Class, Judgement};
    use crate::check::{State, SuiteReport, Verdict};
    use crate::snapshot::{Metadata, SnapshotFile};
    use std::path::PathBuf;

    /// The action of a suite's one verdict.
    fn action(verdict: Verdict) -> ItemAction {
        let report = SuiteReport {
            verdicts: vec![verdict],
            unjudged: Vec::new(),
            notes: Vec::new(),
            first_recording: false,
        };
        SuiteActions::of(None, Ok(report), false).items.remove(0)
    }

    /// A `server` verdict whose body matches the accepted one: only its header (the recorded
    /// version) is news.
    fn header_only(dir: &Path, judgement: Judgement, failing: bool) -> Verdict {
        let contents = snapshot::render_item(&ItemKey::server(), Some(&serde_json::json!({})));
        let header = |version: &str| Metadata {
            info: Some(serde_json::json!({ "version": version })),
            ..Metadata::default()
        };
        Verdict {
            key: ItemKey::server(),
            snap_path: dir.join("contract__server.snap"),
            accepted: Some(SnapshotFile::new(header("1.0.0"), contents.clone())),
            recorded: SnapshotFile::new(header("2.0.0"), contents),
            state: State::Changed,
            judgement,
            failing,
            findings: Vec::new(),
            no_result: false,
        }
    }

    fn temp(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-harness-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_new_recorded_version_is_written_as_a_pending_snapshot() {
        let dir = temp("version");
        let verdict = header_only(&dir, Judgement::default(), false);
        let summary = Mutex::new(Vec::new());
        run_item(&action(verdict), &Settings::default(), &summary).expect("passes");
        let pending = std::fs::read_to_string(dir.join("contract__server.snap.new"))
            .expect("a pending snapshot carries the new version");
        assert!(pending.contains("version: 2.0.0"), "{pending}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_bump_fails_and_writes_nothing() {
        let dir = temp("bump");
        let change = Change::new(
            crate::version::RULE,
            Class::Breaking,
            ItemKey::server(),
            "version",
            (None, None),
            "release it as 2.0.0 or later",
        );
        let mut judgement = Judgement::default();
        judgement.changes.push(change);
        let mut verdict = header_only(&dir, judgement, true);
        verdict.recorded.metadata = verdict.accepted.clone().expect("accepted").metadata;
        let summary = Mutex::new(Vec::new());
        let settings = Settings {
            force_pass: true,
            ..Settings::default()
        };
        let error = run_item(&action(verdict), &settings, &summary)
            .expect_err("not passed by INSTA_FORCE_PASS");
        assert!(
            format!("{error:?}").contains("require_version_bump"),
            "{error:?}"
        );
        assert!(!dir.join("contract__server.snap.new").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
