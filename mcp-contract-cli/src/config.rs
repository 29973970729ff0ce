//! `mcp-contract.toml`: several servers in one file, read with the `toml` crate.
//!
//! Every setting a suite of the harness can have (`#[mcp_contract(...)]`) has a key here, at the
//! top level (a default for every server) and in each `[[server]]` table (that server only),
//! and a flag on the command line (which wins over both):
//!
//! ```toml
//! dir = "contracts"                  # snapshot folder (relative to this file)
//! fail_on = "breaking,safety,review"
//! lints = ["description-missing=deny"]
//! require_version_bump = true       # a breaking release needs a semver-major version bump
//!
//! [[server]]
//! name = "notes"
//! command = "python3 notes_server.py"
//! calls = "contracts/calls/notes"    # declared calls: <tool>/<case>.json (relative to this file)
//!
//! [[server]]
//! name = "memory"
//! command = ["npx", "-y", "@modelcontextprotocol/server-memory"]
//! env = { MEMORY_FILE_PATH = "/tmp/memory.json" }
//!
//! [[server]]
//! name = "time"
//! command = "uvx mcp-server-time"
//! filters = ["Use '[^']+' as local timezone => Use '[tz]' as local timezone"]
//!
//! [[server]]
//! name = "deployed"
//! url = "https://mcp.example.com/mcp"
//! headers = { Authorization = "Bearer ${MCP_TOKEN}" }
//! proxy = "http://proxy.corp.example:3128"   # or "off"; default: HTTPS_PROXY etc.
//! ca_file = "certs/corp-ca.pem"              # relative to this file
//! ```
//!
//! `consumers = "DIR"` (at the top or in a `[[server]]` table, relative to this file) holds the
//! server to its consumers' usage files, each `DIR/<name>.json` its own item
//! `consumers::<name>` (docs/cli.md, `--consumers`).

use mcp_contract_cli::error::CliError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Declares a configuration table: its own fields plus every suite setting, and
/// `settings()` to read the latter as one [`SettingsLayer`].
macro_rules! with_suite_settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $( $(#[$field_meta:meta])* pub $field:ident : $type:ty, )* }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $type, )*
            /// Bound on the probe, in seconds.
            pub timeout: Option<f64>,
            /// The handshake: `initialize`, `discover` or `auto`.
            pub lifecycle: Option<String>,
            /// What fails outside CI.
            pub fail_on: Option<String>,
            /// What fails in CI.
            pub ci_fail_on: Option<String>,
            /// Lint levels, `RULE=LEVEL`.
            pub lints: Option<Vec<String>>,
            /// The allow-list file, relative to this file.
            pub allow: Option<PathBuf>,
            /// Redactions, `SELECTOR => PLACEHOLDER` (or a selector alone).
            pub redact: Option<Vec<String>>,
            /// Filters, `REGEX => REPLACEMENT`.
            pub filters: Option<Vec<String>>,
            /// Policy: every tool must be read-only.
            pub read_only: Option<bool>,
            /// Policy: tool-name globs that must never exist.
            pub forbid: Option<Vec<String>>,
            /// Policy: annotations every tool must state.
            pub require_annotations: Option<Vec<String>>,
            /// The longest description before `description-too-long`.
            pub description_budget: Option<usize>,
            /// HTTP servers: the proxy, `http://HOST:PORT` or `off` (default: the environment's).
            pub proxy: Option<String>,
            /// HTTP servers: a PEM file of CA certificates to trust, relative to this file.
            pub ca_file: Option<PathBuf>,
            /// A breaking or safety change needs a semver-major bump of the server's version.
            pub require_version_bump: Option<bool>,
            /// The server's version (default: its `serverInfo.version`).
            pub version: Option<String>,
            /// The folder of declared calls (`<tool>/<case>.json`), relative to this file.
            pub calls: Option<PathBuf>,
            /// The folder of consumers' usage files (`<name>.json`), relative to this file.
            pub consumers: Option<PathBuf>,
            /// A breaking change that breaks no consumer passes.
            pub usage_aware: Option<bool>,
        }

        impl $name {
            /// The suite settings of this table.
            pub fn settings(&self) -> SettingsLayer {
                SettingsLayer {
                    timeout: self.timeout,
                    lifecycle: self.lifecycle.clone(),
                    fail_on: self.fail_on.clone(),
                    ci_fail_on: self.ci_fail_on.clone(),
                    lints: self.lints.clone().unwrap_or_default(),
                    allow: self.allow.clone(),
                    redact: self.redact.clone().unwrap_or_default(),
                    filters: self.filters.clone().unwrap_or_default(),
                    read_only: self.read_only,
                    forbid: self.forbid.clone().unwrap_or_default(),
                    require_annotations: self.require_annotations.clone().unwrap_or_default(),
                    description_budget: self.description_budget,
                    proxy: self.proxy.clone(),
                    ca_file: self.ca_file.clone(),
                    require_version_bump: self.require_version_bump,
                    version: self.version.clone(),
                    calls: self.calls.clone(),
                    consumers: self.consumers.clone(),
                    usage_aware: self.usage_aware,
                }
            }
        }
    };
}

