//! One server under test with one configuration: the [`Suite`] builder the attribute expands to
//! (each key one call), its mistakes recorded as [`ConfigError`]s that fail every test of the
//! suite with one message, and the [`SuiteConfig`] it becomes for the one road.

use crate::change::Policy;
use crate::check::{FailOn, Layout};
use crate::config::SuiteConfig;
use crate::error::{Cause, ConfigError};
use crate::escape::escape;
use crate::probe::{HeaderValue, HttpEndpoint, Lifecycle, ProxySetting, ServerCommand, ServerSpec};
use crate::surface::ItemKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// What [`Suite::consumers`] asks of its argument: every type has it when the `consumers`
/// feature is on, none without it, so that naming consumers in a build without consumer
/// contracts is a compile error that says which feature to enable.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "consumer contracts (`consumers = ...`, `Suite::consumers`) need the `consumers` feature of mcp-contract-test",
    label = "naming consumers needs the `consumers` feature",
    note = "in Cargo.toml: mcp-contract-test = {{ version = \"0.1\", features = [\"consumers\"] }}"
)]
pub trait ConsumersFeature {}

#[cfg(feature = "consumers")]
impl<T: ?Sized> ConsumersFeature for T {}

/// One server under test with one configuration: its items become tests.
#[derive(Debug, Clone)]
pub struct Suite {
    name: Option<String>,
    server: Result<ServerSpec, ConfigError>,
    timeout: Duration,
    fail_on: Option<FailOn>,
    ci_fail_on: Option<FailOn>,
    policy: Policy,
    redactions: crate::prepare::Redactions,
    lifecycle: Lifecycle,
    errors: Vec<ConfigError>,
    lints: crate::lint::Lints,
    allow_list: Option<PathBuf>,
    require_version_bump: bool,
    calls: Option<PathBuf>,
    consumers: Option<PathBuf>,
    usage_aware: bool,
}

impl Suite {
    /// A server started from a command line, split as a POSIX shell would split it
    /// (`python3 my_server.py --stdio`).
    pub fn command(line: &str) -> Suite {
        let command = ServerCommand::from_command_line(line)
            .map(ServerSpec::Stdio)
            .map_err(|e| {
                let message = format!("cannot split the server command `{}`: {e}", escape(line));
                ConfigError::new("server", line, message).caused_by(Cause::of(e))
            });
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
        Suite::with(Ok(ServerSpec::InProcess(crate::probe::InProcess::rmcp(
            make,
        ))))
    }

    /// How the probe opens the session: [`Lifecycle::Initialize`] (the default),
    /// [`Lifecycle::Discover`] (the stateless `server/discover` of protocol 2026-07-28) or
    /// [`Lifecycle::Auto`] (discover, falling back to initialize). The handshake used is written
    /// in the header of the `server` snapshot.
    pub fn lifecycle(mut self, lifecycle: Lifecycle) -> Suite {
        self.lifecycle = lifecycle;
        self
    }

    /// Adds a request header to an HTTP suite. Take secrets from the environment:
    /// `HeaderValue::parse("Bearer ${MCP_TOKEN}")`; no header value is ever shown in a test
    /// name, a snapshot, a report or a message.
    pub fn header(mut self, name: impl Into<String>, value: HeaderValue) -> Suite {
        match &mut self.server {
            Ok(ServerSpec::Http(endpoint)) => endpoint.headers.push((name.into(), value)),
            Ok(_) => self.errors.push(not_http("headers", "`header`")),
            Err(_) => {}
        }
        self
    }

