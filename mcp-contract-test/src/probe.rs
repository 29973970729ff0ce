//! The probe: start a server, shake hands, read every page of every listing, stop it.
//!
//! It never calls a tool, reads a resource or gets a prompt: the only requests sent are
//! `initialize`, `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
//! (plus the `notifications/initialized` notification and answers to the server's own requests).
//!
//! The probe speaks newline-delimited JSON-RPC 2.0 itself instead of using a typed MCP client,
//! because typed clients drop fields they do not know and reject a whole list over one odd item;
//! a contract must record what the server advertised, byte for byte. It is synchronous (std
//! threads and channels) so that every user of this dev-dependency does not compile an async
//! runtime.
//!
//! The client declares no capabilities in `initialize` (`capabilities: {}`): a server may advertise
//! more tools to clients that support sampling, elicitation or roots, and the contract is about
//! the base surface every client sees.
//!
//! Only the listings whose capability the server advertises are requested (`resources` covers
//! resource templates too; a capability that is `null` or `false` counts as absent); each one not
//! advertised becomes one note in [`Probe::notes`]. A listing that is advertised but answered
//! with -32601 (method not found) is noted and recorded as empty. An empty `nextCursor` ends a
//! listing like an absent one. Requests the server sends meanwhile are answered (`ping` with `{}`,
//! anything else with -32601); its notifications are ignored.
//!
//! On stdio, lines that are not JSON-RPC (banners, logs printed to stdout) are skipped, but
//! counted and quoted in time-out and exit messages; a JSON array of objects is read as a batch.
//!
//! The session logic is written against the [`Transport`] trait so that another transport (HTTP)
//! can reuse it through [`probe_transport`]; [`probe_stdio`] is the stdio one.

mod command;
#[cfg(feature = "http")]
mod http;
mod in_process;
mod message;
mod output_tail;
mod process_group;
mod session;
mod stdio;
mod stopping;
#[cfg(feature = "https")]
mod tls;

pub use command::split_command_line;
pub use in_process::InProcess;
pub use message::Message;
pub use session::{Answer, Transport, TransportError};
pub use stopping::{defer_stops, ServerSession};

use crate::error::ConfigError;
use crate::surface::Surface;
use std::fmt::{self, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How to start a server as a subprocess speaking MCP over stdio.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServerCommand {
    /// The program to run (looked up on PATH like a shell would).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables (the rest is inherited).
    pub env: Vec<(String, String)>,
    /// Working directory (inherited when `None`).
    pub cwd: Option<PathBuf>,
}

impl ServerCommand {
    /// A command running `program` with `args`, inheriting environment and working directory.
    pub fn new<I, S>(program: impl Into<String>, args: I) -> ServerCommand
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ServerCommand {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
        }
    }

    /// Parses a command line the way a POSIX shell splits words (see [`split_command_line`]).
    /// No shell is involved: no variables, globs, pipes or redirections.
    ///
    /// # Errors
    ///
    /// The line is empty, or has an unbalanced quote or a trailing backslash
    /// ([`ConfigError::setting`] is `server`).
    pub fn from_command_line(line: &str) -> Result<ServerCommand, ConfigError> {
        let mut words = split_command_line(line)
            .map_err(|message| ConfigError::new("server", line, message))?
            .into_iter();
        let program = words.next().ok_or_else(|| {
            ConfigError::new(
                "server",
                line,
                "the server command line is empty: give the program to run, e.g. `npx -y \
                 @scope/server`",
            )
        })?;
        Ok(ServerCommand {
            program,
            args: words.collect(),
            env: Vec::new(),
            cwd: None,
        })
    }

    /// The credentials in this command: values of secret-named flags and `NAME=value`
    /// arguments, credential-shaped words, URL passwords, and the values of secret-named (or
    /// secret-shaped) environment variables. Removed from anything the server echoes back.
    pub fn secrets(&self) -> Vec<String> {
        let words: Vec<String> = std::iter::once(&self.program)
            .chain(&self.args)
            .cloned()
            .collect();
        let mut found: Vec<String> = crate::prepare::secrets::scrub_command(&words)
            .1
            .into_iter()
            .map(|(_, secret)| secret)
            .collect();
        found.extend(
            self.env
                .iter()
                .filter_map(|(name, value)| crate::prepare::secrets::scrub_env(name, value).1)
                .map(|(_, secret)| secret),
        );
        found
    }

    /// The command line as a user would type it, each word quoted when the shell needs it.
    ///
    /// Environment variables are left out on purpose: they often hold tokens.
    /// Credentials in the arguments (`--api-key VALUE`, `TOKEN=…`, key shapes, URL passwords)
    /// are replaced by their stable placeholders (see
    /// [`crate::prepare::secrets::scrub_command`]): this string ends up in snapshot headers,
    /// reports, error messages and CI logs.
    pub fn display(&self) -> String {
        let words: Vec<String> = std::iter::once(&self.program)
            .chain(&self.args)
            .cloned()
            .collect();
        crate::prepare::secrets::scrub_command(&words)
            .0
            .iter()
            .map(|word| command::quote_word(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Limits and choices of one probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeOptions {
    /// How long the whole probe may take, from spawning to the last listing. Stopping the server
    /// afterwards adds at most about three seconds (see [`probe_stdio`]).
    pub timeout: Duration,
    /// The protocol version asked for in `initialize` (the server's answer is accepted as is).
    pub protocol_version: String,
    /// How many pages one listing may have before it is an error.
    pub max_pages: usize,
    /// Which handshake opens the session (default [`Lifecycle::Initialize`]).
    pub lifecycle: Lifecycle,
}

/// How a probe opens its session with the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Lifecycle {
    /// `initialize` then `notifications/initialized` (every protocol version up to 2025-11-25).
    #[default]
    Initialize,
    /// The stateless lifecycle of protocol 2026-07-28: `server/discover`, no `initialize`, the
    /// protocol version and client info in every request's `_meta`. A server that does not
    /// know `server/discover` is an error.
    Discover,
    /// `server/discover` first; a server that answers it with a JSON-RPC error (-32601, method
    /// not found, from a server older than 2026-07-28) gets `initialize` instead.
    Auto,
}

impl Lifecycle {
    /// Parses `initialize`, `discover` or `auto`.
    ///
    /// # Errors
    ///
    /// Any other word, with the three that are allowed.
    pub fn parse(text: &str) -> Result<Lifecycle, ConfigError> {
        match text.trim() {
            "initialize" => Ok(Lifecycle::Initialize),
            "discover" => Ok(Lifecycle::Discover),
            "auto" => Ok(Lifecycle::Auto),
            other => Err(ConfigError::new(
                "lifecycle",
                text,
                format!(
                    "unknown lifecycle `{}`: expected initialize, discover or auto",
                    escape_untrusted(other)
                ),
            )),
        }
    }
}

/// The handshake a probe actually used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Handshake {
    /// `initialize` (the session lifecycle).
    #[default]
    Initialize,
    /// `server/discover` (the stateless lifecycle of 2026-07-28).
    Discover,
}

impl Handshake {
    /// The method that opened the session: `initialize` or `server/discover`.
    pub fn method(self) -> &'static str {
        match self {
            Handshake::Initialize => "initialize",
            Handshake::Discover => "server/discover",
        }
    }
}

impl Default for ProbeOptions {
    fn default() -> ProbeOptions {
        ProbeOptions {
            timeout: Duration::from_secs(30),
            protocol_version: "2025-11-25".to_owned(),
            max_pages: 1000,
            lifecycle: Lifecycle::Initialize,
        }
    }
}

/// What a probe recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The surface exactly as advertised.
    pub surface: Surface,
    /// Things worth saying once, e.g. "the server does not advertise prompts".
    pub notes: Vec<String>,
    /// The handshake that opened the session (recorded in the server snapshot's header, never in
    /// its body).
    pub handshake: Handshake,
    /// Non-spec spellings of the listings' own members (`next_cursor`, `resource_templates`),
    /// which belong to no item: judged with the items' own spellings when the surface is
    /// prepared (`non-spec-spelling`).
    pub respellings: Vec<crate::prepare::spelling::Respelling>,
}

