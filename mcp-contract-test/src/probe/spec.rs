//! Where a server is and how to reach it: a command ([`ServerCommand`]), a Streamable HTTP
//! endpoint ([`HttpEndpoint`]: its headers, proxy and CA file), or an in-process server; and
//! how each shows in messages (never a credential).

use super::{command, escape_untrusted, InProcess};
use crate::error::ConfigError;
use std::fmt;
use std::path::PathBuf;

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
        let mut args = command::split_command_line(line)
            .map_err(|message| ConfigError::new("server", line, message))?;
        if args.is_empty() {
            return Err(ConfigError::new(
                "server",
                line,
                "the server command line is empty: give the program to run, e.g. `npx -y \
                 @scope/server`",
            ));
        }
        // A few words: shifting them costs less to compile than collecting an iterator.
        let program = args.remove(0);
        Ok(ServerCommand {
            program,
            args,
            env: Vec::new(),
            cwd: None,
        })
    }

    /// The credentials in this command as it runs (`${VAR}` read, see [`Self::expanded`]):
    /// values of secret-named flags and `NAME=value` arguments, credential-shaped words, URL
    /// passwords, the values of secret-named (or secret-shaped) environment variables, and
    /// the values of secret-named variables it reads. Removed from anything the server echoes
    /// back.
    pub fn secrets(&self) -> Vec<String> {
        let running = self.expanded().unwrap_or_else(|_| self.clone());
        let words = running.words();
        // Loops rather than iterator chains, each compiled per call site.
        let mut found = Vec::new();
        for (_, secret) in crate::prepare::secrets::scrub_command(&words).1 {
            found.push(secret);
        }
        for (name, value) in &running.env {
            if let Some((_, secret)) = crate::prepare::secrets::scrub_env(name, value).1 {
                found.push(secret);
            }
        }
        let mut texts = Vec::with_capacity(1 + self.args.len() + self.env.len());
        texts.push(self.program.as_str());
        for arg in &self.args {
            texts.push(arg);
        }
        for (_, value) in &self.env {
            texts.push(value);
        }
        for text in texts {
            for name in references(text) {
                if crate::prepare::secrets::names_a_secret(name) {
                    found.extend(crate::env::var(name).filter(|v| v.len() >= 4));
                }
            }
        }
        found
    }

    /// This command as it runs: every `${NAME}` in its program, arguments and environment
    /// values replaced by that variable of this process's environment (`$${` is a literal
    /// `${`). The command as configured, `${NAME}` in it, is what messages and reports show,
    /// so a credential given this way is never shown and a printed command runs as it is.
    ///
    /// # Errors
    ///
    /// A variable it names is not set (or not Unicode): the message names it.
    pub fn expanded(&self) -> Result<ServerCommand, String> {
        // Loops rather than `collect::<Result<…>>`, which compiles a shunting iterator per site.
        let program = expand(&self.program)?;
        let mut args = Vec::with_capacity(self.args.len());
        for arg in &self.args {
            args.push(expand(arg)?);
        }
        let mut env = Vec::with_capacity(self.env.len());
        for (name, value) in &self.env {
            env.push((name.clone(), expand(value)?));
        }
        Ok(ServerCommand {
            program,
            args,
            env,
            cwd: self.cwd.clone(),
        })
    }

    /// The program and its arguments, as words.
    fn words(&self) -> Vec<String> {
        let mut words = Vec::with_capacity(1 + self.args.len());
        words.push(self.program.clone());
        words.extend_from_slice(&self.args);
        words
    }

    /// The command line as a user would type it, each word quoted when the shell needs it.
    ///
    /// Environment variables are left out on purpose: they often hold tokens.
    /// Credentials in the arguments (`--api-key VALUE`, `TOKEN=…`, key shapes, URL passwords)
    /// are replaced by their stable placeholders (see
    /// [`crate::prepare::secrets::scrub_command`]): this string ends up in snapshot headers,
    /// reports, error messages and CI logs.
    pub fn display(&self) -> String {
        let mut line = String::new();
        for (i, word) in crate::prepare::secrets::scrub_command(&self.words())
            .0
            .iter()
            .enumerate()
        {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&command::quote_word(word));
        }
        line
    }
}

/// The variable names of the `${NAME}` references in `text` (`NAME`: letters, digits, `_`,
/// not starting with a digit; `$${` escapes).
fn references(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        let escaped = rest[..at].ends_with('$');
        let after = &rest[at + 2..];
        match reference_name(after) {
            Some(name) if !escaped => {
                names.push(name);
                rest = &after[name.len() + 1..];
            }
            _ => rest = after,
        }
    }
    names
}