    /// Adds a header written as `"Name: value"`, the value parsed by [`HeaderValue::parse`]
    /// (`"Authorization: Bearer ${MCP_TOKEN}"` takes the token from the environment at probe
    /// time): the attribute's `headers = [..]`, through [`crate::__macro::header_line`]. The
    /// input a mistake records is the header's name, never its value.
    pub(crate) fn header_line(mut self, line: &str) -> Suite {
        let parsed = line.split_once(':').and_then(|(name, value)| {
            let name = name.trim();
            (!name.is_empty()).then(|| (name.to_owned(), HeaderValue::parse(value.trim())))
        });
        match parsed {
            Some((name, Ok(value))) => self.header(name, value),
            Some((name, Err(e))) => {
                let message = format!("header {}: {e}", escape(&name));
                let error = ConfigError::new("headers", &name, message).caused_by(Cause::of(e));
                self.errors.push(error);
                self
            }
            None => {
                let message = "a header is written \"Name: value\"";
                self.errors.push(ConfigError::new("headers", "", message));
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
            (Ok(ServerSpec::Http(_)), Err(e)) => {
                let message = format!("cannot split the start command `{}`: {e}", escape(line));
                let error = ConfigError::new("start", line, message).caused_by(Cause::of(e));
                self.errors.push(error);
            }
            (Ok(_), _) => self.errors.push(not_http("start", "`start`")),
            (Err(_), _) => {}
        }
        self
    }

    /// For an HTTP suite with [`Suite::start`]: the server is ready once a line of its stdout
    /// or stderr contains `text` (instead of once its port accepts connections). On another
    /// suite, or without `start`, it is a configuration error, as `start` is.
    pub fn ready_line(mut self, text: impl Into<String>) -> Suite {
        match &mut self.server {
            Ok(ServerSpec::Http(endpoint)) => endpoint.ready_line = Some(text.into()),
            Ok(_) => self.errors.push(not_http("ready_line", "`ready_line`")),
            Err(_) => {}
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
            (Ok(ServerSpec::Http(_)), Err(e)) => self.errors.push(e),
            (Ok(_), _) => self.errors.push(not_http("proxy", "`proxy`")),
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
            Ok(_) => self.errors.push(not_http("ca_file", "`ca_file`")),
            Err(_) => {}
        }
        self
    }

    /// The command an argument, variable or directory applies to: the stdio server, or the
    /// start command of an HTTP suite.
    fn command_mut(&mut self, setting: &'static str) -> Option<&mut ServerCommand> {
        match &mut self.server {
            Ok(ServerSpec::Stdio(command)) => Some(command),
            Ok(ServerSpec::Http(endpoint)) => endpoint.start.as_mut(),
            Ok(ServerSpec::InProcess(_)) => {
                self.errors.push(ConfigError::new(
                    setting,
                    "",
                    "`args`, `env` and `cwd` do not apply to an in-process server: pass its \
                     configuration to the handler's constructor",
                ));
                None
            }
            Err(_) => None,
        }
    }

    fn with(server: Result<ServerSpec, ConfigError>) -> Suite {
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
            consumers: None,
            usage_aware: false,
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
            self.errors.push(ConfigError::new(
                "name",
                name,
                format!(
                    "suite name `{}` must be lowercase letters, digits and `_`, and not a kind's group (server, tools, prompts, resources, resource_templates, calls, consumers)",
                    escape(name),
                ),
            ));
        }
        self.name = Some(name.to_owned());
        self
    }