/// The step a probe was at when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Starting the process.
    Spawn,
    /// `initialize` and `notifications/initialized`.
    Initialize,
    /// One of the `*/list` requests.
    List,
    /// A request sent in the session after the listings (a declared `tools/call`).
    Call,
}

impl Phase {
    /// The phase as a word for messages: "start-up", "initialize", "listing", "call".
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Spawn => "start-up",
            Phase::Initialize => "initialize",
            Phase::List => "listing",
            Phase::Call => "call",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// What kind of failure a [`ProbeError`] is, for callers that react differently to each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeErrorKind {
    /// The program does not exist (not on PATH, or no such file).
    CommandNotFound,
    /// The program could not be started for another reason (permissions, working directory).
    SpawnFailed,
    /// The server exited, or closed its stdout or stdin, before answering.
    Exited,
    /// The probe's time limit ran out while a request was pending.
    TimedOut,
    /// The server answered a request with a JSON-RPC error.
    ServerError {
        /// The JSON-RPC error code (0 when the server sent none that fits an `i64`).
        code: i64,
    },
    /// The server's answer does not have the shape MCP requires (result not an object, an item
    /// without its name, a list that is not an array).
    Malformed,
    /// A listing repeated a cursor or had more than [`ProbeOptions::max_pages`] pages.
    EndlessPagination,
    /// The server wrote something on stdout that cannot be read as messages at all: invalid
    /// UTF-8, or a line over 16 MiB.
    InvalidOutput,
    /// Reading from or writing to the server failed at the operating-system level.
    Io,
    /// The suite's own configuration cannot be used (a bad URL, an unset environment variable
    /// for a header, a header value with a line break).
    Configuration,
    /// Nothing answers at the endpoint's address (connection refused, unknown host, no answer
    /// to connect).
    Unreachable,
    /// The endpoint answered 401 or 403: credentials are missing or refused.
    AuthRequired,
    /// The endpoint answered 404: the path is wrong (or the session was dropped).
    NotFound,
    /// What answers at the URL is not a Streamable HTTP MCP endpoint (a web page, 405 on POST,
    /// a body that is not JSON-RPC).
    NotMcp,
    /// The endpoint answered another HTTP error status.
    HttpStatus {
        /// The HTTP status code.
        status: u16,
    },
    /// An `https://` endpoint's TLS handshake failed: its certificate is not trusted or does not
    /// name the host, or what answers does not speak TLS.
    Tls,
    /// The HTTP proxy could not be reached, wants credentials (407), or would not open a tunnel
    /// to the server.
    Proxy,
    /// The endpoint's redirects cannot be followed: a loop, more than five, a redirect to
    /// another scheme or from https to http.
    Redirect,
    /// The endpoint refused the `Host` header it was reached by (421, DNS-rebinding protection).
    HostRejected,
    /// The endpoint no longer accepts the session it opened (404 or 400 on a request that
    /// carried its `Mcp-Session-Id`), or demands a session id it never gave.
    SessionRejected,
}