/// The name of a reference whose `${` precedes `after`, if `after` is `NAME}…`.
fn reference_name(after: &str) -> Option<&str> {
    let end = after.find('}')?;
    let name = &after[..end];
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// `text` with each `${NAME}` read from the environment and each `$${` made `${`; other
/// `$` text (a shell's `$HOME`, `${x:-y}`) is left as it is.
fn expand(text: &str) -> Result<String, String> {
    if !text.contains("${") {
        return Ok(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        if rest[..at].ends_with('$') {
            out.push_str(&rest[..at - 1]);
            out.push_str("${");
            rest = &rest[at + 2..];
            continue;
        }
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match reference_name(after) {
            Some(name) => {
                let value = crate::env::var(name).ok_or_else(|| {
                    format!(
                        "the server command reads `${{{name}}}` from the environment, and \
                         {name} is not set (or not Unicode): set it, or write `$${{{name}}}` \
                         for the text itself"
                    )
                })?;
                out.push_str(&value);
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
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
        let mut headers = Vec::with_capacity(self.headers.len());
        for (name, value) in &self.headers {
            headers.push(format!("{name}: {}", value.describe(name)));
        }
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
                // `&str` patterns: `replace::<&String>` would be one more copy of it.
                Ok(HeaderValue::Template { template, var }) => template.replace(
                    format!("${{{var}}}").as_str(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The loops of `from_command_line`, `secrets` and `display` give what the iterator
    /// chains they replace gave.
    #[test]
    fn loops_give_what_the_chains_gave() {
        use crate::prepare::secrets::{scrub_command, scrub_env};
        for line in [
            "npx -y @scope/server --api-key sk-abcdefabcdefabcdefabcdef",
            "node 'a b' \"\" TOKEN=ghp_abcdefabcdefabcdefabcdefabcdefabcd",
            "server",
        ] {
            let command = ServerCommand::from_command_line(line).unwrap();
            let mut words = command::split_command_line(line).unwrap().into_iter();
            assert_eq!(Some(command.program.clone()), words.next());
            assert_eq!(command.args, words.collect::<Vec<_>>());
            let chained = scrub_command(&command.words())
                .0
                .iter()
                .map(|word| command::quote_word(word))
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(command.display(), chained);
            let mut with_env = command.clone();
            with_env
                .env
                .push(("API_TOKEN".to_owned(), "s3cr3t-value-1234".to_owned()));
            with_env.env.push(("PLAIN".to_owned(), "x".to_owned()));
            let mut chained: Vec<String> = scrub_command(&with_env.words())
                .1
                .into_iter()
                .map(|(_, secret)| secret)
                .collect();
            chained.extend(
                with_env
                    .env
                    .iter()
                    .filter_map(|(name, value)| scrub_env(name, value).1)
                    .map(|(_, secret)| secret),
            );
            assert!(
                chained.contains(&"s3cr3t-value-1234".to_owned()),
                "{chained:?}"
            );
            assert_eq!(with_env.secrets(), chained, "{line}");
        }
        assert!(ServerCommand::from_command_line("  ").is_err());
    }

    /// `${NAME}` is read from the environment when the command runs, and shown as written.
    #[test]
    fn commands_read_their_variables_when_they_run_and_show_them_as_written() {
        let path = crate::env::var("PATH").expect("PATH is set");
        let mut command =
            ServerCommand::new("run", ["--dirs=${PATH}", "$${PATH}", "${x:-y}", "$HOME"]);
        command
            .env
            .push(("SEARCH".to_owned(), "a:${PATH}".to_owned()));
        let running = command.expanded().unwrap();
        assert_eq!(
            running.args,
            [
                format!("--dirs={path}"),
                "${PATH}".to_owned(),
                "${x:-y}".to_owned(),
                "$HOME".to_owned()
            ]
        );
        assert_eq!(running.env[0].1, format!("a:{path}"));
        assert!(
            command.display().contains("'--dirs=${PATH}'"),
            "{}",
            command.display()
        );
        let unset = ServerCommand::new("run", ["--token", "${MCP_CONTRACT_UNSET_FOR_THIS_TEST}"]);
        let error = unset.expanded().unwrap_err();
        assert!(
            error.contains("MCP_CONTRACT_UNSET_FOR_THIS_TEST is not set"),
            "{error}"
        );
        // A reference is not a credential: shown as written, runnable as printed.
        assert_eq!(
            unset.display(),
            "run --token '${MCP_CONTRACT_UNSET_FOR_THIS_TEST}'"
        );
        assert_eq!(references("a ${B} $${C} ${d-e} ${_F}"), ["B", "_F"]);
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