/// The settings of one suite as one source gives them (the file's top, a server entry, the
/// flags): later layers override earlier ones (see [`SettingsLayer::then`]). Lists add up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingsLayer {
    /// Bound on the probe, in seconds.
    pub timeout: Option<f64>,
    /// The handshake: `initialize`, `discover` or `auto`.
    pub lifecycle: Option<String>,
    /// What fails outside CI.
    pub fail_on: Option<String>,
    /// What fails in CI.
    pub ci_fail_on: Option<String>,
    /// Lint levels, `RULE=LEVEL`.
    pub lints: Vec<String>,
    /// The allow-list file.
    pub allow: Option<PathBuf>,
    /// Redactions, `SELECTOR => PLACEHOLDER`.
    pub redact: Vec<String>,
    /// Filters, `REGEX => REPLACEMENT`.
    pub filters: Vec<String>,
    /// Policy: every tool must be read-only.
    pub read_only: Option<bool>,
    /// Policy: tool-name globs that must never exist.
    pub forbid: Vec<String>,
    /// Policy: annotations every tool must state.
    pub require_annotations: Vec<String>,
    /// The longest description before `description-too-long`.
    pub description_budget: Option<usize>,
    /// HTTP servers: the proxy, `http://HOST:PORT` or `off`.
    pub proxy: Option<String>,
    /// HTTP servers: a PEM file of CA certificates to trust.
    pub ca_file: Option<PathBuf>,
    /// A breaking or safety change needs a semver-major bump of the server's version.
    pub require_version_bump: Option<bool>,
    /// The server's version (default: its `serverInfo.version`).
    pub version: Option<String>,
    /// The folder of declared calls.
    pub calls: Option<PathBuf>,
    /// The folder of consumers' usage files.
    pub consumers: Option<PathBuf>,
    /// A breaking change that breaks no consumer passes.
    pub usage_aware: Option<bool>,
}

impl SettingsLayer {
    /// These settings with `later` on top: its values win, its lists are appended (a later
    /// lint level for the same rule wins when applied in order).
    pub fn then(&self, later: &SettingsLayer) -> SettingsLayer {
        let join = |a: &Vec<String>, b: &Vec<String>| a.iter().chain(b).cloned().collect();
        SettingsLayer {
            timeout: later.timeout.or(self.timeout),
            lifecycle: later.lifecycle.clone().or_else(|| self.lifecycle.clone()),
            fail_on: later.fail_on.clone().or_else(|| self.fail_on.clone()),
            ci_fail_on: later.ci_fail_on.clone().or_else(|| self.ci_fail_on.clone()),
            lints: join(&self.lints, &later.lints),
            allow: later.allow.clone().or_else(|| self.allow.clone()),
            redact: join(&self.redact, &later.redact),
            filters: join(&self.filters, &later.filters),
            read_only: later.read_only.or(self.read_only),
            forbid: join(&self.forbid, &later.forbid),
            require_annotations: join(&self.require_annotations, &later.require_annotations),
            description_budget: later.description_budget.or(self.description_budget),
            proxy: later.proxy.clone().or_else(|| self.proxy.clone()),
            ca_file: later.ca_file.clone().or_else(|| self.ca_file.clone()),
            require_version_bump: later.require_version_bump.or(self.require_version_bump),
            version: later.version.clone().or_else(|| self.version.clone()),
            calls: later.calls.clone().or_else(|| self.calls.clone()),
            consumers: later.consumers.clone().or_else(|| self.consumers.clone()),
            usage_aware: later.usage_aware.or(self.usage_aware),
        }
    }

    /// The same settings with the allow-list, CA file, calls and consumers folder paths taken from `base`
    /// (the folder of the configuration file) when relative.
    pub fn relative_to(mut self, base: &Path) -> SettingsLayer {
        self.allow = self.allow.map(|path| base.join(path));
        self.ca_file = self.ca_file.map(|path| base.join(path));
        self.calls = self.calls.map(|path| base.join(path));
        self.consumers = self.consumers.map(|path| base.join(path));
        self
    }
}

/// A command, as one string (split like a shell) or as an array of words.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum CommandLine {
    /// `command = "npx -y @scope/server"`.
    Line(String),
    /// `command = ["npx", "-y", "@scope/server"]`.
    Words(Vec<String>),
}

with_suite_settings! {
    /// One `[[server]]` table.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ServerEntry {
        /// Its name (unique in the file).
        pub name: String,
        /// The command and arguments, for a stdio server.
        pub command: Option<CommandLine>,
        /// The endpoint, for a Streamable HTTP server.
        pub url: Option<String>,
        /// Environment variables for the server (or for its start command).
        #[serde(default)]
        pub env: BTreeMap<String, String>,
        /// Request headers for an HTTP server (values may hold `${VAR}`).
        #[serde(default)]
        pub headers: BTreeMap<String, String>,
        /// With `url`: a command that starts the server first (`{port}`: a free port).
        pub start: Option<String>,
        /// With `start`: ready once a line of its output contains this.
        pub ready_line: Option<String>,
        /// The suite name (`contract__<profile>__…` files): one server under several flag sets.
        pub profile: Option<String>,
        /// The snapshot file prefix (default: the server's name).
        pub module: Option<String>,
        /// The snapshot folder, relative to the configuration file.
        pub dir: Option<PathBuf>,
        /// The working directory of a stdio server, relative to the configuration file.
        pub cwd: Option<PathBuf>,
    }
}