impl ProbeErrorKind {
    /// What the user can do about it, one sentence.
    pub fn advice(self) -> &'static str {
        match self {
            ProbeErrorKind::CommandNotFound => {
                "check the program name and PATH (or give an absolute path), and that it is installed"
            }
            ProbeErrorKind::SpawnFailed => {
                "check that the program is executable and that the working directory exists"
            }
            ProbeErrorKind::Exited => {
                "run the command by hand to see why it stops: it must keep running and answer \
                 JSON-RPC on stdout until its stdin is closed"
            }
            ProbeErrorKind::TimedOut => {
                "check that the command starts an MCP server speaking newline-delimited JSON-RPC \
                 on stdout (logs belong on stderr); if it is only slow to start, raise the probe \
                 timeout"
            }
            ProbeErrorKind::ServerError { .. } => {
                "the server refused the request: its message and stderr above say why"
            }
            ProbeErrorKind::Malformed => {
                "the server's answer does not follow the MCP schema: fix the server (the probe \
                 records items as advertised but needs each one's name)"
            }
            ProbeErrorKind::EndlessPagination => {
                "fix the server's pagination (each nextCursor must lead further and end), or raise \
                 max_pages if the list really is that long"
            }
            ProbeErrorKind::InvalidOutput => {
                "stdout is the protocol channel: the server must write only UTF-8 JSON-RPC lines \
                 there and send logs to stderr"
            }
            ProbeErrorKind::Io => "check the system's resources (file descriptors, memory)",
            ProbeErrorKind::Configuration => "fix the suite's configuration as the message says",
            ProbeErrorKind::Unreachable => {
                "is the server running at that URL? Start it (or give the suite a start command) \
                 and check the host and port"
            }
            ProbeErrorKind::AuthRequired => {
                "send credentials with a header whose value comes from an environment variable \
                 (e.g. Authorization: Bearer ${MCP_TOKEN}) and check that the variable holds a \
                 valid token"
            }
            ProbeErrorKind::NotFound => {
                "wrong path? MCP endpoints are usually served at /mcp (e.g. http://HOST:PORT/mcp)"
            }
            ProbeErrorKind::NotMcp => {
                "point the suite at an MCP server: a command must start one that answers JSON-RPC \
                 on stdout, a URL must be its Streamable HTTP endpoint (usually /mcp), not a web \
                 page or an old HTTP+SSE endpoint"
            }
            ProbeErrorKind::HttpStatus { .. } => {
                "the server failed to answer: its logs say why (the status and body are above)"
            }
            ProbeErrorKind::Tls => {
                "the server's certificate must be trusted and name the URL's host: for a private \
                 or self-signed CA give its PEM file (the suite's `ca_file`, --ca-file, or \
                 MCP_CONTRACT_CA_FILE=path/to/ca.pem); there is no switch to skip verification"
            }
            ProbeErrorKind::Proxy => {
                "check the proxy: its address (http://HOST:PORT), its credentials (USER:PASSWORD@ \
                 before the host in its URL), and that it may open a tunnel (CONNECT) to the server's port; the suite's \
                 `proxy` setting (--proxy) wins over HTTPS_PROXY/HTTP_PROXY/ALL_PROXY, \
                 NO_PROXY lists hosts reached directly, and `proxy = \"off\"` (--no-proxy) \
                 bypasses every proxy"
            }
            ProbeErrorKind::Redirect => {
                "give the suite the URL the server finally answers on (the message names it), \
                 or fix the server's redirects"
            }
            ProbeErrorKind::HostRejected => {
                "the server checks the Host header against a list of allowed hosts (protection \
                 against DNS rebinding): add the host and port you connect with to that list, \
                 or reach the server by a name it allows"
            }
            ProbeErrorKind::SessionRejected => {
                "the server lost the session it opened: was it restarted, does it expire \
                 sessions quickly, or do several instances behind a load balancer answer \
                 without session affinity? A stateless server must not send Mcp-Session-Id"
            }
        }
    }
}

