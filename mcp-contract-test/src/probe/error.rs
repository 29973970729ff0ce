//! Why a probe failed ([`ProbeError`]): the phase, the kind and, for each kind, what to do.

use super::escape_untrusted;
use std::fmt;

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
    /// A listing repeated a cursor or had more than [`super::ProbeOptions::max_pages`] pages.
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

#[cfg(test)]
mod tests {
    use super::*;
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
}
