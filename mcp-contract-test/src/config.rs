//! What one suite says, whichever face it came from: the attribute and the builder
//! ([`crate::Suite`]) or the CLI's flags and `mcp-contract.toml`. The one road ([`crate::run`])
//! reads nothing else, so a setting one face has and the other lacks cannot exist unnoticed:
//! both build this.

use crate::error::{Cause, ConfigError};
use crate::lint::Lints;
use crate::prepare::secrets;
use crate::prepare::Redactions;
use crate::probe::{HeaderValue, Lifecycle, ServerCommand, ServerSpec};
use crate::verdict::{FailOn, Layout, ReleaseVersion};
use mcp_contract_engine::Policy;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The probe's bound when a suite sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

pub use crate::env::timeout_from_secs;

/// Everything one suite says: how to reach the server, how to judge it, where its contract
/// lives.
#[derive(Debug, Clone)]
pub struct SuiteConfig {
    /// How to reach the server.
    pub server: ServerSpec,
    /// Bound on the whole probe.
    pub timeout: Duration,
    /// Which handshake opens the session.
    pub lifecycle: Lifecycle,
    /// What fails outside CI (`None`: breaking, safety, review).
    pub fail_on: Option<FailOn>,
    /// What fails in CI (`None`: any drift).
    pub ci_fail_on: Option<FailOn>,
    /// Class overrides and the depth bound.
    pub policy: Policy,
    /// Redactions and filters applied before comparing and writing.
    pub redactions: Redactions,
    /// Lint levels and policies.
    pub lints: Lints,
    /// The allow-list file of accepted lint findings, if any (already resolved against the
    /// crate or the configuration file).
    pub allow_list: Option<PathBuf>,
    /// Where the contract lives and how its snapshots are named.
    pub layout: Layout,
    /// A breaking or safety change needs a semver-major bump of the server's version since the
    /// accepted contract (`version-bump-missing` otherwise; see
    /// [`mcp_contract_engine::version`]).
    pub require_version_bump: bool,
    /// The server's own version as the face knows it — the package's `CARGO_PKG_VERSION` for
    /// the harness (with the version requirement), `--version` or the configuration's
    /// `version` for the CLI — recorded with the contract whenever given. `None`: the live
    /// `serverInfo.version`, for the version requirement only.
    pub version: Option<ReleaseVersion>,
    /// The folder of declared calls (`<dir>/<tool>/<case>.json`, see `calls`),
    /// already resolved against the crate or the configuration file; `None`: no tool is called.
    pub calls: Option<PathBuf>,
    /// The folder of consumers' usage files (`<dir>/<name>.json`, each its own test
    /// `consumers::<name>`), already resolved against the crate or the configuration file;
    /// `None`: no consumer is judged.
    pub consumers: Option<PathBuf>,
    /// Usage-aware: a breaking change of an item that no consumer's usage is broken by does
    /// not fail (outside `drift`); it needs [`SuiteConfig::consumers`].
    pub usage_aware: bool,
}

impl SuiteConfig {
    /// A suite with every setting at its default.
    pub fn new(server: ServerSpec, layout: Layout) -> SuiteConfig {
        SuiteConfig {
            server,
            timeout: DEFAULT_TIMEOUT,
            lifecycle: Lifecycle::default(),
            fail_on: None,
            ci_fail_on: None,
            policy: Policy::default(),
            redactions: Redactions::default(),
            lints: Lints::default(),
            allow_list: None,
            layout,
            require_version_bump: false,
            version: None,
            calls: None,
            consumers: None,
            usage_aware: false,
        }
    }

    /// Adds a redaction written as the attribute's `redact = [..]` and the CLI's `--redact`
    /// take it: `SELECTOR => PLACEHOLDER`, split at the first ` => ` (a selector alone gets
    /// `[redacted]`).
    ///
    /// # Errors
    ///
    /// The selector does not parse (the message says how selectors look).
    pub fn add_redaction(&mut self, text: &str) -> Result<(), ConfigError> {
        let (selector, placeholder) = text.split_once(" => ").unwrap_or((text, "[redacted]"));
        self.redactions = self
            .redactions
            .clone()
            .redact(selector.trim(), placeholder)
            .map_err(|e| {
                ConfigError::new("redact", text, format!("redact {e}")).caused_by(Cause::of(e))
            })?;
        Ok(())
    }