/// Why a probe failed: the command, the phase, the exit status and the last lines of stderr.
///
/// Every text in it that came from the server is escaped when displayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeError {
    /// The command line, as the user would type it.
    pub command: String,
    /// Where it failed.
    pub phase: Phase,
    /// What kind of failure it is.
    pub kind: ProbeErrorKind,
    /// What happened.
    pub message: String,
    /// The exit status, if the server had exited.
    pub exit_status: Option<String>,
    /// The last lines the server wrote to stderr (raw; escaped when displayed).
    pub stderr_tail: Vec<String>,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "probing the MCP server `{}` failed during {}: {}",
            escape_untrusted(&self.command),
            self.phase,
            self.message
        )?;
        if let Some(status) = &self.exit_status {
            write!(f, "\n  the server exited: {status}")?;
        }
        if !self.stderr_tail.is_empty() {
            write!(f, "\n  last lines of its stderr:")?;
            for line in &self.stderr_tail {
                write!(f, "\n    | {}", escape_untrusted(line))?;
            }
        }
        write!(f, "\n  what to do: {}", self.kind.advice())
    }
}

impl std::error::Error for ProbeError {}

/// Starts the server, records its surface and stops it (with its whole process group).
///
/// The server is spawned with stdin, stdout and stderr piped, in a process group of its own on
/// unix. One deadline, `options.timeout`, bounds everything from the spawn to the last listing.
/// Stopping is then: close stdin and wait up to 1 s, SIGTERM the process group and wait up to
/// 1 s, SIGKILL the group. The same happens on every error path (and if the caller panics),
/// so neither the server nor anything it started in its group outlives the probe.
///
/// # Errors
///
/// A [`ProbeError`] when the server cannot be started, exits, stays silent past the deadline,
/// answers with a JSON-RPC error or a malformed result, paginates without end, or writes
/// something on stdout that cannot be messages. Its [`ProbeErrorKind`] says which.
pub fn probe_stdio(command: &ServerCommand, options: &ProbeOptions) -> Result<Probe, ProbeError> {
    let (probe, session) = probe_stdio_session(command, options)?;
    session.stop();
    Ok(probe)
}

/// [`probe_stdio`], leaving the server running with its session open once the last listing
/// was read: the [`ServerSession`] owns it (closing or dropping it ends the session; while a
/// [`DeferredStops`] guard is alive the server then exits on its own in the background and is
/// stopped when the guard drops). On an error the server is stopped before this returns, its
/// exit status and stderr tail in the error.
///
/// # Errors
///
/// As [`probe_stdio`].
pub fn probe_stdio_session(
    command: &ServerCommand,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    let deadline = Instant::now() + options.timeout;
    let mut server = stdio::StdioServer::spawn(command)?;
    let outcome = session::run(&mut server, options, deadline);
    match outcome {
        Ok((probe, continued)) => Ok((probe, ServerSession::stdio(server, continued))),
        Err(failure) => {
            // Read the exit status before stopping: afterwards it would only say we killed it.
            let grace = if failure.kind == ProbeErrorKind::Exited {
                Duration::from_millis(500)
            } else {
                Duration::ZERO
            };
            let exit_status = server.exit_status_within(grace);
            server.stop();
            Err(ProbeError {
                command: command.display(),
                phase: failure.phase,
                kind: failure.kind,
                message: failure.message,
                exit_status,
                stderr_tail: scrub_lines(
                    server.stderr_tail(Duration::from_millis(300)),
                    &command.secrets(),
                ),
            })
        }
    }
}

/// Where a server is and how to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerSpec {
    /// A subprocess speaking MCP over stdio.
    Stdio(ServerCommand),
    /// A Streamable HTTP endpoint.
    Http(HttpEndpoint),
    /// A server running inside the test process (no process, no port).
    InProcess(InProcess),
}

impl ServerSpec {
    /// The server as shown in messages and reports (never a secret: a URL's query string and
    /// credentials are left out).
    pub fn display(&self) -> String {
        match self {
            ServerSpec::Stdio(command) => command.display(),
            ServerSpec::Http(endpoint) => display_url(&endpoint.url),
            ServerSpec::InProcess(server) => format!("in-process {}", server.name()),
        }
    }
}

/// A Streamable HTTP MCP endpoint and the headers sent with every request.
///
/// Its `Debug` shows where each header value comes from but never a value that may be secret
/// (see [`HeaderValue`]), because `Debug` output ends up in logs and cache keys.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct HttpEndpoint {
    /// The endpoint URL, e.g. `http://127.0.0.1:8080/mcp`.
    pub url: String,
    /// Extra request headers (e.g. `Authorization`), by name.
    pub headers: Vec<(String, HeaderValue)>,
    /// A server to start for the probe (and stop, with its process group, afterwards). `{port}`
    /// in its arguments and in `url` is replaced by a free port on 127.0.0.1.
    pub start: Option<ServerCommand>,
    /// With `start`: the server is ready once a line of its stdout or stderr contains this text.
    /// Without it, once a TCP connection to the URL's port succeeds.
    pub ready_line: Option<String>,
    /// For `https://` URLs (feature `https`): a PEM file of CA certificates trusted besides the
    /// public CAs, for private or self-signed deployments. When `None`, the file named by the
    /// environment variable `MCP_CONTRACT_CA_FILE` is used, if set.
    pub ca_file: Option<PathBuf>,
    /// Which HTTP proxy to go through (default: the environment's, see [`ProxySetting`]).
    pub proxy: ProxySetting,
}

impl HttpEndpoint {
    /// An endpoint at `url` with no extra headers.
    pub fn new(url: impl Into<String>) -> HttpEndpoint {
        HttpEndpoint {
            url: url.into(),
            ..HttpEndpoint::default()
        }
    }
}