with_suite_settings! {
    /// The top level of the file.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FileTop {
        /// The default snapshot folder.
        pub dir: Option<PathBuf>,
        /// The servers, in file order.
        #[serde(default)]
        pub server: Vec<ServerEntry>,
    }
}

/// The whole configuration file.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The folder of the file: relative paths start there.
    pub base: PathBuf,
    /// The default snapshot folder.
    pub dir: Option<PathBuf>,
    /// The defaults of every server.
    pub settings: SettingsLayer,
    /// The servers, in file order.
    pub servers: Vec<ServerEntry>,
}

/// Reads and checks a configuration file.
pub fn load(path: &Path) -> Result<Config, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        let message = format!("cannot read the configuration {}: {e}", path.display());
        CliError::usage(message).caused_by(e)
    })?;
    let base = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    parse(&text, base).map_err(|e| e.within(&path.display().to_string()))
}

/// Parses configuration text; errors name the line and column.
pub fn parse(text: &str, base: PathBuf) -> Result<Config, CliError> {
    let top: FileTop =
        toml::from_str(text).map_err(|e| CliError::usage(e.to_string().trim_end()).caused_by(e))?;
    let mut names = std::collections::BTreeSet::new();
    for entry in &top.server {
        if entry.name.is_empty() {
            return Err(CliError::usage("a [[server]] has an empty `name`"));
        }
        if !names.insert(entry.name.as_str()) {
            return Err(CliError::usage(format!(
                "two servers are named `{}`: names must be unique",
                entry.name
            )));
        }
        match (&entry.command, &entry.url) {
            (Some(_), Some(_)) => {
                return Err(CliError::usage(format!(
                    "server `{}` has both `command` and `url`: give one",
                    entry.name
                )))
            }
            (None, None) => {
                return Err(CliError::usage(format!(
                    "server `{}` has neither `command` nor `url`",
                    entry.name
                )))
            }
            _ => {}
        }
    }
    if top.server.is_empty() {
        return Err(CliError::usage(
            "no [[server]] table: add one per server to check",
        ));
    }
    Ok(Config {
        settings: top.settings(),
        dir: top.dir,
        servers: top.server,
        base,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let text = r#"
# comment
dir = "contracts"
fail_on = "breaking,safety"
lints = ["description-missing=deny"]

[[server]]
name = "memory"
command = ["npx", "-y", "@modelcontextprotocol/server-memory"] # trailing
env = { MEMORY_FILE_PATH = "/tmp/m.json", "X Y" = 'a\b' }
timeout = 20
lifecycle = "auto"
filters = ["local timezone is [^;]+ => local timezone is [tz]"]

[[server]]
name = "prod"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${MCP_TOKEN}" }
profile = "readonly"
"#;
        let config = parse(text, PathBuf::from(".")).unwrap();
        assert_eq!(config.dir, Some(PathBuf::from("contracts")));
        assert_eq!(config.servers.len(), 2);
        assert_eq!(
            config.servers[0].command,
            Some(CommandLine::Words(vec![
                "npx".into(),
                "-y".into(),
                "@modelcontextprotocol/server-memory".into()
            ]))
        );
        assert_eq!(config.servers[0].env["X Y"], "a\\b");
        assert_eq!(config.servers[0].timeout, Some(20.0));
        assert_eq!(config.servers[0].lifecycle.as_deref(), Some("auto"));
        assert_eq!(
            config.servers[1].headers["Authorization"],
            "Bearer ${MCP_TOKEN}"
        );
        assert_eq!(config.servers[1].profile.as_deref(), Some("readonly"));
        let merged = config.settings.then(&config.servers[0].settings());
        assert_eq!(merged.fail_on.as_deref(), Some("breaking,safety"));
        assert_eq!(merged.lints, ["description-missing=deny"]);
        assert_eq!(merged.filters.len(), 1);
    }

    #[test]
    fn errors_name_the_problem_and_where() {
        for (text, expected) in [
            ("[[server]]\nname = \"a\"\n", "server `a` has neither"),
            (
                "[[server]]\nname = \"a\"\ncommand = \"x\"\nbogus = 1\n",
                "unknown field `bogus`",
            ),
            ("[[server]]\nname = \"a\"\ncommand = [\"x\"\n", "line 3"),
            ("[[server]]\nname = 3\n", "invalid type"),
            ("dir = \"x\"\n", "no [[server]]"),
            (
                "[[server]]\nname=\"a\"\ncommand=\"x\"\n[[server]]\nname=\"a\"\ncommand=\"y\"\n",
                "two servers",
            ),
            ("[table]\n", "unknown field `table`"),
            (
                "lints = \"x=deny\"\n[[server]]\nname=\"a\"\ncommand=\"x\"\n",
                "invalid type",
            ),
        ] {
            let error = parse(text, PathBuf::from(".")).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