    /// Adds a filter written as the attribute's `filters = [..]` and the CLI's `--filter` take
    /// it: `REGEX => REPLACEMENT`, split at the last ` => `.
    ///
    /// # Errors
    ///
    /// No arrow, or a regular expression that does not compile.
    pub fn add_filter(&mut self, text: &str) -> Result<(), ConfigError> {
        let (pattern, replacement) = text.rsplit_once(" => ").ok_or_else(|| {
            let message = format!(
                "filter `{}` is written \"REGEX => REPLACEMENT\", e.g. \"\\d{{4}}-\\d\\d-\\d\\d => [date]\"",
                crate::escape::escape(text)
            );
            ConfigError::new("filters", text, message)
        })?;
        self.redactions = self
            .redactions
            .clone()
            .filter(pattern.trim(), replacement)
            .map_err(|e| {
                ConfigError::new("filters", text, format!("filter {e}")).caused_by(Cause::of(e))
            })?;
        Ok(())
    }

    /// The server as named in snapshot headers, reports and messages: credentials replaced by
    /// their placeholders (see [`secrets::scrub_command`]), and an absolute program path (a
    /// cargo-built binary) shortened to its file name, so that committed snapshots hold
    /// nothing secret and nothing machine-specific.
    pub fn server_label(&self) -> String {
        label(&self.server)
    }

    /// Every value of this configuration that is a credential: values of flags and `NAME=…`
    /// arguments whose name says secret, secret-named or secret-shaped environment values, and
    /// header values (environment variables read now); and the values of the secret-named
    /// variables of this process's environment, which a started server inherits (and an
    /// in-process one can read). Removed from
    /// anything the server echoes back before it is shown.
    pub fn known_secrets(&self) -> Vec<String> {
        let mut found = crate::env::inherited_secrets();
        let mut command_secrets = |command: &ServerCommand| found.extend(command.secrets());
        match &self.server {
            ServerSpec::Stdio(command) => command_secrets(command),
            ServerSpec::Http(endpoint) => {
                if let Some(start) = &endpoint.start {
                    command_secrets(start);
                }
                found.extend(endpoint.proxy_secrets());
                for (_, secret) in secrets::scrub_command(std::slice::from_ref(&endpoint.url)).1 {
                    found.push(secret);
                }
                for (_, value) in &endpoint.headers {
                    let resolved = match value {
                        HeaderValue::Literal(text) => Some(text.clone()),
                        HeaderValue::Env(var) | HeaderValue::Template { var, .. } => {
                            crate::env::var(var)
                        }
                    };
                    if let Some(resolved) = resolved.filter(|v| !v.is_empty()) {
                        // `Bearer TOKEN`: the token alone is the secret.
                        if let Some((_, token)) = resolved.split_once(' ') {
                            found.push(token.trim().to_owned());
                        }
                        found.push(resolved);
                    }
                }
            }
            ServerSpec::InProcess(_) => {}
        }
        // Sorted, then the short ones left out as the list is copied: `retain` with a closure
        // is a copy of its own.
        crate::ordered::sort_by(&mut found, &|a, b| a.cmp(b));
        found.dedup();
        let mut kept = Vec::with_capacity(found.len());
        for secret in found {
            if secret.len() >= 4 {
                kept.push(secret);
            }
        }
        kept
    }
}

/// See [`SuiteConfig::server_label`].
pub fn label(spec: &ServerSpec) -> String {
    let ServerSpec::Stdio(command) = spec else {
        return spec.display();
    };
    let mut command = command.clone();
    if Path::new(&command.program).is_absolute() {
        if let Some(name) = Path::new(&command.program).file_name() {
            command.program = name.to_string_lossy().into_owned();
        }
    }
    command.display()
}