impl fmt::Debug for HttpEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(name, value)| format!("{name}: {}", value.describe(name)))
            .collect();
        f.debug_struct("HttpEndpoint")
            .field("url", &display_url(&self.url))
            .field("headers", &headers)
            .field("start", &self.start.as_ref().map(ServerCommand::display))
            .field("ready_line", &self.ready_line)
            .field("ca_file", &self.ca_file)
            .field("proxy", &self.proxy)
            .finish()
    }
}

impl HttpEndpoint {
    /// Every credential of its proxy setting and of the proxy variables of the environment
    /// (read now): user names and passwords of proxy URLs, raw and percent-decoded. Removed
    /// from anything shown; none of it is ever put into a message in the first place.
    pub fn proxy_secrets(&self) -> Vec<String> {
        let mut urls = Vec::new();
        if let ProxySetting::Url(text) = &self.proxy {
            urls.push(match HeaderValue::parse(text) {
                Ok(HeaderValue::Env(var)) => crate::env::var(&var).unwrap_or_default(),
                Ok(HeaderValue::Template { template, var }) => template.replace(
                    &format!("${{{var}}}"),
                    &crate::env::var(&var).unwrap_or_default(),
                ),
                _ => text.clone(),
            });
        }
        #[cfg(feature = "http")]
        {
            let env = crate::env::proxy_env();
            urls.extend(
                [env.http, env.https, env.all]
                    .into_iter()
                    .flatten()
                    .map(|(_, value)| value),
            );
        }
        let mut secrets = Vec::new();
        for url in urls {
            let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let Some((userinfo, _)) = authority.rsplit_once('@') else {
                continue;
            };
            for part in std::iter::once(userinfo).chain(userinfo.split(':')) {
                if !part.is_empty() {
                    secrets.push(part.to_owned());
                    let decoded = percent_decode(part);
                    if decoded != part {
                        secrets.push(decoded);
                    }
                }
            }
        }
        secrets
    }
}

/// `%XX` escapes decoded (lossy UTF-8); anything else kept.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Which HTTP proxy a probe goes through.
///
/// Its `Debug` shows a proxy as `scheme://host:port` only: never its credentials.
#[derive(Clone, PartialEq, Eq, Default)]
pub enum ProxySetting {
    /// The environment's (the default): `https_proxy`/`HTTPS_PROXY` for `https://` URLs,
    /// `http_proxy`/`HTTP_PROXY` for `http://` ones, `all_proxy`/`ALL_PROXY` for either when
    /// those are unset (lowercase first); hosts listed in `no_proxy`/`NO_PROXY`, and loopback
    /// hosts (`localhost`, 127.0.0.0/8, `::1`), are reached directly.
    #[default]
    Environment,
    /// No proxy, whatever the environment says.
    Off,
    /// Every request through this proxy (`NO_PROXY` does not apply): `http://HOST:PORT`,
    /// `https://…` for TLS to the proxy (feature `https`), with credentials as
    /// `http://USER:PASSWORD@HOST:PORT`. `${VAR}` anywhere in it is read from the environment
    /// at probe time, so a password need not be written in code.
    Url(String),
}

impl ProxySetting {
    /// Parses a setting as the attribute's `proxy = ".."`, `Suite::proxy` and the CLI take it:
    /// `off` (or `none`, or empty) for no proxy, else a proxy URL.
    ///
    /// # Errors
    ///
    /// A URL without a host, with a scheme other than http and https (SOCKS is not
    /// supported), or with a malformed `${VAR}`. The message never quotes credentials.
    pub fn parse(text: &str) -> Result<ProxySetting, ConfigError> {
        // The message shows the proxy as `scheme://host:port` only: never its credentials.
        let error = |message: String| ConfigError::new("proxy", "<proxy URL>", message);
        let text = text.trim();
        if matches!(text.to_ascii_lowercase().as_str(), "" | "off" | "none") {
            return Ok(ProxySetting::Off);
        }
        HeaderValue::parse(text).map_err(|e| {
            error(format!(
                "the proxy {}: {}",
                display_proxy(text),
                e.to_string().replace("header value", "proxy URL")
            ))
        })?;
        let (scheme, rest) = text.split_once("://").unwrap_or(("http", text));
        if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
            return Err(error(format!(
                "the proxy {} has the scheme {}: only http:// and https:// proxies are \
                 supported (no SOCKS)",
                display_proxy(text),
                escape_untrusted(scheme)
            )));
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host);
        if host.is_empty() || host.starts_with(':') {
            return Err(error(format!(
                "the proxy {} has no host: write it as http://HOST:PORT",
                display_proxy(text)
            )));
        }
        Ok(ProxySetting::Url(text.to_owned()))
    }
}

impl fmt::Debug for ProxySetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxySetting::Environment => f.write_str("Environment"),
            ProxySetting::Off => f.write_str("Off"),
            ProxySetting::Url(url) => write!(f, "Url({})", display_proxy(url)),
        }
    }
}

/// A proxy URL for people: `scheme://host:port`, never its credentials, path or query.
pub(crate) fn display_proxy(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    escape_untrusted(&format!("{}://{host}", scheme.to_ascii_lowercase()))
}