    /// Adds one argument to the server command.
    pub fn arg(mut self, arg: impl Into<String>) -> Suite {
        if let Some(command) = self.command_mut("args") {
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
        if let Some(command) = self.command_mut("env") {
            command.env.push((key.into(), value.into()));
        }
        self
    }

    /// The server's working directory; relative paths are taken from the crate's manifest dir
    /// (the default working directory).
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Suite {
        if let Some(command) = self.command_mut("cwd") {
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

    /// Replaces the judging policy: its per-rule class overrides and its depth bound. What
    /// fails is said in one way only, with [`Suite::fail_on`] and [`Suite::ci_fail_on`]: a
    /// policy whose `failing` set is not the default is a configuration error (it would be
    /// replaced by what `fail_on` says without a word).
    pub fn policy(mut self, policy: Policy) -> Suite {
        if policy.failing != Policy::default().failing {
            self.errors.push(ConfigError::new(
                "policy",
                "",
                "a policy's `failing` classes do not say what fails: use `fail_on` (and \
                 `ci_fail_on` for CI) for that; a policy carries class overrides and the depth \
                 bound",
            ));
        }
        self.policy = policy;
        self
    }

    /// Redacts the values `selector` picks in every item (e.g. `.serverInfo.version` or
    /// `.inputSchema.properties.*.default`) to `placeholder`, before comparing and before
    /// writing, as insta's redactions do. See [`crate::prepare`] for the selector syntax.
    pub fn redact(mut self, selector: &str, placeholder: impl Into<serde_json::Value>) -> Suite {
        match self.redactions.clone().redact(selector, placeholder) {
            Ok(redactions) => self.redactions = redactions,
            Err(error) => {
                let message = format!("redact {error}");
                let error =
                    ConfigError::new("redact", selector, message).caused_by(Cause::of(error));
                self.errors.push(error);
            }
        }
        self
    }

    /// Replaces `pattern` (a regular expression, regex-lite syntax) by `replacement` in every
    /// string of every item, before comparing and before writing: a timezone, a timestamp or a
    /// path a server writes into a description.
    pub fn filter(mut self, pattern: &str, replacement: &str) -> Suite {
        match self.redactions.clone().filter(pattern, replacement) {
            Ok(redactions) => self.redactions = redactions,
            Err(error) => {
                let message = format!("filter {error}");
                let error =
                    ConfigError::new("filters", pattern, message).caused_by(Cause::of(error));
                self.errors.push(error);
            }
        }
        self
    }

    /// Sets the level of one lint (see [`crate::lint`]): `Level::Deny` fails the item's test,
    /// `Level::Warn` reports it, `Level::Allow` silences it. An unknown rule id is a
    /// configuration error.
    pub fn lint(mut self, rule: &str, level: crate::lint::Level) -> Suite {
        if let Err(error) = self.lints.set_level(rule, level) {
            let message = error.to_string();
            let error = ConfigError::new("lints", rule, message).caused_by(Cause::of(error));
            self.errors.push(error);
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
    /// [`crate::Location::version`]) has a semver-major bump since then (minor for 0.x). The version
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

    /// Consumers: each `<dir>/<name>.json` (relative to the crate's manifest dir) is one
    /// consumer's usage file — what an agent or client really uses, recorded by
    /// `mcp-contract record --out <dir>/<name>.json -- <server command>` or written by hand
    /// (`docs/usage.schema.json`) — and its own test `consumers::<name>`. The test fails when
    /// the live surface no longer serves what the consumer uses (an item gone, an argument
    /// set that no longer validates, a field it reads no longer promised: the `consumer-…`
    /// rules of docs/rules.md), naming the item, the path and the rule; it passes when the
    /// server breaks something this consumer never used. A consumer has no snapshot: its
    /// usage file is its contract. The attribute's `consumers = "tests/consumers"`.
    ///
    /// Needs the crate's `consumers` feature; without it, a call is a compile error saying so.
    pub fn consumers<P: Into<PathBuf> + ConsumersFeature>(mut self, dir: P) -> Suite {
        self.consumers = Some(dir.into());
        self
    }

    /// Usage-aware verdicts: a breaking change of an item that breaks none of the suite's
    /// consumers ([`Suite::consumers`], which it needs) passes as "breaking, no known
    /// consumer" instead of failing, except where any drift fails (CI's default). The default
    /// stays fail-closed. The attribute's `usage_aware = true`.
    pub fn usage_aware(mut self) -> Suite {
        self.usage_aware = true;
        self
    }

    /// The suite's configuration for the one road: the server's working directory (and a start
    /// command's) resolved against the crate, the allow-list path too.
    /// Check [`Suite::errors`] first.
    ///
    /// # Errors
    ///
    /// The server cannot be used (a command line that does not split).
    pub(crate) fn config(
        &self,
        layout: Layout,
        manifest_dir: &Path,
        version: &str,
    ) -> Result<SuiteConfig, ConfigError> {
        let in_crate = |dir: &Option<PathBuf>| match dir {
            Some(dir) => manifest_dir.join(dir),
            None => manifest_dir.to_path_buf(),
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
                endpoint.ca_file = endpoint.ca_file.map(|path| manifest_dir.join(path));
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
        config.allow_list = self.allow_list.as_ref().map(|path| manifest_dir.join(path));
        config.require_version_bump = self.require_version_bump;
        // The package's version is the suite's only for the version requirement: recorded for
        // every suite, each package release would be drift of every contract.
        config.version = self.require_version_bump.then(|| {
            crate::check::ReleaseVersion::new(version, crate::check::VersionSource::Package)
        });
        config.calls = self.calls.as_ref().map(|dir| manifest_dir.join(dir));
        config.consumers = self.consumers.as_ref().map(|dir| manifest_dir.join(dir));
        config.usage_aware = self.usage_aware;
        Ok(config)
    }

    /// Records a configuration error of the suite's own, for a setting only known at run time
    /// (a server command read from the environment, say): every test of the suite fails with
    /// `message`, as with any other mistake in its settings.
    pub fn invalid(mut self, message: impl Into<String>) -> Suite {
        self.errors
            .push(ConfigError::new("suite", "", message.into()));
        self
    }

    /// The mistakes in the suite's settings, each a configuration error of its own (what
    /// depends on the order of the calls, such as `ready_line` without `start`, is checked
    /// here, once every call was made).
    pub(crate) fn errors(&self) -> Vec<ConfigError> {
        let mut errors = self.errors.clone();
        if let Ok(ServerSpec::Http(endpoint)) = &self.server {
            if endpoint.ready_line.is_some() && endpoint.start.is_none() {
                errors.push(ConfigError::new(
                    "ready_line",
                    "",
                    "`ready_line` needs `start`: it says when the server the suite starts is \
                     ready",
                ));
            }
        }
        errors
    }

    /// The suite's name, if it has one (its tests' prefix).
    pub(crate) fn suite_name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// A setting given to a suite that is not an HTTP suite.
fn not_http(setting: &'static str, what: &str) -> ConfigError {
    ConfigError::new(
        setting,
        "",
        format!("{what} applies to HTTP suites only (give a `url`)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Class;

    fn http(url: &str) -> Suite {
        Suite::with(Ok(ServerSpec::Http(HttpEndpoint::new(url))))
    }

    fn settings(suite: &Suite) -> Vec<&'static str> {
        suite.errors().iter().map(ConfigError::setting).collect()
    }

    /// `ready_line` is reported like `start`, `proxy` and `ca_file`: on a stdio suite, and on
    /// an HTTP suite that starts no server, it is a configuration error naming the setting.
    #[test]
    fn ready_line_misuse_is_a_configuration_error_like_its_siblings() {
        let stdio = Suite::command("python3 server.py").ready_line("listening");
        assert_eq!(settings(&stdio), ["ready_line"]);
        let siblings = Suite::command("python3 server.py")
            .start("x")
            .proxy("off")
            .ca_file("ca.pem");
        assert_eq!(settings(&siblings), ["start", "proxy", "ca_file"]);
        let no_start = http("http://127.0.0.1:9/mcp").ready_line("listening");
        assert_eq!(settings(&no_start), ["ready_line"]);
        let errors = no_start.errors();
        assert!(
            errors[0].to_string().contains("needs `start`"),
            "{errors:?}"
        );
        // The order of the calls does not matter.
        let started = http("http://127.0.0.1:{port}/mcp")
            .ready_line("listening")
            .start("python3 server.py --port {port}");
        assert!(started.errors().is_empty(), "{:?}", started.errors());
    }

    /// A mistake keeps which setting it is about and the error beneath it.
    #[test]
    fn configuration_errors_name_their_setting_and_keep_their_cause() {
        use std::error::Error as _;
        let suite = Suite::command("python3 server.py")
            .redact("no-dot", "[x]")
            .lint("no-such-rule", crate::lint::Level::Deny)
            .name("Not A Name");
        let errors = suite.errors();
        assert_eq!(settings(&suite), ["redact", "lints", "name"]);
        assert!(errors[0].source().is_some(), "{errors:?}");
        assert!(errors[1].source().is_some(), "{errors:?}");
        let unsplit = Suite::command("python3 'server.py");
        let layout = Layout {
            dir: PathBuf::from("snapshots"),
            module: "contract".to_owned(),
            suite: None,
            source: None,
            line: None,
            server_label: String::new(),
        };
        let error = unsplit
            .config(layout, Path::new("."), "0")
            .expect_err("an unbalanced quote");
        assert_eq!(error.setting(), "server");
    }

    /// What fails is said with `fail_on` alone: a policy that says it too is refused.
    #[test]
    fn a_policy_cannot_say_what_fails() {
        let mut policy = Policy::default();
        policy
            .overrides
            .insert("description-changed".to_owned(), Class::Breaking);
        assert!(Suite::command("x")
            .policy(policy.clone())
            .errors()
            .is_empty());
        policy.failing.insert(Class::Cosmetic);
        assert_eq!(settings(&Suite::command("x").policy(policy)), ["policy"]);
    }
}