/// A header value: written literally, or read from an environment variable at probe time so
/// that secrets never sit in code, snapshots or messages.
///
/// No value is ever shown by `Debug` or in messages: an environment value shows as
/// `<from $VAR>`, a literal one as `<literal>` (a literal of a header whose name does not look
/// secret, such as `X-Profile`, is shown in [`HttpEndpoint`]'s `Debug`).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderValue {
    /// The value itself.
    Literal(String),
    /// The name of an environment variable holding the value.
    Env(String),
    /// A value with one environment variable in it, e.g. `Bearer ${MCP_TOKEN}`: `${var}` in
    /// `template` is replaced by the variable's value.
    Template {
        /// The text around the variable, with `${var}` where its value goes.
        template: String,
        /// The environment variable.
        var: String,
    },
}

impl HeaderValue {
    /// Parses a header value as written in an attribute: `${VAR}` anywhere in it takes that
    /// part from the environment (`"${MCP_TOKEN}"` is the whole value, `"Bearer ${MCP_TOKEN}"`
    /// a part); anything else is literal. One variable at most.
    ///
    /// # Errors
    ///
    /// More than one `${…}`, an unclosed one, or a variable name that is not
    /// letters, digits and `_`.
    pub fn parse(text: &str) -> Result<HeaderValue, ConfigError> {
        // A header value may be a secret: never quoted back in the message.
        let error = |message: &str| ConfigError::new("headers", text, message);
        let Some(start) = text.find("${") else {
            return Ok(HeaderValue::Literal(text.to_owned()));
        };
        let rest = &text[start + 2..];
        let end = rest
            .find('}')
            .ok_or_else(|| error("the header value has `${` without its closing `}`"))?;
        let var = &rest[..end];
        if var.is_empty() || !var.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(error(
                "a header value's `${VAR}` must name an environment variable (letters, digits, _)",
            ));
        }
        if rest[end + 1..].contains("${") {
            return Err(error(
                "a header value may take at most one `${VAR}` from the environment",
            ));
        }
        if start == 0 && end + 3 == text.len() {
            return Ok(HeaderValue::Env(var.to_owned()));
        }
        Ok(HeaderValue::Template {
            template: text.to_owned(),
            var: var.to_owned(),
        })
    }

    /// Where the value comes from, for people: never a value that may be secret.
    fn describe(&self, header: &str) -> String {
        match self {
            HeaderValue::Literal(value) if !looks_secret(header) => format!("{value:?}"),
            HeaderValue::Literal(_) => "<literal, redacted>".to_owned(),
            HeaderValue::Env(var) => format!("<from ${var}>"),
            HeaderValue::Template { var, .. } => format!("<template with ${var}>"),
        }
    }
}

impl fmt::Debug for HeaderValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("authorization"))
    }
}

/// Whether a header's name says its value is a credential.
fn looks_secret(header: &str) -> bool {
    let name = header.to_ascii_lowercase();
    [
        "auth",
        "token",
        "key",
        "secret",
        "cookie",
        "session",
        "password",
        "signature",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// Probes a Streamable HTTP endpoint: POSTs `initialize` and the listings (JSON or SSE
/// answers), then DELETEs the session. One deadline, `options.timeout`, bounds everything
/// (connect, each request, each read); the closing DELETE adds at most two seconds.
///
/// Header values from environment variables are read now. No header value appears in any
/// message: server text quoted in an error has them replaced by `<redacted>`.
///
/// The session is left open once the last listing was read (and a server started for it
/// running): the [`ServerSession`] owns both, and closing it DELETEs the session and stops the
/// server. On an error everything is closed and stopped before this returns.
///
/// # Errors
///
/// A [`ProbeError`] whose kind says what to do: [`ProbeErrorKind::Unreachable`],
/// [`ProbeErrorKind::AuthRequired`] (with the escaped `WWW-Authenticate` challenge),
/// [`ProbeErrorKind::NotFound`], [`ProbeErrorKind::TimedOut`], [`ProbeErrorKind::NotMcp`],
/// [`ProbeErrorKind::Tls`] (`https://`, feature `https`), [`ProbeErrorKind::Configuration`]
/// (an `https://` URL without the feature, too), or any failure of the MCP session itself.
#[cfg(feature = "http")]
pub fn probe_http_session(
    endpoint: &HttpEndpoint,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    let deadline = Instant::now() + options.timeout;
    let label = display_url(&endpoint.url);
    let setup_error = |failure: http::HttpFailure| ProbeError {
        command: label.clone(),
        phase: Phase::Spawn,
        kind: failure.kind,
        message: failure.message,
        exit_status: None,
        stderr_tail: Vec::new(),
    };
    // Configuration errors before a server is started for nothing.
    http::preflight(endpoint).map_err(setup_error)?;
    let headers = http::resolve_headers(endpoint).map_err(setup_error)?;
    let header_values: Vec<String> = headers.iter().map(|(_, value)| value.clone()).collect();
    let mut started = None;
    let mut endpoint = endpoint.clone();
    if let Some(command) = endpoint.start.clone() {
        let server = http::StartedServer::start(&command, &endpoint, deadline)
            .map_err(|e| e.into_probe_error(&label))?;
        endpoint.url = server.url.clone();
        started = Some(server);
    }
    let mut transport =
        http::HttpTransport::new(&endpoint, headers, deadline).map_err(setup_error)?;
    let outcome = session::run(&mut transport, options, deadline);
    let classified = transport.failure.take();
    let note = transport.redirect_note(started.as_ref().map(http::StartedServer::port));
    if let Ok((mut probe, continued)) = outcome {
        probe.notes.extend(note);
        // The session stays open for work continued in it; closing it DELETEs the session
        // and stops the server started for it.
        let session = stopping::HttpSession { transport, started };
        return Ok((probe, ServerSession::http(session, continued)));
    }
    transport.close();
    // What the started server echoes may hold its own credentials or a header value.
    let mut secrets: Vec<String> = endpoint
        .start
        .as_ref()
        .map(ServerCommand::secrets)
        .unwrap_or_default();
    secrets.extend(header_values);
    let stderr_tail = match &mut started {
        Some(server) => {
            let tail = scrub_lines(server.output_tail(), &secrets);
            server.stop();
            tail
        }
        None => Vec::new(),
    };
    let failure = match outcome {
        Ok(_) => unreachable!("a probe that succeeded returned above"),
        Err(failure) => failure,
    };
    let (kind, message) = match classified {
        // The transport knows better than "an I/O error" what went wrong.
        Some(http) if failure.kind == ProbeErrorKind::Io => (http.kind, http.message),
        _ => (failure.kind, failure.message),
    };
    let message = match kind {
        ProbeErrorKind::TimedOut if !message.contains("time limit of") => format!(
            "{message} (time limit {:.1} s)",
            options.timeout.as_secs_f64()
        ),
        _ => message,
    };
    Err(ProbeError {
        command: label,
        phase: failure.phase,
        kind,
        message,
        exit_status: None,
        stderr_tail,
    })
}

/// Without the `http` feature: a [`ProbeErrorKind::Configuration`] error saying how to enable
/// it (the default build is stdio only; see `probe_http_session` with the feature).
#[cfg(not(feature = "http"))]
pub fn probe_http(endpoint: &HttpEndpoint, _options: &ProbeOptions) -> Result<Probe, ProbeError> {
    Err(ProbeError {
        command: display_url(&endpoint.url),
        phase: Phase::Spawn,
        kind: ProbeErrorKind::Configuration,
        message: "this build of mcp-contract-test has no HTTP transport (stdio only by \
                  default): enable its `http` feature, e.g. `mcp-contract-test = { version = \
                  \"0.1\", features = [\"http\"] }` (`https` for https:// URLs)"
            .to_owned(),
        exit_status: None,
        stderr_tail: Vec::new(),
    })
}

/// Shows a URL without its query string (which may hold a token) or credentials.
pub(crate) fn display_url(url: &str) -> String {
    let without_fragment = url.split('#').next().unwrap_or(url);
    let (before_query, query) = match without_fragment.split_once('?') {
        Some((before, _)) => (before, "?…"),
        None => (without_fragment, ""),
    };
    let shown = match before_query.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = match rest.find('/') {
                Some(at) => rest.split_at(at),
                None => (rest, ""),
            };
            let authority = match authority.rsplit_once('@') {
                Some((_, host)) => format!("…@{host}"),
                None => authority.to_owned(),
            };
            format!("{scheme}://{authority}{path}")
        }
        None => before_query.to_owned(),
    };
    format!("{shown}{query}")
}

/// Probes a server wherever it is: over stdio ([`probe_stdio`]), Streamable HTTP or in-process.
///
/// A stdio server's session is closed as soon as its last listing is read: the server is
/// stopped before this returns, or, while a [`DeferredStops`] guard is alive, exits in the
/// background (see [`probe_session`]).
pub fn probe(spec: &ServerSpec, options: &ProbeOptions) -> Result<Probe, ProbeError> {
    let (probe, session) = probe_session(spec, options)?;
    session.close();
    Ok(probe)
}

/// [`probe`], handing over the server's open session, whatever the transport: work continued
/// in it ([`ServerSession::request`]) happens in the very session the surface was read in.
///
/// # Errors
///
/// As [`probe`].
pub fn probe_session(
    spec: &ServerSpec,
    options: &ProbeOptions,
) -> Result<(Probe, ServerSession), ProbeError> {
    match spec {
        ServerSpec::Stdio(command) => probe_stdio_session(command, options),
        #[cfg(feature = "http")]
        ServerSpec::Http(endpoint) => probe_http_session(endpoint, options),
        #[cfg(not(feature = "http"))]
        ServerSpec::Http(endpoint) => Ok((probe_http(endpoint, options)?, ServerSession::none())),
        ServerSpec::InProcess(server) => in_process::probe_in_process_session(server, options),
    }
}

/// Lines a server wrote, with the given credentials and anything shaped like one replaced.
fn scrub_lines(lines: Vec<String>, secrets: &[String]) -> Vec<String> {
    lines
        .into_iter()
        .map(|line| crate::prepare::secrets::scrub_known(&line, secrets))
        .collect()
}

/// Longest piece of server text quoted in one message, in characters.
const QUOTE_LIMIT: usize = 200;

/// Makes server-controlled text safe for one line of a terminal or CI log: every character
/// [`crate::escape::is_hidden`] names (C0/C1 controls, ESC, DEL, bidi controls, zero-width
/// characters, …) becomes a visible `\u{..}` escape.
fn escape_untrusted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if crate::escape::is_hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Quotes server text for a message: escaped, and cut after [`QUOTE_LIMIT`] characters.
fn quote_untrusted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("'{}{more}'", escape_untrusted(&head))
}

#[cfg(test)]
mod tests {
    /// The default build is stdio only: an HTTP spec is refused with how to enable the feature.
    #[cfg(not(feature = "http"))]
    #[test]
    fn http_without_the_feature_says_which_feature_to_enable() {
        use super::*;
        let endpoint = HttpEndpoint::new("http://user:pw@127.0.0.1:9/mcp?token=x");
        let error = probe(&ServerSpec::Http(endpoint), &ProbeOptions::default()).unwrap_err();
        assert_eq!(error.kind, ProbeErrorKind::Configuration);
        assert!(
            error.message.contains("`http` feature"),
            "{}",
            error.message
        );
        assert!(!error.to_string().contains("pw") && !error.to_string().contains("token=x"));
    }

    #[test]
    fn proxy_settings_parse_and_never_show_their_credentials() {
        assert_eq!(ProxySetting::parse("off"), Ok(ProxySetting::Off));
        assert_eq!(ProxySetting::parse(" NONE "), Ok(ProxySetting::Off));
        let setting = ProxySetting::parse("http://me:hunter22@proxy.corp:3128/").unwrap();
        assert_eq!(format!("{setting:?}"), "Url(http://proxy.corp:3128)");
        for (bad, needle) in [
            ("socks5://me:hunter22@h:1", "no SOCKS"),
            ("http://me:hunter22@", "has no host"),
            ("http://me:${A}${B}@h", "at most one"),
        ] {
            let error = ProxySetting::parse(bad).unwrap_err();
            assert_eq!(error.setting(), "proxy");
            assert!(!error.input().contains("hunter22"), "{error:?}");
            let error = error.to_string();
            assert!(error.contains(needle), "{error}");
            assert!(!error.contains("hunter22"), "{error}");
        }
        let mut endpoint = HttpEndpoint::new("http://mcp.test/mcp");
        endpoint.proxy = ProxySetting::parse("http://me:p%40ss-hunter22@proxy.corp:3128").unwrap();
        let secrets = endpoint.proxy_secrets();
        for expected in ["p%40ss-hunter22", "p@ss-hunter22", "me:p%40ss-hunter22"] {
            assert!(secrets.iter().any(|s| s == expected), "{secrets:?}");
        }
        assert!(!format!("{endpoint:?}").contains("hunter22"));
    }

    #[test]
    fn displayed_urls_hide_queries_and_credentials() {
        assert_eq!(
            display_url("http://u:secret@h:1/mcp?token=abc"),
            "http://…@h:1/mcp?…"
        );
        assert_eq!(display_url("http://h/mcp"), "http://h/mcp");
    }
    use super::*;

    #[test]
    fn escapes_controls_bidi_and_zero_width() {
        assert_eq!(
            escape_untrusted("a\u{1b}[31mb\r\u{202e}c\u{200b}d\u{85}é"),
            "a\\u{1b}[31mb\\u{d}\\u{202e}c\\u{200b}d\\u{85}é"
        );
        assert_eq!(quote_untrusted("ok"), "'ok'");
        let long = "x".repeat(QUOTE_LIMIT + 5);
        assert_eq!(
            quote_untrusted(&long),
            format!("'{}…'", "x".repeat(QUOTE_LIMIT))
        );
    }

    #[test]
    fn display_names_command_phase_status_stderr_and_advice() {
        let error = ProbeError {
            command: "python3 server.py".into(),
            phase: Phase::Initialize,
            kind: ProbeErrorKind::Exited,
            message: "the server exited before answering initialize".into(),
            exit_status: Some("exit code 3".into()),
            stderr_tail: vec!["fatal: \u{1b}[31mno config".into()],
        };
        let text = error.to_string();
        assert!(text.starts_with("probing the MCP server `python3 server.py` failed during initialize: the server exited before answering initialize"), "{text}");
        assert!(
            text.contains("\n  the server exited: exit code 3"),
            "{text}"
        );
        assert!(
            text.contains("\n    | fatal: \\u{1b}[31mno config"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(
            text.contains("what to do: run the command by hand"),
            "{text}"
        );
    }

    #[test]
    fn command_lines_round_trip_through_display() {
        let command = ServerCommand::from_command_line(
            r#"npx -y "@scope/server name" --root '/tmp/a b' it\'s"#,
        )
        .unwrap();
        assert_eq!(command.program, "npx");
        assert_eq!(
            command.args,
            ["-y", "@scope/server name", "--root", "/tmp/a b", "it's"]
        );
        let shown = command.display();
        assert_eq!(
            shown,
            r#"npx -y '@scope/server name' --root '/tmp/a b' 'it'\''s'"#
        );
        assert_eq!(ServerCommand::from_command_line(&shown).unwrap(), command);
        assert!(ServerCommand::from_command_line("   ")
            .unwrap_err()
            .to_string()
            .contains("empty"));
    }
}
